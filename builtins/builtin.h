/*
 * builtin.h - the one calling convention of every command.
 *
 * A builtin is a function `int bi_NAME(bi_ctx *c)` returning its exit
 * status. It reads c->in, writes c->out and c->err (streams, never whole
 * buffers), reaches files only through c->vfs with c->cwd, and asks the shell
 * for anything else through the service functions below. Every stream call
 * polls the exec budget; a builtin that sees a read/write fail with
 * ECANCELED returns at once (any status: the shell reports the limit), and
 * one that sees EPIPE on stdout returns 141.
 *
 * Commands are declared once, in builtins/list.h, with name, handler, flags
 * and usage/help text; bi_lookup finds them by name.
 */
#ifndef VSH_BUILTINS_BUILTIN_H
#define VSH_BUILTINS_BUILTIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/budget.h"
#include "core/buf.h"
#include "core/mem.h"
#include "core/stream.h"

struct vfs;
struct net_policy;
struct sh_exec;

typedef struct bi_ctx bi_ctx;

struct bi_ctx {
  int argc;
  char **argv; /* argv[argc] == NULL; argv[0] is the name used */
  stream *in, *out, *err;
  mem *m;         /* the sandbox allocator */
  arena *scratch; /* released when the command returns */
  struct vfs *vfs;
  const char *cwd; /* absolute, physical or logical as the shell has it */
  budget *bud;
  const struct net_policy *net; /* NULL: no network */
  uint32_t uid, gid;
  struct sh_exec *sh; /* opaque: the shell behind the services */

  /* Services of the shell. */
  /* Value of a variable visible to the command (exported or not), or NULL. */
  const char *(*getenv)(bi_ctx *c, const char *name);
  /* Exported variables as "K=V", NULL-terminated, valid during the call. */
  char **(*environ)(bi_ctx *c);
  /* Run a command line by argv (find -exec, xargs, env, timeout): looked up
   * like a simple command (functions excluded), with the given streams
   * (NULL: inherit this builtin's). Returns its exit status, or
   * BI_NOT_FOUND when no command of that name exists (or a name with a
   * slash names no file): nothing is printed then, since each tool words
   * that failure itself (env: 'x': No such file or directory), and its
   * status is 127. */
  int (*run_argv)(bi_ctx *c, char **argv, stream *in, stream *out, stream *err);
  /* Assign a shell variable (printf -v, read-like commands): 0, or -1 with
   * a message already printed (readonly, invalid name). */
  int (*setvar)(bi_ctx *c, const char *name, const char *value, size_t len);
  /* Wall clock in ns since the epoch (the sandbox clock hook). */
  int64_t (*now_ns)(bi_ctx *c);
  /* Random bytes (the sandbox random hook). */
  void (*random)(bi_ctx *c, void *p, size_t n);
  /* Like run_argv, but the command sees exactly the environment env ("K=V",
   * NULL-terminated: its exported variables, as after env -i/-u/K=V) and
   * runs in directory cwd (env -C). env or cwd NULL: unchanged. Optional:
   * NULL when the shell does not offer it. */
  int (*run_argv_env)(bi_ctx *c, char **argv, char **env, const char *cwd,
                      stream *in, stream *out, stream *err);
  /* The stream open on the shell's descriptor fd (a new reference), or
   * NULL when it is closed: /dev/fd/N names it, as a process
   * substitution's pipe. Optional (NULL). */
  stream *(*open_fd)(bi_ctx *c, int fd);
};

typedef int (*bi_fn)(bi_ctx *c);

/* What run_argv and run_argv_env return for a command that does not exist
 * (see there). Never a real status: those are 0..255. */
#define BI_NOT_FOUND (-127)

enum {
  BI_NET = 1u << 0, /* exists only when a network policy is configured */
  BI_TEST = 1u << 1 /* registered by test runners only */
};

typedef struct bi_def {
  const char *name;
  bi_fn fn;
  unsigned flags;
  const char *usage; /* "Usage: sort [OPTION]... [FILE]..." */
  const char *help;  /* the rest of --help: description and options */
} bi_def;

/* Lookup by name among the built-in commands (not shell builtins). */
const bi_def *bi_lookup(const char *name);
/* Every command, in name order; *n gets the count. */
const bi_def *bi_all(size_t *n);

/* ---- helpers for writing builtins -------------------------------------- */

/* "NAME: message\n" on stderr (NAME = argv[0]). Returns -1 for chaining. */
int bi_error(bi_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* GNU wording for an errno value ("No such file or directory"). */
const char *bi_strerror(int err);
/* Prints usage + help to stdout (for --help); returns 0. */
int bi_print_help(bi_ctx *c);
/* Return value for a stream failure: 141 for EPIPE, 1 otherwise. */
int bi_stream_status(int err);

/*
 * GNU-style option parsing, declared once per command:
 *
 *   static const bi_opt opts[] = {
 *     {"lines", 'n', BI_ARG_REQUIRED},
 *     {"quiet", 'q', BI_ARG_NONE},
 *     BI_OPTS_END}; // --help, --version and the terminator
 *   bi_getopt g;
 *   bi_getopt_init(&g, c, "n:q", opts);
 *   int o;
 *   while ((o = bi_getopt_next(&g)) != -1) {
 *     switch (o) { case 'n': ... g.arg ...; case '?': return 2; }
 *   }
 *   for (int i = 0; i < g.noperands; i++) g.operands[i] ...
 *
 * Options and operands may be mixed (GNU permutation); "--" ends options;
 * a lone "-" is an operand. Long options may be abbreviated to a unique
 * prefix and take "--opt=value" or "--opt value". Errors are printed in
 * GNU's words ("sort: invalid option -- 'z'", "unrecognized option '--x'",
 * "option requires an argument -- 'n'", then "Try 'sort --help' for more
 * information.") and '?' is returned; the caller picks the exit status.
 * With BI_OPT_HELP declared, --help is handled by the caller (id returned).
 * shortopts also understands "n::" (optional argument, attached only).
 * A leading '+' in shortopts stops at the first operand (POSIX order).
 */
enum { BI_ARG_NONE = 0, BI_ARG_REQUIRED = 1, BI_ARG_OPTIONAL = 2 };
enum { BI_OPT_HELP = 0x10000, BI_OPT_VERSION = 0x10001 };

/* The end of every command's table: --help, --version, the terminator. */
// clang-format off
#define BI_OPTS_END                                                            \
  {"help", BI_OPT_HELP, BI_ARG_NONE},                                          \
  {"version", BI_OPT_VERSION, BI_ARG_NONE},                                    \
  {NULL, 0, 0}
// clang-format on

typedef struct bi_opt {
  const char *name; /* long name without "--", or NULL */
  int id;           /* returned by bi_getopt_next; a char for short ones */
  int has_arg;
} bi_opt;

typedef struct bi_getopt {
  bi_ctx *c;
  const char *shortopts;
  const bi_opt *longopts;
  int idx;          /* next argv index */
  const char *next; /* rest of a short option cluster */
  int done;         /* "--" seen or POSIX stop */
  const char *arg;  /* argument of the last option, or NULL */
  int optopt;       /* the offending option char on error */
  char **operands;  /* collected operands, in order */
  int noperands;
  int status;     /* exit status after BI_OPT_STOP (bi_getopt_each) */
  int try_prefix; /* "NAME: Try 'NAME --help'..." as diffutils words it */
  /* Prints what follows a usage error's message instead of coreutils'
   * "Try 'NAME --help'" line (glibc's argp hint, file's usage). NULL: the
   * coreutils line. Set after bi_getopt_init. */
  void (*hint)(bi_ctx *c);
} bi_getopt;

void bi_getopt_init(bi_getopt *g, bi_ctx *c, const char *shortopts,
                    const bi_opt *longopts);
int bi_getopt_next(bi_getopt *g);
/* After the loop: any operands after the last option are collected too. */

/*
 * The usual loop without its usual tail: like bi_getopt_next, but --help
 * and --version (when declared) are answered here (usage and help text,
 * the coreutils version line), and an invalid option has already been
 * reported. Both return BI_OPT_STOP with g->status set to the command's
 * exit status: 0 (or 141/1 if stdout failed) after --help/--version,
 * bad_status after a usage error. -1 at the end, as bi_getopt_next.
 *
 *   while ((o = bi_getopt_each(&g, 1)) > 0)
 *     switch (o) { case 'v': verbose = 1; break; }
 *   if (o == BI_OPT_STOP)
 *     return g.status;
 */
enum { BI_OPT_STOP = 0 };
int bi_getopt_each(bi_getopt *g, int bad_status);
/* "NAME: missing operand" and the --help hint; returns 1. */
int bi_missing_operand(bi_ctx *c);
/* "Try 'NAME --help' for more information." on stderr. */
void bi_try_help(bi_ctx *c);
/* The --version line shared by the commands (coreutils compatible). */
int bi_print_version(bi_ctx *c);

/*
 * The file operands of a filter, in order; "-" (stdin) when there are
 * none. bi_inputs_next opens the next one that can be opened: a file that
 * cannot is reported ("NAME: FILE: reason"), status becomes 1 and the loop
 * goes on. The caller owns (stream_unref) each stream returned.
 *
 *   bi_inputs in;
 *   bi_inputs_init(&in, c, g.operands, g.noperands);
 *   for (stream *s; (s = bi_inputs_next(&in));) { ...; stream_unref(s); }
 *   return in.status;
 */
typedef struct bi_inputs {
  bi_ctx *c;
  char **names;
  int n, i;
  int status;       /* 1 once an operand could not be opened */
  const char *name; /* operand of the stream last returned */
} bi_inputs;
void bi_inputs_init(bi_inputs *in, bi_ctx *c, char **names, int n);
stream *bi_inputs_next(bi_inputs *in);

/* Open a file operand for reading as a stream ("-" is stdin, with a new
 * reference). NULL with *err set (ENOENT, EISDIR, EACCES, ...). */
stream *bi_open_read(bi_ctx *c, const char *path, int *err);
/* For path /dev/fd/N (N > 2) open in the shell: a new reference to that
 * stream; else NULL. */
stream *bi_open_fd(bi_ctx *c, const char *path);
/* Absolute path of p against c->cwd (scratch memory). */
const char *bi_path(bi_ctx *c, const char *p);

#endif
