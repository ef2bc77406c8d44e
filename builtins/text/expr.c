/*
 * expr.c - GNU expr (coreutils 9.1): evaluate the expression its arguments
 * spell and print the value. Exit status 0 when the value is neither empty
 * nor zero, 1 when it is, 2 for a syntax error, 3 for other errors.
 *
 * Integers are 64-bit: coreutils computes with bignums, expr here reports
 * a value out of that range as an error (status 3) instead of giving it.
 * Comparisons of two integers are exact at any length. The ':' operator
 * and match take a BRE in GNU's dialect (grep's translation to PCRE2,
 * matched through core/regex.h), anchored at the start of the string.
 * length, index, substr and ':' count characters in a UTF-8 locale and
 * bytes in the C locale.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "builtins/search/grep/grep.h"
#include "builtins/textutil.h"
#include "core/regex.h"

const char bi_usage_expr[] = "Usage: expr EXPRESSION\n"
                             "  or:  expr OPTION";
const char bi_help_expr[] =
    "Evaluate EXPRESSION, given as separate arguments, and print its value.\n"
    "\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n"
    "\n"
    "Operators, from the loosest binding to the tightest (quote the ones\n"
    "the shell would take for itself):\n"
    "  ARG1 | ARG2       ARG1 unless it is empty or 0, else ARG2 (else 0)\n"
    "  ARG1 & ARG2       ARG1 when neither is empty or 0, else 0\n"
    "  ARG1 < ARG2       comparisons: < <= = == != >= >, numeric when both\n"
    "                    are integers, else of the strings; 1 true, 0 false\n"
    "  ARG1 + ARG2       sum; - difference\n"
    "  ARG1 * ARG2       product; / quotient; % remainder\n"
    "  STRING : REGEXP   match REGEXP (a basic regular expression) at the\n"
    "                    start of STRING: the text of \\( \\) if the REGEXP\n"
    "                    has one, else the number of characters matched\n"
    "  match STRING REGEXP    the same as STRING : REGEXP\n"
    "  substr STRING POS LENGTH  LENGTH characters of STRING from POS (1 is\n"
    "                    the first)\n"
    "  index STRING CHARS     where in STRING the first of CHARS is, or 0\n"
    "  length STRING     the number of characters of STRING\n"
    "  + TOKEN           TOKEN as a string, even if it is a keyword\n"
    "  ( EXPRESSION )    grouping\n"
    "\n"
    "Exit status: 0 if the value is neither empty nor 0, 1 if it is, 2 for\n"
    "an invalid expression, 3 for another error (such as an integer out of\n"
    "the 64-bit range).\n";

enum { EX_DEPTH_MAX = 512 };

typedef struct ev {
  int isint;
  int64_t i;
  const char *s;
} ev;

typedef struct ex {
  bi_ctx *c;
  char **args;
  int n, pos;
  int status; /* 0 while fine; else the exit status, message printed */
  int depth;
  int utf8;
  int noeval; /* inside the side of | or & that is not evaluated */
} ex;

static ev *ev_int(ex *x, int64_t i) {
  ev *v = arena_alloc(x->c->scratch, sizeof *v);
  if (!v) {
    if (!x->status) {
      bi_error(x->c, "%s", bi_strerror(ENOMEM));
      x->status = 3;
    }
    return NULL;
  }
  v->isint = 1;
  v->i = i;
  v->s = NULL;
  return v;
}

static ev *ev_str(ex *x, const char *s) {
  ev *v = ev_int(x, 0);
  if (v) {
    v->isint = 0;
    v->s = s;
  }
  return v;
}

static const char *to_str(ex *x, ev *v) {
  if (!v->isint)
    return v->s;
  char tmp[32];
  snprintf(tmp, sizeof tmp, "%lld", (long long)v->i);
  const char *s = arena_strdup(x->c->scratch, tmp);
  if (!s && !x->status) {
    bi_error(x->c, "%s", bi_strerror(ENOMEM));
    x->status = 3;
  }
  return s ? s : "";
}

static int looks_int(const char *s) {
  s += *s == '-';
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

static int is_null(ev *v) {
  if (v->isint)
    return v->i == 0;
  const char *s = v->s;
  if (!*s)
    return 1;
  s += *s == '-';
  do {
    if (*s != '0')
      return 0;
  } while (*++s);
  return 1;
}

static int fail(ex *x, int status, const char *fmt, const char *arg) {
  if (!x->status) {
    if (arg)
      bi_error(x->c, fmt, tu_quote(x->c, arg));
    else
      bi_error(x->c, "%s", fmt);
    x->status = status;
  }
  return -1;
}

/* The value as an integer: 1, 0 when it is not one (no message), or -1
 * when it is out of range (message printed). */
static int to_int(ex *x, ev *v, int64_t *out) {
  if (v->isint) {
    *out = v->i;
    return 1;
  }
  if (!looks_int(v->s))
    return 0;
  const char *s = v->s;
  int neg = *s == '-';
  s += neg;
  uint64_t acc = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; *s; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (acc > (lim - d) / 10) {
      if (!x->status) {
        bi_error(x->c, "%s: %s", v->s, bi_strerror(ERANGE));
        x->status = 3;
      }
      return -1;
    }
    acc = acc * 10 + d;
  }
  *out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
  return 1;
}

/* Compare two integer strings exactly, whatever their length. */
static int cmp_intstr(const char *a, const char *b) {
  int na = *a == '-', nb = *b == '-';
  a += na;
  b += nb;
  while (*a == '0' && a[1])
    a++;
  while (*b == '0' && b[1])
    b++;
  if (!strcmp(a, "0"))
    na = 0;
  if (!strcmp(b, "0"))
    nb = 0;
  if (na != nb)
    return na ? -1 : 1;
  size_t la = strlen(a), lb = strlen(b);
  int r = la != lb ? (la < lb ? -1 : 1) : strcmp(a, b);
  if (r > 0)
    r = 1;
  else if (r < 0)
    r = -1;
  return na ? -r : r;
}

static int next_is(ex *x, const char *s) {
  if (x->pos < x->n && !strcmp(x->args[x->pos], s)) {
    x->pos++;
    return 1;
  }
  return 0;
}

/* Characters in s[0..n): bytes, or UTF-8 characters. */
static size_t nchars(ex *x, const char *s, size_t n) {
  if (!x->utf8)
    return n;
  size_t k = 0;
  for (size_t i = 0; i < n; k++) {
    uint32_t cp;
    i += tu_utf8_get(s + i, n - i, &cp);
  }
  return k;
}

/* Byte offset of character number k (0-based) of s, or strlen(s). */
static size_t char_off(ex *x, const char *s, size_t k) {
  size_t n = strlen(s);
  if (!x->utf8)
    return k < n ? k : n;
  size_t i = 0;
  for (; i < n && k; k--) {
    uint32_t cp;
    i += tu_utf8_get(s + i, n - i, &cp);
  }
  return i;
}

static ev *ex_or(ex *x);

/* STRING : REGEXP */
static ev *docolon(ex *x, ev *sv, ev *pv) {
  bi_ctx *c = x->c;
  if (x->noeval)
    return ev_int(x, 0);
  const char *s = to_str(x, sv), *p = to_str(x, pv);
  if (x->status)
    return NULL;
  buf pt;
  buf_init(&pt, c->m);
  int ng = 0, br = 0;
  int utf8 = x->utf8 && gr_utf8_valid(p, strlen(p));
  if (gr_translate(c, &pt, p, strlen(p), 0, 0, utf8, 0, 0, &ng, &br) < 0) {
    buf_free(&pt);
    x->status = 2;
    return NULL;
  }
  rx_env env;
  if (rx_env_init(&env, c->m, 0) < 0) {
    buf_free(&pt);
    fail(x, 3, bi_strerror(ENOMEM), NULL);
    return NULL;
  }
  env.bud = c->bud;
  rx r;
  int ec = 0;
  size_t eo;
  uint32_t opts = PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY;
  if (utf8)
    opts |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_UCP;
  int rc = rx_compile(&env, &r, pt.data ? pt.data : "", pt.len, opts,
                      RX_POSIX | RX_NOJIT | (ng ? RX_CAPS : 0), NULL, &ec, &eo);
  buf_free(&pt);
  if (rc < 0) {
    rx_env_free(&env);
    if (ec == PCRE2_ERROR_NOMEMORY || !ec) {
      fail(x, 3, bi_strerror(ENOMEM), NULL);
    } else {
      PCRE2_UCHAR m[256];
      pcre2_get_error_message(ec, m, sizeof m);
      bi_error(c, "%s", (const char *)m);
      x->status = 2;
    }
    return NULL;
  }
  size_t ms = 0, me = 0;
  rc = rx_search(&r, s, strlen(s), 0, PCRE2_ANCHORED,
                 ng ? RX_GROUPS : RX_EXTENT, &ms, &me);
  ev *v = NULL;
  if (rc < 0) {
    if (rc != RX_STOPPED) {
      char m[128];
      bi_error(c, "%s", rx_strerror(rc, m, sizeof m));
    }
    x->status = 3;
  } else if (ng) {
    const char *g = "";
    if (rc == 1) {
      uint32_t cnt;
      PCRE2_SIZE *ov = rx_ovector(&r, &cnt);
      if (cnt > 1 && ov[2] != PCRE2_UNSET)
        g = arena_strndup(c->scratch, s + ov[2], ov[3] - ov[2]);
    }
    v = g ? ev_str(x, g) : NULL;
    if (!g)
      fail(x, 3, bi_strerror(ENOMEM), NULL);
  } else {
    v = ev_int(x, rc == 1 ? (int64_t)nchars(x, s, me) : 0);
  }
  rx_free(&r);
  rx_env_free(&env);
  return v;
}

/* Primaries: ( EXPR ), a token. */
static ev *ex_prim(ex *x) {
  if (x->status)
    return NULL;
  if (x->pos >= x->n) {
    fail(x, 2, "syntax error: missing argument after %s", x->args[x->pos - 1]);
    return NULL;
  }
  if (next_is(x, "(")) {
    if (++x->depth > EX_DEPTH_MAX) {
      fail(x, 3, "expression nested too deeply", NULL);
      return NULL;
    }
    ev *v = ex_or(x);
    x->depth--;
    if (x->status)
      return NULL;
    if (x->pos >= x->n) {
      fail(x, 2, "syntax error: expecting ')' after %s", x->args[x->pos - 1]);
      return NULL;
    }
    if (!next_is(x, ")")) {
      fail(x, 2, "syntax error: expecting ')' instead of %s", x->args[x->pos]);
      return NULL;
    }
    return v;
  }
  if (next_is(x, ")")) {
    fail(x, 2, "syntax error: unexpected ')'", NULL);
    return NULL;
  }
  return ev_str(x, x->args[x->pos++]);
}

static ev *ex_kw1(ex *x);

/* Keywords: + TOKEN, length, match, index, substr (which nest: their
 * depth is bounded with the parentheses'). */
static ev *ex_kw(ex *x) {
  if (x->status)
    return NULL;
  if (++x->depth > EX_DEPTH_MAX) {
    fail(x, 3, "expression nested too deeply", NULL);
    return NULL;
  }
  ev *v = ex_kw1(x);
  x->depth--;
  return v;
}

static ev *ex_kw1(ex *x) {
  if (x->status)
    return NULL;
  if (budget_poll(x->c->bud)) {
    x->status = 3;
    return NULL;
  }
  if (next_is(x, "+")) {
    if (x->pos >= x->n) {
      fail(x, 2, "syntax error: missing argument after %s",
           x->args[x->pos - 1]);
      return NULL;
    }
    return ev_str(x, x->args[x->pos++]);
  }
  if (next_is(x, "length")) {
    ev *r = ex_kw(x);
    if (!r)
      return NULL;
    const char *s = to_str(x, r);
    return ev_int(x, (int64_t)nchars(x, s, strlen(s)));
  }
  if (next_is(x, "match")) {
    ev *l = ex_kw(x);
    ev *r = l ? ex_kw(x) : NULL;
    return r ? docolon(x, l, r) : NULL;
  }
  if (next_is(x, "index")) {
    ev *l = ex_kw(x);
    ev *r = l ? ex_kw(x) : NULL;
    if (!r)
      return NULL;
    const char *s = to_str(x, l), *cs = to_str(x, r);
    size_t n = strlen(s), cn = strlen(cs), k = 0;
    for (size_t i = 0, len; i < n; i += len, k++) {
      uint32_t cp;
      len = x->utf8 ? tu_utf8_get(s + i, n - i, &cp) : 1;
      for (size_t j = 0, jl; j < cn; j += jl) {
        jl = x->utf8 ? tu_utf8_get(cs + j, cn - j, &cp) : 1;
        if (jl == len && !memcmp(s + i, cs + j, len))
          return ev_int(x, (int64_t)k + 1);
      }
    }
    return ev_int(x, 0);
  }
  if (next_is(x, "substr")) {
    ev *l = ex_kw(x);
    ev *p = l ? ex_kw(x) : NULL;
    ev *n = p ? ex_kw(x) : NULL;
    if (!n)
      return NULL;
    const char *s = to_str(x, l);
    int64_t pos, len;
    int a = to_int(x, p, &pos), b = to_int(x, n, &len);
    if (a < 0 || b < 0)
      return NULL;
    size_t slen = nchars(x, s, strlen(s));
    if (!a || !b || pos <= 0 || len <= 0 || (uint64_t)pos > slen)
      return ev_str(x, "");
    size_t from = char_off(x, s, (size_t)pos - 1);
    uint64_t want = (uint64_t)len;
    if (want > slen - (size_t)pos + 1)
      want = slen - (size_t)pos + 1;
    size_t to = from + char_off(x, s + from, (size_t)want);
    const char *r = arena_strndup(x->c->scratch, s + from, to - from);
    if (!r) {
      fail(x, 3, bi_strerror(ENOMEM), NULL);
      return NULL;
    }
    return ev_str(x, r);
  }
  return ex_prim(x);
}

static ev *ex_colon(ex *x) {
  ev *l = ex_kw(x);
  while (l && next_is(x, ":")) {
    ev *r = ex_kw(x);
    l = r ? docolon(x, l, r) : NULL;
  }
  return l;
}

static ev *arith(ex *x, ev *l, ev *r, char op) {
  int64_t a, b, v = 0;
  if (x->noeval)
    return ev_int(x, 0);
  int ra = to_int(x, l, &a), rb = ra > 0 ? to_int(x, r, &b) : 0;
  if (ra < 0 || rb < 0)
    return NULL;
  if (!ra || !rb) {
    fail(x, 2, "non-integer argument", NULL);
    return NULL;
  }
  int over = 0;
  switch (op) {
  case '+':
    over = __builtin_add_overflow(a, b, &v);
    break;
  case '-':
    over = __builtin_sub_overflow(a, b, &v);
    break;
  case '*':
    over = __builtin_mul_overflow(a, b, &v);
    break;
  default:
    if (b == 0) {
      fail(x, 2, "division by zero", NULL);
      return NULL;
    }
    if (a == INT64_MIN && b == -1) {
      if (op == '%')
        v = 0;
      else
        over = 1;
    } else {
      v = op == '/' ? a / b : a % b;
    }
  }
  if (over) {
    char m[64];
    snprintf(m, sizeof m, "%c: %s", op, bi_strerror(ERANGE));
    fail(x, 3, m, NULL);
    return NULL;
  }
  return ev_int(x, v);
}

static ev *ex_mul(ex *x) {
  ev *l = ex_colon(x);
  while (l) {
    char op = next_is(x, "*")   ? '*'
              : next_is(x, "/") ? '/'
              : next_is(x, "%") ? '%'
                                : 0;
    if (!op)
      break;
    ev *r = ex_colon(x);
    l = r ? arith(x, l, r, op) : NULL;
  }
  return l;
}

static ev *ex_add(ex *x) {
  ev *l = ex_mul(x);
  while (l) {
    char op = next_is(x, "+") ? '+' : next_is(x, "-") ? '-' : 0;
    if (!op)
      break;
    ev *r = ex_mul(x);
    l = r ? arith(x, l, r, op) : NULL;
  }
  return l;
}

static ev *ex_cmp(ex *x) {
  static const char *const ops[] = {"<", "<=", "=", "==", "!=", ">=", ">"};
  ev *l = ex_add(x);
  while (l) {
    int op = -1;
    for (int i = 0; i < 7 && op < 0; i++)
      if (next_is(x, ops[i]))
        op = i;
    if (op < 0)
      break;
    ev *r = ex_add(x);
    if (!r)
      return NULL;
    const char *a = to_str(x, l), *b = to_str(x, r);
    int k = looks_int(a) && looks_int(b) ? cmp_intstr(a, b) : strcmp(a, b);
    int t = 0;
    switch (op) {
    case 0:
      t = k < 0;
      break;
    case 1:
      t = k <= 0;
      break;
    case 2:
    case 3:
      t = k == 0;
      break;
    case 4:
      t = k != 0;
      break;
    case 5:
      t = k >= 0;
      break;
    default:
      t = k > 0;
    }
    l = ev_int(x, t);
  }
  return l;
}

static ev *ex_and(ex *x) {
  ev *l = ex_cmp(x);
  while (l && next_is(x, "&")) {
    int skip = is_null(l);
    x->noeval += skip;
    ev *r = ex_cmp(x);
    x->noeval -= skip;
    if (!r)
      return NULL;
    if (is_null(l) || is_null(r))
      l = ev_int(x, 0);
  }
  return l;
}

static ev *ex_or(ex *x) {
  ev *l = ex_and(x);
  while (l && next_is(x, "|")) {
    int skip = !is_null(l);
    x->noeval += skip;
    ev *r = ex_and(x);
    x->noeval -= skip;
    if (!r)
      return NULL;
    if (is_null(l))
      l = is_null(r) ? ev_int(x, 0) : r;
  }
  return l;
}

int bi_expr(bi_ctx *c) {
  int first = 1;
  if (c->argc == 2 && !strcmp(c->argv[1], "--help"))
    return bi_print_help(c);
  if (c->argc == 2 && !strcmp(c->argv[1], "--version"))
    return bi_print_version(c) ? 3 : 0;
  if (c->argc > 1 && !strcmp(c->argv[1], "--"))
    first = 2;
  ex x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.args = c->argv + first;
  x.n = c->argc - first;
  x.utf8 = tu_utf8_locale(c);
  if (x.n <= 0) {
    bi_error(c, "missing operand");
    bi_try_help(c);
    return 2;
  }
  ev *v = ex_or(&x);
  if (!x.status && x.pos < x.n)
    fail(&x, 2, "syntax error: unexpected argument %s", x.args[x.pos]);
  if (x.status || !v)
    return x.status ? x.status : 3;
  const char *s = to_str(&x, v);
  if (x.status)
    return x.status;
  writer w;
  wr_init(&w, c->out);
  wr_puts(&w, s);
  wr_putc(&w, '\n');
  if (wr_flush(&w))
    return bi_stream_status(w.err) == 141 ? 141 : 3;
  return is_null(v) ? 1 : 0;
}
