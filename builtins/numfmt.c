/*
 * numfmt.c - one printf conversion of a number with any width and
 * precision (see numfmt.h).
 */
#include "builtins/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Precisions past which every further digit is a zero. An integer has at
 * most 22 digits (octal). A long double m * 2^e has at most 16,446
 * fractional digits (e >= -16,445) and, as a whole, fewer than 17,000
 * significant ones, so %f, %e and %g print the same digits with the
 * precision capped here, followed by zeros. Its mantissa is 16 hex digits
 * at most (%a). */
#define INT_PREC_CAP 64
#define FLOAT_PREC_CAP 17000
#define HEX_PREC_CAP 64

int bi_fill(char ch, uint64_t n, bi_sink_fn sink, void *ud) {
  char chunk[4096];
  memset(chunk, ch, sizeof chunk);
  while (n) {
    size_t k = n < sizeof chunk ? (size_t)n : sizeof chunk;
    if (sink(ud, chunk, k))
      return -1;
    n -= k;
  }
  return 0;
}

static int has_flag(const bi_numspec *s, char f) {
  return memchr(s->flags, f, s->nflags) != NULL;
}

int bi_fmt_number(mem *m, const bi_numspec *s, intmax_t iv, uintmax_t uv,
                  long double ld, bi_sink_fn sink, void *ud) {
  char c = s->conv;
  int is_int = strchr("diouxX", c) != NULL;
  int is_hex_float = c == 'a' || c == 'A';
  int finite = is_int || isfinite(ld);
  /* The spec without width, '-' and '0' (done here), precision capped. */
  char spec[32];
  size_t k = 0;
  spec[k++] = '%';
  for (size_t i = 0; i < s->nflags && k < 8; i++)
    if (strchr("+ #'", s->flags[i]) && !memchr(spec + 1, s->flags[i], k - 1))
      spec[k++] = s->flags[i];
  long long cap = is_int         ? INT_PREC_CAP
                  : is_hex_float ? HEX_PREC_CAP
                                 : FLOAT_PREC_CAP;
  long long prec = s->prec, extra = 0;
  if (prec > cap) {
    /* %g drops trailing zeros unless '#' keeps them */
    if ((c != 'g' && c != 'G') || has_flag(s, '#'))
      extra = prec - cap;
    prec = cap;
  }
  if (!finite)
    extra = 0;
  if (prec >= 0) { /* by hand: this runs once per number of a seq */
    char dig[24];
    size_t nd = 0;
    do
      dig[nd++] = (char)('0' + prec % 10);
    while ((prec /= 10) > 0);
    spec[k++] = '.';
    while (nd)
      spec[k++] = dig[--nd];
  }
  spec[k++] = is_int ? 'j' : 'L';
  spec[k++] = c;
  spec[k] = 0;

  char tmp[512];
  char *core = tmp;
  int n;
  if (c == 'd' || c == 'i')
    n = snprintf(tmp, sizeof tmp, spec, iv);
  else if (is_int)
    n = snprintf(tmp, sizeof tmp, spec, uv);
  else
    n = snprintf(tmp, sizeof tmp, spec, ld);
  if (n < 0)
    return -1;
  if ((size_t)n >= sizeof tmp) {
    core = mem_alloc(m, (size_t)n + 1);
    if (!core)
      return -2;
    if (c == 'd' || c == 'i')
      snprintf(core, (size_t)n + 1, spec, iv);
    else if (is_int)
      snprintf(core, (size_t)n + 1, spec, uv);
    else
      snprintf(core, (size_t)n + 1, spec, ld);
  }
  size_t len = (size_t)n;

  /* Where zero padding goes: after the sign and a 0x prefix. */
  size_t zpos = 0;
  if (len && strchr("+- ", core[0]))
    zpos = 1;
  if (len >= zpos + 2 && core[zpos] == '0' &&
      (core[zpos + 1] == 'x' || core[zpos + 1] == 'X'))
    zpos += 2;
  /* Where the zeros past the capped precision go: in front of the digits
   * of an integer, at the end of a float's mantissa. */
  size_t ins = zpos;
  if (!is_int) {
    const char *e = NULL;
    if (is_hex_float)
      e = memchr(core, c == 'a' ? 'p' : 'P', len);
    else if (c != 'f' && c != 'F')
      e = memchr(core, (c == 'e' || c == 'g') ? 'e' : 'E', len);
    ins = e ? (size_t)(e - core) : len;
  }
  uint64_t total = (uint64_t)len + (uint64_t)extra;
  uint64_t pad = s->width > 0 && (uint64_t)s->width > total
                     ? (uint64_t)s->width - total
                     : 0;
  /* C: '0' is ignored with '-', for an integer with a precision, and for
   * inf and nan. */
  int zero =
      has_flag(s, '0') && !s->ljust && finite && !(is_int && s->prec >= 0);
  int rc = 0;
  if (pad && !s->ljust && !zero)
    rc = bi_fill(' ', pad, sink, ud);
  if (!rc && zero) {
    rc = sink(ud, core, zpos);
    if (!rc)
      rc = bi_fill('0', pad, sink, ud);
    if (!rc)
      rc = sink(ud, core + zpos, ins - zpos);
  } else if (!rc) {
    rc = sink(ud, core, ins);
  }
  if (!rc)
    rc = bi_fill('0', (uint64_t)extra, sink, ud);
  if (!rc)
    rc = sink(ud, core + ins, len - ins);
  if (!rc && pad && s->ljust)
    rc = bi_fill(' ', pad, sink, ud);
  if (core != tmp)
    mem_free(m, core);
  return rc ? -1 : 0;
}
