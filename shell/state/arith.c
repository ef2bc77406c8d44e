/*
 * arith.c - bash arithmetic evaluation.
 *
 * The evaluator is a recursive-descent parser that computes as it parses,
 * one function per precedence level, so that the token bookkeeping bash
 * exposes through its error messages (the "error token", and which token
 * preceded an '=') behaves the same. Values are int64_t but every operation
 * that can overflow is done in uint64_t, giving bash's two's-complement
 * wrap-around without undefined behaviour.
 *
 * Short-circuit operators do not skip parsing; they raise `noeval`, under
 * which variables read as 0, nothing is assigned and division by zero is
 * not an error, exactly as bash does.
 *
 * Errors unwind with longjmp: all scratch memory is arena memory, so nothing
 * needs freeing on the way out.
 */
#include "shell/state/arith.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

/* bash's MAX_EXPR_RECURSION_LEVEL: nested evaluation of variable values.
 * The same bound is applied to parenthesis/unary nesting within one
 * expression so a hostile expression cannot exhaust the C stack. */
#define ARITH_MAX_DEPTH 1024

enum {
  T_EOF = 0,
  T_EQEQ = 256,
  T_NEQ,
  T_LEQ,
  T_GEQ,
  T_STR,
  T_NUM,
  T_LAND,
  T_LOR,
  T_LSH,
  T_RSH,
  T_OPASSIGN,
  T_COND,
  T_POWER,
  T_PREINC,
  T_PREDEC,
  T_POSTINC,
  T_POSTDEC
};

typedef struct actx {
  arena *a;
  const sh_arith_env *env;
  jmp_buf jb;
  const char *err;
  int depth; /* nested variable evaluations */
} actx;

/* Token state; saved and restored wholesale when the parser peeks past an
 * identifier to look for a postfix ++ or --. */
typedef struct tokstate {
  size_t tp;     /* next unread byte */
  size_t lasttp; /* start of the current token (for error messages) */
  int curtok, lasttok;
  int64_t tokval;
  int has_id; /* the last identifier token, for assignments */
  size_t id, idlen;
  int noeval;
} tokstate;

typedef struct parser {
  actx *c;
  const char *s;
  size_t len;
  int assigntok; /* operator of the last OP= token */
  int nest;      /* parenthesis/unary nesting */
  tokstate t;
} parser;

static int64_t expcomma(parser *p);
static int64_t expassign(parser *p);
static int64_t expcond(parser *p);
static int64_t exp1(parser *p);
static int64_t subexpr(actx *c, const char *s, size_t len);

static _Noreturn void ar_fail_raw(actx *c, const char *msg) {
  c->err = msg;
  longjmp(c->jb, 1);
}

/* Error with the token text [from, to) quoted as bash does. */
static _Noreturn void ar_fail_span(parser *p, const char *msg, size_t from,
                                   size_t to) {
  size_t n = strlen(msg) + (to - from) + 32;
  char *m = arena_alloc(p->c->a, n);
  if (!m)
    ar_fail_raw(p->c, msg);
  snprintf(m, n, "%s (error token is \"%.*s\")", msg, (int)(to - from),
           p->s + from);
  ar_fail_raw(p->c, m);
}

/* The usual case: the error token is the rest of the expression from the
 * start of the current token. */
static _Noreturn void ar_fail(parser *p, const char *msg) {
  ar_fail_span(p, msg, p->t.lasttp, p->len);
}

static int is_ws(int c) {
  return c == ' ' || c == '\t' || c == '\n';
}
static int is_alpha(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int is_digit(int c) {
  return c >= '0' && c <= '9';
}
static int is_alnum(int c) {
  return is_alpha(c) || is_digit(c);
}
static int var_start(int c) {
  return is_alpha(c) || c == '_';
}
static int var_char(int c) {
  return is_alnum(c) || c == '_';
}

/* Single-character operator tokens. */
static int is_arithop(int c) {
  switch (c) {
  case '=':
  case '>':
  case '<':
  case '+':
  case '-':
  case '*':
  case '/':
  case '%':
  case '!':
  case '(':
  case ')':
  case '&':
  case '|':
  case '^':
  case '~':
  case '?':
  case ':':
  case ',':
    return 1;
  default:
    return 0;
  }
}

static int is_multiop(int c) {
  return c >= T_EQEQ && c <= T_POSTDEC && c != T_STR && c != T_NUM;
}

/* Parse one integer constant token [from, to): 0x.., 0.., base#digits. */
static int64_t strnum(parser *p, size_t from, size_t to) {
  const unsigned char *s = (const unsigned char *)p->s;
  size_t i = from;
  uint64_t base = 10, val = 0;
  int foundbase = 0;
  if (s[i] == '0') {
    i++;
    if (i == to)
      return 0;
    if (s[i] == 'x' || s[i] == 'X') {
      base = 16;
      i++;
    } else {
      base = 8;
    }
    foundbase = 1;
  }
  for (; i < to; i++) {
    unsigned c = s[i];
    if (c == '#') {
      if (foundbase)
        ar_fail_span(p, "invalid number", from, to);
      if (val < 2 || val > 64)
        ar_fail_span(p, "invalid arithmetic base", from, to);
      base = val;
      val = 0;
      foundbase = 1;
      /* base# must be followed by something that can be a digit */
      if (i + 1 >= to ||
          !(is_alnum(s[i + 1]) || s[i + 1] == '@' || s[i + 1] == '_'))
        ar_fail_span(p, "invalid integer constant", from, to);
      continue;
    }
    unsigned d;
    if (is_digit(c))
      d = c - '0';
    else if (c >= 'a' && c <= 'z')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z')
      d = c - 'A' + (base <= 36 ? 10 : 36);
    else if (c == '@')
      d = 62;
    else if (c == '_')
      d = 63;
    else
      break;
    if (d >= base)
      ar_fail_span(p, "value too great for base", from, to);
    val = val * base + d;
  }
  return (int64_t)val;
}

/* Split identifier token text "name" or "name[sub]" for the callbacks. */
static void split_id(parser *p, size_t id, size_t idlen, char **name,
                     char **sub) {
  const char *s = p->s + id;
  const char *br = memchr(s, '[', idlen);
  if (br) {
    *name = arena_strndup(p->c->a, s, (size_t)(br - s));
    *sub = arena_strndup(p->c->a, br + 1, idlen - (size_t)(br - s) - 2);
  } else {
    *name = arena_strndup(p->c->a, s, idlen);
    *sub = NULL;
  }
  if (!*name || (br && !*sub))
    ar_fail_raw(p->c, "out of memory");
}

/* Value of a variable token: its string evaluated as an expression. */
static int64_t var_value(parser *p, size_t id, size_t idlen) {
  if (p->t.noeval)
    return 0;
  char *name, *sub;
  /* A plain short name is copied to the stack: the getter only reads it
   * during the call, and this saves an arena copy per variable read. */
  char nb[64];
  if (idlen < sizeof nb && !memchr(p->s + id, '[', idlen)) {
    memcpy(nb, p->s + id, idlen);
    nb[idlen] = '\0';
    name = nb;
    sub = NULL;
  } else {
    split_id(p, id, idlen, &name, &sub);
  }
  const sh_arith_env *env = p->c->env;
  const char *v = env && env->get ? env->get(env->ud, name, sub) : NULL;
  if (!v) {
    if (env && env->nounset &&
        !(sub && env->exists && env->exists(env->ud, name))) {
      if (env->unbound)
        *env->unbound = 1;
      size_t n = idlen + 32;
      char *m = arena_alloc(p->c->a, n);
      if (!m)
        ar_fail_raw(p->c, "unbound variable");
      /* bash names the array, not the element */
      const char *br = memchr(p->s + id, '[', idlen);
      int shown = br ? (int)(br - (p->s + id)) : (int)idlen;
      snprintf(m, n, "%.*s: unbound variable", shown, p->s + id);
      ar_fail_raw(p->c, m);
    }
    return 0;
  }
  /* Fast path for the overwhelmingly common plain decimal value. */
  size_t n = strlen(v);
  if (n > 0 && n < 19 && (v[0] != '0' || n == 1)) {
    int64_t r = 0;
    size_t i = 0;
    while (i < n && is_digit((unsigned char)v[i]))
      r = r * 10 + (v[i++] - '0');
    if (i == n)
      return r;
  }
  if (p->c->depth >= ARITH_MAX_DEPTH)
    ar_fail(p, "expression recursion level exceeded");
  return subexpr(p->c, v, n);
}

static void assign(parser *p, size_t id, size_t idlen, int64_t v) {
  if (p->t.noeval)
    return;
  char *name, *sub;
  split_id(p, id, idlen, &name, &sub);
  const sh_arith_env *env = p->c->env;
  if (!env || !env->set)
    return;
  /* The callee has already reported the failure (readonly variable):
   * *err is NULL so the caller prints nothing more. */
  if (env->set(env->ud, name, sub, v) != 0)
    ar_fail_raw(p->c, NULL);
}

/* Index of the ']' closing the subscript that opens at s[i] == '[', or 0. */
static size_t skip_subscript(parser *p, size_t i) {
  int depth = 0;
  for (; i < p->len; i++) {
    if (p->s[i] == '[')
      depth++;
    else if (p->s[i] == ']' && --depth == 0)
      return i;
  }
  return 0;
}

static void readtok(parser *p) {
  const unsigned char *s = (const unsigned char *)p->s;
  size_t i = p->t.tp, n = p->len;
  while (i < n && is_ws(s[i]))
    i++;
  if (i >= n) {
    p->t.lasttok = p->t.curtok;
    p->t.curtok = T_EOF;
    p->t.tp = i;
    return;
  }
  size_t start = i;
  int c = s[i++];
  p->t.lasttp = start;

  if (var_start(c)) {
    while (i < n && var_char(s[i]))
      i++;
    if (i < n && s[i] == '[') {
      size_t e = skip_subscript(p, i);
      if (!e)
        ar_fail(p, "bad array subscript");
      i = e + 1;
    }
    /* An identifier about to be assigned with '=' is not evaluated (so
     * `x=1` works under set -u and does not evaluate x's old value). */
    size_t q = i;
    while (q < n && is_ws(s[q]))
      q++;
    int peek_eq = q < n && s[q] == '=' && !(q + 1 < n && s[q + 1] == '=');
    p->t.has_id = 1;
    p->t.id = start;
    p->t.idlen = i - start;
    p->t.tp = i;
    if (p->t.lasttok == T_PREINC || p->t.lasttok == T_PREDEC || !peek_eq)
      p->t.tokval = var_value(p, start, i - start);
    else
      p->t.tokval = 0;
    p->t.lasttok = p->t.curtok;
    p->t.curtok = T_STR;
    return;
  }
  if (is_digit(c)) {
    while (i < n &&
           (is_alnum(s[i]) || s[i] == '#' || s[i] == '@' || s[i] == '_'))
      i++;
    p->t.tokval = strnum(p, start, i);
    p->t.lasttok = p->t.curtok;
    p->t.curtok = T_NUM;
    p->t.tp = i;
    return;
  }

  int c1 = i < n ? s[i] : 0;
  int tok = c;
  i++; /* provisionally a two-byte operator; single ones step back */
  if (c == '=' && c1 == '=')
    tok = T_EQEQ;
  else if (c == '!' && c1 == '=')
    tok = T_NEQ;
  else if (c == '>' && c1 == '=')
    tok = T_GEQ;
  else if (c == '<' && c1 == '=')
    tok = T_LEQ;
  else if ((c == '<' || c == '>') && c1 == c) {
    if (i < n && s[i] == '=') {
      p->assigntok = c == '<' ? T_LSH : T_RSH;
      tok = T_OPASSIGN;
      i++;
    } else {
      tok = c == '<' ? T_LSH : T_RSH;
    }
  } else if (c == '&' && c1 == '&')
    tok = T_LAND;
  else if (c == '|' && c1 == '|')
    tok = T_LOR;
  else if (c == '*' && c1 == '*')
    tok = T_POWER;
  else if ((c == '-' || c == '+') && c1 == c && p->t.curtok == T_STR)
    tok = c == '-' ? T_POSTDEC : T_POSTINC;
  else if ((c == '-' || c == '+') && c1 == c && p->t.curtok == T_NUM &&
           (p->t.lasttok == T_PREINC || p->t.lasttok == T_PREDEC))
    /* --x++ */
    ar_fail(p, c == '-' ? "--: assignment requires lvalue"
                        : "++: assignment requires lvalue");
  else if ((c == '-' || c == '+') && c1 == c) {
    /* ++ or -- is an increment only before an identifier; otherwise it
     * is two unary signs (`--5` is 5). */
    size_t q = i;
    while (q < n && is_ws(s[q]))
      q++;
    if (q < n && var_start(s[q]))
      tok = c == '-' ? T_PREDEC : T_PREINC;
    else
      i--;
  } else if (c1 == '=' && c != 0 && memchr("*/%+-&^|", c, 8)) {
    p->assigntok = c;
    tok = T_OPASSIGN;
  } else if (!is_arithop(c)) {
    int ct = p->t.curtok;
    if (ct == T_EOF || is_arithop(ct) || is_multiop(ct))
      ar_fail(p, "syntax error: operand expected");
    ar_fail(p, "syntax error: invalid arithmetic operator");
  } else {
    i--;
  }
  p->t.lasttok = p->t.curtok;
  p->t.curtok = tok;
  p->t.tp = i;
}

static void nest_in(parser *p) {
  if (++p->nest > ARITH_MAX_DEPTH)
    ar_fail(p, "expression recursion level exceeded");
}

static uint64_t ipow(uint64_t b, uint64_t e) {
  uint64_t r = 1;
  while (e) {
    if (e & 1)
      r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

/* Shift counts are taken modulo 64, as the x86-64 instructions bash
 * compiles to do (so `1<<64` is 1 and `1<<-1` is INT64_MIN). */
static int64_t shl(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a << ((uint64_t)b & 63));
}
static int64_t shr(int64_t a, int64_t b) {
  unsigned k = (unsigned)((uint64_t)b & 63);
  /* arithmetic shift without relying on implementation-defined >> */
  uint64_t u = (uint64_t)a >> k;
  if (a < 0 && k)
    u |= ~(UINT64_MAX >> k);
  return (int64_t)u;
}

/* a / b and a % b for b != 0, INT64_MIN / -1 wrapping to INT64_MIN. */
static int64_t divmod(int64_t a, int64_t b, int mod) {
  if (b == -1)
    return mod ? 0 : (int64_t)(0 - (uint64_t)a);
  return mod ? a % b : a / b;
}

/* Binding strength of the binary operators from | to * / %, as in C
 * (0: not one of them). */
enum { PREC_OR = 3 };
static int bin_prec(int op) {
  switch (op) {
  case '*':
  case '/':
  case '%':
    return 10;
  case '+':
  case '-':
    return 9;
  case T_LSH:
  case T_RSH:
    return 8;
  case '<':
  case '>':
  case T_LEQ:
  case T_GEQ:
    return 7;
  case T_EQEQ:
  case T_NEQ:
    return 6;
  case '&':
    return 5;
  case '^':
    return 4;
  case '|':
    return PREC_OR;
  default:
    return 0;
  }
}

/* a op b for the operators of bin_prec (b != 0 for / and %). */
static int64_t binop(int op, int64_t a, int64_t b) {
  uint64_t x = (uint64_t)a, y = (uint64_t)b;
  switch (op) {
  case '<':
    return a < b;
  case '>':
    return a > b;
  case T_LEQ:
    return a <= b;
  case T_GEQ:
    return a >= b;
  case T_EQEQ:
    return a == b;
  case T_NEQ:
    return a != b;
  case '*':
    return (int64_t)(x * y);
  case '+':
    return (int64_t)(x + y);
  case '-':
    return (int64_t)(x - y);
  case '/':
    return divmod(a, b, 0);
  case '%':
    return divmod(a, b, 1);
  case T_LSH:
    return shl(a, b);
  case T_RSH:
    return shr(a, b);
  case '&':
    return a & b;
  case '|':
    return a | b;
  case '^':
    return a ^ b;
  default:
    return 0;
  }
}

/* Whether the text after the current identifier token starts with ++ or
 * --, the only case in which exp0's peek finds a postfix operator. Any other
 * peek restores the token state and raises no error the real read that
 * follows would not, so it is skipped. */
static int postfix_ahead(const parser *p) {
  size_t q = p->t.tp;
  while (q < p->len && is_ws((unsigned char)p->s[q]))
    q++;
  return q + 1 < p->len && (p->s[q] == '+' || p->s[q] == '-') &&
         p->s[q + 1] == p->s[q];
}

static int64_t exp0(parser *p) {
  int64_t val = 0;
  int ct = p->t.curtok;
  if (ct == T_PREINC || ct == T_PREDEC) {
    p->t.lasttok = ct;
    readtok(p);
    if (p->t.curtok != T_STR)
      ar_fail(p, "identifier expected after pre-increment or pre-decrement");
    val =
        (int64_t)((uint64_t)p->t.tokval + (ct == T_PREINC ? 1 : (uint64_t)-1));
    assign(p, p->t.id, p->t.idlen, val);
    p->t.curtok = T_NUM; /* so that ++x=7 is not an assignment */
    readtok(p);
  } else if (ct == '(') {
    nest_in(p);
    readtok(p);
    val = expcomma(p);
    if (p->t.curtok != ')')
      ar_fail(p, "missing `)'");
    p->nest--;
    readtok(p);
  } else if (ct == T_NUM || ct == T_STR) {
    val = p->t.tokval;
    if (ct == T_STR && postfix_ahead(p)) {
      /* Peek (without side effects) for a postfix ++/--. */
      tokstate saved = p->t;
      p->t.noeval = 1;
      readtok(p);
      int st = p->t.curtok;
      if (st == T_POSTINC || st == T_POSTDEC) {
        p->t.has_id = saved.has_id;
        p->t.id = saved.id;
        p->t.idlen = saved.idlen;
        p->t.noeval = saved.noeval;
        p->t.lasttok = T_STR;
        int64_t v2 =
            (int64_t)((uint64_t)val + (st == T_POSTINC ? 1 : (uint64_t)-1));
        assign(p, p->t.id, p->t.idlen, v2);
        p->t.curtok = T_NUM; /* so that x++=7 is not an assignment */
      } else {
        p->t = saved;
      }
    }
    readtok(p);
  } else {
    ar_fail(p, "syntax error: operand expected");
  }
  return val;
}

static int64_t exp1(parser *p) {
  int ct = p->t.curtok;
  if (ct != '!' && ct != '~' && ct != '-' && ct != '+')
    return exp0(p);
  nest_in(p);
  readtok(p);
  int64_t v = exp1(p);
  p->nest--;
  p->t.lasttok = T_NUM;
  switch (ct) {
  case '!':
    return !v;
  case '~':
    return ~v;
  case '-':
    return (int64_t)(0 - (uint64_t)v);
  default:
    return v;
  }
}

static int64_t exppower(parser *p) {
  int64_t v1 = exp1(p);
  while (p->t.curtok == T_POWER) {
    nest_in(p);
    readtok(p);
    int64_t v2 = exppower(p); /* right-associative */
    p->nest--;
    p->t.lasttok = T_NUM;
    if (v2 == 0)
      return 1;
    /* checked even where nothing is evaluated, as bash does */
    if (v2 < 0)
      ar_fail(p, "exponent less than 0");
    v1 = (int64_t)ipow((uint64_t)v1, (uint64_t)v2);
  }
  return v1;
}

/* The left-associative binary operators of bin_prec binding at least as
 * tightly as min, by precedence climbing: each right operand takes the
 * operators that bind tighter than its own, so operands are read and
 * operators applied in the same order as one function a level would. */
static int64_t expbinary(parser *p, int min) {
  int64_t v1 = exppower(p);
  for (;;) {
    int op = p->t.curtok, prec = bin_prec(op);
    if (prec < min)
      return v1;
    size_t after_op = p->t.tp;
    readtok(p);
    int64_t v2 = expbinary(p, prec + 1);
    if ((op == '/' || op == '%') && v2 == 0) {
      if (!p->t.noeval) {
        /* the error token is what follows the operator */
        while (after_op < p->len && is_ws((unsigned char)p->s[after_op]))
          after_op++;
        ar_fail_span(p, "division by 0", after_op, p->len);
      }
      v2 = 1;
    }
    v1 = binop(op, v1, v2);
    p->t.lasttok = T_NUM;
  }
}

static int64_t expland(parser *p) {
  int64_t v1 = expbinary(p, PREC_OR);
  while (p->t.curtok == T_LAND) {
    int skip = v1 == 0;
    p->t.noeval += skip;
    readtok(p);
    int64_t v2 = expbinary(p, PREC_OR);
    p->t.noeval -= skip;
    v1 = v1 && v2;
    p->t.lasttok = T_LAND;
  }
  return v1;
}

static int64_t explor(parser *p) {
  int64_t v1 = expland(p);
  while (p->t.curtok == T_LOR) {
    int skip = v1 != 0;
    p->t.noeval += skip;
    readtok(p);
    int64_t v2 = expland(p);
    p->t.noeval -= skip;
    v1 = v1 || v2;
    p->t.lasttok = T_LOR;
  }
  return v1;
}

static int64_t expcond(parser *p) {
  int64_t cval = explor(p);
  if (p->t.curtok != '?')
    return cval;
  nest_in(p);
  p->t.lasttok = '?';
  /* noeval is raised before the branch's first token is read, so not even
   * a variable there is evaluated */
  int skip = cval == 0;
  p->t.noeval += skip;
  readtok(p);
  if (p->t.curtok == T_EOF || p->t.curtok == ':')
    ar_fail(p, "expression expected");
  int64_t v1 = expcomma(p);
  p->t.noeval -= skip;
  if (p->t.curtok != ':')
    ar_fail(p, "`:' expected for conditional expression");
  skip = cval != 0;
  p->t.noeval += skip;
  p->t.lasttok = ':';
  readtok(p);
  if (p->t.curtok == T_EOF)
    ar_fail(p, "expression expected");
  int64_t v2 = expcond(p);
  p->t.noeval -= skip;
  p->nest--;
  p->t.lasttok = T_COND;
  return cval ? v1 : v2;
}

static int64_t expassign(parser *p) {
  int64_t value = expcond(p);
  if (p->t.curtok != '=' && p->t.curtok != T_OPASSIGN)
    return value;
  int special = p->t.curtok == T_OPASSIGN;
  int op = p->assigntok;
  int64_t lvalue = value;
  if (p->t.lasttok != T_STR)
    ar_fail(p, "attempted assignment to non-variable");
  if (!p->t.has_id)
    ar_fail(p, "syntax error: operand expected");
  size_t id = p->t.id, idlen = p->t.idlen;
  nest_in(p);
  readtok(p);
  value = expassign(p); /* right-associative */
  p->nest--;
  if (special) {
    if ((op == '/' || op == '%') && value == 0) {
      if (!p->t.noeval)
        ar_fail(p, "division by 0");
      value = 1;
    }
    value = binop(op, lvalue, value);
  }
  assign(p, id, idlen, value);
  p->t.has_id = 0;
  return value;
}

static int64_t expcomma(parser *p) {
  int64_t v = expassign(p);
  while (p->t.curtok == ',') {
    readtok(p);
    v = expassign(p);
  }
  return v;
}

static int64_t subexpr(actx *c, const char *s, size_t len) {
  size_t i = 0;
  while (i < len && is_ws((unsigned char)s[i]))
    i++;
  if (i == len)
    return 0;
  parser p;
  memset(&p, 0, sizeof p);
  p.c = c;
  p.s = s;
  p.len = len;
  c->depth++;
  readtok(&p);
  int64_t v = expcomma(&p);
  if (p.t.curtok != T_EOF)
    ar_fail(&p, "syntax error in expression");
  c->depth--;
  return v;
}

/*
 * Flat fast path. Most expressions in scripts are operands (plain variables,
 * decimal constants) joined by binary operators, e.g. `s + i * 2`. For
 * those the whole text is first translated to postfix with no side effect,
 * then evaluated on a value stack. Operands are read in text order and each
 * operator is applied right after its right operand, just as the recursive
 * evaluator does, so variable reads, division errors and their messages
 * happen in the same order. Anything else (assignment, ++/--, && || ?: ,
 * **, subscripts, other bases, any syntax error) is declined before
 * anything is evaluated, and the recursive evaluator runs instead.
 */
#define FLAT_MAX 32

enum { F_NUM, F_VAR, F_BIN, F_UN };

typedef struct fitem {
  unsigned char kind;
  int op;
  size_t pos, len; /* F_VAR: the name; F_BIN: the byte after the operator */
  int64_t val;
} fitem;

#define FLAT_UNARY_PREC 11

/* Translate s[0..n) to postfix in out[]; the count, or -1 to decline. */
static int flat_compile(const char *str, size_t n, fitem *out) {
  const unsigned char *s = (const unsigned char *)str;
  struct {
    int op, prec;
    size_t pos;
  } st[FLAT_MAX];
  int ns = 0, no = 0, want_operand = 1;
  size_t i = 0;
  for (;;) {
    while (i < n && is_ws(s[i]))
      i++;
    if (want_operand) {
      if (i >= n)
        return -1;
      int c = s[i];
      if (no >= FLAT_MAX)
        return -1;
      if (var_start(c)) {
        size_t st0 = i;
        while (i < n && var_char(s[i]))
          i++;
        if (i < n && s[i] == '[')
          return -1;
        out[no].kind = F_VAR;
        out[no].pos = st0;
        out[no].len = i - st0;
        no++;
        want_operand = 0;
      } else if (is_digit(c)) {
        size_t st0 = i;
        uint64_t v = 0;
        while (i < n && is_digit(s[i]))
          v = v * 10 + (uint64_t)(s[i++] - '0');
        /* octal, hex and base# constants go the long way */
        if ((i < n &&
             (is_alpha(s[i]) || s[i] == '#' || s[i] == '@' || s[i] == '_')) ||
            (s[st0] == '0' && i - st0 > 1))
          return -1;
        out[no].kind = F_NUM;
        out[no].val = (int64_t)v;
        no++;
        want_operand = 0;
      } else if (c == '(' || c == '-' || c == '+' || c == '!' || c == '~') {
        /* ++ and -- mean too many things (pre-increment, double sign) */
        int c1 = i + 1 < n ? s[i + 1] : 0;
        if (ns >= FLAT_MAX || (c != '(' && (c1 == '=' || c1 == c)))
          return -1;
        st[ns].op = c;
        st[ns].prec = c == '(' ? 0 : FLAT_UNARY_PREC;
        st[ns].pos = i;
        ns++;
        i++;
      } else {
        return -1;
      }
      continue;
    }
    /* want an operator, a ')' or the end */
    int closing = i >= n || s[i] == ')';
    /* A ')' or the end takes every operator down to a '(', the only one
     * stacked with precedence 0. */
    int op = 0, prec = 1;
    size_t w = 1;
    if (!closing) {
      int c = s[i], c1 = i + 1 < n ? s[i + 1] : 0;
      switch (c) {
      case '*':
      case '/':
      case '%':
      case '+':
      case '-':
      case '^':
        /* OP=, ** and the postfix/prefix ++ -- go the long way */
        if (c1 == '=' || (c1 == c && (c == '*' || c == '+' || c == '-')))
          return -1;
        op = c;
        break;
      case '&':
      case '|':
        if (c1 == '=' || c1 == c)
          return -1;
        op = c;
        break;
      case '<':
      case '>':
        if (c1 == c) {
          if (i + 2 < n && s[i + 2] == '=')
            return -1;
          op = c == '<' ? T_LSH : T_RSH;
          w = 2;
        } else if (c1 == '=') {
          op = c == '<' ? T_LEQ : T_GEQ;
          w = 2;
        } else {
          op = c;
        }
        break;
      case '=':
      case '!':
        if (c1 != '=')
          return -1;
        op = c == '=' ? T_EQEQ : T_NEQ;
        w = 2;
        break;
      default:
        return -1;
      }
      prec = bin_prec(op);
    }
    /* Operators stacked that bind at least as tightly go out first. */
    while (ns > 0 && st[ns - 1].prec >= prec) {
      if (no >= FLAT_MAX)
        return -1;
      ns--;
      out[no].kind = st[ns].prec == FLAT_UNARY_PREC ? F_UN : F_BIN;
      out[no].op = st[ns].op;
      out[no].pos = st[ns].pos;
      no++;
    }
    if (closing) {
      if (i >= n)
        return ns == 0 ? no : -1;
      if (ns == 0)
        return -1;
      ns--; /* the '(' */
      i++;
      continue;
    }
    if (ns >= FLAT_MAX)
      return -1;
    i += w;
    st[ns].op = op;
    st[ns].prec = prec;
    st[ns].pos = i;
    ns++;
    want_operand = 1;
  }
}

/* Evaluate s[0..n) if it is in the subset: 1 and *out, or 0 (declined,
 * nothing evaluated). Runtime errors longjmp like the recursive path. */
static int flat_eval(actx *c, const char *s, size_t n, int64_t *out) {
  fitem code[FLAT_MAX];
  int nc = flat_compile(s, n, code);
  if (nc <= 0)
    return 0;
  /* A parser over the whole text, for var_value and error messages; depth
   * as inside subexpr, so nested values hit the same recursion limit. */
  parser p;
  memset(&p, 0, sizeof p);
  p.c = c;
  p.s = s;
  p.len = n;
  c->depth++;
  int64_t vals[FLAT_MAX];
  int nv = 0;
  for (int k = 0; k < nc; k++) {
    const fitem *f = &code[k];
    switch (f->kind) {
    case F_NUM:
      vals[nv++] = f->val;
      break;
    case F_VAR:
      p.t.lasttp = f->pos;
      vals[nv++] = var_value(&p, f->pos, f->len);
      break;
    case F_UN: {
      int64_t v = vals[nv - 1];
      vals[nv - 1] = f->op == '!'   ? !v
                     : f->op == '~' ? ~v
                     : f->op == '-' ? (int64_t)(0 - (uint64_t)v)
                                    : v;
      break;
    }
    default: {
      int64_t a = vals[nv - 2], b = vals[nv - 1];
      nv--;
      if ((f->op == '/' || f->op == '%') && b == 0) {
        /* the error token is what follows the operator */
        size_t after = f->pos;
        while (after < n && is_ws((unsigned char)s[after]))
          after++;
        ar_fail_span(&p, "division by 0", after, n);
      }
      vals[nv - 1] = binop(f->op, a, b);
      break;
    }
    }
  }
  c->depth--;
  *out = vals[0];
  return 1;
}

int sh_arith_eval(arena *a, const sh_arith_env *env, const char *expr,
                  size_t len, int64_t *out, const char **err) {
  /* volatile: read after longjmp */
  actx *volatile c = arena_alloc(a, sizeof *c);
  if (!c) {
    *err = "out of memory";
    return -1;
  }
  memset(c, 0, sizeof *c);
  c->a = a;
  c->env = env;
  if (setjmp(c->jb)) {
    *err = c->err;
    return -1;
  }
  if (!expr || !flat_eval(c, expr, len, out))
    *out = subexpr(c, expr ? expr : "", expr ? len : 0);
  *err = NULL;
  return 0;
}
