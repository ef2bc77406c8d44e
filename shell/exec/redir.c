/*
 * redir.c - redirections over the fd table of state/fd.c: files,
 * here-documents and strings,
 * dup and close (n>&m, n>&-, n>&m-), {var}>file, noclobber, and `exec`'s
 * permanent form. A redirection of one command saves the old stream and
 * sh_redir_restore puts it back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"

/* ---- applying redirections
 * ---------------------------------------------------- */

static int save_fd(sh_exec *ex, int fd, sh_redir_save **save, size_t *nsave,
                   size_t *cap) {
  if (!save)
    return 0;
  for (size_t i = 0; i < *nsave; i++)
    if ((*save)[i].fd == fd)
      return 0; /* the first saved value is the one to restore */
  if (*nsave == *cap) {
    size_t nc = *cap ? *cap * 2 : 4;
    sh_redir_save *ns = arena_alloc(ex->ar, nc * sizeof *ns);
    if (!ns)
      return sh_oom(ex);
    if (*nsave)
      memcpy(ns, *save, *nsave * sizeof *ns);
    *save = ns;
    *cap = nc;
  }
  (*save)[*nsave].fd = fd;
  (*save)[*nsave].old = stream_ref(ex->fd[fd]);
  (*nsave)++;
  return 0;
}

void sh_redir_restore(sh_exec *ex, sh_redir_save *save, size_t nsave) {
  for (size_t i = nsave; i-- > 0;) {
    stream_unref(ex->fd[save[i].fd]);
    ex->fd[save[i].fd] = save[i].old;
  }
}

static int redir_err(sh_exec *ex, const char *what, int err) {
  sh_err(ex, "%s: %s", what, bi_strerror(err));
  return 1;
}

/* `< dir`: bash's open succeeds and each read fails with EISDIR, so a
 * command that never reads runs as usual. */
static long dir_read(stream *s, void *p, size_t n) {
  (void)p;
  (void)n;
  s->err = EISDIR;
  return -1;
}
static long dir_write(stream *s, const void *p, size_t n) {
  (void)p;
  (void)n;
  s->err = EBADF;
  return -1;
}
static void dir_release(stream *s) {
  mem_free(s->m, s);
}
static const stream_ops dir_ops = {dir_read, dir_write, NULL, dir_release};

static stream *dir_stream(sh_exec *ex) {
  stream *s = mem_calloc(ex->m, 1, sizeof *s);
  if (s)
    stream_init(s, &dir_ops, ex->m, &ex->run->bud, STREAM_R);
  return s;
}

static int alloc_fd(sh_exec *ex) {
  for (int i = 10; i < SH_NFD - 1; i++)
    if (!ex->fd[i])
      return i;
  return -1;
}

/* Expand a file target: exactly one field (else "ambiguous redirect"). */
static char *target_path(sh_exec *ex, sh_word *w) {
  sh_strv f = {0};
  if (sh_expand_word_fields(ex, w, &f))
    return NULL;
  if (f.n != 1) {
    sh_err(ex, "%.*s: ambiguous redirect", (int)w->src_len,
           w->src ? w->src : "");
    return NULL;
  }
  return f.v[0];
}

int sh_redir_apply(sh_exec *ex, sh_redir *r, sh_redir_save **save,
                   size_t *nsave, int perm) {
  size_t cap = 0;
  int child = perm == SH_REDIR_CHILD;
  if (perm == SH_REDIR_PERM)
    save = NULL;
  for (; r; r = r->next) {
    int fd = r->fd;
    switch (r->op) {
    case R_IN:
    case R_INOUT:
    case R_DUP_IN:
    case R_HEREDOC:
    case R_HERESTRING:
      if (fd < 0)
        fd = 0;
      break;
    default:
      if (fd < 0)
        fd = 1;
    }
    if (r->fd_var) {
      if (r->op == R_DUP_OUT || r->op == R_DUP_IN) {
        /* {v}>&- closes the fd named by $v */
        size_t tl;
        char *t = sh_expand_str(ex, r->target, &tl);
        if (t && strcmp(t, "-") == 0) {
          const char *val = sh_getvar(ex, r->fd_var);
          int k = val ? atoi(val) : -1;
          if (k >= 0 && k < SH_NFD) {
            if (save_fd(ex, k, save, nsave, &cap))
              return 1;
            sh_set_fd(ex, k, NULL);
          }
          continue;
        }
      }
      fd = alloc_fd(ex);
      if (fd < 0) {
        sh_err(ex, "%s: too many open files", r->fd_var);
        return 1;
      }
    }
    if (fd >= SH_NFD - 1) {
      sh_err(ex, "%d: Bad file descriptor", fd);
      return 1;
    }
    stream *s = NULL;
    stream *s2 = NULL; /* &> also sets fd 2 */
    int err = 0;
    switch (r->op) {
    case R_IN:
    case R_OUT:
    case R_CLOBBER:
    case R_APPEND:
    case R_INOUT:
    case R_OUT_ERR:
    case R_APPEND_OUT_ERR: {
      char *path = target_path(ex, r->target);
      if (!path)
        return 1;
      int flags;
      switch (r->op) {
      case R_IN:
        flags = O_RDONLY;
        break;
      case R_INOUT:
        flags = O_RDWR | O_CREAT;
        break;
      case R_APPEND:
      case R_APPEND_OUT_ERR:
        flags = O_WRONLY | O_CREAT | O_APPEND;
        break;
      default:
        flags = O_WRONLY | O_CREAT | O_TRUNC;
      }
      if ((ex->opts & O_NOCLOBBER) && (r->op == R_OUT || r->op == R_OUT_ERR)) {
        vfs_stat_t st;
        if (vfs_stat(ex->run->v, ex->cwd, path, &st) == 0 &&
            st.type == VFS_REG) {
          sh_err(ex, "%s: cannot overwrite existing file", path);
          return 1;
        }
      }
      if (sh_ulimit_fd_refused(ex))
        return redir_err(ex, path, EMFILE);
      s = sh_open_stream(ex, path, flags, &err);
      if (!s && err == EISDIR && r->op == R_IN) {
        s = dir_stream(ex);
        if (!s)
          return sh_oom(ex) ? 1 : 1;
      }
      if (!s)
        return redir_err(ex, path, err);
      if (flags != O_RDONLY)
        vfs_stream_max_size(s, sh_ulimit_file_bytes(ex));
      if (r->op == R_OUT_ERR || r->op == R_APPEND_OUT_ERR)
        s2 = stream_ref(s);
      break;
    }
    case R_DUP_IN:
    case R_DUP_OUT: {
      /* Split like any redirection word: 1>& "$@" with two words is
       * ambiguous rather than a file named by their join. */
      char *t = target_path(ex, r->target);
      if (!t)
        return 1;
      size_t tl = strlen(t);
      if (strcmp(t, "-") == 0) {
        if (save_fd(ex, fd, save, nsave, &cap))
          return 1;
        sh_set_fd(ex, fd, NULL);
        continue;
      }
      int move = tl > 1 && t[tl - 1] == '-';
      if (move)
        t[--tl] = 0;
      /* Only digits name an fd (bash: a sign or blank makes it a word). */
      size_t nd = strspn(t, "0123456789");
      long k = nd && nd <= 9 ? strtol(t, NULL, 10) : SH_NFD;
      if (nd != tl || tl == 0) {
        if (r->op == R_DUP_OUT && (r->fd < 0 || r->fd == 1)) {
          /* >&file (and 1>&file, as bash treats it) is &>file */
          s = sh_open_stream(ex, t, O_WRONLY | O_CREAT | O_TRUNC, &err);
          if (!s)
            return redir_err(ex, t, err);
          s2 = stream_ref(s);
          break;
        }
        sh_err(ex, "%s: ambiguous redirect", t);
        return 1;
      }
      if (k < 0 || k >= SH_NFD - 1 || !ex->fd[k]) {
        if (nd <= 9)
          sh_err(ex, "%ld: Bad file descriptor", k);
        else
          sh_err(ex, "%s: Bad file descriptor", t);
        return 1;
      }
      s = stream_ref(ex->fd[k]);
      if (move) {
        /* bash does not undo the close half of n>&m- (unless the command
         * runs in a child): m stays closed after the command. */
        if (save_fd(ex, (int)k, child ? save : NULL, nsave, &cap)) {
          stream_unref(s);
          return 1;
        }
        sh_set_fd(ex, (int)k, NULL);
      }
      break;
    }
    case R_HEREDOC: {
      size_t bl = 0;
      char *body;
      if (!r->heredoc)
        body = "";
      else
        body = sh_expand_str(ex, r->heredoc, &bl);
      if (!body)
        return 1;
      s = stream_mem_reader(ex->m, &ex->run->bud, body, bl, 0);
      if (!s)
        return sh_oom(ex) ? 1 : 1;
      break;
    }
    case R_HERESTRING: {
      size_t bl = 0;
      char *body = sh_expand_str(ex, r->target, &bl);
      if (!body)
        return 1;
      char *b2 = arena_alloc(ex->ar, bl + 1);
      if (!b2)
        return sh_oom(ex) ? 1 : 1;
      memcpy(b2, body, bl);
      b2[bl] = '\n';
      s = stream_mem_reader(ex->m, &ex->run->bud, b2, bl + 1, 0);
      if (!s)
        return sh_oom(ex) ? 1 : 1;
      break;
    }
    }
    if (r->fd_var && !child) {
      /* The variable is set once the file is open; the fd outlives the
       * command (bash closes it only on request). */
      char tmp[16];
      snprintf(tmp, sizeof tmp, "%d", fd);
      if (sh_setvar(ex, r->fd_var, tmp, strlen(tmp), 0)) {
        stream_unref(s);
        stream_unref(s2);
        return 1;
      }
    } else if (save_fd(ex, fd, save, nsave, &cap)) {
      stream_unref(s);
      stream_unref(s2);
      return 1;
    }
    sh_set_fd(ex, fd, s);
    if (s2) {
      if (save_fd(ex, 2, save, nsave, &cap)) {
        stream_unref(s2);
        return 1;
      }
      sh_set_fd(ex, 2, s2);
    }
  }
  return 0;
}
