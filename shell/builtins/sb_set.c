/*
 * sb_set.c - set (letters, -o NAME, --, listing), shopt, shift, and the
 * option name tables shared with `bash -o` and [[ -o ]].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"
#include "shell/state/hist.h"

typedef struct optname {
  const char *name;
  unsigned bit;
  char letter;
} optname;

/* set -o names in bash's listing order. */
static const optname set_opts[] = {
    {"allexport", O_ALLEXPORT, 'a'},
    {"braceexpand", O_BRACEEXPAND, 'B'},
    {"emacs", O_EMACS, 0},
    {"errexit", O_ERREXIT, 'e'},
    {"errtrace", O_ERRTRACE, 'E'},
    {"functrace", O_FUNCTRACE, 'T'},
    {"hashall", O_HASHALL, 'h'},
    {"histexpand", O_HISTEXPAND, 'H'},
    {"history", O_HISTORY, 0},
    {"ignoreeof", O_IGNOREEOF, 0},
    {"interactive-comments", O_INTERACTIVE_COMMENTS, 0},
    {"keyword", O_KEYWORD, 'k'},
    {"monitor", O_MONITOR, 'm'},
    {"noclobber", O_NOCLOBBER, 'C'},
    {"noexec", O_NOEXEC, 'n'},
    {"noglob", O_NOGLOB, 'f'},
    {"nolog", O_NOLOG, 0},
    {"notify", O_NOTIFY, 'b'},
    {"nounset", O_NOUNSET, 'u'},
    {"onecmd", O_ONECMD, 't'},
    {"physical", O_PHYSICAL, 'P'},
    {"pipefail", O_PIPEFAIL, 0},
    {"posix", O_POSIX, 0},
    {"privileged", O_PRIVILEGED, 'p'},
    {"verbose", O_VERBOSE, 'v'},
    {"vi", O_VI, 0},
    {"xtrace", O_XTRACE, 'x'},
    {NULL, 0, 0}};

static const optname shopt_opts[] = {
    {"assoc_expand_once", SO_ASSOC_EXPAND_ONCE, 0},
    {"autocd", 0, 0},
    {"cdable_vars", 0, 0},
    {"cdspell", 0, 0},
    {"checkhash", 0, 0},
    {"checkjobs", SO_CHECKJOBS, 0},
    {"checkwinsize", SO_CHECKWINSIZE, 0},
    {"cmdhist", SO_CMDHIST, 0},
    {"compat31", 0, 0},
    {"compat32", 0, 0},
    {"compat40", 0, 0},
    {"compat41", 0, 0},
    {"compat42", 0, 0},
    {"compat43", 0, 0},
    {"compat44", 0, 0},
    {"complete_fullquote", SO_COMPLETE_FULLQUOTE, 0},
    {"direxpand", 0, 0},
    {"dirspell", 0, 0},
    {"dotglob", SO_DOTGLOB, 0},
    {"execfail", 0, 0},
    {"expand_aliases", SO_EXPAND_ALIASES, 0},
    {"extdebug", SO_EXTDEBUG, 0},
    {"extglob", SO_EXTGLOB, 0},
    {"extquote", SO_EXTQUOTE, 0},
    {"failglob", SO_FAILGLOB, 0},
    {"force_fignore", SO_FORCE_FIGNORE, 0},
    {"globasciiranges", SO_GLOBASCIIRANGES, 0},
    {"globskipdots", SO_GLOBSKIPDOTS, 0},
    {"globstar", SO_GLOBSTAR, 0},
    {"gnu_errfmt", 0, 0},
    {"histappend", O_HISTAPPEND, 'o'}, /* kept in ex->opts */
    {"histreedit", 0, 0},
    {"histverify", 0, 0},
    {"hostcomplete", SO_HOSTCOMPLETE, 0},
    {"huponexit", 0, 0},
    {"inherit_errexit", SO_INHERIT_ERREXIT, 0},
    {"interactive_comments", SO_INTERACTIVE_COMMENTS, 0},
    {"lastpipe", SO_LASTPIPE, 0},
    {"lithist", SO_LITHIST, 0},
    {"localvar_inherit", SO_LOCALVAR_INHERIT, 0},
    {"localvar_unset", SO_LOCALVAR_UNSET, 0},
    {"login_shell", 0, 0},
    {"mailwarn", 0, 0},
    {"no_empty_cmd_completion", 0, 0},
    {"nocaseglob", SO_NOCASEGLOB, 0},
    {"nocasematch", SO_NOCASEMATCH, 0},
    {"noexpand_translation", 0, 0},
    {"nullglob", SO_NULLGLOB, 0},
    {"patsub_replacement", SO_PATSUB_REPLACEMENT, 0},
    {"progcomp", SO_PROGCOMP, 0},
    {"progcomp_alias", 0, 0},
    {"promptvars", SO_PROMPTVARS, 0},
    {"restricted_shell", 0, 0},
    {"shift_verbose", SO_SHIFT_VERBOSE, 0},
    {"sourcepath", SO_SOURCEPATH, 0},
    {"varredir_close", 0, 0},
    {"xpg_echo", SO_XPG_ECHO, 0},
    {NULL, 0, 0}};

/* The i-th name of set -o (shopt 0) or shopt (1), NULL past the end. */
const char *sh_option_name_at(int shopt, int i) {
  const optname *t = shopt ? shopt_opts : set_opts;
  for (int k = 0; t[k].name; k++)
    if (k == i)
      return t[k].name;
  return NULL;
}

int sh_option_by_name(const char *name, unsigned *bit) {
  for (const optname *o = set_opts; o->name; o++)
    if (strcmp(o->name, name) == 0) {
      *bit = o->bit;
      return 0;
    }
  return -1;
}

int sh_option_letter(sh_exec *ex, char ch, int on) {
  for (const optname *o = set_opts; o->name; o++)
    if (o->letter == ch) {
      if (on)
        ex->opts |= o->bit;
      else
        ex->opts &= ~o->bit;
      return 0;
    }
  return -1;
}

int sh_set_option_name(sh_exec *ex, const char *name, int on) {
  unsigned bit;
  if (sh_option_by_name(name, &bit))
    return -1;
  if (on)
    ex->opts |= bit;
  else
    ex->opts &= ~bit;
  if (bit == O_VI && on)
    ex->opts &= ~O_EMACS;
  if (bit == O_EMACS && on)
    ex->opts &= ~O_VI;
  if (bit == O_HISTORY && on)
    sh_hist_enable(ex);
  return 0;
}

static int shopt_get(sh_exec *ex, const optname *o);

/* SHELLOPTS and BASHOPTS: the options that are on, by name, joined by ':'.
 * They are readonly to scripts; the shell rewrites them after every
 * change of an option. */
static void sync_one(sh_exec *ex, const char *name, const optname *t,
                     int shopt) {
  buf b;
  buf_init(&b, ex->m);
  for (const optname *o = t; o->name; o++) {
    int on = shopt ? shopt_get(ex, o) : (ex->opts & o->bit) != 0;
    if (on) {
      if (b.len)
        buf_putc(&b, ':');
      buf_puts(&b, o->name);
    }
  }
  sh_var *v = b.oom ? NULL : sh_var_find_raw(ex, name, NULL);
  if (!v && !b.oom)
    v = sh_var_lookup_for_write(ex, name, SV_GLOBAL);
  if (v && !(v->flags & (V_ARRAY | V_ASSOC | V_NAMEREF))) {
    v->flags &= ~V_READONLY;
    sh_var_set_direct(ex, v, b.len ? b.data : "", b.len, 0);
    v->flags |= V_READONLY;
  } else if (b.oom) {
    sh_oom(ex);
  }
  buf_free(&b);
}

void sh_sync_optvars(sh_exec *ex) {
  sync_one(ex, "SHELLOPTS", set_opts, 0);
  sync_one(ex, "BASHOPTS", shopt_opts, 1);
}

void sh_import_optvars(sh_exec *ex) {
  /* A SHELLOPTS from the environment turns its options on (bash reads
   * it at startup, which is how `export SHELLOPTS` passes set -x on). */
  sh_var *v = sh_var_find_raw(ex, "SHELLOPTS", NULL);
  const char *val = v && (v->flags & V_SET) && v->val ? v->val : NULL;
  while (val && *val) {
    const char *e = strchr(val, ':');
    size_t n = e ? (size_t)(e - val) : strlen(val);
    char nm[32];
    if (n < sizeof nm) {
      memcpy(nm, val, n);
      nm[n] = 0;
      sh_set_option_name(ex, nm, 1);
    }
    val = e ? e + 1 : NULL;
  }
  sh_sync_optvars(ex);
}

static int list_set_o(sh_exec *ex, int plus) {
  buf b;
  buf_init(&b, ex->m);
  for (const optname *o = set_opts; o->name; o++) {
    int on = (ex->opts & o->bit) != 0;
    if (plus)
      buf_printf(&b, "set %co %s\n", on ? '-' : '+', o->name);
    else
      buf_printf(&b, "%-15s\t%s\n", o->name, on ? "on" : "off");
  }
  sh_out(ex, b.data, b.len);
  buf_free(&b);
  return 0;
}

static int set_main(sh_exec *ex, int argc, char **argv);

int sb_set(sh_exec *ex, int argc, char **argv) {
  int st = set_main(ex, argc, argv);
  if (argc > 1)
    sh_sync_optvars(ex);
  return st;
}

static int by_var_name(const void *a, const void *b) {
  return strcmp((*(sh_var *const *)a)->name, (*(sh_var *const *)b)->name);
}

/* The variables `set` lists: the shell's, and the arrays bash computes
 * (BASH_LINENO, ...: empty ones print as NAME=()), in name order. */
static sh_var **set_listing(sh_exec *ex, size_t *n) {
  static const char *const computed[] = {
      "BASH_ALIASES", "BASH_ARGC", "BASH_ARGV", "BASH_CMDS", "BASH_LINENO",
      "BASH_SOURCE",  "DIRSTACK",  "GROUPS",    "FUNCNAME"};
  const size_t nc = sizeof computed / sizeof computed[0];
  size_t nv;
  sh_var **all = sh_all_vars(ex, ex->ar, &nv);
  sh_var **v = arena_alloc(ex->ar, (nv + nc) * sizeof *v);
  if (!v)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; all && i < nv; i++)
    v[k++] = all[i];
  for (size_t i = 0; i < nc; i++) {
    if (sh_var_find(ex, computed[i]))
      continue;
    sh_var *t = sh_special_array(ex, computed[i]);
    if (!t && i == nc - 1)
      continue; /* FUNCNAME: only while a function runs */
    if (!t) {
      t = arena_calloc(ex->ar, sizeof *t);
      sh_arr *a = arena_calloc(ex->ar, sizeof *a);
      if (!t || !a)
        return NULL;
      t->name = (char *)computed[i];
      t->flags = V_ARRAY | V_SET;
      t->arr = a;
    }
    v[k++] = t;
  }
  qsort(v, k, sizeof *v, by_var_name);
  *n = k;
  return v;
}

static int set_main(sh_exec *ex, int argc, char **argv) {
  if (argc == 1) {
    size_t n = 0;
    sh_var **all = set_listing(ex, &n);
    if (!all)
      return sh_oom(ex) ? 1 : 1;
    buf b;
    buf_init(&b, ex->m);
    for (size_t i = 0; all && i < n; i++)
      if (all[i]->flags & V_SET)
        sh_print_var(ex, &b, all[i], 0);
    sh_out(ex, b.data ? b.data : "", b.len);
    buf_free(&b);
    return 0;
  }
  int i = 1;
  int set_args = 0;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      i++;
      set_args = 1;
      break;
    }
    if (strcmp(a, "-") == 0) {
      ex->opts &= ~(O_XTRACE | O_VERBOSE);
      i++;
      set_args = i < argc;
      break;
    }
    if (strcmp(a, "+") == 0) /* bash skips a lone + among the options */
      continue;
    if ((a[0] != '-' && a[0] != '+') || !a[1])
      break;
    int on = a[0] == '-';
    for (const char *p = a + 1; *p; p++) {
      if (*p == 'o') {
        if (i + 1 >= argc) {
          list_set_o(ex, !on);
          continue;
        }
        const char *nm = argv[++i];
        if (sh_set_option_name(ex, nm, on)) {
          sh_builtin_err(ex, "set", "%s: invalid option name", nm);
          return 1;
        }
        continue;
      }
      if (sh_option_letter(ex, *p, on)) {
        sh_builtin_err(ex, "set", "-%c: invalid option", *p);
        sh_usage(ex, "set: usage: set [-abefhkmnptuvxBCEHPT] [-o "
                     "option-name] [--] [-] [arg ...]");
        return 2;
      }
    }
  }
  if (i < argc)
    set_args = 1;
  if (set_args) {
    sh_args *na = sh_args_new(ex->m, argc - i, argv + i);
    if (!na)
      return sh_oom(ex);
    sh_args_unref(ex->m, ex->args);
    ex->args = na;
  }
  return 0;
}

int sb_shift(sh_exec *ex, int argc, char **argv) {
  int64_t n = 1;
  if (argc > 2)
    return sh_too_many_args(ex, "shift");
  if (argc > 1) {
    if (sh_parse_int(argv[1], &n)) {
      sh_builtin_err(ex, "shift", "%s: numeric argument required", argv[1]);
      return 1;
    }
    if (n < 0) {
      sh_builtin_err(ex, "shift", "%s: shift count out of range", argv[1]);
      return 1;
    }
  }
  int have = ex->args ? ex->args->n : 0;
  if (n > have) {
    if (ex->shopts & SO_SHIFT_VERBOSE)
      sh_builtin_err(ex, "shift", "%lld: shift count out of range",
                     (long long)n);
    return 1;
  }
  if (n == 0)
    return 0;
  sh_args *na = sh_args_new(ex->m, have - (int)n, ex->args->v + n);
  if (!na)
    return sh_oom(ex);
  sh_args_unref(ex->m, ex->args);
  ex->args = na;
  return 0;
}

static int shopt_get(sh_exec *ex, const optname *o) {
  if (o->letter == 'o')
    return (ex->opts & o->bit) != 0;
  return o->bit && (ex->shopts & o->bit);
}

static int shopt_main(sh_exec *ex, int argc, char **argv);

int sb_shopt(sh_exec *ex, int argc, char **argv) {
  int st = shopt_main(ex, argc, argv);
  sh_sync_optvars(ex);
  return st;
}

static int shopt_main(sh_exec *ex, int argc, char **argv) {
  int set = 0, unset = 0, quiet = 0, print = 0, oflag = 0;
  sh_getopt g;
  sh_getopt_init(&g, ex, "shopt", argc, argv, "suqpo");
  g.usage = "[-pqsu] [-o] [optname ...]";
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    switch (o) {
    case 's':
      set = 1;
      break;
    case 'u':
      unset = 1;
      break;
    case 'q':
      quiet = 1;
      break;
    case 'p':
      print = 1;
      break;
    case 'o':
      oflag = 1;
      break;
    }
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  buf b;
  buf_init(&b, ex->m);
  int st = 0;
  if (i >= argc) {
    if (oflag) {
      for (const optname *o = set_opts; o->name; o++) {
        int on = (ex->opts & o->bit) != 0;
        if ((set && !on) || (unset && on))
          continue;
        if (print)
          buf_printf(&b, "set %co %s\n", on ? '-' : '+', o->name);
        else
          buf_printf(&b, "%-15s\t%s\n", o->name, on ? "on" : "off");
      }
    } else {
      for (const optname *o = shopt_opts; o->name; o++) {
        int on = shopt_get(ex, o);
        if ((set && !on) || (unset && on))
          continue;
        if (print)
          buf_printf(&b, "shopt %s %s\n", on ? "-s" : "-u", o->name);
        else
          buf_printf(&b, "%-15s\t%s\n", o->name, on ? "on" : "off");
      }
    }
    if (!quiet)
      sh_out(ex, b.data ? b.data : "", b.len);
    buf_free(&b);
    return 0;
  }
  for (; i < argc; i++) {
    const char *nm = argv[i];
    if (oflag) {
      unsigned bit;
      if (sh_option_by_name(nm, &bit)) {
        sh_builtin_err(ex, "shopt", "%s: invalid option name", nm);
        st = 1;
        continue;
      }
      if (set || unset) {
        sh_set_option_name(ex, nm, set);
      } else {
        int on = (ex->opts & bit) != 0;
        if (!on)
          st = 1;
        if (print)
          buf_printf(&b, "set %co %s\n", on ? '-' : '+', nm);
        else if (!quiet)
          buf_printf(&b, "%-15s\t%s\n", nm, on ? "on" : "off");
      }
      continue;
    }
    const optname *o = NULL;
    for (const optname *k = shopt_opts; k->name; k++)
      if (strcmp(k->name, nm) == 0)
        o = k;
    if (!o) {
      sh_builtin_err(ex, "shopt", "%s: invalid shell option name", nm);
      st = 1;
      continue;
    }
    if (set || unset) {
      if (o->letter == 'o') {
        if (set)
          ex->opts |= o->bit;
        else
          ex->opts &= ~o->bit;
      } else if (o->bit) {
        if (set)
          ex->shopts |= o->bit;
        else
          ex->shopts &= ~o->bit;
      }
      continue;
    }
    int on = shopt_get(ex, o);
    if (!on)
      st = 1;
    if (print)
      buf_printf(&b, "shopt %s %s\n", on ? "-s" : "-u", o->name);
    else if (!quiet)
      buf_printf(&b, "%-15s\t%s\n", o->name, on ? "on" : "off");
  }
  if (b.len)
    sh_out(ex, b.data, b.len);
  buf_free(&b);
  return st;
}
