// layers: core vfs shell builtins api
/* test_exec_limits.c - limits, cancel, timeout, streaming output, memory
 * returning to its level after every exec. */
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

static vsh_sandbox *open_with(const vsh_limits *lim) {
  vsh_config cfg;
  vsh_config_init(&cfg);
  if (lim)
    cfg.limits = *lim;
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
  return sb;
}

static int run(vsh_sandbox *sb, const char *script, vsh_result *r) {
  vsh_status st = vsh_exec(sb, script, NULL, r);
  assert_int_equal(st, VSH_OK);
  return r->status;
}

/* script ends with status; its stdout is out (when not NULL). */
static void expect_run(vsh_sandbox *sb, const char *script, int status,
                       const char *out) {
  vsh_result r;
  assert_int_equal(run(sb, script, &r), status);
  if (out)
    assert_string_equal(r.out, out);
  vsh_result_free(&r);
}

static void expect_limit(vsh_sandbox *sb, const char *script, const char *name,
                         int status) {
  vsh_result r;
  assert_int_equal(run(sb, script, &r), status);
  if (!strstr(r.err, name))
    fprintf(stderr, "stderr: %s\n", r.err);
  assert_non_null(strstr(r.err, name));
  vsh_result_free(&r);
  /* the sandbox stays usable */
  assert_int_equal(run(sb, "echo ok", &r), 0);
  assert_string_equal(r.out, "ok\n");
  vsh_result_free(&r);
}

static void test_yes_head_small_cap(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.max_memory = 4 << 20;
  vsh_sandbox *sb = open_with(&lim);
  vsh_result r;
  assert_int_equal(run(sb, "yes | head -n 1", &r), 0);
  assert_string_equal(r.out, "y\n");
  vsh_result_free(&r);
  vsh_close(sb);
}

static void test_limits(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.max_commands = 1000;
  lim.max_loop_iterations = 500;
  lim.max_call_depth = 50;
  lim.max_output_bytes = 10000;
  vsh_sandbox *sb = open_with(&lim);
  expect_limit(sb, "while true; do :; done", "loop iterations limit", 126);
  expect_limit(sb, "f() { f; }; f", "call depth limit", 126);
  expect_limit(sb, "while true; do :; :; :; done", "commands limit", 126);
  expect_limit(sb, "yes", "output bytes limit", 126);
  vsh_close(sb);
}

static void test_memory_limit(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.max_memory = 8 << 20;
  vsh_sandbox *sb = open_with(&lim);
  /* the first exec builds the variables later ones share */
  vsh_result w;
  assert_int_equal(run(sb, "echo warm", &w), 0);
  vsh_result_free(&w);
  size_t before = vsh_memory_used(sb);
  expect_limit(sb, "x=a; while true; do x=$x$x; done", "limit exceeded", 126);
  /* memory returns to its level (within the allocator's own noise) */
  assert_true(vsh_memory_used(sb) <= before + 4096);
  vsh_close(sb);
}

static void test_timeout(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.timeout_ms = 100;
  /* The loop must meet the deadline, not the loop limit, however fast. */
  lim.max_loop_iterations = UINT64_MAX;
  lim.max_commands = UINT64_MAX;
  vsh_sandbox *sb = open_with(&lim);
  vsh_result r;
  assert_int_equal(run(sb, "while :; do :; done", &r), 124);
  assert_true(r.flags & VSH_RESULT_TIMED_OUT);
  vsh_result_free(&r);
  assert_int_equal(run(sb, "echo after", &r), 0);
  assert_string_equal(r.out, "after\n");
  vsh_result_free(&r);
  vsh_close(sb);
}

/* Every builtin's endless case: loops that never read or write (awk's
 * while/for/do, sed's branches), and each command fed without end. Each
 * must meet a 200 ms deadline and a cancel at 200 ms within 100 ms. */
static const char *const endless[] = {
    "while :; do :; done",
    "awk 'BEGIN{while(1);}'",
    "awk 'BEGIN{for(;;);}'",
    "awk 'BEGIN{do x++; while(1)}'",
    "echo a | sed ':a;s/a/a/;ta'",
    "echo a | sed ':a;ba'",
    "yes | sort",
    "yes | tr y n | grep -c x",
    "yes | xargs echo >/dev/null",
    "yes | grep y >/dev/null",
    "yes | awk '{print}' >/dev/null",
    "yes | sed p >/dev/null",
    "yes | while read l; do :; done",
    "cat /dev/zero | od >/dev/null",
    "yes | uniq -c",
    "yes | paste - - >/dev/null",
    "yes | base64 >/dev/null",
    "yes | rev >/dev/null",
    "yes | wc -l",
    "yes | comm - /dev/null >/dev/null",
    "yes | nl >/dev/null",
    "yes | tee /dev/null >/dev/null",
    "yes | md5sum",
    "yes | cut -c1 >/dev/null",
    "yes | tac",
    "seq inf >/dev/null",
    "printf '%s\\n' {1..10} | xargs -n1 sh -c 'while :; do :; done'",
    "find / -exec sh -c 'while :; do :; done' \\;",
    "yes | head -c 10000000000 | tail -c 1",
    "cat /dev/zero | tr '\\0' a | fold -w 5 >/dev/null",
    "yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | grep -E '(a*)*b'",
    "while :; do printf '%s %s\\n' a b c d; done >/dev/null",
    "yes | while read -r l; do echo \"$l\"; done | cat >/dev/null",
    "yes | diff - /dev/null >/dev/null",
    "yes | patch -s -o /dev/null /dev/null",
    "yes | cmp - /dev/zero",
    "seq 400000 > a; seq 400000 | sort -r > b; diff --minimal a b >/dev/null",
    NULL};

/* How long past its deadline an exec may run: 100 ms, more under the
 * sanitizers, which slow every step several times. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SLACK_MS 1000
#endif
#endif
#if !defined(SLACK_MS) &&                                                      \
    (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__))
#define SLACK_MS 1000
#endif
#ifndef SLACK_MS
#define SLACK_MS 100
#endif

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_builtin_loops_timeout(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.timeout_ms = 200;
  lim.max_commands = UINT64_MAX;
  lim.max_loop_iterations = UINT64_MAX;
  /* the commands that keep what they read (sort, tac) must meet the
   * deadline or the cancel, not the default 1 GiB cap: an idle machine
   * fills that in about 200 ms too */
  lim.max_memory = (uint64_t)8 << 30;
  vsh_sandbox *sb = open_with(&lim);
  for (int i = 0; endless[i]; i++) {
    vsh_result r;
    int64_t t0 = now_ms();
    int st = run(sb, endless[i], &r);
    int64_t took = now_ms() - t0;
    if (st != 124 || took > 200 + SLACK_MS)
      fprintf(stderr, "%s: status %d after %lld ms\n", endless[i], st,
              (long long)took);
    assert_int_equal(st, 124);
    assert_true(r.flags & VSH_RESULT_TIMED_OUT);
    assert_true(took <= 200 + SLACK_MS);
    vsh_result_free(&r);
  }
  expect_run(sb, "echo after", 0, "after\n");
  vsh_close(sb);
}

/* A script that runs itself, through every command that runs another, ends
 * at the call-depth limit (126) instead of exhausting the stack; a trap
 * that re-raises its own signal loops like bash, to a limit. */
static void test_self_recursion(void **state) {
  (void)state;
  static const char *const cases[] = {
      "echo 'bash /tmp/t' > /tmp/t; bash /tmp/t",
      "echo 'sh /tmp/t' > /tmp/t; sh /tmp/t",
      "echo 'env bash /tmp/t' > /tmp/t; bash /tmp/t",
      "echo 'timeout 5 bash /tmp/t' > /tmp/t; bash /tmp/t",
      "echo 'echo /tmp/t | xargs bash' > /tmp/t; bash /tmp/t",
      "echo 'find /tmp/t -exec bash {} \\;' > /tmp/t; bash /tmp/t",
      "echo '/tmp/t' > /tmp/t; chmod +x /tmp/t; /tmp/t",
      "f='bash -c \"$f\"'; export f; bash -c \"$f\"",
      NULL};
  vsh_sandbox *sb = open_with(NULL);
  for (int i = 0; cases[i]; i++)
    expect_limit(sb, cases[i], "call depth limit exceeded", 126);
  /* A fork bomb ends at the jobs limit while the script runs, and is hung
   * up when it ends; a smaller limit is honoured. */
  expect_limit(sb, ":(){ :|:& };:; sleep 5", "jobs limit exceeded (1000)", 126);
  expect_run(sb, ":(){ :|:& };:", 0, "");
  vsh_limits lim = {0};
  lim.max_commands = 20000;
  lim.max_jobs = 3;
  vsh_sandbox *sb2 = open_with(&lim);
  expect_limit(sb2, "true | true | true", "", 0);
  expect_limit(sb2, "true | true | true | true | true",
               "jobs limit exceeded (3)", 126);
  expect_limit(sb2, "trap 'kill -USR1 $$' USR1; kill -USR1 $$",
               "commands limit exceeded", 126);
  expect_run(sb2,
             "n=0; trap 'n=$((n+1)); echo $n; [ $n -lt 3 ] && kill -USR1 $$' "
             "USR1; kill -USR1 $$; echo done",
             0, "1\n2\n3\ndone\n");
  vsh_close(sb2);
  vsh_close(sb);
}

/* Deep nesting and long chains in the languages a script can write end
 * with an error or run iteratively, never by exhausting the stack. */
static void test_deep_nesting(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  expect_run(sb,
             "x=$(printf 'true && %.0s' {1..100000}); eval \"$x false\"; "
             "echo $?",
             0, "1\n");
  expect_run(sb,
             "x=$(printf '1 -a %.0s' {1..100000}); test $x ''; echo $?; "
             "p=$(printf '( %.0s' {1..100000}); test $p 1; echo $?",
             0, "1\n2\n");
  expect_run(sb,
             "p=$(printf '{a,%.0s' {1..20000}); q=$(printf '}%.0s' "
             "{1..20000}); eval \"echo ${p}b${q}\"; echo $?",
             0, "1\n");
  vsh_close(sb);
  /* A brace expansion stopped by the memory limit fails with the limit;
   * it never prints the word unexpanded. */
  vsh_limits lim = {0};
  lim.max_memory = 64 << 20;
  sb = open_with(&lim);
  expect_limit(sb, "echo {1..9999999}", "memory limit exceeded", 126);
  vsh_close(sb);
}

static void test_cancel_before(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  vsh_cancel *c = vsh_cancel_new();
  vsh_cancel_set(c);
  vsh_exec_opts o = {0};
  o.cancel = c;
  vsh_result r;
  assert_int_equal(vsh_exec(sb, "echo no", &o, &r), VSH_ABORT);
  assert_string_equal(r.out, "");
  vsh_result_free(&r);
  vsh_cancel_free(c);
  vsh_close(sb);
}

static void *canceller(void *arg) {
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  vsh_cancel_set(arg);
  return NULL;
}

static void test_cancel_during(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  /* the first exec builds the variables later ones share */
  vsh_result w;
  assert_int_equal(run(sb, "echo warm", &w), 0);
  vsh_result_free(&w);
  size_t before = vsh_memory_used(sb);
  vsh_cancel *c = vsh_cancel_new();
  vsh_exec_opts o = {0};
  o.cancel = c;
  pthread_t t;
  pthread_create(&t, NULL, canceller, c);
  vsh_result r;
  assert_int_equal(
      vsh_exec(sb, "echo start; yes | cat | while read l; do :; done", &o, &r),
      VSH_ABORT);
  pthread_join(t, NULL);
  assert_string_equal(r.out, "start\n");
  assert_true(r.flags & VSH_RESULT_CANCELLED);
  vsh_result_free(&r);
  vsh_cancel_free(c);
  assert_true(vsh_memory_used(sb) <= before + 4096);
  assert_int_equal(run(sb, "echo again", &r), 0);
  vsh_result_free(&r);
  vsh_close(sb);
}

static void *cancel_at_200(void *arg) {
  struct timespec ts = {0, 200 * 1000 * 1000};
  nanosleep(&ts, NULL);
  vsh_cancel_set(arg);
  return NULL;
}

static void test_builtin_loops_cancel(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.max_commands = UINT64_MAX;
  lim.max_loop_iterations = UINT64_MAX;
  /* the commands that keep what they read (sort, tac) must meet the
   * deadline or the cancel, not the default 1 GiB cap: an idle machine
   * fills that in about 200 ms too */
  lim.max_memory = (uint64_t)8 << 30;
  vsh_sandbox *sb = open_with(&lim);
  for (int i = 0; endless[i]; i++) {
    vsh_cancel *c = vsh_cancel_new();
    vsh_exec_opts o = {0};
    o.cancel = c;
    pthread_t t;
    int64_t t0 = now_ms();
    pthread_create(&t, NULL, cancel_at_200, c);
    vsh_result r;
    vsh_status st = vsh_exec(sb, endless[i], &o, &r);
    int64_t took = now_ms() - t0;
    pthread_join(t, NULL);
    if (st != VSH_ABORT || took > 200 + SLACK_MS)
      fprintf(stderr, "%s: %s after %lld ms\n", endless[i], vsh_status_str(st),
              (long long)took);
    assert_int_equal(st, VSH_ABORT);
    assert_true(r.flags & VSH_RESULT_CANCELLED);
    assert_true(took <= 200 + SLACK_MS);
    vsh_result_free(&r);
    vsh_cancel_free(c);
  }
  expect_run(sb, "echo after", 0, "after\n");
  vsh_close(sb);
}

typedef struct chunks {
  char seq[256];
  size_t n;
} chunks;

static void on_out(void *ud, int fd, const void *data, size_t len) {
  chunks *c = ud;
  for (size_t i = 0; i < len && c->n + 2 < sizeof c->seq; i++) {
    char ch = ((const char *)data)[i];
    if (ch != '\n')
      c->seq[c->n++] = (char)(fd == 1 ? ch : ch - 32);
  }
}

static void test_streaming(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  chunks c = {{0}, 0};
  vsh_exec_opts o = {0};
  o.on_output = on_out;
  o.output_ud = &c;
  vsh_result r;
  assert_int_equal(
      vsh_exec(sb, "echo a; echo b >&2; echo c; echo d >&2", &o, &r), VSH_OK);
  assert_string_equal(c.seq, "aBcD");
  assert_string_equal(r.out, "a\nc\n");
  assert_string_equal(r.err, "b\nd\n");
  vsh_result_free(&r);
  vsh_close(sb);
}

static void test_memory_baseline(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  vsh_result r;
  const char *scripts[] = {
      "x=1; f() { local y=$1; echo $y; }; f 2",
      "a=(1 2 3); declare -A m=([a]=b); echo ${a[@]} ${m[a]}",
      "echo a | cat | cat >/dev/null; echo $(echo b)",
      "for i in 1 2 3; do (echo $i) & done; wait",
      "cat <(echo p) >/dev/null; trap 'echo t' EXIT",
      "exec 3>/dev/null; echo x >&3",
  };
  /* A first run may keep what it makes once: the variables execs share,
   * and the sandbox's own copies of the directories it wrote in (the
   * default layout is shared copy-on-write with other sandboxes, /dev/fd
   * among them). From then on, an exec leaves memory at its level. */
  for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
    run(sb, scripts[i], &r);
    vsh_result_free(&r);
  }
  size_t before = vsh_memory_used(sb);
  for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
    run(sb, scripts[i], &r);
    vsh_result_free(&r);
    size_t now = vsh_memory_used(sb);
    if (now != before)
      fprintf(stderr, "%s: %zu -> %zu\n", scripts[i], before, now);
    assert_int_equal(now, before);
  }
  vsh_close(sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_yes_head_small_cap),
      cmocka_unit_test(test_limits),
      cmocka_unit_test(test_memory_limit),
      cmocka_unit_test(test_timeout),
      cmocka_unit_test(test_builtin_loops_timeout),
      cmocka_unit_test(test_builtin_loops_cancel),
      cmocka_unit_test(test_self_recursion),
      cmocka_unit_test(test_deep_nesting),
      cmocka_unit_test(test_cancel_before),
      cmocka_unit_test(test_cancel_during),
      cmocka_unit_test(test_streaming),
      cmocka_unit_test(test_memory_baseline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
