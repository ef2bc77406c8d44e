/*
 * args.c - command-line parsing for `vsh`.
 *
 * Options come first, then the operands, as for bash: with -c the first
 * operand is the script, the second its $0 and the rest $1...; without -c
 * the first operand is a script file and the rest its arguments. Anything
 * after the script or file belongs to the script, even if it looks like an
 * option. Long options take their value as `--opt VALUE` or `--opt=VALUE`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_usage(FILE *f) {
  fputs(
      "Usage: vsh [OPTION]... -c SCRIPT [NAME [ARG]...]\n"
      "       vsh [OPTION]... FILE [ARG]...\n"
      "       vsh [OPTION]... [-s] [ARG]...    (script on stdin, or a prompt)\n"
      "\n"
      "Run a bash-compatible script inside an in-process sandbox with an\n"
      "in-memory copy-on-write filesystem. Nothing the script does reaches\n"
      "the host: no host process, no host file except read-only layers, no\n"
      "network beyond an allow-list.\n"
      "\n"
      "Script source:\n"
      "  -c SCRIPT            run SCRIPT; NAME becomes $0 and ARGs $1, $2, "
      "...\n"
      "  FILE                 read the host file FILE and run it inside the\n"
      "                       sandbox; ARGs become $1, $2, ...\n"
      "  -s, (none)           read the script from stdin, command by command\n"
      "                       (commands in it read the lines after them);\n"
      "                       on a terminal, start the interactive prompt\n"
      "  -i                   start the interactive prompt: line editing,\n"
      "                       history, Tab completion, PS1/PS2,\n"
      "                       PROMPT_COMMAND; ~/.bashrc of the sandbox is\n"
      "                       read first\n"
      "\n"
      "bash's options:\n"
      "  -a -b -e -f -h -k -m -n -p -t -u -v -x -B -C -E -H -P -T\n"
      "                       set the shell option (as `set -x`); with '+'\n"
      "                       instead of '-', unset it; combine as -eux\n"
      "  -o NAME, +o NAME     set or unset a `set -o` option (pipefail, ...)\n"
      "  -O NAME, +O NAME     set or unset a `shopt` option (extglob, ...)\n"
      "  -n                   read and check the script without running it\n"
      "  -l, --login, --noprofile, --noediting\n"
      "                       accepted; no profile file is read\n"
      "      --norc           with -i: do not read ~/.bashrc\n"
      "      --rcfile FILE    with -i: read FILE of the sandbox instead\n"
      "      --history-file HOSTFILE\n"
      "                       with -i: start with the history in the host\n"
      "                       file HOSTFILE and write it back at exit (it is\n"
      "                       kept in the sandbox's $HISTFILE either way)\n"
      "      --posix          set -o posix\n"
      "      --verbose        set -v\n"
      "  --, -                end of options\n"
      "\n"
      "Options:\n"
      "  -e, --errexit        errexit: run the script under `set -e`\n"
      "      --root DIR       layer host directory DIR read-only (copy-on-\n"
      "                       write) at /home/user/project and start there;\n"
      "                       the host directory is never modified\n"
      "      --mount HOSTDIR:/virtual/path\n"
      "                       layer HOSTDIR read-only (copy-on-write) at\n"
      "                       /virtual/path (repeatable)\n"
      "      --cwd DIR        working directory inside the sandbox\n"
      "                       (default /home/user); it must exist\n"
      "      --mkdir-cwd      create the --cwd directory when missing\n"
      "      --hydrate TAR    unpack the host tar file TAR (plain or gzip)\n"
      "                       into the working directory first\n"
      "      --persist TAR    at exit, write the working directory's tree\n"
      "                       as a tar to the host file TAR\n"
      "      --changes        at exit, list on stderr what the run changed:\n"
      "                       'A PATH' added, 'M PATH' modified, 'D PATH'\n"
      "                       deleted\n"
      "      --ast            print the script's syntax tree as JSON instead\n"
      "                       of running it (status 2 on a syntax error)\n"
      "      --env K=V        set environment variable K (repeatable)\n"
      "      --json           print one JSON object\n"
      "                       {\"stdout\":...,\"stderr\":...,\"exitCode\":N}\n"
      "                       instead of streaming; bytes that are not valid\n"
      "                       UTF-8 appear as \\ufffd\n"
      "      --limit NAME=N   set a per-run limit (repeatable); N is a\n"
      "                       positive integer, optionally with a k, m or g\n"
      "                       suffix (powers of 1024). NAME is one of:\n"
      "                         commands    commands run (1000000)\n"
      "                         loops       loop iterations (10000000)\n"
      "                         depth       nesting of functions, source, "
      "eval,\n"
      "                                     nested shells, traps (1000)\n"
      "                         output      stdout+stderr bytes (64m)\n"
      "                         memory      sandbox heap bytes (1g)\n"
      "                         fs-bytes    file content bytes (1g)\n"
      "                         fs-inodes   files and directories (1000000)\n"
      "                         string      bytes in one variable (16m)\n"
      "                         jobs        background jobs and pipeline "
      "stages\n"
      "                                     alive at once (1000)\n"
      "                         timeout-ms  wall clock in milliseconds (none)\n"
      "                       A limit ends the script with status 126 and\n"
      "                       \"vsh: NAME limit exceeded (N)\"; the timeout\n"
      "                       with status 124.\n"
      "      --allow-url PREFIX\n"
      "                       allow curl to fetch URLs under PREFIX, e.g.\n"
      "                       https://api.example.com/v1 (repeatable)\n"
      "      --allow-method M allow HTTP method M beyond GET and HEAD\n"
      "                       (repeatable)\n"
      "      --deny-private   refuse private and loopback addresses\n"
      "      --help           show this help and exit\n"
      "      --version        show the version and exit\n"
      "\n"
      "Exit status: the script's; 2 for a usage error, an unknown option\n"
      "name or a missing --cwd; 124 when the timeout\n"
      "expired; 126 when a limit was reached; 127 when FILE cannot be read;\n"
      "130 when interrupted.\n",
      f);
}

int cli_usage_error(const char *fmt, const char *arg) {
  fputs("vsh: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'vsh --help' for more information.\n", stderr);
  return 2;
}
#define usage_error cli_usage_error

static int push(void *vp, size_t *n, size_t elem, const void *item) {
  void **v = vp;
  /* +1 keeps string lists NULL-terminated for the API. */
  void *nv = realloc(*v, (*n + 2) * elem);
  if (!nv)
    return -1;
  memcpy((char *)nv + *n * elem, item, elem);
  memset((char *)nv + (*n + 1) * elem, 0, elem);
  *v = nv;
  (*n)++;
  return 0;
}

/* A positive integer with an optional binary suffix. */
static int parse_count(const char *s, uint64_t *out) {
  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return -1;
  unsigned shift = 0;
  switch (*end) {
  case 'k':
  case 'K':
    shift = 10, end++;
    break;
  case 'm':
  case 'M':
    shift = 20, end++;
    break;
  case 'g':
  case 'G':
    shift = 30, end++;
    break;
  }
  if (*end || v == 0 || (shift && v > (UINT64_MAX >> shift)))
    return -1;
  *out = (uint64_t)v << shift;
  return 0;
}

static int set_limit(cli_opts *o, const char *spec) {
  const char *eq = strchr(spec, '=');
  if (!eq)
    return usage_error("--limit expects NAME=N, got '%s'", spec);
  size_t kl = (size_t)(eq - spec);
  uint64_t v;
  if (parse_count(eq + 1, &v) != 0)
    return usage_error("--limit: '%s': N must be a positive integer", spec);
#define IS(name) (kl == sizeof name - 1 && memcmp(spec, name, kl) == 0)
  vsh_limits *l = &o->limits;
  if (IS("commands"))
    l->max_commands = v;
  else if (IS("loops"))
    l->max_loop_iterations = v;
  else if (IS("depth") && v <= UINT32_MAX)
    l->max_call_depth = (uint32_t)v;
  else if (IS("output"))
    l->max_output_bytes = v;
  else if (IS("memory"))
    l->max_memory = v;
  else if (IS("fs-bytes"))
    l->max_fs_bytes = v;
  else if (IS("fs-inodes"))
    l->max_fs_inodes = v;
  else if (IS("string"))
    l->max_string_bytes = v;
  else if (IS("timeout-ms") && v <= INT64_MAX)
    l->timeout_ms = (int64_t)v;
  else if (IS("jobs") && v <= UINT32_MAX)
    l->max_jobs = (uint32_t)v;
  else if (IS("depth") || IS("timeout-ms") || IS("jobs"))
    return usage_error("--limit: '%s': value too large", spec);
  else
    return usage_error(
        "--limit: unknown limit '%s' (known: commands, loops, depth, output, "
        "memory, fs-bytes, fs-inodes, string, timeout-ms, jobs)",
        spec);
#undef IS
  return 0;
}

static int add_mount(cli_opts *o, const char *host, const char *virt) {
  vsh_mount m = {host, virt};
  return push(&o->mounts, &o->nmounts, sizeof m, &m);
}

/* HOSTDIR:/virtual/path. The host side may itself contain ':', so split at
 * the last ":/". */
static int parse_mount(cli_opts *o, const char *spec) {
  const char *sep = NULL;
  for (const char *p = spec; (p = strstr(p, ":/")); p++)
    sep = p;
  if (!sep || sep == spec)
    return usage_error("--mount expects HOSTDIR:/virtual/path, got '%s'", spec);
  /* The strings must outlive parsing: keep a copy of the host part. */
  char *host = strndup(spec, (size_t)(sep - spec));
  if (!host || add_mount(o, host, sep + 1) != 0) {
    free(host);
    return usage_error("%s", "out of memory");
  }
  return 0;
}

/* Options taking a value. */
static const char *const valued[] = {
    "root",      "mount",        "cwd",     "env",     "limit",
    "allow-url", "allow-method", "persist", "hydrate", "rcfile",
    "init-file", "history-file", NULL};

static int long_option(cli_opts *o, const char *arg, int argc, char **argv,
                       int *i) {
  const char *name = arg + 2;
  const char *eq = strchr(name, '=');
  size_t nl = eq ? (size_t)(eq - name) : strlen(name);
  const char *value = NULL;
  int takes = 0;
  for (const char *const *v = valued; *v; v++)
    if (strlen(*v) == nl && memcmp(*v, name, nl) == 0)
      takes = 1;
  if (takes) {
    if (eq)
      value = eq + 1;
    else if (*i + 1 < argc)
      value = argv[++*i];
    else
      return usage_error("option '%s' requires an argument", arg);
  } else if (eq) {
    return usage_error("%s: invalid option", arg);
  }
#define OPT(s) (nl == sizeof s - 1 && memcmp(name, s, nl) == 0)
  if (OPT("help"))
    o->help = 1;
  else if (OPT("version"))
    o->version = 1;
  else if (OPT("json"))
    o->json = 1;
  else if (OPT("errexit"))
    return cli_set_option(o, "errexit", 1);
  else if (OPT("posix"))
    return cli_set_option(o, "posix", 1);
  else if (OPT("verbose"))
    return cli_set_flag(o, 'v', 1);
  else if (OPT("norc"))
    o->norc = 1;
  else if (OPT("noprofile") || OPT("login") || OPT("noediting"))
    ; /* no profile files are read; the prompt edits lines regardless */
  else if (OPT("rcfile") || OPT("init-file"))
    o->rcfile = value;
  else if (OPT("mkdir-cwd"))
    o->mkdir_cwd = 1;
  else if (OPT("changes"))
    o->changes = 1;
  else if (OPT("ast"))
    o->ast = 1;
  else if (OPT("history-file"))
    o->history_file = value;
  else if (OPT("persist"))
    o->persist = value;
  else if (OPT("hydrate"))
    o->hydrate = value;
  else if (OPT("deny-private"))
    o->deny_private = o->want_net = 1;
  else if (OPT("root"))
    o->root = value;
  else if (OPT("cwd"))
    o->cwd = value;
  else if (OPT("mount"))
    return parse_mount(o, value);
  else if (OPT("limit"))
    return set_limit(o, value);
  else if (OPT("env")) {
    if (!strchr(value, '=') || value[0] == '=')
      return usage_error("--env expects K=V, got '%s'", value);
    if (push(&o->env, &o->nenv, sizeof value, &value) != 0)
      return usage_error("%s", "out of memory");
  } else if (OPT("allow-url")) {
    vsh_net_rule r = {value, NULL, 0};
    o->want_net = 1;
    if (push(&o->rules, &o->nrules, sizeof r, &r) != 0)
      return usage_error("%s", "out of memory");
  } else if (OPT("allow-method")) {
    o->want_net = 1;
    if (push(&o->methods, &o->nmethods, sizeof value, &value) != 0)
      return usage_error("%s", "out of memory");
  } else
    return usage_error("%s: invalid option", arg);
#undef OPT
  return 0;
}

static int keep_arg(cli_opts *o, const char *a) {
  if (push(&o->bashargs, &o->nbashargs, sizeof a, &a) != 0)
    return usage_error("%s", "out of memory");
  return 0;
}

/* A cluster of short options after '-' or '+', as in `vsh -eux -c ...`;
 * -o and -O take the next argument. */
static int short_options(cli_opts *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  int on = a[0] == '-';
  int rc;
  for (const char *p = a + 1; *p; p++) {
    char c = *p;
    if (c == 'o' || c == 'O') {
      if (*i + 1 >= argc) {
        char opt[3] = {a[0], c, 0};
        return usage_error("%s: option requires an argument", opt);
      }
      const char *name = argv[++*i];
      if (c == 'o')
        rc = cli_set_option(o, name, on);
      else if (push(&o->shopts, &o->nshopts, sizeof name, &name) != 0)
        rc = usage_error("%s", "out of memory");
      else
        rc = cli_add_setup(o, on ? "shopt -s " : "shopt -u ") ||
             cli_add_setup(o, name) || cli_add_setup(o, ";");
      const char *flag = c == 'o' ? (on ? "-o" : "+o") : (on ? "-O" : "+O");
      if (rc || (rc = keep_arg(o, flag)) || (rc = keep_arg(o, name)))
        return rc;
      continue;
    }
    if (on && c == 'c') {
      o->has_c = 1;
      continue;
    }
    if (on && c == 'i') {
      o->interactive = 1;
      continue;
    }
    if (on && c == 's') {
      o->read_stdin = 1;
      continue;
    }
    if (on && c == 'l')
      continue; /* a login shell: no profile files are read */
    if ((rc = cli_set_flag(o, c, on)))
      return rc;
    char flag[3] = {a[0], c, 0};
    char *kept = strdup(flag);
    if (!kept || push(&o->owned, &o->nowned, sizeof kept, &kept) != 0) {
      free(kept);
      return usage_error("%s", "out of memory");
    }
    if ((rc = keep_arg(o, kept)))
      return rc;
  }
  return 0;
}

int cli_parse(int argc, char **argv, cli_opts *o) {
  memset(o, 0, sizeof *o);
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    /* "--" and "-" end the options, as for bash */
    if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
      i++;
      break;
    }
    if (a[0] == '-' && a[1] == '-') {
      int rc = long_option(o, a, argc, argv, &i);
      if (rc)
        return rc;
      continue;
    }
    if ((a[0] != '-' && a[0] != '+') || a[1] == 0) /* an operand */
      break;
    int rc = short_options(o, argc, argv, &i);
    if (rc)
      return rc;
  }
  if (o->help || o->version)
    return 0;
  if (o->has_c) {
    if (i >= argc)
      return usage_error("%s", "-c: option requires an argument");
    o->script = argv[i++];
    if (i < argc)
      o->name0 = argv[i++];
  } else if (i < argc && !o->read_stdin) {
    o->file = argv[i++];
  }
  o->args = argv + i;
  o->nargs = (size_t)(argc - i);
  if (o->root) {
    /* --root is a mount at the project directory, which becomes the cwd
     * unless --cwd says otherwise. */
    if (add_mount(o, o->root, "/home/user/project") != 0)
      return usage_error("%s", "out of memory");
    if (!o->cwd)
      o->cwd = "/home/user/project";
  }
  return 0;
}

void cli_opts_free(cli_opts *o) {
  for (size_t i = 0; i < o->nmounts; i++)
    if (o->mounts[i].host_dir != o->root) /* --mount copies its host part */
      free((char *)o->mounts[i].host_dir);
  free(o->mounts);
  free(o->env);
  free(o->rules);
  free(o->methods);
  free(o->setup);
  free(o->shopts);
  free(o->bashargs);
  for (size_t i = 0; i < o->nowned; i++)
    free(o->owned[i]);
  free(o->owned);
  memset(o, 0, sizeof *o);
}
