/*
 * parse_cond.c - the [[ ... ]] conditional command.
 *
 * Inside [[ ]] the lexer runs in LX_COND mode: < and > compare instead of
 * redirecting, ( ) group, and words are not split or globbed later. The
 * right side of =~ is read by a dedicated lexer mode in which parentheses
 * and | belong to the regular expression.
 */
#include <string.h>

#include "shell/syntax/parse_internal.h"

static sh_cond *cond_or(sh_parser *p);

static void skip_nl(sh_parser *p) {
  while (sh_peek(p, LX_COND)->kind == T_NEWLINE)
    sh_consume(p);
}

static const char *const unary_ops[] = {
    "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k",
    "-p", "-r", "-s", "-t", "-u", "-w", "-x", "-G", "-L",
    "-N", "-O", "-S", "-z", "-n", "-o", "-v", "-R", NULL};

static const char *const binary_ops[] = {"==",  "=",   "!=",  "=~",  "-eq",
                                         "-ne", "-lt", "-le", "-gt", "-ge",
                                         "-nt", "-ot", "-ef", NULL};

static const char *find_op(const char *const *ops, const char *s) {
  if (!s)
    return NULL;
  for (int i = 0; ops[i]; i++)
    if (!strcmp(ops[i], s))
      return ops[i];
  return NULL;
}

static sh_cond *new_cond(sh_parser *p, sh_cond_kind k) {
  sh_cond *c = sh_alloc(p, sizeof *c);
  c->kind = k;
  return c;
}

static const char *tok_text(const sh_tok *t, char *buf, size_t n) {
  if (t->kind == T_NEWLINE)
    return "newline";
  if (t->kind == T_EOF)
    return "EOF";
  size_t l = t->src_len < n - 1 ? t->src_len : n - 1;
  memcpy(buf, t->src, l);
  buf[l] = 0;
  return buf;
}

static _Noreturn void cond_fail(sh_parser *p, const sh_tok *t,
                                const char *fmt) {
  char buf[128];
  p->line = t->line;
  p->cond_err = 1;
  sh_fail(p, t->kind == T_EOF, fmt, tok_text(t, buf, sizeof buf));
}

static int is_end(const sh_tok *t) {
  return sh_tok_is(t, "]]");
}

static sh_cond *primary(sh_parser *p) {
  sh_tok *t = sh_peek(p, LX_COND);
  if (t->kind == T_LPAREN) {
    sh_consume(p);
    sh_cond *c = cond_or(p);
    t = sh_peek(p, LX_COND);
    if (t->kind != T_RPAREN)
      cond_fail(p, t, "unexpected token `%s', expected `)'");
    sh_consume(p);
    c->paren = 1;
    return c;
  }
  if (t->kind != T_WORD || is_end(t))
    cond_fail(p, t, "unexpected token `%s' in conditional command");
  const char *uop = find_op(unary_ops, sh_word_plain(t->w));
  if (uop) {
    sh_word *opw = t->w;
    sh_consume(p);
    t = sh_peek(p, LX_COND);
    if (t->kind == T_WORD && !is_end(t)) {
      sh_cond *c = new_cond(p, C_UNARY);
      c->op = uop;
      c->a = t->w;
      sh_consume(p);
      return c;
    }
    /* `-f` alone would be a word, but bash rejects [[ -f ]]. */
    if (is_end(t))
      cond_fail(p, t, "unexpected argument `%s' to conditional unary operator");
    sh_cond *c = new_cond(p, C_WORD);
    c->a = opw;
    return c;
  }
  sh_word *a = t->w;
  sh_consume(p);
  t = sh_peek(p, LX_COND);
  const char *bop = NULL;
  if (t->kind == T_COND_OP)
    bop = t->op;
  else if (t->kind == T_WORD)
    bop = find_op(binary_ops, sh_word_plain(t->w));
  if (!bop) {
    if (t->kind == T_WORD && !is_end(t))
      cond_fail(p, t, "conditional binary operator expected");
    if (t->kind == T_NEWLINE || t->kind == T_LPAREN)
      cond_fail(p, t,
                "unexpected token `%s', conditional binary operator expected");
    sh_cond *c = new_cond(p, C_WORD);
    c->a = a;
    return c;
  }
  sh_consume(p);
  sh_cond *c = new_cond(p, C_BINARY);
  c->op = bop;
  c->a = a;
  if (!strcmp(bop, "=~")) {
    sh_skip_blanks(p);
    int ch = sh_peekc(p);
    if (ch == -1 || ch == '\n' ||
        (ch == ']' && sh_peekc_at(p, 1) == ']' &&
         (sh_peekc_at(p, 2) == ' ' || sh_peekc_at(p, 2) == '\t' ||
          sh_peekc_at(p, 2) == '\n' || sh_peekc_at(p, 2) == ';' ||
          sh_peekc_at(p, 2) == -1))) {
      t = sh_peek(p, LX_COND);
      cond_fail(p, t,
                "unexpected argument `%s' to conditional binary operator");
    }
    c->b = sh_lex_regex(p);
    return c;
  }
  t = sh_peek(p, LX_COND | LX_PAT);
  if (t->kind != T_WORD || is_end(t))
    cond_fail(p, t, "unexpected argument `%s' to conditional binary operator");
  c->b = t->w;
  sh_consume(p);
  return c;
}

static sh_cond *cond_not(sh_parser *p) {
  skip_nl(p);
  sh_tok *t = sh_peek(p, LX_COND);
  if (sh_tok_is(t, "!")) {
    sh_consume(p);
    sh_enter(p);
    sh_cond *c = new_cond(p, C_NOT);
    c->l = cond_not(p);
    sh_leave(p);
    return c;
  }
  sh_enter(p);
  sh_cond *c = primary(p);
  sh_leave(p);
  return c;
}

static sh_cond *cond_and(sh_parser *p) {
  sh_cond *l = cond_not(p);
  skip_nl(p);
  while (sh_peek(p, LX_COND)->kind == T_AND_IF) {
    sh_consume(p);
    skip_nl(p);
    sh_cond *c = new_cond(p, C_AND);
    c->l = l;
    c->r = cond_not(p);
    skip_nl(p);
    l = c;
  }
  return l;
}

static sh_cond *cond_or(sh_parser *p) {
  sh_cond *l = cond_and(p);
  while (sh_peek(p, LX_COND)->kind == T_OR_IF) {
    sh_consume(p);
    skip_nl(p);
    sh_cond *c = new_cond(p, C_OR);
    c->l = l;
    c->r = cond_and(p);
    skip_nl(p);
    l = c;
  }
  return l;
}

sh_cond *sh_parse_cond(sh_parser *p) {
  int line = p->line;
  sh_cond *c = cond_or(p);
  sh_tok *t = sh_peek(p, LX_COND);
  if (t->kind == T_EOF) {
    p->line = line;
    p->cond_err = 1;
    sh_fail(p, 1, "unexpected EOF while looking for `]]'");
  }
  if (!is_end(t)) {
    if (t->kind == T_WORD)
      cond_fail(p, t,
                "syntax error in conditional expression: unexpected "
                "token `%s'");
    cond_fail(p, t,
              "unexpected token `%s', conditional binary operator "
              "expected");
  }
  sh_consume(p);
  return c;
}
