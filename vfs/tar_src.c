/*
 * tar_src.c - hydrate's input: a buffer or a read callback, plain or gzip.
 * A plain buffer is read in place (member contents are copied once, into
 * their files); a callback or a gzip stream is read (or inflated) in
 * chunks, straight into the members' contents, so the archive is never
 * held whole a second time.
 */
#include <errno.h>
#include <string.h>

#include "vfs/tar.h"

#define IB_SIZE ((size_t)64 << 10)
#define GZ_OUT_MAX (TAR_MAX_EXTRACT + ((uint64_t)64 << 20))

/* More raw input into s->ib (callback input): 0 (s->ieof at its end) or
 * -errno / a rejection. */
static int fill(tsrc *s) {
  s->ipos = s->ilen = 0;
  while (!s->ieof && s->ilen == 0) {
    long k = s->fn(s->ud, s->ib, IB_SIZE);
    if (k < 0 || (size_t)k > IB_SIZE)
      return -EIO;
    if (k == 0) {
      s->ieof = true;
      break;
    }
    s->ilen = (size_t)k;
    s->in_total += (uint64_t)k;
    if (s->in_total > TAR_MAX_INPUT)
      return tar_reject(s->h, "(archive)", "input larger than 1 GiB");
  }
  return 0;
}

int tar_src_open(tsrc *s, hctx *h, const void *buf, size_t len, vsh_read_fn fn,
                 void *ud) {
  memset(s, 0, sizeof *s);
  s->h = h;
  if (!fn) {
    if (len > TAR_MAX_INPUT)
      return tar_reject(h, "(archive)", "input larger than 1 GiB");
    s->mem = buf ? buf : (const unsigned char *)"";
    s->mlen = len;
    s->gz = len >= 2 && s->mem[0] == 0x1f && s->mem[1] == 0x8b;
  } else {
    s->fn = fn;
    s->ud = ud;
    if (!(s->ib = mem_alloc(h->v->m, IB_SIZE)))
      return -ENOMEM;
    int rc = fill(s);
    if (rc)
      return rc;
    /* the magic may come in two reads */
    if (s->ilen == 1 && s->ib[0] == 0x1f && !s->ieof) {
      long k = fn(ud, s->ib + 1, IB_SIZE - 1);
      if (k < 0 || (size_t)k > IB_SIZE - 1)
        return -EIO;
      s->ilen += (size_t)k;
      s->in_total += (uint64_t)k;
      s->ieof = k == 0;
    }
    s->gz = s->ilen >= 2 && s->ib[0] == 0x1f && s->ib[1] == 0x8b;
  }
  if (s->gz) {
    if (inflateInit2(&s->z, 15 + 16) != Z_OK)
      return -ENOMEM;
    s->zinit = true;
  }
  return 0;
}

void tar_src_close(tsrc *s) {
  if (s->zinit)
    inflateEnd(&s->z);
  s->zinit = false;
  mem_free(s->h->v->m, s->ib);
  s->ib = NULL;
}

bool tar_src_in_place(const tsrc *s) {
  return s->mem && !s->gz;
}

const char *tar_src_take(tsrc *s, size_t n, size_t *got) {
  size_t left = s->mlen - s->mpos;
  *got = n < left ? n : left;
  const char *p = (const char *)s->mem + s->mpos;
  s->mpos += *got;
  return p;
}

/* Raw (compressed or plain) input available: its start and length. */
static int raw(tsrc *s, const unsigned char **p, size_t *n) {
  if (s->mem) {
    *p = s->mem + s->mpos;
    *n = s->mlen - s->mpos;
    return 0;
  }
  if (s->ipos == s->ilen) {
    int rc = fill(s);
    if (rc)
      return rc;
  }
  *p = s->ib + s->ipos;
  *n = s->ilen - s->ipos;
  return 0;
}

static void raw_used(tsrc *s, size_t k) {
  if (s->mem)
    s->mpos += k;
  else
    s->ipos += k;
}

static int inflate_some(tsrc *s, unsigned char *dst, size_t n, size_t *out) {
  *out = 0;
  if (s->zend)
    return 0;
  const unsigned char *p;
  size_t avail;
  int rc = raw(s, &p, &avail);
  if (rc)
    return rc;
  if (!avail) /* the stream ends before its end */
    return tar_reject(s->h, "(archive)", "corrupt gzip data");
  uInt in = (uInt)(avail > UINT32_MAX ? UINT32_MAX : avail);
  uInt give = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
  s->z.next_in = (unsigned char *)p;
  s->z.avail_in = in;
  s->z.next_out = dst;
  s->z.avail_out = give;
  int zr = inflate(&s->z, Z_NO_FLUSH);
  raw_used(s, in - s->z.avail_in);
  *out = give - s->z.avail_out;
  s->out_total += *out;
  if (zr == Z_STREAM_END)
    s->zend = true;
  else if (zr != Z_OK && zr != Z_BUF_ERROR)
    return tar_reject(s->h, "(archive)", "corrupt gzip data");
  if (s->out_total > GZ_OUT_MAX)
    return tar_reject(s->h, "(archive)",
                      "decompressed size over the 4 GiB limit");
  return 0;
}

int tar_src_read(tsrc *s, void *dst, size_t n, size_t *got) {
  unsigned char *d = dst;
  *got = 0;
  while (*got < n) {
    size_t k = 0;
    if (s->gz) {
      int rc = inflate_some(s, d + *got, n - *got, &k);
      if (rc)
        return rc;
      if (!k && s->zend)
        break;
    } else {
      const unsigned char *p;
      size_t avail;
      int rc = raw(s, &p, &avail);
      if (rc)
        return rc;
      if (!avail)
        break;
      k = n - *got < avail ? n - *got : avail;
      memcpy(d + *got, p, k);
      raw_used(s, k);
    }
    *got += k;
  }
  return 0;
}

int tar_src_finish(tsrc *s) {
  if (!s->gz)
    return 0;
  unsigned char sink[4096];
  while (!s->zend) {
    size_t k;
    int rc = inflate_some(s, sink, sizeof sink, &k);
    if (rc)
      return rc;
  }
  return 0;
}
