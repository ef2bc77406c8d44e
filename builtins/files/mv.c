/* mv.c - GNU mv: rename files, or move them into a directory. Everything is
 * one file system, so a move is always a rename (no copy fallback). */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_mv[] = "Usage: mv [OPTION]... [-T] SOURCE DEST\n"
                           "  or:  mv [OPTION]... SOURCE... DIRECTORY\n"
                           "  or:  mv [OPTION]... -t DIRECTORY SOURCE...";
const char bi_help_mv[] =
    "Give SOURCE the new name DEST, or move the SOURCEs into DIRECTORY.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -f, --force                  replace existing files without asking\n"
    "  -i, --interactive            ask before replacing an existing file\n"
    "  -n, --no-clobber             leave existing files untouched\n"
    "      --strip-trailing-slashes  ignore slashes that end a SOURCE name\n"
    "  -t, --target-directory=DIRECTORY  put all SOURCEs in DIRECTORY\n"
    "  -T, --no-target-directory    DEST is the new name itself, even if it is "
    "a\n"
    "                               directory\n"
    "  -u, --update                 skip a SOURCE when DEST exists and is not\n"
    "                               older than it\n"
    "  -v, --verbose                name each file as it is moved\n"
    "      --help                   print this summary and quit\n"
    "      --version                print the version line and quit\n"
    "\n"
    "The last of -f, -i and -n wins.\n";

enum { OPT_STRIP = 0x100 };

typedef struct mvx {
  fu_job job;
  fu_replace rep;
  int force, verbose, strip;
} mvx;

static int mv_one(mvx *x, const char *src, const char *dst) {
  bi_ctx *c = x->job.c;
  fu_stat sst, dst_st;
  int rc = vfs_lstat(c->vfs, c->cwd, src, &sst);
  if (rc < 0)
    return fu_job_error(&x->job, "cannot stat %s: %s", fu_quote(c, src),
                        bi_strerror(-rc));
  int dst_exists = vfs_lstat(c->vfs, c->cwd, dst, &dst_st) == 0;
  if (dst_exists) {
    if (dst_st.ino == sst.ino)
      return fu_job_error(&x->job, "%s and %s are the same file",
                          fu_quote(c, src), fu_quote(c, dst));
    /* A symlink to a directory as the target names the link itself here
     * (the directory case was settled by the caller). */
    if (fu_replace_kind(&x->job, src, &sst, dst, &dst_st) < 0)
      return -1;
    if (!fu_may_replace(&x->job, &x->rep, &sst, &dst_st, dst))
      return 0;
  }
  rc = vfs_rename(c->vfs, c->cwd, src, dst);
  if (rc == -EINVAL)
    return fu_job_error(&x->job,
                        "cannot move %s to a subdirectory of itself, %s",
                        fu_quote(c, src), fu_quote(c, dst));
  if (rc < 0)
    return fu_job_error(&x->job, "cannot move %s to %s: %s", fu_quote(c, src),
                        fu_quote(c, dst), bi_strerror(-rc));
  if (x->verbose)
    return fu_job_say(&x->job, "renamed %s -> %s\n", fu_quote(c, src),
                      fu_quote(c, dst));
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
      BI_OPTS_END};
  mvx x;
  memset(&x, 0, sizeof x);
  fu_job_init(&x.job, c);
  fu_targets t = {0};
  bi_getopt g;
  bi_getopt_init(&g, c, "fint:Tuv", opts);
  int o;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'f':
      x.force = 1;
      x.rep.interactive = x.rep.noclobber = 0;
      break;
    case 'i':
      x.rep.interactive = 1;
      x.force = x.rep.noclobber = 0;
      break;
    case 'n':
      x.rep.noclobber = 1;
      x.force = x.rep.interactive = 0;
      break;
    case OPT_STRIP:
      x.strip = 1;
      break;
    case 't':
      t.dir = g.arg;
      break;
    case 'T':
      t.no_dir = 1;
      break;
    case 'u':
      x.rep.update = 1;
      break;
    case 'v':
      x.verbose = 1;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  t.ops = g.operands;
  t.n = g.noperands;
  int status = fu_targets_resolve(c, &t, x.strip ? FU_TARGET_STRIP : 0);
  if (status)
    return status;
  for (int i = 0; i < t.n && !x.job.out_failed; i++)
    if (mv_one(&x, t.ops[i], fu_target_of(c, &t, i)) < 0)
      status = 1;
  return fu_job_end(&x.job, status);
}
