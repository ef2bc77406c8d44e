/*
 * vfs.h - the in-memory copy-on-write filesystem of a sandbox.
 *
 * Conventions
 *   - Every function returning int returns 0 on success or a NEGATIVE errno
 *     value with Linux meaning (-ENOENT, -EACCES, -ENOSPC, ...). Functions
 *     returning a count (vfs_read, vfs_write, vfs_dir_next) return it as a
 *     non-negative value. -ENOMEM means the sandbox allocator refused.
 *   - Path operations take (v, cwd, path): cwd is an absolute virtual path
 *     (NULL or "" means "/") against which a relative path is resolved. A path
 *     longer than 4095 bytes or with a component longer than 255 bytes fails
 *     -ENAMETOOLONG. `..` at `/` stays at `/`. Symlinks resolve inside the
 *     virtual namespace, at most 40 per lookup (-ELOOP).
 *   - Permissions are checked for the vfs user (uid/gid 1000 by default; uid 0
 *     bypasses read/write checks like root). New nodes are owned by that user
 *     and get `mode & ~umask` (umask 022 by default).
 *   - Buffers handed out (names, file data, paths) come from the vfs's
 *     allocator: release them with vfs_release(v, p) (or mem_free on the mem
 *     given to vfs_new). They are NUL-terminated; file data may contain NULs.
 *   - A vfs is not thread safe by itself (the sandbox serializes calls), but
 *     different vfs instances sharing nodes (fork, snapshots) may be used from
 *     different threads: all sharing goes through atomic reference counts.
 *
 * Model: directories are persistent balanced trees of entries; inodes, tree
 * nodes and file contents are reference counted and copied only when changed
 * while shared, so snapshot, restore and fork cost O(1).
 */
#ifndef VSH_VFS_H
#define VSH_VFS_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "core/budget.h"
#include "core/mem.h"
#include "core/stream.h"
#include "vsh.h"

typedef struct vfs vfs;
typedef struct vfs_snap vfs_snap;
typedef struct vfs_file vfs_file;
typedef struct vfs_dir vfs_dir;

/* Node types; the values equal vsh_file_type. */
enum vfs_type {
  VFS_REG = 1,
  VFS_DIR = 2,
  VFS_LNK = 3,
  VFS_CHR = 4, /* the fixed /dev nodes, and host devices shown inert */
  VFS_FIFO = 5 /* host FIFOs/sockets shown inert: never opened */
};

/* Which device a VFS_CHR node is (vfs_stat_t.dev, vfs_file_dev). The shell
 * gives /dev/std* their meaning; the vfs only names them. */
enum vfs_dev {
  VFS_DEV_NONE = 0,
  VFS_DEV_NULL = 1,
  VFS_DEV_ZERO = 2,
  VFS_DEV_STDIN = 3,
  VFS_DEV_STDOUT = 4,
  VFS_DEV_STDERR = 5,
  VFS_DEV_OTHER = 6,  /* a host special file: reads as empty, writes fail */
  VFS_DEV_URANDOM = 7 /* /dev/urandom and /dev/random: the sandbox's random
                         hook gives the bytes (the vfs itself reads none) */
};

#define VFS_NAME_MAX 255
#define VFS_PATH_MAX 4095 /* longest path accepted, in bytes */
#define VFS_SYMLOOP_MAX 40
#define VFS_DEFAULT_MAX_BYTES ((uint64_t)1 << 30)
#define VFS_DEFAULT_MAX_INODES 1000000u
#define VFS_DEFAULT_UID 1000u
#define VFS_DEFAULT_GID 1000u

typedef struct vfs_stat_t {
  int type;      /* enum vfs_type */
  unsigned mode; /* permission bits, 07777 */
  uint64_t ino;
  uint32_t nlink;
  uint32_t uid, gid;
  uint64_t size; /* bytes; a symlink's target length; 4096 for directories */
  int64_t atime_ns, mtime_ns, ctime_ns;
  int dev; /* enum vfs_dev for VFS_CHR, else VFS_DEV_NONE */
} vfs_stat_t;

typedef struct vfs_config {
  vsh_clock_fn clock; /* NULL: the host's CLOCK_REALTIME; called with 0 */
  void *clock_ud;
  uint64_t max_bytes;  /* content bytes; 0: VFS_DEFAULT_MAX_BYTES */
  uint64_t max_inodes; /* 0: VFS_DEFAULT_MAX_INODES */
} vfs_config;

/* ------------------------------------------------------------------------ */
/* Lifetime, identity, layout                                               */
/* ------------------------------------------------------------------------ */

/* A vfs holding only "/" (root-owned 0755). cfg may be NULL. Takes a
 * reference on m. NULL when out of memory. */
vfs *vfs_new(mem *m, const vfs_config *cfg);
/* A vfs whose tree is the snapshot's (O(1)); cfg NULL: defaults. */
vfs *vfs_new_from(mem *m, const vfs_snap *s, const vfs_config *cfg);
/* O(1): a new vfs (same allocator, clock, quotas, user, umask) sharing the
 * whole tree copy-on-write. Open handles are not inherited. */
vfs *vfs_fork(vfs *v);
/* Frees the vfs; nodes still shared with snapshots or forks live on. Open
 * handles and directory iterators must be closed first. */
void vfs_free(vfs *v);
mem *vfs_mem(const vfs *v);
void vfs_release(vfs *v, void *p); /* frees a buffer the vfs returned */

/* /home/user (uid 1000, 0755), /tmp (1777), /bin, /usr/bin (root, 0755) and
 * /dev/{null,zero,stdin,stdout,stderr}. Existing entries are kept. */
int vfs_default_layout(vfs *v);
/* Create /bin/NAME and /usr/bin/NAME (root-owned, 0755) whose content is the
 * marker "#!vsh-builtin NAME\n", replacing a previous stub. Privileged: works
 * whatever the current user. */
int vfs_add_command_stub(vfs *v, const char *name);
/* If the file at path is a command stub, copy its NAME into out (NUL-ended,
 * truncated to cap) and return 1; 0 when it is not a stub; <0 on error. */
int vfs_command_stub_name(vfs *v, const char *cwd, const char *path, char *out,
                          size_t cap);

void vfs_set_user(vfs *v, uint32_t uid, uint32_t gid); /* default 1000/1000 */
/* Host-side access: while the count is above 0, permission checks are off
 * (the embedder owns its sandbox), but new nodes are still owned by the vfs
 * user so the script can change them. Calls nest. */
void vfs_privileged_enter(vfs *v);
void vfs_privileged_leave(vfs *v);
unsigned vfs_set_umask(vfs *v, unsigned mask); /* returns the previous one */
unsigned vfs_get_umask(const vfs *v);
int64_t vfs_now(const vfs *v); /* the clock callback's wall time, ns */

/* ------------------------------------------------------------------------ */
/* Quotas                                                                   */
/* ------------------------------------------------------------------------ */

/* Limits on content bytes and inodes of this vfs's live tree. Content is
 * counted once per inode (hard links share it). Nodes read from a host layer
 * count only once written. A 0 argument keeps the current limit. An
 * operation that would exceed a limit fails -ENOSPC and changes nothing. */
void vfs_set_quota(vfs *v, uint64_t max_bytes, uint64_t max_inodes);
/* The budget of the exec now running over this vfs (NULL between execs).
 * While set, an operation refused by a quota also stops that exec with
 * BUDGET_FS_BYTES or BUDGET_FS_INODES, as every other limit does: the
 * command still sees -ENOSPC, then the exec ends with status 126. */
void vfs_set_budget(vfs *v, budget *bud);
void vfs_get_quota(const vfs *v, uint64_t *max_bytes, uint64_t *max_inodes);
void vfs_usage(const vfs *v, uint64_t *bytes, uint64_t *inodes);

/* ------------------------------------------------------------------------ */
/* Names and metadata                                                       */
/* ------------------------------------------------------------------------ */

int vfs_stat(vfs *v, const char *cwd, const char *path, vfs_stat_t *st);
int vfs_lstat(vfs *v, const char *cwd, const char *path, vfs_stat_t *st);
/* amode: F_OK or a mix of R_OK/W_OK/X_OK from <unistd.h>, for test -r/-w/-x.
 * Follows symlinks. 0 if allowed, -EACCES, -ENOENT, ... */
int vfs_access(vfs *v, const char *cwd, const char *path, int amode);
/* vfs_stat, and in *xok whether vfs_access(X_OK) would succeed, in one
 * lookup (a PATH search tries each directory so). */
int vfs_stat_x(vfs *v, const char *cwd, const char *path, vfs_stat_t *st,
               int *xok);
/* 1 if path exists (following symlinks), else 0; never fails. */
int vfs_exists(vfs *v, const char *cwd, const char *path);

/* Canonical absolute path (no symlinks, no . or ..) of an existing path.
 * *out is allocated (vfs_release). */
int vfs_realpath(vfs *v, const char *cwd, const char *path, char **out);
/* Like vfs_realpath but the result must be a directory the user may search
 * (x): for cd -P and pwd -P. -ENOTDIR, -EACCES. */
int vfs_canon_dir(vfs *v, const char *cwd, const char *path, char **out);
int vfs_readlink(vfs *v, const char *cwd, const char *path, char **out,
                 size_t *len);

int vfs_chmod(vfs *v, const char *cwd, const char *path, unsigned mode);
/* Times in ns since the epoch; VFS_UTIME_NOW takes the clock, VFS_UTIME_OMIT
 * keeps the field. flags: VFS_NOFOLLOW acts on a symlink itself (touch -h).
 * Sets ctime to now. */
#define VFS_UTIME_NOW INT64_MIN
#define VFS_UTIME_OMIT (INT64_MIN + 1)
enum { VFS_NOFOLLOW = 1u << 0 };
int vfs_utimes(vfs *v, const char *cwd, const char *path, int64_t atime_ns,
               int64_t mtime_ns, unsigned flags);

/* ------------------------------------------------------------------------ */
/* Directories                                                              */
/* ------------------------------------------------------------------------ */

int vfs_mkdir(vfs *v, const char *cwd, const char *path, unsigned mode);
/* mkdir -p: creates missing parents (mode 0777 & ~umask, plus u+wx like
 * GNU), succeeds when path is already a directory (or a symlink to one),
 * -EEXIST when it is something else. */
int vfs_mkdir_p(vfs *v, const char *cwd, const char *path, unsigned mode);
int vfs_rmdir(vfs *v, const char *cwd, const char *path);
/* Names in byte order, no . or ..; *names is an array of *n allocated
 * strings. Free with vfs_free_names. */
int vfs_readdir(vfs *v, const char *cwd, const char *path, char ***names,
                size_t *n);
void vfs_free_names(vfs *v, char **names, size_t n);

typedef struct vfs_dirent {
  const char *name; /* valid until the next vfs_dir_next or vfs_closedir */
  size_t name_len;
  int type; /* enum vfs_type of the entry itself (a symlink is VFS_LNK) */
  uint64_t ino;
} vfs_dirent;
/* Iterate a directory in byte order of names. The iterator sees the
 * directory as it was at vfs_opendir (later changes do not disturb it). */
int vfs_opendir(vfs *v, const char *cwd, const char *path, vfs_dir **out);
int vfs_dir_next(vfs_dir *d, vfs_dirent *e); /* 1 entry, 0 end */
void vfs_closedir(vfs_dir *d);

/* ------------------------------------------------------------------------ */
/* Removal, renaming, links                                                 */
/* ------------------------------------------------------------------------ */

int vfs_unlink(vfs *v, const char *cwd, const char *path); /* -EISDIR on dir */
/* rm -r: removes path (not following a final symlink) and everything below.
 * Stops at the first error (e.g. -EACCES deep down), leaving what was not
 * yet removed. */
int vfs_rm_rf(vfs *v, const char *cwd, const char *path);
/* rename(2): replaces an existing target (a dir only by an empty dir),
 * -EINVAL when moving a directory into itself, -ENOTEMPTY, -EISDIR,
 * -ENOTDIR. A no-op when both names are the same inode. */
int vfs_rename(vfs *v, const char *cwd, const char *from, const char *to);
/* Hard link newpath -> the file at target (not following a final symlink of
 * target). -EPERM for directories. */
int vfs_link(vfs *v, const char *cwd, const char *target, const char *newpath);
int vfs_symlink(vfs *v, const char *cwd, const char *target,
                const char *linkpath);

/* ------------------------------------------------------------------------ */
/* Whole-file operations                                                    */
/* ------------------------------------------------------------------------ */

/* Whole content; *data is allocated and NUL-terminated. -EISDIR for a
 * directory. /dev/null and /dev/std* read empty, /dev/zero fails -EFBIG,
 * inert host specials fail -ENXIO. */
int vfs_read_file(vfs *v, const char *cwd, const char *path, char **data,
                  size_t *len);
/* Create (mode 0 means 0644, then & ~umask) or replace the content
 * atomically: on error the old content stays. Follows symlinks. */
int vfs_write_file(vfs *v, const char *cwd, const char *path, const void *data,
                   size_t len, unsigned mode);
/* Append, creating the file (0666 & ~umask) when missing. Amortised O(len)
 * on an unshared file. */
int vfs_append_file(vfs *v, const char *cwd, const char *path, const void *data,
                    size_t len);
int vfs_truncate(vfs *v, const char *cwd, const char *path, uint64_t size);

/* ------------------------------------------------------------------------ */
/* Open file handles (streaming)                                            */
/* ------------------------------------------------------------------------ */

/* flags: O_RDONLY/O_WRONLY/O_RDWR with O_CREAT, O_EXCL, O_TRUNC, O_APPEND,
 * O_NOFOLLOW, O_DIRECTORY (accepted only to fail -ENOTDIR/-EISDIR).
 * mode is used with O_CREAT (& ~umask). Opening a directory fails -EISDIR;
 * an inert host FIFO/socket/device fails -ENXIO (it is never opened).
 * A handle names the inode, not the path: it survives rename and unlink.
 * /dev nodes open as device handles (see vfs_file_dev): null reads empty and
 * swallows writes, zero reads zeros; the std* ones read empty and swallow
 * writes unless the caller intercepts them first. */
int vfs_open(vfs *v, const char *cwd, const char *path, int flags,
             unsigned mode, vfs_file **out);
/* Read from the handle's position, advancing it: bytes read, 0 at end. */
long vfs_read(vfs_file *f, void *buf, size_t n);
long vfs_pread(vfs_file *f, void *buf, size_t n, uint64_t off);
/* Write at the position (at the end with O_APPEND): n or <0. All or
 * nothing: a write over quota fails -ENOSPC and writes nothing. */
long vfs_write(vfs_file *f, const void *buf, size_t n);
long vfs_pwrite(vfs_file *f, const void *buf, size_t n, uint64_t off);
/* whence: SEEK_SET, SEEK_CUR, SEEK_END. Returns the new position. */
int64_t vfs_seek(vfs_file *f, int64_t off, int whence);
int vfs_ftruncate(vfs_file *f, uint64_t size);
int vfs_fstat(vfs_file *f, vfs_stat_t *st);
uint64_t vfs_file_size(vfs_file *f);
int vfs_file_dev(const vfs_file *f); /* enum vfs_dev; NONE for files */
/* Zero-copy view of the current content: valid until the next write,
 * truncate or close through any path. NULL with *len 0 for an empty file
 * or a device. For a read-only handle it is the content at open time. */
const char *vfs_file_data(vfs_file *f, size_t *len);
void vfs_close(vfs_file *f);

/* The handle as a core stream (readable and/or writable as oflags' access
 * mode says); the stream owns the handle and closes it when released. NULL
 * when out of memory (the handle is then still the caller's). */
stream *vfs_stream_new(mem *m, budget *bud, vfs_file *f, int oflags);
/* Writes through s (if it is a file's stream) may not grow the file past
 * max bytes: they write what fits, then fail with EFBIG. */
void vfs_stream_max_size(stream *s, uint64_t max);

/* ------------------------------------------------------------------------ */
/* Snapshot, fork, diff                                                     */
/* ------------------------------------------------------------------------ */

/* O(1): the whole tree as it is now. A snapshot is immutable, outlives the
 * vfs, and may seed any number of vfs instances (vfs_new_from). NULL when out
 * of memory. */
vfs_snap *vfs_snapshot(vfs *v);
vfs_snap *vfs_snap_ref(vfs_snap *s);
void vfs_snap_free(vfs_snap *s); /* drops a reference */
/* O(1): the live tree becomes the snapshot's (copy-on-write). Open handles
 * whose inode no longer exists fail -ESTALE afterwards. */
int vfs_restore(vfs *v, const vfs_snap *s);

/* Change kinds and bits: the values of vsh_change_kind / VSH_CHANGED_*. */
enum { VFS_ADDED = 1, VFS_REMOVED = 2, VFS_MODIFIED = 3 };
enum {
  VFS_CHANGED_CONTENT = 1u << 0,
  VFS_CHANGED_MODE = 1u << 1,
  VFS_CHANGED_TYPE = 1u << 2,
  VFS_CHANGED_TARGET = 1u << 3
};
/* Return non-zero to stop the diff (vfs_diff then returns -ECANCELED). */
typedef int (*vfs_diff_fn)(void *ud, int kind, const char *path, unsigned what);
/* Differences from a to b (b NULL: the live tree of v; v may be NULL when b
 * is given). Reported depth first in byte order of names; an added or
 * removed directory is reported, then everything below it. Directories that
 * only changed because something below them changed are not reported. Time is
 * proportional to the changes: subtrees still shared are skipped. mtime and
 * atime changes alone are not reported. */
int vfs_diff(vfs *v, const vfs_snap *a, const vfs_snap *b, vfs_diff_fn fn,
             void *ud);

/* ------------------------------------------------------------------------ */
/* Host layers                                                              */
/* ------------------------------------------------------------------------ */

/* Layer host_dir read-only at vpath (created with parents if missing; an
 * existing vpath must be an empty directory, else -EBUSY). Contents are read
 * lazily; writes go to the virtual copy only. Host symlinks are virtual
 * symlinks; FIFOs, sockets and devices appear as inert VFS_FIFO/VFS_CHR
 * entries that are never opened on the host. A host file's bytes are taken
 * whole on first read and never re-read; a file larger than max_file (0 =
 * 64 MiB) fails every read and every change of it with -EFBIG, one the
 * allocator cannot hold with -ENOMEM (never a truncated read). Privileged. */
int vfs_mount_host(vfs *v, const char *host_dir, const char *vpath,
                   uint64_t max_file);

/* ------------------------------------------------------------------------ */
/* Persist and hydrate (tar)                                                */
/* ------------------------------------------------------------------------ */

/* Write the tree at dir as a ustar stream (pax headers for names, link
 * targets, sizes and mtimes ustar cannot hold, so any depth and length is
 * written whole, as GNU tar does): members "." and "./rel/path" in byte
 * order, directories, regular files, symlinks, and hard links (a file's
 * first name a regular member, its other names '1' members naming it), with
 * the whole mode (setuid, setgid, sticky) and the mtime in seconds. Walks
 * the tree iteratively (no depth limit).
 * skip: NULL-terminated paths to leave out with everything below them, each
 * relative to dir ("a/b" or "./a/b") or absolute. Devices are skipped. fn
 * returning non-zero stops with -ECANCELED. */
int vfs_persist(vfs *v, const char *cwd, const char *dir,
                const char *const *skip, vsh_write_fn fn, void *ud);

/* Extract a tar (plain or gzip) into dir (created if missing), after
 * validating the whole archive and the destination. What persist wrote
 * comes back exactly (modes, mtimes to the second, symlink targets, hard
 * links, empty directories); parents the archive does not list are created
 * (0777 & ~umask), as GNU tar does. Refused: absolute member names, `..`
 * components, devices, FIFOs and other special members, duplicates (unless
 * both directories), members under a symlink or file member or through an
 * existing symlink, hard links to anything but an earlier regular-file
 * member, paths over 4095 bytes, an archive cut short inside a header or a
 * data block ("unexpected EOF in archive"). Symlink targets (absolute or
 * climbing out) are kept as they are: every lookup resolves inside the
 * sandbox and extraction never writes through a symlink. A rejected archive
 * returns -EBADMSG, changes nothing, and writes "member 'NAME': RULE" into
 * msg (if msgcap > 0). Other failures (-ENOSPC, -ENOMEM) also change
 * nothing. Privileged (ignores modes), nodes owned by the vfs user. */
int vfs_hydrate(vfs *v, const char *cwd, const char *dir, const void *tar,
                size_t len, char *msg, size_t msgcap);
/* The same from a read callback (fn's -1, or a count over what was asked:
 * -EIO); a regular member's content is read straight into its file. */
int vfs_hydrate_stream(vfs *v, const char *cwd, const char *dir, vsh_read_fn fn,
                       void *ud, char *msg, size_t msgcap);

/* Batch import (import.c): many files placed under one directory without
 * resolving each path from the root. vfs_import_begin makes dir (with
 * missing parents) and starts there; paths given later are relative to
 * it, or absolute. Privileged (ignores modes), nodes owned by the vfs
 * user with mode & ~umask, quotas charged as by vfs_write_file. A file
 * already there is replaced as by vfs_write_file; `..`, symlinks and
 * host-layer directories on the way take that general path too. The tree
 * must not be snapshotted or forked between begin and end. */
typedef struct vfs_import vfs_import;
int vfs_import_begin(vfs *v, const char *cwd, const char *dir,
                     vfs_import **out);
/* A file holding a copy of data (mode 0: 0644). */
int vfs_import_data(vfs_import *im, const char *path, const void *data,
                    size_t len, unsigned mode);
/* mkdir -p (mode 0: 0755). */
int vfs_import_mkdir(vfs_import *im, const char *path, unsigned mode);
/* A host directory's tree copied in at the import's directory: regular
 * files (read straight into their nodes), directories, symlinks (as they
 * are), with the host's permission bits; devices, FIFOs and sockets are
 * left out. Walks iteratively, one host directory open at a time. */
int vfs_import_host(vfs_import *im, const char *host_dir);
void vfs_import_end(vfs_import *im);

/* ------------------------------------------------------------------------ */
/* Glue for the public vsh_* file API (the sandbox wraps these)             */
/* ------------------------------------------------------------------------ */

/* vsh_status for a negative errno (0 -> VSH_OK, -ENOMEM -> VSH_NOMEM,
 * -EBADMSG -> VSH_REJECTED, -ENOSPC -> VSH_LIMIT, others VSH_FS). */
vsh_status vfs_status(int rc);
void vfs_to_vsh_stat(const vfs_stat_t *in, vsh_stat *out);
/* vsh_mkdir: flags VSH_RECURSIVE = mkdir -p. Mode 0777 & ~umask. */
int vfs_vsh_mkdir(vfs *v, const char *cwd, const char *path, unsigned flags);
/* vsh_rm (Node fs.rm): VSH_FORCE ignores a missing path; a directory needs
 * VSH_RECURSIVE (else -EISDIR). */
int vfs_vsh_rm(vfs *v, const char *cwd, const char *path, unsigned flags);
/* vsh_diff: adapts a vsh_diff_fn. */
int vfs_vsh_diff(vfs *v, const vfs_snap *a, const vfs_snap *b, vsh_diff_fn fn,
                 void *ud);

/* ------------------------------------------------------------------------ */
/* Checks (tests, fuzzing)                                                  */
/* ------------------------------------------------------------------------ */

/* Walk the whole live tree and verify invariants: link counts (files and
 * directories), quota counters equal to a recount, every link-table inode
 * referenced, names valid and ordered, tree balanced. 0 or -EUCLEAN with a
 * description in msg. O(tree). */
int vfs_check(vfs *v, char *msg, size_t msgcap);

#endif
