#include "arena.h"

#include <string.h>

#define ARENA_MIN_CHUNK 8192
#define ARENA_ALIGN 16

struct arena_chunk {
  arena_chunk *prev;
  size_t size, used;
  _Alignas(16) unsigned char data[];
};

void arena_init(arena *a, mem *m) {
  a->m = m;
  a->cur = NULL;
  a->total = 0;
  a->spare = NULL;
}

void arena_destroy(arena *a) {
  while (a->cur) {
    arena_chunk *p = a->cur->prev;
    mem_free(a->m, a->cur);
    a->cur = p;
  }
  mem_free(a->m, a->spare);
  a->spare = NULL;
  a->total = 0;
}

void *arena_alloc(arena *a, size_t n) {
  n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  if (!n)
    n = ARENA_ALIGN;
  arena_chunk *c = a->cur;
  if ((!c || c->size - c->used < n) && a->spare && a->spare->size >= n) {
    /* A loop that saves a mark at a chunk's end and releases it every
     * iteration would otherwise allocate and free a chunk each time. */
    c = a->spare;
    a->spare = NULL;
    c->prev = a->cur;
    c->used = 0;
    a->cur = c;
    a->total += c->size;
  } else if (!c || c->size - c->used < n) {
    /* Chunks grow with the arena, and their total size is a power of two
     * (up to 256 KiB) so the allocator's block cache can reuse them. */
    size_t total = a->total / 2;
    if (total < ARENA_MIN_CHUNK)
      total = ARENA_MIN_CHUNK;
    if (total > ((size_t)256 << 10))
      total = (size_t)256 << 10;
    size_t p2 = ARENA_MIN_CHUNK;
    while (p2 < total)
      p2 *= 2;
    total = p2;
    size_t sz = total - sizeof *c;
    if (sz < n)
      sz = n;
    c = mem_alloc(a->m, sizeof *c + sz);
    if (!c)
      return NULL;
    c->prev = a->cur;
    c->size = sz;
    c->used = 0;
    a->cur = c;
    a->total += sz;
  }
  void *p = c->data + c->used;
  c->used += n;
  return p;
}

void *arena_calloc(arena *a, size_t n) {
  void *p = arena_alloc(a, n);
  if (p)
    memset(p, 0, n);
  return p;
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  if (!p)
    return NULL;
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

void *arena_memdup(arena *a, const void *src, size_t n) {
  void *p = arena_alloc(a, n);
  if (p && n)
    memcpy(p, src, n);
  return p;
}

arena_mark arena_save(arena *a) {
  arena_mark mk = {a->cur, a->cur ? a->cur->used : 0};
  return mk;
}

void arena_release(arena *a, arena_mark mk) {
  while (a->cur && a->cur != mk.chunk) {
    arena_chunk *p = a->cur->prev;
    a->total -= a->cur->size;
    /* Keep one chunk (the smaller one: the big ones are rare). */
    if (!a->spare) {
      a->spare = a->cur;
    } else if (a->cur->size < a->spare->size) {
      mem_free(a->m, a->spare);
      a->spare = a->cur;
    } else {
      mem_free(a->m, a->cur);
    }
    a->cur = p;
  }
  if (a->cur)
    a->cur->used = mk.used;
}
