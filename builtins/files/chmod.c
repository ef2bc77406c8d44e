/* chmod.c - GNU chmod: octal and symbolic modes, -R, -v, -c, -f,
 * --reference. */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_chmod[] =
    "Usage: chmod [OPTION]... MODE[,MODE]... FILE...\n"
    "  or:  chmod [OPTION]... OCTAL-MODE FILE...\n"
    "  or:  chmod [OPTION]... --reference=RFILE FILE...";
const char bi_help_chmod[] =
    "Set the permission bits of each FILE to MODE, or copy them from RFILE.\n"
    "\n"
    "  -c, --changes          name each file whose mode really changes\n"
    "  -f, --silent, --quiet  leave most error messages out\n"
    "  -v, --verbose          name every file handled, changed or not\n"
    "      --no-preserve-root  give '/' no special protection (the default)\n"
    "      --preserve-root    with -R, refuse to operate on '/'\n"
    "      --reference=RFILE  take the mode from RFILE, not from a MODE "
    "operand\n"
    "  -R, --recursive        also handle everything below each directory\n"
    "      --help             print this summary and quit\n"
    "      --version          print the version line and quit\n"
    "\n"
    "MODE is octal (755) or symbolic: [ugoa]*([-+=]([rwxXst]*|[ugo]))+, "
    "several\n"
    "separated by commas. Symbolic links met while recursing are not "
    "followed.\n";

enum { OPT_NOPRESERVE = 0x100, OPT_PRESERVE, OPT_REFERENCE };
enum { V_NONE, V_CHANGES, V_ALL };

typedef struct chx {
  fu_job job;
  const fu_mode *mode;
  int have_ref;
  unsigned ref_mode;
  int recursive, quiet, verbosity, preserve_root;
  unsigned umask;
} chx;

static int chmod_one(chx *x, const char *path, int top);

static int chmod_tree(chx *x, const char *path) {
  bi_ctx *c = x->job.c;
  char **names = NULL;
  size_t n = 0;
  int rc = vfs_readdir(c->vfs, c->cwd, path, &names, &n);
  if (rc < 0) {
    if (!x->quiet)
      fu_job_error(&x->job, "cannot read directory %s: %s", fu_quote(c, path),
                   bi_strerror(-rc));
    return -1;
  }
  int status = 0;
  for (size_t i = 0; i < n && !x->job.out_failed; i++)
    if (chmod_one(x, fu_join(c, path, names[i]), 0) < 0)
      status = -1;
  vfs_free_names(c->vfs, names, n);
  return status;
}

static int chmod_one(chx *x, const char *path, int top) {
  bi_ctx *c = x->job.c;
  if (fu_poll(c)) {
    x->job.out_failed = 1; /* stops every loop; the shell reports the limit */
    return -1;
  }
  fu_stat st;
  int rc = top ? vfs_stat(c->vfs, c->cwd, path, &st)
               : vfs_lstat(c->vfs, c->cwd, path, &st);
  if (rc < 0) {
    if (!x->quiet)
      fu_job_error(&x->job, "cannot access %s: %s", fu_quote(c, path),
                   bi_strerror(-rc));
    if (x->verbosity == V_ALL)
      fu_job_say(&x->job, "%s could not be accessed\n", fu_quote(c, path));
    return -1;
  }
  if (st.type == VFS_LNK) {
    /* Met while recursing: links have no mode of their own to change. */
    if (x->verbosity == V_ALL)
      fu_job_say(&x->job,
                 "neither symbolic link %s nor referent has been changed\n",
                 fu_quote(c, path));
    return 0;
  }
  if (top && x->recursive && x->preserve_root && st.type == VFS_DIR) {
    fu_stat root;
    if (vfs_stat(c->vfs, "/", "/", &root) == 0 && root.ino == st.ino)
      return fu_job_refuse_root(&x->job, path);
  }
  unsigned old = st.mode & 07777;
  unsigned nm = x->have_ref
                    ? x->ref_mode
                    : fu_mode_apply(x->mode, old, st.type == VFS_DIR, x->umask);
  int status = 0;
  char os[11], ns[11];
  fu_mode_string(st.type, old, os);
  fu_mode_string(st.type, nm, ns);
  /* Called even when nothing changes: like GNU, a file the user does not
   * own is an error either way. */
  rc = vfs_chmod(c->vfs, c->cwd, path, nm);
  if (rc < 0) {
    if (!x->quiet)
      fu_job_error(&x->job, "changing permissions of %s: %s", fu_quote(c, path),
                   bi_strerror(-rc));
    if (x->verbosity == V_ALL)
      fu_job_say(&x->job,
                 "failed to change mode of %s from %04o (%s) to %04o (%s)\n",
                 fu_quote(c, path), old, os + 1, nm, ns + 1);
    status = -1;
  } else if (x->verbosity != V_NONE) {
    if (nm != old)
      fu_job_say(&x->job, "mode of %s changed from %04o (%s) to %04o (%s)\n",
                 fu_quote(c, path), old, os + 1, nm, ns + 1);
    else if (x->verbosity == V_ALL)
      fu_job_say(&x->job, "mode of %s retained as %04o (%s)\n",
                 fu_quote(c, path), old, os + 1);
  }
  if (x->recursive && st.type == VFS_DIR && !x->job.out_failed &&
      chmod_tree(x, path) < 0)
    status = -1;
  return status;
}

/* "chmod -w f" and "chmod -x,u+r f": such arguments are modes, not options.
 * They are taken out before option parsing, as GNU does. */
static int is_mode_arg(const char *a) {
  return a[0] == '-' && a[1] &&
         strspn(a + 1, "rwxXstugoa,+-=01234567") == strlen(a + 1);
}

int bi_chmod(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"changes", 'c', BI_ARG_NONE},
      {"silent", 'f', BI_ARG_NONE},
      {"quiet", 'f', BI_ARG_NONE},
      {"verbose", 'v', BI_ARG_NONE},
      {"no-preserve-root", OPT_NOPRESERVE, BI_ARG_NONE},
      {"preserve-root", OPT_PRESERVE, BI_ARG_NONE},
      {"reference", OPT_REFERENCE, BI_ARG_REQUIRED},
      {"recursive", 'R', BI_ARG_NONE},
      BI_OPTS_END};
  chx x;
  memset(&x, 0, sizeof x);
  fu_job_init(&x.job, c);
  /* Pull out mode-looking arguments ahead of "--". */
  const char *dash_mode = NULL;
  char **argv = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 1));
  if (!argv)
    return 1;
  int argc = 0, seen_ddash = 0;
  for (int i = 0; i < c->argc; i++) {
    char *a = c->argv[i];
    if (i > 0 && !seen_ddash && !dash_mode && is_mode_arg(a) &&
        strcmp(a, "--")) {
      dash_mode = a;
      continue;
    }
    if (!strcmp(a, "--"))
      seen_ddash = 1;
    argv[argc++] = a;
  }
  argv[argc] = NULL;
  int saved_argc = c->argc;
  char **saved_argv = c->argv;
  c->argc = argc;
  c->argv = argv;
  bi_getopt g;
  bi_getopt_init(&g, c, "cfvR", opts);
  int o, status = 0;
  const char *ref = NULL;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'c':
      x.verbosity = V_CHANGES;
      break;
    case 'f':
      x.quiet = 1;
      break;
    case 'v':
      x.verbosity = V_ALL;
      break;
    case OPT_NOPRESERVE:
      x.preserve_root = 0;
      break;
    case OPT_PRESERVE:
      x.preserve_root = 1;
      break;
    case OPT_REFERENCE:
      ref = g.arg;
      break;
    case 'R':
      x.recursive = 1;
      break;
    }
  }
  if (o == BI_OPT_STOP) {
    status = g.status;
    goto restore;
  }
  char **ops = g.operands;
  int n = g.noperands;
  const char *mode_text = dash_mode;
  if (!ref && !mode_text && n > 0) {
    mode_text = ops[0];
    ops++;
    n--;
  }
  if (n == 0 && !mode_text) {
    status = bi_missing_operand(c);
    goto restore;
  }
  if (n == 0) {
    bi_error(c, "missing operand after %s", tu_quote(c, mode_text));
    bi_try_help(c);
    status = 1;
    goto restore;
  }
  if (ref) {
    fu_stat rst;
    int rc = vfs_stat(c->vfs, c->cwd, ref, &rst);
    if (rc < 0) {
      bi_error(c, "failed to get attributes of %s: %s", fu_quote(c, ref),
               bi_strerror(-rc));
      status = 1;
      goto restore;
    }
    x.have_ref = 1;
    x.ref_mode = rst.mode & 07777;
  } else {
    x.mode = fu_mode_parse(c, mode_text);
    if (!x.mode) {
      bi_error(c, "invalid mode: %s", tu_quote(c, mode_text));
      bi_try_help(c);
      status = 1;
      goto restore;
    }
  }
  x.umask = vfs_get_umask(c->vfs);
  for (int i = 0; i < n && !x.job.out_failed; i++)
    if (chmod_one(&x, ops[i], 1) < 0)
      status = 1;
  status = fu_job_end(&x.job, status);
restore:
  c->argc = saved_argc;
  c->argv = saved_argv;
  return status;
}
