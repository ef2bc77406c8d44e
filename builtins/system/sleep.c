/*
 * sleep.c - GNU sleep.
 *
 * Commands share the exec's thread, so sleeping cannot hand the time to
 * anything else; what matters is that it never outlives the exec's limits.
 * The wait is cut in 2 ms slices and the budget (deadline, cancel token,
 * nested timeout) is checked between them. The deadline is taken on the
 * host's monotonic clock, not c->now_ns: the sandbox's wall clock may be
 * fixed or simulated, and would then never advance.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins/textutil.h"

const char bi_usage_sleep[] = "Usage: sleep NUMBER[SUFFIX]...\n"
                              "  or:  sleep OPTION";
const char bi_help_sleep[] =
    "Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),\n"
    "'m' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an\n"
    "integer.  Given two or more arguments, pause for the amount of time\n"
    "specified by the sum of their values.\n"
    "\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n";

/* NUMBER[smhd] in seconds; -1 when invalid. */
static double parse_interval(const char *s) {
  char *end;
  if (!*s || strchr(" \t\n", *s))
    return -1;
  double v = strtod(s, &end);
  if (end == s || v < 0 || isnan(v))
    return -1;
  if (*end) {
    if (end[1])
      return -1;
    switch (*end) {
    case 's':
      break;
    case 'm':
      v *= 60;
      break;
    case 'h':
      v *= 3600;
      break;
    case 'd':
      v *= 86400;
      break;
    default:
      return -1;
    }
  }
  return v;
}

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int bi_sleep(bi_ctx *c) {
  static const bi_opt opts[] = {{"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int ch;
  bi_getopt g;
  /* Numbers like "-1" are not options for GNU either: it reports them as
   * invalid options. */
  bi_getopt_init(&g, c, "", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    if (ch == BI_OPT_HELP)
      return bi_print_help(c);
    if (ch == BI_OPT_VERSION)
      return tu_version(c);
    return 1;
  }
  if (!g.noperands) {
    bi_error(c, "missing operand");
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
    return 1;
  }
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
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
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
    struct timespec ts = {0, left < 2000000 ? (long)left : 2000000L};
    nanosleep(&ts, NULL);
  }
  return 0;
}
