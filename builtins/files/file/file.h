/*
 * file.h - the tests of the file builtin: binary formats by their magic
 * numbers (magic.c, elf.c) and the kind of a text (text.c).
 *
 * file 5.44 reads a compiled magic database from the host; a sandbox in the
 * caller's process cannot, so the everyday types are recognised by hand
 * here and the rest is "data".
 */
#ifndef VSH_BUILTINS_FILES_FILE_H
#define VSH_BUILTINS_FILES_FILE_H

#include <stddef.h>

#include "builtins/builtin.h"

/* What a test found: the description (appended to d), the MIME type and
 * the charset -i prints. */
typedef struct fl_kind {
  buf *d;
  const char *mime;
  const char *charset;
} fl_kind;

/* A binary format: 1 when p[0..n) is one (k filled), else 0. */
int fl_magic(bi_ctx *c, const unsigned char *p, size_t n, fl_kind *k);
/* ELF: 1 when it is one. */
int fl_elf(const unsigned char *p, size_t n, fl_kind *k);
/* Text: 1 when p[0..n) reads as text in some encoding, else 0. */
int fl_text(bi_ctx *c, const unsigned char *p, size_t n, fl_kind *k);
/* A #! script that is not text: 1 when p[0..n) starts with "#!". */
int fl_script_binary(const unsigned char *p, size_t n, fl_kind *k);

#endif
