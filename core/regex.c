/*
 * regex.c - PCRE2 matching with POSIX's leftmost-longest rule and loud
 * limits (see regex.h for the strategy).
 *
 * pcre2_dfa_match cannot use a pattern compiled with PCRE2_MATCH_INVALID_UTF,
 * so such patterns get a second compiled form for the automaton, and the
 * subject is cut into windows of valid UTF-8 (an invalid byte never takes
 * part in a match). A window is run with PCRE2_NOTBOL / PCRE2_NOTEOL when it
 * does not reach the subject's ends and starts a few characters early, so
 * ^, $, \b and lookbehinds see what they would see in the whole subject:
 * the byte beyond a window's edge is invalid, which no assertion treats as a
 * newline or a word character.
 */
#include "core/regex.h"

#include <stdio.h>
#include <string.h>

/* Steps the backtracker gets when the automaton can take over: enough for
 * ordinary patterns, small enough that ^(a|aa)+c wastes about a millisecond
 * per subject before the automaton decides. */
#define RX_FAST_LIMIT 100000u
#define RX_WS_START 4096u
#define RX_MEMO_MAX (1u << 20) /* pairs remembered by the capture pass */
#define RX_NODFA 1000          /* internal: the automaton refused the pattern */

static void *rx_pmalloc(size_t n, void *ud) {
  return mem_alloc((mem *)ud, n);
}
static void rx_pfree(void *p, void *ud) {
  if (p)
    mem_free((mem *)ud, p);
}

static uint32_t config_u32(uint32_t what) {
  uint32_t v = 0;
  pcre2_config(what, &v);
  return v;
}

int rx_env_init(rx_env *e, mem *m, size_t jit_stack_max) {
  memset(e, 0, sizeof *e);
  e->m = m;
  e->gc = pcre2_general_context_create(rx_pmalloc, rx_pfree, m);
  e->cc = e->gc ? pcre2_compile_context_create(e->gc) : NULL;
  e->mc = e->gc ? pcre2_match_context_create(e->gc) : NULL;
  e->dmd = e->gc ? pcre2_match_data_create(1, e->gc) : NULL;
  if (!e->cc || !e->mc || !e->dmd) {
    rx_env_free(e);
    return -1;
  }
  e->def_match = config_u32(PCRE2_CONFIG_MATCHLIMIT);
  e->def_depth = config_u32(PCRE2_CONFIG_DEPTHLIMIT);
  e->def_heap = config_u32(PCRE2_CONFIG_HEAPLIMIT);
  if (jit_stack_max) {
    e->js = pcre2_jit_stack_create(32 * 1024, jit_stack_max, e->gc);
    if (e->js)
      pcre2_jit_stack_assign(e->mc, NULL, e->js);
  }
  return 0;
}

void rx_env_free(rx_env *e) {
  if (e->ws)
    mem_free(e->m, e->ws);
  if (e->dmd)
    pcre2_match_data_free(e->dmd);
  if (e->js)
    pcre2_jit_stack_free(e->js);
  if (e->mc)
    pcre2_match_context_free(e->mc);
  if (e->cc)
    pcre2_compile_context_free(e->cc);
  if (e->gc)
    pcre2_general_context_free(e->gc);
  memset(e, 0, sizeof *e);
}

/* The match context with the environment's limits; match_steps caps the
 * backtracking steps further when nonzero. */
static pcre2_match_context *limits(rx_env *e, uint32_t match_steps) {
  uint32_t ml = e->match_limit ? e->match_limit : e->def_match;
  if (match_steps && match_steps < ml)
    ml = match_steps;
  pcre2_set_match_limit(e->mc, ml);
  pcre2_set_depth_limit(e->mc, e->depth_limit ? e->depth_limit : e->def_depth);
  pcre2_set_heap_limit(e->mc,
                       e->heap_limit_kib ? e->heap_limit_kib : e->def_heap);
  return e->mc;
}

/* ---- pattern text scan -------------------------------------------------- */

/* Find the lookaround assertions of a pattern (their offsets, for the memo
 * of the capture pass, which must not cut inside one: an assertion that
 * succeeded once is not retried) and whether the pattern uses anything that
 * makes "this position failed before" unsound (atomic groups, possessive
 * repeats, verbs, option settings, recursion, conditions): then the pass
 * runs without memo. Returns 1 when the memo is safe. */
static int scan_pattern(rx *r, const char *p, size_t n) {
  size_t open[64];
  int kind[64];
  int depth = 0, safe = 1;
  size_t cap = 0;
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (ch == '\\') {
      if (i + 1 < n && p[i + 1] == 'Q')
        return 0; /* literal runs: keep it simple */
      i++;
      continue;
    }
    if (ch == '[') { /* a class: skip to its ']' */
      size_t j = i + 1;
      if (j < n && p[j] == '^')
        j++;
      if (j < n && p[j] == ']')
        j++;
      for (; j < n && p[j] != ']'; j++) {
        if (p[j] == '\\')
          j++;
        else if (p[j] == '[' && j + 1 < n && p[j + 1] == ':') {
          const char *e = memchr(p + j + 2, ']', n - j - 2);
          if (e)
            j = (size_t)(e - p);
        }
      }
      i = j;
      continue;
    }
    if ((ch == '+' || ch == '?') && i > 0 &&
        (p[i - 1] == '*' || p[i - 1] == '+' || p[i - 1] == '?' ||
         p[i - 1] == '}') &&
        (i < 2 || p[i - 2] != '\\') && !(ch == '?' && p[i - 1] == '('))
      safe = 0; /* possessive (or lazy: harmless, but rare) */
    if (ch == '(') {
      int k = 0;
      if (i + 1 < n && p[i + 1] == '*')
        safe = 0;
      if (i + 1 < n && p[i + 1] == '?') {
        char d = i + 2 < n ? p[i + 2] : 0;
        char d2 = i + 3 < n ? p[i + 3] : 0;
        if (d == '=' || d == '!' || (d == '<' && (d2 == '=' || d2 == '!')))
          k = 1;
        else if (d != ':' && d != 'C')
          safe = 0;
      }
      if (depth == 64)
        return 0;
      open[depth] = i;
      kind[depth++] = k;
    } else if (ch == ')' && depth > 0) {
      depth--;
      if (kind[depth]) {
        if (r->nspans == cap) {
          size_t nc = cap ? cap * 2 : 8;
          size_t *ns =
              mem_realloc(r->env->m, r->assert_spans, nc * 2 * sizeof *ns);
          if (!ns)
            return 0;
          r->assert_spans = ns;
          cap = nc;
        }
        r->assert_spans[2 * r->nspans] = open[depth];
        r->assert_spans[2 * r->nspans + 1] = i;
        r->nspans++;
      }
    }
  }
  return safe;
}

static int in_assertion(const rx *r, size_t pos) {
  for (size_t i = 0; i < r->nspans; i++)
    if (pos > r->assert_spans[2 * i] && pos <= r->assert_spans[2 * i + 1])
      return 1;
  return 0;
}

/* ---- compile ------------------------------------------------------------ */

int rx_compile(rx_env *e, rx *r, const char *pat, size_t n, uint32_t opts,
               unsigned flags, pcre2_compile_context *cc, int *ec, size_t *eo) {
  memset(r, 0, sizeof *r);
  r->env = e;
  if (!cc)
    cc = e->cc;
  PCRE2_SIZE off = 0;
  const char *p = pat ? pat : "";
  r->re = pcre2_compile((PCRE2_SPTR)p, n, opts, ec, &off, cc);
  if (eo)
    *eo = off;
  if (!r->re)
    return -1;
  if (!(flags & RX_NOJIT) && pcre2_jit_compile(r->re, PCRE2_JIT_COMPLETE) == 0)
    r->jit = 1;
  r->md = pcre2_match_data_create_from_pattern(r->re, e->gc);
  if (!r->md)
    goto nomem;
  uint32_t brmax = 0;
  pcre2_pattern_info(r->re, PCRE2_INFO_BACKREFMAX, &brmax);
  pcre2_pattern_info(r->re, PCRE2_INFO_CAPTURECOUNT, &r->ncap);
  pcre2_pattern_info(r->re, PCRE2_INFO_MAXLOOKBEHIND, &r->maxlb);
  r->posix = (flags & RX_POSIX) != 0;
  r->invalid_utf = (opts & PCRE2_MATCH_INVALID_UTF) != 0;
  r->utf = (opts & PCRE2_UTF) != 0;
  if (!r->posix || brmax)
    return 0; /* backtracking only */
  if (r->invalid_utf) {
    int ec2;
    r->re_dfa = pcre2_compile((PCRE2_SPTR)p, n, opts & ~PCRE2_MATCH_INVALID_UTF,
                              &ec2, &off, cc);
    if (!r->re_dfa) {
      if (ec2 == PCRE2_ERROR_HEAP_FAILED) {
        *ec = ec2;
        goto nomem;
      }
      return 0;
    }
  } else {
    r->re_dfa = r->re;
  }
  r->dfa = 1;
  if ((flags & RX_CAPS) && r->ncap) {
    /* The capture pass: auto callouts feed the memo, (?C1) checks the end.
     * \E closes a \Q the pattern may leave open. */
    size_t tn = n + 16;
    char *t = mem_alloc(e->m, tn);
    if (!t)
      goto nomem;
    memcpy(t, "(?:", 3);
    memcpy(t + 3, p, n);
    memcpy(t + 3 + n, "\\E)(?C1)", 8);
    tn = n + 11;
    int memo = scan_pattern(r, t, tn);
    int ec2;
    r->re_end =
        pcre2_compile((PCRE2_SPTR)t, tn, opts | (memo ? PCRE2_AUTO_CALLOUT : 0),
                      &ec2, &off, cc);
    mem_free(e->m, t);
    if (!r->re_end && ec2 == PCRE2_ERROR_HEAP_FAILED) {
      *ec = ec2;
      goto nomem;
    }
  }
  return 0;
nomem:
  rx_free(r);
  *ec = PCRE2_ERROR_NOMEMORY;
  return -1;
}

void rx_free(rx *r) {
  if (r->md)
    pcre2_match_data_free(r->md);
  if (r->re_dfa && r->re_dfa != r->re)
    pcre2_code_free(r->re_dfa);
  if (r->re)
    pcre2_code_free(r->re);
  if (r->re_end)
    pcre2_code_free(r->re_end);
  if (r->assert_spans)
    mem_free(r->env->m, r->assert_spans);
  memset(r, 0, sizeof *r);
}

/* ---- the automaton ------------------------------------------------------ */

/* Length of the valid UTF-8 character at p (PCRE2's rules: no overlong
 * forms, no surrogates, at most U+10FFFF), 0 when invalid. */
static size_t u8len(const unsigned char *p, size_t n) {
  unsigned c = p[0];
  if (c < 0x80)
    return 1;
  size_t l;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    l = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    l = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    l = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (n < l)
    return 0;
  for (size_t i = 1; i < l; i++) {
    if ((p[i] & 0xC0) != 0x80)
      return 0;
    cp = cp << 6 | (p[i] & 0x3F);
  }
  if ((l == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
      (l == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
    return 0;
  return l;
}

/* One call of the automaton; the workspace grows while PCRE2 asks for
 * more. 1 with the longest match, 0 none, RX_NODFA, or an error. */
static int dfa_call(rx *r, const char *s, size_t n, size_t start, uint32_t opts,
                    size_t *ms, size_t *me) {
  rx_env *e = r->env;
  size_t wsmax = e->ws_max ? e->ws_max : RX_WS_MAX;
  for (;;) {
    if (!e->ws) {
      size_t want = RX_WS_START < wsmax ? RX_WS_START : wsmax;
      e->ws = mem_alloc(e->m, want * sizeof(int));
      if (!e->ws)
        return PCRE2_ERROR_NOMEMORY;
      e->wsn = want;
    }
    size_t wsn = e->wsn < wsmax ? e->wsn : wsmax;
    int d = pcre2_dfa_match(r->re_dfa, (PCRE2_SPTR)s, n, start, opts, e->dmd,
                            limits(e, 0), e->ws, wsn);
    if (d >= 0) {
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(e->dmd);
      *ms = ov[0];
      *me = ov[1];
      return 1;
    }
    if (d == PCRE2_ERROR_NOMATCH)
      return 0;
    if (d == PCRE2_ERROR_DFA_UITEM || d == PCRE2_ERROR_DFA_UCOND ||
        d == PCRE2_ERROR_DFA_UFUNC) {
      r->dfa = 0; /* an item the automaton does not know: never again */
      return RX_NODFA;
    }
    if (d != PCRE2_ERROR_DFA_WSSIZE || wsn >= wsmax)
      return d;
    size_t nn = e->wsn * 4 < wsmax ? e->wsn * 4 : wsmax;
    int *nw = mem_alloc(e->m, nn * sizeof(int));
    if (!nw)
      return PCRE2_ERROR_NOMEMORY;
    mem_free(e->m, e->ws);
    e->ws = nw;
    e->wsn = nn;
  }
}

/* An unanchored search, one anchored automaton run per start position:
 * pcre2_dfa_match's own unanchored loop cannot be interrupted and costs up
 * to the subject's length per position (a^20000 against (a|aa)+c|x takes
 * seconds), so the budget is polled between positions. */
static int dfa_scan(rx *r, const char *s, size_t n, size_t start, uint32_t opts,
                    size_t *ms, size_t *me) {
  if (opts & PCRE2_ANCHORED)
    return dfa_call(r, s, n, start, opts, ms, me);
  budget *bud = r->env->bud;
  for (size_t p = start;;) {
    int d = dfa_call(r, s, n, p, opts | PCRE2_ANCHORED, ms, me);
    if (d != 0)
      return d;
    if (p >= n)
      return 0;
    if (bud && budget_poll(bud))
      return RX_STOPPED;
    size_t l = 1;
    if (r->utf && (unsigned char)s[p] >= 0x80) {
      l = u8len((const unsigned char *)s + p, n - p);
      if (!l)
        l = 1;
    }
    p += l;
    opts &= ~(uint32_t)PCRE2_NOTEMPTY_ATSTART;
  }
}

/* The automaton over s from start, window by window of valid UTF-8 when the
 * pattern was compiled for invalid UTF. */
static int dfa_run(rx *r, const char *s, size_t n, size_t start, uint32_t opts,
                   size_t *ms, size_t *me) {
  if (!r->invalid_utf)
    return dfa_scan(r, s, n, start, opts, ms, me);
  const unsigned char *u = (const unsigned char *)s;
  size_t pos = start;
  for (;;) {
    size_t e = pos;
    while (e < n) {
      size_t l = u8len(u + e, n - e);
      if (!l)
        break;
      e += l;
    }
    /* Start early enough for lookbehinds (at least one character, for ^
     * and \b), never across an invalid byte. */
    size_t b = pos;
    uint32_t back = r->maxlb ? r->maxlb : 1;
    for (uint32_t k = 0; k < back && b > 0; k++) {
      size_t j = b - 1;
      while (j > 0 && b - j < 4 && (u[j] & 0xC0) == 0x80)
        j--;
      if (u8len(u + j, b - j) != b - j)
        break;
      b = j;
    }
    if (!((opts & PCRE2_ENDANCHORED) && e < n)) {
      uint32_t o = opts | PCRE2_NO_UTF_CHECK;
      if (b > 0)
        o |= PCRE2_NOTBOL;
      if (e < n)
        o |= PCRE2_NOTEOL;
      size_t x, y;
      int d = dfa_scan(r, s + b, e - b, pos - b, o, &x, &y);
      if (d == 1) {
        *ms = b + x;
        *me = b + y;
        return 1;
      }
      if (d != 0)
        return d;
    }
    if ((opts & PCRE2_ANCHORED) || e >= n)
      return 0;
    pos = e + 1;
    while (pos < n && !u8len(u + pos, n - pos))
      pos++;
    opts &= ~(uint32_t)PCRE2_NOTEMPTY_ATSTART;
  }
}

/* ---- the capture pass --------------------------------------------------- */

typedef struct pass {
  rx *r;
  size_t base, target;
  uint64_t *set; /* open addressing; 0 = empty, else key + 1 */
  size_t cap, used;
  int memo;
} pass;

static int memo_seen(pass *p, uint64_t key) {
  rx_env *e = p->r->env;
  if (p->used * 2 >= p->cap) {
    if (p->cap >= RX_MEMO_MAX)
      goto lookup; /* full: remember nothing more */
    size_t nc = p->cap ? p->cap * 2 : 1024;
    uint64_t *ns = mem_calloc(e->m, nc, sizeof *ns);
    if (!ns)
      goto lookup;
    for (size_t i = 0; i < p->cap; i++)
      if (p->set[i]) {
        size_t h =
            (size_t)((p->set[i] * 0x9E3779B97F4A7C15ull) >> 20) & (nc - 1);
        while (ns[h])
          h = (h + 1) & (nc - 1);
        ns[h] = p->set[i];
      }
    if (p->set)
      mem_free(e->m, p->set);
    p->set = ns;
    p->cap = nc;
  }
lookup:
  if (!p->cap)
    return 0;
  uint64_t k = key + 1;
  size_t h = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (p->cap - 1);
  for (size_t probes = 0; probes < p->cap; probes++) {
    if (p->set[h] == k)
      return 1;
    if (!p->set[h]) {
      if (p->used * 2 < p->cap) {
        p->set[h] = k;
        p->used++;
      }
      return 0;
    }
    h = (h + 1) & (p->cap - 1);
  }
  return 0;
}

static int pass_callout(pcre2_callout_block *cb, void *ud) {
  pass *p = ud;
  if (cb->callout_number == 1)
    return cb->current_position == p->target ? 0 : 1;
  /* Without back-references, whether the rest of the pattern from an item
   * can still end at the target depends only on the item and the subject
   * position: a pair seen before has already failed (a success would have
   * ended the match). Inside a lookaround that does not hold. */
  if (!p->memo || in_assertion(p->r, cb->pattern_position))
    return 0;
  size_t rel = cb->current_position - p->base;
  if (cb->pattern_position >= (1ull << 32) || rel >= (1ull << 32))
    return 0;
  return memo_seen(p, (uint64_t)cb->pattern_position << 32 | rel) ? 1 : 0;
}

static void set_extent(rx *r, size_t ms, size_t me) {
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(r->md);
  uint32_t cnt = pcre2_get_ovector_count(r->md);
  ov[0] = ms;
  ov[1] = me;
  for (uint32_t i = 1; i < cnt; i++)
    ov[2 * i] = ov[2 * i + 1] = PCRE2_UNSET;
  r->full = 0;
}

/* Groups of the match [ms, me), known to exist: backtracking forced to end
 * at me. Without a capture pass the groups stay unset. */
static int groups(rx *r, const char *s, size_t n, size_t ms, size_t me,
                  uint32_t opts) {
  set_extent(r, ms, me);
  if (!r->re_end)
    return 1;
  rx_env *e = r->env;
  pass p = {r, ms, me, NULL, 0, 0, 1};
  uint32_t o = (opts & (PCRE2_NOTBOL | PCRE2_NOTEOL)) | PCRE2_ANCHORED;
  int rc = PCRE2_ERROR_NOMATCH;
  for (int tries = 0; tries < 2 && rc == PCRE2_ERROR_NOMATCH; tries++) {
    /* The memo assumes PCRE2 never revisits a pair on a path that could
     * still succeed; should that ever fail, the plain pass decides. */
    p.memo = tries == 0;
    pcre2_match_context *mc = limits(e, 0);
    pcre2_set_callout(mc, pass_callout, &p);
    rc = pcre2_match(r->re_end, (PCRE2_SPTR)s, n, ms, o, r->md, mc);
    pcre2_set_callout(mc, NULL, NULL);
  }
  if (p.set)
    mem_free(e->m, p.set);
  if (rc == PCRE2_ERROR_NOMATCH) {
    set_extent(r, ms, me);
    return PCRE2_ERROR_INTERNAL;
  }
  if (rc < 0) {
    set_extent(r, ms, me);
    return rc;
  }
  r->full = 1;
  return 1;
}

/* ---- search ------------------------------------------------------------- */

static int backtrack(rx *r, const char *s, size_t n, size_t from, uint32_t opts,
                     uint32_t steps) {
  pcre2_match_context *mc = limits(r->env, steps);
  if (r->jit && !(opts & (PCRE2_ANCHORED | PCRE2_ENDANCHORED)))
    return pcre2_jit_match(r->re, (PCRE2_SPTR)s, n, from, opts, r->md, mc);
  return pcre2_match(r->re, (PCRE2_SPTR)s, n, from, opts, r->md, mc);
}

static int bt_limit(int rc) {
  return rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
         rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT;
}

int rx_search(rx *r, const char *s, size_t n, size_t from, uint32_t opts,
              int want, size_t *ms, size_t *me) {
  if (!s)
    s = "";
  int caps = want == RX_GROUPS && r->ncap > 0;
  r->full = 0;
  uint32_t steps = r->dfa ? RX_FAST_LIMIT : 0;
  if (r->env->match_limit && r->env->match_limit < steps)
    steps = r->env->match_limit;
  int rc = backtrack(r, s, n, from, opts, steps);
  if (rc >= 0) {
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(r->md);
    *ms = ov[0];
    *me = ov[1] < ov[0] ? ov[0] : ov[1]; /* \K can put the end first */
    r->full = 1;
    if (!r->posix || !r->dfa || want == RX_ANY)
      return 1;
    /* POSIX: the longest match starting there. */
    uint32_t o = (opts & ~(uint32_t)PCRE2_NOTEMPTY_ATSTART) | PCRE2_ANCHORED;
    if (*ms == from)
      o |= opts & PCRE2_NOTEMPTY_ATSTART;
    size_t x, y;
    int d = dfa_run(r, s, n, *ms, o, &x, &y);
    if (d == RX_NODFA || d == 0)
      return 1;
    if (d < 0)
      return d;
    if (y > *me) {
      *me = y;
      return caps ? groups(r, s, n, *ms, *me, opts)
                  : (set_extent(r, *ms, y), 1);
    }
    return 1;
  }
  if (rc == PCRE2_ERROR_NOMATCH)
    return 0;
  if (!r->dfa || !bt_limit(rc))
    return rc;
  /* The backtracker gave up: the automaton decides. */
  int d = dfa_run(r, s, n, from, opts, ms, me);
  if (d == RX_NODFA)
    return rc;
  if (d <= 0)
    return d;
  return caps ? groups(r, s, n, *ms, *me, opts) : (set_extent(r, *ms, *me), 1);
}

PCRE2_SIZE *rx_ovector(rx *r, uint32_t *count) {
  if (count)
    *count = r->ncap + 1;
  return pcre2_get_ovector_pointer(r->md);
}

int rx_is_limit(int rc) {
  return bt_limit(rc) || rc == PCRE2_ERROR_NOMEMORY ||
         rc == PCRE2_ERROR_DFA_WSSIZE || rc == PCRE2_ERROR_DFA_RECURSE ||
         rc == PCRE2_ERROR_RECURSELOOP;
}

const char *rx_strerror(int rc, char *out, size_t outlen) {
  const char *m = NULL;
  switch (rc) {
  case RX_STOPPED:
    m = "stopped by a limit";
    break;
  case PCRE2_ERROR_NOMEMORY:
    m = "memory exhausted";
    break;
  case PCRE2_ERROR_JIT_STACKLIMIT:
    m = "exhausted PCRE JIT stack";
    break;
  case PCRE2_ERROR_MATCHLIMIT:
    m = "exceeded PCRE's backtracking limit";
    break;
  case PCRE2_ERROR_DEPTHLIMIT:
    m = "exceeded PCRE's nested backtracking limit";
    break;
  case PCRE2_ERROR_RECURSELOOP:
    m = "PCRE detected recurse loop";
    break;
  case PCRE2_ERROR_HEAPLIMIT:
    m = "exceeded PCRE's heap limit";
    break;
  case PCRE2_ERROR_DFA_WSSIZE:
    m = "exceeded PCRE's DFA workspace limit";
    break;
  case PCRE2_ERROR_DFA_RECURSE:
    m = "exceeded PCRE's DFA recursion limit";
    break;
  default:
    break;
  }
  if (m)
    snprintf(out, outlen, "%s", m);
  else
    snprintf(out, outlen, "internal PCRE error: %d", rc);
  return out;
}
