/*
 * usable.h - the check every exec-running fuzz target makes after its
 * input: the same sandbox must still run "echo ok". A failure is a finding
 * (__builtin_trap), since a script must never leave a sandbox broken.
 */
#ifndef VSH_FUZZ_USABLE_H
#define VSH_FUZZ_USABLE_H

#include <string.h>

#include "vsh.h"

static inline void fuzz_check_usable(vsh_sandbox *sb) {
  /* its own, generous deadline: on a loaded machine the input's tight one
   * could expire before "echo" runs */
  vsh_exec_opts chk;
  memset(&chk, 0, sizeof chk);
  chk.timeout_ms = 10000;
  vsh_result r;
  if (vsh_exec(sb, "echo ok", &chk, &r) == VSH_OK) {
    if (r.out_len != 3 || memcmp(r.out, "ok\n", 3) != 0)
      __builtin_trap();
    vsh_result_free(&r);
  }
}

#endif
