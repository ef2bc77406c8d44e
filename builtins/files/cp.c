/* cp.c - GNU cp: copy files and directory trees inside the VFS.
 *
 * A regular file is copied with one vfs_write_file call, which replaces the
 * target atomically: a failure (quota, permission) leaves the old target as
 * it was, never half written. */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_cp[] = "Usage: cp [OPTION]... [-T] SOURCE DEST\n"
                           "  or:  cp [OPTION]... SOURCE... DIRECTORY\n"
                           "  or:  cp [OPTION]... -t DIRECTORY SOURCE...";
const char bi_help_cp[] =
    "Make a copy of SOURCE named DEST, or put copies of the SOURCEs into\n"
    "DIRECTORY.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -a, --archive                shorthand for -dR --preserve=all\n"
    "  -d                           shorthand for --no-dereference\n"
    "                               --preserve=links\n"
    "  -f, --force                  when a target cannot be written, remove "
    "it\n"
    "                               and try again\n"
    "  -i, --interactive            ask before replacing a file (cancels an "
    "earlier -n)\n"
    "  -H                           resolve symbolic links given as operands, "
    "but\n"
    "                               not ones found inside directories\n"
    "  -l, --link                   create hard links rather than copies\n"
    "  -L, --dereference            copy what every symbolic link points to\n"
    "  -n, --no-clobber             leave existing files untouched\n"
    "  -P, --no-dereference         copy symbolic links as links\n"
    "  -p                           shorthand for\n"
    "                               --preserve=mode,ownership,timestamps\n"
    "      --preserve[=ATTR_LIST]   carry over the attributes in ATTR_LIST\n"
    "                               (default: mode,ownership,timestamps); "
    "links\n"
    "                               and all are accepted too\n"
    "      --no-preserve=ATTR_LIST  leave the attributes in ATTR_LIST behind\n"
    "  -R, -r, --recursive          copy directories with everything inside "
    "them\n"
    "  -s, --symbolic-link          create symbolic links rather than copies\n"
    "  -t, --target-directory=DIRECTORY  put all copies in DIRECTORY\n"
    "  -T, --no-target-directory    DEST is the copy itself, even if it is a\n"
    "                               directory\n"
    "  -u, --update                 skip a SOURCE when DEST exists and is not\n"
    "                               older than it\n"
    "  -v, --verbose                name each file as it is copied\n"
    "      --help                   print this summary and quit\n"
    "      --version                print the version line and quit\n"
    "\n"
    "Without -R, symbolic links in SOURCE are followed; with -R they are "
    "copied\n"
    "as links unless -L or -H is given. Ownership cannot be changed in the\n"
    "sandbox: preserving it is accepted and has no effect.\n";

enum {
  OPT_PRESERVE = 0x100,
  OPT_NO_PRESERVE,
  OPT_REFLINK,
  OPT_SPARSE,
  OPT_STRIP,
  OPT_REMOVE_DEST
};
enum { D_UNSET, D_NEVER, D_CMDLINE, D_ALWAYS };
enum { P_MODE = 1, P_OWNER = 2, P_TIME = 4, P_LINKS = 8, P_ALL = 15 };

typedef struct link_rec {
  uint64_t ino;
  const char *dst;
} link_rec;

typedef struct cpx {
  fu_job job;
  fu_replace rep;
  int recursive, deref, force, verbose;
  int hardlink, symlink, remove_dest;
  unsigned preserve;
  unsigned umask;
  link_rec *links;
  size_t nlinks, caplinks;
} cpx;

static int err_at(cpx *x, const char *fmt, const char *a, int e) {
  return fu_job_error(&x->job, fmt, fu_quote(x->job.c, a), bi_strerror(e));
}

static int verbose(cpx *x, const char *src, const char *dst) {
  if (!x->verbose)
    return 0;
  return fu_job_say(&x->job, "%s -> %s\n", fu_quote(x->job.c, src),
                    fu_quote(x->job.c, dst));
}

static const char *link_find(cpx *x, uint64_t ino) {
  for (size_t i = 0; i < x->nlinks; i++)
    if (x->links[i].ino == ino)
      return x->links[i].dst;
  return NULL;
}

static void link_add(cpx *x, uint64_t ino, const char *dst) {
  if (x->nlinks == x->caplinks) {
    size_t nc = x->caplinks ? x->caplinks * 2 : 16;
    link_rec *n = arena_alloc(x->job.c->scratch, nc * sizeof *n);
    if (!n)
      return;
    if (x->nlinks)
      memcpy(n, x->links, x->nlinks * sizeof *n);
    x->links = n;
    x->caplinks = nc;
  }
  x->links[x->nlinks].ino = ino;
  x->links[x->nlinks].dst = dst;
  x->nlinks++;
}

/* Mode and times after a copy, per --preserve. */
static void finish_attrs(cpx *x, const char *dst, const fu_stat *st,
                         int created) {
  bi_ctx *c = x->job.c;
  if (x->preserve & P_MODE)
    vfs_chmod(c->vfs, c->cwd, dst, st->mode);
  else if (created && st->type == VFS_DIR)
    vfs_chmod(c->vfs, c->cwd, dst, st->mode & ~x->umask);
  if (x->preserve & P_TIME)
    vfs_utimes(c->vfs, c->cwd, dst, st->atime_ns, st->mtime_ns, 0);
}

static int copy_file(cpx *x, const char *src, const fu_stat *sst,
                     const char *dst, int dst_exists) {
  bi_ctx *c = x->job.c;
  if (x->hardlink || x->symlink || x->remove_dest) {
    if (dst_exists)
      vfs_unlink(c->vfs, c->cwd, dst);
    if (x->hardlink || x->symlink) {
      int rc = x->hardlink ? vfs_link(c->vfs, c->cwd, src, dst)
                           : vfs_symlink(c->vfs, c->cwd, src, dst);
      if (rc < 0)
        return fu_job_error(&x->job, "cannot create %s link %s to %s: %s",
                            x->hardlink ? "hard" : "symbolic", fu_quote(c, dst),
                            fu_quote(c, src), bi_strerror(-rc));
      return verbose(x, src, dst);
    }
    dst_exists = 0;
  }
  if ((x->preserve & P_LINKS) && sst->nlink > 1) {
    const char *first = link_find(x, sst->ino);
    if (first) {
      if (dst_exists)
        vfs_unlink(c->vfs, c->cwd, dst);
      int rc = vfs_link(c->vfs, c->cwd, first, dst);
      if (rc < 0)
        return err_at(x, "cannot create hard link %s: %s", dst, -rc);
      return verbose(x, src, dst);
    }
    link_add(x, sst->ino, arena_strdup(c->scratch, dst));
  }
  vfs_file *f = NULL;
  int rc = vfs_open(c->vfs, c->cwd, src, O_RDONLY, 0, &f);
  if (rc < 0)
    return err_at(x, "cannot open %s for reading: %s", src, -rc);
  size_t len = 0;
  const char *data = vfs_file_data(f, &len);
  unsigned mode = sst->mode & 07777;
  rc = vfs_write_file(c->vfs, c->cwd, dst, data ? data : "", len,
                      mode ? mode : 0644);
  if (rc == -EACCES && x->force && dst_exists &&
      vfs_unlink(c->vfs, c->cwd, dst) == 0) {
    dst_exists = 0;
    rc = vfs_write_file(c->vfs, c->cwd, dst, data ? data : "", len,
                        mode ? mode : 0644);
  }
  vfs_close(f);
  if (rc == -ENOSPC || rc == -EFBIG)
    return err_at(x, "error writing %s: %s", dst, -rc);
  if (rc < 0)
    return err_at(x,
                  dst_exists ? "cannot open %s for writing: %s"
                             : "cannot create regular file %s: %s",
                  dst, -rc);
  if (!dst_exists && mode == 0)
    vfs_chmod(c->vfs, c->cwd, dst, 0);
  finish_attrs(x, dst, sst, !dst_exists);
  return verbose(x, src, dst);
}

static int copy_symlink(cpx *x, const char *src, const char *dst,
                        int dst_exists) {
  bi_ctx *c = x->job.c;
  char *target = NULL;
  size_t tlen = 0;
  int rc = vfs_readlink(c->vfs, c->cwd, src, &target, &tlen);
  if (rc < 0)
    return err_at(x, "cannot read symbolic link %s: %s", src, -rc);
  if (dst_exists)
    vfs_unlink(c->vfs, c->cwd, dst);
  rc = vfs_symlink(c->vfs, c->cwd, target, dst);
  vfs_release(c->vfs, target);
  if (rc < 0)
    return err_at(x, "cannot create symbolic link %s: %s", dst, -rc);
  return verbose(x, src, dst);
}

static int copy_any(cpx *x, const char *src, const char *dst, int top);

static int copy_dir(cpx *x, const char *src, const fu_stat *sst,
                    const char *dst, int dst_exists) {
  bi_ctx *c = x->job.c;
  int created = 0;
  if (!dst_exists) {
    /* Owner rwx while filling it; the final mode is set afterwards. */
    int rc = vfs_mkdir(c->vfs, c->cwd, dst, 0700);
    if (rc < 0)
      return err_at(x, "cannot create directory %s: %s", dst, -rc);
    vfs_chmod(c->vfs, c->cwd, dst, (sst->mode & 07777) | 0700);
    created = 1;
    if (verbose(x, src, dst) < 0)
      return -1;
  }
  char **names = NULL;
  size_t n = 0;
  int rc = vfs_readdir(c->vfs, c->cwd, src, &names, &n);
  if (rc < 0) {
    err_at(x, "cannot access %s: %s", src, -rc);
    if (created)
      finish_attrs(x, dst, sst, created);
    return -1;
  }
  int status = 0;
  for (size_t i = 0; i < n && !x->job.out_failed; i++)
    if (copy_any(x, fu_join(c, src, names[i]), fu_join(c, dst, names[i]), 0) <
        0)
      status = -1;
  vfs_free_names(c->vfs, names, n);
  finish_attrs(x, dst, sst, created);
  return status;
}

static int copy_any(cpx *x, const char *src, const char *dst, int top) {
  bi_ctx *c = x->job.c;
  if (fu_poll(c)) {
    x->job.out_failed = 1; /* stops every loop; the shell reports the limit */
    return -1;
  }
  fu_stat sst, dst_st;
  int follow = x->deref == D_ALWAYS || (top && x->deref == D_CMDLINE);
  int rc = follow ? vfs_stat(c->vfs, c->cwd, src, &sst)
                  : vfs_lstat(c->vfs, c->cwd, src, &sst);
  if (rc < 0)
    return err_at(x, "cannot stat %s: %s", src, -rc);
  if (sst.type == VFS_DIR && !x->recursive)
    return fu_job_error(&x->job, "-r not specified; omitting directory %s",
                        fu_quote(c, src));
  /* The target as the copy will meet it: a symlink to a file is written
   * through, so follow it (a dangling one counts as a new name). */
  int dst_exists = vfs_stat(c->vfs, c->cwd, dst, &dst_st) == 0;
  fu_stat dl;
  if (!dst_exists && vfs_lstat(c->vfs, c->cwd, dst, &dl) == 0 &&
      dl.type == VFS_LNK && sst.type == VFS_LNK) {
    dst_exists = 1; /* replace a dangling link by the copied link */
    dst_st = dl;
  }
  if (dst_exists && dst_st.ino == sst.ino && dst_st.type == sst.type)
    return fu_job_error(&x->job, "%s and %s are the same file",
                        fu_quote(c, src), fu_quote(c, dst));
  if (dst_exists && fu_replace_kind(&x->job, src, &sst, dst, &dst_st) < 0)
    return -1;
  if (sst.type == VFS_DIR) {
    if (top) {
      int e1, e2;
      const char *cs = fu_canon(c, src, FU_CANON_EXISTING, &e1);
      const char *cd = fu_canon(c, dst, FU_CANON_MISSING, &e2);
      size_t l = cs ? strlen(cs) : 0;
      if (cs && cd &&
          (!strcmp(cs, cd) ||
           (!strncmp(cs, cd, l) && (cd[l] == '/' || (l == 1 && cs[0] == '/')))))
        return fu_job_error(&x->job,
                            "cannot copy a directory, %s, into itself, %s",
                            fu_quote(c, src), fu_quote(c, dst));
    }
    return copy_dir(x, src, &sst, dst, dst_exists);
  }
  if (dst_exists && !fu_may_replace(&x->job, &x->rep, &sst, &dst_st, dst))
    return 0;
  size_t dl_len = strlen(dst);
  if (!dst_exists && dl_len && dst[dl_len - 1] == '/') {
    /* "cp f new/": a file name cannot end in a slash. */
    return err_at(x, "cannot create regular file %s: %s", dst, ENOTDIR);
  }
  if (sst.type == VFS_LNK && !x->hardlink && !x->symlink)
    return copy_symlink(x, src, dst, dst_exists);
  return copy_file(x, src, &sst, dst, dst_exists);
}

/* --preserve / --no-preserve lists. */
static int parse_attrs(bi_ctx *c, const char *list, const char *opt,
                       unsigned *out) {
  unsigned r = 0;
  const char *p = list;
  while (*p) {
    size_t n = strcspn(p, ",");
    if (n == 4 && !strncmp(p, "mode", 4))
      r |= P_MODE;
    else if (n == 9 && !strncmp(p, "ownership", 9))
      r |= P_OWNER;
    else if (n == 10 && !strncmp(p, "timestamps", 10))
      r |= P_TIME;
    else if (n == 5 && !strncmp(p, "links", 5))
      r |= P_LINKS;
    else if (n == 3 && !strncmp(p, "all", 3))
      r |= P_ALL;
    else if ((n == 7 && !strncmp(p, "context", 7)) ||
             (n == 5 && !strncmp(p, "xattr", 5)))
      ; /* nothing of the kind in the sandbox */
    else {
      char *bad = arena_strndup(c->scratch, p, n);
      fu_bad_arg(c, opt, bad ? bad : p,
                 "  - 'mode'\n  - 'timestamps'\n  - 'ownership'\n"
                 "  - 'links'\n  - 'context'\n  - 'xattr'\n"
                 "  - 'all'\n");
      return -1;
    }
    p += n;
    if (*p == ',')
      p++;
  }
  *out = r;
  return 0;
}

int bi_cp(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"archive", 'a', BI_ARG_NONE},
      {"force", 'f', BI_ARG_NONE},
      {"interactive", 'i', BI_ARG_NONE},
      {"link", 'l', BI_ARG_NONE},
      {"dereference", 'L', BI_ARG_NONE},
      {"no-clobber", 'n', BI_ARG_NONE},
      {"no-dereference", 'P', BI_ARG_NONE},
      {"preserve", OPT_PRESERVE, BI_ARG_OPTIONAL},
      {"no-preserve", OPT_NO_PRESERVE, BI_ARG_REQUIRED},
      {"recursive", 'R', BI_ARG_NONE},
      {"reflink", OPT_REFLINK, BI_ARG_OPTIONAL},
      {"remove-destination", OPT_REMOVE_DEST, BI_ARG_NONE},
      {"sparse", OPT_SPARSE, BI_ARG_REQUIRED},
      {"strip-trailing-slashes", OPT_STRIP, BI_ARG_NONE},
      {"symbolic-link", 's', BI_ARG_NONE},
      {"target-directory", 't', BI_ARG_REQUIRED},
      {"no-target-directory", 'T', BI_ARG_NONE},
      {"update", 'u', BI_ARG_OPTIONAL},
      {"verbose", 'v', BI_ARG_NONE},
      {"one-file-system", 'x', BI_ARG_NONE},
      BI_OPTS_END};
  cpx x;
  memset(&x, 0, sizeof x);
  fu_job_init(&x.job, c);
  fu_targets t = {0};
  bi_getopt g;
  bi_getopt_init(&g, c, "adfHilLnPprRsTt:uvx", opts);
  int o;
  unsigned bits;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'a':
      x.recursive = 1;
      x.deref = D_NEVER;
      x.preserve = P_ALL;
      break;
    case 'd':
      x.deref = D_NEVER;
      x.preserve |= P_LINKS;
      break;
    case 'f':
      x.force = 1;
      break;
    case 'i':
      x.rep.interactive = 1;
      x.rep.noclobber = 0;
      break;
    case 'n':
      x.rep.noclobber = 1;
      x.rep.interactive = 0;
      break;
    case 'H':
      x.deref = D_CMDLINE;
      break;
    case 'L':
      x.deref = D_ALWAYS;
      break;
    case 'P':
      x.deref = D_NEVER;
      break;
    case 'l':
      x.hardlink = 1;
      break;
    case 's':
      x.symlink = 1;
      break;
    case 'p':
      x.preserve |= P_MODE | P_OWNER | P_TIME;
      break;
    case OPT_PRESERVE:
      if (!g.arg)
        bits = P_MODE | P_OWNER | P_TIME;
      else if (parse_attrs(c, g.arg, "--preserve", &bits) < 0)
        return 1;
      x.preserve |= bits;
      break;
    case OPT_NO_PRESERVE:
      if (parse_attrs(c, g.arg, "--no-preserve", &bits) < 0)
        return 1;
      x.preserve &= ~bits;
      break;
    case 'r':
    case 'R':
      x.recursive = 1;
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
    case OPT_REMOVE_DEST:
      x.remove_dest = 1;
      break;
    case 'x':
    case OPT_REFLINK:
    case OPT_SPARSE:
    case OPT_STRIP:
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (x.deref == D_UNSET)
    x.deref = x.recursive ? D_NEVER : D_ALWAYS;
  x.umask = vfs_get_umask(c->vfs);
  t.ops = g.operands;
  t.n = g.noperands;
  int status = fu_targets_resolve(c, &t, 0);
  if (status)
    return status;
  for (int i = 0; i < t.n && !x.job.out_failed; i++)
    if (copy_any(&x, t.ops[i], fu_target_of(c, &t, i), 1) < 0)
      status = 1;
  return fu_job_end(&x.job, status);
}
