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
  const bh_case cases[] = {
      BH_CASE("a\nb\nc", 0, "cb\na\n", NULL, "tac"),
      BH_CASE("a\nb\nc\n", BH_ANY, "\n\nc\nba", NULL, "tac", "-b"),
      BH_CASE("aXYbXYc", BH_ANY, "cbXYaXY", NULL, "tac", "-s", "XY"),
      BH_CASE("a1b22c", BH_ANY, "c2b2a1", NULL, "tac", "-r", "-s", "[0-9]"),
  };
  bh_check_all(h, cases);
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
  bh_setenv(h, "LC_ALL", "C.UTF-8");
  assert_int_equal(RUN(h, "abc\nde\n\xc3\xa9x", "rev"), 0);
  OUT_IS(h, "cba\ned\nx\xc3\xa9");
  /* the C locale reverses bytes */
  bh_setenv(h, "LC_ALL", "C");
  assert_int_equal(RUN(h, "\xc3\xa9x\n", "rev"), 0);
  OUT_IS(h, "x\xa9\xc3\n");
  assert_int_equal(RUN(h, NULL, "rev", "nofile"), 1);
  ERR_IS(h, "rev: cannot open nofile: No such file or directory\n");
  bh_free(h);
}

static void t_ids(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "user\n", NULL, "whoami"),
      BH_CASE(NULL, 1, NULL,
              "whoami: extra operand 'x'\n"
              "Try 'whoami --help' for more information.\n",
              "whoami", "x"),
      BH_CASE(NULL, 0, "localhost\n", NULL, "hostname"),
      BH_CASE(NULL, 1, NULL,
              "hostname: you must be root to change the host name\n",
              "hostname", "other"),
      BH_CASE(NULL, 0, "uid=1000(user) gid=1000(user) groups=1000(user)\n",
              NULL, "id"),
      BH_CASE(NULL, BH_ANY, "1000\n", NULL, "id", "-u"),
      BH_CASE(NULL, BH_ANY, "user\n", NULL, "id", "-un"),
      BH_CASE(NULL, BH_ANY, "user\n", NULL, "id", "-gn"),
      BH_CASE(NULL, BH_ANY, "1000\n", NULL, "id", "-G"),
      BH_CASE(NULL, BH_ANY, "uid=0(root) gid=0(root) groups=0(root)\n", NULL,
              "id", "root"),
      BH_CASE(NULL, 1, NULL,
              "id: cannot print \"only\" of more than one choice\n", "id", "-u",
              "-g"),
      BH_CASE(NULL, 1, NULL,
              "id: cannot print only names or real IDs in default format\n",
              "id", "-n"),
      BH_CASE(NULL, 1, NULL, "id: 'nosuch': no such user\n", "id", "nosuch"),
      BH_CASE(NULL, 1, NULL,
              "id: invalid option -- 'x'\nTry 'id --help' for more "
              "information.\n",
              "id", "-x"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "unknown unknown\n", NULL, "uname", "-p", "-i"),
      BH_CASE(NULL, 1, NULL,
              "uname: extra operand 'a'\n"
              "Try 'uname --help' for more information.\n",
              "uname", "a"),
      BH_CASE(NULL, 1, NULL, NULL, "uname", "-x"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases[] = {
      BH_CASE(NULL, 0, NULL, NULL, "sleep", "0"),
      BH_CASE(NULL, 1, NULL,
              "sleep: missing operand\n"
              "Try 'sleep --help' for more information.\n",
              "sleep"),
      BH_CASE(NULL, 1, NULL,
              "sleep: invalid time interval '1x'\n"
              "Try 'sleep --help' for more information.\n",
              "sleep", "1x"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "2001-09-09\n", NULL, "date", "-I"),
      BH_CASE(NULL, BH_ANY, "2001-09-09T01+00:00\n", NULL, "date", "-Ihours"),
      BH_CASE(NULL, BH_ANY, "2001-09-09T01:46+00:00\n", NULL, "date",
              "-Iminutes"),
      BH_CASE(NULL, BH_ANY, "2001-09-09T01:46:40+00:00\n", NULL, "date",
              "--iso-8601=seconds"),
      BH_CASE(NULL, BH_ANY, "2001-09-09T01:46:40,500000000+00:00\n", NULL,
              "date", "-Ins"),
      BH_CASE(NULL, BH_ANY, "2001-09-09\n", NULL, "date", "--rfc-3339=date"),
      BH_CASE(NULL, BH_ANY, "2001-09-09 01:46:40+00:00\n", NULL, "date",
              "--rfc-3339=seconds"),
      BH_CASE(NULL, BH_ANY, "2001-09-09 01:46:40.500000000+00:00\n", NULL,
              "date", "--rfc-3339=ns"),
  };
  bh_check_all(h, cases);
  h->now_ns -= 500000000;
  const bh_case cases2[] = {
      BH_CASE(
          NULL, BH_ANY,
          "Sun Sep  9 01:46:40 2001|09/09/01|01:46:40|01:46:40 AM|09/09/01|"
          "+0000|+00:00|+00:00:00|+00|UTC|am|AM|3| 1| 1|9| 9|SUN|utc|am|"
          "000|000000000|252|36|36|36|2001|01|20|7|0|1000000000| 9|02001|9|"
          "%K|%\n",
          NULL, "date",
          "+%c|%x|%X|%r|%D|%z|%:z|%::z|%:::z|%Z|%P|%p|%q|%k|%l|%-d|%_m|%^a|%#Z|"
          "%#p|%3N|%N|%j|%U|%W|%V|%G|%g|%C|%u|%w|%s|%e|%5Y|%-5d|%K|%"),
      BH_CASE(NULL, BH_ANY,
              "Sunday September 09 01:46:40 01 2001-09-09 01:46:40 01:46 Sep "
              "\n\t.\n",
              NULL, "date", "-u", "+%A %B %d %H:%M:%S %y %F %T %R %h %n%t."),
      BH_CASE(NULL, BH_ANY, "Tue Jan  2 00:00:00 UTC 2024\n", NULL, "date",
              "-d", "2024-01-02"),
      BH_CASE(NULL, BH_ANY, "Tue Jan  2 03:04:05 UTC 2024\n", NULL, "date",
              "-d", "2024-01-02 03:04:05"),
      BH_CASE(NULL, BH_ANY, "Tue Jan  2 03:04:05 UTC 2024\n", NULL, "date",
              "-d", "2024-01-02T03:04:05Z"),
      BH_CASE(NULL, BH_ANY, "2024-01-02 01:04:05\n", NULL, "date", "-d",
              "2024-01-02T03:04:05+02:00", "+%F %T"),
      BH_CASE(NULL, BH_ANY, "Thu Jan  1 00:00:00 UTC 1970\n", NULL, "date",
              "-d", "@0"),
      BH_CASE(NULL, BH_ANY, "1969-12-31 23:59:59\n", NULL, "date", "-d", "@-1",
              "+%F %T"),
      BH_CASE(NULL, BH_ANY, "Thu Sep  6 01:46:40 UTC 2001\n", NULL, "date",
              "-d", "3 days ago"),
      BH_CASE(NULL, BH_ANY, "2001-09-08\n", NULL, "date", "-d", "yesterday",
              "+%F"),
      BH_CASE(NULL, BH_ANY, "2001-09-10\n", NULL, "date", "-d", "tomorrow",
              "+%F"),
      BH_CASE(NULL, BH_ANY, "03:46:40\n", NULL, "date", "-d", "+2 hours",
              "+%T"),
      BH_CASE(NULL, BH_ANY, "2024-03-02\n", NULL, "date", "-d",
              "2024-01-31 +1 month", "+%F"),
      BH_CASE(NULL, BH_ANY, "2001-09-16\n", NULL, "date", "-d", "next week",
              "+%F"),
      BH_CASE(NULL, BH_ANY, "1796000523\n", NULL, "date", "-d",
              "Thu Nov 30 01:02:03 UTC 2026", "+%s"),
      BH_CASE(NULL, BH_ANY, "2020-01-05 00:00:00\n", NULL, "date", "-d",
              "Jan 5 2020", "+%F %T"),
      BH_CASE(NULL, BH_ANY, "2001-09-10\n", NULL, "date", "-d", "monday",
              "+%F"),
      BH_CASE(NULL, BH_ANY, "Thu 060 -2203891200\n", NULL, "date", "-d",
              "1900-03-01", "+%a %j %s"),
  };
  bh_check_all(h, cases2);
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
  const bh_case cases3[] = {
      BH_CASE(NULL, BH_ANY, "2025-03-01\n", NULL, "date", "-d",
              "2024-02-29 +1 year", "+%F"),
      BH_CASE(NULL, BH_ANY, "2001-09-09 10:30:00\n", NULL, "date", "-d",
              "10:30", "+%F %T"),
      BH_CASE(NULL, BH_ANY, "17:00:00\n", NULL, "date", "-d", "5pm", "+%T"),
      BH_CASE(NULL, BH_ANY, "2024-01-02\n", NULL, "date", "-d", "20240102",
              "+%F"),
  };
  bh_check_all(h, cases3);
  bh_write(h, "f", "x");
  vfs_utimes(h->vfs, h->cwd, "f", VFS_UTIME_OMIT, INT64_C(86400000000000), 0);
  const bh_case cases4[] = {
      BH_CASE(NULL, BH_ANY, "1970-01-02\n", NULL, "date", "-r", "f", "+%F"),
      BH_CASE(NULL, 1, NULL, "date: nofile: No such file or directory\n",
              "date", "-r", "nofile"),
      BH_CASE(NULL, 1, NULL, "date: invalid date 'bogus words'\n", "date", "-d",
              "bogus words"),
      BH_CASE(NULL, 1, NULL, "date: multiple output formats specified\n",
              "date", "-I", "-R"),
      BH_CASE(NULL, 1, NULL,
              "date: invalid argument 'foo' for '--iso-8601'\n"
              "Valid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n"
              "  - 'seconds'\n  - 'ns'\n"
              "Try 'date --help' for more information.\n",
              "date", "-Ifoo"),
      BH_CASE(NULL, 1, NULL,
              "date: invalid option -- 'x'\n"
              "Try 'date --help' for more information.\n",
              "date", "-x"),
      BH_CASE(NULL, 1, NULL, NULL, "date", "0101"),
  };
  bh_check_all(h, cases4);
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
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "/usr/bin/ls\n", NULL, "which", "ls"),
      BH_CASE(NULL, 1, "/usr/bin/ls\n/bin/ls\n", NULL, "which", "-a", "ls",
              "nosuch"),
      BH_CASE(NULL, 1, "/bin/ls\n", NULL, "which", "/bin/ls", "./noexec"),
      BH_CASE(NULL, 2, NULL, "Illegal option -x\nUsage: which [-a] args\n",
              "which", "-x"),
      BH_CASE(NULL, 1, NULL, NULL, "which"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases[] = {
      BH_CASE(NULL, 1, NULL, "od: invalid character 'z' in type string 'z'\n",
              "od", "-tz"),
      BH_CASE(NULL, 1, NULL,
              "od: invalid type string 'x3';\nthis system doesn't provide a "
              "3-byte integral type\n",
              "od", "-tx3"),
      BH_CASE(NULL, 1, NULL, "od: nofile: No such file or directory\n", "od",
              "nofile"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_comm(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "c1", "a\nb\nd\n");
  bh_write(h, "c2", "b\nc\nd\ne\n");
  bh_write(h, "c3", "b\na\n");
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "a\n\t\tb\n\tc\n\t\td\n\te\n", NULL, "comm", "c1", "c2"),
      BH_CASE(NULL, BH_ANY, "b\nd\n", NULL, "comm", "-12", "c1", "c2"),
      BH_CASE(NULL, BH_ANY, "a\n::c\n::e\n", NULL, "comm", "-3",
              "--output-delimiter=::", "c1", "c2"),
      BH_CASE(NULL, BH_ANY, "a\n\t\tb\n\tc\n\t\td\n\te\n1\t2\t2\ttotal\n", NULL,
              "comm", "--total", "c1", "c2"),
      BH_CASE("b\nc\nd\ne\n", BH_ANY, "a\n", NULL, "comm", "-23", "c1", "-"),
      BH_CASE(NULL, 1, "\t\tb\na\n\tc\n\td\n\te\n",
              "comm: file 1 is not in sorted order\n"
              "comm: input is not in sorted order\n",
              "comm", "c3", "c2"),
      BH_CASE(NULL, 1, "\t\tb\n", "comm: file 1 is not in sorted order\n",
              "comm", "--check-order", "c3", "c2"),
      BH_CASE(NULL, 0, NULL, "", "comm", "--nocheck-order", "c3", "c2"),
      BH_CASE(NULL, 1, NULL,
              "comm: missing operand after 'c1'\n"
              "Try 'comm --help' for more information.\n",
              "comm", "c1"),
      BH_CASE(NULL, 1, NULL,
              "comm: extra operand 'c3'\n"
              "Try 'comm --help' for more information.\n",
              "comm", "c1", "c2", "c3"),
      BH_CASE(NULL, 1, NULL, "comm: nof: No such file or directory\n", "comm",
              "c1", "nof"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "a\tb\nb\tc\nd\td\n\te\n", NULL, "paste", "c1", "c2"),
      BH_CASE(NULL, BH_ANY, "a\tb\td\nb\tc\td\te\n", NULL, "paste", "-s", "c1",
              "c2"),
      BH_CASE(NULL, BH_ANY, "a,b;a\nb,c;b\nd,d;d\n,e;\n", NULL, "paste", "-d",
              ",;", "c1", "c2", "c1"),
      BH_CASE(NULL, BH_ANY, "b\nc,d\ne\n", NULL, "paste", "-s", "-d", "\\n,",
              "c2"),
      BH_CASE("x\ny\nz\n", BH_ANY, "x\ty\nz\t\n", NULL, "paste", "-", "-"),
      BH_CASE(NULL, BH_ANY, "ab\nbc\ndd\ne\n", NULL, "paste", "-d", "", "c1",
              "c2"),
      BH_CASE("", BH_ANY, "\n", NULL, "paste", "-s"),
      BH_CASE(NULL, 1, NULL, "paste: nof: No such file or directory\n", "paste",
              "nof"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_nl(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("a\n\nb\n", 0, "     1\ta\n       \n     2\tb\n", NULL, "nl"),
      BH_CASE("a\n\nb\n", BH_ANY, "1  :a\n2  :\n3  :b\n", NULL, "nl", "-ba",
              "-nln", "-w3", "-s:"),
      BH_CASE("a\n\nb\n", BH_ANY, "000005\ta\n       \n000007\tb\n", NULL, "nl",
              "-nrz", "-v5", "-i2"),
      BH_CASE("a\n\\:\\:\\:\nh\n\\:\\:\nb\n\\:\nf\n", BH_ANY,
              "     1\ta\n\n     1\th\n\n     1\tb\n\n     1\tf\n", NULL, "nl",
              "-ha", "-fa"),
      BH_CASE("a\nb\nc\n", BH_ANY, "       a\n     1\tb\n       c\n", NULL,
              "nl", "-p", "-bpb"),
      BH_CASE("a\n", 1, NULL,
              "nl: invalid body numbering style: 'x'\n"
              "Try 'nl --help' for more information.\n",
              "nl", "-bx"),
      BH_CASE("a\n", 1, NULL,
              "nl: invalid line number field width: '0': Numerical result out "
              "of range\n",
              "nl", "-w0"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_fold(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("abcdefghij klm nop\n", 0, "abcde\nfghij\n klm \nnop\n", NULL,
              "fold", "-w5"),
      BH_CASE("abcdefghij klm nop\n", BH_ANY, "abcde\nfghij\n klm \nnop\n",
              NULL, "fold", "-s", "-w5"),
      BH_CASE("aaa bbb ccc\n", BH_ANY, "aaa \nbbb \nccc\n", NULL, "fold", "-s",
              "-w6"),
      BH_CASE("a\tbcdefghij\n", BH_ANY, "a\n\t\nbcdef\nghij\n", NULL, "fold",
              "-w5"),
      BH_CASE("a\tbcdefghij\n", BH_ANY, "a\tbcd\nefghi\nj\n", NULL, "fold",
              "-b", "-w5"),
      BH_CASE("abcdef", BH_ANY, "abc\ndef", NULL, "fold", "-3"),
      BH_CASE(NULL, 1, NULL,
              "fold: invalid number of columns: '0': Numerical result out of "
              "range\n",
              "fold", "-w0"),
      BH_CASE(NULL, 1, NULL, "fold: invalid number of columns: 'x'\n", "fold",
              "-wx"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_expand(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("a\tb\n        x\n", 0, "a   b\n        x\n", NULL, "expand",
              "-t", "4"),
      BH_CASE("a\tb\n", BH_ANY, "a       b\n", NULL, "expand"),
      BH_CASE("\ta\tb\n", BH_ANY, "  a\tb\n", NULL, "expand", "-i", "-t2"),
      BH_CASE("a\tbc\td\n", BH_ANY, "a  bc d\n", NULL, "expand", "-t", "3,6"),
      BH_CASE("        a       b\n", BH_ANY, "\ta       b\n", NULL, "unexpand"),
      BH_CASE("        a       b\n", BH_ANY, "\ta\tb\n", NULL, "unexpand",
              "-a"),
      BH_CASE("x        y\n", BH_ANY, "x\t y\n", NULL, "unexpand", "-a"),
      BH_CASE("    x\n", BH_ANY, "\tx\n", NULL, "unexpand", "-t", "4"),
      BH_CASE("\t \n", BH_ANY, "\t \n", NULL, "unexpand"),
      BH_CASE(NULL, 1, NULL, "expand: tab size cannot be 0\n", "expand", "-t",
              "0"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_sums(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "h1", "abc");
  const bh_case cases[] = {
      BH_CASE("", 0,
              "900150983cd24fb0d6963f7d28e17f72  h1\n"
              "d41d8cd98f00b204e9800998ecf8427e  -\n",
              NULL, "md5sum", "h1", "-"),
      BH_CASE("abc", BH_ANY, "a9993e364706816aba3e25717850c26c9cd0d89d  -\n",
              NULL, "sha1sum"),
      BH_CASE("", BH_ANY, "da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n", NULL,
              "sha1sum"),
      BH_CASE("abc", BH_ANY,
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
              "  -\n",
              NULL, "sha256sum"),
      BH_CASE("abc", BH_ANY,
              "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
              "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
              "  -\n",
              NULL, "sha512sum"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases2[] = {
      BH_CASE(NULL, BH_ANY, "\\d41d8cd98f00b204e9800998ecf8427e  a\\\\b\n",
              NULL, "md5sum", "a\\b"),
      /* -c */
      BH_CASE("900150983cd24fb0d6963f7d28e17f72  h1\n", BH_ANY, "h1: OK\n",
              NULL, "md5sum", "-c"),
      BH_CASE("MD5 (h1) = 900150983cd24fb0d6963f7d28e17f72\n", BH_ANY,
              "h1: OK\n", NULL, "md5sum", "-c"),
      BH_CASE("\\d41d8cd98f00b204e9800998ecf8427e  a\\\\b\n", BH_ANY,
              "a\\b: OK\n", NULL, "md5sum", "-c"),
      BH_CASE("00000000000000000000000000000000  h1\n"
              "900150983cd24fb0d6963f7d28e17f72  h1\n"
              "900150983cd24fb0d6963f7d28e17f72  nof\n"
              "bad\n",
              1, "h1: FAILED\nh1: OK\nnof: FAILED open or read\n",
              "md5sum: nof: No such file or directory\n"
              "md5sum: WARNING: 1 line is improperly formatted\n"
              "md5sum: WARNING: 1 listed file could not be read\n"
              "md5sum: WARNING: 1 computed checksum did NOT match\n",
              "md5sum", "-c"),
      BH_CASE("900150983cd24fb0d6963f7d28e17f72  h1\nbad\n", 0, "",
              "md5sum: 'standard input': 2: improperly formatted MD5 checksum "
              "line\nmd5sum: WARNING: 1 line is improperly formatted\n",
              "md5sum", "-c", "--quiet", "-w"),
      BH_CASE("garbage\n", 1, NULL,
              "md5sum: 'standard input': no properly formatted checksum lines "
              "found\n",
              "md5sum", "-c"),
      BH_CASE("900150983cd24fb0d6963f7d28e17f72  nof\n", 1, NULL,
              "md5sum: 'standard input': no file was verified\n", "md5sum",
              "-c", "--ignore-missing"),
      BH_CASE("00000000000000000000000000000000  h1\n", 1, "", "", "md5sum",
              "-c", "--status"),
      BH_CASE(NULL, 1, NULL, "md5sum: nofile: No such file or directory\n",
              "md5sum", "nofile"),
      BH_CASE(NULL, 1, NULL,
              "md5sum: invalid option -- 'x'\n"
              "Try 'md5sum --help' for more information.\n",
              "md5sum", "-x"),
  };
  bh_check_all(h, cases2);
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
  const bh_case cases[] = {
      BH_CASE("abc", 0, ABC224 "  -\n", NULL, "sha224sum"),
      BH_CASE("", 0,
              ABC224 "  h1\n"
                     "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"
                     "  -\n",
              NULL, "sha224sum", "h1", "-"),
      BH_CASE("abc", 0, ABC384 "  -\n", NULL, "sha384sum"),
      BH_CASE("", 0,
              "38b060a751ac96384cd9327eb1b1e36a21fdb71114be0743"
              "4c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b  -\n" ABC384
              "  h1\n",
              NULL, "sha384sum", "-", "h1"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases2[] = {
      /* --tag and -b */
      BH_CASE(NULL, 0, "SHA224 (h1) = " ABC224 "\n", NULL, "sha224sum", "--tag",
              "h1"),
      BH_CASE(NULL, 0, "SHA384 (h1) = " ABC384 "\n", NULL, "sha384sum", "--tag",
              "h1"),
      BH_CASE(NULL, BH_ANY, ABC384 " *h1\n", NULL, "sha384sum", "-b", "h1"),
      /* -c, in both line forms */
      BH_CASE(ABC224 "  h1\n", 0, "h1: OK\n", "", "sha224sum", "-c"),
      BH_CASE("SHA384 (h1) = " ABC384 "\n", 0, "h1: OK\n", NULL, "sha384sum",
              "-c"),
  };
  bh_check_all(h, cases2);
  bh_write(h, "sums", ABC384 " *h1\n");
  assert_int_equal(RUN(h, NULL, "sha384sum", "--check", "sums"), 0);
  OUT_IS(h, "h1: OK\n");
  /* A mismatch. */
  bh_write(h, "h1", "abd");
  const bh_case cases3[] = {
      BH_CASE(ABC224 "  h1\n", 1, "h1: FAILED\n",
              "sha224sum: WARNING: 1 computed checksum did NOT match\n",
              "sha224sum", "-c"),
      BH_CASE(NULL, 1, "h1: FAILED\n",
              "sha384sum: WARNING: 1 computed checksum did NOT match\n",
              "sha384sum", "-c", "sums"),
      BH_CASE(NULL, 1, "", "", "sha384sum", "-c", "--status", "sums"),
      /* A line of another length is not a SHA384 line. */
      BH_CASE(ABC224 "  h1\n", 1, NULL,
              "sha384sum: 'standard input': 1: improperly formatted SHA384 "
              "checksum line\n"
              "sha384sum: 'standard input': no properly formatted checksum "
              "lines found\n",
              "sha384sum", "-c", "-w"),
  };
  bh_check_all(h, cases3);
  bh_free(h);
}

/* Messages of the checksum commands: quoting of names, the escaping of a
 * name with a newline in -c verdicts, clashing options. */
static void t_sums_messages(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "n\nl", "abc");
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "\\900150983cd24fb0d6963f7d28e17f72  n\\nl\n", NULL,
              "md5sum", "n\nl"),
      BH_CASE("\\900150983cd24fb0d6963f7d28e17f72  n\\nl\n", 0, "\\n\\nl: OK\n",
              NULL, "md5sum", "-c"),
      BH_CASE("\\00000000000000000000000000000000  n\\nl\n", 1,
              "\\n\\nl: FAILED\n", NULL, "md5sum", "-c"),
      BH_CASE(NULL, 1, NULL,
              "md5sum: 'sp ace': No such file or directory\n"
              "md5sum: 'a:b': No such file or directory\n"
              "md5sum: \"it's\": No such file or directory\n"
              "md5sum: 'x'$'\\n': No such file or directory\n",
              "md5sum", "sp ace", "a:b", "it's", "x\n"),
      BH_CASE(NULL, 1, NULL,
              "sha224sum: the --quiet option is meaningful only when verifying "
              "checksums\nTry 'sha224sum --help' for more information.\n",
              "sha224sum", "--quiet", "--strict", "x"),
      BH_CASE(NULL, 1, NULL,
              "sha224sum: the --zero option is not supported when verifying "
              "checksums\nTry 'sha224sum --help' for more information.\n",
              "sha224sum", "-z", "-c", "--tag", "x"),
      BH_CASE(NULL, 1, NULL,
              "sha384sum: --tag does not support --text mode\n"
              "Try 'sha384sum --help' for more information.\n",
              "sha384sum", "--tag", "-t", "x"),
      BH_CASE(NULL, 1, NULL,
              "sha384sum: the --binary and --text options are meaningless when "
              "verifying checksums\n"
              "Try 'sha384sum --help' for more information.\n",
              "sha384sum", "-b", "-c", "x"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases[] = {
      BH_CASE("abc", 0, "YWJj\n", NULL, "base64"),
      BH_CASE(
          "hello world hello world hello world hello world hello world", BH_ANY,
          "aGVsbG8gd29ybGQgaGVs\nbG8gd29ybGQgaGVsbG8g\nd29ybGQgaGVsbG8gd29y\n"
          "bGQgaGVsbG8gd29ybGQ=\n",
          NULL, "base64", "-w", "20"),
      BH_CASE("ab", BH_ANY, "YWI=", NULL, "base64", "-w0"),
      BH_CASE("", BH_ANY, "", NULL, "base64"),
  };
  bh_check_all(h, cases);
  h->stdin_chunk = 2;
  RUN(h, "abcdefg", "base64");
  OUT_IS(h, "YWJjZGVmZw==\n");
  h->stdin_chunk = 0;
  const bh_case cases2[] = {
      BH_CASE("aGVs\nbG8=\n", BH_ANY, "hello", NULL, "base64", "-d"),
      BH_CASE("aGV!sbG8=", 1, "he", "base64: invalid input\n", "base64", "-d"),
      BH_CASE("aGV!sbG8=", 0, "hello", NULL, "base64", "-di"),
      BH_CASE("aGVsbG8", 1, "hello", NULL, "base64", "-d"),
  };
  bh_check_all(h, cases2);
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
  const bh_case cases[] = {
      BH_CASE(NULL, 1, NULL, "mktemp: too few X's in template 'abc'\n",
              "mktemp", "abc"),
      BH_CASE(NULL, 1, NULL,
              "mktemp: failed to create file via template 'nodir/XXX': No "
              "such file or directory\n",
              "mktemp", "nodir/XXX"),
      BH_CASE(NULL, 1, NULL,
              "mktemp: too many templates\n"
              "Try 'mktemp --help' for more information.\n",
              "mktemp", "a", "b"),
  };
  bh_check_all(h, cases);
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
  const bh_case cases[] = {
      BH_CASE(NULL, 124, NULL,
              "timeout: sending signal TERM to command 'sleep'\n", "timeout",
              "-v", "0.05", "sleep", "5"),
      BH_CASE(NULL, 143, NULL, NULL, "timeout", "--preserve-status", "0.05",
              "sleep", "5"),
      BH_CASE(NULL, 137, NULL, NULL, "timeout", "-s", "KILL", "0.05", "sleep",
              "5"),
  };
  bh_check_all(h, cases);
  /* An outer deadline that fires first is not ours to clear. */
  h->bud.deadline_ns = budget_now_ns(&h->bud) + 30000000;
  assert_int_not_equal(RUN(h, NULL, "timeout", "10", "sleep", "5"), 124);
  assert_int_equal(h->bud.stop, BUDGET_TIMEOUT);
  h->bud.deadline_ns = 0;
  const bh_case cases2[] = {
      BH_CASE(NULL, 127, NULL, NULL, "timeout", "1", "nosuchcmd"),
      BH_CASE(NULL, 125, NULL, "Try 'timeout --help' for more information.\n",
              "timeout"),
      BH_CASE(NULL, 125, NULL,
              "timeout: invalid time interval 'x'\n"
              "Try 'timeout --help' for more information.\n",
              "timeout", "x", "sleep", "1"),
      BH_CASE(NULL, 125, NULL, NULL, "timeout", "--bogus"),
  };
  bh_check_all(h, cases2);
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
