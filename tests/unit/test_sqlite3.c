// layers: all
/* test_sqlite3.c - the sqlite3 command with the sandbox around it: a
 * database kept from one exec to the next, snapshots and restore, forks
 * (the fork sees the database, its writes stay its own), a persist and
 * hydrate round trip, the byte quota, the deadline and cancel through the
 * progress handler, and what SQL must not reach (host files, other VFSes,
 * extensions). The outputs of the shell itself are checked against the
 * real sqlite3 in tests/spec/sqlite3.test.sh. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "vsh.h"

static vsh_sandbox *open_with(const vsh_limits *lim) {
  vsh_config cfg;
  vsh_config_init(&cfg);
  if (lim)
    cfg.limits = *lim;
  vsh_sandbox *sb = NULL;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
  return sb;
}

/* Runs script; returns its status, with stdout in out (caller frees r). */
static int run(vsh_sandbox *sb, const char *script, vsh_result *r) {
  assert_int_equal(vsh_exec(sb, script, NULL, r), VSH_OK);
  return r->status;
}

static void check(vsh_sandbox *sb, const char *script, const char *out,
                  int status) {
  vsh_result r;
  int st = run(sb, script, &r);
  if (strcmp(r.out, out) != 0 || st != status)
    fprintf(stderr, "script: %s\nwant [%s] %d\ngot  [%s] %d\nstderr: %s\n",
            script, out, status, r.out, st, r.err);
  assert_string_equal(r.out, out);
  assert_int_equal(st, status);
  vsh_result_free(&r);
}

static void test_across_execs(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  check(sb, "sqlite3 app.db 'create table kv(k text primary key, v)'", "", 0);
  check(sb, "sqlite3 app.db \"insert into kv values('a', 1), ('b', 2)\"", "",
        0);
  check(sb, "sqlite3 app.db 'select k, v from kv order by k'", "a|1\nb|2\n", 0);
  /* the file is a sandbox file, with SQLite's header */
  char *data = NULL;
  size_t len = 0;
  assert_int_equal(vsh_read_file(sb, "/home/user/app.db", &data, &len), VSH_OK);
  assert_true(len >= 4096);
  assert_memory_equal(data, "SQLite format 3", 16);
  vsh_free(sb, data);
  /* no journal is left behind */
  check(sb, "ls", "app.db\n", 0);
  /* a database the host wrote is read by the command */
  check(sb,
        "cp app.db /tmp/copy.db && sqlite3 /tmp/copy.db 'select count(*) "
        "from kv' && cd /tmp && sqlite3 copy.db .tables",
        "2\nkv\n", 0);
  vsh_close(sb);
}

static void test_snapshot_restore(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  check(sb, "sqlite3 s.db 'create table t(x); insert into t values(1)'", "", 0);
  vsh_snapshot *snap = NULL;
  assert_int_equal(vsh_snapshot_take(sb, &snap), VSH_OK);
  check(sb, "sqlite3 s.db 'insert into t values(2); delete from t where x=1'",
        "", 0);
  check(sb, "sqlite3 s.db 'select group_concat(x) from t'", "2\n", 0);
  assert_int_equal(vsh_restore(sb, snap), VSH_OK);
  check(sb, "sqlite3 s.db 'select group_concat(x) from t'", "1\n", 0);
  /* a sandbox opened from the snapshot sees the database too */
  vsh_sandbox *other = NULL;
  assert_int_equal(vsh_open_from(snap, NULL, &other), VSH_OK);
  check(other, "sqlite3 s.db 'insert into t values(5)' 'select sum(x) from t'",
        "6\n", 0);
  check(sb, "sqlite3 s.db 'select sum(x) from t'", "1\n", 0);
  vsh_close(other);
  vsh_snapshot_free(snap);
  vsh_close(sb);
}

static void test_fork(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  check(sb, "sqlite3 f.db 'create table t(x); insert into t values(1),(2)'", "",
        0);
  vsh_sandbox *child = NULL;
  assert_int_equal(vsh_fork(sb, &child), VSH_OK);
  check(child, "sqlite3 f.db 'select sum(x) from t'", "3\n", 0);
  check(child, "sqlite3 f.db 'insert into t values(10)' 'select sum(x) from t'",
        "13\n", 0);
  /* the fork's write stays in the fork */
  check(sb, "sqlite3 f.db 'select sum(x) from t'", "3\n", 0);
  check(sb, "sqlite3 f.db 'insert into t values(100)' 'select sum(x) from t'",
        "103\n", 0);
  check(child, "sqlite3 f.db 'select sum(x) from t'", "13\n", 0);
  vsh_close(child);
  vsh_close(sb);
}

typedef struct tarbuf {
  char *p;
  size_t n, cap;
} tarbuf;

static int tar_put(void *ud, const void *data, size_t len) {
  tarbuf *t = ud;
  if (t->n + len > t->cap) {
    t->cap = (t->n + len) * 2;
    t->p = realloc(t->p, t->cap);
    assert_non_null(t->p);
  }
  memcpy(t->p + t->n, data, len);
  t->n += len;
  return 0;
}

static void test_persist_hydrate(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  check(sb,
        "mkdir -p data && sqlite3 data/p.db 'create table t(x, y); "
        "with recursive c(i) as (select 1 union all select i+1 from c "
        "where i < 2000) insert into t select i, hex(randomblob(50)) "
        "from c'",
        "", 0);
  tarbuf t = {0};
  assert_int_equal(vsh_persist(sb, "/home/user/data", NULL, tar_put, &t),
                   VSH_OK);
  vsh_close(sb);
  vsh_sandbox *back = open_with(NULL);
  assert_int_equal(vsh_hydrate(back, "/home/user/restored", t.p, t.n), VSH_OK);
  free(t.p);
  check(back,
        "sqlite3 restored/p.db 'select count(*), sum(x) from t' "
        "'pragma integrity_check'",
        "2000|2001000\nok\n", 0);
  vsh_close(back);
}

static void test_quota(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.max_fs_bytes = 256 * 1024;
  vsh_sandbox *sb = open_with(&lim);
  check(sb, "sqlite3 q.db 'create table t(x)'", "", 0);
  vsh_result r;
  int st = run(sb,
               "sqlite3 q.db 'with recursive c(i) as (select 1 union all "
               "select i+1 from c where i < 100000) insert into t select "
               "randomblob(100) from c'",
               &r);
  assert_int_not_equal(st, 0);
  assert_non_null(strstr(r.err, "limit"));
  vsh_result_free(&r);
  /* the sandbox goes on, and the database is still sound */
  check(sb, "sqlite3 q.db 'select count(*) from t' 'pragma integrity_check'",
        "0\nok\n", 0);
  check(sb, "echo still here", "still here\n", 0);
  vsh_close(sb);
}

static const char endless_cte[] =
    "sqlite3 :memory: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT "
    "x+1 FROM c) SELECT count(*) FROM c;'";

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_deadline(void **state) {
  (void)state;
  vsh_limits lim = {0};
  lim.timeout_ms = 300;
  vsh_sandbox *sb = open_with(&lim);
  vsh_result r;
  double t0 = now_s();
  assert_int_equal(run(sb, endless_cte, &r), 124);
  double took = now_s() - t0;
  assert_true(r.flags & VSH_RESULT_TIMED_OUT);
  assert_true(took < 5.0);
  vsh_result_free(&r);
  /* a file database too, in the middle of a write */
  assert_int_equal(run(sb,
                       "sqlite3 d.db 'create table t(x)' && sqlite3 d.db "
                       "'with recursive c(x) as (select 1 union all select "
                       "x+1 from c) insert into t select x from c'",
                       &r),
                   124);
  vsh_result_free(&r);
  check(sb, "sqlite3 d.db 'select count(*) from t'", "0\n", 0);
  vsh_close(sb);
}

static void test_memory_bounded(void **state) {
  (void)state;
  /* One value may not be larger than the sandbox's longest string. */
  vsh_sandbox *sb = open_with(NULL);
  vsh_result r;
  int st = run(sb,
               "sqlite3 :memory: 'select length(zeroblob(100000000))' "
               "'select length(randomblob(200000000))'",
               &r);
  assert_int_not_equal(st, 0);
  assert_non_null(strstr(r.err, "too big"));
  vsh_result_free(&r);
  /* A sort far larger than the page cache spills to temporary files in the
   * sandbox's memory and finishes. */
  check(sb,
        "sqlite3 :memory: 'with recursive c(i) as (select 1 union all "
        "select i+1 from c where i < 200000) select count(*) from (select "
        "hex(randomblob(40)) h from c order by h)'",
        "200000\n", 0);
  vsh_close(sb);
}

static void test_no_escape(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  vsh_result r;
  /* a URI could name the host's VFS */
  int st = run(sb,
               "sqlite3 :memory: \"attach 'file:/etc/passwd?vfs=unix' as "
               "h\"",
               &r);
  assert_int_equal(st, 23);
  assert_non_null(strstr(r.err, "not authorized"));
  vsh_result_free(&r);
  st =
      run(sb, "sqlite3 :memory: \"vacuum into 'file:/tmp/x.db?vfs=unix'\"", &r);
  assert_int_not_equal(st, 0);
  vsh_result_free(&r);
  check(sb, "ls /tmp", "", 0);
  /* a plain name is a sandbox file, even an absolute host-looking one */
  check(sb,
        "sqlite3 :memory: \"attach '/tmp/a.db' as a; create table "
        "a.t(x)\" && ls /tmp",
        "a.db\n", 0);
  /* computed file names cannot be checked: refused */
  st = run(sb, "sqlite3 :memory: \"attach '/tmp/' || 'b.db' as b\"", &r);
  assert_int_equal(st, 23);
  vsh_result_free(&r);
  /* extensions and the pointer form of fts3_tokenizer stay off */
  st = run(sb, "sqlite3 :memory: \"select load_extension('/lib/x.so')\"", &r);
  assert_int_equal(st, 1);
  assert_non_null(strstr(r.err, "not authorized"));
  vsh_result_free(&r);
  st = run(sb,
           "sqlite3 :memory: \"select fts3_tokenizer('simple', "
           "x'4141414141414141')\"",
           &r);
  assert_int_equal(st, 1);
  vsh_result_free(&r);
  /* pragmas that would set process-wide state are refused; reading them
   * is not */
  st = run(sb, "sqlite3 :memory: 'pragma hard_heap_limit=1'", &r);
  assert_int_equal(st, 23);
  vsh_result_free(&r);
  st = run(sb, "sqlite3 :memory: 'pragma soft_heap_limit=1'", &r);
  assert_int_equal(st, 23);
  vsh_result_free(&r);
  st = run(sb, "sqlite3 :memory: \"pragma temp_store_directory='/tmp'\"", &r);
  assert_int_equal(st, 23);
  vsh_result_free(&r);
  check(sb, "sqlite3 :memory: 'pragma hard_heap_limit' 'select 1'", "0\n1\n",
        0);
  /* options that reach the host's memory or other VFSes are refused */
  st = run(sb, "sqlite3 -vfs unix x.db 'select 1'", &r);
  assert_int_equal(st, 1);
  assert_non_null(strstr(r.err, "not available"));
  vsh_result_free(&r);
  check(sb, "ls x.db 2>&1; echo $?",
        "ls: cannot access 'x.db': No such file or directory\n2\n", 0);
  vsh_close(sb);
}

static void test_two_connections(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  /* a reader and a writer of one file in one pipeline */
  check(sb,
        "sqlite3 l.db 'create table t(x); insert into t values(1)'; "
        "sqlite3 l.db 'select x from t' | sqlite3 l.db 'insert into t "
        "values(2)'; sqlite3 l.db 'select count(*) from t'",
        "2\n", 0);
  /* .read of a script that writes, from standard input */
  check(sb,
        "printf 'insert into t values(3);\\n' > w.sql; echo '.read w.sql' "
        "| sqlite3 l.db && sqlite3 l.db 'select max(x) from t'",
        "3\n", 0);
  /* the sandbox's clock gives now */
  check(sb, "sqlite3 :memory: \"select strftime('%Y', 'now') > '2000'\"", "1\n",
        0);
  check(sb, "compgen -c sqlite | sort -u", "sqlite3\n", 0);
  /* .databases names the sandbox path; .output writes a sandbox file */
  check(sb,
        "cd /tmp && sqlite3 o.db .databases '.output out.txt' 'select 7' "
        "&& cat out.txt",
        "main: /tmp/o.db r/w\n7\n", 0);
  vsh_close(sb);
}

/* Several sandboxes run sqlite3 on several threads at once: each
 * connection registers its own VFS, so none sees another's files. */
typedef struct worker {
  vsh_sandbox *sb;
  int id, ok;
} worker;

static void *work(void *ud) {
  worker *w = ud;
  char script[256], want[64];
  snprintf(script, sizeof script,
           "sqlite3 w.db 'create table if not exists t(x)' 'insert into t "
           "values(%d)' 'select count(*), sum(x) from t'",
           w->id);
  w->ok = 1;
  for (int i = 1; i <= 15; i++) {
    vsh_result r;
    if (vsh_exec(w->sb, script, NULL, &r) != VSH_OK) {
      w->ok = 0;
      break;
    }
    snprintf(want, sizeof want, "%d|%d\n", i, i * w->id);
    if (r.status != 0 || strcmp(r.out, want) != 0) {
      fprintf(stderr, "thread %d: want %s got %s (%s)\n", w->id, want, r.out,
              r.err);
      w->ok = 0;
    }
    vsh_result_free(&r);
    if (!w->ok)
      break;
  }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  enum { N = 4 };
  worker w[N];
  pthread_t t[N];
  for (int i = 0; i < N; i++) {
    w[i].sb = open_with(NULL);
    w[i].id = i + 1;
    assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(t[i], NULL);
    assert_true(w[i].ok);
    vsh_close(w[i].sb);
  }
}

/* A syntax error in SQL that starts with 79 or more UTF-8 continuation
 * bytes: the lines that show where it is must stay within the text (the
 * search for a character's start used to step before it). */
static void test_error_context_not_utf8(void **state) {
  (void)state;
  vsh_sandbox *sb = open_with(NULL);
  vsh_result r;
  assert_int_equal(
      run(sb, "sqlite3 :memory: \"$(printf '\\200%.0s' {1..100})\"", &r), 1);
  assert_non_null(strstr(r.err, "syntax error\n  \n  ^--- error here\n"));
  vsh_result_free(&r);
  vsh_close(sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_across_execs),
      cmocka_unit_test(test_snapshot_restore),
      cmocka_unit_test(test_fork),
      cmocka_unit_test(test_persist_hydrate),
      cmocka_unit_test(test_quota),
      cmocka_unit_test(test_deadline),
      cmocka_unit_test(test_memory_bounded),
      cmocka_unit_test(test_no_escape),
      cmocka_unit_test(test_two_connections),
      cmocka_unit_test(test_threads),
      cmocka_unit_test(test_error_context_not_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
