/*
 * sum.c - GNU md5sum, sha1sum, sha256sum and sha512sum: one front end over
 * the digests of hash_*.c.
 *
 * Files are hashed as bytes (there is no text mode on GNU/Linux: -b and -t
 * only change the '*' or ' ' before the name). Names holding a backslash
 * or a newline are escaped and the line starts with '\', so that -c can read
 * them back. -c reads "HASH  NAME", "HASH *NAME" and the --tag form
 * "ALG (NAME) = HASH", and reports like GNU.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "builtins/text/hash.h"
#include "builtins/textutil.h"

#define SUM_HELP(alg, bits)                                                    \
  "Print or check " alg " (" bits "-bit) checksums.\n"                         \
  "\n"                                                                         \
  "With no FILE, or when FILE is -, read standard input.\n"                    \
  "\n"                                                                         \
  "  -b, --binary         read in binary mode\n"                               \
  "  -c, --check          read checksums from the FILEs and check them\n"      \
  "      --tag            create a BSD-style checksum\n"                       \
  "  -t, --text           read in text mode (default)\n"                       \
  "  -z, --zero           end each output line with NUL, not newline,\n"       \
  "                       and disable file name escaping\n"                    \
  "\n"                                                                         \
  "The following five options are useful only when verifying checksums:\n"     \
  "      --ignore-missing  don't fail or report status for missing files\n"    \
  "      --quiet          don't print OK for each successfully verified "      \
  "file\n"                                                                     \
  "      --status         don't output anything, status code shows success\n"  \
  "      --strict         exit non-zero for improperly formatted checksum "    \
  "lines\n"                                                                    \
  "  -w, --warn           warn about improperly formatted checksum lines\n"    \
  "\n"                                                                         \
  "      --help        display this help and exit\n"                           \
  "      --version     output version information and exit\n"

const char bi_usage_md5sum[] = "Usage: md5sum [OPTION]... [FILE]...";
const char bi_help_md5sum[] = SUM_HELP("MD5", "128");
const char bi_usage_sha1sum[] = "Usage: sha1sum [OPTION]... [FILE]...";
const char bi_help_sha1sum[] = SUM_HELP("SHA1", "160");
const char bi_usage_sha256sum[] = "Usage: sha256sum [OPTION]... [FILE]...";
const char bi_help_sha256sum[] = SUM_HELP("SHA256", "256");
const char bi_usage_sha512sum[] = "Usage: sha512sum [OPTION]... [FILE]...";
const char bi_help_sha512sum[] = SUM_HELP("SHA512", "512");

typedef union hctx {
  md5_ctx md5;
  sha1_ctx sha1;
  sha256_ctx sha256;
  sha512_ctx sha512;
} hctx;

typedef struct alg {
  const char *tag; /* "MD5", as in --tag output and messages */
  size_t len;      /* digest bytes */
  void (*init)(hctx *);
  void (*update)(hctx *, const void *, size_t);
  void (*final)(hctx *, unsigned char *);
} alg;

#define ADAPT(name)                                                            \
  static void name##_i(hctx *h) {                                              \
    name##_init(&h->name);                                                     \
  }                                                                            \
  static void name##_u(hctx *h, const void *p, size_t n) {                     \
    name##_update(&h->name, p, n);                                             \
  }                                                                            \
  static void name##_f(hctx *h, unsigned char *o) {                            \
    name##_final(&h->name, o);                                                 \
  }
ADAPT(md5)
ADAPT(sha1)
ADAPT(sha256)
ADAPT(sha512)

static const alg algs[] = {{"MD5", 16, md5_i, md5_u, md5_f},
                           {"SHA1", 20, sha1_i, sha1_u, sha1_f},
                           {"SHA256", 32, sha256_i, sha256_u, sha256_f},
                           {"SHA512", 64, sha512_i, sha512_u, sha512_f}};

/* Digest of a file operand. 0, or an errno value (message not printed). */
static int hash_file(bi_ctx *c, const alg *a, const char *name,
                     unsigned char *out) {
  int err = 0;
  stream *in = bi_open_read(c, name, &err);
  if (!in)
    return err;
  hctx h;
  a->init(&h);
  const char *p;
  size_t n;
  if (stream_take_all(in, &p, &n) == 0) {
    a->update(&h, p, n);
  } else if (in->err == ECANCELED) {
    err = ECANCELED;
  } else {
    char tmp[16384];
    long k;
    while ((k = stream_read(in, tmp, sizeof tmp)) > 0)
      a->update(&h, tmp, (size_t)k);
    if (k < 0)
      err = in->err;
  }
  stream_unref(in);
  if (!err)
    a->final(&h, out);
  return err;
}

/* GNU's quotef: quote a name only when it is not "plain". */
static const char *quotef(bi_ctx *c, const char *s) {
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && !strchr("._-/+,:@%", *p))
      return tu_quote(c, s);
  return s;
}

static void put_name(writer *w, const char *s, int escape) {
  for (; *s; s++) {
    if (escape && *s == '\\')
      wr_puts(w, "\\\\");
    else if (escape && *s == '\n')
      wr_puts(w, "\\n");
    else if (escape && *s == '\r')
      wr_puts(w, "\\r");
    else
      wr_putc(w, *s);
  }
}

static int hexval(int ch) {
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  ch = tolower(ch);
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  return -1;
}

/* Parse a checksum line: the digest into want, the name (unescaped) into
 * name. 0, or -1 when improperly formatted. */
static int parse_line(const alg *a, const char *l, size_t n,
                      unsigned char *want, buf *name) {
  int escaped = 0;
  if (n && l[0] == '\\') {
    escaped = 1;
    l++;
    n--;
  }
  const char *hex, *nm;
  size_t nml;
  size_t tl = strlen(a->tag);
  if (n > tl + 2 && !strncmp(l, a->tag, tl) && l[tl] == ' ' &&
      l[tl + 1] == '(') {
    /* ALG (NAME) = HASH */
    const char *e = NULL;
    for (size_t i = n; i-- > tl + 2;)
      if (l[i] == ')' && i + 3 < n && !strncmp(l + i, ") = ", 4)) {
        e = l + i;
        break;
      }
    if (!e)
      return -1;
    nm = l + tl + 2;
    nml = (size_t)(e - nm);
    hex = e + 4;
    if ((size_t)(l + n - hex) != a->len * 2)
      return -1;
  } else {
    if (n < a->len * 2 + 2)
      return -1;
    hex = l;
    if (l[a->len * 2] != ' ' ||
        (l[a->len * 2 + 1] != ' ' && l[a->len * 2 + 1] != '*'))
      return -1;
    nm = l + a->len * 2 + 2;
    nml = n - a->len * 2 - 2;
  }
  if (!nml)
    return -1;
  for (size_t i = 0; i < a->len; i++) {
    int hi = hexval((unsigned char)hex[2 * i]),
        lo = hexval((unsigned char)hex[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return -1;
    want[i] = (unsigned char)(hi << 4 | lo);
  }
  buf_clear(name);
  for (size_t i = 0; i < nml; i++) {
    if (escaped && nm[i] == '\\' && i + 1 < nml) {
      i++;
      buf_putc(name, nm[i] == 'n' ? '\n' : nm[i] == 'r' ? '\r' : nm[i]);
    } else {
      buf_putc(name, nm[i]);
    }
  }
  return 0;
}

typedef struct chk {
  int quiet, status, warn, strict, ignore_missing;
  uint64_t bad_lines, unreadable, mismatched;
} chk;

static int check_file(bi_ctx *c, const alg *a, const char *file, chk *o,
                      writer *w) {
  int err;
  stream *in = bi_open_read(c, file, &err);
  const char *shown = strcmp(file, "-") ? file : "standard input";
  if (!in) {
    tu_file_error(c, file, err);
    return 1;
  }
  reader r;
  rd_init(&r, c->m, in);
  buf name;
  buf_init(&name, c->m);
  const char *l;
  size_t n;
  int k, rc = 0;
  uint64_t lineno = 0, good_lines = 0, verified = 0, bad0 = o->bad_lines;
  unsigned char want[64], got[64];
  while ((k = rd_record(&r, '\n', &l, &n)) > 0) {
    lineno++;
    if (n && l[n - 1] == '\n')
      n--;
    if (n && l[n - 1] == '\r')
      n--;
    if (n && l[0] == '#')
      continue;
    if (parse_line(a, l, n, want, &name)) {
      o->bad_lines++;
      if (o->warn) {
        wr_flush(w);
        bi_error(c, "%s: %llu: improperly formatted %s checksum line",
                 quotef(c, shown), (unsigned long long)lineno, a->tag);
      }
      continue;
    }
    good_lines++;
    const char *nm = buf_cstr(&name);
    int e = hash_file(c, a, nm, got);
    if (e == ECANCELED) {
      rc = 1;
      break;
    }
    if (e) {
      if (e == ENOENT && o->ignore_missing)
        continue;
      wr_flush(w);
      tu_file_error(c, nm, e);
      o->unreadable++;
      if (!o->status)
        wr_printf(w, "%s: FAILED open or read\n", nm);
      continue;
    }
    verified++;
    if (memcmp(want, got, a->len)) {
      o->mismatched++;
      if (!o->status)
        wr_printf(w, "%s: FAILED\n", nm);
    } else if (!o->status && !o->quiet) {
      wr_printf(w, "%s: OK\n", nm);
    }
    if (w->err)
      break;
  }
  if (k < 0) {
    if (r.err != ECANCELED)
      tu_file_error(c, file, r.err);
    rc = 1;
  }
  rd_free(&r);
  buf_free(&name);
  stream_unref(in);
  if (rc)
    return rc;
  wr_flush(w);
  if (!good_lines) {
    /* This message replaces the count of bad lines for this file. */
    o->bad_lines = bad0;
    bi_error(c, "%s: no properly formatted checksum lines found",
             quotef(c, shown));
    return 1;
  }
  if (o->ignore_missing && !verified) {
    bi_error(c, "%s: no file was verified", quotef(c, shown));
    return 1;
  }
  return 0;
}

static int sum_main(bi_ctx *c, const alg *a) {
  static const bi_opt opts[] = {{"binary", 'b', BI_ARG_NONE},
                                {"check", 'c', BI_ARG_NONE},
                                {"tag", 0x100, BI_ARG_NONE},
                                {"text", 't', BI_ARG_NONE},
                                {"zero", 'z', BI_ARG_NONE},
                                {"ignore-missing", 0x101, BI_ARG_NONE},
                                {"quiet", 0x102, BI_ARG_NONE},
                                {"status", 0x103, BI_ARG_NONE},
                                {"strict", 0x104, BI_ARG_NONE},
                                {"warn", 'w', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int binary = 0, check = 0, tag = 0, zero = 0, ch;
  chk o;
  memset(&o, 0, sizeof o);
  bi_getopt g;
  bi_getopt_init(&g, c, "bctzw", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'b':
      binary = 1;
      break;
    case 't':
      binary = 0;
      break;
    case 'c':
      check = 1;
      break;
    case 'z':
      zero = 1;
      break;
    case 'w':
      o.warn = 1;
      break;
    case 0x100:
      tag = 1;
      break;
    case 0x101:
      o.ignore_missing = 1;
      break;
    case 0x102:
      o.quiet = 1;
      break;
    case 0x103:
      o.status = 1;
      break;
    case 0x104:
      o.strict = 1;
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 1;
    }
  }
  if (check && tag) {
    bi_error(c, "the --tag option is meaningless when verifying checksums");
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
    return 1;
  }
  if (!check &&
      (o.quiet || o.status || o.warn || o.strict || o.ignore_missing)) {
    const char *opt = o.ignore_missing ? "--ignore-missing"
                      : o.status       ? "--status"
                      : o.warn         ? "--warn"
                      : o.strict       ? "--strict"
                                       : "--quiet";
    bi_error(c, "the %s option is meaningful only when verifying checksums",
             opt);
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
    return 1;
  }
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1, status = 0;
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; i < nfiles && !w.err; i++) {
    if (check) {
      status |= check_file(c, a, files[i], &o, &w);
      continue;
    }
    unsigned char d[64];
    int e = hash_file(c, a, files[i], d);
    if (e == ECANCELED)
      return 1;
    if (e) {
      wr_flush(&w);
      tu_file_error(c, files[i], e);
      status = 1;
      continue;
    }
    const char *nm = files[i];
    int esc = !zero && strpbrk(nm, "\\\n\r") != NULL;
    if (tag) {
      if (esc)
        wr_putc(&w, '\\');
      wr_printf(&w, "%s (", a->tag);
      put_name(&w, nm, esc);
      wr_puts(&w, ") = ");
      for (size_t k = 0; k < a->len; k++)
        wr_printf(&w, "%02x", d[k]);
    } else {
      if (esc)
        wr_putc(&w, '\\');
      for (size_t k = 0; k < a->len; k++)
        wr_printf(&w, "%02x", d[k]);
      wr_puts(&w, binary ? " *" : "  ");
      put_name(&w, nm, esc);
    }
    wr_putc(&w, zero ? 0 : '\n');
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  if (check && !o.status) {
    if (o.bad_lines)
      bi_error(c, "WARNING: %llu line%s improperly formatted",
               (unsigned long long)o.bad_lines,
               o.bad_lines == 1 ? " is" : "s are");
    if (o.unreadable)
      bi_error(c, "WARNING: %llu listed file%s could not be read",
               (unsigned long long)o.unreadable, o.unreadable == 1 ? "" : "s");
    if (o.mismatched)
      bi_error(c, "WARNING: %llu computed checksum%s did NOT match",
               (unsigned long long)o.mismatched, o.mismatched == 1 ? "" : "s");
  }
  if (o.unreadable || o.mismatched || (o.strict && o.bad_lines))
    status = 1;
  return status;
}

int bi_md5sum(bi_ctx *c) {
  return sum_main(c, &algs[0]);
}
int bi_sha1sum(bi_ctx *c) {
  return sum_main(c, &algs[1]);
}
int bi_sha256sum(bi_ctx *c) {
  return sum_main(c, &algs[2]);
}
int bi_sha512sum(bi_ctx *c) {
  return sum_main(c, &algs[3]);
}
