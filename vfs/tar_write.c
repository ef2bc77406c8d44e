/*
 * tar_write.c - persist: a directory tree as a ustar stream, with pax
 * extended headers for names, link targets, sizes or times that ustar cannot
 * hold (as GNU tar does: a name of any length is written, never cut).
 *
 * A file with several names inside the tree is written once, as a regular
 * member under the first name met, and as hard-link members ('1', naming
 * that first member) under the others, like GNU tar, so hydrate gives back
 * one inode with all its names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "vfs/internal.h"

typedef struct tw {
  vfs *v;
  vsh_write_fn fn;
  void *ud;
  char **skip; /* relative paths, normalised */
  size_t nskip;
  buf path; /* "./rel" of the current member */
  int rc;
  /* inodes with several names already written: number -> member name */
  struct hl {
    uint64_t ino;
    char *name;
  } * hl;
  size_t nhl, caphl; /* open addressing, caphl a power of two or 0 */
} tw;

static int out(tw *t, const void *p, size_t n) {
  if (!t->rc && n && t->fn(t->ud, p, n))
    t->rc = -ECANCELED;
  return t->rc;
}

static void octal(char *f, size_t w, uint64_t x) {
  /* w-1 digits and a NUL, zero padded */
  f[w - 1] = 0;
  for (size_t i = w - 1; i-- > 0;) {
    f[i] = (char)('0' + (x & 7));
    x >>= 3;
  }
}

static int pad(tw *t, uint64_t n) {
  static const char zero[512];
  size_t r = (size_t)(n % 512);
  return r ? out(t, zero, 512 - r) : t->rc;
}

static int pax_record(buf *b, const char *key, const char *val, size_t vlen) {
  /* "LEN key=value\n" where LEN counts the whole record, itself included */
  size_t base = strlen(key) + vlen + 3;
  size_t len = base + 1;
  for (;;) {
    char tmp[32];
    size_t d = (size_t)snprintf(tmp, sizeof tmp, "%zu", len);
    if (base + d == len)
      break;
    len = base + d;
  }
  if (buf_printf(b, "%zu %s=", len, key) || buf_append(b, val, vlen) ||
      buf_putc(b, '\n'))
    return -ENOMEM;
  return 0;
}

static int header(tw *t, char type, const vnode *n, uint64_t size,
                  const char *link, size_t llen) {
  const char *name = buf_cstr(&t->path);
  size_t nlen = t->path.len;
  bool big = size > 077777777777ull;
  /* seconds only, as ustar holds them; a pax mtime when they do not fit */
  int64_t mt = n->mtime / 1000000000;
  if (n->mtime < 0 && n->mtime % 1000000000)
    mt--; /* floor */
  bool odd_time = mt < 0 || mt > 077777777777ll;
  if (nlen > 100 || llen > 100 || big || odd_time) {
    buf pax;
    buf_init(&pax, t->v->m);
    int rc = 0;
    if (nlen > 100)
      rc = pax_record(&pax, "path", name, nlen);
    if (!rc && llen > 100)
      rc = pax_record(&pax, "linkpath", link, llen);
    if (!rc && big) {
      char num[32];
      int k = snprintf(num, sizeof num, "%llu", (unsigned long long)size);
      rc = pax_record(&pax, "size", num, (size_t)k);
    }
    if (!rc && odd_time) {
      char num[32];
      int k = snprintf(num, sizeof num, "%lld", (long long)mt);
      rc = pax_record(&pax, "mtime", num, (size_t)k);
    }
    if (rc) {
      buf_free(&pax);
      return t->rc = rc;
    }
    char h[512] = {0};
    snprintf(h, 100, "./PaxHeaders/%llu", (unsigned long long)n->ino);
    octal(h + 100, 8, 0644);
    octal(h + 108, 8, 0);
    octal(h + 116, 8, 0);
    octal(h + 124, 12, pax.len);
    octal(h + 136, 12, 0);
    h[156] = 'x';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
      sum += (unsigned char)h[i];
    snprintf(h + 148, 8, "%06o", sum);
    out(t, h, 512);
    out(t, pax.data, pax.len);
    pad(t, pax.len);
    buf_free(&pax);
  }
  char h[512] = {0};
  memcpy(h, name, nlen > 100 ? 100 : nlen);
  octal(h + 100, 8, n->mode & 07777);
  octal(h + 108, 8, n->uid & 07777777);
  octal(h + 116, 8, n->gid & 07777777);
  octal(h + 124, 12, big ? 0 : size);
  octal(h + 136, 12, odd_time ? 0 : (uint64_t)mt);
  h[156] = type;
  if (link)
    memcpy(h + 157, link, llen > 100 ? 100 : llen);
  memcpy(h + 257, "ustar", 6);
  memcpy(h + 263, "00", 2);
  memcpy(h + 265, "user", 4);
  memcpy(h + 297, "user", 4);
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (int i = 0; i < 512; i++)
    sum += (unsigned char)h[i];
  snprintf(h + 148, 8, "%06o", sum);
  return out(t, h, 512);
}

static bool skipped(const tw *t) {
  /* t->path is "./rel": compare rel */
  const char *rel = buf_cstr(&t->path) + 2;
  for (size_t i = 0; i < t->nskip; i++)
    if (!strcmp(rel, t->skip[i]))
      return true;
  return false;
}

/* The slot of ino in the hard-link table (empty or holding ino). */
static struct hl *hl_slot(tw *t, uint64_t ino) {
  size_t mask = t->caphl - 1, i = (size_t)(ino * 0x9E3779B97F4A7C15ull) & mask;
  while (t->hl[i].name && t->hl[i].ino != ino)
    i = (i + 1) & mask;
  return &t->hl[i];
}

static int hl_add(tw *t, uint64_t ino) {
  if ((t->nhl + 1) * 2 > t->caphl) {
    size_t nc = t->caphl ? t->caphl * 2 : 64;
    struct hl *old = t->hl;
    size_t oc = t->caphl;
    if (!(t->hl = mem_calloc(t->v->m, nc, sizeof *t->hl))) {
      t->hl = old;
      return -ENOMEM;
    }
    t->caphl = nc;
    for (size_t i = 0; i < oc; i++)
      if (old[i].name)
        *hl_slot(t, old[i].ino) = old[i];
    mem_free(t->v->m, old);
  }
  struct hl *e = hl_slot(t, ino);
  if (!(e->name = mem_strndup(t->v->m, t->path.data, t->path.len)))
    return -ENOMEM;
  e->ino = ino;
  t->nhl++;
  return 0;
}

/* One member for the entry d (t->path holds its name); 1 when it is a
 * directory whose entries come next. */
static int member(tw *t, const dmap *d) {
  vnode *n = vfs_deref(t->v->links, d->val);
  if (!n || skipped(t))
    return 0;
  switch (n->type) {
  case VFS_DIR:
    if (atomic_load(&n->lazy) == VN_LAZY_DIR && vfs_host_load_dir(n) == -ENOMEM)
      return t->rc = -ENOMEM;
    header(t, '5', n, 0, NULL, 0);
    return t->rc ? t->rc : 1;
  case VFS_REG:
    if (d->val->type == VN_STUB && n->nlink > 1) {
      struct hl *e = t->caphl ? hl_slot(t, n->ino) : NULL;
      if (e && e->name)
        return header(t, '1', n, 0, e->name, strlen(e->name));
      if (hl_add(t, n->ino))
        return t->rc = -ENOMEM;
    }
    if (atomic_load(&n->lazy) == VN_LAZY_FILE) {
      int rc = vfs_host_load_file(n); /* never written cut short */
      if (rc < 0)
        return t->rc = rc;
    }
    header(t, '0', n, n->size, NULL, 0);
    if (n->u.data)
      out(t, n->u.data->data, n->u.data->len);
    return pad(t, n->size);
  case VFS_LNK:
    return header(t, '2', n, 0, n->u.lnk.target, n->u.lnk.len);
  default: /* devices and inert host specials are not persisted */
    return 0;
  }
}

/* The whole tree below root, iteratively (trees may be deeper than any
 * stack; names of any length go into pax headers). */
static int walk(tw *t, vnode *root) {
  vwalk w;
  vwalk_init(&w, t->v->m, &t->path);
  const dmap *d;
  int rc = 0;
  if (atomic_load(&root->lazy) == VN_LAZY_DIR &&
      vfs_host_load_dir(root) == -ENOMEM)
    rc = -ENOMEM;
  if (!rc)
    rc = vwalk_enter(&w, root);
  while (!rc && !t->rc && (rc = vwalk_next(&w, &d)) == 1) {
    rc = member(t, d);
    if (rc == 1)
      rc = vwalk_enter(&w, vfs_deref(t->v->links, d->val));
  }
  vwalk_free(&w);
  if (rc < 0 && !t->rc)
    t->rc = rc;
  return t->rc;
}

/* Skip entries become paths relative to the persisted directory. */
static char *norm_skip(mem *m, const char *s, const char *base) {
  size_t bl = strlen(base);
  if (s[0] == '/') {
    if (bl == 1)
      s++;
    else if (!strncmp(s, base, bl) && s[bl] == '/')
      s += bl + 1;
    else
      return NULL; /* outside: cannot match */
  }
  buf b;
  buf_init(&b, m);
  while (*s) {
    while (*s == '/')
      s++;
    const char *e = s;
    while (*e && *e != '/')
      e++;
    size_t len = (size_t)(e - s);
    if (len && !(len == 1 && s[0] == '.')) {
      if ((b.len && buf_putc(&b, '/')) || buf_append(&b, s, len)) {
        buf_free(&b);
        return NULL;
      }
    }
    s = e;
  }
  if (!b.len) {
    buf_free(&b);
    return NULL;
  }
  return buf_take(&b, NULL);
}

int vfs_persist(vfs *v, const char *cwd, const char *dir,
                const char *const *skip, vsh_write_fn fn, void *ud) {
  char *base;
  int rc = vfs_realpath(v, cwd, dir, &base);
  if (rc)
    return rc;
  vres r;
  v->priv++;
  rc = vfs_resolve(v, "/", base, R_FOLLOW, &r);
  v->priv--;
  if (rc) {
    mem_free(v->m, base);
    return rc;
  }
  vnode *root = vnode_ref(r.node);
  vres_free(v, &r);
  tw t = {.v = v, .fn = fn, .ud = ud};
  buf_init(&t.path, v->m);
  if (root->type != VFS_DIR)
    rc = -ENOTDIR;
  size_t ns = 0;
  while (skip && skip[ns])
    ns++;
  if (!rc && ns && !(t.skip = mem_calloc(v->m, ns, sizeof *t.skip)))
    rc = -ENOMEM;
  for (size_t i = 0; !rc && i < ns; i++) {
    char *s = norm_skip(v->m, skip[i], base);
    if (s)
      t.skip[t.nskip++] = s;
  }
  if (!rc && buf_puts(&t.path, "."))
    rc = -ENOMEM;
  if (!rc) {
    header(&t, '5', root, 0, NULL, 0);
    walk(&t, root);
    static const char zero[1024];
    out(&t, zero, sizeof zero);
    rc = t.rc;
  }
  for (size_t i = 0; i < t.nskip; i++)
    mem_free(v->m, t.skip[i]);
  for (size_t i = 0; i < t.caphl; i++)
    mem_free(v->m, t.hl[i].name);
  mem_free(v->m, t.hl);
  mem_free(v->m, t.skip);
  buf_free(&t.path);
  vnode_unref(root);
  mem_free(v->m, base);
  return rc;
}
