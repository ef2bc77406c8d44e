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

#include "builtins/textutil.h"

const char bi_usage_head[] = "Usage: head [OPTION]... [FILE]...";
const char bi_help_head[] =
    "Print the first 10 lines of each FILE to standard output.\n"
    "With more than one FILE, precede each with a header giving the file "
    "name.\n"
    "\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options "
    "too.\n"
    "  -c, --bytes=[-]NUM       print the first NUM bytes of each file;\n"
    "                             with the leading '-', print all but the "
    "last\n"
    "                             NUM bytes of each file\n"
    "  -n, --lines=[-]NUM       print the first NUM lines instead of the "
    "first 10;\n"
    "                             with the leading '-', print all but the "
    "last\n"
    "                             NUM lines of each file\n"
    "  -q, --quiet, --silent    never print headers giving file names\n"
    "  -v, --verbose            always print headers giving file names\n"
    "  -z, --zero-terminated    line delimiter is NUL, not newline\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n"
    "\n"
    "NUM may have a multiplier suffix:\n"
    "b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,\n"
    "GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E.\n"
    "Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n";

typedef struct hopt {
  int bytes, elide, delim;
  uint64_t n;
} hopt;

/* First n records or bytes. 0, 1 read error, -1 write error. */
static int head_first(bi_ctx *c, stream *in, const hopt *o, writer *w,
                      int *rerr) {
  if (o->n == 0)
    return 0;
  reader r;
  rd_init(&r, c->m, in);
  int rc = 0;
  uint64_t left = o->n;
  if (o->bytes) {
    char tmp[8192];
    while (left) {
      long k = rd_read(&r, tmp, left < sizeof tmp ? left : sizeof tmp);
      if (k < 0) {
        *rerr = r.err;
        rc = 1;
        break;
      }
      if (k == 0)
        break;
      if (wr_write(w, tmp, (size_t)k)) {
        rc = -1;
        break;
      }
      left -= (uint64_t)k;
    }
  } else {
    const char *line;
    size_t len;
    int k;
    while (left && (k = rd_record(&r, o->delim, &line, &len)) != 0) {
      if (k < 0) {
        *rerr = r.err;
        rc = 1;
        break;
      }
      if (wr_write(w, line, len)) {
        rc = -1;
        break;
      }
      left--;
    }
  }
  rd_free(&r);
  return rc;
}

/* Everything but the last n records of data[0..len). */
static size_t keep_but_last_lines(const char *d, size_t len, uint64_t n,
                                  int delim) {
  if (n == 0)
    return len;
  size_t e = len;
  /* An unterminated last line counts as a line. */
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

static int head_elide(bi_ctx *c, stream *in, const hopt *o, writer *w,
                      int *rerr) {
  const char *p;
  size_t len;
  if (stream_take_all(in, &p, &len) == 0) {
    size_t keep = o->bytes ? (o->n < len ? len - (size_t)o->n : 0)
                           : keep_but_last_lines(p, len, o->n, o->delim);
    return wr_write(w, p, keep) ? -1 : 0;
  }
  if (in->err == ECANCELED) {
    *rerr = ECANCELED;
    return 1;
  }
  buf b;
  buf_init(&b, c->m);
  size_t start = 0;
  uint64_t nl = 0; /* delimiters in b[start..len) */
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
      if (b.len - start > o->n) {
        size_t out = b.len - start - (size_t)o->n;
        if (wr_write(w, b.data + start, out)) {
          rc = -1;
          break;
        }
        start += out;
      }
      continue;
    }
    for (const char *q = chunk;
         (q = memchr(q, o->delim, (size_t)(b.data + b.len - q))); q++)
      nl++;
    while (nl > o->n) {
      const char *e = memchr(b.data + start, o->delim, b.len - start);
      size_t l = (size_t)(e - (b.data + start)) + 1;
      if (wr_write(w, b.data + start, l)) {
        rc = -1;
        break;
      }
      start += l;
      nl--;
    }
    if (rc)
      break;
  }
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

/* head -5, -5c, -2q: GNU's obsolete first-argument form. */
static char **obsolete(bi_ctx *c, int *argc) {
  const char *a = c->argv[1];
  if (c->argc < 2 || a[0] != '-' || a[1] < '0' || a[1] > '9')
    return NULL;
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
      return NULL;
  }
  char **nv = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 4));
  char *opt = arena_alloc(c->scratch, nd + 8);
  if (!nv || !opt)
    return NULL;
  opt[0] = '-';
  opt[1] = kind;
  memcpy(opt + 2, a + 1, nd);
  size_t k = nd + 2;
  if (mult)
    opt[k++] = mult == 'm' ? 'M' : mult == 'k' ? 'K' : 'b';
  opt[k] = 0;
  int n = 0;
  nv[n++] = c->argv[0];
  nv[n++] = opt;
  if (q)
    nv[n++] = "-q";
  if (v)
    nv[n++] = "-v";
  for (int i = 2; i < c->argc; i++)
    nv[n++] = c->argv[i];
  nv[n] = NULL;
  *argc = n;
  return nv;
}

int bi_head(bi_ctx *c) {
  static const bi_opt opts[] = {{"bytes", 'c', BI_ARG_REQUIRED},
                                {"lines", 'n', BI_ARG_REQUIRED},
                                {"quiet", 'q', BI_ARG_NONE},
                                {"silent", 'q', BI_ARG_NONE},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"zero-terminated", 'z', BI_ARG_NONE},
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
  hopt o = {0, 0, '\n', 10};
  int verbose = 0, quiet = 0, ch;
  bi_getopt g;
  bi_getopt_init(&g, &sub, "c:n:qvz", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'c':
    case 'n': {
      const char *a = g.arg;
      o.bytes = ch == 'c';
      o.elide = 0;
      while (*a == ' ' || *a == '\t')
        a++;
      if (*a == '-') {
        o.elide = 1;
        a++;
      }
      int r = tu_parse_count(a, &o.n);
      if (r == -1) {
        bi_error(c, "invalid number of %s: '%s'", o.bytes ? "bytes" : "lines",
                 a);
        return 1;
      }
      if (r == -2) {
        bi_error(c,
                 "invalid number of %s: '%s': Value too large for "
                 "defined data type",
                 o.bytes ? "bytes" : "lines", a);
        return 1;
      }
      break;
    }
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
    if (!in) { /* GNU opens a directory and fails reading it */
      bi_error(c, "error reading %s: %s", tu_quote(c, name), bi_strerror(err));
      status = 1;
      continue;
    }
    int rerr = 0;
    int r = o.elide ? head_elide(c, in, &o, &w, &rerr)
                    : head_first(c, in, &o, &w, &rerr);
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
