/*
 * regex.h - the one place that runs PCRE2 matches for grep, sed, awk,
 * find -regex and [[ =~ ]], so that every tool gets the same answers.
 *
 * Two semantics:
 *
 *  - RX_POSIX (BRE/ERE): the match is the leftmost one and, there, the
 *    longest (POSIX's leftmost-longest rule). POSIX regexes have no
 *    backtracking semantics, so the answer must not depend on PCRE2's
 *    backtracking limits either. The backtracking matcher (JIT when
 *    available) is tried first with a small step budget because it is the
 *    fastest way to find where a match starts; when it gives up, or to find
 *    how far the match reaches, pcre2_dfa_match (an automaton: polynomial,
 *    never exponential) decides. Patterns with back-references cannot run on
 *    the automaton and keep backtracking with PCRE2's full limits.
 *  - without RX_POSIX (grep -P): PCRE2's own leftmost-first semantics.
 *
 * Capture groups (sed's \1, BASH_REMATCH) need backtracking: when the
 * automaton's extent differs from the backtracker's, the groups are found by
 * a second backtracking pass forced to end where the automaton's match ends
 * (a callout at the pattern's end rejects every other end), with a memo of
 * (pattern position, subject position) pairs already seen to fail, which
 * keeps patterns like ^(a|aa)+c|a+b$ from exploding.
 *
 * Every limit (match, depth, heap, JIT stack, DFA workspace) is reported as
 * a negative PCRE2 error code; callers must turn it into a loud error (see
 * rx_strerror), never into "no match".
 *
 * Memory comes from the sandbox allocator through the environment's PCRE2
 * general context; only JIT code pages are PCRE2's own.
 */
#ifndef VSH_CORE_REGEX_H
#define VSH_CORE_REGEX_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>

#include "core/budget.h"
#include "core/mem.h"

/* Contexts and scratch shared by all the regexes of one user (a grep run,
 * a sed script, an awk program, one [[ =~ ]] test). */
typedef struct rx_env {
  mem *m;
  pcre2_general_context *gc;
  pcre2_compile_context *cc;
  pcre2_match_context *mc;
  pcre2_jit_stack *js;
  pcre2_match_data *dmd; /* DFA results: only the longest is read */
  int *ws;               /* DFA workspace, grown on PCRE2_ERROR_DFA_WSSIZE */
  size_t wsn;
  /* Limits; 0 means PCRE2's default. Tests lower them to force errors. */
  uint32_t match_limit, depth_limit, heap_limit_kib;
  size_t ws_max; /* most DFA workspace elements (default RX_WS_MAX) */
  budget *bud;   /* polled by long automaton searches; may be NULL */
  uint32_t def_match, def_depth, def_heap; /* PCRE2's defaults */
} rx_env;

enum {
  RX_POSIX = 1u << 0, /* leftmost-longest (BRE/ERE) */
  RX_NOJIT = 1u << 1, /* one-shot regex: JIT compiling costs more */
  RX_CAPS = 1u << 2   /* rx_search may be asked for capture groups */
};

#define RX_WS_MAX (1u << 20) /* 4 MiB of DFA workspace at most */
/* rx_search's answer when env->bud said stop (deadline, cancel, limit):
 * the budget reports it; callers stop without a message of their own. */
#define RX_STOPPED (-10000)

typedef struct rx {
  rx_env *env;
  pcre2_code *re;     /* backtracking form */
  pcre2_code *re_dfa; /* automaton form (re itself, or re compiled without
                         PCRE2_MATCH_INVALID_UTF); NULL: none */
  pcre2_code *re_end; /* capture pass: re + auto callouts + end check */
  pcre2_match_data *md;
  size_t *assert_spans; /* pattern offsets of re_end's lookarounds */
  size_t nspans;
  uint32_t maxlb; /* longest lookbehind, in characters */
  uint32_t ncap;  /* capture groups */
  int posix, jit, dfa;
  int invalid_utf; /* compiled with PCRE2_MATCH_INVALID_UTF */
  int utf;         /* compiled with PCRE2_UTF */
  int full;        /* ovector holds every group of the last match */
} rx;

/* 0, or -1 when out of memory. jit_stack_max 0: PCRE2's small default JIT
 * stack (on the fiber's stack). */
int rx_env_init(rx_env *e, mem *m, size_t jit_stack_max);
void rx_env_free(rx_env *e);

/* Compile pattern text (already PCRE2 syntax). cc NULL: the environment's.
 * opts are pcre2_compile options. Returns 0, or -1 with *ec (a PCRE2 error
 * code, for pcre2_get_error_message) and *eo (its offset). */
int rx_compile(rx_env *e, rx *r, const char *pat, size_t n, uint32_t opts,
               unsigned flags, pcre2_compile_context *cc, int *ec, size_t *eo);
void rx_free(rx *r);

/* What rx_search must find besides where the leftmost match starts. */
enum {
  RX_ANY = 0,    /* whether there is one (the end may not be the longest) */
  RX_EXTENT = 1, /* its end too: the longest under RX_POSIX */
  RX_GROUPS = 2  /* its end and the capture groups (needs RX_CAPS) */
};

/* The match in s[0..n) starting at or after from (PCRE2 match options:
 * PCRE2_ANCHORED, PCRE2_ENDANCHORED, PCRE2_NOTBOL, PCRE2_NOTEOL,
 * PCRE2_NOTEMPTY, PCRE2_NOTEMPTY_ATSTART). Returns 1 with [*ms, *me), 0
 * when there is none, or a negative PCRE2 error code. */
int rx_search(rx *r, const char *s, size_t n, size_t from, uint32_t opts,
              int want, size_t *ms, size_t *me);
/* After rx_search returned 1: pairs of offsets, group 0 first; *count
 * pairs. Groups other than 0 are PCRE2_UNSET unless RX_GROUPS was asked. */
PCRE2_SIZE *rx_ovector(rx *r, uint32_t *count);

/* Is rc (negative) a resource limit rather than a bad subject or pattern? */
int rx_is_limit(int rc);
/* GNU grep's wording for an error of rx_search ("exceeded PCRE's
 * backtracking limit", ...), written into out. */
const char *rx_strerror(int rc, char *out, size_t outlen);

#endif
