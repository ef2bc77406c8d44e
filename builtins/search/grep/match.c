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
 * PCRE2 is leftmost-first; POSIX wants leftmost-longest. Which lines match
 * does not depend on it (with -x and -w the anchors make PCRE2 backtrack
 * into other alternatives), only which text -o and --color show. For those,
 * once the leftmost start is known, pcre2_dfa_match anchored there returns
 * the longest match (DFA matching has no back-references: patterns with
 * them keep PCRE2's choice).
 *
 * Memory comes from the sandbox allocator through a PCRE2 general context;
 * only JIT code pages are PCRE2's own (executable memory cannot come from a
 * plain allocator).
 */
#include <string.h>

#include "builtins/search/grep/grep.h"

#define GR_DFA_WS 4096

static void *gr_pmalloc(size_t n, void *ud) {
  return mem_alloc((mem *)ud, n);
}
static void gr_pfree(void *p, void *ud) {
  if (p)
    mem_free((mem *)ud, p);
}

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
  mt->c = c;
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
  mt->gc = pcre2_general_context_create(gr_pmalloc, gr_pfree, c->m);
  mt->cc = mt->gc ? pcre2_compile_context_create(mt->gc) : NULL;
  mt->mc = mt->gc ? pcre2_match_context_create(mt->gc) : NULL;
  if (!mt->cc || !mt->mc) {
    buf_free(&pt);
    gr_matcher_free(mt);
    return bi_error(c, "memory exhausted");
  }
  pcre2_set_newline(mt->cc,
                    cfg->eol == '\n' ? PCRE2_NEWLINE_LF : PCRE2_NEWLINE_NUL);
  int ec;
  PCRE2_SIZE eo;
  mt->re = pcre2_compile((PCRE2_SPTR)(pt.data ? pt.data : ""), pt.len, opts,
                         &ec, &eo, mt->cc);
  if (mt->re && utf)
    mt->re_dfa =
        pcre2_compile((PCRE2_SPTR)(pt.data ? pt.data : ""), pt.len,
                      opts & ~PCRE2_MATCH_INVALID_UTF, &ec, &eo, mt->cc);
  mt->utf = utf;
  buf_free(&pt);
  if (!mt->re) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(ec, msg, sizeof msg);
    gr_matcher_free(mt);
    return bi_error(c, "%s", (const char *)msg);
  }
  if (pcre2_jit_compile(mt->re, PCRE2_JIT_COMPLETE) == 0) {
    mt->jit = 1;
    mt->js = pcre2_jit_stack_create(32 * 1024, 4 * 1024 * 1024, mt->gc);
    if (mt->js)
      pcre2_jit_stack_assign(mt->mc, NULL, mt->js);
  }
  mt->md = pcre2_match_data_create_from_pattern(mt->re, mt->gc);
  if (!mt->md) {
    gr_matcher_free(mt);
    return bi_error(c, "memory exhausted");
  }
  uint32_t brmax = 0;
  pcre2_pattern_info(mt->re, PCRE2_INFO_BACKREFMAX, &brmax);
  mt->dfa_ok = !backref && brmax == 0;
  if (mt->dfa_ok)
    mt->ws = mem_alloc(c->m, GR_DFA_WS * sizeof(int));
  return 0;
}

void gr_matcher_free(gr_matcher *mt) {
  if (mt->ws)
    mem_free(mt->m, mt->ws);
  mt->ws = NULL;
  if (mt->md)
    pcre2_match_data_free(mt->md);
  if (mt->re)
    pcre2_code_free(mt->re);
  if (mt->re_dfa)
    pcre2_code_free(mt->re_dfa);
  mt->re_dfa = NULL;
  if (mt->js)
    pcre2_jit_stack_free(mt->js);
  if (mt->mc)
    pcre2_match_context_free(mt->mc);
  if (mt->cc)
    pcre2_compile_context_free(mt->cc);
  if (mt->gc)
    pcre2_general_context_free(mt->gc);
  mt->md = NULL;
  mt->re = NULL;
  mt->js = NULL;
  mt->mc = NULL;
  mt->cc = NULL;
  mt->gc = NULL;
}

/* Leftmost match in s[0..n) starting at or after pos: 1, 0 none, -1 error
 * (backtracking or JIT stack limit). */
static int raw_match(gr_matcher *mt, const char *s, size_t n, size_t pos,
                     size_t *ms, size_t *me) {
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
  PCRE2_SPTR subj = (PCRE2_SPTR)(s ? s : "");
  int rc = mt->jit ? pcre2_jit_match(mt->re, subj, n, pos, 0, mt->md, mt->mc)
                   : pcre2_match(mt->re, subj, n, pos, 0, mt->md, mt->mc);
  if (rc == PCRE2_ERROR_NOMATCH)
    return 0;
  if (rc < 0)
    return -1;
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(mt->md);
  *ms = ov[0];
  *me = ov[1] < ov[0] ? ov[0] : ov[1]; /* \K can put the end first */
  return 1;
}

static size_t line_end(const gr_matcher *mt, const char *s, size_t n,
                       size_t at) {
  const char *e = at < n ? memchr(s + at, mt->eol, n - at) : NULL;
  return e ? (size_t)(e - s) : n;
}

/* One line as its own subject: 1 match, 0 none (a matcher error counts as
 * no match, with GNU's warning once). */
static int match_line(gr_matcher *mt, const char *line, size_t n) {
  size_t ms, me;
  int r = raw_match(mt, line, n, 0, &ms, &me);
  if (r < 0) {
    if (!mt->warned)
      bi_error(mt->c, "warning: exceeded PCRE's backtracking limit");
    mt->warned = 1;
    return 0;
  }
  return r;
}

int gr_find_line(gr_matcher *mt, const char *s, size_t n, size_t pos,
                 size_t *ls, size_t *le) {
  while (pos < n) {
    if (mt->per_line) {
      size_t e = line_end(mt, s, n, pos);
      if (match_line(mt, s + pos, e - pos)) {
        *ls = pos;
        *le = e;
        return 1;
      }
      pos = e + 1;
      continue;
    }
    size_t ms, me;
    int r = raw_match(mt, s, n, pos, &ms, &me);
    if (r == 0)
      return 0;
    if (r < 0) {
      /* Too costly over the whole buffer: decide this line alone, then
       * try the rest again. */
      size_t e = line_end(mt, s, n, pos);
      if (match_line(mt, s + pos, e - pos)) {
        *ls = pos;
        *le = e;
        return 1;
      }
      pos = e + 1;
      continue;
    }
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
      if (match_line(mt, s + b, e - b)) {
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
  int r = raw_match(mt, line, n, from, ms, me);
  if (r <= 0 || mt->lit || !mt->dfa_ok || !mt->ws)
    return r > 0;
  size_t s0 = *ms;
  pcre2_code *re = mt->re;
  uint32_t o = PCRE2_ANCHORED;
  if (mt->utf) {
    if (!mt->re_dfa || !gr_utf8_valid(line, n))
      return 1;
    re = mt->re_dfa;
    o |= PCRE2_NO_UTF_CHECK;
  }
  int d = pcre2_dfa_match(re, (PCRE2_SPTR)line, n, s0, o, mt->md, mt->mc,
                          mt->ws, GR_DFA_WS);
  if (d >= 0) {
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(mt->md);
    if (ov[0] == s0 && ov[1] > *me)
      *me = ov[1];
  }
  return 1;
}
