/*
 * lex.c - bc's tokens: numbers (digits 0-9 and A-Z, split over lines
 * with a backslash), names, strings, operators, keywords, comments
 * (slash-star and #) and line continuations.
 */
#include "builtins/data/bc/lex.h"

#include <string.h>

static const struct {
  const char *w;
  int tok;
} keywords[] = {
    {"auto", T_AUTO},     {"break", T_BREAK},       {"continue", T_CONTINUE},
    {"define", T_DEFINE}, {"else", T_ELSE},         {"for", T_FOR},
    {"halt", T_HALT},     {"ibase", T_IBASE},       {"if", T_IF},
    {"last", T_LAST},     {"length", T_LENGTH},     {"limits", T_LIMITS},
    {"obase", T_OBASE},   {"print", T_PRINT},       {"quit", T_QUIT},
    {"read", T_READ},     {"return", T_RETURN},     {"scale", T_SCALE},
    {"sqrt", T_SQRT},     {"warranty", T_WARRANTY}, {"while", T_WHILE},
};

static int is_digit(int ch) {
  return (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z');
}

static int buf_put(bc_lex *lx, size_t n, char ch) {
  if (n + 1 >= lx->bufcap) {
    size_t cap = lx->bufcap ? lx->bufcap * 2 : 64;
    char *nb = mem_realloc(lx->b->e.m, lx->buf, cap);
    if (!nb)
      return -1;
    lx->buf = nb;
    lx->bufcap = cap;
  }
  lx->buf[n] = ch;
  return 0;
}

static int number(bc_lex *lx) {
  size_t n = 0;
  int dot = 0;
  while (lx->pos < lx->len) {
    char ch = lx->src[lx->pos];
    if (ch == '\\' && lx->pos + 1 < lx->len && lx->src[lx->pos + 1] == '\n') {
      lx->pos += 2;
      lx->line++;
      continue;
    }
    if (ch == '.' && !dot) {
      dot = 1;
    } else if (!is_digit(ch)) {
      break;
    }
    if (buf_put(lx, n++, ch))
      return -1;
    lx->pos++;
  }
  if (buf_put(lx, n, 0))
    return -1;
  lx->text = lx->buf;
  lx->tlen = n;
  lx->tok = T_NUM;
  return 0;
}

int bc_lex_next(bc_lex *lx) {
  const char *s = lx->src;
again:
  lx->sub = 0;
  for (;;) {
    if (lx->pos >= lx->len) {
      lx->tok = T_EOF;
      return 0;
    }
    char ch = s[lx->pos];
    if (ch == ' ' || ch == '\t') {
      lx->pos++;
    } else if (ch == '\\' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '\n') {
      lx->pos += 2;
      lx->line++;
    } else if (ch == '#') {
      while (lx->pos < lx->len && s[lx->pos] != '\n')
        lx->pos++;
    } else if (ch == '/' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '*') {
      lx->pos += 2;
      while (lx->pos < lx->len &&
             !(s[lx->pos] == '*' && lx->pos + 1 < lx->len &&
               s[lx->pos + 1] == '/')) {
        if (s[lx->pos] == '\n')
          lx->line++;
        lx->pos++;
      }
      lx->pos = lx->pos + 2 > lx->len ? lx->len : lx->pos + 2;
    } else {
      break;
    }
  }
  char ch = s[lx->pos];
  char nx = lx->pos + 1 < lx->len ? s[lx->pos + 1] : 0;
  if (is_digit(ch) || (ch == '.' && is_digit(nx)))
    return number(lx);
  if (ch >= 'a' && ch <= 'z') {
    size_t st = lx->pos;
    while (lx->pos < lx->len &&
           ((s[lx->pos] >= 'a' && s[lx->pos] <= 'z') ||
            (s[lx->pos] >= '0' && s[lx->pos] <= '9') || s[lx->pos] == '_'))
      lx->pos++;
    lx->text = s + st;
    lx->tlen = lx->pos - st;
    lx->tok = T_ID;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
      if (strlen(keywords[i].w) == lx->tlen &&
          !memcmp(keywords[i].w, lx->text, lx->tlen))
        lx->tok = keywords[i].tok;
    return 0;
  }
  if (ch == '"') {
    size_t st = lx->pos + 1, e = st;
    int lines = 0;
    while (e < lx->len && s[e] != '"')
      lines += s[e++] == '\n';
    if (e < lx->len) {
      lx->text = s + st;
      lx->tlen = e - st;
      lx->tok = T_STR;
      lx->line += lines;
      lx->pos = e + 1;
      return 0;
    }
    /* an unterminated quote is an illegal character like any other */
  }
  lx->pos++;
  int two = 1;
  switch (ch) {
  case '\n':
    lx->line++;
    lx->tok = T_NL;
    return 0;
  case ';':
    lx->tok = T_SEMI;
    return 0;
  case '(':
    lx->tok = T_LP;
    return 0;
  case ')':
    lx->tok = T_RP;
    return 0;
  case '[':
    lx->tok = T_LB;
    return 0;
  case ']':
    lx->tok = T_RB;
    return 0;
  case '{':
    lx->tok = T_LC;
    return 0;
  case '}':
    lx->tok = T_RC;
    return 0;
  case ',':
    lx->tok = T_COMMA;
    return 0;
  case '.':
    lx->tok = T_LAST;
    return 0;
  case '+':
  case '-':
    if (nx == ch) {
      lx->tok = ch == '+' ? T_INC : T_DEC;
      break;
    }
    /* fall through */
  case '*':
  case '/':
  case '%':
  case '^':
    if (nx == '=') {
      lx->tok = T_ASSIGN;
      lx->sub = ch == '+'   ? OP_ADD
                : ch == '-' ? OP_SUB
                : ch == '*' ? OP_MUL
                : ch == '/' ? OP_DIV
                : ch == '%' ? OP_MOD
                            : OP_POW;
      break;
    }
    two = 0;
    lx->tok = ch == '+'   ? T_PLUS
              : ch == '-' ? T_MINUS
              : ch == '*' ? T_STAR
              : ch == '/' ? T_SLASH
              : ch == '%' ? T_PCT
                          : T_CARET;
    break;
  case '=':
    if (nx == '=') {
      lx->tok = T_REL;
      lx->sub = OP_EQ;
    } else {
      two = 0;
      lx->tok = T_ASSIGN;
      lx->sub = 0;
    }
    break;
  case '!':
    if (nx == '=') {
      lx->tok = T_REL;
      lx->sub = OP_NE;
    } else {
      two = 0;
      lx->tok = T_NOT;
    }
    break;
  case '<':
  case '>':
    lx->tok = T_REL;
    if (nx == '=') {
      lx->sub = ch == '<' ? OP_LE : OP_GE;
    } else {
      two = 0;
      lx->sub = ch == '<' ? OP_LT : OP_GT;
    }
    break;
  case '&':
  case '|':
    if (nx == ch) {
      lx->tok = ch == '&' ? T_AND : T_OR;
      break;
    }
    /* fall through */
  default:
    /* reported and skipped: the parser never sees it */
    lx->bad = 1;
    if ((unsigned char)ch < 32)
      bc_error_msg(lx->b, "%s %d: illegal character: ^%c\n", lx->name, lx->line,
                   ch + 64);
    else if ((unsigned char)ch >= 127)
      bc_error_msg(lx->b, "%s %d: illegal character: \\%03o\n", lx->name,
                   lx->line, (unsigned char)ch);
    else
      bc_error_msg(lx->b, "%s %d: illegal character: %c\n", lx->name, lx->line,
                   ch);
    /* a loop, not a call: a run of thousands of illegal characters
     * must not take a stack frame each */
    goto again;
  }
  if (two)
    lx->pos++;
  return 0;
}
