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
    "Wrap input lines in each FILE, writing to standard output.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options "
    "too.\n"
    "  -b, --bytes         count bytes rather than columns\n"
    "  -s, --spaces        break at spaces\n"
    "  -w, --width=WIDTH   use WIDTH columns instead of 80\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n";

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
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int bytes = 0, spaces = 0, ch;
  size_t width = 80;
  /* GNU still accepts the obsolete -NUMBER form (fold -40). */
  bi_ctx sub = *c;
  char **av = NULL;
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (a[0] == '-' && a[1] >= '0' && a[1] <= '9') {
      if (!av) {
        av = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 1));
        if (!av)
          return 1;
        memcpy(av, c->argv, sizeof(char *) * (size_t)(c->argc + 1));
        sub.argv = av;
      }
      size_t l = strlen(a);
      char *na = arena_alloc(c->scratch, l + 2);
      if (!na)
        return 1;
      na[0] = '-';
      na[1] = 'w';
      memcpy(na + 2, a + 1, l);
      av[i] = na;
    } else if (!strcmp(a, "--")) {
      break;
    }
  }
  bi_getopt g;
  bi_getopt_init(&g, &sub, "bsw:", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
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
        bi_error(c, "invalid number of columns: %s", tu_quote(c, g.arg));
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
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 1;
    }
  }
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1, status = 0;
  writer w;
  wr_init(&w, c->out);
  buf pend;
  buf_init(&pend, c->m);
  for (int i = 0; i < nfiles && !w.err; i++) {
    int err;
    stream *in = bi_open_read(c, files[i], &err);
    if (!in) {
      tu_file_error(c, files[i], err);
      status = 1;
      continue;
    }
    reader r;
    rd_init(&r, c->m, in);
    const char *l;
    size_t n;
    int k;
    while ((k = rd_record(&r, '\n', &l, &n)) > 0 && !w.err) {
      int nl = l[n - 1] == '\n';
      fold_line(&w, l, n - (size_t)nl, width, bytes, spaces, &pend);
      if (nl)
        wr_putc(&w, '\n');
    }
    if (k < 0) {
      if (r.err != ECANCELED)
        tu_file_error(c, files[i], r.err);
      status = 1;
    }
    rd_free(&r);
    stream_unref(in);
  }
  buf_free(&pend);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
