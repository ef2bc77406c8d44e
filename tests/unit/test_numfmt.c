// layers: core vfs shell builtins api
/* test_numfmt.c - printf and seq with widths and precisions far past what
 * one buffer holds: the output is bash's and GNU's (checksums taken from
 * them), streamed under the output limit, the deadline and a closed pipe,
 * and a width past INT_MAX behaves as bash's printf and GNU seq. */
#include "api_harness.h"

static void run_with(const char *script, int64_t timeout_ms, int status,
                     const char *err_part) {
  vsh_exec_opts o;
  memset(&o, 0, sizeof o);
  o.timeout_ms = timeout_ms;
  vsh_result r;
  assert_int_equal(vsh_exec(sb, script, &o, &r), VSH_OK);
  if (r.status != status || (err_part && !strstr(r.err, err_part)))
    fprintf(stderr, "script: %s\ngot %d [%s]\n", script, r.status, r.err);
  assert_int_equal(r.status, status);
  if (err_part)
    assert_non_null(strstr(r.err, err_part));
  vsh_result_free(&r);
}

static void test_same_text_as_gnu(void **st) {
  (void)st;
  check("printf '%.20000f' 0.1 | md5sum",
        "35990ad02065259a5d3d97da0efbf4df  -\n", 0);
  check("printf '%#.100000x|%.100000d' 255 -5 | md5sum",
        "8c30c4a67d2cc64cb5f88d904ca179da  -\n", 0);
  check("printf '%-100000d|%0100000.3f|%100000s' 1 -2.5 ab | md5sum",
        "d2501c811afa92e530ff5813f6bbc42d  -\n", 0);
  check("printf '%.20000e' 1e-300 | md5sum",
        "21959ff481b32ddbafb39029ca5cccbe  -\n", 0);
  check("printf '%#.20000g|%.20000g' 1e-300 1e-300 | md5sum",
        "9e71213f77b0fb997ef0092add960eaa  -\n", 0);
  check("seq -f 'n%%%0100000.2fx' 1 3 | md5sum",
        "5f239c69f0178de1a5073a855dc0ecd4  -\n", 0);
  check("seq -f '%.20000f' 0.1 0.1 0.3 | md5sum",
        "c9761eb3b9f5e83aae6abefe8b998afa  -\n", 0);
  check("printf '%99999999d' 1 | wc -c", "99999999\n", 0);
  check("seq -f '%9999999f' 1 3 | wc -c", "30000000\n", 0);
  check("printf '%-5d|%05d|%+.3d|%#x|%#o|%5.1f|%010.2f|%#.3g|%020f|\\n' 3 4 5 "
        "255 8 3.14159 -3.5 1 inf",
        "3    |00004|+005|0xff|010|  3.1|-000003.50|1.00|                 "
        "inf|\n",
        0);
  /* \c in %b still ends the output after what came before it */
  check("printf '[%b]\\n' 'ab\\ncd\\cxy'", "[ab\ncd", 0);
}

static void test_huge_is_bounded(void **st) {
  (void)st;
  /* bash: a width past INT_MAX prints nothing for the conversion */
  check("printf 'a%99999999999db|%d\\n' 1 2", "ab|2\n", 0);
  run_with("seq -f '%99999999999f' 1 1", 0, 1,
           "seq: write error: Value too large for defined data type");
  /* 2 GiB of padding can stream in under 200 ms (the pipe passes it
   * without copying), so 50 of them make sure the deadline comes first */
  run_with("printf '%2147483647d' {1..50} | wc -c", 200, 124, "deadline");
  run_with("printf '%.2147483647f' {1..50} | wc -c", 200, 124, "deadline");
  run_with("seq -f '%2147483647f' 1 50 | wc -c", 200, 124, "deadline");
  run_with("printf '%999999999d' 1", 0, 126, "output bytes limit");
  run_with("printf -v x '%999999999d' 1", 0, 126, "string length limit");
  check("printf '%999999999d' 1 | head -c 3; echo \" ${PIPESTATUS[0]}\"",
        "    141\n", 0);
  check("seq -f '%999999999f' 1 1 | head -c 3; echo \" ${PIPESTATUS[0]}\"",
        "    141\n", 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_same_text_as_gnu, setup, teardown),
      cmocka_unit_test_setup_teardown(test_huge_is_bounded, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
