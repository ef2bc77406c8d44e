/*
 * ast_dump.c - a compact, unambiguous text form of a syntax tree, for unit
 * tests and debugging (not bash syntax; see print.c for that).
 *
 * Commands are S-expressions: (cmd A=1 echo x >f), (pipe a | b), (and l r),
 * (list a b&), (if c t e), (for i in w body), (case w (p1|p2 body ;;)),
 * (func f body), (arith e), (cond (== a b)), (time -p p). Words print their
 * parts: unquoted literals as they are, quoted literals outside "..." as
 * '...', "..." as "...", $x, ${op name[i] sub arg1/arg2}, $(...), $((...)),
 * ~user, <(...), extglob text. Newlines inside text print as \n.
 */
#include <string.h>

#include "core/buf.h"
#include "shell/syntax/parse_internal.h"

static void dump_node(buf *o, const sh_node *n);

static void put_text(buf *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\n')
      buf_puts(o, "\\n");
    else if (s[i] == '\t')
      buf_puts(o, "\\t");
    else
      buf_putc(o, s[i]);
  }
}

static void dump_parts(buf *o, const sh_part *parts, size_t n, int in_dq);

static void dump_word(buf *o, const sh_word *w) {
  if (!w) {
    buf_puts(o, "<null>");
    return;
  }
  if (w->assign && (w->flags & SW_ASSIGN_LIKE))
    buf_puts(o, "<assign>");
  dump_parts(o, w->parts, w->nparts, 0);
}

static const char *sub_text(const sh_param *pm) {
  static const char *const t[] = {"",  "-",  "=", "?",  "+",  "#",  "##",
                                  "%", "%%", "/", "//", "/#", "/%", ":",
                                  "^", "^^", ",", ",,", "@"};
  return t[pm->sub];
}

static void dump_param(buf *o, const sh_param *pm) {
  if (pm->bad) {
    buf_puts(o, "${!bad:");
    put_text(o, pm->src, pm->src_len);
    buf_putc(o, '}');
    return;
  }
  if (!pm->braced) {
    buf_printf(o, "$%s", pm->name);
    return;
  }
  buf_puts(o, "${");
  if (pm->op == PO_LENGTH)
    buf_putc(o, '#');
  else if (pm->op != PO_PLAIN)
    buf_putc(o, '!');
  buf_puts(o, pm->name);
  if (pm->op == PO_NAMES)
    buf_putc(o, pm->index_at == 1 ? '@' : '*');
  else if (pm->index_at)
    buf_puts(o, pm->index_at == 1 ? "[@]" : "[*]");
  else if (pm->index) {
    buf_putc(o, '[');
    dump_word(o, pm->index);
    buf_putc(o, ']');
  }
  if (pm->sub != PS_NONE) {
    buf_putc(o, ' ');
    if (pm->colon)
      buf_putc(o, ':');
    buf_puts(o, sub_text(pm));
    if (pm->sub == PS_TRANSFORM)
      buf_putc(o, pm->transform);
    if (pm->arg1) {
      buf_putc(o, ' ');
      dump_word(o, pm->arg1);
    }
    if (pm->arg2) {
      buf_puts(o, pm->sub == PS_SLICE ? " : " : " / ");
      dump_word(o, pm->arg2);
    }
  }
  buf_putc(o, '}');
}

static void dump_parts(buf *o, const sh_part *parts, size_t n, int in_dq) {
  for (size_t i = 0; i < n; i++) {
    const sh_part *pt = &parts[i];
    switch (pt->kind) {
    case WP_LIT:
      if (pt->quoted && !in_dq)
        buf_putc(o, '\'');
      put_text(o, pt->u.lit.text, pt->u.lit.len);
      if (pt->quoted && !in_dq)
        buf_putc(o, '\'');
      break;
    case WP_DQUOTE:
      buf_putc(o, '"');
      dump_parts(o, pt->u.dq.parts, pt->u.dq.nparts, 1);
      buf_putc(o, '"');
      break;
    case WP_PARAM:
      dump_param(o, &pt->u.param);
      break;
    case WP_CMDSUB:
    case WP_PROCSUB:
      if (pt->kind == WP_PROCSUB)
        buf_printf(o, "%c(", pt->dir);
      else
        buf_puts(o, pt->u.cmdsub.backtick ? "`" : "$(");
      if (pt->u.cmdsub.body)
        dump_node(o, pt->u.cmdsub.body);
      buf_puts(o, pt->u.cmdsub.backtick ? "`" : ")");
      break;
    case WP_ARITH:
      buf_puts(o, "$((");
      dump_word(o, pt->u.arith.expr);
      buf_puts(o, "))");
      break;
    case WP_TILDE:
      buf_putc(o, '~');
      put_text(o, pt->u.lit.text, pt->u.lit.len);
      break;
    case WP_EXTGLOB:
      buf_puts(o, "<eg:");
      put_text(o, pt->u.lit.text, pt->u.lit.len);
      buf_putc(o, '>');
      break;
    }
  }
}

static const char *redir_text(sh_redir_op op) {
  static const char *const t[] = {"<",  ">",  ">|",  ">>", "<>", "<&",
                                  ">&", "<<", "<<<", "&>", "&>>"};
  return t[op];
}

static void dump_assign(buf *o, const sh_assign *as) {
  buf_puts(o, as->name);
  if (as->index) {
    buf_putc(o, '[');
    dump_word(o, as->index);
    buf_putc(o, ']');
  }
  buf_puts(o, as->append ? "+=" : "=");
  if (as->is_array) {
    buf_putc(o, '(');
    for (size_t i = 0; i < as->narray; i++) {
      if (i)
        buf_putc(o, ' ');
      if (as->array[i].key) {
        buf_putc(o, '[');
        dump_word(o, as->array[i].key);
        buf_puts(o, as->array[i].append ? "]+=" : "]=");
      }
      dump_word(o, as->array[i].value);
    }
    buf_putc(o, ')');
  } else {
    dump_word(o, as->value);
  }
}

static void dump_redirs(buf *o, const sh_redir *r) {
  for (; r; r = r->next) {
    buf_putc(o, ' ');
    if (r->fd_var)
      buf_printf(o, "{%s}", r->fd_var);
    if (r->fd >= 0)
      buf_printf(o, "%d", r->fd);
    buf_puts(o, redir_text(r->op));
    if (r->op == R_HEREDOC) {
      if (r->strip_tabs)
        buf_putc(o, '-');
      buf_puts(o, r->heredoc_quoted ? "q[" : "[");
      if (r->heredoc)
        dump_parts(o, r->heredoc->parts, r->heredoc->nparts, 1);
      buf_putc(o, ']');
    } else {
      dump_word(o, r->target);
    }
  }
}

static void dump_cond(buf *o, const sh_cond *c) {
  switch (c->kind) {
  case C_AND:
  case C_OR:
    buf_puts(o, c->kind == C_AND ? "(&& " : "(|| ");
    dump_cond(o, c->l);
    buf_putc(o, ' ');
    dump_cond(o, c->r);
    buf_putc(o, ')');
    break;
  case C_NOT:
    buf_puts(o, "(! ");
    dump_cond(o, c->l);
    buf_putc(o, ')');
    break;
  case C_UNARY:
    buf_printf(o, "(%s ", c->op);
    dump_word(o, c->a);
    buf_putc(o, ')');
    break;
  case C_BINARY:
    buf_printf(o, "(%s ", c->op);
    dump_word(o, c->a);
    buf_putc(o, ' ');
    dump_word(o, c->b);
    buf_putc(o, ')');
    break;
  case C_WORD:
    dump_word(o, c->a);
    break;
  }
}

static void dump_opt(buf *o, const sh_node *n) {
  buf_putc(o, ' ');
  if (n)
    dump_node(o, n);
  else
    buf_puts(o, "-");
}

static void dump_node(buf *o, const sh_node *n) {
  if (!n) {
    buf_puts(o, "-");
    return;
  }
  size_t i;
  switch (n->kind) {
  case N_SIMPLE: {
    buf_puts(o, "(cmd");
    for (const sh_assign *as = n->u.simple.assigns; as; as = as->next) {
      buf_putc(o, ' ');
      dump_assign(o, as);
    }
    for (i = 0; i < n->u.simple.nwords; i++) {
      buf_putc(o, ' ');
      dump_word(o, n->u.simple.words[i]);
      const sh_word *w = n->u.simple.words[i];
      if (w->assign && (w->flags & SW_ASSIGN_LIKE)) {
        buf_putc(o, '{');
        dump_assign(o, w->assign);
        buf_putc(o, '}');
      }
    }
    break;
  }
  case N_PIPELINE:
    buf_puts(o, "(pipe");
    if (n->u.pipe.bang)
      buf_puts(o, " !");
    for (i = 0; i < n->u.pipe.ncmds; i++) {
      if (i)
        buf_puts(o, n->u.pipe.stderr_too[i - 1] ? " |&" : " |");
      buf_putc(o, ' ');
      dump_node(o, n->u.pipe.cmds[i]);
    }
    break;
  case N_AND:
  case N_OR:
    buf_puts(o, n->kind == N_AND ? "(and " : "(or ");
    dump_node(o, n->u.andor.l);
    buf_putc(o, ' ');
    dump_node(o, n->u.andor.r);
    break;
  case N_LIST:
    buf_puts(o, "(list");
    for (i = 0; i < n->u.list.nitems; i++) {
      buf_putc(o, ' ');
      dump_node(o, n->u.list.items[i].node);
      if (n->u.list.items[i].async)
        buf_putc(o, '&');
    }
    break;
  case N_SUBSHELL:
  case N_GROUP:
    buf_puts(o, n->kind == N_GROUP ? "(group " : "(sub ");
    dump_node(o, n->u.group.body);
    break;
  case N_IF:
    buf_puts(o, "(if ");
    dump_node(o, n->u.if_.cond);
    buf_putc(o, ' ');
    dump_node(o, n->u.if_.then_part);
    if (n->u.if_.else_part)
      dump_opt(o, n->u.if_.else_part);
    break;
  case N_WHILE:
  case N_UNTIL:
    buf_puts(o, n->kind == N_WHILE ? "(while " : "(until ");
    dump_node(o, n->u.loop.cond);
    buf_putc(o, ' ');
    dump_node(o, n->u.loop.body);
    break;
  case N_FOR:
  case N_SELECT:
    buf_printf(o, "(%s %s", n->kind == N_FOR ? "for" : "select", n->u.for_.var);
    if (n->u.for_.has_in) {
      buf_puts(o, " in");
      for (i = 0; i < n->u.for_.nwords; i++) {
        buf_putc(o, ' ');
        dump_word(o, n->u.for_.words[i]);
      }
      buf_puts(o, " ;");
    }
    buf_putc(o, ' ');
    dump_node(o, n->u.for_.body);
    break;
  case N_FOR_ARITH:
    buf_puts(o, "(for((");
    if (n->u.for_arith.init)
      dump_word(o, n->u.for_arith.init);
    buf_putc(o, ';');
    if (n->u.for_arith.cond)
      dump_word(o, n->u.for_arith.cond);
    buf_putc(o, ';');
    if (n->u.for_arith.step)
      dump_word(o, n->u.for_arith.step);
    buf_puts(o, ")) ");
    dump_node(o, n->u.for_arith.body);
    break;
  case N_CASE:
    buf_puts(o, "(case ");
    dump_word(o, n->u.case_.word);
    for (i = 0; i < n->u.case_.nitems; i++) {
      const sh_case_item *it = &n->u.case_.items[i];
      buf_puts(o, " (");
      for (size_t j = 0; j < it->npatterns; j++) {
        if (j)
          buf_putc(o, '|');
        dump_word(o, it->patterns[j]);
      }
      dump_opt(o, it->body);
      buf_puts(o, it->term == CT_BREAK  ? " ;;)"
                  : it->term == CT_FALL ? " ;&)"
                                        : " ;;&)");
    }
    break;
  case N_FUNCDEF:
    buf_printf(o, "(func %s ", n->u.func.name);
    dump_node(o, n->u.func.body);
    break;
  case N_ARITH:
    buf_puts(o, "(arith ");
    dump_word(o, n->u.arith.expr);
    break;
  case N_COND:
    buf_puts(o, "(cond ");
    dump_cond(o, n->u.cond.expr);
    break;
  case N_TIME:
    buf_puts(o, n->u.time.posix ? "(time -p " : "(time ");
    dump_node(o, n->u.time.pipeline);
    break;
  }
  dump_redirs(o, n->redirs);
  buf_putc(o, ')');
}

int sh_ast_dump(struct buf *out, const sh_node *n) {
  size_t before = out->len;
  dump_node(out, n);
  return out->len > before || !n ? 0 : -1;
}

int sh_ast_dump_word(struct buf *out, const sh_word *w) {
  dump_word(out, w);
  return 0;
}
