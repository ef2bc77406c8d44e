/*
 * translit.c - what iconv's //TRANSLIT writes for a character the target
 * set lacks, as glibc 2.36 does in the C locale and in a UTF-8 one.
 *
 * The tables (translit.inc) are recorded from glibc's iconv. In a UTF-8
 * locale a character outside the table of exceptions is replaced by its
 * canonical decomposition without the combining marks (é -> e), which
 * utf8proc computes.
 */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "builtins/text/iconv/iconv.h"

typedef struct iconv_tr {
  uint32_t cp;
  const char *to;
} iconv_tr;

typedef struct iconv_tr_alt {
  uint32_t cp;
  iconv_cs cs;
  const char *to;
} iconv_tr_alt;

#include "builtins/text/iconv/translit.inc"

static int cmp_tr(const void *k, const void *e) {
  uint32_t a = *(const uint32_t *)k, b = ((const iconv_tr *)e)->cp;
  return a < b ? -1 : a > b;
}

static const iconv_tr *find(const iconv_tr *t, size_t n, uint32_t cp) {
  return bsearch(&cp, t, n, sizeof *t, cmp_tr);
}

#define NC (sizeof tr_c / sizeof *tr_c)
#define NU (sizeof tr_u / sizeof *tr_u)

/* A piece of a decomposition: the exceptions, then the C table. 1 with
 * *to set (maybe NULL), 0 when neither has it. */
static const char *piece(uint32_t cp, int *found) {
  const iconv_tr *e = find(tr_u, NU, cp);
  if (!e)
    e = find(tr_c, NC, cp);
  *found = e && e->to;
  return e ? e->to : NULL;
}

/* The decomposition rule: NULL when it does not apply. A piece the target
 * set has is kept as it is (U+01E3 is U+00E6 in ISO-8859-1 and "ae" in
 * ASCII): it goes into tmp as the byte 0x80 followed by its three bytes. */
static const char *decomposed(uint32_t cp, iconv_cs to, char tmp[64]) {
  utf8proc_int32_t d[32];
  int last = 0;
  utf8proc_ssize_t n = utf8proc_decompose_char((utf8proc_int32_t)cp, d, 32,
                                               UTF8PROC_DECOMPOSE, &last);
  if (n <= 0 || n > 32 || (n == 1 && (uint32_t)d[0] == cp))
    return NULL;
  size_t len = 0;
  for (utf8proc_ssize_t i = 0; i < n; i++) {
    utf8proc_category_t k = utf8proc_category(d[i]);
    if (k == UTF8PROC_CATEGORY_MN || k == UTF8PROC_CATEGORY_MC ||
        k == UTF8PROC_CATEGORY_ME)
      continue;
    if (d[i] < 0x80) {
      if (len + 1 >= 64)
        return NULL;
      tmp[len++] = (char)d[i];
      continue;
    }
    unsigned char o[8];
    if (iconv_encode(to, (uint32_t)d[i], o)) {
      if (len + 4 >= 64)
        return NULL;
      tmp[len++] = (char)0x80;
      tmp[len++] = (char)(d[i] >> 16);
      tmp[len++] = (char)(d[i] >> 8);
      tmp[len++] = (char)d[i];
      continue;
    }
    int found;
    const char *s = piece((uint32_t)d[i], &found);
    if (!found)
      return NULL;
    size_t sl = strlen(s);
    if (len + sl >= 64)
      return NULL;
    memcpy(tmp + len, s, sl);
    len += sl;
  }
  if (!len)
    return NULL;
  tmp[len] = 0;
  return tmp;
}

const char *iconv_translit(uint32_t cp, int utf8, iconv_cs to, char tmp[64]) {
  const iconv_tr *e;
  if (utf8) {
    /* tr_x is short: its entries are sorted by code point */
    for (size_t i = 0; i < sizeof tr_x / sizeof *tr_x && tr_x[i].cp <= cp; i++)
      if (tr_x[i].cp == cp && tr_x[i].cs == to)
        return tr_x[i].to;
    if ((e = find(tr_u, NU, cp)))
      return e->to;
    const char *s = decomposed(cp, to, tmp);
    if (s)
      return s;
  }
  e = find(tr_c, NC, cp);
  return e ? e->to : NULL;
}
