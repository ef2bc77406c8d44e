/*
 * parse.c - reading a patch: which files it touches and its hunks.
 *
 * A file's part starts with any header lines (git's "diff --git" and its
 * extended lines, "Index:", or free text) and then the hunks of one of the
 * three formats. Text between parts that is not a header is skipped, as
 * GNU patch skips leading garbage.
 */
#include <string.h>

#include "builtins/text/patch/patch.h"

typedef struct lines {
  const char *text;
  size_t len, pos;
  long no; /* number of the line at pos (1-based) */
} lines;

/* The line at pos (with its newline, if any) without consuming it. */
static int peek(const lines *l, size_t at, const char **p, size_t *n) {
  if (at >= l->len)
    return 0;
  const char *s = l->text + at;
  const char *e = memchr(s, '\n', l->len - at);
  *p = s;
  *n = e ? (size_t)(e - s) + 1 : l->len - at;
  return 1;
}

static void advance(lines *l, size_t n) {
  l->pos += n;
  l->no++;
}

static int starts(const char *p, size_t n, const char *pre) {
  size_t k = strlen(pre);
  return n >= k && memcmp(p, pre, k) == 0;
}

/* Text of a line without its newline (and a CR before it). */
static size_t body(const char *p, size_t n) {
  if (n && p[n - 1] == '\n')
    n--;
  return n;
}

static const char *dup_name(bi_ctx *c, const char *p, size_t n) {
  return arena_strndup(c->scratch, p, n);
}

/* The file name of a "--- NAME\tTIME" line (prefix already skipped);
 * *is_null when it names /dev/null or carries the epoch as its time. */
static const char *header_name(bi_ctx *c, const char *p, size_t n,
                               int *is_null) {
  n = body(p, n);
  while (n && (*p == ' ' || *p == '\t'))
    p++, n--;
  size_t k = 0;
  const char *name;
  if (n && *p == '"') {
    /* a C-quoted name (git) */
    buf b;
    buf_init(&b, c->m);
    for (k = 1; k < n && p[k] != '"'; k++) {
      char ch = p[k];
      if (ch == '\\' && k + 1 < n) {
        ch = p[++k];
        if (ch >= '0' && ch <= '7') {
          int v = 0;
          for (int d = 0; d < 3 && k < n && p[k] >= '0' && p[k] <= '7'; d++)
            v = v * 8 + (p[k++] - '0');
          k--;
          ch = (char)v;
        } else if (ch == 'n')
          ch = '\n';
        else if (ch == 't')
          ch = '\t';
      }
      buf_putc(&b, ch);
    }
    name = dup_name(c, buf_cstr(&b), b.len);
    buf_free(&b);
    if (k < n) /* the closing quote, when there is one */
      k++;
  } else {
    while (k < n && p[k] != '\t')
      k++;
    size_t e = k;
    while (e && (p[e - 1] == ' ' || p[e - 1] == '\r'))
      e--;
    name = dup_name(c, p, e);
  }
  const char *ts = p + k;
  size_t tn = n - k;
  *is_null = name && strcmp(name, "/dev/null") == 0;
  if (!*is_null && tn) {
    /* the epoch, as diff writes it for a missing file */
    const char *pat[] = {"1970-01-01 00:00:00", "Jan  1 00:00:00 1970",
                         "1969-12-31 "};
    for (size_t i = 0; i < 3; i++)
      if (memmem(ts, tn, pat[i], strlen(pat[i])))
        *is_null = 1;
  }
  return name;
}

static int num(const char **p, const char *e, long *v) {
  const char *s = *p;
  long x = 0;
  while (*p < e && **p >= '0' && **p <= '9' && x < 100000000000L)
    x = x * 10 + (*(*p)++ - '0');
  *v = x;
  return *p > s;
}

/* "A[,B]" */
static int range(const char **p, const char *e, long *a, long *b, int *has_b) {
  if (!num(p, e, a))
    return 0;
  *has_b = 0;
  *b = *a;
  if (*p < e && **p == ',') {
    (*p)++;
    if (!num(p, e, b))
      return 0;
    *has_b = 1;
  }
  return 1;
}

/* A normal-format command line: "A[,B]cC[,D]" with c in a, c, d. */
static int normal_cmd(const char *p, size_t n, long v[4], char *cmd) {
  const char *e = p + body(p, n);
  long a, b, cc, d;
  int hb;
  if (!range(&p, e, &a, &b, &hb) || p >= e || !strchr("acd", *p))
    return 0;
  *cmd = *p++;
  if (!range(&p, e, &cc, &d, &hb) || p != e)
    return 0;
  v[0] = a, v[1] = b, v[2] = cc, v[3] = d;
  return 1;
}

typedef struct vec {
  pt_line *v;
  size_t n, cap;
} vec;

static int push(bi_ctx *c, vec *x, char t, const char *p, size_t n) {
  if (x->n == x->cap) {
    size_t nc = x->cap ? x->cap * 2 : 32;
    pt_line *nv = arena_alloc(c->scratch, nc * sizeof *nv);
    if (!nv)
      return -1;
    if (x->n)
      memcpy(nv, x->v, x->n * sizeof *nv);
    x->v = nv;
    x->cap = nc;
  }
  x->v[x->n++] = (pt_line){t, 0, p, n};
  return 0;
}

/* "\ No newline at end of file" after a line: mark it. */
static void eat_nonl(lines *l, vec *x) {
  const char *p = NULL;
  size_t n = 0;
  while (peek(l, l->pos, &p, &n) && starts(p, n, "\\")) {
    if (x->n)
      x->v[x->n - 1].nonl = 1;
    advance(l, n);
  }
}

static int parse_unified(bi_ctx *c, lines *l, pt_hunk *h) {
  const char *p = NULL, *e;
  size_t n = 0;
  peek(l, l->pos, &p, &n);
  e = p + body(p, n);
  p += 4;
  long a, b, cc, d;
  int hb, hd;
  if (!range(&p, e, &a, &b, &hb) || p + 2 > e || p[0] != ' ' || p[1] != '+')
    return -3;
  p += 2;
  if (!range(&p, e, &cc, &d, &hd))
    return -3;
  if (!hb)
    b = 1;
  if (!hd)
    d = 1;
  h->old_first = a;
  h->old_n = b;
  h->new_first = cc;
  h->new_n = d;
  h->line_no = l->no;
  h->text = l->text + l->pos;
  advance(l, n);
  vec x = {0};
  long o = 0, w = 0;
  while (o < b || w < d) {
    if (!peek(l, l->pos, &p, &n)) {
      /* The patch ends inside the hunk: like GNU, take up to three missing
       * context lines for blank lines a mailer chopped off. */
      if (b - o == d - w && b - o < 4) {
        for (; o < b; o++, w++)
          if (push(c, &x, ' ', "", 0))
            return -1;
        break;
      }
      return -3;
    }
    char t = *p;
    if (t == '\n' || (t == '\r' && n == 2)) {
      /* an empty line: context whose space was lost */
      if (o >= b || w >= d)
        return -3;
      if (push(c, &x, ' ', p, 0))
        return -1;
      o++;
      w++;
      advance(l, n);
      continue;
    }
    if (t == '\\') {
      eat_nonl(l, &x);
      continue;
    }
    if (t != ' ' && t != '-' && t != '+')
      return -3;
    if ((t != '+' && o >= b) || (t != '-' && w >= d))
      return -3;
    if (push(c, &x, t, p + 1, body(p + 1, n - 1)))
      return -1;
    if (t != '+')
      o++;
    if (t != '-')
      w++;
    advance(l, n);
    if ((l->no & 1023) == 0 && budget_poll(c->bud))
      return -2;
  }
  eat_nonl(l, &x);
  h->l = x.v;
  h->nl = x.n;
  h->text_len = (size_t)(l->text + l->pos - h->text);
  return 0;
}

/* Lines of one side of a context hunk. */
static int context_side(bi_ctx *c, lines *l, vec *x, long want,
                        const char *chars) {
  const char *p = NULL;
  size_t n = 0;
  long got = 0;
  while (got < want && peek(l, l->pos, &p, &n)) {
    if (starts(p, n, "\\")) {
      eat_nonl(l, x);
      continue;
    }
    if (n < 2 || !strchr(chars, p[0]) || (p[1] != ' ' && p[1] != '\t'))
      break;
    if (starts(p, n, "--- ") || starts(p, n, "***"))
      break;
    if (push(c, x, p[0], p + 2, body(p + 2, n - 2)))
      return -1;
    advance(l, n);
    got++;
    if ((l->no & 1023) == 0 && budget_poll(c->bud))
      return -2;
  }
  eat_nonl(l, x);
  return 0;
}

static int parse_context(bi_ctx *c, lines *l, pt_hunk *h) {
  const char *p = NULL, *e;
  size_t n = 0;
  h->text = l->text + l->pos;
  h->line_no = l->no;
  peek(l, l->pos, &p, &n);
  advance(l, n); /* the stars */
  if (!peek(l, l->pos, &p, &n) || !starts(p, n, "*** "))
    return -3;
  e = p + body(p, n);
  p += 4;
  long a, b, cc, d;
  int hb;
  if (!range(&p, e, &a, &b, &hb))
    return -3;
  advance(l, n);
  long on = hb ? b - a + 1 : (a ? 1 : 0);
  vec ov = {0}, nv = {0};
  int r = context_side(c, l, &ov, on, " -!");
  if (r)
    return r;
  if (!peek(l, l->pos, &p, &n) || !starts(p, n, "--- "))
    return -3;
  e = p + body(p, n);
  p += 4;
  if (!range(&p, e, &cc, &d, &hb))
    return -3;
  advance(l, n);
  long nn = hb ? d - cc + 1 : (cc ? 1 : 0);
  r = context_side(c, l, &nv, nn, " +!");
  if (r)
    return r;
  if (ov.n && (long)ov.n != on)
    return -3;
  if (nv.n && (long)nv.n != nn)
    return -3;
  vec x = {0};
  size_t i = 0, j = 0;
  if (!ov.n) {
    for (; j < nv.n; j++)
      if (push(c, &x, nv.v[j].t == ' ' ? ' ' : '+', nv.v[j].p, nv.v[j].n))
        return -1;
      else
        x.v[x.n - 1].nonl = nv.v[j].nonl;
  } else if (!nv.n) {
    for (; i < ov.n; i++)
      if (push(c, &x, ov.v[i].t == ' ' ? ' ' : '-', ov.v[i].p, ov.v[i].n))
        return -1;
      else
        x.v[x.n - 1].nonl = ov.v[i].nonl;
  } else {
    while (i < ov.n || j < nv.n) {
      const pt_line *src;
      char t;
      if (i < ov.n && ov.v[i].t == '-') {
        src = &ov.v[i++];
        t = '-';
      } else if (j < nv.n && nv.v[j].t == '+') {
        src = &nv.v[j++];
        t = '+';
      } else if (i < ov.n && ov.v[i].t == '!') {
        while (i < ov.n && ov.v[i].t == '!') {
          if (push(c, &x, '-', ov.v[i].p, ov.v[i].n))
            return -1;
          x.v[x.n - 1].nonl = ov.v[i].nonl;
          i++;
        }
        while (j < nv.n && nv.v[j].t == '!') {
          if (push(c, &x, '+', nv.v[j].p, nv.v[j].n))
            return -1;
          x.v[x.n - 1].nonl = nv.v[j].nonl;
          j++;
        }
        continue;
      } else if (j < nv.n && nv.v[j].t == '!') {
        src = &nv.v[j++];
        t = '+';
      } else {
        /* context on both sides: the new side's copy */
        src = j < nv.n ? &nv.v[j] : &ov.v[i];
        t = ' ';
        if (i < ov.n)
          i++;
        if (j < nv.n)
          j++;
      }
      if (push(c, &x, t, src->p, src->n))
        return -1;
      x.v[x.n - 1].nonl = src->nonl;
    }
  }
  long oc = 0, nc = 0;
  for (size_t k = 0; k < x.n; k++) {
    oc += x.v[k].t != '+';
    nc += x.v[k].t != '-';
  }
  /* empty ranges name the line before, as in unified diffs */
  h->old_first = oc ? a : (hb ? a : a);
  h->old_n = oc;
  h->new_first = cc;
  h->new_n = nc;
  if (!oc && a && !hb)
    h->old_first = a;
  h->l = x.v;
  h->nl = x.n;
  h->text_len = (size_t)(l->text + l->pos - h->text);
  return 0;
}

static int parse_normal(bi_ctx *c, lines *l, pt_hunk *h) {
  const char *p = NULL;
  size_t n = 0;
  long v[4];
  char cmd;
  peek(l, l->pos, &p, &n);
  normal_cmd(p, n, v, &cmd);
  h->text = l->text + l->pos;
  h->line_no = l->no;
  advance(l, n);
  vec x = {0};
  long od = cmd == 'a' ? 0 : v[1] - v[0] + 1;
  long na = cmd == 'd' ? 0 : v[3] - v[2] + 1;
  for (long k = 0; k < od; k++) {
    if (!peek(l, l->pos, &p, &n) || !starts(p, n, "< "))
      return -3;
    if (push(c, &x, '-', p + 2, body(p + 2, n - 2)))
      return -1;
    advance(l, n);
    eat_nonl(l, &x);
  }
  if (od && na) {
    if (!peek(l, l->pos, &p, &n) || !starts(p, n, "---"))
      return -3;
    advance(l, n);
  }
  for (long k = 0; k < na; k++) {
    if (!peek(l, l->pos, &p, &n) || !starts(p, n, "> "))
      return -3;
    if (push(c, &x, '+', p + 2, body(p + 2, n - 2)))
      return -1;
    advance(l, n);
    eat_nonl(l, &x);
    if ((l->no & 1023) == 0 && budget_poll(c->bud))
      return -2;
  }
  h->old_first = v[0];
  h->old_n = od;
  h->new_first = v[2];
  h->new_n = na;
  h->l = x.v;
  h->nl = x.n;
  h->text_len = (size_t)(l->text + l->pos - h->text);
  return 0;
}

typedef struct fvec {
  pt_file *v;
  size_t n, cap;
} fvec;

static pt_file *new_file(bi_ctx *c, fvec *f) {
  if (f->n == f->cap) {
    size_t nc = f->cap ? f->cap * 2 : 8;
    pt_file *nv = arena_alloc(c->scratch, nc * sizeof *nv);
    if (!nv)
      return NULL;
    if (f->n)
      memcpy(nv, f->v, f->n * sizeof *nv);
    f->v = nv;
    f->cap = nc;
  }
  pt_file *p = &f->v[f->n++];
  memset(p, 0, sizeof *p);
  return p;
}

static int add_hunk(bi_ctx *c, pt_file *f, size_t *cap) {
  if (f->nh == *cap) {
    size_t nc = *cap ? *cap * 2 : 8;
    pt_hunk *nv = arena_alloc(c->scratch, nc * sizeof *nv);
    if (!nv)
      return -1;
    if (f->nh)
      memcpy(nv, f->h, f->nh * sizeof *nv);
    f->h = nv;
    *cap = nc;
  }
  memset(&f->h[f->nh], 0, sizeof f->h[0]);
  return 0;
}

/* "diff --git a/X b/Y": the two names (best effort for names with
 * spaces: the halves must agree when they do not start with a/ b/). */
static void git_names(bi_ctx *c, pt_file *f, const char *p, size_t n) {
  n = body(p, n);
  const char *s = p + 11, *e = p + n;
  const char *mid = NULL;
  for (const char *q = s; q + 3 <= e; q++)
    if (q[0] == ' ' && q[1] == 'b' && q[2] == '/') {
      mid = q;
      break;
    }
  if (!mid)
    return;
  f->name[0] = dup_name(c, s, (size_t)(mid - s));
  f->name[1] = dup_name(c, mid + 1, (size_t)(e - mid - 1));
}

int pt_parse(bi_ctx *c, const char *text, size_t len, int normal_ok,
             pt_file **files, size_t *nfiles, long *bad_line) {
  lines l = {text, len, 0, 1};
  fvec fv = {0};
  pt_file pend; /* header facts seen before the hunks */
  memset(&pend, 0, sizeof pend);
  size_t part = 0; /* where the current part's header starts */
  int in_git = 0;
  const char *p = NULL;
  size_t n = 0;
  while (peek(&l, l.pos, &p, &n)) {
    if ((l.no & 255) == 0 && budget_poll(c->bud))
      return -2;
    const char *p2 = NULL, *p3 = NULL;
    size_t n2 = 0, n3 = 0;
    int has2 = peek(&l, l.pos + n, &p2, &n2);
    int has3 = has2 && peek(&l, l.pos + n + n2, &p3, &n3);
    int kind = 0;
    if (starts(p, n, "diff --git ")) {
      if (in_git) {
        /* a git part without hunks: a rename or a mode change */
        pt_file *f = new_file(c, &fv);
        if (!f)
          return -1;
        *f = pend;
        f->kind = PT_GIT_ONLY;
        f->hdr = text + part;
        f->hdr_len = l.pos - part;
        part = l.pos;
      }
      memset(&pend, 0, sizeof pend);
      part = l.pos;
      pend.git = 1;
      in_git = 1;
      git_names(c, &pend, p, n);
      advance(&l, n);
      continue;
    }
    if (in_git && starts(p, n, "new file mode"))
      pend.git_new = 1;
    else if (in_git && starts(p, n, "deleted file mode"))
      pend.git_deleted = 1;
    else if (in_git && starts(p, n, "rename from "))
      pend.rename_from = dup_name(c, p + 12, body(p + 12, n - 12));
    else if (in_git && starts(p, n, "rename to "))
      pend.rename_to = dup_name(c, p + 10, body(p + 10, n - 10));
    else if (starts(p, n, "Index: "))
      pend.name[2] = header_name(c, p + 7, n - 7, &(int){0});
    if (starts(p, n, "--- ") && has2 && starts(p2, n2, "+++ ") && has3 &&
        starts(p3, n3, "@@ -"))
      kind = PT_UNIFIED;
    else if (starts(p, n, "*** ") && has2 && starts(p2, n2, "--- ") && has3 &&
             starts(p3, n3, "***************"))
      kind = PT_CONTEXT;
    else {
      long v[4];
      char cmd;
      if (normal_ok && normal_cmd(p, n, v, &cmd) && has2 &&
          (starts(p2, n2, "< ") || starts(p2, n2, "> ")))
        kind = PT_NORMAL;
    }
    if (!kind) {
      if (!in_git && !pend.name[2] && !starts(p, n, "diff ") &&
          !starts(p, n, "Only in") && 0)
        part = l.pos + n;
      advance(&l, n);
      continue;
    }
    pt_file *f = new_file(c, &fv);
    if (!f)
      return -1;
    *f = pend;
    f->kind = kind;
    in_git = 0;
    memset(&pend, 0, sizeof pend);
    if (kind != PT_NORMAL) {
      int nul0, nul1;
      const char *n0 = header_name(c, p + 4, n - 4, &nul0);
      const char *n1 = header_name(c, p2 + 4, n2 - 4, &nul1);
      f->name[0] = n0;
      f->name[1] = n1;
      f->is_null[0] = nul0;
      f->is_null[1] = nul1;
      f->rej_hdr = p;
      f->rej_hdr_len = n + n2;
      advance(&l, n);
      advance(&l, n2);
    } else {
      f->name[0] = f->name[1] = NULL;
    }
    if (f->git_new)
      f->is_null[0] = 1;
    if (f->git_deleted)
      f->is_null[1] = 1;
    f->hdr = text + part;
    f->hdr_len = l.pos - part;
    f->first_hunk_line = l.no;
    size_t cap = 0;
    for (;;) {
      if (!peek(&l, l.pos, &p, &n))
        break;
      long v[4];
      char cmd;
      int more = kind == PT_UNIFIED   ? starts(p, n, "@@ -")
                 : kind == PT_CONTEXT ? starts(p, n, "***************")
                                      : normal_cmd(p, n, v, &cmd);
      if (!more)
        break;
      if (add_hunk(c, f, &cap))
        return -1;
      long at = l.no;
      int r = kind == PT_UNIFIED   ? parse_unified(c, &l, &f->h[f->nh])
              : kind == PT_CONTEXT ? parse_context(c, &l, &f->h[f->nh])
                                   : parse_normal(c, &l, &f->h[f->nh]);
      if (r == -3) {
        *bad_line = l.no > at ? l.no : at;
        *files = fv.v;
        *nfiles = fv.n;
        return -3;
      }
      if (r)
        return r;
      f->nh++;
    }
    part = l.pos;
  }
  if (in_git && (pend.rename_from || pend.git_new || pend.git_deleted)) {
    pt_file *f = new_file(c, &fv);
    if (!f)
      return -1;
    *f = pend;
    f->kind = PT_GIT_ONLY;
    f->hdr = text + part;
    f->hdr_len = l.pos - part;
  }
  *files = fv.v;
  *nfiles = fv.n;
  return 0;
}
