/*
 * fmt.c - GNU fmt (coreutils 9.1): fill and join the lines of each
 * paragraph.
 *
 * The breaks are GNU fmt's: a paragraph's line breaks are chosen to
 * minimise a cost (the squared distance of each line from the goal width,
 * the raggedness between neighbouring lines, bonuses for breaking after a
 * sentence or punctuation and before a parenthesis, penalties for widows,
 * orphans and breaking after a period that does not end a sentence), by
 * dynamic programming over the paragraph's words from the last one back.
 * A sentence ends at a word ending in . ? or ! (then any of ) ] ' ")
 * followed by the end of the line or two spaces; it is followed by two
 * spaces in the output. A paragraph is buffered up to 1000 words and 5000
 * bytes; past that, what is held is formatted and written up to a cheap
 * break near its end. Columns are counted in bytes, tabs to stops of 8.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_fmt[] = "Usage: fmt [-WIDTH] [OPTION]... [FILE]...";
const char bi_help_fmt[] =
    "Fill the lines of each paragraph of the FILEs (standard input when\n"
    "there are none, or for -) to the goal width, and print them. -WIDTH,\n"
    "as the first argument, is a short way to say --width=WIDTH.\n"
    "\n"
    "  -c, --crown-margin       keep the indentation of the first two lines\n"
    "  -p, --prefix=STRING      fill only lines that begin with STRING, and\n"
    "                           put it back in front of the filled lines\n"
    "  -s, --split-only         break long lines but never join short ones\n"
    "  -t, --tagged-paragraph   the first line is indented differently from\n"
    "                           the second\n"
    "  -u, --uniform-spacing    one space between words, two after a "
    "sentence\n"
    "  -w, --width=WIDTH        longest line allowed (75 unless given)\n"
    "  -g, --goal=WIDTH         width to aim for (93% of the width unless "
    "given)\n"
    "      --help               print this summary and quit\n"
    "      --version            print the version line and quit\n";

enum {
  FM_WIDTH = 75,
  FM_LEEWAY = 7,
  FM_DEF_INDENT = 3,
  FM_MAXWORDS = 1000,
  FM_MAXCHARS = 5000,
  FM_TAB = 8,
  FM_EOF = -1
};

typedef long long cost;
#define FM_MAXCOST INT64_MAX
#define FM_EQUIV(n) ((cost)(n) * (cost)(n))
#define FM_SHORT(n) FM_EQUIV((n)*10)
#define FM_RAGGED(n) (FM_SHORT(n) / 2)
#define FM_LINE FM_EQUIV(70)
#define FM_WIDOW(n) (FM_EQUIV(200) / ((n) + 2))
#define FM_ORPHAN(n) (FM_EQUIV(150) / ((n) + 2))
#define FM_SENTENCE FM_EQUIV(50)
#define FM_NOBREAK FM_EQUIV(600)
#define FM_PAREN FM_EQUIV(40)
#define FM_PUNCT FM_EQUIV(40)
#define FM_CREDIT FM_EQUIV(3)

typedef struct fm_word {
  const char *text;
  int length;
  int space; /* blanks after it */
  unsigned paren : 1, period : 1, punct : 1, final : 1;
  int line_length; /* of the best line starting here */
  cost best;       /* of the best filling from here on */
  struct fm_word *next_break;
} fm_word;

typedef struct fm {
  bi_ctx *c;
  writer *w;
  /* options */
  int crown, tagged, split, uniform;
  const char *prefix;
  int prefix_full, prefix_lead, prefix_len;
  int max_width, goal;
  /* input */
  reader r;
  int rerr; /* a read failed */
  char ibuf[4096];
  size_t ipos, ilen;
  /* the paragraph */
  char *para; /* FM_MAXCHARS */
  char *wptr;
  fm_word *word; /* FM_MAXWORDS */
  fm_word *limit;
  int tabs, prefix_indent, first_indent, other_indent;
  int in_col, out_col;
  int next_char, next_prefix_indent, last_line_length;
  int stop; /* output failed or the budget ran out */
} fm;

static int fm_getc(fm *f) {
  if (f->ipos < f->ilen)
    return (unsigned char)f->ibuf[f->ipos++];
  if (f->rerr)
    return FM_EOF;
  /* a limit or a cancel ends even one endless line */
  if (budget_poll(f->c->bud)) {
    f->rerr = ECANCELED;
    f->stop = 1;
    return FM_EOF;
  }
  long n = rd_read(&f->r, f->ibuf, sizeof f->ibuf);
  if (n <= 0) {
    if (n < 0)
      f->rerr = f->r.err ? f->r.err : EIO;
    return FM_EOF;
  }
  f->ipos = 1;
  f->ilen = (size_t)n;
  return (unsigned char)f->ibuf[0];
}

static void fm_putc(fm *f, int ch) {
  if (wr_putc(f->w, ch))
    f->stop = 1;
}

static void put_space(fm *f, int space) {
  int target = f->out_col + space;
  if (f->tabs) {
    int tab_target = target / FM_TAB * FM_TAB;
    if (f->out_col + 1 < tab_target)
      while (f->out_col < tab_target) {
        fm_putc(f, '\t');
        f->out_col = (f->out_col / FM_TAB + 1) * FM_TAB;
      }
  }
  while (f->out_col < target) {
    fm_putc(f, ' ');
    f->out_col++;
  }
}

static void put_word(fm *f, const fm_word *w) {
  if (wr_write(f->w, w->text, (size_t)w->length))
    f->stop = 1;
  f->out_col += w->length;
}

static void put_line(fm *f, fm_word *w, int indent) {
  f->out_col = 0;
  put_space(f, f->prefix_indent);
  if (wr_puts(f->w, f->prefix))
    f->stop = 1;
  f->out_col += f->prefix_len;
  put_space(f, indent - f->out_col);
  fm_word *end = w->next_break - 1;
  for (; w != end; w++) {
    put_word(f, w);
    put_space(f, w->space);
  }
  put_word(f, w);
  f->last_line_length = f->out_col;
  fm_putc(f, '\n');
}

static void put_paragraph(fm *f, fm_word *finish) {
  put_line(f, f->word, f->first_indent);
  for (fm_word *w = f->word->next_break; w != finish; w = w->next_break)
    put_line(f, w, f->other_indent);
}

/* The part of the cost of a break before `next` that depends on the
 * length len of the line ending there. */
static cost line_cost(fm *f, fm_word *next, int len) {
  if (next == f->limit)
    return 0;
  cost k = FM_SHORT(f->goal - len);
  if (next->next_break != f->limit)
    k += FM_RAGGED(len - next->line_length);
  return k;
}

/* The fixed part of the cost of a break before `this`. */
static cost base_cost(fm *f, fm_word *this) {
  cost k = FM_LINE;
  if (this > f->word) {
    if ((this - 1)->period) {
      if ((this - 1)->final)
        k -= FM_SENTENCE;
      else
        k += FM_NOBREAK;
    } else if ((this - 1)->punct) {
      k -= FM_PUNCT;
    } else if (this > f->word + 1 && (this - 2)->final) {
      k += FM_WIDOW((this - 1)->length);
    }
  }
  if (this->paren)
    k -= FM_PAREN;
  else if (this->final)
    k += FM_ORPHAN(this->length);
  return k;
}

/* The best breaks of the words held, from the last suffix to the whole. */
static void fmt_paragraph(fm *f) {
  f->limit->best = 0;
  int saved = f->limit->length;
  f->limit->length = f->max_width; /* a sentinel */
  for (fm_word *start = f->limit - 1; start >= f->word; start--) {
    cost best = FM_MAXCOST;
    int len = start == f->word ? f->first_indent : f->other_indent;
    fm_word *w = start;
    len += w->length;
    do {
      w++;
      cost k = line_cost(f, w, len) + w->best;
      if (start == f->word && f->last_line_length > 0)
        k += FM_RAGGED(len - f->last_line_length);
      if (k < best) {
        best = k;
        start->next_break = w;
        start->line_length = len;
      }
      if (w == f->limit)
        break;
      len += (w - 1)->space + w->length;
    } while (len < f->max_width);
    start->best = best + base_cost(f, start);
  }
  f->limit->length = saved;
}

/* The buffers are full: write what is held up to a cheap break near its
 * end and keep the rest as the start of the paragraph. */
static void flush_paragraph(fm *f) {
  if (f->limit == f->word) { /* one word fills everything: out it goes */
    if (wr_write(f->w, f->para, (size_t)(f->wptr - f->para)))
      f->stop = 1;
    f->wptr = f->para;
    return;
  }
  fmt_paragraph(f);
  fm_word *split = f->limit;
  cost best_break = FM_MAXCOST;
  for (fm_word *w = f->word->next_break; w != f->limit; w = w->next_break) {
    if (w->best - w->next_break->best < best_break) {
      split = w;
      best_break = w->best - w->next_break->best;
    }
    if (best_break <= FM_MAXCOST - FM_CREDIT)
      best_break += FM_CREDIT;
  }
  put_paragraph(f, split);
  size_t shift = (size_t)(split->text - f->para);
  memmove(f->para, split->text, (size_t)(f->wptr - split->text));
  f->wptr -= shift;
  for (fm_word *w = split; w <= f->limit; w++)
    w->text -= shift;
  memmove(f->word, split, (size_t)(f->limit - split + 1) * sizeof *f->word);
  f->limit -= split - f->word;
}

static void set_other_indent(fm *f, int same) {
  if (f->split)
    f->other_indent = f->first_indent;
  else if (f->crown)
    f->other_indent = same ? f->in_col : f->first_indent;
  else if (f->tagged) {
    if (same && f->in_col != f->first_indent)
      f->other_indent = f->in_col;
    else if (f->other_indent == f->first_indent)
      f->other_indent = f->first_indent == 0 ? FM_DEF_INDENT : 0;
  } else {
    f->other_indent = f->first_indent;
  }
}

/* Blanks (spaces and tabs) from ch on; the first other character. */
static int get_space(fm *f, int ch) {
  for (;;) {
    if (ch == ' ')
      f->in_col++;
    else if (ch == '\t') {
      f->tabs = 1;
      f->in_col = (f->in_col / FM_TAB + 1) * FM_TAB;
    } else {
      return ch;
    }
    ch = fm_getc(f);
  }
}

/* The start of a line: its blanks and the prefix. Returns the first
 * character after them, or the first that fails to match the prefix. */
static int get_prefix(fm *f) {
  f->in_col = 0;
  int ch = get_space(f, fm_getc(f));
  if (f->prefix_len == 0) {
    f->next_prefix_indent =
        f->prefix_lead < f->in_col ? f->prefix_lead : f->in_col;
    return ch;
  }
  f->next_prefix_indent = f->in_col;
  for (const char *p = f->prefix; *p; p++) {
    if (ch != (unsigned char)*p)
      return ch;
    f->in_col++;
    ch = fm_getc(f);
  }
  return get_space(f, ch);
}

static int is_open(int ch) {
  return ch && strchr("(['`\"", ch) != NULL;
}
static int is_close(int ch) {
  return ch && strchr(")]'\"", ch) != NULL;
}
static int is_period(int ch) {
  return ch && strchr(".?!", ch) != NULL;
}

static void check_punct(fm_word *w) {
  const char *start = w->text, *fin = start + (w->length - 1);
  w->paren = is_open((unsigned char)*start);
  w->punct = ispunct((unsigned char)*fin) != 0;
  while (start < fin && is_close((unsigned char)*fin))
    fin--;
  w->period = is_period((unsigned char)*fin);
}

static int is_blank_c(int ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* The words of one line, from its first character ch; returns the first
 * character of the next line after its prefix. */
static int get_line(fm *f, int ch) {
  char *end_para = f->para + FM_MAXCHARS;
  fm_word *end_word = f->word + FM_MAXWORDS - 2;
  do {
    f->limit->text = f->wptr;
    do {
      if (f->wptr == end_para) {
        set_other_indent(f, 1);
        flush_paragraph(f);
      }
      *f->wptr++ = (char)ch;
      ch = fm_getc(f);
    } while (ch != FM_EOF && !is_blank_c(ch));
    f->limit->length = (int)(f->wptr - f->limit->text);
    f->in_col += f->limit->length;
    check_punct(f->limit);
    int start = f->in_col;
    ch = get_space(f, ch);
    f->limit->space = f->in_col - start;
    f->limit->final = ch == FM_EOF ||
                      (f->limit->period && (ch == '\n' || f->limit->space > 1));
    if (ch == '\n' || ch == FM_EOF || f->uniform)
      f->limit->space = f->limit->final ? 2 : 1;
    if (f->limit == end_word) {
      set_other_indent(f, 1);
      flush_paragraph(f);
    }
    f->limit++;
  } while (ch != '\n' && ch != FM_EOF && !f->stop);
  return get_prefix(f);
}

static int same_para(fm *f, int ch) {
  return f->next_prefix_indent == f->prefix_indent &&
         f->in_col >= f->next_prefix_indent + f->prefix_full && ch != '\n' &&
         ch != FM_EOF;
}

/* Copies a line that is not filled (blank, or without the prefix) from
 * ch, its first character after what get_prefix read. */
static int copy_rest(fm *f, int ch) {
  f->out_col = 0;
  if (f->in_col > f->next_prefix_indent || (ch != '\n' && ch != FM_EOF)) {
    put_space(f, f->next_prefix_indent);
    for (const char *s = f->prefix; f->out_col != f->in_col && *s; f->out_col++)
      fm_putc(f, *s++);
    if (ch != FM_EOF && ch != '\n')
      put_space(f, f->in_col - f->out_col);
    if (ch == FM_EOF && f->in_col >= f->next_prefix_indent + f->prefix_len)
      fm_putc(f, '\n');
  }
  while (ch != '\n' && ch != FM_EOF && !f->stop) {
    fm_putc(f, ch);
    ch = fm_getc(f);
  }
  return ch;
}

/* The next paragraph into the buffers, copying the lines before it; 0 at
 * the end of the input. */
static int get_paragraph(fm *f) {
  f->last_line_length = 0;
  int ch = f->next_char;
  while (ch == '\n' || ch == FM_EOF || f->next_prefix_indent < f->prefix_lead ||
         f->in_col < f->next_prefix_indent + f->prefix_full) {
    ch = copy_rest(f, ch);
    if (ch == FM_EOF || f->stop) {
      f->next_char = FM_EOF;
      return 0;
    }
    fm_putc(f, '\n');
    if (budget_poll(f->c->bud)) {
      f->stop = 1;
      return 0;
    }
    ch = get_prefix(f);
  }
  f->prefix_indent = f->next_prefix_indent;
  f->first_indent = f->in_col;
  f->wptr = f->para;
  f->limit = f->word;
  ch = get_line(f, ch);
  set_other_indent(f, same_para(f, ch));
  if (f->split) {
    /* one line a paragraph */
  } else if (f->crown || f->tagged) {
    if (same_para(f, ch) && (f->crown || f->in_col != f->first_indent)) {
      do
        ch = get_line(f, ch);
      while (same_para(f, ch) && f->in_col == f->other_indent && !f->stop);
    }
  } else {
    while (same_para(f, ch) && f->in_col == f->other_indent && !f->stop)
      ch = get_line(f, ch);
  }
  if (f->stop)
    return 0;
  (f->limit - 1)->period = (f->limit - 1)->final = 1;
  f->next_char = ch;
  return 1;
}

static void fmt_stream(fm *f, stream *s) {
  rd_init(&f->r, f->c->m, s);
  rd_flush_to(&f->r, f->w);
  f->rerr = 0;
  f->ipos = f->ilen = 0;
  f->tabs = 0;
  f->other_indent = 0;
  f->next_char = get_prefix(f);
  while (!f->stop && get_paragraph(f)) {
    if (budget_poll(f->c->bud)) {
      f->stop = 1;
      break;
    }
    fmt_paragraph(f);
    put_paragraph(f, f->limit);
  }
  rd_free(&f->r);
}

/* A width operand: 0..max, else GNU's complaint. */
static int parse_width(bi_ctx *c, const char *s, int max, int *out) {
  uint64_t v = 0;
  int range = 0;
  const char *p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
    p++;
  if (*p < '0' || *p > '9') {
    bi_error(c, "invalid width: %s", tu_quote(c, s));
    return -1;
  }
  for (; *p >= '0' && *p <= '9'; p++) {
    if (v > (UINT64_MAX - 9) / 10)
      range = 1;
    else
      v = v * 10 + (uint64_t)(*p - '0');
  }
  if (*p) {
    bi_error(c, "invalid width: %s", tu_quote(c, s));
    return -1;
  }
  if (range || v > (uint64_t)max) {
    bi_error(c, "invalid width: %s: %s", tu_quote(c, s),
             bi_strerror(range ? EOVERFLOW : ERANGE));
    return -1;
  }
  *out = (int)v;
  return 0;
}

int bi_fmt(bi_ctx *c) {
  static const bi_opt opts[] = {{"crown-margin", 'c', BI_ARG_NONE},
                                {"prefix", 'p', BI_ARG_REQUIRED},
                                {"split-only", 's', BI_ARG_NONE},
                                {"tagged-paragraph", 't', BI_ARG_NONE},
                                {"uniform-spacing", 'u', BI_ARG_NONE},
                                {"width", 'w', BI_ARG_REQUIRED},
                                {"goal", 'g', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  fm f;
  memset(&f, 0, sizeof f);
  f.c = c;
  f.prefix = "";
  const char *width_opt = NULL, *goal_opt = NULL;
  /* -WIDTH is only seen as the first argument */
  bi_ctx sub = *c;
  if (c->argc > 1 && c->argv[1][0] == '-' && c->argv[1][1] >= '0' &&
      c->argv[1][1] <= '9') {
    width_opt = c->argv[1] + 1;
    char **av = arena_alloc(c->scratch, (size_t)c->argc * sizeof *av);
    if (!av) {
      bi_error(c, "memory exhausted");
      return 1;
    }
    av[0] = c->argv[0];
    for (int i = 2; i <= c->argc; i++)
      av[i - 1] = c->argv[i];
    sub.argv = av;
    sub.argc = c->argc - 1;
  }
  bi_getopt g;
  bi_getopt_init(&g, &sub, "0123456789cstuw:p:g:", opts);
  int o;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'c':
      f.crown = 1;
      break;
    case 's':
      f.split = 1;
      break;
    case 't':
      f.tagged = 1;
      break;
    case 'u':
      f.uniform = 1;
      break;
    case 'w':
      width_opt = g.arg;
      break;
    case 'g':
      goal_opt = g.arg;
      break;
    case 'p': {
      const char *p = g.arg;
      f.prefix_lead = 0;
      while (*p == ' ') {
        f.prefix_lead++;
        p++;
      }
      f.prefix_full = (int)strlen(p);
      int n = f.prefix_full;
      while (n > 0 && p[n - 1] == ' ')
        n--;
      char *pre = arena_strndup(c->scratch, p, (size_t)n);
      if (!pre) {
        bi_error(c, "memory exhausted");
        return 1;
      }
      f.prefix = pre;
      f.prefix_len = n;
      break;
    }
    default: /* a digit */
      bi_error(c,
               "invalid option -- %c; -WIDTH is recognized only when it "
               "is the first\noption; use -w N instead",
               o);
      bi_try_help(c);
      return 1;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  f.max_width = FM_WIDTH;
  if (width_opt && parse_width(c, width_opt, FM_MAXCHARS / 2, &f.max_width))
    return 1;
  if (goal_opt) {
    if (parse_width(c, goal_opt, f.max_width, &f.goal))
      return 1;
    if (!width_opt)
      f.max_width = f.goal + 10;
  } else {
    f.goal = f.max_width * (2 * (100 - FM_LEEWAY) + 1) / 200;
  }
  f.para = mem_alloc(c->m, FM_MAXCHARS);
  f.word = mem_alloc(c->m, FM_MAXWORDS * sizeof *f.word);
  if (!f.para || !f.word) {
    mem_free(c->m, f.para);
    mem_free(c->m, f.word);
    bi_error(c, "memory exhausted");
    return 1;
  }
  writer w;
  wr_init(&w, c->out);
  f.w = &w;
  int status = 0;
  static char *dash[] = {"-", NULL};
  char **names = g.noperands ? g.operands : dash;
  int n = g.noperands ? g.noperands : 1;
  for (int i = 0; i < n && !f.stop; i++) {
    int err = 0;
    stream *s = bi_open_read(c, names[i], &err);
    if (!s) {
      if (err == EISDIR) {
        bi_error(c, "read error");
      } else {
        wr_flush(&w);
        bi_error(c, "cannot open %s for reading: %s", tu_quote(c, names[i]),
                 bi_strerror(err));
      }
      status = 1;
      continue;
    }
    fmt_stream(&f, s);
    stream_unref(s);
    if (f.rerr == ECANCELED || w.err)
      break;
    if (f.rerr) {
      wr_flush(&w);
      if (f.rerr == EISDIR)
        bi_error(c, "read error");
      else
        bi_error(c, "%s: %s", names[i], bi_strerror(f.rerr));
      status = 1;
    }
  }
  mem_free(c->m, f.para);
  mem_free(c->m, f.word);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
