/*
 * date.c - GNU date.
 *
 * The time comes from the sandbox clock (c->now_ns), a file's mtime (-r) or
 * a -d STRING. Every time is shown in UTC: the sandbox has no zone database,
 * so TZ is ignored (a TZ naming another zone still prints UTC; -u changes
 * nothing). Formatting is our own strftime with GNU's extensions (%N, %:z,
 * %q, %P, the - _ 0 ^ # flags and field widths), independent of the host
 * locale and zone. -d understands the common GNU forms: ISO dates and
 * times, "@EPOCH", month names, "now", "today", "yesterday", "tomorrow",
 * weekday names and relative items ("3 days ago", "+2 hours", "next week").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_date[] = "Usage: date [OPTION]... [+FORMAT]\n"
                             "  or:  date [-u|--utc|--universal] "
                             "[MMDDhhmm[[CC]YY][.ss]]";
const char bi_help_date[] =
    "Print the date and time, laid out as FORMAT says when one is given.\n"
    "-s, or an MMDDhhmm[[CC]YY][.ss] operand, asks to set the clock instead;\n"
    "the sandbox refuses that, as the clock belongs to the host.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -d, --date=STRING          show the time STRING describes instead of "
    "the\n"
    "                               current time\n"
    "  -I[FMT], --iso-8601[=FMT]  use ISO 8601 layout; FMT picks the "
    "precision:\n"
    "                               'date' (the default), 'hours', 'minutes',\n"
    "                               'seconds' or 'ns'\n"
    "  -R, --rfc-email            use the RFC 5322 (mail header) layout\n"
    "      --rfc-3339=FMT         use RFC 3339 layout; FMT is 'date',\n"
    "                               'seconds' or 'ns'\n"
    "  -r, --reference=FILE       show when FILE was last modified\n"
    "  -s, --set=STRING           set the clock to the time STRING describes\n"
    "                               (refused here)\n"
    "  -u, --utc, --universal     use UTC for both input and output\n"
    "      --help                 print this summary and quit\n"
    "      --version              print the version line and quit\n"
    "\n"
    "All times are UTC in this sandbox: TZ is ignored.\n";

/* ---- calendar ---------------------------------------------------------- */

/* Days since 1970-01-01 of a proleptic Gregorian date (any month value:
 * it is normalised first, so "month 13" is January of the next year). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  m -= 1;
  y += m >= 0 ? m / 12 : -((11 - m) / 12);
  m = ((m % 12) + 12) % 12 + 1;
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

typedef struct tmx {
  int64_t year;
  int mon, mday, hour, min, sec, wday, yday; /* mon 1..12, yday 0.. */
  long nsec;
  int64_t epoch;
} tmx;

static int is_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static void civil_from_epoch(int64_t t, long nsec, tmx *r) {
  int64_t days = t >= 0 ? t / 86400 : -((86399 - t) / 86400);
  int64_t secs = t - days * 86400;
  r->epoch = t;
  r->nsec = nsec;
  r->hour = (int)(secs / 3600);
  r->min = (int)(secs / 60 % 60);
  r->sec = (int)(secs % 60);
  r->wday = (int)(((days % 7) + 11) % 7); /* 1970-01-01 was a Thursday */
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  r->mday = (int)(doy - (153 * mp + 2) / 5 + 1);
  r->mon = (int)(mp < 10 ? mp + 3 : mp - 9);
  r->year = y + (r->mon <= 2);
  r->yday = (int)(days - days_from_civil(r->year, 1, 1));
}

static const char *const wday_name[] = {"Sunday",    "Monday",   "Tuesday",
                                        "Wednesday", "Thursday", "Friday",
                                        "Saturday"};
static const char *const mon_name[] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

/* ISO 8601 week number and its year. */
static int iso_week(const tmx *t, int64_t *iso_year) {
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

static void format_time(buf *o, const char *f, const tmx *t);

/* A sub-format (%c, %D, ...) padded to width as a whole. */
static void put_sub(buf *o, const char *f, const tmx *t, int width, int upper,
                    int flag_pad) {
  buf tmp;
  buf_init(&tmp, o->m);
  format_time(&tmp, f, t);
  put_str(o, buf_cstr(&tmp), width, upper, flag_pad);
  buf_free(&tmp);
}

static void format_time(buf *o, const char *f, const tmx *t) {
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
      while (isdigit((unsigned char)*f))
        width = width * 10 + (*f++ - '0');
    }
    while (*f == 'E' || *f == 'O')
      f++;
    while (*f == ':' && colons < 3) {
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
      put_sub(o, "%a %b %e %H:%M:%S %Y", t, w, upper, flag_pad);
      break;
    case 'C':
      NUM(t->year >= 0 ? t->year / 100 : -((99 - t->year) / 100), 2, '0');
      break;
    case 'd':
      NUM(t->mday, 2, '0');
      break;
    case 'D':
    case 'x':
      put_sub(o, "%m/%d/%y", t, w, upper, flag_pad);
      break;
    case 'e':
      NUM(t->mday, 2, ' ');
      break;
    case 'F':
      put_sub(o, "%Y-%m-%d", t, w, upper, flag_pad);
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
      NUM((t->mon - 1) / 3 + 1, 1, '0');
      break;
    case 'r':
      put_sub(o, "%I:%M:%S %p", t, w, upper, flag_pad);
      break;
    case 'R':
      put_sub(o, "%H:%M", t, w, upper, flag_pad);
      break;
    case 's':
      NUM(t->epoch, 1, '0');
      break;
    case 'S':
      NUM(t->sec, 2, '0');
      break;
    case 'T':
    case 'X':
      put_sub(o, "%H:%M:%S", t, w, upper, flag_pad);
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
      static const char *const zs[] = {"+0000", "+00:00", "+00:00:00", "+00"};
      put_str(o, zs[colons], w, 0, flag_pad == '_' ? '_' : '0');
      break;
    }
    case 'Z':
      put_str(o, "UTC", w, swap ? 2 : upper, flag_pad);
      break;
    default:
      /* Unknown conversions are copied as written. */
      buf_append(o, start, (size_t)(f - start + 1));
      break;
    }
#undef NUM
  }
}

/* ---- parsing -d STRING ------------------------------------------------- */

typedef struct dparse {
  int have_date, have_time, have_wday, have_epoch;
  int64_t year;
  int mon, mday, hour, min, sec, wday;
  long nsec;
  int64_t rel_y, rel_m, rel_d, rel_s, epoch;
  int ampm; /* 0 none, 1 am, 2 pm */
} dparse;

static int word_eq(const char *w, size_t n, const char *name, size_t minlen) {
  size_t l = strlen(name);
  return n >= minlen && n <= l && strncasecmp(w, name, n) == 0;
}

static int month_of(const char *w, size_t n) {
  for (int i = 0; i < 12; i++)
    if (word_eq(w, n, mon_name[i], 3) ||
        (n == 4 && !strncasecmp(w, "sept", 4) && i == 8))
      return i + 1;
  return 0;
}

static int wday_of(const char *w, size_t n) {
  for (int i = 0; i < 7; i++)
    if (word_eq(w, n, wday_name[i], 3) ||
        (n == 4 && !strncasecmp(w, wday_name[i], 3) && w[3] == '.'))
      return i + 1;
  return 0;
}

/* Seconds-or-calendar unit of a relative item: returns 1 and adds
 * mult units to the right field, or 0 when w is not a unit. */
static int add_unit(dparse *p, const char *w, size_t n, int64_t mult) {
  if (n > 1 && (w[n - 1] == 's' || w[n - 1] == 'S'))
    n--; /* plural */
  static const struct {
    const char *name;
    int kind; /* 0 s, 1 d, 2 m, 3 y */
    int64_t k;
  } u[] = {{"second", 0, 1}, {"sec", 0, 1},        {"minute", 0, 60},
           {"min", 0, 60},   {"hour", 0, 3600},    {"day", 1, 1},
           {"week", 1, 7},   {"fortnight", 1, 14}, {"month", 2, 1},
           {"year", 3, 1}};
  for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
    if (strlen(u[i].name) != n || strncasecmp(w, u[i].name, n))
      continue;
    int64_t v = mult * u[i].k;
    switch (u[i].kind) {
    case 0:
      p->rel_s += v;
      break;
    case 1:
      p->rel_d += v;
      break;
    case 2:
      p->rel_m += v;
      break;
    default:
      p->rel_y += v;
    }
    return 1;
  }
  return 0;
}

static const char *skip_sp(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == ',' || *s == '\n')
    s++;
  return s;
}

static const char *read_word(const char *s, size_t *n) {
  const char *e = s;
  while (isalpha((unsigned char)*e) || *e == '.')
    e++;
  *n = (size_t)(e - s);
  return e;
}

/* Reads digits; *nd gets how many. */
static const char *read_num(const char *s, int64_t *v, int *nd) {
  int64_t x = 0;
  int k = 0;
  while (isdigit((unsigned char)*s) && k < 18) {
    x = x * 10 + (*s++ - '0');
    k++;
  }
  *v = x;
  *nd = k;
  return s;
}

/* A fraction of a second (".5", ",25"), if s starts one: *ns gets it in
 * nanoseconds (digits past the ninth are read and dropped). Returns the
 * end; with no fraction, s and *ns unchanged. */
static const char *read_frac(const char *s, long *ns) {
  if (*s != '.' && *s != ',')
    return s;
  s++;
  long v = 0;
  int k = 0;
  while (isdigit((unsigned char)*s)) {
    if (k < 9) {
      v = v * 10 + (*s - '0');
      k++;
    }
    s++;
  }
  while (k++ < 9)
    v *= 10;
  *ns = v;
  return s;
}

/* HH:MM[:SS[.frac]] after the hour has been read; returns the end or NULL. */
static const char *read_time(dparse *p, int64_t hour, const char *s) {
  int64_t v;
  int nd;
  s = read_num(s + 1, &v, &nd);
  if (!nd || hour > 24 || v > 59)
    return NULL;
  p->hour = (int)hour;
  p->min = (int)v;
  p->sec = 0;
  p->nsec = 0;
  if (*s == ':') {
    s = read_num(s + 1, &v, &nd);
    if (!nd || v > 60)
      return NULL;
    p->sec = (int)v;
    s = read_frac(s, &p->nsec);
  }
  p->have_time = 1;
  /* A zone right after the time: Z, +hh[:mm], -hhmm. */
  if (*s == 'Z' || *s == 'z') {
    s++;
  } else if ((*s == '+' || *s == '-') && isdigit((unsigned char)s[1])) {
    int sign = *s == '-' ? -1 : 1;
    const char *q = read_num(s + 1, &v, &nd);
    int64_t off;
    if (*q == ':') {
      int64_t mm;
      int nd2;
      q = read_num(q + 1, &mm, &nd2);
      off = v * 3600 + mm * 60;
    } else if (nd <= 2) {
      off = v * 3600;
    } else {
      off = (v / 100) * 3600 + (v % 100) * 60;
    }
    /* Local time = UTC + off, so UTC = local - off. */
    p->rel_s -= sign * off;
    s = q;
  }
  return s;
}

static int64_t this_year(int64_t now) {
  tmx t;
  civil_from_epoch(now, 0, &t);
  return t.year;
}

/* A month and a day: of the current year, unless a date came before. */
static void set_month_day(dparse *p, int mon, int64_t mday, int64_t now) {
  p->mon = mon;
  p->mday = (int)mday;
  if (!p->have_date)
    p->year = this_year(now);
  p->have_date = 1;
}

static int parse_date(const char *str, int64_t now, long now_ns, int64_t *out,
                      long *out_ns) {
  dparse p;
  memset(&p, 0, sizeof p);
  const char *s = skip_sp(str);
  if (*s == '@') {
    s++;
    int neg = 0;
    if (*s == '-' || *s == '+')
      neg = *s++ == '-';
    int64_t v;
    int nd;
    s = read_num(s, &v, &nd);
    if (!nd)
      return -1;
    long ns = 0;
    s = read_frac(s, &ns);
    if (*skip_sp(s))
      return -1;
    if (neg) {
      v = -v;
      if (ns) {
        v--;
        ns = 1000000000 - ns;
      }
    }
    *out = v;
    *out_ns = ns;
    return 0;
  }
  int64_t *last_rel = NULL; /* for "ago" */
  int64_t last_val = 0;
  while (*(s = skip_sp(s))) {
    int64_t v;
    int nd;
    if (isdigit((unsigned char)*s) ||
        ((*s == '+' || *s == '-') && isdigit((unsigned char)s[1]))) {
      int sign = 1;
      int signed_ = 0;
      if (*s == '+' || *s == '-') {
        sign = *s == '-' ? -1 : 1;
        signed_ = 1;
        s++;
      }
      const char *e = read_num(s, &v, &nd);
      if (!signed_ && *e == '-' && isdigit((unsigned char)e[1])) {
        /* YYYY-MM-DD */
        int64_t m, d;
        int n2, n3;
        const char *q = read_num(e + 1, &m, &n2);
        if (*q != '-')
          return -1;
        q = read_num(q + 1, &d, &n3);
        if (!n3 || m < 1 || m > 12 || d < 1 || d > 31)
          return -1;
        p.year = v;
        p.mon = (int)m;
        p.mday = (int)d;
        p.have_date = 1;
        s = q;
        if (*s == 'T' || *s == 't') {
          s++;
          if (!isdigit((unsigned char)*s))
            return -1;
        }
        continue;
      }
      if (!signed_ && *e == ':') {
        if (!(s = read_time(&p, v, e)))
          return -1;
        continue;
      }
      if (!signed_ && *e == '/') {
        /* MM/DD[/YY[YY]] */
        int64_t d, y = -1;
        int n2, n3 = 0;
        const char *q = read_num(e + 1, &d, &n2);
        if (!n2)
          return -1;
        if (*q == '/') {
          q = read_num(q + 1, &y, &n3);
          if (!n3)
            return -1;
          if (n3 <= 2)
            y += y < 69 ? 2000 : 1900;
        }
        if (v < 1 || v > 12 || d < 1 || d > 31)
          return -1;
        p.mon = (int)v;
        p.mday = (int)d;
        p.year = y >= 0 ? y : this_year(now);
        p.have_date = 1;
        s = q;
        continue;
      }
      s = skip_sp(e);
      size_t wn;
      const char *we = read_word(s, &wn);
      int mon;
      if (wn && add_unit(&p, s, wn, sign * v)) {
        last_rel = NULL;
        last_val = sign * v;
        (void)last_val;
        s = we;
        continue;
      }
      if (signed_)
        return -1;
      if (wn && (mon = month_of(s, wn))) { /* "2 Jan [2024]" */
        set_month_day(&p, mon, v, now);
        s = skip_sp(we);
        if (isdigit((unsigned char)*s)) {
          const char *q = read_num(s, &v, &nd);
          if (*q != ':') {
            p.year = v;
            s = q;
          }
        }
        continue;
      }
      if (nd == 8) { /* YYYYMMDD */
        p.year = v / 10000;
        p.mon = (int)(v / 100 % 100);
        p.mday = (int)(v % 100);
        if (p.mon < 1 || p.mon > 12 || p.mday < 1 || p.mday > 31)
          return -1;
        p.have_date = 1;
        continue;
      }
      if (p.have_date && p.mon && nd == 4 && !p.have_time) {
        p.year = v; /* "Jan 2 2024" */
        continue;
      }
      if (p.have_date && p.have_time && nd == 4) {
        p.year = v; /* date's own output: "... 01:02:03 UTC 2026" */
        continue;
      }
      if (wn && (word_eq(s, wn, "am", 2) || word_eq(s, wn, "pm", 2) ||
                 word_eq(s, wn, "a.m.", 4) || word_eq(s, wn, "p.m.", 4))) {
        if (v < 1 || v > 12)
          return -1;
        p.hour = (int)v;
        p.min = p.sec = 0;
        p.nsec = 0;
        p.have_time = 1;
        p.ampm = tolower((unsigned char)*s) == 'a' ? 1 : 2;
        s = we;
        continue;
      }
      return -1;
    }
    size_t wn;
    const char *we = read_word(s, &wn);
    if (!wn)
      return -1;
    int k;
    if (word_eq(s, wn, "now", 3) || word_eq(s, wn, "today", 5)) {
      ;
    } else if (word_eq(s, wn, "yesterday", 9)) {
      p.rel_d -= 1;
    } else if (word_eq(s, wn, "tomorrow", 8)) {
      p.rel_d += 1;
    } else if (word_eq(s, wn, "ago", 3)) {
      /* negates every relative item so far, like GNU */
      p.rel_y = -p.rel_y;
      p.rel_m = -p.rel_m;
      p.rel_d = -p.rel_d;
      p.rel_s = -p.rel_s;
    } else if (word_eq(s, wn, "next", 4) || word_eq(s, wn, "last", 4) ||
               word_eq(s, wn, "this", 4)) {
      int64_t m = word_eq(s, wn, "next", 4)   ? 1
                  : word_eq(s, wn, "last", 4) ? -1
                                              : 0;
      const char *u = skip_sp(we);
      size_t un;
      const char *ue = read_word(u, &un);
      if (un && add_unit(&p, u, un, m)) {
        we = ue;
      } else if (un && (k = wday_of(u, un))) {
        p.have_wday = 1;
        p.wday = k - 1;
        p.rel_d += m < 0 ? -7 : 0;
        we = ue;
      } else {
        return -1;
      }
    } else if (word_eq(s, wn, "utc", 3) || word_eq(s, wn, "gmt", 3) ||
               word_eq(s, wn, "z", 1) || word_eq(s, wn, "ut", 2)) {
      ;
    } else if (word_eq(s, wn, "am", 2) || word_eq(s, wn, "pm", 2)) {
      if (!p.have_time || p.hour > 12)
        return -1;
      p.ampm = tolower((unsigned char)*s) == 'a' ? 1 : 2;
    } else if ((k = month_of(s, wn))) {
      /* "Jan 2 [2024]" */
      const char *q = skip_sp(we);
      int64_t d;
      int n2;
      const char *qe = read_num(q, &d, &n2);
      if (!n2 || *qe == ':')
        return -1;
      set_month_day(&p, k, d, now);
      we = qe;
      q = skip_sp(qe);
      if (isdigit((unsigned char)*q)) {
        const char *q2 = read_num(q, &d, &n2);
        if (*q2 != ':' && n2 == 4) {
          p.year = d;
          we = q2;
        }
      }
    } else if ((k = wday_of(s, wn))) {
      p.have_wday = 1;
      p.wday = k - 1;
    } else if (add_unit(&p, s, wn, 1)) {
      ;
    } else {
      return -1;
    }
    (void)last_rel;
    s = we;
  }
  tmx t;
  civil_from_epoch(now, now_ns, &t);
  int64_t year = t.year;
  int mon = t.mon, mday = t.mday, hour = t.hour, min = t.min, sec = t.sec;
  long nsec = now_ns;
  if (p.have_date) {
    year = p.year;
    mon = p.mon;
    mday = p.mday;
  }
  if (p.have_time) {
    hour = p.hour;
    if (p.ampm == 1 && hour == 12)
      hour = 0;
    else if (p.ampm == 2 && hour < 12)
      hour += 12;
    min = p.min;
    sec = p.sec;
    nsec = p.nsec;
  } else if (p.have_date || p.have_wday) {
    hour = min = sec = 0;
    nsec = 0;
  }
  int64_t days = days_from_civil(year + p.rel_y, mon + p.rel_m, mday);
  if (p.have_wday && !p.have_date) {
    int cur = (int)(((days % 7) + 11) % 7);
    days += (p.wday - cur + 7) % 7;
  }
  days += p.rel_d;
  *out = days * 86400 + hour * 3600 + min * 60 + sec + p.rel_s;
  *out_ns = nsec;
  return 0;
}

/* ---- the command ------------------------------------------------------- */

static int bad_arg(bi_ctx *c, const char *arg, const char *opt,
                   const char *const *valid) {
  bi_error(c, "invalid argument %s for '%s'", tu_quote(c, arg), opt);
  stream_puts(c->err, "Valid arguments are:\n");
  for (int i = 0; valid[i]; i++)
    stream_printf(c->err, "  - '%s'\n", valid[i]);
  bi_try_help(c);
  return 1;
}

/* Unique prefix match of an argument against a list (GNU argmatch). */
static int argmatch(const char *a, const char *const *list) {
  size_t l = strlen(a);
  int found = -1;
  for (int i = 0; list[i]; i++) {
    if (!strcmp(a, list[i]))
      return i;
    if (l && !strncmp(a, list[i], l)) {
      if (found >= 0)
        return -1;
      found = i;
    }
  }
  return found;
}

int bi_date(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"date", 'd', BI_ARG_REQUIRED},     {"file", 'f', BI_ARG_REQUIRED},
      {"iso-8601", 'I', BI_ARG_OPTIONAL}, {"reference", 'r', BI_ARG_REQUIRED},
      {"rfc-email", 'R', BI_ARG_NONE},    {"rfc-822", 'R', BI_ARG_NONE},
      {"rfc-2822", 'R', BI_ARG_NONE},     {"rfc-3339", 0x100, BI_ARG_REQUIRED},
      {"set", 's', BI_ARG_REQUIRED},      {"utc", 'u', BI_ARG_NONE},
      {"universal", 'u', BI_ARG_NONE},    {"uct", 'u', BI_ARG_NONE},
      {"debug", 0x101, BI_ARG_NONE},      BI_OPTS_END};
  static const char *const iso_names[] = {"hours",   "minutes", "date",
                                          "seconds", "ns",      NULL};
  static const char *const iso_fmts[] = {"%Y-%m-%dT%H%:z", "%Y-%m-%dT%H:%M%:z",
                                         "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S%:z",
                                         "%Y-%m-%dT%H:%M:%S,%N%:z"};
  static const char *const rfc_names[] = {"date", "seconds", "ns", NULL};
  static const char *const rfc_fmts[] = {"%Y-%m-%d", "%Y-%m-%d %H:%M:%S%:z",
                                         "%Y-%m-%d %H:%M:%S.%N%:z"};
  const char *dstr = NULL, *ref = NULL, *fmt = NULL, *setstr = NULL;
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "d:f:I::r:Rs:u", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    const char *nf = NULL;
    switch (ch) {
    case 'd':
      dstr = g.arg;
      break;
    case 'f':
      bi_error(c, "option --file is not supported");
      return 1;
    case 'r':
      ref = g.arg;
      break;
    case 's':
      setstr = g.arg;
      break;
    case 'u':
    case 0x101:
      break;
    case 'I': {
      int k = 2;
      if (g.arg && (k = argmatch(g.arg, iso_names)) < 0)
        return bad_arg(c, g.arg, "--iso-8601", iso_names);
      nf = iso_fmts[k];
      break;
    }
    case 'R':
      nf = "%a, %d %b %Y %H:%M:%S %z";
      break;
    case 0x100: {
      int k = argmatch(g.arg, rfc_names);
      if (k < 0)
        return bad_arg(c, g.arg, "--rfc-3339", rfc_names);
      nf = rfc_fmts[k];
      break;
    }
    }
    if (nf) {
      if (fmt) {
        bi_error(c, "multiple output formats specified");
        return 1;
      }
      fmt = nf;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if ((dstr != NULL) + (ref != NULL) + (setstr != NULL) > 1) {
    bi_error(c, "the options to specify dates for printing are mutually "
                "exclusive");
    bi_try_help(c);
    return 1;
  }
  for (int i = 0; i < g.noperands; i++) {
    const char *a = g.operands[i];
    if (a[0] == '+' && i == 0) {
      if (fmt) {
        bi_error(c, "multiple output formats specified");
        return 1;
      }
      fmt = a + 1;
      continue;
    }
    if (i > 0 || dstr || ref || g.noperands > 1)
      return tu_extra_operand(c, g.operands[i ? i : 1]);
    setstr = a;
  }
  int64_t now_ns = c->now_ns(c);
  int64_t now = now_ns / 1000000000;
  long nsec = (long)(now_ns % 1000000000);
  if (nsec < 0) {
    nsec += 1000000000;
    now--;
  }
  int64_t t = now;
  long tn = nsec;
  if (setstr) {
    int64_t x;
    long xn;
    if (parse_date(setstr, now, nsec, &x, &xn)) {
      bi_error(c, "invalid date %s", tu_quote(c, setstr));
      return 1;
    }
    /* The sandbox clock belongs to the host. */
    bi_error(c, "cannot set date: %s", bi_strerror(EPERM));
    return 1;
  }
  if (dstr && parse_date(dstr, now, nsec, &t, &tn)) {
    bi_error(c, "invalid date %s", tu_quote(c, dstr));
    return 1;
  }
  if (ref) {
    vfs_stat_t st;
    int rc = c->vfs ? vfs_stat(c->vfs, c->cwd, ref, &st) : -ENOENT;
    if (rc) {
      bi_error(c, "%s: %s", ref, bi_strerror(-rc));
      return 1;
    }
    t = st.mtime_ns / 1000000000;
    tn = (long)(st.mtime_ns % 1000000000);
    if (tn < 0) {
      tn += 1000000000;
      t--;
    }
  }
  tmx tm;
  civil_from_epoch(t, tn, &tm);
  buf o;
  buf_init(&o, c->m);
  format_time(&o, fmt ? fmt : "%a %b %e %H:%M:%S %Z %Y", &tm);
  buf_putc(&o, '\n');
  int rc = stream_write(c->out, o.data, o.len);
  buf_free(&o);
  return rc ? bi_stream_status(c->out->err) : 0;
}
