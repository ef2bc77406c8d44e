/*
 * template.c - the default layout of a new sandbox (/home/user, /tmp, /bin
 * and /usr/bin with a stub per command, /dev), built once per process and
 * per shape, then given to each new sandbox as a copy-on-write tree:
 * opening costs a few reference counts instead of some 400 file writes.
 *
 * The shape is what changes the tree: whether the network commands are
 * there, and the times it carries. With the host clock, the nodes carry
 * the time the template was built (as an installed system's files carry
 * their install time). With the embedder's clock, every node carries the
 * clock's reading at open, so a sandbox with a fixed clock sees the same
 * times whatever else the process did; the last template of each shape is
 * kept and rebuilt when the reading changes.
 *
 * Templates live in an allocator of their own (the C library's) that no
 * sandbox's cap counts: they are shared by every sandbox, and a node a
 * sandbox changes is copied into its own allocator first. A template
 * replaced while sandboxes still share its nodes lives on in them (every
 * node holds a reference on its allocator). The process keeps the current
 * ones until it exits.
 */
#include <errno.h>
#include <pthread.h>

#include "api/sandbox.h"

typedef struct tmpl {
  vfs_snap *snap;
  int64_t t; /* the clock reading it carries (clocked templates) */
} tmpl;

static pthread_mutex_t tmpl_lock = PTHREAD_MUTEX_INITIALIZER;
static tmpl host_clock[2];  /* [net]: the host clock */
static tmpl fixed_clock[2]; /* [net]: the embedder's clock */

static int64_t read_fixed(void *ud, int monotonic) {
  (void)monotonic;
  return *(const int64_t *)ud;
}

static int add_stubs(vfs *v, int net) {
  size_t n;
  const bi_def *all = bi_all(&n);
  for (size_t i = 0; i < n; i++) {
    if (all[i].flags & BI_TEST)
      continue;
    if ((all[i].flags & BI_NET) && !net)
      continue;
    int rc = vfs_add_command_stub(v, all[i].name);
    if (rc)
      return rc;
  }
  /* The shell itself, and pwd: a shell builtin that is also a file of
   * /usr/bin on a real system (`type -a pwd` lists both). */
  static const char *const extra[] = {"bash", "sh", "pwd", NULL};
  for (int i = 0; extra[i]; i++) {
    int rc = vfs_add_command_stub(v, extra[i]);
    if (rc)
      return rc;
  }
  return 0;
}

/* The layout built afresh into a snapshot; NULL with *err on failure. */
static vfs_snap *build(int net, const int64_t *t, int *err) {
  mem *m = mem_new(NULL, NULL, 0);
  if (!m) {
    *err = -ENOMEM;
    return NULL;
  }
  vfs_config vc = {t ? read_fixed : NULL, (void *)t, 0, 0};
  vfs *v = vfs_new(m, &vc);
  mem_unref(m); /* the vfs and its nodes hold it */
  if (!v) {
    *err = -ENOMEM;
    return NULL;
  }
  int rc = vfs_default_layout(v);
  if (!rc)
    rc = add_stubs(v, net);
  /* where process substitutions appear (/dev/fd/63) */
  if (!rc) {
    vfs_set_user(v, 0, 0);
    rc = vfs_mkdir_p(v, "/", "/dev/fd", 0777);
    if (!rc)
      rc = vfs_chmod(v, "/", "/dev/fd", 01777);
    vfs_set_user(v, VFS_DEFAULT_UID, VFS_DEFAULT_GID);
  }
  vfs_snap *s = rc ? NULL : vfs_snapshot(v);
  vfs_free(v);
  *err = rc ? rc : s ? 0 : -ENOMEM;
  return s;
}

vfs *api_layout_vfs(mem *m, const vfs_config *vc, int net, int *err) {
  net = net != 0;
  int64_t t = 0;
  if (vc->clock)
    t = vc->clock(vc->clock_ud, 0);
  pthread_mutex_lock(&tmpl_lock);
  tmpl *slot = vc->clock ? &fixed_clock[net] : &host_clock[net];
  if (slot->snap && vc->clock && slot->t != t) {
    vfs_snap_free(slot->snap);
    slot->snap = NULL;
  }
  if (!slot->snap) {
    slot->snap = build(net, vc->clock ? &t : NULL, err);
    slot->t = t;
  }
  vfs *v = slot->snap ? vfs_new_from(m, slot->snap, vc) : NULL;
  if (slot->snap && !v)
    *err = -ENOMEM;
  pthread_mutex_unlock(&tmpl_lock);
  if (!v)
    return NULL;
  /* the quotas hold from the start, as when the layout was written into
   * the sandbox's own tree */
  uint64_t bytes, inodes, max_bytes, max_inodes;
  vfs_usage(v, &bytes, &inodes);
  vfs_get_quota(v, &max_bytes, &max_inodes);
  if (bytes > max_bytes || inodes > max_inodes) {
    vfs_free(v);
    *err = -ENOSPC;
    return NULL;
  }
  return v;
}
