// layers: core vfs builtins
/* Unit tests of rg. The table in rg_cases.inc holds ripgrep 13.0.0's
 * answers (stdout, stderr, exit status) recorded by record_rg.py on the
 * fixture tree it also describes: a git work tree with .gitignore, .ignore
 * and hidden files, a .gitignore outside any work tree, nested ignore
 * rules, binary files, types and the exact command lines agent frameworks
 * send. The other tests check limits and hostile inputs. */
#include "bi_harness.h"

#include <stdio.h>

#include "core/budget.h"

typedef struct rgt_case {
  const char *cwd; /* under /home/user */
  const char *in;  /* stdin, or NULL for the exec's empty input */
  size_t inlen;
  int status;
  const char *argv[24];
  const char *out;
  size_t outlen;
  const char *err;
  int json; /* blank the elapsed times before comparing */
} rgt_case;

static void rgt_file(bh *h, const char *path, const char *data, size_t n) {
  char dir[256];
  snprintf(dir, sizeof dir, "%s", path);
  char *sl = strrchr(dir, '/');
  if (sl) {
    *sl = 0;
    assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, dir, 0755), 0);
  }
  bh_writen(h, path, data, n);
}

static void rgt_symlink(bh *h, const char *target, const char *path) {
  assert_int_equal(vfs_symlink(h->vfs, h->cwd, target, path), 0);
}

static void rgt_mkdir(bh *h, const char *path) {
  assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, path, 0755), 0);
}

/* "line %d needle\n" for 0..5999, then a NUL and "tail needle\n". */
static void rgt_big(bh *h, const char *path) {
  size_t cap = 6000 * 24 + 32, n = 0;
  char *b = malloc(cap);
  assert_non_null(b);
  for (int i = 0; i < 6000; i++)
    n += (size_t)snprintf(b + n, cap - n, "line %d needle\n", i);
  memcpy(b + n, "\0tail needle\n", 13);
  n += 13;
  rgt_file(h, path, b, n);
  free(b);
}

#include "rg_cases.inc"

/* The elapsed times of --json differ from run to run: blank the numbers
 * of "secs", "nanos" and "human". */
static char *blank_times(const char *s, size_t n) {
  char *o = malloc(n + 1);
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    static const char *const keys[] = {"\"secs\":", "\"nanos\":", "\"human\":"};
    int hit = 0;
    for (int j = 0; j < 3 && !hit; j++) {
      size_t kl = strlen(keys[j]);
      if (i + kl <= n && memcmp(s + i, keys[j], kl) == 0) {
        memcpy(o + k, s + i, kl);
        k += kl;
        i += kl;
        o[k++] = '0';
        while (i < n && s[i] != ',' && s[i] != '}')
          i++;
        hit = 1;
      }
    }
    if (!hit)
      o[k++] = s[i++];
  }
  o[k] = 0;
  return o;
}

static int run_case(bh *h, const rgt_case *k) {
  snprintf(h->cwd, sizeof h->cwd, "/home/user%s%s", *k->cwd ? "/" : "", k->cwd);
  int argc = 0;
  while (k->argv[argc])
    argc++;
  int st;
  if (k->in) {
    st = bh_runa(h, k->in, k->inlen, argc, (char **)k->argv);
  } else {
    /* no input: what an exec without stdin data gives a command */
    buf_clear(&h->out);
    st = bh_runa(h, "", 0, argc, (char **)k->argv);
  }
  int ok = st == k->status && strcmp(bh_err(h), k->err) == 0;
  if (k->json) {
    char *a = blank_times(h->out.data ? h->out.data : "", h->out.len);
    char *b = blank_times(k->out, k->outlen);
    ok = ok && strcmp(a, b) == 0;
    if (!ok)
      print_error("json got:\n%s\nwant:\n%s\n", a, b);
    free(a);
    free(b);
  } else {
    ok = ok && h->out.len == k->outlen &&
         (k->outlen == 0 || memcmp(h->out.data, k->out, k->outlen) == 0);
  }
  if (!ok) {
    print_error("case in %s:", k->cwd);
    for (int i = 0; i < argc; i++)
      print_error(" '%s'", k->argv[i]);
    print_error("\nstatus %d (want %d)\nstdout:\n%.*s\nwant:\n%s\nstderr:\n%s"
                "\nwant:\n%s\n",
                st, k->status, (int)h->out.len, h->out.data ? h->out.data : "",
                k->out, bh_err(h), k->err);
  }
  return ok;
}

static void t_recorded(void **st) {
  (void)st;
  bh *h = bh_new();
  fixture(h);
  int bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    bad += !run_case(h, &cases[i]);
  bh_free(h);
  assert_int_equal(bad, 0);
}

/* An empty standard input is not searched: rg searches the working
 * directory, as ripgrep does with /dev/null as stdin. */
static void t_null_stdin(void **st) {
  (void)st;
  bh *h = bh_new();
  fixture(h);
  strcpy(h->cwd, "/home/user/proj");
  char *argv[] = {"rg", "-c", "foo", NULL};
  int s = bh_runa(h, NULL, 0, 3, argv);
  assert_int_equal(s, 0);
  assert_string_equal(bh_out(h), "docs/readme.md:2\nkeep.log:1\npats.txt:2\n"
                                 "src/a.py:1\n"
                                 "src/sub/b.c:1\nsrc/top.txt:1\n");
  bh_free(h);
}

/* Hostile inputs: a deep tree, a huge line, an exponential -P pattern, a
 * broken ignore file; nothing may crash, hang or leak. */
static void t_hostile(void **st) {
  (void)st;
  bh *h = bh_new();
  char path[4096] = "d";
  for (int i = 0; i < 300 && strlen(path) < 3000; i++) {
    assert_int_equal(vfs_mkdir_p(h->vfs, h->cwd, path, 0755), 0);
    strcat(path, "/d");
  }
  strcat(path, ".txt");
  bh_write(h, path, "deep hit\n");
  int s = bh_run(h, NULL, "rg", "-c", "hit", "d", NULL);
  assert_true(s == 0 || s == 1); /* depth-bounded either way */

  size_t n = 1 << 20;
  char *big = malloc(n + 2);
  memset(big, 'a', n);
  big[n] = '\n';
  bh_writen(h, "long.txt", big, n + 1);
  free(big);
  s = bh_run(h, NULL, "rg", "-c", "a$", "long.txt", NULL);
  assert_int_equal(s, 0);
  assert_string_equal(bh_out(h), "1\n");
  s = bh_run(h, NULL, "rg", "-P", "-c", "(a*)*b", "long.txt", NULL);
  assert_int_equal(s, 2); /* PCRE2's limit is an error, not "no match" */

  bh_write(h, ".gitignore", "[\n\\\n!\n/\n**\n***/x\n{a,{b\n");
  s = bh_run(h, NULL, "rg", "--files", "--max-depth", "1", NULL);
  assert_true(s == 0 || s == 1);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_recorded),
      cmocka_unit_test(t_null_stdin),
      cmocka_unit_test(t_hostile),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
