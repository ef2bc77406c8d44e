/*
 * codec.c - the character sets iconv converts between, by their glibc
 * names and aliases, and their decoders and encoders.
 */
#include <string.h>
#include <strings.h>

#include "builtins/text/iconv/iconv.h"

static const struct {
  const char *name;
  iconv_cs cs;
} aliases[] = {
    {"UTF-8", ICS_UTF8},
    {"UTF8", ICS_UTF8},
    {"ISO-10646/UTF-8", ICS_UTF8},
    {"ISO-10646/UTF8", ICS_UTF8},
    {"UTF-16", ICS_UTF16},
    {"UTF16", ICS_UTF16},
    {"UTF-16LE", ICS_UTF16LE},
    {"UTF16LE", ICS_UTF16LE},
    {"UTF-16BE", ICS_UTF16BE},
    {"UTF16BE", ICS_UTF16BE},
    {"UTF-32", ICS_UTF32},
    {"UTF32", ICS_UTF32},
    {"UTF-32LE", ICS_UTF32LE},
    {"UTF32LE", ICS_UTF32LE},
    {"UTF-32BE", ICS_UTF32BE},
    {"UTF32BE", ICS_UTF32BE},
    {"UCS-2", ICS_UCS2},
    {"UCS2", ICS_UCS2},
    {"ISO-10646/UCS2", ICS_UCS2},
    {"CSUNICODE", ICS_UCS2},
    {"UCS-2LE", ICS_UCS2LE},
    {"UNICODELITTLE", ICS_UCS2LE},
    {"UCS-2BE", ICS_UCS2BE},
    {"UNICODEBIG", ICS_UCS2BE},
    {"UCS-4", ICS_UCS4},
    {"UCS4", ICS_UCS4},
    {"ISO-10646", ICS_UCS4},
    {"ISO-10646/UCS4", ICS_UCS4},
    {"10646-1:1993", ICS_UCS4},
    {"10646-1:1993/UCS4", ICS_UCS4},
    {"UCS-4LE", ICS_UCS4LE},
    {"UCS-4BE", ICS_UCS4BE},
    {"WCHAR_T", ICS_WCHAR},
    {"ISO-8859-1", ICS_LATIN1},
    {"ISO8859-1", ICS_LATIN1},
    {"ISO88591", ICS_LATIN1},
    {"ISO_8859-1", ICS_LATIN1},
    {"ISO_8859-1:1987", ICS_LATIN1},
    {"ISO-IR-100", ICS_LATIN1},
    {"LATIN1", ICS_LATIN1},
    {"L1", ICS_LATIN1},
    {"IBM819", ICS_LATIN1},
    {"CP819", ICS_LATIN1},
    {"CSISOLATIN1", ICS_LATIN1},
    {"8859_1", ICS_LATIN1},
    {"OSF00010001", ICS_LATIN1},
    {"ISO-8859-15", ICS_LATIN9},
    {"ISO8859-15", ICS_LATIN9},
    {"ISO885915", ICS_LATIN9},
    {"ISO_8859-15", ICS_LATIN9},
    {"ISO_8859-15:1998", ICS_LATIN9},
    {"ISO-IR-203", ICS_LATIN9},
    {"LATIN-9", ICS_LATIN9},
    {"LATIN9", ICS_LATIN9},
    {"CP1252", ICS_CP1252},
    {"WINDOWS-1252", ICS_CP1252},
    {"MS-ANSI", ICS_CP1252},
    {"ANSI_X3.4-1968", ICS_ASCII},
    {"ANSI_X3.4-1986", ICS_ASCII},
    {"ANSI_X3.4", ICS_ASCII},
    {"ASCII", ICS_ASCII},
    {"US-ASCII", ICS_ASCII},
    {"US", ICS_ASCII},
    {"ISO646-US", ICS_ASCII},
    {"ISO_646.IRV:1991", ICS_ASCII},
    {"ISO-IR-6", ICS_ASCII},
    {"CP367", ICS_ASCII},
    {"IBM367", ICS_ASCII},
    {"CSASCII", ICS_ASCII},
    {"OSF00010020", ICS_ASCII},
};

/* As iconv -l lists them (glibc sorts by strverscmp). */
const char *const iconv_cs_names[] = {"8859_1//",
                                      "10646-1:1993//",
                                      "10646-1:1993/UCS4/",
                                      "ANSI_X3.4-1968//",
                                      "ANSI_X3.4-1986//",
                                      "ANSI_X3.4//",
                                      "ASCII//",
                                      "CP367//",
                                      "CP819//",
                                      "CP1252//",
                                      "CSASCII//",
                                      "CSISOLATIN1//",
                                      "CSUNICODE//",
                                      "IBM367//",
                                      "IBM819//",
                                      "ISO-8859-1//",
                                      "ISO-8859-15//",
                                      "ISO-10646//",
                                      "ISO-10646/UCS2/",
                                      "ISO-10646/UCS4/",
                                      "ISO-10646/UTF-8/",
                                      "ISO-10646/UTF8/",
                                      "ISO-IR-6//",
                                      "ISO-IR-100//",
                                      "ISO-IR-203//",
                                      "ISO646-US//",
                                      "ISO8859-1//",
                                      "ISO8859-15//",
                                      "ISO88591//",
                                      "ISO885915//",
                                      "ISO_646.IRV:1991//",
                                      "ISO_8859-1//",
                                      "ISO_8859-1:1987//",
                                      "ISO_8859-15//",
                                      "ISO_8859-15:1998//",
                                      "L1//",
                                      "LATIN-9//",
                                      "LATIN1//",
                                      "LATIN9//",
                                      "MS-ANSI//",
                                      "OSF00010001//",
                                      "OSF00010020//",
                                      "UCS-2//",
                                      "UCS-2BE//",
                                      "UCS-2LE//",
                                      "UCS-4//",
                                      "UCS-4BE//",
                                      "UCS-4LE//",
                                      "UCS2//",
                                      "UCS4//",
                                      "UNICODEBIG//",
                                      "UNICODELITTLE//",
                                      "US-ASCII//",
                                      "US//",
                                      "UTF-8//",
                                      "UTF-16//",
                                      "UTF-16BE//",
                                      "UTF-16LE//",
                                      "UTF-32//",
                                      "UTF-32BE//",
                                      "UTF-32LE//",
                                      "UTF8//",
                                      "UTF16//",
                                      "UTF16BE//",
                                      "UTF16LE//",
                                      "UTF32//",
                                      "UTF32BE//",
                                      "UTF32LE//",
                                      "WCHAR_T//",
                                      "WINDOWS-1252//",
                                      NULL};

int iconv_cs_lookup(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
    if (strlen(aliases[i].name) == len &&
        strncasecmp(aliases[i].name, name, len) == 0)
      return (int)aliases[i].cs;
  return -1;
}

/* Code points of 0x80..0x9F in Windows-1252 (0: no character). */
static const uint16_t cp1252_hi[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

/* Where ISO-8859-15 differs from ISO-8859-1. */
static const struct {
  unsigned char byte;
  uint16_t cp;
} latin9[8] = {{0xA4, 0x20AC}, {0xA6, 0x0160}, {0xA8, 0x0161}, {0xB4, 0x017D},
               {0xB8, 0x017E}, {0xBC, 0x0152}, {0xBD, 0x0153}, {0xBE, 0x0178}};

static uint32_t get16(const unsigned char *p, int big) {
  return big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static uint32_t get32(const unsigned char *p, int big) {
  if (big)
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 |
         p[0];
}

/* As glibc reads UTF-8: a lead byte C2..F7 and its continuation bytes; a
 * sequence cut short by the end of the input is incomplete when the bytes
 * there are right so far. An illegal sequence is skipped up to its first
 * wrong byte (*len). */
static int dec_utf8(const unsigned char *p, size_t n, uint32_t *cp,
                    size_t *len) {
  unsigned char b = p[0];
  *len = 1;
  if (b < 0x80) {
    *cp = b;
    return ICONV_OK;
  }
  size_t need;
  uint32_t v, min;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 2, v = b & 0x1F, min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 3, v = b & 0x0F, min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF7) {
    need = 4, v = b & 0x07, min = 0x10000;
  } else {
    return ICONV_ILLEGAL;
  }
  size_t i = 1;
  for (; i < need && i < n; i++) {
    if ((p[i] & 0xC0) != 0x80) {
      *len = i;
      return ICONV_ILLEGAL;
    }
    v = v << 6 | (p[i] & 0x3F);
  }
  if (i < need)
    return ICONV_INCOMPLETE;
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v < 0xE000)) {
    *len = need;
    return ICONV_ILLEGAL;
  }
  *cp = v;
  *len = need;
  return ICONV_OK;
}

int iconv_decode(iconv_dec *d, const unsigned char *p, size_t n, uint32_t *cp,
                 size_t *len) {
  switch (d->cs) {
  case ICS_UTF8:
    return dec_utf8(p, n, cp, len);
  case ICS_LATIN1:
    *cp = p[0], *len = 1;
    return ICONV_OK;
  case ICS_LATIN9:
    *cp = p[0], *len = 1;
    for (int i = 0; i < 8; i++)
      if (latin9[i].byte == p[0])
        *cp = latin9[i].cp;
    return ICONV_OK;
  case ICS_CP1252:
    *cp = p[0], *len = 1;
    if (p[0] >= 0x80 && p[0] < 0xA0) {
      *cp = cp1252_hi[p[0] - 0x80];
      if (!*cp)
        return ICONV_ILLEGAL;
    }
    return ICONV_OK;
  case ICS_ASCII:
    *cp = p[0], *len = 1;
    return p[0] < 0x80 ? ICONV_OK : ICONV_ILLEGAL;
  case ICS_UTF16:
  case ICS_UTF16LE:
  case ICS_UTF16BE:
  case ICS_UCS2:
  case ICS_UCS2LE:
  case ICS_UCS2BE: {
    int big = d->cs == ICS_UTF16BE || d->cs == ICS_UCS2BE;
    if (n < 2)
      return ICONV_INCOMPLETE;
    if (d->cs == ICS_UTF16) {
      if (!d->started) {
        d->started = 1;
        if ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)) {
          d->big = p[0] == 0xFE;
          *cp = UINT32_MAX, *len = 2;
          return ICONV_OK;
        }
      }
      big = d->big;
    }
    uint32_t u = get16(p, big);
    *len = 2;
    if (u < 0xD800 || u >= 0xE000) {
      *cp = u;
      return ICONV_OK;
    }
    if (d->cs == ICS_UCS2 || d->cs == ICS_UCS2LE || d->cs == ICS_UCS2BE ||
        u >= 0xDC00)
      return ICONV_ILLEGAL;
    if (n < 4)
      return ICONV_INCOMPLETE;
    uint32_t lo = get16(p + 2, big);
    if (lo < 0xDC00 || lo >= 0xE000)
      return ICONV_ILLEGAL;
    *cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
    *len = 4;
    return ICONV_OK;
  }
  default: { /* the 32-bit sets */
    int big = d->cs == ICS_UTF32BE || d->cs == ICS_UCS4 || d->cs == ICS_UCS4BE;
    if (n < 4)
      return ICONV_INCOMPLETE;
    *len = 4;
    if (d->cs == ICS_UTF32) {
      if (!d->started) {
        d->started = 1;
        if (get32(p, 0) == 0xFEFF || get32(p, 1) == 0xFEFF) {
          d->big = get32(p, 1) == 0xFEFF;
          *cp = UINT32_MAX;
          return ICONV_OK;
        }
      }
      big = d->big;
    }
    uint32_t v = get32(p, big);
    if (d->cs == ICS_UCS4 || d->cs == ICS_UCS4LE || d->cs == ICS_UCS4BE ||
        d->cs == ICS_WCHAR) {
      /* glibc's UCS-4 holds any 31-bit value */
      if (v > 0x7FFFFFFF)
        return ICONV_ILLEGAL;
    } else if (v > 0x10FFFF || (v >= 0xD800 && v < 0xE000)) {
      return ICONV_ILLEGAL;
    }
    *cp = v;
    return ICONV_OK;
  }
  }
}

static size_t put16(unsigned char *o, uint32_t u, int big) {
  o[big ? 0 : 1] = (unsigned char)(u >> 8);
  o[big ? 1 : 0] = (unsigned char)u;
  return 2;
}

static size_t put32(unsigned char *o, uint32_t v, int big) {
  for (int i = 0; i < 4; i++)
    o[big ? 3 - i : i] = (unsigned char)(v >> (8 * i));
  return 4;
}

size_t iconv_encode(iconv_cs cs, uint32_t cp, unsigned char *o) {
  switch (cs) {
  case ICS_UTF8:
    if (cp >= 0xD800 && cp < 0xE000)
      return 0;
    if (cp > 0x10FFFF) { /* the old 5- and 6-byte forms reach 31 bits */
      size_t len = cp < 0x200000 ? 4 : cp < 0x4000000 ? 5 : 6;
      static const unsigned char lead[] = {0, 0, 0, 0, 0xF0, 0xF8, 0xFC};
      for (size_t i = len - 1; i > 0; i--, cp >>= 6)
        o[i] = (unsigned char)(0x80 | (cp & 0x3F));
      o[0] = (unsigned char)(lead[len] | cp);
      return len;
    }
    if (cp < 0x80) {
      o[0] = (unsigned char)cp;
      return 1;
    }
    if (cp < 0x800) {
      o[0] = (unsigned char)(0xC0 | cp >> 6);
      o[1] = (unsigned char)(0x80 | (cp & 0x3F));
      return 2;
    }
    if (cp < 0x10000) {
      o[0] = (unsigned char)(0xE0 | cp >> 12);
      o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
      o[2] = (unsigned char)(0x80 | (cp & 0x3F));
      return 3;
    }
    o[0] = (unsigned char)(0xF0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
  case ICS_LATIN1:
    if (cp > 0xFF)
      return 0;
    o[0] = (unsigned char)cp;
    return 1;
  case ICS_LATIN9:
    for (int i = 0; i < 8; i++) {
      if (latin9[i].cp == cp) {
        o[0] = latin9[i].byte;
        return 1;
      }
      if (latin9[i].byte == cp)
        return 0;
    }
    return iconv_encode(ICS_LATIN1, cp, o);
  case ICS_CP1252:
    if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) {
      o[0] = (unsigned char)cp;
      return 1;
    }
    for (int i = 0; i < 32; i++)
      if (cp1252_hi[i] && cp1252_hi[i] == cp) {
        o[0] = (unsigned char)(0x80 + i);
        return 1;
      }
    return 0;
  case ICS_ASCII:
    if (cp >= 0x80)
      return 0;
    o[0] = (unsigned char)cp;
    return 1;
  case ICS_UCS2:
  case ICS_UCS2LE:
  case ICS_UCS2BE:
    if (cp > 0xFFFF || (cp >= 0xD800 && cp < 0xE000))
      return 0;
    return put16(o, cp, cs == ICS_UCS2BE);
  case ICS_UTF16:
  case ICS_UTF16LE:
  case ICS_UTF16BE: {
    int big = cs == ICS_UTF16BE;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
      return 0;
    if (cp < 0x10000)
      return put16(o, cp, big);
    cp -= 0x10000;
    put16(o, 0xD800 + (cp >> 10), big);
    put16(o + 2, 0xDC00 + (cp & 0x3FF), big);
    return 4;
  }
  default:
    if ((cs == ICS_UTF32 || cs == ICS_UTF32LE || cs == ICS_UTF32BE) &&
        (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)))
      return 0;
    return put32(o, cp,
                 cs == ICS_UTF32BE || cs == ICS_UCS4 || cs == ICS_UCS4BE);
  }
}

size_t iconv_bom(iconv_cs cs, unsigned char *out) {
  if (cs == ICS_UTF16)
    return put16(out, 0xFEFF, 0);
  if (cs == ICS_UTF32)
    return put32(out, 0xFEFF, 0);
  return 0;
}
