/*
 * jq_json.h - a small JSON reader and value comparison for the jq corpus
 * runner (jq_corpus.c), with the equality jq's own test harness uses
 * between an expected line and an output: numbers compared as doubles
 * (infinities taken as the largest finite double, which is what jq prints
 * for them), strings by their bytes after unescaping, arrays in order,
 * objects as sets of keys (order ignored; a repeated key keeps its last
 * value, as jq's parser does).
 *
 * The reader accepts what jq's parser accepts on a test line: a leading
 * byte order mark, the literal `nan`, and escapes with lone surrogates
 * (read as U+FFFD). Host memory (malloc): this is test code, not sandbox
 * code.
 */
#ifndef VSH_TESTS_JQ_JSON_H
#define VSH_TESTS_JQ_JSON_H

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { JJ_NULL, JJ_FALSE, JJ_TRUE, JJ_NUM, JJ_STR, JJ_ARR, JJ_OBJ };

typedef struct jj_val {
  int type;
  double num;
  char *str; /* JJ_STR: bytes; JJ_OBJ: unused */
  size_t len;
  struct jj_val **items; /* JJ_ARR: elements; JJ_OBJ: values */
  char **keys;           /* JJ_OBJ */
  size_t *klens;
  size_t n, cap;
} jj_val;

#define JJ_MAX_DEPTH 20000

static void jj_free(jj_val *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->n; i++) {
    jj_free(v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->klens);
  free(v->str);
  free(v);
}

typedef struct jj_buf {
  char *d;
  size_t n, cap;
} jj_buf;

static void jj_put(jj_buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->d = realloc(b->d, b->cap);
  }
  memcpy(b->d + b->n, s, n);
  b->n += n;
  b->d[b->n] = 0;
}

static void jj_put_cp(jj_buf *b, unsigned c) {
  char u[4];
  size_t k;
  if (c < 0x80) {
    u[0] = (char)c;
    k = 1;
  } else if (c < 0x800) {
    u[0] = (char)(0xC0 | (c >> 6));
    u[1] = (char)(0x80 | (c & 0x3F));
    k = 2;
  } else if (c < 0x10000) {
    u[0] = (char)(0xE0 | (c >> 12));
    u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
    u[2] = (char)(0x80 | (c & 0x3F));
    k = 3;
  } else {
    u[0] = (char)(0xF0 | (c >> 18));
    u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    u[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    u[3] = (char)(0x80 | (c & 0x3F));
    k = 4;
  }
  jj_put(b, u, k);
}

typedef struct jj_in {
  const char *p, *end;
} jj_in;

static void jj_ws(jj_in *in) {
  while (in->p < in->end &&
         (*in->p == ' ' || *in->p == '\t' || *in->p == '\n' || *in->p == '\r'))
    in->p++;
}

static int jj_hex4(const char *p, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (unsigned)(c - 'A' + 10);
    else
      return -1;
  }
  *out = v;
  return 0;
}

/* A string after its opening quote; 0 on success. */
static int jj_string(jj_in *in, jj_buf *b) {
  jj_put(b, "", 0);
  while (in->p < in->end) {
    char c = *in->p++;
    if (c == '"')
      return 0;
    if (c != '\\') {
      jj_put(b, &c, 1);
      continue;
    }
    if (in->p >= in->end)
      return -1;
    char e = *in->p++;
    const char *simple = "\"\\/bfnrt", *val = "\"\\/\b\f\n\r\t";
    const char *s = strchr(simple, e);
    if (s && e) {
      jj_put(b, val + (s - simple), 1);
      continue;
    }
    unsigned cp;
    if (e != 'u' || in->end - in->p < 4 || jj_hex4(in->p, &cp))
      return -1;
    in->p += 4;
    if (cp >= 0xD800 && cp < 0xDC00) {
      unsigned lo;
      if (in->end - in->p >= 6 && in->p[0] == '\\' && in->p[1] == 'u' &&
          jj_hex4(in->p + 2, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
        in->p += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      } else {
        cp = 0xFFFD;
      }
    } else if (cp >= 0xDC00 && cp < 0xE000) {
      cp = 0xFFFD;
    }
    jj_put_cp(b, cp);
  }
  return -1;
}

static jj_val *jj_new(int type) {
  jj_val *v = calloc(1, sizeof *v);
  v->type = type;
  return v;
}

static void jj_add(jj_val *v, jj_val *item, char *key, size_t klen) {
  if (key) {
    for (size_t i = 0; i < v->n; i++)
      if (v->klens[i] == klen && memcmp(v->keys[i], key, klen) == 0) {
        jj_free(v->items[i]);
        v->items[i] = item;
        free(key);
        return;
      }
  }
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 4;
    v->items = realloc(v->items, v->cap * sizeof *v->items);
    if (key) {
      v->keys = realloc(v->keys, v->cap * sizeof *v->keys);
      v->klens = realloc(v->klens, v->cap * sizeof *v->klens);
    }
  }
  if (key) {
    v->keys[v->n] = key;
    v->klens[v->n] = klen;
  }
  v->items[v->n++] = item;
}

static int jj_lit(jj_in *in, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(in->end - in->p) >= n && memcmp(in->p, word, n) == 0) {
    in->p += n;
    return 1;
  }
  return 0;
}

/* One value at in->p (after white space); NULL when the text is not JSON. */
static jj_val *jj_value(jj_in *in, int depth) {
  jj_ws(in);
  if (in->p >= in->end || depth > JJ_MAX_DEPTH)
    return NULL;
  char c = *in->p;
  if (c == '"') {
    in->p++;
    jj_buf b = {0};
    if (jj_string(in, &b)) {
      free(b.d);
      return NULL;
    }
    jj_val *v = jj_new(JJ_STR);
    v->str = b.d;
    v->len = b.n;
    return v;
  }
  if (c == '[' || c == '{') {
    int obj = c == '{';
    jj_val *v = jj_new(obj ? JJ_OBJ : JJ_ARR);
    in->p++;
    jj_ws(in);
    if (in->p < in->end && *in->p == (obj ? '}' : ']')) {
      in->p++;
      return v;
    }
    for (;;) {
      char *key = NULL;
      size_t klen = 0;
      if (obj) {
        jj_ws(in);
        jj_buf b = {0};
        if (in->p >= in->end || *in->p != '"' || (in->p++, jj_string(in, &b))) {
          free(b.d);
          jj_free(v);
          return NULL;
        }
        key = b.d ? b.d : strdup("");
        klen = b.n;
        jj_ws(in);
        if (in->p >= in->end || *in->p != ':') {
          free(key);
          jj_free(v);
          return NULL;
        }
        in->p++;
      }
      jj_val *item = jj_value(in, depth + 1);
      if (!item) {
        free(key);
        jj_free(v);
        return NULL;
      }
      jj_add(v, item, key, klen);
      jj_ws(in);
      if (in->p < in->end && *in->p == ',') {
        in->p++;
        continue;
      }
      if (in->p < in->end && *in->p == (obj ? '}' : ']')) {
        in->p++;
        return v;
      }
      jj_free(v);
      return NULL;
    }
  }
  if (jj_lit(in, "null"))
    return jj_new(JJ_NULL);
  if (jj_lit(in, "true"))
    return jj_new(JJ_TRUE);
  if (jj_lit(in, "false"))
    return jj_new(JJ_FALSE);
  if (jj_lit(in, "nan")) {
    jj_val *v = jj_new(JJ_NUM);
    v->num = NAN;
    return v;
  }
  const char *s = in->p;
  while (in->p < in->end && strchr("+-0123456789.eE", *in->p) && *in->p)
    in->p++;
  if (in->p == s)
    return NULL;
  char tmp[512];
  size_t n = (size_t)(in->p - s);
  if (n >= sizeof tmp)
    n = sizeof tmp - 1; /* digits past this do not change a double */
  memcpy(tmp, s, n);
  tmp[n] = 0;
  char *e;
  double d = strtod(tmp, &e);
  if (*e)
    return NULL;
  jj_val *v = jj_new(JJ_NUM);
  v->num = d;
  return v;
}

/* The values of text[0..len) in order, separated by white space: returns
 * how many were read into *out (a malloc'ed array), or -1 when the text is
 * not a sequence of JSON values. A leading byte order mark is skipped. */
static long jj_parse_all(const char *text, size_t len, jj_val ***out) {
  jj_in in = {text, text + len};
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
    in.p += 3;
  size_t n = 0, cap = 0;
  jj_val **v = NULL;
  for (;;) {
    jj_ws(&in);
    if (in.p >= in.end)
      break;
    jj_val *x = jj_value(&in, 0);
    if (!x) {
      for (size_t i = 0; i < n; i++)
        jj_free(v[i]);
      free(v);
      *out = NULL;
      return -1;
    }
    if (n == cap) {
      cap = cap ? cap * 2 : 8;
      v = realloc(v, cap * sizeof *v);
    }
    v[n++] = x;
  }
  *out = v;
  return (long)n;
}

/* Exactly one value in text (as jq's harness reads a line); NULL if not. */
static jj_val *jj_parse_one(const char *text, size_t len) {
  jj_val **v;
  long n = jj_parse_all(text, len, &v);
  if (n < 0)
    return NULL;
  jj_val *r = NULL;
  if (n == 1)
    r = v[0];
  else
    for (long i = 0; i < n; i++)
      jj_free(v[i]);
  free(v);
  return r;
}

static double jj_clamp(double d) {
  if (isinf(d))
    return d > 0 ? DBL_MAX : -DBL_MAX;
  return d;
}

static int jj_equal(const jj_val *a, const jj_val *b) {
  if (a->type != b->type)
    return 0;
  switch (a->type) {
  case JJ_NUM:
    return jj_clamp(a->num) == jj_clamp(b->num);
  case JJ_STR:
    return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
  case JJ_ARR:
    if (a->n != b->n)
      return 0;
    for (size_t i = 0; i < a->n; i++)
      if (!jj_equal(a->items[i], b->items[i]))
        return 0;
    return 1;
  case JJ_OBJ:
    if (a->n != b->n)
      return 0;
    for (size_t i = 0; i < a->n; i++) {
      size_t j = 0;
      while (j < b->n && !(b->klens[j] == a->klens[i] &&
                           memcmp(b->keys[j], a->keys[i], a->klens[i]) == 0))
        j++;
      if (j == b->n || !jj_equal(a->items[i], b->items[j]))
        return 0;
    }
    return 1;
  default:
    return 1;
  }
}

#endif
