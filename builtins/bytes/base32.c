/*
 * base32.c - GNU base32 (RFC 4648): base64.c's front end over the 32
 * character alphabet. Encoding takes 5 bytes at a time to 8 characters,
 * '=' padded, wrapped at -w columns (76; 0 = never); decoding skips
 * newlines (with -i every byte outside the alphabet) and fails "invalid
 * input" at a bad byte or at a group cut short by the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/codec.h"

const char bi_usage_base32[] = "Usage: base32 [OPTION]... [FILE]";
const char bi_help_base32[] =
    "Turn FILE (or standard input) into base32 text, or with -d turn base32\n"
    "text back into data, and print the result to standard output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -d, --decode          go from base32 text back to the original data\n"
    "  -i, --ignore-garbage  while decoding, skip bytes that are not base32\n"
    "  -w, --wrap=COLS       break encoded output into lines of COLS "
    "characters\n"
    "                          (76 by default); 0 means one unbroken line\n"
    "      --help            print this summary and quit\n"
    "      --version         print the version line and quit\n"
    "\n"
    "The encoding uses the base32 alphabet of RFC 4648 (A-Z, 2-7, '=' as\n"
    "padding). Newlines in the input to -d are allowed anywhere.\n";

static const char b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

static int b32val(unsigned char ch) {
  if (ch >= 'A' && ch <= 'Z')
    return ch - 'A';
  if (ch >= '2' && ch <= '7')
    return ch - '2' + 26;
  return -1;
}

/* The 8 characters of a group of np (1..5) bytes, '=' padded. */
static void enc_group(const unsigned char *p, int np, char q[8]) {
  unsigned char b[5] = {0, 0, 0, 0, 0};
  memcpy(b, p, (size_t)np);
  uint64_t v = (uint64_t)b[0] << 32 | (uint64_t)b[1] << 24 |
               (uint64_t)b[2] << 16 | (uint64_t)b[3] << 8 | b[4];
  static const int chars[6] = {0, 2, 4, 5, 7, 8};
  for (int i = 0; i < 8; i++)
    q[i] = i < chars[np] ? b32[(v >> (35 - 5 * i)) & 31] : '=';
}

static void encode(writer *w, tu_enc *e, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    e->part[e->np++] = p[i];
    if (e->np == 5) {
      char q[8];
      enc_group(e->part, 5, q);
      tu_enc_put(w, e, q, 8);
      e->np = 0;
    }
  }
}

static void encode_end(writer *w, tu_enc *e) {
  if (e->np) {
    char q[8];
    enc_group(e->part, e->np, q);
    tu_enc_put(w, e, q, 8);
  }
  if (e->col && e->wrap)
    wr_putc(w, '\n');
}

/* Bytes that k characters of a group decode to. */
static int group_bytes(int k) {
  return k >= 8 ? 5 : k >= 7 ? 4 : k >= 5 ? 3 : k >= 4 ? 2 : k >= 2 ? 1 : 0;
}

static void put_bytes(writer *w, const int *q, int nbytes) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v = v << 5 | (uint64_t)q[i];
  for (int i = 0; i < nbytes; i++)
    wr_putc(w, (int)((v >> (32 - 8 * i)) & 0xff));
}

/* Decode d[0..n) as groups of 8 characters: 0, or -1 at invalid input
 * (what came before is out: as GNU, a group cut by a bad byte gives the
 * bytes its characters complete; a group cut by the end gives none). */
static int decode(bi_ctx *c, writer *w, const char *d, size_t n, int ignore) {
  int q[8], nq = 0, pads = 0;
  for (size_t i = 0; i < n; i++) {
    if ((i & 0xffff) == 0xffff && budget_poll(c->bud))
      return -2;
    unsigned char ch = (unsigned char)d[i];
    if (ch == '\n')
      continue;
    if (ch == '=') {
      if (!pads && nq != 2 && nq != 4 && nq != 5 && nq != 7) {
        if (ignore)
          continue;
        for (int k = nq; k < 8; k++)
          q[k] = 0;
        put_bytes(w, q, group_bytes(nq));
        return -1;
      }
      pads++;
      q[nq++] = 0;
    } else {
      int v = b32val(ch);
      if (v < 0 || pads) {
        if (ignore && v < 0)
          continue;
        for (int k = nq; k < 8; k++)
          q[k] = 0;
        put_bytes(w, q, group_bytes(nq - pads));
        return -1;
      }
      q[nq++] = v;
    }
    if (nq == 8) {
      put_bytes(w, q, group_bytes(8 - pads));
      nq = 0;
      pads = 0;
    }
  }
  return nq ? -1 : 0;
}

int bi_base32(bi_ctx *c) {
  static const tu_codec k = {encode, encode_end, decode, 10240};
  return tu_codec_main(c, &k);
}
