/*
 * exec_run.c - running script text: the top-level read-parse-execute loop
 * (one complete command at a time, as bash does), eval, source, child
 * shells (`bash -c`, `bash FILE`, executable scripts), traps, messages, and
 * the creation of a fresh top-level shell with bash's variables.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/sh.h"
#include "shell/syntax/parse.h"

/* ---- the read-parse-execute loop
 * ---------------------------------------------- */

static const char *alias_hook(void *ud, const char *name) {
  sh_exec *ex = ud;
  if (!(ex->shopts & SO_EXPAND_ALIASES))
    return NULL;
  return sh_alias_get(ex, name);
}

static int extglob_hook(void *ud) {
  sh_exec *ex = ud;
  return (ex->shopts & SO_EXTGLOB) != 0;
}

/* Keep an arena alive until the run ends (trees still used by jobs or by
 * functions that could not be re-parsed), in the node taken from it. */
static void keep_arena(sh_run *r, arena *a, sh_kept *node) {
  node->a = *a;
  a->cur = NULL;
  a->total = 0;
  a->spare = NULL;
  node->next = r->kept;
  r->kept = node;
}

void sh_run_release_kept(sh_run *r) {
  while (r->kept) {
    sh_kept *n = r->kept;
    r->kept = n->next;
    arena a = n->a; /* n goes with the arena's chunks */
    arena_destroy(&a);
  }
}

/* mode: 0 top level (syntax error exits), 1 eval/source (status 2). */
static int run_text(sh_exec *ex, const char *src, size_t len, int first_line,
                    int mode) {
  arena pa;
  arena_init(&pa, ex->m);
  sh_parse_opts po = {0};
  po.alias = alias_hook;
  po.alias_ud = ex;
  po.extglob = extglob_hook;
  po.first_line = first_line > 0 ? first_line : 1;
  sh_parser *p = sh_parser_new(&pa, src, len, &po);
  /* Room to keep the arena, taken now: when the tree must outlive this
   * call, giving it up for lack of memory is no longer safe. */
  sh_kept *keep = p ? arena_alloc(&pa, sizeof *keep) : NULL;
  if (!keep) {
    arena_destroy(&pa);
    return sh_oom(ex);
  }
  int st = ex->status;
  int kept_before = ex->run->keep_ast;
  ex->run->keep_ast = 0;
  int ran_any = 0;
  for (;;) {
    if (sh_stopped(ex)) {
      ex->jump = J_ABORT;
      break;
    }
    sh_node *n = NULL;
    int r = sh_parse_next(p, &n);
    if (r == 0)
      break;
    if (r < 0) {
      if (sh_stopped(ex)) {
        ex->jump = J_ABORT;
        break;
      }
      ex->lineno = sh_parse_error_line(p);
      const char *msg = sh_parse_error(p);
      if (mode == 0 && !ex->script_name)
        sh_err_noline(ex, "-c: line %d: %s", sh_parse_error_line(p),
                      msg ? msg : "syntax error");
      else
        sh_err(ex, "%s", msg ? msg : "syntax error");
      st = 2;
      ex->status = 2;
      if (mode == 0) {
        ex->jump = J_EXIT;
        ex->exit_status = 2;
      }
      break;
    }
    ran_any = 1;
    st = sh_exec_node(ex, n);
    if (ex->jump == J_EXIT && ex->discard) {
      /* bash drops the rest of this command; the script goes on, while
       * eval and source return 1 */
      ex->discard = 0;
      if (ex->opts & O_ERREXIT)
        break; /* set -e turns it into the exit it already is */
      ex->jump = J_NONE;
      st = ex->status = 1;
      if (mode == 0)
        continue;
      break;
    }
    if (ex->jump)
      break;
  }
  (void)ran_any;
  if (ex->run->keep_ast || ex->run->njobs_running)
    keep_arena(ex->run, &pa, keep);
  else
    arena_destroy(&pa);
  ex->run->keep_ast = kept_before;
  return st;
}

int sh_run_script(sh_exec *ex, const char *src, size_t len, int first_line) {
  return run_text(ex, src, len, first_line, 0);
}

int sh_eval_string(sh_exec *ex, const char *src, size_t len, const char *what) {
  (void)what;
  return run_text(ex, src, len, ex->lineno, 1);
}

/* ---- traps
 * ------------------------------------------------------------------- */

int sh_run_trap(sh_exec *ex, int which) {
  const char *t = ex->traps[which];
  if (!t || !*t)
    return 0;
  /* A signal raised again while its own handler runs is run after it, as
   * bash does, so a handler that re-raises loops (polling the budget)
   * instead of recursing. */
  uint64_t bit = which >= 1 && which <= 64 ? 1ull << (which - 1) : 0;
  if (bit & ex->trap_running) {
    ex->trap_pending |= bit;
    return 0;
  }
  if (!sh_depth_ok(ex))
    return 126;
  int save_status = ex->status;
  int save_line = ex->lineno;
  ex->trap_running |= bit;
  ex->in_trap++;
  ex->trap_depth++;
  do {
    ex->trap_pending &= ~bit;
    /* The trap text may be replaced while it runs: run a copy. */
    t = ex->traps[which];
    char *copy = t && *t ? mem_strdup(ex->m, t) : NULL;
    if (!copy) {
      if (t && *t)
        sh_oom(ex);
      break;
    }
    run_text(ex, copy, strlen(copy), ex->lineno, 1);
    mem_free(ex->m, copy);
  } while ((ex->trap_pending & bit) && !ex->jump && !sh_stopped(ex));
  ex->trap_depth--;
  ex->in_trap--;
  ex->trap_running &= ~bit;
  ex->trap_pending &= ~bit;
  ex->lineno = save_line;
  if (ex->jump != J_EXIT && ex->jump != J_ABORT)
    ex->status = save_status;
  return 0;
}

void sh_run_exit_trap(sh_exec *ex) {
  if (ex->exiting || !ex->traps[TRAP_EXIT] || ex->run->bud.stop)
    return;
  ex->exiting = 1;
  char *t = ex->traps[TRAP_EXIT];
  ex->traps[TRAP_EXIT] = NULL;
  int st = ex->status;
  ex->in_trap++;
  run_text(ex, t, strlen(t), ex->lineno, 1);
  ex->in_trap--;
  mem_free(ex->m, t);
  if (ex->jump != J_EXIT)
    ex->status = st;
}

/* ---- source and child shells
 * --------------------------------------------------- */

int sh_source_file(sh_exec *ex, const char *path, int argc, char **argv) {
  char *data;
  size_t len;
  int e = vfs_read_file(ex->run->v, ex->cwd, path, &data, &len);
  if (e) {
    sh_err(ex, "%s: %s", path, bi_strerror(-e));
    return 1;
  }
  if (!sh_depth_ok(ex)) {
    vfs_release(ex->run->v, data);
    return 126;
  }
  /* The text must outlive any function it defines: functions re-parse
   * their own copy, so a temporary copy is enough. */
  char *text = mem_memdup(ex->m, data, len);
  vfs_release(ex->run->v, data);
  if (!text)
    return sh_oom(ex);
  sh_args *saved = NULL;
  if (argc > 0) {
    saved = ex->args;
    ex->args = sh_args_new(ex->m, argc, argv);
  }
  sh_frame fr = {"source", path, ex->lineno, ex->frame};
  ex->frame = &fr;
  ex->source_depth++;
  int save_line = ex->lineno;
  int st = run_text(ex, text, len, 1, 1);
  ex->lineno = save_line;
  ex->source_depth--;
  ex->frame = fr.up;
  if (ex->jump == J_RETURN && ex->func_depth == 0) {
    st = ex->exit_status;
    ex->jump = J_NONE;
  } else if (ex->jump == J_RETURN) {
    /* return inside a sourced file ends the source, even in a function */
    st = ex->exit_status;
    ex->jump = J_NONE;
  }
  if (argc > 0) {
    sh_args_unref(ex->m, ex->args);
    ex->args = saved;
  }
  mem_free(ex->m, text);
  ex->status = st;
  return st;
}

/* A new shell process inheriting only exported variables, like bash run as
 * a command. */
/* A nested shell counts as one more level of call depth, so a script that
 * runs itself (directly, or through env, timeout, xargs, find -exec) ends
 * at the limit instead of exhausting the stack. NULL: out of memory, or
 * the limit (then ex->jump is J_ABORT). */
static sh_exec *child_shell(sh_exec *ex) {
  if (!sh_depth_ok(ex))
    return NULL;
  char **env = sh_environ(ex, ex->ar);
  sh_exec *c = sh_new_root(ex->run, ex->cwd, (const char *const *)env, NULL, 1);
  if (!c)
    return NULL;
  for (int i = 0; i < SH_NFD; i++) {
    stream_unref(c->fd[i]);
    c->fd[i] = stream_ref(ex->fd[i]);
  }
  c->func_depth = ex->func_depth;
  c->source_depth = ex->source_depth + 1;
  c->trap_depth = ex->trap_depth;
  c->in_subshell = ex->in_subshell;
  c->is_stage = 1;
  c->pid = ++ex->run->next_pid;
  /* SHLVL goes up by one */
  const char *lvl = sh_getvar(c, "SHLVL");
  char t[16];
  snprintf(t, sizeof t, "%d", (lvl ? atoi(lvl) : 0) + 1);
  sh_setvar(c, "SHLVL", t, strlen(t), SV_EXPORT);
  return c;
}

static int finish_child_shell(sh_exec *ex, sh_exec *c, int st) {
  if (c->jump == J_EXIT)
    st = c->exit_status;
  if (c->jump != J_ABORT) {
    c->status = st;
    c->jump = J_NONE;
    sh_run_exit_trap(c);
    if (c->jump == J_EXIT)
      st = c->exit_status;
  }
  if (c->jump == J_ABORT || ex->run->bud.stop)
    ex->jump = J_ABORT;
  sh_free(c);
  return st;
}

static void set_args(sh_exec *c, int argc, char **argv) {
  sh_args_unref(c->m, c->args);
  c->args = sh_args_new(c->m, argc, argv);
}

/* A child shell about to run the script file path: $0, the name in its
 * messages and the bottom of the call stack are the file's, and the
 * arguments become $1, $2, ... */
static void script_names(sh_exec *c, const char *path, int argc, char **argv) {
  mem_free(c->m, c->arg0);
  c->arg0 = mem_strdup(c->m, path);
  c->script_name = mem_strdup(c->m, path);
  c->errname = c->script_name;
  c->base_frame.func = "main";
  c->base_frame.source = c->script_name;
  set_args(c, argc, argv);
}

int sh_run_script_file(sh_exec *ex, const char *path, const char *data,
                       size_t len, int argc, char **argv) {
  sh_exec *c = child_shell(ex);
  if (!c)
    return ex->jump == J_ABORT ? 126 : sh_oom(ex);
  script_names(c, path, argc - 1, argv + 1);
  /* A shebang naming something other than a shell still runs as bash. */
  char *text = mem_memdup(c->m, data, len);
  if (!text) {
    sh_free(c);
    return sh_oom(ex);
  }
  int st = sh_run_script(c, text, len, 1);
  mem_free(c->m, text);
  return finish_child_shell(ex, c, st);
}

/* bash [-eux...] [-o opt] (-c SCRIPT [NAME [ARGS]] | FILE [ARGS] | -s) */
int sh_run_child_shell(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  const char *script = NULL;
  int from_stdin = 0;
  unsigned set_on = 0, set_off = 0;
  sh_exec *c = child_shell(ex);
  if (!c)
    return ex->jump == J_ABORT ? 126 : sh_oom(ex);
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    }
    if ((a[0] != '-' && a[0] != '+') || !a[1])
      break;
    if ((strcmp(a, "--rcfile") == 0 || strcmp(a, "--init-file") == 0) &&
        i + 1 < argc) {
      i++;
      continue;
    }
    if (strcmp(a, "--norc") == 0 || strcmp(a, "--noprofile") == 0 ||
        strcmp(a, "--posix") == 0 || strcmp(a, "--login") == 0)
      continue;
    if (strcmp(a, "--version") == 0) {
      sh_outs(ex, "bash (GNU bash compatible; vsh) 5.2.15(1)-release\n");
      sh_free(c);
      return 0;
    }
    int on = a[0] == '-';
    for (const char *p = a + 1; *p; p++) {
      if (*p == 'c') {
        script = "";
      } else if (*p == 's') {
        from_stdin = 1;
      } else if (*p == 'o' || *p == 'O') {
        if (i + 1 < argc) {
          if (*p == 'o') {
            sh_set_option_name(c, argv[++i], on);
          } else {
            char *sa[] = {"shopt", on ? "-s" : "-u", argv[++i], NULL};
            sh_dispatch(c, 3, sa, 1);
          }
        }
      } else if (*p == 'i' || *p == 'l' || *p == 'r') {
        /* interactive/login/restricted: ignored */
      } else {
        sh_option_letter(c, *p, on);
      }
    }
  }
  (void)set_on;
  (void)set_off;
  int st;
  if (script) {
    if (i >= argc) {
      sh_err_noline(ex, "-c: option requires an argument");
      sh_free(c);
      return 2;
    }
    const char *text = argv[i++];
    if (i < argc) {
      mem_free(c->m, c->arg0);
      c->arg0 = mem_strdup(c->m, argv[i++]);
    }
    set_args(c, argc - i, argv + i);
    size_t tl = strlen(text);
    char *copy = mem_memdup(c->m, text, tl);
    st = copy ? sh_run_script(c, copy, tl, 1) : 1;
    mem_free(c->m, copy);
    return finish_child_shell(ex, c, st);
  }
  if (i < argc && !from_stdin) {
    const char *path = argv[i];
    char *data;
    size_t len;
    int e = vfs_read_file(ex->run->v, ex->cwd, path, &data, &len);
    if (e) {
      sh_err_noline(ex, "%s: %s", path, bi_strerror(-e));
      sh_free(c);
      return 127;
    }
    script_names(c, path, argc - i - 1, argv + i + 1);
    char *text = mem_memdup(c->m, data, len);
    vfs_release(ex->run->v, data);
    st = text ? sh_run_script(c, text, len, 1) : 1;
    mem_free(c->m, text);
    return finish_child_shell(ex, c, st);
  }
  /* Script from standard input. */
  set_args(c, argc - i, argv + i);
  buf in;
  buf_init(&in, ex->m);
  stream *s = ex->fd[0];
  char tmp[4096];
  for (;;) {
    long k = s ? stream_read(s, tmp, sizeof tmp) : 0;
    if (k <= 0)
      break;
    buf_append(&in, tmp, (size_t)k);
  }
  st = sh_run_script(c, in.data ? in.data : "", in.len, 1);
  buf_free(&in);
  return finish_child_shell(ex, c, st);
}

/* ---- a fresh top-level shell
 * ------------------------------------------------------ */

static int import_env(sh_exec *ex, const char *const *env) {
  for (size_t i = 0; env && env[i]; i++) {
    const char *kv = env[i];
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
      continue;
    size_t nl = (size_t)(eq - kv);
    char name[256];
    if (nl >= sizeof name || !sh_valid_name(kv, nl))
      continue;
    memcpy(name, kv, nl);
    name[nl] = 0;
    if (sh_setvar(ex, name, eq + 1, strlen(eq + 1), SV_EXPORT))
      return -1;
  }
  return 0;
}

static void set_default(sh_exec *ex, const char *name, const char *val,
                        unsigned flags) {
  if (sh_var_find_raw(ex, name, NULL))
    return;
  sh_setvar(ex, name, val, strlen(val), flags);
}

static void set_ro(sh_exec *ex, const char *name, const char *val,
                   unsigned extra) {
  sh_setvar(ex, name, val, strlen(val), 0);
  sh_var *v = sh_var_find_raw(ex, name, NULL);
  if (v)
    v->flags |= V_READONLY | extra;
}

/* The part of a fresh shell that has nothing to do with variables. */
static sh_exec *root_alloc(sh_run *r, const char *cwd) {
  mem *m = r->m;
  sh_exec *ex = mem_calloc(m, 1, sizeof *ex);
  if (!ex)
    return NULL;
  r->ops = &sh_exec_ops;
  ex->run = r;
  ex->m = m;
  arena_init(&ex->own_ar, m);
  ex->own_arena = 1;
  ex->ar = &ex->own_ar;
  sh_scope *g = mem_calloc(m, 1, sizeof *g);
  if (!g) {
    mem_free(m, ex);
    return NULL;
  }
  g->kind = SC_GLOBAL;
  g->owned = 1;
  ex->scope = ex->global = g;
  ex->opts = O_HASHALL | O_BRACEEXPAND;
  ex->shopts = SO_EXTQUOTE | SO_FORCE_FIGNORE | SO_GLOBASCIIRANGES |
               SO_HOSTCOMPLETE | SO_INTERACTIVE_COMMENTS |
               SO_PATSUB_REPLACEMENT | SO_PROGCOMP | SO_PROMPTVARS |
               SO_SOURCEPATH | SO_CHECKWINSIZE | SO_CMDHIST |
               SO_COMPLETE_FULLQUOTE;
  ex->arg0 = mem_strdup(m, "bash");
  ex->cwd = mem_strdup(m, cwd ? cwd : "/home/user");
  ex->args = sh_args_new(m, 0, NULL);
  ex->frame = &ex->base_frame;
  ex->pid = 1;
  ex->errname = "bash";
  if (!ex->arg0 || !ex->cwd || !ex->args)
    goto fail;
  ex->fd[0] = stream_ref(r->in_s);
  ex->fd[1] = stream_ref(r->out_s);
  ex->fd[2] = stream_ref(r->err_s);
  return ex;
fail:
  sh_free(ex);
  return NULL;
}

sh_exec *sh_new_root(sh_run *r, const char *cwd, const char *const *base,
                     const char *const *extra, int replace) {
  mem *m = r->m;
  sh_exec *ex = root_alloc(r, cwd);
  if (!ex)
    return NULL;
  if (import_env(ex, base))
    goto fail;
  if (import_env(ex, extra))
    goto fail;
  if (!replace) {
    set_default(ex, "HOME", "/home/user", SV_EXPORT);
    set_default(ex, "PATH", "/usr/bin:/bin", SV_EXPORT);
    set_default(ex, "OSTYPE", "linux-gnu", SV_EXPORT);
    set_default(ex, "HOSTNAME", "localhost", SV_EXPORT);
    set_default(ex, "USER", "user", SV_EXPORT);
    set_default(ex, "SHELL", "/bin/bash", SV_EXPORT);
    set_default(ex, "OLDPWD", ex->cwd, SV_EXPORT);
    set_default(ex, "SHLVL", "1", SV_EXPORT);
  } else {
    set_default(ex, "PATH", "/usr/bin:/bin", 0);
    /* bash sets these shell variables whatever its environment says */
    set_default(ex, "HOSTNAME", "localhost", 0);
  }
  sh_setvar(ex, "PWD", ex->cwd, strlen(ex->cwd), SV_EXPORT);
  set_default(ex, "IFS", " \t\n", 0);
  set_default(ex, "OPTIND", "1", 0);
  set_default(ex, "PS4", "+ ", 0);
  set_default(ex, "OPTERR", "1", 0);
  set_default(ex, "HOSTTYPE", "x86_64", 0);
  set_default(ex, "MACHTYPE", "x86_64-pc-linux-gnu", 0);
  set_default(ex, "BASH", "/bin/bash", 0);
  /* bash sets these itself, whatever the environment says */
  sh_setvar(ex, "PPID", "0", 1, 0);
  set_default(ex, "OSTYPE", "linux-gnu", 0);
  set_ro(ex, "BASH_VERSION", "5.2.15(1)-release", 0);
  set_ro(ex, "UID", "1000", V_INTEGER);
  set_ro(ex, "EUID", "1000", V_INTEGER);
  {
    sh_var *v = sh_var_lookup_for_write(ex, "BASH_VERSINFO", 0);
    if (v && !sh_var_make_array(ex, v)) {
      static const char *const vi[] = {"5", "2",       "15",
                                       "1", "release", "x86_64-pc-linux-gnu"};
      if (!v->arr)
        v->arr = sh_arr_new(m);
      if (!v->arr)
        goto fail;
      for (int i = 0; i < 6; i++)
        if (sh_arr_iset(m, v->arr, i, vi[i], strlen(vi[i])))
          goto fail;
      v->flags |= V_SET | V_ARRAY | V_READONLY;
    }
  }
  return ex;
fail:
  sh_free(ex);
  return NULL;
}

/* ---- the per-sandbox base variables
 * ----------------------------------------------------------
 *
 * Every vsh_exec starts from the same ~35 variables (the sandbox env plus
 * bash's fixed ones). Building them costs about 40,000 instructions and
 * ~100 allocations, more than running `echo hi` itself, so they are built
 * once per sandbox into a frozen scope and each exec's global scope is an
 * empty overlay over it, exactly as a subshell's scope overlays its parent.
 *
 * Writes never reach the base (sh_var_lookup_for_write clones into the
 * overlay, unset leaves a tombstone), but a few builtins edit a variable
 * they found by reading (declare -n on an existing name). A snapshot of
 * every base variable lets the sandbox notice that after the exec and
 * rebuild the base, so one exec can never leak into the next. */

typedef struct base_snap {
  const sh_var *v;
  const char *val;
  const sh_arr *arr;
  size_t len, arr_n;
  unsigned flags;
} base_snap;

struct sh_base {
  sh_scope sc; /* kind SC_GLOBAL, not owned by any exec */
  char *cwd;   /* PWD and OLDPWD depend on it */
  base_snap *snap;
  size_t nsnap;
  void **slots; /* the map's slot array and count when built */
  uint32_t n;
};

void sh_base_free(mem *m, sh_base *b) {
  if (!b)
    return;
  uint32_t i = 0;
  sh_var *v;
  while ((v = sh_map_next(&b->sc.map, &i)))
    sh_var_free(m, v);
  sh_map_free(m, &b->sc.map);
  mem_free(m, b->snap);
  mem_free(m, b->cwd);
  mem_free(m, b);
}

sh_base *sh_base_new(mem *m, const vsh_limits *lim, const char *cwd,
                     const char *const *env) {
  /* RANDOM, SECONDS and LINENO in the environment set per-exec state
   * rather than variables: such sandboxes keep building per exec. */
  static const char *const dyn[] = {"RANDOM=", "SECONDS=", "LINENO="};
  for (size_t i = 0; env && env[i]; i++)
    for (size_t k = 0; k < sizeof dyn / sizeof *dyn; k++)
      if (strncmp(env[i], dyn[k], strlen(dyn[k])) == 0)
        return NULL;
  sh_run r;
  memset(&r, 0, sizeof r);
  r.m = m;
  r.bud.lim = *lim;
  r.bud.m = m;
  sh_exec *ex = sh_new_root(&r, cwd, env, NULL, 0);
  sh_base *b = mem_calloc(m, 1, sizeof *b);
  if (!ex || !b || r.bud.stop)
    goto fail;
  b->cwd = mem_strdup(m, ex->cwd);
  b->sc = *ex->global;
  memset(&ex->global->map, 0, sizeof ex->global->map);
  b->sc.owned = 0;
  b->sc.up = NULL;
  b->snap = mem_calloc(m, b->sc.map.n ? b->sc.map.n : 1, sizeof *b->snap);
  if (!b->cwd || !b->snap)
    goto fail;
  uint32_t i = 0;
  sh_var *v;
  while ((v = sh_map_next(&b->sc.map, &i))) {
    base_snap *s = &b->snap[b->nsnap++];
    s->v = v;
    s->val = v->val;
    s->arr = v->arr;
    s->len = v->len;
    s->arr_n = v->arr ? v->arr->n : 0;
    s->flags = v->flags;
  }
  b->slots = b->sc.map.slots;
  b->n = b->sc.map.n;
  sh_free(ex);
  return b;
fail:
  sh_free(ex);
  sh_base_free(m, b);
  return NULL;
}

int sh_base_fits(const sh_base *b, const char *cwd) {
  return b && strcmp(b->cwd, cwd) == 0;
}

int sh_base_intact(const sh_base *b) {
  if (b->sc.map.slots != b->slots || b->sc.map.n != b->n)
    return 0;
  for (size_t i = 0; i < b->nsnap; i++) {
    const base_snap *s = &b->snap[i];
    const sh_var *v = s->v;
    if (v->val != s->val || v->arr != s->arr || v->len != s->len ||
        v->flags != s->flags || (v->arr ? v->arr->n : 0) != s->arr_n)
      return 0;
  }
  return 1;
}

sh_exec *sh_new_root_over(sh_run *r, sh_base *b) {
  sh_exec *ex = root_alloc(r, b->cwd);
  if (!ex)
    return NULL;
  /* An overlay: writes clone into it, unset leaves tombstones, and
   * sh_free detaches it from the base before freeing. */
  ex->global->kind = SC_OVERLAY;
  ex->global->up = &b->sc;
  return ex;
}

void sh_rebind(sh_exec *ex, sh_run *r) {
  r->ops = &sh_exec_ops;
  ex->run = r;
  for (int i = 0; i < 3; i++) {
    stream_unref(ex->fd[i]);
    ex->fd[i] = NULL;
  }
  ex->fd[0] = stream_ref(r->in_s);
  ex->fd[1] = stream_ref(r->out_s);
  ex->fd[2] = stream_ref(r->err_s);
  ex->jump = J_NONE;
}

const sh_ops sh_exec_ops = {
    sh_cmdsub,          sh_procsub_later, sh_procsub_cleanup_later,
    sh_eval_string,     sh_source_file,   sh_run_trap,
    sh_run_child_shell, sh_dispatch,      sh_call_function,
    sh_assign_one,      sh_wait_job,      sh_fill_bi_ctx};
