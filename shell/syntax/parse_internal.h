/*
 * parse_internal.h - state shared by the lexer (lex.c) and the grammar
 * (parse.c, parse_cond.c). Not part of the shell's API: the rest of vsh uses
 * parse.h only.
 *
 * The lexer works on characters directly, not on a token stream: bash's
 * lexical rules depend on where the parser is (command position, inside
 * [[ ]], inside ${...}), and $(...) bodies are parsed by the grammar
 * recursively in the middle of a word. Errors and arena exhaustion unwind
 * with longjmp to the entry point (everything lives in the arena, so there
 * is nothing to free on the way).
 */
#ifndef VSH_SHELL_PARSE_INTERNAL_H
#define VSH_SHELL_PARSE_INTERNAL_H

#include <setjmp.h>
#include <stddef.h>
#include <string.h>

#include "shell/syntax/parse.h"

/* One text being read. Alias values, backtick bodies and here-document
 * bodies are pushed on top of the script text and read in its place. */
typedef struct sh_input {
  const char *s;
  size_t len, pos;
  const char *alias; /* alias being expanded (recursion guard), or NULL */
  int boundary;      /* the end of this text is the end of input */
  int trail_blank;   /* alias value ends in a blank: check the next word */
  int count_lines;   /* newlines here advance the line counter */
  struct sh_input *prev;
} sh_input;

typedef enum sh_tok_kind {
  T_EOF,
  T_NEWLINE,
  T_WORD,
  T_REDIR,
  T_SEMI,      /* ; */
  T_AMP,       /* & */
  T_AND_IF,    /* && */
  T_OR_IF,     /* || */
  T_PIPE,      /* | */
  T_PIPE_AMP,  /* |& */
  T_DSEMI,     /* ;; */
  T_SEMI_AMP,  /* ;& */
  T_DSEMI_AMP, /* ;;& */
  T_LPAREN,
  T_RPAREN,
  T_DLPAREN, /* (( at command start or after for: arithmetic follows */
  T_COND_OP  /* inside [[ ]]: < > ! ( ) && || as operators */
} sh_tok_kind;

/* Lexing modes requested by the grammar when it looks at the next token. */
enum {
  LX_ARG = 0,       /* an argument: no assignments, no (( */
  LX_CMD = 1 << 0,  /* command position: assignments and (( recognised */
  LX_DECL = 1 << 1, /* argument of declare & co: NAME=... is assign-like */
  LX_COND = 1 << 2, /* inside [[ ]] */
  LX_EVAL = 1 << 3, /* argument of eval/let: x=(...) is one literal word */
  LX_PAT = 1 << 4   /* with LX_COND: a pattern operand, where !( starts an
                       extglob rather than being the ! operator */
};

typedef struct sh_tok {
  sh_tok_kind kind;
  int mode; /* LX_* it was lexed with */
  int line;
  const char *src; /* token text (for error messages) */
  size_t src_len;
  sh_word *w;      /* T_WORD */
  sh_assign *as;   /* T_WORD that is an assignment (LX_CMD/LX_DECL) */
  int alias_ok;    /* word follows an alias whose value ends in blank */
  sh_redir_op rop; /* T_REDIR */
  int fd;
  const char *fd_var;
  int strip;      /* <<- */
  const char *op; /* T_COND_OP text */
} sh_tok;

typedef struct sh_pending_doc {
  sh_redir *r;
  const char *delim;
  size_t dlen;
} sh_pending_doc;

struct sh_parser {
  arena *a;
  sh_parse_opts o;
  sh_input *in;
  sh_input base;
  int line;
  jmp_buf *jb;
  sh_tok tok;
  int have_tok;
  int blank_alias_popped; /* a trailing-blank alias just ended */
  int alias_first;        /* an alias value was just pushed */
  sh_pending_doc *docs;
  size_t ndocs, capdocs;
  size_t ndocs_total; /* here-documents seen so far */
  /* Functions of the current line whose here-document bodies are still to
   * be read: their source text is extended over the bodies. */
  sh_node **doc_funcs;
  size_t ndoc_funcs, capdoc_funcs;
  int depth;
  int cmdsub_depth; /* inside $( ), <( ) or >( ): EOF errors name the ) */
  const char *err;
  int err_line;
  int incomplete;
  int cond_err;   /* the error is inside [[ ]] */
  int cmdsub_err; /* a syntax error (not the end) inside $( ) or <( ) */
  int fatal;      /* out of memory or too deep: no recovery */
  int assign_err; /* a stray token inside NAME=( ... ) */
  int failed;
  int virt_nl;      /* the newline assumed at the end of the text was read */
  int assign_value; /* the $ being read is in an assignment's value: its
                       ${x-w} word expands ~ after : too (x=${u-~:~}) */
};

#define SH_MAX_DEPTH 200

/* ---- helpers (lex.c) ---- */
void *sh_alloc(sh_parser *p, size_t n);
char *sh_strndup(sh_parser *p, const char *s, size_t n);
void *sh_grow(sh_parser *p, void *v, size_t *cap, size_t n, size_t elsz);
_Noreturn void sh_fail(sh_parser *p, int incomplete, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void sh_unexpected(sh_parser *p, const sh_tok *t);
void sh_enter(sh_parser *p);
void sh_leave(sh_parser *p);

int sh_peekc_at(sh_parser *p, size_t k);
int sh_getc_slow(sh_parser *p);

/* The next character, or -1; the common case (the current input has one
 * left) inline, the rest (inputs that end, pushed texts) in lex.c. */
static inline int sh_peekc(sh_parser *p) {
  const sh_input *in = p->in;
  if (in->pos < in->len)
    return (unsigned char)in->s[in->pos];
  return sh_peekc_at(p, 0);
}

/* Read the next character, or -1 at the end. */
static inline int sh_getc(sh_parser *p) {
  sh_input *in = p->in;
  if (in->pos < in->len) {
    int c = (unsigned char)in->s[in->pos++];
    if (c == '\n' && in == &p->base)
      p->line++;
    return c;
  }
  return sh_getc_slow(p);
}
void sh_push_input(sh_parser *p, const char *s, size_t len, const char *alias,
                   int boundary);
/* Position in the current input, for source spans. */
const char *sh_here(sh_parser *p);

/* The next token; mode matters only when it is lexed here, not when it
 * was already read. */
sh_tok *sh_peek_lex(sh_parser *p, int mode);
static inline sh_tok *sh_peek(sh_parser *p, int mode) {
  return p->have_tok ? &p->tok : sh_peek_lex(p, mode);
}
/* If the word token t is an alias, read its value in its place and return
 * 1 (the token is consumed: peek again). */
int sh_try_alias(sh_parser *p, sh_tok *t);
void sh_consume(sh_parser *p);
void sh_skip_blanks(sh_parser *p);

/* Word-level lexing entry points. */
sh_word *sh_lex_arith(sh_parser *p, int stop_semi, int *stopped_at);
sh_word *sh_lex_regex(sh_parser *p);
sh_word *sh_lex_heredoc_body(sh_parser *p, const char *s, size_t n);
sh_word *sh_lex_dq_text(sh_parser *p, const char *s, size_t n);

/* Decode the body of $'...' (n bytes, without quotes) into out (at least
 * n bytes); returns the length, cut at the first NUL as bash does. */
size_t sh_ansi_decode(const char *s, size_t n, char *out);

/* A word that is one unquoted literal (reserved words, aliases, names). */
const char *sh_word_plain(const sh_word *w);
/* Whether t is the unquoted word rw (a reserved word). */
static inline int sh_tok_is(const sh_tok *t, const char *rw) {
  if (t->kind != T_WORD || t->as)
    return 0;
  const sh_word *w = t->w;
  if (!w || w->nparts != 1 || w->parts[0].kind != WP_LIT || w->parts[0].quoted)
    return 0;
  const char *s = w->parts[0].u.lit.text;
  /* most words are no reserved word: the first byte tells */
  return s && s[0] == rw[0] && !strcmp(s, rw);
}
int sh_is_name(const char *s, size_t n);

/* ---- grammar (parse.c) ---- */
sh_node *sh_parse_cmdsub_body(sh_parser *p);
sh_node *sh_parse_list_until_eof(sh_parser *p);
sh_node *sh_new_node(sh_parser *p, sh_node_kind k, int line);

/* ---- [[ ]] (parse_cond.c) ---- */
sh_cond *sh_parse_cond(sh_parser *p);

/* ---- debugging (ast_dump.c) ---- */
struct buf;
/* A compact one-line S-expression of a tree, for tests and debugging. */
int sh_ast_dump(struct buf *out, const sh_node *n);
int sh_ast_dump_word(struct buf *out, const sh_word *w);

/* ---- tools (ast_json.c) ---- */
/* A tree as one JSON object (see ast_json.c); -1 when out ran out of
 * memory. sh_json_string writes bytes as a JSON string. */
int sh_ast_json(struct buf *out, const sh_node *n);
int sh_json_string(struct buf *out, const char *s, size_t n);

#endif
