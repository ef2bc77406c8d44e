// layers: core vfs shell builtins api
/* test_jobs.c - background jobs: captures they outlive, what happens to
 * them when the script ends, the job table (jobs, %N, kill, wait, fg/bg),
 * the deadline read at every check and at the end, and redirections and
 * builtins whose answers were wrong (>&-1, enable -f). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "api_harness.h"
#include "core/budget.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run script; compare stdout, stderr (when not NULL) and status. */
static void check_err(const char *script, const char *out, const char *err,
                      int status) {
  vsh_result r;
  assert_int_equal(vsh_exec(sb, script, NULL, &r), VSH_OK);
  if (strcmp(r.out, out) != 0 || (err && strcmp(r.err, err) != 0) ||
      r.status != status)
    fprintf(stderr, "script: %s\ngot [%s] [%s] %d\n", script, r.out, r.err,
            r.status);
  assert_string_equal(r.out, out);
  if (err)
    assert_string_equal(r.err, err);
  assert_int_equal(r.status, status);
  vsh_result_free(&r);
}

/* A job started inside a capture keeps the capture's stream after the
 * capture's own command ended: the capture waits for it (bash reads to
 * end of file), and nothing writes into the caller's freed buffer. */
static void test_capture_outlived(void **st) {
  (void)st;
  check("echo $(echo a &)", "a\n", 0);
  check("cat <(echo a &)", "a\n", 0);
  check("cat <<< $(echo a &)", "a\n", 0);
  check("echo $(echo a &) | cat", "a\n", 0);
  check("(echo $(echo a & ))", "a\n", 0);
  check("x=$( (sleep 0.05; echo late) & echo now); echo \"$x\"", "now\nlate\n",
        0);
  check("f() { echo $(echo in f &); }; f; f", "in f\nin f\n", 0);
  check("awk 'BEGIN{\"echo a &\" | getline x; print x}'", "a\n", 0);
  /* the job's copy of a script's name outlives the script */
  check_err("echo 'nosuchcmd &' > /tmp/s; bash /tmp/s; wait", "",
            "/tmp/s: line 1: nosuchcmd: command not found\n", 0);
}

/* Jobs left when the script ends are stopped at once: the caller is never
 * held by them, and everything is freed (the ASan build checks leaks). */
static void test_jobs_end_with_script(void **st) {
  (void)st;
  double t0 = now_s();
  check("while :; do sleep 1; done & echo started", "started\n", 0);
  check("sleep 3 & exit 0", "", 0);
  check("sleep 3 | cat & exit 5", "", 5);
  check("while :; do :; done & echo started", "started\n", 0);
  check("yes > /dev/null & echo y", "y\n", 0);
  assert_true(now_s() - t0 < 2.0);
  /* a job that does not wait still finishes */
  check("echo a & echo b", "b\na\n", 0);
  /* wait still waits */
  check("sleep 0.1 & wait; echo waited", "waited\n", 0);
  check("(sleep 0.05; echo j) & wait $!; echo $?", "j\n0\n", 0);
  /* sessions do the same at the end of each exec */
  vsh_session *s;
  assert_int_equal(vsh_session_open(sb, &s), VSH_OK);
  vsh_result r;
  const char *a = "sleep 5 & x=1; echo started";
  assert_int_equal(vsh_session_exec(s, a, strlen(a), NULL, &r), VSH_OK);
  assert_string_equal(r.out, "started\n");
  vsh_result_free(&r);
  const char *b = "jobs; echo x=$x";
  assert_int_equal(vsh_session_exec(s, b, strlen(b), NULL, &r), VSH_OK);
  assert_string_equal(r.out, "x=1\n");
  vsh_result_free(&r);
  vsh_session_close(s);
  assert_true(now_s() - t0 < 3.0);
}

static void test_job_table(void **st) {
  (void)st;
  check("sleep 1 & sleep 2 & jobs",
        "[1]-  Running                 sleep 1 &\n"
        "[2]+  Running                 sleep 2 &\n",
        0);
  check("sleep 1 & sleep 2 & jobs -p | wc -l; jobs %- %+ %sleep\\ 2 %?1",
        "2\n"
        "[1]-  Running                 sleep 1 &\n"
        "[2]+  Running                 sleep 2 &\n"
        "[2]+  Running                 sleep 2 &\n"
        "[1]-  Running                 sleep 1 &\n",
        0);
  /* kill %N signals the job, never the script */
  check("sleep 5 & kill %1; echo k=$?; wait %1; echo w=$?; jobs",
        "k=0\nw=143\n", 0);
  check("sleep 5 | cat & kill %%; wait; echo done", "done\n", 0);
  check("(while :; do :; done) & sleep 0.05; kill %1; wait %1; echo $?",
        "143\n", 0);
  /* commands that never wait still let the script run to its kill */
  check("cat /dev/zero > /dev/null & sleep 0.05; kill %1; wait %1; echo $?",
        "143\n", 0);
  check("awk 'BEGIN{while(1);}' & sleep 0.05; kill %1; wait %1; echo $?",
        "143\n", 0);
  check("sed ':a;ba' <<<x & sleep 0.05; kill %1; wait %1; echo $?", "143\n", 0);
  check_err("kill %1; echo $?; wait %2; echo $?; jobs %3; echo $?",
            "1\n127\n1\n",
            "bash: line 1: kill: %1: no such job\n"
            "bash: line 1: wait: %2: no such job\n"
            "bash: line 1: jobs: %3: no such job\n",
            0);
  check_err("sleep 1 & sleep 1 & kill %sleep; echo $?", "1\n",
            "bash: line 1: kill: sleep: ambiguous job spec\n", 0);
  check_err("fg; echo $?; bg %1; echo $?", "1\n1\n",
            "bash: line 1: fg: no job control\n"
            "bash: line 1: bg: no job control\n",
            0);
  /* a finished job leaves the table; wait PID still knows its status */
  check("(exit 3) & wait -n; echo $?; (exit 4) & p=$!; sleep 0.05; jobs; "
        "wait $p; echo $?",
        "3\n4\n", 0);
  check("false & sleep 0.1 & wait %2; jobs; kill %1", "", 1);
  check("sleep 1 & disown %1; jobs; wait %1; echo $?", "127\n", 0);
  /* $(...) and pipeline stages see the table; ( ) and jobs do not */
  check("sleep 1 & x=$(jobs); echo \"$x\"; jobs | cat; (jobs)",
        "[1]+  Running                 sleep 1 &\n"
        "[1]+  Running                 sleep 1 &\n",
        0);
}

/* The deadline is read at every check, not every 256, and once more when
 * the script ends. */
static void test_deadline_precise(void **st) {
  (void)st;
  budget b;
  memset(&b, 0, sizeof b);
  budget_defaults(&b.lim);
  b.lim.timeout_ms = 1;
  /* passed (by more than the coarse clock's resolution) */
  b.deadline_ns = budget_now_ns(&b) - 20 * 1000000LL;
  assert_int_equal(budget_poll(&b), 1);
  assert_int_equal(b.stop, BUDGET_TIMEOUT);
}

static int slow_cmd(vsh_cmd *cmd, int argc, char **argv, void *ud) {
  (void)cmd;
  (void)argc;
  (void)argv;
  (void)ud;
  struct timespec ts = {0, 150 * 1000000L};
  nanosleep(&ts, NULL); /* a step that never checks the budget */
  return 0;
}

static void test_deadline_at_end(void **st) {
  (void)st;
  assert_int_equal(vsh_register_command(sb, "slowstep", slow_cmd, NULL),
                   VSH_OK);
  vsh_exec_opts o;
  memset(&o, 0, sizeof o);
  o.timeout_ms = 50;
  vsh_result r;
  assert_int_equal(vsh_exec(sb, "slowstep", &o, &r), VSH_OK);
  assert_int_equal(r.status, 124);
  assert_true(r.flags & VSH_RESULT_TIMED_OUT);
  vsh_result_free(&r);
}

static void test_redirect_and_enable(void **st) {
  (void)st;
  /* bash reads the - of >&- on its own: stdout closed, 1 an argument */
  check_err("echo hi >&-1; echo $?", "1\n",
            "bash: line 1: echo: write error: Bad file descriptor\n", 0);
  check_err("echo hi >& -1; echo $?", "1\n",
            "bash: line 1: echo: write error: Bad file descriptor\n", 0);
  check("echo hi 2>&-1", "hi 1\n", 0);
  check("x=-1; echo hi >&$x; cat ./-1; rm ./-1", "hi\n", 0);
  check_err("echo hi >&99999999999", "",
            "bash: line 1: 99999999999: Bad file descriptor\n", 1);
  check_err("printf x >&-", "",
            "bash: line 1: printf: write error: Bad file descriptor\n", 1);
  check_err("enable -f lib.so name", "",
            "bash: line 1: enable: cannot open shared object lib.so: loading "
            "builtins from a shared object is not supported\n",
            1);
  check_err("enable nosuch; echo $?; enable -d echo; echo $?", "1\n1\n",
            "bash: line 1: enable: nosuch: not a shell builtin\n"
            "bash: line 1: enable: echo: not dynamically loaded\n",
            0);
  check_err("enable -f", "",
            "bash: line 1: enable: -f: option requires an argument\n"
            "enable: usage: enable [-a] [-dnps] [-f filename] [name ...]\n",
            2);
  check("enable | grep -c '^enable echo$'", "1\n", 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_capture_outlived, setup, teardown),
      cmocka_unit_test_setup_teardown(test_jobs_end_with_script, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_job_table, setup, teardown),
      cmocka_unit_test(test_deadline_precise),
      cmocka_unit_test_setup_teardown(test_deadline_at_end, setup, teardown),
      cmocka_unit_test_setup_teardown(test_redirect_and_enable, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
