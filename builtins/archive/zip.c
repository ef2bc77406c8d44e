/*
 * zip.c - Info-ZIP zip 3.0's everyday use over libarchive: zip [-rqyj0-9]
 * ARCHIVE FILE... Files are added (or updated, when the archive exists),
 * stored when deflating would not make them smaller, reported as Info-ZIP
 * does ("  adding: d/a (deflated 53%)").
 */
#include <errno.h>
#include <string.h>
#include <zlib.h>

#include "builtins/archive/arc.h"
#include "builtins/fileutil.h"

const char bi_usage_zip[] = "Usage: zip [-rqyj0-9] ARCHIVE[.zip] FILE...";
const char bi_help_zip[] =
    "Put FILEs into the zip ARCHIVE (made when missing; members of the same\n"
    "name are replaced).\n"
    "\n"
    "  -r   walk into directories\n"
    "  -q   say nothing\n"
    "  -y   store symbolic links as links, not what they point to\n"
    "  -j   keep only the file names, not their directories\n"
    "  -0   store only;  -1 .. -9  faster .. smaller (6 by default)\n"
    "  -h, --help     print this summary and quit\n"
    "  -v, --version  print the version line and quit\n";

typedef struct zp {
  bi_ctx *c;
  struct archive *a;
  int recurse, quiet, links, junk, level, status, depth, nadded;
  char **old; /* names already in the archive */
  size_t nold;
  writer w;
} zp;

static int pct(uint64_t n, uint64_t m) {
  if (n == 0)
    return 0;
  int64_t d = (int64_t)n - (int64_t)m;
  return (int)((d * 200 / (int64_t)n + (d >= 0 ? 1 : -1)) / 2);
}

static int had(zp *z, const char *name) {
  for (size_t i = 0; i < z->nold; i++)
    if (z->old[i] && strcmp(z->old[i], name) == 0)
      return 1;
  return 0;
}

/* The deflated size of data (for the stored/deflated choice and ratio). */
static void *zp_alloc(void *ud, unsigned items, unsigned size) {
  if (size && items > SIZE_MAX / size)
    return NULL;
  return mem_alloc(ud, (size_t)items * size);
}
static void zp_free(void *ud, void *p) {
  mem_free(ud, p);
}

static uint64_t deflated(zp *z, const void *data, size_t n) {
  z_stream s;
  memset(&s, 0, sizeof s);
  s.zalloc = zp_alloc;
  s.zfree = zp_free;
  s.opaque = z->c->m;
  if (deflateInit2(&s, z->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    return n + 1;
  unsigned char out[16384];
  uint64_t total = 0;
  s.next_in = (unsigned char *)(uintptr_t)data;
  s.avail_in = (uInt)n;
  int r;
  do {
    s.next_out = out;
    s.avail_out = sizeof out;
    r = deflate(&s, Z_FINISH);
    total += sizeof out - s.avail_out;
  } while (r == Z_OK && !fu_poll(z->c));
  deflateEnd(&s);
  return total;
}

static int add(zp *z, const char *path, int depth);

static int add_dir(zp *z, const char *path, int depth) {
  bi_ctx *c = z->c;
  char **names = NULL;
  size_t n = 0;
  int rc = vfs_readdir(c->vfs, c->cwd, path, &names, &n);
  if (rc < 0)
    return 0;
  int r = 0;
  for (size_t i = 0; i < n && r == 0; i++) {
    const char *p = fu_join(c, fu_strip_slashes(c, path), names[i]);
    r = p ? add(z, p, depth + 1) : -1;
  }
  vfs_free_names(c->vfs, names, n);
  return r;
}

static int add(zp *z, const char *path, int depth) {
  bi_ctx *c = z->c;
  if (fu_poll(c) || depth > 64)
    return -1;
  fu_stat st;
  int rc = z->links ? vfs_lstat(c->vfs, c->cwd, path, &st)
                    : vfs_stat(c->vfs, c->cwd, path, &st);
  if (rc < 0) {
    wr_flush(&z->w);
    stream_printf(c->err, "\tzip warning: name not matched: %s\n", path);
    return 0;
  }
  const char *name = path;
  while (name[0] == '/')
    name++;
  while (name[0] == '.' && name[1] == '/')
    name += 2;
  if (z->junk)
    name = fu_basename(c, path);
  if (st.type == VFS_DIR) {
    if (z->junk) {
      return z->recurse ? add_dir(z, path, depth) : 0;
    }
    name = fu_join(c, fu_strip_slashes(c, name), "");
  }
  if (!name)
    return -1;
  struct archive_entry *e = archive_entry_new();
  if (!e)
    return -1;
  archive_entry_set_pathname(e, name);
  archive_entry_set_perm(e, st.mode & 07777);
  archive_entry_set_mtime(e, st.mtime_ns / 1000000000, 0);
  archive_entry_set_uid(e, st.uid);
  archive_entry_set_gid(e, st.gid);
  const char *data = NULL;
  char *owned = NULL;
  size_t len = 0;
  if (st.type == VFS_DIR) {
    archive_entry_set_filetype(e, AE_IFDIR);
  } else if (st.type == VFS_LNK) {
    rc = vfs_readlink(c->vfs, c->cwd, path, &owned, &len);
    archive_entry_set_filetype(e, AE_IFLNK);
    archive_entry_set_symlink(e, owned ? owned : "");
    data = NULL, len = 0;
  } else {
    rc = vfs_read_file(c->vfs, c->cwd, path, &owned, &len);
    if (rc < 0) {
      archive_entry_free(e);
      wr_flush(&z->w);
      stream_printf(c->err, "\tzip warning: could not open for reading: %s\n",
                    path);
      z->status = 18;
      return 0;
    }
    data = owned;
    archive_entry_set_filetype(e, AE_IFREG);
  }
  archive_entry_set_size(e, (la_int64_t)len);
  uint64_t dsize = len && z->level ? deflated(z, data, len) : len + 1;
  int store = dsize >= len;
  if (store)
    archive_write_zip_set_compression_store(z->a);
  else
    archive_write_zip_set_compression_deflate(z->a);
  if (!z->quiet) {
    const char *verb = had(z, name) ? "updating" : "  adding";
    if (store)
      wr_printf(&z->w, "%s: %s (stored 0%%)\n", verb, name);
    else
      wr_printf(&z->w, "%s: %s (deflated %d%%)\n", verb, name, pct(len, dsize));
  }
  int r = 0;
  z->nadded++;
  if (archive_write_header(z->a, e) < ARCHIVE_WARN ||
      (len && archive_write_data(z->a, data, len) < 0))
    r = -1;
  archive_entry_free(e);
  if (owned)
    vfs_release(c->vfs, owned);
  if (r == 0 && st.type == VFS_DIR && z->recurse)
    r = add_dir(z, path, depth);
  return r;
}

/* Names of the members of an existing archive (NULL-terminated list in
 * scratch memory), or *n = 0. */
static void old_names(zp *z, const char *arch) {
  bi_ctx *c = z->c;
  int err;
  stream *s = bi_open_read(c, arch, &err);
  if (!s)
    return;
  arc_io io;
  struct archive *a = arc_reader(&io, c, s, ARC_ZIP);
  size_t cap = 0;
  struct archive_entry *e;
  while (a && archive_read_next_header(a, &e) == ARCHIVE_OK && !fu_poll(c)) {
    if (z->nold == cap) {
      size_t nc = cap ? cap * 2 : 16;
      char **o = arena_alloc(c->scratch, nc * sizeof *o);
      if (!o)
        break;
      if (z->nold)
        memcpy(o, z->old, z->nold * sizeof *o);
      z->old = o, cap = nc;
    }
    z->old[z->nold++] = arena_strdup(c->scratch, archive_entry_pathname(e));
  }
  if (a)
    archive_read_free(a);
  arc_io_free(&io);
  stream_unref(s);
}

/* Copies the members of the old archive that were not written again. */
static int copy_old(zp *z, const char *arch, char **done, size_t ndone) {
  bi_ctx *c = z->c;
  int err;
  stream *s = bi_open_read(c, arch, &err);
  if (!s)
    return 0;
  arc_io io;
  struct archive *a = arc_reader(&io, c, s, ARC_ZIP);
  struct archive_entry *e;
  int r = 0;
  while (a && r == 0 && archive_read_next_header(a, &e) == ARCHIVE_OK) {
    if (fu_poll(c)) {
      r = -1;
      break;
    }
    const char *n = archive_entry_pathname(e);
    int skip = 0;
    for (size_t i = 0; i < ndone && !skip; i++)
      skip = done[i] && n && strcmp(done[i], n) == 0;
    if (skip)
      continue;
    archive_write_zip_set_compression_deflate(z->a);
    if (archive_write_header(z->a, e) < ARCHIVE_WARN) {
      r = -1;
      break;
    }
    const void *p;
    size_t k;
    la_int64_t off;
    while (archive_read_data_block(a, &p, &k, &off) == ARCHIVE_OK)
      if (k && archive_write_data(z->a, p, k) < 0) {
        r = -1;
        break;
      }
  }
  if (a)
    archive_read_free(a);
  arc_io_free(&io);
  stream_unref(s);
  return r;
}

int bi_zip(bi_ctx *c) {
  zp z;
  memset(&z, 0, sizeof z);
  z.c = c;
  z.level = 6;
  char **ops = arena_alloc(c->scratch, sizeof(char *) * (size_t)c->argc);
  int nops = 0;
  if (!ops)
    return 1;
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
      return bi_print_help(c);
    if (strcmp(a, "--version") == 0 || strcmp(a, "-v") == 0) {
      stream_puts(c->out, "zip (vsh) 3.0\n");
      return 0;
    }
    if (a[0] == '-' && a[1]) {
      for (const char *p = a + 1; *p; p++) {
        if (*p == 'r')
          z.recurse = 1;
        else if (*p == 'q')
          z.quiet = 1;
        else if (*p == 'y')
          z.links = 1;
        else if (*p == 'j')
          z.junk = 1;
        else if (*p >= '0' && *p <= '9')
          z.level = *p - '0';
        else {
          stream_printf(c->out,
                        "\nzip error: Invalid command arguments (short "
                        "option '%c' not supported)\n",
                        *p);
          return 16;
        }
      }
      continue;
    }
    ops[nops++] = c->argv[i];
  }
  if (nops == 0) {
    stream_puts(c->err, bi_usage_zip);
    stream_puts(c->err, "\n");
    return 16;
  }
  const char *arch = ops[0];
  const char *base = fu_basename(c, arch);
  if (base && !strchr(base, '.')) {
    size_t n = strlen(arch);
    char *a2 = arena_alloc(c->scratch, n + 5);
    if (!a2)
      return 1;
    memcpy(a2, arch, n);
    memcpy(a2 + n, ".zip", 5);
    arch = a2;
  }
  if (nops == 1) {
    stream_printf(c->out, "\nzip error: Nothing to do! (%s)\n", arch);
    return 12;
  }
  old_names(&z, arch);
  wr_init(&z.w, c->out);
  buf nb;
  buf_init(&nb, c->m);
  stream *cap = stream_capture(c->m, c->bud, &nb, NULL, NULL, 1, 0);
  z.a = archive_write_new();
  arc_io io;
  int r = -1;
  if (z.a)
    archive_write_set_bytes_in_last_block(z.a, 1);
  if (cap && z.a && archive_write_set_format_zip(z.a) == ARCHIVE_OK &&
      arc_open_w(z.a, &io, c, cap) == ARCHIVE_OK) {
    r = 0;
    for (int i = 1; i < nops && r == 0; i++)
      r = add(&z, ops[i], 0);
    if (r == 0 && z.nold) {
      /* the members written now, to leave out of the copy */
      char **done = arena_alloc(c->scratch, sizeof(char *) * (z.nold + 1));
      size_t nd = 0;
      /* every old name that was re-added is skipped; recompute by name */
      for (size_t i = 0; done && i < z.nold; i++) {
        const char *n = z.old[i];
        for (int j = 1; j < nops && n; j++) {
          const char *op = ops[j];
          while (op[0] == '/')
            op++;
          size_t k = strlen(op);
          while (k > 1 && op[k - 1] == '/')
            k--;
          if (strncmp(n, op, k) == 0 &&
              (n[k] == 0 || n[k] == '/' || (z.junk && 0))) {
            fu_stat st;
            if (vfs_lstat(c->vfs, c->cwd, ops[j], &st) == 0 &&
                (n[k] == 0 || z.recurse || n[k + 1] == 0)) {
              done[nd++] = (char *)n;
              break;
            }
          }
        }
      }
      r = copy_old(&z, arch, done, nd);
    }
    if (archive_write_close(z.a) != ARCHIVE_OK && r == 0)
      r = -1;
  }
  if (z.a)
    archive_write_free(z.a);
  if (cap)
    stream_capture_finish(cap);
  int st = fu_out_end(&z.w, 0);
  if (r == 0 && z.nadded == 0) {
    buf_free(&nb);
    stream_printf(c->out, "\nzip error: Nothing to do! (%s)\n", arch);
    return 12;
  }
  if (r == 0) {
    int e = vfs_write_file(c->vfs, c->cwd, arch, nb.data ? nb.data : "", nb.len,
                           0666);
    if (e < 0) {
      stream_printf(c->out, "\nzip I/O error: %s\n", bi_strerror(-e));
      r = -1;
    }
  }
  buf_free(&nb);
  if (r < 0)
    return fu_poll(c) ? 1 : 15;
  if (st)
    return st;
  return z.status;
}
