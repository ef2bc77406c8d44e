/* yes.c - GNU yes: repeat a line until the reader goes away (status 141). */
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_yes[] = "Usage: yes [STRING]...\n  or:  yes OPTION";
const char bi_help_yes[] =
    "Print the STRINGs, joined by spaces, as one line over and over until\n"
    "stopped; with no STRING the line is 'y'.\n"
    "\n"
    "      --help        print this summary and quit\n"
    "      --version     print the version line and quit\n";

int bi_yes(bi_ctx *c) {
  bi_getopt g;
  if (tu_getopt_bare(c, &g))
    return g.status;
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
  while (!line.oom && block.len < 16384 &&
         !buf_append(&block, line.data, line.len))
    ;
  buf_free(&line);
  int rc = 1;
  if (!block.len) {
    bi_error(c, "memory exhausted");
  } else {
    while (stream_write(c->out, block.data, block.len) == 0)
      ;
    rc = bi_stream_status(c->out->err);
  }
  buf_free(&block);
  return rc;
}
