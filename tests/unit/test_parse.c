// layers: core
/*
 * test_parse.c - the bash parser: tree shapes (through the compact dump of
 * ast_dump.c), quoting, here-documents, aliases, errors and printing.
 *
 * Built against the core layer plus the parser's own sources, so it does not
 * depend on the state of the rest of the shell layer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../shell/ast_dump.c"
#include "../../shell/lex.c"
#include "../../shell/lex_token.c"
#include "../../shell/parse.c"
#include "../../shell/parse_cond.c"
#include "../../shell/print.c"

static mem *M;
static arena A;
static buf B;

static int setup(void **st) {
  (void)st;
  M = mem_new(NULL, NULL, 0);
  arena_init(&A, M);
  buf_init(&B, M);
  return 0;
}

static int teardown(void **st) {
  (void)st;
  buf_free(&B);
  arena_destroy(&A);
  mem_unref(M);
  return 0;
}

/* Parse all of src and return the dump of the tree (or "ERR:line:msg"). */
static const char *P(const char *src) {
  sh_node *n;
  const char *err;
  int line;
  buf_clear(&B);
  if (sh_parse_all(&A, src, strlen(src), NULL, &n, &err, &line) < 0) {
    buf_printf(&B, "ERR:%d:%s", line, err);
    return buf_cstr(&B);
  }
  /* Strip the outer (list ...) when it holds one plain item. */
  if (n->u.list.nitems == 1 && !n->u.list.items[0].async)
    sh_ast_dump(&B, n->u.list.items[0].node);
  else
    sh_ast_dump(&B, n);
  return buf_cstr(&B);
}

#define EQ(src, want) assert_string_equal(P(src), want)

static void t_simple(void **st) {
  (void)st;
  EQ("echo hi", "(cmd echo hi)");
  EQ("echo a  b\tc", "(cmd echo a b c)");
  EQ("  echo hi # comment", "(cmd echo hi)");
  EQ("echo a#b", "(cmd echo a#b)");
  EQ("A=1 B=x echo $A", "(cmd A=1 B=x echo $A)");
  EQ("A=1", "(cmd A=1)");
  EQ("A+=1 a[1+2]=x", "(cmd A+=1 a[1+2]=x)");
  EQ("a[1 + 1]=x", "(cmd a[1 + 1]=x)");
  EQ("echo a[1 + 1]=x", "(cmd echo a[1 + 1]=x)");
  EQ("a=(1 2 [k]=v [j]+=w)", "(cmd a=(1 2 [k]=v [j]+=w))");
  EQ("a=(\n 1 # c\n 2\n)", "(cmd a=(1 2))");
  EQ("echo a=(1)", "ERR:1:syntax error near unexpected token `('");
}

static void t_quotes(void **st) {
  (void)st;
  EQ("echo 'a b' \"c $d\" \\e", "(cmd echo 'a b' \"c $d\" 'e')");
  EQ("echo \"\"", "(cmd echo \"\")");
  EQ("echo ''", "(cmd echo '')");
  EQ("echo a\\\nb", "(cmd echo ab)");
  EQ("echo \"a\\$b\\\"\\x\"", "(cmd echo \"a$b\"\\x\")");
  EQ("echo $'a\\tb\\x41\\u00e9\\101\\cA'", "(cmd echo 'a\\tbA\xc3\xa9" "A\x01')");
  EQ("echo $'a\\0b'x", "(cmd echo 'a'x)");
  EQ("echo $\"x $y\"", "(cmd echo \"x $y\")");
}

static void t_params(void **st) {
  (void)st;
  EQ("echo $a $1 $10 $@ $* $# $? $$ $! $- $0", "(cmd echo $a $1 $10 $@ $* $# $? $$ $! $- $0)");
  EQ("echo ${x} ${#x} ${!x} ${!a[@]} ${!pre*} ${a[i+1]} ${a[@]}",
     "(cmd echo ${x} ${#x} ${!x} ${!a[@]} ${!pre*} ${a[i+1]} ${a[@]})");
  EQ("echo ${x:-a b} ${x-w} ${x:=1} ${x?e} ${x:+alt}",
     "(cmd echo ${x :- a b} ${x - w} ${x := 1} ${x ? e} ${x :+ alt})");
  EQ("echo ${x#p} ${x##p} ${x%p} ${x%%p}",
     "(cmd echo ${x # p} ${x ## p} ${x % p} ${x %% p})");
  EQ("echo ${x/p/r} ${x//p/r} ${x/#p/r} ${x/%p/r} ${x/p}",
     "(cmd echo ${x / p / r} ${x // p / r} ${x /# p / r} ${x /% p / r} ${x / p})");
  EQ("echo ${x:1:2} ${a[@]:1} ${x: -1}",
     "(cmd echo ${x : 1 : 2} ${a[@] : 1} ${x :  -1})");
  EQ("echo ${x^^} ${x,,p} ${x^} ${x@Q}",
     "(cmd echo ${x ^^} ${x ,, p} ${x ^} ${x @Q})");
  EQ("echo ${x:-${y:-\"z\"}}", "(cmd echo ${x :- ${y :- \"z\"}})");
  EQ("echo ${x y}", "(cmd echo ${!bad:${x y}})");
  EQ("echo ${#} ${##} ${#-} ${!}", "(cmd echo ${#} ${##} ${#-} ${!})");
}

static void t_subst(void **st) {
  (void)st;
  EQ("echo $(echo a) `echo b`", "(cmd echo $((cmd echo a)) `(cmd echo b)`)");
  EQ("echo $((1 + 2)) $[3]", "(cmd echo $((1 + 2)) $((3)))");
  EQ("echo $( (echo hi) )", "(cmd echo $((sub (cmd echo hi))))");
  EQ("echo $((echo hi) )", "(cmd echo $((sub (cmd echo hi))))");
  EQ("echo $(case x in a) echo y;; esac)",
     "(cmd echo $((case x (a (cmd echo y) ;;))))");
  EQ("diff <(a) >(b)", "(cmd diff <((cmd a)) >((cmd b)))");
  EQ("echo ~ ~/x ~user/y a~", "(cmd echo ~ ~/x ~user/y a~)");
  EQ("x=~/a:~b", "(cmd x=~/a:~b)");
}

static void t_ops(void **st) {
  (void)st;
  EQ("a | b |& c", "(pipe (cmd a) | (cmd b) |& (cmd c))");
  EQ("a && b || c", "(or (and (cmd a) (cmd b)) (cmd c))");
  EQ("a; b & c", "(list (cmd a) (cmd b)& (cmd c))");
  EQ("! a | b", "(pipe ! (cmd a) | (cmd b))");
  EQ("a &&\n b", "(and (cmd a) (cmd b))");
  EQ("a >f 2>&1 <in >>ap 3<>rw &>both &>>ab >|c",
     "(cmd a >f 2>&1 <in >>ap 3<>rw &>both &>>ab >|c)");
  EQ("a {fd}>f <&- >&file", "(cmd a {fd}>f <&- &>file)");
  EQ("cat <<<word", "(cmd cat <<<word)");
}

static void t_heredoc(void **st) {
  (void)st;
  EQ("cat <<EOF\nhello $x\nEOF\n", "(cmd cat <<[hello $x\\n])");
  EQ("cat <<'EOF'\nhello $x\nEOF\n", "(cmd cat <<q[hello $x\\n])");
  EQ("cat <<-EOF\n\thello\n\tEOF\n", "(cmd cat <<-[hello\\n])");
  EQ("cat <<A <<B\na\nA\nb\nB\n", "(cmd cat <<[a\\n] <<[b\\n])");
  EQ("cat <<A; echo x\na\nA\necho y\n",
     "(list (cmd cat <<[a\\n]) (cmd echo x) (cmd echo y))");
}

static void t_compound(void **st) {
  (void)st;
  EQ("if a; then b; elif c; then d; else e; fi",
     "(if (cmd a) (cmd b) (if (cmd c) (cmd d) (cmd e)))");
  EQ("while a; do b; done", "(while (cmd a) (cmd b))");
  EQ("until a\ndo\nb\ndone", "(until (cmd a) (cmd b))");
  EQ("for i in a b; do echo $i; done", "(for i in a b ; (cmd echo $i))");
  EQ("for i; do x; done", "(for i (cmd x))");
  EQ("for i do x; done", "(for i (cmd x))");
  EQ("for ((i=0; i<3; i++)); do x; done", "(for((i=0; i<3; i++)) (cmd x))");
  EQ("for ((;;)) { x; }", "(for((;;)) (cmd x))");
  EQ("case $x in a|b) x;; (c) y;& *) z;;& esac",
     "(case $x (a|b (cmd x) ;;) (c (cmd y) ;&) (* (cmd z) ;;&))");
  EQ("case x in\n a) ;;\n esac", "(case x (a - ;;))");
  EQ("f() { echo; }", "(func f (group (cmd echo)))");
  EQ("function f { echo; }", "(func f (group (cmd echo)))");
  EQ("function f() ( echo ) >out", "(func f (sub (cmd echo) >out))");
  EQ("{ a; b; } >f", "(group (list (cmd a) (cmd b)) >f)");
  EQ("(a; b)", "(sub (list (cmd a) (cmd b)))");
  EQ("((x = 1 + 2))", "(arith x = 1 + 2)");
  EQ("[[ -f a && ( b == c* || ! d =~ ^(x|y)$ ) ]]",
     "(cond (&& (-f a) (|| (== b c*) (! (=~ d ^(x|y)$)))))");
  EQ("time -p a | b", "(time -p (pipe (cmd a) | (cmd b)))");
  EQ("declare -a x=(1 2) y=$z", "(cmd declare -a <assign>x=(1 2){x=(1 2)} <assign>y=$z{y=$z})");
}

static void t_errors(void **st) {
  (void)st;
  EQ("fi", "ERR:1:syntax error near unexpected token `fi'");
  EQ("echo )", "ERR:1:syntax error near unexpected token `)'");
  EQ("echo (", "ERR:1:syntax error near unexpected token `newline'");
  EQ("if", "ERR:2:syntax error: unexpected end of file");
  EQ("echo \"abc", "ERR:1:unexpected EOF while looking for matching `\"'");
  EQ("echo 'abc", "ERR:1:unexpected EOF while looking for matching `''");
  EQ("echo ${x", "ERR:1:unexpected EOF while looking for matching `}'");
  EQ("echo $(x", "ERR:2:unexpected EOF while looking for matching `)'");
  EQ("x=1\nfi", "ERR:2:syntax error near unexpected token `fi'");
}


/* ---- incremental parsing, aliases, incomplete input ---- */

static const char *alias_tab[][2] = {
    {"ll", "ls -l"},   {"sudo", "sudo "}, {"loop", "while true; do"},
    {"a1", "a2"},      {"a2", "a1"},      {"ls", "ls --color"},
    {"e", "echo"},     {"q", "echo 'x"}, {"E", "echo "},
    {"x", "y "},       {"y", "Z"},        {NULL, NULL}};

static const char *alias_fn(void *ud, const char *name) {
  (void)ud;
  for (int i = 0; alias_tab[i][0]; i++)
    if (!strcmp(alias_tab[i][0], name))
      return alias_tab[i][1];
  return NULL;
}

/* Every command of src, one per line of the result. */
static const char *N(const char *src, int aliases) {
  sh_parse_opts o = {0};
  if (aliases)
    o.alias = alias_fn;
  static char out[4096];
  out[0] = 0;
  sh_parser *p = sh_parser_new(&A, src, strlen(src), &o);
  for (;;) {
    sh_node *n;
    int r = sh_parse_next(p, &n);
    if (r == 0)
      break;
    buf_clear(&B);
    if (r < 0)
      buf_printf(&B, "ERR:%d:%s%s", sh_parse_error_line(p), sh_parse_error(p),
                 sh_parse_incomplete(p) ? " (incomplete)" : "");
    else
      buf_printf(&B, "%d:", n->line), sh_ast_dump(&B, n);
    if (out[0])
      strcat(out, "\n");
    strncat(out, buf_cstr(&B), sizeof out - strlen(out) - 1);
    if (r < 0)
      break;
  }
  return out;
}

static void t_next(void **st) {
  (void)st;
  assert_string_equal(N("a; b\n\n# c\nc &\nif x\nthen y\nfi\n", 0),
                      "1:(list (cmd a) (cmd b))\n4:(list (cmd c)&)\n5:(if "
                      "(cmd x) (cmd y))");
  assert_string_equal(N("cat <<E; x\nbody\nE\nnext", 0),
                      "1:(list (cmd cat <<[body\\n]) (cmd x))\n4:(cmd next)");
  assert_string_equal(N("echo a\nfi\necho b", 0),
                      "1:(cmd echo a)\nERR:2:syntax error near unexpected "
                      "token `fi'");
}

static void t_alias(void **st) {
  (void)st;
  assert_string_equal(N("ll /tmp", 1), "1:(cmd ls --color -l /tmp)");
  assert_string_equal(N("sudo ll", 1), "1:(cmd sudo ls --color -l)");
  assert_string_equal(N("echo ll", 1), "1:(cmd echo ll)");
  assert_string_equal(N("'ll'", 1), "1:(cmd 'll')");
  assert_string_equal(N("x=1 ll", 1), "1:(cmd x=1 ls --color -l)");
  assert_string_equal(N("loop w; done", 1), "1:(while (cmd true) (cmd w))");
  assert_string_equal(N("a1", 1), "1:(cmd a1)");
  assert_string_equal(N("ls", 1), "1:(cmd ls --color)");
  assert_string_equal(N("e a | e b && e c", 1),
                      "1:(and (pipe (cmd echo a) | (cmd echo b)) (cmd echo c))");
  assert_string_equal(N("q y'", 1), "1:(cmd echo 'x y')");
  assert_string_equal(N("ll", 0), "1:(cmd ll)");
  assert_string_equal(N("E x x x", 1), "1:(cmd echo Z Z Z)");
}

static void t_incomplete(void **st) {
  (void)st;
  static const char *inc[] = {"if a; then", "echo 'x", "echo \"x", "a |",
                              "a &&", "for i in a", "case x in", "f() {",
                              "echo $(a", "echo ${x", "(a", "while a; do b;",
                              "echo `a", "cat <<EOF\nab", "[[ a &&", NULL};
  for (int i = 0; inc[i]; i++) {
    sh_parser *p = sh_parser_new(&A, inc[i], strlen(inc[i]), NULL);
    sh_node *n;
    int r = sh_parse_next(p, &n);
    if (!strncmp(inc[i], "cat", 3)) {
      /* a here-document may end at the end of input, as in bash */
      assert_int_equal(r, 1);
      continue;
    }
    if (r != -1 || !sh_parse_incomplete(p))
      fail_msg("not incomplete: %s (%d %s)", inc[i], r, sh_parse_error(p));
  }
  static const char *bad[] = {"fi", "a ;;", "echo )", "a && && b", NULL};
  for (int i = 0; bad[i]; i++) {
    sh_parser *p = sh_parser_new(&A, bad[i], strlen(bad[i]), NULL);
    sh_node *n;
    assert_int_equal(sh_parse_next(p, &n), -1);
    assert_false(sh_parse_incomplete(p));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(t_simple, setup, teardown),
      cmocka_unit_test_setup_teardown(t_quotes, setup, teardown),
      cmocka_unit_test_setup_teardown(t_params, setup, teardown),
      cmocka_unit_test_setup_teardown(t_subst, setup, teardown),
      cmocka_unit_test_setup_teardown(t_ops, setup, teardown),
      cmocka_unit_test_setup_teardown(t_heredoc, setup, teardown),
      cmocka_unit_test_setup_teardown(t_compound, setup, teardown),
      cmocka_unit_test_setup_teardown(t_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(t_next, setup, teardown),
      cmocka_unit_test_setup_teardown(t_alias, setup, teardown),
      cmocka_unit_test_setup_teardown(t_incomplete, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
