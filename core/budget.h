/*
 * budget.h - the limits of one exec, checked at statement boundaries and in
 * every stream call (so a builtin loop is always interruptible).
 *
 * budget_poll() is cheap: counters and a flag; the clock and the cancel token
 * are read only every few hundred polls.
 */
#ifndef VSH_CORE_BUDGET_H
#define VSH_CORE_BUDGET_H

#include <stdatomic.h>
#include <stdint.h>

#include "mem.h"
#include "vsh.h"

typedef enum budget_stop {
  BUDGET_OK = 0,
  BUDGET_TIMEOUT,   /* exit 124 */
  BUDGET_CANCELLED, /* API: VSH_ABORT */
  BUDGET_COMMANDS,  /* the rest: exit 126 */
  BUDGET_LOOPS,
  BUDGET_DEPTH,
  BUDGET_OUTPUT,
  BUDGET_MEMORY,
  BUDGET_STRING,
  BUDGET_FS
} budget_stop;

typedef struct budget {
  vsh_limits lim;
  uint64_t commands, loops, output;
  uint32_t depth;
  int64_t deadline_ns; /* monotonic; 0 = none */
  vsh_clock_fn clock;
  void *clock_ud;
  const atomic_int *cancel; /* may be NULL */
  mem *m;
  unsigned tick;
  budget_stop stop; /* sticky once set */
  uint64_t stop_value;
} budget;

/* Fill lim's zero fields with the defaults documented in vsh.h. */
void budget_defaults(vsh_limits *lim);
int64_t budget_now_ns(const budget *b); /* monotonic clock */

/* Returns non-zero once any limit is hit (sticky). */
int budget_poll(budget *b);
int budget_command(budget *b); /* count one command, then poll */
int budget_loop(budget *b);    /* count one loop iteration, then poll */
int budget_output(budget *b, uint64_t n);
void budget_set_stop(budget *b, budget_stop why, uint64_t value);
/* "commands" etc., as in "vsh: commands limit exceeded (N)". */
const char *budget_stop_name(budget_stop why);
/* Exit status for a stop: 124 for a timeout, 126 otherwise. */
int budget_stop_status(budget_stop why);

#endif
