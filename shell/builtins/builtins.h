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
/* Completion specs and history of one shell process (sb_complete.c,
 * sb_history.c): a subshell gets a copy, sh_free releases them. */
void sh_comp_free(sh_exec *ex);
int sh_comp_copy(sh_exec *dst, const sh_exec *src);
void sh_hist_free(sh_exec *ex);
int sh_hist_copy(sh_exec *dst, const sh_exec *src);
/* getopts / trap names. */
int sh_signal_number(const char *name);
const char *sh_signal_name(int n);
/* set -o / shopt names and letters (sb_set.c), shared with `bash -o` and
 * [[ -o ]]. */
int sh_option_letter(sh_exec *ex, char ch, int on);
int sh_set_option_name(sh_exec *ex, const char *name, int on);
int sh_option_by_name(const char *name, unsigned *bit);

#endif
