// layers: core
/* Unit tests of core/: allocator accounting and cap, arena marks, byte
 * buffers, fibers, pipes with backpressure and EPIPE, readers, writers,
 * and the budget. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/arena.h"
#include "core/budget.h"
#include "core/buf.h"
#include "core/fiber.h"
#include "core/mem.h"
#include "core/stream.h"

static void test_mem_accounting(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  assert_int_equal(mem_used(m), 0);
  char *p = mem_alloc(m, 100);
  assert_non_null(p);
  size_t u1 = mem_used(m);
  assert_true(u1 >= 100);
  p = mem_realloc(m, p, 1000);
  assert_true(mem_used(m) >= 1000);
  mem_free(m, p);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

static void test_mem_cap(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 1 << 20);
  void *a = mem_alloc(m, 2 << 20); /* over soft cap but within reserve */
  assert_non_null(a);
  assert_true(mem_over_cap(m));
  void *b = mem_alloc(m, 64 << 20); /* past the hard cap */
  assert_null(b);
  mem_free(m, a);
  assert_false(mem_over_cap(m));
  mem_unref(m);
}

/* An allocator hook that refuses every request while refuse is set. */
static int refuse;
static void *refusing_alloc(void *ud, void *p, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(p);
    return NULL;
  }
  return refuse ? NULL : realloc(p, nsize);
}

/* A refused allocation stops the exec's budget at its next poll, until
 * the next exec clears it. */
static void test_mem_refused_stops_budget(void **st) {
  (void)st;
  mem *m = mem_new(refusing_alloc, NULL, 0);
  budget b;
  memset(&b, 0, sizeof b);
  budget_defaults(&b.lim);
  b.m = m;
  assert_int_equal(budget_poll(&b), 0);
  refuse = 1;
  assert_null(mem_alloc(m, 10));
  refuse = 0;
  assert_true(mem_failed(m));
  assert_int_equal(budget_poll(&b), 1);
  assert_int_equal(b.stop, BUDGET_MEMORY);
  mem_clear_failed(m);
  budget c;
  memset(&c, 0, sizeof c);
  budget_defaults(&c.lim);
  c.m = m;
  assert_int_equal(budget_poll(&c), 0);
  /* the hard cap counts as a refusal too */
  mem_set_cap(m, 1 << 20);
  assert_null(mem_alloc(m, 64 << 20));
  assert_int_equal(budget_poll(&c), 1);
  mem_unref(m);
}

/* Once an append fails the buffer misses bytes: later appends, even small
 * ones, fail too and buf_take gives nothing, until buf_clear. */
static void test_buf_oom_sticky(void **st) {
  (void)st;
  mem *m = mem_new(refusing_alloc, NULL, 0);
  buf b;
  buf_init(&b, m);
  refuse = 1;
  assert_int_equal(buf_puts(&b, "abc"), -1);
  refuse = 0;
  assert_true(b.oom);
  assert_int_equal(buf_putc(&b, '\n'), -1);
  assert_int_equal(b.len, 0);
  assert_null(buf_take(&b, NULL));
  assert_false(b.oom);
  assert_int_equal(buf_puts(&b, "abc"), 0);
  buf_clear(&b);
  assert_int_equal(buf_puts(&b, "x"), 0);
  assert_string_equal(buf_cstr(&b), "x");
  buf_free(&b);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

/* A capture (the exec's result, a $(...)) that cannot grow ends the exec
 * instead of dropping output; an empty writer flushes nothing. */
static void test_capture_nomem(void **st) {
  (void)st;
  mem *m = mem_new(refusing_alloc, NULL, 0);
  budget b;
  memset(&b, 0, sizeof b);
  budget_defaults(&b.lim);
  buf out;
  buf_init(&out, m);
  stream *cap = stream_capture(m, &b, &out, NULL, NULL, 1, 1);
  refuse = 1;
  assert_int_equal(stream_write(cap, "12345", 5), -1);
  refuse = 0;
  assert_int_equal(cap->err, ENOMEM);
  assert_int_equal(b.stop, BUDGET_MEMORY);
  writer w;
  wr_init(&w, cap);
  assert_int_equal(wr_write(&w, NULL, 0), 0);
  stream_unref(cap);
  buf_free(&out);
  mem_unref(m);
}

static void test_arena_marks(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  arena a;
  arena_init(&a, m);
  char *x = arena_strdup(&a, "hello");
  arena_mark mk = arena_save(&a);
  for (int i = 0; i < 1000; i++)
    assert_non_null(arena_alloc(&a, 1000));
  size_t big = mem_used(m);
  arena_release(&a, mk);
  assert_true(mem_used(m) < big);
  assert_string_equal(x, "hello");
  assert_int_equal((uintptr_t)arena_alloc(&a, 3) % 16, 0);
  arena_destroy(&a);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

static void test_buf(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  buf b;
  buf_init(&b, m);
  assert_string_equal(buf_cstr(&b), "");
  buf_append(&b, "a\0b", 3);
  assert_int_equal(b.len, 3);
  buf_printf(&b, "%d-%s", 42, "x");
  assert_memory_equal(b.data, "a\0b42-x", 7);
  for (int i = 0; i < 1000; i++)
    buf_printf(&b, "%0300d", i);
  assert_int_equal(b.len, 7 + 300000);
  size_t n;
  char *t = buf_take(&b, &n);
  assert_int_equal(n, 7 + 300000);
  mem_free(m, t);
  buf_free(&b);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

/* ---- fibers ---- */

typedef struct {
  sched *s;
  int *log;
  int *n;
  int id;
} fctx;

static void fiber_logger(void *arg) {
  fctx *c = arg;
  for (int i = 0; i < 3; i++) {
    c->log[(*c->n)++] = c->id * 10 + i;
    fiber_yield(c->s);
  }
}

static void test_fiber_order(void **st) {
  (void)st;
  sched *s = sched_new(0);
  int log[16], n = 0;
  fctx a = {s, log, &n, 1}, b = {s, log, &n, 2};
  sched_spawn(s, fiber_logger, &a);
  sched_spawn(s, fiber_logger, &b);
  assert_int_equal(sched_run(s), 0);
  int want[] = {10, 20, 11, 21, 12, 22};
  assert_int_equal(n, 6);
  assert_memory_equal(log, want, sizeof want);
  sched_free(s);
}

static int depth_sum(int d) {
  volatile char pad[256];
  pad[0] = (char)d;
  return d == 0 ? pad[0] : depth_sum(d - 1) + 1;
}

static void deep(void *arg) {
  *(int *)arg = depth_sum(10000);
}

static void test_fiber_deep_stack(void **st) {
  (void)st;
  sched *s = sched_new(0);
  int r = 0;
  sched_spawn(s, deep, &r);
  sched_run(s);
  assert_int_equal(r, 10000);
  sched_free(s);
}

static void fiber_blocks_forever(void *arg) {
  fiber_block(arg);
}

static void test_fiber_deadlock(void **st) {
  (void)st;
  sched *s = sched_new(0);
  sched_spawn(s, fiber_blocks_forever, s);
  assert_int_equal(sched_run(s), 1);
  sched_break_deadlock(s);
  assert_int_equal(sched_run(s), 0);
  assert_false(sched_deadlocked(s));
  sched_free(s);
}

/* ---- pipes ---- */

typedef struct {
  stream *rd, *wr;
  long total;
  int status;
  int limit; /* reader: stop after this many bytes */
} pctx;

static void producer(void *arg) {
  pctx *c = arg;
  char blk[1000];
  memset(blk, 'y', sizeof blk);
  for (;;) {
    if (stream_write(c->wr, blk, sizeof blk)) {
      c->status = c->wr->err == EPIPE ? 141 : 1;
      break;
    }
    c->total += (long)sizeof blk;
    if (c->total >= 10 * 1000 * 1000) {
      c->status = 0;
      break;
    }
  }
  stream_unref(c->wr);
}

static void consumer(void *arg) {
  pctx *c = arg;
  char tmp[777];
  long got = 0;
  for (;;) {
    long k = stream_read(c->rd, tmp, sizeof tmp);
    if (k <= 0)
      break;
    got += k;
    if (c->limit && got >= c->limit)
      break;
  }
  c->total = got;
  stream_unref(c->rd);
}

static void test_pipe_stream_and_epipe(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  sched *s = sched_new(0);
  pctx prod = {0}, cons = {0};
  assert_int_equal(stream_pipe(m, s, NULL, 4096, &cons.rd, &prod.wr), 0);
  cons.limit = 5000;
  sched_spawn(s, producer, &prod);
  sched_spawn(s, consumer, &cons);
  assert_int_equal(sched_run(s), 0);
  assert_int_equal(prod.status, 141);
  assert_true(cons.total >= 5000);
  /* Backpressure: the producer never got far ahead of the reader. */
  assert_true(prod.total < 5000 + 4096 + 2000);
  sched_free(s);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

static void test_pipe_full_transfer(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  sched *s = sched_new(0);
  pctx prod = {0}, cons = {0};
  assert_int_equal(stream_pipe(m, s, NULL, 0, &cons.rd, &prod.wr), 0);
  sched_spawn(s, consumer, &cons);
  sched_spawn(s, producer, &prod);
  assert_int_equal(sched_run(s), 0);
  assert_int_equal(prod.status, 0);
  assert_int_equal(cons.total, 10 * 1000 * 1000);
  sched_free(s);
  mem_unref(m);
}

static void test_reader_records(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  const char text[] = "a\nbb\n\nlast";
  /* Through the zero-copy path and through plain reads. */
  for (int keep = 0; keep < 2; keep++) {
    stream *s = stream_mem_reader(m, NULL, text, sizeof text - 1, keep);
    reader r;
    rd_init(&r, m, s);
    const char *l;
    size_t n;
    assert_int_equal(rd_record(&r, '\n', &l, &n), 1);
    assert_int_equal(n, 2);
    assert_memory_equal(l, "a\n", 2);
    assert_int_equal(rd_record(&r, '\n', &l, &n), 1);
    assert_int_equal(n, 3);
    assert_int_equal(rd_record(&r, '\n', &l, &n), 1);
    assert_int_equal(n, 1);
    assert_int_equal(rd_record(&r, '\n', &l, &n), 1);
    assert_int_equal(n, 4);
    assert_memory_equal(l, "last", 4);
    assert_int_equal(rd_record(&r, '\n', &l, &n), 0);
    rd_free(&r);
    stream_unref(s);
  }
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

typedef struct {
  stream *rd, *wr;
  int lines;
} lctx;

static void line_writer(void *arg) {
  lctx *c = arg;
  writer w;
  wr_init(&w, c->wr);
  for (int i = 0; i < 20000; i++)
    wr_printf(&w, "line %d\n", i);
  wr_flush(&w);
  stream_unref(c->wr);
}

static void line_reader(void *arg) {
  lctx *c = arg;
  reader r;
  rd_init(&r, c->rd->m, c->rd);
  const char *l;
  size_t n;
  while (rd_record(&r, '\n', &l, &n) == 1) {
    char want[32];
    int k = snprintf(want, sizeof want, "line %d\n", c->lines);
    if ((size_t)k != n || memcmp(want, l, n) != 0)
      break;
    c->lines++;
  }
  rd_free(&r);
  stream_unref(c->rd);
}

static void test_reader_over_pipe(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  sched *s = sched_new(0);
  lctx c = {0};
  assert_int_equal(stream_pipe(m, s, NULL, 1000, &c.rd, &c.wr), 0);
  sched_spawn(s, line_reader, &c);
  sched_spawn(s, line_writer, &c);
  sched_run(s);
  assert_int_equal(c.lines, 20000);
  sched_free(s);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

static void test_capture_and_budget(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 0);
  budget b;
  memset(&b, 0, sizeof b);
  budget_defaults(&b.lim);
  b.lim.max_output_bytes = 10;
  buf out;
  buf_init(&out, m);
  stream *cap = stream_capture(m, &b, &out, NULL, NULL, 1, 1);
  assert_int_equal(stream_write(cap, "12345", 5), 0);
  assert_int_equal(stream_write(cap, "67890abc", 8), -1);
  assert_int_equal(cap->err, ECANCELED);
  assert_int_equal(b.stop, BUDGET_OUTPUT);
  assert_int_equal(budget_stop_status(b.stop), 126);
  assert_string_equal(budget_stop_name(b.stop), "output bytes");
  stream_unref(cap);
  buf_free(&out);
  mem_unref(m);
}

static void test_budget_loops_and_cancel(void **st) {
  (void)st;
  budget b;
  memset(&b, 0, sizeof b);
  budget_defaults(&b.lim);
  b.lim.max_loop_iterations = 5;
  for (int i = 0; i < 5; i++)
    assert_int_equal(budget_loop(&b), 0);
  assert_int_equal(budget_loop(&b), 1);
  assert_int_equal(b.stop, BUDGET_LOOPS);

  atomic_int flag;
  atomic_init(&flag, 1);
  budget c;
  memset(&c, 0, sizeof c);
  budget_defaults(&c.lim);
  c.cancel = &flag;
  int stopped = 0;
  for (int i = 0; i < 1000 && !stopped; i++)
    stopped = budget_poll(&c);
  assert_true(stopped);
  assert_int_equal(c.stop, BUDGET_CANCELLED);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mem_accounting),
      cmocka_unit_test(test_mem_cap),
      cmocka_unit_test(test_mem_refused_stops_budget),
      cmocka_unit_test(test_buf_oom_sticky),
      cmocka_unit_test(test_capture_nomem),
      cmocka_unit_test(test_arena_marks),
      cmocka_unit_test(test_buf),
      cmocka_unit_test(test_fiber_order),
      cmocka_unit_test(test_fiber_deep_stack),
      cmocka_unit_test(test_fiber_deadlock),
      cmocka_unit_test(test_pipe_stream_and_epipe),
      cmocka_unit_test(test_pipe_full_transfer),
      cmocka_unit_test(test_reader_records),
      cmocka_unit_test(test_reader_over_pipe),
      cmocka_unit_test(test_capture_and_budget),
      cmocka_unit_test(test_budget_loops_and_cancel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
