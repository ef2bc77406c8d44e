/*
 * buf.h - a growable, length-carrying byte string on the sandbox allocator.
 * Always NUL-terminated after len (for convenience), but binary safe: NUL
 * bytes inside are data. Functions returning int give 0 or -1 (no memory).
 */
#ifndef VSH_CORE_BUF_H
#define VSH_CORE_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "mem.h"

typedef struct buf {
  mem *m;
  char *data; /* NULL until the first append */
  size_t len, cap;
  /* An append failed for lack of memory: the contents miss bytes, so every
   * later append fails too (a check at the end is enough) until buf_clear
   * or buf_free. */
  int oom;
} buf;

void buf_init(buf *b, mem *m);
void buf_free(buf *b);
void buf_clear(buf *b); /* len = 0 and oom = 0, keeps storage */
int buf_reserve(buf *b, size_t extra);
int buf_append(buf *b, const void *p, size_t n);
int buf_putc(buf *b, int c);
int buf_puts(buf *b, const char *s);
/* A decimal integer, as printf's %ld writes it. */
int buf_put_long(buf *b, long v);
int buf_printf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int buf_vprintf(buf *b, const char *fmt, va_list ap);
/* Hand the storage to the caller (mem_free it); b becomes empty. NULL when
 * out of memory, now or at an earlier append. */
char *buf_take(buf *b, size_t *len);
/* Always-valid C string view ("" when empty). */
const char *buf_cstr(const buf *b);

#endif
