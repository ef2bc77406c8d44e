/*
 * analyze.c - the edit script between two files, as GNU diff finds it.
 *
 * Lines identical byte for byte at both ends are set aside first (keeping
 * as many of them as the output shows as context, as GNU does, since the
 * lines kept take part in the statistics below). The lines in between get
 * equivalence classes (equal under -i -b -w -E -Z means same class). Lines
 * that have no partner in the other file, and some runs of lines that
 * match too many others, are then "discarded": marked changed without
 * being searched. The rest goes to Myers's O(ND) search for the middle
 * snake, splitting the problem until it is trivial; a search that grows
 * past a cost cap settles for a good split instead of the best one, as
 * GNU's does, which keeps huge inputs fast. Finally each run of changes is
 * slid to the place GNU puts it (merged with neighbours when it can, else
 * as far down as it goes, else aligned with a run in the other file).
 *
 * Every step follows GNU's choices so that which of several minimal
 * scripts is printed agrees with it. Every loop polls the budget.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "builtins/text/diff/diff.h"

int df_lines(bi_ctx *c, df_file *f) {
  long n = 0;
  for (const char *p = f->data, *e = f->data + f->len;
       p < e && (p = memchr(p, '\n', (size_t)(e - p))); p++)
    n++;
  f->nonl = f->len && f->data[f->len - 1] != '\n';
  if (f->nonl)
    n++;
  f->ls = mem_alloc(c->m, (size_t)(n + 1) * sizeof *f->ls);
  if (!f->ls)
    return -1;
  long i = 0;
  size_t off = 0;
  while (off < f->len) {
    f->ls[i++] = off;
    const char *nl = memchr(f->data + off, '\n', f->len - off);
    off = nl ? (size_t)(nl - f->data) + 1 : f->len;
    if ((i & 4095) == 0 && budget_poll(c->bud))
      break;
  }
  f->ls[i] = f->len;
  f->n = i;
  return 0;
}

/* ---- equivalence classes ------------------------------------------------ */

typedef struct key {
  const char *p;
  size_t n;
} key;

static int is_ws(int ch) {
  return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f' || ch == '\r';
}

/* The line as the options compare it, in b (or a view of the raw bytes). */
static key line_key(const df_opts *o, const df_file *f, long i, buf *b) {
  const char *p = f->data + f->ls[i];
  size_t n = f->ls[i + 1] - f->ls[i];
  int nl = n && p[n - 1] == '\n';
  if (nl)
    n--;
  int ws_trail = o->ign_all_ws || o->ign_ws_change || o->ign_trail_ws;
  /* A last line without its newline differs from the same text with one,
   * except in ed scripts, which cannot tell them apart. */
  if (o->style == DF_ED)
    nl = 0;
  if (!o->icase && !ws_trail && !o->ign_tab)
    return (key){p, n + nl}; /* the newline (or its absence) counts */
  buf_clear(b);
  size_t col = 0;
  for (size_t k = 0; k < n; k++) {
    unsigned char ch = (unsigned char)p[k];
    if (o->ign_tab && ch == '\t') {
      size_t to = (col / 8 + 1) * 8;
      for (; col < to; col++)
        buf_putc(b, ' ');
      continue;
    }
    col++;
    if (o->icase)
      ch = (unsigned char)tolower(ch);
    buf_putc(b, ch);
  }
  if (ws_trail || o->ign_all_ws) {
    /* white space rules, applied to the expanded, folded text */
    char *s = b->data;
    size_t m = b->len, w = 0;
    if (!s)
      m = 0;
    for (size_t k = 0; k < m; k++) {
      if (is_ws((unsigned char)s[k])) {
        if (o->ign_all_ws)
          continue;
        if (o->ign_ws_change) {
          size_t e = k;
          while (e < m && is_ws((unsigned char)s[e]))
            e++;
          s[w++] = ' ';
          k = e - 1;
          continue;
        }
      }
      s[w++] = s[k];
    }
    while (w && is_ws((unsigned char)s[w - 1]))
      w--;
    b->len = w;
  } else if (nl) {
    buf_putc(b, '\n');
  }
  return (key){b->data ? b->data : "", b->len};
}

int df_blank_line(const df_opts *o, const df_file *f, long i) {
  const char *p = f->data + f->ls[i], *e = f->data + f->ls[i + 1];
  if (e > p && e[-1] == '\n')
    e--;
  if (o->ign_all_ws || o->ign_ws_change || o->ign_trail_ws) {
    while (p < e && (is_ws((unsigned char)*p)))
      p++;
  }
  return p == e;
}

int df_trivial_line(const df_opts *o, const df_file *f, long i) {
  if (o->ign_blank && df_blank_line(o, f, i))
    return 1;
  if (o->ignore_re) {
    const char *p = f->data + f->ls[i];
    size_t n = f->ls[i + 1] - f->ls[i];
    if (n && p[n - 1] == '\n')
      n--;
    return df_re_match(o->ignore_re, p, n);
  }
  return 0;
}

/* A hash of the key, eight bytes at a time. */
static uint64_t hash_key(key k) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ k.n, w;
  size_t i = 0;
  for (; i + 8 <= k.n; i += 8) {
    memcpy(&w, k.p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  w = 0;
  memcpy(&w, k.p + i, k.n - i);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

typedef struct cls {
  uint64_t h;
  const char *p; /* the key: raw bytes, or a copy in the scratch arena */
  size_t n;
} cls;

typedef struct ctx {
  bi_ctx *c;
  const df_opts *o;
  long *fd, *bd; /* the two searches' diagonals, offset by the middle */
  long too_expensive;
  const long *xv, *yv; /* undiscarded classes */
  int stopped;
} ctx;

typedef struct part {
  long xmid, ymid;
  int lo_min, hi_min;
} part;

/* ---- the middle snake --------------------------------------------------- */

static void diag(ctx *x, long xoff, long xlim, long yoff, long ylim,
                 int minimal, part *pt) {
  long *fd = x->fd, *bd = x->bd;
  const long *xv = x->xv, *yv = x->yv;
  long dmin = xoff - ylim, dmax = xlim - yoff;
  long fmid = xoff - yoff, bmid = xlim - ylim;
  long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
  int odd = (fmid - bmid) & 1;
  fd[fmid] = xoff;
  bd[bmid] = xlim;
  for (long cost = 1;; cost++) {
    if ((cost & 63) == 0 && budget_poll(x->c->bud)) {
      x->stopped = 1;
      pt->xmid = xoff;
      pt->ymid = yoff;
      pt->lo_min = pt->hi_min = 0;
      return;
    }
    if (fmin > dmin)
      fd[--fmin - 1] = -1;
    else
      ++fmin;
    if (fmax < dmax)
      fd[++fmax + 1] = -1;
    else
      --fmax;
    for (long d = fmax; d >= fmin; d -= 2) {
      long tlo = fd[d - 1], thi = fd[d + 1];
      long x0 = tlo < thi ? thi : tlo + 1, xx, yy;
      for (xx = x0, yy = x0 - d; xx < xlim && yy < ylim && xv[xx] == yv[yy];
           xx++, yy++)
        ;
      fd[d] = xx;
      if (odd && bmin <= d && d <= bmax && bd[d] <= xx) {
        pt->xmid = xx;
        pt->ymid = yy;
        pt->lo_min = pt->hi_min = 1;
        return;
      }
    }
    if (bmin > dmin)
      bd[--bmin - 1] = LONG_MAX;
    else
      ++bmin;
    if (bmax < dmax)
      bd[++bmax + 1] = LONG_MAX;
    else
      --bmax;
    for (long d = bmax; d >= bmin; d -= 2) {
      long tlo = bd[d - 1], thi = bd[d + 1];
      long x0 = tlo < thi ? tlo : thi - 1, xx, yy;
      for (xx = x0, yy = x0 - d;
           xoff < xx && yoff < yy && xv[xx - 1] == yv[yy - 1]; xx--, yy--)
        ;
      bd[d] = xx;
      if (!odd && fmin <= d && d <= fmax && xx <= fd[d]) {
        pt->xmid = xx;
        pt->ymid = yy;
        pt->lo_min = pt->hi_min = 1;
        return;
      }
    }
    if (minimal)
      continue;
    if (cost >= x->too_expensive) {
      /* Give up on the best split: take the furthest point reached. */
      long fxybest = -1, fxbest = 0, bxybest = LONG_MAX, bxbest = 0;
      for (long d = fmax; d >= fmin; d -= 2) {
        long xx = fd[d] < xlim ? fd[d] : xlim, yy = xx - d;
        if (ylim < yy) {
          xx = ylim + d;
          yy = ylim;
        }
        if (fxybest < xx + yy) {
          fxybest = xx + yy;
          fxbest = xx;
        }
      }
      for (long d = bmax; d >= bmin; d -= 2) {
        long xx = xoff > bd[d] ? xoff : bd[d], yy = xx - d;
        if (yy < yoff) {
          xx = yoff + d;
          yy = yoff;
        }
        if (xx + yy < bxybest) {
          bxybest = xx + yy;
          bxbest = xx;
        }
      }
      if ((xlim + ylim) - bxybest < fxybest - (xoff + yoff)) {
        pt->xmid = fxbest;
        pt->ymid = fxybest - fxbest;
        pt->lo_min = 1;
        pt->hi_min = 0;
      } else {
        pt->xmid = bxbest;
        pt->ymid = bxybest - bxbest;
        pt->lo_min = 0;
        pt->hi_min = 1;
      }
      return;
    }
  }
}

typedef struct job {
  long xoff, xlim, yoff, ylim;
  int minimal;
} job;

/* Mark the changes between xv[xoff..xlim) and yv[yoff..ylim). */
static int compareseq(ctx *x, long xoff, long xlim, long yoff, long ylim,
                      int minimal, char *ch0, const long *ri0, char *ch1,
                      const long *ri1) {
  size_t cap = 64, top = 0;
  job *st = mem_alloc(x->c->m, cap * sizeof *st);
  if (!st)
    return -1;
  st[top++] = (job){xoff, xlim, yoff, ylim, minimal};
  while (top) {
    job j = st[--top];
    if (x->stopped)
      break;
    while (j.xoff < j.xlim && j.yoff < j.ylim && x->xv[j.xoff] == x->yv[j.yoff])
      j.xoff++, j.yoff++;
    while (j.xoff < j.xlim && j.yoff < j.ylim &&
           x->xv[j.xlim - 1] == x->yv[j.ylim - 1])
      j.xlim--, j.ylim--;
    if (j.xoff == j.xlim) {
      while (j.yoff < j.ylim)
        ch1[ri1[j.yoff++]] = 1;
    } else if (j.yoff == j.ylim) {
      while (j.xoff < j.xlim)
        ch0[ri0[j.xoff++]] = 1;
    } else {
      part pt;
      diag(x, j.xoff, j.xlim, j.yoff, j.ylim, j.minimal, &pt);
      if (x->stopped)
        break;
      if (top + 2 > cap) {
        job *nst = mem_realloc(x->c->m, st, cap * 2 * sizeof *st);
        if (!nst) {
          mem_free(x->c->m, st);
          return -1;
        }
        st = nst;
        cap *= 2;
      }
      /* the high half is pushed first: the low half is done first */
      st[top++] = (job){pt.xmid, j.xlim, pt.ymid, j.ylim, pt.hi_min};
      st[top++] = (job){j.xoff, pt.xmid, j.yoff, pt.ymid, pt.lo_min};
    }
  }
  mem_free(x->c->m, st);
  return x->stopped ? -2 : 0;
}

/* ---- discarding lines that only confuse the search ---------------------- */

static void discard_confusing(const df_opts *o, long n[2], long *eq[2],
                              long *cnt[2], char *disc[2], char *chg[2],
                              long *und[2], long *ri[2], long nund[2]) {
  for (int f = 0; f < 2; f++) {
    long end = n[f], many = 5, tem = end / 64;
    long *counts = cnt[1 - f];
    while ((tem = tem >> 2) > 0)
      many *= 2;
    for (long i = 0; i < end; i++) {
      long nm = counts[eq[f][i]];
      disc[f][i] = nm == 0 ? 1 : nm > many ? 2 : 0;
    }
  }
  for (int f = 0; f < 2; f++) {
    long end = n[f];
    char *d = disc[f];
    for (long i = 0; i < end; i++) {
      if (d[i] == 2) {
        d[i] = 0;
        continue;
      }
      if (d[i] == 0)
        continue;
      long j, provisional = 0;
      for (j = i; j < end; j++) {
        if (d[j] == 0)
          break;
        if (d[j] == 2)
          provisional++;
      }
      while (j > i && d[j - 1] == 2)
        d[--j] = 0, provisional--;
      long length = j - i;
      if (provisional * 4 > length) {
        while (j > i)
          if (d[--j] == 2)
            d[j] = 0;
      } else {
        long consec, minimum = 1, t = length >> 2;
        while (0 < (t >>= 2))
          minimum <<= 1;
        minimum++;
        for (j = 0, consec = 0; j < length; j++) {
          if (d[i + j] != 2)
            consec = 0;
          else if (minimum == ++consec)
            j -= consec;
          else if (minimum < consec)
            d[i + j] = 0;
        }
        for (j = 0, consec = 0; j < length; j++) {
          if (j >= 8 && d[i + j] == 1)
            break;
          if (d[i + j] == 2)
            consec = 0, d[i + j] = 0;
          else if (d[i + j] == 0)
            consec = 0;
          else
            consec++;
          if (consec == 3)
            break;
        }
        i += length - 1;
        for (j = 0, consec = 0; j < length; j++) {
          if (j >= 8 && d[i - j] == 1)
            break;
          if (d[i - j] == 2)
            consec = 0, d[i - j] = 0;
          else if (d[i - j] == 0)
            consec = 0;
          else
            consec++;
          if (consec == 3)
            break;
        }
      }
    }
  }
  for (int f = 0; f < 2; f++) {
    long j = 0;
    for (long i = 0; i < n[f]; i++) {
      if (o->minimal || disc[f][i] == 0) {
        und[f][j] = eq[f][i];
        ri[f][j++] = i;
      } else {
        chg[f][i] = 1;
      }
    }
    nund[f] = j;
  }
}

/* ---- sliding runs of changes -------------------------------------------- */

static void shift_boundaries(long n[2], long *eq[2], char *chg[2]) {
  for (int f = 0; f < 2; f++) {
    char *changed = chg[f], *other = chg[1 - f];
    const long *equivs = eq[f];
    long i = 0, j = 0, i_end = n[f];
    for (;;) {
      long runlength, start, corresponding;
      while (i < i_end && !changed[i]) {
        while (other[j++])
          ;
        i++;
      }
      if (i == i_end)
        break;
      start = i;
      while (changed[++i])
        ;
      while (other[j])
        j++;
      do {
        runlength = i - start;
        while (start && equivs[start - 1] == equivs[i - 1]) {
          changed[--start] = 1;
          changed[--i] = 0;
          while (changed[start - 1])
            start--;
          while (other[--j])
            ;
        }
        corresponding = other[j - 1] ? i : i_end;
        while (i != i_end && equivs[start] == equivs[i]) {
          changed[start++] = 0;
          changed[i++] = 1;
          while (changed[i])
            i++;
          while (other[++j])
            corresponding = i;
        }
      } while (runlength != i - start);
      while (corresponding < i) {
        changed[--start] = 1;
        changed[--i] = 0;
        while (other[--j])
          ;
      }
    }
  }
}

/* ---- the whole comparison ----------------------------------------------- */

/* Whether line ia of a and ib of b are the same bytes; in ed scripts a
 * last line's missing newline does not count (GNU adds it on reading). */
static int same_line(const df_file *a, long ia, const df_file *b, long ib,
                     int ed) {
  size_t la = a->ls[ia + 1] - a->ls[ia], lb = b->ls[ib + 1] - b->ls[ib];
  if (ed) {
    la -= la && a->data[a->ls[ia] + la - 1] == '\n';
    lb -= lb && b->data[b->ls[ib] + lb - 1] == '\n';
  }
  return la == lb && !memcmp(a->data + a->ls[ia], b->data + b->ls[ib], la);
}

static long lines_prefix(const df_file *a, const df_file *b, int ed) {
  long k = 0, m = a->n < b->n ? a->n : b->n;
  while (k < m && same_line(a, k, b, k, ed))
    k++;
  return k;
}

static long lines_suffix(const df_file *a, const df_file *b, long pfx, int ed) {
  long k = 0, m = (a->n < b->n ? a->n : b->n) - pfx;
  while (k < m && same_line(a, a->n - 1 - k, b, b->n - 1 - k, ed))
    k++;
  return k;
}

int df_compare(bi_ctx *c, const df_opts *o, df_file *a, df_file *b,
               df_script *s) {
  s->v = NULL;
  s->n = 0;
  long horizon = o->style == DF_CONTEXT || o->style == DF_UNIFIED
                     ? (o->context > 0 ? o->context : 0)
                     : 0;
  if (o->horizon > horizon)
    horizon = o->horizon;
  int ed = o->style == DF_ED;
  long pfx = lines_prefix(a, b, ed);
  long sfx = lines_suffix(a, b, pfx, ed);
  long lo = pfx > horizon ? pfx - horizon : 0;
  long keep = sfx > horizon ? sfx - horizon : 0;
  long n[2] = {a->n - keep - lo, b->n - keep - lo};
  const df_file *fv[2] = {a, b};
  long tot = n[0] + n[1];
  int rc = -1;
  /* one block for everything the search needs */
  long *eq[2], *cnt[2], *und[2], *ri[2];
  char *chg[2], *disc[2];
  size_t nclass_cap = 64;
  while (nclass_cap < (size_t)tot * 2)
    nclass_cap <<= 1;
  /* slots hold class ids (0: free); the classes themselves are in cl */
  uint32_t *tab = mem_calloc(c->m, nclass_cap, sizeof *tab);
  cls *cl = mem_alloc(c->m, ((size_t)tot + 1) * sizeof *cl);
  long *lv =
      mem_alloc(c->m, ((size_t)tot * 4 + (size_t)tot + 2 + 8) * sizeof(long));
  char *cv = mem_calloc(c->m, (size_t)tot * 2 + 8, 1);
  long *diags = mem_alloc(c->m, ((size_t)tot + 3) * 2 * sizeof(long));
  buf kb;
  buf_init(&kb, c->m);
  arena_mark mk = arena_save(c->scratch);
  if (!tab || !cl || !lv || !cv || !diags)
    goto out;
  eq[0] = lv;
  eq[1] = eq[0] + n[0];
  und[0] = eq[1] + n[1];
  und[1] = und[0] + n[0];
  ri[0] = und[1] + n[1];
  ri[1] = ri[0] + n[0];
  long *cntv = ri[1] + n[1]; /* counts per class: tot + 2 entries */
  memset(cntv, 0, ((size_t)tot + 2) * sizeof(long));
  chg[0] = cv + 1;
  chg[1] = cv + n[0] + 3;
  disc[0] = cv + tot + 4;
  disc[1] = disc[0] + n[0];
  /* classes: numbered from 1 in order of first appearance */
  long nclasses = 0;
  /* Without options a line's key is its bytes: hash every line first, then
   * look the classes up with the table slots fetched ahead (the table is
   * larger than the caches; this hides most of the waiting). */
  int raw = !o->icase && !o->ign_all_ws && !o->ign_ws_change &&
            !o->ign_trail_ws && !o->ign_tab;
  if (raw)
    for (int f = 0; f < 2; f++)
      for (long i = 0; i < n[f]; i++) {
        if ((i & 4095) == 0 && budget_poll(c->bud)) {
          rc = -2;
          goto out;
        }
        key k = line_key(o, fv[f], lo + i, &kb);
        eq[f][i] = (long)hash_key(k);
      }
  for (int f = 0; f < 2; f++) {
    for (long i = 0; i < n[f]; i++) {
      if ((i & 1023) == 0 && budget_poll(c->bud)) {
        rc = -2;
        goto out;
      }
      key k = line_key(o, fv[f], lo + i, &kb);
      if (kb.oom)
        goto out;
      uint64_t h;
      if (raw) {
        h = (uint64_t)eq[f][i];
        if (i + 8 < n[f]) {
          uint64_t ha = (uint64_t)eq[f][i + 8];
          __builtin_prefetch(&tab[(size_t)ha & (nclass_cap - 1)]);
        }
      } else {
        h = hash_key(k);
      }
      size_t slot = (size_t)h & (nclass_cap - 1);
      for (;;) {
        uint32_t id = tab[slot];
        if (!id) {
          cls *e = &cl[++nclasses];
          e->h = h;
          e->n = k.n;
          if (k.p == kb.data && k.n) {
            char *cp = arena_alloc(c->scratch, k.n);
            if (!cp)
              goto out;
            memcpy(cp, k.p, k.n);
            e->p = cp;
          } else {
            e->p = k.p;
          }
          tab[slot] = (uint32_t)nclasses;
          eq[f][i] = nclasses;
          break;
        }
        const cls *e = &cl[id];
        if (e->h == h && e->n == k.n && !memcmp(e->p, k.p, k.n)) {
          eq[f][i] = id;
          break;
        }
        slot = (slot + 1) & (nclass_cap - 1);
      }
    }
  }
  /* counts per file: the upper half of cntv is not needed, use two
   * arrays in the diags block before the search needs it */
  cnt[0] = diags;
  cnt[1] = diags + nclasses + 1;
  memset(diags, 0, ((size_t)tot + 3) * 2 * sizeof(long));
  for (int f = 0; f < 2; f++)
    for (long i = 0; i < n[f]; i++)
      cnt[f][eq[f][i]]++;
  long nund[2];
  discard_confusing(o, n, eq, cnt, disc, chg, und, ri, nund);
  (void)cntv;
  ctx x = {c, o, NULL, NULL, 0, und[0], und[1], 0};
  long diagn = nund[0] + nund[1] + 3;
  x.fd = diags + nund[1] + 1;
  x.bd = diags + diagn + nund[1] + 1;
  x.too_expensive = 1;
  for (long dd = diagn; dd != 0; dd >>= 2)
    x.too_expensive <<= 1;
  if (x.too_expensive < 4096)
    x.too_expensive = 4096;
  if (o->minimal)
    x.too_expensive = LONG_MAX;
  rc = compareseq(&x, 0, nund[0], 0, nund[1], o->minimal, chg[0], ri[0], chg[1],
                  ri[1]);
  if (rc)
    goto out;
  shift_boundaries(n, eq, chg);
  /* the changes, in order */
  size_t cap = 16;
  s->v = mem_alloc(c->m, cap * sizeof *s->v);
  if (!s->v) {
    rc = -1;
    goto out;
  }
  long i0 = 0, i1 = 0;
  while (i0 < n[0] || i1 < n[1]) {
    if (chg[0][i0] || chg[1][i1]) {
      long l0 = i0, l1 = i1;
      while (chg[0][i0])
        i0++;
      while (chg[1][i1])
        i1++;
      if (s->n == cap) {
        df_change *nv = mem_realloc(c->m, s->v, cap * 2 * sizeof *nv);
        if (!nv) {
          rc = -1;
          goto out;
        }
        s->v = nv;
        cap *= 2;
      }
      s->v[s->n++] = (df_change){l0 + lo, l1 + lo, i0 - l0, i1 - l1, 0};
    }
    i0++;
    i1++;
  }
  rc = 0;
out:
  if (rc && s->v) {
    mem_free(c->m, s->v);
    s->v = NULL;
    s->n = 0;
  }
  buf_free(&kb);
  arena_release(c->scratch, mk);
  mem_free(c->m, tab);
  mem_free(c->m, cl);
  mem_free(c->m, lv);
  mem_free(c->m, cv);
  mem_free(c->m, diags);
  return rc;
}
