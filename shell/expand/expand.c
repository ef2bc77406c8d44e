/*
 * expand.c - word expansion: brace expansion, tilde, parameters (through
 * expand_param.c), command substitution, arithmetic, process substitution,
 * field splitting, pathname expansion and quote removal, in bash's order.
 *
 * A word is expanded by a field builder that appends text segments, each
 * tagged quoted or not. Text from unquoted expansions is split on IFS as it
 * arrives; the builder keeps two renderings of the current field: the
 * plain value and a pattern in which quoted characters are escaped, so
 * globbing (and case/[[ patterns) honour quoting.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/syntax/parse.h"

int sh_strv_push(arena *ar, sh_strv *sv, char *s) {
  if (sv->n + 1 >= sv->cap) {
    size_t nc = sv->cap ? sv->cap * 2 : 8;
    char **nv = arena_alloc(ar, nc * sizeof *nv);
    if (!nv)
      return -1;
    if (sv->n)
      memcpy(nv, sv->v, sv->n * sizeof *nv);
    sv->v = nv;
    sv->cap = nc;
  }
  sv->v[sv->n++] = s;
  sv->v[sv->n] = NULL;
  return 0;
}

/* ---- field builder ------------------------------------------------------ */

void fb_init(fb *f, sh_exec *ex, int mode, sh_strv *out) {
  memset(f, 0, sizeof *f);
  f->ex = ex;
  f->mode = mode;
  f->out = out;
  buf_init(&f->val, ex->m);
  buf_init(&f->pat, ex->m);
}

void fb_free(fb *f) {
  buf_free(&f->val);
  buf_free(&f->pat);
}

static void load_ifs(fb *f) {
  if (f->ifs_loaded)
    return;
  f->ifs_loaded = 1;
  const char *ifs = sh_getvar(f->ex, "IFS");
  if (!ifs)
    ifs = " \t\n";
  memset(f->ifs, 0, sizeof f->ifs);
  for (const char *p = ifs; *p; p++) {
    unsigned char c = (unsigned char)*p;
    f->ifs[c] = (c == ' ' || c == '\t' || c == '\n') ? 1 : 2;
  }
  f->ifs_first = ifs[0];
  f->ifs_null = ifs[0] == 0;
}

static int is_glob_char(unsigned char c) {
  return c == '*' || c == '?' || c == '[';
}

/* Append text; quoted text is escaped in the pattern rendering. Out of
 * memory ends the exec (finish_field then keeps the cut field out). */
static void fb_add(fb *f, const char *s, size_t n, int quoted) {
  f->started = 1;
  f->dstate = 0;
  int bad = buf_append(&f->val, s, n);
  if (f->mode == FB_STR) {
    if (bad)
      sh_oom(f->ex);
    return;
  }
  if (quoted && f->mode == FB_RE) {
    for (size_t i = 0; i < n; i++) {
      if (strchr("\\.[]()*+?{}|^$", s[i]) && s[i])
        bad |= buf_putc(&f->pat, '\\');
      bad |= buf_putc(&f->pat, s[i]);
    }
  } else if (quoted) {
    for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)s[i];
      if (c == '\\' || is_glob_char(c) || c == ']' || c == '(' || c == ')' ||
          c == '|' || c == '!' || c == '@' || c == '+' || c == '-' || c == '^')
        bad |= buf_putc(&f->pat, '\\');
      bad |= buf_putc(&f->pat, (char)c);
    }
  } else {
    bad |= buf_append(&f->pat, s, n);
    for (size_t i = 0; i < n && !f->glob; i++)
      if (is_glob_char((unsigned char)s[i]))
        f->glob = 1;
  }
  if (bad)
    sh_oom(f->ex);
}

/* End of the quoted text or expansion starting at t[i] (one past it). */
static size_t skip_quoted(const char *t, size_t i, size_t n) {
  char q = t[i];
  if (q == '\'') {
    for (i++; i < n && t[i] != '\''; i++)
      ;
  } else if (q == '"' || q == '`') {
    for (i++; i < n && t[i] != q; i++) {
      if (t[i] == '\\')
        i++;
      else if (q == '"' && t[i] == '$' && i + 1 < n &&
               (t[i + 1] == '(' || t[i + 1] == '{'))
        i = skip_quoted(t, i, n) - 1;
    }
  } else if (q == '$' && i + 1 < n && (t[i + 1] == '(' || t[i + 1] == '{')) {
    char open = t[i + 1], close = open == '(' ? ')' : '}';
    int depth = 0;
    for (i++; i < n; i++) {
      if (t[i] == '\\') {
        i++;
      } else if (t[i] == '\'' || t[i] == '"' || t[i] == '`') {
        i = skip_quoted(t, i, n) - 1;
      } else if (t[i] == open) {
        depth++;
      } else if (t[i] == close && --depth == 0) {
        break;
      }
    }
  } else if (q == '$') {
    i++;
    if (i < n && (isalpha((unsigned char)t[i]) || t[i] == '_')) {
      while (i + 1 < n && (isalnum((unsigned char)t[i + 1]) || t[i + 1] == '_'))
        i++;
    }
  }
  return i < n ? i + 1 : n;
}

/* Expand text with double-quote rules ($x, $(...), `...`), for the pieces
 * of an extglob pattern. NULL on error. */
static char *expand_dq_text(sh_exec *ex, const char *t, size_t n, size_t *len) {
  char *src = arena_alloc(ex->ar, n + 2);
  if (!src)
    return NULL;
  memcpy(src, t, n);
  src[n] = '"'; /* the double-quote lexer reads up to its closing quote */
  src[n + 1] = 0;
  sh_word *w = sh_parse_dq_word(ex->ar, src, n + 1);
  if (!w) {
    sh_err(ex, "bad substitution");
    sh_discard(ex);
    return NULL;
  }
  return sh_expand_str(ex, w, len);
}

/* An extglob pattern @(...) is kept as source text by the parser: quote
 * removal and expansions inside it happen here. Quoted pieces match
 * literally, expansion results stay pattern text, as in bash. */
static int fb_split(fb *f, const char *s, size_t n);

static int extglob_text(fb *f, const char *t, size_t n) {
  sh_exec *ex = f->ex;
  size_t lit = 0, i = 0;
  while (i < n) {
    char c = t[i];
    int dollar =
        c == '$' && i + 1 < n &&
        (t[i + 1] == '(' || t[i + 1] == '{' || t[i + 1] == '_' ||
         isalnum((unsigned char)t[i + 1]) || strchr("@*#?$!-", t[i + 1]));
    if (c != '\\' && c != '\'' && c != '"' && c != '`' && !dollar) {
      i++;
      continue;
    }
    if (i > lit)
      fb_add(f, t + lit, i - lit, 0);
    if (c == '\\') {
      if (i + 1 < n)
        fb_add(f, t + i + 1, 1, 1);
      i += 2;
    } else {
      size_t e = skip_quoted(t, i, n);
      if (c == '\'') {
        fb_add(f, t + i + 1, e > i + 2 ? e - i - 2 : 0, 1);
      } else {
        size_t rl;
        char *r = c == '"' ? expand_dq_text(ex, t + i + 1,
                                            e > i + 2 ? e - i - 2 : 0, &rl)
                           : expand_dq_text(ex, t + i, e - i, &rl);
        if (!r)
          return -1;
        /* bash reads @(...) as part of an ordinary word: an unquoted
         * expansion inside is split like any other (IFS=x; +($v)). */
        if (c != '"' && f->mode == FB_FIELDS) {
          if (fb_split(f, r, rl))
            return -1;
        } else {
          fb_add(f, r, rl, c == '"');
        }
      }
      i = e;
    }
    lit = i;
  }
  if (n > lit)
    fb_add(f, t + lit, n - lit, 0);
  f->glob = 1;
  return 0;
}

static int finish_field(fb *f) {
  sh_exec *ex = f->ex;
  arena *ar = ex->ar;
  if (ex->jump == J_ABORT)
    return -1; /* fb_add ran out of memory: the field is not whole */
  if (f->mode == FB_FIELDS && f->glob && !(ex->opts & O_NOGLOB) &&
      pat_has_magic(f->pat.data ? f->pat.data : "", f->pat.len,
                    sh_pat_flags(ex))) {
    size_t before = f->out->n;
    int r = sh_glob(ex, buf_cstr(&f->pat), f->pat.len, f->out);
    if (r < 0)
      return -1;
    if (f->out->n == before) {
      if (ex->shopts & SO_FAILGLOB) {
        sh_err(ex, "no match: %s", buf_cstr(&f->val));
        f->failed = 1;
        sh_discard(ex); /* bash drops the rest of the command line */
        return -1;
      }
      if (!(ex->shopts & SO_NULLGLOB)) {
        char *s = arena_strndup(ar, buf_cstr(&f->val), f->val.len);
        if (!s || sh_strv_push(ar, f->out, s))
          return sh_oom(ex);
      }
    }
  } else {
    const buf *src =
        (f->mode == FB_PAT || f->mode == FB_RE) ? &f->pat : &f->val;
    char *s = arena_strndup(ar, src->data ? src->data : "", src->len);
    if (!s || sh_strv_push(ar, f->out, s))
      return sh_oom(ex);
  }
  buf_clear(&f->val);
  buf_clear(&f->pat);
  f->started = 0;
  f->glob = 0;
  return 0;
}

/* $(< file) and `< file`: bash reads the file instead of running a
 * command. That is a body of exactly one simple command made of a lone
 * input redirection (no words, no assignments); the redirection, or NULL. */
static sh_redir *cat_redir(sh_node *n) {
  while (n && n->kind == N_LIST && n->u.list.nitems == 1 &&
         !n->u.list.items[0].async)
    n = n->u.list.items[0].node;
  if (!n || n->kind != N_SIMPLE || n->u.simple.nwords || n->u.simple.assigns)
    return NULL;
  sh_redir *r = n->redirs;
  if (!r || r->next || r->op != R_IN || r->fd > 0 || r->fd_var)
    return NULL;
  return r;
}

/* Read the file of a $(< file) into out: status 0, or 1 with bash's
 * message when it cannot be opened. */
static int cmdsub_cat(sh_exec *ex, sh_redir *r, buf *out) {
  size_t tl;
  char *path = sh_expand_str(ex, r->target, &tl);
  if (!path)
    return 1;
  int err = 0;
  stream *s = sh_open_stream(ex, path, O_RDONLY, &err);
  if (!s && err == EISDIR)
    return 0; /* bash: the read fails, quietly, and $(< dir) is empty */
  if (!s) {
    sh_err(ex, "%s: %s", path, bi_strerror(err));
    return 1;
  }
  char tmp[4096];
  long k;
  while ((k = stream_read(s, tmp, sizeof tmp)) > 0)
    buf_append(out, tmp, (size_t)k);
  stream_unref(s);
  return k < 0 ? 1 : 0;
}

/* Unquoted expansion result: split on IFS (fields mode only). */
static int fb_split(fb *f, const char *s, size_t n) {
  if (f->mode != FB_FIELDS) {
    if (n) {
      fb_add(f, s, n, 0);
      f->started = 1;
    }
    return 0;
  }
  load_ifs(f);
  if (f->ifs_null) {
    if (n)
      fb_add(f, s, n, 0);
    return 0;
  }
  size_t i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    int k = f->ifs[c];
    if (!k) {
      size_t j = i;
      while (j < n && !f->ifs[(unsigned char)s[j]])
        j++;
      fb_add(f, s + i, j - i, 0);
      i = j;
      continue;
    }
    if (k == 1) {
      if (f->started) {
        if (finish_field(f))
          return -1;
        f->dstate = 1;
      }
    } else {
      if (f->started) {
        if (finish_field(f))
          return -1;
      } else if (f->dstate != 1) {
        /* an empty field between two non-whitespace separators */
        f->started = 1;
        if (finish_field(f))
          return -1;
      }
      f->dstate = 2;
    }
    i++;
  }
  return 0;
}

/* Literal text of a ${x:-word} word: split on IFS but glob chars stay
 * active as in any unquoted text. */
static int fb_split_lit(fb *f, const char *s, size_t n) {
  if (f->mode != FB_FIELDS) {
    if (n)
      fb_add(f, s, n, 0);
    return 0;
  }
  return fb_split(f, s, n);
}

/* Force a field break (between "$@" elements). */
static int fb_break(fb *f) {
  if (f->mode != FB_FIELDS) {
    return 0;
  }
  if (f->started)
    return finish_field(f);
  return 0;
}

int fb_end(fb *f) {
  if (f->started || (f->mode != FB_FIELDS && f->out->n == 0 && f->force))
    return finish_field(f);
  if (f->mode != FB_FIELDS && f->out->n == 0)
    return finish_field(f);
  return 0;
}

/* ---- helpers ------------------------------------------------------------ */

unsigned sh_pat_flags(sh_exec *ex) {
  unsigned fl = 0;
  if (ex->shopts & SO_EXTGLOB)
    fl |= PAT_EXTGLOB;
  if (!sh_utf8(ex))
    fl |= PAT_BYTES;
  return fl;
}

static const char *home_of(sh_exec *ex, const char *user) {
  if (!*user) {
    const char *h = sh_getvar(ex, "HOME");
    return h ? h : "/home/user";
  }
  if (strcmp(user, "+") == 0)
    return sh_getvar(ex, "PWD");
  if (strcmp(user, "-") == 0)
    return sh_getvar(ex, "OLDPWD");
  if (strcmp(user, "user") == 0)
    return "/home/user";
  if (strcmp(user, "root") == 0)
    return "/root";
  return NULL;
}

/* Strip trailing newlines and drop NUL bytes (bash warns about them). */
static void cmdsub_trim(buf *b) {
  size_t w = 0;
  for (size_t i = 0; i < b->len; i++)
    if (b->data[i])
      b->data[w++] = b->data[i];
  b->len = w;
  while (b->len && b->data[b->len - 1] == '\n')
    b->len--;
  if (b->data)
    b->data[b->len] = 0;
}

static int expand_parts(fb *f, sh_part *parts, size_t n, int in_dq);

/* Process substitution: the command runs alongside, on a pipe that this
 * shell holds open as /dev/fd/N; the word is that name. */
static int procsub(fb *f, sh_part *p) {
  sh_exec *ex = f->ex;
  char path[64];
  stream *src = NULL;
  sh_redir *cat = p->dir == '<' ? cat_redir(p->u.cmdsub.body) : NULL;
  if (cat) {
    /* <(< file), as $(< file): the file itself, no command */
    size_t tl;
    char *name = sh_expand_str(ex, cat->target, &tl);
    if (!name)
      return -1;
    int err = 0;
    src = sh_open_stream(ex, name, O_RDONLY, &err);
    if (!src) {
      sh_err(ex, "%s: %s", name, bi_strerror(err));
      src = stream_null(ex->m, &ex->run->bud);
      if (!src)
        return sh_oom(ex), -1;
    }
  }
  if (sh_reenter(ex)->procsub(ex, p->u.cmdsub.body, p->dir, src, path,
                              sizeof path))
    return -1;
  fb_add(f, path, strlen(path), 1);
  return 0;
}

static int expand_part(fb *f, sh_part *p, int in_dq) {
  sh_exec *ex = f->ex;
  switch (p->kind) {
  case WP_LIT:
    if (p->u.lit.len == 0 && !p->quoted)
      return 0;
    fb_add(f, p->u.lit.text, p->u.lit.len, p->quoted || in_dq);
    return 0;
  case WP_EXTGLOB:
    if (in_dq)
      fb_add(f, p->u.lit.text, p->u.lit.len, 1);
    else if (extglob_text(f, p->u.lit.text, p->u.lit.len))
      return -1;
    return 0;
  case WP_DQUOTE: {
    int only_at = p->u.dq.nparts > 0;
    for (size_t i = 0; i < p->u.dq.nparts; i++) {
      sh_part *c = &p->u.dq.parts[i];
      if (!(c->kind == WP_PARAM &&
            (c->u.param.index_at == 1 ||
             (c->u.param.name && strcmp(c->u.param.name, "@") == 0))))
        only_at = 0;
    }
    if (!only_at) {
      f->started = 1;
      f->dstate = 0;
    }
    return expand_parts(f, p->u.dq.parts, p->u.dq.nparts, 1);
  }
  case WP_TILDE: {
    char *user = arena_strndup(ex->ar, p->u.lit.text, p->u.lit.len);
    const char *h = user ? home_of(ex, user) : NULL;
    if (!h) {
      fb_add(f, "~", 1, 1);
      fb_add(f, p->u.lit.text, p->u.lit.len, 1);
    } else {
      fb_add(f, h, strlen(h), 1);
    }
    return 0;
  }
  case WP_PARAM: {
    pval v;
    if (sh_param_expand(ex, &p->u.param, in_dq, &v))
      return -1;
    if (v.kind == PV_WORD) {
      /* ${x:-word}: the word expands in the surrounding context. */
      if (!v.word)
        return 0;
      if (in_dq) {
        f->started = 1;
        f->dstate = 0;
        return expand_parts(f, v.word->parts, v.word->nparts, 1);
      }
      /* Unquoted, the word's literal text is split too: ${u:-a "b c"}. */
      for (size_t i = 0; i < v.word->nparts; i++) {
        sh_part *c = &v.word->parts[i];
        if (c->kind == WP_LIT && !c->quoted) {
          if (fb_split_lit(f, c->u.lit.text, c->u.lit.len))
            return -1;
        } else if (expand_part(f, c, 0)) {
          return -1;
        }
      }
      return 0;
    }
    if (v.kind == PV_LIST) {
      int at = !v.star;
      if (in_dq && at && f->mode == FB_FIELDS) {
        for (size_t i = 0; i < v.n; i++) {
          if (i && finish_field(f))
            return -1;
          fb_add(f, v.v[i], strlen(v.v[i]), 1);
        }
        return 0;
      }
      if (in_dq || f->mode != FB_FIELDS) {
        /* joined: "$*" with IFS[0]; in string context "$@" with ' ' */
        load_ifs(f);
        char sep = (at && f->mode != FB_FIELDS) ? ' ' : f->ifs_first;
        int nosep = !(at && f->mode != FB_FIELDS) && f->ifs_null;
        for (size_t i = 0; i < v.n; i++) {
          if (i && !nosep)
            fb_add(f, &sep, 1, in_dq);
          if (in_dq)
            fb_add(f, v.v[i], strlen(v.v[i]), 1);
          else
            fb_split(f, v.v[i], strlen(v.v[i]));
        }
        if (in_dq)
          f->started = 1;
        return 0;
      }
      load_ifs(f);
      if (f->ifs_null && v.star >= PV_STAR_NAMES) {
        for (size_t i = 0; i < v.n; i++)
          if ((i && v.star == PV_STAR_KEYS && fb_split(f, " ", 1)) ||
              fb_split(f, v.v[i], strlen(v.v[i])))
            return -1;
        return 0;
      }
      for (size_t i = 0; i < v.n; i++) {
        /* With IFS set, bash splits unquoted $@ / $* as if the elements
         * were joined with IFS[0]: feeding that separator through the
         * splitter makes empty elements empty fields only between
         * non-whitespace separators, and drops a trailing one. With IFS
         * null, each non-empty element is its own field. */
        if (i) {
          if (f->ifs_null ? fb_break(f) : fb_split(f, &f->ifs_first, 1))
            return -1;
        }
        if (fb_split(f, v.v[i], strlen(v.v[i])))
          return -1;
      }
      return 0;
    }
    if (v.kind == PV_UNSET || !v.len) {
      if (in_dq)
        f->started = 1;
      return 0;
    }
    if (in_dq)
      fb_add(f, v.s, v.len, 1);
    else
      return fb_split(f, v.s, v.len);
    return 0;
  }
  case WP_CMDSUB: {
    buf out;
    buf_init(&out, ex->m);
    sh_redir *cr = cat_redir(p->u.cmdsub.body);
    int st;
    if (p->u.cmdsub.err) {
      sh_err_noline(ex, "command substitution: line %d: %s",
                    p->u.cmdsub.err_line, p->u.cmdsub.err);
      st = 2;
    } else {
      st = cr ? cmdsub_cat(ex, cr, &out)
              : sh_reenter(ex)->cmdsub(ex, p->u.cmdsub.body, &out);
    }
    ex->cmdsub_status = st;
    ex->has_cmdsub = 1;
    cmdsub_trim(&out);
    int r = 0;
    if (in_dq)
      fb_add(f, out.data ? out.data : "", out.len, 1);
    else
      r = fb_split(f, out.data ? out.data : "", out.len);
    buf_free(&out);
    if (sh_stopped(ex))
      return -1;
    return r;
  }
  case WP_ARITH: {
    size_t len;
    char *e = p->u.arith.expr ? sh_expand_str(ex, p->u.arith.expr, &len)
                              : arena_strdup(ex->ar, "");
    if (!e)
      return -1;
    int err = 0;
    int64_t r = sh_arith(ex, e, len, &err);
    if (err) {
      if (!ex->jump)
        sh_discard(ex);
      return -1;
    }
    char tmp[24];
    int k = (int)sh_fmt_int(tmp, r);
    if (in_dq)
      fb_add(f, tmp, (size_t)k, 1);
    else
      return fb_split(f, tmp, (size_t)k);
    return 0;
  }
  case WP_PROCSUB:
    return procsub(f, p);
  }
  return 0;
}

static int expand_parts(fb *f, sh_part *parts, size_t n, int in_dq) {
  for (size_t i = 0; i < n; i++) {
    if (expand_part(f, &parts[i], in_dq))
      return -1;
    if (f->ex->jump)
      return -1;
  }
  return 0;
}

/* ---- brace expansion ------------------------------------------------------
 */

static int needs_brace(sh_exec *ex, sh_word *w) {
  if (!(ex->opts & O_BRACEEXPAND))
    return 0;
  for (size_t i = 0; i < w->nparts; i++) {
    sh_part *p = &w->parts[i];
    if (p->kind == WP_LIT && !p->quoted &&
        memchr(p->u.lit.text, '{', p->u.lit.len))
      return 1;
  }
  return 0;
}

/* The literal text lit[from, to), if any, as the part after the np
 * parts already made; returns the new count. */
static size_t end_lit(sh_part *parts, size_t np, char *lit, size_t from,
                      size_t to) {
  if (to > from) {
    memset(&parts[np], 0, sizeof parts[np]);
    parts[np].kind = WP_LIT;
    parts[np].u.lit.text = lit + from;
    parts[np].u.lit.len = to - from;
    np++;
  }
  return np;
}

static int expand_one_fields(sh_exec *ex, sh_word *w, sh_strv *out);

/* Number of part tokens ("\\\x01") in one encoded brace result. */
static size_t count_tokens(const char *s, size_t n) {
  size_t t = 0;
  for (size_t k = 0; k + 1 < n; k++) {
    if (s[k] != '\\')
      continue;
    if (s[k + 1] == '\x01')
      t++;
    k++; /* an escaped byte is never the start of a token */
  }
  return t;
}

/* Brace expansion comes before tilde expansion, so a result that starts
 * with an unquoted "~" ({~,x}, {~root,b}/c) gets its tilde prefix now. The
 * prefix runs to the first '/', and must be all literal text; parts has
 * room for one more part. */
static size_t brace_tilde(sh_part *parts, size_t np) {
  if (!np || parts[0].kind != WP_LIT || parts[0].quoted ||
      !parts[0].u.lit.len || parts[0].u.lit.text[0] != '~')
    return np;
  const char *t = parts[0].u.lit.text;
  size_t len = parts[0].u.lit.len;
  const char *slash = memchr(t, '/', len);
  if (!slash && np > 1)
    return np; /* ~$x: the prefix is not all literal */
  size_t plen = slash ? (size_t)(slash - t) : len;
  memmove(&parts[1], &parts[0], np * sizeof *parts);
  parts[0].kind = WP_TILDE;
  parts[0].u.lit.text = t + 1;
  parts[0].u.lit.len = plen - 1;
  parts[1].u.lit.text = t + plen;
  parts[1].u.lit.len = len - plen;
  if (!parts[1].u.lit.len) {
    memmove(&parts[1], &parts[2], (np - 1) * sizeof *parts);
    return np;
  }
  return np + 1;
}

/* A backquote made by a range ({z..A}) starts a command substitution for
 * bash, which then finds no end to it (unless it is the last byte). */
static int brace_backquote(sh_exec *ex, const char *s, size_t n) {
  for (size_t k = 0; k < n; k++) {
    if (s[k] == '\\') {
      k++;
      continue;
    }
    if (s[k] == '`' && k + 1 < n && !memchr(s + k + 1, '`', n - k - 1)) {
      sh_err(ex, "bad substitution: no closing \"`\" in %.*s", (int)(n - k),
             s + k);
      sh_discard(ex);
      return -1;
    }
  }
  return 0;
}

/* Brace expansion is textual in bash, so a $name that a result puts
 * before letters reads them as part of the name: {$a,b}_c gives $a_c. */
static int brace_join_names(sh_exec *ex, sh_part *parts, size_t *np) {
  for (size_t i = 0; i + 1 < *np; i++) {
    sh_part *p = &parts[i], *q = &parts[i + 1];
    if (p->kind != WP_PARAM || p->u.param.braced || p->u.param.op != PO_PLAIN ||
        p->u.param.index || !p->u.param.name ||
        !sh_valid_name(p->u.param.name, strlen(p->u.param.name)) ||
        q->kind != WP_LIT || q->quoted)
      continue;
    size_t k = 0;
    while (k < q->u.lit.len && (q->u.lit.text[k] == '_' ||
                                isalnum((unsigned char)q->u.lit.text[k])))
      k++;
    if (!k)
      continue;
    size_t nl = strlen(p->u.param.name);
    char *name = arena_alloc(ex->ar, nl + k + 1);
    if (!name)
      return sh_oom(ex);
    memcpy(name, p->u.param.name, nl);
    memcpy(name + nl, q->u.lit.text, k);
    name[nl + k] = 0;
    p->u.param.name = name;
    q->u.lit.text += k;
    q->u.lit.len -= k;
    if (!q->u.lit.len) {
      memmove(q, q + 1, (*np - i - 2) * sizeof *q);
      (*np)--;
    }
  }
  return 0;
}

/* Encode the word for sh_brace_expand: unquoted literal text as is, every
 * other part as an escaped token "\\\x01" digits "\\\x02". Each result is
 * decoded and expanded at once into out. Results can number in the
 * millions ({1..2000000}), so each costs only what it needs: a result that
 * is plain text without glob characters is a field as it stands, and the
 * others get a part array sized by their tokens. */
static int brace_words(sh_exec *ex, sh_word *w, sh_strv *out) {
  arena *ar = ex->ar;
  buf enc;
  buf_init(&enc, ex->m);
  for (size_t i = 0; i < w->nparts; i++) {
    sh_part *p = &w->parts[i];
    if (p->kind == WP_LIT && !p->quoted) {
      for (size_t k = 0; k < p->u.lit.len; k++) {
        if (p->u.lit.text[k] == '\\')
          buf_putc(&enc, '\\');
        buf_putc(&enc, p->u.lit.text[k]);
      }
    } else {
      char d[24];
      int nd = snprintf(d, sizeof d, "%zu", i);
      buf_puts(&enc, "\\\x01");
      for (int k = 0; k < nd; k++) {
        buf_putc(&enc, '\\');
        buf_putc(&enc, d[k]);
      }
      buf_puts(&enc, "\\\x02");
    }
  }
  char **res;
  size_t *lens;
  size_t nr =
      sh_brace_expand(ar, enc.data ? enc.data : "", enc.len, &res, &lens);
  int why = errno;
  buf_free(&enc);
  if (!nr) {
    if (why != ELOOP && why != E2BIG)
      return sh_oom(ex);
    sh_err(ex, why == ELOOP ? "brace expansion: braces nested too deeply"
                            : "brace expansion: too much to expand");
    sh_discard(ex);
    return -1;
  }
  unsigned pflags = sh_pat_flags(ex);
  for (size_t r = 0; r < nr; r++) {
    const char *s = res[r];
    size_t n = lens[r];
    if (brace_backquote(ex, s, n))
      return -1;
    size_t ntok = count_tokens(s, n);
    char *lit = arena_alloc(ar, n + 1);
    if (!lit)
      return sh_oom(ex);
    if (!ntok) {
      size_t ll = 0;
      for (size_t k = 0; k < n; k++)
        lit[ll++] = s[k] == '\\' && k + 1 < n ? s[++k] : s[k];
      lit[ll] = 0;
      if (!ll)
        continue; /* an empty unquoted word expands to nothing */
      if (lit[0] != '~' && !pat_has_magic(lit, ll, pflags)) {
        if (sh_strv_push(ar, out, lit))
          return sh_oom(ex);
        continue;
      }
    }
    sh_part *parts = arena_alloc(ar, (2 * ntok + 2) * sizeof *parts);
    sh_word *nw = arena_calloc(ar, sizeof *nw);
    if (!parts || !nw)
      return sh_oom(ex);
    size_t np = 0, ll = 0;
    size_t litstart = 0;
    for (size_t k = 0; k < n;) {
      if (s[k] == '\\' && k + 1 < n && s[k + 1] == '\x01') {
        np = end_lit(parts, np, lit, litstart, ll);
        litstart = ll;
        k += 2;
        size_t idx = 0;
        while (k + 1 < n && s[k] == '\\' && s[k + 1] != '\x02') {
          idx = idx * 10 + (size_t)(s[k + 1] - '0');
          k += 2;
        }
        k += 2;
        if (idx < w->nparts)
          parts[np++] = w->parts[idx];
        continue;
      }
      if (s[k] == '\\' && k + 1 < n) {
        lit[ll++] = s[k + 1];
        k += 2;
        continue;
      }
      lit[ll++] = s[k++];
    }
    np = end_lit(parts, np, lit, litstart, ll);
    np = brace_tilde(parts, np);
    if (brace_join_names(ex, parts, &np))
      return -1;
    nw->parts = parts;
    nw->nparts = np;
    nw->flags = w->flags;
    nw->src = w->src;
    nw->src_len = w->src_len;
    if (expand_one_fields(ex, nw, out))
      return -1;
    if (ex->jump)
      return -1;
  }
  return 0;
}

/* ---- entry points -------------------------------------------------------- */

static int simple_lit(sh_word *w) {
  if (w->nparts != 1)
    return 0;
  sh_part *p = &w->parts[0];
  if (p->kind != WP_LIT)
    return 0;
  if (p->quoted)
    return 1;
  for (size_t i = 0; i < p->u.lit.len; i++) {
    char c = p->u.lit.text[i];
    if (c == '*' || c == '?' || c == '[' || c == '{')
      return 0;
  }
  return 1;
}

static int expand_one_fields(sh_exec *ex, sh_word *w, sh_strv *out) {
  fb f;
  fb_init(&f, ex, FB_FIELDS, out);
  int r = expand_parts(&f, w->parts, w->nparts, 0);
  if (!r)
    r = fb_end(&f);
  fb_free(&f);
  return r;
}

int sh_expand_word_fields(sh_exec *ex, sh_word *w, sh_strv *out) {
  if (simple_lit(w)) {
    char *s =
        arena_strndup(ex->ar, w->parts[0].u.lit.text, w->parts[0].u.lit.len);
    if (!s || sh_strv_push(ex->ar, out, s))
      return sh_oom(ex);
    return 0;
  }
  if (needs_brace(ex, w)) {
    /* A brace expansion that fails (memory, nesting) fails the word: it
     * is never used unexpanded, which would change its meaning. */
    return brace_words(ex, w, out);
  }
  return expand_one_fields(ex, w, out);
}

int sh_expand_words(sh_exec *ex, sh_word **words, size_t n, sh_strv *out) {
  for (size_t i = 0; i < n; i++) {
    if (sh_expand_word_fields(ex, words[i], out))
      return -1;
    if (ex->jump)
      return -1;
  }
  return 0;
}

static char *expand_mode(sh_exec *ex, sh_word *w, size_t *len, int mode) {
  if (!w) {
    *len = 0;
    return arena_strdup(ex->ar, "");
  }
  if (mode == FB_STR && simple_lit(w)) {
    *len = w->parts[0].u.lit.len;
    return arena_strndup(ex->ar, w->parts[0].u.lit.text, *len);
  }
  sh_strv sv = {0};
  fb f;
  fb_init(&f, ex, mode, &sv);
  int r = expand_parts(&f, w->parts, w->nparts, 0);
  if (!r) {
    f.started = 1;
    r = finish_field(&f);
  }
  fb_free(&f);
  if (r || !sv.n)
    return NULL;
  *len = strlen(sv.v[0]);
  return sv.v[0];
}

char *sh_expand_str(sh_exec *ex, sh_word *w, size_t *len) {
  return expand_mode(ex, w, len, FB_STR);
}

char *sh_expand_pattern(sh_exec *ex, sh_word *w, size_t *len) {
  return expand_mode(ex, w, len, FB_PAT);
}

char *sh_expand_regex(sh_exec *ex, sh_word *w, size_t *len) {
  return expand_mode(ex, w, len, FB_RE);
}
