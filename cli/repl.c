/*
 * repl.c - the interactive prompt: a persistent session marked interactive
 * (a syntax error is reported, not fatal), one command (which may span
 * lines) at a time.
 *
 * On a terminal, lines are read with libedit: editing, history (also the
 * session's own, so `history` and `!!` see it) and Tab completion of
 * commands, paths and variables, all asked of the sandbox's own `compgen`,
 * never of the host. PS1 and PS2 are expanded by the session as bash does
 * (`${PS1@P}`), and PROMPT_COMMAND runs before each prompt. Elsewhere (a
 * pipe, a test), lines are read plainly and the prompt still goes to
 * stderr.
 *
 * vsh_script_complete tells whether the text gathered so far ends inside a
 * construct (an open quote, an `if` without `fi`, a here-document): then
 * the prompt reads another line with PS2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifdef VSH_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

typedef struct repl {
  vsh_sandbox *sb;
  vsh_session *s;
  vsh_exec_opts eo; /* streaming, for the user's commands */
  int tty;
} repl;

static repl *g_repl; /* for libedit's completion callback */

/* Run a helper command in the session with its output captured; returns
 * the malloc'd stdout (NULL on failure). "$1" in script stands for arg,
 * passed single-quoted (a session keeps its own positional parameters). */
static char *ask(repl *r, const char *script, const char *arg) {
  size_t n = strlen(script), an = arg ? strlen(arg) : 0;
  /* $? and "$@" are the user's: helper commands leave them as they were */
  static const char pre[] = "__vsh_st=$? __vsh_a=(\"$@\"); set -- '";
  static const char mid[] = "'; ";
  static const char post[] =
      "; set -- \"${__vsh_a[@]}\";"
      " eval \"unset __vsh_st __vsh_a; (exit $__vsh_st)\"";
  char *cmd = malloc(sizeof pre + an * 4 + sizeof mid + n + sizeof post);
  if (!cmd)
    return NULL;
  char *w = cmd;
  memcpy(w, pre, sizeof pre - 1);
  w += sizeof pre - 1;
  for (size_t i = 0; i < an; i++) {
    if (arg[i] == '\'') {
      memcpy(w, "'\\''", 4);
      w += 4;
    } else {
      *w++ = arg[i];
    }
  }
  memcpy(w, mid, sizeof mid - 1);
  w += sizeof mid - 1;
  memcpy(w, script, n);
  w += n;
  memcpy(w, post, sizeof post);
  vsh_exec_opts eo = {0};
  eo.flags = VSH_EXEC_INTERACTIVE;
  vsh_result res;
  memset(&res, 0, sizeof res);
  char *out = NULL;
  if (vsh_session_exec(r->s, cmd, strlen(cmd), &eo, &res) == VSH_OK)
    out = res.out ? strdup(res.out) : NULL;
  free(cmd);
  vsh_result_free(&res);
  return out;
}

/* The prompt PS1 or PS2 stands for now. */
static char *prompt(repl *r, int more) {
  char *p = ask(
      r, more ? "printf '%s' \"${PS2@P}\"" : "printf '%s' \"${PS1@P}\"", NULL);
  return p ? p : strdup(more ? "> " : "$ ");
}

static void prompt_command(repl *r) {
  const char *pc = "[ -n \"${PROMPT_COMMAND-}\" ] && eval \"$PROMPT_COMMAND\"";
  vsh_result res;
  memset(&res, 0, sizeof res);
  vsh_exec_opts eo = r->eo;
  /* as ask(): $? stays the user's */
  char buf[160];
  snprintf(buf, sizeof buf,
           "__vsh_st=$?; %s; eval \"unset __vsh_st; (exit $__vsh_st)\"", pc);
  if (vsh_session_exec(r->s, buf, strlen(buf), &eo, &res) == VSH_OK)
    vsh_result_free(&res);
}

/* One line, without its newline; NULL at end of input. *intr is set when
 * Ctrl-C interrupted the read. */
static char *read_line(repl *r, const char *p, int *intr) {
  *intr = 0;
#ifdef VSH_HAVE_LIBEDIT
  if (r->tty) {
    char *l = readline(p);
    return l;
  }
#endif
  fputs(p, stderr);
  fflush(stderr);
  char *line = NULL;
  size_t cap = 0;
  errno = 0;
  ssize_t n = getline(&line, &cap, stdin);
  if (n < 0) {
    if (errno == EINTR) {
      clearerr(stdin);
      *intr = 1;
      free(line);
      return strdup("");
    }
    free(line);
    return NULL;
  }
  if (n && line[n - 1] == '\n')
    line[n - 1] = 0;
  return line;
}

#ifdef VSH_HAVE_LIBEDIT
/* ---- completion: the sandbox's compgen -------------------------------- */

static char **cands;
static size_t ncands, icand;

static void drop_cands(void) {
  for (size_t i = 0; i < ncands; i++)
    free(cands[i]);
  free(cands);
  cands = NULL;
  ncands = icand = 0;
}

/* Lines of out, duplicates dropped (compgen -c lists a builtin and its
 * /usr/bin stub). */
static void take_cands(char *out) {
  drop_cands();
  for (char *line = out, *nl; line && *line; line = nl) {
    nl = strchr(line, '\n');
    if (nl)
      *nl++ = 0;
    int dup = 0;
    for (size_t i = 0; i < ncands && !dup; i++)
      dup = strcmp(cands[i], line) == 0;
    if (dup || !*line)
      continue;
    char **nv = realloc(cands, (ncands + 1) * sizeof *nv);
    if (!nv)
      break;
    cands = nv;
    if (!(cands[ncands] = strdup(line)))
      break;
    ncands++;
  }
}

static char *next_cand(const char *text, int state) {
  (void)text;
  if (state == 0)
    icand = 0;
  return icand < ncands ? strdup(cands[icand++]) : NULL;
}

static char **complete(const char *text, int start, int end) {
  (void)end;
  repl *r = g_repl;
  rl_attempted_completion_over = 1; /* never the host's file names */
  /* the first word of a command names a command */
  int first = 1;
  for (int i = start - 1; i >= 0; i--) {
    char ch = rl_line_buffer[i];
    if (ch == ' ' || ch == '\t')
      continue;
    first = ch == '|' || ch == ';' || ch == '&' || ch == '(';
    break;
  }
  char *out;
  if (start > 0 && rl_line_buffer[start - 1] == '$') /* '$' broke the word */
    out = ask(r, "compgen -v -- \"$1\"", text);
  else if (text[0] == '$')
    out = ask(r, "compgen -v -- \"${1#\\$}\" | sed 's/^/$/'", text);
  else if (first && !strchr(text, '/'))
    out = ask(r, "compgen -c -- \"$1\" | sort -u", text);
  else
    out = ask(r,
              "compgen -f -- \"$1\" | while IFS= read -r f; do"
              " [ -d \"$f\" ] && f=$f/; printf '%s\\n' \"$f\"; done",
              text);
  take_cands(out);
  free(out);
  /* a directory goes on being completed: no space after its slash */
  int dirs = ncands > 0;
  for (size_t i = 0; i < ncands && dirs; i++) {
    size_t n = strlen(cands[i]);
    dirs = n && cands[i][n - 1] == '/';
  }
  rl_completion_append_character = dirs ? '\0' : ' ';
  return rl_completion_matches(text, next_cand);
}
#endif

/* The sandbox's $HISTFILE (set to ~/.bash_history when unset, as bash
 * does); malloc'd. */
static char *histfile(repl *r) {
  char *f = ask(r,
                ": \"${HISTFILE=$HOME/.bash_history}\"; printf '%s' "
                "\"$HISTFILE\"",
                NULL);
  if (f && !*f) {
    free(f);
    f = NULL;
  }
  return f;
}

/* --history-file: the host file's lines become the session's history
 * (and libedit's), through the sandbox's $HISTFILE. */
static void history_load(repl *r, const char *host) {
  FILE *f = fopen(host, "rb");
  if (!f)
    return; /* a first session: nothing yet */
  char *path = histfile(r);
  char *line = NULL;
  size_t cap = 0, total = 0;
  ssize_t n;
  char *all = NULL;
  while ((n = getline(&line, &cap, f)) > 0) {
    char *na = realloc(all, total + (size_t)n + 1);
    if (!na)
      break;
    all = na;
    memcpy(all + total, line, (size_t)n);
    total += (size_t)n;
#ifdef VSH_HAVE_LIBEDIT
    if (r->tty) {
      if (line[n - 1] == '\n')
        line[n - 1] = 0;
      if (*line)
        add_history(line);
    }
#endif
  }
  fclose(f);
  free(line);
  if (path && all && vsh_write_file(r->sb, path, all, total, 0600) == VSH_OK) {
    char *o = ask(r, "history -r", NULL);
    free(o);
  }
  free(all);
  free(path);
}

/* At exit: the history goes to $HISTFILE, and to the host file if named. */
static void history_save(repl *r, const char *host) {
  char *path = histfile(r);
  char *o = ask(r, "history -w", NULL);
  free(o);
  if (!host) {
    free(path);
    return;
  }
  char *data = NULL;
  size_t n = 0;
  if (path && vsh_read_file(r->sb, path, &data, &n) == VSH_OK) {
    FILE *f = fopen(host, "wb");
    if (!f || fwrite(data, 1, n, f) != n)
      fprintf(stderr, "vsh: --history-file: %s: %s\n", host, strerror(errno));
    if (f)
      fclose(f);
  }
  vsh_free(r->sb, data);
  free(path);
}

/* History expansion of a typed command (`!!`, `!$`, `^a^b`), as an
 * interactive bash does before running it: the session's `history -p`
 * expands, with the shell's quoting rules. Returns the text to run
 * (malloc'd, the expansion echoed on stderr) or NULL when the expansion
 * failed (its message printed); *same when nothing changed. */
static char *hist_expand(repl *r, const char *text, int *same) {
  *same = 1;
  if (!strchr(text, '!') && text[0] != '^')
    return strdup(text);
  size_t n = strlen(text);
  char *one = strndup(text, n && text[n - 1] == '\n' ? n - 1 : n);
  if (!one)
    return NULL;
  char *out = ask(r,
                  "if [[ $- != *H* ]]; then printf 'ok\\n%s' \"$1\";"
                  " elif __vsh_x=$(history -p -- \"$1\" 2>&1); then"
                  " printf 'ok\\n%s' \"$__vsh_x\"; else"
                  " printf 'err\\n%s' \"${__vsh_x#*history: }\"; fi;"
                  " unset __vsh_x",
                  one);
  char *res = NULL;
  if (out && strncmp(out, "ok\n", 3) == 0) {
    *same = strcmp(out + 3, one) == 0;
    size_t k = strlen(out + 3);
    res = malloc(k + 2);
    if (res) {
      memcpy(res, out + 3, k);
      res[k] = '\n';
      res[k + 1] = 0;
    }
    if (!*same)
      fprintf(stderr, "%s\n", out + 3);
  } else if (out && strncmp(out, "err\n", 4) == 0) {
    /* `history -p` words a missing event its own way; the prompt as bash */
    char *m = out + 4, *tail = strstr(m, ": history expansion failed");
    if (tail)
      fprintf(stderr, "bash: %.*s: event not found\n", (int)(tail - m), m);
    else
      fprintf(stderr, "bash: %s\n", m);
  }
  free(out);
  free(one);
  return res;
}

/* History: the session's own list, which `history` and `!!` read. */
static void remember(repl *r, const char *text) {
#ifdef VSH_HAVE_LIBEDIT
  if (r->tty) {
    size_t n = strlen(text);
    char *one = strndup(text, n && text[n - 1] == '\n' ? n - 1 : n);
    if (one && *one)
      add_history(one);
    free(one);
  }
#endif
  size_t n = strlen(text);
  char *one = strndup(text, n && text[n - 1] == '\n' ? n - 1 : n);
  char *o = one ? ask(r, "history -s -- \"$1\"", one) : NULL;
  free(one);
  free(o);
}

int cli_repl(vsh_sandbox *sb, const cli_opts *o, vsh_cancel *cancel) {
  repl r = {0};
  r.sb = sb;
  if (vsh_session_open(sb, &r.s) != VSH_OK) {
    fprintf(stderr, "vsh: cannot open a session: %s\n", vsh_errmsg(sb));
    return 1;
  }
  r.tty = isatty(0) && isatty(2);
  g_repl = &r;
  r.eo.env = o->nenv ? o->env : NULL;
  r.eo.cancel = cancel;
  r.eo.on_output = cli_on_output;
  r.eo.flags = VSH_EXEC_NO_CAPTURE | VSH_EXEC_INTERACTIVE;
  r.eo.stdin_fn = cli_read_stdin;
#ifdef VSH_HAVE_LIBEDIT
  if (r.tty) {
    rl_readline_name = "vsh";
    rl_attempted_completion_function = complete;
    using_history();
  }
#endif
  {
    /* bash's interactive defaults, then the options and the rc file */
    vsh_result res;
    memset(&res, 0, sizeof res);
    const char *init = "set -H; : \"${PS1=vsh\\$ }\" \"${PS2=> }\"";
    if (vsh_session_exec(r.s, init, strlen(init), &r.eo, &res) == VSH_OK)
      vsh_result_free(&res);
    if (o->setup_len &&
        vsh_session_exec(r.s, o->setup, o->setup_len, &r.eo, &res) == VSH_OK)
      vsh_result_free(&res);
    if (o->rcfile) {
      char *out = ask(&r, ". \"$1\" >&2", o->rcfile);
      free(out);
    } else if (!o->norc) {
      char *out =
          ask(&r, "if [ -r ~/.bashrc ]; then . ~/.bashrc >&2; fi", NULL);
      free(out);
    }
  }

  if (o->history_file)
    history_load(&r, o->history_file);

  int status = 0;
  char *text = NULL;
  size_t tlen = 0;
  for (;;) {
    if (!tlen)
      prompt_command(&r);
    char *p = prompt(&r, tlen > 0);
    int intr;
    char *line = read_line(&r, p ? p : "$ ", &intr);
    free(p);
    if (!line) {
      fputc('\n', stderr); /* EOF: leave the prompt on a line of its own */
      break;
    }
    if (intr) { /* Ctrl-C at the prompt drops the command being typed */
      vsh_cancel_reset(cancel);
      tlen = 0;
      fputc('\n', stderr);
      free(line);
      continue;
    }
    size_t n = strlen(line);
    char *nt = realloc(text, tlen + n + 2);
    if (!nt) {
      free(line);
      fputs("vsh: out of memory\n", stderr);
      status = 1;
      break;
    }
    text = nt;
    memcpy(text + tlen, line, n);
    tlen += n;
    text[tlen++] = '\n';
    text[tlen] = 0;
    free(line);
    if (vsh_script_complete(text, tlen) == 0)
      continue;

    int same;
    char *run = hist_expand(&r, text, &same);
    if (!run) { /* the expansion failed: nothing runs, nothing is kept */
      tlen = 0;
      continue;
    }
    if (!same) {
      free(text);
      text = run;
      tlen = strlen(run);
    } else {
      free(run);
    }
    remember(&r, text);
    vsh_result res;
    memset(&res, 0, sizeof res);
    vsh_cancel_reset(cancel);
    vsh_status st = vsh_session_exec(r.s, text, tlen, &r.eo, &res);
    tlen = 0;
    if (st == VSH_ABORT) {
      status = 130;
      fputc('\n', stderr);
    } else if (st != VSH_OK) {
      fprintf(stderr, "vsh: %s\n", vsh_errmsg(sb));
      status = 1;
    } else {
      status = res.status;
    }
    /* Notes the interpreter adds to the result itself (limits, timeout)
     * were not streamed. */
    if (res.out_len)
      cli_on_output(NULL, 1, res.out, res.out_len);
    if (res.err_len)
      cli_on_output(NULL, 2, res.err, res.err_len);
    vsh_result_free(&res);
    if (vsh_session_exited(r.s))
      break;
  }
  history_save(&r, o->history_file);
#ifdef VSH_HAVE_LIBEDIT
  if (r.tty)
    drop_cands();
#endif
  g_repl = NULL;
  free(text);
  vsh_session_close(r.s);
  return status;
}
