/*
 * zcore.c - gzip (zlib raw deflate with the gzip framing done here),
 * bzip2 (libbz2) and xz (liblzma) as streaming codecs; see zcore.h.
 */
#include "builtins/archive/zcore.h"

#include <bzlib.h>
#include <errno.h>
#include <lzma.h>
#include <string.h>
#include <zlib.h>

#define ZC_CHUNK 65536

/* ---- the input ---------------------------------------------------------- */

void zc_src_init(zc_src *src, stream *s) {
  memset(src, 0, sizeof *src);
  src->s = s;
}

size_t zc_src_peek(zc_src *src, size_t want) {
  if (want > sizeof src->pre)
    want = sizeof src->pre;
  while (src->npre < want && src->s) {
    long r = stream_read(src->s, src->pre + src->npre, want - src->npre);
    if (r < 0) {
      src->err = src->s->err ? src->s->err : EIO;
      break;
    }
    if (r == 0)
      break;
    src->npre += (size_t)r;
  }
  return src->npre;
}

long zc_src_read(zc_src *src, void *p, size_t n) {
  if (src->err)
    return -1;
  if (src->ppre < src->npre) {
    size_t k = src->npre - src->ppre;
    if (k > n)
      k = n;
    memcpy(p, src->pre + src->ppre, k);
    src->ppre += k;
    src->total += k;
    return (long)k;
  }
  if (!src->s || n == 0)
    return 0;
  long r = stream_read(src->s, p, n);
  if (r < 0) {
    src->err = src->s->err ? src->s->err : EIO;
    return -1;
  }
  src->total += (uint64_t)r;
  return r;
}

int zc_magic(int kind, const unsigned char *b, size_t n) {
  switch (kind) {
  case ZC_GZIP:
    return n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
  case ZC_BZIP2:
    return n >= 3 && b[0] == 'B' && b[1] == 'Z' && b[2] == 'h';
  default:
    return n >= 6 && memcmp(b,
                            "\xfd"
                            "7zXZ\0",
                            6) == 0;
  }
}

/* A buffered view of the input for the decoders. */
typedef struct ib {
  zc_src *src;
  unsigned char *buf;
  size_t pos, len;
  int eof;
} ib;

/* More bytes when all were used: >0 available, 0 at the end, -1 error. */
static int ib_fill(ib *b) {
  if (b->pos < b->len)
    return 1;
  if (b->eof)
    return 0;
  long r = zc_src_read(b->src, b->buf, ZC_CHUNK);
  if (r < 0)
    return -1;
  b->pos = 0;
  b->len = (size_t)r;
  if (r == 0) {
    b->eof = 1;
    return 0;
  }
  return 1;
}

/* One byte: 0..255, -1 at the end, -2 on error. */
static int ib_byte(ib *b) {
  int r = ib_fill(b);
  if (r <= 0)
    return r == 0 ? -1 : -2;
  return b->buf[b->pos++];
}

/* ---- allocators ---------------------------------------------------------- */

static void *z_alloc(void *ud, unsigned items, unsigned size) {
  if (size && items > SIZE_MAX / size)
    return NULL;
  return mem_alloc(ud, (size_t)items * size);
}
static void z_free(void *ud, void *p) {
  mem_free(ud, p);
}
static void *bz_alloc(void *ud, int items, int size) {
  if (items < 0 || size < 0 || (size && (size_t)items > SIZE_MAX / size))
    return NULL;
  return mem_alloc(ud, (size_t)items * (size_t)size);
}
static void bz_free(void *ud, void *p) {
  mem_free(ud, p);
}
static void *lz_alloc(void *ud, size_t items, size_t size) {
  if (size && items > SIZE_MAX / size)
    return NULL;
  return mem_alloc(ud, items * size);
}
static void lz_free(void *ud, void *p) {
  mem_free(ud, p);
}

/* ---- shared ------------------------------------------------------------- */

typedef struct job {
  bi_ctx *c;
  stream *out;
  zc_stats *st;
  int *err;
  unsigned char *ibuf, *obuf;
} job;

static int put(job *j, const unsigned char *p, size_t n) {
  j->st->out += n;
  if (j->out) {
    if (n && stream_write(j->out, p, n)) {
      *j->err = j->out->err ? j->out->err : EIO;
      return ZC_WRITE;
    }
  } else if (budget_poll(j->c->bud)) {
    *j->err = ECANCELED;
    return ZC_WRITE;
  }
  return ZC_OK;
}

static int job_open(job *j, bi_ctx *c, stream *out, zc_stats *st, int *err) {
  memset(j, 0, sizeof *j);
  j->c = c;
  j->out = out;
  j->st = st;
  j->err = err;
  memset(st, 0, sizeof *st);
  *err = 0;
  j->ibuf = mem_alloc(c->m, ZC_CHUNK);
  j->obuf = mem_alloc(c->m, ZC_CHUNK);
  return j->ibuf && j->obuf ? ZC_OK : ZC_NOMEM;
}

static void job_close(job *j) {
  mem_free(j->c->m, j->ibuf);
  mem_free(j->c->m, j->obuf);
}

static int read_fail(job *j, zc_src *src) {
  *j->err = src->err ? src->err : EIO;
  return ZC_READ;
}

/* ---- gzip ---------------------------------------------------------------- */

static void le32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static int gz_compress(job *j, int level, zc_src *src, const zc_gzinfo *gz) {
  unsigned char h[10 + 256];
  size_t hn = 10;
  h[0] = 0x1f, h[1] = 0x8b, h[2] = 8;
  h[3] = gz && gz->name[0] ? 8 : 0;
  le32(h + 4, gz ? (uint32_t)gz->mtime : 0);
  h[8] = (unsigned char)(level == 9 ? 2 : level == 1 ? 4 : 0);
  h[9] = 3;
  if (h[3]) {
    size_t k = strlen(gz->name) + 1;
    memcpy(h + 10, gz->name, k);
    hn += k;
  }
  j->st->overhead = hn + 8;
  int rc = put(j, h, hn);
  if (rc)
    return rc;
  z_stream z;
  memset(&z, 0, sizeof z);
  z.zalloc = z_alloc;
  z.zfree = z_free;
  z.opaque = j->c->m;
  if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return ZC_NOMEM;
  uLong crc = crc32(0, NULL, 0);
  int done = 0;
  while (!done && rc == ZC_OK) {
    long r = zc_src_read(src, j->ibuf, ZC_CHUNK);
    if (r < 0) {
      rc = read_fail(j, src);
      break;
    }
    j->st->in += (uint64_t)r;
    crc = crc32(crc, j->ibuf, (uInt)r);
    z.next_in = j->ibuf;
    z.avail_in = (uInt)r;
    int flush = r == 0 ? Z_FINISH : Z_NO_FLUSH;
    do {
      z.next_out = j->obuf;
      z.avail_out = ZC_CHUNK;
      int zr = deflate(&z, flush);
      if (zr == Z_STREAM_ERROR) {
        rc = ZC_NOMEM;
        break;
      }
      rc = put(j, j->obuf, ZC_CHUNK - z.avail_out);
      if (zr == Z_STREAM_END)
        done = 1;
    } while (rc == ZC_OK && !done && z.avail_out == 0);
  }
  deflateEnd(&z);
  if (rc)
    return rc;
  unsigned char t[8];
  le32(t, (uint32_t)crc);
  le32(t + 4, (uint32_t)j->st->in);
  return put(j, t, 8);
}

/* Reads one gzip header: ZC_OK, ZC_BADMAGIC, ZC_TRUNC, ZC_CORRUPT. */
static int gz_read_header(job *j, ib *b, zc_gzinfo *gz) {
  int ch[10];
  for (int i = 0; i < 10; i++) {
    ch[i] = ib_byte(b);
    if (ch[i] == -2)
      return read_fail(j, b->src);
    if (ch[i] < 0)
      return ZC_TRUNC;
    if (i == 1 && (ch[0] != 0x1f || ch[1] != 0x8b))
      return ZC_BADMAGIC;
  }
  if (ch[2] != 8 || (ch[3] & 0xe0))
    return ZC_CORRUPT;
  uint64_t len = 10;
  int flg = ch[3];
  if (gz) {
    gz->mtime = (int64_t)((uint32_t)ch[4] | (uint32_t)ch[5] << 8 |
                          (uint32_t)ch[6] << 16 | (uint32_t)ch[7] << 24);
    gz->name[0] = 0;
  }
  if (flg & 4) { /* FEXTRA */
    int a = ib_byte(b), c2 = ib_byte(b);
    if (a < 0 || c2 < 0)
      return a == -2 || c2 == -2 ? read_fail(j, b->src) : ZC_TRUNC;
    size_t xl = (size_t)a | (size_t)c2 << 8;
    len += 2 + xl;
    while (xl--) {
      int x = ib_byte(b);
      if (x < 0)
        return x == -2 ? read_fail(j, b->src) : ZC_TRUNC;
    }
  }
  for (int f = 8; f <= 16; f <<= 1) { /* FNAME then FCOMMENT */
    if (!(flg & f))
      continue;
    size_t k = 0;
    for (;;) {
      int x = ib_byte(b);
      if (x < 0)
        return x == -2 ? read_fail(j, b->src) : ZC_TRUNC;
      len++;
      if (x == 0)
        break;
      if (f == 8 && gz && k + 1 < sizeof gz->name)
        gz->name[k++] = (char)x;
    }
    if (f == 8 && gz)
      gz->name[k] = 0;
    if ((len & 4095) == 0 && budget_poll(j->c->bud)) {
      *j->err = ECANCELED;
      return ZC_READ;
    }
  }
  if (flg & 2) { /* FHCRC */
    for (int i = 0; i < 2; i++) {
      int x = ib_byte(b);
      if (x < 0)
        return x == -2 ? read_fail(j, b->src) : ZC_TRUNC;
    }
    len += 2;
  }
  j->st->overhead += len + 8;
  if (gz)
    gz->hdrlen = j->st->overhead;
  return ZC_OK;
}

static int gz_decompress(job *j, zc_src *src, zc_gzinfo *gz) {
  ib b = {src, j->ibuf, 0, 0, 0};
  z_stream z;
  memset(&z, 0, sizeof z);
  z.zalloc = z_alloc;
  z.zfree = z_free;
  z.opaque = j->c->m;
  if (inflateInit2(&z, -15) != Z_OK)
    return ZC_NOMEM;
  int rc = ZC_OK;
  for (int member = 0;; member++) {
    if (member) {
      /* After a member: the end, another member, zeros, or garbage. */
      int x = ib_fill(&b);
      if (x < 0) {
        rc = read_fail(j, src);
        break;
      }
      if (x == 0)
        break;
      if (b.buf[b.pos] != 0x1f) {
        int zeros = 1;
        while (zeros) {
          while (b.pos < b.len && b.buf[b.pos] == 0)
            b.pos++;
          if (b.pos < b.len) {
            zeros = 0;
            break;
          }
          x = ib_fill(&b);
          if (x < 0) {
            rc = read_fail(j, src);
            break;
          }
          if (x == 0)
            break;
        }
        if (rc == ZC_OK && !zeros)
          rc = ZC_TRAILING;
        break;
      }
    }
    rc = gz_read_header(j, &b, member ? NULL : gz);
    if (rc == ZC_BADMAGIC && member)
      rc = ZC_TRAILING;
    if (rc)
      break;
    inflateReset(&z);
    uLong crc = crc32(0, NULL, 0);
    uint64_t size = 0;
    int zr = Z_OK;
    while (zr != Z_STREAM_END) {
      int x = ib_fill(&b);
      if (x < 0) {
        rc = read_fail(j, src);
        break;
      }
      if (x == 0) {
        rc = ZC_TRUNC;
        break;
      }
      z.next_in = b.buf + b.pos;
      z.avail_in = (uInt)(b.len - b.pos);
      do {
        z.next_out = j->obuf;
        z.avail_out = ZC_CHUNK;
        zr = inflate(&z, Z_NO_FLUSH);
        if (zr == Z_MEM_ERROR) {
          rc = ZC_NOMEM;
          break;
        }
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
          rc = ZC_CORRUPT;
          break;
        }
        size_t got = ZC_CHUNK - z.avail_out;
        crc = crc32(crc, j->obuf, (uInt)got);
        size += got;
        rc = put(j, j->obuf, got);
      } while (rc == ZC_OK && zr != Z_STREAM_END && z.avail_out == 0);
      b.pos = b.len - z.avail_in;
      if (rc)
        break;
    }
    if (rc)
      break;
    unsigned char t[8];
    for (int i = 0; i < 8 && rc == ZC_OK; i++) {
      int x = ib_byte(&b);
      if (x == -2)
        rc = read_fail(j, src);
      else if (x < 0)
        rc = ZC_TRUNC;
      else
        t[i] = (unsigned char)x;
    }
    if (rc)
      break;
    uint32_t tcrc = (uint32_t)t[0] | (uint32_t)t[1] << 8 |
                    (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
    uint32_t tsz = (uint32_t)t[4] | (uint32_t)t[5] << 8 | (uint32_t)t[6] << 16 |
                   (uint32_t)t[7] << 24;
    if (tcrc != (uint32_t)crc || tsz != (uint32_t)size) {
      rc = ZC_CORRUPT;
      break;
    }
    if (gz)
      gz->crc = tcrc;
  }
  inflateEnd(&z);
  j->st->in = src->total;
  return rc;
}

/* ---- bzip2 --------------------------------------------------------------- */

static int bz_compress(job *j, int level, zc_src *src) {
  bz_stream z;
  memset(&z, 0, sizeof z);
  z.bzalloc = bz_alloc;
  z.bzfree = bz_free;
  z.opaque = j->c->m;
  if (BZ2_bzCompressInit(&z, level, 0, 30) != BZ_OK)
    return ZC_NOMEM;
  int rc = ZC_OK, done = 0;
  while (!done && rc == ZC_OK) {
    long r = zc_src_read(src, j->ibuf, ZC_CHUNK);
    if (r < 0) {
      rc = read_fail(j, src);
      break;
    }
    j->st->in += (uint64_t)r;
    z.next_in = (char *)j->ibuf;
    z.avail_in = (unsigned)r;
    int action = r == 0 ? BZ_FINISH : BZ_RUN;
    do {
      z.next_out = (char *)j->obuf;
      z.avail_out = ZC_CHUNK;
      int br = BZ2_bzCompress(&z, action);
      if (br < 0) {
        rc = ZC_NOMEM;
        break;
      }
      rc = put(j, j->obuf, ZC_CHUNK - z.avail_out);
      if (br == BZ_STREAM_END)
        done = 1;
    } while (rc == ZC_OK && !done &&
             (z.avail_in > 0 || z.avail_out == 0 || action == BZ_FINISH));
  }
  BZ2_bzCompressEnd(&z);
  return rc;
}

static int bz_decompress(job *j, zc_src *src) {
  ib b = {src, j->ibuf, 0, 0, 0};
  int rc = ZC_OK;
  for (int member = 0; rc == ZC_OK; member++) {
    int x = ib_fill(&b);
    if (x < 0)
      return read_fail(j, src);
    if (x == 0) {
      if (!member)
        rc = ZC_BADMAGIC;
      break;
    }
    if (member) {
      /* Another stream needs its magic; anything else is trailing junk. */
      unsigned char m[3];
      size_t k = 0;
      while (k < 3 && b.pos < b.len)
        m[k++] = b.buf[b.pos++];
      if (k < 3 || memcmp(m, "BZh", 3) != 0) {
        rc = ZC_TRAILING;
        break;
      }
      b.pos -= 3;
    }
    bz_stream z;
    memset(&z, 0, sizeof z);
    z.bzalloc = bz_alloc;
    z.bzfree = bz_free;
    z.opaque = j->c->m;
    if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK)
      return ZC_NOMEM;
    int br = BZ_OK;
    while (br != BZ_STREAM_END && rc == ZC_OK) {
      x = ib_fill(&b);
      if (x < 0) {
        rc = read_fail(j, src);
        break;
      }
      if (x == 0) {
        rc = ZC_TRUNC;
        break;
      }
      z.next_in = (char *)b.buf + b.pos;
      z.avail_in = (unsigned)(b.len - b.pos);
      do {
        z.next_out = (char *)j->obuf;
        z.avail_out = ZC_CHUNK;
        br = BZ2_bzDecompress(&z);
        if (br == BZ_DATA_ERROR_MAGIC) {
          rc = member ? ZC_TRAILING : ZC_BADMAGIC;
          break;
        }
        if (br == BZ_MEM_ERROR) {
          rc = ZC_NOMEM;
          break;
        }
        if (br != BZ_OK && br != BZ_STREAM_END) {
          rc = ZC_CORRUPT;
          break;
        }
        rc = put(j, j->obuf, ZC_CHUNK - z.avail_out);
      } while (rc == ZC_OK && br != BZ_STREAM_END && z.avail_out == 0);
      b.pos = b.len - z.avail_in;
    }
    BZ2_bzDecompressEnd(&z);
  }
  j->st->in = src->total;
  return rc;
}

/* ---- xz ------------------------------------------------------------------ */

static int xz_run(job *j, lzma_stream *z, zc_src *src, int enc) {
  int rc = ZC_OK;
  lzma_action act = LZMA_RUN;
  for (;;) {
    if (z->avail_in == 0 && act == LZMA_RUN) {
      long r = zc_src_read(src, j->ibuf, ZC_CHUNK);
      if (r < 0)
        return read_fail(j, src);
      if (enc)
        j->st->in += (uint64_t)r;
      z->next_in = j->ibuf;
      z->avail_in = (size_t)r;
      if (r == 0)
        act = LZMA_FINISH;
    }
    z->next_out = j->obuf;
    z->avail_out = ZC_CHUNK;
    lzma_ret lr = lzma_code(z, act);
    rc = put(j, j->obuf, ZC_CHUNK - z->avail_out);
    if (rc)
      return rc;
    if (lr == LZMA_STREAM_END)
      break;
    if (lr == LZMA_OK)
      continue;
    if (lr == LZMA_MEM_ERROR || lr == LZMA_MEMLIMIT_ERROR)
      return ZC_NOMEM;
    if (lr == LZMA_FORMAT_ERROR)
      return ZC_BADMAGIC;
    if (lr == LZMA_BUF_ERROR)
      return ZC_TRUNC;
    return ZC_CORRUPT;
  }
  if (!enc)
    j->st->in = src->total;
  return rc;
}

static int xz_code(job *j, int level, zc_src *src, int enc) {
  lzma_allocator al = {lz_alloc, lz_free, j->c->m};
  lzma_stream z = LZMA_STREAM_INIT;
  z.allocator = &al;
  lzma_ret lr = enc ? lzma_easy_encoder(&z, (uint32_t)level, LZMA_CHECK_CRC64)
                    : lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED);
  if (lr != LZMA_OK) {
    lzma_end(&z);
    return ZC_NOMEM;
  }
  int rc;
  if (!enc && !zc_magic(ZC_XZ, src->pre, zc_src_peek(src, 6)))
    rc = src->err ? read_fail(j, src) : ZC_BADMAGIC;
  else
    rc = xz_run(j, &z, src, enc);
  lzma_end(&z);
  return rc;
}

/* ---- entry points -------------------------------------------------------- */

int zc_compress(bi_ctx *c, int kind, int level, zc_src *src, stream *out,
                const zc_gzinfo *gz, zc_stats *st, int *err) {
  job j;
  int rc = job_open(&j, c, out, st, err);
  if (rc == ZC_OK) {
    if (kind == ZC_GZIP)
      rc = gz_compress(&j, level, src, gz);
    else if (kind == ZC_BZIP2)
      rc = bz_compress(&j, level, src);
    else
      rc = xz_code(&j, level, src, 1);
  }
  job_close(&j);
  return rc;
}

int zc_decompress(bi_ctx *c, int kind, zc_src *src, stream *out, zc_gzinfo *gz,
                  zc_stats *st, int *err) {
  job j;
  int rc = job_open(&j, c, out, st, err);
  if (rc == ZC_OK) {
    if (kind == ZC_GZIP)
      rc = gz_decompress(&j, src, gz);
    else if (kind == ZC_BZIP2)
      rc = bz_decompress(&j, src);
    else
      rc = xz_code(&j, 0, src, 0);
  }
  job_close(&j);
  return rc;
}
