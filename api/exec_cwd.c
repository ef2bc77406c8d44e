/*
 * exec_cwd.c - the check vsh_exec and vsh_session_exec make of opts.cwd
 * before anything runs. A command cannot start in a directory that does not
 * exist, any more than a host process can (its chdir fails ENOENT or
 * ENOTDIR), so the call fails with VSH_FS rather than run with a cwd the
 * file system does not have.
 */
#include <errno.h>
#include <string.h>

#include "api/sandbox.h"

vsh_status api_exec_cwd_check(vsh_sandbox *sb, const vsh_exec_opts *o,
                              vsh_result *res) {
  if (!o || !o->cwd)
    return VSH_OK;
  vsh_stat st;
  vsh_status rc = *o->cwd ? vsh_stat_path(sb, o->cwd, &st) : VSH_FS;
  if (rc == VSH_OK && st.type == VSH_TYPE_DIR)
    return VSH_OK;
  memset(res, 0, sizeof *res);
  int code = ENOTDIR;
  if (!*o->cwd)
    code = ENOENT; /* "" names nothing, as chdir("") says */
  else if (rc != VSH_OK && rc != VSH_FS)
    return rc; /* out of memory: already recorded */
  else if (rc == VSH_FS)
    code = vsh_errcode(sb);
  return api_fail(sb, VSH_FS, code, "cannot change directory to '%s': %s",
                  o->cwd, strerror(code));
}
