// layers: core vfs builtins shell
/* Unit tests of the second batch of coreutils: tac, rev, whoami, hostname,
 * id, uname, sleep, date, which, od, comm, paste, nl, fold, expand,
 * unexpand, base64, the checksums, mktemp and timeout. Expected outputs were
 * checked against GNU coreutils 9.1 (util-linux rev, debianutils which). */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

#include <openssl/evp.h>

#include "bi_harness.h"

#define RUN(h, in, ...) bh_run(h, in, __VA_ARGS__, NULL)
#define OUT_IS(h, s) assert_string_equal(bh_out(h), s)
#define ERR_IS(h, s) assert_string_equal(bh_err(h), s)

static void t_tac(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "a\nb\nc", "tac"), 0);
  OUT_IS(h, "cb\na\n");
  RUN(h, "a\nb\nc\n", "tac", "-b");
  OUT_IS(h, "\n\nc\nba");
  RUN(h, "aXYbXYc", "tac", "-s", "XY");
  OUT_IS(h, "cbXYaXY");
  RUN(h, "a1b22c", "tac", "-r", "-s", "[0-9]");
  OUT_IS(h, "c2b2a1");
  bh_write(h, "f", "1\n2\n");
  RUN(h, "x\n", "tac", "f", "-");
  OUT_IS(h, "2\n1\nx\n");
  h->stdin_chunk = 3;
  RUN(h, "one\ntwo\nthree\n", "tac");
  OUT_IS(h, "three\ntwo\none\n");
  h->stdin_chunk = 0;
  assert_int_equal(RUN(h, NULL, "tac", "nofile"), 1);
  ERR_IS(h, "tac: failed to open 'nofile' for reading: No such file or "
            "directory\n");
  assert_int_equal(RUN(h, NULL, "tac", "--bogus"), 1);
  ERR_IS(h, "tac: unrecognized option '--bogus'\n"
            "Try 'tac --help' for more information.\n");
  bh_free(h);
}

static void t_rev(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "abc\nde\n\xc3\xa9x", "rev"), 0);
  OUT_IS(h, "cba\ned\nx\xc3\xa9");
  assert_int_equal(RUN(h, NULL, "rev", "nofile"), 1);
  ERR_IS(h, "rev: cannot open nofile: No such file or directory\n");
  bh_free(h);
}

static void t_ids(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, NULL, "whoami"), 0);
  OUT_IS(h, "user\n");
  assert_int_equal(RUN(h, NULL, "whoami", "x"), 1);
  ERR_IS(h, "whoami: extra operand 'x'\n"
            "Try 'whoami --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "hostname"), 0);
  OUT_IS(h, "localhost\n");
  assert_int_equal(RUN(h, NULL, "hostname", "other"), 1);
  ERR_IS(h, "hostname: you must be root to change the host name\n");
  assert_int_equal(RUN(h, NULL, "id"), 0);
  OUT_IS(h, "uid=1000(user) gid=1000(user) groups=1000(user)\n");
  RUN(h, NULL, "id", "-u");
  OUT_IS(h, "1000\n");
  RUN(h, NULL, "id", "-un");
  OUT_IS(h, "user\n");
  RUN(h, NULL, "id", "-gn");
  OUT_IS(h, "user\n");
  RUN(h, NULL, "id", "-G");
  OUT_IS(h, "1000\n");
  RUN(h, NULL, "id", "root");
  OUT_IS(h, "uid=0(root) gid=0(root) groups=0(root)\n");
  assert_int_equal(RUN(h, NULL, "id", "-u", "-g"), 1);
  ERR_IS(h, "id: cannot print \"only\" of more than one choice\n");
  assert_int_equal(RUN(h, NULL, "id", "-n"), 1);
  ERR_IS(h, "id: cannot print only names or real IDs in default format\n");
  assert_int_equal(RUN(h, NULL, "id", "nosuch"), 1);
  ERR_IS(h, "id: 'nosuch': no such user\n");
  assert_int_equal(RUN(h, NULL, "id", "-x"), 1);
  ERR_IS(h, "id: invalid option -- 'x'\nTry 'id --help' for more "
            "information.\n");
  bh_free(h);
}

static void t_uname(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, NULL, "uname"), 0);
  OUT_IS(h, "Linux\n");
  RUN(h, NULL, "uname", "-snro");
  OUT_IS(h, "Linux localhost 6.1.0-vsh GNU/Linux\n");
  RUN(h, NULL, "uname", "-a");
  assert_non_null(strstr(bh_out(h), "Linux localhost 6.1.0-vsh #1"));
  assert_non_null(strstr(bh_out(h), " GNU/Linux\n"));
  RUN(h, NULL, "uname", "-p", "-i");
  OUT_IS(h, "unknown unknown\n");
  assert_int_equal(RUN(h, NULL, "uname", "a"), 1);
  ERR_IS(h, "uname: extra operand 'a'\n"
            "Try 'uname --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "uname", "-x"), 1);
  bh_free(h);
}

static int64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void t_sleep(void **st) {
  (void)st;
  bh *h = bh_new();
  int64_t t0 = mono_ms();
  assert_int_equal(RUN(h, NULL, "sleep", "0.05", "0.01s"), 0);
  int64_t dt = mono_ms() - t0;
  assert_true(dt >= 60 && dt < 2000);
  assert_int_equal(RUN(h, NULL, "sleep", "0"), 0);
  assert_int_equal(RUN(h, NULL, "sleep"), 1);
  ERR_IS(h, "sleep: missing operand\n"
            "Try 'sleep --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "sleep", "1x"), 1);
  ERR_IS(h, "sleep: invalid time interval '1x'\n"
            "Try 'sleep --help' for more information.\n");
  /* A deadline stops it early. */
  h->bud.deadline_ns = budget_now_ns(&h->bud) + 50000000;
  t0 = mono_ms();
  assert_int_not_equal(RUN(h, NULL, "sleep", "10"), 0);
  assert_true(mono_ms() - t0 < 2000);
  assert_int_equal(h->bud.stop, BUDGET_TIMEOUT);
  h->bud.deadline_ns = 0;
  bh_free(h);
}

static void t_date(void **st) {
  (void)st;
  bh *h = bh_new(); /* now = 1000000000 = Sun Sep  9 01:46:40 UTC 2001 */
  assert_int_equal(RUN(h, NULL, "date"), 0);
  OUT_IS(h, "Sun Sep  9 01:46:40 UTC 2001\n");
  RUN(h, NULL, "date", "-R");
  OUT_IS(h, "Sun, 09 Sep 2001 01:46:40 +0000\n");
  h->now_ns += 500000000;
  RUN(h, NULL, "date", "-I");
  OUT_IS(h, "2001-09-09\n");
  RUN(h, NULL, "date", "-Ihours");
  OUT_IS(h, "2001-09-09T01+00:00\n");
  RUN(h, NULL, "date", "-Iminutes");
  OUT_IS(h, "2001-09-09T01:46+00:00\n");
  RUN(h, NULL, "date", "--iso-8601=seconds");
  OUT_IS(h, "2001-09-09T01:46:40+00:00\n");
  RUN(h, NULL, "date", "-Ins");
  OUT_IS(h, "2001-09-09T01:46:40,500000000+00:00\n");
  RUN(h, NULL, "date", "--rfc-3339=date");
  OUT_IS(h, "2001-09-09\n");
  RUN(h, NULL, "date", "--rfc-3339=seconds");
  OUT_IS(h, "2001-09-09 01:46:40+00:00\n");
  RUN(h, NULL, "date", "--rfc-3339=ns");
  OUT_IS(h, "2001-09-09 01:46:40.500000000+00:00\n");
  h->now_ns -= 500000000;
  RUN(h, NULL, "date",
      "+%c|%x|%X|%r|%D|%z|%:z|%::z|%:::z|%Z|%P|%p|%q|%k|%l|%-d|%_m|%^a|%#Z|"
      "%#p|%3N|%N|%j|%U|%W|%V|%G|%g|%C|%u|%w|%s|%e|%5Y|%-5d|%K|%");
  OUT_IS(h, "Sun Sep  9 01:46:40 2001|09/09/01|01:46:40|01:46:40 AM|09/09/01|"
            "+0000|+00:00|+00:00:00|+00|UTC|am|AM|3| 1| 1|9| 9|SUN|utc|am|"
            "000|000000000|252|36|36|36|2001|01|20|7|0|1000000000| 9|02001|9|"
            "%K|%\n");
  RUN(h, NULL, "date", "-u", "+%A %B %d %H:%M:%S %y %F %T %R %h %n%t.");
  OUT_IS(h, "Sunday September 09 01:46:40 01 2001-09-09 01:46:40 01:46 Sep "
            "\n\t.\n");
  RUN(h, NULL, "date", "-d", "2024-01-02");
  OUT_IS(h, "Tue Jan  2 00:00:00 UTC 2024\n");
  RUN(h, NULL, "date", "-d", "2024-01-02 03:04:05");
  OUT_IS(h, "Tue Jan  2 03:04:05 UTC 2024\n");
  RUN(h, NULL, "date", "-d", "2024-01-02T03:04:05Z");
  OUT_IS(h, "Tue Jan  2 03:04:05 UTC 2024\n");
  RUN(h, NULL, "date", "-d", "2024-01-02T03:04:05+02:00", "+%F %T");
  OUT_IS(h, "2024-01-02 01:04:05\n");
  RUN(h, NULL, "date", "-d", "@0");
  OUT_IS(h, "Thu Jan  1 00:00:00 UTC 1970\n");
  RUN(h, NULL, "date", "-d", "@-1", "+%F %T");
  OUT_IS(h, "1969-12-31 23:59:59\n");
  RUN(h, NULL, "date", "-d", "3 days ago");
  OUT_IS(h, "Thu Sep  6 01:46:40 UTC 2001\n");
  RUN(h, NULL, "date", "-d", "yesterday", "+%F");
  OUT_IS(h, "2001-09-08\n");
  RUN(h, NULL, "date", "-d", "tomorrow", "+%F");
  OUT_IS(h, "2001-09-10\n");
  RUN(h, NULL, "date", "-d", "+2 hours", "+%T");
  OUT_IS(h, "03:46:40\n");
  RUN(h, NULL, "date", "-d", "2024-01-31 +1 month", "+%F");
  OUT_IS(h, "2024-03-02\n");
  RUN(h, NULL, "date", "-d", "next week", "+%F");
  OUT_IS(h, "2001-09-16\n");
  RUN(h, NULL, "date", "-d", "Thu Nov 30 01:02:03 UTC 2026", "+%s");
  OUT_IS(h, "1796000523\n");
  RUN(h, NULL, "date", "-d", "Jan 5 2020", "+%F %T");
  OUT_IS(h, "2020-01-05 00:00:00\n");
  RUN(h, NULL, "date", "-d", "monday", "+%F");
  OUT_IS(h, "2001-09-10\n");
  RUN(h, NULL, "date", "-d", "1900-03-01", "+%a %j %s");
  OUT_IS(h, "Thu 060 -2203891200\n");
  static const char *const wk[][2] = {{"2021-01-01", "00 00 53 2020"},
                                      {"2020-12-31", "52 52 53 2020"},
                                      {"2024-12-30", "52 53 01 2025"},
                                      {"2027-01-03", "01 00 53 2026"}};
  for (int i = 0; i < 4; i++) {
    char want[32];
    RUN(h, NULL, "date", "-d", wk[i][0], "+%U %W %V %G");
    snprintf(want, sizeof want, "%s\n", wk[i][1]);
    OUT_IS(h, want);
  }
  RUN(h, NULL, "date", "-d", "2024-02-29 +1 year", "+%F");
  OUT_IS(h, "2025-03-01\n");
  RUN(h, NULL, "date", "-d", "10:30", "+%F %T");
  OUT_IS(h, "2001-09-09 10:30:00\n");
  RUN(h, NULL, "date", "-d", "5pm", "+%T");
  OUT_IS(h, "17:00:00\n");
  RUN(h, NULL, "date", "-d", "20240102", "+%F");
  OUT_IS(h, "2024-01-02\n");
  bh_write(h, "f", "x");
  vfs_utimes(h->vfs, h->cwd, "f", VFS_UTIME_OMIT, INT64_C(86400000000000), 0);
  RUN(h, NULL, "date", "-r", "f", "+%F");
  OUT_IS(h, "1970-01-02\n");
  assert_int_equal(RUN(h, NULL, "date", "-r", "nofile"), 1);
  ERR_IS(h, "date: nofile: No such file or directory\n");
  assert_int_equal(RUN(h, NULL, "date", "-d", "bogus words"), 1);
  ERR_IS(h, "date: invalid date 'bogus words'\n");
  assert_int_equal(RUN(h, NULL, "date", "-I", "-R"), 1);
  ERR_IS(h, "date: multiple output formats specified\n");
  assert_int_equal(RUN(h, NULL, "date", "-Ifoo"), 1);
  ERR_IS(h, "date: invalid argument 'foo' for '--iso-8601'\n"
            "Valid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n"
            "  - 'seconds'\n  - 'ns'\n"
            "Try 'date --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "date", "-x"), 1);
  ERR_IS(h, "date: invalid option -- 'x'\n"
            "Try 'date --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "date", "0101"), 1);
  bh_free(h);
}

static void t_which(void **st) {
  (void)st;
  bh *h = bh_new();
  vfs_privileged_enter(h->vfs);
  assert_int_equal(vfs_add_command_stub(h->vfs, "ls"), 0);
  vfs_privileged_leave(h->vfs);
  bh_write(h, "noexec", "x");
  bh_setenv(h, "PATH", "/usr/bin:/bin");
  assert_int_equal(RUN(h, NULL, "which", "ls"), 0);
  OUT_IS(h, "/usr/bin/ls\n");
  assert_int_equal(RUN(h, NULL, "which", "-a", "ls", "nosuch"), 1);
  OUT_IS(h, "/usr/bin/ls\n/bin/ls\n");
  assert_int_equal(RUN(h, NULL, "which", "/bin/ls", "./noexec"), 1);
  OUT_IS(h, "/bin/ls\n");
  assert_int_equal(RUN(h, NULL, "which", "-x"), 2);
  ERR_IS(h, "Illegal option -x\nUsage: which [-a] args\n");
  assert_int_equal(RUN(h, NULL, "which"), 1);
  bh_free(h);
}

static const char odin[] = "hello world\n\0\1\377abcdefghijklmnopqrstuvwxyz";
#define ODIN_LEN (sizeof odin - 1)

static void t_od(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(bh_runb(h, odin, ODIN_LEN, "od", NULL), 0);
  OUT_IS(h, "0000000 062550 066154 020157 067567 066162 005144 000400 060777\n"
            "0000020 061542 062544 063546 064550 065552 066554 067556 070560\n"
            "0000040 071562 072564 073566 074570 000172\n"
            "0000051\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-c", NULL);
  OUT_IS(h, "0000000   h   e   l   l   o       w   o   r   l   d  \\n  \\0 001 "
            "377   a\n"
            "0000020   b   c   d   e   f   g   h   i   j   k   l   m   n   o   "
            "p   q\n"
            "0000040   r   s   t   u   v   w   x   y   z\n"
            "0000051\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-An", "-tx1", NULL);
  OUT_IS(h, " 68 65 6c 6c 6f 20 77 6f 72 6c 64 0a 00 01 ff 61\n"
            " 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70 71\n"
            " 72 73 74 75 76 77 78 79 7a\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-Ax", "-tx2", "-N5", NULL);
  OUT_IS(h, "000000 6568 6c6c 006f\n000005\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-Ad", "-td4", NULL);
  OUT_IS(h, "0000000  1819043176  1870078063   174353522  1644101888\n"
            "0000016  1701077858  1768449894  1835821930  1903193966\n"
            "0000032  1970566002  2037938038         122\n"
            "0000041\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-b", "-j3", NULL);
  OUT_IS(h, "0000003 154 157 040 167 157 162 154 144 012 000 001 377 141 142 "
            "143 144\n"
            "0000023 145 146 147 150 151 152 153 154 155 156 157 160 161 162 "
            "163 164\n"
            "0000043 165 166 167 170 171 172\n"
            "0000051\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-ta", "-N16", NULL);
  OUT_IS(h, "0000000   h   e   l   l   o  sp   w   o   r   l   d  nl nul soh "
            "del   a\n"
            "0000020\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-d", "-N16", NULL);
  OUT_IS(h, "0000000 25960 27756  8303 28535 27762  2660   256 25087\n"
            "0000020\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-x", "-N16", NULL);
  OUT_IS(h, "0000000 6568 6c6c 206f 6f77 6c72 0a64 0100 61ff\n0000020\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-tu1", "-w8", "-N16", NULL);
  OUT_IS(h, "0000000 104 101 108 108 111  32 119 111\n"
            "0000010 114 108 100  10   0   1 255  97\n"
            "0000020\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-tx1", "-tc", "-Ad", "-w8", "-N12", NULL);
  OUT_IS(h, "0000000  68  65  6c  6c  6f  20  77  6f\n"
            "          h   e   l   l   o       w   o\n"
            "0000008  72  6c  64  0a\n"
            "          r   l   d  \\n\n"
            "0000012\n");
  bh_runb(h, odin, ODIN_LEN, "od", "-tu4", "-td1", "-w4", "-N4", NULL);
  OUT_IS(h, "0000000          1819043176\n"
            "         104  101  108  108\n"
            "0000004\n");
  RUN(h, "abc", "od", "-tx4");
  OUT_IS(h, "0000000 00636261\n0000003\n");
  const char *zeros = "00000000000000000000000000000000";
  RUN(h, zeros, "od", "-tx1");
  OUT_IS(h, "0000000 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30\n*\n"
            "0000040\n");
  RUN(h, zeros, "od", "-v", "-tx1");
  OUT_IS(h, "0000000 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30\n"
            "0000020 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30\n"
            "0000040\n");
  h->stdin_chunk = 5;
  RUN(h, zeros, "od", "-tx1");
  OUT_IS(h, "0000000 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30\n*\n"
            "0000040\n");
  h->stdin_chunk = 0;
  assert_int_equal(RUN(h, NULL, "od", "-tz"), 1);
  ERR_IS(h, "od: invalid character 'z' in type string 'z'\n");
  assert_int_equal(RUN(h, NULL, "od", "-tx3"), 1);
  ERR_IS(h, "od: invalid type string 'x3';\nthis system doesn't provide a "
            "3-byte integral type\n");
  assert_int_equal(RUN(h, NULL, "od", "nofile"), 1);
  ERR_IS(h, "od: nofile: No such file or directory\n");
  bh_free(h);
}

static void t_comm(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "c1", "a\nb\nd\n");
  bh_write(h, "c2", "b\nc\nd\ne\n");
  bh_write(h, "c3", "b\na\n");
  assert_int_equal(RUN(h, NULL, "comm", "c1", "c2"), 0);
  OUT_IS(h, "a\n\t\tb\n\tc\n\t\td\n\te\n");
  RUN(h, NULL, "comm", "-12", "c1", "c2");
  OUT_IS(h, "b\nd\n");
  RUN(h, NULL, "comm", "-3", "--output-delimiter=::", "c1", "c2");
  OUT_IS(h, "a\n::c\n::e\n");
  RUN(h, NULL, "comm", "--total", "c1", "c2");
  OUT_IS(h, "a\n\t\tb\n\tc\n\t\td\n\te\n1\t2\t2\ttotal\n");
  RUN(h, "b\nc\nd\ne\n", "comm", "-23", "c1", "-");
  OUT_IS(h, "a\n");
  assert_int_equal(RUN(h, NULL, "comm", "c3", "c2"), 1);
  OUT_IS(h, "\t\tb\na\n\tc\n\td\n\te\n");
  ERR_IS(h, "comm: file 1 is not in sorted order\n"
            "comm: input is not in sorted order\n");
  assert_int_equal(RUN(h, NULL, "comm", "--check-order", "c3", "c2"), 1);
  OUT_IS(h, "\t\tb\n");
  ERR_IS(h, "comm: file 1 is not in sorted order\n");
  assert_int_equal(RUN(h, NULL, "comm", "--nocheck-order", "c3", "c2"), 0);
  ERR_IS(h, "");
  assert_int_equal(RUN(h, NULL, "comm", "c1"), 1);
  ERR_IS(h, "comm: missing operand after 'c1'\n"
            "Try 'comm --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "comm", "c1", "c2", "c3"), 1);
  ERR_IS(h, "comm: extra operand 'c3'\n"
            "Try 'comm --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "comm", "c1", "nof"), 1);
  ERR_IS(h, "comm: nof: No such file or directory\n");
  bh_writen(h, "z1", "a\0b\0", 4);
  bh_writen(h, "z2", "b\0c\0", 4);
  RUN(h, NULL, "comm", "-z", "z1", "z2");
  assert_int_equal(h->out.len, 9);
  assert_memory_equal(h->out.data, "a\0\t\tb\0\tc\0", 9);
  bh_free(h);
}

static void t_paste(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "c1", "a\nb\nd\n");
  bh_write(h, "c2", "b\nc\nd\ne\n");
  assert_int_equal(RUN(h, NULL, "paste", "c1", "c2"), 0);
  OUT_IS(h, "a\tb\nb\tc\nd\td\n\te\n");
  RUN(h, NULL, "paste", "-s", "c1", "c2");
  OUT_IS(h, "a\tb\td\nb\tc\td\te\n");
  RUN(h, NULL, "paste", "-d", ",;", "c1", "c2", "c1");
  OUT_IS(h, "a,b;a\nb,c;b\nd,d;d\n,e;\n");
  RUN(h, NULL, "paste", "-s", "-d", "\\n,", "c2");
  OUT_IS(h, "b\nc,d\ne\n");
  RUN(h, "x\ny\nz\n", "paste", "-", "-");
  OUT_IS(h, "x\ty\nz\t\n");
  RUN(h, NULL, "paste", "-d", "", "c1", "c2");
  OUT_IS(h, "ab\nbc\ndd\ne\n");
  RUN(h, "", "paste", "-s");
  OUT_IS(h, "\n");
  assert_int_equal(RUN(h, NULL, "paste", "nof"), 1);
  ERR_IS(h, "paste: nof: No such file or directory\n");
  bh_free(h);
}

static void t_nl(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "a\n\nb\n", "nl"), 0);
  OUT_IS(h, "     1\ta\n       \n     2\tb\n");
  RUN(h, "a\n\nb\n", "nl", "-ba", "-nln", "-w3", "-s:");
  OUT_IS(h, "1  :a\n2  :\n3  :b\n");
  RUN(h, "a\n\nb\n", "nl", "-nrz", "-v5", "-i2");
  OUT_IS(h, "000005\ta\n       \n000007\tb\n");
  RUN(h, "a\n\\:\\:\\:\nh\n\\:\\:\nb\n\\:\nf\n", "nl", "-ha", "-fa");
  OUT_IS(h, "     1\ta\n\n     1\th\n\n     1\tb\n\n     1\tf\n");
  RUN(h, "a\nb\nc\n", "nl", "-p", "-bpb");
  OUT_IS(h, "       a\n     1\tb\n       c\n");
  assert_int_equal(RUN(h, "a\n", "nl", "-bx"), 1);
  ERR_IS(h, "nl: invalid body numbering style: 'x'\n"
            "Try 'nl --help' for more information.\n");
  assert_int_equal(RUN(h, "a\n", "nl", "-w0"), 1);
  ERR_IS(h, "nl: invalid line number field width: '0': Numerical result out "
            "of range\n");
  bh_free(h);
}

static void t_fold(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "abcdefghij klm nop\n", "fold", "-w5"), 0);
  OUT_IS(h, "abcde\nfghij\n klm \nnop\n");
  RUN(h, "abcdefghij klm nop\n", "fold", "-s", "-w5");
  OUT_IS(h, "abcde\nfghij\n klm \nnop\n");
  RUN(h, "aaa bbb ccc\n", "fold", "-s", "-w6");
  OUT_IS(h, "aaa \nbbb \nccc\n");
  RUN(h, "a\tbcdefghij\n", "fold", "-w5");
  OUT_IS(h, "a\n\t\nbcdef\nghij\n");
  RUN(h, "a\tbcdefghij\n", "fold", "-b", "-w5");
  OUT_IS(h, "a\tbcd\nefghi\nj\n");
  RUN(h, "abcdef", "fold", "-3");
  OUT_IS(h, "abc\ndef");
  assert_int_equal(RUN(h, NULL, "fold", "-w0"), 1);
  ERR_IS(h, "fold: invalid number of columns: '0': Numerical result out of "
            "range\n");
  assert_int_equal(RUN(h, NULL, "fold", "-wx"), 1);
  ERR_IS(h, "fold: invalid number of columns: 'x'\n");
  bh_free(h);
}

static void t_expand(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "a\tb\n        x\n", "expand", "-t", "4"), 0);
  OUT_IS(h, "a   b\n        x\n");
  RUN(h, "a\tb\n", "expand");
  OUT_IS(h, "a       b\n");
  RUN(h, "\ta\tb\n", "expand", "-i", "-t2");
  OUT_IS(h, "  a\tb\n");
  RUN(h, "a\tbc\td\n", "expand", "-t", "3,6");
  OUT_IS(h, "a  bc d\n");
  RUN(h, "        a       b\n", "unexpand");
  OUT_IS(h, "\ta       b\n");
  RUN(h, "        a       b\n", "unexpand", "-a");
  OUT_IS(h, "\ta\tb\n");
  RUN(h, "x        y\n", "unexpand", "-a");
  OUT_IS(h, "x\t y\n");
  RUN(h, "    x\n", "unexpand", "-t", "4");
  OUT_IS(h, "\tx\n");
  RUN(h, "\t \n", "unexpand");
  OUT_IS(h, "\t \n");
  assert_int_equal(RUN(h, NULL, "expand", "-t", "0"), 1);
  ERR_IS(h, "expand: tab size cannot be 0\n");
  bh_free(h);
}

static void t_sums(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "h1", "abc");
  assert_int_equal(RUN(h, "", "md5sum", "h1", "-"), 0);
  OUT_IS(h, "900150983cd24fb0d6963f7d28e17f72  h1\n"
            "d41d8cd98f00b204e9800998ecf8427e  -\n");
  RUN(h, "abc", "sha1sum");
  OUT_IS(h, "a9993e364706816aba3e25717850c26c9cd0d89d  -\n");
  RUN(h, "", "sha1sum");
  OUT_IS(h, "da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n");
  RUN(h, "abc", "sha256sum");
  OUT_IS(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
            "  -\n");
  RUN(h, "abc", "sha512sum");
  OUT_IS(h, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
            "  -\n");
  /* Multi-block inputs, fed in odd chunks. */
  char big[1000];
  memset(big, 'a', sizeof big);
  h->stdin_chunk = 7;
  bh_runb(h, big, sizeof big, "md5sum", NULL);
  OUT_IS(h, "cabe45dcc9ae5b66ba86600cca6b8ba8  -\n");
  bh_runb(h, big, sizeof big, "sha256sum", NULL);
  OUT_IS(h, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
            "  -\n");
  bh_runb(h, big, sizeof big, "sha512sum", NULL);
  OUT_IS(h, "67ba5535a46e3f86dbfbed8cbbaf0125c76ed549ff8b0b9e03e0c88cf90fa634"
            "fa7b12b47d77b694de488ace8d9a65967dc96df599727d3292a8d9d447709c97"
            "  -\n");
  h->stdin_chunk = 0;
  bh_runb(h, "\0\1\2", 3, "md5sum", NULL);
  OUT_IS(h, "b95f67f61ebb03619622d798f45fc2d3  -\n");
  RUN(h, NULL, "md5sum", "--tag", "h1");
  OUT_IS(h, "MD5 (h1) = 900150983cd24fb0d6963f7d28e17f72\n");
  RUN(h, NULL, "md5sum", "-b", "h1");
  OUT_IS(h, "900150983cd24fb0d6963f7d28e17f72 *h1\n");
  bh_write(h, "a\\b", "");
  RUN(h, NULL, "md5sum", "a\\b");
  OUT_IS(h, "\\d41d8cd98f00b204e9800998ecf8427e  a\\\\b\n");
  /* -c */
  RUN(h, "900150983cd24fb0d6963f7d28e17f72  h1\n", "md5sum", "-c");
  OUT_IS(h, "h1: OK\n");
  RUN(h, "MD5 (h1) = 900150983cd24fb0d6963f7d28e17f72\n", "md5sum", "-c");
  OUT_IS(h, "h1: OK\n");
  RUN(h, "\\d41d8cd98f00b204e9800998ecf8427e  a\\\\b\n", "md5sum", "-c");
  OUT_IS(h, "a\\b: OK\n");
  assert_int_equal(RUN(h,
                       "00000000000000000000000000000000  h1\n"
                       "900150983cd24fb0d6963f7d28e17f72  h1\n"
                       "900150983cd24fb0d6963f7d28e17f72  nof\n"
                       "bad\n",
                       "md5sum", "-c"),
                   1);
  OUT_IS(h, "h1: FAILED\nh1: OK\nnof: FAILED open or read\n");
  ERR_IS(h, "md5sum: nof: No such file or directory\n"
            "md5sum: WARNING: 1 line is improperly formatted\n"
            "md5sum: WARNING: 1 listed file could not be read\n"
            "md5sum: WARNING: 1 computed checksum did NOT match\n");
  assert_int_equal(RUN(h, "900150983cd24fb0d6963f7d28e17f72  h1\nbad\n",
                       "md5sum", "-c", "--quiet", "-w"),
                   0);
  OUT_IS(h, "");
  ERR_IS(h, "md5sum: 'standard input': 2: improperly formatted MD5 checksum "
            "line\nmd5sum: WARNING: 1 line is improperly formatted\n");
  assert_int_equal(RUN(h, "garbage\n", "md5sum", "-c"), 1);
  ERR_IS(h, "md5sum: 'standard input': no properly formatted checksum lines "
            "found\n");
  assert_int_equal(RUN(h, "900150983cd24fb0d6963f7d28e17f72  nof\n", "md5sum",
                       "-c", "--ignore-missing"),
                   1);
  ERR_IS(h, "md5sum: 'standard input': no file was verified\n");
  assert_int_equal(RUN(h, "00000000000000000000000000000000  h1\n", "md5sum",
                       "-c", "--status"),
                   1);
  OUT_IS(h, "");
  ERR_IS(h, "");
  assert_int_equal(RUN(h, NULL, "md5sum", "nofile"), 1);
  ERR_IS(h, "md5sum: nofile: No such file or directory\n");
  assert_int_equal(RUN(h, NULL, "md5sum", "-x"), 1);
  ERR_IS(h, "md5sum: invalid option -- 'x'\n"
            "Try 'md5sum --help' for more information.\n");
  bh_free(h);
}

/* SHA-224 and SHA-384 (digests from GNU coreutils 9.1). */
#define ABC224 "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"
#define ABC384                                                                 \
  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"           \
  "8086072ba1e7cc2358baeca134c825a7"

static void t_sums_sha2(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "h1", "abc");
  assert_int_equal(RUN(h, "abc", "sha224sum"), 0);
  OUT_IS(h, ABC224 "  -\n");
  assert_int_equal(RUN(h, "", "sha224sum", "h1", "-"), 0);
  OUT_IS(h, ABC224 "  h1\n"
                   "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"
                   "  -\n");
  assert_int_equal(RUN(h, "abc", "sha384sum"), 0);
  OUT_IS(h, ABC384 "  -\n");
  assert_int_equal(RUN(h, "", "sha384sum", "-", "h1"), 0);
  OUT_IS(h, "38b060a751ac96384cd9327eb1b1e36a21fdb71114be0743"
            "4c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b  -\n" ABC384
            "  h1\n");
  /* Many blocks, fed in odd chunks. */
  char big[1000];
  memset(big, 'a', sizeof big);
  h->stdin_chunk = 7;
  bh_runb(h, big, sizeof big, "sha224sum", NULL);
  OUT_IS(h, "4e8f0ce90b64661a2b5e84be6d93a7d9b76871062f1814433d04a03d  -\n");
  bh_runb(h, big, sizeof big, "sha384sum", NULL);
  OUT_IS(h, "f54480689c6b0b11d0303285d9a81b21a93bca6ba5a1b447"
            "2765dca4da45ee328082d469c650cd3b61b16d3266ab8ced  -\n");
  h->stdin_chunk = 0;
  /* --tag and -b */
  assert_int_equal(RUN(h, NULL, "sha224sum", "--tag", "h1"), 0);
  OUT_IS(h, "SHA224 (h1) = " ABC224 "\n");
  assert_int_equal(RUN(h, NULL, "sha384sum", "--tag", "h1"), 0);
  OUT_IS(h, "SHA384 (h1) = " ABC384 "\n");
  RUN(h, NULL, "sha384sum", "-b", "h1");
  OUT_IS(h, ABC384 " *h1\n");
  /* -c, in both line forms */
  assert_int_equal(RUN(h, ABC224 "  h1\n", "sha224sum", "-c"), 0);
  OUT_IS(h, "h1: OK\n");
  ERR_IS(h, "");
  assert_int_equal(RUN(h, "SHA384 (h1) = " ABC384 "\n", "sha384sum", "-c"), 0);
  OUT_IS(h, "h1: OK\n");
  bh_write(h, "sums", ABC384 " *h1\n");
  assert_int_equal(RUN(h, NULL, "sha384sum", "--check", "sums"), 0);
  OUT_IS(h, "h1: OK\n");
  /* A mismatch. */
  bh_write(h, "h1", "abd");
  assert_int_equal(RUN(h, ABC224 "  h1\n", "sha224sum", "-c"), 1);
  OUT_IS(h, "h1: FAILED\n");
  ERR_IS(h, "sha224sum: WARNING: 1 computed checksum did NOT match\n");
  assert_int_equal(RUN(h, NULL, "sha384sum", "-c", "sums"), 1);
  OUT_IS(h, "h1: FAILED\n");
  ERR_IS(h, "sha384sum: WARNING: 1 computed checksum did NOT match\n");
  assert_int_equal(RUN(h, NULL, "sha384sum", "-c", "--status", "sums"), 1);
  OUT_IS(h, "");
  ERR_IS(h, "");
  /* A line of another length is not a SHA384 line. */
  assert_int_equal(RUN(h, ABC224 "  h1\n", "sha384sum", "-c", "-w"), 1);
  ERR_IS(h, "sha384sum: 'standard input': 1: improperly formatted SHA384 "
            "checksum line\n"
            "sha384sum: 'standard input': no properly formatted checksum "
            "lines found\n");
  bh_free(h);
}

/* Messages of the checksum commands: quoting of names, the escaping of a
 * name with a newline in -c verdicts, clashing options. */
static void t_sums_messages(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "n\nl", "abc");
  RUN(h, NULL, "md5sum", "n\nl");
  OUT_IS(h, "\\900150983cd24fb0d6963f7d28e17f72  n\\nl\n");
  assert_int_equal(
      RUN(h, "\\900150983cd24fb0d6963f7d28e17f72  n\\nl\n", "md5sum", "-c"), 0);
  OUT_IS(h, "\\n\\nl: OK\n");
  assert_int_equal(
      RUN(h, "\\00000000000000000000000000000000  n\\nl\n", "md5sum", "-c"), 1);
  OUT_IS(h, "\\n\\nl: FAILED\n");
  assert_int_equal(RUN(h, NULL, "md5sum", "sp ace", "a:b", "it's", "x\n"), 1);
  ERR_IS(h, "md5sum: 'sp ace': No such file or directory\n"
            "md5sum: 'a:b': No such file or directory\n"
            "md5sum: \"it's\": No such file or directory\n"
            "md5sum: 'x'$'\\n': No such file or directory\n");
  assert_int_equal(RUN(h, NULL, "sha224sum", "--quiet", "--strict", "x"), 1);
  ERR_IS(h, "sha224sum: the --quiet option is meaningful only when verifying "
            "checksums\nTry 'sha224sum --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "sha224sum", "-z", "-c", "--tag", "x"), 1);
  ERR_IS(h, "sha224sum: the --zero option is not supported when verifying "
            "checksums\nTry 'sha224sum --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "sha384sum", "--tag", "-t", "x"), 1);
  ERR_IS(h, "sha384sum: --tag does not support --text mode\n"
            "Try 'sha384sum --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "sha384sum", "-b", "-c", "x"), 1);
  ERR_IS(h, "sha384sum: the --binary and --text options are meaningless when "
            "verifying checksums\n"
            "Try 'sha384sum --help' for more information.\n");
  bh_free(h);
}

/* EVP_MD_CTX_new as the checksum commands see it: the real one, or NULL
 * while ctx_new_fails is set. */
static int ctx_new_fails;
EVP_MD_CTX *EVP_MD_CTX_new(void) {
  if (ctx_new_fails)
    return NULL;
  EVP_MD_CTX *(*real)(void);
  *(void **)&real = dlsym(RTLD_NEXT, "EVP_MD_CTX_new");
  return real ? real() : NULL;
}

static void t_sums_no_context(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "h1", "abc");
  ctx_new_fails = 1;
  assert_int_equal(RUN(h, "abc", "sha384sum", "h1", "-"), 1);
  OUT_IS(h, "");
  ERR_IS(h, "sha384sum: cannot allocate a SHA384 digest context: Cannot "
            "allocate memory\n");
  assert_int_equal(RUN(h, ABC224 "  h1\n", "sha224sum", "-c"), 1);
  OUT_IS(h, "");
  ctx_new_fails = 0;
  assert_int_equal(RUN(h, ABC224 "  h1\n", "sha224sum", "-c"), 0);
  OUT_IS(h, "h1: OK\n");
  bh_free(h);
}

static void t_base64(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "abc", "base64"), 0);
  OUT_IS(h, "YWJj\n");
  RUN(h, "hello world hello world hello world hello world hello world",
      "base64", "-w", "20");
  OUT_IS(h, "aGVsbG8gd29ybGQgaGVs\nbG8gd29ybGQgaGVsbG8g\nd29ybGQgaGVsbG8gd29y\n"
            "bGQgaGVsbG8gd29ybGQ=\n");
  RUN(h, "ab", "base64", "-w0");
  OUT_IS(h, "YWI=");
  RUN(h, "", "base64");
  OUT_IS(h, "");
  h->stdin_chunk = 2;
  RUN(h, "abcdefg", "base64");
  OUT_IS(h, "YWJjZGVmZw==\n");
  h->stdin_chunk = 0;
  RUN(h, "aGVs\nbG8=\n", "base64", "-d");
  OUT_IS(h, "hello");
  assert_int_equal(RUN(h, "aGV!sbG8=", "base64", "-d"), 1);
  OUT_IS(h, "he");
  ERR_IS(h, "base64: invalid input\n");
  assert_int_equal(RUN(h, "aGV!sbG8=", "base64", "-di"), 0);
  OUT_IS(h, "hello");
  assert_int_equal(RUN(h, "aGVsbG8", "base64", "-d"), 1);
  OUT_IS(h, "hello");
  bh_runb(h, "\0\377", 2, "base64", NULL);
  OUT_IS(h, "AP8=\n");
  RUN(h, "AP8=", "base64", "-d");
  assert_int_equal(h->out.len, 2);
  assert_memory_equal(h->out.data, "\0\377", 2);
  bh_free(h);
}

static void t_mktemp(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, NULL, "mktemp"), 0);
  char path[256];
  snprintf(path, sizeof path, "%s", bh_out(h));
  path[strlen(path) - 1] = 0;
  assert_int_equal(strncmp(path, "/tmp/tmp.", 9), 0);
  assert_int_equal(strlen(path), 19);
  vfs_stat_t vs;
  assert_int_equal(vfs_stat(h->vfs, "/", path, &vs), 0);
  assert_int_equal(vs.type, VFS_REG);
  assert_int_equal(vs.mode & 0777, 0600);
  assert_int_equal(RUN(h, NULL, "mktemp", "-d", "dXXXX"), 0);
  snprintf(path, sizeof path, "%s", bh_out(h));
  path[strlen(path) - 1] = 0;
  assert_int_equal(strlen(path), 5);
  assert_int_equal(vfs_stat(h->vfs, h->cwd, path, &vs), 0);
  assert_int_equal(vs.type, VFS_DIR);
  assert_int_equal(vs.mode & 0777, 0700);
  RUN(h, NULL, "mktemp", "-u", "-p", "/var", "fooXXX");
  assert_int_equal(strncmp(bh_out(h), "/var/foo", 8), 0);
  assert_int_equal(strlen(bh_out(h)), 12);
  bh_setenv(h, "TMPDIR", "/home/user");
  RUN(h, NULL, "mktemp", "-t", "xXXX.txt");
  assert_int_equal(strncmp(bh_out(h), "/home/user/x", 12), 0);
  assert_non_null(strstr(bh_out(h), ".txt\n"));
  assert_int_equal(RUN(h, NULL, "mktemp", "abc"), 1);
  ERR_IS(h, "mktemp: too few X's in template 'abc'\n");
  assert_int_equal(RUN(h, NULL, "mktemp", "nodir/XXX"), 1);
  ERR_IS(h, "mktemp: failed to create file via template 'nodir/XXX': No "
            "such file or directory\n");
  assert_int_equal(RUN(h, NULL, "mktemp", "a", "b"), 1);
  ERR_IS(h, "mktemp: too many templates\n"
            "Try 'mktemp --help' for more information.\n");
  bh_free(h);
}

/* run_argv for timeout tests: runs the builtin named by argv[0] with the
 * same context. */
static int run_builtin(bi_ctx *c, char **argv, stream *in, stream *out,
                       stream *err) {
  (void)in;
  (void)out;
  (void)err;
  const bi_def *d = bi_lookup(argv[0]);
  if (!d) {
    stream_printf(c->err, "%s: command not found\n", argv[0]);
    return 127;
  }
  bi_ctx sub = *c;
  int n = 0;
  while (argv[n])
    n++;
  sub.argc = n;
  sub.argv = argv;
  return d->fn(&sub);
}

static void t_timeout(void **st) {
  (void)st;
  bh *h = bh_new();
  h->run_argv = run_builtin;
  assert_int_equal(RUN(h, NULL, "timeout", "5", "echo", "hi"), 0);
  OUT_IS(h, "hi\n");
  assert_int_equal(RUN(h, NULL, "timeout", "5", "false"), 1);
  int64_t t0 = mono_ms();
  assert_int_equal(RUN(h, NULL, "timeout", "0.1", "sleep", "5"), 124);
  assert_true(mono_ms() - t0 < 2000);
  assert_int_equal(h->bud.stop, BUDGET_OK);
  assert_int_equal(h->bud.deadline_ns, 0);
  assert_int_equal(RUN(h, NULL, "timeout", "-v", "0.05", "sleep", "5"), 124);
  ERR_IS(h, "timeout: sending signal TERM to command 'sleep'\n");
  assert_int_equal(
      RUN(h, NULL, "timeout", "--preserve-status", "0.05", "sleep", "5"), 143);
  assert_int_equal(RUN(h, NULL, "timeout", "-s", "KILL", "0.05", "sleep", "5"),
                   137);
  /* An outer deadline that fires first is not ours to clear. */
  h->bud.deadline_ns = budget_now_ns(&h->bud) + 30000000;
  assert_int_not_equal(RUN(h, NULL, "timeout", "10", "sleep", "5"), 124);
  assert_int_equal(h->bud.stop, BUDGET_TIMEOUT);
  h->bud.deadline_ns = 0;
  assert_int_equal(RUN(h, NULL, "timeout", "1", "nosuchcmd"), 127);
  assert_int_equal(RUN(h, NULL, "timeout"), 125);
  ERR_IS(h, "Try 'timeout --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "timeout", "x", "sleep", "1"), 125);
  ERR_IS(h, "timeout: invalid time interval 'x'\n"
            "Try 'timeout --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "timeout", "--bogus"), 125);
  bh_free(h);
}

static void t_help_version(void **st) {
  (void)st;
  bh *h = bh_new();
  static const char *const cmds[] = {
      "tac",       "whoami",    "id",     "uname",   "sleep",     "date",
      "od",        "comm",      "paste",  "nl",      "fold",      "expand",
      "unexpand",  "base64",    "md5sum", "sha1sum", "sha224sum", "sha256sum",
      "sha384sum", "sha512sum", "mktemp", "timeout"};
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    assert_int_equal(RUN(h, NULL, cmds[i], "--help"), 0);
    assert_int_equal(strncmp(bh_out(h), "Usage: ", 7), 0);
    assert_int_equal(RUN(h, NULL, cmds[i], "--version"), 0);
    assert_non_null(strstr(bh_out(h), "coreutils"));
  }
  assert_int_equal(RUN(h, NULL, "rev", "--help"), 0);
  assert_int_equal(RUN(h, NULL, "hostname", "--help"), 0);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_tac),
      cmocka_unit_test(t_rev),
      cmocka_unit_test(t_ids),
      cmocka_unit_test(t_uname),
      cmocka_unit_test(t_sleep),
      cmocka_unit_test(t_date),
      cmocka_unit_test(t_which),
      cmocka_unit_test(t_od),
      cmocka_unit_test(t_comm),
      cmocka_unit_test(t_paste),
      cmocka_unit_test(t_nl),
      cmocka_unit_test(t_fold),
      cmocka_unit_test(t_expand),
      cmocka_unit_test(t_sums),
      cmocka_unit_test(t_sums_sha2),
      cmocka_unit_test(t_sums_messages),
      cmocka_unit_test(t_sums_no_context),
      cmocka_unit_test(t_base64),
      cmocka_unit_test(t_mktemp),
      cmocka_unit_test(t_timeout),
      cmocka_unit_test(t_help_version),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
