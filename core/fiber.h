/*
 * fiber.h - cooperative fibers on one OS thread, for streaming pipelines.
 *
 * A scheduler belongs to a sandbox and is driven by sched_run() on the
 * caller's thread. Every piece of script runs in a fiber (even a lone
 * `echo`), so the C stack depth of a script never depends on the embedder's
 * thread stack. Pipeline stages are further fibers; a stage that must wait
 * (pipe empty or full, waiting for children) blocks, and sched_run switches
 * to the next runnable fiber. The order is FIFO, hence deterministic.
 *
 * Stacks are mmap'd with a guard page and reused through a small pool; they
 * are address space, not heap, so they are not charged to the allocator cap.
 * On x86-64 the switch is a few instructions (core/ctx_x86_64.S); elsewhere
 * ucontext is used.
 */
#ifndef VSH_CORE_FIBER_H
#define VSH_CORE_FIBER_H

#include <stddef.h>

typedef struct sched sched;
typedef struct fiber fiber;
typedef void (*fiber_fn)(void *arg);

sched *sched_new(size_t stack_size); /* 0: default (8 MiB virtual) */
void sched_free(sched *s);
/* Hand the finished fibers this scheduler keeps for reuse (and their
 * stacks) to the process's shared spares: for a scheduler going idle. */
void sched_trim(sched *s);

/* Create a runnable fiber; it runs when sched_run (or a block) reaches it. */
fiber *sched_spawn(sched *s, fiber_fn fn, void *arg);

/* Like fiber_stack_left for the fiber running on this thread, without its
 * scheduler (builtins' recursive parsers and evaluators check it):
 * SIZE_MAX outside fibers. */
size_t stack_left(void);
/* What a recursive parser or evaluator leaves free before it refuses to go
 * deeper: enough for any single step between two checks. */
#define STACK_RESERVE ((size_t)256 * 1024)

/* The scheduler of the fiber running on this thread, or NULL outside
 * fibers: for code that must block but was handed no scheduler. */
sched *sched_running(void);

/* Groups: a fiber belongs to the group of the fiber that spawned it,
 * unless it sets its own (a background job does, and its pipeline stages
 * inherit it). Killing a group marks its fibers and wakes the blocked
 * ones; the budget of the exec then stops them at their next check. */
void fiber_set_group(sched *s, void *group); /* the running fiber's */
void sched_kill_group(sched *s, void *group);
/* The running fiber's group was killed. */
int sched_current_killed(const sched *s);

/* Fibers spawned and not finished yet (running, runnable or blocked). */
int sched_live(const sched *s);

/* Run until no fiber is runnable. Returns the number of fibers still
 * blocked: non-zero means a deadlock (sched_break_deadlock wakes them). */
int sched_run(sched *s);

/* Wake every blocked fiber with sched_deadlocked() true, so each can fail
 * its wait; then sched_run again. */
void sched_break_deadlock(sched *s);
int sched_deadlocked(const sched *s);

/* The running fiber (NULL when called outside any fiber). */
fiber *sched_current(const sched *s);

/* Suspend the running fiber until fiber_wake. Returns immediately if a wake
 * arrived since the last block. Must be called from a fiber. */
void fiber_block(sched *s);
void fiber_wake(sched *s, fiber *f);
/* Let the other runnable fibers run once. */
void fiber_yield(sched *s);

/* Turns: a sandbox shared by several threads lends its scheduler two
 * hooks. `leave` lets other threads in (they wait for the sandbox while a
 * script runs), `enter` takes the sandbox back; `want` counts the threads
 * waiting. Between two fibers, and at every fiber_yield (even with no
 * other fiber runnable), a waiting thread gets its turn; sched_nap sleeps
 * with the sandbox let go. Without hooks, both are plain. */
typedef struct sched_turns {
  void (*leave)(void *ud);
  void (*enter)(void *ud);
  void *ud;
  const _Atomic int *want;
} sched_turns;
void sched_set_turns(sched *s, const sched_turns *t); /* NULL: none */
/* Another thread waits for the sandbox (one relaxed atomic load): budget
 * checks then yield at once, so the wait lasts one check interval. */
int sched_turn_wanted(const sched *s);
/* Around a wait for something outside the sandbox (a timer, a socket):
 * other threads may use the sandbox between the two calls, so nothing of
 * it may be touched there. s may be NULL (no scheduler on this thread), as
 * may its hooks: then both do nothing. */
void sched_leave(sched *s);
void sched_enter(sched *s);
/* Sleep ns nanoseconds (at most a second) between the two. */
void sched_nap(sched *s, long ns);

/* Approximate bytes of stack left for the running fiber (for depth
 * guards); SIZE_MAX outside fibers. */
size_t fiber_stack_left(const sched *s);

#endif
