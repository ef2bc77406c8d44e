/*
 * tz.h - time zones for the sandbox, without the C library's.
 *
 * A script's TZ must never reach the host process: setenv("TZ") plus
 * tzset() would change the zone of every thread of the embedder, and
 * localtime_r would read whatever file the script names. So zones are
 * parsed here and converted with explicit zone objects:
 *
 * - a POSIX TZ string ("UTC0", "EST5EDT,M3.2.0,M11.1.0", "<+03>-3"),
 * - an IANA name ("America/New_York", "Etc/GMT+5"), read by the library
 *   from the host's compiled zone data (TZif files under TZDIR of the host
 *   process, else /usr/share/zoneinfo). Names are checked first: no "..",
 *   no empty or "." component, no absolute path outside that directory,
 *   nothing that resolves (through symlinks) outside it, regular files of
 *   a bounded size only. Parsed files are cached for the whole process
 *   under a mutex, at most TZ_CACHE_MAX of them; they never change once
 *   cached, so readers need no lock.
 *
 * Lookup follows glibc: a value (after an optional ':') is first tried as
 * a file name; if that fails it is read as a POSIX string, as far as it
 * goes, so "Foo/Bar" is UTC named "Foo" and "../x" is UTC with an empty
 * name, exactly what `TZ=... date` prints on a GNU system.
 *
 * Every function is thread-safe and leaves the process's TZ and environ
 * alone.
 */
#ifndef VSH_CORE_TZ_H
#define VSH_CORE_TZ_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define TZ_ABBR_MAX 32           /* longest abbreviation kept, with its NUL */
#define TZ_CACHE_MAX 128         /* zone files kept parsed for the process */
#define TZ_FILE_MAX (256 * 1024) /* larger zone files are refused */

typedef struct tz_zone tz_zone;

/* Broken-down time in a zone. */
typedef struct tz_tm {
  int64_t year;
  int mon; /* 1..12 */
  int mday, hour, min, sec;
  int wday;       /* 0 = Sunday */
  int yday;       /* 0..365 */
  int isdst;      /* 1 in daylight saving time */
  int32_t gmtoff; /* seconds east of UTC */
  long nsec;
  int64_t epoch; /* the instant, seconds since 1970 UTC (for %s) */
  char abbr[TZ_ABBR_MAX];
} tz_tm;

/* The zone a TZ value names. NULL names UTC (the sandbox's default when a
 * script sets no TZ). Never returns NULL: out of memory gives UTC. Pass
 * the result to tz_close. */
const tz_zone *tz_open(const char *tzval);
void tz_close(const tz_zone *z);
/* Built into the library: UTC named "UTC" (never needs tz_close). */
const tz_zone *tz_utc(void);

/* The local time of t (+ nsec) in z. */
void tz_localtime(const tz_zone *z, int64_t t, long nsec, tz_tm *out);
/* The instant at which local time in z reads y-mon-mday hour:min:sec
 * (fields out of range carry over, as in mktime). When the local time
 * occurs twice, isdst picks (1 daylight time, 0 standard time) or, when
 * -1, the earlier. Returns 0, or -1 when that local time never happens
 * (skipped by a forward jump) or is out of range. */
int tz_mktime(const tz_zone *z, int64_t y, int64_t mon, int64_t mday,
              int64_t hour, int64_t min, int64_t sec, int isdst, int64_t *out);

/* UTC calendar helpers. */
int64_t tz_days_from_civil(int64_t y, int64_t m, int64_t d);
void tz_civil(int64_t t, long nsec, tz_tm *out); /* UTC, abbr "UTC" */

/* strftime over a tz_tm, independent of the host's locale and zone. The
 * GNU extensions (%N, %q, %:z, %::z, %:::z) apply with TZ_FMT_GNU (date,
 * ls, stat, find); without it they are copied as written, like glibc's
 * strftime (printf's %(...)T). Flags - _ 0 ^ # and widths both ways. */
enum { TZ_FMT_GNU = 1 };
void tz_format(buf *o, const char *fmt, const tz_tm *t, unsigned flags);

/* For tests: the directory zone files are read from (TZDIR of the host
 * process at first use, else /usr/share/zoneinfo). */
const char *tz_dir(void);

#endif
