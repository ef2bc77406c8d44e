/*
 * magic.c - the binary formats file knows by their first bytes: images
 * (PNG, GIF, JPEG), documents (PDF), compressed data (gzip, bzip2, xz),
 * archives (zip, tar) and ELF (elf.c), described as file 5.44's magic
 * database words them.
 */
#include <string.h>
#include <time.h>

#include "builtins/files/file/file.h"

static unsigned be16(const unsigned char *p) {
  return (unsigned)p[0] << 8 | p[1];
}
static unsigned le16(const unsigned char *p) {
  return (unsigned)p[1] << 8 | p[0];
}
static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}
static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 |
         p[0];
}

static int png(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 16 || memcmp(p, "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16) != 0)
    return 0;
  k->mime = "image/png";
  buf_puts(k->d, "PNG image data");
  if (n < 29)
    return 1;
  buf_printf(k->d, ", %u x %u", (unsigned)be32(p + 16), (unsigned)be32(p + 20));
  unsigned bits = p[24], type = p[25];
  static const char *const types[] = {
      "-bit grayscale",  NULL, "-bit/color RGB", "-bit colormap",
      "-bit gray+alpha", NULL, "-bit/color RGBA"};
  if (type < 7 && types[type])
    buf_printf(k->d, ", %u%s", bits, types[type]);
  buf_puts(k->d, p[28] ? ", interlaced" : ", non-interlaced");
  return 1;
}

static int gif(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 4 || memcmp(p, "GIF8", 4) != 0)
    return 0;
  k->mime = "image/gif";
  buf_puts(k->d, "GIF image data");
  if (n >= 6 && (p[4] == '7' || p[4] == '9') && p[5] == 'a')
    buf_printf(k->d, ", version 8%ca,", p[4]);
  /* each size only when it is not 0, as the magic entries have it */
  if (n >= 8 && le16(p + 6))
    buf_printf(k->d, " %u x", le16(p + 6));
  if (n >= 10 && le16(p + 8))
    buf_printf(k->d, " %u", le16(p + 8));
  return 1;
}

static int jpeg(bi_ctx *c, const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 3 || p[0] != 0xFF || p[1] != 0xD8 || p[2] != 0xFF)
    return 0;
  k->mime = "image/jpeg";
  buf_puts(k->d, "JPEG image data");
  size_t i = 2;
  while (i + 4 <= n) {
    if (budget_poll(c->bud))
      break;
    if (p[i] != 0xFF)
      break;
    unsigned m = p[i + 1];
    if (m == 0xFF) {
      i++;
      continue;
    }
    if (m == 0xD9 || m == 0xDA)
      break;
    unsigned len = be16(p + i + 2);
    if (len < 2)
      break;
    const unsigned char *s = p + i + 4;
    size_t avail = n - (i + 4);
    if (m == 0xE0 && len >= 16 && avail >= 12 && memcmp(s, "JFIF\0", 5) == 0) {
      buf_printf(k->d, ", JFIF standard %u.%02u", s[5], s[6]);
      static const char *const units[] = {"aspect ratio", "resolution (DPI)",
                                          "resolution (DPCM)"};
      if (s[7] < 3)
        buf_printf(k->d, ", %s", units[s[7]]);
      buf_printf(k->d, ", density %ux%u", be16(s + 8), be16(s + 10));
      buf_printf(k->d, ", segment length %u", len);
      if (avail >= 14 && (s[12] || s[13]))
        buf_printf(k->d, ", thumbnail %ux%u", s[12], s[13]);
    } else if ((m >= 0xC0 && m <= 0xC3) && avail >= 6) {
      static const char *const kinds[] = {"baseline", "extended sequential",
                                          "progressive", "lossless"};
      buf_printf(k->d, ", %s, precision %u, %ux%u, components %u",
                 kinds[m - 0xC0], s[0], be16(s + 3), be16(s + 1), s[5]);
      break;
    }
    i += 2 + len;
  }
  return 1;
}

static int pdf(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 5 || memcmp(p, "%PDF-", 5) != 0)
    return 0;
  k->mime = "application/pdf";
  buf_puts(k->d, "PDF document");
  size_t i = 5;
  while (i < n && i < 16 && (p[i] == '.' || (p[i] >= '0' && p[i] <= '9')))
    i++;
  if (i > 5) {
    buf_puts(k->d, ", version ");
    buf_append(k->d, (const char *)p + 5, i - 5);
  }
  return 1;
}

static int gzip(bi_ctx *c, const unsigned char *p, size_t n, fl_kind *k) {
  (void)c;
  if (n < 10 || p[0] != 0x1F || p[1] != 0x8B)
    return 0;
  k->mime = "application/gzip";
  buf_puts(k->d, "gzip compressed data");
  unsigned fl = p[3];
  if (p[2] != 8) {
    buf_puts(k->d, ", reserved method");
    return 1;
  }
  if (fl & 1)
    buf_puts(k->d, ", ASCII");
  if (fl & 2)
    buf_puts(k->d, ", has CRC");
  if (fl & 4)
    buf_puts(k->d, ", extra field");
  if ((fl & 0x0C) == 0x08) {
    size_t e = 10;
    while (e < n && e < 10 + 256 && p[e])
      e++;
    buf_puts(k->d, ", was \"");
    buf_append(k->d, (const char *)p + 10, e - 10);
    buf_puts(k->d, "\"");
  }
  if (fl & 0x10)
    buf_puts(k->d, ", has comment");
  if (fl & 0x20)
    buf_puts(k->d, ", encrypted");
  uint32_t mt = le32(p + 4);
  if (mt) {
    time_t t = (time_t)mt;
    struct tm tm;
    char s[64];
    gmtime_r(&t, &tm);
    strftime(s, sizeof s, "%a %b %e %H:%M:%S %Y", &tm);
    buf_printf(k->d, ", last modified: %s", s);
  }
  if (p[8] == 2)
    buf_puts(k->d, ", max compression");
  else if (p[8] == 4)
    buf_puts(k->d, ", max speed");
  static const char *const os[] = {"FAT filesystem (MS-DOS, OS/2, NT)",
                                   "Amiga",
                                   "VMS",
                                   "Unix",
                                   "VM/CMS",
                                   "Atari",
                                   "HPFS filesystem (OS/2, NT)",
                                   "MacOS",
                                   "Z-System",
                                   "CP/M",
                                   "TOPS-20",
                                   "NTFS filesystem (NT)",
                                   "QDOS",
                                   "Acorn RISCOS"};
  if (p[9] < sizeof os / sizeof *os)
    buf_printf(k->d, ", from %s", os[p[9]]);
  if (n >= 18)
    buf_printf(k->d, ", original size modulo 2^32 %u",
               (unsigned)le32(p + n - 4));
  return 1;
}

static int bzip2(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 4 || memcmp(p, "BZh", 3) != 0 || p[3] < '1' || p[3] > '9')
    return 0;
  k->mime = "application/x-bzip2";
  buf_printf(k->d, "bzip2 compressed data, block size = %c00k", p[3]);
  return 1;
}

static int xz(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 8 || memcmp(p,
                      "\xFD"
                      "7zXZ\0",
                      6) != 0)
    return 0;
  k->mime = "application/x-xz";
  buf_puts(k->d, "XZ compressed data");
  switch (p[7] & 0x0F) {
  case 0:
    buf_puts(k->d, ", checksum NONE");
    break;
  case 1:
    buf_puts(k->d, ", checksum CRC32");
    break;
  case 4:
    buf_puts(k->d, ", checksum CRC64");
    break;
  case 10:
    buf_puts(k->d, ", checksum SHA-256");
    break;
  }
  return 1;
}

static int zip(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 4 || memcmp(p, "PK\3\4", 4) != 0)
    return 0;
  k->mime = "application/zip";
  buf_puts(k->d, "Zip archive data");
  if (n < 10)
    return 1;
  unsigned v = le16(p + 4) & 0xFF;
  buf_printf(k->d, ", at least v%u.%u to extract", v / 10, v % 10);
  static const struct {
    unsigned id;
    const char *name;
  } methods[] = {{0, "store"}, {8, "deflate"}, {9, "deflate64"}, {12, "bzip2"},
                 {14, "lzma"}, {93, "zstd"},   {95, "xz"},       {98, "ppmd"}};
  unsigned m = le16(p + 8);
  const char *name = m == 99 ? "AES Encrypted" : NULL;
  for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
    if (methods[i].id == m)
      name = methods[i].name;
  if (name)
    buf_printf(k->d, ", compression method=%s", name);
  else
    buf_printf(k->d, ", compression method=[0x%x]", m);
  return 1;
}

static int tar(const unsigned char *p, size_t n, fl_kind *k) {
  if (n < 512)
    return 0;
  if (memcmp(p + 257, "ustar  \0", 8) == 0)
    buf_puts(k->d, "POSIX tar archive (GNU)");
  else if (memcmp(p + 257, "ustar\0", 6) == 0)
    buf_puts(k->d, "POSIX tar archive");
  else
    return 0;
  k->mime = "application/x-tar";
  return 1;
}

int fl_magic(bi_ctx *c, const unsigned char *p, size_t n, fl_kind *k) {
  k->charset = "binary";
  if (fl_elf(p, n, k) || png(p, n, k) || gif(p, n, k) || jpeg(c, p, n, k) ||
      gzip(c, p, n, k) || bzip2(p, n, k) || xz(p, n, k) || zip(p, n, k) ||
      tar(p, n, k))
    return 1;
  if (pdf(p, n, k)) {
    /* the charset -i gives a PDF is what its bytes read as */
    buf tmp;
    buf_init(&tmp, c->m);
    fl_kind t = {&tmp, NULL, "binary"};
    fl_text(c, p, n, &t);
    k->charset = t.charset;
    buf_free(&tmp);
    return 1;
  }
  return 0;
}
