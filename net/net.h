/*
 * net.h - the network layer: an HTTP allow-list policy and a transport
 * (libcurl, or the host's vsh_transport_fn) that follows redirects itself so
 * that every hop is checked again. Knows nothing of the shell.
 *
 * Error codes follow curl's exit statuses so the curl builtin can pass them
 * through: 0 ok, 1 unsupported protocol, 3 malformed URL, 6 resolve, 7
 * connect or refused by the policy, 22 HTTP error with fail_on_error, 23
 * write error (the body callback refused), 27 out of memory, 28 timeout,
 * 42 cancelled, 43 bad argument, 47 too many redirects, 60 TLS peer not
 * verified, 63 response larger than the cap.
 */
#ifndef VSH_NET_NET_H
#define VSH_NET_NET_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/mem.h"
#include "vsh.h"

/* ---- URLs ------------------------------------------------------------- */

enum {
  /* "example.com/x" means "http://example.com/x", as the curl tool does. */
  NET_URL_GUESS_SCHEME = 1u << 0
};

/* A URL parsed once, strictly, into canonical form. All strings are owned
 * (mem). */
typedef struct net_url {
  char *url;    /* scheme://host[:port]/path[?query]; default port omitted,
                   fragment dropped */
  char *scheme; /* "http" or "https" */
  char *host;   /* lowercase ASCII (IDNA punycode), no trailing dot; an IPv4
                   address in dotted quad, IPv6 as "[canonical]" */
  int port;     /* always explicit */
  char *path;   /* as sent: starts with '/', dot segments removed */
  char *origin; /* scheme://host:port, the unit the allow-list compares */
} net_url;

/* Returns 0, 1 (scheme other than http/https) or 3 (malformed), with a
 * message in err. */
int net_url_parse(mem *m, const char *text, unsigned flags, net_url *u,
                  char *err, size_t errlen);
void net_url_free(mem *m, net_url *u);

/* Why an address must not be connected to when private addresses are
 * refused ("loopback", "private", "CGNAT", ...), or NULL when it is public.
 * family is AF_INET or AF_INET6 and addr points at the in_addr / in6_addr. */
const char *net_addr_refusal(int family, const void *addr);

/* ---- Policy ----------------------------------------------------------- */

typedef struct net_policy net_policy;

/* Compile the public description once (entries parsed and validated).
 * Returns 0, or -1 with a message naming the bad entry, or -2 out of memory.
 * The policy keeps a reference on m. */
int net_policy_compile(mem *m, const vsh_net_policy *src, net_policy **out,
                       char *err, size_t errlen);
void net_policy_free(net_policy *p);

int net_policy_max_redirects(const net_policy *p);
int64_t net_policy_timeout_ms(const net_policy *p);
uint64_t net_policy_max_response(const net_policy *p);

/* May this method be used on this URL? Returns 0 (allowed), 1 / 3 (the URL
 * is unsupported / malformed) or 7 (refused); why explains a refusal and
 * names the rule. method NULL means GET. */
int net_check(const net_policy *p, const char *url, const char *method,
              char *why, size_t whylen);

/* ---- Requests --------------------------------------------------------- */

typedef struct net_header {
  const char *name;
  const char *value; /* NULL: remove a header libcurl would add */
  int injected;      /* set by the policy (a secret: mask it in logs) */
} net_header;

typedef struct net_request {
  const char *method; /* NULL: GET, or POST when has_body */
  const char *url;
  unsigned url_flags;        /* NET_URL_* for the first URL */
  const net_header *headers; /* the script's own; injected ones are added */
  size_t nheaders;
  const char *content_type; /* for the body; dropped with it on 303 */
  const void *body;
  size_t body_len;
  int has_body;               /* send body (even when empty) */
  const char *user_agent;     /* NULL: none */
  int follow;                 /* follow redirects (curl -L) */
  int max_redirects;          /* < 0: the policy's; never above it */
  int64_t timeout_ms;         /* 0: the policy's; never beyond it */
  int64_t connect_timeout_ms; /* 0: none of its own */
  int compressed;             /* ask for and decode gzip/deflate/br/zstd */
  int fail_on_error;          /* status >= 400 ends with 22, no body */
} net_request;

/* Seen by on_request before each hop is sent. */
typedef struct net_hop {
  int index; /* 0 for the first request */
  const char *method;
  const net_url *url;
  const net_header *headers; /* what is sent, injected ones flagged */
  size_t nheaders;
} net_hop;

typedef struct net_callbacks {
  void *ud;
  void (*on_request)(void *ud, const net_hop *hop);
  /* Every response header line of every hop as received (status line,
   * fields, the empty line), CRLF included. */
  void (*on_header)(void *ud, const char *line, size_t len);
  /* Body bytes of the final response. Return 0, or non-zero to stop (the
   * fetch then ends with 23). NULL: collected in net_response.body. */
  int (*on_body)(void *ud, const void *data, size_t len);
} net_callbacks;

typedef struct net_response {
  int code;            /* curl-style exit code, 0 on success */
  char message[512];   /* curl-style message when code != 0 */
  int status;          /* HTTP status of the last response, 0 if none */
  net_header *headers; /* of the last response (mem) */
  size_t nheaders;
  buf body;               /* when no on_body callback */
  uint64_t size_download; /* body bytes of the last response */
  char *effective_url;    /* last URL requested (mem), NULL if none */
  char *redirect_url;     /* its Location, absolute, when not followed */
  int num_redirects;
  char *content_type; /* of the last response, or NULL */
  mem *m;
} net_response;

/*
 * Perform a request, following redirects when asked, every hop checked
 * against the policy. exec_remaining_ms (< 0: none) bounds the whole request
 * together with the policy's and the request's timeouts. abort may be NULL;
 * once it reads non-zero the fetch ends within about 50 ms with code 42.
 * Returns resp->code. Always release resp with net_response_free.
 */
int net_fetch(const net_policy *p, const net_request *req,
              int64_t exec_remaining_ms, volatile const int *abort,
              const net_callbacks *cb, net_response *resp);
void net_response_free(net_response *resp);

/* Value of a header (case-insensitive name) in a list, or NULL. */
const char *net_header_get(const net_header *h, size_t n, const char *name);

#endif
