// layers: all
/*
 * test_concurrent.c - one sandbox used from several threads while execs run
 * (include/vsh.h, "Threads"): a file call never waits for a running exec to
 * end, only for one of its scheduling steps; two execs from two threads
 * both make progress, each with its own shell state, over one filesystem.
 *
 * Progress is shown without clocks: each script below waits for something
 * only another thread can do (create a file, run another exec). If calls
 * waited for the running exec to end, the script would wait until its
 * deadline and end 124 instead of printing what it saw. The deadlines are
 * generous, so a slow machine changes nothing but the run time. The races
 * themselves are the business of the ThreadSanitizer build of this test
 * (scripts/tsan.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "vsh.h"

#define DEADLINE_MS 60000

typedef struct runner {
  vsh_sandbox *sb;
  vsh_session *sess; /* non-NULL: run in this session */
  const char *script;
  vsh_status st;
  vsh_result res;
  int errcode; /* vsh_errcode read on the runner's own thread */
} runner;

static void *runner_main(void *arg) {
  runner *r = arg;
  vsh_exec_opts o = {0};
  o.timeout_ms = DEADLINE_MS;
  if (r->sess)
    r->st =
        vsh_session_exec(r->sess, r->script, strlen(r->script), &o, &r->res);
  else
    r->st = vsh_exec(r->sb, r->script, &o, &r->res);
  if (r->st != VSH_OK)
    r->errcode = vsh_errcode(r->sb);
  return NULL;
}

static void start(pthread_t *th, runner *r) {
  assert_int_equal(pthread_create(th, NULL, runner_main, r), 0);
}

static void pause_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static vsh_sandbox *sandbox(void) {
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(NULL, &sb), VSH_OK);
  return sb;
}

static void put(vsh_sandbox *sb, const char *path, const char *data) {
  assert_int_equal(vsh_write_file(sb, path, data, strlen(data), 0), VSH_OK);
}

/* The script waits for a file that this thread writes while it runs: in
 * the shell's own loop, in a sleep, and inside one builtin's loop. */
static void check_sees_write(const char *script) {
  vsh_sandbox *sb = sandbox();
  runner r = {.sb = sb, .script = script};
  pthread_t th;
  start(&th, &r);
  pause_ms(20);
  /* reads and writes while the script runs */
  for (int i = 0; i < 20; i++) {
    char name[32];
    snprintf(name, sizeof name, "/tmp/f%d", i);
    put(sb, name, "data");
    char *d = NULL;
    size_t n = 0;
    assert_int_equal(vsh_read_file(sb, name, &d, &n), VSH_OK);
    assert_int_equal(n, 4);
    vsh_free(sb, d);
  }
  put(sb, "/tmp/go", "x\n");
  pthread_join(th, NULL);
  assert_int_equal(r.st, VSH_OK);
  assert_string_equal(r.res.err, "");
  assert_string_equal(r.res.out, "seen\n");
  assert_int_equal(r.res.status, 0);
  vsh_result_free(&r.res);
  vsh_close(sb);
}

static void test_file_call_during_shell_loop(void **state) {
  (void)state;
  check_sees_write("until [ -e /tmp/go ]; do :; done; echo seen");
}

static void test_file_call_during_sleep(void **state) {
  (void)state;
  check_sees_write("until [ -e /tmp/go ]; do sleep 0.01; done; echo seen");
}

static void test_file_call_during_one_builtin(void **state) {
  (void)state;
  check_sees_write("awk 'BEGIN { while ((getline l < \"/tmp/go\") <= 0)"
                   " close(\"/tmp/go\"); print \"seen\" }'");
}

static void test_file_call_during_pipeline(void **state) {
  (void)state;
  check_sees_write("yes | while read y; do [ -e /tmp/go ] && break; done;"
                   " echo seen");
}

/* Two execs, each waiting for the other: both must run. Each has its own
 * variables and cwd. */
static void test_two_execs_progress(void **state) {
  (void)state;
  vsh_sandbox *sb = sandbox();
  runner a = {.sb = sb,
              .script = "x=from-a; cd /tmp; touch /tmp/a;"
                        " until [ -e /tmp/b ]; do :; done; echo \"a $x $PWD\""};
  runner b = {.sb = sb,
              .script = "until [ -e /tmp/a ]; do :; done; touch /tmp/b;"
                        " echo \"b ${x-unset} $PWD\""};
  pthread_t ta, tb;
  start(&ta, &a);
  start(&tb, &b);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  assert_int_equal(a.st, VSH_OK);
  assert_int_equal(b.st, VSH_OK);
  assert_string_equal(a.res.out, "a from-a /tmp\n");
  assert_string_equal(b.res.out, "b unset /home/user\n");
  vsh_result_free(&a.res);
  vsh_result_free(&b.res);
  /* and the sandbox goes on as before */
  vsh_result res;
  assert_int_equal(vsh_exec(sb, "ls /tmp; echo ${x-none}", NULL, &res), VSH_OK);
  assert_string_equal(res.out, "a\nb\nnone\n");
  vsh_result_free(&res);
  vsh_close(sb);
}

/* Four execs in a ring, each passing a token to the next through files,
 * ten rounds; with pipelines and sleeps on the way. */
typedef struct ring_arg {
  runner r;
  char script[512];
} ring_arg;

static void test_ring_of_execs(void **state) {
  (void)state;
  enum { N = 4 };
  vsh_sandbox *sb = sandbox();
  ring_arg ra[N];
  pthread_t th[N];
  for (int i = 0; i < N; i++) {
    snprintf(ra[i].script, sizeof ra[i].script,
             "for k in $(seq 10); do"
             "  until [ -e /tmp/t%d.$k ]; do sleep 0.001; done;"
             "  echo $k | cat | tr 0-9 0-9 > /tmp/t%d.$((k + %d));"
             "done; echo done %d",
             i, (i + 1) % N, i == N - 1 ? 1 : 0, i);
    memset(&ra[i].r, 0, sizeof ra[i].r);
    ra[i].r.sb = sb;
    ra[i].r.script = ra[i].script;
    start(&th[i], &ra[i].r);
  }
  put(sb, "/tmp/t0.1", "go\n");
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    char want[32];
    snprintf(want, sizeof want, "done %d\n", i);
    assert_int_equal(ra[i].r.st, VSH_OK);
    assert_string_equal(ra[i].r.res.err, "");
    assert_string_equal(ra[i].r.res.out, want);
    vsh_result_free(&ra[i].r.res);
  }
  char *d = NULL;
  size_t n = 0;
  assert_int_equal(vsh_read_file(sb, "/tmp/t0.11", &d, &n), VSH_OK);
  assert_string_equal(d, "10\n");
  vsh_free(sb, d);
  vsh_close(sb);
}

/* A session runs one exec at a time: a second one, from another thread,
 * is refused (and the refusal is that thread's error). */
static void test_session_busy(void **state) {
  (void)state;
  vsh_sandbox *sb = sandbox();
  vsh_session *s = NULL;
  assert_int_equal(vsh_session_open(sb, &s), VSH_OK);
  runner r = {.sb = sb,
              .sess = s,
              .script = "y=kept; : > /tmp/started; until [ -e /tmp/go ]; do "
                        ":; done; echo seen"};
  pthread_t th;
  start(&th, &r);
  /* Wait until the session's exec is running, with calls that do not take
   * the session: trying the session itself meanwhile could take it first
   * and have the runner refused, however long this thread waited. */
  for (int waited = 0;; waited++) {
    char *d = NULL;
    size_t n = 0;
    if (vsh_read_file(sb, "/tmp/started", &d, &n) == VSH_OK) {
      vsh_free(sb, d);
      break;
    }
    assert_true(waited < DEADLINE_MS);
    pause_ms(1);
  }
  vsh_result res;
  assert_int_equal(vsh_session_exec(s, "echo", 4, NULL, &res), VSH_MISUSE);
  assert_int_equal(vsh_errcode(sb), EBUSY);
  assert_non_null(strstr(vsh_errmsg(sb), "another thread"));
  /* a plain exec beside it is fine */
  assert_int_equal(vsh_exec(sb, "echo ${y-fresh}", NULL, &res), VSH_OK);
  assert_string_equal(res.out, "fresh\n");
  vsh_result_free(&res);
  put(sb, "/tmp/go", "");
  pthread_join(th, NULL);
  assert_int_equal(r.st, VSH_OK);
  assert_string_equal(r.res.out, "seen\n");
  vsh_result_free(&r.res);
  assert_int_equal(vsh_session_exec(s, "echo $y", 7, NULL, &res), VSH_OK);
  assert_string_equal(res.out, "kept\n");
  vsh_result_free(&res);
  vsh_session_close(s);
  vsh_close(sb);
}

/* Each thread reads its own last error, though both fail on one sandbox. */
typedef struct failer {
  vsh_sandbox *sb;
  const char *path;
  int bad;
} failer;

static void *fail_loop(void *arg) {
  failer *f = arg;
  for (int i = 0; i < 300; i++) {
    char *d = NULL;
    size_t n = 0;
    if (vsh_read_file(f->sb, f->path, &d, &n) != VSH_FS ||
        vsh_errcode(f->sb) != ENOENT || !strstr(vsh_errmsg(f->sb), f->path))
      f->bad++;
  }
  return NULL;
}

static void test_errors_per_thread(void **state) {
  (void)state;
  vsh_sandbox *sb = sandbox();
  failer f[2] = {{sb, "/nope/first", 0}, {sb, "/nope/second", 0}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&th[i], NULL, fail_loop, &f[i]), 0);
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], NULL);
  assert_int_equal(f[0].bad, 0);
  assert_int_equal(f[1].bad, 0);
  /* this thread failed nothing: it reads the sandbox's last error */
  assert_non_null(strstr(vsh_errmsg(sb), "/nope/"));
  vsh_close(sb);
}

/* Files pulled from under running execs: trees removed and remade, files
 * truncated, snapshots taken and restored, while scripts walk, read and
 * write them. Results vary with the interleaving; what must hold is that
 * every call returns, every exec ends by itself, and nothing is lost or
 * freed twice (ASan, TSan). */
typedef struct churn {
  vsh_sandbox *sb;
  int stop;
  pthread_mutex_t mu;
} churn;

static void *churn_main(void *arg) {
  churn *c = arg;
  for (int i = 0;; i++) {
    pthread_mutex_lock(&c->mu);
    int stop = c->stop;
    pthread_mutex_unlock(&c->mu);
    if (stop)
      break;
    vsh_rm(c->sb, "/work", VSH_RECURSIVE | VSH_FORCE);
    vsh_mkdir(c->sb, "/work/d/e", VSH_RECURSIVE);
    char data[64];
    snprintf(data, sizeof data, "line %d\nother\n", i);
    vsh_write_file(c->sb, "/work/d/e/f.txt", data, strlen(data), 0);
    vsh_write_file(c->sb, "/work/d/g.txt", data, strlen(data), 0);
    vsh_snapshot *snap = NULL;
    if (vsh_snapshot_take(c->sb, &snap) == VSH_OK) {
      vsh_rm(c->sb, "/work/d", VSH_RECURSIVE | VSH_FORCE);
      if (i % 3 == 0)
        vsh_restore(c->sb, snap);
      vsh_snapshot_free(snap);
    }
  }
  return NULL;
}

static void test_churn_under_execs(void **state) {
  (void)state;
  vsh_sandbox *sb = sandbox();
  churn c = {.sb = sb};
  pthread_mutex_init(&c.mu, NULL);
  pthread_t tc;
  assert_int_equal(pthread_create(&tc, NULL, churn_main, &c), 0);
  static const char *const scripts[] = {
      "for i in $(seq 200); do find /work -type f 2>/dev/null | wc -l"
      " >/dev/null; cat /work/d/e/f.txt 2>/dev/null | sort | uniq -c"
      " >/dev/null; done; echo ok",
      "for i in $(seq 200); do grep -r line /work >/dev/null 2>&1;"
      " echo $i >> /work/d/log 2>/dev/null; cp -r /work/d /work/copy"
      " 2>/dev/null; rm -rf /work/copy; done; echo ok",
      "for i in $(seq 200); do (cd /work/d/e 2>/dev/null && ls -la"
      " >/dev/null); sed -i s/line/LINE/ /work/d/g.txt 2>/dev/null;"
      " done; echo ok",
  };
  enum { N = sizeof scripts / sizeof *scripts };
  runner r[N];
  pthread_t th[N];
  for (int i = 0; i < N; i++) {
    memset(&r[i], 0, sizeof r[i]);
    r[i].sb = sb;
    r[i].script = scripts[i];
    start(&th[i], &r[i]);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    assert_int_equal(r[i].st, VSH_OK);
    assert_string_equal(r[i].res.out, "ok\n");
    vsh_result_free(&r[i].res);
  }
  pthread_mutex_lock(&c.mu);
  c.stop = 1;
  pthread_mutex_unlock(&c.mu);
  pthread_join(tc, NULL);
  pthread_mutex_destroy(&c.mu);
  vsh_result res;
  assert_int_equal(vsh_exec(sb, "echo still here", NULL, &res), VSH_OK);
  assert_string_equal(res.out, "still here\n");
  vsh_result_free(&res);
  vsh_close(sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_file_call_during_shell_loop),
      cmocka_unit_test(test_file_call_during_sleep),
      cmocka_unit_test(test_file_call_during_one_builtin),
      cmocka_unit_test(test_file_call_during_pipeline),
      cmocka_unit_test(test_two_execs_progress),
      cmocka_unit_test(test_ring_of_execs),
      cmocka_unit_test(test_session_busy),
      cmocka_unit_test(test_errors_per_thread),
      cmocka_unit_test(test_churn_under_execs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
