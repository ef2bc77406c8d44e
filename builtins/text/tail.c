/*
 * tail.c - GNU tail, without following (-f is refused: nothing can change
 * a file while tail runs inside one exec).
 *
 * A file (zero-copy view) is searched backwards from its end. A pipe keeps
 * a window holding just the last N lines or bytes seen so far; +N forms
 * skip and then copy as data arrives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/text/headtail.h"

const char bi_usage_tail[] = "Usage: tail [OPTION]... [FILE]...";
const char bi_help_tail[] =
    "Copy the end of each FILE to standard output: the final 10 lines unless "
    "an\n"
    "option says otherwise. When there are several FILEs, the output of each "
    "one\n"
    "comes after a \"==> FILE <==\" title line.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -c, --bytes=[+]NUM       copy the final NUM bytes; with +NUM, copy "
    "from\n"
    "                             byte number NUM onward\n"
    "  -f, --follow[={name|descriptor}]\n"
    "                           not available in this sandbox: files cannot "
    "grow\n"
    "                             while tail runs\n"
    "  -n, --lines=[+]NUM       copy the final NUM lines rather than 10; with\n"
    "                             +NUM, copy from line number NUM onward\n"
    "  -q, --quiet, --silent    leave out the file name titles\n"
    "  -s, --sleep-interval=N   accepted for compatibility (no effect)\n"
    "  -v, --verbose            add a file name title even for a single file\n"
    "  -z, --zero-terminated    records end with a NUL byte instead of a "
    "newline\n"
    "      --help               print this summary and quit\n"
    "      --version            print the version line and quit\n"
    "\n"
    "NUM accepts a unit: b (512), kB (1000), K (1024), MB (1000^2), M "
    "(1024^2),\n"
    "GB (1000^3), G (1024^3), then T, P, E in the same pattern; KiB, MiB and "
    "so\n"
    "on are other spellings of K, M and so on.\n";

/* Offset after skipping n-1 records (for +N). */
static size_t skip_lines(const char *d, size_t len, uint64_t n, int delim) {
  size_t off = 0;
  for (uint64_t i = 1; i < n && off < len; i++) {
    const char *p = memchr(d + off, delim, len - off);
    if (!p)
      return len;
    off = (size_t)(p - d) + 1;
  }
  return off;
}

static int tail_view(const char *p, size_t len, const ht_opt *o, writer *w) {
  size_t off;
  if (o->bytes) {
    if (o->sign == '+')
      off = o->n > 1 ? (o->n - 1 < len ? (size_t)o->n - 1 : len) : 0;
    else
      off = o->n < len ? len - (size_t)o->n : 0;
  } else {
    off = o->sign == '+' ? skip_lines(p, len, o->n, o->delim)
                         : ht_last_lines(p, len, o->n, o->delim);
  }
  return wr_write(w, p + off, len - off) ? -1 : 0;
}

/* Last N from a pipe: a window over what was read. */
static int tail_window(bi_ctx *c, stream *in, const ht_opt *o, writer *w,
                       int *rerr) {
  buf b;
  buf_init(&b, c->m);
  size_t start = 0;
  uint64_t nl;
  /* Keep one delimiter more than n: the line before them may still be
   * needed if the input ends without a final delimiter. */
  uint64_t keep = o->bytes || o->n == 0 || o->n == UINT64_MAX ? o->n : o->n + 1;
  int rc = ht_window(in, o, keep, NULL, &b, &start, &nl, rerr);
  if (rc == 0) {
    size_t len = b.len - start;
    const char *d = b.data ? b.data + start : "";
    if (tail_view(d, len, o, w))
      rc = -1;
  }
  buf_free(&b);
  return rc;
}

/* A file is searched from its end; a pipe is skipped (+N) or windowed. */
static int tail_one(bi_ctx *c, stream *in, const ht_opt *o, writer *w,
                    int *rerr) {
  const char *p;
  size_t len;
  if (stream_take_all(in, &p, &len) == 0)
    return tail_view(p, len, o, w);
  if (in->err == ECANCELED) {
    *rerr = ECANCELED;
    return 1;
  }
  if (o->sign == '+')
    return ht_copy(c, in, o, o->n > 0 ? o->n - 1 : 0, UINT64_MAX, w, rerr);
  return tail_window(c, in, o, w, rerr);
}

/* tail -5, +5, -5c, +2l: the obsolete first-argument forms. */
static void obsolete(bi_ctx *c) {
  if (c->argc < 2)
    return;
  const char *a = c->argv[1];
  if ((a[0] != '-' && a[0] != '+') || a[1] < '0' || a[1] > '9')
    return;
  /* "+N" is only the obsolete form when it is the single operand or is
   * followed by one file (as GNU without POSIXLY_CORRECT). */
  if (a[0] == '+' && c->argc > 3)
    return;
  size_t nd = strspn(a + 1, "0123456789");
  const char *rest = a + 1 + nd;
  char kind = 'n';
  if (*rest == 'c' || *rest == 'b' || *rest == 'l') {
    kind = *rest == 'l' ? 'n' : 'c';
    if (*rest == 'b')
      kind = 'b';
    rest++;
  }
  if (*rest == 'f')
    rest++;
  if (*rest)
    return;
  char *opt = arena_alloc(c->scratch, nd + 8);
  if (!opt)
    return;
  size_t k = 0;
  opt[k++] = '-';
  opt[k++] = kind == 'b' ? 'c' : kind;
  if (a[0] == '+')
    opt[k++] = '+';
  memcpy(opt + k, a + 1, nd);
  k += nd;
  if (kind == 'b')
    opt[k++] = 'b';
  opt[k] = 0;
  int follow = a[1 + nd] && strchr(a + 1 + nd, 'f');
  ht_rewrite_argv(c, opt, follow ? "-f" : NULL, NULL);
}

/* GNU's check of the values of -s (seconds, fractions allowed), --pid and
 * --max-unchanged-stats (whole numbers); non-zero after its complaint. */
static int bad_number(bi_ctx *c, int ch, const char *arg) {
  char *end;
  errno = 0;
  int bad;
  if (ch == 's') {
    double v = strtod(arg, &end);
    bad = end == arg || *end || !(v >= 0);
  } else {
    const char *p = arg;
    while (*p == ' ' || *p == '\t')
      p++;
    unsigned long long v = strtoull(p, &end, 10);
    bad = end == p || *end || *p == '-';
    if (!bad && (errno == ERANGE || (ch == 'P' && v > 0x7fffffffULL)))
      bad = 2;
  }
  if (!bad)
    return 0;
  bi_error(c, "%s: %s%s",
           ch == 's'   ? "invalid number of seconds"
           : ch == 'P' ? "invalid PID"
                       : "invalid maximum number of unchanged stats between "
                         "opens",
           tu_quote(c, arg),
           bad == 2 ? ": Value too large for defined data type" : "");
  return 1;
}

int bi_tail(bi_ctx *c) {
  static const bi_opt opts[] = {{"bytes", 'c', BI_ARG_REQUIRED},
                                {"follow", 'f', BI_ARG_OPTIONAL},
                                {"lines", 'n', BI_ARG_REQUIRED},
                                {"quiet", 'q', BI_ARG_NONE},
                                {"silent", 'q', BI_ARG_NONE},
                                {"sleep-interval", 's', BI_ARG_REQUIRED},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                {"retry", 'R', BI_ARG_NONE},
                                {"pid", 'P', BI_ARG_REQUIRED},
                                {"max-unchanged-stats", 'M', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  bi_ctx sub = *c;
  obsolete(&sub);
  ht_opt o = HT_OPTIONS_INIT;
  int follow = 0, pid = 0, ch;
  bi_getopt g;
  bi_getopt_init(&g, &sub, "c:fFn:qs:vz", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'c':
    case 'n':
      if (tu_parse_count(ht_count_arg(&o, ch, g.arg), &o.n) == -1)
        return ht_bad_count(c, &o, g.arg, NULL);
      break;
    case 'f':
    case 'F':
      follow = 1;
      break;
    case 's':
    case 'P':
    case 'M':
      /* they do nothing without -f, but their values are checked */
      if (bad_number(c, ch, g.arg))
        return 1;
      pid |= ch == 'P';
      break;
    default: /* --retry does nothing */
      ht_flag(&o, ch);
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (pid && !follow)
    bi_error(c, "warning: PID ignored; --pid=PID is useful only when "
                "following");
  if (follow) {
    bi_error(c, "cannot follow files: nothing can append to a file while "
                "tail runs in this sandbox (drop -f/-F)");
    return 1;
  }
  return ht_files(c, g.operands, g.noperands, &o, tail_one);
}
