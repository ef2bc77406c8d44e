/*
 * expand.h - the expansion stage: words of the syntax tree to fields and
 * strings (brace, tilde, parameters, arithmetic, command and process
 * substitution through sh_reenter, splitting, globbing over the VFS, quote
 * removal) and prompt strings. Calls state/ and syntax/; never exec/.
 */
#ifndef VSH_SHELL_EXPAND_H
#define VSH_SHELL_EXPAND_H

#include "shell/sh.h"

int sh_strv_push(arena *ar, sh_strv *sv, char *s);
/* Expand words into fields (brace, tilde, parameters, $(...), $((...)),
 * splitting, globbing, quote removal). 0 or -1 (error: ex->jump may be set
 * for a fatal error). */
int sh_expand_words(sh_exec *ex, sh_word **words, size_t n, sh_strv *out);
/* One word to one string, no splitting or globbing ("$@" joined by ' ').
 * Returns arena memory or NULL on error. Also the value of an assignment,
 * a here-document body and the text of $((...)) (where double quotes are
 * removed before it is evaluated): the lexer has already given such words
 * their own parts (tildes after '=' and ':', a body's quotes kept as
 * text), so they expand the same way. */
char *sh_expand_str(sh_exec *ex, sh_word *w, size_t *len);
/* A pattern: quoted characters escaped with '\\'. */
char *sh_expand_pattern(sh_exec *ex, sh_word *w, size_t *len);
/* Words of an array assignment x=(...) (split and globbed). */
int sh_expand_word_fields(sh_exec *ex, sh_word *w, sh_strv *out);
char *sh_expand_regex(sh_exec *ex, sh_word *w, size_t *len);
/* Text "name" or "name[sub]" naming a variable at run time, its subscript
 * expanded as in ${name[sub]} (the sh_ops parse_ref of state/): 0; 1 when
 * the text is neither form; -1 after an expansion error. */
int sh_parse_ref(sh_exec *ex, const char *t, size_t tl, sh_ref *r);
/* The value of the variable or element text t names (as above), NULL when
 * unset or not a name; for name[@], "" when the array has any element. */
const char *sh_ref_value(sh_exec *ex, const char *t);
void fb_init(fb *f, sh_exec *ex, int mode, sh_strv *out);
void fb_free(fb *f);
int fb_end(fb *f);
int sh_param_expand(sh_exec *ex, sh_param *p, int in_dq, pval *out);
/* Globbing. Returns the number of matches appended (0: none). */
int sh_glob(sh_exec *ex, const char *pat, size_t plen, sh_strv *out);
unsigned sh_pat_flags(sh_exec *ex);
/* Expand a prompt string (PS1 escapes, then $ expansions): arena memory,
 * NULL after an error. */
char *sh_prompt_expand(sh_exec *ex, const char *s, size_t n, size_t *outlen);

/* Brace expansion of one word's text: a{b,c}d -> abd acd; {1..5} {a..e}
 * {01..10..2}. Input bytes escaped with '\\' are literal (not braces or
 * commas) and are copied to the results still escaped, so the caller can
 * encode quoted text and whole expansions (e.g. "\\\x01\\<index>" for
 * the index-th non-literal part) and decode them afterwards. Returns the
 * number of results in *out (arena memory, each NUL-terminated with its
 * length in *lens). A word with no valid brace expression yields itself.
 * 0 on failure, with errno ENOMEM, ELOOP for braces nested deeper than
 * the expander allows, or E2BIG for a word whose expansion would take more
 * work than it allows (its lists multiply into millions of words). */
size_t sh_brace_expand(arena *a, const char *w, size_t len, char ***out,
                       size_t **lens);

/* The parameter of "${" t "}" when t is one plain name[subscript]
 * (expand_ref.c), or NULL: text that does not parse back as exactly that
 * (closing the brace early, say) is not a subscripted name. */
sh_param *sh_subscripted_param(sh_exec *ex, const char *t, size_t tl);

#endif
