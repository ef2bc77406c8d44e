/*
 * sb_ulimit.c - ulimit over the sandbox's own limits. Each resource bash
 * knows on Linux has a soft and a hard value; where the sandbox has a
 * matching limit (the exec deadline for -t, the memory cap for -d, -m and
 * -v, the job limit for -u, the fiber stack for -s, the pipe buffer for
 * -p) that limit is the starting value of both, so a script may lower it
 * but never raise it: as for an unprivileged process, raising a hard
 * value is refused. The rest start at the values a stock Linux bash shows
 * and are kept for display. Lowering -t, -u and the memory limits in the
 * top shell tightens the exec's budget; -n limits the files redirections
 * open and -f the size of files written through them (redir.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

#define UL_INF UINT64_MAX

typedef struct ul_res {
  char opt;
  const char *desc;
  const char *unit; /* NULL: a plain count */
  unsigned factor;  /* bytes (or units) per number shown */
} ul_res;

/* In the order `ulimit -a` lists them. */
static const ul_res res[SH_NULIMIT] = {
    {'R', "real-time non-blocking time", "microseconds", 1},
    {'c', "core file size", "blocks", 512},
    {'d', "data seg size", "kbytes", 1024},
    {'e', "scheduling priority", NULL, 1},
    {'f', "file size", "blocks", 1024},
    {'i', "pending signals", NULL, 1},
    {'l', "max locked memory", "kbytes", 1024},
    {'m', "max memory size", "kbytes", 1024},
    {'n', "open files", NULL, 1},
    {'p', "pipe size", "512 bytes", 512},
    {'q', "POSIX message queues", "bytes", 1},
    {'r', "real-time priority", NULL, 1},
    {'s', "stack size", "kbytes", 1024},
    {'t', "cpu time", "seconds", 1},
    {'u', "max user processes", NULL, 1},
    {'v', "virtual memory", "kbytes", 1024},
    {'x', "file locks", NULL, 1},
};

enum { UL_F = 4, UL_N = 8 }; /* indexes of -f and -n */

static int res_index(char c) {
  for (int i = 0; i < SH_NULIMIT; i++)
    if (res[i].opt == c)
      return i;
  return -1;
}

/* The sandbox's value of resource r, before the script changed it. */
static uint64_t ul_default(sh_exec *ex, int r, int hard) {
  const vsh_limits *l = &ex->run->bud.lim;
  switch (res[r].opt) {
  case 'c':
    return hard ? UL_INF : 0;
  case 'd':
  case 'm':
  case 'v':
    return l->max_memory ? l->max_memory : UL_INF;
  case 'e':
  case 'r':
    return 0;
  case 'i':
    return SH_NSIG - 1; /* a trap pending per signal */
  case 'l':
    return (uint64_t)8192 * 1024;
  case 'n':
    /* nothing else bounds it: a stock Linux's soft and hard values, so a
     * script's usual `ulimit -n 4096` works as it would there */
    return hard ? 1048576 : 1024;
  case 'p':
    return SH_PIPE_CAP;
  case 'q':
    return 819200;
  case 's':
    return (uint64_t)8192 * 1024; /* a fiber's stack */
  case 't':
    return l->timeout_ms > 0 ? (uint64_t)(l->timeout_ms + 999) / 1000 : UL_INF;
  case 'u':
    return l->max_jobs ? l->max_jobs : UL_INF;
  default:
    return UL_INF;
  }
}

static uint64_t ul_get(sh_exec *ex, int r, int hard) {
  if (ex->ulim_set & (1u << r))
    return ex->ulim[hard][r];
  return ul_default(ex, r, hard);
}

static void print_one(sh_exec *ex, buf *b, int r, int hard, int verbose) {
  if (verbose) {
    char unit[48];
    if (res[r].unit)
      snprintf(unit, sizeof unit, "(%s, -%c) ", res[r].unit, res[r].opt);
    else
      snprintf(unit, sizeof unit, "(-%c) ", res[r].opt);
    buf_printf(b, "%-20s %20s", res[r].desc, unit);
  }
  uint64_t v = ul_get(ex, r, hard);
  if (v == UL_INF)
    buf_puts(b, "unlimited\n");
  else
    buf_printf(b, "%llu\n", (unsigned long long)(v / res[r].factor));
}

/* The top shell's lowered limits tighten the exec's budget; a subshell's
 * or a child shell's stay its own (they share the budget with the rest of
 * the exec, which must not inherit them). */
static void apply_budget(sh_exec *ex, int r) {
  if (ex->parent || ex->is_stage || ex->in_subshell)
    return;
  budget *b = &ex->run->bud;
  uint64_t v = ul_get(ex, r, 0);
  if (v == UL_INF)
    return;
  switch (res[r].opt) {
  case 't': {
    int64_t ns = v > (uint64_t)INT64_MAX / 1000000000 - 1
                     ? INT64_MAX / 2
                     : (int64_t)v * 1000000000;
    int64_t d = budget_now_ns(b) + ns;
    if (!b->deadline_ns || d < b->deadline_ns) {
      b->deadline_ns = d;
      b->lim.timeout_ms = ns / 1000000; /* for the message */
    }
    break;
  }
  case 'u':
    if (v < b->lim.max_jobs)
      b->lim.max_jobs = (uint32_t)v;
    break;
  case 'd':
  case 'm':
  case 'v':
    if (!b->mem_limit || v < b->mem_limit)
      b->mem_limit = v ? v : 1;
    break;
  }
}

/* bash's wording for a word that is not a number */
static void invalid_number(sh_exec *ex, const char *s) {
  const char *what = "invalid number";
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    what = "invalid hex number";
  else if (s[0] == '0' && s[1])
    what = "invalid octal number";
  sh_builtin_err(ex, "ulimit", "%s: %s", s, what);
}

enum { M_SOFT = 1, M_HARD = 2 };

static int set_one(sh_exec *ex, int r, const char *arg, unsigned mode) {
  uint64_t v;
  if (strcmp(arg, "unlimited") == 0) {
    v = UL_INF;
  } else if (strcmp(arg, "soft") == 0) {
    v = ul_get(ex, r, 0);
  } else if (strcmp(arg, "hard") == 0) {
    v = ul_get(ex, r, 1);
  } else {
    if (!*arg || strspn(arg, "0123456789") != strlen(arg)) {
      invalid_number(ex, arg);
      return 1;
    }
    uint64_t n = 0;
    int over = 0;
    for (const char *p = arg; *p; p++) {
      if (n > (UL_INF - 9) / 10)
        over = 1;
      n = n * 10 + (uint64_t)(*p - '0');
    }
    if (over || (n && res[r].factor > 1 && n > (UL_INF - 1) / res[r].factor)) {
      sh_builtin_err(ex, "ulimit", "%s: limit out of range", arg);
      return 1;
    }
    v = n * res[r].factor;
  }
  uint64_t soft = ul_get(ex, r, 0), hard = ul_get(ex, r, 1);
  uint64_t ns = mode & M_SOFT ? v : soft;
  uint64_t nh = mode & M_HARD ? v : hard;
  const char *why = NULL;
  if (res[r].opt == 'p' || ns > nh)
    why = strerror(EINVAL);
  else if (nh > hard)
    why = strerror(EPERM); /* only a privileged process raises a hard one */
  if (why) {
    sh_builtin_err(ex, "ulimit", "%s: cannot modify limit: %s", res[r].desc,
                   why);
    return 1;
  }
  ex->ulim[0][r] = ns;
  ex->ulim[1][r] = nh;
  ex->ulim_set |= 1u << r;
  apply_budget(ex, r);
  return 0;
}

typedef struct ul_cmd {
  int r;
  const char *arg;
} ul_cmd;

int sb_ulimit(sh_exec *ex, int argc, char **argv) {
  ul_cmd cmds[2 * SH_NULIMIT];
  int ncmd = 0, all = 0;
  unsigned mode = 0;
  int i = 1;
  /* Each resource letter takes an optional value: the rest of its word,
   * or the next word unless that is an option. */
  while (i < argc && argv[i][0] == '-' && argv[i][1]) {
    const char *w = argv[i++];
    if (strcmp(w, "--") == 0)
      break;
    for (const char *p = w + 1; *p; p++) {
      if (*p == 'a') {
        all = 1;
      } else if (*p == 'S') {
        mode |= M_SOFT;
      } else if (*p == 'H') {
        mode |= M_HARD;
      } else {
        int r = res_index(*p);
        if (r < 0) {
          sh_builtin_err(ex, "ulimit", "-%c: invalid option", *p);
          sh_usage(ex, "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] "
                       "[limit]");
          return 2;
        }
        const char *arg = NULL;
        if (p[1]) {
          arg = p + 1;
        } else if (i < argc && argv[i][0] != '-') {
          arg = argv[i++];
        }
        if (ncmd < (int)(sizeof cmds / sizeof cmds[0]))
          cmds[ncmd++] = (ul_cmd){r, arg};
        if (arg)
          break;
      }
    }
  }
  buf b;
  buf_init(&b, ex->m);
  if (all) {
    for (int r = 0; r < SH_NULIMIT; r++)
      print_one(ex, &b, r, mode == M_HARD, 1);
    sh_out(ex, b.data, b.len);
    buf_free(&b);
    return 0;
  }
  if (ncmd == 0)
    cmds[ncmd++] = (ul_cmd){UL_F, NULL};
  /* A word left after the options is the value of the last resource
   * named, when that has none. */
  if (i < argc && !cmds[ncmd - 1].arg)
    cmds[ncmd - 1].arg = argv[i];
  int st = 0;
  for (int k = 0; k < ncmd; k++) {
    if (cmds[k].arg) {
      /* neither -S nor -H: both */
      if (set_one(ex, cmds[k].r, cmds[k].arg, mode ? mode : M_SOFT | M_HARD))
        st = 1;
    } else {
      print_one(ex, &b, cmds[k].r, mode == M_HARD, ncmd > 1);
    }
    if (ex->jump)
      break;
  }
  sh_out(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  return st;
}

int sh_ulimit_fd_refused(sh_exec *ex) {
  if (!(ex->ulim_set & (1u << UL_N)))
    return 0;
  uint64_t lim = ex->ulim[0][UL_N];
  uint64_t open = 0;
  for (int i = 0; i < ex->nfd; i++)
    if (ex->fd[i])
      open++;
  return open >= lim;
}

uint64_t sh_ulimit_file_bytes(sh_exec *ex) {
  if (!(ex->ulim_set & (1u << UL_F)))
    return UL_INF;
  return ex->ulim[0][UL_F];
}
