/*
 * output.c - printing an edit script the way GNU diff does: normal
 * ("2c2"), context (-c), unified (-u) and side by side (-y).
 *
 * Context and unified output group changes into hunks: two changes share a
 * hunk when fewer than 2*CONTEXT+1 unchanged lines separate them (CONTEXT
 * when the second is ignorable under -B). A hunk whose changes are all
 * ignorable is not printed.
 */
#include <string.h>

#include "builtins/text/diff/diff.h"

typedef struct out {
  bi_ctx *c;
  const df_opts *o;
  writer *w;
  df_file *f[2];
  long fn_last_search, fn_last_match; /* -p: where the search stopped */
} out;

static void put_line(out *x, int f, long i, const char *prefix) {
  const df_file *d = x->f[f];
  const char *p = d->data + d->ls[i];
  size_t n = d->ls[i + 1] - d->ls[i];
  wr_puts(x->w, prefix);
  wr_write(x->w, p, n);
  if (i == d->n - 1 && d->nonl)
    wr_puts(x->w, "\n\\ No newline at end of file\n");
}

/* Whether every line of change ch is blank (-B). */
static int change_ignorable(const df_opts *o, df_file *f[2],
                            const df_change *ch) {
  if (!o->ign_blank)
    return 0;
  for (long i = 0; i < ch->deleted; i++)
    if (!df_blank_line(o, f[0], ch->line0 + i))
      return 0;
  for (long i = 0; i < ch->inserted; i++)
    if (!df_blank_line(o, f[1], ch->line1 + i))
      return 0;
  return 1;
}

/* ---- normal ------------------------------------------------------------- */

static void put_range(out *x, long a, long b) {
  /* a..b 0-based inclusive; an empty range names the line before */
  if (b <= a)
    wr_printf(x->w, "%ld", b + 1);
  else
    wr_printf(x->w, "%ld,%ld", a + 1, b + 1);
}

static void print_normal(out *x, const df_script *s) {
  for (size_t k = 0; k < s->n && !x->w->err; k++) {
    const df_change *ch = &s->v[k];
    if (ch->ignore)
      continue;
    if (!ch->deleted) {
      wr_printf(x->w, "%lda", ch->line0);
    } else {
      put_range(x, ch->line0, ch->line0 + ch->deleted - 1);
      wr_putc(x->w, ch->inserted ? 'c' : 'd');
    }
    if (!ch->inserted)
      wr_printf(x->w, "%ld", ch->line1);
    else
      put_range(x, ch->line1, ch->line1 + ch->inserted - 1);
    wr_putc(x->w, '\n');
    for (long i = 0; i < ch->deleted; i++)
      put_line(x, 0, ch->line0 + i, "< ");
    if (ch->deleted && ch->inserted)
      wr_puts(x->w, "---\n");
    for (long i = 0; i < ch->inserted; i++)
      put_line(x, 1, ch->line1 + i, "> ");
    if ((k & 255) == 0 && budget_poll(x->c->bud))
      break;
  }
}

/* ---- hunks -------------------------------------------------------------- */

/* The last change of the hunk that starts with change k. */
static size_t hunk_end(const out *x, const df_script *s, size_t k) {
  long ctx = x->o->context;
  for (;;) {
    const df_change *ch = &s->v[k];
    long top0 = ch->line0 + ch->deleted;
    if (k + 1 == s->n)
      return k;
    const df_change *nx = &s->v[k + 1];
    long thresh = nx->ignore ? ctx : 2 * ctx + 1;
    if (nx->line0 - top0 >= thresh)
      return k;
    k++;
  }
}

static int is_func_line(const char *p, size_t n) {
  return n && (((*p | 32) >= 'a' && (*p | 32) <= 'z') || *p == '$' ||
               *p == '_');
}

/* -p: the nearest line above `line` that starts like a function. */
static void print_function(out *x, long line) {
  const df_file *d = x->f[0];
  long i = line, last = x->fn_last_search;
  long found = -1;
  x->fn_last_search = i;
  while (last <= --i) {
    const char *p = d->data + d->ls[i];
    size_t n = d->ls[i + 1] - d->ls[i];
    if (is_func_line(p, n) && *p != '\n') {
      x->fn_last_match = i;
      found = i;
      break;
    }
  }
  if (found < 0)
    found = x->fn_last_match;
  if (found < 0)
    return;
  const char *p = d->data + d->ls[found];
  size_t n = d->ls[found + 1] - d->ls[found];
  if (n && p[n - 1] == '\n')
    n--;
  size_t i0 = 0, j;
  while (i0 < n && strchr(" \t\v\f\r", p[i0]))
    i0++;
  for (j = i0; j < i0 + 40 && j < n; j++)
    ;
  while (j > i0 && strchr(" \t\v\f\r", p[j - 1]))
    j--;
  wr_putc(x->w, ' ');
  wr_write(x->w, p + i0, j - i0);
}

static void unified_range(out *x, long a, long b) {
  /* a..b 0-based inclusive */
  long ta = a + 1, tb = b + 1;
  if (tb <= ta)
    wr_printf(x->w, tb < ta ? "%ld,0" : "%ld", tb);
  else
    wr_printf(x->w, "%ld,%ld", ta, tb - ta + 1);
}

static void print_hunk(out *x, const df_script *s, size_t k0, size_t k1) {
  const df_opts *o = x->o;
  int any = 0, old = 0, new = 0;
  for (size_t k = k0; k <= k1; k++) {
    if (s->v[k].ignore)
      continue;
    any = 1;
  }
  if (!any)
    return;
  for (size_t k = k0; k <= k1; k++) {
    old |= s->v[k].deleted > 0;
    new |= s->v[k].inserted > 0;
  }
  long ctx = o->context;
  long first0 = s->v[k0].line0 - ctx, first1 = s->v[k0].line1 - ctx;
  if (first0 < 0)
    first0 = 0;
  if (first1 < 0)
    first1 = 0;
  long last0 = s->v[k1].line0 + s->v[k1].deleted - 1;
  long last1 = s->v[k1].line1 + s->v[k1].inserted - 1;
  last0 = last0 < x->f[0]->n - ctx ? last0 + ctx : x->f[0]->n - 1;
  last1 = last1 < x->f[1]->n - ctx ? last1 + ctx : x->f[1]->n - 1;
  if (o->style == DF_UNIFIED) {
    wr_puts(x->w, "@@ -");
    unified_range(x, first0, last0);
    wr_puts(x->w, " +");
    unified_range(x, first1, last1);
    wr_puts(x->w, " @@");
    if (o->show_c_func)
      print_function(x, first0);
    wr_putc(x->w, '\n');
    long i = first0, j = first1;
    size_t k = k0;
    while (i <= last0 || j <= last1) {
      if (k <= k1 && i == s->v[k].line0) {
        const df_change *ch = &s->v[k];
        for (long t = 0; t < ch->deleted; t++)
          put_line(x, 0, i++, "-");
        for (long t = 0; t < ch->inserted; t++)
          put_line(x, 1, j++, "+");
        k++;
        continue;
      }
      put_line(x, 0, i, o->initial_tab ? "\t" : " ");
      i++;
      j++;
    }
    return;
  }
  /* context */
  wr_puts(x->w, "***************");
  if (o->show_c_func)
    print_function(x, first0);
  wr_puts(x->w, "\n*** ");
  put_range(x, first0, last0);
  wr_puts(x->w, " ****\n");
  if (old) {
    size_t k = k0;
    for (long i = first0; i <= last0;) {
      if (k <= k1 && i == s->v[k].line0) {
        const df_change *ch = &s->v[k];
        const char *pre = ch->inserted ? "! " : "- ";
        for (long t = 0; t < ch->deleted; t++)
          put_line(x, 0, i++, pre);
        k++;
        continue;
      }
      put_line(x, 0, i++, "  ");
    }
  }
  wr_puts(x->w, "--- ");
  put_range(x, first1, last1);
  wr_puts(x->w, " ----\n");
  if (new) {
    size_t k = k0;
    for (long j = first1; j <= last1;) {
      if (k <= k1 && j == s->v[k].line1) {
        const df_change *ch = &s->v[k];
        const char *pre = ch->deleted ? "! " : "+ ";
        for (long t = 0; t < ch->inserted; t++)
          put_line(x, 1, j++, pre);
        k++;
        continue;
      }
      put_line(x, 1, j++, "  ");
    }
  }
}

/* ---- side by side ------------------------------------------------------- */

/* Column width of each half and where the right one starts, as GNU
 * computes them from the total width. */
static void side_geometry(int width, int *half, int *off) {
  int t = 8;
  int w = width;
  int h = (w - 1) / 2; /* ignoring the gutter */
  int hw = (w + t - 1) / t * t;
  (void)hw;
  /* GNU: off = (width + tabsize - 1) / tabsize * tabsize ... computed as
   * half of the width rounded to a tab stop, gutter included */
  int o = (w >> 1) + 1 - ((w >> 1) + 1) % t;
  if (o < 0)
    o = 0;
  (void)h;
  int hl = o - 2 < 0 ? 0 : o - 2; /* 1-char sep plus a space */
  int rw = w - o;
  if (hl > rw)
    hl = rw;
  *half = hl;
  *off = o;
}

/* Write text of one side into at most `cols` columns; returns the column
 * reached. Tabs advance to the next multiple of 8. */
static int put_cols(out *x, const char *p, size_t n, int from, int cols) {
  int col = from;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '\n')
      break;
    if (ch == '\t') {
      int to = (col / 8 + 1) * 8;
      if (to > from + cols)
        break;
      if (x->o->expand_tabs)
        for (; col < to; col++)
          wr_putc(x->w, ' ');
      else {
        wr_putc(x->w, '\t');
        col = to;
      }
      continue;
    }
    if (ch == '\b' || ch == '\r' || ch == '\f' || ch == '\v') {
      wr_putc(x->w, ch);
      continue;
    }
    if (col + 1 > from + cols)
      break;
    wr_putc(x->w, ch);
    if ((ch & 0xC0) != 0x80)
      col++;
  }
  return col;
}

static void pad_to(out *x, int col, int to) {
  if (x->o->expand_tabs) {
    for (; col < to; col++)
      wr_putc(x->w, ' ');
    return;
  }
  while (col < to) {
    int nt = (col / 8 + 1) * 8;
    if (nt <= to) {
      wr_putc(x->w, '\t');
      col = nt;
    } else {
      wr_putc(x->w, ' ');
      col++;
    }
  }
}

static void side_line(out *x, long i, long j, char sep) {
  int half, off;
  side_geometry(x->o->width, &half, &off);
  int col = 0;
  if (i >= 0) {
    const df_file *d = x->f[0];
    col = put_cols(x, d->data + d->ls[i], d->ls[i + 1] - d->ls[i], 0, half);
  }
  if (sep == ' ' && j < 0) {
    wr_putc(x->w, '\n');
    return;
  }
  if (j < 0 && sep == '<') {
    pad_to(x, col, half + 1);
    wr_puts(x->w, "<\n");
    return;
  }
  pad_to(x, col, half + 1);
  wr_putc(x->w, sep);
  if (j >= 0) {
    const df_file *d = x->f[1];
    size_t n = d->ls[j + 1] - d->ls[j];
    const char *p = d->data + d->ls[j];
    int empty = n == 0 || (n == 1 && *p == '\n');
    if (!empty) {
      pad_to(x, half + 2, off);
      put_cols(x, p, n, off, x->o->width - off);
    }
  }
  wr_putc(x->w, '\n');
}

static void print_side(out *x, const df_script *s) {
  long i = 0, j = 0;
  for (size_t k = 0; k <= s->n && !x->w->err; k++) {
    long l0 = k < s->n ? s->v[k].line0 : x->f[0]->n;
    while (i < l0) {
      if (!x->o->suppress_common) {
        if (x->o->left_column)
          side_line(x, i, -1, '(');
        else
          side_line(x, i, j, ' ');
      }
      i++;
      j++;
      if ((i & 1023) == 0 && budget_poll(x->c->bud))
        return;
    }
    if (k == s->n)
      break;
    const df_change *ch = &s->v[k];
    long t = 0;
    for (; t < ch->deleted && t < ch->inserted; t++)
      side_line(x, i++, j++, '|');
    for (; t < ch->deleted; t++)
      side_line(x, i++, -1, '<');
    for (; t < ch->inserted; t++)
      side_line(x, -1, j++, '>');
  }
}

int df_print(bi_ctx *c, const df_opts *o, writer *w, df_file *a, df_file *b,
             const df_script *s) {
  out x = {c, o, w, {a, b}, 0, -1};
  if (o->ign_blank)
    for (size_t k = 0; k < s->n; k++)
      ((df_change *)s->v)[k].ignore = change_ignorable(o, x.f, &s->v[k]);
  switch (o->style) {
  case DF_NORMAL:
    print_normal(&x, s);
    break;
  case DF_SIDE:
    print_side(&x, s);
    break;
  default:
    for (size_t k = 0; k < s->n && !w->err;) {
      size_t e = hunk_end(&x, s, k);
      print_hunk(&x, s, k, e);
      k = e + 1;
      if (budget_poll(c->bud))
        break;
    }
  }
  return w->err ? -1 : 0;
}
