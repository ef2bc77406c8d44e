/*
 * sb_table.c - the table of shell builtins (commands that need the shell's
 * state), looked up before the builtin commands of builtins/.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "shell/sh.h"

#define SB(name) int sb_##name(sh_exec *ex, int argc, char **argv);
SB(colon)
SB(alias)
SB(unalias)
SB(bash)
SB(break)
SB(builtin)
SB(caller)
SB(cd)
SB(command)
SB(compgen)
SB(complete)
SB(compopt)
SB(continue)
SB(declare)
SB(dirs)
SB(disown)
SB(enable)
SB(eval)
SB(exec)
SB(exit)
SB(export)
SB(getopts)
SB(hash)
SB(help)
SB(jobs)
SB(kill)
SB(let)
SB(local)
SB(mapfile)
SB(popd)
SB(pushd)
SB(pwd)
SB(read)
SB(readonly)
SB(return )
SB(set)
SB(shift)
SB(shopt)
SB(source)
SB(times)
SB(trap)
SB(type)
SB(umask)
SB(unset)
SB(wait)
#undef SB

/* Sorted by name (bsearch). */
static const sh_builtin table[] = {
    {".", sb_source, SB_SPECIAL},
    {":", sb_colon, SB_SPECIAL},
    {"alias", sb_alias, 0},
    {"bash", sb_bash, 0},
    {"break", sb_break, SB_SPECIAL},
    {"builtin", sb_builtin, 0},
    {"caller", sb_caller, 0},
    {"cd", sb_cd, 0},
    {"command", sb_command, 0},
    {"compgen", sb_compgen, 0},
    {"complete", sb_complete, 0},
    {"compopt", sb_compopt, 0},
    {"continue", sb_continue, SB_SPECIAL},
    {"declare", sb_declare, SB_DECL},
    {"dirs", sb_dirs, 0},
    {"disown", sb_disown, 0},
    {"enable", sb_enable, 0},
    {"eval", sb_eval, SB_SPECIAL},
    {"exec", sb_exec, SB_SPECIAL},
    {"exit", sb_exit, SB_SPECIAL},
    {"export", sb_export, SB_SPECIAL | SB_DECL},
    {"getopts", sb_getopts, 0},
    {"hash", sb_hash, 0},
    {"help", sb_help, 0},
    {"jobs", sb_jobs, 0},
    {"kill", sb_kill, 0},
    {"let", sb_let, 0},
    {"local", sb_local, SB_DECL},
    {"mapfile", sb_mapfile, 0},
    {"popd", sb_popd, 0},
    {"pushd", sb_pushd, 0},
    {"pwd", sb_pwd, 0},
    {"read", sb_read, 0},
    {"readarray", sb_mapfile, 0},
    {"readonly", sb_readonly, SB_SPECIAL | SB_DECL},
    {"return", sb_return, SB_SPECIAL},
    {"set", sb_set, SB_SPECIAL},
    {"sh", sb_bash, 0},
    {"shift", sb_shift, SB_SPECIAL},
    {"shopt", sb_shopt, 0},
    {"source", sb_source, SB_SPECIAL},
    {"times", sb_times, SB_SPECIAL},
    {"trap", sb_trap, SB_SPECIAL},
    {"type", sb_type, 0},
    {"typeset", sb_declare, SB_DECL},
    {"umask", sb_umask, 0},
    {"unalias", sb_unalias, 0},
    {"unset", sb_unset, SB_SPECIAL},
    {"wait", sb_wait, 0},
};

static int cmp(const void *k, const void *e) {
  return strcmp(k, ((const sh_builtin *)e)->name);
}

/* Looked up for every simple command, and usually a miss (the name is a
 * builtin of builtins/ or a function), so a hash probe replaces bsearch. The
 * index (slot -> entry + 1) is built on first use; a thread that finds
 * another one building it uses bsearch, never a half-built index. */
#define NTABLE (sizeof table / sizeof table[0])
#define HSLOTS 128 /* a power of two, more than twice the entries */
_Static_assert(NTABLE < 255 && NTABLE * 2 <= HSLOTS, "builtin hash too small");

static unsigned char hindex[HSLOTS];
static atomic_int hstate; /* 0 unbuilt, 1 building, 2 ready */

static unsigned name_hash(const char *s) {
  unsigned h = 5381;
  for (; *s; s++)
    h = h * 33 + (unsigned char)*s;
  return h;
}

const sh_builtin *sh_builtin_lookup(const char *name) {
  int st = atomic_load_explicit(&hstate, memory_order_acquire);
  if (st != 2) {
    int expect = 0;
    if (st != 0 || !atomic_compare_exchange_strong(&hstate, &expect, 1))
      return bsearch(name, table, NTABLE, sizeof table[0], cmp);
    for (size_t i = 0; i < NTABLE; i++) {
      unsigned h = name_hash(table[i].name) & (HSLOTS - 1);
      while (hindex[h])
        h = (h + 1) & (HSLOTS - 1);
      hindex[h] = (unsigned char)(i + 1);
    }
    atomic_store_explicit(&hstate, 2, memory_order_release);
  }
  for (unsigned h = name_hash(name) & (HSLOTS - 1); hindex[h];
       h = (h + 1) & (HSLOTS - 1)) {
    const sh_builtin *b = &table[hindex[h] - 1];
    if (b->name[0] == name[0] && strcmp(b->name, name) == 0)
      return b;
  }
  return NULL;
}

const sh_builtin *sh_builtin_all(size_t *n) {
  *n = sizeof table / sizeof table[0];
  return table;
}

int sh_builtin_disabled(sh_exec *ex, const char *name) {
  (void)ex;
  (void)name;
  return 0;
}

int sb_colon(sh_exec *ex, int argc, char **argv) {
  (void)ex;
  (void)argc;
  (void)argv;
  return 0;
}

int sb_bash(sh_exec *ex, int argc, char **argv) {
  return sh_run_child_shell(ex, argc, argv);
}

int sh_parse_int(const char *s, int64_t *out) {
  while (*s == ' ' || *s == '\t' || *s == '\n')
    s++;
  if (!*s)
    return -1;
  char *e;
  long long v = strtoll(s, &e, 10);
  while (*e == ' ' || *e == '\t' || *e == '\n')
    e++;
  if (*e)
    return -1;
  *out = v;
  return 0;
}

char *sh_normpath(arena *ar, const char *p) {
  size_t n = strlen(p);
  char *out = arena_alloc(ar, n + 2);
  if (!out)
    return NULL;
  size_t k = 0;
  out[k++] = '/';
  const char *s = p;
  while (*s) {
    while (*s == '/')
      s++;
    if (!*s)
      break;
    const char *e = strchr(s, '/');
    size_t cl = e ? (size_t)(e - s) : strlen(s);
    if (cl == 1 && s[0] == '.') {
      /* skip */
    } else if (cl == 2 && s[0] == '.' && s[1] == '.') {
      if (k > 1) {
        k--;
        while (k > 1 && out[k - 1] != '/')
          k--;
        if (k > 1)
          k--;
        if (k == 0)
          k = 1;
      }
    } else {
      if (k > 1)
        out[k++] = '/';
      memcpy(out + k, s, cl);
      k += cl;
    }
    s += cl;
  }
  out[k] = 0;
  return out;
}

char *sh_abspath(sh_exec *ex, const char *p) {
  if (p[0] == '/')
    return sh_normpath(ex->ar, p);
  size_t cl = strlen(ex->cwd), pl = strlen(p);
  char *t = arena_alloc(ex->ar, cl + pl + 2);
  if (!t)
    return NULL;
  memcpy(t, ex->cwd, cl);
  t[cl] = '/';
  memcpy(t + cl + 1, p, pl + 1);
  return sh_normpath(ex->ar, t);
}
