/*
 * sh.h - the interpreter's state (prefix sh_): the types every stage of
 * shell/ shares, the host and re-entry tables, and the functions of
 * state/ (variables, functions, aliases, fds, messages). The stages above
 * declare theirs in expand/expand.h, builtins/builtins.h and exec/exec.h.
 *
 * Three levels of state:
 *   sh_run   one vsh_exec call: budget, result streams, jobs, fake pids.
 *   sh_exec  one running shell "process": variables (a chain of scopes),
 *            functions, options, positional parameters, fd table, traps,
 *            cwd. A subshell, $(...) or pipeline stage is a child sh_exec
 *            whose scopes read through to the frozen parent and write into
 *            an overlay, so creating one is O(1).
 *   sandbox  (api/sandbox.h) the vsh_sandbox: allocator, vfs, scheduler;
 *            the shell sees it only as sh_run.host_ud.
 *
 * Control flow (break/continue/return/exit, and stops for limits or fatal
 * errors) is a "jump" recorded on the sh_exec and checked after every
 * command, so unwinding never uses longjmp across fibers.
 */
#ifndef VSH_SHELL_SH_H
#define VSH_SHELL_SH_H

#include <stdint.h>

#include "builtins/builtin.h"
#include "core/arena.h"
#include "core/budget.h"
#include "core/buf.h"
#include "core/fiber.h"
#include "core/mem.h"
#include "core/stream.h"
#include "shell/syntax/ast.h"
#include "vfs/vfs.h"
#include "vsh.h"

typedef struct sh_exec sh_exec;
typedef struct sh_run sh_run;
typedef struct sh_var sh_var;
typedef struct sh_scope sh_scope;
typedef struct sh_func sh_func;

/* ---- hash map of name -> pointer --------------------------------------- */

typedef struct sh_map {
  void **slots; /* entries are structs whose first member is `char *name` */
  uint32_t cap, n, used; /* used counts deleted slots too */
} sh_map;

void *sh_map_get(const sh_map *m, const char *name);
int sh_map_put(mem *mm, sh_map *m, void *ent); /* replaces same name */
void *sh_map_del(sh_map *m, const char *name); /* returns the entry */
void sh_map_free(mem *mm, sh_map *m);
/* Iterate: i starts at 0; returns NULL at the end. */
void *sh_map_next(const sh_map *m, uint32_t *i);

/* ---- variables --------------------------------------------------------- */

enum {
  V_SET = 1u << 0, /* has a value (else declared only) */
  V_EXPORT = 1u << 1,
  V_READONLY = 1u << 2,
  V_INTEGER = 1u << 3,
  V_LOWER = 1u << 4,
  V_UPPER = 1u << 5,
  V_ARRAY = 1u << 6,
  V_ASSOC = 1u << 7,
  V_NAMEREF = 1u << 8,
  V_TOMB = 1u << 9, /* overlay marker: unset in this subshell */
  V_LOCAL = 1u << 10,
  V_CAPITAL = 1u << 11, /* declare -c (not in bash 5.2; kept for -p) */
  V_SPECIAL = 1u << 12  /* computed (RANDOM, SECONDS, ...) */
};

typedef struct sh_aent {
  int64_t idx; /* indexed arrays */
  char *key;   /* assoc arrays */
  char *val;
  uint64_t seq; /* assoc insertion order (bash bucket order on output) */
} sh_aent;

typedef struct sh_arr {
  sh_aent *e; /* indexed: sorted by idx; assoc: any order */
  size_t n, cap;
  uint64_t seq;
} sh_arr;

struct sh_var {
  char *name;
  unsigned flags;
  char *val; /* scalar value (V_SET, not array) */
  size_t len;
  sh_arr *arr; /* V_ARRAY / V_ASSOC */
};

enum { SC_GLOBAL, SC_FUNC, SC_OVERLAY, SC_TEMP };

struct sh_scope {
  sh_map map;
  sh_scope *up;
  int kind;
  int owned; /* freed by the sh_exec that pushed it */
};

/* ---- functions --------------------------------------------------------- */

struct sh_func {
  char *name;
  int refs;
  arena ar;      /* holds the parsed body */
  sh_node *body; /* compound command */
  char *src;     /* definition text */
  size_t src_len;
  int line;
  char *file; /* BASH_SOURCE */
  int tomb;   /* overlay marker: unset -f in a subshell */
};

/* ---- positional parameters (immutable, shared) -------------------------- */

typedef struct sh_args {
  int refs;
  int n;
  char **v; /* v[0..n-1] are $1.., each mem-allocated */
} sh_args;

/* ---- options ----------------------------------------------------------- */

enum {
  O_ERREXIT = 1u << 0,
  O_NOUNSET = 1u << 1,
  O_XTRACE = 1u << 2,
  O_PIPEFAIL = 1u << 3,
  O_NOGLOB = 1u << 4,
  O_NOCLOBBER = 1u << 5,
  O_ALLEXPORT = 1u << 6,
  O_NOEXEC = 1u << 7,
  O_VERBOSE = 1u << 8,
  O_POSIX = 1u << 9,
  O_BRACEEXPAND = 1u << 10,
  O_HASHALL = 1u << 11,
  O_INTERACTIVE_COMMENTS = 1u << 12,
  O_ERRTRACE = 1u << 13,
  O_FUNCTRACE = 1u << 14,
  O_MONITOR = 1u << 15,
  O_NOTIFY = 1u << 16,
  O_KEYWORD = 1u << 17,
  O_PHYSICAL = 1u << 18,
  O_ONECMD = 1u << 19,
  O_HISTEXPAND = 1u << 20,
  O_IGNOREEOF = 1u << 21,
  O_NOLOG = 1u << 22,
  O_PRIVILEGED = 1u << 23,
  O_EMACS = 1u << 24,
  O_VI = 1u << 25,
  O_HISTORY = 1u << 26,
  /* Not set -o options: how the shell was started, for $- (i, and s
   * or c for where commands come from; neither for a script file). */
  O_INTERACTIVE = 1u << 27,
  O_SRC_STDIN = 1u << 28,
  O_SRC_FILE = 1u << 29,
  /* shopt histappend: the shopt bits are all taken */
  O_HISTAPPEND = 1u << 30
};

enum {
  SO_EXTGLOB = 1u << 0,
  SO_NULLGLOB = 1u << 1,
  SO_FAILGLOB = 1u << 2,
  SO_DOTGLOB = 1u << 3,
  SO_NOCASEGLOB = 1u << 4,
  SO_NOCASEMATCH = 1u << 5,
  SO_GLOBSTAR = 1u << 6,
  SO_EXPAND_ALIASES = 1u << 7,
  SO_LASTPIPE = 1u << 8,
  SO_INHERIT_ERREXIT = 1u << 9,
  SO_XPG_ECHO = 1u << 10,
  SO_SOURCEPATH = 1u << 11,
  SO_GLOBASCIIRANGES = 1u << 12,
  SO_CHECKWINSIZE = 1u << 13,
  SO_CMDHIST = 1u << 14,
  SO_EXTQUOTE = 1u << 15,
  SO_FORCE_FIGNORE = 1u << 16,
  SO_HOSTCOMPLETE = 1u << 17,
  SO_INTERACTIVE_COMMENTS = 1u << 18,
  SO_PROGCOMP = 1u << 19,
  SO_PROMPTVARS = 1u << 20,
  SO_COMPLETE_FULLQUOTE = 1u << 21,
  SO_LOCALVAR_INHERIT = 1u << 22,
  SO_LOCALVAR_UNSET = 1u << 23,
  SO_SHIFT_VERBOSE = 1u << 24,
  SO_EXTDEBUG = 1u << 25,
  SO_NOCASEGLOB_X = 1u << 26,
  SO_CHECKJOBS = 1u << 27,
  SO_ASSOC_EXPAND_ONCE = 1u << 28,
  SO_PATSUB_REPLACEMENT = 1u << 29,
  SO_LITHIST = 1u << 30,
  SO_GLOBSKIPDOTS = 1u << 31
};

/* ---- control flow ------------------------------------------------------ */

enum {
  J_NONE = 0,
  J_BREAK,
  J_CONTINUE,
  J_RETURN,
  J_EXIT, /* exit this shell process (subshell boundary stops it) */
  J_ABORT /* a limit or cancel: unwind everything */
};

/* Pipe buffer: small enough that a pipeline does not push the C heap past
 * glibc's trim threshold on every exec (brk churn costs ~100 us). */
#define SH_PIPE_CAP 16384
/* Descriptors a script may name (bash scripts use 99>&1 and up). */
#define SH_NFD 256
#define SH_NSIG 65 /* 0 = EXIT, 1..64 signals; ERR/DEBUG/RETURN below */
enum { TRAP_EXIT = 0, TRAP_ERR = 65, TRAP_DEBUG = 66, TRAP_RETURN = 67 };
#define SH_NTRAP 68
#define SH_NULIMIT 17 /* resources ulimit knows (sb_ulimit.c) */

typedef struct sh_frame {
  const char *func;   /* FUNCNAME entry ("main", "source" ...) */
  const char *source; /* BASH_SOURCE entry */
  int call_line;      /* BASH_LINENO entry */
  struct sh_frame *up;
} sh_frame;

typedef struct sh_job {
  int pid;
  int done;
  int status;
  fiber *waiter; /* a fiber blocked in `wait` */
  sh_exec *ex;
  sh_node *node;
  struct sh_run *run;
  struct sh_job *next;
  int jobno;  /* [N] in the job table; 0 once it left it (the status stays
                 for `wait PID`) */
  int owner;  /* pid of the shell whose table holds it */
  int sig;    /* the signal `kill` ended it with, or 0 */
  int wanted; /* among the ids of a `wait -n ID...` in progress */
} sh_job;

/* The host layer (api/) under the shell: the sandbox's clock and random
 * hooks and the embedder's commands. Whoever creates an sh_run fills it in;
 * the shell reaches nothing above itself except through this table. */
typedef struct sh_host_cmd sh_host_cmd; /* opaque: owned by the host */
typedef struct sh_host {
  int64_t (*now_ns)(void *ud); /* wall clock, ns since the epoch */
  void (*random)(void *ud, void *p, size_t n);
  /* The host command registered under name, or NULL. */
  const sh_host_cmd *(*find_cmd)(void *ud, const char *name);
  /* Run it as a simple command in ex with ex's fds; returns its status. */
  int (*call_cmd)(sh_exec *ex, const sh_host_cmd *h, int argc, char **argv);
} sh_host;

/* A kept arena; the node lives in one of the arena's own chunks, taken
 * when the arena was made, so keeping it never needs memory. */
typedef struct sh_kept {
  arena a;
  struct sh_kept *next;
} sh_kept;

/* A variable named by text at run time, "name" or "name[sub]" (unset
 * 'a[$k]', test -v, printf -v, the target of a nameref): the subscript is
 * expanded as it would be in ${name[sub]}. Arena memory. */
typedef struct sh_ref {
  const char *name;
  const char *sub; /* NULL: no subscript */
  size_t sublen;
  int at; /* 1: name[@], 2: name[*] (sub NULL) */
} sh_ref;

/*
 * Execution re-entered from below. Expansion ($(...), <(...)) and the shell
 * builtins (eval, source, command, wait, trap handlers, ...) sit under
 * exec/ but must run commands; they do it through this table, which exec/
 * fills in (sh_exec_ops) and every sh_run carries, so no file below exec/
 * calls into it directly. Call as sh_reenter(ex)->eval_string(ex, ...).
 */
typedef struct sh_ops {
  /* $(...): run body with stdout captured into out. */
  int (*cmdsub)(sh_exec *ex, sh_node *body, buf *out);
  /* <(...) (dir '<') / >(...) ('>'): start body on a pipe whose other end
   * is open on a descriptor of ex; its name (/dev/fd/N) goes into path.
   * With src set (a stream the caller opened; taken over), src is what
   * the descriptor holds and nothing runs. 0, or -1 with the error
   * reported. */
  int (*procsub)(sh_exec *ex, sh_node *body, int dir, stream *src, char *path,
                 size_t n);
  int (*eval_string)(sh_exec *ex, const char *src, size_t len,
                     const char *what);
  int (*source_file)(sh_exec *ex, const char *path, int argc, char **argv);
  int (*run_trap)(sh_exec *ex, int which);
  int (*run_child_shell)(sh_exec *ex, int argc, char **argv);
  int (*dispatch)(sh_exec *ex, int argc, char **argv, int no_funcs);
  int (*call_function)(sh_exec *ex, sh_func *f, int argc, char **argv);
  int (*assign_one)(sh_exec *ex, sh_assign *a, unsigned flags, buf *trace);
  int (*wait_job)(sh_exec *ex, int pid, int *found);
  void (*fill_bi_ctx)(sh_exec *ex, bi_ctx *c, int argc, char **argv);
  /* Split and expand a run-time reference (expand/, for state/): 0, 1
   * when t is not NAME or NAME[SUB], -1 after an expansion error. */
  int (*parse_ref)(sh_exec *ex, const char *t, size_t tl, sh_ref *r);
} sh_ops;

/* One vsh_exec / vsh_session_exec call. */
struct sh_run {
  const sh_ops *ops; /* set by exec/ when a shell is created on this run */
  const sh_host *host;
  void *host_ud;                /* the sandbox, passed to host hooks */
  const struct net_policy *net; /* NULL: no network */
  mem *m;
  vfs *v;
  sched *sc;
  budget bud;
  buf out, err;          /* collected result */
  stream *out_s, *err_s; /* capture streams */
  stream *in_s;
  int next_pid;
  sh_job *jobs;
  int njobs_running;
  int64_t start_ns; /* wall, for SECONDS */
  int printed_stop; /* the limit message was written */
  int keep_ast;     /* a function or job still uses the tree */
  stream *closed;   /* what a closed fd reads and writes */
  sh_kept *kept;    /* parse arenas kept to the end of the run */
  int cancelled;
  /* Signals sent to a shell ($$) by one of its subshells or child shells
   * (bit sig-1 of mask): it acts on them once its current command ends. */
  struct {
    int pid;
    uint64_t mask;
  } sig_pend[8];
  int nsig_pend;
};

typedef struct sh_redir_save {
  int fd;
  stream *old;
} sh_redir_save;

struct sh_exec {
  sh_run *run;
  sh_exec *parent; /* frozen while this one runs (NULL for a flat copy) */
  mem *m;
  arena *ar; /* scratch (a pipeline stage owns its own) */
  arena own_ar;
  int own_arena;

  sh_scope *scope;  /* top scope (temp, function locals, overlay, global) */
  sh_scope *global; /* global scope of this process (overlay for subs) */
  sh_map funcs;     /* functions defined in this process */
  int funcs_flat;   /* funcs holds everything (no read-through) */
  sh_map *aliases;  /* shared with the parent until written */
  int aliases_owned;
  sh_args *args;
  char *arg0;      /* $0 */
  unsigned opts;   /* O_* */
  unsigned shopts; /* SO_* */
  stream *fd[SH_NFD];
  int nfd; /* fd[nfd] and above are closed (NULL): loops stop there */
  unsigned fd_cloexec; /* bitmask unused; kept for exec-only fds */
  char *traps[SH_NTRAP];
  int traps_owned; /* traps[] strings are ours to free */
  char *cwd;       /* logical PWD, mem */
  sh_frame *frame;
  int func_depth;
  int source_depth;
  /* The depths a new shell process (bash -c, a script) inherits for the
   * depth limit: return works only above them. */
  int func_base, source_base;
  int loop_depth;
  int status;       /* $? */
  int jump, jump_n; /* J_* with a count for break/continue */
  int exit_status;  /* for J_EXIT / J_RETURN */
  int lineno;
  int errexit_ok; /* >0: in a context where set -e is ignored */
  /* The command directly under a `!` (its own failure neither trips set -e
   * nor the ERR trap; what runs inside it still may). */
  const sh_node *inverted;
  int in_subshell; /* BASH_SUBSHELL */
  int is_stage;    /* a pipeline stage or subshell: EPIPE ends it */
  int pid;         /* BASHPID (fake) */
  int shell_pid;   /* $$: 1 for the top shell, a child shell's own pid; a
                      subshell keeps its shell's */
  int last_bg_pid; /* $! */
  int in_trap;
  int cmdsub_status; /* status of the last $(...) in this command */
  int has_cmdsub;
  char *last_arg;      /* $_ */
  size_t last_arg_cap; /* bytes allocated at last_arg (set_last_arg) */
  const char *errname; /* "bash" or the script name for messages */
  int pipestatus[64];
  int npipestatus;
  uint32_t random_state;
  int random_seeded;
  char **dirstack; /* pushd/popd: entries below the cwd */
  int ndirstack;
  unsigned umask_unused;
  int getopts_sub;   /* position inside a clustered option */
  int getopts_ind;   /* OPTIND when getopts_sub was set */
  int fd_exec_guard; /* unused: exec redirections are always permanent */
  int in_cond;       /* evaluating an if/while condition etc. */
  int no_errexit_here;
  sh_frame base_frame;
  int exiting; /* running the EXIT trap */
  int is_session;
  int cmdsub_level; /* xtrace: one more PS4 char per $(...) level */
  const unsigned char *disabled; /* enable -n set, or NULL */
  char *script_name;             /* BASH_SOURCE of a script run as a command */
  char *errname_own; /* a job's copy of errname: it outlives its parent */
  int jobs_pid;      /* pid of the job table this shell sees; 0: its own */
  void *procsubs;    /* open process substitutions (procsub.c) */
  size_t nprocsubs, capprocsubs;
  sh_assign **decl_assigns; /* declare-like builtins: parsed NAME=... */
  sh_scope *decl_temp;      /* the temporary scope of that command's own
                               prefix assignments, or NULL */
  sh_map *comp;             /* complete specs (sb_complete.c), owned */
  uint64_t comp_seq;
  int in_compfunc; /* a compgen -F function is running (compopt) */
  int traps_set;   /* the trap builtin changed traps in this process */
  void *hist;      /* history list (state/hist.c), owned */
  void *cmdhash;   /* commands found on PATH (state/hash.c), owned */
  int discard;     /* the pending J_EXIT is sh_discard's, not a real exit */
  /* Signal traps (bit sig-1) whose handler is running, and those raised
   * again meanwhile: bash runs such a trap again after its handler
   * returns, never inside it. */
  uint64_t trap_running, trap_pending;
  int trap_depth; /* trap handlers running, for the call-depth limit */
  /* ERR (1) and DEBUG (2) handlers running: neither runs inside itself,
   * but each runs inside the other and inside signal and EXIT traps; 4: a
   * background simple command, whose own failure runs no ERR trap */
  unsigned pseudo_trap_running;
  /* ulimit values this shell set (sb_ulimit.c): [0] soft, [1] hard of each
   * resource whose bit is in ulim_set; the others are the sandbox's. */
  uint64_t ulim[2][SH_NULIMIT];
  uint32_t ulim_set;
  void *binds; /* bind's changes to readline's maps (sb_bind.c), owned */
};

/* ---- process state (state/proc.c, state/vars_misc.c) ------------------ */

/* FUNCNAME, BASH_SOURCE, BASH_LINENO, PIPESTATUS as arrays (arena). */
sh_var *sh_special_array(sh_exec *ex, const char *name);
void sh_aliases_copy(sh_exec *ex);
void sh_aliases_free(sh_exec *ex);

/* ---- host hooks (see sh_host) ------------------------------------------ */

static inline const sh_ops *sh_reenter(sh_exec *ex) {
  return ex->run->ops;
}

static inline int64_t sh_now_ns(sh_exec *ex) {
  return ex->run->host->now_ns(ex->run->host_ud);
}
static inline void sh_random_bytes(sh_exec *ex, void *p, size_t n) {
  ex->run->host->random(ex->run->host_ud, p, n);
}
static inline const sh_host_cmd *sh_host_lookup(sh_exec *ex, const char *name) {
  return ex->run->host->find_cmd(ex->run->host_ud, name);
}
static inline int sh_call_host(sh_exec *ex, const sh_host_cmd *h, int argc,
                               char **argv) {
  return ex->run->host->call_cmd(ex, h, argc, argv);
}
static inline int sh_have_net(sh_exec *ex) {
  return ex->run->net != NULL;
}
static inline const struct net_policy *sh_net(sh_exec *ex) {
  return ex->run->net;
}

/* The variables every fresh shell starts with, built once per sandbox
 * (exec/exec_run.c). */
typedef struct sh_base sh_base;

/* ---- the job table (state/jobs.c) ------------------------------------- */

/* What bash shows a non-interactive script: jobs numbered per shell, %N
 * %% %+ %- %name %?text job specs, Running/Done/Exit N/signal states. A
 * $(...) or pipeline stage sees the table of its shell, a ( subshell ) or
 * a job starts with an empty one. */
void sh_job_enter(sh_exec *ex, sh_job *j); /* number a new job of ex */
/* The job spec (starting with %) names in ex's table, or NULL after
 * "WHO: SPEC: no such job" (or "ambiguous job spec"). */
sh_job *sh_job_lookup(sh_exec *ex, const char *spec, const char *who);
/* A job's line as `jobs` prints it (-l: with_pid), into b. */
void sh_job_line(sh_exec *ex, sh_job *j, int with_pid, buf *b);
/* The jobs of ex's table, newest first: j NULL for the first. */
sh_job *sh_job_next(sh_exec *ex, sh_job *j);
/* Take a job out of the table (wait, disown, a finished job shown). A
 * job ended by a signal other than INT, TERM or PIPE is reported as bash
 * does when report is set. */
void sh_job_forget(sh_exec *ex, sh_job *j, int report);
/* Forget finished jobs silently, as bash after a command it ran in a
 * child process. */
void sh_jobs_forget_done(sh_exec *ex);
/* Signal a job: it ends with 128+sig at its next check. */
void sh_job_signal(sh_exec *ex, sh_job *j, int sig);

/* ---- messages and stops (state/proc.c) --------------------------------- */

/* True when the exec must unwind now (limit, cancel). */
int sh_stopped(sh_exec *ex);
/* Room for one more nested call (function, source, eval, a child shell, a
 * trap handler): under the call-depth limit, with stack to spare on the
 * fiber. Otherwise the exec stops with the call-depth limit and 0. */
int sh_depth_ok(sh_exec *ex);
/* Room for more fibers (pipeline stages, background jobs) under the jobs
 * limit, so a fork bomb ends at once; else the exec stops and 0. */
int sh_jobs_ok(sh_exec *ex, size_t more);

/* Messages: "bash: line N: " prefix + text, on the shell's fd 2. */
void sh_err(sh_exec *ex, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Without the line prefix: "bash: " + text. */
void sh_err_noline(sh_exec *ex, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sh_fatal(sh_exec *ex, int status); /* exit this shell (errors) */
/* An expansion error (bad substitution, arithmetic syntax, ...): abandon the
 * current top-level command (or eval/source text) with status 1, as bash
 * does; a subshell or $(...) exits with 1. */
void sh_discard(sh_exec *ex);
int sh_oom(sh_exec *ex);

/* ---- variables (state/vars.c) ----------------------------------------- */
sh_var *sh_var_find(sh_exec *ex, const char *name); /* visible, after
                                                       namerefs */
sh_var *sh_var_find_raw(sh_exec *ex, const char *name, sh_scope **where);
/* Scalar value (array: element 0), or NULL when unset. Specials computed. */
const char *sh_getvar(sh_exec *ex, const char *name);
/* Whether the shell's locale variables (LC_ALL, then LC_CTYPE, then LANG:
 * the first one naming a locale, see u8_locale_name) select a UTF-8
 * locale; characters are then UTF-8 sequences, else single bytes (the C
 * locale, also when none is set). Read at each use, as bash resets its
 * locale on every assignment. */
int sh_utf8(sh_exec *ex);
/* s[0, n) with its letters in upper case (upper) or lower case, only the
 * first character when first is set; letters as the locale has them (any
 * cased character under UTF-8, ASCII ones in the C locale). An arena
 * string of *outlen bytes, or NULL out of memory (reported). */
char *sh_case_conv(sh_exec *ex, const char *s, size_t n, int upper, int first,
                   size_t *outlen);
/* Set a scalar (honours -i -l -u, readonly, arrays' element 0). flags:
 * SV_LOCAL (current function scope), SV_GLOBAL, SV_EXPORT, SV_APPEND.
 * Returns 0, or -1 after printing an error (readonly). */
enum {
  SV_LOCAL = 1,
  SV_GLOBAL = 2,
  SV_EXPORT = 4,
  SV_APPEND = 8,
  SV_QUIET = 16,
  SV_TEMP = 32,
  SV_NOARITH = 64
};
int sh_setvar(sh_exec *ex, const char *name, const char *val, size_t len,
              unsigned flags);
int sh_setvar_int(sh_exec *ex, const char *name, int64_t v);
int sh_var_set_direct(sh_exec *ex, sh_var *v, const char *val, size_t len,
                      int append);
int sh_unsetvar(sh_exec *ex, const char *name);
/* unset 'name[sub]' (r from sh_parse_ref; sub_text is the subscript as
 * written, for messages): 0, or 1 after an error message. */
int sh_unset_elem(sh_exec *ex, const sh_ref *r, const char *sub_text);
/* Whether name is a nameref whose final target is an array element or
 * a[@] (1, *r filled in with the subscript expanded), not (0), or -1 after
 * an expansion error. */
int sh_nameref_elem(sh_exec *ex, const char *name, sh_ref *r);
/* The text a nameref chain ends at (name itself when it is not a
 * nameref); NULL for a cycle. */
const char *sh_nameref_target(sh_exec *ex, const char *name);
/* The variable to modify for name (creating it, maybe in the overlay or a
 * function scope). NULL after an error (readonly message printed when
 * !quiet). */
sh_var *sh_var_lookup_for_write(sh_exec *ex, const char *name, unsigned flags);
void sh_var_clear_value(sh_exec *ex, sh_var *v);
int sh_valid_name(const char *s, size_t n);
int sh_is_special_var(const char *name);
void sh_var_free(mem *m, sh_var *v);
sh_var *sh_var_clone(mem *m, const sh_var *v);

/* Arrays. Indexed get/set/unset; index < 0 counts from the end. */
sh_arr *sh_arr_new(mem *m);
void sh_arr_free(mem *m, sh_arr *a, int assoc);
sh_aent *sh_arr_iget(sh_arr *a, int64_t idx);
int sh_arr_iset(mem *m, sh_arr *a, int64_t idx, const char *v, size_t len);
void sh_arr_iunset(mem *m, sh_arr *a, int64_t idx);
sh_aent *sh_arr_aget(sh_arr *a, const char *key);
int sh_arr_aset(mem *m, sh_arr *a, const char *key, const char *v, size_t len);
void sh_arr_aunset(mem *m, sh_arr *a, const char *key);
/* Assoc entries in bash's output order (arena array of pointers). */
sh_aent **sh_arr_assoc_order(arena *ar, sh_arr *a);
int64_t sh_arr_max_index(sh_arr *a);
/* Make v an indexed array (converting a scalar into element 0). */
int sh_var_make_array(sh_exec *ex, sh_var *v);
/* Assign element: sub is the subscript text (already expanded for assoc,
 * arithmetic text for indexed). */
int sh_setelem(sh_exec *ex, const char *name, const char *sub, size_t sublen,
               const char *val, size_t len, unsigned flags);
/* Element value or NULL. */
const char *sh_getelem(sh_exec *ex, sh_var *v, const char *sub, size_t len);

/* Exported "K=V" list in scratch memory (NULL-terminated). */
char **sh_environ(sh_exec *ex, arena *ar);
/* All visible variables, sorted by name (arena array), count in *n. */
sh_var **sh_all_vars(sh_exec *ex, arena *ar, size_t *n);
int64_t sh_arith(sh_exec *ex, const char *expr, size_t len, int *err);

sh_scope *sh_scope_push(sh_exec *ex, int kind);
void sh_scope_pop(sh_exec *ex);

/* Positional parameters. */
sh_args *sh_args_new(mem *m, int n, char **v);
void sh_args_unref(mem *m, sh_args *a);

/* Functions. */
sh_func *sh_func_find(sh_exec *ex, const char *name);
int sh_func_define(sh_exec *ex, const char *name, sh_node *def);
int sh_func_unset(sh_exec *ex, const char *name);
void sh_func_unref(mem *m, sh_func *f);
/* All visible functions sorted (arena). */
sh_func **sh_all_funcs(sh_exec *ex, arena *ar, size_t *n);

/* Aliases. */
const char *sh_alias_get(sh_exec *ex, const char *name);
int sh_alias_set(sh_exec *ex, const char *name, const char *val);
int sh_alias_unset(sh_exec *ex, const char *name);

/* ---- types the stages share ------------------------------------------- */

typedef struct sh_strv {
  char **v;
  size_t n, cap;
} sh_strv;

/* bash quoting for set -x, ${x@Q}, declare -p and friends. */
void sh_quote(buf *b, const char *s, size_t n);    /* 'a b' or $'\n' */
void sh_quote_dq(buf *b, const char *s, size_t n); /* "..." (declare) */
int sh_needs_quote(const char *s, size_t n);

/* Field builder (expand/expand.c) and parameter values
 * (expand/expand_param.c). */
enum { FB_FIELDS, FB_STR, FB_PAT, FB_RE };
typedef struct fb {
  sh_exec *ex;
  int mode;
  sh_strv *out;
  buf val, pat;
  int started, glob, dstate, failed, force;
  int ifs_loaded, ifs_null;
  char ifs_first;
  unsigned char ifs[256];
} fb;

enum { PV_UNSET, PV_STR, PV_LIST, PV_WORD };
/* ${!prefix*} and ${!a[*]} unquoted with a null IFS stay one word, joined
 * with nothing and with spaces (bash's choices), unlike $* and ${a[*]}. */
enum { PV_STAR_NAMES = 2, PV_STAR_KEYS = 3 };
typedef struct pval {
  int kind;
  const char *s;
  size_t len;
  char **v;
  size_t n;
  int star;      /* list from [*] / $* (or a PV_STAR_ kind) */
  sh_word *word; /* PV_WORD: expand this word in place */
} pval;

/* ---- the fd table (state/fd.c) ---------------------------------------- */

/* Open a VFS path as a stream (also /dev/std*, /dev/fd/N, /dev/null). */
stream *sh_open_stream(sh_exec *ex, const char *path, int flags, int *err);
/* The whole text at path, for `source` and `bash FILE`: a file in the VFS,
 * or what a descriptor named /dev/fd/N delivers up to end of file (a
 * process substitution). 0 with *text allocated on ex->m (NUL-terminated;
 * mem_free it), or a negative errno. */
int sh_read_text(sh_exec *ex, const char *path, char **text, size_t *len);
stream *sh_closed_stream(sh_exec *ex);
void sh_set_fd(sh_exec *ex, int fd, stream *s); /* takes the reference */
int sh_errno_msg(int err, const char **msg);

/* ---- shell builtins' table entries (builtins/sb_table.c) --------------- */

typedef int (*sh_builtin_fn)(sh_exec *ex, int argc, char **argv);
enum { SB_SPECIAL = 1, SB_DECL = 2 };
typedef struct sh_builtin {
  const char *name;
  sh_builtin_fn fn;
  unsigned flags;
} sh_builtin;

/* ---- output and small helpers (state/proc.c) --------------------------- */

/* Output helpers for builtins: to the shell's fd 1 / fd 2. */
int sh_out(sh_exec *ex, const char *s, size_t n);
int sh_outs(sh_exec *ex, const char *s);
int sh_outf(sh_exec *ex, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "bash: line N: NAME: msg" */
/* A builtin's usage line, as bash prints it: no "bash: " before it. */
void sh_usage(sh_exec *ex, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int sh_builtin_err(sh_exec *ex, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* declare -p style printing of one variable. */
void sh_print_var(sh_exec *ex, buf *b, sh_var *v, int decl);
int sh_print_func(sh_exec *ex, buf *b, sh_func *f);

int sh_parse_int(const char *s, int64_t *out);
/* "%lld" of v into b (at least 21 bytes), NUL-terminated; returns the
 * length. snprintf costs ~700 instructions, this ~60 (vars.c). */
size_t sh_fmt_int(char *b, int64_t v);
/* Path of p against the shell's cwd (arena). */
char *sh_abspath(sh_exec *ex, const char *p);
/* Lexical normalization of an absolute path (arena). */
char *sh_normpath(arena *ar, const char *p);
/* Find a command in PATH; arena string or NULL. */
char *sh_path_search(sh_exec *ex, const char *name, int want_exec);
/* sh_path_search, with *xok: whether the file found may be run. */
char *sh_path_find(sh_exec *ex, const char *name, int want_exec, int *xok);

/* The table of commands found on PATH (state/hash.c), bash's `hash`. */
typedef struct sh_hashent {
  char *name; /* first: an sh_map entry */
  char *path;
  int hits;
  uint32_t seq;
} sh_hashent;
/* The remembered file of name, or NULL; count: one more use of it. */
const char *sh_hash_get(sh_exec *ex, const char *name, int count);
int sh_hash_put(sh_exec *ex, const char *name, const char *path, int hits);
int sh_hash_remove(sh_exec *ex, const char *name); /* -1: not there */
void sh_hash_clear(sh_exec *ex);
void sh_hash_free(sh_exec *ex);
int sh_hash_copy(sh_exec *dst, const sh_exec *src);
/* Every entry, in the order bash lists them (NULL, *n 0: none). */
sh_hashent **sh_hash_list(sh_exec *ex, arena *ar, size_t *n);

#endif
