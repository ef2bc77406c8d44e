/*
 * cli.h - pieces of the `vsh` command. The command uses only the public API
 * (vsh.h), like any other embedder.
 */
#ifndef VSH_CLI_H
#define VSH_CLI_H

#include <stdio.h>

#include "vsh.h"

typedef struct cli_opts {
  int has_c;          /* -c: the script is the first operand */
  const char *script; /* -c SCRIPT */
  const char *name0;  /* -c SCRIPT NAME: what bash would make $0 */
  const char *file;   /* FILE operand ("-" = stdin) */
  char **args;        /* operands after SCRIPT NAME / FILE: $1... */
  size_t nargs;
  const char *root;  /* --root DIR */
  vsh_mount *mounts; /* --mount HOST:/path (and --root) */
  size_t nmounts;
  const char *cwd;  /* --cwd */
  const char **env; /* --env K=V, NULL-terminated */
  size_t nenv;
  int json, help, version;
  /* bash's invocation options */
  char *setup; /* what they set, as commands: "set -o errexit;..." */
  size_t setup_len;
  const char **shopts; /* names given to -O/+O, checked before running */
  size_t nshopts;
  const char **bashargs; /* the options as given, for a bash reading stdin */
  size_t nbashargs;
  int interactive;    /* -i */
  int read_stdin;     /* -s */
  const char *rcfile; /* --rcfile / --init-file */
  int norc;           /* --norc */
  char **owned;       /* strings made while parsing, freed with o */
  size_t nowned;
  /* vsh's own */
  int mkdir_cwd;            /* --mkdir-cwd */
  int changes;              /* --changes */
  int ast;                  /* --ast */
  const char *history_file; /* --history-file: the prompt history */
  const char *persist;      /* --persist FILE.tar */
  const char *hydrate;      /* --hydrate FILE.tar */
  vsh_limits limits;
  vsh_net_rule *rules; /* --allow-url */
  size_t nrules;
  const char **methods; /* --allow-method */
  size_t nmethods;
  int deny_private;
  int want_net; /* any network option given */
} cli_opts;

/* Parse argv. 0: ok; otherwise the exit status (2) after a message on
 * stderr. */
int cli_parse(int argc, char **argv, cli_opts *o);
void cli_opts_free(cli_opts *o);
void cli_usage(FILE *f);

/* bash's invocation options (bashopts.c). A short option letter c (on:
 * '-', off: '+'), or -o/+o NAME: appends its command to o->setup. Returns 0,
 * or 2 after bash's message. */
int cli_set_flag(cli_opts *o, char c, int on);
int cli_set_option(cli_opts *o, const char *name, int on);
int cli_add_setup(cli_opts *o, const char *text);
int cli_usage_error(const char *fmt, const char *arg);

/* Write bytes as a JSON string (with the quotes). */
void cli_json_string(FILE *f, const char *s, size_t n);

/* The interactive prompt over a session; returns the exit status. */
int cli_repl(vsh_sandbox *sb, const cli_opts *o, vsh_cancel *cancel);

/* The script's stdin: the host's fd 0, read as the script reads it
 * (vsh_input_fn). */
long cli_read_stdin(void *ud, void *buf, size_t len);

/* The output callback used for streaming: fd 1 -> stdout, 2 -> stderr,
 * flushed per chunk. */
void cli_on_output(void *ud, int fd, const void *data, size_t len);

#endif
