// layers: core vfs shell builtins api
/* test_api.c - sessions, host commands, the file API, snapshots. */
#include <errno.h>

#include "api_harness.h"

static void test_version(void **state) {
  (void)state;
  assert_int_equal(vsh_version_number(), VSH_VERSION_NUMBER);
  assert_string_equal(vsh_version_string(), VSH_VERSION_STRING);
  assert_string_equal(vsh_status_str(VSH_OK), "ok");
}

static void test_fresh_state(void **state) {
  (void)state;
  check("x=1; cd /tmp; f() { :; }", "", 0);
  check("echo \"[$x]\"; pwd; type f >/dev/null 2>&1; echo $?",
        "[]\n/home/user\n1\n", 0);
  check("echo persisted > /tmp/p", "", 0);
  check("cat /tmp/p", "persisted\n", 0);
  check("echo $HOME $PATH $USER $OSTYPE $HOSTNAME $$ $UID",
        "/home/user /usr/bin:/bin user linux-gnu localhost 1 1000\n", 0);
}

static void test_opts(void **state) {
  (void)state;
  const char *env[] = {"FOO=bar", NULL};
  vsh_exec_opts o = {0};
  o.env = env;
  o.cwd = "/tmp";
  o.stdin_data = "in\n";
  o.stdin_len = 3;
  vsh_result r;
  assert_int_equal(vsh_exec(sb, "echo $FOO $HOME; pwd; cat", &o, &r), VSH_OK);
  assert_string_equal(r.out, "bar /home/user\n/tmp\nin\n");
  vsh_result_free(&r);
  o.flags = VSH_EXEC_REPLACE_ENV;
  assert_int_equal(vsh_exec(sb, "echo \"$FOO [$HOME]\"", &o, &r), VSH_OK);
  assert_string_equal(r.out, "bar []\n");
  vsh_result_free(&r);
}

/* Execs in another cwd start from the same variables as the others, with
 * PWD and OLDPWD of that cwd (the first exec sets them over the shared
 * ones, the next ones share variables built for that cwd); what one exec
 * changes, exports or unsets never reaches the next, in either cwd. */
static void test_opts_cwd_fresh(void **state) {
  (void)state;
  vsh_exec_opts o = {0};
  o.cwd = "/tmp";
  vsh_result r;
  const char *scripts[] = {
      ("echo \"$PWD $OLDPWD [$x] [$HOME]\"; x=1; HOME=/h; export PWD=/z; "
       "unset OLDPWD"),
      "echo \"$PWD $OLDPWD [$x] [$HOME]\"; declare -n y=HOME; y=/n; x=2",
      "echo \"$PWD $OLDPWD [$x] [$HOME]\"; cd /; unset HOME",
      "echo \"$PWD $OLDPWD [$x] [$HOME]\""};
  for (int round = 0; round < 2; round++) {
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
      assert_int_equal(vsh_exec(sb, scripts[i], &o, &r), VSH_OK);
      assert_string_equal(r.out, "/tmp /tmp [] [/home/user]\n");
      vsh_result_free(&r);
    }
    check("echo \"$PWD $OLDPWD [$x] [$HOME]\"; x=3",
          "/home/user /home/user [] [/home/user]\n", 0);
    o.cwd = "/home"; /* another cwd again */
    assert_int_equal(vsh_exec(sb, scripts[0], &o, &r), VSH_OK);
    assert_string_equal(r.out, "/home /home [] [/home/user]\n");
    vsh_result_free(&r);
    o.cwd = "/tmp";
  }
}

/* A cwd that is not a directory fails the call (VSH_FS, chdir's errno)
 * before anything runs, in an exec and in a session. */
static void test_opts_cwd_missing(void **state) {
  (void)state;
  check("echo f > /tmp/afile", "", 0);
  static const struct {
    const char *cwd;
    int code;
  } cases[] = {{"/nope", ENOENT},
               {"/tmp/afile", ENOTDIR},
               {"/tmp/afile/x", ENOTDIR},
               {"", ENOENT}};
  vsh_session *s;
  assert_int_equal(vsh_session_open(sb, &s), VSH_OK);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    vsh_exec_opts o = {0};
    o.cwd = cases[i].cwd;
    vsh_result r;
    assert_int_equal(vsh_exec(sb, "echo ran > /tmp/ran", &o, &r), VSH_FS);
    assert_int_equal(vsh_errcode(sb), cases[i].code);
    assert_non_null(strstr(vsh_errmsg(sb), cases[i].cwd));
    assert_null(r.out);
    vsh_result_free(&r);
    assert_int_equal(vsh_session_exec(s, "echo ran > /tmp/ran", 19, &o, &r),
                     VSH_FS);
    assert_int_equal(vsh_errcode(sb), cases[i].code);
    vsh_result_free(&r);
  }
  vsh_session_close(s);
  assert_false(vsh_exists(sb, "/tmp/ran"));
  assert_false(vsh_exists(sb, "/nope"));
}

static void test_session(void **state) {
  (void)state;
  vsh_session *s;
  assert_int_equal(vsh_session_open(sb, &s), VSH_OK);
  vsh_result r;
  const char *a = "x=42; f() { echo f$1; }; cd /tmp; exec 4>/tmp/s4";
  assert_int_equal(vsh_session_exec(s, a, strlen(a), NULL, &r), VSH_OK);
  vsh_result_free(&r);
  const char *b = "echo $x; f 1; pwd; echo four >&4; cat /tmp/s4";
  assert_int_equal(vsh_session_exec(s, b, strlen(b), NULL, &r), VSH_OK);
  assert_string_equal(r.out, "42\nf1\n/tmp\nfour\n");
  vsh_result_free(&r);
  assert_false(vsh_session_exited(s));
  assert_int_equal(vsh_session_exec(s, "exit 3", 6, NULL, &r), VSH_OK);
  assert_int_equal(r.status, 3);
  vsh_result_free(&r);
  assert_true(vsh_session_exited(s));
  vsh_session_close(s);
}

static int host_upper(vsh_cmd *c, int argc, char **argv, void *ud) {
  (void)ud;
  char buf[256];
  long n;
  while ((n = vsh_cmd_read(c, buf, sizeof buf)) > 0) {
    for (long i = 0; i < n; i++)
      if (buf[i] >= 'a' && buf[i] <= 'z')
        buf[i] -= 32;
    if (vsh_cmd_write(c, 1, buf, (size_t)n))
      return 141;
  }
  for (int i = 1; i < argc; i++) {
    vsh_cmd_write(c, 1, argv[i], strlen(argv[i]));
    vsh_cmd_write(c, 1, "\n", 1);
  }
  const char *v = vsh_cmd_getenv(c, "HV");
  if (v) {
    vsh_cmd_write(c, 1, v, strlen(v));
    vsh_cmd_write(c, 1, "\n", 1);
  }
  return argc > 1 && strcmp(argv[1], "fail") == 0 ? 7 : 0;
}

static int host_files(vsh_cmd *c, int argc, char **argv, void *ud) {
  (void)ud;
  (void)argc;
  vsh_sandbox *s = vsh_cmd_sandbox(c);
  const char *p = vsh_cmd_path(c, argv[1]);
  return vsh_write_file(s, p, "from host\n", 10, 0) == VSH_OK ? 0 : 1;
}

static void test_host_commands(void **state) {
  (void)state;
  assert_int_equal(vsh_register_command(sb, "upper", host_upper, NULL), VSH_OK);
  assert_int_equal(vsh_register_command(sb, "hostw", host_files, NULL), VSH_OK);
  check("echo abc | upper | cat", "ABC\n", 0);
  check("x=$(echo hi | upper); echo $x", "HI\n", 0);
  check("upper x > /tmp/h </dev/null; cat /tmp/h", "x\n", 0);
  check("upper fail </dev/null; echo $?", "fail\n7\n", 0);
  check("HV=env upper </dev/null", "env\n", 0);
  check("cd /tmp && hostw rel && cat /tmp/rel", "from host\n", 0);
  check("command -v upper >/dev/null && echo found", "found\n", 0);
}

static void test_files(void **state) {
  (void)state;
  assert_int_equal(vsh_write_file(sb, "a.txt", "data", 4, 0), VSH_OK);
  char *d;
  size_t n;
  assert_int_equal(vsh_read_file(sb, "/home/user/a.txt", &d, &n), VSH_OK);
  assert_int_equal(n, 4);
  assert_memory_equal(d, "data", 4);
  vsh_free(sb, d);
  assert_int_equal(vsh_append_file(sb, "a.txt", "++", 2), VSH_OK);
  check("cat a.txt", "data++", 0);
  vsh_stat st;
  assert_int_equal(vsh_stat_path(sb, "a.txt", &st), VSH_OK);
  assert_int_equal(st.type, VSH_TYPE_FILE);
  assert_int_equal(st.size, 6);
  assert_int_equal(vsh_read_file(sb, "nope", &d, &n), VSH_FS);
  assert_int_equal(vsh_errcode(sb), 2);
  assert_non_null(strstr(vsh_errmsg(sb), "nope"));
  assert_int_equal(vsh_mkdir(sb, "d/e", VSH_RECURSIVE), VSH_OK);
  assert_true(vsh_exists(sb, "d/e"));
  char **names;
  assert_int_equal(vsh_readdir(sb, "d", &names, &n), VSH_OK);
  assert_int_equal(n, 1);
  assert_string_equal(names[0], "e");
  vsh_free_names(sb, names, n);
  assert_int_equal(vsh_rm(sb, "d", 0), VSH_FS);
  assert_int_equal(vsh_rm(sb, "d", VSH_RECURSIVE), VSH_OK);
  assert_false(vsh_exists(sb, "d"));
  assert_int_equal(vsh_rename(sb, "a.txt", "b.txt"), VSH_OK);
  assert_int_equal(vsh_symlink(sb, "b.txt", "l"), VSH_OK);
  char *t;
  assert_int_equal(vsh_readlink(sb, "l", &t), VSH_OK);
  assert_string_equal(t, "b.txt");
  vsh_free(sb, t);
  assert_int_equal(vsh_realpath(sb, "l", &t), VSH_OK);
  assert_string_equal(t, "/home/user/b.txt");
  vsh_free(sb, t);
}

static void test_snapshots(void **state) {
  (void)state;
  check("echo one > s.txt", "", 0);
  vsh_snapshot *snap;
  assert_int_equal(vsh_snapshot_take(sb, &snap), VSH_OK);
  check("echo two > s.txt", "", 0);
  vsh_sandbox *f;
  assert_int_equal(vsh_fork(sb, &f), VSH_OK);
  assert_int_equal(vsh_restore(sb, snap), VSH_OK);
  check("cat s.txt", "one\n", 0);
  vsh_result r;
  assert_int_equal(vsh_exec(f, "cat s.txt; echo hi | cat", NULL, &r), VSH_OK);
  assert_string_equal(r.out, "two\nhi\n");
  vsh_result_free(&r);
  vsh_close(f);
  vsh_snapshot_free(snap);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_version),
      cmocka_unit_test_setup_teardown(test_fresh_state, setup, teardown),
      cmocka_unit_test_setup_teardown(test_opts, setup, teardown),
      cmocka_unit_test_setup_teardown(test_opts_cwd_missing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_opts_cwd_fresh, setup, teardown),
      cmocka_unit_test_setup_teardown(test_session, setup, teardown),
      cmocka_unit_test_setup_teardown(test_host_commands, setup, teardown),
      cmocka_unit_test_setup_teardown(test_files, setup, teardown),
      cmocka_unit_test_setup_teardown(test_snapshots, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
