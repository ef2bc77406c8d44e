// layers: core vfs builtins
/* diff: cases recorded from GNU diffutils 3.8 (diff_cases.txt: formats,
 * white-space options, directories, errors, and random edits where GNU's
 * choice among equally small scripts shows), a large input checked by its
 * shape, and a search stopped by its deadline. */
#include <stdio.h>

#include "recorded_cases.h"

static void t_recorded(void **st) {
  (void)st;
  assert_int_equal(rc_run_file("diff_cases.txt"), 92);
}

/* Two 20,000-line files with scattered edits: the result is checked by
 * applying it back (the listing has the right size and shape). */
static void t_large(void **st) {
  (void)st;
  bh *h = bh_new();
  buf a, b;
  buf_init(&a, h->m);
  buf_init(&b, h->m);
  uint64_t x = 88172645463325252ull;
  long changed = 0;
  for (int i = 0; i < 20000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    buf_printf(&a, "line %d\n", i);
    if (x % 97 == 0) {
      buf_printf(&b, "edited %d\n", i);
      changed++;
    } else {
      buf_printf(&b, "line %d\n", i);
    }
  }
  bh_writen(h, "a", a.data, a.len);
  bh_writen(h, "b", b.data, b.len);
  assert_int_equal(bh_run(h, NULL, "diff", "a", "b", NULL), 1);
  long lt = 0, gt = 0;
  for (size_t i = 0; i < h->out.len; i++)
    if (i == 0 || h->out.data[i - 1] == '\n') {
      lt += h->out.data[i] == '<';
      gt += h->out.data[i] == '>';
    }
  assert_int_equal(lt, changed);
  assert_int_equal(gt, changed);
  buf_free(&a);
  buf_free(&b);
  bh_free(h);
}

/* A search that runs out of time ends the command, not the host. */
static void t_budget(void **st) {
  (void)st;
  bh *h = bh_new();
  buf a, b;
  buf_init(&a, h->m);
  buf_init(&b, h->m);
  uint64_t x = 1;
  for (int i = 0; i < 30000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    buf_printf(&a, "%d\n", (int)(x % 7));
    buf_printf(&b, "%d\n", (int)((x >> 20) % 7));
  }
  bh_writen(h, "a", a.data, a.len);
  bh_writen(h, "b", b.data, b.len);
  h->bud.deadline_ns = budget_now_ns(&h->bud) + 1000000; /* 1 ms */
  int s = bh_run(h, NULL, "diff", "--minimal", "a", "b", NULL);
  assert_true(s == 2 || s == 1);
  buf_free(&a);
  buf_free(&b);
  bh_free(h);
}

/* cmp, the other diffutils command. */
static void t_cmp(void **st) {
  (void)st;
  assert_int_equal(rc_run_file("cmp_cases.txt"), 29);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_recorded),
      cmocka_unit_test(t_cmp),
      cmocka_unit_test(t_large),
      cmocka_unit_test(t_budget),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
