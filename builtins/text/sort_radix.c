/*
 * sort_radix.c - sort's order when it is plain bytewise over whole lines
 * (no keys, no ordering options; sort, sort -r, sort -u, sort -s): a
 * most-significant-byte radix sort, linear in the bytes it must look at.
 *
 * Lines that compare equal under this order are the same bytes, so the
 * order among them cannot be seen and the sort need not be stable. Buckets
 * wait on an explicit stack (never recursion: lines may share a prefix
 * millions of bytes long); small buckets finish by insertion.
 */
#include <stdint.h>
#include <string.h>

#include "builtins/text/sort_radix.h"

#define SMALL 32

typedef struct seg {
  size_t lo, hi, depth;
  int in_tmp;
} seg;

/* Lines from depth on, compared as bytes, then by length. */
static int tail_cmp(const sr_line *a, const sr_line *b, size_t d) {
  size_t la = a->len - d, lb = b->len - d;
  int c = memcmp(a->p + d, b->p + d, la < lb ? la : lb);
  if (c)
    return c;
  return la < lb ? -1 : la != lb;
}

static void insertion(sr_line *v, size_t n, size_t d) {
  for (size_t i = 1; i < n; i++) {
    sr_line t = v[i];
    size_t j = i;
    while (j > 0 && tail_cmp(&v[j - 1], &t, d) > 0) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = t;
  }
}

/* Radix sort of v[0..n) ascending, tmp as scratch; 1 when poll stopped
 * it, -1 out of memory. A bucket's lines are in v or, just after being
 * distributed, in tmp (src); a bucket leaves tmp when it is finished. */
static int radix(mem *m, sr_line *v, sr_line *tmp, size_t n,
                 int (*poll)(void *ud), void *ud) {
  if (n < 2)
    return 0;
  if (n <= SMALL) {
    insertion(v, n, 0);
    return 0;
  }
  unsigned short *key = mem_alloc(m, n * sizeof *key);
  /* Pending buckets are disjoint and hold more than SMALL lines each. */
  size_t cap = n / SMALL + 2;
  seg *st = mem_alloc(m, cap * sizeof *st);
  if (!key || !st) {
    mem_free(m, key);
    mem_free(m, st);
    return -1;
  }
  size_t top = 0, work = 0;
  st[top++] = (seg){0, n, 0, 0};
  int rc = 0;
  while (top) {
    seg s = st[--top];
    sr_line *src = s.in_tmp ? tmp : v, *dst = s.in_tmp ? v : tmp;
    size_t cnt = s.hi - s.lo;
    work += cnt;
    if (work >= 65536) {
      work = 0;
      if (poll && poll(ud)) {
        rc = 1;
        break;
      }
    }
    /* 0: the line ends here (sorts first); 1 + byte otherwise. */
    size_t count[257] = {0};
    for (size_t i = s.lo; i < s.hi; i++) {
      const sr_line *l = &src[i];
      unsigned short k =
          l->len > s.depth ? (unsigned short)(1 + (unsigned char)l->p[s.depth])
                           : 0;
      key[i] = k;
      count[k]++;
    }
    if (count[key[s.lo]] == cnt) {
      /* one bucket: nothing moves */
      if (key[s.lo] == 0) {
        if (s.in_tmp)
          memcpy(v + s.lo, tmp + s.lo, cnt * sizeof *v);
      } else {
        s.depth++;
        st[top++] = s;
      }
      continue;
    }
    size_t pos[257];
    size_t at = s.lo;
    for (int k = 0; k < 257; k++) {
      pos[k] = at;
      at += count[k];
    }
    for (size_t i = s.lo; i < s.hi; i++)
      dst[pos[key[i]]++] = src[i];
    /* Buckets from the last so that the first is sorted next. */
    for (int k = 256; k >= 0; k--) {
      size_t hi = pos[k], lo = hi - count[k];
      if (!count[k])
        continue;
      if (k == 0 || count[k] <= SMALL) {
        if (k)
          insertion(dst + lo, count[k], s.depth + 1);
        if (dst != v)
          memcpy(v + lo, dst + lo, count[k] * sizeof *v);
        continue;
      }
      st[top++] = (seg){lo, hi, s.depth + 1, dst == tmp};
    }
  }
  mem_free(m, key);
  mem_free(m, st);
  return rc;
}

/* ---- equal lines grouped first
 * Input to sort is often made of few distinct lines (sort | uniq -c).
 * Those are counted in a hash table in one pass over the lines in input
 * order; only the distinct ones are sorted, and each is then repeated as
 * often as it came. When distinct lines turn out to be more than an
 * eighth of all, the table is dropped and every line is radix sorted. */

typedef struct group {
  sr_line l;
  size_t count;
} group;

static uint64_t line_hash(const char *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  memcpy(&w, p, n);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 32);
}

/* Double the table and place the ng groups in it again. */
static int grow(mem *m, uint32_t **tab, size_t *slots, const group *g,
                size_t ng) {
  size_t ns = *slots * 2;
  uint32_t *t = mem_calloc(m, ns, sizeof *t);
  if (!t)
    return -1;
  for (size_t i = 0; i < ng; i++) {
    size_t at = (size_t)line_hash(g[i].l.p, g[i].l.len) & (ns - 1);
    while (t[at])
      at = (at + 1) & (ns - 1);
    t[at] = (uint32_t)(i + 1);
  }
  mem_free(m, *tab);
  *tab = t;
  *slots = ns;
  return 0;
}

/* 1 grouped and sorted into v, 0 too many distinct lines (v untouched),
 * -1 out of memory, 2 stopped by poll. */
static int grouped(mem *m, sr_line *v, sr_line *tmp, size_t n,
                   int (*poll)(void *ud), void *ud) {
  /* The table and the groups start small and double as groups come. */
  size_t limit = n / 8, slots = 256, gcap = 64;
  uint32_t *tab = mem_calloc(m, slots, sizeof *tab); /* group index + 1 */
  group *g = mem_alloc(m, gcap * sizeof *g);
  if (!tab || !g) {
    mem_free(m, tab);
    mem_free(m, g);
    return -1;
  }
  size_t ng = 0;
  int rc = 1;
  for (size_t i = 0; i < n && rc == 1; i++) {
    if ((i & 65535) == 65535 && poll && poll(ud)) {
      rc = 2;
      break;
    }
    const sr_line *l = &v[i];
    size_t at = (size_t)line_hash(l->p, l->len) & (slots - 1);
    for (;;) {
      uint32_t x = tab[at];
      if (!x) {
        if (ng == limit) {
          rc = 0;
          break;
        }
        if (ng == gcap) {
          group *ng2 = mem_realloc(m, g, 2 * gcap * sizeof *g);
          if (!ng2) {
            rc = -1;
            break;
          }
          g = ng2;
          gcap *= 2;
        }
        g[ng].l = *l;
        g[ng].count = 1;
        tab[at] = (uint32_t)++ng;
        if (2 * ng > slots && grow(m, &tab, &slots, g, ng)) {
          rc = -1;
          break;
        }
        break;
      }
      group *e = &g[x - 1];
      if (e->l.len == l->len && !memcmp(e->l.p, l->p, l->len)) {
        e->count++;
        break;
      }
      at = (at + 1) & (slots - 1);
    }
  }
  if (rc != 1) {
    mem_free(m, tab);
    mem_free(m, g);
    return rc;
  }
  /* the distinct lines, sorted (tmp holds them and the scratch) */
  sr_line *u = tmp, *ut = tmp + ng;
  for (size_t i = 0; i < ng; i++)
    u[i] = g[i].l;
  int r = radix(m, u, ut, ng, poll, ud);
  if (r) {
    mem_free(m, tab);
    mem_free(m, g);
    return r < 0 ? -1 : 2;
  }
  /* each repeated as often as it came: its group is found again through
   * the table, by the address of its first copy */
  size_t k = n;
  for (size_t i = ng; i-- > 0;) {
    size_t at = (size_t)line_hash(u[i].p, u[i].len) & (slots - 1);
    while (g[tab[at] - 1].l.p != u[i].p)
      at = (at + 1) & (slots - 1);
    size_t c = g[tab[at] - 1].count;
    /* filled from the end: u (in tmp) is not overwritten while read, as
     * v and tmp are apart */
    while (c--)
      v[--k] = u[i];
  }
  mem_free(m, tab);
  mem_free(m, g);
  return 1;
}

int sr_sort(mem *m, sr_line *v, sr_line *tmp, size_t n, int reverse,
            int (*poll)(void *ud), void *ud) {
  int rc = n >= 1024 ? grouped(m, v, tmp, n, poll, ud) : 0;
  if (rc == -1)
    return -1;
  if (rc == 2)
    return 1;
  if (rc == 0) {
    rc = radix(m, v, tmp, n, poll, ud);
    if (rc)
      return rc;
  }
  if (reverse)
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
      sr_line t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  return 0;
}
