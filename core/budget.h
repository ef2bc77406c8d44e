/*
 * budget.h - the limits of one exec, checked at statement boundaries and in
 * every stream call (so a builtin loop is always interruptible).
 *
 * budget_poll() is cheap: a flag, the cancel token and, when there is a
 * deadline, the coarse monotonic clock (a vDSO read of a few ns, a few ms
 * of resolution) on every poll, so a step that is slow between two polls
 * cannot carry the exec far past its deadline; a refused allocation too,
 * the memory counter every 256 polls.
 */
#ifndef VSH_CORE_BUDGET_H
#define VSH_CORE_BUDGET_H

#include <stdatomic.h>
#include <stdint.h>

#include "fiber.h"
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
  BUDGET_FS_BYTES,  /* a file write refused by the fs-bytes quota */
  BUDGET_FS_INODES, /* a file or directory refused by the fs-inodes quota */
  BUDGET_JOBS,
  BUDGET_HANGUP /* the script ended: its leftover jobs stop (not a limit) */
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
  const sched *sc; /* a killed job's fibers stop at their checks; or NULL */
  unsigned kills;  /* groups killed in sc so far (0: nothing to look for) */
  unsigned tick;
  uint32_t hangup;    /* polls left before BUDGET_HANGUP; 0: not hung up */
  uint64_t mem_limit; /* a lower memory cap the script set; 0: none */
  budget_stop stop;   /* sticky once set */
  uint64_t stop_value;
} budget;

/* Fill lim's zero fields with the defaults documented in vsh.h; with a
 * timeout set, unset command and loop counts are off (UINT64_MAX). */
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

/* A poll for loops that wait (sleep) rather than compute: reads the
 * precise clock (or the clock hook at once, not every few hundred polls),
 * and ends a hung-up exec at once, since its jobs may no longer wait.
 * Non-zero once a limit is hit. */
int budget_poll_now(budget *b);

/* The script has ended while jobs still run (see vsh_exec in vsh.h): they
 * get `polls` more budget checks and no wait, then every poll reports
 * BUDGET_HANGUP. */
void budget_hangup(budget *b, uint32_t polls);

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
