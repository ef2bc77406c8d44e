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
    "  -i                    ask before every removal\n"
    "  -I                    ask once before removing more than three files "
    "or\n"
    "                        before a recursive removal\n"
    "      --interactive[=WHEN]  ask never, once (-I) or always (-i, the "
    "default)\n"
    "      --one-file-system  accepted (there is one file system)\n"
    "      --no-preserve-root  do not treat '/' specially\n"
    "      --preserve-root[=all]  refuse to remove '/' (the default)\n"
    "  -r, -R, --recursive   remove directories and everything below them\n"
    "  -d, --dir             remove empty directories\n"
    "  -v, --verbose         report each removal\n"
    "      --help            show this help and exit\n"
    "      --version         show version information and exit\n"
    "\n"
    "A name starting with '-' can be removed with 'rm -- -name' or "
    "'rm ./-name'.\n";

enum { I_NEVER, I_ONCE, I_ALWAYS };
enum { OPT_INTERACTIVE = 0x100, OPT_ONEFS, OPT_NOPRESERVE, OPT_PRESERVE };

typedef struct rmx {
  bi_ctx *c;
  writer w;
  fu_asker ask;
  int force, interactive, recursive, dir, verbose, preserve_root;
  int out_failed;
} rmx;

/* Outcome of removing one entry. */
enum { RM_OK = 0, RM_DECLINED = 1, RM_FAILED = 2, RM_STOP = 3 };

static int ask(rmx *x, const char *fmt, const char *what, const char *path) {
  wr_flush(&x->w);
  buf b;
  buf_init(&b, x->c->m);
  buf_printf(&b, "%s: ", x->c->argv[0]);
  buf_printf(&b, fmt, what, fu_quote(x->c, path));
  int yes = fu_ask(x->c, &x->ask, buf_cstr(&b));
  buf_free(&b);
  return yes;
}

static int fail(rmx *x, const char *path, int err) {
  wr_flush(&x->w);
  bi_error(x->c, "cannot remove %s: %s", fu_quote(x->c, path),
           bi_strerror(err));
  return RM_FAILED;
}

static int report(rmx *x, const char *what, const char *path) {
  if (!x->verbose)
    return RM_OK;
  if (wr_printf(&x->w, "removed %s%s\n", what, fu_quote(x->c, path)) < 0) {
    x->out_failed = 1;
    return RM_STOP;
  }
  return RM_OK;
}

static int remove_entry(rmx *x, const char *path, const fu_stat *st);

static int remove_tree(rmx *x, const char *path) {
  bi_ctx *c = x->c;
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
  bi_ctx *c = x->c;
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
  if (vfs_lstat(x->c->vfs, x->c->cwd, path, &a) < 0 ||
      vfs_lstat(x->c->vfs, "/", "/", &b) < 0)
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
      {"help", BI_OPT_HELP, BI_ARG_NONE},
      {"version", BI_OPT_VERSION, BI_ARG_NONE},
      {NULL, 0, 0}};
  rmx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.preserve_root = 1;
  bi_getopt g;
  bi_getopt_init(&g, c, "fiIrRdv", opts);
  int o;
  while ((o = bi_getopt_next(&g)) != -1) {
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
        bi_error(c, "invalid argument %s for '--interactive'",
                 fu_quote(c, g.arg));
        stream_puts(c->err, "Valid arguments are:\n"
                            "  - 'never', 'no', 'none'\n"
                            "  - 'once'\n"
                            "  - 'always', 'yes'\n");
        fu_try_help(c);
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
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return fu_version(c);
    default:
      return 1;
    }
  }
  if (g.noperands == 0) {
    if (x.force)
      return 0;
    bi_error(c, "missing operand");
    fu_try_help(c);
    return 1;
  }
  wr_init(&x.w, c->out);
  int status = 0;
  if (x.interactive == I_ONCE && (x.recursive || g.noperands > 3)) {
    buf b;
    buf_init(&b, c->m);
    buf_printf(&b, "%s: remove %d argument%s%s? ", c->argv[0], g.noperands,
               g.noperands == 1 ? "" : "s", x.recursive ? " recursively" : "");
    int yes = fu_ask(c, &x.ask, buf_cstr(&b));
    buf_free(&b);
    if (!yes)
      goto out;
  }
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    if (x.recursive && fu_is_dot_or_dotdot(p)) {
      /* Only when recursing: otherwise they fail like any directory. */
      wr_flush(&x.w);
      bi_error(c, "refusing to remove '.' or '..' directory: skipping %s",
               fu_quote(c, p));
      status = 1;
      continue;
    }
    if (x.recursive && x.preserve_root && is_root(&x, p)) {
      wr_flush(&x.w);
      if (!strcmp(p, "/"))
        bi_error(c, "it is dangerous to operate recursively on '/'");
      else
        bi_error(c,
                 "it is dangerous to operate recursively on %s (same as "
                 "'/')",
                 fu_quote(c, p));
      bi_error(c, "use --no-preserve-root to override this failsafe");
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
out:
  fu_asker_free(c, &x.ask);
  if (x.out_failed || wr_flush(&x.w) < 0)
    return fu_out_status(&x.w);
  return status;
}
