/* hash_sha1.c - SHA-1 (FIPS 180-4), for sha1sum. */
#include <string.h>

#include "builtins/text/hash.h"

#define ROL(x, s) (((x) << (s)) | ((x) >> (32 - (s))))

static void block(sha1_ctx *c, const unsigned char *p) {
  uint32_t w[80];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
           (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 80; i++)
    w[i] = ROL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4];
  for (int i = 0; i < 80; i++) {
    uint32_t f, k;
    if (i < 20) {
      f = (b & cc) | (~b & d);
      k = 0x5a827999;
    } else if (i < 40) {
      f = b ^ cc ^ d;
      k = 0x6ed9eba1;
    } else if (i < 60) {
      f = (b & cc) | (b & d) | (cc & d);
      k = 0x8f1bbcdc;
    } else {
      f = b ^ cc ^ d;
      k = 0xca62c1d6;
    }
    uint32_t t = ROL(a, 5) + f + e + k + w[i];
    e = d;
    d = cc;
    cc = ROL(b, 30);
    b = a;
    a = t;
  }
  c->h[0] += a;
  c->h[1] += b;
  c->h[2] += cc;
  c->h[3] += d;
  c->h[4] += e;
}

void sha1_init(sha1_ctx *c) {
  static const uint32_t iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
                                 0xc3d2e1f0};
  memcpy(c->h, iv, sizeof iv);
  c->len = 0;
  c->n = 0;
}

void sha1_update(sha1_ctx *c, const void *data, size_t n) {
  const unsigned char *p = data;
  c->len += n;
  while (n) {
    size_t k = 64 - c->n < n ? 64 - c->n : n;
    memcpy(c->buf + c->n, p, k);
    c->n += k;
    p += k;
    n -= k;
    if (c->n == 64) {
      block(c, c->buf);
      c->n = 0;
    }
  }
}

void sha1_final(sha1_ctx *c, unsigned char out[20]) {
  uint64_t bits = c->len * 8;
  unsigned char pad = 0x80, zero = 0;
  sha1_update(c, &pad, 1);
  while (c->n != 56)
    sha1_update(c, &zero, 1);
  unsigned char l[8];
  for (int i = 0; i < 8; i++)
    l[i] = (unsigned char)(bits >> (56 - 8 * i));
  sha1_update(c, l, 8);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 4; j++)
      out[4 * i + j] = (unsigned char)(c->h[i] >> (24 - 8 * j));
}
