/*
 * arena.h - bump allocation with marks, for data that dies together (an
 * exec's AST, expanded words, temporary strings), after dash's stack marks.
 * Chunks come from the sandbox allocator, so arena memory counts against the
 * cap. arena_release(a, mark) frees everything allocated after the mark.
 */
#ifndef VSH_CORE_ARENA_H
#define VSH_CORE_ARENA_H

#include <stddef.h>

#include "mem.h"

typedef struct arena_chunk arena_chunk;

typedef struct arena {
  mem *m;
  arena_chunk *cur;
  size_t total;       /* bytes in chunks */
  arena_chunk *spare; /* the last chunk released, kept for reuse */
} arena;

typedef struct arena_mark {
  arena_chunk *chunk;
  size_t used;
} arena_mark;

void arena_init(arena *a, mem *m);
void arena_destroy(arena *a);
void *arena_alloc(arena *a, size_t n); /* 16-byte aligned; NULL on cap */
void *arena_calloc(arena *a, size_t n);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);
void *arena_memdup(arena *a, const void *p, size_t n);
arena_mark arena_save(arena *a);
void arena_release(arena *a, arena_mark mk);

#endif
