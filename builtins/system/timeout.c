/*
 * timeout.c - GNU timeout, within one thread.
 *
 * Commands run in the caller's thread, so nothing can interrupt the
 * command from outside. Instead the exec budget gets a nested deadline
 * (never later than the exec's own): every stream call and statement of the
 * command polls the budget, so it stops soon after the duration, and the
 * nested stop is then cleared and 124 returned. The outer limits stay in
 * force: an exec timeout or cancel during the command is not taken for
 * ours. Signals are not delivered, only named: -s changes what
 * --preserve-status reports (128 + signal number); -k is accepted and has
 * nothing more to do.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "builtins/textutil.h"

const char bi_usage_timeout[] =
    "Usage: timeout [OPTION] DURATION COMMAND [ARG]...\n"
    "  or:  timeout [OPTION]";
const char bi_help_timeout[] =
    "Run COMMAND with a time limit of DURATION; if it has not finished by\n"
    "then, it is stopped.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "      --preserve-status\n"
    "                 on a timeout, exit as a command stopped by SIGNAL would\n"
    "                   (128 + the signal number) rather than with 124\n"
    "      --foreground\n"
    "                 accepted for compatibility (no effect here)\n"
    "  -k, --kill-after=DURATION\n"
    "                 accepted for compatibility: a command that times out is\n"
    "                   always stopped outright\n"
    "  -s, --signal=SIGNAL\n"
    "                 the signal the command is treated as stopped by; a name\n"
    "                   such as 'HUP' or a number ('kill -l' lists them)\n"
    "  -v, --verbose  report the signal on standard error when the time is up\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n"
    "\n"
    "DURATION is a number, fractions allowed, with an optional unit: 's'\n"
    "(seconds, the default), 'm' (minutes), 'h' (hours) or 'd' (days).\n"
    "A DURATION of 0 means no time limit.\n"
    "\n"
    "The exit status is 124 after a timeout, or 128 + the signal number with\n"
    "--preserve-status or when SIGNAL is KILL; otherwise it is COMMAND's own\n"
    "status. SIGNAL is TERM unless -s says otherwise.\n";

static const char *const sig_names[] = {
    NULL,     "HUP",  "INT",    "QUIT", "ILL",   "TRAP", "ABRT", "BUS",
    "FPE",    "KILL", "USR1",   "SEGV", "USR2",  "PIPE", "ALRM", "TERM",
    "STKFLT", "CHLD", "CONT",   "STOP", "TSTP",  "TTIN", "TTOU", "URG",
    "XCPU",   "XFSZ", "VTALRM", "PROF", "WINCH", "IO",   "PWR",  "SYS"};

static int parse_signal(const char *s) {
  char *e;
  long v = strtol(s, &e, 10);
  if (*s && !*e)
    return v >= 0 && v < 65 ? (int)v : -1;
  if (!strncasecmp(s, "SIG", 3))
    s += 3;
  for (int i = 1; i < (int)(sizeof sig_names / sizeof sig_names[0]); i++)
    if (!strcasecmp(s, sig_names[i]))
      return i;
  return -1;
}

/* A command that does not exist, in GNU timeout's words. */
static int not_found(bi_ctx *c, const char *name, int st) {
  if (st != BI_NOT_FOUND)
    return st;
  bi_error(c, "failed to run command %s: No such file or directory",
           tu_quote(c, name));
  return 127;
}

int bi_timeout(bi_ctx *c) {
  static const bi_opt opts[] = {{"foreground", 0x100, BI_ARG_NONE},
                                {"kill-after", 'k', BI_ARG_REQUIRED},
                                {"preserve-status", 0x101, BI_ARG_NONE},
                                {"signal", 's', BI_ARG_REQUIRED},
                                {"verbose", 'v', BI_ARG_NONE},
                                BI_OPTS_END};
  int preserve = 0, verbose = 0, sig = 15, ch;
  bi_getopt g;
  /* '+': options end at DURATION, the command's own options are its. */
  bi_getopt_init(&g, c, "+k:s:v", opts);
  while ((ch = bi_getopt_each(&g, 125)) > 0) {
    switch (ch) {
    case 0x100:
      break;
    case 0x101:
      preserve = 1;
      break;
    case 'k':
      if (tu_parse_duration(g.arg) < 0) {
        bi_error(c, "invalid time interval %s", tu_quote(c, g.arg));
        bi_try_help(c);
        return 125;
      }
      break;
    case 's':
      if ((sig = parse_signal(g.arg)) < 0) {
        bi_error(c, "%s: invalid signal", tu_quote(c, g.arg));
        bi_try_help(c);
        return 125;
      }
      break;
    case 'v':
      verbose = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands < 2) { /* GNU says no more than the --help hint */
    bi_try_help(c);
    return 125;
  }
  double secs = tu_parse_duration(g.operands[0]);
  if (secs < 0) {
    bi_error(c, "invalid time interval %s", tu_quote(c, g.operands[0]));
    bi_try_help(c);
    return 125;
  }
  char **argv = g.operands + 1;
  if (secs == 0) /* 0 disables the timeout */
    return not_found(c, argv[0], c->run_argv(c, argv, NULL, NULL, NULL));
  int64_t ns = secs >= 9e9 ? INT64_MAX / 4 : (int64_t)ceil(secs * 1e9);
  budget_deadline save;
  budget_deadline_push(c->bud, ns, &save);
  int st = not_found(c, argv[0], c->run_argv(c, argv, NULL, NULL, NULL));
  if (!budget_deadline_pop(c->bud, &save))
    return st;
  if (verbose) {
    const char *sn = sig < (int)(sizeof sig_names / sizeof sig_names[0])
                         ? sig_names[sig]
                         : NULL;
    if (sn)
      bi_error(c, "sending signal %s to command %s", sn, tu_quote(c, argv[0]));
    else
      bi_error(c, "sending signal %d to command %s", sig, tu_quote(c, argv[0]));
  }
  /* The command was stopped as if by the signal. */
  if (preserve || sig == 9)
    return 128 + sig;
  return 124;
}
