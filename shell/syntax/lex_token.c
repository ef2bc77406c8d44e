/*
 * lex_token.c - the token level of the lexer: operators, redirections,
 * assignment words (with array literals) and here-document bodies, which
 * are read when the newline ending their command is lexed.
 */
#include <string.h>

#include "shell/syntax/lex.h"

/* ---- assignments ------------------------------------------------------- */

/* From offset k (just after '['), the offset after the matching ']', or 0
 * when there is none before the end of the line. */
static size_t match_bracket(sh_parser *p, size_t k) {
  int depth = 0;
  for (;;) {
    int c = sh_peekc_at(p, k++);
    if (c == -1 || c == '\n')
      return 0;
    if (c == '\\') {
      k++;
    } else if (c == '\'' || c == '"') {
      int q = c;
      while ((c = sh_peekc_at(p, k)) != q) {
        if (c == -1)
          return 0;
        if (q == '"' && c == '\\')
          k++;
        k++;
      }
      k++;
    } else if (c == '[') {
      depth++;
    } else if (c == ']') {
      if (!depth)
        return k;
      depth--;
    }
  }
}

/* Whether the text from offset k ends before a `]' or a newline does. */
static int bracket_to_eof(sh_parser *p, size_t k) {
  for (;;) {
    int c = sh_peekc_at(p, k++);
    if (c == -1)
      return 1;
    if (c == '\n' || c == ']')
      return 0;
  }
}

static sh_word *lex_value(sh_parser *p) {
  span s = sh_span_start(p);
  wbuild b;
  sh_wb_init(&b, p);
  sh_lex_parts(p, &b, WM_NORMAL, WF_ASSIGN);
  sh_word *w = sh_wb_word(&b);
  w->src = sh_span_ptr(s);
  w->src_len = sh_span_len(p, s);
  return w;
}

static void skip_array_space(sh_parser *p) {
  for (;;) {
    sh_skip_blanks(p);
    if (sh_peekc(p) != '\n')
      return;
    sh_getc(p);
  }
}

static void lex_array(sh_parser *p, sh_assign *as) {
  int line = p->line;
  sh_getc(p); /* ( */
  size_t cap = 0;
  sh_enter(p);
  for (;;) {
    skip_array_space(p);
    int c = sh_peekc(p);
    if (c == ')') {
      sh_getc(p);
      break;
    }
    if (c == -1)
      sh_fail_eof_match(p, line, ")");
    as->array = sh_grow(p, as->array, &cap, as->narray, sizeof *as->array);
    sh_array_elem *e = &as->array[as->narray];
    memset(e, 0, sizeof *e);
    size_t k;
    if (c == '[' && (k = match_bracket(p, 1)) &&
        (sh_peekc_at(p, k) == '=' ||
         (sh_peekc_at(p, k) == '+' && sh_peekc_at(p, k + 1) == '='))) {
      sh_getc(p);
      e->key = sh_sub_word(p, WM_SUBSCRIPT, 0, 1);
      sh_getc(p); /* ] */
      if (sh_getc(p) == '+') {
        e->append = 1;
        sh_getc(p);
      }
      e->value = lex_value(p);
    } else {
      span s = sh_span_start(p);
      wbuild b;
      sh_wb_init(&b, p);
      sh_lex_parts(p, &b, WM_NORMAL, WF_ELEM);
      if (sh_wb_empty(&b)) {
        sh_tok t;
        memset(&t, 0, sizeof t);
        t.kind = T_WORD;
        t.line = p->line;
        t.src = sh_here(p);
        t.src_len = 1;
        p->assign_err = 1;
        sh_unexpected(p, &t);
      }
      e->value = sh_wb_word(&b);
      e->value->src = sh_span_ptr(s);
      e->value->src_len = sh_span_len(p, s);
    }
    as->narray++;
  }
  sh_leave(p);
}

/* NAME=, NAME+=, NAME[sub]= at the start of a word: read the assignment
 * (and its value) and return it; NULL when the word is not one. */
static sh_assign *try_assign(sh_parser *p, int mode) {
  size_t k = 0;
  if (!sh_is_name_start(sh_peekc(p)))
    return NULL;
  while (sh_is_name_char(sh_peekc_at(p, k)))
    k++;
  size_t nlen = k, sub_end = 0;
  int c = sh_peekc_at(p, k);
  if (c == '[') {
    /* In command position, a[1 + 1]=x is one word (bash reads the
     * subscript first); as an argument it needs no blanks. */
    sub_end = match_bracket(p, k + 1);
    if (!sub_end && (mode & LX_CMD) && bracket_to_eof(p, k + 1))
      /* bash reads a[... in command position up to its `]' */
      sh_fail_eof_match(p, p->line, "]");
    if (!sub_end)
      return NULL;
    if (!(mode & LX_CMD))
      for (size_t i = k; i < sub_end; i++)
        if (sh_is_meta(sh_peekc_at(p, i)))
          return NULL;
    k = sub_end;
    c = sh_peekc_at(p, k);
  }
  int append = 0;
  if (c == '+' && sh_peekc_at(p, k + 1) == '=')
    append = 1;
  else if (c != '=')
    return NULL;
  sh_assign *as = sh_alloc(p, sizeof *as);
  char *name = sh_alloc(p, nlen + 1);
  for (size_t i = 0; i < nlen; i++)
    name[i] = (char)sh_getc(p);
  as->name = name;
  as->append = append;
  if (sub_end) {
    sh_getc(p);
    as->index = sh_sub_word(p, WM_SUBSCRIPT, 0, 1);
    sh_getc(p);
  }
  if (append)
    sh_getc(p);
  sh_getc(p);
  if (sh_peekc(p) == '(') {
    as->is_array = 1;
    lex_array(p, as);
  } else {
    as->value = lex_value(p);
  }
  return as;
}

/* ---- here-documents ---------------------------------------------------- */

static void read_heredocs(sh_parser *p) {
  size_t n = p->ndocs;
  p->ndocs = 0;
  for (size_t i = 0; i < n; i++) {
    sh_pending_doc *d = &p->docs[i];
    sh_redir *r = d->r;
    wbuild body;
    sh_wb_init(&body, p);
    for (;;) {
      if (sh_peekc(p) == -1) {
        if (p->o.interactive)
          sh_fail(p, 1,
                  "here-document at line %d delimited by end-of-file "
                  "(wanted `%s')",
                  p->line, d->delim);
        break; /* bash warns and takes what it has */
      }
      size_t start = body.llen;
      int c;
      int cont = 0;
      if (r->strip_tabs)
        while (sh_peekc(p) == '\t')
          sh_getc(p);
      while ((c = sh_getc(p)) != -1 && c != '\n')
        sh_wb_addc(&body, c, 1);
      size_t ll = body.llen - start;
      if (ll == d->dlen && (!ll || !memcmp(body.lit + start, d->delim, ll))) {
        body.llen = start;
        break;
      }
      if (!r->heredoc_quoted) {
        /* An odd run of backslashes joins the next line to this one. */
        size_t bs = 0;
        while (bs < ll && body.lit[body.llen - 1 - bs] == '\\')
          bs++;
        cont = bs & 1;
      }
      if (c == '\n' || ll)
        sh_wb_addc(&body, '\n', 1);
      if (cont) {
        /* keep the \<newline> for the body lexer; the next line cannot
         * end the document. */
        while ((c = sh_getc(p)) != -1) {
          sh_wb_addc(&body, c, 1);
          if (c == '\n')
            break;
        }
      }
    }
    const char *text = body.lit ? sh_strndup(p, body.lit, body.llen) : "";
    if (r->heredoc_quoted) {
      sh_word *w = sh_alloc(p, sizeof *w);
      if (body.llen) {
        w->parts = sh_alloc(p, sizeof *w->parts);
        w->nparts = 1;
        w->parts[0].kind = WP_LIT;
        w->parts[0].quoted = 1;
        w->parts[0].u.lit.text = text;
        w->parts[0].u.lit.len = body.llen;
      }
      w->src = text;
      w->src_len = body.llen;
      r->heredoc = w;
    } else {
      r->heredoc = sh_lex_heredoc_body(p, text, body.llen);
    }
  }
  /* A function whose body has here-documents: its text runs to the end of
   * the last body (the interpreter may keep a function as text). */
  const char *end = sh_here(p);
  for (size_t i = 0; i < p->ndoc_funcs; i++) {
    sh_node *f = p->doc_funcs[i];
    const char *src = f->u.func.src;
    for (const sh_input *in = p->in; in && src; in = in->prev) {
      if (src >= in->s && src <= in->s + in->len) {
        if (end >= src && end <= in->s + in->len) {
          size_t len = (size_t)(end - src);
          while (len && src[len - 1] == '\n')
            len--;
          f->u.func.src_len = len;
        }
        break;
      }
    }
  }
  p->ndoc_funcs = 0;
}

void sh_add_heredoc(sh_parser *p, sh_redir *r, const sh_word *w);
void sh_add_heredoc(sh_parser *p, sh_redir *r, const sh_word *w) {
  /* The delimiter is the word's text after quote removal, unexpanded. */
  char *d = sh_alloc(p, w->src_len + 1);
  size_t n = 0;
  int quoted = 0;
  const char *s = w->src;
  for (size_t i = 0; i < w->src_len; i++) {
    char c = s[i];
    if (c == '\\' && i + 1 < w->src_len) {
      quoted = 1;
      d[n++] = s[++i];
    } else if (c == '\'') {
      quoted = 1;
      while (++i < w->src_len && s[i] != '\'')
        d[n++] = s[i];
    } else if (c == '"') {
      quoted = 1;
      while (++i < w->src_len && s[i] != '"') {
        if (s[i] == '\\' && i + 1 < w->src_len && strchr("$`\"\\", s[i + 1]))
          i++;
        d[n++] = s[i];
      }
    } else if (c == '$' && i + 1 < w->src_len &&
               (s[i + 1] == '\'' || s[i + 1] == '"')) {
      continue;
    } else {
      d[n++] = c;
    }
  }
  r->heredoc_quoted = quoted;
  p->ndocs_total++;
  p->docs = sh_grow(p, p->docs, &p->capdocs, p->ndocs, sizeof *p->docs);
  p->docs[p->ndocs].r = r;
  p->docs[p->ndocs].delim = d;
  p->docs[p->ndocs].dlen = n;
  p->ndocs++;
}

/* ---- tokens ------------------------------------------------------------ */

static int lex_redir_op(sh_parser *p, sh_tok *t) {
  int c = sh_getc(p);
  int n = sh_peekc(p);
  if (c == '<') {
    if (n == '<') {
      sh_getc(p);
      if (sh_peekc(p) == '<') {
        sh_getc(p);
        t->rop = R_HERESTRING;
      } else {
        t->rop = R_HEREDOC;
        if (sh_peekc(p) == '-') {
          sh_getc(p);
          t->strip = 1;
        }
      }
    } else if (n == '&') {
      sh_getc(p);
      t->rop = R_DUP_IN;
    } else if (n == '>') {
      sh_getc(p);
      t->rop = R_INOUT;
    } else {
      t->rop = R_IN;
    }
  } else {
    if (n == '>') {
      sh_getc(p);
      t->rop = R_APPEND;
    } else if (n == '&') {
      sh_getc(p);
      t->rop = R_DUP_OUT;
    } else if (n == '|') {
      sh_getc(p);
      t->rop = R_CLOBBER;
    } else {
      t->rop = R_OUT;
    }
  }
  return T_REDIR;
}

static void lex_token(sh_parser *p, sh_tok *t, int mode) {
  memset(t, 0, sizeof *t);
  t->mode = mode;
  t->fd = -1;
  p->blank_alias_popped = 0;
  sh_skip_blanks(p);
  span s = sh_span_start(p);
  /* The first word of an alias value and the word after a value ending in
   * a blank are candidates for alias expansion too. */
  t->alias_ok = p->blank_alias_popped || p->alias_first;
  p->blank_alias_popped = 0;
  p->alias_first = 0;
  t->line = p->line;
  t->src = sh_span_ptr(s);
  int c = sh_peekc(p), c1 = sh_peekc_at(p, 1);
  int k = T_WORD;
  if (c == -1 && p->in == &p->base && !p->virt_nl && p->base.len &&
      p->base.s[p->base.len - 1] != '\n') {
    /* Bash reads a text that does not end in a newline as if it did:
     * `echo (` fails at `newline', an unclosed `if` on the next line. */
    p->virt_nl = 1;
    p->line++;
    if (p->ndocs)
      read_heredocs(p);
    t->kind = T_NEWLINE;
    return;
  }
  if (c == -1) {
    if (p->ndocs)
      read_heredocs(p);
    k = T_EOF;
  } else if (c == '\n') {
    sh_getc(p);
    if (p->ndocs)
      read_heredocs(p);
    t->src_len = 1;
    t->kind = T_NEWLINE;
    return;
  } else if ((mode & LX_COND) && !(mode & LX_PAT) && c == '!' && c1 == '(' &&
             !sh_extglob_on(p)) {
    /* [[ !(a) ]] is the ! operator then a group, unless extglob is on */
    sh_getc(p);
    t->kind = T_WORD;
    t->src_len = 1;
    t->w = sh_alloc(p, sizeof *t->w);
    t->w->parts = sh_alloc(p, sizeof *t->w->parts);
    t->w->nparts = 1;
    t->w->parts[0].kind = WP_LIT;
    t->w->parts[0].u.lit.text = "!";
    t->w->parts[0].u.lit.len = 1;
    t->w->src = t->src;
    t->w->src_len = 1;
    return;
  } else if ((mode & LX_COND) &&
             /* <( and >( start a process substitution, as outside [[ ]] */
             ((c == '<' && c1 != '(') || (c == '>' && c1 != '(') ||
              (c == '(' && c1 != '(') || c == ')' || (c == '&' && c1 == '&') ||
              (c == '|' && c1 == '|'))) {
    sh_getc(p);
    if (c == '&' || c == '|')
      sh_getc(p);
    k = c == '('   ? T_LPAREN
        : c == ')' ? T_RPAREN
        : c == '&' ? T_AND_IF
        : c == '|' ? T_OR_IF
                   : T_COND_OP;
    t->op = c == '<' ? "<" : ">";
  } else if (c == ';') {
    sh_getc(p);
    k = T_SEMI;
    if (c1 == ';') {
      sh_getc(p);
      k = T_DSEMI;
      if (sh_peekc(p) == '&') {
        sh_getc(p);
        k = T_DSEMI_AMP;
      }
    } else if (c1 == '&') {
      sh_getc(p);
      k = T_SEMI_AMP;
    }
  } else if (c == '&') {
    sh_getc(p);
    k = T_AMP;
    if (c1 == '&') {
      sh_getc(p);
      k = T_AND_IF;
    } else if (c1 == '>') {
      sh_getc(p);
      k = T_REDIR;
      t->rop = R_OUT_ERR;
      if (sh_peekc(p) == '>') {
        sh_getc(p);
        t->rop = R_APPEND_OUT_ERR;
      }
    }
  } else if (c == '|') {
    sh_getc(p);
    k = T_PIPE;
    if (c1 == '|') {
      sh_getc(p);
      k = T_OR_IF;
    } else if (c1 == '&') {
      sh_getc(p);
      k = T_PIPE_AMP;
    }
  } else if (c == '(') {
    sh_getc(p);
    k = T_LPAREN;
    if (c1 == '(' && (mode & LX_CMD) && sh_arith_ahead(p, 1)) {
      sh_getc(p);
      k = T_DLPAREN;
    }
  } else if (c == ')') {
    sh_getc(p);
    k = T_RPAREN;
  } else if ((c == '<' || c == '>') && c1 != '(') {
    k = lex_redir_op(p, t);
  } else {
    /* fd number or {var} before a redirection operator */
    size_t j = 0;
    while (sh_is_digit(sh_peekc_at(p, j)))
      j++;
    int after = sh_peekc_at(p, j);
    if (j && (after == '<' || after == '>') && sh_peekc_at(p, j + 1) != '(' &&
        !(mode & LX_COND)) {
      long fd = 0;
      for (size_t i = 0; i < j; i++) {
        fd = fd * 10 + (sh_getc(p) - '0');
        if (fd > 1 << 30)
          fd = 1 << 30;
      }
      t->fd = (int)fd;
      k = lex_redir_op(p, t);
    } else if (c == '{' && sh_is_name_start(c1) && !(mode & LX_COND)) {
      j = 1;
      while (sh_is_name_char(sh_peekc_at(p, j)))
        j++;
      after = sh_peekc_at(p, j + 1);
      if (sh_peekc_at(p, j) == '}' && (after == '<' || after == '>') &&
          sh_peekc_at(p, j + 2) != '(') {
        sh_getc(p);
        char *v = sh_alloc(p, j);
        for (size_t i = 0; i + 1 < j; i++)
          v[i] = (char)sh_getc(p);
        sh_getc(p);
        t->fd_var = v;
        k = lex_redir_op(p, t);
      }
    }
  }
  if (k != T_WORD) {
    t->kind = (sh_tok_kind)k;
    t->src_len = sh_span_len(p, s);
    return;
  }
  /* A word. */
  t->kind = T_WORD;
  if (mode & (LX_CMD | LX_DECL | LX_EVAL)) {
    sh_assign *as = try_assign(p, mode);
    if (as && (mode & LX_EVAL) && as->is_array) {
      /* eval/let x=(...): not an assignment, the text is the argument. */
      size_t len = sh_span_len(p, s);
      wbuild b;
      sh_wb_init(&b, p);
      sh_wb_adds(&b, sh_span_ptr(s), len, 1);
      t->w = sh_wb_word(&b);
      t->w->src = sh_span_ptr(s);
      t->w->src_len = t->src_len = len;
      return;
    }
    if (as) {
      if (!(mode & LX_EVAL))
        t->as = as;
      size_t len = sh_span_len(p, s);
      sh_word *w = sh_alloc(p, sizeof *w);
      w->src = sh_span_ptr(s);
      w->src_len = len;
      if (!(mode & LX_EVAL))
        w->assign = as;
      /* Parts for the interpreter's fallback and printing: the text up to
       * and including '=' as a literal, then the value's parts. */
      size_t eq = as->value && as->value->src >= w->src &&
                          as->value->src <= w->src + len
                      ? (size_t)(as->value->src - w->src)
                      : len;
      size_t np = 1 + (as->value ? as->value->nparts : 0);
      w->parts = sh_alloc(p, np * sizeof *w->parts);
      w->parts[0].kind = WP_LIT;
      w->parts[0].u.lit.text = sh_strndup(p, w->src, eq);
      w->parts[0].u.lit.len = eq;
      if (as->value && as->value->nparts) {
        memcpy(w->parts + 1, as->value->parts,
               as->value->nparts * sizeof *w->parts);
        w->flags = as->value->flags;
      }
      w->nparts = np;
      if (mode & LX_DECL)
        w->flags |= SW_ASSIGN_LIKE;
      t->w = w;
      t->src_len = len;
      return;
    }
  }
  wbuild b;
  sh_wb_init(&b, p);
  /* bash parses [[ ]] with extglob on */
  sh_lex_parts(p, &b, WM_NORMAL, (mode & LX_COND) ? WF_EXTGLOB : 0);
  t->w = sh_wb_word(&b);
  t->src_len = sh_span_len(p, s);
  t->w->src = t->src;
  t->w->src_len = t->src_len;
  if (k == T_WORD && sh_wb_empty(&b) && !b.has_quotes && !t->src_len) {
    /* Nothing readable here (e.g. a lone '(' in [[ ]]): report it. */
    sh_getc(p);
    t->src_len = 1;
    sh_unexpected(p, t);
  }
}

/* ---- aliases ----------------------------------------------------------- */

static int alias_active(sh_parser *p, const char *name) {
  for (const sh_input *in = p->in; in; in = in->prev)
    if (in->alias && !strcmp(in->alias, name))
      return 1;
  return 0;
}

/* If the word token is an alias, replace it by the alias value (read in
 * its place) and return 1: the caller reads the token again. */
int sh_try_alias(sh_parser *p, sh_tok *t) {
  if (!p->o.alias || t->kind != T_WORD || t->as)
    return 0;
  const char *name = sh_word_plain(t->w);
  if (!name || alias_active(p, name))
    return 0;
  const char *v = p->o.alias(p->o.alias_ud, name);
  if (!v)
    return 0;
  /* Copy: the alias may be redefined while this tree lives. */
  size_t n = strlen(v);
  char *copy = sh_strndup(p, v, n);
  sh_consume(p);
  sh_push_input(p, copy, n, sh_strndup(p, name, strlen(name)), 0);
  return 1;
}

sh_tok *sh_peek_lex(sh_parser *p, int mode) {
  lex_token(p, &p->tok, mode);
  p->have_tok = 1;
  /* A word after an alias whose value ends in a blank (and the first
   * word of an alias value) is checked too, wherever it is. */
  while (p->tok.alias_ok && !(mode & LX_COND) && sh_try_alias(p, &p->tok)) {
    lex_token(p, &p->tok, mode);
    p->have_tok = 1;
  }
  return &p->tok;
}

void sh_consume(sh_parser *p) {
  p->have_tok = 0;
}
