/*
 * expand_param.c - ${...}: special and positional parameters, arrays,
 * indirection, and every operator of sh_param_sub, with bash's rules for
 * unset vs. empty, lists ("$@", "${a[@]}") and set -u.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "core/utf8.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/syntax/parse.h"

static int bad_subst(sh_exec *ex, sh_param *p) {
  (void)p;
  sh_err(ex, "bad substitution");
  sh_discard(ex);
  return -1;
}

static void set_str(pval *v, const char *s) {
  if (!s) {
    v->kind = PV_UNSET;
    v->s = "";
    v->len = 0;
    return;
  }
  v->kind = PV_STR;
  v->s = s;
  v->len = strlen(s);
}

static char *itoa_ar(sh_exec *ex, long long n) {
  char *b = arena_alloc(ex->ar, 24);
  if (b)
    sh_fmt_int(b, n);
  return b;
}

const char *sh_dollar_dash(sh_exec *ex, char *out);
const char *sh_dollar_dash(sh_exec *ex, char *out) {
  char *p = out;
  unsigned o = ex->opts;
  if (o & O_ALLEXPORT)
    *p++ = 'a';
  if (o & O_ERREXIT)
    *p++ = 'e';
  if (o & O_NOGLOB)
    *p++ = 'f';
  if (o & O_HASHALL)
    *p++ = 'h';
  if (o & O_INTERACTIVE)
    *p++ = 'i';
  if (o & O_NOEXEC)
    *p++ = 'n';
  if (o & O_NOUNSET)
    *p++ = 'u';
  if (o & O_VERBOSE)
    *p++ = 'v';
  if (o & O_XTRACE)
    *p++ = 'x';
  if (o & O_BRACEEXPAND)
    *p++ = 'B';
  if (o & O_NOCLOBBER)
    *p++ = 'C';
  if (o & O_ERRTRACE)
    *p++ = 'E';
  if (o & O_HISTEXPAND)
    *p++ = 'H';
  if (o & O_FUNCTRACE)
    *p++ = 'T';
  /* where commands come from: -c STRING (the sandbox's own scripts run
   * that way), standard input, or a script file (no letter) */
  if (o & O_SRC_STDIN)
    *p++ = 's';
  else if (!(o & O_SRC_FILE))
    *p++ = 'c';
  *p = 0;
  return out;
}

/* Positional list; with_zero includes $0 first (for ${@:0}). */
static void positional(sh_exec *ex, pval *v, int with_zero) {
  int n = ex->args ? ex->args->n : 0;
  v->kind = PV_LIST;
  if (!with_zero) {
    v->v = n ? ex->args->v : NULL;
    v->n = (size_t)n;
    return;
  }
  char **a = arena_alloc(ex->ar, ((size_t)n + 2) * sizeof *a);
  if (!a) {
    v->n = 0;
    return;
  }
  a[0] = ex->arg0 ? ex->arg0 : "bash";
  for (int i = 0; i < n; i++)
    a[i + 1] = ex->args->v[i];
  v->v = a;
  v->n = (size_t)n + 1;
}

static void array_list(sh_exec *ex, sh_var *var, pval *v) {
  v->kind = PV_LIST;
  v->n = 0;
  v->v = NULL;
  if (!var || !(var->flags & V_SET))
    return;
  if (!(var->flags & (V_ARRAY | V_ASSOC))) {
    char **a = arena_alloc(ex->ar, 2 * sizeof *a);
    if (!a)
      return;
    a[0] = var->val ? var->val : "";
    v->v = a;
    v->n = 1;
    return;
  }
  sh_arr *arr = var->arr;
  size_t n = arr ? arr->n : 0;
  char **a = arena_alloc(ex->ar, (n + 1) * sizeof *a);
  if (!a)
    return;
  if (var->flags & V_ASSOC) {
    sh_aent **ord = sh_arr_assoc_order(ex->ar, arr);
    for (size_t i = 0; ord && i < n; i++)
      a[i] = ord[i]->val;
  } else {
    for (size_t i = 0; i < n; i++)
      a[i] = arr->e[i].val;
  }
  v->v = a;
  v->n = n;
}

/* $ref where ref is a nameref to an array element or to a[@] (which
 * expands like "${a[@]}"), else an unset or special name's value. */
static int nameref_elem_value(sh_exec *ex, const char *name, pval *v,
                              sh_var **var) {
  sh_ref r;
  int k = sh_nameref_elem(ex, name, &r);
  if (k <= 0) {
    set_str(v, k < 0 ? NULL : sh_getvar(ex, name));
    return k;
  }
  *var = sh_var_find(ex, r.name);
  if (r.at) {
    array_list(ex, *var, v);
    v->star = r.at == 2;
    return 0;
  }
  set_str(v, *var ? sh_getelem(ex, *var, r.sub, r.sublen) : NULL);
  return ex->jump ? -1 : 0;
}

/* The value of a parameter before any operator. *var gets the variable
 * (NULL for specials). */
static int base_value(sh_exec *ex, sh_param *p, const char *name,
                      sh_word *index, int index_at, pval *v, sh_var **var) {
  *var = NULL;
  v->star = 0;
  char c = name[0];
  if (name[1] == 0 && !isalpha((unsigned char)c) && c != '_') {
    char *b;
    switch (c) {
    case '@':
    case '*':
      positional(ex, v, 0);
      v->star = c == '*';
      return 0;
    case '#':
      set_str(v, itoa_ar(ex, ex->args ? ex->args->n : 0));
      return 0;
    case '?':
      set_str(v, itoa_ar(ex, ex->status));
      return 0;
    case '$':
      set_str(v, ex->shell_pid > 1 ? itoa_ar(ex, ex->shell_pid) : "1");
      return 0;
    case '!':
      set_str(v, ex->last_bg_pid ? itoa_ar(ex, ex->last_bg_pid) : NULL);
      return 0;
    case '-':
      b = arena_alloc(ex->ar, 32);
      set_str(v, b ? sh_dollar_dash(ex, b) : "");
      return 0;
    case '0':
      set_str(v, ex->arg0 ? ex->arg0 : "bash");
      return 0;
    }
  }
  if (isdigit((unsigned char)c)) {
    long k = strtol(name, NULL, 10);
    if (k == 0) {
      set_str(v, ex->arg0 ? ex->arg0 : "bash");
      return 0;
    }
    set_str(v, ex->args && k <= ex->args->n ? ex->args->v[k - 1] : NULL);
    return 0;
  }
  if (c == '_' && name[1] == 0) {
    set_str(v, ex->last_arg ? ex->last_arg : "");
    return 0;
  }
  if (index_at) {
    sh_var *sv = sh_special_array(ex, name);
    *var = sv ? sv : sh_var_find(ex, name);
    array_list(ex, *var, v);
    v->star = index_at == 2;
    return 0;
  }
  if (!index) {
    if (sh_is_special_var(name) || name[0] == 'P' || name[0] == 'F' ||
        name[0] == 'B') {
      /* PIPESTATUS, FUNCNAME, BASH_* arrays are materialised on demand. */
      sh_var *sv = sh_special_array(ex, name);
      if (sv) {
        *var = sv;
        set_str(v, sv->arr && sv->arr->n && sv->arr->e[0].idx == 0
                       ? sv->arr->e[0].val
                       : NULL);
        return 0;
      }
    }
    *var = sh_var_find(ex, name);
    if (!*var)
      return nameref_elem_value(ex, name, v, var);
    set_str(v, sh_getvar(ex, name));
    return 0;
  }
  sh_var *sv = sh_special_array(ex, name);
  *var = sv ? sv : sh_var_find(ex, name);
  if (index_at) {
    array_list(ex, *var, v);
    v->star = index_at == 2;
    return 0;
  }
  size_t il;
  char *sub = sh_expand_str(ex, index, &il);
  if (!sub)
    return -1;
  if (!*var) {
    /* still evaluate the subscript for side effects */
    set_str(v, NULL);
    return 0;
  }
  if (!((*var)->flags & V_ASSOC) && il == 0) {
    sh_err(ex, "%s: bad array subscript", name);
    return -1;
  }
  set_str(v, sh_getelem(ex, *var, sub, il));
  return ex->jump ? -1 : 0;
}

/* Characters in s: UTF-8 sequences in a UTF-8 locale (an invalid byte
 * counting as one, as bash counts it), else bytes. */
static size_t char_count(int utf8, const char *s, size_t n) {
  return utf8 ? u8_count(s, n) : n;
}

/* Byte offset of character index ci (n past the end). */
static size_t char_off(int utf8, const char *s, size_t n, size_t ci) {
  if (!utf8)
    return ci < n ? ci : n;
  return u8_offset(s, n, ci);
}

typedef struct xctx {
  sh_exec *ex;
  sh_param *p;
  const char *pat;
  size_t plen;
  const char *rep;
  size_t rlen;
  int rep_amp; /* replacement holds an unquoted & */
  int64_t off, len;
  int has_len;
} xctx;

static char *subst_rep(xctx *x, const char *m, size_t mlen, size_t *outlen) {
  /* The replacement was expanded as a pattern: "\c" is a literal c, an
   * unescaped & is the matched text (bash 5.2 patsub_replacement). */
  buf b;
  buf_init(&b, x->ex->m);
  for (size_t i = 0; i < x->rlen; i++) {
    char c = x->rep[i];
    if (c == '\\' && i + 1 < x->rlen) {
      buf_putc(&b, x->rep[++i]);
    } else if (c == '&' && (x->ex->shopts & SO_PATSUB_REPLACEMENT)) {
      buf_append(&b, m, mlen);
    } else {
      buf_putc(&b, c);
    }
  }
  char *r = arena_strndup(x->ex->ar, buf_cstr(&b), b.len);
  *outlen = b.len;
  buf_free(&b);
  return r;
}

static const char *replace(xctx *x, const char *s, size_t n) {
  sh_exec *ex = x->ex;
  unsigned fl = sh_pat_flags(ex);
  int utf8 = !(fl & PAT_BYTES);
  fl = pat_charset(x->pat, x->plen, s, n, fl);
  sh_param_sub sub = x->p->sub;
  buf b;
  buf_init(&b, ex->m);
  if (sub == PS_REPLACE_PRE || sub == PS_REPLACE_SUF) {
    long ml;
    if (sub == PS_REPLACE_PRE)
      ml = pat_prefix(x->pat, x->plen, s, n, 1, fl);
    else
      ml = pat_suffix(x->pat, x->plen, s, n, 1, fl);
    if (ml < 0) {
      buf_free(&b);
      return s;
    }
    size_t rl;
    if (sub == PS_REPLACE_PRE) {
      char *r = subst_rep(x, s, (size_t)ml, &rl);
      buf_append(&b, r, rl);
      buf_append(&b, s + ml, n - (size_t)ml);
    } else {
      char *r = subst_rep(x, s + n - ml, (size_t)ml, &rl);
      buf_append(&b, s, n - (size_t)ml);
      buf_append(&b, r, rl);
    }
  } else {
    if (x->plen == 0) {
      buf_free(&b);
      return s;
    }
    size_t from = 0;
    int all = sub == PS_REPLACE_ALL;
    /* Like bash, never try to match the empty tail of a non-empty
     * string: a pattern matching all of it replaces once, not twice. */
    while (from < n || (n == 0 && from == 0)) {
      size_t ml = 0;
      long at = pat_find(x->pat, x->plen, s, n, from, &ml, fl);
      if (at < 0)
        break;
      buf_append(&b, s + from, (size_t)at - from);
      size_t rl;
      char *r = subst_rep(x, s + at, ml, &rl);
      buf_append(&b, r, rl);
      from = (size_t)at + ml;
      if (ml == 0) {
        /* an empty match: keep the next character and look after it (a
         * character of the locale even when invalid bytes made the
         * matching bytewise, as in bash) */
        size_t cl = 1;
        int32_t cp;
        if ((size_t)at < n && utf8)
          cl = u8_next(s + at, n - (size_t)at, &cp);
        if ((size_t)at < n)
          buf_append(&b, s + at, cl);
        from += cl;
      }
      if (!all)
        break;
    }
    if (from < n)
      buf_append(&b, s + from, n - from);
  }
  char *r = arena_strndup(ex->ar, buf_cstr(&b), b.len);
  buf_free(&b);
  return r;
}

/* ${x^p} ${x^^p} ${x,p} ${x,,p}: the case of each character (the first
 * only for a single ^ or ,) matching p changed. Characters are UTF-8 ones
 * in a UTF-8 locale, where any letter has a case; in the C locale only
 * ASCII letters do. */
static const char *casemod(xctx *x, const char *s, size_t n) {
  sh_exec *ex = x->ex;
  sh_param_sub sub = x->p->sub;
  int upper = sub == PS_UPPER_FIRST || sub == PS_UPPER_ALL;
  int all = sub == PS_UPPER_ALL || sub == PS_LOWER_ALL;
  unsigned fl = pat_charset(x->pat, x->plen, s, n, sh_pat_flags(ex));
  buf b;
  buf_init(&b, ex->m);
  size_t i = 0;
  while (i < n) {
    int32_t cp = (unsigned char)s[i];
    size_t k = 1;
    if (cp >= 0x80)
      k = (fl & PAT_BYTES) ? (cp = -1, 1) : u8_next(s + i, n - i, &cp);
    int ok = !x->plen || pat_match(x->pat, x->plen, s + i, k, fl);
    int32_t to = cp;
    if (ok && cp >= 0)
      to = upper ? u8_toupper(cp) : u8_tolower(cp);
    char enc[4];
    size_t el = to != cp ? u8_encode(to, enc) : 0;
    if (el)
      buf_append(&b, enc, el);
    else
      buf_append(&b, s + i, k);
    i += k;
    if (!all)
      break;
  }
  buf_append(&b, s + i, n - i);
  char *r = b.oom ? NULL : arena_strndup(ex->ar, buf_cstr(&b), b.len);
  buf_free(&b);
  if (!r) {
    sh_oom(ex);
    return s;
  }
  return r;
}

/* $'...'-style backslash escapes, for ${x@E}. */
static const char *ansi_expand(sh_exec *ex, const char *s, size_t n) {
  buf b;
  buf_init(&b, ex->m);
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      buf_putc(&b, s[i]);
      continue;
    }
    char c = s[++i];
    switch (c) {
    case 'n':
      buf_putc(&b, '\n');
      break;
    case 't':
      buf_putc(&b, '\t');
      break;
    case 'r':
      buf_putc(&b, '\r');
      break;
    case 'a':
      buf_putc(&b, '\a');
      break;
    case 'b':
      buf_putc(&b, '\b');
      break;
    case 'f':
      buf_putc(&b, '\f');
      break;
    case 'v':
      buf_putc(&b, '\v');
      break;
    case 'e':
    case 'E':
      buf_putc(&b, 27);
      break;
    case '\\':
    case '\'':
    case '"':
    case '?':
      buf_putc(&b, c);
      break;
    case 'x': {
      int v = 0, k = 0;
      while (k < 2 && i + 1 < n && isxdigit((unsigned char)s[i + 1])) {
        char h = s[++i];
        v = v * 16 +
            (isdigit((unsigned char)h) ? h - '0' : (tolower(h) - 'a' + 10));
        k++;
      }
      if (k)
        buf_putc(&b, (char)v);
      else
        buf_puts(&b, "\\x");
      break;
    }
    default:
      if (c >= '0' && c <= '7') {
        int v = c - '0', k = 1;
        while (k < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
          v = v * 8 + (s[++i] - '0');
          k++;
        }
        buf_putc(&b, (char)v);
      } else {
        buf_putc(&b, '\\');
        buf_putc(&b, c);
      }
    }
  }
  char *r = arena_strndup(ex->ar, buf_cstr(&b), b.len);
  buf_free(&b);
  return r;
}

static const char *attr_string(sh_exec *ex, sh_var *v) {
  char *b = arena_alloc(ex->ar, 16);
  if (!b)
    return "";
  char *p = b;
  if (v) {
    unsigned f = v->flags;
    if (f & V_ARRAY)
      *p++ = 'a';
    if (f & V_ASSOC)
      *p++ = 'A';
    if (f & V_INTEGER)
      *p++ = 'i';
    if (f & V_NAMEREF)
      *p++ = 'n';
    if (f & V_READONLY)
      *p++ = 'r';
    if (f & V_EXPORT)
      *p++ = 'x';
    if (f & V_LOWER)
      *p++ = 'l';
    if (f & V_UPPER)
      *p++ = 'u';
  }
  *p = 0;
  return b;
}

/* One element through a string operator. */
static const char *apply_one(xctx *x, const char *s, size_t n, sh_var *var) {
  sh_exec *ex = x->ex;
  unsigned fl = sh_pat_flags(ex);
  sh_param_sub sub = x->p->sub;
  if (sub == PS_TRIM_SP || sub == PS_TRIM_LP || sub == PS_TRIM_SS ||
      sub == PS_TRIM_LS)
    fl = pat_charset(x->pat, x->plen, s, n, fl);
  switch (x->p->sub) {
  case PS_TRIM_SP:
  case PS_TRIM_LP: {
    long k = pat_prefix(x->pat, x->plen, s, n, x->p->sub == PS_TRIM_LP, fl);
    return k < 0 ? s : s + k;
  }
  case PS_TRIM_SS:
  case PS_TRIM_LS: {
    long k = pat_suffix(x->pat, x->plen, s, n, x->p->sub == PS_TRIM_LS, fl);
    return k < 0 ? s : arena_strndup(ex->ar, s, n - (size_t)k);
  }
  case PS_REPLACE:
  case PS_REPLACE_ALL:
  case PS_REPLACE_PRE:
  case PS_REPLACE_SUF:
    return replace(x, s, n);
  case PS_UPPER_FIRST:
  case PS_UPPER_ALL:
  case PS_LOWER_FIRST:
  case PS_LOWER_ALL:
    return casemod(x, s, n);
  case PS_SLICE: {
    int utf8 = sh_utf8(ex);
    size_t cl = char_count(utf8, s, n);
    int64_t off = x->off;
    if (off < 0)
      off += (int64_t)cl;
    if (off < 0 || off > (int64_t)cl)
      return NULL;
    int64_t end = (int64_t)cl;
    if (x->has_len) {
      if (x->len < 0) {
        end = (int64_t)cl + x->len;
        if (end < off) {
          sh_err(ex, "%lld: substring expression < 0", (long long)x->len);
          return (const char *)-1;
        }
      } else if (off + x->len < end) {
        end = off + x->len;
      }
    }
    size_t b0 = char_off(utf8, s, n, (size_t)off);
    size_t b1 = b0 + char_off(utf8, s + b0, n - b0, (size_t)(end - off));
    return arena_strndup(ex->ar, s + b0, b1 - b0);
  }
  case PS_TRANSFORM: {
    buf b;
    buf_init(&b, ex->m);
    const char *r = s;
    switch (x->p->transform) {
    case 'Q':
      sh_quote(&b, s, n);
      r = arena_strndup(ex->ar, buf_cstr(&b), b.len);
      break;
    case 'E':
      r = ansi_expand(ex, s, n);
      break;
    case 'P': {
      size_t pl;
      r = sh_prompt_expand(ex, s, n, &pl);
      break;
    }
    case 'u':
    case 'U':
    case 'L': {
      size_t tl;
      r = sh_case_conv(ex, s, n, x->p->transform != 'L', x->p->transform == 'u',
                       &tl);
      break;
    }
    case 'a':
      r = attr_string(ex, var);
      break;
    case 'A': {
      const char *nm = x->p->name;
      const char *at = attr_string(ex, var);
      if (*at)
        buf_printf(&b, "declare -%s %s=", at, nm);
      else
        buf_printf(&b, "%s=", nm);
      sh_quote(&b, s, n);
      r = arena_strndup(ex->ar, buf_cstr(&b), b.len);
      break;
    }
    case 'K':
    case 'k': /* a scalar's value quoted, as with K */
      sh_quote(&b, s, n);
      r = arena_strndup(ex->ar, buf_cstr(&b), b.len);
      break;
    default:
      r = s;
    }
    buf_free(&b);
    return r;
  }
  default:
    return s;
  }
}

/* bash exits 127 on an unbound variable under set -u, but 1 when errexit
 * is also set (whether or not it is suppressed at that point). */
static int unbound_status(sh_exec *ex) {
  /* the shell itself exits 127; a subshell or $(...) exits 1 */
  return (ex->opts & O_ERREXIT) || ex->in_subshell ? 1 : 127;
}

/* An interactive shell only drops the rest of the command line. */
static void unbound_stop(sh_exec *ex) {
  if (ex->opts & O_INTERACTIVE)
    sh_discard(ex);
  else
    sh_fatal(ex, unbound_status(ex));
}

static int is_null(pval *v) {
  if (v->kind == PV_UNSET)
    return 1;
  if (v->kind == PV_STR)
    return v->len == 0;
  if (v->kind == PV_LIST) {
    if (v->n == 0)
      return 1;
    if (v->n == 1 && !v->v[0][0])
      return 1;
    return 0;
  }
  return 0;
}

static int eval_num(sh_exec *ex, sh_word *w, int64_t *out) {
  size_t l;
  char *t = w ? sh_expand_str(ex, w, &l) : arena_strdup(ex->ar, "0");
  if (!t)
    return -1;
  int err = 0;
  *out = sh_arith(ex, t, l, &err);
  if (err) {
    if (!ex->jump)
      sh_discard(ex);
    return -1;
  }
  return 0;
}

/* Keep the elements of the list v from x->off on (counted from the end
 * when negative), at most x->len of them when a length is given and is
 * not negative. An offset out of range keeps none and returns -1. */
static int slice_elems(pval *v, const xctx *x) {
  int64_t n = (int64_t)v->n, off = x->off;
  if (off < 0)
    off += n;
  if (off < 0 || off > n) {
    v->n = 0;
    return -1;
  }
  int64_t end = n;
  if (x->has_len && x->len >= 0 && off + x->len < end)
    end = off + x->len;
  if (off) /* an empty list may have no array at all */
    v->v += off;
  v->n = (size_t)(end - off);
  return 0;
}

/* ${a[@]:off:len} and ${@:off:len}. */
static int slice_list(sh_exec *ex, sh_param *p, sh_var *var, pval *v, xctx *x) {
  int pos = p->name[0] == '@' || p->name[0] == '*';
  if (pos) {
    pval all = {0};
    positional(ex, &all, 1);
    /* A negative length is an error here, once the offset is in range. */
    if (slice_elems(&all, x) == 0 && x->has_len && x->len < 0) {
      sh_err(ex, "%lld: substring expression < 0", (long long)x->len);
      return -1;
    }
    v->v = all.v;
    v->n = all.n;
    return 0;
  }
  if (var && (var->flags & V_ARRAY) && var->arr) {
    sh_arr *a = var->arr;
    int64_t off = x->off;
    if (off < 0)
      off += sh_arr_max_index(a) + 1;
    if (off < 0) {
      v->n = 0;
      return 0;
    }
    if (x->has_len && x->len < 0) {
      sh_err(ex, "%lld: substring expression < 0", (long long)x->len);
      return -1;
    }
    char **o = arena_alloc(ex->ar, (a->n + 1) * sizeof *o);
    size_t k = 0;
    for (size_t i = 0; o && i < a->n; i++) {
      if (a->e[i].idx < off)
        continue;
      if (x->has_len && (int64_t)k >= x->len)
        break;
      o[k++] = a->e[i].val;
    }
    v->v = o;
    v->n = k;
    return 0;
  }
  if (var && (var->flags & V_ASSOC)) {
    /* bash counts an associative array's elements from 1 here: offsets 0
     * and 1 both start at the first, -1 at the last, and a length of 0
     * still keeps one element. */
    int64_t n = (int64_t)v->n, s = x->off < 0 ? n + 1 + x->off : x->off;
    if (x->has_len && x->len < 0) {
      sh_err(ex, "%lld: substring expression < 0", (long long)x->len);
      return -1;
    }
    if (s < 0 || s > n) {
      v->n = 0;
      return 0;
    }
    if (s == 0)
      s = 1;
    int64_t cnt = n - (s - 1);
    if (x->has_len && (x->len ? x->len : 1) < cnt)
      cnt = x->len ? x->len : 1;
    if (s > 1) /* an empty list may have no array at all */
      v->v += s - 1;
    v->n = (size_t)cnt;
    return 0;
  }
  /* scalars: slice the element list */
  slice_elems(v, x);
  return 0;
}

static int names_with_prefix(sh_exec *ex, const char *prefix, pval *v) {
  size_t n;
  sh_var **all = sh_all_vars(ex, ex->ar, &n);
  char **o = arena_alloc(ex->ar, (n + 1) * sizeof *o);
  if (!o || !all)
    return sh_oom(ex);
  size_t k = 0, pl = strlen(prefix);
  for (size_t i = 0; i < n; i++)
    if (strncmp(all[i]->name, prefix, pl) == 0 &&
        (all[i]->flags & (V_SET | V_ARRAY | V_ASSOC)))
      o[k++] = all[i]->name;
  v->kind = PV_LIST;
  v->v = o;
  v->n = k;
  return 0;
}

static int keys_of(sh_exec *ex, sh_var *var, pval *v) {
  v->kind = PV_LIST;
  v->n = 0;
  v->v = NULL;
  if (!var || !(var->flags & V_SET))
    return 0;
  if (!(var->flags & (V_ARRAY | V_ASSOC))) {
    char **o = arena_alloc(ex->ar, 2 * sizeof *o);
    if (!o)
      return sh_oom(ex);
    o[0] = "0";
    v->v = o;
    v->n = 1;
    return 0;
  }
  size_t n = var->arr ? var->arr->n : 0;
  char **o = arena_alloc(ex->ar, (n + 1) * sizeof *o);
  if (!o)
    return sh_oom(ex);
  if (var->flags & V_ASSOC) {
    sh_aent **ord = sh_arr_assoc_order(ex->ar, var->arr);
    for (size_t i = 0; ord && i < n; i++)
      o[i] = ord[i]->key;
  } else {
    for (size_t i = 0; i < n; i++)
      o[i] = itoa_ar(ex, var->arr->e[i].idx);
  }
  v->v = o;
  v->n = n;
  return 0;
}

/* Resolve the text t of an indirection (${!x} where x holds t): *tp
 * becomes the parameter it names (for assignment and messages) and v its
 * value. */
static int indirect_target(sh_exec *ex, sh_param *p, const char *t, pval *v,
                           sh_var **var, sh_param *tp) {
  size_t tl = strlen(t);
  *tp = *p;
  tp->op = PO_PLAIN;
  tp->index = NULL;
  tp->index_at = 0;
  tp->name = t;
  if (tl == 0) {
    /* bash complains but goes on with an unset value */
    sh_err(ex, "%s: invalid variable name", t);
    set_str(v, NULL);
    return 0;
  }
  const char *br = memchr(t, '[', tl);
  if (br && br > t && t[tl - 1] == ']' && sh_valid_name(t, (size_t)(br - t))) {
    sh_param *r = sh_subscripted_param(ex, t, tl);
    if (!r)
      return bad_subst(ex, p);
    tp->name = r->name;
    tp->index = r->index;
    tp->index_at = r->index_at;
    return base_value(ex, tp, r->name, r->index, r->index_at, v, var);
  }
  if (!(sh_valid_name(t, tl) || strcmp(t, "@") == 0 || strcmp(t, "*") == 0 ||
        strcmp(t, "#") == 0 || strcmp(t, "?") == 0 || strcmp(t, "-") == 0 ||
        strcmp(t, "$") == 0 || strcmp(t, "!") == 0 ||
        (strspn(t, "0123456789") == tl))) {
    sh_err(ex, "%s: invalid variable name", t);
    sh_discard(ex);
    return -1;
  }
  return base_value(ex, tp, t, NULL, 0, v, var);
}

int sh_param_expand(sh_exec *ex, sh_param *p, int in_dq, pval *v) {
  memset(v, 0, sizeof *v);
  sh_var *var = NULL;
  const char *name = p->name;
  if (!name || !*name)
    return bad_subst(ex, p);
  /* The lexer flags text it could not read as an operator (${a&}) or an
   * operator where none may go (${#x-w}, ${#x:1}): bash fails at run time. */
  if (p->bad)
    return bad_subst(ex, p);

  if (p->op == PO_NAMES)
    return names_with_prefix(ex, name, v)
               ? -1
               : (v->star = p->index_at == 2 ? PV_STAR_NAMES : 0, 0);
  if (p->op == PO_KEYS) {
    sh_var *sv = sh_special_array(ex, name);
    return keys_of(ex, sv ? sv : sh_var_find(ex, name), v)
               ? -1
               : (v->star = p->index_at == 2 ? PV_STAR_KEYS : 0, 0);
  }
  sh_param target_p; /* the parameter an indirection names */
  const sh_param *orig_p = p;
  if (p->op == PO_INDIRECT) {
    sh_var *rv = p->index ? NULL : sh_var_find_raw(ex, name, NULL);
    if (rv && (rv->flags & V_NAMEREF)) {
      set_str(v, rv->val);
    } else {
      pval t;
      if (base_value(ex, p, name, p->index, p->index_at, &t, &var))
        return -1;
      if (t.kind == PV_UNSET || (t.kind == PV_LIST && t.n == 0)) {
        /* Only a variable that does not exist at all is an error; a
         * declared-but-unset one, an array without element 0 or an unset
         * positional parameter names nothing, which expands as unset. */
        if (!var && sh_valid_name(name, strlen(name))) {
          if (p->index || p->index_at)
            sh_err(ex, "%s[%s]: invalid indirect expansion", name,
                   p->index_at == 2 ? "*" : "@");
          else
            sh_err(ex, "%s: invalid indirect expansion", name);
          sh_discard(ex);
          return -1;
        }
        set_str(v, NULL);
        var = NULL;
      } else {
        const char *target = t.s;
        if (t.kind == PV_LIST) {
          /* ${!a[@]-...}: the elements joined, which names a variable only
           * when there is one */
          buf jb;
          buf_init(&jb, ex->m);
          for (size_t i = 0; i < t.n; i++) {
            if (i)
              buf_putc(&jb, ' ');
            buf_puts(&jb, t.v[i]);
          }
          target = arena_strndup(ex->ar, buf_cstr(&jb), jb.len);
          buf_free(&jb);
          if (!target)
            return sh_oom(ex);
        }
        var = NULL;
        if (indirect_target(ex, p, target, v, &var, &target_p))
          return -1;
        p = &target_p;
        name = p->name;
      }
    }
  } else if (base_value(ex, p, name, p->index, p->index_at, v, &var)) {
    return -1;
  }

  if (p->op == PO_LENGTH) {
    if (v->kind == PV_LIST) {
      set_str(v, itoa_ar(ex, (long long)v->n));
      return 0;
    }
    if (v->kind == PV_UNSET && (ex->opts & O_NOUNSET)) {
      sh_err(ex, "%s: unbound variable", name);
      unbound_stop(ex);
      return -1;
    }
    set_str(v, itoa_ar(ex, (long long)char_count(sh_utf8(ex), v->s, v->len)));
    return 0;
  }

  sh_param_sub sub = p->sub;
  if (sub == PS_DEFAULT || sub == PS_ASSIGN || sub == PS_ERROR ||
      sub == PS_ALT) {
    /* ${!ref:-w} with ref='a[@]' tests only whether a has elements:
     * bash does not look at their text there. */
    int colon = p->colon && !(p != orig_p && p->index_at);
    int unset =
        colon ? is_null(v)
              : (v->kind == PV_UNSET || (v->kind == PV_LIST && v->n == 0));
    if (colon && !unset && in_dq && v->kind == PV_LIST && v->star) {
      /* "${*:-w}" tests the joined word; with IFS null there is no
       * separator, so all-empty elements join to a null string. */
      const char *ifs = sh_getvar(ex, "IFS");
      if (ifs && !*ifs) {
        unset = 1;
        for (size_t i = 0; i < v->n && unset; i++)
          unset = !v->v[i][0];
      }
    }
    if (sub == PS_ALT) {
      if (unset && v->kind == PV_LIST && !v->star && v->n == 0)
        return 0; /* "${a[@]+w}" of an empty a: no word at all */
      if (unset) {
        v->kind = PV_UNSET;
        v->s = "";
        v->len = 0;
        return 0;
      }
      v->kind = PV_WORD;
      v->word = p->arg1;
      return 0;
    }
    if (!unset)
      goto done;
    if (sub == PS_DEFAULT) {
      v->kind = PV_WORD;
      v->word = p->arg1;
      return 0;
    }
    size_t l;
    char *w =
        p->arg1 ? sh_expand_str(ex, p->arg1, &l) : arena_strdup(ex->ar, "");
    if (!w)
      return -1;
    if (sub == PS_ERROR) {
      if (p->arg1)
        sh_err(ex, "%s: %s", name, w);
      else
        sh_err(ex, "%s: parameter %s", name,
               p->colon ? "null or not set" : "not set");
      sh_fatal(ex, 127);
      return -1;
    }
    /* PS_ASSIGN */
    if (!sh_valid_name(name, strlen(name)) || p->index_at) {
      sh_err(ex, "$%s: cannot assign in this way", name);
      sh_discard(ex);
      return -1;
    }
    if (p->index) {
      size_t il;
      char *s = sh_expand_str(ex, p->index, &il);
      if (!s || sh_setelem(ex, name, s, il, w, l, 0))
        return -1;
    } else if (sh_setvar(ex, name, w, l, 0)) {
      return -1;
    }
    v->kind = PV_STR;
    v->s = w;
    v->len = l;
    return 0;
  }

  if (v->kind == PV_UNSET && (ex->opts & O_NOUNSET) && !p->index_at &&
      !(name[0] == '@' || name[0] == '*')) {
    if (p->index) {
      sh_err(ex, "%s[%.*s]: unbound variable", name, (int)(p->index->src_len),
             p->index->src ? p->index->src : "");
    } else {
      sh_err(ex, "%s: unbound variable", name);
    }
    unbound_stop(ex);
    return -1;
  }
  if (sub == PS_NONE)
    goto done;

  xctx x = {0};
  x.ex = ex;
  x.p = p;
  switch (sub) {
  case PS_TRIM_SP:
  case PS_TRIM_LP:
  case PS_TRIM_SS:
  case PS_TRIM_LS:
  case PS_UPPER_FIRST:
  case PS_UPPER_ALL:
  case PS_LOWER_FIRST:
  case PS_LOWER_ALL:
  case PS_REPLACE:
  case PS_REPLACE_ALL:
  case PS_REPLACE_PRE:
  case PS_REPLACE_SUF:
    if (p->arg1) {
      x.pat = sh_expand_pattern(ex, p->arg1, &x.plen);
      if (!x.pat)
        return -1;
    } else {
      x.pat = "";
    }
    if (sub >= PS_REPLACE && sub <= PS_REPLACE_SUF) {
      if (p->arg2) {
        x.rep = sh_expand_pattern(ex, p->arg2, &x.rlen);
        if (!x.rep)
          return -1;
      } else {
        x.rep = "";
      }
    }
    break;
  case PS_SLICE:
    if (eval_num(ex, p->arg1, &x.off))
      return -1;
    if (p->arg2) {
      x.has_len = 1;
      if (eval_num(ex, p->arg2, &x.len))
        return -1;
    }
    if (v->kind == PV_LIST)
      return slice_list(ex, p, var, v, &x);
    break;
  case PS_TRANSFORM:
    if (v->kind == PV_UNSET && p->transform != 'a')
      return 0;
    if (p->transform == 'A' && var && (var->flags & (V_ARRAY | V_ASSOC)) &&
        p->index_at) {
      buf b;
      buf_init(&b, ex->m);
      sh_print_var(ex, &b, var, 1);
      if (b.len && b.data[b.len - 1] == '\n')
        b.len--;
      set_str(v, arena_strndup(ex->ar, buf_cstr(&b), b.len));
      buf_free(&b);
      return 0;
    }
    if (p->transform == 'K' && var && (var->flags & (V_ARRAY | V_ASSOC)) &&
        p->index_at) {
      buf b;
      buf_init(&b, ex->m);
      if (var->flags & V_ASSOC) {
        sh_aent **ord = sh_arr_assoc_order(ex->ar, var->arr);
        for (size_t i = 0; ord && ord[i]; i++) {
          if (i)
            buf_putc(&b, ' ');
          buf_puts(&b, ord[i]->key);
          buf_putc(&b, ' ');
          sh_quote_dq(&b, ord[i]->val, strlen(ord[i]->val));
        }
      } else {
        for (size_t i = 0; var->arr && i < var->arr->n; i++) {
          if (i)
            buf_putc(&b, ' ');
          buf_printf(&b, "%lld ", (long long)var->arr->e[i].idx);
          sh_quote_dq(&b, var->arr->e[i].val, strlen(var->arr->e[i].val));
        }
      }
      set_str(v, arena_strndup(ex->ar, buf_cstr(&b), b.len));
      buf_free(&b);
      return 0;
    }
    break;
  default:
    break;
  }

  if (v->kind == PV_LIST) {
    char **o = arena_alloc(ex->ar, (v->n + 1) * sizeof *o);
    if (!o)
      return sh_oom(ex);
    size_t k = 0;
    for (size_t i = 0; i < v->n; i++) {
      const char *r = apply_one(&x, v->v[i], strlen(v->v[i]), var);
      if (r == (const char *)-1)
        return -1;
      if (r)
        o[k++] = (char *)r;
    }
    v->v = o;
    v->n = k;
    return 0;
  }
  {
    const char *r = apply_one(&x, v->s, v->len, var);
    if (r == (const char *)-1) {
      sh_discard(ex);
      return -1;
    }
    if (!r) {
      v->kind = PV_STR;
      v->s = "";
      v->len = 0;
    } else {
      v->kind = PV_STR;
      v->s = r;
      v->len = strlen(r);
    }
  }
done:
  (void)in_dq;
  return 0;
}
