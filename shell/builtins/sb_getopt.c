/*
 * sb_getopt.c - reading the options of a shell builtin, the way bash's
 * builtins read theirs: clusters of letters, "--", and letters that take
 * an argument. The builtins keep what each option means; this file keeps
 * where options stop and how a mistake is reported.
 */
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

void sh_getopt_init(sh_getopt *g, sh_exec *ex, const char *name, int argc,
                    char **argv, const char *letters) {
  memset(g, 0, sizeof *g);
  g->ex = ex;
  g->name = name;
  g->argc = argc;
  g->argv = argv;
  g->letters = letters;
  g->ind = 1;
}

int sh_getopt_next(sh_getopt *g) {
  if (!g->next) {
    if (g->ind >= g->argc)
      return 0;
    const char *a = g->argv[g->ind];
    /* A lone "-" or "+" is an operand, like any word without a sign. */
    if ((a[0] != '-' && (a[0] != '+' || !g->plus)) || !a[1])
      return 0;
    if (strcmp(a, "--") == 0) {
      g->ind++;
      return 0;
    }
    g->on = a[0] == '-';
    g->next = a + 1;
  }
  int c = (unsigned char)*g->next++;
  g->opt = c;
  g->arg = NULL;
  /* ':' marks an argument in the list, so it is never a letter itself. */
  const char *spec = c != ':' ? strchr(g->letters, c) : NULL;
  if (!spec) {
    if (!g->quiet) {
      sh_builtin_err(g->ex, g->name, "-%c: invalid option", c);
      if (g->usage)
        sh_usage(g->ex, "%s: usage: %s %s", g->name, g->name, g->usage);
    }
    return -1;
  }
  if (spec[1] == ':') {
    /* The rest of the word, or else the whole next word, even one that
     * looks like an option or is empty. */
    if (*g->next) {
      g->arg = g->next;
    } else if (g->ind + 1 < g->argc) {
      g->arg = g->argv[++g->ind];
    } else {
      if (!g->quiet)
        sh_builtin_err(g->ex, g->name, "-%c: option requires an argument", c);
      return -1;
    }
    g->next = "";
  }
  if (!*g->next) {
    g->next = NULL;
    g->ind++;
  }
  return c;
}
