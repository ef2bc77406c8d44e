/*
 * hist.h - the history list of one shell process.
 *
 * bash keeps a history list in every shell: an interactive shell records
 * each command it reads, a script only with `set -o history`, but the list
 * is there for the history and fc builtins either way (history -r fills
 * it). Entries are numbered from 1; when HISTSIZE trims the oldest ones,
 * the numbers of the others stay (the base moves). The list belongs to the
 * shell (sh_exec.hist); a subshell gets a copy. Every entry is allocated
 * from the sandbox allocator, so the memory cap bounds the list as well as
 * HISTSIZE does.
 */
#ifndef VSH_SHELL_STATE_HIST_H
#define VSH_SHELL_STATE_HIST_H

#include <stddef.h>

#include "shell/sh.h"

typedef struct sh_hist {
  char **v;
  size_t n, cap;
  long base;          /* number of v[0] */
  long lines_in_file; /* HISTFILE lines already read or written */
  long session;       /* entries added since the file was last written */
  int last_added;     /* the command now running was recorded */
  int pushed;         /* history -s already replaced it */
  long ncmd;          /* top-level commands read (prompt \#) */
  int prompting;      /* a prompt is shown: \# is the next command's */
} sh_hist;

/* The list of ex (created empty), or NULL out of memory. */
sh_hist *sh_hist_get(sh_exec *ex);
size_t sh_hist_count(sh_exec *ex);
/* The number the next entry will get (prompt \!). */
long sh_hist_next_number(sh_exec *ex);
/* Append an entry (trailing newlines dropped), then trim to HISTSIZE.
 * 0, or -1 out of memory (reported). */
int sh_hist_add(sh_exec *ex, const char *s, size_t len);
/* Record the command text a shell with `set -o history` is about to run
 * (blank text is skipped); sets last_added. */
int sh_hist_record(sh_exec *ex, const char *s, size_t len);
/* Remove entry at index i (0-based); the later ones are renumbered. */
void sh_hist_remove(sh_exec *ex, size_t i);
void sh_hist_clear(sh_exec *ex);
/* Replace entry i's text. */
int sh_hist_replace(sh_exec *ex, size_t i, const char *s, size_t len);
/* Trim the oldest entries to HISTSIZE (unset, empty, not a number or
 * negative: no limit). */
void sh_hist_stifle(sh_exec *ex);
/* A history variable was assigned (sh_setvar): HISTSIZE trims the list,
 * HISTFILESIZE the file named by HISTFILE. */
void sh_hist_var_changed(sh_exec *ex, const char *name);

/* History recording was turned on (set -o history, an interactive
 * shell): HISTSIZE and HISTFILESIZE get bash's default of 500 when unset,
 * which also bounds what a long script records. */
void sh_hist_enable(sh_exec *ex);

/* History expansion of line (hist_expand.c) into out: 1 when something
 * was expanded, 0 when the line is unchanged, -1 on an error (reported
 * unless quiet: "!x: event not found"). *print_only is set by :p. */
int sh_hist_expand(sh_exec *ex, const char *line, size_t len, buf *out,
                   int *print_only, int quiet);

/* The history file: $HISTFILE, or when unset $HOME/.history (what
 * readline falls back to). An arena string or NULL. */
const char *sh_hist_file(sh_exec *ex);
/* Read lines [from, to) of path (to < 0: all) into the list; *nread gets
 * the number of lines the file held up to where reading stopped. 0, or a
 * negative errno. */
int sh_hist_read_file(sh_exec *ex, const char *path, long from, long *nread);
/* Write the last `count` entries (count < 0: all) to path, appending or
 * replacing. 0 or a negative errno. */
int sh_hist_write_file(sh_exec *ex, const char *path, long count, int append);
/* Keep only the last max lines of path (max < 0: leave it). */
void sh_hist_truncate_file(sh_exec *ex, const char *path, long max);

#endif
