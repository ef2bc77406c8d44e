// layers: all
/*
 * test_driver.c - one driver test suite, run unchanged against every driver
 * (isolate over a fresh sandbox, local over a fresh host directory), row by
 * row of the sandbox contract (shared/reference/sandbox-contract.md), plus
 * the path helpers and a few local-only containment checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vsh.h"

/* ------------------------------------------------------------ fixtures */

typedef struct factory {
  const char *name;
  /* Where the tests work: a directory the sandbox user may write to (the
   * isolate's "/" belongs to root, as on a real system; the local driver's
   * "/" is its own temporary directory). */
  const char *base;
  vsh_driver *(*make)(char *dir); /* dir: a host directory to use, if any */
  /* A command that runs until stopped: the isolate spins, the host sleeps
   * (a host busy loop would burn a CPU for nothing). */
  const char *busy_cmd;
} factory;

typedef struct fixture {
  const factory *f;
  vsh_driver *d;
  char dir[64]; /* local: the mkdtemp root, removed at teardown */
} fixture;

static vsh_driver *make_isolate(char *dir) {
  (void)dir;
  vsh_config cfg;
  vsh_config_init(&cfg);
  /* The busy loop of the timeout tests must meet the deadline, not the
   * loop limit, however fast the build. */
  cfg.limits.max_loop_iterations = UINT64_MAX;
  cfg.limits.max_commands = UINT64_MAX;
  vsh_sandbox *sb = NULL;
  if (vsh_open(&cfg, &sb) != VSH_OK)
    return NULL;
  return vsh_driver_isolate(sb);
}

static vsh_driver *make_local(char *dir) {
  strcpy(dir, "/tmp/vsh-drv-XXXXXX");
  if (!mkdtemp(dir)) {
    dir[0] = 0;
    return NULL;
  }
  static const char *const extra[] = {"VSH_DRV_EXTRA=extra", NULL};
  return vsh_driver_local(dir, extra);
}

static const factory factories[] = {
    {"isolate", "/home/user", make_isolate, "while true; do :; done"},
    {"local", "", make_local, "sleep 5"},
};

static const char *g_base = ""; /* base of the running test */

/* The test path p ("/x") under the base. The ring of buffers lets a few
 * results be used in one call. */
static const char *P(const char *p) {
  static char ring[16][512];
  static unsigned next;
  char *b = ring[next++ % 16];
  if (strcmp(p, "/") == 0)
    snprintf(b, sizeof ring[0], "%s", *g_base ? g_base : "/");
  else
    snprintf(b, sizeof ring[0], "%s%s", g_base, p);
  return b;
}

static int rm_entry(const char *p, const struct stat *sb, int type,
                    struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  return type == FTW_DP ? rmdir(p) : unlink(p);
}

static void rm_host_tree(const char *dir) {
  if (dir[0])
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int fx_setup(void **state) {
  fixture *fx = calloc(1, sizeof *fx);
  assert_non_null(fx);
  fx->f = *state;
  fx->d = fx->f->make(fx->dir);
  if (!fx->d) {
    rm_host_tree(fx->dir);
    free(fx);
    return -1;
  }
  g_base = fx->f->base;
  *state = fx;
  return 0;
}

static int fx_teardown(void **state) {
  fixture *fx = *state;
  fx->d->destroy(fx->d);
  rm_host_tree(fx->dir);
  free(fx);
  return 0;
}

/* ------------------------------------------------------------- helpers */

static vsh_driver *drv(void **state) {
  return ((fixture *)*state)->d;
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void put(vsh_driver *d, const char *path, const char *text) {
  vsh_drv_err err = {0};
  int rc = vsh_drv_write_with_parents(d, path, text, strlen(text), &err);
  if (rc != 0)
    fail_msg("write_file %s: %s", path, err.message);
}

static void mkd(vsh_driver *d, const char *path) {
  vsh_drv_err err = {0};
  if (d->mkdir(d, path, 1, &err) != 0)
    fail_msg("mkdir -p %s: %s", path, err.message);
}

/* Run a command that must succeed; returns its result (caller frees). */
static vsh_result run(vsh_driver *d, const char *cmd,
                      const vsh_drv_exec_opts *o) {
  vsh_result res;
  vsh_drv_err err = {0};
  if (d->exec(d, cmd, o, &res, &err) != 0)
    fail_msg("exec %s: %s", cmd, err.message);
  return res;
}

static void assert_errno(int rc, const vsh_drv_err *err, int code,
                         const char *path) {
  assert_int_equal(rc, -1);
  assert_int_equal(err->kind, VSH_DRV_ERRNO);
  assert_int_equal(err->code, code);
  /* Messages reach a model verbatim: they must name the path. */
  if (path && !strstr(err->message, path))
    fail_msg("message \"%s\" does not name %s", err->message, path);
}

/* ------------------------------------------------------- path helpers */

static void check_resolve(const char *cwd, const char *p, const char *want) {
  char *got = vsh_resolve_path(cwd, p);
  assert_non_null(got);
  if (strcmp(got, want) != 0)
    fail_msg("resolve(%s, %s) = %s, want %s", cwd ? cwd : "NULL", p, got, want);
  vsh_free(NULL, got);
}

static void test_resolve_path(void **state) {
  (void)state;
  check_resolve("/", "a/b", "/a/b");
  check_resolve("/home/user", "x", "/home/user/x");
  check_resolve("/home/user", "/etc/./passwd", "/etc/passwd");
  check_resolve("/x", "../..", "/");
  check_resolve("/", "..", "/");
  check_resolve("/", "../../a", "/a");
  check_resolve("/a/b", "..", "/a");
  check_resolve("/x/y", "./z//w/", "/x/y/z/w");
  check_resolve(NULL, "/a/./b/../c", "/a/c");
  check_resolve("/", "", "/");
  check_resolve("/a", ".", "/a");
  check_resolve("//a//b//", "c/", "/a/b/c");
  check_resolve("rel", "x", "/rel/x"); /* a relative cwd counts from / */
  check_resolve("/a", "b/../../../c/./d", "/c/d");
  check_resolve("/", "a/..b/...", "/a/..b/..."); /* only exact `..` */
  /* Two spellings of one path give the same string. */
  char *p1 = vsh_resolve_path("/a", "b//c/./d/../e/");
  char *p2 = vsh_resolve_path("/", "/a/b/c/e");
  assert_string_equal(p1, p2);
  vsh_free(NULL, p1);
  vsh_free(NULL, p2);
  assert_null(vsh_resolve_path("/", NULL));
}

/* --------------------------------------------------------------- exec */

static void test_exec_status_and_streams(void **state) {
  vsh_driver *d = drv(state);
  vsh_result r = run(d, "echo out; echo err >&2; exit 3", NULL);
  /* A non-zero exit is a result, not an error. */
  assert_int_equal(r.status, 3);
  assert_int_equal(r.out_len, 4);
  assert_string_equal(r.out, "out\n");
  assert_string_equal(r.err, "err\n");
  vsh_result_free(&r);

  r = run(d, "true", NULL);
  assert_int_equal(r.status, 0);
  assert_non_null(r.out);
  assert_int_equal(r.out_len, 0);
  vsh_result_free(&r);
}

static void test_exec_binary_stdout(void **state) {
  vsh_driver *d = drv(state);
  vsh_result r = run(d, "printf 'a\\000b\\377c\\n'", NULL);
  assert_int_equal(r.status, 0);
  assert_int_equal(r.out_len, 6);
  assert_memory_equal(r.out, "a\0b\377c\n", 6);
  vsh_result_free(&r);
}

static void test_exec_env(void **state) {
  vsh_driver *d = drv(state);
  /* Layered over the base environment. */
  const char *env[] = {"A=1", "B=two words", NULL};
  vsh_drv_exec_opts o = {.env = env};
  vsh_result r = run(d, "printf '%s|%s|%s' \"$A\" \"$B\" \"${PATH:+set}\"", &o);
  assert_string_equal(r.out, "1|two words|set");
  vsh_result_free(&r);

  /* Nothing carries over to the next call. */
  r = run(d, "printf '%s' \"${A-unset-here}\"", NULL);
  assert_string_equal(r.out, "unset-here");
  vsh_result_free(&r);

  /* "unset" removes a key of the base environment. (HOME, not PATH: a
   * POSIX shell puts a default PATH back when it finds none.) */
  const char *unset[] = {"HOME=unset", NULL};
  vsh_drv_exec_opts ou = {.env = unset};
  r = run(d, "echo \"${HOME-gone}\"", &ou);
  assert_string_equal(r.out, "gone\n");
  vsh_result_free(&r);

  /* A later entry overrides the base value. */
  const char *over[] = {"PATH=/custom/bin", NULL};
  vsh_drv_exec_opts oo = {.env = over};
  r = run(d, "echo \"$PATH\"", &oo);
  assert_string_equal(r.out, "/custom/bin\n");
  vsh_result_free(&r);

  /* The host's own environment never leaks in beyond the allow-list. */
  setenv("VSH_DRV_SECRET", "leaked", 1);
  r = run(d, "echo \"${VSH_DRV_SECRET-absent}\"", NULL);
  assert_string_equal(r.out, "absent\n");
  vsh_result_free(&r);
}

static void test_exec_cwd(void **state) {
  vsh_driver *d = drv(state);
  mkd(d, P("/d/e"));
  put(d, P("/d/e/marker"), "here");
  vsh_drv_exec_opts o = {.cwd = P("/d/e")};
  vsh_result r = run(d, "cat marker; echo; pwd", &o);
  assert_int_equal(r.status, 0);
  assert_true(strncmp(r.out, "here\n", 5) == 0);
  size_t n = strlen(r.out);
  assert_true(n >= 5 + 5 && strcmp(r.out + n - 5, "/d/e\n") == 0);
  vsh_result_free(&r);

  /* Files written by a command are seen by the file operations. */
  r = run(d, "echo made > made.txt", &o);
  vsh_result_free(&r);
  assert_true(d->exists(d, P("/d/e/made.txt")));
}

/* What the host calls the sandbox path p: the local driver's root
 * (physical, as getcwd gives it) in front; nothing for the isolate. */
static const char *host_path(void **state, const char *p) {
  fixture *fx = *state;
  static char buf[PATH_MAX + 512];
  char root[PATH_MAX] = "";
  if (fx->dir[0] && !realpath(fx->dir, root))
    fail_msg("realpath %s", fx->dir);
  snprintf(buf, sizeof buf, "%s%s", root, strcmp(p, "/") == 0 ? "" : p);
  if (!buf[0])
    strcpy(buf, "/");
  return buf;
}

/* A cwd that is not a directory fails like chdir (Node's spawn: ENOENT or
 * ENOTDIR), before anything runs: no run elsewhere, nothing created. */
static void test_exec_cwd_missing(void **state) {
  vsh_driver *d = drv(state);
  put(d, P("/afile"), "x");
  vsh_drv_exec_opts o = {.cwd = P("/")};
  vsh_result r = run(d, "ln -s gone dangling", &o);
  assert_int_equal(r.status, 0);
  vsh_result_free(&r);
  static const struct {
    const char *cwd;
    int code;
  } cases[] = {{"/nope", ENOENT},          {"/nope/deeper", ENOENT},
               {"/afile", ENOTDIR},        {"/afile/sub", ENOTDIR},
               {"/dangling", ENOENT},      {"/dangling/sub", ENOENT},
               {"/./nope/../nope", ENOENT}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    vsh_drv_exec_opts oc = {.cwd = P(cases[i].cwd)};
    vsh_drv_err err = {0};
    int rc = d->exec(d, "echo ran > ran.txt; pwd", &oc, &r, &err);
    if (rc == 0)
      fail_msg("exec in %s ran: %s", oc.cwd, r.out);
    assert_errno(rc, &err, cases[i].code, oc.cwd);
    assert_non_null(strstr(err.message, "chdir"));
    assert_null(r.out);
  }
  vsh_drv_err err = {0};
  vsh_drv_exec_opts oe = {.cwd = ""};
  assert_errno(d->exec(d, "echo ran > ran.txt", &oe, &r, &err), &err, ENOENT,
               NULL);
  assert_false(d->exists(d, P("/nope")));
  assert_false(d->exists(d, P("/ran.txt")));
  assert_false(d->exists(d, P("/gone")));
}

/* $PWD is the cwd normalised: lexically first (as paths reach a driver),
 * then physically, as a host process started in that directory sees it. */
static void test_exec_pwd_normalised(void **state) {
  vsh_driver *d = drv(state);
  mkd(d, P("/w/x/deep"));
  vsh_drv_exec_opts o = {.cwd = P("/w")};
  vsh_result r = run(d, "ln -s x lx && ln -s x/deep ldeep", &o);
  assert_int_equal(r.status, 0);
  vsh_result_free(&r);
  static const struct {
    const char *cwd, *want;
  } cases[] = {{"/w/./x/../", "/w"},        {"/w//x/.", "/w/x"},
               {"/w/lx", "/w/x"},           {"/w/ldeep/..", "/w"},
               {"/w/lx/deep", "/w/x/deep"}, {"/w/x/deep/../../..", "/"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    vsh_drv_exec_opts oc = {.cwd = P(cases[i].cwd)};
    r = run(d, "echo \"$PWD\"; pwd; pwd -P", &oc);
    char want[3 * (PATH_MAX + 512)];
    const char *h = host_path(state, P(cases[i].want));
    snprintf(want, sizeof want, "%s\n%s\n%s\n", h, h, h);
    if (strcmp(r.out, want) != 0)
      fail_msg("cwd %s: got [%s], want [%s]", oc.cwd, r.out, want);
    vsh_result_free(&r);
  }
}

static void test_exec_timeout(void **state) {
  fixture *fx = *state;
  vsh_driver *d = fx->d;
  vsh_drv_exec_opts o = {.timeout_ms = 300};
  int64_t t0 = now_ms();
  vsh_result r = run(d, fx->f->busy_cmd, &o);
  int64_t dt = now_ms() - t0;
  assert_int_equal(r.status, 124);
  /* A note on stderr, the same from both drivers. */
  assert_non_null(strstr(r.err, "vsh: timeout: deadline of 300 ms exceeded\n"));
  assert_true(dt >= 250);
  assert_true(dt < 4000);
  vsh_result_free(&r);

  /* A command that finishes in time is unaffected. */
  r = run(d, "echo quick", &o);
  assert_int_equal(r.status, 0);
  assert_string_equal(r.out, "quick\n");
  vsh_result_free(&r);
}

/* Output beyond 64 MiB ends the command (the whole process group on the
 * host) and the exec resolves: the output up to the cap, status 126 and a
 * note, as the isolate's output limit does. A command that ran is a result, not
 * an error. */
static void test_exec_output_cap(void **state) {
  vsh_driver *d = drv(state);
  int64_t t0 = now_ms();
  vsh_result r =
      run(d, "echo start >&2; head -c 70000000 /dev/zero; sleep 30", NULL);
  assert_true(now_ms() - t0 < 10000);
  assert_int_equal(r.status, 126);
  assert_true(r.flags & VSH_RESULT_OUTPUT_TRUNCATED);
  assert_true(r.flags & VSH_RESULT_LIMIT);
  /* Up to the cap: the isolate drops the write that would cross it, the
   * host driver keeps the part that fits. */
  size_t kept = r.out_len + strlen("start\n");
  assert_true(kept <= (size_t)64 << 20);
  assert_true(kept > ((size_t)64 << 20) - 65536);
  assert_true(memchr(r.out, 1, r.out_len) == NULL); /* zeros only */
  assert_string_equal(r.err,
                      "start\nvsh: output bytes limit exceeded (67108864)\n");
  vsh_result_free(&r);
}

/* Commands run in bash on both sides (Flue's local sandbox prefers bash to
 * /bin/sh, which is dash on Debian). */
static void test_exec_bashisms(void **state) {
  vsh_driver *d = drv(state);
  vsh_result r = run(d,
                     "[[ ab == a* ]] && echo glob; set -o pipefail; "
                     "false | true; echo $?; a=(x y); echo ${#a[@]} "
                     "${BASH_VERSION:+bash}",
                     NULL);
  assert_int_equal(r.status, 0);
  assert_string_equal(r.out, "glob\n1\n2 bash\n");
  vsh_result_free(&r);
}

static void test_exec_cancel_before(void **state) {
  vsh_driver *d = drv(state);
  vsh_cancel *c = vsh_cancel_new();
  assert_non_null(c);
  vsh_cancel_set(c);
  vsh_drv_exec_opts o = {.cwd = P("/"), .signal = c};
  vsh_result r;
  vsh_drv_err err = {0};
  int rc = d->exec(d, "echo ran > ran.txt", &o, &r, &err);
  assert_int_equal(rc, -1);
  assert_int_equal(err.kind, VSH_DRV_ABORT);
  assert_true(err.message[0] != 0);
  vsh_result_free(&r); /* a failed exec leaves nothing to free: harmless */
  /* Nothing ran. */
  assert_false(d->exists(d, P("/ran.txt")));
  vsh_cancel_free(c);
}

static void *cancel_later(void *arg) {
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  vsh_cancel_set(arg);
  return NULL;
}

static void test_exec_cancel_midflight(void **state) {
  fixture *fx = *state;
  vsh_driver *d = fx->d;
  vsh_cancel *c = vsh_cancel_new();
  assert_non_null(c);
  vsh_drv_exec_opts o = {.signal = c};
  pthread_t th;
  int64_t t0 = now_ms();
  assert_int_equal(pthread_create(&th, NULL, cancel_later, c), 0);
  vsh_result r;
  vsh_drv_err err = {0};
  int rc = d->exec(d, fx->f->busy_cmd, &o, &r, &err);
  int64_t dt = now_ms() - t0;
  pthread_join(th, NULL);
  assert_int_equal(rc, -1);
  assert_int_equal(err.kind, VSH_DRV_ABORT);
  vsh_result_free(&r);
  /* Promptly: well before the command would have ended by itself. */
  if (dt >= 2000)
    fail_msg("abort took %lld ms", (long long)dt);
  vsh_cancel_free(c);

  /* The driver is usable afterwards. */
  vsh_result ok = run(d, "echo again", NULL);
  assert_string_equal(ok.out, "again\n");
  vsh_result_free(&ok);
}

/* -------------------------------------------------------------- files */

static void test_read_write(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  static const char bin[] = "x\0y\377z";
  assert_int_equal(d->write_file(d, P("/bin.dat"), bin, 5, &err), 0);
  char *data = NULL;
  size_t len = 0;
  assert_int_equal(d->read_file(d, P("/bin.dat"), &data, &len, &err), 0);
  assert_int_equal(len, 5);
  assert_memory_equal(data, bin, 5);
  d->free_buf(d, data);

  /* Replace with something shorter: no stale tail. */
  put(d, P("/bin.dat"), "ab");
  assert_int_equal(d->read_file(d, P("/bin.dat"), &data, &len, &err), 0);
  assert_int_equal(len, 2);
  assert_string_equal(data, "ab");
  d->free_buf(d, data);

  /* Empty file. */
  assert_int_equal(d->write_file(d, P("/empty"), "", 0, &err), 0);
  assert_int_equal(d->read_file(d, P("/empty"), &data, &len, &err), 0);
  assert_int_equal(len, 0);
  d->free_buf(d, data);

  int rc = d->read_file(d, P("/missing.txt"), &data, &len, &err);
  assert_errno(rc, &err, ENOENT, P("/missing.txt"));
  mkd(d, P("/adir"));
  rc = d->read_file(d, P("/adir"), &data, &len, &err);
  assert_errno(rc, &err, EISDIR, P("/adir"));
}

static void test_write_with_parents(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  assert_int_equal(
      vsh_drv_write_with_parents(d, P("/p/q/r/file.txt"), "deep", 4, &err), 0);
  char *data;
  size_t len;
  assert_int_equal(d->read_file(d, P("/p/q/r/file.txt"), &data, &len, &err), 0);
  assert_string_equal(data, "deep");
  d->free_buf(d, data);
  vsh_drv_stat st;
  assert_int_equal(d->stat(d, P("/p/q/r"), &st, &err), 0);
  assert_true(st.is_directory);
  /* Existing parent: a plain write. */
  assert_int_equal(vsh_drv_write_with_parents(d, P("/p/x"), "1", 1, &err), 0);
  /* A relative path: its parents are made where the driver resolves it
   * (its cwd, which is the tests' base), not under "/". */
  assert_int_equal(
      vsh_drv_write_with_parents(d, "rel/./sub/f.txt", "r", 1, &err), 0);
  assert_int_equal(d->read_file(d, P("/rel/sub/f.txt"), &data, &len, &err), 0);
  assert_string_equal(data, "r");
  d->free_buf(d, data);
  /* A file in the way of a parent is an error, not a retry loop. */
  put(d, P("/blocker"), "f");
  assert_int_equal(
      vsh_drv_write_with_parents(d, P("/blocker/sub/f"), "1", 1, &err), -1);
  assert_int_equal(err.kind, VSH_DRV_ERRNO);
}

static void test_stat(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  vsh_drv_stat st;
  put(d, P("/f.txt"), "hello");
  assert_int_equal(d->stat(d, P("/f.txt"), &st, &err), 0);
  assert_true(st.is_file);
  assert_false(st.is_directory);
  assert_false(st.is_symlink);
  assert_true(st.fields & VSH_DRV_HAS_SIZE);
  assert_int_equal(st.size, 5);
  assert_true(st.fields & VSH_DRV_HAS_MTIME);
  assert_true(st.mtime_ms > 1500000000000LL); /* after 2017: a real time */

  mkd(d, P("/sd"));
  assert_int_equal(d->stat(d, P("/sd"), &st, &err), 0);
  assert_true(st.is_directory);
  assert_false(st.is_file);

  assert_int_equal(d->stat(d, P("/"), &st, &err), 0);
  assert_true(st.is_directory);

  int rc = d->stat(d, P("/nope"), &st, &err);
  assert_errno(rc, &err, ENOENT, P("/nope"));
}

/* A directory's size is reported, and it is the figure the sandbox's own
 * `stat -c %s` prints: the host file system's for the local driver (4096
 * per block on ext4), the VFS's for the isolate (4096). Not made up. */
static void test_stat_dir_size(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  vsh_drv_stat st;
  mkd(d, P("/sz/small"));
  mkd(d, P("/sz/big"));
  vsh_drv_exec_opts o = {.cwd = P("/sz")};
  vsh_result r = run(d,
                     "for i in $(seq 300); do : > big/a-long-file-name-$i; "
                     "done; stat -c %s small big . && stat -c %s small/..",
                     &o);
  assert_int_equal(r.status, 0);
  unsigned long long want[4];
  assert_int_equal(sscanf(r.out, "%llu %llu %llu %llu", &want[0], &want[1],
                          &want[2], &want[3]),
                   4);
  vsh_result_free(&r);
  static const char *const dirs[] = {"/sz/small", "/sz/big", "/sz",
                                     "/sz/small/.."};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(d->stat(d, P(dirs[i]), &st, &err), 0);
    assert_true(st.is_directory);
    assert_true(st.fields & VSH_DRV_HAS_SIZE);
    if (st.size != want[i])
      fail_msg("stat %s: size %llu, stat -c %%s says %llu", dirs[i],
               (unsigned long long)st.size, want[i]);
    assert_true(st.size > 0);
  }
}

static void test_stat_symlink(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  vsh_drv_stat st;
  put(d, P("/f.txt"), "hello");
  mkd(d, P("/dd"));
  vsh_drv_exec_opts o = {.cwd = P("/")};
  vsh_result r = run(d, "ln -s f.txt l && ln -s dd ld && ln -s nope dl", &o);
  assert_int_equal(r.status, 0);
  vsh_result_free(&r);

  /* isSymbolicLink describes the path; type and size the target. */
  assert_int_equal(d->stat(d, P("/l"), &st, &err), 0);
  assert_true(st.fields & VSH_DRV_HAS_SYMLINK);
  assert_true(st.is_symlink);
  assert_true(st.is_file);
  assert_false(st.is_directory);
  assert_int_equal(st.size, 5);

  assert_int_equal(d->stat(d, P("/ld"), &st, &err), 0);
  assert_true(st.is_symlink);
  assert_true(st.is_directory);

  /* A dangling link has no target to describe. */
  int rc = d->stat(d, P("/dl"), &st, &err);
  assert_errno(rc, &err, ENOENT, P("/dl"));
  assert_false(d->exists(d, P("/dl")));

  /* Reading through the link reads the target. */
  char *data;
  size_t len;
  assert_int_equal(d->read_file(d, P("/l"), &data, &len, &err), 0);
  assert_string_equal(data, "hello");
  d->free_buf(d, data);
}

static void free_names(vsh_driver *d, char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    d->free_buf(d, names[i]);
  d->free_buf(d, names);
}

static int has_name(char **names, size_t n, const char *want) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(names[i], want) == 0)
      return 1;
  return 0;
}

static void test_readdir(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  mkd(d, P("/r/sub"));
  put(d, P("/r/.hidden"), "h");
  put(d, P("/r/b"), "b");
  put(d, P("/r/a"), "a");
  char **names = NULL;
  size_t n = 0;
  assert_int_equal(d->readdir(d, P("/r"), &names, &n, &err), 0);
  assert_int_equal(n, 4);
  assert_true(has_name(names, n, ".hidden"));
  assert_true(has_name(names, n, "a"));
  assert_true(has_name(names, n, "b"));
  assert_true(has_name(names, n, "sub"));
  assert_false(has_name(names, n, "."));
  assert_false(has_name(names, n, ".."));
  free_names(d, names, n);

  mkd(d, P("/emptydir"));
  assert_int_equal(d->readdir(d, P("/emptydir"), &names, &n, &err), 0);
  assert_int_equal(n, 0);
  free_names(d, names, n);

  int rc = d->readdir(d, P("/r/a"), &names, &n, &err);
  assert_errno(rc, &err, ENOTDIR, P("/r/a"));
  rc = d->readdir(d, P("/none"), &names, &n, &err);
  assert_errno(rc, &err, ENOENT, P("/none"));
}

static void test_exists(void **state) {
  vsh_driver *d = drv(state);
  put(d, P("/f.txt"), "x");
  mkd(d, P("/dir"));
  assert_true(d->exists(d, P("/")));
  assert_true(d->exists(d, P("/f.txt")));
  assert_true(d->exists(d, P("/dir")));
  assert_false(d->exists(d, P("/missing")));
  assert_false(d->exists(d, P("/f.txt/under-a-file")));
  assert_false(d->exists(d, P("/missing/deeper/still")));
  /* Never fails, whatever it is given. */
  char *longp = malloc(20000);
  assert_non_null(longp);
  for (int i = 0; i < 19998; i++)
    longp[i] = i % 2 ? 'a' : '/';
  longp[19998] = 'b';
  longp[19999] = 0;
  assert_false(d->exists(d, longp));
  free(longp);
}

/* "" names nothing (Node: existsSync("") is false, the others ENOENT,
 * rm with force ignores it); never the root or the cwd. */
static void test_empty_path(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  vsh_drv_stat st;
  char *data = NULL, **names = NULL;
  size_t len = 0, n = 0;
  assert_int_equal(d->exists(d, ""), 0);
  assert_errno(d->stat(d, "", &st, &err), &err, ENOENT, "''");
  assert_errno(d->read_file(d, "", &data, &len, &err), &err, ENOENT, "''");
  assert_null(data);
  assert_errno(d->write_file(d, "", "x", 1, &err), &err, ENOENT, "''");
  assert_errno(d->readdir(d, "", &names, &n, &err), &err, ENOENT, "''");
  assert_null(names);
  assert_errno(d->mkdir(d, "", 1, &err), &err, ENOENT, "''");
  assert_errno(d->mkdir(d, "", 0, &err), &err, ENOENT, "''");
  assert_errno(d->rm(d, "", 1, 0, &err), &err, ENOENT, "''");
  assert_int_equal(d->rm(d, "", 1, 1, &err), 0);
  assert_true(d->exists(d, "/"));
  assert_true(d->exists(d, P("/")));
}

/* Two spellings of one path get one answer: drivers normalise lexically
 * (`..` is applied to the name, not after following a link). */
static void test_path_spellings(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  put(d, P("/sp/f.txt"), "same");
  static const char *const names[] = {"/sp/f.txt", "/sp/./f.txt", "/sp//f.txt",
                                      "/sp/nope/../f.txt", "/sp/../sp/f.txt"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const char *p = P(names[i]);
    if (!d->exists(d, p))
      fail_msg("exists(%s) is false", p);
    char *data;
    size_t len;
    if (d->read_file(d, p, &data, &len, &err) != 0)
      fail_msg("read %s: %s", p, err.message);
    assert_string_equal(data, "same");
    d->free_buf(d, data);
  }
  assert_int_equal(d->mkdir(d, P("/sp/a/../b/./c"), 1, &err), 0);
  assert_true(d->exists(d, P("/sp/b/c")));
  assert_false(d->exists(d, P("/sp/a")));
}

/* mkdir -p as Node's fs.mkdirSync(p, {recursive: true}): a dangling link
 * in the way is ENOENT (checked with node 20), at the end or among the
 * parents, and nothing is created at its target; a link loop is ELOOP. */
static void test_mkdir_dangling(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  mkd(d, P("/md"));
  vsh_drv_exec_opts o = {.cwd = P("/md")};
  vsh_result r =
      run(d, "ln -s missing dl && ln -s loop loop && ln -s . self", &o);
  assert_int_equal(r.status, 0);
  vsh_result_free(&r);
  assert_errno(d->mkdir(d, P("/md/dl/sub"), 1, &err), &err, ENOENT,
               P("/md/dl/sub"));
  assert_errno(d->mkdir(d, P("/md/dl/a/b"), 1, &err), &err, ENOENT,
               P("/md/dl/a/b"));
  assert_errno(d->mkdir(d, P("/md/dl"), 1, &err), &err, ENOENT, P("/md/dl"));
  assert_false(d->exists(d, P("/md/missing")));
  /* Without recursive: the link itself is an entry (EEXIST); under it the
   * parent is missing (ENOENT). */
  assert_errno(d->mkdir(d, P("/md/dl"), 0, &err), &err, EEXIST, P("/md/dl"));
  assert_errno(d->mkdir(d, P("/md/dl/sub"), 0, &err), &err, ENOENT,
               P("/md/dl/sub"));
  assert_errno(d->mkdir(d, P("/md/loop/sub"), 1, &err), &err, ELOOP,
               P("/md/loop/sub"));
  assert_errno(d->mkdir(d, P("/md/loop"), 1, &err), &err, ELOOP, P("/md/loop"));
  /* A link to a directory is a directory. */
  assert_int_equal(d->mkdir(d, P("/md/self"), 1, &err), 0);
  assert_int_equal(d->mkdir(d, P("/md/self/made"), 1, &err), 0);
  assert_true(d->exists(d, P("/md/made")));
  assert_false(d->exists(d, P("/md/missing")));
}

static void test_mkdir(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  vsh_drv_stat st;
  /* -p creates parents and tolerates an existing directory. */
  assert_int_equal(d->mkdir(d, P("/m/a/b/c"), 1, &err), 0);
  assert_int_equal(d->stat(d, P("/m/a/b/c"), &st, &err), 0);
  assert_true(st.is_directory);
  assert_int_equal(d->mkdir(d, P("/m/a/b/c"), 1, &err), 0);
  assert_int_equal(d->mkdir(d, P("/m"), 1, &err), 0);
  assert_int_equal(d->mkdir(d, P("/"), 1, &err), 0);

  /* -p over a file: EEXIST. */
  put(d, P("/m/file"), "f");
  int rc = d->mkdir(d, P("/m/file"), 1, &err);
  assert_errno(rc, &err, EEXIST, P("/m/file"));
  /* -p through a file: fails (ENOTDIR). */
  rc = d->mkdir(d, P("/m/file/sub"), 1, &err);
  assert_int_equal(rc, -1);
  assert_int_equal(err.kind, VSH_DRV_ERRNO);

  /* Non-recursive: parent must exist, entry must not. */
  assert_int_equal(d->mkdir(d, P("/m/one"), 0, &err), 0);
  assert_true(d->exists(d, P("/m/one")));
  rc = d->mkdir(d, P("/m/one"), 0, &err);
  assert_errno(rc, &err, EEXIST, P("/m/one"));
  rc = d->mkdir(d, P("/m/file"), 0, &err);
  assert_errno(rc, &err, EEXIST, P("/m/file"));
  rc = d->mkdir(d, P("/nope/child"), 0, &err);
  assert_errno(rc, &err, ENOENT, P("/nope/child"));
  assert_false(d->exists(d, P("/nope")));
}

static void test_rm(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  put(d, P("/gone.txt"), "x");
  assert_int_equal(d->rm(d, P("/gone.txt"), 0, 0, &err), 0);
  assert_false(d->exists(d, P("/gone.txt")));

  /* force ignores a missing path; without it, ENOENT. */
  assert_int_equal(d->rm(d, P("/gone.txt"), 0, 1, &err), 0);
  assert_int_equal(d->rm(d, P("/no/such/dir/x"), 1, 1, &err), 0);
  int rc = d->rm(d, P("/gone.txt"), 0, 0, &err);
  assert_errno(rc, &err, ENOENT, P("/gone.txt"));

  /* A directory without recursive: EISDIR, and nothing removed. */
  put(d, P("/t/a/b/leaf"), "1");
  put(d, P("/t/top"), "2");
  mkd(d, P("/t/emptysub"));
  rc = d->rm(d, P("/t/emptysub"), 0, 0, &err);
  assert_errno(rc, &err, EISDIR, P("/t/emptysub"));
  rc = d->rm(d, P("/t"), 0, 1, &err);
  assert_errno(rc, &err, EISDIR, P("/t"));
  assert_true(d->exists(d, P("/t/a/b/leaf")));

  /* Recursive removes the tree. */
  assert_int_equal(d->rm(d, P("/t"), 1, 0, &err), 0);
  assert_false(d->exists(d, P("/t")));
  assert_false(d->exists(d, P("/t/a/b/leaf")));
}

/* The rest of Node's fs.rm rules (checked with node 20): a directory
 * without recursive is EISDIR (Node's ERR_FS_EISDIR, info.code "EISDIR"),
 * empty or not, force or not; force ignores ENOENT only, a path under a
 * file stays ENOTDIR. The root cannot be removed and nothing is. */
static void test_rm_rules(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  put(d, P("/rr/full/x"), "1");
  mkd(d, P("/rr/empty"));
  put(d, P("/rr/file"), "f");
  for (int force = 0; force < 2; force++) {
    assert_errno(d->rm(d, P("/rr/full"), 0, force, &err), &err, EISDIR,
                 P("/rr/full"));
    assert_errno(d->rm(d, P("/rr/empty"), 0, force, &err), &err, EISDIR,
                 P("/rr/empty"));
    assert_errno(d->rm(d, P("/rr/file/x"), 0, force, &err), &err, ENOTDIR,
                 P("/rr/file/x"));
    assert_errno(d->rm(d, P("/rr/file/x"), 1, force, &err), &err, ENOTDIR,
                 P("/rr/file/x"));
  }
  assert_int_equal(d->rm(d, P("/rr/missing/x"), 0, 1, &err), 0);
  assert_true(d->exists(d, P("/rr/full/x")));
  assert_true(d->exists(d, P("/rr/empty")));
  /* The root: a directory (EISDIR); recursive cannot remove it (EBUSY,
   * the kernel's answer for rmdir("/")) and leaves everything. */
  assert_errno(d->rm(d, "/", 0, 0, &err), &err, EISDIR, "'/'");
  assert_errno(d->rm(d, "/", 1, 1, &err), &err, EBUSY, "'/'");
  assert_errno(d->rm(d, "/..", 1, 0, &err), &err, EBUSY, "/..");
  assert_true(d->exists(d, P("/rr/full/x")));
  assert_int_equal(d->rm(d, P("/rr"), 1, 0, &err), 0);
  assert_false(d->exists(d, P("/rr")));
}

static void test_rm_symlink_not_followed(void **state) {
  vsh_driver *d = drv(state);
  vsh_drv_err err = {0};
  put(d, P("/keep/x"), "precious");
  vsh_drv_exec_opts o = {.cwd = P("/")};
  vsh_result r = run(d, "ln -s keep lk && ln -s keep/x lx", &o);
  assert_int_equal(r.status, 0);
  vsh_result_free(&r);
  /* rm of a link removes the link, even recursive: never the target. */
  assert_int_equal(d->rm(d, P("/lk"), 1, 0, &err), 0);
  assert_int_equal(d->rm(d, P("/lx"), 0, 0, &err), 0);
  assert_false(d->exists(d, P("/lk")));
  assert_true(d->exists(d, P("/keep/x")));
}

/* ----------------------------------------------------- local-only tests */

static void test_local_containment(void **state) {
  fixture *fx = *state;
  vsh_driver *d = fx->d;
  vsh_drv_err err = {0};
  /* `..` cannot climb out of the root. */
  put(d, "/../../../escape.txt", "in");
  char host[256];
  snprintf(host, sizeof host, "%s/escape.txt", fx->dir);
  assert_int_equal(access(host, F_OK), 0);
  /* A symlink to an absolute host path resolves inside the root. */
  snprintf(host, sizeof host, "%s/abs", fx->dir);
  assert_int_equal(symlink("/etc", host), 0);
  char *data;
  size_t len;
  int rc = d->read_file(d, "/abs/hostname", &data, &len, &err);
  assert_errno(rc, &err, ENOENT, "/abs/hostname");
  snprintf(host, sizeof host, "%s/up", fx->dir);
  assert_int_equal(symlink("../../../../../../..", host), 0);
  rc = d->read_file(d, "/up/etc/hostname", &data, &len, &err);
  assert_int_equal(rc, -1);
  assert_false(d->exists(d, "/up/etc/passwd"));
}

static void test_local_env(void **state) {
  vsh_driver *d = drv(state);
  /* extra_env additions reach commands; "unset" in a call removes them. */
  vsh_result r = run(d, "echo \"$VSH_DRV_EXTRA\"", NULL);
  assert_string_equal(r.out, "extra\n");
  vsh_result_free(&r);
  const char *env[] = {"VSH_DRV_EXTRA=unset", NULL};
  vsh_drv_exec_opts o = {.env = env};
  r = run(d, "echo \"${VSH_DRV_EXTRA-removed}\"", &o);
  assert_string_equal(r.out, "removed\n");
  vsh_result_free(&r);
  /* The command runs in its own process group. */
  r = run(d, "ps -o pgid= -p $$ | tr -d ' '; echo $$", NULL);
  char pg[32], pid[32];
  if (r.status == 0 && sscanf(r.out, "%31s %31s", pg, pid) == 2)
    assert_string_equal(pg, pid);
  vsh_result_free(&r);
}

static void test_local_timeout_kills_group(void **state) {
  fixture *fx = *state;
  vsh_driver *d = fx->d;
  /* A background job in the group ignoring nothing special: TERM ends all,
   * and the file it would write later never appears. */
  vsh_drv_exec_opts o = {.timeout_ms = 200, .cwd = "/"};
  vsh_result r = run(d, "(sleep 1; echo late > late.txt) & sleep 5", &o);
  assert_int_equal(r.status, 124);
  vsh_result_free(&r);
  sleep(2);
  char host[256];
  snprintf(host, sizeof host, "%s/late.txt", fx->dir);
  assert_int_equal(access(host, F_OK), -1);
}

static int count_fds(void) {
  int n = 0;
  char p[64];
  for (int fd = 0; fd < 1024; fd++) {
    snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
    n += access(p, F_OK) == 0;
  }
  return n;
}

static void test_local_no_fd_leak(void **state) {
  vsh_driver *d = drv(state);
  vsh_result r = run(d, "true", NULL); /* warm up lazily opened fds */
  vsh_result_free(&r);
  int before = count_fds();
  vsh_drv_exec_opts o = {.timeout_ms = 50};
  for (int i = 0; i < 10; i++) {
    r = run(d, i % 2 ? "echo x; echo y >&2" : "sleep 1", &o);
    vsh_result_free(&r);
    char **names;
    size_t n;
    vsh_drv_err err;
    put(d, "/fd/f", "x");
    if (d->readdir(d, "/fd", &names, &n, &err) == 0)
      free_names(d, names, n);
    assert_int_equal(d->rm(d, "/fd", 1, 0, &err), 0);
  }
  assert_int_equal(count_fds(), before);
}

/* ---------------------------------------------------------------- main */

#define DRIVER_TESTS(X)                                                        \
  X(test_exec_status_and_streams)                                              \
  X(test_exec_binary_stdout)                                                   \
  X(test_exec_env)                                                             \
  X(test_exec_cwd)                                                             \
  X(test_exec_cwd_missing)                                                     \
  X(test_exec_pwd_normalised)                                                  \
  X(test_exec_timeout)                                                         \
  X(test_exec_output_cap)                                                      \
  X(test_exec_bashisms)                                                        \
  X(test_exec_cancel_before)                                                   \
  X(test_exec_cancel_midflight)                                                \
  X(test_read_write)                                                           \
  X(test_write_with_parents)                                                   \
  X(test_stat)                                                                 \
  X(test_stat_dir_size)                                                        \
  X(test_stat_symlink)                                                         \
  X(test_readdir)                                                              \
  X(test_exists)                                                               \
  X(test_empty_path)                                                           \
  X(test_path_spellings)                                                       \
  X(test_mkdir)                                                                \
  X(test_mkdir_dangling)                                                       \
  X(test_rm)                                                                   \
  X(test_rm_rules)                                                             \
  X(test_rm_symlink_not_followed)

#define AS_TEST(fn)                                                            \
  cmocka_unit_test_prestate_setup_teardown(fn, fx_setup, fx_teardown, NULL),

int main(void) {
  int failed = 0;
  const struct CMUnitTest helpers[] = {cmocka_unit_test(test_resolve_path)};
  failed += cmocka_run_group_tests_name("path helpers", helpers, NULL, NULL);

  /* The same table for every driver; only the factory differs. An
   * environment variable picks one driver (e.g. while another layer is
   * still being written). */
  const char *only = getenv("VSH_TEST_DRIVER");
  for (size_t i = 0; i < sizeof factories / sizeof *factories; i++) {
    if (only && *only && strcmp(only, factories[i].name) != 0)
      continue;
    struct CMUnitTest tests[] = {DRIVER_TESTS(AS_TEST)};
    for (size_t j = 0; j < sizeof tests / sizeof *tests; j++)
      tests[j].initial_state = (void *)&factories[i];
    failed += cmocka_run_group_tests_name(factories[i].name, tests, NULL, NULL);
  }

  if (!only || !*only || strcmp(only, "local") == 0) {
    struct CMUnitTest local[] = {AS_TEST(test_local_containment)
                                     AS_TEST(test_local_env)
                                         AS_TEST(test_local_timeout_kills_group)
                                             AS_TEST(test_local_no_fd_leak)};
    for (size_t j = 0; j < sizeof local / sizeof *local; j++)
      local[j].initial_state = (void *)&factories[1];
    failed += cmocka_run_group_tests_name("local only", local, NULL, NULL);
  }
  return failed ? 1 : 0;
}
