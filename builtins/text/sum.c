/*
 * sum.c - GNU md5sum, sha1sum, sha224sum, sha256sum, sha384sum and
 * sha512sum: one front end over libcrypto's EVP digests.
 *
 * Files are hashed as bytes (there is no text mode on GNU/Linux: -b and -t
 * only change the '*' or ' ' before the name). Names holding a backslash
 * or a newline are escaped and the line starts with '\', so that -c can read
 * them back. -c reads "HASH  NAME", "HASH *NAME" and the --tag form
 * "ALG (NAME) = HASH", and reports like GNU.
 *
 * One EVP context serves a whole command and is reset for every file. If it
 * cannot be had, or libcrypto fails a digest step, the command stops with a
 * message and status 1.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

#define SUM_HELP(alg, bits)                                                    \
  "Compute the " alg " digest of each FILE, or with -c verify the digests\n"   \
  "listed in the FILEs. Each digest is " bits " bits long, printed in\n"       \
  "hexadecimal. Standard input is read when no FILE is given and for a FILE\n" \
  "named -.\n"                                                                 \
  "\n"                                                                         \
  "  -b, --binary         put '*' before each name (input is always read\n"    \
  "                       as raw bytes)\n"                                     \
  "  -c, --check          take each FILE as a list of digest lines and\n"      \
  "                       verify the files it names\n"                         \
  "      --tag            write lines as '" alg " (NAME) = DIGEST'\n"          \
  "  -t, --text           put a space before each name (the default)\n"        \
  "  -z, --zero           finish each output line with a NUL byte and\n"       \
  "                       write names as they are, without escapes\n"          \
  "\n"                                                                         \
  "Options that apply only together with -c:\n"                                \
  "      --ignore-missing  skip listed files that do not exist\n"              \
  "      --quiet          say nothing about files whose digest matches\n"      \
  "      --status         print nothing; only the exit status tells\n"         \
  "      --strict         fail when a line is not a valid digest line\n"       \
  "  -w, --warn           report every line that is not a valid digest\n"      \
  "                       line\n"                                              \
  "\n"                                                                         \
  "      --help           print this summary and quit\n"                       \
  "      --version        print the version line and quit\n"

const char bi_usage_md5sum[] = "Usage: md5sum [OPTION]... [FILE]...";
const char bi_help_md5sum[] = SUM_HELP("MD5", "128");
const char bi_usage_sha1sum[] = "Usage: sha1sum [OPTION]... [FILE]...";
const char bi_help_sha1sum[] = SUM_HELP("SHA1", "160");
const char bi_usage_sha224sum[] = "Usage: sha224sum [OPTION]... [FILE]...";
const char bi_help_sha224sum[] = SUM_HELP("SHA224", "224");
const char bi_usage_sha256sum[] = "Usage: sha256sum [OPTION]... [FILE]...";
const char bi_help_sha256sum[] = SUM_HELP("SHA256", "256");
const char bi_usage_sha384sum[] = "Usage: sha384sum [OPTION]... [FILE]...";
const char bi_help_sha384sum[] = SUM_HELP("SHA384", "384");
const char bi_usage_sha512sum[] = "Usage: sha512sum [OPTION]... [FILE]...";
const char bi_help_sha512sum[] = SUM_HELP("SHA512", "512");

typedef struct alg {
  const char *tag;           /* "MD5", as in --tag output and messages */
  size_t len;                /* digest bytes */
  const EVP_MD *(*md)(void); /* the libcrypto digest */
} alg;

static const alg algs[] = {
    {"MD5", 16, EVP_md5},       {"SHA1", 20, EVP_sha1},
    {"SHA224", 28, EVP_sha224}, {"SHA256", 32, EVP_sha256},
    {"SHA384", 48, EVP_sha384}, {"SHA512", 64, EVP_sha512}};

/* hash_file's result when libcrypto fails a digest step (not an errno). */
enum { SUM_EDIGEST = -1 };

static void digest_error(bi_ctx *c, const alg *a) {
  bi_error(c, "libcrypto failed to compute the %s digest", a->tag);
}

/* Digest of a file operand through ctx. 0, an errno value (message not
 * printed) or SUM_EDIGEST. The lines of earlier files held in w go out
 * while the file waits for input. */
static int hash_file(bi_ctx *c, const alg *a, EVP_MD_CTX *ctx, const char *name,
                     unsigned char *out, writer *w) {
  int err = 0;
  stream *in = bi_open_read(c, name, &err);
  if (!in)
    return err;
  if (!EVP_DigestInit_ex(ctx, a->md(), NULL)) {
    stream_unref(in);
    return SUM_EDIGEST;
  }
  const char *p;
  size_t n;
  if (stream_take_all(in, &p, &n) == 0) {
    if (!EVP_DigestUpdate(ctx, p, n))
      err = SUM_EDIGEST;
  } else if (in->err == ECANCELED) {
    err = ECANCELED;
  } else {
    char tmp[16384];
    long k;
    while ((k = wr_flush_read(w, in, tmp, sizeof tmp)) > 0)
      if (!EVP_DigestUpdate(ctx, tmp, (size_t)k)) {
        err = SUM_EDIGEST;
        break;
      }
    if (k < 0)
      err = in->err;
  }
  stream_unref(in);
  if (!err) {
    unsigned int got = 0;
    if (!EVP_DigestFinal_ex(ctx, out, &got) || got != a->len)
      err = SUM_EDIGEST;
  }
  return err;
}

/* "NAME: FILE: reason" for a file that cannot be read. */
static void file_error(bi_ctx *c, const char *name, int err) {
  bi_error(c, "%s: %s", fu_quotef(c, name), bi_strerror(err));
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

/* "NAME: WORD" of -c. Only a name holding a newline is escaped (and the
 * line then starts with a backslash), so that each verdict stays on one
 * line. */
static void put_verdict(writer *w, const char *name, const char *word) {
  int esc = strchr(name, '\n') != NULL;
  if (esc)
    wr_putc(w, '\\');
  put_name(w, name, esc);
  wr_printf(w, ": %s\n", word);
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
  int fatal; /* libcrypto failed: stop at once, status 1 */
  uint64_t bad_lines, unreadable, mismatched;
} chk;

static int check_file(bi_ctx *c, const alg *a, EVP_MD_CTX *ctx,
                      const char *file, chk *o, writer *w) {
  int err;
  stream *in = bi_open_read(c, file, &err);
  const char *shown = strcmp(file, "-") ? file : "standard input";
  if (!in) {
    /* GNU opens a directory and then fails to read it. */
    if (err == EISDIR)
      bi_error(c, "%s: read error", fu_quotef(c, shown));
    else
      file_error(c, shown, err);
    return 1;
  }
  reader r;
  rd_init(&r, c->m, in);
  rd_flush_to(&r, w);
  buf name;
  buf_init(&name, c->m);
  const char *l;
  size_t n;
  int k, rc = 0;
  uint64_t lineno = 0, good_lines = 0, verified = 0, bad0 = o->bad_lines;
  unsigned char want[EVP_MAX_MD_SIZE], got[EVP_MAX_MD_SIZE];
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
                 fu_quotef(c, shown), (unsigned long long)lineno, a->tag);
      }
      continue;
    }
    good_lines++;
    const char *nm = buf_cstr(&name);
    int e = hash_file(c, a, ctx, nm, got, w);
    if (e == ECANCELED) {
      rc = 1;
      break;
    }
    if (e == SUM_EDIGEST) {
      wr_flush(w);
      digest_error(c, a);
      o->fatal = 1;
      rc = 1;
      break;
    }
    if (e) {
      if (e == ENOENT && o->ignore_missing)
        continue;
      wr_flush(w);
      file_error(c, nm, e);
      o->unreadable++;
      if (!o->status)
        put_verdict(w, nm, "FAILED open or read");
      continue;
    }
    verified++;
    if (memcmp(want, got, a->len)) {
      o->mismatched++;
      if (!o->status)
        put_verdict(w, nm, "FAILED");
    } else if (!o->status && !o->quiet) {
      put_verdict(w, nm, "OK");
    }
    if (w->err)
      break;
  }
  if (k < 0) {
    if (r.err != ECANCELED)
      bi_error(c, "%s: read error", fu_quotef(c, shown));
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
             fu_quotef(c, shown));
    return 1;
  }
  if (o->ignore_missing && !verified) {
    bi_error(c, "%s: no file was verified", fu_quotef(c, shown));
    return 1;
  }
  return 0;
}

typedef struct sum_opts {
  int binary; /* -1 (neither -b nor -t), 0 (text: ' ') or 1 (binary: '*') */
  int check, tag, zero;
  chk o; /* the -c options and counts */
} sum_opts;

/* Prints or checks the digests of the operands (standard input without
 * any), with ctx ready for use. Returns the exit status. */
static int sum_files(bi_ctx *c, const alg *a, EVP_MD_CTX *ctx, sum_opts *so,
                     char **files, int nfiles) {
  chk *o = &so->o;
  int status = 0;
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; i < nfiles && !w.err; i++) {
    if (so->check) {
      status |= check_file(c, a, ctx, files[i], o, &w);
      if (o->fatal)
        return 1;
      continue;
    }
    unsigned char d[EVP_MAX_MD_SIZE];
    int e = hash_file(c, a, ctx, files[i], d, &w);
    if (e == ECANCELED)
      return 1;
    if (e == SUM_EDIGEST) {
      wr_flush(&w);
      digest_error(c, a);
      return 1;
    }
    if (e) {
      wr_flush(&w);
      file_error(c, files[i], e);
      status = 1;
      continue;
    }
    const char *nm = files[i];
    int esc = !so->zero && strpbrk(nm, "\\\n\r") != NULL;
    if (so->tag) {
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
      wr_puts(&w, so->binary > 0 ? " *" : "  ");
      put_name(&w, nm, esc);
    }
    wr_putc(&w, so->zero ? 0 : '\n');
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  if (so->check && !o->status) {
    if (o->bad_lines)
      bi_error(c, "WARNING: %llu line%s improperly formatted",
               (unsigned long long)o->bad_lines,
               o->bad_lines == 1 ? " is" : "s are");
    if (o->unreadable)
      bi_error(c, "WARNING: %llu listed file%s could not be read",
               (unsigned long long)o->unreadable,
               o->unreadable == 1 ? "" : "s");
    if (o->mismatched)
      bi_error(c, "WARNING: %llu computed checksum%s did NOT match",
               (unsigned long long)o->mismatched,
               o->mismatched == 1 ? "" : "s");
  }
  if (o->unreadable || o->mismatched || (o->strict && o->bad_lines))
    status = 1;
  return status;
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
                                BI_OPTS_END};
  sum_opts so;
  memset(&so, 0, sizeof so);
  so.binary = -1;
  chk *o = &so.o;
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "bctzw", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'b':
      so.binary = 1;
      break;
    case 't':
      so.binary = 0;
      break;
    case 'c':
      so.check = 1;
      break;
    case 'z':
      so.zero = 1;
      break;
    case 'w':
      o->warn = 1;
      break;
    case 0x100:
      so.tag = 1;
      so.binary = 1; /* a later -t is refused, an earlier one forgotten */
      break;
    case 0x101:
      o->ignore_missing = 1;
      break;
    case 0x102:
      o->quiet = 1;
      break;
    case 0x103:
      o->status = 1;
      break;
    case 0x104:
      o->strict = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  /* Conflicting options, reported in GNU's order of precedence. */
  const char *bad = NULL;
  if (so.tag && so.binary == 0)
    bad = "--tag does not support --text mode";
  else if (so.check && so.zero)
    bad = "the --zero option is not supported when verifying checksums";
  else if (so.check && so.tag)
    bad = "the --tag option is meaningless when verifying checksums";
  else if (so.check && so.binary >= 0)
    bad = "the --binary and --text options are meaningless when verifying "
          "checksums";
  else if (!so.check && o->ignore_missing)
    bad = "the --ignore-missing option is meaningful only when verifying "
          "checksums";
  else if (!so.check && o->status)
    bad = "the --status option is meaningful only when verifying checksums";
  else if (!so.check && o->warn)
    bad = "the --warn option is meaningful only when verifying checksums";
  else if (!so.check && o->quiet)
    bad = "the --quiet option is meaningful only when verifying checksums";
  else if (!so.check && o->strict)
    bad = "the --strict option is meaningful only when verifying checksums";
  if (bad) {
    bi_error(c, "%s", bad);
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
    return 1;
  }
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (!ctx) {
    bi_error(c, "cannot allocate a %s digest context: %s", a->tag,
             bi_strerror(ENOMEM));
    return 1;
  }
  static char *dash[] = {"-", NULL};
  int rc = g.noperands ? sum_files(c, a, ctx, &so, g.operands, g.noperands)
                       : sum_files(c, a, ctx, &so, dash, 1);
  EVP_MD_CTX_free(ctx);
  return rc;
}

int bi_md5sum(bi_ctx *c) {
  return sum_main(c, &algs[0]);
}
int bi_sha1sum(bi_ctx *c) {
  return sum_main(c, &algs[1]);
}
int bi_sha224sum(bi_ctx *c) {
  return sum_main(c, &algs[2]);
}
int bi_sha256sum(bi_ctx *c) {
  return sum_main(c, &algs[3]);
}
int bi_sha384sum(bi_ctx *c) {
  return sum_main(c, &algs[4]);
}
int bi_sha512sum(bi_ctx *c) {
  return sum_main(c, &algs[5]);
}
