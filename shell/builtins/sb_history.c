/*
 * sb_history.c - the history list of a shell process.
 *
 * The sandbox runs scripts, where bash keeps history off: commands are not
 * recorded, but the list still exists for the history and fc builtins
 * (history -r/-s/-w/-a/-d/-c, fc -l). This file holds the per-process
 * list, copied into subshells and freed with the shell; the builtins that
 * fill and print it are still to be written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

typedef struct hist {
  char **v;
  size_t n, cap;
  size_t base;     /* number of the first entry minus 1 (after deletes) */
  size_t file_pos; /* lines of HISTFILE already read (history -n) */
} hist;

void sh_hist_free(sh_exec *ex) {
  hist *h = ex->hist;
  if (!h)
    return;
  for (size_t i = 0; i < h->n; i++)
    mem_free(ex->m, h->v[i]);
  mem_free(ex->m, h->v);
  mem_free(ex->m, h);
  ex->hist = NULL;
}

static hist *get_hist(sh_exec *ex) {
  if (!ex->hist)
    ex->hist = mem_calloc(ex->m, 1, sizeof(hist));
  return ex->hist;
}

static int hist_add(sh_exec *ex, const char *s, size_t len) {
  hist *h = get_hist(ex);
  if (!h)
    return sh_oom(ex);
  if (h->n == h->cap) {
    size_t nc = h->cap ? h->cap * 2 : 16;
    char **nv = mem_realloc(ex->m, h->v, nc * sizeof *nv);
    if (!nv)
      return sh_oom(ex);
    h->v = nv;
    h->cap = nc;
  }
  char *d = mem_alloc(ex->m, len + 1);
  if (!d)
    return sh_oom(ex);
  memcpy(d, s, len);
  d[len] = 0;
  h->v[h->n++] = d;
  return 0;
}

int sh_hist_copy(sh_exec *dst, const sh_exec *src) {
  const hist *h = src->hist;
  if (!h || !h->n)
    return 0;
  for (size_t i = 0; i < h->n; i++)
    if (hist_add(dst, h->v[i], strlen(h->v[i])))
      return -1;
  ((hist *)dst->hist)->base = h->base;
  ((hist *)dst->hist)->file_pos = h->file_pos;
  return 0;
}
