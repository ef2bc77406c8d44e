/* utf8.c - UTF-8 characters for the shell and the commands (see utf8.h). */
#include "core/utf8.h"

#include <string.h>
#include <strings.h>
#include <utf8proc.h>

size_t u8_next(const char *s, size_t n, int32_t *cp) {
  if (n == 0) {
    *cp = -1;
    return 0;
  }
  unsigned char c = (unsigned char)s[0];
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  utf8proc_int32_t v;
  utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s,
                                        n > 4 ? 4 : (utf8proc_ssize_t)n, &v);
  if (k <= 0) {
    *cp = -1;
    return 1;
  }
  *cp = v;
  return (size_t)k;
}

size_t u8_count(const char *s, size_t n) {
  size_t k = 0;
  int32_t cp;
  for (size_t i = 0; i < n; k++) {
    /* ASCII runs are the common case: no decoding needed */
    if ((unsigned char)s[i] < 0x80)
      i++;
    else
      i += u8_next(s + i, n - i, &cp);
  }
  return k;
}

size_t u8_offset(const char *s, size_t n, size_t ci) {
  size_t i = 0;
  int32_t cp;
  for (size_t k = 0; k < ci && i < n; k++)
    i += (unsigned char)s[i] < 0x80 ? 1 : u8_next(s + i, n - i, &cp);
  return i;
}

int u8_valid(const char *s, size_t n) {
  int32_t cp;
  for (size_t i = 0; i < n;) {
    if ((unsigned char)s[i] < 0x80) {
      i++;
      continue;
    }
    i += u8_next(s + i, n - i, &cp);
    if (cp < 0)
      return 0;
  }
  return 1;
}

int u8_width(int32_t cp) {
  if (cp < 0 || cp > 0x10FFFF)
    return -1;
  if (cp < 0x80)
    return cp >= 0x20 && cp < 0x7f ? 1 : -1;
  const utf8proc_property_t *pr = utf8proc_get_property(cp);
  utf8proc_category_t k = (utf8proc_category_t)pr->category;
  if (k == UTF8PROC_CATEGORY_CC || k == UTF8PROC_CATEGORY_CS ||
      k == UTF8PROC_CATEGORY_CN)
    return -1;
  /* Where glibc's wcwidth, which the GNU tools use, departs from
   * utf8proc's: spacing marks take a column, the medial vowels and final
   * consonants of conjoining Hangul none (they join the syllable's leading
   * consonant), and the prepended concatenation marks (Arabic number sign
   * and the like) one. */
  if (k == UTF8PROC_CATEGORY_MC)
    return 1;
  if (pr->boundclass == UTF8PROC_BOUNDCLASS_V ||
      pr->boundclass == UTF8PROC_BOUNDCLASS_T)
    return 0;
  if (k == UTF8PROC_CATEGORY_CF &&
      pr->boundclass == UTF8PROC_BOUNDCLASS_PREPEND)
    return 1;
  return utf8proc_charwidth(cp);
}

int32_t u8_toupper(int32_t cp) {
  if (cp < 0x80)
    return cp >= 'a' && cp <= 'z' ? cp - 32 : cp;
  /* utf8proc gives the sharp s the capital U+1E9E; glibc, which bash and
   * the GNU tools use, leaves it (its upper case is "SS", two letters).
   * This is the only code point where the two tables differ. */
  if (cp == 0xDF)
    return cp;
  return cp <= 0x10FFFF ? utf8proc_toupper(cp) : cp;
}

int32_t u8_tolower(int32_t cp) {
  if (cp < 0x80)
    return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
  return cp <= 0x10FFFF ? utf8proc_tolower(cp) : cp;
}

size_t u8_encode(int32_t cp, char *out) {
  if (cp < 0 || cp > 0x10FFFF)
    return 0;
  return (size_t)utf8proc_encode_char(cp, (utf8proc_uint8_t *)out);
}

/* Does v look like the name of a locale a system has: C, POSIX, C.UTF-8,
 * or language[_TERRITORY][.codeset][@modifier] with a two or three letter
 * language? Names that cannot be one ("invalid") make setlocale fail,
 * leaving the locale of the variables behind them in effect. */
static int locale_plausible(const char *v) {
  if (strcmp(v, "C") == 0 || strcmp(v, "POSIX") == 0)
    return 1;
  const char *p = v;
  if (p[0] == 'C' && p[1] == '.')
    return 1;
  size_t n = 0;
  while (p[n] >= 'a' && p[n] <= 'z')
    n++;
  if (n < 2 || n > 3)
    return 0;
  p += n;
  if (*p == '_') {
    if (!(p[1] >= 'A' && p[1] <= 'Z' && p[2] >= 'A' && p[2] <= 'Z'))
      return 0;
    p += 3;
  }
  if (*p == '.') {
    p++;
    if (!*p || *p == '@')
      return 0;
    while (*p && *p != '@')
      p++;
  }
  if (*p == '@')
    p++;
  else if (*p)
    return 0;
  return 1;
}

int u8_locale_name(const char *v) {
  if (!v || !*v || !locale_plausible(v))
    return -1;
  const char *dot = strchr(v, '.');
  if (!dot)
    return 0;
  const char *cs = dot + 1;
  size_t len = 0;
  while (cs[len] && cs[len] != '@')
    len++;
  return (len == 5 && strncasecmp(cs, "utf-8", 5) == 0) ||
         (len == 4 && strncasecmp(cs, "utf8", 4) == 0);
}
