/*
 * tool_target.h - the body shared by the fuzz targets of the text tools
 * that take a program (awk, sed). Include it once, from the target.
 *
 * Input format: PROGRAM, a NUL byte, then the INPUT text (no NUL: all of it
 * is the program, with empty input). When PROGRAM starts with '-', its first
 * line is a list of options separated by spaces (at most 8), e.g.
 * "-F:\n{print $2}" or "-E -n\ns/(a|b)+/x/p"; the rest is the program.
 *
 * The tool runs inside a fresh sandbox as
 *   TOOL OPTION... -- "$PROG"   (awk)   or   TOOL OPTION... -e "$PROG" (sed)
 * with INPUT on its standard input and also in the file /tmp/in, under
 * limits tight enough that every input ends within milliseconds. Any crash,
 * sanitizer report or leak is a bug, and so is a run that leaves the sandbox
 * unusable (a second exec must still work).
 */
#ifndef VSH_FUZZ_TOOL_TARGET_H
#define VSH_FUZZ_TOOL_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "usable.h"
#include "vsh.h"

#define FZ_MAX_OPTS 8

/* Runs SCRIPT (which refers to "$@" for the options and "$P" for the
 * program) over data as described above. */
static int fz_run_tool(const char *script, const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  size_t plen = nul ? (size_t)(nul - data) : size;
  const uint8_t *in = nul ? nul + 1 : data + size;
  size_t inlen = (size_t)(data + size - in);

  /* the options' words: a copy of the first line when it starts with '-' */
  size_t olen = 0;
  if (plen > 0 && data[0] == '-') {
    const uint8_t *eol = memchr(data, '\n', plen);
    olen = eol ? (size_t)(eol - data) + 1 : plen;
  }
  char *opts = malloc(olen + 1);
  char *pv = malloc(plen - olen + 3); /* "P=" + program + NUL */
  if (!opts || !pv) {
    free(opts);
    free(pv);
    return 0;
  }
  memcpy(opts, data, olen);
  opts[olen] = 0;
  memcpy(pv, "P=", 2);
  memcpy(pv + 2, data + olen, plen - olen);
  pv[2 + plen - olen] = 0;
  const char *args[FZ_MAX_OPTS];
  size_t nargs = 0;
  for (char *w = strtok(opts, " \n"); w && nargs < FZ_MAX_OPTS;
       w = strtok(NULL, " \n"))
    args[nargs++] = w;

  vsh_file_init file = {"/tmp/in", in, inlen, 0644};
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.files = &file;
  cfg.nfiles = 1;
  cfg.limits.max_commands = 200;
  cfg.limits.max_loop_iterations = 20000;
  cfg.limits.max_call_depth = 50;
  cfg.limits.max_output_bytes = 1 << 16;
  cfg.limits.max_memory = 64 << 20;
  cfg.limits.max_string_bytes = 1 << 17;
  cfg.limits.max_fs_bytes = 1 << 20;
  cfg.limits.max_fs_inodes = 1000;
  cfg.limits.timeout_ms = 100;
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK) {
    free(opts);
    free(pv);
    return 0;
  }
  const char *env[] = {pv, NULL};
  vsh_exec_opts o;
  memset(&o, 0, sizeof o);
  o.env = env;
  o.args = args;
  o.nargs = nargs;
  o.stdin_data = in;
  o.stdin_len = inlen;
  vsh_result r;
  if (vsh_exec(sb, script, &o, &r) == VSH_OK)
    vsh_result_free(&r);
  fuzz_check_usable(sb);
  vsh_close(sb);
  free(opts);
  free(pv);
  return 0;
}

#endif
