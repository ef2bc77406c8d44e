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

static int assign_items(sh_exec *ex, sh_assign *a, sh_var *v, kv *items,
                        size_t ni, int pairs, sh_arr *before);

/* w with its tildes as plain text (a copy when it has any). */
static sh_word *tilde_as_text(sh_exec *ex, sh_word *w) {
  size_t k = 0;
  while (w && k < w->nparts && w->parts[k].kind != WP_TILDE)
    k++;
  if (!w || k == w->nparts)
    return w;
  sh_word *c = arena_alloc(ex->ar, sizeof *c);
  sh_part *ps = arena_alloc(ex->ar, w->nparts * sizeof *ps);
  if (!c || !ps)
    return w;
  *c = *w;
  memcpy(ps, w->parts, w->nparts * sizeof *ps);
  for (size_t i = k; i < w->nparts; i++) {
    if (ps[i].kind != WP_TILDE)
      continue;
    char *t = arena_alloc(ex->ar, ps[i].u.lit.len + 2);
    if (!t)
      return w;
    t[0] = '~';
    memcpy(t + 1, ps[i].u.lit.text, ps[i].u.lit.len);
    t[ps[i].u.lit.len + 1] = 0;
    ps[i].kind = WP_LIT;
    ps[i].quoted = 1;
    ps[i].u.lit.text = t;
    ps[i].u.lit.len++;
  }
  c->parts = ps;
  return c;
}

/* B=(b b) before a command: bash passes the list's text on as a string. */
static int assign_list_text(sh_exec *ex, sh_assign *a, unsigned flags) {
  buf b;
  buf_init(&b, ex->m);
  buf_putc(&b, '(');
  for (size_t i = 0; i < a->narray; i++) {
    sh_array_elem *e = &a->array[i];
    if (i)
      buf_putc(&b, ' ');
    if (e->key && e->key->src) {
      buf_putc(&b, '[');
      buf_append(&b, e->key->src, e->key->src_len);
      buf_puts(&b, e->append ? "]+=" : "]=");
    }
    if (e->value && e->value->src)
      buf_append(&b, e->value->src, e->value->src_len);
  }
  buf_putc(&b, ')');
  int r = b.oom ? sh_oom(ex) : sh_setvar(ex, a->name, b.data, b.len, flags);
  buf_free(&b);
  return r;
}

/* ([k]=-{a,b}-) for an indexed array: bash brace-expands the element as
 * a word first, and the words that makes are plain elements, not
 * [key]=value ones (an associative list keeps the braces). Done
 * for literal text only (no quotes or expansions to keep apart). 1 when
 * the element became such words, 0 when not, -1 out of memory. */
static int keyed_braces(sh_exec *ex, sh_array_elem *e, kv **items, size_t *ni,
                        size_t *cap) {
  if (!(ex->opts & O_BRACEEXPAND) || !e->key->src || !e->value ||
      !e->value->src || !memchr(e->value->src, '{', e->value->src_len))
    return 0;
  buf b;
  buf_init(&b, ex->m);
  buf_putc(&b, '[');
  buf_append(&b, e->key->src, e->key->src_len);
  buf_puts(&b, e->append ? "]+=" : "]=");
  buf_append(&b, e->value->src, e->value->src_len);
  int oom = b.oom;
  if (oom || strpbrk(buf_cstr(&b), "'\"\\$`")) {
    buf_free(&b);
    return oom ? sh_oom(ex) : 0;
  }
  char **out = NULL;
  size_t *lens = NULL;
  size_t n = sh_brace_expand(ex->ar, b.data, b.len, &out, &lens);
  buf_free(&b);
  if (!n)
    return errno == ENOMEM ? sh_oom(ex) : 0;
  if (n < 2)
    return 0;
  for (size_t k = 0; k < n; k++) {
    kv it = {0};
    it.val = out[k];
    it.vlen = lens[k];
    if (push_kv(ex, items, ni, cap, it))
      return -1;
  }
  return 1;
}

static int assign_array(sh_exec *ex, sh_assign *a, unsigned flags, buf *trace) {
  if (flags & SV_TEMP)
    return assign_list_text(ex, a, flags);
  if (a->index) {
    size_t il = 0;
    char *sub = sh_expand_str(ex, a->index, &il);
    sh_err(ex, "%s[%s]: cannot assign list to array member", a->name,
           sub ? sub : "");
    return 1;
  }
  /* Expand every element first: the old value may be used (a=(${a[@]} x)). */
  sh_var *cur = sh_var_find(ex, a->name);
  int assoc = cur && (cur->flags & V_ASSOC);
  kv *items = arena_alloc(ex->ar, (a->narray + 1) * sizeof *items);
  size_t ni = 0, cap = a->narray + 1;
  if (!items)
    return sh_oom(ex);
  for (size_t i = 0; i < a->narray; i++) {
    sh_array_elem *e = &a->array[i];
    int braced = e->key && !assoc ? keyed_braces(ex, e, &items, &ni, &cap) : 0;
    if (braced < 0)
      return -1;
    if (braced)
      continue;
    if (e->key) {
      kv it = {0};
      it.key = sh_expand_str(ex, e->key, &it.klen);
      /* bash 5.2 leaves a tilde in an associative [key]=~ unexpanded */
      it.val = sh_expand_str(ex, assoc ? tilde_as_text(ex, e->value) : e->value,
                             &it.vlen);
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
  if ((v->flags & V_NAMEREF) && (v->flags & V_SET) && !(flags & SV_LOCAL)) {
    /* a nameref to an element (or to a[@]) takes no list */
    const char *t = sh_nameref_target(ex, a->name);
    if (t && strchr(t, '[')) {
      sh_err(ex, "`%s': not a valid identifier", t);
      return 1;
    }
  }
  assoc = (v->flags & V_ASSOC) != 0;
  /* An associative list is key-value pairs when its first element has no
   * [key]; in a list of [key]=value ones, an element without is skipped. */
  int pairs = assoc && ni && !items[0].key;
  /* Inside a=(...), [k]+=v appends to what a[k] held before (bash). */
  sh_arr *before = NULL;
  if (!a->append) {
    if (assoc)
      before = v->arr;
    else
      sh_arr_free(ex->m, v->arr, assoc);
    v->arr = NULL;
    mem_free(ex->m, v->val);
    v->val = NULL;
    v->len = 0;
  } else if (!assoc && sh_var_make_array(ex, v)) {
    return -1;
  }
  if (!v->arr && !(v->arr = sh_arr_new(ex->m))) {
    sh_arr_free(ex->m, before, 1);
    return sh_oom(ex);
  }
  if (!assoc)
    v->flags |= V_ARRAY;
  v->flags |= V_SET;
  if ((flags & SV_EXPORT) || (ex->opts & O_ALLEXPORT))
    v->flags |= V_EXPORT;
  int rc = assign_items(ex, a, v, items, ni, pairs, before);
  sh_arr_free(ex->m, before, 1);
  return rc;
}

/* The list's items into v (an array now). */
static int assign_items(sh_exec *ex, sh_assign *a, sh_var *v, kv *items,
                        size_t ni, int pairs, sh_arr *before) {
  int assoc = (v->flags & V_ASSOC) != 0;
  for (size_t i = 0; pairs && i < ni; i++) {
    kv *it = &items[i];
    if (!it->key)
      continue;
    /* "[k]=v" among pairs is a word like any other */
    char *t = arena_alloc(ex->ar, it->klen + it->vlen + 4);
    if (!t)
      return sh_oom(ex);
    memcpy(t, "[", 1);
    memcpy(t + 1, it->key, it->klen);
    memcpy(t + 1 + it->klen, "]=", 2);
    memcpy(t + 3 + it->klen, it->val, it->vlen + 1);
    it->val = t;
    it->vlen += it->klen + 3;
    it->key = NULL;
  }
  int64_t next = sh_arr_max_index(v->arr) + 1;
  for (size_t i = 0; i < ni; i++) {
    kv *it = &items[i];
    if (assoc) {
      if (!it->key && !pairs) {
        sh_err(ex,
               "%s: %s: must use subscript when assigning associative "
               "array",
               a->name, it->val);
        continue;
      }
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
        sh_aent *e = sh_arr_aget(before ? before : v->arr, it->key);
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

/* The subscript of a[...]=v to expand: an indexed array's is arithmetic,
 * where bash keeps single quotes (a['2']=3 is an error, a["2"]=3 is not),
 * so its single-quoted parts keep their quotes. */
static sh_word *index_word(sh_exec *ex, sh_assign *a) {
  sh_word *w = a->index;
  if (!w->src || !memchr(w->src, '\'', w->src_len))
    return w;
  sh_var *cur = sh_var_find(ex, a->name);
  if (cur && (cur->flags & V_ASSOC))
    return w;
  sh_word *c = arena_alloc(ex->ar, sizeof *c);
  sh_part *ps = arena_alloc(ex->ar, (w->nparts ? w->nparts : 1) * sizeof *ps);
  if (!c || !ps)
    return w;
  *c = *w;
  memcpy(ps, w->parts, w->nparts * sizeof *ps);
  for (size_t i = 0; i < w->nparts; i++) {
    if (ps[i].kind != WP_LIT || !ps[i].quoted)
      continue;
    char *t = arena_alloc(ex->ar, ps[i].u.lit.len + 3);
    if (!t)
      return w;
    t[0] = '\'';
    memcpy(t + 1, ps[i].u.lit.text, ps[i].u.lit.len);
    t[ps[i].u.lit.len + 1] = '\'';
    t[ps[i].u.lit.len + 2] = 0;
    ps[i].u.lit.text = t;
    ps[i].u.lit.len += 2;
  }
  c->parts = ps;
  return c;
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
    char *sub = sh_expand_str(ex, index_word(ex, a), &il);
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
  /* test -v 'a[$k]' asks for an element by its text */
  if (strchr(name, '['))
    return sh_ref_value(c->sh, name);
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
                     err ? err : c->err, 2);
}

static int svc_run_argv_env(bi_ctx *c, char **argv, char **env, const char *cwd,
                            stream *in, stream *out, stream *err) {
  sh_exec *ex = c->sh;
  if (!env)
    env = sh_environ(ex, ex->ar);
  sh_exec *k = env ? sh_env_child_new(ex, env, cwd) : NULL;
  if (!k)
    return ex->jump == J_ABORT ? 126 : sh_oom(ex);
  stream *io[3] = {in ? in : c->in, out ? out : c->out, err ? err : c->err};
  for (int i = 0; i < 3; i++) {
    stream_unref(k->fd[i]);
    k->fd[i] = stream_ref(io[i]);
  }
  int argc = 0;
  while (argv[argc])
    argc++;
  int st = sh_dispatch(k, argc, argv, 2);
  if (st == BI_NOT_FOUND) {
    st = sh_child_shell_finish(ex, k, 127);
    return st == 127 ? BI_NOT_FOUND : st;
  }
  return sh_child_shell_finish(ex, k, st);
}

static int svc_setvar(bi_ctx *c, const char *name, const char *value,
                      size_t len) {
  sh_exec *ex = c->sh;
  const char *br = strchr(name, '[');
  if (br && name[strlen(name) - 1] == ']') {
    /* printf -v 'a[$k]': the subscript is expanded now, as bash does */
    sh_ref r;
    int k = sh_parse_ref(ex, name, strlen(name), &r);
    if (k > 0 || (!k && r.at)) {
      sh_builtin_err(ex, c->argv[0], "`%s': not a valid identifier", name);
      return -1;
    }
    if (k < 0)
      return -1;
    return sh_setelem(ex, r.name, r.sub, r.sublen, value, len, 0) ? -1 : 0;
  }
  if (!sh_valid_name(name, strlen(name))) {
    sh_builtin_err(ex, c->argv[0], "`%s': not a valid identifier", name);
    return -1;
  }
  return sh_setvar(ex, name, value, len, 0) ? -1 : 0;
}

static stream *svc_open_fd(bi_ctx *c, int fd) {
  sh_exec *ex = c->sh;
  if (fd < 0 || fd >= SH_NFD || !ex->fd[fd])
    return NULL;
  return stream_ref(ex->fd[fd]);
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
  c->run_argv_env = svc_run_argv_env;
  c->setvar = svc_setvar;
  c->now_ns = svc_now;
  c->open_fd = svc_open_fd;
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
    /* a file gone since PATH found it is named by its path */
    sh_err(ex, "%s: %s", e == -ENOENT ? path : argv[0], msg);
    return e == -ENOENT ? 127 : 126;
  }
  if (sh_binary_text(data, len)) {
    vfs_release(v, data);
    sh_err(ex, "%s: cannot execute binary file: Exec format error", argv[0]);
    return 126;
  }
  int st = sh_run_script_file(ex, path, data, len, argc, argv);
  vfs_release(v, data);
  return st;
}

/* In POSIX mode (set -o posix), the special builtin called name. */
static const sh_builtin *posix_special(sh_exec *ex, const char *name) {
  if (!(ex->opts & O_POSIX))
    return NULL;
  const sh_builtin *sb = sh_builtin_lookup(name);
  return sb && (sb->flags & SB_SPECIAL) && !sh_builtin_disabled(ex, name)
             ? sb
             : NULL;
}

/* Is /usr/bin/name the stub of a command (the sandbox's default layout)? */
static int layout_has(sh_exec *ex, const char *name) {
  char path[96], stub[64];
  if (strlen(name) + 10 > sizeof path)
    return 0;
  snprintf(path, sizeof path, "/usr/bin/%s", name);
  return vfs_command_stub_name(ex->run->v, "/", path, stub, sizeof stub) == 1;
}

/* no_funcs 2 (a tool's run_argv, as execvp): the caller words it. */
static int not_found(sh_exec *ex, const char *name, int no_funcs) {
  if (no_funcs == 2)
    return BI_NOT_FOUND;
  sh_err(ex, "%s: command not found", name);
  return 127;
}

/* Run an expanded command (no assignments, redirections already applied). */
int sh_dispatch(sh_exec *ex, int argc, char **argv, int no_funcs) {
  const char *name = argv[0];
  if (strchr(name, '/') && !no_funcs && !(ex->opts & O_POSIX)) {
    /* bash looks for a function first even when the name has a slash
     * (function ble/is-array { ...; }) */
    sh_func *f = sh_func_find(ex, name);
    if (f)
      return sh_call_function(ex, f, argc, argv);
  }
  if (!strchr(name, '/')) {
    if (!no_funcs) {
      /* POSIX mode finds the special builtins before functions. */
      const sh_builtin *sp = posix_special(ex, name);
      if (sp)
        return sp->fn(ex, argc, argv);
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
    if (d && sh_builtin_disabled(ex, name))
      d = NULL;
    /* The commands bash has as builtins run as such; the others are files
     * of /usr/bin for bash, so PATH decides (a script earlier on PATH
     * wins, a PATH without them does not find them). */
    if (d && sh_is_bash_builtin(name))
      return run_bi(ex, d, argc, argv);
    const sh_host_cmd *h = sh_host_lookup(ex, name);
    if (h)
      return sh_call_host(ex, h, argc, argv);
    /* bash does not search again for a remembered file that went: that
     * fails as a missing file does (run_file) */
    const char *hp = sh_hash_get(ex, name, 1);
    if (hp)
      return run_file(ex, hp, argc, argv);
    int xok;
    char *p = sh_path_find(ex, name, 0, &xok);
    if (!p) {
      /* A sandbox without the /usr/bin layout still has its commands. */
      if (d && !layout_has(ex, name))
        return run_bi(ex, d, argc, argv);
      return not_found(ex, name, no_funcs);
    }
    if (!xok) {
      sh_err(ex, "%s: Permission denied", p);
      return 126;
    }
    if (sh_hash_put(ex, name, p, 1))
      return sh_oom(ex);
    return run_file(ex, p, argc, argv);
  }
  vfs_stat_t st;
  int e = vfs_stat(ex->run->v, ex->cwd, name, &st);
  if (e) {
    if (e == -ENOENT && no_funcs == 2)
      return BI_NOT_FOUND;
    const char *msg;
    sh_errno_msg(-e, &msg);
    sh_err(ex, "%s: %s", name, msg);
    return e == -ENOENT ? 127 : 126; /* bash: only a missing file is 127 */
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

static int runs_in_child(sh_exec *ex, const char *name);

/* A pipeline stage or subshell whose stdout reader went away ends like a
 * process killed by SIGPIPE. A program bash would run in a process of its
 * own dies alone: its status is 141 and the shell around it goes on. */
static void check_sigpipe(sh_exec *ex, int *st, const char *name) {
  stream *o = ex->fd[1];
  if (o && o->err == EPIPE && ex->is_stage && !ex->jump) {
    *st = 141;
    if (runs_in_child(ex, name))
      return;
    ex->jump = J_EXIT;
    ex->exit_status = 141;
  }
}

/* Would bash run this command in a child process (a program found on
 * PATH or by path, not a function or builtin)? Redirections show it:
 * {var}> and n>&m- change the shell itself only when it runs the command
 * without forking. */
static int runs_in_child(sh_exec *ex, const char *name) {
  if (strchr(name, '/'))
    return 1;
  if (sh_func_find(ex, name))
    return 0;
  if (sh_builtin_disabled(ex, name))
    return 1;
  if (sh_builtin_lookup(name))
    return strcmp(name, "bash") == 0 || strcmp(name, "sh") == 0;
  return !sh_is_bash_builtin(name);
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
      if (!ex->jump && (ex->opts & O_POSIX) && !(ex->opts & O_INTERACTIVE)) {
        /* POSIX mode ends the shell: a script with 1, a -c string with
         * bash's 127 */
        st = ex->script_name ? 1 : 127;
        sh_fatal(ex, st);
      } else if (!ex->jump) {
        sh_discard(ex);
      }
      goto out;
    }
    st = ex->has_cmdsub ? ex->cmdsub_status : 0;
    if (n->redirs) {
      sh_redir_save *save = NULL;
      size_t nsave = 0;
      /* bash runs a word-less command with {var}> in a child: the file
       * is opened, the variable and the fd are left as they were. */
      if (sh_redir_apply(ex, n->redirs, &save, &nsave, SH_REDIR_CHILD))
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
  /* POSIX mode: what the assignments before a special builtin leave in
   * the temporary scope stays afterwards (exported, as bash does). */
  int keep_temp = nassign && posix_special(ex, name) != NULL;
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
  if ((argv.n == 1 || (argv.n == 2 && strcmp(argv.v[1], "--") == 0)) &&
      strcmp(name, "exec") == 0 && !ex->fd_exec_guard) {
    /* exec with only redirections changes the shell's own fds */
    st = n->redirs && sh_redir_apply(ex, n->redirs, NULL, NULL, 1) ? 1 : 0;
    goto pop;
  }
  if (n->redirs &&
      sh_redir_apply(ex, n->redirs, &save, &nsave,
                     runs_in_child(ex, name) ? SH_REDIR_CHILD : 0)) {
    sh_redir_restore(ex, save, nsave);
    st = 1;
    goto pop;
  }
  sh_assign **saved_decl = ex->decl_assigns;
  sh_scope *saved_temp = ex->decl_temp;
  ex->decl_assigns = decl;
  ex->decl_temp = temp;
  st = sh_dispatch(ex, (int)argv.n, argv.v, 0);
  ex->decl_assigns = saved_decl;
  ex->decl_temp = saved_temp;
  check_sigpipe(ex, &st, name);
  sh_redir_restore(ex, save, nsave);
pop:
  if (temp) {
    sh_assign *keep = keep_temp && !ex->jump ? n->u.simple.assigns : NULL;
    size_t nk = 0;
    for (sh_assign *a = keep; a; a = a->next)
      nk++;
    char **kv = nk ? arena_calloc(ex->ar, 2 * nk * sizeof *kv) : NULL;
    if (nk && !kv)
      st = sh_oom(ex);
    size_t k = 0;
    for (sh_assign *a = kv ? keep : NULL; a; a = a->next, k++) {
      sh_var *v = sh_map_get(&temp->map, a->name);
      if (v && (v->flags & V_SET) && v->val) {
        kv[2 * k] = arena_strdup(ex->ar, a->name);
        kv[2 * k + 1] = arena_strndup(ex->ar, v->val, v->len);
        if (!kv[2 * k] || !kv[2 * k + 1])
          st = sh_oom(ex);
      }
    }
    /* Pop the temporary scope (and anything a builtin left above it). */
    while (ex->scope && ex->scope != temp)
      sh_scope_pop(ex);
    if (ex->scope == temp)
      sh_scope_pop(ex);
    for (size_t i = 0; kv && i < nk; i++)
      if (kv[2 * i] && kv[2 * i + 1])
        sh_setvar(ex, kv[2 * i], kv[2 * i + 1], strlen(kv[2 * i + 1]),
                  SV_EXPORT);
  }
  {
    /* declare a=(1 2) leaves the name alone in $_ */
    sh_assign *la = decl ? decl[argv.n - 1] : NULL;
    set_last_arg(ex, la && la->is_array ? la->name : argv.v[argv.n - 1]);
  }
  (void)name;
out:
  sh_procsub_finish(ex, pmark);
  arena_release(ex->ar, mk);
  if (ex->jump == J_ABORT)
    return ex->status = st;
  ex->status = st;
  ex->pipestatus[0] = st;
  ex->npipestatus = 1;
  if (ex->inverted != n)
    sh_after_command(ex, st);
  return st;
}
