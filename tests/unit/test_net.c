// layers: core net
/*
 * Tests of the network layer: URL canonicalisation, the allow-list, address
 * classification, and net_fetch against real HTTP servers on 127.0.0.1 that
 * this test runs in threads (and an HTTPS one: `openssl s_server` with a
 * certificate made at test time). Nothing but 127.0.0.1 is ever contacted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "net/net.h"

extern char **environ;

#include "http_server.h"

/* ---- fixtures ----------------------------------------------------------- */

static srv A, B; /* two origins: 127.0.0.1:A.port and 127.0.0.1:B.port */
static mem *M;

static int setup_all(void **st) {
  (void)st;
  signal(SIGPIPE, SIG_IGN);
  srv_start(&A);
  srv_start(&B);
  M = mem_new(NULL, NULL, 0);
  return 0;
}

static int teardown_all(void **st) {
  (void)st;
  srv_stop(&A);
  srv_stop(&B);
  assert_int_equal(mem_used(M), 0);
  mem_unref(M);
  return 0;
}

static char *urlA(const char *path) {
  static char b[8][2048];
  static int i;
  char *r = b[i++ % 8];
  snprintf(r, 2048, "http://127.0.0.1:%d%s", A.port, path);
  return r;
}

static char *urlB(const char *path) {
  static char b[8][2048];
  static int i;
  char *r = b[i++ % 8];
  snprintf(r, 2048, "http://127.0.0.1:%d%s", B.port, path);
  return r;
}

/* Percent-encode for the ?to= parameter of /redir. */
static char *enc(const char *s) {
  static char b[4][2048];
  static int i;
  char *r = b[i++ % 4], *o = r;
  for (; *s; s++) {
    if (strchr(":/?&=%", *s))
      o += sprintf(o, "%%%02X", (unsigned char)*s);
    else
      *o++ = *s;
  }
  *o = 0;
  return r;
}

static net_policy *compile(const vsh_net_policy *vp) {
  net_policy *p = NULL;
  char err[512];
  int rc = net_policy_compile(M, vp, &p, err, sizeof err);
  if (rc)
    fail_msg("compile: %s", err);
  return p;
}

static net_policy *policy_of(const char *const *prefixes, size_t n) {
  vsh_net_rule rules[16];
  memset(rules, 0, sizeof rules);
  for (size_t i = 0; i < n; i++)
    rules[i].prefix = prefixes[i];
  vsh_net_policy vp = {.rules = rules, .nrules = n};
  return compile(&vp);
}

static int64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- URLs --------------------------------------------------------------- */

static void expect_url(const char *in, const char *url, const char *origin) {
  net_url u;
  char err[256];
  int rc = net_url_parse(M, in, 0, &u, err, sizeof err);
  if (rc)
    fail_msg("%s: %s", in, err);
  assert_string_equal(u.url, url);
  assert_string_equal(u.origin, origin);
  net_url_free(M, &u);
}

static void expect_bad(const char *in, int code) {
  net_url u;
  char err[256];
  int rc = net_url_parse(M, in, 0, &u, err, sizeof err);
  if (rc != code)
    fail_msg("%s: got %d, want %d", in, rc, code);
}

static void t_url_canon(void **st) {
  (void)st;
  expect_url("http://2130706433/", "http://127.0.0.1/", "http://127.0.0.1:80");
  expect_url("http://0x7f.1/a", "http://127.0.0.1/a", "http://127.0.0.1:80");
  expect_url("http://0177.0.0.1/", "http://127.0.0.1/", "http://127.0.0.1:80");
  expect_url("http://127.1:8080/", "http://127.0.0.1:8080/",
             "http://127.0.0.1:8080");
  expect_url("HTTP://EXAMPLE.Com./X", "http://example.com/X",
             "http://example.com:80");
  expect_url("https://example.com:443/", "https://example.com/",
             "https://example.com:443");
  expect_url("https://example.com:0443/", "https://example.com/",
             "https://example.com:443");
  expect_url("http://BÜCHER.de/", "http://xn--bcher-kva.de/",
             "http://xn--bcher-kva.de:80");
  expect_url("http://xn--bcher-kva.de/", "http://xn--bcher-kva.de/",
             "http://xn--bcher-kva.de:80");
  expect_url("http://[0:0::1]:81/", "http://[::1]:81/", "http://[::1]:81");
  expect_url("http://[2001:DB8:0:0:0:0:0:1]/", "http://[2001:db8::1]/",
             "http://[2001:db8::1]:80");
  expect_url("http://%65xample.com/", "http://example.com/",
             "http://example.com:80");
  expect_url("http://x.com/a/../b/./c?q=1#frag", "http://x.com/b/c?q=1",
             "http://x.com:80");
  expect_url("http://x.com", "http://x.com/", "http://x.com:80");

  expect_bad("http://user:pw@x.com/", 3);
  expect_bad("http://user@x.com/", 3);
  expect_bad("ftp://x.com/", 1);
  expect_bad("file:///etc/passwd", 1);
  expect_bad("gopher://x.com/", 1);
  expect_bad("http://[fe80::1%25eth0]/", 3);
  expect_bad("http://1.2.3.4.5/", 3);
  expect_bad("http://256.1.1.1/", 3);
  expect_bad("http://x.123/", 3);
  expect_bad("http://x.com/a b", 3);
  expect_bad("http://x.com/a\tb", 3);
  expect_bad("http://x.com:99999/", 3);
  expect_bad("http://x.com:0/", 3);
  expect_bad("http://x..com/", 3);
  expect_bad("x.com/a", 3);
  expect_bad("", 3);

  net_url u;
  char err[256];
  assert_int_equal(
      net_url_parse(M, "x.com/a", NET_URL_GUESS_SCHEME, &u, err, sizeof err),
      0);
  assert_string_equal(u.url, "http://x.com/a");
  net_url_free(M, &u);
}

/* ---- policy ------------------------------------------------------------- */

static void allowed(const net_policy *p, const char *url, const char *m) {
  char why[512];
  int rc = net_check(p, url, m, why, sizeof why);
  if (rc)
    fail_msg("%s %s refused (%d): %s", m ? m : "GET", url, rc, why);
}

static void refused(const net_policy *p, const char *url, const char *m,
                    const char *needle) {
  char why[512];
  int rc = net_check(p, url, m, why, sizeof why);
  if (rc == 0)
    fail_msg("%s %s allowed", m ? m : "GET", url);
  if (needle && !strstr(why, needle))
    fail_msg("%s: message '%s' lacks '%s'", url, why, needle);
}

static void t_policy_origin(void **st) {
  (void)st;
  const char *e[] = {"https://api.example.com", "http://127.0.0.1:8080",
                     "https://Files.Example.COM.:443/"};
  net_policy *p = policy_of(e, 3);
  allowed(p, "https://api.example.com/", NULL);
  allowed(p, "https://api.example.com:443/x?y=1", NULL);
  allowed(p, "https://API.EXAMPLE.COM./x", NULL);
  allowed(p, "https://files.example.com/a", NULL);
  allowed(p, "http://2130706433:8080/", NULL);
  allowed(p, "http://0x7f000001:8080/", NULL);
  refused(p, "http://api.example.com/", NULL,
          "origin http://api.example.com:80");
  refused(p, "https://api.example.com:8443/", NULL, "not in the allow-list");
  refused(p, "https://example.com/", NULL, NULL);
  refused(p, "https://api.example.com.evil.com/", NULL, NULL);
  refused(p, "https://evilapi.example.com/", NULL, NULL);
  refused(p, "http://127.0.0.1/", NULL, NULL);
  refused(p, "http://127.0.0.2:8080/", NULL, NULL);
  refused(p, "http://[::ffff:127.0.0.1]:8080/", NULL, NULL);
  refused(p, "https://user@api.example.com/", NULL, NULL);
  assert_int_equal(net_check(p, "ftp://api.example.com/", NULL, NULL, 0), 1);
  assert_int_equal(net_check(p, "https://a b/", NULL, NULL, 0), 3);
  net_policy_free(p);

  /* An IDN entry and its punycode spelling are one origin. */
  const char *e2[] = {"https://bücher.de/"};
  p = policy_of(e2, 1);
  allowed(p, "https://xn--bcher-kva.de/x", NULL);
  allowed(p, "https://BÜCHER.DE/x", NULL);
  net_policy_free(p);
}

static void t_policy_segments(void **st) {
  (void)st;
  const char *e[] = {"https://api.x.com/v1", "https://api.x.com/docs/"};
  net_policy *p = policy_of(e, 2);
  allowed(p, "https://api.x.com/v1", NULL);
  allowed(p, "https://api.x.com/v1/", NULL);
  allowed(p, "https://api.x.com/v1/users/2", NULL);
  allowed(p, "https://api.x.com/v1?q=%2f", NULL); /* the query is no path */
  allowed(p, "https://api.x.com/v1/./a", NULL);
  allowed(p, "https://api.x.com/docs/a", NULL);
  allowed(p, "https://api.x.com/docs/", NULL);
  refused(p, "https://api.x.com/v10", NULL, "under no allowed prefix");
  refused(p, "https://api.x.com/v", NULL, NULL);
  refused(p, "https://api.x.com/", NULL, NULL);
  refused(p, "https://api.x.com/V1", NULL, NULL);
  refused(p, "https://api.x.com/docs", NULL, NULL);
  refused(p, "https://api.x.com/v1/../admin", NULL, "/admin");
  refused(p, "https://api.x.com/v1/..", NULL, NULL);
  refused(p, "https://api.x.com/v1x/a", NULL, NULL);
  net_policy_free(p);
}

static void t_policy_ambiguous(void **st) {
  (void)st;
  const char *e[] = {"https://api.x.com/v1", "https://open.x.com"};
  net_policy *p = policy_of(e, 2);
  const char *bad[] = {
      "/v1/a\\b",     "/v1/a;b",      "/v1;x",      "/v1/%2f", "/v1/%2F",
      "/v1/%2e%2e/x", "/v1/%2E%2E/x", "/v1/.%2e/x", "/v1/%5c", "/v1/%5C",
      "/v1/%3b",      "/v1/%3B",      "/v1/%",      "/v1/%4",  "/v1/%zz",
      "/v1/%g1",      "/v1/%252f",    "/v1/%25",    "/v1/%00", "/v1/%c0%af",
      "/v1/a%2fb",    "/v1/%2e",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char u[256];
    snprintf(u, sizeof u, "https://api.x.com%s", bad[i]);
    char why[512];
    int rc = net_check(p, u, NULL, why, sizeof why);
    if (rc != 7 && rc != 3)
      fail_msg("%s allowed", u);
    if (rc == 7 && !strstr(why, "ambiguous"))
      fail_msg("%s: %s", u, why);
    /* An origin-wide entry has no path to confuse: same forms allowed. */
    snprintf(u, sizeof u, "https://open.x.com%s", bad[i]);
    rc = net_check(p, u, NULL, why, sizeof why);
    if (rc != 0 && rc != 3)
      fail_msg("%s refused: %s", u, why);
  }
  /* Harmless encodings stay allowed. */
  allowed(p, "https://api.x.com/v1/a%20b", NULL);
  allowed(p, "https://api.x.com/v1/%41", NULL);
  net_policy_free(p);
}

static void t_policy_methods(void **st) {
  (void)st;
  vsh_net_rule r = {.prefix = "https://api.x.com"};
  vsh_net_policy vp = {.rules = &r, .nrules = 1};
  net_policy *p = compile(&vp);
  allowed(p, "https://api.x.com/", "GET");
  allowed(p, "https://api.x.com/", "HEAD");
  allowed(p, "https://api.x.com/", NULL);
  refused(p, "https://api.x.com/", "POST", "method POST");
  refused(p, "https://api.x.com/", "get", NULL);
  refused(p, "https://api.x.com/", "DELETE", "allowed: GET, HEAD");
  net_policy_free(p);

  const char *ms[] = {"POST", "PUT"};
  vp.methods = ms;
  vp.nmethods = 2;
  p = compile(&vp);
  allowed(p, "https://api.x.com/", "POST");
  allowed(p, "https://api.x.com/", "PUT");
  refused(p, "https://api.x.com/", "DELETE", "allowed: GET, HEAD, POST, PUT");
  refused(p, "https://other.x.com/", "POST", "origin");
  assert_int_equal(
      net_check(p, "https://api.x.com/", "GET /x HTTP/1.1\r\nA:", NULL, 0), 43);
  net_policy_free(p);

  vp.methods = NULL;
  vp.nmethods = 0;
  vp.dangerously_allow_all_methods = 1;
  p = compile(&vp);
  allowed(p, "https://api.x.com/", "DELETE");
  allowed(p, "https://api.x.com/", "PROPFIND");
  refused(p, "https://evil.x.com/", "DELETE", NULL);
  net_policy_free(p);
}

static void bad_policy(const vsh_net_rule *r, const char *needle) {
  vsh_net_policy vp = {.rules = r, .nrules = 1};
  net_policy *p = NULL;
  char err[512];
  assert_int_equal(net_policy_compile(M, &vp, &p, err, sizeof err), -1);
  assert_null(p);
  if (!strstr(err, needle))
    fail_msg("'%s' lacks '%s'", err, needle);
}

static void t_policy_compile_errors(void **st) {
  (void)st;
  vsh_net_rule r = {.prefix = "ftp://x.com"};
  bad_policy(&r, "ftp");
  r.prefix = "https://u:p@x.com";
  bad_policy(&r, "Credentials");
  r.prefix = "https://x.com/v1?a=b";
  bad_policy(&r, "query");
  r.prefix = "https://x.com/v1%2f";
  bad_policy(&r, "ambiguous");
  r.prefix = "x.com";
  bad_policy(&r, "entry 0");
  r.prefix = NULL;
  bad_policy(&r, "no prefix");
  vsh_http_header h = {"X Bad", "v"};
  r.prefix = "https://x.com";
  r.headers = &h;
  r.nheaders = 1;
  bad_policy(&r, "bad header");
  h = (vsh_http_header){"X-Ok", "a\r\nHost: evil"};
  bad_policy(&r, "bad header");
  const char *ms[] = {"PO ST"};
  vsh_net_rule ok = {.prefix = "https://x.com"};
  vsh_net_policy vp = {.rules = &ok, .nrules = 1, .methods = ms, .nmethods = 1};
  net_policy *p = NULL;
  char err[256];
  assert_int_equal(net_policy_compile(M, &vp, &p, err, sizeof err), -1);
  /* Defaults. */
  vp.nmethods = 0;
  assert_int_equal(net_policy_compile(M, &vp, &p, err, sizeof err), 0);
  assert_int_equal(net_policy_max_redirects(p), 20);
  assert_int_equal(net_policy_timeout_ms(p), 30000);
  assert_int_equal(net_policy_max_response(p), 10 << 20);
  net_policy_free(p);
}

static const char *refusal(int fam, const char *txt) {
  unsigned char a[16];
  assert_int_equal(inet_pton(fam, txt, a), 1);
  return net_addr_refusal(fam, a);
}

static void t_addr(void **st) {
  (void)st;
  const char *bad4[] = {
      "127.0.0.1",       "127.255.255.254", "10.1.2.3",        "172.16.0.1",
      "172.31.255.255",  "192.168.1.1",     "169.254.169.254", "100.64.0.1",
      "100.127.255.255", "0.0.0.0",         "0.1.2.3",         "224.0.0.1",
      "239.255.255.250", "240.0.0.1",       "255.255.255.255", "192.0.2.1",
      "198.18.0.1",      "198.51.100.7",    "203.0.113.9",     "192.0.0.8"};
  for (size_t i = 0; i < sizeof bad4 / sizeof bad4[0]; i++)
    if (!refusal(AF_INET, bad4[i]))
      fail_msg("%s passes", bad4[i]);
  const char *ok4[] = {"8.8.8.8",        "1.1.1.1",     "172.32.0.1",
                       "100.128.0.1",    "192.169.0.1", "11.0.0.1",
                       "223.255.255.255"};
  for (size_t i = 0; i < sizeof ok4 / sizeof ok4[0]; i++)
    if (refusal(AF_INET, ok4[i]))
      fail_msg("%s refused", ok4[i]);
  assert_string_equal(refusal(AF_INET, "127.0.0.1"), "loopback");
  assert_string_equal(refusal(AF_INET, "100.64.0.1"), "CGNAT");
  assert_string_equal(refusal(AF_INET, "169.254.1.1"), "link-local");

  const char *bad6[] = {"::",
                        "::1",
                        "::ffff:127.0.0.1",
                        "::ffff:10.0.0.1",
                        "::ffff:0:192.168.0.1",
                        "64:ff9b::127.0.0.1",
                        "64:ff9b::a9fe:a9fe",
                        "2002:7f00:1::",
                        "2002:c0a8:101::1",
                        "fc00::1",
                        "fd12:3456::1",
                        "fe80::1",
                        "febf::1",
                        "fec0::1",
                        "ff02::1",
                        "2001:db8::1",
                        "::127.0.0.1",
                        "100::1",
                        "2001::1",
                        "64:ff9b:1::1"};
  for (size_t i = 0; i < sizeof bad6 / sizeof bad6[0]; i++)
    if (!refusal(AF_INET6, bad6[i]))
      fail_msg("%s passes", bad6[i]);
  const char *ok6[] = {"2606:4700::1111", "2a00:1450:4001::1", "::ffff:8.8.8.8",
                       "64:ff9b::808:808", "2002:808:808::1"};
  for (size_t i = 0; i < sizeof ok6 / sizeof ok6[0]; i++)
    if (refusal(AF_INET6, ok6[i]))
      fail_msg("%s refused", ok6[i]);
  assert_string_equal(refusal(AF_INET6, "::ffff:127.0.0.1"), "loopback");
}

/* ---- fetch -------------------------------------------------------------- */

typedef struct fx {
  net_policy *p;
  net_response r;
} fx;

static int get(net_policy *p, const char *url, net_request *rq,
               net_response *r) {
  net_request d = {0};
  if (!rq)
    rq = &d;
  rq->url = url;
  if (!rq->max_redirects)
    rq->max_redirects = -1;
  return net_fetch(p, rq, -1, NULL, NULL, r);
}

static net_policy *ab_policy(void) {
  char a[64], b[64];
  snprintf(a, sizeof a, "http://127.0.0.1:%d", A.port);
  snprintf(b, sizeof b, "http://127.0.0.1:%d", B.port);
  const char *e[] = {a, b};
  return policy_of(e, 2);
}

static void t_fetch_plain(void **st) {
  (void)st;
  net_policy *p = ab_policy();
  net_response r;
  assert_int_equal(get(p, urlA("/plain"), NULL, &r), 0);
  assert_int_equal(r.status, 200);
  assert_int_equal(r.body.len, 12);
  assert_memory_equal(r.body.data, "hello world\n", 12);
  assert_string_equal(r.content_type, "text/plain");
  assert_string_equal(r.effective_url, urlA("/plain"));
  assert_int_equal(r.num_redirects, 0);
  assert_null(r.redirect_url);
  assert_int_equal(r.size_download, 12);
  net_response_free(&r);

  /* Numeric spellings of 127.0.0.1 reach the same server. */
  char u[128];
  snprintf(u, sizeof u, "http://2130706433:%d/plain", A.port);
  assert_int_equal(get(p, u, NULL, &r), 0);
  assert_int_equal(r.status, 200);
  assert_string_equal(r.effective_url, urlA("/plain"));
  net_response_free(&r);

  /* HEAD: headers, no body. */
  net_request rq = {.method = "HEAD"};
  assert_int_equal(get(p, urlA("/plain"), &rq, &r), 0);
  assert_int_equal(r.status, 200);
  assert_int_equal(r.body.len, 0);
  assert_string_equal(net_header_get(r.headers, r.nheaders, "content-length"),
                      "12");
  net_response_free(&r);
  net_policy_free(p);
}

static void t_fetch_binary_chunked_gzip(void **st) {
  (void)st;
  net_policy *p = ab_policy();
  net_response r;
  assert_int_equal(get(p, urlA("/bin"), NULL, &r), 0);
  assert_int_equal(r.body.len, 512);
  for (int i = 0; i < 512; i++)
    assert_int_equal((unsigned char)r.body.data[i], i < 256 ? i : 511 - i);
  net_response_free(&r);

  assert_int_equal(get(p, urlA("/chunked"), NULL, &r), 0);
  assert_string_equal(r.body.data, "chunk one\nchunk two\nxchunk three\n");
  net_response_free(&r);

  net_request rq = {.compressed = 1};
  assert_int_equal(get(p, urlA("/gzip"), &rq, &r), 0);
  assert_int_equal(r.body.len, strlen(gzip_text));
  assert_memory_equal(r.body.data, gzip_text, strlen(gzip_text));
  net_response_free(&r);

  /* Without --compressed the bytes arrive as sent. */
  assert_int_equal(get(p, urlA("/gzip"), NULL, &r), 0);
  assert_true(r.body.len > 2);
  assert_int_equal((unsigned char)r.body.data[0], 0x1f);
  assert_int_equal((unsigned char)r.body.data[1], 0x8b);
  net_response_free(&r);
  net_policy_free(p);
}

static void t_fetch_methods(void **st) {
  (void)st;
  char a[64];
  snprintf(a, sizeof a, "http://127.0.0.1:%d", A.port);
  vsh_net_rule rule = {.prefix = a};
  vsh_net_policy vp = {.rules = &rule, .nrules = 1};
  net_policy *p = compile(&vp);
  net_response r;
  int before = atomic_load(&A.requests);
  net_request rq = {
      .method = "POST", .has_body = 1, .body = "a=1", .body_len = 3};
  assert_int_equal(get(p, urlA("/echo"), &rq, &r), 7);
  assert_non_null(strstr(r.message, "method POST"));
  assert_int_equal(atomic_load(&A.requests), before); /* never sent */
  net_response_free(&r);
  net_policy_free(p);

  const char *ms[] = {"POST", "PUT"};
  vp.methods = ms;
  vp.nmethods = 2;
  p = compile(&vp);
  static const char body[] = "bin\0ary=1";
  rq = (net_request){.method = "POST",
                     .has_body = 1,
                     .body = body,
                     .body_len = sizeof body - 1,
                     .content_type = "application/octet-stream"};
  assert_int_equal(get(p, urlA("/echo"), &rq, &r), 0);
  assert_true(r.body.len > sizeof body);
  assert_memory_equal(r.body.data + r.body.len - (sizeof body - 1), body,
                      sizeof body - 1);
  assert_non_null(strstr(r.body.data, "POST /echo HTTP/1.1"));
  assert_non_null(
      strstr(r.body.data, "Content-Type: application/octet-stream"));
  net_response_free(&r);

  rq.method = "PUT";
  rq.content_type = NULL;
  assert_int_equal(get(p, urlA("/echo"), &rq, &r), 0);
  assert_non_null(strstr(r.body.data, "PUT /echo HTTP/1.1"));
  assert_null(strstr(r.body.data, "Content-Type"));
  net_response_free(&r);
  net_policy_free(p);
}

static void t_fetch_redirects(void **st) {
  (void)st;
  net_policy *p = ab_policy();
  net_response r;
  char chain[1024], mid[1024];
  /* A -> B -> A -> /plain, all allowed. */
  snprintf(mid, sizeof mid, "/redir?code=301&to=%s",
           enc(urlA("/redir?code=307&to=/plain")));
  snprintf(chain, sizeof chain, "/redir?code=302&to=%s", enc(urlB(mid)));
  net_request rq = {.follow = 1};
  assert_int_equal(get(p, urlA(chain), &rq, &r), 0);
  assert_int_equal(r.status, 200);
  assert_int_equal(r.num_redirects, 3);
  assert_string_equal(r.body.data, "hello world\n");
  assert_string_equal(r.effective_url, urlA("/plain"));
  net_response_free(&r);

  /* Not following: the 302 itself, with its target. */
  assert_int_equal(get(p, urlA(chain), NULL, &r), 0);
  assert_int_equal(r.status, 302);
  assert_string_equal(r.body.data, "redirect\n");
  assert_string_equal(r.redirect_url, urlB(mid));
  net_response_free(&r);

  /* A redirect out of the allow-list ends at that hop with 7. */
  const char *e[] = {urlA("")};
  net_policy *pa = policy_of(e, 1);
  int before = atomic_load(&B.requests);
  snprintf(chain, sizeof chain, "/redir?to=%s", enc(urlB("/plain")));
  assert_int_equal(get(pa, urlA(chain), &rq, &r), 7);
  assert_non_null(strstr(r.message, "refused by the network policy"));
  assert_non_null(strstr(r.message, urlB("/plain")));
  assert_int_equal(atomic_load(&B.requests), before);
  assert_int_equal(r.num_redirects, 1);
  net_response_free(&r);
  /* ... and to a non-HTTP scheme with 1. */
  assert_int_equal(get(pa, urlA("/redir?to=file:///etc/passwd"), &rq, &r), 1);
  net_response_free(&r);
  net_policy_free(pa);

  /* Too many. */
  assert_int_equal(get(p, urlA("/loop"), &rq, &r), 47);
  assert_non_null(strstr(r.message, "Maximum (20) redirects followed"));
  assert_int_equal(r.num_redirects, 20);
  net_response_free(&r);
  rq.max_redirects = 2;
  assert_int_equal(get(p, urlA("/loop"), &rq, &r), 47);
  assert_int_equal(r.num_redirects, 2);
  net_response_free(&r);
  /* The request cannot raise the policy's bound. */
  vsh_net_rule rules[1] = {{.prefix = urlA("")}};
  vsh_net_policy vp = {.rules = rules, .nrules = 1, .max_redirects = 3};
  net_policy *p3 = compile(&vp);
  rq.max_redirects = 50;
  assert_int_equal(get(p3, urlA("/loop"), &rq, &r), 47);
  assert_int_equal(r.num_redirects, 3);
  net_response_free(&r);
  net_policy_free(p3);
  net_policy_free(p);
}

static void t_fetch_redirect_methods(void **st) {
  (void)st;
  char a[64];
  snprintf(a, sizeof a, "http://127.0.0.1:%d", A.port);
  vsh_net_rule rule = {.prefix = a};
  const char *ms[] = {"POST", "PUT"};
  vsh_net_policy vp = {
      .rules = &rule, .nrules = 1, .methods = ms, .nmethods = 2};
  net_policy *p = compile(&vp);
  net_response r;
  net_request rq = {.method = "POST",
                    .has_body = 1,
                    .body = "k=v",
                    .body_len = 3,
                    .follow = 1,
                    .content_type = "application/x-www-form-urlencoded"};
  /* 303 and 302 turn POST into GET without a body. */
  assert_int_equal(get(p, urlA("/redir?code=303&to=/echo"), &rq, &r), 0);
  assert_true(starts(r.body.data, "GET /echo HTTP/1.1"));
  assert_null(strstr(r.body.data, "k=v"));
  assert_null(strstr(r.body.data, "Content-Type"));
  net_response_free(&r);
  assert_int_equal(get(p, urlA("/redir?code=302&to=/echo"), &rq, &r), 0);
  assert_true(starts(r.body.data, "GET /echo HTTP/1.1"));
  net_response_free(&r);
  /* 307 and 308 keep both. */
  assert_int_equal(get(p, urlA("/redir?code=307&to=/echo"), &rq, &r), 0);
  assert_true(starts(r.body.data, "POST /echo HTTP/1.1"));
  assert_non_null(strstr(r.body.data, "\r\n\r\nk=v"));
  net_response_free(&r);
  rq.method = "PUT";
  assert_int_equal(get(p, urlA("/redir?code=308&to=/echo"), &rq, &r), 0);
  assert_true(starts(r.body.data, "PUT /echo HTTP/1.1"));
  net_response_free(&r);
  /* 303 of a PUT: GET. */
  assert_int_equal(get(p, urlA("/redir?code=303&to=/echo"), &rq, &r), 0);
  assert_true(starts(r.body.data, "GET /echo HTTP/1.1"));
  net_response_free(&r);
  net_policy_free(p);

  /* A redirect keeping a method the policy refuses is refused. */
  vp.methods = NULL;
  vp.nmethods = 0;
  p = compile(&vp);
  rq.method = "HEAD";
  rq.has_body = 0;
  assert_int_equal(get(p, urlA("/redir?code=307&to=/plain"), &rq, &r), 0);
  assert_int_equal(r.status, 200);
  net_response_free(&r);
  net_policy_free(p);
}

static void t_fetch_inject(void **st) {
  (void)st;
  char a[64], av1[64], b[64];
  snprintf(a, sizeof a, "http://127.0.0.1:%d", A.port);
  snprintf(av1, sizeof av1, "http://127.0.0.1:%d/echo/v1", A.port);
  snprintf(b, sizeof b, "http://127.0.0.1:%d", B.port);
  vsh_http_header ha[] = {{"Authorization", "Bearer SECRET-A"},
                          {"X-Team", "wide"}};
  vsh_http_header hv1[] = {{"X-Team", "narrow"}, {"X-V1", "yes"}};
  vsh_http_header hb[] = {{"X-B-Key", "SECRET-B"}};
  vsh_net_rule rules[] = {{a, ha, 2}, {av1, hv1, 2}, {b, hb, 1}};
  vsh_net_policy vp = {.rules = rules, .nrules = 3};
  net_policy *p = compile(&vp);
  net_response r;

  /* The script's Authorization is replaced, never merged. */
  net_header sh[] = {{"authorization", "Bearer SCRIPT", 0},
                     {"X-Script", "1", 0}};
  net_request rq = {.headers = sh, .nheaders = 2};
  assert_int_equal(get(p, urlA("/echo"), &rq, &r), 0);
  assert_non_null(strstr(r.body.data, "Authorization: Bearer SECRET-A\r\n"));
  assert_null(strstr(r.body.data, "SCRIPT"));
  assert_non_null(strstr(r.body.data, "X-Script: 1\r\n"));
  assert_non_null(strstr(r.body.data, "X-Team: wide\r\n"));
  assert_null(strstr(r.body.data, "X-V1"));
  assert_null(strstr(r.body.data, "SECRET-B"));
  net_response_free(&r);

  /* Under the narrower entry: its headers win, the wider ones still come. */
  assert_int_equal(get(p, urlA("/echo/v1/x"), &rq, &r), 0);
  assert_non_null(strstr(r.body.data, "X-Team: narrow\r\n"));
  assert_null(strstr(r.body.data, "X-Team: wide"));
  assert_non_null(strstr(r.body.data, "X-V1: yes\r\n"));
  assert_non_null(strstr(r.body.data, "Bearer SECRET-A"));
  net_response_free(&r);
  /* Segment boundary for injection too. */
  assert_int_equal(get(p, urlA("/echo/v10"), &rq, &r), 0);
  assert_null(strstr(r.body.data, "X-V1"));
  net_response_free(&r);

  /* Redirect A -> B: A's secrets stay home, B's own are added, the
   * script's Authorization is dropped on the new origin. */
  char path[512];
  snprintf(path, sizeof path, "/redir?to=%s", enc(urlB("/echo")));
  rq.follow = 1;
  rq.max_redirects = -1;
  net_header sh2[] = {{"Authorization", "Bearer SCRIPT", 0},
                      {"Cookie", "c=1", 0},
                      {"X-Script", "1", 0}};
  rq.headers = sh2;
  rq.nheaders = 3;
  assert_int_equal(get(p, urlA(path), &rq, &r), 0);
  assert_null(strstr(r.body.data, "SECRET-A"));
  assert_null(strstr(r.body.data, "X-Team"));
  assert_null(strstr(r.body.data, "Authorization"));
  assert_null(strstr(r.body.data, "Cookie"));
  assert_non_null(strstr(r.body.data, "X-B-Key: SECRET-B\r\n"));
  assert_non_null(strstr(r.body.data, "X-Script: 1\r\n"));
  net_response_free(&r);

  /* B -> A: recomputed per hop, A's come back on A. */
  snprintf(path, sizeof path, "/redir?to=%s", enc(urlA("/echo")));
  rq.headers = NULL;
  rq.nheaders = 0;
  assert_int_equal(get(p, urlB(path), &rq, &r), 0);
  assert_non_null(strstr(r.body.data, "Bearer SECRET-A"));
  assert_null(strstr(r.body.data, "SECRET-B"));
  net_response_free(&r);

  /* The hop callback flags what was injected (for masking in -v). */
  net_policy_free(p);
}

typedef struct hopseen {
  int n;
  int injected;
  char methods[64];
} hopseen;

static void on_req(void *ud, const net_hop *h) {
  hopseen *s = ud;
  s->n++;
  for (size_t i = 0; i < h->nheaders; i++)
    s->injected += h->headers[i].injected;
  strcat(s->methods, h->method);
  strcat(s->methods, " ");
}

static void t_fetch_hop_callback(void **st) {
  (void)st;
  char a[64];
  snprintf(a, sizeof a, "http://127.0.0.1:%d", A.port);
  vsh_http_header ha[] = {{"X-Secret", "s"}};
  vsh_net_rule rule = {a, ha, 1};
  vsh_net_policy vp = {.rules = &rule, .nrules = 1};
  net_policy *p = compile(&vp);
  hopseen s = {0};
  net_callbacks cb = {.ud = &s, .on_request = on_req};
  net_request rq = {.url = urlA("/redir?code=303&to=/plain"),
                    .follow = 1,
                    .max_redirects = -1,
                    .method = "HEAD"};
  net_response r;
  assert_int_equal(net_fetch(p, &rq, -1, NULL, &cb, &r), 0);
  assert_int_equal(s.n, 2);
  assert_int_equal(s.injected, 2);
  assert_string_equal(s.methods, "HEAD HEAD ");
  net_response_free(&r);
  net_policy_free(p);
}

static void t_fetch_bad_headers(void **st) {
  (void)st;
  net_policy *p = ab_policy();
  net_response r;
  net_header h1[] = {{"X-A", "x\r\nX-Injected: 1", 0}};
  net_request rq = {.headers = h1, .nheaders = 1};
  assert_int_equal(get(p, urlA("/echo"), &rq, &r), 43);
  net_response_free(&r);
  net_header h2[] = {{"Host", "internal.example", 0}};
  rq.headers = h2;
  assert_int_equal(get(p, urlA("/echo"), &rq, &r), 7);
  assert_non_null(strstr(r.message, "Host"));
  net_response_free(&r);
  /* Removal and empty value, in libcurl's sense. */
  net_header h3[] = {{"User-Agent", NULL, 0}, {"X-Empty", "", 0}};
  rq.headers = h3;
  rq.nheaders = 2;
  rq.user_agent = "curl/test";
  assert_int_equal(get(p, urlA("/echo"), &rq, &r), 0);
  assert_null(strstr(r.body.data, "User-Agent"));
  assert_non_null(strstr(r.body.data, "X-Empty:"));
  net_response_free(&r);
  net_policy_free(p);
}

static void t_fetch_deny_private(void **st) {
  (void)st;
  char a[64], l[64];
  snprintf(a, sizeof a, "http://127.0.0.1:%d", A.port);
  snprintf(l, sizeof l, "http://localhost:%d", A.port);
  vsh_net_rule rules[] = {{.prefix = a}, {.prefix = l}};
  vsh_net_policy vp = {.rules = rules, .nrules = 2, .deny_private = 1};
  net_policy *p = compile(&vp);
  net_response r;
  int before = atomic_load(&A.requests);
  assert_int_equal(get(p, urlA("/plain"), NULL, &r), 7);
  assert_non_null(strstr(r.message, "deny_private: loopback"));
  assert_non_null(strstr(r.message, "127.0.0.1"));
  net_response_free(&r);
  char u[128];
  snprintf(u, sizeof u, "http://localhost:%d/plain", A.port);
  assert_int_equal(get(p, u, NULL, &r), 7);
  assert_non_null(strstr(r.message, "deny_private"));
  net_response_free(&r);
  snprintf(u, sizeof u, "http://0x7f000001:%d/plain", A.port);
  assert_int_equal(get(p, u, NULL, &r), 7);
  net_response_free(&r);
  assert_int_equal(atomic_load(&A.requests), before);
  net_policy_free(p);
}

static void t_fetch_size_cap(void **st) {
  (void)st;
  vsh_net_rule rules[] = {{.prefix = urlA("")}};
  vsh_net_policy vp = {
      .rules = rules, .nrules = 1, .max_response_bytes = 100000};
  net_policy *p = compile(&vp);
  net_response r;
  assert_int_equal(get(p, urlA("/big?n=100000"), NULL, &r), 0);
  assert_int_equal(r.body.len, 100000);
  net_response_free(&r);
  assert_int_equal(get(p, urlA("/big?n=100001"), NULL, &r), 63);
  net_response_free(&r);
  assert_int_equal(get(p, urlA("/bigchunked?n=100000"), NULL, &r), 0);
  assert_int_equal(r.body.len, 100000);
  net_response_free(&r);
  assert_int_equal(get(p, urlA("/bigchunked?n=300000"), NULL, &r), 63);
  assert_true(r.body.len <= 100000);
  net_response_free(&r);
  net_policy_free(p);

  /* Default cap: 10 MiB. */
  p = ab_policy();
  assert_int_equal(get(p, urlA("/bigchunked?n=10485761"), NULL, &r), 63);
  net_response_free(&r);
  net_policy_free(p);
}

static void t_fetch_deadline(void **st) {
  (void)st;
  vsh_net_rule rules[] = {{.prefix = urlA("")}};
  vsh_net_policy vp = {.rules = rules, .nrules = 1, .timeout_ms = 300};
  net_policy *p = compile(&vp);
  net_response r;
  int64_t t0 = mono_ms();
  assert_int_equal(get(p, urlA("/slow"), NULL, &r), 28);
  int64_t el = mono_ms() - t0;
  assert_true(el >= 250 && el < 1000);
  assert_non_null(strstr(r.message, "timed out"));
  net_response_free(&r);
  net_policy_free(p);

  /* The exec's own deadline is shorter: it wins. */
  p = ab_policy();
  net_request rq = {.url = urlA("/slow"), .max_redirects = -1};
  t0 = mono_ms();
  assert_int_equal(net_fetch(p, &rq, 200, NULL, NULL, &r), 28);
  el = mono_ms() - t0;
  assert_true(el >= 150 && el < 800);
  net_response_free(&r);
  /* So does the request's -m. */
  rq.timeout_ms = 200;
  t0 = mono_ms();
  assert_int_equal(net_fetch(p, &rq, -1, NULL, NULL, &r), 28);
  assert_true(mono_ms() - t0 < 800);
  net_response_free(&r);
  /* The deadline covers all hops together. */
  rq.timeout_ms = 300;
  rq.follow = 1;
  rq.url = urlA("/redir?to=/slow");
  t0 = mono_ms();
  assert_int_equal(net_fetch(p, &rq, -1, NULL, NULL, &r), 28);
  assert_true(mono_ms() - t0 < 900);
  net_response_free(&r);
  net_policy_free(p);
}

typedef struct canceller {
  atomic_int *flag;
  int delay_ms;
} canceller;

static void *cancel_later(void *arg) {
  canceller *c = arg;
  usleep((useconds_t)c->delay_ms * 1000);
  atomic_store(c->flag, 1);
  return NULL;
}

static void t_fetch_cancel(void **st) {
  (void)st;
  net_policy *p = ab_policy();
  atomic_int flag = 0;
  canceller c = {&flag, 300};
  pthread_t th;
  pthread_create(&th, NULL, cancel_later, &c);
  net_request rq = {.url = urlA("/slow"), .max_redirects = -1};
  net_response r;
  int64_t t0 = mono_ms();
  int rc = net_fetch(p, &rq, -1, (volatile const int *)&flag, NULL, &r);
  int64_t el = mono_ms() - t0;
  pthread_join(th, NULL);
  assert_int_equal(rc, 42);
  assert_true(el >= 280 && el < 300 + 100);
  net_response_free(&r);
  /* Already set: nothing is sent. */
  int before = atomic_load(&A.requests);
  rq.url = urlA("/plain");
  assert_int_equal(net_fetch(p, &rq, -1, (volatile const int *)&flag, NULL, &r),
                   42);
  net_response_free(&r);
  usleep(50000);
  assert_int_equal(atomic_load(&A.requests), before);
  net_policy_free(p);
}

static void t_fetch_fail(void **st) {
  (void)st;
  net_policy *p = ab_policy();
  net_response r;
  assert_int_equal(get(p, urlA("/status/404"), NULL, &r), 0);
  assert_int_equal(r.status, 404);
  assert_string_equal(r.body.data, "status body");
  net_response_free(&r);
  net_request rq = {.fail_on_error = 1};
  assert_int_equal(get(p, urlA("/status/404"), &rq, &r), 22);
  assert_int_equal(r.status, 404);
  assert_int_equal(r.body.len, 0);
  assert_string_equal(r.message, "The requested URL returned error: 404");
  net_response_free(&r);
  net_policy_free(p);
}

typedef struct sink {
  buf b;
  int stop_after;
  int headers;
} sink;

static int on_body(void *ud, const void *d, size_t n) {
  sink *s = ud;
  buf_append(&s->b, d, n);
  return s->stop_after && (int)s->b.len >= s->stop_after;
}

static void on_header(void *ud, const char *l, size_t n) {
  sink *s = ud;
  (void)l;
  (void)n;
  s->headers++;
}

static void t_fetch_callbacks(void **st) {
  (void)st;
  net_policy *p = ab_policy();
  sink s = {0};
  buf_init(&s.b, M);
  net_callbacks cb = {.ud = &s, .on_body = on_body, .on_header = on_header};
  net_request rq = {
      .url = urlA("/redir?to=/bin"), .follow = 1, .max_redirects = -1};
  net_response r;
  assert_int_equal(net_fetch(p, &rq, -1, NULL, &cb, &r), 0);
  assert_int_equal(s.b.len, 512); /* the redirect's own body is not output */
  assert_int_equal(r.body.len, 0);
  assert_true(s.headers >= 8);
  net_response_free(&r);
  buf_clear(&s.b);
  s.stop_after = 1000;
  rq.url = urlA("/big?n=100000");
  assert_int_equal(net_fetch(p, &rq, -1, NULL, &cb, &r), 23);
  net_response_free(&r);
  buf_free(&s.b);
  net_policy_free(p);
}

/* A host transport: scripted responses, requests recorded. */
typedef struct fake {
  int calls;
  char urls[4][256];
  char auth[4][64];
} fake;

static int fake_transport(void *ud, const vsh_http_request *rq,
                          vsh_http_response *rs) {
  fake *f = ud;
  int i = f->calls++;
  snprintf(f->urls[i % 4], 256, "%s", rq->url);
  f->auth[i % 4][0] = 0;
  for (size_t k = 0; k < rq->nheaders; k++)
    if (!strcmp(rq->headers[k].name, "Authorization"))
      snprintf(f->auth[i % 4], 64, "%s", rq->headers[k].value);
  if (strstr(rq->url, "/fail")) {
    snprintf(rs->error, sizeof rs->error, "Could not resolve host: x");
    return 6;
  }
  if (strstr(rq->url, "/start")) {
    rs->status = 302;
    rs->nheaders = 1;
    rs->headers = calloc(1, sizeof *rs->headers);
    rs->headers[0].name = strdup("Location");
    rs->headers[0].value = strdup(
        strstr(rq->url, "https://a.test") ? "/next" : "https://evil.test/");
    return 0;
  }
  rs->status = 200;
  rs->nheaders = 1;
  rs->headers = calloc(1, sizeof *rs->headers);
  rs->headers[0].name = strdup("Content-Type");
  rs->headers[0].value = strdup("text/x-fake");
  rs->body = strdup("fake body");
  rs->body_len = 9;
  return 0;
}

static void t_fetch_host_transport(void **st) {
  (void)st;
  fake f = {0};
  vsh_http_header ha[] = {{"Authorization", "Bearer A"}};
  vsh_net_rule rules[] = {{"https://a.test", ha, 1}, {"https://b.test", 0, 0}};
  vsh_net_policy vp = {.rules = rules,
                       .nrules = 2,
                       .transport = fake_transport,
                       .transport_ud = &f};
  net_policy *p = compile(&vp);
  net_response r;
  net_request rq = {.follow = 1};
  assert_int_equal(get(p, "https://a.test/start", &rq, &r), 0);
  assert_int_equal(f.calls, 2);
  assert_string_equal(f.urls[1], "https://a.test/next");
  assert_string_equal(f.auth[0], "Bearer A");
  assert_string_equal(f.auth[1], "Bearer A");
  assert_string_equal(r.body.data, "fake body");
  assert_string_equal(r.content_type, "text/x-fake");
  assert_int_equal(r.num_redirects, 1);
  net_response_free(&r);

  /* b.test redirects to evil.test: refused before the transport sees it. */
  f.calls = 0;
  assert_int_equal(get(p, "https://b.test/start", &rq, &r), 7);
  assert_int_equal(f.calls, 1);
  assert_string_equal(f.auth[0], "");
  net_response_free(&r);
  assert_int_equal(get(p, "https://evil.test/", &rq, &r), 7);
  assert_int_equal(f.calls, 1);
  net_response_free(&r);
  assert_int_equal(get(p, "https://a.test/fail", &rq, &r), 6);
  assert_string_equal(r.message, "Could not resolve host: x");
  net_response_free(&r);
  net_policy_free(p);

  /* Size cap applies to what the host hands back. */
  vp.max_response_bytes = 4;
  p = compile(&vp);
  assert_int_equal(get(p, "https://a.test/x", &rq, &r), 63);
  net_response_free(&r);
  net_policy_free(p);
}

/* ---- HTTPS through `openssl s_server` ----------------------------------- */

static char tls_dir[256];
static pid_t tls_pid;
static int tls_port;

static int tls_start(void) {
  if (system("command -v openssl >/dev/null 2>&1") != 0)
    return -1;
  snprintf(tls_dir, sizeof tls_dir, "/tmp/vsh-net-tls-XXXXXX");
  if (!mkdtemp(tls_dir))
    return -1;
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "cd %s && openssl req -x509 -newkey rsa:2048 -nodes -keyout "
           "key.pem -out ca.pem -days 1 -subj /CN=vsh-test-ca "
           "-addext subjectAltName=IP:127.0.0.1,DNS:localhost "
           ">/dev/null 2>&1 && printf 'over tls\\n' > hello.txt",
           tls_dir);
  if (system(cmd) != 0)
    return -1;
  char out[300];
  snprintf(out, sizeof out, "%s/server.out", tls_dir);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  char cert[300], key[300];
  snprintf(cert, sizeof cert, "%s/ca.pem", tls_dir);
  snprintf(key, sizeof key, "%s/key.pem", tls_dir);
  /* -WWW serves files relative to the working directory. */
  char *argv[] = {"openssl", "s_server", "-accept", "127.0.0.1:0", "-cert",
                  cert,      "-key",     key,       "-WWW",        NULL};
  char cwd[1024];
  if (!getcwd(cwd, sizeof cwd) || chdir(tls_dir) != 0)
    return -1;
  int rc = posix_spawnp(&tls_pid, "openssl", &fa, NULL, argv, environ);
  if (chdir(cwd) != 0)
    rc = -1;
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return -1;
  for (int i = 0; i < 100 && !tls_port; i++) {
    usleep(50000);
    FILE *f = fopen(out, "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
      char *c = strrchr(line, ':');
      if (!strncmp(line, "ACCEPT", 6) && c)
        tls_port = atoi(c + 1);
    }
    if (f)
      fclose(f);
  }
  return tls_port ? 0 : -1;
}

static void tls_stop(void) {
  if (tls_pid > 0) {
    kill(tls_pid, SIGTERM);
    waitpid(tls_pid, NULL, 0);
  }
  if (tls_dir[0]) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tls_dir);
    if (system(cmd) != 0)
      fprintf(stderr, "could not remove %s\n", tls_dir);
  }
}

static void t_fetch_https(void **st) {
  (void)st;
  if (tls_start() != 0) {
    tls_stop();
    skip(); /* reported as skipped, not passed */
  }
  char ca[300], u[256], origin[128];
  snprintf(ca, sizeof ca, "%s/ca.pem", tls_dir);
  snprintf(origin, sizeof origin, "https://127.0.0.1:%d", tls_port);
  snprintf(u, sizeof u, "%s/hello.txt", origin);
  vsh_net_rule rule = {.prefix = origin};
  vsh_net_policy vp = {.rules = &rule, .nrules = 1, .ca_file = ca};
  net_policy *p = compile(&vp);
  net_response r;
  int rc = get(p, u, NULL, &r);
  if (rc)
    fail_msg("https: %d %s", rc, r.message);
  assert_int_equal(r.status, 200);
  assert_string_equal(r.body.data, "over tls\n");
  net_response_free(&r);
  net_policy_free(p);

  /* Without the test CA the peer is not trusted: 60, never skipped. */
  vp.ca_file = NULL;
  p = compile(&vp);
  assert_int_equal(get(p, u, NULL, &r), 60);
  net_response_free(&r);
  net_policy_free(p);
  tls_stop();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_url_canon),
      cmocka_unit_test(t_policy_origin),
      cmocka_unit_test(t_policy_segments),
      cmocka_unit_test(t_policy_ambiguous),
      cmocka_unit_test(t_policy_methods),
      cmocka_unit_test(t_policy_compile_errors),
      cmocka_unit_test(t_addr),
      cmocka_unit_test(t_fetch_plain),
      cmocka_unit_test(t_fetch_binary_chunked_gzip),
      cmocka_unit_test(t_fetch_methods),
      cmocka_unit_test(t_fetch_redirects),
      cmocka_unit_test(t_fetch_redirect_methods),
      cmocka_unit_test(t_fetch_inject),
      cmocka_unit_test(t_fetch_hop_callback),
      cmocka_unit_test(t_fetch_bad_headers),
      cmocka_unit_test(t_fetch_deny_private),
      cmocka_unit_test(t_fetch_size_cap),
      cmocka_unit_test(t_fetch_deadline),
      cmocka_unit_test(t_fetch_cancel),
      cmocka_unit_test(t_fetch_fail),
      cmocka_unit_test(t_fetch_callbacks),
      cmocka_unit_test(t_fetch_host_transport),
      cmocka_unit_test(t_fetch_https),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
