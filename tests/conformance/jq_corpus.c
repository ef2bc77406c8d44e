/*
 * jq_corpus.c - runs jq's own test files (the .test files of
 * ../shared/conformance/jq, found through $VSH_SHARED_DIR) against the
 * sandbox's jq, through the public API, scored as jq's test harness (jq
 * --run-tests) scores them.
 *
 * The files: blank lines and lines whose first non-blank character is '#'
 * separate cases. A case is a program line, one input line (a single JSON
 * value) and the expected outputs, one JSON value a line, up to the next
 * blank or comment line. A case passes when the program's outputs equal the
 * expected values one by one, by JSON value (see jq_json.h), with no output
 * left over; an error after the expected outputs does not fail it, as in the
 * harness. A program that does not compile fails.
 *
 * "%%FAIL" before a program: it must not compile, and its error message,
 * the last "jq: error..." message with its location lines, must be the
 * following lines up to the next blank line (the harness compares them line
 * by line as prefixes of what is left of the message, and nothing may be
 * left over). "%%FAIL IGNORE MSG": it must not compile, any message.
 *
 * How a case runs: the program is written to /tmp/prog.jq in the sandbox
 * and run as `jq -c -f /tmp/prog.jq` with the input line on stdin; exit
 * status 3 means it did not compile, 2 that jq refused the input. A %%FAIL
 * program runs with an empty stdin, so a program that compiles never runs.
 * The environment is LC_ALL=C, plus PAGER=less for man.test, as jq's test
 * scripts set them. Module tests need jq's tests/modules directory and -L,
 * which the corpus does not have: they fail by design.
 *
 * The files are jq 1.8's (a little past 1.8.1): a compile error there says
 * "line L, column C:" and is followed by the program's line and a line of
 * carets under the error, so a jq that prints jq 1.7.1's one-line messages
 * fails the %%FAIL cases that check the message. The harness reproduced is
 * the one of the same version (src/jq_test.c).
 *
 * Case id: FILE:LINE, the line of the program.
 *
 *   jq_corpus [--host JQ] [--filter TEXT] [-v] [--list | --write-expected]
 *             [EXPECTATIONS]
 *   jq_corpus --self-test
 *
 * Without --list it prints "N passed, M failed" and compares the failures
 * with EXPECTATIONS (lines "ID<TAB>reason"): it fails on a failure that is
 * not listed and on a listed case that passes (or, in a run of the whole
 * corpus, does not exist). --write-expected rewrites EXPECTATIONS with the
 * failures of this run, keeping the reasons already there and the entries
 * of cases this run did not select, "not analysed" for new ones. --filter
 * runs only the cases whose id contains TEXT; -v shows each failure.
 * --host JQ replaces the sandbox's jq with a host command that runs the jq
 * binary JQ (its stdin and -f file copied out of the sandbox, its output
 * back in), to check this runner against a reference jq through the same
 * path; the expectations are then not compared unless --write-expected is
 * given.
 *
 * Without the corpus, or when the sandbox has no jq command, it says so and
 * exits 77 (ctest: skipped). --self-test checks the runner's comparison and
 * message matching on fixed texts (ctest jq_corpus_self_test).
 */
#include "corpus.h"
#include "jq_json.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vsh.h"

#define HOST_TIMEOUT_S 20
#define CASE_TIMEOUT_MS 10000

static struct {
  const char *host;   /* --host JQ */
  const char *filter; /* --filter */
  int verbose;
  char tmpdir[64]; /* host mode: files of the running case */
  vsh_sandbox *sb;
  strv ids; /* every case id of the corpus, selected or not, in order */
} opt;

/* What one run of jq gave. */
typedef struct run_out {
  char *out, *err;
  size_t out_len, err_len;
  int status;
  int limited; /* the sandbox or the host timeout stopped it */
} run_out;

static void run_free(run_out *r) {
  free(r->out);
  free(r->err);
  memset(r, 0, sizeof *r);
}

/* ---- running jq ----------------------------------------------------------
 */

static int write_host(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  size_t w = fwrite(data, 1, len, f);
  return fclose(f) == 0 && w == len ? 0 : -1;
}

/* Runs argv on the host with stdin from in_path, stdout and stderr to
 * out_path and err_path, and the sandbox command's PAGER and LC_ALL; kills
 * it after HOST_TIMEOUT_S. Returns its exit status (128+N for signal N). */
static int spawn_host(vsh_cmd *cmd, char **argv, const char *in_path,
                      const char *out_path, const char *err_path) {
  const char *pager = vsh_cmd_getenv(cmd, "PAGER");
  const char *lc_all = vsh_cmd_getenv(cmd, "LC_ALL");
  pid_t pid = fork();
  if (pid < 0)
    return 126;
  if (pid == 0) {
    int in = open(in_path, O_RDONLY);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0)
      _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    if (pager)
      setenv("PAGER", pager, 1);
    else
      unsetenv("PAGER");
    if (lc_all)
      setenv("LC_ALL", lc_all, 1);
    else
      unsetenv("LC_ALL");
    execv(argv[0], argv);
    _exit(127);
  }
  int st = 0;
  time_t start = time(NULL);
  for (;;) {
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid)
      break;
    if (w < 0 && errno != EINTR)
      return 126;
    if (time(NULL) - start > HOST_TIMEOUT_S) {
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      break;
    }
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* --host: the sandbox command `jq`, run by the host's jq. Its stdin and the
 * file of -f are copied out of the sandbox, its output back in. */
static int host_jq(vsh_cmd *cmd, int argc, char **argv, void *ud) {
  (void)ud;
  char ip[128], op[128], ep[128], pp[128];
  snprintf(ip, sizeof ip, "%s/input", opt.tmpdir);
  snprintf(op, sizeof op, "%s/out", opt.tmpdir);
  snprintf(ep, sizeof ep, "%s/err", opt.tmpdir);
  snprintf(pp, sizeof pp, "%s/prog.jq", opt.tmpdir);
  jj_buf in = {0};
  char chunk[65536];
  long k;
  jj_put(&in, "", 0);
  while ((k = vsh_cmd_read(cmd, chunk, sizeof chunk)) > 0)
    jj_put(&in, chunk, (size_t)k);
  int bad = k < 0 || write_host(ip, in.d, in.n);
  free(in.d);
  char **hv = calloc((size_t)argc + 1, sizeof *hv);
  hv[0] = (char *)opt.host;
  for (int i = 1; i < argc && !bad; i++) {
    hv[i] = argv[i];
    if (strcmp(argv[i - 1], "-f") == 0) {
      char *data = NULL;
      size_t len = 0;
      bad = vsh_read_file(vsh_cmd_sandbox(cmd), vsh_cmd_path(cmd, argv[i]),
                          &data, &len) != VSH_OK ||
            write_host(pp, data, len);
      vsh_free(vsh_cmd_sandbox(cmd), data);
      hv[i] = pp;
    }
  }
  int status = bad ? 2 : spawn_host(cmd, hv, ip, op, ep);
  free(hv);
  const char *paths[] = {op, ep};
  for (int fd = 1; fd <= 2 && !bad; fd++) {
    size_t len;
    char *data = read_host(paths[fd - 1], &len);
    if (data && vsh_cmd_write(cmd, fd, data, len))
      status = 141;
    free(data);
  }
  return status;
}

static void run_sandbox(const char *prog, const char *input, int pager,
                        run_out *r) {
  r->status = 2;
  if (vsh_write_file(opt.sb, "/tmp/prog.jq", prog, strlen(prog), 0) != VSH_OK) {
    fprintf(stderr, "jq_corpus: cannot write /tmp/prog.jq: %s\n",
            vsh_errmsg(opt.sb));
    return;
  }
  const char *env[] = {"LC_ALL=C", pager ? "PAGER=less" : NULL, NULL};
  vsh_exec_opts o;
  memset(&o, 0, sizeof o);
  o.env = env;
  o.stdin_data = input;
  o.stdin_len = strlen(input);
  o.timeout_ms = CASE_TIMEOUT_MS;
  vsh_result res;
  memset(&res, 0, sizeof res);
  vsh_exec(opt.sb, "jq -c -f /tmp/prog.jq", &o, &res);
  r->status = res.status;
  r->limited = (res.flags & (VSH_RESULT_TIMED_OUT | VSH_RESULT_LIMIT |
                             VSH_RESULT_CANCELLED)) != 0;
  r->out = malloc(res.out_len + 1);
  memcpy(r->out, res.out ? res.out : "", res.out_len);
  r->out[res.out_len] = 0;
  r->out_len = res.out_len;
  r->err = malloc(res.err_len + 1);
  memcpy(r->err, res.err ? res.err : "", res.err_len);
  r->err[res.err_len] = 0;
  r->err_len = res.err_len;
  vsh_result_free(&res);
}

/* Runs prog over input (empty: no input at all, so that only compiling
 * happens). */
static void run_jq(const char *prog, const char *input, int pager, run_out *r) {
  memset(r, 0, sizeof *r);
  run_sandbox(prog, input, pager, r);
}

/* ---- scoring -------------------------------------------------------------
 */

/* The last error message of stderr: from the last line that starts with
 * "jq: error" to the next line that starts with "jq: " (jq's "jq: N compile
 * errors"), without the final newline. Empty when there is none. */
static char *last_error(const char *err) {
  const char *start = NULL;
  for (const char *l = err; l && *l;) {
    if (strncmp(l, "jq: error", 9) == 0)
      start = l;
    const char *e = strchr(l, '\n');
    l = e ? e + 1 : NULL;
  }
  if (!start)
    return strdup("");
  const char *end = start;
  for (;;) {
    const char *e = strchr(end, '\n');
    if (!e) {
      end += strlen(end);
      break;
    }
    if (strncmp(e + 1, "jq: ", 4) == 0 || e[1] == 0) {
      end = e;
      break;
    }
    end = e + 1;
  }
  return strndup(start, (size_t)(end - start));
}

/* jq's harness: each expected line must be a prefix of what is left of the
 * message, which then moves past it and past one newline; nothing may be
 * left at the end. */
static int message_matches(const char *msg, const strv *lines) {
  const char *m = msg;
  for (size_t i = 0; i < lines->n; i++) {
    size_t n = strlen(lines->v[i]);
    if (strncmp(lines->v[i], m, n) != 0)
      return 0;
    m += n;
    if (*m == '\n')
      m++;
  }
  return *m == 0;
}

static void show(const char *what, const char *text, size_t len) {
  if (len > 2000)
    len = 2000;
  printf("    %s: %.*s%s", what, (int)len, text,
         len && text[len - 1] == '\n' ? "" : "\n");
}

/* A case that must not compile. */
static int score_fail(const char *id, const char *prog, const strv *msg,
                      int check_msg, int pager) {
  run_out r;
  run_jq(prog, "", pager, &r);
  char *got = last_error(r.err ? r.err : "");
  int ok = r.status == 3 && (!check_msg || message_matches(got, msg));
  if (!ok && opt.verbose) {
    printf("FAIL %s: %s\n", id, prog);
    if (r.status != 3)
      printf("    compiled (status %d), should not have\n", r.status);
    else
      show("message", got, strlen(got));
  }
  free(got);
  run_free(&r);
  return ok;
}

/* A case with an input and expected outputs. */
static int score_run(const char *id, const char *prog, const char *input,
                     const strv *expected, int pager) {
  run_out r;
  run_jq(prog, input, pager, &r);
  const char *why = NULL;
  jj_val **got = NULL;
  long ngot = 0;
  char whybuf[128];
  if (r.limited)
    why = "stopped by a limit or the timeout";
  else if (r.status == 3)
    why = "did not compile";
  else if (r.status == 2)
    why = "jq refused the input or its arguments";
  else if (r.status >= 126)
    why = "jq did not run";
  else if ((ngot = jj_parse_all(r.out ? r.out : "", r.out_len, &got)) < 0)
    why = "the output is not JSON";
  for (size_t i = 0; !why && i < expected->n; i++) {
    jj_val *want = jj_parse_one(expected->v[i], strlen(expected->v[i]));
    if (!want) {
      snprintf(whybuf, sizeof whybuf, "expected line %zu is not JSON", i + 1);
      why = whybuf;
    } else if ((long)i >= ngot) {
      snprintf(whybuf, sizeof whybuf, "%ld output(s), %zu expected", ngot,
               expected->n);
      why = whybuf;
    } else if (!jj_equal(want, got[i])) {
      snprintf(whybuf, sizeof whybuf, "output %zu differs", i + 1);
      why = whybuf;
    }
    jj_free(want);
  }
  if (!why && ngot > (long)expected->n) {
    snprintf(whybuf, sizeof whybuf, "%ld outputs, %zu expected", ngot,
             expected->n);
    why = whybuf;
  }
  for (long i = 0; i < ngot; i++)
    jj_free(got[i]);
  free(got);
  if (why && opt.verbose) {
    printf("FAIL %s: %s\n    %s (status %d)\n", id, prog, why, r.status);
    show("input", input, strlen(input));
    for (size_t i = 0; i < expected->n; i++)
      show("expected", expected->v[i], strlen(expected->v[i]));
    show("stdout", r.out ? r.out : "", r.out_len);
    if (r.err_len)
      show("stderr", r.err, r.err_len);
  }
  run_free(&r);
  return why == NULL;
}

/* ---- reading a test file -------------------------------------------------
 */

/* jq's skipline: blank, or '#' after blanks. */
static int skipline(const char *l) {
  while (*l == ' ' || *l == '\t')
    l++;
  return *l == '#' || *l == 0;
}

static void run_file(const char *dir, const char *name) {
  char *text = corpus_read(dir, name, NULL);
  if (!text)
    return;
  /* split into lines, in place */
  strv lines = {0};
  for (char *p = text; *p;) {
    char *e = strchr(p, '\n');
    if (e)
      *e = 0;
    sv_push(&lines, strdup(p));
    p = e ? e + 1 : p + strlen(p);
  }
  free(text);
  int pager = strcmp(name, "man.test") == 0;
  int must_fail = 0, check_msg = 0;
  size_t i = 0;
  while (i < lines.n) {
    const char *l = lines.v[i++];
    if (skipline(l))
      continue;
    if (strcmp(l, "%%FAIL") == 0 || strcmp(l, "%%FAIL IGNORE MSG") == 0) {
      must_fail = 1;
      check_msg = strcmp(l, "%%FAIL") == 0;
      continue;
    }
    const char *prog = l;
    size_t prog_line = i;
    const char *input = NULL;
    strv body = {0};
    if (!must_fail) {
      if (i >= lines.n)
        break; /* a program without input: the harness stops here */
      input = lines.v[i++];
    }
    while (i < lines.n && !skipline(lines.v[i]))
      sv_push(&body, strdup(lines.v[i++]));
    if (i < lines.n)
      i++; /* the separator line */
    char id[512];
    snprintf(id, sizeof id, "%s:%zu", name, prog_line);
    sv_push(&opt.ids, strdup(id));
    if (!opt.filter || strstr(id, opt.filter)) {
      int ok = must_fail ? score_fail(id, prog, &body, check_msg, pager)
                         : score_run(id, prog, input, &body, pager);
      record(id, ok);
    }
    sv_free(&body);
    must_fail = check_msg = 0;
  }
  sv_free(&lines);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- expectations --------------------------------------------------------
 */

typedef struct expect {
  strv ids, reasons, header; /* header: the '#' lines at the top */
} expect;

static int read_expect(const char *path, expect *x) {
  memset(x, 0, sizeof *x);
  char *t = read_host(path, NULL);
  if (!t)
    return -1;
  char *save = NULL;
  for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    if (l[0] == '#') {
      if (!x->ids.n)
        sv_push(&x->header, strdup(l));
      continue;
    }
    char *tab = strchr(l, '\t');
    sv_push(&x->ids, strndup(l, tab ? (size_t)(tab - l) : strlen(l)));
    sv_push(&x->reasons, strdup(tab ? tab + 1 : "not analysed"));
  }
  free(t);
  return 0;
}

static void free_expect(expect *x) {
  sv_free(&x->ids);
  sv_free(&x->reasons);
  sv_free(&x->header);
}

static const char *reason_of(const expect *x, const char *id) {
  for (size_t i = 0; i < x->ids.n; i++)
    if (strcmp(x->ids.v[i], id) == 0)
      return x->reasons.v[i];
  return NULL;
}

static int write_expect(const char *path, const expect *x) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "jq_corpus: cannot write %s\n", path);
    return 1;
  }
  for (size_t i = 0; i < x->header.n; i++)
    fprintf(f, "%s\n", x->header.v[i]);
  size_t n = 0;
  for (size_t i = 0; i < opt.ids.n; i++) {
    const char *id = opt.ids.v[i];
    const char *old = reason_of(x, id);
    int ran = sv_has(&corpus.passed, id) || sv_has(&corpus.failed, id);
    if (ran ? sv_has(&corpus.failed, id) : old != NULL) {
      fprintf(f, "%s\t%s\n", id, old ? old : "not analysed");
      n++;
    }
  }
  fclose(f);
  printf("wrote %zu entries to %s\n", n, path);
  return 0;
}

static int compare_expect(const expect *x) {
  int rc = 0;
  for (size_t i = 0; i < corpus.failed.n; i++)
    if (!reason_of(x, corpus.failed.v[i])) {
      printf("unexpected failure: %s\n", corpus.failed.v[i]);
      rc = 1;
    }
  for (size_t i = 0; i < x->ids.n; i++) {
    const char *id = x->ids.v[i];
    if (sv_has(&corpus.passed, id)) {
      printf("listed failure did not fail (remove it from the "
             "expectations): %s\n",
             id);
      rc = 1;
    } else if (!opt.filter && !sv_has(&opt.ids, id)) {
      printf("listed case is not in the corpus: %s\n", id);
      rc = 1;
    }
  }
  return rc;
}

/* ---- --self-test ---------------------------------------------------------
 */

/* The runner's own pieces on fixed texts (jq's messages recorded from jq):
 * the JSON comparison, the error message taken from stderr and the
 * harness's message match. Returns the number of checks that failed. */
static int self_test(void) {
  static const struct {
    const char *a, *b;
    int equal;
  } eq[] = {
      {"1", "1.0", 1},
      {"100", "1e2", 1},
      {"1", "2", 0},
      {"1e1000", "1.7976931348623157e+308", 1},
      {"-1e1000", "-1.7976931348623157e+308", 1},
      {"0.30000000000000004", "0.1", 0},
      {"{\"a\":1,\"b\":[1,2]}", "{\"b\":[1,2.0],\"a\":1}", 1},
      {"{\"a\":1,\"a\":2}", "{\"a\":2}", 1},
      {"{\"a\":1}", "{\"a\":1,\"b\":null}", 0},
      {"[1,2]", "[2,1]", 0},
      {"\"\\u00e9\"", "\"\xc3\xa9\"", 1},
      {"\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\"", 1},
      {"\"\\ud83d\"", "\"\xef\xbf\xbd\"", 1},
      {"\"a\\u0000b\"", "\"a\\u0000c\"", 0},
      {"null", "false", 0},
      {"true", "true", 1},
      {"\xef\xbb\xbf\"bom\"", "\"bom\"", 1},
      {"[]", "{}", 0},
  };
  int bad = 0;
  for (size_t i = 0; i < sizeof eq / sizeof eq[0]; i++) {
    jj_val *a = jj_parse_one(eq[i].a, strlen(eq[i].a));
    jj_val *b = jj_parse_one(eq[i].b, strlen(eq[i].b));
    if (!a || !b || jj_equal(a, b) != eq[i].equal) {
      printf("self-test: %s %s %s\n", eq[i].a,
             eq[i].equal ? "==" : "!=", eq[i].b);
      bad++;
    }
    jj_free(a);
    jj_free(b);
  }
  static const char *not_one[] = {"",    "1 2", "[1,", "{\"a\"}",
                                  "\"x", "tru", "1x"};
  for (size_t i = 0; i < sizeof not_one / sizeof not_one[0]; i++) {
    jj_val *v = jj_parse_one(not_one[i], strlen(not_one[i]));
    if (v) {
      printf("self-test: \"%s\" read as one value\n", not_one[i]);
      bad++;
    }
    jj_free(v);
  }
  jj_val **vs;
  const char *four = "1\n[2]\n{\"a\":3} \"x\"\n";
  long n = jj_parse_all(four, strlen(four), &vs);
  if (n != 4) {
    printf("self-test: 4 values read as %ld\n", n);
    bad++;
  }
  for (long i = 0; i < n; i++)
    jj_free(vs[i]);
  free(vs);

  const char *err =
      "jq: error: $bar is not defined at <top-level>, line 1, column 20:\n"
      "    . as $foo | [$foo, $bar]\n"
      "                       ^^^^\n"
      "jq: error: syntax error, unexpected ']' at <top-level>, line 1, "
      "column 7:\n"
      "    . as [] | null\n"
      "          ^\n"
      "jq: 2 compile errors\n";
  char *last = last_error(err);
  strv want = {0};
  sv_push(&want, strdup("jq: error: syntax error, unexpected ']' at "
                        "<top-level>, line 1, column 7:"));
  sv_push(&want, strdup("    . as [] | null"));
  if (message_matches(last, &want)) {
    printf("self-test: a message without its caret line matched\n");
    bad++;
  }
  sv_push(&want, strdup("          ^"));
  if (!message_matches(last, &want)) {
    printf("self-test: the message did not match: %s\n", last);
    bad++;
  }
  sv_push(&want, strdup("jq: 2 compile errors"));
  if (message_matches(last, &want)) {
    printf("self-test: a longer expectation matched\n");
    bad++;
  }
  sv_free(&want);
  free(last);
  last = last_error("jq: 1 compile error\n");
  if (*last) {
    printf("self-test: a message found where there is none\n");
    bad++;
  }
  free(last);
  printf("self-test: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

/* ---- main ----------------------------------------------------------------
 */

static int usage(void) {
  fprintf(stderr, "usage: jq_corpus [--host JQ] [--filter TEXT] [-v] "
                  "[--list | --write-expected] [EXPECTATIONS]\n"
                  "       jq_corpus --self-test\n");
  return 2;
}

static int has_jq(void) {
  vsh_result r;
  memset(&r, 0, sizeof r);
  vsh_exec(opt.sb, "type jq >/dev/null 2>&1", NULL, &r);
  int ok = r.status == 0;
  vsh_result_free(&r);
  return ok;
}

int main(int argc, char **argv) {
  const char *expect_path = NULL;
  int list = 0, write = 0;
  if (argc == 2 && strcmp(argv[1], "--self-test") == 0)
    return self_test() ? 1 : 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--host") == 0 && i + 1 < argc)
      opt.host = argv[++i];
    else if (strcmp(argv[i], "--filter") == 0 && i + 1 < argc)
      opt.filter = argv[++i];
    else if (strcmp(argv[i], "-v") == 0)
      opt.verbose = 1;
    else if (strcmp(argv[i], "--list") == 0)
      list = 1;
    else if (strcmp(argv[i], "--write-expected") == 0)
      write = 1;
    else if (argv[i][0] == '-' || expect_path)
      return usage();
    else
      expect_path = argv[i];
  }
  if (write && !expect_path)
    return usage();
  char dir[4096];
  if (corpus_dir("jq", "jq.test", dir, sizeof dir))
    return 77;
  vsh_config cfg;
  vsh_config_init(&cfg);
  if (vsh_open(&cfg, &opt.sb) != VSH_OK) {
    fprintf(stderr, "jq_corpus: cannot open a sandbox\n");
    return 1;
  }
  if (opt.host) {
    snprintf(opt.tmpdir, sizeof opt.tmpdir, "/tmp/jq_corpus.XXXXXX");
    if (!mkdtemp(opt.tmpdir) ||
        vsh_register_command(opt.sb, "jq", host_jq, NULL) != VSH_OK) {
      perror("jq_corpus: --host");
      vsh_close(opt.sb);
      return 1;
    }
  } else if (!has_jq()) {
    printf("jq_corpus: skipped: the sandbox has no jq command\n");
    vsh_close(opt.sb);
    return 77;
  }
  /* every *.test file of the corpus, in name order */
  strv files = {0};
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n > 5 && strcmp(e->d_name + n - 5, ".test") == 0)
      sv_push(&files, strdup(e->d_name));
  }
  if (d)
    closedir(d);
  if (files.n)
    qsort(files.v, files.n, sizeof *files.v, by_name);
  for (size_t i = 0; i < files.n; i++)
    run_file(dir, files.v[i]);
  sv_free(&files);
  vsh_close(opt.sb);
  if (opt.host) {
    char p[128];
    const char *names[] = {"prog.jq", "input", "out", "err"};
    for (size_t i = 0; i < 4; i++) {
      snprintf(p, sizeof p, "%s/%s", opt.tmpdir, names[i]);
      unlink(p);
    }
    rmdir(opt.tmpdir);
  }

  size_t total = corpus.passed.n + corpus.failed.n;
  printf("%zu passed, %zu failed (%.1f%% of %zu)", corpus.passed.n,
         corpus.failed.n, total ? 100.0 * corpus.passed.n / total : 0.0, total);
  if (corpus.not_run)
    printf(", %d file(s) not read", corpus.not_run);
  printf("%s%s\n", opt.host ? ", through " : "", opt.host ? opt.host : "");
  int rc = 0;
  expect x;
  memset(&x, 0, sizeof x);
  if (list) {
    for (size_t i = 0; i < corpus.failed.n; i++)
      printf("%s\n", corpus.failed.v[i]);
  } else if (write) {
    if (read_expect(expect_path, &x) && errno != ENOENT) {
      fprintf(stderr, "jq_corpus: cannot read %s\n", expect_path);
      rc = 1;
    } else {
      rc = write_expect(expect_path, &x);
    }
  } else if (!opt.host) {
    if (expect_path && read_expect(expect_path, &x)) {
      fprintf(stderr, "jq_corpus: cannot read %s\n", expect_path);
      rc = 1;
    } else {
      rc = compare_expect(&x);
    }
  }
  free_expect(&x);
  sv_free(&opt.ids);
  sv_free(&corpus.passed);
  sv_free(&corpus.failed);
  return rc;
}
