// layers: all
/* Fuzz target: diff and patch. The input is OPTIONS, OLD, NEW and PATCH
 * separated by NUL bytes (missing parts are empty); OPTIONS is a line of
 * diff options separated by spaces (at most 8, e.g. "-u -b"). In a fresh
 * sandbox under tight limits the script
 *   diff OPTIONS old new > p; patch -s -o out old p; patch -s -R out p;
 *   patch -s old < fuzzed; patch -p1 --dry-run < fuzzed; diff -r / -y ...
 * runs; any crash, sanitizer report or leak is a bug, and so is a sandbox
 * left unusable. Seeds: fuzz/corpus/diff/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "usable.h"
#include "vsh.h"

#define FZ_PAIRS                                                               \
  {                                                                            \
    {"@@ -1,3 +1,3 @@\n", ""}, {"--- a\n+++ b\n", ""}, {"\n-", "\n+"},         \
        {"***************\n*** 1,2 ****\n", "--- 1,2 ----\n"},                 \
        {"1,2c1,2\n< ", "\n---\n> "}, {"diff --git a/x b/x\n", ""},            \
  }
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *part(const uint8_t **p, const uint8_t *end, size_t *len) {
  const uint8_t *s = *p;
  const uint8_t *nul = s < end ? memchr(s, 0, (size_t)(end - s)) : NULL;
  *len = nul ? (size_t)(nul - s) : (size_t)(end - s);
  *p = nul ? nul + 1 : end;
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *p = data, *end = data + size;
  size_t ol, al, bl, pl;
  const uint8_t *o = part(&p, end, &ol);
  const uint8_t *a = part(&p, end, &al);
  const uint8_t *b = part(&p, end, &bl);
  const uint8_t *pt = part(&p, end, &pl);
  char *opts = malloc(ol + 1);
  if (!opts)
    return 0;
  memcpy(opts, o, ol);
  opts[ol] = 0;
  const char *args[8];
  size_t nargs = 0;
  for (char *w = strtok(opts, " \n"); w && nargs < 8; w = strtok(NULL, " \n"))
    if (w[0] == '-') /* options only: the file operands are the script's */
      args[nargs++] = w;
  vsh_file_init files[] = {
      {"/tmp/old", a, al, 0644},     {"/tmp/new", b, bl, 0644},
      {"/tmp/fuzzed", pt, pl, 0644}, {"/tmp/d1/x", a, al, 0644},
      {"/tmp/d2/x", b, bl, 0644},    {"/tmp/d2/y", pt, pl, 0644}};
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.files = files;
  cfg.nfiles = sizeof files / sizeof files[0];
  cfg.limits.max_commands = 200;
  cfg.limits.max_loop_iterations = 20000;
  cfg.limits.max_call_depth = 50;
  cfg.limits.max_output_bytes = 1 << 16;
  cfg.limits.max_memory = 64 << 20;
  cfg.limits.max_string_bytes = 1 << 17;
  cfg.limits.max_fs_bytes = 1 << 21;
  cfg.limits.max_fs_inodes = 1000;
  cfg.limits.timeout_ms = 200;
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK) {
    free(opts);
    return 0;
  }
  vsh_exec_opts eo;
  memset(&eo, 0, sizeof eo);
  eo.args = args;
  eo.nargs = nargs;
  eo.stdin_data = pt;
  eo.stdin_len = pl;
  vsh_result r;
  const char *script =
      "cd /tmp; diff \"$@\" old new > p; patch -s -o out old p;"
      " patch -s -R out p; patch -R -o o3 old p; patch -s -o o2 old < fuzzed;"
      " patch -p1 --dry-run < fuzzed; patch -R -N -F3 -b old fuzzed;"
      " diff -r -N \"$@\" d1 d2; diff -y -W 37 old new; diff -c -p - new";
  if (vsh_exec(sb, script, &eo, &r) == VSH_OK)
    vsh_result_free(&r);
  fuzz_check_usable(sb);
  vsh_close(sb);
  free(opts);
  return 0;
}
