/*
 * expand_glob.c - pathname expansion over the VFS: per-component matching
 * with pat_match (PAT_PATHNAME|PAT_PERIOD), dotglob, nocaseglob,
 * globstar's **, sorted results like bash.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"

typedef struct gctx {
  sh_exec *ex;
  sh_strv *out;
  unsigned flags;
  int trailing_slash;
  int dotglob; /* shopt dotglob, or GLOBIGNORE set */
  size_t nfound;
} gctx;

static char *join(arena *ar, const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  int slash = la && a[la - 1] != '/';
  char *r = arena_alloc(ar, la + lb + 2);
  if (!r)
    return NULL;
  memcpy(r, a, la);
  if (slash)
    r[la++] = '/';
  memcpy(r + la, b, lb + 1);
  return r;
}

static int add_result(gctx *g, const char *shown) {
  const char *s = shown;
  if (g->trailing_slash) {
    s = join(g->ex->ar, shown, "");
  }
  char *c = arena_strdup(g->ex->ar, s);
  if (!c || sh_strv_push(g->ex->ar, g->out, c))
    return -1;
  g->nfound++;
  return 0;
}

static int is_dir(sh_exec *ex, const char *path) {
  vfs_stat_t st;
  return vfs_stat(ex->run->v, ex->cwd, path, &st) == 0 && st.type == VFS_DIR;
}

static int glob_rec(gctx *g, const char *dir, const char *shown, char **comps,
                    size_t nc, size_t i);

/* ** : this directory and every directory below it (no symlinks). */
static int globstar(gctx *g, const char *dir, const char *shown, char **comps,
                    size_t nc, size_t i, int depth) {
  sh_exec *ex = g->ex;
  if (depth > 64)
    return 0;
  if (i + 1 == nc) {
    /* trailing **: every file and directory below */
  } else if (glob_rec(g, dir, shown, comps, nc, i + 1)) {
    return -1;
  }
  char **names;
  size_t n;
  if (vfs_readdir(ex->run->v, ex->cwd, *dir ? dir : ".", &names, &n))
    return 0;
  int rc = 0;
  for (size_t k = 0; k < n && !rc; k++) {
    if (names[k][0] == '.' && !g->dotglob)
      continue;
    char *p = join(ex->ar, *dir ? dir : "", names[k]);
    char *s =
        *shown ? join(ex->ar, shown, names[k]) : arena_strdup(ex->ar, names[k]);
    if (!p || !s) {
      rc = -1;
      break;
    }
    vfs_stat_t st;
    int isdir =
        vfs_lstat(ex->run->v, ex->cwd, p, &st) == 0 && st.type == VFS_DIR;
    if (i + 1 == nc && (!g->trailing_slash || isdir))
      rc = add_result(g, s);
    if (!rc && isdir)
      rc = globstar(g, p, s, comps, nc, i, depth + 1);
  }
  vfs_free_names(ex->run->v, names, n);
  return rc;
}

static int glob_rec(gctx *g, const char *dir, const char *shown, char **comps,
                    size_t nc, size_t i) {
  sh_exec *ex = g->ex;
  if (i == nc) {
    if (g->trailing_slash && !is_dir(ex, *dir ? dir : "."))
      return 0;
    return add_result(g, shown);
  }
  char *c = comps[i];
  size_t cl = strlen(c);
  if ((ex->shopts & SO_GLOBSTAR) && strcmp(c, "**") == 0)
    return globstar(g, dir, shown, comps, nc, i, 0);
  if (!pat_has_magic(c, cl, g->flags)) {
    char *lit = arena_strndup(ex->ar, c, cl);
    if (!lit)
      return -1;
    lit[pat_unescape(lit, cl)] = 0;
    char *p = *dir || i ? join(ex->ar, dir, lit) : arena_strdup(ex->ar, lit);
    char *s =
        *shown || i ? join(ex->ar, shown, lit) : arena_strdup(ex->ar, lit);
    if (!p || !s)
      return -1;
    vfs_stat_t st;
    if (vfs_lstat(ex->run->v, ex->cwd, p, &st))
      return 0;
    return glob_rec(g, p, s, comps, nc, i + 1);
  }
  char **names;
  size_t n;
  if (vfs_readdir(ex->run->v, ex->cwd, *dir ? dir : ".", &names, &n))
    return 0;
  unsigned mf = g->flags | PAT_PATHNAME;
  if (!g->dotglob)
    mf |= PAT_PERIOD;
  int rc = 0;
  /* shopt -u globskipdots: a pattern that starts with a period may match
   * . and .. too (bash 5.2 skips them by default). */
  int dots = !(ex->shopts & SO_GLOBSKIPDOTS) &&
             (c[0] == '.' || (c[0] == '\\' && c[1] == '.'));
  static const char *const dot_names[] = {".", ".."};
  /* a leading extglob group may hold the explicit period itself:
   * ?(.)* matches .profile; the matcher's PAT_PERIOD rule decides */
  int lead_group =
      (mf & PAT_EXTGLOB) && c[0] && strchr("?*+@!", c[0]) && c[1] == '(';
  for (size_t k = 0; k < n + (dots ? 2 : 0) && !rc; k++) {
    const char *nm = k < n ? names[k] : dot_names[k - n];
    if (nm[0] == '.' && !g->dotglob && c[0] != '.' &&
        !(c[0] == '\\' && c[1] == '.') && !lead_group)
      continue;
    if (!pat_match(c, cl, nm, strlen(nm), mf))
      continue;
    char *p = join(ex->ar, *dir ? dir : "", nm);
    if (!*dir && !i)
      p = arena_strdup(ex->ar, nm);
    char *s =
        (*shown || i) ? join(ex->ar, shown, nm) : arena_strdup(ex->ar, nm);
    if (!p || !s) {
      rc = -1;
      break;
    }
    if (i + 1 < nc && !is_dir(ex, p))
      continue;
    rc = glob_rec(g, p, s, comps, nc, i + 1);
  }
  vfs_free_names(ex->run->v, names, n);
  return rc;
}

/* Length of one GLOBIGNORE item: up to a ':' that is not inside a
 * bracket expression ([[:alnum:]] holds colons) or escaped. */
static size_t ignore_item_len(const char *p) {
  size_t i = 0;
  while (p[i] && p[i] != ':') {
    if (p[i] == '\\' && p[i + 1]) {
      i += 2;
    } else if (p[i] == '[') {
      size_t j = i + 1;
      if (p[j] == '!' || p[j] == '^')
        j++;
      if (p[j] == ']')
        j++;
      while (p[j] && p[j] != ']') {
        if (p[j] == '[' && p[j + 1] == ':') {
          const char *e = strstr(p + j + 2, ":]");
          j = e ? (size_t)(e - p) + 2 : j + 1;
        } else {
          j++;
        }
      }
      i = p[j] ? j + 1 : i + 1;
    } else {
      i++;
    }
  }
  return i;
}

/* GLOBIGNORE: drop the results (from index `from`) that match one of its
 * colon-separated patterns, and always "." and ".." themselves. */
static void apply_globignore(sh_exec *ex, const char *ign, sh_strv *out,
                             size_t from) {
  unsigned fl = sh_pat_flags(ex) | PAT_PATHNAME;
  if (ex->shopts & SO_NOCASEGLOB)
    fl |= PAT_NOCASE;
  size_t k = from;
  for (size_t i = from; i < out->n; i++) {
    const char *r = out->v[i];
    const char *base = strrchr(r, '/');
    base = base ? base + 1 : r;
    int drop = strcmp(base, ".") == 0 || strcmp(base, "..") == 0;
    for (const char *p = ign; !drop && *p;) {
      size_t pl = ignore_item_len(p);
      if (pl && pat_match(p, pl, r, strlen(r), fl))
        drop = 1;
      p += pl + (p[pl] == ':');
    }
    if (!drop)
      out->v[k++] = out->v[i];
  }
  out->n = k;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int sh_glob(sh_exec *ex, const char *pat, size_t plen, sh_strv *out) {
  gctx g = {0};
  g.ex = ex;
  g.out = out;
  g.flags = sh_pat_flags(ex);
  if (ex->shopts & SO_NOCASEGLOB)
    g.flags |= PAT_NOCASE;
  /* A non-empty GLOBIGNORE also makes globs match dot files, as in bash. */
  const char *ign = sh_getvar(ex, "GLOBIGNORE");
  if (ign && !*ign)
    ign = NULL;
  g.dotglob = (ex->shopts & SO_DOTGLOB) || ign;
  /* Split into components on unescaped '/'. */
  char *p = arena_strndup(ex->ar, pat, plen);
  if (!p)
    return -1;
  size_t maxc = 1;
  for (size_t i = 0; i < plen; i++)
    if (p[i] == '/')
      maxc++;
  char **comps = arena_alloc(ex->ar, (maxc + 1) * sizeof *comps);
  if (!comps)
    return -1;
  size_t nc = 0;
  int absolute = p[0] == '/';
  char *start = p + absolute;
  for (char *q = start;; q++) {
    if (*q == '\\' && q[1]) {
      q++;
      continue;
    }
    if (*q == '/' || *q == 0) {
      int end = *q == 0;
      *q = 0;
      /* a ** right after a ** adds nothing: each file comes out once */
      if (*start && nc && (ex->shopts & SO_GLOBSTAR) &&
          strcmp(start, "**") == 0 && strcmp(comps[nc - 1], "**") == 0)
        ;
      else if (*start)
        comps[nc++] = start;
      else if (end && nc)
        g.trailing_slash = 1;
      if (end)
        break;
      start = q + 1;
    }
  }
  if (plen && pat[plen - 1] == '/')
    g.trailing_slash = 1;
  size_t before = out->n;
  int rc;
  if (absolute)
    rc = glob_rec(&g, "/", "/", comps, nc, 0);
  else
    rc = glob_rec(&g, "", "", comps, nc, 0);
  if (rc)
    return -1;
  if (ign)
    apply_globignore(ex, ign, out, before);
  if (out->n - before > 1)
    qsort(out->v + before, out->n - before, sizeof *out->v, cmp_str);
  return (int)(out->n - before);
}
