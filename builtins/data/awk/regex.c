/* regex.c - awk's regular expressions: gawk's escapes turned into POSIX
 * ERE text, grep's translation to PCRE2 (leftmost-longest), a cache of the
 * compiled ones, and the searches. */
#include <string.h>

#include "builtins/data/awk/awk.h"
#include "builtins/search/grep/grep.h"

/* ---- regexes ------------------------------------------------------------ */

/* A bracket expression at p[*ip] ('['), up to its ']' (*ip is left
 * there). gawk lets a backslash escape any character inside one; POSIX has
 * no escapes there, so an escaped ] goes first, - last and ^ anywhere but
 * first, where POSIX reads them as themselves. */
static void bracket(buf *o, const char *p, size_t n, size_t *ip) {
  size_t i = *ip + 1;
  int neg = 0, rbr = 0, dash = 0, caret = 0;
  buf mid;
  buf_init(&mid, o->m);
  if (i < n && p[i] == '^')
    neg = 1, i++;
  if (i < n && p[i] == ']')
    rbr = 1, i++;
  while (i < n && p[i] != ']') {
    if (p[i] == '[' && i + 1 < n &&
        (p[i + 1] == ':' || p[i + 1] == '.' || p[i + 1] == '=')) {
      char c = p[i + 1]; /* [:alpha:] and the like, whole */
      size_t j = i + 2;
      while (j + 1 < n && !(p[j] == c && p[j + 1] == ']'))
        j++;
      if (j + 1 < n) {
        buf_append(&mid, p + i, j + 2 - i);
        i = j + 2;
        continue;
      }
    }
    if (p[i] == '\\' && i + 1 < n) {
      size_t j = i + 1;
      int lit = awk_escape(p, n, &j);
      char d = lit >= 0 ? (char)lit : p[i + 1];
      i = lit >= 0 ? j : i + 2;
      if (d == ']')
        rbr = 1;
      else if (d == '-')
        dash = 1;
      else if (d == '^')
        caret = 1;
      else
        buf_putc(&mid, d);
      continue;
    }
    buf_putc(&mid, p[i++]);
  }
  if (i >= n) { /* no closing ]: as typed, for the regex compiler to judge */
    buf_append(o, p + *ip, n - *ip);
    *ip = n - 1;
    buf_free(&mid);
    return;
  }
  if (caret && !neg && !rbr && !mid.len && !dash) {
    buf_puts(o, "\\^"); /* [\^] alone */
  } else {
    buf_putc(o, '[');
    if (neg)
      buf_putc(o, '^');
    if (rbr)
      buf_putc(o, ']');
    buf_append(o, mid.data ? mid.data : "", mid.len);
    if (caret)
      buf_putc(o, '^');
    if (dash)
      buf_putc(o, '-');
    buf_putc(o, ']');
  }
  if (mid.oom)
    o->oom = 1;
  buf_free(&mid);
  *ip = i;
}

/* awk's escapes (\n \t \/ \ddd ...) become the characters they name before
 * the ERE goes through grep's translation, which knows only POSIX's. */
static void awk_escapes(buf *o, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (ch == '[') {
      bracket(o, p, n, &i);
      continue;
    }
    if (ch != '\\' || i + 1 >= n) {
      buf_putc(o, ch);
      continue;
    }
    size_t j = i + 1;
    char d = p[j];
    int lit = awk_escape(p, n, &j);
    i = lit >= 0 ? j - 1 : i + 1;
    if (lit < 0) {
      buf_putc(o, '\\');
      buf_putc(o, d == 'y' ? 'b' : d); /* gawk's \y: a word boundary */
      continue;
    }
    if (strchr("\\^$.[]|()*+?{}", lit) && lit)
      buf_putc(o, '\\');
    buf_putc(o, lit);
  }
}

are *re_compile(awk *A, const char *p, size_t n) {
  return re_compile_caps(A, p, n, 0);
}

/* Compiled once per (text, IGNORECASE, captures) and kept for the run. */
are *re_compile_caps(awk *A, const char *p, size_t n, int caps) {
  int icase = A->icase;
  for (size_t i = 0; i < A->nrecache; i++) {
    are *r = A->recache[i];
    if (r->src->len == n && r->icase == icase && r->caps == caps &&
        memcmp(r->src->p, p, n) == 0)
      return r;
  }
  buf esc, pt;
  buf_init(&esc, A->m);
  buf_init(&pt, A->m);
  awk_escapes(&esc, p, n);
  int utf = A->utf8 && gr_utf8_valid(esc.data ? esc.data : "", esc.len);
  int ng = 0, br = 0;
  if (gr_translate(A->c, &pt, esc.data ? esc.data : "", esc.len, 1, 0, utf,
                   icase, 0, &ng, &br) < 0) {
    buf_free(&esc);
    buf_free(&pt);
    A->status = A->globals ? 2 : 1;
    A->stop = 1;
    return NULL;
  }
  are *r = mem_calloc(A->m, 1, sizeof *r);
  if (!r) {
    buf_free(&pt);
    buf_free(&esc);
    awk_fatal(A, "out of memory");
    return NULL;
  }
  int ec;
  size_t eo;
  uint32_t opts = PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY;
  if (icase)
    opts |= PCRE2_CASELESS;
  if (utf)
    opts |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_UCP;
  if (rx_compile(&A->rxe, &r->rx, pt.data ? pt.data : "", pt.len, opts,
                 RX_POSIX | (caps ? RX_CAPS : 0), NULL, &ec, &eo) < 0) {
    buf_free(&pt);
    buf_free(&esc);
    mem_free(A->m, r);
    if (ec == PCRE2_ERROR_NOMEMORY) {
      awk_fatal(A, "out of memory");
      return NULL;
    }
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(ec, msg, sizeof msg);
    if (!A->stop) {
      buf b;
      buf_init(&b, A->m);
      awk_where(A, &b, A->globals ? A->curline : A->line);
      buf_printf(&b, "%s: %s: /", A->globals ? "fatal" : "error",
                 (const char *)msg);
      buf_append(&b, p, n);
      buf_puts(&b, "/\n");
      wr_flush(&A->out);
      stream_write(A->c->err, b.data ? b.data : "", b.len);
      buf_free(&b);
    }
    A->status = A->globals ? 2 : 1;
    A->stop = 1;
    return NULL;
  }
  buf_free(&pt);
  r->lit = !icase && gr_is_literal(esc.data ? esc.data : "", esc.len, 1);
  r->icase = icase;
  r->caps = caps;
  buf_free(&esc);
  r->src = as_new(A, p, n);
  if (!r->src) {
    re_free(A, r);
    awk_fatal(A, "out of memory");
    return NULL;
  }
  if (A->nrecache % 16 == 0) {
    are **nc = mem_realloc(A->m, A->recache, (A->nrecache + 16) * sizeof *nc);
    if (!nc) {
      re_free(A, r);
      awk_fatal(A, "out of memory");
      return NULL;
    }
    A->recache = nc;
  }
  A->recache[A->nrecache++] = r;
  return r;
}

void re_free(awk *A, are *r) {
  rx_free(&r->rx);
  if (r->src)
    as_unref(A, r->src);
  mem_free(A->m, r);
}

are *re_node(awk *A, node *x) {
  if (x->op == N_ERE) {
    if (x->re->icase == A->icase)
      return x->re;
    return re_compile(A, x->re->src->p, x->re->src->len);
  }
  aval pv = awk_eval(A, x);
  are *re = re_dynamic(A, &pv);
  av_free(A, &pv);
  return re;
}

are *re_dynamic(awk *A, aval *v) {
  astr *s = av_tostr(A, v, 0);
  return re_compile(A, s->p, s->len);
}

/* A matcher limit: only back-references still backtrack without bound,
 * and awk stops rather than take it for "no match". */
int re_failed(awk *A, int rc) {
  char msg[128];
  if (rc == RX_STOPPED) { /* the budget stopped it: the shell says why */
    A->stop = 1;
    return 0;
  }
  awk_fatal(A, "regular expression match failed: %s",
            rx_strerror(rc, msg, sizeof msg));
  return 0;
}

int re_match(awk *A, are *r, const char *s, size_t n, size_t from, size_t *ms,
             size_t *me, int notbol) {
  int rc = rx_search(&r->rx, s, n, from, notbol ? PCRE2_NOTBOL : 0, RX_EXTENT,
                     ms, me);
  return rc < 0 ? re_failed(A, rc) : rc;
}

int re_test(awk *A, are *r, const char *s, size_t n) {
  size_t ms, me;
  int rc = rx_search(&r->rx, s, n, 0, 0, RX_ANY, &ms, &me);
  return rc < 0 ? re_failed(A, rc) : rc;
}
