/* ls.c - GNU ls over the VFS.
 *
 * Names sort in byte order (C.UTF-8 collation). Output that is not a
 * terminal is one name per line, as GNU does for `ls | cat`; -C, -x and -m
 * give columns and commas on request. Sizes in blocks (-s, "total") count
 * 4 KiB blocks like ext4, the file system GNU's numbers usually come from.
 * Times show in UTC (TZ is not interpreted). */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_ls[] = "Usage: ls [OPTION]... [FILE]...";
const char bi_help_ls[] =
    "Show the FILEs, or the contents of the directories among them (the "
    "current\n"
    "directory when no FILE is named).\n"
    "Entries are sorted by name unless -t, -S, -U or --sort says otherwise.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -a, --all                  include names that begin with a dot\n"
    "  -A, --almost-all           as -a, but leave out . and ..\n"
    "  -B, --ignore-backups       hide names that end in ~\n"
    "  -c                         use the status change time (ctime)\n"
    "  -C                         lay entries out in columns, filled downward\n"
    "      --color[=WHEN]         accepted; no colors are written\n"
    "  -d, --directory            show a directory operand as itself, without\n"
    "                               opening it\n"
    "  -f                         shorthand for -aU\n"
    "  -F, --classify[=WHEN]      mark names by type with one of */=@|\n"
    "      --file-type            as -F, but without the '*' mark\n"
    "      --full-time            shorthand for -l --time-style=full-iso\n"
    "  -g                         as -l, with no owner column\n"
    "      --group-directories-first  show directories ahead of other files\n"
    "  -G, --no-group             leave the group column out of -l output\n"
    "  -h, --human-readable       sizes like 1K 234M 2G (powers of 1024)\n"
    "      --si                   as -h, but in powers of 1000\n"
    "  -H, --dereference-command-line  resolve symbolic links given as "
    "operands\n"
    "  -i, --inode                show each file's inode number first\n"
    "  -I, --ignore=PATTERN       leave out names that match the shell "
    "PATTERN\n"
    "  -k, --kibibytes            1024-byte blocks (the default)\n"
    "  -l                         one detailed line per file\n"
    "  -L, --dereference          show what symbolic links point to\n"
    "  -m                         comma-separated list\n"
    "  -n, --numeric-uid-gid      as -l, with user and group shown as numbers\n"
    "  -N, --literal              print names as they are (the default)\n"
    "  -o                         as -l, with no group column\n"
    "  -p                         mark directories with a trailing /\n"
    "  -r, --reverse              turn the sort order around\n"
    "  -R, --recursive            descend into every subdirectory as well\n"
    "  -s, --size                 show each file's size in blocks first\n"
    "  -S                         biggest files first\n"
    "      --sort=WORD            none (-U), size (-S), time (-t), name\n"
    "      --time=WORD            atime/access/use (-u), ctime/status (-c), "
    "mtime\n"
    "      --time-style=STYLE     full-iso, long-iso, iso, locale, +FORMAT\n"
    "  -t                         most recently changed first\n"
    "  -u                         use the last access time (atime)\n"
    "  -U                         keep directory order (no sorting)\n"
    "  -w, --width=COLS           line width for -C, -x and -m\n"
    "  -x                         lay entries out in rows, filled across\n"
    "  -1                         one file per line (the default here)\n"
    "      --help                 print this summary and quit\n"
    "      --version              print the version line and quit\n"
    "\n"
    "Exit status: 0 if OK, 1 for minor problems (e.g. a subdirectory that "
    "cannot\n"
    "be read), 2 for serious trouble (e.g. a command-line FILE that cannot be\n"
    "accessed).\n";

enum {
  OPT_COLOR = 0x100,
  OPT_FILE_TYPE,
  OPT_FULL_TIME,
  OPT_GROUP_DIRS,
  OPT_SI,
  OPT_SORT,
  OPT_TIME,
  OPT_TIME_STYLE,
  OPT_INDICATOR,
  OPT_HIDE,
  OPT_QUOTE
};
enum { F_ONE, F_LONG, F_COLS, F_ROWS, F_COMMAS };
enum { S_NAME, S_NONE, S_TIME, S_SIZE, S_EXT };
enum { T_MTIME, T_ATIME, T_CTIME };
enum { I_NONE, I_SLASH, I_FILETYPE, I_CLASSIFY };
enum { TS_LOCALE, TS_FULL, TS_LONG, TS_ISO, TS_FORMAT };
enum { A_DEFAULT, A_ALMOST, A_ALL };

typedef struct ent {
  const char *name; /* as shown */
  const char *path; /* for lookups */
  fu_stat st;
  int ok;             /* st is valid */
  const char *target; /* symlink text (-l) */
  fu_stat tst;        /* what the link points to */
  int tok;
} ent;

typedef struct lsx {
  bi_ctx *c;
  writer w;
  int format, sort, time, indicator, time_style, all;
  const char *time_fmt;
  int reverse, recursive, directory, inode, size, human, si, ignore_backups;
  int numeric, no_owner, no_group, deref, deref_cmdline, group_dirs;
  int width;
  int quote;     /* -Q: "names" with C escapes */
  int need_stat; /* the listing needs more than names and types */
  const char **hide;
  int nhide;
  int status;
  int64_t now;
  const tz_zone *zone; /* the script's TZ, for -l times */
  int first_block;     /* nothing printed yet */
  int stop;            /* output failed */
} lsx;

/* ---- helpers ------------------------------------------------------------ */

static void out(lsx *x, const char *s, size_t n) {
  if (!x->stop && wr_write(&x->w, s, n) < 0)
    x->stop = 1;
}

static void outs(lsx *x, const char *s) {
  out(x, s, strlen(s));
}

static void outf(lsx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void outf(lsx *x, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof tmp) {
    out(x, tmp, (size_t)n);
    return;
  }
  buf b;
  buf_init(&b, x->c->m);
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  out(x, buf_cstr(&b), b.len);
  buf_free(&b);
}

static void ls_error(lsx *x, int serious, const char *fmt, const char *path,
                     int err) {
  wr_flush(&x->w);
  bi_error(x->c, fmt, fu_quote(x->c, path), bi_strerror(err));
  if (serious)
    x->status = 2;
  else if (x->status < 1)
    x->status = 1;
}

/* Human-readable size, GNU style: rounded up, one decimal under 10. */
static void human(uint64_t v, int si, char *out, size_t cap) {
  unsigned base = si ? 1000 : 1024;
  static const char units_b[] = "KMGTPEZY";
  static const char units_s[] = "kMGTPEZY";
  if (v < base) {
    snprintf(out, cap, "%llu", (unsigned long long)v);
    return;
  }
  unsigned __int128 p = base;
  int e = 0;
  while (v >= p * base && e < 7) {
    p *= base;
    e++;
  }
  for (;;) {
    unsigned __int128 tenths = ((unsigned __int128)v * 10 + p - 1) / p;
    char u = si ? units_s[e] : units_b[e];
    if (tenths < 100) {
      snprintf(out, cap, "%u.%u%c", (unsigned)(tenths / 10),
               (unsigned)(tenths % 10), u);
      return;
    }
    unsigned __int128 whole = ((unsigned __int128)v + p - 1) / p;
    if (whole < base || e == 7) {
      snprintf(out, cap, "%llu%c", (unsigned long long)whole, u);
      return;
    }
    p *= base;
    e++;
  }
}

static int64_t ent_time(const lsx *x, const fu_stat *st) {
  return x->time == T_ATIME   ? st->atime_ns
         : x->time == T_CTIME ? st->ctime_ns
                              : st->mtime_ns;
}

static int is_dir_ent(const lsx *x, const ent *e) {
  if (!e->ok)
    return 0;
  if (e->st.type == VFS_DIR)
    return 1;
  return 0;
}

static int cmp_names(const char *a, const char *b) {
  return strcmp(a, b);
}

static const char *ext_of(const char *n) {
  const char *d = strrchr(n, '.');
  return d && d != n ? d : "";
}

static int cmp_ent(const lsx *x, const ent *a, const ent *b) {
  int r = 0;
  if (x->group_dirs) {
    int da =
        a->ok && (a->st.type == VFS_DIR ||
                  (a->st.type == VFS_LNK && a->tok && a->tst.type == VFS_DIR));
    int db =
        b->ok && (b->st.type == VFS_DIR ||
                  (b->st.type == VFS_LNK && b->tok && b->tst.type == VFS_DIR));
    if (da != db)
      return db - da;
  }
  switch (x->sort) {
  case S_TIME: {
    int64_t ta = ent_time(x, &a->st), tb = ent_time(x, &b->st);
    r = ta < tb ? 1 : ta > tb ? -1 : 0;
    break;
  }
  case S_SIZE:
    r = a->st.size < b->st.size ? 1 : a->st.size > b->st.size ? -1 : 0;
    break;
  case S_EXT:
    r = cmp_names(ext_of(a->name), ext_of(b->name));
    break;
  default:
    break;
  }
  if (r == 0)
    r = cmp_names(a->name, b->name);
  return x->reverse ? -r : r;
}

static void sort_ents(lsx *x, ent *v, size_t n) {
  if (x->sort == S_NONE) {
    if (x->reverse)
      for (size_t i = 0; i < n / 2; i++) {
        ent t = v[i];
        v[i] = v[n - 1 - i];
        v[n - 1 - i] = t;
      }
    return;
  }
  /* A merge sort: stable, and the comparator gets the options without a
   * global (qsort has no context argument in C11). */
  ent *tmp = arena_alloc(x->c->scratch, sizeof(ent) * n);
  if (!tmp)
    return;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n;
      size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = cmp_ent(x, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
      while (i < mid)
        tmp[k++] = v[i++];
      while (j < hi)
        tmp[k++] = v[j++];
    }
    memcpy(v, tmp, sizeof(ent) * n);
  }
}

/* The text of a symlink entry, shown by -l. */
static void read_target(lsx *x, ent *e) {
  bi_ctx *c = x->c;
  char *t = NULL;
  size_t tl = 0;
  if (vfs_readlink(c->vfs, c->cwd, e->path, &t, &tl) == 0) {
    e->target = arena_strndup(c->scratch, t, tl);
    vfs_release(c->vfs, t);
  }
}

/* Fill st (and the link's target) for an entry. */
static void load(lsx *x, ent *e, int follow) {
  bi_ctx *c = x->c;
  int type = e->st.type; /* from the directory entry, if known */
  int rc = vfs_lstat(c->vfs, c->cwd, e->path, &e->st);
  e->ok = rc == 0;
  if (!e->ok) {
    memset(&e->st, 0, sizeof e->st);
    e->st.type = type;
    ls_error(x, 0, "cannot access %s: %s", e->path, -rc);
    return;
  }
  if (e->st.type != VFS_LNK)
    return;
  e->tok = vfs_stat(c->vfs, c->cwd, e->path, &e->tst) == 0;
  if (follow) {
    if (e->tok) {
      e->st = e->tst;
    } else {
      ls_error(x, 0, "cannot access %s: %s", e->path, ENOENT);
    }
    return;
  }
  if (x->format == F_LONG)
    read_target(x, e);
}

static char indicator(const lsx *x, int type, unsigned mode) {
  if (x->indicator == I_NONE)
    return 0;
  if (type == VFS_DIR)
    return '/';
  if (x->indicator == I_SLASH)
    return 0;
  if (type == VFS_LNK)
    return '@';
  if (type == VFS_FIFO)
    return '|';
  if (type == VFS_REG && x->indicator == I_CLASSIFY && (mode & 0111))
    return '*';
  return 0;
}

/* Display width of a name: UTF-8 characters count one column each. */
static size_t name_width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xc0) != 0x80)
      w++;
  return w;
}

/* ---- long format -------------------------------------------------------- */

static const char *fmt_time(lsx *x, int64_t ns) {
  bi_ctx *c = x->c;
  static const char months[][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int64_t sec = ns / 1000000000;
  if (ns % 1000000000 < 0)
    sec--;
  tz_tm tm;
  tz_localtime(x->zone, sec, 0, &tm);
  char *r = arena_alloc(c->scratch, 128);
  if (!r)
    return "?";
  /* Recent: within the last six months (an average Gregorian half year),
   * and not in the future. */
  int64_t half_year = (int64_t)31556952 / 2 * 1000000000;
  /* A time past our idea of now may just be newer than when ls started:
   * look at the clock again before calling it the future (as GNU does). */
  if (ns > x->now)
    x->now = fu_now(c);
  int recent = ns > x->now - half_year && ns <= x->now;
  switch (x->time_style) {
  case TS_FULL:
    return fu_time_full(c, x->zone, ns);
  case TS_LONG:
    snprintf(r, 128, "%04lld-%02d-%02d %02d:%02d", (long long)tm.year, tm.mon,
             tm.mday, tm.hour, tm.min);
    return r;
  case TS_ISO:
    if (recent)
      snprintf(r, 128, "%02d-%02d %02d:%02d", tm.mon, tm.mday, tm.hour, tm.min);
    else
      snprintf(r, 128, "%04lld-%02d-%02d ", (long long)tm.year, tm.mon,
               tm.mday);
    return r;
  case TS_FORMAT: {
    tm.nsec = (long)(ns - sec * 1000000000);
    buf b;
    buf_init(&b, c->m);
    tz_format(&b, x->time_fmt, &tm, TZ_FMT_GNU);
    char *f = b.oom ? NULL : arena_strndup(c->scratch, buf_cstr(&b), b.len);
    buf_free(&b);
    return f ? f : "?";
  }
  default:
    if (recent)
      snprintf(r, 128, "%s %2d %02d:%02d", months[tm.mon - 1], tm.mday, tm.hour,
               tm.min);
    else
      snprintf(r, 128, "%s %2d  %lld", months[tm.mon - 1], tm.mday,
               (long long)tm.year);
    return r;
  }
}

static const char *size_text(lsx *x, const ent *e) {
  char *r = arena_alloc(x->c->scratch, 32);
  if (!r)
    return "?";
  if (!e->ok) {
    strcpy(r, "?");
  } else if (e->st.type == VFS_CHR) {
    unsigned maj, min;
    fu_dev_numbers(&e->st, &maj, &min);
    snprintf(r, 32, "%u, %u", maj, min);
  } else if (x->human) {
    human(e->st.size, x->si, r, 32);
  } else {
    snprintf(r, 32, "%llu", (unsigned long long)e->st.size);
  }
  return r;
}

static const char *blocks_text(lsx *x, const ent *e) {
  char *r = arena_alloc(x->c->scratch, 32);
  if (!r)
    return "?";
  if (!e->ok)
    strcpy(r, "?");
  else if (x->human)
    human(fu_blocks_1k(&e->st) * 1024, x->si, r, 32);
  else
    snprintf(r, 32, "%llu", (unsigned long long)fu_blocks_1k(&e->st));
  return r;
}

static const char *ino_text(lsx *x, const ent *e) {
  char *r = arena_alloc(x->c->scratch, 24);
  if (!r)
    return "?";
  if (e->ok)
    snprintf(r, 24, "%llu", (unsigned long long)e->st.ino);
  else
    strcpy(r, "?");
  return r;
}

/* A name as printed: as is, or with -Q in double quotes with C escapes. */
static void put_name(lsx *x, const char *s) {
  if (!x->quote) {
    outs(x, s);
    return;
  }
  outs(x, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    static const char esc[] = "\aa\bb\ff\nn\rr\tt\vv\"\"\\\\";
    const char *e = memchr(esc, *p, sizeof esc - 1);
    if (e && (e - esc) % 2 == 0) {
      char two[2] = {'\\', e[1]};
      out(x, two, 2);
    } else if (*p < 0x20 || *p == 0x7f) {
      outf(x, "\\%03o", *p);
    } else {
      out(x, (const char *)p, 1);
    }
  }
  outs(x, "\"");
}

static void print_name(lsx *x, const ent *e) {
  put_name(x, e->name);
  if (x->format == F_LONG && e->ok && e->st.type == VFS_LNK && e->target) {
    outs(x, " -> ");
    put_name(x, e->target);
    if (e->tok) {
      char ind = indicator(x, e->tst.type, e->tst.mode);
      if (ind)
        out(x, &ind, 1);
    }
    return;
  }
  if (e->ok) {
    char ind = indicator(x, e->st.type, e->st.mode);
    if (ind)
      out(x, &ind, 1);
  }
}

/* The texts of the -i and -s columns and the width of each: 0, or -1 when
 * out of memory. */
static int number_columns(lsx *x, ent *v, size_t n, const char ***ino,
                          const char ***blk, size_t *wi, size_t *wb) {
  *ino = arena_alloc(x->c->scratch, sizeof(char *) * (n + 1));
  *blk = arena_alloc(x->c->scratch, sizeof(char *) * (n + 1));
  if (!*ino || !*blk)
    return -1;
  *wi = *wb = 0;
  for (size_t i = 0; i < n; i++) {
    (*ino)[i] = ino_text(x, &v[i]);
    (*blk)[i] = blocks_text(x, &v[i]);
    if (strlen((*ino)[i]) > *wi)
      *wi = strlen((*ino)[i]);
    if (strlen((*blk)[i]) > *wb)
      *wb = strlen((*blk)[i]);
  }
  return 0;
}

static void print_long(lsx *x, ent *v, size_t n) {
  bi_ctx *c = x->c;
  size_t wi, wb, wl = 0, wu = 0, wg = 0, ws = 0;
  const char **ino, **blk;
  const char **sz = arena_alloc(c->scratch, sizeof(char *) * (n + 1));
  if (!sz || number_columns(x, v, n, &ino, &blk, &wi, &wb) < 0)
    return;
  for (size_t i = 0; i < n; i++) {
    ent *e = &v[i];
    sz[i] = size_text(x, e);
    size_t l;
    if ((l = strlen(sz[i])) > ws)
      ws = l;
    char tmp[24];
    snprintf(tmp, sizeof tmp, "%u", e->ok ? (unsigned)e->st.nlink : 0);
    if ((l = strlen(tmp)) > wl)
      wl = l;
    if (e->ok) {
      const char *u = x->numeric ? NULL : fu_user_name(c, e->st.uid);
      const char *g = x->numeric ? NULL : fu_group_name(c, e->st.gid);
      snprintf(tmp, sizeof tmp, "%u", (unsigned)e->st.uid);
      if ((l = strlen(u ? u : tmp)) > wu)
        wu = l;
      snprintf(tmp, sizeof tmp, "%u", (unsigned)e->st.gid);
      if ((l = strlen(g ? g : tmp)) > wg)
        wg = l;
    }
  }
  for (size_t i = 0; i < n && !x->stop; i++) {
    ent *e = &v[i];
    if (x->inode)
      outf(x, "%*s ", (int)wi, ino[i]);
    if (x->size)
      outf(x, "%*s ", (int)wb, blk[i]);
    if (!e->ok) {
      /* Unknown details print as '?', GNU's way. */
      char ms[11];
      fu_mode_string(e->st.type ? e->st.type : VFS_REG, 0, ms);
      memset(ms + 1, '?', 9);
      outf(x, "%s %*s ", ms, (int)wl, "?");
      if (!x->no_owner)
        outf(x, "%-*s ", (int)wu, "?");
      if (!x->no_group)
        outf(x, "%-*s ", (int)wg, "?");
    } else {
      char ms[11];
      fu_mode_string(e->st.type, e->st.mode, ms);
      outf(x, "%s %*u ", ms, (int)wl, (unsigned)e->st.nlink);
      char tmp[24];
      if (!x->no_owner) {
        const char *u = fu_user_name(c, e->st.uid);
        if (x->numeric) {
          snprintf(tmp, sizeof tmp, "%u", (unsigned)e->st.uid);
          u = tmp;
        }
        outf(x, "%-*s ", (int)wu, u);
      }
      if (!x->no_group) {
        const char *g = fu_group_name(c, e->st.gid);
        if (x->numeric) {
          snprintf(tmp, sizeof tmp, "%u", (unsigned)e->st.gid);
          g = tmp;
        }
        outf(x, "%-*s ", (int)wg, g);
      }
    }
    outf(x, "%*s ", (int)ws, sz[i]);
    outs(x, e->ok ? fmt_time(x, ent_time(x, &e->st)) : "           ?");
    outs(x, " ");
    print_name(x, e);
    outs(x, "\n");
  }
}

/* ---- short formats ------------------------------------------------------ */

/* GNU pads columns with tabs where it can (tab stops every 8). */
static void indent(lsx *x, size_t from, size_t to) {
  while (from < to) {
    if (to / 8 > (from + 1) / 8) {
      outs(x, "\t");
      from += 8 - from % 8;
    } else {
      outs(x, " ");
      from++;
    }
  }
}

static void print_short(lsx *x, ent *v, size_t n) {
  bi_ctx *c = x->c;
  if (n == 0)
    return;
  size_t wi = 0, wb = 0;
  const char **ino = NULL, **blk = NULL;
  if ((x->inode || x->size) &&
      number_columns(x, v, n, &ino, &blk, &wi, &wb) < 0)
    return;
  /* Width of each cell as printed. */
  size_t *w = arena_alloc(c->scratch, sizeof(size_t) * n);
  if (!w)
    return;
  for (size_t i = 0; i < n; i++) {
    w[i] = name_width(v[i].name) + (x->quote ? 2 : 0);
    if (v[i].ok && indicator(x, v[i].st.type, v[i].st.mode))
      w[i]++;
    if (x->inode)
      w[i] += (x->format == F_COMMAS ? strlen(ino[i]) : wi) + 1;
    if (x->size)
      w[i] += (x->format == F_COMMAS ? strlen(blk[i]) : wb) + 1;
  }
#define CELL(i)                                                                \
  do {                                                                         \
    if (x->inode)                                                              \
      outf(x, "%*s ", x->format == F_COMMAS ? 0 : (int)wi, ino[i]);            \
    if (x->size)                                                               \
      outf(x, "%*s ", x->format == F_COMMAS ? 0 : (int)wb, blk[i]);            \
    print_name(x, &v[i]);                                                      \
  } while (0)
  size_t width = (size_t)x->width;
  if (x->format == F_ONE) {
    for (size_t i = 0; i < n && !x->stop; i++) {
      CELL(i);
      outs(x, "\n");
    }
    return;
  }
  if (x->format == F_COMMAS) {
    size_t pos = 0;
    for (size_t i = 0; i < n && !x->stop; i++) {
      if (i > 0) {
        if (width && pos + 2 + w[i] > width) {
          outs(x, ",\n");
          pos = 0;
        } else {
          outs(x, ", ");
          pos += 2;
        }
      }
      CELL(i);
      pos += w[i];
    }
    outs(x, "\n");
    return;
  }
  /* Columns (-C) or rows (-x): the most columns that fit, GNU's way:
   * every column is at least 3 wide, all but the last get 2 spaces after
   * the widest name, and the line must stay shorter than the width. */
  size_t *cw = arena_alloc(c->scratch, sizeof(size_t) * n);
  if (!cw)
    return;
  size_t maxcols = width ? width / 3 : n;
  if (maxcols < 1)
    maxcols = 1;
  if (maxcols > n)
    maxcols = n;
  size_t cols = maxcols, rows = 1;
  for (; cols >= 1; cols--) {
    rows = (n + cols - 1) / cols;
    for (size_t k = 0; k < cols; k++)
      cw[k] = 3;
    for (size_t i = 0; i < n; i++) {
      size_t col = x->format == F_COLS ? i / rows : i % cols;
      size_t cell = w[i] + (col + 1 < cols ? 2 : 0);
      if (cell > cw[col])
        cw[col] = cell;
    }
    size_t total = 0;
    for (size_t k = 0; k < cols; k++)
      total += cw[k];
    if (!width || total < width || cols == 1)
      break;
  }
  for (size_t r = 0; r < rows && !x->stop; r++) {
    size_t pos = 0;
    for (size_t k = 0; k < cols; k++) {
      size_t i = x->format == F_COLS ? k * rows + r : r * cols + k;
      if (i >= n)
        break;
      size_t next = x->format == F_COLS ? i + rows : i + 1;
      CELL(i);
      if (k + 1 < cols && next < n)
        indent(x, pos + w[i], pos + cw[k]);
      pos += cw[k];
    }
    outs(x, "\n");
  }
#undef CELL
}

static void print_ents(lsx *x, ent *v, size_t n) {
  if (x->format == F_LONG)
    print_long(x, v, n);
  else
    print_short(x, v, n);
}

/* ---- directories -------------------------------------------------------- */

static int hidden(const lsx *x, const char *name) {
  if (name[0] == '.' && x->all == A_DEFAULT)
    return 1;
  if (x->ignore_backups && name[0] && name[strlen(name) - 1] == '~')
    return 1;
  for (int i = 0; i < x->nhide; i++)
    if (fnmatch(x->hide[i], name, FNM_PERIOD) == 0)
      return 1;
  return 0;
}

static void list_dir(lsx *x, const char *path, int header, int top) {
  bi_ctx *c = x->c;
  if (fu_poll(c)) {
    x->stop = 1;
    return;
  }
  arena_mark mk = arena_save(c->scratch);
  vfs_dir *dir = NULL;
  int rc = vfs_opendir(c->vfs, c->cwd, path, &dir);
  if (rc < 0) {
    ls_error(x, top, "cannot open directory %s: %s", path, -rc);
    arena_release(c->scratch, mk);
    return;
  }
  if (!x->first_block)
    outs(x, "\n");
  x->first_block = 0;
  if (header) {
    outs(x, path);
    outs(x, ":\n");
  }
  size_t n = 0, cap = 64;
  ent *v = arena_calloc(c->scratch, sizeof(ent) * cap);
  if (x->all == A_ALL && v) {
    static const char *const dots[] = {".", ".."};
    for (int k = 0; k < 2; k++) {
      v[n].name = dots[k];
      v[n].path = fu_join(c, path, dots[k]);
      load(x, &v[n], x->deref);
      n++;
    }
  }
  vfs_dirent de;
  while (v && (rc = vfs_dir_next(dir, &de)) > 0) {
    char *name = arena_strndup(c->scratch, de.name, de.name_len);
    if (!name || hidden(x, name))
      continue;
    if (n == cap) {
      ent *nv = arena_calloc(c->scratch, sizeof(ent) * cap * 2);
      if (!nv) {
        v = NULL;
        break;
      }
      memcpy(nv, v, sizeof(ent) * n);
      v = nv;
      cap *= 2;
    }
    ent *e = &v[n++];
    e->name = name;
    e->path = fu_join(c, path, name);
    e->st.type = de.type;
    if (x->need_stat) {
      load(x, e, x->deref);
    } else {
      /* Name and type are enough (GNU does not stat here either, so an
       * unsearchable directory still lists its names). */
      e->ok = 1;
      e->st.type = de.type;
      e->st.ino = de.ino;
    }
  }
  vfs_closedir(dir);
  if (!v) {
    arena_release(c->scratch, mk);
    return;
  }
  sort_ents(x, v, n);
  if (x->format == F_LONG || x->size) {
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
      if (v[i].ok)
        total += fu_blocks_1k(&v[i].st);
    if (x->human) {
      char hb[32];
      human(total * 1024, x->si, hb, sizeof hb);
      outf(x, "total %s\n", hb);
    } else {
      outf(x, "total %llu\n", (unsigned long long)total);
    }
  }
  print_ents(x, v, n);
  if (x->recursive) {
    for (size_t i = 0; i < n && !x->stop; i++) {
      ent *e = &v[i];
      if (!e->ok || e->st.type != VFS_DIR || !strcmp(e->name, ".") ||
          !strcmp(e->name, ".."))
        continue;
      list_dir(x, e->path, 1, 0);
    }
  }
  arena_release(c->scratch, mk);
}

/* ---- main --------------------------------------------------------------- */

static int parse_width(lsx *x, const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == 0 || *end || v < 0) {
    bi_error(x->c, "invalid line width: %s", tu_quote(x->c, s));
    return -1;
  }
  x->width = (int)v;
  return 0;
}

/* An option argument outside its set: status 1 as GNU's argmatch gives,
 * 2 (ls's usage status) for a time style. */
static int bad_arg(lsx *x, const char *opt, const char *arg,
                   const char *valid) {
  fu_bad_arg(x->c, opt, arg, valid);
  return strcmp(opt, "time style") ? 1 : 2;
}

enum { W_ALWAYS, W_NEVER, W_AUTO };

/* The WHEN of --color and --classify as GNU's argmatch reads it (a unique
 * abbreviation, or one shared by synonyms): W_*, or -1 after the
 * complaint. */
static int when_arg(lsx *x, const char *opt, const char *a) {
  static const char *const words[] = {"always", "yes",  "force", "never", "no",
                                      "none",   "auto", "tty",   "if-tty"};
  size_t n = strlen(a);
  int hit = -1, ambiguous = 0;
  for (int i = 0; i < 9; i++) {
    if (strncmp(words[i], a, n) != 0)
      continue;
    if (words[i][n] == 0) {
      hit = i;
      ambiguous = 0;
      break;
    }
    if (hit >= 0 && hit / 3 != i / 3)
      ambiguous = 1;
    hit = i;
  }
  if (hit >= 0 && !ambiguous)
    return hit / 3;
  tu_bad_arg(x->c, hit >= 0 ? "ambiguous" : "invalid", opt, a,
             "  - 'always', 'yes', 'force'\n"
             "  - 'never', 'no', 'none'\n"
             "  - 'auto', 'tty', 'if-tty'\n");
  return -1;
}

int bi_ls(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"all", 'a', BI_ARG_NONE},
      {"almost-all", 'A', BI_ARG_NONE},
      {"ignore-backups", 'B', BI_ARG_NONE},
      {"color", OPT_COLOR, BI_ARG_OPTIONAL},
      {"colour", OPT_COLOR, BI_ARG_OPTIONAL},
      {"directory", 'd', BI_ARG_NONE},
      {"classify", 'F', BI_ARG_OPTIONAL},
      {"file-type", OPT_FILE_TYPE, BI_ARG_NONE},
      {"full-time", OPT_FULL_TIME, BI_ARG_NONE},
      {"group-directories-first", OPT_GROUP_DIRS, BI_ARG_NONE},
      {"no-group", 'G', BI_ARG_NONE},
      {"human-readable", 'h', BI_ARG_NONE},
      {"si", OPT_SI, BI_ARG_NONE},
      {"dereference-command-line", 'H', BI_ARG_NONE},
      {"hide", OPT_HIDE, BI_ARG_REQUIRED},
      {"ignore", 'I', BI_ARG_REQUIRED},
      {"indicator-style", OPT_INDICATOR, BI_ARG_REQUIRED},
      {"inode", 'i', BI_ARG_NONE},
      {"kibibytes", 'k', BI_ARG_NONE},
      {"dereference", 'L', BI_ARG_NONE},
      {"literal", 'N', BI_ARG_NONE},
      {"numeric-uid-gid", 'n', BI_ARG_NONE},
      {"quote-name", 'Q', BI_ARG_NONE},
      {"reverse", 'r', BI_ARG_NONE},
      {"recursive", 'R', BI_ARG_NONE},
      {"size", 's', BI_ARG_NONE},
      {"sort", OPT_SORT, BI_ARG_REQUIRED},
      {"time", OPT_TIME, BI_ARG_REQUIRED},
      {"time-style", OPT_TIME_STYLE, BI_ARG_REQUIRED},
      {"width", 'w', BI_ARG_REQUIRED},
      BI_OPTS_END};
  lsx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.first_block = 1;
  int tty = (c->out->flags & STREAM_TTY) != 0;
  x.format = tty ? F_COLS : F_ONE;
  x.width = 80;
  const char *cols = c->getenv ? c->getenv(c, "COLUMNS") : NULL;
  if (cols && *cols) {
    long v = strtol(cols, NULL, 10);
    if (v > 0)
      x.width = (int)v;
  }
  int time_given = 0, sort_given = 0;
  x.hide = arena_alloc(c->scratch, sizeof(char *) * (size_t)(c->argc + 1));
  if (!x.hide)
    return 2;
  bi_getopt g;
  bi_getopt_init(&g, c, "aABcCdfFgGhHiI:klLmnNopqQrRsStuUvw:xX1", opts);
  int o;
  while ((o = bi_getopt_each(&g, 2)) > 0) {
    switch (o) {
    case 'a':
      x.all = A_ALL;
      break;
    case 'A':
      x.all = A_ALMOST;
      break;
    case 'B':
      x.ignore_backups = 1;
      break;
    case 'c':
      x.time = T_CTIME;
      time_given = 1;
      break;
    case 'u':
      x.time = T_ATIME;
      time_given = 1;
      break;
    case 'C':
      x.format = F_COLS;
      break;
    case 'x':
      x.format = F_ROWS;
      break;
    case 'm':
      x.format = F_COMMAS;
      break;
    case '1':
      if (x.format != F_LONG)
        x.format = F_ONE;
      break;
    case 'l':
      x.format = F_LONG;
      break;
    case 'g':
      x.format = F_LONG;
      x.no_owner = 1;
      break;
    case 'o':
      x.format = F_LONG;
      x.no_group = 1;
      break;
    case 'n':
      x.format = F_LONG;
      x.numeric = 1;
      break;
    case 'G':
      x.no_group = 1;
      break;
    case 'd':
      x.directory = 1;
      break;
    case 'f':
      x.all = A_ALL;
      x.sort = S_NONE;
      sort_given = 1;
      if (x.format == F_LONG)
        x.format = F_ONE;
      break;
    case 'F': {
      int w = g.arg ? when_arg(&x, "--classify", g.arg) : W_ALWAYS;
      if (w < 0)
        return 1;
      if (w == W_ALWAYS || (w == W_AUTO && tty))
        x.indicator = I_CLASSIFY; /* GNU: "never" keeps what was asked */
      break;
    }
    case 'p':
      x.indicator = I_SLASH;
      break;
    case OPT_FILE_TYPE:
      x.indicator = I_FILETYPE;
      break;
    case OPT_INDICATOR:
      if (!strcmp(g.arg, "none"))
        x.indicator = I_NONE;
      else if (!strcmp(g.arg, "slash"))
        x.indicator = I_SLASH;
      else if (!strcmp(g.arg, "file-type"))
        x.indicator = I_FILETYPE;
      else if (!strcmp(g.arg, "classify"))
        x.indicator = I_CLASSIFY;
      else
        return bad_arg(&x, "--indicator-style", g.arg,
                       "  - 'none'\n  - 'slash'\n  - 'file-type'\n"
                       "  - 'classify'\n");
      break;
    case OPT_FULL_TIME:
      x.format = F_LONG;
      x.time_style = TS_FULL;
      break;
    case OPT_GROUP_DIRS:
      x.group_dirs = 1;
      break;
    case 'h':
      x.human = 1;
      break;
    case OPT_SI:
      x.human = 1;
      x.si = 1;
      break;
    case 'H':
      x.deref_cmdline = 1;
      break;
    case 'L':
      x.deref = 1;
      break;
    case OPT_HIDE:
    case 'I':
      x.hide[x.nhide++] = g.arg;
      break;
    case 'i':
      x.inode = 1;
      break;
    case 's':
      x.size = 1;
      break;
    case 'r':
      x.reverse = 1;
      break;
    case 'R':
      x.recursive = 1;
      break;
    case 'S':
      x.sort = S_SIZE;
      sort_given = 1;
      break;
    case 't':
      x.sort = S_TIME;
      sort_given = 1;
      break;
    case 'U':
      x.sort = S_NONE;
      sort_given = 1;
      break;
    case 'v':
      x.sort = S_NAME;
      sort_given = 1;
      break;
    case 'X':
      x.sort = S_EXT;
      sort_given = 1;
      break;
    case OPT_SORT:
      if (!strcmp(g.arg, "none"))
        x.sort = S_NONE;
      else if (!strcmp(g.arg, "size"))
        x.sort = S_SIZE;
      else if (!strcmp(g.arg, "time"))
        x.sort = S_TIME;
      else if (!strcmp(g.arg, "name") || !strcmp(g.arg, "version"))
        x.sort = S_NAME;
      else if (!strcmp(g.arg, "extension"))
        x.sort = S_EXT;
      else
        return bad_arg(&x, "--sort", g.arg,
                       "  - 'none'\n  - 'time'\n  - 'size'\n"
                       "  - 'extension'\n  - 'version'\n  - 'width'\n"
                       "  - 'name'\n");
      sort_given = 1;
      break;
    case OPT_TIME:
      if (!strcmp(g.arg, "atime") || !strcmp(g.arg, "access") ||
          !strcmp(g.arg, "use"))
        x.time = T_ATIME;
      else if (!strcmp(g.arg, "ctime") || !strcmp(g.arg, "status"))
        x.time = T_CTIME;
      else if (!strcmp(g.arg, "mtime") || !strcmp(g.arg, "modification"))
        x.time = T_MTIME;
      else
        return bad_arg(&x, "--time", g.arg,
                       "  - 'atime', 'access', 'use'\n"
                       "  - 'ctime', 'status'\n"
                       "  - 'mtime', 'modification'\n");
      time_given = 1;
      break;
    case OPT_TIME_STYLE: {
      const char *s = g.arg;
      if (!strncmp(s, "posix-", 6))
        s += 6;
      if (s[0] == '+') {
        x.time_style = TS_FORMAT;
        x.time_fmt = s + 1;
      } else if (!strcmp(s, "full-iso")) {
        x.time_style = TS_FULL;
      } else if (!strcmp(s, "long-iso")) {
        x.time_style = TS_LONG;
      } else if (!strcmp(s, "iso")) {
        x.time_style = TS_ISO;
      } else if (!strcmp(s, "locale")) {
        x.time_style = TS_LOCALE;
      } else {
        return bad_arg(&x, "time style", s,
                       "  - [posix-]full-iso\n  - [posix-]long-iso\n"
                       "  - [posix-]iso\n  - [posix-]locale\n"
                       "  - +FORMAT (e.g., +%H:%M) for a 'date'-style "
                       "format\n");
      }
      break;
    }
    case 'w':
      if (parse_width(&x, g.arg) < 0)
        return 2;
      break;
    case 'Q':
      x.quote = 1;
      break;
    case 'N':
      x.quote = 0;
      break;
    case 'k':
    case 'q':
    case OPT_COLOR: /* checked; the listing has no colours */
      if (g.arg && when_arg(&x, "--color", g.arg) < 0)
        return 1;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  /* -c/-u alone (no -l, no explicit sort) sort by that time, as GNU. */
  if (time_given && !sort_given && x.format != F_LONG)
    x.sort = S_TIME;
  x.now = fu_now(c);
  x.need_stat = x.format == F_LONG || x.sort == S_TIME || x.sort == S_SIZE ||
                x.size || x.deref || x.indicator == I_CLASSIFY || x.group_dirs;
  wr_init(&x.w, c->out);

  static char *const dot[] = {".", NULL};
  char *const *ops = g.noperands ? g.operands : dot;
  size_t n = g.noperands ? (size_t)g.noperands : 1;
  ent *files = arena_calloc(c->scratch, sizeof(ent) * n);
  ent *dirs = arena_calloc(c->scratch, sizeof(ent) * n);
  if (!files || !dirs)
    return 2;
  x.zone = bi_tz_open(c);
  size_t nf = 0, nd = 0;
  /* Without -d, -F or -l, a command-line symlink to a directory is
   * followed (lists the directory); -H and -L always follow. */
  int follow_dir_links =
      !x.directory && x.format != F_LONG && x.indicator != I_CLASSIFY;
  for (size_t i = 0; i < n; i++) {
    ent e;
    memset(&e, 0, sizeof e);
    e.name = ops[i];
    e.path = ops[i];
    int rc = vfs_lstat(c->vfs, c->cwd, e.path, &e.st);
    if (rc < 0) {
      ls_error(&x, 1, "cannot access %s: %s", e.path, -rc);
      continue;
    }
    e.ok = 1;
    if (e.st.type == VFS_LNK) {
      e.tok = vfs_stat(c->vfs, c->cwd, e.path, &e.tst) == 0;
      if (e.tok && (x.deref || x.deref_cmdline ||
                    (follow_dir_links && e.tst.type == VFS_DIR))) {
        e.st = e.tst;
      } else if (x.format == F_LONG) {
        read_target(&x, &e);
      }
      if (!e.tok && (x.deref || x.deref_cmdline)) {
        ls_error(&x, 1, "cannot access %s: %s", e.path, ENOENT);
        continue;
      }
    }
    if (!x.directory && is_dir_ent(&x, &e))
      dirs[nd++] = e;
    else
      files[nf++] = e;
  }
  sort_ents(&x, files, nf);
  if (nf) {
    print_ents(&x, files, nf);
    x.first_block = 0;
  }
  /* Directory operands are listed in name order whatever the sort key
   * (GNU sorts them with the same key; for name-sorted output, the usual
   * case, both agree). */
  sort_ents(&x, dirs, nd);
  int headers = n > 1 || x.recursive;
  for (size_t i = 0; i < nd && !x.stop; i++)
    list_dir(&x, dirs[i].path, headers, 1);
  tz_close(x.zone);
  if (x.stop || wr_flush(&x.w) < 0)
    return fu_out_status(&x.w);
  return x.status;
}
