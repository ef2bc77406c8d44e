#include "stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void stream_init(stream *s, const stream_ops *ops, mem *m, budget *bud,
                 unsigned flags) {
  s->ops = ops;
  s->m = m;
  s->bud = bud;
  s->refs = 1;
  s->err = 0;
  s->flags = flags;
  s->last_ref = NULL;
}

stream *stream_ref(stream *s) {
  if (s)
    s->refs++;
  return s;
}

void stream_unref(stream *s) {
  if (!s)
    return;
  if (--s->refs == 0)
    s->ops->release(s);
  else if (s->refs == 1 && s->last_ref)
    s->last_ref(s);
}

static int stopped(stream *s) {
  if (s->bud && budget_poll(s->bud)) {
    s->err = ECANCELED;
    return 1;
  }
  return 0;
}

long stream_read(stream *s, void *p, size_t n) {
  if (!(s->flags & STREAM_R)) {
    s->err = EBADF;
    return -1;
  }
  if (stopped(s))
    return -1;
  return s->ops->read(s, p, n);
}

int stream_write(stream *s, const void *p, size_t n) {
  if (!(s->flags & STREAM_W)) {
    s->err = EBADF;
    return -1;
  }
  if (stopped(s))
    return -1;
  const char *c = p;
  while (n) {
    long w = s->ops->write(s, c, n);
    if (w < 0)
      return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

int stream_puts(stream *s, const char *str) {
  return stream_write(s, str, strlen(str));
}

/* Formats into a stack buffer, or into a heap one when the text does not
 * fit, and hands the bytes to emit: one formatting path for streams and
 * writers. */
static int vformat_emit(mem *m, int (*emit)(void *ud, const void *p, size_t n),
                        void *ud, const char *fmt, va_list ap) {
  char tmp[1024];
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  int r;
  if (n < 0) {
    r = -1;
  } else if ((size_t)n < sizeof tmp) {
    r = emit(ud, tmp, (size_t)n);
  } else {
    buf b;
    buf_init(&b, m);
    r = buf_vprintf(&b, fmt, again);
    if (!r)
      r = emit(ud, b.data, b.len);
    buf_free(&b);
  }
  va_end(again);
  return r;
}

static int emit_stream(void *ud, const void *p, size_t n) {
  return stream_write(ud, p, n);
}

int stream_printf(stream *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vformat_emit(s->m, emit_stream, s, fmt, ap);
  va_end(ap);
  return r;
}

int stream_take_all(stream *s, const char **p, size_t *n) {
  if (!(s->flags & STREAM_R) || !s->ops->take_all)
    return -1;
  if (stopped(s))
    return -1;
  return s->ops->take_all(s, p, n);
}

/* ---- pipes ------------------------------------------------------------- */

typedef struct pipe_core {
  mem *m;
  sched *sc;
  char *ring;
  size_t cap, head, len; /* head: read position */
  int readers, writers;  /* open ends (0 or 1 each) */
  fiber *rwait, *wwait;
} pipe_core;

typedef struct pipe_end {
  stream s;
  pipe_core *p;
} pipe_end;

static void core_drop(pipe_core *p) {
  if (p->readers == 0 && p->writers == 0) {
    mem_free(p->m, p->ring);
    mem_free(p->m, p);
  }
}

static long pipe_read(stream *s, void *out, size_t n) {
  pipe_core *p = ((pipe_end *)s)->p;
  while (p->len == 0) {
    if (p->writers == 0)
      return 0;
    if (sched_deadlocked(p->sc))
      return 0;
    p->rwait = sched_current(p->sc);
    fiber_block(p->sc);
    p->rwait = NULL;
    if (s->bud && budget_poll(s->bud)) {
      s->err = ECANCELED;
      return -1;
    }
  }
  size_t k = n < p->len ? n : p->len;
  size_t first = p->cap - p->head;
  if (first > k)
    first = k;
  memcpy(out, p->ring + p->head, first);
  memcpy((char *)out + first, p->ring, k - first);
  p->head = (p->head + k) % p->cap;
  p->len -= k;
  if (p->len == 0)
    p->head = 0;
  fiber_wake(p->sc, p->wwait);
  return (long)k;
}

static long pipe_write(stream *s, const void *in, size_t n) {
  pipe_core *p = ((pipe_end *)s)->p;
  for (;;) {
    if (p->readers == 0 || sched_deadlocked(p->sc)) {
      s->err = EPIPE;
      return -1;
    }
    if (p->len < p->cap)
      break;
    p->wwait = sched_current(p->sc);
    fiber_block(p->sc);
    p->wwait = NULL;
    if (s->bud && budget_poll(s->bud)) {
      s->err = ECANCELED;
      return -1;
    }
  }
  size_t room = p->cap - p->len;
  size_t k = n < room ? n : room;
  size_t tail = (p->head + p->len) % p->cap;
  size_t first = p->cap - tail;
  if (first > k)
    first = k;
  memcpy(p->ring + tail, in, first);
  memcpy(p->ring, (const char *)in + first, k - first);
  p->len += k;
  fiber_wake(p->sc, p->rwait);
  return (long)k;
}

static void pipe_release_rd(stream *s) {
  pipe_end *e = (pipe_end *)s;
  pipe_core *p = e->p;
  p->readers = 0;
  fiber_wake(p->sc, p->wwait);
  mem_free(p->m, e);
  core_drop(p);
}

static void pipe_release_wr(stream *s) {
  pipe_end *e = (pipe_end *)s;
  pipe_core *p = e->p;
  p->writers = 0;
  fiber_wake(p->sc, p->rwait);
  mem_free(p->m, e);
  core_drop(p);
}

static const stream_ops pipe_rd_ops = {pipe_read, NULL, NULL, pipe_release_rd};
static const stream_ops pipe_wr_ops = {NULL, pipe_write, NULL, pipe_release_wr};

int stream_pipe(mem *m, sched *sc, budget *bud, size_t cap, stream **rd,
                stream **wr) {
  if (!cap)
    cap = 64 * 1024;
  pipe_core *p = mem_calloc(m, 1, sizeof *p);
  pipe_end *r = mem_calloc(m, 1, sizeof *r);
  pipe_end *w = mem_calloc(m, 1, sizeof *w);
  char *ring = mem_alloc(m, cap);
  if (!p || !r || !w || !ring) {
    mem_free(m, p);
    mem_free(m, r);
    mem_free(m, w);
    mem_free(m, ring);
    return -1;
  }
  p->m = m;
  p->sc = sc;
  p->ring = ring;
  p->cap = cap;
  p->readers = p->writers = 1;
  r->p = w->p = p;
  stream_init(&r->s, &pipe_rd_ops, m, bud, STREAM_R);
  stream_init(&w->s, &pipe_wr_ops, m, bud, STREAM_W);
  *rd = &r->s;
  *wr = &w->s;
  return 0;
}

static const stream_ops cbrd_ops;

int stream_would_block(const stream *s) {
  if (s && s->ops == &cbrd_ops)
    return 1; /* the host's input: it may be a person typing */
  if (!s || s->ops != &pipe_rd_ops)
    return 0;
  const pipe_core *p = ((const pipe_end *)s)->p;
  return p->len == 0 && p->writers > 0;
}

/* ---- memory reader ----------------------------------------------------- */

typedef struct mem_rd {
  stream s;
  const char *data;
  size_t len, pos;
  int owned;
} mem_rd;

static long memrd_read(stream *s, void *out, size_t n) {
  mem_rd *r = (mem_rd *)s;
  size_t k = r->len - r->pos;
  if (k > n)
    k = n;
  memcpy(out, r->data + r->pos, k);
  r->pos += k;
  return (long)k;
}

static int memrd_take(stream *s, const char **p, size_t *n) {
  mem_rd *r = (mem_rd *)s;
  *p = r->data + r->pos;
  *n = r->len - r->pos;
  r->pos = r->len;
  return 0;
}

static void memrd_release(stream *s) {
  mem_rd *r = (mem_rd *)s;
  if (r->owned)
    mem_free(s->m, (void *)r->data);
  mem_free(s->m, r);
}

static const stream_ops memrd_ops = {memrd_read, NULL, memrd_take,
                                     memrd_release};

stream *stream_mem_reader(mem *m, budget *bud, const void *data, size_t n,
                          int keep) {
  mem_rd *r = mem_calloc(m, 1, sizeof *r);
  if (!r)
    return NULL;
  if (keep) {
    r->data = data;
  } else {
    r->data = mem_memdup(m, data, n);
    if (!r->data) {
      mem_free(m, r);
      return NULL;
    }
    r->owned = 1;
  }
  r->len = n;
  stream_init(&r->s, &memrd_ops, m, bud, STREAM_R);
  return &r->s;
}

/* ---- host reader ------------------------------------------------------- */

typedef struct cb_rd {
  stream s;
  vsh_input_fn fn;
  void *ud;
  int eof;
} cb_rd;

static long cbrd_read(stream *s, void *out, size_t n) {
  cb_rd *r = (cb_rd *)s;
  if (r->eof || n == 0)
    return 0;
  for (;;) {
    /* The host may wait for its input: other threads may use the sandbox
     * meanwhile. */
    sched *sc = sched_running();
    sched_leave(sc);
    long k = r->fn(r->ud, out, n);
    sched_enter(sc);
    if (k > 0)
      return k > (long)n ? (long)n : k;
    if (k == 0) {
      r->eof = 1;
      return 0;
    }
    if (k != VSH_INPUT_AGAIN) {
      s->err = EIO;
      return -1;
    }
    /* nothing yet: a limit, a deadline or a cancel may end the wait */
    if (stopped(s))
      return -1;
    if (sc)
      fiber_yield(sc);
  }
}

static void cbrd_release(stream *s) {
  mem_free(s->m, s);
}

static const stream_ops cbrd_ops = {cbrd_read, NULL, NULL, cbrd_release};

stream *stream_host_reader(mem *m, budget *bud, vsh_input_fn fn, void *ud) {
  cb_rd *r = mem_calloc(m, 1, sizeof *r);
  if (!r)
    return NULL;
  r->fn = fn;
  r->ud = ud;
  stream_init(&r->s, &cbrd_ops, m, bud, STREAM_R);
  return &r->s;
}

/* ---- capture writer ---------------------------------------------------- */

typedef struct capture {
  stream s;
  buf *out;
  vsh_output_fn cb;
  void *cb_ud;
  int fd;
  int count;
  size_t max;    /* most bytes out may hold (0: no limit of its own) */
  sched *sc;     /* set while the owner waits in stream_capture_finish */
  fiber *waiter; /* that owner */
} capture;

/* Hands n bytes to the buffer and the callback; 0, or -1 when the buffer
 * could not grow. */
static int capture_put(capture *c, const void *p, size_t n) {
  if (c->out && buf_append(c->out, p, n))
    return -1;
  if (c->cb)
    c->cb(c->cb_ud, c->fd, p, n);
  return 0;
}

static long capture_write(stream *s, const void *p, size_t n) {
  capture *c = (capture *)s;
  if (c->count && s->bud && budget_output(s->bud, n)) {
    s->err = ECANCELED;
    return -1;
  }
  if (c->out && c->max && c->out->len + n > c->max) {
    /* A $(...) result is one word: past the string limit it ends the
     * exec now, not after it has filled the memory cap. */
    if (s->bud)
      budget_set_stop(s->bud, BUDGET_STRING, c->max);
    s->err = ECANCELED;
    return -1;
  }
  if (capture_put(c, p, n)) {
    /* Output the exec's result or a $(...) can no longer hold would be
     * lost without a trace: end the exec, which then reports memory. */
    if (s->bud)
      budget_set_stop(s->bud, BUDGET_MEMORY, s->bud->lim.max_memory);
    s->err = ENOMEM;
    return -1;
  }
  return (long)n;
}

static void capture_release(stream *s) {
  mem_free(s->m, s);
}

static void capture_last_ref(stream *s) {
  capture *c = (capture *)s;
  if (c->waiter)
    fiber_wake(c->sc, c->waiter);
}

static const stream_ops capture_ops = {NULL, capture_write, NULL,
                                       capture_release};

/* A writer's held bytes after the exec was stopped (see writer in
 * stream.h): a capture takes them without the usual checks, unless the
 * stop was about output or memory itself, or no stop of the exec is set
 * (a killed job's fibers see their own stop, and a killed command's
 * buffered output is lost, as it would be with a signal). */
static void capture_held(stream *s, const void *p, size_t n) {
  if (s->ops != &capture_ops || !s->bud)
    return;
  switch (s->bud->stop) {
  case BUDGET_TIMEOUT:
  case BUDGET_CANCELLED:
  case BUDGET_COMMANDS:
  case BUDGET_LOOPS:
  case BUDGET_DEPTH:
  case BUDGET_FS_BYTES:
  case BUDGET_FS_INODES:
  case BUDGET_JOBS:
    break;
  default:
    return;
  }
  capture *c = (capture *)s;
  if (c->out && c->max && c->out->len + n > c->max)
    return;
  if (c->count)
    s->bud->output += n;
  (void)capture_put(c, p, n);
}

void stream_capture_finish(stream *s) {
  if (!s)
    return;
  capture *c = (capture *)s;
  sched *sc = sched_running();
  fiber *me = sc ? sched_current(sc) : NULL;
  while (me && s->refs > 1 && !(s->bud && budget_poll_now(s->bud)) &&
         !sched_deadlocked(sc)) {
    c->sc = sc;
    c->waiter = me;
    fiber_block(sc);
    c->waiter = NULL;
  }
  c->out = NULL;
  c->cb = NULL;
  stream_unref(s);
}

stream *stream_capture(mem *m, budget *bud, buf *out, vsh_output_fn cb,
                       void *cb_ud, int fd, int count_output) {
  capture *c = mem_calloc(m, 1, sizeof *c);
  if (!c)
    return NULL;
  c->out = out;
  c->cb = cb;
  c->cb_ud = cb_ud;
  c->fd = fd;
  c->count = count_output;
  stream_init(&c->s, &capture_ops, m, bud, STREAM_W);
  c->s.last_ref = capture_last_ref;
  return &c->s;
}

void stream_capture_limit(stream *s, size_t max) {
  ((capture *)s)->max = max;
}

/* ---- devices ----------------------------------------------------------- */

static long null_read(stream *s, void *p, size_t n) {
  return 0;
}
static long null_write(stream *s, const void *p, size_t n) {
  return (long)n;
}
static long zero_read(stream *s, void *p, size_t n) {
  memset(p, 0, n);
  return (long)n;
}
static void dev_release(stream *s) {
  mem_free(s->m, s);
}
static const stream_ops null_ops = {null_read, null_write, NULL, dev_release};
static const stream_ops zero_ops = {zero_read, null_write, NULL, dev_release};

static stream *dev_new(mem *m, budget *bud, const stream_ops *ops) {
  stream *s = mem_calloc(m, 1, sizeof *s);
  if (s)
    stream_init(s, ops, m, bud, STREAM_R | STREAM_W);
  return s;
}

stream *stream_null(mem *m, budget *bud) {
  return dev_new(m, bud, &null_ops);
}
int stream_is_null(const stream *s) {
  return s && s->ops == &null_ops;
}
stream *stream_zero(mem *m, budget *bud) {
  return dev_new(m, bud, &zero_ops);
}

typedef struct rnd_stream {
  stream s;
  void (*fill)(void *ud, void *p, size_t n);
  void *ud;
} rnd_stream;

static long random_read(stream *s, void *p, size_t n) {
  rnd_stream *r = (rnd_stream *)s;
  r->fill(r->ud, p, n);
  return (long)n;
}
static const stream_ops random_ops = {random_read, null_write, NULL,
                                      dev_release};

stream *stream_random(mem *m, budget *bud,
                      void (*fill)(void *ud, void *p, size_t n), void *ud) {
  rnd_stream *r = mem_calloc(m, 1, sizeof *r);
  if (!r)
    return NULL;
  stream_init(&r->s, &random_ops, m, bud, STREAM_R | STREAM_W);
  r->fill = fill;
  r->ud = ud;
  return &r->s;
}

/* ---- reader ------------------------------------------------------------ */

void rd_init(reader *r, mem *m, stream *s) {
  memset(r, 0, sizeof *r);
  r->s = s;
  r->m = m;
  const char *p;
  size_t n;
  if (s && stream_take_all(s, &p, &n) == 0) {
    r->whole = p;
    r->whole_len = n;
  }
}

void rd_flush_to(reader *r, writer *w) {
  r->flush = w;
}

void rd_free(reader *r) {
  mem_free(r->m, r->data);
  r->data = NULL;
}

static int fill(reader *r) {
  if (r->eof)
    return 0;
  if (r->pos > 0) {
    memmove(r->data, r->data + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
  }
  if (r->cap - r->len < 4096) {
    size_t nc = r->cap ? r->cap * 2 : 16384;
    char *d = mem_realloc(r->m, r->data, nc);
    if (!d) {
      r->err = ENOMEM;
      return -1;
    }
    r->data = d;
    r->cap = nc;
  }
  long k = wr_flush_read(r->flush, r->s, r->data + r->len, r->cap - r->len);
  if (k < 0) {
    r->err = r->s->err;
    return -1;
  }
  if (k == 0) {
    r->eof = 1;
    return 0;
  }
  r->len += (size_t)k;
  return 1;
}

int rd_record(reader *r, int delim, const char **line, size_t *len) {
  if (r->whole) {
    if (r->whole_pos >= r->whole_len)
      return 0;
    const char *start = r->whole + r->whole_pos;
    size_t left = r->whole_len - r->whole_pos;
    const char *e = memchr(start, delim, left);
    size_t k = e ? (size_t)(e - start) + 1 : left;
    r->whole_pos += k;
    *line = start;
    *len = k;
    if (r->s->bud && budget_poll(r->s->bud)) {
      r->err = ECANCELED;
      return -1;
    }
    return 1;
  }
  size_t off = 0; /* bytes after pos already searched */
  for (;;) {
    const char *e = NULL;
    if (r->data)
      e = memchr(r->data + r->pos + off, delim, r->len - r->pos - off);
    if (e) {
      *line = r->data + r->pos;
      *len = (size_t)(e - (r->data + r->pos)) + 1;
      r->pos += *len;
      return 1;
    }
    off = r->len - r->pos;
    int f = fill(r);
    if (f < 0)
      return -1;
    if (f == 0) {
      if (r->pos == r->len)
        return 0;
      *line = r->data + r->pos;
      *len = r->len - r->pos;
      r->pos = r->len;
      return 1;
    }
  }
}

long rd_read(reader *r, void *p, size_t n) {
  if (r->whole) {
    size_t left = r->whole_len - r->whole_pos;
    if (n > left)
      n = left;
    memcpy(p, r->whole + r->whole_pos, n);
    r->whole_pos += n;
    return (long)n;
  }
  if (r->pos < r->len) {
    size_t k = r->len - r->pos;
    if (k > n)
      k = n;
    memcpy(p, r->data + r->pos, k);
    r->pos += k;
    return (long)k;
  }
  if (r->eof)
    return 0;
  long k = wr_flush_read(r->flush, r->s, p, n);
  if (k < 0)
    r->err = r->s->err;
  return k;
}

/* ---- writer ------------------------------------------------------------ */

void wr_init(writer *w, stream *s) {
  w->s = s;
  w->len = 0;
  w->err = 0;
}

int wr_flush(writer *w) {
  if (w->err)
    return -1;
  if (w->len) {
    size_t n = w->len;
    w->len = 0;
    if (stream_write(w->s, w->data, n)) {
      w->err = w->s->err;
      if (w->err == ECANCELED)
        capture_held(w->s, w->data, n);
      return -1;
    }
  }
  return 0;
}

long wr_flush_read(writer *w, stream *s, void *p, size_t n) {
  /* The bytes go on before the read waits, not from inside a write that
   * waits: nothing here runs while this fiber is blocked. */
  if (w && w->len && !w->err && stream_would_block(s))
    wr_flush(w);
  return stream_read(s, p, n);
}

int wr_write(writer *w, const void *p, size_t n) {
  if (w->err)
    return -1;
  if (n == 0)
    return 0; /* p may be NULL: an empty buffer that never grew */
  if (n > sizeof w->data - w->len) {
    if (wr_flush(w))
      return -1;
    if (n >= sizeof w->data) {
      if (stream_write(w->s, p, n)) {
        w->err = w->s->err;
        return -1;
      }
      return 0;
    }
  }
  memcpy(w->data + w->len, p, n);
  w->len += n;
  return 0;
}

int wr_putc(writer *w, int c) {
  if (w->len < sizeof w->data && !w->err) {
    w->data[w->len++] = (char)c;
    return 0;
  }
  char ch = (char)c;
  return wr_write(w, &ch, 1);
}

int wr_puts(writer *w, const char *s) {
  return wr_write(w, s, strlen(s));
}

static int emit_writer(void *ud, const void *p, size_t n) {
  return wr_write(ud, p, n);
}

int wr_printf(writer *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vformat_emit(w->s->m, emit_writer, w, fmt, ap);
  va_end(ap);
  return r;
}
