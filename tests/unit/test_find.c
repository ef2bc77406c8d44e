// layers: core vfs builtins shell
/* Unit tests of find and xargs. Expected outputs were checked against GNU
 * findutils 4.9.0 (C locale) on the development machine, allowing for the
 * documented difference: directories are read in byte order of names. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>

#include "bi_harness.h"

/* ---- a command runner for -exec and xargs --------------------------------
 * Dispatches to the builtins table, plus two test commands:
 *   ret N        exits with status N
 *   log ARGS...  appends "ARGS...\n" to the log (h->ud is a buf) */
static int dispatch(bi_ctx *c, char **argv, stream *in, stream *out,
                    stream *err) {
  bh *h = (bh *)c;
  int argc = 0;
  while (argv[argc])
    argc++;
  if (strcmp(argv[0], "ret") == 0)
    return atoi(argv[1]);
  if (strcmp(argv[0], "log") == 0) {
    buf *b = h->ud;
    for (int i = 1; i < argc; i++) {
      if (i > 1)
        buf_putc(b, ' ');
      buf_puts(b, argv[i]);
    }
    buf_putc(b, '\n');
    return 0;
  }
  if (strcmp(argv[0], "readall") == 0) {
    /* proves that a command's stdin is empty */
    char tmp[16];
    long n = stream_read(in ? in : c->in, tmp, sizeof tmp);
    stream_printf(out ? out : c->out, "read %ld\n", n);
    return 0;
  }
  const bi_def *d = bi_lookup(argv[0]);
  if (!d) {
    stream_printf(err ? err : c->err, "%s: command not found\n", argv[0]);
    return 127;
  }
  bi_ctx sub = *c;
  sub.argc = argc;
  sub.argv = argv;
  if (in)
    sub.in = in;
  if (out)
    sub.out = out;
  if (err)
    sub.err = err;
  arena_mark mk = arena_save(c->scratch);
  int st = d->fn(&sub);
  arena_release(c->scratch, mk);
  return st;
}

typedef struct fixture {
  bh *h;
  buf log;
} fixture;

static bh *H(void **state) {
  return ((fixture *)*state)->h;
}
static const char *LOG(void **state) {
  return buf_cstr(&((fixture *)*state)->log);
}

static void mktree(bh *h) {
  struct vfs *v = h->vfs;
  assert_int_equal(vfs_mkdir_p(v, h->cwd, "d/sub/deep", 0755), 0);
  assert_int_equal(vfs_mkdir(v, h->cwd, "d/empty", 0755), 0);
  bh_write(h, "d/a.txt", "hello");
  bh_write(h, "d/b.c", "");
  char big[2000];
  memset(big, 'x', sizeof big);
  bh_writen(h, "d/sub/c.txt", big, sizeof big);
  bh_write(h, "d/sub/deep/e.TXT", "x");
  assert_int_equal(vfs_symlink(v, h->cwd, "a.txt", "d/link"), 0);
  assert_int_equal(vfs_symlink(v, h->cwd, "nowhere", "d/broken"), 0);
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  f->h = bh_new();
  buf_init(&f->log, f->h->m);
  f->h->ud = &f->log;
  f->h->run_argv = dispatch;
  mktree(f->h);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  buf_free(&f->log);
  bh_free(f->h);
  free(f);
  return 0;
}

#define RUN(...) bh_run(h, NULL, __VA_ARGS__, NULL)
#define EXPECT(st, out, ...)                                                   \
  do {                                                                         \
    int st_ = bh_run(h, NULL, __VA_ARGS__, NULL);                              \
    assert_string_equal(bh_out(h), out);                                       \
    assert_int_equal(st_, st);                                                 \
  } while (0)
#define EXPECT_IN(in, st, out, ...)                                            \
  do {                                                                         \
    int st_ = bh_run(h, in, __VA_ARGS__, NULL);                                \
    assert_string_equal(bh_out(h), out);                                       \
    assert_int_equal(st_, st);                                                 \
  } while (0)

static const char all_d[] = "d\nd/a.txt\nd/b.c\nd/broken\nd/empty\nd/link\n"
                            "d/sub\nd/sub/c.txt\nd/sub/deep\n"
                            "d/sub/deep/e.TXT\n";

/* ---- walk and starting points -------------------------------------------- */

static void t_default(void **state) {
  bh *h = H(state);
  EXPECT(0, all_d, "find", "d");
  EXPECT(0, all_d, "find", "d", "-print");
  EXPECT(0, "./d/sub/deep/e.TXT\n", "find", "-name", "e.TXT");
  EXPECT(0, "d/\nd/a.txt\n", "find", "d/", "-maxdepth", "1", "-name", "[da]*");
  /* several starting points, in the given order */
  EXPECT(0, "d/sub/deep\nd/sub/deep/e.TXT\nd/b.c\n", "find", "d/sub/deep",
         "d/b.c");
  EXPECT(0, "/home/user/d/b.c\n", "find", "/home/user/d", "-name", "b.c");
}

static void t_missing(void **state) {
  bh *h = H(state);
  EXPECT(1, "d/b.c\n", "find", "nope", "d/b.c");
  assert_string_equal(bh_err(h), "find: 'nope': No such file or directory\n");
  EXPECT(1, "", "find", "");
  assert_string_equal(bh_err(h), "find: '': No such file or directory\n");
}

static void t_depth_limits(void **state) {
  bh *h = H(state);
  EXPECT(0, "d\n", "find", "d", "-maxdepth", "0");
  EXPECT(0, "d/sub/c.txt\nd/sub/deep\n", "find", "d", "-mindepth", "2",
         "-maxdepth", "2");
  /* options are true: nothing is printed past the -o */
  EXPECT(0, "", "find", "d/sub", "-depth", "-mindepth", "1", "-o", "-print");
  EXPECT(0, "d/sub/c.txt\nd/sub/deep/e.TXT\nd/sub/deep\n", "find", "d/sub",
         "-depth", "-mindepth", "1");
  EXPECT(0,
         "d/a.txt\nd/b.c\nd/broken\nd/empty\nd/link\nd/sub/c.txt\n"
         "d/sub/deep/e.TXT\nd/sub/deep\nd/sub\nd\n",
         "find", "d", "-depth");
  EXPECT(1, "", "find", "-maxdepth", "x");
  assert_string_equal(bh_err(h), "find: Expected a positive decimal integer "
                                 "argument to -maxdepth, but got 'x'\n");
  EXPECT(1, "", "find", ".", "-mindepth", "-1");
}

/* ---- tests ------------------------------------------------------------------
 */

static void t_name_path(void **state) {
  bh *h = H(state);
  EXPECT(0, "d/a.txt\nd/sub/c.txt\n", "find", "d", "-name", "*.txt");
  EXPECT(0, "d/a.txt\nd/sub/c.txt\nd/sub/deep/e.TXT\n", "find", "d", "-iname",
         "*.TXT");
  EXPECT(0, "d/b.c\n", "find", "d", "-name", "?.[ch]");
  EXPECT(0, "d/sub/c.txt\nd/sub/deep\nd/sub/deep/e.TXT\n", "find", "d", "-path",
         "d/sub/*");
  EXPECT(0, "d/sub/deep/e.TXT\n", "find", "d", "-ipath", "*DEEP/*", "-type",
         "f");
  EXPECT(0, "d/sub/deep\n", "find", "d", "-wholename", "*p");
  EXPECT(0, "d/link\n", "find", "d", "-lname", "*.txt");
  /* a dotfile matches '*': find's -name has no leading-dot rule */
  bh_write(h, "d/.hid", "");
  EXPECT(0, "d/.hid\n", "find", "d", "-maxdepth", "1", "-name", "*hid");
  EXPECT(0, "d/.hid\n", "find", "d", "-name", "\\.h*");
}

static void t_regex(void **state) {
  bh *h = H(state);
  EXPECT(0, "d/b.c\n", "find", "d", "-regex", ".*\\.c");
  /* the whole path must match */
  EXPECT(0, "", "find", "d", "-regex", "b\\.c");
  EXPECT(0, "d/a.txt\nd/b.c\n", "find", "d", "-regex", "d/\\(a\\|b\\)\\..*");
  EXPECT(0, "d/a.txt\nd/b.c\n", "find", "d", "-regextype", "posix-extended",
         "-regex", "d/(a|b)\\..*");
  EXPECT(0, "d/a.txt\nd/b.c\n", "find", "d", "-regextype", "egrep", "-regex",
         "d/[ab]\\.[a-z]+");
  EXPECT(0, "d/sub/deep/e.TXT\n", "find", "d", "-iregex", ".*e\\.txt");
  /* emacs syntax: ( | { } are literal */
  bh_write(h, "d/(x)", "");
  EXPECT(0, "d/(x)\n", "find", "d", "-regex", "d/(x)");
  EXPECT(0, "d/a.txt\n", "find", "d", "-regextype", "posix-basic", "-regex",
         "d/a\\{1\\}\\..*");
  EXPECT(1, "", "find", "d", "-regextype", "perl", "-regex", "x");
  assert_string_equal(
      bh_err(h), "find: Unknown regular expression type 'perl'; valid types "
                 "are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', "
                 "'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', "
                 "'posix-extended', 'posix-minimal-basic', 'sed'.\n");
  EXPECT(1, "", "find", "d", "-regextype", "posix-extended", "-regex", "(");
  assert_non_null(strstr(bh_err(h), "failed to compile regular expression"));
  /* No backtracking limit changes the answer; back-references, which need
   * backtracking, stop with an error at its limit. */
  bh_write(h, "d/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "");
  EXPECT(0, "d/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n", "find", "d",
         "-regextype", "posix-extended", "-regex", ".*/(a|aa)+c|.*/a+b");
  EXPECT(1, "", "find", "d", "-regextype", "posix-extended", "-regex",
         ".*/(a|aa)+\\1c|.*/a+b");
  assert_string_equal(bh_err(h),
                      "find: -regex: exceeded PCRE's backtracking limit\n");
}

static void t_type(void **state) {
  bh *h = H(state);
  EXPECT(0, "d/a.txt\nd/b.c\nd/sub/c.txt\nd/sub/deep/e.TXT\n", "find", "d",
         "-type", "f");
  EXPECT(0, "d\nd/empty\nd/sub\nd/sub/deep\n", "find", "d", "-type", "d");
  EXPECT(0, "d/broken\nd/link\n", "find", "d", "-type", "l");
  EXPECT(0, "d/a.txt\nd/b.c\nd/broken\nd/link\n", "find", "d", "-maxdepth", "1",
         "-type", "f,l", "-name", "*[a-z]");
  EXPECT(0, "", "find", "d", "-type", "s");
  EXPECT(0, "/dev/null\n", "find", "/dev/null", "-type", "c");
  /* -xtype looks through the link; a dangling one stays l */
  EXPECT(0, "d/a.txt\nd/b.c\nd/link\nd/sub/c.txt\nd/sub/deep/e.TXT\n", "find",
         "d", "-xtype", "f");
  EXPECT(0, "d/broken\n", "find", "d", "-xtype", "l");
  EXPECT(1, "", "find", "d", "-type", "x");
  assert_string_equal(bh_err(h), "find: Unknown argument to -type: x\n");
  EXPECT(1, "", "find", "d", "-type", "f,f");
  EXPECT(1, "", "find", "d", "-type");
  assert_string_equal(bh_err(h), "find: missing argument to '-type'\n");
}

static void t_follow(void **state) {
  bh *h = H(state);
  EXPECT(0, "d/a.txt\nd/b.c\nd/link\nd/sub/c.txt\nd/sub/deep/e.TXT\n", "find",
         "-L", "d", "-type", "f");
  EXPECT(0, "d/broken\n", "find", "-L", "d", "-type", "l");
  /* -H follows a link named on the command line only */
  assert_int_equal(vfs_symlink(h->vfs, h->cwd, "d/sub", "tosub"), 0);
  EXPECT(0, "tosub\n", "find", "tosub");
  EXPECT(0, "tosub\ntosub/c.txt\ntosub/deep\ntosub/deep/e.TXT\n", "find", "-H",
         "tosub");
  EXPECT(0, "tosub\n", "find", "-P", "tosub");
  /* a loop through a followed link is reported, not walked forever */
  assert_int_equal(vfs_symlink(h->vfs, h->cwd, "..", "d/sub/deep/up"), 0);
  int st = RUN("find", "-L", "d/sub", "-name", "up");
  assert_int_equal(st, 1);
  assert_string_equal(bh_out(h), "d/sub/deep/up\n");
  assert_string_equal(bh_err(h),
                      "find: File system loop detected; 'd/sub/deep/up' is "
                      "part of the same file system loop as 'd/sub'.\n");
}

static void t_size_empty(void **state) {
  bh *h = H(state);
  EXPECT(0, "d/sub/c.txt\n", "find", "d", "-type", "f", "-size", "+1k");
  /* a symlink's size is its target's length */
  EXPECT(0, "d/a.txt\nd/link\n", "find", "d", "-size", "5c");
  /* sizes round up: -size -1M is true only for empty files */
  EXPECT(0, "d/b.c\n", "find", "d", "-type", "f", "-size", "-1M");
  EXPECT(0, "d/sub/c.txt\n", "find", "d", "-type", "f", "-size", "4");
  EXPECT(0, "d/sub/c.txt\n", "find", "d", "-type", "f", "-size", "1000w");
  EXPECT(0, "d\nd/empty\nd/sub\nd/sub/deep\n", "find", "d", "-size", "4k");
  EXPECT(0, "d/b.c\nd/empty\n", "find", "d", "-empty");
  EXPECT(1, "", "find", "d", "-size", "3q");
  assert_string_equal(bh_err(h), "find: invalid -size type 'q'\n");
  EXPECT(1, "", "find", "d", "-size", "x");
}

static void set_mtime(bh *h, const char *p, int64_t sec_ago) {
  int64_t t = h->now_ns - sec_ago * INT64_C(1000000000);
  assert_int_equal(vfs_utimes(h->vfs, h->cwd, p, t, t, 0), 0);
}

static void t_times(void **state) {
  bh *h = H(state);
  set_mtime(h, "d", 0);
  set_mtime(h, "d/a.txt", 3600);          /* 1 hour */
  set_mtime(h, "d/b.c", 86400 + 10);      /* 1 day */
  set_mtime(h, "d/sub/c.txt", 3 * 86400); /* 3 days */
  set_mtime(h, "d/sub/deep/e.TXT", 90);   /* 1.5 minutes */
  EXPECT(0, "d/a.txt\nd/sub/deep/e.TXT\n", "find", "d", "-type", "f", "-mtime",
         "0");
  EXPECT(0, "d/b.c\n", "find", "d", "-type", "f", "-mtime", "1");
  EXPECT(0, "d/sub/c.txt\n", "find", "d", "-type", "f", "-mtime", "+1");
  EXPECT(0, "d/a.txt\nd/sub/deep/e.TXT\n", "find", "d", "-type", "f", "-mtime",
         "-1");
  EXPECT(0, "d/sub/deep/e.TXT\n", "find", "d", "-type", "f", "-mmin", "-2");
  EXPECT(0, "d/sub/deep/e.TXT\n", "find", "d", "-type", "f", "-mmin", "1");
  EXPECT(0, "d/a.txt\nd/b.c\nd/sub/c.txt\n", "find", "d", "-type", "f", "-mmin",
         "+2");
  EXPECT(0, "d/a.txt\nd/sub/deep/e.TXT\n", "find", "d", "-type", "f", "-newer",
         "d/b.c");
  EXPECT(0, "d/sub/deep/e.TXT\n", "find", "d", "-type", "f", "-newermt",
         "@999999800");
  EXPECT(0, "d/sub/c.txt\n", "find", "d", "-type", "f", "!", "-newermt",
         "2001-09-07 01:46:40");
  EXPECT(1, "", "find", "d", "-mtime", "x");
  assert_string_equal(bh_err(h), "find: invalid argument 'x' to '-mtime'\n");
  EXPECT(1, "", "find", "d", "-newer", "nope");
  assert_string_equal(bh_err(h), "find: 'nope': No such file or directory\n");
}

static void t_perm_owner(void **state) {
  bh *h = H(state);
  assert_int_equal(vfs_chmod(h->vfs, h->cwd, "d/a.txt", 0755), 0);
  assert_int_equal(vfs_chmod(h->vfs, h->cwd, "d/b.c", 0666), 0);
  EXPECT(0, "d/a.txt\n", "find", "d", "-type", "f", "-perm", "755");
  EXPECT(0, "d/a.txt\n", "find", "d", "-type", "f", "-perm", "-u+x");
  EXPECT(0, "d/b.c\n", "find", "d", "-type", "f", "-perm", "/o+w");
  EXPECT(0, "d/a.txt\nd/b.c\n", "find", "d", "-type", "f", "-perm", "/111",
         "-o", "-type", "f", "-perm", "-g=w");
  EXPECT(0, "d/b.c\n", "find", "d", "-type", "f", "-perm", "u=rw,g=rw,o=rw");
  EXPECT(1, "", "find", "d", "-perm", "999");
  assert_string_equal(bh_err(h), "find: invalid mode '999'\n");
  EXPECT(0, "d/a.txt\n", "find", "d", "-name", "a.txt", "-user", "user",
         "-group", "user", "-uid", "1000", "-gid", "-1001");
  EXPECT(0, "", "find", "d", "-user", "root");
  EXPECT(0, "", "find", "d", "-nouser", "-o", "-nogroup");
  EXPECT(1, "", "find", "d", "-user", "bob");
  assert_string_equal(bh_err(h),
                      "find: 'bob' is not the name of a known user\n");
  EXPECT(0, "d/a.txt\nd/b.c\nd/sub/c.txt\nd/sub/deep/e.TXT\n", "find", "d",
         "-type", "f", "-readable", "-writable");
  EXPECT(0, "d/a.txt\n", "find", "d", "-type", "f", "-executable");
}

static void t_links_inode(void **state) {
  bh *h = H(state);
  assert_int_equal(vfs_link(h->vfs, h->cwd, "d/a.txt", "d/hard"), 0);
  EXPECT(0, "d/a.txt\nd/hard\n", "find", "d", "-samefile", "d/a.txt");
  EXPECT(0, "d/a.txt\nd/hard\n", "find", "d", "-type", "f", "-links", "+1");
  vfs_stat_t st;
  assert_int_equal(vfs_stat(h->vfs, h->cwd, "d/b.c", &st), 0);
  char num[32];
  snprintf(num, sizeof num, "%llu", (unsigned long long)st.ino);
  EXPECT(0, "d/b.c\n", "find", "d", "-inum", num);
  EXPECT(1, "", "find", "d", "-links", "+x");
  assert_string_equal(bh_err(h), "find: invalid argument '+x' to '-links'\n");
}

/* ---- operators -------------------------------------------------------------
 */

static void t_operators(void **state) {
  bh *h = H(state);
  EXPECT(0, "d/a.txt\nd/b.c\n", "find", "d", "-name", "a.txt", "-o", "-name",
         "b.c");
  EXPECT(0, "d/a.txt\nd/b.c\n", "find", "d", "-name", "a.txt", "-or", "-name",
         "b.c");
  /* -a binds tighter than -o: prints b.c only for the second branch */
  EXPECT(0, "d/b.c\n", "find", "d", "-name", "a.txt", "-o", "-name", "b.c",
         "-print");
  EXPECT(0, "d/a.txt\nd/b.c\n", "find", "d", "(", "-name", "a.txt", "-o",
         "-name", "b.c", ")", "-print");
  EXPECT(0, "d/a.txt\nd/b.c\nd/sub/c.txt\nd/sub/deep/e.TXT\n", "find", "d", "!",
         "-type", "d", "-not", "-type", "l");
  EXPECT(0, "d/b.c\n", "find", "d", "-type", "f", "-a", "!", "!", "-empty");
  EXPECT(0, "d/sub/deep/e.TXT\n", "find", "d", "-true", "-a", "-name", "e.*",
         "-and", "!", "-false");
  /* the comma evaluates both sides; the value is the right one's */
  EXPECT(0, "A d/b.c\nB d/b.c\n", "find", "d", "-name", "b.c", "-printf",
         "A %p\\n", ",", "-name", "b.c", "-printf", "B %p\\n");
  EXPECT(0, "d/a.txt\n", "find", "d", "-name", "a.txt", "-false", ",", "-name",
         "a.txt");
}

static void t_parse_errors(void **state) {
  bh *h = H(state);
  struct {
    const char *args[6];
    const char *err;
  } cases[] = {
      {{"-foo"}, "find: unknown predicate '-foo'\n"},
      {{"-name", "a", "b"}, "find: paths must precede expression: 'b'\n"},
      {{"-name"}, "find: missing argument to '-name'\n"},
      {{"-o"},
       "find: invalid expression; you have used a binary operator '-o' with "
       "nothing before it.\n"},
      {{"(", "-name", "a"},
       "find: invalid expression; I was expecting to find a ')' somewhere "
       "but did not see one.\n"},
      {{"(", ")"},
       "find: invalid expression; empty parentheses are not "
       "allowed.\n"},
      {{"!"}, "find: expected an expression after '!'\n"},
      {{"-name", "x", ")"},
       "find: invalid expression; you have too many "
       "')'\n"},
      {{"-exec", "echo"}, "find: missing argument to '-exec'\n"},
      {{"-exec", "echo", "{}", "{}", "+"},
       "find: Only one instance of {} is supported with -exec ... +\n"},
      {{"-exec", "echo", "{}x", "+"},
       "find: In '-exec ... {} +' the '{}' must appear by itself, but you "
       "specified '{}x'\n"},
      {{"-delete", "-prune"},
       "find: The -delete action automatically turns on -depth, but -prune "
       "does nothing when -depth is in effect.  If you want to carry on "
       "anyway, just explicitly use the -depth option.\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *argv[10] = {"find", "d"};
    int n = 2;
    for (int k = 0; k < 6 && cases[i].args[k]; k++)
      argv[n++] = (char *)cases[i].args[k];
    argv[n] = NULL;
    int st = bh_runa(h, NULL, 0, n, argv);
    assert_int_equal(st, 1);
    assert_string_equal(bh_out(h), "");
    assert_string_equal(bh_err(h), cases[i].err);
  }
  /* nothing is deleted when the command line is bad */
  assert_true(vfs_exists(h->vfs, h->cwd, "d/a.txt"));
}

/* ---- actions
 * ----------------------------------------------------------------- */

static void t_prune_quit(void **state) {
  bh *h = H(state);
  EXPECT(0, "d\nd/a.txt\nd/b.c\nd/broken\nd/empty\nd/link\n", "find", "d",
         "-name", "sub", "-prune", "-o", "-print");
  EXPECT(0, "d/sub\n", "find", "d", "-name", "sub", "-prune");
  EXPECT(0, "d/a.txt\n", "find", "d", "-name", "*.txt", "-print", "-quit");
  EXPECT(0, "", "find", "d", "-quit");
  /* -prune is a no-op with -depth */
  EXPECT(0, "d/sub/c.txt\n", "find", "d", "-depth", "-name", "sub", "-prune",
         "-o", "-name", "c.txt", "-print");
}

static void t_print0_printf(void **state) {
  bh *h = H(state);
  int st = RUN("find", "d/sub", "-print0");
  assert_int_equal(st, 0);
  const char want[] = "d/sub\0d/sub/c.txt\0d/sub/deep\0d/sub/deep/e.TXT\0";
  assert_int_equal(h->out.len, sizeof want - 1);
  assert_memory_equal(h->out.data, want, sizeof want - 1);

  EXPECT(0,
         "d/sub/c.txt|c.txt|d/sub|sub/c.txt|d|2000|644|-rw-r--r--|f|f|2|"
         "user|user|1000|1000|1||4|8\n",
         "find", "d", "-name", "c.txt", "-printf",
         "%p|%f|%h|%P|%H|%s|%m|%M|%y|%Y|%d|%u|%g|%U|%G|%n|%l|%k|%b\\n");
  EXPECT(0, "d/broken|broken|l|N|nowhere\nd/link|link|l|f|a.txt\n", "find", "d",
         "-type", "l", "-name", "*n*", "-printf", "%p|%f|%y|%Y|%l\\n");
  EXPECT(0, "d/link|link|f|f|a.txt\n", "find", "-L", "d", "-name", "link",
         "-printf", "%p|%f|%y|%Y|%l\\n");
  EXPECT(0, "/|/||\n", "find", "/", "-maxdepth", "0", "-printf",
         "%p|%f|%h|%P\\n");
  EXPECT(0, "d/|d/|d|\n", "find", "d/", "-maxdepth", "0", "-printf",
         "%p|%f|%h|%P\\n");
  /* widths, precision, escapes, \c */
  EXPECT(0, "[ b.c][b.c  ][b.][%]\tx\101", "find", "d", "-name", "b.c",
         "-printf", "[%4f][%-5f][%.2f][%%]\\tx\\101\\c never");
  /* times: 2001-09-09 01:46:40 UTC plus 123456789 ns */
  int64_t t = h->now_ns + 123456789;
  assert_int_equal(vfs_utimes(h->vfs, h->cwd, "d/b.c", t, t, 0), 0);
  EXPECT(0,
         "Sun Sep  9 01:46:40.1234567890 2001|1000000000.1234567890|"
         "2001-09-09|01:46:40.1234567890|Sun Sep  9 01:46:40 2001|"
         "2001-09-09+01:46:40.1234567890|1000000000\n",
         "find", "d", "-name", "b.c", "-printf",
         "%t|%T@|%TY-%Tm-%Td|%TT|%Tc|%T+|%Ts\\n");
  /* unknown directives are printed as they are, after a warning */
  EXPECT(0, "%Q\n", "find", "d", "-name", "b.c", "-printf", "%Q\\n");
  assert_string_equal(bh_err(h),
                      "find: warning: unrecognized format directive '%Q'\n");
}

static void t_ls(void **state) {
  bh *h = H(state);
  int64_t t = h->now_ns - INT64_C(3600) * 1000000000;
  assert_int_equal(vfs_utimes(h->vfs, h->cwd, "d/a.txt", t, t, 0), 0);
  vfs_stat_t st;
  assert_int_equal(vfs_lstat(h->vfs, h->cwd, "d/a.txt", &st), 0);
  char want[256];
  snprintf(want, sizeof want,
           "%9llu      4 -rw-r--r--   1 user     user            5 Sep  9 "
           "00:46 d/a.txt\n",
           (unsigned long long)st.ino);
  EXPECT(0, want, "find", "d", "-name", "a.txt", "-ls");
  assert_int_equal(vfs_lstat(h->vfs, h->cwd, "d/link", &st), 0);
  int s2 = RUN("find", "d", "-name", "link", "-ls");
  assert_int_equal(s2, 0);
  assert_non_null(strstr(bh_out(h), " lrwxrwxrwx   1 user     user   "));
  assert_non_null(strstr(bh_out(h), " d/link -> a.txt\n"));
}

static void t_delete(void **state) {
  bh *h = H(state);
  EXPECT(0, "", "find", "d/sub", "-delete");
  assert_false(vfs_exists(h->vfs, h->cwd, "d/sub"));
  EXPECT(0, "", "find", "d", "-name", "*.c", "-delete");
  assert_false(vfs_exists(h->vfs, h->cwd, "d/b.c"));
  assert_true(vfs_exists(h->vfs, h->cwd, "d/a.txt"));
  /* a directory that is not empty cannot go: status 1, walk continues */
  EXPECT(1, "d/a.txt\nd/broken\nd/link\nd\n", "find", "d", "-type", "d",
         "-delete", "-o", "-print");
  assert_string_equal(bh_err(h),
                      "find: cannot delete 'd': Directory not empty\n");
  /* "." itself is never removed */
  bh_write(h, "/tmp/x", "");
  strcpy(h->cwd, "/tmp");
  EXPECT(0, "", "find", ".", "-delete");
  assert_false(vfs_exists(h->vfs, "/", "/tmp/x"));
  assert_true(vfs_exists(h->vfs, "/", "/tmp"));
}

static void t_exec(void **state) {
  bh *h = H(state);
  buf *log = h->ud;
  EXPECT(0, "", "find", "d/sub", "-exec", "log", "x{}y", "{}", ";");
  assert_string_equal(LOG(state), "xd/suby d/sub\nxd/sub/c.txty d/sub/c.txt\n"
                                  "xd/sub/deepy d/sub/deep\n"
                                  "xd/sub/deep/e.TXTy d/sub/deep/e.TXT\n");
  buf_clear(log);
  EXPECT(0, "", "find", "d/sub", "-exec", "log", "A", "{}", "+");
  assert_string_equal(LOG(state), "A d/sub d/sub/c.txt d/sub/deep "
                                  "d/sub/deep/e.TXT\n");
  buf_clear(log);
  /* -exec ; is a test: its status decides */
  EXPECT(0, "d/b.c\n", "find", "d", "-type", "f", "-exec", "test", "!", "-s",
         "{}", ";", "-print");
  /* output of the command and of find interleave in order */
  EXPECT(0, "d/sub/c.txt\n-d/sub/c.txt\n", "find", "d/sub", "-name", "c.txt",
         "-print", "-exec", "echo", "-{}", ";");
  /* -exec + failing makes find's status 1 but stays true */
  EXPECT(1, "d/a.txt\n", "find", "d", "-name", "a.txt", "-exec", "ret", "3",
         "{}", "+", "-print");
  EXPECT(0, "", "find", "d", "-name", "a.txt", "-exec", "ret", "3", ";");
  /* -quit still runs the pending batch */
  EXPECT(0, "", "find", "d", "-type", "f", "-exec", "log", "{}", "+", "-quit");
  assert_string_equal(LOG(state), "d/a.txt\n");
  buf_clear(log);
  /* -execdir (documented: runs with the full path) */
  EXPECT(0, "", "find", "d", "-name", "b.c", "-execdir", "log", "{}", ";");
  assert_string_equal(LOG(state), "d/b.c\n");
  buf_clear(log);
  /* -ok asks on stderr, reads the answers from stdin */
  EXPECT_IN("y\nn\n", 0, "", "find", "d", "-name", "*.txt", "-ok", "log", "{}",
            ";");
  assert_string_equal(LOG(state), "d/a.txt\n");
  assert_string_equal(bh_err(h), "< log ... d/a.txt > ? < log ... "
                                 "d/sub/c.txt > ? ");
  buf_clear(log);
  /* command not found: false, status 0 (like GNU's child failing) */
  EXPECT(0, "", "find", "d", "-name", "b.c", "-exec", "nosuch", ";");
}

/* ---- the agent's command line: `find P -type f -name X | head`
 * ---------------- */

typedef struct head_stream {
  stream s;
  buf *out;
  int lines, max;
  int writes_after_close;
} head_stream;

static long hs_write(stream *s, const void *p, size_t n) {
  head_stream *hs = (head_stream *)s;
  if (hs->lines >= hs->max) {
    hs->writes_after_close++;
    s->err = EPIPE;
    return -1;
  }
  const char *c = p;
  for (size_t i = 0; i < n && hs->lines < hs->max; i++) {
    buf_putc(hs->out, c[i]);
    if (c[i] == '\n')
      hs->lines++;
  }
  return (long)n;
}

static void hs_release(stream *s) {
  (void)s;
}

static const stream_ops hs_ops = {NULL, hs_write, NULL, hs_release};

static void t_contract_head(void **state) {
  bh *h = H(state);
  struct vfs *v = h->vfs;
  assert_int_equal(vfs_mkdir_p(v, h->cwd, "proj/src", 0755), 0);
  char p[64];
  for (int i = 0; i < 3000; i++) {
    snprintf(p, sizeof p, "proj/src/f%04d.ts", i);
    bh_write(h, p, "");
  }
  /* the framework's exact command, with a reader that leaves after 1000
   * lines: find must end at once with 141 */
  buf got;
  buf_init(&got, h->m);
  head_stream hs = {.out = &got, .max = 1000};
  stream_init(&hs.s, &hs_ops, h->m, &h->bud, STREAM_W);
  bi_ctx *c = &h->c;
  char *argv[] = {"find", "proj", "-type", "f", "-name", "*.ts", NULL};
  memset(c, 0, sizeof *c);
  c->argc = 6;
  c->argv = argv;
  c->in = stream_null(h->m, &h->bud);
  c->out = &hs.s;
  c->err = stream_capture(h->m, &h->bud, &h->err, NULL, NULL, 2, 0);
  buf_clear(&h->err);
  c->m = h->m;
  c->scratch = &h->scratch;
  c->vfs = v;
  c->cwd = h->cwd;
  c->bud = &h->bud;
  c->run_argv = bh_run_argv_;
  c->now_ns = bh_now_ns_;
  arena_mark mk = arena_save(&h->scratch);
  int st = bi_lookup("find")->fn(c);
  arena_release(&h->scratch, mk);
  stream_unref(c->in);
  stream_unref(c->err);
  assert_int_equal(st, 141);
  assert_int_equal(hs.lines, 1000);
  assert_int_equal(hs.writes_after_close, 1); /* stopped at the first */
  assert_true(strncmp(buf_cstr(&got), "proj/src/f0000.ts\n", 18) == 0);
  assert_string_equal(bh_err(h), "");
  buf_free(&got);
  /* and the whole thing through the normal capture */
  int s2 = RUN("find", "proj", "-type", "f", "-name", "f29*.ts");
  assert_int_equal(s2, 0);
  assert_int_equal(h->out.len, 100 * strlen("proj/src/f2900.ts\n"));
}

static void t_cancel_quiet_walk(void **state) {
  bh *h = H(state);
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, "many", 0755), 0);
  char p[64];
  for (int i = 0; i < 2000; i++) {
    snprintf(p, sizeof p, "many/%d", i);
    bh_write(h, p, "");
  }
  /* a walk that prints nothing still sees the cancel token */
  atomic_int cancel = 1;
  h->bud.cancel = &cancel;
  int st = RUN("find", "many", "-false");
  h->bud.cancel = NULL;
  assert_int_not_equal(st, 0);
  assert_int_equal(h->bud.stop, BUDGET_CANCELLED);
}

static void t_deep_tree(void **state) {
  bh *h = H(state);
  /* as deep as the VFS's path limit allows: no recursion in the walk */
  char path[4096];
  size_t n = 0;
  int depth = 0;
  strcpy(path, "z");
  n = 1;
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, path, 0755), 0);
  while (n + 2 < 3900) {
    path[n++] = '/';
    path[n++] = 'z';
    path[n] = 0;
    assert_int_equal(vfs_mkdir(h->vfs, h->cwd, path, 0755), 0);
    depth++;
  }
  int st = RUN("find", "z", "-mindepth", "1000", "-printf", "%d\\n", "-quit");
  assert_int_equal(st, 0);
  assert_string_equal(bh_out(h), "1000\n");
  st = RUN("find", "z", "-type", "d", "-empty", "-printf", "%d\\n");
  assert_int_equal(st, 0);
  char want[16];
  snprintf(want, sizeof want, "%d\n", depth);
  assert_string_equal(bh_out(h), want);
}

static void t_help_version(void **state) {
  bh *h = H(state);
  assert_int_equal(RUN("find", "--help"), 0);
  assert_true(strncmp(bh_out(h), "Usage: find ", 12) == 0);
  assert_int_equal(RUN("find", "--version"), 0);
  assert_non_null(strstr(bh_out(h), "findutils"));
  assert_int_equal(RUN("xargs", "--help"), 0);
  assert_true(strncmp(bh_out(h), "Usage: xargs ", 13) == 0);
  assert_int_equal(RUN("xargs", "--version"), 0);
}

/* ---- xargs
 * ------------------------------------------------------------------- */

static void t_xargs_basic(void **state) {
  bh *h = H(state);
  EXPECT_IN("a b\nc\n", 0, "a b c\n", "xargs");
  EXPECT_IN("a b\nc\n", 0, "a b c\n", "xargs", "echo");
  EXPECT_IN("a b c d", 0, "-x a b\n-x c d\n", "xargs", "-n", "2", "echo", "-x");
  EXPECT_IN("", 0, "\n", "xargs");
  EXPECT_IN("", 0, "", "xargs", "-r", "echo", "hi");
  EXPECT_IN("  \n\n", 0, "hi\n", "xargs", "echo", "hi");
  /* GNU quoting */
  EXPECT_IN("a b\n\"c d\" e\\ f\n'g \"h' i\"j'k\"\n", 0,
            "a\nb\nc d\ne f\ng \"h\nij'k\n", "xargs", "-n1");
  EXPECT_IN("'a\\b'\n", 0, "a\\b\n", "xargs");
  /* tab separates; \v \f \r do not */
  EXPECT_IN("a\tb\vc\n", 0, "a\nb\vc\n", "xargs", "-n1");
  EXPECT_IN("a 'b", 1, "a\n", "xargs");
  assert_string_equal(bh_err(h),
                      "xargs: unmatched single quote; by default quotes are "
                      "special to xargs unless you use the -0 option\n");
  EXPECT_IN("\"a\nb\"\n", 1, "", "xargs");
  assert_non_null(strstr(bh_err(h), "unmatched double quote"));
}

static void t_xargs_modes(void **state) {
  bh *h = H(state);
  /* -L: a trailing blank continues the line */
  EXPECT_IN("a b\nc\n\nd\n", 0, "a b\nc\nd\n", "xargs", "-L", "1");
  EXPECT_IN("a \nb\nc\n", 0, "a b\nc\n", "xargs", "-L", "1");
  EXPECT_IN("a\nb\nc\n", 0, "a b\nc\n", "xargs", "-L2");
  /* -I: whole lines, leading blanks dropped, every R replaced */
  EXPECT_IN("  a  b \nc\n", 0, "[a  b ] a  b  x\n[c] c x\n", "xargs", "-I",
            "{}", "echo", "[{}]", "{}", "x");
  EXPECT_IN("a\nb\n", 0, "xay\nxby\n", "xargs", "-i", "echo", "x{}y");
  EXPECT_IN("a\nb\n", 0, "-a-\n-b-\n", "xargs", "-IX", "echo", "-X-");
  EXPECT_IN("", 0, "", "xargs", "-I{}", "echo", "{}");
  /* -0 and -d take items verbatim */
  EXPECT_IN(NULL, 0, "", "xargs", "-0", "-r");
  int st = bh_runb(h, "a\0b c\0'd\0", 9, "xargs", "-0", "-n1", NULL);
  assert_int_equal(st, 0);
  assert_string_equal(bh_out(h), "a\nb c\n'd\n");
  EXPECT_IN("a,b,,c", 0, "a\nb\n\nc\n", "xargs", "-d,", "-n1");
  EXPECT_IN("a b\nc d\n", 0, "a b\nc d\n", "xargs", "-d", "\\n", "-n1");
  EXPECT_IN("x", 1, "", "xargs", "-d", "ab");
  /* -E: the logical end of input */
  EXPECT_IN("a\nEOF\nb\n", 0, "a\n", "xargs", "-E", "EOF", "echo");
  EXPECT_IN("b a c\n", 0, "b\n", "xargs", "-E", "a");
  EXPECT_IN("a EOF b", 0, "a EOF b\n", "xargs", "-0", "-E", "EOF");
  /* -s: the command line size, command included */
  EXPECT_IN("a b c d e f\n", 0, "a b c d\ne f\n", "xargs", "-s", "14", "echo");
  EXPECT_IN("abc\n", 1, "", "xargs", "-s", "5", "echo");
  assert_string_equal(bh_err(h), "xargs: argument line too long\n");
  EXPECT_IN("a\n", 1, "", "xargs", "-x", "-s", "6", "echo");
  /* -t shows each command on stderr */
  EXPECT_IN("a\nb\n", 0, "a\nb\n", "xargs", "-t", "-n1", "echo");
  assert_string_equal(bh_err(h), "echo a\necho b\n");
  /* -P is accepted */
  EXPECT_IN("a b", 0, "a\nb\n", "xargs", "-P", "4", "-n", "1");
  EXPECT_IN("x", 1, "", "xargs", "-n", "0");
  assert_string_equal(bh_err(h), "xargs: value 0 for -n option should be >= 1\n"
                                 "Try 'xargs --help' for more information.\n");
  /* commands read an empty stdin, unless -a gives the items */
  EXPECT_IN("x y", 0, "read 0\n", "xargs", "readall");
  bh_write(h, "items", "p\nq\n");
  EXPECT_IN("zz", 0, "read 2\n", "xargs", "-a", "items", "readall");
  EXPECT_IN(NULL, 0, "p q\n", "xargs", "-a", "items");
  EXPECT_IN(NULL, 1, "", "xargs", "-a", "nofile");
  assert_string_equal(bh_err(h), "xargs: Cannot open input file 'nofile': "
                                 "No such file or directory\n");
}

static void t_xargs_status(void **state) {
  bh *h = H(state);
  EXPECT_IN("a b", 123, "", "xargs", "-n1", "ret", "3");
  EXPECT_IN("a b", 124, "", "xargs", "-n1", "ret", "255");
  assert_string_equal(bh_err(h),
                      "xargs: ret: exited with status 255; aborting\n");
  EXPECT_IN("a b", 125, "", "xargs", "-n1", "ret", "141");
  assert_string_equal(bh_err(h), "xargs: ret: terminated by signal 13\n");
  EXPECT_IN("a", 127, "", "xargs", "nosuchcmd");
  EXPECT_IN("a", 126, "", "xargs", "ret", "126");
  /* find | xargs, the usual pair */
  int st = RUN("find", "d", "-name", "*.txt", "-print0");
  assert_int_equal(st, 0);
  buf in;
  buf_init(&in, h->m);
  buf_append(&in, h->out.data, h->out.len);
  st = bh_runb(h, in.data, in.len, "xargs", "-0", "log", NULL);
  buf_free(&in);
  assert_int_equal(st, 0);
  assert_string_equal(LOG(state), "d/a.txt d/sub/c.txt\n");
  /* find -exec xargs-style nesting */
  st = RUN("find", "d", "-name", "b.c", "-exec", "echo", "found", "{}", ";");
  assert_int_equal(st, 0);
  assert_string_equal(bh_out(h), "found d/b.c\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
      T(t_default),       T(t_missing),
      T(t_depth_limits),  T(t_name_path),
      T(t_regex),         T(t_type),
      T(t_follow),        T(t_size_empty),
      T(t_times),         T(t_perm_owner),
      T(t_links_inode),   T(t_operators),
      T(t_parse_errors),  T(t_prune_quit),
      T(t_print0_printf), T(t_ls),
      T(t_delete),        T(t_exec),
      T(t_contract_head), T(t_cancel_quiet_walk),
      T(t_deep_tree),     T(t_help_version),
      T(t_xargs_basic),   T(t_xargs_modes),
      T(t_xargs_status),
#undef T
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
