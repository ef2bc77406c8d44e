/*
 * cksum.c - GNU cksum (coreutils 9.1): the POSIX CRC by default, and with
 * -a the old sum algorithms (sysv, bsd) or a digest through libcrypto
 * (md5, sha1, sha224, sha256, sha384, sha512, blake2b, sm3), digests in the
 * tagged "ALG (NAME) = HEX" form unless --untagged.
 *
 * -c (digests only, as in 9.1) is md5sum's and its siblings' checker run
 * under the name cksum: the same lines, messages and statuses.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "builtins/textutil.h"

const char bi_usage_cksum[] = "Usage: cksum [OPTION]... [FILE]...";
const char bi_help_cksum[] =
    "Print a checksum and the size of each FILE, or with -c verify the\n"
    "digests listed in the FILEs. The POSIX 32-bit CRC is the default.\n"
    "Standard input is read when no FILE is given and for a FILE named -.\n"
    "\n"
    "  -a, --algorithm=TYPE  the checksum to compute (see below)\n"
    "  -c, --check           take each FILE as a list of digest lines and\n"
    "                        verify the files it names (digests only)\n"
    "  -l, --length=BITS     digest length for blake2b, a multiple of 8\n"
    "      --tag             'ALG (NAME) = DIGEST' lines (the default)\n"
    "      --untagged        'DIGEST  NAME' lines, without the algorithm\n"
    "  -z, --zero            finish each line with a NUL byte and write\n"
    "                        names as they are\n"
    "\n"
    "With -c only: --ignore-missing, --quiet, --status, --strict and\n"
    "-w/--warn, as md5sum takes them.\n"
    "\n"
    "      --debug           say which implementation is used\n"
    "      --help            print this summary and quit\n"
    "      --version         print the version line and quit\n"
    "\n"
    "TYPE is one of:\n"
    "  sysv     the System V sum (sum -s): 16 bits and 512-byte blocks\n"
    "  bsd      the BSD sum (sum -r): 16 bits and 1024-byte blocks\n"
    "  crc      the POSIX CRC and the byte count (the default)\n"
    "  md5, sha1, sha224, sha256, sha384, sha512\n"
    "           as md5sum, sha1sum, ... compute them\n"
    "  blake2b  BLAKE2b (512 bits unless -l)\n"
    "  sm3      the SM3 digest\n";

enum { CK_SYSV, CK_BSD, CK_CRC, CK_DIGEST };

typedef struct ck_alg {
  const char *name; /* for -a */
  const char *tag;  /* in tagged lines */
  int kind;
  const EVP_MD *(*md)(void);
  const char *checker; /* the command whose -c this is */
} ck_alg;

static const ck_alg ck_algs[] = {
    {"bsd", NULL, CK_BSD, NULL, NULL},
    {"sysv", NULL, CK_SYSV, NULL, NULL},
    {"crc", NULL, CK_CRC, NULL, NULL},
    {"md5", "MD5", CK_DIGEST, EVP_md5, "md5sum"},
    {"sha1", "SHA1", CK_DIGEST, EVP_sha1, "sha1sum"},
    {"sha224", "SHA224", CK_DIGEST, EVP_sha224, "sha224sum"},
    {"sha256", "SHA256", CK_DIGEST, EVP_sha256, "sha256sum"},
    {"sha384", "SHA384", CK_DIGEST, EVP_sha384, "sha384sum"},
    {"sha512", "SHA512", CK_DIGEST, EVP_sha512, "sha512sum"},
    {"blake2b", "BLAKE2b", CK_DIGEST, EVP_blake2b512, NULL},
    {"sm3", "SM3", CK_DIGEST, EVP_sm3, NULL},
};
enum { CK_NALGS = sizeof ck_algs / sizeof ck_algs[0] };

/* The state of one file's checksum. */
typedef struct ck_state {
  const ck_alg *a;
  uint32_t crc_table[256];
  uint32_t crc;
  uint32_t sysv;
  unsigned bsd;
  uint64_t size;
  EVP_MD_CTX *ctx;
  size_t bits; /* blake2b -l, or 0 */
} ck_state;

static void crc_init_table(uint32_t *t) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t r = i << 24;
    for (int k = 0; k < 8; k++)
      r = (r & 0x80000000u) ? (r << 1) ^ 0x04c11db7u : r << 1;
    t[i] = r;
  }
}

static void ck_update(ck_state *s, const unsigned char *p, size_t n) {
  s->size += n;
  switch (s->a->kind) {
  case CK_CRC:
    for (size_t i = 0; i < n; i++)
      s->crc = (s->crc << 8) ^ s->crc_table[(s->crc >> 24) ^ p[i]];
    break;
  case CK_SYSV:
    for (size_t i = 0; i < n; i++)
      s->sysv += p[i];
    break;
  case CK_BSD:
    for (size_t i = 0; i < n; i++) {
      s->bsd = (s->bsd >> 1) + ((s->bsd & 1) << 15);
      s->bsd = (s->bsd + p[i]) & 0xffff;
    }
    break;
  }
}

static int ck_begin(ck_state *s) {
  s->crc = 0;
  s->sysv = 0;
  s->bsd = 0;
  s->size = 0;
  if (s->a->kind != CK_DIGEST)
    return 0;
  if (!EVP_DigestInit_ex(s->ctx, s->a->md(), NULL))
    return -1;
  if (s->bits && s->bits != 512) {
    size_t len = s->bits / 8;
    OSSL_PARAM prm[2] = {
        OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, &len),
        OSSL_PARAM_construct_end()};
    if (!EVP_MD_CTX_set_params(s->ctx, prm))
      return -2;
  }
  return 0;
}

/* The checksum of one file operand, printed. 0, or 1 after a message.
 * named: the file was an operand (even "-"), so the crc/sum lines end with
 * its name; standard input read for want of operands is unnamed. */
static int ck_file(bi_ctx *c, ck_state *s, const char *name, int named,
                   int tagged, int zero, writer *w) {
  int err = 0;
  stream *in = bi_open_read(c, name, &err);
  if (!in) {
    wr_flush(w);
    tu_file_error(c, name, err);
    return 1;
  }
  int r = ck_begin(s);
  if (r) {
    stream_unref(in);
    wr_flush(w);
    if (r == -2)
      bi_error(c, "libcrypto cannot give %s digests of %zu bits", s->a->tag,
               s->bits);
    else
      bi_error(c, "libcrypto failed to compute the %s digest", s->a->tag);
    return 1;
  }
  const char *p;
  size_t n;
  int dfail = 0;
  if (stream_take_all(in, &p, &n) == 0) {
    for (size_t off = 0; off < n && !err; off += 65536) {
      size_t k = n - off < 65536 ? n - off : 65536;
      if (budget_poll(c->bud))
        err = ECANCELED;
      else if (s->a->kind == CK_DIGEST) {
        s->size += k;
        dfail |= !EVP_DigestUpdate(s->ctx, p + off, k);
      } else
        ck_update(s, (const unsigned char *)p + off, k);
    }
  } else if (in->err == ECANCELED) {
    err = ECANCELED;
  } else {
    unsigned char tmp[16384];
    long k;
    while ((k = wr_flush_read(w, in, tmp, sizeof tmp)) > 0) {
      if (s->a->kind == CK_DIGEST) {
        s->size += (size_t)k;
        dfail |= !EVP_DigestUpdate(s->ctx, tmp, (size_t)k);
      } else
        ck_update(s, tmp, (size_t)k);
    }
    if (k < 0)
      err = in->err;
  }
  stream_unref(in);
  if (err) {
    if (err != ECANCELED) {
      wr_flush(w);
      tu_file_error(c, name, err);
    }
    return 1;
  }
  char end = zero ? '\0' : '\n';
  switch (s->a->kind) {
  case CK_CRC: {
    uint32_t crc = s->crc;
    for (uint64_t len = s->size; len; len >>= 8)
      crc = (crc << 8) ^ s->crc_table[(crc >> 24) ^ (len & 0xff)];
    crc = ~crc;
    wr_printf(w, "%u %llu", crc, (unsigned long long)s->size);
    break;
  }
  case CK_SYSV: {
    uint32_t t = (s->sysv & 0xffff) + (s->sysv >> 16);
    t = (t & 0xffff) + (t >> 16);
    wr_printf(w, "%u %llu", t, (unsigned long long)((s->size + 511) / 512));
    break;
  }
  case CK_BSD:
    wr_printf(w, "%05u %5llu", s->bsd,
              (unsigned long long)((s->size + 1023) / 1024));
    break;
  default: {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int got = 0;
    if (dfail || !EVP_DigestFinal_ex(s->ctx, md, &got)) {
      wr_flush(w);
      bi_error(c, "libcrypto failed to compute the %s digest", s->a->tag);
      return 1;
    }
    int esc = !zero && (strchr(name, '\\') || strchr(name, '\n'));
    if (esc)
      wr_putc(w, '\\');
    if (tagged) {
      wr_puts(w, s->a->tag);
      if (s->bits && s->bits != 512)
        wr_printf(w, "-%zu", s->bits);
      wr_puts(w, " (");
    } else {
      for (unsigned i = 0; i < got; i++)
        wr_printf(w, "%02x", md[i]);
      wr_puts(w, "  ");
    }
    for (const char *q = name; *q; q++) {
      if (esc && *q == '\\')
        wr_puts(w, "\\\\");
      else if (esc && *q == '\n')
        wr_puts(w, "\\n");
      else
        wr_putc(w, *q);
    }
    if (tagged) {
      wr_puts(w, ") = ");
      for (unsigned i = 0; i < got; i++)
        wr_printf(w, "%02x", md[i]);
    }
    wr_putc(w, end);
    return 0;
  }
  }
  if (named)
    wr_printf(w, " %s", name);
  wr_putc(w, end);
  return 0;
}

/* cksum -a ALG -c: the ALGsum checker, named cksum. */
static int ck_check(bi_ctx *c, const ck_alg *a, char **opts, int nopts,
                    char **files, int nfiles) {
  if (!a->checker) {
    bi_error(c, "--check is not supported with --algorithm=%s", a->name);
    return 1;
  }
  const bi_def *d = bi_lookup(a->checker);
  char **argv =
      arena_alloc(c->scratch, sizeof(char *) * (size_t)(nopts + nfiles + 4));
  if (!d || !argv) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  int n = 0;
  argv[n++] = c->argv[0];
  argv[n++] = "-c";
  for (int i = 0; i < nopts; i++)
    argv[n++] = opts[i];
  argv[n++] = "--";
  for (int i = 0; i < nfiles; i++)
    argv[n++] = files[i];
  argv[n] = NULL;
  bi_ctx sub = *c;
  sub.argc = n;
  sub.argv = argv;
  return d->fn(&sub);
}

/* The algorithm named by the tag of a "TAG (NAME) = HEX" line, or NULL. */
static const ck_alg *ck_tag_of(const char *l, size_t n) {
  if (n && *l == '\\') {
    l++;
    n--;
  }
  for (int i = 3; i < CK_NALGS; i++) {
    size_t k = strlen(ck_algs[i].tag);
    if (n > k + 1 && !memcmp(l, ck_algs[i].tag, k) && l[k] == ' ' &&
        l[k + 1] == '(')
      return &ck_algs[i];
  }
  return NULL;
}

/* cksum -c without -a: the algorithm is the one the file's first tagged
 * line names (md5's checker when there is none, which then finds no
 * properly formatted line). Standard input is read once, then checked
 * from memory. */
static int ck_check_detect(bi_ctx *c, char **opts, int nopts,
                           const char *file) {
  int err = 0;
  stream *in = bi_open_read(c, file, &err);
  if (!in) {
    tu_file_error(c, file, err);
    return 1;
  }
  const char *d;
  size_t n;
  buf copy;
  buf_init(&copy, c->m);
  if (tu_slurp(c, in, &d, &n, &copy, &err)) {
    if (err != ECANCELED)
      tu_file_error(c, file, err);
    buf_free(&copy);
    stream_unref(in);
    return 1;
  }
  const ck_alg *a = NULL;
  for (size_t i = 0; i < n && !a;) {
    const char *nl = memchr(d + i, '\n', n - i);
    size_t len = nl ? (size_t)(nl - (d + i)) : n - i;
    a = ck_tag_of(d + i, len);
    i += len + 1;
  }
  if (!a || !a->checker)
    a = a ? a : &ck_algs[3];
  int status;
  if (!strcmp(file, "-")) {
    stream *mr = stream_mem_reader(c->m, c->bud, d, n, 1);
    if (!mr) {
      bi_error(c, "%s", bi_strerror(ENOMEM));
      status = 1;
    } else {
      bi_ctx sub = *c;
      sub.in = mr;
      char *names[] = {"-", NULL};
      status = ck_check(&sub, a, opts, nopts, names, 1);
      stream_unref(mr);
    }
  } else {
    char *names[] = {(char *)file, NULL};
    status = ck_check(c, a, opts, nopts, names, 1);
  }
  buf_free(&copy);
  stream_unref(in);
  return status;
}

int bi_cksum(bi_ctx *c) {
  enum {
    O_TAG = 0x100,
    O_UNTAGGED,
    O_IGNMISS,
    O_QUIET,
    O_STATUS,
    O_STRICT,
    O_DEBUG
  };
  static const bi_opt opts[] = {{"algorithm", 'a', BI_ARG_REQUIRED},
                                {"check", 'c', BI_ARG_NONE},
                                {"length", 'l', BI_ARG_REQUIRED},
                                {"tag", O_TAG, BI_ARG_NONE},
                                {"untagged", O_UNTAGGED, BI_ARG_NONE},
                                {"zero", 'z', BI_ARG_NONE},
                                {"ignore-missing", O_IGNMISS, BI_ARG_NONE},
                                {"quiet", O_QUIET, BI_ARG_NONE},
                                {"status", O_STATUS, BI_ARG_NONE},
                                {"strict", O_STRICT, BI_ARG_NONE},
                                {"warn", 'w', BI_ARG_NONE},
                                {"debug", O_DEBUG, BI_ARG_NONE},
                                BI_OPTS_END};
  const ck_alg *a = &ck_algs[2];
  int check = 0, tagged = 1, zero = 0, debug = 0, given = 0, ch;
  const char *length = NULL;
  char **chk_opts = arena_alloc(c->scratch, sizeof(char *) * (size_t)c->argc);
  int nchk = 0;
  if (!chk_opts) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  bi_getopt g;
  bi_getopt_init(&g, c, "a:cl:zw", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'a': {
      const ck_alg *hit = NULL;
      for (int i = 0; i < CK_NALGS; i++)
        if (!strcmp(ck_algs[i].name, g.arg))
          hit = &ck_algs[i];
      if (!hit) {
        bi_error(c, "invalid argument %s for %s", tu_quote(c, g.arg),
                 tu_quote(c, "--algorithm"));
        stream_puts(c->err, "Valid arguments are:\n");
        for (int i = 0; i < CK_NALGS; i++)
          stream_printf(c->err, "  - %s\n", tu_quote(c, ck_algs[i].name));
        bi_try_help(c);
        return 1;
      }
      a = hit;
      given = 1;
      break;
    }
    case 'c':
      check = 1;
      break;
    case 'l':
      length = g.arg;
      break;
    case 'z':
      zero = 1;
      break;
    case O_TAG:
      tagged = 1;
      break;
    case O_UNTAGGED:
      tagged = 0;
      break;
    case O_DEBUG:
      debug = 1;
      break;
    case 'w':
      chk_opts[nchk++] = "-w";
      break;
    case O_IGNMISS:
      chk_opts[nchk++] = "--ignore-missing";
      break;
    case O_QUIET:
      chk_opts[nchk++] = "--quiet";
      break;
    case O_STATUS:
      chk_opts[nchk++] = "--status";
      break;
    case O_STRICT:
      chk_opts[nchk++] = "--strict";
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  size_t bits = 0;
  if (length) {
    char *e;
    errno = 0;
    unsigned long long v = strtoull(length, &e, 10);
    if (!*length || *e || errno || *length == '-' || v > 512 || v % 8) {
      bi_error(c, "invalid length: %s", tu_quote(c, length));
      bi_error(c, "%s",
               v % 8 ? "length is not a multiple of 8"
                     : "maximum digest length for 'BLAKE2b' is 512 "
                       "bits");
      return 1;
    }
    if (strcmp(a->name, "blake2b")) {
      bi_error(c, "--length is only supported with --algorithm=blake2b");
      return 1;
    }
    bits = (size_t)v;
  }
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1;
  if (check) {
    if (given && a->kind != CK_DIGEST) {
      bi_error(c, "--check is not supported with --algorithm={bsd,sysv,crc}");
      return 1;
    }
    if (zero) {
      bi_error(c, "the --zero option is not supported when verifying "
                  "checksums");
      bi_try_help(c);
      return 1;
    }
    if (given)
      return ck_check(c, a, chk_opts, nchk, files, nfiles);
    int status = 0;
    for (int i = 0; i < nfiles; i++)
      status |= ck_check_detect(c, chk_opts, nchk, files[i]);
    return status;
  }
  if (nchk) {
    const char *o = chk_opts[0];
    bi_error(c, "the %s option is meaningful only when verifying checksums",
             !strcmp(o, "-w") ? "--warn" : o);
    bi_try_help(c);
    return 1;
  }
  if (debug)
    bi_error(c, "using %s software support",
             a->kind == CK_DIGEST ? "libcrypto" : "generic");
  ck_state *s = arena_calloc(c->scratch, sizeof *s);
  if (!s) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  s->a = a;
  s->bits = bits;
  crc_init_table(s->crc_table);
  if (a->kind == CK_DIGEST && !(s->ctx = EVP_MD_CTX_new())) {
    bi_error(c, "cannot allocate a %s digest context: %s", a->tag,
             bi_strerror(ENOMEM));
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  for (int i = 0; i < nfiles && !w.err; i++) {
    if (ck_file(c, s, files[i], g.noperands > 0, tagged, zero, &w))
      status = 1;
    if (c->bud && budget_poll(c->bud))
      break;
  }
  if (s->ctx)
    EVP_MD_CTX_free(s->ctx);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}

const char bi_usage_sum[] = "Usage: sum [OPTION]... [FILE]...";
const char bi_help_sum[] =
    "Print a 16-bit checksum and the size in blocks of each FILE (standard\n"
    "input when no FILE is given and for a FILE named -).\n"
    "\n"
    "  -r              the BSD checksum over 1024-byte blocks (the default)\n"
    "  -s, --sysv      the System V checksum over 512-byte blocks\n"
    "      --help      print this summary and quit\n"
    "      --version   print the version line and quit\n";

/* sum: cksum -a bsd (or sysv), whose lines are sum's. */
int bi_sum(bi_ctx *c) {
  static const bi_opt opts[] = {{"sysv", 's', BI_ARG_NONE}, BI_OPTS_END};
  const ck_alg *a = &ck_algs[0]; /* bsd */
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "rs", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0)
    a = &ck_algs[ch == 's' ? 1 : 0];
  if (ch == BI_OPT_STOP)
    return g.status;
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1;
  ck_state *s = arena_calloc(c->scratch, sizeof *s);
  if (!s) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  s->a = a;
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  for (int i = 0; i < nfiles && !w.err; i++) {
    if (ck_file(c, s, files[i], g.noperands > 0, 0, 0, &w))
      status = 1;
    if (c->bud && budget_poll(c->bud))
      break;
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
