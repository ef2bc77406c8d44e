/*
 * fold.c - GNU fold: wrap lines to a width (80 by default).
 *
 * Columns count like a terminal: a tab moves to the next multiple of 8, a
 * backspace goes back one, a carriage return to 0; with -b every byte is
 * one column. A line is broken before the character that would pass the
 * width (never before the first one of a line); with -s at the last blank
 * before it, when there is one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_fold[] = "Usage: fold [OPTION]... [FILE]...";
const char bi_help_fold[] =
    "Break the long lines of each FILE so that none is wider than a given\n"
    "width, and print the result to standard output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -b, --bytes         measure width in bytes, not in screen columns\n"
    "  -s, --spaces        break after the last blank that fits, when there\n"
    "                        is one\n"
    "  -w, --width=WIDTH   lines may be at most WIDTH columns (default 80)\n"
    "      --help          print this summary and quit\n"
    "      --version       print the version line and quit\n";

static size_t adv(size_t col, unsigned char ch, int bytes) {
  if (bytes)
    return col + 1;
  switch (ch) {
  case '\t':
    return col + 8 - col % 8;
  case '\b':
    return col ? col - 1 : 0;
  case '\r':
    return 0;
  default:
    return col + 1;
  }
}

/* Fold one line (without its newline) held in l[0..n). */
static void fold_line(writer *w, const char *l, size_t n, size_t width,
                      int bytes, int spaces, buf *pend) {
  size_t col = 0;
  buf_clear(pend);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)l[i];
    size_t nc = adv(col, ch, bytes);
    if (nc > width && ch != '\b' && ch != '\r' && pend->len) {
      size_t cut = pend->len;
      if (spaces) {
        size_t j = pend->len;
        while (j > 0 && pend->data[j - 1] != ' ' && pend->data[j - 1] != '\t')
          j--;
        if (j > 0)
          cut = j;
      }
      wr_write(w, pend->data, cut);
      wr_putc(w, '\n');
      /* What followed the blank starts the next line. */
      size_t rest = pend->len - cut;
      memmove(pend->data, pend->data + cut, rest);
      pend->len = rest;
      col = 0;
      for (size_t j = 0; j < rest; j++)
        col = adv(col, (unsigned char)pend->data[j], bytes);
      i--; /* rescan this character on the new line */
      continue;
    }
    buf_putc(pend, ch);
    col = nc;
  }
  wr_write(w, pend->data, pend->len);
}

int bi_fold(bi_ctx *c) {
  static const bi_opt opts[] = {{"bytes", 'b', BI_ARG_NONE},
                                {"spaces", 's', BI_ARG_NONE},
                                {"width", 'w', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  int bytes = 0, spaces = 0, ch;
  size_t width = 80;
  /* GNU still accepts the obsolete -NUMBER form (fold -40). */
  bi_ctx sub;
  if (tu_obsolete_num(c, &sub, 'w', "width"))
    return 1;
  bi_getopt g;
  bi_getopt_init(&g, &sub, "bsw:", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'b':
      bytes = 1;
      break;
    case 's':
      spaces = 1;
      break;
    case 'w': {
      char *e;
      errno = 0;
      long long v = strtoll(g.arg, &e, 10);
      if (!*g.arg || *e || errno || v < 0) {
        bi_error(c, "invalid number of columns: %s%s", tu_quote(c, g.arg),
                 *g.arg && !*e && errno == ERANGE && v > 0
                     ? ": Value too large for defined data type"
                     : "");
        return 1;
      }
      if (v == 0) {
        bi_error(c,
                 "invalid number of columns: %s: Numerical result out of "
                 "range",
                 tu_quote(c, g.arg));
        return 1;
      }
      width = (size_t)v;
      break;
    }
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  writer w;
  wr_init(&w, c->out);
  buf pend;
  buf_init(&pend, c->m);
  tu_records recs;
  tu_records_init(&recs, c, g.operands, g.noperands, '\n', &w);
  const char *l;
  size_t n;
  while (tu_records_next(&recs, &l, &n) && !w.err) {
    int nl = l[n - 1] == '\n';
    fold_line(&w, l, n - (size_t)nl, width, bytes, spaces, &pend);
    if (nl)
      wr_putc(&w, '\n');
  }
  int status = tu_records_end(&recs);
  buf_free(&pend);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
