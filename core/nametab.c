/* nametab.c - lookup by name in a constant sorted table (see nametab.h). */
#include "nametab.h"

#include <string.h>

static const void *entry(const nametab *t, size_t i) {
  return (const char *)t->entries + i * t->size;
}

/* An entry begins with its name. */
static const char *name_of(const nametab *t, size_t i) {
  return *(const char *const *)entry(t, i);
}

static unsigned name_hash(const char *s) {
  unsigned h = 5381;
  for (; *s; s++)
    h = h * 33 + (unsigned char)*s;
  return h;
}

static const void *bisect(const nametab *t, const char *name) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(name_of(t, mid), name);
    if (c == 0)
      return entry(t, mid);
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

const void *nametab_find(nametab *t, const char *name) {
  size_t mask = t->nslots - 1;
  int st = atomic_load_explicit(&t->state, memory_order_acquire);
  if (st != 2) {
    int expect = 0;
    if (st != 0 || !atomic_compare_exchange_strong(&t->state, &expect, 1))
      return bisect(t, name);
    for (size_t i = 0; i < t->n; i++) {
      size_t h = name_hash(name_of(t, i)) & mask;
      while (t->slot[h])
        h = (h + 1) & mask;
      t->slot[h] = (unsigned char)(i + 1);
    }
    atomic_store_explicit(&t->state, 2, memory_order_release);
  }
  for (size_t h = name_hash(name) & mask; t->slot[h]; h = (h + 1) & mask) {
    const char *n = name_of(t, t->slot[h] - 1u);
    if (n[0] == name[0] && strcmp(n, name) == 0)
      return entry(t, t->slot[h] - 1u);
  }
  return NULL;
}
