// layers: core vfs builtins
/* Unit tests of tree, du, df, nproc, getconf and tsort. tree, du and tsort
 * expectations were recorded from tree 2.1 and coreutils 9.1 on Debian 12
 * by record_files.py; df, nproc and getconf describe the sandbox (one
 * processor, the quota as the file system) in the formats of coreutils
 * 9.1 and glibc 2.36. */
#include <fcntl.h>
#include <stdio.h>

#include "bi_harness.h"

#include "files_cases.inc"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The tree record_files.py builds, with cwd inside it. */
static bh *fixture(void) {
  bh *h = bh_new();
  vfs *v = h->vfs;
  const char *dirs[] = {"tt/src/lib", "tt/docs", "tt/.git", "tt/empty"};
  for (size_t i = 0; i < N(dirs); i++)
    assert_int_equal(vfs_mkdir_p(v, h->cwd, dirs[i], 0755), 0);
  strcat(h->cwd, "/tt");
  bh_write(h, "src/main.c", "a\n");
  bh_write(h, "src/lib/util.c", "b\n");
  bh_write(h, "docs/README.md", "c\n");
  bh_write(h, ".hidden", "d\n");
  bh_write(h, "Makefile", "e\n");
  bh_write(h, "b.txt", "f\n");
  bh_write(h, ".git/HEAD", "z\n");
  char big[5000];
  memset(big, 'x', sizeof big);
  bh_writen(h, "big.dat", big, sizeof big);
  assert_int_equal(vfs_chmod(v, h->cwd, "Makefile", 0755), 0);
  assert_int_equal(vfs_symlink(v, h->cwd, "src/main.c", "link"), 0);
  assert_int_equal(vfs_symlink(v, h->cwd, "nowhere", "broken"), 0);
  return h;
}

static void t_tree_c(void **st) {
  bh *h = fixture();
  bh_check_n(h, files_tree_c, N(files_tree_c));
  bh_free(h);
}

static void t_tree_utf8(void **st) {
  bh *h = fixture();
  bh_setenv(h, "LANG", "C.UTF-8");
  bh_check_n(h, files_tree_utf8, N(files_tree_utf8));
  bh_free(h);
}

static void t_du(void **st) {
  bh *h = fixture();
  bh_check_n(h, files_du, N(files_du));
  /* a file with two names counts once, where it is met first */
  assert_int_equal(vfs_link(h->vfs, h->cwd, "src/main.c", "zz"), 0);
  const bh_case links[] = {
      BH_CASE(NULL, 0, "4\tsrc/main.c\n", "", "du", "-a", "src/main.c", "zz"),
      BH_CASE(NULL, 0, "4\tsrc/main.c\n4\tzz\n", "", "du", "-l", "src/main.c",
              "zz"),
      BH_CASE(NULL, 0, "60\t.\n", "", "du", "-s"),
  };
  bh_check_all(h, links);
  bh_free(h);
}

static void t_df(void **st) {
  bh *h = fixture();
  vfs_set_quota(h->vfs, (uint64_t)1 << 30, 1000000);
  uint64_t bytes, nodes;
  vfs_usage(h->vfs, &bytes, &nodes);
  char want[512];
  uint64_t used = (bytes + 1023) / 1024;
  snprintf(want, sizeof want,
           "Filesystem     1K-blocks  Used Available Use%% Mounted on\n"
           "vsh              1048576 %5llu %9llu   1%% /\n",
           (unsigned long long)used,
           (unsigned long long)(((1u << 30) - bytes + 1023) / 1024));
  assert_int_equal(bh_run(h, NULL, "df", NULL), 0);
  assert_string_equal(bh_out(h), want);
  assert_int_equal(bh_run(h, NULL, "df", "-hT", ".", NULL), 0);
  const char *o = bh_out(h);
  const char *head = "Filesystem     Type  Size  Used Avail Use% Mounted on\n"
                     "vsh            vsh   1.0G  ";
  assert_memory_equal(o, head, strlen(head));
  assert_string_equal(o + strlen(head) + 4, "  1.0G   1% /\n");
  assert_true(o[strlen(head) + 3] == 'K'); /* a few KiB of files */
  /* the quota's counters move with what is written */
  char *blob = calloc(1, 300000);
  bh_writen(h, "blob", blob, 300000);
  free(blob);
  assert_int_equal(bh_run(h, NULL, "df", "-h", NULL), 0);
  assert_string_equal(bh_out(h),
                      "Filesystem      Size  Used Avail Use% Mounted on\n"
                      "vsh             1.0G  298K  1.0G   1% /\n");
  /* -B: each figure rounded up to the unit, the unit shown when only it
   * was given (coreutils 9.1's headers and suffixes) */
  vfs_usage(h->vfs, &bytes, &nodes);
  static const struct {
    const char *b, *head;
    uint64_t unit;
    const char *sfx;
  } bsz[] = {{"-BM", "1M-blocks", 1048576, "M"},
             {"-B1M", "1M-blocks", 1048576, ""},
             {"-B1", "1B-blocks", 1, ""},
             {"-B2K", "2K-blocks", 2048, ""},
             {"-BKB", "1kB-blocks", 1000, "kB"},
             {"-B1000", "1kB-blocks", 1000, ""},
             {"-BMiB", "1MiB-blocks", 1048576, "MiB"},
             {"-B3", "3B-blocks", 3, ""}};
  for (size_t i = 0; i < N(bsz); i++) {
    uint64_t u = bsz[i].unit, max = (uint64_t)1 << 30;
    char sz[40], us[40], av[40];
    snprintf(sz, sizeof sz, "%llu%s", (unsigned long long)((max + u - 1) / u),
             bsz[i].sfx);
    snprintf(us, sizeof us, "%llu%s", (unsigned long long)((bytes + u - 1) / u),
             bsz[i].sfx);
    snprintf(av, sizeof av, "%llu%s",
             (unsigned long long)((max - bytes + u - 1) / u), bsz[i].sfx);
    size_t w1 =
        strlen(bsz[i].head) > strlen(sz) ? strlen(bsz[i].head) : strlen(sz);
    size_t w2 = strlen(us) > 5 ? strlen(us) : 5;
    size_t w3 = strlen(av) > 9 ? strlen(av) : 9;
    snprintf(want, sizeof want,
             "Filesystem     %*s %*s %*s Use%% Mounted on\n"
             "vsh            %*s %*s %*s   1%% /\n",
             (int)w1, bsz[i].head, (int)w2, "Used", (int)w3, "Available",
             (int)w1, sz, (int)w2, us, (int)w3, av);
    assert_int_equal(bh_run(h, NULL, "df", bsz[i].b, NULL), 0);
    assert_string_equal(bh_out(h), want);
  }
  assert_int_equal(bh_run(h, NULL, "df", "-Bx", NULL), 1);
  assert_string_equal(bh_err(h), "df: invalid -B argument 'x'\n");
  assert_int_equal(bh_run(h, NULL, "df", "nofile", NULL), 1);
  assert_string_equal(bh_err(h), "df: nofile: No such file or directory\n");
  vfs_usage(h->vfs, &bytes, &nodes);
  assert_int_equal(bh_run(h, NULL, "df", "--total", "-i", NULL), 0);
  snprintf(want, sizeof want,
           "Filesystem      Inodes IUsed  IFree IUse%% Mounted on\n"
           "vsh            1000000 %5llu %6llu    1%% /\n"
           "total          1000000 %5llu %6llu    1%% -\n",
           (unsigned long long)nodes, (unsigned long long)(1000000 - nodes),
           (unsigned long long)nodes, (unsigned long long)(1000000 - nodes));
  assert_string_equal(bh_out(h), want);
  bh_free(h);
}

static void t_nproc_getconf(void **st) {
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "1\n", "", "nproc"),
      BH_CASE(NULL, 0, "1\n", "", "nproc", "--all"),
      BH_CASE(NULL, 1, "", "nproc: invalid number: 'x'\n", "nproc",
              "--ignore=x"),
      BH_CASE(NULL, 1, "",
              "nproc: extra operand 'a'\n"
              "Try 'nproc --help' for more information.\n",
              "nproc", "a"),
      BH_CASE(NULL, 0, "64\n", "", "getconf", "LONG_BIT"),
      BH_CASE(NULL, 0, "4096\n", "", "getconf", "PAGESIZE"),
      BH_CASE(NULL, 0, "4096\n", "", "getconf", "PAGE_SIZE"),
      BH_CASE(NULL, 0, "2097152\n", "", "getconf", "ARG_MAX"),
      BH_CASE(NULL, 0, "100\n", "", "getconf", "CLK_TCK"),
      BH_CASE(NULL, 0, "1\n", "", "getconf", "_NPROCESSORS_ONLN"),
      BH_CASE(NULL, 0, "4096\n", "", "getconf", "PATH_MAX", "/"),
      BH_CASE(NULL, 0, "255\n", "", "getconf", "NAME_MAX", "/tmp"),
      BH_CASE(NULL, 0, "2097152\n", "", "getconf", "-v", "POSIX_V7_LP64_OFF64",
              "ARG_MAX"),
      BH_CASE(NULL, 2, "",
              "Usage: getconf [-v specification] variable_name [pathname]\n"
              "       getconf -a [pathname]\n",
              "getconf", "PATH_MAX"),
      BH_CASE(NULL, 2, "",
              "Usage: getconf [-v specification] variable_name [pathname]\n"
              "       getconf -a [pathname]\n",
              "getconf"),
      BH_CASE(NULL, 2, "", "getconf: Unrecognized variable `BOGUS'\n",
              "getconf", "BOGUS"),
      BH_CASE(NULL, 3, "",
              "getconf: pathconf: /nonexist: No such file or directory\n",
              "getconf", "NAME_MAX", "/nonexist"),
  };
  bh_check_all(h, cases);
  bh_setenv(h, "OMP_NUM_THREADS", "4,2");
  assert_int_equal(bh_run(h, NULL, "nproc", NULL), 0);
  assert_string_equal(bh_out(h), "4\n");
  assert_int_equal(bh_run(h, NULL, "nproc", "--ignore=3", NULL), 0);
  assert_string_equal(bh_out(h), "1\n");
  bh_setenv(h, "OMP_THREAD_LIMIT", "2");
  assert_int_equal(bh_run(h, NULL, "nproc", NULL), 0);
  assert_string_equal(bh_out(h), "2\n");
  assert_int_equal(bh_run(h, NULL, "getconf", "-a", NULL), 0);
  assert_non_null(
      strstr(bh_out(h), "\nPAGESIZE                           4096\n"));
  bh_free(h);
}

static void t_tsort(void **st) {
  bh *h = bh_new();
  h->stdin_chunk = 5;
  bh_check_n(h, files_tsort, N(files_tsort));
  bh_free(h);
}

/* A deep directory chain: the walks keep their own stacks. */
static void t_deep(void **st) {
  bh *h = bh_new();
  char path[4096];
  size_t n = 0;
  for (int i = 0; i < 600; i++) {
    path[n++] = 'd';
    path[n++] = '/';
  }
  path[n - 1] = 0;
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, path, 0755), 0);
  assert_int_equal(bh_run(h, NULL, "du", "-s", "d", NULL), 0);
  assert_string_equal(bh_out(h), "2400\td\n");
  assert_int_equal(
      bh_run(h, NULL, "tree", "--noreport", "-d", "-L", "2", "d", NULL), 0);
  assert_string_equal(bh_out(h), "d\n`-- d\n    `-- d\n");
  assert_int_equal(bh_run(h, NULL, "tree", "d", NULL), 0);
  assert_non_null(strstr(bh_out(h), "\n600 directories, 0 files\n"));
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_tree_c),
      cmocka_unit_test(t_tree_utf8),
      cmocka_unit_test(t_du),
      cmocka_unit_test(t_df),
      cmocka_unit_test(t_nproc_getconf),
      cmocka_unit_test(t_tsort),
      cmocka_unit_test(t_deep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
