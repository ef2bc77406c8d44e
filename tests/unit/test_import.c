// layers: all
/* test_import.c - the batch import: vsh_import_files (path/content pairs)
 * and vsh_import_dir (a host tree), through the fast path and the general
 * one (names already there, symlinks and `..` on the way), with quotas and
 * the tree's own consistency check. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfs_harness.h"
#include "vsh.h"

static vsh_sandbox *open_sb(void) {
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(NULL, &sb), VSH_OK);
  return sb;
}

static void expect(vsh_sandbox *sb, const char *script, const char *out) {
  vsh_result r;
  assert_int_equal(vsh_exec(sb, script, NULL, &r), VSH_OK);
  if (strcmp(r.out, out) != 0)
    fprintf(stderr, "%s\nout: %s\nerr: %s\n", script, r.out, r.err);
  assert_string_equal(r.out, out);
  vsh_result_free(&r);
}

static void test_files(void **state) {
  (void)state;
  vsh_sandbox *sb = open_sb(), *other = open_sb();
  assert_int_equal(vsh_write_file(sb, "/w/old", "old", 3, 0644), VSH_FS);
  assert_int_equal(vsh_mkdir(sb, "/w", 0), VSH_OK);
  assert_int_equal(vsh_write_file(sb, "/w/old", "old", 3, 0644), VSH_OK);
  assert_int_equal(vsh_symlink(sb, "/w/real", "/w/via"), VSH_OK);
  assert_int_equal(vsh_mkdir(sb, "/w/real", 0), VSH_OK);
  const vsh_file_init files[] = {
      {"a/b/c.txt", "c\n", 2, 0},
      {"a/b/d.txt", "d\n", 2, 0600},
      {"a/e.txt", "e\0x", 3, 0},
      {"a/b/f/g/h.txt", "h\n", 2, 0755},
      {"top.txt", "", 0, 0},
      {"old", "new\n", 4, 0},        /* replaced */
      {"via/in.txt", "in\n", 3, 0},  /* through a symlink */
      {"a/../up.txt", "up\n", 3, 0}, /* `..` */
      {".//a/./b/i.txt", "i\n", 2, 0},
      {"/usr/bin/mine", "#!x\n", 4, 0755}, /* absolute, in the layout */
  };
  size_t n = sizeof files / sizeof *files;
  assert_int_equal(vsh_import_files(sb, "/w", files, n), VSH_OK);
  expect(sb,
         "cd /w; find . | sort; cat a/b/c.txt a/b/d.txt old via/in.txt "
         "up.txt a/b/i.txt; od -An -c a/e.txt; stat -c '%a %U %s' a/b/d.txt "
         "a/b/f/g/h.txt top.txt a a/b/f /usr/bin/mine; cat /usr/bin/mine",
         ".\n./a\n./a/b\n./a/b/c.txt\n./a/b/d.txt\n./a/b/f\n./a/b/f/g\n"
         "./a/b/f/g/h.txt\n./a/b/i.txt\n./a/e.txt\n./old\n./real\n"
         "./real/in.txt\n./top.txt\n./up.txt\n./via\n"
         "c\nd\nnew\nin\nup\ni\n   e  \\0   x\n"
         "600 user 2\n755 user 2\n644 user 0\n755 user 4096\n755 user 4096\n"
         "755 user 4\n#!x\n");
  /* the shared layout is not changed for the others */
  assert_false(vsh_exists(other, "/usr/bin/mine"));
  /* the cwd is the default directory */
  const vsh_file_init one = {"here.txt", "h", 1, 0};
  assert_int_equal(vsh_import_files(sb, NULL, &one, 1), VSH_OK);
  assert_true(vsh_exists(sb, "/home/user/here.txt"));
  /* misuse */
  const vsh_file_init bad = {NULL, "x", 1, 0};
  assert_int_equal(vsh_import_files(sb, "/w", &bad, 1), VSH_MISUSE);
  assert_int_equal(vsh_import_files(sb, "/w", NULL, 1), VSH_MISUSE);
  assert_int_equal(vsh_import_files(sb, "/w", NULL, 0), VSH_OK);
  /* a file where a directory is wanted */
  const vsh_file_init under = {"top.txt/x", "x", 1, 0};
  assert_int_equal(vsh_import_files(sb, "/w", &under, 1), VSH_FS);
  assert_non_null(strstr(vsh_errmsg(sb), "top.txt/x"));
  vsh_close(other);
  vsh_close(sb);
}

static void test_quota(void **state) {
  (void)state;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.limits.max_fs_bytes = 1000;
  cfg.flags = VSH_CFG_NO_DEFAULT_LAYOUT;
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
  static char big[600];
  memset(big, 'x', sizeof big);
  const vsh_file_init files[] = {
      {"d/one", big, sizeof big, 0},
      {"d/two", big, sizeof big, 0},
      {"d/three", "3", 1, 0},
  };
  assert_int_equal(vsh_import_files(sb, "/q", files, 3), VSH_LIMIT);
  assert_true(vsh_exists(sb, "/q/d/one"));
  assert_false(vsh_exists(sb, "/q/d/two"));
  assert_false(vsh_exists(sb, "/q/d/three"));
  vsh_close(sb);
}

/* A host tree made for the test. */
static void put(const char *root, const char *rel, const char *data,
                mode_t mode) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, data, strlen(data)), (ssize_t)strlen(data));
  close(fd);
  assert_int_equal(chmod(p, mode), 0);
}

static void test_host_dir(void **state) {
  (void)state;
  char root[] = "/tmp/vsh-import-XXXXXX";
  assert_non_null(mkdtemp(root));
  char p[512];
  const char *dirs[] = {"src", "src/lib", "src/lib/deep", "empty"};
  for (int i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
    assert_int_equal(mkdir(p, 0755), 0);
  }
  put(root, "README", "read me\n", 0644);
  put(root, "src/main.c", "int main;\n", 0600);
  put(root, "src/lib/run.sh", "echo run\n", 0755);
  put(root, "src/lib/deep/x", "", 0644);
  snprintf(p, sizeof p, "%s/link", root);
  assert_int_equal(symlink("src/main.c", p), 0);
  snprintf(p, sizeof p, "%s/fifo", root);
  assert_int_equal(mkfifo(p, 0644), 0);

  vsh_sandbox *sb = open_sb();
  assert_int_equal(vsh_import_dir(sb, root, "/ws"), VSH_OK);
  expect(sb,
         "cd /ws; find . | sort; cat README link src/lib/run.sh; "
         "stat -c '%a %F' src/main.c src/lib/run.sh link empty",
         ".\n./README\n./empty\n./link\n./src\n./src/lib\n./src/lib/deep\n"
         "./src/lib/deep/x\n./src/lib/run.sh\n./src/main.c\n"
         "read me\nint main;\necho run\n"
         "600 regular file\n755 regular file\n777 symbolic link\n"
         "755 directory\n");
  /* a second import over the first replaces the files */
  put(root, "README", "again\n", 0644);
  assert_int_equal(vsh_import_dir(sb, root, "/ws"), VSH_OK);
  expect(sb, "cat /ws/README", "again\n");
  /* a missing host directory */
  assert_int_equal(vsh_import_dir(sb, "/nonexistent/vsh-import", "/x"), VSH_FS);
  vsh_close(sb);

  const char *rm[] = {"src/lib/deep/x", "src/lib/run.sh", "src/main.c",
                      "README",         "link",           "fifo"};
  for (int i = 0; i < 6; i++) {
    snprintf(p, sizeof p, "%s/%s", root, rm[i]);
    unlink(p);
  }
  for (int i = 3; i >= 0; i--) {
    snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
    rmdir(p);
  }
  rmdir(root);
}

/* The tree stays consistent (link counts, quota counters, balance) after
 * many files in many directories, in an order that jumps between them. */
static void test_consistent(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  vfs_import *im = NULL;
  assert_int_equal(vfs_import_begin(v, "/", "/data", &im), 0);
  char path[64];
  for (int i = 0; i < 2000; i++) {
    int d = (i * 7) % 23;
    snprintf(path, sizeof path, "d%d/s%d/f%d", d, i % 3, i);
    assert_int_equal(vfs_import_data(im, path, path, strlen(path), 0), 0);
  }
  assert_int_equal(vfs_import_mkdir(im, "d1/new/dir", 0700), 0);
  vfs_import_end(im);
  check_ok(v);
  char *data = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "d%d/s%d/f%d", (1997 * 7) % 23, 1997 % 3, 1997);
  assert_int_equal(vfs_read_file(v, "/data", path, &data, &len), 0);
  assert_string_equal(data, path);
  vfs_release(v, data);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, "/", "/data/d1/new/dir", &st), 0);
  assert_int_equal(st.mode, 0700);
  vfs_free(v);
  mem_unref(m);
}

/* The configuration's files go through the same import, relative to the
 * initial cwd. */
static void test_config_files(void **state) {
  (void)state;
  const vsh_file_init files[] = {
      {"src/a.txt", "a\n", 2, 0},
      {NULL, "skipped", 7, 0},
      {"/etc/app.conf", "k=v\n", 4, 0600},
      {"run.sh", "echo run\n", 9, 0755},
  };
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.cwd = "/workspace";
  cfg.files = files;
  cfg.nfiles = 4;
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
  expect(sb,
         "cat src/a.txt /etc/app.conf; ./run.sh; stat -c '%a %U' src src/a.txt "
         "/etc/app.conf",
         "a\nk=v\nrun\n755 user\n644 user\n600 user\n");
  vsh_close(sb);
  const vsh_file_init bad[] = {{"a/b", "x", 1, 0}, {"a/b/c", "y", 1, 0}};
  cfg.files = bad;
  cfg.nfiles = 2;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_FS);
  assert_null(sb);
}

/* An allocator that refuses every allocation after the first `left`. */
typedef struct failing {
  long left;
} failing;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)osize;
  failing *f = ud;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  if (f->left <= 0)
    return NULL;
  f->left--;
  return realloc(ptr, nsize);
}

/* Running out of memory at any point of an import ends it with VSH_NOMEM,
 * never a crash or a leak (the sanitizer build checks those), and the
 * sandbox goes on working. */
static void test_out_of_memory(void **state) {
  (void)state;
  const vsh_file_init files[] = {
      {"a/b/1", "one", 3, 0},   {"a/b/2", "two", 3, 0},
      {"a/c/3", "three", 5, 0}, {"d/e/f/4", "four", 4, 0},
      {"a/b/1", "again", 5, 0}, {"a/../5", "five", 4, 0},
  };
  int completed = 0;
  for (long n = 0; n < 400 && !completed; n++) {
    failing f = {1000000};
    vsh_config cfg;
    vsh_config_init(&cfg);
    cfg.alloc = failing_alloc;
    cfg.alloc_ud = &f;
    vsh_sandbox *sb = NULL;
    assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
    f.left = n;
    vsh_status st = vsh_import_files(sb, "/w", files, 6);
    assert_true(st == VSH_OK || st == VSH_NOMEM);
    completed = st == VSH_OK;
    f.left = 1000000;
    expect(sb, "echo ok", "ok\n");
    if (completed)
      expect(sb, "cat /w/a/b/1 /w/a/c/3 /w/d/e/f/4 /w/5", "againthreefourfive");
    vsh_close(sb);
  }
  assert_true(completed);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_files),        cmocka_unit_test(test_quota),
      cmocka_unit_test(test_host_dir),     cmocka_unit_test(test_consistent),
      cmocka_unit_test(test_config_files), cmocka_unit_test(test_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
