/* transfer.c - what cp, mv and ln have in common: the SOURCE... DEST
 * operands (is DEST a directory? -t, -T) and the rules for replacing an
 * existing DEST. Declared in fileutil.h. */
#include <errno.h>

#include "builtins/fileutil.h"

/* The operand count for the form asked for, in GNU's order of complaints:
 * 0, or status 1 after the message and the --help hint. */
static int check_count(bi_ctx *c, const fu_targets *t, unsigned flags) {
  if (t->dir && t->no_dir) {
    if (flags & FU_TARGET_LONG_NAMES)
      bi_error(c, "cannot combine --target-directory and "
                  "--no-target-directory");
    else
      bi_error(c, "cannot combine --target-directory (-t) and "
                  "--no-target-directory (-T)");
  } else if (t->n == 0) {
    bi_error(c, "missing file operand");
  } else if (t->n == 1 && !t->dir &&
             (t->no_dir || !(flags & FU_TARGET_ALONE))) {
    /* One operand is enough with -t (and for ln without -T). */
    bi_error(c, "missing destination file operand after %s",
             fu_quote(c, t->ops[0]));
  } else if (t->no_dir && t->n > 2) {
    bi_error(c, "extra operand %s", fu_quote(c, t->ops[2]));
  } else {
    return 0;
  }
  bi_try_help(c);
  return 1;
}

int fu_targets_resolve(bi_ctx *c, fu_targets *t, unsigned flags) {
  int status = check_count(c, t, flags);
  if (status)
    return status;
  if (flags & FU_TARGET_STRIP)
    for (int i = 0; i < t->n; i++)
      t->ops[i] = (char *)fu_strip_slashes(c, t->ops[i]);
  fu_stat st;
  if (t->dir) {
    int rc = vfs_stat(c->vfs, c->cwd, t->dir, &st);
    if (flags & FU_TARGET_ALONE) { /* ln words these its own way */
      if (rc < 0)
        bi_error(c, "failed to access %s: %s", fu_quote(c, t->dir),
                 bi_strerror(-rc));
      else if (st.type != VFS_DIR)
        bi_error(c, "target %s is not a directory", fu_quote(c, t->dir));
      if (rc < 0 || st.type != VFS_DIR)
        return 1;
      return 0;
    }
    if (rc == 0 && st.type != VFS_DIR)
      rc = -ENOTDIR;
    if (rc < 0) {
      bi_error(c, "target directory %s: %s", fu_quote(c, t->dir),
               bi_strerror(-rc));
      return 1;
    }
    return 0;
  }
  if (!t->no_dir && t->n == 1) { /* FU_TARGET_ALONE: the operand's name */
    t->dir = ".";
    return 0;
  }
  const char *last = t->ops[t->n - 1];
  if (!t->no_dir) {
    int rc = vfs_stat(c->vfs, c->cwd, last, &st);
    fu_stat lst;
    int named_link = (flags & FU_TARGET_NO_DEREF) &&
                     vfs_lstat(c->vfs, c->cwd, last, &lst) == 0 &&
                     lst.type == VFS_LNK;
    if (rc == 0 && st.type == VFS_DIR && !named_link) {
      t->dir = last;
      t->n--;
      return 0;
    }
    if (t->n > 2) {
      if (rc == 0)
        bi_error(c, "target %s is not a directory", fu_quote(c, last));
      else
        bi_error(c, "target %s: %s", fu_quote(c, last), bi_strerror(-rc));
      return 1;
    }
  }
  /* SOURCE DEST: exactly two operands here. */
  t->dest = last;
  t->n = 1;
  return 0;
}

const char *fu_target_of(bi_ctx *c, const fu_targets *t, int i) {
  if (!t->dir)
    return t->dest;
  return fu_join(c, t->dir, fu_basename(c, t->ops[i]));
}

int fu_may_replace(fu_job *j, const fu_replace *r, const fu_stat *src,
                   const fu_stat *dst, const char *dst_name) {
  if (r->noclobber)
    return 0;
  if (r->update && dst->mtime_ns >= src->mtime_ns)
    return 0;
  if (r->interactive)
    return fu_job_ask(j, "overwrite %s? ", fu_quote(j->c, dst_name));
  return 1;
}

int fu_replace_kind(fu_job *j, const char *src, const fu_stat *sst,
                    const char *dst, const fu_stat *dst_st) {
  bi_ctx *c = j->c;
  if (sst->type == VFS_DIR && dst_st->type != VFS_DIR)
    return fu_job_error(j,
                        "cannot overwrite non-directory %s with directory %s",
                        fu_quote(c, dst), fu_quote(c, src));
  if (sst->type != VFS_DIR && dst_st->type == VFS_DIR)
    return fu_job_error(j, "cannot overwrite directory %s with non-directory",
                        fu_quote(c, dst));
  return 0;
}
