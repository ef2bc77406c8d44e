/*
 * iconv.h - the character sets of the iconv builtin (codec.c) and its
 * transliteration (translit.c).
 *
 * The codecs are written here rather than taken from the host's
 * iconv_open(): glibc may load gconv modules from host files when a
 * conversion starts, which a sandbox inside the caller's process must not
 * do. Every set goes through Unicode code points.
 */
#ifndef VSH_BUILTINS_TEXT_ICONV_H
#define VSH_BUILTINS_TEXT_ICONV_H

#include <stddef.h>
#include <stdint.h>

typedef enum iconv_cs {
  ICS_UTF8,
  ICS_UTF16, /* BOM read (little-endian without one); BOM written, LE */
  ICS_UTF16LE,
  ICS_UTF16BE,
  ICS_UTF32, /* the same in 32-bit units */
  ICS_UTF32LE,
  ICS_UTF32BE,
  ICS_UCS2, /* the machine's order (little-endian), no BOM */
  ICS_UCS2LE,
  ICS_UCS2BE,
  ICS_UCS4, /* big-endian, as glibc has it */
  ICS_UCS4LE,
  ICS_UCS4BE,
  ICS_WCHAR, /* glibc's internal form: UCS-4 in the machine's order */
  ICS_LATIN1,
  ICS_LATIN9,
  ICS_CP1252,
  ICS_ASCII
} iconv_cs;

/* The set a name (any case, without //suffixes) stands for: its id, or -1
 * when it is not one of ours. */
int iconv_cs_lookup(const char *name, size_t len);

/* The names -l prints, in glibc's order, NULL-terminated. */
extern const char *const iconv_cs_names[];

/* Decoding state of one input: the byte order of UTF-16/UTF-32 is settled
 * by a BOM at the start. */
typedef struct iconv_dec {
  iconv_cs cs;
  int started, big;
} iconv_dec;

enum { ICONV_OK = 0, ICONV_ILLEGAL = -1, ICONV_INCOMPLETE = -2 };

/* Decode one character from p[0..n) (n > 0): ICONV_OK with *cp and *len
 * (a BOM consumed at the start gives *cp = UINT32_MAX), ICONV_ILLEGAL with
 * *len the bytes to skip, or ICONV_INCOMPLETE. */
int iconv_decode(iconv_dec *d, const unsigned char *p, size_t n, uint32_t *cp,
                 size_t *len);

/* Encode cp into out (at most 4 bytes): its length, or 0 when the set
 * has no such character. */
size_t iconv_encode(iconv_cs cs, uint32_t cp, unsigned char *out);

/* The BOM the set writes before its first character (UTF-16, UTF-32), as
 * a length into out; 0 for the others. */
size_t iconv_bom(iconv_cs cs, unsigned char *out);

/* What //TRANSLIT puts for cp in the C locale (utf8 = 0) or a UTF-8 one,
 * writing to the set `to`: an ASCII string (maybe empty) in which the byte
 * 0x80 and the three after it stand for a code point to, has; or NULL when
 * there is nothing (iconv then writes '?'). */
const char *iconv_translit(uint32_t cp, int utf8, iconv_cs to, char tmp[64]);

#endif
