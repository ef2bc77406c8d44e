/*
 * tty.c - GNU tty. A sandboxed script's standard input is never a
 * terminal, so tty always answers "not a tty" and fails (status 1), as it
 * does on a pipe; -s only sets the status.
 */
#include "builtins/textutil.h"

const char bi_usage_tty[] = "Usage: tty [OPTION]...";
const char bi_help_tty[] =
    "Print the name of the terminal on standard input.\n"
    "\n"
    "  -s, --silent, --quiet   print nothing; only the exit status tells\n"
    "      --help              print this summary and quit\n"
    "      --version           print the version line and quit\n";

int bi_tty(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"silent", 's', BI_ARG_NONE}, {"quiet", 's', BI_ARG_NONE}, BI_OPTS_END};
  int ch, silent = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "s", opts);
  while ((ch = bi_getopt_each(&g, 2)) > 0)
    if (ch == 's')
      silent = 1;
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands) {
    tu_extra_operand(c, g.operands[0]);
    return 2;
  }
  if (!silent && stream_puts(c->out, "not a tty\n"))
    return 3;
  return 1;
}
