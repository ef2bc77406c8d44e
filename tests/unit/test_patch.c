// layers: core vfs builtins
/* patch: cases recorded from GNU patch 2.7 (patch_cases.txt: messages,
 * statuses and the files left behind), and diff | patch round trips over
 * generated edits in both directions. */
#include <stdio.h>

#include "recorded_cases.h"

static void t_recorded(void **st) {
  (void)st;
  assert_int_equal(rc_run_file("patch_cases.txt"), 65);
}

static uint64_t rnd(uint64_t *x) {
  *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
  return *x;
}

/* Generated files with random edits: diff -u (or -c, or normal) and patch
 * rebuild the new file; patch -R then gives the old one back. */
static void t_round_trip(void **st) {
  (void)st;
  uint64_t x = 0x9E3779B97F4A7C15ull;
  static const char *fmt[] = {"-u", "-c", "-U1", "-U0", NULL};
  for (int round = 0; round < 60; round++) {
    bh *h = bh_new();
    buf a, b;
    buf_init(&a, h->m);
    buf_init(&b, h->m);
    int n = 1 + (int)(rnd(&x) % 120), alpha = 2 + (int)(rnd(&x) % 30);
    for (int i = 0; i < n; i++) {
      int v = (int)(rnd(&x) % (uint64_t)alpha);
      buf_printf(&a, "line %d\n", v);
      switch (rnd(&x) % 12) {
      case 0:
        break; /* deleted */
      case 1:
        buf_printf(&b, "new %d\n", (int)(rnd(&x) % 50));
        break; /* changed */
      case 2:
        buf_printf(&b, "line %d\nadded %d\n", v, (int)(rnd(&x) % 50));
        break;
      default:
        buf_printf(&b, "line %d\n", v);
      }
    }
    if (round % 7 == 3 && b.len)
      b.len--; /* no newline at the end */
    bh_writen(h, "old", a.data, a.len);
    bh_writen(h, "new", b.data, b.len);
    const char *f = fmt[round % 5];
    int s = f ? bh_run(h, NULL, "diff", f, "old", "new", NULL)
              : bh_run(h, NULL, "diff", "old", "new", NULL);
    assert_true(s == 0 || s == 1);
    char *p = mem_memdup(h->m, h->out.data ? h->out.data : "", h->out.len);
    size_t plen = h->out.len;
    bh_writen(h, "p.diff", p, plen);
    bh_writen(h, "work", a.data, a.len);
    s = bh_run(h, NULL, "patch", "-s", "work", "p.diff", NULL);
    if (s != 0)
      print_message("round %d (%s): %s%.*s\n", round, f ? f : "normal",
                    bh_err(h), (int)plen, p);
    assert_int_equal(s, 0);
    char *d = NULL;
    size_t len = 0;
    assert_int_equal(vfs_read_file(h->vfs, h->cwd, "work", &d, &len), 0);
    assert_int_equal(len, b.len);
    assert_memory_equal(d, b.data, len);
    vfs_release(h->vfs, d);
    assert_int_equal(
        bh_run(h, NULL, "patch", "-s", "-R", "work", "p.diff", NULL), 0);
    assert_int_equal(vfs_read_file(h->vfs, h->cwd, "work", &d, &len), 0);
    assert_int_equal(len, a.len);
    assert_memory_equal(d, a.data, len);
    vfs_release(h->vfs, d);
    mem_free(h->m, p);
    buf_free(&a);
    buf_free(&b);
    bh_free(h);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_recorded),
      cmocka_unit_test(t_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
