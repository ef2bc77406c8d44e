/*
 * bashopts.c - bash's invocation options for `vsh`: the flags `set` takes
 * (-e, -u, -x, ... and -o NAME) become `set` commands run before the
 * script, on its first line so that line numbers stay right, and -O NAME
 * becomes `shopt -s NAME`. Names are checked here, so that a wrong one
 * stops vsh before anything runs, with bash's message and status 2.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* `set -o` names, and the letters that stand for them. */
static const struct {
  char flag;
  const char *name;
} set_names[] = {
    {'a', "allexport"},
    {'B', "braceexpand"},
    {0, "emacs"},
    {'e', "errexit"},
    {'E', "errtrace"},
    {'T', "functrace"},
    {'h', "hashall"},
    {'H', "histexpand"},
    {0, "history"},
    {0, "ignoreeof"},
    {0, "interactive-comments"},
    {'k', "keyword"},
    {'m', "monitor"},
    {'C', "noclobber"},
    {'n', "noexec"},
    {'f', "noglob"},
    {0, "nolog"},
    {'b', "notify"},
    {'u', "nounset"},
    {'t', "onecmd"},
    {'P', "physical"},
    {0, "pipefail"},
    {0, "posix"},
    {'p', "privileged"},
    {'v', "verbose"},
    {0, "vi"},
    {'x', "xtrace"},
};
#define NSET (sizeof set_names / sizeof set_names[0])

int cli_add_setup(cli_opts *o, const char *text) {
  size_t n = strlen(text);
  char *p = realloc(o->setup, o->setup_len + n + 1);
  if (!p)
    return cli_usage_error("%s", "out of memory");
  memcpy(p + o->setup_len, text, n + 1);
  o->setup = p;
  o->setup_len += n;
  return 0;
}

int cli_set_option(cli_opts *o, const char *name, int on) {
  for (size_t i = 0; i < NSET; i++) {
    if (strcmp(set_names[i].name, name) != 0)
      continue;
    return cli_add_setup(o, on ? "set -o " : "set +o ") ||
           cli_add_setup(o, name) || cli_add_setup(o, ";");
  }
  fprintf(stderr, "vsh: %s: invalid option name\n", name);
  return 2;
}

int cli_set_flag(cli_opts *o, char c, int on) {
  for (size_t i = 0; i < NSET; i++)
    if (set_names[i].flag && set_names[i].flag == c)
      return cli_set_option(o, set_names[i].name, on);
  char bad[3] = {on ? '-' : '+', c, 0};
  return cli_usage_error("%s: invalid option", bad);
}
