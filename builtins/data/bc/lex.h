/*
 * lex.h - the tokens of bc's language.
 */
#ifndef VSH_BUILTINS_DATA_BC_LEX_H
#define VSH_BUILTINS_DATA_BC_LEX_H

#include <stddef.h>

#include "builtins/data/bc/bc.h"

enum {
  T_EOF,
  T_NL,
  T_SEMI,
  T_NUM, /* text in lx->buf */
  T_STR, /* raw text between the quotes */
  T_ID,
  T_LP,
  T_RP,
  T_LB,
  T_RB,
  T_LC,
  T_RC,
  T_COMMA,
  T_PLUS,
  T_MINUS,
  T_STAR,
  T_SLASH,
  T_PCT,
  T_CARET,
  T_ASSIGN, /* sub: 0 for =, else the operator's OP_ */
  T_INC,
  T_DEC,
  T_REL, /* sub: OP_EQ ... */
  T_NOT,
  T_AND,
  T_OR,
  /* keywords */
  T_AUTO,
  T_BREAK,
  T_CONTINUE,
  T_DEFINE,
  T_ELSE,
  T_FOR,
  T_HALT,
  T_IBASE,
  T_IF,
  T_LAST,
  T_LENGTH,
  T_LIMITS,
  T_OBASE,
  T_PRINT,
  T_QUIT,
  T_READ,
  T_RETURN,
  T_SCALE,
  T_SQRT,
  T_WARRANTY,
  T_WHILE,
};

typedef struct bc_lex {
  bc *b;
  const char *name; /* "(standard_in)" or the file name, for messages */
  const char *src;
  size_t len, pos;
  int line;
  int tok, sub;
  int bad;          /* an illegal character was skipped: the line is not run */
  const char *text; /* of T_ID, T_STR, T_NUM */
  size_t tlen;
  char *buf; /* a number without its line continuations */
  size_t bufcap;
} bc_lex;

/* Next token into lx->tok; -1 when memory ran out. */
int bc_lex_next(bc_lex *lx);

#endif
