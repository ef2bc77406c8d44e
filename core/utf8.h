/*
 * utf8.h - characters of a UTF-8 locale, shared by the shell and the
 * commands: decoding with utf8proc, counting and indexing characters, display
 * width, and whether a locale name is a UTF-8 one.
 *
 * The shell and GNU tools read a byte that does not start a valid sequence
 * (a stray continuation byte, a truncated or overlong sequence, a surrogate)
 * as one character of its own; these helpers do the same, so every caller
 * agrees on where characters start.
 */
#ifndef VSH_CORE_UTF8_H
#define VSH_CORE_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Length in bytes of the character at s (n > 0 bytes left): the length of a
 * valid UTF-8 sequence, else 1. *cp gets the code point, or -1 for an
 * invalid byte. Returns 0 when n is 0. */
size_t u8_next(const char *s, size_t n, int32_t *cp);

/* Number of characters in s[0, n). */
size_t u8_count(const char *s, size_t n);

/* Byte offset of the character with index ci (0-based) in s[0, n); n when
 * s has ci characters or fewer. */
size_t u8_offset(const char *s, size_t n, size_t ci);

/* Whether s[0, n) is entirely valid UTF-8. */
int u8_valid(const char *s, size_t n);

/* Columns the code point takes on a terminal: 0 for combining marks and
 * other zero-width characters, 2 for wide (East Asian) ones, 1 otherwise;
 * -1 when it is not printable (controls, unassigned, invalid). */
int u8_width(int32_t cp);

/* Upper and lower case of a code point (unchanged when it has none). */
int32_t u8_toupper(int32_t cp);
int32_t u8_tolower(int32_t cp);

/* Encodes a code point of the Unicode range into out (4 bytes at most);
 * returns the length, 0 when cp is outside it. */
size_t u8_encode(int32_t cp, char *out);

/* What the value of a locale variable (LC_ALL, LC_CTYPE, LANG) selects,
 * the way bash and glibc read it: 1 a UTF-8 locale (its codeset, after a
 * '.', is "UTF-8" or "utf8" in any case: "C.UTF-8", "en_US.utf8",
 * "de_DE.UTF-8@euro"), 0 another one (C, POSIX, "en_US", "fr_FR.ISO-8859-1"),
 * -1 none: NULL, "", or a name no system could have ("invalid"), which
 * setlocale refuses, so the next variable in line decides. */
int u8_locale_name(const char *v);

#endif
