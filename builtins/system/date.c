/*
 * date.c - GNU date.
 *
 * The time comes from the sandbox clock (c->now_ns), a file's mtime (-r) or
 * a -d STRING, and is shown in the zone of the script's exported TZ (UTC
 * without one; see core/tz.h for where zone data comes from). Formatting is
 * tz_format, our own strftime with GNU's extensions (%N, %:z, %q, %P, the
 * - _ 0 ^ # flags and field widths), independent of the host's locale and
 * zone. -d understands the common GNU forms: ISO dates and times, "@EPOCH",
 * month names, "now", "today", "yesterday", "tomorrow", weekday names,
 * relative items ("3 days ago", "+2 hours", "next week") and zones (Z,
 * +hh:mm, UTC, EST, the local zone's abbreviations, a leading
 * TZ="Area/City" for the whole string); a local time that a
 * daylight saving change skips is invalid, as in GNU.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "builtins/textutil.h"
#include "builtins/tzutil.h"
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
    "Local time is that of the zone TZ names (an IANA name such as\n"
    "Europe/Berlin, or a POSIX string such as EST5EDT,M3.2.0,M11.1.0); UTC\n"
    "when TZ is unset.\n";

static const char *const wday_name[] = {"Sunday",    "Monday",   "Tuesday",
                                        "Wednesday", "Thursday", "Friday",
                                        "Saturday"};
static const char *const mon_name[] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

/* ---- parsing -d STRING ------------------------------------------------- */

typedef struct dparse {
  const tz_zone *zone; /* where a time without a zone is read */
  int have_date, have_time, have_wday, have_epoch;
  int have_zone;    /* the string named a zone or an offset */
  int64_t zone_off; /* that zone's seconds east of UTC */
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
    /* Amounts past any calendar are refused (and never overflow). */
    const int64_t lim = (int64_t)1 << 50;
    if (mult > lim || mult < -lim)
      return 0;
    int64_t v = mult * u[i].k;
    int64_t *to = u[i].kind == 0   ? &p->rel_s
                  : u[i].kind == 1 ? &p->rel_d
                  : u[i].kind == 2 ? &p->rel_m
                                   : &p->rel_y;
    if ((v > 0 && *to > lim) || (v < 0 && *to < -lim))
      return 0;
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
  if ((*s == 'Z' || *s == 'z') && !isalpha((unsigned char)s[1])) {
    p->have_zone = 1;
    p->zone_off = 0;
    s++;
  } else if ((*s == '+' || *s == '-') && isdigit((unsigned char)s[1])) {
    int sign = *s == '-' ? -1 : 1;
    const char *q = read_num(s + 1, &v, &nd);
    int64_t off;
    if (nd > 4)
      return NULL;
    if (*q == ':') {
      int64_t mm;
      int nd2;
      q = read_num(q + 1, &mm, &nd2);
      if (nd2 > 2)
        return NULL;
      off = v * 3600 + mm * 60;
    } else if (nd <= 2) {
      off = v * 3600;
    } else {
      off = (v / 100) * 3600 + (v % 100) * 60;
    }
    p->have_zone = 1;
    p->zone_off = sign * off;
    s = q;
  }
  return s;
}

static int64_t this_year(const dparse *p, int64_t now) {
  tz_tm t;
  tz_localtime(p->zone, now, 0, &t);
  return t.year;
}

/* Zone abbreviations a date string may carry: offset east of UTC in
 * minutes, and whether it names daylight time (GNU's table, abridged). */
static const struct {
  const char *name;
  int min;
} zone_words[] = {{"GMT", 0},     {"UT", 0},      {"UTC", 0},    {"Z", 0},
                  {"WET", 0},     {"WEST", 60},   {"BST", 60},   {"ART", -180},
                  {"BRT", -180},  {"BRST", -120}, {"NST", -210}, {"NDT", -150},
                  {"AST", -240},  {"ADT", -180},  {"CLT", -240}, {"CLST", -180},
                  {"EST", -300},  {"EDT", -240},  {"CST", -360}, {"CDT", -300},
                  {"MST", -420},  {"MDT", -360},  {"PST", -480}, {"PDT", -420},
                  {"AKST", -540}, {"AKDT", -480}, {"HST", -600}, {"HAST", -600},
                  {"HADT", -540}, {"SST", -720},  {"WAT", 60},   {"CET", 60},
                  {"CEST", 120},  {"MET", 60},    {"MEZ", 60},   {"MEST", 120},
                  {"MESZ", 120},  {"EET", 120},   {"EEST", 180}, {"CAT", 120},
                  {"SAST", 120},  {"EAT", 180},   {"MSK", 180},  {"MSD", 240},
                  {"IST", 330},   {"SGT", 480},   {"KST", 540},  {"JST", 540},
                  {"GST", 600},   {"NZST", 720},  {"NZDT", 780}};

/* A zone word: one of the table, or an abbreviation the script's own zone
 * uses now or half a year away (GNU reads those from the zone too). */
static int zone_word(const dparse *p, const char *w, size_t n, int64_t now,
                     int64_t *off) {
  for (int k = 0; k < 2; k++) {
    tz_tm t;
    tz_localtime(p->zone, now + k * 183 * 86400, 0, &t);
    if (strlen(t.abbr) == n && !strncasecmp(t.abbr, w, n) &&
        isalpha((unsigned char)*w)) {
      *off = t.gmtoff;
      return 1;
    }
  }
  for (size_t i = 0; i < sizeof zone_words / sizeof zone_words[0]; i++) {
    if (strlen(zone_words[i].name) == n &&
        !strncasecmp(zone_words[i].name, w, n)) {
      *off = zone_words[i].min * 60;
      return 1;
    }
  }
  return 0;
}

/* A month and a day: of the current year, unless a date came before. */
static void set_month_day(dparse *p, int mon, int64_t mday, int64_t now) {
  p->mon = mon;
  p->mday = (int)mday;
  if (!p->have_date)
    p->year = this_year(p, now);
  p->have_date = 1;
}

static int parse_date(const tz_zone *zone, const char *str, int64_t now,
                      long now_ns, int64_t *out, long *out_ns) {
  dparse p;
  memset(&p, 0, sizeof p);
  p.zone = zone;
  const char *s = skip_sp(str);
  if (!strncmp(s, "TZ=\"", 4)) {
    /* TZ="Area/City" first: the rest is read in that zone. */
    const char *q = strchr(s + 4, '"');
    size_t n = q ? (size_t)(q - s - 4) : 0;
    if (!q || n > 255 || !strncmp(skip_sp(q + 1), "TZ=\"", 4))
      return -1; /* one zone only: no recursion to bound */
    char name[256];
    memcpy(name, s + 4, n);
    name[n] = 0;
    const tz_zone *z = tz_open(name);
    int rc = parse_date(z, q + 1, now, now_ns, out, out_ns);
    tz_close(z);
    return rc;
  }
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
        p.year = y >= 0 ? y : this_year(&p, now);
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
    } else if (zone_word(&p, s, wn, now, &p.zone_off)) {
      p.have_zone = 1;
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
  if (!p.have_date && !p.have_time && !p.have_wday && !p.have_zone &&
      !p.rel_y && !p.rel_m && !p.rel_d) {
    /* Only seconds to add: no trip through the calendar, which would
     * lose which of two equal local times "now" is. */
    *out = now + p.rel_s;
    *out_ns = now_ns;
    return 0;
  }
  tz_tm t;
  tz_localtime(zone, now, now_ns, &t);
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
  /* Years far past any calendar are refused, so nothing below overflows. */
  const int64_t ylim = (int64_t)1 << 33;
  if (year < -ylim || year > ylim || p.rel_y < -ylim || p.rel_y > ylim ||
      p.rel_m < -ylim || p.rel_m > ylim || p.rel_d < -ylim * 366 ||
      p.rel_d > ylim * 366 || p.rel_s < -(ylim * 366 * 86400) ||
      p.rel_s > ylim * 366 * 86400)
    return -1;
  int64_t days = tz_days_from_civil(year + p.rel_y, mon + p.rel_m, mday);
  int64_t dd = 0; /* days to move for a weekday, then relative days */
  if (p.have_wday && !p.have_date) {
    int cur = (int)(((days % 7) + 11) % 7);
    dd = (p.wday - cur + 7) % 7;
  }
  dd += p.rel_d;
  if (p.have_zone) {
    *out = (days + dd) * 86400 + hour * 3600 + min * 60 + sec - p.zone_off +
           p.rel_s;
  } else {
    /* Calendar items move the local date; the clock time stays, so a
     * day across a daylight saving change is 23 or 25 hours. */
    int64_t base;
    if (tz_mktime(zone, year + p.rel_y, mon + p.rel_m, mday + dd, hour, min,
                  sec, -1, &base))
      return -1;
    *out = base + p.rel_s;
  }
  *out_ns = nsec;
  return 0;
}

/* ---- the command ------------------------------------------------------- */

static int bad_arg(bi_ctx *c, const char *arg, const char *opt,
                   const char *const *valid) {
  tu_bad_choice(c, "invalid", opt, arg, valid);
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
  int ch, utc = 0;
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
      utc = 1;
      break;
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
  /* -u reads and shows UTC, as GNU's TZ=UTC0 does. */
  const tz_zone *zone = utc ? tz_utc() : bi_tz_open(c);
  int status = 1;
  if (setstr) {
    int64_t x;
    long xn;
    if (parse_date(zone, setstr, now, nsec, &x, &xn))
      bi_error(c, "invalid date %s", tu_quote(c, setstr));
    else /* the sandbox clock belongs to the host */
      bi_error(c, "cannot set date: %s", bi_strerror(EPERM));
    goto out;
  }
  if (dstr && parse_date(zone, dstr, now, nsec, &t, &tn)) {
    bi_error(c, "invalid date %s", tu_quote(c, dstr));
    goto out;
  }
  if (ref) {
    vfs_stat_t st;
    int rc = c->vfs ? vfs_stat(c->vfs, c->cwd, ref, &st) : -ENOENT;
    if (rc) {
      bi_error(c, "%s: %s", ref, bi_strerror(-rc));
      goto out;
    }
    t = st.mtime_ns / 1000000000;
    tn = (long)(st.mtime_ns % 1000000000);
    if (tn < 0) {
      tn += 1000000000;
      t--;
    }
  }
  tz_tm tm;
  tz_localtime(zone, t, tn, &tm);
  buf o;
  buf_init(&o, c->m);
  tz_format(&o, fmt ? fmt : "%a %b %e %H:%M:%S %Z %Y", &tm, TZ_FMT_GNU);
  buf_putc(&o, '\n');
  int oom = o.oom; /* the budget reports it */
  int rc = oom ? 0 : stream_write(c->out, o.data, o.len);
  buf_free(&o);
  status = oom ? 1 : rc ? bi_stream_status(c->out->err) : 0;
out:
  tz_close(zone);
  return status;
}
