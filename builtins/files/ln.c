/* ln.c - GNU ln: hard links (sharing one inode) and symbolic links. */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_ln[] = "Usage: ln [OPTION]... [-T] TARGET LINK_NAME\n"
                           "  or:  ln [OPTION]... TARGET\n"
                           "  or:  ln [OPTION]... TARGET... DIRECTORY\n"
                           "  or:  ln [OPTION]... -t DIRECTORY TARGET...";
const char bi_help_ln[] =
    "Make a link named LINK_NAME to TARGET; with one TARGET only, a link of "
    "the\n"
    "same name in the current directory; with a DIRECTORY, a link per TARGET\n"
    "inside it. Links are hard unless --symbolic is given.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -f, --force                 replace any file already at a link's name\n"
    "  -i, --interactive           ask before replacing a file at a link's "
    "name\n"
    "  -L, --logical               hard-link to what a symbolic TARGET points "
    "to\n"
    "  -n, --no-dereference        if LINK_NAME is a symbolic link to a "
    "directory,\n"
    "                              replace the link rather than enter the\n"
    "                              directory\n"
    "  -P, --physical              hard-link to a symbolic link itself (the "
    "default)\n"
    "  -r, --relative              with -s, store a path relative to the "
    "link's\n"
    "                              own directory\n"
    "  -s, --symbolic              create symbolic links rather than hard "
    "links\n"
    "  -t, --target-directory=DIRECTORY  make the links in DIRECTORY\n"
    "  -T, --no-target-directory   LINK_NAME is the link itself, even if it is "
    "a\n"
    "                              directory\n"
    "  -v, --verbose               name each link as it is made\n"
    "      --help                  print this summary and quit\n"
    "      --version               print the version line and quit\n"
    "\n"
    "A symbolic link's TARGET is stored as given: it is resolved from the "
    "link's\n"
    "own directory when used.\n";

typedef struct lnx {
  fu_job job;
  int force, interactive, logical, no_deref, relative, symbolic, verbose;
} lnx;

static int ln_one(lnx *x, const char *target, const char *link) {
  bi_ctx *c = x->job.c;
  fu_stat tst, lst;
  if (!x->symbolic) {
    int rc = x->logical ? vfs_stat(c->vfs, c->cwd, target, &tst)
                        : vfs_lstat(c->vfs, c->cwd, target, &tst);
    if (rc < 0)
      return fu_job_error(&x->job, "failed to access %s: %s",
                          fu_quote(c, target), bi_strerror(-rc));
    if (tst.type == VFS_DIR)
      return fu_job_error(&x->job, "%s: hard link not allowed for directory",
                          fu_quotef(c, target));
  }
  const char *stored = target;
  if (x->symbolic && x->relative) {
    /* The link's directory and the target, both canonical: the stored text
     * is the way from one to the other. */
    int e;
    const char *tc = fu_canon(c, target, FU_CANON_MISSING, &e);
    const char *dc = fu_canon(c, fu_dirname(c, link), FU_CANON_MISSING, &e);
    if (tc && dc)
      stored = fu_relpath(c, dc, tc);
  }
  if (vfs_lstat(c->vfs, c->cwd, link, &lst) == 0) {
    if (x->interactive) {
      if (!fu_job_ask(&x->job, "replace %s? ", fu_quote(c, link)))
        return 0;
    } else if (!x->force) {
      goto create; /* let the vfs report EEXIST */
    }
    if (!x->symbolic && lst.ino == tst.ino) {
      /* Already a link to the target: done, unless it is the very same
       * name (removing it would lose the file). */
      int e1, e2;
      const char *a = fu_canon(c, fu_dirname(c, target), FU_CANON_MISSING, &e1);
      const char *b = fu_canon(c, fu_dirname(c, link), FU_CANON_MISSING, &e2);
      if (a && b && !strcmp(a, b) &&
          !strcmp(fu_basename(c, target), fu_basename(c, link)))
        return fu_job_error(&x->job, "%s and %s are the same file",
                            fu_quote(c, target), fu_quote(c, link));
      return 0;
    }
    if (lst.type == VFS_DIR)
      return fu_job_error(&x->job, "%s: cannot overwrite directory",
                          fu_quotef(c, link));
    vfs_unlink(c->vfs, c->cwd, link);
  }
create:;
  int rc = x->symbolic ? vfs_symlink(c->vfs, c->cwd, stored, link)
                       : vfs_link(c->vfs, c->cwd, target, link);
  if (rc < 0 && x->symbolic)
    return fu_job_error(&x->job, "failed to create symbolic link %s: %s",
                        fu_quote(c, link), bi_strerror(-rc));
  if (rc == -EEXIST)
    return fu_job_error(&x->job, "failed to create hard link %s: %s",
                        fu_quote(c, link), bi_strerror(-rc));
  if (rc < 0)
    return fu_job_error(&x->job, "failed to create hard link %s => %s: %s",
                        fu_quote(c, link), fu_quote(c, target),
                        bi_strerror(-rc));
  if (x->verbose)
    return fu_job_say(&x->job, "%s %s %s\n", fu_quote(c, link),
                      x->symbolic ? "->" : "=>", fu_quote(c, stored));
  return 0;
}

int bi_ln(bi_ctx *c) {
  static const bi_opt opts[] = {{"force", 'f', BI_ARG_NONE},
                                {"interactive", 'i', BI_ARG_NONE},
                                {"logical", 'L', BI_ARG_NONE},
                                {"no-dereference", 'n', BI_ARG_NONE},
                                {"physical", 'P', BI_ARG_NONE},
                                {"relative", 'r', BI_ARG_NONE},
                                {"symbolic", 's', BI_ARG_NONE},
                                {"target-directory", 't', BI_ARG_REQUIRED},
                                {"no-target-directory", 'T', BI_ARG_NONE},
                                {"verbose", 'v', BI_ARG_NONE},
                                BI_OPTS_END};
  lnx x;
  memset(&x, 0, sizeof x);
  fu_job_init(&x.job, c);
  fu_targets t = {0};
  bi_getopt g;
  bi_getopt_init(&g, c, "fiLnPrst:Tv", opts);
  int o;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'f':
      x.force = 1;
      x.interactive = 0;
      break;
    case 'i':
      x.interactive = 1;
      x.force = 0;
      break;
    case 'L':
      x.logical = 1;
      break;
    case 'P':
      x.logical = 0;
      break;
    case 'n':
      x.no_deref = 1;
      break;
    case 'r':
      x.relative = 1;
      break;
    case 's':
      x.symbolic = 1;
      break;
    case 't':
      t.dir = g.arg;
      break;
    case 'T':
      t.no_dir = 1;
      break;
    case 'v':
      x.verbose = 1;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (x.relative && !x.symbolic) {
    bi_error(c, "cannot do --relative without --symbolic");
    return 1;
  }
  t.ops = g.operands;
  t.n = g.noperands;
  unsigned flags = FU_TARGET_ALONE | FU_TARGET_LONG_NAMES;
  if (x.no_deref)
    flags |= FU_TARGET_NO_DEREF; /* a symlink to a directory is a name */
  int status = fu_targets_resolve(c, &t, flags);
  if (status)
    return status;
  for (int i = 0; i < t.n && !x.job.out_failed; i++)
    if (ln_one(&x, t.ops[i], fu_target_of(c, &t, i)) < 0)
      status = 1;
  return fu_job_end(&x.job, status);
}
