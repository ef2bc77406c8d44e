/* mkdir.c - GNU mkdir: create directories (-p parents, -m mode, -v). */
#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_mkdir[] = "Usage: mkdir [OPTION]... DIRECTORY...";
const char bi_help_mkdir[] =
    "Create each DIRECTORY that does not exist yet.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -m, --mode=MODE   give the new directories MODE (as in chmod) instead "
    "of\n"
    "                    a=rwx minus the umask\n"
    "  -p, --parents     create missing parent directories as needed; an "
    "existing\n"
    "                    directory is not an error\n"
    "  -v, --verbose     report each directory created\n"
    "  -Z                accepted and ignored (no security contexts here)\n"
    "      --help        print this summary and quit\n"
    "      --version     print the version line and quit\n";

typedef struct mk {
  bi_ctx *c;
  writer *w;
  int verbose;
  unsigned umask;
} mk;

static int created(mk *k, const char *path) {
  if (!k->verbose)
    return 0;
  return wr_printf(k->w, "%s: created directory %s\n", k->c->argv[0],
                   fu_quote(k->c, path));
}

/* Create path with exactly `mode` (the vfs applies the umask; undo that when
 * the caller asked for bits the umask removes, as GNU does). */
static int make(mk *k, const char *path, unsigned mode) {
  int rc = vfs_mkdir(k->c->vfs, k->c->cwd, path, mode);
  if (rc < 0)
    return rc;
  if ((mode & ~k->umask) != mode)
    vfs_chmod(k->c->vfs, k->c->cwd, path, mode);
  return 0;
}

/* mkdir -p: each missing prefix is created (u+wx so the walk can go on),
 * the full path last with the requested mode. */
static int make_parents(mk *k, const char *path, unsigned mode) {
  bi_ctx *c = k->c;
  size_t n = strlen(path);
  char *pre = arena_alloc(c->scratch, n + 1);
  if (!pre)
    return -ENOMEM;
  size_t i = 0;
  while (i < n) {
    while (i < n && path[i] == '/')
      i++;
    while (i < n && path[i] != '/')
      i++;
    size_t j = i;
    while (j < n && path[j] == '/')
      j++;
    if (j >= n)
      break; /* the last component: handled below */
    memcpy(pre, path, i);
    pre[i] = 0;
    fu_stat st;
    int rc = vfs_stat(c->vfs, c->cwd, pre, &st);
    if (rc == 0 && st.type == VFS_DIR)
      continue;
    if (rc == 0)
      rc = -ENOTDIR;
    else if (rc == -ENOENT)
      rc = make(k, pre, (0777 & ~k->umask) | 0300);
    if (rc < 0) {
      bi_error(c, "cannot create directory %s: %s", tu_quote(c, pre),
               bi_strerror(-rc));
      return -1;
    }
    if (created(k, pre) < 0)
      return -2;
  }
  int rc = make(k, path, mode);
  if (rc == -EEXIST) {
    fu_stat st;
    if (vfs_stat(c->vfs, c->cwd, path, &st) == 0 && st.type == VFS_DIR)
      return 0;
  }
  if (rc < 0) {
    bi_error(c, "cannot create directory %s: %s", tu_quote(c, path),
             bi_strerror(-rc));
    return -1;
  }
  return created(k, path) < 0 ? -2 : 0;
}

int bi_mkdir(bi_ctx *c) {
  static const bi_opt opts[] = {{"mode", 'm', BI_ARG_REQUIRED},
                                {"parents", 'p', BI_ARG_NONE},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"context", 'Z', BI_ARG_OPTIONAL},
                                BI_OPTS_END};
  bi_getopt g;
  bi_getopt_init(&g, c, "m:pvZ", opts);
  int o, parents = 0, verbose = 0;
  const char *mode_text = NULL;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'm':
      mode_text = g.arg;
      break;
    case 'p':
      parents = 1;
      break;
    case 'v':
      verbose = 1;
      break;
    case 'Z':
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return bi_missing_operand(c);
  mk k = {c, NULL, verbose, vfs_get_umask(c->vfs)};
  unsigned mode = 0777 & ~k.umask;
  if (mode_text) {
    fu_mode *m = fu_mode_parse(c, mode_text);
    if (!m) {
      bi_error(c, "invalid mode %s", tu_quote(c, mode_text));
      return 1;
    }
    mode = fu_mode_apply(m, 0777, 1, k.umask);
  }
  writer w;
  wr_init(&w, c->out);
  k.w = &w;
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    int rc;
    if (parents) {
      rc = make_parents(&k, p, mode);
    } else {
      rc = make(&k, p, mode);
      if (rc < 0) {
        bi_error(c, "cannot create directory %s: %s", tu_quote(c, p),
                 bi_strerror(-rc));
        rc = -1;
      } else if (created(&k, p) < 0) {
        rc = -2;
      }
    }
    if (rc == -2)
      return fu_out_status(&w);
    if (rc < 0)
      status = 1;
  }
  return fu_out_end(&w, status);
}
