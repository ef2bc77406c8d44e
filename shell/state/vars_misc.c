/*
 * vars_misc.c - the rest of the shell's named state: functions (each owns
 * a re-parsed copy of its definition, so it outlives the command that
 * defined it), aliases, positional parameters, the exported environment,
 * and declare -p / declare -f rendering.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "shell/sh.h"
#include "shell/syntax/parse.h"

/* ---- locale ------------------------------------------------------------- */

int sh_utf8(sh_exec *ex) {
  static const char *const names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3; i++) {
    int r = u8_locale_name(sh_getvar(ex, names[i]));
    if (r >= 0)
      return r;
  }
  return 0;
}

char *sh_case_conv(sh_exec *ex, const char *s, size_t n, int upper, int first,
                   size_t *outlen) {
  int utf8 = sh_utf8(ex);
  buf b;
  buf_init(&b, ex->m);
  size_t i = 0;
  while (i < n) {
    int32_t cp = (unsigned char)s[i];
    size_t k = 1;
    if (cp >= 0x80)
      k = utf8 ? u8_next(s + i, n - i, &cp) : (cp = -1, 1);
    int32_t to = cp < 0 ? cp : upper ? u8_toupper(cp) : u8_tolower(cp);
    char enc[4];
    size_t el = to != cp ? u8_encode(to, enc) : 0;
    if (el)
      buf_append(&b, enc, el);
    else
      buf_append(&b, s + i, k);
    i += k;
    if (first)
      break;
  }
  buf_append(&b, s + i, n - i);
  char *r = b.oom ? NULL : arena_strndup(ex->ar, buf_cstr(&b), b.len);
  *outlen = b.len;
  buf_free(&b);
  if (!r)
    sh_oom(ex);
  return r;
}

/* ---- positional parameters --------------------------------------------- */

sh_args *sh_args_new(mem *m, int n, char **v) {
  sh_args *a = mem_calloc(m, 1, sizeof *a);
  if (!a)
    return NULL;
  a->refs = 1;
  a->n = n;
  if (n) {
    a->v = mem_calloc(m, (size_t)n + 1, sizeof *a->v);
    if (!a->v) {
      mem_free(m, a);
      return NULL;
    }
    for (int i = 0; i < n; i++) {
      a->v[i] = mem_strdup(m, v[i]);
      if (!a->v[i]) {
        a->n = i;
        sh_args_unref(m, a);
        return NULL;
      }
    }
  }
  return a;
}

void sh_args_unref(mem *m, sh_args *a) {
  if (!a || --a->refs > 0)
    return;
  for (int i = 0; i < a->n; i++)
    mem_free(m, a->v[i]);
  mem_free(m, a->v);
  mem_free(m, a);
}

/* ---- functions --------------------------------------------------------- */

void sh_func_unref(mem *m, sh_func *f) {
  if (!f || --f->refs > 0)
    return;
  arena_destroy(&f->ar);
  mem_free(m, f->name);
  mem_free(m, f->src);
  mem_free(m, f->file);
  mem_free(m, f);
}

sh_func *sh_func_find(sh_exec *ex, const char *name) {
  for (sh_exec *e = ex; e; e = e->parent) {
    sh_func *f = sh_map_get(&e->funcs, name);
    if (f)
      return f->tomb ? NULL : f;
    if (e->funcs_flat)
      break;
  }
  return NULL;
}

static sh_node *find_funcdef(sh_node *n, const char *name) {
  if (!n)
    return NULL;
  if (n->kind == N_FUNCDEF && strcmp(n->u.func.name, name) == 0)
    return n;
  if (n->kind == N_LIST)
    for (size_t i = 0; i < n->u.list.nitems; i++) {
      sh_node *r = find_funcdef(n->u.list.items[i].node, name);
      if (r)
        return r;
    }
  return NULL;
}

static int put_func(sh_exec *ex, sh_func *f) {
  sh_func *old = sh_map_get(&ex->funcs, f->name);
  if (sh_map_put(ex->m, &ex->funcs, f))
    return -1;
  if (old)
    sh_func_unref(ex->m, old);
  return 0;
}

int sh_func_define(sh_exec *ex, const char *name, sh_node *def) {
  mem *m = ex->m;
  sh_func *f = mem_calloc(m, 1, sizeof *f);
  if (!f)
    return sh_oom(ex);
  f->refs = 1;
  arena_init(&f->ar, m);
  f->name = mem_strdup(m, name);
  f->line = def->line;
  /* Its BASH_SOURCE entry: the file being read (BASH_SOURCE[0]), and
   * "environment" for a command string, as bash names functions defined
   * before its startup is done. */
  const char *file = NULL;
  for (sh_frame *fr = ex->frame; fr && !file; fr = fr->up)
    if (fr->func)
      file = fr->source && *fr->source ? fr->source : "environment";
  f->file = mem_strdup(m, file ? file : "environment");
  if (!f->file) {
    sh_func_unref(m, f);
    return sh_oom(ex);
  }
  const char *src = def->u.func.src;
  size_t slen = def->u.func.src_len;
  if (src && slen) {
    f->src = mem_strndup(m, src, slen);
    f->src_len = slen;
    sh_parse_opts po = {0};
    po.first_line = def->line;
    sh_node *list = NULL;
    const char *err = NULL;
    int el = 0;
    if (f->src &&
        sh_parse_all(&f->ar, f->src, slen, &po, &list, &err, &el) == 0) {
      sh_node *d = find_funcdef(list, name);
      if (d)
        f->body = d->u.func.body;
    }
  }
  if (!f->body) {
    /* Could not re-parse the text: keep the original tree alive. */
    f->body = def->u.func.body;
    ex->run->keep_ast = 1;
  }
  if (!f->name || put_func(ex, f)) {
    sh_func_unref(m, f);
    return sh_oom(ex);
  }
  return 0;
}

int sh_func_unset(sh_exec *ex, const char *name) {
  sh_func *f = sh_map_get(&ex->funcs, name);
  if (!ex->funcs_flat && ex->parent && sh_func_find(ex->parent, name)) {
    /* Hide the parent's definition in this process only. */
    sh_func *t = mem_calloc(ex->m, 1, sizeof *t);
    if (!t)
      return sh_oom(ex);
    t->refs = 1;
    arena_init(&t->ar, ex->m);
    t->name = mem_strdup(ex->m, name);
    t->tomb = 1;
    put_func(ex, t);
    return 0;
  }
  if (f) {
    sh_map_del(&ex->funcs, name);
    sh_func_unref(ex->m, f);
  }
  return 0;
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

sh_func **sh_all_funcs(sh_exec *ex, arena *ar, size_t *n) {
  sh_map seen = {0};
  size_t cnt = 0, cap = 16;
  sh_func **v = arena_alloc(ar, cap * sizeof *v);
  for (sh_exec *e = ex; e && v; e = e->parent) {
    uint32_t i = 0;
    sh_func *f;
    while ((f = sh_map_next(&e->funcs, &i))) {
      if (sh_map_get(&seen, f->name))
        continue;
      if (sh_map_put(ex->m, &seen, f)) {
        v = NULL; /* a list with shadowed duplicates is no answer */
        break;
      }
      if (f->tomb)
        continue;
      if (cnt == cap) {
        sh_func **nv = arena_alloc(ar, cap * 2 * sizeof *nv);
        if (!nv) {
          v = NULL;
          break;
        }
        memcpy(nv, v, cnt * sizeof *nv);
        v = nv;
        cap *= 2;
      }
      v[cnt++] = f;
    }
    if (e->funcs_flat)
      break;
  }
  sh_map_free(ex->m, &seen);
  if (!v)
    sh_oom(ex);
  if (v && cnt > 1)
    qsort(v, cnt, sizeof *v, name_cmp);
  *n = v ? cnt : 0;
  return v;
}

int sh_print_func(sh_exec *ex, buf *b, sh_func *f) {
  /* Printed as a definition, so the body gets a function's layout (one
   * command a line, indented) whatever the text looked like. */
  sh_node def;
  memset(&def, 0, sizeof def);
  def.kind = N_FUNCDEF;
  def.u.func.name = f->name;
  def.u.func.body = f->body;
  sh_print_node(b, &def, 0);
  buf_putc(b, '\n');
  return 0;
}

/* ---- aliases ------------------------------------------------------------ */

typedef struct sh_alias {
  char *name;
  char *val;
} sh_alias;

const char *sh_alias_get(sh_exec *ex, const char *name) {
  if (!ex->aliases)
    return NULL;
  sh_alias *a = sh_map_get(ex->aliases, name);
  return a ? a->val : NULL;
}

/* A new entry name=val in map; out of memory ends the exec. */
static int alias_add(sh_exec *ex, sh_map *map, const char *name,
                     const char *val) {
  sh_alias *a = mem_calloc(ex->m, 1, sizeof *a);
  if (a) {
    a->name = mem_strdup(ex->m, name);
    a->val = mem_strdup(ex->m, val);
  }
  if (!a || !a->name || !a->val || sh_map_put(ex->m, map, a)) {
    if (a) {
      mem_free(ex->m, a->name);
      mem_free(ex->m, a->val);
      mem_free(ex->m, a);
    }
    return sh_oom(ex);
  }
  return 0;
}

static int own_aliases(sh_exec *ex) {
  if (ex->aliases_owned)
    return 0;
  sh_map *nm = mem_calloc(ex->m, 1, sizeof *nm);
  if (!nm)
    return sh_oom(ex);
  sh_map *old = ex->aliases;
  /* Owned from here, so a copy cut short is freed with the shell. */
  ex->aliases = nm;
  ex->aliases_owned = 1;
  if (old) {
    uint32_t i = 0;
    sh_alias *a;
    while ((a = sh_map_next(old, &i)))
      if (alias_add(ex, nm, a->name, a->val))
        return -1;
  }
  return 0;
}

int sh_alias_set(sh_exec *ex, const char *name, const char *val) {
  if (own_aliases(ex))
    return -1;
  sh_alias *a = sh_map_get(ex->aliases, name);
  if (a) {
    char *nv = mem_strdup(ex->m, val);
    if (!nv)
      return sh_oom(ex);
    mem_free(ex->m, a->val);
    a->val = nv;
    return 0;
  }
  return alias_add(ex, ex->aliases, name, val);
}

int sh_alias_unset(sh_exec *ex, const char *name) {
  if (!sh_alias_get(ex, name))
    return 1;
  if (own_aliases(ex))
    return -1;
  sh_alias *a = sh_map_del(ex->aliases, name);
  if (a) {
    mem_free(ex->m, a->name);
    mem_free(ex->m, a->val);
    mem_free(ex->m, a);
  }
  return 0;
}

void sh_aliases_copy(sh_exec *ex) {
  ex->aliases_owned = 0;
  own_aliases(ex);
}

void sh_aliases_free(sh_exec *ex) {
  if (!ex->aliases_owned || !ex->aliases)
    return;
  uint32_t i = 0;
  sh_alias *a;
  while ((a = sh_map_next(ex->aliases, &i))) {
    mem_free(ex->m, a->name);
    mem_free(ex->m, a->val);
    mem_free(ex->m, a);
  }
  sh_map_free(ex->m, ex->aliases);
  mem_free(ex->m, ex->aliases);
  ex->aliases = NULL;
  ex->aliases_owned = 0;
}

/* ---- listing variables --------------------------------------------------- */

sh_var **sh_all_vars(sh_exec *ex, arena *ar, size_t *n) {
  sh_map seen = {0};
  size_t cnt = 0, cap = 64;
  sh_var **v = arena_alloc(ar, cap * sizeof *v);
  for (sh_scope *s = ex->scope; s && v; s = s->up) {
    uint32_t i = 0;
    sh_var *x;
    while ((x = sh_map_next(&s->map, &i))) {
      if (sh_map_get(&seen, x->name))
        continue;
      if (sh_map_put(ex->m, &seen, x)) {
        v = NULL; /* a list with shadowed duplicates is no answer */
        break;
      }
      if (x->flags & V_TOMB)
        continue;
      if (cnt == cap) {
        sh_var **nv = arena_alloc(ar, cap * 2 * sizeof *nv);
        if (!nv) {
          v = NULL;
          break;
        }
        memcpy(nv, v, cnt * sizeof *nv);
        v = nv;
        cap *= 2;
      }
      v[cnt++] = x;
    }
  }
  sh_map_free(ex->m, &seen);
  if (!v)
    sh_oom(ex);
  if (v && cnt > 1)
    qsort(v, cnt, sizeof *v, name_cmp);
  *n = v ? cnt : 0;
  return v;
}

char **sh_environ(sh_exec *ex, arena *ar) {
  size_t n = 0;
  sh_var **all = sh_all_vars(ex, ar, &n);
  char **env = arena_alloc(ar, (n + 1) * sizeof *env);
  if (!env || !all)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    sh_var *v = all[i];
    if (!(v->flags & V_EXPORT) || !(v->flags & V_SET))
      continue;
    if (v->flags & (V_ARRAY | V_ASSOC))
      continue; /* bash does not export arrays */
    size_t nl = strlen(v->name);
    char *s = arena_alloc(ar, nl + v->len + 2);
    if (!s)
      break;
    memcpy(s, v->name, nl);
    s[nl] = '=';
    memcpy(s + nl + 1, v->val ? v->val : "", v->len);
    s[nl + 1 + v->len] = 0;
    env[k++] = s;
  }
  env[k] = NULL;
  return env;
}

/* ---- declare -p -------------------------------------------------------- */

static int has_ctl(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f)
      return 1;
  }
  return 0;
}

/* declare -p quoting: "..." with \" \\ \$ \` escaped, or $'...' when the
 * value holds control characters. */
void sh_quote_dq(buf *b, const char *s, size_t n) {
  if (has_ctl(s, n)) {
    sh_quote(b, s, n);
    return;
  }
  buf_putc(b, '"');
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '"' || c == '\\' || c == '$' || c == '`')
      buf_putc(b, '\\');
    buf_putc(b, c);
  }
  buf_putc(b, '"');
}

static void attr_letters(buf *b, unsigned f) {
  size_t start = b->len;
  if (f & V_ARRAY)
    buf_putc(b, 'a');
  if (f & V_ASSOC)
    buf_putc(b, 'A');
  if (f & V_INTEGER)
    buf_putc(b, 'i');
  if (f & V_NAMEREF)
    buf_putc(b, 'n');
  if (f & V_READONLY)
    buf_putc(b, 'r');
  if (f & V_EXPORT)
    buf_putc(b, 'x');
  if (f & V_LOWER)
    buf_putc(b, 'l');
  if (f & V_UPPER)
    buf_putc(b, 'u');
  if (b->len == start)
    buf_putc(b, '-');
}

void sh_print_var(sh_exec *ex, buf *b, sh_var *v, int decl) {
  if (decl) {
    buf_puts(b, "declare -");
    attr_letters(b, v->flags);
    buf_putc(b, ' ');
  }
  buf_puts(b, v->name);
  if (!(v->flags & V_SET)) {
    buf_putc(b, '\n');
    return;
  }
  buf_putc(b, '=');
  if (v->flags & V_ASSOC) {
    buf_putc(b, '(');
    sh_aent **ord = sh_arr_assoc_order(ex->ar, v->arr);
    for (size_t i = 0; ord && ord[i]; i++) {
      buf_putc(b, '[');
      const char *k = ord[i]->key;
      if (sh_needs_quote(k, strlen(k)))
        sh_quote_dq(b, k, strlen(k));
      else
        buf_puts(b, k);
      buf_puts(b, "]=");
      sh_quote_dq(b, ord[i]->val, strlen(ord[i]->val));
      buf_putc(b, ' ');
    }
    buf_puts(b, ")\n");
    return;
  }
  if (v->flags & V_ARRAY) {
    buf_putc(b, '(');
    for (size_t i = 0; v->arr && i < v->arr->n; i++) {
      if (i)
        buf_putc(b, ' ');
      buf_printf(b, "[%lld]=", (long long)v->arr->e[i].idx);
      sh_quote_dq(b, v->arr->e[i].val, strlen(v->arr->e[i].val));
    }
    buf_puts(b, ")\n");
    return;
  }
  if (decl)
    sh_quote_dq(b, v->val ? v->val : "", v->len);
  else if (v->len && sh_needs_quote(v->val, v->len))
    sh_quote(b, v->val, v->len);
  else if (v->len) /* set prints a value that needs no quotes bare */
    buf_append(b, v->val, v->len);
  buf_putc(b, '\n');
}

/* ---- quoting ----------------------------------------------------------- */

int sh_needs_quote(const char *s, size_t n) {
  if (n == 0)
    return 1;
  if (s[0] == '~' || s[0] == '#')
    return 1;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f || strchr(" '\"\\|&;()<>!{}*[]?^$`", c))
      return 1;
  }
  return 0;
}

/* bash's single-quote style: 'it'\''s', or $'..' for control chars. */
void sh_quote(buf *b, const char *s, size_t n) {
  if (has_ctl(s, n)) {
    buf_puts(b, "$'");
    for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)s[i];
      switch (c) {
      case '\n':
        buf_puts(b, "\\n");
        break;
      case '\t':
        buf_puts(b, "\\t");
        break;
      case '\r':
        buf_puts(b, "\\r");
        break;
      case '\a':
        buf_puts(b, "\\a");
        break;
      case '\b':
        buf_puts(b, "\\b");
        break;
      case '\f':
        buf_puts(b, "\\f");
        break;
      case '\v':
        buf_puts(b, "\\v");
        break;
      case 27:
        buf_puts(b, "\\E");
        break;
      case '\'':
        buf_puts(b, "\\'");
        break;
      case '\\':
        buf_puts(b, "\\\\");
        break;
      default:
        if (c < 0x20 || c == 0x7f)
          buf_printf(b, "\\%03o", c);
        else
          buf_putc(b, (char)c);
      }
    }
    buf_putc(b, '\'');
    return;
  }
  buf_putc(b, '\'');
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\'')
      buf_puts(b, "'\\''");
    else
      buf_putc(b, s[i]);
  }
  buf_putc(b, '\'');
}
