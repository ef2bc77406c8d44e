/*
 * text_mutator.h - a structure-aware libFuzzer mutator for the targets whose
 * input is program text (shell, awk, sed). Include it once, in the target's
 * .c file, after optionally defining FZ_PAIRS (see below).
 *
 * libFuzzer's byte mutations rarely build deep nesting or long repetitions:
 * growing "((x))" one byte at a time to a depth of 1,000 never happens. Yet
 * depth and repetition are where an interpreter runs out of stack, time or
 * memory. So, besides calling LLVMFuzzerMutate, this mutator sometimes
 *   - wraps a range in an opening/closing pair, once or many times over,
 *   - duplicates a range many times in place,
 *   - repeats a whole line many times.
 *
 * FZ_PAIRS, if defined before the include, is a brace-enclosed initialiser
 * of {open, close} string pairs suited to the target's language; the default
 * is the shell's.
 *
 * Only the libFuzzer build (VSH_LIBFUZZER, set by fuzz/CMakeLists.txt) gets
 * the mutator: the _replay build has no LLVMFuzzerMutate to call.
 */
#ifndef VSH_FUZZ_TEXT_MUTATOR_H
#define VSH_FUZZ_TEXT_MUTATOR_H

#ifdef VSH_LIBFUZZER
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef FZ_PAIRS
#define FZ_PAIRS                                                               \
  {                                                                            \
    {"(", ")"}, {"$(", ")"}, {"{ ", "; }"}, {"[[ ", " ]]"}, {"\"", "\""},      \
        {"$((", "))"}, {"((", "))"}, {"${", "}"}, {"`", "`"},                  \
        {"$(eval '", "')"}, {"<(", ")"}, {"f() { ", "; }; f"},                 \
        {"bash -c '", "'"}, {"@(", ")"}, {"{a,", "}"}, {"a[", "]"},            \
  }
#endif

static const char *const fz_pairs[][2] = FZ_PAIRS;

#ifndef FZ_SOFT_ODDS
#define FZ_SOFT_ODDS 8 /* 1 in this many mutations may grow freely */
#endif
#ifndef FZ_SOFT_DIV
#define FZ_SOFT_DIV 2 /* the others by at most 1/this, plus 64 bytes */
#endif

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);

/* xorshift32: the mutation must depend on seed alone, so libFuzzer can
 * replay it. */
static uint32_t fz_next(uint32_t *s) {
  uint32_t x = *s ? *s : 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static size_t fz_below(uint32_t *s, size_t n) {
  return n ? fz_next(s) % n : 0;
}

/* A count skewed towards small values but reaching max now and then:
 * most wraps are shallow, a few hit the depth limits. */
static size_t fz_count(uint32_t *s, size_t max) {
  size_t lim = (size_t)1 << fz_below(s, 11); /* 1 .. 1024 */
  if (lim > max)
    lim = max;
  return 1 + fz_below(s, lim);
}

/* Replace [a, b) with: open x k, the range, close x k. */
static size_t fz_wrap(uint8_t *d, size_t size, size_t max, size_t a, size_t b,
                      const char *open, const char *close, size_t k) {
  size_t lo = strlen(open), lc = strlen(close), len = b - a;
  if (lo + lc == 0)
    return size;
  size_t room = max - size;
  if (k > room / (lo + lc))
    k = room / (lo + lc);
  if (k == 0)
    return size;
  size_t add_o = k * lo, add_c = k * lc;
  memmove(d + b + add_o + add_c, d + b, size - b);
  memmove(d + a + add_o, d + a, len);
  for (size_t i = 0; i < k; i++)
    memcpy(d + a + i * lo, open, lo);
  for (size_t i = 0; i < k; i++)
    memcpy(d + a + add_o + len + i * lc, close, lc);
  return size + add_o + add_c;
}

/* Insert k more copies of [a, b) right after it. */
static size_t fz_dup(uint8_t *d, size_t size, size_t max, size_t a, size_t b,
                     size_t k) {
  size_t len = b - a;
  if (len == 0)
    return size;
  if (k > (max - size) / len)
    k = (max - size) / len;
  if (k == 0)
    return size;
  memmove(d + b + k * len, d + b, size - b);
  for (size_t i = 0; i < k; i++)
    memcpy(d + b + i * len, d + a, len);
  return size + k * len;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed) {
  uint32_t s = seed;
  /* libFuzzer turns its own -len_control off for a custom mutator, and
   * without it every input soon grows to -max_len: most mutations may only
   * grow an input a little (the occasional one may reach max_size), so
   * small inputs, which run fastest, stay most of the corpus. */
  if (fz_below(&s, FZ_SOFT_ODDS)) {
    size_t soft = size + size / FZ_SOFT_DIV + 64;
    if (soft < max_size)
      max_size = soft;
  }
  unsigned op = (unsigned)fz_below(&s, 8);
  if (size == 0 || size >= max_size || op < 5)
    return LLVMFuzzerMutate(data, size, max_size);
  size_t a = fz_below(&s, size + 1);
  size_t b = a + fz_below(&s, size - a + 1);
  switch (op) {
  case 5: { /* nesting */
    size_t n = sizeof fz_pairs / sizeof fz_pairs[0];
    const char *const *p = fz_pairs[fz_below(&s, n)];
    size_t k = fz_below(&s, 4) ? 1 : fz_count(&s, 4096);
    return fz_wrap(data, size, max_size, a, b, p[0], p[1], k);
  }
  case 6: /* repetition of an arbitrary range */
    if (b - a > 256)
      b = a + 256;
    return fz_dup(data, size, max_size, a, b, fz_count(&s, 4096));
  default: { /* repeat the line around a */
    size_t lo = a, hi = a;
    while (lo > 0 && data[lo - 1] != '\n')
      lo--;
    while (hi < size && data[hi] != '\n')
      hi++;
    if (hi < size)
      hi++; /* with its newline */
    return fz_dup(data, size, max_size, lo, hi, fz_count(&s, 1024));
  }
  }
}
#endif /* VSH_LIBFUZZER */

#endif
