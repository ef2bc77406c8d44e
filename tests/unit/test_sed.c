// layers: core vfs builtins shell
/* Unit tests of sed. Expected outputs were checked against GNU sed 4.9 run
 * on the same inputs. */
#include "bi_harness.h"

#include <stdio.h>

#define RUN(h, in, ...) bh_run(h, in, __VA_ARGS__, NULL)
#define OUT_IS(h, s) assert_string_equal(bh_out(h), s)
#define ERR_IS(h, s) assert_string_equal(bh_err(h), s)

static void t_basic(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "hello world\n", "sed", "s/o/0/g"), 0);
  OUT_IS(h, "hell0 w0rld\n");
  bh_free(h);
}

static void t_cmds(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "a\nb\nc\n", "sed", "N;P;D"), 0);
  OUT_IS(h, "a\nb\nc\n");
  assert_int_equal(RUN(h, "a\nb\nc\n", "sed", "1!G;h;$!d"), 0);
  OUT_IS(h, "c\nb\na\n");
  assert_int_equal(RUN(h, "a", "sed", "p"), 0);
  OUT_IS(h, "a\na");
  assert_int_equal(RUN(h, "hello world\n", "sed", "s/\\w\\+/\\u&/g"), 0);
  OUT_IS(h, "Hello World\n");
  assert_int_equal(RUN(h, "baaac\n", "sed", "s/a*/x/g"), 0);
  OUT_IS(h, "xbxcx\n");
  assert_int_equal(RUN(h, "a\nb\nc\n", "sed", "2q5"), 5);
  OUT_IS(h, "a\nb\n");
  assert_int_equal(RUN(h, "a\tb\001\n", "sed", "-n", "l"), 0);
  OUT_IS(h, "a\\tb\\001$\n");
  assert_int_equal(RUN(h, "1\n2\n3\n4\n", "sed", "-n", "0~2p"), 0);
  OUT_IS(h, "2\n4\n");
  assert_int_equal(RUN(h, "a\nb\nc\n", "sed", "-n", "0,/a/p"), 0);
  OUT_IS(h, "a\n");
  bh_free(h);
}

static void t_files(void **st) {
  (void)st;
  bh *h = bh_new();
  bh_write(h, "f", "a\nb\n");
  assert_int_equal(RUN(h, "", "sed", "-i.bak", "s/a/X/", "f"), 0);
  char *d = bh_read(h, "f", NULL);
  assert_string_equal(d, "X\nb\n");
  free(d);
  d = bh_read(h, "f.bak", NULL);
  assert_string_equal(d, "a\nb\n");
  free(d);
  assert_int_equal(RUN(h, "", "sed", "-n", "$=", "f", "f.bak"), 0);
  OUT_IS(h, "4\n");
  assert_int_equal(RUN(h, "", "sed", "-s", "-n", "$=", "f", "f.bak"), 0);
  OUT_IS(h, "2\n2\n");
  assert_int_equal(RUN(h, "", "sed", "p", "nope"), 2);
  ERR_IS(h, "sed: can't read nope: No such file or directory\n");
  bh_free(h);
}

static void t_errors(void **st) {
  (void)st;
  bh *h = bh_new();
  assert_int_equal(RUN(h, "", "sed", "-e", "p", "-e", "s/a"), 1);
  ERR_IS(h, "sed: -e expression #2, char 3: unterminated `s' command\n");
  assert_int_equal(RUN(h, "", "sed", "s/a/\\1/"), 1);
  ERR_IS(h, "sed: -e expression #1, char 7: invalid reference \\1 on `s' "
            "command's RHS\n");
  assert_int_equal(RUN(h, "", "sed", "b foo"), 4);
  assert_int_equal(RUN(h, "", "sed", "k"), 1);
  ERR_IS(h, "sed: -e expression #1, char 1: unknown command: `k'\n");
  assert_int_equal(RUN(h, "", "sed", "e ls"), 1);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_basic),
      cmocka_unit_test(t_cmds),
      cmocka_unit_test(t_files),
      cmocka_unit_test(t_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
