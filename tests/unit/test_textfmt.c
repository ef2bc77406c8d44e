// layers: core vfs builtins
/* Unit tests of fmt, numfmt, look, shuf and envsubst. The tables in
 * textfmt_cases.inc were recorded from coreutils 9.1 (fmt, numfmt, shuf),
 * util-linux 2.38.1 (look) and gettext-runtime 0.21 (envsubst) on Debian
 * 12 by record_textfmt.py (stdin a pipe, LC_ALL=C). shuf's orders come
 * from the harness's fixed random stream: they are checked as properties
 * (a permutation, the counts, the same order for the same stream) and as
 * exact outputs of that stream. */
#include <stdio.h>

#include "bi_harness.h"

#include "textfmt_cases.inc"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* What the harness's random stream (its default seed) makes shuf print. */
#define SHUF_EXACT_E "b\nd\na\nc\ne\n"
#define SHUF_EXACT_I "7\n10\n2\n8\n9\n6\n1\n4\n3\n5\n"
#define SHUF_EXACT_R "z\nz\nz\ny\ny\ny\n"

static bh *fixture(void) {
  bh *h = bh_new();
  for (size_t i = 0; i < N(textfmt_files); i++)
    bh_writen(h, textfmt_files[i].name, textfmt_files[i].data,
              textfmt_files[i].len);
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "subdir", 0755), 0);
  bh_setenv(h, "LC_ALL", "C");
  bh_setenv(h, "A", "1");
  bh_setenv(h, "B", "two words");
  bh_setenv(h, "A_B", "ab");
  bh_setenv(h, "_", "under");
  /* stdin behaves like the pipe the recordings had */
  h->stdin_chunk = 7;
  return h;
}

static void run_table(const bh_case *cases, size_t n) {
  bh *h = fixture();
  bh_check_n(h, cases, n);
  bh_free(h);
}

static void t_fmt(void **st) {
  run_table(textfmt_fmt, N(textfmt_fmt));
}
static void t_numfmt(void **st) {
  run_table(textfmt_numfmt, N(textfmt_numfmt));
}
static void t_look(void **st) {
  run_table(textfmt_look, N(textfmt_look));
}
static void t_shuf_messages(void **st) {
  run_table(textfmt_shuf, N(textfmt_shuf));
}
static void t_envsubst(void **st) {
  run_table(textfmt_envsubst, N(textfmt_envsubst));
}

/* A reference split between two reads is still seen whole: the same
 * table with stdin one byte a read. */
static void t_envsubst_bytewise(void **st) {
  bh *h = fixture();
  h->stdin_chunk = 1;
  bh_check_n(h, textfmt_envsubst, N(textfmt_envsubst));
  bh_free(h);
}

/* Only exported variables count (the harness's environ), and names in
 * SHELL-FORMAT that are not set still become empty. */
static void t_envsubst_env(void **st) {
  bh *h = fixture();
  const bh_case cases[] = {
      BH_CASE("[$NOPE][${A}]\n", 0, "[][1]\n", "", "envsubst"),
      BH_CASE("[$NOPE][${A}]\n", 0, "[][${A}]\n", "", "envsubst", "$NOPE"),
      BH_CASE(NULL, 0, "envsubst (GNU gettext-runtime compatible; vsh) 0.21\n",
              "", "envsubst", "--version"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

/* Messages quote as GNU's quote() does in a UTF-8 locale. */
static void t_utf8_quotes(void **st) {
  bh *h = fixture();
  bh_setenv(h, "LC_ALL", "C.UTF-8");
  const bh_case cases[] = {
      BH_CASE(NULL, 1, "", "fmt: invalid width: \xe2\x80\x98x\xe2\x80\x99\n",
              "fmt", "-w", "x"),
      BH_CASE(NULL, 1, "",
              "fmt: cannot open \xe2\x80\x98nofile\xe2\x80\x99 for reading: No "
              "such file or directory\n",
              "fmt", "nofile"),
      BH_CASE(NULL, 2, "",
              "numfmt: invalid number: \xe2\x80\x98"
              "abc\xe2\x80\x99\n",
              "numfmt", "abc"),
      BH_CASE(NULL, 1, "",
              "shuf: invalid line count: \xe2\x80\x98x\xe2\x80\x99\n", "shuf",
              "-n", "x"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

/* look's dictionary: /usr/share/dict/words in the sandbox, or $WORDLIST
 * when it names a readable file; -d and -f are implied without FILE. */
static void t_look_dictionary(void **st) {
  bh *h = fixture();
  const bh_case missing[] = {
      BH_CASE(NULL, 1, "",
              "look: /usr/share/dict/words: No such file or directory\n",
              "look", "ban"),
  };
  bh_check_all(h, missing);
  vfs_privileged_enter(h->vfs);
  assert_int_equal(vfs_mkdir_p(h->vfs, "/", "/usr/share/dict", 0755), 0);
  static const char dict[] = "Ban\nbanana\nband\nbandit\nzoo\n";
  assert_int_equal(vfs_write_file(h->vfs, "/", "/usr/share/dict/words", dict,
                                  sizeof dict - 1, 0644),
                   0);
  vfs_privileged_leave(h->vfs);
  bh_setenv(h, "WORDLIST", "/nonexistent");
  const bh_case found[] = {
      BH_CASE(NULL, 0, "Ban\nbanana\nband\nbandit\n", "", "look", "ban"),
      BH_CASE(NULL, 0, "band\nbandit\n", "", "look", "b-and"),
      BH_CASE(NULL, 0, "banana\nband\nbandit\n", "", "look", "ban",
              "/usr/share/dict/words"),
  };
  bh_check_all(h, found);
  bh_setenv(h, "WORDLIST", "w.txt");
  const bh_case wl[] = {
      BH_CASE(NULL, 0, "cherry\ncherry pie\n", "", "look", "CH"),
  };
  bh_check_all(h, wl);
  bh_free(h);
}

/* ---- shuf -------------------------------------------------------------- */

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* The numbers of the output, one a line (at most max). */
static size_t numbers(const char *s, long *out, size_t max) {
  size_t n = 0;
  while (*s && n < max) {
    char *end;
    out[n++] = strtol(s, &end, 10);
    assert_true(*end == '\n');
    s = end + 1;
  }
  return n;
}

static size_t file_len(const char *name) {
  for (size_t i = 0; i < N(textfmt_files); i++)
    if (strcmp(textfmt_files[i].name, name) == 0)
      return textfmt_files[i].len;
  fail();
  return 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of text, sorted, joined again. */
static char *sorted_lines(const char *text) {
  char *copy = strdup(text), *lines[64], *save = NULL;
  size_t n = 0;
  for (char *l = strtok_r(copy, "\n", &save); l && n < 64;
       l = strtok_r(NULL, "\n", &save))
    lines[n++] = l;
  qsort(lines, n, sizeof *lines, cmp_str);
  char *out = calloc(1, strlen(text) + 2);
  for (size_t i = 0; i < n; i++) {
    strcat(out, lines[i]);
    strcat(out, "\n");
  }
  free(copy);
  return out;
}

static void t_shuf_permutation(void **st) {
  bh *h = fixture();
  static long v[1000];
  /* every number once, in some order other than the sorted one */
  assert_int_equal(bh_run(h, NULL, "shuf", "-i", "1-1000", NULL), 0);
  assert_int_equal(numbers(bh_out(h), v, 1000), 1000);
  int sorted = 1;
  for (int i = 1; i < 1000; i++)
    sorted &= v[i - 1] < v[i];
  assert_false(sorted);
  qsort(v, 1000, sizeof *v, cmp_long);
  for (int i = 0; i < 1000; i++)
    assert_int_equal(v[i], i + 1);
  /* the lines of a file: the same lines, in another order */
  assert_int_equal(bh_run(h, NULL, "shuf", "w.txt", NULL), 0);
  assert_int_equal(strlen(bh_out(h)), file_len("w.txt"));
  char *got = sorted_lines(bh_out(h));
  char *want =
      sorted_lines("apple\nApricot\nb-"
                   "and\nband\nbandit\nbanana\ncherry\ncherry pie\ndate\n");
  assert_string_equal(got, want);
  free(got);
  free(want);
  /* a last line without its newline gets one */
  assert_int_equal(bh_run(h, "x\ny", "shuf", NULL), 0);
  assert_true(strcmp(bh_out(h), "x\ny\n") == 0 ||
              strcmp(bh_out(h), "y\nx\n") == 0);
  bh_free(h);
}

static void t_shuf_head_and_repeat(void **st) {
  bh *h = fixture();
  static long v[30000];
  /* -n: that many distinct values of the range, none outside it */
  assert_int_equal(bh_run(h, NULL, "shuf", "-n", "50", "-i", "1000-1099", NULL),
                   0);
  assert_int_equal(numbers(bh_out(h), v, 100), 50);
  qsort(v, 50, sizeof *v, cmp_long);
  for (int i = 0; i < 50; i++) {
    assert_true(v[i] >= 1000 && v[i] <= 1099);
    if (i)
      assert_true(v[i - 1] < v[i]);
  }
  /* a huge range is fine with a small -n: the shuffle keeps only what it
   * moved */
  assert_int_equal(
      bh_run(h, NULL, "shuf", "-n", "3", "-i", "0-18446744073709551614", NULL),
      0);
  assert_int_equal(numbers(bh_out(h), v, 10), 3);
  /* -r: every pick in range, the three values about equally often */
  assert_int_equal(
      bh_run(h, NULL, "shuf", "-r", "-n", "30000", "-i", "1-3", NULL), 0);
  assert_int_equal(numbers(bh_out(h), v, 30000), 30000);
  int count[4] = {0, 0, 0, 0};
  for (int i = 0; i < 30000; i++) {
    assert_true(v[i] >= 1 && v[i] <= 3);
    count[v[i]]++;
  }
  for (int k = 1; k <= 3; k++)
    assert_true(count[k] > 9500 && count[k] < 10500);
  bh_free(h);
}

/* The order is the random stream's: the same stream, the same order; the
 * harness's stream gives exactly these. */
static void t_shuf_exact(void **st) {
  bh *h = fixture();
  assert_int_equal(bh_run(h, NULL, "shuf", "-e", "a", "b", "c", "d", "e", NULL),
                   0);
  char *first = strdup(bh_out(h));
  h->seed = 0x9E3779B97F4A7C15ull;
  assert_int_equal(bh_run(h, NULL, "shuf", "-e", "a", "b", "c", "d", "e", NULL),
                   0);
  assert_string_equal(bh_out(h), first);
  free(first);
  h->seed = 0x9E3779B97F4A7C15ull;
  const bh_case cases[] = {
      BH_CASE(NULL, 0, SHUF_EXACT_E, "", "shuf", "-e", "a", "b", "c", "d", "e"),
      BH_CASE(NULL, 0, SHUF_EXACT_I, "", "shuf", "-i", "1-10"),
      BH_CASE(NULL, 0, SHUF_EXACT_R, "", "shuf", "-r", "-n", "6", "-e", "x",
              "y", "z"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

/* --random-source: the bytes of the file decide; all zero bytes keep the
 * order, and a source that runs out is an error. */
static void t_shuf_random_source(void **st) {
  bh *h = fixture();
  char zeros[64] = {0};
  bh_writen(h, "zero.bin", zeros, sizeof zeros);
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "a\nb\nc\n", "", "shuf", "--random-source=zero.bin",
              "-e", "a", "b", "c"),
      BH_CASE(NULL, 0, "1\n1\n1\n", "", "shuf", "--random-source=zero.bin",
              "-r", "-n", "3", "-i", "1-5"),
      BH_CASE(NULL, 1, NULL, "shuf: 'zero.bin': end of file\n", "shuf",
              "--random-source=zero.bin", "-i", "1-100"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

/* -z and -o: NUL-terminated lines, and the output file written after the
 * input was read (so it may be the input). */
static void t_shuf_z_and_o(void **st) {
  bh *h = fixture();
  assert_int_equal(bh_runb(h, "p\0q\0", 4, "shuf", "-z", NULL), 0);
  assert_int_equal(h->out.len, 4);
  assert_true(memcmp(h->out.data, "p\0q\0", 4) == 0 ||
              memcmp(h->out.data, "q\0p\0", 4) == 0);
  assert_int_equal(bh_run(h, NULL, "shuf", "-o", "w.txt", "w.txt", NULL), 0);
  assert_string_equal(bh_out(h), "");
  size_t len;
  char *d = bh_read(h, "w.txt", &len);
  assert_non_null(d);
  assert_int_equal(len, file_len("w.txt"));
  free(d);
  bh_free(h);
}

/* A shuf -r without -n runs until the output stops it. */
static void t_shuf_endless(void **st) {
  bh *h = fixture();
  h->bud.lim.max_output_bytes = 100000;
  int s = bh_run(h, NULL, "shuf", "-r", "-e", "y", NULL);
  assert_int_not_equal(s, 0);
  assert_true(h->out.len <= 100000 + 8192);
  bh_free(h);
}

/* fmt's NUL-free output of input with -z-like bytes, and numfmt -z. */
static void t_numfmt_zero(void **st) {
  bh *h = fixture();
  assert_int_equal(
      bh_runb(h, "1000\0002000\0", 10, "numfmt", "-z", "--to=si", NULL), 0);
  assert_int_equal(h->out.len, 10);
  assert_memory_equal(h->out.data,
                      "1.0K\0"
                      "2.0K\0",
                      10);
  assert_int_equal(bh_run(h, NULL, "numfmt", "-z", "1", "2", NULL), 0);
  assert_int_equal(h->out.len, 4);
  assert_memory_equal(h->out.data,
                      "1\0"
                      "2\0",
                      4);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_fmt),
      cmocka_unit_test(t_numfmt),
      cmocka_unit_test(t_look),
      cmocka_unit_test(t_shuf_messages),
      cmocka_unit_test(t_envsubst),
      cmocka_unit_test(t_envsubst_bytewise),
      cmocka_unit_test(t_envsubst_env),
      cmocka_unit_test(t_utf8_quotes),
      cmocka_unit_test(t_look_dictionary),
      cmocka_unit_test(t_shuf_permutation),
      cmocka_unit_test(t_shuf_head_and_repeat),
      cmocka_unit_test(t_shuf_exact),
      cmocka_unit_test(t_shuf_random_source),
      cmocka_unit_test(t_shuf_z_and_o),
      cmocka_unit_test(t_shuf_endless),
      cmocka_unit_test(t_numfmt_zero),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
