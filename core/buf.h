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
} buf;

void buf_init(buf *b, mem *m);
void buf_free(buf *b);
void buf_clear(buf *b); /* len = 0, keeps storage */
int buf_reserve(buf *b, size_t extra);
int buf_append(buf *b, const void *p, size_t n);
int buf_putc(buf *b, int c);
int buf_puts(buf *b, const char *s);
int buf_printf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int buf_vprintf(buf *b, const char *fmt, va_list ap);
/* Hand the storage to the caller (mem_free it); b becomes empty. */
char *buf_take(buf *b, size_t *len);
/* Always-valid C string view ("" when empty). */
const char *buf_cstr(const buf *b);

#endif
