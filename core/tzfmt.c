/*
 * tzfmt.c - strftime over a tz_tm (see tz.h): the same output whatever the
 * host's locale and zone, with GNU date's extensions on request.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tz.h"

static int is_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static const char *const wday_name[] = {"Sunday",    "Monday",   "Tuesday",
                                        "Wednesday", "Thursday", "Friday",
                                        "Saturday"};
static const char *const mon_name[] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

/* ISO 8601 week number and its year. */
static int iso_week(const tz_tm *t, int64_t *iso_year) {
  int wd = (t->wday + 6) % 7; /* Monday = 0 */
  int w = (t->yday - wd + 10) / 7;
  int64_t y = t->year;
  if (w < 1) {
    y--;
    int pyday = t->yday + 365 + is_leap(y);
    w = (pyday - wd + 10) / 7;
  } else {
    int ylen = 365 + is_leap(y);
    if (t->yday - wd + 3 >= ylen) { /* belongs to week 1 of next year */
      w = 1;
      y++;
    }
  }
  *iso_year = y;
  return w;
}

/* ---- formatting -------------------------------------------------------- */

static void put_num(buf *o, int64_t v, int width, char pad, int flag_pad) {
  /* flag_pad: '-' none, '_' spaces, '0' zeros, 0 default */
  if (flag_pad == '-')
    width = 0;
  else if (flag_pad == '_')
    pad = ' ';
  else if (flag_pad == '0')
    pad = '0';
  char tmp[32];
  int neg = v < 0;
  uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  int n = 0;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  int len = n + neg;
  if (pad == ' ') {
    for (int i = len; i < width; i++)
      buf_putc(o, ' ');
    if (neg)
      buf_putc(o, '-');
  } else {
    if (neg)
      buf_putc(o, '-');
    for (int i = len; i < width; i++)
      buf_putc(o, '0');
  }
  while (n)
    buf_putc(o, tmp[--n]);
}

static void put_str(buf *o, const char *s, int width, int upper, int flag_pad) {
  size_t l = strlen(s);
  for (int i = (int)l; i < width; i++)
    buf_putc(o, flag_pad == '0' ? '0' : ' ');
  for (size_t i = 0; i < l; i++)
    buf_putc(o, upper == 1   ? toupper((unsigned char)s[i])
                : upper == 2 ? tolower((unsigned char)s[i])
                             : s[i]);
}

static void format_time(buf *o, const char *f, const tz_tm *t, unsigned fl);

/* A sub-format (%c, %D, ...) padded to width as a whole. */
static void put_sub(buf *o, const char *f, const tz_tm *t, unsigned fl,
                    int width, int upper, int flag_pad) {
  buf tmp;
  buf_init(&tmp, o->m);
  format_time(&tmp, f, t, fl);
  put_str(o, buf_cstr(&tmp), width, upper, flag_pad);
  buf_free(&tmp);
}

static void format_time(buf *o, const char *f, const tz_tm *t, unsigned fl) {
  for (; *f; f++) {
    if (*f != '%') {
      buf_putc(o, *f);
      continue;
    }
    const char *start = f++;
    int flag_pad = 0, upper = 0, swap = 0, width = -1, colons = 0;
    for (;; f++) {
      if (*f == '-' || *f == '_' || *f == '0')
        flag_pad = *f;
      else if (*f == '^')
        upper = 1;
      else if (*f == '#')
        swap = 1;
      else
        break;
    }
    if (isdigit((unsigned char)*f)) {
      width = 0;
      while (isdigit((unsigned char)*f)) {
        if (width < 1000000) /* bounded: each field's padding is built */
          width = width * 10 + (*f - '0');
        f++;
      }
    }
    while (*f == 'E' || *f == 'O')
      f++;
    while ((fl & TZ_FMT_GNU) && *f == ':' && colons < 3) {
      colons++;
      f++;
    }
    if (colons && *f != 'z') {
      buf_append(o, start, (size_t)(f - start + (*f != 0)));
      if (!*f)
        break;
      continue;
    }
    int w = width;
#define NUM(v, dw, pad) put_num(o, (v), w < 0 ? (dw) : w, (pad), flag_pad)
    int64_t iy;
    switch (*f) {
    case 0:
      buf_putc(o, '%');
      f--;
      break;
    case '%':
      buf_putc(o, '%');
      break;
    case 'n':
      buf_putc(o, '\n');
      break;
    case 't':
      buf_putc(o, '\t');
      break;
    case 'a':
    case 'A': {
      char s[16];
      snprintf(s, sizeof s, "%.*s", *f == 'a' ? 3 : 9, wday_name[t->wday]);
      put_str(o, s, w, upper || swap, flag_pad);
      break;
    }
    case 'b':
    case 'h':
    case 'B': {
      char s[16];
      snprintf(s, sizeof s, "%.*s", *f == 'B' ? 9 : 3, mon_name[t->mon - 1]);
      put_str(o, s, w, upper || swap, flag_pad);
      break;
    }
    case 'c':
      put_sub(o, "%a %b %e %H:%M:%S %Y", t, fl, w, upper, flag_pad);
      break;
    case 'C':
      NUM(t->year >= 0 ? t->year / 100 : -((99 - t->year) / 100), 2, '0');
      break;
    case 'd':
      NUM(t->mday, 2, '0');
      break;
    case 'D':
    case 'x':
      put_sub(o, "%m/%d/%y", t, fl, w, upper, flag_pad);
      break;
    case 'e':
      NUM(t->mday, 2, ' ');
      break;
    case 'F':
      put_sub(o, "%Y-%m-%d", t, fl, w, upper, flag_pad);
      break;
    case 'g':
      iso_week(t, &iy);
      NUM(((iy % 100) + 100) % 100, 2, '0');
      break;
    case 'G':
      iso_week(t, &iy);
      NUM(iy, 4, '0');
      break;
    case 'H':
      NUM(t->hour, 2, '0');
      break;
    case 'I':
      NUM((t->hour + 11) % 12 + 1, 2, '0');
      break;
    case 'j':
      NUM(t->yday + 1, 3, '0');
      break;
    case 'k':
      NUM(t->hour, 2, ' ');
      break;
    case 'l':
      NUM((t->hour + 11) % 12 + 1, 2, ' ');
      break;
    case 'm':
      NUM(t->mon, 2, '0');
      break;
    case 'M':
      NUM(t->min, 2, '0');
      break;
    case 'N': {
      if (!(fl & TZ_FMT_GNU)) {
        buf_append(o, start, (size_t)(f - start + 1));
        break;
      }
      /* A width keeps that many leading digits (GNU: %3N = milliseconds). */
      char s[16];
      snprintf(s, sizeof s, "%09ld", t->nsec);
      int keep = w < 0 ? 9 : w;
      if (flag_pad == '-') {
        size_t l = strlen(s);
        while (l > 1 && s[l - 1] == '0')
          s[--l] = 0;
      }
      if (keep <= 9)
        s[keep] = 0;
      buf_puts(o, s);
      for (int i = 9; i < keep; i++)
        buf_putc(o, '0');
      break;
    }
    case 'p':
    case 'P':
      put_str(o, t->hour < 12 ? "AM" : "PM", w, (*f == 'P' || swap) ? 2 : upper,
              flag_pad);
      break;
    case 'q':
      if (!(fl & TZ_FMT_GNU)) {
        buf_append(o, start, (size_t)(f - start + 1));
        break;
      }
      NUM((t->mon - 1) / 3 + 1, 1, '0');
      break;
    case 'r':
      put_sub(o, "%I:%M:%S %p", t, fl, w, upper, flag_pad);
      break;
    case 'R':
      put_sub(o, "%H:%M", t, fl, w, upper, flag_pad);
      break;
    case 's':
      NUM(t->epoch, 1, '0');
      break;
    case 'S':
      NUM(t->sec, 2, '0');
      break;
    case 'T':
    case 'X':
      put_sub(o, "%H:%M:%S", t, fl, w, upper, flag_pad);
      break;
    case 'u':
      NUM(t->wday ? t->wday : 7, 1, '0');
      break;
    case 'U':
      NUM((t->yday + 7 - t->wday) / 7, 2, '0');
      break;
    case 'V':
      NUM(iso_week(t, &iy), 2, '0');
      break;
    case 'w':
      NUM(t->wday, 1, '0');
      break;
    case 'W':
      NUM((t->yday + 7 - (t->wday + 6) % 7) / 7, 2, '0');
      break;
    case 'y':
      NUM(((t->year % 100) + 100) % 100, 2, '0');
      break;
    case 'Y':
      NUM(t->year, 4, '0');
      break;
    case 'z': {
      /* +hhmm, +hh:mm, +hh:mm:ss, or (%:::z) as short as is exact. */
      int32_t off = t->gmtoff;
      uint32_t u = off < 0 ? (uint32_t) - (int64_t)off : (uint32_t)off;
      unsigned hh = u / 3600, mm = u / 60 % 60, ss = u % 60;
      char z[24];
      char sign = off < 0 ? '-' : '+';
      if (colons == 0)
        snprintf(z, sizeof z, "%c%02u%02u", sign, hh, mm);
      else if (colons == 1)
        snprintf(z, sizeof z, "%c%02u:%02u", sign, hh, mm);
      else if (colons == 2 || ss)
        snprintf(z, sizeof z, "%c%02u:%02u:%02u", sign, hh, mm, ss);
      else if (mm)
        snprintf(z, sizeof z, "%c%02u:%02u", sign, hh, mm);
      else
        snprintf(z, sizeof z, "%c%02u", sign, hh);
      /* A width pads between the sign and the digits (GNU). */
      size_t zl = strlen(z);
      buf_putc(o, z[0]);
      for (int i = (int)zl; i < w; i++)
        buf_putc(o, flag_pad == '_' ? ' ' : '0');
      buf_puts(o, z + 1);
      break;
    }
    case 'Z':
      put_str(o, t->abbr, w, swap ? 2 : upper, flag_pad);
      break;
    default:
      /* Unknown conversions are copied as written. */
      buf_append(o, start, (size_t)(f - start + 1));
      break;
    }
#undef NUM
  }
}

void tz_format(buf *o, const char *fmt, const tz_tm *t, unsigned flags) {
  format_time(o, fmt, t, flags);
}
