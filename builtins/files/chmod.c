/* chmod.c - GNU chmod: octal and symbolic modes, -R, -v, -c, -f,
 * --reference. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_chmod[] =
    "Usage: chmod [OPTION]... MODE[,MODE]... FILE...\n"
    "  or:  chmod [OPTION]... OCTAL-MODE FILE...\n"
    "  or:  chmod [OPTION]... --reference=RFILE FILE...";
const char bi_help_chmod[] =
    "Change the mode bits of each FILE to MODE, or to those of RFILE.\n"
    "\n"
    "  -c, --changes          like --verbose, but only for actual changes\n"
    "  -f, --silent, --quiet  say nothing about most errors\n"
    "  -v, --verbose          report every file processed\n"
    "      --no-preserve-root  do not treat '/' specially (the default)\n"
    "      --preserve-root    refuse to work recursively on '/'\n"
    "      --reference=RFILE  use RFILE's mode instead of MODE\n"
    "  -R, --recursive        change files and directories recursively\n"
    "      --help             show this help and exit\n"
    "      --version          show version information and exit\n"
    "\n"
    "MODE is octal (755) or symbolic: [ugoa]*([-+=]([rwxXst]*|[ugo]))+, "
    "several\n"
    "separated by commas. Symbolic links met while recursing are not "
    "followed.\n";

enum { OPT_NOPRESERVE = 0x100, OPT_PRESERVE, OPT_REFERENCE };
enum { V_NONE, V_CHANGES, V_ALL };

typedef struct chx {
  bi_ctx *c;
  writer w;
  const fu_mode *mode;
  int have_ref;
  unsigned ref_mode;
  int recursive, quiet, verbosity, preserve_root;
  unsigned umask;
  int out_failed;
} chx;

static int say(chx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int say(chx *x, const char *fmt, ...) {
  buf b;
  buf_init(&b, x->c->m);
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  int rc = wr_write(&x->w, b.data ? b.data : "", b.len);
  buf_free(&b);
  if (rc < 0)
    x->out_failed = 1;
  return rc;
}

static int chmod_one(chx *x, const char *path, int top);

static int chmod_tree(chx *x, const char *path) {
  bi_ctx *c = x->c;
  char **names = NULL;
  size_t n = 0;
  int rc = vfs_readdir(c->vfs, c->cwd, path, &names, &n);
  if (rc < 0) {
    if (!x->quiet) {
      wr_flush(&x->w);
      bi_error(c, "cannot read directory %s: %s", fu_quote(c, path),
               bi_strerror(-rc));
    }
    return -1;
  }
  int status = 0;
  for (size_t i = 0; i < n && !x->out_failed; i++)
    if (chmod_one(x, fu_join(c, path, names[i]), 0) < 0)
      status = -1;
  vfs_free_names(c->vfs, names, n);
  return status;
}

static int chmod_one(chx *x, const char *path, int top) {
  bi_ctx *c = x->c;
  if (fu_poll(c)) {
    x->out_failed = 1; /* stops every loop; the shell reports the limit */
    return -1;
  }
  fu_stat st;
  int rc = top ? vfs_stat(c->vfs, c->cwd, path, &st)
               : vfs_lstat(c->vfs, c->cwd, path, &st);
  if (rc < 0) {
    if (!x->quiet) {
      wr_flush(&x->w);
      bi_error(c, "cannot access %s: %s", fu_quote(c, path), bi_strerror(-rc));
    }
    if (x->verbosity == V_ALL)
      say(x, "%s could not be accessed\n", fu_quote(c, path));
    return -1;
  }
  if (st.type == VFS_LNK) {
    /* Met while recursing: links have no mode of their own to change. */
    if (x->verbosity == V_ALL)
      say(x, "neither symbolic link %s nor referent has been changed\n",
          fu_quote(c, path));
    return 0;
  }
  if (top && x->recursive && x->preserve_root && st.type == VFS_DIR) {
    fu_stat root;
    if (vfs_stat(c->vfs, "/", "/", &root) == 0 && root.ino == st.ino) {
      wr_flush(&x->w);
      if (!strcmp(path, "/"))
        bi_error(c, "it is dangerous to operate recursively on '/'");
      else
        bi_error(c,
                 "it is dangerous to operate recursively on %s (same as '/')",
                 fu_quote(c, path));
      bi_error(c, "use --no-preserve-root to override this failsafe");
      return -1;
    }
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
    if (!x->quiet) {
      wr_flush(&x->w);
      bi_error(c, "changing permissions of %s: %s", fu_quote(c, path),
               bi_strerror(-rc));
    }
    if (x->verbosity == V_ALL)
      say(x, "failed to change mode of %s from %04o (%s) to %04o (%s)\n",
          fu_quote(c, path), old, os + 1, nm, ns + 1);
    status = -1;
  } else if (x->verbosity != V_NONE) {
    if (nm != old)
      say(x, "mode of %s changed from %04o (%s) to %04o (%s)\n",
          fu_quote(c, path), old, os + 1, nm, ns + 1);
    else if (x->verbosity == V_ALL)
      say(x, "mode of %s retained as %04o (%s)\n", fu_quote(c, path), old,
          os + 1);
  }
  if (x->recursive && st.type == VFS_DIR && !x->out_failed &&
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
      {"help", BI_OPT_HELP, BI_ARG_NONE},
      {"version", BI_OPT_VERSION, BI_ARG_NONE},
      {NULL, 0, 0}};
  chx x;
  memset(&x, 0, sizeof x);
  x.c = c;
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
  while ((o = bi_getopt_next(&g)) != -1) {
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
    case BI_OPT_HELP:
      status = bi_print_help(c);
      goto restore;
    case BI_OPT_VERSION:
      status = fu_version(c);
      goto restore;
    default:
      status = 1;
      goto restore;
    }
  }
  char **ops = g.operands;
  int n = g.noperands;
  const char *mode_text = dash_mode;
  if (!ref && !mode_text && n > 0) {
    mode_text = ops[0];
    ops++;
    n--;
  }
  if (!ref && !mode_text) {
    bi_error(c, "missing operand");
    fu_try_help(c);
    status = 1;
    goto restore;
  }
  if (n == 0) {
    if (mode_text)
      bi_error(c, "missing operand after %s", fu_quote(c, mode_text));
    else
      bi_error(c, "missing operand");
    fu_try_help(c);
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
      bi_error(c, "invalid mode: %s", fu_quote(c, mode_text));
      fu_try_help(c);
      status = 1;
      goto restore;
    }
  }
  x.umask = vfs_get_umask(c->vfs);
  wr_init(&x.w, c->out);
  for (int i = 0; i < n && !x.out_failed; i++)
    if (chmod_one(&x, ops[i], 1) < 0)
      status = 1;
  if (x.out_failed || wr_flush(&x.w) < 0)
    status = fu_out_status(&x.w);
restore:
  c->argc = saved_argc;
  c->argv = saved_argv;
  return status;
}
