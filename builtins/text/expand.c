/*
 * expand.c - GNU expand and unexpand: tabs to spaces and back.
 *
 * Tab stops are every 8 columns, every N with -t N, or an explicit list
 * ("4,8,12"; GNU 9.1 also allows a last "/N" or "+N" entry for repeating
 * stops). Past the last listed stop, expand turns a tab into one space and
 * unexpand leaves blanks alone. A backspace moves back one column. unexpand
 * converts only leading blanks unless -a (implied by -t), and never a
 * single space that merely reaches a stop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_expand[] = "Usage: expand [OPTION]... [FILE]...";
const char bi_help_expand[] =
    "Replace the TAB characters of each FILE with spaces and print the result\n"
    "to standard output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -i, --initial    replace only the TABs in a line's leading whitespace\n"
    "  -t, --tabs=N     put a tab stop every N columns (default 8)\n"
    "  -t, --tabs=LIST  put tab stops at the columns in LIST (comma "
    "separated)\n"
    "      --help       print this summary and quit\n"
    "      --version    print the version line and quit\n";
const char bi_usage_unexpand[] = "Usage: unexpand [OPTION]... [FILE]...";
const char bi_help_unexpand[] =
    "Replace runs of spaces in each FILE with TAB characters where they reach "
    "a\n"
    "tab stop, and print the result to standard output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -a, --all        work on every run of blanks, not only leading ones\n"
    "      --first-only  work only on the leading blanks of a line (wins over\n"
    "                     -a)\n"
    "  -t, --tabs=N     put a tab stop every N columns instead of 8 (turns\n"
    "                     on -a)\n"
    "  -t, --tabs=LIST  put tab stops at the columns in LIST (comma "
    "separated)\n"
    "      --help       print this summary and quit\n"
    "      --version    print the version line and quit\n";

#define MAXSTOPS 256

typedef struct tabs {
  uint64_t stop[MAXSTOPS];
  int n;
  uint64_t every; /* repeat interval after the list (0: none) */
} tabs;

static int parse_tabs(bi_ctx *c, const char *s, tabs *t) {
  const char *p = s;
  while (*p) {
    int rep = 0;
    if (*p == '/' || *p == '+')
      rep = *p++;
    char *e;
    errno = 0;
    unsigned long long v = strtoull(p, &e, 10);
    if (e == p || errno || *p < '0' || *p > '9') { /* no sign, no blank */
      bi_error(c, "tab size contains invalid character(s): %s", tu_quote(c, p));
      return -1;
    }
    if (v == 0) {
      bi_error(c, "tab size cannot be 0");
      return -1;
    }
    if (rep) {
      t->every = rep == '+' && t->n ? v : v;
      if (rep == '+' && t->n) /* "+N": N after the last stop */
        t->every = v;
    } else {
      if (t->n && v <= t->stop[t->n - 1]) {
        bi_error(c, "tab sizes must be ascending");
        return -1;
      }
      if (t->n == MAXSTOPS) {
        bi_error(c, "too many tab stops");
        return -1;
      }
      t->stop[t->n++] = v;
    }
    p = e;
    while (*p == ',' || *p == ' ')
      p++;
  }
  return 0;
}

/* Next tab stop after col, or 0 when there is none. */
static uint64_t next_stop(const tabs *t, uint64_t col) {
  if (t->n == 0)
    return col + 8 - col % 8;
  if (t->n == 1 && !t->every)
    return col + t->stop[0] - col % t->stop[0];
  for (int i = 0; i < t->n; i++)
    if (t->stop[i] > col)
      return t->stop[i];
  if (t->every) {
    uint64_t last = t->stop[t->n - 1];
    return col + t->every - (col - last) % t->every;
  }
  return 0;
}

static int tab_main(bi_ctx *c, int un) {
  static const bi_opt eopts[] = {{"initial", 'i', BI_ARG_NONE},
                                 {"tabs", 't', BI_ARG_REQUIRED},
                                 BI_OPTS_END};
  static const bi_opt uopts[] = {{"all", 'a', BI_ARG_NONE},
                                 {"first-only", 0x100, BI_ARG_NONE},
                                 {"tabs", 't', BI_ARG_REQUIRED},
                                 BI_OPTS_END};
  tabs t;
  memset(&t, 0, sizeof t);
  int initial = 0, all = 0, first_only = 0, ch;
  /* Obsolete "-4" / "-4,8" forms become -t. */
  bi_ctx sub;
  if (tu_obsolete_num(c, &sub, 't', "tabs"))
    return 1;
  bi_getopt g;
  bi_getopt_init(&g, &sub, un ? "at:" : "it:", un ? uopts : eopts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'i':
      initial = 1;
      break;
    case 'a':
      all = 1;
      break;
    case 0x100:
      first_only = 1;
      break;
    case 't':
      if (parse_tabs(c, g.arg, &t))
        return 1;
      all = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (first_only)
    all = 0;
  writer w;
  wr_init(&w, c->out);
  buf blanks;
  buf_init(&blanks, c->m);
  tu_records recs;
  tu_records_init(&recs, c, g.operands, g.noperands, '\n', &w);
  const char *l;
  size_t n;
  while (tu_records_next(&recs, &l, &n) && !w.err) {
    uint64_t col = 0;
    int leading = 1;
    if (!un) {
      for (size_t j = 0; j < n; j++) {
        unsigned char chr = (unsigned char)l[j];
        if (chr == '\t' && (!initial || leading)) {
          uint64_t ns = next_stop(&t, col);
          if (!ns)
            ns = col + 1;
          for (; col < ns; col++)
            wr_putc(&w, ' ');
          continue;
        }
        if (chr == '\b')
          col = col ? col - 1 : 0;
        else if (chr != '\n')
          col++;
        if (chr != ' ' && chr != '\t')
          leading = 0;
        wr_putc(&w, chr);
      }
      continue;
    }
    /* unexpand: collect a run of blanks; at each stop reached, the run
     * becomes one tab (a lone space stays a space). */
    uint64_t run_start = 0;
    buf_clear(&blanks);
    for (size_t j = 0; j <= n; j++) {
      int chr = j < n ? (unsigned char)l[j] : -1;
      int convert = all || leading;
      if (convert && (chr == ' ' || chr == '\t')) {
        if (!blanks.len)
          run_start = col;
        uint64_t ns = next_stop(&t, col);
        uint64_t nc = chr == '\t' ? (ns ? ns : col + 1) : col + 1;
        buf_putc(&blanks, chr);
        col = nc;
        if (ns && col == ns) {
          /* reached a stop: the run so far is one tab, unless it is a
           * single space */
          if (blanks.len == 1 && blanks.data[0] == ' ' && chr == ' ' &&
              col - run_start == 1)
            wr_putc(&w, ' ');
          else
            wr_putc(&w, '\t');
          buf_clear(&blanks);
          run_start = col;
        }
        continue;
      }
      if (blanks.len) {
        wr_write(&w, blanks.data, blanks.len);
        buf_clear(&blanks);
      }
      if (chr < 0)
        break;
      if (chr == '\b')
        col = col ? col - 1 : 0;
      else if (chr == '\t') {
        uint64_t ns = next_stop(&t, col);
        col = ns ? ns : col + 1;
      } else if (chr != '\n')
        col++;
      if (chr != ' ' && chr != '\t' && chr != '\n')
        leading = 0;
      wr_putc(&w, chr);
    }
  }
  int status = tu_records_end(&recs);
  buf_free(&blanks);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}

int bi_expand(bi_ctx *c) {
  return tab_main(c, 0);
}
int bi_unexpand(bi_ctx *c) {
  return tab_main(c, 1);
}
