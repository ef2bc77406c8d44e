#include "mem.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Headroom above the soft cap so unwinding after a limit can still work. */
#define MEM_RESERVE ((size_t)8 << 20)

/*
 * Freed blocks whose payload is a power of two from 4 KiB to 256 KiB (pipe
 * rings, reader buffers, arena chunks, doubling byte buffers) are kept in a
 * small per-allocator cache. Without it every exec would grow the host heap
 * and give it back (glibc trims its top above 128 KiB free), costing system
 * calls and page faults that dwarf the work of a tiny pipeline. Other sizes
 * (file contents, for one) are never rounded, so nothing is wasted on them.
 * Cached blocks do not count as used.
 */
#define CLASS_MIN_SHIFT 12
#define CLASS_MAX_SHIFT 18
#define NCLASSES (CLASS_MAX_SHIFT - CLASS_MIN_SHIFT + 1)
#define CACHE_MAX ((size_t)2 << 20)

typedef struct free_blk {
  struct free_blk *next;
} free_blk;

struct mem {
  vsh_alloc_fn fn;
  void *ud;
  size_t cap; /* soft cap; 0 = none */
  _Atomic size_t used;
  _Atomic long refs;
  _Atomic int failed;   /* an allocation was refused (mem_failed) */
  pthread_mutex_t lock; /* the cache: forks may free from other threads */
  free_blk *cache[NCLASSES];
  size_t cached;
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
  atomic_init(&m->failed, 0);
  pthread_mutex_init(&m->lock, NULL);
  memset(m->cache, 0, sizeof m->cache);
  m->cached = 0;
  return m;
}

/* Total bytes of a block holding n payload bytes, and its cache class
 * (-1: not cached). */
static size_t block_total(size_t n, int *cls) {
  *cls = -1;
  if (n >= ((size_t)1 << CLASS_MIN_SHIFT) &&
      n <= ((size_t)1 << CLASS_MAX_SHIFT) && (n & (n - 1)) == 0) {
    int k = CLASS_MIN_SHIFT;
    while (((size_t)1 << k) < n)
      k++;
    *cls = k - CLASS_MIN_SHIFT;
  }
  return n + sizeof(hdr);
}

mem *mem_ref(mem *m) {
  atomic_fetch_add(&m->refs, 1);
  return m;
}

void mem_unref(mem *m) {
  if (!m)
    return;
  if (atomic_fetch_sub(&m->refs, 1) == 1) {
    for (int k = 0; k < NCLASSES; k++)
      while (m->cache[k]) {
        free_blk *b = m->cache[k];
        m->cache[k] = b->next;
        m->fn(m->ud, b, ((size_t)1 << (k + CLASS_MIN_SHIFT)) + sizeof(hdr), 0);
      }
    pthread_mutex_destroy(&m->lock);
    m->fn(m->ud, m, sizeof *m, 0);
  }
}

static void *cache_pop(mem *m, int cls) {
  pthread_mutex_lock(&m->lock);
  free_blk *b = m->cache[cls];
  if (b) {
    m->cache[cls] = b->next;
    m->cached -= ((size_t)1 << (cls + CLASS_MIN_SHIFT)) + sizeof(hdr);
  }
  pthread_mutex_unlock(&m->lock);
  return b;
}

/* Keep a freed block if the cache has room; 1 when kept. */
static int cache_push(mem *m, int cls, void *p) {
  size_t t = ((size_t)1 << (cls + CLASS_MIN_SHIFT)) + sizeof(hdr);
  int kept = 0;
  pthread_mutex_lock(&m->lock);
  if (m->cached + t <= CACHE_MAX) {
    free_blk *b = p;
    b->next = m->cache[cls];
    m->cache[cls] = b;
    m->cached += t;
    kept = 1;
  }
  pthread_mutex_unlock(&m->lock);
  return kept;
}

static int would_exceed(mem *m, size_t add) {
  if (!m->cap)
    return 0;
  size_t used = atomic_load(&m->used);
  return used + add > m->cap + MEM_RESERVE || used + add < used;
}

/* Every refusal goes through here, so the exec's budget sees it. */
static void *refused(mem *m) {
  atomic_store(&m->failed, 1);
  return NULL;
}

void *mem_alloc(mem *m, size_t n) {
  if (n > SIZE_MAX / 2 || would_exceed(m, n))
    return refused(m);
  int cls;
  size_t t = block_total(n, &cls);
  hdr *h = cls >= 0 ? cache_pop(m, cls) : NULL;
  if (!h)
    h = m->fn(m->ud, NULL, 0, t);
  if (!h)
    return refused(m);
  h->size = n;
  atomic_fetch_add(&m->used, t);
  return h + 1;
}

void *mem_calloc(mem *m, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    return refused(m);
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
  if (n > SIZE_MAX / 2 || (n > old && would_exceed(m, n - old)))
    return refused(m);
  int ocls, ncls;
  size_t ot = block_total(old, &ocls), nt = block_total(n, &ncls);
  if (ot == nt) { /* same block size: nothing moves */
    h->size = n;
    return p;
  }
  if (ocls >= 0 || ncls >= 0) { /* in or out of the cached classes */
    void *q = mem_alloc(m, n);
    if (!q)
      return NULL;
    memcpy(q, p, old < n ? old : n);
    mem_free(m, p);
    return q;
  }
  hdr *nh = m->fn(m->ud, h, ot, nt);
  if (!nh)
    return refused(m);
  nh->size = n;
  if (nt > ot)
    atomic_fetch_add(&m->used, nt - ot);
  else
    atomic_fetch_sub(&m->used, ot - nt);
  return nh + 1;
}

void mem_free(mem *m, void *p) {
  if (!p)
    return;
  hdr *h = (hdr *)p - 1;
  int cls;
  size_t t = block_total(h->size, &cls);
  atomic_fetch_sub(&m->used, t);
  if (cls >= 0 && cache_push(m, cls, h))
    return;
  m->fn(m->ud, h, t, 0);
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
int mem_failed(const mem *m) {
  return atomic_load(&((mem *)m)->failed);
}
void mem_clear_failed(mem *m) {
  atomic_store(&m->failed, 0);
}
