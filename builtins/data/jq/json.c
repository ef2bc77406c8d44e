/*
 * json.c - JSON text to values and back, with jq's messages and formats.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

#define MAX_PARSE_DEPTH 10000

typedef struct pst {
  jqs *J;
  const char *s, *p, *end;
  int depth;
  char *msg;
  size_t msglen;
  int err;
} pst;

static int is_ws(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x1e;
}
static int is_delim(int c) {
  return is_ws(c) || c == '[' || c == ']' || c == '{' || c == '}' || c == ',' ||
         c == ':' || c == '"';
}

static void pos_of(const char *s, const char *p, int *line, int *col) {
  int l = 1, c = 0;
  for (const char *q = s; q < p; q++) {
    if (*q == '\n') {
      l++;
      c = 0;
    } else
      c++;
  }
  *line = l;
  *col = c;
}

/* where: position just after the offending character */
static int perr(pst *P, const char *where, const char *what) {
  if (P->err)
    return -1;
  P->err = 1;
  int line, col;
  if (where > P->end)
    where = P->end;
  pos_of(P->s, where, &line, &col);
  snprintf(P->msg, P->msglen, "%s at line %d, column %d", what, line, col);
  return -1;
}

static int perr_eof(pst *P, const char *what) {
  if (P->err)
    return -1;
  P->err = 1;
  int line, col;
  pos_of(P->s, P->end, &line, &col);
  snprintf(P->msg, P->msglen, "%s at EOF at line %d, column %d", what, line,
           col);
  return -1;
}

static void skip_ws(pst *P) {
  for (;;) {
    while (P->p < P->end && is_ws((unsigned char)*P->p))
      P->p++;
    /* a byte order mark is skipped like a blank */
    if (P->end - P->p >= 3 && (unsigned char)P->p[0] == 0xEF &&
        (unsigned char)P->p[1] == 0xBB && (unsigned char)P->p[2] == 0xBF) {
      P->p += 3;
      continue;
    }
    break;
  }
}

static int put_utf8(char *o, unsigned cp) {
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

static int hexv(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Replace invalid UTF-8 by U+FFFD, as jq does. */
static jv make_str(jqs *J, const char *p, size_t n) {
  size_t i = 0;
  int bad = 0;
  while (i < n) {
    unsigned char c = (unsigned char)p[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    int len = c >= 0xF0 && c < 0xF5   ? 4
              : c >= 0xE0             ? 3
              : c >= 0xC2 && c < 0xE0 ? 2
                                      : 0;
    if (c >= 0xF5)
      len = 0;
    if (!len || i + len > n) {
      bad = 1;
      break;
    }
    int ok = 1;
    for (int k = 1; k < len; k++)
      if (((unsigned char)p[i + k] & 0xC0) != 0x80)
        ok = 0;
    if (ok && len == 3) {
      unsigned cp =
          ((c & 0xF) << 12) | ((p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3F);
      if (cp < 0x800 || (cp >= 0xD800 && cp < 0xE000))
        ok = 0;
    }
    if (ok && len == 4) {
      unsigned cp = ((c & 7) << 18) | ((p[i + 1] & 0x3F) << 12) |
                    ((p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
      if (cp < 0x10000 || cp > 0x10FFFF)
        ok = 0;
    }
    if (!ok) {
      bad = 1;
      break;
    }
    i += len;
  }
  if (!bad)
    return jv_str(J, p, n);
  buf b;
  buf_init(&b, J->m);
  i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)p[i];
    if (c < 0x80) {
      buf_putc(&b, (char)c);
      i++;
      continue;
    }
    int len = c >= 0xF0 && c < 0xF5   ? 4
              : c >= 0xE0 && c < 0xF0 ? 3
              : c >= 0xC2 && c < 0xE0 ? 2
                                      : 0;
    int ok = len && i + len <= n;
    for (int k = 1; ok && k < len; k++)
      if (((unsigned char)p[i + k] & 0xC0) != 0x80)
        ok = 0;
    if (ok && len == 3) {
      unsigned cp =
          ((c & 0xF) << 12) | ((p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3F);
      if (cp < 0x800 || (cp >= 0xD800 && cp < 0xE000))
        ok = 0;
    }
    if (ok && len == 4) {
      unsigned cp = ((c & 7) << 18) | ((p[i + 1] & 0x3F) << 12) |
                    ((p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
      if (cp < 0x10000 || cp > 0x10FFFF)
        ok = 0;
    }
    if (ok) {
      buf_append(&b, p + i, (size_t)len);
      i += len;
    } else {
      buf_append(&b, "\xEF\xBF\xBD", 3);
      i++;
      /* skip the continuation bytes of this broken sequence */
      while (i < n && ((unsigned char)p[i] & 0xC0) == 0x80 && len-- > 1)
        i++;
    }
  }
  jv r = b.oom ? jv_invalid() : jv_str(J, b.data ? b.data : "", b.len);
  buf_free(&b);
  return r;
}

static int parse_string(pst *P, jv *out) {
  const char *q = ++P->p; /* after the quote */
  while (q < P->end && *q != '"' && *q != '\\')
    q++;
  if (q < P->end && *q == '"') {
    *out = make_str(P->J, P->p, (size_t)(q - P->p));
    P->p = q + 1;
    return jv_ok(*out) ? 0 : perr(P, q, "Out of memory");
  }
  buf b;
  buf_init(&b, P->J->m);
  buf_append(&b, P->p, (size_t)(q - P->p));
  P->p = q;
  while (P->p < P->end && *P->p != '"') {
    if (*P->p != '\\') {
      const char *r = P->p;
      while (r < P->end && *r != '"' && *r != '\\')
        r++;
      buf_append(&b, P->p, (size_t)(r - P->p));
      P->p = r;
      continue;
    }
    if (P->p + 1 >= P->end) {
      P->p = P->end;
      break;
    }
    char e = P->p[1];
    P->p += 2;
    char ch;
    switch (e) {
    case '"':
      ch = '"';
      break;
    case '\\':
      ch = '\\';
      break;
    case '/':
      ch = '/';
      break;
    case 'b':
      ch = '\b';
      break;
    case 'f':
      ch = '\f';
      break;
    case 'n':
      ch = '\n';
      break;
    case 'r':
      ch = '\r';
      break;
    case 't':
      ch = '\t';
      break;
    case 'u': {
      unsigned cp = 0;
      for (int k = 0; k < 4; k++) {
        int h = P->p + k < P->end ? hexv((unsigned char)P->p[k]) : -1;
        if (h < 0) {
          buf_free(&b);
          /* jq reports at the string's end */
          const char *r = P->p;
          while (r < P->end && *r != '"')
            r++;
          return perr(P, r + 1, "Invalid escape");
        }
        cp = cp * 16 + (unsigned)h;
      }
      P->p += 4;
      if (cp >= 0xD800 && cp < 0xDC00) {
        unsigned lo = 0;
        int ok = P->end - P->p >= 6 && P->p[0] == '\\' && P->p[1] == 'u';
        for (int k = 0; ok && k < 4; k++) {
          int h = hexv((unsigned char)P->p[2 + k]);
          if (h < 0)
            ok = 0;
          else
            lo = lo * 16 + (unsigned)h;
        }
        if (ok && lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          P->p += 6;
        } else
          cp = 0xFFFD;
      } else if (cp >= 0xDC00 && cp < 0xE000)
        cp = 0xFFFD;
      char u[4];
      buf_append(&b, u, (size_t)put_utf8(u, cp));
      continue;
    }
    default: {
      buf_free(&b);
      const char *r = P->p;
      while (r < P->end && *r != '"')
        r++;
      return perr(P, r + 1, "Invalid escape");
    }
    }
    buf_putc(&b, ch);
  }
  if (P->p >= P->end) {
    buf_free(&b);
    return perr_eof(P, "Unfinished string");
  }
  P->p++;
  if (b.oom) {
    buf_free(&b);
    return perr(P, P->p, "Out of memory");
  }
  *out = make_str(P->J, b.data ? b.data : "", b.len);
  buf_free(&b);
  return jv_ok(*out) ? 0 : perr(P, P->p, "Out of memory");
}

static int parse_literal(pst *P, jv *out) {
  const char *a = P->p;
  while (P->p < P->end && !is_delim((unsigned char)*P->p))
    P->p++;
  size_t n = (size_t)(P->p - a);
  const char *where = P->p < P->end ? P->p + 1 : P->p;
  int at_eof = P->p >= P->end;
  if (n == 4 && !memcmp(a, "true", 4)) {
    *out = jv_bool(1);
    return 0;
  }
  if (n == 5 && !memcmp(a, "false", 5)) {
    *out = jv_bool(0);
    return 0;
  }
  if (n == 4 && !memcmp(a, "null", 4)) {
    *out = jv_null();
    return 0;
  }
  if (n == 8 && !memcmp(a, "Infinity", 8)) {
    *out = jv_num(1.7976931348623157e308);
    return 0;
  }
  if (n == 9 && !memcmp(a, "-Infinity", 9)) {
    *out = jv_num(-1.7976931348623157e308);
    return 0;
  }
  if ((n == 3 && !memcmp(a, "nan", 3)) || (n == 3 && !memcmp(a, "NaN", 3)) ||
      (n == 4 && !memcmp(a, "-NaN", 4)) || (n == 4 && !memcmp(a, "-nan", 4))) {
    *out = jv_num(NAN);
    return 0;
  }
  char tmp[128];
  int numeric = n > 0 && n < sizeof tmp;
  for (size_t i = 0; numeric && i < n; i++)
    if (!strchr("0123456789+-.eE", a[i]))
      numeric = 0;
  if (numeric) {
    memcpy(tmp, a, n);
    tmp[n] = 0;
    char *e;
    double d = strtod(tmp, &e);
    if (*e == 0 && tmp[0] != '+' && tmp[0] != '.' &&
        !(tmp[0] == '-' && (tmp[1] == '.' || tmp[1] == 0))) {
      if (isinf(d))
        d = d < 0 ? -1.7976931348623157e308 : 1.7976931348623157e308;
      *out = jv_num_lit(P->J, d, a, n);
      return 0;
    }
  }
  int alpha = 1;
  for (size_t i = 0; i < n; i++)
    if (!((a[i] >= 'a' && a[i] <= 'z') || (a[i] >= 'A' && a[i] <= 'Z')))
      alpha = 0;
  const char *what = alpha && n ? "Invalid literal" : "Invalid numeric literal";
  if (n && a[0] == '\'')
    what = "Invalid string literal; expected \", but got '";
  if (at_eof)
    return perr_eof(P, what);
  return perr(P, where, what);
}

static int parse_value(pst *P, jv *out);

static int budget_tick(pst *P) {
  return budget_poll(P->J->bud) ? -1 : 0;
}

static int parse_value(pst *P, jv *out) {
  skip_ws(P);
  if (P->p >= P->end)
    return perr_eof(P, "Unfinished JSON term");
  char c = *P->p;
  if (c == '"')
    return parse_string(P, out);
  if (c == '[' || c == '{') {
    if (++P->depth > MAX_PARSE_DEPTH || stack_left() < 64 * 1024)
      return perr(P, P->p + 1, "Exceeds depth limit for parsing");
    if (budget_tick(P))
      return perr(P, P->p, "Interrupted");
    P->p++;
    if (c == '[') {
      jv a = jv_arr(P->J, 0);
      if (!jv_ok(a))
        return perr(P, P->p, "Out of memory");
      skip_ws(P);
      if (P->p < P->end && *P->p == ']') {
        P->p++;
        P->depth--;
        *out = a;
        return 0;
      }
      for (;;) {
        jv x;
        skip_ws(P);
        if (P->p < P->end && (*P->p == ']' || *P->p == ','))
          goto bad_arr;
        if (parse_value(P, &x)) {
          jv_free(P->J, a);
          return -1;
        }
        a = jv_apush(P->J, a, x);
        if (!jv_ok(a))
          return perr(P, P->p, "Out of memory");
        skip_ws(P);
        if (P->p >= P->end) {
          jv_free(P->J, a);
          return perr_eof(P, "Unfinished JSON term");
        }
        if (*P->p == ',') {
          P->p++;
          continue;
        }
        if (*P->p == ']') {
          P->p++;
          break;
        }
      bad_arr:
        jv_free(P->J, a);
        if (*P->p == '}')
          return perr(P, P->p + 1, "Unmatched '}'");
        if (*P->p == ',' || *P->p == ']')
          return perr(P, P->p + 1, "Expected value before ','");
        if (*P->p == ':')
          return perr(P, P->p + 1, "':' not as part of an object");
        return perr(P, P->p + 1, "Expected separator between values");
      }
      P->depth--;
      *out = a;
      return 0;
    }
    jv o = jv_obj(P->J);
    if (!jv_ok(o))
      return perr(P, P->p, "Out of memory");
    skip_ws(P);
    if (P->p < P->end && *P->p == '}') {
      P->p++;
      P->depth--;
      *out = o;
      return 0;
    }
    for (;;) {
      jv k, v;
      skip_ws(P);
      if (P->p >= P->end) {
        jv_free(P->J, o);
        return perr_eof(P, "Unfinished JSON term");
      }
      if (*P->p != '"') {
        jv_free(P->J, o);
        if (*P->p == '}' || *P->p == ',' || *P->p == ':')
          return perr(P, P->p + 1, "Objects must consist of key:value pairs");
        if (parse_value(P, &k) == 0) {
          jv_free(P->J, k);
          skip_ws(P);
          return perr(P, P->p + 1, "Object keys must be strings");
        }
        return -1;
      }
      if (parse_string(P, &k)) {
        jv_free(P->J, o);
        return -1;
      }
      skip_ws(P);
      if (P->p >= P->end) {
        jv_free(P->J, o);
        jv_free(P->J, k);
        return perr_eof(P, "Unfinished JSON term");
      }
      if (*P->p != ':') {
        jv_free(P->J, o);
        jv_free(P->J, k);
        if (*P->p == ',' || *P->p == '}')
          return perr(P, P->p + 1, "Objects must consist of key:value pairs");
        return perr(P, P->p + 1, "Expected separator between values");
      }
      P->p++;
      skip_ws(P);
      if (P->p < P->end && (*P->p == ',' || *P->p == '}')) {
        jv_free(P->J, o);
        jv_free(P->J, k);
        return perr(P, P->p + 1, "Objects must consist of key:value pairs");
      }
      if (parse_value(P, &v)) {
        jv_free(P->J, o);
        jv_free(P->J, k);
        return -1;
      }
      o = jv_oset(P->J, o, k, v);
      if (!jv_ok(o))
        return perr(P, P->p, "Out of memory");
      skip_ws(P);
      if (P->p >= P->end) {
        jv_free(P->J, o);
        return perr_eof(P, "Unfinished JSON term");
      }
      if (*P->p == ',') {
        P->p++;
        continue;
      }
      if (*P->p == '}') {
        P->p++;
        break;
      }
      jv_free(P->J, o);
      if (*P->p == ']')
        return perr(P, P->p + 1, "Unmatched ']'");
      return perr(P, P->p + 1, "Expected separator between values");
    }
    P->depth--;
    *out = o;
    return 0;
  }
  if (c == ']' || c == '}')
    return perr(P, P->p + 1, c == ']' ? "Unmatched ']'" : "Unmatched '}'");
  if (c == ',' || c == ':')
    return perr(P, P->p + 1,
                c == ',' ? "Expected value before ','"
                         : "':' not as part of an object");
  return parse_literal(P, out);
}

int jp_parse(jqs *J, const char *s, size_t n, size_t *pos, jv *out, char *msg,
             size_t msglen, int *line, int *col) {
  pst P = {J, s, s + *pos, s + n, 0, msg, msglen, 0};
  skip_ws(&P);
  if (P.p >= P.end) {
    *pos = n;
    return 0;
  }
  int rc = parse_value(&P, out);
  if (rc == 0 && P.p < P.end && !is_delim((unsigned char)*P.p) &&
      !is_delim((unsigned char)P.p[-1])) {
    /* "1 2" is two values, but "truex" is not */
    jv_free(J, *out);
    rc = perr(&P, P.p + 1, "Invalid literal");
  }
  if (rc == 0 && P.p < P.end && P.p[-1] != '"' && P.p[-1] != ']' &&
      P.p[-1] != '}' && *P.p == '"') {
    jv_free(J, *out);
    rc = perr(&P, P.p + 1, "Expected separator between values");
  }
  *pos = (size_t)(P.p - s);
  if (rc) {
    if (line)
      pos_of(s, P.p, line, col);
    return -1;
  }
  return 1;
}

jv jp_parse_one(jqs *J, const char *s, size_t n, char *msg, size_t msglen) {
  size_t pos = 0;
  jv v;
  int rc = jp_parse(J, s, n, &pos, &v, msg, msglen, NULL, NULL);
  if (rc == 0) {
    snprintf(msg, msglen, "Expected JSON value");
    return jv_invalid();
  }
  if (rc < 0)
    return jv_invalid();
  size_t p2 = pos;
  jv w;
  rc = jp_parse(J, s, n, &p2, &w, msg, msglen, NULL, NULL);
  if (rc == 1) {
    jv_free(J, w);
    jv_free(J, v);
    int line, col;
    pos_of(s, s + p2, &line, &col);
    snprintf(msg, msglen, "Unexpected extra JSON values (while parsing '%.*s')",
             (int)(n > 200 ? 200 : n), s);
    return jv_invalid();
  }
  if (rc < 0) {
    jv_free(J, v);
    return jv_invalid();
  }
  return v;
}

/* ---- printing ---------------------------------------------------------- */

jv jv_num_lit(jqs *J, double d, const char *s, size_t n) {
  jv v = jv_num(d);
  size_t i = s[0] == '-';
  if (n - i < 16 || n > 4000 || fabs(d) < 9007199254740992.0)
    return v;
  for (size_t k = i; k < n; k++)
    if (s[k] < '0' || s[k] > '9')
      return v;
  if (s[i] == '0')
    return v;
  char tmp[40];
  jd_num(tmp, d);
  if (strlen(tmp) == n && !memcmp(tmp, s, n))
    return v;
  if (J->nnumlits == J->capnumlits) {
    uint32_t nc = J->capnumlits ? J->capnumlits * 2 : 16;
    if (nc > (1u << 24))
      return v;
    char **nl = mem_realloc(J->m, J->numlits, nc * sizeof(char *));
    if (!nl)
      return v;
    J->numlits = nl;
    J->capnumlits = nc;
  }
  char *t = mem_strndup(J->m, s, n);
  if (!t)
    return v;
  J->numlits[J->nnumlits++] = t;
  v.lit = J->nnumlits;
  return v;
}

void jv_numlits_free(jqs *J) {
  for (uint32_t i = 0; i < J->nnumlits; i++)
    mem_free(J->m, J->numlits[i]);
  mem_free(J->m, J->numlits);
  J->numlits = NULL;
  J->nnumlits = J->capnumlits = 0;
}

const char *jd_numtext(jqs *J, jv v, char *buf) {
  if (v.lit && v.lit <= J->nnumlits)
    return J->numlits[v.lit - 1];
  jd_num(buf, v.u.n);
  return buf;
}

void jd_num(char *out, double d) {
  if (isnan(d)) {
    strcpy(out, "null");
    return;
  }
  if (isinf(d))
    d = d < 0 ? -1.7976931348623157e308 : 1.7976931348623157e308;
  if (d == 0) {
    strcpy(out, signbit(d) ? "-0" : "0");
    return;
  }
  if (fabs(d) < 1e17 && d == (double)(long long)d) {
    snprintf(out, 32, "%lld", (long long)d);
    return;
  }
  char tmp[40];
  int prec;
  for (prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
    if (strtod(tmp, NULL) == d)
      break;
  }
  /* tmp: [-]d.ddde[+-]XX; digits and exponent */
  char dig[24];
  int nd = 0, neg = tmp[0] == '-';
  const char *q = tmp + neg;
  for (; *q && *q != 'e'; q++)
    if (*q != '.')
      dig[nd++] = *q;
  int ex = atoi(q + 1);
  while (nd > 1 && dig[nd - 1] == '0')
    nd--;
  int decpt = ex + 1;
  char *o = out;
  if (neg)
    *o++ = '-';
  if (decpt <= -4 || decpt > nd + 15) {
    *o++ = dig[0];
    if (nd > 1) {
      *o++ = '.';
      memcpy(o, dig + 1, (size_t)nd - 1);
      o += nd - 1;
    }
    sprintf(o, "e%c%02d", ex < 0 ? '-' : '+', ex < 0 ? -ex : ex);
    return;
  }
  if (decpt <= 0) {
    *o++ = '0';
    *o++ = '.';
    for (int i = 0; i < -decpt; i++)
      *o++ = '0';
    memcpy(o, dig, (size_t)nd);
    o += nd;
  } else if (decpt >= nd) {
    memcpy(o, dig, (size_t)nd);
    o += nd;
    for (int i = nd; i < decpt; i++)
      *o++ = '0';
  } else {
    memcpy(o, dig, (size_t)decpt);
    o += decpt;
    *o++ = '.';
    memcpy(o, dig + decpt, (size_t)(nd - decpt));
    o += nd - decpt;
  }
  *o = 0;
}

/* jq 1.7.1's default colours, or JQ_COLORS */
#define COL_NULL (J->colors[0])
#define COL_FALSE (J->colors[1])
#define COL_TRUE (J->colors[2])
#define COL_NUM (J->colors[3])
#define COL_STR (J->colors[4])
#define COL_ARR (J->colors[5])
#define COL_OBJ (J->colors[6])
#define COL_KEY (J->colors[7])
#define COL_RESET "\033[0m"

void jd_colors(jqs *J, const char *spec) {
  static const char *const def[8] = {"0;90", "0;39", "0;39", "0;39",
                                     "0;32", "1;39", "1;39", "34;1"};
  for (int i = 0; i < 8; i++)
    snprintf(J->colors[i], sizeof J->colors[i], "\033[%sm", def[i]);
  for (int i = 0; spec && *spec && i < 8; i++) {
    const char *e = strchr(spec, ':');
    size_t n = e ? (size_t)(e - spec) : strlen(spec);
    if (n > 12 || strspn(spec, "0123456789;") < n)
      return; /* jq ignores a bad specification */
    snprintf(J->colors[i], sizeof J->colors[i], "\033[%.*sm", (int)n, spec);
    spec = e ? e + 1 : spec + n;
  }
}

static void dump_str(buf *b, const char *p, size_t n, int ascii) {
  static const char hex[] = "0123456789abcdef";
  buf_putc(b, '"');
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && (unsigned char)p[j] >= 0x20 && p[j] != '"' &&
           p[j] != '\\' && p[j] != 0x7f &&
           (!ascii || (unsigned char)p[j] < 0x80))
      j++;
    if (j > i)
      buf_append(b, p + i, j - i);
    i = j;
    if (i >= n)
      break;
    unsigned char c = (unsigned char)p[i];
    if (c >= 0x80) {
      /* -a: \uXXXX, with surrogate pairs */
      unsigned cp = 0;
      int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
      cp = c & (len == 4 ? 7 : len == 3 ? 0xF : 0x1F);
      for (int k = 1; k < len && i + k < n; k++)
        cp = (cp << 6) | (p[i + k] & 0x3F);
      i += len;
      char u[16];
      if (cp >= 0x10000) {
        cp -= 0x10000;
        snprintf(u, sizeof u, "\\u%04x\\u%04x", 0xD800 + (cp >> 10),
                 0xDC00 + (cp & 0x3FF));
      } else
        snprintf(u, sizeof u, "\\u%04x", cp);
      buf_puts(b, u);
      continue;
    }
    i++;
    switch (c) {
    case '"':
      buf_puts(b, "\\\"");
      break;
    case '\\':
      buf_puts(b, "\\\\");
      break;
    case '\n':
      buf_puts(b, "\\n");
      break;
    case '\t':
      buf_puts(b, "\\t");
      break;
    case '\r':
      buf_puts(b, "\\r");
      break;
    case '\b':
      buf_puts(b, "\\b");
      break;
    case '\f':
      buf_puts(b, "\\f");
      break;
    default: {
      char u[8] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
      buf_puts(b, u);
    }
    }
  }
  buf_putc(b, '"');
}

static void indent(buf *b, int flags, int lvl) {
  if (!(flags & JD_PRETTY))
    return;
  buf_putc(b, '\n');
  if (flags & JD_TAB) {
    for (int i = 0; i < lvl; i++)
      buf_putc(b, '\t');
  } else {
    int w = (flags & JD_INDENT_MASK) * lvl;
    for (int i = 0; i < w; i++)
      buf_putc(b, ' ');
  }
}

__attribute__((noinline)) static void dump_num(jqs *J, buf *b, jv v, int col) {
  char nb[40];
  const char *t = jd_numtext(J, v, nb);
  if (col)
    buf_puts(b, COL_NUM);
  buf_puts(b, t);
  if (col)
    buf_puts(b, COL_RESET);
}

static void dump_lit(jqs *J, buf *b, const char *c, const char *t, int col) {
  (void)J;
  if (col)
    buf_puts(b, c);
  buf_puts(b, t);
  if (col)
    buf_puts(b, COL_RESET);
}

static int dump(jqs *J, buf *b, jv v, int flags, int lvl) {
  int col = flags & JD_COLOR;
  if (b->oom)
    return -1;
  if (lvl > 10000 || stack_left() < 64 * 1024) {
    buf_puts(b, "<skipped: too deep>");
    return 0;
  }
  if ((lvl & 63) == 63 && budget_poll(J->bud))
    return -1;
  switch (v.k) {
  case JV_NULL:
    dump_lit(J, b, COL_NULL, "null", col);
    break;
  case JV_FALSE:
    dump_lit(J, b, COL_FALSE, "false", col);
    break;
  case JV_TRUE:
    dump_lit(J, b, COL_TRUE, "true", col);
    break;
  case JV_NUMBER:
    dump_num(J, b, v, col);
    break;
  case JV_STRING:
    if (col)
      buf_puts(b, COL_STR);
    dump_str(b, v.u.s->p, v.u.s->len, flags & JD_ASCII);
    if (col)
      buf_puts(b, COL_RESET);
    break;
  case JV_ARRAY: {
    jarr *a = v.u.a;
    if (col)
      buf_puts(b, COL_ARR);
    if (a->len == 0) {
      buf_puts(b, "[]");
      if (col)
        buf_puts(b, COL_RESET);
      break;
    }
    buf_putc(b, '[');
    for (uint32_t i = 0; i < a->len; i++) {
      if (i) {
        if (col)
          buf_puts(b, COL_ARR);
        buf_putc(b, ',');
      }
      indent(b, flags, lvl + 1);
      if (dump(J, b, a->v[i], flags, lvl + 1))
        return -1;
    }
    if (col)
      buf_puts(b, COL_ARR);
    indent(b, flags, lvl);
    if (col)
      buf_puts(b, COL_ARR);
    buf_putc(b, ']');
    if (col)
      buf_puts(b, COL_RESET);
    break;
  }
  case JV_OBJECT: {
    jobj *o = v.u.o;
    if (col)
      buf_puts(b, COL_OBJ);
    if (o->live == 0) {
      buf_puts(b, "{}");
      if (col)
        buf_puts(b, COL_RESET);
      break;
    }
    buf_putc(b, '{');
    jv keys = jv_invalid();
    uint32_t n = o->n;
    if (flags & JD_SORT) {
      keys = jv_keys(J, v, 1);
      if (!jv_ok(keys))
        return -1;
      n = keys.u.a->len;
    }
    int first = 1;
    for (uint32_t i = 0; i < n; i++) {
      jstr *k;
      jv val;
      if (flags & JD_SORT) {
        k = keys.u.a->v[i].u.s;
        val = *jv_oget(v, k->p, k->len);
      } else {
        if (!o->e[i].k)
          continue;
        k = o->e[i].k;
        val = o->e[i].v;
      }
      if (!first) {
        if (col)
          buf_puts(b, COL_OBJ);
        buf_putc(b, ',');
      }
      first = 0;
      indent(b, flags, lvl + 1);
      if (col) {
        buf_puts(b, COL_RESET);
        buf_puts(b, COL_KEY);
      }
      dump_str(b, k->p, k->len, flags & JD_ASCII);
      if (col) {
        buf_puts(b, COL_RESET);
        buf_puts(b, COL_OBJ);
      }
      buf_putc(b, ':');
      if (flags & JD_PRETTY)
        buf_putc(b, ' ');
      if (col)
        buf_puts(b, COL_RESET);
      if (dump(J, b, val, flags, lvl + 1)) {
        jv_free(J, keys);
        return -1;
      }
    }
    jv_free(J, keys);
    if (col)
      buf_puts(b, COL_OBJ);
    indent(b, flags, lvl);
    if (col)
      buf_puts(b, COL_OBJ);
    buf_putc(b, '}');
    if (col)
      buf_puts(b, COL_RESET);
    break;
  }
  default:
    break;
  }
  return b->oom ? -1 : 0;
}

int jd_dump(jqs *J, buf *b, jv v, int flags) {
  if ((flags & JD_INDENT_MASK) == 0 && !(flags & JD_TAB))
    flags &= ~JD_PRETTY;
  return dump(J, b, v, flags, 0);
}

jv jv_tojson(jqs *J, jv v) {
  buf b;
  buf_init(&b, J->m);
  int rc = jd_dump(J, &b, v, 0);
  jv r = rc ? jv_invalid() : jv_str(J, b.data ? b.data : "", b.len);
  buf_free(&b);
  if (!jv_ok(r))
    jv_err_str(J, "Out of memory");
  return r;
}

jv jv_tostring(jqs *J, jv v) {
  if (v.k == JV_STRING)
    return jv_copy(v);
  return jv_tojson(J, v);
}

void jd_trunc(jqs *J, jv v, char *out, size_t outlen) {
  buf b;
  buf_init(&b, J->m);
  jd_dump(J, &b, v, 0);
  size_t lim = outlen - 1;
  /* jq: at most 11 bytes of the text, then "..." */
  if (b.len > 14 && lim >= 15) {
    memcpy(out, b.data, 11);
    /* do not cut a UTF-8 sequence */
    size_t k = 11;
    while (k > 8 && ((unsigned char)b.data[k] & 0xC0) == 0x80)
      k--;
    memcpy(out + k, "...", 4);
  } else {
    size_t n = b.len < lim ? b.len : lim;
    if (n)
      memcpy(out, b.data, n);
    out[n] = 0;
  }
  buf_free(&b);
}
