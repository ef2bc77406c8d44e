/* mv.c - GNU mv: rename files, or move them into a directory. Everything is
 * one file system, so a move is always a rename (no copy fallback). */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_mv[] = "Usage: mv [OPTION]... [-T] SOURCE DEST\n"
                           "  or:  mv [OPTION]... SOURCE... DIRECTORY\n"
                           "  or:  mv [OPTION]... -t DIRECTORY SOURCE...";
const char bi_help_mv[] =
    "Rename SOURCE to DEST, or move each SOURCE into DIRECTORY.\n"
    "\n"
    "Mandatory arguments to long options are mandatory for short options "
    "too.\n"
    "  -f, --force                  overwrite without asking\n"
    "  -i, --interactive            ask before overwriting\n"
    "  -n, --no-clobber             never overwrite an existing file\n"
    "      --strip-trailing-slashes  drop trailing slashes of each SOURCE\n"
    "  -t, --target-directory=DIRECTORY  move every SOURCE into DIRECTORY\n"
    "  -T, --no-target-directory    treat DEST as a normal file\n"
    "  -u, --update                 move only when SOURCE is newer than DEST "
    "or\n"
    "                               DEST is missing\n"
    "  -v, --verbose                explain what is being done\n"
    "      --help                   show this help and exit\n"
    "      --version                show version information and exit\n"
    "\n"
    "The last of -f, -i and -n wins.\n";

enum { OPT_STRIP = 0x100 };

typedef struct mvx {
  bi_ctx *c;
  writer w;
  fu_asker ask;
  int force, interactive, noclobber, update, verbose, strip;
  int out_failed;
} mvx;

static int mv_one(mvx *x, const char *src, const char *dst) {
  bi_ctx *c = x->c;
  fu_stat sst, dst_st;
  int rc = vfs_lstat(c->vfs, c->cwd, src, &sst);
  if (rc < 0) {
    wr_flush(&x->w);
    bi_error(c, "cannot stat %s: %s", fu_quote(c, src), bi_strerror(-rc));
    return -1;
  }
  int dst_exists = vfs_lstat(c->vfs, c->cwd, dst, &dst_st) == 0;
  if (dst_exists) {
    if (dst_st.ino == sst.ino) {
      wr_flush(&x->w);
      bi_error(c, "%s and %s are the same file", fu_quote(c, src),
               fu_quote(c, dst));
      return -1;
    }
    /* A symlink to a directory as the target names the link itself here
     * (the directory case was settled by the caller). */
    if (sst.type == VFS_DIR && dst_st.type != VFS_DIR) {
      wr_flush(&x->w);
      bi_error(c, "cannot overwrite non-directory %s with directory %s",
               fu_quote(c, dst), fu_quote(c, src));
      return -1;
    }
    if (sst.type != VFS_DIR && dst_st.type == VFS_DIR) {
      wr_flush(&x->w);
      bi_error(c, "cannot overwrite directory %s with non-directory",
               fu_quote(c, dst));
      return -1;
    }
    if (x->noclobber)
      return 0;
    if (x->update && dst_st.mtime_ns >= sst.mtime_ns)
      return 0;
    if (x->interactive) {
      wr_flush(&x->w);
      buf b;
      buf_init(&b, c->m);
      buf_printf(&b, "%s: overwrite %s? ", c->argv[0], fu_quote(c, dst));
      int yes = fu_ask(c, &x->ask, buf_cstr(&b));
      buf_free(&b);
      if (!yes)
        return 0;
    }
  }
  rc = vfs_rename(c->vfs, c->cwd, src, dst);
  if (rc < 0) {
    wr_flush(&x->w);
    if (rc == -EINVAL)
      bi_error(c, "cannot move %s to a subdirectory of itself, %s",
               fu_quote(c, src), fu_quote(c, dst));
    else
      bi_error(c, "cannot move %s to %s: %s", fu_quote(c, src),
               fu_quote(c, dst), bi_strerror(-rc));
    return -1;
  }
  if (x->verbose && wr_printf(&x->w, "renamed %s -> %s\n", fu_quote(c, src),
                              fu_quote(c, dst)) < 0) {
    x->out_failed = 1;
    return -1;
  }
  return 0;
}

int bi_mv(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"force", 'f', BI_ARG_NONE},
      {"interactive", 'i', BI_ARG_NONE},
      {"no-clobber", 'n', BI_ARG_NONE},
      {"strip-trailing-slashes", OPT_STRIP, BI_ARG_NONE},
      {"target-directory", 't', BI_ARG_REQUIRED},
      {"no-target-directory", 'T', BI_ARG_NONE},
      {"update", 'u', BI_ARG_OPTIONAL},
      {"verbose", 'v', BI_ARG_NONE},
      {"help", BI_OPT_HELP, BI_ARG_NONE},
      {"version", BI_OPT_VERSION, BI_ARG_NONE},
      {NULL, 0, 0}};
  mvx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  const char *target_dir = NULL;
  int no_target = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "fint:Tuv", opts);
  int o;
  while ((o = bi_getopt_next(&g)) != -1) {
    switch (o) {
    case 'f':
      x.force = 1;
      x.interactive = x.noclobber = 0;
      break;
    case 'i':
      x.interactive = 1;
      x.force = x.noclobber = 0;
      break;
    case 'n':
      x.noclobber = 1;
      x.force = x.interactive = 0;
      break;
    case OPT_STRIP:
      x.strip = 1;
      break;
    case 't':
      target_dir = g.arg;
      break;
    case 'T':
      no_target = 1;
      break;
    case 'u':
      x.update = 1;
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
  int n = g.noperands;
  char **ops = g.operands;
  if (target_dir && no_target) {
    bi_error(c, "cannot combine --target-directory (-t) and "
                "--no-target-directory (-T)");
    fu_try_help(c);
    return 1;
  }
  if (n == 0) {
    bi_error(c, "missing file operand");
    fu_try_help(c);
    return 1;
  }
  if (!target_dir && n == 1) {
    bi_error(c, "missing destination file operand after %s",
             fu_quote(c, ops[0]));
    fu_try_help(c);
    return 1;
  }
  if (no_target && n > 2) {
    bi_error(c, "extra operand %s", fu_quote(c, ops[2]));
    fu_try_help(c);
    return 1;
  }
  if (x.strip)
    for (int i = 0; i < n; i++)
      ops[i] = (char *)fu_strip_slashes(c, ops[i]);
  fu_stat st;
  if (!target_dir && !no_target) {
    int rc = vfs_stat(c->vfs, c->cwd, ops[n - 1], &st);
    if (rc == 0 && st.type == VFS_DIR) {
      target_dir = ops[n - 1];
      n--;
    } else if (n > 2) {
      if (rc == 0)
        bi_error(c, "target %s is not a directory", fu_quote(c, ops[n - 1]));
      else
        bi_error(c, "target %s: %s", fu_quote(c, ops[n - 1]), bi_strerror(-rc));
      return 1;
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
      const char *dst = fu_join(c, target_dir, fu_basename(c, ops[i]));
      if (mv_one(&x, ops[i], dst) < 0)
        status = 1;
    }
  } else if (mv_one(&x, ops[0], ops[1]) < 0) {
    status = 1;
  }
  fu_asker_free(c, &x.ask);
  if (x.out_failed || wr_flush(&x.w) < 0)
    return fu_out_status(&x.w);
  return status;
}
