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
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../shell/syntax/ast_dump.c"
#include "../../shell/syntax/lex.c"
#include "../../shell/syntax/lex_token.c"
#include "../../shell/syntax/parse.c"
#include "../../shell/syntax/parse_cond.c"
#include "../../shell/syntax/print.c"

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
  EQ("echo $'a\\tb\\x41\\u00e9\\101\\cA'", "(cmd echo 'a\\tbA\xc3\xa9"
                                           "A\x01')");
  EQ("echo $'a\\0b'x", "(cmd echo 'a'x)");
  EQ("echo $\"x $y\"", "(cmd echo \"x $y\")");
}

static void t_params(void **st) {
  (void)st;
  EQ("echo $a $1 $10 $@ $* $# $? $$ $! $- $0",
     "(cmd echo $a $1 $10 $@ $* $# $? $$ $! $- $0)");
  EQ("echo ${x} ${#x} ${!x} ${!a[@]} ${!pre*} ${a[i+1]} ${a[@]}",
     "(cmd echo ${x} ${#x} ${!x} ${!a[@]} ${!pre*} ${a[i+1]} ${a[@]})");
  EQ("echo ${x:-a b} ${x-w} ${x:=1} ${x?e} ${x:+alt}",
     "(cmd echo ${x :- a b} ${x - w} ${x := 1} ${x ? e} ${x :+ alt})");
  EQ("echo ${x#p} ${x##p} ${x%p} ${x%%p}",
     "(cmd echo ${x # p} ${x ## p} ${x % p} ${x %% p})");
  EQ("echo ${x/p/r} ${x//p/r} ${x/#p/r} ${x/%p/r} ${x/p}",
     "(cmd echo ${x / p / r} ${x // p / r} ${x /# p / r} ${x /% p / r} ${x / "
     "p})");
  EQ("echo ${x:1:2} ${a[@]:1} ${x: -1}",
     "(cmd echo ${x : 1 : 2} ${a[@] : 1} ${x :  -1})");
  EQ("echo ${x^^} ${x,,p} ${x^} ${x@Q}",
     "(cmd echo ${x ^^} ${x ,, p} ${x ^} ${x @Q})");
  EQ("echo ${x:-${y:-\"z\"}}", "(cmd echo ${x :- ${y :- \"z\"}})");
  EQ("echo ${x y}", "(cmd echo ${!bad:${x y}})");
  EQ("echo ${#} ${##} ${#-} ${!}", "(cmd echo ${#} ${##} ${#-} ${!})");
  EQ("echo ${###} ${#-x} ${#?}", "(cmd echo ${# ##} ${# - x} ${#?})");
  EQ("echo ${!a[@]:1} ${!a[*]}", "(cmd echo ${!a[@] : 1} ${!a[*]})");
  EQ("echo ${x////c} ${x///} ${x/#/y} ${x:}",
     "(cmd echo ${x // / / c} ${x // /} ${x /# / y} ${!bad:${x:}})");
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
  EQ("declare -a x=(1 2) y=$z",
     "(cmd declare -a <assign>x=(1 2){x=(1 2)} <assign>y=$z{y=$z})");
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
    {"ll", "ls -l"}, {"sudo", "sudo "}, {"loop", "while true; do"},
    {"a1", "a2"},    {"a2", "a1"},      {"ls", "ls --color"},
    {"e", "echo"},   {"q", "echo 'x"},  {"E", "echo "},
    {"x", "y "},     {"y", "Z"},        {"F1", "for "},
    {"F2", "F1 "},   {"IN", "in "},     {"i2", "i "},
    {NULL, NULL}};

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
  assert_string_equal(
      N("e a | e b && e c", 1),
      "1:(and (pipe (cmd echo a) | (cmd echo b)) (cmd echo c))");
  assert_string_equal(N("q y'", 1), "1:(cmd echo 'x y')");
  assert_string_equal(N("ll", 0), "1:(cmd ll)");
  assert_string_equal(N("E x x x", 1), "1:(cmd echo Z Z Z)");
  /* the word after a blank-ending alias is checked wherever it is */
  assert_string_equal(N("F2 i2 IN a; do :; done", 1),
                      "1:(for i in a ; (cmd :))");
}

static void t_interactive(void **st) {
  (void)st;
  sh_parse_opts o = {0};
  o.interactive = 1;
  const char *inc[] = {"cat <<EOF\nab", "echo a\\", "cat <<E; echo $(\n"};
  for (int i = 0; i < 3; i++) {
    sh_parser *p = sh_parser_new(&A, inc[i], strlen(inc[i]), &o);
    sh_node *n;
    assert_int_equal(sh_parse_next(p, &n), -1);
    assert_true(sh_parse_incomplete(p));
  }
  const char *ok = "cat <<EOF\nab\nEOF\necho a\\\nb";
  sh_parser *p = sh_parser_new(&A, ok, strlen(ok), &o);
  sh_node *n;
  assert_int_equal(sh_parse_next(p, &n), 1);
  assert_int_equal(sh_parse_next(p, &n), 1);
  assert_int_equal(sh_parse_next(p, &n), 0);
}

static int eg_on(void *ud) {
  (void)ud;
  return 1;
}

static const char *PX(const char *src) {
  sh_parse_opts o = {0};
  o.extglob = eg_on;
  sh_node *n;
  const char *err;
  int line;
  buf_clear(&B);
  if (sh_parse_all(&A, src, strlen(src), &o, &n, &err, &line) < 0)
    buf_printf(&B, "ERR:%d:%s", line, err);
  else
    sh_ast_dump(&B, n->u.list.items[0].node);
  return buf_cstr(&B);
}

static void t_extglob(void **st) {
  (void)st;
  assert_string_equal(PX("echo @(a|b) x*(y) ${v:-+(c)} ${v#?(d)}"),
                      "(cmd echo <eg:@(a|b)> x<eg:*(y)> ${v :- <eg:+(c)>} "
                      "${v # <eg:?(d)>})");
  assert_string_equal(PX("echo \"${l##*([}\""), "(cmd echo \"${l ## *([}\")");
  assert_string_equal(PX("[[ !($x) ]]"), "(cond <eg:!($x)>)");
  assert_string_equal(P("[[ !($x) ]]"), "(cond (! $x))");
  assert_string_equal(P("[[ a == @(b|c) ]]"), "(cond (== a <eg:@(b|c)>))");
  assert_string_equal(P("echo @(a)"), "ERR:1:syntax error near unexpected "
                                      "token `('");
}

static void t_cond_error(void **st) {
  (void)st;
  const char *srcs[] = {"[[ a b ]]", "[[ ) ]]", "echo )", "[[ a == b"};
  int want[] = {1, 1, 0, 1};
  for (int i = 0; i < 4; i++) {
    sh_parser *p = sh_parser_new(&A, srcs[i], strlen(srcs[i]), NULL);
    sh_node *n;
    assert_int_equal(sh_parse_next(p, &n), -1);
    assert_int_equal(sh_parse_error_cond(p), want[i]);
  }
}

static void t_incomplete(void **st) {
  (void)st;
  static const char *inc[] = {
      "if a; then", "echo 'x",       "echo \"x",  "a |",
      "a &&",       "for i in a",    "case x in", "f() {",
      "echo $(a",   "echo ${x",      "(a",        "while a; do b;",
      "echo `a",    "cat <<EOF\nab", "[[ a &&",   NULL};
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

/* ---- printing: expected texts are what bash 5.2 prints for declare -f ---- */

static const char *const print_cases[][2] = {
    {"f() { a; b & c && d || e | f |& g; ! h; }",
     "f () \n"
     "{ \n"
     "    a;\n"
     "    b & c && d || e | f 2>&1 | g;\n"
     "    ! h\n"
     "}"},
    {"f() { x=1 y=2 cmd >o 2>&1 <i >>a 3<>rw <&0 >&- &>both &>>ab >|c <>d 2<&- "
     "4>&5- {v}>f; }",
     "f () \n"
     "{ \n"
     "    x=1 y=2 cmd > o 2>&1 < i >> a 3<> rw 0<&0 1>&- &> both &>> ab >| c "
     "0<> d 2>&- 4>&5- {v}> f\n"
     "}"},
    {"f() { if a; then b; elif c; then d; else e; fi; }", "f () \n"
                                                          "{ \n"
                                                          "    if a; then\n"
                                                          "        b;\n"
                                                          "    else\n"
                                                          "        if c; then\n"
                                                          "            d;\n"
                                                          "        else\n"
                                                          "            e;\n"
                                                          "        fi;\n"
                                                          "    fi\n"
                                                          "}"},
    {"f() { while a; do b; done; until a; do :; done; }", "f () \n"
                                                          "{ \n"
                                                          "    while a; do\n"
                                                          "        b;\n"
                                                          "    done;\n"
                                                          "    until a; do\n"
                                                          "        :;\n"
                                                          "    done\n"
                                                          "}"},
    {"f() { for i in a b; do x; done; for i; do y; done; for ((i=0;i<3;i++)); "
     "do z; done; for (( ; ; )); do w; done; }",
     "f () \n"
     "{ \n"
     "    for i in a b;\n"
     "    do\n"
     "        x;\n"
     "    done;\n"
     "    for i in \"$@\";\n"
     "    do\n"
     "        y;\n"
     "    done;\n"
     "    for ((i=0; i<3; i++))\n"
     "    do\n"
     "        z;\n"
     "    done;\n"
     "    for ((1; 1; 1))\n"
     "    do\n"
     "        w;\n"
     "    done\n"
     "}"},
    {"f() { select s in a; do q; done; }", "f () \n"
                                           "{ \n"
                                           "    select s in a;\n"
                                           "    do\n"
                                           "        q;\n"
                                           "    done\n"
                                           "}"},
    {"f() { case $x in a|b) x;; (c) y;& *) z;;& esac; case y in a) ;; esac; }",
     "f () \n"
     "{ \n"
     "    case $x in \n"
     "        a | b)\n"
     "            x\n"
     "        ;;\n"
     "        c)\n"
     "            y\n"
     "        ;&\n"
     "        *)\n"
     "            z\n"
     "        ;;&\n"
     "    esac;\n"
     "    case y in \n"
     "        a)\n"
     "\n"
     "        ;;\n"
     "    esac\n"
     "}"},
    {"f() { (sub; shell); { grp; } > out; ((x=1+2)); (( y = 2 )); }",
     "f () \n"
     "{ \n"
     "    ( sub;\n"
     "    shell );\n"
     "    { \n"
     "        grp\n"
     "    } > out;\n"
     "    ((x=1+2));\n"
     "    (( y = 2 ))\n"
     "}"},
    {"f() { [[ -f a && ( b == c || ! d =~ ^a(b)$ ) ]]; [[ $x ]]; [[ ! (a) ]]; "
     "[[ a < b ]]; }",
     "f () \n"
     "{ \n"
     "    [[ -f a && ( b == c || ! d =~ ^a(b)$ ) ]];\n"
     "    [[ -n $x ]];\n"
     "    [[ ! ( -n a ) ]];\n"
     "    [[ a < b ]]\n"
     "}"},
    {"f() { time -p a | b; time c; ! a && b; }", "f () \n"
                                                 "{ \n"
                                                 "    time -p a | b;\n"
                                                 "    time c;\n"
                                                 "    ! a && b\n"
                                                 "}"},
    {"f() { echo \"q $x\" 's' $'\\t' ${x:-y} $(cmd) `bt` $((1+2)) $\"loc\" a\\ "
     "b; }",
     "f () \n"
     "{ \n"
     "    echo \"q $x\" 's' '\t' ${x:-y} $(cmd) `bt` $((1+2)) \"loc\" a\\ b\n"
     "}"},
    {"f() { cat <<EOF\n"
     "body $x\n"
     "EOF\n"
     "cat <<-\"Q\"\n"
     "\tlit\n"
     "\tQ\n"
     "echo after; }",
     "f () \n"
     "{ \n"
     "    cat <<EOF\n"
     "body $x\n"
     "EOF\n"
     "\n"
     "    cat <<-'Q'\n"
     "lit\n"
     "Q\n"
     "\n"
     "    echo after\n"
     "}"},
    {"f() { cat <<A | grep x; echo y\n"
     "a\n"
     "A\n"
     "}",
     "f () \n"
     "{ \n"
     "    cat <<A |\n"
     "a\n"
     "A\n"
     "  grep x\n"
     "    echo y\n"
     "}"},
    {"f() { cat <<A && echo y\n"
     "a\n"
     "A\n"
     "}",
     "f () \n"
     "{ \n"
     "    cat <<A && \n"
     "a\n"
     "A\n"
     " echo y\n"
     "}"},
    {"f() { cat <<A\n"
     "x\n"
     "A\n"
     "echo 1\n"
     "echo 2\n"
     "cat <<B\n"
     "y\n"
     "B\n"
     "echo 3\n"
     "echo 4; }",
     "f () \n"
     "{ \n"
     "    cat <<A\n"
     "x\n"
     "A\n"
     "\n"
     "    echo 1\n"
     "    echo 2;\n"
     "    cat <<B\n"
     "y\n"
     "B\n"
     "\n"
     "    echo 3;\n"
     "    echo 4\n"
     "}"},
    {"f() { x=$(a;b); y=$( a   b ); z=$(if x; then y; fi); w=$(\n"
     "a\n"
     "b\n"
     "); v=\"$(case x in a) y;; esac)\"; }",
     "f () \n"
     "{ \n"
     "    x=$(a; b);\n"
     "    y=$(a b);\n"
     "    z=$(if x; then\n"
     "    y;\n"
     "fi);\n"
     "    w=$(a\n"
     "b);\n"
     "    v=\"$(case x in \n"
     "    a)\n"
     "        y\n"
     "    ;;\n"
     "esac)\"\n"
     "}"},
    {"f() { a=(1 2 [k]=v); declare -a b=( x  y ); local -A m=([a]=1); export "
     "E=1; }",
     "f () \n"
     "{ \n"
     "    a=(1 2 [k]=v);\n"
     "    declare -a b=(x y);\n"
     "    local -A m=([a]=1);\n"
     "    export E=1\n"
     "}"},
    {"f() { g() ( x ); function h { y; } > o; }", "f () \n"
                                                  "{ \n"
                                                  "    function g () \n"
                                                  "    { \n"
                                                  "        ( x )\n"
                                                  "    };\n"
                                                  "    function h () \n"
                                                  "    { \n"
                                                  "        y\n"
                                                  "    } > o\n"
                                                  "}"},
    {"function f { echo; } > out 2>&1", "f () \n"
                                        "{ \n"
                                        "    echo\n"
                                        "} > out 2>&1"},
    {"f() ( echo sub )", "f () \n"
                         "{ \n"
                         "    ( echo sub )\n"
                         "}"},
    {"f() if a; then b; fi", "f () \n"
                             "{ \n"
                             "    if a; then\n"
                             "        b;\n"
                             "    fi\n"
                             "}"},
    {"f() { a & }", "f () \n"
                    "{ \n"
                    "    a &\n"
                    "}"},
    {"f() { { a; } & (a; b) & }", "f () \n"
                                  "{ \n"
                                  "    { \n"
                                  "        a\n"
                                  "    } & ( a;\n"
                                  "    b ) &\n"
                                  "}"},
    {"f() { if a; then b & fi; while a; do b & done; }", "f () \n"
                                                         "{ \n"
                                                         "    if a; then\n"
                                                         "        b &\n"
                                                         "    fi;\n"
                                                         "    while a; do\n"
                                                         "        b &\n"
                                                         "    done\n"
                                                         "}"},
    {"f() { echo $( (a) ) \"$(echo \"n $(x)\")\" <(a  ;  b) >(c); }",
     "f () \n"
     "{ \n"
     "    echo $( ( a )) \"$(echo \"n $(x)\")\" <(a; b) >(c)\n"
     "}"},
    {"f() { echo ${x#*} ${x%%\"a\"} ${x/a/b} ${!x} ${#x} ${a[@]:1:2} ~/x ~u; }",
     "f () \n"
     "{ \n"
     "    echo ${x#*} ${x%%\"a\"} ${x/a/b} ${!x} ${#x} ${a[@]:1:2} ~/x ~u\n"
     "}"},
    {"f() { a |\n"
     "b; c &&\n"
     "d; }",
     "f () \n"
     "{ \n"
     "    a | b;\n"
     "    c && d\n"
     "}"},
    {"f() { cat <<< \"$x\" <<<word; read -r l < f; }",
     "f () \n"
     "{ \n"
     "    cat <<< \"$x\" <<< word;\n"
     "    read -r l < f\n"
     "}"},
    {"f() { for x in 1 2; { echo $x; }; }", "f () \n"
                                            "{ \n"
                                            "    for x in 1 2;\n"
                                            "    do\n"
                                            "        echo $x;\n"
                                            "    done\n"
                                            "}"},
    {"f() { echo a\\\n"
     "b; }",
     "f () \n"
     "{ \n"
     "    echo ab\n"
     "}"},
    {"f() { while read l; do echo \"$l\"; done < <(cmd) 3>&1; }",
     "f () \n"
     "{ \n"
     "    while read l; do\n"
     "        echo \"$l\";\n"
     "    done < <(cmd) 3>&1\n"
     "}"},
    {"f() { [[ x == @(a|b) ]] && [[ y != !(c) ]]; }",
     "f () \n"
     "{ \n"
     "    [[ x == @(a|b) ]] && [[ y != !(c) ]]\n"
     "}"},
    {"f() { local x; x=${1:?need arg}; shift 2 || return; }",
     "f () \n"
     "{ \n"
     "    local x;\n"
     "    x=${1:?need arg};\n"
     "    shift 2 || return\n"
     "}"},
    {"f() { echo $(cat <<E\n"
     "in\n"
     "E\n"
     "); }",
     "f () \n"
     "{ \n"
     "    echo $(cat <<E\n"
     "in\n"
     "E\n"
     ")\n"
     "}"},
    {"f() { ( cat <<E\n"
     "in\n"
     "E\n"
     "); }",
     "f () \n"
     "{ \n"
     "    ( cat <<E\n"
     "in\n"
     "E\n"
     " )\n"
     "}"},
    {"f() { echo \"${x:-$'\\n'}\" \"${y%$'b'*}\"; }", "f () \n"
                                                      "{ \n"
                                                      "    echo \"${x:-\n"
                                                      "}\" \"${y%'b'*}\"\n"
                                                      "}"},
    {"f() { if cat <<E; then\n"
     "x\n"
     "E\n"
     "echo ok; fi; }",
     "f () \n"
     "{ \n"
     "    if cat <<E\n"
     "x\n"
     "E\n"
     " then\n"
     "        echo ok;\n"
     "    fi\n"
     "}"},
    {"f() { coproc_like 2>&1 | tee >(cat) | cat; }",
     "f () \n"
     "{ \n"
     "    coproc_like 2>&1 | tee >(cat) | cat\n"
     "}"},
    {"f() { trap 'echo x' EXIT; eval \"a=1\"; }", "f () \n"
                                                  "{ \n"
                                                  "    trap 'echo x' EXIT;\n"
                                                  "    eval \"a=1\"\n"
                                                  "}"},
};

static void t_print(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof print_cases / sizeof *print_cases; i++) {
    const char *src = print_cases[i][0];
    sh_parser *p = sh_parser_new(&A, src, strlen(src), NULL);
    sh_node *n = NULL;
    assert_int_equal(sh_parse_next(p, &n), 1);
    if (n->kind == N_LIST)
      n = n->u.list.items[0].node;
    assert_int_equal(n->kind, N_FUNCDEF);
    buf_clear(&B);
    assert_int_equal(sh_print_node(&B, n, 0), 0);
    if (strcmp(buf_cstr(&B), print_cases[i][1]))
      fail_msg("case %zu:\n%s\n--- got ---\n%s\n--- want ---\n%s", i, src,
               buf_cstr(&B), print_cases[i][1]);
  }
}

/* Messages and lines as bash 5.2 reports them for `bash -c SRC`. */
static const char *const err_cases[][2] = {
    {"fi", "ERR:1:syntax error near unexpected token `fi'"},
    {"echo )", "ERR:1:syntax error near unexpected token `)'"},
    {"echo (", "ERR:1:syntax error near unexpected token `newline'"},
    {"if", "ERR:2:syntax error: unexpected end of file"},
    {"if true; then", "ERR:2:syntax error: unexpected end of file"},
    {"while true; do echo; done done",
     "ERR:1:syntax error near unexpected token `done'"},
    {"for", "ERR:1:syntax error near unexpected token `newline'"},
    {"for i in", "ERR:2:syntax error: unexpected end of file"},
    {"case", "ERR:1:syntax error near unexpected token `newline'"},
    {"case x", "ERR:2:syntax error: unexpected end of file"},
    {"case x in a", "ERR:1:syntax error near unexpected token `newline'"},
    {"case x in a) echo", "ERR:2:syntax error: unexpected end of file"},
    {"case x in a) echo;; b echo;; esac",
     "ERR:1:syntax error near unexpected token `echo'"},
    {"{ echo a }", "ERR:2:syntax error: unexpected end of file"},
    {"( )", "ERR:1:syntax error near unexpected token `)'"},
    {"{ }", "ERR:1:syntax error near unexpected token `}'"},
    {"a && || b", "ERR:1:syntax error near unexpected token `||'"},
    {"a ||", "ERR:2:syntax error: unexpected end of file"},
    {"| a", "ERR:1:syntax error near unexpected token `|'"},
    {"a | | b", "ERR:1:syntax error near unexpected token `|'"},
    {";", "ERR:1:syntax error near unexpected token `;'"},
    {"a ;; b", "ERR:1:syntax error near unexpected token `;;'"},
    {"echo a & & b", "ERR:1:syntax error near unexpected token `&'"},
    {"x=(", "ERR:1:unexpected EOF while looking for matching `)'"},
    {"echo ${", "ERR:1:unexpected EOF while looking for matching `}'"},
    {"echo ${x", "ERR:1:unexpected EOF while looking for matching `}'"},
    {"echo $((", "ERR:1:unexpected EOF while looking for matching `)'"},
    {"echo $((1+2)", "ERR:1:unexpected EOF while looking for matching `)'"},
    {"echo \"$(", "ERR:2:unexpected EOF while looking for matching `)'"},
    {"echo `", "ERR:1:unexpected EOF while looking for matching ``'"},
    {"echo '", "ERR:1:unexpected EOF while looking for matching `''"},
    {"echo \"", "ERR:1:unexpected EOF while looking for matching `\"'"},
    {"f() {", "ERR:2:syntax error: unexpected end of file"},
    {"f()", "ERR:2:syntax error: unexpected end of file"},
    {"function", "ERR:1:syntax error near unexpected token `newline'"},
    {"function f", "ERR:2:syntax error: unexpected end of file"},
    {"[[", "ERR:2:unexpected token `EOF' in conditional command"},
    {"[[ a",
     "ERR:1:unexpected token `newline', conditional binary operator expected"},
    {"[[ a ==",
     "ERR:1:unexpected argument `newline' to conditional binary operator"},
    {"[[ a == b", "ERR:1:unexpected EOF while looking for `]]'"},
    {"[[ -f ]]",
     "ERR:1:unexpected argument `]]' to conditional unary operator"},
    {"[[ a b ]]", "ERR:1:conditional binary operator expected"},
    {"[[ ( a ]]", "ERR:1:unexpected token `]]', expected `)'"},
    {"((", "ERR:1:unexpected EOF while looking for matching `)'"},
    {"(( 1", "ERR:1:unexpected EOF while looking for matching `)'"},
    {"cat <", "ERR:1:syntax error near unexpected token `newline'"},
    {"cat < <", "ERR:1:syntax error near unexpected token `<'"},
    {"cat >&", "ERR:1:syntax error near unexpected token `newline'"},
    {"echo a > > b", "ERR:1:syntax error near unexpected token `>'"},
    {"then", "ERR:1:syntax error near unexpected token `then'"},
    {"do", "ERR:1:syntax error near unexpected token `do'"},
    {"done", "ERR:1:syntax error near unexpected token `done'"},
    {"esac", "ERR:1:syntax error near unexpected token `esac'"},
    {"}", "ERR:1:syntax error near unexpected token `}'"},
    {"in", "ERR:1:syntax error near unexpected token `in'"},
    {"else echo", "ERR:1:syntax error near unexpected token `else'"},
    {"if a; then b; else", "ERR:2:syntax error: unexpected end of file"},
    {"if a; then b; elif", "ERR:2:syntax error: unexpected end of file"},
    {"echo a\necho b\nfi", "ERR:3:syntax error near unexpected token `fi'"},
    {"echo \"a\nb", "ERR:1:unexpected EOF while looking for matching `\"'"},
    {"if a\nthen\nb", "ERR:4:syntax error: unexpected end of file"},
    {"time |", "ERR:1:syntax error near unexpected token `|'"},
    {"! |", "ERR:1:syntax error near unexpected token `|'"},
    {"a &&& b", "ERR:1:syntax error near unexpected token `&'"},
    {"echo <(", "ERR:2:unexpected EOF while looking for matching `)'"},
    {"echo $[1", "ERR:1:unexpected EOF while looking for matching `]'"},
    {"a=(1 2", "ERR:1:unexpected EOF while looking for matching `)'"},
    {"a=(1 ; 2)", "ERR:1:syntax error near unexpected token `;'"},
    {"select", "ERR:1:syntax error near unexpected token `newline'"},
    {"until", "ERR:2:syntax error: unexpected end of file"},
    {"echo ${x:-", "ERR:1:unexpected EOF while looking for matching `}'"},
    {"echo ${x/a", "ERR:1:unexpected EOF while looking for matching `}'"},
    {"echo ${x[", "ERR:1:unexpected EOF while looking for matching `}'"},
    {"f() echo", "ERR:1:syntax error near unexpected token `echo'"},
    {"f() { :; } }", "ERR:1:syntax error near unexpected token `}'"},
};

static void t_bash_errors(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof err_cases / sizeof *err_cases; i++)
    if (strcmp(P(err_cases[i][0]), err_cases[i][1]))
      fail_msg("%s: got %s want %s", err_cases[i][0], P(err_cases[i][0]),
               err_cases[i][1]);
}

/* ---- structure details the interpreter relies on ---- */

static sh_node *one(const char *src) {
  sh_node *n;
  const char *err;
  int line;
  assert_int_equal(sh_parse_all(&A, src, strlen(src), NULL, &n, &err, &line),
                   0);
  assert_int_equal(n->kind, N_LIST);
  assert_true(n->u.list.nitems >= 1);
  return n->u.list.items[0].node;
}

static void t_structure(void **st) {
  (void)st;
  sh_node *n = one("echo a\"b $c\"'d'\\e \"\" ''");
  assert_int_equal(n->kind, N_SIMPLE);
  assert_int_equal(n->u.simple.nwords, 4);
  sh_word *w = n->u.simple.words[1];
  assert_true(w->flags & SW_HAS_QUOTES);
  assert_int_equal(w->nparts, 3);
  assert_int_equal(w->parts[0].kind, WP_LIT);
  assert_false(w->parts[0].quoted);
  assert_int_equal(w->parts[1].kind, WP_DQUOTE);
  assert_int_equal(w->parts[1].u.dq.nparts, 2);
  assert_int_equal(w->parts[1].u.dq.parts[0].kind, WP_LIT);
  assert_true(w->parts[1].u.dq.parts[0].quoted);
  assert_int_equal(w->parts[1].u.dq.parts[1].kind, WP_PARAM);
  assert_string_equal(w->parts[1].u.dq.parts[1].u.param.name, "c");
  assert_int_equal(w->parts[2].kind, WP_LIT);
  assert_true(w->parts[2].quoted);
  assert_string_equal(w->parts[2].u.lit.text, "de");
  assert_int_equal(w->src_len, strlen("a\"b $c\"'d'\\e"));
  /* "" and '' are words with quotes and no text */
  assert_true(n->u.simple.words[2]->flags & SW_HAS_QUOTES);
  assert_true(n->u.simple.words[3]->flags & SW_HAS_QUOTES);
  assert_int_equal(n->u.simple.words[0]->flags, 0);

  n = one("cat 2>>log <&3 {fd}<in");
  sh_redir *r = n->redirs;
  assert_int_equal(r->op, R_APPEND);
  assert_int_equal(r->fd, 2);
  r = r->next;
  assert_int_equal(r->op, R_DUP_IN);
  assert_int_equal(r->fd, -1);
  assert_string_equal(sh_word_plain(r->target), "3");
  r = r->next;
  assert_int_equal(r->op, R_IN);
  assert_string_equal(r->fd_var, "fd");
  assert_null(r->next);

  n = one("cat <<-'E' <<F\n\ta $x\n\tE\nb $y\nF\n");
  r = n->redirs;
  assert_true(r->heredoc_quoted);
  assert_true(r->strip_tabs);
  assert_int_equal(r->heredoc->nparts, 1);
  assert_string_equal(r->heredoc->parts[0].u.lit.text, "a $x\n");
  r = r->next;
  assert_false(r->heredoc_quoted);
  assert_int_equal(r->heredoc->nparts, 3);
  assert_int_equal(r->heredoc->parts[1].kind, WP_PARAM);

  /* line numbers, function source */
  sh_node *l;
  const char *err;
  int line;
  const char *src = "a\n\nf() {\n  b\n}\nc";
  assert_int_equal(sh_parse_all(&A, src, strlen(src), NULL, &l, &err, &line),
                   0);
  assert_int_equal(l->u.list.nitems, 3);
  assert_int_equal(l->u.list.items[0].node->line, 1);
  sh_node *f = l->u.list.items[1].node;
  assert_int_equal(f->line, 3);
  assert_int_equal(f->kind, N_FUNCDEF);
  assert_string_equal(f->u.func.name, "f");
  assert_int_equal(f->u.func.src_len, strlen("f() {\n  b\n}"));
  assert_memory_equal(f->u.func.src, "f() {\n  b\n}", f->u.func.src_len);
  assert_int_equal(l->u.list.items[2].node->line, 6);

  /* the body of $(...) keeps its source */
  n = one("x=$( echo  hi )");
  sh_part *pt = &n->u.simple.assigns->value->parts[0];
  assert_int_equal(pt->kind, WP_CMDSUB);
  assert_int_equal(pt->u.cmdsub.src_len, strlen(" echo  hi "));
  assert_memory_equal(pt->u.cmdsub.src, " echo  hi ", pt->u.cmdsub.src_len);

  /* backticks: \$ \\ \` are unescaped before parsing */
  n = one("echo `echo \\$x \\`echo y\\``");
  pt = &n->u.simple.words[1]->parts[0];
  assert_true(pt->u.cmdsub.backtick);
  buf_clear(&B);
  sh_ast_dump(&B, pt->u.cmdsub.body);
  assert_string_equal(buf_cstr(&B), "(cmd echo $x `(cmd echo y)`)");

  /* assignments */
  n = one("a[i+1]+=x b=(1 [k]=v)");
  sh_assign *as = n->u.simple.assigns;
  assert_string_equal(as->name, "a");
  assert_true(as->append);
  assert_non_null(as->index);
  assert_false(as->is_array);
  as = as->next;
  assert_true(as->is_array);
  assert_int_equal(as->narray, 2);
  assert_null(as->array[0].key);
  assert_non_null(as->array[1].key);
  assert_null(as->value);
  assert_int_equal(n->u.simple.nwords, 0);

  n = one("local x=~/a y z=(1)");
  assert_int_equal(n->u.simple.nwords, 4);
  w = n->u.simple.words[1];
  assert_true(w->flags & SW_ASSIGN_LIKE);
  assert_string_equal(w->assign->name, "x");
  assert_int_equal(w->assign->value->parts[0].kind, WP_TILDE);
  assert_false(n->u.simple.words[2]->flags & SW_ASSIGN_LIKE);
  assert_true(n->u.simple.words[3]->assign->is_array);

  /* [[ ]]: == takes a pattern, =~ a regex word with its parens */
  n = one("[[ $a == *.c && $b =~ ^(x|y)+$ ]]");
  sh_cond *c = n->u.cond.expr;
  assert_int_equal(c->kind, C_AND);
  assert_int_equal(c->l->kind, C_BINARY);
  assert_string_equal(c->l->op, "==");
  assert_string_equal(c->r->op, "=~");
  assert_int_equal(c->r->b->src_len, strlen("^(x|y)+$"));

  /* (( )) and $(( )) keep the expression as a word */
  n = one("(( x = $y + 1 ))");
  assert_int_equal(n->kind, N_ARITH);
  assert_int_equal(n->u.arith.expr->nparts, 3);
  assert_int_equal(n->u.arith.expr->parts[1].kind, WP_PARAM);
}

static void t_dq_word(void **st) {
  (void)st;
  const char *s = "a \"$x\" \\$y ${z:-w} $(echo) `b`";
  sh_word *w = sh_parse_dq_word(&A, s, strlen(s));
  assert_non_null(w);
  buf_clear(&B);
  sh_ast_dump_word(&B, w);
  assert_string_equal(buf_cstr(&B),
                      "'a \"'$x'\" $y '${z :- w}' '$((cmd echo))' '`(cmd b)`");
  assert_null(sh_parse_dq_word(&A, "$(", 2));
}

static void t_oom(void **st) {
  (void)st;
  /* more than the allocator's hard cap: the parser reports it cleanly */
  mem *m = mem_new(NULL, NULL, 1);
  arena a;
  arena_init(&a, m);
  size_t n = 400000;
  char *src = malloc(n * 6 + 1);
  for (size_t i = 0; i < n; i++)
    memcpy(src + i * 6, "a$b \"", 5), src[i * 6 + 4] = ' ',
                                                  src[i * 6 + 5] = 'x';
  src[n * 6] = 0;
  sh_node *out;
  const char *err = NULL;
  int line;
  assert_int_equal(sh_parse_all(&a, src, n * 6, NULL, &out, &err, &line), -1);
  assert_string_equal(err, "out of memory");
  free(src);
  arena_destroy(&a);
  mem_unref(m);
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
      cmocka_unit_test_setup_teardown(t_cond_error, setup, teardown),
      cmocka_unit_test_setup_teardown(t_extglob, setup, teardown),
      cmocka_unit_test_setup_teardown(t_interactive, setup, teardown),
      cmocka_unit_test_setup_teardown(t_print, setup, teardown),
      cmocka_unit_test_setup_teardown(t_bash_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(t_structure, setup, teardown),
      cmocka_unit_test_setup_teardown(t_dq_word, setup, teardown),
      cmocka_unit_test_setup_teardown(t_oom, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
