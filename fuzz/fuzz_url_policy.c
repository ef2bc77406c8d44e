// layers: core net
/*
 * Fuzz the URL parser and the allow-list together. Input: an entry, a
 * newline, a URL (a second newline and a method are optional). Properties:
 *   - an allowed URL's origin is the entry's origin, and its path lies under
 *     the entry's prefix at a segment boundary, with no ambiguity when the
 *     entry is path-scoped;
 *   - canonical URLs are fixed points of the parser;
 *   - an entry allows its own canonical URL.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "net/policy.h"

static mem *M;

static void check_fixed_point(const net_url *u) {
  net_url v;
  char err[256];
  if (net_url_parse(M, u->url, 0, &v, err, sizeof err) != 0)
    abort(); /* a canonical URL must parse again */
  if (strcmp(u->url, v.url) || strcmp(u->origin, v.origin) ||
      strcmp(u->path, v.path))
    abort();
  net_url_free(M, &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!M)
    M = mem_new(NULL, NULL, 0);
  if (size > 4096)
    return 0;
  char *in = malloc(size + 1);
  if (!in)
    return 0;
  memcpy(in, data, size);
  in[size] = 0;
  if (strlen(in) != size) { /* C strings only */
    free(in);
    return 0;
  }
  char *url = strchr(in, '\n');
  if (!url) {
    free(in);
    return 0;
  }
  *url++ = 0;
  char *method = strchr(url, '\n');
  if (method)
    *method++ = 0;

  vsh_net_rule rule = {.prefix = in};
  vsh_net_policy vp = {.rules = &rule, .nrules = 1};
  net_policy *p = NULL;
  char err[512];
  if (net_policy_compile(M, &vp, &p, err, sizeof err) == 0) {
    const net_entry *e = &p->entries[0];
    check_fixed_point(&e->url);
    if (net_check(p, e->url.url, NULL, err, sizeof err) != 0)
      abort();
    if (net_check(p, url, method, err, sizeof err) == 0) {
      net_url u;
      if (net_url_parse(M, url, 0, &u, err, sizeof err) != 0)
        abort();
      if (strcmp(u.origin, e->url.origin) != 0)
        abort();
      if (e->scoped) {
        size_t n = e->plen;
        if (strncmp(u.path, e->url.path, n) != 0)
          abort();
        if (u.path[n] && u.path[n] != '/' && e->url.path[n - 1] != '/')
          abort();
        if (net_path_ambiguity(u.path))
          abort();
      }
      check_fixed_point(&u);
      net_url_free(M, &u);
    }
    net_policy_free(p);
  } else {
    net_url u;
    if (net_url_parse(M, url, 0, &u, err, sizeof err) == 0) {
      check_fixed_point(&u);
      net_url_free(M, &u);
    }
  }
  free(in);
  if (mem_used(M) != 0)
    abort(); /* everything the layer allocated was released */
  return 0;
}
