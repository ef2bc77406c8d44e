// layers: all
/* test_template.c - new sandboxes start from a default layout shared
 * copy-on-write: each one still owns its tree, sees the times its own
 * clock gives, gets the commands its configuration has, and opening from
 * several threads at once is safe. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vsh.h"

static vsh_sandbox *open_cfg(const vsh_config *cfg) {
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(cfg, &sb), VSH_OK);
  assert_non_null(sb);
  return sb;
}

static void expect(vsh_sandbox *sb, const char *script, const char *out) {
  vsh_result r;
  assert_int_equal(vsh_exec(sb, script, NULL, &r), VSH_OK);
  if (strcmp(r.out, out) != 0)
    fprintf(stderr, "%s\nout: %s\nerr: %s\n", script, r.out, r.err);
  assert_string_equal(r.out, out);
  vsh_result_free(&r);
}

/* What one sandbox does to the layout, no other sees. */
static void test_isolated(void **state) {
  (void)state;
  vsh_sandbox *a = open_cfg(NULL), *b = open_cfg(NULL);
  /* the host writes anywhere; the script where its user may */
  assert_int_equal(vsh_rm(a, "/usr/bin/ls", 0), VSH_OK);
  assert_int_equal(vsh_rm(a, "/dev/null", 0), VSH_OK);
  assert_int_equal(vsh_write_file(a, "/bin/mine", "x\n", 2, 0755), VSH_OK);
  assert_int_equal(vsh_chmod(a, "/tmp", 0700), VSH_OK);
  expect(a, "touch /home/user/f && echo ok", "ok\n");
  expect(a, "ls /bin/mine /home/user; test -e /usr/bin/ls || echo gone",
         "/bin/mine\n\n/home/user:\nf\ngone\n");
  vsh_sandbox *c = open_cfg(NULL);
  const char *same = "test -e /bin/mine || echo none; ls /home/user; "
                     "stat -c '%a %U' /tmp /usr/bin/ls /dev/null\n";
  const char *want = "none\n1777 root\n755 root\n666 root\n";
  expect(b, same, want);
  expect(c, same, want);
  vsh_close(a);
  expect(b, same, want);
  vsh_close(b);
  expect(c, same, want);
  vsh_close(c);
}

static int64_t fixed_clock(void *ud, int monotonic) {
  (void)monotonic;
  return *(const int64_t *)ud;
}

/* With its own clock, a sandbox's layout carries that clock's time. */
static void test_clock(void **state) {
  (void)state;
  int64_t t1 = (int64_t)1000000000 * 1000000000, t2 = t1 + 86400000000000;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.clock = fixed_clock;
  int64_t times[] = {t1, t2, t1};
  for (int i = 0; i < 3; i++) {
    cfg.clock_ud = &times[i];
    vsh_sandbox *sb = open_cfg(&cfg);
    const char *paths[] = {"/tmp", "/home/user", "/usr/bin/cat", "/dev/fd"};
    for (int k = 0; k < 4; k++) {
      vsh_stat st;
      assert_int_equal(vsh_stat_path(sb, paths[k], &st), VSH_OK);
      assert_true(st.mtime_ns == times[i]);
      assert_true(st.ctime_ns == times[i]);
    }
    vsh_close(sb);
  }
}

/* The network commands are there only when a policy is configured. */
static void test_net_commands(void **state) {
  (void)state;
  vsh_net_rule rule = {.prefix = "https://example.com/"};
  vsh_net_policy pol = {.rules = &rule, .nrules = 1};
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.net = &pol;
  vsh_sandbox *with = open_cfg(&cfg);
  vsh_sandbox *without = open_cfg(NULL);
  assert_true(vsh_exists(with, "/usr/bin/ls"));
  assert_false(vsh_exists(without, "/usr/bin/curl"));
  assert_false(vsh_exists(without, "/bin/curl"));
  vsh_close(with);
  vsh_close(without);
}

/* The quotas hold for the layout as for anything else. */
static void test_quota(void **state) {
  (void)state;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.limits.max_fs_inodes = 10;
  vsh_sandbox *sb = NULL;
  assert_int_not_equal(vsh_open(&cfg, &sb), VSH_OK);
  assert_null(sb);
  cfg.limits.max_fs_inodes = 0;
  cfg.flags = VSH_CFG_NO_DEFAULT_LAYOUT;
  cfg.cwd = "/w";
  sb = open_cfg(&cfg);
  assert_false(vsh_exists(sb, "/bin"));
  assert_true(vsh_exists(sb, "/w"));
  vsh_close(sb);
}

/* Another cwd is made on top of the layout, owned by the user. */
static void test_cwd(void **state) {
  (void)state;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.cwd = "/workspace/a";
  vsh_sandbox *sb = open_cfg(&cfg);
  expect(sb, "pwd; stat -c '%U %a' .; ls /bin/ls",
         "/workspace/a\nuser 755\n/bin/ls\n");
  vsh_close(sb);
  sb = open_cfg(NULL);
  expect(sb, "test -e /workspace || echo no", "no\n");
  vsh_close(sb);
}

#define NTHREADS 4
#define PER_THREAD 50

static void *opener(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < PER_THREAD; i++) {
    vsh_sandbox *sb = NULL;
    vsh_config cfg;
    vsh_config_init(&cfg);
    int64_t t = (int64_t)(id % 2) * 1000000000;
    if (i % 3 == 0) { /* clocked templates are rebuilt under the others */
      cfg.clock = fixed_clock;
      cfg.clock_ud = &t;
    }
    if (vsh_open(&cfg, &sb) != VSH_OK || vsh_rm(sb, "/usr/bin/cat", 0))
      return (void *)1;
    char script[128];
    snprintf(script, sizeof script,
             "echo %ld > /tmp/x; cat /tmp/x; "
             "head -c 3 /bin/ls",
             id);
    char want[64];
    snprintf(want, sizeof want, "%ld\n#!v", id);
    vsh_result r;
    int bad =
        vsh_exec(sb, script, NULL, &r) != VSH_OK || strcmp(r.out, want) != 0;
    vsh_result_free(&r);
    vsh_close(sb);
    if (bad)
      return (void *)1;
  }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  pthread_t th[NTHREADS];
  for (long i = 0; i < NTHREADS; i++)
    assert_int_equal(pthread_create(&th[i], NULL, opener, (void *)i), 0);
  for (int i = 0; i < NTHREADS; i++) {
    void *ret = NULL;
    pthread_join(th[i], &ret);
    assert_null(ret);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_isolated),     cmocka_unit_test(test_clock),
      cmocka_unit_test(test_net_commands), cmocka_unit_test(test_quota),
      cmocka_unit_test(test_cwd),          cmocka_unit_test(test_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
