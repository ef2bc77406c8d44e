// layers: core vfs shell builtins api
/* test_exec.c - the interpreter end to end through the public API:
 * quoting, expansions, control flow, functions, pipelines, redirections. */
#include "api_harness.h"

static void test_simple(void **state) {
  (void)state;
  check("echo hi", "hi\n", 0);
  check("echo a b; echo c", "a b\nc\n", 0);
  check("false", "", 1);
  check("nosuchcmd", "", 127);
  check("echo a\necho b\n", "a\nb\n", 0);
  check("echo one\nif\necho two", "one\n", 2);
}

static void test_quoting(void **state) {
  (void)state;
  check("echo 'a  b' \"c  d\" e\\ f", "a  b c  d e f\n", 0);
  check("x='a b'; printf '[%s]' $x \"$x\"; echo", "[a][b][a b]\n", 0);
  check("echo $'a\\tb'", "a\tb\n", 0);
  check("x=; printf '[%s]' \"$x\" $x ''; echo", "[][]\n", 0);
  check("IFS=:; x=a::b; printf '[%s]' $x; echo", "[a][][b]\n", 0);
  check("set -- 'a b' c; printf '[%s]' \"$@\" \"$*\"; echo",
        "[a b][c][a b c]\n", 0);
}

static void test_expansions(void **state) {
  (void)state;
  check("x=hello; echo ${#x} ${x:1:3} ${x^^} ${x/l/L} ${x//l/L}",
        "5 ell HELLO heLlo heLLo\n", 0);
  check("f=a/b/c.txt; echo ${f##*/} ${f%.*} ${f#*/} ${f%%/*}",
        "c.txt a/b/c b/c.txt a\n", 0);
  check("echo ${u:-def} ${u-x} ${u:=set}; echo $u", "def x set\nset\n", 0);
  check("echo $((1+2*3)) $((10/3)) $((2**10))", "7 3 1024\n", 0);
  check("echo $(echo inner) `echo back`", "inner back\n", 0);
  check("x=$(printf 'a\\n\\n\\n'); echo \"[$x]\"", "[a]\n", 0);
  check("echo {a,b}{1,2} {1..3}", "a1 a2 b1 b2 1 2 3\n", 0);
  check("echo ~ ~/x", "/home/user /home/user/x\n", 0);
  check("a=(x 'y z' w); echo ${#a[@]} ${a[1]} ${a[-1]}; echo ${!a[@]}",
        "3 y z w\n0 1 2\n", 0);
  check("declare -A m=([k]=v [j]=w); echo ${m[k]} ${#m[@]}", "v 2\n", 0);
  check("x=abc; echo ${x@Q}", "'abc'\n", 0);
}

static void test_control(void **state) {
  (void)state;
  check("for i in 1 2 3; do echo $i; done", "1\n2\n3\n", 0);
  check("i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i", "3\n", 0);
  check("for ((i=0;i<3;i++)); do printf %s $i; done; echo", "012\n", 0);
  check("if false; then echo a; elif true; then echo b; else echo c; fi", "b\n",
        0);
  check("case foo in f*) echo F;; *) echo other;; esac", "F\n", 0);
  check("for i in 1 2 3; do for j in a b; do [ $j = b ] && continue 2; "
        "echo $i$j; done; done",
        "1a\n2a\n3a\n", 0);
  check("f() { local x=in; echo $x $1; return 3; }; x=out; f arg; "
        "echo $? $x",
        "in arg\n3 out\n", 0);
  check("fact() { if (( $1 <= 1 )); then echo 1; else "
        "echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }; fact 10",
        "3628800\n", 0);
  check("[[ abc == a* && 5 -gt 3 ]] && echo yes", "yes\n", 0);
  check("[[ foo123 =~ ^([a-z]+)([0-9]+)$ ]] && echo ${BASH_REMATCH[2]}",
        "123\n", 0);
  check("set -e; false; echo no", "", 1);
  check("set -e; false || true; echo yes", "yes\n", 0);
  check("(exit 3); echo $?", "3\n", 0);
  check("x=1; (x=2); echo $x", "1\n", 0);
  check("trap 'echo bye' EXIT; echo hi", "hi\nbye\n", 0);
}

static void test_pipelines(void **state) {
  (void)state;
  check("echo hello | cat", "hello\n", 0);
  check("printf 'b\\na\\n' | cat | cat", "b\na\n", 0);
  check("yes | head -n 2", "y\ny\n", 0);
  check("yes | head -n 1; echo ${PIPESTATUS[@]}", "y\n141 0\n", 0);
  check("false | true; echo $?", "0\n", 0);
  check("set -o pipefail; false | true; echo $?", "1\n", 0);
  check("! true; echo $?", "1\n", 0);
  check("echo a | { read x; echo got $x; }", "got a\n", 0);
  check("while read l; do echo \"<$l>\"; done <<EOF\na\nb\nEOF\n", "<a>\n<b>\n",
        0);
}

static void test_redirections(void **state) {
  (void)state;
  check("echo hi > /tmp/f; cat /tmp/f; echo more >> /tmp/f; cat /tmp/f",
        "hi\nhi\nmore\n", 0);
  check("cat < /tmp/f", "hi\nmore\n", 0);
  check("echo err >&2", "", 0);
  check("{ echo out; echo err >&2; } 2>&1 | cat", "out\nerr\n", 0);
  check("cat <<< 'here string'", "here string\n", 0);
  check("echo x > nope/x; echo $?", "1\n", 0);
  check("exec 3>/tmp/g; echo three >&3; exec 3>&-; cat /tmp/g", "three\n", 0);
  check("cat <(echo procsub)", "procsub\n", 0);
  check("echo gone > /dev/null; echo ok", "ok\n", 0);
}

/* [[ =~ ]] is POSIX: leftmost-longest, BASH_REMATCH from a pass forced
 * to that extent, no answer changed by a backtracking limit; a limit hit
 * all the same (back-references) is status 2 with a message. */
static void test_regex_match(void **state) {
  (void)state;
  check("A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab; [[ $A =~ ^(a|aa)+c|a+b$ "
        "]]; echo $? ${#BASH_REMATCH[@]} "
        "\"[${BASH_REMATCH[1]}]\"",
        "0 2 []\n", 0);
  check("A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab; [[ $A =~ "
        "^(a|aa)+c|(a+)b$ ]]; echo ${BASH_REMATCH[2]}",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 0);
  check("[[ abcd =~ b|bcd ]]; echo ${BASH_REMATCH[0]}", "bcd\n", 0);
  check("[[ xyz =~ x*(xy)? ]]; echo ${BASH_REMATCH[0]} ${BASH_REMATCH[1]}",
        "xy xy\n", 0);
  check("re='(ab)\\1'; [[ xabab =~ $re ]]; echo $? ${BASH_REMATCH[1]}",
        "0 ab\n", 0);
  check("A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab; re='^(a|aa)+\\1c|a+b$'; "
        "[[ $A =~ $re ]] 2>&1; echo $?",
        "bash: line 1: =~: exceeded PCRE's backtracking limit\n2\n", 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_simple, setup, teardown),
      cmocka_unit_test_setup_teardown(test_regex_match, setup, teardown),
      cmocka_unit_test_setup_teardown(test_quoting, setup, teardown),
      cmocka_unit_test_setup_teardown(test_expansions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_control, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pipelines, setup, teardown),
      cmocka_unit_test_setup_teardown(test_redirections, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
