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

/* Language, builtins, options and messages. Outputs recorded from jq 1.6
 * where jq 1.7.1 agrees; where they differ (runtime division by zero,
 * error(null), input past the end, parse errors: "jq: error (at ...)" and
 * status 2), jq 1.7.1's behaviour. */
static void t_lang(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("{\"a\":{\"b\":[1,2,3]}}", 0, "[2,3]\n3\n1\n1\n2\n3\n", "", "jq",
              "-c", ".a.b[1:], .a.b[-1], .a[\"b\"][0], .a.b[]?"),
      BH_CASE("[3,1,2]", 0, "[3,2,1]\n[[2],[3,1]]\n[1,3]\n3\n1\n", "", "jq",
              "-c",
              "sort_by(-.), group_by(. % 2), unique_by(. > 1), min_by(-.), "
              "max_by(-.)"),
      BH_CASE(
          "{\"b\":2,\"a\":1}", 0,
          "[\"a\",\"b\"]\n[\"b\",\"a\"]\n[{\"key\":\"b\",\"value\":2},{\"key\":"
          "\"a\",\"value\":1}]\n{\"b\":3,\"a\":2}\ntrue\n{\"b\":20,\"a\":10}\n",
          "", "jq", "-c",
          "keys, keys_unsorted, to_entries, with_entries(.value += 1), "
          "has(\"a\"), (map_values(. * 10))"),
      BH_CASE("null", 0, "[1,1,1]\n[0,3,6,9]\n[5,3,1]\n10\n[]\n", "", "jq",
              "-c",
              "[limit(3; repeat(1))], [range(0; 10; 3)], [range(5; 0; -2)], "
              "first(range(10;20)), [.[]?]"),
      BH_CASE("null", 0, "[4,6]\n", "", "jq", "-c",
              "reduce range(5) as $i ([]; . + [$i * 2]) | .[2:4]"),
      BH_CASE("null", 0, "[[0,0],[1,1],[2,3],[3,6],[4,10]]\n", "", "jq", "-c",
              "[foreach range(5) as $i (0; . + $i; [$i, .])]"),
      BH_CASE("null", 0, "[null,null,null]\n", "", "jq", "-c",
              ". as [$a, $b, {c: $c}] ?// $a | [$a, $b, $c]"),
      BH_CASE("[[1,2],[3,4]]", 0, "{\"a\":1,\"b\":2}\n{\"a\":3,\"b\":4}\n", "",
              "jq", "-c", ".[] as [$a, $b] | {a: $a, b: $b}"),
      BH_CASE("null", 0, "1\n2\n", "", "jq", "-c",
              "label $out | 1, 2, break $out, 3"),
      BH_CASE(
          "null", 0, "[6,5,5]\n", "", "jq", "-c",
          "def f(x): x * 2; def g($y): $y + 1; [f(3), g(4), (def h: 5; h)]"),
      BH_CASE("null", 0, "[1,2,6,24,120,720,5040]\n", "", "jq", "-c",
              "def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; "
              "[range(1;8) | fac]"),
      BH_CASE("null", 0,
              "1\n\"number (1) and number (0) cannot be divided because the "
              "divisor is zero\"\n[]\n5\n7\n",
              "", "jq", "-c",
              "try error({a:1}) catch .a, (try (1/0) catch .), [.[]?], (null "
              "// 5), (false // empty // 7)"),
      BH_CASE("{\"a\":[1,2,3]}", 0,
              "{\"a\":[1,\"x\"]}\n{\"a\":[2,3,4]}\n{\"a\":[11,2,3]}\n{\"a\":[2]"
              "}\n{\"a\":[1,2,3],\"b\":3}\n\"a\"\n",
              "", "jq", "-c",
              ".a[1:] = [\"x\"], .a |= map(. + 1), .a[0] += 10, del(.a[0,2]), "
              "(.b //= 3), to_entries[0].key"),
      BH_CASE(
          "\"a,b, c\"", 0,
          "[\"a\",\"b\",\" "
          "c\"]\n[\"a\",\"b\",\"c\"]\n[\"a\",\"b\",\"c\"]\ntrue\n[0,2,5]\n\"a;"
          "b, c\"\n\"<a>,<b>, <c>\"\n\"A,B, C\"\n[97,44,98,44,32,99]\n\"a,b, "
          "c\"\n\"b, c\"\n\"a,b,\"\ntrue\ntrue\n6\n6\n",
          "", "jq", "-c",
          "split(\",\"), split(\", *\"; null), [splits(\", *\")], test(\"B\"; "
          "\"i\"), [match(\"[a-z]\"; \"g\").offset], sub(\",\"; \";\"), "
          "gsub(\"(?<x>[a-z])\"; \"<\\(.x)>\"), ascii_upcase, explode, "
          "(explode | implode), ltrimstr(\"a,\"), rtrimstr(\" c\"), "
          "startswith(\"a\"), endswith(\"c\"), length, utf8bytelength"),
      BH_CASE(
          "\"h\303\251llo\"", 0,
          "5\n6\n\"\303\251l\"\n\"aMOpbGxv\"\n\"h\303\251llo\"\n\"h%C3%"
          "A9llo\"\n\"h\303\251llo\"\n\"'h\303\251llo'"
          "\"\n\"\\\"h\303\251llo\\\"\"\n\"h\303\251llo\"\n\"h\303\251llo\"\n",
          "", "jq", "-c",
          "length, utf8bytelength, .[1:3], @base64, (@base64 | @base64d), "
          "@uri, @html, @sh, @json, @text, ascii_downcase"),
      BH_CASE("[1,\"a b\",null,true,{\"x\":1}]", 0,
              "\"1,\\\"a b\\\",,true\"\n\"1\\ta b\\t\\ttrue\"\n\"1 'a b' null "
              "true\"\n",
              "", "jq", "-c", ".[0:4] | @csv, @tsv, @sh"),
      BH_CASE("{\"a\":1,\"b\":[1,{\"c\":2}]}", 0,
              "[[\"a\"],[\"b\"],[\"b\",0],[\"b\",1],[\"b\",1,\"c\"]]\n[[\"a\"],"
              "[\"b\",0],[\"b\",1,\"c\"]]\n[[\"a\"],[\"b\",0],[\"b\",1,\"c\"]]"
              "\n2\n{\"a\":1,\"b\":[9,{\"c\":2}]}\n{\"b\":[1]}\n[1,1,2]\n[["
              "\"a\"],1]\n[[\"b\",0],1]\n[[\"b\",1,\"c\"],2]\n[[\"b\",1,\"c\"]]"
              "\n[[\"b\",1]]\n[[\"b\"]]\n",
              "", "jq", "-c",
              "[paths], [leaf_paths], [paths(type == \"number\")], "
              "getpath([\"b\",1,\"c\"]), setpath([\"b\",0]; 9), "
              "delpaths([[\"a\"],[\"b\",1]]), [.. | numbers], tostream"),
      BH_CASE(
          "[{\"a\":1},{\"a\":2}]", 5, "3\n",
          "jq: error (at <stdin>:0): Cannot index number with string \"a\"\n",
          "jq", "-c",
          "map(.a) | add, (INDEX(.a) | keys), [.[] | select(.a > 1)], any(.[]; "
          ".a == 2), all(.[]; .a > 0), (map(.a) | IN(2)), ([.[].a] | "
          "inside([1,2,3]))"),
      BH_CASE("null", 0,
              "[1,2,3]\n[1,2,[3]]\ntrue\ntrue\ntrue\n\"x\"\n[[1,3],[1,4],[2,3],"
              "[2,4]]\n",
              "", "jq", "-c",
              "[1,[2,[3]]] | flatten, flatten(1), ([1,2,3] | contains([1])), "
              "({\"a\":{\"b\":1}} | contains({\"a\":{}})), (\"foobar\" | "
              "contains(\"bar\")), ([1,2] | combinations? // \"x\"), "
              "([[1,2],[3,4]] | [combinations])"),
      BH_CASE("null", 0, "[1]\n1\n1\n[0,4]\n\"a-b\"\n\"1,,x\"\n", "", "jq",
              "-c",
              "[1,2,3] | indices(2), index(2), rindex(2), (\"a,b,a\" | "
              "indices(\"a\")), ([\"a\",\"b\"] | join(\"-\")), ([1,null,\"x\"] "
              "| join(\",\"))"),
      BH_CASE("null", 0,
              "{\"a\":{\"b\":{\"c\":1}}}\n[null,null,null,1]\n{\"x\":1}\n", "",
              "jq", "-c", "{} | .a.b.c = 1, ([] | .[3] = 1), (null | .x += 1)"),
      BH_CASE(
          "null", 0,
          "[3,-4]\n[4,-3]\n[4,-4]\n[3.7,3.7]\n[1.9235384061671346,null]"
          "\n1\n1024\ntrue\ntrue\ntrue\n",
          "", "jq", "-c",
          "[3.7, -3.7] | map(floor), map(ceil), map(round), map(fabs), "
          "map(sqrt? // \"nan\"), (10 | log10), (2 | pow(.; 10)), (infinite | "
          "isinfinite), (nan | isnan), ([nan] | sort | .[0] | isnan)"),
      BH_CASE(
          "null", 0, "\"3 and x\"\n\"v=aGk=\"\n\"j=[1]\"\n\"bc\"\n1\n", "",
          "jq", "-c",
          "\"\\(1 + 2) and \\(\"x\")\", @base64 \"v=\\(\"hi\")\", @json "
          "\"j=\\([1])\", (\"abc\" | .[1:]), ({} | .[\"a b\"] = 1 | .\"a b\")"),
      BH_CASE("null", 0, "[[1,2,1]]\n{\"v\":1,\"k\":1,\"1\":3,\"z\":4}\n", "",
              "jq", "-c",
              "[.[]?, (1 as $x | 2 as $y | [$x, $y, $__loc__.line])], ({a:1} | "
              ".a as $v | {$v, \"k\": $v, \"\\($v)\": 3, (\"z\"): 4})"),
      BH_CASE(
          "{\"a\":[{\"b\":1},{\"b\":2}]}", 5, "\"[1,2]\"\n[1,2]\n",
          "jq: error (at <stdin>:0): Cannot index array with string \"a\"\n",
          "jq", "-c",
          "[.a[] | .b] | tojson, (tojson | fromjson), (. as $o | $o.a | "
          "length), ([.a[].b] | min, max), (.a | map(.b) | reverse)"),
      BH_CASE(
          "null", 0,
          "\"A\"\n\"AB\"\n1425599507\n\"2015-03-05T23:51:47Z\"\n1425599507\n",
          "", "jq", "-c",
          "[splits(\"a\";\"g\")]?, (65 | ascii), ([65,66] | implode), "
          "(\"2015-03-05T23:51:47Z\" | fromdate), (1425599507 | todate), "
          "(1425599507 | gmtime | mktime)"),
      BH_CASE("null", 0, "[1,2,1,2,1,2,1,2]\n[2,4]\n[[1,2]]\n", "", "jq", "-c",
              "[1,2] | until(length > 4; . + .), [while(length < 8; . + .) | "
              "length], [recurse(if . < 3 then . + 1 else empty end)]? // 0"),
      BH_CASE(
          "null", 0, "[1,\"1\",1,\"[1]\",false,0,\"string\",true]\n", "", "jq",
          "-c",
          "1 as $x | [$x, ($x | tostring), (\"1\" | tonumber), ([1] | tojson), "
          "(true | not), ({} | length), (\"x\" | type), (null | not)]"),
      BH_CASE("{\"a\":\"x\"}", 0,
              "x\n{\n  \"a\": \"x\"\n}\n[\n  1,\n  \"y\"\n]\n", "", "jq", "-r",
              ".a, ., [1,\"y\"]"),
      BH_CASE("{\"a\":\"x\"}", 0, "x1z", "", "jq", "-j", ".a, 1, \"z\""),
      BH_CASE(
          "{\"b\":{\"d\":1,\"c\":2},\"a\":[]}", 0,
          "{\n  \"a\": [],\n  \"b\": {\n    \"c\": 2,\n    \"d\": 1\n  }\n}\n",
          "", "jq", "-S", "."),
      BH_CASE("{\"a\":[1,{}]}", 0, "{\n\t\"a\": [\n\t\t1,\n\t\t{}\n\t]\n}\n",
              "", "jq", "--tab", "."),
      BH_CASE("{\"a\":[1,{}]}", 0,
              "{\n   \"a\": [\n      1,\n      {}\n   ]\n}\n", "", "jq",
              "--indent", "3", "."),
      BH_CASE("{\"a\":[1,{}]}", 0, "{\"a\":[1,{}]}\n", "", "jq", "--indent",
              "0", "."),
      BH_CASE("\"\303\251\\u0001\"", 0, "\"\\u00e9\\u0001\"\n", "", "jq", "-a",
              "."),
      BH_CASE("1 2 3", 0, "[1,2,3]\n", "", "jq", "-c", "-n", "[inputs]"),
      BH_CASE("1 2 3", 0, "1\n2\n", "", "jq", "-c", "-n", "input, input"),
      BH_CASE("1 2 3", 5, "[1,2]\n",
              "jq: error (at <stdin>:0): No more inputs\n", "jq", "-c",
              "[., input]"),
      BH_CASE("a\nb\n", 0, "\"a\"\n\"b\"\n", "", "jq", "-R", "-c", "."),
      BH_CASE("a\nb\n", 0, "\"a\\nb\\n\"\n", "", "jq", "-R", "-s", "-c", "."),
      BH_CASE("[1,[2]]", 0, "[[0],1]\n[[1,0],2]\n[[1,0]]\n[[1]]\n", "", "jq",
              "-c", "--stream", "."),
      BH_CASE("{\"a\":1}", 0,
              "{\"x\":\"y\",\"z\":[1],\"n\":{\"x\":\"y\",\"z\":[1]}}\n", "",
              "jq", "-c", "--arg", "x", "y", "--argjson", "z", "[1]",
              "{x: $x, z: $z, n: $ARGS.named}"),
      BH_CASE("null", 0, "{\"positional\":[\"p\",\"q\"],\"named\":{}}\n", "",
              "jq", "-c", "-n", "$ARGS", "--args", "p", "q"),
      BH_CASE("null", 0, "[1,{\"a\":2}]\n", "", "jq", "-c", "-n",
              "$ARGS.positional", "--jsonargs", "1", "{\"a\":2}"),
      BH_CASE("null", 1, "false\n", "", "jq", "-e", "false"),
      BH_CASE("[]", 4, "", "", "jq", "-e", ".[]"),
      BH_CASE(
          "{\"a\":1}", 5, "",
          "jq: error (at <stdin>:0): Cannot index number with string \"b\"\n",
          "jq", ".a.b"),
      BH_CASE("[1", 2, "",
              "jq: error (at <stdin>:0): Unfinished JSON term at EOF at line "
              "1, column 2\n",
              "jq", "."),
      BH_CASE("1 }", 2, "1\n",
              "jq: error (at <stdin>:0): Unmatched '}' at line 1, column 3\n",
              "jq", "-c", "."),
      BH_CASE("null", 3, "",
              "jq: error: syntax error, unexpected $end (Unix shell quoting "
              "issues?) at <top-level>, line 1:\n{\njq: 1 compile error\n",
              "jq", "{"),
      BH_CASE("null", 3, "",
              "jq: error: nosuchfn/1 is not defined at <top-level>, line "
              "1:\nnosuchfn(1)\njq: 1 compile error\n",
              "jq", "nosuchfn(1)"),
      BH_CASE("null", 3, "",
              "jq: error: $b is not defined at <top-level>, line 1:\n. as [$a] "
              "| $b\njq: 1 compile error\n",
              "jq", ". as [$a] | $b"),
      BH_CASE("null", 5, "", "jq: error (at <unknown>): x\n", "jq", "-n",
              "\"x\" | error"),
      BH_CASE("null", 5, "",
              "jq: error (at <unknown>) (not a string): {\"a\":1}\n", "jq",
              "-n", "{a:1} | error"),
      BH_CASE("null", 5, "", "jq: error (at <unknown>) (not a string): null\n",
              "jq", "-n", "error(null)"),
      BH_CASE("null", 0, "false\n", "", "jq", "-c", "\"abc\" | test(\"B\")"),
      BH_CASE(
          "null", 0,
          "\"x!\"\n\"string (\\\"a\\\") and number (1) cannot be "
          "added\"\n\"Cannot index object with number\"\n\"Cannot index array "
          "with string \\\"a\\\"\"\n\"object ({}) and number (1) cannot be "
          "subtracted\"\n\"number (1) and string (\\\"a\\\") cannot be "
          "subtracted\"\n\"\"\n\"string (\\\"a\\\") cannot be parsed as a "
          "number\"\n\"null (null) "
          "cannot be lowercased\"\n",
          "", "jq", "-c",
          "\"x\" | try error(\"\\(.)!\") catch ., try (\"a\" + 1) catch ., try "
          "({} | .[0]) catch ., try ([] | .a) catch ., try ({} - 1) catch ., "
          "try (1 - \"a\") catch ., try ([] | implode) catch ., try (\"a\" | "
          "tonumber) catch ., try ({} | keys | .[0] | ascii_downcase) catch ."),

  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_color(void **st) {
  (void)st;
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("{\"a\":[null,1]}", 0,
              "\033[1;39m{\033[0m\033[34;1m\"a\"\033[0m\033[1;39m:\033[0m"
              "\033[1;39m[\033[0;90mnull\033[0m\033[1;39m,\033[0;39m1\033[0m"
              "\033[1;39m\033[1;39m]\033[0m\033[1;39m\033[1;39m}\033[0m\n",
              "", "jq", "-C", "-c", "."),
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
      cmocka_unit_test(t_core),   cmocka_unit_test(t_errors),
      cmocka_unit_test(t_limits), cmocka_unit_test(t_lang),
      cmocka_unit_test(t_color),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
