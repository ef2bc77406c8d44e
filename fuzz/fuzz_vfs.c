// layers: core vfs
/*
 * fuzz_vfs.c - interprets the input as a sequence of vfs operations on a
 * small alphabet of names and checks invariants after each: link counts,
 * quota counters equal to a recount, no unreachable inode (vfs_check), and
 * that a snapshot taken earlier still persists to the same bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/vfs.h"

typedef struct fin {
  const uint8_t *p;
  size_t n;
} fin;

static uint8_t next(fin *in) {
  if (!in->n)
    return 0;
  in->n--;
  return *in->p++;
}

static const char *const names[] = {"a",  "b", "c",   "d",
                                    "..", ".", "e f", "x\ny"};

/* A relative path of one to three components. */
static void path(fin *in, char *out, size_t cap) {
  uint8_t b = next(in);
  int k = 1 + b % 3;
  out[0] = 0;
  size_t len = 0;
  if (b & 0x80) {
    len = (size_t)snprintf(out, cap, "/w/");
  }
  for (int i = 0; i < k; i++) {
    const char *nm = names[next(in) % (sizeof names / sizeof names[0])];
    len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "/" : "", nm);
  }
}

typedef struct hash {
  uint64_t h;
} hash;

static int hash_sink(void *ud, const void *d, size_t n) {
  hash *h = ud;
  const uint8_t *p = d;
  for (size_t i = 0; i < n; i++)
    h->h = (h->h ^ p[i]) * 1099511628211ull;
  return 0;
}

/* A persisted tree, for hydrating it elsewhere. */
typedef struct tape {
  char *p;
  size_t n, cap, pos, chunk;
} tape;

static int tape_sink(void *ud, const void *p, size_t n) {
  tape *t = ud;
  if (t->n + n > t->cap) {
    size_t nc = (t->n + n) * 2;
    char *q = realloc(t->p, nc);
    if (!q)
      abort();
    t->p = q;
    t->cap = nc;
  }
  memcpy(t->p + t->n, p, n);
  t->n += n;
  return 0;
}

static long tape_read(void *ud, void *buf, size_t len) {
  tape *t = ud;
  size_t k = t->n - t->pos;
  if (k > len)
    k = len;
  if (k > t->chunk)
    k = t->chunk;
  memcpy(buf, t->p + t->pos, k);
  t->pos += k;
  return (long)k;
}

/* Fingerprint of a snapshot: the tar stream of a vfs seeded from it. */
static uint64_t snap_print(mem *m, vfs_snap *s) {
  vfs *w = vfs_new_from(m, s, NULL);
  if (!w)
    abort();
  hash h = {1469598103934665603ull};
  int rc = vfs_persist(w, "/", "/", NULL, hash_sink, &h);
  vfs_free(w);
  return rc ? (uint64_t)rc : h.h;
}

static void check(vfs *v, const char *what) {
  char msg[256];
  if (vfs_check(v, msg, sizeof msg)) {
    fprintf(stderr, "invariant broken after %s: %s\n", what, msg);
    abort();
  }
}

static int count_change(void *ud, int kind, const char *path, unsigned what) {
  (void)kind;
  (void)what;
  if (!path || path[0] != '/')
    abort();
  (*(long *)ud)++;
  return 0;
}

static int64_t fuzz_clock(void *ud, int mono) {
  (void)mono;
  return (*(int64_t *)ud)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fin in = {data, size};
  int64_t t = 1000000000;
  mem *m = mem_new(NULL, NULL, 0);
  vfs_config cfg = {.clock = fuzz_clock, .clock_ud = &t};
  vfs *v = vfs_new(m, &cfg);
  if (!v || vfs_default_layout(v))
    abort();
  vfs_set_user(v, 0, 0); /* /w: a root-owned 0777 playground */
  if (vfs_mkdir(v, "/", "/w", 0777) || vfs_chmod(v, "/", "/w", 0777))
    abort();
  vfs_set_user(v, 1000, 1000);
  vfs_set_quota(v, 4096, 200);
  vfs_file *fh[4] = {0};
  vfs_snap *snap = NULL;
  uint64_t print = 0;
  char p1[64], p2[64];
  const char *cwd = "/w";
  int ops = 0;
  while (in.n && ops++ < 400) {
    uint8_t op = next(&in) % 23;
    char buf[64];
    size_t len;
    switch (op) {
    case 0:
    case 1:
      path(&in, p1, sizeof p1);
      len = next(&in) % 40;
      memset(buf, 'a' + op, len);
      if (op)
        vfs_append_file(v, cwd, p1, buf, len);
      else
        vfs_write_file(v, cwd, p1, buf, len, 0);
      break;
    case 2:
      path(&in, p1, sizeof p1);
      vfs_mkdir(v, cwd, p1, 0777);
      break;
    case 3:
      path(&in, p1, sizeof p1);
      vfs_mkdir_p(v, cwd, p1, 0777);
      break;
    case 4:
      path(&in, p1, sizeof p1);
      vfs_rmdir(v, cwd, p1);
      break;
    case 5:
      path(&in, p1, sizeof p1);
      vfs_unlink(v, cwd, p1);
      break;
    case 6:
      path(&in, p1, sizeof p1);
      vfs_rm_rf(v, cwd, p1);
      break;
    case 7:
      path(&in, p1, sizeof p1);
      path(&in, p2, sizeof p2);
      vfs_rename(v, cwd, p1, p2);
      break;
    case 8:
      path(&in, p1, sizeof p1);
      path(&in, p2, sizeof p2);
      vfs_link(v, cwd, p1, p2);
      break;
    case 9:
      path(&in, p1, sizeof p1);
      path(&in, p2, sizeof p2);
      vfs_symlink(v, cwd, p1, p2);
      break;
    case 10:
      path(&in, p1, sizeof p1);
      vfs_chmod(v, cwd, p1, (unsigned)(next(&in) << 1) & 0777);
      break;
    case 11:
      path(&in, p1, sizeof p1);
      vfs_truncate(v, cwd, p1, next(&in) % 64);
      break;
    case 12: {
      int i = next(&in) % 4;
      path(&in, p1, sizeof p1);
      static const int fl[] = {O_RDONLY, O_WRONLY | O_CREAT,
                               O_RDWR | O_CREAT | O_TRUNC, O_WRONLY | O_APPEND};
      if (!fh[i])
        vfs_open(v, cwd, p1, fl[next(&in) % 4], 0666, &fh[i]);
      break;
    }
    case 13: {
      int i = next(&in) % 4;
      if (fh[i]) {
        len = next(&in) % 30;
        memset(buf, 'h', len);
        vfs_write(fh[i], buf, len);
        vfs_read(fh[i], buf, sizeof buf);
        size_t dl;
        vfs_file_data(fh[i], &dl);
      }
      break;
    }
    case 14: {
      int i = next(&in) % 4;
      vfs_close(fh[i]);
      fh[i] = NULL;
      break;
    }
    case 15:
      vfs_snap_free(snap);
      snap = vfs_snapshot(v);
      print = snap_print(m, snap);
      break;
    case 16:
      if (snap) {
        /* handles refer to inodes of the old tree: close them first */
        for (int i = 0; i < 4; i++) {
          vfs_close(fh[i]);
          fh[i] = NULL;
        }
        vfs_restore(v, snap);
      }
      break;
    case 17: {
      vfs *f = vfs_fork(v);
      path(&in, p1, sizeof p1);
      vfs_write_file(f, cwd, p1, "fork", 4, 0);
      vfs_rm_rf(f, "/", "/w");
      check(f, "fork");
      vfs_free(f);
      break;
    }
    case 18: {
      static const uint32_t users[] = {1000, 1001, 0};
      uint32_t u = users[next(&in) % 3];
      vfs_set_user(v, u, u);
      break;
    }
    case 19:
      if (snap) {
        long nchanges = 0;
        if (vfs_diff(v, snap, NULL, count_change, &nchanges))
          abort();
      }
      break;
    case 20: {
      vfs_stat_t st;
      char *s;
      path(&in, p1, sizeof p1);
      vfs_stat(v, cwd, p1, &st);
      vfs_lstat(v, cwd, p1, &st);
      vfs_access(v, cwd, p1, R_OK | W_OK);
      if (!vfs_realpath(v, cwd, p1, &s))
        vfs_release(v, s);
      char **nm;
      size_t nn;
      if (!vfs_readdir(v, cwd, p1, &nm, &nn))
        vfs_free_names(v, nm, nn);
      break;
    }
    case 21: {
      path(&in, p1, sizeof p1);
      vfs_utimes(v, cwd, p1, VFS_UTIME_NOW, next(&in), next(&in) & 1);
      break;
    }
    case 22: {
      /* a subtree persisted and hydrated over another path of the same
       * tree (through the importer, over what is there), from memory or
       * from a stream read a few bytes at a time */
      path(&in, p1, sizeof p1);
      path(&in, p2, sizeof p2);
      tape t = {0};
      t.chunk = 1 + next(&in) % 600;
      if (!vfs_persist(v, cwd, p1, NULL, tape_sink, &t)) {
        if (t.chunk & 1)
          vfs_hydrate(v, cwd, p2, t.p, t.n, NULL, 0);
        else
          vfs_hydrate_stream(v, cwd, p2, tape_read, &t, NULL, 0);
      }
      free(t.p);
      break;
    }
    }
    check(v, "op");
    if (snap && (ops % 16 == 0) && snap_print(m, snap) != print) {
      fprintf(stderr, "snapshot changed\n");
      abort();
    }
  }
  if (snap && snap_print(m, snap) != print) {
    fprintf(stderr, "snapshot changed\n");
    abort();
  }
  for (int i = 0; i < 4; i++)
    vfs_close(fh[i]);
  check(v, "close");
  vfs_snap_free(snap);
  vfs_free(v);
  if (mem_used(m)) {
    fprintf(stderr, "leak: %zu bytes\n", mem_used(m));
    abort();
  }
  mem_unref(m);
  return 0;
}
