// layers: core vfs
/*
 * test_vfs_roundtrip.c - persist then hydrate gives back the same tree, byte
 * for byte and mode for mode, over many random trees: random modes (setuid,
 * setgid, sticky, 0), symlinks (relative, absolute, dangling, climbing out),
 * hard links, empty directories, binary files (empty, small, large), deep
 * paths and long names, odd mtimes (0, negative, past ustar's 11 digits).
 *
 * VSH_ROUNDTRIP_TREES sets the number of trees (10,000 by default, fewer in
 * the sanitizer build), VSH_ROUNDTRIP_SEED the first seed (default: the
 * time). A failure prints the seed of its tree; rerun it alone with
 * VSH_ROUNDTRIP_SEED=<seed> VSH_ROUNDTRIP_TREES=1.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "vfs/vfs.h"
#include "vfs_harness.h"

#ifdef VSH_SANITIZER_BUILD
#define DEFAULT_TREES 300
#else
#define DEFAULT_TREES 10000
#endif

#define WS "/home/user/ws"

/* xorshift64*: small, seedable, the same on every platform */
static uint64_t rng;
static uint64_t rnd(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1Dull;
}
static unsigned below(unsigned n) {
  return (unsigned)(rnd() % n);
}

/* ---- the random tree ---------------------------------------------------- */

typedef struct names {
  char **p;
  size_t n, cap;
} names;

static void names_add(names *s, const char *path) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 32;
    s->p = realloc(s->p, s->cap * sizeof *s->p);
    assert_non_null(s->p);
  }
  s->p[s->n] = strdup(path);
  assert_non_null(s->p[s->n]);
  s->n++;
}

static void names_free(names *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->p[i]);
  free(s->p);
  memset(s, 0, sizeof *s);
}

static void rand_name(char *out, size_t len) {
  static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
                            "YZ0123456789._- \t\n'\"$*?[]\\\x01\xc3\xa9\xff";
  for (;;) {
    for (size_t i = 0; i < len; i++)
      out[i] = set[below(sizeof set - 1)];
    out[len] = 0;
    if (strcmp(out, ".") && strcmp(out, ".."))
      return;
  }
}

static unsigned rand_mode(void) {
  static const unsigned picks[] = {0,     0644,  0755,  0600, 04755,
                                   02755, 01777, 07777, 0444, 0111};
  return below(3) ? picks[below(sizeof picks / sizeof picks[0])]
                  : (unsigned)below(07777 + 1);
}

static int64_t rand_time(void) {
  switch (below(6)) {
  case 0:
    return 0;
  case 1:
    return -(int64_t)below(1u << 30) * 1000000000 - below(1000000000);
  case 2:
    return (int64_t)0100000000000 * 1000000000 +
           below(1000000000); /* > ustar */
  default:
    return (int64_t)below(2000000000) * 1000000000 + below(1000000000);
  }
}

static void rand_bytes(char *p, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    uint64_t x = rnd();
    memcpy(p + i, &x, n - i < 8 ? n - i : 8);
  }
}

static void build(vfs *v) {
  names dirs = {0}, files = {0}, all = {0};
  names_add(&dirs, WS);
  assert_int_equal(vfs_mkdir_p(v, "/", WS, 0755), 0);
  int ops = 5 + (int)below(40);
  char path[4096], name[256];
  static char data[1 << 20];
  for (int i = 0; i < ops; i++) {
    const char *dir = dirs.p[below((unsigned)dirs.n)];
    size_t dl = strlen(dir);
    size_t nl = below(10) ? 1 + below(12) : 100 + below(156);
    if (dl + 1 + nl > 3500)
      nl = 1 + below(4);
    if (dl + 1 + nl > 3500)
      continue;
    rand_name(name, nl);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    vfs_stat_t st;
    if (vfs_lstat(v, "/", path, &st) == 0)
      continue;
    int kind = (int)below(10);
    if (kind < 3) {
      assert_int_equal(vfs_mkdir(v, "/", path, 0755), 0);
      names_add(&dirs, path);
      if (!below(4)) { /* a deep chain below it */
        int depth = 10 + (int)below(150);
        for (int k = 0; k < depth && strlen(path) + 3 < 3500; k++) {
          strcat(path, below(2) ? "/d" : "/e");
          assert_int_equal(vfs_mkdir(v, "/", path, 0755), 0);
          names_add(&all, path);
        }
        names_add(&dirs, path);
      }
    } else if (kind < 7) {
      /* mostly small, some empty, a few large (up to 1 MiB, rarely) */
      size_t len = below(4) ? below(600) : below(3) ? 0 : below(4096);
      if (!below(30))
        len = below(64 << 10);
      if (!below(500))
        len = sizeof data;
      rand_bytes(data, len);
      assert_int_equal(vfs_write_file(v, "/", path, data, len, 0644), 0);
      names_add(&files, path);
    } else if (kind < 9) {
      char target[600];
      switch (below(5)) {
      case 0: /* relative, to something that exists */
        snprintf(target, sizeof target, "%s",
                 all.n ? all.p[below((unsigned)all.n)] + strlen(WS) + 1
                       : "missing");
        break;
      case 1:
        snprintf(target, sizeof target, "/etc/passwd");
        break;
      case 2:
        snprintf(target, sizeof target, "%s",
                 all.n ? all.p[below((unsigned)all.n)] : "/nowhere");
        break;
      case 3:
        snprintf(target, sizeof target, "../../../../outside/x");
        break;
      default:
        rand_name(target, 1 + below(200)); /* dangling, maybe odd bytes */
        break;
      }
      assert_int_equal(vfs_symlink(v, "/", target, path), 0);
    } else if (files.n) {
      assert_int_equal(
          vfs_link(v, "/", files.p[below((unsigned)files.n)], path), 0);
    } else {
      continue;
    }
    names_add(&all, path);
  }
  /* modes and times last: directories are filled first */
  for (size_t i = all.n; i-- > 0;) {
    vfs_stat_t st;
    assert_int_equal(vfs_lstat(v, "/", all.p[i], &st), 0);
    if (st.type != VFS_LNK && below(3))
      assert_int_equal(vfs_chmod(v, "/", all.p[i], rand_mode()), 0);
    int64_t t = rand_time();
    assert_int_equal(vfs_utimes(v, "/", all.p[i], t, t, VFS_NOFOLLOW), 0);
  }
  assert_int_equal(vfs_chmod(v, "/", WS, rand_mode()), 0);
  int64_t t = rand_time();
  assert_int_equal(vfs_utimes(v, "/", WS, t, t, 0), 0);
  names_free(&dirs);
  names_free(&files);
  names_free(&all);
}

/* ---- the tree as a flat, comparable list -------------------------------- */

typedef struct ent {
  char *path; /* relative */
  vfs_stat_t st;
  char *data; /* content or link target */
  size_t len;
  size_t first; /* index of the first entry with the same inode */
} ent;

typedef struct flat {
  ent *e;
  size_t n, cap;
} flat;

static int64_t floor_sec(int64_t ns) {
  return ns >= 0 ? ns / 1000000000 : -((-ns + 999999999) / 1000000000);
}

/* Breadth-first with a queue of paths: no recursion, any depth. */
static void flatten(vfs *v, flat *f) {
  memset(f, 0, sizeof *f);
  names q = {0};
  names_add(&q, "");
  for (size_t qi = 0; qi < q.n; qi++) {
    char full[4200];
    snprintf(full, sizeof full, "%s%s%s", WS, *q.p[qi] ? "/" : "", q.p[qi]);
    if (f->n == f->cap) {
      f->cap = f->cap ? f->cap * 2 : 64;
      f->e = realloc(f->e, f->cap * sizeof *f->e);
      assert_non_null(f->e);
    }
    ent *e = &f->e[f->n++];
    memset(e, 0, sizeof *e);
    e->path = strdup(q.p[qi]);
    assert_int_equal(vfs_lstat(v, "/", full, &e->st), 0);
    e->first = f->n - 1;
    if (e->st.type == VFS_REG) {
      assert_int_equal(vfs_read_file(v, "/", full, &e->data, &e->len), 0);
      for (size_t k = 0; k + 1 < f->n; k++)
        if (f->e[k].st.type == VFS_REG && f->e[k].st.ino == e->st.ino) {
          e->first = k;
          break;
        }
    } else if (e->st.type == VFS_LNK) {
      assert_int_equal(vfs_readlink(v, "/", full, &e->data, &e->len), 0);
    } else if (e->st.type == VFS_DIR) {
      char **nm;
      size_t cnt;
      assert_int_equal(vfs_readdir(v, "/", full, &nm, &cnt), 0);
      for (size_t k = 0; k < cnt; k++) {
        char sub[4200];
        snprintf(sub, sizeof sub, "%s%s%s", q.p[qi], *q.p[qi] ? "/" : "",
                 nm[k]);
        names_add(&q, sub);
      }
      vfs_free_names(v, nm, cnt);
    }
  }
  names_free(&q);
}

static void flat_free(vfs *v, flat *f) {
  for (size_t i = 0; i < f->n; i++) {
    free(f->e[i].path);
    if (f->e[i].data)
      vfs_release(v, f->e[i].data);
  }
  free(f->e);
}

/* "" when equal, else what differs first. */
static const char *compare(const flat *a, const flat *b, char *why,
                           size_t cap) {
  if (a->n != b->n) {
    snprintf(why, cap, "%zu entries before, %zu after", a->n, b->n);
    return why;
  }
  for (size_t i = 0; i < a->n; i++) {
    const ent *x = &a->e[i], *y = &b->e[i];
    const char *what = NULL;
    if (strcmp(x->path, y->path))
      what = "name";
    else if (x->st.type != y->st.type)
      what = "type";
    else if (x->st.type != VFS_LNK && x->st.mode != y->st.mode)
      what = "mode";
    else if (floor_sec(x->st.mtime_ns) != floor_sec(y->st.mtime_ns))
      what = "mtime";
    else if (x->len != y->len || (x->len && memcmp(x->data, y->data, x->len)))
      what = x->st.type == VFS_LNK ? "symlink target" : "content";
    else if (x->first != y->first || x->st.nlink != y->st.nlink)
      what = "hard links";
    if (what) {
      snprintf(why, cap, "'%s': %s differs (mode %o/%o, mtime %lld/%lld)",
               x->path, what, x->st.mode, y->st.mode, (long long)x->st.mtime_ns,
               (long long)y->st.mtime_ns);
      return why;
    }
  }
  return "";
}

static void one_tree(mem *m, uint64_t seed) {
  rng = seed * 0x9E3779B97F4A7C15ull + 1;
  vfs *v = mkvfs(m);
  vfs_privileged_enter(v); /* modes without x or w do not stop the builder */
  build(v);
  vfs_privileged_leave(v);
  tbuf t = {0};
  int rc = vfs_persist(v, "/", WS, NULL, tbuf_sink, &t);
  if (rc)
    fail_msg("seed %llu: persist failed: %d", (unsigned long long)seed, rc);
  vfs *w = mkvfs(m);
  char msg[256];
  rc = vfs_hydrate(w, "/", WS, t.p, t.n, msg, sizeof msg);
  if (rc)
    fail_msg("seed %llu: hydrate failed: %d %s", (unsigned long long)seed, rc,
             msg);
  flat a, b;
  vfs_privileged_enter(v);
  vfs_privileged_enter(w);
  flatten(v, &a);
  flatten(w, &b);
  char why[600];
  const char *d = compare(&a, &b, why, sizeof why);
  if (*d)
    fail_msg("seed %llu: %s", (unsigned long long)seed, d);
  check_ok(w);
  flat_free(v, &a);
  flat_free(w, &b);
  free(t.p);
  vfs_free(w);
  vfs_free(v);
}

static void test_roundtrip_property(void **state) {
  (void)state;
  const char *n_env = getenv("VSH_ROUNDTRIP_TREES");
  const char *s_env = getenv("VSH_ROUNDTRIP_SEED");
  unsigned long n = n_env ? strtoul(n_env, NULL, 10) : DEFAULT_TREES;
  uint64_t seed0 =
      s_env ? strtoull(s_env, NULL, 10) : (uint64_t)time(NULL) * 1000;
  print_message("round trip: %lu trees from seed %llu\n", n,
                (unsigned long long)seed0);
  mem *m = mem_new(NULL, NULL, 0);
  for (unsigned long i = 0; i < n; i++)
    one_tree(m, seed0 + i);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip_property),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
