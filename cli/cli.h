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
  int json, errexit, help, version;
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

/* Write bytes as a JSON string (with the quotes). */
void cli_json_string(FILE *f, const char *s, size_t n);

/* The interactive prompt over a session; returns the exit status. */
int cli_repl(vsh_sandbox *sb, const cli_opts *o, vsh_cancel *cancel);

/* The output callback used for streaming: fd 1 -> stdout, 2 -> stderr,
 * flushed per chunk. */
void cli_on_output(void *ud, int fd, const void *data, size_t len);

#endif
