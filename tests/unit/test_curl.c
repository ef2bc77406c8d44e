// layers: core vfs builtins net
/*
 * Tests of the curl builtin, run through the builtin harness against an
 * HTTP server on 127.0.0.1 started by the test (tests/unit/http_server.h,
 * shared with test_net.c). mk() gives the harness a network policy
 * (h->net) that every run sees.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include "bi_harness.h"
#include "net/net.h"

#include "http_server.h"

/* ---- harness ------------------------------------------------------------ */

static srv A, B;

static int setup_all(void **st) {
  (void)st;
  signal(SIGPIPE, SIG_IGN);
  srv_start(&A);
  srv_start(&B);
  return 0;
}

static int teardown_all(void **st) {
  (void)st;
  srv_stop(&A);
  srv_stop(&B);
  return 0;
}

typedef struct env {
  bh *h;
  net_policy *p;
} env;

/* A policy over h's allocator: origin A (GET, HEAD, POST; Authorization
 * injected under /secret) and origin B; extra settings through vp. */
static env mk(vsh_net_policy *vp) {
  env e;
  e.h = bh_new();
  static char a[64], as[80], b[64];
  snprintf(a, sizeof a, "http://127.0.0.1:%d", A.port);
  snprintf(as, sizeof as, "http://127.0.0.1:%d/echo/secret", A.port);
  snprintf(b, sizeof b, "http://127.0.0.1:%d", B.port);
  static vsh_http_header inj[] = {{"Authorization", "Bearer TOPSECRET"}};
  static vsh_net_rule rules[3];
  rules[0] = (vsh_net_rule){a, NULL, 0};
  rules[1] = (vsh_net_rule){as, inj, 1};
  rules[2] = (vsh_net_rule){b, NULL, 0};
  static const char *ms[] = {"POST"};
  vsh_net_policy d = {
      .rules = rules, .nrules = 3, .methods = ms, .nmethods = 1};
  if (!vp)
    vp = &d;
  if (!vp->rules) {
    vp->rules = rules;
    vp->nrules = 3;
  }
  char err[256];
  assert_int_equal(net_policy_compile(e.h->m, vp, &e.p, err, sizeof err), 0);
  e.h->net = e.p;
  return e;
}

static void done(env *e) {
  net_policy_free(e->p);
  bh_free(e->h);
}

/* curl ARGS... with stdin `in` (NULL: empty), through the harness. */
static int run_curl(env *e, const char *in, ...) {
  va_list ap;
  va_start(ap, in);
  int st = bh_runv(e->h, in, in ? strlen(in) : 0, "curl", ap);
  va_end(ap);
  return st;
}

static char *U(srv *s, const char *path) {
  static char b[16][1024];
  static int i;
  char *r = b[i++ % 16];
  snprintf(r, 1024, "http://127.0.0.1:%d%s", s->port, path);
  return r;
}

#define OUT(e) bh_out((e)->h)
#define ERR(e) bh_err((e)->h)
#define HAS(s, needle) assert_non_null(strstr((s), (needle)))
#define LACKS(s, needle) assert_null(strstr((s), (needle)))

/* ---- tests -------------------------------------------------------------- */

static void t_get(void **st) {
  (void)st;
  env e = mk(NULL);
  assert_int_equal(run_curl(&e, NULL, U(&A, "/plain"), NULL), 0);
  assert_string_equal(OUT(&e), "hello world\n");
  assert_string_equal(ERR(&e), "");
  /* Binary safe. */
  assert_int_equal(run_curl(&e, NULL, "-s", U(&A, "/bin"), NULL), 0);
  assert_int_equal(e.h->out.len, 512);
  for (int i = 0; i < 512; i++)
    assert_int_equal((unsigned char)e.h->out.data[i], i < 256 ? i : 511 - i);
  /* Scheme guessed as curl does. */
  char u[64];
  snprintf(u, sizeof u, "127.0.0.1:%d/plain", A.port);
  assert_int_equal(run_curl(&e, NULL, "-s", u, NULL), 0);
  assert_string_equal(OUT(&e), "hello world\n");
  /* Two URLs, one after the other. */
  assert_int_equal(
      run_curl(&e, NULL, "-s", U(&A, "/plain"), U(&B, "/plain"), NULL), 0);
  assert_string_equal(OUT(&e), "hello world\nhello world\n");
  done(&e);
}

static void t_output_files(void **st) {
  (void)st;
  env e = mk(NULL);
  assert_int_equal(
      run_curl(&e, NULL, "-s", "-o", "out.bin", U(&A, "/bin"), NULL), 0);
  assert_string_equal(OUT(&e), "");
  size_t n;
  char *d = bh_read(e.h, "out.bin", &n);
  assert_non_null(d);
  assert_int_equal(n, 512);
  assert_int_equal((unsigned char)d[255], 255);
  free(d);
  assert_int_equal(run_curl(&e, NULL, "-sO", U(&A, "/plain"), NULL), 0);
  d = bh_read(e.h, "plain", NULL);
  assert_string_equal(d, "hello world\n");
  free(d);
  /* -f with an error: no file. */
  assert_int_equal(
      run_curl(&e, NULL, "-sf", "-o", "nf.txt", U(&A, "/status/404"), NULL),
      22);
  assert_null(bh_read(e.h, "nf.txt", NULL));
  /* Into a directory that does not exist: 23. */
  assert_int_equal(run_curl(&e, NULL, "-o", "/nope/x", U(&A, "/plain"), NULL),
                   23);
  HAS(ERR(&e), "curl: (23)");
  done(&e);
}

static void t_usage(void **st) {
  (void)st;
  env e = mk(NULL);
  assert_int_equal(run_curl(&e, NULL, "--foo", U(&A, "/plain"), NULL), 2);
  assert_string_equal(ERR(&e), "curl: option --foo: is unknown\n"
                               "curl: try 'curl --help' or 'curl --manual' "
                               "for more information\n");
  assert_int_equal(run_curl(&e, NULL, "-j", NULL), 2);
  HAS(ERR(&e), "curl: option -j: is unknown");
  assert_int_equal(run_curl(&e, NULL, "-o", NULL), 2);
  HAS(ERR(&e), "curl: option -o: requires parameter");
  assert_int_equal(run_curl(&e, NULL, "--max-time=3", U(&A, "/"), NULL), 2);
  assert_int_equal(run_curl(&e, NULL, "-s", NULL), 2);
  HAS(ERR(&e), "curl: no URL specified!");
  assert_int_equal(run_curl(&e, NULL, "-k", U(&A, "/plain"), NULL), 2);
  HAS(ERR(&e), "-k");
  HAS(ERR(&e), "cannot be turned off");
  assert_int_equal(run_curl(&e, NULL, "--insecure", U(&A, "/plain"), NULL), 2);
  assert_int_equal(run_curl(&e, NULL, "--help", NULL), 0);
  HAS(OUT(&e), "Usage: curl [options...] <url>");
  HAS(OUT(&e), "--location");
  assert_int_equal(run_curl(&e, NULL, "-m", "abc", U(&A, "/"), NULL), 2);
  done(&e);
}

static void t_policy_refusals(void **st) {
  (void)st;
  env e = mk(NULL);
  int before = atomic_load(&A.requests);
  assert_int_equal(run_curl(&e, NULL, "http://example.com/", NULL), 7);
  HAS(ERR(&e), "curl: (7) ");
  HAS(ERR(&e), "origin http://example.com:80 is not in the allow-list");
  assert_int_equal(run_curl(&e, NULL, "-s", "http://example.com/", NULL), 7);
  assert_string_equal(ERR(&e), "");
  assert_int_equal(run_curl(&e, NULL, "-sS", "http://example.com/", NULL), 7);
  HAS(ERR(&e), "curl: (7)");
  assert_int_equal(run_curl(&e, NULL, "-X", "DELETE", U(&A, "/x"), NULL), 7);
  HAS(ERR(&e), "method DELETE refused by the network policy");
  assert_int_equal(run_curl(&e, NULL, "ftp://x.com/", NULL), 1);
  assert_int_equal(run_curl(&e, NULL, "http://a b/", NULL), 3);
  assert_int_equal(run_curl(&e, NULL, "http://u:p@127.0.0.1/", NULL), 3);
  assert_int_equal(atomic_load(&A.requests), before);
  /* A redirect to a refused URL. */
  assert_int_equal(run_curl(&e, NULL, "-L",
                            U(&A, "/redir?to=http%3A%2F%2Fexample.com%2F"),
                            NULL),
                   7);
  HAS(ERR(&e), "http://example.com/ refused by the network policy");
  done(&e);
}

static void t_fail_and_writeout(void **st) {
  (void)st;
  env e = mk(NULL);
  assert_int_equal(run_curl(&e, NULL, U(&A, "/status/404"), NULL), 0);
  assert_string_equal(OUT(&e), "status body");
  assert_int_equal(run_curl(&e, NULL, "-f", U(&A, "/status/404"), NULL), 22);
  assert_string_equal(OUT(&e), "");
  assert_string_equal(ERR(&e),
                      "curl: (22) The requested URL returned error: 404\n");
  assert_int_equal(run_curl(&e, NULL, "-sf", U(&A, "/status/500"), NULL), 22);
  assert_string_equal(ERR(&e), "");
  assert_int_equal(
      run_curl(&e, NULL, "--fail-with-body", U(&A, "/status/404"), NULL), 22);
  assert_string_equal(OUT(&e), "status body");
  assert_int_equal(run_curl(&e, NULL, "-s", "-o", "/dev/null", "-w",
                            "%{http_code} %{size_download} %{content_type} "
                            "%{num_redirects}\\n",
                            U(&A, "/plain"), NULL),
                   0);
  assert_string_equal(OUT(&e), "200 12 text/plain 0\n");
  assert_int_equal(run_curl(&e, NULL, "-sL", "-w",
                            "%{num_redirects} %{url_effective}", "-o",
                            "/dev/null", U(&A, "/redir?to=/plain"), NULL),
                   0);
  char want[128];
  snprintf(want, sizeof want, "1 %s", U(&A, "/plain"));
  assert_string_equal(OUT(&e), want);
  assert_int_equal(run_curl(&e, NULL, "-s", "-w", "%{redirect_url}|%%",
                            U(&A, "/redir?to=/plain"), NULL),
                   0);
  snprintf(want, sizeof want, "redirect\n%s|%%", U(&A, "/plain"));
  assert_string_equal(OUT(&e), want);
  /* Written even on failure, 000 without a response. */
  assert_int_equal(run_curl(&e, NULL, "-s", "-w", "[%{http_code}]",
                            "http://example.com/", NULL),
                   7);
  assert_string_equal(OUT(&e), "[000]");
  done(&e);
}

static void t_redirects(void **st) {
  (void)st;
  env e = mk(NULL);
  assert_int_equal(run_curl(&e, NULL, U(&A, "/redir?to=/plain"), NULL), 0);
  assert_string_equal(OUT(&e), "redirect\n");
  char chain[512];
  snprintf(chain, sizeof chain,
           "/redir?to=http%%3A%%2F%%2F127.0.0.1%%3A%d%%2Fplain", B.port);
  assert_int_equal(run_curl(&e, NULL, "-L", U(&A, chain), NULL), 0);
  assert_string_equal(OUT(&e), "hello world\n");
  assert_int_equal(run_curl(&e, NULL, "-L", U(&A, "/loop"), NULL), 47);
  HAS(ERR(&e), "curl: (47) Maximum (20) redirects followed");
  assert_int_equal(
      run_curl(&e, NULL, "-L", "--max-redirs", "3", U(&A, "/loop"), NULL), 47);
  HAS(ERR(&e), "Maximum (3) redirects");
  /* -i with -L shows every hop's headers. */
  assert_int_equal(run_curl(&e, NULL, "-iL", U(&A, "/redir?to=/plain"), NULL),
                   0);
  HAS(OUT(&e), "HTTP/1.1 302");
  HAS(OUT(&e), "HTTP/1.1 200");
  HAS(OUT(&e), "\r\n\r\nhello world\n");
  done(&e);
}

static void t_data(void **st) {
  (void)st;
  env e = mk(NULL);
  assert_int_equal(
      run_curl(&e, NULL, "-d", "a=1", "-d", "b=2", U(&A, "/echo"), NULL), 0);
  assert_true(!strncmp(OUT(&e), "POST /echo HTTP/1.1", 19));
  HAS(OUT(&e), "Content-Type: application/x-www-form-urlencoded\r\n");
  HAS(OUT(&e), "\r\n\r\na=1&b=2");
  bh_write(e.h, "body.txt", "line1\nline2\n");
  assert_int_equal(run_curl(&e, NULL, "-d", "@body.txt", U(&A, "/echo"), NULL),
                   0);
  HAS(OUT(&e), "\r\n\r\nline1line2");
  assert_int_equal(
      run_curl(&e, NULL, "--data-binary", "@body.txt", U(&A, "/echo"), NULL),
      0);
  HAS(OUT(&e), "\r\n\r\nline1\nline2\n");
  assert_int_equal(
      run_curl(&e, NULL, "--data-raw", "@body.txt", U(&A, "/echo"), NULL), 0);
  HAS(OUT(&e), "\r\n\r\n@body.txt");
  assert_int_equal(
      run_curl(&e, "from stdin", "--data-binary", "@-", U(&A, "/echo"), NULL),
      0);
  HAS(OUT(&e), "\r\n\r\nfrom stdin");
  assert_int_equal(run_curl(&e, NULL, "--data-urlencode", "q=a b&c/d",
                            "--data-urlencode", "plain text", U(&A, "/echo"),
                            NULL),
                   0);
  HAS(OUT(&e), "\r\n\r\nq=a%20b%26c%2Fd&plain%20text");
  assert_int_equal(run_curl(&e, NULL, "-G", "-d", "x=1", "-d", "y=2",
                            U(&A, "/echo?z=0"), NULL),
                   0);
  assert_true(!strncmp(OUT(&e), "GET /echo?z=0&x=1&y=2 HTTP/1.1", 30));
  /* -X with a body. */
  assert_int_equal(run_curl(&e, NULL, "-XPOST", "-H",
                            "Content-Type: application/json", "-d", "{}",
                            U(&A, "/echo"), NULL),
                   0);
  HAS(OUT(&e), "Content-Type: application/json\r\n");
  LACKS(OUT(&e), "x-www-form-urlencoded");
  done(&e);
}

static void t_form(void **st) {
  (void)st;
  env e = mk(NULL);
  bh_writen(e.h, "up.bin", "A\0B", 3);
  assert_int_equal(run_curl(&e, NULL, "-F", "name=value", "-F",
                            "file=@up.bin;type=application/x-test",
                            U(&A, "/echo"), NULL),
                   0);
  HAS(OUT(&e), "Content-Type: multipart/form-data; boundary=------------"
               "------------");
  HAS(OUT(&e), "Content-Disposition: form-data; name=\"name\"\r\n\r\nvalue"
               "\r\n");
  HAS(OUT(&e), "Content-Disposition: form-data; name=\"file\"; "
               "filename=\"up.bin\"\r\nContent-Type: application/x-test"
               "\r\n\r\nA");
  assert_non_null(memmem(e.h->out.data, e.h->out.len, "A\0B\r\n--", 7));
  assert_int_equal(run_curl(&e, NULL, "-F", "f=@missing", U(&A, "/echo"), NULL),
                   26);
  done(&e);
}

static void t_headers_and_verbose(void **st) {
  (void)st;
  env e = mk(NULL);
  assert_int_equal(run_curl(&e, NULL, "-H", "X-One: 1", "-A", "agent/1", "-e",
                            "http://ref/", "-b", "k=v", "-u", "al:pw",
                            U(&A, "/echo"), NULL),
                   0);
  HAS(OUT(&e), "X-One: 1\r\n");
  HAS(OUT(&e), "User-Agent: agent/1\r\n");
  HAS(OUT(&e), "Referer: http://ref/\r\n");
  HAS(OUT(&e), "Cookie: k=v\r\n");
  HAS(OUT(&e), "Authorization: Basic YWw6cHc=\r\n");
  /* Injected under /echo/secret: the script's own Authorization loses, and
   * -v never shows the secret. */
  assert_int_equal(run_curl(&e, NULL, "-v", "-H", "Authorization: mine",
                            U(&A, "/echo/secret"), NULL),
                   0);
  HAS(OUT(&e), "Authorization: Bearer TOPSECRET\r\n");
  LACKS(OUT(&e), "mine");
  LACKS(ERR(&e), "TOPSECRET");
  HAS(ERR(&e), "> Authorization: [hidden]");
  HAS(ERR(&e), "> GET /echo/secret HTTP/1.1");
  HAS(ERR(&e), "< HTTP/1.1 200");
  /* -I: headers only. */
  assert_int_equal(run_curl(&e, NULL, "-sI", U(&A, "/plain"), NULL), 0);
  HAS(OUT(&e), "HTTP/1.1 200");
  HAS(OUT(&e), "Content-Length: 12");
  LACKS(OUT(&e), "hello");
  done(&e);
}

static void t_limits(void **st) {
  (void)st;
  vsh_net_policy vp = {.max_response_bytes = 1000};
  env e = mk(&vp);
  assert_int_equal(run_curl(&e, NULL, U(&A, "/big?n=1001"), NULL), 63);
  HAS(ERR(&e), "curl: (63)");
  assert_int_equal(run_curl(&e, NULL, "-s", U(&A, "/big?n=1000"), NULL), 0);
  assert_int_equal(e.h->out.len, 1000);
  /* /slow announces 100000 bytes: over this cap before any wait. */
  assert_int_equal(run_curl(&e, NULL, "-s", U(&A, "/slow"), NULL), 63);
  done(&e);
  e = mk(NULL);
  assert_int_equal(run_curl(&e, NULL, "-m", "0.3", U(&A, "/slow"), NULL), 28);
  HAS(ERR(&e), "curl: (28) Operation timed out");
  assert_int_equal(run_curl(&e, NULL, "--compressed", U(&A, "/gzip"), NULL), 0);
  HAS(OUT(&e), "gzip body text");
  done(&e);
}

static void t_retry(void **st) {
  (void)st;
  env e = mk(NULL);
  int before = atomic_load(&A.requests);
  assert_int_equal(
      run_curl(&e, NULL, "--retry", "1", U(&A, "/status/503"), NULL), 0);
  assert_int_equal(atomic_load(&A.requests), before + 2);
  assert_string_equal(OUT(&e), "status body"); /* once */
  HAS(ERR(&e), "Will retry in 1 seconds. 1 retries left.");
  done(&e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_get),
      cmocka_unit_test(t_output_files),
      cmocka_unit_test(t_usage),
      cmocka_unit_test(t_policy_refusals),
      cmocka_unit_test(t_fail_and_writeout),
      cmocka_unit_test(t_redirects),
      cmocka_unit_test(t_data),
      cmocka_unit_test(t_form),
      cmocka_unit_test(t_headers_and_verbose),
      cmocka_unit_test(t_limits),
      cmocka_unit_test(t_retry),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
