/*
 * headtail.h - what head and tail have in common: the -c/-n NUM and
 * -q/-v/-z options, the "==> NAME <==" loop over the file operands and the
 * two ways of reading a pipe (copy a count of records or bytes, or keep a
 * window over the last ones).
 */
#ifndef VSH_BUILTINS_TEXT_HEADTAIL_H
#define VSH_BUILTINS_TEXT_HEADTAIL_H

#include <stddef.h>
#include <stdint.h>

#include "builtins/textutil.h"

typedef struct ht_opt {
  int bytes; /* -c: count bytes, not records */
  int sign;  /* '-' or '+' written before NUM, 0 without */
  int delim; /* record delimiter: '\n', NUL with -z */
  uint64_t n;
  int verbose, quiet;
} ht_opt;

/* Start of the option set both commands begin with. */
#define HT_OPTIONS_INIT                                                        \
  { 0, 0, '\n', 10, 0, 0 }

/* The NUM of -c/-n (ch): sets o->bytes and o->sign and returns the text
 * left to tu_parse_count (blanks and a '-' dropped; a '+' is kept, as
 * tu_parse_count takes it). */
const char *ht_count_arg(ht_opt *o, int ch, const char *arg);
/* "invalid number of lines: 'TEXT'" (or bytes) with an optional reason;
 * returns 1. */
int ht_bad_count(bi_ctx *c, const ht_opt *o, const char *text,
                 const char *reason);
/* -q, -v and -z; returns 0 for any other option. */
int ht_flag(ht_opt *o, int ch);

/* Where the last n records of d[0..len) begin (an unterminated last record
 * counts as one). */
size_t ht_last_lines(const char *d, size_t len, uint64_t n, int delim);

/* Skip `skip` records or bytes of in, then copy up to `count` of them to w.
 * 0, 1 on a read error (*rerr), -1 on a write error. */
int ht_copy(bi_ctx *c, stream *in, const ht_opt *o, uint64_t skip,
            uint64_t count, writer *w, int *rerr);

/* Read in to its end keeping in b[*start..) at most `keep` bytes (-c) or
 * `keep` delimiters; what drops out before them goes to spill (NULL: it is
 * forgotten). *nl gets the delimiters kept. Returns as ht_copy. */
int ht_window(stream *in, const ht_opt *o, uint64_t keep, writer *spill, buf *b,
              size_t *start, uint64_t *nl, int *rerr);

/* One file of the loop: 0, 1 on a read error (*rerr), -1 on a write error. */
typedef int (*ht_file_fn)(bi_ctx *c, stream *in, const ht_opt *o, writer *w,
                          int *rerr);
/* Run fn over the operands (stdin without any), each under a header when
 * -v or several operands (and no -q) ask for it; returns the exit status. */
int ht_files(bi_ctx *c, char **names, int n, const ht_opt *o, ht_file_fn fn);

/* Rewrite c's arguments from an obsolete form ("head -5", "tail +3c") to
 * NAME OPT [FLAG1] [FLAG2] REST... (NULL flags left out); they stay as
 * they were when memory runs out. */
void ht_rewrite_argv(bi_ctx *c, char *opt, const char *flag1,
                     const char *flag2);

#endif
