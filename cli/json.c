/*
 * json.c - JSON string output for --json.
 *
 * Script output is arbitrary bytes and JSON strings are Unicode text, so a
 * choice is needed. Well-formed UTF-8 passes through unchanged (only `"`,
 * `\` and control characters are escaped); every byte that is not part of a
 * well-formed UTF-8 sequence (stray continuation bytes, truncated or
 * overlong sequences, surrogates, values above U+10FFFF) becomes U+FFFD,
 * written as the escape \ufffd. The result is always valid JSON and valid
 * UTF-8, and the replacement is visible, never silent. Binary-exact output
 * needs the normal (non-JSON) mode.
 */
#include <stdint.h>

#include "cli.h"

/* Length of the well-formed UTF-8 sequence at s (n bytes left), 0 if
 * there is none (RFC 3629 table 3-7). */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80)
    return 1;
  size_t len;
  unsigned lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c == 0xE0)
    len = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC)
    len = 3;
  else if (c == 0xED)
    len = 3, hi = 0x9F; /* no surrogates */
  else if (c >= 0xEE && c <= 0xEF)
    len = 3;
  else if (c == 0xF0)
    len = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3)
    len = 4;
  else if (c == 0xF4)
    len = 4, hi = 0x8F; /* nothing above U+10FFFF */
  else
    return 0;
  if (n < len || s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 2; i < len; i++)
    if (s[i] < 0x80 || s[i] > 0xBF)
      return 0;
  return len;
}

void cli_json_string(FILE *f, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', f);
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i];
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc((int)c, f);
      i++;
    } else if (c < 0x20 || c == 0x7f) {
      switch (c) {
      case '\n':
        fputs("\\n", f);
        break;
      case '\t':
        fputs("\\t", f);
        break;
      case '\r':
        fputs("\\r", f);
        break;
      case '\b':
        fputs("\\b", f);
        break;
      case '\f':
        fputs("\\f", f);
        break;
      default:
        fprintf(f, "\\u%04x", c);
      }
      i++;
    } else {
      size_t len = utf8_seq(s + i, n - i);
      if (len == 0) {
        fputs("\\ufffd", f);
        i++;
      } else {
        fwrite(s + i, 1, len, f);
        i += len;
      }
    }
  }
  fputc('"', f);
}
