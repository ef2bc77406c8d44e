// layers: core
/* Unit tests of core/tz: POSIX TZ strings, TZif files (the host's zone
 * data, copied into a directory of our own with some hostile entries
 * beside them), local time and its inverse around daylight saving changes,
 * names that must not reach outside the zone directory, formatting, and
 * the process-wide cache used from several threads. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/buf.h"
#include "core/mem.h"
#include "core/tz.h"

static char dir[256];
static int have_data; /* the host's zone files could be copied */

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  if (!in)
    return;
  FILE *out = fopen(to, "wb");
  char b[4096];
  size_t n;
  while (out && (n = fread(b, 1, sizeof b, in)) > 0)
    fwrite(b, 1, n, out);
  fclose(in);
  if (out)
    fclose(out);
}

static void put_file(const char *name, const void *data, size_t n) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  fwrite(data, 1, n, f);
  fclose(f);
}

static void be32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

/* A version 1 file: "AAA" (UTC) until 10^9, then "BBB" one hour east. */
static size_t make_v1(unsigned char *d) {
  memset(d, 0, 44);
  memcpy(d, "TZif", 4);
  be32(d + 32, 1); /* timecnt */
  be32(d + 36, 2); /* typecnt */
  be32(d + 40, 8); /* charcnt */
  unsigned char *p = d + 44;
  be32(p, 1000000000);
  p += 4;
  *p++ = 1;
  be32(p, 0);
  p[4] = 0;
  p[5] = 0;
  p += 6;
  be32(p, 3600);
  p[4] = 1;
  p[5] = 4;
  p += 6;
  memcpy(p, "AAA\0BBB\0", 8);
  return (size_t)(p + 8 - d);
}

/* The zone directory is fixed at first use, so it is set up once, before
 * any test runs. */
static int setup_dir(void **st) {
  (void)st;
  snprintf(dir, sizeof dir, "/tmp/vsh-tz-test-%ld", (long)getpid());
  mkdir(dir, 0755);
  char p[512];
  snprintf(p, sizeof p, "%s/America", dir);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/Europe", dir);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/Asia", dir);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/Etc", dir);
  mkdir(p, 0755);
  static const char *const zones[] = {"America/New_York", "Europe/Berlin",
                                      "Asia/Kolkata", "Etc/GMT+5", "UTC"};
  have_data = 1;
  for (size_t i = 0; i < sizeof zones / sizeof zones[0]; i++) {
    char from[256], to[512];
    snprintf(from, sizeof from, "/usr/share/zoneinfo/%s", zones[i]);
    snprintf(to, sizeof to, "%s/%s", dir, zones[i]);
    copy_file(from, to);
    if (access(to, R_OK))
      have_data = 0;
  }
  /* Hostile entries. */
  snprintf(p, sizeof p, "%s/evil", dir);
  if (symlink("/etc/passwd", p))
    return -1;
  snprintf(p, sizeof p, "%s/fifo", dir);
  mkfifo(p, 0644);
  unsigned char v1[128];
  size_t n = make_v1(v1);
  put_file("v1zone", v1, n);
  put_file("trunc", v1, n - 10);
  /* Counts that claim more than the file holds. */
  be32(v1 + 32, 200);
  put_file("liarA", v1, n);
  be32(v1 + 32, 10);
  put_file("liarB", v1, n);
  be32(v1 + 32, 1);
  unsigned char *big = calloc(1, TZ_FILE_MAX + 100);
  assert_non_null(big);
  memcpy(big, v1, n);
  put_file("big", big, TZ_FILE_MAX + 100);
  free(big);
  setenv("TZDIR", dir, 1);
  assert_string_equal(tz_dir(), dir);
  return 0;
}

static int teardown_dir(void **st) {
  (void)st;
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Local time of t in zone name: "YYYY-MM-DD HH:MM:SS ABBR +hhmm". */
static const char *show(const char *name, int64_t t) {
  static char out[128];
  const tz_zone *z = tz_open(name);
  tz_tm tm;
  tz_localtime(z, t, 0, &tm);
  tz_close(z);
  mem *m = mem_new(NULL, NULL, 0);
  buf b;
  buf_init(&b, m);
  tz_format(&b, "%F %T %Z %z", &tm, TZ_FMT_GNU);
  snprintf(out, sizeof out, "%s", buf_cstr(&b));
  buf_free(&b);
  mem_unref(m);
  return out;
}

/* The instant of a local time, or INT64_MIN when it never happens. */
static int64_t inst(const char *name, int y, int mo, int d, int h, int mi,
                    int s) {
  const tz_zone *z = tz_open(name);
  int64_t t;
  int rc = tz_mktime(z, y, mo, d, h, mi, s, -1, &t);
  tz_close(z);
  return rc ? INT64_MIN : t;
}

static void test_posix_strings(void **st) {
  (void)st;
  assert_string_equal(show(NULL, 1700000000), "2023-11-14 22:13:20 UTC +0000");
  assert_string_equal(show("UTC0", 1700000000),
                      "2023-11-14 22:13:20 UTC +0000");
  assert_string_equal(show(":", 0), "1970-01-01 00:00:00 UTC +0000");
  assert_string_equal(show("", 0), "1970-01-01 00:00:00 UTC +0000");
  assert_string_equal(show("<+03>-3", 1700000000),
                      "2023-11-15 01:13:20 +03 +0300");
  assert_string_equal(show("<-0330>3:30", 0),
                      "1969-12-31 20:30:00 -0330 -0330");
  /* US rules, spelled out: DST from 2023-03-12 07:00 UTC to 11-05 06:00. */
  const char *us = "EST5EDT,M3.2.0,M11.1.0";
  assert_string_equal(show(us, 1678604399), "2023-03-12 01:59:59 EST -0500");
  assert_string_equal(show(us, 1678604400), "2023-03-12 03:00:00 EDT -0400");
  assert_string_equal(show(us, 1699163999), "2023-11-05 01:59:59 EDT -0400");
  assert_string_equal(show(us, 1699164000), "2023-11-05 01:00:00 EST -0500");
  /* Southern hemisphere: daylight time spans the new year. */
  const char *nz = "NZST-12NZDT,M9.5.0,M4.1.0/3";
  assert_string_equal(show(nz, 1704067200), "2024-01-01 13:00:00 NZDT +1300");
  assert_string_equal(show(nz, 1719792000), "2024-07-01 12:00:00 NZST +1200");
  /* Julian days: J60 is March 1 in every year. */
  assert_string_equal(show("AAA0BBB,J60/0,J300/0", 1709251200),
                      "2024-03-01 01:00:00 BBB +0100");
}

static void test_unknown_names(void **st) {
  (void)st;
  /* As glibc: what reads as a name is kept, the offset is 0. */
  assert_string_equal(show("Foo/Bar", 1700000000),
                      "2023-11-14 22:13:20 Foo +0000");
  assert_string_equal(show("Nowhere/Land", 0),
                      "1970-01-01 00:00:00 Nowhere +0000");
  assert_string_equal(show("AB", 0), "1970-01-01 00:00:00  +0000");
  assert_string_equal(show("ABCD4", 0), "1969-12-31 20:00:00 ABCD -0400");
  /* An unreadable rule leaves both changes at the start of the year,
   * which makes (as on a GNU system) nearly the whole year daylight. */
  assert_string_equal(show("EST5EDT,garbage", 0),
                      "1969-12-31 20:00:00 EDT -0400");
}

static void test_hostile_names(void **st) {
  (void)st;
  static const char *const bad[] = {"../../etc/passwd",
                                    "/etc/passwd",
                                    ":/etc/passwd",
                                    "America/../../../etc/passwd",
                                    "./UTC",
                                    "America//New_York",
                                    "evil",
                                    "fifo",
                                    "big",
                                    "liarA",
                                    "liarB",
                                    "."};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const tz_zone *z = tz_open(bad[i]);
    tz_tm tm;
    tz_localtime(z, 1700000000, 0, &tm);
    tz_close(z);
    assert_int_equal(tm.gmtoff, 0);
    assert_int_equal(tm.hour, 22);
  }
  /* A name read as a POSIX string after the file is refused. */
  assert_string_equal(show("evil", 0), "1970-01-01 00:00:00 evil +0000");
  assert_string_equal(show("trunc", 0), "1970-01-01 00:00:00 trunc +0000");
  assert_string_equal(show("../../etc/passwd", 0),
                      "1970-01-01 00:00:00  +0000");
  char *long_name = malloc(5000);
  assert_non_null(long_name);
  memset(long_name, 'A', 4999);
  long_name[4999] = 0;
  const tz_zone *z = tz_open(long_name);
  tz_tm tm;
  tz_localtime(z, 0, 0, &tm);
  tz_close(z);
  free(long_name);
  assert_int_equal(tm.gmtoff, 0);
  assert_int_equal((int)strlen(tm.abbr), TZ_ABBR_MAX - 1);
}

static void test_tzif_v1(void **st) {
  (void)st;
  assert_string_equal(show("v1zone", 999999999),
                      "2001-09-09 01:46:39 AAA +0000");
  assert_string_equal(show("v1zone", 1000000000),
                      "2001-09-09 02:46:40 BBB +0100");
  assert_string_equal(show(":v1zone", 2000000000),
                      "2033-05-18 04:33:20 BBB +0100");
}

static void test_new_york(void **st) {
  (void)st;
  if (!have_data)
    skip();
  const char *ny = "America/New_York";
  assert_string_equal(show(ny, 1700000000), "2023-11-14 17:13:20 EST -0500");
  assert_string_equal(show(ny, 1678604399), "2023-03-12 01:59:59 EST -0500");
  assert_string_equal(show(ny, 1678604400), "2023-03-12 03:00:00 EDT -0400");
  assert_string_equal(show(ny, 1699163999), "2023-11-05 01:59:59 EDT -0400");
  assert_string_equal(show(ny, 1699164000), "2023-11-05 01:00:00 EST -0500");
  /* Past the table: the footer's rule. */
  assert_string_equal(show(ny, 4118054400), "2100-06-30 12:00:00 EDT -0400");
  /* Before standard time: local mean time. */
  assert_string_equal(show(ny, -3000000000), "1874-12-07 13:43:58 LMT -0456");
  /* The skipped hour does not exist; the repeated one is read as GNU
   * date reads it (daylight time first). */
  assert_true(inst(ny, 2023, 3, 12, 2, 30, 0) == INT64_MIN);
  assert_int_equal(inst(ny, 2023, 3, 12, 3, 0, 0), 1678604400);
  assert_int_equal(inst(ny, 2023, 11, 5, 1, 30, 0), 1699162200);
  assert_int_equal(inst(ny, 2023, 11, 5, 2, 0, 0), 1699167600);
  /* Fields out of range carry over. */
  assert_int_equal(inst(ny, 2023, 11, 14, 17, 13, 20), 1700000000);
  assert_int_equal(inst(ny, 2023, 10, 45, 17, 13, 20), 1700000000);
  /* isdst picks among two equal local times. */
  const tz_zone *z = tz_open(ny);
  int64_t t;
  assert_int_equal(tz_mktime(z, 2023, 11, 5, 1, 30, 0, 0, &t), 0);
  assert_int_equal(t, 1699165800);
  assert_int_equal(tz_mktime(z, 2023, 11, 5, 1, 30, 0, 1, &t), 0);
  assert_int_equal(t, 1699162200);
  tz_close(z);
}

static void test_berlin_and_kolkata(void **st) {
  (void)st;
  if (!have_data)
    skip();
  const char *be = "Europe/Berlin";
  assert_string_equal(show(be, 1679792399), "2023-03-26 01:59:59 CET +0100");
  assert_string_equal(show(be, 1679792400), "2023-03-26 03:00:00 CEST +0200");
  assert_string_equal(show(be, 1698541199), "2023-10-29 02:59:59 CEST +0200");
  assert_string_equal(show(be, 1698541200), "2023-10-29 02:00:00 CET +0100");
  assert_true(inst(be, 2023, 3, 26, 2, 30, 0) == INT64_MIN);
  /* glibc's choice for the repeated hour here is standard time. */
  assert_int_equal(inst(be, 2023, 10, 29, 2, 30, 0), 1698543000);
  const char *in = "Asia/Kolkata";
  assert_string_equal(show(in, 1700000000), "2023-11-15 03:43:20 IST +0530");
  assert_int_equal(inst(in, 2023, 11, 15, 3, 43, 20), 1700000000);
  assert_string_equal(show("Etc/GMT+5", 1700000000),
                      "2023-11-14 17:13:20 -05 -0500");
  char abs[512];
  snprintf(abs, sizeof abs, "%s/Europe/Berlin", dir);
  assert_string_equal(show(abs, 1700000000), "2023-11-14 23:13:20 CET +0100");
  assert_string_equal(show(":UTC", 0), "1970-01-01 00:00:00 UTC +0000");
}

static void test_format(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  buf b;
  buf_init(&b, m);
  tz_tm tm;
  const tz_zone *z = tz_open("<+0530>-5:30");
  tz_localtime(z, 1700000000, 123456789, &tm);
  tz_close(z);
  tz_format(&b, "%z %:z %::z %:::z %N %3N %q %^a %#Z %_5d|%-m|%s", &tm,
            TZ_FMT_GNU);
  assert_string_equal(buf_cstr(&b), "+0530 +05:30 +05:30:00 +05:30 123456789 "
                                    "123 4 WED +0530    15|11|1700000000");
  buf_clear(&b);
  /* Without the GNU extensions they are copied, as glibc's strftime does. */
  tz_format(&b, "%:z %N %q %z", &tm, 0);
  assert_string_equal(buf_cstr(&b), "%:z %N %q +0530");
  buf_clear(&b);
  tz_civil(-1, 0, &tm);
  tz_format(&b, "%F %T %Z %j %U %V %G", &tm, TZ_FMT_GNU);
  assert_string_equal(buf_cstr(&b), "1969-12-31 23:59:59 UTC 365 52 01 1970");
  buf_free(&b);
  mem_unref(m);
}

static void *thread_main(void *arg) {
  const char *name = arg;
  for (int i = 0; i < 300; i++) {
    const tz_zone *z = tz_open(name);
    tz_tm tm;
    tz_localtime(z, 1700000000 + i, 0, &tm);
    int64_t t;
    int ok = tz_mktime(z, tm.year, tm.mon, tm.mday, tm.hour, tm.min, tm.sec,
                       tm.isdst, &t) == 0 &&
             t == 1700000000 + i;
    tz_close(z);
    if (!ok)
      return (void *)1;
  }
  return NULL;
}

static void test_threads(void **st) {
  (void)st;
  static char *const names[] = {"Europe/Berlin", "America/New_York",
                                "Asia/Kolkata",  "EST5EDT,M3.2.0,M11.1.0",
                                "v1zone",        "Nowhere/Land"};
  pthread_t th[6];
  for (int i = 0; i < 6; i++)
    assert_int_equal(pthread_create(&th[i], NULL, thread_main, names[i]), 0);
  for (int i = 0; i < 6; i++) {
    void *r;
    pthread_join(th[i], &r);
    assert_null(r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_posix_strings),
      cmocka_unit_test(test_unknown_names),
      cmocka_unit_test(test_hostile_names),
      cmocka_unit_test(test_tzif_v1),
      cmocka_unit_test(test_new_york),
      cmocka_unit_test(test_berlin_and_kolkata),
      cmocka_unit_test(test_format),
      cmocka_unit_test(test_threads),
  };
  return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
