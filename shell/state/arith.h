/*
 * arith.h - bash arithmetic: $((...)), ((...)), let, array subscripts,
 * declare -i. 64-bit signed integers with wrap-around, bash's operators and
 * precedence, bases (0x, 0, N#digits), assignment operators, comma, ternary,
 * pre/post increment. Variables are reached through callbacks so this file
 * knows nothing of the variable store; a variable whose value is itself an
 * expression is evaluated recursively (bash semantics, depth-limited).
 */
#ifndef VSH_SHELL_ARITH_H
#define VSH_SHELL_ARITH_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

typedef struct sh_arith_env {
  void *ud;
  /* Value of name (or name[subscript] when sub != NULL; sub is the raw
   * subscript text) as a string, or NULL when unset. */
  const char *(*get)(void *ud, const char *name, const char *sub);
  /* Assign an integer; return 0, or -1 (readonly: message set by callee). */
  int (*set)(void *ud, const char *name, const char *sub, int64_t value);
  /* Set when `set -u` is on: referencing an unset variable is an error. */
  int nounset;
  /* When not NULL, set to 1 when that error (not a syntax one) ended the
   * evaluation: bash treats it like any unbound variable. */
  int *unbound;
  /* Optional: whether the variable name exists at all. Under nounset an
   * unset element of an existing array reads as 0, as in bash; without
   * this callback it is an error. */
  int (*exists)(void *ud, const char *name);
} sh_arith_env;

/* Evaluate expr[0..len). Returns 0 and *out, or -1 with *err set to bash's
 * message body, e.g. "division by 0 (error token is \"0\")" or
 * "syntax error: operand expected (error token is \"+ \")". The caller
 * prefixes "bash: EXPR: " as bash does. Scratch memory comes from a. */
int sh_arith_eval(arena *a, const sh_arith_env *env, const char *expr,
                  size_t len, int64_t *out, const char **err);

#endif
