/*
 * jobs.c - the job table a non-interactive bash shows its script: numbers
 * [N] per shell, the current (+) and previous (-) job, job specs, and a
 * job's line in `jobs`. The jobs themselves run in exec/exec_pipe.c; the
 * records stay in the run's list until the run ends, so `wait PID` still
 * finds the status of a job that left the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/sh.h"
#include "shell/syntax/parse.h"

/* The pid whose table ex sees. */
static int table_of(sh_exec *ex) {
  return ex->jobs_pid ? ex->jobs_pid : ex->pid;
}

sh_job *sh_job_next(sh_exec *ex, sh_job *j) {
  int t = table_of(ex);
  for (j = j ? j->next : ex->run->jobs; j; j = j->next)
    if (j->jobno > 0 && j->owner == t)
      return j;
  return NULL;
}

void sh_job_enter(sh_exec *ex, sh_job *j) {
  /* A shell that starts a job has a table of its own from then on (a
   * $(...) does not add to its parent's). */
  ex->jobs_pid = 0;
  int top = 0;
  for (sh_job *k = sh_job_next(ex, NULL); k; k = sh_job_next(ex, k))
    if (k->jobno > top)
      top = k->jobno;
  j->owner = ex->pid;
  j->jobno = top + 1;
}

/* The text bash prints for a job: the command as its printer shows it. */
static void job_text(sh_job *j, buf *b) {
  if (j->node)
    sh_print_node(b, j->node, 0);
}

static const char *const dashes = "                        "; /* 24 */

static void state_text(sh_job *j, char *out, size_t n) {
  if (!j->done)
    snprintf(out, n, "Running");
  else if (j->sig)
    snprintf(out, n, "%s", strsignal(j->sig));
  else if (j->status)
    snprintf(out, n, "Exit %d", j->status);
  else
    snprintf(out, n, "Done");
}

void sh_job_line(sh_exec *ex, sh_job *j, int with_pid, buf *b) {
  sh_job *cur = sh_job_next(ex, NULL);
  sh_job *prev = cur ? sh_job_next(ex, cur) : NULL;
  char mark = j == cur ? '+' : j == prev ? '-' : ' ';
  char st[64];
  state_text(j, st, sizeof st);
  buf_printf(b, "[%d]%c ", j->jobno, mark);
  if (with_pid)
    buf_printf(b, "%5d ", j->pid);
  else
    buf_putc(b, ' ');
  size_t sl = strlen(st);
  buf_printf(b, "%s%s", st, sl < 24 ? dashes + sl : " ");
  job_text(j, b);
  buf_puts(b, j->done ? "\n" : " &\n");
}

sh_job *sh_job_lookup(sh_exec *ex, const char *spec, const char *who) {
  const char *s = spec[0] == '%' ? spec + 1 : spec;
  sh_job *cur = sh_job_next(ex, NULL);
  sh_job *found = NULL;
  if (!*s || !strcmp(s, "%") || !strcmp(s, "+")) {
    found = cur;
  } else if (!strcmp(s, "-")) {
    found = cur ? sh_job_next(ex, cur) : NULL;
    if (!found)
      found = cur;
  } else if (strspn(s, "0123456789") == strlen(s)) {
    long n = strlen(s) < 10 ? strtol(s, NULL, 10) : -1;
    for (sh_job *j = cur; j; j = sh_job_next(ex, j))
      if (j->jobno == n)
        found = j;
  } else {
    int contains = s[0] == '?';
    const char *want = contains ? s + 1 : s;
    size_t wl = strlen(want);
    for (sh_job *j = cur; j; j = sh_job_next(ex, j)) {
      buf t;
      buf_init(&t, ex->m);
      job_text(j, &t);
      const char *txt = t.data ? t.data : "";
      int hit =
          contains ? strstr(txt, want) != NULL : strncmp(txt, want, wl) == 0;
      buf_free(&t);
      if (!hit)
        continue;
      if (found) {
        sh_builtin_err(ex, who, "%s: ambiguous job spec", s);
        return NULL;
      }
      found = j;
    }
  }
  if (!found)
    sh_builtin_err(ex, who, "%s: no such job", spec);
  return found;
}

void sh_job_forget(sh_exec *ex, sh_job *j, int report) {
  if (report && j->done && j->sig && j->sig != 2 && j->sig != 13 &&
      j->sig != 15) {
    /* bash: "bash: line 3:  1234 Killed                  sleep 9" */
    char st[64];
    state_text(j, st, sizeof st);
    size_t sl = strlen(st);
    buf t;
    buf_init(&t, ex->m);
    job_text(j, &t);
    sh_err(ex, "%5d %s%s%s", j->pid, st, sl < 24 ? dashes + sl : " ",
           t.data ? t.data : "");
    buf_free(&t);
  }
  j->jobno = 0;
}

void sh_jobs_forget_done(sh_exec *ex) {
  for (sh_job *j = sh_job_next(ex, NULL); j; j = sh_job_next(ex, j))
    if (j->done)
      sh_job_forget(ex, j, 1);
}

void sh_job_signal(sh_exec *ex, sh_job *j, int sig) {
  /* 0 only asks whether it exists; SIGCHLD, SIGCONT, SIGURG and SIGWINCH
   * are ignored by default */
  if (j->done || sig == 0 || sig == 17 || sig == 18 || sig == 23 || sig == 28)
    return;
  j->sig = sig;
  if (j->ex) {
    j->ex->jump = J_EXIT;
    j->ex->exit_status = 128 + sig;
  }
  /* wherever it is (a sleep, a blocked pipe, a long command), it stops at
   * its next budget check */
  ex->run->bud.kills++;
  sched_kill_group(ex->run->sc, j);
}
