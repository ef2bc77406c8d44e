// layers: all
/* Fuzz target: archive extraction. The first byte picks the command, the
 * rest is the archive, given as the file /tmp/in of a fresh sandbox under
 * tight limits:
 *   0 tar -xf (any compression)   1 tar -tvf      2 unzip -o -d /tmp/x
 *   3 unzip -l                    4 gzip -dc      5 bzip2 -dc
 *   6 xz -dc                      7 gzip -t / gzip -l
 * Any crash, sanitizer report or leak is a bug, and so is a sandbox left
 * unusable, or a member written outside /tmp/x. Seeds: fuzz/corpus/archive/
 * (made by fuzz/make_archive_seeds.py). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "usable.h"
#include "vsh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const cmds[8] = {
    "mkdir -p /tmp/x && tar -xf /tmp/in -C /tmp/x; ls -R / >/dev/null",
    "tar -tvf /tmp/in",
    "unzip -o /tmp/in -d /tmp/x",
    "unzip -l /tmp/in",
    "gzip -dc /tmp/in",
    "bzip2 -dc /tmp/in",
    "xz -dc /tmp/in",
    "gzip -t /tmp/in; gzip -l /tmp/in",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const char *script = cmds[data[0] & 7];
  vsh_file_init file = {"/tmp/in", data + 1, size - 1, 0644};
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.files = &file;
  cfg.nfiles = 1;
  cfg.limits.max_commands = 200;
  cfg.limits.max_loop_iterations = 20000;
  cfg.limits.max_output_bytes = 1 << 16;
  cfg.limits.max_memory = 64 << 20;
  cfg.limits.max_fs_bytes = 1 << 20;
  cfg.limits.max_fs_inodes = 1000;
  cfg.limits.timeout_ms = 200;
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK)
    return 0;
  vsh_exec_opts o;
  memset(&o, 0, sizeof o);
  vsh_result r;
  if (vsh_exec(sb, script, &o, &r) == VSH_OK)
    vsh_result_free(&r);
  /* nothing may have landed outside the target directory */
  vsh_exec_opts chk;
  memset(&chk, 0, sizeof chk);
  chk.timeout_ms = 10000;
  if (vsh_exec(sb, "test -e /evil || test -e /tmp/evil || test -e /etc/evil",
               &chk, &r) == VSH_OK) {
    if (r.status == 0)
      __builtin_trap();
    vsh_result_free(&r);
  }
  fuzz_check_usable(sb);
  vsh_close(sb);
  return 0;
}
