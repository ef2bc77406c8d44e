/*
 * whoami.c - GNU whoami. The sandbox has a single user: "user" (uid 1000),
 * whatever the host runs as, so scripts see a stable identity.
 */
#include "builtins/textutil.h"

const char bi_usage_whoami[] = "Usage: whoami [OPTION]...";
const char bi_help_whoami[] =
    "Print the name of the user whose ID is the current effective user ID; "
    "the\n"
    "result is the same as 'id -un'.\n"
    "\n"
    "      --help        print this summary and quit\n"
    "      --version     print the version line and quit\n";

int bi_whoami(bi_ctx *c) {
  bi_getopt g;
  if (tu_getopt_bare(c, &g))
    return g.status;
  if (g.noperands)
    return tu_extra_operand(c, g.operands[0]);
  if (stream_puts(c->out, "user\n"))
    return bi_stream_status(c->out->err);
  return 0;
}
