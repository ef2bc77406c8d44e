/* touch.c - GNU touch: create files, set access/modification times.
 *
 * Dates (-d) understand the forms scripts use: "@EPOCH[.frac]",
 * "YYYY-MM-DD", "YYYY-MM-DD[ T]HH:MM[:SS[.frac]]" with an optional zone
 * ("Z", "UTC", "+HH:MM", "-HHMM"), and "now". Times without a zone, and
 * -t stamps, are local times of the script's TZ (UTC when unset). */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"
#include "builtins/tzutil.h"

const char bi_usage_touch[] = "Usage: touch [OPTION]... FILE...";
const char bi_help_touch[] =
    "Give each FILE new access and modification times (the current time\n"
    "unless another is given); a FILE that is missing is created, empty.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -a                     set the access time only\n"
    "  -c, --no-create        skip FILEs that do not exist instead of "
    "creating\n"
    "                         them\n"
    "  -d, --date=STRING      use STRING instead of now: @SECONDS, "
    "YYYY-MM-DD,\n"
    "                         'YYYY-MM-DD HH:MM[:SS[.NS]]' with an optional "
    "zone\n"
    "                         (Z, UTC, +HH:MM), or now\n"
    "  -f                     accepted and ignored\n"
    "  -h, --no-dereference   change a symbolic link itself, not what it "
    "points to\n"
    "  -m                     set the modification time only\n"
    "  -r, --reference=FILE   copy the times of FILE\n"
    "  -t STAMP               use the time [[CC]YY]MMDDhhmm[.ss]\n"
    "      --time=WORD        change only one time: access, atime or use "
    "(-a);\n"
    "                         modify or mtime (-m)\n"
    "      --help             print this summary and quit\n"
    "      --version          print the version line and quit\n"
    "\n"
    "Times without a zone are local times of the zone TZ names (UTC when\n"
    "TZ is unset).\n";

enum { OPT_TIME = 0x100 };

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}

static int days_in_month(int64_t y, int m) {
  static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
    return 29;
  return dm[m - 1];
}

/* n digits at *p into *v; advances. */
static int digits(const char **p, int n, int *v) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    if (!isdigit((unsigned char)(*p)[i]))
      return -1;
    r = r * 10 + ((*p)[i] - '0');
  }
  *p += n;
  *v = r;
  return 0;
}

/* ".123" -> nanoseconds (digits past 9 are dropped). */
static long frac_ns(const char **p) {
  long ns = 0;
  int k = 0;
  if (**p != '.' && **p != ',')
    return 0;
  (*p)++;
  while (isdigit((unsigned char)**p)) {
    if (k < 9) {
      ns = ns * 10 + (**p - '0');
      k++;
    }
    (*p)++;
  }
  while (k++ < 9)
    ns *= 10;
  return ns;
}

static int valid_ymdhms(int64_t y, int mo, int d, int h, int mi, int s) {
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days_in_month(y, mo) && h >= 0 &&
         h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 60;
}

static int parse_date(bi_ctx *c, const tz_zone *zone, const char *s,
                      int64_t *out) {
  while (isspace((unsigned char)*s))
    s++;
  if (!strcmp(s, "now")) {
    *out = fu_now(c);
    return 0;
  }
  if (*s == '@') {
    const char *p = s + 1;
    int neg = 0;
    if (*p == '-' || *p == '+')
      neg = *p++ == '-';
    if (!isdigit((unsigned char)*p))
      return -1;
    int64_t sec = 0;
    while (isdigit((unsigned char)*p)) {
      if (sec > INT64_MAX / 10 / 1000000000)
        return -1;
      sec = sec * 10 + (*p++ - '0');
    }
    long ns = frac_ns(&p);
    if (*p)
      return -1;
    *out = neg ? -(sec * 1000000000 + ns) : sec * 1000000000 + ns;
    return 0;
  }
  const char *p = s;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  long ns = 0;
  if (digits(&p, 4, &y) < 0 || *p++ != '-' || digits(&p, 2, &mo) < 0 ||
      *p++ != '-' || digits(&p, 2, &d) < 0)
    return -1;
  if (*p == 'T' || *p == 't' || (*p == ' ' && isdigit((unsigned char)p[1]))) {
    p++;
    if (digits(&p, 2, &h) < 0 || *p++ != ':' || digits(&p, 2, &mi) < 0)
      return -1;
    if (*p == ':') {
      p++;
      if (digits(&p, 2, &sec) < 0)
        return -1;
      ns = frac_ns(&p);
    }
  }
  while (*p == ' ')
    p++;
  int64_t off = 0; /* seconds east of UTC */
  int have_zone = 1;
  if (*p == 'Z' || *p == 'z') {
    p++;
  } else if (!strncmp(p, "UTC", 3) || !strncmp(p, "GMT", 3)) {
    p += 3;
  } else if (*p != '+' && *p != '-') {
    have_zone = 0; /* local time, in the script's TZ */
  } else {
    int sign = *p++ == '-' ? -1 : 1, oh, om = 0;
    if (digits(&p, 2, &oh) < 0)
      return -1;
    if (*p == ':')
      p++;
    if (isdigit((unsigned char)*p) && digits(&p, 2, &om) < 0)
      return -1;
    off = sign * (oh * 3600 + om * 60);
  }
  if (*p || !valid_ymdhms(y, mo, d, h, mi, sec))
    return -1;
  int64_t t = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 +
              mi * 60 + sec - off;
  if (!have_zone && tz_mktime(zone, y, mo, d, h, mi, sec, -1, &t))
    return -1; /* skipped by a daylight saving change */
  *out = t * 1000000000 + ns;
  return 0;
}

/* -t [[CC]YY]MMDDhhmm[.ss] */
static int parse_stamp(bi_ctx *c, const tz_zone *zone, const char *s,
                       int64_t *out) {
  const char *dot = strchr(s, '.');
  size_t n = dot ? (size_t)(dot - s) : strlen(s);
  if (strspn(s, "0123456789") != n || (n != 8 && n != 10 && n != 12))
    return -1;
  const char *p = s;
  int cc = -1, yy = -1, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (n == 12 && digits(&p, 2, &cc) < 0)
    return -1;
  if (n >= 10 && digits(&p, 2, &yy) < 0)
    return -1;
  digits(&p, 2, &mo);
  digits(&p, 2, &d);
  digits(&p, 2, &h);
  digits(&p, 2, &mi);
  if (dot) {
    p = dot + 1;
    if (strlen(p) != 2 || digits(&p, 2, &sec) < 0)
      return -1;
  }
  int64_t y;
  if (cc >= 0) {
    y = cc * 100 + yy;
  } else if (yy >= 0) {
    y = yy >= 69 ? 1900 + yy : 2000 + yy; /* POSIX's century rule */
  } else {
    tz_tm tm;
    tz_localtime(zone, fu_now(c) / 1000000000, 0, &tm);
    y = tm.year;
  }
  if (!valid_ymdhms(y, mo, d, h, mi, sec))
    return -1;
  int64_t t;
  if (tz_mktime(zone, y, mo, d, h, mi, sec, -1, &t))
    return -1;
  *out = t * 1000000000;
  return 0;
}

int bi_touch(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"no-create", 'c', BI_ARG_NONE},      {"date", 'd', BI_ARG_REQUIRED},
      {"no-dereference", 'h', BI_ARG_NONE}, {"reference", 'r', BI_ARG_REQUIRED},
      {"time", OPT_TIME, BI_ARG_REQUIRED},  BI_OPTS_END};
  bi_getopt g;
  bi_getopt_init(&g, c, "acd:fhmr:t:", opts);
  int o, only_a = 0, only_m = 0, no_create = 0, no_deref = 0;
  const char *date = NULL, *stamp = NULL, *ref = NULL;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'a':
      only_a = 1;
      break;
    case 'm':
      only_m = 1;
      break;
    case 'c':
      no_create = 1;
      break;
    case 'd':
      date = g.arg;
      break;
    case 't':
      stamp = g.arg;
      break;
    case 'r':
      ref = g.arg;
      break;
    case 'h':
      no_deref = 1;
      break;
    case 'f':
      break;
    case OPT_TIME:
      if (!strcmp(g.arg, "atime") || !strcmp(g.arg, "access") ||
          !strcmp(g.arg, "use")) {
        only_a = 1;
      } else if (!strcmp(g.arg, "mtime") || !strcmp(g.arg, "modify")) {
        only_m = 1;
      } else {
        fu_bad_arg(c, "--time", g.arg,
                   "  - 'atime', 'access', 'use'\n"
                   "  - 'mtime', 'modify'\n");
        return 1;
      }
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if ((stamp && date) || (stamp && ref)) {
    bi_error(c, "cannot specify times from more than one source");
    bi_try_help(c);
    return 1;
  }
  int64_t at = VFS_UTIME_NOW, mt = VFS_UTIME_NOW;
  if (ref) {
    fu_stat rst;
    int rc = no_deref ? vfs_lstat(c->vfs, c->cwd, ref, &rst)
                      : vfs_stat(c->vfs, c->cwd, ref, &rst);
    if (rc < 0) {
      bi_error(c, "failed to get attributes of %s: %s", fu_quote(c, ref),
               bi_strerror(-rc));
      return 1;
    }
    at = rst.atime_ns;
    mt = rst.mtime_ns;
  }
  if (date) {
    /* With -r too, GNU takes the date relative to the reference; plain
     * dates are absolute, so the date simply wins. */
    int64_t t;
    const tz_zone *zone = bi_tz_open(c);
    int bad = parse_date(c, zone, date, &t) < 0;
    tz_close(zone);
    if (bad) {
      bi_error(c, "invalid date format %s", tu_quote(c, date));
      return 1;
    }
    at = mt = t;
  }
  if (stamp) {
    int64_t t;
    const tz_zone *zone = bi_tz_open(c);
    int bad = parse_stamp(c, zone, stamp, &t) < 0;
    tz_close(zone);
    if (bad) {
      bi_error(c, "invalid date format %s", tu_quote(c, stamp));
      return 1;
    }
    at = mt = t;
  }
  if (only_a && !only_m)
    mt = VFS_UTIME_OMIT;
  if (only_m && !only_a)
    at = VFS_UTIME_OMIT;
  if (g.noperands == 0) {
    bi_error(c, "missing file operand");
    bi_try_help(c);
    return 1;
  }
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    fu_stat st;
    int exists = no_deref ? vfs_lstat(c->vfs, c->cwd, p, &st) == 0
                          : vfs_stat(c->vfs, c->cwd, p, &st) == 0;
    if (!exists && !no_create && !no_deref) {
      vfs_file *f = NULL;
      int rc = vfs_open(c->vfs, c->cwd, p, O_WRONLY | O_CREAT, 0666, &f);
      if (rc < 0) {
        bi_error(c, "cannot touch %s: %s", fu_quote(c, p), bi_strerror(-rc));
        status = 1;
        continue;
      }
      vfs_close(f);
      exists = 1;
    }
    if (!exists && no_create)
      continue;
    int rc = vfs_utimes(c->vfs, c->cwd, p, at, mt, no_deref ? VFS_NOFOLLOW : 0);
    if (rc == -ENOENT && no_create)
      continue;
    if (rc < 0) {
      bi_error(c, "setting times of %s: %s", fu_quote(c, p), bi_strerror(-rc));
      status = 1;
    }
  }
  return status;
}
