/*
 * parse.h - the bash parser: source text to the tree of ast.h.
 *
 * Bash reads and runs one complete command at a time, so a syntax error on
 * line 10 does not stop lines 1-9 from running, and an alias defined on one
 * line applies from the next. sh_parse_next mirrors that: each call returns
 * the next complete command (everything up to an unquoted newline at the top
 * level, including here-document bodies).
 */
#ifndef VSH_SHELL_PARSE_H
#define VSH_SHELL_PARSE_H

#include <stddef.h>

#include "core/arena.h"
#include "shell/syntax/ast.h"

typedef struct sh_parser sh_parser;

typedef struct sh_parse_opts {
  /* Alias expansion: the value of an alias or NULL. NULL hook: none. */
  const char *(*alias)(void *ud, const char *name);
  void *alias_ud;
  /* Whether extglob patterns (@(..) ...) are recognised. */
  int (*extglob)(void *ud);
  int first_line; /* line number of the first line (default 1) */
  /* The text may go on (a prompt gathering lines): a here-document or a
   * backslash-newline cut off by the end is incomplete (-1 with
   * sh_parse_incomplete) instead of ending there as in a script. */
  int interactive;
} sh_parse_opts;

/* The parser allocates the tree in a (and keeps pointers into src, which
 * must outlive the tree). o may be NULL. */
sh_parser *sh_parser_new(arena *a, const char *src, size_t len,
                         const sh_parse_opts *o);
/* 1: *out is the next command (NULL for an empty line is never returned:
 * blank lines and comments are skipped); 0: end of input; -1: syntax error. */
int sh_parse_next(sh_parser *p, sh_node **out);
/* After -1: message without prefix, e.g.
 * "syntax error near unexpected token `fi'" or
 * "syntax error: unexpected end of file", and its line. */
const char *sh_parse_error(const sh_parser *p);
int sh_parse_error_line(const sh_parser *p);
/* After -1: the input ended inside a construct (an interactive prompt
 * asks for another line instead of reporting the error). */
int sh_parse_incomplete(const sh_parser *p);
/* After -1: the error is in a [[ ]] expression. bash prints only the
 * message for those (no second line quoting the source) and leaves $? as
 * it was instead of setting 2. */
int sh_parse_error_cond(const sh_parser *p);
/* After -1: the error is inside $( ), <( ) or >( ) (the end of the text
 * aside). bash then leaves the shell with status 127, even from eval. */
int sh_parse_error_cmdsub(const sh_parser *p);
/* After -1: a stray token inside an array literal NAME=( ... ). bash
 * drops the rest of that line with status 1 and reads on, in every mode;
 * sh_parse_next goes on after the line. */
int sh_parse_error_assign(const sh_parser *p);
/* Current line number (for $LINENO of the next command). */
int sh_parse_line(const sh_parser *p);

/* Parse a whole text into one N_LIST (used for $(...) bodies cached by the
 * interpreter, functions given as text, and tests). -1 on error with the
 * message in err (arena memory). */
int sh_parse_all(arena *a, const char *src, size_t len, const sh_parse_opts *o,
                 sh_node **out, const char **err, int *err_line);

/* Parse a word from text as if inside double quotes (for here-document
 * bodies given at run time and ${x:-...} in arithmetic); NULL on error. */
sh_word *sh_parse_dq_word(arena *a, const char *src, size_t len);

/* Write the canonical bash rendering of a command (as `type f` and
 * `declare -f` print functions) into out; indent is the starting level. */
struct buf;
int sh_print_node(struct buf *out, const sh_node *n, int indent);

#endif
