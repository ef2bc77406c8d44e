/*
 * glue.c - helpers behind the public vsh_* file API (the sandbox object
 * wraps these; no vsh_* symbol is defined here).
 */
#include <errno.h>
#include <string.h>

#include "vfs/internal.h"

vsh_status vfs_status(int rc) {
  switch (rc) {
  case 0:
    return VSH_OK;
  case -ENOMEM:
    return VSH_NOMEM;
  case -EBADMSG:
    return VSH_REJECTED;
  case -ENOSPC:
    return VSH_LIMIT;
  case -EINVAL:
  case -EFAULT:
    return VSH_FS;
  default:
    return VSH_FS;
  }
}

void vfs_to_vsh_stat(const vfs_stat_t *in, vsh_stat *out) {
  memset(out, 0, sizeof *out);
  out->type = (vsh_file_type)in->type;
  out->mode = in->mode;
  out->ino = in->ino;
  out->nlink = in->nlink;
  out->size = in->size;
  out->mtime_ns = in->mtime_ns;
  out->ctime_ns = in->ctime_ns;
  out->atime_ns = in->atime_ns;
}

int vfs_vsh_mkdir(vfs *v, const char *cwd, const char *path, unsigned flags) {
  if (flags & VSH_RECURSIVE)
    return vfs_mkdir_p(v, cwd, path, 0777);
  return vfs_mkdir(v, cwd, path, 0777);
}

int vfs_vsh_rm(vfs *v, const char *cwd, const char *path, unsigned flags) {
  vfs_stat_t st;
  int rc = vfs_lstat(v, cwd, path, &st);
  if (rc == -ENOENT && (flags & VSH_FORCE))
    return 0;
  if (rc)
    return rc;
  if (st.type == VFS_DIR && !(flags & VSH_RECURSIVE))
    return -EISDIR;
  if (st.type == VFS_DIR)
    return vfs_rm_rf(v, cwd, path);
  return vfs_unlink(v, cwd, path);
}

typedef struct vsh_diff_ud {
  vsh_diff_fn fn;
  void *ud;
} vsh_diff_ud;

static int call_vsh_diff(void *ud, int kind, const char *path, unsigned what) {
  vsh_diff_ud *a = ud;
  a->fn(a->ud, (vsh_change_kind)kind, path, what);
  return 0;
}

int vfs_vsh_diff(vfs *v, const vfs_snap *a, const vfs_snap *b, vsh_diff_fn fn,
                 void *ud) {
  vsh_diff_ud x = {fn, ud};
  return vfs_diff(v, a, b, call_vsh_diff, &x);
}
