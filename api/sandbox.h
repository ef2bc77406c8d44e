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
  /* One thread at a time works on the sandbox: a fair (first come, first
   * served) ticket lock, so that a running exec, which lets go between two
   * scheduling steps when another thread waits (sched_turns), cannot take
   * it straight back. `lock` guards only the tickets; the sandbox itself
   * is held from api_lock to api_unlock. It is re-entered by the thread
   * that holds it (host commands call file APIs from inside an exec),
   * counted in depth: the exec runs in fibers, which ThreadSanitizer
   * tracks as threads of their own, so no mutex stays locked across them. */
  pthread_mutex_t lock;
  pthread_cond_t turn;
  uint64_t tk_next, tk_serving;
  _Atomic int waiting;         /* threads queued for the sandbox */
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
  int base_tried;       /* base built once (NULL after: cannot be shared) */
  /* The same for another cwd: built when two execs in a row ask for it
   * (cwd_seen: the other cwd of the last exec that had none). */
  struct sh_base *base_at;
  char *cwd_seen;
  int base_at_stale; /* base_at changed while other execs still used it */
  struct net_policy *net;
  const vsh_net_policy *net_src; /* for fork */
  sh_host_cmd *hosts;
  size_t nhosts, caphosts;
  uint64_t rng;     /* fallback random state */
  int nexec;        /* execs running (on any thread) */
  int sc_busy;      /* sc is driven by one of them; others make their own */
  int base_stale;   /* base changed while other execs still used it */
  char errmsg[512]; /* the last error of any thread (api_fail) */
  int errcode;
  uint64_t serial; /* unique per sandbox opened in this process */
};

/* Record an error on the handle; returns st. */
vsh_status api_fail(vsh_sandbox *sb, vsh_status st, int code, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));
vsh_status api_fs_fail(vsh_sandbox *sb, int rc, const char *what,
                       const char *path);
void api_lock(vsh_sandbox *sb);
void api_unlock(vsh_sandbox *sb);
/* Let the other threads in from inside a call that holds the lock (a
 * running exec, between two scheduling steps): returns the depth to hand
 * back to api_relock, which queues behind the threads already waiting. */
unsigned api_letgo(vsh_sandbox *sb);
void api_relock(vsh_sandbox *sb, unsigned depth);
char *api_strdup_out(const char *s, size_t n); /* malloc'd copy */
/* VSH_OK, or VSH_FS (res cleared) when opts->cwd is not a directory. */
vsh_status api_exec_cwd_check(vsh_sandbox *sb, const vsh_exec_opts *o,
                              vsh_result *res);
/* A new vfs over m holding the default layout (template.c): shared
 * copy-on-write with every sandbox of the same shape (network commands or
 * not, the clock in vc). NULL with *err (-errno) on failure. */
vfs *api_layout_vfs(mem *m, const vfs_config *vc, int net, int *err);
/* The hooks every sh_run of a sandbox gets (host_ud: the sandbox). */
extern const sh_host api_host;
/* Runs a host command for the shell (cmd.c). */
int api_call_cmd(sh_exec *ex, const sh_host_cmd *h, int argc, char **argv);

#endif
