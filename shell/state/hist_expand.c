/*
 * hist_expand.c - history expansion (`!!`, `!$`, `^old^new`), which an
 * interactive bash applies to each line it reads and `history -p` to its
 * arguments.
 *
 * Supported: the events !! !N !-N !text !?text? and !# (the line so far),
 * word designators after a colon or directly after the event for ^ $ * -
 * (0, N, ^, $, *, X-Y, X*, X-), the modifiers :h :t :r :e :p :s/old/new/
 * :& and :g with s, and a ^old^new^ line. A '!' before a blank, '=', '(' or
 * the end of the line, after a backslash, inside single quotes, as $!,
 * ${! and [! ... ], or just before a closing double quote is left alone,
 * as bash leaves it.
 */
#include <stdio.h>
#include <string.h>

#include "shell/sh.h"
#include "shell/state/hist.h"

/* The words of an entry as history expansion sees them: blank-separated,
 * quotes kept together, and ; | & < > ( ) words of their own. */
typedef struct hwords {
  const char *s[64];
  size_t n[64];
  int count;
} hwords;

static int meta(char c) {
  return c == ';' || c == '|' || c == '&' || c == '<' || c == '>' || c == '(' ||
         c == ')';
}

static void split_words(const char *line, hwords *w) {
  w->count = 0;
  const char *p = line;
  while (*p && w->count < 64) {
    while (*p == ' ' || *p == '\t' || *p == '\n')
      p++;
    if (!*p)
      break;
    const char *st = p;
    if (meta(*p)) {
      char c = *p++;
      if ((c == '|' || c == '&' || c == '>' || c == '<' || c == ';') && *p == c)
        p++;
    } else {
      char q = 0;
      while (*p) {
        if (q) {
          if (*p == '\\' && q == '"' && p[1])
            p++;
          else if (*p == q)
            q = 0;
        } else if (*p == '\\' && p[1]) {
          p++;
        } else if (*p == '\'' || *p == '"' || *p == '`') {
          q = *p;
        } else if (*p == ' ' || *p == '\t' || *p == '\n' || meta(*p)) {
          break;
        }
        p++;
      }
    }
    w->s[w->count] = st;
    w->n[w->count] = (size_t)(p - st);
    w->count++;
  }
}

static void err(sh_exec *ex, const char *what, size_t n, const char *msg) {
  if (!msg)
    return;
  buf b;
  buf_init(&b, ex->m);
  buf_puts(&b, ex->errname ? ex->errname : "bash");
  buf_puts(&b, ": ");
  buf_append(&b, what, n);
  buf_puts(&b, ": ");
  buf_puts(&b, msg);
  buf_putc(&b, '\n');
  stream *e = ex->fd[2];
  if (e && !b.oom)
    stream_write(e, b.data, b.len);
  buf_free(&b);
}

/* The event at s (after the '!'): the entry's text, *used bytes eaten. */
static const char *event(sh_exec *ex, const char *s, const char *line_so_far,
                         size_t *used) {
  sh_hist *h = ex->hist;
  size_t n = h ? h->n : 0;
  /* the line being expanded is not in the list yet */
  if (s[0] == '!') {
    *used = 1;
    return n ? h->v[n - 1] : NULL;
  }
  if (s[0] == '#') {
    *used = 1;
    return line_so_far;
  }
  const char *p = s;
  int neg = *p == '-';
  if (neg)
    p++;
  if (*p >= '0' && *p <= '9') {
    long k = 0;
    while (*p >= '0' && *p <= '9' && k < 100000000)
      k = k * 10 + (*p++ - '0');
    *used = (size_t)(p - s);
    long idx = neg ? (long)n - k : k - (h ? h->base : 1);
    return idx >= 0 && (size_t)idx < n ? h->v[idx] : NULL;
  }
  if (neg) {
    *used = 0;
    return NULL;
  }
  int sub = *p == '?';
  if (sub)
    p++;
  const char *e = p;
  while (*e && *e != ' ' && *e != '\t' && *e != '\n' &&
         (sub ? *e != '?' : *e != ':' && *e != '"' && *e != '\''))
    e++;
  *used = (size_t)(e - s) + (sub && *e == '?');
  size_t pl = (size_t)(e - p);
  if (!pl)
    return NULL;
  for (size_t k = n; k-- > 0;)
    if (sub ? memmem(h->v[k], strlen(h->v[k]), p, pl) != NULL
            : strncmp(h->v[k], p, pl) == 0)
      return h->v[k];
  return NULL;
}

/* A word number at *p ('$' is the last, '^' is 1); -1 if none. */
static int word_num(const char **p, int last) {
  if (**p == '$') {
    (*p)++;
    return last;
  }
  if (**p == '^') {
    (*p)++;
    return 1;
  }
  if (**p >= '0' && **p <= '9') {
    int k = 0;
    while (**p >= '0' && **p <= '9' && k < 1000)
      k = k * 10 + (*(*p)++ - '0');
    return k;
  }
  return -1;
}

/* Word designators of the event text ev at *p, into out. -1: bad. */
static int designate(const char **pp, const char *ev, buf *out) {
  const char *p = *pp;
  hwords w;
  split_words(ev, &w);
  int last = w.count - 1;
  int from, to;
  if (*p == '*') {
    p++;
    from = 1;
    to = last;
  } else if (*p == '-') {
    p++;
    from = 0;
    to = word_num(&p, last);
    if (to < 0)
      to = last - 1;
  } else {
    from = word_num(&p, last);
    if (from < 0)
      return -1;
    to = from;
    if (*p == '*') {
      p++;
      to = last;
    } else if (*p == '-') {
      p++;
      to = word_num(&p, last);
      if (to < 0)
        to = last - 1;
    }
  }
  *pp = p;
  if (from > to) /* an empty range ("!*" of a one-word command) */
    return from == last + 1 ? 0 : -1;
  if (from < 0 || to > last)
    return -1;
  for (int i = from; i <= to; i++) {
    if (i > from)
      buf_putc(out, ' ');
    buf_append(out, w.s[i], w.n[i]);
  }
  return 0;
}

/* :s/old/new/ on b (once, or everywhere with g); & in new is old. */
static int subst(buf *b, const char *old, size_t ol, const char *rep, size_t rl,
                 int global, mem *m) {
  if (!ol)
    return -1;
  buf r;
  buf_init(&r, m);
  const char *p = b->data ? b->data : "";
  size_t left = b->len;
  int done = 0;
  while (left) {
    const char *hit = (!done || global) ? memmem(p, left, old, ol) : NULL;
    if (!hit)
      break;
    buf_append(&r, p, (size_t)(hit - p));
    for (size_t i = 0; i < rl; i++) {
      if (rep[i] == '\\' && i + 1 < rl && rep[i + 1] == '&')
        buf_putc(&r, rep[++i]);
      else if (rep[i] == '&')
        buf_append(&r, old, ol);
      else
        buf_putc(&r, rep[i]);
    }
    left -= (size_t)(hit - p) + ol;
    p = hit + ol;
    done = 1;
  }
  buf_append(&r, p, left);
  buf_free(b);
  *b = r;
  return done ? 0 : -1;
}

/* Modifiers after the designators. -1: bad; *print set by :p. */
static int modifiers(const char **pp, buf *b, int *print, mem *m) {
  const char *p = *pp;
  while (*p == ':') {
    char c = p[1];
    int global = 0;
    if (c == 'g' || c == 'a') {
      global = 1;
      p++;
      c = p[1];
    }
    p += 2;
    if (c == 'p') {
      *print = 1;
    } else if (c == 'h' || c == 't' || c == 'r' || c == 'e') {
      char *d = b->data;
      size_t n = b->len;
      const char *sl = d ? memrchr(d, '/', n) : NULL;
      const char *dot = d ? memrchr(d, '.', n) : NULL;
      if (dot && sl && dot < sl)
        dot = NULL;
      if (c == 'h' && sl) {
        b->len = (size_t)(sl - d);
      } else if (c == 't' && sl) {
        size_t k = n - (size_t)(sl + 1 - d);
        memmove(d, sl + 1, k);
        b->len = k;
      } else if (c == 'r' && dot) {
        b->len = (size_t)(dot - d);
      } else if (c == 'e' && dot) {
        size_t k = n - (size_t)(dot - d);
        memmove(d, dot, k);
        b->len = k;
      }
    } else if (c == 's' || c == '&') {
      if (c == '&')
        return -1; /* no remembered substitution across calls */
      char delim = *p++;
      if (!delim)
        return -1;
      const char *o = p;
      while (*p && *p != delim)
        p++;
      size_t ol = (size_t)(p - o);
      if (*p)
        p++;
      const char *r = p;
      while (*p && *p != delim)
        p++;
      size_t rl = (size_t)(p - r);
      if (*p)
        p++;
      if (subst(b, o, ol, r, rl, global, m))
        return -1;
    } else {
      return -1;
    }
  }
  *pp = p;
  return 0;
}

int sh_hist_expand(sh_exec *ex, const char *line, size_t len, buf *out,
                   int *print_only, int quiet) {
  int changed = 0;
  *print_only = 0;
  const char *end = line + len;
  /* ^old^new^ at the start: :s/old/new/ of the previous command */
  if (len && line[0] == '^') {
    sh_hist *h = ex->hist;
    const char *o = line + 1, *p = o;
    while (p < end && *p != '^' && *p != '\n')
      p++;
    size_t ol = (size_t)(p - o);
    const char *r = p < end && *p == '^' ? p + 1 : p;
    const char *q = r;
    while (q < end && *q != '^' && *q != '\n')
      q++;
    size_t rl = (size_t)(q - r);
    if (q < end && *q == '^')
      q++;
    buf b;
    buf_init(&b, ex->m);
    if (h && h->n)
      buf_puts(&b, h->v[h->n - 1]);
    if (!h || !h->n || subst(&b, o, ol, r, rl, 0, ex->m)) {
      buf_free(&b);
      err(ex, o, ol, quiet ? NULL : "substitution failed");
      return -1;
    }
    buf_append(out, b.data ? b.data : "", b.len);
    buf_free(&b);
    buf_append(out, q, (size_t)(end - q));
    return out->oom ? -1 : 1;
  }
  char quote = 0;
  for (const char *p = line; p < end;) {
    char c = *p;
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
      buf_putc(out, c);
      p++;
      continue;
    }
    if (c == '\\' && p + 1 < end) {
      buf_append(out, p, 2);
      p += 2;
      continue;
    }
    if (c == '\'' && !quote) {
      quote = '\'';
    } else if (c == '"') {
      quote = quote ? 0 : '"';
    }
    if (c != '!' || p + 1 >= end) {
      buf_putc(out, c);
      p++;
      continue;
    }
    char nx = p[1];
    size_t at = (size_t)(p - line);
    int inhibit =
        nx == ' ' || nx == '\t' || nx == '\n' || nx == '\r' || nx == '=' ||
        nx == '(' || (quote == '"' && nx == '"') ||
        (at > 0 && line[at - 1] == '$') ||
        (at > 1 && line[at - 1] == '{' && line[at - 2] == '$') ||
        (at > 0 && line[at - 1] == '[' && memchr(p, ']', (size_t)(end - p)));
    if (inhibit) {
      buf_putc(out, c);
      p++;
      continue;
    }
    const char *s = p + 1;
    size_t used = 0;
    const char *ev;
    char *so_far = NULL;
    if (*s == '#') {
      so_far = mem_strndup(ex->m, out->data ? out->data : "", out->len);
      if (!so_far)
        return sh_oom(ex), -1;
    }
    int designators_only = *s == '$' || *s == '^' || *s == '*' || *s == '-'
                               ? (s[0] != '-' || !(s[1] >= '0' && s[1] <= '9'))
                               : 0;
    if (designators_only || *s == ':') {
      /* !$ !^ !* !:N: words of the previous command */
      sh_hist *h = ex->hist;
      ev = h && h->n ? h->v[h->n - 1] : NULL;
      used = 0;
      if (!ev) {
        err(ex, p, 2, quiet ? NULL : "event not found");
        return -1;
      }
    } else {
      ev = event(ex, s, so_far, &used);
      if (!ev) {
        size_t el = used ? used + 1 : 2;
        err(ex, p, el, quiet ? NULL : "event not found");
        mem_free(ex->m, so_far);
        return -1;
      }
    }
    const char *q = s + used;
    buf word;
    buf_init(&word, ex->m);
    int bad = 0;
    if (designators_only) {
      bad = designate(&q, ev, &word);
    } else if (*q == ':' && (q[1] == '$' || q[1] == '^' || q[1] == '*' ||
                             q[1] == '-' || (q[1] >= '0' && q[1] <= '9'))) {
      q++;
      bad = designate(&q, ev, &word);
    } else {
      buf_puts(&word, ev);
    }
    mem_free(ex->m, so_far);
    if (!bad)
      bad = modifiers(&q, &word, print_only, ex->m);
    if (bad) {
      err(ex, p, (size_t)(q - p), quiet ? NULL : "bad word specifier");
      buf_free(&word);
      return -1;
    }
    buf_append(out, word.data ? word.data : "", word.len);
    buf_free(&word);
    p = q;
    changed = 1;
    /* each line can hold the last one twice (`!! !!`): a few dozen lines
     * would reach any memory, so the line is held to the string limit */
    budget *bud = &ex->run->bud;
    if (out->len > bud->lim.max_string_bytes)
      budget_set_stop(bud, BUDGET_STRING, bud->lim.max_string_bytes);
    if (budget_poll(bud))
      return -1;
  }
  if (out->oom)
    return sh_oom(ex), -1;
  return changed;
}
