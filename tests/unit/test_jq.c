// layers: core vfs builtins shell
/* Unit tests of jq: parser, evaluator, printer, options, errors, limits.
 * Expected outputs were recorded from jq 1.6 on this machine where jq 1.7.1
 * agrees, and follow jq 1.7.1 where the two differ. */
#include "bi_harness.h"

#include <stdio.h>

static void t_core(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("{\"a\":[1,2,{\"b\":null}],\"c\":\"x\"}", 0,
              "{\n  \"a\": [\n    1,\n    2,\n    {\n      \"b\": null\n    "
              "}\n  ],\n  \"c\": \"x\"\n}\n",
              "", "jq", "."),
      BH_CASE("{\"a\":\"hi\"}", 0, "hi\n", "", "jq", "-r", ".a"),
      BH_CASE("[{\"x\":1},{\"x\":2}]", 0, "1\n2\n", "", "jq", ".[] | .x"),
      BH_CASE("null", 0, "[11,12,21,22]\n", "", "jq", "-c",
              "[(1,2) + (10,20)]"),
      BH_CASE("null", 0, "{\"a\":1,\"b\":3}\n{\"a\":1,\"b\":4}\n", "", "jq",
              "-c", "{a:1, b:(3,4)}"),
      BH_CASE("[3,1,2]", 0, "[1,2,3]\n", "", "jq", "-c", "sort"),
      BH_CASE("null", 0, "15\n", "", "jq", "[range(5)] | map(.+1) | add"),
      BH_CASE("{\"a\":{\"b\":1}}", 0, "[[\"a\"],[\"a\",\"b\"]]\n", "", "jq",
              "-c", "[paths]"),
      BH_CASE("{\"a\":1}", 0, "{\"a\":2}\n", "", "jq", "-c", ".a += 1"),
      BH_CASE("[1,2,3]", 0, "6\n", "", "jq", "reduce .[] as $x (0; . + $x)"),
      BH_CASE("null", 0, "[1,3,6]\n", "", "jq", "-c",
              "[foreach (1,2,3) as $x (0; . + $x)]"),
      BH_CASE("null", 0, "\"x\"\n", "", "jq", "try error(\"x\") catch ."),
      BH_CASE("null", 0, "[0,1,2]\n", "", "jq", "-c", "[limit(3; range(10))]"),
      BH_CASE("\"abc\"", 0, "\"aXc\"\n", "", "jq", "sub(\"b\"; \"X\")"),
      BH_CASE("[1,\"a b\"]", 0, "1\ta b\n", "", "jq", "-r", "@tsv"),
      BH_CASE("[1,\"a\"]", 0, "1,\"a\"\n", "", "jq", "-r", "@csv"),
      BH_CASE("null", 0, "1e+17\n0.1\n1.7976931348623157e+308\n", "", "jq",
              "1e17, 0.1, 1e1000"),
      BH_CASE("{\"b\":1,\"a\":2}", 0, "{\"a\":2,\"b\":1}\n", "", "jq", "-S",
              "-c", "."),
      BH_CASE(NULL, 0, "\"v\"\n", "", "jq", "-n", "--arg", "x", "v", "$x"),
      BH_CASE(NULL, 0, "{\"a\":1}\n", "", "jq", "-nc", "--argjson", "x",
              "{\"a\":1}", "$x"),
      BH_CASE("1 2 3", 0, "[1,2,3]\n", "", "jq", "-cs", "."),
      BH_CASE("a\nb\n", 0, "\"a\"\n\"b\"\n", "", "jq", "-R", "."),
      BH_CASE(NULL, 0, "jq-1.7.1\n", "", "jq", "--version"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_errors(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("{\"a\":[1,2", 2, "",
              "jq: error (at <stdin>:0): Unfinished JSON term at EOF at line "
              "1, column 9\n",
              "jq", "."),
      BH_CASE(
          "1", 5, "",
          "jq: error (at <stdin>:0): Cannot index number with string \"a\"\n",
          "jq", ".a"),
      BH_CASE("null", 3, "",
              "jq: error: foo/0 is not defined at <top-level>, line "
              "1:\nfoo\njq: 1 compile error\n",
              "jq", "foo"),
      BH_CASE("null", 1, "null\n", "", "jq", "-e", "."),
      BH_CASE("null", 4, "", "", "jq", "-e", "empty"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_limits(void **st) {
  (void)st;
  bh *h = bh_new();
  /* unbounded recursion ends with the sandbox's limit, not a crash */
  assert_int_not_equal(bh_run(h, NULL, "jq", "-n", "def f: 1 + f; f", NULL), 0);
  assert_int_not_equal(bh_run(h, NULL, "jq", "-n", "def f: f; f", NULL), 0);
  assert_int_not_equal(
      bh_run(h, NULL, "jq", "-n",
             "[recurse(if . < 1e6 then .+1 else empty end)] | length", NULL),
      0);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_core),
      cmocka_unit_test(t_errors),
      cmocka_unit_test(t_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
