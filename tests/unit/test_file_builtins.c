// layers: core vfs builtins
/* Unit tests of the file builtins (mkdir, rmdir, rm, cp, mv, ln, chmod,
 * touch, ls, stat, readlink, realpath). Expected texts were checked against
 * GNU coreutils 9.1 on the development machine. */
#include "bi_harness.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>

#include "builtins/fileutil.h"

#define RUN(...) bh_run(h, NULL, __VA_ARGS__, NULL)
#define OUT_IS(s) assert_string_equal(bh_out(h), s)
#define ERR_IS(s) assert_string_equal(bh_err(h), s)

static fu_stat st_of(bh *h, const char *p) {
  fu_stat st;
  memset(&st, 0, sizeof st);
  assert_int_equal(vfs_lstat(h->vfs, h->cwd, p, &st), 0);
  return st;
}

static int exists(bh *h, const char *p) {
  fu_stat st;
  return vfs_lstat(h->vfs, h->cwd, p, &st) == 0;
}

static void assert_content(bh *h, const char *p, const char *want) {
  char *d = bh_read(h, p, NULL);
  assert_non_null(d);
  assert_string_equal(d, want);
  free(d);
}

/* ---- helpers ------------------------------------------------------------ */

/* The harness's context, filled in enough for the fileutil helpers. */
static bi_ctx *fu_ctx(bh *h) {
  bi_ctx *c = &h->c;
  c->m = h->m;
  c->scratch = &h->scratch;
  c->vfs = h->vfs;
  c->cwd = h->cwd;
  return c;
}

static const char *utf8_env(bi_ctx *c, const char *name) {
  (void)c;
  return strcmp(name, "LANG") == 0 ? "C.UTF-8" : NULL;
}

static void test_quote(void **state) {
  bh *h = bh_new();
  bi_ctx *c = fu_ctx(h);
  assert_string_equal(fu_quote(c, "a"), "'a'");
  assert_string_equal(fu_quote(c, "a b"), "'a b'");
  assert_string_equal(fu_quote(c, "a'b"), "\"a'b\"");
  assert_string_equal(fu_quote(c, "a'b$c"), "'a'\\''b$c'");
  assert_string_equal(fu_quote(c, "a\tb"), "'a'$'\\t''b'");
  assert_string_equal(fu_quote(c, "\001x"), "''$'\\001''x'");
  assert_string_equal(fu_quote(c, "\xff"), "''$'\\377'");
  /* no locale: the C locale prints no byte above 0x7f */
  assert_string_equal(fu_quote(c, "\xc3\xa9"), "''$'\\303\\251'");
  assert_string_equal(fu_quote(c, ""), "''");
  assert_string_equal(fu_quotef(c, "plain/name.txt"), "plain/name.txt");
  assert_string_equal(fu_quotef(c, "a b"), "'a b'");
  assert_string_equal(fu_quotef(c, "a:b"), "'a:b'");
  assert_string_equal(fu_quotef(c, "{}"), "{}");
  assert_string_equal(fu_quotef(c, "{"), "'{'");
  assert_string_equal(fu_quotef(c, "a~b"), "a~b");
  assert_string_equal(fu_quotef(c, "~b"), "'~b'");
  assert_string_equal(fu_quotef(c, "caf\xc3\xa9"), "'caf'$'\\303\\251'");
  c->getenv = utf8_env;
  assert_string_equal(fu_quote(c, "\xc3\xa9"), "'\xc3\xa9'");
  assert_string_equal(fu_quotef(c, "caf\xc3\xa9"), "caf\xc3\xa9");
  /* a C1 control is no printable character even in UTF-8 */
  assert_string_equal(fu_quotef(c, "a\xc2\x85"), "'a'$'\\302\\205'");
  bh_free(h);
}

static void test_modes(void **state) {
  bh *h = bh_new();
  bi_ctx *c = fu_ctx(h);
  struct {
    const char *mode;
    unsigned old;
    int dir;
    unsigned want;
  } cases[] = {
      {"755", 0644, 0, 0755},      {"u+x", 0644, 0, 0744},
      {"go-w", 0666, 0, 0644},     {"a=r", 0755, 0, 0444},
      {"+X", 0644, 0, 0644},       {"+X", 0644, 1, 0755},
      {"+X", 0744, 0, 0755},       {"=w", 0444, 0, 0200},
      {"u=rw,g=u", 0200, 0, 0660}, {"o=g", 0660, 0, 0666},
      {"u-s", 04755, 0, 0755},     {"+t", 0755, 1, 01755},
      {"g+s", 01755, 1, 03755},    {"700", 03755, 1, 02700},
      {"00755", 02755, 1, 0755},   {"a+rwx,u-x", 0, 0, 0677},
      {"-x", 0777, 0, 0666},       {"u+r-w", 0200, 0, 0400},
      {"a=rx", 06755, 0, 0555},    {"g=rx", 02755, 1, 02755},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fu_mode *m = fu_mode_parse(c, cases[i].mode);
    assert_non_null(m);
    unsigned got = fu_mode_apply(m, cases[i].old, cases[i].dir, 022);
    if (got != cases[i].want)
      fail_msg("%s on %o: got %o want %o", cases[i].mode, cases[i].old, got,
               cases[i].want);
  }
  assert_null(fu_mode_parse(c, "xyz"));
  assert_null(fu_mode_parse(c, "10000"));
  assert_null(fu_mode_parse(c, "u"));
  assert_null(fu_mode_parse(c, ""));
  char s[11];
  fu_mode_string(VFS_DIR, 02644, s);
  assert_string_equal(s, "drw-r-Sr--");
  fu_mode_string(VFS_REG, 07777, s);
  assert_string_equal(s, "-rwsrwsrwt");
  bh_free(h);
}

static void test_paths(void **state) {
  bh *h = bh_new();
  bi_ctx *c = fu_ctx(h);
  assert_string_equal(fu_basename(c, "a/b/"), "b");
  assert_string_equal(fu_basename(c, "/"), "/");
  assert_string_equal(fu_dirname(c, "a/b"), "a");
  assert_string_equal(fu_dirname(c, "b"), ".");
  assert_string_equal(fu_dirname(c, "/b"), "/");
  assert_string_equal(fu_relpath(c, "/a/b", "/a/c"), "../c");
  assert_string_equal(fu_relpath(c, "/a", "/a/b"), "b");
  assert_string_equal(fu_relpath(c, "/a/b", "/a"), "..");
  assert_string_equal(fu_relpath(c, "/", "/x"), "x");
  assert_string_equal(fu_relpath(c, "/ab", "/a"), "../a");
  assert_string_equal(fu_relpath(c, "/a", "/a"), ".");
  int err;
  assert_string_equal(fu_canon(c, "x/../y", FU_CANON_MISSING, &err),
                      "/home/user/y");
  assert_null(fu_canon(c, "x/y", FU_CANON_LAST, &err));
  assert_int_equal(err, ENOENT);
  bh_free(h);
}

/* ---- mkdir / rmdir ------------------------------------------------------ */

static void test_mkdir(void **state) {
  bh *h = bh_new();
  assert_int_equal(RUN("mkdir", "d"), 0);
  assert_int_equal(st_of(h, "d").type, VFS_DIR);
  assert_int_equal(st_of(h, "d").mode, 0755);
  assert_int_equal(RUN("mkdir", "d"), 1);
  ERR_IS("mkdir: cannot create directory 'd': File exists\n");
  assert_int_equal(RUN("mkdir", "a/b"), 1);
  ERR_IS("mkdir: cannot create directory 'a/b': No such file or directory\n");
  assert_int_equal(RUN("mkdir", "-pv", "a/b/c"), 0);
  OUT_IS("mkdir: created directory 'a'\nmkdir: created directory 'a/b'\n"
         "mkdir: created directory 'a/b/c'\n");
  assert_int_equal(RUN("mkdir", "-p", "a/b/c"), 0);
  OUT_IS("");
  assert_int_equal(RUN("mkdir", "-m", "700", "p"), 0);
  assert_int_equal(st_of(h, "p").mode, 0700);
  assert_int_equal(RUN("mkdir", "-m", "u=rwx,go=", "q", "-m", "777", "r"), 0);
  assert_int_equal(st_of(h, "r").mode, 0777); /* exact, despite the umask */
  assert_int_equal(RUN("mkdir", "-m", "7777x", "s"), 1);
  ERR_IS("mkdir: invalid mode '7777x'\n");
  assert_int_equal(RUN("mkdir"), 1);
  ERR_IS("mkdir: missing operand\nTry 'mkdir --help' for more information.\n");
  bh_write(h, "f", "");
  assert_int_equal(RUN("mkdir", "-p", "f/b"), 1);
  ERR_IS("mkdir: cannot create directory 'f': Not a directory\n");
  assert_int_equal(RUN("mkdir", "-p", "f"), 1);
  ERR_IS("mkdir: cannot create directory 'f': File exists\n");
  /* status of the whole run: one failure among successes */
  assert_int_equal(RUN("mkdir", "x1", "d", "x2"), 1);
  assert_true(exists(h, "x1") && exists(h, "x2"));
  bh_free(h);
}

static void test_rmdir(void **state) {
  bh *h = bh_new();
  RUN("mkdir", "-p", "p/q/r", "e");
  bh_write(h, "p/z", "");
  assert_int_equal(RUN("rmdir", "-pv", "p/q/r"), 1);
  OUT_IS("rmdir: removing directory, 'p/q/r'\n"
         "rmdir: removing directory, 'p/q'\n"
         "rmdir: removing directory, 'p'\n");
  ERR_IS("rmdir: failed to remove directory 'p': Directory not empty\n");
  assert_false(exists(h, "p/q"));
  assert_int_equal(RUN("rmdir", "p"), 1);
  ERR_IS("rmdir: failed to remove 'p': Directory not empty\n");
  assert_int_equal(RUN("rmdir", "--ignore-fail-on-non-empty", "p"), 0);
  ERR_IS("");
  assert_int_equal(RUN("rmdir", "p/z"), 1);
  ERR_IS("rmdir: failed to remove 'p/z': Not a directory\n");
  assert_int_equal(RUN("rmdir", "nope"), 1);
  ERR_IS("rmdir: failed to remove 'nope': No such file or directory\n");
  assert_int_equal(RUN("rmdir", "e"), 0);
  assert_false(exists(h, "e"));
  assert_int_equal(RUN("rmdir"), 1);
  bh_free(h);
}

/* ---- rm ----------------------------------------------------------------- */

static void test_rm(void **state) {
  bh *h = bh_new();
  bh_write(h, "f", "x");
  assert_int_equal(RUN("rm", "f"), 0);
  assert_false(exists(h, "f"));
  assert_int_equal(RUN("rm", "f"), 1);
  ERR_IS("rm: cannot remove 'f': No such file or directory\n");
  assert_int_equal(RUN("rm", "-f", "f"), 0);
  ERR_IS("");
  assert_int_equal(RUN("rm", "-f"), 0);
  assert_int_equal(RUN("rm"), 1);
  ERR_IS("rm: missing operand\nTry 'rm --help' for more information.\n");
  RUN("mkdir", "-p", "d/e");
  bh_write(h, "d/x", "");
  assert_int_equal(RUN("rm", "d"), 1);
  ERR_IS("rm: cannot remove 'd': Is a directory\n");
  assert_int_equal(RUN("rm", "-d", "d"), 1);
  ERR_IS("rm: cannot remove 'd': Directory not empty\n");
  assert_int_equal(RUN("rm", "-d", "d/e"), 0);
  RUN("mkdir", "d/e");
  assert_int_equal(RUN("rm", "-rv", "d"), 0);
  OUT_IS("removed directory 'd/e'\nremoved 'd/x'\nremoved directory 'd'\n");
  assert_false(exists(h, "d"));
  assert_int_equal(RUN("rm", "-r", "/"), 1);
  ERR_IS("rm: it is dangerous to operate recursively on '/'\n"
         "rm: use --no-preserve-root to override this failsafe\n");
  assert_int_equal(RUN("rm", "-rf", "//"), 1);
  ERR_IS("rm: it is dangerous to operate recursively on '//' (same as '/')\n"
         "rm: use --no-preserve-root to override this failsafe\n");
  RUN("mkdir", "d");
  assert_int_equal(RUN("rm", "-r", "d/.."), 1);
  ERR_IS("rm: refusing to remove '.' or '..' directory: skipping 'd/..'\n");
  /* a symlink is removed, not what it points to */
  bh_write(h, "t", "keep");
  vfs_symlink(h->vfs, h->cwd, "t", "l");
  assert_int_equal(RUN("rm", "l"), 0);
  assert_content(h, "t", "keep");
  bh_free(h);
}

static void test_rm_interactive(void **state) {
  bh *h = bh_new();
  bh_write(h, "e", "");
  assert_int_equal(bh_run(h, "n\n", "rm", "-i", "e", NULL), 0);
  ERR_IS("rm: remove regular empty file 'e'? ");
  assert_true(exists(h, "e"));
  assert_int_equal(bh_run(h, "y\n", "rm", "-i", "e", NULL), 0);
  assert_false(exists(h, "e"));
  RUN("mkdir", "-p", "d/e");
  bh_write(h, "d/e/f", "data");
  assert_int_equal(bh_run(h, "y\ny\nn\ny\n", "rm", "-ri", "d", NULL), 1);
  ERR_IS("rm: descend into directory 'd'? rm: descend into directory 'd/e'? "
         "rm: remove regular file 'd/e/f'? rm: remove directory 'd/e'? "
         "rm: cannot remove 'd/e': Directory not empty\n");
  assert_true(exists(h, "d/e/f"));
  /* end of input answers no */
  assert_int_equal(bh_run(h, "", "rm", "-ri", "d", NULL), 0);
  assert_true(exists(h, "d"));
  bh_write(h, "a", "");
  bh_write(h, "b", "");
  bh_write(h, "c", "");
  assert_int_equal(bh_run(h, "n\n", "rm", "-I", "a", "b", "c", "d/e/f", NULL),
                   0);
  ERR_IS("rm: remove 4 arguments? ");
  assert_true(exists(h, "a"));
  assert_int_equal(bh_run(h, "y\n", "rm", "-I", "-r", "d", NULL), 0);
  ERR_IS("rm: remove 1 argument recursively? ");
  assert_false(exists(h, "d"));
  bh_free(h);
}

/* ---- cp ----------------------------------------------------------------- */

static void test_cp(void **state) {
  bh *h = bh_new();
  bh_write(h, "f", "hi\n");
  RUN("mkdir", "d");
  assert_int_equal(RUN("cp", "-v", "f", "g"), 0);
  OUT_IS("'f' -> 'g'\n");
  assert_content(h, "g", "hi\n");
  assert_int_equal(RUN("cp", "f", "d"), 0);
  assert_content(h, "d/f", "hi\n");
  assert_int_equal(RUN("cp"), 1);
  ERR_IS("cp: missing file operand\nTry 'cp --help' for more information.\n");
  assert_int_equal(RUN("cp", "f"), 1);
  ERR_IS("cp: missing destination file operand after 'f'\n"
         "Try 'cp --help' for more information.\n");
  assert_int_equal(RUN("cp", "f", "g", "h"), 1);
  ERR_IS("cp: target 'h': No such file or directory\n");
  assert_int_equal(RUN("cp", "f", "d", "g"), 1);
  ERR_IS("cp: target 'g' is not a directory\n");
  assert_int_equal(RUN("cp", "d", "e"), 1);
  ERR_IS("cp: -r not specified; omitting directory 'd'\n");
  assert_int_equal(RUN("cp", "f", "f"), 1);
  ERR_IS("cp: 'f' and 'f' are the same file\n");
  assert_int_equal(RUN("cp", "nope", "x"), 1);
  ERR_IS("cp: cannot stat 'nope': No such file or directory\n");
  assert_int_equal(RUN("cp", "f", "nod/x"), 1);
  ERR_IS("cp: cannot create regular file 'nod/x': No such file or "
         "directory\n");
  assert_int_equal(RUN("cp", "-t", "nod", "f"), 1);
  ERR_IS("cp: target directory 'nod': No such file or directory\n");
  /* overwrite keeps the target's mode; -n keeps the target */
  bh_write(h, "g", "old");
  vfs_chmod(h->vfs, h->cwd, "g", 0600);
  assert_int_equal(RUN("cp", "f", "g"), 0);
  assert_content(h, "g", "hi\n");
  assert_int_equal(st_of(h, "g").mode, 0600);
  bh_write(h, "g", "old");
  assert_int_equal(RUN("cp", "-n", "f", "g"), 0);
  assert_content(h, "g", "old");
  assert_int_equal(bh_run(h, "n\n", "cp", "-i", "f", "g", NULL), 0);
  ERR_IS("cp: overwrite 'g'? ");
  assert_content(h, "g", "old");
  assert_int_equal(bh_run(h, "y\n", "cp", "-i", "f", "g", NULL), 0);
  assert_content(h, "g", "hi\n");
  /* new file: the source's mode minus the umask */
  vfs_chmod(h->vfs, h->cwd, "f", 0777);
  assert_int_equal(RUN("cp", "f", "n1"), 0);
  assert_int_equal(st_of(h, "n1").mode, 0755);
  assert_int_equal(RUN("cp", "-T", "f", "d"), 1);
  ERR_IS("cp: cannot overwrite directory 'd' with non-directory\n");
  bh_free(h);
}

static void test_cp_recursive(void **state) {
  bh *h = bh_new();
  RUN("mkdir", "-p", "s/t");
  bh_write(h, "s/t/y", "x");
  bh_write(h, "s/a", "A");
  vfs_symlink(h->vfs, h->cwd, "a", "s/l");
  assert_int_equal(RUN("cp", "-rv", "s", "s2"), 0);
  OUT_IS("'s' -> 's2'\n's/a' -> 's2/a'\n's/l' -> 's2/l'\n's/t' -> 's2/t'\n"
         "'s/t/y' -> 's2/t/y'\n");
  assert_content(h, "s2/t/y", "x");
  assert_int_equal(st_of(h, "s2/l").type, VFS_LNK); /* -r copies links */
  /* again: into the existing directory */
  assert_int_equal(RUN("cp", "-r", "s", "s2"), 0);
  assert_content(h, "s2/s/a", "A");
  assert_int_equal(RUN("cp", "-r", "s", "s/t"), 1);
  ERR_IS("cp: cannot copy a directory, 's', into itself, 's/t/s'\n");
  assert_false(exists(h, "s/t/s"));
  bh_write(h, "f", "");
  assert_int_equal(RUN("cp", "-r", "s", "f"), 1);
  ERR_IS("cp: cannot overwrite non-directory 'f' with directory 's'\n");
  /* -L copies what links point to */
  assert_int_equal(RUN("cp", "-rL", "s", "s3"), 0);
  assert_int_equal(st_of(h, "s3/l").type, VFS_REG);
  /* without -r, a link operand is followed */
  assert_int_equal(RUN("cp", "s/l", "cl"), 0);
  assert_int_equal(st_of(h, "cl").type, VFS_REG);
  /* trailing slashes */
  assert_int_equal(RUN("cp", "-r", "s/", "s4/"), 0);
  assert_content(h, "s4/a", "A");
  bh_free(h);
}

static void test_cp_preserve(void **state) {
  bh *h = bh_new();
  bh_write(h, "f", "data");
  vfs_chmod(h->vfs, h->cwd, "f", 0640);
  vfs_utimes(h->vfs, h->cwd, "f", INT64_C(1000000000) * 1000000,
             INT64_C(2000000000) * 1000000, 0);
  assert_int_equal(RUN("cp", "-p", "f", "g"), 0);
  fu_stat g = st_of(h, "g");
  assert_int_equal(g.mode, 0640);
  assert_int_equal(g.mtime_ns, INT64_C(2000000000) * 1000000);
  assert_int_equal(g.atime_ns, INT64_C(1000000000) * 1000000);
  /* -a keeps hard links as links */
  RUN("mkdir", "d");
  bh_write(h, "d/one", "same");
  vfs_link(h->vfs, h->cwd, "d/one", "d/two");
  assert_int_equal(RUN("cp", "-a", "d", "e"), 0);
  assert_int_equal(st_of(h, "e/one").ino, st_of(h, "e/two").ino);
  assert_int_not_equal(st_of(h, "e/one").ino, st_of(h, "d/one").ino);
  /* plain -r makes two files */
  assert_int_equal(RUN("cp", "-r", "d", "e2"), 0);
  assert_int_not_equal(st_of(h, "e2/one").ino, st_of(h, "e2/two").ino);
  assert_int_equal(RUN("cp", "--preserve=bogus", "f", "x"), 1);
  bh_free(h);
}

static void test_cp_atomic_on_quota(void **state) {
  bh *h = bh_new();
  bh_write(h, "big", "0123456789012345678901234567890123456789");
  bh_write(h, "t", "old");
  uint64_t used, inodes;
  vfs_usage(h->vfs, &used, &inodes);
  vfs_set_quota(h->vfs, used + 10, 0);
  assert_int_equal(RUN("cp", "big", "t"), 1);
  ERR_IS("cp: error writing 't': No space left on device\n");
  assert_content(h, "t", "old"); /* never half written */
  bh_free(h);
}

/* ---- mv ----------------------------------------------------------------- */

static void test_mv(void **state) {
  bh *h = bh_new();
  bh_write(h, "f", "hi");
  bh_write(h, "g", "g");
  RUN("mkdir", "-p", "d", "s/t", "e");
  bh_write(h, "e/f", "");
  assert_int_equal(RUN("mv", "-v", "f", "h"), 0);
  OUT_IS("renamed 'f' -> 'h'\n");
  assert_content(h, "h", "hi");
  assert_false(exists(h, "f"));
  assert_int_equal(RUN("mv", "h", "h"), 1);
  ERR_IS("mv: 'h' and 'h' are the same file\n");
  assert_int_equal(RUN("mv", "-n", "h", "g"), 0);
  assert_content(h, "g", "g");
  assert_int_equal(RUN("mv", "h", "g"), 0); /* over an existing file */
  assert_content(h, "g", "hi");
  assert_false(exists(h, "h"));
  assert_int_equal(RUN("mv", "g", "d"), 0); /* into a directory */
  assert_content(h, "d/g", "hi");
  assert_int_equal(RUN("mv", "s", "s/t"), 1);
  ERR_IS("mv: cannot move 's' to a subdirectory of itself, 's/t/s'\n");
  assert_int_equal(RUN("mv", "nope", "x"), 1);
  ERR_IS("mv: cannot stat 'nope': No such file or directory\n");
  assert_int_equal(RUN("mv", "-T", "d/g", "e"), 1);
  ERR_IS("mv: cannot overwrite directory 'e' with non-directory\n");
  assert_int_equal(RUN("mv", "-T", "s", "d/g"), 1);
  ERR_IS("mv: cannot overwrite non-directory 'd/g' with directory 's'\n");
  assert_int_equal(RUN("mv", "-t", "e", "d/g", "s"), 0);
  assert_true(exists(h, "e/g") && exists(h, "e/s/t"));
  assert_int_equal(RUN("mv", "x"), 1);
  ERR_IS("mv: missing destination file operand after 'x'\n"
         "Try 'mv --help' for more information.\n");
  assert_int_equal(bh_run(h, "n\n", "mv", "-i", "e/g", "e/f", NULL), 0);
  ERR_IS("mv: overwrite 'e/f'? ");
  assert_true(exists(h, "e/g"));
  bh_free(h);
}

/* ---- ln ----------------------------------------------------------------- */

static void test_ln(void **state) {
  bh *h = bh_new();
  bh_write(h, "a", "one");
  RUN("mkdir", "d");
  assert_int_equal(RUN("ln", "-v", "a", "c"), 0);
  OUT_IS("'c' => 'a'\n");
  assert_int_equal(st_of(h, "a").ino, st_of(h, "c").ino);
  assert_int_equal(st_of(h, "a").nlink, 2);
  /* hard links share content */
  bh_write(h, "c", "two");
  assert_content(h, "a", "two");
  assert_int_equal(RUN("ln", "-sv", "a", "b"), 0);
  OUT_IS("'b' -> 'a'\n");
  assert_int_equal(st_of(h, "b").type, VFS_LNK);
  assert_int_equal(RUN("ln", "-s", "a", "b"), 1);
  ERR_IS("ln: failed to create symbolic link 'b': File exists\n");
  assert_int_equal(RUN("ln", "a", "b"), 1);
  ERR_IS("ln: failed to create hard link 'b': File exists\n");
  assert_int_equal(RUN("ln", "-sf", "c", "b"), 0);
  char *t;
  size_t tl;
  assert_int_equal(vfs_readlink(h->vfs, h->cwd, "b", &t, &tl), 0);
  assert_string_equal(t, "c");
  vfs_release(h->vfs, t);
  assert_int_equal(RUN("ln", "d", "dl"), 1);
  ERR_IS("ln: d: hard link not allowed for directory\n");
  assert_int_equal(RUN("ln", "nope", "q"), 1);
  ERR_IS("ln: failed to access 'nope': No such file or directory\n");
  assert_int_equal(RUN("ln", "-s", "a", "nod/q"), 1);
  ERR_IS("ln: failed to create symbolic link 'nod/q': No such file or "
         "directory\n");
  assert_int_equal(RUN("ln"), 1);
  ERR_IS("ln: missing file operand\nTry 'ln --help' for more information.\n");
  /* one operand: a link of the same name here */
  assert_int_equal(RUN("ln", "-s", "/x/y"), 0);
  assert_int_equal(st_of(h, "y").type, VFS_LNK);
  /* into a directory; -n replaces a link to a directory */
  assert_int_equal(RUN("ln", "-sv", "d", "dd"), 0);
  assert_int_equal(RUN("ln", "-sv", "a", "dd"), 0);
  OUT_IS("'dd/a' -> 'a'\n");
  assert_int_equal(RUN("ln", "-snf", "a", "dd"), 0);
  assert_int_equal(vfs_readlink(h->vfs, h->cwd, "dd", &t, &tl), 0);
  assert_string_equal(t, "a");
  vfs_release(h->vfs, t);
  /* -r: relative to the link's directory */
  assert_int_equal(RUN("ln", "-svr", "a", "d/rel"), 0);
  OUT_IS("'d/rel' -> '../a'\n");
  assert_content(h, "d/rel", "two");
  bh_free(h);
}

/* ---- chmod -------------------------------------------------------------- */

static void test_chmod(void **state) {
  bh *h = bh_new();
  bh_write(h, "f", "x");
  RUN("mkdir", "d");
  bh_write(h, "d/x", "");
  vfs_symlink(h->vfs, h->cwd, "f", "l");
  assert_int_equal(RUN("chmod", "-v", "755", "f"), 0);
  OUT_IS("mode of 'f' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)\n");
  assert_int_equal(RUN("chmod", "-v", "755", "f"), 0);
  OUT_IS("mode of 'f' retained as 0755 (rwxr-xr-x)\n");
  assert_int_equal(RUN("chmod", "-c", "755", "f"), 0);
  OUT_IS("");
  assert_int_equal(RUN("chmod", "-c", "-w", "f"), 0);
  OUT_IS("mode of 'f' changed from 0755 (rwxr-xr-x) to 0555 (r-xr-xr-x)\n");
  assert_int_equal(RUN("chmod", "u+w,go-x", "f"), 0);
  assert_int_equal(st_of(h, "f").mode, 0744);
  assert_int_equal(RUN("chmod", "-Rv", "700", "d"), 0);
  OUT_IS("mode of 'd' changed from 0755 (rwxr-xr-x) to 0700 (rwx------)\n"
         "mode of 'd/x' changed from 0644 (rw-r--r--) to 0700 (rwx------)\n");
  assert_int_equal(RUN("chmod", "600", "l"), 0); /* follows the link */
  assert_int_equal(st_of(h, "f").mode, 0600);
  assert_int_equal(RUN("chmod"), 1);
  ERR_IS("chmod: missing operand\nTry 'chmod --help' for more information.\n");
  assert_int_equal(RUN("chmod", "755"), 1);
  ERR_IS("chmod: missing operand after '755'\n"
         "Try 'chmod --help' for more information.\n");
  assert_int_equal(RUN("chmod", "xyz", "f"), 1);
  ERR_IS("chmod: invalid mode: 'xyz'\n"
         "Try 'chmod --help' for more information.\n");
  assert_int_equal(RUN("chmod", "755", "nope"), 1);
  ERR_IS("chmod: cannot access 'nope': No such file or directory\n");
  assert_int_equal(RUN("chmod", "-f", "755", "nope"), 1);
  ERR_IS("");
  assert_int_equal(RUN("chmod", "--reference=d", "f"), 0);
  assert_int_equal(st_of(h, "f").mode, 0700);
  bh_free(h);
}

static void test_chmod_then_write_fails(void **state) {
  bh *h = bh_new();
  bh_write(h, "f", "x");
  assert_int_equal(RUN("chmod", "a-w", "f"), 0);
  /* the sandbox user (1000) is not root: writes are refused */
  assert_int_equal(vfs_write_file(h->vfs, h->cwd, "f", "y", 1, 0), -EACCES);
  assert_int_equal(RUN("cp", "/dev/null", "f"), 1);
  ERR_IS("cp: cannot open 'f' for writing: Permission denied\n");
  assert_int_equal(RUN("cp", "-f", "/dev/null", "f"), 0); /* unlink, retry */
  assert_content(h, "f", "");
  RUN("mkdir", "d");
  bh_write(h, "d/x", "");
  assert_int_equal(RUN("chmod", "555", "d"), 0);
  assert_int_equal(RUN("rm", "d/x"), 1);
  ERR_IS("rm: cannot remove 'd/x': Permission denied\n");
  assert_int_equal(RUN("touch", "d/new"), 1);
  ERR_IS("touch: cannot touch 'd/new': Permission denied\n");
  /* a directory without search permission still lists its names */
  RUN("mkdir", "-p", "nx/y");
  assert_int_equal(RUN("chmod", "u-x", "nx"), 0);
  assert_int_equal(RUN("ls", "nx"), 0);
  OUT_IS("y\n");
  assert_int_equal(RUN("ls", "-l", "nx"), 1);
  OUT_IS("total 0\nd????????? ? ? ? ?            ? y\n");
  ERR_IS("ls: cannot access 'nx/y': Permission denied\n");
  assert_int_equal(RUN("chmod", "755", "/bin"), 1);
  ERR_IS("chmod: changing permissions of '/bin': Operation not permitted\n");
  bh_free(h);
}

/* ---- touch -------------------------------------------------------------- */

static int64_t mtime(bh *h, const char *p) {
  return st_of(h, p).mtime_ns;
}
static int64_t atime(bh *h, const char *p) {
  return st_of(h, p).atime_ns;
}
#define SEC INT64_C(1000000000)

static void test_touch(void **state) {
  bh *h = bh_new();
  assert_int_equal(RUN("touch", "f"), 0);
  assert_int_equal(st_of(h, "f").size, 0);
  assert_int_equal(st_of(h, "f").mode, 0644);
  bh_write(h, "g", "keep");
  assert_int_equal(RUN("touch", "g"), 0);
  assert_content(h, "g", "keep");
  assert_int_equal(RUN("touch", "-c", "nope"), 0);
  assert_false(exists(h, "nope"));
  assert_int_equal(RUN("touch", "nod/x"), 1);
  ERR_IS("touch: cannot touch 'nod/x': No such file or directory\n");
  assert_int_equal(RUN("touch", "-d", "2024-01-02 03:04:05", "f"), 0);
  assert_int_equal(mtime(h, "f"), 1704164645 * SEC);
  assert_int_equal(atime(h, "f"), 1704164645 * SEC);
  assert_int_equal(RUN("touch", "-d", "@1700000000.5", "f"), 0);
  assert_int_equal(mtime(h, "f"), 1700000000 * SEC + SEC / 2);
  assert_int_equal(RUN("touch", "-d", "2024-01-02T03:04:05.25+02:00", "f"), 0);
  assert_int_equal(mtime(h, "f"), (1704164645 - 7200) * SEC + SEC / 4);
  assert_int_equal(RUN("touch", "-d", "2024-01-02", "f"), 0);
  assert_int_equal(mtime(h, "f"), 1704153600 * SEC);
  assert_int_equal(RUN("touch", "-d", "@-1", "f"), 0);
  assert_int_equal(mtime(h, "f"), -SEC);
  assert_int_equal(RUN("touch", "-t", "202301020304.05", "f"), 0);
  assert_int_equal(mtime(h, "f"), 1672628645 * SEC);
  assert_int_equal(RUN("touch", "-t", "2301020304", "f"), 0);
  assert_int_equal(mtime(h, "f"), 1672628640 * SEC);
  /* MMDDhhmm: this year (the harness clock is in 2001) */
  assert_int_equal(RUN("touch", "-t", "01020304", "f"), 0);
  assert_int_equal(mtime(h, "f"), 978404640 * SEC);
  assert_int_equal(RUN("touch", "-d", "bogus", "f"), 1);
  ERR_IS("touch: invalid date format 'bogus'\n");
  assert_int_equal(RUN("touch", "-t", "1", "f"), 1);
  ERR_IS("touch: invalid date format '1'\n");
  assert_int_equal(RUN("touch", "-d", "2024-02-30", "f"), 1);
  /* -a / -m change one time only */
  RUN("touch", "-d", "@100", "f");
  assert_int_equal(RUN("touch", "-a", "-d", "@200", "f"), 0);
  assert_int_equal(atime(h, "f"), 200 * SEC);
  assert_int_equal(mtime(h, "f"), 100 * SEC);
  assert_int_equal(RUN("touch", "-m", "-d", "@300", "f"), 0);
  assert_int_equal(atime(h, "f"), 200 * SEC);
  assert_int_equal(mtime(h, "f"), 300 * SEC);
  assert_int_equal(RUN("touch", "-r", "f", "g"), 0);
  assert_int_equal(mtime(h, "g"), 300 * SEC);
  assert_int_equal(RUN("touch", "-r", "nope", "g"), 1);
  ERR_IS("touch: failed to get attributes of 'nope': No such file or "
         "directory\n");
  /* -h: the link itself */
  vfs_symlink(h->vfs, h->cwd, "g", "l");
  assert_int_equal(RUN("touch", "-h", "-d", "@5", "l"), 0);
  assert_int_equal(mtime(h, "l"), 5 * SEC);
  assert_int_equal(mtime(h, "g"), 300 * SEC);
  /* through a dangling link: creates the target */
  vfs_symlink(h->vfs, h->cwd, "made", "dang");
  assert_int_equal(RUN("touch", "dang"), 0);
  assert_true(exists(h, "made"));
  assert_int_equal(RUN("touch"), 1);
  ERR_IS("touch: missing file operand\n"
         "Try 'touch --help' for more information.\n");
  bh_free(h);
}

/* ---- ls ----------------------------------------------------------------- */

/* A small tree with fixed times; the harness clock is 2001-09-09 01:46:40. */
static void ls_tree(bh *h) {
  bh_write(h, "f", "hello\n");
  vfs_chmod(h->vfs, h->cwd, "f", 0755);
  char big[5000];
  memset(big, 'x', sizeof big);
  bh_writen(h, "big", big, sizeof big);
  RUN("mkdir", "-p", "d/e");
  bh_write(h, "d/x", "");
  bh_write(h, ".hid", "");
  vfs_symlink(h->vfs, h->cwd, "f", "l");
  vfs_symlink(h->vfs, h->cwd, "d", "dl");
  RUN("touch", "-d", "2001-09-01 10:00", "f", "big", "d", "l", "dl", ".hid");
  RUN("touch", "-h", "-d", "2001-09-01 10:00", "l", "dl");
  RUN("touch", "-d", "2000-03-04 05:06", "big");
  RUN("touch", "-d", "2001-09-02 10:00", "d/x", "d/e");
}

static void test_ls_basic(void **state) {
  bh *h = bh_new();
  ls_tree(h);
  assert_int_equal(RUN("ls"), 0);
  OUT_IS("big\nd\ndl\nf\nl\n");
  assert_int_equal(RUN("ls", "-a"), 0);
  OUT_IS(".\n..\n.hid\nbig\nd\ndl\nf\nl\n");
  assert_int_equal(RUN("ls", "-A"), 0);
  OUT_IS(".hid\nbig\nd\ndl\nf\nl\n");
  assert_int_equal(RUN("ls", "-r"), 0);
  OUT_IS("l\nf\ndl\nd\nbig\n");
  assert_int_equal(RUN("ls", "-F"), 0);
  OUT_IS("big\nd/\ndl@\nf*\nl@\n");
  assert_int_equal(RUN("ls", "-p"), 0);
  OUT_IS("big\nd/\ndl\nf\nl\n");
  assert_int_equal(RUN("ls", "-S"), 0);
  OUT_IS("big\nd\nf\ndl\nl\n");
  assert_int_equal(RUN("ls", "-t", "d"), 0);
  OUT_IS("e\nx\n");
  assert_int_equal(RUN("ls", "-d", "d", "l", "f"), 0);
  OUT_IS("d\nf\nl\n");
  /* a link to a directory on the command line is followed */
  assert_int_equal(RUN("ls", "dl"), 0);
  OUT_IS("e\nx\n");
  assert_int_equal(RUN("ls", "f", "nope", "d"), 2);
  OUT_IS("f\n\nd:\ne\nx\n");
  ERR_IS("ls: cannot access 'nope': No such file or directory\n");
  assert_int_equal(RUN("ls", "-R"), 0);
  OUT_IS(".:\nbig\nd\ndl\nf\nl\n\n./d:\ne\nx\n\n./d/e:\n");
  assert_int_equal(RUN("ls", "-m"), 0);
  OUT_IS("big, d, dl, f, l\n");
  assert_int_equal(RUN("ls", "-C", "-w", "12"), 0);
  OUT_IS("big  f\nd    l\ndl\n");
  assert_int_equal(RUN("ls", "-C", "-w", "13"), 0);
  OUT_IS("big  dl  l\nd    f\n");
  assert_int_equal(RUN("ls", "-x", "-w", "12"), 0);
  OUT_IS("big  d\tdl\nf    l\n");
  assert_int_equal(RUN("ls", "--bogus"), 2);
  ERR_IS("ls: unrecognized option '--bogus'\n"
         "Try 'ls --help' for more information.\n");
  bh_free(h);
}

static void test_ls_long(void **state) {
  bh *h = bh_new();
  ls_tree(h);
  assert_int_equal(RUN("ls", "-l"), 0);
  OUT_IS("total 16\n"
         "-rw-r--r-- 1 user user 5000 Mar  4  2000 big\n"
         "drwxr-xr-x 3 user user 4096 Sep  1 10:00 d\n"
         "lrwxrwxrwx 1 user user    1 Sep  1 10:00 dl -> d\n"
         "-rwxr-xr-x 1 user user    6 Sep  1 10:00 f\n"
         "lrwxrwxrwx 1 user user    1 Sep  1 10:00 l -> f\n");
  assert_int_equal(RUN("ls", "-lh", "big", "d"), 0);
  OUT_IS("-rw-r--r-- 1 user user 4.9K Mar  4  2000 big\n"
         "\n"
         "d:\n"
         "total 4.0K\n"
         "drwxr-xr-x 2 user user 4.0K Sep  2 10:00 e\n"
         "-rw-r--r-- 1 user user    0 Sep  2 10:00 x\n");
  assert_int_equal(RUN("ls", "-lF", "l", "dl"), 0);
  OUT_IS("lrwxrwxrwx 1 user user 1 Sep  1 10:00 dl -> d/\n"
         "lrwxrwxrwx 1 user user 1 Sep  1 10:00 l -> f*\n");
  assert_int_equal(RUN("ls", "-ld", "/"), 0);
  assert_memory_equal(bh_out(h), "drwxr-xr-x ", 11);
  bh_free(h);
}

static void test_ls_long_root_check(void **state) {
  /* separated: the root directory's time is the vfs clock's */
  bh *h = bh_new();
  assert_int_equal(RUN("ls", "-n", "-d", "/tmp"), 0);
  assert_memory_equal(bh_out(h), "drwxrwxrwt 2 0 0 4096 ", 22);
  assert_int_equal(RUN("ls", "-g", "--full-time", "-d", "/tmp"), 0);
  assert_memory_equal(bh_out(h), "drwxrwxrwt 2 root 4096 ", 23);
  bh_free(h);
}

/* ---- stat --------------------------------------------------------------- */

static void test_stat(void **state) {
  bh *h = bh_new();
  bh_write(h, "f", "hello\n");
  RUN("touch", "-d", "2024-01-02 03:04:05", "f");
  vfs_symlink(h->vfs, h->cwd, "f", "l");
  RUN("mkdir", "d");
  fu_stat st = st_of(h, "f");
  assert_int_equal(RUN("stat", "f"), 0);
  char want[1024];
  snprintf(want, sizeof want,
           "  File: f\n"
           "  Size: 6         \tBlocks: 8          IO Block: 4096   regular "
           "file\n"
           "Device: 0,0\tInode: %-11llu Links: 1\n"
           "Access: (0644/-rw-r--r--)  Uid: ( 1000/    user)   Gid: ( 1000/  "
           "  user)\n"
           "Access: 2024-01-02 03:04:05.000000000 +0000\n"
           "Modify: 2024-01-02 03:04:05.000000000 +0000\n"
           "Change: %s\n"
           " Birth: -\n",
           (unsigned long long)st.ino,
           fu_time_full(&h->c, tz_utc(), st.ctime_ns));
  OUT_IS(want);
  assert_int_equal(RUN("stat", "-c", "%n|%N|%F|%f|%o|%b|%B|%h|%a|%A|%s|%U|%G",
                       "f", "l", "d"),
                   0);
  OUT_IS("f|'f'|regular file|81a4|4096|8|512|1|644|-rw-r--r--|6|user|user\n"
         "l|'l' -> 'f'|symbolic link|a1ff|4096|0|512|1|777|lrwxrwxrwx|1|user|"
         "user\n"
         "d|'d'|directory|41ed|4096|8|512|2|755|drwxr-xr-x|4096|user|user\n");
  assert_int_equal(
      RUN("stat", "-c", "%5s|%-5s|%05s|%.3y|%#a|%Y|%.3Y|%.Y|%Q", "f"), 0);
  OUT_IS("    6|6    |00006|202|0644|1704164645|1704164645.000|"
         "1704164645.000000000|?\n");
  assert_int_equal(RUN("stat", "--printf", "%n\\t%s\\n", "f"), 0);
  OUT_IS("f\t6\n");
  assert_int_equal(RUN("stat", "-L", "-c", "%F %s", "l"), 0);
  OUT_IS("regular file 6\n");
  assert_int_equal(RUN("stat", "-t", "d"), 0);
  fu_stat ds = st_of(h, "d");
  snprintf(want, sizeof want,
           "d 4096 8 41ed 1000 1000 0 %llu 2 0 0 %lld %lld %lld 0 4096\n",
           (unsigned long long)ds.ino, (long long)(ds.atime_ns / SEC),
           (long long)(ds.mtime_ns / SEC), (long long)(ds.ctime_ns / SEC));
  OUT_IS(want);
  assert_int_equal(RUN("stat", "nope"), 1);
  ERR_IS("stat: cannot statx 'nope': No such file or directory\n");
  assert_int_equal(RUN("stat"), 1);
  ERR_IS("stat: missing operand\nTry 'stat --help' for more information.\n");
  assert_int_equal(RUN("stat", "-c", "%F", "/dev/null"), 0);
  OUT_IS("character special file\n");
  bh_free(h);
}

/* ---- readlink / realpath ------------------------------------------------ */

/* A file f, a directory d/e and two links to f: l and d/up (relative). */
static void link_tree(bh *h) {
  bh_write(h, "f", "");
  RUN("mkdir", "-p", "d/e");
  vfs_symlink(h->vfs, h->cwd, "f", "l");
  vfs_symlink(h->vfs, h->cwd, "../f", "d/up");
}

static void test_readlink(void **state) {
  bh *h = bh_new();
  link_tree(h);
  vfs_symlink(h->vfs, h->cwd, "nope/x", "dang");
  vfs_symlink(h->vfs, h->cwd, "loop1", "loop2");
  vfs_symlink(h->vfs, h->cwd, "loop2", "loop1");
  assert_int_equal(RUN("readlink", "l"), 0);
  OUT_IS("f\n");
  assert_int_equal(RUN("readlink", "f"), 1);
  OUT_IS("");
  ERR_IS("");
  assert_int_equal(RUN("readlink", "-v", "f"), 1);
  ERR_IS("readlink: f: Invalid argument\n");
  assert_int_equal(RUN("readlink", "-f", "l", "d/up", "d/e/../../l"), 0);
  OUT_IS("/home/user/f\n/home/user/f\n/home/user/f\n");
  assert_int_equal(RUN("readlink", "-f", "dang"), 1);
  assert_int_equal(RUN("readlink", "-f", "nope"), 0);
  OUT_IS("/home/user/nope\n");
  assert_int_equal(RUN("readlink", "-e", "nope"), 1);
  assert_int_equal(RUN("readlink", "-m", "dang/../q"), 0);
  OUT_IS("/home/user/nope/q\n");
  assert_int_equal(RUN("readlink", "-n", "l"), 0);
  OUT_IS("f");
  assert_int_equal(RUN("readlink", "-ev", "loop1"), 1);
  ERR_IS("readlink: loop1: Too many levels of symbolic links\n");
  assert_int_equal(RUN("readlink", "-f", "f/"), 1);
  assert_int_equal(RUN("readlink", "-z", "l", "l"), 0);
  assert_int_equal(h->out.len, 4);
  assert_memory_equal(h->out.data, "f\0f\0", 4);
  assert_int_equal(RUN("readlink"), 1);
  ERR_IS("readlink: missing operand\n"
         "Try 'readlink --help' for more information.\n");
  bh_free(h);
}

static void test_realpath(void **state) {
  bh *h = bh_new();
  link_tree(h);
  assert_int_equal(RUN("realpath", "l", "d/up", "nope"), 0);
  OUT_IS("/home/user/f\n/home/user/f\n/home/user/nope\n");
  assert_int_equal(RUN("realpath", "nope/x"), 1);
  ERR_IS("realpath: nope/x: No such file or directory\n");
  assert_int_equal(RUN("realpath", "-q", "nope/x"), 1);
  ERR_IS("");
  assert_int_equal(RUN("realpath", "-e", "nope"), 1);
  ERR_IS("realpath: nope: No such file or directory\n");
  assert_int_equal(RUN("realpath", "-m", "nope/x/../y"), 0);
  OUT_IS("/home/user/nope/y\n");
  assert_int_equal(RUN("realpath", "-s", "d/up"), 0);
  OUT_IS("/home/user/d/up\n");
  assert_int_equal(RUN("realpath", "--relative-to=d", "f", "d/e", "/tmp"), 0);
  OUT_IS("../f\ne\n../../../tmp\n");
  assert_int_equal(RUN("realpath", "--relative-base=/home/user", "f", "/usr"),
                   0);
  OUT_IS("f\n/usr\n");
  assert_int_equal(RUN("realpath", "-e", "f/"), 1);
  ERR_IS("realpath: f/: Not a directory\n");
  assert_int_equal(RUN("realpath", "-sm", "../x//y/"), 0);
  OUT_IS("/home/x/y\n");
  assert_int_equal(RUN("realpath", "-L", "d/e/../up"), 0);
  OUT_IS("/home/user/f\n");
  assert_int_equal(RUN("realpath"), 1);
  ERR_IS("realpath: missing operand\n"
         "Try 'realpath --help' for more information.\n");
  bh_free(h);
}

/* ---- common options ----------------------------------------------------- */

static void test_help_version_bad_option(void **state) {
  static const char *const cmds[] = {"chmod", "cp",    "ln",       "ls",
                                     "mkdir", "mv",    "readlink", "realpath",
                                     "rm",    "rmdir", "stat",     "touch"};
  bh *h = bh_new();
  for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
    const char *n = cmds[i];
    assert_int_equal(RUN(n, "--help"), 0);
    char want[64];
    snprintf(want, sizeof want, "Usage: %s ", n);
    assert_memory_equal(bh_out(h), want, strlen(want));
    assert_int_equal(RUN(n, "--version"), 0);
    assert_memory_equal(bh_out(h), n, strlen(n));
    int st = RUN(n, "--bogus");
    assert_int_equal(st, strcmp(n, "ls") ? 1 : 2);
    char err[128];
    snprintf(err, sizeof err,
             "%s: unrecognized option '--bogus'\n"
             "Try '%s --help' for more information.\n",
             n, n);
    ERR_IS(err);
  }
  bh_free(h);
}

static void test_misc_edges(void **state) {
  bh *h = bh_new();
  bh_write(h, "a", "");
  /* ln -f onto an existing link of the same file is a no-op, onto the same
   * name an error (removing it would lose the file) */
  assert_int_equal(RUN("ln", "a", "b"), 0);
  assert_int_equal(RUN("ln", "-f", "a", "b"), 0);
  assert_int_equal(RUN("ln", "-f", "a", "a"), 1);
  ERR_IS("ln: 'a' and 'a' are the same file\n");
  assert_true(exists(h, "a"));
  /* ls -Q */
  vfs_symlink(h->vfs, h->cwd, "a", "x\"y");
  assert_int_equal(RUN("ls", "-Q"), 0);
  OUT_IS("\"a\"\n\"b\"\n\"x\\\"y\"\n");
  /* cp to a name ending in a slash that does not exist */
  assert_int_equal(RUN("cp", "a", "nod/"), 1);
  ERR_IS("cp: cannot create regular file 'nod/': Not a directory\n");
  /* quoting of odd names in messages */
  assert_int_equal(RUN("rm", "it's"), 1);
  ERR_IS("rm: cannot remove \"it's\": No such file or directory\n");
  assert_int_equal(RUN("rm", "a\tb"), 1);
  ERR_IS("rm: cannot remove 'a'$'\\t''b': No such file or directory\n");
  bh_free(h);
}

static void test_cancel_in_tree_walk(void **state) {
  bh *h = bh_new();
  assert_int_equal(RUN("mkdir", "d"), 0);
  char name[32];
  for (int i = 0; i < 1000; i++) {
    snprintf(name, sizeof name, "d/f%04d", i);
    bh_write(h, name, "");
  }
  atomic_int cancel = 1;
  h->bud.cancel = &cancel;
  RUN("rm", "-r", "d");
  /* stopped within a few hundred entries, the rest left in place */
  assert_true(exists(h, "d/f0999"));
  RUN("ls", "-R", "d");
  assert_true(h->out.len < 1000 * 6);
  h->bud.cancel = NULL;
  assert_int_equal(RUN("rm", "-r", "d"), 0);
  assert_false(exists(h, "d"));
  bh_free(h);
}

/* ---- scenarios ---------------------------------------------------------- */

static void test_scenario(void **state) {
  bh *h = bh_new();
  assert_int_equal(RUN("mkdir", "-p", "proj/src/lib"), 0);
  bh_write(h, "proj/src/main.c", "int main(void){}\n");
  bh_write(h, "proj/src/lib/util.c", "/* util */\n");
  assert_int_equal(RUN("cp", "-r", "proj", "backup"), 0);
  assert_int_equal(RUN("mv", "backup/src/main.c", "backup/src/app.c"), 0);
  assert_int_equal(RUN("ln", "-s", "src/app.c", "backup/app"), 0);
  assert_int_equal(RUN("ls", "-R", "backup"), 0);
  OUT_IS("backup:\napp\nsrc\n\nbackup/src:\napp.c\nlib\n\nbackup/src/lib:\n"
         "util.c\n");
  assert_int_equal(RUN("readlink", "-f", "backup/app"), 0);
  OUT_IS("/home/user/backup/src/app.c\n");
  assert_int_equal(RUN("rm", "-r", "proj"), 0);
  assert_int_equal(RUN("ls"), 0);
  OUT_IS("backup\n");
  assert_content(h, "backup/app", "int main(void){}\n");
  char msg[256];
  assert_int_equal(vfs_check(h->vfs, msg, sizeof msg), 0);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_quote),
      cmocka_unit_test(test_modes),
      cmocka_unit_test(test_paths),
      cmocka_unit_test(test_mkdir),
      cmocka_unit_test(test_rmdir),
      cmocka_unit_test(test_rm),
      cmocka_unit_test(test_rm_interactive),
      cmocka_unit_test(test_cp),
      cmocka_unit_test(test_cp_recursive),
      cmocka_unit_test(test_cp_preserve),
      cmocka_unit_test(test_cp_atomic_on_quota),
      cmocka_unit_test(test_mv),
      cmocka_unit_test(test_ln),
      cmocka_unit_test(test_chmod),
      cmocka_unit_test(test_chmod_then_write_fails),
      cmocka_unit_test(test_touch),
      cmocka_unit_test(test_ls_basic),
      cmocka_unit_test(test_ls_long),
      cmocka_unit_test(test_ls_long_root_check),
      cmocka_unit_test(test_stat),
      cmocka_unit_test(test_readlink),
      cmocka_unit_test(test_realpath),
      cmocka_unit_test(test_help_version_bad_option),
      cmocka_unit_test(test_misc_edges),
      cmocka_unit_test(test_cancel_in_tree_walk),
      cmocka_unit_test(test_scenario),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
