/*
 * url.c - strict URL parsing (libcurl's URL API, so what is checked is what
 * libcurl will connect to) and classification of addresses.
 */
#include "net.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <locale.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void seterr(char *err, size_t errlen, const char *fmt, const char *a) {
  if (err && errlen)
    snprintf(err, errlen, fmt, a ? a : "");
}

void net_url_free(mem *m, net_url *u) {
  if (!u)
    return;
  mem_free(m, u->url);
  mem_free(m, u->scheme);
  mem_free(m, u->host);
  mem_free(m, u->path);
  mem_free(m, u->origin);
  memset(u, 0, sizeof *u);
}

/*
 * The host in ASCII. libcurl converts international names with libidn2's
 * idn2_lookup_ul, which reads the input in the locale's charset: under the
 * "C" locale every non-ASCII host fails. Switching the process locale is not
 * ours to do, so switch only this thread's LC_CTYPE for the call.
 */
static CURLUcode get_host(CURLU *h, char **out) {
  locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
  locale_t old = utf8 ? uselocale(utf8) : (locale_t)0;
  CURLUcode rc = curl_url_get(h, CURLUPART_HOST, out, CURLU_PUNYCODE);
  if (utf8) {
    uselocale(old);
    freelocale(utf8);
  }
  return rc;
}

static int is_hex(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

/* A label that an IPv4 parser would read as a number (decimal, 0x hex,
 * octal): WHATWG treats a host whose last label is numeric as an address. */
static int numeric_label(const char *s, size_t n) {
  if (n == 0)
    return 0;
  if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (size_t i = 2; i < n; i++)
      if (!is_hex((unsigned char)s[i]))
        return 0;
    return 1;
  }
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return 0;
  return 1;
}

/* Canonical host in buf (lowercase, no trailing dot, canonical address
 * text), or -1 with a reason. */
static int canon_host(const char *h, char *out, size_t outlen,
                      const char **why) {
  size_t n = strlen(h);
  if (n == 0 || n + 1 > outlen) {
    *why = "bad host name";
    return -1;
  }
  if (h[0] == '[') {
    char inner[INET6_ADDRSTRLEN + 8];
    struct in6_addr a6;
    if (h[n - 1] != ']' || n - 2 >= sizeof inner) {
      *why = "bad IPv6 address";
      return -1;
    }
    memcpy(inner, h + 1, n - 2);
    inner[n - 2] = 0;
    if (inet_pton(AF_INET6, inner, &a6) != 1) {
      *why = "bad IPv6 address";
      return -1;
    }
    char txt[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, &a6, txt, sizeof txt);
    snprintf(out, outlen, "[%s]", txt);
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)h[i];
    if (c >= 'A' && c <= 'Z')
      c = (unsigned char)(c - 'A' + 'a');
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '.' || c == '_')) {
      *why = "bad character in host name";
      return -1;
    }
    out[i] = (char)c;
  }
  out[n] = 0;
  /* "example.com." is the same name as "example.com"; keep one spelling so
   * the allow-list compares one string. */
  if (n > 1 && out[n - 1] == '.')
    out[--n] = 0;
  if (out[0] == '.' || out[n - 1] == '.' || strstr(out, "..")) {
    *why = "empty label in host name";
    return -1;
  }
  const char *last = strrchr(out, '.');
  last = last ? last + 1 : out;
  if (numeric_label(last, strlen(last))) {
    /* libcurl already rewrote every valid numeric form (2130706433, 0x7f.1,
     * 0177.0.0.1) to a dotted quad; anything numeric left is not an address
     * libcurl agrees on with every resolver, so refuse it. */
    struct in_addr a4;
    if (inet_pton(AF_INET, out, &a4) != 1) {
      *why = "malformed numeric host";
      return -1;
    }
    inet_ntop(AF_INET, &a4, out, (socklen_t)outlen);
  }
  return 0;
}

int net_url_parse(mem *m, const char *text, unsigned flags, net_url *u,
                  char *err, size_t errlen) {
  memset(u, 0, sizeof *u);
  if (!text || !*text) {
    seterr(err, errlen, "no URL specified%s", "");
    return 3;
  }
  for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
    if (*s <= 0x20 || *s == 0x7f) {
      seterr(err, errlen, "URL contains a space or control character%s", "");
      return 3;
    }
  }
  CURLU *h = curl_url();
  if (!h) {
    seterr(err, errlen, "out of memory%s", "");
    return 27;
  }
  int rc = 3;
  char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL, *url = NULL;
  char *user = NULL, *zone = NULL;
  unsigned sf = CURLU_DISALLOW_USER | CURLU_NON_SUPPORT_SCHEME;
  if (flags & NET_URL_GUESS_SCHEME)
    sf |= CURLU_GUESS_SCHEME;
  CURLUcode uc = curl_url_set(h, CURLUPART_URL, text, sf);
  if (uc) {
    seterr(err, errlen, "URL rejected: %s", curl_url_strerror(uc));
    goto out;
  }
  if (curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) || !scheme)
    goto bad;
  if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) {
    seterr(err, errlen, "Protocol \"%s\" not supported or disabled in libcurl",
           scheme);
    rc = 1;
    goto out;
  }
  if (curl_url_get(h, CURLUPART_USER, &user, 0) == CURLUE_OK && user) {
    seterr(err, errlen, "URL rejected: credentials in the URL%s", "");
    goto out;
  }
  if (curl_url_get(h, CURLUPART_ZONEID, &zone, 0) == CURLUE_OK && zone) {
    seterr(err, errlen, "URL rejected: IPv6 zone id%s", "");
    goto out;
  }
  uc = get_host(h, &host);
  if (uc || !host) {
    seterr(err, errlen, "URL rejected: %s",
           uc ? curl_url_strerror(uc) : "no host");
    goto out;
  }
  char chost[300];
  const char *why = NULL;
  if (canon_host(host, chost, sizeof chost, &why)) {
    seterr(err, errlen, "URL rejected: %s", why);
    goto out;
  }
  if (curl_url_set(h, CURLUPART_HOST, chost, 0) ||
      curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0))
    goto bad;
  if (curl_url_get(h, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) || !port)
    goto bad;
  long pn = strtol(port, NULL, 10);
  if (pn <= 0 || pn > 65535) {
    seterr(err, errlen, "URL rejected: Port number out of range%s", "");
    goto out;
  }
  if (curl_url_get(h, CURLUPART_PATH, &path, 0) || !path)
    goto bad;
  if (curl_url_get(h, CURLUPART_URL, &url, CURLU_NO_DEFAULT_PORT) || !url)
    goto bad;

  u->scheme = mem_strdup(m, scheme);
  u->host = mem_strdup(m, chost);
  u->port = (int)pn;
  u->path = mem_strdup(m, path[0] ? path : "/");
  u->url = mem_strdup(m, url);
  char ob[400];
  snprintf(ob, sizeof ob, "%s://%s:%ld", scheme, chost, pn);
  u->origin = mem_strdup(m, ob);
  if (!u->scheme || !u->host || !u->path || !u->url || !u->origin) {
    net_url_free(m, u);
    seterr(err, errlen, "out of memory%s", "");
    rc = 27;
    goto out;
  }
  rc = 0;
  goto out;
bad:
  seterr(err, errlen, "URL using bad/illegal format or missing URL%s", "");
out:
  curl_free(scheme);
  curl_free(host);
  curl_free(port);
  curl_free(path);
  curl_free(url);
  curl_free(user);
  curl_free(zone);
  curl_url_cleanup(h);
  return rc;
}

/* ---- addresses ---------------------------------------------------------- */

static const char *v4_refusal(const unsigned char *a) {
  uint32_t x = ((uint32_t)a[0] << 24) | ((uint32_t)a[1] << 16) |
               ((uint32_t)a[2] << 8) | a[3];
  static const struct {
    uint32_t net;
    int bits;
    const char *why;
  } tab[] = {
      {0x00000000u, 8, "unspecified"}, /* 0/8 "this network" */
      {0x0a000000u, 8, "private"},     /* 10/8 */
      {0x64400000u, 10, "CGNAT"},      /* 100.64/10 */
      {0x7f000000u, 8, "loopback"},    /* 127/8 */
      {0xa9fe0000u, 16, "link-local"}, /* 169.254/16 */
      {0xac100000u, 12, "private"},    /* 172.16/12 */
      {0xc0000000u, 24, "reserved"},   /* 192.0.0/24 IETF */
      {0xc0000200u, 24, "reserved"},   /* 192.0.2/24 TEST-NET-1 */
      {0xc0586300u, 24, "reserved"},   /* 192.88.99/24 6to4 relay */
      {0xc0a80000u, 16, "private"},    /* 192.168/16 */
      {0xc6120000u, 15, "reserved"},   /* 198.18/15 benchmarking */
      {0xc6336400u, 24, "reserved"},   /* 198.51.100/24 TEST-NET-2 */
      {0xcb007100u, 24, "reserved"},   /* 203.0.113/24 TEST-NET-3 */
      {0xe0000000u, 4, "multicast"},   /* 224/4 */
      {0xf0000000u, 4, "reserved"},    /* 240/4 and broadcast */
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    uint32_t mask = 0xffffffffu << (32 - tab[i].bits);
    if ((x & mask) == tab[i].net)
      return tab[i].why;
  }
  return NULL;
}

static int zeros(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i])
      return 0;
  return 1;
}

const char *net_addr_refusal(int family, const void *addr) {
  if (family == AF_INET)
    return v4_refusal(addr);
  if (family != AF_INET6)
    return "not an internet address";
  const unsigned char *a = addr;
  if (zeros(a, 15) && a[15] == 0)
    return "unspecified";
  if (zeros(a, 15) && a[15] == 1)
    return "loopback";
  /* Addresses that carry an IPv4 address inside reach that IPv4 host, so
   * they are judged by it: mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96,
   * NAT64 64:ff9b::/96, 6to4 2002::/16. */
  static const unsigned char mapped[12] = {0, 0, 0, 0, 0,    0,
                                           0, 0, 0, 0, 0xff, 0xff};
  static const unsigned char xlat[12] = {0, 0, 0,    0,    0, 0,
                                         0, 0, 0xff, 0xff, 0, 0};
  static const unsigned char nat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0,
                                          0, 0,    0,    0,    0, 0};
  if (!memcmp(a, mapped, 12) || !memcmp(a, xlat, 12) || !memcmp(a, nat64, 12)) {
    const char *w = v4_refusal(a + 12);
    return w ? w : NULL;
  }
  if (a[0] == 0x20 && a[1] == 0x02) {
    const char *w = v4_refusal(a + 2);
    return w ? w : NULL;
  }
  if (zeros(a, 12))
    return "reserved"; /* deprecated IPv4-compatible ::a.b.c.d */
  if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b &&
      a[4] == 0x00 && a[5] == 0x01)
    return "private"; /* 64:ff9b:1::/48 local-use NAT64 */
  if ((a[0] & 0xfe) == 0xfc)
    return "private"; /* fc00::/7 unique local */
  if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
    return "link-local"; /* fe80::/10 */
  if (a[0] == 0xfe && (a[1] & 0xc0) == 0xc0)
    return "private"; /* fec0::/10 site-local (deprecated) */
  if (a[0] == 0xff)
    return "multicast";
  if (a[0] == 0x01 && a[1] == 0x00 && zeros(a + 2, 6))
    return "reserved"; /* 100::/64 discard */
  if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8)
    return "reserved"; /* 2001:db8::/32 documentation */
  if (a[0] == 0x20 && a[1] == 0x01 && (a[2] & 0xfe) == 0x00)
    return "reserved"; /* 2001::/23 IETF (Teredo, ORCHID, ...) */
  return NULL;
}
