/*
 * tac.c - GNU tac.
 *
 * The whole input is needed before the first record can be written, so each
 * file is slurped (zero-copy when the stream allows it) and its records are
 * found front to back, then written back to front. A record is the text up
 * to and including its separator (-b: the separator comes before it); an
 * unterminated last record is written as is, which is why GNU prints
 * "c" + "b\n" + "a\n" for "a\nb\nc".
 */
#include <errno.h>
#include <regex.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_tac[] = "Usage: tac [OPTION]... [FILE]...";
const char bi_help_tac[] =
    "Write each FILE to standard output with its records in reverse order, so\n"
    "the last line comes out first.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -b, --before             treat the separator as the start of the "
    "record\n"
    "                             after it, not the end of the record before "
    "it\n"
    "  -r, --regex              the -s STRING is a regular expression\n"
    "  -s, --separator=STRING   split records at STRING rather than at "
    "newlines\n"
    "      --help               print this summary and quit\n"
    "      --version            print the version line and quit\n";

typedef struct span {
  size_t off, len; /* separator position and length */
} span;

/* Separators of d[0..n): appended to *v (scratch). Returns the count or -1
 * when out of memory. */
static long find_seps(bi_ctx *c, const char *d, size_t n, const char *sep,
                      regex_t *re, span **v) {
  size_t cap = 64, k = 0;
  span *s = mem_alloc(c->m, cap * sizeof *s);
  if (!s)
    return -1;
  size_t sl = strlen(sep), pos = 0;
  while (pos < n) {
    size_t at, len;
    if (re) {
      regmatch_t m[1];
      m[0].rm_so = (regoff_t)pos;
      m[0].rm_eo = (regoff_t)n;
      if (regexec(re, d, 1, m, REG_STARTEND | (pos ? REG_NOTBOL : 0)) != 0)
        break;
      at = (size_t)m[0].rm_so;
      len = (size_t)(m[0].rm_eo - m[0].rm_so);
      if (len == 0) { /* an empty match separates nothing: move on */
        pos = at + 1;
        continue;
      }
    } else {
      const char *p = sl == 1 ? memchr(d + pos, sep[0], n - pos)
                              : memmem(d + pos, n - pos, sep, sl);
      if (!p)
        break;
      at = (size_t)(p - d);
      len = sl;
    }
    if (k == cap) {
      span *ns = mem_realloc(c->m, s, cap * 2 * sizeof *s);
      if (!ns) {
        mem_free(c->m, s);
        return -1;
      }
      s = ns;
      cap *= 2;
    }
    s[k].off = at;
    s[k].len = len;
    k++;
    pos = at + len;
  }
  *v = s;
  return (long)k;
}

static int tac_data(bi_ctx *c, writer *w, const char *d, size_t n,
                    const char *sep, regex_t *re, int before) {
  span *s;
  char *z = NULL;
  if (re) {
    /* regexec wants a C string even with REG_STARTEND (sanitizers check
     * it): give it a NUL-terminated copy. */
    if (!(z = mem_alloc(c->m, n + 1)))
      return bi_error(c, "%s", bi_strerror(ENOMEM)), 1;
    memcpy(z, d, n);
    z[n] = 0;
  }
  long k = find_seps(c, z ? z : d, n, sep, re, &s);
  mem_free(c->m, z);
  if (k < 0)
    return bi_error(c, "%s", bi_strerror(ENOMEM)), 1;
  if (!before) {
    /* record i = [end of sep i-1, end of sep i) */
    size_t tail = k ? s[k - 1].off + s[k - 1].len : 0;
    wr_write(w, d + tail, n - tail);
    for (long i = k - 1; i >= 0 && !w->err; i--) {
      size_t st = i ? s[i - 1].off + s[i - 1].len : 0;
      wr_write(w, d + st, s[i].off + s[i].len - st);
    }
  } else {
    /* record i = [start of sep i, start of sep i+1) */
    size_t end = n;
    for (long i = k - 1; i >= 0 && !w->err; i--) {
      wr_write(w, d + s[i].off, end - s[i].off);
      end = s[i].off;
    }
    wr_write(w, d, end);
  }
  mem_free(c->m, s);
  return 0;
}

int bi_tac(bi_ctx *c) {
  static const bi_opt opts[] = {{"before", 'b', BI_ARG_NONE},
                                {"regex", 'r', BI_ARG_NONE},
                                {"separator", 's', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  int before = 0, regex = 0, ch;
  const char *sep = "\n";
  bi_getopt g;
  bi_getopt_init(&g, c, "brs:", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'b':
      before = 1;
      break;
    case 'r':
      regex = 1;
      break;
    case 's':
      sep = g.arg;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  /* An empty separator matches nothing: the input is one record. */
  regex_t re;
  int have_re = 0;
  if (regex && *sep) {
    int rc = regcomp(&re, sep, 0);
    if (rc) {
      char msg[128];
      regerror(rc, &re, msg, sizeof msg);
      bi_error(c, "%s", msg);
      return 1;
    }
    have_re = 1;
  }
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1, status = 0;
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; i < nfiles && !w.err; i++) {
    int err = 0;
    stream *in = bi_open_read(c, files[i], &err);
    if (!in) {
      bi_error(c, "failed to open %s for reading: %s", fu_quote(c, files[i]),
               bi_strerror(err));
      status = 1;
      continue;
    }
    const char *d;
    size_t n;
    buf copy;
    buf_init(&copy, c->m);
    /* the files before are done: their lines go out before this one is
     * read, which may wait for a pipe */
    if (i > 0 && stream_would_block(in))
      wr_flush(&w);
    if (tu_slurp(c, in, &d, &n, &copy, &err)) {
      stream_unref(in);
      buf_free(&copy);
      if (err == ECANCELED)
        status = 1;
      else {
        bi_error(c, "%s: read error: %s", fu_quotef(c, files[i]),
                 bi_strerror(err));
        status = 1;
      }
      if (err == ECANCELED)
        break;
      continue;
    }
    if (*sep)
      status |= tac_data(c, &w, d, n, sep, have_re ? &re : NULL, before);
    else
      wr_write(&w, d, n);
    buf_free(&copy);
    stream_unref(in);
  }
  if (have_re)
    regfree(&re);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
