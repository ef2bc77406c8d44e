/*
 * mem.h - the sandbox allocator: one hook, one byte cap, shared by every
 * layer (VFS, shell, builtins, PCRE2 through its general context).
 *
 * Each block carries a small header with its size, so callers free without
 * passing a size and the host hook still sees (ptr, osize, nsize) like Lua's.
 * The allocator is reference counted: a VFS node that outlives its sandbox
 * (through a snapshot or a fork) keeps the allocator that made it alive and
 * is freed by it.
 *
 * The cap is enforced in two steps. Past the soft cap (the configured limit)
 * mem_over_cap() turns true; the exec's budget checks it at every statement
 * and stream call and ends the exec with "memory limit exceeded". Past the
 * hard cap (soft cap plus a fixed reserve) allocations return NULL, so code
 * must still handle NULL, but in practice the budget stops an exec first and
 * unwinding has headroom to free what it built.
 */
#ifndef VSH_CORE_MEM_H
#define VSH_CORE_MEM_H

#include <stdatomic.h>
#include <stddef.h>

#include "vsh.h"

typedef struct mem mem;

/* fn NULL: the C library. cap 0: no cap. */
mem *mem_new(vsh_alloc_fn fn, void *ud, size_t cap);
mem *mem_ref(mem *m);
void mem_unref(mem *m); /* the last unref frees the allocator itself */

void *mem_alloc(mem *m, size_t n);
void *mem_calloc(mem *m, size_t n, size_t size);
void *mem_realloc(mem *m, void *p, size_t n);
void mem_free(mem *m, void *p);
char *mem_strdup(mem *m, const char *s);
char *mem_strndup(mem *m, const char *s, size_t n); /* always NUL-ends */
void *mem_memdup(mem *m, const void *p, size_t n);

size_t mem_used(const mem *m);
size_t mem_cap(const mem *m);
void mem_set_cap(mem *m, size_t cap);
int mem_over_cap(const mem *m); /* used > soft cap */
/* Non-zero once an allocation was refused (the hook failed, or the hard
 * cap) since mem_clear_failed. The exec's budget stops on it like on the
 * soft cap: whatever failed to allocate, the exec then ends with the memory
 * limit's message instead of going on with something missing. */
int mem_failed(const mem *m);
void mem_clear_failed(mem *m); /* when an exec begins */

#endif
