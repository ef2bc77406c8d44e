/*
 * api_harness.h - one sandbox per test through the public API, for cmocka
 * unit tests: register a test with
 *
 *   cmocka_unit_test_setup_teardown(test_x, setup, teardown)
 *
 * and run scripts in it with check(script, want_stdout, want_status).
 */
#ifndef VSH_TESTS_API_HARNESS_H
#define VSH_TESTS_API_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vsh.h"

static vsh_sandbox *sb;

static int setup(void **state) {
  (void)state;
  return vsh_open(NULL, &sb) == VSH_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  vsh_close(sb);
  sb = NULL;
  return 0;
}

/* Run script; compare stdout and status. */
static void check(const char *script, const char *out, int status) {
  vsh_result r;
  vsh_status st = vsh_exec(sb, script, NULL, &r);
  assert_int_equal(st, VSH_OK);
  if (strcmp(r.out, out) != 0 || r.status != status)
    fprintf(stderr, "script: %s\nwant [%s] %d\ngot  [%s] %d\nstderr: %s\n",
            script, out, status, r.out, r.status, r.err);
  assert_string_equal(r.out, out);
  assert_int_equal(r.status, status);
  vsh_result_free(&r);
}

#endif
