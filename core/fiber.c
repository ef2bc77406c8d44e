#include "fiber.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ctx.h"

#if !VSH_CTX_ASM
#include <ucontext.h>
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VSH_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define VSH_ASAN 1
#endif
#ifdef VSH_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* ThreadSanitizer keeps a shadow call stack and a vector clock per thread;
 * a stack switch it is not told about corrupts both (wrong frames in
 * reports, false races). Each fiber gets a TSan fiber context, and every
 * switch names its target just before it happens. The switches synchronize
 * (flags 0): the scheduler really orders the fibers it runs, so what one
 * fiber wrote before a switch is visible to the next one. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VSH_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define VSH_TSAN 1
#endif
#ifdef VSH_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#define DEFAULT_STACK ((size_t)8 << 20)
/* The lowest 64 KiB of each stack are never mapped readable: an overflow
 * that slips past every depth check faults there instead of writing into
 * whatever lies below. 64 KiB rather than one page so that a frame with a
 * large local array cannot step over it (the build also probes big frames
 * page by page with -fstack-clash-protection, for our code; the guard's
 * size covers the libraries' code too). Address space only, never memory. */
#define GUARD ((size_t)64 << 10)
#define POOL_MAX 8
/* After an exec, the pages of a stack below its hottest part are given
 * back when a script went deeper than that (deep recursion touches
 * megabytes that would otherwise stay resident in every pooled stack). */
#define KEEP_HOT ((size_t)256 << 10)

enum { F_RUNNABLE, F_BLOCKED, F_RUNNING, F_DONE };

struct fiber {
  sched *s;
  fiber_fn fn;
  void *arg;
  int state;
  int woken;   /* a wake arrived while not blocked */
  int killed;  /* its group was killed (sched_kill_group) */
  void *group; /* inherited from the fiber that spawned it */
  char *stack; /* mapping base (guard page first) */
  size_t stack_size;
  char *low;            /* deepest stack position a depth check saw */
  int started;          /* its context runs the loop of fiber_entry_main */
  fiber *next;          /* run queue or pool */
  fiber *bprev, *bnext; /* blocked list */
#if VSH_CTX_ASM
  void *sp;
#else
  ucontext_t uc;
#endif
#ifdef VSH_ASAN
  void *fake;    /* its fake stack (detect_stack_use_after_return), kept */
  int fake_kept; /* counted in nfake_kept */
#endif
#ifdef VSH_TSAN
  void *tsan;        /* this fiber's context, from its start to its end */
  void *tsan_caller; /* the context run_one switched from */
#endif
};

struct sched {
  size_t stack_size;
  fiber *cur;
  fiber *head, *tail; /* run queue */
  fiber *pool;        /* finished fibers with their stacks, for reuse */
  int npool;
  int nlive; /* spawned and not finished */
  int nblocked;
  int deadlocked;
  fiber *blocked;    /* every blocked fiber, for deadlock breaking */
  sched_turns turns; /* leave == NULL: none */
#if VSH_CTX_ASM
  void *root_sp;
#else
  ucontext_t root_uc;
#endif
#ifdef VSH_ASAN
  const void *root_bottom;
  size_t root_size;
#endif
};

sched *sched_new(size_t stack_size) {
  sched *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->stack_size = stack_size ? stack_size : DEFAULT_STACK;
  return s;
}

static void switch_in(sched *s, fiber *f);

/* A finished fiber is not unwound: it waits in the loop of
 * fiber_entry_main for its next function, so reusing it costs neither a
 * fresh context nor, under ASan, clearing its stack's shadow and a new fake
 * stack. Ending it for good runs it once more with no function: it leaves
 * the loop and the sanitizers drop what they keep for it. */
static void retire(sched *s, fiber *f) {
  if (!f->started)
    return;
  f->fn = NULL;
  f->s = s;
  switch_in(s, f);
  f->started = 0;
#ifdef VSH_ASAN
  f->fake = NULL;
#endif
#ifdef VSH_TSAN
  __tsan_destroy_fiber(f->tsan); /* not current: we are back on ours */
  f->tsan = NULL;
#endif
}

#ifdef VSH_ASAN
/* Clear the shadow of the part of a stack that frames may have poisoned:
 * from a margin below the deepest point a depth check saw to the top. Not
 * the whole 8 MiB: ASan clears shadow with memset, which would make a
 * megabyte of shadow resident for every stack ever mapped. */
#define POISON_MARGIN ((size_t)128 << 10)
static void unpoison_used(fiber *f) {
  char *lo = f->stack + GUARD;
  if (f->low > lo + POISON_MARGIN)
    lo = f->low - POISON_MARGIN;
  __asan_unpoison_memory_region(lo, (size_t)(f->stack + f->stack_size - lo));
}
#endif

static void free_fiber(sched *s, fiber *f) {
  retire(s, f);
#ifdef VSH_ASAN
  /* The shadow of an unmapped stack keeps its frames' poison; whatever the
   * host maps at that address next (another library's heap) would then
   * trip ASan. Every frame but those of the fiber's loop (at the top) has
   * returned, or was unwound by a longjmp, which ASan clears. */
  unpoison_used(f);
#endif
  munmap(f->stack, f->stack_size);
  free(f);
}

/* Give back the pages a deep script touched below the hot top of the
 * stack (see KEEP_HOT); the next deep script faults them in again. */
static void shed(fiber *f) {
  char *top = f->stack + f->stack_size;
  char *keep = top - KEEP_HOT;
  if (f->low < keep && f->stack_size > KEEP_HOT + GUARD)
    madvise(f->stack + GUARD, (size_t)(keep - (f->stack + GUARD)),
            MADV_DONTNEED);
  f->low = top;
}

/* Finished fibers with their stacks, shared by every scheduler of the
 * process: a scheduler hands its own back when its exec ends (sched_trim)
 * and when it is freed, so an idle sandbox holds no stack (neither memory
 * nor a mapping: 10,000 idle sandboxes must not use up the process's
 * mappings), while a busy process still reuses warm stacks. */
#define SPARE_MAX 64
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static fiber *spare;
static int nspare;
#ifdef VSH_ASAN
/* A fake stack is some 11 MB of address space that a long-lived fiber
 * ends up touching whole: only a few spare fibers keep theirs. */
#define FAKE_KEEP 4
static int nfake_kept;
#endif

static fiber *spare_take(size_t stack_size) {
  if (stack_size != DEFAULT_STACK)
    return NULL;
  pthread_mutex_lock(&spare_lock);
  fiber *f = spare;
  if (f) {
    spare = f->next;
    nspare--;
#ifdef VSH_ASAN
    if (f->fake_kept) {
      f->fake_kept = 0;
      nfake_kept--;
    }
#endif
  }
  pthread_mutex_unlock(&spare_lock);
  return f;
}

void sched_trim(sched *s) {
  while (s->pool) {
    fiber *f = s->pool;
    s->pool = f->next;
    s->npool--;
    int kept = 0;
    shed(f);
    if (f->stack_size == DEFAULT_STACK) {
#ifdef VSH_ASAN
      if (f->fake) {
        pthread_mutex_lock(&spare_lock);
        int keep = nfake_kept < FAKE_KEEP;
        if (keep)
          nfake_kept++;
        pthread_mutex_unlock(&spare_lock);
        if (keep)
          f->fake_kept = 1;
        else
          retire(s, f);
      }
#endif
      pthread_mutex_lock(&spare_lock);
      if (nspare < SPARE_MAX) {
        f->next = spare;
        spare = f;
        nspare++;
        kept = 1;
      }
      pthread_mutex_unlock(&spare_lock);
    }
    if (!kept) {
#ifdef VSH_ASAN
      if (f->fake_kept) {
        pthread_mutex_lock(&spare_lock);
        nfake_kept--;
        pthread_mutex_unlock(&spare_lock);
        f->fake_kept = 0;
      }
#endif
      free_fiber(s, f);
    }
  }
}

void sched_free(sched *s) {
  if (!s)
    return;
  sched_trim(s);
  free(s);
}

static void enqueue(sched *s, fiber *f) {
  f->next = NULL;
  if (s->tail)
    s->tail->next = f;
  else
    s->head = f;
  s->tail = f;
}

static fiber *dequeue(sched *s) {
  fiber *f = s->head;
  if (f) {
    s->head = f->next;
    if (!s->head)
      s->tail = NULL;
    f->next = NULL;
  }
  return f;
}

/* Switch from the running fiber back to the scheduler loop; `last`: the
 * fiber ends for good (retire), so ASan drops its fake stack. When it is
 * resumed, possibly by another scheduler (spare fibers are shared), that
 * scheduler's stack is recorded as the one to come back to. */
static void to_root(sched *s, fiber *f, int last) {
#ifdef VSH_ASAN
  __sanitizer_start_switch_fiber(last ? NULL : &f->fake, s->root_bottom,
                                 s->root_size);
#else
  (void)last;
#endif
#ifdef VSH_TSAN
  __tsan_switch_to_fiber(f->tsan_caller, 0);
#endif
#if VSH_CTX_ASM
  ctx_switch(&f->sp, s->root_sp);
#else
  swapcontext(&f->uc, &s->root_uc);
#endif
#ifdef VSH_ASAN
  __sanitizer_finish_switch_fiber(f->fake, &f->s->root_bottom,
                                  &f->s->root_size);
#endif
}

void fiber_entry_main(fiber *f);
void fiber_entry_main(fiber *f) {
#ifdef VSH_ASAN
  __sanitizer_finish_switch_fiber(NULL, &f->s->root_bottom, &f->s->root_size);
#endif
  /* One function per spawn; between two, the fiber waits here. */
  while (f->fn) {
    f->fn(f->arg);
    f->state = F_DONE;
    to_root(f->s, f, 0);
  }
  f->state = F_DONE;
  to_root(f->s, f, 1);
  abort(); /* a retired fiber is never resumed */
}

#if !VSH_CTX_ASM
static void uc_entry(unsigned lo, unsigned hi) {
  fiber *f = (fiber *)(((uintptr_t)hi << 32) | (uintptr_t)lo);
  fiber_entry_main(f);
}
#endif

static void prepare(fiber *f) {
  char *top = f->stack + f->stack_size;
#if VSH_CTX_ASM
  /* Layout read by ctx_switch: [mxcsr|fpucw][r15][r14][r13][r12][rbx]
   * [rbp][return address = ctx_start][0], top 16-byte aligned. */
  uint64_t *sp = (uint64_t *)(void *)top;
  *--sp = 0;
  *--sp = (uint64_t)(uintptr_t)ctx_start;
  *--sp = 0;                           /* rbp */
  *--sp = 0;                           /* rbx */
  *--sp = (uint64_t)(uintptr_t)f;      /* r12: argument for the entry */
  *--sp = 0;                           /* r13 */
  *--sp = 0;                           /* r14 */
  *--sp = 0;                           /* r15 */
  *--sp = 0x1f80u | (0x037fULL << 32); /* default MXCSR and x87 control */
  f->sp = sp;
#else
  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = f->stack + GUARD;
  f->uc.uc_stack.ss_size = f->stack_size - GUARD;
  f->uc.uc_link = NULL;
  uintptr_t p = (uintptr_t)f;
  makecontext(&f->uc, (void (*)(void))uc_entry, 2, (unsigned)(p & 0xffffffffu),
              (unsigned)(p >> 32));
  (void)top;
#endif
}

fiber *sched_spawn(sched *s, fiber_fn fn, void *arg) {
  fiber *f = s->pool;
  if (f) {
    s->pool = f->next;
    s->npool--;
  } else if (!(f = spare_take(s->stack_size))) {
    f = calloc(1, sizeof *f);
    if (!f)
      return NULL;
    f->stack_size = s->stack_size;
    f->stack = mmap(NULL, f->stack_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (f->stack == MAP_FAILED) {
      free(f);
      return NULL;
    }
    if (mprotect(f->stack, GUARD, PROT_NONE)) { /* guard region */
      munmap(f->stack, f->stack_size);
      free(f);
      return NULL;
    }
    f->low = f->stack + f->stack_size;
  }
#ifdef VSH_ASAN
  /* A stack's shadow is clean: free_fiber clears what frames poisoned
   * before unmapping, a retired fiber's frames have all returned but those
   * at the top (cleared here), and a started fiber's have all returned (or
   * were unwound by a longjmp, which ASan clears). */
  if (!f->started)
    unpoison_used(f);
#endif
  f->s = s;
  f->fn = fn;
  f->arg = arg;
  f->woken = 0;
  f->killed = 0;
  f->group = s->cur ? s->cur->group : NULL;
  f->state = F_RUNNABLE;
  if (!f->started) {
#ifdef VSH_TSAN
    /* one context for the fiber's whole life, from here to retire() */
    f->tsan = __tsan_create_fiber(0);
#endif
    prepare(f);
    f->started = 1;
  }
  enqueue(s, f);
  s->nlive++;
  return f;
}

/* The current stack position. Not the address of a local: with ASan's
 * detect_stack_use_after_return, address-taken locals live on a "fake
 * stack" in the heap, so a depth check based on one never fires and deep
 * recursion overflows the real stack. The frame address is always on it. */
static inline char *stack_here(void) {
  return (char *)__builtin_frame_address(0);
}

/* The fiber running on this thread, for stack_left(). */
static _Thread_local fiber *tls_fiber;

/* Bytes left below here, noting how deep the fiber went (shed()). */
static size_t left_of(fiber *f) {
  char *here = stack_here();
  if (here < f->low)
    f->low = here;
  return (size_t)(here - (f->stack + GUARD));
}

size_t stack_left(void) {
  fiber *f = tls_fiber;
  if (!f)
    return SIZE_MAX;
  return left_of(f);
}

sched *sched_running(void) {
  return tls_fiber ? tls_fiber->s : NULL;
}

static void switch_in(sched *s, fiber *f) {
  fiber *outer = tls_fiber;
  tls_fiber = f;
  s->cur = f;
  f->state = F_RUNNING;
#ifdef VSH_ASAN
  void *fake = NULL;
  __sanitizer_start_switch_fiber(&fake, f->stack + GUARD,
                                 f->stack_size - GUARD);
#endif
#ifdef VSH_TSAN
  f->tsan_caller = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(f->tsan, 0);
#endif
#if VSH_CTX_ASM
  ctx_switch(&s->root_sp, f->sp);
#else
  swapcontext(&s->root_uc, &f->uc);
#endif
#ifdef VSH_ASAN
  __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
  s->cur = NULL;
  tls_fiber = outer;
}

static void run_one(sched *s, fiber *f) {
  switch_in(s, f);
  if (f->state == F_DONE) {
    s->nlive--;
    if (s->npool < POOL_MAX) {
      f->next = s->pool;
      s->pool = f;
      s->npool++;
    } else {
      free_fiber(s, f);
    }
  }
}

int sched_live(const sched *s) {
  return s->nlive;
}

static int turn_wanted(const sched *s) {
  return s->turns.leave && s->turns.want &&
         atomic_load_explicit(s->turns.want, memory_order_relaxed) > 0;
}

int sched_turn_wanted(const sched *s) {
  return s && turn_wanted(s);
}

void sched_set_turns(sched *s, const sched_turns *t) {
  if (t)
    s->turns = *t;
  else
    memset(&s->turns, 0, sizeof s->turns);
}

void sched_leave(sched *s) {
  if (s && s->turns.leave)
    s->turns.leave(s->turns.ud);
}

void sched_enter(sched *s) {
  if (s && s->turns.leave)
    s->turns.enter(s->turns.ud);
}

void sched_nap(sched *s, long ns) {
  struct timespec ts = {0, ns < 0 ? 0 : ns > 999999999L ? 999999999L : ns};
  sched_leave(s);
  nanosleep(&ts, NULL);
  sched_enter(s);
}

int sched_run(sched *s) {
  fiber *f;
  while ((f = dequeue(s))) {
    /* On the thread's own stack, between two fibers: the state every
     * fiber left is whole, so another thread may use the sandbox. */
    if (turn_wanted(s)) {
      s->turns.leave(s->turns.ud);
      s->turns.enter(s->turns.ud);
    }
    run_one(s, f);
  }
  if (!s->nblocked)
    s->deadlocked = 0;
  return s->nblocked;
}

fiber *sched_current(const sched *s) {
  return s->cur;
}

int sched_deadlocked(const sched *s) {
  return s->deadlocked;
}

void fiber_block(sched *s) {
  fiber *f = s->cur;
  if (!f)
    abort(); /* blocking outside a fiber is a bug */
  if (f->woken) {
    f->woken = 0;
    return;
  }
  f->state = F_BLOCKED;
  f->bprev = NULL;
  f->bnext = s->blocked;
  if (s->blocked)
    s->blocked->bprev = f;
  s->blocked = f;
  s->nblocked++;
  to_root(s, f, 0);
  f->woken = 0;
}

void fiber_wake(sched *s, fiber *f) {
  if (!f)
    return;
  if (f->state != F_BLOCKED) {
    if (f->state != F_DONE)
      f->woken = 1;
    return;
  }
  if (f->bprev)
    f->bprev->bnext = f->bnext;
  else
    s->blocked = f->bnext;
  if (f->bnext)
    f->bnext->bprev = f->bprev;
  s->nblocked--;
  f->state = F_RUNNABLE;
  enqueue(s, f);
}

void sched_break_deadlock(sched *s) {
  s->deadlocked = 1;
  while (s->blocked)
    fiber_wake(s, s->blocked);
}

void fiber_yield(sched *s) {
  fiber *f = s->cur;
  if (!f || (!s->head && !turn_wanted(s)))
    return;
  f->state = F_RUNNABLE;
  enqueue(s, f);
  to_root(s, f, 0);
}

size_t fiber_stack_left(const sched *s) {
  fiber *f = s->cur;
  if (!f)
    return SIZE_MAX;
  return left_of(f);
}

void fiber_set_group(sched *s, void *group) {
  if (s->cur)
    s->cur->group = group;
}

int sched_current_killed(const sched *s) {
  return s && s->cur && s->cur->killed;
}

void sched_kill_group(sched *s, void *group) {
  if (!group)
    return;
  if (s->cur && s->cur->group == group)
    s->cur->killed = 1;
  for (fiber *f = s->head; f; f = f->next)
    if (f->group == group)
      f->killed = 1;
  /* Blocked ones are woken to see it; waking edits the blocked list. */
  for (fiber *f = s->blocked; f;) {
    fiber *n = f->bnext;
    if (f->group == group) {
      f->killed = 1;
      fiber_wake(s, f);
    }
    f = n;
  }
}
