/*
 * parse.c - sed script text -> sd_prog.
 *
 * The pieces (-e expressions, -f files) are joined with newlines, as GNU
 * does, so a block or an `a\` text may continue into the next piece; error
 * positions are mapped back to the piece ("-e expression #2, char 3" or
 * "file F line N"), counting like GNU the characters consumed so far.
 *
 * Regexes go through grep's POSIX BRE/ERE -> PCRE2 translation
 * (gr_translate) after sed's own escapes (\n \t \xHH \dNNN \oNNN \cX) have
 * been replaced by the characters they stand for. They are compiled once,
 * with JIT. sed's pattern space may hold newlines: outside M mode '.' and
 * negated classes match them and '$' only matches at the very end
 * (PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY); with M, ^ and $ work per line.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "builtins/data/sed/sed.h"
#include "builtins/search/grep/grep.h"
#include "builtins/textutil.h"

typedef struct px {
  sd_prog *p;
  const char *s;
  size_t n, i;
  const sd_src *src;
  size_t nsrc;
  size_t *starts;
  sd_re *last_re; /* last regex compiled: for "no previous regex" */
} px;

/* GNU's location prefix for position x->i (characters consumed). */
static int perr(px *x, const char *fmt, ...) {
  bi_ctx *c = x->p->c;
  size_t k = 0;
  while (k + 1 < x->nsrc && x->starts[k + 1] < x->i)
    k++;
  size_t off = x->i - x->starts[k];
  if (off > x->src[k].len)
    off = x->src[k].len;
  buf b;
  buf_init(&b, c->m);
  if (x->src[k].file) {
    size_t line = 1;
    for (size_t j = x->starts[k]; j < x->i && j < x->n; j++)
      if (x->s[j] == '\n' && j + 1 < x->i)
        line++;
    buf_printf(&b, "file %s line %zu: ", x->src[k].file, line);
  } else {
    buf_printf(&b, "-e expression #%zu, char %zu: ", k + 1, off);
  }
  va_list ap;
  va_start(ap, fmt);
  tu_verror(c, buf_cstr(&b), fmt, ap);
  va_end(ap);
  buf_free(&b);
  return -1;
}

static int peekc(px *x) {
  return x->i < x->n ? (unsigned char)x->s[x->i] : -1;
}
static int getch(px *x) {
  return x->i < x->n ? (unsigned char)x->s[x->i++] : -1;
}
static void skip_ws(px *x) {
  while (x->i < x->n && (x->s[x->i] == ' ' || x->s[x->i] == '\t'))
    x->i++;
}

/* ---- regexes ------------------------------------------------------------- */

/* sed's character escapes common to regexes, replacements and texts: the
 * escape whose letter is s[0]. Returns the bytes consumed after the
 * backslash (0: not such an escape) and the character in *out. */
static size_t char_escape(const char *s, size_t n, int *out) {
  if (n == 0)
    return 0;
  int v = 0;
  size_t k = 1;
  switch (s[0]) {
  case 'a':
    *out = '\a';
    return 1;
  case 'f':
    *out = '\f';
    return 1;
  case 'n':
    *out = '\n';
    return 1;
  case 'r':
    *out = '\r';
    return 1;
  case 't':
    *out = '\t';
    return 1;
  case 'v':
    *out = '\v';
    return 1;
  case 'c':
    if (n < 2)
      return 0;
    *out = (s[1] >= 'a' && s[1] <= 'z' ? s[1] - 32 : s[1]) ^ 0x40;
    return 2;
  case 'd': /* decimal, up to 3 digits */
    while (k < n && k < 4 && s[k] >= '0' && s[k] <= '9')
      v = v * 10 + (s[k++] - '0');
    if (k == 1)
      return 0;
    *out = v & 0xff;
    return k;
  case 'o':
    while (k < n && k < 4 && s[k] >= '0' && s[k] <= '7')
      v = v * 8 + (s[k++] - '0');
    if (k == 1)
      return 0;
    *out = v & 0xff;
    return k;
  case 'x':
    while (k < n && k < 3 && tu_hexval((unsigned char)s[k]) >= 0)
      v = v * 16 + tu_hexval((unsigned char)s[k++]);
    if (k == 1)
      return 0;
    *out = v;
    return k;
  default:
    return 0;
  }
}

/* Replace sed's character escapes in a regex by the characters (quoted when
 * they would be special), leaving regex escapes to gr_translate. */
static void re_escapes(const char *s, size_t n, int ere, buf *o) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      buf_putc(o, s[i]);
      continue;
    }
    int ch;
    size_t k = char_escape(s + i + 1, n - i - 1, &ch);
    /* \cX, \d, \o, \x are escapes; \w \s \b ... stay for gr_translate */
    if (k == 0) {
      buf_putc(o, '\\');
      buf_putc(o, s[++i]);
      continue;
    }
    /* GNU 4.9 hands the character to the regex compiler as is (\x2e is
     * any character, \x5e an anchor); only a backslash stays literal. */
    if (ch == '\\')
      buf_putc(o, '\\');
    buf_putc(o, ch);
    i += k;
  }
}

/* Compile a BRE/ERE for sed. 0 with *out, or -1 after the message. */
static int compile_re(px *x, const char *pat, size_t n, int icase, int mline,
                      sd_re **out) {
  sd_prog *p = x->p;
  bi_ctx *c = p->c;
  buf pre, pt, msg;
  buf_init(&pre, c->m);
  buf_init(&pt, c->m);
  buf_init(&msg, c->m);
  re_escapes(pat, n, p->ere, &pre);
  /* gr_translate prints its errors (and grep's warnings, which sed does not
   * give) on c->err: capture them to put GNU sed's location in front. */
  bi_ctx cc = *c;
  cc.err = stream_capture(c->m, NULL, &msg, NULL, NULL, 2, 0);
  int ng = 0, br = 0;
  int rc = cc.err ? gr_translate(&cc, &pt, pre.data ? pre.data : "", pre.len,
                                 p->ere, 0, p->utf8, icase, 0, &ng, &br)
                  : -1;
  if (cc.err)
    stream_unref(cc.err);
  buf_free(&pre);
  if (rc < 0) {
    const char *m = buf_cstr(&msg);
    size_t pl = strlen(c->argv[0]);
    if (strncmp(m, c->argv[0], pl) == 0 && m[pl] == ':')
      m += pl + 2;
    size_t ml = strlen(m);
    while (ml && m[ml - 1] == '\n')
      ml--;
    perr(x, "%.*s", (int)ml, m);
    buf_free(&pt);
    buf_free(&msg);
    return -1;
  }
  buf_free(&msg);
  uint32_t opts =
      mline ? PCRE2_MULTILINE : (PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY);
  if (icase)
    opts |= PCRE2_CASELESS;
  if (p->utf8 && gr_utf8_valid(pat, n))
    opts |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_UCP;
  sd_re *re = mem_calloc(c->m, 1, sizeof *re);
  if (!re || (p->nres == p->capres &&
              !(p->res = mem_realloc(c->m, p->res,
                                     (p->capres = p->capres * 2 + 8) *
                                         sizeof *p->res)))) {
    mem_free(c->m, re);
    buf_free(&pt);
    return perr(x, "memory exhausted");
  }
  int ec;
  size_t eo;
  int rc2 = rx_compile(&p->env, &re->rx, pt.data ? pt.data : "", pt.len, opts,
                       RX_POSIX | (ng ? RX_CAPS : 0), NULL, &ec, &eo);
  buf_free(&pt);
  if (rc2 < 0) {
    mem_free(c->m, re);
    if (ec == PCRE2_ERROR_NOMEMORY)
      return perr(x, "memory exhausted");
    PCRE2_UCHAR m[256];
    pcre2_get_error_message(ec, m, sizeof m);
    return perr(x, "%s", (const char *)m);
  }
  p->res[p->nres++] = re;
  re->ngroups = ng;
  x->last_re = re;
  *out = re;
  return 0;
}

/* Skip a bracket expression starting at s[i] == '['; returns the index
 * after its ']' or 0 when it does not close on this line. */
static size_t skip_bracket(const char *s, size_t n, size_t i) {
  size_t j = i + 1;
  if (j < n && s[j] == '^')
    j++;
  if (j < n && s[j] == ']')
    j++;
  while (j < n && s[j] != '\n') {
    if (s[j] == '[' && j + 1 < n &&
        (s[j + 1] == ':' || s[j + 1] == '.' || s[j + 1] == '=')) {
      char k = s[j + 1];
      size_t e = j + 2;
      while (e + 1 < n && s[e] != '\n' && !(s[e] == k && s[e + 1] == ']'))
        e++;
      if (e + 1 >= n || s[e] == '\n')
        return 0;
      j = e + 2;
      continue;
    }
    if (s[j] == ']')
      return j + 1;
    j++;
  }
  return 0;
}

/* Read text up to the delimiter (consumed). regex: brackets may hold the
 * delimiter, "\n" is kept as an escape. \DELIM stands for DELIM; a newline
 * ends it unterminated unless escaped. Returns 0, or -1 (not terminated). */
static int read_delim(px *x, int delim, int regex, buf *o) {
  for (;;) {
    int ch = getch(x);
    if (ch < 0 || (ch == '\n' && (regex || delim != '\n')))
      return -1;
    if (ch == delim)
      return 0;
    if (ch == '\\') {
      int d = getch(x);
      if (d < 0)
        return -1;
      if (d == delim) {
        buf_putc(o, d);
      } else if (d == '\n' && !regex) {
        buf_putc(o, '\\');
        buf_putc(o, '\n');
      } else {
        buf_putc(o, '\\');
        buf_putc(o, d);
      }
      continue;
    }
    if (ch == '[' && regex) {
      size_t e = skip_bracket(x->s, x->n, x->i - 1);
      if (e) {
        buf_append(o, x->s + x->i - 1, e - (x->i - 1));
        x->i = e;
        continue;
      }
    }
    buf_putc(o, ch);
  }
}

/* ---- addresses ------------------------------------------------------------
 */

static int read_num(px *x, uint64_t *v) {
  if (peekc(x) < '0' || peekc(x) > '9')
    return 0;
  uint64_t a = 0;
  while (peekc(x) >= '0' && peekc(x) <= '9') {
    uint64_t d = (uint64_t)(getch(x) - '0');
    a = a > (UINT64_MAX - d) / 10 ? UINT64_MAX : a * 10 + d;
  }
  *v = a;
  return 1;
}

/* A regex address after its opening delimiter, then its I/M flags. */
static int addr_re(px *x, int delim, sd_addr *a) {
  buf t;
  buf_init(&t, x->p->c->m);
  if (read_delim(x, delim, 1, &t) < 0) {
    buf_free(&t);
    return perr(x, "unterminated address regex");
  }
  int icase = 0, ml = 0;
  for (;;) {
    int ch = peekc(x);
    if (ch == 'I')
      icase = 1;
    else if (ch == 'M')
      ml = 1;
    else
      break;
    x->i++;
  }
  a->kind = SA_RE;
  int rc = 0;
  if (t.len == 0) {
    /* An empty regex reuses the last one used; with none yet, GNU sed
     * fails only when a line reaches it (sed '//d' </dev/null is fine). */
    if (icase || ml)
      rc = perr(x, "no previous regular expression");
    a->re = NULL;
  } else {
    rc = compile_re(x, t.data, t.len, icase, ml, &a->re);
  }
  buf_free(&t);
  return rc;
}

/* 1 with an address, 0 none, -1 error. */
static int parse_addr(px *x, sd_addr *a, int second) {
  int ch = peekc(x);
  uint64_t v = 0;
  if (second && (ch == '+' || ch == '~')) {
    x->i++;
    if (!read_num(x, &v))
      return perr(x, "expected newer version of sed");
    a->kind = ch == '+' ? SA_PLUS : SA_MULT;
    a->n1 = v;
    return 1;
  }
  if (read_num(x, &v)) {
    a->kind = SA_LINE;
    a->n1 = v;
    if (!second && peekc(x) == '~') {
      x->i++;
      uint64_t s = 0;
      if (!read_num(x, &s))
        s = 0;
      a->kind = SA_STEP;
      a->n2 = s;
    }
    return 1;
  }
  if (ch == '$') {
    x->i++;
    a->kind = SA_LAST;
    return 1;
  }
  if (ch == '/' || ch == '\\') {
    x->i++;
    int d = '/';
    if (ch == '\\') {
      d = getch(x);
      if (d < 0 || d == '\n' || d == '\\')
        return perr(x, "unexpected `,'");
    }
    return addr_re(x, d, a) < 0 ? -1 : 1;
  }
  return 0;
}

/* ---- commands -------------------------------------------------------------
 */

static sd_cmd *new_cmd(px *x) {
  sd_prog *p = x->p;
  if (p->ncmds == p->cap) {
    size_t nc = p->cap * 2 + 16;
    sd_cmd *v = mem_realloc(p->c->m, p->cmds, nc * sizeof *v);
    if (!v)
      return NULL;
    p->cmds = v;
    p->cap = nc;
  }
  sd_cmd *cm = &p->cmds[p->ncmds++];
  memset(cm, 0, sizeof *cm);
  return cm;
}

/* After a command: blanks, then ; newline } # or the end. */
static int end_cmd(px *x) {
  skip_ws(x);
  int ch = peekc(x);
  if (ch < 0 || ch == '\n' || ch == ';') {
    if (ch >= 0)
      x->i++;
    return 0;
  }
  if (ch == '}' || ch == '#')
    return 0;
  x->i++;
  return perr(x, "extra characters after command");
}

/* Text of a, i, c: GNU's one-liner ("a text") or classic ("a\" newline
 * text) form; a backslash-newline continues the text, other backslashes
 * escape. */
static int read_text(px *x, sd_cmd *cm) {
  bi_ctx *c = x->p->c;
  skip_ws(x);
  if (peekc(x) < 0)
    return perr(x, "expected \\ after `a', `c' or `i'");
  if (peekc(x) == '\\') {
    x->i++;
    skip_ws(x);
    if (peekc(x) == '\n')
      x->i++;
  }
  buf t;
  buf_init(&t, c->m);
  while (x->i < x->n && x->s[x->i] != '\n') {
    char ch = x->s[x->i++];
    if (ch == '\\' && x->i < x->n) {
      int e;
      size_t k = char_escape(x->s + x->i, x->n - x->i, &e);
      if (k) {
        buf_putc(&t, e);
        x->i += k;
      } else {
        buf_putc(&t, x->s[x->i++]);
      }
      continue;
    }
    buf_putc(&t, ch);
  }
  if (x->i < x->n)
    x->i++; /* the newline */
  buf_putc(&t, '\n');
  cm->tlen = t.len;
  cm->text = buf_take(&t, NULL);
  return 0;
}

/* Rest of the line (file names of r R w W). */
static int read_filename(px *x, sd_cmd *cm) {
  skip_ws(x);
  size_t b = x->i;
  while (x->i < x->n && x->s[x->i] != '\n')
    x->i++;
  if (x->i == b)
    return perr(x, "missing filename in r/R/w/W commands");
  cm->text = mem_strndup(x->p->c->m, x->s + b, x->i - b);
  cm->tlen = x->i - b;
  if (x->i < x->n)
    x->i++;
  return cm->text ? 0 : perr(x, "memory exhausted");
}

static sd_wfile *get_wfile(px *x, const char *name) {
  sd_prog *p = x->p;
  for (sd_wfile *w = p->wfiles; w; w = w->next)
    if (strcmp(w->name, name) == 0)
      return w;
  sd_wfile *w = mem_calloc(p->c->m, 1, sizeof *w);
  if (!w)
    return NULL;
  w->name = mem_strdup(p->c->m, name);
  w->next = p->wfiles;
  p->wfiles = w;
  if (strcmp(name, "/dev/stdout") == 0)
    return w; /* s NULL: the main writer, so the order is kept */
  int err = 0;
  w->s = tu_open_write(p->c, name, 0, &err);
  if (!w->s) {
    bi_error(p->c, "couldn't open file %s: %s", name, bi_strerror(err));
    return NULL;
  }
  return w;
}

static int read_label(px *x, char **out, int colon) {
  skip_ws(x);
  size_t b = x->i;
  while (
      x->i < x->n && x->s[x->i] != '\n' && x->s[x->i] != ';' &&
      (colon || (x->s[x->i] != '}' && x->s[x->i] != ' ' && x->s[x->i] != '\t')))
    x->i++;
  size_t e = x->i;
  while (e > b && (x->s[e - 1] == ' ' || x->s[e - 1] == '\t'))
    e--;
  *out = e > b ? mem_strndup(x->p->c->m, x->s + b, e - b) : NULL;
  return 0;
}

/* The replacement of s: literals, groups and case conversions. */
static int parse_repl(px *x, sd_cmd *cm, const char *r, size_t n, int *maxref) {
  bi_ctx *c = x->p->c;
  buf lit;
  buf_init(&lit, c->m);
  size_t cap = 8, np = 0;
  sd_rpart *parts = mem_alloc(c->m, cap * sizeof *parts);
  size_t litstart = 0;
  *maxref = 0;
  if (!parts)
    goto nomem;
#define PUSH(K, N)                                                             \
  do {                                                                         \
    if (np + 2 > cap) {                                                        \
      sd_rpart *grown = mem_realloc(c->m, parts, 2 * cap * sizeof *parts);     \
      if (!grown)                                                              \
        goto nomem;                                                            \
      parts = grown;                                                           \
      cap *= 2;                                                                \
    }                                                                          \
    if (lit.len > litstart) {                                                  \
      parts[np++] = (sd_rpart){SR_LIT, 0, litstart, lit.len - litstart};       \
      litstart = lit.len;                                                      \
    }                                                                          \
    if ((K) != SR_LIT)                                                         \
      parts[np++] = (sd_rpart){(K), (N), 0, 0};                                \
  } while (0)
  for (size_t i = 0; i < n; i++) {
    char ch = r[i];
    if (ch == '&') {
      PUSH(SR_GROUP, 0);
      continue;
    }
    if (ch != '\\' || i + 1 >= n) {
      buf_putc(&lit, ch);
      continue;
    }
    char d = r[++i];
    if (d >= '0' && d <= '9') {
      PUSH(SR_GROUP, d - '0');
      if (d - '0' > *maxref)
        *maxref = d - '0';
      continue;
    }
    int sc = d == 'L'   ? SC_LOWER
             : d == 'U' ? SC_UPPER
             : d == 'l' ? SC_LOWER1
             : d == 'u' ? SC_UPPER1
             : d == 'E' ? SC_END
                        : 0;
    if (sc) {
      PUSH(SR_CASE, sc);
      continue;
    }
    if (d == '\n') {
      buf_putc(&lit, '\n');
      continue;
    }
    int e;
    size_t k = char_escape(r + i, n - i, &e);
    if (k) {
      buf_putc(&lit, e);
      i += k - 1;
      continue;
    }
    buf_putc(&lit, d);
  }
  PUSH(SR_LIT, 0);
#undef PUSH
  if (lit.oom)
    goto nomem;
  cm->parts = parts;
  cm->nparts = np;
  cm->tlen = lit.len;
  cm->text = buf_take(&lit, NULL);
  return cm->text ? 0 : perr(x, "memory exhausted");
nomem:
  mem_free(c->m, parts);
  buf_free(&lit);
  return perr(x, "memory exhausted");
}

static int parse_s(px *x, sd_cmd *cm) {
  bi_ctx *c = x->p->c;
  int d = getch(x);
  if (d < 0 || d == '\n' || d == '\\')
    return perr(x, "unterminated `s' command");
  buf re, rp;
  buf_init(&re, c->m);
  buf_init(&rp, c->m);
  int rc = -1;
  if (read_delim(x, d, 1, &re) < 0 || read_delim(x, d, 0, &rp) < 0) {
    perr(x, "unterminated `s' command");
    goto out;
  }
  int icase = 0, ml = 0, nth_seen = 0;
  cm->num = 1;
  for (;;) {
    int f = peekc(x);
    if (f == 'g') {
      x->i++;
      if (cm->gflag) {
        perr(x, "multiple `g' options to `s' command");
        goto out;
      }
      cm->gflag = 1;
    } else if (f == 'p') {
      x->i++;
      if (cm->pflag) {
        perr(x, "multiple `p' options to `s' command");
        goto out;
      }
      cm->pflag = 1;
    } else if (f == 'i' || f == 'I') {
      x->i++;
      icase = 1;
    } else if (f == 'm' || f == 'M') {
      x->i++;
      ml = 1;
    } else if (f == 'e') {
      x->i++;
      perr(x, "the `e' flag of `s' is not supported (vsh runs no processes)");
      goto out;
    } else if (f >= '0' && f <= '9') {
      uint64_t v = 0;
      read_num(x, &v);
      if (nth_seen) {
        perr(x, "multiple number options to `s' command");
        goto out;
      }
      if (v == 0) {
        perr(x, "number option to `s' command may not be zero");
        goto out;
      }
      nth_seen = 1;
      cm->num = (int64_t)(v > INT64_MAX ? INT64_MAX : v);
    } else if (f == 'w') {
      x->i++;
      if (read_filename(x, cm) < 0)
        goto out;
      cm->wf = get_wfile(x, cm->text);
      mem_free(c->m, cm->text);
      cm->text = NULL;
      if (!cm->wf)
        goto out;
      break;
    } else if (f < 0 || f == '\n' || f == ';' || f == ' ' || f == '\t' ||
               f == '}' || f == '#') {
      if (end_cmd(x) < 0)
        goto out;
      break;
    } else {
      x->i++;
      perr(x, "unknown option to `s'");
      goto out;
    }
  }
  int ngroups;
  if (re.len == 0) {
    /* (no regex before: an error only when a line gets here, as above) */
    cm->re_empty = 1;
    ngroups = x->last_re ? x->last_re->ngroups : 9;
  } else {
    if (compile_re(x, re.data, re.len, icase, ml, &cm->re) < 0)
      goto out;
    ngroups = cm->re->ngroups;
  }
  int maxref;
  parse_repl(x, cm, rp.data ? rp.data : "", rp.len, &maxref);
  if (maxref > ngroups) {
    perr(x, "invalid reference \\%d on `s' command's RHS", maxref);
    goto out;
  }
  rc = 0;
out:
  buf_free(&re);
  buf_free(&rp);
  return rc;
}

/* y/src/dst/: characters (UTF-8 aware) mapped one to one. */
static int parse_y(px *x, sd_cmd *cm) {
  bi_ctx *c = x->p->c;
  int d = getch(x);
  if (d < 0 || d == '\n' || d == '\\')
    return perr(x, "unterminated `y' command");
  buf a[2];
  buf_init(&a[0], c->m);
  buf_init(&a[1], c->m);
  int rc = -1;
  for (int k = 0; k < 2; k++) {
    for (;;) {
      int ch = getch(x);
      if (ch < 0 || ch == '\n') {
        perr(x, "unterminated `y' command");
        goto out;
      }
      if (ch == d)
        break;
      if (ch == '\\') {
        int e = getch(x);
        if (e == d || e == '\\')
          ch = e;
        else if (e == 'n')
          ch = '\n';
        else if (e == '\n')
          ch = '\n';
        else {
          int v;
          x->i--;
          size_t used = char_escape(x->s + x->i, x->n - x->i, &v);
          if (!used) {
            perr(x, "unknown option to `y'");
            goto out;
          }
          x->i += used;
          ch = v;
        }
      }
      buf_putc(&a[k], ch);
    }
  }
  /* split into characters */
  const char *s0 = a[0].data ? a[0].data : "", *s1 = a[1].data ? a[1].data : "";
  size_t n0 = 0, n1 = 0, multi = 0;
  for (size_t i = 0; i < a[0].len; n0++) {
    uint32_t cp;
    size_t l = x->p->utf8 ? tu_utf8_get(s0 + i, a[0].len - i, &cp) : 1;
    multi |= l > 1;
    i += l;
  }
  for (size_t i = 0; i < a[1].len; n1++) {
    uint32_t cp;
    size_t l = x->p->utf8 ? tu_utf8_get(s1 + i, a[1].len - i, &cp) : 1;
    multi |= l > 1;
    i += l;
  }
  if (n0 != n1) {
    perr(x, "strings for `y' command are different lengths");
    goto out;
  }
  if (!multi) {
    cm->ymap = mem_alloc(c->m, 256);
    if (!cm->ymap) {
      perr(x, "out of memory");
      goto out;
    }
    for (int i = 0; i < 256; i++)
      cm->ymap[i] = (unsigned char)i;
    for (size_t i = 0; i < n0; i++)
      cm->ymap[(unsigned char)s0[i]] = (unsigned char)s1[i];
  } else {
    cm->yfrom = mem_calloc(c->m, n0 + 1, sizeof(char *));
    cm->yto = mem_calloc(c->m, n0 + 1, sizeof(char *));
    if (!cm->yfrom || !cm->yto) {
      perr(x, "out of memory");
      goto out;
    }
    cm->ny = n0;
    size_t i = 0, j = 0;
    for (size_t k = 0; k < n0; k++) {
      uint32_t cp;
      size_t l0 = tu_utf8_get(s0 + i, a[0].len - i, &cp);
      size_t l1 = tu_utf8_get(s1 + j, a[1].len - j, &cp);
      cm->yfrom[k] = mem_strndup(c->m, s0 + i, l0);
      cm->yto[k] = mem_strndup(c->m, s1 + j, l1);
      if (!cm->yfrom[k] || !cm->yto[k]) {
        perr(x, "out of memory");
        goto out;
      }
      i += l0;
      j += l1;
    }
  }
  rc = end_cmd(x);
out:
  buf_free(&a[0]);
  buf_free(&a[1]);
  return rc;
}

static int parse_cmds(px *x) {
  sd_prog *p = x->p;
  size_t stack[256];
  size_t depth = 0;
  for (;;) {
    while (x->i < x->n && (x->s[x->i] == ' ' || x->s[x->i] == '\t' ||
                           x->s[x->i] == '\n' || x->s[x->i] == ';'))
      x->i++;
    if (x->i >= x->n)
      break;
    if (x->s[x->i] == '#') {
      if (x->i == 0 && x->n >= 2 && x->s[1] == 'n' &&
          (x->n == 2 || x->s[2] == '\n'))
        p->quiet_from_script = 1;
      while (x->i < x->n && x->s[x->i] != '\n')
        x->i++;
      continue;
    }
    sd_cmd *cm = new_cmd(x);
    if (!cm)
      return perr(x, "memory exhausted");
    size_t me = p->ncmds - 1;
    int r = parse_addr(x, &cm->a1, 0);
    if (r < 0)
      return -1;
    if (r > 0) {
      skip_ws(x);
      if (peekc(x) == ',') {
        x->i++;
        skip_ws(x);
        r = parse_addr(x, &cm->a2, 1);
        if (r < 0)
          return -1;
        if (r == 0)
          return perr(x, "unexpected `,'");
      }
      if (cm->a1.kind == SA_LINE && cm->a1.n1 == 0) {
        if (cm->a2.kind != SA_RE) {
          x->i++;
          return perr(x, "invalid usage of line address 0");
        }
        cm->a1.kind = SA_ZERO;
        cm->active = 1;
      }
    }
    skip_ws(x);
    while (peekc(x) == '!') {
      if (cm->neg) {
        x->i++;
        return perr(x, "multiple `!'s");
      }
      cm->neg = 1;
      x->i++;
      skip_ws(x);
    }
    int ch = getch(x);
    if (ch < 0)
      return perr(x, "missing command");
    cm->cmd = (char)ch;
    int naddr = cm->a2.kind ? 2 : cm->a1.kind ? 1 : 0;
    switch (ch) {
    case '{':
      if (depth == sizeof stack / sizeof *stack)
        return perr(x, "too many nested `{'");
      stack[depth++] = me;
      break;
    case '}':
      if (depth == 0)
        return perr(x, "unexpected `}'");
      if (naddr)
        return perr(x, "} doesn't want any addresses");
      p->cmds[stack[--depth]].jump = me + 1;
      if (end_cmd(x) < 0)
        return -1;
      break;
    case '=':
    case 'd':
    case 'D':
    case 'F':
    case 'g':
    case 'G':
    case 'h':
    case 'H':
    case 'n':
    case 'N':
    case 'p':
    case 'P':
    case 'x':
    case 'z':
      if (end_cmd(x) < 0)
        return -1;
      break;
    case 'a':
    case 'i':
    case 'c':
      if (read_text(x, cm) < 0)
        return -1;
      break;
    case ':': {
      if (naddr)
        return perr(x, ": doesn't want any addresses");
      read_label(x, &cm->label, 1);
      if (!cm->label)
        return perr(x, "\":\" lacks a label");
      if (peekc(x) == ';')
        x->i++;
      break;
    }
    case 'b':
    case 't':
    case 'T':
      read_label(x, &cm->label, 0);
      if (end_cmd(x) < 0)
        return -1;
      break;
    case 'q':
    case 'Q':
    case 'l':
    case 'L': {
      if (naddr > 1 && (ch == 'q' || ch == 'Q'))
        return perr(x, "command only uses one address");
      skip_ws(x);
      uint64_t v = 0;
      cm->num = read_num(x, &v) ? (int64_t)(v & 0x7fffffff) : -1;
      if (ch == 'L')
        return perr(x, "unknown command: `L'");
      if (end_cmd(x) < 0)
        return -1;
      break;
    }
    case 'r':
    case 'R':
    case 'w':
    case 'W':
      if (read_filename(x, cm) < 0)
        return -1;
      if (ch == 'w' || ch == 'W') {
        cm->wf = get_wfile(x, cm->text);
        if (!cm->wf)
          return -1;
      } else if (ch == 'R') {
        sd_rfile *f = p->rfiles;
        while (f && strcmp(f->name, cm->text) != 0)
          f = f->next;
        if (!f) {
          f = mem_calloc(p->c->m, 1, sizeof *f);
          if (!f)
            return perr(x, "memory exhausted");
          f->name = mem_strdup(p->c->m, cm->text);
          f->next = p->rfiles;
          p->rfiles = f;
        }
        cm->rf = f;
      }
      break;
    case 's':
      if (parse_s(x, cm) < 0)
        return -1;
      break;
    case 'y':
      if (parse_y(x, cm) < 0)
        return -1;
      break;
    case 'e':
      return perr(x, "the `e' command is not supported (vsh runs no "
                     "processes)");
    case 'v':
      while (x->i < x->n && x->s[x->i] != '\n' && x->s[x->i] != ';' &&
             x->s[x->i] != '}')
        x->i++;
      if (end_cmd(x) < 0)
        return -1;
      break;
    case '#':
      if (naddr)
        return perr(x, "comments don't accept any addresses");
      while (x->i < x->n && x->s[x->i] != '\n')
        x->i++;
      p->ncmds--;
      break;
    default:
      return perr(x, "unknown command: `%c'", ch);
    }
  }
  if (depth) {
    x->i = 0;
    return perr(x, "unmatched `{'");
  }
  /* resolve labels */
  for (size_t k = 0; k < p->ncmds; k++) {
    sd_cmd *cm = &p->cmds[k];
    if (cm->cmd != 'b' && cm->cmd != 't' && cm->cmd != 'T')
      continue;
    cm->jump = p->ncmds;
    if (!cm->label)
      continue;
    size_t j = 0;
    for (; j < p->ncmds; j++)
      if (p->cmds[j].cmd == ':' && strcmp(p->cmds[j].label, cm->label) == 0)
        break;
    if (j == p->ncmds) {
      bi_error(p->c, "can't find label for jump to `%s'", cm->label);
      return -2; /* GNU's status 4 */
    }
    cm->jump = j;
  }
  return 0;
}

int sd_prog_init(sd_prog *p, bi_ctx *c) {
  memset(p, 0, sizeof *p);
  p->c = c;
  p->lwidth = 70;
  if (rx_env_init(&p->env, c->m, 4 * 1024 * 1024) < 0)
    return -1; /* out of memory */
  p->env_ok = 1;
  p->env.bud = c->bud; /* long automaton searches poll it */
  pcre2_set_newline(p->env.cc, PCRE2_NEWLINE_LF);
  return 0;
}

int sd_parse(sd_prog *p, const sd_src *src, size_t nsrc) {
  bi_ctx *c = p->c;
  buf all;
  buf_init(&all, c->m);
  size_t *starts = mem_alloc(c->m, (nsrc + 1) * sizeof *starts);
  if (!starts)
    return bi_error(c, "memory exhausted");
  for (size_t k = 0; k < nsrc; k++) {
    if (k)
      buf_putc(&all, '\n');
    starts[k] = all.len;
    buf_append(&all, src[k].text, src[k].len);
  }
  px x = {p, all.data ? all.data : "", all.len, 0, src, nsrc, starts, NULL};
  int rc = parse_cmds(&x);
  mem_free(c->m, starts);
  buf_free(&all);
  return rc;
}

void sd_free(sd_prog *p) {
  mem *m = p->c->m;
  for (size_t k = 0; k < p->ncmds; k++) {
    sd_cmd *cm = &p->cmds[k];
    mem_free(m, cm->text);
    mem_free(m, cm->label);
    mem_free(m, cm->parts);
    mem_free(m, cm->ymap);
    for (size_t i = 0; i < cm->ny; i++) {
      mem_free(m, cm->yfrom[i]);
      mem_free(m, cm->yto[i]);
    }
    mem_free(m, cm->yfrom);
    mem_free(m, cm->yto);
  }
  mem_free(m, p->cmds);
  for (size_t k = 0; k < p->nres; k++) {
    rx_free(&p->res[k]->rx);
    mem_free(m, p->res[k]);
  }
  mem_free(m, p->res);
  while (p->wfiles) {
    sd_wfile *w = p->wfiles;
    p->wfiles = w->next;
    if (w->s)
      stream_unref(w->s);
    mem_free(m, w->name);
    mem_free(m, w);
  }
  while (p->rfiles) {
    sd_rfile *f = p->rfiles;
    p->rfiles = f->next;
    if (f->rd) {
      rd_free(f->rd);
      mem_free(m, f->rd);
    }
    if (f->s)
      stream_unref(f->s);
    mem_free(m, f->name);
    mem_free(m, f);
  }
  if (p->env_ok)
    rx_env_free(&p->env);
  p->env_ok = 0;
}
