/*
 * procsub.c - process substitution, <(...) and >(...).
 *
 * As in bash, the command runs alongside the one that names it, joined by
 * a pipe: the shell keeps its end open on a free descriptor counting down
 * from 63 and the word becomes /dev/fd/N. Whatever opens that name in this
 * shell (a redirection, a builtin's file operand, `source`) gets the pipe
 * itself, so `while read ...; done < <(producer)` sees each line as the
 * producer writes it, and `head -1 <(yes)` ends at once. An empty file of
 * the same name in the VFS lets `test -e` and `ls` see it.
 *
 * The command runs as a job of its own (not in the job table; `wait`
 * waits for it, as bash 5.2 does). When the command that expanded the
 * word is done, this shell's end is closed: a producer then sees a broken
 * pipe, and a consumer of >(...) sees end of file and is waited for, so
 * what it prints comes before the next command's output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shell/exec/exec.h"
#include "shell/sh.h"
#include "vfs/vfs.h"

typedef struct psub {
  int fd;    /* descriptor of the shell that holds our end */
  int dir;   /* '<' or '>' */
  int pid;   /* the job running the command */
  stream *s; /* our end as installed (not a reference) */
} psub;

size_t sh_procsub_mark(sh_exec *ex) {
  return ex->nprocsubs;
}

static void fd_path(int fd, char *path, size_t n) {
  snprintf(path, n, "/dev/fd/%d", fd);
}

/* The visible name: an empty root-owned file (the directory is sticky and
 * world-writable, as /tmp). */
static void name_set(sh_exec *ex, int fd, int make) {
  vfs *v = ex->run->v;
  char path[32];
  fd_path(fd, path, sizeof path);
  vfs_set_user(v, 0, 0);
  if (make) {
    vfs_mkdir_p(v, "/", "/dev/fd", 0777);
    vfs_chmod(v, "/", "/dev/fd", 01777);
    vfs_write_file(v, "/", path, "", 0, 0666);
  } else {
    vfs_unlink(v, "/", path);
  }
  vfs_set_user(v, VFS_DEFAULT_UID, VFS_DEFAULT_GID);
}

/* Our end s goes on descriptor fd, recorded for sh_procsub_finish. */
static int install(sh_exec *ex, int fd, int dir, stream *s, int pid, char *path,
                   size_t n) {
  ex->fd[fd] = s;
  if (fd >= ex->nfd)
    ex->nfd = fd + 1;
  psub *p = &((psub *)ex->procsubs)[ex->nprocsubs++];
  p->fd = fd;
  p->dir = dir;
  p->pid = pid;
  p->s = s;
  name_set(ex, fd, 1);
  fd_path(fd, path, n);
  return 0;
}

int sh_procsub(sh_exec *ex, sh_node *body, int dir, stream *src, char *path,
               size_t n) {
  sh_run *r = ex->run;
  int fd = -1;
  for (int k = 63; k >= 10 && fd < 0; k--)
    if (!ex->fd[k])
      fd = k;
  if (fd < 0) {
    stream_unref(src);
    sh_err(ex, "process substitution: %s", bi_strerror(EMFILE));
    return -1;
  }
  if (!src && !sh_jobs_ok(ex, 1))
    return -1;
  if (ex->nprocsubs == ex->capprocsubs) {
    size_t nc = ex->capprocsubs ? ex->capprocsubs * 2 : 4;
    psub *np = mem_realloc(ex->m, ex->procsubs, nc * sizeof *np);
    if (!np) {
      stream_unref(src);
      return sh_oom(ex), -1;
    }
    ex->procsubs = np;
    ex->capprocsubs = nc;
  }
  if (src)
    return install(ex, fd, dir, src, 0, path, n);
  stream *rd, *wr;
  if (stream_pipe(ex->m, r->sc, &r->bud, 0, &rd, &wr))
    return sh_oom(ex), -1;
  sh_exec *c = sh_job_child(ex);
  if (!c) {
    stream_unref(rd);
    stream_unref(wr);
    return sh_oom(ex), -1;
  }
  stream *mine = dir == '<' ? rd : wr;
  int theirs = dir == '<' ? 1 : 0;
  stream_unref(c->fd[theirs]);
  c->fd[theirs] = dir == '<' ? wr : rd;
  sh_job *j = body ? sh_job_spawn(ex, c, body, 0) : NULL;
  if (!j) {
    sh_free(c);
    if (body) {
      stream_unref(mine);
      return sh_oom(ex), -1;
    }
  }
  if (j)
    ex->last_bg_pid = j->pid;
  return install(ex, fd, dir, mine, j ? j->pid : 0, path, n);
}

void sh_procsub_finish(sh_exec *ex, size_t mark) {
  while (ex->nprocsubs > mark) {
    psub *p = &((psub *)ex->procsubs)[--ex->nprocsubs];
    stream *s = ex->fd[p->fd] == p->s ? p->s : NULL;
    int wait = 0;
    if (s) {
      /* A consumer is waited for only when this end was the last writer:
       * otherwise (`exec 3> >(...)`) it reads on after this command. */
      wait = p->dir == '>' && p->pid && s->refs == 1 && !ex->run->bud.stop &&
             sched_running();
      ex->fd[p->fd] = NULL;
      stream_unref(s);
      name_set(ex, p->fd, 0);
    }
    if (wait) {
      int found;
      int save = ex->jump;
      sh_wait_job(ex, p->pid, &found);
      if (!ex->run->bud.stop)
        ex->jump = save;
    }
  }
}
