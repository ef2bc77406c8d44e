/*
 * unzip.c - Info-ZIP unzip 6.00's everyday use over libarchive: unzip
 * [-lopqn] ARCHIVE[.zip] [MEMBER...] [-d DIR]. Members land in the vfs
 * below DIR: leading "/" is dropped and "../" parts are skipped with
 * Info-ZIP's warning; symlinks that could lead out are made last.
 */
#include <errno.h>
#include <fnmatch.h>
#include <string.h>

#include "builtins/archive/arc.h"
#include "builtins/fileutil.h"
#include "builtins/tzutil.h"

const char bi_usage_unzip[] =
    "Usage: unzip [-lopqn] ARCHIVE[.zip] [MEMBER...] [-d DIR]";
const char bi_help_unzip[] =
    "Unpack the members of a zip ARCHIVE (all, or those matching MEMBER\n"
    "patterns) into the current directory or DIR.\n"
    "\n"
    "  -l      list the members with sizes and times instead\n"
    "  -p      write the members' content to standard output\n"
    "  -o      replace existing files without asking\n"
    "  -n      never replace existing files\n"
    "  -q      say less (-qq: nothing)\n"
    "  -d DIR  unpack into DIR (made when missing)\n"
    "  -h, --help     print this summary and quit\n"
    "  -v, --version  print the version line and quit\n";

typedef struct uz {
  bi_ctx *c;
  int list, pipe, over, never, quiet, status;
  const char *dir, *dir_shown;
  char **pats;
  int npats;
  char *matched;
  writer w;
  fu_asker ask;
  int all, none;
} uz;

static int wanted(uz *u, const char *name) {
  if (!u->npats)
    return 1;
  for (int i = 0; i < u->npats; i++)
    if (fnmatch(u->pats[i], name, 0) == 0) {
      u->matched[i] = 1;
      return 1;
    }
  return 0;
}

/* Info-ZIP: leading '/' dropped, "../" parts skipped with a warning. */
static const char *safe_name(uz *u, const char *name) {
  bi_ctx *c = u->c;
  buf b;
  buf_init(&b, c->m);
  int skipped = 0;
  const char *p = name;
  while (*p == '/')
    p++;
  while (*p) {
    const char *s = p;
    while (*p && *p != '/')
      p++;
    size_t n = (size_t)(p - s);
    if (n == 2 && s[0] == '.' && s[1] == '.')
      skipped = 1;
    else if (!(n == 1 && s[0] == '.') && n)
      buf_append(&b, s, n + (*p == '/'));
    while (*p == '/')
      p++;
  }
  if (skipped) {
    wr_flush(&u->w);
    stream_printf(c->err, "warning:  skipped \"../\" path component(s) in %s\n",
                  name);
    if (!u->status)
      u->status = 1;
  }
  const char *r = arena_strdup(c->scratch, buf_cstr(&b));
  buf_free(&b);
  return r;
}

static void list_row(uz *u, const tz_zone *z, struct archive_entry *e,
                     uint64_t *total) {
  tz_tm tm;
  tz_localtime(z, (int64_t)archive_entry_mtime(e), 0, &tm);
  buf tb;
  buf_init(&tb, u->c->m);
  tz_format(&tb, "%Y-%m-%d %H:%M", &tm, 0);
  uint64_t size =
      archive_entry_size_is_set(e) ? (uint64_t)archive_entry_size(e) : 0;
  if (arc_type(e) == VFS_LNK && archive_entry_symlink(e))
    size = strlen(archive_entry_symlink(e)); /* a link's data: its target */
  *total += size;
  wr_printf(&u->w, "%9llu  %s   %s\n", (unsigned long long)size, buf_cstr(&tb),
            archive_entry_pathname(e));
  buf_free(&tb);
}

/* May an existing path be replaced? Asks as Info-ZIP does. */
static int may_replace(uz *u, const char *shown) {
  if (u->over || u->all)
    return 1;
  if (u->never || u->none)
    return 0;
  bi_ctx *c = u->c;
  wr_flush(&u->w);
  stream_printf(c->err,
                "replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", shown);
  if (!u->ask.init) {
    rd_init(&u->ask.r, c->m, c->in);
    u->ask.init = 1;
  }
  const char *line;
  size_t len;
  if (rd_record(&u->ask.r, '\n', &line, &len) != 1) {
    stream_puts(c->err, " NULL\n(EOF or read error, treating as \"[N]one\" "
                        "...)\n");
    u->none = 1;
    if (!u->status)
      u->status = 1;
    return 0;
  }
  switch (len ? line[0] : 'n') {
  case 'y':
    return 1;
  case 'A':
    u->all = 1;
    return 1;
  case 'N':
    u->none = 1;
    return 0;
  default:
    return 0;
  }
}

static int run(uz *u, const char *arch, const char *shown) {
  bi_ctx *c = u->c;
  int err = 0;
  stream *s = bi_open_read(c, arch, &err);
  if (!s) {
    stream_printf(c->err, "unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n",
                  shown, shown, shown);
    return 9;
  }
  if (!u->pipe && u->quiet < 1)
    wr_printf(&u->w, "Archive:  %s\n", shown);
  arc_io io;
  struct archive *a = arc_reader(&io, c, s, ARC_ZIP);
  const tz_zone *z = bi_tz_open(c);
  arc_x x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.dir = u->dir;
  uint64_t total = 0;
  const char *lnk_name[64], *lnk_target[64];
  int nlinks = 0;
  int open_line = 0; /* an "inflating:" line waits for its end */
  unsigned long count = 0;
  int stop = 0, n = 0;
  if (u->list)
    wr_puts(&u->w, "  Length      Date    Time    Name\n"
                   "---------  ---------- -----   ----\n");
  for (;;) {
    struct archive_entry *e;
    if (!a || fu_poll(c)) {
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
      wr_flush(&u->w);
      if (n == 0) {
        stream_printf(
            c->err,
            "  End-of-central-directory signature not found.  Either this "
            "file is not\n  a zipfile, or it constitutes one disk of a "
            "multi-part archive.  In the\n  latter case the central directory "
            "and zipfile comment will be found on\n  the last disk(s) of this "
            "archive.\nunzip:  cannot find zipfile directory in one of %s "
            "or\n        %s.zip, and cannot find %s.ZIP, period.\n",
            shown, shown, shown);
        u->status = 9;
      } else {
        stream_printf(c->err, "error:  invalid compressed data to inflate\n");
        u->status = 2;
      }
      break;
    }
    n++;
    const char *name = archive_entry_pathname(e);
    if (!name || !wanted(u, name))
      continue;
    if (u->list) {
      list_row(u, z, e, &total);
      count++;
      continue;
    }
    if (u->pipe) {
      if (arc_type(e) != VFS_REG)
        continue;
      wr_flush(&u->w);
      const void *p;
      size_t k;
      la_int64_t off;
      int rr;
      while ((rr = archive_read_data_block(a, &p, &k, &off)) == ARCHIVE_OK)
        if (k && stream_write(c->out, p, k)) {
          stop = 1;
          break;
        }
      if (rr < ARCHIVE_WARN && !stop) {
        stream_printf(
            c->err, "  error:  invalid compressed data to inflate %s\n", name);
        u->status = 2;
      }
      if (stop)
        break;
      continue;
    }
    const char *rel = safe_name(u, name);
    if (!rel || !*rel)
      continue;
    const char *shown_path =
        !u->dir_shown ? rel : fu_join(c, u->dir_shown, rel);
    fu_stat st;
    const char *abs = fu_join(c, u->dir, rel);
    int type = arc_type(e);
    if (abs && type != VFS_DIR &&
        vfs_lstat(c->vfs, "/", fu_strip_slashes(c, abs), &st) == 0 &&
        !may_replace(u, shown_path))
      continue;
    int dir_there = type == VFS_DIR && abs &&
                    vfs_stat(c->vfs, "/", abs, &st) == 0 && st.type == VFS_DIR;
    if (u->quiet < 1 && !dir_there) {
      if (type == VFS_DIR)
        wr_printf(&u->w, "   creating: %s\n", shown_path);
      else if (type == VFS_LNK) {
        const char *tg =
            archive_entry_symlink(e) ? archive_entry_symlink(e) : "";
        wr_printf(&u->w, "    linking: %-22s  -> %s \n", shown_path, tg);
        if (nlinks < 64) {
          lnk_name[nlinks] = shown_path;
          lnk_target[nlinks++] = arena_strdup(c->scratch, tg);
        }
      } else {
        const char *fmt = archive_format_name(a);
        int stored = fmt && strstr(fmt, "uncompressed");
        /* the line ends once the member is out (or after its error) */
        wr_printf(&u->w, "%s: %-22s  ", stored ? " extracting" : "  inflating",
                  shown_path);
        open_line = 1;
      }
    }
    const char *what;
    x.keep_old = 0;
    err = arc_extract(&x, a, e, rel, &what);
    if (err == ECANCELED) {
      stop = 1;
      break;
    }
    if (err == EIO && open_line) {
      /* the data did not inflate: Info-ZIP's words, on the open line */
      wr_flush(&u->w);
      stream_puts(c->err, "\n  error:  invalid compressed data to inflate\n");
      u->status = 2;
    } else {
      if (open_line)
        wr_putc(&u->w, '\n');
      if (err) {
        wr_flush(&u->w);
        stream_printf(c->err, "error:  cannot create %s\n        %s\n",
                      shown_path, bi_strerror(err));
        u->status = u->status > 1 ? u->status : 1;
      }
    }
    open_line = 0;
  }
  if (!u->list && !u->pipe)
    arc_finish(&x, NULL, NULL);
  if (nlinks && u->quiet < 1) {
    wr_puts(&u->w, "finishing deferred symbolic links:\n");
    for (int i = 0; i < nlinks; i++)
      wr_printf(&u->w, "  %-22s -> %s\n", lnk_name[i],
                lnk_target[i] ? lnk_target[i] : "");
  }
  if (u->list)
    wr_printf(&u->w,
              "---------                     -------\n%9llu                "
              "     %lu file%s\n",
              (unsigned long long)total, count, count == 1 ? "" : "s");
  if (a)
    archive_read_free(a);
  arc_io_free(&io);
  stream_unref(s);
  if (stop)
    return 1;
  for (int i = 0; i < u->npats; i++)
    if (!u->matched[i]) {
      wr_flush(&u->w);
      if (!u->list)
        stream_printf(c->err, "caution: filename not matched:  %s\n",
                      u->pats[i]);
      u->status = 11;
    }
  return u->status;
}

int bi_unzip(bi_ctx *c) {
  uz u;
  memset(&u, 0, sizeof u);
  u.c = c;
  const char *arch = NULL;
  const char *dir = NULL;
  u.pats = arena_alloc(c->scratch, sizeof(char *) * (size_t)c->argc);
  u.matched = arena_alloc(c->scratch, (size_t)c->argc);
  if (!u.pats || !u.matched)
    return 1;
  memset(u.matched, 0, (size_t)c->argc);
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
      return bi_print_help(c);
    if (strcmp(a, "--version") == 0 || strcmp(a, "-v") == 0) {
      stream_puts(c->out, "unzip (vsh) 6.00\n");
      return 0;
    }
    if (a[0] == '-' && a[1]) {
      for (const char *p = a + 1; *p; p++) {
        switch (*p) {
        case 'l':
          u.list = 1;
          break;
        case 'p':
          u.pipe = 1;
          break;
        case 'o':
          u.over = 1;
          break;
        case 'n':
          u.never = 1;
          break;
        case 'q':
          u.quiet++;
          break;
        case 'd':
          if (p[1]) {
            dir = p + 1;
          } else if (i + 1 < c->argc) {
            dir = c->argv[++i];
          } else {
            stream_puts(c->err, "error:  must specify directory to which to "
                                "extract with -d option\n");
            return 10;
          }
          p += strlen(p) - 1; /* -d ends the cluster */
          break;
        default:
          stream_printf(c->err, "%s\n%s", bi_usage_unzip, "");
          return 10;
        }
      }
      continue;
    }
    if (!arch)
      arch = a;
    else
      u.pats[u.npats++] = c->argv[i];
  }
  if (!arch) {
    stream_printf(c->out, "%s\n", bi_usage_unzip);
    stream_puts(c->out, bi_help_unzip);
    return 0;
  }
  int err = 0;
  if (dir) {
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
      n--;
    u.dir_shown = arena_strndup(c->scratch, dir, n);
    if (!u.list && !u.pipe) {
      int rc = vfs_mkdir_p(c->vfs, c->cwd, dir, 0777);
      if (rc < 0) {
        stream_printf(c->err,
                      "checkdir:  cannot create extraction directory: %s\n"
                      "           %s\n",
                      u.dir_shown, bi_strerror(-rc));
        return 3;
      }
    }
  }
  u.dir = fu_canon(c, dir ? dir : ".", FU_CANON_MISSING, &err);
  if (!u.dir)
    return 3;
  /* ARCHIVE, else ARCHIVE.zip, else ARCHIVE.ZIP */
  const char *use = arch;
  fu_stat st;
  if (vfs_stat(c->vfs, c->cwd, arch, &st) < 0) {
    const char *cands[2] = {".zip", ".ZIP"};
    for (int k = 0; k < 2; k++) {
      size_t n = strlen(arch);
      char *t = arena_alloc(c->scratch, n + 5);
      if (!t)
        return 1;
      memcpy(t, arch, n);
      memcpy(t + n, cands[k], 5);
      if (vfs_stat(c->vfs, c->cwd, t, &st) == 0) {
        use = t;
        break;
      }
    }
  }
  wr_init(&u.w, c->out);
  int rc = run(&u, use, use);
  if (u.ask.init)
    fu_asker_free(c, &u.ask);
  return fu_out_end(&u.w, rc);
}
