/*
 * hash.h - the message digests behind md5sum, sha1sum, sha256sum and
 * sha512sum: our own implementations (no crypto library dependency), each
 * with the usual init / update / final interface. Digests are written as
 * raw bytes; sum.c prints them in hex.
 */
#ifndef VSH_BUILTINS_HASH_H
#define VSH_BUILTINS_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct md5_ctx {
  uint32_t h[4];
  uint64_t len;
  unsigned char buf[64];
  size_t n;
} md5_ctx;
void md5_init(md5_ctx *c);
void md5_update(md5_ctx *c, const void *p, size_t n);
void md5_final(md5_ctx *c, unsigned char out[16]);

typedef struct sha1_ctx {
  uint32_t h[5];
  uint64_t len;
  unsigned char buf[64];
  size_t n;
} sha1_ctx;
void sha1_init(sha1_ctx *c);
void sha1_update(sha1_ctx *c, const void *p, size_t n);
void sha1_final(sha1_ctx *c, unsigned char out[20]);

typedef struct sha256_ctx {
  uint32_t h[8];
  uint64_t len;
  unsigned char buf[64];
  size_t n;
} sha256_ctx;
void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *p, size_t n);
void sha256_final(sha256_ctx *c, unsigned char out[32]);

typedef struct sha512_ctx {
  uint64_t h[8];
  uint64_t len; /* bytes; inputs past 2^61 bytes are not a concern here */
  unsigned char buf[128];
  size_t n;
} sha512_ctx;
void sha512_init(sha512_ctx *c);
void sha512_update(sha512_ctx *c, const void *p, size_t n);
void sha512_final(sha512_ctx *c, unsigned char out[64]);

#endif
