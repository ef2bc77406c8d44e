/*
 * lex.c - characters to tokens and words for the bash parser.
 *
 * Words are built into parts (ast.h) as they are read, so quoting survives
 * as structure. The lexer reads from a stack of inputs (script text, alias
 * values, backtick bodies, here-document bodies); $(...) bodies are parsed
 * in place by calling back into the grammar, which is how bash 5.2 finds
 * the closing parenthesis of `$(case x in a) ...;; esac)`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shell/syntax/lex.h"

/* ---- memory and errors ------------------------------------------------- */

void *sh_alloc(sh_parser *p, size_t n) {
  void *r = arena_calloc(p->a, n);
  if (!r) {
    p->fatal = 1;
    sh_fail(p, 0, "out of memory");
  }
  return r;
}

char *sh_strndup(sh_parser *p, const char *s, size_t n) {
  char *r = arena_strndup(p->a, s, n);
  if (!r) {
    p->fatal = 1;
    sh_fail(p, 0, "out of memory");
  }
  return r;
}

/* Grow an arena array to hold n+1 elements. The old block is abandoned to
 * the arena: arrays here are small and short-lived in number. */
void *sh_grow(sh_parser *p, void *v, size_t *cap, size_t n, size_t elsz) {
  if (n < *cap)
    return v;
  size_t nc = *cap ? *cap * 2 : 4;
  void *nv = sh_alloc(p, nc * elsz);
  if (n)
    memcpy(nv, v, n * elsz);
  *cap = nc;
  return nv;
}

void sh_fail(sh_parser *p, int incomplete, const char *fmt, ...) {
  if (!p->err) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    /* The message must survive even when the arena is full. */
    char *m = arena_strdup(p->a, tmp);
    p->err = m ? m : "out of memory";
    p->err_line = p->line;
  }
  p->incomplete = incomplete;
  if (!incomplete && !p->fatal && p->cmdsub_depth)
    p->cmdsub_err = 1;
  p->failed = 1;
  longjmp(*p->jb, 1);
}

/* The line bash reports for an error found at the end of the input: the
 * line after the last one. */
static int eof_line(sh_parser *p) {
  const sh_input *in = &p->base;
  if (!p->virt_nl && in->len && in->s[in->len - 1] != '\n')
    return p->line + 1;
  return p->line;
}

_Noreturn void sh_fail_eof_match(sh_parser *p, int line, const char *what) {
  p->err = NULL;
  int l = line;
  const char *fmt = "unexpected EOF while looking for matching `%s'";
  char tmp[96];
  snprintf(tmp, sizeof tmp, fmt, what);
  char *m = arena_strdup(p->a, tmp);
  p->err = m ? m : "out of memory";
  p->err_line = l;
  p->incomplete = 1;
  p->failed = 1;
  longjmp(*p->jb, 1);
}

void sh_unexpected(sh_parser *p, const sh_tok *t) {
  if (t->kind == T_EOF && p->cmdsub_depth) {
    /* the end of input inside $(...) is reported against the ( */
    p->err = "unexpected EOF while looking for matching `)'";
    p->err_line = eof_line(p);
    p->incomplete = 1;
    p->failed = 1;
    longjmp(*p->jb, 1);
  }
  if (t->kind == T_EOF) {
    p->err = "syntax error: unexpected end of file";
    p->err_line = eof_line(p);
    p->incomplete = 1;
    p->failed = 1;
    longjmp(*p->jb, 1);
  }
  p->line = t->line;
  if (t->kind == T_NEWLINE)
    sh_fail(p, 0, "syntax error near unexpected token `newline'");
  int n = (int)(t->src_len > 200 ? 200 : t->src_len);
  sh_fail(p, 0, "syntax error near unexpected token `%.*s'", n, t->src);
}

void sh_enter(sh_parser *p) {
  if (++p->depth > SH_MAX_DEPTH) {
    p->fatal = 1;
    sh_fail(p, 0, "maximum nesting depth exceeded");
  }
}

void sh_leave(sh_parser *p) {
  p->depth--;
}

/* ---- input stack ------------------------------------------------------- */

void sh_push_input(sh_parser *p, const char *s, size_t len, const char *alias,
                   int boundary) {
  sh_input *in = sh_alloc(p, sizeof *in);
  in->s = s;
  in->len = len;
  in->alias = alias;
  in->boundary = boundary;
  in->trail_blank = alias && len && (s[len - 1] == ' ' || s[len - 1] == '\t');
  in->prev = p->in;
  p->in = in;
  p->alias_first = alias != NULL;
}

int sh_peekc_at(sh_parser *p, size_t k) {
  const sh_input *in = p->in;
  size_t pos = in->pos;
  for (;;) {
    if (pos + k < in->len)
      return (unsigned char)in->s[pos + k];
    k -= in->len - pos;
    if (in->boundary || !in->prev)
      return -1;
    in = in->prev;
    pos = in->pos;
  }
}

/* Drop exhausted alias inputs. Done lazily (at the next read or token), so
 * that while the word an alias produced is examined, the alias is still on
 * the stack and cannot expand itself again. */
static void settle(sh_parser *p) {
  while (p->in->pos >= p->in->len && !p->in->boundary && p->in->prev) {
    if (p->in->trail_blank)
      p->blank_alias_popped = 1;
    p->in = p->in->prev;
  }
}

int sh_getc_slow(sh_parser *p) {
  settle(p);
  sh_input *in = p->in;
  if (in->pos >= in->len)
    return -1;
  int c = (unsigned char)in->s[in->pos++];
  if (c == '\n' && in == &p->base)
    p->line++;
  return c;
}

const char *sh_here(sh_parser *p) {
  settle(p);
  return p->in->s + p->in->pos;
}

span sh_span_start(sh_parser *p) {
  settle(p);
  span s = {p->in, p->in->pos};
  return s;
}

size_t sh_span_len(sh_parser *p, span s) {
  if (p->in == s.in)
    return p->in->pos - s.pos;
  return s.in->len - s.pos;
}

const char *sh_span_ptr(span s) {
  return s.in->s + s.pos;
}

/* ---- word builder ------------------------------------------------------ */

void sh_wb_init(wbuild *b, sh_parser *p) {
  memset(b, 0, sizeof *b);
  b->p = p;
}

sh_part *sh_wb_push(wbuild *b, sh_part_kind k) {
  b->parts = sh_grow(b->p, b->parts, &b->cap, b->n, sizeof *b->parts);
  sh_part *pt = &b->parts[b->n++];
  memset(pt, 0, sizeof *pt);
  pt->kind = k;
  return pt;
}

void sh_wb_flush(wbuild *b) {
  if (!b->llen)
    return;
  size_t n = b->llen;
  b->llen = 0;
  sh_part *pt = sh_wb_push(b, WP_LIT);
  pt->quoted = b->lq;
  pt->u.lit.text = sh_strndup(b->p, b->lit, n);
  pt->u.lit.len = n;
}

sh_part *sh_wb_new(wbuild *b, sh_part_kind k) {
  sh_wb_flush(b);
  return sh_wb_push(b, k);
}

void sh_wb_addc(wbuild *b, int c, int quoted) {
  if (b->llen && b->lq != quoted)
    sh_wb_flush(b);
  b->lq = quoted;
  if (quoted)
    b->has_quotes = 1;
  if (b->llen + 1 >= b->lcap) {
    size_t nc = b->lcap ? b->lcap * 2 : 32;
    char *nl = sh_alloc(b->p, nc);
    if (b->llen)
      memcpy(nl, b->lit, b->llen);
    b->lit = nl;
    b->lcap = nc;
  }
  b->lit[b->llen++] = (char)c;
}

/* As n calls of sh_wb_addc, with one copy. */
void sh_wb_adds(wbuild *b, const char *s, size_t n, int quoted) {
  if (!n)
    return;
  if (b->llen && b->lq != quoted)
    sh_wb_flush(b);
  b->lq = quoted;
  if (quoted)
    b->has_quotes = 1;
  if (b->llen + n >= b->lcap) {
    size_t nc = b->lcap ? b->lcap * 2 : 32;
    while (b->llen + n >= nc)
      nc *= 2;
    char *nl = sh_alloc(b->p, nc);
    if (b->llen)
      memcpy(nl, b->lit, b->llen);
    b->lit = nl;
    b->lcap = nc;
  }
  memcpy(b->lit + b->llen, s, n);
  b->llen += n;
}

int sh_wb_empty(const wbuild *b) {
  return !b->n && !b->llen;
}

sh_word *sh_wb_word(wbuild *b) {
  sh_wb_flush(b);
  sh_word *w = sh_alloc(b->p, sizeof *w);
  w->parts = b->parts;
  w->nparts = b->n;
  w->flags = b->has_quotes ? SW_HAS_QUOTES : 0;
  return w;
}

/* ---- small predicates -------------------------------------------------- */

int sh_is_name_start(int c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int sh_is_name_char(int c) {
  return sh_is_name_start(c) || (c >= '0' && c <= '9');
}

int sh_is_digit(int c) {
  return c >= '0' && c <= '9';
}

int sh_is_blank(int c) {
  return c == ' ' || c == '\t';
}

/* Bytes that mean nothing special inside an unquoted word (WM_NORMAL):
 * no terminator, quote, expansion, tilde, extglob or assignment sign. */
static int plain_word_byte(int c) {
  switch (c) {
  case ' ':
  case '\t':
  case '\n':
  case ';':
  case '&':
  case '|':
  case '(':
  case ')':
  case '<':
  case '>':
  case '\\':
  case '\'':
  case '"':
  case '`':
  case '$':
  case '~':
  case '@':
  case '*':
  case '+':
  case '?':
  case '!':
  case '=':
    return 0;
  default:
    return 1;
  }
}

/* Characters that end an unquoted word. */
int sh_is_meta(int c) {
  return c == -1 || c == ' ' || c == '\t' || c == '\n' || c == ';' ||
         c == '&' || c == '|' || c == '(' || c == ')' || c == '<' || c == '>';
}

int sh_is_special_param(int c) {
  return c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!' ||
         c == '-';
}

int sh_is_name(const char *s, size_t n) {
  if (!n || !sh_is_name_start((unsigned char)s[0]))
    return 0;
  for (size_t i = 1; i < n; i++)
    if (!sh_is_name_char((unsigned char)s[i]))
      return 0;
  return 1;
}

const char *sh_word_plain(const sh_word *w) {
  if (!w || w->nparts != 1 || w->parts[0].kind != WP_LIT || w->parts[0].quoted)
    return NULL;
  return w->parts[0].u.lit.text;
}

void sh_skip_blanks(sh_parser *p) {
  for (;;) {
    int c = sh_peekc(p);
    if (sh_is_blank(c)) {
      sh_getc(p);
    } else if (c == '\\' && sh_peekc_at(p, 1) == '\n') {
      sh_getc(p);
      sh_getc(p);
    } else if (c == '#') {
      while ((c = sh_peekc(p)) != -1 && c != '\n')
        sh_getc(p);
    } else {
      return;
    }
  }
}

/* ---- word lexing ------------------------------------------------------- */

static void lex_dollar(sh_parser *p, wbuild *b, int dq);
static void lex_backtick(sh_parser *p, wbuild *b, int dq);

static void lex_squote(sh_parser *p, wbuild *b) {
  int line = p->line;
  sh_getc(p);
  b->has_quotes = 1;
  for (;;) {
    int c = sh_getc(p);
    if (c == -1)
      sh_fail_eof_match(p, line, "'");
    if (c == '\'')
      break;
    sh_wb_addc(b, c, 1);
  }
  /* '' must leave a (quoted, empty) trace so "" -> one empty field. */
  if (!b->llen || !b->lq) {
    sh_wb_flush(b);
    sh_part *pt = sh_wb_push(b, WP_LIT);
    pt->quoted = 1;
    pt->u.lit.text = "";
  }
}

static size_t put_utf8(char *o, unsigned long cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xc0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xe0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  /* Past U+10FFFF bash keeps the original (pre-2003) UTF-8 scheme. */
  int n = cp < 0x200000 ? 4 : cp < 0x4000000 ? 5 : cp < 0x80000000 ? 6 : 0;
  if (!n)
    return 0;
  static const unsigned char lead[] = {0, 0, 0, 0, 0xf0, 0xf8, 0xfc};
  for (int i = n - 1; i > 0; i--) {
    o[i] = (char)(0x80 | (cp & 0x3f));
    cp >>= 6;
  }
  o[0] = (char)(lead[n] | cp);
  return (size_t)n;
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

size_t sh_ansi_decode(const char *s, size_t n, char *out) {
  size_t o = 0, i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i++];
    if (c != '\\' || i == n) {
      out[o++] = (char)c;
      continue;
    }
    c = (unsigned char)s[i++];
    unsigned long v = 0;
    int k, d;
    switch (c) {
    case 'a':
      out[o++] = 7;
      break;
    case 'b':
      out[o++] = 8;
      break;
    case 'e':
    case 'E':
      out[o++] = 27;
      break;
    case 'f':
      out[o++] = 12;
      break;
    case 'n':
      out[o++] = '\n';
      break;
    case 'r':
      out[o++] = '\r';
      break;
    case 't':
      out[o++] = '\t';
      break;
    case 'v':
      out[o++] = 11;
      break;
    case '\\':
    case '\'':
    case '"':
    case '?':
      out[o++] = (char)c;
      break;
    case 'c':
      if (i == n) {
        out[o++] = '\\';
        out[o++] = 'c';
        break;
      }
      c = (unsigned char)s[i++];
      if (c == '\\' && i < n && s[i] == '\\')
        i++;
      if (c >= 'a' && c <= 'z')
        c = (unsigned char)(c - 32);
      out[o++] = (char)(c == '?' ? 0x7f : (c & 0x1f));
      break;
    case 'x':
    case 'u':
    case 'U': {
      int max = c == 'x' ? 2 : c == 'u' ? 4 : 8;
      for (k = 0; k < max && i < n && (d = hexval((unsigned char)s[i])) >= 0;
           k++, i++)
        v = v * 16 + (unsigned long)d;
      if (!k) {
        out[o++] = '\\';
        out[o++] = (char)c;
      } else if (c == 'x') {
        out[o++] = (char)v;
      } else {
        o += put_utf8(out + o, v);
      }
      break;
    }
    default:
      if (c >= '0' && c <= '7') {
        v = (unsigned long)(c - '0');
        for (k = 1; k < 3 && i < n && s[i] >= '0' && s[i] <= '7'; k++, i++)
          v = v * 8 + (unsigned long)(s[i] - '0');
        out[o++] = (char)(v & 0xff);
      } else {
        out[o++] = '\\';
        out[o++] = (char)c;
      }
    }
  }
  /* bash cuts the string at a NUL */
  for (size_t j = 0; j < o; j++)
    if (!out[j])
      return j;
  return o;
}

/* $'...': decoded now, into one quoted literal. */
static void lex_ansi(sh_parser *p, wbuild *b) {
  int line = p->line;
  sh_getc(p);
  sh_getc(p);
  b->has_quotes = 1;
  wbuild raw;
  sh_wb_init(&raw, p);
  for (;;) {
    int c = sh_getc(p);
    if (c == -1)
      sh_fail_eof_match(p, line, "'");
    if (c == '\'')
      break;
    sh_wb_addc(&raw, c, 1);
    if (c == '\\') {
      c = sh_getc(p);
      if (c == -1)
        sh_fail_eof_match(p, line, "'");
      sh_wb_addc(&raw, c, 1);
    }
  }
  char *out = sh_alloc(p, raw.llen + 1);
  size_t n = sh_ansi_decode(raw.lit ? raw.lit : "", raw.llen, out);
  if (!n) {
    sh_wb_flush(b);
    sh_part *pt = sh_wb_push(b, WP_LIT);
    pt->quoted = 1;
    pt->u.lit.text = "";
    return;
  }
  sh_wb_adds(b, out, n, 1);
}

/* Double-quoted text into inner. DQ_CLOSE: "..." (ends at the closing
 * quote); DQ_DOC: a here-document body (ends with the input, \" keeps its
 * backslash); DQ_TEXT: a whole text read as if quoted (\" is "). */
enum { DQ_CLOSE, DQ_DOC, DQ_TEXT };

static void lex_dq_into(sh_parser *p, wbuild *inner, int kind, int line) {
  for (;;) {
    int c = sh_peekc(p);
    if (c == -1) {
      if (kind != DQ_CLOSE)
        return;
      sh_fail_eof_match(p, line, "\"");
    }
    if (c == '"' && kind == DQ_CLOSE) {
      sh_getc(p);
      return;
    }
    if (c == '\\') {
      int n = sh_peekc_at(p, 1);
      if (n == '\n') {
        sh_getc(p);
        sh_getc(p);
        continue;
      }
      if (n == '$' || n == '`' || n == '\\' || (n == '"' && kind != DQ_DOC)) {
        sh_getc(p);
        sh_getc(p);
        sh_wb_addc(inner, n, 1);
        continue;
      }
      sh_getc(p);
      sh_wb_addc(inner, '\\', 1);
      continue;
    }
    if (c == '$') {
      lex_dollar(p, inner, 1);
      continue;
    }
    if (c == '`') {
      lex_backtick(p, inner, 1);
      continue;
    }
    sh_getc(p);
    sh_wb_addc(inner, c, 1);
  }
}

static void lex_dquote(sh_parser *p, wbuild *b) {
  int line = p->line;
  sh_getc(p);
  sh_wb_flush(b);
  wbuild inner;
  sh_wb_init(&inner, p);
  sh_enter(p);
  lex_dq_into(p, &inner, DQ_CLOSE, line);
  sh_leave(p);
  sh_wb_flush(&inner);
  sh_part *pt = sh_wb_new(b, WP_DQUOTE);
  pt->u.dq.parts = inner.parts;
  pt->u.dq.nparts = inner.n;
  b->has_quotes = 1;
}

/* `...`: the body is unescaped (\\ \` \$, and \" inside "...") and parsed
 * as a separate text. */
static void lex_backtick(sh_parser *p, wbuild *b, int dq) {
  int line = p->line;
  sh_getc(p);
  span s = sh_span_start(p);
  wbuild t;
  sh_wb_init(&t, p);
  for (;;) {
    int c = sh_getc(p);
    if (c == -1)
      sh_fail_eof_match(p, line, "`");
    if (c == '`')
      break;
    if (c == '\\') {
      int n = sh_peekc(p);
      if (n == '\\' || n == '`' || n == '$' || (dq && n == '"')) {
        sh_getc(p);
        sh_wb_addc(&t, n, 0);
        continue;
      }
    }
    sh_wb_addc(&t, c, 0);
  }
  size_t rawlen = sh_span_len(p, s);
  char *body = sh_strndup(p, t.lit ? t.lit : "", t.llen);
  sh_wb_flush(b);
  sh_part *pt = sh_wb_new(b, WP_CMDSUB);
  pt->u.cmdsub.backtick = 1;
  pt->u.cmdsub.src = sh_span_ptr(s);
  pt->u.cmdsub.src_len = rawlen ? rawlen - 1 : 0;
  /* Parse the unescaped body as its own input. A syntax error in it is
   * bash's at run time ("command substitution: ..." and status 2), so it
   * is kept with the part instead of failing the whole text. */
  sh_input *save_in = p->in;
  sh_tok save_tok = p->tok;
  int save_have = p->have_tok;
  jmp_buf *save_jb = p->jb;
  int save_depth = p->depth, save_line = p->line;
  size_t save_ndocs = p->ndocs;
  p->have_tok = 0;
  sh_push_input(p, body, t.llen, NULL, 1);
  jmp_buf jb;
  sh_node *volatile n = NULL;
  const char *volatile err = NULL;
  volatile int err_line = 0;
  p->jb = &jb;
  if (!setjmp(jb)) {
    n = sh_parse_list_until_eof(p);
  } else {
    if (p->fatal) {
      p->jb = save_jb;
      longjmp(*p->jb, 1);
    }
    err = p->err;
    err_line = p->err_line - save_line + 1;
    p->err = NULL;
    p->failed = 0;
    p->incomplete = 0;
    p->cond_err = 0;
    p->cmdsub_err = 0;
    p->depth = save_depth;
    p->ndocs = save_ndocs;
    p->line = save_line;
  }
  p->jb = save_jb;
  p->in = save_in;
  p->tok = save_tok;
  p->have_tok = save_have;
  pt = &b->parts[b->n - 1];
  pt->u.cmdsub.body = n;
  pt->u.cmdsub.err = err;
  pt->u.cmdsub.err_line = err_line;
}

/* Does the text after $(( (at offset k) end with )) at its own level, as
 * arithmetic must? Otherwise it is $( ( ... ) ... ), a command substitution
 * starting with a subshell. */
int sh_arith_ahead(sh_parser *p, size_t k) {
  int depth = 0;
  for (;;) {
    int c = sh_peekc_at(p, k++);
    switch (c) {
    case -1:
      return 1;
    case '\\':
      k++;
      break;
    case '\'':
    case '"':
      while ((c == '"' || c == '\'') && sh_peekc_at(p, k) != c) {
        if (sh_peekc_at(p, k) == -1)
          return 1;
        if (c == '"' && sh_peekc_at(p, k) == '\\')
          k++;
        k++;
      }
      k++;
      break;
    case '(':
      depth++;
      break;
    case ')':
      if (!depth)
        return sh_peekc_at(p, k) == ')' || sh_peekc_at(p, k) == -1;
      depth--;
      break;
    }
  }
}

static void lex_cmdsub(sh_parser *p, wbuild *b, int skip, sh_part_kind kind,
                       char dir) {
  while (skip--)
    sh_getc(p);
  span s = sh_span_start(p);
  sh_tok save_tok = p->tok;
  int save_have = p->have_tok;
  p->have_tok = 0;
  sh_node *n = sh_parse_cmdsub_body(p);
  size_t len = sh_span_len(p, s);
  p->tok = save_tok;
  p->have_tok = save_have;
  sh_part *pt = sh_wb_new(b, kind);
  pt->dir = dir;
  pt->u.cmdsub.body = n;
  pt->u.cmdsub.src = sh_span_ptr(s);
  pt->u.cmdsub.src_len = len ? len - 1 : 0; /* without the ) */
}

/* $((...)) or $[...] */
static void lex_arith_sub(sh_parser *p, wbuild *b, int old) {
  int line = p->line;
  sh_getc(p);
  sh_getc(p);
  sh_word *w;
  if (old) {
    wbuild e;
    sh_wb_init(&e, p);
    sh_lex_parts(p, &e, WM_SUBSCRIPT, 0);
    if (sh_getc(p) != ']')
      sh_fail_eof_match(p, line, "]");
    w = sh_wb_word(&e);
  } else {
    sh_getc(p);
    w = sh_lex_arith(p, 0, NULL);
    if (sh_getc(p) != ')' || sh_getc(p) != ')')
      sh_fail_eof_match(p, line, ")");
  }
  sh_part *pt = sh_wb_new(b, WP_ARITH);
  pt->u.arith.expr = w;
}

sh_word *sh_sub_word(sh_parser *p, int mode, int flags, int keep_empty) {
  span s = sh_span_start(p);
  wbuild w;
  sh_wb_init(&w, p);
  sh_lex_parts(p, &w, mode, flags);
  if (!keep_empty && sh_wb_empty(&w))
    return NULL;
  sh_word *r = sh_wb_word(&w);
  r->src = sh_span_ptr(s);
  r->src_len = sh_span_len(p, s);
  return r;
}

/* Skip to the } that closes a bad ${...} so it can be reported at run
 * time, as bash does. */
static void skip_to_brace(sh_parser *p, int line) {
  int depth = 0;
  for (;;) {
    int c = sh_getc(p);
    if (c == -1)
      sh_fail_eof_match(p, line, "}");
    if (c == '\\') {
      sh_getc(p);
    } else if (c == '\'') {
      while ((c = sh_getc(p)) != '\'' && c != -1)
        ;
    } else if (c == '{') {
      depth++;
    } else if (c == '}') {
      if (!depth--)
        return;
    }
  }
}

static const char *read_name(sh_parser *p) {
  int c = sh_peekc(p);
  char buf[2] = {0, 0};
  if (sh_is_name_start(c)) {
    size_t k = 0;
    while (sh_is_name_char(sh_peekc_at(p, k)))
      k++;
    char *s = sh_alloc(p, k + 1);
    for (size_t i = 0; i < k; i++)
      s[i] = (char)sh_getc(p);
    return s;
  }
  if (sh_is_digit(c)) {
    size_t k = 0;
    while (sh_is_digit(sh_peekc_at(p, k)))
      k++;
    char *s = sh_alloc(p, k + 1);
    for (size_t i = 0; i < k; i++)
      s[i] = (char)sh_getc(p);
    return s;
  }
  if (sh_is_special_param(c) || c == '0') {
    buf[0] = (char)sh_getc(p);
    return sh_strndup(p, buf, 1);
  }
  return NULL;
}

static void read_subscript(sh_parser *p, sh_param *pm, int line) {
  sh_getc(p); /* [ */
  int c = sh_peekc(p);
  if ((c == '@' || c == '*') && sh_peekc_at(p, 1) == ']') {
    sh_getc(p);
    sh_getc(p);
    pm->index_at = c == '@' ? 1 : 2;
    return;
  }
  pm->index = sh_sub_word(p, WM_SUBSCRIPT, 0, 1);
  if (sh_getc(p) != ']')
    sh_fail_eof_match(p, line, "}");
}

/* The word of ${x-w} ${x=w} ${x?w} ${x+w}: in double quotes, or in an
 * assignment's value, where bash expands ~ after : in it as well. */
static int brace_word_flags(sh_parser *p, int dq) {
  return dq ? WF_DQ : p->assign_value ? WF_ASSIGN : 0;
}

static void lex_brace_param(sh_parser *p, wbuild *b, int dq) {
  int line = p->line;
  span s = sh_span_start(p);
  sh_getc(p);
  sh_getc(p);
  sh_enter(p);
  sh_wb_flush(b);
  sh_param pm;
  memset(&pm, 0, sizeof pm);
  pm.braced = 1;
  int c = sh_peekc(p), c1 = sh_peekc_at(p, 1);
  int bad = 0;
  /* ${#x} is a length; ${#} and ${##} ${#-w} (a special parameter not
   * followed by }) name the parameter # itself. */
  if (c == '#' && c1 != '}' &&
      (sh_is_name_char(c1) ||
       (sh_is_special_param(c1) && sh_peekc_at(p, 2) == '}'))) {
    sh_getc(p);
    pm.op = PO_LENGTH;
  } else if (c == '!' && c1 != '}' &&
             (sh_is_name_char(c1) || sh_is_special_param(c1))) {
    sh_getc(p);
    pm.op = PO_INDIRECT;
  }
  pm.name = read_name(p);
  if (!pm.name) {
    bad = 1;
  } else {
    c = sh_peekc(p);
    if (c == '[' && sh_is_name_start((unsigned char)pm.name[0])) {
      read_subscript(p, &pm, line);
      /* ${!a[@]} lists keys; with an operator after it, it is an
       * indirection through "a[@]" as in bash */
      if (pm.op == PO_INDIRECT && pm.index_at && sh_peekc(p) == '}')
        pm.op = PO_KEYS;
    } else if (pm.op == PO_INDIRECT && (c == '*' || c == '@') &&
               sh_peekc_at(p, 1) == '}' &&
               sh_is_name_start((unsigned char)pm.name[0])) {
      sh_getc(p);
      pm.op = PO_NAMES;
      pm.index_at = c == '@' ? 1 : 2;
    }
  }
  c = bad ? 0 : sh_peekc(p);
  int simple_op = pm.op == PO_PLAIN || pm.op == PO_INDIRECT;
  if (bad || c == '}') {
    /* done (or bad) */
  } else if (!simple_op) {
    bad = 1;
  } else if (c == ':' && strchr("-=?+", sh_peekc_at(p, 1)) &&
             sh_peekc_at(p, 1) != -1) {
    sh_getc(p);
    pm.colon = 1;
    c = sh_getc(p);
    pm.sub = c == '-'   ? PS_DEFAULT
             : c == '=' ? PS_ASSIGN
             : c == '?' ? PS_ERROR
                        : PS_ALT;
    pm.arg1 = sh_sub_word(p, WM_BRACE, brace_word_flags(p, dq), 0);
  } else if (c == '-' || c == '=' || c == '?' || c == '+') {
    sh_getc(p);
    pm.sub = c == '-'   ? PS_DEFAULT
             : c == '=' ? PS_ASSIGN
             : c == '?' ? PS_ERROR
                        : PS_ALT;
    pm.arg1 = sh_sub_word(p, WM_BRACE, brace_word_flags(p, dq), 0);
  } else if (c == ':') {
    sh_getc(p);
    pm.sub = PS_SLICE;
    pm.arg1 = sh_sub_word(p, WM_SLICE, 0, 1);
    /* ${x:} is a bad substitution (but ${x: } and ${x::} are fine) */
    if (!pm.arg1->nparts && !(pm.arg1->flags & SW_HAS_QUOTES) &&
        sh_peekc(p) != ':')
      bad = 1;
    if (sh_peekc(p) == ':') {
      sh_getc(p);
      pm.arg2 = sh_sub_word(p, WM_SLICE, 0, 1);
    }
  } else if (c == '#' || c == '%') {
    sh_getc(p);
    int two = sh_peekc(p) == c;
    if (two)
      sh_getc(p);
    pm.sub = c == '#' ? (two ? PS_TRIM_LP : PS_TRIM_SP)
                      : (two ? PS_TRIM_LS : PS_TRIM_SS);
    pm.arg1 = sh_sub_word(p, WM_BRACE, WF_PATTERN | (dq ? WF_DQ : 0), 0);
  } else if (c == '/') {
    sh_getc(p);
    c = sh_peekc(p);
    pm.sub = PS_REPLACE;
    if (c == '/' || c == '#' || c == '%') {
      sh_getc(p);
      pm.sub = c == '/'   ? PS_REPLACE_ALL
               : c == '#' ? PS_REPLACE_PRE
                          : PS_REPLACE_SUF;
    }
    if (pm.sub == PS_REPLACE_ALL && sh_peekc(p) == '/') {
      /* ${x////c}: after //, a first / is the pattern, not the end */
      span s = sh_span_start(p);
      wbuild w;
      sh_wb_init(&w, p);
      sh_wb_addc(&w, sh_getc(p), 0);
      sh_lex_parts(p, &w, WM_SLASH, WF_PATTERN | (dq ? WF_DQ : 0));
      pm.arg1 = sh_wb_word(&w);
      pm.arg1->src = sh_span_ptr(s);
      pm.arg1->src_len = sh_span_len(p, s);
    } else {
      pm.arg1 = sh_sub_word(p, WM_SLASH, WF_PATTERN | (dq ? WF_DQ : 0), 0);
    }
    if (sh_peekc(p) == '/') {
      sh_getc(p);
      /* the replacement quotes like a pattern inside "..." too */
      pm.arg2 = sh_sub_word(p, WM_BRACE, WF_PATTERN | (dq ? WF_DQ : 0), 1);
    }
  } else if (c == '^' || c == ',') {
    sh_getc(p);
    int two = sh_peekc(p) == c;
    if (two)
      sh_getc(p);
    pm.sub = c == '^' ? (two ? PS_UPPER_ALL : PS_UPPER_FIRST)
                      : (two ? PS_LOWER_ALL : PS_LOWER_FIRST);
    pm.arg1 = sh_sub_word(p, WM_BRACE, WF_PATTERN | (dq ? WF_DQ : 0), 0);
  } else if (c == '@' && sh_peekc_at(p, 1) != -1 && sh_peekc_at(p, 2) == '}') {
    sh_getc(p);
    pm.sub = PS_TRANSFORM;
    pm.transform = (char)sh_getc(p);
  } else {
    bad = 1;
  }
  if (bad) {
    skip_to_brace(p, line);
    pm.bad = 1;
  } else if (sh_getc(p) != '}') {
    sh_fail_eof_match(p, line, "}");
  }
  pm.src = sh_span_ptr(s);
  pm.src_len = sh_span_len(p, s);
  sh_part *pt = sh_wb_new(b, WP_PARAM);
  pt->u.param = pm;
  sh_leave(p);
}

static void lex_dollar(sh_parser *p, wbuild *b, int dq) {
  if (sh_peekc_at(p, 1) == '\\' && sh_peekc_at(p, 2) == '\n') {
    /* $\<newline>?: bash joins the lines before reading the $. */
    sh_getc(p);
    while (sh_peekc(p) == '\\' && sh_peekc_at(p, 1) == '\n') {
      sh_getc(p);
      sh_getc(p);
    }
    sh_push_input(p, "$", 1, NULL, 0);
  }
  int c1 = sh_peekc_at(p, 1);
  if (c1 == '{') {
    lex_brace_param(p, b, dq);
  } else if (c1 == '(') {
    if (sh_peekc_at(p, 2) == '(' && sh_arith_ahead(p, 3))
      lex_arith_sub(p, b, 0);
    else
      lex_cmdsub(p, b, 2, WP_CMDSUB, 0);
  } else if (c1 == '[') {
    lex_arith_sub(p, b, 1);
  } else if (c1 == '\'' && !dq) {
    lex_ansi(p, b);
  } else if (c1 == '"' && !dq) {
    /* $"...": locale translation is the identity here. */
    sh_getc(p);
    lex_dquote(p, b);
  } else if (sh_is_name_start(c1) || sh_is_digit(c1) ||
             sh_is_special_param(c1)) {
    sh_getc(p);
    char nm[2] = {0, 0};
    const char *name;
    if (sh_is_name_start(c1)) {
      name = read_name(p);
    } else {
      nm[0] = (char)sh_getc(p);
      name = sh_strndup(p, nm, 1);
    }
    sh_part *pt = sh_wb_new(b, WP_PARAM);
    pt->u.param.name = name;
  } else {
    sh_getc(p);
    sh_wb_addc(b, '$', dq);
  }
}

/* ~ or ~user: only when the whole prefix up to / (or : in assignments) is
 * unquoted literal text. */
static int lex_tilde(sh_parser *p, wbuild *b, int mode, int flags) {
  size_t k = 1;
  for (;;) {
    int c = sh_peekc_at(p, k);
    /* a ${x-w} word ends a tilde prefix at : as an assignment does */
    if (c == '/' || c == -1 ||
        ((flags & WF_ASSIGN || mode == WM_BRACE) && c == ':'))
      break;
    if ((mode == WM_NORMAL || mode == WM_REGEX) && sh_is_meta(c))
      break;
    if (mode == WM_BRACE && c == '}')
      break;
    if (c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`' ||
        c == '\n' || c == '*' || c == '?' || c == '[' || c == '{')
      return 0;
    k++;
  }
  sh_getc(p);
  char *user = sh_alloc(p, k);
  for (size_t i = 0; i + 1 < k; i++)
    user[i] = (char)sh_getc(p);
  sh_part *pt = sh_wb_new(b, WP_TILDE);
  pt->u.lit.text = user;
  pt->u.lit.len = k - 1;
  return 1;
}

int sh_extglob_on(sh_parser *p) {
  return p->o.extglob && p->o.extglob(p->o.alias_ud);
}

/* Inside ${...}: is there a ) closing the extglob at offset 1 before the
 * } that ends the word? ("${x##*([}" has none: plain text then.) */
static int extglob_closes(sh_parser *p) {
  int depth = 0;
  for (size_t k = 2;; k++) {
    int c = sh_peekc_at(p, k);
    if (c == -1 || c == '}')
      return 0;
    if (c == '\\')
      k++;
    else if (c == '(')
      depth++;
    else if (c == ')' && !depth--)
      return 1;
  }
}

/* @(...) and friends: kept as source text for the pattern matcher. */
static void lex_extglob(sh_parser *p, wbuild *b) {
  int line = p->line;
  span s = sh_span_start(p);
  sh_getc(p);
  sh_getc(p);
  int depth = 0;
  for (;;) {
    int c = sh_getc(p);
    if (c == -1)
      sh_fail_eof_match(p, line, ")");
    if (c == '\\') {
      sh_getc(p);
    } else if (c == '\'') {
      while ((c = sh_getc(p)) != '\'')
        if (c == -1)
          sh_fail_eof_match(p, line, "'");
    } else if (c == '(') {
      depth++;
    } else if (c == ')') {
      if (!depth--)
        break;
    }
  }
  size_t n = sh_span_len(p, s);
  sh_part *pt = sh_wb_new(b, WP_EXTGLOB);
  pt->u.lit.text = sh_strndup(p, sh_span_ptr(s), n);
  pt->u.lit.len = n;
}

void sh_lex_parts(sh_parser *p, wbuild *b, int mode, int flags) {
  int depth = 0, ternary = 0, sq = 0;
  int at_start = 1;
  int dq = flags & WF_DQ;
  sh_enter(p);
  for (;;) {
    int c = sh_peekc(p);
    if (c == -1)
      break;
    /* Terminators. */
    switch (mode) {
    case WM_NORMAL:
      if (sh_is_meta(c)) {
        if ((c == '<' || c == '>') && sh_peekc_at(p, 1) == '(') {
          lex_cmdsub(p, b, 2, WP_PROCSUB, (char)c);
          at_start = 0;
          continue;
        }
        goto done;
      }
      break;
    case WM_REGEX:
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (!depth)
          goto done;
        depth--;
      } else if (!depth && (sh_is_blank(c) || c == '\n' || c == ';' ||
                            c == '&' || c == '<' || c == '>')) {
        goto done;
      } else if (!depth && c == '|' && sh_peekc_at(p, 1) == '|') {
        goto done;
      }
      break;
    case WM_BRACE:
    case WM_SLASH:
      /* The first unquoted } ends ${...}: bash does not pair braces in
       * the word (${x:-{a}b} is "{a" then "b}"). */
      if (sq) {
        /* inside '...' of "${x-'...'}" */
      } else if (mode == WM_BRACE && !dq && (c == '<' || c == '>') &&
                 sh_peekc_at(p, 1) == '(') {
        /* ${x:-<(cmd)}: a process substitution, as in a plain word */
        lex_cmdsub(p, b, 2, WP_PROCSUB, (char)c);
        at_start = 0;
        continue;
      } else if (c == '}') {
        goto done;
      } else if (c == '/' && mode == WM_SLASH) {
        goto done;
      }
      break;
    case WM_SUBSCRIPT:
      if (c == ']') {
        if (!depth)
          goto done;
        depth--;
      } else if (c == '[') {
        depth++;
      }
      break;
    case WM_ARITH:
    case WM_SLICE:
      if (c == '?' && mode == WM_SLICE) {
        ternary++; /* its ':' is not the slice's */
      } else if (c == ':' && ternary && !depth) {
        ternary--;
        break;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (!depth && mode == WM_ARITH)
          goto done;
        depth--;
      } else if (!depth && c == ';' && (flags & WF_SEMI)) {
        goto done;
      } else if (!depth && mode == WM_SLICE && (c == ':' || c == '}')) {
        goto done;
      }
      break;
    }
    int lit_mode = mode == WM_ARITH || mode == WM_SLICE;
    if (c == '\\') {
      int n = sh_peekc_at(p, 1);
      if (n == '\n') {
        sh_getc(p);
        sh_getc(p);
        continue;
      }
      sh_getc(p);
      if (n == -1) {
        if (p->o.interactive)
          sh_fail(p, 1, "unexpected end of file after \\");
        sh_wb_addc(b, '\\', 0);
        break;
      }
      if (dq && !(flags & WF_PATTERN) &&
          !(n == '$' || n == '`' || n == '"' || n == '\\' || n == '}')) {
        sh_wb_addc(b, '\\', 1);
        at_start = 0;
        continue;
      }
      sh_getc(p);
      sh_wb_addc(b, n, 1);
      at_start = 0;
      continue;
    }
    if (c == '\'' && dq && !lit_mode && !(flags & WF_PATTERN)) {
      /* "${x-'$y}'}": the quotes are kept as text, what they enclose is
       * still expanded, but they hide a } */
      sh_wb_addc(b, sh_getc(p), 1);
      sq = !sq;
    } else if (c == '\'' && !lit_mode) {
      lex_squote(p, b);
    } else if (c == '"') {
      lex_dquote(p, b);
    } else if (c == '`') {
      lex_backtick(p, b, dq);
    } else if (c == '$' && lit_mode && sh_peekc_at(p, 1) == '\'') {
      /* $'3' in arithmetic is the text '3' (an error there), as in bash */
      sh_getc(p);
    } else if (c == '$') {
      p->assign_value = (flags & WF_ASSIGN) && !dq;
      lex_dollar(p, b, 0);
    } else if (c == '~' && !dq && !lit_mode && mode != WM_SUBSCRIPT &&
               (at_start ||
                ((flags & WF_ASSIGN) && b->llen && !b->lq &&
                 (b->lit[b->llen - 1] == ':' || b->lit[b->llen - 1] == '='))) &&
               lex_tilde(p, b, mode, flags)) {
      /* tilde part added */
    } else if ((c == '@' || c == '*' || c == '+' || c == '?' || c == '!') &&
               sh_peekc_at(p, 1) == '(' &&
               (mode == WM_NORMAL ||
                ((mode == WM_BRACE || mode == WM_SLASH) &&
                 (!dq || (flags & WF_PATTERN)) && extglob_closes(p))) &&
               ((flags & WF_EXTGLOB) || sh_extglob_on(p))) {
      /* (also in ${x:-@(a|b)} and ${x#@(a|b)}, where ( ends nothing) */
      lex_extglob(p, b);
    } else {
      sh_getc(p);
      sh_wb_addc(b, c, 0);
      /* NAME=~ in any word gets tilde expansion after = and :, as bash
       * does outside posix mode. */
      int promote = mode == WM_NORMAL && !(flags & (WF_ASSIGN | WF_ELEM)) &&
                    b->n == 0 && !b->lq;
      if (c == '=' && promote && sh_is_name(b->lit, b->llen - 1))
        flags |= WF_ASSIGN;
      if (c == '+' && promote && sh_peekc(p) == '=' &&
          sh_is_name(b->lit, b->llen - 1)) {
        sh_getc(p);
        sh_wb_addc(b, '=', 0);
        flags |= WF_ASSIGN;
      }
      if (mode == WM_NORMAL) {
        /* the ordinary bytes that follow, at once */
        sh_input *in = p->in;
        size_t j = in->pos;
        while (j < in->len && plain_word_byte((unsigned char)in->s[j]))
          j++;
        sh_wb_adds(b, in->s + in->pos, j - in->pos, 0);
        in->pos = j;
      }
    }
    at_start = 0;
  }
done:
  sh_leave(p);
}

sh_word *sh_lex_arith(sh_parser *p, int stop_semi, int *stopped_at) {
  sh_word *w = sh_sub_word(p, WM_ARITH, stop_semi ? WF_SEMI : 0, 1);
  if (stopped_at)
    *stopped_at = sh_peekc(p);
  return w;
}

sh_word *sh_lex_regex(sh_parser *p) {
  span s = sh_span_start(p);
  wbuild b;
  sh_wb_init(&b, p);
  sh_lex_parts(p, &b, WM_REGEX, 0);
  sh_word *w = sh_wb_word(&b);
  w->src = sh_span_ptr(s);
  w->src_len = sh_span_len(p, s);
  return w;
}

sh_word *sh_lex_dq_text(sh_parser *p, const char *s, size_t n) {
  sh_input *save = p->in;
  sh_push_input(p, s, n, NULL, 1);
  wbuild b;
  sh_wb_init(&b, p);
  /* A text ending in " brings its own closing quote (callers append one):
   * read it as "...", and an unclosed one (\" at the end) is an error. */
  if (n && s[n - 1] == '"')
    lex_dq_into(p, &b, DQ_CLOSE, p->line);
  lex_dq_into(p, &b, DQ_TEXT, p->line);
  p->in = save;
  sh_word *w = sh_wb_word(&b);
  w->src = s;
  w->src_len = n;
  return w;
}

sh_word *sh_lex_heredoc_body(sh_parser *p, const char *s, size_t n) {
  sh_input *save = p->in;
  sh_push_input(p, s, n, NULL, 1);
  wbuild b;
  sh_wb_init(&b, p);
  sh_tok save_tok = p->tok;
  int save_have = p->have_tok;
  p->have_tok = 0;
  lex_dq_into(p, &b, DQ_DOC, p->line);
  p->tok = save_tok;
  p->have_tok = save_have;
  p->in = save;
  sh_word *w = sh_wb_word(&b);
  w->src = s;
  w->src_len = n;
  return w;
}
