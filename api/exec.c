/*
 * api_exec.c - vsh_exec, sessions and cancel tokens.
 *
 * Every exec runs its script in a fiber of the sandbox's scheduler, so the
 * C stack depth of a script never depends on the caller's thread. The run
 * state (budget, capture buffers) lives on this function's frame; on a
 * limit, blocked fibers are woken by the deadlock breaker and unwind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sandbox.h"
#include "shell/exec/exec.h"
#include "shell/syntax/parse.h"

/* ---- cancel tokens
 * ------------------------------------------------------------ */

vsh_cancel *vsh_cancel_new(void) {
  vsh_cancel *c = malloc(sizeof *c);
  if (c)
    atomic_init(&c->flag, 0);
  return c;
}
void vsh_cancel_set(vsh_cancel *c) {
  if (c)
    atomic_store(&c->flag, 1);
}
int vsh_cancel_is_set(const vsh_cancel *c) {
  return c ? atomic_load(&((vsh_cancel *)c)->flag) : 0;
}
void vsh_cancel_reset(vsh_cancel *c) {
  if (c)
    atomic_store(&c->flag, 0);
}
void vsh_cancel_free(vsh_cancel *c) {
  free(c);
}

/* ---- one run
 * ------------------------------------------------------------------ */

typedef struct job_arg {
  sh_exec *ex;
  const char *src;
  size_t len;
  int status;
  int done;
  int exited;       /* the script ran `exit` */
  budget_stop stop; /* the budget's stop when the script ended */
  uint64_t stop_value;
} job_arg;

/* Budget checks a job still running when the script ends may still make
 * (see vsh_exec in vsh.h): enough for `echo done &` or a short loop to
 * finish, far too few to hold the caller. Counted, not timed, so what a
 * leftover job prints does not depend on the machine's speed. */
#define HANGUP_POLLS 4096

/* The script has ended: an exec that ran past its deadline ends 124 even
 * if its last step completed before the next poll; jobs still running are
 * hung up. What they do from now on does not change the exec's status,
 * unless one of them hits a limit. */
static void script_ended(job_arg *j) {
  sh_run *r = j->ex->run;
  budget_poll_now(&r->bud);
  j->stop = r->bud.stop;
  j->stop_value = r->bud.stop_value;
  if (r->njobs_running > 0)
    budget_hangup(&r->bud, HANGUP_POLLS);
}

static void main_fiber(void *arg) {
  job_arg *j = arg;
  sh_exec *ex = j->ex;
  int st = sh_run_script(ex, j->src, j->len, 1);
  if (ex->jump == J_EXIT) {
    st = ex->exit_status;
    j->exited = 1;
  }
  if (ex->jump != J_ABORT) {
    ex->status = st;
    ex->jump = J_NONE;
    sh_run_exit_trap(ex);
    if (ex->jump == J_EXIT)
      st = ex->exit_status;
  }
  j->status = st;
  j->done = 1;
  script_ended(j);
}

static int run_setup(vsh_sandbox *sb, sched *sc, sh_run *r,
                     const vsh_exec_opts *o, int keep_bufs) {
  if (!keep_bufs)
    memset(r, 0, sizeof *r);
  /* An allocation refused from here on ends this exec (see mem_failed). */
  mem_clear_failed(sb->m);
  r->host = &api_host;
  r->host_ud = sb;
  r->net = sb->net;
  r->m = sb->m;
  r->v = sb->v;
  r->sc = sc;
  memset(&r->bud, 0, sizeof r->bud);
  r->bud.lim = sb->lim;
  if (o && o->timeout_ms > 0) {
    /* this exec's deadline is the caller's choice: as at open, the count
     * limits the caller left unset are off under it */
    vsh_limits l = sb->lim_asked;
    l.timeout_ms = o->timeout_ms;
    budget_defaults(&l);
    r->bud.lim.max_commands = l.max_commands;
    r->bud.lim.max_loop_iterations = l.max_loop_iterations;
    r->bud.lim.timeout_ms = o->timeout_ms;
  }
  r->bud.clock = NULL; /* the monotonic host clock: deadlines are real */
  r->bud.m = sb->m;
  r->bud.sc = sc;
  r->bud.cancel = o && o->cancel ? &o->cancel->flag : NULL;
  if (r->bud.lim.timeout_ms > 0)
    r->bud.deadline_ns =
        budget_now_ns(&r->bud) + r->bud.lim.timeout_ms * 1000000LL;
  buf_init(&r->out, sb->m);
  buf_init(&r->err, sb->m);
  int nocap = o && o->on_output && (o->flags & VSH_EXEC_NO_CAPTURE);
  vsh_output_fn cb = o ? o->on_output : NULL;
  void *ud = o ? o->output_ud : NULL;
  r->out_s =
      stream_capture(sb->m, &r->bud, nocap ? NULL : &r->out, cb, ud, 1, 1);
  r->err_s =
      stream_capture(sb->m, &r->bud, nocap ? NULL : &r->err, cb, ud, 2, 1);
  if (o && o->stdin_fn)
    r->in_s = stream_host_reader(sb->m, &r->bud, o->stdin_fn, o->stdin_ud);
  else if (o && o->stdin_data && o->stdin_len)
    r->in_s = stream_mem_reader(sb->m, &r->bud, o->stdin_data, o->stdin_len, 1);
  else
    r->in_s = stream_null(sb->m, &r->bud);
  r->next_pid = 1000;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  r->start_ns = sb->clock ? sb->clock(sb->clock_ud, 0)
                          : (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  if (!r->out_s || !r->err_s || !r->in_s)
    return -1;
  return 0;
}

static void run_teardown(sh_run *r) {
  stream_unref(r->out_s);
  stream_unref(r->err_s);
  stream_unref(r->in_s);
  stream_unref(r->closed);
  r->out_s = r->err_s = r->in_s = r->closed = NULL;
  while (r->jobs) {
    sh_job *j = r->jobs;
    r->jobs = j->next;
    if (j->ex)
      sh_free(j->ex);
    mem_free(r->m, j);
  }
  sh_run_release_kept(r);
  buf_free(&r->out);
  buf_free(&r->err);
}

/* Drive the scheduler until every fiber of this run has finished. */
static void drive(sh_run *r, job_arg *j) {
  for (;;) {
    int blocked = sched_run(r->sc);
    if (!blocked)
      break;
    /* Everything is waiting on something that cannot come (or a limit
     * stopped the run while fibers were blocked): wake them to unwind.
     * Jobs left when the script ended may not wait at all. */
    if (j->done && r->bud.hangup)
      budget_set_stop(&r->bud, BUDGET_HANGUP, 0);
    sched_break_deadlock(r->sc);
  }
}

static void fill_result(sh_run *r, const vsh_exec_opts *o, vsh_result *res,
                        int status) {
  budget *b = &r->bud;
  char msg[128];
  size_t note = 0; /* bytes of msg that follow the captured stderr */
  res->flags = 0;
  if (b->stop) {
    int n;
    if (b->stop == BUDGET_CANCELLED) {
      res->flags |= VSH_RESULT_CANCELLED;
      status = 130;
      n = snprintf(msg, sizeof msg, "vsh: cancelled\n");
    } else {
      if (b->stop == BUDGET_TIMEOUT)
        n = snprintf(msg, sizeof msg,
                     "vsh: timeout: deadline of %lld ms "
                     "exceeded\n",
                     (long long)b->stop_value);
      else
        n = snprintf(msg, sizeof msg, "vsh: %s limit exceeded (%llu)\n",
                     budget_stop_name(b->stop),
                     (unsigned long long)b->stop_value);
      status = budget_stop_status(b->stop);
      res->flags |=
          b->stop == BUDGET_TIMEOUT ? VSH_RESULT_TIMED_OUT : VSH_RESULT_LIMIT;
      if (b->stop == BUDGET_OUTPUT)
        res->flags |= VSH_RESULT_OUTPUT_TRUNCATED;
    }
    if (!(o && o->on_output && (o->flags & VSH_EXEC_NO_CAPTURE)))
      note = (size_t)n;
    /* A streaming host sees the note where the output stopped. */
    if (o && o->on_output)
      o->on_output(o->output_ud, 2, msg, (size_t)n);
  }
  res->out = api_strdup_out(r->out.data ? r->out.data : "", r->out.len);
  res->out_len = r->out.len;
  /* The note is added here, not appended to the stderr buffer: the exec
   * may have stopped because that buffer could not grow. */
  res->err_len = r->err.len + note;
  res->err = malloc(res->err_len + 1);
  if (res->err) {
    if (r->err.len)
      memcpy(res->err, r->err.data, r->err.len);
    memcpy(res->err + r->err.len, msg, note);
    res->err[res->err_len] = 0;
  }
  res->status = status;
}

/* ---- threads
 * While an exec runs, other threads may use the sandbox between two of its
 * scheduling steps (fiber.h, sched_turns): file calls, and other execs with
 * their own shell state and scheduler over the one filesystem. What the
 * sandbox holds for the running exec alone is put down when it lets go and
 * taken up again after. */

typedef struct exec_turns {
  vsh_sandbox *sb;
  sh_run *r;
  unsigned depth;
} exec_turns;

static void turn_leave(void *ud) {
  exec_turns *t = ud;
  vfs_set_budget(t->sb->v, NULL);
  t->depth = api_letgo(t->sb);
}

static void turn_enter(void *ud) {
  exec_turns *t = ud;
  api_relock(t->sb, t->depth);
  vfs_set_budget(t->sb->v, &t->r->bud);
}

/* The base variables for an exec in cwd: the sandbox's, or those built
 * for cwd when the exec before asked for it too (the host runs its
 * commands in a directory of its own); else the sandbox's, with PWD and
 * OLDPWD set over them per exec. A base in use by an exec on another
 * thread is never replaced. */
static sh_base *base_for(vsh_sandbox *sb, const char *cwd) {
  if (sh_base_fits(sb->base, cwd))
    return sb->base;
  if (!sb->base_at_stale && sh_base_fits(sb->base_at, cwd))
    return sb->base_at;
  if (sb->nexec == 1 && sb->cwd_seen && strcmp(sb->cwd_seen, cwd) == 0) {
    sh_base_free(sb->m, sb->base_at);
    sb->base_at_stale = 0;
    sb->base_at =
        sh_base_new(sb->m, &sb->lim, cwd, (const char *const *)sb->env);
    mem_free(sb->m, sb->cwd_seen);
    sb->cwd_seen = NULL;
    return sb->base_at ? sb->base_at : sb->base;
  }
  mem_free(sb->m, sb->cwd_seen);
  sb->cwd_seen = mem_strdup(sb->m, cwd);
  return sb->base;
}

/* The sandbox whose exec this thread is running (nested execs are refused,
 * execs of other sandboxes from a host command are not). */
static _Thread_local const vsh_sandbox *tl_running;

static vsh_status exec_on(vsh_sandbox *sb, sched *sc, sh_exec *session,
                          sh_run *r, const char *script, size_t len,
                          const vsh_exec_opts *o, vsh_result *res,
                          int *exited) {
  memset(res, 0, sizeof *res);
  if (o && o->cancel && vsh_cancel_is_set(o->cancel)) {
    res->out = api_strdup_out("", 0);
    res->err = api_strdup_out("", 0);
    res->flags = VSH_RESULT_CANCELLED;
    res->status = 130;
    return api_fail(sb, VSH_ABORT, ECANCELED, "cancelled before start");
  }
  if (run_setup(sb, sc, r, o, 0)) {
    run_teardown(r);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
  }
  sh_exec *ex = session;
  if (ex) {
    sh_rebind(ex, r);
    if (o && (o->flags & VSH_EXEC_INTERACTIVE))
      sh_set_interactive(ex);
    if (o && o->cwd) {
      mem_free(sb->m, ex->cwd);
      ex->cwd = mem_strdup(sb->m, o->cwd);
      sh_setvar(ex, "PWD", o->cwd, strlen(o->cwd), SV_EXPORT);
    }
    if (o && o->env) {
      for (size_t i = 0; o->env[i]; i++) {
        const char *eq = strchr(o->env[i], '=');
        if (!eq)
          continue;
        char *nm = mem_strndup(sb->m, o->env[i], (size_t)(eq - o->env[i]));
        if (nm && sh_valid_name(nm, strlen(nm)))
          sh_setvar(ex, nm, eq + 1, strlen(eq + 1), SV_EXPORT);
        mem_free(sb->m, nm);
      }
    }
  } else {
    const char *cwd = o && o->cwd ? o->cwd : sb->cwd;
    /* Built by the first exec, not at open: most sandboxes a host opens
     * run few execs, or none. NULL (out of memory, or an env that cannot
     * be shared) only means every exec builds its variables itself. */
    if (!sb->base && !sb->base_tried &&
        !(o && (o->env || (o->flags & VSH_EXEC_REPLACE_ENV)))) {
      sb->base_tried = 1;
      sb->base =
          sh_base_new(sb->m, &sb->lim, sb->cwd, (const char *const *)sb->env);
    }
    /* The shared base holds what sh_new_root would build for the sandbox
     * env (PWD and OLDPWD are set over it for another cwd); extra or
     * replaced env builds afresh. */
    if (sb->base && !sb->base_stale &&
        !(o && (o->env || (o->flags & VSH_EXEC_REPLACE_ENV))))
      ex = sh_new_root_over(r, base_for(sb, cwd), cwd);
    else
      ex = sh_new_root(r, cwd, (const char *const *)sb->env, o ? o->env : NULL,
                       o && (o->flags & VSH_EXEC_REPLACE_ENV));
    if (!ex) {
      run_teardown(r);
      return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
    }
    if (o && o->argv0) {
      char *a0 = mem_strdup(sb->m, o->argv0);
      if (a0) {
        mem_free(sb->m, ex->arg0);
        ex->arg0 = a0;
      }
      if (o->flags & VSH_EXEC_SCRIPT_FILE)
        sh_root_script_file(ex, o->argv0);
    }
    if (o && (o->flags & VSH_EXEC_INTERACTIVE))
      sh_set_interactive(ex);
    if (o && o->args && o->nargs) {
      sh_args *a = sh_args_new(sb->m, (int)o->nargs, (char **)o->args);
      if (a) {
        sh_args_unref(sb->m, ex->args);
        ex->args = a;
      }
    }
  }
  job_arg j = {ex, script, len, 0, 0, 0, BUDGET_OK, 0};
  exec_turns turns = {sb, r, 0};
  sched_turns st = {turn_leave, turn_enter, &turns, &sb->waiting};
  sched_set_turns(sc, &st);
  /* a write refused by the fs-bytes or fs-inodes quota ends the exec */
  vfs_set_budget(sb->v, &r->bud);
  int spawned = sched_spawn(sc, main_fiber, &j) != NULL;
  if (spawned)
    drive(r, &j);
  vfs_set_budget(sb->v, NULL);
  sched_set_turns(sc, NULL);
  if (!spawned) {
    if (!session)
      sh_free(ex);
    run_teardown(r);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "cannot create a fiber");
  }
  if (j.done && (j.stop || r->bud.stop == BUDGET_HANGUP)) {
    /* The hang-up is no limit; a limit the script hit stays the one
     * reported. A limit a leftover job hit after the end (a fork bomb's
     * jobs limit) is reported too. */
    r->bud.stop = j.stop;
    r->bud.stop_value = j.stop_value;
  }
  r->bud.hangup = 0;
  int status = j.done ? j.status : 1;
  if (exited && j.exited)
    *exited = 1;
  int cancelled = r->bud.stop == BUDGET_CANCELLED;
  if (session) {
    /* Release the per-exec streams; fds opened by `exec 4>f` stay (the
     * session's run struct, which they point at, is persistent). */
    for (int i = 0; i < 3; i++) {
      stream_unref(ex->fd[i]);
      ex->fd[i] = NULL;
    }
    ex->jump = J_NONE;
    ex->status = status;
  } else {
    sh_free(ex);
    if (sb->base_at && (sb->base_at_stale || !sh_base_intact(sb->base_at))) {
      if (sb->nexec > 1) {
        sb->base_at_stale = 1; /* unused from now; the last exec frees it */
      } else {
        sh_base_free(sb->m, sb->base_at);
        sb->base_at = NULL;
        sb->base_at_stale = 0;
      }
    }
    if (sb->base && (sb->base_stale || !sh_base_intact(sb->base))) {
      /* Rebuilt now, not lazily, so memory returns to its level; but not
       * under an exec still running over it on another thread: the last
       * one to finish does it. */
      if (sb->nexec > 1) {
        sb->base_stale = 1;
      } else {
        sh_base_free(sb->m, sb->base);
        sb->base =
            sh_base_new(sb->m, &sb->lim, sb->cwd, (const char *const *)sb->env);
        sb->base_stale = 0;
      }
    }
  }
  fill_result(r, o, res, status);
  run_teardown(r);
  if (!res->out || !res->err) {
    vsh_result_free(res);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
  }
  if (cancelled)
    return api_fail(sb, VSH_ABORT, ECANCELED, "cancelled");
  return VSH_OK;
}

static vsh_status exec_in(vsh_sandbox *sb, sh_exec *session, sh_run *r,
                          const char *script, size_t len,
                          const vsh_exec_opts *o, vsh_result *res,
                          int *exited) {
  if (tl_running == sb) {
    memset(res, 0, sizeof *res);
    return api_fail(sb, VSH_MISUSE, EBUSY,
                    "exec called from inside a running exec");
  }
  /* The sandbox's scheduler serves one exec at a time; an exec that runs
   * beside it (on another thread) drives one of its own. */
  sched *sc = sb->sc;
  if (sb->sc_busy && !(sc = sched_new(0))) {
    memset(res, 0, sizeof *res);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "cannot create a scheduler");
  }
  if (sc == sb->sc)
    sb->sc_busy = 1;
  const vsh_sandbox *outer = tl_running;
  tl_running = sb;
  sb->nexec++;
  vsh_status st = exec_on(sb, sc, session, r, script, len, o, res, exited);
  sb->nexec--;
  tl_running = outer;
  if (sc == sb->sc) {
    sb->sc_busy = 0;
    sched_trim(sc); /* an idle sandbox keeps no fiber stack */
  } else {
    sched_free(sc);
  }
  return st;
}

vsh_status vsh_exec_n(vsh_sandbox *sb, const char *script, size_t script_len,
                      const vsh_exec_opts *opts, vsh_result *res) {
  if (!sb || !res || (!script && script_len))
    return VSH_MISUSE;
  vsh_status cs = api_exec_cwd_check(sb, opts, res);
  if (cs != VSH_OK)
    return cs;
  api_lock(sb);
  sh_run r;
  vsh_status st =
      exec_in(sb, NULL, &r, script ? script : "", script_len, opts, res, NULL);
  api_unlock(sb);
  return st;
}

vsh_status vsh_exec(vsh_sandbox *sb, const char *script,
                    const vsh_exec_opts *opts, vsh_result *res) {
  return vsh_exec_n(sb, script, script ? strlen(script) : 0, opts, res);
}

void vsh_result_free(vsh_result *res) {
  if (!res)
    return;
  free(res->out);
  free(res->err);
  res->out = res->err = NULL;
  res->out_len = res->err_len = 0;
}

/* ---- sessions
 * ------------------------------------------------------------------ */

struct vsh_session {
  vsh_sandbox *sb;
  sh_run *run; /* persistent: streams opened by `exec 3>f` point at it */
  sh_exec *ex;
  int exited;
  int busy; /* an exec of this session is running (on some thread) */
};

vsh_status vsh_session_open(vsh_sandbox *sb, vsh_session **out) {
  if (!sb || !out)
    return VSH_MISUSE;
  api_lock(sb);
  vsh_session *s = mem_calloc(sb->m, 1, sizeof *s);
  sh_run *r = mem_calloc(sb->m, 1, sizeof *r);
  if (!s || !r) {
    mem_free(sb->m, s);
    mem_free(sb->m, r);
    api_unlock(sb);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
  }
  s->sb = sb;
  s->run = r;
  if (run_setup(sb, sb->sc, r, NULL, 0)) {
    run_teardown(r);
    mem_free(sb->m, s);
    mem_free(sb->m, r);
    api_unlock(sb);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
  }
  s->ex = sh_new_root(r, sb->cwd, (const char *const *)sb->env, NULL, 0);
  if (s->ex) {
    for (int i = 0; i < 3; i++) {
      stream_unref(s->ex->fd[i]);
      s->ex->fd[i] = NULL;
    }
    s->ex->is_session = 1;
  }
  run_teardown(r);
  if (!s->ex) {
    mem_free(sb->m, s);
    mem_free(sb->m, r);
    api_unlock(sb);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
  }
  *out = s;
  api_unlock(sb);
  return VSH_OK;
}

vsh_status vsh_session_exec(vsh_session *s, const char *script, size_t len,
                            const vsh_exec_opts *opts, vsh_result *res) {
  if (!s || !res || (!script && len))
    return VSH_MISUSE;
  vsh_sandbox *sb = s->sb;
  vsh_status cs = api_exec_cwd_check(sb, opts, res);
  if (cs != VSH_OK)
    return cs;
  api_lock(sb);
  if (s->exited) {
    memset(res, 0, sizeof *res);
    api_unlock(sb);
    return api_fail(sb, VSH_MISUSE, EINVAL, "session has exited");
  }
  if (s->busy) {
    /* one shell runs one command at a time */
    memset(res, 0, sizeof *res);
    api_unlock(sb);
    return api_fail(sb, VSH_MISUSE, EBUSY,
                    "session is running an exec on another thread");
  }
  s->busy = 1;
  vsh_status st = exec_in(sb, s->ex, s->run, script ? script : "", len, opts,
                          res, &s->exited);
  s->busy = 0;
  api_unlock(sb);
  return st;
}

int vsh_session_exited(const vsh_session *s) {
  return s ? s->exited : 0;
}

void vsh_session_close(vsh_session *s) {
  if (!s)
    return;
  vsh_sandbox *sb = s->sb;
  api_lock(sb);
  /* The shell's streams must go before the run they point into. */
  sh_free(s->ex);
  mem_free(sb->m, s->run);
  mem_free(sb->m, s);
  api_unlock(sb);
}

int vsh_script_complete(const char *script, size_t len) {
  mem *m = mem_new(NULL, NULL, 0);
  if (!m)
    return -1;
  arena a;
  arena_init(&a, m);
  int rc = 1;
  sh_parser *p = sh_parser_new(&a, script, len, NULL);
  if (!p) {
    rc = -1;
  } else {
    sh_node *n;
    int k;
    while ((k = sh_parse_next(p, &n)) == 1)
      ;
    if (k < 0)
      rc = sh_parse_incomplete(p) ? 0 : -1;
  }
  arena_destroy(&a);
  mem_unref(m);
  return rc;
}
