/*
 * builtins.h - the shell's own builtins (cd, declare, read, set, trap,
 * complete, ...): commands that need the shell's state. Called by exec/
 * through the table; they call state/ and expand/, and re-enter execution
 * only through sh_reenter.
 */
#ifndef VSH_SHELL_BUILTINS_H
#define VSH_SHELL_BUILTINS_H

#include "shell/sh.h"

int sh_builtin_disabled(sh_exec *ex, const char *name);
const sh_builtin *sh_builtin_lookup(const char *name);
const sh_builtin *sh_builtin_all(size_t *n);
/* A command of builtins/ that bash has as a builtin (echo, test, ...):
 * found without a PATH search. */
int sh_is_bash_builtin(const char *name);
/* Completion specs and history of one shell process (sb_complete.c,
 * state/hist.c): a subshell gets a copy, sh_free releases them. */
void sh_comp_free(sh_exec *ex);
int sh_comp_copy(sh_exec *dst, const sh_exec *src);
void sh_bind_free(sh_exec *ex); /* sb_bind.c */
int sh_bind_copy(sh_exec *dst, const sh_exec *src);
void sh_hist_free(sh_exec *ex);
int sh_hist_copy(sh_exec *dst, const sh_exec *src);
/* "NAME: too many arguments", and the shell exits with 1 (shift, break,
 * continue, return: sb_flow.c). Returns 1. */
int sh_too_many_args(sh_exec *ex, const char *me);
/* getopts / trap names. */
int sh_signal_number(const char *name);
const char *sh_signal_name(int n);
/* set -o / shopt names and letters (sb_set.c), shared with `bash -o` and
 * [[ -o ]]. */
int sh_option_letter(sh_exec *ex, char ch, int on);
int sh_set_option_name(sh_exec *ex, const char *name, int on);
int sh_option_by_name(const char *name, unsigned *bit);
/* Rewrite the readonly SHELLOPTS and BASHOPTS from the options now on;
 * the import first turns on the options an inherited SHELLOPTS names. */
void sh_sync_optvars(sh_exec *ex);
void sh_import_optvars(sh_exec *ex);
/* What ulimit set for this shell (sb_ulimit.c): non-zero when -n leaves no
 * room for another open file; the -f size cap in bytes (UINT64_MAX: none). */
int sh_ulimit_fd_refused(sh_exec *ex);
uint64_t sh_ulimit_file_bytes(sh_exec *ex);

/*
 * The options of a shell builtin (sb_getopt.c), read as bash's builtins
 * read theirs:
 *
 *   sh_getopt g;
 *   sh_getopt_init(&g, ex, "read", argc, argv, "rsa:d:");
 *   g.usage = "[-rs] [-a array] [-d delim] [name ...]";
 *   int o;
 *   while ((o = sh_getopt_next(&g)) > 0)
 *     switch (o) { case 'a': arr = g.arg; break; ... }
 *   if (o < 0)
 *     return 2;
 *   ... the operands are argv[g.ind] to argv[argc - 1] ...
 *
 * Letters come in clusters after '-' (or '+' too when g.plus is set; g.on
 * says which), up to "--" (skipped), a lone "-" or the first other word.
 * A letter followed by ':' in the list takes an argument: the rest of its
 * word, or else the next word, whatever it holds. sh_getopt_next returns
 * the letter, 0 at the end, or -1 for a letter not in the list or a
 * missing argument, after reporting "NAME: -x: invalid option" (then
 * "NAME: usage: NAME USAGE" when g.usage is set) or "NAME: -x: option
 * requires an argument". With g.quiet nothing is printed: the caller
 * words it, from g.opt and the word argv[g.ind].
 */
typedef struct sh_getopt {
  sh_exec *ex;
  const char *name; /* the builtin, in messages */
  int argc;
  char **argv;
  const char *letters;
  const char *usage; /* the arguments part of the usage line, or NULL */
  int plus;          /* '+' starts a cluster as well as '-' */
  int quiet;         /* report nothing, the caller does */
  int ind;           /* the word being read; at the end the first operand */
  const char *next;  /* rest of the cluster, NULL between words */
  int on;            /* 1 in a '-' cluster, 0 in a '+' one */
  int opt;           /* the letter returned or refused */
  const char *arg;   /* its argument, for a letter that takes one */
} sh_getopt;

void sh_getopt_init(sh_getopt *g, sh_exec *ex, const char *name, int argc,
                    char **argv, const char *letters);
int sh_getopt_next(sh_getopt *g);

#endif
