/*
 * strfn.c - string builtins: formats (@csv, @base64, ...), explode and
 * implode, split, regular expressions through core/regex.h, and dates.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins/data/jq/jq.h"
#include "builtins/tzutil.h"

int jq_utf8_len(const char *p, size_t n) {
  int c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)p[i] & 0xC0) != 0x80)
      c++;
  return c;
}

static int dec_utf8(const char *p, size_t n, size_t *i) {
  unsigned char c = (unsigned char)p[*i];
  int len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  unsigned cp = len == 1 ? c : c & (len == 4 ? 7 : len == 3 ? 0xF : 0x1F);
  for (int k = 1; k < len && *i + k < n; k++)
    cp = (cp << 6) | (p[*i + k] & 0x3F);
  *i += len;
  return (int)cp;
}

static int enc_utf8(char *o, unsigned cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xC0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (cp >> 18));
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

jv jq_explode(jqs *J, jv s) {
  jv r = jv_arr(J, s.u.s->len + 1);
  size_t i = 0;
  while (i < s.u.s->len && jv_ok(r))
    r = jv_apush(J, r, jv_num(dec_utf8(s.u.s->p, s.u.s->len, &i)));
  jv_free(J, s);
  return r;
}

jv jq_implode(jqs *J, jv a) {
  buf b;
  buf_init(&b, J->m);
  for (uint32_t i = 0; i < a.u.a->len; i++) {
    jv x = a.u.a->v[i];
    if (x.k != JV_NUMBER || isnan(x.u.n)) {
      char t[40];
      jd_trunc(J, x, t, sizeof t);
      jv_err_str(
          J, "%s (%s) can't be imploded, unicode codepoint needs to be numeric",
          jv_kind_name(x.k), t);
      buf_free(&b);
      jv_free(J, a);
      return jv_invalid();
    }
    double d = x.u.n;
    unsigned cp = d < 0 || d > 0x10FFFF || (d >= 0xD800 && d < 0xE000)
                      ? 0xFFFD
                      : (unsigned)d;
    char u[4];
    buf_append(&b, u, (size_t)enc_utf8(u, cp));
  }
  jv r = b.oom ? jv_invalid() : jv_str(J, b.data ? b.data : "", b.len);
  buf_free(&b);
  jv_free(J, a);
  return r;
}

jv jq_split_str(jqs *J, jv s, jv sep) {
  jv r = jv_arr(J, 0);
  const char *p = s.u.s->p;
  size_t n = s.u.s->len, m = sep.u.s->len;
  if (n == 0) {
  } else if (m == 0) {
    size_t i = 0;
    while (i < n && jv_ok(r)) {
      size_t st = i;
      dec_utf8(p, n, &i);
      r = jv_apush(J, r, jv_str(J, p + st, i - st));
    }
  } else {
    size_t st = 0;
    for (size_t i = 0; i + m <= n && jv_ok(r);) {
      if (!memcmp(p + i, sep.u.s->p, m)) {
        r = jv_apush(J, r, jv_str(J, p + st, i - st));
        i += m;
        st = i;
      } else
        i++;
    }
    if (jv_ok(r))
      r = jv_apush(J, r, jv_str(J, p + st, n - st));
  }
  jv_free(J, s);
  jv_free(J, sep);
  return r;
}

/* ---- formats ----------------------------------------------------------- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static jv fmt_err(jqs *J, jv v, const char *what) {
  char t[40];
  jd_trunc(J, v, t, sizeof t);
  jv_err_str(J, "%s (%s) %s", jv_kind_name(v.k), t, what);
  jv_free(J, v);
  return jv_invalid();
}

static jv finish(jqs *J, buf *b) {
  jv r = b->oom ? jv_invalid() : jv_str(J, b->data ? b->data : "", b->len);
  buf_free(b);
  return r;
}

jv jq_format(jqs *J, const char *fmt, jv v) {
  buf b;
  buf_init(&b, J->m);
  if (!strcmp(fmt, "text")) {
    jv r = jv_tostring(J, v);
    jv_free(J, v);
    return r;
  }
  if (!strcmp(fmt, "json")) {
    jv r = jv_tojson(J, v);
    jv_free(J, v);
    return r;
  }
  if (!strcmp(fmt, "csv") || !strcmp(fmt, "tsv")) {
    int csv = fmt[0] == 'c';
    if (v.k != JV_ARRAY) {
      buf_free(&b);
      return fmt_err(J, v,
                     csv ? "cannot be csv-formatted, only an array can be"
                         : "cannot be tsv-formatted, only an array can be");
    }
    for (uint32_t i = 0; i < v.u.a->len; i++) {
      jv x = v.u.a->v[i];
      if (i)
        buf_putc(&b, csv ? ',' : '\t');
      char nb[40];
      switch (x.k) {
      case JV_NULL:
        break;
      case JV_TRUE:
        buf_puts(&b, "true");
        break;
      case JV_FALSE:
        buf_puts(&b, "false");
        break;
      case JV_NUMBER:
        buf_puts(&b, jd_numtext(J, x, nb));
        break;
      case JV_STRING:
        if (csv) {
          buf_putc(&b, '"');
          for (uint32_t k = 0; k < x.u.s->len; k++) {
            if (x.u.s->p[k] == '"')
              buf_putc(&b, '"');
            buf_putc(&b, x.u.s->p[k]);
          }
          buf_putc(&b, '"');
        } else {
          for (uint32_t k = 0; k < x.u.s->len; k++) {
            char c = x.u.s->p[k];
            if (c == '\\')
              buf_puts(&b, "\\\\");
            else if (c == '\t')
              buf_puts(&b, "\\t");
            else if (c == '\n')
              buf_puts(&b, "\\n");
            else if (c == '\r')
              buf_puts(&b, "\\r");
            else
              buf_putc(&b, c);
          }
        }
        break;
      default: {
        buf_free(&b);
        jv xx = jv_copy(x);
        jv_free(J, v);
        return fmt_err(J, xx,
                       csv ? "is not valid in a csv row"
                           : "is not valid in a tsv row");
      }
      }
    }
    jv_free(J, v);
    return finish(J, &b);
  }
  if (!strcmp(fmt, "sh")) {
    jv items = v.k == JV_ARRAY ? jv_copy(v) : jv_invalid();
    uint32_t n = v.k == JV_ARRAY ? v.u.a->len : 1;
    for (uint32_t i = 0; i < n; i++) {
      jv x = v.k == JV_ARRAY ? v.u.a->v[i] : v;
      if (i)
        buf_putc(&b, ' ');
      char nb[40];
      switch (x.k) {
      case JV_NULL:
        buf_puts(&b, "null");
        break;
      case JV_TRUE:
        buf_puts(&b, "true");
        break;
      case JV_FALSE:
        buf_puts(&b, "false");
        break;
      case JV_NUMBER:
        buf_puts(&b, jd_numtext(J, x, nb));
        break;
      case JV_STRING:
        buf_putc(&b, '\'');
        for (uint32_t k = 0; k < x.u.s->len; k++) {
          if (x.u.s->p[k] == '\'')
            buf_puts(&b, "'\\''");
          else
            buf_putc(&b, x.u.s->p[k]);
        }
        buf_putc(&b, '\'');
        break;
      default: {
        buf_free(&b);
        jv xx = jv_copy(x);
        jv_free(J, items);
        jv_free(J, v);
        return fmt_err(J, xx, "can not be escaped for shell");
      }
      }
    }
    jv_free(J, items);
    jv_free(J, v);
    return finish(J, &b);
  }
  /* the rest work on the text of the value */
  jv s = jv_tostring(J, v);
  jv_free(J, v);
  if (!jv_ok(s)) {
    buf_free(&b);
    return s;
  }
  const unsigned char *p = (const unsigned char *)s.u.s->p;
  size_t n = s.u.s->len;
  if (!strcmp(fmt, "html")) {
    for (size_t i = 0; i < n; i++) {
      switch (p[i]) {
      case '<':
        buf_puts(&b, "&lt;");
        break;
      case '>':
        buf_puts(&b, "&gt;");
        break;
      case '&':
        buf_puts(&b, "&amp;");
        break;
      case '\'':
        buf_puts(&b, "&apos;");
        break;
      case '"':
        buf_puts(&b, "&quot;");
        break;
      default:
        buf_putc(&b, p[i]);
      }
    }
  } else if (!strcmp(fmt, "uri")) {
    for (size_t i = 0; i < n; i++) {
      unsigned char c = p[i];
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
          (c >= '0' && c <= '9') || strchr("-_.~", c))
        buf_putc(&b, c);
      else
        buf_printf(&b, "%%%02X", c);
    }
  } else if (!strcmp(fmt, "urid")) {
    for (size_t i = 0; i < n; i++) {
      if (p[i] == '%') {
        int h1 = i + 2 < n + 0 && i + 1 < n ? p[i + 1] : -1;
        int h2 = i + 2 < n ? p[i + 2] : -1;
        int v1 = h1 >= '0' && h1 <= '9'   ? h1 - '0'
                 : h1 >= 'a' && h1 <= 'f' ? h1 - 'a' + 10
                 : h1 >= 'A' && h1 <= 'F' ? h1 - 'A' + 10
                                          : -1;
        int v2 = h2 >= '0' && h2 <= '9'   ? h2 - '0'
                 : h2 >= 'a' && h2 <= 'f' ? h2 - 'a' + 10
                 : h2 >= 'A' && h2 <= 'F' ? h2 - 'A' + 10
                                          : -1;
        if (v1 < 0 || v2 < 0) {
          buf_free(&b);
          return fmt_err(J, s, "is not a valid uri encoding");
        }
        buf_putc(&b, (char)(v1 * 16 + v2));
        i += 2;
      } else
        buf_putc(&b, p[i]);
    }
    /* the result must be valid UTF-8 */
    size_t i = 0;
    while (i < b.len) {
      unsigned char c0 = (unsigned char)b.data[i];
      int len = c0 < 0x80                 ? 1
                : c0 >= 0xF0 && c0 < 0xF5 ? 4
                : c0 >= 0xE0              ? 3
                : c0 >= 0xC2 && c0 < 0xE0 ? 2
                                          : 0;
      int ok = len && i + len <= b.len;
      for (int k = 1; ok && k < len; k++)
        if (((unsigned char)b.data[i + k] & 0xC0) != 0x80)
          ok = 0;
      if (!ok) {
        buf_free(&b);
        return fmt_err(J, s, "is not a valid uri encoding");
      }
      i += len;
    }
  } else if (!strcmp(fmt, "base64")) {
    for (size_t i = 0; i < n; i += 3) {
      unsigned x = (unsigned)p[i] << 16;
      if (i + 1 < n)
        x |= (unsigned)p[i + 1] << 8;
      if (i + 2 < n)
        x |= p[i + 2];
      buf_putc(&b, b64[(x >> 18) & 63]);
      buf_putc(&b, b64[(x >> 12) & 63]);
      buf_putc(&b, i + 1 < n ? b64[(x >> 6) & 63] : '=');
      buf_putc(&b, i + 2 < n ? b64[x & 63] : '=');
    }
  } else if (!strcmp(fmt, "base64d")) {
    unsigned acc = 0;
    int bits = 0;
    size_t valid = 0;
    for (size_t i = 0; i < n; i++) {
      const char *q = p[i] ? strchr(b64, p[i]) : NULL;
      if (p[i] == '=')
        break;
      if (!q) {
        buf_free(&b);
        jv r = fmt_err(J, s, "is not valid base64 data");
        return r;
      }
      valid++;
      acc = (acc << 6) | (unsigned)(q - b64);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        buf_putc(&b, (char)((acc >> bits) & 0xFF));
      }
    }
    if (valid % 4 == 1) {
      buf_free(&b);
      return fmt_err(J, s, "trailing base64 byte found");
    }
    jv_free(J, s);
    /* decoded bytes may not be UTF-8: let the string parser fix them */
    char msg[8];
    (void)msg;
    jv r;
    {
      buf q;
      buf_init(&q, J->m);
      buf_putc(&q, '"');
      for (size_t i = 0; i < b.len; i++) {
        unsigned char c = (unsigned char)b.data[i];
        if (c == '"' || c == '\\')
          buf_printf(&q, "\\%c", c);
        else if (c < 0x20)
          buf_printf(&q, "\\u%04x", c);
        else
          buf_putc(&q, (char)c);
      }
      buf_putc(&q, '"');
      char m2[100];
      r = q.oom ? jv_invalid() : jp_parse_one(J, q.data, q.len, m2, sizeof m2);
      buf_free(&q);
    }
    buf_free(&b);
    return r;
  } else if (!strcmp(fmt, "base32")) {
    static const char b32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    for (size_t i = 0; i < n; i += 5) {
      unsigned char blk[5] = {0};
      size_t k = n - i < 5 ? n - i : 5;
      memcpy(blk, p + i, k);
      uint64_t x = 0;
      for (int j = 0; j < 5; j++)
        x = (x << 8) | blk[j];
      int out = (int)((k * 8 + 4) / 5);
      for (int j = 0; j < 8; j++)
        buf_putc(&b, j < out ? b32[(x >> (35 - 5 * j)) & 31] : '=');
    }
  } else if (!strcmp(fmt, "base32d")) {
    unsigned long long acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
      int c = p[i], v2;
      if (c == '=')
        break;
      if (c >= 'A' && c <= 'Z')
        v2 = c - 'A';
      else if (c >= '2' && c <= '7')
        v2 = c - '2' + 26;
      else if (c >= 'a' && c <= 'z')
        v2 = c - 'a';
      else
        continue;
      acc = (acc << 5) | (unsigned)v2;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        buf_putc(&b, (char)((acc >> bits) & 0xFF));
      }
    }
  } else {
    buf_free(&b);
    jv_free(J, s);
    return jv_err_str(J, "%s is not a valid format", fmt);
  }
  jv_free(J, s);
  return finish(J, &b);
}

static int is_uspace(int cp) {
  return (cp >= 9 && cp <= 13) || cp == 32 || cp == 0x85 || cp == 0xA0 ||
         cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

jv jq_trim(jqs *J, jv in, int l, int r) {
  const char *p = in.u.s->p;
  size_t n = in.u.s->len, st = 0, e = n;
  if (l)
    while (st < n) {
      size_t i = st;
      if (!is_uspace(dec_utf8(p, n, &i)))
        break;
      st = i;
    }
  if (r)
    while (e > st) {
      size_t b = e - 1;
      while (b > st && ((unsigned char)p[b] & 0xC0) == 0x80)
        b--;
      size_t i = b;
      if (!is_uspace(dec_utf8(p, n, &i)))
        break;
      e = b;
    }
  jv out = jv_str(J, p + st, e - st);
  jv_free(J, in);
  return out;
}

/* ---- regexes ----------------------------------------------------------- */

typedef struct rxc {
  rx r;
  char *pat;
  size_t patn;
  uint32_t opts;
  int ok;
} rxc;

static rx *get_rx(jqs *J, jv re, uint32_t opts) {
  rxc *c = J->rxcache;
  if (c && c->ok && c->opts == opts && c->patn == re.u.s->len &&
      !memcmp(c->pat, re.u.s->p, c->patn))
    return &c->r;
  if (!J->rxe_ok) {
    if (rx_env_init(&J->rxe, J->m, 1024 * 1024)) {
      jv_err_str(J, "Out of memory");
      return NULL;
    }
    J->rxe.bud = J->bud;
    J->rxe_ok = 1;
  }
  if (!c) {
    c = mem_calloc(J->m, 1, sizeof *c);
    if (!c) {
      jv_err_str(J, "Out of memory");
      return NULL;
    }
    J->rxcache = c;
  }
  if (c->ok) {
    rx_free(&c->r);
    c->ok = 0;
  }
  mem_free(J->m, c->pat);
  c->pat = mem_memdup(J->m, re.u.s->p, re.u.s->len + 1);
  c->patn = re.u.s->len;
  c->opts = opts;
  int ec;
  size_t eo;
  if (rx_compile(&J->rxe, &c->r, re.u.s->p, re.u.s->len,
                 opts | PCRE2_UTF | PCRE2_UCP, RX_CAPS, NULL, &ec, &eo)) {
    PCRE2_UCHAR m[200];
    pcre2_get_error_message(ec, m, sizeof m);
    jv_err_str(J, "%s (at offset %zu) is not a valid regex: %s", re.u.s->p, eo,
               (char *)m);
    return NULL;
  }
  c->ok = 1;
  return &c->r;
}

void jq_rx_free(jqs *J) {
  rxc *c = J->rxcache;
  if (c) {
    if (c->ok)
      rx_free(&c->r);
    mem_free(J->m, c->pat);
    mem_free(J->m, c);
    J->rxcache = NULL;
  }
  if (J->rxe_ok)
    rx_env_free(&J->rxe);
  J->rxe_ok = 0;
}

static int cp_index(const char *s, size_t off) {
  return jq_utf8_len(s, off);
}

/* _match_impl(re; flags; test) */
jv jq_f_match(jqs *J, jv in, jv *a) {
  jv re = a[0], flags = a[1], test = a[2];
  if (in.k != JV_STRING) {
    jv r = fmt_err(J, in, "cannot be matched, as it is not a string");
    return r;
  }
  if (re.k != JV_STRING) {
    jv_free(J, in);
    return fmt_err(J, jv_copy(re), "cannot be matched, as it is not a string");
  }
  uint32_t opts = 0;
  int global = 0, noempty = 0;
  if (flags.k == JV_STRING) {
    for (uint32_t i = 0; i < flags.u.s->len; i++) {
      switch (flags.u.s->p[i]) {
      case 'g':
        global = 1;
        break;
      case 'i':
        opts |= PCRE2_CASELESS;
        break;
      case 'x':
        opts |= PCRE2_EXTENDED;
        break;
      case 'n':
        noempty = 1;
        break;
      case 's':
        opts |= PCRE2_DOTALL;
        break;
      case 'p':
        opts |= PCRE2_DOTALL | PCRE2_MULTILINE;
        break;
      case 'l':
        break;
      default:
        jv_free(J, in);
        return jv_err_str(J, "%s is not a valid modifier string", flags.u.s->p);
      }
    }
  } else if (flags.k != JV_NULL) {
    jv_free(J, in);
    return fmt_err(J, jv_copy(flags), "is not a string");
  }
  rx *r = get_rx(J, re, opts);
  if (!r) {
    jv_free(J, in);
    return jv_invalid();
  }
  const char *s = in.u.s->p;
  size_t n = in.u.s->len;
  int testmode = jv_truthy(test);
  jv out = testmode ? jv_invalid() : jv_arr(J, 0);
  size_t from = 0;
  /* group names */
  uint32_t namecount = 0, entsize = 0;
  PCRE2_SPTR table = NULL;
  pcre2_pattern_info(r->re, PCRE2_INFO_NAMECOUNT, &namecount);
  pcre2_pattern_info(r->re, PCRE2_INFO_NAMEENTRYSIZE, &entsize);
  pcre2_pattern_info(r->re, PCRE2_INFO_NAMETABLE, &table);
  while (from <= n) {
    if (budget_poll(J->bud)) {
      jv_free(J, out);
      jv_free(J, in);
      return jv_err_str(J, "Interrupted");
    }
    size_t ms, me;
    int rc = rx_search(r, s, n, from, 0, RX_GROUPS, &ms, &me);
    if (rc < 0) {
      char m[120];
      rx_strerror(rc, m, sizeof m);
      jv_free(J, out);
      jv_free(J, in);
      return jv_err_str(J, "%s", m);
    }
    if (rc == 0)
      break;
    if (noempty && ms == me) {
      if (me >= n)
        break;
      size_t i = me;
      dec_utf8(s, n, &i);
      from = i;
      continue;
    }
    if (testmode) {
      jv_free(J, in);
      return jv_bool(1);
    }
    uint32_t count;
    PCRE2_SIZE *ov = rx_ovector(r, &count);
    jv m = jv_obj(J);
    m = jv_oset(J, m, jv_cstr(J, "offset"), jv_num(cp_index(s, ms)));
    m = jv_oset(J, m, jv_cstr(J, "length"),
                jv_num(jq_utf8_len(s + ms, me - ms)));
    m = jv_oset(J, m, jv_cstr(J, "string"), jv_str(J, s + ms, me - ms));
    jv caps = jv_arr(J, 0);
    for (uint32_t g = 1; g < r->ncap + 1 && jv_ok(caps); g++) {
      jv c = jv_obj(J);
      const char *name = NULL;
      for (uint32_t k = 0; k < namecount; k++) {
        PCRE2_SPTR e = table + k * entsize;
        if ((((uint32_t)e[0] << 8) | e[1]) == g)
          name = (const char *)e + 2;
      }
      if (g < count && ov[2 * g] != PCRE2_UNSET) {
        size_t cs = ov[2 * g], ce = ov[2 * g + 1];
        c = jv_oset(J, c, jv_cstr(J, "offset"), jv_num(cp_index(s, cs)));
        c = jv_oset(J, c, jv_cstr(J, "length"),
                    jv_num(jq_utf8_len(s + cs, ce - cs)));
        c = jv_oset(J, c, jv_cstr(J, "string"), jv_str(J, s + cs, ce - cs));
      } else {
        c = jv_oset(J, c, jv_cstr(J, "offset"), jv_num(-1));
        c = jv_oset(J, c, jv_cstr(J, "length"), jv_num(0));
        c = jv_oset(J, c, jv_cstr(J, "string"), jv_null());
      }
      c = jv_oset(J, c, jv_cstr(J, "name"),
                  name ? jv_cstr(J, name) : jv_null());
      caps = jv_apush(J, caps, c);
    }
    m = jv_oset(J, m, jv_cstr(J, "captures"), caps);
    out = jv_apush(J, out, m);
    if (!jv_ok(out)) {
      jv_free(J, in);
      return jv_err_str(J, "Out of memory");
    }
    if (!global)
      break;
    if (me == ms) {
      if (me >= n)
        break;
      size_t i = me;
      dec_utf8(s, n, &i);
      from = i;
    } else
      from = me;
  }
  jv_free(J, in);
  if (testmode)
    return jv_bool(0);
  return out;
}

/* ---- dates ------------------------------------------------------------- */

static int tm_from(jqs *J, jv in, struct tm *tm, double *frac) {
  if (in.k != JV_ARRAY) {
    jv_err_str(J, "mktime requires array of 6 numbers");
    return -1;
  }
  double f[8] = {0};
  for (uint32_t i = 0; i < in.u.a->len && i < 8; i++) {
    if (in.u.a->v[i].k != JV_NUMBER) {
      jv_err_str(J, "mktime requires parsed datetime inputs");
      return -1;
    }
    f[i] = in.u.a->v[i].u.n;
  }
  if (in.u.a->len < 1) {
    jv_err_str(J, "mktime requires array of 6 numbers");
    return -1;
  }
  memset(tm, 0, sizeof *tm);
  tm->tm_year = (int)f[0] - 1900;
  tm->tm_mon = (int)f[1];
  tm->tm_mday = (int)f[2];
  tm->tm_hour = (int)f[3];
  tm->tm_min = (int)f[4];
  tm->tm_sec = (int)f[5];
  tm->tm_wday = (int)f[6];
  tm->tm_yday = (int)f[7];
  if (frac)
    *frac = f[5] - floor(f[5]);
  return 0;
}

static jv tm_to(jqs *J, const struct tm *tm, double sec) {
  jv r = jv_arr(J, 8);
  r = jv_apush(J, r, jv_num(tm->tm_year + 1900.0));
  r = jv_apush(J, r, jv_num(tm->tm_mon));
  r = jv_apush(J, r, jv_num(tm->tm_mday));
  r = jv_apush(J, r, jv_num(tm->tm_hour));
  r = jv_apush(J, r, jv_num(tm->tm_min));
  r = jv_apush(J, r, jv_num(sec));
  r = jv_apush(J, r, jv_num(tm->tm_wday));
  r = jv_apush(J, r, jv_num(tm->tm_yday));
  return r;
}

jv jq_f_mktime(jqs *J, jv in, jv *a) {
  (void)a;
  if (in.k != JV_ARRAY) {
    jv_free(J, in);
    return jv_err_str(J, "mktime requires array of 6 numbers");
  }
  struct tm tm;
  int rc = tm_from(J, in, &tm, NULL);
  jv_free(J, in);
  if (rc)
    return jv_invalid();
  time_t t = timegm(&tm);
  return jv_num((double)t);
}

jv jq_f_gmtime(jqs *J, jv in, jv *a) {
  (void)a;
  if (in.k != JV_NUMBER) {
    jv_free(J, in);
    return jv_err_str(J, "gmtime() requires a number");
  }
  double d = in.u.n;
  time_t t = (time_t)floor(d);
  struct tm tm;
  if (!gmtime_r(&t, &tm))
    return jv_err_str(
        J, "error converting number of seconds since epoch to datetime");
  return tm_to(J, &tm, tm.tm_sec + (d - floor(d)));
}

jv jq_f_localtime(jqs *J, jv in, jv *a) {
  (void)a;
  if (in.k != JV_NUMBER) {
    jv_free(J, in);
    return jv_err_str(J, "localtime() requires a number");
  }
  double d = in.u.n;
  if (!(fabs(d) < 1e15))
    return jv_err_str(J, "localtime() requires a number");
  const tz_zone *z = bi_tz_open(J->c);
  tz_tm t;
  tz_localtime(z, (int64_t)floor(d), 0, &t);
  tz_close(z);
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  tm.tm_year = (int)(t.year - 1900);
  tm.tm_mon = t.mon - 1;
  tm.tm_mday = t.mday;
  tm.tm_hour = t.hour;
  tm.tm_min = t.min;
  tm.tm_wday = t.wday;
  tm.tm_yday = t.yday;
  return tm_to(J, &tm, t.sec + (d - floor(d)));
}

static jv strftime_(jqs *J, jv in, jv *a, const char *name, int local) {
  if (in.k == JV_NUMBER) {
    jv t = local ? jq_f_localtime(J, in, NULL) : jq_f_gmtime(J, in, NULL);
    if (!jv_ok(t))
      return t;
    in = t;
  }
  if (in.k != JV_ARRAY) {
    jv_free(J, in);
    return jv_err_str(J, "%s/1 requires parsed datetime inputs", name);
  }
  if (a[0].k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "%s/1 requires a string format", name);
  }
  struct tm tm;
  int rc = tm_from(J, in, &tm, NULL);
  jv_free(J, in);
  if (rc)
    return jv_err_str(J, "%s/1 requires parsed datetime inputs", name);
  tz_tm t;
  memset(&t, 0, sizeof t);
  int64_t days =
      tz_days_from_civil(tm.tm_year + 1900LL, tm.tm_mon + 1LL, tm.tm_mday);
  int64_t epoch =
      days * 86400 + tm.tm_hour * 3600LL + tm.tm_min * 60LL + tm.tm_sec;
  if (local) {
    /* the wall clock of the array, read in the script's zone */
    const tz_zone *z = bi_tz_open(J->c);
    int64_t at;
    if (tz_mktime(z, tm.tm_year + 1900LL, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                  tm.tm_min, tm.tm_sec, -1, &at) == 0)
      tz_localtime(z, at, 0, &t);
    else
      tz_civil(epoch, 0, &t);
    tz_close(z);
  } else
    tz_civil(epoch, 0, &t);
  /* the fields as given (jq does not normalize them) */
  t.year = tm.tm_year + 1900LL;
  t.mon = tm.tm_mon + 1;
  t.mday = tm.tm_mday;
  t.hour = tm.tm_hour;
  t.min = tm.tm_min;
  t.sec = tm.tm_sec;
  t.wday = tm.tm_wday;
  t.yday = tm.tm_yday;
  buf o;
  buf_init(&o, J->m);
  tz_format(&o, a[0].u.s->p, &t, 0);
  jv r = o.oom ? jv_invalid() : jv_str(J, o.data ? o.data : "", o.len);
  buf_free(&o);
  return r;
}

jv jq_f_strftime(jqs *J, jv in, jv *a) {
  return strftime_(J, in, a, "strftime", 0);
}

jv jq_f_strflocaltime(jqs *J, jv in, jv *a) {
  return strftime_(J, in, a, "strflocaltime", 1);
}

jv jq_f_strptime(jqs *J, jv in, jv *a) {
  if (in.k != JV_STRING || a[0].k != JV_STRING) {
    jv r = fmt_err(J, in, "cannot be parsed as a date");
    if (in.k == JV_STRING)
      return r;
    jv_err_str(J, "strptime/1 requires string inputs and arguments");
    return r;
  }
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  const char *e = strptime(in.u.s->p, a[0].u.s->p, &tm);
  if (!e || *e) {
    jv_err_str(J, "date \"%s\" does not match format \"%s\"", in.u.s->p,
               a[0].u.s->p);
    jv_free(J, in);
    return jv_invalid();
  }
  jv_free(J, in);
  /* fill in wday and yday */
  time_t t = timegm(&tm);
  struct tm t2;
  gmtime_r(&t, &t2);
  tm.tm_wday = t2.tm_wday;
  tm.tm_yday = t2.tm_yday;
  return tm_to(J, &tm, tm.tm_sec);
}
