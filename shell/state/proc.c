/*
 * proc.c - the state every shell process carries besides its variables:
 * error messages in bash's format on fd 2, the jumps that stop a command
 * or the process (exit, discard, limits), output helpers for builtins, and
 * the arrays computed from the call stack (FUNCNAME, BASH_SOURCE, ...).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/sh.h"

/* ---- messages ------------------------------------------------------------ */

/* "NAME: [line N: ][WHO: ]message\n" on the shell's fd 2, in one write;
 * with_line < 0: the message alone (a usage line). */
static void err_vwrite(sh_exec *ex, int with_line, const char *who,
                       const char *fmt, va_list ap) {
  buf b;
  buf_init(&b, ex->m);
  if (with_line >= 0)
    buf_printf(&b, "%s: ", ex->errname ? ex->errname : "bash");
  /* a shell reading from a person names no line */
  if (with_line > 0 && !(ex->opts & O_INTERACTIVE))
    buf_printf(&b, "line %d: ", ex->lineno);
  if (who)
    buf_printf(&b, "%s: ", who);
  buf_vprintf(&b, fmt, ap);
  buf_putc(&b, '\n');
  stream *e = ex->fd[2];
  if (e)
    stream_write(e, b.data, b.len);
  buf_free(&b);
}

void sh_err(sh_exec *ex, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vwrite(ex, 1, NULL, fmt, ap);
  va_end(ap);
}

void sh_err_noline(sh_exec *ex, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vwrite(ex, 0, NULL, fmt, ap);
  va_end(ap);
}

void sh_usage(sh_exec *ex, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vwrite(ex, -1, NULL, fmt, ap);
  va_end(ap);
}

int sh_builtin_err(sh_exec *ex, const char *name, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vwrite(ex, 1, name, fmt, ap);
  va_end(ap);
  return 1;
}

void sh_fatal(sh_exec *ex, int status) {
  if (ex->jump == J_ABORT)
    return;
  ex->jump = J_EXIT;
  ex->exit_status = status;
  ex->status = status;
  /* An interactive shell abandons the command line and goes back to its
   * prompt instead (a subshell of it still ends). */
  ex->discard = (ex->opts & O_INTERACTIVE) != 0;
}

/* Unwinds like an exit (so loops, functions and subshell boundaries need
 * nothing new); run_text stops it at the top-level command boundary. */
void sh_discard(sh_exec *ex) {
  if (ex->jump == J_ABORT || ex->jump == J_EXIT)
    return;
  sh_fatal(ex, 1);
  ex->discard = 1;
}

int sh_oom(sh_exec *ex) {
  budget_set_stop(&ex->run->bud, BUDGET_MEMORY, ex->run->bud.lim.max_memory);
  ex->jump = J_ABORT;
  return -1;
}

/* ---- output helpers for builtins ------------------------------------------
 */

int sh_out(sh_exec *ex, const char *s, size_t n) {
  stream *o = ex->fd[1];
  if (!o)
    return -1;
  return stream_write(o, s, n);
}

int sh_outs(sh_exec *ex, const char *s) {
  return sh_out(ex, s, strlen(s));
}

int sh_outf(sh_exec *ex, const char *fmt, ...) {
  buf b;
  buf_init(&b, ex->m);
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  int r = sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return r;
}

/* ---- specials materialised as arrays
 * ----------------------------------------- */

static sh_var *tmp_array(sh_exec *ex, const char *name, size_t n) {
  sh_var *v = arena_calloc(ex->ar, sizeof *v);
  sh_arr *a = arena_calloc(ex->ar, sizeof *a);
  if (!v || !a)
    return NULL;
  a->e = arena_calloc(ex->ar, (n + 1) * sizeof *a->e);
  if (!a->e)
    return NULL;
  a->cap = n + 1;
  v->name = (char *)name;
  v->flags = V_ARRAY | V_SET;
  v->arr = a;
  return v;
}

static void tmp_push(sh_exec *ex, sh_var *v, const char *s) {
  sh_arr *a = v->arr;
  a->e[a->n].idx = (int64_t)a->n;
  a->e[a->n].val = arena_strdup(ex->ar, s ? s : "");
  a->n++;
}

sh_var *sh_special_array(sh_exec *ex, const char *name) {
  if (strcmp(name, "PIPESTATUS") == 0) {
    sh_var *v = tmp_array(ex, name, (size_t)ex->npipestatus);
    for (int i = 0; v && i < ex->npipestatus; i++) {
      char t[16];
      snprintf(t, sizeof t, "%d", ex->pipestatus[i]);
      tmp_push(ex, v, t);
    }
    return v;
  }
  int fn = strcmp(name, "FUNCNAME") == 0;
  int src = strcmp(name, "BASH_SOURCE") == 0;
  int ln = strcmp(name, "BASH_LINENO") == 0;
  if (!fn && !src && !ln)
    return NULL;
  size_t n = 0, calls = 0;
  for (sh_frame *f = ex->frame; f; f = f->up)
    if (f->func) {
      n++;
      if (f->up && strcmp(f->func, "source") != 0)
        calls++;
    }
  if (n == 0)
    return NULL;
  /* bash: FUNCNAME exists only while a function runs (a file sourced at
   * the top level has BASH_SOURCE and BASH_LINENO entries, no FUNCNAME) */
  if (fn && !calls)
    return NULL;
  sh_var *v = tmp_array(ex, name, n);
  for (sh_frame *f = ex->frame; v && f; f = f->up) {
    if (!f->func)
      continue;
    if (fn) {
      tmp_push(ex, v, f->func);
    } else if (src) {
      tmp_push(ex, v, f->source ? f->source : "");
    } else {
      char t[16];
      snprintf(t, sizeof t, "%d", f->call_line);
      tmp_push(ex, v, t);
    }
  }
  return v;
}

/* ---- stops -------------------------------------------------------------- */

/* True once the exec must unwind: a limit, the deadline, a cancel, or the
 * memory cap. */
int sh_stopped(sh_exec *ex) {
  budget *b = &ex->run->bud;
  if (b->stop)
    return 1;
  if (mem_over_cap(ex->m)) {
    budget_set_stop(b, BUDGET_MEMORY, b->lim.max_memory);
    return 1;
  }
  return budget_poll(b);
}

/* ---- nesting ------------------------------------------------------------ */

int sh_depth_ok(sh_exec *ex) {
  budget *b = &ex->run->bud;
  uint32_t depth =
      (uint32_t)(ex->func_depth + ex->source_depth) + (uint32_t)ex->trap_depth;
  if (depth < b->lim.max_call_depth &&
      fiber_stack_left(ex->run->sc) >= STACK_RESERVE)
    return 1;
  budget_set_stop(b, BUDGET_DEPTH, b->lim.max_call_depth);
  ex->jump = J_ABORT;
  return 0;
}

int sh_jobs_ok(sh_exec *ex, size_t more) {
  budget *b = &ex->run->bud;
  if ((uint64_t)sched_live(ex->run->sc) + more <= b->lim.max_jobs)
    return 1;
  budget_set_stop(b, BUDGET_JOBS, b->lim.max_jobs);
  ex->jump = J_ABORT;
  return 0;
}

/* ---- PATH search ----------------------------------------------------------
 */

char *sh_path_search(sh_exec *ex, const char *name, int want_exec) {
  int xok;
  return sh_path_find(ex, name, want_exec, &xok);
}

char *sh_path_find(sh_exec *ex, const char *name, int want_exec, int *xok) {
  *xok = 0;
  const char *path = sh_getvar(ex, "PATH");
  if (!path)
    path = "/usr/bin:/bin";
  vfs *v = ex->run->v;
  char *first_nonexec = NULL;
  const char *p = path;
  for (;;) {
    const char *e = strchr(p, ':');
    size_t dl = e ? (size_t)(e - p) : strlen(p);
    size_t nl = strlen(name);
    char *full = arena_alloc(ex->ar, dl + nl + 3);
    if (!full)
      return NULL;
    if (dl == 0) {
      memcpy(full, name, nl + 1);
    } else {
      memcpy(full, p, dl);
      full[dl] = '/';
      memcpy(full + dl + 1, name, nl + 1);
    }
    vfs_stat_t st;
    int x;
    if (vfs_stat_x(v, ex->cwd, full, &st, &x) == 0 && st.type != VFS_DIR) {
      if (x) {
        *xok = 1;
        return full;
      }
      if (!first_nonexec)
        first_nonexec = full;
    }
    if (!e)
      break;
    p = e + 1;
  }
  return want_exec ? NULL : first_nonexec;
}

/* ---- numbers and paths ----------------------------------------------------
 */

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
