/*
 * policy.c - the allow-list: entries compiled once, then URL + method checks
 * and the headers each allowed URL gets injected.
 */
#include "policy.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_REDIRECTS 20
#define DEFAULT_TIMEOUT_MS 30000
#define DEFAULT_MAX_RESPONSE ((uint64_t)10 << 20)

static int is_tchar(unsigned char c) {
  /* RFC 9110 token characters. */
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

int net_is_token(const char *s) {
  if (!s || !*s)
    return 0;
  for (; *s; s++)
    if (!is_tchar((unsigned char)*s))
      return 0;
  return 1;
}

int net_is_field_value(const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\r' || c == '\n' || (c < 0x20 && c != '\t') || c == 0x7f)
      return 0;
  }
  return 1;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

const char *net_path_ambiguity(const char *p) {
  for (; *p; p++) {
    if (*p == '\\')
      return "backslash";
    if (*p == ';')
      return "';' (path parameters)";
    if (*p != '%')
      continue;
    int h = hexval((unsigned char)p[1]);
    int l = h < 0 ? -1 : hexval((unsigned char)p[2]);
    if (h < 0 || l < 0)
      return "malformed percent-encoding";
    switch (h * 16 + l) {
    case 0x2f:
      return "encoded '/' (%2f)";
    case 0x2e:
      return "encoded '.' (%2e)";
    case 0x5c:
      return "encoded backslash (%5c)";
    case 0x3b:
      return "encoded ';' (%3b)";
    case 0x25:
      /* %25 is how %2f gets past one decoding pass as %252f. */
      return "doubly-encoded '%' (%25)";
    case 0x00:
      return "encoded NUL (%00)";
    case 0xc0:
    case 0xc1:
      /* Overlong UTF-8 ('%c0%af' is '/' to lax decoders). */
      return "overlong UTF-8 encoding";
    default:
      break;
    }
    p += 2;
  }
  return NULL;
}

static void entry_free(mem *m, net_entry *e) {
  net_url_free(m, &e->url);
  mem_free(m, e->text);
  for (size_t i = 0; i < e->nheaders; i++) {
    mem_free(m, (char *)e->headers[i].name);
    mem_free(m, (char *)e->headers[i].value);
  }
  mem_free(m, e->headers);
}

void net_policy_free(net_policy *p) {
  if (!p)
    return;
  mem *m = p->m;
  for (size_t i = 0; i < p->nentries; i++)
    entry_free(m, &p->entries[i]);
  mem_free(m, p->entries);
  for (size_t i = 0; i < p->nmethods; i++)
    mem_free(m, p->methods[i]);
  mem_free(m, p->methods);
  mem_free(m, p->ca_file);
  mem_free(m, p);
  mem_unref(m);
}

static int compile_entry(mem *m, const vsh_net_rule *r, size_t idx,
                         net_entry *e, char *err, size_t errlen) {
  char why[256];
  if (!r->prefix) {
    snprintf(err, errlen, "network policy entry %zu: no prefix", idx);
    return -1;
  }
  if (strchr(r->prefix, '?') || strchr(r->prefix, '#')) {
    snprintf(err, errlen,
             "network policy entry %zu (%s): a prefix has no query or "
             "fragment",
             idx, r->prefix);
    return -1;
  }
  int rc = net_url_parse(m, r->prefix, 0, &e->url, why, sizeof why);
  if (rc == 27)
    return -2;
  if (rc) {
    snprintf(err, errlen, "network policy entry %zu (%s): %s", idx, r->prefix,
             why);
    return -1;
  }
  e->plen = strlen(e->url.path);
  e->scoped = strcmp(e->url.path, "/") != 0;
  const char *amb = net_path_ambiguity(e->url.path);
  if (e->scoped && amb) {
    snprintf(err, errlen, "network policy entry %zu (%s): ambiguous path: %s",
             idx, r->prefix, amb);
    return -1;
  }
  char tb[1024];
  snprintf(tb, sizeof tb, "%s%s", e->url.origin, e->scoped ? e->url.path : "");
  e->text = mem_strdup(m, tb);
  if (!e->text)
    return -2;
  if (r->nheaders) {
    e->headers = mem_calloc(m, r->nheaders, sizeof *e->headers);
    if (!e->headers)
      return -2;
  }
  for (size_t i = 0; i < r->nheaders; i++) {
    const vsh_http_header *h = &r->headers[i];
    if (!net_is_token(h->name) || !h->value || !net_is_field_value(h->value)) {
      snprintf(err, errlen,
               "network policy entry %zu (%s): bad header %zu (a name must "
               "be a token, a value one line)",
               idx, r->prefix, i);
      return -1;
    }
    e->headers[i].name = mem_strdup(m, h->name);
    e->headers[i].value = mem_strdup(m, h->value);
    e->headers[i].injected = 1;
    e->nheaders = i + 1;
    if (!e->headers[i].name || !e->headers[i].value)
      return -2;
  }
  return 0;
}

int net_policy_compile(mem *m, const vsh_net_policy *src, net_policy **out,
                       char *err, size_t errlen) {
  *out = NULL;
  if (err && errlen)
    err[0] = 0;
  char dummy[8];
  if (!err) {
    err = dummy;
    errlen = sizeof dummy;
  }
  net_policy *p = mem_calloc(m, 1, sizeof *p);
  if (!p)
    return -2;
  p->m = mem_ref(m);
  int rc = 0;
  if (src->nrules) {
    p->entries = mem_calloc(m, src->nrules, sizeof *p->entries);
    if (!p->entries) {
      rc = -2;
      goto fail;
    }
  }
  for (size_t i = 0; i < src->nrules; i++) {
    p->nentries = i + 1;
    rc = compile_entry(m, &src->rules[i], i, &p->entries[i], err, errlen);
    if (rc)
      goto fail;
    p->total_headers += p->entries[i].nheaders;
  }
  if (src->nmethods) {
    p->methods = mem_calloc(m, src->nmethods, sizeof *p->methods);
    if (!p->methods) {
      rc = -2;
      goto fail;
    }
  }
  for (size_t i = 0; i < src->nmethods; i++) {
    if (!net_is_token(src->methods[i])) {
      snprintf(err, errlen, "network policy: method %zu is not a token", i);
      rc = -1;
      goto fail;
    }
    p->methods[i] = mem_strdup(m, src->methods[i]);
    p->nmethods = i + 1;
    if (!p->methods[i]) {
      rc = -2;
      goto fail;
    }
  }
  p->all_methods = src->dangerously_allow_all_methods != 0;
  p->deny_private = src->deny_private != 0;
  p->max_redirects = src->max_redirects == 0  ? DEFAULT_REDIRECTS
                     : src->max_redirects < 0 ? 0
                                              : src->max_redirects;
  p->timeout_ms = src->timeout_ms > 0 ? src->timeout_ms : DEFAULT_TIMEOUT_MS;
  p->max_response =
      src->max_response_bytes ? src->max_response_bytes : DEFAULT_MAX_RESPONSE;
  if (src->ca_file) {
    p->ca_file = mem_strdup(m, src->ca_file);
    if (!p->ca_file) {
      rc = -2;
      goto fail;
    }
  }
  p->transport = src->transport;
  p->transport_ud = src->transport_ud;
  *out = p;
  return 0;
fail:
  if (rc == -2)
    snprintf(err, errlen, "network policy: out of memory");
  net_policy_free(p);
  return rc;
}

int net_policy_max_redirects(const net_policy *p) {
  return p->max_redirects;
}
int64_t net_policy_timeout_ms(const net_policy *p) {
  return p->timeout_ms;
}
uint64_t net_policy_max_response(const net_policy *p) {
  return p->max_response;
}

/* Does the path lie under the entry's prefix at a segment boundary? */
static int under_prefix(const net_entry *e, const char *path) {
  if (!e->scoped)
    return 1;
  if (strncmp(path, e->url.path, e->plen) != 0)
    return 0;
  char next = path[e->plen];
  return next == 0 || next == '/' || e->url.path[e->plen - 1] == '/';
}

int net_entry_allows(const net_entry *e, const net_url *u) {
  if (strcmp(e->url.origin, u->origin) != 0 || !under_prefix(e, u->path))
    return 0;
  return !e->scoped || !net_path_ambiguity(u->path);
}

int net_method_allowed(const net_policy *p, const char *method) {
  if (p->all_methods)
    return 1;
  if (!strcmp(method, "GET") || !strcmp(method, "HEAD"))
    return 1;
  for (size_t i = 0; i < p->nmethods; i++)
    if (!strcmp(p->methods[i], method))
      return 1;
  return 0;
}

int net_check_url(const net_policy *p, const net_url *u, const char *method,
                  char *why, size_t whylen) {
  if (!method)
    method = "GET";
  const net_entry *same_origin = NULL, *ambiguous_in = NULL;
  int allowed = 0;
  for (size_t i = 0; i < p->nentries && !allowed; i++) {
    const net_entry *e = &p->entries[i];
    if (strcmp(e->url.origin, u->origin) != 0)
      continue;
    if (!same_origin)
      same_origin = e;
    int amb = e->scoped && net_path_ambiguity(u->path);
    /* Report ambiguity even when the prefix did not match: "/v1;x" is
     * refused because of the ';' as far as the script can tell. */
    if (amb && !ambiguous_in)
      ambiguous_in = e;
    if (!amb && under_prefix(e, u->path))
      allowed = 1;
  }
  if (!allowed) {
    if (ambiguous_in)
      snprintf(why, whylen,
               "%s refused by the network policy: ambiguous path (%s) under "
               "path-scoped entry %s",
               u->url, net_path_ambiguity(u->path), ambiguous_in->text);
    else if (same_origin)
      snprintf(why, whylen,
               "%s refused by the network policy: path %s is under no "
               "allowed prefix of %s (e.g. entry %s)",
               u->url, u->path, u->origin, same_origin->text);
    else
      snprintf(why, whylen,
               "%s refused by the network policy: origin %s is not in the "
               "allow-list",
               u->url, u->origin);
    return 7;
  }
  if (!net_is_token(method)) {
    snprintf(why, whylen, "method is not a valid HTTP token");
    return 43;
  }
  if (!net_method_allowed(p, method)) {
    char list[256] = "GET, HEAD";
    for (size_t i = 0; i < p->nmethods; i++) {
      size_t l = strlen(list);
      snprintf(list + l, sizeof list - l, ", %s", p->methods[i]);
    }
    snprintf(why, whylen,
             "method %s refused by the network policy (allowed: %s)", method,
             list);
    return 7;
  }
  return 0;
}

int net_check(const net_policy *p, const char *url, const char *method,
              char *why, size_t whylen) {
  net_url u;
  char dummy[8];
  if (!why) {
    why = dummy;
    whylen = sizeof dummy;
  }
  why[0] = 0;
  int rc = net_url_parse(p->m, url, 0, &u, why, whylen);
  if (rc)
    return rc;
  rc = net_check_url(p, &u, method, why, whylen);
  net_url_free(p->m, &u);
  return rc;
}

const char *net_header_get(const net_header *h, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcasecmp(h[i].name, name))
      return h[i].value;
  return NULL;
}

int net_injected(const net_policy *p, const net_url *u, const net_header **out,
                 size_t *n) {
  *n = 0;
  if (!p->total_headers)
    return 0;
  /* Entries that allow u, most specific (longest prefix) first: a name set
   * by a narrower entry wins over the same name from a wider one. */
  const net_entry **ents = mem_alloc(p->m, p->nentries * sizeof *ents);
  if (!ents)
    return -1;
  size_t ne = 0;
  for (size_t i = 0; i < p->nentries; i++) {
    if (!net_entry_allows(&p->entries[i], u))
      continue;
    size_t j = ne++;
    while (j > 0 && ents[j - 1]->plen < p->entries[i].plen) {
      ents[j] = ents[j - 1];
      j--;
    }
    ents[j] = &p->entries[i];
  }
  for (size_t i = 0; i < ne; i++) {
    for (size_t k = 0; k < ents[i]->nheaders; k++) {
      const net_header *h = &ents[i]->headers[k];
      int dup = 0;
      for (size_t j = 0; j < *n && !dup; j++)
        dup = !strcasecmp(out[j]->name, h->name);
      if (!dup)
        out[(*n)++] = h;
    }
  }
  mem_free(p->m, ents);
  return 0;
}
