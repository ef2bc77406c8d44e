/*
 * whoami.c - GNU whoami. The sandbox has a single user: "user" (uid 1000),
 * whatever the host runs as, so scripts see a stable identity.
 */
#include "builtins/textutil.h"

const char bi_usage_whoami[] = "Usage: whoami [OPTION]...";
const char bi_help_whoami[] =
    "Print the user name associated with the current effective user ID.\n"
    "Same as id -un.\n"
    "\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n";

int bi_whoami(bi_ctx *c) {
  static const bi_opt opts[] = {{"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    if (ch == BI_OPT_HELP)
      return bi_print_help(c);
    if (ch == BI_OPT_VERSION)
      return tu_version(c);
    return 1;
  }
  if (g.noperands) {
    bi_error(c, "extra operand %s", tu_quote(c, g.operands[0]));
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
    return 1;
  }
  if (stream_puts(c->out, "user\n"))
    return bi_stream_status(c->out->err);
  return 0;
}
