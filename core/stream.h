/*
 * stream.h - the byte streams builtins read and write.
 *
 * A builtin sees its stdin/stdout/stderr only as streams: it never gets a
 * whole input buffer. Kinds: pipe ends (bounded buffer between two fibers,
 * with backpressure), memory readers (here-documents, exec stdin), capture
 * writers (command substitution, the exec's result, with an optional host
 * callback per chunk), null/zero devices, and file streams the shell builds
 * on the VFS. Each call polls the exec budget first, so a limit or a cancel
 * stops any builtin loop at its next read or write.
 *
 * Errors: read returns -1 and write -1 with s->err set to an errno value:
 * EPIPE when the reader went away (the writer should end with status 141),
 * ECANCELED when the budget stopped the exec, EBADF for the wrong direction.
 */
#ifndef VSH_CORE_STREAM_H
#define VSH_CORE_STREAM_H

#include <stddef.h>
#include <sys/types.h>

#include "budget.h"
#include "buf.h"
#include "fiber.h"
#include "mem.h"

typedef struct stream stream;

typedef struct stream_ops {
  long (*read)(stream *s, void *p, size_t n);
  long (*write)(stream *s, const void *p, size_t n);
  /* Optional: all remaining bytes at once without copying (memory readers,
   * VFS files). Consumes them. Returns 0, or -1 when not available. */
  int (*take_all)(stream *s, const char **p, size_t *n);
  void (*release)(stream *s); /* refs reached 0: free it */
} stream_ops;

enum { STREAM_R = 1, STREAM_W = 2, STREAM_TTY = 4 };

struct stream {
  const stream_ops *ops;
  mem *m;
  budget *bud; /* may be NULL */
  int refs;
  int err;
  unsigned flags;
  /* Optional: a reference was dropped and one is left (a capture wakes
   * its owner waiting in stream_capture_finish). */
  void (*last_ref)(stream *s);
};

/* Initialise the common part (refs = 1). */
void stream_init(stream *s, const stream_ops *ops, mem *m, budget *bud,
                 unsigned flags);
stream *stream_ref(stream *s);
void stream_unref(stream *s);

long stream_read(stream *s, void *p, size_t n);
/* Writes everything or fails: 0, or -1 with s->err. */
int stream_write(stream *s, const void *p, size_t n);
int stream_puts(stream *s, const char *str);
int stream_printf(stream *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int stream_take_all(stream *s, const char **p, size_t *n);
/* Non-zero when a read from s would wait for another fiber: the read end
 * of a pipe that holds no bytes while its write end is still open. Memory
 * readers, devices and VFS files never wait; the host's input may. */
int stream_would_block(const stream *s);

/* A pipe of capacity cap (0: 64 KiB) whose ends block the running fiber. */
int stream_pipe(mem *m, sched *sc, budget *bud, size_t cap, stream **rd,
                stream **wr);
/* Reads data (copied unless keep is set: then the caller keeps it alive). */
stream *stream_mem_reader(mem *m, budget *bud, const void *data, size_t n,
                          int keep);
/* Reads through the host's callback (vsh_exec_opts.stdin_fn), which may
 * wait: the sandbox is let go meanwhile (sched_leave). */
stream *stream_host_reader(mem *m, budget *bud, vsh_input_fn fn, void *ud);
/* Appends to *out (may be NULL: discard) and, if cb is set, also reports
 * each chunk as (cb_ud, fd, data, len). Counts bytes against the budget's
 * output limit when count_output is set. */
stream *stream_capture(mem *m, budget *bud, buf *out, vsh_output_fn cb,
                       void *cb_ud, int fd, int count_output);
/* The owner of a capture's buffer is done with it: instead of dropping
 * its reference with stream_unref, it calls this. Another holder of the
 * stream (a background job started inside $(...) keeps the $(...)'s
 * stdout) may still write to it after the command itself ended: as a
 * reader of a pipe waits for end of file, this waits (blocking the running
 * fiber) until every other reference is gone, unless the budget stops the
 * exec or every fiber is blocked. Then it detaches the buffer
 * and the callback, so writes that still come are dropped and never reach
 * memory the owner has freed, and drops the owner's reference. */
void stream_capture_finish(stream *s);
/* Past max bytes held, a write to the capture s stops the exec with the
 * string limit (BUDGET_STRING) instead of growing the buffer. */
void stream_capture_limit(stream *s, size_t max);
stream *stream_null(mem *m, budget *bud);
/* Is s a stream made by stream_null (an empty input, like /dev/null)? */
int stream_is_null(const stream *s);
stream *stream_zero(mem *m, budget *bud);
/* /dev/urandom: reads are filled by fill(ud, p, n) (the sandbox's random
 * hook, so a deterministic sandbox stays so); writes are discarded. */
stream *stream_random(mem *m, budget *bud,
                      void (*fill)(void *ud, void *p, size_t n), void *ud);

struct writer;

/* Buffered line reader over a stream, for builtins. */
typedef struct reader {
  stream *s;
  mem *m;
  char *data;
  size_t cap, pos, len;
  const char *whole; /* take_all fast path */
  size_t whole_len, whole_pos;
  int eof, err;
  struct writer *flush; /* see rd_flush_to */
} reader;

void rd_init(reader *r, mem *m, stream *s);
/* Pairs r with the writer w of the same builtin (NULL: none): before r
 * waits for input that is not there yet (stream_would_block), w hands
 * the bytes it holds on, so what a filter printed reaches the next stage
 * (or the embedder) while the filter waits, not when its buffer fills.
 * Reads that do not wait flush nothing: big inputs keep the buffering. */
void rd_flush_to(reader *r, struct writer *w);
void rd_free(reader *r);
/* Next record ending in delim (included when present). Returns 1 with
 * line and len valid until the next call, 0 at end, -1 on error (r->err). */
int rd_record(reader *r, int delim, const char **line, size_t *len);
/* Up to n bytes: >0, 0 at end, -1 error. */
long rd_read(reader *r, void *p, size_t n);

/* Buffered writer for builtins: flush at the end (wr_flush). Every call
 * returns 0 or -1 with w->err (EPIPE: end the builtin with 141). When the
 * exec has been stopped (a deadline, a limit, a cancel), a flush still
 * hands the held bytes to the exec's output capture, which never blocks:
 * they were printed before the stop, so the result keeps them; the flush
 * then fails with ECANCELED as any write would. */
typedef struct writer {
  stream *s;
  size_t len;
  int err;
  char data[8192];
} writer;

void wr_init(writer *w, stream *s);
int wr_write(writer *w, const void *p, size_t n);
int wr_putc(writer *w, int c);
int wr_puts(writer *w, const char *s);
int wr_printf(writer *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int wr_flush(writer *w);
/* stream_read for a builtin that reads its input without a reader: w
 * (NULL: none) is flushed first when the read would wait, as rd_flush_to
 * does. A failed flush is left in w->err for the next write to report. */
long wr_flush_read(writer *w, stream *s, void *p, size_t n);

#endif
