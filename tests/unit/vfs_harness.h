/*
 * vfs_harness.h - what the vfs unit tests share: a vfs with the default
 * layout, the vfs's own consistency check as an assertion, and a growing
 * byte buffer to persist archives into.
 *
 * Link layers: core vfs.
 */
#ifndef VSH_TESTS_VFS_HARNESS_H
#define VSH_TESTS_VFS_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vfs/vfs.h"

/* Fails the test when vfs_check finds v inconsistent. */
static inline void check_ok(vfs *v) {
  char msg[256];
  if (vfs_check(v, msg, sizeof msg))
    fail_msg("vfs_check: %s", msg);
}

/* A new vfs on m, with the default layout. */
static inline vfs *mkvfs(mem *m) {
  vfs *v = vfs_new(m, NULL);
  assert_non_null(v);
  assert_int_equal(vfs_default_layout(v), 0);
  return v;
}

/* A clock that never moves: trees built and compared across a second
 * boundary keep equal mtimes. */
static inline int64_t stopped_clock(void *ud, int monotonic) {
  (void)ud;
  return monotonic ? 1 : INT64_C(1700000000) * 1000000000;
}

/* Like mkvfs, with the clock stopped at stopped_clock's time. */
static inline vfs *mkvfs_fixed(mem *m) {
  vfs_config c = {.clock = stopped_clock};
  vfs *v = vfs_new(m, &c);
  assert_non_null(v);
  assert_int_equal(vfs_default_layout(v), 0);
  return v;
}

/* Bytes written by vfs_persist (tbuf_sink as its writer); free p after. */
typedef struct tbuf {
  char *p;
  size_t n, cap;
} tbuf;

static inline int tbuf_sink(void *ud, const void *d, size_t n) {
  tbuf *b = ud;
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2;
    b->p = realloc(b->p, b->cap);
    assert_non_null(b->p);
  }
  memcpy(b->p + b->n, d, n);
  b->n += n;
  return 0;
}

#endif
