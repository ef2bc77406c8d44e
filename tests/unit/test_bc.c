// layers: core vfs builtins
/* Unit tests of bc and dc. The tables in bc_cases.inc were recorded from
 * GNU bc 1.07.1 and dc 1.4.1 on Debian 12 by record_bc.py: a few hundred
 * generated bc programs (arithmetic at varied scales, ibase/obase, long
 * numbers split at 70 columns, the -l functions) and hand-written bc and
 * dc cases (functions, arrays, control flow, strings, errors). The rest
 * checks what the sandbox adds: limits on digits, recursion and time. */
#include <stdio.h>

#include "bi_harness.h"

#include "bc_cases.inc"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Like bh_check_n, naming the program of a case that fails. */
static void run_table(const bh_case *cases, size_t n) {
  bh *h = bh_new();
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    const bh_case *k = &cases[i];
    int argc = 0;
    while (k->argv[argc])
      argc++;
    int st = bh_runa(h, k->in, strlen(k->in), argc, (char **)k->argv);
    if (st != k->status || strcmp(bh_out(h), k->out) ||
        strcmp(bh_err(h), k->err)) {
      print_message("case %zu (%s%s):\n%s--- status %d (want %d)\n"
                    "--- stdout:\n%s--- want:\n%s--- stderr:\n%s--- want:\n%s",
                    i, k->argv[0], argc > 1 ? " -l" : "", k->in, st, k->status,
                    bh_out(h), k->out, bh_err(h), k->err);
      bad++;
    }
  }
  bh_free(h);
  assert_int_equal(bad, 0);
}

static void t_generated(void **st) {
  run_table(bc_generated, N(bc_generated));
}

static void t_hand(void **st) {
  run_table(bc_hand, N(bc_hand));
}

static void t_dc(void **st) {
  run_table(dc_hand, N(dc_hand));
}

/* Files, options and messages. */
static void t_files_options(void **st) {
  bh *h = bh_new();
  bh_write(h, "f.bc", "define sq(x){return(x*x)}\nsq(12)\n");
  bh_write(h, "e.bc", "1+\n");
  bh_write(h, "q.bc", "5\nquit\n");
  bh_write(h, "p.dc", "[from file]p\n");
  const bh_case cases[] = {
      BH_CASE("sq(3)\n", 0, "144\n9\n", "", "bc", "f.bc"),
      BH_CASE("7\n", 0, "5\n", "", "bc", "q.bc"),
      BH_CASE(NULL, 0, "", "e.bc 2: syntax error\n", "bc", "e.bc"),
      BH_CASE("1\n", 1, "", "File nosuch is unavailable.\n", "bc", "nosuch"),
      BH_CASE("1\n", 1, NULL, "bc: invalid option -- 'z'\n", "bc", "-z"),
      BH_CASE("1\n", 1, NULL, "bc: unrecognized option '--nope'\n", "bc",
              "--nope"),
      BH_CASE("s(0)\n", 0, "0\n", "", "bc", "-lq"),
      BH_CASE("scale\n", 0, "20\n", "", "bc", "--mathlib"),
      BH_CASE(NULL, 0, "3\n", "", "dc", "-e", "1 2 + p"),
      BH_CASE(NULL, 0, "from file\n4\n", "", "dc", "-f", "p.dc", "-e",
              "2 2 * p"),
      BH_CASE(NULL, 0, "from file\n", "", "dc", "p.dc"),
      BH_CASE(NULL, 1, "", "dc: Could not open file nosuch\n", "dc", "nosuch"),
      BH_CASE(NULL, 1, "", NULL, "dc", "-z"),
  };
  bh_check_all(h, cases);
  assert_int_equal(bh_run(h, NULL, "bc", "--help", NULL), 0);
  assert_non_null(strstr(bh_out(h), "Usage: bc"));
  assert_int_equal(bh_run(h, NULL, "dc", "--help", NULL), 0);
  assert_non_null(strstr(bh_out(h), "Usage: dc"));
  assert_int_equal(bh_run(h, "1\n", "bc", "--version", NULL), 0);
  assert_null(strstr(bh_out(h), "Free Software"));
  /* BC_LINE_LENGTH: 0 never splits; 20 puts 18 characters and a backslash on a
   * line */
  bh_setenv(h, "BC_LINE_LENGTH", "0");
  assert_int_equal(bh_run(h, "2^300\n", "bc", NULL), 0);
  assert_string_equal(bh_out(h),
                      "20370359763344860862684456884093781610514683936659362"
                      "50636140449354381299763336706183397376\n");
  bh_setenv(h, "BC_LINE_LENGTH", "20");
  assert_int_equal(bh_run(h, "2^100\n", "bc", NULL), 0);
  assert_string_equal(bh_out(h), "126765060022822940\\\n1496703205376\n");
  bh_free(h);
}

/* A number longer than the cap, a runaway recursion, a deadline: each
 * ends with a message, never by exhausting the host. */
static void t_limits(void **st) {
  bh *h = bh_new();
  assert_int_equal(bh_run(h, "10^10^10\n5\n", "bc", NULL), 0);
  assert_string_equal(bh_out(h), "5\n");
  assert_non_null(strstr(bh_err(h), "Runtime error (func=(main), adr="));
  assert_non_null(strstr(bh_err(h), "number too long"));
  assert_int_equal(
      bh_run(h, "define f(n){return(f(n+1))}\nf(1)\n2\n", "bc", NULL), 0);
  assert_string_equal(bh_out(h), "2\n");
  assert_non_null(strstr(bh_err(h), "Runtime error (func=f, adr="));
  assert_non_null(strstr(bh_err(h), "nesting too deep"));
  assert_int_equal(bh_run(h, NULL, "dc", "-e", "[lbx 0]sb lbx 3p", NULL), 0);
  assert_string_equal(bh_out(h), "3\n");
  assert_non_null(strstr(bh_err(h), "recursion too deep"));
  /* the operands of a refused power stay on the stack */
  assert_int_equal(bh_run(h, NULL, "dc", "-e", "2 10 10 ^ ^ p 1p", NULL), 0);
  assert_string_equal(bh_out(h), "10000000000\n1\n");
  assert_non_null(strstr(bh_err(h), "number too long"));
  /* nesting is bounded while parsing */
  size_t depth = 50000;
  char *deep = malloc(4 * depth + 8);
  assert_non_null(deep);
  memset(deep, '(', depth);
  deep[depth] = '1';
  memset(deep + depth + 1, ')', depth);
  strcpy(deep + 2 * depth + 1, "\n7\n");
  assert_int_equal(bh_run(h, deep, "bc", NULL), 0);
  assert_string_equal(bh_out(h), "7\n");
  assert_string_equal(bh_err(h),
                      "(standard_in) 1: expression nested too deeply\n");
  for (size_t i = 0; i < depth; i++)
    memcpy(deep + 2 * i, "- ", 2);
  strcpy(deep + 2 * depth, "1\n");
  assert_int_equal(bh_run(h, deep, "bc", NULL), 0);
  assert_string_equal(bh_err(h),
                      "(standard_in) 1: expression nested too deeply\n");
  free(deep);
  /* an endless loop ends at the deadline */
  h->bud.deadline_ns = 1;
  bh_run(h, "while(1){x=x+1}\n", "bc", NULL);
  assert_true(h->bud.stop != BUDGET_OK);
  h->bud.stop = BUDGET_OK;
  h->bud.deadline_ns = 1;
  bh_run(h, NULL, "dc", "-e", "[lax]sa lax", NULL);
  assert_true(h->bud.stop != BUDGET_OK);
  h->bud.stop = BUDGET_OK;
  h->bud.deadline_ns = 0;
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_generated), cmocka_unit_test(t_hand),
      cmocka_unit_test(t_dc),        cmocka_unit_test(t_files_options),
      cmocka_unit_test(t_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
