/*
 * walk.c - the directory walk of rg: which files are searched.
 *
 * Directories are read in byte order of names, depth first (rg --sort
 * path). An entry is weighed as ripgrep's ignore rules do, first answer
 * wins:
 *
 *  1. -g/--iglob overrides: a matching glob includes (or, with '!',
 *     excludes) it outright; when some include globs exist, a file none of
 *     them matches is left out.
 *  2. ignore files, from the entry's own directory up to '/': .rgignore
 *     before .ignore before .gitignore, nearer directories before farther
 *     ones, the last matching line of a file deciding ('!' lines
 *     whitelist). .gitignore (and .git/info/exclude) count only inside a
 *     git work tree (a .git at or above), and not past the work tree's
 *     top.
 *  3. -t/-T file types, by file name.
 *  4. hidden files (a name starting with '.') are left out unless
 *     --hidden, or unless 2 or 3 whitelisted them.
 *
 * Symbolic links are followed only with -L (with a loop check); operands
 * themselves are always searched. --max-depth counts operands as depth 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "builtins/search/rg/rg.h"
#include "builtins/textutil.h"
#include "vfs/vfs.h"

#define RG_MAX_DEPTH 256

enum { F_RG, F_IGN, F_GIT, F_EXCL, F_N };

typedef struct lvl {
  char *abs; /* directory, absolute, without a trailing '/' ("" for /) */
  size_t alen;
  rg_gi f[F_N];
  int has_git;
} lvl;

typedef struct wk {
  rg *r;
  lvl lv[RG_MAX_DEPTH + 64];
  int nlv;
  int ngit; /* levels with a .git */
  uint64_t inos[RG_MAX_DEPTH];
  int ndirs;
} wk;

static char *join(mem *m, const char *dir, const char *name) {
  size_t dl = strlen(dir), nl = strlen(name);
  int slash = dl && dir[dl - 1] != '/';
  char *p = mem_alloc(m, dl + nl + 2);
  if (!p)
    return NULL;
  memcpy(p, dir, dl);
  if (slash)
    p[dl++] = '/';
  memcpy(p + dl, name, nl + 1);
  return p;
}

/* Absolute form of path (against cwd) without "." and ".." parts and
 * without a trailing '/': "" for the root. */
static char *absolute(bi_ctx *c, const char *path) {
  size_t cl = path[0] == '/' ? 0 : strlen(c->cwd);
  size_t pl = strlen(path);
  char *o = mem_alloc(c->m, cl + pl + 3);
  if (!o)
    return NULL;
  size_t k = 0;
  const char *parts[2] = {path[0] == '/' ? "" : c->cwd, path};
  for (int t = 0; t < 2; t++) {
    const char *s = parts[t];
    while (*s) {
      while (*s == '/')
        s++;
      const char *e = s;
      while (*e && *e != '/')
        e++;
      size_t n = (size_t)(e - s);
      if (n == 0 || (n == 1 && s[0] == '.')) {
      } else if (n == 2 && s[0] == '.' && s[1] == '.') {
        while (k > 0 && o[k - 1] != '/')
          k--;
        if (k > 0)
          k--;
      } else {
        o[k++] = '/';
        memcpy(o + k, s, n);
        k += n;
      }
      s = e;
    }
  }
  o[k] = 0;
  return o;
}

static int load(wk *w, rg_gi *g, const char *dir, const char *name) {
  rg *r = w->r;
  bi_ctx *c = r->c;
  char *p = join(c->m, *dir ? dir : "/", name);
  if (!p)
    return -1;
  char *data = NULL;
  size_t len = 0;
  int rc = vfs_read_file(c->vfs, c->cwd, p, &data, &len);
  mem_free(c->m, p);
  if (rc < 0)
    return 0; /* missing or unreadable: no rules */
  rc = rg_gi_parse(&r->env, g, data, len);
  vfs_release(c->vfs, data);
  return rc;
}

static void pop(wk *w) {
  lvl *l = &w->lv[--w->nlv];
  for (int i = 0; i < F_N; i++)
    rg_gi_free(w->r->c->m, &l->f[i]);
  if (l->has_git)
    w->ngit--;
  mem_free(w->r->c->m, l->abs);
}

/* The ignore files of directory abs (owned by the new level). */
static int push(wk *w, const char *abs) {
  rg *r = w->r;
  bi_ctx *c = r->c;
  if (w->nlv >= (int)(sizeof w->lv / sizeof w->lv[0]))
    return -1;
  lvl *l = &w->lv[w->nlv];
  memset(l, 0, sizeof *l);
  l->abs = mem_strdup(c->m, abs);
  if (!l->abs)
    return -1;
  l->alen = strlen(abs);
  w->nlv++;
  if (r->no_ignore)
    return 0;
  vfs_stat_t st;
  char *g = join(c->m, *abs ? abs : "/", ".git");
  if (!g)
    return -1;
  l->has_git = vfs_lstat(c->vfs, c->cwd, g, &st) == 0;
  mem_free(c->m, g);
  if (l->has_git)
    w->ngit++;
  if (!r->no_ignore_dot && (load(w, &l->f[F_RG], abs, ".rgignore") < 0 ||
                            load(w, &l->f[F_IGN], abs, ".ignore") < 0))
    return -1;
  if (!r->no_ignore_vcs) {
    if (load(w, &l->f[F_GIT], abs, ".gitignore") < 0)
      return -1;
    if (l->has_git && !r->no_ignore_exclude &&
        load(w, &l->f[F_EXCL], abs, ".git/info/exclude") < 0)
      return -1;
  }
  return 0;
}

static int ignore_match(wk *w, const char *abs, int is_dir) {
  int m[F_N] = {0};
  int saw_git = 0, any_git = w->ngit > 0;
  size_t al = strlen(abs);
  for (int i = w->nlv; i-- > 0;) {
    lvl *l = &w->lv[i];
    if (al <= l->alen || memcmp(abs, l->abs, l->alen) != 0 ||
        abs[l->alen] != '/')
      continue;
    const char *rel = abs + l->alen + 1;
    size_t rl = al - l->alen - 1;
    if (!m[F_RG] && l->f[F_RG].n)
      m[F_RG] = rg_gi_match(&l->f[F_RG], rel, rl, is_dir);
    if (!m[F_IGN] && l->f[F_IGN].n)
      m[F_IGN] = rg_gi_match(&l->f[F_IGN], rel, rl, is_dir);
    if (any_git && !saw_git) {
      if (!m[F_GIT] && l->f[F_GIT].n)
        m[F_GIT] = rg_gi_match(&l->f[F_GIT], rel, rl, is_dir);
      if (!m[F_EXCL] && l->f[F_EXCL].n)
        m[F_EXCL] = rg_gi_match(&l->f[F_EXCL], rel, rl, is_dir);
    }
    saw_git |= l->has_git;
  }
  for (int i = 0; i < F_N; i++)
    if (m[i])
      return m[i];
  return RG_M_NONE;
}

static int type_match(rg *r, const char *name, int is_dir) {
  if (is_dir || !r->type_sel.n)
    return RG_M_NONE;
  size_t nl = strlen(name);
  /* the last selection given that matches decides */
  int m = rg_gi_match(&r->type_sel, name, nl, 0);
  if (m)
    return m;
  return r->ntypes_sel ? RG_M_IGNORE : RG_M_NONE;
}

/* Should the entry (display path disp, absolute abs, base name) be left
 * out? */
static int skip(wk *w, const char *disp, const char *abs, const char *name,
                int is_dir) {
  rg *r = w->r;
  if (r->over.n) {
    const char *p = disp;
    while (p[0] == '.' && p[1] == '/')
      p += 2;
    size_t cl = strlen(r->c->cwd);
    if (p[0] == '/' && strncmp(p, r->c->cwd, cl) == 0 && p[cl] == '/')
      p += cl + 1;
    int m = rg_gi_match(&r->over, p, strlen(p), is_dir);
    if (m == RG_M_IGNORE) /* a plain -g glob: include */
      return 0;
    if (m == RG_M_WHITE) /* a '!' glob: exclude */
      return 1;
    if (r->over.n > r->over.nwhite && !is_dir)
      return 1;
  }
  int white = 0;
  if (!r->no_ignore) {
    int m = ignore_match(w, abs, is_dir);
    if (m == RG_M_IGNORE)
      return 1;
    white = m == RG_M_WHITE;
  }
  int m = type_match(r, name, is_dir);
  if (m == RG_M_IGNORE)
    return 1;
  white |= m == RG_M_WHITE;
  if (!white && !r->hidden && name[0] == '.')
    return 1;
  return 0;
}

void rg_search_path(rg *r, const char *path, const char *shown, int explicit_) {
  bi_ctx *c = r->c;
  if (r->files_mode) {
    rg_print_path(r, shown);
    r->searched++;
    return;
  }
  vfs_file *f;
  int rc = vfs_open(c->vfs, c->cwd, path, O_RDONLY, 0, &f);
  if (rc < 0) {
    rg_file_error(r, shown, -rc);
    return;
  }
  if (vfs_file_dev(f) != VFS_DEV_NONE) { /* /dev/...: read as a stream */
    vfs_close(f);
    int err = 0;
    stream *s = bi_open_read(c, path, &err);
    if (!s) {
      rg_file_error(r, shown, err);
      return;
    }
    buf b;
    buf_init(&b, c->m);
    const char *d;
    size_t n;
    if (tu_slurp(c, s, &d, &n, &b, &err) == 0)
      rg_search(r, shown, d, n, explicit_);
    else
      rg_file_error(r, shown, err);
    buf_free(&b);
    stream_unref(s);
    return;
  }
  size_t n = 0;
  const char *d = vfs_file_data(f, &n);
  rg_search(r, shown, d, n, explicit_);
  vfs_close(f);
}

static void walk(wk *w, const char *disp, const char *abs, int depth) {
  rg *r = w->r;
  bi_ctx *c = r->c;
  if (depth >= RG_MAX_DEPTH)
    return;
  if (push(w, abs) < 0) {
    rg_file_error(r, disp ? disp : ".", ENOMEM);
    r->stop = 1;
    if (w->nlv && strcmp(w->lv[w->nlv - 1].abs, abs) == 0)
      pop(w);
    return;
  }
  vfs_dir *d;
  int rc = vfs_opendir(c->vfs, c->cwd, *abs ? abs : "/", &d);
  if (rc < 0) {
    rg_file_error(r, disp ? disp : ".", -rc);
    pop(w);
    return;
  }
  vfs_dirent e;
  while (!r->stop && vfs_dir_next(d, &e) == 1) {
    if (budget_poll(c->bud)) {
      r->stop = 1;
      break;
    }
    char *cd = disp ? join(c->m, disp, e.name) : mem_strdup(c->m, e.name);
    char *ca = join(c->m, *abs ? abs : "/", e.name);
    char *name = mem_strdup(c->m, e.name);
    if (!cd || !ca || !name) {
      mem_free(c->m, cd);
      mem_free(c->m, ca);
      mem_free(c->m, name);
      rg_file_error(r, disp ? disp : ".", ENOMEM);
      r->stop = 1;
      break;
    }
    int type = e.type;
    uint64_t ino = e.ino;
    if (type == VFS_LNK) {
      vfs_stat_t st;
      if (!r->follow) {
        type = 0;
      } else if (vfs_stat(c->vfs, c->cwd, ca, &st) < 0) {
        rg_file_error(r, cd, ENOENT);
        type = 0;
      } else {
        type = st.type;
        ino = st.ino;
      }
    }
    int is_dir = type == VFS_DIR;
    if ((type == VFS_DIR || type == VFS_REG) &&
        !(r->max_depth >= 0 && depth + 1 > r->max_depth) &&
        !skip(w, cd, ca, name, is_dir)) {
      if (is_dir) {
        int loop = 0;
        for (int i = 0; i < w->ndirs; i++)
          if (w->inos[i] == ino)
            loop = 1;
        if (loop) {
          if (!r->nomsg) {
            wr_flush(&r->w);
            stream_printf(c->err,
                          "File system loop found: %s points to an ancestor "
                          "%s\n",
                          cd, disp ? disp : ".");
          }
          r->errored = 1;
        } else if (w->ndirs < RG_MAX_DEPTH) {
          w->inos[w->ndirs++] = ino;
          walk(w, cd, ca, depth + 1);
          w->ndirs--;
        }
      } else {
        rg_search_path(r, ca, cd, 0);
      }
    }
    mem_free(c->m, cd);
    mem_free(c->m, ca);
    mem_free(c->m, name);
  }
  vfs_closedir(d);
  pop(w);
}

void rg_walk(rg *r, const char *op, const char *disp) {
  bi_ctx *c = r->c;
  wk *w = mem_calloc(c->m, 1, sizeof *w);
  char *abs = absolute(c, op);
  if (!w || !abs) {
    mem_free(c->m, w);
    mem_free(c->m, abs);
    rg_file_error(r, op, ENOMEM);
    r->stop = 1;
    return;
  }
  w->r = r;
  /* the ignore files of the directories above the operand */
  int ok = 1;
  if (!r->no_ignore && !r->no_ignore_parent) {
    size_t al = strlen(abs);
    for (size_t i = 0; i < al && ok; i++) {
      if (i != 0 && abs[i] != '/')
        continue;
      if (i == 0 && abs[0] == '/') {
        ok = push(w, "") == 0;
        continue;
      }
      abs[i] = 0;
      ok = push(w, abs) == 0;
      abs[i] = '/';
    }
  }
  vfs_stat_t st;
  if (ok && vfs_stat(c->vfs, c->cwd, op, &st) == 0) {
    w->inos[w->ndirs++] = st.ino;
    walk(w, disp, abs, 0);
  } else if (!ok) {
    rg_file_error(r, op, ENOMEM);
    r->stop = 1;
  }
  while (w->nlv)
    pop(w);
  mem_free(c->m, abs);
  mem_free(c->m, w);
}
