/*
 * tz.c - zones from POSIX TZ strings and TZif files (see tz.h).
 *
 * TZif (RFC 8536): a version 1 block with 32-bit times, then for version 2
 * and later the same tables with 64-bit times and a footer holding the
 * POSIX string that describes times after the last transition. Leap
 * second records ("right/" zones) are skipped: the sandbox clock counts
 * POSIX seconds, so applying them would shift every time.
 */
#include "tz.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- calendar ------------------------------------------------------------ */

int64_t tz_days_from_civil(int64_t y, int64_t m, int64_t d) {
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

static int is_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Fields of a time that is already local (t + offset). */
static void fill_fields(int64_t t, tz_tm *r) {
  int64_t days = t >= 0 ? t / 86400 : -((86399 - t) / 86400);
  int64_t secs = t - days * 86400;
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
  r->yday = (int)(days - tz_days_from_civil(r->year, 1, 1));
}

void tz_civil(int64_t t, long nsec, tz_tm *out) {
  memset(out, 0, sizeof *out);
  fill_fields(t, out);
  out->epoch = t;
  out->nsec = nsec;
  memcpy(out->abbr, "UTC", 4);
}

/* ---- POSIX TZ strings ---------------------------------------------------- */

typedef struct tz_rule {
  char type; /* 'J' 1..365 without Feb 29, 'N' 0..365, 'M' month.week.day */
  int m, n, d;
  int32_t secs; /* local time of day of the change */
} tz_rule;

typedef struct tz_posix {
  char name[2][TZ_ABBR_MAX]; /* standard, daylight */
  int32_t off[2];            /* seconds east of UTC */
  int has_dst;
  tz_rule rule[2]; /* start of daylight time, its end */
} tz_posix;

static void copy_abbr(char *dst, const char *s, size_t n) {
  if (n >= TZ_ABBR_MAX)
    n = TZ_ABBR_MAX - 1;
  memcpy(dst, s, n);
  dst[n] = 0;
}

/* Three or more letters, or <...> of letters, digits and signs. */
static int parse_name(const char **sp, char *out) {
  const char *s = *sp, *p = s;
  while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
    p++;
  if (p - s >= 3) {
    copy_abbr(out, s, (size_t)(p - s));
    *sp = p;
    return 1;
  }
  if (*s != '<')
    return 0;
  p = ++s;
  while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
         (*p >= '0' && *p <= '9') || *p == '+' || *p == '-')
    p++;
  if (*p != '>' || p - s < 3)
    return 0;
  copy_abbr(out, s, (size_t)(p - s));
  *sp = p + 1;
  return 1;
}

static int read_uint(const char **sp, unsigned *v) {
  const char *s = *sp;
  unsigned x = 0;
  int k = 0;
  while (*s >= '0' && *s <= '9') {
    if (x < 100000)
      x = x * 10 + (unsigned)(*s - '0');
    s++;
    k++;
  }
  if (!k)
    return 0;
  *v = x;
  *sp = s;
  return 1;
}

/* hh[:mm[:ss]]: returns seconds, or -1 when there are no digits. Each part
 * is clamped as glibc does (hours to max_h, the others to 59). */
static long read_hms(const char **sp, unsigned max_h) {
  unsigned h, m = 0, s = 0;
  if (!read_uint(sp, &h))
    return -1;
  if (**sp == ':' && (*sp)[1] >= '0' && (*sp)[1] <= '9') {
    (*sp)++;
    read_uint(sp, &m);
    if (**sp == ':' && (*sp)[1] >= '0' && (*sp)[1] <= '9') {
      (*sp)++;
      read_uint(sp, &s);
    }
  }
  if (h > max_h)
    h = max_h;
  return (long)h * 3600 + (long)(m > 59 ? 59 : m) * 60 + (s > 59 ? 59 : s);
}

/* An offset west of UTC as POSIX writes it; stored east of UTC. */
static int parse_offset(const char **sp, int32_t *off) {
  const char *s = *sp;
  int sign = -1;
  if (*s == '+' || *s == '-')
    sign = *s++ == '-' ? 1 : -1;
  long v = read_hms(&s, 24);
  if (v < 0)
    return 0;
  *off = (int32_t)(sign * v);
  *sp = s;
  return 1;
}

static int parse_rule(const char **sp, tz_rule *r, int first) {
  const char *s = *sp;
  unsigned v;
  if (*s == ',')
    s++;
  if (*s == 'J' || (*s >= '0' && *s <= '9')) {
    r->type = *s == 'J' ? 'J' : 'N';
    if (*s == 'J')
      s++;
    if (!read_uint(&s, &v) || v > 365 || (r->type == 'J' && v == 0))
      return 0;
    r->d = (int)v;
  } else if (*s == 'M') {
    unsigned m, n, d;
    s++;
    if (!read_uint(&s, &m) || *s++ != '.' || !read_uint(&s, &n) ||
        *s++ != '.' || !read_uint(&s, &d) || m < 1 || m > 12 || n < 1 ||
        n > 5 || d > 6)
      return 0;
    r->type = 'M';
    r->m = (int)m;
    r->n = (int)n;
    r->d = (int)d;
  } else if (!*s) {
    /* No rules at all: the United States' current ones. */
    r->type = 'M';
    r->m = first ? 3 : 11;
    r->n = first ? 2 : 1;
    r->d = 0;
  } else {
    return 0;
  }
  r->secs = 2 * 3600;
  if (*s == '/') {
    s++;
    int neg = *s == '-';
    if (*s == '-' || *s == '+')
      s++;
    long t = read_hms(&s, 167); /* RFC 8536 allows -167..167 hours */
    if (t < 0)
      return 0;
    r->secs = (int32_t)(neg ? -t : t);
  }
  if (*s && *s != ',')
    return 0;
  *sp = s;
  return 1;
}

/* Reads as much of s as glibc would: a name that cannot be read leaves an
 * empty one (UTC), an offset that cannot be read leaves 0. Returns 1 when
 * the whole string was valid. */
static int parse_posix(const char *s, tz_posix *p) {
  memset(p, 0, sizeof *p);
  p->rule[0] = p->rule[1] = (tz_rule){'N', 0, 0, 0, 0};
  if (!parse_name(&s, p->name[0]))
    return 0;
  if (!parse_offset(&s, &p->off[0]))
    return 0;
  if (!*s) {
    memcpy(p->name[1], p->name[0], sizeof p->name[0]);
    p->off[1] = p->off[0];
    return 1;
  }
  if (!parse_name(&s, p->name[1]))
    return 0;
  p->has_dst = 1;
  if (!parse_offset(&s, &p->off[1]))
    p->off[1] = p->off[0] + 3600; /* daylight time is an hour ahead */
  /* A rule that cannot be read leaves both changes at the start of the
   * year (glibc's zeroed rules), so the result matches a GNU system. */
  tz_rule r0 = {'N', 0, 0, 0, 0}, r1 = r0;
  if (!parse_rule(&s, &r0, 1) || !parse_rule(&s, &r1, 0) || *s) {
    p->rule[0] = p->rule[1] = (tz_rule){'N', 0, 0, 0, 0};
    return 0;
  }
  p->rule[0] = r0;
  p->rule[1] = r1;
  return 1;
}

/* UTC instant of rule r in year y, for a zone whose offset before the
 * change is off. */
static int64_t rule_change(const tz_rule *r, int64_t y, int32_t off) {
  int64_t day0 = tz_days_from_civil(y, 1, 1), yday;
  if (r->type == 'J') {
    yday = r->d - 1 + (is_leap(y) && r->d >= 60);
  } else if (r->type == 'N') {
    yday = r->d;
  } else {
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t first = tz_days_from_civil(y, r->m, 1);
    int wd1 = (int)(((first % 7) + 11) % 7);
    int day = 1 + (r->d - wd1 + 7) % 7 + (r->n - 1) * 7;
    int len = mdays[r->m - 1] + (r->m == 2 && is_leap(y));
    while (day > len)
      day -= 7;
    yday = first - day0 + day - 1;
  }
  return (day0 + yday) * 86400 + r->secs - off;
}

/* Which of p's two times (0 standard, 1 daylight) holds at t. */
static int posix_which(const tz_posix *p, int64_t t) {
  if (!p->has_dst)
    return 0;
  tz_tm f;
  fill_fields(t + p->off[0], &f);
  int64_t c0 = rule_change(&p->rule[0], f.year, p->off[0]);
  int64_t c1 = rule_change(&p->rule[1], f.year, p->off[1]);
  if (c0 > c1) /* southern hemisphere: daylight time spans the new year */
    return t < c1 || t >= c0;
  return t >= c0 && t < c1;
}

/* ---- zones --------------------------------------------------------------- */

typedef struct tz_type {
  int32_t off;
  int isdst;
  uint32_t abbr; /* index into abbrs */
} tz_type;

enum { ZONE_STATIC, ZONE_CACHED, ZONE_OWNED };

struct tz_zone {
  int kind;
  uint32_t ntrans, ntypes;
  int64_t *trans;    /* ascending UTC instants */
  unsigned char *ti; /* type index of each transition */
  tz_type *types;
  char *abbrs;
  int has_posix; /* times past the table (or all, without one) */
  tz_posix posix;
};

static const tz_zone utc_zone = {
    .kind = ZONE_STATIC,
    .has_posix = 1,
    .posix = {.name = {"UTC", "UTC"}},
};

const tz_zone *tz_utc(void) {
  return &utc_zone;
}

static void zone_free(tz_zone *z) {
  if (!z)
    return;
  free(z->trans);
  free(z->ti);
  free(z->types);
  free(z->abbrs);
  free(z);
}

void tz_close(const tz_zone *z) {
  if (z && z->kind == ZONE_OWNED)
    zone_free((tz_zone *)z);
}

/* ---- TZif ---------------------------------------------------------------- */

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         p[3];
}

static int64_t be64(const unsigned char *p) {
  return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

typedef struct tzif_counts {
  uint32_t isut, isstd, leap, time, type, chr;
} tzif_counts;

/* The size of a data block, or SIZE_MAX when a count is past n bytes. */
static size_t tzif_block(const unsigned char *h, size_t n, int tsize,
                         tzif_counts *c) {
  c->isut = be32(h + 20);
  c->isstd = be32(h + 24);
  c->leap = be32(h + 28);
  c->time = be32(h + 32);
  c->type = be32(h + 36);
  c->chr = be32(h + 40);
  if (c->isut > n || c->isstd > n || c->leap > n || c->time > n ||
      c->type > n || c->chr > n)
    return SIZE_MAX;
  return (size_t)c->time * (size_t)(tsize + 1) + (size_t)c->type * 6 + c->chr +
         (size_t)c->leap * (size_t)(tsize + 4) + c->isstd + c->isut;
}

static tz_zone *parse_tzif(const unsigned char *d, size_t n) {
  if (n < 44 || memcmp(d, "TZif", 4))
    return NULL;
  tzif_counts c;
  size_t size = tzif_block(d, n, 4, &c);
  if (size == SIZE_MAX)
    return NULL;
  const unsigned char *h = d, *end = d + n;
  int tsize = 4;
  if (d[4] >= '2') {
    /* Skip the 32-bit block: the 64-bit one follows it. */
    if (size > n - 44 || n - 44 - size < 44)
      return NULL;
    h = d + 44 + size;
    if (memcmp(h, "TZif", 4))
      return NULL;
    tsize = 8;
    size = tzif_block(h, (size_t)(end - h), 8, &c);
    if (size == SIZE_MAX)
      return NULL;
  }
  const unsigned char *p = h + 44;
  if (c.type < 1 || c.type > 256 || c.chr < 1 || size > (size_t)(end - p) ||
      (c.isstd && c.isstd != c.type) || (c.isut && c.isut != c.type))
    return NULL;
  tz_zone *z = calloc(1, sizeof *z);
  if (!z)
    return NULL;
  z->kind = ZONE_OWNED;
  z->ntrans = c.time;
  z->ntypes = c.type;
  z->trans = malloc((c.time ? c.time : 1) * sizeof *z->trans);
  z->ti = malloc(c.time ? c.time : 1);
  z->types = malloc(c.type * sizeof *z->types);
  z->abbrs = malloc((size_t)c.chr + 1);
  if (!z->trans || !z->ti || !z->types || !z->abbrs)
    goto bad;
  for (uint32_t i = 0; i < c.time; i++, p += tsize) {
    z->trans[i] = tsize == 8 ? be64(p) : (int32_t)be32(p);
    if (i && z->trans[i] <= z->trans[i - 1])
      goto bad;
  }
  for (uint32_t i = 0; i < c.time; i++, p++) {
    if (*p >= c.type)
      goto bad;
    z->ti[i] = *p;
  }
  for (uint32_t i = 0; i < c.type; i++, p += 6) {
    int32_t off = (int32_t)be32(p);
    /* More than a day and a bit away from UTC is not a zone. */
    if (off < -26 * 3600 || off > 26 * 3600 || p[4] > 1 || p[5] >= c.chr)
      goto bad;
    z->types[i] = (tz_type){off, p[4], p[5]};
  }
  memcpy(z->abbrs, p, c.chr);
  z->abbrs[c.chr] = 0;
  p += size - ((size_t)c.time * (size_t)(tsize + 1) + (size_t)c.type * 6);
  /* The footer: "\nPOSIX-TZ\n" (version 2 and later). */
  if (tsize == 8 && p < end && *p == '\n') {
    const unsigned char *nl = memchr(p + 1, '\n', (size_t)(end - p - 1));
    size_t len = nl ? (size_t)(nl - p - 1) : 0;
    if (len && len < 128) {
      char s[128];
      memcpy(s, p + 1, len);
      s[len] = 0;
      z->has_posix = parse_posix(s, &z->posix);
    }
  }
  return z;
bad:
  zone_free(z);
  return NULL;
}

/* ---- the zone directory and the cache ------------------------------------ */

static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static char zone_dir[PATH_MAX];  /* as configured */
static char zone_real[PATH_MAX]; /* resolved, "" when missing */

static void dir_init(void) {
  const char *d = getenv("TZDIR");
  if (!d || d[0] != '/' || strlen(d) >= sizeof zone_dir - 1)
    d = "/usr/share/zoneinfo";
  strcpy(zone_dir, d);
  size_t l = strlen(zone_dir);
  while (l > 1 && zone_dir[l - 1] == '/')
    zone_dir[--l] = 0;
  if (!realpath(zone_dir, zone_real))
    zone_real[0] = 0;
}

const char *tz_dir(void) {
  pthread_once(&dir_once, dir_init);
  return zone_dir;
}

/* The name relative to the zone directory, or NULL when it cannot name a
 * file there: empty, too long, odd bytes, "." or ".." components, or an
 * absolute path elsewhere. */
static const char *zone_rel(const char *name) {
  if (name[0] == '/') {
    const char *dir = tz_dir();
    size_t dl = strlen(dir);
    if (strncmp(name, dir, dl) || name[dl] != '/')
      return NULL;
    name += dl + 1;
  }
  size_t n = strlen(name);
  if (!n || n > 255)
    return NULL;
  const char *comp = name;
  for (size_t i = 0; i <= n; i++) {
    char ch = name[i];
    if (ch == '/' || ch == 0) {
      size_t cl = (size_t)(name + i - comp);
      if (cl == 0 || (cl == 1 && comp[0] == '.') ||
          (cl == 2 && comp[0] == '.' && comp[1] == '.'))
        return NULL;
      comp = name + i + 1;
      continue;
    }
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
          (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '+' ||
          ch == '.'))
      return NULL;
  }
  return name;
}

/* Reads and parses the zone file rel, or NULL. Symlinks inside the
 * directory are followed; a file that resolves outside it is refused. */
static tz_zone *load_zone(const char *rel) {
  const char *dir = tz_dir();
  if (!zone_real[0])
    return NULL;
  char path[PATH_MAX], real[PATH_MAX];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel) >= sizeof path)
    return NULL;
  if (!realpath(path, real))
    return NULL;
  size_t rl = strlen(zone_real);
  if (strncmp(real, zone_real, rl) || (real[rl] != '/' && rl > 1))
    return NULL;
  int fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return NULL;
  struct stat st;
  tz_zone *z = NULL;
  unsigned char *data = NULL;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 44 ||
      st.st_size > TZ_FILE_MAX)
    goto out;
  size_t n = (size_t)st.st_size, got = 0;
  if (!(data = malloc(n)))
    goto out;
  while (got < n) {
    ssize_t r = read(fd, data + got, n - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  z = parse_tzif(data, got);
out:
  free(data);
  close(fd);
  return z;
}

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
  char *name;
  tz_zone *z;
} cache[TZ_CACHE_MAX];
static size_t ncache;

static const tz_zone *cache_find(const char *rel) {
  const tz_zone *z = NULL;
  pthread_mutex_lock(&cache_mu);
  for (size_t i = 0; i < ncache && !z; i++)
    if (!strcmp(cache[i].name, rel))
      z = cache[i].z;
  pthread_mutex_unlock(&cache_mu);
  return z;
}

/* Keeps z for the process, or hands back the copy another thread kept
 * first. When the cache is full, z stays the caller's. */
static const tz_zone *cache_add(const char *rel, tz_zone *z) {
  pthread_mutex_lock(&cache_mu);
  for (size_t i = 0; i < ncache; i++) {
    if (!strcmp(cache[i].name, rel)) {
      const tz_zone *old = cache[i].z;
      pthread_mutex_unlock(&cache_mu);
      zone_free(z);
      return old;
    }
  }
  char *name = ncache < TZ_CACHE_MAX ? strdup(rel) : NULL;
  if (name) {
    z->kind = ZONE_CACHED;
    cache[ncache].name = name;
    cache[ncache].z = z;
    ncache++;
  }
  pthread_mutex_unlock(&cache_mu);
  return z;
}

const tz_zone *tz_open(const char *tzval) {
  if (!tzval)
    return &utc_zone;
  const char *name = tzval[0] == ':' ? tzval + 1 : tzval;
  if (!*name)
    return &utc_zone;
  const char *rel = zone_rel(name);
  if (rel) {
    const tz_zone *z = cache_find(rel);
    if (z)
      return z;
    tz_zone *nz = load_zone(rel);
    if (nz)
      return cache_add(rel, nz);
  }
  tz_zone *z = calloc(1, sizeof *z);
  if (!z)
    return &utc_zone;
  z->kind = ZONE_OWNED;
  z->has_posix = 1;
  parse_posix(name, &z->posix);
  return z;
}

/* ---- conversions --------------------------------------------------------- */

/* Offset, daylight flag and abbreviation in effect at t. */
static int32_t zone_at(const tz_zone *z, int64_t t, int *isdst,
                       const char **abbr) {
  const tz_posix *p = &z->posix;
  if (z->ntypes == 0 ||
      (z->has_posix && (z->ntrans == 0 || t >= z->trans[z->ntrans - 1]))) {
    int w = posix_which(p, t);
    *isdst = w;
    *abbr = p->name[w];
    return p->off[w];
  }
  const tz_type *ty;
  if (z->ntrans == 0 || t < z->trans[0]) {
    ty = &z->types[0];
  } else {
    uint32_t lo = 0, hi = z->ntrans; /* trans[lo] <= t < trans[hi] */
    while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (z->trans[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
    ty = &z->types[z->ti[lo]];
  }
  *isdst = ty->isdst;
  *abbr = z->abbrs + ty->abbr;
  return ty->off;
}

/* Instants far enough from the ends of int64 that adding an offset or a
 * few days cannot overflow. */
#define TZ_T_LIMIT ((int64_t)1 << 60)

void tz_localtime(const tz_zone *z, int64_t t, long nsec, tz_tm *out) {
  if (!z)
    z = &utc_zone;
  if (t > TZ_T_LIMIT)
    t = TZ_T_LIMIT;
  if (t < -TZ_T_LIMIT)
    t = -TZ_T_LIMIT;
  int isdst;
  const char *abbr;
  int32_t off = zone_at(z, t, &isdst, &abbr);
  memset(out, 0, sizeof *out);
  fill_fields(t + off, out);
  out->epoch = t;
  out->nsec = nsec;
  out->isdst = isdst;
  out->gmtoff = off;
  copy_abbr(out->abbr, abbr, strlen(abbr));
}

int tz_mktime(const tz_zone *z, int64_t y, int64_t mon, int64_t mday,
              int64_t hour, int64_t min, int64_t sec, int isdst, int64_t *out) {
  if (!z)
    z = &utc_zone;
  const int64_t big = (int64_t)1 << 40, ybig = (int64_t)1 << 33;
  if (y < -ybig || y > ybig || mon < -big || mon > big || mday < -big ||
      mday > big || hour < -big || hour > big || min < -big || min > big ||
      sec < -big || sec > big)
    return -1;
  int64_t local =
      tz_days_from_civil(y, mon, mday) * 86400 + hour * 3600 + min * 60 + sec;
  if (local > TZ_T_LIMIT || local < -TZ_T_LIMIT)
    return -1;
  /* Where two instants read the same, glibc's mktime (which GNU date and
   * touch use) ends at the one its search from offset 0 reaches first:
   * follow the same chain, so the choice matches a GNU system. */
  int dst0;
  const char *a0;
  int32_t o0 = zone_at(z, local, &dst0, &a0);
  for (int i = 0; i < 6 && isdst < 0; i++) {
    int32_t o1 = zone_at(z, local - o0, &dst0, &a0);
    if (o1 == o0) {
      *out = local - o0;
      return 0;
    }
    o0 = o1;
  }
  /* The offsets that could apply: those in effect around the local time
   * read as UTC, and what they lead to. Each candidate offset o gives the
   * instant local - o, which is a solution when o is in effect then. */
  int32_t cand[6];
  int nc = 0, d;
  const char *a;
  int32_t o = zone_at(z, local, &d, &a);
  cand[nc++] = o;
  cand[nc++] = zone_at(z, local - o, &d, &a);
  cand[nc++] = zone_at(z, local - cand[1], &d, &a);
  cand[nc++] = zone_at(z, local - 86400, &d, &a);
  cand[nc++] = zone_at(z, local + 86400, &d, &a);
  int found = 0, best_dst = 0;
  int64_t best = 0;
  for (int i = 0; i < nc; i++) {
    int dup = 0;
    for (int j = 0; j < i; j++)
      dup |= cand[j] == cand[i];
    if (dup)
      continue;
    int64_t t = local - cand[i];
    int dst;
    if (zone_at(z, t, &dst, &a) != cand[i])
      continue;
    int better;
    if (!found)
      better = 1;
    else if (isdst >= 0 && (dst == isdst) != (best_dst == isdst))
      better = dst == isdst;
    else
      better = t < best;
    if (better) {
      best = t;
      best_dst = dst;
      found = 1;
    }
  }
  if (!found)
    return -1;
  *out = best;
  return 0;
}
