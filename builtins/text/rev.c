/*
 * rev.c - util-linux rev: each line reversed character by character.
 *
 * In a UTF-8 locale characters are UTF-8 sequences, so "é" stays intact,
 * and invalid bytes count as one character each; in the C locale (no
 * locale variable set) lines are reversed byte by byte. (util-linux itself
 * stops with an error on such bytes in either case, a limit of its wide
 * character input rather than something to copy.) The newline stays at the
 * end.
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_rev[] = "Usage: rev [options] [file ...]";
const char bi_help_rev[] =
    "\n"
    "Print every line of the FILEs (standard input when there are none) with\n"
    "its characters in reverse order.\n"
    "\n"
    "Options:\n"
    " -h, --help     print this summary and quit\n"
    " -V, --version  print the version line and quit\n";

static void rev_line(writer *w, const char *s, size_t n, char *tmp, int utf8) {
  /* Fill tmp from the end: each character copied in order, placed before
   * the previous one. */
  size_t o = n, i = 0;
  while (i < n) {
    uint32_t cp;
    size_t l = utf8 ? tu_utf8_get(s + i, n - i, &cp) : 1;
    o -= l;
    memcpy(tmp + o, s + i, l);
    i += l;
  }
  wr_write(w, tmp, n);
}

int bi_rev(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"help", 'h', BI_ARG_NONE}, {"version", 'V', BI_ARG_NONE}, {NULL, 0, 0}};
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "hV", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'h':
      return bi_print_help(c);
    case 'V':
      stream_puts(c->out, "rev (util-linux compatible; vsh) 2.38.1\n");
      return 0;
    default:
      return 1;
    }
  }
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1, status = 0;
  int utf8 = tu_utf8_locale(c);
  writer w;
  wr_init(&w, c->out);
  buf tmp;
  buf_init(&tmp, c->m);
  for (int i = 0; i < nfiles && !w.err; i++) {
    int err = 0;
    stream *in = bi_open_read(c, files[i], &err);
    if (!in) {
      bi_error(c, "cannot open %s: %s", files[i], bi_strerror(err));
      status = 1;
      continue;
    }
    reader r;
    rd_init(&r, c->m, in);
    rd_flush_to(&r, &w);
    const char *line;
    size_t len;
    int k;
    while ((k = rd_record(&r, '\n', &line, &len)) > 0) {
      int nl = line[len - 1] == '\n';
      size_t body = len - (size_t)nl;
      buf_clear(&tmp);
      if (buf_reserve(&tmp, body + 1)) {
        r.err = ENOMEM;
        k = -1;
        break;
      }
      rev_line(&w, line, body, tmp.data, utf8);
      if (nl)
        wr_putc(&w, '\n');
      if (w.err)
        break;
    }
    if (k < 0) {
      status = 1;
      if (r.err != ECANCELED)
        bi_error(c, "%s: %s", files[i], bi_strerror(r.err));
    }
    int cancel = k < 0 && r.err == ECANCELED;
    rd_free(&r);
    stream_unref(in);
    if (cancel)
      break;
  }
  buf_free(&tmp);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
