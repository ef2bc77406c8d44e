/*
 * vfs_harness.h - what the vfs unit tests share: a vfs with the default
 * layout, and the vfs's own consistency check as an assertion.
 *
 * Link layers: core vfs.
 */
#ifndef VSH_TESTS_VFS_HARNESS_H
#define VSH_TESTS_VFS_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
