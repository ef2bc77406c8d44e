/*
 * policy.h - internals of the allow-list shared by policy.c and fetch.c.
 */
#ifndef VSH_NET_POLICY_H
#define VSH_NET_POLICY_H

#include "net.h"

typedef struct net_entry {
  net_url url;         /* the prefix, parsed like any URL */
  size_t plen;         /* strlen(url.path) */
  int scoped;          /* path prefix other than "/" */
  char *text;          /* origin + path, for messages */
  net_header *headers; /* injected, all flagged */
  size_t nheaders;
} net_entry;

struct net_policy {
  mem *m;
  net_entry *entries;
  size_t nentries;
  size_t total_headers; /* sum of nheaders, bounds net_injected */
  char **methods;
  size_t nmethods;
  int all_methods;
  int deny_private;
  int max_redirects;
  int64_t timeout_ms;
  uint64_t max_response;
  char *ca_file;
  vsh_transport_fn transport;
  void *transport_ud;
};

int net_is_token(const char *s);
int net_is_field_value(const char *s);
/* What makes a path ambiguous for a path-scoped entry, or NULL. */
const char *net_path_ambiguity(const char *path);
int net_entry_allows(const net_entry *e, const net_url *u);
int net_method_allowed(const net_policy *p, const char *method);
/* net_check on a parsed URL. */
int net_check_url(const net_policy *p, const net_url *u, const char *method,
                  char *why, size_t whylen);
/* Headers to inject for u (pointers into the policy), at most
 * p->total_headers of them; -1 when out of memory. */
int net_injected(const net_policy *p, const net_url *u, const net_header **out,
                 size_t *n);

#endif
