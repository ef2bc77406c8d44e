// layers: all
/* test_stream_timing.c - what a script prints reaches the embedder's output
 * callback while the script runs: the first line of a pipeline that sleeps
 * between two lines arrives before the second is printed, whatever the
 * construct and whatever filter ends the pipeline. A deadline, a limit or
 * a cancel keeps what was printed before it (also what a filter still held
 * in its buffer), and a caller's timeout turns the default counts off. */
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

/* The sandbox's clock hook, on the host's real clocks: the callback stamps
 * each chunk with this same hook. */
static int64_t real_clock(void *ud, int monotonic) {
  (void)ud;
  struct timespec ts;
  clock_gettime(monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static vsh_sandbox *open_sb(const vsh_limits *lim) {
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.clock = real_clock;
  if (lim)
    cfg.limits = *lim;
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
  return sb;
}

/* What the callback saw: every byte in order per fd, and when the markers
 * AAA and BBB first arrived on stdout. */
typedef struct seen {
  char out[4096], err[4096];
  size_t nout, nerr;
  int64_t t_a, t_b; /* 0: not seen */
} seen;

static void on_chunk(void *ud, int fd, const void *data, size_t len) {
  seen *s = ud;
  int64_t now = real_clock(NULL, 1);
  char *dst = fd == 1 ? s->out : s->err;
  size_t *n = fd == 1 ? &s->nout : &s->nerr;
  size_t k = len < sizeof s->out - 1 - *n ? len : sizeof s->out - 1 - *n;
  memcpy(dst + *n, data, k);
  *n += k;
  dst[*n] = 0;
  if (fd != 1)
    return;
  if (!s->t_a && strstr(s->out, "AAA"))
    s->t_a = now;
  if (!s->t_b && strstr(s->out, "BBB"))
    s->t_b = now;
}

#ifdef VSH_SANITIZER_BUILD
#define SLEEP "0.6"
#define GAP_NS 300000000LL
#else
#define SLEEP "0.3"
#define GAP_NS 150000000LL
#endif

/* script (with SLEEP for S) prints a line with AAA, sleeps, then a line
 * with BBB: the first must arrive at least half the sleep before the
 * second, and stdout must be want. */
static void expect_streamed(vsh_sandbox *sb, const char *script,
                            const char *want, unsigned flags) {
  char text[1024];
  size_t o = 0;
  for (const char *p = script; *p && o + 8 < sizeof text; p++) {
    if (*p == 'S' && (p == script || p[-1] == ' ') &&
        (p[1] == ';' || p[1] == ' ' || p[1] == 0)) {
      memcpy(text + o, SLEEP, sizeof SLEEP - 1);
      o += sizeof SLEEP - 1;
    } else {
      text[o++] = *p;
    }
  }
  text[o] = 0;
  seen s;
  memset(&s, 0, sizeof s);
  vsh_exec_opts eo = {0};
  eo.on_output = on_chunk;
  eo.output_ud = &s;
  eo.flags = flags;
  vsh_result r;
  assert_int_equal(vsh_exec(sb, text, &eo, &r), VSH_OK);
  int ok = r.status == 0 && strcmp(s.out, want) == 0 && s.t_a && s.t_b &&
           s.t_a + GAP_NS < s.t_b;
  if (!ok)
    fprintf(stderr,
            "script: %s\nstatus %d, callback stdout [%s] stderr [%s]\n"
            "AAA after BBB by %lld ms\n",
            text, r.status, s.out, s.err,
            (long long)((s.t_b - s.t_a) / 1000000));
  assert_int_equal(r.status, 0);
  assert_string_equal(s.out, want);
  if (flags & VSH_EXEC_NO_CAPTURE)
    assert_int_equal(r.out_len, 0);
  else
    assert_string_equal(r.out, want);
  assert_true(s.t_a != 0 && s.t_b != 0);
  assert_true(s.t_a + GAP_NS < s.t_b);
  vsh_result_free(&r);
}

#define AB "AAA\nBBB\n"
#define GEN "(echo AAA; sleep S; echo BBB)"

static void test_pipeline_filters(void **state) {
  (void)state;
  vsh_sandbox *sb = open_sb(NULL);
  /* the plain case first, with both ways of taking the output */
  expect_streamed(sb, GEN " | cat", AB, 0);
  expect_streamed(sb, GEN " | cat", AB, VSH_EXEC_NO_CAPTURE);
  struct {
    const char *filter, *want;
  } f[] = {
      {"sed s/x/y/", AB},
      {"sed -n p", AB},
      {"sed 's/^/>/'", ">AAA\n>BBB\n"},
      {"awk 1", AB},
      {"awk '{ print $1 }'", AB},
      {"awk 'BEGIN { while ((getline l) > 0) print l }'", AB},
      {"grep -E 'AAA|BBB'", AB},
      {"grep -v x", AB},
      {"tr x y", AB},
      {"cut -c1-3", AB},
      {"uniq", AB},
      {"head -n 5", AB},
      {"head -c 100", AB},
      {"tail -n +1", AB},
      {"nl", "     1\tAAA\n     2\tBBB\n"},
      {"cat -n", "     1\tAAA\n     2\tBBB\n"},
      {"tee /tmp/tee.out", AB},
      {"paste -", AB},
      {"fold -w 10", AB},
      {"expand", AB},
      {"unexpand", AB},
      {"rev", "AAA\nBBB\n"},
      {"xargs -n 1 echo", AB},
      {"sed s/x/y/ | awk 1 | grep -v x", AB},
      {"while read -r l; do echo \"$l\"; done", AB},
  };
  for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
    char script[512];
    snprintf(script, sizeof script, GEN " | %s", f[i].filter);
    expect_streamed(sb, script, f[i].want, VSH_EXEC_NO_CAPTURE);
  }
  vsh_close(sb);
}

static void test_constructs(void **state) {
  (void)state;
  vsh_sandbox *sb = open_sb(NULL);
  const char *scripts[] = {
      "echo AAA; sleep S; echo BBB",
      GEN,
      "{ echo AAA; sleep S; echo BBB; }",
      "f() { echo AAA; sleep S; echo BBB; }; f",
      "for w in AAA BBB; do echo $w; [ $w = BBB ] || sleep S; done",
      "i=0; while [ $i -lt 2 ]; do [ $i = 1 ] && echo BBB || echo AAA; "
      "[ $i = 0 ] && sleep S; i=$((i+1)); done",
      "exec 3>&1; echo AAA >&3; sleep S; echo BBB >&3",
      GEN " & wait",
      "f() { echo AAA; sleep S; echo BBB; }; f | cat | cat",
      "{ echo AAA >&2; sleep S; echo BBB >&2; } 2>&1 | cat",
      "{ echo AAA >&2; sleep S; echo BBB >&2; } 2>&1 | sed s/x/y/",
      "bash -c 'echo AAA; sleep S; echo BBB' | cat",
      "eval 'echo AAA; sleep S; echo BBB' | awk 1",
  };
  for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++)
    expect_streamed(sb, scripts[i], AB, VSH_EXEC_NO_CAPTURE);
  vsh_close(sb);
}

/* ---- stops keep what was printed ---------------------------------------- */

typedef struct canceller {
  vsh_cancel *c;
  long ms;
} canceller;

static void *cancel_later(void *arg) {
  canceller *k = arg;
  struct timespec ts = {k->ms / 1000, (k->ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
  vsh_cancel_set(k->c);
  return NULL;
}

/* How an exec is stopped: its deadline, a count, or a cancel. */
enum { BY_DEADLINE, BY_LIMIT, BY_CANCEL };

/* script prints AAA and BBB, then never ends: stopped at about 300 ms, the
 * result and the callback both have every byte, with the stop's status
 * and its message. */
static void expect_kept(vsh_sandbox *sb, int by, const char *script,
                        unsigned flags) {
  seen s;
  memset(&s, 0, sizeof s);
  vsh_exec_opts eo = {0};
  eo.on_output = on_chunk;
  eo.output_ud = &s;
  eo.flags = flags;
  canceller k = {NULL, 300};
  pthread_t th;
  if (by == BY_DEADLINE)
    eo.timeout_ms = 300;
  if (by == BY_CANCEL) {
    k.c = vsh_cancel_new();
    eo.cancel = k.c;
    pthread_create(&th, NULL, cancel_later, &k);
  }
  vsh_result r;
  vsh_status st = vsh_exec(sb, script, &eo, &r);
  if (by == BY_CANCEL) {
    pthread_join(th, NULL);
    vsh_cancel_free(k.c);
  }
  int status = by == BY_DEADLINE ? 124 : by == BY_LIMIT ? 126 : 130;
  const char *cause = by == BY_DEADLINE ? "vsh: timeout: deadline"
                      : by == BY_LIMIT  ? "limit exceeded"
                                        : "vsh: cancelled";
  if (strcmp(s.out, AB) != 0 || r.status != status)
    fprintf(stderr, "script: %s\nstatus %d, callback [%s], stderr [%s]\n",
            script, r.status, s.out, r.err);
  assert_int_equal(st, by == BY_CANCEL ? VSH_ABORT : VSH_OK);
  assert_int_equal(r.status, status);
  assert_string_equal(s.out, AB);
  assert_non_null(strstr(s.err, cause));
  if (flags & VSH_EXEC_NO_CAPTURE) {
    assert_int_equal(r.out_len, 0);
  } else {
    assert_string_equal(r.out, AB);
    assert_non_null(strstr(r.err, cause));
  }
  unsigned flag = by == BY_DEADLINE ? VSH_RESULT_TIMED_OUT
                  : by == BY_LIMIT  ? VSH_RESULT_LIMIT
                                    : VSH_RESULT_CANCELLED;
  assert_true(r.flags & flag);
  vsh_result_free(&r);
  /* the sandbox stays usable */
  assert_int_equal(vsh_exec(sb, "echo ok", NULL, &r), VSH_OK);
  assert_string_equal(r.out, "ok\n");
  vsh_result_free(&r);
}

static const char *const endless_after_ab[] = {
    /* the shell's own output */
    "echo AAA; echo BBB; while :; do :; done",
    /* a filter waiting for more input when the stop comes */
    "(echo AAA; echo BBB; while :; do :; done) | sed s/x/y/",
    "(echo AAA; echo BBB; while :; do :; done) | awk 1",
    "(echo AAA; echo BBB; while :; do :; done) | grep -v x",
    "(echo AAA; echo BBB; while :; do :; done) | cat -n | cut -f2",
    "(echo AAA; sleep 0.1; echo BBB; while :; do :; done) | tr x y | uniq",
    /* a filter busy with its output still in its buffer at the stop */
    "awk 'BEGIN { print \"AAA\"; print \"BBB\"; while (1) ; }'",
    "printf 'AAA\\nBBB\\n' | awk '{ print } END { while (1) ; }'",
    "printf 'AAA\\nBBB\\n' | sed -n 'p;$!d;:a;ba'",
    NULL,
};

static void test_stops_keep_output(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.max_loop_iterations = 100000; /* explicit: kept with no timeout set */
  vsh_sandbox *limited = open_sb(&lim);
  lim.max_loop_iterations = UINT64_MAX;
  lim.max_commands = UINT64_MAX;
  vsh_sandbox *sb = open_sb(&lim);
  for (int i = 0; endless_after_ab[i]; i++) {
    expect_kept(sb, BY_DEADLINE, endless_after_ab[i], 0);
    expect_kept(sb, BY_DEADLINE, endless_after_ab[i], VSH_EXEC_NO_CAPTURE);
    expect_kept(sb, BY_CANCEL, endless_after_ab[i],
                i % 2 ? VSH_EXEC_NO_CAPTURE : 0);
  }
  /* a count: the shell's loop, then awk's and sed's loops, which count
   * as loop iterations too */
  expect_kept(limited, BY_LIMIT, endless_after_ab[0], 0);
  expect_kept(limited, BY_LIMIT, endless_after_ab[1], VSH_EXEC_NO_CAPTURE);
  vsh_close(limited);
  vsh_close(sb);
}

/* ---- a caller's timeout turns the default counts off -------------------- */

#define COUNT_LOOP "for ((i=0;i<1200000;i++)); do :; done; echo done"

static void expect_loop(vsh_sandbox *sb, int64_t timeout_ms, int status,
                        const char *out, const char *err) {
  vsh_exec_opts eo = {0};
  eo.timeout_ms = timeout_ms;
  vsh_result r;
  assert_int_equal(vsh_exec(sb, COUNT_LOOP, &eo, &r), VSH_OK);
  if (r.status != status)
    fprintf(stderr, "status %d, stdout [%s], stderr [%s]\n", r.status, r.out,
            r.err);
  assert_int_equal(r.status, status);
  assert_string_equal(r.out, out);
  if (err)
    assert_non_null(strstr(r.err, err));
  vsh_result_free(&r);
}

static void test_timeout_lifts_counts(void **state) {
  (void)state;
  /* the sandbox's timeout */
  vsh_limits lim = {0};
  lim.timeout_ms = 60000;
  vsh_sandbox *sb = open_sb(&lim);
  expect_loop(sb, 0, 0, "done\n", NULL);
  vsh_close(sb);
  /* one exec's timeout, in a sandbox without one */
  sb = open_sb(NULL);
  expect_loop(sb, 60000, 0, "done\n", NULL);
  /* without any timeout the default command count still applies */
  expect_loop(sb, 0, 126, "", "commands limit exceeded (1000000)");
  vsh_close(sb);
  /* an explicit count is kept under a timeout */
  memset(&lim, 0, sizeof lim);
  lim.timeout_ms = 60000;
  lim.max_commands = 100000;
  sb = open_sb(&lim);
  expect_loop(sb, 0, 126, "", "commands limit exceeded (100000)");
  expect_loop(sb, 30000, 126, "", "commands limit exceeded (100000)");
  vsh_close(sb);
  memset(&lim, 0, sizeof lim);
  lim.max_loop_iterations = 1000;
  sb = open_sb(&lim);
  expect_loop(sb, 60000, 126, "", "loop iterations limit exceeded (1000)");
  vsh_close(sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pipeline_filters),
      cmocka_unit_test(test_constructs),
      cmocka_unit_test(test_stops_keep_output),
      cmocka_unit_test(test_timeout_lifts_counts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
