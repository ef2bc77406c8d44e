/*
 * exec_pipe.c - child shell processes: pipelines (one fiber per stage,
 * joined by bounded pipes), ( subshells ), $(...) (same fiber, stdout
 * captured), background jobs and wait. Process substitution is in
 * procsub.c.
 *
 * A child gets an O(1) copy of the shell: an overlay scope over the
 * parent's frozen scopes, shared positional parameters and aliases, and
 * its own references to the parent's open streams. Background jobs run
 * while the parent goes on, so they get a flat copy instead.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/sh.h"

/* ---- child processes -------------------------------------------------------
 */

static int flatten_vars(sh_exec *c, sh_exec *ex) {
  size_t n;
  sh_var **all = sh_all_vars(ex, ex->ar, &n);
  if (!all)
    return -1;
  for (size_t i = 0; i < n; i++) {
    sh_var *v = sh_var_clone(c->m, all[i]);
    if (!v || sh_map_put(c->m, &c->global->map, v)) {
      sh_var_free(c->m, v);
      return -1;
    }
  }
  size_t nf;
  sh_func **fs = sh_all_funcs(ex, ex->ar, &nf);
  for (size_t i = 0; fs && i < nf; i++) {
    fs[i]->refs++;
    if (sh_map_put(c->m, &c->funcs, fs[i])) {
      sh_func_unref(c->m, fs[i]);
      return -1;
    }
  }
  c->funcs_flat = 1;
  return 0;
}

/* An sh_exec is taken as a block of 4 KiB, a size the allocator keeps
 * freed blocks of for reuse: every subshell and pipeline stage makes one,
 * and from the C library a block this large costs a consolidation of its
 * free lists each time. */
#define EXEC_BLOCK 4096
_Static_assert(sizeof(sh_exec) <= EXEC_BLOCK, "sh_exec outgrew its block");

sh_exec *sh_exec_new(mem *m) {
  sh_exec *ex = mem_alloc(m, EXEC_BLOCK);
  if (ex)
    memset(ex, 0, sizeof *ex);
  return ex;
}

sh_exec *sh_child(sh_exec *ex, int flat) {
  mem *m = ex->m;
  sh_exec *c = sh_exec_new(m);
  if (!c)
    return NULL;
  c->run = ex->run;
  c->m = m;
  c->ar = ex->ar;
  c->parent = flat ? NULL : ex;
  sh_scope *g = mem_calloc(m, 1, sizeof *g);
  if (!g) {
    mem_free(m, c);
    return NULL;
  }
  g->owned = 1;
  if (flat) {
    g->kind = SC_GLOBAL;
  } else {
    g->kind = SC_OVERLAY;
    g->up = ex->scope;
  }
  c->scope = c->global = g;
  if (flat && flatten_vars(c, ex)) {
    sh_free(c);
    return NULL;
  }
  c->aliases = ex->aliases;
  c->aliases_owned = 0;
  if (flat && ex->aliases)
    sh_aliases_copy(c);
  c->args = ex->args;
  if (c->args)
    c->args->refs++;
  c->arg0 = mem_strdup(m, ex->arg0 ? ex->arg0 : "bash");
  if (ex->last_arg) { /* a subshell starts with its parent's $_ */
    size_t ll = strlen(ex->last_arg) + 1;
    c->last_arg = mem_memdup(m, ex->last_arg, ll);
    c->last_arg_cap = c->last_arg ? ll : 0;
  }
  c->opts = ex->opts;
  c->shopts = ex->shopts;
  memcpy(c->ulim, ex->ulim, sizeof c->ulim);
  c->ulim_set = ex->ulim_set;
  for (int i = 0; i < ex->nfd; i++)
    c->fd[i] = stream_ref(ex->fd[i]);
  c->nfd = ex->nfd;
  /* Traps are not inherited, except ignored signals. */
  for (int i = 1; i < SH_NSIG; i++)
    if (ex->traps[i] && !ex->traps[i][0])
      c->traps[i] = mem_strdup(m, "");
  /* set -E passes the ERR trap on, set -T the DEBUG and RETURN traps. */
  if ((ex->opts & O_ERRTRACE) && ex->traps[TRAP_ERR])
    c->traps[TRAP_ERR] = mem_strdup(m, ex->traps[TRAP_ERR]);
  if ((ex->opts & O_FUNCTRACE) && ex->traps[TRAP_DEBUG])
    c->traps[TRAP_DEBUG] = mem_strdup(m, ex->traps[TRAP_DEBUG]);
  if ((ex->opts & O_FUNCTRACE) && ex->traps[TRAP_RETURN])
    c->traps[TRAP_RETURN] = mem_strdup(m, ex->traps[TRAP_RETURN]);
  c->cwd = mem_strdup(m, ex->cwd);
  c->frame = flat ? &c->base_frame : ex->frame;
  c->base_frame.func = "main";
  c->func_depth = ex->func_depth;
  c->source_depth = ex->source_depth;
  c->func_base = ex->func_base;
  c->source_base = ex->source_base;
  c->trap_depth = ex->trap_depth;
  c->status = ex->status;
  c->lineno = ex->lineno;
  c->errexit_ok = ex->errexit_ok;
  c->in_subshell = ex->in_subshell + 1;
  c->cmdsub_level = ex->cmdsub_level;
  c->is_stage = 1;
  c->pid = ++ex->run->next_pid;
  c->shell_pid = ex->shell_pid; /* a subshell keeps its shell's $$ */
  /* $(...) and pipeline stages see their shell's jobs (`jobs | cat`); a
   * job starts with a table of its own. */
  c->jobs_pid = flat ? 0 : (ex->jobs_pid ? ex->jobs_pid : ex->pid);
  c->last_bg_pid = ex->last_bg_pid;
  c->errname = ex->errname;
  if (flat) {
    /* A job runs on after its parent (a script run by `bash FILE`, whose
     * name errname may be) is freed. */
    c->errname_own = mem_strdup(m, ex->errname ? ex->errname : "bash");
    c->errname = c->errname_own;
  }
  c->random_state = ex->random_state;
  c->random_seeded = ex->random_seeded;
  memcpy(c->pipestatus, ex->pipestatus, sizeof c->pipestatus);
  c->npipestatus = ex->npipestatus;
  c->disabled = ex->disabled;
  if (ex->ndirstack) {
    c->dirstack = mem_calloc(m, (size_t)ex->ndirstack, sizeof(char *));
    if (c->dirstack) {
      for (int i = 0; i < ex->ndirstack; i++)
        c->dirstack[i] = mem_strdup(m, ex->dirstack[i]);
      c->ndirstack = ex->ndirstack;
    }
  }
  if (!c->cwd || !c->arg0 || (flat && !c->errname_own) || sh_comp_copy(c, ex) ||
      sh_bind_copy(c, ex) || sh_hist_copy(c, ex) || sh_hash_copy(c, ex)) {
    sh_free(c);
    return NULL;
  }
  return c;
}

void sh_free(sh_exec *ex) {
  if (!ex)
    return;
  mem *m = ex->m;
  sh_procsub_finish(ex, 0); /* before the fds: it closes its own */
  while (ex->scope && ex->scope != ex->global)
    sh_scope_pop(ex);
  if (ex->global) {
    ex->scope = ex->global;
    ex->scope->up = NULL;
    sh_scope_pop(ex);
  }
  uint32_t i = 0;
  sh_func *f;
  while ((f = sh_map_next(&ex->funcs, &i)))
    sh_func_unref(m, f);
  sh_map_free(m, &ex->funcs);
  sh_aliases_free(ex);
  sh_args_unref(m, ex->args);
  for (int k = 0; k < ex->nfd; k++)
    stream_unref(ex->fd[k]);
  for (int k = 0; k < SH_NTRAP; k++)
    if (ex->traps[k])
      mem_free(m, ex->traps[k]);
  for (int k = 0; k < ex->ndirstack; k++)
    mem_free(m, ex->dirstack[k]);
  mem_free(m, ex->dirstack);
  mem_free(m, ex->cwd);
  mem_free(m, ex->arg0);
  mem_free(m, ex->last_arg);
  mem_free(m, ex->script_name);
  mem_free(m, ex->errname_own);
  sh_comp_free(ex);
  sh_bind_free(ex);
  sh_hist_free(ex);
  sh_hash_free(ex);
  mem_free(m, ex->procsubs);
  if (ex->own_arena)
    arena_destroy(&ex->own_ar);
  mem_free(m, ex);
}

static void close_fds(sh_exec *c) {
  for (int k = 0; k < c->nfd; k++) {
    stream_unref(c->fd[k]);
    c->fd[k] = NULL;
  }
}

/* Run node as the whole body of child c; returns its exit status. */
static int run_child(sh_exec *c, sh_node *n) {
  int st = sh_exec_node(c, n);
  if (c->jump == J_EXIT)
    st = c->exit_status;
  if (c->jump != J_ABORT) {
    c->status = st;
    int save = c->jump;
    c->jump = J_NONE;
    sh_run_exit_trap(c);
    if (c->jump == J_EXIT)
      st = c->exit_status;
    if (save == J_ABORT || c->jump == J_ABORT)
      c->jump = J_ABORT;
    else
      c->jump = save;
  }
  return st;
}

static void propagate_abort(sh_exec *ex, sh_exec *c) {
  if (c->jump == J_ABORT || c->run->bud.stop)
    ex->jump = J_ABORT;
}

/* ---- ( subshell ) -----------------------------------------------------------
 */

int sh_exec_subshell(sh_exec *ex, sh_node *n) {
  ex->lineno = n->line;
  sh_exec *c = sh_child(ex, 0);
  if (!c)
    return sh_oom(ex);
  c->cmdsub_level = ex->cmdsub_level;
  c->jobs_pid = 0; /* bash: `( jobs )` lists none of the parent's */
  int st;
  sh_redir_save *save = NULL;
  size_t nsave = 0;
  if (n->redirs && sh_redir_apply(c, n->redirs, &save, &nsave, 1)) {
    st = 1;
  } else {
    st = run_child(c, n->u.group.body);
  }
  propagate_abort(ex, c);
  sh_free(c);
  ex->status = st;
  if (!ex->jump)
    sh_after_command(ex, st);
  return st;
}

/* ---- $(...)
 * ------------------------------------------------------------------- */

int sh_cmdsub(sh_exec *ex, sh_node *body, buf *out) {
  if (!body)
    return 0;
  sh_exec *c = sh_child(ex, 0);
  if (!c)
    return sh_oom(ex);
  c->cmdsub_level = ex->cmdsub_level + 1;
  /* bash: command substitutions do not inherit set -e unless
   * inherit_errexit; -e stays set in $- but is not acted upon. */
  if (!(ex->shopts & SO_INHERIT_ERREXIT))
    c->errexit_ok++;
  stream *cap = stream_capture(ex->m, &ex->run->bud, out, NULL, NULL, 1, 0);
  if (!cap) {
    sh_free(c);
    return sh_oom(ex);
  }
  stream_capture_limit(cap, (size_t)ex->run->bud.lim.max_string_bytes);
  stream_unref(c->fd[1]);
  c->fd[1] = stream_ref(cap);
  arena_mark mk = arena_save(ex->ar);
  int st = run_child(c, body);
  arena_release(ex->ar, mk);
  propagate_abort(ex, c);
  sh_free(c);
  /* out is the caller's: a background job started in the body that still
   * holds the stream is waited for (bash reads to end of file), and what
   * it writes later never reaches out. */
  stream_capture_finish(cap);
  if (ex->run->bud.stop)
    ex->jump = J_ABORT;
  return st;
}

/* ---- pipelines
 * ------------------------------------------------------------------ */

typedef struct pwait {
  sched *sc;
  fiber *parent;
  int pending;
} pwait;

typedef struct stage {
  sh_exec *c;
  sh_node *n;
  int status;
  pwait *w;
} stage;

static void stage_fn(void *arg) {
  stage *s = arg;
  s->status = run_child(s->c, s->n);
  close_fds(s->c);
  if (--s->w->pending == 0)
    fiber_wake(s->w->sc, s->w->parent);
}

int sh_exec_pipeline(sh_exec *ex, sh_node *n) {
  size_t nc = n->u.pipe.ncmds;
  int bang = n->u.pipe.bang;
  ex->lineno = n->line;
  if (nc == 1) {
    /* bash ignores failures under ! only when set -e is already on: a
     * `set -e` run inside `! f` takes effect there. */
    int ignore = bang && (ex->opts & O_ERREXIT);
    if (ignore)
      ex->errexit_ok++;
    const sh_node *inv = ex->inverted;
    if (bang)
      ex->inverted = n->u.pipe.cmds[0];
    int st = sh_exec_node(ex, n->u.pipe.cmds[0]);
    ex->inverted = inv;
    if (ignore)
      ex->errexit_ok--;
    if (bang)
      st = !st;
    ex->pipestatus[0] = bang ? !st : st;
    ex->npipestatus = 1;
    return ex->status = st;
  }
  if (!sh_jobs_ok(ex, nc - 1))
    return 126;
  sh_run *r = ex->run;
  mem *m = ex->m;
  stage *st = mem_calloc(m, nc, sizeof *st);
  if (!st)
    return sh_oom(ex);
  pwait w = {r->sc, sched_current(r->sc), (int)nc};
  stream *prev_rd = NULL;
  size_t made = 0;
  int fail = 0;
  for (size_t i = 0; i < nc; i++) {
    /* bash runs the DEBUG trap for a simple stage in the shell itself,
     * before the stage gets its pipe (stages do not inherit the trap). */
    if (n->u.pipe.cmds[i]->kind == N_SIMPLE)
      sh_debug_trap(ex, n->u.pipe.cmds[i]->line);
    sh_exec *c = sh_child(ex, 0);
    if (!c) {
      fail = 1;
      break;
    }
    arena_init(&c->own_ar, m);
    c->own_arena = 1;
    c->ar = &c->own_ar;
    if (bang)
      c->errexit_ok = ex->errexit_ok + 1;
    st[i].c = c;
    st[i].n = n->u.pipe.cmds[i];
    st[i].w = &w;
    made++;
    if (i > 0) {
      stream_unref(c->fd[0]);
      c->fd[0] = prev_rd;
      prev_rd = NULL;
    }
    if (i + 1 < nc) {
      stream *rd, *wr;
      if (stream_pipe(m, r->sc, &r->bud, SH_PIPE_CAP, &rd, &wr)) {
        fail = 1;
        break;
      }
      stream_unref(c->fd[1]);
      c->fd[1] = wr;
      if (n->u.pipe.stderr_too && n->u.pipe.stderr_too[i]) {
        stream_unref(c->fd[2]);
        c->fd[2] = stream_ref(wr);
      }
      prev_rd = rd;
    }
  }
  if (fail) {
    stream_unref(prev_rd);
    for (size_t i = 0; i < made; i++)
      sh_free(st[i].c);
    mem_free(m, st);
    return sh_oom(ex);
  }
  /* Stages 0..n-2 are fibers; the last runs here, in the parent's fiber. */
  for (size_t i = 0; i + 1 < nc; i++) {
    if (!sched_spawn(r->sc, stage_fn, &st[i])) {
      /* no fiber: run it inline (may block forever on a full pipe; the
       * deadlock breaker then ends it) */
      stage_fn(&st[i]);
    }
  }
  stage *last = &st[nc - 1];
  if (ex->shopts & SO_LASTPIPE) {
    /* lastpipe: the last stage runs in this shell */
    stream *save_in = ex->fd[0];
    ex->fd[0] = last->c->fd[0];
    last->c->fd[0] = NULL;
    last->status = sh_exec_node(ex, last->n);
    stream_unref(ex->fd[0]);
    ex->fd[0] = save_in;
  } else {
    last->status = run_child(last->c, last->n);
  }
  close_fds(last->c);
  /* bash's child for a last stage `( ... )` still holds the ERR trap and
   * runs it when the subshell fails, before the shell runs it again for
   * the pipeline: a failing last subshell shows the trap twice. */
  if (!(ex->shopts & SO_LASTPIPE) && last->n->kind == N_SUBSHELL &&
      last->status && !bang && !ex->jump && !ex->errexit_ok &&
      ex->traps[TRAP_ERR] && !(ex->pseudo_trap_running & 1) &&
      (!ex->func_depth || (ex->opts & O_ERRTRACE))) {
    int save = ex->status;
    ex->status = last->status;
    sh_run_trap(ex, TRAP_ERR);
    ex->status = save;
  }
  w.pending--;
  while (w.pending > 0)
    fiber_block(r->sc);
  int status = 0, pf = 0;
  ex->npipestatus = (int)(nc < 64 ? nc : 64);
  for (size_t i = 0; i < nc; i++) {
    if (i < 64)
      ex->pipestatus[i] = st[i].status;
    if (st[i].status)
      pf = st[i].status;
    propagate_abort(ex, st[i].c);
  }
  status = last->status;
  if ((ex->opts & O_PIPEFAIL) && pf)
    status = pf;
  for (size_t i = 0; i < nc; i++)
    sh_free(st[i].c);
  mem_free(m, st);
  if (bang)
    status = !status;
  ex->status = status;
  if (!ex->jump && !bang)
    sh_after_command(ex, status);
  return status;
}

/* ---- background jobs
 * -------------------------------------------------------------- */

static void job_fn(void *arg) {
  sh_job *j = arg;
  sh_exec *c = j->ex;
  /* its pipeline stages and $(...) run in its group: `kill` stops all */
  fiber_set_group(j->run->sc, j);
  /* killed before it ever ran: it runs nothing */
  j->status = j->sig ? 128 + j->sig : run_child(c, j->node);
  if (j->sig)
    j->status = 128 + j->sig;
  close_fds(c);
  sh_free(c);
  j->ex = NULL;
  j->done = 1;
  c = NULL;
  j->run->njobs_running--;
  if (j->waiter) {
    fiber *f = j->waiter;
    j->waiter = NULL;
    fiber_wake(j->run->sc, f);
  }
}

sh_job *sh_job_spawn(sh_exec *ex, sh_exec *c, sh_node *n, int listed) {
  sh_run *r = ex->run;
  sh_job *j = mem_calloc(ex->m, 1, sizeof *j);
  if (!j)
    return NULL;
  j->pid = c->pid;
  j->ex = c;
  j->node = n;
  j->run = r;
  j->next = r->jobs;
  r->jobs = j;
  if (listed)
    sh_job_enter(ex, j);
  else
    j->owner = ex->pid; /* `wait` waits for it; `jobs` does not show it */
  r->njobs_running++;
  r->keep_ast = 1;
  if (!sched_spawn(r->sc, job_fn, j)) {
    job_fn(j);
  }
  return j;
}

sh_exec *sh_job_child(sh_exec *ex) {
  sh_exec *c = sh_child(ex, 1);
  if (!c)
    return NULL;
  arena_init(&c->own_ar, ex->m);
  c->own_arena = 1;
  c->ar = &c->own_ar;
  return c;
}

int sh_exec_bg(sh_exec *ex, sh_node *n) {
  sh_run *r = ex->run;
  if (!sh_jobs_ok(ex, 1))
    return 126;
  sh_exec *c = sh_job_child(ex);
  if (!c)
    return sh_oom(ex);
  /* bash's child for `cmd &` runs just that command: its failure is not
   * the ERR trap's (set -E), unlike a failure inside `{ ...; } &` */
  if (n->kind == N_SIMPLE)
    c->pseudo_trap_running |= 4;
  /* Without job control, an async command reads /dev/null. */
  stream *nul = stream_null(ex->m, &r->bud);
  if (nul) {
    stream_unref(c->fd[0]);
    c->fd[0] = nul;
  }
  sh_job *j = sh_job_spawn(ex, c, n, 1);
  if (!j) {
    sh_free(c);
    return sh_oom(ex);
  }
  ex->last_bg_pid = j->pid;
  return ex->status = 0;
}

/* Block until j is done (or the exec stops). */
static void wait_one(sh_exec *ex, sh_job *j) {
  sh_run *r = ex->run;
  while (!j->done && !sh_stopped(ex)) {
    j->waiter = sched_current(r->sc);
    fiber_block(r->sc);
    if (sched_deadlocked(r->sc) && !j->done)
      fiber_yield(r->sc);
  }
}

/* Whether j is a job of ex, the shell waiting: bash waits only for its
 * own children. */
static int own_job(sh_exec *ex, sh_job *j) {
  return j->owner == ex->pid ||
         j->owner == (ex->jobs_pid ? ex->jobs_pid : ex->pid);
}

/* Wait for job pid (0: all of this shell's, -1: the next one of them to
 * end, as `wait -n`; -2: the next of those marked wanted, as `wait -n
 * ID...`). Returns the status of that job (or 0); *found is 0 when there
 * is no such job. A job waited for leaves the job table. */
int sh_wait_job(sh_exec *ex, int pid, int *found) {
  sh_run *r = ex->run;
  int st = 0;
  *found = 0;
  if (pid == -1 || pid == -2) {
    for (;;) {
      sh_job *running = NULL;
      for (sh_job *j = r->jobs; j; j = j->next) {
        if (!own_job(ex, j) || j->jobno == 0 || (pid == -2 && !j->wanted))
          continue;
        if (j->done) {
          *found = 1;
          st = j->status;
          sh_job_forget(ex, j, 1);
          return st;
        }
        running = j;
      }
      if (!running || sh_stopped(ex))
        break;
      wait_one(ex, running); /* any end wakes the loop again */
    }
  } else {
    for (sh_job *j = r->jobs; j; j = j->next) {
      if (pid ? j->pid != pid : !own_job(ex, j))
        continue;
      *found = 1;
      wait_one(ex, j);
      st = j->status;
      if (j->jobno)
        sh_job_forget(ex, j, 1);
      if (pid)
        break;
    }
    if (!pid)
      st = 0;
  }
  if (sh_stopped(ex))
    ex->jump = J_ABORT;
  return st;
}

void sh_wait_jobs(sh_exec *ex, int pid) {
  int f;
  sh_wait_job(ex, pid, &f);
}
