/*
 * paste.c - GNU paste: merge lines of files side by side (or, with -s,
 * each file's lines into one line). The -d LIST is used round robin, with
 * the escapes \n \t \\ \0 (empty), and restarts for each output line (or
 * each file with -s), as GNU does.
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_paste[] = "Usage: paste [OPTION]... [FILE]...";
const char bi_help_paste[] =
    "Join the FILEs side by side: output line N is line N of every FILE, with "
    "a\n"
    "TAB between the pieces, written to standard output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -d, --delimiters=LIST   separate the pieces with the characters of "
    "LIST\n"
    "                            in turn, starting over when LIST runs out\n"
    "  -s, --serial            join all lines of one file before moving to "
    "the\n"
    "                            next file\n"
    "  -z, --zero-terminated   records end with a NUL byte instead of a "
    "newline\n"
    "      --help              print this summary and quit\n"
    "      --version           print the version line and quit\n";

/* Decode LIST: each entry one byte, or none for "\0". lens[i] is 0 or 1. */
static int parse_delims(bi_ctx *c, const char *s, char *out, char *lens) {
  int n = 0;
  for (; *s; s++) {
    char ch = *s;
    int len = 1;
    if (ch == '\\') {
      s++;
      switch (*s) {
      case 'n':
        ch = '\n';
        break;
      case 't':
        ch = '\t';
        break;
      case '\\':
        ch = '\\';
        break;
      case '0':
        len = 0;
        break;
      case 0:
        bi_error(c, "delimiter list ends with an unescaped backslash: %s",
                 s - 1);
        return -1;
      default:
        ch = *s;
      }
    }
    out[n] = ch;
    lens[n] = (char)len;
    n++;
  }
  return n;
}

int bi_paste(bi_ctx *c) {
  static const bi_opt opts[] = {{"delimiters", 'd', BI_ARG_REQUIRED},
                                {"serial", 's', BI_ARG_NONE},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                BI_OPTS_END};
  const char *dlist = "\t";
  int serial = 0, delim = '\n', ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "d:sz", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'd':
      dlist = g.arg;
      break;
    case 's':
      serial = 1;
      break;
    case 'z':
      delim = 0;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  size_t dlen = strlen(dlist);
  char *dch = arena_alloc(c->scratch, dlen + 1);
  char *dln = arena_alloc(c->scratch, dlen + 1);
  if (!dch || !dln)
    return 1;
  int nd = parse_delims(c, dlist, dch, dln);
  if (nd < 0)
    return 1;
  if (nd == 0) { /* -d '': no delimiter at all */
    dch[0] = 0;
    dln[0] = 0;
    nd = 1;
  }
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1, status = 0;
  writer w;
  wr_init(&w, c->out);
  stream **in = arena_calloc(c->scratch, sizeof(stream *) * (size_t)nfiles);
  reader *rd = arena_calloc(c->scratch, sizeof(reader) * (size_t)nfiles);
  if (!in || !rd)
    return 1;
  /* "-" given several times shares stdin: one reader for all of them. */
  int stdin_idx = -1;
  for (int i = 0; i < nfiles; i++) {
    int err;
    if (!strcmp(files[i], "-") && stdin_idx >= 0 && !serial)
      continue;
    in[i] = bi_open_read(c, files[i], &err);
    if (!in[i]) {
      tu_file_error(c, files[i], err);
      for (int j = 0; j < i; j++)
        if (in[j]) {
          rd_free(&rd[j]);
          stream_unref(in[j]);
        }
      return 1;
    }
    rd_init(&rd[i], c->m, in[i]);
    rd_flush_to(&rd[i], &w);
    if (!strcmp(files[i], "-") && stdin_idx < 0)
      stdin_idx = i;
  }
  int rerr = 0;
  if (serial) {
    for (int i = 0; i < nfiles && !w.err && !rerr; i++) {
      const char *l;
      size_t n;
      int k, first = 1, di = 0, any = 0;
      while ((k = rd_record(&rd[i], delim, &l, &n)) > 0) {
        if (n && l[n - 1] == delim)
          n--;
        if (!first) {
          wr_write(&w, &dch[di], (size_t)dln[di]);
          di = (di + 1) % nd;
        }
        first = 0;
        any = 1;
        wr_write(&w, l, n);
      }
      if (k < 0)
        rerr = rd[i].err;
      (void)any;
      wr_putc(&w, delim);
    }
  } else {
    int *done = arena_calloc(c->scratch, sizeof(int) * (size_t)nfiles);
    if (!done)
      return 1;
    for (;;) {
      int got = 0;
      buf line;
      buf_init(&line, c->m);
      int di = 0;
      for (int i = 0; i < nfiles; i++) {
        int src = (!strcmp(files[i], "-") && stdin_idx >= 0) ? stdin_idx : i;
        if (i)
          buf_append(&line, &dch[di], (size_t)dln[di]), di = (di + 1) % nd;
        if (done[src] && src == i)
          continue;
        const char *l;
        size_t n;
        int k = rd_record(&rd[src], delim, &l, &n);
        if (k < 0) {
          rerr = rd[src].err;
          break;
        }
        if (k == 0) {
          done[src] = 1;
          continue;
        }
        got = 1;
        if (n && l[n - 1] == delim)
          n--;
        buf_append(&line, l, n);
      }
      if (got && !rerr) {
        wr_write(&w, line.data, line.len);
        wr_putc(&w, delim);
      }
      buf_free(&line);
      if (!got || rerr || w.err)
        break;
    }
  }
  for (int i = 0; i < nfiles; i++)
    if (in[i]) {
      rd_free(&rd[i]);
      stream_unref(in[i]);
    }
  if (rerr) {
    if (rerr != ECANCELED)
      bi_error(c, "%s", bi_strerror(rerr));
    status = 1;
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
