// layers: all
/* test_import_tar.c - vsh_import_tar (a tar read from a callback) and
 * vsh_hydrate, both written through the batch importer: round trips read
 * in chunks of every size, plain and gzip, compared byte for byte by a
 * second persist; replacing what the destination holds; refusals, read
 * errors, quota and allocation failures that change nothing. */
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

#include "vsh.h"

typedef struct tbuf {
  char *p;
  size_t n, cap;
} tbuf;

static int sink(void *ud, const void *d, size_t n) {
  tbuf *b = ud;
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2;
    b->p = realloc(b->p, b->cap);
    assert_non_null(b->p);
  }
  memcpy(b->p + b->n, d, n);
  b->n += n;
  return 0;
}

/* A stream over a buffer, chunk bytes a call; -1 once fail_at is passed. */
typedef struct reader {
  const char *p;
  size_t n, pos, chunk, fail_at;
} reader;

static long rd(void *ud, void *buf, size_t len) {
  reader *r = ud;
  if (r->fail_at && r->pos >= r->fail_at)
    return -1;
  size_t k = r->n - r->pos;
  if (k > len)
    k = len;
  if (k > r->chunk)
    k = r->chunk;
  memcpy(buf, r->p + r->pos, k);
  r->pos += k;
  return (long)k;
}

static vsh_sandbox *open_sb(void) {
  vsh_sandbox *s = NULL;
  assert_int_equal(vsh_open(NULL, &s), VSH_OK);
  return s;
}

static void run(vsh_sandbox *s, const char *script, const char *out) {
  vsh_result r;
  assert_int_equal(vsh_exec(s, script, NULL, &r), VSH_OK);
  if (strcmp(r.out, out) != 0 || r.status)
    fprintf(stderr, "%s\nout: %s\nerr: %s\n", script, r.out, r.err);
  assert_string_equal(r.out, out);
  assert_int_equal(r.status, 0);
  vsh_result_free(&r);
}

static tbuf persist(vsh_sandbox *s, const char *dir) {
  tbuf t = {0};
  assert_int_equal(vsh_persist(s, dir, NULL, sink, &t), VSH_OK);
  return t;
}

/* Two persisted tars hold the same members byte for byte, but for the
 * names persist gives pax headers ("./PaxHeaders/INODE"). */
static void same_tar(const tbuf *a, const tbuf *b) {
  assert_int_equal(a->n, b->n);
  size_t pos = 0;
  while (pos + 512 <= a->n) {
    const char *x = a->p + pos, *y = b->p + pos;
    if (x[156] == 'x') {
      assert_memory_equal(x + 100, y + 100, 48);
      assert_memory_equal(x + 156, y + 156, 512 - 156);
    } else {
      assert_memory_equal(x, y, 512);
    }
    size_t size = (size_t)strtoull(x + 124, NULL, 8);
    pos += 512;
    size_t padded = (size + 511) / 512 * 512;
    assert_true(pos + padded <= a->n);
    assert_memory_equal(x + 512, y + 512, padded);
    pos += padded;
  }
  assert_int_equal(pos, a->n);
}

static tbuf gzip(const tbuf *t) {
  z_stream z = {0};
  assert_int_equal(
      deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  tbuf g = {0};
  g.cap = deflateBound(&z, t->n) + 64;
  g.p = malloc(g.cap);
  z.next_in = (unsigned char *)t->p;
  z.avail_in = (uInt)t->n;
  z.next_out = (unsigned char *)g.p;
  z.avail_out = (uInt)g.cap;
  assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
  g.n = g.cap - z.avail_out;
  deflateEnd(&z);
  return g;
}

/* Everything persist writes: modes with setuid and sticky bits, mtimes,
 * symlinks, hard links, empty directories, binary content, names longer
 * than ustar holds, and enough files to span directories. */
static const char *const SOURCE =
    "mkdir -p /tmp/src/a/b/c /tmp/src/empty /tmp/src/many && cd /tmp/src && "
    "printf 'hello\\n' > a/h.txt && printf '\\000\\377bin' > a/b/bin && "
    "printf '#!/bin/sh\\n' > a/b/c/run && chmod 4755 a/b/c/run && "
    "mkdir -m 1777 shared && ln a/h.txt a/b/hard && ln -s ../h.txt a/b/sym && "
    "ln -s /abs/target abs && "
    "n=$(printf '%0150d' 7) && printf long > \"a/$n\" && "
    "for i in $(seq 1 300); do printf \"$i\\n\" > many/f$i; done && "
    "chmod 0750 a/b && touch -d '2020-01-02 03:04:05' a/h.txt a/b/sym && "
    "touch -h -d '2019-05-06 07:08:09' a/b/sym && "
    "touch -d '2018-01-01 00:00:00' a/b/c empty many a .";

static void test_stream_roundtrip(void **state) {
  (void)state;
  vsh_sandbox *src = open_sb();
  run(src, SOURCE, "");
  tbuf t = persist(src, "/tmp/src");
  tbuf g = gzip(&t);
  static const size_t chunks[] = {1, 7, 512, 4096, 1 << 20};
  for (int gz = 0; gz < 2; gz++) {
    const tbuf *in = gz ? &g : &t;
    for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++) {
      vsh_sandbox *s = open_sb();
      reader r = {in->p, in->n, 0, chunks[i], 0};
      assert_int_equal(vsh_import_tar(s, "/tmp/dst", rd, &r), VSH_OK);
      tbuf back = persist(s, "/tmp/dst");
      same_tar(&back, &t);
      free(back.p);
      if (i == 0)
        run(s,
            "cd /tmp/dst; stat -c '%a %h' a/b/c/run shared a/b/hard a/h.txt; "
            "readlink a/b/sym abs; cat a/b/sym; od -An -c a/b/bin; "
            "ls many | wc -l; stat -c %Y a/h.txt",
            "4755 1\n1777 2\n644 2\n644 2\n../h.txt\n/abs/target\nhello\n"
            "  \\0 377   b   i   n\n300\n1577934245\n");
      vsh_close(s);
    }
    /* and from a buffer, through vsh_hydrate */
    vsh_sandbox *s = open_sb();
    assert_int_equal(vsh_hydrate(s, "/tmp/dst", in->p, in->n), VSH_OK);
    tbuf back = persist(s, "/tmp/dst");
    same_tar(&back, &t);
    free(back.p);
    vsh_close(s);
  }
  free(t.p);
  free(g.p);
  vsh_close(src);
}

/* Members replace what the destination holds under their names: a file
 * over a file, over a symlink (never written through), over one name of
 * a hard-linked pair (the other keeps its content); a directory member
 * over a directory keeps what else it holds. */
static void test_replace(void **state) {
  (void)state;
  vsh_sandbox *src = open_sb();
  run(src,
      "mkdir -p /tmp/src/d && cd /tmp/src && printf new > f && printf new > s "
      "&& "
      "printf new > h1 && printf new > d/in && ln -s f l",
      "");
  tbuf t = persist(src, "/tmp/src");
  for (int how = 0; how < 2; how++) {
    vsh_sandbox *s = open_sb();
    run(s,
        "mkdir -p /tmp/dst/d /tmp/other && cd /tmp/dst && printf old > f && "
        "printf keep > /tmp/other/t && ln -s /tmp/other/t s && printf old > h1 "
        "&& "
        "ln h1 h2 && printf extra > d/extra && printf old > l",
        "");
    reader r = {t.p, t.n, 0, 100, 0};
    assert_int_equal(how ? vsh_import_tar(s, "/tmp/dst", rd, &r)
                         : vsh_hydrate(s, "/tmp/dst", t.p, t.n),
                     VSH_OK);
    run(s,
        "cd /tmp/dst; cat f s h1 h2 d/in d/extra /tmp/other/t; echo; "
        "stat -c '%h %F' s h1 h2 l; readlink l",
        "newnewnewoldnewextrakeep\n1 regular file\n1 regular file\n"
        "1 regular file\n1 symbolic link\nf\n");
    vsh_close(s);
  }
  free(t.p);
  vsh_close(src);
}

/* A member the rules refuse, a read error, a cut gzip stream or a quota:
 * the status says which, and the sandbox is as it was. */
static void test_refusals(void **state) {
  (void)state;
  vsh_sandbox *src = open_sb();
  run(src, "mkdir -p /tmp/src/a && head -c 300000 /dev/zero > /tmp/src/a/big",
      "");
  tbuf t = persist(src, "/tmp/src");
  tbuf g = gzip(&t);
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.limits.max_fs_bytes = 100000;
  vsh_sandbox *s = NULL;
  assert_int_equal(vsh_open(&cfg, &s), VSH_OK);
  run(s, "mkdir /tmp/keep; echo x > /tmp/keep/f", "");

  reader r = {t.p, t.n, 0, 999, 0};
  assert_int_equal(vsh_import_tar(s, "/tmp/dst", rd, &r), VSH_LIMIT);
  assert_int_equal(vsh_errcode(s), ENOSPC);
  r = (reader){g.p, g.n, 0, 999, 0};
  assert_int_equal(vsh_import_tar(s, "/tmp/dst", rd, &r), VSH_LIMIT);

  r = (reader){t.p, t.n, 0, 999, 1500};
  assert_int_equal(vsh_import_tar(s, "/tmp/dst", rd, &r), VSH_FS);
  assert_int_equal(vsh_errcode(s), EIO);

  r = (reader){g.p, g.n / 2, 0, 999, 0};
  assert_int_equal(vsh_import_tar(s, "/tmp/dst", rd, &r), VSH_REJECTED);
  assert_non_null(strstr(vsh_errmsg(s), "corrupt gzip data"));

  r = (reader){t.p, 700, 0, 999, 0};
  assert_int_equal(vsh_import_tar(s, "/tmp/dst", rd, &r), VSH_REJECTED);
  assert_non_null(strstr(vsh_errmsg(s), "unexpected EOF in archive"));

  /* a '..' member after good ones */
  tbuf bad = {0};
  sink(&bad, t.p, t.n - 1024); /* without the end blocks */
  char h[512] = {0};
  snprintf(h, 100, "x/../../escape");
  snprintf(h + 100, 8, "%07o", 0644);
  snprintf(h + 124, 12, "%011o", 0);
  h[156] = '0';
  memcpy(h + 257, "ustar", 6);
  memcpy(h + 263, "00", 2);
  memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (int i = 0; i < 512; i++)
    sum += (unsigned char)h[i];
  snprintf(h + 148, 8, "%06o", sum);
  sink(&bad, h, 512);
  r = (reader){bad.p, bad.n, 0, 333, 0};
  assert_int_equal(vsh_import_tar(s, "/tmp/dst", rd, &r), VSH_REJECTED);
  assert_non_null(strstr(vsh_errmsg(s), "'..' component"));
  assert_int_equal(vsh_hydrate(s, "/tmp/dst", bad.p, bad.n), VSH_REJECTED);
  assert_non_null(strstr(vsh_errmsg(s), "'..' component"));

  assert_int_equal(vsh_import_tar(s, "/tmp/dst", NULL, NULL), VSH_MISUSE);
  assert_int_equal(vsh_import_tar(NULL, "/tmp/dst", rd, &r), VSH_MISUSE);
  run(s, "ls /tmp/dst 2>&1; cat /tmp/keep/f; du -sb /tmp/keep/f | cut -f1",
      "ls: cannot access '/tmp/dst': No such file or directory\nx\n2\n");
  free(bad.p);
  free(t.p);
  free(g.p);
  vsh_close(s);
  vsh_close(src);
}

/* An allocator that refuses every allocation after the first `left`. */
typedef struct failing {
  long left;
} failing;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)osize;
  failing *f = ud;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  if (f->left <= 0)
    return NULL;
  f->left--;
  return realloc(ptr, nsize);
}

/* Running out of memory at any point ends the import with VSH_NOMEM,
 * never a crash or a leak (the sanitizer build checks those); nothing is
 * left half written and the sandbox goes on working. */
static void test_out_of_memory(void **state) {
  (void)state;
  vsh_sandbox *src = open_sb();
  run(src,
      "mkdir -p /tmp/src/a/b /tmp/src/e && cd /tmp/src && printf 1 > a/one && "
      "printf 2 > a/b/two && ln a/one a/b/hard && ln -s one a/sym && "
      "chmod 0700 a/b",
      "");
  tbuf t = persist(src, "/tmp/src");
  tbuf g = gzip(&t);
  for (int gz = 0; gz < 2; gz++) {
    const tbuf *in = gz ? &g : &t;
    int completed = 0;
    for (long n = 0; n < 600 && !completed; n++) {
      failing f = {1000000};
      vsh_config cfg;
      vsh_config_init(&cfg);
      cfg.alloc = failing_alloc;
      cfg.alloc_ud = &f;
      vsh_sandbox *s = NULL;
      assert_int_equal(vsh_open(&cfg, &s), VSH_OK);
      f.left = n;
      reader r = {in->p, in->n, 0, 100, 0};
      vsh_status st = vsh_import_tar(s, "/w", rd, &r);
      assert_true(st == VSH_OK || st == VSH_NOMEM);
      completed = st == VSH_OK;
      f.left = 1000000;
      run(s,
          completed ? "cat /w/a/one /w/a/b/two /w/a/b/hard /w/a/sym"
                    : "ls /w 2>/dev/null | wc -l",
          completed ? "1211" : "0\n");
      vsh_close(s);
    }
    assert_true(completed);
  }
  free(t.p);
  free(g.p);
  vsh_close(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stream_roundtrip),
      cmocka_unit_test(test_replace),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
