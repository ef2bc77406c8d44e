/*
 * exec_simple.c - simple commands: expansion, assignments (prefix ones in a
 * temporary scope), xtrace, redirections, and command lookup in bash's
 * order: functions, shell builtins, builtin commands, host commands, then
 * PATH in the VFS (command stubs run their builtin; other executable files
 * run as bash scripts in a child shell).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/syntax/parse.h"

/* ---- xtrace -------------------------------------------------------------- */

void sh_xtrace_prefix(sh_exec *ex, buf *b) {
  const char *ps4 = sh_getvar(ex, "PS4");
  if (!ps4)
    ps4 = "+ ";
  if (!*ps4)
    return;
  int level = ex->cmdsub_level + 1;
  for (int i = 1; i < level; i++)
    buf_putc(b, ps4[0]);
  buf_puts(b, ps4);
}

static void xtrace_words(sh_exec *ex, buf *b, char **v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (i)
      buf_putc(b, ' ');
    size_t l = strlen(v[i]);
    if (sh_needs_quote(v[i], l))
      sh_quote(b, v[i], l);
    else
      buf_append(b, v[i], l);
  }
}

static void xtrace_emit(sh_exec *ex, buf *b) {
  buf_putc(b, '\n');
  stream *e = ex->fd[2];
  if (e)
    stream_write(e, b->data, b->len);
}

/* ---- assignments ------------------------------------------------------- */

typedef struct kv {
  char *key; /* NULL: next index */
  size_t klen;
  char *val;
  size_t vlen;
  int append;
} kv;

/* Appends it to the n items of *items (room for *cap), moving them to a
 * list twice as long when full. 0, or -1 when out of memory. */
static int push_kv(sh_exec *ex, kv **items, size_t *n, size_t *cap, kv it) {
  if (*n == *cap) {
    kv *n2 = arena_alloc(ex->ar, *cap * 2 * sizeof *n2);
    if (!n2)
      return sh_oom(ex);
    memcpy(n2, *items, *n * sizeof *n2);
    *items = n2;
    *cap *= 2;
  }
  (*items)[(*n)++] = it;
  return 0;
}

static int assign_array(sh_exec *ex, sh_assign *a, unsigned flags, buf *trace) {
  /* Expand every element first: the old value may be used (a=(${a[@]} x)). */
  sh_var *cur = sh_var_find(ex, a->name);
  int assoc = cur && (cur->flags & V_ASSOC);
  kv *items = arena_alloc(ex->ar, (a->narray + 1) * sizeof *items);
  size_t ni = 0, cap = a->narray + 1;
  if (!items)
    return sh_oom(ex);
  for (size_t i = 0; i < a->narray; i++) {
    sh_array_elem *e = &a->array[i];
    if (e->key) {
      kv it = {0};
      it.key = sh_expand_str(ex, e->key, &it.klen);
      it.val = sh_expand_str(ex, e->value, &it.vlen);
      it.append = e->append;
      if (!it.key || !it.val)
        return -1;
      if (push_kv(ex, &items, &ni, &cap, it))
        return -1;
      continue;
    }
    sh_strv f = {0};
    if (sh_expand_word_fields(ex, e->value, &f))
      return -1;
    for (size_t k = 0; k < f.n; k++) {
      kv it = {0};
      it.val = f.v[k];
      it.vlen = strlen(f.v[k]);
      if (push_kv(ex, &items, &ni, &cap, it))
        return -1;
    }
  }
  if (trace) {
    buf_printf(trace, "%s%s=(", a->name, a->append ? "+" : "");
    for (size_t i = 0; i < ni; i++) {
      if (i)
        buf_putc(trace, ' ');
      if (items[i].key)
        buf_printf(trace, "[%s]=", items[i].key);
      if (sh_needs_quote(items[i].val, items[i].vlen))
        sh_quote(trace, items[i].val, items[i].vlen);
      else
        buf_append(trace, items[i].val, items[i].vlen);
    }
    buf_putc(trace, ')');
  }
  sh_var *v = sh_var_lookup_for_write(ex, a->name, flags);
  if (!v)
    return -1;
  assoc = (v->flags & V_ASSOC) != 0;
  if (!a->append) {
    sh_arr_free(ex->m, v->arr, assoc);
    v->arr = NULL;
    mem_free(ex->m, v->val);
    v->val = NULL;
    v->len = 0;
  } else if (!assoc && sh_var_make_array(ex, v)) {
    return -1;
  }
  if (!v->arr && !(v->arr = sh_arr_new(ex->m)))
    return sh_oom(ex);
  if (!assoc)
    v->flags |= V_ARRAY;
  v->flags |= V_SET;
  if ((flags & SV_EXPORT) || (ex->opts & O_ALLEXPORT))
    v->flags |= V_EXPORT;
  int64_t next = sh_arr_max_index(v->arr) + 1;
  for (size_t i = 0; i < ni; i++) {
    kv *it = &items[i];
    if (assoc) {
      if (!it->key) {
        /* bash 5.1+: (k1 v1 k2 v2) pairs */
        const char *k = it->val;
        const char *val = "";
        size_t vl = 0;
        if (i + 1 < ni) {
          val = items[i + 1].val;
          vl = items[i + 1].vlen;
          i++;
        }
        if (sh_arr_aset(ex->m, v->arr, k, val, vl))
          return sh_oom(ex);
        continue;
      }
      if (it->append) {
        sh_aent *e = sh_arr_aget(v->arr, it->key);
        if (e) {
          size_t ol = strlen(e->val);
          char *j = arena_alloc(ex->ar, ol + it->vlen + 1);
          if (!j)
            return sh_oom(ex);
          memcpy(j, e->val, ol);
          memcpy(j + ol, it->val, it->vlen + 1);
          if (sh_arr_aset(ex->m, v->arr, it->key, j, ol + it->vlen))
            return sh_oom(ex);
          continue;
        }
      }
      if (sh_arr_aset(ex->m, v->arr, it->key, it->val, it->vlen))
        return sh_oom(ex);
      continue;
    }
    int64_t idx = next;
    if (it->key) {
      int err = 0;
      idx = sh_arith(ex, it->key, it->klen, &err);
      if (err)
        return 1;
      if (idx < 0) {
        idx += sh_arr_max_index(v->arr) + 1;
        if (idx < 0) {
          sh_err(ex, "%s[%s]: bad array subscript", a->name, it->key);
          continue;
        }
      }
    }
    const char *val = it->val;
    size_t vl = it->vlen;
    if (v->flags & V_INTEGER) {
      int err = 0;
      int64_t r = sh_arith(ex, val, vl, &err);
      char *t = arena_alloc(ex->ar, 24);
      if (!t)
        return sh_oom(ex);
      vl = sh_fmt_int(t, r);
      val = t;
    }
    if (it->append) {
      sh_aent *e = sh_arr_iget(v->arr, idx);
      if (e) {
        size_t ol = strlen(e->val);
        char *j = arena_alloc(ex->ar, ol + vl + 1);
        if (!j)
          return sh_oom(ex);
        memcpy(j, e->val, ol);
        memcpy(j + ol, val, vl + 1);
        val = j;
        vl += ol;
      }
    }
    if (sh_arr_iset(ex->m, v->arr, idx, val, vl))
      return sh_oom(ex);
    next = idx + 1;
  }
  return 0;
}

/* One assignment. flags: SV_* for the target scope. Returns 0, or non-zero
 * on error (message printed). */
int sh_assign_one(sh_exec *ex, sh_assign *a, unsigned flags, buf *trace) {
  if (a->is_array)
    return assign_array(ex, a, flags, trace);
  size_t vl = 0;
  char *val =
      a->value ? sh_expand_str(ex, a->value, &vl) : arena_strdup(ex->ar, "");
  if (!val)
    return -1;
  if (a->index) {
    size_t il;
    char *sub = sh_expand_str(ex, a->index, &il);
    if (!sub)
      return -1;
    if (trace) {
      buf_printf(trace, "%s[%s]%s=", a->name, sub, a->append ? "+" : "");
      if (sh_needs_quote(val, vl))
        sh_quote(trace, val, vl);
      else
        buf_append(trace, val, vl);
    }
    if (il == 0) { /* an empty key is an error for assoc arrays too */
      sh_err(ex, "%s[]: bad array subscript", a->name);
      return 1;
    }
    return sh_setelem(ex, a->name, sub, il, val, vl,
                      flags | (a->append ? SV_APPEND : 0));
  }
  if (trace) {
    buf_printf(trace, "%s%s=", a->name, a->append ? "+" : "");
    if (sh_needs_quote(val, vl))
      sh_quote(trace, val, vl);
    else
      buf_append(trace, val, vl);
  }
  return sh_setvar(ex, a->name, val, vl, flags | (a->append ? SV_APPEND : 0));
}

static int assign_all(sh_exec *ex, sh_assign *as, unsigned flags) {
  int rc = 0;
  for (sh_assign *a = as; a; a = a->next) {
    buf tb;
    int tr = (ex->opts & O_XTRACE) != 0;
    if (tr) {
      buf_init(&tb, ex->m);
      sh_xtrace_prefix(ex, &tb);
    }
    int r = sh_assign_one(ex, a, flags, tr ? &tb : NULL);
    if (tr) {
      xtrace_emit(ex, &tb);
      buf_free(&tb);
    }
    if (r) {
      rc = 1;
      if (ex->jump)
        break;
    }
  }
  return rc;
}

/* ---- $_ ----------------------------------------------------------------- */

static void set_last_arg(sh_exec *ex, const char *s) {
  /* Runs after every simple command: reuse the buffer while it fits rather
   * than reallocating each time. */
  size_t n = strlen(s);
  if (!ex->last_arg || n + 1 > ex->last_arg_cap) {
    size_t cap = n + 1 < 32 ? 32 : n + 1;
    char *p = mem_realloc(ex->m, ex->last_arg, cap);
    if (!p)
      return;
    ex->last_arg = p;
    ex->last_arg_cap = cap;
  }
  memcpy(ex->last_arg, s, n + 1);
}

/* ---- builtin context ------------------------------------------------------
 */

static const char *svc_getenv(bi_ctx *c, const char *name) {
  return sh_getvar(c->sh, name);
}

static char **svc_environ(bi_ctx *c) {
  return sh_environ(c->sh, c->scratch);
}

static int svc_run_argv(bi_ctx *c, char **argv, stream *in, stream *out,
                        stream *err) {
  int argc = 0;
  while (argv[argc])
    argc++;
  return sh_run_argv(c->sh, argc, argv, in ? in : c->in, out ? out : c->out,
                     err ? err : c->err, 1);
}

static int svc_setvar(bi_ctx *c, const char *name, const char *value,
                      size_t len) {
  sh_exec *ex = c->sh;
  const char *br = strchr(name, '[');
  if (br && name[strlen(name) - 1] == ']') {
    char *nm = arena_strndup(ex->ar, name, (size_t)(br - name));
    if (!nm || !sh_valid_name(nm, strlen(nm))) {
      sh_builtin_err(ex, c->argv[0], "`%s': not a valid identifier", name);
      return -1;
    }
    size_t sl = strlen(br + 1) - 1;
    return sh_setelem(ex, nm, br + 1, sl, value, len, 0) ? -1 : 0;
  }
  if (!sh_valid_name(name, strlen(name))) {
    sh_builtin_err(ex, c->argv[0], "`%s': not a valid identifier", name);
    return -1;
  }
  return sh_setvar(ex, name, value, len, 0) ? -1 : 0;
}

static int64_t svc_now(bi_ctx *c) {
  return sh_now_ns(c->sh);
}

static void svc_random(bi_ctx *c, void *p, size_t n) {
  sh_random_bytes(c->sh, p, n);
}

void sh_fill_bi_ctx(sh_exec *ex, bi_ctx *c, int argc, char **argv) {
  memset(c, 0, sizeof *c);
  c->argc = argc;
  c->argv = argv;
  c->in = ex->fd[0] ? ex->fd[0] : sh_closed_stream(ex);
  c->out = ex->fd[1] ? ex->fd[1] : sh_closed_stream(ex);
  c->err = ex->fd[2] ? ex->fd[2] : sh_closed_stream(ex);
  c->m = ex->m;
  c->scratch = ex->ar;
  c->vfs = ex->run->v;
  c->cwd = ex->cwd;
  c->bud = &ex->run->bud;
  c->net = sh_net(ex);
  c->uid = VFS_DEFAULT_UID;
  c->gid = VFS_DEFAULT_GID;
  c->sh = ex;
  c->getenv = svc_getenv;
  c->environ = svc_environ;
  c->run_argv = svc_run_argv;
  c->setvar = svc_setvar;
  c->now_ns = svc_now;
  c->random = svc_random;
}

/* echo and printf are builtins of bash, which reports their failed
 * writes itself ("bash: line 1: echo: write error: Bad file descriptor");
 * a broken pipe or a stopped exec is not reported. */
static int bash_write_error(const char *name) {
  return !strcmp(name, "echo") || !strcmp(name, "printf");
}

/* The commands of builtins/ that bash runs in-process. After any other,
 * bash has forked and reaped: finished jobs leave the table silently. */
static int bash_runs_inline(const char *name) {
  return bash_write_error(name) || !strcmp(name, "test") ||
         !strcmp(name, "[") || !strcmp(name, "true") || !strcmp(name, "false");
}

static int run_bi(sh_exec *ex, const bi_def *d, int argc, char **argv) {
  bi_ctx c;
  sh_fill_bi_ctx(ex, &c, argc, argv);
  int report = bash_write_error(argv[0]);
  if (report)
    c.out->err = 0;
  int st = d->fn(&c);
  if (report && st && c.out->err && c.out->err != EPIPE &&
      c.out->err != ECANCELED)
    sh_builtin_err(ex, argv[0], "write error: %s", bi_strerror(c.out->err));
  if (ex->run->jobs && !bash_runs_inline(argv[0]))
    sh_jobs_forget_done(ex);
  return st;
}

/* ---- functions ------------------------------------------------------------
 */

int sh_call_function(sh_exec *ex, sh_func *f, int argc, char **argv) {
  if (!sh_depth_ok(ex))
    return 126;
  f->refs++;
  sh_args *saved = ex->args;
  sh_args *na = sh_args_new(ex->m, argc - 1, argv + 1);
  if (!na) {
    sh_func_unref(ex->m, f);
    return sh_oom(ex) ? 1 : 1;
  }
  ex->args = na;
  sh_frame fr = {f->name, f->file ? f->file : "main", ex->lineno, ex->frame};
  ex->frame = &fr;
  sh_scope *sc = sh_scope_push(ex, SC_FUNC);
  int saved_loop = ex->loop_depth;
  ex->loop_depth = 0;
  ex->func_depth++;
  int st = 0;
  if (sc) {
    st = sh_exec_node(ex, f->body);
    if (ex->jump == J_RETURN) {
      st = ex->exit_status;
      ex->jump = J_NONE;
    }
    if (ex->traps[TRAP_RETURN] && !ex->in_trap && ex->jump != J_ABORT &&
        (ex->opts & O_FUNCTRACE))
      sh_run_trap(ex, TRAP_RETURN);
    while (ex->scope != sc)
      sh_scope_pop(ex);
    sh_scope_pop(ex);
  }
  ex->func_depth--;
  ex->loop_depth = saved_loop;
  ex->frame = fr.up;
  /* Back at the call: an ERR trap for the call reports its line. */
  ex->lineno = fr.call_line;
  sh_args_unref(ex->m, ex->args); /* na, or what set/shift made of it */
  ex->args = saved;
  sh_func_unref(ex->m, f);
  ex->status = st;
  return st;
}

/* ---- PATH ---------------------------------------------------------------- */

/* An executable file: a command stub runs its builtin, anything else runs as
 * a bash script in a child shell. */
static int run_file(sh_exec *ex, const char *path, int argc, char **argv) {
  vfs *v = ex->run->v;
  char stub[64];
  int r = vfs_command_stub_name(v, ex->cwd, path, stub, sizeof stub);
  if (r == 1) {
    char *save = argv[0];
    int st;
    const sh_builtin *sb = sh_builtin_lookup(stub);
    const bi_def *d = bi_lookup(stub);
    const sh_host_cmd *h = sh_host_lookup(ex, stub);
    if (d && (d->flags & BI_NET) && !sh_have_net(ex))
      d = NULL;
    if (h) {
      st = sh_call_host(ex, h, argc, argv);
    } else if (d) {
      st = run_bi(ex, d, argc, argv);
    } else if (sb) {
      st = sb->fn(ex, argc, argv);
    } else {
      sh_err(ex, "%s: command not found", argv[0]);
      st = 127;
    }
    argv[0] = save;
    return st;
  }
  char *data;
  size_t len;
  int e = vfs_read_file(v, ex->cwd, path, &data, &len);
  if (e) {
    const char *msg;
    sh_errno_msg(-e, &msg);
    sh_err(ex, "%s: %s", argv[0], msg);
    return 126;
  }
  int st = sh_run_script_file(ex, path, data, len, argc, argv);
  vfs_release(v, data);
  return st;
}

static int not_found(sh_exec *ex, const char *name) {
  sh_err(ex, "%s: command not found", name);
  return 127;
}

/* Run an expanded command (no assignments, redirections already applied). */
int sh_dispatch(sh_exec *ex, int argc, char **argv, int no_funcs) {
  const char *name = argv[0];
  if (!strchr(name, '/')) {
    if (!no_funcs) {
      sh_func *f = sh_func_find(ex, name);
      if (f)
        return sh_call_function(ex, f, argc, argv);
    }
    const sh_builtin *sb = sh_builtin_lookup(name);
    if (sb && !sh_builtin_disabled(ex, name))
      return sb->fn(ex, argc, argv);
    const bi_def *d = bi_lookup(name);
    if (d && (d->flags & BI_NET) && !sh_have_net(ex))
      d = NULL;
    if (d && !sh_builtin_disabled(ex, name))
      return run_bi(ex, d, argc, argv);
    const sh_host_cmd *h = sh_host_lookup(ex, name);
    if (h)
      return sh_call_host(ex, h, argc, argv);
    char *p = sh_path_search(ex, name, 0);
    if (!p)
      return not_found(ex, name);
    if (vfs_access(ex->run->v, ex->cwd, p, X_OK)) {
      sh_err(ex, "%s: Permission denied", p);
      return 126;
    }
    return run_file(ex, p, argc, argv);
  }
  vfs_stat_t st;
  int e = vfs_stat(ex->run->v, ex->cwd, name, &st);
  if (e) {
    const char *msg;
    sh_errno_msg(-e, &msg);
    sh_err(ex, "%s: %s", name, msg);
    return 127;
  }
  if (st.type == VFS_DIR) {
    sh_err(ex, "%s: Is a directory", name);
    return 126;
  }
  if (vfs_access(ex->run->v, ex->cwd, name, X_OK)) {
    sh_err(ex, "%s: Permission denied", name);
    return 126;
  }
  return run_file(ex, name, argc, argv);
}

int sh_run_argv(sh_exec *ex, int argc, char **argv, stream *in, stream *out,
                stream *err, int no_funcs) {
  stream *save[3] = {ex->fd[0], ex->fd[1], ex->fd[2]};
  ex->fd[0] = in;
  ex->fd[1] = out;
  ex->fd[2] = err;
  arena_mark mk = arena_save(ex->ar);
  int st = sh_dispatch(ex, argc, argv, no_funcs);
  arena_release(ex->ar, mk);
  ex->fd[0] = save[0];
  ex->fd[1] = save[1];
  ex->fd[2] = save[2];
  return st;
}

/* A pipeline stage or subshell whose stdout reader went away ends like a
 * process killed by SIGPIPE. */
static void check_sigpipe(sh_exec *ex, int *st) {
  stream *o = ex->fd[1];
  if (o && o->err == EPIPE && ex->is_stage && !ex->jump) {
    ex->jump = J_EXIT;
    ex->exit_status = 141;
    *st = 141;
  }
}

static int is_decl_word(sh_word *w) {
  if (w->nparts != 1 || w->parts[0].kind != WP_LIT || w->parts[0].quoted)
    return 0;
  const char *t = w->parts[0].u.lit.text;
  size_t l = w->parts[0].u.lit.len;
  static const char *const names[] = {"declare", "typeset",  "local",
                                      "export",  "readonly", NULL};
  for (int i = 0; names[i]; i++)
    if (strlen(names[i]) == l && memcmp(names[i], t, l) == 0)
      return 1;
  return 0;
}

/* Expand the words of a simple command. For declaration builtins, NAME=...
 * words stay parsed assignments: (*decl)[i] is the assignment of argv[i]. */
static int expand_command_words(sh_exec *ex, sh_node *n, sh_strv *argv,
                                sh_assign ***decl) {
  sh_word **w = n->u.simple.words;
  size_t nw = n->u.simple.nwords;
  if (nw == 0 || !is_decl_word(w[0]))
    return sh_expand_words(ex, w, nw, argv);
  size_t cap = nw + 8;
  sh_assign **d = arena_calloc(ex->ar, cap * sizeof *d);
  if (!d)
    return sh_oom(ex);
  for (size_t i = 0; i < nw; i++) {
    if (w[i]->assign) {
      d[argv->n] = w[i]->assign;
      char *t = arena_strndup(ex->ar, w[i]->src, w[i]->src_len);
      if (!t || sh_strv_push(ex->ar, argv, t))
        return sh_oom(ex);
    } else {
      if (sh_expand_word_fields(ex, w[i], argv))
        return -1;
      if (ex->jump)
        return -1;
    }
    /* Keep room for the entry an assignment word writes next. */
    while (argv->n + 1 >= cap) {
      sh_assign **nd = arena_calloc(ex->ar, cap * 2 * sizeof *nd);
      if (!nd)
        return sh_oom(ex);
      memcpy(nd, d, cap * sizeof *nd);
      d = nd;
      cap *= 2;
    }
  }
  *decl = d;
  return 0;
}

int sh_exec_simple(sh_exec *ex, sh_node *n) {
  ex->lineno = n->line;
  budget *b = &ex->run->bud;
  if (budget_command(b) || sh_stopped(ex)) {
    ex->jump = J_ABORT;
    return ex->status;
  }
  arena_mark mk = arena_save(ex->ar);
  size_t pmark = sh_procsub_mark(ex);
  ex->has_cmdsub = 0;
  sh_strv argv = {0};
  int st = 0;
  sh_assign **decl = NULL;
  if (expand_command_words(ex, n, &argv, &decl)) {
    st = ex->jump == J_EXIT ? ex->exit_status : 1;
    goto out;
  }
  if (argv.n == 0) {
    /* Assignments and redirections only. */
    int r = assign_all(ex, n->u.simple.assigns, 0);
    set_last_arg(ex, ""); /* a command without words leaves $_ empty */
    if (ex->jump) {
      st = ex->exit_status;
      goto out;
    }
    if (r) {
      /* bash: a failed assignment on its own (readonly, bad subscript)
       * abandons the rest of the command line; arithmetic errors have
       * already ended the shell */
      st = 1;
      if (!ex->jump)
        sh_discard(ex);
      goto out;
    }
    st = ex->has_cmdsub ? ex->cmdsub_status : 0;
    if (n->redirs) {
      sh_redir_save *save = NULL;
      size_t nsave = 0;
      if (sh_redir_apply(ex, n->redirs, &save, &nsave, 0))
        st = 1;
      sh_redir_restore(ex, save, nsave);
    }
    goto out;
  }
  if (ex->opts & O_XTRACE) {
    /* prefix assignments are traced as they are made, below */
  }
  const char *name = argv.v[0];
  int nassign = n->u.simple.assigns != NULL;
  sh_redir_save *save = NULL;
  size_t nsave = 0;
  sh_scope *temp = NULL;
  if (nassign) {
    temp = sh_scope_push(ex, SC_TEMP);
    if (!temp) {
      st = sh_oom(ex);
      goto out;
    }
    assign_all(ex, n->u.simple.assigns, SV_EXPORT | SV_TEMP);
    if (ex->jump) {
      st = 1;
      goto pop;
    }
  }
  if (ex->opts & O_XTRACE) {
    buf tb;
    buf_init(&tb, ex->m);
    sh_xtrace_prefix(ex, &tb);
    xtrace_words(ex, &tb, argv.v, argv.n);
    xtrace_emit(ex, &tb);
    buf_free(&tb);
  }
  if (argv.n == 1 && strcmp(name, "exec") == 0 && !ex->fd_exec_guard) {
    /* exec with only redirections changes the shell's own fds */
    st = n->redirs && sh_redir_apply(ex, n->redirs, NULL, NULL, 1) ? 1 : 0;
    goto pop;
  }
  if (n->redirs && sh_redir_apply(ex, n->redirs, &save, &nsave, 0)) {
    sh_redir_restore(ex, save, nsave);
    st = 1;
    goto pop;
  }
  sh_assign **saved_decl = ex->decl_assigns;
  ex->decl_assigns = decl;
  st = sh_dispatch(ex, (int)argv.n, argv.v, 0);
  ex->decl_assigns = saved_decl;
  check_sigpipe(ex, &st);
  sh_redir_restore(ex, save, nsave);
pop:
  if (temp) {
    /* Pop the temporary scope (and anything a builtin left above it). */
    while (ex->scope && ex->scope != temp)
      sh_scope_pop(ex);
    if (ex->scope == temp)
      sh_scope_pop(ex);
  }
  set_last_arg(ex, argv.v[argv.n - 1]);
  (void)name;
out:
  sh_procsub_finish(ex, pmark);
  arena_release(ex->ar, mk);
  if (ex->jump == J_ABORT)
    return ex->status = st;
  ex->status = st;
  ex->pipestatus[0] = st;
  ex->npipestatus = 1;
  sh_after_command(ex, st);
  return st;
}
