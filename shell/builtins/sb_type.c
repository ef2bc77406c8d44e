/*
 * sb_type.c - builtins about names: type, command, builtin, alias,
 * unalias, enable, help, and getopts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

static const char *const keywords[] = {
    "!",    "[[",   "]]",    "case",  "coproc",   "do", "done", "elif",
    "else", "esac", "fi",    "for",   "function", "if", "in",   "select",
    "then", "time", "until", "while", "{",        "}",  NULL};

/* Builtins of real bash that builtins/ implements as commands: `type`
 * reports them as shell builtins. */
static const char *const bash_builtins[] = {
    "[",   "echo", "false",   "printf",  "test",     "true",    "kill",
    "pwd", "read", "ulimit",  "compgen", "complete", "bind",    "fc",
    "fg",  "bg",   "history", "logout",  "suspend",  "compopt", NULL};

static int in_list(const char *const *l, const char *s) {
  for (int i = 0; l[i]; i++)
    if (l[i][0] == s[0] && strcmp(l[i], s) == 0)
      return 1;
  return 0;
}

int sh_is_bash_builtin(const char *name) {
  return in_list(bash_builtins, name);
}

static int is_builtin(sh_exec *ex, const char *name) {
  if (sh_builtin_lookup(name) && strcmp(name, "bash") != 0 &&
      strcmp(name, "sh") != 0)
    return 1;
  const bi_def *d = bi_lookup(name);
  if (d && in_list(bash_builtins, name))
    return 1;
  (void)ex;
  return 0;
}

/* One finding about name that is not a file: its kind for type -t, the
 * name for command -v, or the sentence of plain type (none with -p).
 * True when the sentence was written. */
static int say_kind(buf *b, const char *name, int mode, int path_only,
                    const char *kind, const char *sentence) {
  if (mode == 't')
    buf_printf(b, "%s\n", kind);
  else if (mode == 'v')
    buf_printf(b, "%s\n", name);
  else if (!path_only) {
    buf_printf(b, "%s is %s\n", name, sentence);
    return 1;
  }
  return 0;
}

/* name found as the executable file path. */
static void say_file(buf *b, const char *name, const char *path, int mode,
                     int path_only) {
  if (mode == 't')
    buf_puts(b, "file\n");
  else if (mode == 'v' || path_only)
    buf_printf(b, "%s\n", path);
  else
    buf_printf(b, "%s is %s\n", name, path);
}

/* Describe name; mode 't' (type -t), 'v' (command -v), 'V' (type). */
static int describe(sh_exec *ex, buf *b, const char *name, int mode, int all,
                    int path_only, int force_path, int no_funcs) {
  int found = 0;
  if (!force_path) {
    const char *al = sh_alias_get(ex, name);
    if (al && (ex->shopts & SO_EXPAND_ALIASES)) {
      found = 1;
      if (mode == 't')
        buf_puts(b, "alias\n");
      else if (mode == 'v') {
        buf_printf(b, "alias %s=", name);
        sh_quote(b, al, strlen(al));
        buf_putc(b, '\n');
      } else if (!path_only)
        buf_printf(b, "%s is aliased to `%s'\n", name, al);
      if (!all)
        return 1;
    }
    if (in_list(keywords, name)) {
      found = 1;
      say_kind(b, name, mode, path_only, "keyword", "a shell keyword");
      if (!all)
        return 1;
    }
    sh_func *f = no_funcs ? NULL : sh_func_find(ex, name);
    if (f) {
      found = 1;
      if (say_kind(b, name, mode, path_only, "function", "a function"))
        sh_print_func(ex, b, f);
      if (!all)
        return 1;
    }
    if (is_builtin(ex, name)) {
      found = 1;
      say_kind(b, name, mode, path_only, "builtin", "a shell builtin");
      if (!all)
        return 1;
    }
  }
  if (strchr(name, '/')) {
    vfs_stat_t st;
    if (vfs_stat(ex->run->v, ex->cwd, name, &st) == 0 && st.type != VFS_DIR &&
        vfs_access(ex->run->v, ex->cwd, name, X_OK) == 0) {
      say_file(b, name, name, mode, path_only);
      return 1;
    }
    return found;
  }
  /* A remembered command is that file (-a looks at PATH itself). */
  const char *hashed = all ? NULL : sh_hash_get(ex, name, 0);
  if (hashed) {
    if (mode == 'V' && !path_only)
      buf_printf(b, "%s is hashed (%s)\n", name, hashed);
    else
      say_file(b, name, hashed, mode, path_only);
    return 1;
  }
  /* PATH: every match with -a */
  const char *path = sh_getvar(ex, "PATH");
  if (!path)
    path = "/usr/bin:/bin";
  const char *p = path;
  for (;;) {
    const char *e = strchr(p, ':');
    size_t dl = e ? (size_t)(e - p) : strlen(p);
    char *full = arena_alloc(ex->ar, dl + strlen(name) + 2);
    if (!full)
      break;
    if (dl)
      snprintf(full, dl + strlen(name) + 2, "%.*s/%s", (int)dl, p, name);
    else
      strcpy(full, name);
    vfs_stat_t st;
    if (vfs_stat(ex->run->v, ex->cwd, full, &st) == 0 && st.type != VFS_DIR &&
        vfs_access(ex->run->v, ex->cwd, full, X_OK) == 0) {
      found = 1;
      say_file(b, name, full, mode, path_only);
      if (!all)
        return 1;
    }
    if (!e)
      break;
    p = e + 1;
  }
  if (!found && !all) {
    /* No executable file: like bash, the first file of that name that
     * is not (running it would then fail with "Permission denied"). */
    char *ne = sh_path_search(ex, name, 0);
    if (ne) {
      say_file(b, name, ne, mode, path_only);
      return 1;
    }
  }
  if (!found && sh_host_lookup(ex, name)) {
    found = 1;
    if (mode == 't')
      buf_puts(b, "file\n");
    else if (mode == 'v')
      buf_printf(b, "%s\n", name);
    else
      buf_printf(b, "%s is %s\n", name, name);
  }
  return found;
}

int sb_type(sh_exec *ex, int argc, char **argv) {
  int mode = 'V', all = 0, path_only = 0, force = 0, no_funcs = 0;
  sh_getopt g;
  sh_getopt_init(&g, ex, "type", argc, argv, "tapPf");
  g.usage = "[-afptP] name [name ...]";
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    switch (o) {
    case 't':
      mode = 't';
      break;
    case 'a':
      all = 1;
      break;
    case 'p':
      path_only = 1;
      break;
    case 'P':
      path_only = 1;
      force = 1;
      break;
    case 'f':
      no_funcs = 1;
      break;
    }
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  int st = 0;
  buf b;
  buf_init(&b, ex->m);
  for (; i < argc; i++) {
    size_t before = b.len;
    if (!describe(ex, &b, argv[i], mode, all, path_only, force, no_funcs)) {
      st = 1;
      if (mode != 't' && !path_only) {
        sh_out(ex, b.data ? b.data : "", b.len);
        buf_clear(&b);
        sh_builtin_err(ex, "type", "%s: not found", argv[i]);
      }
    }
    (void)before;
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return st;
}

/* bash's standard PATH for command -p, as the sandbox lays it out. */
static const char std_dirs[] = "/usr/bin:/bin";

/* name as an executable file of the standard PATH, or NULL. */
static char *std_path_find(sh_exec *ex, const char *name) {
  const char *p = std_dirs;
  for (;;) {
    const char *e = strchr(p, ':');
    size_t dl = e ? (size_t)(e - p) : strlen(p);
    size_t n = dl + strlen(name) + 2;
    char *full = arena_alloc(ex->ar, n);
    if (!full) {
      sh_oom(ex);
      return NULL;
    }
    snprintf(full, n, "%.*s/%s", (int)dl, p, name);
    vfs_stat_t st;
    if (vfs_stat(ex->run->v, ex->cwd, full, &st) == 0 && st.type != VFS_DIR &&
        vfs_access(ex->run->v, ex->cwd, full, X_OK) == 0)
      return full;
    if (!e)
      return NULL;
    p = e + 1;
  }
}

/* Does the sandbox have its /usr/bin layout (the command stubs)? Without
 * it, commands are found by name alone. */
static int std_path_has_layout(sh_exec *ex) {
  vfs_stat_t st;
  return vfs_stat(ex->run->v, "/", "/usr/bin/bash", &st) == 0;
}

int sb_command(sh_exec *ex, int argc, char **argv) {
  int v = 0, V = 0, std_path = 0;
  sh_getopt g;
  sh_getopt_init(&g, ex, "command", argc, argv, "vVp");
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    if (o == 'v')
      v = 1;
    else if (o == 'V')
      V = 1;
    else if (o == 'p')
      std_path = 1;
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  if (i >= argc)
    return 0;
  if (v || V) {
    /* bash: the status is 0 when any of the names was found. */
    int any = 0;
    buf b;
    buf_init(&b, ex->m);
    for (; i < argc; i++) {
      if (describe(ex, &b, argv[i], V ? 'V' : 'v', 0, 0, 0, 0)) {
        any = 1;
      } else {
        if (V) {
          sh_out(ex, b.data ? b.data : "", b.len);
          buf_clear(&b);
          sh_builtin_err(ex, "command", "%s: not found", argv[i]);
        }
      }
    }
    sh_out(ex, b.data ? b.data : "", b.len);
    buf_free(&b);
    return !any;
  }
  const char *name = argv[i];
  if (std_path && !strchr(name, '/') && !is_builtin(ex, name)) {
    /* -p: the file from the standard PATH, whatever PATH says. */
    char *full = std_path_find(ex, name);
    if (ex->jump == J_ABORT)
      return 1;
    if (!full && (!bi_lookup(name) || std_path_has_layout(ex))) {
      sh_err(ex, "%s: command not found", name);
      return 127;
    }
    if (full) {
      char *save = argv[i];
      argv[i] = full;
      int st = sh_reenter(ex)->dispatch(ex, argc - i, argv + i, 1);
      argv[i] = save;
      return st;
    }
  }
  return sh_reenter(ex)->dispatch(ex, argc - i, argv + i, 1);
}

int sb_builtin(sh_exec *ex, int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--") == 0) {
    argc--;
    argv++;
  }
  if (argc < 2)
    return 0;
  const char *name = argv[1];
  /* Only bash's builtins: the other commands are files for bash. */
  if (!is_builtin(ex, name)) {
    sh_builtin_err(ex, "builtin", "%s: not a shell builtin", name);
    return 1;
  }
  const sh_builtin *sb = sh_builtin_lookup(name);
  if (sb)
    return sb->fn(ex, argc - 1, argv + 1);
  const bi_def *d = bi_lookup(name);
  if (d && !((d->flags & BI_NET) && !sh_have_net(ex))) {
    bi_ctx c;
    sh_reenter(ex)->fill_bi_ctx(ex, &c, argc - 1, argv + 1);
    return d->fn(&c);
  }
  sh_builtin_err(ex, "builtin", "%s: not a shell builtin", name);
  return 1;
}

int sb_alias(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  int print = 0;
  if (i < argc && strcmp(argv[i], "-p") == 0) {
    print = 1;
    i++;
  }
  if (i < argc && strcmp(argv[i], "--") == 0)
    i++;
  buf b;
  buf_init(&b, ex->m);
  int st = 0;
  if (i >= argc || print) {
    /* all aliases, sorted */
    if (ex->aliases) {
      size_t n = ex->aliases->n, k = 0;
      const char **names = arena_alloc(ex->ar, (n + 1) * sizeof *names);
      uint32_t it = 0;
      void *e;
      while (names && (e = sh_map_next(ex->aliases, &it)))
        names[k++] = *(char **)e;
      for (size_t a = 0; names && a < k; a++)
        for (size_t c = a + 1; c < k; c++)
          if (strcmp(names[a], names[c]) > 0) {
            const char *t = names[a];
            names[a] = names[c];
            names[c] = t;
          }
      for (size_t a = 0; names && a < k; a++) {
        const char *val = sh_alias_get(ex, names[a]);
        buf_printf(&b, "alias %s=", names[a]);
        sh_quote(&b, val, strlen(val));
        buf_putc(&b, '\n');
      }
    }
  }
  for (; i < argc; i++) {
    const char *a = argv[i];
    const char *eq = strchr(a, '=');
    if (!eq) {
      const char *val = sh_alias_get(ex, a);
      if (!val) {
        sh_builtin_err(ex, "alias", "%s: not found", a);
        st = 1;
        continue;
      }
      buf_printf(&b, "alias %s=", a);
      sh_quote(&b, val, strlen(val));
      buf_putc(&b, '\n');
      continue;
    }
    char *name = arena_strndup(ex->ar, a, (size_t)(eq - a));
    if (!name || !*name || strchr(name, '/') || strchr(name, '$')) {
      sh_builtin_err(ex, "alias", "`%s': invalid alias name", name ? name : a);
      st = 1;
      continue;
    }
    sh_alias_set(ex, name, eq + 1);
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return st;
}

int sb_unalias(sh_exec *ex, int argc, char **argv) {
  int i = 1;
  int st = 0;
  if (i < argc && strcmp(argv[i], "-a") == 0) {
    if (ex->aliases) {
      uint32_t it = 0;
      void *e;
      size_t n = ex->aliases->n, k = 0;
      char **names = arena_alloc(ex->ar, (n + 1) * sizeof *names);
      while (names && (e = sh_map_next(ex->aliases, &it)))
        names[k++] = arena_strdup(ex->ar, *(char **)e);
      for (size_t a = 0; names && a < k; a++)
        sh_alias_unset(ex, names[a]);
    }
    return 0;
  }
  if (i < argc && strcmp(argv[i], "--") == 0)
    i++;
  if (i >= argc) {
    sh_usage(ex, "unalias: usage: unalias [-a] name [name ...]");
    return 2;
  }
  for (; i < argc; i++) {
    if (sh_alias_unset(ex, argv[i])) {
      sh_builtin_err(ex, "unalias", "%s: not found", argv[i]);
      st = 1;
    }
  }
  return st;
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* `enable` and `enable -a/-p/-s`: the builtins, in name order. */
static int enable_list(sh_exec *ex, int special_only) {
  size_t n;
  const sh_builtin *t = sh_builtin_all(&n);
  size_t nb = sizeof bash_builtins / sizeof bash_builtins[0];
  const char **names = arena_alloc(ex->ar, (n + nb) * sizeof *names);
  if (!names)
    return sh_oom(ex);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (is_builtin(ex, t[i].name) &&
        (!special_only || (t[i].flags & SB_SPECIAL)))
      names[k++] = t[i].name;
  for (size_t i = 0; !special_only && bash_builtins[i]; i++)
    if (!sh_builtin_lookup(bash_builtins[i]) &&
        is_builtin(ex, bash_builtins[i]))
      names[k++] = bash_builtins[i];
  qsort(names, k, sizeof *names, cmp_name);
  for (size_t i = 0; i < k; i++)
    sh_outf(ex, "enable %s\n", names[i]);
  return 0;
}

/* No builtin can be loaded from a shared object in the sandbox (there is
 * no host library to load), and none is dynamically loaded, so -f and -d
 * fail as bash's do when the load fails. Disabling (-n) is accepted and
 * changes nothing: the builtin stays the one that runs. */
int sb_enable(sh_exec *ex, int argc, char **argv) {
  static const char usage[] = "[-a] [-dnps] [-f filename] [name ...]";
  sh_getopt g;
  sh_getopt_init(&g, ex, "enable", argc, argv, "adnpsf:");
  g.usage = usage;
  int o, list_special = 0, del = 0;
  const char *file = NULL;
  while ((o = sh_getopt_next(&g)) > 0) {
    if (o == 'f')
      file = g.arg;
    else if (o == 'd')
      del = 1;
    else if (o == 's')
      list_special = 1;
  }
  if (o < 0) {
    if (g.opt == 'f')
      sh_usage(ex, "enable: usage: enable %s", usage);
    return 2;
  }
  if (file) {
    sh_builtin_err(ex, "enable",
                   "cannot open shared object %s: loading builtins from a "
                   "shared object is not supported",
                   file);
    return 1;
  }
  if (g.ind >= argc)
    return enable_list(ex, list_special);
  int st = 0;
  for (int i = g.ind; i < argc; i++) {
    if (!is_builtin(ex, argv[i])) {
      sh_builtin_err(ex, "enable", "%s: not a shell builtin", argv[i]);
      st = 1;
    } else if (del) {
      sh_builtin_err(ex, "enable", "%s: not dynamically loaded", argv[i]);
      st = 1;
    }
  }
  return st;
}

int sb_help(sh_exec *ex, int argc, char **argv) {
  if (argc > 1) {
    const bi_def *d = bi_lookup(argv[1]);
    if (d) {
      sh_outf(ex, "%s\n%s", d->usage, d->help);
      return 0;
    }
    if (sh_builtin_lookup(argv[1])) {
      sh_outf(ex, "%s: %s\n", argv[1], argv[1]);
      return 0;
    }
    sh_builtin_err(ex, "help",
                   "no help topics match `%s'.  Try `help help' "
                   "or `man -k %s' or `info %s'.",
                   argv[1], argv[1], argv[1]);
    return 1;
  }
  sh_outs(ex, "bash (GNU bash compatible; vsh) 5.2.15(1)-release\n");
  return 0;
}

/* ---- getopts
 * ----------------------------------------------------------------- */

int sb_getopts(sh_exec *ex, int argc, char **argv) {
  if (argc < 3) {
    sh_usage(ex, "getopts: usage: getopts optstring name [arg ...]");
    return 2;
  }
  const char *opts = argv[1];
  const char *name = argv[2];
  int nargs;
  char **args;
  if (argc > 3) {
    nargs = argc - 3;
    args = argv + 3;
  } else {
    nargs = ex->args ? ex->args->n : 0;
    args = ex->args ? ex->args->v : NULL;
  }
  int silent = opts[0] == ':';
  if (silent)
    opts++;
  const char *oi = sh_getvar(ex, "OPTIND");
  int64_t optind = 1;
  if (oi && sh_parse_int(oi, &optind))
    optind = 1;
  if (optind < 1)
    optind = 1;
  if (optind != ex->getopts_ind)
    ex->getopts_sub = 0;
  char optstr[2] = {0, 0};
  if (optind > nargs) {
    /* Past the end, bash pulls OPTIND back to just after the last
     * argument (1 when there are none). */
    optind = nargs + 1;
    sh_setvar_int(ex, "OPTIND", optind);
    sh_setvar(ex, name, "?", 1, 0);
    sh_unsetvar(ex, "OPTARG"); /* bash: no argument at the end */
    ex->getopts_ind = (int)optind;
    return 1;
  }
  const char *arg = args[optind - 1];
  if (ex->getopts_sub == 0) {
    if (arg[0] != '-' || arg[1] == 0) {
      sh_setvar(ex, name, "?", 1, 0);
      sh_unsetvar(ex, "OPTARG");
      ex->getopts_ind = (int)optind;
      return 1;
    }
    if (strcmp(arg, "--") == 0) {
      sh_setvar_int(ex, "OPTIND", optind + 1);
      ex->getopts_ind = (int)optind + 1;
      sh_setvar(ex, name, "?", 1, 0);
      sh_unsetvar(ex, "OPTARG");
      return 1;
    }
    ex->getopts_sub = 1;
  }
  char c = arg[ex->getopts_sub];
  ex->getopts_sub++;
  int last = arg[ex->getopts_sub] == 0;
  const char *spec = c && c != ':' ? strchr(opts, c) : NULL;
  optstr[0] = c;
  if (!spec) {
    if (last) {
      optind++;
      ex->getopts_sub = 0;
    }
    sh_setvar_int(ex, "OPTIND", optind);
    ex->getopts_ind = (int)optind;
    sh_setvar(ex, name, "?", 1, 0);
    if (silent) {
      sh_setvar(ex, "OPTARG", optstr, 1, 0);
    } else {
      sh_unsetvar(ex, "OPTARG");
      const char *opterr = sh_getvar(ex, "OPTERR");
      if (!opterr || strcmp(opterr, "0") != 0)
        sh_err_noline(ex, "illegal option -- %c", c);
    }
    return 0;
  }
  if (spec[1] == ':') {
    if (!last) {
      const char *val = arg + ex->getopts_sub;
      sh_setvar(ex, "OPTARG", val, strlen(val), 0);
      optind++;
    } else if (optind < nargs) {
      const char *val = args[optind];
      sh_setvar(ex, "OPTARG", val, strlen(val), 0);
      optind += 2;
    } else {
      optind++;
      ex->getopts_sub = 0;
      sh_setvar_int(ex, "OPTIND", optind);
      ex->getopts_ind = (int)optind;
      if (silent) {
        sh_setvar(ex, name, ":", 1, 0);
        sh_setvar(ex, "OPTARG", optstr, 1, 0);
      } else {
        sh_setvar(ex, name, "?", 1, 0);
        sh_unsetvar(ex, "OPTARG");
        const char *opterr = sh_getvar(ex, "OPTERR");
        if (!opterr || strcmp(opterr, "0") != 0)
          sh_err_noline(ex, "option requires an argument -- %c", c);
      }
      return 0;
    }
    ex->getopts_sub = 0;
  } else {
    sh_unsetvar(ex, "OPTARG");
    if (last) {
      optind++;
      ex->getopts_sub = 0;
    }
  }
  sh_setvar_int(ex, "OPTIND", optind);
  ex->getopts_ind = (int)optind;
  if (!sh_valid_name(name, strlen(name))) {
    /* bash has already moved OPTIND and OPTARG; only the name fails. */
    sh_builtin_err(ex, "getopts", "`%s': not a valid identifier", name);
    return 1;
  }
  sh_setvar(ex, name, optstr, 1, 0);
  return 0;
}
