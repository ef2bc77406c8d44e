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
  sh_setvar(ex, "OLDPWD", old, strlen(old), 0);
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
      e = abs ? try_dir(ex, abs, 0, &res) : -12;
      if (e) {
        /* bash falls back to the physical path when the logical fails */
        char *canon = NULL;
        int e2 = vfs_canon_dir(ex->run->v, ex->cwd, target, &canon);
        if (!e2) {
          res = arena_strdup(ex->ar, canon);
          vfs_release(ex->run->v, canon);
          e = 0;
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

int sb_dirs(sh_exec *ex, int argc, char **argv) {
  int longfmt = 0, vertical = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-c") == 0) {
      for (int k = 0; k < ex->ndirstack; k++)
        mem_free(ex->m, ex->dirstack[k]);
      ex->ndirstack = 0;
      return 0;
    }
    if (strcmp(argv[i], "-l") == 0)
      longfmt = 1;
    else if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "-p") == 0)
      vertical = argv[i][1] == 'v' ? 1 : 2;
  }
  if (vertical == 2) {
    int n = ex->ndirstack + 1;
    for (int i = 0; i < n; i++) {
      const char *d = i == 0 ? ex->cwd : ex->dirstack[ex->ndirstack - i];
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

int sb_pushd(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  if (i < argc && strcmp(argv[i], "--") == 0)
    i++;
  if (i >= argc) {
    if (!ex->ndirstack) {
      sh_builtin_err(ex, "pushd", "no other directory");
      return 1;
    }
    char *top = ex->dirstack[ex->ndirstack - 1];
    char *old = mem_strdup(ex->m, ex->cwd);
    char *argv2[] = {"cd", top, NULL};
    if (sb_cd(ex, 2, argv2)) {
      mem_free(ex->m, old);
      return 1;
    }
    mem_free(ex->m, top);
    ex->dirstack[ex->ndirstack - 1] = old;
    return print_stack(ex, 0, 0);
  }
  char *old = arena_strdup(ex->ar, ex->cwd);
  char *argv2[] = {"cd", argv[i], NULL};
  if (sb_cd(ex, 2, argv2))
    return 1;
  if (push_entry(ex, old))
    return 1;
  return print_stack(ex, 0, 0);
}

int sb_popd(sh_exec *ex, int argc, char **argv) {
  (void)argc;
  (void)argv;
  if (!ex->ndirstack) {
    sh_builtin_err(ex, "popd", "directory stack empty");
    return 1;
  }
  char *top = ex->dirstack[ex->ndirstack - 1];
  char *argv2[] = {"cd", top, NULL};
  if (sb_cd(ex, 2, argv2))
    return 1;
  mem_free(ex->m, top);
  ex->ndirstack--;
  return print_stack(ex, 0, 0);
}
