/*
 * vfs.c - lifetime, identity, quotas, default layout, command stubs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vfs/internal.h"

static void apply_cfg(vfs *v, const vfs_config *cfg) {
  v->max_bytes = VFS_DEFAULT_MAX_BYTES;
  v->max_inodes = VFS_DEFAULT_MAX_INODES;
  v->uid = VFS_DEFAULT_UID;
  v->gid = VFS_DEFAULT_GID;
  v->umask = 022;
  if (!cfg)
    return;
  v->clock = cfg->clock;
  v->clock_ud = cfg->clock_ud;
  if (cfg->max_bytes)
    v->max_bytes = cfg->max_bytes;
  if (cfg->max_inodes)
    v->max_inodes = cfg->max_inodes;
}

static vfs *vfs_alloc(mem *m, const vfs_config *cfg) {
  vfs *v = mem_calloc(m, 1, sizeof *v);
  if (!v)
    return NULL;
  v->m = mem_ref(m);
  apply_cfg(v, cfg);
  v->next_ino = 2; /* the root is 1, like many filesystems */
  return v;
}

vfs *vfs_new(mem *m, const vfs_config *cfg) {
  vfs *v = vfs_alloc(m, cfg);
  if (!v)
    return NULL;
  uint32_t uid = v->uid, gid = v->gid;
  v->uid = v->gid = 0;
  v->next_ino = 1;
  v->root = vnode_new(v, VFS_DIR, 0755);
  v->uid = uid;
  v->gid = gid;
  if (!v->root) {
    vfs_free(v);
    return NULL;
  }
  v->inodes = 1;
  return v;
}

vfs *vfs_new_from(mem *m, const vfs_snap *s, const vfs_config *cfg) {
  vfs *v = vfs_alloc(m, cfg);
  if (!v)
    return NULL;
  v->root = vnode_ref(s->root);
  v->links = dmap_ref(s->links);
  v->next_ino = s->next_ino;
  v->bytes = s->bytes;
  v->inodes = s->inodes;
  return v;
}

vfs *vfs_fork(vfs *v) {
  vfs *f = vfs_alloc(v->m, NULL);
  if (!f)
    return NULL;
  f->clock = v->clock;
  f->clock_ud = v->clock_ud;
  f->max_bytes = v->max_bytes;
  f->max_inodes = v->max_inodes;
  f->uid = v->uid;
  f->gid = v->gid;
  f->umask = v->umask;
  if (vfs_shared_links(v, &f->links, &f->bytes, &f->inodes)) {
    vfs_free(f);
    return NULL;
  }
  f->root = vnode_ref(v->root);
  f->next_ino = v->next_ino;
  return f;
}

void vfs_free(vfs *v) {
  if (!v)
    return;
  vnode_unref(v->root);
  dmap_unref(v->links);
  mem_free(v->m, v->pins);
  mem *m = v->m;
  mem_free(m, v);
  mem_unref(m);
}

mem *vfs_mem(const vfs *v) {
  return v->m;
}
void vfs_release(vfs *v, void *p) {
  mem_free(v->m, p);
}

void vfs_privileged_enter(vfs *v) {
  v->priv++;
}
void vfs_privileged_leave(vfs *v) {
  v->priv--;
}

void vfs_set_user(vfs *v, uint32_t uid, uint32_t gid) {
  v->uid = uid;
  v->gid = gid;
}

unsigned vfs_set_umask(vfs *v, unsigned mask) {
  unsigned old = v->umask;
  v->umask = mask & 0777;
  return old;
}

unsigned vfs_get_umask(const vfs *v) {
  return v->umask;
}
int64_t vfs_now(const vfs *v) {
  return vfs_clock(v);
}

void vfs_set_quota(vfs *v, uint64_t max_bytes, uint64_t max_inodes) {
  if (max_bytes)
    v->max_bytes = max_bytes;
  if (max_inodes)
    v->max_inodes = max_inodes;
}

void vfs_get_quota(const vfs *v, uint64_t *max_bytes, uint64_t *max_inodes) {
  if (max_bytes)
    *max_bytes = v->max_bytes;
  if (max_inodes)
    *max_inodes = v->max_inodes;
}

void vfs_usage(const vfs *v, uint64_t *bytes, uint64_t *inodes) {
  if (bytes)
    *bytes = v->bytes;
  if (inodes)
    *inodes = v->inodes;
}

void vfs_set_budget(vfs *v, budget *bud) {
  v->bud = bud;
}

int vfs_charge(vfs *v, int64_t db, int64_t di) {
  if (db > 0 && v->bytes + (uint64_t)db > v->max_bytes) {
    if (v->bud)
      budget_set_stop(v->bud, BUDGET_FS_BYTES, v->max_bytes);
    return -ENOSPC;
  }
  if (di > 0 && v->inodes + (uint64_t)di > v->max_inodes) {
    if (v->bud)
      budget_set_stop(v->bud, BUDGET_FS_INODES, v->max_inodes);
    return -ENOSPC;
  }
  v->bytes += (uint64_t)db; /* wraps correctly for negative deltas */
  v->inodes += (uint64_t)di;
  return 0;
}

/* Privileged helpers: the layout and stubs are made by the embedder, not by
 * the sandbox user, whatever the current uid. */
static int mkdir_owned(vfs *v, const char *path, unsigned mode, uint32_t uid) {
  uint32_t ou = v->uid, og = v->gid;
  unsigned oum = v->umask;
  v->uid = v->gid = uid;
  v->umask = 0;
  v->priv++;
  int rc = vfs_mkdir(v, "/", path, mode);
  if (rc == -EEXIST)
    rc = 0;
  v->priv--;
  v->uid = ou;
  v->gid = og;
  v->umask = oum;
  return rc;
}

static int add_dev(vfs *v, const char *name, int dev) {
  vres r;
  int rc = vfs_resolve(v, "/dev", name, R_PARENT | R_NOPERM, &r);
  if (rc)
    return rc;
  if (r.node) {
    vres_free(v, &r);
    return 0;
  }
  vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
  if (dir) {
    uint32_t ou = v->uid, og = v->gid;
    v->uid = v->gid = 0;
    vnode *n = vnode_new(v, VFS_CHR, 0666);
    v->uid = ou;
    v->gid = og;
    if (!n)
      rc = -ENOMEM;
    else {
      n->dev = (uint8_t)dev;
      rc = vfs_insert_new(v, dir, r.name, r.nlen, n);
    }
  }
  vres_free(v, &r);
  return rc;
}

int vfs_default_layout(vfs *v) {
  int rc;
  if ((rc = mkdir_owned(v, "/home", 0755, 0)) ||
      (rc = mkdir_owned(v, "/home/user", 0755, v->uid)) ||
      (rc = mkdir_owned(v, "/tmp", 01777, 0)) ||
      (rc = mkdir_owned(v, "/bin", 0755, 0)) ||
      (rc = mkdir_owned(v, "/usr", 0755, 0)) ||
      (rc = mkdir_owned(v, "/usr/bin", 0755, 0)) ||
      (rc = mkdir_owned(v, "/dev", 0755, 0)))
    return rc;
  static const struct {
    const char *name;
    int dev;
  } devs[] = {{"null", VFS_DEV_NULL},      {"zero", VFS_DEV_ZERO},
              {"stdin", VFS_DEV_STDIN},    {"stdout", VFS_DEV_STDOUT},
              {"stderr", VFS_DEV_STDERR},  {"random", VFS_DEV_URANDOM},
              {"urandom", VFS_DEV_URANDOM}};
  for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++)
    if ((rc = add_dev(v, devs[i].name, devs[i].dev)))
      return rc;
  return 0;
}

#define STUB_PREFIX "#!vsh-builtin "

int vfs_add_command_stub(vfs *v, const char *name) {
  size_t nl = strlen(name);
  if (!nl || nl > VFS_NAME_MAX || strchr(name, '/') || !strcmp(name, ".") ||
      !strcmp(name, ".."))
    return -EINVAL;
  char content[sizeof STUB_PREFIX + VFS_NAME_MAX + 2];
  int len = snprintf(content, sizeof content, STUB_PREFIX "%s\n", name);
  static const char *const dirs[] = {"/bin", "/usr/bin"};
  int rc = 0;
  uint32_t ou = v->uid, og = v->gid;
  unsigned oum = v->umask;
  v->uid = v->gid = 0;
  v->umask = 0;
  v->priv++;
  for (size_t i = 0; i < 2 && !rc; i++) {
    rc = vfs_mkdir_p(v, "/", dirs[i], 0755);
    if (!rc)
      rc = vfs_write_file(v, dirs[i], name, content, (size_t)len, 0755);
    if (!rc)
      rc = vfs_chmod(v, dirs[i], name, 0755);
  }
  v->priv--;
  v->uid = ou;
  v->gid = og;
  v->umask = oum;
  return rc;
}

int vfs_command_stub_name(vfs *v, const char *cwd, const char *path, char *out,
                          size_t cap) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW | R_NOSTORE, &r);
  if (rc)
    return rc;
  vnode *n = r.node;
  rc = 0;
  if (n->type == VFS_REG && !n->host && n->u.data &&
      n->u.data->len > sizeof STUB_PREFIX &&
      n->u.data->len <= sizeof STUB_PREFIX + VFS_NAME_MAX &&
      !memcmp(n->u.data->data, STUB_PREFIX, sizeof STUB_PREFIX - 1) &&
      n->u.data->data[n->u.data->len - 1] == '\n') {
    size_t nl = n->u.data->len - (sizeof STUB_PREFIX - 1) - 1;
    if (cap) {
      size_t k = nl < cap - 1 ? nl : cap - 1;
      memcpy(out, n->u.data->data + sizeof STUB_PREFIX - 1, k);
      out[k] = 0;
    }
    rc = 1;
  }
  vres_free(v, &r);
  return rc;
}
