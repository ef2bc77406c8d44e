/*
 * parse.c - the bash grammar: tokens (lex.c) to the tree of ast.h.
 *
 * Recursive descent over bash's grammar. Reserved words are plain words
 * recognised only where a command may start; the lexer is told what
 * position it is reading for (LX_* modes) since bash's lexical rules depend
 * on it (assignments, (( and declare's arguments).
 */
#include <string.h>

#include "core/buf.h"
#include "shell/syntax/lex.h"
#include "shell/syntax/parse_internal.h"

void sh_add_heredoc(sh_parser *p, sh_redir *r, const sh_word *w);

static sh_node *parse_and_or(sh_parser *p);
static sh_node *parse_command(sh_parser *p);
static sh_node *parse_compound(sh_parser *p, sh_tok *t);

sh_node *sh_new_node(sh_parser *p, sh_node_kind k, int line) {
  sh_node *n = sh_alloc(p, sizeof *n);
  n->kind = k;
  n->line = line;
  return n;
}

/* ---- helpers ----------------------------------------------------------- */

static void skip_newlines(sh_parser *p, int mode) {
  while (sh_peek(p, mode)->kind == T_NEWLINE)
    sh_consume(p);
}

static void expect_rw(sh_parser *p, const char *rw) {
  sh_tok *t = sh_peek(p, LX_CMD);
  if (!sh_tok_is(t, rw))
    sh_unexpected(p, t);
  sh_consume(p);
}

/* Tokens that end a compound list: what may follow it in some construct. */
static int is_stop(const sh_tok *t) {
  static const char *const rws[] = {"then", "elif", "else", "fi", "do",
                                    "done", "esac", "}",    NULL};
  switch (t->kind) {
  case T_EOF:
  case T_RPAREN:
  case T_DSEMI:
  case T_SEMI_AMP:
  case T_DSEMI_AMP:
    return 1;
  case T_WORD:
    for (int i = 0; rws[i]; i++)
      if (sh_tok_is(t, rws[i]))
        return 1;
    return 0;
  default:
    return 0;
  }
}

typedef struct listb {
  sh_list_item *items;
  size_t n, cap;
} listb;

static void list_add(sh_parser *p, listb *l, sh_node *n, int async,
                     int newline) {
  l->items = sh_grow(p, l->items, &l->cap, l->n, sizeof *l->items);
  l->items[l->n].node = n;
  l->items[l->n].async = async;
  l->items[l->n].newline = newline;
  l->n++;
}

/* One item that is not async stands for itself; anything else is a list. */
static sh_node *list_done(sh_parser *p, listb *l, int line, int force) {
  if (!force && l->n == 1 && !l->items[0].async)
    return l->items[0].node;
  sh_node *n = sh_new_node(p, N_LIST, line);
  n->u.list.items = l->items;
  n->u.list.nitems = l->n;
  return n;
}

/* A compound list: commands separated by ; & or newlines, up to a token
 * that ends it (left for the caller). Bash wants at least one command. */
static sh_node *parse_compound_list(sh_parser *p, int allow_empty) {
  listb l = {0};
  skip_newlines(p, LX_CMD);
  sh_tok *t = sh_peek(p, LX_CMD);
  int line = t->line;
  if (is_stop(t)) {
    if (!allow_empty)
      sh_unexpected(p, t);
    return NULL;
  }
  sh_enter(p);
  for (;;) {
    sh_node *n = parse_and_or(p);
    t = sh_peek(p, LX_ARG);
    int async = 0;
    if (t->kind == T_AMP || t->kind == T_SEMI || t->kind == T_NEWLINE) {
      async = t->kind == T_AMP;
      int nl = t->kind == T_NEWLINE;
      sh_consume(p);
      list_add(p, &l, n, async, nl);
    } else {
      list_add(p, &l, n, 0, 0);
      break;
    }
    skip_newlines(p, LX_CMD);
    if (is_stop(sh_peek(p, LX_CMD)))
      break;
  }
  sh_leave(p);
  return list_done(p, &l, line, 0);
}

/* ---- redirections ------------------------------------------------------ */

static int all_digits(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

static void parse_redir(sh_parser *p, sh_redir ***tail) {
  sh_tok *t = sh_peek(p, LX_ARG);
  sh_redir *r = sh_alloc(p, sizeof *r);
  r->op = t->rop;
  r->fd = t->fd;
  r->fd_var = t->fd_var;
  r->strip_tabs = t->strip;
  sh_consume(p);
  size_t k = 0;
  while (sh_peekc_at(p, k) == ' ' || sh_peekc_at(p, k) == '\t')
    k++;
  if ((r->op == R_DUP_IN || r->op == R_DUP_OUT) && sh_peekc_at(p, k) == '-') {
    /* bash reads the - of n>&- and n<&- on its own: `>&-1` and `>& -1`
     * close stdout and pass 1 as an argument, rather than name a file. */
    while (k-- > 0)
      sh_getc(p);
    sh_getc(p);
    wbuild b;
    sh_wb_init(&b, p);
    sh_wb_addc(&b, '-', 0);
    r->target = sh_wb_word(&b);
    r->target->src = "-";
    r->target->src_len = 1;
    **tail = r;
    *tail = &r->next;
    return;
  }
  t = sh_peek(p, LX_ARG);
  if (t->kind != T_WORD)
    sh_unexpected(p, t);
  r->target = t->w;
  sh_consume(p);
  if (r->op == R_HEREDOC) {
    sh_add_heredoc(p, r, r->target);
  } else if (r->op == R_DUP_OUT && r->fd == -1 && !r->fd_var) {
    /* >&word with a literal that is no fd number (nor -, nor N-) means
     * &>word; with expansions (a glob too: >&1* may name fd 10) the
     * interpreter decides at run time. */
    const char *s = sh_word_plain(r->target);
    if (s && !strpbrk(s, "*?[")) {
      size_t n = strlen(s);
      char tmp[32];
      int numeric = 0;
      if (!strcmp(s, "-")) {
        numeric = 1;
      } else if (n < sizeof tmp) {
        memcpy(tmp, s, n + 1);
        if (n > 1 && tmp[n - 1] == '-')
          tmp[n - 1] = 0;
        numeric = all_digits(tmp);
      }
      if (!numeric)
        r->op = R_OUT_ERR;
    }
  }
  **tail = r;
  *tail = &r->next;
}

static void parse_trailing_redirs(sh_parser *p, sh_node *n) {
  sh_redir **tail = &n->redirs;
  while (*tail)
    tail = &(*tail)->next;
  while (sh_peek(p, LX_ARG)->kind == T_REDIR)
    parse_redir(p, &tail);
}

/* ---- simple commands and function definitions -------------------------- */

/* Commands whose NAME=... arguments bash reads as assignments: LX_DECL
 * for the declaration builtins (assign-like words), LX_EVAL for eval and
 * let, which only get x=(...) kept together as one literal word. */
static int decl_mode(const char *s) {
  if (!s || !s[0] || !strchr("dtlera", s[0]))
    return LX_ARG; /* none of the names below */
  if (!strcmp(s, "declare") || !strcmp(s, "typeset") || !strcmp(s, "local") ||
      !strcmp(s, "export") || !strcmp(s, "readonly") || !strcmp(s, "alias"))
    return LX_DECL;
  if (!strcmp(s, "eval") || !strcmp(s, "let"))
    return LX_EVAL;
  return LX_ARG;
}

/* Span of source from start to the current position (before any token
 * already looked at), when both lie in one input. */
static size_t src_span(sh_parser *p, const char *start) {
  const char *end = p->have_tok ? p->tok.src : sh_here(p);
  for (const sh_input *in = p->in; in; in = in->prev) {
    if (start >= in->s && start <= in->s + in->len) {
      if (end < start || end > in->s + in->len)
        return 0;
      size_t n = (size_t)(end - start);
      while (n && (start[n - 1] == ' ' || start[n - 1] == '\t' ||
                   start[n - 1] == '\n' || start[n - 1] == ';'))
        n--;
      return n;
    }
  }
  return 0;
}

static sh_node *parse_funcdef_body(sh_parser *p, const char *name, int line,
                                   const char *start) {
  size_t docs0 = p->ndocs_total;
  skip_newlines(p, LX_CMD);
  sh_tok *t = sh_peek(p, LX_CMD);
  sh_node *body = parse_compound(p, t);
  if (!body)
    sh_unexpected(p, t);
  sh_node *n = sh_new_node(p, N_FUNCDEF, line);
  n->u.func.name = name;
  n->u.func.body = body;
  n->u.func.src = start;
  n->u.func.src_len = src_span(p, start);
  if (p->ndocs_total > docs0 && p->ndocs) {
    p->doc_funcs = sh_grow(p, p->doc_funcs, &p->capdoc_funcs, p->ndoc_funcs,
                           sizeof *p->doc_funcs);
    p->doc_funcs[p->ndoc_funcs++] = n;
  }
  return n;
}

static sh_node *parse_simple(sh_parser *p) {
  sh_tok *t = sh_peek(p, LX_CMD);
  sh_node *n = sh_new_node(p, N_SIMPLE, t->line);
  const char *start = t->src;
  sh_redir **rtail = &n->redirs;
  sh_assign **atail = &n->u.simple.assigns;
  size_t cap = 0;
  int mode = LX_CMD;
  for (;;) {
    t = sh_peek(p, mode);
    if (t->kind == T_REDIR) {
      parse_redir(p, &rtail);
      continue;
    }
    if (t->kind != T_WORD)
      break;
    if (t->as && n->u.simple.nwords == 0) {
      *atail = t->as;
      atail = &t->as->next;
      sh_consume(p);
      continue;
    }
    if (n->u.simple.nwords == 0 && sh_try_alias(p, t))
      continue;
    n->u.simple.words = sh_grow(p, n->u.simple.words, &cap, n->u.simple.nwords,
                                sizeof(sh_word *));
    n->u.simple.words[n->u.simple.nwords++] = t->w;
    sh_consume(p);
    if (n->u.simple.nwords == 1) {
      const char *w = sh_word_plain(n->u.simple.words[0]);
      mode = decl_mode(w);
      if (!n->u.simple.assigns && !n->redirs &&
          sh_peek(p, mode)->kind == T_LPAREN) {
        /* name () compound-command */
        sh_consume(p);
        t = sh_peek(p, LX_ARG);
        if (t->kind != T_RPAREN)
          sh_unexpected(p, t);
        sh_consume(p);
        const char *name = n->u.simple.words[0]->src;
        size_t nl = n->u.simple.words[0]->src_len;
        if (!w && !name)
          sh_fail(p, 0, "syntax error: invalid function name");
        return parse_funcdef_body(p, w ? w : sh_strndup(p, name, nl), n->line,
                                  start);
      }
    }
  }
  if (!n->u.simple.nwords && !n->u.simple.assigns && !n->redirs)
    sh_unexpected(p, t);
  return n;
}

/* ---- compound commands ------------------------------------------------- */

static sh_node *parse_group(sh_parser *p, int line) {
  sh_consume(p); /* { */
  sh_node *n = sh_new_node(p, N_GROUP, line);
  n->u.group.body = parse_compound_list(p, 0);
  expect_rw(p, "}");
  return n;
}

static sh_node *parse_subshell(sh_parser *p, int line) {
  sh_consume(p); /* ( */
  sh_node *n = sh_new_node(p, N_SUBSHELL, line);
  n->u.group.body = parse_compound_list(p, 0);
  sh_tok *t = sh_peek(p, LX_ARG);
  if (t->kind != T_RPAREN)
    sh_unexpected(p, t);
  sh_consume(p);
  return n;
}

/* An arithmetic expression of blanks only is an empty one. */
static sh_word *nonempty(sh_word *w) {
  if (!w || (w->flags & SW_HAS_QUOTES))
    return w;
  for (size_t i = 0; i < w->nparts; i++) {
    if (w->parts[i].kind != WP_LIT)
      return w;
    for (size_t j = 0; j < w->parts[i].u.lit.len; j++)
      if (!strchr(" \t\n", w->parts[i].u.lit.text[j]))
        return w;
  }
  return NULL;
}

static void expect_dparen_end(sh_parser *p) {
  if (sh_getc(p) != ')' || sh_getc(p) != ')') {
    p->err = NULL;
    sh_fail(p, 1, "unexpected EOF while looking for matching `)'");
  }
}

static sh_node *parse_arith_cmd(sh_parser *p, int line) {
  sh_consume(p); /* (( */
  sh_node *n = sh_new_node(p, N_ARITH, line);
  n->u.arith.expr = sh_lex_arith(p, 0, NULL);
  expect_dparen_end(p);
  return n;
}

static sh_node *parse_if(sh_parser *p, int line) {
  sh_consume(p); /* if or elif */
  sh_node *n = sh_new_node(p, N_IF, line);
  n->u.if_.cond = parse_compound_list(p, 0);
  expect_rw(p, "then");
  n->u.if_.then_part = parse_compound_list(p, 0);
  sh_tok *t = sh_peek(p, LX_CMD);
  if (sh_tok_is(t, "elif")) {
    n->u.if_.else_part = parse_if(p, t->line);
    return n;
  }
  if (sh_tok_is(t, "else")) {
    sh_consume(p);
    n->u.if_.else_part = parse_compound_list(p, 0);
  }
  expect_rw(p, "fi");
  return n;
}

static sh_node *parse_do_group(sh_parser *p, int brace_ok) {
  sh_tok *t = sh_peek(p, LX_CMD);
  if (brace_ok && sh_tok_is(t, "{")) {
    /* for ... { list; }: the braces replace do/done (no group) */
    sh_consume(p);
    sh_node *body = parse_compound_list(p, 0);
    expect_rw(p, "}");
    return body;
  }
  if (!sh_tok_is(t, "do"))
    sh_unexpected(p, t);
  sh_consume(p);
  sh_node *body = parse_compound_list(p, 0);
  expect_rw(p, "done");
  return body;
}

static sh_node *parse_while(sh_parser *p, int line, int until) {
  sh_consume(p);
  sh_node *n = sh_new_node(p, until ? N_UNTIL : N_WHILE, line);
  n->u.loop.cond = parse_compound_list(p, 0);
  n->u.loop.body = parse_do_group(p, 0);
  return n;
}

static sh_node *parse_for(sh_parser *p, int line, int select) {
  sh_consume(p);
  sh_tok *t = sh_peek(p, LX_CMD);
  if (t->kind == T_DLPAREN && !select) {
    sh_consume(p);
    sh_node *n = sh_new_node(p, N_FOR_ARITH, line);
    int stop;
    n->u.for_arith.init = nonempty(sh_lex_arith(p, 1, &stop));
    if (stop == ';') {
      sh_getc(p);
      n->u.for_arith.cond = nonempty(sh_lex_arith(p, 1, &stop));
      if (stop == ';') {
        sh_getc(p);
        n->u.for_arith.step = nonempty(sh_lex_arith(p, 0, &stop));
      }
    }
    if (stop != ')') {
      if (stop == -1)
        expect_dparen_end(p);
      sh_fail(p, 0, "syntax error: `;' unexpected");
    }
    expect_dparen_end(p);
    t = sh_peek(p, LX_ARG);
    if (t->kind == T_SEMI)
      sh_consume(p);
    skip_newlines(p, LX_CMD);
    n->u.for_arith.body = parse_do_group(p, 1);
    return n;
  }
  if (t->kind != T_WORD || t->as)
    sh_unexpected(p, t);
  /* An invalid name (for i.j in ...) is a run-time error in bash: the
   * interpreter reports "`i.j': not a valid identifier". */
  const char *var = sh_word_plain(t->w);
  if (!var)
    var = sh_strndup(p, t->src, t->src_len);
  sh_consume(p);
  sh_node *n = sh_new_node(p, select ? N_SELECT : N_FOR, line);
  n->u.for_.var = var;
  skip_newlines(p, LX_ARG);
  t = sh_peek(p, LX_ARG);
  if (sh_tok_is(t, "in")) {
    sh_consume(p);
    n->u.for_.has_in = 1;
    size_t cap = 0;
    for (;;) {
      t = sh_peek(p, LX_ARG);
      if (t->kind != T_WORD)
        break;
      n->u.for_.words = sh_grow(p, n->u.for_.words, &cap, n->u.for_.nwords,
                                sizeof(sh_word *));
      n->u.for_.words[n->u.for_.nwords++] = t->w;
      sh_consume(p);
    }
    if (t->kind != T_SEMI && t->kind != T_NEWLINE)
      sh_unexpected(p, t);
    sh_consume(p);
  } else if (t->kind == T_SEMI) {
    sh_consume(p);
  }
  skip_newlines(p, LX_CMD);
  n->u.for_.body = parse_do_group(p, 1);
  return n;
}

static sh_node *parse_case(sh_parser *p, int line) {
  sh_consume(p);
  sh_tok *t = sh_peek(p, LX_ARG);
  if (t->kind != T_WORD)
    sh_unexpected(p, t);
  sh_node *n = sh_new_node(p, N_CASE, line);
  n->u.case_.word = t->w;
  sh_consume(p);
  skip_newlines(p, LX_ARG);
  t = sh_peek(p, LX_ARG);
  if (!sh_tok_is(t, "in"))
    sh_unexpected(p, t);
  sh_consume(p);
  size_t cap = 0;
  for (;;) {
    skip_newlines(p, LX_ARG);
    t = sh_peek(p, LX_ARG);
    if (sh_tok_is(t, "esac")) {
      sh_consume(p);
      break;
    }
    n->u.case_.items = sh_grow(p, n->u.case_.items, &cap, n->u.case_.nitems,
                               sizeof *n->u.case_.items);
    sh_case_item *it = &n->u.case_.items[n->u.case_.nitems];
    memset(it, 0, sizeof *it);
    if (t->kind == T_LPAREN) {
      sh_consume(p);
      t = sh_peek(p, LX_ARG);
    }
    size_t pcap = 0;
    for (;;) {
      if (t->kind != T_WORD)
        sh_unexpected(p, t);
      it->patterns =
          sh_grow(p, it->patterns, &pcap, it->npatterns, sizeof(sh_word *));
      it->patterns[it->npatterns++] = t->w;
      sh_consume(p);
      t = sh_peek(p, LX_ARG);
      if (t->kind == T_PIPE) {
        sh_consume(p);
        t = sh_peek(p, LX_ARG);
        continue;
      }
      if (t->kind != T_RPAREN)
        sh_unexpected(p, t);
      sh_consume(p);
      break;
    }
    it->body = parse_compound_list(p, 1);
    n->u.case_.nitems++;
    t = sh_peek(p, LX_CMD);
    if (t->kind == T_DSEMI || t->kind == T_SEMI_AMP || t->kind == T_DSEMI_AMP) {
      it->term = t->kind == T_DSEMI      ? CT_BREAK
                 : t->kind == T_SEMI_AMP ? CT_FALL
                                         : CT_CONTINUE;
      sh_consume(p);
      continue;
    }
    if (sh_tok_is(t, "esac")) {
      sh_consume(p);
      break;
    }
    sh_unexpected(p, t);
  }
  return n;
}

static sh_node *parse_function(sh_parser *p, int line) {
  const char *start = p->tok.src;
  sh_consume(p);
  sh_tok *t = sh_peek(p, LX_ARG);
  if (t->kind != T_WORD)
    sh_unexpected(p, t);
  const char *name = sh_word_plain(t->w);
  if (!name)
    name = sh_strndup(p, t->src, t->src_len);
  sh_consume(p);
  t = sh_peek(p, LX_ARG);
  if (t->kind == T_LPAREN) {
    sh_consume(p);
    t = sh_peek(p, LX_ARG);
    if (t->kind != T_RPAREN)
      sh_unexpected(p, t);
    sh_consume(p);
  }
  return parse_funcdef_body(p, name, line, start);
}

static sh_node *parse_cond_cmd(sh_parser *p, int line) {
  sh_consume(p); /* [[ */
  sh_node *n = sh_new_node(p, N_COND, line);
  n->u.cond.expr = sh_parse_cond(p);
  return n;
}

/* A compound command starting at t (already peeked in command position),
 * with its trailing redirections; NULL when t starts none. */
static sh_node *parse_compound(sh_parser *p, sh_tok *t) {
  int line = t->line;
  sh_node *n;
  sh_enter(p);
  if (t->kind == T_LPAREN)
    n = parse_subshell(p, line);
  else if (t->kind == T_DLPAREN)
    n = parse_arith_cmd(p, line);
  else if (sh_tok_is(t, "{"))
    n = parse_group(p, line);
  else if (sh_tok_is(t, "if"))
    n = parse_if(p, line);
  else if (sh_tok_is(t, "while"))
    n = parse_while(p, line, 0);
  else if (sh_tok_is(t, "until"))
    n = parse_while(p, line, 1);
  else if (sh_tok_is(t, "for"))
    n = parse_for(p, line, 0);
  else if (sh_tok_is(t, "select"))
    n = parse_for(p, line, 1);
  else if (sh_tok_is(t, "case"))
    n = parse_case(p, line);
  else if (sh_tok_is(t, "[["))
    n = parse_cond_cmd(p, line);
  else
    n = NULL;
  if (n)
    parse_trailing_redirs(p, n);
  sh_leave(p);
  return n;
}

static sh_node *parse_command(sh_parser *p) {
  sh_tok *t = sh_peek(p, LX_CMD);
  while (sh_try_alias(p, t))
    t = sh_peek(p, LX_CMD);
  sh_node *n = parse_compound(p, t);
  if (n)
    return n;
  if (sh_tok_is(t, "function"))
    return parse_function(p, t->line);
  if (sh_tok_is(t, "coproc")) {
    p->line = t->line;
    sh_fail(p, 0, "coproc: not supported");
  }
  if (is_stop(t) || sh_tok_is(t, "in"))
    sh_unexpected(p, t);
  if (t->kind != T_WORD && t->kind != T_REDIR)
    sh_unexpected(p, t);
  return parse_simple(p);
}

/* [time [-p]] [!] command { | command } */
static sh_node *parse_pipeline(sh_parser *p) {
  sh_tok *t = sh_peek(p, LX_CMD);
  int line = t->line;
  int bang = 0, timed = 0, posix = 0;
  for (;;) {
    while (sh_try_alias(p, t))
      t = sh_peek(p, LX_CMD);
    if (sh_tok_is(t, "!")) {
      bang = !bang;
      sh_consume(p);
    } else if (sh_tok_is(t, "time") && !timed) {
      timed = 1;
      sh_consume(p);
      t = sh_peek(p, LX_CMD);
      if (sh_tok_is(t, "-p")) {
        posix = 1;
        sh_consume(p);
      }
    } else {
      break;
    }
    t = sh_peek(p, LX_CMD);
  }
  sh_node *first = NULL;
  if (timed && (t->kind == T_SEMI || t->kind == T_NEWLINE || t->kind == T_EOF ||
                t->kind == T_AMP || is_stop(t))) {
    /* bare `time`: times nothing */
  } else {
    first = parse_command(p);
  }
  sh_node *res = first;
  t = sh_peek(p, LX_ARG);
  if (first && (t->kind == T_PIPE || t->kind == T_PIPE_AMP || bang)) {
    sh_node *pl = sh_new_node(p, N_PIPELINE, line);
    size_t cap = 0, scap = 0;
    pl->u.pipe.cmds = sh_grow(p, NULL, &cap, 0, sizeof(sh_node *));
    pl->u.pipe.cmds[pl->u.pipe.ncmds++] = first;
    pl->u.pipe.bang = bang;
    while (t->kind == T_PIPE || t->kind == T_PIPE_AMP) {
      pl->u.pipe.stderr_too = sh_grow(p, pl->u.pipe.stderr_too, &scap,
                                      pl->u.pipe.ncmds - 1, sizeof(int));
      pl->u.pipe.stderr_too[pl->u.pipe.ncmds - 1] = t->kind == T_PIPE_AMP;
      sh_consume(p);
      skip_newlines(p, LX_CMD);
      pl->u.pipe.cmds = sh_grow(p, pl->u.pipe.cmds, &cap, pl->u.pipe.ncmds,
                                sizeof(sh_node *));
      pl->u.pipe.cmds[pl->u.pipe.ncmds++] = parse_command(p);
      t = sh_peek(p, LX_ARG);
    }
    res = pl;
  } else if (!first && bang) {
    sh_node *pl = sh_new_node(p, N_PIPELINE, line);
    pl->u.pipe.bang = 1;
    res = pl;
  }
  if (timed) {
    sh_node *tn = sh_new_node(p, N_TIME, line);
    tn->u.time.pipeline = res;
    tn->u.time.posix = posix;
    res = tn;
  }
  if (!res)
    sh_unexpected(p, t);
  return res;
}

static sh_node *parse_and_or(sh_parser *p) {
  sh_node *l = parse_pipeline(p);
  for (;;) {
    sh_tok *t = sh_peek(p, LX_ARG);
    if (t->kind != T_AND_IF && t->kind != T_OR_IF)
      return l;
    sh_node *n = sh_new_node(p, t->kind == T_AND_IF ? N_AND : N_OR, l->line);
    sh_consume(p);
    skip_newlines(p, LX_CMD);
    n->u.andor.l = l;
    n->u.andor.r = parse_pipeline(p);
    l = n;
  }
}

/* ---- nested bodies ----------------------------------------------------- */

sh_node *sh_parse_cmdsub_body(sh_parser *p) {
  sh_enter(p);
  p->cmdsub_depth++;
  skip_newlines(p, LX_CMD);
  sh_tok *t = sh_peek(p, LX_CMD);
  sh_node *body = NULL;
  if (t->kind != T_RPAREN) {
    body = parse_compound_list(p, 0);
    t = sh_peek(p, LX_ARG);
  }
  /* (EOF is reported as a missing ")" while cmdsub_depth is set) */
  if (t->kind != T_RPAREN)
    sh_unexpected(p, t);
  sh_consume(p);
  p->cmdsub_depth--;
  sh_leave(p);
  return body;
}

sh_node *sh_parse_list_until_eof(sh_parser *p) {
  /* a backtick body is a text of its own: its end is a plain EOF */
  int save = p->cmdsub_depth;
  p->cmdsub_depth = 0;
  p->cond_err = 0;
  p->ndoc_funcs = 0;
  sh_enter(p);
  sh_node *body = parse_compound_list(p, 1);
  sh_tok *t = sh_peek(p, LX_ARG);
  if (t->kind != T_EOF)
    sh_unexpected(p, t);
  sh_leave(p);
  p->cmdsub_depth = save;
  return body;
}

/* ---- API --------------------------------------------------------------- */

sh_parser *sh_parser_new(arena *a, const char *src, size_t len,
                         const sh_parse_opts *o) {
  sh_parser *p = arena_calloc(a, sizeof *p);
  if (!p)
    return NULL;
  p->a = a;
  if (o)
    p->o = *o;
  p->line = p->o.first_line > 0 ? p->o.first_line : 1;
  p->base.s = src ? src : "";
  p->base.len = src ? len : 0;
  p->in = &p->base;
  return p;
}

/* After an error, drop the rest of the line (an interactive shell goes on
 * with the next one). */
static void recover(sh_parser *p) {
  p->in = &p->base;
  p->have_tok = 0;
  p->ndocs = 0;
  p->depth = 0;
  p->cmdsub_depth = 0;
  p->cmdsub_err = 0;
  p->assign_err = 0;
  p->fatal = 0;
  p->failed = 0;
  p->incomplete = 0;
  p->err = NULL;
  int c;
  while ((c = sh_getc(p)) != -1 && c != '\n')
    ;
}

int sh_parse_next(sh_parser *p, sh_node **out) {
  *out = NULL;
  if (p->failed)
    recover(p);
  jmp_buf jb;
  p->jb = &jb;
  if (setjmp(jb))
    return -1;
  skip_newlines(p, LX_CMD);
  sh_tok *t = sh_peek(p, LX_CMD);
  if (t->kind == T_EOF)
    return 0;
  listb l = {0};
  int line = t->line;
  for (;;) {
    sh_node *n = parse_and_or(p);
    t = sh_peek(p, LX_ARG);
    int sep = t->kind == T_AMP || t->kind == T_SEMI;
    list_add(p, &l, n, t->kind == T_AMP, 0);
    if (sep) {
      sh_consume(p);
      t = sh_peek(p, LX_CMD);
    }
    if (t->kind == T_NEWLINE) {
      sh_consume(p);
      break;
    }
    if (t->kind == T_EOF)
      break;
    if (!sep)
      sh_unexpected(p, t);
  }
  *out = list_done(p, &l, line, 0);
  return 1;
}

const char *sh_parse_error(const sh_parser *p) {
  return p->err ? p->err : "";
}

int sh_parse_error_line(const sh_parser *p) {
  return p->err_line;
}

int sh_parse_incomplete(const sh_parser *p) {
  return p->incomplete;
}

int sh_parse_error_cond(const sh_parser *p) {
  return p->cond_err;
}

int sh_parse_error_cmdsub(const sh_parser *p) {
  return p->cmdsub_err;
}

int sh_parse_error_assign(const sh_parser *p) {
  return p->assign_err;
}

int sh_parse_line(const sh_parser *p) {
  return p->line;
}

int sh_parse_all(arena *a, const char *src, size_t len, const sh_parse_opts *o,
                 sh_node **out, const char **err, int *err_line) {
  *out = NULL;
  sh_parser *p = sh_parser_new(a, src, len, o);
  if (!p) {
    if (err)
      *err = "out of memory";
    if (err_line)
      *err_line = 0;
    return -1;
  }
  sh_list_item *items = NULL;
  size_t n = 0, cap = 0;
  int line = p->line;
  for (;;) {
    sh_node *c;
    int r = sh_parse_next(p, &c);
    if (r < 0) {
      if (err)
        *err = sh_parse_error(p);
      if (err_line)
        *err_line = sh_parse_error_line(p);
      return -1;
    }
    if (r == 0)
      break;
    jmp_buf jb;
    p->jb = &jb;
    if (setjmp(jb)) {
      if (err)
        *err = "out of memory";
      if (err_line)
        *err_line = 0;
      return -1;
    }
    if (c->kind == N_LIST) {
      for (size_t i = 0; i < c->u.list.nitems; i++) {
        items = sh_grow(p, items, &cap, n, sizeof *items);
        items[n++] = c->u.list.items[i];
      }
    } else {
      items = sh_grow(p, items, &cap, n, sizeof *items);
      memset(&items[n], 0, sizeof *items);
      items[n++].node = c;
    }
    items[n - 1].newline = 1; /* commands read one line at a time */
  }
  sh_node *l = arena_calloc(a, sizeof *l);
  if (!l) {
    if (err)
      *err = "out of memory";
    return -1;
  }
  l->kind = N_LIST;
  l->line = line;
  l->u.list.items = items;
  l->u.list.nitems = n;
  *out = l;
  return 0;
}

sh_word *sh_parse_dq_word(arena *a, const char *src, size_t len) {
  sh_parser *p = sh_parser_new(a, src, len, NULL);
  if (!p)
    return NULL;
  jmp_buf jb;
  p->jb = &jb;
  if (setjmp(jb))
    return NULL;
  return sh_lex_dq_text(p, src, len);
}
