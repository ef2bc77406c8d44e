// layers: all
// corpus: shell
/* Fuzz target: run the input as a script in a sandbox with small limits.
 * Any crash, sanitizer report or leak is a bug; so is an exec that leaves
 * the sandbox unusable (a second exec must still work). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "usable.h"
#include "vsh.h"

/* the shell's nesting pairs (the default) */
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.limits.max_commands = 2000;
  cfg.limits.max_loop_iterations = 2000;
  cfg.limits.max_call_depth = 50;
  cfg.limits.max_output_bytes = 1 << 16;
  cfg.limits.max_memory = 64 << 20;
  cfg.limits.max_string_bytes = 1 << 16;
  cfg.limits.timeout_ms = 1000;
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK)
    return 0;
  vsh_result r;
  if (vsh_exec_n(sb, (const char *)data, size, NULL, &r) == VSH_OK)
    vsh_result_free(&r);
  fuzz_check_usable(sb);
  vsh_close(sb);
  return 0;
}
