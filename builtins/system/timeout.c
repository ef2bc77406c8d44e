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
    "Start COMMAND, and kill it if still running after DURATION.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options "
    "too.\n"
    "      --preserve-status\n"
    "                 exit with the same status as COMMAND, even when the\n"
    "                   command times out\n"
    "      --foreground\n"
    "                 when not running timeout directly from a shell "
    "prompt,\n"
    "                   allow COMMAND to read from the TTY and get TTY "
    "signals;\n"
    "                   in this mode, children of COMMAND will not be timed "
    "out\n"
    "  -k, --kill-after=DURATION\n"
    "                 also send a KILL signal if COMMAND is still running\n"
    "                   this long after the initial signal was sent\n"
    "  -s, --signal=SIGNAL\n"
    "                 specify the signal to be sent on timeout;\n"
    "                   SIGNAL may be a name like 'HUP' or a number;\n"
    "                   see 'kill -l' for a list of signals\n"
    "  -v, --verbose  diagnose to stderr any signal sent upon timeout\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n"
    "\n"
    "DURATION is a floating point number with an optional suffix:\n"
    "'s' for seconds (the default), 'm' for minutes, 'h' for hours or 'd' "
    "for days.\n"
    "A duration of 0 disables the associated timeout.\n"
    "\n"
    "If the command times out, and --preserve-status is not set, then exit\n"
    "with status 124.  Otherwise, exit with the status of COMMAND.  If no\n"
    "signal is specified, send the TERM signal upon timeout.\n";

static double parse_duration(const char *s) {
  char *end;
  if (!*s)
    return -1;
  double v = strtod(s, &end);
  if (end == s || v < 0 || isnan(v))
    return -1;
  if (*end) {
    if (end[1])
      return -1;
    switch (*end) {
    case 's':
      break;
    case 'm':
      v *= 60;
      break;
    case 'h':
      v *= 3600;
      break;
    case 'd':
      v *= 86400;
      break;
    default:
      return -1;
    }
  }
  return v;
}

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

int bi_timeout(bi_ctx *c) {
  static const bi_opt opts[] = {{"foreground", 0x100, BI_ARG_NONE},
                                {"kill-after", 'k', BI_ARG_REQUIRED},
                                {"preserve-status", 0x101, BI_ARG_NONE},
                                {"signal", 's', BI_ARG_REQUIRED},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int preserve = 0, verbose = 0, sig = 15, ch;
  bi_getopt g;
  /* '+': options end at DURATION, the command's own options are its. */
  bi_getopt_init(&g, c, "+k:s:v", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 0x100:
      break;
    case 0x101:
      preserve = 1;
      break;
    case 'k':
      if (parse_duration(g.arg) < 0) {
        bi_error(c, "invalid time interval %s", tu_quote(c, g.arg));
        stream_printf(c->err, "Try '%s --help' for more information.\n",
                      c->argv[0]);
        return 125;
      }
      break;
    case 's':
      if ((sig = parse_signal(g.arg)) < 0) {
        bi_error(c, "%s: invalid signal", g.arg);
        stream_printf(c->err, "Try '%s --help' for more information.\n",
                      c->argv[0]);
        return 125;
      }
      break;
    case 'v':
      verbose = 1;
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 125;
    }
  }
  if (g.noperands < 2) {
    if (g.noperands == 1) {
      bi_error(c, "missing operand after %s", tu_quote(c, g.operands[0]));
    }
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
    return 125;
  }
  double secs = parse_duration(g.operands[0]);
  if (secs < 0) {
    bi_error(c, "invalid time interval %s", tu_quote(c, g.operands[0]));
    stream_printf(c->err, "Try '%s --help' for more information.\n",
                  c->argv[0]);
    return 125;
  }
  char **argv = g.operands + 1;
  if (secs == 0) /* 0 disables the timeout */
    return c->run_argv(c, argv, NULL, NULL, NULL);
  int64_t ns = secs >= 9e9 ? INT64_MAX / 4 : (int64_t)ceil(secs * 1e9);
  budget_deadline save;
  budget_deadline_push(c->bud, ns, &save);
  int st = c->run_argv(c, argv, NULL, NULL, NULL);
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
