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
    "same name in the current directory; with a DIRECTORY, a link per "
    "TARGET\n"
    "inside it. Links are hard unless --symbolic is given.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options "
    "too.\n"
    "  -f, --force                 remove existing destination files\n"
    "  -i, --interactive           ask before removing destination files\n"
    "  -L, --logical               hard-link to what a symbolic TARGET points "
    "to\n"
    "  -n, --no-dereference        treat LINK_NAME as a normal file when it "
    "is a\n"
    "                              symbolic link to a directory\n"
    "  -P, --physical              hard-link to a symbolic link itself (the "
    "default)\n"
    "  -r, --relative              with -s, make the link relative to its "
    "location\n"
    "  -s, --symbolic              make symbolic links\n"
    "  -t, --target-directory=DIRECTORY  make the links in DIRECTORY\n"
    "  -T, --no-target-directory   treat LINK_NAME as a normal file always\n"
    "  -v, --verbose               print the name of each link made\n"
    "      --help                  show this help and exit\n"
    "      --version               show version information and exit\n"
    "\n"
    "A symbolic link's TARGET is stored as given: it is resolved from the "
    "link's\n"
    "own directory when used.\n";

typedef struct lnx {
  bi_ctx *c;
  writer w;
  fu_asker ask;
  int force, interactive, logical, no_deref, relative, symbolic, verbose;
  int out_failed;
} lnx;

static int ln_one(lnx *x, const char *target, const char *link) {
  bi_ctx *c = x->c;
  fu_stat tst, lst;
  if (!x->symbolic) {
    int rc = x->logical ? vfs_stat(c->vfs, c->cwd, target, &tst)
                        : vfs_lstat(c->vfs, c->cwd, target, &tst);
    if (rc < 0) {
      wr_flush(&x->w);
      bi_error(c, "failed to access %s: %s", fu_quote(c, target),
               bi_strerror(-rc));
      return -1;
    }
    if (tst.type == VFS_DIR) {
      wr_flush(&x->w);
      bi_error(c, "%s: hard link not allowed for directory",
               fu_quotef(c, target));
      return -1;
    }
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
      wr_flush(&x->w);
      buf b;
      buf_init(&b, c->m);
      buf_printf(&b, "%s: replace %s? ", c->argv[0], fu_quote(c, link));
      int yes = fu_ask(c, &x->ask, buf_cstr(&b));
      buf_free(&b);
      if (!yes)
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
          !strcmp(fu_basename(c, target), fu_basename(c, link))) {
        wr_flush(&x->w);
        bi_error(c, "%s and %s are the same file", fu_quote(c, target),
                 fu_quote(c, link));
        return -1;
      }
      return 0;
    }
    if (lst.type == VFS_DIR) {
      wr_flush(&x->w);
      bi_error(c, "%s: cannot overwrite directory", fu_quotef(c, link));
      return -1;
    }
    vfs_unlink(c->vfs, c->cwd, link);
  }
create:;
  int rc = x->symbolic ? vfs_symlink(c->vfs, c->cwd, stored, link)
                       : vfs_link(c->vfs, c->cwd, target, link);
  if (rc < 0) {
    wr_flush(&x->w);
    if (x->symbolic)
      bi_error(c, "failed to create symbolic link %s: %s", fu_quote(c, link),
               bi_strerror(-rc));
    else if (rc == -EEXIST)
      bi_error(c, "failed to create hard link %s: %s", fu_quote(c, link),
               bi_strerror(-rc));
    else
      bi_error(c, "failed to create hard link %s => %s: %s", fu_quote(c, link),
               fu_quote(c, target), bi_strerror(-rc));
    return -1;
  }
  if (x->verbose &&
      wr_printf(&x->w, "%s %s %s\n", fu_quote(c, link),
                x->symbolic ? "->" : "=>", fu_quote(c, stored)) < 0) {
    x->out_failed = 1;
    return -1;
  }
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
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  lnx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  const char *target_dir = NULL;
  int no_target = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "fiLnPrst:Tv", opts);
  int o;
  while ((o = bi_getopt_next(&g)) != -1) {
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
      target_dir = g.arg;
      break;
    case 'T':
      no_target = 1;
      break;
    case 'v':
      x.verbose = 1;
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return fu_version(c);
    default:
      return 1;
    }
  }
  if (x.relative && !x.symbolic) {
    bi_error(c, "cannot do --relative without --symbolic");
    return 1;
  }
  int n = g.noperands;
  char **ops = g.operands;
  if (target_dir && no_target) {
    bi_error(c, "cannot combine --target-directory and "
                "--no-target-directory");
    fu_try_help(c);
    return 1;
  }
  if (n == 0) {
    bi_error(c, "missing file operand");
    fu_try_help(c);
    return 1;
  }
  if (no_target && n > 2) {
    bi_error(c, "extra operand %s", fu_quote(c, ops[2]));
    fu_try_help(c);
    return 1;
  }
  if (no_target && n == 1) {
    bi_error(c, "missing destination file operand after %s",
             fu_quote(c, ops[0]));
    fu_try_help(c);
    return 1;
  }
  fu_stat st;
  if (!target_dir && !no_target) {
    if (n == 1) {
      target_dir = ".";
    } else {
      /* With -n a symlink to a directory is a plain name to replace. */
      const char *last = ops[n - 1];
      fu_stat lst;
      int is_link =
          vfs_lstat(c->vfs, c->cwd, last, &lst) == 0 && lst.type == VFS_LNK;
      int rc = vfs_stat(c->vfs, c->cwd, last, &st);
      if (rc == 0 && st.type == VFS_DIR && !(x.no_deref && is_link)) {
        target_dir = last;
        n--;
      } else if (n > 2) {
        if (rc == 0)
          bi_error(c, "target %s is not a directory", fu_quote(c, last));
        else
          bi_error(c, "target %s: %s", fu_quote(c, last), bi_strerror(-rc));
        return 1;
      }
    }
  } else if (target_dir) {
    int rc = vfs_stat(c->vfs, c->cwd, target_dir, &st);
    if (rc == 0 && st.type != VFS_DIR)
      rc = -ENOTDIR;
    if (rc < 0) {
      bi_error(c, "target directory %s: %s", fu_quote(c, target_dir),
               bi_strerror(-rc));
      return 1;
    }
  }
  wr_init(&x.w, c->out);
  int status = 0;
  if (target_dir) {
    for (int i = 0; i < n && !x.out_failed; i++) {
      const char *link = fu_join(c, target_dir, fu_basename(c, ops[i]));
      if (ln_one(&x, ops[i], link) < 0)
        status = 1;
    }
  } else if (ln_one(&x, ops[0], ops[1]) < 0) {
    status = 1;
  }
  fu_asker_free(c, &x.ask);
  if (x.out_failed || wr_flush(&x.w) < 0)
    return fu_out_status(&x.w);
  return status;
}
