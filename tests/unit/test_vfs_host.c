// layers: core vfs
/*
 * test_vfs_host.c - host directories layered read-only: lazy reads, copy on
 * write, and attempts to escape the host root.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "vfs/vfs.h"

typedef struct fx {
  char root[256]; /* a temp dir holding host/ and outside/ */
  char host[300];
  mem *m;
  vfs *v;
} fx;

static void put(const char *dir, const char *rel, const char *data) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", dir, rel);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(data, f);
  fclose(f);
}

static void rmtree(const char *p) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", p);
  assert_int_equal(system(cmd), 0);
}

static int setup(void **state) {
  fx *f = calloc(1, sizeof *f);
  snprintf(f->root, sizeof f->root, "/tmp/vsh-host-XXXXXX");
  assert_non_null(mkdtemp(f->root));
  snprintf(f->host, sizeof f->host, "%s/host", f->root);
  char p[512];
  mkdir(f->host, 0755);
  snprintf(p, sizeof p, "%s/outside", f->root);
  mkdir(p, 0755);
  put(p, "secret", "SECRET");
  put(f->host, "a.txt", "alpha");
  snprintf(p, sizeof p, "%s/sub", f->host);
  mkdir(p, 0755);
  put(p, "b.txt", "beta");
  snprintf(p, sizeof p, "%s/sub2", f->host);
  mkdir(p, 0755);
  put(p, "c", "c");
  put(f->host, "name\nwith newline", "nl");
  snprintf(p, sizeof p, "%s/fifo", f->host);
  assert_int_equal(mkfifo(p, 0644), 0);
  /* escapes */
  snprintf(p, sizeof p, "%s/abs", f->host);
  char t[512];
  snprintf(t, sizeof t, "%s/outside/secret", f->root);
  assert_int_equal(symlink(t, p), 0);
  snprintf(p, sizeof p, "%s/rel", f->host);
  assert_int_equal(symlink("../outside/secret", p), 0);
  snprintf(p, sizeof p, "%s/sub/deep", f->host);
  assert_int_equal(symlink("../../../../../../../../etc/passwd", p), 0);
  snprintf(p, sizeof p, "%s/outdir", f->host);
  assert_int_equal(symlink("../outside", p), 0);
  snprintf(p, sizeof p, "%s/loop", f->host);
  assert_int_equal(symlink("loop", p), 0);
  snprintf(p, sizeof p, "%s/ok", f->host);
  assert_int_equal(symlink("sub/b.txt", p), 0);
  f->m = mem_new(NULL, NULL, 0);
  f->v = vfs_new(f->m, NULL);
  assert_int_equal(vfs_default_layout(f->v), 0);
  assert_int_equal(vfs_mount_host(f->v, f->host, "/mnt/h", 0), 0);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fx *f = *state;
  char msg[256];
  if (vfs_check(f->v, msg, sizeof msg))
    fail_msg("vfs_check: %s", msg);
  vfs_free(f->v);
  assert_int_equal(mem_used(f->m), 0);
  mem_unref(f->m);
  rmtree(f->root);
  free(f);
  return 0;
}

#define F ((fx *)*state)

static char *rd(vfs *v, const char *path) {
  static char out[256];
  char *d;
  size_t n;
  int rc = vfs_read_file(v, "/mnt/h", path, &d, &n);
  if (rc) {
    snprintf(out, sizeof out, "ERR%d", -rc);
    return out;
  }
  snprintf(out, sizeof out, "%.*s", (int)n, d);
  vfs_release(v, d);
  return out;
}

static void test_read_and_cow(void **state) {
  vfs *v = F->v;
  assert_string_equal(rd(v, "a.txt"), "alpha");
  assert_string_equal(rd(v, "sub/b.txt"), "beta");
  assert_string_equal(rd(v, "ok"), "beta");
  assert_string_equal(rd(v, "name\nwith newline"), "nl");
  char **names;
  size_t n;
  assert_int_equal(vfs_readdir(v, "/", "/mnt/h", &names, &n), 0);
  assert_int_equal(n, 10);
  assert_string_equal(names[0], "a.txt");
  vfs_free_names(v, names, n);
  uint64_t b0;
  vfs_usage(v, &b0, NULL);
  /* writes stay in the sandbox */
  assert_int_equal(vfs_append_file(v, "/mnt/h", "a.txt", "+", 1), 0);
  assert_string_equal(rd(v, "a.txt"), "alpha+");
  char p[512], buf[64];
  snprintf(p, sizeof p, "%s/a.txt", F->host);
  FILE *hf = fopen(p, "r");
  size_t k = fread(buf, 1, sizeof buf - 1, hf);
  fclose(hf);
  buf[k] = 0;
  assert_string_equal(buf, "alpha");
  uint64_t b1;
  vfs_usage(v, &b1, NULL);
  assert_int_equal(b1, b0 + 6); /* now sandbox content */
  assert_int_equal(vfs_write_file(v, "/mnt/h", "sub/new", "n", 1, 0), 0);
  assert_int_equal(vfs_unlink(v, "/mnt/h", "sub/b.txt"), 0);
  snprintf(p, sizeof p, "%s/sub/b.txt", F->host);
  assert_int_equal(access(p, F_OK), 0);
  assert_int_equal(vfs_rm_rf(v, "/", "/mnt/h/sub"), 0);
  snprintf(p, sizeof p, "%s/sub/new", F->host);
  assert_int_equal(access(p, F_OK), -1);
}

static void test_snapshot_stable(void **state) {
  vfs *v = F->v;
  vfs_snap *s = vfs_snapshot(v);
  /* the host changes after mounting: the first read fixes the content */
  assert_string_equal(rd(v, "sub/b.txt"), "beta");
  char p[512];
  snprintf(p, sizeof p, "%s/sub", F->host);
  put(p, "b.txt", "CHANGED ON HOST");
  put(p, "late", "late");
  assert_string_equal(rd(v, "sub/b.txt"), "beta");
  vfs *w = vfs_new_from(F->m, s, NULL);
  assert_string_equal(rd(w, "sub/b.txt"), "beta");
  vfs_free(w);
  vfs_snap_free(s);
}

static void test_escapes(void **state) {
  vfs *v = F->v;
  /* absolute and relative symlinks resolve in the virtual namespace */
  assert_string_equal(rd(v, "abs"), "ERR2");
  assert_string_equal(rd(v, "rel"), "ERR2");
  assert_string_equal(rd(v, "sub/deep"), "ERR2"); /* no /etc/passwd here */
  assert_string_equal(rd(v, "outdir/secret"), "ERR2");
  assert_string_equal(rd(v, "../../../../outside/secret"), "ERR2");
  assert_string_equal(rd(v, "loop"), "ERR40");
  vfs_stat_t st;
  assert_int_equal(vfs_lstat(v, "/mnt/h", "abs", &st), 0);
  assert_int_equal(st.type, VFS_LNK);
  /* a host path that exists virtually lands in the sandbox's copy */
  assert_int_equal(vfs_mkdir_p(v, "/", "/outside", 0755), -EACCES);
  /* FIFOs are inert: never opened, never block */
  assert_int_equal(vfs_lstat(v, "/mnt/h", "fifo", &st), 0);
  assert_int_equal(st.type, VFS_FIFO);
  assert_string_equal(rd(v, "fifo"), "ERR6");
  vfs_file *fh;
  assert_int_equal(vfs_open(v, "/mnt/h", "fifo", O_RDONLY, 0, &fh), -ENXIO);
  /* a regular file replaced by a FIFO on the host after listing */
  char p[512];
  snprintf(p, sizeof p, "%s/a.txt", F->host);
  vfs_stat_t st2;
  assert_int_equal(vfs_stat(v, "/mnt/h", "a.txt", &st2), 0);
  unlink(p);
  assert_int_equal(mkfifo(p, 0644), 0);
  assert_string_equal(rd(v, "a.txt"), ""); /* empty, did not block */
  /* a directory (not listed yet) replaced by a symlink to the outside */
  snprintf(p, sizeof p, "%s/sub2", F->host);
  rmtree(p);
  char t[512];
  snprintf(t, sizeof t, "%s/outside", F->root);
  assert_int_equal(symlink(t, p), 0);
  char **names;
  size_t n;
  assert_int_equal(vfs_readdir(v, "/mnt/h", "sub2", &names, &n), 0);
  assert_int_equal(n, 0); /* openat with O_NOFOLLOW refused to go there */
  vfs_free_names(v, names, n);
  /* very long paths */
  char *lp = malloc(6000);
  strcpy(lp, "/mnt/h");
  for (int i = 0; i < 1500; i++)
    strcat(lp, "/..");
  assert_int_equal(vfs_stat(v, "/", lp, &st), -ENAMETOOLONG);
  free(lp);
}

static void test_bad_mounts(void **state) {
  vfs *v = F->v;
  assert_int_equal(vfs_mount_host(v, "/nonexistent-dir-xyz", "/m2", 0),
                   -ENOENT);
  assert_int_equal(vfs_write_file(v, "/tmp", "f", "x", 1, 0), 0);
  assert_int_equal(vfs_mount_host(v, F->host, "/tmp", 0), -EBUSY);
  assert_int_equal(vfs_mount_host(v, F->host, "/tmp/f", 0), -EEXIST);
}

static int discard(void *ud, const void *d, size_t n) {
  (void)ud;
  (void)d;
  (void)n;
  return 0;
}

/* A host file larger than the layer's limit, or than the allocator can
 * hold, fails every read with its error: never an empty or cut file. */
static void test_big_files(void **state) {
  char big[4096];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = 0;
  put(F->host, "big", big); /* 4095 bytes */
  put(F->host, "small", "0123456789");
  /* a second mount of the same directory with a 1000-byte limit */
  vfs *v = F->v;
  assert_int_equal(vfs_mount_host(v, F->host, "/mnt/lim", 1000), 0);
  char *d;
  size_t n;
  assert_int_equal(vfs_read_file(v, "/", "/mnt/lim/big", &d, &n), -EFBIG);
  vfs_file *fh;
  assert_int_equal(vfs_open(v, "/", "/mnt/lim/big", O_RDONLY, 0, &fh), -EFBIG);
  assert_int_equal(
      vfs_open(v, "/", "/mnt/lim/big", O_WRONLY | O_APPEND, 0, &fh), -EFBIG);
  assert_int_equal(vfs_append_file(v, "/", "/mnt/lim/big", "y", 1), -EFBIG);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, "/", "/mnt/lim/big", &st), 0);
  assert_int_equal(st.size, 4095); /* the size still tells the truth */
  assert_int_equal(vfs_read_file(v, "/", "/mnt/lim/small", &d, &n), 0);
  assert_int_equal(n, 10);
  vfs_release(v, d);
  /* still refused on a second try; the full mount reads it whole */
  assert_int_equal(vfs_read_file(v, "/", "/mnt/lim/big", &d, &n), -EFBIG);
  assert_int_equal(vfs_read_file(v, "/", "/mnt/h/big", &d, &n), 0);
  assert_int_equal(n, 4095);
  vfs_release(v, d);
  /* persist refuses rather than write a cut or empty member */
  assert_int_equal(vfs_persist(v, "/", "/mnt/lim", NULL, discard, NULL),
                   -EFBIG);
}

/* Under a memory cap, a host file the allocator cannot hold fails with
 * -ENOMEM and stays unread (a later read may succeed), never empty. */
static void test_big_file_memory(void **state) {
  char p[512];
  snprintf(p, sizeof p, "%s/huge", F->host);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  assert_int_equal(ftruncate(fileno(f), 24 << 20), 0); /* 24 MiB */
  fclose(f);
  mem *m = mem_new(NULL, NULL, 4 << 20);
  vfs *v = vfs_new(m, NULL);
  assert_int_equal(vfs_default_layout(v), 0);
  assert_int_equal(vfs_mount_host(v, F->host, "/mnt/h", 0), 0);
  char *d;
  size_t n;
  assert_int_equal(vfs_read_file(v, "/", "/mnt/h/huge", &d, &n), -ENOMEM);
  assert_int_equal(vfs_read_file(v, "/", "/mnt/h/huge", &d, &n), -ENOMEM);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, "/", "/mnt/h/huge", &st), 0);
  assert_int_equal(st.size, 24 << 20);
  vfs_free(v);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_read_and_cow, setup, teardown),
      cmocka_unit_test_setup_teardown(test_snapshot_stable, setup, teardown),
      cmocka_unit_test_setup_teardown(test_escapes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_mounts, setup, teardown),
      cmocka_unit_test_setup_teardown(test_big_files, setup, teardown),
      cmocka_unit_test_setup_teardown(test_big_file_memory, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
