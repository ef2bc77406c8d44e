#include "budget.h"

#include <time.h>

void budget_defaults(vsh_limits *l) {
  /* The count limits exist so that a runaway loop ends when the caller set
   * no deadline. A caller who chose a deadline chose how long work may
   * take: a default count the caller never asked for must not end the
   * exec first, so unset counts are off then. */
  uint64_t off = l->timeout_ms > 0 ? UINT64_MAX : 0;
  if (!l->max_commands)
    l->max_commands = off ? off : 1000000;
  if (!l->max_loop_iterations)
    l->max_loop_iterations = off ? off : 10000000;
  if (!l->max_call_depth)
    l->max_call_depth = 1000;
  if (!l->max_output_bytes)
    l->max_output_bytes = (uint64_t)64 << 20;
  if (!l->max_memory)
    l->max_memory = (uint64_t)1 << 30;
  if (!l->max_fs_bytes)
    l->max_fs_bytes = (uint64_t)1 << 30;
  if (!l->max_fs_inodes)
    l->max_fs_inodes = 1000000;
  if (!l->max_string_bytes)
    l->max_string_bytes = (uint64_t)16 << 20;
  if (!l->max_jobs)
    l->max_jobs = 1000;
}

int64_t budget_now_ns(const budget *b) {
  if (b->clock)
    return b->clock(b->clock_ud, 1);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void budget_set_stop(budget *b, budget_stop why, uint64_t value) {
  if (b->stop == BUDGET_OK) {
    b->stop = why;
    b->stop_value = value;
  }
}

/* The clock for the deadline check of every poll: the coarse monotonic
 * clock is a vDSO read of a few ns (CLOCK_MONOTONIC costs several times
 * more), its resolution (a kernel tick, 1 to 4 ms) is all a deadline needs,
 * and it never runs ahead of CLOCK_MONOTONIC, against which the deadline
 * was set. A clock hook may be slow: it is read every 256 polls. */
static int deadline_passed(budget *b, int now) {
  if (b->clock) {
    if (!now && (b->tick & 255) != 255)
      return 0;
    return b->clock(b->clock_ud, 1) >= b->deadline_ns;
  }
  struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
  clock_gettime(now ? CLOCK_MONOTONIC : CLOCK_MONOTONIC_COARSE, &ts);
#else
  clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec >= b->deadline_ns;
}

static int poll_at(budget *b, int now) {
  if (b->stop)
    return 1;
  if (b->kills && sched_current_killed(b->sc))
    return 1; /* `kill` ended this job: it alone unwinds */
  if (b->hangup && (now || --b->hangup == 0)) {
    budget_set_stop(b, BUDGET_HANGUP, 0);
    return 1;
  }
  if (b->deadline_ns && deadline_passed(b, now)) {
    budget_set_stop(b, BUDGET_TIMEOUT, (uint64_t)b->lim.timeout_ms);
    return 1;
  }
  if (b->cancel && atomic_load_explicit(b->cancel, memory_order_relaxed)) {
    budget_set_stop(b, BUDGET_CANCELLED, 0);
    return 1;
  }
  /* A refused allocation stops the exec at once (the code that saw it may
   * go on with something missing); the soft cap can wait a few hundred
   * checks. */
  ++b->tick;
  if (b->m && (mem_failed(b->m) ||
               (((b->tick & 255) == 0 || now) &&
                (mem_over_cap(b->m) ||
                 (b->mem_limit && mem_used(b->m) > b->mem_limit))))) {
    budget_set_stop(b, BUDGET_MEMORY,
                    b->mem_limit && b->mem_limit < b->lim.max_memory
                        ? b->mem_limit
                        : b->lim.max_memory);
    return 1;
  }
  /* A command that never has to wait (cat /dev/zero >/dev/null, an awk
   * loop) still gives the other fibers a turn now and then, as the shell
   * does between commands: a background job must not starve the script
   * that would kill it. Counted, so runs stay reproducible. */
  if (b->sc && ((b->tick & 1023) == 0 || sched_turn_wanted(b->sc)) &&
      sched_running() == b->sc)
    fiber_yield((sched *)b->sc);
  return 0;
}

int budget_poll(budget *b) {
  return poll_at(b, 0);
}

int budget_poll_now(budget *b) {
  return poll_at(b, 1);
}

void budget_hangup(budget *b, uint32_t polls) {
  b->hangup = polls ? polls : 1;
}

/* Commands and loop iterations are the shell's statement boundaries, where
 * its state is whole: every 256th gives the other runnable fibers a turn,
 * so a job that only computes neither starves the script (which would
 * then never reach its `kill` or its end) nor is starved by it. Counted,
 * so the interleaving is the same on every run. */
static void take_turns(budget *b, uint64_t n) {
  if ((n & 255) == 0 && b->sc)
    fiber_yield((sched *)b->sc);
}

int budget_command(budget *b) {
  if (++b->commands > b->lim.max_commands)
    budget_set_stop(b, BUDGET_COMMANDS, b->lim.max_commands);
  take_turns(b, b->commands);
  return budget_poll(b);
}

int budget_loop(budget *b) {
  if (++b->loops > b->lim.max_loop_iterations)
    budget_set_stop(b, BUDGET_LOOPS, b->lim.max_loop_iterations);
  take_turns(b, b->loops);
  return budget_poll(b);
}

int budget_output(budget *b, uint64_t n) {
  b->output += n;
  if (b->output > b->lim.max_output_bytes)
    budget_set_stop(b, BUDGET_OUTPUT, b->lim.max_output_bytes);
  return budget_poll(b);
}

const char *budget_stop_name(budget_stop why) {
  switch (why) {
  case BUDGET_OK:
    return "none";
  case BUDGET_TIMEOUT:
    return "timeout";
  case BUDGET_CANCELLED:
    return "cancelled";
  case BUDGET_COMMANDS:
    return "commands";
  case BUDGET_LOOPS:
    return "loop iterations";
  case BUDGET_DEPTH:
    return "call depth";
  case BUDGET_OUTPUT:
    return "output bytes";
  case BUDGET_MEMORY:
    return "memory";
  case BUDGET_STRING:
    return "string length";
  case BUDGET_FS_BYTES:
    return "fs-bytes";
  case BUDGET_FS_INODES:
    return "fs-inodes";
  case BUDGET_JOBS:
    return "jobs";
  case BUDGET_HANGUP:
    return "hangup";
  }
  return "unknown";
}

int budget_stop_status(budget_stop why) {
  return why == BUDGET_TIMEOUT ? 124 : 126;
}
