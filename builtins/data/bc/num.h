/*
 * num.h - arbitrary precision decimal numbers for bc and dc.
 *
 * A number is a sign, `len` integer digits and `scale` fraction digits,
 * one decimal digit a byte, most significant first, on the sandbox
 * allocator. The integer part keeps at least one digit (0.5 is "0" "5"), as
 * the scale rules of POSIX bc need. Every operation takes a bn_env: the
 * allocator, the budget polled inside every digit loop, and the cap on a
 * number's digit count. An operation that fails returns NULL (or -1) with
 * env->err set: BN_EOOM, BN_ELIMIT (too many digits), BN_ESTOP (a limit of
 * the sandbox), BN_EDIV0 (division by zero), BN_ENEG (square root of a
 * negative number), BN_EEXP (an exponent beyond a long).
 */
#ifndef VSH_BUILTINS_DATA_BC_NUM_H
#define VSH_BUILTINS_DATA_BC_NUM_H

#include <stddef.h>

#include "builtins/builtin.h"

enum { BN_OK = 0, BN_EOOM, BN_ELIMIT, BN_ESTOP, BN_EDIV0, BN_ENEG, BN_EEXP };

typedef struct bn {
  int neg;
  size_t len, scale;
  unsigned char *d; /* len + scale digits */
} bn;

typedef struct bn_env {
  mem *m;
  budget *bud;
  size_t max_digits;
  int err;
  unsigned tick;
} bn_env;

bn *bn_new(bn_env *e, size_t len, size_t scale);
bn *bn_copy(bn_env *e, const bn *a);
void bn_free(bn_env *e, bn *a);
bn *bn_from_long(bn_env *e, long v);
/* Parse digits ("12.5", upper-case letters as digits 10..35) in base ibase
 * the way bc reads a constant: a lone digit keeps its value, others are
 * clamped below ibase when clamp is set (bc), taken as they are if not
 * (dc). */
bn *bn_parse(bn_env *e, const char *s, size_t n, int ibase, int clamp);
int bn_is_zero(const bn *a);
int bn_cmp(const bn *a, const bn *b);
/* The value as a long, truncated: 0 and *ok = 0 when out of range. */
long bn_to_long(const bn *a, int *ok);
/* Drop leading zeros of the integer part; zero is never negative. */
void bn_trim(bn *a);
/* Shorten the fraction to scale digits (truncating); longer is padding. */
bn *bn_rescale(bn_env *e, bn *a, size_t scale);

bn *bn_add(bn_env *e, const bn *a, const bn *b);
bn *bn_sub(bn_env *e, const bn *a, const bn *b);
bn *bn_mul(bn_env *e, const bn *a, const bn *b, size_t scale);
bn *bn_div(bn_env *e, const bn *a, const bn *b, size_t scale);
bn *bn_mod(bn_env *e, const bn *a, const bn *b, size_t scale);
/* a^b for an integer b (its fraction already dropped). */
bn *bn_pow(bn_env *e, const bn *a, const bn *b, size_t scale);
bn *bn_sqrt(bn_env *e, const bn *a, size_t scale);
/* length() and scale() of bc. */
size_t bn_length(const bn *a);

/* Output with bc's line splitting: a line longer than line_len - 1
 * characters is broken with a backslash (line_len 0: never). */
typedef struct bn_out {
  writer *w;
  int line_len;
  int col;
} bn_out;

void bn_out_char(bn_out *o, int ch);
void bn_out_str(bn_out *o, const char *s, size_t n);
/* Print a in base obase as bc does (multi-digit groups above 16). */
int bn_print(bn_env *e, bn_out *o, const bn *a, int obase);

#endif
