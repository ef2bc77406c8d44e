/*
 * sort_radix.h - the radix sort sort(1) uses when its order is plain bytes
 * over whole lines (sort_radix.c).
 */
#ifndef VSH_BUILTINS_SORT_RADIX_H
#define VSH_BUILTINS_SORT_RADIX_H

#include <stddef.h>

#include "core/mem.h"

typedef struct sr_line {
  const char *p;
  size_t len; /* without the delimiter */
} sr_line;

/* Sort v[0..n) bytewise (descending when reverse), with tmp (n lines) as
 * scratch. poll is called now and then; when it returns non-zero the sort
 * stops, leaving v in some order, and 1 is returned. -1: out of memory
 * (v untouched), 0: sorted. */
int sr_sort(mem *m, sr_line *v, sr_line *tmp, size_t n, int reverse,
            int (*poll)(void *ud), void *ud);

#endif
