/*
 * sb_flow.c - builtins that steer the shell: exit, return, break,
 * continue, eval, source/., exec, let, wait, trap, kill, jobs, disown,
 * times, caller, umask, hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

static int num_arg(sh_exec *ex, const char *me, const char *a, int *out) {
  int64_t v;
  if (sh_parse_int(a, &v)) {
    sh_builtin_err(ex, me, "%s: numeric argument required", a);
    return -1;
  }
  *out = (int)(v & 0xff);
  return 0;
}

int sb_exit(sh_exec *ex, int argc, char **argv) {
  int st = ex->status;
  if (argc > 1) {
    int i = 1;
    if (strcmp(argv[1], "--") == 0)
      i++;
    if (i < argc && num_arg(ex, "exit", argv[i], &st)) {
      st = 2;
    } else if (argc - i > 1) {
      /* bash complains and drops the rest of the line: a script file
       * goes on with its next line, a -c string ends there, with 1 */
      sh_builtin_err(ex, "exit", "too many arguments");
      if (ex->script_name) {
        sh_discard(ex);
        return 1;
      }
      st = 1;
    }
  }
  ex->jump = J_EXIT;
  ex->exit_status = st;
  return st;
}

int sb_return(sh_exec *ex, int argc, char **argv) {
  if (ex->func_depth <= ex->func_base && ex->source_depth <= ex->source_base) {
    sh_builtin_err(ex, "return",
                   "can only `return' from a function or sourced script");
    return 2; /* bash 5.2: a usage error */
  }
  int st = ex->status;
  if (argc > 1 && num_arg(ex, "return", argv[1], &st))
    st = 2;
  else if (argc > 2)
    return sh_too_many_args(ex, "return");
  ex->jump = J_RETURN;
  ex->exit_status = st;
  return st;
}

/* bash ends the shell (status 1) when shift, break, continue or return
 * get more than one argument. */
int sh_too_many_args(sh_exec *ex, const char *me) {
  sh_builtin_err(ex, me, "too many arguments");
  ex->jump = J_EXIT;
  ex->exit_status = 1;
  return 1;
}

static int loop_ctl(sh_exec *ex, int argc, char **argv, int kind) {
  const char *me = argv[0];
  int n = 1;
  if (argc > 2)
    return sh_too_many_args(ex, me);
  if (argc > 1) {
    int64_t v;
    if (sh_parse_int(argv[1], &v)) {
      sh_builtin_err(ex, me, "%s: numeric argument required", argv[1]);
      ex->jump = J_EXIT;
      ex->exit_status = 128;
      return 128;
    }
    if (v < 1) {
      sh_builtin_err(ex, me, "%s: loop count out of range", argv[1]);
      return 1;
    }
    n = (int)v;
  }
  if (ex->loop_depth == 0) {
    sh_builtin_err(ex, me,
                   "only meaningful in a `for', `while', or `until' loop");
    return 0;
  }
  if (n > ex->loop_depth)
    n = ex->loop_depth;
  ex->jump = kind;
  ex->jump_n = n;
  return 0;
}

int sb_break(sh_exec *ex, int argc, char **argv) {
  return loop_ctl(ex, argc, argv, J_BREAK);
}

int sb_continue(sh_exec *ex, int argc, char **argv) {
  return loop_ctl(ex, argc, argv, J_CONTINUE);
}

/* eval and source take no options: a first word "-x" is an invalid one
 * ("-" alone is an argument). */
static int no_options(sh_exec *ex, const char *name, const char *usage,
                      const char *arg) {
  if (arg[0] != '-' || !arg[1] || strcmp(arg, "--") == 0)
    return 0;
  sh_builtin_err(ex, name, "-%c: invalid option", arg[1]);
  sh_usage(ex, "%s: usage: %s %s", name, name, usage);
  return 2;
}

int sb_eval(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  if (i < argc && no_options(ex, "eval", "[arg ...]", argv[i]))
    return 2;
  if (i < argc && strcmp(argv[i], "--") == 0)
    i++;
  if (i >= argc)
    return 0;
  buf b;
  buf_init(&b, ex->m);
  for (int k = i; k < argc; k++) {
    if (k > i)
      buf_putc(&b, ' ');
    buf_puts(&b, argv[k]);
  }
  if (!sh_depth_ok(ex)) {
    buf_free(&b);
    return 126;
  }
  ex->source_depth++;
  ex->status = 0;
  int st = sh_reenter(ex)->eval_string(ex, b.data ? b.data : "", b.len, "eval");
  ex->source_depth--;
  buf_free(&b);
  return st;
}

int sb_source(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  if (i < argc && no_options(ex, argv[0], "filename [arguments]", argv[i]))
    return 2;
  if (i < argc && strcmp(argv[i], "--") == 0)
    i++;
  if (i >= argc) {
    sh_builtin_err(ex, argv[0], "filename argument required");
    sh_usage(ex, "%s: usage: %s filename [arguments]", argv[0], argv[0]);
    return 2;
  }
  const char *file = argv[i];
  const char *path = file;
  if (!strchr(file, '/')) {
    vfs_stat_t st;
    char *p = sh_path_search(ex, file, 0);
    if (p && vfs_stat(ex->run->v, ex->cwd, p, &st) == 0 && st.type == VFS_REG)
      path = p;
  }
  int st =
      sh_reenter(ex)->source_file(ex, path, argc - i - 1 > 0 ? argc - i - 1 : 0,
                                  argc - i - 1 > 0 ? argv + i + 1 : NULL);
  /* The RETURN trap fires when a sourced file ends (for functions only
   * under set -T). */
  if (ex->traps[TRAP_RETURN] && !ex->in_trap && ex->jump != J_ABORT &&
      ex->jump != J_EXIT && (!ex->func_depth || (ex->opts & O_FUNCTRACE))) {
    sh_reenter(ex)->run_trap(ex, TRAP_RETURN);
    ex->status = st;
  }
  return st;
}

int sb_bash(sh_exec *ex, int argc, char **argv); /* sb_table.c */

/* Is name the shell itself (bash, sh, /bin/bash, ...)? */
static int names_shell(const char *name) {
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  const sh_builtin *b = sh_builtin_lookup(base);
  return b && b->fn == sb_bash;
}

int sb_exec(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  const char *arg0 = NULL;
  while (i < argc && argv[i][0] == '-' && argv[i][1]) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    if (strcmp(argv[i], "-a") == 0 && i + 1 < argc)
      arg0 = argv[++i];
    i++;
  }
  if (i >= argc)
    return 0;
  int st;
  if (arg0 && names_shell(argv[i])) {
    /* Only a shell shows its argv[0] (as $0); the other commands run in
     * process and name themselves in their messages as usual. */
    char *a0 = argv[i];
    argv[i] = (char *)arg0;
    st = sh_reenter(ex)->run_child_shell(ex, argc - i, argv + i);
    argv[i] = a0;
  } else {
    st = sh_reenter(ex)->dispatch(ex, argc - i, argv + i, 1);
  }
  if (ex->jump != J_ABORT) {
    ex->jump = J_EXIT;
    ex->exit_status = st;
  }
  return st;
}

int sb_let(sh_exec *ex, int argc, char **argv) {
  if (argc < 2) {
    sh_builtin_err(ex, "let", "expression expected");
    return 1;
  }
  int64_t v = 0;
  for (int i = 1; i < argc; i++) {
    int err = 0;
    v = sh_arith(ex, argv[i], strlen(argv[i]), &err);
    if (err)
      return 1;
  }
  return v ? 0 : 1;
}

/* wait -n ID...: the first of those jobs to end; an ID that names no job
 * still in the table is reported and skipped. */
static int wait_any_of(sh_exec *ex, int argc, char **argv) {
  int n = 0;
  for (int i = 0; i < argc; i++) {
    sh_job *j = NULL;
    int64_t pid;
    if (argv[i][0] == '%') {
      j = sh_job_lookup(ex, argv[i], "wait");
    } else {
      if (!sh_parse_int(argv[i], &pid))
        for (sh_job *k = sh_job_next(ex, NULL); k; k = sh_job_next(ex, k))
          if (k->pid == pid)
            j = k;
      if (!j)
        sh_builtin_err(ex, "wait", "%s: no such job", argv[i]);
    }
    if (j && !j->wanted) {
      j->wanted = 1;
      n++;
    }
  }
  if (!n)
    return 127;
  int found;
  int st = sh_reenter(ex)->wait_job(ex, -2, &found);
  for (sh_job *k = ex->run->jobs; k; k = k->next)
    k->wanted = 0;
  return found ? st : 127;
}

int sb_wait(sh_exec *ex, int argc, char **argv) {
  sh_getopt g;
  sh_getopt_init(&g, ex, "wait", argc, argv, "fnp:");
  g.usage = "[-fn] [-p var] [id ...]";
  int o, any = 0;
  const char *var = NULL;
  while ((o = sh_getopt_next(&g)) > 0) {
    if (o == 'n')
      any = 1;
    else if (o == 'p')
      var = g.arg;
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  if (any && i < argc)
    return wait_any_of(ex, argc - i, argv + i);
  if (any && i >= argc) {
    int found;
    int st = sh_reenter(ex)->wait_job(ex, -1, &found);
    return found ? st : 127;
  }
  if (i >= argc) {
    int found;
    sh_reenter(ex)->wait_job(ex, 0, &found);
    return 0;
  }
  int st = 0;
  for (; i < argc; i++) {
    const char *a = argv[i];
    int64_t pid;
    if (a[0] == '%') {
      sh_job *j = sh_job_lookup(ex, a, "wait");
      if (!j) {
        st = 127;
        continue;
      }
      pid = j->pid;
    } else if (sh_parse_int(a, &pid) || pid <= 0) {
      sh_builtin_err(ex, "wait", "`%s': not a pid or valid job spec", a);
      st = 1;
      continue;
    }
    int found;
    st = sh_reenter(ex)->wait_job(ex, (int)pid, &found);
    if (!found) {
      sh_builtin_err(ex, "wait", "pid %lld is not a child of this shell",
                     (long long)pid);
      st = 127;
    } else if (var) {
      char t[24];
      snprintf(t, sizeof t, "%lld", (long long)pid);
      sh_setvar(ex, var, t, strlen(t), 0);
    }
    if (any && found)
      break;
  }
  return st;
}

/* ---- signals and traps
 * ------------------------------------------------------- */

static const char *const signames[] = {
    "EXIT", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL",
    "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT",
    "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF",
    "WINCH", "IO", "PWR", "SYS",
    /* 32 and 33 belong to the C library's threads: no names */
    NULL, NULL, "RTMIN", "RTMIN+1", "RTMIN+2", "RTMIN+3", "RTMIN+4", "RTMIN+5",
    "RTMIN+6", "RTMIN+7", "RTMIN+8", "RTMIN+9", "RTMIN+10", "RTMIN+11",
    "RTMIN+12", "RTMIN+13", "RTMIN+14", "RTMIN+15", "RTMAX-14", "RTMAX-13",
    "RTMAX-12", "RTMAX-11", "RTMAX-10", "RTMAX-9", "RTMAX-8", "RTMAX-7",
    "RTMAX-6", "RTMAX-5", "RTMAX-4", "RTMAX-3", "RTMAX-2", "RTMAX-1", "RTMAX"};
#define NSIGNAMES ((int)(sizeof signames / sizeof signames[0]))

const char *sh_signal_name(int n) {
  if (n >= 0 && n < NSIGNAMES)
    return signames[n];
  if (n == TRAP_ERR)
    return "ERR";
  if (n == TRAP_DEBUG)
    return "DEBUG";
  if (n == TRAP_RETURN)
    return "RETURN";
  return NULL;
}

int sh_signal_number(const char *name) {
  if (!*name)
    return -1;
  char *e;
  long k = strtol(name, &e, 10);
  if (!*e)
    return k >= 0 && k < SH_NSIG ? (int)k : -1;
  const char *n = name;
  if (strncasecmp(n, "SIG", 3) == 0)
    n += 3;
  for (int i = 0; i < NSIGNAMES; i++)
    if (signames[i] && strcasecmp(n, signames[i]) == 0)
      return i;
  if (strcasecmp(n, "ERR") == 0)
    return TRAP_ERR;
  if (strcasecmp(n, "DEBUG") == 0)
    return TRAP_DEBUG;
  if (strcasecmp(n, "RETURN") == 0)
    return TRAP_RETURN;
  return -1;
}

/* kill -l and trap -l: five to a line, numbered as the signals are. */
static void list_signals(sh_exec *ex) {
  buf b;
  buf_init(&b, ex->m);
  int col = 0;
  for (int k = 1; k < NSIGNAMES; k++) {
    if (!signames[k])
      continue;
    buf_printf(&b, "%2d) SIG%s%s", k, signames[k], ++col % 5 ? "\t" : "\n");
  }
  if (col % 5)
    buf_putc(&b, '\n');
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
}

static void print_trap(sh_exec *ex, buf *b, int sig) {
  /* A subshell that has not set traps itself lists its parent's (bash
   * keeps them for display though it does not run them). */
  while (ex->parent && !ex->traps_set)
    ex = ex->parent;
  const char *t = ex->traps[sig];
  if (!t)
    return;
  /* Always single quotes, newlines kept as they are. */
  buf_puts(b, "trap -- '");
  for (const char *p = t; *p; p++) {
    if (*p == '\'')
      buf_puts(b, "'\\''");
    else
      buf_putc(b, *p);
  }
  buf_putc(b, '\'');
  const char *nm = sh_signal_name(sig);
  if (sig > 0 && sig < NSIGNAMES && nm)
    buf_printf(b, " SIG%s\n", nm);
  else
    buf_printf(b, " %s\n", nm ? nm : "?");
}

int sb_trap(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  int print = 0;
  while (i < argc && argv[i][0] == '-' && argv[i][1]) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    if (strcmp(argv[i], "-p") == 0) {
      print = 1;
      i++;
      continue;
    }
    if (strcmp(argv[i], "-l") == 0) {
      list_signals(ex);
      return 0;
    }
    /* anything else that looks like an option is refused, leaving every
     * trap as it was (a negative number is no signal either) */
    const char *bad = argv[i] + 1 + strspn(argv[i] + 1, "lp");
    if (*bad) {
      sh_builtin_err(ex, "trap", "-%c: invalid option", *bad);
      sh_usage(ex, "trap: usage: trap [-lp] [[arg] signal_spec ...]");
      return 2;
    }
    if (strchr(argv[i], 'l')) {
      list_signals(ex);
      return 0;
    }
    print = 1;
    i++;
  }
  if (i >= argc || print) {
    buf b;
    buf_init(&b, ex->m);
    if (i < argc) {
      for (; i < argc; i++) {
        int s = sh_signal_number(argv[i]);
        if (s >= 0)
          print_trap(ex, &b, s);
      }
    } else {
      for (int s = 0; s < SH_NTRAP; s++)
        print_trap(ex, &b, s);
    }
    sh_out(ex, b.data ? b.data : "", b.len);
    buf_free(&b);
    return 0;
  }
  const char *action = argv[i];
  int reset = 0;
  /* A first argument that is a signal number means "reset" (POSIX). */
  if (argc - i == 1 || strcmp(action, "-") == 0) {
    reset = 1;
    if (strcmp(action, "-") == 0)
      i++;
  } else {
    i++;
  }
  if (argc - i >= 1 && reset == 0) {
    char *e;
    strtol(action, &e, 10);
    if (!*e && *action) {
      reset = 1;
      i--;
    }
  }
  int st = 0;
  for (; i < argc; i++) {
    int s = sh_signal_number(argv[i]);
    if (s < 0) {
      sh_builtin_err(ex, "trap", "%s: invalid signal specification", argv[i]);
      st = 1;
      continue;
    }
    mem_free(ex->m, ex->traps[s]);
    ex->traps[s] = reset ? NULL : mem_strdup(ex->m, action);
    ex->traps_set = 1;
  }
  return st;
}

/* bash numbers its pseudo-signals DEBUG, ERR, RETURN from 65 */
static int pseudo_number(int s) {
  return s == TRAP_DEBUG ? 65 : s == TRAP_ERR ? 66 : s == TRAP_RETURN ? 67 : s;
}

/* kill -l ARG...: a number (or an exit status above 128) becomes its
 * name, a name its number. */
static int kill_list(sh_exec *ex, int argc, char **argv) {
  int st = 0;
  buf b;
  buf_init(&b, ex->m);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *nm = NULL;
    int s = -1;
    if (*a && strspn(a, "0123456789") == strlen(a)) {
      long n = strlen(a) < 10 ? strtol(a, NULL, 10) : -1;
      if (n > 128)
        n -= 128;
      else if (n == 128)
        n = -1;
      if (n >= 0 && n < NSIGNAMES)
        nm = signames[n];
    } else {
      s = sh_signal_number(a);
    }
    if (nm)
      buf_printf(&b, "%s\n", nm);
    else if (s >= 0)
      buf_printf(&b, "%d\n", pseudo_number(s));
    else {
      sh_out(ex, b.data ? b.data : "", b.len);
      b.len = 0;
      sh_builtin_err(ex, "kill", "%s: invalid signal specification", a);
      st = 1;
    }
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return st;
}

static void pend_signal(sh_run *r, int pid, int sig) {
  int k = 0;
  while (k < r->nsig_pend && r->sig_pend[k].pid != pid)
    k++;
  if (k == r->nsig_pend) {
    if (k == (int)(sizeof r->sig_pend / sizeof r->sig_pend[0]))
      return; /* more shells than can wait at once: as if lost */
    r->sig_pend[k].pid = pid;
    r->sig_pend[k].mask = 0;
    r->nsig_pend++;
  }
  r->sig_pend[k].mask |= 1ull << (sig - 1);
}

int sb_kill(sh_exec *ex, int argc, char **argv) {
  int sig = 15;
  int i = 1;
  if (i < argc && (strcmp(argv[i], "-l") == 0 || strcmp(argv[i], "-L") == 0)) {
    i++;
    if (i < argc && strcmp(argv[i], "--") == 0)
      i++;
    if (i >= argc) {
      list_signals(ex);
      return 0;
    }
    return kill_list(ex, argc - i, argv + i);
  }
  const char *spec = NULL;
  if (i < argc && strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
    spec = argv[i + 1];
    sig = sh_signal_number(spec);
    i += 2;
  } else if (i < argc && argv[i][0] == '-' && argv[i][1] &&
             strcmp(argv[i], "--") != 0) {
    const char *s = argv[i] + 1;
    if (strncmp(s, "n", 1) == 0 && i + 1 < argc && !s[1]) {
      spec = argv[i + 1];
      sig = sh_signal_number(spec);
      i += 2;
    } else {
      spec = s;
      sig = sh_signal_number(s);
      i++;
    }
  } else if (i < argc && strcmp(argv[i], "--") == 0) {
    i++;
  }
  if (sig < 0 || sig >= SH_NSIG) {
    sh_builtin_err(ex, "kill", "%s: invalid signal specification",
                   spec ? spec : argv[1]);
    return 1;
  }
  if (i >= argc) {
    sh_usage(ex, "kill: usage: kill [-s sigspec | -n signum | -sigspec] "
                 "pid | jobspec ... or kill -l [sigspec]");
    return 2;
  }
  int st = 0;
  for (; i < argc; i++) {
    int64_t pid;
    const char *a = argv[i];
    if (a[0] == '%') {
      /* a job spec: the job, never the shell */
      sh_job *j = sh_job_lookup(ex, a, "kill");
      if (!j)
        st = 1;
      else
        sh_job_signal(ex, j, sig);
      continue;
    }
    if (sh_parse_int(a, &pid)) {
      sh_builtin_err(ex, "kill", "%s: arguments must be process or job IDs",
                     argv[i]);
      st = 1;
      continue;
    }
    int me = ex->shell_pid > 1 ? ex->shell_pid : 1;
    if ((pid == me || pid == 1) && pid != ex->pid) {
      /* the $$ of the shell this subshell belongs to, or of the top shell
       * from a child shell: that shell gets it once its current command
       * (the one this one runs under) ends */
      if (sig)
        pend_signal(ex->run, (int)pid, sig);
      continue;
    }
    if (pid == ex->pid || pid == 0 || pid == -1) {
      /* Signals to the shell itself: run the trap, or act as the default
       * disposition would. */
      if (sig == 0)
        continue;
      if (ex->traps[sig]) {
        if (ex->traps[sig][0])
          sh_reenter(ex)->run_trap(ex, sig);
        continue;
      }
      if (sig == 17 || sig == 18 || sig == 23 || sig == 28)
        continue; /* ignored by default */
      ex->jump = J_EXIT;
      ex->exit_status = 128 + sig;
      return 128 + sig;
    }
    int found = 0;
    for (sh_job *j = ex->run->jobs; j; j = j->next)
      if (j->pid == pid) {
        found = 1;
        sh_job_signal(ex, j, sig);
      }
    if (!found) {
      sh_builtin_err(ex, "kill", "(%lld) - No such process", (long long)pid);
      st = 1;
    }
  }
  return st;
}

int sb_times(sh_exec *ex, int argc, char **argv) {
  (void)argc;
  (void)argv;
  sh_outs(ex, "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n");
  return 0;
}

int sb_caller(sh_exec *ex, int argc, char **argv) {
  int64_t n = 0;
  if (argc > 1 && sh_parse_int(argv[1], &n))
    return 1;
  sh_frame *f = ex->frame;
  for (int64_t k = 0; f && f->func && k < n; k++)
    f = f->up;
  if (!f || !f->func)
    return 1;
  const char *caller = f->up && f->up->func ? f->up->func : "main";
  const char *src = f->up && f->up->source ? f->up->source : "main";
  if (argc > 1)
    sh_outf(ex, "%d %s %s\n", f->call_line, caller, src);
  else
    sh_outf(ex, "%d %s\n", f->call_line, src);
  return 0;
}

int sb_umask(sh_exec *ex, int argc, char **argv) {
  vfs *v = ex->run->v;
  int sym = 0, print = 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "-S") == 0)
      sym = 1;
    else if (strcmp(argv[i], "-p") == 0)
      print = 1;
    else if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    } else {
      sh_builtin_err(ex, "umask", "%s: invalid option", argv[i]);
      return 2;
    }
  }
  unsigned cur = vfs_get_umask(v);
  if (i >= argc) {
    if (sym) {
      char out[32];
      const char *who = "ugo";
      char *p = out;
      for (int k = 0; k < 3; k++) {
        unsigned bits = (~cur >> (6 - 3 * k)) & 7;
        if (k)
          *p++ = ',';
        *p++ = who[k];
        *p++ = '=';
        if (bits & 4)
          *p++ = 'r';
        if (bits & 2)
          *p++ = 'w';
        if (bits & 1)
          *p++ = 'x';
      }
      *p = 0;
      sh_outf(ex, "%s%s\n", print ? "umask -S " : "", out);
    } else {
      sh_outf(ex, "%s%04o\n", print ? "umask " : "", cur);
    }
    return 0;
  }
  const char *a = argv[i];
  if (a[0] >= '0' && a[0] <= '9') {
    char *e;
    long m = strtol(a, &e, 8);
    if (*e || m < 0 || m > 0777) {
      sh_builtin_err(ex, "umask", "%s: octal number out of range", a);
      return 1;
    }
    vfs_set_umask(v, (unsigned)m);
    return 0;
  }
  /* symbolic: clauses [ugoa]*[+-=][rwx]* joined by ','; as in bash, each
   * clause has exactly one operator (so "u+r+w" and a trailing ',' are
   * errors) and nothing changes unless the whole mode parses. */
  unsigned perm = ~cur & 0777;
  const char *p = a;
  for (;;) {
    unsigned who = 0;
    while (*p == 'u' || *p == 'g' || *p == 'o' || *p == 'a') {
      if (*p == 'u')
        who |= 0700;
      else if (*p == 'g')
        who |= 070;
      else if (*p == 'o')
        who |= 07;
      else
        who |= 0777;
      p++;
    }
    if (!who)
      who = 0777;
    char op = *p;
    if (op != '=' && op != '+' && op != '-') {
      sh_builtin_err(ex, "umask", "`%c': invalid symbolic mode operator",
                     op ? op : ' ');
      return 1;
    }
    p++;
    unsigned bits = 0;
    for (; *p && *p != ','; p++) {
      if (*p != 'r' && *p != 'w' && *p != 'x') {
        sh_builtin_err(ex, "umask", "`%c': invalid symbolic mode character",
                       *p);
        return 1;
      }
      unsigned b = *p == 'r' ? 4 : *p == 'w' ? 2 : 1;
      bits |= b * 0111;
    }
    bits &= who;
    if (op == '=')
      perm = (perm & ~who) | bits;
    else if (op == '+')
      perm |= bits;
    else
      perm &= ~bits;
    if (!*p)
      break;
    p++; /* the ',' : another clause must follow */
  }
  vfs_set_umask(v, ~perm & 0777);
  return 0;
}

/* The table listed: bash's "hits command" columns, or with -l as the
 * commands that would rebuild it. */
static int hash_list(sh_exec *ex, int reuse) {
  size_t n;
  sh_hashent **v = sh_hash_list(ex, ex->ar, &n);
  if (ex->jump == J_ABORT)
    return 1;
  if (!n) {
    sh_err_noline(ex, "hash: hash table empty");
    return 0;
  }
  buf b;
  buf_init(&b, ex->m);
  if (!reuse)
    buf_puts(&b, "hits\tcommand\n");
  for (size_t i = 0; i < n; i++) {
    if (reuse)
      buf_printf(&b, "builtin hash -p %s %s\n", v[i]->path, v[i]->name);
    else
      buf_printf(&b, "%4d\t%s\n", v[i]->hits, v[i]->path);
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return 0;
}

int sb_hash(sh_exec *ex, int argc, char **argv) {
  static const char usage[] = "[-lr] [-p pathname] [-dt] [name ...]";
  sh_getopt g;
  sh_getopt_init(&g, ex, "hash", argc, argv, "lrp:dt");
  g.usage = usage;
  int o, reuse = 0, clear = 0, del = 0, show = 0;
  const char *path = NULL;
  while ((o = sh_getopt_next(&g)) > 0) {
    if (o == 'l')
      reuse = 1;
    else if (o == 'r')
      clear = 1;
    else if (o == 'p')
      path = g.arg;
    else if (o == 'd')
      del = 1;
    else if (o == 't')
      show = 1;
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  if ((del || show) && i >= argc) {
    sh_builtin_err(ex, "hash", "-%c: option requires an argument",
                   del ? 'd' : 't');
    return 1;
  }
  if (clear)
    sh_hash_clear(ex);
  if (i >= argc)
    return clear && !reuse ? 0 : hash_list(ex, reuse);
  int st = 0;
  for (; i < argc; i++) {
    const char *name = argv[i];
    if (show) {
      const char *hp = sh_hash_get(ex, name, 0);
      if (!hp) {
        sh_builtin_err(ex, "hash", "%s: not found", name);
        st = 1;
      } else if (reuse) {
        sh_outf(ex, "builtin hash -p %s %s\n", hp, name);
      } else if (argc - g.ind > 1) {
        sh_outf(ex, "%s\t%s\n", name, hp);
      } else {
        sh_outf(ex, "%s\n", hp);
      }
      continue;
    }
    if (del) {
      if (sh_hash_remove(ex, name)) {
        sh_builtin_err(ex, "hash", "%s: not found", name);
        st = 1;
      }
      continue;
    }
    if (path) {
      if (sh_hash_put(ex, name, path, 0))
        return sh_oom(ex);
      continue;
    }
    /* Names with a '/', builtins and functions are not looked up. */
    if (strchr(name, '/') || sh_builtin_lookup(name) ||
        sh_is_bash_builtin(name) || sh_func_find(ex, name))
      continue;
    char *p = sh_path_search(ex, name, 1);
    if (p) {
      if (sh_hash_put(ex, name, p, 0))
        return sh_oom(ex);
    } else if (bi_lookup(name)) {
      continue; /* a sandbox without the /usr/bin layout */
    } else {
      sh_builtin_err(ex, "hash", "%s: not found", name);
      st = 1;
    }
  }
  return st;
}
