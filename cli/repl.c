/*
 * repl.c - the interactive prompt: a persistent session, one command (which
 * may span lines) at a time.
 *
 * vsh_script_complete tells whether the text gathered so far ends inside a
 * construct (an open quote, an `if` without `fi`, a here-document): then
 * the prompt reads another line. Handing unfinished text to the session
 * would not do: it runs a script command by command, so a complete first
 * half would run before the error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int incomplete(const char *text, size_t len) {
  return vsh_script_complete(text, len) == 0;
}

int cli_repl(vsh_sandbox *sb, const cli_opts *o, vsh_cancel *cancel) {
  vsh_session *s = NULL;
  if (vsh_session_open(sb, &s) != VSH_OK) {
    fprintf(stderr, "vsh: cannot open a session: %s\n", vsh_errmsg(sb));
    return 1;
  }
  int status = 0;
  char *line = NULL;
  size_t linecap = 0;
  char *text = NULL;
  size_t tlen = 0;
  vsh_exec_opts eo = {0};
  eo.env = o->nenv ? o->env : NULL;
  eo.cancel = cancel;
  eo.on_output = cli_on_output;
  eo.flags = VSH_EXEC_NO_CAPTURE;
  if (o->errexit) {
    vsh_result r;
    memset(&r, 0, sizeof r);
    vsh_session_exec(s, "set -e", 6, &eo, &r);
    vsh_result_free(&r);
  }

  for (;;) {
    fputs(tlen ? "> " : "vsh$ ", stderr);
    fflush(stderr);
    errno = 0;
    ssize_t n = getline(&line, &linecap, stdin);
    if (n < 0) {
      if (errno == EINTR) { /* Ctrl-C at the prompt drops the line */
        clearerr(stdin);
        vsh_cancel_reset(cancel);
        tlen = 0;
        fputc('\n', stderr);
        continue;
      }
      fputc('\n', stderr); /* EOF: leave the prompt on a line of its own */
      break;
    }
    char *nt = realloc(text, tlen + (size_t)n + 1);
    if (!nt) {
      fputs("vsh: out of memory\n", stderr);
      status = 1;
      break;
    }
    text = nt;
    memcpy(text + tlen, line, (size_t)n);
    tlen += (size_t)n;
    text[tlen] = 0;
    if (incomplete(text, tlen))
      continue;

    vsh_result r;
    memset(&r, 0, sizeof r);
    vsh_cancel_reset(cancel);
    vsh_status st = vsh_session_exec(s, text, tlen, &eo, &r);
    tlen = 0;
    if (st == VSH_ABORT) {
      status = 130;
      fputc('\n', stderr);
    } else if (st != VSH_OK) {
      fprintf(stderr, "vsh: %s\n", vsh_errmsg(sb));
      status = 1;
    } else {
      status = r.status;
    }
    /* Notes the interpreter adds to the result itself (limits, timeout)
     * were not streamed. */
    if (r.out_len)
      cli_on_output(NULL, 1, r.out, r.out_len);
    if (r.err_len)
      cli_on_output(NULL, 2, r.err, r.err_len);
    vsh_result_free(&r);
    if (vsh_session_exited(s))
      break;
  }
  free(line);
  free(text);
  vsh_session_close(s);
  return status;
}
