/*
 * tar.c - GNU tar 1.34's everyday use over libarchive: -c -x -t -r -u,
 * -z -j -J --zstd, -f (- for stdin/stdout), -C, -v, -O, -k,
 * --strip-components, --exclude, --numeric-owner, --format and the old
 * bundled syntax (tar czf out.tgz dir). Archives are read and written as
 * streams; members land in the vfs only, below the target directory:
 * leading "/" and "../" are removed from names, members with ".." inside
 * are refused and symlinks that could lead out are made last, as GNU tar
 * does.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/archive/arc.h"
#include "builtins/archive/zfront.h"
#include "builtins/fileutil.h"
#include "builtins/textutil.h"
#include "builtins/tzutil.h"

const char bi_usage_tar[] = "Usage: tar [OPTION...] [FILE]...";
const char bi_help_tar[] =
    "Make, list or unpack tape archives. The first option may be a bundle of\n"
    "letters without a dash: `tar czf out.tgz dir', `tar xf in.tar'.\n"
    "\n"
    " One of:\n"
    "  -c, --create           write a new archive of the FILEs\n"
    "  -x, --extract, --get   unpack the archive (or the FILEs named)\n"
    "  -t, --list             name the members (or the FILEs named)\n"
    "  -r, --append           add FILEs at the end of an archive\n"
    "  -u, --update           add FILEs newer than their copy in the archive\n"
    "\n"
    " Modifiers:\n"
    "  -f, --file=ARCHIVE     the archive (- is standard input/output)\n"
    "  -C, --directory=DIR    work in DIR\n"
    "  -v, --verbose          name each member (twice: long listing)\n"
    "  -O, --to-stdout        unpack contents to standard output\n"
    "  -k, --keep-old-files   never replace existing files\n"
    "  -p, --preserve-permissions  keep modes exactly (no umask)\n"
    "  -m, --touch            do not restore modification times\n"
    "  -P, --absolute-names   keep leading '/' when creating\n"
    "      --strip-components=N  drop N leading parts of member names\n"
    "      --exclude=PATTERN  leave out names matching PATTERN\n"
    "      --numeric-owner    show owners as numbers\n"
    "  -H, --format=FORMAT    gnu (default), ustar, pax or posix\n"
    "  -z, --gzip  -j, --bzip2  -J, --xz  --zstd   compression\n"
    "      --help             print this summary and quit\n"
    "      --version          print the version line and quit\n";

enum {
  O_STRIP = 0x100,
  O_EXCLUDE,
  O_NUMERIC,
  O_ZSTD,
  O_FORMAT,
  O_OVERWRITE,
  O_NOSAME
};

typedef struct tar {
  bi_ctx *c;
  int mode;   /* c x t r u */
  int filter; /* 0, 'z', 'j', 'J', 'Z' (zstd) */
  const char *file;
  const char *dir; /* absolute */
  int verbose, to_stdout, keep_old, keep_perms, no_mtime, absolute, numeric;
  int strip;
  const char *format;
  const char **excl;
  int nexcl;
  char **names;
  int nnames;
  char *found; /* per name: seen in the archive */
  int status;  /* 2 after an error */
  int said_prefix[4];
  char **prefixes; /* the "Removing leading" prefixes said */
  int nprefixes;
  int ugswidth;
  const tz_zone *tz;
  writer w;
  const char *arch_abs; /* the archive's own path when a file */
  int depth;
  /* files with more than one link already written: inode, name */
  uint64_t *link_ino;
  const char **link_name;
  size_t nlinks, caplinks;
} tar;

static void terr(tar *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void terr(tar *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf b;
  buf_init(&b, t->c->m);
  buf_puts(&b, "tar: ");
  buf_vprintf(&b, fmt, ap);
  buf_putc(&b, '\n');
  va_end(ap);
  wr_flush(&t->w);
  if (b.len)
    stream_write(t->c->err, b.data, b.len);
  buf_free(&b);
}

/* GNU's quote() as the locale has it: ‘name’ under UTF-8, 'name' else. */
static const char *tquote(bi_ctx *c, const char *s) {
  if (!tu_utf8_locale(c))
    return fu_quote(c, s);
  buf b;
  buf_init(&b, c->m);
  buf_printf(&b, "\xe2\x80\x98%s\xe2\x80\x99", s);
  const char *r = arena_strdup(c->scratch, buf_cstr(&b));
  buf_free(&b);
  return r ? r : s;
}

static int fatal(tar *t) {
  terr(t, "Error is not recoverable: exiting now");
  return 2;
}

/* "Removing leading `X' from member names", once per prefix. */
static void say_prefix(tar *t, const char *name, size_t n) {
  bi_ctx *c = t->c;
  for (int i = 0; i < t->nprefixes; i++)
    if (strlen(t->prefixes[i]) == n && strncmp(t->prefixes[i], name, n) == 0)
      return;
  if (t->nprefixes < 64) {
    if (!t->prefixes)
      t->prefixes = arena_alloc(c->scratch, 64 * sizeof(char *));
    if (t->prefixes)
      t->prefixes[t->nprefixes++] = arena_strndup(c->scratch, name, n);
  }
  terr(t, "Removing leading `%.*s' from member names", (int)n, name);
}

/* GNU's default: a pattern matches any run of whole components of the
 * name (a directory excluded takes what is below it along). */
static int excluded(tar *t, const char *name) {
  if (!t->nexcl)
    return 0;
  const char *n = fu_strip_slashes(t->c, name);
  if (!n)
    return 0;
  for (int i = 0; i < t->nexcl; i++) {
    const char *p = n;
    for (;;) {
      if (fnmatch(t->excl[i], p, FNM_LEADING_DIR) == 0)
        return 1;
      p = strchr(p, '/');
      if (!p)
        break;
      while (*p == '/')
        p++;
    }
  }
  return 0;
}

/* Is name (as in the archive) selected by the FILE operands? */
static int selected(tar *t, const char *name) {
  if (!t->nnames)
    return 1;
  size_t n = strlen(name);
  while (n > 1 && name[n - 1] == '/')
    n--;
  for (int i = 0; i < t->nnames; i++) {
    const char *s = t->names[i];
    size_t k = strlen(s);
    while (k > 1 && s[k - 1] == '/')
      k--;
    if (k <= n && strncmp(name, s, k) == 0 && (k == n || name[k] == '/')) {
      t->found[i] = 1;
      return 1;
    }
  }
  return 0;
}

/* ---- the long listing ---------------------------------------------------- */

static void list_line(tar *t, struct archive_entry *e, const char *name) {
  bi_ctx *c = t->c;
  char modes[11];
  int type = arc_type(e);
  const char *hl = archive_entry_hardlink(e);
  fu_mode_string(type ? type : VFS_REG, (unsigned)archive_entry_perm(e), modes);
  if (hl)
    modes[0] = 'h';
  else if (!type) {
    switch (archive_entry_filetype(e)) {
    case AE_IFCHR:
      modes[0] = 'c';
      break;
    case AE_IFBLK:
      modes[0] = 'b';
      break;
    case AE_IFIFO:
      modes[0] = 'p';
      break;
    default:
      modes[0] = '?';
    }
  }
  char ub[32], gb[32];
  const char *u = archive_entry_uname(e), *g = archive_entry_gname(e);
  if (t->numeric || !u || !*u) {
    snprintf(ub, sizeof ub, "%lld", (long long)archive_entry_uid(e));
    u = ub;
  }
  if (t->numeric || !g || !*g) {
    snprintf(gb, sizeof gb, "%lld", (long long)archive_entry_gid(e));
    g = gb;
  }
  char size[48];
  if (archive_entry_filetype(e) == AE_IFCHR ||
      archive_entry_filetype(e) == AE_IFBLK)
    snprintf(size, sizeof size, "%lu,%lu",
             (unsigned long)archive_entry_rdevmajor(e),
             (unsigned long)archive_entry_rdevminor(e));
  else
    snprintf(size, sizeof size, "%lld",
             (long long)(type == VFS_REG && !hl ? archive_entry_size(e) : 0));
  int pad = (int)(strlen(u) + 1 + strlen(g) + 1 + strlen(size));
  if (pad > t->ugswidth)
    t->ugswidth = pad;
  tz_tm tm;
  tz_localtime(t->tz, (int64_t)archive_entry_mtime(e), 0, &tm);
  buf tb;
  buf_init(&tb, c->m);
  tz_format(&tb, "%Y-%m-%d %H:%M", &tm, 0);
  buf line;
  buf_init(&line, c->m);
  buf_printf(&line, "%s %s/%s %*s %s %s", modes, u, g,
             t->ugswidth - pad + (int)strlen(size), size, buf_cstr(&tb), name);
  if (hl)
    buf_printf(&line, " link to %s", hl);
  else if (type == VFS_LNK)
    buf_printf(&line, " -> %s",
               archive_entry_symlink(e) ? archive_entry_symlink(e) : "");
  buf_putc(&line, '\n');
  wr_write(&t->w, line.data, line.len);
  buf_free(&line);
  buf_free(&tb);
}

/* ---- reading: -t and -x -------------------------------------------------- */

static void x_report(void *ud, const char *name, const char *what, int err) {
  tar *t = ud;
  terr(t, "%s: %s: %s", name, what, bi_strerror(err));
  t->status = 2;
}

static stream *open_archive_in(tar *t) {
  int err = 0;
  stream *s = bi_open_read(t->c, t->file, &err);
  if (!s)
    terr(t, "%s: Cannot open: %s", t->file, bi_strerror(err));
  return s;
}

/* Reads past a member's data block by block, polling the budget: left to
 * libarchive, skipping a compressed member decompresses all of it between
 * two reads of the input (a bomb would run unchecked). -1: stop. */
static int drain(bi_ctx *c, struct archive *a) {
  const void *p;
  size_t n;
  la_int64_t off;
  for (;;) {
    if (fu_poll(c))
      return -1;
    int r = archive_read_data_block(a, &p, &n, &off);
    if (r != ARCHIVE_OK)
      return 0; /* the end, or an error the next header reports */
  }
}

static int read_archive(tar *t) {
  bi_ctx *c = t->c;
  stream *s = open_archive_in(t);
  if (!s)
    return fatal(t);
  arc_io io;
  struct archive *a = arc_reader(&io, c, s, ARC_TAR);
  if (!a) {
    arc_io_free(&io);
    stream_unref(s);
    terr(t, "%s", bi_strerror(ENOMEM));
    return fatal(t);
  }
  arc_x x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.dir = t->dir;
  x.keep_old = t->keep_old;
  x.keep_perms = t->keep_perms;
  x.no_mtime = t->no_mtime;
  x.strip = t->strip;
  int n = 0, stop = 0;
  for (;;) {
    struct archive_entry *e;
    if (fu_poll(c)) {
      stop = 1;
      break;
    }
    int r = archive_read_next_header(a, &e);
    if (r == ARCHIVE_EOF)
      break;
    if (r < ARCHIVE_WARN) {
      if (io.err == ECANCELED || io.err == EPIPE) {
        stop = 1;
        break;
      }
      if (n == 0)
        terr(t, "This does not look like a tar archive");
      else if (io.err)
        terr(t, "%s: Read error: %s", t->file, bi_strerror(io.err));
      else
        terr(t, "Unexpected EOF in archive");
      t->status = 2;
      if (n == 0 || r == ARCHIVE_FATAL)
        break;
      continue;
    }
    n++;
    const char *name = archive_entry_pathname(e);
    if (!name)
      name = "";
    if (!selected(t, name) || excluded(t, name)) {
      if (drain(c, a) < 0) {
        stop = 1;
        break;
      }
      continue;
    }
    size_t drop = 0;
    int dotdot = arc_name_check(name, &drop);
    if (drop && !t->absolute)
      say_prefix(t, name, drop);
    if (t->mode == 't') {
      if (t->verbose)
        list_line(t, e, name);
      else {
        wr_puts(&t->w, name);
        wr_putc(&t->w, '\n');
      }
      if (t->w.err || drain(c, a) < 0) {
        stop = 1;
        break;
      }
      continue;
    }
    /* extraction */
    if (dotdot) {
      terr(t, "%s: Member name contains '..'", name);
      t->status = 2;
      continue;
    }
    const char *rel = arc_strip(name + drop, t->strip);
    if (!*rel || strcmp(rel, ".") == 0 || strcmp(rel, "./") == 0) {
      if (t->strip || !*rel)
        continue;
    }
    if (t->verbose) {
      if (t->verbose > 1)
        list_line(t, e, name);
      else {
        wr_puts(&t->w, name);
        wr_putc(&t->w, '\n');
      }
    }
    if (t->to_stdout) {
      if (arc_type(e) != VFS_REG || archive_entry_hardlink(e))
        continue;
      wr_flush(&t->w);
      const void *p;
      size_t k;
      la_int64_t off;
      int rr;
      while ((rr = archive_read_data_block(a, &p, &k, &off)) == ARCHIVE_OK) {
        if (k && stream_write(c->out, p, k)) {
          stop = 1;
          break;
        }
      }
      if (stop)
        break;
      continue;
    }
    const char *what;
    int err = arc_extract(&x, a, e, rel, &what);
    if (err == ECANCELED) {
      stop = 1;
      break;
    }
    if (err) {
      if (strcmp(what, "Cannot create symlink") == 0)
        terr(
            t, "%s: %s to %s: %s", rel, what,
            tquote(c, archive_entry_symlink(e) ? archive_entry_symlink(e) : ""),
            bi_strerror(err));
      else
        terr(t, "%s: %s: %s", rel, what, bi_strerror(err));
      t->status = 2;
    }
  }
  if (t->mode == 'x')
    arc_finish(&x, x_report, t);
  archive_read_free(a);
  arc_io_free(&io);
  stream_unref(s);
  if (stop)
    return t->w.err == EPIPE || c->out->err == EPIPE ? 141 : 1;
  for (int i = 0; i < t->nnames; i++)
    if (!t->found[i]) {
      terr(t, "%s: Not found in archive", t->names[i]);
      t->status = 2;
    }
  return 0;
}

/* ---- writing: -c, -r, -u --------------------------------------------------
 */

static int set_format(tar *t, struct archive *a) {
  const char *f = t->format ? t->format : "gnu";
  int r;
  if (strcmp(f, "gnu") == 0 || strcmp(f, "oldgnu") == 0)
    r = archive_write_set_format_gnutar(a);
  else if (strcmp(f, "ustar") == 0)
    r = archive_write_set_format_ustar(a);
  else if (strcmp(f, "pax") == 0 || strcmp(f, "posix") == 0)
    r = archive_write_set_format_pax(a);
  else if (strcmp(f, "v7") == 0)
    r = archive_write_set_format_v7tar(a);
  else {
    terr(t, "%s: Invalid archive format", f);
    return -1;
  }
  if (r != ARCHIVE_OK)
    return -1;
  switch (t->filter) {
  case 'z':
    r = archive_write_add_filter_gzip(a);
    break;
  case 'j':
    r = archive_write_add_filter_bzip2(a);
    break;
  case 'J':
    r = archive_write_add_filter_xz(a);
    break;
  case 'Z':
    r = archive_write_add_filter_zstd(a);
    break;
  default:
    r = archive_write_add_filter_none(a);
  }
  /* ARCHIVE_WARN: the filter would run a host program; refused */
  if (r != ARCHIVE_OK) {
    terr(t, "Cannot use compressed or remote archives");
    return -1;
  }
  if (t->filter == 'z')
    archive_write_set_filter_option(a, "gzip", "timestamp", NULL);
  /* Compressed output is not padded to a whole record (a compressor in a
   * pipe writes no padding after its stream either). */
  if (t->filter)
    archive_write_set_bytes_in_last_block(a, 1);
  return r == ARCHIVE_OK ? 0 : -1;
}

typedef struct wctx {
  tar *t;
  struct archive *a;
} wctx;

static int add_path(wctx *w, const char *fs, const char *name);

static const char *seen_link(tar *t, const fu_stat *st) {
  for (size_t i = 0; i < t->nlinks; i++)
    if (t->link_ino[i] == st->ino)
      return t->link_name[i];
  return NULL;
}

static void add_link(tar *t, const fu_stat *st, const char *name) {
  arena *a = t->c->scratch;
  if (t->nlinks == t->caplinks) {
    size_t nc = t->caplinks ? t->caplinks * 2 : 16;
    uint64_t *i2 = arena_alloc(a, nc * sizeof *i2);
    const char **n2 = arena_alloc(a, nc * sizeof *n2);
    if (!i2 || !n2)
      return;
    if (t->nlinks) {
      memcpy(i2, t->link_ino, t->nlinks * sizeof *i2);
      memcpy(n2, t->link_name, t->nlinks * sizeof *n2);
    }
    t->link_ino = i2, t->link_name = n2, t->caplinks = nc;
  }
  const char *n = arena_strdup(a, name);
  if (!n)
    return;
  t->link_ino[t->nlinks] = st->ino;
  t->link_name[t->nlinks++] = n;
}

static int add_dir(wctx *w, const char *fs, const char *name) {
  tar *t = w->t;
  bi_ctx *c = t->c;
  if (t->depth > 256)
    return 0;
  char **names = NULL;
  size_t n = 0;
  int rc = vfs_readdir(c->vfs, "/", fs, &names, &n);
  if (rc < 0) {
    terr(t, "%s: Cannot open: %s", name, bi_strerror(-rc));
    t->status = 2;
    return 0;
  }
  t->depth++;
  int r = 0;
  for (size_t i = 0; i < n && r == 0; i++) {
    const char *cfs = fu_join(c, fs, names[i]);
    size_t nl = strlen(name);
    const char *cname = nl && name[nl - 1] == '/'
                            ? fu_join(c, fu_strip_slashes(c, name), names[i])
                            : fu_join(c, name, names[i]);
    if (!cfs || !cname)
      r = -1;
    else
      r = add_path(w, cfs, cname);
  }
  t->depth--;
  vfs_free_names(c->vfs, names, n);
  return r;
}

static int add_path(wctx *w, const char *fs, const char *name) {
  tar *t = w->t;
  bi_ctx *c = t->c;
  if (fu_poll(c))
    return -1;
  fu_stat st;
  int rc = vfs_lstat(c->vfs, "/", fs, &st);
  if (rc < 0) {
    terr(t, "%s: Cannot stat: %s", name, bi_strerror(-rc));
    t->status = 2;
    return 0;
  }
  if (excluded(t, name))
    return 0;
  if (t->arch_abs && strcmp(fs, t->arch_abs) == 0 && st.type == VFS_REG) {
    terr(t, "%s: file is the archive; not dumped", name);
    return 0;
  }
  const char *aname = name;
  if (!t->absolute) {
    size_t drop = 0;
    arc_name_check(name, &drop);
    while (name[drop] == '/')
      drop++;
    if (drop) {
      say_prefix(t, name, drop);
      aname = name + drop;
    }
  }
  if (!*aname)
    aname = ".";
  if (st.type == VFS_DIR && aname[strlen(aname) - 1] != '/')
    aname = fu_join(c, aname, "");
  if (!aname)
    return -1;
  struct archive_entry *e = archive_entry_new();
  if (!e)
    return -1;
  archive_entry_set_pathname(e, aname);
  archive_entry_set_perm(e, st.mode & 07777);
  archive_entry_set_mtime(e, st.mtime_ns / 1000000000, 0);
  archive_entry_set_uid(e, st.uid);
  archive_entry_set_gid(e, st.gid);
  if (!t->numeric) {
    archive_entry_set_uname(e, fu_user_name(c, st.uid));
    archive_entry_set_gname(e, fu_group_name(c, st.gid));
  }
  stream *in = NULL;
  if (st.type == VFS_DIR) {
    archive_entry_set_filetype(e, AE_IFDIR);
    archive_entry_set_size(e, 0);
  } else if (st.type == VFS_LNK) {
    char *target = NULL;
    size_t tl = 0;
    rc = vfs_readlink(c->vfs, "/", fs, &target, &tl);
    if (rc < 0) {
      archive_entry_free(e);
      terr(t, "%s: Cannot readlink: %s", name, bi_strerror(-rc));
      t->status = 2;
      return 0;
    }
    archive_entry_set_filetype(e, AE_IFLNK);
    archive_entry_set_symlink(e, target);
    archive_entry_set_size(e, 0);
    vfs_release(c->vfs, target);
  } else if (st.type == VFS_REG && st.nlink > 1 && seen_link(t, &st)) {
    /* another name of a file already written: a hard link to it */
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_hardlink(e, seen_link(t, &st));
    archive_entry_set_size(e, 0);
  } else if (st.type == VFS_REG) {
    int err = 0;
    if (st.nlink > 1)
      add_link(t, &st, aname);
    in = bi_open_read(c, fs, &err);
    if (!in) {
      archive_entry_free(e);
      terr(t, "%s: Cannot open: %s", name, bi_strerror(err));
      t->status = 2;
      return 0;
    }
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_size(e, (la_int64_t)st.size);
  } else {
    archive_entry_free(e);
    terr(t, "%s: socket ignored", name);
    return 0;
  }
  if (t->verbose) {
    if (t->verbose > 1)
      list_line(t, e, aname);
    else {
      wr_puts(&t->w, aname);
      wr_putc(&t->w, '\n');
    }
  }
  int r = 0;
  if (archive_write_header(w->a, e) < ARCHIVE_WARN) {
    terr(t, "%s",
         archive_error_string(w->a) ? archive_error_string(w->a)
                                    : "write error");
    r = -1;
  }
  archive_entry_free(e);
  if (in) {
    unsigned char *blk = r ? NULL : mem_alloc(c->m, 65536);
    uint64_t left = st.size;
    while (blk && left) {
      long k = stream_read(in, blk, 65536 < left ? 65536 : (size_t)left);
      if (k <= 0) {
        if (k < 0)
          r = -1;
        break;
      }
      if (archive_write_data(w->a, blk, (size_t)k) < 0) {
        r = -1;
        break;
      }
      left -= (uint64_t)k;
    }
    if (!blk && !r)
      r = -1;
    mem_free(c->m, blk);
    stream_unref(in);
  }
  if (r == 0 && st.type == VFS_DIR)
    r = add_dir(w, fs, aname);
  return r;
}

static int write_members(tar *t, wctx *w) {
  bi_ctx *c = t->c;
  for (int i = 0; i < t->nnames; i++) {
    const char *fs = fu_join(c, t->dir, t->names[i]);
    if (t->names[i][0] == '/')
      fs = t->names[i];
    if (!fs || add_path(w, fu_strip_slashes(c, fs), t->names[i]) < 0)
      return -1;
  }
  return 0;
}

static int create(tar *t) {
  bi_ctx *c = t->c;
  if (!t->nnames) {
    terr(t, "Cowardly refusing to create an empty archive");
    stream_puts(c->err,
                "Try 'tar --help' or 'tar --usage' for more information.\n");
    return 2;
  }
  stream *out;
  int err = 0;
  if (strcmp(t->file, "-") == 0) {
    out = stream_ref(c->out);
  } else {
    out = tu_open_write(c, t->file, 0, &err);
    if (!out) {
      terr(t, "%s: Cannot open: %s", t->file, bi_strerror(err));
      return fatal(t);
    }
    t->arch_abs = fu_canon(c, t->file, FU_CANON_LAST, &err);
  }
  struct archive *a = arc_writer(c);
  arc_io io;
  int rc = 0;
  if (!a || set_format(t, a) < 0 || arc_open_w(a, &io, c, out) != ARCHIVE_OK) {
    rc = -1;
  } else {
    wctx w = {t, a};
    rc = write_members(t, &w);
    if (archive_write_close(a) != ARCHIVE_OK)
      rc = -1;
  }
  if (a)
    archive_write_free(a);
  stream_unref(out);
  if (rc < 0 && !t->status) {
    if (fu_poll(c))
      return 1;
    t->status = 2;
  }
  return 0;
}

/* -r and -u: the members there, then the new ones, written back whole. */
static int append(tar *t) {
  bi_ctx *c = t->c;
  if (t->filter || (strcmp(t->file, "-") == 0)) {
    terr(t, "Cannot update compressed archives");
    return fatal(t);
  }
  buf old;
  buf_init(&old, c->m);
  int err = 0;
  stream *in = bi_open_read(c, t->file, &err);
  if (!in && err != ENOENT) {
    terr(t, "%s: Cannot open: %s", t->file, bi_strerror(err));
    return fatal(t);
  }
  buf nb;
  buf_init(&nb, c->m);
  stream *cap = stream_capture(c->m, c->bud, &nb, NULL, NULL, 1, 0);
  struct archive *w = arc_writer(c);
  arc_io wio, rio;
  memset(&rio, 0, sizeof rio);
  int rc = 0;
  if (!cap || !w || set_format(t, w) < 0 ||
      arc_open_w(w, &wio, c, cap) != ARCHIVE_OK)
    rc = -1;
  /* the newest mtime per member already in the archive (for -u) */
  char **onames = NULL;
  int64_t *otimes = NULL;
  size_t no = 0, capo = 0;
  if (rc == 0 && in) {
    struct archive *r = arc_reader(&rio, c, in, ARC_TAR);
    struct archive_entry *e;
    int h;
    while (r && (h = archive_read_next_header(r, &e)) == ARCHIVE_OK) {
      if (fu_poll(c)) {
        rc = -1;
        break;
      }
      if (archive_filter_code(r, 0) != ARCHIVE_FILTER_NONE) {
        terr(t, "Cannot update compressed archives");
        rc = -2;
        break;
      }
      if (archive_write_header(w, e) < ARCHIVE_WARN) {
        rc = -1;
        break;
      }
      const void *p;
      size_t k;
      la_int64_t off;
      while (archive_read_data_block(r, &p, &k, &off) == ARCHIVE_OK)
        if (k && archive_write_data(w, p, k) < 0) {
          rc = -1;
          break;
        }
      if (t->mode == 'u') {
        if (no == capo) {
          size_t nc = capo ? capo * 2 : 16;
          char **a1 = arena_alloc(c->scratch, nc * sizeof *a1);
          int64_t *a2 = arena_alloc(c->scratch, nc * sizeof *a2);
          if (!a1 || !a2) {
            rc = -1;
            break;
          }
          if (no) {
            memcpy(a1, onames, no * sizeof *a1);
            memcpy(a2, otimes, no * sizeof *a2);
          }
          onames = a1, otimes = a2, capo = nc;
        }
        onames[no] = arena_strdup(c->scratch, archive_entry_pathname(e));
        otimes[no++] = (int64_t)archive_entry_mtime(e);
      }
    }
    if (r && h < ARCHIVE_WARN && h != ARCHIVE_EOF && rc == 0) {
      terr(t, "This does not look like a tar archive");
      rc = -2;
    }
    if (r)
      archive_read_free(r);
    arc_io_free(&rio);
  }
  if (in)
    stream_unref(in);
  if (rc == 0) {
    wctx wc = {t, w};
    if (t->mode == 'u') {
      /* keep only names newer than their copy */
      int k = 0;
      for (int i = 0; i < t->nnames; i++) {
        fu_stat st;
        const char *fs = fu_join(c, t->dir, t->names[i]);
        int newer = 1;
        if (fs && vfs_stat(c->vfs, "/", fs, &st) == 0 && st.type != VFS_DIR)
          for (size_t j = 0; j < no; j++)
            if (onames[j] && strcmp(onames[j], t->names[i]) == 0 &&
                otimes[j] >= st.mtime_ns / 1000000000)
              newer = 0;
        if (newer)
          t->names[k++] = t->names[i];
      }
      t->nnames = k;
    }
    rc = write_members(t, &wc);
  }
  if (w) {
    if (archive_write_close(w) != ARCHIVE_OK && rc == 0)
      rc = -1;
    archive_write_free(w);
  }
  if (cap)
    stream_capture_finish(cap);
  if (rc == 0) {
    int e = vfs_write_file(c->vfs, c->cwd, t->file, nb.data ? nb.data : "",
                           nb.len, 0666);
    if (e < 0) {
      terr(t, "%s: Cannot write: %s", t->file, bi_strerror(-e));
      rc = -1;
    }
  }
  buf_free(&nb);
  buf_free(&old);
  if (rc == -2)
    return 2;
  if (rc < 0) {
    if (fu_poll(c))
      return 1;
    t->status = 2;
  }
  return 0;
}

/* ---- options ------------------------------------------------------------- */

/* The old syntax: "czf out.tgz dir" -> "-c -z -f out.tgz dir". */
static char **old_style(bi_ctx *c, int *argc, int *bad) {
  char **av = c->argv;
  const char *b = av[1];
  char **nv = arena_alloc(
      c->scratch, sizeof(char *) * (size_t)(2 * *argc + strlen(b) * 2 + 2));
  if (!nv)
    return NULL;
  int n = 0, next = 2;
  nv[n++] = av[0];
  for (const char *p = b; *p; p++) {
    char *o = arena_alloc(c->scratch, 3);
    if (!o)
      return NULL;
    o[0] = '-', o[1] = *p, o[2] = 0;
    nv[n++] = o;
    if (strchr("fCTXbH", *p)) {
      if (next >= *argc) {
        *bad = *p;
        return NULL;
      }
      nv[n++] = av[next++];
    }
  }
  for (int i = next; i < *argc; i++)
    nv[n++] = av[i];
  nv[n] = NULL;
  *argc = n;
  return nv;
}

static int tar_main(bi_ctx *c) {
  static const bi_opt opts[] = {{"create", 'c', BI_ARG_NONE},
                                {"extract", 'x', BI_ARG_NONE},
                                {"get", 'x', BI_ARG_NONE},
                                {"list", 't', BI_ARG_NONE},
                                {"append", 'r', BI_ARG_NONE},
                                {"update", 'u', BI_ARG_NONE},
                                {"gzip", 'z', BI_ARG_NONE},
                                {"gunzip", 'z', BI_ARG_NONE},
                                {"ungzip", 'z', BI_ARG_NONE},
                                {"bzip2", 'j', BI_ARG_NONE},
                                {"xz", 'J', BI_ARG_NONE},
                                {"zstd", O_ZSTD, BI_ARG_NONE},
                                {"file", 'f', BI_ARG_REQUIRED},
                                {"directory", 'C', BI_ARG_REQUIRED},
                                {"verbose", 'v', BI_ARG_NONE},
                                {"to-stdout", 'O', BI_ARG_NONE},
                                {"keep-old-files", 'k', BI_ARG_NONE},
                                {"preserve-permissions", 'p', BI_ARG_NONE},
                                {"same-permissions", 'p', BI_ARG_NONE},
                                {"touch", 'm', BI_ARG_NONE},
                                {"absolute-names", 'P', BI_ARG_NONE},
                                {"strip-components", O_STRIP, BI_ARG_REQUIRED},
                                {"exclude", O_EXCLUDE, BI_ARG_REQUIRED},
                                {"numeric-owner", O_NUMERIC, BI_ARG_NONE},
                                {"format", 'H', BI_ARG_REQUIRED},
                                {"overwrite", O_OVERWRITE, BI_ARG_NONE},
                                {"no-same-owner", O_NOSAME, BI_ARG_NONE},
                                BI_OPTS_END};
  tar t;
  memset(&t, 0, sizeof t);
  t.c = c;
  t.file = "-";
  t.ugswidth = 19;
  int argc = c->argc;
  char **argv = c->argv;
  if (argc > 1 && argv[1][0] != '-') {
    int bad = 0;
    char **nv = old_style(c, &argc, &bad);
    if (!nv) {
      if (bad) {
        stream_printf(c->err, "tar: Old option '%c' requires an argument.\n",
                      bad);
        stream_puts(c->err, "Try 'tar --help' or 'tar --usage' for more "
                            "information.\n");
      }
      return 2;
    }
    c->argc = argc;
    c->argv = nv;
  }
  t.excl = arena_alloc(c->scratch, sizeof(char *) * (size_t)(argc + 1));
  bi_getopt g;
  bi_getopt_init(&g, c, "cxtruzjJf:C:vOkpmPH:", opts);
  int o, status = -1;
  while (status < 0 &&
         (o = zf_getopt(&g,
                        "Try 'tar --help' or 'tar --usage' for more "
                        "information.\n",
                        "tar")) != -1) {
    switch (o) {
    case 'c':
    case 'x':
    case 't':
    case 'r':
    case 'u':
      if (t.mode && t.mode != o) {
        stream_puts(c->err, "tar: You may not specify more than one "
                            "'-Acdtrux', '--delete' or  '--test-label' "
                            "option\nTry 'tar --help' or 'tar --usage' for "
                            "more information.\n");
        status = 2;
      }
      t.mode = o;
      break;
    case 'z':
    case 'j':
    case 'J':
      t.filter = o;
      break;
    case O_ZSTD:
      t.filter = 'Z';
      break;
    case 'f':
      t.file = g.arg;
      break;
    case 'C':
      t.dir = g.arg;
      break;
    case 'v':
      t.verbose++;
      break;
    case 'O':
      t.to_stdout = 1;
      break;
    case 'k':
      t.keep_old = 1;
      break;
    case 'p':
      t.keep_perms = 1;
      break;
    case 'm':
      t.no_mtime = 1;
      break;
    case 'P':
      t.absolute = 1;
      break;
    case O_STRIP: {
      char *end;
      long v = strtol(g.arg, &end, 10);
      if (*end || v < 0 || end == g.arg) {
        stream_printf(c->err, "tar: %s: Invalid number of elements\n",
                      tquote(c, g.arg));
        stream_puts(c->err, "Try 'tar --help' or 'tar --usage' for more "
                            "information.\n");
        status = 2;
      }
      t.strip = (int)(v > 1000000 ? 1000000 : v);
      break;
    }
    case O_EXCLUDE:
      t.excl[t.nexcl++] = g.arg;
      break;
    case O_NUMERIC:
      t.numeric = 1;
      break;
    case 'H':
      t.format = g.arg;
      break;
    case O_OVERWRITE:
    case O_NOSAME:
      break;
    case BI_OPT_HELP:
      status = bi_print_help(c);
      break;
    case BI_OPT_VERSION:
      stream_puts(c->out, "tar (vsh) 1.34\n");
      status = 0;
      break;
    default:
      status = 64;
    }
  }
  if (status >= 0)
    return status;
  t.names = g.operands;
  t.nnames = g.noperands;
  t.found = arena_alloc(c->scratch, (size_t)t.nnames + 1);
  if (t.found)
    memset(t.found, 0, (size_t)t.nnames + 1);
  if (!t.mode) {
    stream_puts(c->err, "tar: You must specify one of the '-Acdtrux', "
                        "'--delete' or '--test-label' options\nTry 'tar "
                        "--help' or 'tar --usage' for more information.\n");
    return 2;
  }
  int err = 0;
  const char *dir = t.dir ? t.dir : ".";
  t.dir = fu_canon(c, dir, FU_CANON_EXISTING, &err);
  if (!t.dir) {
    stream_printf(c->err, "tar: %s: Cannot open: %s\n", dir, bi_strerror(err));
    stream_puts(c->err, "tar: Error is not recoverable: exiting now\n");
    return 2;
  }
  fu_stat dst;
  if (vfs_stat(c->vfs, "/", t.dir, &dst) == 0 && dst.type != VFS_DIR) {
    stream_printf(c->err, "tar: %s: Cannot open: %s\n", dir,
                  bi_strerror(ENOTDIR));
    stream_puts(c->err, "tar: Error is not recoverable: exiting now\n");
    return 2;
  }
  t.tz = bi_tz_open(c);
  wr_init(&t.w, t.file && strcmp(t.file, "-") == 0 && t.mode == 'c' ? c->err
                                                                    : c->out);
  int rc;
  switch (t.mode) {
  case 'c':
    rc = create(&t);
    break;
  case 'r':
  case 'u':
    rc = append(&t);
    break;
  default:
    rc = read_archive(&t);
    break;
  }
  wr_flush(&t.w);
  if (rc)
    return rc;
  if (t.status) {
    terr(&t, "Exiting with failure status due to previous errors");
    return 2;
  }
  return 0;
}

int bi_tar(bi_ctx *c) {
  int argc = c->argc;
  char **argv = c->argv;
  int rc = tar_main(c);
  c->argc = argc;
  c->argv = argv;
  return rc;
}
