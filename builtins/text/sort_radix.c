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
#include <string.h>

#include "builtins/text/sort_radix.h"

#define SMALL 32

typedef struct seg {
  size_t lo, hi, depth;
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

int sr_sort(mem *m, sr_line *v, sr_line *tmp, size_t n, int reverse,
            int (*poll)(void *ud), void *ud) {
  if (n < 2)
    return 0;
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
  st[top++] = (seg){0, n, 0};
  int rc = 0;
  while (top) {
    seg s = st[--top];
    size_t cnt = s.hi - s.lo;
    work += cnt;
    if (work >= 65536) {
      work = 0;
      if (poll && poll(ud)) {
        rc = 1;
        break;
      }
    }
    if (cnt <= SMALL) {
      insertion(v + s.lo, cnt, s.depth);
      continue;
    }
    /* 0: the line ends here (sorts first); 1 + byte otherwise. */
    size_t count[257] = {0};
    for (size_t i = s.lo; i < s.hi; i++) {
      const sr_line *l = &v[i];
      unsigned short k =
          l->len > s.depth ? (unsigned short)(1 + (unsigned char)l->p[s.depth])
                           : 0;
      key[i] = k;
      count[k]++;
    }
    if (count[0] == cnt)
      continue; /* all ended: equal */
    size_t pos[257];
    size_t at = s.lo;
    for (int k = 0; k < 257; k++) {
      pos[k] = at;
      at += count[k];
    }
    for (size_t i = s.lo; i < s.hi; i++)
      tmp[pos[key[i]]++] = v[i];
    memcpy(v + s.lo, tmp + s.lo, cnt * sizeof *v);
    /* Buckets from the last so that the first is sorted next (in place). */
    for (int k = 256; k >= 1; k--) {
      size_t hi = pos[k], lo = hi - count[k];
      if (count[k] < 2)
        continue;
      if (count[k] <= SMALL) {
        insertion(v + lo, count[k], s.depth + 1);
        continue;
      }
      st[top++] = (seg){lo, hi, s.depth + 1};
    }
  }
  mem_free(m, key);
  mem_free(m, st);
  if (!rc && reverse)
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
      sr_line t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  return rc;
}
