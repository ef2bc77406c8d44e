/*
 * search.c - selecting lines in a buffer and printing them as GNU grep.
 *
 * A file is seen through a window of complete lines (the whole file when
 * the stream hands its bytes over without copying, else chunks read from a
 * pipe). gr_scan walks from one selected line to the next: the matcher
 * finds the next matching line in the rest of the window (for -v, the
 * next line that does not match), and the lines in between are the "gap",
 * from which trailing (-A) and leading (-B) context come. Positions kept
 * across chunks are absolute (f->base + window offset).
 *
 * Output format, as GNU grep 3.8: [FILE SEP][LINENO SEP][OFFSET SEP][TAB]
 * LINE EOL, where SEP is ':' for selected lines and '-' for context, "--"
 * between non-adjacent groups when context was asked for (even -A0), and
 * with -T numbers padded to 19 columns and a tab before non-empty lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtins/search/grep/grep.h"

/* GNU's default GREP_COLORS: ms=01;31:mc=01;31:sl=:cx=:fn=35:ln=32:bn=32:se=36
 */
#define SGR_START "\33[%sm\33[K"
#define SGR_END "\33[m\33[K"

int gr_utf8_valid(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    /* ASCII runs, eight bytes at a time. */
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, u + i, 8);
      if (w & 0x8080808080808080ull)
        break;
      i += 8;
    }
    if (i >= n)
      break;
    unsigned c = u[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t len;
    uint32_t v, min;
    if ((c & 0xE0) == 0xC0)
      len = 2, v = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
      len = 3, v = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
      len = 4, v = c & 0x07, min = 0x10000;
    else
      return 0;
    if (i + len > n)
      return 0;
    for (size_t k = 1; k < len; k++) {
      if ((u[i + k] & 0xC0) != 0x80)
        return 0;
      v = (v << 6) | (u[i + k] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
      return 0;
    i += len;
  }
  return 1;
}

static int check_out(gr *g) {
  if (!g->w.err)
    return 0;
  g->stop = 1;
  g->status = g->w.err == ECANCELED ? 2 : bi_stream_status(g->w.err);
  return -1;
}

int gr_flush(gr *g) {
  if (g->w.err)
    return check_out(g);
  wr_flush(&g->w);
  return check_out(g);
}

static void sgr(gr *g, const char *code) {
  wr_printf(&g->w, SGR_START, code);
}

static void put_sep(gr *g, char sep) {
  if (g->color) {
    sgr(g, "36");
    wr_putc(&g->w, sep);
    wr_puts(&g->w, SGR_END);
  } else {
    wr_putc(&g->w, sep);
  }
}

static void put_name(gr *g, const char *name) {
  if (g->color)
    sgr(g, "35");
  wr_puts(&g->w, name);
  if (g->color)
    wr_puts(&g->w, SGR_END);
}

static void put_num(gr *g, gr_file *f, uint64_t v) {
  char b[32];
  int k = snprintf(b, sizeof b, "%*" PRIu64, g->tabs ? f->numw : 1, v);
  if (g->color)
    sgr(g, "32");
  wr_write(&g->w, b, (size_t)k);
  if (g->color)
    wr_puts(&g->w, SGR_END);
}

/* Line number of the line starting at window offset ls. */
static uint64_t line_no(gr *g, gr_file *f, const char *s, size_t ls) {
  size_t p = f->ln_pos;
  uint64_t k = f->ln_no;
  while (p < ls) {
    const char *d = memchr(s + p, g->eol, ls - p);
    if (!d)
      break;
    k++;
    p = (size_t)(d - s) + 1;
  }
  f->ln_pos = ls;
  f->ln_no = k;
  return k + 1;
}

static void prefix(gr *g, gr_file *f, const char *s, size_t ls, uint64_t off,
                   char sep, int nonempty) {
  int any = 0;
  if (g->with_fname == 1) {
    put_name(g, f->name);
    if (g->nullname)
      wr_putc(&g->w, 0);
    else
      put_sep(g, sep);
    any = 1;
  }
  if (g->lineno) {
    put_num(g, f, line_no(g, f, s, ls));
    put_sep(g, sep);
    any = 1;
  }
  if (g->byteoff) {
    put_num(g, f, off);
    put_sep(g, sep);
    any = 1;
  }
  if (g->tabs && any && nonempty)
    wr_putc(&g->w, '\t');
}

static void group_sep(gr *g, gr_file *f, size_t ls) {
  if ((g->after >= 0 || g->before >= 0) && g->printed &&
      f->last_out != f->base + ls && g->group_sep) {
    if (g->color)
      sgr(g, "36");
    wr_puts(&g->w, g->group_sep);
    if (g->color)
      wr_puts(&g->w, SGR_END);
    wr_putc(&g->w, '\n');
  }
}

static size_t char_len(gr *g, const char *s, size_t n) {
  if (!g->utf8 || (unsigned char)s[0] < 0x80)
    return 1;
  size_t k = 1;
  while (k < n && k < 4 && ((unsigned char)s[k] & 0xC0) == 0x80)
    k++;
  return k;
}

/* The next non-empty match in line[0..n) at or after *from: 1 with it in
 * [*ms, *me), 0 when there is none. An empty match is stepped over by one
 * character, as GNU does. */
static int next_match(gr *g, const char *line, size_t n, size_t *from,
                      size_t *ms, size_t *me) {
  while (*from <= n && gr_match_in_line(&g->mt, line, n, *from, ms, me)) {
    if (*me != *ms)
      return 1;
    if (*ms >= n)
      break;
    *from = *ms + char_len(g, line + *ms, n - *ms);
  }
  return 0;
}

/* A match in the highlight color. */
static void highlight(gr *g, const char *p, size_t n) {
  sgr(g, "01;31");
  wr_write(&g->w, p, n);
  wr_puts(&g->w, SGR_END);
}

/* Line text with its matches highlighted. */
static void colored(gr *g, const char *line, size_t n) {
  size_t from = 0, done = 0, ms, me;
  while (next_match(g, line, n, &from, &ms, &me)) {
    wr_write(&g->w, line + done, ms - done);
    highlight(g, line + ms, me - ms);
    done = from = me;
  }
  wr_write(&g->w, line + done, n - done);
}

/* Print one line (selected: sep ':'; context: '-'). */
static int emit(gr *g, gr_file *f, const char *s, size_t ls, size_t le,
                char sep) {
  const char *line = s + ls;
  size_t n = le - ls;
  int matching = (sep == ':') != g->invert;
  if (g->only) {
    /* -o: the non-empty matches of selected lines, each on its own line;
     * context lines print nothing but still count as output. */
    if (sep == ':' && !g->invert) {
      size_t from = 0, ms, me;
      while (next_match(g, line, n, &from, &ms, &me)) {
        if (g->utf8 && g->binmode != GR_BIN_TEXT &&
            !gr_utf8_valid(line + ms, me - ms)) {
          f->bin_msg = 1;
          f->done = 1;
          return 0;
        }
        group_sep(g, f, ls);
        prefix(g, f, s, ls, f->base + ls + ms, sep, 1);
        if (g->color)
          highlight(g, line + ms, me - ms);
        else
          wr_write(&g->w, line + ms, me - ms);
        wr_putc(&g->w, g->eol);
        g->printed = 1;
        f->last_out = f->base + le + 1;
        from = me;
      }
    }
    f->last_out = f->base + le + 1;
    return check_out(g);
  }
  if (g->utf8 && g->binmode != GR_BIN_TEXT && !gr_utf8_valid(line, n)) {
    /* GNU: an encoding error in a line to print makes the file binary. */
    f->bin_msg = 1;
    f->done = 1;
    return 0;
  }
  group_sep(g, f, ls);
  prefix(g, f, s, ls, f->base + ls, sep, n > 0);
  if (g->color && matching)
    colored(g, line, n);
  else
    wr_write(&g->w, line, n);
  wr_putc(&g->w, g->eol);
  g->printed = 1;
  f->last_out = f->base + le + 1;
  if (g->line_buffered)
    wr_flush(&g->w);
  return check_out(g);
}

static size_t eol_at(gr *g, const char *s, size_t lim, size_t p) {
  const char *d = p < lim ? memchr(s + p, g->eol, lim - p) : NULL;
  return d ? (size_t)(d - s) : lim;
}

/* Context from the gap [f->gap, to): pending trailing lines, then (when a
 * selected line follows at `to`) up to -B leading lines. */
static int context(gr *g, gr_file *f, const char *s, size_t lim, size_t to,
                   int leading) {
  size_t p = f->gap;
  while (f->pending > 0 && p < to && !f->done) {
    size_t e = eol_at(g, s, lim, p);
    if (emit(g, f, s, p, e, '-'))
      return -1;
    f->pending--;
    p = e < lim ? e + 1 : lim;
  }
  f->gap = p;
  if (!leading || g->before <= 0 || p >= to || f->done)
    return 0;
  size_t q = to;
  for (int64_t k = 0; k < g->before && q > p; k++) {
    const char *d = q - 1 > p ? memrchr(s + p, g->eol, q - 1 - p) : NULL;
    q = d ? (size_t)(d - s) + 1 : p;
  }
  while (q < to && !f->done) {
    size_t e = eol_at(g, s, lim, q);
    if (emit(g, f, s, q, e, '-'))
      return -1;
    q = e < lim ? e + 1 : lim;
  }
  f->gap = to;
  return 0;
}

/* The matcher hit a limit: GNU grep reports it and exits 2, after the
 * lines printed so far. */
static int matcher_failed(gr *g, gr_file *f) {
  if (gr_flush(g))
    return -1;
  gr_match_error(&g->mt, g->c, f->name);
  g->stop = 1;
  g->status = 2;
  return -1;
}

int gr_scan(gr *g, gr_file *f, const char *s, size_t lim, size_t *posp) {
  size_t pos = *posp;
  int lines_out = !g->quiet && !g->list && !g->count;
  size_t nm_ls = 0, nm_le = 0; /* -v: the next matching line */
  int nm_valid = 0;
  while (pos < lim && !f->done && !g->stop) {
    if (f->maxed) {
      /* -m reached: only the trailing context is left. */
      if (context(g, f, s, lim, lim, 0))
        return -1;
      if (f->pending <= 0)
        f->done = 1;
      pos = lim;
      break;
    }
    size_t ls = lim, le = lim;
    int r;
    if (!g->invert) {
      r = gr_find_line(&g->mt, s, lim, pos, &ls, &le);
    } else {
      size_t p = pos;
      r = 0;
      while (p < lim) {
        if (!nm_valid || nm_ls < p) {
          if (!gr_find_line(&g->mt, s, lim, p, &nm_ls, &nm_le))
            nm_ls = nm_le = SIZE_MAX;
          nm_valid = 1;
        }
        if (nm_ls != p) {
          r = 1;
          ls = p;
          le = eol_at(g, s, lim, p);
          break;
        }
        p = nm_le < lim ? nm_le + 1 : lim;
      }
    }
    if (g->mt.err)
      return matcher_failed(g, f);
    if (!r) {
      if (lines_out && !f->binary && context(g, f, s, lim, lim, 0))
        return -1;
      pos = lim;
      break;
    }
    f->nsel++;
    g->matched = 1;
    if (g->quiet) {
      g->stop = 1;
      f->done = 1;
      break;
    }
    if (g->list) {
      f->done = 1;
      break;
    }
    if (f->binary && !g->count) {
      f->bin_msg = 1;
      f->done = 1;
      break;
    }
    if (lines_out) {
      if (context(g, f, s, lim, ls, 1))
        return -1;
      if (!f->done && emit(g, f, s, ls, le, ':'))
        return -1;
      if (g->mt.err) /* -o or --color looking for the matches */
        return matcher_failed(g, f);
      f->pending = g->after > 0 ? g->after : 0;
    }
    pos = le < lim ? le + 1 : lim;
    f->gap = pos;
    if (g->max_count >= 0 && f->nsel >= (uint64_t)g->max_count) {
      f->maxed = 1;
      if (!lines_out || f->pending <= 0)
        f->done = 1;
    }
  }
  *posp = pos;
  if (g->mt.err && !g->stop)
    return matcher_failed(g, f);
  return g->w.err ? check_out(g) : 0;
}

int gr_finish_file(gr *g, gr_file *f) {
  if (g->quiet)
    return 0;
  if (g->list) {
    if ((g->list == 1) == (f->nsel > 0)) {
      put_name(g, f->name);
      wr_putc(&g->w, g->nullname ? 0 : '\n');
    }
  } else if (g->count) {
    if (g->with_fname == 1) {
      put_name(g, f->name);
      if (g->nullname)
        wr_putc(&g->w, 0);
      else
        put_sep(g, ':');
    }
    wr_printf(&g->w, "%" PRIu64 "\n", f->nsel);
  }
  if (f->bin_msg) {
    /* GNU 3.8 reports this on stderr, after the lines printed so far. */
    if (gr_flush(g))
      return -1;
    bi_error(g->c, "%s: binary file matches", f->name);
  }
  if (g->line_buffered)
    wr_flush(&g->w);
  return check_out(g);
}
