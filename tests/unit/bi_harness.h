/*
 * bi_harness.h - run one builtin in isolation, for cmocka unit tests.
 *
 * A harness owns everything a builtin needs: the allocator, a scratch arena,
 * a budget with default limits, a vfs with the default layout (cwd
 * /home/user), stdout and stderr captured into bufs, and the shell services
 * faked:
 *
 *   getenv / environ  from a small array set with bh_setenv("K", "V")
 *   setvar            records assignments (bh_var(h, "NAME") reads them back)
 *   run_argv          127 unless the test installs h->run_argv
 *   run_argv_env      NULL unless the test installs h->run_argv_env
 *   now_ns            fixed at h->now_ns (default 2001-09-09 01:46:40 UTC)
 *   random            a deterministic xorshift stream seeded by h->seed
 *   net               the network policy h->net (NULL: no network)
 *
 * Typical use:
 *
 *   bh *h = bh_new();
 *   bh_write(h, "f.txt", "a\nb\n");                  // a file in the vfs
 *   int st = bh_run(h, "stdin text", "cat", "-n", "f.txt", "-", NULL);
 *   assert_int_equal(st, 0);
 *   assert_string_equal(bh_out(h), "     1\ta\n...");
 *   bh_free(h);                                       // checks for leaks
 *
 * bh_run may be called many times on one harness: each call resets the
 * captured output. Set h->stdin_chunk = N to make stdin behave like a pipe
 * (reads of at most N bytes, no zero-copy view). bh_runb takes stdin with an
 * explicit length (NUL bytes), bh_runa takes an argv array. Output may contain
 * NULs: use h->out.len. bh_free asserts that the builtin freed everything
 * it allocated on the sandbox allocator (mem_used back to its level before
 * the run).
 *
 * Tables of runs: bh_check_all(h, cases) runs every bh_case of an array and
 * checks what it gives:
 *
 *   const bh_case cases[] = {
 *       //      stdin     status  stdout  stderr  argv...
 *       BH_CASE("a\nb\n", 0,      "b\n",  NULL,   "grep", "b"),
 *       BH_CASE(NULL,     1,      NULL,   "",     "grep", "b", "/dev/null"),
 *   };
 *   bh_check_all(h, cases);
 *
 * BH_ANY as the status, NULL as stdout or stderr: not checked.
 *
 * Link layers: core vfs builtins. Define BH_NO_VFS to build without a vfs
 * (c->vfs is then NULL).
 */
#ifndef VSH_TESTS_BI_HARNESS_H
#define VSH_TESTS_BI_HARNESS_H

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "builtins/builtin.h"
#include "core/arena.h"
#include "core/budget.h"
#include "core/buf.h"
#include "core/mem.h"
#include "core/stream.h"
#ifndef BH_NO_VFS
#include "vfs/vfs.h"
#endif

#define BH_MAX_ENV 64
#define BH_MAX_VARS 32

typedef struct bh bh;

struct bh {
  bi_ctx c; /* first: the service functions cast bi_ctx* back to bh* */
  mem *m;
  arena scratch;
  budget bud;
  struct vfs *vfs;
  char cwd[256];
  buf out, err; /* captured stdout and stderr of the last run */
  /* environment: "K=V" strings (mem allocated), NULL-terminated */
  char *env[BH_MAX_ENV + 1];
  int nenv;
  /* assignments made through setvar, in order */
  char *var_name[BH_MAX_VARS];
  char *var_value[BH_MAX_VARS]; /* malloc'ed, NUL-terminated */
  size_t var_len[BH_MAX_VARS];
  int nvars;
  /* run_argv: NULL means "command not found" (127) */
  int (*run_argv)(bi_ctx *c, char **argv, stream *in, stream *out, stream *err);
  /* run_argv_env: NULL means the shell does not offer it */
  int (*run_argv_env)(bi_ctx *c, char **argv, char **env, const char *cwd,
                      stream *in, stream *out, stream *err);
  void *ud;                     /* free for the test's run_argv */
  const struct net_policy *net; /* c->net of every run */
  int64_t now_ns;
  uint64_t seed;
  /* 0: stdin is a memory reader (with the zero-copy take_all, like a
   * file). N > 0: stdin behaves like a pipe, returning at most N bytes per
   * read and no take_all, to exercise the streaming paths. */
  size_t stdin_chunk;
};

/* ---- a pipe-like stdin -------------------------------------------------- */

typedef struct bh_chunked {
  stream s;
  char *data;
  size_t len, pos, chunk;
} bh_chunked;

static inline long bh_chunked_read_(stream *s, void *p, size_t n) {
  bh_chunked *k = (bh_chunked *)s;
  size_t left = k->len - k->pos;
  if (n > k->chunk)
    n = k->chunk;
  if (n > left)
    n = left;
  memcpy(p, k->data + k->pos, n);
  k->pos += n;
  return (long)n;
}

static inline void bh_chunked_release_(stream *s) {
  bh_chunked *k = (bh_chunked *)s;
  mem_free(s->m, k->data);
  mem_free(s->m, k);
}

static const stream_ops bh_chunked_ops = {bh_chunked_read_, NULL, NULL,
                                          bh_chunked_release_};

static inline stream *bh_chunked_new_(mem *m, budget *bud, const char *d,
                                      size_t n, size_t chunk) {
  bh_chunked *k = mem_calloc(m, 1, sizeof *k);
  k->data = mem_alloc(m, n ? n : 1);
  memcpy(k->data, d, n);
  k->len = n;
  k->chunk = chunk;
  stream_init(&k->s, &bh_chunked_ops, m, bud, STREAM_R);
  return &k->s;
}

/* ---- fake services ------------------------------------------------------ */

static inline const char *bh_getenv_(bi_ctx *c, const char *name) {
  bh *h = (bh *)c;
  size_t n = strlen(name);
  for (int i = 0; i < h->nenv; i++)
    if (strncmp(h->env[i], name, n) == 0 && h->env[i][n] == '=')
      return h->env[i] + n + 1;
  return NULL;
}

static inline char **bh_environ_(bi_ctx *c) {
  return ((bh *)c)->env;
}

static inline int bh_run_argv_(bi_ctx *c, char **argv, stream *in, stream *out,
                               stream *err) {
  bh *h = (bh *)c;
  if (h->run_argv)
    return h->run_argv(c, argv, in, out, err);
  stream_printf(err ? err : c->err, "%s: command not found\n", argv[0]);
  return 127;
}

static inline int bh_setvar_(bi_ctx *c, const char *name, const char *value,
                             size_t len) {
  bh *h = (bh *)c;
  if (!name[0] || (name[0] >= '0' && name[0] <= '9')) {
    stream_printf(c->err, "%s: `%s': not a valid identifier\n", c->argv[0],
                  name);
    return -1;
  }
  int i;
  for (i = 0; i < h->nvars; i++)
    if (strcmp(h->var_name[i], name) == 0)
      break;
  if (i == h->nvars) {
    if (h->nvars == BH_MAX_VARS)
      return -1;
    h->var_name[i] = strdup(name);
    h->var_value[i] = NULL;
    h->nvars++;
  }
  /* On the C heap: the harness's records must not count as sandbox
   * memory in the leak check. */
  free(h->var_value[i]);
  h->var_value[i] = malloc(len + 1);
  memcpy(h->var_value[i], value, len);
  h->var_value[i][len] = 0;
  h->var_len[i] = len;
  return 0;
}

static inline int64_t bh_now_ns_(bi_ctx *c) {
  return ((bh *)c)->now_ns;
}

static inline void bh_random_(bi_ctx *c, void *p, size_t n) {
  bh *h = (bh *)c;
  unsigned char *u = p;
  for (size_t i = 0; i < n; i++) {
    h->seed ^= h->seed << 13;
    h->seed ^= h->seed >> 7;
    h->seed ^= h->seed << 17;
    u[i] = (unsigned char)(h->seed >> 24);
  }
}

/* ---- lifetime ----------------------------------------------------------- */

static inline bh *bh_new(void) {
  bh *h = calloc(1, sizeof *h);
  assert_non_null(h);
  h->m = mem_new(NULL, NULL, 0);
  assert_non_null(h->m);
  arena_init(&h->scratch, h->m);
  memset(&h->bud, 0, sizeof h->bud);
  budget_defaults(&h->bud.lim);
  h->bud.m = h->m;
  strcpy(h->cwd, "/home/user");
#ifndef BH_NO_VFS
  h->vfs = vfs_new(h->m, NULL);
  assert_non_null(h->vfs);
  assert_int_equal(vfs_default_layout(h->vfs), 0);
#endif
  buf_init(&h->out, h->m);
  buf_init(&h->err, h->m);
  h->now_ns = INT64_C(1000000000) * 1000000000;
  h->seed = 0x9E3779B97F4A7C15ull;
  return h;
}

/* Set (or replace) an environment variable seen by getenv and environ. */
static inline void bh_setenv(bh *h, const char *name, const char *value) {
  size_t n = strlen(name);
  for (int i = 0; i < h->nenv; i++)
    if (strncmp(h->env[i], name, n) == 0 && h->env[i][n] == '=') {
      free(h->env[i]);
      h->env[i] = NULL;
      for (int j = i; j < h->nenv; j++)
        h->env[j] = h->env[j + 1];
      h->nenv--;
      break;
    }
  assert_true(h->nenv < BH_MAX_ENV);
  char *kv = malloc(n + strlen(value) + 2);
  strcpy(kv, name);
  kv[n] = '=';
  strcpy(kv + n + 1, value);
  h->env[h->nenv++] = kv;
  h->env[h->nenv] = NULL;
}

/* The value assigned by setvar to name in any run so far, or NULL. */
static inline const char *bh_var(bh *h, const char *name) {
  for (int i = 0; i < h->nvars; i++)
    if (strcmp(h->var_name[i], name) == 0)
      return h->var_value[i];
  return NULL;
}

#ifndef BH_NO_VFS
/* Create or replace a file (relative to the harness cwd) with content. */
static inline void bh_writen(bh *h, const char *path, const void *data,
                             size_t len) {
  assert_int_equal(vfs_write_file(h->vfs, h->cwd, path, data, len, 0644), 0);
}
static inline void bh_write(bh *h, const char *path, const char *text) {
  bh_writen(h, path, text, strlen(text));
}
/* The content of a file as a malloc'ed C string (free it), NULL if absent. */
static inline char *bh_read(bh *h, const char *path, size_t *len) {
  char *d;
  size_t n;
  if (vfs_read_file(h->vfs, h->cwd, path, &d, &n) != 0)
    return NULL;
  char *r = malloc(n + 1);
  memcpy(r, d, n);
  r[n] = 0;
  vfs_release(h->vfs, d);
  if (len)
    *len = n;
  return r;
}
#endif

/* Run argv (argv[argc] == NULL) with stdin bytes in[0..inlen). Returns the
 * exit status; output in h->out / h->err. */
static inline int bh_runa(bh *h, const char *in, size_t inlen, int argc,
                          char **argv) {
  buf_clear(&h->out);
  buf_clear(&h->err);
  h->bud.stop = BUDGET_OK;
  bi_ctx *c = &h->c;
  memset(c, 0, sizeof *c);
  /* argv is copied: builtins may permute or keep pointers into it. */
  char **av = calloc((size_t)argc + 1, sizeof *av);
  for (int i = 0; i < argc; i++)
    av[i] = strdup(argv[i]);
  c->argc = argc;
  c->argv = av;
  if (h->stdin_chunk)
    c->in = bh_chunked_new_(h->m, &h->bud, in ? in : "", in ? inlen : 0,
                            h->stdin_chunk);
  else
    c->in = stream_mem_reader(h->m, &h->bud, in ? in : "", in ? inlen : 0, 0);
  c->out = stream_capture(h->m, &h->bud, &h->out, NULL, NULL, 1, 1);
  c->err = stream_capture(h->m, &h->bud, &h->err, NULL, NULL, 2, 0);
  c->m = h->m;
  c->scratch = &h->scratch;
  c->vfs = h->vfs;
  c->cwd = h->cwd;
  c->bud = &h->bud;
  c->net = h->net;
  c->uid = 1000;
  c->gid = 1000;
  c->getenv = bh_getenv_;
  c->environ = bh_environ_;
  c->run_argv = bh_run_argv_;
  c->run_argv_env = h->run_argv_env;
  c->setvar = bh_setvar_;
  c->now_ns = bh_now_ns_;
  c->random = bh_random_;
  arena_mark mk = arena_save(&h->scratch);
  const bi_def *d = bi_lookup(argv[0]);
  int st;
  if (d) {
    st = d->fn(c);
  } else {
    stream_printf(c->err, "%s: not a builtin\n", argv[0]);
    st = 127;
  }
  arena_release(&h->scratch, mk);
  stream_unref(c->in);
  stream_unref(c->out);
  stream_unref(c->err);
  for (int i = 0; i < argc; i++)
    free(av[i]);
  free(av);
  return st;
}

static inline int bh_runv(bh *h, const char *in, size_t inlen, const char *arg0,
                          va_list ap) {
  char *argv[256];
  int argc = 0;
  argv[argc++] = (char *)arg0;
  const char *a;
  while ((a = va_arg(ap, const char *)) != NULL && argc < 255)
    argv[argc++] = (char *)a;
  argv[argc] = NULL;
  return bh_runa(h, in, inlen, argc, argv);
}

/* bh_run(h, stdin_text_or_NULL, "cmd", "arg", ..., NULL) */
static inline int bh_run(bh *h, const char *in, const char *arg0, ...) {
  va_list ap;
  va_start(ap, arg0);
  int st = bh_runv(h, in, in ? strlen(in) : 0, arg0, ap);
  va_end(ap);
  return st;
}

/* Same with stdin given by pointer and length (may hold NUL bytes). */
static inline int bh_runb(bh *h, const char *in, size_t inlen, const char *arg0,
                          ...) {
  va_list ap;
  va_start(ap, arg0);
  int st = bh_runv(h, in, inlen, arg0, ap);
  va_end(ap);
  return st;
}

static inline const char *bh_out(bh *h) {
  return buf_cstr(&h->out);
}
static inline const char *bh_err(bh *h) {
  return buf_cstr(&h->err);
}

/* ---- tables of runs ---------------------------------------------------- */

#define BH_ANY INT_MIN  /* bh_case.status: the exit status is not checked */
#define BH_CASE_ARGS 15 /* words of a bh_case's argv, at the most */

/* One run and what it must give: argv (NULL-terminated) with stdin `in`
 * (NULL: empty); its exit status unless BH_ANY, its stdout and stderr when
 * not NULL. Write one as BH_CASE(in, status, out, err, "cmd", "arg"...). */
typedef struct bh_case {
  const char *in;
  const char *argv[BH_CASE_ARGS + 1];
  int status;
  const char *out, *err;
} bh_case;

#define BH_CASE(in, status, out, err, ...)                                     \
  { in, {__VA_ARGS__}, status, out, err }

/* Runs k on h and checks the status, then stdout, then stderr. */
static inline void bh_check(bh *h, const bh_case *k) {
  int argc = 0;
  while (k->argv[argc])
    argc++;
  int st = bh_runa(h, k->in, k->in ? strlen(k->in) : 0, argc, (char **)k->argv);
  if ((k->status != BH_ANY && st != k->status) ||
      (k->out && strcmp(bh_out(h), k->out) != 0) ||
      (k->err && strcmp(bh_err(h), k->err) != 0)) {
    print_error("run:");
    for (int i = 0; i < argc; i++)
      print_error(" '%s'", k->argv[i]);
    print_error("\nstatus %d, stdout [%s], stderr [%s]\n", st, bh_out(h),
                bh_err(h));
  }
  if (k->status != BH_ANY)
    assert_int_equal(st, k->status);
  if (k->out)
    assert_string_equal(bh_out(h), k->out);
  if (k->err)
    assert_string_equal(bh_err(h), k->err);
}

static inline void bh_check_n(bh *h, const bh_case *k, size_t n) {
  for (size_t i = 0; i < n; i++)
    bh_check(h, &k[i]);
}

/* bh_check of every case of an array, in order. */
#define bh_check_all(h, cases)                                                 \
  bh_check_n(h, cases, sizeof(cases) / sizeof(cases)[0])

static inline void bh_free(bh *h) {
  buf_free(&h->out);
  buf_free(&h->err);
  /* Everything a builtin allocated must be back: the only sandbox memory
   * left is the harness's own (arena chunks, vfs). */
  arena_destroy(&h->scratch);
#ifndef BH_NO_VFS
  vfs_free(h->vfs);
#endif
  for (int i = 0; i < h->nenv; i++)
    free(h->env[i]);
  for (int i = 0; i < h->nvars; i++) {
    free(h->var_name[i]);
    free(h->var_value[i]);
  }
  assert_int_equal(mem_used(h->m), 0);
  mem_unref(h->m);
  free(h);
}

#endif
