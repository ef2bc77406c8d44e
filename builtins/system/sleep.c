/*
 * sleep.c - GNU sleep.
 *
 * Commands share the exec's thread: what matters is that a sleep never
 * outlives the exec's limits and does not hold up the other fibers. The
 * wait is cut in 2 ms slices; between them the budget (deadline, cancel
 * token, nested timeout) is checked and the other runnable fibers (jobs,
 * pipeline stages) get the thread. The deadline is taken on the
 * host's monotonic clock, not c->now_ns: the sandbox's wall clock may be
 * fixed or simulated, and would then never advance.
 */
#include <math.h>
#include <time.h>

#include "builtins/textutil.h"

const char bi_usage_sleep[] = "Usage: sleep NUMBER[SUFFIX]...\n"
                              "  or:  sleep OPTION";
const char bi_help_sleep[] =
    "Wait for NUMBER seconds before exiting. A SUFFIX changes the unit: 's'\n"
    "(seconds, the default), 'm' (minutes), 'h' (hours) or 'd' (days). NUMBER\n"
    "may have a fractional part. With several operands, the wait is their\n"
    "total.\n"
    "\n"
    "      --help        print this summary and quit\n"
    "      --version     print the version line and quit\n";

/* NUMBER[smhd] in seconds; -1 when invalid. Unlike timeout, sleep refuses
 * leading blanks. */
static double parse_interval(const char *s) {
  if (*s == ' ' || *s == '\t' || *s == '\n')
    return -1;
  return tu_parse_duration(s);
}

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int bi_sleep(bi_ctx *c) {
  bi_getopt g;
  /* Numbers like "-1" are not options for GNU either: it reports them as
   * invalid options. */
  if (tu_getopt_bare(c, &g))
    return g.status;
  if (!g.noperands)
    return bi_missing_operand(c);
  double total = 0;
  int bad = 0;
  for (int i = 0; i < g.noperands; i++) {
    double v = parse_interval(g.operands[i]);
    if (v < 0) {
      bi_error(c, "invalid time interval %s", tu_quote(c, g.operands[i]));
      bad = 1;
      continue;
    }
    total += v;
  }
  if (bad) {
    bi_try_help(c);
    return 1;
  }
  /* Anything beyond ~292 years is "forever": wait for the budget. */
  int64_t start = mono_ns();
  int64_t end = total >= 9e9 ? INT64_MAX : start + (int64_t)ceil(total * 1e9);
  for (;;) {
    if (budget_poll_now(c->bud))
      return 1; /* the shell reports the limit */
    int64_t now = mono_ns();
    if (now >= end)
      break;
    int64_t left = end - now;
    /* Other threads may use the sandbox meanwhile; then background jobs
     * and other pipeline stages run, as they would beside a real sleep. */
    sched *sc = sched_running();
    sched_nap(sc, left < 2000000 ? (long)left : 2000000L);
    if (sc)
      fiber_yield(sc);
  }
  return 0;
}
