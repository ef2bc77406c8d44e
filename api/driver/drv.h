/*
 * drv.h - internals shared by the driver implementations (prefix drv_).
 *
 * Error messages follow Node's fs wording ("ENOENT: no such file or
 * directory, open '/x'") because driver errors reach a model verbatim and
 * models have seen that wording countless times: it is factual, names the
 * operation and the path, and needs no context.
 */
#ifndef VSH_API_DRIVER_DRV_H
#define VSH_API_DRIVER_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "vsh.h"

/* Fill *err (which may be NULL) and return -1, so callers can write
 * `return drv_fail(...)`. */
int drv_fail(vsh_drv_err *err, vsh_drv_error kind, int code, const char *fmt,
             ...) __attribute__((format(printf, 4, 5)));
/* Node-style errno error naming the syscall and the path; returns -1. */
int drv_fail_errno(vsh_drv_err *err, int code, const char *syscall,
                   const char *path);
/* rm of a directory without recursive; returns -1. */
int drv_fail_rm_isdir(vsh_drv_err *err, const char *path);
/* rm of the root: it cannot go (the kernel's rmdir("/") answer, EBUSY);
 * returns -1. */
int drv_fail_rm_root(vsh_drv_err *err, const char *path);
/* An empty path names nothing (Node: ENOENT, "<syscall> ''"); returns -1. */
int drv_fail_empty(vsh_drv_err *err, const char *syscall);
/* The caller cancelled; returns -1. */
int drv_fail_abort(vsh_drv_err *err);
void drv_err_clear(vsh_drv_err *err);

const char *drv_errno_name(int code); /* "ENOENT", or "E<n>" style */
const char *drv_errno_desc(int code); /* libuv's lower-case description */

/* Key of a "K=V" entry: length of K (the whole string without '='). */
size_t drv_env_keylen(const char *kv);
/* Non-zero when "K=V" has the value "unset" (the contract's removal mark). */
int drv_env_is_unset(const char *kv);
/* Non-zero when s[0..n) is a shell identifier. */
int drv_is_ident(const char *s, size_t n);

/* What every exec checks first: clears *res and *err, points *o at none
 * when NULL, fails on a missing command and, as the contract requires, on
 * a signal already cancelled before anything runs. 0, or -1 with *err. */
int drv_exec_begin(const char *command, const vsh_drv_exec_opts **o,
                   const vsh_drv_exec_opts *none, vsh_result *res,
                   vsh_drv_err *err);

/* What mkdir -p needs from a driver. Paths are absolute and normalised. */
typedef struct drv_mkdir_ops {
  /* 1: a directory, 0: something else, -errno: cannot be stat'ed
   * (symlinks followed). */
  int (*kind)(void *ctx, const char *path);
  /* Non-zero when the entry itself exists (a final symlink not followed). */
  int (*lexists)(void *ctx, const char *path);
  /* Create one directory: 0 or -errno. */
  int (*mkdir_one)(void *ctx, const char *path);
} drv_mkdir_ops;

/* mkdir -p of the absolute, normalised path abs with Node's rules: an
 * existing directory (or a link to one) is fine at every level; a
 * non-directory is ENOTDIR among the parents and EEXIST at the end; a
 * dangling link is ENOENT (Node stats what mkdir found in the way and
 * reports that stat's error); any other stat error (ELOOP, EACCES) is
 * returned as is. abs is modified during the call and restored. 0 or an
 * errno value. */
int drv_mkdir_p(char *abs, const drv_mkdir_ops *ops, void *ctx);

/* Append the note a timeout leaves on stderr, worded as the interpreter's
 * own ("vsh: timeout: deadline of N ms exceeded"); 0 or -1. */
int drv_result_timeout_note(vsh_result *res, int64_t ms);

/* Append a note line to a result's stderr (malloc'd buffers); 0 or -1. */
int drv_result_append_err(vsh_result *res, const char *note);

#endif
