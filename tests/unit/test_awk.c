// layers: core vfs builtins shell
/* test_awk.c - the awk builtin through the unit harness. Expected outputs
 * were checked against one-true-awk/gawk behaviour (mawk differs on large
 * integers, which it prints with %.6g). */
#include "bi_harness.h"

#include <stdio.h>

typedef struct acase {
  const char *prog, *in, *out;
} acase;

static const acase cases[] = {
    {"{print $2, NF}", "a b c\nd e\n", "b 3\ne 2\n"},
    {"{s+=$2} END{print s, s/NR}", "a 1\nb 2\nc 4\n", "7 2.33333\n"},
    {"{$2=\"X\"; print; print NF}", "a b c\n", "a X c\n3\n"},
    {"{NF=2; print}", "a b c\n", "a b\n"},
    {"{NF=4; print}", "a b\n", "a b  \n"},
    {"BEGIN{print substr(\"hello\",2,3), substr(\"hello\",0), "
     "substr(\"hello\",4)}",
     "", "ell hello lo\n"},
    {"BEGIN{s=\"aaa\"; n=gsub(/a/,\"b&b\",s); print n, s}", "",
     "3 babbabbab\n"},
    {"BEGIN{s=\"hello\"; sub(/l+/,\"[\\\\&]\",s); print s}", "", "he[&]o\n"},
    {"BEGIN{s=\"abc\"; gsub(/x*/,\"-\",s); print s}", "", "-a-b-c-\n"},
    {"BEGIN{print match(\"foobarbaz\", /ba[rz]/), RSTART, RLENGTH}", "",
     "4 4 3\n"},
    {"BEGIN{n=split(\"a:b:c\",a,\":\"); print n, a[1], a[3]}", "", "3 a c\n"},
    {"BEGIN{n=split(\"a1b22c\",a,/[0-9]+/); print n, a[3]}", "", "3 c\n"},
    {"BEGIN{printf \"%5d|%-5s|%.2f|%x|%o|%c|%c|%e\\n\", 42, \"ab\", 3.14159, "
     "255, 8, 65, \"hello\", 12345.678}",
     "", "   42|ab   |3.14|ff|10|A|h|1.234568e+04\n"},
    {"BEGIN{printf \"%*d|%-*.*s|\\n\", 6, 42, 8, 3, \"abcdef\"}", "",
     "    42|abc     |\n"},
    {"BEGIN{print 1e6, 0.1+0.2, 1/3, 2^53}", "",
     "1000000 0.3 0.333333 9007199254740992\n"},
    {"BEGIN{CONVFMT=\"%.2f\"; z = 3.14159 \"\"; print z; print 3.14159}", "",
     "3.14\n3.14159\n"},
    {"BEGIN{OFMT=\"%.2f\"; print 3.14159, 17}", "", "3.14 17\n"},
    {"{print ($1<$2)}", "10 9\nabc abd\n2 10\n", "0\n1\n1\n"},
    {"function f(a,b) { a[1]=\"x\"; b=5; return b*2 } BEGIN { r=f(arr, q); "
     "print r, arr[1], q \"\" }",
     "", "10 x \n"},
    {"function fact(n) { return n<=1 ? 1 : n*fact(n-1) } BEGIN { print "
     "fact(10) }",
     "", "3628800\n"},
    {"BEGIN { a[1,2]=3; for (k in a) { split(k,p,SUBSEP); print p[1], p[2] "
     "}; if ((1,2) in a) print \"yes\" }",
     "", "1 2\nyes\n"},
    {"BEGIN { a[1]; a[2]; delete a[1]; print length(a); delete a; print "
     "length(a) }",
     "", "1\n0\n"},
    {"/b/,/d/", "a\nb\nc\nd\ne\n", "b\nc\nd\n"},
    {"NR==2 {next} {print}", "1\n2\n3\n", "1\n3\n"},
    {"BEGIN { RS=\"\" } { print NR\": \"$1\"|\"$NF }", "a b\nc\n\n\nd e\n",
     "1: a|c\n2: d|e\n"},
    {"BEGIN { RS=\";\" } { print NR\":\"$0 }", "x;y;z", "1:x\n2:y\n3:z\n"},
    {"BEGIN { getline; print \"got \" $0; getline x; print x, NR }", "l1\nl2\n",
     "got l1\nl2 2\n"},
    {"BEGIN { OFS=\"-\" } { $1 = $1; print }", "a b  c\n", "a-b-c\n"},
    {"BEGIN { while (i<3) {i++; if (i==2) continue; print i}; do { j++ } "
     "while (j<5); print j }",
     "", "1\n3\n5\n"},
    {"BEGIN { x; print x+0, x \"\", length(x) }", "", "0  0\n"},
    {"END { print $0, NF }", "a b\nc d e\n", "c d e 3\n"},
    {"{ print length }", "abc\n\n", "3\n0\n"},
    {"BEGIN { print -3 % 2, 2^10, 2^3^2, -2^2 }", "", "-1 1024 512 -4\n"},
    {"BEGIN { print 1 \" \" 2, 1 2 }", "", "1 2 12\n"},
    {"BEGIN { if (!(3 in a)) print \"no\"; print length(a) }", "", "no\n0\n"},
    {"{ c[$1]++ } END { for (k in c) print k, c[k] }", "x\nx\nx\n", "x 3\n"},
    {"$2 ~ /^[0-9]+$/ { n++ } END { print n+0 }", "a 1\nb x\nc 22\n", "2\n"},
    {"{ $5 = \"e\"; print; print NF }", "a b\n", "a b   e\n5\n"},
    {"BEGIN { printf \"%s %d%%\\n\", \"x\", 50 }", "", "x 50%\n"},
    {"BEGIN { print toupper(\"abc\") tolower(\"DEF\"), index(\"abc\",\"c\") }",
     "", "ABCdef 3\n"},
    {"BEGIN { print int(-3.9), sqrt(16), exp(0), log(1) }", "", "-3 4 1 0\n"},
    {"BEGIN { print \"a\" ~ \"a|b\", \"ab\" ~ /^(a|ab)$/ }", "", "1 1\n"},
    {"BEGIN { s = \"foo.bar\"; n = split(s, p, \".\"); print n, p[2] }", "",
     "2 bar\n"},
    {"{ print $1 }", "  lead  trail  \n", "lead\n"},
    {"BEGIN { x[\"a\"] = 1; f(x); print x[\"a\"] } function f(arr) { "
     "arr[\"a\"]++ }",
     "", "2\n"},
    {"BEGIN { exit 3 } END { print \"end\" }", "", "end\n"},
    {"{ print; exit } END { print \"e\" }", "1\n2\n", "1\ne\n"},
    {"BEGIN { printf \"%i %5.1f %G\\n\", 3.9, 2.25, 0.0001 }", "",
     "3   2.2 0.0001\n"},
};

static void test_table(void **state) {
  (void)state;
  bh *h = bh_new();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int st = bh_run(h, cases[i].in, "awk", cases[i].prog, NULL);
    if (strcmp(bh_out(h), cases[i].out) != 0 ||
        st != (strstr(cases[i].prog, "exit 3") ? 3 : 0))
      fprintf(stderr, "case %zu: %s\n got: [%s] err: [%s] st=%d\n", i,
              cases[i].prog, bh_out(h), bh_err(h), st);
    assert_string_equal(bh_out(h), cases[i].out);
  }
  bh_free(h);
}

static void test_options(void **state) {
  (void)state;
  bh *h = bh_new();
  assert_int_equal(bh_run(h, "a,b\n", "awk", "-F,", "{print $2}", NULL), 0);
  assert_string_equal(bh_out(h), "b\n");
  assert_int_equal(bh_run(h, "a\tb c\n", "awk", "-F\\t", "{print $2}", NULL),
                   0);
  assert_string_equal(bh_out(h), "b c\n");
  assert_int_equal(
      bh_run(h, "a1b22c\n", "awk", "-F", "[0-9]+", "{print $3}", NULL), 0);
  assert_string_equal(bh_out(h), "c\n");
  assert_int_equal(
      bh_run(h, "", "awk", "-v", "x=a\\tb", "BEGIN{print x}", NULL), 0);
  assert_string_equal(bh_out(h), "a\tb\n");
  bh_write(h, "p.awk", "{ print n, $0 }");
  bh_write(h, "f1", "one\n");
  bh_write(h, "f2", "two\n");
  assert_int_equal(
      bh_run(h, "", "awk", "-f", "p.awk", "n=1", "f1", "n=2", "f2", NULL), 0);
  assert_string_equal(bh_out(h), "1 one\n2 two\n");
  assert_int_equal(
      bh_run(h, "", "awk", "{print FILENAME, FNR, NR}", "f1", "f2", NULL), 0);
  assert_string_equal(bh_out(h), "f1 1 1\nf2 1 2\n");
  assert_int_equal(bh_run(h, "", "awk",
                          "BEGIN{for(i=0;i<ARGC;i++) print "
                          "ARGV[i]}",
                          "x", "y", NULL),
                   0);
  assert_string_equal(bh_out(h), "awk\nx\ny\n");
  bh_setenv(h, "FOO", "bar");
  assert_int_equal(bh_run(h, "", "awk", "BEGIN{print ENVIRON[\"FOO\"]}", NULL),
                   0);
  assert_string_equal(bh_out(h), "bar\n");
  bh_free(h);
}

static void test_io(void **state) {
  (void)state;
  bh *h = bh_new();
  assert_int_equal(
      bh_run(h, "a\nb\n", "awk",
             "{ print $0 > \"out.txt\" } END { close(\"out.txt\"); "
             "while ((getline l < \"out.txt\") > 0) print \"r\" l }",
             NULL),
      0);
  assert_string_equal(bh_out(h), "ra\nrb\n");
  char *d = bh_read(h, "out.txt", NULL);
  assert_string_equal(d, "a\nb\n");
  free(d);
  assert_int_equal(
      bh_run(h, "", "awk", "BEGIN { print \"x\" >> \"out.txt\" }", NULL), 0);
  d = bh_read(h, "out.txt", NULL);
  assert_string_equal(d, "a\nb\nx\n");
  free(d);
  assert_int_equal(
      bh_run(h, "", "awk", "BEGIN { print (getline l < \"nope\") }", NULL), 0);
  assert_string_equal(bh_out(h), "-1\n");
  bh_free(h);
}

static void test_errors(void **state) {
  (void)state;
  bh *h = bh_new();
  /* gawk: 1 for what is wrong in the program text, 2 for a fatal error */
  assert_int_equal(bh_run(h, "", "awk", "BEGIN { print ( }", NULL), 1);
  assert_string_equal(bh_out(h), "");
  assert_string_equal(bh_err(h),
                      "awk: cmd. line:1: BEGIN { print ( }\n"
                      "awk: cmd. line:1:                 ^ syntax error\n");
  assert_int_equal(bh_run(h, "", "awk", NULL), 2);
  assert_int_equal(bh_run(h, "", "awk", "{print}", "missing", NULL), 2);
  assert_string_equal(bh_err(h), "awk: fatal: cannot open file `missing' "
                                 "for reading: No such file or directory\n");
  assert_int_equal(bh_run(h, "", "awk", "BEGIN { print 1/0 }", NULL), 1);
  assert_string_equal(bh_err(h),
                      "awk: cmd. line:1: error: division by zero attempted\n");
  assert_int_equal(bh_run(h, "", "awk", "BEGIN { x = 1; x %= 0 }", NULL), 2);
  assert_string_equal(
      bh_err(h),
      "awk: cmd. line:1: fatal: division by zero attempted in `%='\n");
  bh_free(h);
}

static void test_speed_csv(void **state) {
  (void)state;
  bh *h = bh_new();
  buf b;
  buf_init(&b, h->m);
  buf_puts(&b, "id,region,item,qty,price\n");
  for (int i = 0; i < 20000; i++)
    buf_printf(&b, "%d,r%d,item%d,%d,%d.%02d\n", i, i % 7, i % 13, i % 5 + 1,
               i % 100, i % 97);
  bh_writen(h, "sales.csv", b.data, b.len);
  buf_free(&b);
  assert_int_equal(bh_run(h, "", "awk", "-F,",
                          "NR>1 {s[$2]+=$4*$5} END {for (r in s) n++; print n}",
                          "sales.csv", NULL),
                   0);
  assert_string_equal(bh_out(h), "7\n");
  bh_free(h);
}

/* EREs are POSIX: leftmost-longest, and never limited by backtracking. */
static void test_posix_regex(void **state) {
  (void)state;
  bh *h = bh_new();
  static const acase rc[] = {
      {"/^(a|aa)+c|a+b$/{print \"yes\"}",
       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n", "yes\n"},
      {"{print ($0 ~ /^(a|aa)+c|a+b$/)}",
       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n", "1\n"},
      {"{sub(/^(a|aa)+c|a+b$/, \"X\"); print}",
       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n", "X\n"},
      {"BEGIN{match(\"abcd\", /b|bc|bcd/); print RSTART, RLENGTH}", "",
       "2 3\n"},
      {"{n = gsub(/x*|xy/, \"-\"); print n, $0}", "abcd\n", "5 -a-b-c-d-\n"},
      {"BEGIN{n = split(\"a1b12c\", p, /1|12/); print n, p[2], p[3]}", "",
       "3 b c\n"},
  };
  for (size_t i = 0; i < sizeof rc / sizeof rc[0]; i++) {
    assert_int_equal(bh_run(h, rc[i].in, "awk", rc[i].prog, NULL), 0);
    assert_string_equal(bh_out(h), rc[i].out);
  }
  bh_free(h);
}

/* Numbers out of every integer type's range (found by fuzz_awk): each
 * conversion to an integer clamps instead of being undefined. Outputs are
 * gawk's but for two sandbox choices: a field number past every integer is
 * an empty field (gawk stops on a wrapped negative index) and a printf
 * width is capped at 100000 (gawk takes 2^1024 as 1 and 2^31 literally). */
static void test_huge_numbers(void **state) {
  (void)state;
  bh *h = bh_new();
  static const acase nc[] = {
      {"BEGIN{x = 2^1024; print x, -x, x \"\", x % 3}", "",
       "+inf -inf +inf -nan\n"},
      {"{print \"[\" $(2^1024) \"]\", $(2^40)}", "a b\n", "[] \n"},
      {"BEGIN{printf \"%d %o %x %u|\\n\", 2^1024, -2^1024, 2^64, -1e300}", "",
       "+inf -inf 1.84467e+19 -1e+300|\n"},
      {"BEGIN{s = sprintf(\"%*d\", 2^1024, 1); t = sprintf(\"%*d\", -2^1024, "
       "1); "
       "u = sprintf(\"%.*f\", -2^1024, 1.5); print length(s), length(t), u}",
       "", "100000 100000 1.500000\n"},
      {"BEGIN{srand(2^1024); srand(-2^1024); ARGC = 2^1024; print \"ok\"}", "",
       "ok\n"},
  };
  for (size_t i = 0; i < sizeof nc / sizeof nc[0]; i++) {
    bh_run(h, nc[i].in, "awk", nc[i].prog, NULL);
    assert_string_equal(bh_out(h), nc[i].out);
  }
  /* the character is arbitrary, the conversion must be defined */
  assert_int_equal(
      bh_run(h, "", "awk", "BEGIN{printf \"%c%c\", 1e300, -1e300}", NULL), 0);
  assert_int_equal(bh_run(h, "", "awk", "BEGIN{exit 2^1024}", NULL), 255);
  assert_int_equal(bh_run(h, "", "awk", "BEGIN{exit -2^1024}", NULL), 0);
  assert_int_equal(bh_run(h, "", "awk", "{NF = 2^1024}", "x", NULL), 2);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),        cmocka_unit_test(test_options),
      cmocka_unit_test(test_io),           cmocka_unit_test(test_errors),
      cmocka_unit_test(test_speed_csv),    cmocka_unit_test(test_posix_regex),
      cmocka_unit_test(test_huge_numbers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
