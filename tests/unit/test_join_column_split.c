// layers: core vfs builtins
/* Unit tests of join, column and split. The tables in
 * join_column_split_cases.inc were recorded from join and split (coreutils
 * 9.1) and column (util-linux 2.38.1) on Debian 12 by record_text3.py
 * (stdin a pipe, LC_ALL=C unless the case says otherwise). For split, the
 * files a run leaves beside the fixtures are compared too. */
#include <stdio.h>

#include "bi_harness.h"

typedef struct t3_case {
  const char *in;
  const char *env; /* "K=V" or NULL */
  int status;
  const char *out;
  size_t outlen;
  const char *err;
  size_t fileslen;
  const char *files;
  const char *argv[16];
} t3_case;

#include "join_column_split_cases.inc"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int is_fixture(const char *name) {
  for (size_t i = 0; i < N(t3_files); i++)
    if (strcmp(t3_files[i].name, name) == 0)
      return 1;
  return 0;
}

/* The files the run made ("== NAME ==\n" and the bytes, in name order),
 * removed afterwards. */
static void collect(bh *h, buf *b) {
  char **names;
  size_t n;
  assert_int_equal(vfs_readdir(h->vfs, h->cwd, ".", &names, &n), 0);
  for (size_t i = 0; i < n; i++) {
    if (is_fixture(names[i]))
      continue;
    size_t len = 0;
    char *d = bh_read(h, names[i], &len);
    assert_non_null(d);
    buf_printf(b, "== %s ==\n", names[i]);
    buf_append(b, d, len);
    free(d);
    assert_int_equal(vfs_unlink(h->vfs, h->cwd, names[i]), 0);
  }
  vfs_free_names(h->vfs, names, n);
}

static int run_one(const t3_case *k, const char *locale) {
  bh *h = bh_new();
  for (size_t i = 0; i < N(t3_files); i++)
    bh_writen(h, t3_files[i].name, t3_files[i].data, t3_files[i].len);
  h->stdin_chunk = 7; /* a pipe, as when recorded */
  if (locale)
    bh_setenv(h, "LC_ALL", locale);
  if (k->env) {
    char name[64];
    const char *eq = strchr(k->env, '=');
    snprintf(name, sizeof name, "%.*s", (int)(eq - k->env), k->env);
    bh_setenv(h, name, eq + 1);
  }
  int argc = 0;
  while (k->argv[argc])
    argc++;
  int st = bh_runa(h, k->in, k->in ? strlen(k->in) : 0, argc, (char **)k->argv);
  buf files;
  buf_init(&files, h->m);
  collect(h, &files);
  int same = st == k->status && h->out.len == k->outlen &&
             (!k->outlen || memcmp(h->out.data, k->out, k->outlen) == 0) &&
             strcmp(bh_err(h), k->err) == 0 && files.len == k->fileslen &&
             (!k->fileslen || memcmp(files.data, k->files, k->fileslen) == 0);
  if (!same) {
    print_error("run:");
    for (int i = 0; i < argc; i++)
      print_error(" '%s'", k->argv[i]);
    print_error("\nstatus %d (want %d)\nstdout [%s]\nwant   [%s]\nstderr "
                "[%s]\nwant   [%s]\nfiles [%s]\nwant  [%s]\n",
                st, k->status, bh_out(h), k->out, bh_err(h), k->err,
                buf_cstr(&files), k->files);
  }
  buf_free(&files);
  bh_free(h);
  return same;
}

/* Every case runs (all differences are printed), then the test fails if
 * any differed. */
static void run_table(const t3_case *cases, size_t n, const char *locale) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++)
    bad += !run_one(&cases[i], locale);
  assert_int_equal(bad, 0);
}

static void t_join(void **st) {
  (void)st;
  run_table(t3_join, N(t3_join), NULL);
}
static void t_column(void **st) {
  (void)st;
  run_table(t3_column, N(t3_column), NULL);
}
static void t_column_utf8(void **st) {
  (void)st;
  run_table(t3_column_utf8, N(t3_column_utf8), "C.UTF-8");
}
static void t_split(void **st) {
  (void)st;
  run_table(t3_split, N(t3_split), NULL);
}

/* Messages quote names in the locale's quotes under UTF-8. */
static void t_locale_quotes(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_setenv(h, "LANG", "C.UTF-8");
  const bh_case cases[] = {
      BH_CASE(NULL, 1, "",
              "join: multi-character tab \xe2\x80\x98"
              "ab\xe2\x80\x99\n",
              "join", "-t", "ab", "a", "b"),
      BH_CASE(NULL, 1, "",
              "split: invalid number of lines: \xe2\x80\x98x\xe2\x80\x99\n",
              "split", "-l", "x"),
      /* GNU's --verbose quotes for a shell, whatever the locale */
      BH_CASE("a\n", 0, "creating file 'xaa'\n", "", "split", "--verbose"),
      /* (recorded: split 9.1 under C.UTF-8 leaves a character unescaped) */
      BH_CASE("a\n", 0,
              "creating file '\xc3\xa9"
              "aa'\n",
              "", "split", "--verbose", "-", "\xc3\xa9"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

/* A limit ends a long run: the budget is polled inside the loops. */
static void t_budget(void **st) {
  (void)st;
  bh *h = bh_new();
  size_t n = 200000;
  char *big = malloc(n * 2);
  for (size_t i = 0; i < n; i++) {
    big[2 * i] = 'a';
    big[2 * i + 1] = '\n';
  }
  bh_writen(h, "big", big, n * 2);
  free(big);
  h->bud.lim.max_output_bytes = 1000;
  /* every line pairs with every line: 4e10 output lines */
  int s = bh_run(h, NULL, "join", "big", "big", NULL);
  assert_int_not_equal(s, 0);
  assert_int_not_equal(h->bud.stop, BUDGET_OK);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_join),          cmocka_unit_test(t_column),
      cmocka_unit_test(t_column_utf8),   cmocka_unit_test(t_split),
      cmocka_unit_test(t_locale_quotes), cmocka_unit_test(t_budget),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
