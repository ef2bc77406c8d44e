/*
 * env.c - GNU env and printenv.
 *
 * env edits a copy of the exported environment (-i, -u, NAME=VALUE) and
 * either prints it or runs the command through the shell's run_argv_env
 * service (plain run_argv when nothing changed). Statuses follow GNU: 125
 * for env's own failures, 126/127 from running the command.
 */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_env[] =
    "Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]";
const char bi_help_env[] =
    "Run COMMAND with NAME set to VALUE for each NAME=VALUE given.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -i, --ignore-environment  drop every inherited variable first\n"
    "  -0, --null           end each printed variable with a NUL byte, not a\n"
    "                         newline\n"
    "  -u, --unset=NAME     take NAME out of the environment\n"
    "  -C, --chdir=DIR      run COMMAND in directory DIR\n"
    "  -S, --split-string=S  cut S into words and use them as arguments (for\n"
    "                        '#!' lines, which pass only one argument)\n"
    "  -v, --debug          accepted for compatibility (no trace is printed)\n"
    "      --help           print this summary and quit\n"
    "      --version        print the version line and quit\n"
    "\n"
    "A lone - acts as -i. Without COMMAND, env prints the environment it "
    "built.\n";

const char bi_usage_printenv[] = "Usage: printenv [OPTION]... [VARIABLE]...";
const char bi_help_printenv[] =
    "Print the value of each environment VARIABLE named; with no VARIABLE,\n"
    "print every variable as NAME=VALUE.\n"
    "\n"
    "  -0, --null     end each result with a NUL byte, not a newline\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n";

/* A growable "K=V" vector in scratch memory. */
typedef struct envv {
  char **v;
  size_t n, cap;
} envv;

static int env_push(bi_ctx *c, envv *e, char *kv) {
  if (e->n + 1 >= e->cap) {
    size_t nc = e->cap ? e->cap * 2 : 32;
    char **nv = arena_alloc(c->scratch, nc * sizeof *nv);
    if (!nv)
      return -1;
    if (e->n)
      memcpy(nv, e->v, e->n * sizeof *nv);
    e->v = nv;
    e->cap = nc;
  }
  e->v[e->n++] = kv;
  e->v[e->n] = NULL;
  return 0;
}

static void env_unset(envv *e, const char *name, size_t nl) {
  size_t k = 0;
  for (size_t i = 0; i < e->n; i++)
    if (!(strncmp(e->v[i], name, nl) == 0 && e->v[i][nl] == '='))
      e->v[k++] = e->v[i];
  e->n = k;
  if (e->v)
    e->v[k] = NULL;
}

static int env_set(bi_ctx *c, envv *e, char *kv) {
  size_t nl = (size_t)(strchr(kv, '=') - kv);
  for (size_t i = 0; i < e->n; i++)
    if (strncmp(e->v[i], kv, nl) == 0 && e->v[i][nl] == '=') {
      e->v[i] = kv;
      return 0;
    }
  return env_push(c, e, kv);
}

/* The word collected in w, if any, becomes the next argument. */
static void end_word(bi_ctx *c, envv *out, buf *w, int *in_word) {
  if (!*in_word)
    return;
  env_push(c, out, arena_strndup(c->scratch, w->data ? w->data : "", w->len));
  buf_clear(w);
  *in_word = 0;
}

/* -S: split like GNU env: blanks separate, '...' and "..." quote, \ escapes
 * (\t \n \_ for a space inside quotes, \c ends the string). */
static int split_string(bi_ctx *c, const char *s, envv *out) {
  buf w;
  buf_init(&w, c->m);
  int in_word = 0, rc = 0;
  char q = 0;
  for (const char *p = s;; p++) {
    char ch = *p;
    if (!ch) {
      if (q) {
        bi_error(c, "no terminating quote in -S string");
        rc = -1;
      }
      break;
    }
    if (!q && (ch == ' ' || ch == '\t' || ch == '\n')) {
      end_word(c, out, &w, &in_word);
      continue;
    }
    in_word = 1;
    if (!q && (ch == '\'' || ch == '"')) {
      q = ch;
      continue;
    }
    if (q && ch == q) {
      q = 0;
      continue;
    }
    if (ch == '\\' && q != '\'' && p[1]) {
      p++;
      switch (*p) {
      case 't':
        buf_putc(&w, '\t');
        break;
      case 'n':
        buf_putc(&w, '\n');
        break;
      case 'r':
        buf_putc(&w, '\r');
        break;
      case 'f':
        buf_putc(&w, '\f');
        break;
      case 'v':
        buf_putc(&w, '\v');
        break;
      case '_':
        if (q)
          buf_putc(&w, ' ');
        else /* \_ outside quotes separates arguments */
          end_word(c, out, &w, &in_word);
        break;
      case 'c':
        goto done;
      default:
        buf_putc(&w, *p);
      }
      continue;
    }
    if (ch == '\\' && q == '\'' && (p[1] == '\\' || p[1] == '\'')) {
      buf_putc(&w, *++p);
      continue;
    }
    buf_putc(&w, ch);
  }
done:
  if (rc == 0)
    end_word(c, out, &w, &in_word);
  buf_free(&w);
  return rc;
}

/* A command that does not exist: GNU env's words for execvp's ENOENT. */
static int not_found(bi_ctx *c, const char *name, int st) {
  if (st != BI_NOT_FOUND)
    return st;
  bi_error(c, "%s: No such file or directory", tu_quote(c, name));
  return 127;
}

int bi_env(bi_ctx *c) {
  static const bi_opt opts[] = {{"ignore-environment", 'i', BI_ARG_NONE},
                                {"null", '0', BI_ARG_NONE},
                                {"unset", 'u', BI_ARG_REQUIRED},
                                {"chdir", 'C', BI_ARG_REQUIRED},
                                {"split-string", 'S', BI_ARG_REQUIRED},
                                {"debug", 'v', BI_ARG_NONE},
                                BI_OPTS_END};
  /* -S splits its string into arguments placed where it stood. */
  envv args = {0};
  env_push(c, &args, c->argv[0]);
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    const char *split = NULL;
    if (strncmp(a, "-S", 2) == 0)
      split = a[2] ? a + 2 : (i + 1 < c->argc ? c->argv[++i] : NULL);
    else if (strncmp(a, "--split-string=", 15) == 0)
      split = a + 15;
    else if (strcmp(a, "--split-string") == 0 && i + 1 < c->argc)
      split = c->argv[++i];
    if (!split) {
      env_push(c, &args, c->argv[i]);
      if (a[0] != '-' || strcmp(a, "--") == 0 || !a[1])
        for (i++; i < c->argc; i++) /* options end here */
          env_push(c, &args, c->argv[i]);
      continue;
    }
    if (split_string(c, split, &args))
      return 125;
  }
  bi_ctx sub = *c;
  sub.argc = (int)args.n;
  sub.argv = args.v;
  int clear = 0, nul = 0, ch;
  const char *dir = NULL;
  envv unset = {0};
  bi_getopt g;
  bi_getopt_init(&g, &sub, "+0iu:C:S:v", opts);
  while ((ch = bi_getopt_each(&g, 125)) > 0) {
    switch (ch) {
    case 'i':
      clear = 1;
      break;
    case '0':
      nul = 1;
      break;
    case 'u':
      if (!g.arg[0] || strchr(g.arg, '=')) {
        bi_error(c, "cannot unset %s: %s", tu_quote(c, g.arg),
                 bi_strerror(EINVAL));
        return 125;
      }
      env_push(c, &unset, (char *)g.arg);
      break;
    case 'C':
      dir = g.arg;
      break;
    case 'v':
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  /* With "+", the first operand and everything after it are operands. */
  char **rest = g.operands;
  int nrest = g.noperands;
  int k = 0;
  if (k < nrest && strcmp(rest[k], "-") == 0) {
    clear = 1;
    k++;
  }
  envv e = {0};
  if (!clear) {
    char **cur = c->environ ? c->environ(c) : NULL;
    for (size_t i = 0; cur && cur[i]; i++)
      env_push(c, &e, cur[i]);
  }
  for (size_t i = 0; i < unset.n; i++)
    env_unset(&e, unset.v[i], strlen(unset.v[i]));
  int changed = clear || unset.n;
  for (; k < nrest && strchr(rest[k], '=') && rest[k][0] != '='; k++) {
    env_set(c, &e, rest[k]);
    changed = 1;
  }
  if (k >= nrest) {
    if (dir) {
      bi_error(c, "must specify command with --chdir (-C)");
      bi_try_help(c);
      return 125;
    }
    writer w;
    wr_init(&w, c->out);
    for (size_t i = 0; i < e.n; i++) {
      wr_puts(&w, e.v[i]);
      wr_putc(&w, nul ? 0 : '\n');
    }
    if (wr_flush(&w))
      return bi_stream_status(w.err);
    return 0;
  }
  if (nul) {
    bi_error(c, "cannot specify --null (-0) with command");
    bi_try_help(c);
    return 125;
  }
  if (dir && c->vfs) {
    vfs_stat_t st;
    int r = vfs_stat(c->vfs, c->cwd, dir, &st);
    if (r == 0 && st.type != VFS_DIR)
      r = -ENOTDIR;
    if (r) {
      bi_error(c, "cannot change directory to %s: %s", fu_quote(c, dir),
               bi_strerror(-r));
      return 125;
    }
  }
  char **cmd = rest + k;
  if (!changed && !dir)
    return not_found(c, cmd[0], c->run_argv(c, cmd, NULL, NULL, NULL));
  if (!c->run_argv_env) {
    bi_error(c, "cannot run %s with a changed environment in this shell",
             tu_quote(c, cmd[0]));
    return 125;
  }
  if (!e.v && env_push(c, &e, NULL) == 0) /* empty, but NULL-terminated */
    e.n = 0;
  if (!e.v)
    return 125;
  return not_found(c, cmd[0],
                   c->run_argv_env(c, cmd, e.v, dir ? bi_path(c, dir) : NULL,
                                   NULL, NULL, NULL));
}

int bi_printenv(bi_ctx *c) {
  static const bi_opt opts[] = {{"null", '0', BI_ARG_NONE}, BI_OPTS_END};
  int nul = 0, ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "0", opts);
  while ((ch = bi_getopt_each(&g, 2)) > 0) {
    switch (ch) {
    case '0':
      nul = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  char **env = c->environ ? c->environ(c) : NULL;
  writer w;
  wr_init(&w, c->out);
  int rc = 0;
  if (!g.noperands) {
    for (size_t i = 0; env && env[i]; i++) {
      wr_puts(&w, env[i]);
      wr_putc(&w, nul ? 0 : '\n');
    }
  } else {
    for (int i = 0; i < g.noperands; i++) {
      const char *name = g.operands[i];
      size_t nl = strlen(name);
      int found = 0;
      if (!strchr(name, '='))
        for (size_t j = 0; env && env[j]; j++)
          if (strncmp(env[j], name, nl) == 0 && env[j][nl] == '=') {
            wr_puts(&w, env[j] + nl + 1);
            wr_putc(&w, nul ? 0 : '\n');
            found = 1;
            break;
          }
      if (!found)
        rc = 1;
    }
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return rc;
}
