/*
 * grep.h - internals of the grep builtin, shared by its three parts:
 *
 *   regex.c   POSIX BRE/ERE (GNU dialect) -> PCRE2 pattern text
 *   match.c   the compiled matcher: PCRE2 (JIT) or memmem over whole buffers
 *   search.c  scanning a buffer for selected lines and printing them
 *   grep.c    options, operands, recursion over the VFS, exit status
 *
 * The search never goes line by line: a buffer holding many lines is
 * searched at once (PCRE2 in multiline mode, or memmem for literals) and line
 * boundaries are found around each match with memchr/memrchr. That is what
 * makes `grep -c ERROR big.log` cheap. The translated patterns cannot match
 * across a line end except through a few constructs (e.g. [[:space:]]); a
 * match that does is re-checked on its line alone (match.c).
 */
#ifndef VSH_BUILTINS_GREP_GREP_H
#define VSH_BUILTINS_GREP_GREP_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>

#include "builtins/builtin.h"
#include "core/regex.h"

enum { GR_BRE = 0, GR_ERE = 1, GR_FIXED = 2, GR_PCRE = 3 };

/* ---- regex.c ------------------------------------------------------------ */

/* Translate one BRE/ERE pattern to PCRE2 syntax, appended to out. eol is the
 * record delimiter ('\n' or '\0' with -z) that negated classes must not
 * match; utf8 says whether multibyte characters are decoded. Capturing
 * groups keep their numbers, shifted by group_base (patterns are joined into
 * one alternation); *ngroups gets this pattern's group count and
 * *backref whether it uses back-references. Returns 0, or -1 after printing
 * GNU's message ("grep: Unmatched ( or \(") on c->err. GNU's warnings
 * ("* at start of expression") are printed too and are not errors. */
int gr_translate(bi_ctx *c, buf *out, const char *p, size_t n, int ere, int eol,
                 int utf8, int icase, int group_base, int *ngroups,
                 int *backref);
/* Append p as a literal (every special character escaped). */
void gr_quote(buf *out, const char *p, size_t n, int utf8);
/* Does this BRE/ERE pattern stand for itself (no special character)? */
int gr_is_literal(const char *p, size_t n, int ere);

/* ---- match.c ------------------------------------------------------------ */

typedef struct gr_pat {
  const char *s;
  size_t n;
} gr_pat;

typedef struct gr_matcher {
  mem *m;
  int never;       /* no pattern at all: nothing matches */
  const char *lit; /* memmem fast path when non-NULL */
  size_t litlen;
  int eol;
  int per_line; /* -P with \A \z ...: match each line as its own subject */
  int compiled; /* env and rx hold PCRE2 objects */
  rx_env env;
  rx rx;   /* BRE/ERE: leftmost-longest (core/regex.h); -P: PCRE2's rule */
  int err; /* the first matcher error (a PCRE2 limit): grep stops */
} gr_matcher;

typedef struct gr_cfg {
  int kind; /* GR_BRE ... */
  int icase, word, line, utf8, eol;
} gr_cfg;

/* Build the matcher for all patterns. Returns 0, or -1 after printing the
 * error (the caller exits 2). */
int gr_compile(bi_ctx *c, gr_matcher *mt, const gr_pat *pats, size_t npats,
               const gr_cfg *cfg);
void gr_matcher_free(gr_matcher *mt);
/* First line of s[0..n) at or after pos (a line start) holding a match:
 * 1 with the line as [*ls, *le) (*le at its delimiter or n), 0 when none.
 * A matcher error (a PCRE2 limit) returns 0 with mt->err set. */
int gr_find_line(gr_matcher *mt, const char *s, size_t n, size_t pos,
                 size_t *ls, size_t *le);
/* Within one line (the whole subject), the leftmost match at or after from,
 * the longest one there for BRE/ERE (POSIX leftmost-longest), PCRE2's
 * leftmost-first for -P. 1 found, 0 none or an error (mt->err set). */
int gr_match_in_line(gr_matcher *mt, const char *line, size_t n, size_t from,
                     size_t *ms, size_t *me);
/* Report mt->err as GNU does ("grep: NAME: exceeded PCRE's backtracking
 * limit"); the caller then exits 2. */
void gr_match_error(gr_matcher *mt, bi_ctx *c, const char *name);

/* ---- search.c ----------------------------------------------------------- */

enum { GR_BIN_BINARY = 0, GR_BIN_TEXT = 1, GR_BIN_NOMATCH = 2 };

typedef struct gr {
  bi_ctx *c;
  writer w;
  gr_matcher mt;
  /* options */
  int invert, count, list /* 1: -l, 2: -L */, quiet, only, lineno, byteoff;
  int with_fname; /* 1 yes, 0 no; -1: not yet decided (set by recursion) */
  int64_t after, before; /* -1: not given */
  int64_t max_count;     /* -1: unlimited */
  int binmode, eol, nullname, tabs, color, line_buffered, nomsg, utf8;
  const char *group_sep; /* NULL: --no-group-separator */
  /* results */
  int matched, error;
  int printed; /* a line went out (for "--" between context groups) */
  int stop;    /* -q matched, or the output failed: end everything */
  int status;  /* when stop because of a stream error: the exit status */
} gr;

typedef struct gr_file {
  const char *name;
  uint64_t base;     /* absolute offset of the window's first byte */
  size_t ln_pos;     /* line numbers counted up to here (window offset) */
  uint64_t ln_no;    /* delimiters before ln_pos */
  uint64_t last_out; /* absolute end of the last printed line; UINT64_MAX */
  int64_t pending;   /* trailing context lines still to print */
  size_t gap;        /* start of the lines not printed since the last
                        selected one (window offset) */
  uint64_t nsel;     /* selected lines */
  int binary;        /* NUL seen (binary-files=binary): lines not printed */
  int bin_msg;       /* "binary file matches" to print at the end */
  int maxed;         /* -m reached: only trailing context remains */
  int numw;          /* -T: width of numbers (digits of the file size) */
  int done;
} gr_file;

/* Process the complete lines of s[*pos..lim) (window of the file); lim is
 * the end of the last complete line, or the buffer end at end of input.
 * Returns 0, or -1 when the output failed (g->stop/g->status set). */
int gr_scan(gr *g, gr_file *f, const char *s, size_t lim, size_t *pos);
/* After the input: -c / -l / -L lines and the binary message. */
int gr_finish_file(gr *g, gr_file *f);
/* Write out buffered output; stream errors set g->stop and g->status. */
int gr_flush(gr *g);
/* Is s[0..n) valid UTF-8? */
int gr_utf8_valid(const char *s, size_t n);

#endif
