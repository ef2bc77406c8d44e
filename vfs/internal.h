/*
 * internal.h - data structures shared by the vfs sources.
 *
 * Sharing model. Every node (inode, directory-map node, content blob) carries
 * an atomic reference count and the allocator that made it. A node whose
 * count is 1 and that is reached from the live tree is owned by that tree
 * alone and is changed in place; a node with a higher count is shared (by a
 * snapshot, a fork, an iterator, a read handle) and is copied first ("path
 * copying"): every mutation walks from the root making each node on the way
 * exclusive. Snapshot and fork just take a reference on the root.
 *
 * Hard links. A reference count cannot tell "two names" from "shared with a
 * snapshot", so a file with more than one name lives in the per-tree link
 * table (a persistent map keyed by inode number) and each of its directory
 * entries is a small immutable stub naming the inode number. Files opened
 * for writing are moved there too ("pinned") so a handle can find its inode
 * after renames and copies.
 */
#ifndef VSH_VFS_INTERNAL_H
#define VSH_VFS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "vfs/vfs.h"

#define VN_STUB 16 /* internal node type: a directory entry naming a link */

typedef struct vnode vnode;
typedef struct dmap dmap;
typedef struct blob blob;
typedef struct vmount vmount;

struct blob {
  _Atomic long rc;
  mem *m;
  size_t len, cap;
  char data[];
};

/* A persistent AVL tree node: key -> vnode. Directory maps use names as
 * keys; the link table uses 8-byte big-endian inode numbers. */
struct dmap {
  _Atomic long rc;
  mem *m;
  dmap *l, *r;
  vnode *val;
  uint32_t height;
  uint32_t klen;
  char key[];
};

/* Lazy host-layer state of a node. */
enum {
  VN_LAZY_NONE = 0,
  VN_LAZY_DIR = 1, /* directory not listed yet */
  VN_LAZY_FILE = 2 /* file bytes not read yet */
};

struct vmount {
  _Atomic long rc;
  mem *m;
  int rootfd;
  uint64_t max_file;
  uint32_t uid, gid;
  uint64_t ino_base; /* host inode numbers: ino_base + ino_next++ */
  _Atomic uint64_t ino_next;
  pthread_mutex_t mu; /* serializes lazy loads of nodes of this mount */
};

/* Threads. A node may be shared by sandboxes running on different threads.
 * rc changes from any of them (atomic; the last unref is acq_rel, so the
 * thread that frees sees every other holder's accesses). A shared node is
 * otherwise immutable, except a lazy host node: whichever holder touches
 * it first loads it in place under mnt->mu (u.dir.map, u.dir.count and
 * nlink of a directory; u.data and size of a file) and then publishes the
 * load by storing VN_LAZY_NONE with release. So a reader of those fields
 * either loads the node first (vfs_host_load_*, which returns after an
 * acquire load of `lazy`), or sees `lazy` NONE with acquire, or takes
 * mnt->mu (vnode_stat). The atomics come first: vnode_copy copies the rest
 * of the struct in one piece and must not read them with plain loads. */
struct vnode {
  _Atomic long rc;
  _Atomic int lazy;   /* VN_LAZY_*; loaded under mount->mu, see above */
  mem *m;             /* first field vnode_copy copies */
  uint8_t type;       /* enum vfs_type or VN_STUB */
  uint8_t dev;        /* enum vfs_dev for VFS_CHR */
  uint8_t host;       /* node came from a host layer: not counted in quotas */
  uint8_t host_bytes; /* content still the host's: bytes not counted */
  uint32_t mode;      /* 07777 */
  uint32_t uid, gid, nlink;
  uint64_t ino;
  uint64_t size; /* files: content length (known before a lazy load) */
  int64_t atime, mtime, ctime;
  union {
    blob *data; /* VFS_REG; NULL = empty */
    struct {
      dmap *map;
      size_t count;
    } dir;
    struct {
      char *target;
      size_t len;
    } lnk;
    uint64_t link_ino; /* VN_STUB */
  } u;
  /* host layer source (lazy nodes only keep these until loaded) */
  vmount *mnt;
  char *hpath; /* path relative to the mount root, "" for the root */
};

struct vfs {
  mem *m;
  vnode *root;
  dmap *links; /* ino -> file vnode, see above */
  uint64_t next_ino;
  uint64_t bytes, inodes;
  uint64_t max_bytes, max_inodes;
  vsh_clock_fn clock;
  void *clock_ud;
  uint32_t uid, gid;
  unsigned umask;
  int priv;    /* >0: permission checks off (internal privileged calls) */
  budget *bud; /* the running exec's: a quota refusal stops it (NULL: none) */
  /* pinned inodes: open write handles per inode number */
  struct pin {
    uint64_t ino;
    long count;
  } * pins;
  size_t npins, cappins;
};

struct vfs_snap {
  _Atomic long rc;
  mem *m;
  vnode *root;
  dmap *links;
  uint64_t next_ino, bytes, inodes;
};

/* ---- map.c ---- */
dmap *dmap_ref(dmap *d);
void dmap_unref(dmap *d);
/* Free a map whose count already reached 0, iteratively (any depth). */
void dmap_free_dead(dmap *d);
vnode *dmap_get(const dmap *d, const char *key, size_t klen);
/* Insert or replace (consuming one reference of val); the replaced value is
 * returned in *old (caller unrefs) or NULL. */
int dmap_put(mem *m, dmap **root, const char *key, size_t klen, vnode *val,
             vnode **old);
/* Remove; the value is handed to the caller in *old (NULL if absent). */
int dmap_del(mem *m, dmap **root, const char *key, size_t klen, vnode **old);
/* Make the path to key exclusive and return the value slot (NULL if absent
 * or on no memory; *err tells). */
vnode **dmap_slot(mem *m, dmap **root, const char *key, size_t klen, int *err);
/* In-order iteration with an explicit stack (no allocation). */
typedef struct dmap_iter {
  const dmap *stack[96];
  int sp;
} dmap_iter;
void dmap_iter_init(dmap_iter *it, const dmap *root);
const dmap *dmap_iter_next(dmap_iter *it);
/* First entry with key > (key, klen) (klen 0 + key NULL: the first). */
void dmap_iter_from(dmap_iter *it, const dmap *root, const char *key,
                    size_t klen);
int dmap_keycmp(const char *a, size_t al, const char *b, size_t bl);
int dmap_check(const dmap *d, char *msg, size_t cap); /* AVL invariants */
void ino_key(uint64_t ino, char out[8]);

/* ---- node.c ---- */
vnode *vnode_new(vfs *v, int type, unsigned mode);
vnode *vnode_ref(vnode *n);
void vnode_unref(vnode *n);
/* Free a node whose count already reached 0, except its directory map,
 * whose reference is handed to the caller (NULL for other types). */
dmap *vnode_free_shell(vnode *n);
/* Shallow copy sharing children/content (takes references). */
vnode *vnode_copy(mem *m, vnode *n);
/* Make *slot exclusive (copying if shared). -ENOMEM. */
int vnode_make_mut(mem *m, vnode **slot);
blob *blob_new(mem *m, const void *data, size_t len, size_t cap);
blob *blob_ref(blob *b);
void blob_unref(blob *b);
/* Make the node's blob exclusive with at least cap bytes of room. */
int vnode_blob_mut(vnode *n, size_t cap);
/* The node behind a directory entry (resolving a stub through links). */
vnode *vfs_deref(const dmap *links, vnode *entry);
uint64_t vnode_bytes(const vnode *n);  /* counted content bytes */
uint64_t vnode_inodes(const vnode *n); /* 1 or 0 (host nodes) */
int64_t vfs_clock(const vfs *v);
void vnode_stat(const vnode *n, vfs_stat_t *st);

/* ---- path.c ---- */
enum {
  R_FOLLOW = 1 << 0, /* follow a final symlink */
  R_PARENT = 1 << 1, /* the last component may be missing */
  R_NOPERM = 1 << 2, /* skip search-permission checks */
  R_NOSTORE = 1 << 3 /* only dir, entry and node are wanted: canon and name
                        stay NULL (nothing allocated) */
};
typedef struct vres {
  vnode *dir;   /* parent directory (NULL for "/") */
  vnode *entry; /* the raw entry (maybe a stub) or NULL when missing */
  vnode *node;  /* what entry names (stub resolved) */
  char *canon;  /* canonical path of the parent dir ("/" for root) */
  size_t clen;
  const char *name; /* last component, inside canonbuf storage */
  size_t nlen;
  int dot;       /* last component was "." or ".." or path was "/" */
  int trailing;  /* path ended with '/' */
  char *storage; /* one allocation holding canon and name */
} vres;
int vfs_resolve(vfs *v, const char *cwd, const char *path, int flags, vres *r);
void vres_free(vfs *v, vres *r);
/* Walk a canonical directory path from the root making every node on the way
 * exclusive; returns the directory (exclusive) or NULL with *err. */
vnode *vfs_mut_dir(vfs *v, const char *canon, size_t clen, int *err);
/* Permission check for the vfs user: want is a mix of 4 (r) 2 (w) 1 (x). */
bool vfs_perm(const vfs *v, const vnode *n, int want);
/* Lazy host directory listing (no-op otherwise); 0 or -errno. */
int vfs_host_load_dir(vnode *n);
int vfs_host_load_file(vnode *n);

/* ---- ops.c / file.c helpers ---- */
int vfs_charge(vfs *v, int64_t dbytes, int64_t dinodes); /* -ENOSPC */
void vfs_uncharge_tree(vfs *v, vnode *entry);
/* Remove an entry name from an exclusive dir and release what it names
 * (link counts, quota). */
int vfs_drop_entry(vfs *v, vnode *dir, const char *name, size_t nlen);
/* Exclusive file node for the entry name in an exclusive dir (the link-table
 * inode for stubs). */
vnode *vfs_mut_file(vfs *v, vnode *dir, const char *name, size_t nlen,
                    int *err);
vnode *vfs_mut_link_ino(vfs *v, uint64_t ino, int *err);
int vfs_insert_new(vfs *v, vnode *dir, const char *name, size_t nlen, vnode *n);
void vfs_touch_dir(vfs *v, vnode *dir);
int vfs_pin(vfs *v, vnode *dir, const char *name, size_t nlen, uint64_t *ino);
void vfs_unpin(vfs *v, uint64_t ino);
/* Put a single-name link-table inode back into its entry dcanon/name. */
int vfs_unlink_table(vfs *v, const char *dcanon, const char *name,
                     uint64_t ino);

/* ---- import.c (the parts tar_read.c uses) ---- */
/* The import's directory, canonical ("/" for the root). */
const char *vfs_import_base(const vfs_import *im);
/* Forget the directory chain: call before changing the tree by any other
 * call while the import lasts. */
void vfs_import_forget(vfs_import *im);
/* Place the node n (a new file or symlink) at path, relative to the base:
 * an entry already there that is not a directory is removed first (so the
 * new node replaces it, never writing through it); missing directories
 * are made, the one holding path with mode pmode, those above with mid
 * (modes as given: apply the umask first). 0 or -errno (n consumed), or 1
 * (n left to the caller) when the general calls must do it: a directory
 * at path, `..` in it, or a directory on the way that is not a plain one
 * of this tree (a symlink, a host layer's). */
int vfs_import_node(vfs_import *im, const char *path, unsigned mid,
                    unsigned pmode, vnode *n);
/* The directory at path, made with mode when missing (its parents as for
 * vfs_import_node): *out is it, exclusive to this tree, until the tree
 * changes. 0, 1 (the general calls must do it, as above) or -errno. */
int vfs_import_dir_at(vfs_import *im, const char *path, unsigned mid,
                      unsigned pmode, unsigned mode, vnode **out);

/* ---- walk.c ---- */
/* Pre-order walk of a tree with its position on the heap (no recursion:
 * trees may be deeper than any stack). vwalk_next yields the entries of the
 * innermost open directory in byte order, then those of the directories
 * around it; after an entry, vwalk_enter opens a directory so its entries
 * come next. With a path buffer, the entry's path is kept there: the text
 * the buffer held at the first vwalk_enter, then "/name" per level. */
typedef struct vwalk {
  mem *m;
  const dmap **st; /* in-order stacks of every open directory */
  size_t sp, cap;
  struct vwalk_fr {
    size_t base, plen;
  } * fr;
  size_t nfr, capfr;
  buf *path; /* NULL: no paths */
} vwalk;
void vwalk_init(vwalk *w, mem *m, buf *path);
int vwalk_enter(vwalk *w, const vnode *dir);  /* 0 or -ENOMEM */
int vwalk_next(vwalk *w, const dmap **entry); /* 1, 0 at the end, <0 */
void vwalk_free(vwalk *w);

/* ---- snap.c ---- */
/* The link table (and counters) as seen from outside this vfs: without the
 * inodes only its open handles keep alive. */
int vfs_shared_links(vfs *v, dmap **links, uint64_t *bytes, uint64_t *inodes);

/* ---- host.c ---- */
void vmount_unref(vmount *mt);
vmount *vmount_ref(vmount *mt);

#endif
