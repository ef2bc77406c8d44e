/*
 * sb_cd.c - cd (-L/-P, CDPATH, `cd -`, OLDPWD), pwd (-L/-P), and the
 * directory stack (pushd, popd, dirs). The logical PWD is kept as text;
 * the VFS checks that every target is a searchable directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

static int set_cwd(sh_exec *ex, const char *path) {
  char *n = mem_strdup(ex->m, path);
  if (!n)
    return sh_oom(ex);
  const char *old = ex->cwd;
  /* bash starts with OLDPWD exported (and empty), so the first cd
   * exports it */
  sh_setvar(ex, "OLDPWD", old, strlen(old),
            sh_var_find(ex, "OLDPWD") ? 0 : SV_EXPORT);
  mem_free(ex->m, ex->cwd);
  ex->cwd = n;
  sh_setvar(ex, "PWD", n, strlen(n), 0);
  return 0;
}

/* Try to enter dir (absolute logical path). 0, or a negative errno. */
static int try_dir(sh_exec *ex, const char *logical, int physical,
                   char **result) {
  char *canon = NULL;
  int e = vfs_canon_dir(ex->run->v, "/", logical, &canon);
  if (e)
    return e;
  if (physical) {
    *result = arena_strdup(ex->ar, canon);
  } else {
    *result = (char *)logical;
  }
  vfs_release(ex->run->v, canon);
  return 0;
}

/* bash's logical cd resolves "x/.." only when x is a directory: each
 * ".." of target needs the path before it to be one. 0, or a negative
 * errno. */
static int dotdot_check(sh_exec *ex, const char *target) {
  if (!strstr(target, ".."))
    return 0;
  buf b;
  buf_init(&b, ex->m);
  if (target[0] != '/')
    buf_puts(&b, ex->cwd);
  int rc = 0;
  const char *p = target;
  while (*p && !rc) {
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      char *canon = NULL;
      char *pre = b.len ? arena_strndup(ex->ar, b.data, b.len) : "/";
      rc = !pre ? sh_oom(ex) : vfs_canon_dir(ex->run->v, "/", pre, &canon);
      if (!rc)
        vfs_release(ex->run->v, canon);
      while (b.len && b.data[b.len - 1] != '/')
        b.len--;
      if (b.len)
        b.len--;
    } else if (n && !(n == 1 && p[0] == '.')) {
      buf_putc(&b, '/');
      buf_append(&b, p, n);
    }
    p += n;
    while (*p == '/')
      p++;
  }
  if (b.oom && !rc)
    rc = sh_oom(ex);
  buf_free(&b);
  return rc;
}

int sb_cd(sh_exec *ex, int argc, char **argv) {
  int physical = (ex->opts & O_PHYSICAL) != 0;
  sh_getopt g;
  sh_getopt_init(&g, ex, "cd", argc, argv, "PLe@");
  g.quiet = 1; /* the message names the whole word, not the letter */
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    if (o == 'P')
      physical = 1;
    else if (o == 'L')
      physical = 0;
  }
  if (o < 0) {
    sh_builtin_err(ex, "cd", "%s: invalid option", argv[g.ind]);
    sh_outs(ex, "");
    return 2;
  }
  int i = g.ind;
  if (argc - i > 1) {
    sh_builtin_err(ex, "cd", "too many arguments");
    return 1;
  }
  const char *target;
  int print = 0;
  if (i >= argc) {
    target = sh_getvar(ex, "HOME");
    if (!target) {
      sh_builtin_err(ex, "cd", "HOME not set");
      return 1;
    }
  } else {
    target = argv[i];
  }
  if (strcmp(target, "-") == 0) {
    target = sh_getvar(ex, "OLDPWD");
    if (!target) {
      sh_builtin_err(ex, "cd", "OLDPWD not set");
      return 1;
    }
    print = 1;
  }
  if (!*target)
    return 0;
  char *res = NULL;
  int e = -2;
  /* CDPATH applies to relative names not starting with . or .. */
  const char *cdpath = sh_getvar(ex, "CDPATH");
  if (target[0] != '/' && cdpath && *cdpath &&
      !(target[0] == '.' &&
        (target[1] == 0 || target[1] == '/' ||
         (target[1] == '.' && (target[2] == 0 || target[2] == '/'))))) {
    const char *p = cdpath;
    for (;;) {
      const char *c = strchr(p, ':');
      size_t dl = c ? (size_t)(c - p) : strlen(p);
      char *cand;
      if (dl == 0) {
        cand = sh_abspath(ex, target);
      } else {
        char *d = arena_strndup(ex->ar, p, dl);
        size_t tl = strlen(target);
        char *j = arena_alloc(ex->ar, dl + tl + 2);
        if (!d || !j)
          return sh_oom(ex) ? 1 : 1;
        snprintf(j, dl + tl + 2, "%s/%s", d, target);
        cand = sh_abspath(ex, j);
      }
      if (cand && try_dir(ex, cand, physical, &res) == 0) {
        e = 0;
        if (dl)
          print = 1;
        break;
      }
      if (!c)
        break;
      p = c + 1;
    }
  }
  if (e) {
    char *abs = physical ? NULL : sh_abspath(ex, target);
    if (physical) {
      char *canon = NULL;
      e = vfs_canon_dir(ex->run->v, ex->cwd, target, &canon);
      if (!e) {
        res = arena_strdup(ex->ar, canon);
        vfs_release(ex->run->v, canon);
      }
    } else {
      e = !abs ? -12 : dotdot_check(ex, target);
      if (!e)
        e = try_dir(ex, abs, 0, &res);
      if (e) {
        /* bash falls back to the physical path when the logical fails */
        char *canon = NULL;
        int e2 = vfs_canon_dir(ex->run->v, ex->cwd, target, &canon);
        if (!e2) {
          res = arena_strdup(ex->ar, canon);
          vfs_release(ex->run->v, canon);
          e = 0;
        } else {
          e = e2;
        }
      }
    }
  }
  if (e) {
    sh_builtin_err(ex, "cd", "%s: %s", target, bi_strerror(-e));
    return 1;
  }
  if (set_cwd(ex, res))
    return 1;
  if (print) {
    sh_outs(ex, res);
    sh_outs(ex, "\n");
  }
  return 0;
}

int sb_pwd(sh_exec *ex, int argc, char **argv) {
  int physical = (ex->opts & O_PHYSICAL) != 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-P") == 0)
      physical = 1;
    else if (strcmp(argv[i], "-L") == 0)
      physical = 0;
    else if (argv[i][0] == '-') {
      sh_builtin_err(ex, "pwd", "%s: invalid option", argv[i]);
      return 2;
    }
  }
  const char *out = ex->cwd;
  if (physical) {
    char *canon = NULL;
    if (vfs_canon_dir(ex->run->v, "/", ex->cwd, &canon) == 0) {
      out = arena_strdup(ex->ar, canon);
      vfs_release(ex->run->v, canon);
    }
  }
  if (sh_outs(ex, out) || sh_outs(ex, "\n")) {
    sh_builtin_err(ex, "pwd", "write error: %s",
                   bi_strerror(ex->fd[1] ? ex->fd[1]->err : 9));
    return 1;
  }
  return 0;
}

/* ---- directory stack -------------------------------------------------------
 */

static const char *tilde_home(sh_exec *ex, const char *d, buf *b) {
  const char *home = sh_getvar(ex, "HOME");
  size_t hl = home ? strlen(home) : 0;
  if (hl && strncmp(d, home, hl) == 0 && (d[hl] == 0 || d[hl] == '/')) {
    buf_putc(b, '~');
    buf_puts(b, d + hl);
  } else {
    buf_puts(b, d);
  }
  return "";
}

static int print_stack(sh_exec *ex, int longfmt, int vertical) {
  buf b;
  buf_init(&b, ex->m);
  int n = ex->ndirstack + 1;
  for (int i = 0; i < n; i++) {
    const char *d = i == 0 ? ex->cwd : ex->dirstack[ex->ndirstack - i];
    if (vertical)
      buf_printf(&b, "%2d  ", i);
    else if (i)
      buf_putc(&b, ' ');
    if (longfmt)
      buf_puts(&b, d);
    else
      tilde_home(ex, d, &b);
    if (vertical)
      buf_putc(&b, '\n');
  }
  if (!vertical)
    buf_putc(&b, '\n');
  sh_out(ex, b.data, b.len);
  buf_free(&b);
  return 0;
}

static int push_entry(sh_exec *ex, const char *d) {
  char **n =
      mem_realloc(ex->m, ex->dirstack, (size_t)(ex->ndirstack + 1) * sizeof *n);
  if (!n)
    return sh_oom(ex);
  ex->dirstack = n;
  n[ex->ndirstack] = mem_strdup(ex->m, d);
  if (!n[ex->ndirstack])
    return sh_oom(ex);
  ex->ndirstack++;
  return 0;
}

/* Entry k of the stack as bash numbers it: 0 is the current directory,
 * then the pushed ones, most recent first. */
static const char *stack_at(sh_exec *ex, int k) {
  return k == 0 ? ex->cwd : ex->dirstack[ex->ndirstack - k];
}

/* "+N" / "-N": 1 and the entry number in *k (counted from the left for
 * +, from the right for -); 0 when arg is not of that form. */
static int stack_index(sh_exec *ex, const char *arg, int *k) {
  if ((arg[0] != '+' && arg[0] != '-') || !arg[1])
    return 0;
  int64_t n;
  for (const char *q = arg + 1; *q; q++)
    if (*q < '0' || *q > '9')
      return 0;
  if (sh_parse_int(arg + 1, &n) || n > 100000000)
    n = 100000000;
  int len = ex->ndirstack + 1;
  *k = arg[0] == '+' ? (int)n : (int)(len - 1 - n);
  if (*k < 0 || *k >= len)
    *k = -1;
  return 1;
}

static int stack_usage(sh_exec *ex, const char *name, const char *arg,
                       const char *what) {
  static const char *const usage[] = {
      "dirs: usage: dirs [-clpv] [+N] [-N]",
      "pushd: usage: pushd [-n] [+N | -N | dir]",
      "popd: usage: popd [-n] [+N | -N]"};
  sh_builtin_err(ex, name, "%s: %s", arg, what);
  sh_usage(ex, "%s", usage[name[1] == 'i' ? 0 : name[1] == 'u' ? 1 : 2]);
  return 2;
}

/* Remove entry k (1..ndirstack) of the stack. */
static void stack_drop(sh_exec *ex, int k) {
  int at = ex->ndirstack - k;
  mem_free(ex->m, ex->dirstack[at]);
  memmove(ex->dirstack + at, ex->dirstack + at + 1,
          (size_t)(ex->ndirstack - at - 1) * sizeof *ex->dirstack);
  ex->ndirstack--;
}

int sb_dirs(sh_exec *ex, int argc, char **argv) {
  int longfmt = 0, vertical = 0, pick = -2;
  const char *pick_arg = NULL;
  /* bash takes each option as a word of its own: "-lv" is no option. */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0)
      continue;
    if (strcmp(a, "-c") == 0) {
      for (int k = 0; k < ex->ndirstack; k++)
        mem_free(ex->m, ex->dirstack[k]);
      ex->ndirstack = 0;
      return 0;
    }
    if (strcmp(a, "-l") == 0)
      longfmt = 1;
    else if (strcmp(a, "-v") == 0)
      vertical = 1;
    else if (strcmp(a, "-p") == 0)
      vertical = vertical ? vertical : 2;
    else if (stack_index(ex, a, &pick))
      pick_arg = a;
    else if (a[0] == '+' || a[0] == '-')
      return stack_usage(ex, "dirs", a, "invalid number");
    else
      return stack_usage(ex, "dirs", a, "invalid option");
  }
  if (pick_arg) {
    if (pick < 0) {
      if (!ex->ndirstack)
        sh_builtin_err(ex, "dirs", "directory stack empty");
      else
        sh_builtin_err(ex, "dirs", "%s: directory stack index out of range",
                       pick_arg + 1);
      return 1;
    }
    buf b;
    buf_init(&b, ex->m);
    if (vertical == 1)
      buf_printf(&b, "%2d  ", pick);
    if (longfmt)
      buf_puts(&b, stack_at(ex, pick));
    else
      tilde_home(ex, stack_at(ex, pick), &b);
    buf_putc(&b, '\n');
    sh_out(ex, b.data, b.len);
    buf_free(&b);
    return 0;
  }
  if (vertical == 2) {
    int n = ex->ndirstack + 1;
    for (int i = 0; i < n; i++) {
      const char *d = stack_at(ex, i);
      buf b;
      buf_init(&b, ex->m);
      if (longfmt)
        buf_puts(&b, d);
      else
        tilde_home(ex, d, &b);
      buf_putc(&b, '\n');
      sh_out(ex, b.data, b.len);
      buf_free(&b);
    }
    return 0;
  }
  return print_stack(ex, longfmt, vertical);
}

/* The stack turned so that entry k is the current directory. */
static int stack_rotate(sh_exec *ex, int k, int no_cd) {
  int len = ex->ndirstack + 1;
  char **all = arena_alloc(ex->ar, (size_t)len * sizeof *all);
  if (!all)
    return sh_oom(ex);
  for (int i = 0; i < len; i++) {
    all[i] = arena_strdup(ex->ar, stack_at(ex, (i + k) % len));
    if (!all[i])
      return sh_oom(ex);
  }
  if (!no_cd) {
    char *argv2[] = {"cd", all[0], NULL};
    if (sb_cd(ex, 2, argv2))
      return 1;
  }
  for (int i = 1; i < len; i++) {
    char *c = mem_strdup(ex->m, all[i]);
    if (!c)
      return sh_oom(ex);
    mem_free(ex->m, ex->dirstack[ex->ndirstack - i]);
    ex->dirstack[ex->ndirstack - i] = c;
  }
  return 0;
}

int sb_pushd(sh_exec *ex, int argc, char **argv) {
  int i = 1, no_cd = 0;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0) {
      no_cd = 1;
    } else if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    } else {
      break;
    }
  }
  if (i < argc && argc - i > 1) {
    sh_builtin_err(ex, "pushd", "too many arguments");
    return 1;
  }
  int k;
  if (i >= argc || stack_index(ex, argv[i], &k)) {
    if (i >= argc) {
      if (no_cd)
        return 0; /* bash: nothing to do, nothing said */
      if (!ex->ndirstack) {
        sh_builtin_err(ex, "pushd", "no other directory");
        return 1;
      }
      k = 1;
    } else if (k < 0) {
      if (!ex->ndirstack)
        sh_builtin_err(ex, "pushd", "directory stack empty");
      else
        sh_builtin_err(ex, "pushd", "%s: directory stack index out of range",
                       argv[i]);
      return 1;
    }
    if (i >= argc) {
      /* no argument: the top two change places */
      char *top = ex->dirstack[ex->ndirstack - 1];
      if (!no_cd) {
        char *old = mem_strdup(ex->m, ex->cwd);
        char *argv2[] = {"cd", top, NULL};
        if (!old || sb_cd(ex, 2, argv2)) {
          mem_free(ex->m, old);
          return old ? 1 : sh_oom(ex);
        }
        mem_free(ex->m, top);
        ex->dirstack[ex->ndirstack - 1] = old;
      }
      return print_stack(ex, 0, 0);
    }
    if (stack_rotate(ex, k, no_cd))
      return 1;
    return print_stack(ex, 0, 0);
  }
  const char *a = argv[i];
  if (a[0] == '-' && a[1]) /* not a number, not "-" (cd -) */
    return stack_usage(ex, "pushd", a, "invalid number");
  if (no_cd) {
    /* -n dir: dir goes under the current directory, no cd */
    if (push_entry(ex, a))
      return 1;
    return print_stack(ex, 0, 0);
  }
  char *old = arena_strdup(ex->ar, ex->cwd);
  char *argv2[] = {"cd", (char *)a, NULL};
  if (sb_cd(ex, 2, argv2))
    return 1;
  if (push_entry(ex, old))
    return 1;
  return print_stack(ex, 0, 0);
}

int sb_popd(sh_exec *ex, int argc, char **argv) {
  int i = 1, no_cd = 0, k = 0;
  const char *pick = NULL;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-n") == 0)
      no_cd = 1;
    else if (strcmp(a, "--") == 0)
      continue;
    else if (stack_index(ex, a, &k))
      pick = a;
    else if (a[0] == '+' || a[0] == '-')
      return stack_usage(ex, "popd", a, "invalid number");
    else
      return stack_usage(ex, "popd", a, "invalid argument");
  }
  if (!ex->ndirstack) {
    sh_builtin_err(ex, "popd", "directory stack empty");
    return 1;
  }
  if (pick && k < 0) {
    sh_builtin_err(ex, "popd", "%s: directory stack index out of range", pick);
    return 1;
  }
  if (!pick)
    k = 0;
  if (k > 0) {
    stack_drop(ex, k);
    return print_stack(ex, 0, 0);
  }
  if (no_cd) {
    /* -n: the entry under the current directory goes, no cd */
    stack_drop(ex, 1);
    return print_stack(ex, 0, 0);
  }
  char *top = ex->dirstack[ex->ndirstack - 1];
  char *argv2[] = {"cd", top, NULL};
  if (sb_cd(ex, 2, argv2))
    return 1;
  mem_free(ex->m, top);
  ex->ndirstack--;
  return print_stack(ex, 0, 0);
}
