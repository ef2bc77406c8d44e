/*
 * parse.c - bc's grammar, compiled as it is read.
 *
 * A recursive descent parser emits code straight into the code array of
 * the main program or of the function being defined. The main program
 * runs each time a line at the top level ends, as GNU bc runs it; a
 * syntax error is reported with the line number and the rest of that line
 * is skipped. `quit` ends bc when it is read, `limits` prints at once.
 */
#include <stdio.h>
#include <string.h>

#include "builtins/data/bc/lex.h"

typedef struct loopctx {
  size_t brk[64];
  int nbrk;
  size_t cont_target;
  struct loopctx *up;
} loopctx;

typedef struct parser {
  bc_lex lx;
  bc *b;
  bc_code *code;
  int in_func;
  bc_func *fn; /* being defined */
  loopctx *loop;
  int err;   /* syntax error seen on this item */
  int fatal; /* memory or a limit: stop */
  int quit;
  int assign; /* the expression just parsed is an assignment */
  int depth;
} parser;

static int next(parser *p) {
  if (p->fatal)
    return -1;
  if (bc_lex_next(&p->lx)) {
    p->fatal = 1;
    bc_fatal(p->b);
    return -1;
  }
  return 0;
}

static int syntax(parser *p) {
  if (!p->err && !p->fatal)
    bc_error_msg(p->b, "%s %d: syntax error\n", p->lx.name, p->lx.line);
  p->err = 1;
  return -1;
}

static int fail(parser *p, const char *msg) {
  if (!p->err && !p->fatal)
    bc_error_msg(p->b, "%s %d: %s\n", p->lx.name, p->lx.line, msg);
  p->err = 1;
  return -1;
}

static int emit(parser *p, int v) {
  if (bc_emit(p->b, p->code, v)) {
    p->fatal = 1;
    return -1;
  }
  return 0;
}

static int emitn(parser *p, int op, int arg, int slots) {
  if (emit(p, op) || (slots > 1 && emit(p, arg)))
    return -1;
  for (int i = 2; i < slots; i++)
    if (emit(p, OP_PAD))
      return -1;
  return 0;
}

/* A jump whose target is patched later: returns the slot of the target. */
static size_t jump(parser *p, int op, size_t target) {
  emitn(p, op, (int)target, 3);
  return p->code->n - 2;
}

static void patch(parser *p, size_t slot) {
  if (!p->fatal && slot < p->code->n)
    p->code->v[slot] = (int)p->code->n;
}

static int expect(parser *p, int tok) {
  if (p->lx.tok != tok)
    return syntax(p);
  return next(p);
}

static int expr(parser *p);

/* After an lvalue (its index, for an array, already emitted). */
static int lvalue_use(parser *p, int lv) {
  int arr = LV_KIND(lv) == LV_ARR;
  if (p->lx.tok == T_ASSIGN) {
    int op = p->lx.sub;
    if (next(p))
      return -1;
    if (op) {
      if (arr)
        emit(p, OP_DUP);
      emitn(p, OP_LOAD, lv, 2);
    }
    if (expr(p))
      return -1;
    if (op)
      emit(p, op);
    emitn(p, OP_STORE, lv, 2);
    p->assign = 1;
    return 0;
  }
  p->assign = 0;
  if (p->lx.tok == T_INC || p->lx.tok == T_DEC) {
    int fl = p->lx.tok == T_DEC ? ID_DEC : 0;
    if (next(p))
      return -1;
    emit(p, OP_INCDEC);
    emit(p, lv);
    return emitn(p, fl, 0, arr ? 3 : 2);
  }
  return emitn(p, OP_LOAD, lv, 2);
}

/* scale, ibase, obase, last, NAME or NAME[expr]: its lvalue, or -1. */
static int lvalue(parser *p) {
  switch (p->lx.tok) {
  case T_SCALE:
    return next(p) ? -1 : LV(LV_SCALE, 0);
  case T_IBASE:
    return next(p) ? -1 : LV(LV_IBASE, 0);
  case T_OBASE:
    return next(p) ? -1 : LV(LV_OBASE, 0);
  case T_LAST:
    return next(p) ? -1 : LV(LV_LAST, 0);
  case T_ID:
    break;
  default:
    return syntax(p);
  }
  const char *name = p->lx.text;
  size_t nlen = p->lx.tlen;
  if (next(p))
    return -1;
  if (p->lx.tok == T_LB) {
    int i = bc_name(p->b, &p->b->anames, name, nlen);
    if (i < 0) {
      p->fatal = 1;
      bc_fatal(p->b);
      return -1;
    }
    if (next(p) || expr(p) || expect(p, T_RB))
      return -1;
    return LV(LV_ARR, i);
  }
  int i = bc_name(p->b, &p->b->vnames, name, nlen);
  if (i < 0) {
    p->fatal = 1;
    bc_fatal(p->b);
  }
  return i;
}

static int call(parser *p, const char *name, size_t nlen) {
  int kinds[256];
  int n = 0;
  if (next(p))
    return -1;
  if (p->lx.tok != T_RP) {
    for (;;) {
      if (n == 256)
        return fail(p, "too many arguments");
      /* NAME[] passes an array */
      if (p->lx.tok == T_ID) {
        size_t save = p->lx.pos;
        int line = p->lx.line;
        const char *t = p->lx.text;
        size_t tl = p->lx.tlen;
        if (next(p))
          return -1;
        if (p->lx.tok == T_LB) {
          size_t s2 = p->lx.pos;
          if (next(p))
            return -1;
          if (p->lx.tok == T_RB) {
            int i = bc_name(p->b, &p->b->anames, t, tl);
            if (i < 0) {
              p->fatal = 1;
              return -1;
            }
            emitn(p, OP_ARRARG, i, 3);
            kinds[n++] = 1;
            if (next(p))
              return -1;
            goto sep;
          }
          (void)s2;
        }
        /* not an array: re-read from the name */
        p->lx.pos = save - tl;
        p->lx.line = line;
        if (next(p))
          return -1;
      }
      if (expr(p))
        return -1;
      kinds[n++] = 0;
    sep:
      if (p->lx.tok != T_COMMA)
        break;
      if (next(p))
        return -1;
    }
  }
  if (expect(p, T_RP))
    return -1;
  int f = bc_name(p->b, &p->b->fnames, name, nlen);
  if (f < 0 || !bc_func_at(p->b, f)) {
    p->fatal = 1;
    bc_fatal(p->b);
    return -1;
  }
  emit(p, OP_CALL);
  emit(p, f);
  emit(p, n);
  for (int i = 0; i < n; i++)
    emit(p, kinds[i]);
  /* GNU's call takes 3 + nargs bytes: the count slot stands for the
   * terminator */
  return 0;
}

static int primary(parser *p) {
  p->assign = 0;
  switch (p->lx.tok) {
  case T_NUM: {
    /* GNU bc keeps a constant without its leading zeros ("0.5" is ".5"),
     * which its code size shows */
    while (p->lx.tlen > 1 && p->lx.text[0] == '0') {
      p->lx.text++;
      p->lx.tlen--;
    }
    if (p->lx.tlen == 1 && (p->lx.text[0] == '0' || p->lx.text[0] == '1')) {
      emit(p, p->lx.text[0] == '0' ? OP_ZERO : OP_ONE);
    } else {
      int k = bc_add_const(p->b, p->lx.text, p->lx.tlen);
      if (k < 0) {
        p->fatal = 1;
        return -1;
      }
      emitn(p, OP_CONST, k, 2 + (int)p->lx.tlen);
    }
    return next(p);
  }
  case T_LP:
    if (next(p) || expr(p) || expect(p, T_RP))
      return -1;
    p->assign = 0;
    return 0;
  case T_LENGTH:
  case T_SQRT:
  case T_SCALE: {
    int t = p->lx.tok;
    if (next(p))
      return -1;
    if (t == T_SCALE && p->lx.tok != T_LP)
      return lvalue_use(p, LV(LV_SCALE, 0));
    if (expect(p, T_LP) || expr(p) || expect(p, T_RP))
      return -1;
    p->assign = 0;
    return emitn(p,
                 t == T_SQRT     ? OP_SQRT
                 : t == T_LENGTH ? OP_LENGTH
                                 : OP_SCALEF,
                 0, 2);
  }
  case T_READ:
    if (next(p) || expect(p, T_LP) || expect(p, T_RP))
      return -1;
    return emit(p, OP_READ);
  case T_ID: {
    const char *name = p->lx.text;
    size_t nlen = p->lx.tlen;
    size_t save = p->lx.pos;
    int line = p->lx.line;
    if (next(p))
      return -1;
    if (p->lx.tok == T_LP)
      return call(p, name, nlen);
    p->lx.pos = save - nlen;
    p->lx.line = line;
    if (next(p))
      return -1;
  }
    /* fall through */
  case T_IBASE:
  case T_OBASE:
  case T_LAST: {
    int lv = lvalue(p);
    if (lv < 0)
      return -1;
    return lvalue_use(p, lv);
  }
  case T_INC:
  case T_DEC: {
    int fl = ID_PRE | (p->lx.tok == T_DEC ? ID_DEC : 0);
    if (next(p))
      return -1;
    int lv = lvalue(p);
    if (lv < 0)
      return -1;
    emit(p, OP_INCDEC);
    emit(p, lv);
    p->assign = 0;
    return emitn(p, fl, 0, LV_KIND(lv) == LV_ARR ? 3 : 2);
  }
  default:
    return syntax(p);
  }
}

static int unary(parser *p) {
  if (p->lx.tok == T_MINUS) {
    if (++p->depth > BC_PARSE_DEPTH)
      return fail(p, "expression nested too deeply");
    if (next(p) || unary(p))
      return -1;
    p->depth--;
    p->assign = 0;
    return emit(p, OP_NEG);
  }
  return primary(p);
}

static int power(parser *p) {
  if (unary(p))
    return -1;
  if (p->lx.tok == T_CARET) {
    if (++p->depth > BC_PARSE_DEPTH)
      return fail(p, "expression nested too deeply");
    if (next(p) || power(p))
      return -1;
    p->depth--;
    p->assign = 0;
    return emit(p, OP_POW);
  }
  return 0;
}

static int mulexp(parser *p) {
  if (power(p))
    return -1;
  while (p->lx.tok == T_STAR || p->lx.tok == T_SLASH || p->lx.tok == T_PCT) {
    int op = p->lx.tok == T_STAR    ? OP_MUL
             : p->lx.tok == T_SLASH ? OP_DIV
                                    : OP_MOD;
    if (next(p) || power(p))
      return -1;
    p->assign = 0;
    emit(p, op);
  }
  return 0;
}

static int addexp(parser *p) {
  if (mulexp(p))
    return -1;
  while (p->lx.tok == T_PLUS || p->lx.tok == T_MINUS) {
    int op = p->lx.tok == T_PLUS ? OP_ADD : OP_SUB;
    if (next(p) || mulexp(p))
      return -1;
    p->assign = 0;
    emit(p, op);
  }
  return 0;
}

static int relexp(parser *p) {
  if (addexp(p))
    return -1;
  while (p->lx.tok == T_REL) {
    int op = p->lx.sub;
    if (next(p) || addexp(p))
      return -1;
    p->assign = 0;
    emit(p, op);
  }
  return 0;
}

static int notexp(parser *p) {
  if (p->lx.tok == T_NOT) {
    if (++p->depth > BC_PARSE_DEPTH)
      return fail(p, "expression nested too deeply");
    if (next(p) || notexp(p))
      return -1;
    p->depth--;
    p->assign = 0;
    return emit(p, OP_NOT);
  }
  return relexp(p);
}

static int andexp(parser *p) {
  if (notexp(p))
    return -1;
  while (p->lx.tok == T_AND) {
    size_t f1 = jump(p, OP_JZ, 0);
    if (next(p) || notexp(p))
      return -1;
    size_t f2 = jump(p, OP_JZ, 0);
    emit(p, OP_ONE);
    size_t e = jump(p, OP_JUMP, 0);
    patch(p, f1);
    patch(p, f2);
    emit(p, OP_ZERO);
    patch(p, e);
    p->assign = 0;
  }
  return 0;
}

static int expr(parser *p) {
  if (++p->depth > BC_PARSE_DEPTH)
    return fail(p, "expression nested too deeply");
  if (andexp(p))
    return -1;
  while (p->lx.tok == T_OR) {
    size_t t1 = jump(p, OP_JNZ, 0);
    if (next(p) || andexp(p))
      return -1;
    size_t t2 = jump(p, OP_JNZ, 0);
    emit(p, OP_ZERO);
    size_t e = jump(p, OP_JUMP, 0);
    patch(p, t1);
    patch(p, t2);
    emit(p, OP_ONE);
    patch(p, e);
    p->assign = 0;
  }
  p->depth--;
  return p->fatal ? -1 : 0;
}

static int statement(parser *p);

static int skip_nl(parser *p) {
  while (p->lx.tok == T_NL)
    if (next(p))
      return -1;
  return 0;
}

static int str_op(parser *p, int op) {
  int k = bc_add_str(p->b, p->lx.text, p->lx.tlen);
  if (k < 0) {
    p->fatal = 1;
    return -1;
  }
  emitn(p, op, k, 2 + (int)p->lx.tlen);
  return next(p);
}

static int body(parser *p, loopctx *lc) {
  lc->up = p->loop;
  lc->nbrk = 0;
  p->loop = lc;
  int r = statement(p);
  p->loop = lc->up;
  return r;
}

static void print_limits(parser *p) {
  writer *w = &p->b->w;
  wr_printf(w, "BC_BASE_MAX     = %d\n", BC_BASE_MAX);
  wr_printf(w, "BC_DIM_MAX      = %d\n", BC_DIM_MAX);
  wr_printf(w, "BC_SCALE_MAX    = %d\n", BC_SCALE_MAX);
  wr_printf(w, "BC_STRING_MAX   = %d\n", 2147483647);
  wr_printf(w, "MAX Exponent    = %ld\n", 9223372036854775807L);
  wr_printf(w, "Number of vars  = %d\n", 32767);
}

static int statement(parser *p) {
  if (++p->depth > BC_PARSE_DEPTH)
    return fail(p, "statements nested too deeply");
  int r = 0;
  switch (p->lx.tok) {
  case T_NL:
  case T_SEMI:
  case T_EOF:
  case T_RC:
    break; /* empty */
  case T_STR:
    r = str_op(p, OP_STR);
    break;
  case T_LC:
    if (next(p))
      return -1;
    for (;;) {
      if (skip_nl(p))
        return -1;
      if (p->lx.tok == T_RC)
        break;
      if (statement(p))
        return -1;
      if (p->lx.tok == T_SEMI || p->lx.tok == T_NL) {
        if (next(p))
          return -1;
      } else if (p->lx.tok != T_RC) {
        return syntax(p);
      }
    }
    r = next(p);
    break;
  case T_PRINT:
    do {
      if (next(p))
        return -1;
      if (p->lx.tok == T_STR) {
        if (str_op(p, OP_PSTR))
          return -1;
      } else {
        if (expr(p))
          return -1;
        emit(p, OP_PRINTV);
      }
    } while (p->lx.tok == T_COMMA);
    break;
  case T_QUIT:
    p->quit = 1;
    return -1;
  case T_HALT:
    emit(p, OP_HALT);
    r = next(p);
    break;
  case T_LIMITS:
    print_limits(p);
    r = next(p);
    break;
  case T_WARRANTY:
    r = next(p);
    break;
  case T_BREAK:
  case T_CONTINUE: {
    int brk = p->lx.tok == T_BREAK;
    if (!p->loop)
      return fail(p, brk ? "Break outside a for/while"
                         : "Continue outside a for.");
    if (brk) {
      if (p->loop->nbrk == 64)
        return fail(p, "too many breaks in one loop");
      p->loop->brk[p->loop->nbrk++] = jump(p, OP_JUMP, 0);
    } else {
      jump(p, OP_JUMP, p->loop->cont_target);
    }
    r = next(p);
    break;
  }
  case T_RETURN:
    if (next(p))
      return -1;
    if (p->lx.tok == T_NL || p->lx.tok == T_SEMI || p->lx.tok == T_RC ||
        p->lx.tok == T_EOF) {
      emitn(p, OP_RET0, 0, 2);
    } else {
      if (expr(p))
        return -1;
      emit(p, OP_RET);
    }
    /* reported where the statement ends, as GNU bc does */
    if (!p->in_func)
      return fail(p, "Return outside of a function.");
    break;
  case T_IF: {
    if (next(p) || expect(p, T_LP) || expr(p) || expect(p, T_RP))
      return -1;
    size_t z = jump(p, OP_JZ, 0);
    if (skip_nl(p) || statement(p))
      return -1;
    if (p->lx.tok == T_ELSE) {
      size_t j = jump(p, OP_JUMP, 0);
      patch(p, z);
      if (next(p) || skip_nl(p) || statement(p))
        return -1;
      patch(p, j);
    } else {
      patch(p, z);
    }
    break;
  }
  case T_WHILE: {
    loopctx lc;
    size_t top = p->code->n;
    if (next(p) || expect(p, T_LP) || expr(p) || expect(p, T_RP))
      return -1;
    size_t z = jump(p, OP_JZ, 0);
    lc.cont_target = top;
    if (skip_nl(p) || body(p, &lc))
      return -1;
    jump(p, OP_JUMP, top);
    patch(p, z);
    for (int i = 0; i < lc.nbrk; i++)
      patch(p, lc.brk[i]);
    break;
  }
  case T_FOR: {
    loopctx lc;
    if (next(p) || expect(p, T_LP))
      return -1;
    if (p->lx.tok != T_SEMI) {
      if (expr(p))
        return -1;
      emit(p, OP_POP);
    }
    if (expect(p, T_SEMI))
      return -1;
    size_t top = p->code->n;
    if (p->lx.tok != T_SEMI) {
      if (expr(p))
        return -1;
    } else {
      emit(p, OP_ONE);
    }
    if (expect(p, T_SEMI))
      return -1;
    size_t tb = jump(p, OP_JNZ, 0);
    size_t te = jump(p, OP_JUMP, 0);
    size_t incr = p->code->n;
    if (p->lx.tok != T_RP) {
      if (expr(p))
        return -1;
      emit(p, OP_POP);
    }
    jump(p, OP_JUMP, top);
    if (expect(p, T_RP))
      return -1;
    patch(p, tb);
    lc.cont_target = incr;
    if (skip_nl(p) || body(p, &lc))
      return -1;
    jump(p, OP_JUMP, incr);
    patch(p, te);
    for (int i = 0; i < lc.nbrk; i++)
      patch(p, lc.brk[i]);
    break;
  }
  default:
    if (expr(p))
      return -1;
    r = emit(p, p->assign ? OP_POP : OP_PRINT);
    break;
  }
  p->depth--;
  return r || p->fatal ? -1 : 0;
}

static int add_local(parser *p, bc_func *f, int lv) {
  for (int i = 0; i < f->nlocals; i++)
    if (f->params[i] == lv)
      return fail(p, "duplicate parameter or auto name");
  int *np =
      mem_realloc(p->b->e.m, f->params, (size_t)(f->nlocals + 1) * sizeof *np);
  if (!np) {
    p->fatal = 1;
    bc_fatal(p->b);
    return -1;
  }
  f->params = np;
  f->params[f->nlocals++] = lv;
  return 0;
}

/* NAME or NAME[] (or *NAME[]), as a parameter or auto. */
static int local_name(parser *p, bc_func *f) {
  if (p->lx.tok == T_STAR && next(p))
    return -1;
  if (p->lx.tok != T_ID)
    return syntax(p);
  const char *t = p->lx.text;
  size_t tl = p->lx.tlen;
  if (next(p))
    return -1;
  int lv;
  if (p->lx.tok == T_LB) {
    if (next(p) || expect(p, T_RB))
      return -1;
    int i = bc_name(p->b, &p->b->anames, t, tl);
    lv = LV(LV_ARR, i);
    if (i < 0)
      p->fatal = 1;
  } else {
    lv = bc_name(p->b, &p->b->vnames, t, tl);
    if (lv < 0)
      p->fatal = 1;
  }
  return p->fatal ? -1 : add_local(p, f, lv);
}

static int define(parser *p) {
  bc *b = p->b;
  if (next(p))
    return -1;
  if (p->lx.tok != T_ID)
    return syntax(p);
  int fi = bc_name(b, &b->fnames, p->lx.text, p->lx.tlen);
  bc_func *old = fi < 0 ? NULL : bc_func_at(b, fi);
  if (!old) {
    p->fatal = 1;
    bc_fatal(b);
    return -1;
  }
  bc_func f = {0};
  p->fn = &f;
  if (next(p) || expect(p, T_LP))
    goto bad;
  if (p->lx.tok != T_RP) {
    for (;;) {
      if (local_name(p, &f))
        goto bad;
      if (p->lx.tok != T_COMMA)
        break;
      if (next(p))
        goto bad;
    }
  }
  f.nparams = f.nlocals;
  if (expect(p, T_RP) || skip_nl(p) || expect(p, T_LC) || skip_nl(p))
    goto bad;
  while (p->lx.tok == T_AUTO) {
    do {
      if (next(p) || local_name(p, &f))
        goto bad;
    } while (p->lx.tok == T_COMMA);
    if (p->lx.tok != T_SEMI && p->lx.tok != T_NL) {
      syntax(p);
      goto bad;
    }
    if (next(p) || skip_nl(p))
      goto bad;
  }
  p->code = &f.code;
  p->in_func = 1;
  for (;;) {
    if (skip_nl(p))
      goto bad;
    if (p->lx.tok == T_RC)
      break;
    if (statement(p))
      goto bad;
    if (p->lx.tok == T_SEMI || p->lx.tok == T_NL) {
      if (next(p))
        goto bad;
    } else if (p->lx.tok != T_RC) {
      syntax(p);
      goto bad;
    }
  }
  if (emitn(p, OP_RET0, 0, 2) || p->err)
    goto bad;
  p->in_func = 0;
  p->code = &b->main;
  p->fn = NULL;
  /* install: the old definition's code and names go */
  old = bc_func_at(b, fi);
  mem_free(b->e.m, old->code.v);
  mem_free(b->e.m, old->params);
  old->code = f.code;
  old->params = f.params;
  old->nparams = f.nparams;
  old->nlocals = f.nlocals;
  old->defined = 1;
  return next(p);
bad:
  p->in_func = 0;
  p->code = &b->main;
  p->fn = NULL;
  mem_free(b->e.m, f.code.v);
  mem_free(b->e.m, f.params);
  return -1;
}

int bc_exec_text(bc *b, const char *name, const char *text, size_t len) {
  parser p;
  memset(&p, 0, sizeof p);
  p.b = b;
  p.lx.b = b;
  p.lx.name = name;
  p.lx.src = text;
  p.lx.len = len;
  p.lx.line = 1;
  p.code = &b->main;
  int ret = 0;
  if (next(&p))
    goto out;
  while (!b->halted && !b->fatal) {
    if (budget_poll(b->c->bud)) {
      b->stopped = 1;
      break;
    }
    p.err = 0;
    p.depth = 0;
    b->main.n = 0;
    if (p.lx.tok == T_EOF)
      break;
    if (p.lx.tok == T_NL || p.lx.tok == T_SEMI) {
      p.lx.bad = 0; /* a new line begins */
      if (next(&p))
        break;
      continue;
    }
    int r;
    if (p.lx.tok == T_DEFINE) {
      r = define(&p);
    } else {
      r = statement(&p);
      while (!r && p.lx.tok == T_SEMI) {
        if (next(&p))
          break;
        r = statement(&p);
      }
      if (!r && p.lx.tok != T_NL && p.lx.tok != T_EOF)
        r = syntax(&p);
      if (!r && !p.err && !p.fatal) {
        if (!p.lx.bad)
          bc_run(b, b->main.v, b->main.n);
        p.lx.bad = 0;
        if (!p.fatal && next(&p))
          break;
        continue;
      }
    }
    if (p.quit) {
      b->halted = 1;
      break;
    }
    if (p.fatal || b->fatal)
      break;
    if (r || p.err) {
      if (!p.err)
        syntax(&p);
      /* skip the rest of the line */
      while (p.lx.tok != T_NL && p.lx.tok != T_EOF)
        if (next(&p))
          break;
    }
  }
out:
  if (p.fatal && !b->fatal)
    bc_fatal(b);
  b->main.n = 0;
  mem_free(b->e.m, p.lx.buf);
  if (b->halted || b->fatal || b->stopped)
    ret = -1;
  return ret;
}
