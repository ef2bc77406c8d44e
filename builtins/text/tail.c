/*
 * tail.c - GNU tail, without following (-f is refused: nothing can change
 * a file while tail runs inside one exec).
 *
 * A file (zero-copy view) is searched backwards from its end. A pipe keeps
 * a window holding just the last N lines or bytes seen so far; +N forms
 * skip and then copy as data arrives.
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_tail[] = "Usage: tail [OPTION]... [FILE]...";
const char bi_help_tail[] =
    "Print the last 10 lines of each FILE to standard output.\n"
    "With more than one FILE, precede each with a header giving the file "
    "name.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options "
    "too.\n"
    "  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM "
    "to\n"
    "                             output starting with byte NUM of each "
    "file\n"
    "  -f, --follow[={name|descriptor}]\n"
    "                           not available in this sandbox: files cannot "
    "grow\n"
    "                             while tail runs\n"
    "  -n, --lines=[+]NUM       output the last NUM lines, instead of the "
    "last 10;\n"
    "                             or use -n +NUM to skip NUM-1 lines at the "
    "start\n"
    "  -q, --quiet, --silent    never output headers giving file names\n"
    "  -s, --sleep-interval=N   accepted for compatibility (no effect)\n"
    "  -v, --verbose            always output headers giving file names\n"
    "  -z, --zero-terminated    line delimiter is NUL, not newline\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n"
    "\n"
    "NUM may have a multiplier suffix:\n"
    "b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,\n"
    "GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E.\n"
    "Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n";

typedef struct topt {
  int bytes, from_start, delim;
  uint64_t n;
} topt;

/* Offset where the last n records of d[0..len) begin. */
static size_t last_lines(const char *d, size_t len, uint64_t n, int delim) {
  if (n == 0)
    return len;
  size_t e = len;
  if (e && d[e - 1] == delim)
    e--;
  while (e > 0) {
    const char *p = memrchr(d, delim, e);
    if (!p)
      return 0;
    if (--n == 0)
      return (size_t)(p - d) + 1;
    e = (size_t)(p - d);
  }
  return 0;
}

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

static int tail_view(const char *p, size_t len, const topt *o, writer *w) {
  size_t off;
  if (o->bytes) {
    if (o->from_start)
      off = o->n > 1 ? (o->n - 1 < len ? (size_t)o->n - 1 : len) : 0;
    else
      off = o->n < len ? len - (size_t)o->n : 0;
  } else {
    off = o->from_start ? skip_lines(p, len, o->n, o->delim)
                        : last_lines(p, len, o->n, o->delim);
  }
  return wr_write(w, p + off, len - off) ? -1 : 0;
}

/* +N from a pipe: skip, then copy. */
static int tail_from(bi_ctx *c, stream *in, const topt *o, writer *w,
                     int *rerr) {
  reader r;
  rd_init(&r, c->m, in);
  int rc = 0;
  uint64_t skip = o->n > 0 ? o->n - 1 : 0;
  if (o->bytes) {
    char tmp[8192];
    for (;;) {
      long k = rd_read(&r, tmp, sizeof tmp);
      if (k < 0) {
        *rerr = r.err;
        rc = 1;
        break;
      }
      if (k == 0)
        break;
      size_t s = skip < (uint64_t)k ? (size_t)skip : (size_t)k;
      skip -= s;
      if (wr_write(w, tmp + s, (size_t)k - s)) {
        rc = -1;
        break;
      }
    }
  } else {
    const char *line;
    size_t len;
    int k;
    while ((k = rd_record(&r, o->delim, &line, &len)) != 0) {
      if (k < 0) {
        *rerr = r.err;
        rc = 1;
        break;
      }
      if (skip) {
        skip--;
        continue;
      }
      if (wr_write(w, line, len)) {
        rc = -1;
        break;
      }
    }
  }
  rd_free(&r);
  return rc;
}

/* Last N from a pipe: a window over what was read. */
static int tail_window(bi_ctx *c, stream *in, const topt *o, writer *w,
                       int *rerr) {
  buf b;
  buf_init(&b, c->m);
  size_t start = 0;
  uint64_t nl = 0;
  int rc = 0;
  for (;;) {
    if (start > 65536 && start > b.len / 2) {
      memmove(b.data, b.data + start, b.len - start);
      b.len -= start;
      start = 0;
    }
    if (buf_reserve(&b, 65536)) {
      *rerr = ENOMEM;
      rc = 1;
      break;
    }
    long k = stream_read(in, b.data + b.len, 65536);
    if (k < 0) {
      *rerr = in->err;
      rc = 1;
      break;
    }
    if (k == 0)
      break;
    const char *chunk = b.data + b.len;
    b.len += (size_t)k;
    if (o->bytes) {
      if (b.len - start > o->n)
        start = b.len - (size_t)o->n;
      continue;
    }
    for (const char *q = chunk;
         (q = memchr(q, o->delim, (size_t)(b.data + b.len - q))); q++)
      nl++;
    /* Keep at most n+1 delimiters: the line before them may still be
     * needed if the input ends without a final delimiter. */
    while (nl > o->n && (nl - o->n > 1 || o->n == 0)) {
      const char *e = memchr(b.data + start, o->delim, b.len - start);
      start = (size_t)(e - b.data) + 1;
      nl--;
    }
  }
  if (rc == 0) {
    size_t len = b.len - start;
    const char *d = b.data ? b.data + start : "";
    if (tail_view(d, len, o, w))
      rc = -1;
  }
  buf_free(&b);
  return rc;
}

/* tail -5, +5, -5c, +2l: the obsolete first-argument forms. */
static char **obsolete(bi_ctx *c, int *argc) {
  if (c->argc < 2)
    return NULL;
  const char *a = c->argv[1];
  if ((a[0] != '-' && a[0] != '+') || a[1] < '0' || a[1] > '9')
    return NULL;
  /* "+N" is only the obsolete form when it is the single operand or is
   * followed by one file (as GNU without POSIXLY_CORRECT). */
  if (a[0] == '+' && c->argc > 3)
    return NULL;
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
    return NULL;
  char **nv = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 3));
  char *opt = arena_alloc(c->scratch, nd + 8);
  if (!nv || !opt)
    return NULL;
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
  int n = 0;
  nv[n++] = c->argv[0];
  nv[n++] = opt;
  if (a[1 + nd] && strchr(a + 1 + nd, 'f'))
    nv[n++] = "-f";
  for (int i = 2; i < c->argc; i++)
    nv[n++] = c->argv[i];
  nv[n] = NULL;
  *argc = n;
  return nv;
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
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  bi_ctx sub = *c;
  int nargc;
  char **nargv = obsolete(c, &nargc);
  if (nargv) {
    sub.argc = nargc;
    sub.argv = nargv;
  }
  topt o = {0, 0, '\n', 10};
  int verbose = 0, quiet = 0, follow = 0, ch;
  bi_getopt g;
  bi_getopt_init(&g, &sub, "c:fFn:qs:vz", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'c':
    case 'n': {
      const char *a = g.arg;
      o.bytes = ch == 'c';
      o.from_start = 0;
      while (*a == ' ' || *a == '\t')
        a++;
      if (*a == '+')
        o.from_start = 1;
      else if (*a == '-')
        a++;
      int r = tu_parse_count(a, &o.n);
      if (r == -1) {
        bi_error(c, "invalid number of %s: '%s'", o.bytes ? "bytes" : "lines",
                 g.arg);
        return 1;
      }
      break;
    }
    case 'f':
    case 'F':
      follow = 1;
      break;
    case 'q':
      quiet = 1;
      verbose = 0;
      break;
    case 'v':
      verbose = 1;
      quiet = 0;
      break;
    case 'z':
      o.delim = 0;
      break;
    case 's':
    case 'R':
    case 'P':
    case 'M':
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 1;
    }
  }
  if (follow) {
    bi_error(c, "cannot follow files: nothing can append to a file while "
                "tail runs in this sandbox (drop -f/-F)");
    return 1;
  }
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1;
  int headers = verbose || (nfiles > 1 && !quiet);
  writer w;
  wr_init(&w, c->out);
  int status = 0, first = 1;
  for (int i = 0; i < nfiles; i++) {
    const char *name = files[i];
    int err = 0;
    stream *in = bi_open_read(c, name, &err);
    if (!in && err != EISDIR) {
      bi_error(c, "cannot open %s for reading: %s", tu_quote(c, name),
               bi_strerror(err));
      status = 1;
      continue;
    }
    if (headers) {
      wr_printf(&w, "%s==> %s <==\n", first ? "" : "\n",
                strcmp(name, "-") ? name : "standard input");
      first = 0;
    }
    if (!in) {
      bi_error(c, "error reading %s: %s", tu_quote(c, name), bi_strerror(err));
      status = 1;
      continue;
    }
    int rerr = 0, r;
    const char *p;
    size_t len;
    if (stream_take_all(in, &p, &len) == 0)
      r = tail_view(p, len, &o, &w);
    else if (in->err == ECANCELED)
      r = 1, rerr = ECANCELED;
    else if (o.from_start)
      r = tail_from(c, in, &o, &w, &rerr);
    else
      r = tail_window(c, in, &o, &w, &rerr);
    stream_unref(in);
    if (r < 0 || w.err)
      return bi_stream_status(w.err);
    if (r > 0) {
      if (rerr == ECANCELED)
        return 1;
      bi_error(c, "error reading %s: %s", tu_quote(c, name), bi_strerror(rerr));
      status = 1;
    }
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
