#include "buf.h"

#include <stdio.h>
#include <string.h>

void buf_init(buf *b, mem *m) {
  b->m = m;
  b->data = NULL;
  b->len = b->cap = 0;
  b->oom = 0;
}

void buf_free(buf *b) {
  mem_free(b->m, b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->oom = 0;
}

void buf_clear(buf *b) {
  b->len = 0;
  b->oom = 0;
  if (b->data)
    b->data[0] = 0;
}

int buf_reserve(buf *b, size_t extra) {
  if (b->oom)
    return -1;
  if (b->len + extra + 1 <= b->cap)
    return 0;
  if (extra > SIZE_MAX / 2 - b->len) {
    b->oom = 1;
    return -1;
  }
  size_t nc = b->cap ? b->cap : 64;
  while (nc < b->len + extra + 1)
    nc *= 2;
  char *p = mem_realloc(b->m, b->data, nc);
  if (!p) {
    b->oom = 1;
    return -1;
  }
  b->data = p;
  b->cap = nc;
  return 0;
}

int buf_append(buf *b, const void *p, size_t n) {
  if (buf_reserve(b, n))
    return -1;
  if (n)
    memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = 0;
  return 0;
}

int buf_putc(buf *b, int c) {
  if (b->len + 2 <= b->cap && !b->oom) { /* room for c and the NUL */
    b->data[b->len++] = (char)c;
    b->data[b->len] = 0;
    return 0;
  }
  char ch = (char)c;
  return buf_append(b, &ch, 1);
}

int buf_puts(buf *b, const char *s) {
  return buf_append(b, s, strlen(s));
}

int buf_put_long(buf *b, long v) {
  char tmp[24], *e = tmp + sizeof tmp, *p = e;
  unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
  do
    *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0)
    *--p = '-';
  return buf_append(b, p, (size_t)(e - p));
}

int buf_vprintf(buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char tmp[256];
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  if (n < 0) {
    va_end(ap2);
    return -1;
  }
  if ((size_t)n < sizeof tmp) {
    va_end(ap2);
    return buf_append(b, tmp, (size_t)n);
  }
  if (buf_reserve(b, (size_t)n)) {
    va_end(ap2);
    return -1;
  }
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
  return 0;
}

int buf_printf(buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = buf_vprintf(b, fmt, ap);
  va_end(ap);
  return r;
}

char *buf_take(buf *b, size_t *len) {
  if (b->oom || (!b->data && buf_reserve(b, 0))) {
    buf_free(b); /* contents that miss bytes are no result */
    return NULL;
  }
  char *p = b->data;
  if (len)
    *len = b->len;
  b->data = NULL;
  b->len = b->cap = 0;
  return p;
}

const char *buf_cstr(const buf *b) {
  return b->data ? b->data : "";
}
