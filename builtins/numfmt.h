/*
 * numfmt.h - one printf conversion of a number, for printf and seq, with
 * any width and precision up to INT_MAX.
 *
 * snprintf into a buffer cannot do `%999999999d`: the text is a gigabyte.
 * Here the digits come from snprintf with the precision capped where the
 * digits of the value end (past that every digit is a zero), and the zeros
 * and blanks beyond the cap and the width are handed to the sink in
 * chunks: memory stays bounded, and a sink that writes to a stream charges
 * the output limit and polls the deadline as the padding goes out.
 */
#ifndef VSH_BUILTINS_NUMFMT_H
#define VSH_BUILTINS_NUMFMT_H

#include <stdint.h>

#include "core/buf.h"
#include "core/mem.h"

/* Takes n bytes; returns 0, or -1 to stop (a write failed, a limit). */
typedef int (*bi_sink_fn)(void *ud, const char *p, size_t n);

typedef struct bi_numspec {
  const char *flags; /* any of "-+ #0'" (others are ignored) */
  size_t nflags;
  int ljust;       /* '-' given (or a negative '*' width) */
  long long width; /* -1: none */
  long long prec;  /* -1: none */
  char conv;       /* d i o u x X, or e E f F g G a A */
} bi_numspec;

/* The conversion of an integer (d i: iv; o u x X: uv) or of a long double
 * (the others: ld) to sink. Width and precision must be at most INT_MAX.
 * Returns 0, -1 when the sink stopped, -2 when out of memory. */
int bi_fmt_number(mem *m, const bi_numspec *s, intmax_t iv, uintmax_t uv,
                  long double ld, bi_sink_fn sink, void *ud);

/* n copies of ch to sink, in chunks: 0 or -1 when the sink stopped. */
int bi_fill(char ch, uint64_t n, bi_sink_fn sink, void *ud);

#endif
