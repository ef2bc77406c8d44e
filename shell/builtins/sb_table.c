/*
 * sb_table.c - the table of shell builtins (commands that need the shell's
 * state), looked up before the builtin commands of builtins/.
 */
#include "core/nametab.h"
#include "shell/builtins/builtins.h"
#include "shell/sh.h"

#define SB(name) int sb_##name(sh_exec *ex, int argc, char **argv);
SB(colon)
SB(alias)
SB(unalias)
SB(bash)
SB(bg)
SB(bind)
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
SB(fc)
SB(fg)
SB(getopts)
SB(hash)
SB(help)
SB(history)
SB(jobs)
SB(kill)
SB(let)
SB(local)
SB(logout)
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
SB(suspend)
SB(times)
SB(trap)
SB(type)
SB(ulimit)
SB(umask)
SB(unset)
SB(wait)
#undef SB

/* Sorted by name (for nametab_find). */
static const sh_builtin table[] = {
    {".", sb_source, SB_SPECIAL},
    {":", sb_colon, SB_SPECIAL},
    {"alias", sb_alias, 0},
    {"bash", sb_bash, 0},
    {"bg", sb_bg, 0},
    {"bind", sb_bind, 0},
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
    {"fc", sb_fc, 0},
    {"fg", sb_fg, 0},
    {"getopts", sb_getopts, 0},
    {"hash", sb_hash, 0},
    {"help", sb_help, 0},
    {"history", sb_history, 0},
    {"jobs", sb_jobs, 0},
    {"kill", sb_kill, 0},
    {"let", sb_let, 0},
    {"local", sb_local, SB_DECL},
    {"logout", sb_logout, 0},
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
    {"suspend", sb_suspend, 0},
    {"times", sb_times, SB_SPECIAL},
    {"trap", sb_trap, SB_SPECIAL},
    {"type", sb_type, 0},
    {"typeset", sb_declare, SB_DECL},
    {"ulimit", sb_ulimit, 0},
    {"umask", sb_umask, 0},
    {"unalias", sb_unalias, 0},
    {"unset", sb_unset, SB_SPECIAL},
    {"wait", sb_wait, 0},
};

#define NTABLE (sizeof table / sizeof table[0])

/* Looked up for every simple command, and usually a miss (the name is a
 * builtin of builtins/ or a function): by hash (core/nametab.h). */
NAMETAB(by_name, table, NTABLE, 128);

const sh_builtin *sh_builtin_lookup(const char *name) {
  return nametab_find(&by_name, name);
}

const sh_builtin *sh_builtin_all(size_t *n) {
  *n = NTABLE;
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
  return sh_reenter(ex)->run_child_shell(ex, argc, argv);
}
