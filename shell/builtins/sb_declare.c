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
#include "shell/syntax/parse.h"

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

/* The scope holding the current function's locals (through a subshell's
 * overlay), or NULL outside functions. */
static sh_scope *locals_scope(sh_exec *ex) {
  if (ex->func_depth == 0)
    return NULL;
  for (sh_scope *s = ex->scope; s; s = s->up)
    if (s->kind == SC_FUNC)
      return s;
  return NULL;
}

/* `local` and `local -p` alone: the current function's variables. */
static int print_locals(sh_exec *ex) {
  sh_scope *fs = locals_scope(ex);
  size_t n;
  sh_var **all = fs ? sh_all_vars(ex, ex->ar, &n) : NULL;
  buf b;
  buf_init(&b, ex->m);
  for (size_t i = 0; all && i < n; i++)
    if (sh_map_get(&fs->map, all[i]->name))
      sh_print_var(ex, &b, all[i], 1);
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
      if (names_only && (ex->shopts & SO_EXTDEBUG))
        /* extdebug adds where the function was defined */
        buf_printf(&b, "%s %d %s\n", f->name, f->line,
                   f->file ? f->file : "environment");
      else if (names_only)
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

/* A nameref's value must be able to name a variable (NAME or NAME[SUB])
 * and, outside functions, not the nameref itself: 1 after bash's message
 * when it cannot. */
static int bad_nameref(sh_exec *ex, const char *me, const char *name,
                       const char *val, int global_scope) {
  size_t vl = strlen(val);
  const char *br = strchr(val, '[');
  size_t nl = br ? (size_t)(br - val) : vl;
  if (!vl) {
    sh_builtin_err(ex, me, "`': not a valid identifier");
    return 1;
  }
  if (!sh_valid_name(val, nl) || (br && (val[vl - 1] != ']' || vl - nl < 3))) {
    sh_builtin_err(ex, me, "`%s': invalid variable name for name reference",
                   val);
    return 1;
  }
  if (global_scope && strcmp(val, name) == 0) {
    sh_builtin_err(ex, me, "%s: nameref variable self references not allowed",
                   name);
    return 1;
  }
  return 0;
}

/* After a refused nameref value: the variable as it was, and one this
 * declare created is gone again. */
static void nameref_undo(sh_exec *ex, sh_var *v, const char *name,
                         unsigned was) {
  v->flags = (v->flags & ~(unsigned)V_NAMEREF) | (was & V_NAMEREF);
  if (!(v->flags & ~(unsigned)(V_LOCAL | V_NAMEREF)))
    sh_unsetvar(ex, name);
}

/* declare -a "x=(1 2)": bash reads a list written inside a quoted
 * argument as one; NULL when arg is not NAME=(...) or NAME+=(...). */
static sh_assign *list_arg(sh_exec *ex, const char *arg) {
  size_t n = strlen(arg);
  const char *eq = strchr(arg, '=');
  if (!eq || eq[1] != '(' || arg[n - 1] != ')')
    return NULL;
  sh_node *nd = NULL;
  const char *err = NULL;
  int line = 0;
  char *src = arena_strndup(ex->ar, arg, n);
  if (!src || sh_parse_all(ex->ar, src, n, NULL, &nd, &err, &line) || !nd)
    return NULL;
  if (nd->kind == N_LIST) {
    if (nd->u.list.nitems != 1 || nd->u.list.items[0].async)
      return NULL;
    nd = nd->u.list.items[0].node;
  }
  if (!nd || nd->kind != N_SIMPLE || nd->redirs || nd->u.simple.nwords ||
      !nd->u.simple.assigns || nd->u.simple.assigns->next ||
      !nd->u.simple.assigns->is_array)
    return NULL;
  return nd->u.simple.assigns;
}

/* declare -p NAME and its kin: v as a declaration, or "not found". */
static int print_named(sh_exec *ex, const char *me, const char *name,
                       sh_var *v) {
  if (!v) {
    sh_builtin_err(ex, me, "%s: not found", name);
    return 1;
  }
  buf b;
  buf_init(&b, ex->m);
  sh_print_var(ex, &b, v, 1);
  sh_out(ex, b.data, b.len);
  buf_free(&b);
  return 0;
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
    if (mode == 1 && !on)
      return print_locals(ex); /* `local` and `local -p` alone */
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
    if (!as && (on & (D_ARRAY | D_ASSOC)))
      as = list_arg(ex, arg);
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
    if (print && mode == 1) {
      /* local -p NAME: only a local of this function */
      sh_scope *fs = locals_scope(ex);
      sh_var *v = fs ? sh_map_get(&fs->map, name) : NULL;
      if (v)
        v = sh_var_find_raw(ex, name, NULL);
      if (print_named(ex, me, name, v))
        st = 1;
      continue;
    }
    if (print && mode < 2) {
      /* (readonly -p NAME and export -p NAME act on NAME) */
      sh_var *v = sh_var_find_raw(ex, name, NULL);
      sh_var *sv = v ? NULL : sh_special_array(ex, name);
      if (!v && sv)
        v = sv;
      if (print_named(ex, me, name, v && !(v->flags & V_TOMB) ? v : NULL))
        st = 1;
      continue;
    }
    char *br = strchr(name, '[');
    size_t nlen = br ? (size_t)(br - name) : strlen(name);
    if (!sh_valid_name(name, nlen) || (br && name[strlen(name) - 1] != ']')) {
      sh_builtin_err(ex, me, "`%s': not a valid identifier", arg);
      st = 1;
      continue;
    }
    if ((br || (as && as->index)) && mode >= 2) {
      /* export and readonly take whole variables only */
      if (br)
        sh_builtin_err(ex, me, "`%s': not a valid identifier", name);
      else
        sh_builtin_err(ex, me, "`%s[%.*s]': not a valid identifier", name,
                       (int)as->index->src_len,
                       as->index->src ? as->index->src : "");
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
        if (s->kind == SC_TEMP && s != ex->decl_temp &&
            (existing = sh_map_get(&s->map, name))) {
          /* v=x eval 'local v=y': bash makes the temporary variable of
           * the eval the local one, gone when the eval ends */
          existing->flags |= V_LOCAL;
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
      if (cur && ((on | off) & D_NAMEREF)) {
        /* -n / +n act on the nameref itself, not on what it names */
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
    /* Attributes. readonly -a / export -a name only say what kind of
     * variable they mean: without a list they make no array. */
    unsigned kind = on & (D_ARRAY | D_ASSOC);
    if (mode >= 2 && !(as && as->is_array))
      kind = 0;
    if ((kind & D_ASSOC) && (v->flags & V_ARRAY)) {
      sh_builtin_err(ex, me, "%s: cannot convert indexed to associative array",
                     name);
      st = 1;
      continue;
    }
    if ((kind & D_ARRAY) && (v->flags & V_ASSOC)) {
      sh_builtin_err(ex, me, "%s: cannot convert associative to indexed array",
                     name);
      st = 1;
      continue;
    }
    if ((kind & D_ARRAY) && !(v->flags & V_ARRAY))
      sh_var_make_array(ex, v);
    if ((kind & D_ASSOC) && !(v->flags & V_ASSOC)) {
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
    unsigned was = v->flags;
    if ((on & D_NAMEREF) && !(was & V_NAMEREF) && !as && !val &&
        (was & V_SET) && v->val &&
        bad_nameref(ex, me, name, v->val, ex->func_depth == 0 || global)) {
      st = 1; /* declare -n on a value that names nothing: unchanged */
      continue;
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
      /* bash expands the value before the assignments written in front
       * of the command take effect: FOO=x readonly v=$FOO sees the old
       * FOO. */
      sh_scope *top = ex->scope;
      if (ex->decl_temp && ex->scope == ex->decl_temp)
        ex->scope = ex->scope->up;
      if (!nameref && (as->index || as->is_array)) {
        r = sh_reenter(ex)->assign_one(ex, as, f, NULL);
        ex->scope = top;
      } else {
        size_t vl = 0;
        char *t = as->value ? sh_expand_str(ex, as->value, &vl)
                            : arena_strdup(ex->ar, "");
        ex->scope = top;
        if (!t) {
          st = 1;
          continue;
        }
        if (nameref &&
            bad_nameref(ex, me, name, t, ex->func_depth == 0 || global)) {
          nameref_undo(ex, v, name, was);
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
      if ((v->flags & V_NAMEREF) &&
          bad_nameref(ex, me, name, val, ex->func_depth == 0 || global)) {
        nameref_undo(ex, v, name, was);
        st = 1;
        continue;
      }
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
      if (mode != 'v') {
        /* Not a variable's name, but a function may have it: bash
         * unsets that quietly (-n too). */
        sh_func_unset(ex, name);
        continue;
      }
      sh_builtin_err(ex, "unset", "`%s': not a valid identifier", name);
      st = 1;
      continue;
    }
    if (br) {
      size_t tl = strlen(name);
      if (br + 2 == name + tl)
        continue; /* a[] names nothing */
      sh_ref r;
      int k = sh_parse_ref(ex, name, tl, &r);
      if (k) {
        if (k > 0)
          sh_builtin_err(ex, "unset", "`%s': not a valid identifier", name);
        st = 1;
        continue;
      }
      char *sub_text = arena_strndup(ex->ar, br + 1, tl - nl - 2);
      if (sh_unset_elem(ex, &r, sub_text))
        st = 1;
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
