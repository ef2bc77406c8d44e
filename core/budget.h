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
  BUDGET_FS,
  BUDGET_JOBS
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

/* Check the clock and the cancel token now instead of every few hundred
 * polls: for loops that wait (sleep) rather than compute. Non-zero once a
 * limit is hit. */
static inline int budget_poll_now(budget *b) {
  b->tick |= 255; /* the next poll is the one that reads the clock */
  return budget_poll(b);
}

/* A nested deadline (timeout CMD): at most ns from now, never later than
 * the outer one. The saved state goes back with budget_deadline_pop, which
 * also clears the stop the nested deadline caused (and only that one). */
typedef struct budget_deadline {
  int64_t deadline_ns;
  int64_t nested_ns;
} budget_deadline;

static inline void budget_deadline_push(budget *b, int64_t ns,
                                        budget_deadline *save) {
  save->deadline_ns = b->deadline_ns;
  int64_t d = budget_now_ns(b) + ns;
  if (b->deadline_ns && b->deadline_ns <= d)
    d = b->deadline_ns;
  save->nested_ns = d;
  b->deadline_ns = d;
}

/* Returns 1 when the nested deadline (not the outer one) stopped the
 * command: the stop is then cleared so the caller can go on. */
static inline int budget_deadline_pop(budget *b, const budget_deadline *save) {
  int fired = 0;
  b->deadline_ns = save->deadline_ns;
  if (b->stop == BUDGET_TIMEOUT &&
      (save->deadline_ns == 0 || save->nested_ns < save->deadline_ns)) {
    b->stop = BUDGET_OK;
    b->stop_value = 0;
    fired = 1;
  }
  return fired;
}

#endif
