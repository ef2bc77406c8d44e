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
#include <stdint.h>
#include <string.h>

#include "core/buf.h"
#include "shell/syntax/parse_internal.h"

#define PR_MAX_DOCS 32

/* Printer state, modelled on how bash prints: bash sees a list as a
 * left-leaning tree of connections (((a ; b) ; c) & ) and the spacing
 * depends on where in that tree a command sits. */
typedef struct pr {
  buf *o;
  int ind;    /* indentation in columns */
  int fn;     /* inside a function definition: ';' ends the line */
  int comsub; /* printing a $(...) body: newlines stay newlines */
  int skip;   /* the next command does not indent itself */
  int conn;   /* inside a connection: here-doc bodies wait for the
                 connector */
  const sh_redir *docs[PR_MAX_DOCS]; /* deferred here-documents */
  size_t ndocs;
  int was_doc; /* here-doc bodies were just printed: no ';' */
  int err;
} pr;

static void mcs(pr *p, const sh_node *n);

static inline void putn(pr *p, const char *s, size_t n) {
  buf *o = p->o;
  if (o->len + n < o->cap && !o->oom) { /* room left: the common case */
    memcpy(o->data + o->len, s, n);
    o->len += n;
    o->data[o->len] = 0;
  } else if (n && buf_append(o, s, n)) {
    p->err = 1;
  }
}

static inline void put(pr *p, const char *s) {
  putn(p, s, strlen(s));
}

static inline void putch(pr *p, int c) {
  char ch = (char)c;
  putn(p, &ch, 1);
}

static void indent(pr *p) {
  static const char sp[] = "                                ";
  for (int i = p->ind; i > 0; i -= (int)sizeof sp - 1)
    putn(p, sp, i < (int)sizeof sp - 1 ? (size_t)i : sizeof sp - 1);
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
      /* bash keeps $( (...) ) that looked like $(( verbatim */
      if (!pt->u.cmdsub.backtick && pt->u.cmdsub.src && s->n < 64 &&
          !(pt->kind == WP_CMDSUB && pt->u.cmdsub.src_len &&
            pt->u.cmdsub.src[0] == '('))
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
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\'') {
      putn(p, s + run, i - run);
      put(p, "'\\''");
      run = i + 1;
    }
  }
  putn(p, s + run, n - run);
  putch(p, '\'');
}

static void print_deferred(pr *p, const char *cs);

/* bash renders $(...) bodies when it reads them, in a fresh context. */
static void print_sub_body(pr *p, const sh_node *body) {
  pr save = *p;
  memset(p, 0, sizeof *p);
  p->o = save.o;
  p->comsub = 1;
  size_t at = p->o->len;
  mcs(p, body);
  print_deferred(p, "");
  /* $( (a) ) must not print as $((a)) */
  if (p->o->len > at && p->o->data[at] == '(' && !buf_putc(p->o, ' ')) {
    memmove(p->o->data + at + 1, p->o->data + at, p->o->len - at - 1);
    p->o->data[at] = ' ';
  }
  int err = p->err;
  *p = save;
  p->err |= err;
}

/* Inside "...", ${x-word} (and = ? +) takes $'...' as plain text: bash
 * prints it decoded without quotes. i is just after "${". */
static int brace_plain(const char *s, size_t i, size_t n) {
  if (i < n && (s[i] == '#' || s[i] == '!'))
    i++;
  if (i < n && !(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
                 (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
    i++; /* a special parameter */
  while (i < n &&
         (s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
          (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
    i++;
  if (i < n && s[i] == '[') {
    int d = 0;
    for (; i < n; i++) {
      if (s[i] == '[')
        d++;
      else if (s[i] == ']' && !--d)
        break;
    }
    i++;
  }
  if (i < n && s[i] == ':')
    i++;
  return i < n && (s[i] == '-' || s[i] == '=' || s[i] == '?' || s[i] == '+');
}

/* Offset in s[0..n) of the first substitution in sb that starts at or
 * after offset i, or n. */
static size_t next_sub(const subs *sb, const char *s, size_t i, size_t n) {
  size_t best = n;
  for (size_t k = 0; k < sb->n; k++) {
    size_t off = (size_t)((uintptr_t)sb->v[k]->u.cmdsub.src - (uintptr_t)s);
    if (sb->v[k]->u.cmdsub.src_len && off >= i && off < best)
      best = off;
  }
  return best;
}

/* Print source text s[0..n), replacing $(...) bodies listed in subs by
 * their re-printed form and $'...' by its single-quoted value. */
static void print_src(pr *p, const char *s, size_t n, const subs *sb) {
  int dq = 0, br = 0;
  unsigned plain = 0; /* bit k: brace level k+1 takes $'' as plain text */
  size_t i = 0;
  size_t nx = next_sub(sb, s, 0, n); /* where the next substitution starts */
  while (i < n) {
    if (i > nx)
      nx = next_sub(sb, s, i, n);
    if (i == nx) {
      const sh_part *hit = NULL;
      for (size_t k = 0; k < sb->n; k++)
        if (sb->v[k]->u.cmdsub.src == s + i && sb->v[k]->u.cmdsub.src_len)
          hit = sb->v[k];
      print_sub_body(p, hit->u.cmdsub.body);
      i += hit->u.cmdsub.src_len;
      nx = next_sub(sb, s, i, n);
      continue;
    }
    char c = s[i];
    if (c == '\\' && i + 1 < n && s[i + 1] == '\n') {
      i += 2; /* a line continuation is not part of the word */
    } else if (c == '\\' && i + 1 < n) {
      putn(p, s + i, 2);
      i += 2;
    } else if (c == '\'' && (!dq || br)) {
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
    } else if (c == '$' && !dq && i + 1 < n && s[i + 1] == '"') {
      i++; /* $"..." prints as "..." */
    } else if (c == '$' && i + 1 < n && s[i + 1] == '{') {
      if (br < 31) {
        plain &= ~(1u << br);
        if (dq && brace_plain(s, i + 2, n))
          plain |= 1u << br;
      }
      br++;
      putn(p, s + i, 2);
      i += 2;
    } else if (c == '}' && br) {
      br--;
      putch(p, c);
      i++;
    } else if (c == '$' && (!dq || br) && i + 1 < n && s[i + 1] == '\'') {
      size_t j = i + 2;
      while (j < n && s[j] != '\'')
        j += s[j] == '\\' ? 2 : 1;
      if (j > n)
        j = n;
      size_t len = j - (i + 2);
      char tmp[512];
      if (len < sizeof tmp) {
        size_t m = sh_ansi_decode(s + i + 2, len, tmp);
        if (br && br <= 31 && (plain & (1u << (br - 1))))
          putn(p, tmp, m);
        else
          single_quote(p, tmp, m);
      } else {
        putn(p, s + i, j - i + 1);
      }
      i = j < n ? j + 1 : n;
    } else {
      /* a run of bytes that mean nothing here, up to the next substitution */
      size_t j = i + 1;
      while (j < nx && s[j] != '\\' && s[j] != '\'' && s[j] != '"' &&
             s[j] != '$' && s[j] != '}')
        j++;
      putn(p, s + i, j - i);
      i = j;
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
  const char *s = w->src;
  for (size_t i = 0; i < w->src_len; i++) {
    char c = s[i];
    if (c == '\\' && i + 1 < w->src_len)
      putch(p, s[++i]);
    else if (c == '$' && i + 1 < w->src_len &&
             (s[i + 1] == '\'' || s[i + 1] == '"'))
      continue;
    else if (c != '\'' && c != '"')
      putch(p, c);
  }
}

static void print_bodies(pr *p, const sh_redir *const *docs, size_t n) {
  putch(p, '\n');
  for (size_t i = 0; i < n; i++) {
    const sh_redir *r = docs[i];
    if (r->heredoc && r->heredoc->src)
      putn(p, r->heredoc->src, r->heredoc->src_len);
    print_delim(p, r);
    putch(p, '\n');
  }
  p->was_doc = 1;
}

/* Bodies of here-documents wait until the connector after their command
 * (cs) is printed: `cat <<E |` newline, body, then the next command. */
static void print_deferred(pr *p, const char *cs) {
  int show = cs[0] && (cs[0] != ';' || cs[1]);
  if (show)
    put(p, cs);
  if (p->ndocs) {
    print_bodies(p, p->docs, p->ndocs);
    if (show)
      putch(p, ' ');
    p->ndocs = 0;
    p->was_doc = 1;
  }
}

/* Whether a word is a plain number (for <&N, >&N and N- forms). */
static int word_digits(const sh_word *w, int *dash) {
  const char *s = sh_word_plain(w);
  *dash = 0;
  if (!s || !*s)
    return 0;
  size_t n = strlen(s);
  if (n > 1 && s[n - 1] == '-') {
    *dash = 1;
    n--;
  }
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return 0;
  return 1;
}

static void print_fd(pr *p, const sh_redir *r, int def, int always) {
  if (r->fd_var) {
    putch(p, '{');
    put(p, r->fd_var);
    putch(p, '}');
    return;
  }
  int fd = r->fd < 0 ? def : r->fd;
  if ((always || fd != def) && buf_put_long(p->o, fd))
    p->err = 1;
}

static void print_redir(pr *p, const sh_redir *r) {
  int dash;
  switch (r->op) {
  case R_IN:
    print_fd(p, r, 0, 0);
    put(p, "< ");
    break;
  case R_OUT:
    print_fd(p, r, 1, 0);
    put(p, "> ");
    break;
  case R_CLOBBER:
    print_fd(p, r, 1, 0);
    put(p, ">| ");
    break;
  case R_APPEND:
    print_fd(p, r, 1, 0);
    put(p, ">> ");
    break;
  /* bash compares <> with 1, so a default <> prints as 0<> */
  case R_INOUT:
    if (r->fd_var)
      print_fd(p, r, 0, 1);
    else if (r->fd != 1 && buf_put_long(p->o, r->fd < 0 ? 0 : r->fd))
      p->err = 1;
    put(p, "<> ");
    break;
  case R_HERESTRING:
    print_fd(p, r, 0, 0);
    put(p, "<<< ");
    break;
  case R_OUT_ERR:
    put(p, "&> ");
    break;
  case R_APPEND_OUT_ERR:
    put(p, "&>> ");
    break;
  case R_DUP_IN:
  case R_DUP_OUT: {
    int in = r->op == R_DUP_IN;
    const char *s = sh_word_plain(r->target);
    if (s && !strcmp(s, "-")) {
      /* closing prints as N>&- whichever way it was written */
      print_fd(p, r, in ? 0 : 1, 1);
      put(p, ">&-");
      return;
    }
    print_fd(p, r, in ? 0 : 1, word_digits(r->target, &dash));
    put(p, in ? "<&" : ">&");
    break;
  }
  case R_HEREDOC:
    print_fd(p, r, 0, 0);
    put(p, r->strip_tabs ? "<<-" : "<<");
    if (r->heredoc_quoted)
      putch(p, '\'');
    print_delim(p, r);
    if (r->heredoc_quoted)
      putch(p, '\'');
    return;
  }
  print_word(p, r->target);
}

/* extra: " 2>&1" appended for |& (bash turns it into that redirection) */
static void print_redirs(pr *p, const sh_redir *r, int extra) {
  const sh_redir *docs[PR_MAX_DOCS];
  size_t nd = 0;
  p->was_doc = 0;
  for (; r; r = r->next) {
    print_redir(p, r);
    if (r->op == R_HEREDOC && nd < PR_MAX_DOCS)
      docs[nd++] = r;
    if (r->next || extra)
      putch(p, ' ');
  }
  if (extra)
    put(p, "2>&1");
  if (nd && p->conn) {
    for (size_t i = 0; i < nd && p->ndocs < PR_MAX_DOCS; i++)
      p->docs[p->ndocs++] = docs[i];
  } else if (nd) {
    print_bodies(p, docs, nd);
  }
}

/* ---- commands ---------------------------------------------------------- */

static void newline_str(pr *p, const char *s) {
  putch(p, '\n');
  indent(p);
  put(p, s);
}

/* The connector between two parts of a connection, then the second. */
static void connect(pr *p, int c, int has_second) {
  switch (c) {
  case '&':
  case '|': {
    char cs[3] = {' ', (char)c, 0};
    print_deferred(p, cs);
    if (c != '&' || has_second) {
      putch(p, ' ');
      p->skip++;
    }
    break;
  }
  case 'a':
  case 'o':
    print_deferred(p, c == 'a' ? " && " : " || ");
    if (has_second)
      p->skip++;
    break;
  default: { /* ';' or '\n' */
    char cs[2] = {p->comsub ? (char)c : ';', 0};
    if (!p->ndocs) {
      if (!p->was_doc)
        put(p, cs);
      else
        p->was_doc = 0;
    } else {
      print_deferred(p, p->fn ? "" : ";");
    }
    if (p->fn) {
      putch(p, '\n');
    } else {
      if (c == ';')
        putch(p, ' ');
      if (has_second)
        p->skip++;
    }
  }
  }
}

/* Entry of a command: bash indents it unless told not to. */
static void enter(pr *p) {
  if (p->skip)
    p->skip--;
  else
    indent(p);
}

static void conn_list(pr *p, const sh_list_item *it, size_t n, int async);

/* Items 0..n-1 of a list as bash's left-leaning tree; `async`: the last
 * item ends with & (a connection with no second command). */
static void conn_list(pr *p, const sh_list_item *it, size_t n, int async) {
  if (n == 1 && !async) {
    mcs(p, it[0].node);
    return;
  }
  enter(p);
  p->skip++;
  p->conn++;
  if (async) {
    conn_list(p, it, n, 0);
    connect(p, '&', 0);
  } else {
    conn_list(p, it, n - 1, 0);
    const sh_list_item *prev = &it[n - 2];
    connect(p, prev->async ? '&' : prev->newline ? '\n' : ';', 1);
    mcs(p, it[n - 1].node);
  }
  print_deferred(p, "");
  p->conn--;
}

static void conn_pipe(pr *p, const sh_node *n, size_t k) {
  const sh_node *c = n->u.pipe.cmds[k - 1];
  int extra = k < n->u.pipe.ncmds && n->u.pipe.stderr_too &&
              n->u.pipe.stderr_too[k - 1];
  if (k == 1) {
    mcs(p, c);
    if (extra) { /* |& is 2>&1 on this command for bash */
      putch(p, ' ');
      print_redirs(p, NULL, 1);
    }
    return;
  }
  enter(p);
  p->skip++;
  p->conn++;
  conn_pipe(p, n, k - 1);
  connect(p, '|', 1);
  mcs(p, c);
  if (extra) {
    putch(p, ' ');
    print_redirs(p, NULL, 1);
  }
  print_deferred(p, "");
  p->conn--;
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

/* body of for/select/while...: one level deeper, then ';' */
static void body_block(pr *p, const sh_node *body) {
  p->ind += 4;
  mcs(p, body);
  print_deferred(p, "");
  semicolon(p);
  p->ind -= 4;
}

static void print_do_done(pr *p, const sh_node *body) {
  newline_str(p, "do\n");
  body_block(p, body);
  newline_str(p, "done");
}

static void print_case(pr *p, const sh_node *n) {
  put(p, "case ");
  print_word(p, n->u.case_.word);
  put(p, " in ");
  p->ind += 4;
  for (size_t i = 0; i < n->u.case_.nitems; i++) {
    const sh_case_item *it = &n->u.case_.items[i];
    newline_str(p, "");
    for (size_t j = 0; j < it->npatterns; j++) {
      if (j)
        put(p, " | ");
      print_word(p, it->patterns[j]);
    }
    put(p, ")\n");
    p->ind += 4;
    mcs(p, it->body);
    p->ind -= 4;
    print_deferred(p, "");
    newline_str(p, it->term == CT_BREAK  ? ";;"
                   : it->term == CT_FALL ? ";&"
                                         : ";;&");
  }
  p->ind -= 4;
  newline_str(p, "esac");
}

static int is_reserved(const char *s) {
  static const char *const rw[] = {
      "if",     "then",  "elif",  "else", "fi",   "case",   "esac",     "for",
      "select", "while", "until", "do",   "done", "in",     "function", "time",
      "{",      "}",     "!",     "[[",   "]]",   "coproc", NULL};
  for (int i = 0; rw[i]; i++)
    if (!strcmp(rw[i], s))
      return 1;
  return 0;
}

/* A function: the body's braces are part of the definition; redirections
 * of a { } body print after its closing brace. */
static void print_func_body(pr *p, const sh_node *n, int ind0) {
  const sh_node *b = n->u.func.body;
  const sh_redir *redirs = NULL;
  p->fn++;
  if (b && b->kind == N_GROUP) {
    redirs = b->redirs;
    b = b->u.group.body;
  }
  mcs(p, b);
  print_deferred(p, "");
  p->ind = ind0;
  p->fn--;
  if (redirs) {
    newline_str(p, "} ");
    print_redirs(p, redirs, 0);
  } else {
    newline_str(p, "}");
  }
}

static void print_func(pr *p, const sh_node *n, int top) {
  int ind0 = p->ind;
  if (!top || is_reserved(n->u.func.name))
    put(p, "function ");
  put(p, n->u.func.name);
  put(p, " () \n");
  indent(p);
  put(p, "{ \n");
  p->ind += 4;
  print_func_body(p, n, ind0);
}

static void print_simple(pr *p, const sh_node *n) {
  int sp = 0;
  for (const sh_assign *as = n->u.simple.assigns; as; as = as->next) {
    if (sp)
      putch(p, ' ');
    print_assign(p, as);
    sp = 1;
  }
  for (size_t i = 0; i < n->u.simple.nwords; i++) {
    if (sp)
      putch(p, ' ');
    print_word(p, n->u.simple.words[i]);
    sp = 1;
  }
  if (n->redirs) {
    if (sp)
      putch(p, ' ');
    print_redirs(p, n->redirs, 0);
  }
}

/* bash's make_command_string_internal for one node */
static void mcs(pr *p, const sh_node *n) {
  if (!n)
    return;
  enter(p);
  if (n->kind == N_TIME) {
    put(p, n->u.time.posix ? "time -p " : "time ");
    n = n->u.time.pipeline;
    if (!n)
      return;
  }
  if (n->kind == N_PIPELINE && n->u.pipe.bang)
    put(p, "! ");
  switch (n->kind) {
  case N_SIMPLE:
    print_simple(p, n);
    return;
  case N_PIPELINE:
    if (!n->u.pipe.ncmds)
      return;
    p->skip++;
    conn_pipe(p, n, n->u.pipe.ncmds);
    return;
  case N_AND:
  case N_OR:
    p->skip++;
    p->conn++;
    mcs(p, n->u.andor.l);
    connect(p, n->kind == N_AND ? 'a' : 'o', 1);
    mcs(p, n->u.andor.r);
    print_deferred(p, "");
    p->conn--;
    return;
  case N_LIST:
    if (!n->u.list.nitems)
      return;
    p->skip++;
    conn_list(p, n->u.list.items, n->u.list.nitems,
              n->u.list.items[n->u.list.nitems - 1].async);
    return;
  case N_SUBSHELL:
    put(p, "( ");
    p->skip++;
    mcs(p, n->u.group.body);
    print_deferred(p, "");
    put(p, " )");
    break;
  case N_GROUP:
    put(p, "{ ");
    if (!p->fn) {
      p->skip++;
    } else {
      putch(p, '\n');
      p->ind += 4;
    }
    mcs(p, n->u.group.body);
    print_deferred(p, "");
    if (p->fn) {
      putch(p, '\n');
      p->ind -= 4;
      indent(p);
    } else {
      semicolon(p);
      putch(p, ' ');
    }
    putch(p, '}');
    break;
  case N_IF:
    put(p, "if ");
    p->skip++;
    mcs(p, n->u.if_.cond);
    semicolon(p);
    put(p, " then\n");
    p->ind += 4;
    mcs(p, n->u.if_.then_part);
    print_deferred(p, "");
    p->ind -= 4;
    if (n->u.if_.else_part) {
      semicolon(p);
      newline_str(p, "else\n");
      p->ind += 4;
      mcs(p, n->u.if_.else_part);
      print_deferred(p, "");
      p->ind -= 4;
    }
    semicolon(p);
    newline_str(p, "fi");
    break;
  case N_WHILE:
  case N_UNTIL:
    put(p, n->kind == N_WHILE ? "while " : "until ");
    p->skip++;
    mcs(p, n->u.loop.cond);
    print_deferred(p, "");
    semicolon(p);
    put(p, " do\n");
    p->ind += 4;
    mcs(p, n->u.loop.body);
    print_deferred(p, "");
    p->ind -= 4;
    semicolon(p);
    newline_str(p, "done");
    break;
  case N_FOR:
  case N_SELECT:
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
    print_func(p, n, 0);
    p->was_doc = 0; /* bash ends a nested definition with ';' regardless */
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
    break;
  }
  if (n->redirs) {
    putch(p, ' ');
    print_redirs(p, n->redirs, 0);
  }
}

int sh_print_node(struct buf *out, const sh_node *n, int ind) {
  pr p;
  memset(&p, 0, sizeof p);
  p.o = out;
  p.ind = ind * 4;
  if (n && n->kind == N_FUNCDEF)
    print_func(&p, n, 1);
  else
    mcs(&p, n);
  print_deferred(&p, "");
  return p.err ? -1 : 0;
}
