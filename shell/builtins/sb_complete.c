/*
 * sb_complete.c - programmable completion builtins: complete, compgen,
 * compopt.
 *
 * There is no line editor in the sandbox, so `complete` only records
 * specifications (for `complete -p` and for scripts that inspect them), while
 * `compgen` really generates candidates: scripts call it to list functions,
 * variables, files, or to filter a word list. Candidates are produced in
 * bash's order: the simple name lists (aliases, builtins, functions,
 * variables, ...), then commands, directories, files, users and groups, then
 * -G, -W, -F and -C; then -X filters, -P/-S decorate, and -o plusdirs adds
 * directories.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "shell/builtins/builtins.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/syntax/parse.h"

/* Actions, in the order compgen generates them. */
enum {
  CA_ALIAS,
  CA_ARRAYVAR,
  CA_BINDING,
  CA_BUILTIN,
  CA_DISABLED,
  CA_ENABLED,
  CA_EXPORT,
  CA_FUNCTION,
  CA_HELPTOPIC,
  CA_HOSTNAME,
  CA_JOB,
  CA_KEYWORD,
  CA_RUNNING,
  CA_SETOPT,
  CA_SHOPT,
  CA_SIGNAL,
  CA_STOPPED,
  CA_VARIABLE,
  CA_COMMAND,
  CA_DIRECTORY,
  CA_FILE,
  CA_USER,
  CA_GROUP,
  CA_SERVICE,
  CA_N
};

static const char *const action_names[CA_N] = {
    "alias",   "arrayvar",  "binding",   "builtin",  "disabled", "enabled",
    "export",  "function",  "helptopic", "hostname", "job",      "keyword",
    "running", "setopt",    "shopt",     "signal",   "stopped",  "variable",
    "command", "directory", "file",      "user",     "group",    "service"};

/* Short option letters of actions (complete -p prints these first, in this
 * order, and the rest as -A NAME in name order). */
static const struct {
  char letter;
  int action;
} short_actions[] = {
    {'a', CA_ALIAS},     {'b', CA_BUILTIN}, {'c', CA_COMMAND},
    {'d', CA_DIRECTORY}, {'e', CA_EXPORT},  {'f', CA_FILE},
    {'g', CA_GROUP},     {'j', CA_JOB},     {'k', CA_KEYWORD},
    {'s', CA_SERVICE},   {'u', CA_USER},    {'v', CA_VARIABLE}};
#define NSHORT ((int)(sizeof short_actions / sizeof short_actions[0]))

/* -o options in complete -p order. */
static const char *const copt_names[] = {"bashdefault", "default",  "dirnames",
                                         "filenames",   "noquote",  "nosort",
                                         "nospace",     "plusdirs", NULL};
enum { CO_BASHDEFAULT = 1, CO_DEFAULT = 2, CO_DIRNAMES = 4, CO_PLUSDIRS = 128 };

/* Bash's builtins, in its table order (compgen -b). */
static const char *const bash_builtins[] = {
    ".",         ":",        "[",        "alias",   "bg",      "bind",
    "break",     "builtin",  "caller",   "cd",      "command", "compgen",
    "complete",  "compopt",  "continue", "declare", "dirs",    "disown",
    "echo",      "enable",   "eval",     "exec",    "exit",    "export",
    "false",     "fc",       "fg",       "getopts", "hash",    "help",
    "history",   "jobs",     "kill",     "let",     "local",   "logout",
    "mapfile",   "popd",     "printf",   "pushd",   "pwd",     "read",
    "readarray", "readonly", "return",   "set",     "shift",   "shopt",
    "source",    "suspend",  "test",     "times",   "trap",    "true",
    "type",      "typeset",  "ulimit",   "umask",   "unalias", "unset",
    "wait",      NULL};

/* Reserved words in the order bash lists them. */
static const char *const bash_keywords[] = {
    "if",     "then",  "else",  "elif", "fi",   "case",   "esac",     "for",
    "select", "while", "until", "do",   "done", "in",     "function", "time",
    "{",      "}",     "!",     "[[",   "]]",   "coproc", NULL};

/* Topics `help` knows (compgen -A helptopic). */
static const char *const help_topics[] = {
    "%",         "(( ... ))", ".",       ":",         "[",        "[[ ... ]]",
    "alias",     "bg",        "bind",    "break",     "builtin",  "caller",
    "case",      "cd",        "command", "compgen",   "complete", "compopt",
    "continue",  "coproc",    "declare", "dirs",      "disown",   "echo",
    "enable",    "eval",      "exec",    "exit",      "export",   "false",
    "fc",        "fg",        "for",     "for ((",    "function", "getopts",
    "hash",      "help",      "history", "if",        "jobs",     "kill",
    "let",       "local",     "logout",  "mapfile",   "popd",     "printf",
    "pushd",     "pwd",       "read",    "readarray", "readonly", "return",
    "select",    "set",       "shift",   "shopt",     "source",   "suspend",
    "test",      "time",      "times",   "trap",      "true",     "type",
    "typeset",   "ulimit",    "umask",   "unalias",   "unset",    "until",
    "variables", "wait",      "while",   "{ ... }",   NULL};

const char *sh_option_name_at(int shopt, int i);

/* One stored specification. The first member is the name (sh_map). */
typedef struct compspec {
  char *name;
  uint32_t actions; /* 1 << CA_* */
  unsigned opts;    /* 1 << index in copt_names */
  char *glob, *words, *prefix, *suffix, *filter, *func, *cmd;
  uint64_t seq;
} compspec;

/* complete -D / -E / -I are stored under bash's reserved keys. */
#define KEY_DEFAULT "_DefaultCmD_"
#define KEY_EMPTY "_EmptycmD_"
#define KEY_INITIAL "_InitialWorD_"

static void spec_free(mem *m, compspec *s) {
  if (!s)
    return;
  mem_free(m, s->name);
  mem_free(m, s->glob);
  mem_free(m, s->words);
  mem_free(m, s->prefix);
  mem_free(m, s->suffix);
  mem_free(m, s->filter);
  mem_free(m, s->func);
  mem_free(m, s->cmd);
  mem_free(m, s);
}

static char *dup_or_null(mem *m, const char *s) {
  return s ? mem_strdup(m, s) : NULL;
}

static compspec *spec_clone(mem *m, const compspec *s, const char *name) {
  compspec *c = mem_calloc(m, 1, sizeof *c);
  if (!c)
    return NULL;
  *c = *s;
  c->name = mem_strdup(m, name);
  c->glob = dup_or_null(m, s->glob);
  c->words = dup_or_null(m, s->words);
  c->prefix = dup_or_null(m, s->prefix);
  c->suffix = dup_or_null(m, s->suffix);
  c->filter = dup_or_null(m, s->filter);
  c->func = dup_or_null(m, s->func);
  c->cmd = dup_or_null(m, s->cmd);
  if (!c->name || (s->glob && !c->glob) || (s->words && !c->words) ||
      (s->prefix && !c->prefix) || (s->suffix && !c->suffix) ||
      (s->filter && !c->filter) || (s->func && !c->func) ||
      (s->cmd && !c->cmd)) {
    spec_free(m, c);
    return NULL;
  }
  return c;
}

void sh_comp_free(sh_exec *ex) {
  if (!ex->comp)
    return;
  uint32_t i = 0;
  compspec *s;
  while ((s = sh_map_next(ex->comp, &i)))
    spec_free(ex->m, s);
  sh_map_free(ex->m, ex->comp);
  mem_free(ex->m, ex->comp);
  ex->comp = NULL;
}

/* A subshell gets its own copy, so `complete` there does not leak out. */
int sh_comp_copy(sh_exec *dst, const sh_exec *src) {
  if (!src->comp || !src->comp->n)
    return 0;
  dst->comp = mem_calloc(dst->m, 1, sizeof *dst->comp);
  if (!dst->comp)
    return -1;
  uint32_t i = 0;
  compspec *s;
  while ((s = sh_map_next(src->comp, &i))) {
    compspec *c = spec_clone(dst->m, s, s->name);
    if (!c || sh_map_put(dst->m, dst->comp, c)) {
      spec_free(dst->m, c);
      return -1;
    }
  }
  return 0;
}

/* ---- option parsing shared by complete and compgen ---------------------- */

typedef struct copts {
  compspec s;
  int print, remove, dflt, empty, initial;
  int nargs;
  char **args;
} copts;

static int action_by_name(const char *n) {
  for (int i = 0; i < CA_N; i++)
    if (strcmp(action_names[i], n) == 0)
      return i;
  return -1;
}

static int copt_by_name(const char *n) {
  for (int i = 0; copt_names[i]; i++)
    if (strcmp(copt_names[i], n) == 0)
      return i;
  return -1;
}

/* Parse options; is_complete allows -p -r -D -E -I. Returns 0, or the
 * status of a usage error (2) after printing it. */
static int parse_opts(sh_exec *ex, const char *me, int argc, char **argv,
                      copts *o, int is_complete) {
  memset(o, 0, sizeof *o);
  sh_getopt g;
  sh_getopt_init(&g, ex, me, argc, argv,
                 is_complete ? "abcdefgjksuvprDEIo:A:G:W:P:S:X:F:C:"
                             : "abcdefgjksuvo:A:G:W:P:S:X:F:C:");
  g.usage = "[-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W "
            "wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] "
            "[-S suffix] [word]";
  int c;
  while ((c = sh_getopt_next(&g)) > 0) {
    const char *arg = g.arg;
    int sa = -1;
    for (int k = 0; k < NSHORT; k++)
      if (short_actions[k].letter == c)
        sa = short_actions[k].action;
    if (sa >= 0) {
      o->s.actions |= 1u << sa;
      continue;
    }
    switch (c) {
    case 'o': {
      int k = copt_by_name(arg);
      if (k < 0) {
        sh_builtin_err(ex, me, "%s: invalid option name", arg);
        return 2;
      }
      o->s.opts |= 1u << k;
      break;
    }
    case 'A': {
      int k = action_by_name(arg);
      if (k < 0) {
        sh_builtin_err(ex, me, "%s: invalid action name", arg);
        return 2;
      }
      o->s.actions |= 1u << k;
      break;
    }
    case 'G':
      o->s.glob = (char *)arg;
      break;
    case 'W':
      o->s.words = (char *)arg;
      break;
    case 'P':
      o->s.prefix = (char *)arg;
      break;
    case 'S':
      o->s.suffix = (char *)arg;
      break;
    case 'X':
      o->s.filter = (char *)arg;
      break;
    case 'F':
      o->s.func = (char *)arg;
      break;
    case 'C':
      o->s.cmd = (char *)arg;
      break;
    case 'p':
      o->print = 1;
      break;
    case 'r':
      o->remove = 1;
      break;
    case 'D':
      o->dflt = 1;
      break;
    case 'E':
      o->empty = 1;
      break;
    case 'I':
      o->initial = 1;
      break;
    }
  }
  if (c < 0)
    return 2;
  int i = g.ind;
  o->nargs = argc - i;
  o->args = argv + i;
  return 0;
}

/* ---- complete ---------------------------------------------------------- */

static uint32_t fnv(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) {
    h *= 16777619u;
    h ^= (unsigned char)*s;
  }
  return h;
}

/* Listing order: bash walks a 256-bucket hash table (newest first within a
 * bucket); scripts that print several specs see that order. */
static int spec_order(const void *a, const void *b) {
  const compspec *x = *(compspec *const *)a, *y = *(compspec *const *)b;
  uint32_t hx = fnv(x->name) & 255, hy = fnv(y->name) & 255;
  if (hx != hy)
    return hx < hy ? -1 : 1;
  return x->seq > y->seq ? -1 : x->seq < y->seq;
}

static void put_quoted_opt(buf *b, const char *flag, const char *v) {
  if (!v)
    return;
  buf_printf(b, " %s ", flag);
  /* complete -p always single-quotes these arguments. */
  buf_putc(b, '\'');
  for (const char *p = v; *p; p++) {
    if (*p == '\'')
      buf_puts(b, "'\\''");
    else
      buf_putc(b, *p);
  }
  buf_putc(b, '\'');
}

static void print_spec(buf *b, const compspec *s) {
  buf_puts(b, "complete");
  for (int i = 0; copt_names[i]; i++)
    if (s->opts & (1u << i))
      buf_printf(b, " -o %s", copt_names[i]);
  for (int k = 0; k < NSHORT; k++)
    if (s->actions & (1u << short_actions[k].action))
      buf_printf(b, " -%c", short_actions[k].letter);
  /* The rest in name order (action_names is nearly sorted: sort here). */
  const char *rest[CA_N];
  int nr = 0;
  for (int a = 0; a < CA_N; a++) {
    int is_short = 0;
    for (int k = 0; k < NSHORT; k++)
      if (short_actions[k].action == a)
        is_short = 1;
    if (!is_short && (s->actions & (1u << a)))
      rest[nr++] = action_names[a];
  }
  for (int i = 1; i < nr; i++)
    for (int j = i; j > 0 && strcmp(rest[j - 1], rest[j]) > 0; j--) {
      const char *t = rest[j];
      rest[j] = rest[j - 1];
      rest[j - 1] = t;
    }
  for (int i = 0; i < nr; i++)
    buf_printf(b, " -A %s", rest[i]);
  put_quoted_opt(b, "-G", s->glob);
  put_quoted_opt(b, "-W", s->words);
  put_quoted_opt(b, "-P", s->prefix);
  put_quoted_opt(b, "-S", s->suffix);
  put_quoted_opt(b, "-X", s->filter);
  put_quoted_opt(b, "-C", s->cmd);
  if (s->func)
    buf_printf(b, " -F %s", s->func);
  if (strcmp(s->name, KEY_DEFAULT) == 0)
    buf_puts(b, " -D\n");
  else if (strcmp(s->name, KEY_EMPTY) == 0)
    buf_puts(b, " -E\n");
  else if (strcmp(s->name, KEY_INITIAL) == 0)
    buf_puts(b, " -I\n");
  else
    buf_printf(b, " %s\n", s->name);
}

static int print_all_specs(sh_exec *ex) {
  if (!ex->comp || !ex->comp->n)
    return 0;
  compspec **v = arena_alloc(ex->ar, ex->comp->n * sizeof *v);
  if (!v)
    return sh_oom(ex);
  size_t n = 0;
  uint32_t i = 0;
  compspec *s;
  while ((s = sh_map_next(ex->comp, &i)))
    v[n++] = s;
  qsort(v, n, sizeof *v, spec_order);
  buf b;
  buf_init(&b, ex->m);
  for (size_t k = 0; k < n; k++)
    print_spec(&b, v[k]);
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return 0;
}

int sb_complete(sh_exec *ex, int argc, char **argv) {
  copts o;
  int st = parse_opts(ex, "complete", argc, argv, &o, 1);
  if (st)
    return st;
  const char *special = o.dflt      ? KEY_DEFAULT
                        : o.empty   ? KEY_EMPTY
                        : o.initial ? KEY_INITIAL
                                    : NULL;
  int nnames = special ? 1 : o.nargs;
  int listing = o.print || (argc == 1);
  if (listing || (o.print && !nnames)) {
    if (!nnames)
      return print_all_specs(ex);
    buf b;
    buf_init(&b, ex->m);
    for (int k = 0; k < nnames; k++) {
      const char *nm = special ? special : o.args[k];
      compspec *s = ex->comp ? sh_map_get(ex->comp, nm) : NULL;
      if (s)
        print_spec(&b, s);
      else {
        sh_out(ex, b.data ? b.data : "", b.len);
        b.len = 0;
        sh_builtin_err(ex, "complete", "%s: no completion specification", nm);
        st = 1;
      }
    }
    sh_out(ex, b.data ? b.data : "", b.len);
    buf_free(&b);
    return st;
  }
  if (o.remove) {
    if (!nnames) {
      sh_comp_free(ex);
      return 0;
    }
    for (int k = 0; k < nnames; k++) {
      const char *nm = special ? special : o.args[k];
      compspec *s = ex->comp ? sh_map_del(ex->comp, nm) : NULL;
      if (!s) {
        sh_builtin_err(ex, "complete", "%s: no completion specification", nm);
        st = 1;
      }
      spec_free(ex->m, s);
    }
    return st;
  }
  if (!nnames) {
    sh_usage(ex, "complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] "
                 "[-o option] [-A action] [-G globpat] [-W wordlist] [-F "
                 "function] [-C command] [-X filterpat] [-P prefix] [-S "
                 "suffix] [name ...]");
    return 2;
  }
  if (!ex->comp) {
    ex->comp = mem_calloc(ex->m, 1, sizeof *ex->comp);
    if (!ex->comp)
      return sh_oom(ex);
  }
  for (int k = 0; k < nnames; k++) {
    const char *nm = special ? special : o.args[k];
    compspec *c = spec_clone(ex->m, &o.s, nm);
    if (!c)
      return sh_oom(ex);
    c->seq = ++ex->comp_seq;
    compspec *old = sh_map_del(ex->comp, nm);
    spec_free(ex->m, old);
    if (sh_map_put(ex->m, ex->comp, c)) {
      spec_free(ex->m, c);
      return sh_oom(ex);
    }
  }
  return 0;
}

/* ---- candidate generation ----------------------------------------------- */

static char *asp(arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static char *asp(arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : arena_alloc(a, (size_t)n + 1);
  if (!s)
    return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

typedef struct gen {
  sh_exec *ex;
  const char *word;
  size_t wlen;
  sh_strv out;
} gen;

static int starts(const gen *g, const char *s) {
  return strncmp(s, g->word, g->wlen) == 0;
}

static void add(gen *g, const char *s) {
  char *d = arena_strdup(g->ex->ar, s);
  if (d)
    sh_strv_push(g->ex->ar, &g->out, d);
}

static void add_matching(gen *g, const char *s) {
  if (starts(g, s))
    add(g, s);
}

static void add_list(gen *g, const char *const *l) {
  for (int i = 0; l[i]; i++)
    add_matching(g, l[i]);
}

static void add_aliases(gen *g) {
  sh_exec *ex = g->ex;
  if (!ex->aliases)
    return;
  size_t n = 0, cap = ex->aliases->n + 1;
  const char **v = arena_alloc(ex->ar, cap * sizeof *v);
  if (!v)
    return;
  uint32_t i = 0;
  char **e;
  while ((e = sh_map_next(ex->aliases, &i)) && n < cap)
    v[n++] = *e;
  for (size_t a = 1; a < n; a++)
    for (size_t b = a; b > 0 && strcmp(v[b - 1], v[b]) > 0; b--) {
      const char *t = v[b];
      v[b] = v[b - 1];
      v[b - 1] = t;
    }
  for (size_t k = 0; k < n; k++)
    add_matching(g, v[k]);
}

static void add_vars(gen *g, unsigned need) {
  size_t n;
  sh_var **v = sh_all_vars(g->ex, g->ex->ar, &n);
  for (size_t i = 0; v && i < n; i++) {
    unsigned f = v[i]->flags;
    if (f & V_TOMB)
      continue;
    if (!(f & (V_SET | V_ARRAY | V_ASSOC)))
      continue;
    if ((f & need) != need && !(need == V_ARRAY && (f & V_ASSOC)))
      continue;
    add_matching(g, v[i]->name);
  }
}

static void add_funcs(gen *g) {
  size_t n;
  sh_func **f = sh_all_funcs(g->ex, g->ex->ar, &n);
  for (size_t i = 0; f && i < n; i++)
    add_matching(g, f[i]->name);
}

static void add_signals(gen *g) {
  add_matching(g, "EXIT");
  char nm[32];
  for (int i = 1; i < SH_NSIG; i++) {
    const char *s = sh_signal_name(i);
    if (!s)
      continue;
    snprintf(nm, sizeof nm, "SIG%s", s);
    add_matching(g, nm);
  }
}

/* Directory part of the word ("dir/" or ""), the rest, and names from it. */
static void add_files(gen *g, int dirs_only, int exec_only) {
  sh_exec *ex = g->ex;
  const char *slash = strrchr(g->word, '/');
  size_t dl = slash ? (size_t)(slash - g->word) + 1 : 0;
  const char *base = g->word + dl;
  size_t bl = strlen(base);
  char *dir = arena_strndup(ex->ar, g->word, dl);
  if (!dir)
    return;
  /* The directory is read with ~ expanded but printed as typed. */
  const char *rd = dl ? dir : ".";
  if (dir[0] == '~' && (dl == 2 || dir[1] == '/')) {
    const char *home = sh_getvar(ex, "HOME");
    size_t hl = home ? strlen(home) : 0;
    char *t = arena_alloc(ex->ar, hl + dl + 1);
    if (!t)
      return;
    memcpy(t, home ? home : "", hl);
    strcpy(t + hl, dir + 1);
    rd = t;
  }
  vfs_dir *d;
  if (vfs_opendir(ex->run->v, ex->cwd, rd, &d))
    return;
  /* readdir shows . and .. too; they match only a word starting with '.'. */
  if (bl && base[0] == '.') {
    add(g, asp(ex->ar, "%s.", dir));
    if (bl <= 2 && (bl == 1 || base[1] == '.'))
      add(g, asp(ex->ar, "%s..", dir));
  }
  vfs_dirent e;
  while (vfs_dir_next(d, &e) == 1) {
    if (e.name_len < bl || memcmp(e.name, base, bl) != 0)
      continue;
    char *full = asp(ex->ar, "%s%.*s", dir, (int)e.name_len, e.name);
    if (!full)
      break;
    if (dirs_only || exec_only) {
      char *rp = asp(ex->ar, "%s%s%.*s", dl ? "" : "./", dl ? rd : "",
                     (int)e.name_len, e.name);
      vfs_stat_t st;
      if (!rp || vfs_stat(ex->run->v, ex->cwd, rp, &st))
        continue;
      if (dirs_only && st.type != VFS_DIR)
        continue;
      if (exec_only && (st.type == VFS_DIR ||
                        vfs_access(ex->run->v, ex->cwd, rp, X_OK) != 0))
        continue;
    }
    add(g, full);
  }
  vfs_closedir(d);
}

/* First field of each line of a colon file (/etc/passwd, /etc/group). */
/* The names of the entries of a passwd or group file; -1 when there is
 * no such file. */
static int add_db(gen *g, const char *path) {
  sh_exec *ex = g->ex;
  stream *s = sh_open_stream(ex, path, 0, &(int){0});
  if (!s)
    return -1;
  buf b;
  buf_init(&b, ex->m);
  char tmp[4096];
  for (;;) {
    long r = stream_read(s, tmp, sizeof tmp);
    if (r <= 0)
      break;
    buf_append(&b, tmp, (size_t)r);
  }
  stream_unref(s);
  const char *p = b.data, *end = b.data + b.len;
  while (p && p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *c = memchr(p, ':', (size_t)(le - p));
    if (c && c > p) {
      char *nm = arena_strndup(ex->ar, p, (size_t)(c - p));
      if (nm)
        add_matching(g, nm);
    }
    p = nl ? nl + 1 : end;
  }
  buf_free(&b);
  return 0;
}

static void add_commands(gen *g) {
  sh_exec *ex = g->ex;
  if (strchr(g->word, '/')) {
    add_files(g, 0, 1);
    return;
  }
  add_aliases(g);
  add_list(g, bash_keywords);
  add_funcs(g);
  add_list(g, bash_builtins);
  const char *path = sh_getvar(ex, "PATH");
  if (!path)
    return;
  const char *p = path;
  for (;;) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *dir = n ? arena_strndup(ex->ar, p, n) : arena_strdup(ex->ar, ".");
    vfs_dir *d;
    if (dir && vfs_opendir(ex->run->v, ex->cwd, dir, &d) == 0) {
      vfs_dirent de;
      while (vfs_dir_next(d, &de) == 1) {
        if (de.name_len < g->wlen || memcmp(de.name, g->word, g->wlen) != 0)
          continue;
        char *full = asp(ex->ar, "%s/%.*s", dir, (int)de.name_len, de.name);
        vfs_stat_t st;
        if (!full || vfs_stat(ex->run->v, ex->cwd, full, &st) ||
            st.type == VFS_DIR ||
            vfs_access(ex->run->v, ex->cwd, full, X_OK) != 0)
          continue;
        add(g, arena_strndup(ex->ar, de.name, de.name_len));
      }
      vfs_closedir(d);
    }
    if (!e)
      break;
    p = e + 1;
  }
}

static void gen_actions(gen *g, uint32_t acts) {
  for (int a = 0; a < CA_N; a++) {
    if (!(acts & (1u << a)))
      continue;
    switch (a) {
    case CA_ALIAS:
      add_aliases(g);
      break;
    case CA_ARRAYVAR:
      add_vars(g, V_ARRAY);
      break;
    case CA_BUILTIN:
    case CA_ENABLED:
      add_list(g, bash_builtins);
      break;
    case CA_EXPORT:
      add_vars(g, V_EXPORT);
      break;
    case CA_FUNCTION:
      add_funcs(g);
      break;
    case CA_HELPTOPIC:
      add_list(g, help_topics);
      break;
    case CA_KEYWORD:
      add_list(g, bash_keywords);
      break;
    case CA_SETOPT:
    case CA_SHOPT: {
      const char *n;
      for (int i = 0; (n = sh_option_name_at(a == CA_SHOPT, i)); i++)
        add_matching(g, n);
      break;
    }
    case CA_SIGNAL:
      add_signals(g);
      break;
    case CA_VARIABLE:
      add_vars(g, 0);
      break;
    case CA_COMMAND:
      add_commands(g);
      break;
    case CA_DIRECTORY:
      add_files(g, 1, 0);
      break;
    case CA_FILE:
      add_files(g, 0, 0);
      break;
    case CA_USER:
    case CA_GROUP:
      /* Without the files, the sandbox's own two accounts (as id and
       * whoami know them). */
      if (add_db(g, a == CA_USER ? "/etc/passwd" : "/etc/group")) {
        add_matching(g, "root");
        add_matching(g, "user");
      }
      break;
    default:
      /* bindings, hostnames, jobs, services: nothing in a sandbox that has
       * no line editor, no resolver files and no job control. */
      break;
    }
  }
}

/* -W: split at IFS (quotes and backslashes protect delimiters), then expand
 * each piece like a word on a command line, without pathname expansion.
 * Returns -1 after an expansion error. */
static int gen_words(gen *g, const char *text) {
  sh_exec *ex = g->ex;
  const char *ifs = sh_getvar(ex, "IFS");
  if (!ifs)
    ifs = " \t\n";
  buf cmd;
  buf_init(&cmd, ex->m);
  buf_puts(&cmd, ": ");
  const char *p = text;
  int npieces = 0;
  while (*p) {
    while (*p && strchr(ifs, *p))
      p++;
    if (!*p)
      break;
    /* One piece: track quotes and $( ${ nesting; blanks and operators at
     * the top level are escaped so that the parser keeps the piece one
     * word. */
    int depth = 0, sq = 0, dq = 0, bq = 0;
    while (*p) {
      char c = *p;
      if (sq) {
        buf_putc(&cmd, c);
        if (c == '\'')
          sq = 0;
        p++;
        continue;
      }
      if (c == '\\' && p[1]) {
        if (!depth && !dq && !bq && strchr(ifs, p[1]) &&
            !strchr(" \t\n", p[1])) {
          buf_putc(&cmd, p[1]); /* an escaped delimiter is plain text */
        } else {
          buf_putc(&cmd, c);
          buf_putc(&cmd, p[1]);
        }
        p += 2;
        continue;
      }
      if (!depth && !dq && !bq && strchr(ifs, c))
        break;
      if (c == '\'' && !dq) {
        sq = 1;
      } else if (c == '"') {
        dq = !dq;
      } else if (c == '`') {
        bq = !bq;
      } else if (c == '$' && (p[1] == '(' || p[1] == '{')) {
        buf_putc(&cmd, c);
        buf_putc(&cmd, p[1]);
        depth++;
        p += 2;
        continue;
      } else if (depth && (c == '(' || c == '{')) {
        depth++;
      } else if (depth && (c == ')' || c == '}')) {
        depth--;
      } else if (!depth && !dq && !bq && strchr(" \t\n;&|<>(){}#", c)) {
        buf_putc(&cmd, '\\');
      }
      buf_putc(&cmd, c);
      p++;
    }
    buf_putc(&cmd, ' ');
    npieces++;
  }
  if (!npieces) {
    buf_free(&cmd);
    return 0;
  }
  arena a;
  arena_init(&a, ex->m);
  sh_node *n = NULL;
  const char *err = NULL;
  int line = 0;
  int rc = sh_parse_all(&a, cmd.data, cmd.len, NULL, &n, &err, &line);
  if (rc == 0 && n && n->kind == N_LIST && n->u.list.nitems == 1)
    n = n->u.list.items[0].node;
  if (rc != 0 || !n || n->kind != N_SIMPLE) {
    if (err)
      sh_builtin_err(ex, "compgen", "%s", err);
    arena_destroy(&a);
    buf_free(&cmd);
    return -1;
  }
  sh_strv fields = {0};
  unsigned saved = ex->opts;
  ex->opts |= O_NOGLOB;
  rc = sh_expand_words(ex, n->u.simple.words + 1, n->u.simple.nwords - 1,
                       &fields);
  ex->opts = (ex->opts & ~O_NOGLOB) | (saved & O_NOGLOB);
  if (rc == 0)
    for (size_t i = 0; i < fields.n; i++)
      add_matching(g, fields.v[i]);
  arena_destroy(&a);
  buf_free(&cmd);
  return rc == 0 && !ex->jump ? 0 : -1;
}

static void set_comp_vars(sh_exec *ex) {
  sh_var *v = sh_var_lookup_for_write(ex, "COMP_WORDS", SV_QUIET);
  if (v) {
    sh_var_clear_value(ex, v);
    if (sh_var_make_array(ex, v) == 0)
      v->flags |= V_SET;
  }
  sh_setvar(ex, "COMP_CWORD", "-1", 2, SV_QUIET);
  sh_setvar(ex, "COMP_LINE", "", 0, SV_QUIET);
  sh_setvar(ex, "COMP_POINT", "0", 1, SV_QUIET);
}

static void unset_comp_vars(sh_exec *ex) {
  sh_unsetvar(ex, "COMP_WORDS");
  sh_unsetvar(ex, "COMP_CWORD");
  sh_unsetvar(ex, "COMP_LINE");
  sh_unsetvar(ex, "COMP_POINT");
}

/* -F: call the function with (command, word, previous word) and collect
 * COMPREPLY (array or scalar). */
static int gen_func(gen *g, const char *fname) {
  sh_exec *ex = g->ex;
  sh_func *f = sh_func_find(ex, fname);
  if (!f) {
    sh_builtin_err(ex, "compgen", "%s: function not found", fname);
    return 0;
  }
  set_comp_vars(ex);
  char *av[] = {(char *)fname, "compgen", (char *)g->word, "", NULL};
  ex->in_compfunc++;
  sh_reenter(ex)->call_function(ex, f, 4, av);
  ex->in_compfunc--;
  unset_comp_vars(ex);
  if (ex->jump)
    return -1;
  sh_var *v = sh_var_find(ex, "COMPREPLY");
  if (v && (v->flags & V_ARRAY) && v->arr) {
    for (size_t i = 0; i < v->arr->n; i++)
      add(g, v->arr->e[i].val);
  } else if (v && (v->flags & V_SET) && v->val && !(v->flags & V_ASSOC)) {
    add(g, v->val);
  }
  sh_unsetvar(ex, "COMPREPLY");
  return 0;
}

/* -C: run the command with (command, word, previous word); each output
 * line is a candidate. */
static int gen_cmd(gen *g, const char *cmd) {
  sh_exec *ex = g->ex;
  buf text;
  buf_init(&text, ex->m);
  buf_printf(&text, "%s compgen ", cmd);
  sh_quote(&text, g->word, g->wlen);
  buf_puts(&text, " ''");
  arena a;
  arena_init(&a, ex->m);
  sh_node *n = NULL;
  const char *err = NULL;
  int line = 0;
  int st = 0;
  if (sh_parse_all(&a, text.data, text.len, NULL, &n, &err, &line) == 0) {
    buf out;
    buf_init(&out, ex->m);
    sh_reenter(ex)->cmdsub(ex, n, &out);
    const char *p = out.data, *end = out.data + out.len;
    while (p && p < end) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      const char *le = nl ? nl : end;
      add(g, arena_strndup(ex->ar, p, (size_t)(le - p)));
      p = nl ? nl + 1 : end;
    }
    buf_free(&out);
  } else {
    st = -1;
  }
  arena_destroy(&a);
  buf_free(&text);
  return ex->jump ? -1 : st;
}

static int gen_glob(gen *g, const char *pat) {
  sh_strv v = {0};
  if (sh_glob(g->ex, pat, strlen(pat), &v) > 0)
    for (size_t i = 0; i < v.n; i++)
      add(g, v.v[i]);
  return 0;
}

/* -X: drop candidates matching the pattern ("!pat": keep only those). An
 * unescaped & stands for the word being completed. */
static void filter(gen *g, const char *pat) {
  sh_exec *ex = g->ex;
  int neg = pat[0] == '!';
  if (neg)
    pat++;
  buf b;
  buf_init(&b, ex->m);
  for (const char *p = pat; *p; p++) {
    if (*p == '\\' && p[1] == '&') {
      buf_putc(&b, '&');
      p++;
    } else if (*p == '&') {
      for (size_t i = 0; i < g->wlen; i++) {
        if (strchr("*?[]\\!@+()|", g->word[i]))
          buf_putc(&b, '\\');
        buf_putc(&b, g->word[i]);
      }
    } else {
      buf_putc(&b, *p);
    }
  }
  unsigned fl = sh_pat_flags(ex);
  size_t k = 0;
  for (size_t i = 0; i < g->out.n; i++) {
    const char *s = g->out.v[i];
    int m = pat_match(b.data ? b.data : "", b.len, s, strlen(s), fl);
    if (m == neg)
      g->out.v[k++] = g->out.v[i];
  }
  g->out.n = k;
  buf_free(&b);
}

/* Generate for spec s and word; the candidates end up in g->out. Returns
 * -1 after an error that makes compgen fail. */
static int generate(gen *g, const compspec *s) {
  gen_actions(g, s->actions);
  if (s->glob)
    gen_glob(g, s->glob);
  if (s->words && gen_words(g, s->words))
    return -1;
  if (s->func && gen_func(g, s->func))
    return -1;
  if (s->cmd && gen_cmd(g, s->cmd))
    return -1;
  if (s->filter)
    filter(g, s->filter);
  if (s->prefix || s->suffix) {
    const char *pre = s->prefix ? s->prefix : "";
    const char *suf = s->suffix ? s->suffix : "";
    for (size_t i = 0; i < g->out.n; i++)
      g->out.v[i] = asp(g->ex->ar, "%s%s%s", pre, g->out.v[i], suf);
  }
  if (s->opts & CO_PLUSDIRS)
    add_files(g, 1, 0);
  if (!g->out.n && (s->opts & CO_DIRNAMES))
    add_files(g, 1, 0);
  if (!g->out.n && (s->opts & CO_DEFAULT))
    add_files(g, 0, 0);
  return 0;
}

int sb_compgen(sh_exec *ex, int argc, char **argv) {
  copts o;
  int st = parse_opts(ex, "compgen", argc, argv, &o, 0);
  if (st)
    return st;
  gen g = {0};
  g.ex = ex;
  g.word = o.nargs ? o.args[0] : "";
  g.wlen = strlen(g.word);
  if (generate(&g, &o.s))
    return 1;
  if (!g.out.n)
    return 1;
  buf b;
  buf_init(&b, ex->m);
  for (size_t i = 0; i < g.out.n; i++) {
    buf_puts(&b, g.out.v[i]);
    buf_putc(&b, '\n');
  }
  sh_out(ex, b.data, b.len);
  buf_free(&b);
  return 0;
}

int sb_compopt(sh_exec *ex, int argc, char **argv) {
  sh_getopt g;
  sh_getopt_init(&g, ex, "compopt", argc, argv, "DEIo:");
  g.plus = 1;
  int o;
  while ((o = sh_getopt_next(&g)) > 0) {
    if (o == 'o' && copt_by_name(g.arg) < 0) {
      sh_builtin_err(ex, "compopt", "%s: invalid option name", g.arg);
      return 2;
    }
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  /* Options of the completion in progress: only meaningful while a -F
   * function runs, and there is nothing to adjust after it. */
  if (!ex->in_compfunc && i >= argc) {
    sh_builtin_err(ex, "compopt",
                   "not currently executing completion "
                   "function");
    return 1;
  }
  return 0;
}
