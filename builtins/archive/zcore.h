/*
 * zcore.h - the compressed formats of gzip, bzip2 and xz as streaming
 * codecs over the builtins' streams (zlib, libbz2, liblzma), every one of
 * them allocating through the sandbox allocator.
 *
 * A codec reads its input from a zc_src (a few bytes already looked at,
 * then the stream) in chunks and writes each piece it produces to an
 * output stream (NULL: only checked, as -t does). Every chunk polls the
 * budget, and output goes through stream_write, which charges the output
 * limit or the vfs quota: a small input that expands without end (a
 * "bomb") stops at the sandbox's limit, never at the host's.
 */
#ifndef VSH_BUILTINS_ARCHIVE_ZCORE_H
#define VSH_BUILTINS_ARCHIVE_ZCORE_H

#include <stddef.h>
#include <stdint.h>

#include "builtins/builtin.h"

enum zc_kind { ZC_GZIP = 0, ZC_BZIP2 = 1, ZC_XZ = 2 };

/* What went wrong (0: nothing). */
enum zc_res {
  ZC_OK = 0,
  ZC_BADMAGIC, /* not in this format at all */
  ZC_TRUNC,    /* ends in the middle of a stream */
  ZC_CORRUPT,  /* damaged data or a check that does not match */
  ZC_TRAILING, /* decompressed fine, junk after the last stream */
  ZC_NOMEM,    /* the sandbox allocator said no */
  ZC_READ,     /* reading the input failed (err set) */
  ZC_WRITE     /* writing the output failed (err set) */
};

/* The input: pre[0..npre) first, then s (NULL: nothing more). */
typedef struct zc_src {
  stream *s;
  unsigned char pre[16];
  size_t npre, ppre;
  uint64_t total; /* bytes handed out so far */
  int err;        /* errno of a failed read */
} zc_src;

void zc_src_init(zc_src *src, stream *s);
/* Reads up to 16 bytes ahead into pre (for the magic number): how many. */
size_t zc_src_peek(zc_src *src, size_t want);
long zc_src_read(zc_src *src, void *p, size_t n);

/* The gzip header written on compression and found on decompression. */
typedef struct zc_gzinfo {
  int64_t mtime;   /* seconds; 0 = none */
  char name[256];  /* original name ("" = none) */
  int xfl;         /* extra flags written: 2 best, 4 fastest */
  uint64_t hdrlen; /* bytes of header and trailer (for the ratio) */
  uint32_t crc;    /* decompression: the last member's CRC */
} zc_gzinfo;

typedef struct zc_stats {
  uint64_t in, out;  /* bytes read and written */
  uint64_t overhead; /* gzip: header and trailer bytes of the members */
} zc_stats;

/* Compresses everything src holds into out at level 1..9 (gz: info gives
 * the header's name and time). Returns an enum zc_res. */
int zc_compress(bi_ctx *c, int kind, int level, zc_src *src, stream *out,
                const zc_gzinfo *gz, zc_stats *st, int *err);
/* Decompresses every concatenated stream of src into out (NULL: test
 * only). gz (may be NULL) gets the first gzip member's header. */
int zc_decompress(bi_ctx *c, int kind, zc_src *src, stream *out, zc_gzinfo *gz,
                  zc_stats *st, int *err);

/* The format's magic at the start of buf (n bytes): 1 when it is there. */
int zc_magic(int kind, const unsigned char *buf, size_t n);

#endif
