/*
 * match.c - the compiled form of grep's patterns and the searches over it.
 *
 * All patterns become one PCRE2 regex: `(?:P1)|(?:P2)...` (back-references
 * renumbered), wrapped as `^(?:...)$` for -x and `(?<!\w)(?:...)(?!\w)` for
 * -w, compiled in multiline mode with the record delimiter as PCRE2's
 * newline, so ^ $ and . behave per line while a whole buffer is searched in
 * one call (JIT when available). A single pattern without special
 * characters (and -F) is searched with memmem instead.
 *
 * The matching itself is core/regex.h's: BRE and ERE follow POSIX's
 * leftmost-longest rule and never depend on PCRE2's backtracking limits
 * (the JIT finds lines fast; when it gives up, PCRE2's DFA matcher decides;
 * -o and --color get the longest match). Which lines match does not depend
 * on the rule, only which text -o and --color show, so selecting lines asks
 * for no extent. -P keeps PCRE2's leftmost-first rule. A limit that is hit
 * all the same (back-references, -P) is an error, as in GNU grep: the
 * search stops with "grep: FILE: exceeded PCRE's backtracking limit" and
 * status 2, never a silent "no match".
 *
 * Memory comes from the sandbox allocator through a PCRE2 general context;
 * only JIT code pages are PCRE2's own (executable memory cannot come from a
 * plain allocator).
 */
#include <string.h>

#include "builtins/search/grep/grep.h"

static int has_alpha(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= 0x80 || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))
      return 1;
  }
  return 0;
}

/* -P patterns that refer to the subject's ends (\A \z \Z \G) only work when
 * every line is its own subject. */
static int needs_per_line(const char *p, size_t n) {
  for (size_t i = 0; i + 1 < n; i++)
    if (p[i] == '\\') {
      char d = p[i + 1];
      if (d == 'A' || d == 'z' || d == 'Z' || d == 'G')
        return 1;
      i++;
    }
  return 0;
}

int gr_compile(bi_ctx *c, gr_matcher *mt, const gr_pat *pats, size_t npats,
               const gr_cfg *cfg) {
  memset(mt, 0, sizeof *mt);
  mt->m = c->m;
  mt->eol = cfg->eol;
  if (npats == 0) {
    mt->never = 1;
    return 0;
  }
  if (cfg->kind == GR_PCRE && npats > 1)
    return bi_error(c, "the -P option only supports a single pattern");
  if (npats == 1 && !cfg->word && !cfg->line && pats[0].n > 0 &&
      !memchr(pats[0].s, cfg->eol, pats[0].n) &&
      (cfg->kind == GR_FIXED ||
       (cfg->kind != GR_PCRE &&
        gr_is_literal(pats[0].s, pats[0].n, cfg->kind == GR_ERE))) &&
      (!cfg->icase || !has_alpha(pats[0].s, pats[0].n))) {
    mt->lit = pats[0].s;
    mt->litlen = pats[0].n;
    return 0;
  }
  int utf = cfg->utf8;
  for (size_t i = 0; utf && i < npats; i++)
    if (!gr_utf8_valid(pats[i].s, pats[i].n))
      utf = 0; /* a pattern with raw bytes: match bytes */
  buf pt;
  buf_init(&pt, c->m);
  buf_puts(&pt, cfg->line ? "^(?:" : cfg->word ? "(?<!\\w)(?:" : "(?:");
  int base = 0, backref = 0;
  for (size_t i = 0; i < npats; i++) {
    if (i)
      buf_putc(&pt, '|');
    if (npats > 1)
      buf_puts(&pt, "(?:");
    if (cfg->kind == GR_PCRE) {
      buf_append(&pt, pats[i].s, pats[i].n);
      mt->per_line = needs_per_line(pats[i].s, pats[i].n);
    } else if (cfg->kind == GR_FIXED) {
      gr_quote(&pt, pats[i].s, pats[i].n, utf);
    } else {
      int ng = 0, br = 0;
      if (gr_translate(c, &pt, pats[i].s, pats[i].n, cfg->kind == GR_ERE,
                       cfg->eol, utf, cfg->icase, base, &ng, &br) < 0) {
        buf_free(&pt);
        return -1;
      }
      base += ng;
      backref |= br;
    }
    if (npats > 1)
      buf_putc(&pt, ')');
  }
  buf_puts(&pt, cfg->line ? ")$" : cfg->word ? ")(?!\\w)" : ")");

  uint32_t opts = PCRE2_MULTILINE;
  if (cfg->icase)
    opts |= PCRE2_CASELESS;
  if (utf) {
    opts |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
    if (cfg->kind != GR_PCRE)
      opts |= PCRE2_UCP; /* glibc's classes know non-ASCII letters */
  }
  if (rx_env_init(&mt->env, c->m, 4 * 1024 * 1024) < 0) {
    buf_free(&pt);
    return bi_error(c, "memory exhausted");
  }
  mt->env.bud = c->bud; /* long automaton searches poll it */
  pcre2_set_newline(mt->env.cc,
                    cfg->eol == '\n' ? PCRE2_NEWLINE_LF : PCRE2_NEWLINE_NUL);
  int ec;
  size_t eo;
  unsigned fl = cfg->kind == GR_PCRE ? 0 : RX_POSIX;
  int rc = rx_compile(&mt->env, &mt->rx, pt.data ? pt.data : "", pt.len, opts,
                      fl, NULL, &ec, &eo);
  buf_free(&pt);
  if (rc < 0) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(ec, msg, sizeof msg);
    rx_env_free(&mt->env);
    if (ec == PCRE2_ERROR_NOMEMORY)
      return bi_error(c, "memory exhausted");
    return bi_error(c, "%s", (const char *)msg);
  }
  mt->compiled = 1;
  (void)backref; /* the compiled pattern knows (rx takes no DFA path then) */
  return 0;
}

void gr_matcher_free(gr_matcher *mt) {
  if (mt->compiled) {
    rx_free(&mt->rx);
    rx_env_free(&mt->env);
  }
  mt->compiled = 0;
}

/* Leftmost match in s[0..n) starting at or after pos (want: RX_ANY or
 * RX_EXTENT): 1, 0 none, <0 error (recorded in mt->err). */
static int raw_match(gr_matcher *mt, const char *s, size_t n, size_t pos,
                     int want, size_t *ms, size_t *me) {
  if (mt->err)
    return mt->err;
  if (mt->never)
    return 0;
  if (mt->lit) {
    if (pos > n || n - pos < mt->litlen)
      return 0;
    const char *hit = memmem(s + pos, n - pos, mt->lit, mt->litlen);
    if (!hit)
      return 0;
    *ms = (size_t)(hit - s);
    *me = *ms + mt->litlen;
    return 1;
  }
  int r = rx_search(&mt->rx, s, n, pos, 0, want, ms, me);
  if (r < 0 && !mt->err)
    mt->err = r;
  return r;
}

static size_t line_end(const gr_matcher *mt, const char *s, size_t n,
                       size_t at) {
  const char *e = at < n ? memchr(s + at, mt->eol, n - at) : NULL;
  return e ? (size_t)(e - s) : n;
}

/* One line as its own subject: 1 match, 0 none, <0 error. */
static int match_line(gr_matcher *mt, const char *line, size_t n) {
  size_t ms, me;
  return raw_match(mt, line, n, 0, RX_ANY, &ms, &me);
}

int gr_find_line(gr_matcher *mt, const char *s, size_t n, size_t pos,
                 size_t *ls, size_t *le) {
  while (pos < n) {
    if (mt->per_line) {
      size_t e = line_end(mt, s, n, pos);
      int r = match_line(mt, s + pos, e - pos);
      if (r < 0)
        return 0;
      if (r) {
        *ls = pos;
        *le = e;
        return 1;
      }
      pos = e + 1;
      continue;
    }
    size_t ms, me;
    int r = raw_match(mt, s, n, pos, RX_ANY, &ms, &me);
    if (r <= 0)
      return 0;
    if (ms >= n && n > 0 && s[n - 1] == mt->eol)
      return 0; /* an empty match after the last delimiter: no line there */
    size_t b = pos;
    if (ms > pos) {
      const char *d = memrchr(s + pos, mt->eol, ms - pos);
      if (d)
        b = (size_t)(d - s) + 1;
    }
    size_t e = line_end(mt, s, n, ms);
    if (me > e) {
      /* The match runs over the delimiter: does the line match alone? */
      int r2 = match_line(mt, s + b, e - b);
      if (r2 < 0)
        return 0;
      if (r2) {
        *ls = b;
        *le = e;
        return 1;
      }
      pos = e + 1;
      continue;
    }
    *ls = b;
    *le = e;
    return 1;
  }
  return 0;
}

int gr_match_in_line(gr_matcher *mt, const char *line, size_t n, size_t from,
                     size_t *ms, size_t *me) {
  return raw_match(mt, line, n, from, RX_EXTENT, ms, me) > 0;
}

void gr_match_error(gr_matcher *mt, bi_ctx *c, const char *name) {
  char msg[128];
  if (mt->err == RX_STOPPED)
    return; /* the budget stopped it: the shell reports why */
  bi_error(c, "%s: %s", name, rx_strerror(mt->err, msg, sizeof msg));
}
