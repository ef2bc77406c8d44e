/* yes.c - GNU yes: repeat a line until the reader goes away (status 141). */
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_yes[] = "Usage: yes [STRING]...\n  or:  yes OPTION";
const char bi_help_yes[] =
    "Repeatedly output a line with all specified STRING(s), or 'y'.\n"
    "\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n";

int bi_yes(bi_ctx *c) {
  static const bi_opt opts[] = {{"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  bi_getopt g;
  bi_getopt_init(&g, c, "", opts);
  int ch;
  while ((ch = bi_getopt_next(&g)) != -1) {
    if (ch == BI_OPT_HELP)
      return bi_print_help(c);
    if (ch == BI_OPT_VERSION)
      return tu_version(c);
    return 1;
  }
  buf line;
  buf_init(&line, c->m);
  for (int i = 0; i < g.noperands; i++) {
    if (i)
      buf_putc(&line, ' ');
    buf_puts(&line, g.operands[i]);
  }
  if (!g.noperands)
    buf_putc(&line, 'y');
  buf_putc(&line, '\n');
  /* Fill a block with whole copies of the line so each write is large. */
  buf block;
  buf_init(&block, c->m);
  while (block.len < 16384 && !buf_append(&block, line.data, line.len))
    ;
  buf_free(&line);
  int rc = 1;
  if (block.len) {
    while (stream_write(c->out, block.data, block.len) == 0)
      ;
    rc = bi_stream_status(c->out->err);
  }
  buf_free(&block);
  return rc;
}
