/*
 * ast.c - vsh_script_ast: a script's syntax tree as JSON, without a
 * sandbox (for `vsh --ast`, linters and fuzzing oracles).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sandbox.h"
#include "shell/syntax/parse.h"
#include "shell/syntax/parse_internal.h"

vsh_status vsh_script_ast(const char *script, size_t len, char **out,
                          size_t *out_len) {
  if (!out || (!script && len))
    return VSH_MISUSE;
  *out = NULL;
  if (out_len)
    *out_len = 0;
  mem *m = mem_new(NULL, NULL, 0);
  if (!m)
    return VSH_NOMEM;
  arena a;
  arena_init(&a, m);
  buf b;
  buf_init(&b, m);
  vsh_status st = VSH_OK;
  sh_parser *p = sh_parser_new(&a, script ? script : "", len, NULL);
  if (!p) {
    st = VSH_NOMEM;
    goto done;
  }
  buf_puts(&b, "{\"type\":\"script\",\"commands\":[");
  sh_node *n;
  int k, first = 1;
  while ((k = sh_parse_next(p, &n)) == 1) {
    if (!first)
      buf_putc(&b, ',');
    first = 0;
    if (sh_ast_json(&b, n))
      break;
  }
  buf_puts(&b, "]}\n");
  if (k < 0) {
    /* the message instead of the tree */
    buf_clear(&b);
    const char *msg = sh_parse_error(p);
    buf_printf(&b, "line %d: %s", sh_parse_error_line(p),
               msg ? msg : "syntax error");
    st = VSH_ERROR;
  }
  if (b.oom) {
    st = VSH_NOMEM;
    goto done;
  }
  *out = api_strdup_out(b.data ? b.data : "", b.len);
  if (!*out) {
    st = VSH_NOMEM;
    goto done;
  }
  if (out_len)
    *out_len = b.len;
done:
  buf_free(&b);
  arena_destroy(&a);
  mem_unref(m);
  return st;
}
