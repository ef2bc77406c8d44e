/*
 * parse.c - jq program text to a tree, by recursive descent with jq's
 * precedences; names are resolved while parsing (the scope at each point
 * is known), so the evaluator finds a variable or function by counting
 * frames, never by name.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

enum {
  T_EOF,
  T_IDENT,
  T_FIELD,
  T_VAR,
  T_NUM,
  T_STR,
  T_FORMAT,
  T_OP,
  T_KW,
  T_ERR
};

typedef struct scope {
  struct scope *up;
  const char *name;
  int arity; /* -1 variable, -2 label, >= 0 function */
} scope;

typedef struct ps {
  jqs *J;
  const char *src, *p, *end;
  /* current token */
  int t;
  const char *ts; /* token text */
  size_t tn;
  const char *tpos;
  double num;
  int err;
  char msg[256];
  int prelude;
  int depth;
  int nvar; /* variables bound by the pattern being parsed */
  scope *sc;
} ps;

static const char *const keywords[] = {
    "def",    "if",      "then",    "elif", "else",    "end",
    "as",     "reduce",  "foreach", "try",  "catch",   "label",
    "import", "include", "and",     "or",   "__loc__", NULL};

static int is_kw(const char *s, size_t n) {
  for (int i = 0; keywords[i]; i++)
    if (strlen(keywords[i]) == n && !memcmp(keywords[i], s, n))
      return 1;
  return 0;
}

static int idstart(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int idchar(int c) {
  return idstart(c) || (c >= '0' && c <= '9');
}

static void *nalloc(ps *P, size_t n) {
  void *p = arena_calloc(&P->J->ar, n);
  if (!p && !P->err) {
    P->err = 1;
    snprintf(P->msg, sizeof P->msg, "Out of memory");
  }
  return p;
}

static char *sdup(ps *P, const char *s, size_t n) {
  char *r = nalloc(P, n + 1);
  if (r)
    memcpy(r, s, n);
  return r;
}

static int line_of(ps *P, const char *at) {
  int l = 1;
  for (const char *q = P->src; q < at && q < P->end; q++)
    if (*q == '\n')
      l++;
  return l;
}

static void perror_(ps *P, const char *fmt, const char *a) {
  if (P->err)
    return;
  P->err = 1;
  snprintf(P->msg, sizeof P->msg, fmt, a);
}

static void unexpected(ps *P) {
  if (P->err)
    return;
  char t[64];
  if (P->t == T_EOF)
    snprintf(t, sizeof t, "$end");
  else if (P->t == T_IDENT || P->t == T_KW)
    snprintf(t, sizeof t, "%s%.*s", P->t == T_IDENT ? "IDENT " : "",
             (int)(P->tn > 40 ? 40 : P->tn), P->ts);
  else if (P->t == T_NUM)
    snprintf(t, sizeof t, "LITERAL");
  else if (P->t == T_STR)
    snprintf(t, sizeof t, "QQSTRING_START");
  else if (P->t == T_VAR)
    snprintf(t, sizeof t, "'$'");
  else if (P->t == T_FIELD)
    snprintf(t, sizeof t, "FIELD");
  else if (P->t == T_FORMAT)
    snprintf(t, sizeof t, "FORMAT");
  else if (P->tn == 1)
    snprintf(t, sizeof t, "'%c'", P->ts[0]);
  else
    snprintf(t, sizeof t, "%.*s", (int)P->tn, P->ts);
  char m[128];
  snprintf(m, sizeof m, "syntax error, unexpected %s", t);
  perror_(P, "%s (Unix shell quoting issues?)", m);
}

/* ---- lexer ------------------------------------------------------------- */

static void next(ps *P) {
  if (P->err) {
    P->t = T_ERR;
    return;
  }
  for (;;) {
    while (P->p < P->end &&
           (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r'))
      P->p++;
    if (P->p < P->end && *P->p == '#') {
      while (P->p < P->end && *P->p != '\n')
        P->p++;
      continue;
    }
    break;
  }
  P->tpos = P->p;
  P->ts = P->p;
  if (P->p >= P->end) {
    P->t = T_EOF;
    P->tn = 0;
    return;
  }
  unsigned char c = (unsigned char)*P->p;
  if (c == '"') {
    P->t = T_STR;
    P->tn = 1;
    P->p++; /* the parser reads the string itself */
    return;
  }
  if (c == '.' && P->p + 1 < P->end && idstart((unsigned char)P->p[1])) {
    const char *q = P->p + 1;
    while (q < P->end && idchar((unsigned char)*q))
      q++;
    P->t = T_FIELD;
    P->ts = P->p + 1;
    P->tn = (size_t)(q - P->p - 1);
    P->p = q;
    return;
  }
  if ((c >= '0' && c <= '9') ||
      (c == '.' && P->p + 1 < P->end && P->p[1] >= '0' && P->p[1] <= '9')) {
    char *e;
    char tmp[400];
    const char *q = P->p;
    while (q < P->end &&
           (idchar((unsigned char)*q) || *q == '.' ||
            ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))))
      q++;
    size_t n = (size_t)(q - P->p);
    if (n >= sizeof tmp)
      n = sizeof tmp - 1;
    memcpy(tmp, P->p, n);
    tmp[n] = 0;
    P->num = strtod(tmp, &e);
    if (isinf(P->num))
      P->num = P->num < 0 ? -1.7976931348623157e308 : 1.7976931348623157e308;
    P->p += e - tmp;
    P->t = T_NUM;
    P->tn = (size_t)(e - tmp);
    return;
  }
  if (idstart(c)) {
    const char *q = P->p;
    while (q < P->end && (idchar((unsigned char)*q) ||
                          (*q == ':' && q + 2 < P->end && q[1] == ':' &&
                           idstart((unsigned char)q[2]))))
      q += *q == ':' ? 2 : 1;
    P->tn = (size_t)(q - P->p);
    P->t = is_kw(P->p, P->tn) ? T_KW : T_IDENT;
    P->p = q;
    return;
  }
  if (c == '$' || c == '@') {
    const char *q = P->p + 1;
    if (c == '$' && P->end - q >= 7 && !memcmp(q, "__loc__", 7)) {
      P->t = T_VAR;
      P->ts = q;
      P->tn = 7;
      P->p = q + 7;
      return;
    }
    if (q < P->end && idstart((unsigned char)*q)) {
      while (q < P->end && (idchar((unsigned char)*q) ||
                            (*q == ':' && q + 2 < P->end && q[1] == ':')))
        q += *q == ':' ? 2 : 1;
      P->t = c == '$' ? T_VAR : T_FORMAT;
      P->ts = P->p + 1;
      P->tn = (size_t)(q - P->p - 1);
      P->p = q;
      return;
    }
  }
  static const char *const ops[] = {
      "?//=", "?//", "//=", "|=", "+=", "-=", "*=",  "/=", "%=",
      "==",   "!=",  "<=",  ">=", "//", "..", "and", NULL};
  for (int i = 0; ops[i]; i++) {
    size_t n = strlen(ops[i]);
    if ((size_t)(P->end - P->p) >= n && !memcmp(P->p, ops[i], n) &&
        strcmp(ops[i], "and") && strcmp(ops[i], "?//=")) {
      P->t = T_OP;
      P->tn = n;
      P->p += n;
      return;
    }
  }
  if (strchr(".[]{}()|,:;=<>+-*/%?$", c)) {
    P->t = T_OP;
    P->tn = 1;
    P->p++;
    return;
  }
  P->t = T_OP;
  P->tn = 1;
  P->p++;
  unexpected(P);
}

static int is(ps *P, const char *op) {
  size_t n = strlen(op);
  return (P->t == T_OP || P->t == T_KW) && P->tn == n && !memcmp(P->ts, op, n);
}

static int accept(ps *P, const char *op) {
  if (is(P, op)) {
    next(P);
    return 1;
  }
  return 0;
}

static void expect(ps *P, const char *op) {
  if (!accept(P, op))
    unexpected(P);
}

/* ---- nodes ------------------------------------------------------------- */

static jnode *mk(ps *P, int t) {
  jnode *n = nalloc(P, sizeof *n);
  if (n) {
    n->t = (uint8_t)t;
    n->line = P->tpos ? line_of(P, P->tpos) : 1;
  }
  return n;
}

static jnode *mk2(ps *P, int t, jnode *a, jnode *b) {
  jnode *n = mk(P, t);
  if (n) {
    n->a = a;
    n->b = b;
  }
  return n;
}

static jnode *mklit(ps *P, jv v) {
  jnode *n = mk(P, N_LIT);
  if (!jv_ok(v)) {
    perror_(P, "%s", "Out of memory");
    return n;
  }
  jqs *J = P->J;
  if (n && v.k >= JV_STRING && J->nlits == J->caplits) {
    size_t nc = J->caplits ? J->caplits * 2 : 64;
    jv *nl = mem_realloc(J->m, J->lits, nc * sizeof(jv));
    if (!nl) {
      perror_(P, "%s", "Out of memory");
      n = NULL;
    } else {
      J->lits = nl;
      J->caplits = nc;
    }
  }
  if (n) {
    n->lit = v;
    if (v.k >= JV_STRING)
      J->lits[J->nlits++] = v;
  } else
    jv_free(J, v);
  return n;
}

/* ---- scopes and calls -------------------------------------------------- */

static scope *push_scope(ps *P, const char *name, int arity) {
  scope *s = nalloc(P, sizeof *s);
  if (s) {
    s->name = name;
    s->arity = arity;
    s->up = P->sc;
    P->sc = s;
  }
  return s;
}

static int find_native(const char *name, int arity) {
  for (int i = 0; i < jq_nnatives; i++)
    if (jq_natives[i].arity == arity && !strcmp(jq_natives[i].name, name))
      return i;
  return -1;
}

static void resolve_call(ps *P, jnode *n) {
  int hops = 0;
  for (scope *s = P->sc; s; s = s->up, hops++)
    if (s->arity == n->nargs && !strcmp(s->name, n->name)) {
      n->ckind = C_FRAME;
      n->hops = hops;
      return;
    }
  for (int i = P->J->nglobals - 1; i >= 0; i--) {
    jnode *d = P->J->globals[i];
    if (d->nparams == n->nargs && !strcmp(d->name, n->name)) {
      n->ckind = C_GLOBAL;
      n->def = d;
      return;
    }
  }
  int k = find_native(n->name, n->nargs);
  if (k >= 0) {
    n->ckind = C_NATIVE;
    n->native = k;
    return;
  }
  char m[200];
  snprintf(m, sizeof m, "%s/%d is not defined", n->name, n->nargs);
  perror_(P, "%s", m);
}

static void resolve_var(ps *P, jnode *n, int arity) {
  int hops = 0;
  for (scope *s = P->sc; s; s = s->up, hops++)
    if (s->arity == arity && !strcmp(s->name, n->name)) {
      n->hops = hops;
      n->ckind = C_FRAME;
      return;
    }
  if (arity == -1 && !strcmp(n->name, "ENV")) {
    n->ckind = C_GLOBAL;
    return;
  }
  if (arity == -1 && !strcmp(n->name, "__prog_args")) {
    n->ckind = C_NATIVE;
    return;
  }
  char m[200];
  snprintf(m, sizeof m, "$%s%s is not defined", arity == -2 ? "*label-" : "",
           n->name);
  perror_(P, "%s", m);
}

static jnode *mkcall(ps *P, const char *name, jnode **args, int nargs) {
  jnode *n = mk(P, N_CALL);
  if (!n)
    return NULL;
  n->name = name;
  n->args = args;
  n->nargs = nargs;
  resolve_call(P, n);
  return n;
}

/* ---- grammar ----------------------------------------------------------- */

static jnode *pipe_(ps *P);
static jnode *term(ps *P);
static jnode *postterm(ps *P);
static jnode *pattern(ps *P, jnode ***vars);

static jnode *string_lit(ps *P, const char *fmt) {
  /* P->p is just after the opening quote; the token was T_STR */
  buf b;
  buf_init(&b, P->J->m);
  jnode *acc = NULL;
  for (;;) {
    if (P->p >= P->end) {
      buf_free(&b);
      perror_(P, "%s",
              "syntax error, unexpected end of file, expecting QQSTRING_TEXT "
              "or QQSTRING_INTERP_START or QQSTRING_END");
      return NULL;
    }
    char c = *P->p++;
    if (c == '"')
      break;
    if (c != '\\') {
      buf_putc(&b, c);
      continue;
    }
    if (P->p >= P->end)
      continue;
    char e = *P->p++;
    switch (e) {
    case 'n':
      buf_putc(&b, '\n');
      break;
    case 't':
      buf_putc(&b, '\t');
      break;
    case 'r':
      buf_putc(&b, '\r');
      break;
    case 'b':
      buf_putc(&b, '\b');
      break;
    case 'f':
      buf_putc(&b, '\f');
      break;
    case '"':
    case '\\':
    case '/':
      buf_putc(&b, e);
      break;
    case 'u': {
      unsigned cp = 0;
      for (int k = 0; k < 4 && P->p < P->end; k++) {
        char h = *P->p++;
        cp = cp * 16 + (unsigned)(h >= 'a'   ? h - 'a' + 10
                                  : h >= 'A' ? h - 'A' + 10
                                             : h - '0');
      }
      if (cp >= 0xD800 && cp < 0xDC00 && P->end - P->p >= 6 &&
          P->p[0] == '\\' && P->p[1] == 'u') {
        unsigned lo = 0;
        for (int k = 2; k < 6; k++) {
          char h = P->p[k];
          lo = lo * 16 + (unsigned)(h >= 'a'   ? h - 'a' + 10
                                    : h >= 'A' ? h - 'A' + 10
                                               : h - '0');
        }
        if (lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          P->p += 6;
        }
      }
      if (cp >= 0xD800 && cp < 0xE000)
        cp = 0xFFFD;
      char u[4];
      int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (n == 1)
        u[0] = (char)cp;
      else if (n == 2) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
      } else if (n == 3) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
      } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
      }
      buf_append(&b, u, (size_t)n);
      break;
    }
    case '(': {
      jnode *lit = mklit(P, jv_str(P->J, b.data ? b.data : "", b.len));
      b.len = 0;
      acc = acc ? mk2(P, N_BIN, acc, lit) : lit;
      if (acc && acc->t == N_BIN)
        acc->op = '+';
      next(P);
      jnode *e = pipe_(P);
      if (!is(P, ")")) {
        unexpected(P);
        buf_free(&b);
        return NULL;
      }
      /* the lexer stands after ')': go on with the string */
      jnode *f = mk(P, N_FORMAT);
      if (f) {
        f->name = fmt ? fmt : "text";
        f->a = e;
      }
      acc = mk2(P, N_BIN, acc, f);
      if (acc)
        acc->op = '+';
      break;
    }
    default: {
      buf_free(&b);
      char m[160];
      snprintf(m, sizeof m,
               "Invalid escape at line 1, column 4 (while parsing '\"\\%c\"')",
               e);
      perror_(P, "%s", m);
      return NULL;
    }
    }
  }
  jnode *lit = mklit(P, jv_str(P->J, b.data ? b.data : "", b.len));
  buf_free(&b);
  if (!acc)
    return lit;
  if (lit && lit->lit.k == JV_STRING && lit->lit.u.s->len == 0)
    return acc;
  jnode *r = mk2(P, N_BIN, acc, lit);
  if (r)
    r->op = '+';
  return r;
}

/* String token: P->t == T_STR. Leaves the next token read. */
static jnode *string_tok(ps *P, const char *fmt) {
  jnode *n = string_lit(P, fmt);
  next(P);
  return n;
}

static const char *tokname(ps *P) {
  return sdup(P, P->ts, P->tn);
}

static jnode *objkey_shorthand_index(ps *P, jnode *key) {
  jnode *n = mk2(P, N_INDEX, mk(P, N_IDENT), key);
  return n;
}

static jnode *binop(ps *P, int lvl);

static jnode *expd(ps *P) {
  /* an object value: operators but no comma, pipes allowed */
  jnode *a = binop(P, 2);
  while (!P->err && accept(P, "|"))
    a = mk2(P, N_PIPE, a, binop(P, 2));
  return a;
}

static jnode *object(ps *P) {
  /* after '{' */
  jnode *n = mk(P, N_OBJECT);
  jnode *items[512];
  int ni = 0;
  if (accept(P, "}"))
    return n;
  for (;;) {
    if (P->err)
      return n;
    jnode *k = NULL, *v = NULL;
    if (P->t == T_VAR) {
      const char *nm = tokname(P);
      next(P);
      if (!strcmp(nm, "__loc__")) {
        k = mklit(P, jv_cstr(P->J, "__loc__"));
        jv o = jv_obj(P->J);
        o = jv_oset(P->J, o, jv_cstr(P->J, "file"),
                    jv_cstr(P->J, "<top-level>"));
        o = jv_oset(P->J, o, jv_cstr(P->J, "line"),
                    jv_num(line_of(P, P->tpos)));
        v = mklit(P, o);
      } else {
        jnode *var = mk(P, N_VAR);
        if (var) {
          var->name = nm;
          resolve_var(P, var, -1);
        }
        if (accept(P, ":")) {
          k = var;
          v = expd(P);
        } else {
          k = mklit(P, jv_cstr(P->J, nm));
          v = var;
        }
      }
    } else if (P->t == T_IDENT || P->t == T_KW) {
      const char *nm = tokname(P);
      next(P);
      k = mklit(P, jv_cstr(P->J, nm));
      if (accept(P, ":"))
        v = expd(P);
      else
        v = objkey_shorthand_index(P, mklit(P, jv_cstr(P->J, nm)));
    } else if (P->t == T_NUM) {
      perror_(P, "%s", "May need parentheses around object key expression");
      return n;
    } else if (P->t == T_STR || P->t == T_FORMAT) {
      const char *fmt = NULL;
      if (P->t == T_FORMAT) {
        fmt = tokname(P);
        next(P);
      }
      if (P->t == T_STR)
        k = string_tok(P, fmt);
      else {
        k = mk(P, N_FORMAT);
        if (k)
          k->name = fmt;
      }
      if (accept(P, ":"))
        v = expd(P);
      else
        v = objkey_shorthand_index(P, k);
    } else if (accept(P, "(")) {
      k = pipe_(P);
      expect(P, ")");
      if (k && k->t == N_LIT && k->lit.k != JV_STRING) {
        char m[120], t[40];
        jd_trunc(P->J, k->lit, t, sizeof t);
        snprintf(m, sizeof m, "Cannot use %s (%s) as object key",
                 jv_kind_name(k->lit.k), t);
        perror_(P, "%s", m);
        return n;
      }
      expect(P, ":");
      v = expd(P);
    } else {
      unexpected(P);
      return n;
    }
    if (ni >= 510) {
      perror_(P, "%s", "object construction too large");
      return n;
    }
    items[ni++] = k;
    items[ni++] = v;
    if (accept(P, ","))
      continue;
    if (!accept(P, "}")) {
      if (!P->err && P->t == T_OP && P->tn == 1 && strchr("+-*/%<>=", P->ts[0]))
        unexpected(P);
      else
        unexpected(P);
    }
    break;
  }
  if (n) {
    n->args = nalloc(P, sizeof(jnode *) * (size_t)ni);
    if (n->args)
      memcpy(n->args, items, sizeof(jnode *) * (size_t)ni);
    n->nargs = ni;
  }
  return n;
}

/* Suffixes: .foo [e] [] [a:b] ? ."str" */
static jnode *suffixes(ps *P, jnode *t) {
  for (;;) {
    if (P->err)
      return t;
    if (P->t == T_FIELD) {
      jnode *k = mklit(P, jv_str(P->J, P->ts, P->tn));
      next(P);
      t = mk2(P, N_INDEX, t, k);
      continue;
    }
    if (is(P, ".") && P->p < P->end && (*P->p == '"' || *P->p == '[')) {
      next(P);
      if (P->t == T_STR) {
        jnode *k = string_tok(P, NULL);
        t = mk2(P, N_INDEX, t, k);
        continue;
      }
    }
    if (is(P, "[")) {
      next(P);
      if (accept(P, "]")) {
        t = mk2(P, N_ITER, t, NULL);
        continue;
      }
      if (accept(P, ":")) {
        jnode *hi = pipe_(P);
        expect(P, "]");
        jnode *s = mk2(P, N_SLICE, t, NULL);
        if (s)
          s->c = hi;
        t = s;
        continue;
      }
      jnode *e = pipe_(P);
      if (accept(P, ":")) {
        jnode *hi = NULL;
        if (!is(P, "]"))
          hi = pipe_(P);
        expect(P, "]");
        jnode *s = mk2(P, N_SLICE, t, e);
        if (s)
          s->c = hi;
        t = s;
        continue;
      }
      expect(P, "]");
      t = mk2(P, N_INDEX, t, e);
      continue;
    }
    if (is(P, "?")) {
      next(P);
      t = mk2(P, N_TRY, t, NULL);
      continue;
    }
    if (is(P, "as") || !is(P, "."))
      return t;
    /* a lone '.' after a term: ."x" handled above; ".[" too */
    return t;
  }
}

static jnode *funcdef(ps *P);

static jnode *bind_patterns(ps *P, jnode *n) {
  /* after 'as': Patterns; pushes the variables on the scope. */
  jnode *first = NULL, *last = NULL;
  int start = P->nvar;
  (void)start;
  P->nvar = 0;
  for (;;) {
    jnode *pt = pattern(P, NULL);
    if (!pt)
      break;
    if (!first)
      first = pt;
    else
      last->next = pt;
    last = pt;
    if (!accept(P, "?//"))
      break;
  }
  n->nvars = P->nvar;
  n->b = first;
  return n;
}

static jnode *pattern_var(ps *P, const char *nm) {
  /* a variable of the pattern: one frame per distinct name */
  jnode *v = mk(P, N_VAR);
  if (!v)
    return NULL;
  v->pkind = P_VAR;
  v->name = nm;
  /* the same name in several alternatives shares its frame */
  int hops = 0;
  for (scope *s = P->sc; s && hops < P->nvar; s = s->up, hops++)
    if (s->arity == -1 && !strcmp(s->name, nm)) {
      v->slot = P->nvar - 1 - hops;
      return v;
    }
  push_scope(P, nm, -1);
  v->slot = P->nvar++;
  return v;
}

static jnode *pattern(ps *P, jnode ***unused) {
  (void)unused;
  if (P->t == T_VAR) {
    const char *nm = tokname(P);
    next(P);
    return pattern_var(P, nm);
  }
  if (accept(P, "[")) {
    jnode *n = mk(P, N_VAR);
    if (!n)
      return NULL;
    n->pkind = P_ARRAY;
    jnode *items[256];
    int ni = 0;
    if (is(P, "]")) {
      perror_(P, "%s",
              "syntax error, unexpected ']', expecting BINDING or '[' or '{'");
      return NULL;
    }
    do {
      if (ni >= 255) {
        perror_(P, "%s", "pattern too large");
        return NULL;
      }
      items[ni++] = pattern(P, NULL);
    } while (!P->err && accept(P, ","));
    expect(P, "]");
    n->args = nalloc(P, sizeof(jnode *) * (size_t)(ni ? ni : 1));
    if (n->args)
      memcpy(n->args, items, sizeof(jnode *) * (size_t)ni);
    n->nargs = ni;
    return n;
  }
  if (accept(P, "{")) {
    jnode *n = mk(P, N_VAR);
    if (!n)
      return NULL;
    n->pkind = P_OBJECT;
    jnode *items[256];
    int ni = 0;
    if (is(P, "}")) {
      unexpected(P);
      return NULL;
    }
    do {
      if (ni >= 254) {
        perror_(P, "%s", "pattern too large");
        return NULL;
      }
      jnode *k = NULL, *v = NULL;
      if (P->t == T_VAR) {
        const char *nm = tokname(P);
        next(P);
        k = mklit(P, jv_cstr(P->J, nm));
        jnode *bv = pattern_var(P, nm);
        if (accept(P, ":")) {
          /* {$name: pattern}: both */
          v = pattern(P, NULL);
          jnode *both = mk(P, N_VAR);
          if (both) {
            both->pkind = P_ARRAY + 10; /* bind, then destructure */
            both->a = bv;
            both->b = v;
          }
          v = both;
        } else
          v = bv;
      } else if (P->t == T_IDENT || P->t == T_KW) {
        k = mklit(P, jv_cstr(P->J, tokname(P)));
        next(P);
        expect(P, ":");
        v = pattern(P, NULL);
      } else if (P->t == T_STR) {
        k = string_tok(P, NULL);
        expect(P, ":");
        v = pattern(P, NULL);
      } else if (accept(P, "(")) {
        k = pipe_(P);
        expect(P, ")");
        if (k && k->t == N_LIT && k->lit.k != JV_STRING) {
          char m[120], t[40];
          jd_trunc(P->J, k->lit, t, sizeof t);
          snprintf(m, sizeof m, "Cannot use %s (%s) as object key",
                   jv_kind_name(k->lit.k), t);
          perror_(P, "%s", m);
          return NULL;
        }
        expect(P, ":");
        v = pattern(P, NULL);
      } else {
        unexpected(P);
        return NULL;
      }
      items[ni++] = k;
      items[ni++] = v;
    } while (!P->err && accept(P, ","));
    expect(P, "}");
    n->args = nalloc(P, sizeof(jnode *) * (size_t)(ni ? ni : 1));
    if (n->args)
      memcpy(n->args, items, sizeof(jnode *) * (size_t)ni);
    n->nargs = ni;
    return n;
  }
  unexpected(P);
  return NULL;
}

static jnode *reduce_foreach(ps *P, int foreach) {
  jnode *n = mk(P, foreach ? N_FOREACH : N_REDUCE);
  if (!n)
    return NULL;
  n->a = binop(P, 2);
  expect(P, "as");
  scope *save = P->sc;
  int savev = P->nvar;
  /* init is parsed outside the pattern's scope: parse patterns first,
   * then init with the old scope */
  bind_patterns(P, n);
  scope *inner = P->sc;
  expect(P, "(");
  P->sc = save;
  n->c = pipe_(P);
  P->sc = inner;
  expect(P, ";");
  n->d = pipe_(P);
  if (foreach && accept(P, ";"))
    n->e = pipe_(P);
  expect(P, ")");
  P->sc = save;
  P->nvar = savev;
  return n;
}

static jnode *term(ps *P) {
  if (P->err)
    return NULL;
  if (++P->depth > 400) {
    perror_(P, "%s", "program nested too deeply");
    return NULL;
  }
  jnode *t = NULL;
  if (P->t == T_NUM) {
    t = mklit(P, jv_num_lit(P->J, P->num, P->ts, P->tn));
    next(P);
  } else if (P->t == T_STR) {
    t = string_tok(P, NULL);
  } else if (P->t == T_FORMAT) {
    const char *fmt = tokname(P);
    next(P);
    if (P->t == T_STR)
      t = string_tok(P, fmt);
    else {
      t = mk(P, N_FORMAT);
      if (t)
        t->name = fmt;
    }
  } else if (P->t == T_FIELD) {
    t = mk(P, N_IDENT);
    t = suffixes(P, t);
    P->depth--;
    return t;
  } else if (is(P, ".")) {
    next(P);
    t = mk(P, N_IDENT);
    if (P->t == T_STR) {
      jnode *k = string_tok(P, NULL);
      t = mk2(P, N_INDEX, t, k);
    }
  } else if (is(P, "..")) {
    next(P);
    t = mkcall(P, "recurse", NULL, 0);
  } else if (P->t == T_VAR) {
    const char *nm = tokname(P);
    next(P);
    if (!strcmp(nm, "__loc__")) {
      jv o = jv_obj(P->J);
      o = jv_oset(P->J, o, jv_cstr(P->J, "file"), jv_cstr(P->J, "<top-level>"));
      o = jv_oset(P->J, o, jv_cstr(P->J, "line"), jv_num(line_of(P, P->tpos)));
      t = mklit(P, o);
    } else {
      t = mk(P, N_VAR);
      if (t) {
        t->name = nm;
        resolve_var(P, t, -1);
      }
    }
  } else if (accept(P, "(")) {
    t = pipe_(P);
    expect(P, ")");
  } else if (accept(P, "[")) {
    t = mk(P, N_ARRAY);
    if (!accept(P, "]")) {
      if (t)
        t->a = pipe_(P);
      expect(P, "]");
    }
  } else if (accept(P, "{")) {
    t = object(P);
  } else if (is(P, "reduce") || is(P, "foreach")) {
    int fe = is(P, "foreach");
    next(P);
    t = reduce_foreach(P, fe);
  } else if (accept(P, "if")) {
    jnode *root = mk(P, N_IF), *cur = root;
    if (!root)
      return NULL;
    cur->a = pipe_(P);
    expect(P, "then");
    cur->b = pipe_(P);
    for (;;) {
      if (accept(P, "elif")) {
        jnode *e = mk(P, N_IF);
        if (!e)
          return NULL;
        e->a = pipe_(P);
        expect(P, "then");
        e->b = pipe_(P);
        cur->c = e;
        cur = e;
        continue;
      }
      if (accept(P, "else")) {
        cur->c = pipe_(P);
        expect(P, "end");
        break;
      }
      expect(P, "end");
      break;
    }
    t = root;
  } else if (accept(P, "try")) {
    t = mk(P, N_TRY);
    if (!t)
      return NULL;
    t->a = postterm(P);
    if (accept(P, "catch"))
      t->b = postterm(P);
  } else if (accept(P, "label")) {
    if (P->t != T_VAR) {
      unexpected(P);
      return NULL;
    }
    t = mk(P, N_LABEL);
    if (!t)
      return NULL;
    t->name = tokname(P);
    next(P);
    expect(P, "|");
    scope *save = P->sc;
    push_scope(P, t->name, -2);
    t->a = pipe_(P);
    P->sc = save;
  } else if (is(P, "def")) {
    t = funcdef(P);
  } else if (P->t == T_IDENT ||
             (P->t == T_KW && (is(P, "and") || is(P, "or") ? 0 : 0))) {
    const char *nm = tokname(P);
    next(P);
    if (!strcmp(nm, "break") && P->t == T_VAR) {
      t = mk(P, N_BREAK);
      if (t) {
        t->name = tokname(P);
        resolve_var(P, t, -2);
      }
      next(P);
    } else if (!strcmp(nm, "null") || !strcmp(nm, "true") ||
               !strcmp(nm, "false")) {
      t = mklit(P, nm[0] == 'n' ? jv_null() : jv_bool(nm[0] == 't'));
    } else {
      jnode *args[64];
      int na = 0;
      if (accept(P, "(")) {
        do {
          if (na >= 63) {
            perror_(P, "%s", "too many arguments");
            return NULL;
          }
          args[na++] = pipe_(P);
        } while (!P->err && accept(P, ";"));
        expect(P, ")");
      }
      jnode **av = NULL;
      if (na) {
        av = nalloc(P, sizeof(jnode *) * (size_t)na);
        if (av)
          memcpy(av, args, sizeof(jnode *) * (size_t)na);
      }
      t = mkcall(P, nm, av, na);
    }
  } else if (is(P, "-")) {
    next(P);
    t = mk2(P, N_NEG, postterm(P), NULL);
  } else {
    unexpected(P);
    return NULL;
  }
  t = suffixes(P, t);
  P->depth--;
  return t;
}

static jnode *postterm(ps *P) {
  return term(P);
}

static jnode *funcdef(ps *P) {
  /* at 'def' */
  next(P);
  if (P->t != T_IDENT && P->t != T_KW) {
    unexpected(P);
    return NULL;
  }
  jnode *d = mk(P, N_FUNCDEF);
  if (!d)
    return NULL;
  d->name = tokname(P);
  next(P);
  const char *params[64];
  int isvar[64];
  int np = 0;
  if (accept(P, "(")) {
    do {
      if (np >= 63) {
        perror_(P, "%s", "too many parameters");
        return NULL;
      }
      if (P->t == T_VAR) {
        params[np] = tokname(P);
        isvar[np++] = 1;
      } else if (P->t == T_IDENT || P->t == T_KW) {
        params[np] = tokname(P);
        isvar[np++] = 0;
      } else {
        unexpected(P);
        return NULL;
      }
      next(P);
    } while (!P->err && accept(P, ";"));
    expect(P, ")");
  }
  expect(P, ":");
  d->nparams = np;
  d->params = nalloc(P, sizeof(char *) * (size_t)(np ? np : 1));
  if (d->params)
    memcpy(d->params, params, sizeof(char *) * (size_t)np);
  scope *save = P->sc;
  int global = P->prelude && P->depth <= 1;
  if (global) {
    if (P->J->nglobals == P->J->capglobals) {
      int nc = P->J->capglobals ? P->J->capglobals * 2 : 256;
      jnode **ng =
          mem_realloc(P->J->m, P->J->globals, sizeof(jnode *) * (size_t)nc);
      if (!ng) {
        perror_(P, "%s", "Out of memory");
        return NULL;
      }
      P->J->globals = ng;
      P->J->capglobals = nc;
    }
    P->J->globals[P->J->nglobals++] = d;
    P->sc = NULL;
  } else
    push_scope(P, d->name, np);
  scope *outer = P->sc;
  for (int i = 0; i < np; i++)
    push_scope(P, params[i], 0);
  /* $params: body is `p as $p | ...` for each, in order */
  jnode *wrap_first = NULL, **hole = &wrap_first;
  for (int i = 0; i < np; i++) {
    if (!isvar[i])
      continue;
    jnode *as = mk(P, N_AS);
    if (!as)
      return NULL;
    jnode *call = mk(P, N_CALL);
    if (!call)
      return NULL;
    call->name = params[i];
    resolve_call(P, call);
    as->a = call;
    P->nvar = 0;
    as->b = pattern_var(P, params[i]);
    as->nvars = 1;
    *hole = as;
    hole = &as->c;
  }
  jnode *body = pipe_(P);
  *hole = body;
  d->a = wrap_first;
  expect(P, ";");
  P->sc = global ? save : outer;
  if (global) {
    d->ckind = C_GLOBAL;
    return d;
  }
  /* the rest of the expression sees the function */
  d->b = pipe_(P);
  P->sc = save;
  return d;
}

/* ---- binary operators by precedence ------------------------------------ */

static jnode *binop(ps *P, int lvl);

static int op_level(ps *P) {
  if (P->t != T_OP && P->t != T_KW)
    return -1;
  if (is(P, "//"))
    return 2;
  if (is(P, "=") || is(P, "|=") || is(P, "+=") || is(P, "-=") || is(P, "*=") ||
      is(P, "/=") || is(P, "%=") || is(P, "//="))
    return 3;
  if (is(P, "or"))
    return 4;
  if (is(P, "and"))
    return 5;
  if (is(P, "==") || is(P, "!=") || is(P, "<") || is(P, "<=") || is(P, ">") ||
      is(P, ">="))
    return 6;
  if (is(P, "+") || is(P, "-"))
    return 7;
  if (is(P, "*") || is(P, "/") || is(P, "%"))
    return 8;
  return -1;
}

static jnode *tmpvar_update(ps *P, jnode *lhs, jnode *rhs, int op) {
  /* rhs as $tmp | lhs |= (. op $tmp)  (op 'a': //) */
  jnode *as = mk(P, N_AS);
  if (!as)
    return NULL;
  as->a = rhs;
  scope *save = P->sc;
  P->nvar = 0;
  as->b = pattern_var(P, "\x01tmp");
  as->nvars = 1;
  jnode *v = mk(P, N_VAR);
  if (!v)
    return NULL;
  v->name = "\x01tmp";
  resolve_var(P, v, -1);
  /* lhs was parsed outside the binding: it is re-resolved by shifting
   * every frame reference out of it by one */
  jnode *f = op == 'a' ? mk2(P, N_ALT, mk(P, N_IDENT), v)
                       : mk2(P, N_BIN, mk(P, N_IDENT), v);
  if (f && op != 'a')
    f->op = (uint8_t)op;
  jnode *u = mk2(P, N_UPDATE, lhs, f);
  if (u)
    u->opt = 1; /* lhs is evaluated in the env without $tmp */
  as->c = u;
  P->sc = save;
  return as;
}

static jnode *binop(ps *P, int lvl) {
  if (lvl > 8)
    return postterm(P);
  jnode *a;
  if (lvl == 7 && is(P, "-")) {
    /* unary minus binds like binary minus */
    next(P);
    a = mk2(P, N_NEG, binop(P, 8), NULL);
  } else
    a = binop(P, lvl + 1);
  while (!P->err && op_level(P) == lvl) {
    char op[4] = {0};
    memcpy(op, P->ts, P->tn < 3 ? P->tn : 3);
    next(P);
    if (lvl == 2) { /* right assoc */
      jnode *b = binop(P, 2);
      a = mk2(P, N_ALT, a, b);
      continue;
    }
    if (lvl == 3) { /* nonassoc */
      jnode *b = binop(P, 4);
      if (!strcmp(op, "="))
        a = mk2(P, N_ASSIGN, a, b);
      else if (!strcmp(op, "|="))
        a = mk2(P, N_UPDATE, a, b);
      else if (!strcmp(op, "//="))
        a = tmpvar_update(P, a, b, 'a');
      else
        a = tmpvar_update(P, a, b, op[0]);
      if (op_level(P) == 3)
        unexpected(P);
      return a;
    }
    jnode *b = binop(P, lvl + 1);
    if (lvl == 4)
      a = mk2(P, N_OR, a, b);
    else if (lvl == 5)
      a = mk2(P, N_AND, a, b);
    else {
      a = mk2(P, N_BIN, a, b);
      if (a) {
        if (!strcmp(op, "=="))
          a->op = 'e';
        else if (!strcmp(op, "!="))
          a->op = 'n';
        else if (!strcmp(op, "<="))
          a->op = 'l';
        else if (!strcmp(op, ">="))
          a->op = 'g';
        else
          a->op = (uint8_t)op[0];
      }
      if (lvl == 6 && op_level(P) == 6)
        unexpected(P);
    }
  }
  return a;
}

static jnode *comma(ps *P) {
  jnode *a = binop(P, 2);
  while (!P->err && is(P, ",")) {
    next(P);
    a = mk2(P, N_COMMA, a, binop(P, 2));
  }
  return a;
}

static jnode *pipe_(ps *P) {
  if (P->err)
    return NULL;
  if (++P->depth > 400) {
    perror_(P, "%s", "program nested too deeply");
    return NULL;
  }
  jnode *r;
  if (is(P, "def")) {
    r = funcdef(P);
    P->depth--;
    return r;
  }
  if (is(P, "label") || is(P, "reduce") || is(P, "foreach") || is(P, "if") ||
      is(P, "try")) {
    /* terms that may be followed by operators: handled by term() */
  }
  jnode *a = comma(P);
  if (!P->err && is(P, "as")) {
    next(P);
    jnode *n = mk(P, N_AS);
    if (!n)
      return NULL;
    n->a = a;
    scope *save = P->sc;
    bind_patterns(P, n);
    expect(P, "|");
    n->c = pipe_(P);
    P->sc = save;
    P->depth--;
    return n;
  }
  if (!P->err && is(P, "|")) {
    next(P);
    a = mk2(P, N_PIPE, a, pipe_(P));
  }
  P->depth--;
  return a;
}

jnode *jq_compile(jqs *J, const char *src, size_t n, const char **vars,
                  int nvars, int prelude) {
  ps P;
  memset(&P, 0, sizeof P);
  P.J = J;
  P.src = src;
  P.p = src;
  P.end = src + n;
  P.prelude = prelude;
  for (int i = 0; i < nvars; i++)
    push_scope(&P, vars[i], -1);
  next(&P);
  jnode *root = NULL;
  if (prelude) {
    while (!P.err && P.t != T_EOF) {
      if (!is(&P, "def")) {
        unexpected(&P);
        break;
      }
      P.depth = 1;
      funcdef(&P);
      P.depth = 0;
    }
  } else {
    root = pipe_(&P);
    if (!P.err && P.t != T_EOF)
      unexpected(&P);
  }
  if (P.err) {
    jv_free(J, J->err);
    J->err = jv_cstr(J, P.msg);
    return NULL;
  }
  if (!root && !prelude)
    root = mk(&P, N_IDENT);
  return prelude ? (jnode *)J : root;
}

void jq_free_lits(jqs *J) {
  for (size_t i = 0; i < J->nlits; i++)
    jv_free(J, J->lits[i]);
  mem_free(J->m, J->lits);
  J->lits = NULL;
  J->nlits = J->caplits = 0;
}
