/*
 * http_server.h - a tiny HTTP/1.1 server on 127.0.0.1 in a thread, for the
 * network tests (test_net.c, test_curl.c): fixed routes for plain, binary,
 * chunked and gzip bodies, redirects, header echo, slow and large answers.
 * Include after cmocka.h.
 */
#ifndef VSH_TEST_HTTP_SERVER_H
#define VSH_TEST_HTTP_SERVER_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

typedef struct srv {
  int fd;
  int port;
  pthread_t th;
  atomic_int stop;
  atomic_int requests; /* requests served, to prove one was never made */
} srv;

static int send_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
    if (w <= 0) {
      if (w < 0 && errno == EINTR)
        continue;
      return -1;
    }
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

static int sendf(int fd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int sendf(int fd, const char *fmt, ...) {
  char b[4096];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  return send_all(fd, b, (size_t)n);
}

static void url_decode(const char *s, char *out, size_t outlen) {
  size_t o = 0;
  for (; *s && *s != '&' && o + 1 < outlen; s++) {
    if (*s == '%' && s[1] && s[2]) {
      char h[3] = {s[1], s[2], 0};
      out[o++] = (char)strtol(h, NULL, 16);
      s += 2;
    } else {
      out[o++] = *s;
    }
  }
  out[o] = 0;
}

static const char *qparam(const char *target, const char *name) {
  const char *q = strchr(target, '?');
  size_t nl = strlen(name);
  while (q) {
    q++;
    if (!strncmp(q, name, nl) && q[nl] == '=')
      return q + nl + 1;
    q = strchr(q, '&');
  }
  return NULL;
}

static int starts(const char *s, const char *p) {
  return !strncmp(s, p, strlen(p));
}

static void serve_headers(int fd, int code, const char *ctype, long long len,
                          const char *extra) {
  sendf(fd, "HTTP/1.1 %d X\r\nConnection: close\r\n", code);
  if (ctype)
    sendf(fd, "Content-Type: %s\r\n", ctype);
  if (len >= 0)
    sendf(fd, "Content-Length: %lld\r\n", len);
  if (extra)
    sendf(fd, "%s", extra);
  sendf(fd, "\r\n");
}

static void serve_chunked(int fd, const char *ctype, const char *const *parts,
                          size_t n) {
  serve_headers(fd, 200, ctype, -1, "Transfer-Encoding: chunked\r\n");
  for (size_t i = 0; i < n; i++) {
    sendf(fd, "%zx\r\n", strlen(parts[i]));
    send_all(fd, parts[i], strlen(parts[i]));
    sendf(fd, "\r\n");
  }
  sendf(fd, "0\r\n\r\n");
}

static const char gzip_text[] = "gzip body text, gzip body text, gzip!\n";

static void serve_gzip(int fd) {
  unsigned char out[512];
  z_stream z;
  memset(&z, 0, sizeof z);
  deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  z.next_in = (unsigned char *)gzip_text;
  z.avail_in = (uInt)strlen(gzip_text);
  z.next_out = out;
  z.avail_out = sizeof out;
  deflate(&z, Z_FINISH);
  size_t n = sizeof out - z.avail_out;
  deflateEnd(&z);
  serve_headers(fd, 200, "text/plain", (long long)n,
                "Content-Encoding: gzip\r\n");
  send_all(fd, out, n);
}

static void handle(srv *s, int fd) {
  char req[16384];
  size_t n = 0;
  char *end = NULL;
  while (!end && n + 1 < sizeof req) {
    ssize_t r = recv(fd, req + n, sizeof req - 1 - n, 0);
    if (r <= 0)
      return;
    n += (size_t)r;
    req[n] = 0;
    end = strstr(req, "\r\n\r\n");
  }
  if (!end)
    return;
  size_t hlen = (size_t)(end + 4 - req);
  size_t clen = 0;
  const char *cl = strcasestr(req, "\r\nContent-Length:");
  if (cl && cl < end)
    clen = (size_t)strtoul(cl + 17, NULL, 10);
  while (n < hlen + clen && n + 1 < sizeof req) {
    ssize_t r = recv(fd, req + n, sizeof req - 1 - n, 0);
    if (r <= 0)
      break;
    n += (size_t)r;
  }
  req[n] = 0;
  atomic_fetch_add(&s->requests, 1);
  char method[32] = "", target[4096] = "";
  sscanf(req, "%31s %4095s", method, target);
  int head = !strcmp(method, "HEAD");
  const char *path = target;

  if (!strcmp(path, "/plain")) {
    serve_headers(fd, 200, "text/plain", 12, NULL);
    if (!head)
      send_all(fd, "hello world\n", 12);
  } else if (!strcmp(path, "/bin")) {
    unsigned char b[512];
    for (int i = 0; i < 512; i++)
      b[i] = (unsigned char)(i < 256 ? i : 511 - i);
    serve_headers(fd, 200, "application/octet-stream", 512, NULL);
    if (!head)
      send_all(fd, b, sizeof b);
  } else if (starts(path, "/echo")) {
    /* Request line, header fields and body, for assertions on what was
     * actually sent. */
    serve_headers(fd, 200, "text/plain", (long long)n, NULL);
    if (!head)
      send_all(fd, req, n);
  } else if (starts(path, "/redir")) {
    const char *c = qparam(target, "code"), *to = qparam(target, "to");
    char loc[2048] = "/plain", extra[2100];
    if (to)
      url_decode(to, loc, sizeof loc);
    snprintf(extra, sizeof extra, "Location: %s\r\n", loc);
    serve_headers(fd, c ? atoi(c) : 302, "text/plain", 9, extra);
    if (!head)
      send_all(fd, "redirect\n", 9);
  } else if (starts(path, "/loop")) {
    serve_headers(fd, 302, NULL, 0, "Location: /loop\r\n");
  } else if (starts(path, "/status/")) {
    int code = atoi(path + 8);
    serve_headers(fd, code, "text/plain", 11, NULL);
    if (!head)
      send_all(fd, "status body", 11);
  } else if (!strcmp(path, "/chunked")) {
    const char *parts[] = {"chunk one\n", "chunk two\n", "x", "chunk three\n"};
    serve_chunked(fd, "text/plain", parts, 4);
  } else if (!strcmp(path, "/gzip")) {
    serve_gzip(fd);
  } else if (starts(path, "/slow")) {
    serve_headers(fd, 200, "text/plain", 100000, NULL);
    for (int i = 0; i < 100000 && !atomic_load(&s->stop); i++) {
      if (send_all(fd, "s", 1))
        break;
      usleep(20000);
    }
  } else if (starts(path, "/big")) {
    const char *q = qparam(target, "n");
    long long len = q ? atoll(q) : 0;
    int chunked = starts(path, "/bigchunked");
    if (chunked)
      serve_headers(fd, 200, "application/octet-stream", -1,
                    "Transfer-Encoding: chunked\r\n");
    else
      serve_headers(fd, 200, "application/octet-stream", len, NULL);
    char blk[8192];
    memset(blk, 'x', sizeof blk);
    for (long long left = len; left > 0;) {
      size_t k = left < (long long)sizeof blk ? (size_t)left : sizeof blk;
      if (chunked && sendf(fd, "%zx\r\n", k))
        break;
      if (send_all(fd, blk, k) || (chunked && sendf(fd, "\r\n")))
        break;
      left -= (long long)k;
    }
    if (chunked)
      sendf(fd, "0\r\n\r\n");
  } else {
    char body[4200];
    int bl = snprintf(body, sizeof body, "path=%s\n", target);
    serve_headers(fd, 200, "text/plain", bl, NULL);
    if (!head)
      send_all(fd, body, (size_t)bl);
  }
}

static void *srv_main(void *arg) {
  srv *s = arg;
  while (!atomic_load(&s->stop)) {
    struct pollfd pf = {s->fd, POLLIN, 0};
    if (poll(&pf, 1, 20) <= 0)
      continue;
    int c = accept(s->fd, NULL, NULL);
    if (c < 0)
      continue;
    handle(s, c);
    shutdown(c, SHUT_WR);
    close(c);
  }
  return NULL;
}

static void srv_start(srv *s) {
  memset(s, 0, sizeof *s);
  s->fd = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(s->fd >= 0);
  int one = 1;
  setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  assert_int_equal(bind(s->fd, (struct sockaddr *)&a, sizeof a), 0);
  assert_int_equal(listen(s->fd, 16), 0);
  socklen_t al = sizeof a;
  getsockname(s->fd, (struct sockaddr *)&a, &al);
  s->port = ntohs(a.sin_port);
  assert_int_equal(pthread_create(&s->th, NULL, srv_main, s), 0);
}

static void srv_stop(srv *s) {
  atomic_store(&s->stop, 1);
  pthread_join(s->th, NULL);
  close(s->fd);
}

#endif
