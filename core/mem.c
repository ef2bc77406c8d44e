#include "mem.h"

#include <stdlib.h>
#include <string.h>

/* Headroom above the soft cap so unwinding after a limit can still work. */
#define MEM_RESERVE ((size_t)8 << 20)

struct mem {
  vsh_alloc_fn fn;
  void *ud;
  size_t cap; /* soft cap; 0 = none */
  _Atomic size_t used;
  _Atomic long refs;
};

/* 16 bytes keep the payload aligned for any scalar type. */
typedef union hdr {
  size_t size;
  max_align_t align;
} hdr;

static void *libc_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

mem *mem_new(vsh_alloc_fn fn, void *ud, size_t cap) {
  if (!fn)
    fn = libc_alloc;
  mem *m = fn(ud, NULL, 0, sizeof *m);
  if (!m)
    return NULL;
  m->fn = fn;
  m->ud = ud;
  m->cap = cap;
  atomic_init(&m->used, 0);
  atomic_init(&m->refs, 1);
  return m;
}

mem *mem_ref(mem *m) {
  atomic_fetch_add(&m->refs, 1);
  return m;
}

void mem_unref(mem *m) {
  if (!m)
    return;
  if (atomic_fetch_sub(&m->refs, 1) == 1)
    m->fn(m->ud, m, sizeof *m, 0);
}

static int would_exceed(mem *m, size_t add) {
  if (!m->cap)
    return 0;
  size_t used = atomic_load(&m->used);
  return used + add > m->cap + MEM_RESERVE || used + add < used;
}

void *mem_alloc(mem *m, size_t n) {
  if (n > SIZE_MAX - sizeof(hdr) || would_exceed(m, n))
    return NULL;
  hdr *h = m->fn(m->ud, NULL, 0, n + sizeof(hdr));
  if (!h)
    return NULL;
  h->size = n;
  atomic_fetch_add(&m->used, n + sizeof(hdr));
  return h + 1;
}

void *mem_calloc(mem *m, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    return NULL;
  void *p = mem_alloc(m, n * size);
  if (p)
    memset(p, 0, n * size);
  return p;
}

void *mem_realloc(mem *m, void *p, size_t n) {
  if (!p)
    return mem_alloc(m, n);
  if (n == 0) {
    mem_free(m, p);
    return NULL;
  }
  hdr *h = (hdr *)p - 1;
  size_t old = h->size;
  if (n > SIZE_MAX - sizeof(hdr) || (n > old && would_exceed(m, n - old)))
    return NULL;
  hdr *nh = m->fn(m->ud, h, old + sizeof(hdr), n + sizeof(hdr));
  if (!nh)
    return NULL;
  nh->size = n;
  if (n > old)
    atomic_fetch_add(&m->used, n - old);
  else
    atomic_fetch_sub(&m->used, old - n);
  return nh + 1;
}

void mem_free(mem *m, void *p) {
  if (!p)
    return;
  hdr *h = (hdr *)p - 1;
  size_t n = h->size;
  atomic_fetch_sub(&m->used, n + sizeof(hdr));
  m->fn(m->ud, h, n + sizeof(hdr), 0);
}

char *mem_strdup(mem *m, const char *s) {
  return mem_strndup(m, s, strlen(s));
}

char *mem_strndup(mem *m, const char *s, size_t n) {
  char *p = mem_alloc(m, n + 1);
  if (!p)
    return NULL;
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

void *mem_memdup(mem *m, const void *src, size_t n) {
  void *p = mem_alloc(m, n ? n : 1);
  if (p && n)
    memcpy(p, src, n);
  return p;
}

size_t mem_used(const mem *m) {
  return atomic_load(&((mem *)m)->used);
}
size_t mem_cap(const mem *m) {
  return m->cap;
}
void mem_set_cap(mem *m, size_t cap) {
  m->cap = cap;
}
int mem_over_cap(const mem *m) {
  return m->cap && mem_used(m) > m->cap;
}
