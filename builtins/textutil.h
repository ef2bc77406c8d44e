/*
 * textutil.h - helpers shared by the text builtins (echo, printf, cat, sort,
 * ...): backslash escapes in their three bash dialects, UTF-8 encoding,
 * --version output and the "for each file operand" loop every coreutils
 * filter repeats.
 */
#ifndef VSH_BUILTINS_TEXTUTIL_H
#define VSH_BUILTINS_TEXTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "builtins/builtin.h"

/* Which escape dialect: bash is not consistent between its commands. */
enum {
  TU_ESC_ECHO = 0, /* echo -e: \0NNN octal only, \' \" \? stay as typed */
  TU_ESC_FMT = 1,  /* printf format: \NNN, \" -> ", \c literal */
  TU_ESC_B = 2     /* printf %b: \0NNN and \NNN, \c stops everything */
};

/* Decode the escape whose backslash precedes s (n bytes follow). Appends the
 * result to out, returns how many bytes after the backslash were consumed,
 * sets *stop for a \c that ends all output (ECHO and B dialects). Warnings
 * bash prints ("missing hex digit for \x") go to c->err. */
size_t tu_escape(bi_ctx *c, const char *s, size_t n, int mode, buf *out,
                 int *stop);

/* UTF-8 encoding of a code point (up to 6 bytes for values past U+10FFFF,
 * as glibc's wctomb would refuse: we emit the historic form). Returns the
 * length. */
size_t tu_utf8_put(uint32_t cp, char *out);
/* Decode one UTF-8 character at s: returns its length (1 for an invalid
 * byte, with *cp the byte) and the code point. */
size_t tu_utf8_get(const char *s, size_t n, uint32_t *cp);

/* "--version" output of a coreutils command; returns 0. */
int tu_version(bi_ctx *c);

/* "NAME: FILE: strerror" for a file operand (GNU quotes nothing here). */
void tu_file_error(bi_ctx *c, const char *name, int err);

/* Read the whole stream into memory: a zero-copy view when the stream
 * offers one (*view), else a copy in *copy (mem_free it). Returns 0, or -1
 * with *err. */
int tu_slurp(bi_ctx *c, stream *s, const char **data, size_t *len, buf *copy,
             int *err);

/* A count with GNU's optional multiplier suffix (b 512, K/KiB 1024, KB
 * 1000, M/MiB, MB, G, T, P, E): leading blanks and '+' allowed. Returns 0,
 * -1 when invalid, -2 on overflow (*v then UINT64_MAX). */
int tu_parse_count(const char *s, uint64_t *v);

/* "'NAME'" quoting of a file name in messages, as GNU's quote() does in
 * the C locale for simple names (scratch memory). */
const char *tu_quote(bi_ctx *c, const char *name);

/* Open a file for writing (truncating, or appending), created 0666 &
 * ~umask; /dev/stdout and /dev/stderr are the command's own streams.
 * NULL with *err (an errno value). Defined in open.c. */
stream *tu_open_write(bi_ctx *c, const char *path, int append, int *err);

#endif
