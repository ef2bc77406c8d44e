// layers: core vfs
/*
 * test_vfs.c - core operations of the vfs: names, files, links, symlinks,
 * permissions, quotas, handles.
 */
#include <errno.h>
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

static int64_t fixed_clock(void *ud, int mono) {
  (void)mono;
  int64_t *t = ud;
  return (*t)++;
}

typedef struct fx {
  mem *m;
  vfs *v;
  int64_t t;
} fx;

static int setup(void **state) {
  fx *f = calloc(1, sizeof *f);
  f->m = mem_new(NULL, NULL, 0);
  f->t = 1000;
  vfs_config cfg = {.clock = fixed_clock, .clock_ud = &f->t};
  f->v = vfs_new(f->m, &cfg);
  assert_non_null(f->v);
  assert_int_equal(vfs_default_layout(f->v), 0);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fx *f = *state;
  check_ok(f->v);
  vfs_free(f->v);
  assert_int_equal(mem_used(f->m), 0);
  mem_unref(f->m);
  free(f);
  return 0;
}

#define V (((fx *)*state)->v)
#define H "/home/user"

static char *rd(vfs *v, const char *path) {
  char *d;
  size_t n;
  int rc = vfs_read_file(v, H, path, &d, &n);
  if (rc)
    return NULL;
  static char out[4096];
  snprintf(out, sizeof out, "%.*s", (int)n, d);
  vfs_release(v, d);
  return out;
}

/* path holds exactly the len bytes of want (NULs included). */
static void assert_bytes(vfs *v, const char *path, const char *want,
                         size_t len) {
  char *d;
  size_t n;
  assert_int_equal(vfs_read_file(v, H, path, &d, &n), 0);
  assert_int_equal(n, len);
  assert_memory_equal(d, want, len);
  vfs_release(v, d);
}

static void test_layout(void **state) {
  vfs_stat_t st;
  assert_int_equal(vfs_stat(V, "/", "/home/user", &st), 0);
  assert_int_equal(st.type, VFS_DIR);
  assert_int_equal(st.uid, 1000);
  assert_int_equal(st.mode, 0755);
  assert_int_equal(vfs_stat(V, "/", "/tmp", &st), 0);
  assert_int_equal(st.mode, 01777);
  assert_int_equal(vfs_stat(V, "/", "/dev/null", &st), 0);
  assert_int_equal(st.type, VFS_CHR);
  assert_int_equal(st.dev, VFS_DEV_NULL);
  assert_int_equal(vfs_stat(V, "/", "/dev/stderr", &st), 0);
  assert_int_equal(st.dev, VFS_DEV_STDERR);
  assert_int_equal(vfs_add_command_stub(V, "ls"), 0);
  assert_int_equal(vfs_stat(V, "/", "/bin/ls", &st), 0);
  assert_int_equal(st.mode, 0755);
  assert_int_equal(st.uid, 0);
  assert_string_equal(rd(V, "/usr/bin/ls"), "#!vsh-builtin ls\n");
  char name[32];
  assert_int_equal(vfs_command_stub_name(V, "/", "/bin/ls", name, sizeof name),
                   1);
  assert_string_equal(name, "ls");
  assert_int_equal(vfs_access(V, "/", "/bin/ls", X_OK), 0);
  assert_int_equal(vfs_access(V, "/", "/bin/ls", W_OK), -EACCES);
  assert_int_equal(vfs_write_file(V, "/", "/bin/x", "a", 1, 0), -EACCES);
}

static void test_files(void **state) {
  vfs *v = V;
  assert_int_equal(vfs_write_file(v, H, "a.txt", "hello", 5, 0), 0);
  assert_string_equal(rd(v, "a.txt"), "hello");
  assert_string_equal(rd(v, "/home/user/./a.txt"), "hello");
  assert_string_equal(rd(v, "../user/a.txt"), "hello");
  assert_string_equal(rd(v, "/../../home/user/a.txt"), "hello");
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, H, "a.txt", &st), 0);
  assert_int_equal(st.size, 5);
  assert_int_equal(st.mode, 0644);
  assert_int_equal(st.nlink, 1);
  assert_int_equal(vfs_append_file(v, H, "a.txt", " world", 6), 0);
  assert_string_equal(rd(v, "a.txt"), "hello world");
  assert_int_equal(vfs_truncate(v, H, "a.txt", 4), 0);
  assert_string_equal(rd(v, "a.txt"), "hell");
  assert_int_equal(vfs_truncate(v, H, "a.txt", 6), 0);
  assert_bytes(v, "a.txt", "hell\0\0", 6);
  assert_int_equal(vfs_write_file(v, H, "a.txt", "x", 1, 0), 0);
  assert_string_equal(rd(v, "a.txt"), "x");
  /* errors */
  char *d;
  size_t n;
  assert_int_equal(vfs_read_file(v, H, "nope", &d, &n), -ENOENT);
  assert_int_equal(vfs_read_file(v, H, "/home", &d, &n), -EISDIR);
  assert_int_equal(vfs_read_file(v, H, "a.txt/x", &d, &n), -ENOTDIR);
  assert_int_equal(vfs_read_file(v, H, "a.txt/", &d, &n), -ENOTDIR);
  assert_int_equal(vfs_write_file(v, H, "nodir/x", "", 0, 0), -ENOENT);
  assert_int_equal(vfs_write_file(v, H, "/home/user", "", 0, 0), -EISDIR);
  assert_int_equal(vfs_write_file(v, H, "new/", "", 0, 0), -EISDIR);
  assert_int_equal(vfs_read_file(v, H, "", &d, &n), -ENOENT);
  assert_int_equal(vfs_append_file(v, H, "b", "1", 1), 0);
  assert_int_equal(vfs_stat(v, H, "b", &st), 0);
  assert_int_equal(st.mode, 0644);
  /* /dev nodes */
  assert_int_equal(vfs_write_file(v, H, "/dev/null", "zz", 2, 0), 0);
  assert_string_equal(rd(v, "/dev/null"), "");
  assert_int_equal(vfs_read_file(v, H, "/dev/zero", &d, &n), -EFBIG);
  /* name limits */
  char longname[300];
  memset(longname, 'a', 256);
  longname[256] = 0;
  assert_int_equal(vfs_write_file(v, H, longname, "", 0, 0), -ENAMETOOLONG);
  longname[255] = 0;
  assert_int_equal(vfs_write_file(v, H, longname, "", 0, 0), 0);
  char *lp = malloc(5000);
  memset(lp, 'b', 4999);
  lp[4999] = 0;
  for (int i = 100; i < 4999; i += 100)
    lp[i] = '/';
  assert_int_equal(vfs_stat(v, H, lp, &st), -ENAMETOOLONG);
  free(lp);
  /* names with newlines and odd bytes are just bytes */
  assert_int_equal(vfs_write_file(v, H, "a\nb", "nl", 2, 0), 0);
  assert_string_equal(rd(v, "a\nb"), "nl");
}

static void test_dirs(void **state) {
  vfs *v = V;
  assert_int_equal(vfs_mkdir(v, H, "d", 0777), 0);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, H, "d", &st), 0);
  assert_int_equal(st.mode, 0755);
  assert_int_equal(st.nlink, 2);
  assert_int_equal(vfs_mkdir(v, H, "d", 0777), -EEXIST);
  assert_int_equal(vfs_mkdir(v, H, "d/e/f", 0777), -ENOENT);
  assert_int_equal(vfs_mkdir_p(v, H, "d/e/f", 0777), 0);
  assert_int_equal(vfs_mkdir_p(v, H, "d/e/f", 0777), 0);
  assert_int_equal(vfs_mkdir_p(v, H, "d/e/f/", 0777), 0);
  assert_int_equal(vfs_stat(v, H, "d", &st), 0);
  assert_int_equal(st.nlink, 3);
  assert_int_equal(vfs_write_file(v, H, "d/file", "x", 1, 0), 0);
  assert_int_equal(vfs_mkdir_p(v, H, "d/file", 0777), -EEXIST);
  assert_int_equal(vfs_mkdir_p(v, H, "d/file/x", 0777), -ENOTDIR);
  assert_int_equal(vfs_write_file(v, H, "d/b", "x", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "d/a", "x", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "d/B", "x", 1, 0), 0);
  char **names;
  size_t n;
  assert_int_equal(vfs_readdir(v, H, "d", &names, &n), 0);
  assert_int_equal(n, 5);
  assert_string_equal(names[0], "B");
  assert_string_equal(names[1], "a");
  assert_string_equal(names[2], "b");
  assert_string_equal(names[3], "e");
  assert_string_equal(names[4], "file");
  vfs_free_names(v, names, n);
  vfs_dir *it;
  assert_int_equal(vfs_opendir(v, H, "d", &it), 0);
  /* the iterator keeps its view while the directory changes */
  assert_int_equal(vfs_unlink(v, H, "d/a"), 0);
  vfs_dirent e;
  int k = 0;
  while (vfs_dir_next(it, &e) == 1) {
    if (k == 3)
      assert_int_equal(e.type, VFS_DIR);
    k++;
  }
  assert_int_equal(k, 5);
  vfs_closedir(it);
  assert_int_equal(vfs_readdir(v, H, "d/file", &names, &n), -ENOTDIR);
  assert_int_equal(vfs_rmdir(v, H, "d"), -ENOTEMPTY);
  assert_int_equal(vfs_rmdir(v, H, "d/file"), -ENOTDIR);
  assert_int_equal(vfs_unlink(v, H, "d/e"), -EISDIR);
  assert_int_equal(vfs_rmdir(v, H, "d/e/f"), 0);
  assert_int_equal(vfs_rmdir(v, H, "d/e/."), -EINVAL);
  assert_int_equal(vfs_rmdir(v, H, "/"), -EBUSY);
  assert_int_equal(vfs_rm_rf(v, H, "d"), 0);
  assert_int_equal(vfs_stat(v, H, "d", &st), -ENOENT);
  assert_int_equal(vfs_stat(v, H, "/home/user", &st), 0);
  assert_int_equal(st.nlink, 2);
  /* .. at / stays at / */
  char *p;
  assert_int_equal(vfs_realpath(v, "/", "../../..", &p), 0);
  assert_string_equal(p, "/");
  vfs_release(v, p);
  assert_int_equal(vfs_realpath(v, "/tmp", "../home//user/.", &p), 0);
  assert_string_equal(p, "/home/user");
  vfs_release(v, p);
}

static void test_rename(void **state) {
  vfs *v = V;
  assert_int_equal(vfs_write_file(v, H, "a", "A", 1, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "b", "B", 1, 0), 0);
  assert_int_equal(vfs_rename(v, H, "a", "b"), 0);
  assert_string_equal(rd(v, "b"), "A");
  assert_null(rd(v, "a"));
  assert_int_equal(vfs_rename(v, H, "b", "b"), 0);
  assert_int_equal(vfs_mkdir_p(v, H, "d1/sub", 0755), 0);
  assert_int_equal(vfs_mkdir(v, H, "d2", 0755), 0);
  assert_int_equal(vfs_rename(v, H, "d1", "d1/sub/x"), -EINVAL);
  assert_int_equal(vfs_rename(v, H, "d1", "d1"), 0);
  assert_int_equal(vfs_rename(v, H, "b", "d2"), -EISDIR);
  assert_int_equal(vfs_rename(v, H, "d2", "b"), -ENOTDIR);
  assert_int_equal(vfs_rename(v, H, "d2", "d1"), -ENOTEMPTY);
  assert_int_equal(vfs_rename(v, H, "d1", "d2"), 0);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, H, "d2/sub", &st), 0);
  assert_int_equal(vfs_stat(v, H, "d1", &st), -ENOENT);
  assert_int_equal(vfs_rename(v, H, "b", "d2/sub/b2"), 0);
  assert_string_equal(rd(v, "d2/sub/b2"), "A");
  assert_int_equal(vfs_mkdir(v, H, "d3", 0755), 0);
  assert_int_equal(vfs_rename(v, H, "d2/sub", "d3/sub"), 0);
  assert_int_equal(vfs_stat(v, H, "d2", &st), 0);
  assert_int_equal(st.nlink, 2);
  assert_int_equal(vfs_stat(v, H, "d3", &st), 0);
  assert_int_equal(st.nlink, 3);
  assert_int_equal(vfs_rename(v, H, "nope", "x"), -ENOENT);
  assert_int_equal(vfs_rename(v, H, "/", "x"), -EBUSY);
  assert_int_equal(vfs_rename(v, H, "d3", "/home/user/d3/sub/in"), -EINVAL);
}

static void test_hardlinks(void **state) {
  vfs *v = V;
  assert_int_equal(vfs_write_file(v, H, "f", "one", 3, 0), 0);
  assert_int_equal(vfs_mkdir(v, H, "d", 0755), 0);
  assert_int_equal(vfs_link(v, H, "f", "d/g"), 0);
  vfs_stat_t a, b;
  assert_int_equal(vfs_stat(v, H, "f", &a), 0);
  assert_int_equal(vfs_stat(v, H, "d/g", &b), 0);
  assert_int_equal(a.ino, b.ino);
  assert_int_equal(a.nlink, 2);
  assert_int_equal(vfs_append_file(v, H, "d/g", "two", 3), 0);
  assert_string_equal(rd(v, "f"), "onetwo");
  assert_int_equal(vfs_chmod(v, H, "f", 0600), 0);
  assert_int_equal(vfs_stat(v, H, "d/g", &b), 0);
  assert_int_equal(b.mode, 0600);
  uint64_t bytes, inodes, b2, i2;
  vfs_usage(v, &bytes, &inodes);
  assert_int_equal(vfs_link(v, H, "d/g", "h"), 0);
  vfs_usage(v, &b2, &i2);
  assert_int_equal(bytes, b2);
  assert_int_equal(inodes, i2);
  check_ok(v);
  assert_int_equal(vfs_link(v, H, "d", "d2"), -EPERM);
  assert_int_equal(vfs_link(v, H, "f", "h"), -EEXIST);
  assert_int_equal(vfs_unlink(v, H, "f"), 0);
  assert_int_equal(vfs_stat(v, H, "h", &a), 0);
  assert_int_equal(a.nlink, 2);
  assert_string_equal(rd(v, "h"), "onetwo");
  assert_int_equal(vfs_rename(v, H, "h", "d/g"), 0); /* same inode */
  assert_int_equal(vfs_stat(v, H, "h", &a), 0);
  assert_int_equal(vfs_rm_rf(v, H, "d"), 0);
  assert_int_equal(vfs_stat(v, H, "h", &a), 0);
  assert_int_equal(a.nlink, 1);
  check_ok(v);
  assert_int_equal(vfs_unlink(v, H, "h"), 0);
  vfs_usage(v, &b2, &i2);
  assert_int_equal(b2, 0);
}

static void test_symlinks(void **state) {
  vfs *v = V;
  assert_int_equal(vfs_mkdir_p(v, H, "a/b", 0755), 0);
  assert_int_equal(vfs_write_file(v, H, "a/b/f", "F", 1, 0), 0);
  assert_int_equal(vfs_symlink(v, H, "a/b", "l1"), 0);
  assert_int_equal(vfs_symlink(v, H, "/home/user/a/b/f", "abs"), 0);
  assert_int_equal(vfs_symlink(v, H, "../../../../../../home/user/a", "up"), 0);
  assert_string_equal(rd(v, "l1/f"), "F");
  assert_string_equal(rd(v, "abs"), "F");
  assert_string_equal(rd(v, "up/b/f"), "F");
  vfs_stat_t st;
  assert_int_equal(vfs_lstat(v, H, "l1", &st), 0);
  assert_int_equal(st.type, VFS_LNK);
  assert_int_equal(st.size, 3);
  assert_int_equal(vfs_stat(v, H, "l1", &st), 0);
  assert_int_equal(st.type, VFS_DIR);
  assert_int_equal(vfs_lstat(v, H, "l1/", &st), 0);
  assert_int_equal(st.type, VFS_DIR);
  char *t;
  size_t tl;
  assert_int_equal(vfs_readlink(v, H, "l1", &t, &tl), 0);
  assert_string_equal(t, "a/b");
  vfs_release(v, t);
  assert_int_equal(vfs_readlink(v, H, "a", &t, &tl), -EINVAL);
  char *p;
  assert_int_equal(vfs_realpath(v, H, "l1/../b/./f", &p), 0);
  assert_string_equal(p, "/home/user/a/b/f");
  vfs_release(v, p);
  assert_int_equal(vfs_canon_dir(v, H, "l1", &p), 0);
  assert_string_equal(p, "/home/user/a/b");
  vfs_release(v, p);
  assert_int_equal(vfs_canon_dir(v, H, "abs", &p), -ENOTDIR);
  /* loops */
  assert_int_equal(vfs_symlink(v, H, "loop2", "loop1"), 0);
  assert_int_equal(vfs_symlink(v, H, "loop1", "loop2"), 0);
  assert_int_equal(vfs_stat(v, H, "loop1", &st), -ELOOP);
  assert_int_equal(vfs_lstat(v, H, "loop1", &st), 0);
  assert_int_equal(vfs_symlink(v, H, "self/x", "self"), 0);
  assert_int_equal(vfs_stat(v, H, "self", &st), -ELOOP);
  /* a chain of exactly 40 works, 41 fails */
  char name[16], target[16];
  for (int i = 1; i <= 41; i++) {
    snprintf(name, sizeof name, "c%d", i);
    snprintf(target, sizeof target, i == 1 ? "a" : "c%d", i - 1);
    assert_int_equal(vfs_symlink(v, H, target, name), 0);
  }
  assert_int_equal(vfs_stat(v, H, "c40", &st), 0);
  assert_int_equal(vfs_stat(v, H, "c41", &st), -ELOOP);
  /* dangling symlink: write creates the target */
  assert_int_equal(vfs_symlink(v, H, "target.txt", "dang"), 0);
  assert_int_equal(vfs_stat(v, H, "dang", &st), -ENOENT);
  assert_int_equal(vfs_write_file(v, H, "dang", "T", 1, 0), 0);
  assert_string_equal(rd(v, "target.txt"), "T");
  assert_int_equal(vfs_mkdir(v, H, "dang", 0755), -EEXIST);
  /* unlink removes the link, not the target */
  assert_int_equal(vfs_unlink(v, H, "abs"), 0);
  assert_string_equal(rd(v, "a/b/f"), "F");
  /* rm -r through a symlink removes only the link */
  assert_int_equal(vfs_rm_rf(v, H, "l1"), 0);
  assert_string_equal(rd(v, "a/b/f"), "F");
  assert_int_equal(vfs_symlink(v, H, "", "empty"), -ENOENT);
  assert_int_equal(vfs_symlink(v, H, "x", "a"), -EEXIST);
}

static void test_permissions(void **state) {
  vfs *v = V;
  assert_int_equal(vfs_write_file(v, H, "ro", "data", 4, 0444), 0);
  assert_int_equal(vfs_write_file(v, H, "ro", "new", 3, 0), -EACCES);
  assert_int_equal(vfs_append_file(v, H, "ro", "new", 3), -EACCES);
  assert_int_equal(vfs_truncate(v, H, "ro", 0), -EACCES);
  vfs_file *f;
  assert_int_equal(vfs_open(v, H, "ro", O_WRONLY, 0, &f), -EACCES);
  assert_int_equal(vfs_access(v, H, "ro", R_OK), 0);
  assert_int_equal(vfs_access(v, H, "ro", W_OK), -EACCES);
  assert_int_equal(vfs_access(v, H, "ro", X_OK), -EACCES);
  assert_int_equal(vfs_access(v, H, "ro", F_OK), 0);
  assert_int_equal(vfs_access(v, H, "nope", F_OK), -ENOENT);
  assert_int_equal(vfs_write_file(v, H, "wo", "x", 1, 0200), 0);
  char *d;
  size_t n;
  assert_int_equal(vfs_read_file(v, H, "wo", &d, &n), -EACCES);
  assert_int_equal(vfs_mkdir(v, H, "nox", 0755), 0);
  assert_int_equal(vfs_write_file(v, H, "nox/f", "x", 1, 0), 0);
  assert_int_equal(vfs_chmod(v, H, "nox", 0644), 0);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, H, "nox/f", &st), -EACCES);
  char **names;
  assert_int_equal(vfs_readdir(v, H, "nox", &names, &n), 0);
  assert_int_equal(n, 1);
  vfs_free_names(v, names, n);
  assert_int_equal(vfs_canon_dir(v, H, "nox", &d), -EACCES);
  assert_int_equal(vfs_chmod(v, H, "nox", 0555), 0);
  assert_int_equal(vfs_write_file(v, H, "nox/g", "x", 1, 0), -EACCES);
  assert_int_equal(vfs_unlink(v, H, "nox/f"), -EACCES);
  assert_int_equal(vfs_mkdir(v, H, "nox/sub", 0755), -EACCES);
  assert_int_equal(vfs_rm_rf(v, H, "nox"), -EACCES);
  assert_int_equal(vfs_chmod(v, H, "nox", 0755), 0);
  assert_int_equal(vfs_rm_rf(v, H, "nox"), 0);
  /* root-owned places */
  assert_int_equal(vfs_chmod(v, H, "/bin", 0777), -EPERM);
  assert_int_equal(vfs_mkdir(v, H, "/x", 0755), -EACCES);
  assert_int_equal(vfs_write_file(v, H, "/tmp/t", "x", 1, 0), 0);
  /* umask */
  assert_int_equal(vfs_set_umask(v, 077), 022);
  assert_int_equal(vfs_write_file(v, H, "um", "x", 1, 0666), 0);
  assert_int_equal(vfs_stat(v, H, "um", &st), 0);
  assert_int_equal(st.mode, 0600);
  vfs_set_umask(v, 022);
  /* root bypasses r/w but x on files needs some x bit */
  vfs_set_user(v, 0, 0);
  assert_int_equal(vfs_write_file(v, H, "ro", "root", 4, 0), 0);
  assert_int_equal(vfs_access(v, H, "ro", X_OK), -EACCES);
  assert_int_equal(vfs_access(v, H, "/bin", W_OK), 0);
  vfs_set_user(v, 1000, 1000);
  /* sticky /tmp: another user's file cannot be removed */
  vfs_set_user(v, 1001, 1001);
  assert_int_equal(vfs_write_file(v, H, "/tmp/other", "x", 1, 0), 0);
  vfs_set_user(v, 1000, 1000);
  assert_int_equal(vfs_unlink(v, H, "/tmp/other"), -EACCES);
  assert_int_equal(vfs_unlink(v, H, "/tmp/t"), 0);
  /* utimes */
  assert_int_equal(vfs_utimes(v, H, "um", 5, 7, 0), 0);
  assert_int_equal(vfs_stat(v, H, "um", &st), 0);
  assert_int_equal(st.atime_ns, 5);
  assert_int_equal(st.mtime_ns, 7);
  assert_int_equal(vfs_utimes(v, H, "um", VFS_UTIME_OMIT, VFS_UTIME_NOW, 0), 0);
  assert_int_equal(vfs_stat(v, H, "um", &st), 0);
  assert_int_equal(st.atime_ns, 5);
  assert_true(st.mtime_ns > 7);
  assert_int_equal(vfs_utimes(v, H, "/bin", 1, 1, 0), -EPERM);
}

static void test_quota(void **state) {
  vfs *v = V;
  uint64_t b0, i0;
  vfs_usage(v, &b0, &i0);
  vfs_set_quota(v, b0 + 100, i0 + 3);
  char big[200];
  memset(big, 'x', sizeof big);
  assert_int_equal(vfs_write_file(v, H, "f", big, 60, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "f", big, 101, 0), -ENOSPC);
  assert_int_equal(strlen(rd(v, "f")), 60); /* old content kept */
  assert_int_equal(vfs_append_file(v, H, "f", big, 41), -ENOSPC);
  assert_int_equal(strlen(rd(v, "f")), 60);
  assert_int_equal(vfs_append_file(v, H, "f", big, 40), 0);
  assert_int_equal(vfs_write_file(v, H, "g", big, 1, 0), -ENOSPC);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, H, "g", &st), -ENOENT);
  assert_int_equal(vfs_write_file(v, H, "g", big, 0, 0), 0);
  assert_int_equal(vfs_mkdir(v, H, "d", 0755), 0);
  assert_int_equal(vfs_mkdir(v, H, "e", 0755), -ENOSPC);
  assert_int_equal(vfs_symlink(v, H, "x", "e"), -ENOSPC);
  vfs_file *fh;
  assert_int_equal(vfs_open(v, H, "f", O_WRONLY | O_APPEND, 0, &fh), 0);
  assert_int_equal(vfs_write(fh, big, 1), -ENOSPC);
  vfs_close(fh);
  assert_int_equal(vfs_truncate(v, H, "f", 10), 0);
  uint64_t b1;
  vfs_usage(v, &b1, NULL);
  assert_int_equal(b1, b0 + 10);
  assert_int_equal(vfs_rm_rf(v, H, "d"), 0);
  assert_int_equal(vfs_unlink(v, H, "f"), 0);
  assert_int_equal(vfs_unlink(v, H, "g"), 0);
  uint64_t b2, i2;
  vfs_usage(v, &b2, &i2);
  assert_int_equal(b2, b0);
  assert_int_equal(i2, i0);
}

static void test_handles(void **state) {
  vfs *v = V;
  vfs_file *f;
  assert_int_equal(vfs_open(v, H, "h", O_RDONLY, 0, &f), -ENOENT);
  assert_int_equal(vfs_open(v, H, "h", O_WRONLY | O_CREAT, 0666, &f), 0);
  assert_int_equal(vfs_write(f, "abc", 3), 3);
  assert_int_equal(vfs_write(f, "def", 3), 3);
  assert_int_equal(vfs_pwrite(f, "X", 1, 10), 1);
  assert_int_equal(vfs_file_size(f), 11);
  char buf[32];
  assert_int_equal(vfs_read(f, buf, 3), -EBADF);
  /* visible through the tree at once, also after a rename */
  assert_int_equal(vfs_rename(v, H, "h", "h2"), 0);
  assert_int_equal(vfs_write(f, "!", 1), 1); /* at position 6 */
  assert_bytes(v, "h2", "abcdef!\0\0\0X", 11);
  vfs_close(f);
  check_ok(v);
  assert_int_equal(vfs_open(v, H, "h2", O_CREAT | O_EXCL | O_WRONLY, 0, &f),
                   -EEXIST);
  assert_int_equal(vfs_open(v, H, "h2", O_RDWR | O_TRUNC, 0, &f), 0);
  assert_int_equal(vfs_file_size(f), 0);
  assert_int_equal(vfs_write(f, "hello", 5), 5);
  assert_int_equal(vfs_seek(f, 1, SEEK_SET), 1);
  assert_int_equal(vfs_read(f, buf, 3), 3);
  assert_memory_equal(buf, "ell", 3);
  /* unlink while open: the handle keeps the inode */
  assert_int_equal(vfs_unlink(v, H, "h2"), 0);
  assert_int_equal(vfs_write(f, "X", 1), 1);
  size_t n;
  const char *p = vfs_file_data(f, &n);
  assert_int_equal(n, 5);
  assert_memory_equal(p, "hellX", 5);
  check_ok(v);
  vfs_close(f);
  check_ok(v);
  /* a read handle sees the content as opened */
  assert_int_equal(vfs_write_file(v, H, "r", "old", 3, 0), 0);
  assert_int_equal(vfs_open(v, H, "r", O_RDONLY, 0, &f), 0);
  assert_int_equal(vfs_write_file(v, H, "r", "newer", 5, 0), 0);
  p = vfs_file_data(f, &n);
  assert_int_equal(n, 3);
  assert_memory_equal(p, "old", 3);
  assert_int_equal(vfs_write(f, "x", 1), -EBADF);
  vfs_close(f);
  /* append handle */
  assert_int_equal(vfs_open(v, H, "r", O_WRONLY | O_APPEND, 0, &f), 0);
  assert_int_equal(vfs_write(f, "!", 1), 1);
  vfs_close(f);
  assert_string_equal(rd(v, "r"), "newer!");
  /* devices */
  assert_int_equal(vfs_open(v, H, "/dev/null", O_RDWR, 0, &f), 0);
  assert_int_equal(vfs_file_dev(f), VFS_DEV_NULL);
  assert_int_equal(vfs_write(f, "x", 1), 1);
  assert_int_equal(vfs_read(f, buf, 4), 0);
  vfs_close(f);
  assert_int_equal(vfs_open(v, H, "/dev/zero", O_RDONLY, 0, &f), 0);
  buf[0] = 1;
  assert_int_equal(vfs_read(f, buf, 4), 4);
  assert_int_equal(buf[0], 0);
  vfs_close(f);
  assert_int_equal(vfs_open(v, H, "/tmp", O_RDONLY, 0, &f), -EISDIR);
  assert_int_equal(vfs_symlink(v, H, "r", "lr"), 0);
  assert_int_equal(vfs_open(v, H, "lr", O_RDONLY | O_NOFOLLOW, 0, &f), -ELOOP);
  assert_int_equal(vfs_open(v, H, "lr", O_RDONLY, 0, &f), 0);
  vfs_close(f);
  check_ok(v);
}

static void test_append_linear(void **state) {
  vfs *v = V;
  /* 10,000 appends: with doubling growth this is a handful of reallocs */
  for (int i = 0; i < 10000; i++)
    assert_int_equal(vfs_append_file(v, H, "log", "a line of text\n", 15), 0);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, H, "log", &st), 0);
  assert_int_equal(st.size, 150000);
  vfs_file *f;
  assert_int_equal(vfs_open(v, H, "log", O_WRONLY | O_APPEND, 0, &f), 0);
  for (int i = 0; i < 10000; i++)
    assert_int_equal(vfs_write(f, "x\n", 2), 2);
  vfs_close(f);
  assert_int_equal(vfs_stat(v, H, "log", &st), 0);
  assert_int_equal(st.size, 170000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_layout, setup, teardown),
      cmocka_unit_test_setup_teardown(test_files, setup, teardown),
      cmocka_unit_test_setup_teardown(test_dirs, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rename, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hardlinks, setup, teardown),
      cmocka_unit_test_setup_teardown(test_symlinks, setup, teardown),
      cmocka_unit_test_setup_teardown(test_permissions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_quota, setup, teardown),
      cmocka_unit_test_setup_teardown(test_handles, setup, teardown),
      cmocka_unit_test_setup_teardown(test_append_linear, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
