/* table.c - the command table built from list.h. */
#include <stdatomic.h>
#include <string.h>

#include "builtins/builtin.h"

#define X(name, id, flags)                                                     \
  int bi_##id(bi_ctx *c);                                                      \
  extern const char bi_usage_##id[];                                           \
  extern const char bi_help_##id[];
#include "builtins/list.h"
#undef X

static const bi_def table[] = {
#define X(name, id, flags) {name, bi_##id, flags, bi_usage_##id, bi_help_##id},
#include "builtins/list.h"
#undef X
    {NULL, NULL, 0, NULL, NULL}};

/* Command lookup runs for every simple command, so it is a hash probe
 * rather than a bisection of strcmp calls. The index (slot -> entry + 1) is
 * built on first use; a thread that finds another one building it just
 * bisects, so no thread ever reads a half-built index. */
#define NTABLE (sizeof table / sizeof table[0] - 1)
#define HSLOTS 256 /* a power of two, more than twice the entries */
_Static_assert(NTABLE < 255 && NTABLE * 2 <= HSLOTS, "builtin hash too small");

static unsigned char hindex[HSLOTS];
static atomic_int hstate; /* 0 unbuilt, 1 building, 2 ready */

static unsigned name_hash(const char *s) {
  unsigned h = 5381;
  for (; *s; s++)
    h = h * 33 + (unsigned char)*s;
  return h;
}

static const bi_def *bisect(const char *name) {
  /* The table is small (about a hundred entries) and sorted: bisect. */
  size_t lo = 0, hi = NTABLE;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(table[mid].name, name);
    if (c == 0)
      return &table[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

const bi_def *bi_lookup(const char *name) {
  int st = atomic_load_explicit(&hstate, memory_order_acquire);
  if (st != 2) {
    int expect = 0;
    if (st != 0 || !atomic_compare_exchange_strong(&hstate, &expect, 1))
      return bisect(name);
    for (size_t i = 0; i < NTABLE; i++) {
      unsigned h = name_hash(table[i].name) & (HSLOTS - 1);
      while (hindex[h])
        h = (h + 1) & (HSLOTS - 1);
      hindex[h] = (unsigned char)(i + 1);
    }
    atomic_store_explicit(&hstate, 2, memory_order_release);
  }
  for (unsigned h = name_hash(name) & (HSLOTS - 1); hindex[h];
       h = (h + 1) & (HSLOTS - 1)) {
    const bi_def *d = &table[hindex[h] - 1];
    if (d->name[0] == name[0] && strcmp(d->name, name) == 0)
      return d;
  }
  return NULL;
}

const bi_def *bi_all(size_t *n) {
  *n = NTABLE;
  return table;
}
