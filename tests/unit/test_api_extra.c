// layers: all
/* Public API details: vsh_script_complete, $0 and positional parameters from
 * the exec options, the limit note through the streaming callback, and host
 * file calls that are not bound by the script user's permissions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vsh.h"

static void test_script_complete(void **st) {
  (void)st;
  assert_int_equal(vsh_script_complete("echo hi\n", 8), 1);
  const char *open[] = {"if true; then\n", "echo 'abc\n", "f() {\n",
                        "for i in 1 2; do\n", "echo \"$(\n"};
  for (size_t i = 0; i < sizeof open / sizeof *open; i++)
    assert_int_equal(vsh_script_complete(open[i], strlen(open[i])), 0);
  assert_int_equal(vsh_script_complete("fi\n", 3), -1);
  assert_int_equal(vsh_script_complete("echo )\n", 7), -1);
}

static void test_argv0_and_args(void **st) {
  (void)st;
  vsh_sandbox *sb;
  assert_int_equal(vsh_open(NULL, &sb), VSH_OK);
  const char *args[] = {"one", "two words"};
  vsh_exec_opts o = {0};
  o.args = args;
  o.nargs = 2;
  o.argv0 = "myscript";
  vsh_result r;
  assert_int_equal(vsh_exec(sb, "echo \"$0|$#|$1|$2\"", &o, &r), VSH_OK);
  assert_string_equal(r.out, "myscript|2|one|two words\n");
  vsh_result_free(&r);
  assert_int_equal(vsh_exec(sb, "echo $0", NULL, &r), VSH_OK);
  assert_string_equal(r.out, "bash\n");
  vsh_result_free(&r);
  vsh_close(sb);
}

typedef struct seen {
  char err[256];
  size_t n;
} seen;

static void on_out(void *ud, int fd, const void *p, size_t n) {
  seen *s = ud;
  if (fd == 2 && s->n + n < sizeof s->err) {
    memcpy(s->err + s->n, p, n);
    s->n += n;
    s->err[s->n] = 0;
  }
}

static void test_limit_note_streamed(void **st) {
  (void)st;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.limits.max_loop_iterations = 100;
  vsh_sandbox *sb;
  assert_int_equal(vsh_open(&cfg, &sb), VSH_OK);
  seen s = {{0}, 0};
  vsh_exec_opts o = {0};
  o.on_output = on_out;
  o.output_ud = &s;
  o.flags = VSH_EXEC_NO_CAPTURE;
  vsh_result r;
  assert_int_equal(vsh_exec(sb, "while :; do :; done", &o, &r), VSH_OK);
  assert_int_equal(r.status, 126);
  assert_non_null(strstr(s.err, "limit exceeded (100)"));
  vsh_result_free(&r);
  vsh_close(sb);
}

static void test_host_files_privileged(void **st) {
  (void)st;
  vsh_sandbox *sb;
  assert_int_equal(vsh_open(NULL, &sb), VSH_OK);
  /* "/" belongs to root: the script cannot create there, the host can, and
   * what the host creates belongs to the script user. */
  vsh_result r;
  assert_int_equal(vsh_exec(sb, "mkdir /nope", NULL, &r), VSH_OK);
  assert_int_not_equal(r.status, 0);
  vsh_result_free(&r);
  assert_int_equal(vsh_mkdir(sb, "/data", VSH_RECURSIVE), VSH_OK);
  assert_int_equal(vsh_write_file(sb, "/data/f", "x", 1, 0644), VSH_OK);
  assert_int_equal(vsh_exec(sb, "echo more >> /data/f; cat /data/f", NULL, &r),
                   VSH_OK);
  assert_string_equal(r.out, "xmore\n");
  vsh_result_free(&r);
  vsh_close(sb);
}

/* The initial cwd is any absolute path: made with its parents, owned by
 * the sandbox user, who can write in it; a workspace persisted from it
 * hydrates into another sandbox rooted elsewhere. */
static int collect(void *ud, const void *p, size_t n) {
  char **buf = ud;
  size_t *len = (size_t *)(buf + 1);
  char *nb = realloc(*buf, *len + n);
  if (!nb)
    return 1;
  memcpy(nb + *len, p, n);
  *buf = nb;
  *len += n;
  return 0;
}

static void test_workspace_root(void **st) {
  (void)st;
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.cwd = "/workspace";
  vsh_sandbox *a, *b;
  assert_int_equal(vsh_open(&cfg, &a), VSH_OK);
  vsh_result r;
  assert_int_equal(vsh_exec(a,
                            "pwd; stat -c '%U %a' . /; echo hi > f && cat f;"
                            " mkdir /x 2>/dev/null || echo denied",
                            NULL, &r),
                   VSH_OK);
  assert_string_equal(r.out, "/workspace\nuser 755\nroot 755\nhi\ndenied\n");
  vsh_result_free(&r);
  struct {
    char *buf;
    size_t len;
  } tar = {NULL, 0};
  assert_int_equal(vsh_persist(a, NULL, NULL, collect, &tar), VSH_OK);
  cfg.cwd = "/srv/data/ws";
  assert_int_equal(vsh_open(&cfg, &b), VSH_OK);
  assert_int_equal(vsh_hydrate(b, NULL, tar.buf, tar.len), VSH_OK);
  free(tar.buf);
  assert_int_equal(
      vsh_exec(b, "pwd; cat f; stat -c %U /srv /srv/data; touch g && ls", NULL,
               &r),
      VSH_OK);
  assert_string_equal(r.out, "/srv/data/ws\nhi\nuser\nuser\nf\ng\n");
  vsh_result_free(&r);
  vsh_close(a);
  vsh_close(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_script_complete),
      cmocka_unit_test(test_argv0_and_args),
      cmocka_unit_test(test_limit_note_streamed),
      cmocka_unit_test(test_host_files_privileged),
      cmocka_unit_test(test_workspace_root),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
