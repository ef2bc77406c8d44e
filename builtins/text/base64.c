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

#include "builtins/codec.h"

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

static void encode(writer *w, tu_enc *e, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    e->part[e->np++] = p[i];
    if (e->np == 3) {
      char q[4] = {
          b64[e->part[0] >> 2], b64[(e->part[0] & 3) << 4 | e->part[1] >> 4],
          b64[(e->part[1] & 15) << 2 | e->part[2] >> 6], b64[e->part[2] & 63]};
      tu_enc_put(w, e, q, 4);
      e->np = 0;
    }
  }
}

static void encode_end(writer *w, tu_enc *e) {
  if (e->np) {
    unsigned char a = e->part[0], b = e->np > 1 ? e->part[1] : 0;
    char q[4] = {b64[a >> 2], b64[(a & 3) << 4 | b >> 4],
                 e->np > 1 ? b64[(b & 15) << 2] : '=', '='};
    tu_enc_put(w, e, q, 4);
  }
  /* -w 0 output has no final newline either (GNU). */
  if (e->col && e->wrap)
    wr_putc(w, '\n');
}

/* Decode d[0..n): 0, or -1 at invalid input (what came before is out). */
static int decode(bi_ctx *c, writer *w, const char *d, size_t n, int ignore) {
  (void)c;
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
  static const tu_codec k = {encode, encode_end, decode, 12288};
  return tu_codec_main(c, &k);
}
