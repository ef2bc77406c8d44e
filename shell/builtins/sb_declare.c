/*
 * sb_declare.c - declare/typeset, local, export, readonly and unset.
 * Arguments of the form NAME=VALUE reach these builtins as parsed
 * assignments (ex->decl_assigns), so `local -a a=(1 "2 3")` and
 * `declare x=$y` are not split or globbed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"

enum {
  D_ARRAY = V_ARRAY,
  D_ASSOC = V_ASSOC,
  D_INT = V_INTEGER,
  D_LOWER = V_LOWER,
  D_UPPER = V_UPPER,
  D_EXPORT = V_EXPORT,
  D_READONLY = V_READONLY,
  D_NAMEREF = V_NAMEREF
};

static int print_all(sh_exec *ex, unsigned need, int decl_fmt) {
  size_t n;
  sh_var **all = sh_all_vars(ex, ex->ar, &n);
  buf b;
  buf_init(&b, ex->m);
  for (size_t i = 0; all && i < n; i++) {
    sh_var *v = all[i];
    if (need && (v->flags & need) != need)
      continue;
    if (!decl_fmt && !(v->flags & V_SET))
      continue;
    sh_print_var(ex, &b, v, decl_fmt);
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return 0;
}

static int print_funcs(sh_exec *ex, int names_only, int argc, char **argv,
                       int first) {
  buf b;
  buf_init(&b, ex->m);
  int st = 0;
  if (first < argc) {
    for (int i = first; i < argc; i++) {
      sh_func *f = sh_func_find(ex, argv[i]);
      if (!f) {
        st = 1;
        continue;
      }
      if (names_only)
        buf_printf(&b, "%s\n", f->name);
      else
        sh_print_func(ex, &b, f);
    }
  } else {
    size_t n;
    sh_func **fs = sh_all_funcs(ex, ex->ar, &n);
    for (size_t i = 0; fs && i < n; i++) {
      if (names_only)
        buf_printf(&b, "declare -f %s\n", fs[i]->name);
      else
        sh_print_func(ex, &b, fs[i]);
    }
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return st;
}

/* Common engine: mode 0 declare, 1 local, 2 export, 3 readonly. */
static int declare_common(sh_exec *ex, int argc, char **argv, int mode) {
  const char *me = argv[0];
  unsigned on = 0, off = 0;
  int print = 0, funcs = 0, fnames = 0, global = 0;
  if (mode == 2)
    on |= D_EXPORT;
  if (mode == 3)
    on |= D_READONLY;
  /* Assignment words (ex->decl_assigns) begin with a name, so they end
   * the options like any other operand. */
  sh_getopt g;
  sh_getopt_init(&g, ex, me, argc, argv, "aAilurxnpfFgtI");
  g.usage = "[-aAfFgiIlnrtux] [name[=value] ...]";
  g.plus = 1;
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    unsigned bit = 0;
    switch (o) {
    case 'a':
      bit = D_ARRAY;
      break;
    case 'A':
      bit = D_ASSOC;
      break;
    case 'i':
      bit = D_INT;
      break;
    case 'l':
      bit = D_LOWER;
      break;
    case 'u':
      bit = D_UPPER;
      break;
    case 'x':
      bit = D_EXPORT;
      break;
    case 'r':
      bit = D_READONLY;
      break;
    case 'n':
      if (mode == 2) {
        off |= D_EXPORT;
        on &= ~(unsigned)D_EXPORT;
        continue;
      }
      bit = D_NAMEREF;
      break;
    case 'p':
      print = 1;
      continue;
    case 'f':
      funcs = 1;
      continue;
    case 'F':
      fnames = 1;
      continue;
    case 'g':
      global = 1;
      continue;
    case 't':
    case 'I':
      continue;
    }
    if (g.on) {
      on |= bit;
    } else {
      off |= bit;
      on &= ~bit;
    }
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  if (funcs || fnames)
    return print_funcs(ex, fnames, argc, argv, i);
  if (i >= argc) {
    if (mode == 1 && !print && !on) {
      /* `local` alone lists the locals */
      return 0;
    }
    if (mode == 2)
      return print_all(ex, V_EXPORT, 1);
    if (mode == 3)
      return print_all(ex, V_READONLY, 1);
    if (print || on)
      return print_all(ex, on, 1);
    return print_all(ex, 0, 0);
  }
  if (mode == 1 && ex->func_depth == 0) {
    sh_builtin_err(ex, me, "can only be used in a function");
    return 1;
  }
  int st = 0;
  unsigned sflags = 0;
  if (mode == 1 || (mode == 0 && ex->func_depth > 0 && !global))
    sflags = SV_LOCAL;
  else if (global)
    sflags = SV_GLOBAL;
  for (; i < argc; i++) {
    sh_assign *as = ex->decl_assigns ? ex->decl_assigns[i] : NULL;
    const char *arg = argv[i];
    char *name;
    const char *val = NULL;
    int append = 0;
    if (as) {
      name = (char *)as->name;
    } else {
      const char *eq = strchr(arg, '=');
      size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
      if (eq && nl && arg[nl - 1] == '+') {
        append = 1;
        nl--;
      }
      name = arena_strndup(ex->ar, arg, nl);
      if (!name)
        return sh_oom(ex);
      if (eq)
        val = eq + 1;
    }
    if (print) {
      sh_var *v = sh_var_find_raw(ex, name, NULL);
      sh_var *sv = v ? NULL : sh_special_array(ex, name);
      if (!v && sv)
        v = sv;
      if (!v || (v->flags & V_TOMB)) {
        sh_builtin_err(ex, me, "%s: not found", name);
        st = 1;
        continue;
      }
      buf b;
      buf_init(&b, ex->m);
      sh_print_var(ex, &b, v, 1);
      sh_out(ex, b.data, b.len);
      buf_free(&b);
      continue;
    }
    char *br = strchr(name, '[');
    size_t nlen = br ? (size_t)(br - name) : strlen(name);
    if (!sh_valid_name(name, nlen) || (br && name[strlen(name) - 1] != ']')) {
      sh_builtin_err(ex, me, "`%s': not a valid identifier", arg);
      st = 1;
      continue;
    }
    if (br && !as) {
      /* declare a[2]=x */
      *br = 0;
      const char *sub = br + 1;
      size_t sl = strlen(sub) - 1;
      if (sh_setelem(ex, name, sub, sl, val ? val : "", val ? strlen(val) : 0,
                     sflags))
        st = 1;
      continue;
    }
    /* The variable to act on. */
    sh_var *v;
    if (sflags & SV_LOCAL) {
      sh_var *existing = NULL;
      for (sh_scope *s = ex->scope; s; s = s->up) {
        if (s->kind == SC_FUNC) {
          existing = sh_map_get(&s->map, name);
          break;
        }
        if (s == ex->global)
          break;
      }
      sh_var *outer = existing ? NULL : sh_var_find_raw(ex, name, NULL);
      if (!existing && outer && (outer->flags & V_READONLY) && mode == 1) {
        sh_builtin_err(ex, me, "%s: readonly variable", name);
        st = 1;
        continue;
      }
      v = existing ? existing : sh_var_lookup_for_write(ex, name, SV_LOCAL);
      if (v && !existing && outer && (ex->shopts & SO_LOCALVAR_INHERIT)) {
        /* localvar_inherit: nothing more */
      }
    } else {
      sh_var *cur = global ? NULL : sh_var_find_raw(ex, name, NULL);
      if (cur && (cur->flags & V_READONLY) &&
          (as || val || (on & ~D_READONLY & ~D_EXPORT))) {
        sh_builtin_err(ex, me, "%s: readonly variable", name);
        st = 1;
        continue;
      }
      if (cur && (on & D_NAMEREF)) {
        v = cur;
      } else if (cur && (cur->flags & V_READONLY)) {
        /* Only -x/-r reach here (checked above): bash lets `export x`
         * mark a readonly variable. The write lookup refuses readonly
         * variables, so lift the flag just for the lookup (which may
         * clone cur into this shell's scope) and put it back on both. */
        cur->flags &= ~(unsigned)V_READONLY;
        v = sh_var_lookup_for_write(ex, name, sflags);
        cur->flags |= V_READONLY;
        if (v)
          v->flags |= V_READONLY;
      } else {
        v = sh_var_lookup_for_write(
            ex, name, sflags | ((on & D_NAMEREF) ? SV_NOARITH : 0));
      }
    }
    if (!v) {
      st = 1;
      continue;
    }
    if ((v->flags & V_READONLY) && (as || val)) {
      sh_builtin_err(ex, me, "%s: readonly variable", name);
      st = 1;
      continue;
    }
    /* Attributes. */
    if ((on & D_ASSOC) && (v->flags & V_ARRAY)) {
      sh_builtin_err(ex, me, "%s: cannot convert indexed to associative array",
                     name);
      st = 1;
      continue;
    }
    if ((on & D_ARRAY) && (v->flags & V_ASSOC)) {
      sh_builtin_err(ex, me, "%s: cannot convert associative to indexed array",
                     name);
      st = 1;
      continue;
    }
    if ((on & D_ARRAY) && !(v->flags & V_ARRAY))
      sh_var_make_array(ex, v);
    if ((on & D_ASSOC) && !(v->flags & V_ASSOC)) {
      char *old = (v->flags & V_SET) ? v->val : NULL;
      v->val = NULL;
      v->len = 0;
      v->arr = sh_arr_new(ex->m);
      v->flags |= V_ASSOC;
      if (!v->arr ||
          (old && sh_arr_aset(ex->m, v->arr, "0", old, strlen(old)))) {
        mem_free(ex->m, old);
        return sh_oom(ex);
      }
      if (old) {
        mem_free(ex->m, old);
      } else {
        v->flags &= ~V_SET;
      }
    }
    unsigned keep = on & (D_INT | D_LOWER | D_UPPER | D_EXPORT | D_NAMEREF);
    if (on & D_LOWER)
      v->flags &= ~V_UPPER;
    if (on & D_UPPER)
      v->flags &= ~V_LOWER;
    v->flags |= keep;
    v->flags &= ~(off & (D_INT | D_LOWER | D_UPPER | D_EXPORT | D_NAMEREF));
    /* Value. */
    int r = 0;
    if (as) {
      unsigned f = sflags & SV_LOCAL ? SV_LOCAL : (global ? SV_GLOBAL : 0);
      /* A nameref takes its text whole, even one written with a
       * subscript; other subscripts and lists are assigned as usual. */
      int nameref = (v->flags & V_NAMEREF) && !as->is_array;
      if (!nameref && (as->index || as->is_array)) {
        r = sh_reenter(ex)->assign_one(ex, as, f, NULL);
      } else {
        size_t vl = 0;
        char *t = as->value ? sh_expand_str(ex, as->value, &vl)
                            : arena_strdup(ex->ar, "");
        if (!t) {
          st = 1;
          continue;
        }
        if (nameref) {
          mem_free(ex->m, v->val);
          v->val = mem_strdup(ex->m, t);
          v->len = vl;
          v->flags |= V_SET;
        } else {
          /* set through the variable itself so scope rules hold */
          unsigned ro = v->flags & V_READONLY;
          v->flags &= ~V_READONLY;
          if (v->flags & (V_ARRAY | V_ASSOC)) {
            r = sh_setelem(ex, name, "0", 1, t, vl,
                           f | (as->append ? SV_APPEND : 0));
          } else {
            r = sh_var_set_direct(ex, v, t, vl, as->append);
          }
          v->flags |= ro;
        }
      }
    } else if (val) {
      if (v->flags & V_NAMEREF) {
        mem_free(ex->m, v->val);
        v->val = mem_strdup(ex->m, val);
        v->len = strlen(val);
        v->flags |= V_SET;
      } else if (v->flags & (V_ARRAY | V_ASSOC)) {
        r = sh_setelem(ex, name, "0", 1, val, strlen(val),
                       sflags | (append ? SV_APPEND : 0));
      } else {
        r = sh_var_set_direct(ex, v, val, strlen(val), append);
      }
    }
    if (r)
      st = 1;
    if (on & D_READONLY)
      v->flags |= V_READONLY;
    if ((on & D_EXPORT) || (ex->opts & O_ALLEXPORT && (as || val)))
      v->flags |= V_EXPORT;
  }
  return st;
}

int sb_declare(sh_exec *ex, int argc, char **argv) {
  return declare_common(ex, argc, argv, 0);
}

int sb_local(sh_exec *ex, int argc, char **argv) {
  return declare_common(ex, argc, argv, 1);
}

int sb_export(sh_exec *ex, int argc, char **argv) {
  return declare_common(ex, argc, argv, 2);
}

int sb_readonly(sh_exec *ex, int argc, char **argv) {
  return declare_common(ex, argc, argv, 3);
}

int sb_unset(sh_exec *ex, int argc, char **argv) {
  int mode = 0; /* 0 var-then-func, 'v', 'f', 'n' */
  sh_getopt g;
  sh_getopt_init(&g, ex, "unset", argc, argv, "vfn");
  int o;
  while ((o = sh_getopt_next(&g)) > 0)
    mode = o;
  if (o < 0)
    return 2;
  int i = g.ind;
  int st = 0;
  for (; i < argc; i++) {
    char *name = argv[i];
    if (mode == 'f') {
      sh_func_unset(ex, name);
      continue;
    }
    char *br = strchr(name, '[');
    size_t nl = br ? (size_t)(br - name) : strlen(name);
    if (!sh_valid_name(name, nl) || (br && name[strlen(name) - 1] != ']')) {
      sh_builtin_err(ex, "unset", "`%s': not a valid identifier", name);
      st = 1;
      continue;
    }
    if (br) {
      char *base = arena_strndup(ex->ar, name, nl);
      size_t sl = strlen(br + 1) - 1;
      char *sub = arena_strndup(ex->ar, br + 1, sl);
      if (!base || !sub)
        return sh_oom(ex);
      sh_var *v = sh_var_find(ex, base);
      if (!v)
        continue;
      if (strcmp(sub, "@") == 0 || strcmp(sub, "*") == 0) {
        sh_unsetvar(ex, base);
        continue;
      }
      sh_var *w = sh_var_lookup_for_write(ex, base, 0);
      if (!w) {
        st = 1;
        continue;
      }
      if (w->flags & V_ASSOC) {
        sh_arr_aunset(ex->m, w->arr, sub);
      } else if (w->flags & V_ARRAY) {
        int err = 0;
        int64_t k = sh_arith(ex, sub, sl, &err);
        if (err) {
          st = 1;
          continue;
        }
        if (k < 0) {
          k += sh_arr_max_index(w->arr) + 1;
          if (k < 0) {
            sh_builtin_err(ex, "unset", "%s: bad array subscript", name);
            st = 1;
            continue;
          }
        }
        sh_arr_iunset(ex->m, w->arr, k);
      } else {
        int err = 0;
        int64_t k = sh_arith(ex, sub, sl, &err);
        if (!err && (k == 0 || k == -1))
          sh_unsetvar(ex, base);
      }
      continue;
    }
    if (mode == 'n') {
      sh_var *v = sh_var_find_raw(ex, name, NULL);
      if (v && (v->flags & V_NAMEREF)) {
        v->flags &= ~V_NAMEREF;
        sh_unsetvar(ex, name);
      } else {
        sh_unsetvar(ex, name);
      }
      continue;
    }
    sh_var *v = sh_var_find_raw(ex, name, NULL);
    if (v) {
      if (sh_unsetvar(ex, name))
        st = 1;
    } else if (mode == 0) {
      sh_func_unset(ex, name);
    }
  }
  return st;
}
