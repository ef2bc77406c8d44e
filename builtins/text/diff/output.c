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
  if (x->o->initial_tab) {
    /* -T: the marker, then a tab ("< x" -> "<\tx", " x" -> "\tx") */
    if (prefix[0] != ' ' || prefix[1])
      wr_putc(x->w, prefix[0]);
    wr_putc(x->w, '\t');
  } else {
    wr_puts(x->w, prefix);
  }
  if (x->o->expand_tabs && memchr(p, '\t', n)) {
    /* -t: tabs become spaces, columns counted from the text's start */
    size_t col = 0;
    for (size_t i = 0; i < n; i++) {
      if (p[i] == '\t') {
        for (size_t to = (col / 8 + 1) * 8; col < to; col++)
          wr_putc(x->w, ' ');
      } else {
        wr_putc(x->w, p[i]);
        col += ((unsigned char)p[i] & 0xC0) != 0x80;
      }
    }
  } else {
    wr_write(x->w, p, n);
  }
  if (i == d->n - 1 && d->nonl)
    wr_puts(x->w, "\n\\ No newline at end of file\n");
}

/* Whether every line of change ch is blank (-B). */
static int change_ignorable(const df_opts *o, df_file *f[2],
                            const df_change *ch) {
  if (!o->ign_blank && !o->ignore_re)
    return 0;
  for (long i = 0; i < ch->deleted; i++)
    if (!df_trivial_line(o, f[0], ch->line0 + i))
      return 0;
  for (long i = 0; i < ch->inserted; i++)
    if (!df_trivial_line(o, f[1], ch->line1 + i))
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

/* ---- ed script (-e) ----------------------------------------------------- */

/* The changes last to first, so that line numbers stay valid as ed
 * applies them; a line that is just "." is written as ".." and fixed up
 * with s/.// after leaving insert mode. */
static void print_ed(out *x, const df_script *s) {
  for (size_t k = s->n; k-- > 0 && !x->w->err;) {
    const df_change *ch = &s->v[k];
    if (ch->ignore)
      continue;
    if (!ch->deleted)
      wr_printf(x->w, "%lda\n", ch->line0);
    else {
      put_range(x, ch->line0, ch->line0 + ch->deleted - 1);
      wr_puts(x->w, ch->inserted ? "c\n" : "d\n");
    }
    if (!ch->inserted)
      continue;
    int insert_mode = 1;
    const df_file *d = x->f[1];
    for (long i = ch->line1; i < ch->line1 + ch->inserted; i++) {
      const char *p = d->data + d->ls[i];
      size_t n = d->ls[i + 1] - d->ls[i];
      if (!insert_mode) {
        wr_puts(x->w, "a\n");
        insert_mode = 1;
      }
      if (n == 2 && p[0] == '.' && p[1] == '\n') {
        wr_puts(x->w, "..\n.\ns/.//\n");
        insert_mode = 0;
      } else {
        /* no "No newline" marker: ed cannot express it */
        wr_write(x->w, p, n);
        if (!n || p[n - 1] != '\n')
          wr_putc(x->w, '\n');
      }
    }
    if (insert_mode)
      wr_puts(x->w, ".\n");
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
  return n &&
         (((*p | 32) >= 'a' && (*p | 32) <= 'z') || *p == '$' || *p == '_');
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
    size_t body = n && p[n - 1] == '\n' ? n - 1 : n;
    if (x->o->func_re ? df_re_match(x->o->func_re, p, body)
                      : is_func_line(p, n) && *p != '\n') {
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
      put_line(x, 0, i, " ");
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

/* Tabs (unless -t) then spaces from column `from` to column `to`. */
static size_t tab_from_to(out *x, size_t from, size_t to) {
  if (!x->o->expand_tabs)
    for (size_t tab = from + 8 - from % 8; tab <= to; tab += 8) {
      wr_putc(x->w, '\t');
      from = tab;
    }
  while (from++ < to)
    wr_putc(x->w, ' ');
  return to;
}

/* One half: the line's text cut at out_bound columns; returns the column
 * reached. */
static size_t half_line(out *x, int f, long i, size_t indent,
                        size_t out_bound) {
  const df_file *d = x->f[f];
  const char *p = d->data + d->ls[i], *e = d->data + d->ls[i + 1];
  size_t in_pos = 0, out_pos = 0;
  while (p < e) {
    unsigned char ch = (unsigned char)*p++;
    switch (ch) {
    case '\t': {
      size_t spaces = 8 - in_pos % 8;
      if (in_pos == out_pos) {
        size_t stop = out_pos + spaces;
        if (x->o->expand_tabs) {
          if (out_bound < stop)
            stop = out_bound;
          for (; out_pos < stop; out_pos++)
            wr_putc(x->w, ' ');
        } else if (stop < out_bound) {
          out_pos = stop;
          wr_putc(x->w, '\t');
        }
      }
      in_pos += spaces;
      break;
    }
    case '\r':
      wr_putc(x->w, ch);
      tab_from_to(x, 0, indent);
      in_pos = out_pos = 0;
      break;
    case '\b':
      if (in_pos != 0 && --in_pos < out_pos)
        wr_putc(x->w, ch);
      break;
    case '\n':
      return out_pos;
    default:
      if (ch >= 0x80) {
        /* a UTF-8 character: one column, its bytes together */
        const char *s0 = p - 1;
        while (p < e && ((unsigned char)*p & 0xC0) == 0x80)
          p++;
        if (++in_pos <= out_bound) {
          out_pos = in_pos;
          wr_write(x->w, s0, (size_t)(p - s0));
        }
      } else if (ch < 0x20 || ch == 0x7f) {
        wr_putc(x->w, ch);
      } else if (++in_pos <= out_bound) {
        out_pos = in_pos;
        wr_putc(x->w, ch);
      }
    }
  }
  return out_pos;
}

static int ends_nl(const df_file *d, long i) {
  return d->data[d->ls[i + 1] - 1] == '\n';
}

static void side_line(out *x, long i, long j, char sep) {
  size_t w = (size_t)x->o->width, t = x->o->expand_tabs ? 1 : 8;
  size_t off = (w + t + 3) / (2 * t) * t;
  size_t hw = off >= 3 ? off - 3 : 0;
  if (w - off < hw || off > w)
    hw = off > w ? 0 : w - off;
  size_t c2o = hw ? off : w;
  size_t col = 0;
  int nl = 0;
  if (i >= 0) {
    nl |= ends_nl(x->f[0], i);
    col = half_line(x, 0, i, 0, hw);
  }
  if (sep != ' ') {
    col = tab_from_to(x, col, (hw + c2o - 1) / 2) + 1;
    if (sep == '|' && nl != ends_nl(x->f[1], j))
      sep = nl ? '/' : '\\';
    wr_putc(x->w, sep);
  }
  if (j >= 0) {
    const df_file *d = x->f[1];
    nl |= ends_nl(d, j);
    if (d->data[d->ls[j]] != '\n') {
      col = tab_from_to(x, col, c2o);
      half_line(x, 1, j, col, hw);
    }
  }
  if (nl)
    wr_putc(x->w, '\n');
}

/* Lines from where the last printed change ended up to lim0/lim1, pairwise
 * as common lines; what is left on one side (lines of ignored changes)
 * gets ')' or '(' as GNU writes it. */
static int side_common(out *x, long *i0, long *i1, long lim0, long lim1) {
  if (!x->o->suppress_common) {
    if (!x->o->left_column) {
      for (; *i0 < lim0 && *i1 < lim1; (*i0)++, (*i1)++) {
        side_line(x, *i0, *i1, ' ');
        if ((*i0 & 1023) == 0 && budget_poll(x->c->bud))
          return -1;
      }
      for (; *i1 < lim1; (*i1)++)
        side_line(x, -1, *i1, ')');
    }
    for (; *i0 < lim0; (*i0)++) {
      side_line(x, *i0, -1, '(');
      if ((*i0 & 1023) == 0 && budget_poll(x->c->bud))
        return -1;
    }
  }
  *i0 = lim0;
  *i1 = lim1;
  return 0;
}

static void print_side(out *x, const df_script *s) {
  long i = 0, j = 0;
  for (size_t k = 0; k < s->n && !x->w->err; k++) {
    const df_change *ch = &s->v[k];
    if (ch->ignore)
      continue;
    if (side_common(x, &i, &j, ch->line0, ch->line1))
      return;
    long t = 0;
    for (; t < ch->deleted && t < ch->inserted; t++)
      side_line(x, i++, j++, '|');
    for (long u = t; u < ch->inserted; u++)
      side_line(x, -1, j++, '>');
    for (; t < ch->deleted; t++)
      side_line(x, i++, -1, '<');
  }
  side_common(x, &i, &j, x->f[0]->n, x->f[1]->n);
}

int df_print(bi_ctx *c, const df_opts *o, writer *w, df_file *a, df_file *b,
             const df_script *s) {
  out x = {c, o, w, {a, b}, 0, -1};
  if (o->ign_blank || o->ignore_re)
    for (size_t k = 0; k < s->n; k++)
      ((df_change *)s->v)[k].ignore = change_ignorable(o, x.f, &s->v[k]);
  switch (o->style) {
  case DF_NORMAL:
    print_normal(&x, s);
    break;
  case DF_SIDE:
    print_side(&x, s);
    break;
  case DF_ED:
    print_ed(&x, s);
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
