/*
 * diff.h - internals of the diff builtin, shared by its parts:
 *
 *   analyze.c  lines, equivalence classes and the edit script: GNU's
 *              O(ND) comparison (Myers's algorithm with the discarding of
 *              confusing lines, the cost cap for long searches and the
 *              sliding of change boundaries), so that the script chosen
 *              is the one GNU diff prints
 *   output.c   the output formats: normal, context, unified, side by side
 *   diff.c     options, file and directory operands, exit status
 */
#ifndef VSH_BUILTINS_TEXT_DIFF_DIFF_H
#define VSH_BUILTINS_TEXT_DIFF_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "builtins/builtin.h"

typedef struct df_re df_re;

enum { DF_NORMAL, DF_CONTEXT, DF_UNIFIED, DF_SIDE, DF_ED, DF_BRIEF };

typedef struct df_opts {
  int style;
  long context; /* lines of context (-c/-u: 3 unless given) */
  int icase, ign_all_ws, ign_ws_change, ign_tab, ign_trail_ws, ign_blank;
  int text;    /* -a */
  int minimal; /* -d */
  int show_c_func;
  int width;           /* -W */
  int left_column;     /* --left-column */
  int suppress_common; /* --suppress-common-lines */
  int expand_tabs;     /* -t */
  int initial_tab;     /* -T */
  long horizon;        /* --horizon-lines */
  df_re *ignore_re;    /* -I: changes whose lines all match are ignored */
  df_re *func_re;      /* -F: the function line of -p (NULL: GNU's -p) */
  const char *label[2];
} df_opts;

/* One compared file: its bytes and where its lines start. */
typedef struct df_file {
  const char *name; /* as printed in headers */
  const char *data;
  size_t len;
  size_t *ls; /* n + 1 offsets: line i is data[ls[i] .. ls[i+1]) */
  long n;
  int nonl; /* the last line lacks its newline */
  int64_t mtime_ns;
  int have_time;
} df_file;

/* A run of changed lines: deleted lines of file 0 from line0, inserted
 * lines of file 1 from line1 (0-based); ignore when -B finds only blank
 * lines in it. */
typedef struct df_change {
  long line0, line1, deleted, inserted;
  int ignore;
} df_change;

typedef struct df_script {
  df_change *v;
  size_t n;
} df_script;

/* Split f->data into lines (f->ls in mem m). 0, or -1 out of memory. */
int df_lines(bi_ctx *c, df_file *f);
/* The edit script turning a into b under the options: 0, -1 out of
 * memory, -2 stopped by the budget. s->v is mem_free'd by the caller. */
int df_compare(bi_ctx *c, const df_opts *o, df_file *a, df_file *b,
               df_script *s);
/* Whether line i of f is blank for -B (empty, or only white space under
 * -b/-w). */
int df_blank_line(const df_opts *o, const df_file *f, long i);
/* Whether line i of f does not count: blank under -B, or matching -I. */
int df_trivial_line(const df_opts *o, const df_file *f, long i);

/* ---- regex.c: -I and -F, in grep's basic syntax ---- */
/* NULL after printing the error (bad pattern, no memory). */
df_re *df_re_compile(bi_ctx *c, const char *const *pats, size_t n, int icase);
/* Whether s[0..n) holds a match. */
int df_re_match(df_re *re, const char *s, size_t n);
void df_re_free(bi_ctx *c, df_re *re);

/* Print the script in the chosen style to w. */
struct writer;
int df_print(bi_ctx *c, const df_opts *o, struct writer *w, df_file *a,
             df_file *b, const df_script *s);

#endif
