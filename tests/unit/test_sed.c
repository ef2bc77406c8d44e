// layers: core vfs builtins shell
/* Unit tests of sed. Expected outputs were checked against GNU sed 4.9 run
 * on the same inputs. */
#include "bi_harness.h"

#include <stdio.h>

#define RUN(h, in, ...) bh_run(h, in, __VA_ARGS__, NULL)
#define OUT_IS(h, s) assert_string_equal(bh_out(h), s)
#define ERR_IS(h, s) assert_string_equal(bh_err(h), s)

static void t_basic(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "hello world\n", "sed", "s/o/0/g"), 0);
  OUT_IS(h, "hell0 w0rld\n");
  bh_free(h);
}

static void t_cmds(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("a\nb\nc\n", 0, "a\nb\nc\n", NULL, "sed", "N;P;D"),
      BH_CASE("a\nb\nc\n", 0, "c\nb\na\n", NULL, "sed", "1!G;h;$!d"),
      BH_CASE("a", 0, "a\na", NULL, "sed", "p"),
      BH_CASE("hello world\n", 0, "Hello World\n", NULL, "sed",
              "s/\\w\\+/\\u&/g"),
      BH_CASE("baaac\n", 0, "xbxcx\n", NULL, "sed", "s/a*/x/g"),
      BH_CASE("a\nb\nc\n", 5, "a\nb\n", NULL, "sed", "2q5"),
      BH_CASE("a\tb\001\n", 0, "a\\tb\\001$\n", NULL, "sed", "-n", "l"),
      BH_CASE("1\n2\n3\n4\n", 0, "2\n4\n", NULL, "sed", "-n", "0~2p"),
      BH_CASE("a\nb\nc\n", 0, "a\n", NULL, "sed", "-n", "0,/a/p"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_files(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "f", "a\nb\n");
  assert_int_equal(RUN(h, "", "sed", "-i.bak", "s/a/X/", "f"), 0);
  char *d = bh_read(h, "f", NULL);
  assert_string_equal(d, "X\nb\n");
  free(d);
  d = bh_read(h, "f.bak", NULL);
  assert_string_equal(d, "a\nb\n");
  free(d);
  const bh_case cases[] = {
      BH_CASE("", 0, "4\n", NULL, "sed", "-n", "$=", "f", "f.bak"),
      BH_CASE("", 0, "2\n2\n", NULL, "sed", "-s", "-n", "$=", "f", "f.bak"),
      BH_CASE("", 2, NULL, "sed: can't read nope: No such file or directory\n",
              "sed", "p", "nope"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_errors(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("", 1, NULL,
              "sed: -e expression #2, char 3: unterminated `s' command\n",
              "sed", "-e", "p", "-e", "s/a"),
      BH_CASE("", 1, NULL,
              "sed: -e expression #1, char 7: invalid reference \\1 on `s' "
              "command's RHS\n",
              "sed", "s/a/\\1/"),
      BH_CASE("", 4, NULL, NULL, "sed", "b foo"),
      BH_CASE("", 1, NULL,
              "sed: -e expression #1, char 1: unknown command: `k'\n", "sed",
              "k"),
      BH_CASE("", 1, NULL, NULL, "sed", "e ls"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

/* POSIX regexes: leftmost-longest, never limited by backtracking (the
 * automaton decides; captures come from a pass forced to that extent);
 * back-references, which need backtracking, fail loudly at its limit. */
static void t_posix_regex(void **st) {
  (void)st;
  bh *h = bh_new();
  const char *line = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n";
  const bh_case cases[] = {
      BH_CASE(line, 0, "X\n", "", "sed", "-E", "s/^(a|aa)+c|a+b$/X/"),
      BH_CASE(line, 0, line, "", "sed", "-nE", "/^(a|aa)+c|a+b$/p"),
      BH_CASE(line, 0, "<aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa>\n", "",
              "sed", "s/^\\(a\\|aa\\)\\+c\\|\\(a\\+\\)b$/<\\2>/"),
      BH_CASE("xyz\n", 0, "Q\n", "", "sed", "-E", "s/x|xy|xyz/Q/"),
      BH_CASE("xyz\n", 0, "[xy][xy]z\n", "", "sed", "-E",
              "s/x*(xy)?/[&][\\1]/"),
      BH_CASE("xyyz\n", 0, "<xyy>z<>\n", "", "sed", "-E", "s/x*(xy)?y*/<&>/g"),
      BH_CASE("abab\n", 0, "[abab]\n", "", "sed", "-E", "s/(ab)\\1/[&]/"),
      BH_CASE("ok\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n", 4, "ok\n",
              "sed: exceeded PCRE's backtracking limit\n", "sed", "-E",
              "s/^(a|aa)+\\1c|a+b$/X/"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_basic),       cmocka_unit_test(t_cmds),
      cmocka_unit_test(t_files),       cmocka_unit_test(t_errors),
      cmocka_unit_test(t_posix_regex),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
