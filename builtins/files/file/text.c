/*
 * text.c - file 5.44's reading of a text: its encoding (ASCII, UTF-8 with
 * or without a BOM, UTF-16 with a BOM, ISO-8859, non-ISO extended ASCII),
 * what it holds (JSON, CSV, scripts by their #! line, XML, HTML, C source)
 * and its line terminators, very long lines, escapes and overstriking.
 */
#include <string.h>
#include <strings.h>

#include "builtins/files/file/file.h"
#include "builtins/textutil.h"

enum { F = 0, T = 1, I = 2, X = 3 };
/* Which bytes appear in text: T in ASCII text (NEL, 0x85, among them), I
 * in ISO-8859 text, X in other extended ASCII, F never. */
static const unsigned char text_chars[256] = {
    F, F, F, F, F, F, F, T, T, T, T, T, T, T, F, F, /* 0x0X */
    F, F, F, F, F, F, F, F, F, F, F, T, F, F, F, F, /* 0x1X */
    T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, /* 0x2X */
    T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, /* 0x3X */
    T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, /* 0x4X */
    T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, /* 0x5X */
    T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, /* 0x6X */
    T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, F, /* 0x7X */
    X, X, X, X, X, T, X, X, X, X, X, X, X, X, X, X, /* 0x8X */
    X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, /* 0x9X */
    I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, /* 0xaX */
    I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, /* 0xbX */
    I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, /* 0xcX */
    I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, /* 0xdX */
    I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, /* 0xeX */
    I, I, I, I, I, I, I, I, I, I, I, I, I, I, I, I  /* 0xfX */
};

enum { E_ASCII, E_UTF8, E_UTF8BOM, E_UTF16LE, E_UTF16BE, E_LATIN1, E_EXT };

/* Whether every byte is of class <= max. */
static int all_class(const unsigned char *p, size_t n, int max) {
  for (size_t i = 0; i < n; i++)
    if (text_chars[p[i]] == F || text_chars[p[i]] > max)
      return 0;
  return 1;
}

/* file's UTF-8 test: 1 ASCII only, 2 with other characters, 0 not UTF-8. */
static int looks_utf8(const unsigned char *p, size_t n) {
  int other = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned c = p[i];
    if (c < 0x80) {
      if (text_chars[c] != T)
        return 0;
      continue;
    }
    if ((c & 0x40) == 0)
      return 0;
    int follow = !(c & 0x20)   ? 1
                 : !(c & 0x10) ? 2
                 : !(c & 0x08) ? 3
                 : !(c & 0x04) ? 4
                 : !(c & 0x02) ? 5
                               : -1;
    if (follow < 0)
      return 0;
    for (int k = 0; k < follow; k++)
      if (++i >= n || (p[i] & 0xC0) != 0x80)
        return 0;
    other = 1;
  }
  return 1 + other;
}

static int looks_utf16(const unsigned char *p, size_t n, int big) {
  if (n < 2)
    return 0;
  for (size_t i = 2; i + 1 < n; i += 2) {
    unsigned u =
        big ? (unsigned)p[i] << 8 | p[i + 1] : (unsigned)p[i + 1] << 8 | p[i];
    if (u == 0xFFFE)
      return 0;
    if (u < 128 && text_chars[u] != T)
      return 0;
  }
  return 1;
}

/* Line terminators and the rest, counted over the characters. */
typedef struct lines {
  size_t crlf, cr, lf, nel, maxlen;
  int esc, bs;
} lines;

static uint32_t next_char(const unsigned char *p, size_t n, size_t *i, int e) {
  if (e == E_UTF16LE || e == E_UTF16BE) {
    if (*i + 1 >= n) {
      *i = n;
      return 0;
    }
    uint32_t u = e == E_UTF16BE ? (uint32_t)p[*i] << 8 | p[*i + 1]
                                : (uint32_t)p[*i + 1] << 8 | p[*i];
    *i += 2;
    return u;
  }
  uint32_t c = p[(*i)++];
  if ((e == E_UTF8 || e == E_UTF8BOM) && c >= 0xC0) {
    int follow = !(c & 0x20) ? 1 : !(c & 0x10) ? 2 : 3;
    c &= 0x3F >> follow;
    for (int k = 0; k < follow && *i < n; k++)
      c = c << 6 | (p[(*i)++] & 0x3F);
  }
  return c;
}

static void count_lines(bi_ctx *c, const unsigned char *p, size_t n, int e,
                        lines *l) {
  memset(l, 0, sizeof *l);
  size_t i = e == E_UTF8BOM ? 3 : (e == E_UTF16LE || e == E_UTF16BE) ? 2 : 0;
  size_t k = 0, last = (size_t)-1;
  int seen_cr = 0;
  for (; i < n; k++) {
    if ((k & 0xFFFF) == 0 && budget_poll(c->bud))
      return;
    uint32_t ch = next_char(p, n, &i, e);
    if (ch == '\n') {
      if (seen_cr)
        l->crlf++;
      else
        l->lf++;
      last = k;
    } else if (seen_cr) {
      l->cr++;
    }
    seen_cr = ch == '\r';
    if (seen_cr)
      last = k;
    if (ch == 0x85) {
      l->nel++;
      last = k;
    }
    if (k > last + 300 && k - last > l->maxlen)
      l->maxlen = k - last;
    if (ch == 033)
      l->esc = 1;
    if (ch == '\b')
      l->bs = 1;
  }
  if (seen_cr)
    l->cr++;
}

/* ---- JSON, as file's lenient parser reads it --------------------------- */

static void ws(const unsigned char **s, const unsigned char *e, int *nl) {
  while (*s < e && (**s == ' ' || **s == '\t' || **s == '\n' || **s == '\r')) {
    if (**s == '\n' && nl)
      (*nl)++;
    (*s)++;
  }
}

/* The parse's budget: polled every 4096 values, the parse fails once it
 * says stop. */
typedef struct jctx {
  budget *bud;
  unsigned steps;
  int stop;
} jctx;

static int json_value(jctx *j, const unsigned char **s, const unsigned char *e,
                      int depth);

static int json_string(const unsigned char **s, const unsigned char *e) {
  const unsigned char *p = *s + 1;
  while (p < e) {
    if (*p == '"') {
      *s = p + 1;
      return 1;
    }
    if (*p == '\\') {
      if (++p >= e)
        return 0;
      if (*p == 'u') {
        for (int i = 0; i < 4; i++)
          if (++p >= e || !strchr("0123456789abcdefABCDEF", *p) || !*p)
            return 0;
      } else if (!strchr("\"\\/bfnrt", *p) || !*p) {
        return 0;
      }
    } else if (*p < 0x20) {
      return 0;
    }
    p++;
  }
  return 0;
}

static int json_number(const unsigned char **s, const unsigned char *e) {
  const unsigned char *p = *s;
  if (p < e && *p == '-')
    p++;
  const unsigned char *d = p;
  while (p < e && *p >= '0' && *p <= '9')
    p++;
  if (p == d)
    return 0;
  if (p < e && *p == '.') {
    p++;
    while (p < e && *p >= '0' && *p <= '9')
      p++;
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < e && (*p == '+' || *p == '-'))
      p++;
    while (p < e && *p >= '0' && *p <= '9')
      p++;
  }
  *s = p;
  return 1;
}

static int json_seq(jctx *j, const unsigned char **s, const unsigned char *e,
                    int depth, int obj) {
  const unsigned char *p = *s + 1;
  char close = obj ? '}' : ']';
  while (p < e) {
    ws(&p, e, NULL);
    if (p < e && *p == close) {
      *s = p + 1;
      return 1;
    }
    if (obj) {
      if (p >= e || *p != '"' || !json_string(&p, e))
        return 0;
      ws(&p, e, NULL);
      if (p >= e || *p != ':')
        return 0;
      p++;
    }
    if (!json_value(j, &p, e, depth + 1))
      return 0;
    ws(&p, e, NULL);
    if (p < e && *p == ',') {
      p++;
      continue;
    }
    if (p < e && *p == close) {
      *s = p + 1;
      return 1;
    }
    return 0;
  }
  return 0;
}

static int json_value(jctx *j, const unsigned char **s, const unsigned char *e,
                      int depth) {
  if ((++j->steps & 4095) == 0 && budget_poll(j->bud))
    j->stop = 1;
  ws(s, e, NULL);
  if (*s >= e || depth > 200 || j->stop)
    return 0;
  switch (**s) {
  case '{':
    return json_seq(j, s, e, depth, 1);
  case '[':
    return json_seq(j, s, e, depth, 0);
  case '"':
    return json_string(s, e);
  }
  static const char *const lit[] = {"true", "false", "null"};
  for (int i = 0; i < 3; i++) {
    size_t l = strlen(lit[i]);
    if ((size_t)(e - *s) >= l && memcmp(*s, lit[i], l) == 0) {
      *s += l;
      return 1;
    }
  }
  return json_number(s, e);
}

/* 0 not JSON, 1 JSON, 2 newline-delimited JSON. */
static int is_json(bi_ctx *c, const unsigned char *p, size_t n) {
  const unsigned char *s = p, *e = p + n;
  jctx j = {c->bud, 0, 0};
  int count = 0;
  for (;;) {
    int nl = 0;
    ws(&s, e, &nl);
    if (s >= e)
      break;
    if (count && !nl)
      return 0;
    if (*s != '{' && *s != '[')
      return 0;
    if (!json_value(&j, &s, e, 0))
      return 0;
    count++;
  }
  return count == 0 ? 0 : count == 1 ? 1 : 2;
}

/* CSV: the same number (more than none) of separators on every line of
 * the first ten, over more than two lines. */
static int is_csv(const unsigned char *p, size_t n) {
  size_t nl = 0, nf = 0, tf = 0;
  int quote = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = p[i];
    if (quote) {
      if (ch == '"') {
        if (i + 1 < n && p[i + 1] == '"')
          i++;
        else
          quote = 0;
      }
      continue;
    }
    if (ch == '"') {
      quote = 1;
    } else if (ch == ',') {
      nf++;
    } else if (ch == '\n') {
      nl++;
      if (nl == 10)
        return tf && tf == nf;
      if (tf == 0) {
        if (nf == 0)
          return 0;
        tf = nf;
      } else if (tf != nf) {
        return 0;
      }
      nf = 0;
    }
  }
  return tf && nl > 2;
}

/* ---- scripts ------------------------------------------------------------ */

enum { S_TEXT, S_NODE, S_PERL };
static const struct {
  const char *path; /* after "#!" and blanks */
  int prefix;       /* any character may follow, not only a blank */
  const char *desc;
  const char *mime;
  int form;
} scripts[] = {
    {"/bin/sh", 0, "POSIX shell script", "text/x-shellscript", S_TEXT},
    {"/bin/bash", 0, "Bourne-Again shell script", "text/x-shellscript", S_TEXT},
    {"/usr/bin/bash", 0, "Bourne-Again shell script", "text/x-shellscript",
     S_TEXT},
    {"/usr/local/bin/bash", 0, "Bourne-Again shell script",
     "text/x-shellscript", S_TEXT},
    {"/usr/bin/env bash", 0, "Bourne-Again shell script", "text/x-shellscript",
     S_TEXT},
    {"/bin/zsh", 0, "Paul Falstad's zsh script", "text/x-shellscript", S_TEXT},
    {"/usr/bin/zsh", 0, "Paul Falstad's zsh script", "text/x-shellscript",
     S_TEXT},
    {"/usr/local/bin/zsh", 0, "Paul Falstad's zsh script", "text/x-shellscript",
     S_TEXT},
    {"/usr/bin/env zsh", 0, "Paul Falstad's zsh script", "text/x-shellscript",
     S_TEXT},
    {"/bin/csh", 0, "C shell script", "text/x-shellscript", S_TEXT},
    {"/bin/ksh", 0, "Korn shell script", "text/x-shellscript", S_TEXT},
    {"/bin/tcsh", 0, "Tenex C shell script", "text/x-shellscript", S_TEXT},
    {"/usr/bin/tcsh", 0, "Tenex C shell script", "text/x-shellscript", S_TEXT},
    {"/usr/local/bin/tcsh", 0, "Tenex C shell script", "text/x-shellscript",
     S_TEXT},
    {"/bin/awk", 0, "awk script", "text/x-awk", S_TEXT},
    {"/usr/bin/awk", 0, "awk script", "text/x-awk", S_TEXT},
    {"/bin/gawk", 0, "GNU awk script", "text/x-gawk", S_TEXT},
    {"/usr/bin/gawk", 0, "GNU awk script", "text/x-gawk", S_TEXT},
    {"/usr/local/bin/gawk", 0, "GNU awk script", "text/x-gawk", S_TEXT},
    {"/usr/bin/nawk", 0, "new awk script", "text/x-nawk", S_TEXT},
    {"/usr/local/bin/nawk", 0, "new awk script", "text/x-nawk", S_TEXT},
    {"/usr/bin/python", 1, "Python script", "text/x-script.python", S_TEXT},
    {"/usr/local/bin/python", 1, "Python script", "text/x-script.python",
     S_TEXT},
    {"/usr/bin/env python", 1, "Python script", "text/x-script.python", S_TEXT},
    {"/usr/bin/ruby", 1, "Ruby script", "text/x-ruby", S_TEXT},
    {"/usr/local/bin/ruby", 1, "Ruby script", "text/x-ruby", S_TEXT},
    {"/usr/bin/env ruby", 1, "Ruby script", "text/x-ruby", S_TEXT},
    {"/usr/bin/lua", 1, "Lua script", "text/x-lua", S_TEXT},
    {"/usr/local/bin/lua", 1, "Lua script", "text/x-lua", S_TEXT},
    {"/usr/bin/env lua", 1, "Lua script", "text/x-lua", S_TEXT},
    {"/usr/bin/php", 1, "PHP script", "text/x-php", S_TEXT},
    {"/usr/local/bin/php", 1, "PHP script", "text/x-php", S_TEXT},
    {"/usr/bin/tclsh", 1, "Tcl/Tk script", "text/x-tcl", S_TEXT},
    {"/usr/local/bin/tclsh", 1, "Tcl script", "text/x-tcl", S_TEXT},
    {"/usr/bin/env tclsh", 1, "Tcl script", "text/x-tcl", S_TEXT},
    {"/usr/bin/wish", 1, "Tcl/Tk script", "text/x-tcl", S_TEXT},
    {"/usr/local/bin/wish", 1, "Tcl/Tk script", "text/x-tcl", S_TEXT},
    {"/usr/bin/env wish", 1, "Tcl/Tk script", "text/x-tcl", S_TEXT},
    {"/bin/node", 0, "Node.js script executable", "application/javascript",
     S_NODE},
    {"/usr/bin/node", 0, "Node.js script executable", "application/javascript",
     S_NODE},
    {"/bin/nodejs", 0, "Node.js script executable", "application/javascript",
     S_NODE},
    {"/usr/bin/nodejs", 0, "Node.js script executable",
     "application/javascript", S_NODE},
    {"/usr/bin/env node", 0, "Node.js script executable",
     "application/javascript", S_NODE},
    {"/usr/bin/env nodejs", 0, "Node.js script executable",
     "application/javascript", S_NODE},
    {"/bin/perl", 1, "Perl script text executable", "text/x-perl", S_PERL},
    {"/usr/bin/perl", 1, "Perl script text executable", "text/x-perl", S_PERL},
    {"/usr/local/bin/perl", 1, "Perl script text executable", "text/x-perl",
     S_PERL},
    {"/usr/bin/env perl", 1, "Perl script text executable", "text/x-perl",
     S_PERL},
};

/* The entry for a "#!" line at p (-1: none), and where its command starts. */
static int shebang(const unsigned char *p, size_t n, size_t *cmd) {
  if (n < 2 || p[0] != '#' || p[1] != '!')
    return -1;
  size_t i = 2;
  while (i < n && (p[i] == ' ' || p[i] == '\t'))
    i++;
  *cmd = i;
  for (size_t k = 0; k < sizeof scripts / sizeof *scripts; k++) {
    size_t l = strlen(scripts[k].path);
    if (n - i < l || memcmp(p + i, scripts[k].path, l) != 0)
      continue;
    if (scripts[k].prefix)
      return (int)k;
    if (i + l < n && strchr(" \t\r\n", p[i + l]) && p[i + l])
      return (int)k;
  }
  return -1;
}

/* ---- markup and source --------------------------------------------------- */

static int html(const unsigned char *p, size_t n) {
  static const char *const tags[] = {"html",   "head",  "title",
                                     "script", "style", "table"};
  if (n > 4096)
    n = 4096;
  for (size_t i = 0; i < n; i++) {
    if (p[i] != '<')
      continue;
    const char *s = (const char *)p + i + 1;
    size_t left = n - i - 1;
    if (left >= 13 && strncasecmp(s, "!doctype html", 13) == 0)
      return 1;
    if (left >= 7 && strncasecmp(s, "a href=", 7) == 0)
      return 1;
    for (int t = 0; t < 6; t++) {
      size_t l = strlen(tags[t]);
      if (left > l && strncasecmp(s, tags[t], l) == 0 &&
          (s[l] == '>' || s[l] == ' '))
        return 1;
    }
  }
  return 0;
}

/* The line of p[0..n) holding offset i: its start and end (no '\n'). */
static void line_at(const unsigned char *p, size_t n, size_t i, size_t *b,
                    size_t *e) {
  *b = i;
  while (*b && p[*b - 1] != '\n')
    (*b)--;
  *e = i;
  while (*e < n && p[*e] != '\n')
    (*e)++;
}

static int is_ident(unsigned char ch, int digits) {
  return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (digits && ch >= '0' && ch <= '9');
}

static int is_space(unsigned char ch) {
  return ch == ' ' || ch == '\t' || ch == '\f' || ch == '\r' || ch == '\n';
}

/* Python without a #! line, by the statements magic's python tests look
 * for in the first 8 KiB: "from M import", "def __init__(self",
 * try/except, "class Name(...):", "def name(...):". */
static int python_src(const unsigned char *p, size_t n) {
  if (n > 8192)
    n = 8192;
  size_t n4 = n < 4096 ? n : 4096; /* where the key words are looked for */
  const unsigned char *t;
  if ((t = memmem(p, n4, "def __init__", 12))) {
    size_t at = (size_t)(t - p) + 12;
    if (memmem(p + at, n - at < 64 ? n - at : 64, "self", 4))
      return 1;
  }
  if ((t = memmem(p, n4, "try:", 4))) {
    size_t at = (size_t)(t - p) + 4;
    if (memmem(p + at, n - at < 4096 ? n - at : 4096, "finally:", 8))
      return 1;
    for (size_t i = at; i < n; i++) {
      if (p[i - 1] != '\n')
        continue;
      size_t k = i, b, e;
      while (k < n && is_space(p[k]) && p[k] != '\n')
        k++;
      line_at(p, n, k, &b, &e);
      if (e - k >= 7 && memcmp(p + k, "except", 6) == 0 && p[e - 1] == ':')
        return 1;
    }
  }
  int has_class = memmem(p, n4, "class", 5) != NULL;
  int has_def = memmem(p, n4, "def ", 4) != NULL;
  int has_import = memmem(p, n, "import", 6) != NULL;
  for (size_t i = 0; i < n; i++) {
    if (i && p[i - 1] != '\n')
      continue;
    size_t b, e;
    line_at(p, n, i, &b, &e);
    if (has_import && e - i > 5 && memcmp(p + i, "from", 4) == 0 &&
        is_space(p[i + 4])) {
      /* from MODULE import ... */
      size_t k = i + 4;
      while (k < e && is_space(p[k]))
        k++;
      size_t m = k;
      while (k < e && (is_ident(p[k], 1) || p[k] == '.'))
        k++;
      if (k > m && k < e && is_space(p[k])) {
        while (k < e && is_space(p[k]))
          k++;
        if (e - k >= 6 && memcmp(p + k, "import", 6) == 0)
          return 1;
      }
    }
    if (has_class && e - i > 7 && memcmp(p + i, "class ", 6) == 0) {
      /* class Name[(...)] *:[ pass] */
      size_t k = i + 6, m = k;
      while (k < e && is_ident(p[k], 0))
        k++;
      if (k > m) {
        if (k < e && p[k] == '(') {
          const unsigned char *cl = NULL;
          for (size_t q = e; q > k; q--)
            if (p[q - 1] == ')') {
              cl = p + q - 1;
              break;
            }
          k = cl ? (size_t)(cl - p) + 1 : e;
        }
        while (k < e && p[k] == ' ')
          k++;
        if (k < e && p[k] == ':' &&
            (k + 1 == e || (e - k - 1 >= 5 && is_space(p[k + 1]) &&
                            memcmp(p + e - 4, "pass", 4) == 0)))
          return 1;
      }
    }
    /* [blanks]def name(...): */
    size_t k = i;
    while (k < e && is_space(p[k]))
      k++;
    if (has_def && e - k > 6 && memcmp(p + k, "def ", 4) == 0) {
      size_t m = k + 4;
      while (m < e && is_ident(p[m], 0))
        m++;
      if (m > k + 4 && p[m] == '(' && p[e - 1] == ':' && p[e - 2] == ')')
        return 1;
    }
  }
  return 0;
}

/* The first non-blank of the line starting at i, before e. */
static size_t skip_blanks(const unsigned char *p, size_t i, size_t e) {
  while (i < e && (p[i] == ' ' || p[i] == '\t' || p[i] == '\f' ||
                   p[i] == '\r' || p[i] == '\v'))
    i++;
  return i;
}

static int starts(const unsigned char *p, size_t i, size_t e, const char *w) {
  size_t l = strlen(w);
  return e - i >= l && memcmp(p + i, w, l) == 0;
}

/* C and C++ by the lines magic's c-lang tests look for in the first
 * 8 KiB: 2 C++ (namespace, template, virtual, public:/private:/
 * protected:, a class with braces), 1 C (#include, #pragma, #ifdef or
 * #ifndef followed by #define or #endif, "main(...) {", a struct after a
 * comment at the start), 0 neither. */
static int c_src(const unsigned char *p, size_t n) {
  if (n > 8192)
    n = 8192;
  int c = 0, ifdef = 0, class_scanned = 0;
  for (size_t i = 0; i < n; i++) {
    if (i && p[i - 1] != '\n')
      continue;
    size_t b, e;
    line_at(p, n, i, &b, &e);
    size_t k = skip_blanks(p, i, e);
    if (starts(p, i, e, "namespace") && i + 9 < e && is_space(p[i + 9])) {
      /* the brace may be on a line of its own */
      size_t m = i + 9;
      while (m < n && is_space(p[m]))
        m++;
      size_t q = m;
      while (q < n && q - m <= 30 && is_ident(p[q], 0))
        q++;
      size_t r = q;
      while (r < n && is_space(p[r]))
        r++;
      if (q > m && q - m <= 30 && r < n && p[r] == '{')
        return 2;
    }
    if (starts(p, i, e, "template")) {
      size_t m = skip_blanks(p, i + 8, e);
      size_t last = e;
      while (last > m && is_space(p[last - 1]))
        last--;
      if (m < e && p[m] == '<' && last > m && p[last - 1] == '>')
        return 2;
    }
    if (starts(p, k, e, "virtual") && k + 7 < e && is_space(p[k + 7])) {
      size_t last = e;
      while (last > k && is_space(p[last - 1]))
        last--;
      if (p[last - 1] == '}' || p[last - 1] == ';')
        return 2;
    }
    if (starts(p, k, e, "public:") || starts(p, k, e, "private:") ||
        starts(p, k, e, "protected:"))
      return 2;
    if (starts(p, k, e, "class") && k + 5 < e && is_space(p[k + 5])) {
      size_t m = skip_blanks(p, k + 5, e), q = m;
      while (q < e && (is_ident(p[q], 1) || p[q] == ':'))
        q++;
      q = skip_blanks(p, q, e);
      if (q > m && q < e && p[q] == '{' && !class_scanned) {
        /* a line ending in } or }; after it (one look suffices: a later
         * class would find only part of what this one did) */
        class_scanned = 1;
        for (size_t r = q; r < n; r++) {
          if (p[r] != '}')
            continue;
          size_t t = r + 1;
          if (t < n && p[t] == ';')
            t++;
          if (t == n || p[t] == '\n')
            return 2;
        }
      }
    }
    /* a comment first, then a struct */
    if (n >= 2 && p[0] == '/' && p[1] == '*' && starts(p, i, e, "struct") &&
        i + 6 < e && is_space(p[i + 6]))
      c = 1;
    if (p[i] == '#') {
      size_t m = skip_blanks(p, i + 1, e);
      if (m == i + 1 && starts(p, m, e, "include"))
        c = 1;
      if (starts(p, m, e, "pragma"))
        c = 1;
      /* an #ifdef or #ifndef, then a #define or #endif */
      if (ifdef && (starts(p, m, e, "define") || starts(p, m, e, "endif")))
        c = 1;
      if (starts(p, m, e, "ifdef") || starts(p, m, e, "ifndef"))
        ifdef = 1;
    }
  }
  if (!c) {
    const unsigned char *t = memmem(p, n, "main(", 5);
    for (size_t r = t ? (size_t)(t - p) + 5 : n; r < n; r++) {
      if (p[r] != ')')
        continue;
      size_t q = r + 1;
      while (q < n && is_space(p[q]))
        q++;
      if (q < n && p[q] == '{') {
        c = 1;
        break;
      }
    }
  }
  return c;
}

/* JavaScript: a "use strict" line, or a require() assigned to a name. */
static int js_src(const unsigned char *p, size_t n) {
  if (n > 8192)
    n = 8192;
  for (size_t i = 0; i < n; i++) {
    if (i && p[i - 1] != '\n')
      continue;
    size_t b, e;
    line_at(p, n, i, &b, &e);
    if (starts(p, i, e, "\"use strict\"") || starts(p, i, e, "'use strict'"))
      return 1;
    if (starts(p, i, e, "const") || starts(p, i, e, "var") ||
        starts(p, i, e, "let")) {
      const unsigned char *eq = memchr(p + i, '=', e - i);
      const unsigned char *rq =
          eq ? memmem(eq, e - (size_t)(eq - p), "require", 7) : NULL;
      if (rq) {
        size_t q = (size_t)(rq - p) + 7;
        while (q < e && is_space(p[q]))
          q++;
        if (q < e && p[q] == '(')
          return 1;
      }
    }
  }
  return 0;
}

/* Perl documentation and modules. 1 POD, 2 module, 0 neither. */
static int perl_src(const unsigned char *p, size_t n) {
  static const char *const pod[] = {"=pod\n", "=head1 ", "=head2 ", NULL};
  size_t lim = n < 1024 ? n : 1024;
  for (int k = 0; pod[k]; k++) {
    size_t l = strlen(pod[k]);
    if (lim >= l && memcmp(p, pod[k], l) == 0)
      return 1;
    for (size_t i = 1; i + l <= lim; i++)
      if (p[i - 1] == '\n' && memcmp(p + i, pod[k], l) == 0)
        return 1;
  }
  if (n > 8192)
    n = 8192;
  for (size_t i = 0; i + 8 < n; i++) {
    if ((i && p[i - 1] != '\n') || memcmp(p + i, "package", 7) != 0)
      continue;
    size_t k = i + 7;
    if (p[k] != ' ' && p[k] != '\t')
      continue;
    while (k < n && (p[k] == ' ' || p[k] == '\t'))
      k++;
    size_t m = k;
    while (k < n && (is_ident(p[k], 1) || p[k] == ':'))
      k++;
    while (k < n && p[k] == ' ')
      k++;
    if (k > m && k < n && p[k] == ';')
      return 2;
  }
  return 0;
}

int fl_text(bi_ctx *c, const unsigned char *p, size_t full, fl_kind *k) {
  int e;
  /* the encoding and the lines are judged on the first 64 KiB, as file's
   * encoding limit has it; JSON on all that was read */
  size_t n = full < 65536 ? full : 65536, n0 = n;
  /* NUL bytes at the end do not make a text binary (a #! script's do:
   * file tells those in binary data) */
  while (n > 1 && p[n - 1] == 0 && !(p[0] == '#' && p[1] == '!'))
    n--;
  if (full > n && full <= 65536)
    full = n;
  const char *code;
  if (all_class(p, n, T)) {
    e = E_ASCII, code = "ASCII", k->charset = "us-ascii";
  } else if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 &&
             looks_utf8(p + 3, n - 3)) {
    e = E_UTF8BOM, code = "Unicode text, UTF-8 (with BOM)";
    k->charset = "utf-8";
  } else if (looks_utf8(p, n) == 2) {
    e = E_UTF8, code = "Unicode text, UTF-8", k->charset = "utf-8";
  } else if (n0 >= 2 && p[0] == 0xFF && p[1] == 0xFE && looks_utf16(p, n0, 0)) {
    /* a UTF-16 text keeps its last NUL: it is half of a character */
    e = E_UTF16LE, code = "Unicode text, UTF-16, little-endian";
    k->charset = "utf-16le";
    n = n0;
  } else if (n0 >= 2 && p[0] == 0xFE && p[1] == 0xFF && looks_utf16(p, n0, 1)) {
    e = E_UTF16BE, code = "Unicode text, UTF-16, big-endian";
    k->charset = "utf-16be";
    n = n0;
  } else if (all_class(p, n, I)) {
    e = E_LATIN1, code = "ISO-8859", k->charset = "iso-8859-1";
  } else if (all_class(p, n, X)) {
    e = E_EXT, code = "Non-ISO extended-ASCII", k->charset = "unknown-8bit";
  } else {
    return 0;
  }
  buf *d = k->d;
  k->mime = "text/plain";
  int bytes = e == E_ASCII || e == E_UTF8 || e == E_LATIN1 || e == E_EXT;
  int j = bytes ? is_json(c, p, full) : 0;
  if (j) {
    buf_puts(d,
             j == 1 ? "JSON text data" : "New Line Delimited JSON text data");
    k->mime = j == 1 ? "application/json" : "application/x-ndjson";
    return 1;
  }
  if (e == E_ASCII && is_csv(p, n)) {
    buf_puts(d, "CSV text");
    k->mime = "text/csv";
    return 1;
  }
  size_t cmd = 0;
  int s = bytes ? shebang(p, n, &cmd) : -1;
  int exec = 0, pl, cs;
  if (s >= 0 && scripts[s].form == S_PERL) {
    buf_puts(d, scripts[s].desc);
    k->mime = scripts[s].mime;
    return 1;
  }
  if (s >= 0) {
    buf_printf(d, "%s, ", scripts[s].desc);
    k->mime = scripts[s].mime;
    exec = scripts[s].form == S_TEXT;
  } else if (bytes && n >= 2 && p[0] == '#' && p[1] == '!') {
    /* any other interpreter: "a CMD ARGS script" */
    size_t i = cmd, end = cmd;
    while (end < n && p[end] != '\n')
      end++;
    if (end - i >= 13 && memcmp(p + i, "/usr/bin/env ", 13) == 0)
      i += 13;
    buf_puts(d, "a ");
    if (e == E_LATIN1 || e == E_EXT) {
      /* file reads the line after turning the text into UTF-8 */
      for (size_t q = i; q < end; q++) {
        char u[4];
        buf_append(d, u, tu_utf8_put(p[q], u));
      }
    } else {
      buf_append(d, (const char *)p + i, end - i);
    }
    buf_puts(d, " script, ");
    k->mime = "text/plain";
    exec = 1;
  } else if (bytes && n >= 19 && memcmp(p, "<?xml version=\"", 15) == 0) {
    if (memmem(p, n < 4096 ? n : 4096, "<svg", 4)) {
      buf_puts(d, "SVG Scalable Vector Graphics image");
      k->mime = "image/svg+xml";
      return 1;
    }
    buf_printf(d, "XML %.3s document, ", (const char *)p + 15);
    k->mime = "text/xml";
  } else if (bytes && python_src(p, n)) {
    buf_puts(d, "Python script, ");
    k->mime = "text/x-script.python";
    exec = 1;
  } else if (bytes && (pl = perl_src(p, n))) {
    buf_puts(d, pl == 1 ? "Perl POD document, " : "Perl5 module source, ");
    k->mime = "text/x-perl";
  } else if (bytes && (cs = c_src(p, n))) {
    buf_puts(d, cs == 2 ? "C++ source, " : "C source, ");
    k->mime = cs == 2 ? "text/x-c++" : "text/x-c";
  } else if (bytes && js_src(p, n)) {
    buf_puts(d, "JavaScript source, ");
    k->mime = "application/javascript";
  } else if (bytes && html(p, n)) {
    buf_puts(d, "HTML document, ");
    k->mime = "text/html";
  }
  buf_printf(d, "%s text", code);
  if (exec)
    buf_puts(d, " executable");
  lines l;
  count_lines(c, p, n, e, &l);
  if (l.maxlen)
    buf_printf(d, ", with very long lines (%zu)", l.maxlen);
  if ((l.crlf | l.cr | l.lf | l.nel) == 0 || l.crlf || l.cr || l.nel) {
    buf_puts(d, ", with");
    if ((l.crlf | l.cr | l.lf | l.nel) == 0) {
      buf_puts(d, " no");
    } else {
      const char *sep = "";
      if (l.crlf) {
        buf_printf(d, "%s CRLF", sep);
        sep = ",";
      }
      if (l.cr) {
        buf_printf(d, "%s CR", sep);
        sep = ",";
      }
      if (l.lf) {
        buf_printf(d, "%s LF", sep);
        sep = ",";
      }
      if (l.nel)
        buf_printf(d, "%s NEL", sep);
    }
    buf_puts(d, " line terminators");
  }
  if (l.esc)
    buf_puts(d, ", with escape sequences");
  if (l.bs)
    buf_puts(d, ", with overstriking");
  return 1;
}

int fl_script_binary(const unsigned char *p, size_t n, fl_kind *k) {
  size_t cmd = 0;
  if (n < 2 || p[0] != '#' || p[1] != '!')
    return 0;
  int s = shebang(p, n, &cmd);
  k->charset = "binary";
  if (s >= 0 && scripts[s].form == S_PERL) {
    buf_puts(k->d, scripts[s].desc);
    k->mime = scripts[s].mime;
    return 1;
  }
  /* the shells and awks are known in binary data too, the others not */
  if (s >= 0 && (strcmp(scripts[s].mime, "text/x-shellscript") == 0 ||
                 strstr(scripts[s].mime, "awk"))) {
    buf_printf(k->d, "%s executable (binary data)", scripts[s].desc);
    k->mime = scripts[s].mime;
    return 1;
  }
  size_t i = cmd, end = cmd;
  while (end < n && p[end] != '\n')
    end++;
  if (end - i >= 13 && memcmp(p + i, "/usr/bin/env ", 13) == 0)
    i += 13;
  buf_puts(k->d, "a ");
  buf_append(k->d, (const char *)p + i, end - i);
  buf_puts(k->d, " script executable (binary data)");
  k->mime = "application/octet-stream";
  return 1;
}
