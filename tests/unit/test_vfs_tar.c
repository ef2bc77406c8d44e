// layers: core vfs
/*
 * test_vfs_tar.c - persist and hydrate: round trips, gzip, and hostile
 * archives built here, one per rule.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cmocka.h>

#include "vfs/vfs.h"
#include "vfs_harness.h"

#define H "/home/user"

/* A raw ustar member. */
static void member(tbuf *b, const char *name, char type, unsigned mode,
                   const char *data, size_t len, const char *link) {
  char h[512] = {0};
  snprintf(h, 100, "%s", name);
  snprintf(h + 100, 8, "%07o", mode);
  snprintf(h + 108, 8, "%07o", 1000);
  snprintf(h + 116, 8, "%07o", 1000);
  snprintf(h + 124, 12, "%011zo", len);
  snprintf(h + 136, 12, "%011o", 1700000000);
  h[156] = type;
  if (link)
    snprintf(h + 157, 100, "%s", link);
  memcpy(h + 257, "ustar", 6);
  memcpy(h + 263, "00", 2);
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (int i = 0; i < 512; i++)
    sum += (unsigned char)h[i];
  snprintf(h + 148, 8, "%06o", sum);
  tbuf_sink(b, h, 512);
  if (len) {
    tbuf_sink(b, data, len);
    static const char z[512];
    if (len % 512)
      tbuf_sink(b, z, 512 - len % 512);
  }
}

static void end(tbuf *b) {
  static const char z[1024];
  tbuf_sink(b, z, 1024);
}

/* Compare two trees: type, mode, content, link target, mtime seconds. */
static void same_tree(vfs *a, const char *pa, vfs *b, const char *pb) {
  char **na, **nb;
  size_t ca, cb;
  assert_int_equal(vfs_readdir(a, "/", pa, &na, &ca), 0);
  assert_int_equal(vfs_readdir(b, "/", pb, &nb, &cb), 0);
  assert_int_equal(ca, cb);
  for (size_t i = 0; i < ca; i++) {
    assert_string_equal(na[i], nb[i]);
    char xa[4200], xb[4200];
    snprintf(xa, sizeof xa, "%s/%s", pa, na[i]);
    snprintf(xb, sizeof xb, "%s/%s", pb, nb[i]);
    vfs_stat_t sa, sb;
    assert_int_equal(vfs_lstat(a, "/", xa, &sa), 0);
    assert_int_equal(vfs_lstat(b, "/", xb, &sb), 0);
    assert_int_equal(sa.type, sb.type);
    if (sa.type != VFS_LNK)
      assert_int_equal(sa.mode, sb.mode);
    assert_int_equal(sa.mtime_ns / 1000000000, sb.mtime_ns / 1000000000);
    if (sa.type == VFS_DIR) {
      same_tree(a, xa, b, xb);
    } else if (sa.type == VFS_REG) {
      char *da, *db;
      size_t la, lb;
      assert_int_equal(vfs_read_file(a, "/", xa, &da, &la), 0);
      assert_int_equal(vfs_read_file(b, "/", xb, &db, &lb), 0);
      assert_int_equal(la, lb);
      assert_memory_equal(da, db, la);
      vfs_release(a, da);
      vfs_release(b, db);
    } else if (sa.type == VFS_LNK) {
      char *ta, *tb;
      assert_int_equal(vfs_readlink(a, "/", xa, &ta, NULL), 0);
      assert_int_equal(vfs_readlink(b, "/", xb, &tb, NULL), 0);
      assert_string_equal(ta, tb);
      vfs_release(a, ta);
      vfs_release(b, tb);
    }
  }
  vfs_free_names(a, na, ca);
  vfs_free_names(b, nb, cb);
}

static void build_tree(vfs *v) {
  assert_int_equal(vfs_mkdir_p(v, H, "ws/src/deep/er", 0755), 0);
  assert_int_equal(vfs_write_file(v, H, "ws/README.md", "# hi\n", 5, 0644), 0);
  assert_int_equal(vfs_write_file(v, H, "ws/run.sh", "echo\n", 5, 0755), 0);
  char big[3000];
  for (size_t i = 0; i < sizeof big; i++)
    big[i] = (char)(i * 7);
  assert_int_equal(vfs_write_file(v, H, "ws/src/bin.dat", big, sizeof big, 0),
                   0);
  assert_int_equal(vfs_write_file(v, H, "ws/src/empty", "", 0, 0), 0);
  char longname[400];
  snprintf(longname, sizeof longname, "ws/src/deep/er/%0200d", 7);
  assert_int_equal(vfs_write_file(v, H, longname, "long", 4, 0), 0);
  assert_int_equal(vfs_write_file(v, H, "ws/new\nline", "nl", 2, 0), 0);
  assert_int_equal(vfs_symlink(v, H, "src/deep", "ws/link"), 0);
  char longtarget[300];
  snprintf(longtarget, sizeof longtarget, "src/deep/er/%0200d", 7);
  assert_int_equal(vfs_symlink(v, H, longtarget, "ws/longlink"), 0);
  assert_int_equal(vfs_mkdir_p(v, H, "ws/node_modules/x", 0755), 0);
  assert_int_equal(vfs_write_file(v, H, "ws/node_modules/x/i.js", "1", 1, 0),
                   0);
  assert_int_equal(vfs_chmod(v, H, "ws/src/deep", 0750), 0);
}

static void test_roundtrip(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs_fixed(m);
  build_tree(v);
  tbuf t = {0};
  const char *skip[] = {"node_modules", "./src/empty", NULL};
  assert_int_equal(vfs_persist(v, H, "ws", skip, tbuf_sink, &t), 0);
  assert_int_equal(t.n % 512, 0);
  vfs *w = mkvfs_fixed(m);
  char msg[256];
  assert_int_equal(vfs_hydrate(w, H, "restored", t.p, t.n, msg, sizeof msg), 0);
  check_ok(w);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(w, H, "restored/node_modules", &st), -ENOENT);
  assert_int_equal(vfs_stat(w, H, "restored/src/empty", &st), -ENOENT);
  assert_int_equal(vfs_rm_rf(v, H, "ws/node_modules"), 0);
  assert_int_equal(vfs_unlink(v, H, "ws/src/empty"), 0);
  same_tree(v, H "/ws", w, H "/restored");
  /* and the same through gzip */
  z_stream z = {0};
  assert_int_equal(
      deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  size_t cap = deflateBound(&z, t.n) + 64;
  unsigned char *gz = malloc(cap);
  z.next_in = (unsigned char *)t.p;
  z.avail_in = (uInt)t.n;
  z.next_out = gz;
  z.avail_out = (uInt)cap;
  assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
  size_t gzl = cap - z.avail_out;
  deflateEnd(&z);
  vfs *g = mkvfs_fixed(m);
  assert_int_equal(vfs_hydrate(g, "/", "/tmp/g", gz, gzl, msg, sizeof msg), 0);
  same_tree(v, H "/ws", g, "/tmp/g");
  /* a corrupt gzip stream is rejected */
  gz[gzl / 2] ^= 0x55;
  assert_int_equal(vfs_hydrate(g, "/", "/tmp/g2", gz, gzl, msg, sizeof msg),
                   -EBADMSG);
  free(gz);
  /* file modes come back exactly, setuid and all */
  tbuf t2 = {0};
  member(&t2, "./odd", '0', 04777, "x", 1, NULL);
  member(&t2, "./ro", '0', 0444, "x", 1, NULL);
  end(&t2);
  assert_int_equal(vfs_hydrate(g, "/", "/tmp/m", t2.p, t2.n, msg, sizeof msg),
                   0);
  assert_int_equal(vfs_stat(g, "/tmp/m", "odd", &st), 0);
  assert_int_equal(st.mode, 04777);
  assert_int_equal(vfs_stat(g, "/tmp/m", "ro", &st), 0);
  assert_int_equal(st.mode, 0444);
  check_ok(g);
  free(t2.p);
  free(t.p);
  vfs_free(g);
  vfs_free(w);
  vfs_free(v);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

typedef struct hostile {
  const char *rule; /* expected in the message */
  void (*build)(tbuf *b);
} hostile;

static void h_abs(tbuf *b) {
  member(b, "/etc/passwd", '0', 0644, "x", 1, 0);
}
static void h_dotdot(tbuf *b) {
  member(b, "a/../../x", '0', 0644, "x", 1, 0);
}
static void h_hardlink_later(tbuf *b) {
  member(b, "g", '1', 0644, NULL, 0, "f"); /* before its target */
  member(b, "f", '0', 0644, "x", 1, 0);
}
static void h_hardlink_outside(tbuf *b) {
  member(b, "g", '1', 0644, NULL, 0, "../etc/passwd");
}
static void h_hardlink_dir(tbuf *b) {
  member(b, "d/", '5', 0755, NULL, 0, 0);
  member(b, "g", '1', 0644, NULL, 0, "d");
}
static void h_hardlink_absent(tbuf *b) {
  member(b, "g", '1', 0644, NULL, 0, "dl"); /* the destination's, not ours */
}
static void h_chr(tbuf *b) {
  member(b, "dev", '3', 0644, NULL, 0, 0);
}
static void h_fifo(tbuf *b) {
  member(b, "fifo", '6', 0644, NULL, 0, 0);
}
static void h_special(tbuf *b) {
  member(b, "vol", 'V', 0644, NULL, 0, 0);
}
static void h_dup(tbuf *b) {
  member(b, "f", '0', 0644, "x", 1, 0);
  member(b, "./f", '0', 0644, "y", 1, 0);
}
static void h_under_link(tbuf *b) {
  member(b, "l", '2', 0777, NULL, 0, "d");
  member(b, "l/f", '0', 0644, "x", 1, 0);
}
static void h_under_file(tbuf *b) {
  member(b, "f", '0', 0644, "x", 1, 0);
  member(b, "f/g", '0', 0644, "x", 1, 0);
}
static void h_root_file(tbuf *b) {
  member(b, ".", '0', 0644, "x", 1, 0);
}
static void h_checksum(tbuf *b) {
  member(b, "ok", '0', 0644, "x", 1, 0);
  b->p[0] = 'X';
}
static void h_truncated(tbuf *b) {
  member(b, "f", '0', 0644, "0123456789", 10, 0);
  b->n = 512 + 5; /* data cut off, no end blocks */
  b->p[b->n] = 0;
}
static void h_truncated_pad(tbuf *b) {
  member(b, "a", '0', 0644, "x", 1, 0);
  member(b, "f", '0', 0644, "0123456789", 10, 0);
  b->n = 3 * 512 - 100; /* data whole, its block cut: GNU tar's EOF */
}
static void h_late_bad(tbuf *b) {
  /* good members first: nothing of them may be written */
  member(b, "good/", '5', 0755, NULL, 0, 0);
  member(b, "good/file", '0', 0644, "x", 1, 0);
  member(b, "/bad", '0', 0644, "x", 1, 0);
}
static void h_existing_link(tbuf *b) {
  member(b, "dl/x", '0', 0644, "x", 1, 0); /* dest has dl -> /tmp */
}

static int count_change(void *ud, int kind, const char *path, unsigned what) {
  (void)kind;
  (void)path;
  (void)what;
  (*(int *)ud)++;
  return 0;
}

static void test_hostile(void **state) {
  (void)state;
  const hostile cases[] = {
      {"absolute path", h_abs},
      {"'..' component", h_dotdot},
      {"is not an earlier regular file member", h_hardlink_later},
      {"hard link target '../etc/passwd' is not allowed", h_hardlink_outside},
      {"is not an earlier regular file member", h_hardlink_dir},
      {"is not an earlier regular file member", h_hardlink_absent},
      {"device or FIFO", h_chr},
      {"device or FIFO", h_fifo},
      {"special member", h_special},
      {"duplicate path", h_dup},
      {"under a symlink member", h_under_link},
      {"under a non-directory", h_under_file},
      {"root must be a directory", h_root_file},
      {"checksum", h_checksum},
      {"unexpected EOF in archive", h_truncated},
      {"unexpected EOF in archive", h_truncated_pad},
      {"absolute path", h_late_bad},
      {"existing symlink", h_existing_link},
  };
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  assert_int_equal(vfs_mkdir(v, H, "dst", 0755), 0);
  assert_int_equal(vfs_symlink(v, H, "/tmp", "dst/dl"), 0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tbuf t = {0};
    cases[i].build(&t);
    if (cases[i].build != h_truncated && cases[i].build != h_truncated_pad)
      end(&t);
    vfs_snap *before = vfs_snapshot(v);
    uint64_t b0, i0, b1, i1;
    vfs_usage(v, &b0, &i0);
    char msg[256];
    int rc = vfs_hydrate(v, H, "dst", t.p, t.n, msg, sizeof msg);
    if (rc != -EBADMSG || !strstr(msg, cases[i].rule) ||
        !strstr(msg, "member '"))
      fail_msg("case %zu: rc %d msg '%s' (want '%s')", i, rc, msg,
               cases[i].rule);
    int changes = 0;
    assert_int_equal(vfs_diff(v, before, NULL, count_change, &changes), 0);
    assert_int_equal(changes, 0);
    vfs_usage(v, &b1, &i1);
    assert_int_equal(b0, b1);
    assert_int_equal(i0, i1);
    vfs_snap_free(before);
    free(t.p);
  }
  /* hydrating into a new directory that a rejection would have created */
  tbuf t = {0};
  h_abs(&t);
  end(&t);
  char msg[256];
  assert_int_equal(vfs_hydrate(v, H, "fresh/dir", t.p, t.n, msg, sizeof msg),
                   -EBADMSG);
  vfs_stat_t st;
  assert_int_equal(vfs_stat(v, H, "fresh", &st), -ENOENT);
  free(t.p);
  /* duplicate directories are fine; nothing lands outside dst */
  tbuf ok = {0};
  member(&ok, "d/", '5', 0755, NULL, 0, 0);
  member(&ok, "./d", '5', 0700, NULL, 0, 0);
  member(&ok, "d/l", '2', 0777, NULL, 0, "../d");
  end(&ok);
  assert_int_equal(vfs_hydrate(v, H, "dst", ok.p, ok.n, msg, sizeof msg), 0);
  assert_int_equal(vfs_stat(v, H, "dst/d/l", &st), 0);
  free(ok.p);
  /* over quota: nothing written */
  vfs_set_quota(v, 10, 0);
  tbuf q = {0};
  member(&q, "big", '0', 0644, "0123456789abcdef", 16, 0);
  end(&q);
  assert_int_equal(vfs_hydrate(v, H, "q", q.p, q.n, msg, sizeof msg), -ENOSPC);
  assert_int_equal(vfs_stat(v, H, "q", &st), -ENOENT);
  free(q.p);
  check_ok(v);
  vfs_free(v);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

static void test_rejected_changes_nothing(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  vfs_snap *before = vfs_snapshot(v);
  tbuf t = {0};
  h_late_bad(&t);
  end(&t);
  char msg[256];
  assert_int_equal(vfs_hydrate(v, H, "x/y", t.p, t.n, msg, sizeof msg),
                   -EBADMSG);
  assert_non_null(strstr(msg, "member '/bad'"));
  int n = 0;
  assert_int_equal(vfs_diff(v, before, NULL, count_change, &n), 0);
  assert_int_equal(n, 0);
  free(t.p);
  vfs_snap_free(before);
  vfs_free(v);
  mem_unref(m);
}

/* What GNU tar writes and extracts: members without their parents (tar cf
 * x.tar b/c), hard links, absolute and climbing symlinks kept as data, a
 * backslash as a plain name byte, empty directories, exact modes. */
static void test_gnu_layouts(void **state) {
  (void)state;
  mem *m = mem_new(NULL, NULL, 0);
  vfs *v = mkvfs(m);
  assert_int_equal(vfs_mkdir(v, H, "dst", 0755), 0);
  tbuf t = {0};
  member(&t, "b/c", '0', 0640, "data", 4, NULL);
  member(&t, "b/h", '1', 0640, NULL, 0, "b/c");
  member(&t, "x/y/z/", '5', 01777, NULL, 0, NULL);
  member(&t, "abs", '2', 0777, NULL, 0, "/etc/passwd");
  member(&t, "up", '2', 0777, NULL, 0, "../../../x");
  member(&t, "a\\b", '0', 04755, "", 0, NULL);
  end(&t);
  char msg[256];
  int rc = vfs_hydrate(v, H, "dst", t.p, t.n, msg, sizeof msg);
  if (rc)
    fail_msg("hydrate: %d %s", rc, msg);
  vfs_stat_t st, sh;
  assert_int_equal(vfs_stat(v, H, "dst/b", &st), 0);
  assert_int_equal(st.type, VFS_DIR);
  assert_int_equal(st.mode, 0755); /* 0777 & ~umask, as GNU tar */
  assert_int_equal(vfs_stat(v, H, "dst/b/c", &st), 0);
  assert_int_equal(vfs_stat(v, H, "dst/b/h", &sh), 0);
  assert_int_equal(st.ino, sh.ino);
  assert_int_equal(st.nlink, 2);
  assert_int_equal(st.mode, 0640);
  assert_int_equal(vfs_stat(v, H, "dst/x/y/z", &st), 0);
  assert_int_equal(st.mode, 01777);
  char *target;
  assert_int_equal(vfs_readlink(v, H, "dst/abs", &target, NULL), 0);
  assert_string_equal(target, "/etc/passwd");
  vfs_release(v, target);
  assert_int_equal(vfs_readlink(v, H, "dst/up", &target, NULL), 0);
  assert_string_equal(target, "../../../x");
  vfs_release(v, target);
  assert_int_equal(vfs_stat(v, H, "dst/a\\b", &st), 0);
  assert_int_equal(st.mode, 04755);
  /* and a persist of that gives the same tree, hard link included */
  tbuf p = {0};
  assert_int_equal(vfs_persist(v, H, "dst", NULL, tbuf_sink, &p), 0);
  vfs *w = mkvfs(m);
  assert_int_equal(vfs_hydrate(w, H, "dst", p.p, p.n, msg, sizeof msg), 0);
  same_tree(v, H "/dst", w, H "/dst");
  assert_int_equal(vfs_stat(w, H, "dst/b/h", &sh), 0);
  assert_int_equal(vfs_stat(w, H, "dst/b/c", &st), 0);
  assert_int_equal(st.ino, sh.ino);
  check_ok(v);
  check_ok(w);
  free(p.p);
  free(t.p);
  vfs_free(w);
  vfs_free(v);
  assert_int_equal(mem_used(m), 0);
  mem_unref(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip),
      cmocka_unit_test(test_hostile),
      cmocka_unit_test(test_rejected_changes_nothing),
      cmocka_unit_test(test_gnu_layouts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
