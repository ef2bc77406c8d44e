// layers: core
/* Unit tests of shell/arith.c. The table below was produced by running each
 * expression through bash 5.2 (see the variables set up in reset_vars) and
 * recording $((expr)) and the variables afterwards, or bash's message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shell/state/arith.c"

/* A tiny variable store: "name" or "name[sub]" keys, raw subscripts. */
typedef struct var {
  char key[32];
  char val[64];
  int set, ro;
} var;

typedef struct store {
  var v[64];
  int nget, nset;
} store;

static var *lookup(store *s, const char *name, const char *sub, int make) {
  char key[32];
  snprintf(key, sizeof key, sub ? "%s[%s]" : "%s", name, sub);
  for (int i = 0; i < 64; i++)
    if (s->v[i].set && strcmp(s->v[i].key, key) == 0)
      return &s->v[i];
  if (!make)
    return NULL;
  for (int i = 0; i < 64; i++)
    if (!s->v[i].set) {
      snprintf(s->v[i].key, sizeof s->v[i].key, "%s", key);
      s->v[i].set = 1;
      return &s->v[i];
    }
  return NULL;
}

static const char *get_cb(void *ud, const char *name, const char *sub) {
  store *s = ud;
  s->nget++;
  var *v = lookup(s, name, sub, 0);
  return v ? v->val : NULL;
}

static int set_cb(void *ud, const char *name, const char *sub, int64_t val) {
  store *s = ud;
  s->nset++;
  var *v = lookup(s, name, sub, 1);
  if (v->ro)
    return -1;
  snprintf(v->val, sizeof v->val, "%lld", (long long)val);
  return 0;
}

static void put(store *s, const char *key, const char *val) {
  char name[32];
  const char *sub = NULL;
  snprintf(name, sizeof name, "%s", key);
  char *br = strchr(name, '[');
  if (br) {
    *br = 0;
    sub = br + 1;
    br[strlen(br + 1)] = 0; /* drop ']' */
  }
  var *v = lookup(s, name, sub, 1);
  snprintf(v->val, sizeof v->val, "%s", val);
}

static void reset_vars(store *s) {
  memset(s, 0, sizeof *s);
  put(s, "x", "4");
  put(s, "y", "5");
  put(s, "s", "3+4");
  put(s, "r", "r");
  put(s, "e", "");
  put(s, "z", "1+");
  put(s, "n", "-7");
  put(s, "big", "9223372036854775807");
  put(s, "a[0]", "10");
  put(s, "a[1]", "20");
  put(s, "a[2]", "30");
  put(s, "h", "0x1f");
  put(s, "o", "010");
  put(s, "ro", "1");
  lookup(s, "ro", NULL, 0)->ro = 1;
}

static const char *val(store *s, const char *key) {
  char name[32];
  snprintf(name, sizeof name, "%s", key);
  char *br = strchr(name, '[');
  const char *sub = NULL;
  if (br) {
    *br = 0;
    sub = br + 1;
    br[strlen(br + 1)] = 0;
  }
  var *v = lookup(s, name, sub, 0);
  return v ? v->val : "";
}

typedef struct tcase {
  const char *expr, *want;
} tcase;

static const tcase cases[] = {
    {"0", "0|4|5|10|20|30"},
    {"42", "42|4|5|10|20|30"},
    {"-42", "-42|4|5|10|20|30"},
    {"1+2*3", "7|4|5|10|20|30"},
    {"(1+2)*3", "9|4|5|10|20|30"},
    {"7/2", "3|4|5|10|20|30"},
    {"-7/2", "-3|4|5|10|20|30"},
    {"7%3", "1|4|5|10|20|30"},
    {"-7%3", "-1|4|5|10|20|30"},
    {"7%-3", "1|4|5|10|20|30"},
    {"2**10", "1024|4|5|10|20|30"},
    {"2**3**2", "512|4|5|10|20|30"},
    {"-2**2", "4|4|5|10|20|30"},
    {"2**63", "-9223372036854775808|4|5|10|20|30"},
    {"2**64", "0|4|5|10|20|30"},
    {"3**40", "-6289078614652622815|4|5|10|20|30"},
    {"2**0", "1|4|5|10|20|30"},
    {"0**0", "1|4|5|10|20|30"},
    {"1<<3", "8|4|5|10|20|30"},
    {"1<<64", "1|4|5|10|20|30"},
    {"1<<63", "-9223372036854775808|4|5|10|20|30"},
    {"1<<-1", "-9223372036854775808|4|5|10|20|30"},
    {"-16>>2", "-4|4|5|10|20|30"},
    {"-1>>70", "-1|4|5|10|20|30"},
    {"256>>4", "16|4|5|10|20|30"},
    {"~0", "-1|4|5|10|20|30"},
    {"~5", "-6|4|5|10|20|30"},
    {"!0", "1|4|5|10|20|30"},
    {"!5", "0|4|5|10|20|30"},
    {"!!7", "1|4|5|10|20|30"},
    {"-(-3)", "3|4|5|10|20|30"},
    {"- -1", "1|4|5|10|20|30"},
    {"--5", "5|4|5|10|20|30"},
    {"++5", "5|4|5|10|20|30"},
    {"+++x", "5|5|5|10|20|30"},
    {"1<2", "1|4|5|10|20|30"},
    {"2<1", "0|4|5|10|20|30"},
    {"1<=1", "1|4|5|10|20|30"},
    {"2>=3", "0|4|5|10|20|30"},
    {"3>2", "1|4|5|10|20|30"},
    {"1==1", "1|4|5|10|20|30"},
    {"1!=1", "0|4|5|10|20|30"},
    {"1<2==1", "1|4|5|10|20|30"},
    {"5&3", "1|4|5|10|20|30"},
    {"5|3", "7|4|5|10|20|30"},
    {"5^3", "6|4|5|10|20|30"},
    {"5&3|8", "9|4|5|10|20|30"},
    {"1|2^3&4", "3|4|5|10|20|30"},
    {"0&&1", "0|4|5|10|20|30"},
    {"2&&3", "1|4|5|10|20|30"},
    {"0||0", "0|4|5|10|20|30"},
    {"0||7", "1|4|5|10|20|30"},
    {"1?2:3", "2|4|5|10|20|30"},
    {"0?2:3", "3|4|5|10|20|30"},
    {"0?2:0?5:6", "6|4|5|10|20|30"},
    {"1?2:3,4", "4|4|5|10|20|30"},
    {"1,2,3", "3|4|5|10|20|30"},
    {"x", "4|4|5|10|20|30"},
    {"x+y", "9|4|5|10|20|30"},
    {"y-x*2", "-3|4|5|10|20|30"},
    {"s", "7|4|5|10|20|30"},
    {"s*2", "14|4|5|10|20|30"},
    {"e+1", "1|4|5|10|20|30"},
    {"e", "0|4|5|10|20|30"},
    {"z", "ERR:syntax error: operand expected (error token is \"+\")"},
    {"r", "ERR:expression recursion level exceeded (error token is \"r\")"},
    {"h", "31|4|5|10|20|30"},
    {"o", "8|4|5|10|20|30"},
    {"n", "-7|4|5|10|20|30"},
    {"n*n", "49|4|5|10|20|30"},
    {"big", "9223372036854775807|4|5|10|20|30"},
    {"big+1", "-9223372036854775808|4|5|10|20|30"},
    {"-big-1", "-9223372036854775808|4|5|10|20|30"},
    {"(-big-1)/-1", "-9223372036854775808|4|5|10|20|30"},
    {"(-big-1)%-1", "0|4|5|10|20|30"},
    {"(-big-1)*-1", "-9223372036854775808|4|5|10|20|30"},
    {"big*big", "1|4|5|10|20|30"},
    {"unset_var", "0|4|5|10|20|30"},
    {"unset_var+1", "1|4|5|10|20|30"},
    {"x=7", "7|7|5|10|20|30"},
    {"x+=3", "7|7|5|10|20|30"},
    {"x-=3", "1|1|5|10|20|30"},
    {"x*=3", "12|12|5|10|20|30"},
    {"x/=3", "1|1|5|10|20|30"},
    {"x%=3", "1|1|5|10|20|30"},
    {"x<<=2", "16|16|5|10|20|30"},
    {"x>>=1", "2|2|5|10|20|30"},
    {"x&=6", "4|4|5|10|20|30"},
    {"x|=8", "12|12|5|10|20|30"},
    {"x^=5", "1|1|5|10|20|30"},
    {"x=y=9", "9|9|9|10|20|30"},
    {"x=y+=2", "7|7|7|10|20|30"},
    {"x++", "4|5|5|10|20|30"},
    {"x--", "4|3|5|10|20|30"},
    {"++x", "5|5|5|10|20|30"},
    {"--x", "3|3|5|10|20|30"},
    {"x++ + x", "9|5|5|10|20|30"},
    {"x+++y", "9|5|5|10|20|30"},
    {"x+++++y", "10|5|6|10|20|30"},
    {"y+=x++", "9|5|9|10|20|30"},
    {"a[1]", "20|4|5|10|20|30"},
    {"a[1]+a[2]", "50|4|5|10|20|30"},
    {"a[1]=7", "7|4|5|10|7|30"},
    {"a[1]+=5", "25|4|5|10|25|30"},
    {"a[2]++", "30|4|5|10|20|31"},
    {"++a[0]", "11|4|5|11|20|30"},
    {"0x10", "16|4|5|10|20|30"},
    {"0X1f", "31|4|5|10|20|30"},
    {"0xff", "255|4|5|10|20|30"},
    {"010", "8|4|5|10|20|30"},
    {"0", "0|4|5|10|20|30"},
    {"00", "0|4|5|10|20|30"},
    {"0x", "0|4|5|10|20|30"},
    {"2#101", "5|4|5|10|20|30"},
    {"8#17", "15|4|5|10|20|30"},
    {"16#ff", "255|4|5|10|20|30"},
    {"36#z", "35|4|5|10|20|30"},
    {"36#Z", "35|4|5|10|20|30"},
    {"37#z", "35|4|5|10|20|30"},
    {"37#Z", "ERR:value too great for base (error token is \"37#Z\")"},
    {"64#@", "62|4|5|10|20|30"},
    {"64#_", "63|4|5|10|20|30"},
    {"64#_@", "4094|4|5|10|20|30"},
    {"10#0012", "12|4|5|10|20|30"},
    {" 1 + 2 ", "3|4|5|10|20|30"},
    {"1 +", "ERR:syntax error: operand expected (error token is \"+\")"},
    {"\t 3\t", "3|4|5|10|20|30"},
    {"1+", "ERR:syntax error: operand expected (error token is \"+\")"},
    {"1 + ", "ERR:syntax error: operand expected (error token is \"+ \")"},
    {"1 2", "ERR:syntax error in expression (error token is \"2\")"},
    {"1 @ 2",
     "ERR:syntax error: invalid arithmetic operator (error token is \"@ 2\")"},
    {"a b", "ERR:syntax error in expression (error token is \"b\")"},
    {"1 $",
     "ERR:syntax error: invalid arithmetic operator (error token is \"$\")"},
    {"2**-1", "ERR:exponent less than 0 (error token is \"1\")"},
    {"0 && 2**-1", "ERR:exponent less than 0 (error token is \"1\")"},
    {"1 ** 2 ** -1", "ERR:exponent less than 0 (error token is \"1\")"},
    {"08", "ERR:value too great for base (error token is \"08\")"},
    {"099999", "ERR:value too great for base (error token is \"099999\")"},
    {"0#1", "ERR:invalid number (error token is \"0#1\")"},
    {"07#1", "ERR:invalid number (error token is \"07#1\")"},
    {"1#1", "ERR:invalid arithmetic base (error token is \"1#1\")"},
    {"65#1", "ERR:invalid arithmetic base (error token is \"65#1\")"},
    {"2#", "ERR:invalid integer constant (error token is \"2#\")"},
    {"10#", "ERR:invalid integer constant (error token is \"10#\")"},
    {"2#2", "ERR:value too great for base (error token is \"2#2\")"},
    {"10#@", "ERR:value too great for base (error token is \"10#@\")"},
    {"16#G", "ERR:value too great for base (error token is \"16#G\")"},
    {"0xZ", "ERR:value too great for base (error token is \"0xZ\")"},
    {"0x1g", "ERR:value too great for base (error token is \"0x1g\")"},
    {"12abc", "ERR:value too great for base (error token is \"12abc\")"},
    {"12abc + 1", "ERR:value too great for base (error token is \"12abc\")"},
    {"1 + 08 + 2", "ERR:value too great for base (error token is \"08\")"},
    {"2#-1", "ERR:invalid integer constant (error token is \"2#\")"},
    {"a[1", "ERR:bad array subscript (error token is \"a[1\")"},
    {"a[1 + 2", "ERR:bad array subscript (error token is \"a[1 + 2\")"},
    {"x=", "ERR:syntax error: operand expected (error token is \"=\")"},
    {"1=2", "ERR:attempted assignment to non-variable (error token is \"=2\")"},
    {"1+x=3",
     "ERR:attempted assignment to non-variable (error token is \"=3\")"},
    {"(x)=3",
     "ERR:attempted assignment to non-variable (error token is \"=3\")"},
    {"x = = 1", "ERR:syntax error: operand expected (error token is \"= 1\")"},
    {"0?:1", "ERR:expression expected (error token is \":1\")"},
    {"1?2",
     "ERR:`:' expected for conditional expression (error token is \"2\")"},
    {"1?2:", "ERR:expression expected (error token is \":\")"},
    {"1 ? 2",
     "ERR:`:' expected for conditional expression (error token is \"2\")"},
    {"3 ? 4 : x = 5",
     "ERR:attempted assignment to non-variable (error token is \"= 5\")"},
    {"5++", "ERR:syntax error: operand expected (error token is \"+\")"},
    {"5--", "ERR:syntax error: operand expected (error token is \"-\")"},
    {"!", "ERR:syntax error: operand expected (error token is \"!\")"},
    {"~", "ERR:syntax error: operand expected (error token is \"~\")"},
    {"-", "ERR:syntax error: operand expected (error token is \"-\")"},
    {"--", "ERR:syntax error: operand expected (error token is \"-\")"},
    {"1 ,", "ERR:syntax error: operand expected (error token is \",\")"},
    {",1", "ERR:syntax error: operand expected (error token is \",1\")"},
    {"()", "ERR:syntax error: operand expected (error token is \")\")"},
    {"1/0", "ERR:division by 0 (error token is \"0\")"},
    {"1%0", "ERR:division by 0 (error token is \"0\")"},
    {"1 / 0 + 3", "ERR:division by 0 (error token is \"0 + 3\")"},
    {"x/=0", "ERR:division by 0 (error token is \"0\")"},
    {"x%=0", "ERR:division by 0 (error token is \"0\")"},
    {"0&&1/0", "0|4|5|10|20|30"},
    {"1||1/0", "1|4|5|10|20|30"},
    {"0?1/0:2", "2|4|5|10|20|30"},
    {"1?2:1/0", "2|4|5|10|20|30"},
    {"0&&x++", "0|4|5|10|20|30"},
    {"1||(x=9)", "1|4|5|10|20|30"},
    {"0?x++:y++", "5|4|6|10|20|30"},
    {"x++=7",
     "ERR:attempted assignment to non-variable (error token is \"=7\")"},
    {"++x=7",
     "ERR:attempted assignment to non-variable (error token is \"=7\")"},
    {"--x++", "ERR:++: assignment requires lvalue (error token is \"++\")"},
    {"x++ + ++y", "10|5|6|10|20|30"},
    {"ro=5", "ERR:(null)"},
    {"x=3,y=x*2", "6|3|6|10|20|30"},
    {"unset_var=5", "5|4|5|10|20|30"},
    {"r+1", "ERR:expression recursion level exceeded (error token is \"r\")"},
    {"0&&r", "0|4|5|10|20|30"},
};

typedef struct fixture {
  mem *m;
  arena a;
  store s;
  sh_arith_env env;
} fixture;

static int setup(void **st) {
  fixture *f = calloc(1, sizeof *f);
  f->m = mem_new(NULL, NULL, 0);
  arena_init(&f->a, f->m);
  f->env.ud = &f->s;
  f->env.get = get_cb;
  f->env.set = set_cb;
  *st = f;
  return 0;
}

static int teardown(void **st) {
  fixture *f = *st;
  arena_destroy(&f->a);
  mem_unref(f->m);
  free(f);
  return 0;
}

static void test_bash_table(void **st) {
  fixture *f = *st;
  int bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    reset_vars(&f->s);
    int64_t out = 0;
    const char *err = NULL;
    int rc = sh_arith_eval(&f->a, &f->env, cases[i].expr, strlen(cases[i].expr),
                           &out, &err);
    char got[512];
    if (rc == 0)
      snprintf(got, sizeof got, "%lld|%s|%s|%s|%s|%s", (long long)out,
               val(&f->s, "x"), val(&f->s, "y"), val(&f->s, "a[0]"),
               val(&f->s, "a[1]"), val(&f->s, "a[2]"));
    else
      snprintf(got, sizeof got, "ERR:%s", err ? err : "(null)");
    if (strcmp(got, cases[i].want) != 0) {
      print_error("expr [%s]\n  want [%s]\n  got  [%s]\n", cases[i].expr,
                  cases[i].want, got);
      bad++;
    }
  }
  assert_int_equal(bad, 0);
}

static int64_t ev(fixture *f, const char *e, const char **err) {
  int64_t out = -12345;
  const char *er = NULL;
  int rc = sh_arith_eval(&f->a, &f->env, e, strlen(e), &out, &er);
  if (err)
    *err = rc ? er : NULL;
  else
    assert_int_equal(rc, 0);
  return out;
}

static void test_empty(void **st) {
  fixture *f = *st;
  reset_vars(&f->s);
  assert_int_equal(ev(f, "", NULL), 0);
  assert_int_equal(ev(f, "   \t\n ", NULL), 0);
  int64_t out = 7;
  const char *err = "x";
  assert_int_equal(sh_arith_eval(&f->a, &f->env, NULL, 0, &out, &err), 0);
  assert_int_equal(out, 0);
}

static void test_not_nul_terminated(void **st) {
  fixture *f = *st;
  reset_vars(&f->s);
  const char text[] = "1+2*3garbage";
  int64_t out = 0;
  const char *err = NULL;
  assert_int_equal(sh_arith_eval(&f->a, &f->env, text, 5, &out, &err), 0);
  assert_int_equal(out, 7);
  /* the error token stops at len too */
  assert_int_equal(sh_arith_eval(&f->a, &f->env, "1/0xyz", 3, &out, &err), -1);
  assert_string_equal(err, "division by 0 (error token is \"0\")");
}

static void test_nounset(void **st) {
  fixture *f = *st;
  reset_vars(&f->s);
  f->env.nounset = 1;
  const char *err;
  ev(f, "nope + 1", &err);
  assert_string_equal(err, "nope: unbound variable");
  ev(f, "nope += 1", &err);
  assert_string_equal(err, "nope: unbound variable");
  /* an assignment does not read the variable; unevaluated parts neither */
  assert_int_equal(ev(f, "nope = 3", NULL), 3);
  assert_int_equal(ev(f, "0 && nope2", NULL), 0);
  assert_int_equal(ev(f, "1 ? 2 : nope2", NULL), 2);
  /* bash names the array, not the element */
  ev(f, "b[3]", &err);
  assert_string_equal(err, "b: unbound variable");
  f->env.nounset = 0;
}

static void test_readonly(void **st) {
  fixture *f = *st;
  reset_vars(&f->s);
  const char *err = "x";
  int64_t out;
  const char *e = "x = 2, ro = 5, y = 9";
  assert_int_equal(sh_arith_eval(&f->a, &f->env, e, strlen(e), &out, &err), -1);
  /* the callee reported it (err NULL); evaluation stopped before y = 9 */
  assert_null(err);
  assert_string_equal(val(&f->s, "x"), "2");
  assert_string_equal(val(&f->s, "y"), "5");
  err = "x";
  assert_int_equal(sh_arith_eval(&f->a, &f->env, "ro++", 4, &out, &err), -1);
  assert_null(err);
}

static void test_no_env(void **st) {
  fixture *f = *st;
  int64_t out = 0;
  const char *err = NULL;
  assert_int_equal(sh_arith_eval(&f->a, NULL, "q + 2", 5, &out, &err), 0);
  assert_int_equal(out, 2);
  assert_int_equal(sh_arith_eval(&f->a, NULL, "q = 2", 5, &out, &err), 0);
  assert_int_equal(out, 2);
}

static void test_side_effects_order(void **st) {
  fixture *f = *st;
  reset_vars(&f->s);
  /* i++ is evaluated once per reference, left to right */
  put(&f->s, "i", "1");
  assert_int_equal(ev(f, "i++ * 10 + i", NULL), 12);
  assert_string_equal(val(&f->s, "i"), "2");
  /* a variable holding an expression with a side effect */
  put(&f->s, "inc", "i+=5");
  assert_int_equal(ev(f, "inc", NULL), 7);
  assert_string_equal(val(&f->s, "i"), "7");
  /* short-circuit: no assignment in the skipped branch */
  assert_int_equal(ev(f, "0 && (i = 100)", NULL), 0);
  assert_int_equal(ev(f, "1 || inc", NULL), 1);
  assert_int_equal(ev(f, "i > 5 ? i-- : i++", NULL), 7);
  assert_string_equal(val(&f->s, "i"), "6");
  /* comma keeps the last value, assignments chain right to left */
  assert_int_equal(ev(f, "p = q = 3, p + q", NULL), 6);
}

static void test_recursion_limits(void **st) {
  fixture *f = *st;
  reset_vars(&f->s);
  const char *err;
  /* mutual recursion through two variables */
  put(&f->s, "m1", "m2+1");
  put(&f->s, "m2", "m1+1");
  ev(f, "m1", &err);
  assert_non_null(err);
  assert_non_null(strstr(err, "expression recursion level exceeded"));
  /* deep but legal chain of variables */
  char name[16], value[16];
  for (int i = 0; i < 20; i++) {
    snprintf(name, sizeof name, "c%d", i);
    snprintf(value, sizeof value, i < 19 ? "c%d + 1" : "1", i + 1);
    put(&f->s, name, value);
  }
  assert_int_equal(ev(f, "c0", NULL), 20);
  /* a pathological nesting of parentheses fails cleanly, not by crashing */
  size_t n = 100000;
  char *deep = malloc(2 * n + 2);
  memset(deep, '(', n);
  deep[n] = '1';
  memset(deep + n + 1, ')', n);
  deep[2 * n + 1] = 0;
  ev(f, deep, &err);
  assert_non_null(err);
  assert_non_null(strstr(err, "expression recursion level exceeded"));
  memset(deep, '-', n);
  ev(f, deep, &err);
  assert_non_null(err);
  free(deep);
  /* but moderate nesting works */
  assert_int_equal(ev(f, "((((((((((1+1))))))))))*-(-(-(-3)))", NULL), 6);
}

static void test_memory_cap(void **st) {
  mem *m = mem_new(NULL, NULL, 1); /* a cap that makes arena chunks fail */
  arena a;
  arena_init(&a, m);
  int64_t out;
  const char *err = NULL;
  int rc = sh_arith_eval(&a, NULL, "1/0", 3, &out, &err);
  assert_int_equal(rc, -1);
  assert_non_null(err);
  arena_destroy(&a);
  mem_unref(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bash_table),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_not_nul_terminated),
      cmocka_unit_test(test_nounset),
      cmocka_unit_test(test_readonly),
      cmocka_unit_test(test_no_env),
      cmocka_unit_test(test_side_effects_order),
      cmocka_unit_test(test_recursion_limits),
      cmocka_unit_test(test_memory_cap),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
