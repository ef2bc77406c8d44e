/*
 * expand_ref.c - variables named by text at run time: the operand of
 * `unset 'a[$k]'`, `test -v 'a[$k]'`, `printf -v 'a[$k]'` and the target
 * of a nameref ('A[$key]', 'a[i+1]', 'a[@]'). bash expands such a
 * subscript when it is used, the way it would in ${name[sub]} (parameters,
 * $(...), quotes removed), so the text is parsed as exactly that.
 */
#include <string.h>

#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/syntax/parse.h"

/* "name[sub]" as text (an indirection's value, unset 'a[$k]'): bash
 * expands the subscript as it would in ${name[sub]} ($(...), ${...},
 * quotes), so it is parsed as exactly that. Rare, so the parse costs
 * nothing on common paths. */
sh_param *sh_subscripted_param(sh_exec *ex, const char *t, size_t tl) {
  char *src = arena_alloc(ex->ar, tl + 4);
  if (!src)
    return NULL;
  memcpy(src, "${", 2);
  memcpy(src + 2, t, tl);
  memcpy(src + 2 + tl, "}", 2);
  sh_node *n = NULL;
  const char *err = NULL;
  int line = 0;
  if (sh_parse_all(ex->ar, src, tl + 3, NULL, &n, &err, &line) || !n)
    return NULL;
  if (n->kind == N_LIST) {
    if (n->u.list.nitems != 1 || n->u.list.items[0].async)
      return NULL;
    n = n->u.list.items[0].node;
  }
  if (!n || n->kind != N_SIMPLE || n->redirs || n->u.simple.assigns ||
      n->u.simple.nwords != 1)
    return NULL;
  sh_word *w = n->u.simple.words[0];
  if (w->nparts != 1 || w->parts[0].kind != WP_PARAM)
    return NULL;
  sh_param *r = &w->parts[0].u.param;
  if (r->bad || r->op != PO_PLAIN || r->sub != PS_NONE || !r->name ||
      (!r->index && !r->index_at))
    return NULL;
  return r;
}

int sh_parse_ref(sh_exec *ex, const char *t, size_t tl, sh_ref *r) {
  memset(r, 0, sizeof *r);
  const char *br = memchr(t, '[', tl);
  if (!br) {
    if (!sh_valid_name(t, tl))
      return 1;
    r->name = arena_strndup(ex->ar, t, tl);
    return r->name ? 0 : sh_oom(ex);
  }
  size_t nl = (size_t)(br - t);
  if (!sh_valid_name(t, nl) || t[tl - 1] != ']' || br + 1 == t + tl - 1)
    return 1;
  r->name = arena_strndup(ex->ar, t, nl);
  if (!r->name)
    return sh_oom(ex);
  const char *in = br + 1;
  size_t il = tl - nl - 2;
  if (il == 1 && (*in == '@' || *in == '*')) {
    r->at = *in == '@' ? 1 : 2;
    return 0;
  }
  sh_param *p = sh_subscripted_param(ex, t, tl);
  if (!p)
    return 1;
  if (p->index_at) {
    r->at = p->index_at;
    return 0;
  }
  size_t sl = 0;
  char *s = sh_expand_str(ex, p->index, &sl);
  if (!s)
    return -1;
  r->sub = s;
  r->sublen = sl;
  return 0;
}

const char *sh_ref_value(sh_exec *ex, const char *t) {
  sh_ref r;
  if (sh_parse_ref(ex, t, strlen(t), &r))
    return NULL;
  if (!r.sub && !r.at)
    return sh_getvar(ex, r.name);
  sh_var *v = sh_special_array(ex, r.name);
  if (!v)
    v = sh_var_find(ex, r.name);
  if (!v || !(v->flags & V_SET))
    return NULL;
  if (r.at) /* name[@]: set when it has any element */
    return !v->arr || v->arr->n ? "" : NULL;
  if (!(v->flags & V_ASSOC) && r.sublen == 0)
    return NULL;
  return sh_getelem(ex, v, r.sub, r.sublen);
}
