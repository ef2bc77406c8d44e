// layers: core vfs
/*
 * test_vfs_snap.c - snapshots, restore, fork and diff, including evidence
 * that snapshot and fork do no per-file work.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vfs/vfs.h"
#include "vfs_harness.h"

#define H "/home/user"

/* An allocator hook that counts calls, to show that O(1) operations
 * allocate O(1) blocks. */
static _Atomic long nallocs;
static void *counting_alloc(void *ud, void *p, size_t os, size_t ns) {
  (void)ud;
  (void)os;
  if (ns == 0) {
    free(p);
    return NULL;
  }
  nallocs++;
  return realloc(p, ns);
}

static char *rd(vfs *v, const char *path) {
  static char out[256];
  char *d;
  size_t n;
  if (vfs_read_file(v, H, path, &d, &n))
    return NULL;
  snprintf(out, sizeof out, "%.*s", (int)n, d);
  vfs_release(v, d);
  return out;
}

static void test_isolation(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  assert_int_equal(vfs_mkdir_p(v, H, "a/b", 0755), 0);
  assert_int_equal(vfs_write_file(v, H, "a/b/f", "one", 3, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "g", "gee", 3, 0), 0);
  vfs_snap *s = vfs_snapshot(v);
  assert_non_null(s);
  assert_int_equal(vfs_write_file(v, H, "a/b/f", "two", 3, 0), 0);
  assert_int_equal(vfs_append_file(v, H, "g", "!", 1), 0);
  assert_int_equal(vfs_rm_rf(v, H, "a"), 0);
  assert_int_equal(vfs_write_file(v, H, "new", "n", 1, 0), 0);
  check_ok(v);
  /* a vfs seeded from the snapshot sees the old tree */
  vfs *w = vfs_new_from(m, s, NULL);
  assert_string_equal(rd(w, "a/b/f"), "one");
  assert_string_equal(rd(w, "g"), "gee");
  assert_null(rd(w, "new"));
  check_ok(w);
  /* restore brings it back into v */
  assert_int_equal(vfs_restore(v, s), 0);
  assert_string_equal(rd(v, "a/b/f"), "one");
  assert_null(rd(v, "new"));
  check_ok(v);
  /* and the snapshot is still unchanged after writing again */
  assert_int_equal(vfs_write_file(v, H, "a/b/f", "three", 5, 0), 0);
  vfs *w2 = vfs_new_from(m, s, NULL);
  assert_string_equal(rd(w2, "a/b/f"), "one");
  vfs_free(w2);
  vfs_free(w);
  /* the snapshot outlives the vfs it came from */
  vfs_free(v);
  mem *m2 = mem_new(NULL, NULL, 0);
  vfs *x = vfs_new_from(m2, s, NULL);
  vfs_snap_free(s);
  assert_string_equal(rd(x, "a/b/f"), "one");
  assert_int_equal(vfs_write_file(x, H, "a/b/f", "x", 1, 0), 0);
  check_ok(x);
  vfs_free(x);
  assert_int_equal(mem_used(m2), 0);
  mem_unref(m2);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

static void test_fork(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  assert_int_equal(vfs_write_file(v, H, "f", "base", 4, 0), 0);
  assert_int_equal(vfs_link(v, H, "f", "hl"), 0);
  vfs *f = vfs_fork(v);
  assert_non_null(f);
  assert_int_equal(vfs_append_file(f, H, "hl", "+fork", 5), 0);
  assert_string_equal(rd(f, "f"), "base+fork"); /* hard link in the fork */
  assert_string_equal(rd(v, "f"), "base");      /* parent untouched */
  assert_string_equal(rd(v, "hl"), "base");
  assert_int_equal(vfs_append_file(v, H, "f", "+parent", 7), 0);
  assert_string_equal(rd(v, "hl"), "base+parent");
  assert_string_equal(rd(f, "hl"), "base+fork");
  check_ok(v);
  check_ok(f);
  vfs_free(v);
  assert_string_equal(rd(f, "f"), "base+fork");
  vfs_free(f);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

typedef struct change {
  int kind;
  char path[128];
  unsigned what;
} change;

typedef struct changes {
  change c[64];
  int n;
} changes;

static int collect(void *ud, int kind, const char *path, unsigned what) {
  changes *cs = ud;
  if (cs->n < 64) {
    cs->c[cs->n].kind = kind;
    snprintf(cs->c[cs->n].path, sizeof cs->c[cs->n].path, "%s", path);
    cs->c[cs->n].what = what;
  }
  cs->n++;
  return 0;
}

static void test_o1(void **state) {
  (void)state;
  mem *m = mem_new(counting_alloc, NULL, 0);
  vfs *v = mkvfs(m);
  /* empty tree */
  long before = nallocs;
  vfs_snap *s0 = vfs_snapshot(v);
  vfs *f0 = vfs_fork(v);
  long empty_cost = nallocs - before;
  vfs_free(f0);
  vfs_snap_free(s0);
  /* 100,000 files in 100 directories */
  char path[64];
  for (int d = 0; d < 100; d++) {
    snprintf(path, sizeof path, "d%d", d);
    assert_int_equal(vfs_mkdir(v, H, path, 0755), 0);
    for (int i = 0; i < 1000; i++) {
      snprintf(path, sizeof path, "d%d/f%d", d, i);
      assert_int_equal(vfs_write_file(v, H, path, "x", 1, 0), 0);
    }
  }
  before = nallocs;
  vfs_snap *s = vfs_snapshot(v);
  vfs *f = vfs_fork(v);
  long big_cost = nallocs - before;
  assert_int_equal(big_cost, empty_cost); /* no per-file work at all */
  /* a write after the snapshot copies only the path to the file */
  before = nallocs;
  assert_int_equal(vfs_write_file(v, H, "d50/f500", "changed", 7, 0), 0);
  long write_cost = nallocs - before;
  assert_true(write_cost < 100);
  assert_string_equal(rd(f, "d50/f500"), "x");
  /* diff reports exactly the change */
  changes cs = {0};
  assert_int_equal(vfs_diff(v, s, NULL, collect, &cs), 0);
  assert_int_equal(cs.n, 1);
  assert_string_equal(cs.c[0].path, H "/d50/f500");
  vfs_free(f);
  vfs_snap_free(s);
  check_ok(v);
  vfs_free(v);
  mem_unref(m);
}

static void test_diff(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  assert_int_equal(vfs_mkdir_p(v, H, "keep/deep", 0755), 0);
  assert_int_equal(vfs_write_file(v, H, "keep/deep/k", "k", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "mod", "m", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "chm", "c", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "same", "s", 1, 0), 0);
  assert_int_equal(vfs_symlink(v, H, "t1", "lnk"), 0);
  assert_int_equal(vfs_mkdir_p(v, H, "gone/sub", 0755), 0);
  assert_int_equal(vfs_write_file(v, H, "gone/sub/x", "x", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "typ", "t", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "hard", "h", 1, 0), 0);
  assert_int_equal(vfs_link(v, H, "hard", "keep/deep/hard2"), 0);
  vfs_snap *a = vfs_snapshot(v);
  assert_int_equal(vfs_write_file(v, H, "mod", "M", 1, 0), 0);
  assert_int_equal(vfs_chmod(v, H, "chm", 0600), 0);
  assert_int_equal(vfs_write_file(v, H, "same", "s", 1, 0), 0);
  assert_int_equal(vfs_unlink(v, H, "lnk"), 0);
  assert_int_equal(vfs_symlink(v, H, "t2", "lnk"), 0);
  assert_int_equal(vfs_rm_rf(v, H, "gone"), 0);
  assert_int_equal(vfs_unlink(v, H, "typ"), 0);
  assert_int_equal(vfs_mkdir(v, H, "typ", 0755), 0);
  assert_int_equal(vfs_mkdir_p(v, H, "added/in", 0755), 0);
  /* a change through one hard link shows under the name in a subtree that
   * is otherwise shared */
  assert_int_equal(vfs_append_file(v, H, "hard", "!", 1), 0);
  changes cs = {0};
  assert_int_equal(vfs_diff(v, a, NULL, collect, &cs), 0);
  const change want[] = {
      {VFS_ADDED, H "/added", 0},
      {VFS_ADDED, H "/added/in", 0},
      {VFS_MODIFIED, H "/chm", VFS_CHANGED_MODE},
      {VFS_REMOVED, H "/gone", 0},
      {VFS_REMOVED, H "/gone/sub", 0},
      {VFS_REMOVED, H "/gone/sub/x", 0},
      {VFS_MODIFIED, H "/hard", VFS_CHANGED_CONTENT},
      {VFS_MODIFIED, H "/keep/deep/hard2", VFS_CHANGED_CONTENT},
      {VFS_MODIFIED, H "/lnk", VFS_CHANGED_TARGET},
      {VFS_MODIFIED, H "/mod", VFS_CHANGED_CONTENT},
      {VFS_MODIFIED, H "/typ", VFS_CHANGED_TYPE},
  };
  int nw = (int)(sizeof want / sizeof want[0]);
  assert_int_equal(cs.n, nw);
  for (int i = 0; i < nw; i++) {
    assert_int_equal(cs.c[i].kind, want[i].kind);
    assert_string_equal(cs.c[i].path, want[i].path);
    assert_int_equal(cs.c[i].what, want[i].what);
  }
  /* diff of two snapshots, and the reverse direction */
  vfs_snap *b = vfs_snapshot(v);
  changes r = {0};
  assert_int_equal(vfs_diff(NULL, b, a, collect, &r), 0);
  assert_int_equal(r.n, nw);
  assert_string_equal(r.c[0].path, H "/added");
  assert_int_equal(r.c[0].kind, VFS_REMOVED);
  changes none = {0};
  assert_int_equal(vfs_diff(NULL, b, b, collect, &none), 0);
  assert_int_equal(none.n, 0);
  vfs_snap_free(a);
  vfs_snap_free(b);
  vfs_free(v);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

static void test_diff_big_dir(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  char p[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(p, sizeof p, "f%05d", i);
    assert_int_equal(vfs_write_file(v, H, p, "x", 1, 0), 0);
  }
  vfs_snap *a = vfs_snapshot(v);
  assert_int_equal(vfs_write_file(v, H, "f02500", "y", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "f99999", "n", 1, 0), 0);
  assert_int_equal(vfs_unlink(v, H, "f00007"), 0);
  changes cs = {0};
  assert_int_equal(vfs_diff(v, a, NULL, collect, &cs), 0);
  assert_int_equal(cs.n, 3);
  assert_string_equal(cs.c[0].path, H "/f00007");
  assert_string_equal(cs.c[1].path, H "/f02500");
  assert_string_equal(cs.c[2].path, H "/f99999");
  vfs_snap_free(a);
  vfs_free(v);
  mem_unref(m);
}

static void *thread_work(void *arg) {
  vfs *f = arg;
  char p[32];
  for (int i = 0; i < 2000; i++) {
    snprintf(p, sizeof p, "t%d", i % 50);
    vfs_append_file(f, H, p, "z", 1);
    vfs_snap *s = vfs_snapshot(f);
    vfs_write_file(f, H, "shared", p, strlen(p), 0);
    vfs_snap_free(s);
  }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  assert_int_equal(vfs_write_file(v, H, "shared", "s", 1, 0), 0);
  vfs *f[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    f[i] = vfs_fork(v);
    pthread_create(&th[i], NULL, thread_work, f[i]);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    check_ok(f[i]);
    vfs_free(f[i]);
  }
  assert_string_equal(rd(v, "shared"), "s");
  vfs_free(v);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_isolation),    cmocka_unit_test(test_fork),
      cmocka_unit_test(test_o1),           cmocka_unit_test(test_diff),
      cmocka_unit_test(test_diff_big_dir), cmocka_unit_test(test_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
