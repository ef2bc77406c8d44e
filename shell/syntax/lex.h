/*
 * lex.h - helpers shared by the two halves of the lexer: lex.c (words and
 * their parts) and lex_token.c (tokens, assignments, here-documents).
 */
#ifndef VSH_SHELL_LEX_H
#define VSH_SHELL_LEX_H

#include "shell/syntax/parse_internal.h"

/* Source span from a start point to the current position, when both are in
 * the same input (an alias can make a word straddle two texts). */
typedef struct span {
  sh_input *in;
  size_t pos;
} span;

span sh_span_start(sh_parser *p);
size_t sh_span_len(sh_parser *p, span s);
const char *sh_span_ptr(span s);

/* A word being built: parts plus a pending literal run of one quotedness. */
typedef struct wbuild {
  sh_parser *p;
  sh_part *parts;
  size_t n, cap;
  char *lit;
  size_t llen, lcap;
  int lq;
  int has_quotes;
} wbuild;

void sh_wb_init(wbuild *b, sh_parser *p);
sh_part *sh_wb_push(wbuild *b, sh_part_kind k);
void sh_wb_flush(wbuild *b);
sh_part *sh_wb_new(wbuild *b, sh_part_kind k);
void sh_wb_addc(wbuild *b, int c, int quoted);
void sh_wb_adds(wbuild *b, const char *s, size_t n, int quoted);
int sh_wb_empty(const wbuild *b);
sh_word *sh_wb_word(wbuild *b);

int sh_is_name_start(int c);
int sh_is_name_char(int c);
int sh_is_digit(int c);
int sh_is_blank(int c);
int sh_is_meta(int c);
int sh_is_special_param(int c);

/* What ends the word being read (see sh_lex_parts). */
enum {
  WM_NORMAL,    /* a shell word: ends at a metacharacter */
  WM_REGEX,     /* right side of =~: parentheses and | belong to it */
  WM_BRACE,     /* word inside ${x-...}: ends at the matching } */
  WM_SLASH,     /* pattern of ${x/p/r}: ends at / or } */
  WM_SUBSCRIPT, /* a[...]: ends at the matching ] */
  WM_ARITH,     /* $((...)): ends at an unbalanced ) (or ; in for) */
  WM_SLICE      /* ${x:off:len}: ends at : or } */
};

/* Flags for sh_lex_parts. */
enum {
  WF_DQ = 1 << 0,      /* inside "..." (${...} words within double quotes) */
  WF_PATTERN = 1 << 1, /* a pattern: quotes keep their meaning even in "" */
  WF_ASSIGN = 1 << 2,  /* assignment value: ~ after = and : */
  WF_SEMI = 1 << 3,    /* WM_ARITH: stop at ; (for ((;;))) */
  WF_EXTGLOB = 1 << 4, /* extglob patterns whatever the option (in [[ ]]) */
  WF_ELEM = 1 << 5     /* array literal element: x=~ keeps its ~ */
};

/* Read parts into b until the mode's terminator (not consumed). */
void sh_lex_parts(sh_parser *p, wbuild *b, int mode, int flags);
/* The same into a new word (NULL when empty and !keep_empty). */
sh_word *sh_sub_word(sh_parser *p, int mode, int flags, int keep_empty);
/* After $(( at offset k: is this arithmetic (vs. $( (subshell) ))? */
int sh_arith_ahead(sh_parser *p, size_t k);
_Noreturn void sh_fail_eof_match(sh_parser *p, int line, const char *what);
/* The extglob option as the hook reports it now. */
int sh_extglob_on(sh_parser *p);

#endif
