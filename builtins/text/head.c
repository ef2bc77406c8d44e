/*
 * head.c - GNU head.
 *
 * The first N lines or bytes are copied and the input is left at once, so
 * `yes | head -1` ends the writer. "All but the last N" (-n -N, -c -N)
 * keeps only a window of pending data: everything before the last N
 * lines/bytes seen so far is already written.
 */
#include <errno.h>
#include <string.h>

#include "builtins/text/headtail.h"

const char bi_usage_head[] = "Usage: head [OPTION]... [FILE]...";
const char bi_help_head[] =
    "Copy the start of each FILE to standard output: 10 lines unless an "
    "option\n"
    "says otherwise. When there are several FILEs, the output of each one "
    "comes\n"
    "after a \"==> FILE <==\" title line.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -c, --bytes=[-]NUM       copy NUM bytes from the start of each file;\n"
    "                             a leading '-' copies everything except the\n"
    "                             final NUM bytes\n"
    "  -n, --lines=[-]NUM       copy NUM lines rather than 10; a leading '-'\n"
    "                             copies everything except the final NUM "
    "lines\n"
    "  -q, --quiet, --silent    leave out the file name titles\n"
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

/* First n records or bytes. */
static int head_first(bi_ctx *c, stream *in, const ht_opt *o, writer *w,
                      int *rerr) {
  if (o->n == 0)
    return 0;
  return ht_copy(c, in, o, 0, o->n, w, rerr);
}

static int head_elide(bi_ctx *c, stream *in, const ht_opt *o, writer *w,
                      int *rerr) {
  const char *p;
  size_t len;
  if (stream_take_all(in, &p, &len) == 0) {
    size_t keep = o->bytes ? (o->n < len ? len - (size_t)o->n : 0)
                           : ht_last_lines(p, len, o->n, o->delim);
    return wr_write(w, p, keep) ? -1 : 0;
  }
  if (in->err == ECANCELED) {
    *rerr = ECANCELED;
    return 1;
  }
  buf b;
  buf_init(&b, c->m);
  size_t start = 0;
  uint64_t nl;
  int rc = ht_window(in, o, o->n, w, &b, &start, &nl, rerr);
  if (rc == 0 && !o->bytes && start < b.len && b.data[b.len - 1] != o->delim &&
      nl == o->n) {
    /* The unterminated last line is one of the last n: one more line
     * before the window goes out. */
    const char *e = memchr(b.data + start, o->delim, b.len - start);
    size_t l = e ? (size_t)(e - (b.data + start)) + 1 : b.len - start;
    if (wr_write(w, b.data + start, l))
      rc = -1;
  }
  buf_free(&b);
  return rc;
}

/* -n -N and -c -N elide the end; any other count copies the start. */
static int head_one(bi_ctx *c, stream *in, const ht_opt *o, writer *w,
                    int *rerr) {
  return o->sign == '-' ? head_elide(c, in, o, w, rerr)
                        : head_first(c, in, o, w, rerr);
}

/* head -5, -5c, -2q: GNU's obsolete first-argument form. */
static void obsolete(bi_ctx *c) {
  const char *a = c->argv[1];
  if (c->argc < 2 || a[0] != '-' || a[1] < '0' || a[1] > '9')
    return;
  size_t nd = strspn(a + 1, "0123456789");
  const char *rest = a + 1 + nd;
  char mult = 0, kind = 'n';
  int q = 0, v = 0;
  if (*rest && strchr("bkm", *rest))
    mult = *rest++;
  for (; *rest; rest++) {
    if (*rest == 'c')
      kind = 'c';
    else if (*rest == 'l')
      kind = 'n';
    else if (*rest == 'q')
      q = 1;
    else if (*rest == 'v')
      v = 1;
    else
      return;
  }
  char *opt = arena_alloc(c->scratch, nd + 8);
  if (!opt)
    return;
  opt[0] = '-';
  opt[1] = kind;
  memcpy(opt + 2, a + 1, nd);
  size_t k = nd + 2;
  if (mult)
    opt[k++] = mult == 'm' ? 'M' : mult == 'k' ? 'K' : 'b';
  opt[k] = 0;
  ht_rewrite_argv(c, opt, q ? "-q" : NULL, v ? "-v" : NULL);
}

int bi_head(bi_ctx *c) {
  static const bi_opt opts[] = {{"bytes", 'c', BI_ARG_REQUIRED},
                                {"lines", 'n', BI_ARG_REQUIRED},
                                {"quiet", 'q', BI_ARG_NONE},
                                {"silent", 'q', BI_ARG_NONE},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                BI_OPTS_END};
  bi_ctx sub = *c;
  obsolete(&sub);
  ht_opt o = HT_OPTIONS_INIT;
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, &sub, "c:n:qvz", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    if (ch == 'c' || ch == 'n') {
      const char *a = ht_count_arg(&o, ch, g.arg);
      int r = tu_parse_count(a, &o.n);
      if (r == -1)
        return ht_bad_count(c, &o, a, NULL);
      if (r == -2)
        return ht_bad_count(c, &o, a,
                            ": Value too large for defined data type");
    } else {
      ht_flag(&o, ch);
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  return ht_files(c, g.operands, g.noperands, &o, head_one);
}
