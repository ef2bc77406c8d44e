/*
 * nametab.h - lookup by name in a constant table sorted by name.
 *
 * Meant for the command tables, which are searched for every simple command
 * and mostly miss: a hash probe is cheaper there than a bisection of strcmp
 * calls. The index is built on first use; a thread that finds another one
 * building it bisects instead, so no thread ever reads a half-built index.
 *
 * Each entry of the table must begin with its name (a `const char *`
 * first member); the entries are sorted by strcmp of those names.
 *
 *   NAMETAB(by_name, table, NTABLE, 128);
 *   const thing *t = nametab_find(&by_name, name);
 */
#ifndef VSH_CORE_NAMETAB_H
#define VSH_CORE_NAMETAB_H

#include <stdatomic.h>
#include <stddef.h>

typedef struct nametab {
  const void *entries; /* the first entry */
  size_t size;         /* bytes from one entry to the next */
  size_t n;            /* fewer than 255 entries */
  unsigned char *slot; /* the index: entry number + 1, 0 for a free slot */
  size_t nslots;       /* a power of two, at least twice n */
  atomic_int state;    /* 0 unbuilt, 1 being built, 2 ready */
} nametab;

/* The entry named name, or NULL. */
const void *nametab_find(nametab *t, const char *name);

/* Defines `static nametab var` over the first count entries of the array
 * table, with an index of `slots` slots (checked at compile time: a power
 * of two, at least twice count). */
#define NAMETAB(var, table, count, slots)                                      \
  _Static_assert((count) < 255 && (count)*2 <= (slots) &&                      \
                     ((slots) & ((slots)-1)) == 0,                             \
                 "nametab index too small");                                   \
  static unsigned char var##_slot[slots];                                      \
  static nametab var = {.entries = (table),                                    \
                        .size = sizeof(table)[0],                              \
                        .n = (count),                                          \
                        .slot = var##_slot,                                    \
                        .nslots = (slots)}

#endif
