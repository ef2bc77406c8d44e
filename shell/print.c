/*
 * print.c - bash's canonical rendering of commands, as `type f` and
 * `declare -f f` show functions.
 *
 * Bash does not print the text it read: it prints the tree, with its own
 * spacing (4-space indents, "f () " and "{ " with trailing blanks, ';' after
 * every command inside a function, here-document bodies after the line that
 * uses them, $(...) bodies re-printed on one line). Words are printed from
 * their source text, except $'...' (which bash decodes when reading, so it
 * prints it single-quoted) and $(...) inside them (re-printed).
 */
#include <string.h>

#include "core/buf.h"
#include "shell/parse_internal.h"

#define PR_MAX_DOCS 32

typedef struct pr {
  buf *o;
  int ind;
  int fn; /* inside a function definition: ';' ends the line */
  const sh_redir *docs[PR_MAX_DOCS];
  size_t ndocs;
  int after_docs; /* here-documents were just printed: no ';' */
  int err;
} pr;

static void print_cmd(pr *p, const sh_node *n);
static void print_list(pr *p, const sh_node *n);
static void flush_docs(pr *p);

static void putn(pr *p, const char *s, size_t n) {
  if (n && buf_append(p->o, s, n))
    p->err = 1;
}

static void put(pr *p, const char *s) { putn(p, s, strlen(s)); }

static void putch(pr *p, int c) {
  if (buf_putc(p->o, c))
    p->err = 1;
}

static void indent(pr *p) {
  for (int i = 0; i < p->ind; i++)
    put(p, "    ");
}

static int last_char(const pr *p) {
  return p->o->len ? (unsigned char)p->o->data[p->o->len - 1] : 0;
}

/* bash's semicolon(): end a command unless the text already ended it. */
static void semicolon(pr *p) {
  int c = last_char(p);
  if (c != '&' && c != '\n')
    putch(p, ';');
}

/* ---- words ------------------------------------------------------------- */

/* Substitutions inside a word whose bodies bash re-prints. */
typedef struct subs {
  const sh_part *v[64];
  size_t n;
} subs;

static void collect_word(subs *s, const sh_word *w);

static void collect_parts(subs *s, const sh_part *parts, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const sh_part *pt = &parts[i];
    switch (pt->kind) {
    case WP_CMDSUB:
    case WP_PROCSUB:
      if (!pt->u.cmdsub.backtick && pt->u.cmdsub.src && s->n < 64)
        s->v[s->n++] = pt;
      break;
    case WP_DQUOTE:
      collect_parts(s, pt->u.dq.parts, pt->u.dq.nparts);
      break;
    case WP_PARAM:
      collect_word(s, pt->u.param.index);
      collect_word(s, pt->u.param.arg1);
      collect_word(s, pt->u.param.arg2);
      break;
    case WP_ARITH:
      collect_word(s, pt->u.arith.expr);
      break;
    default:
      break;
    }
  }
}

static void collect_word(subs *s, const sh_word *w) {
  if (w)
    collect_parts(s, w->parts, w->nparts);
}

static void single_quote(pr *p, const char *s, size_t n) {
  putch(p, '\'');
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\'')
      put(p, "'\\''");
    else
      putch(p, s[i]);
  }
  putch(p, '\'');
}

static void print_sub_body(pr *p, const sh_node *body) {
  pr save = *p;
  p->ind = 0;
  p->fn = 0;
  p->ndocs = 0;
  p->after_docs = 0;
  if (body)
    print_list(p, body);
  flush_docs(p);
  int err = p->err;
  *p = save;
  p->err |= err;
}

/* Print source text s[0..n), replacing $(...) bodies listed in subs by
 * their re-printed form and $'...' by its single-quoted value. */
static void print_src(pr *p, const char *s, size_t n, const subs *sb) {
  int dq = 0;
  size_t i = 0;
  while (i < n) {
    const sh_part *hit = NULL;
    for (size_t k = 0; k < sb->n; k++)
      if (sb->v[k]->u.cmdsub.src == s + i)
        hit = sb->v[k];
    if (hit) {
      print_sub_body(p, hit->u.cmdsub.body);
      i += hit->u.cmdsub.src_len;
      continue;
    }
    char c = s[i];
    if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {
      i += 2; /* a line continuation is not part of the word */
    } else if (c == '\\' && i + 1 < n) {
      putn(p, s + i, 2);
      i += 2;
    } else if (c == '\'' && !dq) {
      size_t j = i + 1;
      while (j < n && s[j] != '\'')
        j++;
      j = j < n ? j + 1 : n;
      putn(p, s + i, j - i);
      i = j;
    } else if (c == '"') {
      dq = !dq;
      putch(p, c);
      i++;
    } else if (c == '$' && !dq && i + 1 < n && s[i + 1] == '\'') {
      size_t j = i + 2;
      while (j < n && s[j] != '\'')
        j += s[j] == '\\' ? 2 : 1;
      if (j > n)
        j = n;
      size_t len = j - (i + 2);
      char tmp[512];
      if (len < sizeof tmp) {
        size_t m = sh_ansi_decode(s + i + 2, len, tmp);
        single_quote(p, tmp, m);
      } else {
        putn(p, s + i, j - i + 1);
      }
      i = j < n ? j + 1 : n;
    } else {
      putch(p, c);
      i++;
    }
  }
}

static void print_assign(pr *p, const sh_assign *as);

static void print_word(pr *p, const sh_word *w) {
  if (!w)
    return;
  if (w->assign && w->assign->is_array) {
    /* bash rebuilds x=( a  b ) as x=(a b) */
    print_assign(p, w->assign);
    return;
  }
  subs sb;
  sb.n = 0;
  collect_word(&sb, w);
  if (w->src) {
    print_src(p, w->src, w->src_len, &sb);
    return;
  }
  /* No source (should not happen): print the literal parts. */
  for (size_t i = 0; i < w->nparts; i++)
    if (w->parts[i].kind == WP_LIT)
      putn(p, w->parts[i].u.lit.text, w->parts[i].u.lit.len);
}

static void print_assign(pr *p, const sh_assign *as) {
  put(p, as->name);
  if (as->index) {
    putch(p, '[');
    print_word(p, as->index);
    putch(p, ']');
  }
  put(p, as->append ? "+=" : "=");
  if (!as->is_array) {
    print_word(p, as->value);
    return;
  }
  putch(p, '(');
  for (size_t i = 0; i < as->narray; i++) {
    if (i)
      putch(p, ' ');
    const sh_array_elem *e = &as->array[i];
    if (e->key) {
      putch(p, '[');
      print_word(p, e->key);
      put(p, e->append ? "]+=" : "]=");
    }
    print_word(p, e->value);
  }
  putch(p, ')');
}

/* ---- redirections and here-documents ----------------------------------- */

static void print_delim(pr *p, const sh_redir *r) {
  const sh_word *w = r->target;
  if (!w || !w->src)
    return;
  /* the delimiter after quote removal, as the parser computed it */
  char tmp[256];
  size_t n = 0;
  const char *s = w->src;
  for (size_t i = 0; i < w->src_len && n < sizeof tmp; i++) {
    char c = s[i];
    if (c == '\\' && i + 1 < w->src_len)
      tmp[n++] = s[++i];
    else if (c != '\'' && c != '"')
      tmp[n++] = c;
  }
  putn(p, tmp, n);
}

static void flush_docs(pr *p) {
  if (!p->ndocs)
    return;
  putch(p, '\n');
  for (size_t i = 0; i < p->ndocs; i++) {
    const sh_redir *r = p->docs[i];
    if (r->heredoc && r->heredoc->src)
      putn(p, r->heredoc->src, r->heredoc->src_len);
    print_delim(p, r);
    putch(p, '\n');
  }
  p->ndocs = 0;
  p->after_docs = 1;
}

static void print_redirs(pr *p, const sh_redir *r, int lead_space) {
  for (; r; r = r->next) {
    if (lead_space)
      putch(p, ' ');
    lead_space = 1;
    if (r->fd_var) {
      putch(p, '{');
      put(p, r->fd_var);
      putch(p, '}');
    }
    int fd = r->fd;
    int out = r->op == R_OUT || r->op == R_APPEND || r->op == R_CLOBBER;
    int in = r->op == R_IN || r->op == R_INOUT || r->op == R_HEREDOC ||
             r->op == R_HERESTRING;
    if ((out && fd == 1) || (in && fd == 0))
      fd = -1; /* bash does not print a default descriptor */
    if (fd < 0 && !r->fd_var) {
      if (r->op == R_DUP_IN)
        fd = 0;
      else if (r->op == R_DUP_OUT)
        fd = 1;
    }
    if (fd >= 0 && !r->fd_var)
      buf_printf(p->o, "%d", fd);
    switch (r->op) {
    case R_IN: put(p, "< "); break;
    case R_OUT: put(p, "> "); break;
    case R_CLOBBER: put(p, ">| "); break;
    case R_APPEND: put(p, ">> "); break;
    case R_INOUT: put(p, "<> "); break;
    case R_DUP_IN: put(p, "<&"); break;
    case R_DUP_OUT: put(p, ">&"); break;
    case R_HERESTRING: put(p, "<<< "); break;
    case R_OUT_ERR: put(p, "&> "); break;
    case R_APPEND_OUT_ERR: put(p, "&>> "); break;
    case R_HEREDOC:
      put(p, r->strip_tabs ? "<<-" : "<<");
      if (r->heredoc_quoted)
        putch(p, '\'');
      print_delim(p, r);
      if (r->heredoc_quoted)
        putch(p, '\'');
      if (p->ndocs < PR_MAX_DOCS)
        p->docs[p->ndocs++] = r;
      continue;
    }
    print_word(p, r->target);
  }
}

/* ---- commands ---------------------------------------------------------- */

/* Start a new line at the current indent (here-documents go first). */
static void newline(pr *p) {
  flush_docs(p);
  putch(p, '\n');
  p->after_docs = 0;
  indent(p);
}

/* The separator between two list items. */
static void separator(pr *p, int nl) {
  flush_docs(p);
  if (p->after_docs) {
    putch(p, '\n');
    p->after_docs = 0;
    indent(p);
  } else if (p->fn) {
    put(p, ";\n");
    indent(p);
  } else if (nl) {
    putch(p, '\n'); /* bash does not indent here */
  } else {
    put(p, "; ");
  }
}

static void print_list(pr *p, const sh_node *n) {
  if (!n)
    return;
  if (n->kind != N_LIST) {
    print_cmd(p, n);
    return;
  }
  for (size_t i = 0; i < n->u.list.nitems; i++) {
    const sh_list_item *it = &n->u.list.items[i];
    print_cmd(p, it->node);
    int last = i + 1 == n->u.list.nitems;
    if (it->async)
      put(p, last ? " &" : " & ");
    else if (!last)
      separator(p, it->newline);
  }
}

/* body at one more indent level, on its own lines */
static void print_block(pr *p, const sh_node *body) {
  p->ind++;
  indent(p);
  print_list(p, body);
}

static void print_group_body(pr *p, const sh_node *body) {
  put(p, "{ \n");
  print_block(p, body);
  p->ind--;
  newline(p);
  putch(p, '}');
}

static void print_func(pr *p, const sh_node *n, int keyword) {
  if (keyword)
    put(p, "function ");
  put(p, n->u.func.name);
  put(p, " () \n");
  indent(p);
  int fn = p->fn;
  p->fn = 1;
  const sh_node *b = n->u.func.body;
  if (b && b->kind == N_GROUP) {
    print_cmd(p, b);
  } else {
    put(p, "{ \n");
    print_block(p, b);
    p->ind--;
    newline(p);
    putch(p, '}');
  }
  p->fn = fn;
}

static void print_cond(pr *p, const sh_cond *c) {
  if (c->paren)
    put(p, "( ");
  switch (c->kind) {
  case C_AND:
  case C_OR:
    print_cond(p, c->l);
    put(p, c->kind == C_AND ? " && " : " || ");
    print_cond(p, c->r);
    break;
  case C_NOT:
    put(p, "! ");
    print_cond(p, c->l);
    break;
  case C_UNARY:
    put(p, c->op);
    putch(p, ' ');
    print_word(p, c->a);
    break;
  case C_BINARY:
    print_word(p, c->a);
    putch(p, ' ');
    put(p, c->op);
    putch(p, ' ');
    print_word(p, c->b);
    break;
  case C_WORD:
    put(p, "-n ");
    print_word(p, c->a);
    break;
  }
  if (c->paren)
    put(p, " )");
}

static void print_arith_src(pr *p, const sh_word *w, int trim) {
  const char *s = w ? w->src : NULL;
  size_t n = s ? w->src_len : 0;
  while (trim && n && (*s == ' ' || *s == '\t' || *s == '\n')) {
    s++;
    n--;
  }
  if (!n) {
    if (trim)
      putch(p, '1'); /* for ((;;)) is for ((1; 1; 1)) */
    return;
  }
  subs sb;
  sb.n = 0;
  collect_word(&sb, w);
  print_src(p, s, n, &sb);
}

static void print_for_words(pr *p, const sh_node *n) {
  put(p, n->kind == N_FOR ? "for " : "select ");
  put(p, n->u.for_.var);
  put(p, " in ");
  if (!n->u.for_.has_in) {
    put(p, "\"$@\"");
  } else {
    for (size_t i = 0; i < n->u.for_.nwords; i++) {
      if (i)
        putch(p, ' ');
      print_word(p, n->u.for_.words[i]);
    }
  }
  putch(p, ';');
}

static void print_do_done(pr *p, const sh_node *body) {
  newline(p);
  put(p, "do\n");
  print_block(p, body);
  semicolon(p);
  p->ind--;
  newline(p);
  put(p, "done");
}

/* Binary connectors (| && ||): here-documents of the left side are
 * printed right after the operator, as bash does. */
static void connector(pr *p, const char *op) {
  if (p->ndocs) {
    putch(p, ' ');
    put(p, op);
    flush_docs(p);
    put(p, "  ");
  } else {
    putch(p, ' ');
    put(p, op);
    putch(p, ' ');
  }
}

static void print_case(pr *p, const sh_node *n) {
  put(p, "case ");
  print_word(p, n->u.case_.word);
  put(p, " in ");
  p->ind++;
  for (size_t i = 0; i < n->u.case_.nitems; i++) {
    const sh_case_item *it = &n->u.case_.items[i];
    newline(p);
    for (size_t j = 0; j < it->npatterns; j++) {
      if (j)
        put(p, " | ");
      print_word(p, it->patterns[j]);
    }
    put(p, ")\n");
    p->ind++;
    if (it->body) {
      indent(p);
      print_list(p, it->body);
    }
    p->ind--;
    newline(p);
    put(p, it->term == CT_BREAK ? ";;" : it->term == CT_FALL ? ";&" : ";;&");
  }
  p->ind--;
  newline(p);
  put(p, "esac");
}

static void print_cmd(pr *p, const sh_node *n) {
  if (!n)
    return;
  size_t i;
  switch (n->kind) {
  case N_SIMPLE: {
    int sp = 0;
    for (const sh_assign *as = n->u.simple.assigns; as; as = as->next) {
      if (sp)
        putch(p, ' ');
      print_assign(p, as);
      sp = 1;
    }
    for (i = 0; i < n->u.simple.nwords; i++) {
      if (sp)
        putch(p, ' ');
      print_word(p, n->u.simple.words[i]);
      sp = 1;
    }
    print_redirs(p, n->redirs, sp);
    return;
  }
  case N_PIPELINE:
    if (n->u.pipe.bang)
      put(p, "! ");
    for (i = 0; i < n->u.pipe.ncmds; i++) {
      if (i) {
        if (n->u.pipe.stderr_too && n->u.pipe.stderr_too[i - 1])
          put(p, " 2>&1");
        connector(p, "|");
      }
      print_cmd(p, n->u.pipe.cmds[i]);
    }
    return;
  case N_AND:
  case N_OR:
    print_cmd(p, n->u.andor.l);
    connector(p, n->kind == N_AND ? "&&" : "||");
    print_cmd(p, n->u.andor.r);
    return;
  case N_LIST:
    print_list(p, n);
    return;
  case N_SUBSHELL:
    put(p, "( ");
    print_list(p, n->u.group.body);
    put(p, " )");
    break;
  case N_GROUP:
    if (p->fn) {
      print_group_body(p, n->u.group.body);
    } else {
      put(p, "{ ");
      print_list(p, n->u.group.body);
      semicolon(p);
      put(p, " }");
    }
    break;
  case N_IF:
    put(p, "if ");
    print_list(p, n->u.if_.cond);
    semicolon(p);
    put(p, " then\n");
    print_block(p, n->u.if_.then_part);
    semicolon(p);
    p->ind--;
    if (n->u.if_.else_part) {
      newline(p);
      put(p, "else\n");
      print_block(p, n->u.if_.else_part);
      semicolon(p);
      p->ind--;
    }
    newline(p);
    put(p, "fi");
    break;
  case N_WHILE:
  case N_UNTIL:
    put(p, n->kind == N_WHILE ? "while " : "until ");
    print_list(p, n->u.loop.cond);
    semicolon(p);
    put(p, " do\n");
    print_block(p, n->u.loop.body);
    semicolon(p);
    p->ind--;
    newline(p);
    put(p, "done");
    break;
  case N_FOR:
  case N_SELECT:
    print_for_words(p, n);
    print_do_done(p, n->u.for_.body);
    break;
  case N_FOR_ARITH:
    put(p, "for ((");
    print_arith_src(p, n->u.for_arith.init, 1);
    put(p, "; ");
    print_arith_src(p, n->u.for_arith.cond, 1);
    put(p, "; ");
    print_arith_src(p, n->u.for_arith.step, 1);
    put(p, "))");
    print_do_done(p, n->u.for_arith.body);
    break;
  case N_CASE:
    print_case(p, n);
    break;
  case N_FUNCDEF:
    print_func(p, n, 1);
    return;
  case N_ARITH:
    put(p, "((");
    print_arith_src(p, n->u.arith.expr, 0);
    put(p, "))");
    break;
  case N_COND:
    put(p, "[[ ");
    print_cond(p, n->u.cond.expr);
    put(p, " ]]");
    break;
  case N_TIME:
    put(p, n->u.time.posix ? "time -p " : "time ");
    print_cmd(p, n->u.time.pipeline);
    return;
  }
  print_redirs(p, n->redirs, 1);
}

int sh_print_node(struct buf *out, const sh_node *n, int ind) {
  pr p;
  memset(&p, 0, sizeof p);
  p.o = out;
  p.ind = ind;
  if (n && n->kind == N_FUNCDEF)
    print_func(&p, n, 0);
  else
    print_list(&p, n);
  flush_docs(&p);
  return p.err ? -1 : 0;
}
