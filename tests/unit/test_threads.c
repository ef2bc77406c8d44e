// layers: all
/*
 * test_threads.c - sandboxes that share filesystem nodes, used from several
 * threads at once (include/vsh.h: different sandboxes may run in parallel,
 * calls on one sandbox are serialized, a cancel token may be set from any
 * thread).
 *
 * Every sandbox here is opened from one parent (vsh_open_from a snapshot,
 * vsh_fork), so all of them hold the same nodes: the parent's files, its
 * hard links and a host directory layered at /mnt whose nodes are still
 * lazy (not listed, not read) when the threads start. Each thread then
 * stats, reads, writes and runs scripts over those shared nodes, which
 * copies them (copy on write), loads them in place (lazy host nodes) and
 * moves their reference counts from every thread at once. The checks here
 * are about results (each sandbox sees its own writes and the host's
 * bytes); the races themselves are found by the ThreadSanitizer build of
 * this test (scripts/tsan.sh), which fails on any report.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "vsh.h"

#define NTHREADS 4
#define GENERATIONS 3 /* fresh parents: fresh lazy host nodes to race on */
#define ROUNDS 4

/* ---- the host directory layered at /mnt ---- */

static char host_root[64];

static void put(const char *rel, const char *data) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", host_root, rel);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(data, f);
  fclose(f);
}

static void sub(const char *rel) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", host_root, rel);
  assert_int_equal(mkdir(p, 0755), 0);
}

static int group_setup(void **state) {
  (void)state;
  snprintf(host_root, sizeof host_root, "/tmp/vsh-threads-XXXXXX");
  if (!mkdtemp(host_root))
    return -1;
  put("top.txt", "top\n");
  sub("d1");
  put("d1/a.txt", "alpha\n");
  put("d1/b.txt", "beta\n");
  sub("d1/sub");
  put("d1/sub/c.txt", "gamma\n");
  sub("d2");
  for (int i = 0; i < 12; i++) {
    char n[32];
    snprintf(n, sizeof n, "d2/f%02d", i);
    put(n, n);
  }
  return 0;
}

static int group_teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", host_root);
  return system(cmd) == 0 ? 0 : -1;
}

static vsh_mount mnt(void) {
  vsh_mount m = {host_root, "/mnt"};
  return m;
}

/* A parent with shared files, a hard link and the host layer, all of it
 * untouched below /mnt (so still lazy). */
static vsh_sandbox *parent_new(void) {
  vsh_config cfg;
  vsh_config_init(&cfg);
  vsh_mount m = mnt();
  cfg.mounts = &m;
  cfg.nmounts = 1;
  vsh_sandbox *p = NULL;
  assert_int_equal(vsh_open(&cfg, &p), VSH_OK);
  vsh_result r;
  assert_int_equal(vsh_exec(p,
                            "mkdir -p /home/user/shared && cd /home/user/shared"
                            " && for i in 0 1 2 3; do echo base$i > f$i; done"
                            " && printf 'common\\n' > common && ln common hl",
                            NULL, &r),
                   VSH_OK);
  assert_int_equal(r.status, 0);
  vsh_result_free(&r);
  return p;
}

/* ---- one thread's work on its own sandbox ---- */

typedef struct worker {
  int id;
  vsh_sandbox *sb;          /* opened by the thread when NULL */
  const vsh_snapshot *from; /* ... from this snapshot */
  vsh_sandbox *fork_of;     /* ... or as a fork of this parent */
  int second_mount;         /* also layer the host dir at /mnt2 */
  pthread_barrier_t *start;
  char err[512]; /* first failure, checked after join */
} worker;

static void failf(worker *w, const char *fmt, ...) {
  if (w->err[0])
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->err, sizeof w->err, fmt, ap);
  va_end(ap);
}

static void want_file(worker *w, const char *path, const char *want) {
  char *d = NULL;
  size_t n = 0;
  vsh_status st = vsh_read_file(w->sb, path, &d, &n);
  if (st != VSH_OK)
    failf(w, "t%d: read %s: %s", w->id, path, vsh_errmsg(w->sb));
  else if (n != strlen(want) || memcmp(d, want, n))
    failf(w, "t%d: %s is [%.*s], want [%s]", w->id, path, (int)n, d, want);
  vsh_free(w->sb, d);
}

/* size UINT64_MAX: any */
static void want_stat(worker *w, const char *path, vsh_file_type type,
                      uint64_t size) {
  vsh_stat st;
  if (vsh_stat_path(w->sb, path, &st) != VSH_OK)
    failf(w, "t%d: stat %s: %s", w->id, path, vsh_errmsg(w->sb));
  else if (st.type != type || (size != UINT64_MAX && st.size != size))
    failf(w, "t%d: stat %s: type %d size %llu", w->id, path, (int)st.type,
          (unsigned long long)st.size);
}

static void want_exec(worker *w, const char *script, const char *out) {
  vsh_result r;
  vsh_status st = vsh_exec(w->sb, script, NULL, &r);
  if (st != VSH_OK)
    failf(w, "t%d: exec: %s", w->id, vsh_errmsg(w->sb));
  else if (r.status != 0 || strcmp(r.out, out))
    failf(w, "t%d: `%s` gave [%s] %d (stderr %s), want [%s]", w->id, script,
          r.out, r.status, r.err, out);
  vsh_result_free(&r);
}

static void count_change(void *ud, vsh_change_kind kind, const char *path,
                         unsigned what) {
  (void)what;
  *(int *)ud += kind == VSH_MODIFIED && !strcmp(path, "/mnt/top.txt") ? 1 : 100;
}

static int count_bytes(void *ud, const void *data, size_t len) {
  (void)data;
  *(size_t *)ud += len;
  return 0;
}

static void work(worker *w) {
  char p[128], data[64], script[512], out[256];
  /* The shared lazy nodes first, from every thread at once: a stat of a
   * directory that another thread is listing, a read of a file another is
   * loading. */
  want_stat(w, "/mnt/d1", VSH_TYPE_DIR, UINT64_MAX);
  want_stat(w, "/mnt/top.txt", VSH_TYPE_FILE, 4);
  want_file(w, "/mnt/d1/a.txt", "alpha\n");
  want_stat(w, "/mnt/d1/sub", VSH_TYPE_DIR, UINT64_MAX);
  want_stat(w, "/mnt/d2", VSH_TYPE_DIR, UINT64_MAX);
  char **names = NULL;
  size_t n = 0;
  if (vsh_readdir(w->sb, "/mnt/d2", &names, &n) != VSH_OK || n != 12)
    failf(w, "t%d: readdir /mnt/d2: %zu names", w->id, n);
  else
    vsh_free_names(w->sb, names, n);
  for (int r = 0; r < ROUNDS; r++) {
    /* Copy on write of shared nodes, through the API and a script. */
    snprintf(p, sizeof p, "/home/user/shared/f%d", (w->id + r) % 4);
    snprintf(data, sizeof data, "t%d r%d\n", w->id, r);
    if (vsh_write_file(w->sb, p, data, strlen(data), 0) != VSH_OK)
      failf(w, "t%d: write %s: %s", w->id, p, vsh_errmsg(w->sb));
    want_file(w, p, data);
    want_stat(w, p, VSH_TYPE_FILE, strlen(data));
    want_stat(w, "/home/user/shared/common", VSH_TYPE_FILE, UINT64_MAX);
    if (vsh_append_file(w->sb, "/mnt/d1/b.txt", "+", 1) != VSH_OK)
      failf(w, "t%d: append: %s", w->id, vsh_errmsg(w->sb));
    snprintf(script, sizeof script,
             "cat /mnt/d1/sub/c.txt /mnt/d2/f0%d; ls /mnt/d2 | wc -l;"
             " echo t%d >> /home/user/shared/hl; wc -l < /home/user/shared/"
             "common; echo r%d > /tmp/mine; cat /tmp/mine;"
             " printf '%%s\\n' c b a | sort | head -n 2 | tr -d '\\n'; echo",
             r % 10, w->id, r);
    snprintf(out, sizeof out, "gamma\nd2/f0%d12\n%d\nr%d\nab\n", r % 10, r + 2,
             r);
    want_exec(w, script, out);
    /* The commands themselves (awk, regex engines, digests, the clock)
     * keep no state between sandboxes. */
    want_exec(w,
              "awk 'BEGIN{x=y; z=x; a[1]; for(k in a) n++; print length(z) n}';"
              " echo 'a b c' | awk '{print $5 \"\" $2}';"
              " printf 'x1\\ny2\\n' | grep -E '^[xy][0-9]$' |"
              " sed 's/[0-9]/N/' | sort -r | tr a-z A-Z;"
              " echo hi | md5sum | cut -c1-8; date -u -d @0 +%Y;"
              " echo abc | rev; printf '%05.1f\\n' 3.14159",
              "01\nb\nYN\nXN\n764efa88\n1970\ncba\n003.1\n");
    /* A snapshot of a tree that shares nodes with the other threads', and
     * a restore of it. */
    vsh_snapshot *s = NULL;
    if (vsh_snapshot_take(w->sb, &s) != VSH_OK) {
      failf(w, "t%d: snapshot: %s", w->id, vsh_errmsg(w->sb));
      continue;
    }
    if (vsh_write_file(w->sb, "/mnt/top.txt", "x", 1, 0) != VSH_OK)
      failf(w, "t%d: write: %s", w->id, vsh_errmsg(w->sb));
    int changes = 0;
    if (vsh_diff(w->sb, s, NULL, count_change, &changes) != VSH_OK ||
        changes != 1)
      failf(w, "t%d: diff: %d changes", w->id, changes);
    if (vsh_restore(w->sb, s) != VSH_OK)
      failf(w, "t%d: restore: %s", w->id, vsh_errmsg(w->sb));
    vsh_snapshot_free(s);
    want_file(w, "/mnt/top.txt", "top\n");
  }
  /* A tar of shared host nodes, loading the lazy ones on the way. */
  size_t tar_bytes = 0;
  if (vsh_persist(w->sb, "/mnt/d2", NULL, count_bytes, &tar_bytes) != VSH_OK ||
      tar_bytes < 12 * 512)
    failf(w, "t%d: persist: %zu bytes: %s", w->id, tar_bytes,
          vsh_errmsg(w->sb));
  snprintf(out, sizeof out, "beta\n%.*s", ROUNDS, "++++++++++++++++");
  want_file(w, "/mnt/d1/b.txt", out);
  if (w->second_mount)
    want_file(w, "/mnt2/d1/sub/c.txt", "gamma\n");
}

static void *worker_main(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(w->start);
  if (!w->sb) {
    vsh_config cfg;
    vsh_config_init(&cfg);
    vsh_mount m = {host_root, "/mnt2"};
    if (w->second_mount) {
      cfg.mounts = &m;
      cfg.nmounts = 1;
    }
    vsh_status st = w->from ? vsh_open_from(w->from, &cfg, &w->sb)
                            : vsh_fork(w->fork_of, &w->sb);
    if (st != VSH_OK) {
      failf(w, "t%d: open: %s", w->id, vsh_status_str(st));
      return NULL;
    }
  }
  work(w);
  return NULL;
}

/* Start one worker per thread (after a barrier, so they collide), join
 * them, report the first failure, close their sandboxes. */
static void run_workers(worker *w, int n, pthread_barrier_t *bar) {
  pthread_t th[NTHREADS];
  for (int i = 0; i < n; i++) {
    w[i].id = i;
    w[i].start = bar;
    assert_int_equal(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
  }
  for (int i = 0; i < n; i++)
    pthread_join(th[i], NULL);
  for (int i = 0; i < n; i++) {
    if (w[i].err[0])
      fail_msg("%s", w[i].err);
    vsh_close(w[i].sb);
  }
}

/* Sandboxes opened (concurrently) from one snapshot of a parent, some
 * with a second layer of the same host directory of their own. */
static void test_open_from_snapshot(void **state) {
  (void)state;
  for (int g = 0; g < GENERATIONS; g++) {
    vsh_sandbox *p = parent_new();
    vsh_snapshot *s = NULL;
    assert_int_equal(vsh_snapshot_take(p, &s), VSH_OK);
    vsh_close(p); /* the snapshot alone holds the nodes now */
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, NTHREADS);
    worker w[NTHREADS] = {0};
    for (int i = 0; i < NTHREADS; i++) {
      w[i].from = s;
      w[i].second_mount = i % 2;
    }
    run_workers(w, NTHREADS, &bar);
    pthread_barrier_destroy(&bar);
    vsh_snapshot_free(s);
  }
}

/* Forks made concurrently from one parent that the main thread keeps
 * using (and changing) meanwhile. */
static void test_fork(void **state) {
  (void)state;
  for (int g = 0; g < GENERATIONS; g++) {
    vsh_sandbox *p = parent_new();
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, NTHREADS + 1);
    worker w[NTHREADS] = {0};
    for (int i = 0; i < NTHREADS; i++)
      w[i].fork_of = p;
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
      w[i].id = i;
      w[i].start = &bar;
      assert_int_equal(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    pthread_barrier_wait(&bar);
    for (int k = 0; k < 3; k++) {
      vsh_result r;
      assert_int_equal(vsh_exec(p,
                                "cat /mnt/d1/a.txt; echo p >> "
                                "/home/user/shared/main; ls /mnt/d1 | wc -l",
                                NULL, &r),
                       VSH_OK);
      assert_string_equal(r.out, "alpha\n3\n");
      vsh_result_free(&r);
      vsh_stat st;
      assert_int_equal(vsh_stat_path(p, "/mnt/d2", &st), VSH_OK);
    }
    for (int i = 0; i < NTHREADS; i++)
      pthread_join(th[i], NULL);
    for (int i = 0; i < NTHREADS; i++) {
      if (w[i].err[0])
        fail_msg("%s", w[i].err);
      vsh_close(w[i].sb);
    }
    pthread_barrier_destroy(&bar);
    char *d = NULL;
    size_t n = 0;
    assert_int_equal(vsh_read_file(p, "/home/user/shared/main", &d, &n),
                     VSH_OK);
    assert_string_equal(d, "p\np\np\n");
    vsh_free(p, d);
    vsh_close(p);
  }
}

/* ---- cross-thread calls the header allows ---- */

typedef struct runner {
  vsh_sandbox *sb;
  vsh_cancel *cancel;
  const char *script;
  vsh_status st;
  vsh_result res;
  pthread_barrier_t *start;
} runner;

static void *runner_main(void *arg) {
  runner *r = arg;
  vsh_exec_opts o = {0};
  o.cancel = r->cancel;
  pthread_barrier_wait(r->start);
  r->st = vsh_exec(r->sb, r->script, &o, &r->res);
  return NULL;
}

/* Endless scripts over shared nodes in several sandboxes, each stopped by
 * vsh_cancel_set from the main thread. */
static void test_cancel_from_other_thread(void **state) {
  (void)state;
  vsh_sandbox *p = parent_new();
  vsh_snapshot *s = NULL;
  assert_int_equal(vsh_snapshot_take(p, &s), VSH_OK);
  pthread_barrier_t bar;
  pthread_barrier_init(&bar, NULL, NTHREADS + 1);
  runner rs[NTHREADS] = {0};
  pthread_t th[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    assert_int_equal(vsh_open_from(s, NULL, &rs[i].sb), VSH_OK);
    rs[i].cancel = vsh_cancel_new();
    rs[i].start = &bar;
    rs[i].script =
        i % 2 ? "while :; do cat /mnt/d1/a.txt > /tmp/x; done"
              : "yes /home/user/shared/f1 | xargs cat | cat >/dev/null";
    assert_int_equal(pthread_create(&th[i], NULL, runner_main, &rs[i]), 0);
  }
  pthread_barrier_wait(&bar);
  struct timespec ts = {0, 100 * 1000 * 1000};
  nanosleep(&ts, NULL);
  for (int i = 0; i < NTHREADS; i++)
    vsh_cancel_set(rs[i].cancel);
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    assert_int_equal(rs[i].st, VSH_ABORT);
    assert_true(rs[i].res.flags & VSH_RESULT_CANCELLED);
    vsh_result_free(&rs[i].res);
    vsh_cancel_free(rs[i].cancel);
    /* usable afterwards */
    vsh_result r;
    assert_int_equal(vsh_exec(rs[i].sb, "cat /mnt/d1/a.txt", NULL, &r), VSH_OK);
    assert_string_equal(r.out, "alpha\n");
    vsh_result_free(&r);
    vsh_close(rs[i].sb);
  }
  pthread_barrier_destroy(&bar);
  vsh_snapshot_free(s);
  vsh_close(p);
}

/* File calls on a sandbox from another thread while an exec runs in it:
 * they wait for the exec (calls on one sandbox are serialized) and see a
 * consistent tree. */
static void test_file_calls_during_exec(void **state) {
  (void)state;
  vsh_sandbox *p = parent_new();
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_fork(p, &sb), VSH_OK);
  pthread_barrier_t bar;
  pthread_barrier_init(&bar, NULL, 2);
  runner r = {0};
  r.sb = sb;
  r.start = &bar;
  r.script = "for i in $(seq 300); do echo $i >> /tmp/log;"
             " cat /mnt/d1/a.txt > /dev/null; done; wc -l < /tmp/log";
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, runner_main, &r), 0);
  pthread_barrier_wait(&bar);
  for (int i = 0; i < 100; i++) {
    vsh_stat st;
    vsh_status s = vsh_stat_path(sb, "/tmp/log", &st);
    assert_true(s == VSH_OK || (s == VSH_FS && vsh_errcode(sb) == ENOENT));
    char *d = NULL;
    size_t n = 0;
    assert_int_equal(vsh_read_file(sb, "/mnt/d1/sub/c.txt", &d, &n), VSH_OK);
    assert_string_equal(d, "gamma\n");
    vsh_free(sb, d);
    char data[32];
    snprintf(data, sizeof data, "%d", i);
    assert_int_equal(vsh_write_file(sb, "/tmp/other", data, strlen(data), 0),
                     VSH_OK);
    assert_true(vsh_memory_used(sb) > 0);
  }
  pthread_join(th, NULL);
  assert_int_equal(r.st, VSH_OK);
  assert_string_equal(r.res.out, "300\n");
  vsh_result_free(&r.res);
  pthread_barrier_destroy(&bar);
  vsh_close(sb);
  vsh_close(p);
}

/* Failing calls on one sandbox from two threads at once: each records its
 * error on the sandbox, some after dropping the sandbox lock. */
static void *fail_calls(void *arg) {
  vsh_sandbox *sb = arg;
  for (int i = 0; i < 200; i++) {
    char *d = NULL;
    size_t n = 0;
    if (vsh_read_file(sb, "/no/such/file", &d, &n) != VSH_FS)
      return "read of a missing file did not fail";
    vsh_stat st;
    if (vsh_stat_path(sb, "/mnt/d1/none", &st) != VSH_FS)
      return "stat of a missing file did not fail";
    if (vsh_register_command(sb, "a/b", NULL, NULL) != VSH_MISUSE)
      return "a bad registration did not fail";
  }
  return NULL;
}

static void test_errors_from_two_threads(void **state) {
  (void)state;
  vsh_sandbox *p = parent_new();
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&th[i], NULL, fail_calls, p), 0);
  for (int i = 0; i < 2; i++) {
    void *msg = NULL;
    pthread_join(th[i], &msg);
    if (msg)
      fail_msg("%s", (const char *)msg);
  }
  assert_int_equal(vsh_errcode(p), EINVAL); /* the last: a registration */
  vsh_close(p);
}

/* ---- commands that used thread-shared libc state ---- */

/* A transport that answers with the number of X-H* request headers. */
static int count_headers(void *ud, const vsh_http_request *rq,
                         vsh_http_response *rs) {
  (void)ud;
  int k = 0;
  for (size_t i = 0; i < rq->nheaders; i++)
    k += !strncmp(rq->headers[i].name, "X-H", 3);
  char body[32];
  rs->status = 200;
  rs->body_len = (size_t)snprintf(body, sizeof body, "%d", k);
  rs->body = strdup(body);
  return 0;
}

typedef struct tokenizer {
  atomic_int stop;
} tokenizer;

/* The embedder's own strtok on another thread. */
static void *tokenize(void *arg) {
  tokenizer *t = arg;
  while (!atomic_load(&t->stop)) {
    char line[] = "a b c d e f g h";
    for (char *w = strtok(line, " "); w; w = strtok(NULL, " "))
      ;
  }
  return NULL;
}

/* curl -H @file splits the file into lines: with strtok, whose position is
 * one for the whole process, a strtok on another thread cut the header
 * list short or ran it into the other string. */
static void test_curl_headers_file_while_host_tokenizes(void **state) {
  (void)state;
  vsh_net_rule rule = {"https://a.test/", NULL, 0};
  vsh_net_policy pol = {0};
  pol.rules = &rule;
  pol.nrules = 1;
  pol.transport = count_headers;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.net = &pol;
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
  char hdrs[40 * 16] = "";
  for (int i = 0; i < 40; i++) {
    char h[16];
    snprintf(h, sizeof h, "X-H%d: %d\n", i, i);
    strcat(hdrs, h);
  }
  assert_int_equal(vsh_write_file(sb, "/tmp/h", hdrs, strlen(hdrs), 0), VSH_OK);
  tokenizer t;
  atomic_init(&t.stop, 0);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, tokenize, &t), 0);
  int bad = 0;
  for (int i = 0; i < 100 && !bad; i++) {
    vsh_result r;
    assert_int_equal(
        vsh_exec(sb, "curl -s -H @/tmp/h https://a.test/x", NULL, &r), VSH_OK);
    if (strcmp(r.out, "40"))
      bad = 1, fprintf(stderr, "run %d: [%s] %s\n", i, r.out, r.err);
    vsh_result_free(&r);
  }
  atomic_store(&t.stop, 1);
  pthread_join(th, NULL);
  vsh_close(sb);
  assert_false(bad);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_open_from_snapshot),
      cmocka_unit_test(test_fork),
      cmocka_unit_test(test_cancel_from_other_thread),
      cmocka_unit_test(test_file_calls_during_exec),
      cmocka_unit_test(test_errors_from_two_threads),
      cmocka_unit_test(test_curl_headers_file_while_host_tokenizes),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
