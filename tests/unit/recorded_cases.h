/*
 * recorded_cases.h - runs a file of recorded command cases (diff_cases.txt,
 * patch_cases.txt) through the builtin harness and checks each against what
 * the original tool printed and left behind.
 *
 * A case starts with "### case"; then, in order, any number of
 *   file NAME LEN \n BYTES \n      a file to create (parents made)
 *   mkdir NAME \n                  a directory to create
 * then "stdin LEN \n BYTES \n", "argv N \n" with N lines, "status N \n",
 * "out LEN \n BYTES \n", "err LEN \n BYTES \n", and any number of
 *   expect NAME LEN \n BYTES \n    the file's content afterwards
 *   absent NAME \n                 the file must not exist afterwards
 * Lines starting with '#' before a case are comments.
 */
#ifndef VSH_TESTS_RECORDED_CASES_H
#define VSH_TESTS_RECORDED_CASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bi_harness.h"

typedef struct rc_reader {
  const char *p, *e;
} rc_reader;

/* The next line without its newline, NUL-terminated into a static copy. */
static const char *rc_line(rc_reader *r) {
  static char tmp[4096];
  const char *nl = memchr(r->p, '\n', (size_t)(r->e - r->p));
  assert_non_null(nl);
  size_t n = (size_t)(nl - r->p);
  assert_true(n < sizeof tmp);
  memcpy(tmp, r->p, n);
  tmp[n] = 0;
  r->p = nl + 1;
  return tmp;
}

/* LEN bytes and the newline after them. */
static const char *rc_bytes(rc_reader *r, size_t n) {
  assert_true((size_t)(r->e - r->p) >= n + 1);
  const char *s = r->p;
  r->p += n + 1;
  return s;
}

static int rc_word(const char *line, const char *w, const char **rest) {
  size_t k = strlen(w);
  if (strncmp(line, w, k) || (line[k] != ' ' && line[k] != 0))
    return 0;
  *rest = line[k] ? line + k + 1 : line + k;
  return 1;
}

/* "NAME LEN" */
static void rc_name_len(const char *rest, char *name, size_t cap, size_t *len) {
  const char *sp = strrchr(rest, ' ');
  assert_non_null(sp);
  size_t n = (size_t)(sp - rest);
  assert_true(n < cap);
  memcpy(name, rest, n);
  name[n] = 0;
  *len = (size_t)strtoul(sp + 1, NULL, 10);
}

static void rc_mkparents(bh *h, const char *name) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s", name);
  char *s = strrchr(dir, '/');
  if (s) {
    *s = 0;
    vfs_mkdir_p(h->vfs, h->cwd, dir, 0755);
  }
}

static char *rc_load(const char *file, size_t *len) {
  char path[1024];
  const char *src = getenv("VSH_SOURCE_DIR");
  if (src) {
    snprintf(path, sizeof path, "%s/tests/unit/%s", src, file);
  } else {
    /* tests/unit/test_x.c -> tests/unit/FILE */
    snprintf(path, sizeof path, "%s", __FILE__);
    char *s = strrchr(path, '/');
    snprintf(s ? s + 1 : path, sizeof path - (size_t)(s ? s + 1 - path : 0),
             "%s", file);
  }
  FILE *f = fopen(path, "rb");
  if (!f)
    fail_msg("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *d = malloc((size_t)n + 1);
  assert_non_null(d);
  assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  d[n] = 0;
  *len = (size_t)n;
  return d;
}

/* Runs every case of FILE; returns how many ran. */
static int rc_run_file(const char *file) {
  size_t len;
  char *data = rc_load(file, &len);
  rc_reader r = {data, data + len};
  int ncases = 0;
  while (r.p < r.e) {
    const char *l = rc_line(&r), *rest = NULL;
    if (l[0] == '#' && strcmp(l, "### case"))
      continue;
    assert_string_equal(l, "### case");
    ncases++;
    bh *h = bh_new();
    char name[512];
    size_t n;
    for (;;) {
      l = rc_line(&r);
      if (rc_word(l, "file", &rest)) {
        rc_name_len(rest, name, sizeof name, &n);
        rc_mkparents(h, name);
        bh_writen(h, name, rc_bytes(&r, n), n);
      } else if (rc_word(l, "mkdir", &rest)) {
        vfs_mkdir_p(h->vfs, h->cwd, rest, 0755);
      } else {
        break;
      }
    }
    assert_true(rc_word(l, "stdin", &rest));
    size_t inlen = (size_t)strtoul(rest, NULL, 10);
    const char *in = rc_bytes(&r, inlen);
    assert_true(rc_word(rc_line(&r), "argv", &rest));
    int argc = atoi(rest);
    char *argv[32];
    assert_true(argc > 0 && argc < 32);
    for (int i = 0; i < argc; i++)
      argv[i] = strdup(rc_line(&r));
    argv[argc] = NULL;
    assert_true(rc_word(rc_line(&r), "status", &rest));
    int status = atoi(rest);
    assert_true(rc_word(rc_line(&r), "out", &rest));
    size_t olen = (size_t)strtoul(rest, NULL, 10);
    const char *out = rc_bytes(&r, olen);
    assert_true(rc_word(rc_line(&r), "err", &rest));
    size_t elen = (size_t)strtoul(rest, NULL, 10);
    const char *err = rc_bytes(&r, elen);
    int st = bh_runa(h, in, inlen, argc, argv);
    if (st != status || h->out.len != olen ||
        (olen && memcmp(h->out.data, out, olen)) || h->err.len != elen ||
        (elen && memcmp(h->err.data, err, elen)))
      print_message("case %d (%s %s ...):\n--- got (%d)\n%.*s%.*s--- want "
                    "(%d)\n%.*s%.*s",
                    ncases, argv[0], argc > 1 ? argv[1] : "", st,
                    (int)h->out.len, h->out.data ? h->out.data : "",
                    (int)h->err.len, h->err.data ? h->err.data : "", status,
                    (int)olen, out, (int)elen, err);
    assert_int_equal(st, status);
    assert_int_equal(h->out.len, olen);
    if (olen)
      assert_memory_equal(h->out.data, out, olen);
    assert_int_equal(h->err.len, elen);
    if (elen)
      assert_memory_equal(h->err.data, err, elen);
    /* files left behind */
    while (r.p < r.e && strncmp(r.p, "### case", 8)) {
      l = rc_line(&r);
      if (rc_word(l, "expect", &rest)) {
        rc_name_len(rest, name, sizeof name, &n);
        const char *want = rc_bytes(&r, n);
        char *d = NULL;
        size_t dl = 0;
        if (vfs_read_file(h->vfs, h->cwd, name, &d, &dl) != 0)
          fail_msg("case %d: %s missing", ncases, name);
        assert_int_equal(dl, n);
        if (n)
          assert_memory_equal(d, want, n);
        vfs_release(h->vfs, d);
      } else if (rc_word(l, "absent", &rest)) {
        if (vfs_exists(h->vfs, h->cwd, rest))
          fail_msg("case %d: %s should not exist", ncases, rest);
      } else {
        fail_msg("case %d: unexpected line '%s'", ncases, l);
      }
    }
    for (int i = 0; i < argc; i++)
      free(argv[i]);
    bh_free(h);
  }
  free(data);
  return ncases;
}

#endif
