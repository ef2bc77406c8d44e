/*
 * ast_json.c - a syntax tree as JSON, for tools (`vsh --ast`,
 * vsh_script_ast): every node an object with a "type" and its line, every
 * word its source text and its parts, so that a linter or a fuzzer's
 * oracle can walk a script without a shell parser of its own.
 *
 * Strings are the script's bytes; a byte that is not part of valid UTF-8
 * is written as \ufffd (JSON text must be UTF-8). Depth follows the tree,
 * which the parser already bounds.
 */
#include <string.h>

#include "core/buf.h"
#include "shell/syntax/parse_internal.h"

static void j_node(buf *o, const sh_node *n);
static void j_word(buf *o, const sh_word *w);
static void j_parts(buf *o, const sh_part *parts, size_t n);

/* Length of the valid UTF-8 sequence at s (1-4), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned char c = s[0];
  size_t k = c >= 0xf0 && c <= 0xf4   ? 4
             : c >= 0xe0              ? 3
             : c >= 0xc2 && c <= 0xdf ? 2
                                      : 0;
  if (!k || k > n)
    return 0;
  for (size_t i = 1; i < k; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  if (k == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f)))
    return 0; /* overlong, or a surrogate */
  if (k == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f)))
    return 0;
  return k;
}

/* buf_append with the common case (room left) inlined. */
static inline void j_app(buf *o, const void *s, size_t n) {
  if (o->len + n < o->cap && !o->oom) {
    memcpy(o->data + o->len, s, n);
    o->len += n;
    o->data[o->len] = 0;
  } else {
    buf_append(o, s, n);
  }
}

/* Literal text: one append, its length known at compile time. */
#define PUT(o, lit) j_app((o), (lit), sizeof(lit) - 1)

static inline void j_putc(buf *o, int c) {
  char ch = (char)c;
  j_app(o, &ch, 1);
}

static inline void j_strz(buf *o, const char *s) {
  j_app(o, s, strlen(s));
}

static void j_str(buf *o, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  buf_reserve(o, n + 2);
  j_putc(o, '"');
  const unsigned char *u = (const unsigned char *)s;
  size_t run = 0; /* start of the bytes copied as they are */
  for (size_t i = 0; i < n;) {
    unsigned char c = u[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      for (i++;
           i < n && u[i] >= 0x20 && u[i] < 0x7f && u[i] != '"' && u[i] != '\\';
           i++)
        ;
      continue;
    }
    if (c >= 0x80) {
      size_t k = utf8_len(u + i, n - i);
      if (k) {
        i += k;
        continue;
      }
    }
    j_app(o, s + run, i - run);
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      j_app(o, e, 2);
    } else if (c == '\n') {
      PUT(o, "\\n");
    } else if (c == '\t') {
      PUT(o, "\\t");
    } else if (c < 0x80) {
      char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      j_app(o, e, 6);
    } else {
      PUT(o, "\\ufffd");
    }
    run = ++i;
  }
  j_app(o, s + run, n - run);
  j_putc(o, '"');
}

static inline void j_cstr(buf *o, const char *s) {
  if (s)
    j_str(o, s, strlen(s));
  else
    PUT(o, "null");
}

static inline void j_key(buf *o, const char *k) {
  PUT(o, ",\"");
  j_strz(o, k);
  PUT(o, "\":");
}

static inline void j_bool(buf *o, const char *k, int v) {
  j_key(o, k);
  if (v)
    PUT(o, "true");
  else
    PUT(o, "false");
}

static inline void j_opt_word(buf *o, const char *k, const sh_word *w) {
  j_key(o, k);
  if (w)
    j_word(o, w);
  else
    PUT(o, "null");
}

static inline void j_opt_node(buf *o, const char *k, const sh_node *n) {
  j_key(o, k);
  if (n)
    j_node(o, n);
  else
    PUT(o, "null");
}

static const char *const param_ops[] = {"plain", "length", "indirect", "keys",
                                        "names"};
static const char *const param_subs[] = {
    NULL, "-",  "=",  "?", "+", "#",  "##", "%",  "%%", "/",
    "//", "/#", "/%", ":", "^", "^^", ",",  ",,", "@"};

static void j_param(buf *o, const sh_param *pm) {
  PUT(o, "{\"type\":\"param\",\"name\":");
  j_cstr(o, pm->name);
  if (pm->src) {
    j_key(o, "src");
    j_str(o, pm->src, pm->src_len);
  }
  if (pm->bad) {
    j_bool(o, "bad", 1);
    j_putc(o, '}');
    return;
  }
  PUT(o, ",\"op\":\"");
  j_strz(o, param_ops[pm->op]);
  j_putc(o, '"');
  j_bool(o, "braced", pm->braced);
  if (pm->index_at) {
    PUT(o, ",\"index\":\"");
    j_putc(o, pm->index_at == 1 ? '@' : '*');
    j_putc(o, '"');
  } else if (pm->index)
    j_opt_word(o, "index", pm->index);
  if (pm->sub != PS_NONE) {
    PUT(o, ",\"sub\":\"");
    if (pm->sub == PS_TRANSFORM) {
      j_putc(o, '@');
      j_putc(o, pm->transform);
    } else {
      if (pm->colon)
        j_putc(o, ':');
      j_strz(o, param_subs[pm->sub]);
    }
    j_putc(o, '"');
    j_opt_word(o, "arg1", pm->arg1);
    if (pm->arg2)
      j_opt_word(o, "arg2", pm->arg2);
  }
  j_putc(o, '}');
}

static void j_part(buf *o, const sh_part *pt) {
  switch (pt->kind) {
  case WP_LIT:
    PUT(o, "{\"type\":\"literal\",\"text\":");
    j_str(o, pt->u.lit.text, pt->u.lit.len);
    j_bool(o, "quoted", pt->quoted);
    break;
  case WP_DQUOTE:
    PUT(o, "{\"type\":\"dquote\",\"parts\":");
    j_parts(o, pt->u.dq.parts, pt->u.dq.nparts);
    break;
  case WP_PARAM:
    j_param(o, &pt->u.param);
    return;
  case WP_CMDSUB:
  case WP_PROCSUB:
    if (pt->kind == WP_PROCSUB) {
      PUT(o, "{\"type\":\"procsub\",\"dir\":\"");
      j_putc(o, pt->dir);
      j_putc(o, '"');
    } else {
      PUT(o, "{\"type\":\"cmdsub\"");
      j_bool(o, "backtick", pt->u.cmdsub.backtick);
    }
    j_opt_node(o, "body", pt->u.cmdsub.body);
    if (pt->u.cmdsub.err) {
      j_key(o, "error");
      j_cstr(o, pt->u.cmdsub.err);
    }
    break;
  case WP_ARITH:
    PUT(o, "{\"type\":\"arith\"");
    j_opt_word(o, "expr", pt->u.arith.expr);
    break;
  case WP_TILDE:
    PUT(o, "{\"type\":\"tilde\",\"user\":");
    j_str(o, pt->u.lit.text, pt->u.lit.len);
    break;
  case WP_EXTGLOB:
    PUT(o, "{\"type\":\"extglob\",\"text\":");
    j_str(o, pt->u.lit.text, pt->u.lit.len);
    break;
  }
  j_putc(o, '}');
}

static void j_parts(buf *o, const sh_part *parts, size_t n) {
  j_putc(o, '[');
  for (size_t i = 0; i < n; i++) {
    if (i)
      j_putc(o, ',');
    j_part(o, &parts[i]);
  }
  j_putc(o, ']');
}

static void j_word(buf *o, const sh_word *w) {
  PUT(o, "{\"text\":");
  if (w->src)
    j_str(o, w->src, w->src_len);
  else
    PUT(o, "null");
  j_key(o, "parts");
  j_parts(o, w->parts, w->nparts);
  j_putc(o, '}');
}

static void j_words(buf *o, sh_word *const *w, size_t n) {
  j_putc(o, '[');
  for (size_t i = 0; i < n; i++) {
    if (i)
      j_putc(o, ',');
    j_word(o, w[i]);
  }
  j_putc(o, ']');
}

static void j_assign(buf *o, const sh_assign *as) {
  PUT(o, "{\"name\":");
  j_cstr(o, as->name);
  if (as->index)
    j_opt_word(o, "index", as->index);
  j_bool(o, "append", as->append);
  if (as->is_array) {
    PUT(o, ",\"array\":[");
    for (size_t i = 0; i < as->narray; i++) {
      const sh_array_elem *e = &as->array[i];
      if (i)
        j_putc(o, ',');
      j_putc(o, '{');
      PUT(o, "\"key\":");
      if (e->key)
        j_word(o, e->key);
      else
        PUT(o, "null");
      j_opt_word(o, "value", e->value);
      j_bool(o, "append", e->append);
      j_putc(o, '}');
    }
    j_putc(o, ']');
  } else {
    j_opt_word(o, "value", as->value);
  }
  j_putc(o, '}');
}

static const char *const redir_ops[] = {"<",  ">",  ">|",  ">>", "<>", "<&",
                                        ">&", "<<", "<<<", "&>", "&>>"};

static void j_redirs(buf *o, const sh_redir *r) {
  PUT(o, ",\"redirs\":[");
  for (int first = 1; r; r = r->next, first = 0) {
    if (!first)
      j_putc(o, ',');
    PUT(o, "{\"op\":\"");
    j_strz(o, redir_ops[r->op]);
    j_putc(o, '"');
    if (r->fd >= 0) {
      j_key(o, "fd");
      buf_put_long(o, r->fd);
    }
    if (r->fd_var) {
      j_key(o, "fd_var");
      j_cstr(o, r->fd_var);
    }
    if (r->op == R_HEREDOC) {
      j_bool(o, "quoted", r->heredoc_quoted);
      j_bool(o, "strip_tabs", r->strip_tabs);
      j_key(o, "body");
      if (r->heredoc)
        j_parts(o, r->heredoc->parts, r->heredoc->nparts);
      else
        PUT(o, "[]");
    } else {
      j_opt_word(o, "target", r->target);
    }
    j_putc(o, '}');
  }
  j_putc(o, ']');
}

static void j_cond(buf *o, const sh_cond *c) {
  static const char *const kinds[] = {"and",   "or",     "not",
                                      "unary", "binary", "word"};
  PUT(o, "{\"type\":\"");
  j_strz(o, kinds[c->kind]);
  j_putc(o, '"');
  switch (c->kind) {
  case C_AND:
  case C_OR:
    j_key(o, "left");
    j_cond(o, c->l);
    j_key(o, "right");
    j_cond(o, c->r);
    break;
  case C_NOT:
    j_key(o, "operand");
    j_cond(o, c->l);
    break;
  case C_UNARY:
  case C_BINARY:
    j_key(o, "op");
    j_cstr(o, c->op);
    j_opt_word(o, c->kind == C_UNARY ? "operand" : "left", c->a);
    if (c->kind == C_BINARY)
      j_opt_word(o, "right", c->b);
    break;
  case C_WORD:
    j_opt_word(o, "word", c->a);
    break;
  }
  j_putc(o, '}');
}

static const char *const node_types[] = {
    "simple", "pipeline", "and",      "or",    "list", "subshell",
    "group",  "if",       "while",    "until", "for",  "for_arith",
    "select", "case",     "function", "arith", "cond", "time"};

static void j_node(buf *o, const sh_node *n) {
  PUT(o, "{\"type\":\"");
  j_strz(o, node_types[n->kind]);
  PUT(o, "\",\"line\":");
  buf_put_long(o, n->line);
  size_t i;
  switch (n->kind) {
  case N_SIMPLE:
    PUT(o, ",\"assigns\":[");
    for (const sh_assign *as = n->u.simple.assigns; as; as = as->next) {
      if (as != n->u.simple.assigns)
        j_putc(o, ',');
      j_assign(o, as);
    }
    j_putc(o, ']');
    j_key(o, "words");
    j_words(o, n->u.simple.words, n->u.simple.nwords);
    break;
  case N_PIPELINE:
    j_bool(o, "bang", n->u.pipe.bang);
    PUT(o, ",\"commands\":[");
    for (i = 0; i < n->u.pipe.ncmds; i++) {
      if (i)
        j_putc(o, ',');
      j_node(o, n->u.pipe.cmds[i]);
    }
    PUT(o, "],\"stderr_too\":[");
    for (i = 0; i + 1 < n->u.pipe.ncmds; i++) {
      if (i)
        j_putc(o, ',');
      if (n->u.pipe.stderr_too && n->u.pipe.stderr_too[i])
        PUT(o, "true");
      else
        PUT(o, "false");
    }
    j_putc(o, ']');
    break;
  case N_AND:
  case N_OR:
    j_opt_node(o, "left", n->u.andor.l);
    j_opt_node(o, "right", n->u.andor.r);
    break;
  case N_LIST:
    PUT(o, ",\"items\":[");
    for (i = 0; i < n->u.list.nitems; i++) {
      if (i)
        j_putc(o, ',');
      PUT(o, "{\"command\":");
      j_node(o, n->u.list.items[i].node);
      j_bool(o, "async", n->u.list.items[i].async);
      j_putc(o, '}');
    }
    j_putc(o, ']');
    break;
  case N_SUBSHELL:
  case N_GROUP:
    j_opt_node(o, "body", n->u.group.body);
    break;
  case N_IF:
    j_opt_node(o, "cond", n->u.if_.cond);
    j_opt_node(o, "then", n->u.if_.then_part);
    j_opt_node(o, "else", n->u.if_.else_part);
    break;
  case N_WHILE:
  case N_UNTIL:
    j_opt_node(o, "cond", n->u.loop.cond);
    j_opt_node(o, "body", n->u.loop.body);
    break;
  case N_FOR:
  case N_SELECT:
    j_key(o, "var");
    j_cstr(o, n->u.for_.var);
    j_key(o, "in");
    if (n->u.for_.has_in)
      j_words(o, n->u.for_.words, n->u.for_.nwords);
    else
      PUT(o, "null");
    j_opt_node(o, "body", n->u.for_.body);
    break;
  case N_FOR_ARITH:
    j_opt_word(o, "init", n->u.for_arith.init);
    j_opt_word(o, "cond", n->u.for_arith.cond);
    j_opt_word(o, "step", n->u.for_arith.step);
    j_opt_node(o, "body", n->u.for_arith.body);
    break;
  case N_CASE:
    j_opt_word(o, "word", n->u.case_.word);
    PUT(o, ",\"items\":[");
    for (i = 0; i < n->u.case_.nitems; i++) {
      const sh_case_item *it = &n->u.case_.items[i];
      if (i)
        j_putc(o, ',');
      PUT(o, "{\"patterns\":");
      j_words(o, it->patterns, it->npatterns);
      j_opt_node(o, "body", it->body);
      PUT(o, ",\"terminator\":\"");
      if (it->term == CT_BREAK)
        PUT(o, ";;");
      else if (it->term == CT_FALL)
        PUT(o, ";&");
      else
        PUT(o, ";;&");
      PUT(o, "\"}");
    }
    j_putc(o, ']');
    break;
  case N_FUNCDEF:
    j_key(o, "name");
    j_cstr(o, n->u.func.name);
    j_opt_node(o, "body", n->u.func.body);
    break;
  case N_ARITH:
    j_opt_word(o, "expr", n->u.arith.expr);
    break;
  case N_COND:
    j_key(o, "expr");
    if (n->u.cond.expr)
      j_cond(o, n->u.cond.expr);
    else
      PUT(o, "null");
    break;
  case N_TIME:
    j_bool(o, "posix", n->u.time.posix);
    j_opt_node(o, "pipeline", n->u.time.pipeline);
    break;
  }
  j_redirs(o, n->redirs);
  j_putc(o, '}');
}

int sh_ast_json(struct buf *out, const sh_node *n) {
  j_node(out, n);
  return out->oom ? -1 : 0;
}

int sh_json_string(struct buf *out, const char *s, size_t n) {
  j_str(out, s, n);
  return out->oom ? -1 : 0;
}
