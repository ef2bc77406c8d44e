/*
 * base64.c - GNU base64 (RFC 4648). Encoding streams in chunks that are a
 * multiple of 3 bytes and wraps at -w columns (76; 0 = never). Decoding
 * skips newlines (and, with -i, every byte outside the alphabet), writes
 * what it could decode, and fails "invalid input" at the first bad byte or
 * at a truncated final group, as GNU does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_base64[] = "Usage: base64 [OPTION]... [FILE]";
const char bi_help_base64[] =
    "Turn FILE (or standard input) into base64 text, or with -d turn base64\n"
    "text back into data, and print the result to standard output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -d, --decode          go from base64 text back to the original data\n"
    "  -i, --ignore-garbage  while decoding, skip bytes that are not base64\n"
    "  -w, --wrap=COLS       break encoded output into lines of COLS "
    "characters\n"
    "                          (76 by default); 0 means one unbroken line\n"
    "      --help            print this summary and quit\n"
    "      --version         print the version line and quit\n"
    "\n"
    "The encoding uses the base64 alphabet of RFC 4648. Newlines in the input\n"
    "to -d are allowed anywhere; any other byte outside the alphabet is an\n"
    "error unless --ignore-garbage is given.\n";

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64val(unsigned char ch) {
  if (ch >= 'A' && ch <= 'Z')
    return ch - 'A';
  if (ch >= 'a' && ch <= 'z')
    return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9')
    return ch - '0' + 52;
  if (ch == '+')
    return 62;
  if (ch == '/')
    return 63;
  return -1;
}

typedef struct enc {
  unsigned char part[3];
  int np;
  size_t col, wrap;
} enc;

static void put_enc(writer *w, enc *e, const char *q, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (e->wrap && e->col == e->wrap) {
      wr_putc(w, '\n');
      e->col = 0;
    }
    wr_putc(w, q[i]);
    e->col++;
  }
}

static void encode(writer *w, enc *e, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    e->part[e->np++] = p[i];
    if (e->np == 3) {
      char q[4] = {
          b64[e->part[0] >> 2], b64[(e->part[0] & 3) << 4 | e->part[1] >> 4],
          b64[(e->part[1] & 15) << 2 | e->part[2] >> 6], b64[e->part[2] & 63]};
      put_enc(w, e, q, 4);
      e->np = 0;
    }
  }
}

static void encode_end(writer *w, enc *e) {
  if (e->np) {
    unsigned char a = e->part[0], b = e->np > 1 ? e->part[1] : 0;
    char q[4] = {b64[a >> 2], b64[(a & 3) << 4 | b >> 4],
                 e->np > 1 ? b64[(b & 15) << 2] : '=', '='};
    put_enc(w, e, q, 4);
  }
  /* -w 0 output has no final newline either (GNU). */
  if (e->col && e->wrap)
    wr_putc(w, '\n');
}

/* Decode d[0..n): 0, or -1 at invalid input (what came before is out). */
static int decode(writer *w, const char *d, size_t n, int ignore) {
  int q[4], nq = 0, pads = 0, bad = 0;
  for (size_t i = 0; i < n; i++) {
    /* a writer that failed (a limit, a closed pipe) ends the decoding */
    if ((i & 4095) == 0 && w->err)
      return 0;
    unsigned char ch = (unsigned char)d[i];
    if (ch == '\n')
      continue;
    if (ch == '=') {
      if (nq < 2)
        return ignore ? 0 : -1;
      pads++;
      q[nq++] = 0;
    } else {
      int v = b64val(ch);
      if (v < 0) {
        if (ignore)
          continue;
        bad = 1; /* GNU writes the partial group first */
        break;
      }
      if (pads)
        return -1; /* data after padding */
      q[nq++] = v;
    }
    if (nq == 4) {
      unsigned char o[3] = {(unsigned char)(q[0] << 2 | q[1] >> 4),
                            (unsigned char)(q[1] << 4 | q[2] >> 2),
                            (unsigned char)(q[2] << 6 | q[3])};
      wr_write(w, o, (size_t)(3 - pads));
      nq = 0;
      if (pads) {
        /* after "==" or "=" the stream may only end (or, with -i,
         * hold garbage) */
        for (size_t j = i + 1; j < n; j++)
          if (d[j] != '\n' && !ignore)
            return -1;
        return 0;
      }
    }
  }
  if (nq) {
    /* Truncated group: GNU writes the whole bytes it has, then fails. */
    int real = nq - pads;
    if (real >= 2)
      wr_putc(w, q[0] << 2 | q[1] >> 4);
    if (real >= 3)
      wr_putc(w, q[1] << 4 | q[2] >> 2);
    return -1;
  }
  return bad ? -1 : 0;
}

int bi_base64(bi_ctx *c) {
  static const bi_opt opts[] = {{"decode", 'd', BI_ARG_NONE},
                                {"ignore-garbage", 'i', BI_ARG_NONE},
                                {"wrap", 'w', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  int dec = 0, ignore = 0, ch;
  size_t wrap = 76;
  bi_getopt g;
  bi_getopt_init(&g, c, "diw:", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'd':
      dec = 1;
      break;
    case 'i':
      ignore = 1;
      break;
    case 'w': {
      char *e;
      errno = 0;
      long long v = strtoll(g.arg, &e, 10);
      if (!*g.arg || *e || errno || v < 0) {
        bi_error(c, "invalid wrap size: %s", tu_quote(c, g.arg));
        return 1;
      }
      wrap = (size_t)v;
      break;
    }
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands > 1)
    return tu_extra_operand(c, g.operands[1]);
  const char *file = g.noperands ? g.operands[0] : "-";
  int err;
  stream *in = bi_open_read(c, file, &err);
  if (!in) {
    tu_file_error(c, file, err);
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  if (dec) {
    const char *d;
    size_t n;
    buf copy;
    buf_init(&copy, c->m);
    if (tu_slurp(c, in, &d, &n, &copy, &err)) {
      if (err != ECANCELED)
        tu_file_error(c, file, err);
      status = 1;
    } else if (decode(&w, d, n, ignore)) {
      wr_flush(&w);
      bi_error(c, "invalid input");
      status = 1;
    }
    buf_free(&copy);
  } else {
    enc e = {{0, 0, 0}, 0, 0, wrap};
    reader r;
    rd_init(&r, c->m, in);
    rd_flush_to(&r, &w);
    unsigned char tmp[12288];
    long k;
    while ((k = rd_read(&r, tmp, sizeof tmp)) > 0 && !w.err)
      encode(&w, &e, tmp, (size_t)k);
    if (k < 0) {
      if (r.err != ECANCELED)
        tu_file_error(c, file, r.err);
      status = 1;
    } else {
      encode_end(&w, &e);
    }
    rd_free(&r);
  }
  stream_unref(in);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
