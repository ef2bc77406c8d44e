/*
 * codec.h - what base64 and base32 share: the command line (-d, -i,
 * -w COLS, one FILE), reading, encoding in chunks with wrapped output, and
 * decoding the whole input. Each command brings its alphabet as three
 * functions.
 */
#ifndef VSH_BUILTINS_CODEC_H
#define VSH_BUILTINS_CODEC_H

#include "builtins/textutil.h"

/* Encoder state: bytes of an unfinished group, and the output column. */
typedef struct tu_enc {
  unsigned char part[8];
  int np;
  size_t col, wrap; /* wrap 0: never */
} tu_enc;

typedef struct tu_codec {
  void (*encode)(writer *w, tu_enc *e, const unsigned char *p, size_t n);
  void (*encode_end)(writer *w, tu_enc *e);
  /* 0; -1 at invalid input (what came before is out); -2 when the
   * decoder already reported an error */
  int (*decode)(bi_ctx *c, writer *w, const char *d, size_t n, int ignore);
  size_t chunk; /* bytes read per encode call: a multiple of a group */
} tu_codec;

/* Writes n characters of encoded text, breaking lines at e->wrap. */
void tu_enc_put(writer *w, tu_enc *e, const char *q, size_t n);

/* The whole command; returns its exit status. */
int tu_codec_main(bi_ctx *c, const tu_codec *k);

#endif
