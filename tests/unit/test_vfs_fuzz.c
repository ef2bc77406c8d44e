// layers: core vfs
/*
 * test_vfs_fuzz.c - runs the vfs fuzz target without libFuzzer: the seed
 * corpus in fuzz/corpus/vfs plus a few thousand deterministic pseudo-random
 * inputs. The target aborts on any broken invariant.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fuzz/fuzz_vfs.c"

static void corpus_dir(char *out, size_t cap) {
  const char *src = getenv("VSH_SOURCE_DIR");
  if (src) {
    snprintf(out, cap, "%s/fuzz/corpus/vfs", src);
    return;
  }
  /* tests/unit/test_vfs_fuzz.c -> the source root */
  snprintf(out, cap, "%s", __FILE__);
  char *p = strstr(out, "tests/unit/");
  if (p)
    snprintf(p, cap - (size_t)(p - out), "fuzz/corpus/vfs");
}

static void test_corpus(void **state) {
  (void)state;
  char dir[1024];
  corpus_dir(dir, sizeof dir);
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    uint8_t buf[65536];
    size_t k = fread(buf, 1, sizeof buf, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, k);
    n++;
  }
  closedir(d);
  assert_true(n >= 5);
}

static void test_random(void **state) {
  (void)state;
  uint64_t x = 88172645463325252ull;
  uint8_t buf[600];
  for (int i = 0; i < 1500; i++) {
    size_t len = 50 + (size_t)(i % 550);
    for (size_t j = 0; j < len; j++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      buf[j] = (uint8_t)x;
    }
    LLVMFuzzerTestOneInput(buf, len);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_corpus),
      cmocka_unit_test(test_random),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
