/* table.c - the command table built from list.h. */
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

const bi_def *bi_lookup(const char *name) {
  /* The table is small (about a hundred entries) and sorted: bisect. */
  size_t lo = 0, hi = sizeof table / sizeof table[0] - 1;
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

const bi_def *bi_all(size_t *n) {
  *n = sizeof table / sizeof table[0] - 1;
  return table;
}
