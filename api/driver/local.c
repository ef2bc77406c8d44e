/*
 * local.c - the local driver: the same operations against a host directory,
 * and commands run by the host's bash (its /bin/sh when it has none).
 *
 * Containment. Every virtual path is normalised lexically (so `..` cannot
 * climb out) and then opened relative to a descriptor of the root with
 * openat2(RESOLVE_IN_ROOT): symlinks inside the tree are followed as if the
 * root were "/", the way the isolate VFS resolves them, and nothing outside
 * the root is reachable through them. Kernels without openat2 (before 5.6,
 * or a seccomp filter that hides it) get a stricter walk that opens each
 * component with O_NOFOLLOW and refuses symlinks (ELOOP). Removal never
 * follows links: rm works on the entry itself through its parent's
 * descriptor. Commands run on the host with the root as their cwd; they are
 * not contained (this driver exists for parity, not isolation).
 *
 * Processes. Each command gets its own process group so that a timeout, an
 * abort or an output overflow can end the whole tree: SIGTERM to the group,
 * SIGKILL 2 s later. Output is read from two pipes in a poll loop (binary
 * safe, no deadlock when a command fills one pipe while we wait on the
 * other); a pidfd tells us when the shell exits.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "api/driver/drv.h"

#define DRV_OUTPUT_CAP ((size_t)64 << 20) /* stdout + stderr, per command */
#define DRV_KILL_GRACE_MS 2000            /* SIGTERM, then SIGKILL */
#define DRV_CANCEL_POLL_MS 10             /* how often a cancel is noticed */
#define DRV_DRAIN_MS 250 /* output wait after the shell exited */

typedef struct drv_local {
  vsh_driver base;
  int rootfd; /* O_PATH descriptor of the root */
  char **env; /* base environment, "K=V" each malloc'd, NULL-terminated */
  size_t nenv;
  int no_openat2;  /* set once openat2 turned out to be unavailable */
  char *shell;     /* absolute path of the shell commands run in */
  char *shell_err; /* what the child writes when it cannot exec it */
} drv_local;

static drv_local *L(vsh_driver *d) {
  return (drv_local *)d;
}

/* ------------------------------------------------------------ path access */

/* The path relative to the root ("." for the root itself), normalised. */
static char *rel_path(const char *vpath) {
  char *abs = vsh_resolve_path("/", vpath ? vpath : "");
  if (!abs)
    return NULL;
  if (abs[1] == 0) {
    abs[0] = '.';
    return abs;
  }
  memmove(abs, abs + 1, strlen(abs)); /* drop the leading '/' */
  return abs;
}

/* Fallback without openat2: open component by component, never following a
 * symlink. Returns a descriptor or -errno. */
static int walk_nofollow(int rootfd, const char *rel, int flags, mode_t mode) {
  char *copy = strdup(rel);
  if (!copy)
    return -ENOMEM;
  int cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
  if (cur < 0) {
    free(copy);
    return -errno;
  }
  char *save = NULL;
  char *comp = strtok_r(copy, "/", &save);
  while (comp) {
    char *next = strtok_r(NULL, "/", &save);
    int fd;
    if (next)
      fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    else
      fd = openat(cur, comp, flags | O_NOFOLLOW, mode);
    int e = errno;
    close(cur);
    if (fd < 0) {
      free(copy);
      /* O_PATH|O_NOFOLLOW on a final symlink succeeds (it names the link),
       * which is what lstat-style callers want; elsewhere a link is ELOOP
       * or ENOTDIR from the kernel. */
      return -e;
    }
    cur = fd;
    comp = next;
  }
  free(copy);
  if (strcmp(rel, ".") == 0) { /* the root itself */
    close(cur);
    cur = openat(rootfd, ".", flags & ~(O_CREAT | O_TRUNC | O_NOFOLLOW));
    if (cur < 0)
      return -errno;
  }
  return cur;
}

/* Open vpath inside the root. follow: whether a final symlink is followed
 * (within the root). Returns a descriptor or -errno. */
static int open_in_root(drv_local *l, const char *vpath, int flags, mode_t mode,
                        int follow) {
  char *rel = rel_path(vpath);
  if (!rel)
    return -ENOMEM;
  int fd = -ENOSYS;
  if (!l->no_openat2) {
    struct open_how how = {0};
    how.flags = (uint64_t)(flags | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
    long r;
    do
      r = syscall(SYS_openat2, l->rootfd, rel, &how, sizeof how);
    while (r < 0 && (errno == EINTR || errno == EAGAIN));
    if (r >= 0)
      fd = (int)r;
    else if (errno == ENOSYS)
      l->no_openat2 = 1; /* old kernel, or hidden by a seccomp filter */
    else
      fd = -errno;
  }
  if (fd == -ENOSYS)
    fd = walk_nofollow(l->rootfd, rel, flags | O_CLOEXEC, mode);
  free(rel);
  return fd;
}

/* Open the parent directory of vpath (following symlinks within the root)
 * and give the last component in *name (malloc'd). The root has no parent:
 * -EBUSY. */
static int open_parent(drv_local *l, const char *vpath, char **name) {
  *name = NULL;
  char *abs = vsh_resolve_path("/", vpath ? vpath : "");
  if (!abs)
    return -ENOMEM;
  if (abs[1] == 0) {
    free(abs);
    return -EBUSY;
  }
  char *slash = strrchr(abs, '/');
  *name = strdup(slash + 1);
  if (!*name) {
    free(abs);
    return -ENOMEM;
  }
  slash[slash == abs ? 1 : 0] = 0;
  int fd = open_in_root(l, abs, O_PATH | O_DIRECTORY, 0, 1);
  free(abs);
  if (fd < 0) {
    free(*name);
    *name = NULL;
  }
  return fd;
}

/* ----------------------------------------------------------------- files */

static int loc_read_file(vsh_driver *d, const char *path, char **data,
                         size_t *len, vsh_drv_err *err) {
  *data = NULL;
  *len = 0;
  if (!path || !*path)
    return drv_fail_empty(err, "open");
  /* O_NONBLOCK so that a FIFO cannot hang the open; regular files ignore
   * it. */
  int fd = open_in_root(L(d), path, O_RDONLY | O_NONBLOCK, 0, 1);
  if (fd < 0)
    return drv_fail_errno(err, -fd, "open", path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return drv_fail_errno(err, e, "fstat", path);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return drv_fail_errno(err, EISDIR, "read", path);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return drv_fail(err, VSH_DRV_ERRNO, EINVAL,
                    "EINVAL: not a regular file, read '%s'", path);
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = malloc(cap + 1);
  if (!buf) {
    close(fd);
    return drv_fail_errno(err, ENOMEM, "read", path);
  }
  for (;;) {
    if (n == cap) { /* the file grew while we read it */
      char *nb = realloc(buf, cap * 2 + 1);
      if (!nb) {
        free(buf);
        close(fd);
        return drv_fail_errno(err, ENOMEM, "read", path);
      }
      buf = nb;
      cap *= 2;
    }
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      int e = errno;
      free(buf);
      close(fd);
      return drv_fail_errno(err, e, "read", path);
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  *data = buf;
  *len = n;
  return 0;
}

static int loc_write_file(vsh_driver *d, const char *path, const void *data,
                          size_t len, vsh_drv_err *err) {
  if (!path || !*path)
    return drv_fail_empty(err, "open");
  int fd = open_in_root(L(d), path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK,
                        0644, 1);
  if (fd < 0)
    return drv_fail_errno(err, -fd, "open", path);
  const char *p = data;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0) {
      int e = errno;
      close(fd);
      return drv_fail_errno(err, e, "write", path);
    }
    p += w;
    len -= (size_t)w;
  }
  if (close(fd) != 0)
    return drv_fail_errno(err, errno, "close", path);
  return 0;
}

static int loc_stat(vsh_driver *d, const char *path, vsh_drv_stat *out,
                    vsh_drv_err *err) {
  memset(out, 0, sizeof *out);
  if (!path || !*path)
    return drv_fail_empty(err, "stat");
  /* O_PATH|O_NOFOLLOW names the entry itself (fstat of it is lstat). */
  int fd = open_in_root(L(d), path, O_PATH, 0, 0);
  if (fd < 0)
    return drv_fail_errno(err, -fd, "stat", path);
  struct stat st;
  int rc = fstat(fd, &st);
  int e = errno;
  close(fd);
  if (rc != 0)
    return drv_fail_errno(err, e, "stat", path);
  out->is_symlink = S_ISLNK(st.st_mode);
  if (out->is_symlink) {
    fd = open_in_root(L(d), path, O_PATH, 0, 1);
    if (fd < 0)
      return drv_fail_errno(err, -fd, "stat", path); /* dangling */
    rc = fstat(fd, &st);
    e = errno;
    close(fd);
    if (rc != 0)
      return drv_fail_errno(err, e, "stat", path);
  }
  out->is_file = S_ISREG(st.st_mode);
  out->is_directory = S_ISDIR(st.st_mode);
  /* For a directory too: the host file system's own figure (4096 per block
   * on ext4, 40 plus the entries on tmpfs), what `stat -c %s` prints. */
  out->size = (uint64_t)st.st_size;
  out->mtime_ms =
      (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
  out->fields = VSH_DRV_HAS_SYMLINK | VSH_DRV_HAS_SIZE | VSH_DRV_HAS_MTIME;
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int loc_readdir(vsh_driver *d, const char *path, char ***names,
                       size_t *n, vsh_drv_err *err) {
  *names = NULL;
  *n = 0;
  if (!path || !*path)
    return drv_fail_empty(err, "scandir");
  int fd = open_in_root(L(d), path, O_RDONLY | O_DIRECTORY, 0, 1);
  if (fd < 0)
    return drv_fail_errno(err, -fd, "scandir", path);
  DIR *dir = fdopendir(fd);
  if (!dir) {
    int e = errno;
    close(fd);
    return drv_fail_errno(err, e, "scandir", path);
  }
  char **v = NULL;
  size_t cnt = 0, cap = 0;
  struct dirent *de;
  errno = 0;
  while ((de = readdir(dir))) {
    const char *nm = de->d_name;
    if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
      continue;
    if (cnt == cap) {
      size_t nc = cap ? cap * 2 : 16;
      char **nv = realloc(v, nc * sizeof *nv);
      if (!nv)
        goto nomem;
      v = nv;
      cap = nc;
    }
    if (!(v[cnt] = strdup(nm)))
      goto nomem;
    cnt++;
  }
  closedir(dir);
  /* Byte order, so both drivers list a directory the same way. */
  if (cnt)
    qsort(v, cnt, sizeof *v, cmp_names);
  *names = v;
  *n = cnt;
  return 0;
nomem:
  for (size_t i = 0; i < cnt; i++)
    free(v[i]);
  free(v);
  closedir(dir);
  return drv_fail_errno(err, ENOMEM, "scandir", path);
}

/* Follows symlinks; "" names nothing (Node's existsSync("") is false, not
 * the root). */
static int loc_exists(vsh_driver *d, const char *path) {
  if (!path || !*path)
    return 0;
  int fd = open_in_root(L(d), path, O_PATH, 0, 1);
  if (fd < 0)
    return 0;
  close(fd);
  return 1;
}

/* 1 when vpath is a directory, 0 when it is something else, -errno when it
 * cannot be stat'ed (symlinks followed within the root). */
static int kind_of(void *ctx, const char *vpath) {
  int fd = open_in_root(ctx, vpath, O_PATH, 0, 1);
  if (fd < 0)
    return fd;
  struct stat st;
  int rc = fstat(fd, &st) == 0 ? S_ISDIR(st.st_mode) : -errno;
  close(fd);
  return rc;
}

/* Whether the entry itself exists (a final symlink not followed). */
static int lexists(void *ctx, const char *vpath) {
  int fd = open_in_root(ctx, vpath, O_PATH, 0, 0);
  if (fd < 0)
    return 0;
  close(fd);
  return 1;
}

/* One mkdir without parents: 0 or -errno. */
static int mkdir_one(void *ctx, const char *vpath) {
  char *name;
  int pfd = open_parent(ctx, vpath, &name);
  if (pfd < 0)
    return pfd == -EBUSY ? -EEXIST : pfd; /* "/" exists */
  int rc = mkdirat(pfd, name, 0777) == 0 ? 0 : -errno;
  close(pfd);
  free(name);
  return rc;
}

static int loc_mkdir(vsh_driver *d, const char *path, int recursive,
                     vsh_drv_err *err) {
  drv_local *l = L(d);
  if (!path || !*path)
    return drv_fail_empty(err, "mkdir");
  if (!recursive) {
    int rc = mkdir_one(l, path);
    return rc ? drv_fail_errno(err, -rc, "mkdir", path) : 0;
  }
  char *abs = vsh_resolve_path("/", path);
  if (!abs)
    return drv_fail_errno(err, ENOMEM, "mkdir", path);
  static const drv_mkdir_ops ops = {kind_of, lexists, mkdir_one};
  int rc = drv_mkdir_p(abs, &ops, l);
  free(abs);
  return rc ? drv_fail_errno(err, rc, "mkdir", path) : 0;
}

/* Remove the directory name under dfd and everything in it, never following
 * a symlink (a link is unlinked, not entered). 0 or -errno. */
static int rm_tree(int dfd, const char *name) {
  int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  DIR *dir = fdopendir(fd);
  if (!dir) {
    int e = errno;
    close(fd);
    return -e;
  }
  int rc = 0;
  struct dirent *de;
  while (rc == 0 && (de = readdir(dir))) {
    const char *nm = de->d_name;
    if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
      continue;
    int isdir = de->d_type == DT_DIR;
    if (de->d_type == DT_UNKNOWN) {
      struct stat st;
      isdir =
          fstatat(fd, nm, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
    }
    if (isdir)
      rc = rm_tree(fd, nm);
    else if (unlinkat(fd, nm, 0) != 0)
      rc = -errno;
  }
  closedir(dir);
  if (rc == 0 && unlinkat(dfd, name, AT_REMOVEDIR) != 0)
    rc = -errno;
  return rc;
}

/* Node's fs.rm: force ignores ENOENT only (a path under a file stays
 * ENOTDIR, as with GNU rm -f). */
static int loc_rm(vsh_driver *d, const char *path, int recursive, int force,
                  vsh_drv_err *err) {
  if (!path || !*path)
    return force ? 0 : drv_fail_empty(err, "rm");
  char *name;
  int pfd = open_parent(L(d), path, &name);
  if (pfd == -EBUSY) /* the root, which is a directory */
    return recursive ? drv_fail_rm_root(err, path)
                     : drv_fail_rm_isdir(err, path);
  if (pfd < 0) {
    if (force && pfd == -ENOENT)
      return 0;
    return drv_fail_errno(err, -pfd, "rm", path);
  }
  struct stat st;
  int rc = 0;
  if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    rc = -errno;
    if (force && rc == -ENOENT)
      rc = 0;
  } else if (S_ISDIR(st.st_mode)) {
    if (!recursive) {
      close(pfd);
      free(name);
      return drv_fail_rm_isdir(err, path);
    }
    rc = rm_tree(pfd, name);
  } else if (unlinkat(pfd, name, 0) != 0) {
    rc = -errno;
  }
  close(pfd);
  free(name);
  return rc ? drv_fail_errno(err, -rc, "rm", path) : 0;
}

static void loc_free_buf(vsh_driver *d, void *p) {
  free(p);
}

/* ------------------------------------------------------------------ exec */

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Move a descriptor above 2, so that the child's dup2 onto 0/1/2 cannot
 * clobber another pipe end when the host runs with a closed stdio fd. */
static int above_stdio(int fd) {
  if (fd < 0 || fd > 2)
    return fd;
  int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return nfd;
}

/* The environment of one command: the base plus the call's entries, a value
 * of "unset" removing the key. Pointers into existing strings. */
static const char **build_env(drv_local *l, const char *const *add) {
  size_t nadd = 0;
  if (add)
    while (add[nadd])
      nadd++;
  const char **v = calloc(l->nenv + nadd + 1, sizeof *v);
  if (!v)
    return NULL;
  size_t n = 0;
  for (size_t i = 0; i < l->nenv; i++)
    v[n++] = l->env[i];
  for (size_t i = 0; i < nadd; i++) {
    size_t kl = drv_env_keylen(add[i]);
    if (!strchr(add[i], '='))
      continue;
    for (size_t j = 0; j < n; j++)
      if (drv_env_keylen(v[j]) == kl && memcmp(v[j], add[i], kl) == 0) {
        v[j] = v[--n];
        break;
      }
    if (!drv_env_is_unset(add[i]))
      v[n++] = add[i];
  }
  v[n] = NULL;
  return v;
}

typedef struct outbuf {
  char *p;
  size_t len, cap;
} outbuf;

static int outbuf_add(outbuf *b, const char *p, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t nc = b->cap ? b->cap : 4096;
    while (nc < b->len + n + 1)
      nc *= 2;
    char *np = realloc(b->p, nc);
    if (!np)
      return -1;
    b->p = np;
    b->cap = nc;
  }
  memcpy(b->p + b->len, p, n);
  b->len += n;
  return 0;
}

/* A NUL-terminated heap copy for the result (never NULL on success). */
static char *outbuf_take(outbuf *b, size_t *len) {
  if (!b->p && outbuf_add(b, "", 0) != 0)
    return NULL;
  b->p[b->len] = 0;
  *len = b->len;
  char *p = b->p;
  b->p = NULL;
  b->len = b->cap = 0;
  return p;
}

enum { END_NONE, END_TIMEOUT, END_ABORT, END_OVERFLOW, END_NOMEM };

static int loc_exec(vsh_driver *d, const char *command,
                    const vsh_drv_exec_opts *o, vsh_result *res,
                    vsh_drv_err *err) {
  drv_local *l = L(d);
  vsh_drv_exec_opts none = {0};
  if (drv_exec_begin(command, &o, &none, res, err))
    return -1;

  /* A missing cwd (or "", as Node's spawn has it) fails like chdir, before
   * anything runs; never a run somewhere else. */
  if (o->cwd && !*o->cwd)
    return drv_fail_empty(err, "chdir");
  int cwdfd =
      open_in_root(l, o->cwd ? o->cwd : "/", O_PATH | O_DIRECTORY, 0, 1);
  if (cwdfd < 0)
    return drv_fail_errno(err, -cwdfd, "chdir", o->cwd ? o->cwd : "/");
  cwdfd = above_stdio(cwdfd);
  const char **envp = build_env(l, o->env);
  int outp[2] = {-1, -1}, errp[2] = {-1, -1};
  int devnull = above_stdio(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!envp || cwdfd < 0 || devnull < 0 || pipe2(outp, O_CLOEXEC) != 0 ||
      pipe2(errp, O_CLOEXEC) != 0) {
    int e = envp ? errno : ENOMEM;
    free(envp);
    for (int i = 0; i < 2; i++) {
      if (outp[i] >= 0)
        close(outp[i]);
      if (errp[i] >= 0)
        close(errp[i]);
    }
    if (devnull >= 0)
      close(devnull);
    if (cwdfd >= 0)
      close(cwdfd);
    return drv_fail(err, VSH_DRV_ERRNO, e ? e : EIO,
                    "exec failed to set up the command: %s", strerror(e));
  }
  for (int i = 0; i < 2; i++) {
    outp[i] = above_stdio(outp[i]);
    errp[i] = above_stdio(errp[i]);
  }
  char *const argv[] = {l->shell, "-c", (char *)command, NULL};

  pid_t pid = fork();
  if (pid == 0) {
    /* Child: async-signal-safe calls only (the host may be threaded). */
    setpgid(0, 0);
    dup2(devnull, 0);
    dup2(outp[1], 1);
    dup2(errp[1], 2);
    if (fchdir(cwdfd) != 0)
      _exit(126);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    /* Ignored signals stay ignored across execve: restore the defaults a
     * shell expects, and unblock everything the host may have blocked. */
    int sigs[] = {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
      sigaction(sigs[i], &sa, NULL);
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    execve(l->shell, argv, (char *const *)envp);
    ssize_t ignored = write(2, l->shell_err, strlen(l->shell_err));
    (void)ignored;
    _exit(127);
  }
  int fork_errno = errno;
  free(envp);
  close(devnull);
  close(cwdfd);
  close(outp[1]);
  close(errp[1]);
  if (pid < 0) {
    close(outp[0]);
    close(errp[0]);
    return drv_fail(err, VSH_DRV_ERRNO, fork_errno,
                    "exec failed: cannot start %s: %s", l->shell,
                    strerror(fork_errno));
  }
  /* Also from the parent, so the group exists before we may signal it. */
  setpgid(pid, pid);
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  pidfd = above_stdio(pidfd);

  outbuf bo = {0}, be = {0};
  int fds[2] = {outp[0], errp[0]};
  int wstatus = 0, done = 0, ending = END_NONE, killed = 0;
  int64_t start = now_ms();
  int64_t deadline = o->timeout_ms > 0 ? start + o->timeout_ms : 0;
  int64_t kill_at = 0, exited_at = 0;
  size_t total = 0;
  char chunk[65536];

  for (;;) {
    int open_fds = (fds[0] >= 0) + (fds[1] >= 0);
    int64_t now = now_ms();
    if (!done) {
      pid_t w = waitpid(pid, &wstatus, WNOHANG);
      if (w == pid || (w < 0 && errno == ECHILD)) {
        done = 1;
        exited_at = now;
        if (w < 0)
          wstatus = 0; /* SIGCHLD ignored by the host: status is lost */
      }
    }
    if (ending == END_NONE && o->signal && vsh_cancel_is_set(o->signal))
      ending = END_ABORT;
    if (ending == END_NONE && deadline && now >= deadline)
      ending = END_TIMEOUT;
    if (ending != END_NONE && !kill_at) {
      kill(-pid, SIGTERM);
      kill_at = now + DRV_KILL_GRACE_MS;
    }
    if (kill_at && !killed && now >= kill_at) {
      kill(-pid, SIGKILL);
      killed = 1;
    }
    if (open_fds == 0 && done)
      break;
    /* The shell is gone but something it started still holds a pipe: do
     * not wait for background jobs, only for output already on its way. */
    if (done && now - exited_at >= DRV_DRAIN_MS)
      break;

    /* Sleep until the earliest thing we must act on. */
    int64_t wake = INT64_MAX;
    if (done)
      wake = exited_at + DRV_DRAIN_MS;
    if (ending == END_NONE && deadline && deadline < wake)
      wake = deadline;
    if (kill_at && !killed && kill_at < wake)
      wake = kill_at;
    /* A cancel token and a child without pidfd can only be polled. */
    if (((o->signal && ending == END_NONE) || (!done && pidfd < 0) ||
         (!done && killed)) &&
        now + DRV_CANCEL_POLL_MS < wake)
      wake = now + DRV_CANCEL_POLL_MS;
    int timeout = wake == INT64_MAX ? -1 : wake <= now ? 0 : (int)(wake - now);

    struct pollfd pfd[3];
    int np = 0, idx[2] = {-1, -1};
    for (int i = 0; i < 2; i++)
      if (fds[i] >= 0) {
        idx[i] = np;
        pfd[np].fd = fds[i];
        pfd[np].events = POLLIN;
        pfd[np].revents = 0;
        np++;
      }
    if (!done && pidfd >= 0) {
      pfd[np].fd = pidfd;
      pfd[np].events = POLLIN;
      pfd[np].revents = 0;
      np++;
    }
    int pr = poll(pfd, (nfds_t)np, timeout);
    if (pr < 0 && errno != EINTR)
      break; /* cannot happen with valid fds; stop rather than spin */
    if (pr <= 0)
      continue;
    for (int i = 0; i < 2; i++) {
      if (idx[i] < 0 || !(pfd[idx[i]].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t r = read(fds[i], chunk, sizeof chunk);
      if (r < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (r <= 0) {
        close(fds[i]);
        fds[i] = -1;
        continue;
      }
      if (ending != END_NONE)
        continue; /* draining a command we are ending: discard */
      /* Keep output up to the cap exactly, as the isolate does. */
      size_t keep = (size_t)r;
      if (keep > DRV_OUTPUT_CAP - total) {
        keep = DRV_OUTPUT_CAP - total;
        ending = END_OVERFLOW;
      }
      total += keep;
      if (outbuf_add(i == 0 ? &bo : &be, chunk, keep) != 0)
        ending = END_NOMEM;
    }
  }
  if (ending != END_NONE && !killed && (fds[0] >= 0 || fds[1] >= 0))
    kill(-pid, SIGKILL); /* members of the group still hold the pipes */
  if (!done) {
    /* Only reached when we stopped early: make sure it dies, then reap. */
    kill(-pid, SIGKILL);
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
      ;
  }
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0)
      close(fds[i]);
  if (pidfd >= 0)
    close(pidfd);

  if (ending == END_ABORT || ending == END_NOMEM) {
    free(bo.p);
    free(be.p);
    if (ending == END_ABORT)
      return drv_fail_abort(err);
    return drv_fail(err, VSH_DRV_ERRNO, ENOMEM,
                    "exec failed: out of memory collecting the output of "
                    "the command; it was killed");
  }
  res->out = outbuf_take(&bo, &res->out_len);
  res->err = outbuf_take(&be, &res->err_len);
  if (!res->out || !res->err) {
    vsh_result_free(res);
    memset(res, 0, sizeof *res);
    return drv_fail(err, VSH_DRV_ERRNO, ENOMEM, "exec failed: out of memory");
  }
  if (ending == END_TIMEOUT) {
    res->status = 124;
    res->flags |= VSH_RESULT_TIMED_OUT;
    drv_result_timeout_note(res, o->timeout_ms);
  } else if (ending == END_OVERFLOW) {
    /* A command that ran: a result (the contract rejects only for abort
     * and transport), with the status and note of the isolate's limit. */
    res->status = 126;
    res->flags |= VSH_RESULT_LIMIT | VSH_RESULT_OUTPUT_TRUNCATED;
    char note[96];
    snprintf(note, sizeof note, "vsh: output bytes limit exceeded (%zu)",
             DRV_OUTPUT_CAP);
    drv_result_append_err(res, note);
  } else if (WIFEXITED(wstatus)) {
    res->status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    res->status = 128 + WTERMSIG(wstatus);
  }
  return 0;
}

/* ------------------------------------------------------------- lifecycle */

static void free_env(char **env, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(env[i]);
  free(env);
}

static void loc_destroy(vsh_driver *d) {
  if (!d)
    return;
  drv_local *l = L(d);
  free_env(l->env, l->nenv);
  free(l->shell);
  free(l->shell_err);
  if (l->rootfd >= 0)
    close(l->rootfd);
  free(l);
}

/* The shell: bash from the host's PATH, as Flue's local sandbox prefers it
 * (models write bashisms such as [[ ]] and pipefail, which dash refuses),
 * else /bin/sh. Only absolute PATH entries count. malloc'd, or NULL. */
static char *find_shell(void) {
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t n = strcspn(path, ":");
    if (n > 0 && path[0] == '/') {
      char *cand = malloc(n + sizeof "/bash");
      if (!cand)
        return NULL;
      memcpy(cand, path, n);
      memcpy(cand + n, "/bash", sizeof "/bash");
      struct stat st;
      if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
          access(cand, X_OK) == 0)
        return cand;
      free(cand);
    }
    path += n;
    if (*path == ':')
      path++;
  }
  return strdup("/bin/sh");
}

/* Set (or with value "unset", remove) one "K=V" in the base environment. */
static int env_apply(drv_local *l, size_t *cap, const char *kv) {
  if (!strchr(kv, '='))
    return 0; /* not an assignment: nothing to do */
  size_t kl = drv_env_keylen(kv);
  for (size_t j = 0; j < l->nenv; j++)
    if (drv_env_keylen(l->env[j]) == kl && memcmp(l->env[j], kv, kl) == 0) {
      free(l->env[j]);
      l->env[j] = l->env[--l->nenv];
      l->env[l->nenv] = NULL;
      break;
    }
  if (drv_env_is_unset(kv))
    return 0;
  if (l->nenv + 2 > *cap) {
    size_t nc = *cap ? *cap * 2 : 32;
    char **nv = realloc(l->env, nc * sizeof *nv);
    if (!nv)
      return -1;
    l->env = nv;
    *cap = nc;
  }
  if (!(l->env[l->nenv] = strdup(kv)))
    return -1;
  l->env[++l->nenv] = NULL;
  return 0;
}

vsh_driver *vsh_driver_local(const char *root_dir,
                             const char *const *extra_env) {
  static const char *const allowed[] = {
      "PATH",   "HOME",     "USER", "LOGNAME", "HOSTNAME", "SHELL", "LANG",
      "LC_ALL", "LC_CTYPE", "TZ",   "TERM",    "TMPDIR",   "TMP",   "TEMP"};
  if (!root_dir || !*root_dir)
    return NULL;
  drv_local *l = calloc(1, sizeof *l);
  if (!l)
    return NULL;
  l->rootfd = open(root_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  size_t cap = 0;
  if (l->rootfd < 0)
    goto fail;
  l->rootfd = above_stdio(l->rootfd);
  if (l->rootfd < 0)
    goto fail;
  for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++) {
    const char *v = getenv(allowed[i]);
    if (!v)
      continue;
    size_t n = strlen(allowed[i]) + strlen(v) + 2;
    char *kv = malloc(n);
    if (!kv)
      goto fail;
    snprintf(kv, n, "%s=%s", allowed[i], v);
    int rc = env_apply(l, &cap, kv);
    free(kv);
    if (rc != 0)
      goto fail;
  }
  if (extra_env)
    for (const char *const *e = extra_env; *e; e++)
      if (env_apply(l, &cap, *e) != 0)
        goto fail;
  if (!l->env && !(l->env = calloc(1, sizeof *l->env)))
    goto fail;
  if (!(l->shell = find_shell()))
    goto fail;
  size_t en = strlen(l->shell) + sizeof "vsh: cannot execute \n";
  if (!(l->shell_err = malloc(en)))
    goto fail;
  snprintf(l->shell_err, en, "vsh: cannot execute %s\n", l->shell);

  vsh_driver *d = &l->base;
  d->self = l;
  d->name = "local";
  d->exec = loc_exec;
  d->read_file = loc_read_file;
  d->write_file = loc_write_file;
  d->stat = loc_stat;
  d->readdir = loc_readdir;
  d->exists = loc_exists;
  d->mkdir = loc_mkdir;
  d->rm = loc_rm;
  d->free_buf = loc_free_buf;
  d->destroy = loc_destroy;
  return d;
fail:
  loc_destroy(&l->base);
  return NULL;
}
