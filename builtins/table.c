/* table.c - the command table built from list.h. */
#include "builtins/builtin.h"
#include "core/nametab.h"

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

#define NTABLE (sizeof table / sizeof table[0] - 1)

/* Looked up for every simple command: by hash (core/nametab.h). */
NAMETAB(by_name, table, NTABLE, 256);

const bi_def *bi_lookup(const char *name) {
  return nametab_find(&by_name, name);
}

const bi_def *bi_all(size_t *n) {
  *n = NTABLE;
  return table;
}
