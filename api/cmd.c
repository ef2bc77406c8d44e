/*
 * cmd.c - host commands: how the shell calls a vsh_command_fn, and the
 * vsh_cmd_* accessors it uses (streams, environment, cwd, paths).
 */
#include <errno.h>
#include <string.h>

#include "api/sandbox.h"

int api_call_cmd(sh_exec *ex, const sh_host_cmd *h, int argc, char **argv) {
  vsh_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.ex = ex;
  cmd.in = ex->fd[0] ? ex->fd[0] : sh_closed_stream(ex);
  cmd.out = ex->fd[1] ? ex->fd[1] : sh_closed_stream(ex);
  cmd.err = ex->fd[2] ? ex->fd[2] : sh_closed_stream(ex);
  arena_mark mk = arena_save(ex->ar);
  int st = h->fn(&cmd, argc, argv, h->ud);
  arena_release(ex->ar, mk);
  if (sh_stopped(ex))
    ex->jump = J_ABORT;
  return st & 0xff;
}

long vsh_cmd_read(vsh_cmd *cmd, void *buf, size_t n) {
  if (!cmd || !cmd->in)
    return -1;
  return stream_read(cmd->in, buf, n);
}

int vsh_cmd_write(vsh_cmd *cmd, int fd, const void *data, size_t n) {
  if (!cmd)
    return -1;
  stream *s = NULL;
  if (fd == 1)
    s = cmd->out;
  else if (fd == 2)
    s = cmd->err;
  else if (fd >= 0 && fd < SH_NFD)
    s = cmd->ex->fd[fd];
  if (!s)
    return -1;
  return stream_write(s, data, n) ? -1 : 0;
}

const char *vsh_cmd_getenv(vsh_cmd *cmd, const char *name) {
  if (!cmd || !name)
    return NULL;
  sh_var *v = sh_var_find(cmd->ex, name);
  if (!v || !(v->flags & V_EXPORT))
    return NULL;
  return sh_getvar(cmd->ex, name);
}

char **vsh_cmd_environ(vsh_cmd *cmd) {
  if (!cmd)
    return NULL;
  if (!cmd->env)
    cmd->env = sh_environ(cmd->ex, cmd->ex->ar);
  return cmd->env;
}

const char *vsh_cmd_cwd(vsh_cmd *cmd) {
  return cmd ? cmd->ex->cwd : NULL;
}

vsh_sandbox *vsh_cmd_sandbox(vsh_cmd *cmd) {
  return cmd ? cmd->ex->run->host_ud : NULL;
}

const char *vsh_cmd_path(vsh_cmd *cmd, const char *p) {
  if (!cmd || !p)
    return NULL;
  return sh_abspath(cmd->ex, p);
}
