/*
 * repl.c - the interactive prompt: a persistent session, one command (which
 * may span lines) at a time.
 *
 * Knowing when a command is complete needs the parser, and the public API
 * does not expose it. The prompt asks the sandbox instead: it runs the text
 * gathered so far under `set -n` (read commands, execute none) in a
 * throwaway exec with fresh shell state. If the parser reports that the
 * input ended inside a construct ("unexpected end of file" / "unexpected
 * EOF"), the prompt reads another line; otherwise the text goes to the
 * session, which reports real syntax errors itself. Handing unfinished text
 * to the session directly would not do: it executes a script command by
 * command, so the complete first half would run before the error.
 *
 * Wrapping the text in a construct instead (a function body) does not work:
 * an unfinished `if` meets the wrapper's `}` and reports an unexpected
 * token, not the end of the input. If the interpreter ignores `set -n`
 * (checked once at start), the prompt runs each line as it comes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char noexec[] = "set -n\n";

/* Does the interpreter honour `set -n`? */
static int noexec_works(vsh_sandbox *sb) {
  static const char probe[] = "set -n\necho executed\n";
  vsh_result res;
  memset(&res, 0, sizeof res);
  int ok = vsh_exec_n(sb, probe, sizeof probe - 1, NULL, &res) == VSH_OK &&
           res.status == 0 && res.out_len == 0;
  vsh_result_free(&res);
  return ok;
}

static int incomplete(vsh_sandbox *sb, const char *text, size_t len) {
  size_t n = sizeof noexec - 1 + len;
  char *probe = malloc(n + 1);
  if (!probe)
    return 0;
  memcpy(probe, noexec, sizeof noexec - 1);
  memcpy(probe + sizeof noexec - 1, text, len);
  probe[n] = 0;
  vsh_result res;
  memset(&res, 0, sizeof res);
  int more = 0;
  if (vsh_exec_n(sb, probe, n, NULL, &res) == VSH_OK && res.status != 0 &&
      res.err)
    more = strstr(res.err, "unexpected end of file") != NULL ||
           strstr(res.err, "unexpected EOF") != NULL;
  vsh_result_free(&res);
  free(probe);
  return more;
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
  int can_continue = noexec_works(sb);
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
    if (can_continue && incomplete(sb, text, tlen))
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
