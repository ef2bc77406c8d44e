// layers: core vfs
/*
 * test_vfs_deep.c - trees deeper than any path: `mv` hangs a deep tree
 * under another deep tree one level at a time, so depth has no bound. Every
 * walk over a whole tree (free, restore, diff, check, persist, rm -r, the
 * quota recount of a removed subtree) must get through without recursion.
 * The work runs on a thread with a small stack so that a recursive walk
 * fails here at a depth this test can build quickly.
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

#define CHAIN 1000 /* levels per step: "b/b/.../b" stays under PATH_MAX */
#define STEPS 30   /* 30,000 levels */

/* /t/a becomes CHAIN levels deeper per step: a chain b/b/.../b is made,
 * a moves to its bottom, and the chain takes a's name. */
static void build_deep(vfs *v) {
  static char chain[2 * CHAIN + 8];
  size_t k = 0;
  for (int i = 0; i < CHAIN; i++) {
    chain[k++] = 'b';
    chain[k++] = '/';
  }
  chain[k - 1] = 0;
  assert_int_equal(vfs_mkdir_p(v, "/", "/tmp/t/a", 0755), 0);
  assert_int_equal(vfs_write_file(v, "/tmp/t", "a/leaf", "x", 1, 0644), 0);
  for (int s = 0; s < STEPS; s++) {
    assert_int_equal(vfs_mkdir_p(v, "/tmp/t", chain, 0755), 0);
    char to[sizeof chain + 4];
    snprintf(to, sizeof to, "%s/a", chain);
    assert_int_equal(vfs_rename(v, "/tmp/t", "a", to), 0);
    assert_int_equal(vfs_rename(v, "/tmp/t", "b", "a"), 0);
  }
}

typedef struct counter {
  size_t added, removed, other;
} counter;

static int count(void *ud, int kind, const char *path, unsigned what) {
  (void)path;
  (void)what;
  counter *c = ud;
  if (kind == VFS_ADDED)
    c->added++;
  else if (kind == VFS_REMOVED)
    c->removed++;
  else
    c->other++;
  return 0;
}

typedef struct tsize {
  size_t n;
} tsize;

static int sink(void *ud, const void *d, size_t n) {
  (void)d;
  ((tsize *)ud)->n += n;
  return 0;
}

static void *deep_body(void *arg) {
  (void)arg;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  uint64_t b0, i0;
  vfs_usage(v, &b0, &i0);
  vfs_snap *empty = vfs_snapshot(v);
  build_deep(v);
  size_t levels = (size_t)CHAIN * STEPS + 2; /* a, the chains, leaf */
  check_ok(v);
  /* diff both ways: every level is reported, nothing else */
  counter c = {0};
  assert_int_equal(vfs_diff(v, empty, NULL, count, &c), 0);
  assert_true(c.added >= levels);
  assert_int_equal(c.removed, 0);
  vfs_snap *full = vfs_snapshot(v);
  counter r = {0};
  assert_int_equal(vfs_diff(NULL, full, empty, count, &r), 0);
  assert_int_equal(r.removed, c.added);
  /* persist writes every level, with pax names past 100 bytes */
  tsize t = {0};
  assert_int_equal(vfs_persist(v, "/", "/tmp/t", NULL, sink, &t), 0);
  assert_true(t.n > levels * 512);
  /* restore and fork release the deep tree; removing it works too */
  vfs *f = vfs_fork(v);
  assert_non_null(f);
  assert_int_equal(vfs_restore(v, empty), 0);
  uint64_t b1, i1;
  vfs_usage(v, &b1, &i1);
  assert_int_equal(i1, i0);
  assert_int_equal(vfs_rm_rf(f, "/", "/tmp/t/a"), 0);
  check_ok(f);
  vfs_free(f);
  assert_int_equal(vfs_restore(v, full), 0);
  /* rm -r of the live tree, then the counters are back where they were */
  assert_int_equal(vfs_rm_rf(v, "/", "/tmp/t"), 0);
  vfs_usage(v, &b1, &i1);
  assert_int_equal(i1, i0);
  assert_int_equal(b1, b0);
  check_ok(v);
  vfs_snap_free(full);
  vfs_snap_free(empty);
  vfs_free(v); /* frees the deep tree */
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
  return NULL;
}

static void test_deep_tree(void **state) {
  (void)state;
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setstacksize(&a, 256 * 1024);
  pthread_t th;
  assert_int_equal(pthread_create(&th, &a, deep_body, NULL), 0);
  pthread_join(th, NULL);
  pthread_attr_destroy(&a);
}

/* A tree whose paths exceed what hydrate (like GNU tar) can create: persist
 * writes the long names (pax), hydrate refuses the archive whole and
 * changes nothing. */
static void test_deep_persist_hydrate(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  assert_int_equal(vfs_mkdir_p(v, "/", "/tmp/t/a", 0755), 0);
  static char chain[2 * CHAIN + 8];
  size_t k = 0;
  for (int i = 0; i < CHAIN; i++) {
    chain[k++] = 'b';
    chain[k++] = '/';
  }
  chain[k - 1] = 0;
  for (int s = 0; s < 3; s++) {
    assert_int_equal(vfs_mkdir_p(v, "/tmp/t", chain, 0755), 0);
    char to[sizeof chain + 4];
    snprintf(to, sizeof to, "%s/a", chain);
    assert_int_equal(vfs_rename(v, "/tmp/t", "a", to), 0);
    assert_int_equal(vfs_rename(v, "/tmp/t", "b", "a"), 0);
  }
  tbuf t = {0};
  assert_int_equal(vfs_persist(v, "/", "/tmp/t", NULL, tbuf_sink, &t), 0);
  vfs *w = mkvfs(m);
  vfs_snap *before = vfs_snapshot(w);
  char msg[256];
  assert_int_equal(vfs_hydrate(w, "/", "/dst", t.p, t.n, msg, sizeof msg),
                   -EBADMSG);
  if (!strstr(msg, "longer than 4095 bytes"))
    fail_msg("message: %s", msg);
  counter c = {0};
  assert_int_equal(vfs_diff(w, before, NULL, count, &c), 0);
  assert_int_equal(c.added + c.removed + c.other, 0);
  vfs_snap_free(before);
  free(t.p);
  vfs_free(w);
  vfs_free(v);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_deep_tree),
      cmocka_unit_test(test_deep_persist_hydrate),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
