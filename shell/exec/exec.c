/*
 * exec.c - running the syntax tree: lists, && ||, compound commands, loops,
 * case, functions, (( )), errexit and the ERR trap. Simple commands are in
 * exec_simple.c, pipelines, subshells and jobs in exec_pipe.c.
 *
 * Control flow is a "jump" on the sh_exec (break/continue/return/exit, or
 * abort for limits); every loop checks it after each command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"

/* bash's errexit: a failing command outside a tested context ends the
 * shell. Also fires the ERR trap under the same conditions. */
/* The signals a subshell or child shell sent to the top shell: their
 * traps run now, between two commands, as bash runs a trap once the
 * foreground child it waited for is done; without a trap the default
 * action ends the shell. */
static void take_signals(sh_exec *ex) {
  sh_run *r = ex->run;
  uint64_t p = 0;
  for (int k = 0; k < r->nsig_pend; k++) {
    if (r->sig_pend[k].pid != ex->pid)
      continue;
    p = r->sig_pend[k].mask;
    r->sig_pend[k] = r->sig_pend[--r->nsig_pend];
    break;
  }
  for (int sig = 1; sig <= 64 && !ex->jump; sig++) {
    if (!(p & (1ull << (sig - 1))))
      continue;
    if (ex->traps[sig]) {
      if (ex->traps[sig][0])
        sh_run_trap(ex, sig);
    } else if (sig != 17 && sig != 18 && sig != 23 && sig != 28) {
      ex->jump = J_EXIT;
      ex->exit_status = 128 + sig;
    }
  }
}

void sh_after_command(sh_exec *ex, int status) {
  if (ex->run->nsig_pend &&
      ex->pid == (ex->shell_pid > 1 ? ex->shell_pid : 1) && !ex->jump)
    take_signals(ex);
  if (status == 0 || ex->errexit_ok || ex->jump)
    return;
  /* Functions do not see the ERR trap unless set -E. */
  int bg_simple =
      (ex->pseudo_trap_running & 4) && !ex->func_depth && !ex->source_depth;
  if (ex->traps[TRAP_ERR] && !(ex->pseudo_trap_running & 1) && !bg_simple &&
      (!ex->func_depth || (ex->opts & O_ERRTRACE))) {
    int save = ex->status;
    ex->status = status;
    sh_run_trap(ex, TRAP_ERR);
    ex->status = save;
  }
  if ((ex->opts & O_ERREXIT) && !ex->jump) {
    ex->jump = J_EXIT;
    ex->exit_status = status;
  }
}

/* bash runs the DEBUG trap before each simple command, (( )), [[ ]], case,
 * and each for iteration or arithmetic-for expression, at the top level
 * (inside functions only with set -o functrace). Its status is not kept. */
void sh_debug_trap(sh_exec *ex, int line) {
  if (!ex->traps[TRAP_DEBUG] || (ex->pseudo_trap_running & 2) || ex->jump ||
      (ex->func_depth && !(ex->opts & O_FUNCTRACE)))
    return;
  ex->lineno = line;
  sh_run_trap(ex, TRAP_DEBUG);
}

/* Is name a special builtin while the shell is in POSIX mode? */
static int special_name(sh_exec *ex, const char *name) {
  if (!(ex->opts & O_POSIX))
    return 0;
  const sh_builtin *sb = sh_builtin_lookup(name);
  return sb && (sb->flags & SB_SPECIAL);
}

static int exec_redirected(sh_exec *ex, sh_node *n, sh_node *body,
                           int (*fn)(sh_exec *, sh_node *)) {
  if (!n->redirs)
    return fn(ex, body);
  sh_redir_save *save = NULL;
  size_t nsave = 0;
  size_t pmark = sh_procsub_mark(ex);
  if (sh_redir_apply(ex, n->redirs, &save, &nsave, 0)) {
    sh_redir_restore(ex, save, nsave);
    sh_procsub_finish(ex, pmark);
    ex->status = 1;
    /* bash 5.2: a compound command whose redirection fails is a failed
     * command for set -e and the ERR trap. */
    if (ex->inverted != n)
      sh_after_command(ex, 1);
    return 1;
  }
  int st = fn(ex, body);
  sh_redir_restore(ex, save, nsave);
  sh_procsub_finish(ex, pmark);
  return st;
}

static int cond_run(sh_exec *ex, sh_node *n) {
  ex->errexit_ok++;
  int st = sh_exec_node(ex, n);
  ex->errexit_ok--;
  return st;
}

/* Loop bookkeeping after the body: 1 = leave the loop. */
static int loop_jump(sh_exec *ex) {
  if (ex->jump == J_BREAK) {
    if (--ex->jump_n <= 0)
      ex->jump = J_NONE;
    return 1;
  }
  if (ex->jump == J_CONTINUE) {
    if (--ex->jump_n <= 0) {
      ex->jump = J_NONE;
      return 0;
    }
    return 1;
  }
  return ex->jump != J_NONE;
}

static int loop_tick(sh_exec *ex) {
  if (budget_loop(&ex->run->bud) || sh_stopped(ex)) {
    ex->jump = J_ABORT;
    return 1;
  }
  return 0;
}

static int exec_list(sh_exec *ex, sh_node *n) {
  int st = ex->status;
  for (size_t i = 0; i < n->u.list.nitems; i++) {
    sh_list_item *it = &n->u.list.items[i];
    if (it->async) {
      st = sh_exec_bg(ex, it->node);
    } else {
      st = sh_exec_node(ex, it->node);
    }
    if (ex->jump)
      break;
  }
  return st;
}

static int exec_while(sh_exec *ex, sh_node *n) {
  int st = 0;
  int until = n->kind == N_UNTIL;
  ex->loop_depth++;
  for (;;) {
    if (loop_tick(ex))
      break;
    int c = cond_run(ex, n->u.loop.cond);
    if (ex->jump) {
      if (loop_jump(ex))
        break;
      continue;
    }
    if (until ? c == 0 : c != 0)
      break;
    st = sh_exec_node(ex, n->u.loop.body);
    if (ex->jump && loop_jump(ex))
      break;
  }
  ex->loop_depth--;
  ex->status = st;
  return st;
}

/* The words a for or select loop runs over: those after `in`, expanded,
 * or else the positional parameters. 0, or -1 after an expansion error. */
static int loop_items(sh_exec *ex, sh_node *n, sh_strv *items) {
  if (n->u.for_.has_in)
    return sh_expand_words(ex, n->u.for_.words, n->u.for_.nwords, items);
  for (int i = 0; ex->args && i < ex->args->n; i++)
    sh_strv_push(ex->ar, items, ex->args->v[i]);
  return 0;
}

static int exec_for(sh_exec *ex, sh_node *n) {
  arena_mark mk = arena_save(ex->ar);
  sh_strv items = {0};
  ex->lineno = n->line;
  const char *var = n->u.for_.var;
  if (!sh_valid_name(var, strlen(var))) {
    sh_err(ex, "`%s': not a valid identifier", var);
    return ex->status = 1;
  }
  if (loop_items(ex, n, &items)) {
    arena_release(ex->ar, mk);
    return ex->status = 1;
  }
  int st = 0;
  ex->loop_depth++;
  for (size_t i = 0; i < items.n; i++) {
    if (loop_tick(ex))
      break;
    if (ex->opts & O_XTRACE) {
      buf b;
      buf_init(&b, ex->m);
      sh_xtrace_prefix(ex, &b);
      buf_printf(&b, "for %s in", n->u.for_.var);
      buf_putc(&b, ' ');
      if (sh_needs_quote(items.v[i], strlen(items.v[i])))
        sh_quote(&b, items.v[i], strlen(items.v[i]));
      else
        buf_puts(&b, items.v[i]);
      buf_putc(&b, '\n');
      stream_write(ex->fd[2] ? ex->fd[2] : ex->run->err_s, b.data, b.len);
      buf_free(&b);
    }
    sh_debug_trap(ex, n->line);
    if (sh_setvar(ex, n->u.for_.var, items.v[i], strlen(items.v[i]), 0)) {
      st = 1;
      break;
    }
    st = sh_exec_node(ex, n->u.for_.body);
    if (ex->jump && loop_jump(ex))
      break;
  }
  ex->loop_depth--;
  arena_release(ex->ar, mk);
  ex->status = st;
  return st;
}

static int arith_or_fatal(sh_exec *ex, sh_word *w, int64_t *out, int fatal) {
  if (!w) {
    *out = 1;
    return 0;
  }
  size_t l;
  char *t = sh_expand_str(ex, w, &l);
  if (!t)
    return -1;
  int err = 0;
  *out = sh_arith(ex, t, l, &err);
  if (err) {
    if (fatal && !ex->jump)
      sh_discard(ex);
    return -1;
  }
  return 0;
}

int sh_arith_word(sh_exec *ex, sh_word *w, int64_t *out) {
  return arith_or_fatal(ex, w, out, 0);
}

static int exec_for_arith(sh_exec *ex, sh_node *n) {
  int64_t v;
  arena_mark mk = arena_save(ex->ar);
  sh_debug_trap(ex, n->line);
  if (n->u.for_arith.init && arith_or_fatal(ex, n->u.for_arith.init, &v, 0))
    return ex->status = 1;
  int st = 0;
  ex->loop_depth++;
  for (;;) {
    if (loop_tick(ex))
      break;
    arena_release(ex->ar, mk);
    sh_debug_trap(ex, n->line);
    ex->lineno = n->line; /* $LINENO in the header is the for's line */
    if (n->u.for_arith.cond) {
      if (arith_or_fatal(ex, n->u.for_arith.cond, &v, 0)) {
        st = 1;
        break;
      }
      if (!v)
        break;
    }
    st = sh_exec_node(ex, n->u.for_arith.body);
    if (ex->jump && loop_jump(ex))
      break;
    if (n->u.for_arith.step) {
      sh_debug_trap(ex, n->line);
      ex->lineno = n->line;
    }
    if (n->u.for_arith.step && arith_or_fatal(ex, n->u.for_arith.step, &v, 0)) {
      st = 1;
      break;
    }
  }
  ex->loop_depth--;
  arena_release(ex->ar, mk);
  ex->status = st;
  return st;
}

static int exec_select(sh_exec *ex, sh_node *n) {
  arena_mark mk = arena_save(ex->ar);
  sh_strv items = {0};
  if (loop_items(ex, n, &items))
    return ex->status = 1;
  int st = 0;
  ex->loop_depth++;
  reader rd;
  rd_init(&rd, ex->m, ex->fd[0] ? ex->fd[0] : sh_closed_stream(ex));
  for (;;) {
    if (loop_tick(ex))
      break;
    buf b;
    buf_init(&b, ex->m);
    for (size_t i = 0; i < items.n; i++)
      buf_printf(&b, "%zu) %s\n", i + 1, items.v[i]);
    const char *ps3 = sh_getvar(ex, "PS3");
    buf_puts(&b, ps3 ? ps3 : "#? ");
    if (ex->fd[2])
      stream_write(ex->fd[2], b.data, b.len);
    buf_free(&b);
    const char *line;
    size_t len;
    if (rd_record(&rd, '\n', &line, &len) <= 0) {
      st = 1;
      break;
    }
    if (len && line[len - 1] == '\n')
      len--;
    sh_setvar(ex, "REPLY", line, len, 0);
    char *t = arena_strndup(ex->ar, line, len);
    long k = t ? strtol(t, NULL, 10) : 0;
    if (k >= 1 && (size_t)k <= items.n)
      sh_setvar(ex, n->u.for_.var, items.v[k - 1], strlen(items.v[k - 1]), 0);
    else
      sh_setvar(ex, n->u.for_.var, "", 0, 0);
    if (len == 0)
      continue;
    st = sh_exec_node(ex, n->u.for_.body);
    if (ex->jump && loop_jump(ex))
      break;
  }
  rd_free(&rd);
  ex->loop_depth--;
  arena_release(ex->ar, mk);
  return ex->status = st;
}

static int exec_case(sh_exec *ex, sh_node *n) {
  arena_mark mk = arena_save(ex->ar);
  sh_debug_trap(ex, n->line);
  ex->lineno = n->line;
  size_t wl;
  char *w = sh_expand_str(ex, n->u.case_.word, &wl);
  if (!w) {
    arena_release(ex->ar, mk);
    return ex->status = 1;
  }
  unsigned fl = sh_pat_flags(ex);
  if (ex->shopts & SO_NOCASEMATCH)
    fl |= PAT_NOCASE;
  int st = 0;
  int matched_fall = 0;
  for (size_t i = 0; i < n->u.case_.nitems; i++) {
    sh_case_item *it = &n->u.case_.items[i];
    int match = matched_fall;
    for (size_t k = 0; !match && k < it->npatterns; k++) {
      size_t pl;
      char *p = sh_expand_pattern(ex, it->patterns[k], &pl);
      if (!p) {
        arena_release(ex->ar, mk);
        return ex->status = 1;
      }
      if (pat_match(p, pl, w, wl, pat_charset(p, pl, w, wl, fl)))
        match = 1;
    }
    if (!match)
      continue;
    st = it->body ? sh_exec_node(ex, it->body) : 0;
    if (ex->jump)
      break;
    if (it->term == CT_BREAK)
      break;
    matched_fall = it->term == CT_FALL;
  }
  arena_release(ex->ar, mk);
  return ex->status = st;
}

static int exec_arith_cmd(sh_exec *ex, sh_node *n) {
  ex->lineno = n->line;
  arena_mark mk = arena_save(ex->ar);
  if (ex->opts & O_XTRACE) {
    size_t l;
    char *t = sh_expand_str(ex, n->u.arith.expr, &l);
    buf b;
    buf_init(&b, ex->m);
    sh_xtrace_prefix(ex, &b);
    buf_printf(&b, "(( %s ))\n", t ? t : "");
    stream_write(ex->fd[2] ? ex->fd[2] : ex->run->err_s, b.data, b.len);
    buf_free(&b);
  }
  int64_t v = 0;
  int st;
  if (arith_or_fatal(ex, n->u.arith.expr, &v, 0))
    st = 1;
  else
    st = v ? 0 : 1;
  arena_release(ex->ar, mk);
  ex->status = st;
  if (ex->inverted != n)
    sh_after_command(ex, st);
  return st;
}

static int exec_if(sh_exec *ex, sh_node *n) {
  int c = cond_run(ex, n->u.if_.cond);
  if (ex->jump)
    return c;
  if (c == 0)
    return sh_exec_node(ex, n->u.if_.then_part);
  if (n->u.if_.else_part)
    return sh_exec_node(ex, n->u.if_.else_part);
  return ex->status = 0;
}

/* a && b || c parses left-deep, ((a && b) || c): walk that spine in a
 * loop, not by recursion, so a chain of any length needs no stack. Every
 * command but the last right-hand one runs as a condition (set -e ignores
 * it), as it would inside the nested nodes. */
static int exec_and_or(sh_exec *ex, sh_node *n) {
  size_t k = 0;
  for (sh_node *m = n; m->kind == N_AND || m->kind == N_OR; m = m->u.andor.l)
    k++;
  sh_node *small[16], **spine = small;
  if (k > 16 && !(spine = mem_alloc(ex->m, k * sizeof *spine)))
    return sh_oom(ex);
  size_t i = k;
  for (sh_node *m = n; i > 0; m = m->u.andor.l)
    spine[--i] = m; /* spine[0] is the innermost: its left runs first */
  int st = cond_run(ex, spine[0]->u.andor.l);
  for (i = 0; i < k && !ex->jump; i++) {
    sh_node *m = spine[i];
    if (m->kind == N_AND ? st != 0 : st == 0) {
      ex->status = st;
      continue;
    }
    st =
        i + 1 < k ? cond_run(ex, m->u.andor.r) : sh_exec_node(ex, m->u.andor.r);
  }
  if (spine != small)
    mem_free(ex->m, spine);
  return st;
}

static int exec_group_body(sh_exec *ex, sh_node *body) {
  return sh_exec_node(ex, body);
}

static int exec_cond_node(sh_exec *ex, sh_node *n) {
  ex->lineno = n->line;
  arena_mark mk = arena_save(ex->ar);
  int st = sh_exec_cond(ex, n->u.cond.expr);
  arena_release(ex->ar, mk);
  ex->status = st;
  if (st == 2 && !ex->jump) {
    /* an error inside [[ ]] (bad regex aside) already reported */
  }
  if (ex->inverted != n)
    sh_after_command(ex, st);
  return st;
}

/* One %[p][l]R/U/S value of TIMEFORMAT: seconds with p decimals (at
 * most 3), or with l as MmS.FFs. */
static void time_value(buf *b, int64_t ns, int prec, int lng) {
  int64_t ms = ns / 1000000;
  int64_t sec = ms / 1000, frac = ms % 1000;
  if (lng) {
    buf_printf(b, "%lldm", (long long)(sec / 60));
    sec %= 60;
  }
  buf_printf(b, "%lld", (long long)sec);
  if (prec > 0) {
    static const int div[] = {1, 100, 10, 1};
    buf_printf(b, ".%0*lld", prec, (long long)(frac / div[prec]));
  }
  if (lng)
    buf_putc(b, 's');
}

/* Expand a TIMEFORMAT; 0, or -1 after reporting a bad format (bash then
 * prints nothing). The sandbox counts no CPU time: user and sys are 0. */
static int time_format(sh_exec *ex, buf *b, const char *f, int64_t real) {
  for (const char *p = f; *p; p++) {
    if (*p != '%' || !p[1]) {
      buf_putc(b, *p);
      continue;
    }
    p++;
    if (*p == '%') {
      buf_putc(b, '%');
      continue;
    }
    if (*p == 'P') {
      buf_puts(b, "0.00");
      continue;
    }
    int prec = 3, lng = 0;
    if (*p >= '0' && *p <= '9') {
      prec = *p - '0' > 3 ? 3 : *p - '0';
      p++;
    }
    if (*p == 'l') {
      lng = 1;
      p++;
    }
    if (*p == 'R' || *p == 'U' || *p == 'S') {
      time_value(b, *p == 'R' ? real : 0, prec, lng);
      continue;
    }
    sh_err(ex, "TIMEFORMAT: `%c': invalid format character", *p ? *p : '%');
    return -1;
  }
  buf_putc(b, '\n');
  return 0;
}

static int exec_time(sh_exec *ex, sh_node *n) {
  int64_t t0 = sh_now_ns(ex);
  int st = n->u.time.pipeline ? sh_exec_node(ex, n->u.time.pipeline) : 0;
  int64_t dt = sh_now_ns(ex) - t0;
  if (dt < 0)
    dt = 0;
  if (ex->jump == J_ABORT)
    return ex->status = st;
  const char *fmt = n->u.time.posix ? "real %2R\nuser %2U\nsys %2S"
                                    : sh_getvar(ex, "TIMEFORMAT");
  if (!fmt)
    fmt = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS";
  if (!*fmt)
    return ex->status = st; /* an empty TIMEFORMAT prints nothing */
  buf b;
  buf_init(&b, ex->m);
  if (time_format(ex, &b, fmt, dt) == 0 && ex->fd[2])
    stream_write(ex->fd[2], b.data, b.len);
  buf_free(&b);
  return ex->status = st;
}

int sh_exec_node(sh_exec *ex, sh_node *n) {
  if (!n)
    return ex->status;
  if (ex->jump)
    return ex->status;
  if (sh_stopped(ex)) {
    ex->jump = J_ABORT;
    return ex->status;
  }
  /* set -n: no command runs once it is on, even later in the same line
   * (ignored by interactive shells, so `set +n` stays reachable there) */
  if ((ex->opts & O_NOEXEC) && !(ex->opts & O_INTERACTIVE))
    return ex->status;
  int st;
  switch (n->kind) {
  case N_SIMPLE:
    sh_debug_trap(ex, n->line);
    return sh_exec_simple(ex, n);
  case N_PIPELINE:
    st = sh_exec_pipeline(ex, n);
    break;
  case N_AND:
  case N_OR:
    st = exec_and_or(ex, n);
    break;
  case N_LIST:
    st = exec_list(ex, n);
    break;
  case N_SUBSHELL:
    st = sh_exec_subshell(ex, n);
    break;
  case N_GROUP:
    st = exec_redirected(ex, n, n->u.group.body, exec_group_body);
    break;
  case N_IF:
    st = exec_redirected(ex, n, n, exec_if);
    break;
  case N_WHILE:
  case N_UNTIL:
    st = exec_redirected(ex, n, n, exec_while);
    break;
  case N_FOR:
    st = exec_redirected(ex, n, n, exec_for);
    break;
  case N_FOR_ARITH:
    st = exec_redirected(ex, n, n, exec_for_arith);
    break;
  case N_SELECT:
    st = exec_redirected(ex, n, n, exec_select);
    break;
  case N_CASE:
    st = exec_redirected(ex, n, n, exec_case);
    break;
  case N_FUNCDEF:
    ex->lineno = n->line;
    if (special_name(ex, n->u.func.name)) {
      /* POSIX mode: a special builtin cannot become a function, and the
       * attempt ends a non-interactive shell */
      sh_err(ex, "`%s': is a special builtin", n->u.func.name);
      ex->jump = J_EXIT;
      ex->exit_status = st = 2;
      break;
    }
    if (strpbrk(n->u.func.name, "$`'\"\\")) {
      /* bash takes nearly any word as a function name, but not one with
       * an expansion or quotes in it ($f-x, 'f'); the parser keeps such a
       * name as its source text */
      sh_err(ex, "`%s': not a valid identifier", n->u.func.name);
      st = 1;
      break;
    }
    st = sh_func_define(ex, n->u.func.name, n) ? 1 : 0;
    break;
  case N_ARITH:
    sh_debug_trap(ex, n->line);
    st = exec_redirected(ex, n, n, exec_arith_cmd);
    break;
  case N_COND:
    sh_debug_trap(ex, n->line);
    st = exec_redirected(ex, n, n, exec_cond_node);
    break;
  case N_TIME:
    st = exec_time(ex, n);
    break;
  default:
    st = 0;
  }
  ex->status = st;
  return st;
}
