/*
 * vsh.h - the whole public API of libvsh.
 *
 * libvsh runs a bash-compatible shell inside the calling process, over an
 * in-memory copy-on-write filesystem. Nothing a script does reaches the host:
 * no process, no host file (except read-only host layers the embedder mounts),
 * no network beyond an allow-list.
 *
 * Conventions
 *   - Every call that can fail returns a vsh_status. On failure the sandbox
 *     keeps a message (vsh_errmsg) and, for filesystem errors, an errno value
 *     with Linux meaning (vsh_errcode), in the style of SQLite.
 *   - A script that fails is not an API error: vsh_exec returns VSH_OK and the
 *     script's exit status in the result.
 *   - Strings passed in are NUL-terminated unless a length is given; byte
 *     buffers handed out are NUL-terminated for convenience but may contain
 *     NUL bytes (use the length).
 *   - Buffers returned by the library are released with vsh_free().
 *   - Threads. Any call may be made from any thread, on any sandbox, at any
 *     time, except vsh_close, which must be the last call on its sandbox
 *     (no other thread inside or entering a call on it). Different
 *     sandboxes run in parallel. Calls on one sandbox take turns: a call
 *     made while an exec runs on another thread (a file call, a snapshot,
 *     another exec) waits at most one scheduling step of that exec (its
 *     next budget check, which every command makes every few hundred or
 *     thousand steps of its work, or the start of a sleep or of a wait on
 *     the network), not for its end.
 *     Two execs on one sandbox from two threads both make progress, each
 *     with its own shell state, over the one filesystem, as two shells on
 *     one machine would; between their steps each sees the other's file
 *     changes. A session runs one exec at a time (a second one, from
 *     another thread, fails with VSH_MISUSE and EBUSY), as does a thread
 *     (an exec from inside a host command of the same sandbox fails so).
 *     The memory cap and the filesystem quotas are the sandbox's, shared by
 *     its execs; each exec has its own deadline, cancel token and count
 *     limits. Host command callbacks and output callbacks run on the thread
 *     of their exec, holding the sandbox (they may call into it). A
 *     vsh_cancel token may be set from any thread or a signal handler.
 *     Sandboxes made from one another
 *     (vsh_fork, vsh_open_from, vsh_restore) share files until they write
 *     them; shared data is freed (and host-layer files are read in) through
 *     the allocator hook of the sandbox that made it, possibly from another
 *     sandbox's thread, so that hook must then be thread-safe.
 */
#ifndef VSH_H
#define VSH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define VSH_API
#elif defined(__GNUC__)
#define VSH_API __attribute__((visibility("default")))
#else
#define VSH_API
#endif

#define VSH_VERSION_MAJOR 0
#define VSH_VERSION_MINOR 1
#define VSH_VERSION_PATCH 0
#define VSH_VERSION_STRING "0.1.0"
#define VSH_VERSION_NUMBER                                                     \
  (VSH_VERSION_MAJOR * 10000 + VSH_VERSION_MINOR * 100 + VSH_VERSION_PATCH)

/* Version of the library actually linked (compare with VSH_VERSION_NUMBER). */
VSH_API int vsh_version_number(void);
VSH_API const char *vsh_version_string(void);

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

typedef enum vsh_status {
  VSH_OK = 0,
  VSH_ERROR = 1,       /* generic failure; see vsh_errmsg / vsh_errcode */
  VSH_NOMEM = 2,       /* allocation failed or memory cap reached */
  VSH_MISUSE = 3,      /* invalid argument or call sequence */
  VSH_FS = 4,          /* filesystem error; vsh_errcode() holds the errno */
  VSH_ABORT = 5,       /* cancelled through a vsh_cancel token */
  VSH_TIMEOUT = 6,     /* deadline passed (API level; exec reports 124) */
  VSH_LIMIT = 7,       /* a sandbox limit was reached */
  VSH_UNSUPPORTED = 8, /* operation not supported; nothing was changed */
  VSH_REJECTED = 9,    /* input refused by validation (e.g. a tar member) */
  VSH_DIED = 10        /* the sandbox is gone (drivers: infrastructure) */
} vsh_status;

/* Short English name of a status ("ok", "filesystem error", ...). */
VSH_API const char *vsh_status_str(vsh_status st);

/* ------------------------------------------------------------------------ */
/* Memory                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * Allocator hook, in the manner of Lua: with nsize == 0 free ptr and return
 * NULL; otherwise (re)allocate ptr (NULL for a new block) from osize to nsize
 * bytes and return the block or NULL. osize is the size previously returned
 * for ptr (0 when ptr is NULL). The library adds its own accounting and cap on
 * top, so the hook need not count.
 */
typedef void *(*vsh_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

/* ------------------------------------------------------------------------ */
/* Limits                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * Per-exec budget. A field left 0 takes the default shown. Reaching a limit
 * ends the exec with status 126 and "vsh: NAME limit exceeded (N)" on stderr;
 * the deadline ends it with 124 ("vsh: timeout: ..."), a vsh_cancel with 130
 * ("vsh: cancelled"). The sandbox stays usable, and what the exec wrote
 * before it stopped (also what a command still held in its output buffer)
 * is in the result and was delivered to the output callback.
 *
 * A limit the caller sets wins over a default: when a timeout is set (here,
 * or per exec in vsh_exec_opts.timeout_ms), max_commands and
 * max_loop_iterations left 0 are off, so only the deadline the caller chose
 * ends a long loop. Set them explicitly to keep a count as well.
 */
typedef struct vsh_limits {
  uint64_t max_commands;        /* commands run per exec (default 1,000,000; off
                                   when a timeout is set) */
  uint64_t max_loop_iterations; /* loop iterations per exec (10,000,000; off
                                   when a timeout is set) */
  uint32_t max_call_depth;      /* nested function/source/eval (1,000) */
  uint64_t max_output_bytes;    /* stdout+stderr kept per exec (64 MiB) */
  uint64_t max_memory;          /* sandbox heap cap in bytes (1 GiB) */
  uint64_t max_fs_bytes;        /* file content bytes (1 GiB) */
  uint64_t max_fs_inodes;       /* inodes (1,000,000) */
  uint64_t max_string_bytes;    /* one variable/word (16 MiB) */
  int64_t timeout_ms;           /* wall clock per exec (0 = none) */
  uint32_t max_jobs; /* background jobs and pipeline stages alive at once,
                        in the whole sandbox (1,000) */
} vsh_limits;

/* ------------------------------------------------------------------------ */
/* Network policy (used by the curl builtin)                                */
/* ------------------------------------------------------------------------ */

typedef struct vsh_http_header {
  const char *name;
  const char *value;
} vsh_http_header;

/* One allow-list entry: "scheme://host[:port][/path-prefix]" plus headers
 * injected into every request that this entry allows. */
typedef struct vsh_net_rule {
  const char *prefix;
  const vsh_http_header *headers;
  size_t nheaders;
} vsh_net_rule;

typedef struct vsh_http_request {
  const char *method;
  const char *url;
  const vsh_http_header *headers;
  size_t nheaders;
  const void *body;
  size_t body_len;
  int64_t timeout_ms;    /* what is left of the request deadline */
  uint64_t max_response; /* cap on body bytes */
  /* Non-zero when the exec was cancelled; set from another thread, so read
   * it atomically (e.g. __atomic_load_n(abort, __ATOMIC_RELAXED)). */
  volatile const int *abort;
} vsh_http_request;

typedef struct vsh_http_response {
  int status;               /* HTTP status, e.g. 200 */
  vsh_http_header *headers; /* allocated by the transport with malloc */
  size_t nheaders;
  void *body; /* malloc'd */
  size_t body_len;
  char error[256]; /* message when the transport fails */
} vsh_http_response;

/*
 * A host-provided transport replaces libcurl. It performs exactly one request
 * (no redirects) and returns 0, or a curl-style error code (6 resolve, 7
 * connect, 28 timeout, 63 size cap, ...) with resp->error filled. Policy
 * checks still run in vsh before and after every hop.
 */
typedef int (*vsh_transport_fn)(void *ud, const vsh_http_request *req,
                                vsh_http_response *resp);

typedef struct vsh_net_policy {
  const vsh_net_rule *rules;
  size_t nrules;
  const char *const *methods; /* allowed beyond GET and HEAD */
  size_t nmethods;
  /* Any method at all. Named to stand out in review. */
  int dangerously_allow_all_methods;
  int deny_private;            /* refuse private/loopback/... addresses */
  int max_redirects;           /* default 20 */
  int64_t timeout_ms;          /* whole request incl. redirects; 30,000 */
  uint64_t max_response_bytes; /* default 10 MiB */
  const char *ca_file;         /* extra CA bundle (tests) */
  vsh_transport_fn transport;  /* NULL: libcurl */
  void *transport_ud;
} vsh_net_policy;

/* ------------------------------------------------------------------------ */
/* Sandbox configuration                                                    */
/* ------------------------------------------------------------------------ */

typedef struct vsh_file_init {
  const char *path; /* absolute, or relative to the initial cwd */
  const void *data;
  size_t len;
  unsigned mode; /* 0 means 0644 */
} vsh_file_init;

/* A host directory layered read-only (copy-on-write) at a virtual path. */
typedef struct vsh_mount {
  const char *host_dir;
  const char *virtual_path;
} vsh_mount;

/* Clock hook: nanoseconds since the Unix epoch (wall) or any origin (mono). */
typedef int64_t (*vsh_clock_fn)(void *ud, int monotonic);
/* Random hook: fill buf with n bytes. */
typedef void (*vsh_random_fn)(void *ud, void *buf, size_t n);

enum {
  /* Do not create /home/user, /tmp, /bin, /usr/bin, /dev entries. */
  VSH_CFG_NO_DEFAULT_LAYOUT = 1u << 0
};

typedef struct vsh_config {
  const vsh_file_init *files;
  size_t nfiles;
  /* Initial working directory, absolute; default /home/user. It is made
   * with any missing parents (as by mkdir -p, belonging to the sandbox
   * user, mode 0755), so any absolute path can serve as the workspace
   * root a script may write in, e.g. "/workspace". */
  const char *cwd;
  const char *const *env; /* "K=V" base environment, NULL-terminated */
  vsh_limits limits;
  vsh_alloc_fn alloc; /* NULL: the C library's realloc/free */
  void *alloc_ud;
  vsh_clock_fn clock; /* NULL: the host clock */
  void *clock_ud;
  vsh_random_fn random; /* NULL: a host random source */
  void *random_ud;
  const vsh_net_policy *net; /* NULL: no network, no curl */
  const vsh_mount *mounts;
  size_t nmounts;
  unsigned flags; /* VSH_CFG_* */
} vsh_config;

/* Fill cfg with defaults (everything zero/NULL). */
VSH_API void vsh_config_init(vsh_config *cfg);

typedef struct vsh_sandbox vsh_sandbox;

/* Create a sandbox (cfg NULL: defaults). On failure *out is NULL and the
 * status says why (vsh_status_str names it; there is no handle to ask
 * vsh_errmsg): VSH_MISUSE for a NULL out, a relative cwd or a network
 * policy that does not parse; VSH_FS when a mount or an initial file
 * cannot be set up (a host directory that is missing, a file path through
 * a file); VSH_LIMIT when the initial files exceed a filesystem quota;
 * VSH_NOMEM when memory (or the memory cap) runs out. */
VSH_API vsh_status vsh_open(const vsh_config *cfg, vsh_sandbox **out);
/* Release the sandbox and everything it holds (its sessions must be
 * closed first; snapshots taken from it stay valid). NULL is ignored. It
 * must be the last call on sb: no other thread may be inside a call on it
 * or about to make one. */
VSH_API void vsh_close(vsh_sandbox *sb);

/* Message and errno of the last failed call on this sandbox made by the
 * calling thread (like errno, so that threads sharing a sandbox each read
 * their own); from a thread that made no failing call on it, those of the
 * sandbox's last failed call on any thread. */
VSH_API const char *vsh_errmsg(const vsh_sandbox *sb);
VSH_API int vsh_errcode(const vsh_sandbox *sb);

/* Release a buffer the library returned (sb may be NULL for buffers that
 * were returned without a sandbox, such as vsh_resolve_path's). NULL is
 * ignored. Such buffers are not counted against the sandbox's memory cap
 * and may outlive the sandbox. */
VSH_API void vsh_free(vsh_sandbox *sb, void *p);

/* Bytes currently allocated by the sandbox (its allocator's accounting,
 * the figure the memory cap applies to); 0 for NULL. */
VSH_API size_t vsh_memory_used(const vsh_sandbox *sb);

/* ------------------------------------------------------------------------ */
/* Exec                                                                     */
/* ------------------------------------------------------------------------ */

/* A cancel token: passed to an exec (vsh_exec_opts.cancel), set from
 * anywhere to end it. One token may serve several execs, one after the
 * other or at once. */
typedef struct vsh_cancel vsh_cancel;
/* A new token, not set; NULL when memory runs out. */
VSH_API vsh_cancel *vsh_cancel_new(void);
/* Set the token: every exec using it ends at its next budget check (status
 * 130, "vsh: cancelled"; vsh_exec returns VSH_ABORT), and an exec started
 * with it set ends at once. Any thread; async-signal-safe (one atomic
 * store). */
VSH_API void vsh_cancel_set(vsh_cancel *c);
/* Non-zero once the token is set (until vsh_cancel_reset). */
VSH_API int vsh_cancel_is_set(const vsh_cancel *c);
/* Clear the token, so that it can serve the next exec. */
VSH_API void vsh_cancel_reset(vsh_cancel *c);
/* Release the token; no exec may be using it. NULL is ignored. */
VSH_API void vsh_cancel_free(vsh_cancel *c);

/* Streaming output: called for each chunk the script writes to its stdout
 * (fd 1) or stderr (fd 2), in order, while it runs. */
typedef void (*vsh_output_fn)(void *ud, int fd, const void *data, size_t len);

/* Streaming input: fill buf with up to len bytes of the script's stdin and
 * return how many (at least 1), 0 at its end, VSH_INPUT_AGAIN when nothing
 * is there yet (called again soon; meanwhile the exec's deadline, limits and
 * cancel token are checked), or -1 on an error (the reading command sees
 * EIO). It is called on the exec's thread when a command reads, with the
 * sandbox let go (other threads may use it; the callback must not call into
 * it). A callback that waits should wait briefly (say 50 ms) and return
 * VSH_INPUT_AGAIN, so that a deadline or a cancel ends the exec promptly. */
typedef long (*vsh_input_fn)(void *ud, void *buf, size_t len);
#define VSH_INPUT_AGAIN (-2L)

enum {
  VSH_EXEC_REPLACE_ENV = 1u << 0, /* env replaces the base environment */
  VSH_EXEC_NO_CAPTURE = 1u << 1,  /* with on_output: do not also collect */
  /* the script is the text of the file argv0 names: messages read
   * "argv0: line N: ..." as when bash runs a script file, not "-c" ones */
  VSH_EXEC_SCRIPT_FILE = 1u << 2,
  /* an interactive shell (a prompt over a session): a syntax error is
   * reported without ending it, and $- holds i; the setting stays with the
   * session. Lines are not added to the history by themselves: a prompt
   * adds what the user typed (`history -s`). */
  VSH_EXEC_INTERACTIVE = 1u << 3
};

typedef struct vsh_exec_opts {
  /* NULL: the sandbox cwd. Must name a directory: otherwise the call fails
   * with VSH_FS and chdir's errno (ENOENT, ENOTDIR) before anything runs. */
  const char *cwd;
  const char *const *env; /* "K=V" layered over the base env */
  unsigned flags;         /* VSH_EXEC_* */
  const void *stdin_data;
  size_t stdin_len;
  const char *const *args; /* positional parameters $1, $2, ... */
  size_t nargs;
  int64_t timeout_ms; /* 0: the sandbox default */
  vsh_cancel *cancel;
  vsh_output_fn on_output;
  void *output_ud;
  const char *argv0; /* $0; NULL: "bash" */
  /* stdin read as the script reads it, instead of stdin_data */
  vsh_input_fn stdin_fn;
  void *stdin_ud;
} vsh_exec_opts;

enum {
  VSH_RESULT_TIMED_OUT = 1u << 0,
  VSH_RESULT_LIMIT = 1u << 1,
  VSH_RESULT_CANCELLED = 1u << 2,
  VSH_RESULT_OUTPUT_TRUNCATED = 1u << 3
};

typedef struct vsh_result {
  char *out; /* stdout bytes, NUL-terminated, may contain NUL */
  size_t out_len;
  char *err; /* stderr bytes */
  size_t err_len;
  int status;     /* exit status of the script */
  unsigned flags; /* VSH_RESULT_* */
} vsh_result;

/*
 * Run a script with fresh shell state (variables, functions, options); the
 * filesystem persists between execs. opts may be NULL. Returns VSH_OK when
 * the script ran (whatever its status), VSH_ABORT when the cancel token was
 * set before or during the run (the partial result is still filled), or an
 * API error. Release the result with vsh_result_free.
 *
 * Background jobs (`cmd &`) run while the script runs: whenever it waits
 * (`wait`, `sleep`, a pipe, `$(...)` reading to end of file), and `wait`
 * waits for them as in bash. When the script ends (its last command and
 * its EXIT trap done), the jobs still running are stopped, as a hang-up
 * would stop them: each may make a few thousand more budget checks and no
 * wait at all (a `sleep`, `wait` or blocked pipe ends it at once), so
 * `echo done &` still prints but `while :; do sleep 1; done &` never holds
 * the caller. What they print until then is in the result; nothing they do
 * changes its status, unless they hit a limit (a fork bomb still ends
 * with the jobs limit); everything they held is freed before vsh_exec
 * returns. The exec's deadline is checked once more when the script ends,
 * so an exec that ran past it ends with 124 even if its last step
 * completed.
 *
 * Errors: VSH_MISUSE for a NULL sb or res (or a NULL script with a
 * length), or an exec from inside a host command of the same sandbox on
 * the same thread (EBUSY); VSH_FS when opts->cwd is not a directory
 * (ENOENT, ENOTDIR; nothing ran); VSH_NOMEM when the exec cannot even be
 * set up. Limits, the timeout and out-of-memory inside the script are not
 * API errors: they end the script with status 124 or 126 and set
 * res->flags.
 */
VSH_API vsh_status vsh_exec(vsh_sandbox *sb, const char *script,
                            const vsh_exec_opts *opts, vsh_result *res);
/* vsh_exec of script_len bytes, which may contain NUL bytes. */
VSH_API vsh_status vsh_exec_n(vsh_sandbox *sb, const char *script,
                              size_t script_len, const vsh_exec_opts *opts,
                              vsh_result *res);
/* Release the buffers of a result and zero them; a zeroed or freed result
 * may be passed again. */
VSH_API void vsh_result_free(vsh_result *res);

/* ------------------------------------------------------------------------ */
/* Persistent sessions                                                      */
/* ------------------------------------------------------------------------ */

/* A shell whose variables, functions, options and cwd are kept from one
 * vsh_session_exec to the next (the interactive prompt uses one). Jobs do
 * not carry over: each vsh_session_exec stops the jobs it started when its
 * script ends, as vsh_exec does (a job could only run while a later exec
 * runs, so keeping it would make its output and its end depend on when the
 * host calls next); `jobs` in the next exec lists none. */
typedef struct vsh_session vsh_session;
/* A new session over sb, starting in the sandbox's cwd with its base
 * environment. VSH_MISUSE for NULL arguments, VSH_NOMEM. */
VSH_API vsh_status vsh_session_open(vsh_sandbox *sb, vsh_session **out);
/* Run len bytes of script in the session, as vsh_exec does but with the
 * session's shell state (a cwd in opts changes the session's, as `cd`
 * would). Returns as vsh_exec does, and also VSH_MISUSE with EBUSY while
 * another thread runs an exec of this session, or with EINVAL once the session
 * has exited (vsh_session_exited). */
VSH_API vsh_status vsh_session_exec(vsh_session *s, const char *script,
                                    size_t len, const vsh_exec_opts *opts,
                                    vsh_result *res);
/* Is script a complete command list? 1 yes, 0 it ends inside a construct
 * (an open quote, here-document, `if` without `fi`, ...: a prompt should
 * read another line), -1 a syntax error. Needs no sandbox. */
VSH_API int vsh_script_complete(const char *script, size_t len);
/* The syntax tree of script as JSON, without running it (needs no
 * sandbox): {"type":"script","commands":[...]}, each command an object
 * with "type" (simple, pipeline, and, or, list, subshell, group, if, while,
 * until, for, for_arith, select, case, function, arith, cond, time),
 * "line", its parts and "redirs"; each word {"text", "parts"}. On
 * VSH_OK, *out (released with vsh_free(NULL, p)) holds the JSON and a
 * newline; on a syntax error VSH_ERROR and *out holds "line N: message". */
VSH_API vsh_status vsh_script_ast(const char *script, size_t len, char **out,
                                  size_t *out_len);
/* Non-zero once the script ran `exit`. */
VSH_API int vsh_session_exited(const vsh_session *s);
/* Release the session (before its sandbox is closed). NULL is ignored. */
VSH_API void vsh_session_close(vsh_session *s);

/* ------------------------------------------------------------------------ */
/* Host commands                                                            */
/* ------------------------------------------------------------------------ */

typedef struct vsh_cmd vsh_cmd;

/* A command implemented by the host. argv[0] is the name it was run as;
 * argv[argc] is NULL; all are valid during the call. Returns the exit
 * status. It runs on the exec's thread and may call the sandbox's file
 * functions (vsh_cmd_sandbox), but not vsh_exec on it. */
typedef int (*vsh_command_fn)(vsh_cmd *cmd, int argc, char **argv, void *ud);

/* Read up to n bytes of standard input: >0 bytes, 0 at end, -1 on error
 * (e.g. the exec was cancelled or a limit was reached). */
VSH_API long vsh_cmd_read(vsh_cmd *cmd, void *buf, size_t n);
/* Write to fd 1 or 2 (or another open fd). 0 on success, -1 when the reader
 * went away (the command should then return 141) or the exec must stop. */
VSH_API int vsh_cmd_write(vsh_cmd *cmd, int fd, const void *data, size_t n);
/* The value of the exported variable name, or NULL; valid during the
 * call. */
VSH_API const char *vsh_cmd_getenv(vsh_cmd *cmd, const char *name);
/* All exported variables as "K=V", NULL-terminated; valid during the call.
 * NULL when memory runs out. */
VSH_API char **vsh_cmd_environ(vsh_cmd *cmd);
/* The command's working directory (absolute); valid during the call. */
VSH_API const char *vsh_cmd_cwd(vsh_cmd *cmd);
/* The sandbox, for file access (relative paths resolve against the cwd of
 * the command when made through vsh_cmd_path). */
VSH_API vsh_sandbox *vsh_cmd_sandbox(vsh_cmd *cmd);
/* Absolute path for p resolved against the command's cwd (lexically: "."
 * and ".." are resolved, symlinks are not); valid during the call. NULL
 * for a NULL p or when memory runs out. */
VSH_API const char *vsh_cmd_path(vsh_cmd *cmd, const char *p);

/* Register (or replace) a command. It can be used in pipelines, redirections
 * and $(...) like any builtin, and it replaces a command of the same name
 * (sort, grep, ...), while the shell's own builtins (echo, cd, read, ...)
 * still come first, as in bash; /usr/bin gets an entry for it (unless the
 * sandbox was made with VSH_CFG_NO_DEFAULT_LAYOUT or a file is there), so
 * `which` and `command -v` find it. Forks of sb inherit it. VSH_MISUSE (EINVAL)
 * for an empty name, a name with '/' or a NULL fn; VSH_NOMEM. */
VSH_API vsh_status vsh_register_command(vsh_sandbox *sb, const char *name,
                                        vsh_command_fn fn, void *ud);

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

/* Paths are absolute, or relative to the sandbox cwd. The embedder owns
 * its sandbox: these calls are not bound by the script user's permission
 * bits (new files still belong to that user). Each fails with VSH_MISUSE
 * (EINVAL) for a NULL sandbox, path or out-parameter; with VSH_FS and the
 * errno a Linux call would give (ENOENT, ENOTDIR, EISDIR, EEXIST,
 * ENOTEMPTY, ELOOP, ENAMETOOLONG, EINVAL, ...), the message naming the
 * operation and the path ("write: /a/b: No such file or directory");
 * with VSH_LIMIT (ENOSPC) when a filesystem quota would be exceeded
 * (nothing is changed); with VSH_NOMEM (ENOMEM). Buffers handed out are
 * released with vsh_free. */

typedef enum vsh_file_type {
  VSH_TYPE_FILE = 1,
  VSH_TYPE_DIR = 2,
  VSH_TYPE_SYMLINK = 3,
  VSH_TYPE_CHAR = 4, /* /dev nodes */
  VSH_TYPE_FIFO = 5
} vsh_file_type;

typedef struct vsh_stat {
  vsh_file_type type;
  unsigned mode; /* permission bits (07777) */
  uint64_t ino;
  uint32_t nlink;
  uint64_t size;
  int64_t mtime_ns, ctime_ns, atime_ns;
} vsh_stat;

/* The whole content of the file at path (symlinks followed) in *data
 * (NUL-terminated; vsh_free) and its length in *len. EISDIR for a
 * directory; EFBIG for a file without end (/dev/zero, a host file too large
 * to read). */
VSH_API vsh_status vsh_read_file(vsh_sandbox *sb, const char *path, char **data,
                                 size_t *len);
/* Create or replace; mode 0 means 0644 for a new file. The parent must
 * exist (ENOENT otherwise). */
VSH_API vsh_status vsh_write_file(vsh_sandbox *sb, const char *path,
                                  const void *data, size_t len, unsigned mode);
/* Append to the file, creating it (0644) when it does not exist. */
VSH_API vsh_status vsh_append_file(vsh_sandbox *sb, const char *path,
                                   const void *data, size_t len);
/* Status of path, following symlinks (vsh_stat_path) or not
 * (vsh_lstat_path). */
VSH_API vsh_status vsh_stat_path(vsh_sandbox *sb, const char *path,
                                 vsh_stat *st);
VSH_API vsh_status vsh_lstat_path(vsh_sandbox *sb, const char *path,
                                  vsh_stat *st);
/* Names in order, no "." or "..": an array of *n strings, each and the array
 * released with vsh_free (or all at once with vsh_free_names). */
VSH_API vsh_status vsh_readdir(vsh_sandbox *sb, const char *path, char ***names,
                               size_t *n);
VSH_API void vsh_free_names(vsh_sandbox *sb, char **names, size_t n);
/* 1 when path names something (symlinks followed), else 0; never an
 * error. */
VSH_API int vsh_exists(vsh_sandbox *sb, const char *path);

/* Flags of vsh_mkdir and vsh_rm. */
enum { VSH_RECURSIVE = 1u << 0, VSH_FORCE = 1u << 1 };
/* Make a directory (mode 0755). VSH_RECURSIVE: with missing parents, and
 * an existing directory is no error (mkdir -p); without it, EEXIST and
 * ENOENT as mkdir(2) gives them. */
VSH_API vsh_status vsh_mkdir(vsh_sandbox *sb, const char *path, unsigned flags);
/* Remove a file, symlink or (with VSH_RECURSIVE) a directory and all below
 * it; a directory without VSH_RECURSIVE is EISDIR. VSH_FORCE: a missing
 * path is no error. */
VSH_API vsh_status vsh_rm(vsh_sandbox *sb, const char *path, unsigned flags);
/* Rename from to to, replacing to as rename(2) does (EISDIR, ENOTEMPTY,
 * EINVAL for a directory into itself). */
VSH_API vsh_status vsh_rename(vsh_sandbox *sb, const char *from,
                              const char *to);
/* A hard link path to the existing file target (EEXIST when path exists,
 * EPERM for a directory). */
VSH_API vsh_status vsh_link(vsh_sandbox *sb, const char *target,
                            const char *path);
/* A symlink path holding target as given (target need not exist; an
 * absolute target resolves inside the sandbox). EEXIST when path exists. */
VSH_API vsh_status vsh_symlink(vsh_sandbox *sb, const char *target,
                               const char *path);
/* The target of the symlink path (vsh_free); EINVAL when it is not one. */
VSH_API vsh_status vsh_readlink(vsh_sandbox *sb, const char *path,
                                char **target);
/* The absolute path of path with every symlink, "." and ".." resolved
 * (vsh_free); ENOENT when a part is missing, ELOOP for a symlink loop. */
VSH_API vsh_status vsh_realpath(vsh_sandbox *sb, const char *path,
                                char **resolved);
/* Set the permission bits (07777) of path, symlinks followed. */
VSH_API vsh_status vsh_chmod(vsh_sandbox *sb, const char *path, unsigned mode);
/* Set the access and modification times, in nanoseconds since the
 * epoch. */
VSH_API vsh_status vsh_utimes(vsh_sandbox *sb, const char *path,
                              int64_t atime_ns, int64_t mtime_ns);
/* Cut or extend (with zero bytes) the file to size bytes; EISDIR for a
 * directory. */
VSH_API vsh_status vsh_truncate(vsh_sandbox *sb, const char *path,
                                uint64_t size);

/* ------------------------------------------------------------------------ */
/* Snapshots, fork, diff, persist, hydrate                                  */
/* ------------------------------------------------------------------------ */

typedef struct vsh_snapshot vsh_snapshot;

/* O(1): captures the whole filesystem. A snapshot outlives its sandbox.
 * VSH_MISUSE for NULL arguments, VSH_NOMEM. */
VSH_API vsh_status vsh_snapshot_take(vsh_sandbox *sb, vsh_snapshot **out);
/* O(1): the sandbox's filesystem becomes the snapshot's (copy-on-write).
 * The snapshot may come from another sandbox. VSH_MISUSE for NULL
 * arguments; VSH_NOMEM. */
VSH_API vsh_status vsh_restore(vsh_sandbox *sb, const vsh_snapshot *snap);
/* Release a snapshot (files shared with live sandboxes stay). NULL is
 * ignored. */
VSH_API void vsh_snapshot_free(vsh_snapshot *snap);
/* O(1): a new sandbox with the same configuration (cwd, environment,
 * limits, hooks, network policy, host commands) sharing the whole tree
 * copy-on-write; shell state is not copied. VSH_MISUSE for NULL
 * arguments; VSH_NOMEM. */
VSH_API vsh_status vsh_fork(vsh_sandbox *sb, vsh_sandbox **out);
/* A new sandbox seeded from a snapshot, with cfg (NULL: defaults); cfg's
 * files are written over the snapshot's tree. Errors as vsh_open. */
VSH_API vsh_status vsh_open_from(const vsh_snapshot *snap,
                                 const vsh_config *cfg, vsh_sandbox **out);

typedef enum vsh_change_kind {
  VSH_ADDED = 1,
  VSH_REMOVED = 2,
  VSH_MODIFIED = 3
} vsh_change_kind;

enum {
  VSH_CHANGED_CONTENT = 1u << 0,
  VSH_CHANGED_MODE = 1u << 1,
  VSH_CHANGED_TYPE = 1u << 2,
  VSH_CHANGED_TARGET = 1u << 3
};

typedef void (*vsh_diff_fn)(void *ud, vsh_change_kind kind, const char *path,
                            unsigned what);
/* Differences from a to b; b NULL means the live tree of sb (sb may be
 * NULL when b is given). fn is called once per changed path, with the
 * VSH_CHANGED_* bits of a modification in what. Time is proportional to
 * what changed. VSH_MISUSE for a NULL a or fn, or NULL sb and b. */
VSH_API vsh_status vsh_diff(vsh_sandbox *sb, const vsh_snapshot *a,
                            const vsh_snapshot *b, vsh_diff_fn fn, void *ud);

/* Tar stream output: return 0 to go on, non-zero to stop. */
typedef int (*vsh_write_fn)(void *ud, const void *data, size_t len);
/* Write the tree at dir (NULL: the sandbox cwd) to fn as a tar stream
 * (ustar with pax headers for long names): members "." and "./rel/path"
 * in byte order, with whole modes, mtimes in seconds, symlinks and hard
 * links; devices are left out. skip: NULL, or NULL-terminated paths
 * (relative to dir or absolute) left out with everything below them.
 * VSH_FS with ENOENT/ENOTDIR for a bad dir, or ECANCELED when fn returned
 * non-zero; VSH_NOMEM. */
VSH_API vsh_status vsh_persist(vsh_sandbox *sb, const char *dir,
                               const char *const *skip, vsh_write_fn fn,
                               void *ud);
/* Extract a tar (plain or gzip) into dir after validating every member; a
 * rejected archive changes nothing and vsh_errmsg names member and rule.
 * A persist/hydrate round trip is exact: modes (setuid, setgid, sticky),
 * mtimes to the second, symlink targets (absolute ones too: they resolve
 * inside the sandbox), hard links, empty directories, binary content.
 * Missing parents are created as GNU tar does; absolute names, `..`,
 * special members, members under a symlink member and archives cut short
 * are refused. dir NULL: the sandbox cwd. VSH_REJECTED (EBADMSG) for a
 * refused archive; VSH_FS or VSH_LIMIT when writing a member fails;
 * VSH_MISUSE for NULL sb, or NULL tar with a
 * length. Members are written by the batch import (as vsh_import_files):
 * no resolution from the root per member, each content copied once. */
VSH_API vsh_status vsh_hydrate(vsh_sandbox *sb, const char *dir,
                               const void *tar, size_t len);

/* Stream input: fill buf with up to len bytes and return how many, 0 at
 * the end, or -1 on an error. */
typedef long (*vsh_read_fn)(void *ud, void *buf, size_t len);
/* vsh_hydrate from a stream (dir NULL: the sandbox cwd): the tar (plain
 * or gzip) is read through fn in chunks, each regular member's content
 * straight into the file it becomes (no copy of the whole archive is
 * made), with the same rules, limits, messages and all-or-nothing result.
 * fn is called on this thread with the sandbox held: it must not call
 * into the sandbox. VSH_FS with EIO when fn returned -1 (nothing
 * changed); VSH_MISUSE for NULL sb or fn. */
VSH_API vsh_status vsh_import_tar(vsh_sandbox *sb, const char *dir,
                                  vsh_read_fn fn, void *ud);

/* Batch import: many files at once under dir (NULL: the cwd), made with
 * any missing parents. Much faster than a vsh_write_file per file: the
 * files of one directory are placed one after the other without resolving
 * each path from the root, and each content is copied once. Paths are
 * relative to dir, or absolute; modes 0 mean 0644; a file already there is
 * replaced as by vsh_write_file. Stops at the first error (what was placed
 * before it stays), which vsh_errmsg names. */
VSH_API vsh_status vsh_import_files(vsh_sandbox *sb, const char *dir,
                                    const vsh_file_init *files, size_t n);
/* A host directory's tree copied in under dir (NULL: the cwd): regular
 * files (each read once, straight into the sandbox), directories and
 * symlinks (targets as they are), with the host's permission bits;
 * devices, FIFOs and sockets are left out. Unlike a vsh_mount, the copy
 * is the sandbox's own from then on. */
VSH_API vsh_status vsh_import_dir(vsh_sandbox *sb, const char *host_dir,
                                  const char *dir);

/* ------------------------------------------------------------------------ */
/* Driver vtable (the agent-framework sandbox contract)                     */
/* ------------------------------------------------------------------------ */

typedef enum vsh_drv_error {
  VSH_DRV_OK = 0,
  VSH_DRV_ABORT = 1,       /* the caller cancelled */
  VSH_DRV_DIED = 2,        /* the sandbox infrastructure is gone */
  VSH_DRV_UNSUPPORTED = 3, /* nothing was changed */
  VSH_DRV_ERRNO = 4        /* plain error; see code (ENOENT, ...) */
} vsh_drv_error;

/* Error out-parameter of every driver operation. */
typedef struct vsh_drv_err {
  vsh_drv_error kind;
  int code;          /* errno value for VSH_DRV_ERRNO */
  char message[512]; /* factual, self-contained, names the path */
} vsh_drv_err;

typedef struct vsh_drv_exec_opts {
  /* NULL: the driver's default (isolate: the sandbox cwd; local: its
   * root). Normalised lexically, then it must be a directory, or exec fails
   * with ENOENT/ENOTDIR naming chdir and nothing runs. $PWD is its physical
   * path (symlinks resolved), as for a host process started there; for the
   * local driver that is the host path. */
  const char *cwd;
  const char *const *env; /* "K=V" layered; value "unset" removes a key */
  int64_t timeout_ms;     /* 0: none */
  vsh_cancel *signal;
} vsh_drv_exec_opts;

enum {
  VSH_DRV_HAS_SYMLINK = 1u << 0, /* is_symlink is known */
  VSH_DRV_HAS_SIZE = 1u << 1,
  VSH_DRV_HAS_MTIME = 1u << 2
};

/* size is reported for directories too, as the sandbox's own `stat -c %s`
 * prints it: the local driver gives the host file system's figure (4096
 * per block on ext4, 40 plus the entries on tmpfs), the isolate its VFS's
 * (4096 for every directory). */
typedef struct vsh_drv_stat {
  int is_file, is_directory, is_symlink;
  uint64_t size;
  int64_t mtime_ms;
  unsigned fields; /* VSH_DRV_HAS_*: optional fields present */
} vsh_drv_stat;

typedef struct vsh_driver vsh_driver;

/* Buffers returned through a driver are released with d->free_buf. */
struct vsh_driver {
  void *self;
  const char *name;
  int (*exec)(vsh_driver *d, const char *command, const vsh_drv_exec_opts *o,
              vsh_result *res, vsh_drv_err *err);
  int (*read_file)(vsh_driver *d, const char *path, char **data, size_t *len,
                   vsh_drv_err *err);
  int (*write_file)(vsh_driver *d, const char *path, const void *data,
                    size_t len, vsh_drv_err *err);
  int (*stat)(vsh_driver *d, const char *path, vsh_drv_stat *st,
              vsh_drv_err *err);
  int (*readdir)(vsh_driver *d, const char *path, char ***names, size_t *n,
                 vsh_drv_err *err);
  int (*exists)(vsh_driver *d, const char *path);
  int (*mkdir)(vsh_driver *d, const char *path, int recursive,
               vsh_drv_err *err);
  int (*rm)(vsh_driver *d, const char *path, int recursive, int force,
            vsh_drv_err *err);
  void (*free_buf)(vsh_driver *d, void *p);
  void (*destroy)(vsh_driver *d);
};
/* Every operation returns 0 on success and -1 with *err filled. exec
 * succeeds whatever the exit code; it fails only for abort, transport or a
 * cwd that is not a directory.
 *
 * Both drivers follow Node's fs (the contract's reference) where it
 * speaks: paths are normalised lexically first (relative ones against the
 * driver's default cwd); "" names nothing (exists is false, the others
 * ENOENT, rm with force succeeds); mkdir -p through a dangling symlink is
 * ENOENT and through a file ENOTDIR; rm of a directory without recursive is
 * EISDIR (empty or not, force or not), force ignores ENOENT only, and the
 * root cannot be removed (EBUSY). */

/* The isolate driver: a vsh sandbox behind the vtable (takes ownership:
 * d->destroy closes it). NULL for a NULL sb, or when memory runs out (sb is
 * then closed). */
VSH_API vsh_driver *vsh_driver_isolate(vsh_sandbox *sb);
/* The local driver: a host directory and host processes, run by bash from
 * the host's PATH (/bin/sh when there is none). Output beyond 64 MiB ends
 * the process group; the exec then resolves with status 126 and the
 * isolate's "output bytes limit exceeded" note. The host environment
 * passed on is PATH, HOME, USER, LANG, TZ and a few more, then extra_env
 * ("K=V", NULL-terminated; may be NULL). NULL when root_dir is NULL, empty
 * or not an openable directory, when no shell is found, or when memory
 * runs out. */
VSH_API vsh_driver *vsh_driver_local(const char *root_dir,
                                     const char *const *extra_env);

/* Helpers above the driver. */
/* Lexically normalise p against cwd into an absolute path (vsh_free with a
 * NULL sandbox): "." and ".." are resolved without looking at any
 * filesystem. NULL for a NULL p or when memory runs out. */
VSH_API char *vsh_resolve_path(const char *cwd, const char *p);
/* write_file; on ENOENT create the parent with mkdir -p and retry once.
 * 0, or -1 with *err filled by the failing operation. */
VSH_API int vsh_drv_write_with_parents(vsh_driver *d, const char *path,
                                       const void *data, size_t len,
                                       vsh_drv_err *err);

#ifdef __cplusplus
}
#endif
#endif /* VSH_H */
