/*
 * find.c - GNU find (findutils 4.9): the walk, the output actions (-print,
 * -print0, -printf, -ls, -delete) and the command line. The expression
 * (parser, tests, -exec) is in find_expr.c.
 *
 * Differences from GNU, on purpose:
 *   - Directories are read in byte order of names (the VFS's order); GNU
 *     uses whatever order readdir gives, which on a real disk is arbitrary.
 *     Sorted output makes runs reproducible.
 *   - Times (-printf %t/%T*, -ls) are shown in UTC.
 *   - -execdir/-okdir run in find's own directory with the full path (the
 *     command runner has no working directory of its own).
 *   - -fprint, -fprint0, -fprintf and -fls are refused.
 *
 * The walk keeps its own stack of open directories, so depth costs heap,
 * not C stack. Every entry polls the budget, so a walk that prints nothing
 * still stops on a limit or a cancel; a failed write (EPIPE when `head` has
 * gone) ends find at once with 141.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "builtins/search/find/find.h"
#include "builtins/textutil.h"

const char bi_usage_find[] =
    "Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] "
    "[expression]";
const char bi_help_find[] =
    "Search the directory trees at each PATH (default: .) and evaluate the\n"
    "expression for every file found. The default expression is -print.\n"
    "Directories are read in byte order of names.\n"
    "\n"
    "Options:\n"
    "  -H  follow symlinks named on the command line  -L  follow all symlinks\n"
    "  -P  never follow symlinks (default)\n"
    "  -depth -maxdepth LEVELS -mindepth LEVELS -mount -xdev -daystart\n"
    "  -regextype TYPE (findutils-default, emacs, posix-extended, egrep,\n"
    "                   posix-basic, grep, sed, awk, ...)\n"
    "\n"
    "Operators (loosest first): EXPR1 , EXPR2   EXPR1 -o EXPR2\n"
    "  EXPR1 [-a] EXPR2   ! EXPR   -not EXPR   ( EXPR )\n"
    "\n"
    "Tests (a number N means exactly N; +N more than N; -N less than N):\n"
    "  -name PAT -iname PAT -path PAT -ipath PAT -wholename PAT -lname PAT\n"
    "  -regex RE -iregex RE -type [fdlpscb] -xtype [fdlpscb] -size N[bcwkMG]\n"
    "  -empty -newer FILE -anewer FILE -cnewer FILE -newerXY REF\n"
    "  -mtime N -mmin N -atime N -amin N -ctime N -cmin N\n"
    "  -perm [-/]MODE -user NAME -group NAME -uid N -gid N -nouser -nogroup\n"
    "  -links N -inum N -samefile FILE -readable -writable -executable\n"
    "  -true -false\n"
    "\n"
    "Actions:\n"
    "  -print -print0 -printf FORMAT -ls -delete -prune -quit\n"
    "  -exec COMMAND ; -exec COMMAND {} + -execdir COMMAND ; -ok COMMAND ;\n"
    "\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n";

/* ---- messages and output --------------------------------------------------
 */

void fx_error(fx *x, const char *fmt, ...) {
  bi_ctx *c = x->c;
  /* Flush first: with 2>&1 the message lands after what was printed. */
  if (x->w.len && wr_flush(&x->w) < 0 && !x->stop) {
    x->stop = 1;
    x->stop_rc = fu_out_status(&x->w);
  }
  va_list ap;
  va_start(ap, fmt);
  tu_verror(c, "", fmt, ap);
  va_end(ap);
}

static int out_failed(fx *x) {
  if (!x->stop) {
    x->stop = 1;
    x->stop_rc = fu_out_status(&x->w);
  }
  return -1;
}

int fx_print(fx *x, fent *e, int term) {
  if (wr_write(&x->w, e->path, e->plen) < 0 || wr_putc(&x->w, term) < 0)
    return out_failed(x);
  return 0;
}

/* ---- small formatters -----------------------------------------------------
 */

static const char *id_name(uint32_t id, char *tmp, size_t n) {
  if (id == 0)
    return "root";
  if (id == VFS_DEFAULT_UID)
    return "user";
  snprintf(tmp, n, "%" PRIu32, id);
  return tmp;
}

static char type_char(int t) {
  switch (t) {
  case VFS_REG:
    return 'f';
  case VFS_DIR:
    return 'd';
  case VFS_LNK:
    return 'l';
  case VFS_CHR:
    return 'c';
  case VFS_FIFO:
    return 'p';
  }
  return 'U';
}

/* GNU's %t: ctime-like with the nanoseconds printed as ten digits. */
static void fmt_ctime(const fx *x, int64_t ns, buf *b) {
  int64_t sec = ns / 1000000000, frac = ns % 1000000000;
  if (frac < 0)
    frac += 1000000000, sec--;
  tz_tm tm;
  tz_localtime(x->zone, sec, 0, &tm);
  tz_format(b, "%a %b %e %H:%M:%S", &tm, TZ_FMT_GNU);
  buf_printf(b, ".%09" PRId64 "0 %" PRId64, frac, tm.year);
}

/* %Tk and friends. Returns 0 for an unknown k. */
static int fmt_time_part(const fx *x, int64_t ns, int k, buf *b) {
  int64_t sec = ns / 1000000000, frac = ns % 1000000000;
  if (frac < 0)
    frac += 1000000000, sec--;
  tz_tm tm;
  tz_localtime(x->zone, sec, 0, &tm);
  switch (k) {
  case '@':
    buf_printf(b, "%" PRId64 ".%09" PRId64 "0", sec, frac);
    return 1;
  case 'S':
    buf_printf(b, "%02d.%09" PRId64 "0", tm.sec, frac);
    return 1;
  case 'T':
  case 'X':
    buf_printf(b, "%02d:%02d:%02d.%09" PRId64 "0", tm.hour, tm.min, tm.sec,
               frac);
    return 1;
  case '+':
    tz_format(b, "%Y-%m-%d+%H:%M:%S", &tm, TZ_FMT_GNU);
    buf_printf(b, ".%09" PRId64 "0", frac);
    return 1;
  case 'Z':
    buf_puts(b, tm.abbr);
    return 1;
  case 'z':
    tz_format(b, "%z", &tm, TZ_FMT_GNU);
    return 1;
  case 's':
    buf_printf(b, "%" PRId64, sec);
    return 1;
  }
  if (!strchr("HIklMprabBcdDhjmUwWxyYVuGgeCnt", k))
    return 0;
  char f[3] = {'%', (char)k, 0};
  tz_format(b, f, &tm, TZ_FMT_GNU);
  return 1;
}

/* Last component as GNU's %f prints it: trailing slashes kept, "/" for
 * the root. */
static size_t base_off(const char *p, size_t n) {
  size_t end = n;
  while (end > 0 && p[end - 1] == '/')
    end--;
  if (end == 0)
    return n ? n - 1 : 0;
  size_t s = end;
  while (s > 0 && p[s - 1] != '/')
    s--;
  return s;
}

static const char *known_directives = "%abcdDfFgGhHiklmMnpPsStuUyY";

static int escape_value(const char *f, size_t len, size_t *i, int *out) {
  /* f[*i] is the character after '\\'; *out gets the byte, -1 for \c. */
  char ch = f[*i];
  int lit = tu_escape_char(ch);
  if (lit >= 0) {
    *out = lit;
    return 1;
  }
  if (ch == 'c') {
    *out = -1;
    return 1;
  }
  if (ch >= '0' && ch <= '7') {
    int v = 0, k = 0;
    while (k < 3 && *i < len && f[*i] >= '0' && f[*i] <= '7') {
      v = v * 8 + (f[*i] - '0');
      (*i)++;
      k++;
    }
    (*i)--;
    *out = v & 0xff;
    return 1;
  }
  return 0;
}

void fx_check_format(fx *x, const char *f, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (f[i] == '\\' && i + 1 < len) {
      i++;
      int v;
      if (!escape_value(f, len, &i, &v)) {
        char one[2] = {f[i], 0};
        fx_error(x, "warning: unrecognized escape '\\%s'", one);
      }
    } else if (f[i] == '%' && i + 1 < len) {
      size_t j = i + 1;
      while (j < len && strchr("-+ #0123456789.", f[j]))
        j++;
      if (j >= len)
        break;
      char d = f[j];
      if ((d == 'A' || d == 'C' || d == 'T') && j + 1 < len)
        j++;
      else if (!strchr(known_directives, d)) {
        char one[2] = {d, 0};
        fx_error(x, "warning: unrecognized format directive '%%%s'", one);
      }
      i = j;
    }
  }
}

int fx_printf(fx *x, fent *e, const char *f, size_t len) {
  bi_ctx *c = x->c;
  buf v;
  buf_init(&v, c->m);
  int rc = 0;
  for (size_t i = 0; i < len && rc == 0; i++) {
    char ch = f[i];
    if (ch == '\\' && i + 1 < len) {
      i++;
      int val;
      if (!escape_value(f, len, &i, &val)) {
        rc = wr_putc(&x->w, '\\') < 0 || wr_putc(&x->w, f[i]) < 0 ? -1 : 0;
        continue;
      }
      if (val < 0)
        break; /* \c: the rest of this format is dropped */
      rc = wr_putc(&x->w, val);
      continue;
    }
    if (ch != '%' || i + 1 >= len) {
      rc = wr_putc(&x->w, ch);
      continue;
    }
    /* %[flags][width][.precision]directive */
    size_t j = i + 1;
    int left = 0;
    while (j < len && strchr("-+ #0", f[j])) {
      if (f[j] == '-')
        left = 1;
      j++;
    }
    int width = 0, prec = -1;
    while (j < len && f[j] >= '0' && f[j] <= '9')
      width = width * 10 + (f[j++] - '0');
    if (j < len && f[j] == '.') {
      prec = 0;
      j++;
      while (j < len && f[j] >= '0' && f[j] <= '9')
        prec = prec * 10 + (f[j++] - '0');
    }
    if (j >= len) {
      rc = wr_write(&x->w, f + i, len - i);
      break;
    }
    char d = f[j];
    buf_clear(&v);
    const vfs_stat_t *st = NULL;
    if (!strchr("%pfhPHdy", d) || d == 'y')
      st = fx_stat(x, e);
    vfs_stat_t zero = {0};
    if (!st)
      st = &zero;
    char tmp[32];
    int known = 1;
    switch (d) {
    case '%':
      buf_putc(&v, '%');
      break;
    case 'p':
      buf_append(&v, e->path, e->plen);
      break;
    case 'f': {
      size_t o = base_off(e->path, e->plen);
      buf_append(&v, e->path + o, e->plen - o);
      break;
    }
    case 'h': {
      const char *sl = memrchr(e->path, '/', e->plen);
      if (!sl)
        buf_putc(&v, '.');
      else
        buf_append(&v, e->path, (size_t)(sl - e->path));
      break;
    }
    case 'P': {
      size_t o = e->root_len;
      while (o < e->plen && e->path[o] == '/')
        o++;
      buf_append(&v, e->path + o, e->plen - o);
      break;
    }
    case 'H':
      buf_append(&v, e->path, e->root_len);
      break;
    case 'd':
      buf_printf(&v, "%d", e->depth);
      break;
    case 's':
      buf_printf(&v, "%" PRIu64, st->size);
      break;
    case 'm':
      buf_printf(&v, "%o", st->mode & 07777);
      break;
    case 'M': {
      char ms[11];
      fu_mode_string(st->type, st->mode, ms);
      buf_puts(&v, ms);
      break;
    }
    case 'y':
      buf_putc(&v, type_char(st->type));
      break;
    case 'Y': {
      const vfs_stat_t *l = fx_lstat(x, e);
      vfs_stat_t t;
      int r = 0;
      if (l && l->type == VFS_LNK)
        r = vfs_stat(c->vfs, c->cwd, e->path, &t);
      else if (l)
        t = *l;
      if (!l)
        buf_putc(&v, '?');
      else if (r == -ELOOP)
        buf_putc(&v, 'L');
      else if (r < 0)
        buf_putc(&v, 'N');
      else
        buf_putc(&v, type_char(t.type));
      break;
    }
    case 'u':
    case 'g':
      buf_puts(&v, id_name(d == 'u' ? st->uid : st->gid, tmp, sizeof tmp));
      break;
    case 'U':
      buf_printf(&v, "%" PRIu32, st->uid);
      break;
    case 'G':
      buf_printf(&v, "%" PRIu32, st->gid);
      break;
    case 'i':
      buf_printf(&v, "%" PRIu64, st->ino);
      break;
    case 'n':
      buf_printf(&v, "%" PRIu32, st->nlink);
      break;
    case 'k':
      buf_printf(&v, "%" PRIu64, fu_blocks_1k(st));
      break;
    case 'b':
      buf_printf(&v, "%" PRIu64, fu_blocks_1k(st) * 2);
      break;
    case 'l': {
      const vfs_stat_t *l = fx_lstat(x, e);
      char *t;
      size_t tl;
      if (l && l->type == VFS_LNK &&
          vfs_readlink(c->vfs, c->cwd, e->path, &t, &tl) == 0) {
        buf_append(&v, t, tl);
        vfs_release(c->vfs, t);
      }
      break;
    }
    case 'D': /* one device; no sparse files */
    case 'S':
      buf_puts(&v, "1");
      break;
    case 'F':
      buf_puts(&v, "tmpfs");
      break;
    case 'a':
    case 'c':
    case 't':
      fmt_ctime(x, fx_file_time(st, d), &v);
      break;
    case 'A':
    case 'C':
    case 'T':
      if (j + 1 < len) {
        /* the times of %a, %c and %t, in the layout f[j] names */
        int64_t ns = fx_file_time(st, d + ('a' - 'A'));
        j++;
        if (!fmt_time_part(x, ns, f[j], &v)) {
          buf_putc(&v, d);
          buf_putc(&v, f[j]);
        }
      } else {
        known = 0;
      }
      break;
    default:
      known = 0;
    }
    if (!known) {
      /* GNU prints an unknown directive as it is (after a warning). */
      rc = wr_write(&x->w, f + i, j + 1 - i);
      i = j;
      continue;
    }
    size_t vl = v.len;
    if (prec >= 0 && (size_t)prec < vl)
      vl = (size_t)prec;
    size_t pad = width > 0 && (size_t)width > vl ? (size_t)width - vl : 0;
    for (size_t k = 0; !left && k < pad && rc == 0; k++)
      rc = wr_putc(&x->w, ' ');
    if (rc == 0)
      rc = wr_write(&x->w, v.data, vl);
    for (size_t k = 0; left && k < pad && rc == 0; k++)
      rc = wr_putc(&x->w, ' ');
    i = j;
  }
  buf_free(&v);
  return rc < 0 ? out_failed(x) : 0;
}

/* -ls: `ls -dils` columns. GNU widens a column once a value overflows it
 * and keeps the width for later lines; so do we. */
static const fx_lsw lsw_init = {9, 6, 3, 8, 8, 8};

static int grow(int *w, int len) {
  if (len > *w)
    *w = len;
  return *w;
}

int fx_ls(fx *x, fent *e) {
  bi_ctx *c = x->c;
  const vfs_stat_t *st = fx_stat(x, e);
  if (!st)
    return 0;
  fx_lsw *w = &x->lsw;
  char ms[11], u[32], g[32], tb[32];
  fu_mode_string(st->type, st->mode, ms);
  const char *un = id_name(st->uid, u, sizeof u);
  const char *gn = id_name(st->gid, g, sizeof g);
  char ino[24], blk[24], nl[24], sz[24];
  snprintf(ino, sizeof ino, "%" PRIu64, st->ino);
  snprintf(blk, sizeof blk, "%" PRIu64, fu_blocks_1k(st));
  snprintf(nl, sizeof nl, "%" PRIu32, st->nlink);
  snprintf(sz, sizeof sz, "%" PRIu64, st->size);
  int64_t sec = st->mtime_ns / 1000000000;
  int64_t now = x->start_ns / 1000000000;
  tz_tm tm;
  tz_localtime(x->zone, sec, 0, &tm);
  /* Recent: within the last six months (and not in the future). */
  buf tbuf;
  buf_init(&tbuf, x->c->m);
  tz_format(&tbuf,
            sec > now - 31556952 / 2 && sec <= now ? "%b %e %H:%M"
                                                   : "%b %e  %Y",
            &tm, TZ_FMT_GNU);
  snprintf(tb, sizeof tb, "%s", buf_cstr(&tbuf));
  buf_free(&tbuf);
  int rc = wr_printf(
      &x->w, "%*s %*s %s %*s %-*s %-*s %*s %s ",
      grow(&w->ino, (int)strlen(ino)), ino, grow(&w->blocks, (int)strlen(blk)),
      blk, ms, grow(&w->nlink, (int)strlen(nl)), nl,
      grow(&w->user, (int)strlen(un)), un, grow(&w->group, (int)strlen(gn)), gn,
      grow(&w->size, (int)strlen(sz)), sz, tb);
  if (rc == 0)
    rc = wr_write(&x->w, e->path, e->plen);
  const vfs_stat_t *l = fx_lstat(x, e);
  if (rc == 0 && l && l->type == VFS_LNK) {
    char *t;
    size_t tl;
    if (vfs_readlink(c->vfs, c->cwd, e->path, &t, &tl) == 0) {
      rc = wr_puts(&x->w, " -> ");
      if (rc == 0)
        rc = wr_write(&x->w, t, tl);
      vfs_release(c->vfs, t);
    }
  }
  if (rc == 0)
    rc = wr_putc(&x->w, '\n');
  return rc < 0 ? out_failed(x) : 0;
}

int fx_delete(fx *x, fent *e) {
  bi_ctx *c = x->c;
  /* GNU never removes the starting point ".": it would pull the ground
   * from under the rest of the walk. */
  if (e->plen == 1 && e->path[0] == '.')
    return 1;
  const vfs_stat_t *l = fx_lstat(x, e);
  int rc = !l                   ? -e->lst_err
           : l->type == VFS_DIR ? vfs_rmdir(c->vfs, c->cwd, e->path)
                                : vfs_unlink(c->vfs, c->cwd, e->path);
  if (rc < 0) {
    fx_error(x, "cannot delete %s: %s", tu_quote(c, e->path), bi_strerror(-rc));
    x->status = 1;
    return 0;
  }
  return 1;
}

/* ---- the walk -------------------------------------------------------------
 */

typedef struct frame {
  vfs_dir *d;
  size_t plen, name_off, nlen, root_len;
  int depth;
  int follow;
  uint64_t ino;
  int dtype;
  int lst_done, st_done, lst_err, st_err;
  vfs_stat_t lst, st;
} frame;

typedef struct walk {
  fx *x;
  buf path;
  frame *fr;
  size_t n, cap;
} walk;

static void eval_entry(fx *x, fent *e) {
  if (e->depth < x->mindepth)
    return;
  x->prune = 0;
  fx_eval(x, x->root, e);
}

static int push(walk *w, fent *e, vfs_dir *d, uint64_t ino) {
  if (w->n == w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 16;
    frame *nf = mem_realloc(w->x->c->m, w->fr, cap * sizeof *nf);
    if (!nf)
      return -1;
    w->fr = nf;
    w->cap = cap;
  }
  frame *f = &w->fr[w->n++];
  f->d = d;
  f->plen = e->plen;
  f->name_off = (size_t)(e->name - e->path);
  f->nlen = e->nlen;
  f->root_len = e->root_len;
  f->depth = e->depth;
  f->follow = e->follow;
  f->ino = ino;
  f->dtype = e->dtype;
  f->lst_done = e->lst_done;
  f->st_done = e->st_done;
  f->lst_err = e->lst_err;
  f->st_err = e->st_err;
  f->lst = e->lst;
  f->st = e->st;
  return 0;
}

static void frame_entry(walk *w, frame *f, fent *e) {
  memset(e, 0, sizeof *e);
  e->path = w->path.data;
  e->plen = f->plen;
  e->name = w->path.data + f->name_off;
  e->nlen = f->nlen;
  e->root_len = f->root_len;
  e->depth = f->depth;
  e->follow = f->follow;
  e->dtype = f->dtype;
  e->lst_done = f->lst_done;
  e->st_done = f->st_done;
  e->lst_err = f->lst_err;
  e->st_err = f->st_err;
  e->lst = f->lst;
  e->st = f->st;
}

/* Evaluate e (before its children unless -depth) and open it when it is a
 * directory to descend into. */
static void visit(walk *w, fent *e) {
  fx *x = w->x;
  bi_ctx *c = x->c;
  int isdir;
  uint64_t ino = 0;
  if (e->follow) {
    const vfs_stat_t *st = fx_stat(x, e);
    isdir = st && st->type == VFS_DIR;
    ino = st ? st->ino : 0;
  } else {
    isdir = e->dtype == VFS_DIR;
  }
  if (!x->depth_first) {
    eval_entry(x, e);
    if (x->stop || x->quit)
      return;
  } else {
    x->prune = 0;
  }
  if (isdir && (x->maxdepth < 0 || e->depth < x->maxdepth) && !x->prune) {
    /* Only a followed symlink can lead back to an ancestor. */
    for (size_t k = 0; e->follow && k < w->n; k++)
      if (w->fr[k].ino == ino) {
        fx_error(x,
                 "File system loop detected; %s is part of the same file "
                 "system loop as %s.",
                 tu_quote(c, e->path),
                 tu_quote(c, arena_strndup(c->scratch, w->path.data,
                                           w->fr[k].plen)));
        x->status = 1;
        goto post;
      }
    vfs_dir *d;
    int rc = vfs_opendir(c->vfs, c->cwd, e->path, &d);
    if (rc < 0) {
      fx_error(x, "%s: %s", tu_quote(c, e->path), bi_strerror(-rc));
      x->status = 1;
      goto post;
    }
    if (push(w, e, d, ino) < 0) {
      vfs_closedir(d);
      fx_error(x, "memory exhausted");
      x->stop = 1;
      x->stop_rc = 1;
    }
    return;
  }
post:
  if (x->depth_first)
    eval_entry(x, e);
}

static void walk_root(walk *w, const char *root) {
  fx *x = w->x;
  bi_ctx *c = x->c;
  size_t rl = strlen(root);
  buf_clear(&w->path);
  if (buf_append(&w->path, root, rl) || !w->path.data) {
    fx_error(x, "%s: %s", tu_quote(c, root), bi_strerror(ENOMEM));
    x->status = 1;
    return;
  }
  fent e;
  memset(&e, 0, sizeof e);
  e.path = w->path.data;
  e.plen = rl;
  e.root_len = rl;
  /* -name sees the last component without trailing slashes ("/" stays). */
  size_t end = rl;
  while (end > 1 && root[end - 1] == '/')
    end--;
  size_t s = end;
  while (s > 0 && root[s - 1] != '/')
    s--;
  if (end == 1 && root[0] == '/')
    s = 0;
  e.name = e.path + s;
  e.nlen = end - s;
  e.follow = x->follow != 'P';
  if (rl == 0) {
    fx_error(x, "%s: %s", tu_quote(c, root), bi_strerror(ENOENT));
    x->status = 1;
    return;
  }
  const vfs_stat_t *l = fx_lstat(x, &e);
  if (!l) {
    fx_error(x, "%s: %s", tu_quote(c, root), bi_strerror(e.lst_err));
    x->status = 1;
    return;
  }
  e.dtype = l->type;
  visit(w, &e);
  while (w->n && !x->stop && !x->quit) {
    if (fu_poll(c)) {
      x->stop = 1;
      x->stop_rc = 1;
      break;
    }
    frame *f = &w->fr[w->n - 1];
    vfs_dirent de;
    int r = vfs_dir_next(f->d, &de);
    if (r <= 0) {
      vfs_closedir(f->d);
      w->n--;
      fent pe;
      w->path.len = f->plen;
      w->path.data[f->plen] = 0;
      frame_entry(w, f, &pe);
      if (r < 0) {
        fx_error(x, "%s: %s", tu_quote(c, pe.path), bi_strerror(-r));
        x->status = 1;
      }
      if (x->depth_first)
        eval_entry(x, &pe);
      continue;
    }
    w->path.len = f->plen;
    if (f->plen == 0 || w->path.data[f->plen - 1] != '/')
      buf_putc(&w->path, '/');
    size_t name_off = w->path.len;
    if (buf_append(&w->path, de.name, de.name_len) < 0) {
      fx_error(x, "memory exhausted");
      x->stop = 1;
      x->stop_rc = 1;
      break;
    }
    fent ce;
    memset(&ce, 0, sizeof ce);
    ce.path = w->path.data;
    ce.plen = w->path.len;
    ce.name = w->path.data + name_off;
    ce.nlen = de.name_len;
    ce.root_len = f->root_len;
    ce.depth = f->depth + 1;
    ce.dtype = de.type;
    ce.follow = x->follow == 'L';
    visit(w, &ce);
  }
}

/* ---- command line ---------------------------------------------------------
 */

static int is_expr_start(const char *a) {
  return (a[0] == '-' && a[1]) || strcmp(a, "(") == 0 || strcmp(a, ")") == 0 ||
         strcmp(a, "!") == 0 || strcmp(a, ",") == 0;
}

int bi_find(bi_ctx *c) {
  fx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.follow = 'P';
  x.maxdepth = -1;
  x.now_ns = fu_now(c);
  x.start_ns = x.now_ns;
  x.lsw = lsw_init;
  int i = 1;
  /* Leading options: -H -L -P (last wins), -D, -O. */
  for (; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0)
      return bi_print_help(c);
    if (strcmp(a, "--version") == 0 || strcmp(a, "-version") == 0) {
      stream_printf(c->out, "find (GNU findutils compatible; vsh) 4.9.0\n");
      return 0;
    }
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    }
    if (a[0] != '-' || !a[1] || strspn(a + 1, "HLP") != strlen(a + 1)) {
      if (strcmp(a, "-D") == 0 && i + 1 < c->argc) {
        i++;
        continue;
      }
      if (strncmp(a, "-O", 2) == 0 && a[2])
        continue;
      break;
    }
    for (const char *p = a + 1; *p; p++)
      x.follow = *p;
  }
  int first_path = i;
  while (i < c->argc && !is_expr_start(c->argv[i]))
    i++;
  int npaths = i - first_path;
  wr_init(&x.w, c->out);
  int rc;
  x.zone = bi_tz_open(c); /* closed by fx_free */
  if (fx_parse(&x, c->argv + i, c->argc - i) < 0) {
    fx_free(&x);
    return 1;
  }
  walk w = {.x = &x};
  buf_init(&w.path, c->m);
  static const char *const dot[] = {"."};
  for (int k = 0; k < (npaths ? npaths : 1) && !x.stop && !x.quit; k++)
    walk_root(&w, npaths ? c->argv[first_path + k] : dot[0]);
  while (w.n)
    vfs_closedir(w.fr[--w.n].d);
  mem_free(c->m, w.fr);
  buf_free(&w.path);
  if (!x.stop)
    fx_flush_execs(&x);
  if (!x.stop && wr_flush(&x.w) < 0)
    out_failed(&x);
  rc = x.stop ? x.stop_rc : x.status;
  fx_free(&x);
  return rc;
}
