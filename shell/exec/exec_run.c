/*
 * exec_run.c - running script text: the top-level read-parse-execute loop
 * (one complete command at a time, as bash does), eval, source, child
 * shells (`bash -c`, `bash FILE`, executable scripts), traps, messages, and
 * the creation of a fresh top-level shell with bash's variables.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/state/hist.h"
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

/* Where the text of the next command starts, for the history list. */
typedef struct hist_pos {
  size_t off;
  int line;
} hist_pos;

/* A shell with `set -o history` records each command line it reads at its
 * top level: the lines from the end of the last command to the line the
 * parser stopped after. */
static void hist_line(sh_exec *ex, sh_parser *p, const char *src, size_t len,
                      hist_pos *at) {
  int upto = sh_parse_line(p);
  size_t start = at->off, i = at->off;
  while (at->line < upto && i < len) {
    const char *nl = memchr(src + i, '\n', len - i);
    i = nl ? (size_t)(nl - src) + 1 : len;
    at->line++;
  }
  if (i == start && i < len)
    i = len; /* the last line, without a newline */
  at->off = i;
  /* a shell reading a file or standard input numbers its commands */
  if (ex->opts & (O_SRC_FILE | O_SRC_STDIN)) {
    sh_hist *h = sh_hist_get(ex);
    if (h)
      h->ncmd++;
  }
  if (ex->opts & O_HISTORY)
    sh_hist_record(ex, src + start, i - start);
}

/* A syntax error in a sourced file, as bash words it: the file's name,
 * not the shell's, leads, and an unexpected token is followed by the line
 * it is on. */
static void source_syntax_error(sh_exec *ex, const char *file, const char *src,
                                size_t len, int first_line, int line,
                                const char *msg) {
  stream *e = ex->fd[2];
  if (!e)
    return;
  if (!msg)
    msg = "syntax error";
  buf b;
  buf_init(&b, ex->m);
  buf_printf(&b, "%s: line %d: %s\n", file, line, msg);
  if (strncmp(msg, "syntax error near", 17) == 0) {
    size_t i = 0;
    for (int l = first_line > 0 ? first_line : 1; l < line && i < len; l++) {
      const char *nl = memchr(src + i, '\n', len - i);
      i = nl ? (size_t)(nl - src) + 1 : len;
    }
    const char *nl = i < len ? memchr(src + i, '\n', len - i) : NULL;
    size_t end = nl ? (size_t)(nl - src) : len;
    buf_printf(&b, "%s: line %d: `%.*s'\n", file, line, (int)(end - i),
               src + i);
  }
  if (!b.oom)
    stream_write(e, b.data, b.len);
  buf_free(&b);
}

/* mode: 0 top level (syntax error exits), 1 eval/source (status 2), 3 a
 * sourced file (as 1, with the file's name in a syntax error). */
static int run_text(sh_exec *ex, const char *src, size_t len, int first_line,
                    int mode) {
  arena pa;
  arena_init(&pa, ex->m);
  sh_parse_opts po = {0};
  po.alias = alias_hook;
  po.alias_ud = ex;
  po.extglob = extglob_hook;
  po.first_line = first_line > 0 ? first_line : 1;
  if (len && memchr(src, 0, len)) {
    /* bash's reader drops NUL bytes from a script. */
    char *t = arena_alloc(&pa, len);
    size_t k = 0;
    for (size_t i = 0; t && i < len; i++)
      if (src[i])
        t[k++] = src[i];
    src = t;
    len = k;
  }
  sh_parser *p = src ? sh_parser_new(&pa, src, len, &po) : NULL;
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
  hist_pos rec = {0, po.first_line};
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
      if (mode == 0 && !ex->script_name &&
          !(ex->opts & (O_SRC_STDIN | O_INTERACTIVE)))
        sh_err_noline(ex, "-c: line %d: %s", sh_parse_error_line(p),
                      msg ? msg : "syntax error");
      else if (mode == 3 && ex->frame && ex->frame->source)
        source_syntax_error(ex, ex->frame->source, src, len, first_line,
                            sh_parse_error_line(p), msg);
      else
        sh_err(ex, "%s", msg ? msg : "syntax error");
      if (sh_parse_error_assign(p)) {
        st = ex->status = 1;
        continue;
      }
      st = 2;
      /* A script ended by an error inside [[ ]] exits with the status it
       * had: bash's conditional parser reports without setting $?. */
      if (mode == 0 && sh_parse_error_cond(p))
        st = ex->status;
      int cmdsub = sh_parse_error_cmdsub(p);
      if (cmdsub) /* a subshell ends with 1 */
        st = ex->in_subshell ? 1 : 127;
      ex->status = st;
      /* an interactive shell reports and reads the next command */
      if ((mode == 0 && !(ex->opts & O_INTERACTIVE)) || cmdsub) {
        ex->jump = J_EXIT;
        ex->exit_status = st;
      }
      break;
    }
    ran_any = 1;
    if (mode == 0)
      hist_line(ex, p, src, len, &rec);
    /* set -n: read and check commands without running them (ignored by
     * interactive shells, so `set +n` stays reachable there). */
    if ((ex->opts & O_NOEXEC) && !(ex->opts & O_INTERACTIVE))
      continue;
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
  /* A command string (bash -c) is also $BASH_EXECUTION_STRING. */
  if (!ex->script_name && !(ex->opts & O_SRC_STDIN) && !memchr(src, 0, len) &&
      sh_setvar(ex, "BASH_EXECUTION_STRING", src, len, SV_GLOBAL) &&
      ex->jump == J_ABORT)
    return 1;
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
  unsigned pseudo = which == TRAP_ERR ? 1 : which == TRAP_DEBUG ? 2 : 0;
  unsigned save_pseudo = ex->pseudo_trap_running;
  ex->pseudo_trap_running |= pseudo;
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
    /* a signal's handler counts its lines from 1; ERR, DEBUG and RETURN
     * handlers see the line of the command that set them off */
    run_text(ex, copy, strlen(copy), bit ? 1 : ex->lineno, 1);
    mem_free(ex->m, copy);
  } while ((ex->trap_pending & bit) && !ex->jump && !sh_stopped(ex));
  ex->pseudo_trap_running = save_pseudo;
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
  run_text(ex, t, strlen(t), 1, 1); /* its lines count from 1 */
  ex->in_trap--;
  mem_free(ex->m, t);
  if (ex->jump != J_EXIT)
    ex->status = st;
}

/* ---- source and child shells
 * --------------------------------------------------- */

int sh_source_file(sh_exec *ex, const char *path, int argc, char **argv) {
  /* The text must outlive any function it defines: functions re-parse
   * their own copy, so a temporary copy is enough. */
  char *text;
  size_t len;
  int e = sh_read_text(ex, path, &text, &len);
  if (e == -ENOMEM)
    return sh_oom(ex);
  if (e) {
    if (!ex->run->bud.stop)
      sh_err(ex, "%s: %s", path, bi_strerror(-e));
    return 1;
  }
  if (!sh_depth_ok(ex)) {
    mem_free(ex->m, text);
    return 126;
  }
  sh_args *saved = NULL;
  if (argc > 0) {
    saved = ex->args;
    ex->args = sh_args_new(ex->m, argc, argv);
  }
  sh_frame fr = {"source", path, ex->lineno, ex->frame};
  ex->frame = &fr;
  ex->source_depth++;
  int save_line = ex->lineno;
  int st = run_text(ex, text, len, 1, 3);
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
/* The directory a new shell starts in, as bash finds it: the PWD of its
 * environment when that names the current directory, else the physical
 * path (no PWD, or one that names another place). */
static const char *child_cwd(sh_exec *ex, char **env) {
  const char *pwd = NULL;
  for (size_t i = 0; env && env[i]; i++)
    if (strncmp(env[i], "PWD=", 4) == 0)
      pwd = env[i] + 4;
  vfs *v = ex->run->v;
  char *here = NULL, *there = NULL;
  if (vfs_canon_dir(v, "/", ex->cwd, &here))
    return ex->cwd;
  const char *res = ex->cwd;
  if (!pwd || pwd[0] != '/' || vfs_canon_dir(v, "/", pwd, &there) ||
      strcmp(here, there) != 0) {
    char *c = arena_strdup(ex->ar, here);
    if (c)
      res = c;
    else
      sh_oom(ex);
  } else if (strcmp(pwd, ex->cwd) != 0) {
    char *c = arena_strdup(ex->ar, pwd);
    if (c)
      res = c;
    else
      sh_oom(ex);
  }
  vfs_release(v, here);
  if (there)
    vfs_release(v, there);
  return res;
}

/* What a new shell process (bash, sh, env running one) takes from the
 * shell that starts it: its open descriptors and resource limits, the call
 * depths counted against the limit, and a process id of its own. */
static void inherit_process(sh_exec *ex, sh_exec *c) {
  int nfd = c->nfd > ex->nfd ? c->nfd : ex->nfd;
  for (int i = 0; i < nfd; i++) {
    stream_unref(c->fd[i]);
    c->fd[i] = stream_ref(ex->fd[i]);
  }
  c->nfd = nfd;
  /* resource limits pass on to a child process */
  memcpy(c->ulim, ex->ulim, sizeof c->ulim);
  c->ulim_set = ex->ulim_set;
  c->func_depth = ex->func_depth;
  c->source_depth = ex->source_depth + 1;
  c->func_base = c->func_depth;
  c->source_base = c->source_depth;
  c->trap_depth = ex->trap_depth;
  c->in_subshell = ex->in_subshell;
  c->is_stage = 1;
  c->pid = ++ex->run->next_pid;
  c->shell_pid = c->pid; /* a new shell process: its own $$ */
}

static sh_exec *child_shell(sh_exec *ex) {
  if (!sh_depth_ok(ex))
    return NULL;
  char **env = sh_environ(ex, ex->ar);
  sh_exec *c = sh_new_root(ex->run, child_cwd(ex, env),
                           (const char *const *)env, NULL, 1);
  if (!c)
    return NULL;
  inherit_process(ex, c);
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

void sh_set_interactive(sh_exec *ex) {
  ex->opts |= O_INTERACTIVE;
}

void sh_root_script_file(sh_exec *ex, const char *path) {
  mem_free(ex->m, ex->script_name);
  ex->script_name = mem_strdup(ex->m, path);
  if (!ex->script_name)
    return;
  ex->errname = ex->script_name;
  ex->base_frame.func = "main";
  ex->base_frame.source = ex->script_name;
  ex->opts |= O_SRC_FILE;
}

int sh_run_script_file(sh_exec *ex, const char *path, const char *data,
                       size_t len, int argc, char **argv) {
  sh_exec *c = child_shell(ex);
  if (!c)
    return ex->jump == J_ABORT ? 126 : sh_oom(ex);
  script_names(c, path, argc - 1, argv + 1);
  c->opts |= O_SRC_FILE;
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

int sh_binary_text(const char *data, size_t len) {
  /* bash looks at the first 80 bytes: an ELF header, or a NUL before the
   * end of the first line (the first two after a #! line). */
  if (len > 80)
    len = 80;
  if (len >= 4 && memcmp(data, "\177ELF", 4) == 0)
    return 1;
  int lines = len >= 2 && data[0] == '#' && data[1] == '!' ? 2 : 1;
  for (size_t i = 0; i < len; i++) {
    if (data[i] == '\n' && --lines == 0)
      return 0;
    if (data[i] == 0)
      return 1;
  }
  return 0;
}

/* For exec_shell.c, which runs `bash` and `sh` as commands. */
sh_exec *sh_child_shell_new(sh_exec *ex) {
  return child_shell(ex);
}

sh_exec *sh_env_child_new(sh_exec *ex, char **env, const char *cwd) {
  if (!sh_depth_ok(ex))
    return NULL;
  sh_exec *c = sh_new_root(ex->run, cwd ? cwd : ex->cwd,
                           (const char *const *)env, NULL, 1);
  if (!c)
    return NULL;
  inherit_process(ex, c);
  /* A fresh shell exports PWD; a program gets only what env handed it. */
  int has_pwd = 0;
  for (size_t i = 0; env && env[i]; i++)
    has_pwd |= strncmp(env[i], "PWD=", 4) == 0;
  sh_var *pwd = has_pwd ? NULL : sh_var_find_raw(c, "PWD", NULL);
  if (pwd)
    pwd->flags &= ~V_EXPORT;
  return c;
}

int sh_child_shell_finish(sh_exec *ex, sh_exec *c, int st) {
  return finish_child_shell(ex, c, st);
}

void sh_child_script_names(sh_exec *c, const char *path, int argc,
                           char **argv) {
  script_names(c, path, argc, argv);
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
  sh_exec *ex = sh_exec_new(m);
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
  ex->opts = O_HASHALL | O_BRACEEXPAND | O_INTERACTIVE_COMMENTS;
  ex->shopts = SO_EXTQUOTE | SO_FORCE_FIGNORE | SO_GLOBASCIIRANGES |
               SO_HOSTCOMPLETE | SO_INTERACTIVE_COMMENTS |
               SO_PATSUB_REPLACEMENT | SO_PROGCOMP | SO_PROMPTVARS |
               SO_SOURCEPATH | SO_CHECKWINSIZE | SO_CMDHIST |
               SO_COMPLETE_FULLQUOTE | SO_GLOBSKIPDOTS;
  ex->arg0 = mem_strdup(m, "bash");
  ex->cwd = mem_strdup(m, cwd ? cwd : "/home/user");
  ex->args = sh_args_new(m, 0, NULL);
  ex->frame = &ex->base_frame;
  ex->pid = 1;
  ex->shell_pid = 1;
  ex->errname = "bash";
  if (!ex->arg0 || !ex->cwd || !ex->args)
    goto fail;
  ex->fd[0] = stream_ref(r->in_s);
  ex->fd[1] = stream_ref(r->out_s);
  ex->fd[2] = stream_ref(r->err_s);
  ex->nfd = 3;
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
    set_default(ex, "SHELL", "/bin/bash", 0);
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
  sh_import_optvars(ex);
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
  sh_scope sc;     /* kind SC_GLOBAL, not owned by any exec */
  char *cwd;       /* PWD and OLDPWD depend on it */
  int oldpwd_dflt; /* OLDPWD is the default (the cwd), not from the env */
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
  b->oldpwd_dflt = 1;
  for (size_t i = 0; env && env[i]; i++)
    if (strncmp(env[i], "OLDPWD=", 7) == 0)
      b->oldpwd_dflt = 0;
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

sh_exec *sh_new_root_over(sh_run *r, sh_base *b, const char *cwd) {
  sh_exec *ex = root_alloc(r, cwd);
  if (!ex)
    return NULL;
  /* An overlay: writes clone into it, unset leaves tombstones, and
   * sh_free detaches it from the base before freeing. */
  ex->global->kind = SC_OVERLAY;
  ex->global->up = &b->sc;
  if (strcmp(cwd, b->cwd) != 0) {
    /* What sh_new_root sets from the cwd, set over the base's. */
    if (sh_setvar(ex, "PWD", ex->cwd, strlen(ex->cwd), SV_EXPORT) ||
        (b->oldpwd_dflt &&
         sh_setvar(ex, "OLDPWD", ex->cwd, strlen(ex->cwd), SV_EXPORT))) {
      sh_free(ex);
      return NULL;
    }
  }
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
  if (ex->nfd < 3)
    ex->nfd = 3;
  ex->jump = J_NONE;
}

const sh_ops sh_exec_ops = {
    sh_cmdsub,     sh_procsub,         sh_eval_string, sh_source_file,
    sh_run_trap,   sh_run_child_shell, sh_dispatch,    sh_call_function,
    sh_assign_one, sh_wait_job,        sh_fill_bi_ctx, sh_parse_ref};
