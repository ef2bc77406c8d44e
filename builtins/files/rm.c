/* rm.c - GNU rm: remove files and (with -r/-d) directories. Prompts (-i, -I)
 * read their answers from stdin: the sandbox has no terminal, and this is
 * what GNU does when stdin is not one. */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_rm[] = "Usage: rm [OPTION]... [FILE]...";
const char bi_help_rm[] =
    "Remove each FILE. Directories are kept unless -r or -d is given.\n"
    "\n"
    "  -f, --force           never ask, and say nothing about missing files\n"
    "  -i                    confirm each removal first\n"
    "  -I                    a single confirmation for the whole run, asked\n"
    "                        when it would remove more than three files or\n"
    "                        works recursively\n"
    "      --interactive[=WHEN]  ask never, once (-I) or always (-i, the "
    "default)\n"
    "      --one-file-system  accepted (there is one file system)\n"
    "      --no-preserve-root  give '/' no special protection\n"
    "      --preserve-root[=all]  protect '/' from removal (the default)\n"
    "  -r, -R, --recursive   remove directories and everything below them\n"
    "  -d, --dir             also remove directories that are empty\n"
    "  -v, --verbose         report each removal\n"
    "      --help            print this summary and quit\n"
    "      --version         print the version line and quit\n"
    "\n"
    "A name starting with '-' can be removed with 'rm -- -name' or 'rm "
    "./-name'.\n";

enum { I_NEVER, I_ONCE, I_ALWAYS };
enum { OPT_INTERACTIVE = 0x100, OPT_ONEFS, OPT_NOPRESERVE, OPT_PRESERVE };

typedef struct rmx {
  fu_job job;
  int force, interactive, recursive, dir, verbose, preserve_root;
} rmx;

/* Outcome of removing one entry. */
enum { RM_OK = 0, RM_DECLINED = 1, RM_FAILED = 2, RM_STOP = 3 };

/* -i: "remove [WHAT ]PATH?" and the like; 1 for yes. */
static int ask(rmx *x, const char *question, const char *what,
               const char *path) {
  return fu_job_ask(&x->job, question, what, fu_quote(x->job.c, path));
}

static int fail(rmx *x, const char *path, int err) {
  fu_job_error(&x->job, "cannot remove %s: %s", fu_quote(x->job.c, path),
               bi_strerror(err));
  return RM_FAILED;
}

static int report(rmx *x, const char *what, const char *path) {
  if (!x->verbose)
    return RM_OK;
  if (fu_job_say(&x->job, "removed %s%s\n", what, fu_quote(x->job.c, path)) < 0)
    return RM_STOP;
  return RM_OK;
}

static int remove_entry(rmx *x, const char *path, const fu_stat *st);

static int remove_tree(rmx *x, const char *path) {
  bi_ctx *c = x->job.c;
  char **names = NULL;
  size_t n = 0;
  int rc = vfs_readdir(c->vfs, c->cwd, path, &names, &n);
  if (rc < 0)
    return fail(x, path, -rc);
  int worst = RM_OK;
  if (x->interactive == I_ALWAYS && n > 0 &&
      !ask(x, "descend into %sdirectory %s? ", "", path)) {
    vfs_free_names(c->vfs, names, n);
    return RM_DECLINED;
  }
  for (size_t i = 0; i < n && worst < RM_STOP; i++) {
    if (fu_poll(c)) {
      worst = RM_STOP;
      break;
    }
    const char *child = fu_join(c, path, names[i]);
    fu_stat cst;
    int r = vfs_lstat(c->vfs, c->cwd, child, &cst);
    r = r < 0 ? fail(x, child, -r) : remove_entry(x, child, &cst);
    if (r > worst)
      worst = r;
  }
  vfs_free_names(c->vfs, names, n);
  /* A child that could not be removed keeps its ancestors, silently (the
   * error was reported); a declined one does not stop the question. */
  if (worst >= RM_FAILED)
    return worst;
  if (x->interactive == I_ALWAYS &&
      !ask(x, "remove %sdirectory %s? ", "", path))
    return RM_DECLINED;
  rc = vfs_rmdir(c->vfs, c->cwd, path);
  if (rc < 0)
    return fail(x, path, -rc);
  return report(x, "directory ", path);
}

static int remove_entry(rmx *x, const char *path, const fu_stat *st) {
  bi_ctx *c = x->job.c;
  if (st->type == VFS_DIR) {
    if (x->recursive)
      return remove_tree(x, path);
    if (!x->dir)
      return fail(x, path, EISDIR);
    if (x->interactive == I_ALWAYS &&
        !ask(x, "remove %sdirectory %s? ", "", path))
      return RM_DECLINED;
    int rc = vfs_rmdir(c->vfs, c->cwd, path);
    if (rc < 0)
      return fail(x, path, -rc);
    return report(x, "directory ", path);
  }
  if (x->interactive == I_ALWAYS &&
      !ask(x, "remove %s %s? ", fu_type_name(st), path))
    return RM_DECLINED;
  int rc = vfs_unlink(c->vfs, c->cwd, path);
  if (rc < 0)
    return fail(x, path, -rc);
  return report(x, "", path);
}

/* Is path the root directory (any spelling: "/", "//", "/usr/..")? */
static int is_root(rmx *x, const char *path) {
  fu_stat a, b;
  bi_ctx *c = x->job.c;
  if (vfs_lstat(c->vfs, c->cwd, path, &a) < 0 ||
      vfs_lstat(c->vfs, "/", "/", &b) < 0)
    return 0;
  return a.type == VFS_DIR && a.ino == b.ino;
}

int bi_rm(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"force", 'f', BI_ARG_NONE},
      {"interactive", OPT_INTERACTIVE, BI_ARG_OPTIONAL},
      {"one-file-system", OPT_ONEFS, BI_ARG_NONE},
      {"no-preserve-root", OPT_NOPRESERVE, BI_ARG_NONE},
      {"preserve-root", OPT_PRESERVE, BI_ARG_OPTIONAL},
      {"recursive", 'r', BI_ARG_NONE},
      {"dir", 'd', BI_ARG_NONE},
      {"verbose", 'v', BI_ARG_NONE},
      BI_OPTS_END};
  rmx x;
  memset(&x, 0, sizeof x);
  fu_job_init(&x.job, c);
  x.preserve_root = 1;
  bi_getopt g;
  bi_getopt_init(&g, c, "fiIrRdv", opts);
  int o;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'f':
      x.force = 1;
      x.interactive = I_NEVER;
      break;
    case 'i':
      x.force = 0;
      x.interactive = I_ALWAYS;
      break;
    case 'I':
      x.force = 0;
      x.interactive = I_ONCE;
      break;
    case OPT_INTERACTIVE:
      if (!g.arg || !strcmp(g.arg, "always") || !strcmp(g.arg, "yes")) {
        x.interactive = I_ALWAYS;
        x.force = 0;
      } else if (!strcmp(g.arg, "once")) {
        x.interactive = I_ONCE;
        x.force = 0;
      } else if (!strcmp(g.arg, "never") || !strcmp(g.arg, "no") ||
                 !strcmp(g.arg, "none")) {
        x.interactive = I_NEVER;
      } else {
        fu_bad_arg(c, "--interactive", g.arg,
                   "  - 'never', 'no', 'none'\n"
                   "  - 'once'\n"
                   "  - 'always', 'yes'\n");
        return 1;
      }
      break;
    case OPT_ONEFS:
      break;
    case OPT_NOPRESERVE:
      x.preserve_root = 0;
      break;
    case OPT_PRESERVE:
      x.preserve_root = 1;
      break;
    case 'r':
    case 'R':
      x.recursive = 1;
      break;
    case 'd':
      x.dir = 1;
      break;
    case 'v':
      x.verbose = 1;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return x.force ? 0 : bi_missing_operand(c);
  int status = 0;
  if (x.interactive == I_ONCE && (x.recursive || g.noperands > 3) &&
      !fu_job_ask(&x.job, "remove %d argument%s%s? ", g.noperands,
                  g.noperands == 1 ? "" : "s",
                  x.recursive ? " recursively" : ""))
    return fu_job_end(&x.job, status);
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    if (x.recursive && fu_is_dot_or_dotdot(p)) {
      /* Only when recursing: otherwise they fail like any directory. */
      fu_job_error(&x.job,
                   "refusing to remove '.' or '..' directory: skipping %s",
                   fu_quote(c, p));
      status = 1;
      continue;
    }
    if (x.recursive && x.preserve_root && is_root(&x, p)) {
      fu_job_refuse_root(&x.job, p);
      status = 1;
      continue;
    }
    fu_stat st;
    int rc = vfs_lstat(c->vfs, c->cwd, p, &st);
    if (rc < 0) {
      if (x.force && rc == -ENOENT)
        continue;
      fail(&x, p, -rc);
      status = 1;
      continue;
    }
    int r = remove_entry(&x, p, &st);
    if (r == RM_STOP)
      break;
    if (r == RM_FAILED)
      status = 1;
  }
  return fu_job_end(&x.job, status);
}
