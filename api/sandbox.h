/*
 * sandbox.h - the vsh_sandbox object behind the public API: allocator,
 * filesystem, scheduler (reused by every exec), configuration kept for
 * fork, host commands, the network policy, and the last error.
 */
#ifndef VSH_SHELL_SANDBOX_H
#define VSH_SHELL_SANDBOX_H

#include <pthread.h>
#include <stdatomic.h>

#include "shell/sh.h"

struct net_policy;

struct sh_host_cmd {
  char *name;
  vsh_command_fn fn;
  void *ud;
};

/* vsh_cmd: what a host command sees (cmd.c). */
struct vsh_cmd {
  sh_exec *ex;
  stream *in, *out, *err;
  char **env;
  char *pathbuf;
};

struct vsh_cancel {
  atomic_int flag;
};

struct vsh_sandbox {
  mem *m;
  vfs *v;
  sched *sc;
  /* Calls are serialized by lock. It is re-entered by the thread that
   * holds it (host commands call file APIs from inside an exec), counted
   * in depth rather than by a recursive mutex: the exec runs in fibers,
   * which ThreadSanitizer tracks as threads of their own, and a recursive
   * relock from a fiber would read to it as a double lock. */
  pthread_mutex_t lock;
  _Atomic(const void *) owner; /* api_thread_id() of the holder, or NULL */
  unsigned depth;              /* re-entries of the holder */
  vsh_limits lim;              /* in force: the caller's, defaults filled in */
  vsh_limits lim_asked;        /* as the caller gave them (0: default) */
  vsh_clock_fn clock;
  void *clock_ud;
  vsh_random_fn random;
  void *random_ud;
  unsigned flags;
  char *cwd;
  char **env; /* base environment "K=V", NULL-terminated */
  size_t nenv;
  struct sh_base *base; /* variables shared by fresh execs (exec_run.c) */
  struct net_policy *net;
  const vsh_net_policy *net_src; /* for fork */
  sh_host_cmd *hosts;
  size_t nhosts, caphosts;
  uint64_t rng; /* fallback random state */
  int in_exec;
  char errmsg[512];
  int errcode;
};

/* Record an error on the handle; returns st. */
vsh_status api_fail(vsh_sandbox *sb, vsh_status st, int code, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));
vsh_status api_fs_fail(vsh_sandbox *sb, int rc, const char *what,
                       const char *path);
void api_lock(vsh_sandbox *sb);
void api_unlock(vsh_sandbox *sb);
char *api_strdup_out(const char *s, size_t n); /* malloc'd copy */
/* VSH_OK, or VSH_FS (res cleared) when opts->cwd is not a directory. */
vsh_status api_exec_cwd_check(vsh_sandbox *sb, const vsh_exec_opts *o,
                              vsh_result *res);
/* The hooks every sh_run of a sandbox gets (host_ud: the sandbox). */
extern const sh_host api_host;
/* Runs a host command for the shell (cmd.c). */
int api_call_cmd(sh_exec *ex, const sh_host_cmd *h, int argc, char **argv);

#endif
