/*
 * fetch.c - one request with its redirects. libcurl never follows a redirect
 * itself: every hop is parsed, checked against the allow-list and the method
 * rules, given the injected headers of the entries that allow it, and only
 * then sent. libcurl is used through a multi handle polled every 50 ms so
 * the abort flag and the single deadline are honoured promptly whatever
 * libcurl is waiting for (DNS, connect, TLS, a silent server).
 */
#include "policy.h"

#include "core/fiber.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define POLL_MS 50

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void curl_init(void) {
  curl_init_rc = curl_global_init(CURL_GLOBAL_ALL);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* State of one fetch, shared by the callbacks of every hop. */
typedef struct fetch {
  const net_policy *p;
  const net_request *req;
  const net_callbacks *cb;
  net_response *resp;
  mem *m;
  volatile const int *abort;
  int64_t deadline;
  int64_t started;
  /* Per hop. */
  int status;
  int has_location;
  int decided, deliver;
  uint64_t body_bytes;
  int over_cap, cb_stop, fail_stop, nomem;
  char refused[160]; /* an address refused by deny_private */
  net_header *rh;    /* response headers of the hop */
  size_t nrh, caprh;
} fetch;

static void msg(net_response *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void msg(net_response *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->message, sizeof r->message, fmt, ap);
  va_end(ap);
}

static void free_headers(mem *m, net_header *h, size_t n) {
  for (size_t i = 0; i < n; i++) {
    mem_free(m, (char *)h[i].name);
    mem_free(m, (char *)h[i].value);
  }
  mem_free(m, h);
}

static void hop_reset(fetch *f) {
  free_headers(f->m, f->rh, f->nrh);
  f->rh = NULL;
  f->nrh = f->caprh = 0;
  f->status = 0;
  f->has_location = 0;
  f->decided = f->deliver = 0;
  f->body_bytes = 0;
  f->over_cap = f->cb_stop = f->fail_stop = 0;
  f->refused[0] = 0;
}

static int is_redirect(int st) {
  return st == 301 || st == 302 || st == 303 || st == 307 || st == 308;
}

/* One response header line, from libcurl or synthesised for a host
 * transport. Returns 0, or -1 to stop the transfer. */
static int header_line(fetch *f, const char *line, size_t len) {
  if (f->cb && f->cb->on_header)
    f->cb->on_header(f->cb->ud, line, len);
  size_t n = len;
  while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
    n--;
  if (len >= 5 && !memcmp(line, "HTTP/", 5)) {
    /* A new response (after a 1xx, or the final one). */
    free_headers(f->m, f->rh, f->nrh);
    f->rh = NULL;
    f->nrh = f->caprh = 0;
    f->has_location = 0;
    const char *sp = memchr(line, ' ', n);
    f->status = sp ? atoi(sp + 1) : 0;
    return 0;
  }
  if (n == 0) {
    /* End of a header block: with --fail, an error status stops here so no
     * body byte is delivered (as curl -f). */
    if (f->status >= 400 && f->req->fail_on_error) {
      f->fail_stop = 1;
      return -1;
    }
    return 0;
  }
  if (line[0] == ' ' || line[0] == '\t')
    return 0; /* obsolete line folding: ignored */
  const char *colon = memchr(line, ':', n);
  if (!colon)
    return 0;
  const char *v = colon + 1, *end = line + n;
  while (v < end && (*v == ' ' || *v == '\t'))
    v++;
  while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  if (f->nrh == f->caprh) {
    size_t nc = f->caprh ? f->caprh * 2 : 16;
    net_header *nh = mem_realloc(f->m, f->rh, nc * sizeof *nh);
    if (!nh) {
      f->nomem = 1;
      return -1;
    }
    f->rh = nh;
    f->caprh = nc;
  }
  net_header *h = &f->rh[f->nrh];
  h->name = mem_strndup(f->m, line, (size_t)(colon - line));
  h->value = mem_strndup(f->m, v, (size_t)(end - v));
  h->injected = 0;
  if (!h->name || !h->value) {
    mem_free(f->m, (char *)h->name);
    mem_free(f->m, (char *)h->value);
    f->nomem = 1;
    return -1;
  }
  f->nrh++;
  if (!strcasecmp(h->name, "Location") && *h->value)
    f->has_location = 1;
  return 0;
}

/* Body bytes of a hop. Returns 0, or -1 to stop the transfer. */
static int body_bytes(fetch *f, const void *data, size_t n) {
  if (!f->decided) {
    f->decided = 1;
    f->deliver = !(f->req->follow && is_redirect(f->status) && f->has_location);
  }
  if (n > f->p->max_response - f->body_bytes ||
      f->body_bytes > f->p->max_response) {
    f->over_cap = 1;
    return -1;
  }
  f->body_bytes += n;
  if (!f->deliver || n == 0)
    return 0;
  if (f->cb && f->cb->on_body) {
    if (f->cb->on_body(f->cb->ud, data, n)) {
      f->cb_stop = 1;
      return -1;
    }
    return 0;
  }
  if (buf_append(&f->resp->body, data, n)) {
    f->nomem = 1;
    return -1;
  }
  return 0;
}

static size_t curl_header_cb(char *p, size_t size, size_t n, void *ud) {
  return header_line(ud, p, size * n) ? 0 : size * n;
}

static size_t curl_write_cb(char *p, size_t size, size_t n, void *ud) {
  return body_bytes(ud, p, size * n) ? 0 : size * n;
}

/* Sees the very address libcurl is about to connect to (after DNS, for each
 * candidate of happy eyeballs), so a name that resolves to a private address,
 * or starts to after a first check (DNS rebinding), is refused here. */
static curl_socket_t curl_open_cb(void *ud, curlsocktype purpose,
                                  struct curl_sockaddr *a) {
  fetch *f = ud;
  (void)purpose;
  const void *ip = NULL;
  if (a->family == AF_INET)
    ip = &((const struct sockaddr_in *)&a->addr)->sin_addr;
  else if (a->family == AF_INET6)
    ip = &((const struct sockaddr_in6 *)&a->addr)->sin6_addr;
  const char *why = ip ? NULL : "not an internet address";
  if (ip && f->p->deny_private)
    why = net_addr_refusal(a->family, ip);
  if (why) {
    char txt[INET6_ADDRSTRLEN] = "?";
    if (ip)
      inet_ntop(a->family, ip, txt, sizeof txt);
    snprintf(f->refused, sizeof f->refused,
             "address %s refused by the network policy (deny_private: %s)", txt,
             why);
    return CURL_SOCKET_BAD;
  }
  return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

/* The abort flag is a cancel token's atomic_int, set from another thread
 * (vsh_cancel_set), seen through vsh_http_request's volatile int pointer:
 * a plain read of it is a data race, so read it atomically. */
static int abort_set(volatile const int *flag) {
  return flag && __atomic_load_n(flag, __ATOMIC_RELAXED);
}

static int xferinfo_cb(void *ud, curl_off_t a, curl_off_t b, curl_off_t c,
                       curl_off_t d) {
  fetch *f = ud;
  (void)a, (void)b, (void)c, (void)d;
  return abort_set(f->abort);
}

/* ---- building a hop ------------------------------------------------------ */

typedef struct hop {
  net_url url;
  const char *method;
  int send_body;
  int cross_origin; /* not the origin of the first request */
  net_header *h;    /* what is sent; names and values borrowed */
  size_t nh;
} hop;

static int same_name(const char *a, const char *b) {
  return !strcasecmp(a, b);
}

/* The header list of a hop: the script's own, less those an injected header
 * replaces and less credentials when the origin changed (as curl -L drops
 * Authorization and Cookie on another host), then the injected ones. */
static int build_headers(fetch *f, hop *h) {
  const net_request *r = f->req;
  size_t ninj = 0;
  const net_header **inj = NULL;
  if (f->p->total_headers) {
    inj = mem_alloc(f->m, f->p->total_headers * sizeof *inj);
    if (!inj || net_injected(f->p, &h->url, inj, &ninj)) {
      mem_free(f->m, inj);
      return -1;
    }
  }
  h->h = mem_alloc(f->m, (r->nheaders + ninj + 3) * sizeof *h->h);
  if (!h->h) {
    mem_free(f->m, inj);
    return -1;
  }
  h->nh = 0;
  int script_ct = 0;
  for (size_t i = 0; i < r->nheaders; i++) {
    const net_header *s = &r->headers[i];
    if (h->cross_origin &&
        (same_name(s->name, "Authorization") || same_name(s->name, "Cookie")))
      continue;
    if (!h->send_body && same_name(s->name, "Content-Type"))
      continue;
    int replaced = 0;
    for (size_t j = 0; j < ninj && !replaced; j++)
      replaced = same_name(inj[j]->name, s->name);
    if (replaced)
      continue;
    if (same_name(s->name, "Content-Type"))
      script_ct = 1;
    h->h[h->nh++] = (net_header){s->name, s->value, 0};
  }
  if (h->send_body && !script_ct) {
    /* NULL value: keep libcurl from adding its form content type when the
     * caller named none, so both transports send the same request. */
    int dup = 0;
    for (size_t j = 0; j < ninj && !dup; j++)
      dup = same_name(inj[j]->name, "Content-Type");
    if (!dup)
      h->h[h->nh++] = (net_header){"Content-Type", r->content_type, 0};
  }
  for (size_t j = 0; j < ninj; j++)
    h->h[h->nh++] = *inj[j];
  mem_free(f->m, inj);
  return 0;
}

/* ---- one hop through libcurl ------------------------------------------- */

static int curl_hop(fetch *f, CURLM *multi, CURL *e, hop *h) {
  net_response *r = f->resp;
  const net_request *req = f->req;
  char errbuf[CURL_ERROR_SIZE] = "";
  struct curl_slist *sl = NULL;
  int rc = 0;
  buf line;
  buf_init(&line, f->m);

  curl_easy_reset(e);
  /* Only the two protocols, never a proxy from the host's environment, no
   * .netrc, no cookie engine (none is enabled unless asked), TLS verified,
   * redirects ours. */
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(e, CURLOPT_MAXREDIRS, 0L);
  curl_easy_setopt(e, CURLOPT_PROXY, "");
  curl_easy_setopt(e, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(e, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
  if (f->p->ca_file)
    curl_easy_setopt(e, CURLOPT_CAINFO, f->p->ca_file);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(e, CURLOPT_URL, h->url.url);
  curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, curl_open_cb);
  curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, f);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, curl_header_cb);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, f);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, curl_write_cb);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, f);
  curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, xferinfo_cb);
  curl_easy_setopt(e, CURLOPT_XFERINFODATA, f);
  curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  int64_t left = f->deadline - now_ms();
  if (left < 1)
    left = 1;
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)left);
  int64_t ct = req->connect_timeout_ms > 0 && req->connect_timeout_ms < left
                   ? req->connect_timeout_ms
                   : left;
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)ct);
  if (req->compressed)
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  if (req->user_agent)
    curl_easy_setopt(e, CURLOPT_USERAGENT, req->user_agent);

  int head = !strcmp(h->method, "HEAD");
  if (head) {
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE,
                     (curl_off_t)(f->p->max_response > INT64_MAX
                                      ? INT64_MAX
                                      : f->p->max_response));
    if (h->send_body) {
      curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE,
                       (curl_off_t)req->body_len);
      curl_easy_setopt(e, CURLOPT_POSTFIELDS,
                       req->body ? (const char *)req->body : "");
      if (strcmp(h->method, "POST") != 0)
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, h->method);
    } else if (strcmp(h->method, "GET") != 0) {
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, h->method);
    } else {
      curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
    }
  }

  /* "Expect:" off: no 100-continue round trip for larger bodies. */
  struct curl_slist *t = curl_slist_append(NULL, "Expect:");
  if (!t)
    goto nomem;
  sl = t;
  for (size_t i = 0; i < h->nh; i++) {
    buf_clear(&line);
    /* libcurl's syntax: "Name:" removes, "Name;" sends an empty value. */
    if (!h->h[i].value)
      buf_printf(&line, "%s:", h->h[i].name);
    else if (!*h->h[i].value)
      buf_printf(&line, "%s;", h->h[i].name);
    else
      buf_printf(&line, "%s: %s", h->h[i].name, h->h[i].value);
    if (!line.data || !(t = curl_slist_append(sl, line.data)))
      goto nomem;
    sl = t;
  }
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, sl);

  int aborted = 0, timed_out = 0;
  CURLcode res = CURLE_OK;
  if (curl_multi_add_handle(multi, e) != CURLM_OK)
    goto nomem;
  for (;;) {
    int running = 0;
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      res = CURLE_OUT_OF_MEMORY;
      break;
    }
    CURLMsg *cm;
    int q;
    int done = 0;
    while ((cm = curl_multi_info_read(multi, &q))) {
      if (cm->msg == CURLMSG_DONE && cm->easy_handle == e) {
        res = cm->data.result;
        done = 1;
      }
    }
    if (done)
      break;
    if (abort_set(f->abort)) {
      aborted = 1;
      break;
    }
    int64_t rem = f->deadline - now_ms();
    if (rem <= 0) {
      timed_out = 1;
      break;
    }
    /* waiting on the network: other threads may use the sandbox */
    sched *sc = sched_running();
    sched_leave(sc);
    curl_multi_poll(multi, NULL, 0, (int)(rem < POLL_MS ? rem : POLL_MS), NULL);
    sched_enter(sc);
  }
  curl_multi_remove_handle(multi, e);

  if (f->nomem)
    goto nomem;
  if (aborted || res == CURLE_ABORTED_BY_CALLBACK) {
    rc = 42;
    msg(r, "Operation cancelled");
  } else if (timed_out || res == CURLE_OPERATION_TIMEDOUT) {
    rc = 28;
    msg(r,
        "Operation timed out after %lld milliseconds with %llu bytes "
        "received",
        (long long)(now_ms() - f->started), (unsigned long long)f->body_bytes);
  } else if (f->over_cap || res == CURLE_FILESIZE_EXCEEDED) {
    rc = 63;
    msg(r, "Maximum file size exceeded (limit %llu bytes)",
        (unsigned long long)f->p->max_response);
  } else if (f->fail_stop) {
    rc = 22;
    msg(r, "The requested URL returned error: %d", f->status);
  } else if (f->cb_stop) {
    rc = 23;
    msg(r, "Failure writing output to destination");
  } else if (res == CURLE_COULDNT_CONNECT && f->refused[0]) {
    rc = 7;
    msg(r, "Failed to connect to %s port %d: %s", h->url.host, h->url.port,
        f->refused);
  } else if (res != CURLE_OK) {
    rc = (int)res;
    msg(r, "%s", errbuf[0] ? errbuf : curl_easy_strerror(res));
  }
  curl_slist_free_all(sl);
  buf_free(&line);
  return rc;
nomem:
  curl_slist_free_all(sl);
  buf_free(&line);
  msg(r, "Out of memory");
  return 27;
}

/* ---- one hop through the host's transport ------------------------------- */

static int host_hop(fetch *f, hop *h) {
  net_response *r = f->resp;
  const net_request *req = f->req;
  vsh_http_header *hh = NULL;
  if (!(hh = mem_calloc(f->m, h->nh + 1, sizeof *hh))) {
    msg(r, "Out of memory");
    return 27;
  }
  size_t n = 0;
  for (size_t i = 0; i < h->nh; i++)
    if (h->h[i].value) /* a removal means nothing to a host transport */
      hh[n++] = (vsh_http_header){h->h[i].name, h->h[i].value};
  if (req->user_agent && !net_header_get(h->h, h->nh, "User-Agent"))
    hh[n++] = (vsh_http_header){"User-Agent", req->user_agent};
  int head = !strcmp(h->method, "HEAD");
  int64_t left = f->deadline - now_ms();
  vsh_http_request hr = {
      .method = h->method,
      .url = h->url.url,
      .headers = hh,
      .nheaders = n,
      .body = h->send_body ? req->body : NULL,
      .body_len = h->send_body ? req->body_len : 0,
      .timeout_ms = left > 0 ? left : 1,
      .max_response = f->p->max_response,
      .abort = f->abort,
  };
  vsh_http_response hres;
  memset(&hres, 0, sizeof hres);
  int rc = f->p->transport(f->p->transport_ud, &hr, &hres);
  mem_free(f->m, hh);
  if (rc == 0) {
    char sl[64];
    snprintf(sl, sizeof sl, "HTTP/1.1 %d \r\n", hres.status);
    int stop = header_line(f, sl, strlen(sl));
    buf b;
    buf_init(&b, f->m);
    for (size_t i = 0; i < hres.nheaders && !stop; i++) {
      buf_clear(&b);
      const char *hn = hres.headers[i].name, *hv = hres.headers[i].value;
      if (!hn || !hv || !net_is_token(hn) || !net_is_field_value(hv))
        continue; /* one line per field, whatever the host handed back */
      if (buf_printf(&b, "%s: %s\r\n", hn, hv)) {
        f->nomem = 1;
        break;
      }
      stop = header_line(f, b.data, b.len);
    }
    buf_free(&b);
    if (!stop && !f->nomem)
      stop = header_line(f, "\r\n", 2);
    if (!stop && !f->nomem && !head && (hres.body_len || hres.body))
      body_bytes(f, hres.body, hres.body_len);
  }
  for (size_t i = 0; i < hres.nheaders; i++) {
    free((void *)hres.headers[i].name);
    free((void *)hres.headers[i].value);
  }
  free(hres.headers);
  free(hres.body);
  if (abort_set(f->abort)) {
    msg(r, "Operation cancelled");
    return 42;
  }
  if (rc) {
    hres.error[sizeof hres.error - 1] = 0;
    msg(r, "%s", hres.error[0] ? hres.error : "transport failed");
    return rc;
  }
  if (f->nomem) {
    msg(r, "Out of memory");
    return 27;
  }
  if (f->over_cap) {
    msg(r, "Maximum file size exceeded (limit %llu bytes)",
        (unsigned long long)f->p->max_response);
    return 63;
  }
  if (f->fail_stop) {
    msg(r, "The requested URL returned error: %d", f->status);
    return 22;
  }
  if (f->cb_stop) {
    msg(r, "Failure writing output to destination");
    return 23;
  }
  if (now_ms() > f->deadline) {
    msg(r, "Operation timed out after %lld milliseconds",
        (long long)(now_ms() - f->started));
    return 28;
  }
  return 0;
}

/* ---- the whole request -------------------------------------------------- */

/* Location resolved against the URL it came from, as curl -L does (spaces
 * and non-ASCII bytes percent-encoded). */
static char *resolve_location(mem *m, const char *base, const char *loc) {
  CURLU *u = curl_url();
  char *out = NULL, *res = NULL;
  if (u && !curl_url_set(u, CURLUPART_URL, base, CURLU_NON_SUPPORT_SCHEME) &&
      !curl_url_set(u, CURLUPART_URL, loc,
                    CURLU_NON_SUPPORT_SCHEME | CURLU_URLENCODE |
                        CURLU_ALLOW_SPACE) &&
      !curl_url_get(u, CURLUPART_URL, &out, 0) && out)
    res = mem_strdup(m, out);
  curl_free(out);
  curl_url_cleanup(u);
  return res;
}

void net_response_free(net_response *r) {
  if (!r || !r->m)
    return;
  free_headers(r->m, r->headers, r->nheaders);
  buf_free(&r->body);
  mem_free(r->m, r->effective_url);
  mem_free(r->m, r->redirect_url);
  mem_free(r->m, r->content_type);
  r->headers = NULL;
  r->nheaders = 0;
  r->effective_url = r->redirect_url = r->content_type = NULL;
}

static int set_str(mem *m, char **dst, const char *s) {
  mem_free(m, *dst);
  *dst = s ? mem_strdup(m, s) : NULL;
  return s && !*dst ? -1 : 0;
}

static int validate_request(const net_request *req, net_response *r) {
  for (size_t i = 0; i < req->nheaders; i++) {
    const net_header *h = &req->headers[i];
    if (!net_is_token(h->name) || (h->value && !net_is_field_value(h->value))) {
      msg(r, "bad header: a name must be a token and a value one line");
      return 43;
    }
    if (same_name(h->name, "Host")) {
      /* The origin the policy checked is the one a server must see; a Host
       * of one's own would reach other virtual hosts on the same address. */
      msg(r, "header Host refused by the network policy (the host comes "
             "from the URL)");
      return 7;
    }
  }
  if (req->content_type && !net_is_field_value(req->content_type)) {
    msg(r, "bad content type");
    return 43;
  }
  if (req->user_agent && !net_is_field_value(req->user_agent)) {
    msg(r, "bad user agent");
    return 43;
  }
  return 0;
}

int net_fetch(const net_policy *p, const net_request *req,
              int64_t exec_remaining_ms, volatile const int *abort,
              const net_callbacks *cb, net_response *resp) {
  memset(resp, 0, sizeof *resp);
  resp->m = p->m;
  buf_init(&resp->body, p->m);
  pthread_once(&curl_once, curl_init);
  if (curl_init_rc != CURLE_OK) {
    msg(resp, "libcurl failed to initialise");
    return resp->code = 2;
  }
  fetch f;
  memset(&f, 0, sizeof f);
  f.p = p;
  f.req = req;
  f.cb = cb;
  f.resp = resp;
  f.m = p->m;
  f.abort = abort;
  f.started = now_ms();
  int64_t budget = p->timeout_ms;
  if (exec_remaining_ms >= 0 && exec_remaining_ms < budget)
    budget = exec_remaining_ms;
  if (req->timeout_ms > 0 && req->timeout_ms < budget)
    budget = req->timeout_ms;
  f.deadline = f.started + budget;
  int max_redirs = p->max_redirects;
  if (req->max_redirects >= 0 && req->max_redirects < max_redirs)
    max_redirs = req->max_redirects;

  int rc = validate_request(req, resp);
  if (rc)
    return resp->code = rc;

  CURLM *multi = NULL;
  CURL *easy = NULL;
  if (!p->transport) {
    multi = curl_multi_init();
    easy = curl_easy_init();
    if (!multi || !easy) {
      msg(resp, "Out of memory");
      rc = 27;
      goto done;
    }
  }

  hop h;
  memset(&h, 0, sizeof h);
  const char *method =
      req->method ? req->method : (req->has_body ? "POST" : "GET");
  int send_body = req->has_body;
  char *next_url = mem_strdup(p->m, req->url ? req->url : "");
  char *first_origin = NULL;
  unsigned uflags = req->url_flags;
  if (!next_url) {
    msg(resp, "Out of memory");
    rc = 27;
    goto done;
  }
  for (int hopno = 0;; hopno++) {
    char why[512];
    rc = net_url_parse(p->m, next_url, uflags, &h.url, why, sizeof why);
    uflags = 0;
    mem_free(p->m, next_url);
    next_url = NULL;
    if (rc) {
      msg(resp, "%s", why);
      break;
    }
    if (set_str(p->m, &resp->effective_url, h.url.url)) {
      rc = 27;
      msg(resp, "Out of memory");
      break;
    }
    rc = net_check_url(p, &h.url, method, why, sizeof why);
    if (rc) {
      msg(resp, "%s", why);
      break;
    }
    if (!first_origin && !(first_origin = mem_strdup(p->m, h.url.origin))) {
      rc = 27;
      msg(resp, "Out of memory");
      break;
    }
    h.method = method;
    h.send_body = send_body;
    h.cross_origin = strcmp(first_origin, h.url.origin) != 0;
    if (build_headers(&f, &h)) {
      rc = 27;
      msg(resp, "Out of memory");
      break;
    }
    if (cb && cb->on_request) {
      net_hop info = {hopno, method, &h.url, h.h, h.nh};
      cb->on_request(cb->ud, &info);
    }
    hop_reset(&f);
    if (abort_set(abort)) {
      rc = 42;
      msg(resp, "Operation cancelled");
      break;
    }
    if (now_ms() >= f.deadline) {
      rc = 28;
      msg(resp, "Operation timed out after %lld milliseconds",
          (long long)(now_ms() - f.started));
      break;
    }
    rc = p->transport ? host_hop(&f, &h) : curl_hop(&f, multi, easy, &h);
    mem_free(p->m, h.h);
    h.h = NULL;
    resp->status = f.status;
    if (rc)
      break;
    const char *loc =
        is_redirect(f.status) ? net_header_get(f.rh, f.nrh, "Location") : NULL;
    char *abs = loc && *loc ? resolve_location(p->m, h.url.url, loc) : NULL;
    if (!req->follow || !abs) {
      resp->redirect_url = abs;
      break;
    }
    if (resp->num_redirects >= max_redirs) {
      mem_free(p->m, abs);
      rc = 47;
      msg(resp, "Maximum (%d) redirects followed", max_redirs);
      break;
    }
    resp->num_redirects++;
    /* As curl -L: 303 turns anything but HEAD into GET; 301 and 302 turn
     * POST into GET; 307 and 308 keep method and body. */
    if ((f.status == 303 && strcmp(method, "HEAD") != 0) ||
        ((f.status == 301 || f.status == 302) && !strcmp(method, "POST"))) {
      method = "GET";
      send_body = 0;
    }
    net_url_free(p->m, &h.url);
    next_url = abs;
  }
  net_url_free(p->m, &h.url);
  mem_free(p->m, h.h);
  mem_free(p->m, next_url);
  mem_free(p->m, first_origin);
  /* Hand the headers of the last response over. */
  resp->headers = f.rh;
  resp->nheaders = f.nrh;
  f.rh = NULL;
  f.nrh = 0;
  resp->size_download = f.body_bytes;
  const char *ct =
      net_header_get(resp->headers, resp->nheaders, "Content-Type");
  if (set_str(p->m, &resp->content_type, ct) && !rc) {
    rc = 27;
    msg(resp, "Out of memory");
  }
done:
  hop_reset(&f);
  if (easy)
    curl_easy_cleanup(easy);
  if (multi)
    curl_multi_cleanup(multi);
  return resp->code = rc;
}
