/* parse.c - recursive descent over awk's grammar, building the tree in the
 * arena. Variables become global or frame slots here, so the interpreter
 * never looks a name up. A syntax error longjmps out: the tree lives in the
 * arena and regexes in the cache, both freed wholesale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/awk/awk.h"
#include "core/fiber.h"

static node *expr(awk *A);
static node *stmt(awk *A);
static node *ternary(awk *A);
static node *unary(awk *A);
static node *switch_stmt(awk *A);
static void parse_error(awk *A, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* gawk's report: the source line, then a caret under the token where the
 * parse failed and what went wrong. */
static void synerr(awk *A) {
  if (!A->syntax_err) {
    buf b;
    buf_init(&b, A->m);
    const char *s = A->src;
    size_t n = A->srclen, at;
    const char *why = A->lexerr ? A->lexerr : "syntax error";
    if (A->lexerr && A->lexerr[0] == '@') {
      int line = 1;
      for (size_t i = 0; i < A->tokend && i < n; i++)
        line += s[i] == '\n';
      awk_where(A, &b, line);
      buf_printf(&b, "error: %s\n", A->lexerr);
    } else {
      /* gawk's caret: under the start of the token it stopped at */
      at = A->lexerr ? (A->tokend ? A->tokend - 1 : 0) : A->tokstart;
      if (!A->lexerr && (A->tok == T_EOF || A->tok == T_NL))
        why = "unexpected newline or end of string";
      if (A->why)
        why = A->why;
      if (at > n)
        at = n;
      size_t ls = at;
      while (ls > 0 && s[ls - 1] != '\n')
        ls--;
      size_t le = ls;
      while (le < n && s[le] != '\n')
        le++;
      int line = 1;
      for (size_t i = 0; i < ls; i++)
        line += s[i] == '\n';
      if (!A->lexerr && A->tok == T_NL)
        line++; /* gawk counts the newline it stopped at */
      awk_where(A, &b, line);
      buf_append(&b, s + ls, le - ls);
      buf_putc(&b, '\n');
      awk_where(A, &b, line);
      for (size_t i = ls; i < at; i++)
        buf_putc(&b, s[i] == '\t' ? '\t' : ' ');
      buf_printf(&b, "^ %s\n", why);
    }
    stream_write(A->c->err, b.data ? b.data : "", b.len);
    buf_free(&b);
  }
  A->syntax_err = 1;
  longjmp(*(jmp_buf *)A->pj, 1);
}

/* Called on the way into each recursive rule: nesting ends with an error
 * while the fiber still has stack to spare, however the frames are sized. */
static void deeper(awk *A) {
  if (stack_left() >= STACK_RESERVE)
    return;
  if (!A->syntax_err) {
    buf b;
    buf_init(&b, A->m);
    awk_where(A, &b, A->line);
    buf_puts(&b, "fatal: program nested too deeply\n");
    stream_write(A->c->err, b.data ? b.data : "", b.len);
    buf_free(&b);
  }
  A->syntax_err = 2; /* a limit, not a mistake: exit 2 */
  longjmp(*(jmp_buf *)A->pj, 1);
}

static void next(awk *A) {
  if (awk_lex(A) < 0)
    synerr(A);
}

static void expect(awk *A, int t) {
  if (A->tok != t)
    synerr(A);
  next(A);
}

static void opt_nl(awk *A) {
  while (A->tok == T_NL)
    next(A);
}

static node *mk(awk *A, int op, node *a, node *b) {
  node *e = arena_calloc(&A->ar, sizeof *e);
  if (!e)
    synerr(A);
  e->op = (uint8_t)op;
  e->line = A->line;
  e->a = a;
  e->b = b;
  return e;
}

static astr *const_str(awk *A, const char *p, size_t n) {
  astr *s = arena_alloc(&A->ar, sizeof *s + n + 1);
  if (!s)
    synerr(A);
  s->refs = 1u << 30; /* never freed through refcounting */
  s->len = s->cap = (uint32_t)n;
  memcpy(s->p, p, n);
  s->p[n] = 0;
  return s;
}

int awk_global(awk *A, const char *name) {
  for (int i = 0; i < A->ngl; i++)
    if (strcmp(A->gnames[i], name) == 0)
      return i;
  if (A->ngl == A->capgl) {
    int nc = A->capgl ? A->capgl * 2 : 64;
    char **g = mem_realloc(A->m, A->gnames, (size_t)nc * sizeof *g);
    if (!g)
      return -1;
    A->gnames = g;
    A->capgl = nc;
  }
  if (!(A->gnames[A->ngl] = arena_strdup(&A->ar, name)))
    return -1;
  return A->ngl++;
}

static int func_index(awk *A, const char *name) {
  for (int i = 0; i < A->nfuncs; i++)
    if (strcmp(A->funcs[i].name, name) == 0)
      return i;
  if (A->nfuncs == A->capfuncs) {
    int nc = A->capfuncs ? A->capfuncs * 2 : 16;
    afunc *f = mem_realloc(A->m, A->funcs, (size_t)nc * sizeof *f);
    if (!f)
      synerr(A);
    A->funcs = f;
    A->capfuncs = nc;
  }
  afunc *f = &A->funcs[A->nfuncs];
  memset(f, 0, sizeof *f);
  f->name = arena_strdup(&A->ar, name);
  f->line = A->line;
  return A->nfuncs++;
}

/* A variable reference by name: a parameter of the function being parsed,
 * else a global. */
static node *var_node(awk *A, const char *name) {
  node *e = mk(A, N_VAR, NULL, NULL);
  if (A->curfn)
    for (int i = 0; i < A->curfn->nparams; i++)
      if (strcmp(A->curfn->params[i], name) == 0) {
        e->local = 1;
        e->slot = i;
        return e;
      }
  for (int i = 0; i < A->nfuncs; i++)
    if (strcmp(A->funcs[i].name, name) == 0)
      synerr(A); /* a function name used as a variable */
  e->slot = awk_global(A, name);
  if (e->slot < 0)
    synerr(A);
  if (e->slot == SV_RT)
    A->uses_rt = 1;
  return e;
}

static int is_lvalue(node *e) {
  return e && (e->op == N_VAR || e->op == N_FIELD || e->op == N_INDEX);
}

static node *expr_list(awk *A, int end) {
  node *head = NULL, **tail = &head;
  if (A->tok == end)
    return NULL;
  for (;;) {
    *tail = expr(A);
    tail = &(*tail)->next;
    if (A->tok != T_COMMA)
      break;
    next(A);
    opt_nl(A);
  }
  return head;
}

/* name[...] or name */
static node *var_or_index(awk *A) {
  char *name = arena_strdup(&A->ar, buf_cstr(&A->tstr));
  next(A);
  node *v = var_node(A, name);
  if (A->tok != T_LBRACK)
    return v;
  next(A);
  int save = A->in_print_args, sin = A->no_in;
  A->in_print_args = 0;
  A->no_in = 0;
  node *subs = expr_list(A, T_RBRACK);
  A->in_print_args = save;
  A->no_in = sin;
  if (!subs)
    synerr(A);
  expect(A, T_RBRACK);
  node *e = mk(A, N_INDEX, v, subs);
  return e;
}

/* An lvalue after getline: $expr, name, name[...] (optional). */
static node *opt_lvalue(awk *A) {
  if (A->tok == T_DOLLAR) {
    next(A);
    node *e;
    if (A->tok == T_INCR || A->tok == T_DECR || A->tok == T_SUB ||
        A->tok == T_ADD || A->tok == T_NOT)
      e = unary(A);
    else
      e = NULL;
    if (!e) {
      extern node *awk_primary_(awk * A);
      e = awk_primary_(A);
    }
    return mk(A, N_FIELD, e, NULL);
  }
  if (A->tok == T_NAME)
    return var_or_index(A);
  return NULL;
}

static node *postfix(awk *A);

/* getline's file operand: a primary with $ and (), no concatenation. */
static node *getline_src(awk *A) {
  return postfix(A);
}

node *awk_primary_(awk *A);
node *awk_primary_(awk *A) {
  node *e;
  switch (A->tok) {
  case T_NUM:
    e = mk(A, N_NUM, NULL, NULL);
    e->v = av_num(A->tnum);
    next(A);
    return e;
  case T_STR:
    e = mk(A, N_STR, NULL, NULL);
    e->v.t = V_STR;
    e->v.s = const_str(A, A->tstr.data ? A->tstr.data : "", A->tstr.len);
    next(A);
    return e;
  case T_ERE:
    e = mk(A, N_ERE, NULL, NULL);
    e->re = re_compile(A, A->tstr.data ? A->tstr.data : "", A->tstr.len);
    if (!e->re) {
      A->syntax_err = 1; /* re_compile said why */
      synerr(A);
    }
    next(A);
    return e;
  case T_LPAREN: {
    next(A);
    int save = A->in_print_args, sin = A->no_in;
    A->in_print_args = 0;
    A->no_in = 0;
    opt_nl(A);
    node *x = expr(A);
    opt_nl(A);
    if (A->tok == T_COMMA) {
      next(A);
      opt_nl(A);
      x->next = expr_list(A, T_RPAREN);
      A->in_print_args = save;
      A->no_in = sin;
      opt_nl(A);
      expect(A, T_RPAREN);
      if (A->tok == T_IN) {
        next(A);
        if (A->tok != T_NAME)
          synerr(A);
        char *name = arena_strdup(&A->ar, buf_cstr(&A->tstr));
        next(A);
        e = mk(A, N_IN, x, var_node(A, name));
        return e;
      }
      e = mk(A, N_GROUP, x, NULL);
      e->sub = 1; /* a list: only valid as print's arguments */
      return e;
    }
    A->in_print_args = save;
    A->no_in = sin;
    expect(A, T_RPAREN);
    return mk(A, N_GROUP, x, NULL);
  }
  case T_DOLLAR:
    next(A);
    if (A->tok == T_INCR || A->tok == T_DECR || A->tok == T_SUB ||
        A->tok == T_ADD || A->tok == T_NOT)
      e = unary(A);
    else
      e = awk_primary_(A);
    return mk(A, N_FIELD, e, NULL);
  case T_INCR:
  case T_DECR: {
    int op = A->tok == T_INCR ? N_PREINC : N_PREDEC;
    next(A);
    node *lv = opt_lvalue(A);
    if (!lv)
      synerr(A);
    return mk(A, op, lv, NULL);
  }
  case T_NAME:
    return var_or_index(A);
  case T_FUNC_NAME: {
    int fi = func_index(A, buf_cstr(&A->tstr));
    next(A);
    expect(A, T_LPAREN);
    int save = A->in_print_args, sin = A->no_in;
    A->in_print_args = 0;
    A->no_in = 0;
    opt_nl(A);
    node *args = expr_list(A, T_RPAREN);
    A->in_print_args = save;
    A->no_in = sin;
    opt_nl(A);
    expect(A, T_RPAREN);
    e = mk(A, N_CALL, args, NULL);
    e->slot = fi;
    return e;
  }
  case T_BUILTIN: {
    int bi = A->tbi;
    next(A);
    e = mk(A, N_BUILTIN, NULL, NULL);
    e->sub = (uint8_t)bi;
    if (A->tok == T_LPAREN) {
      next(A);
      int save = A->in_print_args, sin = A->no_in;
      A->in_print_args = 0;
      A->no_in = 0;
      opt_nl(A);
      e->a = expr_list(A, T_RPAREN);
      A->in_print_args = save;
      A->no_in = sin;
      opt_nl(A);
      expect(A, T_RPAREN);
    } else if (bi != B_LENGTH) {
      synerr(A);
    }
    int n = 0;
    for (node *x = e->a; x; x = x->next)
      n++;
    e->slot = n;
    return e;
  }
  case T_GETLINE: {
    next(A);
    e = mk(A, N_GETLINE, opt_lvalue(A), NULL);
    e->sub = G_SIMPLE;
    if (A->tok == T_LT) {
      next(A);
      e->sub = G_FILE;
      e->b = getline_src(A);
    }
    return e;
  }
  case T_SUB:
  case T_ADD:
  case T_NOT:
    return unary(A);
  default:
    synerr(A);
    return NULL;
  }
}

static node *postfix(awk *A) {
  node *e = awk_primary_(A);
  if (is_lvalue(e) && (A->tok == T_INCR || A->tok == T_DECR)) {
    e = mk(A, A->tok == T_INCR ? N_POSTINC : N_POSTDEC, e, NULL);
    next(A);
  }
  return e;
}

static node *power(awk *A) {
  node *e = postfix(A);
  if (A->tok == T_POW) {
    next(A);
    node *r;
    if (A->tok == T_SUB || A->tok == T_ADD || A->tok == T_NOT)
      r = unary(A);
    else
      r = power(A); /* right associative */
    e = mk(A, N_BIN, e, r);
    e->sub = T_POW;
  }
  return e;
}

static node *unary(awk *A) {
  deeper(A);
  if (A->tok == T_NOT) {
    next(A);
    return mk(A, N_NOT, unary(A), NULL);
  }
  if (A->tok == T_SUB) {
    next(A);
    return mk(A, N_NEG, unary(A), NULL);
  }
  if (A->tok == T_ADD) {
    next(A);
    return mk(A, N_UPLUS, unary(A), NULL);
  }
  return power(A);
}

/* gawk refuses a constant zero divisor while parsing (and goes on, to
 * report what else is wrong). */
static void const_div0(awk *A, int op) {
  buf b;
  buf_init(&b, A->m);
  awk_where(A, &b, A->line);
  buf_printf(&b, "error: division by zero attempted%s\n",
             op == T_MOD ? " in `%'" : "");
  stream_write(A->c->err, b.data ? b.data : "", b.len);
  buf_free(&b);
  A->parse_errs++;
}

/* sub [op sub]... for the left-associative arithmetic operators ops (T_EOF
 * ends the list). */
static node *arith(awk *A, const int *ops, node *(*sub)(awk *)) {
  node *e = sub(A);
  for (;;) {
    int op = A->tok, k = 0;
    while (ops[k] != T_EOF && ops[k] != op)
      k++;
    if (ops[k] == T_EOF)
      return e;
    next(A);
    e = mk(A, N_BIN, e, sub(A));
    e->sub = (uint8_t)op;
    if ((op == T_DIV || op == T_MOD) && e->b->op == N_NUM && e->b->v.n == 0)
      const_div0(A, op);
  }
}

static node *mul(awk *A) {
  static const int ops[] = {T_MUL, T_DIV, T_MOD, T_EOF};
  return arith(A, ops, unary);
}

static node *additive(awk *A) {
  static const int ops[] = {T_ADD, T_SUB, T_EOF};
  return arith(A, ops, mul);
}

static int starts_concat(awk *A) {
  switch (A->tok) {
  case T_NUM:
  case T_STR:
  case T_ERE:
  case T_LPAREN:
  case T_DOLLAR:
  case T_NAME:
  case T_FUNC_NAME:
  case T_BUILTIN:
  case T_INCR:
  case T_DECR:
  case T_NOT:
    return 1;
  case T_IN:
    return 0;
  default:
    return 0;
  }
}

/* Is the text after a '|' the word getline? (print's `| cmd` otherwise) */
static int pipe_getline_follows(awk *A) {
  size_t i = A->pos;
  while (i < A->srclen && (A->src[i] == ' ' || A->src[i] == '\t'))
    i++;
  return A->srclen - i >= 7 && memcmp(A->src + i, "getline", 7) == 0 &&
         (i + 7 >= A->srclen ||
          !(A->src[i + 7] == '_' ||
            (A->src[i + 7] >= 'a' && A->src[i + 7] <= 'z') ||
            (A->src[i + 7] >= 'A' && A->src[i + 7] <= 'Z') ||
            (A->src[i + 7] >= '0' && A->src[i + 7] <= '9')));
}

static node *concat(awk *A) {
  node *e = additive(A);
  for (;;) {
    if (A->tok == T_PIPE && pipe_getline_follows(A)) {
      next(A);
      next(A); /* getline */
      node *g = mk(A, N_GETLINE, opt_lvalue(A), e);
      g->sub = G_CMD;
      e = g;
      continue;
    }
    if (!starts_concat(A))
      break;
    if (A->tok == T_NOT) /* `a !~ b` is lexed apart; `a !b` is rare */
      break;
    e = mk(A, N_CONCAT, e, additive(A));
  }
  return e;
}

static node *comparison(awk *A) {
  node *e = concat(A);
  for (;;) {
    int t = A->tok;
    if (t == T_LT || t == T_LE || t == T_NE || t == T_EQ || t == T_GE ||
        (t == T_GT && !A->in_print_args)) {
      next(A);
      e = mk(A, N_CMP, e, concat(A));
      e->sub = (uint8_t)t;
      continue;
    }
    break;
  }
  return e;
}

static node *matching(awk *A) {
  node *e = comparison(A);
  while (A->tok == T_TILDE || A->tok == T_NOMATCH) {
    int neg = A->tok == T_NOMATCH;
    next(A);
    e = mk(A, N_MATCH, e, comparison(A));
    e->sub = (uint8_t)neg;
  }
  return e;
}

static node *in_expr(awk *A) {
  node *e = matching(A);
  while (A->tok == T_IN && !A->no_in) {
    next(A);
    if (A->tok != T_NAME)
      synerr(A);
    char *name = arena_strdup(&A->ar, buf_cstr(&A->tstr));
    next(A);
    e = mk(A, N_IN, e, var_node(A, name));
  }
  return e;
}

/* sub [tok sub]... for && and ||, which a newline may follow. */
static node *logical(awk *A, int tok, int kind, node *(*sub)(awk *)) {
  node *e = sub(A);
  while (A->tok == tok) {
    next(A);
    opt_nl(A);
    e = mk(A, kind, e, sub(A));
  }
  return e;
}

static node *and_expr(awk *A) {
  return logical(A, T_AND, N_AND, in_expr);
}

static node *or_expr(awk *A) {
  return logical(A, T_OR, N_OR, and_expr);
}

static node *ternary(awk *A) {
  node *e = or_expr(A);
  int t = A->tok;
  if (t == T_ASSIGN || t == T_ADD_ASSIGN || t == T_SUB_ASSIGN ||
      t == T_MUL_ASSIGN || t == T_DIV_ASSIGN || t == T_MOD_ASSIGN ||
      t == T_POW_ASSIGN) {
    node *lv = e;
    while (lv->op == N_GROUP && !lv->sub) /* (x) = 1 */
      lv = lv->a;
    if (!is_lvalue(lv))
      synerr(A);
    next(A);
    opt_nl(A);
    e = mk(A, N_ASSIGN, lv, ternary(A));
    e->sub = (uint8_t)t;
    return e;
  }
  if (t == T_QUEST) {
    next(A);
    opt_nl(A);
    node *x = ternary(A);
    opt_nl(A);
    expect(A, T_COLON);
    opt_nl(A);
    node *y = ternary(A);
    e = mk(A, N_COND, e, x);
    e->c = y;
  }
  return e;
}

static node *expr(awk *A) {
  deeper(A);
  return ternary(A);
}

/* Ends a simple statement: ';' or newline, or nothing before '}'. */
static void end_simple(awk *A) {
  if (A->tok == T_SEMI || A->tok == T_NL) {
    next(A);
    return;
  }
  if (A->tok == T_RBRACE || A->tok == T_EOF)
    return;
  synerr(A);
}

/* An error gawk reports without a caret while it goes on parsing. */
static void parse_error(awk *A, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void parse_error(awk *A, const char *fmt, ...) {
  buf b;
  buf_init(&b, A->m);
  awk_where(A, &b, A->line);
  buf_puts(&b, "error: ");
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  buf_putc(&b, '\n');
  stream_write(A->c->err, b.data ? b.data : "", b.len);
  buf_free(&b);
  A->parse_errs++;
}

/* next or nextfile where no record is being read. */
static void misplaced(awk *A, const char *what) {
  parse_error(A, "`%s' used in %s action", what, A->rule);
}

static node *simple_stmt(awk *A) {
  node *s;
  switch (A->tok) {
  case T_PRINT:
  case T_PRINTF: {
    int op = A->tok == T_PRINT ? S_PRINT : S_PRINTF;
    next(A);
    s = mk(A, op, NULL, NULL);
    int save = A->in_print_args;
    A->in_print_args = 1;
    if (A->tok != T_SEMI && A->tok != T_NL && A->tok != T_RBRACE &&
        A->tok != T_GT && A->tok != T_APPEND && A->tok != T_PIPE &&
        A->tok != T_EOF)
      s->a = expr_list(A, -1);
    A->in_print_args = save;
    if (s->a && !s->a->next && s->a->op == N_GROUP && s->a->sub)
      s->a = s->a->a; /* print (a, b) */
    else if (s->a && !s->a->next && s->a->op == N_GROUP)
      s->a = s->a->a;
    if (op == S_PRINTF && !s->a)
      synerr(A);
    if (A->tok == T_GT || A->tok == T_APPEND || A->tok == T_PIPE) {
      s->sub = A->tok == T_GT ? R_FILE : A->tok == T_APPEND ? R_APPEND : R_PIPE;
      next(A);
      A->in_print_args = 1;
      s->b = concat(A);
      A->in_print_args = save;
    }
    return s;
  }
  case T_NEXT:
    if (A->rule && !A->curfn)
      misplaced(A, "next");
    next(A);
    return mk(A, S_NEXT, NULL, NULL);
  case T_NEXTFILE:
    if (A->rule && !A->curfn && strcmp(A->rule, "BEGINFILE") != 0)
      misplaced(A, "nextfile");
    next(A);
    return mk(A, S_NEXTFILE, NULL, NULL);
  case T_EXIT:
    next(A);
    s = mk(A, S_EXIT, NULL, NULL);
    if (A->tok != T_SEMI && A->tok != T_NL && A->tok != T_RBRACE &&
        A->tok != T_EOF)
      s->a = expr(A);
    return s;
  case T_RETURN:
    if (!A->curfn) {
      A->why = "`return' used outside function context";
      synerr(A);
    }
    next(A);
    s = mk(A, S_RETURN, NULL, NULL);
    if (A->tok != T_SEMI && A->tok != T_NL && A->tok != T_RBRACE &&
        A->tok != T_EOF)
      s->a = expr(A);
    return s;
  case T_BREAK:
  case T_CONTINUE:
    if (!A->loops && (A->tok == T_CONTINUE || !A->switches))
      /* gawk says it twice */
      for (int k = 0; k < 2; k++)
        parse_error(A, A->tok == T_BREAK
                           ? "`break' is not allowed outside a loop or switch"
                           : "`continue' is not allowed outside a loop");
    s = mk(A, A->tok == T_BREAK ? S_BREAK : S_CONTINUE, NULL, NULL);
    next(A);
    return s;
  case T_DELETE: {
    next(A);
    if (A->tok != T_NAME)
      synerr(A);
    char *name = arena_strdup(&A->ar, buf_cstr(&A->tstr));
    next(A);
    s = mk(A, S_DELETE, var_node(A, name), NULL);
    if (A->tok == T_LBRACK) {
      next(A);
      s->b = expr_list(A, T_RBRACK);
      expect(A, T_RBRACK);
    }
    return s;
  }
  default:
    return mk(A, S_EXPR, expr(A), NULL);
  }
}

static node *block(awk *A) {
  expect(A, T_LBRACE);
  node *head = NULL, **tail = &head;
  for (;;) {
    while (A->tok == T_NL || A->tok == T_SEMI)
      next(A);
    if (A->tok == T_RBRACE)
      break;
    node *s = stmt(A);
    if (s) {
      *tail = s;
      tail = &s->next;
    }
  }
  next(A);
  return mk(A, S_BLOCK, head, NULL);
}

static node *body_stmt(awk *A) {
  opt_nl(A);
  if (A->tok == T_SEMI) {
    next(A);
    return mk(A, S_BLOCK, NULL, NULL);
  }
  return stmt(A);
}

/* A case's constant: a number (signed), a string or a regex. */
static node *case_value(awk *A) {
  int neg = 0;
  if (A->tok == T_SUB || A->tok == T_ADD) {
    neg = A->tok == T_SUB;
    next(A);
    if (A->tok != T_NUM)
      synerr(A);
  }
  if (A->tok != T_NUM && A->tok != T_STR && A->tok != T_ERE)
    synerr(A);
  node *e = awk_primary_(A);
  if (neg)
    e->v.n = -e->v.n;
  return e;
}

/* switch (x) { case C: ... default: ... }, gawk's: the first case equal
 * to x (a regex: matching it), else default, and on to the end or a
 * break. */
static node *switch_stmt(awk *A) {
  next(A);
  expect(A, T_LPAREN);
  node *s = mk(A, S_SWITCH, expr(A), NULL);
  expect(A, T_RPAREN);
  opt_nl(A);
  expect(A, T_LBRACE);
  node **ctail = &s->b;
  int ndef = 0;
  A->switches++;
  for (;;) {
    while (A->tok == T_NL || A->tok == T_SEMI)
      next(A);
    if (A->tok == T_RBRACE)
      break;
    if (A->tok != T_CASE && A->tok != T_DEFAULT)
      synerr(A);
    node *c = mk(A, S_CASE, NULL, NULL);
    if (A->tok == T_DEFAULT) {
      next(A);
      if (ndef++)
        parse_error(A, "duplicate `default' detected in switch body");
    } else {
      next(A);
      c->a = case_value(A);
      for (node *o = s->b; o; o = o->next)
        if (o->a && o->a->op == c->a->op &&
            ((c->a->op == N_NUM && o->a->v.n == c->a->v.n) ||
             (c->a->op == N_STR && o->a->v.s->len == c->a->v.s->len &&
              memcmp(o->a->v.s->p, c->a->v.s->p, c->a->v.s->len) == 0))) {
          char num[64];
          if (c->a->op == N_NUM)
            snprintf(num, sizeof num, "%.6g", c->a->v.n);
          parse_error(A, "duplicate case values in switch body: %s",
                      c->a->op == N_NUM ? num : c->a->v.s->p);
          break;
        }
    }
    expect(A, T_COLON);
    node *head = NULL, **tail = &head;
    for (;;) {
      while (A->tok == T_NL || A->tok == T_SEMI)
        next(A);
      if (A->tok == T_CASE || A->tok == T_DEFAULT || A->tok == T_RBRACE)
        break;
      node *st = stmt(A);
      if (st) {
        *tail = st;
        tail = &st->next;
      }
    }
    c->b = mk(A, S_BLOCK, head, NULL);
    *ctail = c;
    ctail = &c->next;
  }
  A->switches--;
  next(A);
  return s;
}

static node *stmt(awk *A) {
  deeper(A);
  node *s;
  switch (A->tok) {
  case T_LBRACE:
    return block(A);
  case T_IF:
    next(A);
    expect(A, T_LPAREN);
    s = mk(A, S_IF, expr(A), NULL);
    expect(A, T_RPAREN);
    s->b = body_stmt(A);
    {
      /* look past newlines (and one ';') for else */
      size_t pos = A->pos;
      int line = A->line, tok = A->tok, prev = A->prevtok;
      while (A->tok == T_NL || A->tok == T_SEMI)
        next(A);
      if (A->tok == T_ELSE) {
        next(A);
        s->c = body_stmt(A);
      } else if (tok != A->tok) {
        /* no else: the separators we skipped are harmless to drop */
        (void)pos;
        (void)line;
        (void)prev;
      }
    }
    return s;
  case T_WHILE:
    next(A);
    expect(A, T_LPAREN);
    s = mk(A, S_WHILE, expr(A), NULL);
    expect(A, T_RPAREN);
    if (A->tok == T_SEMI) { /* while (x); */
      next(A);
      s->b = mk(A, S_BLOCK, NULL, NULL);
      return s;
    }
    A->loops++;
    s->b = body_stmt(A);
    A->loops--;
    return s;
  case T_DO:
    next(A);
    s = mk(A, S_DO, NULL, NULL);
    A->loops++;
    s->b = body_stmt(A);
    A->loops--;
    while (A->tok == T_NL || A->tok == T_SEMI)
      next(A);
    expect(A, T_WHILE);
    expect(A, T_LPAREN);
    s->a = expr(A);
    expect(A, T_RPAREN);
    end_simple(A);
    return s;
  case T_FOR: {
    next(A);
    expect(A, T_LPAREN);
    node *init = NULL;
    if (A->tok != T_SEMI)
      init = simple_stmt(A);
    if (A->tok == T_RPAREN && init && init->op == S_EXPR &&
        init->a->op == N_IN && !init->a->a->next &&
        (init->a->a->op == N_VAR ||
         (init->a->a->op == N_GROUP && init->a->a->a->op == N_VAR))) {
      next(A);
      node *v = init->a->a->op == N_VAR ? init->a->a : init->a->a->a;
      s = mk(A, S_FORIN, v, init->a->b);
      A->loops++;
      s->d = body_stmt(A);
      A->loops--;
      return s;
    }
    expect(A, T_SEMI);
    opt_nl(A);
    s = mk(A, S_FOR, init, NULL);
    if (A->tok != T_SEMI)
      s->b = expr(A);
    expect(A, T_SEMI);
    opt_nl(A);
    if (A->tok != T_RPAREN)
      s->c = simple_stmt(A);
    expect(A, T_RPAREN);
    if (A->tok == T_SEMI) {
      next(A);
      s->d = mk(A, S_BLOCK, NULL, NULL);
      return s;
    }
    A->loops++;
    s->d = body_stmt(A);
    A->loops--;
    return s;
  }
  case T_SWITCH:
    return switch_stmt(A);
  case T_SEMI:
    next(A);
    return NULL;
  default:
    s = simple_stmt(A);
    end_simple(A);
    return s;
  }
}

static item *add_item(awk *A, item ***tail) {
  item *it = arena_calloc(&A->ar, sizeof *it);
  if (!it)
    synerr(A);
  **tail = it;
  *tail = &it->next;
  return it;
}

static void function_def(awk *A) {
  next(A);
  if (A->tok != T_NAME && A->tok != T_FUNC_NAME)
    synerr(A);
  int fi = func_index(A, buf_cstr(&A->tstr));
  for (int i = 0; i < A->ngl; i++)
    if (strcmp(A->gnames[i], A->funcs[fi].name) == 0)
      parse_error(A, "function name `%s' previously defined",
                  A->funcs[fi].name);
  if (A->funcs[fi].defined)
    parse_error(A, "function name `%s' previously defined", A->funcs[fi].name);
  next(A);
  expect(A, T_LPAREN);
  char **params = NULL;
  int np = 0;
  opt_nl(A);
  while (A->tok == T_NAME) {
    char **p2 = arena_alloc(&A->ar, (size_t)(np + 1) * sizeof *p2);
    if (!p2)
      synerr(A);
    if (np)
      memcpy(p2, params, (size_t)np * sizeof *p2);
    p2[np++] = arena_strdup(&A->ar, buf_cstr(&A->tstr));
    params = p2;
    if (strcmp(p2[np - 1], A->funcs[fi].name) == 0)
      parse_error(A,
                  "function `%s': cannot use function name as parameter "
                  "name",
                  A->funcs[fi].name);
    for (int k = 0; k < np - 1; k++)
      if (strcmp(p2[k], p2[np - 1]) == 0) {
        parse_error(A,
                    "function `%s': parameter #%d, `%s', duplicates "
                    "parameter #%d",
                    A->funcs[fi].name, np, p2[np - 1], k + 1);
        break;
      }
    next(A);
    opt_nl(A);
    if (A->tok != T_COMMA)
      break;
    next(A);
    opt_nl(A);
  }
  expect(A, T_RPAREN);
  afunc *f = &A->funcs[fi];
  f->params = params;
  f->nparams = np;
  f->defined = 1;
  A->curfn = f;
  opt_nl(A);
  node *body = block(A);
  A->funcs[fi].body = body; /* funcs may have moved */
  A->curfn = NULL;
}

int awk_parse(awk *A) {
  jmp_buf jb;
  A->pj = &jb;
  if (setjmp(jb))
    return A->syntax_err == 2 ? -2 : -1;
  A->begin_tail = &A->begin;
  A->end_tail = &A->end;
  A->main_tail = &A->main;
  A->bfile_tail = &A->bfile;
  A->efile_tail = &A->efile;
  next(A);
  for (;;) {
    while (A->tok == T_NL || A->tok == T_SEMI)
      next(A);
    if (A->tok == T_EOF)
      break;
    if (A->tok == T_FUNCTION) {
      function_def(A);
      continue;
    }
    if (A->tok == T_BEGIN || A->tok == T_END || A->tok == T_BEGINFILE ||
        A->tok == T_ENDFILE) {
      item ***tl = A->tok == T_BEGIN       ? &A->begin_tail
                   : A->tok == T_END       ? &A->end_tail
                   : A->tok == T_BEGINFILE ? &A->bfile_tail
                                           : &A->efile_tail;
      A->rule = A->tok == T_BEGIN       ? "BEGIN"
                : A->tok == T_END       ? "END"
                : A->tok == T_BEGINFILE ? "BEGINFILE"
                                        : "ENDFILE";
      next(A);
      opt_nl(A);
      if (A->tok != T_LBRACE)
        synerr(A);
      item *it = add_item(A, tl);
      it->act = block(A);
      A->rule = NULL;
      continue;
    }
    item *it = add_item(A, &A->main_tail);
    if (A->tok != T_LBRACE) {
      it->pat = expr(A);
      if (A->tok == T_COMMA) {
        next(A);
        opt_nl(A);
        it->pat2 = expr(A);
      }
    }
    if (A->tok == T_LBRACE)
      it->act = block(A);
    else if (A->tok != T_NL && A->tok != T_SEMI && A->tok != T_EOF)
      synerr(A);
  }
  if (A->parse_errs)
    return -1;
  for (int i = 0; i < A->nfuncs; i++)
    for (int g = 0; !A->funcs[i].defined && g < A->ngl; g++)
      if (strcmp(A->gnames[g], A->funcs[i].name) == 0) {
        parse_error(A, "attempt to use non-function `%s' in function call",
                    A->funcs[i].name);
        return -1;
      }
  for (int i = 0; i < A->nfuncs; i++)
    if (!A->funcs[i].defined) {
      buf b;
      buf_init(&b, A->m);
      awk_where(A, &b, A->funcs[i].line);
      buf_printf(&b, "fatal: function `%s' not defined\n", A->funcs[i].name);
      stream_write(A->c->err, b.data ? b.data : "", b.len);
      buf_free(&b);
      A->syntax_err = 1;
      return -2;
    }
  return 0;
}
