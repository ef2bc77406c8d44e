/*
 * sb_jobs.c - jobs, disown, fg and bg as a non-interactive bash has them:
 * a job table to look at and trim, and no job control (fg and bg say so).
 * The table is in state/jobs.c; kill and wait (sb_flow.c) take its job
 * specs too.
 */
#include <stdio.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

enum {
  JL_PID = 1,
  JL_PIDS_ONLY = 2,
  JL_RUNNING = 4,
  JL_STOPPED = 8,
  JL_CHANGED = 16
};

static void list_one(sh_exec *ex, sh_job *j, unsigned how, buf *b) {
  if ((how & JL_RUNNING) && j->done)
    return;
  if (how & JL_STOPPED)
    return; /* nothing is ever stopped: there is no job control */
  if ((how & JL_CHANGED) && !j->done)
    return;
  if (how & JL_PIDS_ONLY)
    buf_printf(b, "%d\n", j->pid);
  else
    sh_job_line(ex, j, how & JL_PID, b);
}

/* jobs -x COMMAND ARGS: each job spec among ARGS becomes the job's pid. */
static int jobs_exec(sh_exec *ex, int argc, char **argv) {
  if (argc == 0)
    return 0;
  char **v = arena_alloc(ex->ar, (size_t)(argc + 1) * sizeof *v);
  if (!v)
    return sh_oom(ex);
  for (int i = 0; i < argc; i++) {
    v[i] = argv[i];
    if (argv[i][0] == '%') {
      sh_job *j = sh_job_lookup(ex, argv[i], "jobs");
      if (!j)
        return 1;
      char *t = arena_alloc(ex->ar, 16);
      if (!t)
        return sh_oom(ex);
      snprintf(t, 16, "%d", j->pid);
      v[i] = t;
    }
  }
  v[argc] = NULL;
  return sh_reenter(ex)->dispatch(ex, argc, v, 0);
}

int sb_jobs(sh_exec *ex, int argc, char **argv) {
  sh_getopt g;
  sh_getopt_init(&g, ex, "jobs", argc, argv, "lnprsx");
  g.usage = "[-lnprs] [jobspec ...] or jobs -x command [args]";
  unsigned how = 0;
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    switch (o) {
    case 'l':
      how |= JL_PID;
      break;
    case 'p':
      how |= JL_PIDS_ONLY;
      break;
    case 'r':
      how |= JL_RUNNING;
      break;
    case 's':
      how |= JL_STOPPED;
      break;
    case 'n':
      how |= JL_CHANGED;
      break;
    case 'x':
      return jobs_exec(ex, argc - g.ind, argv + g.ind);
    }
  }
  if (o < 0) {
    /* bash's usage line for jobs has no "bash: " either way */
    return 2;
  }
  /* A non-interactive bash has forgotten its finished jobs by the time it
   * lists them (a job killed by a signal is reported then). */
  sh_jobs_forget_done(ex);
  buf b;
  buf_init(&b, ex->m);
  int st = 0;
  if (g.ind >= argc) {
    /* oldest first, as bash lists them */
    size_t n = 0;
    for (sh_job *j = sh_job_next(ex, NULL); j; j = sh_job_next(ex, j))
      n++;
    sh_job **all = n ? arena_alloc(ex->ar, n * sizeof *all) : NULL;
    if (n && !all) {
      buf_free(&b);
      return sh_oom(ex);
    }
    size_t k = n;
    for (sh_job *j = sh_job_next(ex, NULL); j; j = sh_job_next(ex, j))
      all[--k] = j;
    for (size_t i = 0; i < n; i++)
      list_one(ex, all[i], how, &b);
  } else {
    for (int i = g.ind; i < argc; i++) {
      sh_job *j = sh_job_lookup(ex, argv[i], "jobs");
      if (j)
        list_one(ex, j, how, &b);
      else
        st = 1;
    }
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return st;
}

int sb_disown(sh_exec *ex, int argc, char **argv) {
  sh_getopt g;
  sh_getopt_init(&g, ex, "disown", argc, argv, "ahr");
  g.usage = "[-h] [-ar] [jobspec ... | pid ...]";
  int o, all = 0, running = 0, keep = 0;
  while ((o = sh_getopt_next(&g)) > 0) {
    if (o == 'a')
      all = 1;
    else if (o == 'r')
      running = 1;
    else if (o == 'h')
      keep = 1; /* no SIGHUP is ever sent: the job stays as it is */
  }
  if (o < 0)
    return 2;
  if (keep)
    return 0;
  if (g.ind >= argc) {
    for (sh_job *j = sh_job_next(ex, NULL); j; j = sh_job_next(ex, j)) {
      if (running && j->done)
        continue;
      sh_job_forget(ex, j, 0);
      if (!all && !running)
        break; /* the current job only */
    }
    return 0;
  }
  int st = 0;
  for (int i = g.ind; i < argc; i++) {
    sh_job *j = NULL;
    if (argv[i][0] == '%') {
      j = sh_job_lookup(ex, argv[i], "disown");
    } else {
      int64_t pid;
      if (!sh_parse_int(argv[i], &pid))
        for (sh_job *k = sh_job_next(ex, NULL); k; k = sh_job_next(ex, k))
          if (k->pid == pid)
            j = k;
      if (!j)
        sh_builtin_err(ex, "disown", "%s: no such job", argv[i]);
    }
    if (j)
      sh_job_forget(ex, j, 0);
    else
      st = 1;
  }
  return st;
}

/* Without job control (a script's bash has none) fg and bg refuse. */
int sb_fg(sh_exec *ex, int argc, char **argv) {
  (void)argc;
  (void)argv;
  sh_builtin_err(ex, "fg", "no job control");
  return 1;
}

int sb_bg(sh_exec *ex, int argc, char **argv) {
  (void)argc;
  (void)argv;
  sh_builtin_err(ex, "bg", "no job control");
  return 1;
}

/* A script's shell is no login shell: logout refuses, as bash's does. */
int sb_logout(sh_exec *ex, int argc, char **argv) {
  (void)argc;
  (void)argv;
  sh_builtin_err(ex, "logout", "not login shell: use `exit'");
  return 1;
}

/* Nothing could ever resume a stopped sandbox shell, so even -f refuses. */
int sb_suspend(sh_exec *ex, int argc, char **argv) {
  sh_getopt g;
  sh_getopt_init(&g, ex, "suspend", argc, argv, "f");
  g.usage = "[-f]";
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
  }
  if (o < 0)
    return 2;
  sh_builtin_err(ex, "suspend", "cannot suspend: no job control");
  return 1;
}
