/*
 * pattern.h - shell pattern matching (case, [[ == ]], ${x#pat}, globbing):
 * * ? [...] with classes ([:alpha:] ...), negation [!..] [^..], ranges,
 * backslash escapes, and with extglob @(a|b) *(..) +(..) ?(..) !(..).
 * Patterns are byte strings in which characters that came from quotes are
 * marked literal: the expander escapes them with a backslash so quoting
 * survives (a quoted '*' matches only '*').
 *
 * Matching works on UTF-8 characters (a '?' matches one character), an
 * invalid byte standing for itself, or on bytes with PAT_BYTES.
 */
#ifndef VSH_CORE_PATTERN_H
#define VSH_CORE_PATTERN_H

#include <stddef.h>

#include "core/arena.h"

enum {
  PAT_EXTGLOB = 1u << 0,
  PAT_NOCASE = 1u << 1,
  PAT_PERIOD = 1u << 2,   /* a leading '.' must be matched explicitly (glob) */
  PAT_PATHNAME = 1u << 3, /* '*' and '?' do not match '/' (glob) */
  PAT_BYTES = 1u << 4     /* characters are bytes (the C locale) */
};

/* flags, plus PAT_BYTES when the pattern or the subject is not valid UTF-8:
 * bash then matches that pair byte by byte, so "h\xff\xc3\xa9" (h, an
 * invalid byte, e-acute) is matched by 'h???' and not by 'h??', although
 * ${#x} counts three characters. Callers matching one subject many times
 * ask once. */
unsigned pat_charset(const char *pat, size_t plen, const char *s, size_t slen,
                     unsigned flags);

/* In pattern text, the byte '\\' followed by any byte means that byte
 * literally (this is how quoted parts are passed: the expander escapes
 * them). */

/* Whole-string match: 1 match, 0 no match. */
int pat_match(const char *pat, size_t plen, const char *s, size_t slen,
              unsigned flags);
/* Does the pattern contain any unescaped special character? (If not, the
 * expander can compare strings or skip globbing.) */
int pat_has_magic(const char *pat, size_t plen, unsigned flags);
/* Remove the escaping backslashes (for a pattern used as literal text). */
size_t pat_unescape(char *pat, size_t plen);

/* Longest/shortest prefix or suffix of s matching pat, for ${x#p} etc.:
 * returns the length matched, or -1 when none. */
long pat_prefix(const char *pat, size_t plen, const char *s, size_t slen,
                int longest, unsigned flags);
long pat_suffix(const char *pat, size_t plen, const char *s, size_t slen,
                int longest, unsigned flags);
/* First match of pat in s at or after from (for ${x/p/r}): returns the start
 * and *mlen, or -1. Prefers the longest match at the earliest start. */
long pat_find(const char *pat, size_t plen, const char *s, size_t slen,
              size_t from, size_t *mlen, unsigned flags);

#endif
