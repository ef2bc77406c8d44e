// layers: all
// corpus: shell
/* Fuzz target: parse the input one command at a time, as the interpreter
 * does, and print every tree back as source and as JSON (the printers walk
 * every node kind). Parsing must never crash, leak or read out of bounds. */
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/mem.h"
#include "shell/syntax/parse.h"
#include "shell/syntax/parse_internal.h"

/* the shell's nesting pairs (the default) */
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mem *m = mem_new(NULL, NULL, 256 << 20);
  arena a;
  arena_init(&a, m);
  sh_parser *p = sh_parser_new(&a, (const char *)data, size, NULL);
  if (p) {
    sh_node *n;
    buf out;
    buf_init(&out, m);
    for (int i = 0; i < 10000 && sh_parse_next(p, &n) == 1; i++) {
      buf_clear(&out);
      sh_print_node(&out, n, 0);
      buf_clear(&out);
      sh_ast_json(&out, n);
    }
    buf_free(&out);
  }
  arena_destroy(&a);
  mem_unref(m);
  return 0;
}
