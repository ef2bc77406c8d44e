/*
 * zfront.c - the file handling gzip, bzip2 and xz share (see zfront.h).
 *
 * Each trouble is an event that the tool words its own way, with its own
 * exit status: gzip and xz let an error (1) win over a warning (2), bzip2
 * keeps the highest status seen.
 */
#include "builtins/archive/zfront.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/tzutil.h"
#include "vfs/vfs.h"

enum ev {
  EV_OPEN,    /* name, errno */
  EV_DIR,     /* name is a directory */
  EV_HAS_SUF, /* compress: name already has the suffix */
  EV_UNKNOWN, /* decompress: no known suffix */
  EV_EXISTS,  /* the output exists */
  EV_WRITE,   /* writing the output failed (errno) */
  EV_NOMEM,
  EV_NOT_REG /* neither a file nor a directory */
};

typedef struct zf {
  bi_ctx *c;
  int kind;
  const char *prog;
  zf_opts *o;
  int status;
  uint64_t tot_in, tot_out; /* gzip -l totals */
  int nlisted;
  int longest; /* bzip2 -v: the longest operand, at least 7 */
} zf;

static void say(zf *z, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(zf *z, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf b;
  buf_init(&b, z->c->m);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  if (b.len)
    stream_write(z->c->err, b.data, b.len);
  buf_free(&b);
}

static void set_status(zf *z, int st) {
  if (z->kind == ZC_BZIP2) {
    if (st > z->status)
      z->status = st;
  } else if (st == 1 || z->status == 0) {
    z->status = st;
  }
}

static const char *strerr(int e) {
  return bi_strerror(e);
}

/* The plain events: file names, directories, suffixes, existing output. */
static void event(zf *z, int ev, const char *name, int err) {
  const char *p = z->prog;
  const char *suf = z->o->suffix;
  if (z->kind == ZC_GZIP) {
    switch (ev) {
    case EV_OPEN:
    case EV_WRITE:
      say(z, "%s: %s: %s\n", p, name, strerr(err));
      set_status(z, 1);
      break;
    case EV_DIR:
      if (!z->o->quiet)
        say(z, "%s: %s is a directory -- ignored\n", p, name);
      set_status(z, 2);
      break;
    case EV_NOT_REG:
      if (!z->o->quiet)
        say(z, "%s: %s is not a directory or a regular file - ignored\n", p,
            name);
      set_status(z, 2);
      break;
    case EV_HAS_SUF:
      if (!z->o->quiet && (z->o->verbose || !z->o->recursive))
        say(z, "%s: %s already has %s suffix -- unchanged\n", p, name, suf);
      break;
    case EV_UNKNOWN:
      if (!z->o->quiet && (z->o->verbose || !z->o->recursive))
        say(z, "%s: %s: unknown suffix -- ignored\n", p, name);
      if (!z->o->recursive)
        set_status(z, 2);
      break;
    case EV_EXISTS:
      if (!z->o->quiet)
        say(z, "%s: %s already exists;\tnot overwritten\n", p, name);
      set_status(z, 2);
      break;
    default:
      say(z, "%s: %s: %s\n", p, name, strerr(ENOMEM));
      set_status(z, 1);
    }
  } else if (z->kind == ZC_BZIP2) {
    switch (ev) {
    case EV_OPEN:
      say(z, "%s: Can't open input file %s: %s.\n", p, name, strerr(err));
      set_status(z, 1);
      break;
    case EV_WRITE:
      say(z, "%s: Can't create output file %s: %s.\n", p, name, strerr(err));
      set_status(z, 1);
      break;
    case EV_DIR:
      say(z, "%s: Input file %s is a directory.\n", p, name);
      set_status(z, 1);
      break;
    case EV_NOT_REG:
      say(z, "%s: Input file %s is not a normal file.\n", p, name);
      set_status(z, 1);
      break;
    case EV_HAS_SUF:
      say(z, "%s: Input file %s already has %s suffix.\n", p, name, suf);
      set_status(z, 1);
      break;
    case EV_UNKNOWN:
      say(z, "%s: Can't guess original name for %s -- using %s.out\n", p, name,
          name);
      break;
    case EV_EXISTS:
      say(z, "%s: Output file %s already exists.\n", p, name);
      set_status(z, 1);
      break;
    default:
      say(z, "\n%s: couldn't allocate enough memory\n", p);
      set_status(z, 1);
    }
  } else {
    switch (ev) {
    case EV_OPEN:
    case EV_WRITE:
      say(z, "%s: %s: %s\n", p, name, strerr(err));
      set_status(z, 1);
      break;
    case EV_DIR:
      say(z, "%s: %s: Is a directory, skipping\n", p, name);
      set_status(z, 2);
      break;
    case EV_NOT_REG:
      say(z, "%s: %s: Not a regular file, skipping\n", p, name);
      set_status(z, 2);
      break;
    case EV_HAS_SUF:
      say(z, "%s: %s: File already has `%s' suffix, skipping\n", p, name, suf);
      set_status(z, 2);
      break;
    case EV_UNKNOWN:
      say(z, "%s: %s: Filename has an unknown suffix, skipping\n", p, name);
      set_status(z, 2);
      break;
    case EV_EXISTS:
      say(z, "%s: %s: File exists\n", p, name);
      set_status(z, 1);
      break;
    default:
      say(z, "%s: %s: Cannot allocate memory\n", p, name);
      set_status(z, 1);
    }
  }
}

static const char bz_recover[] =
    "\nYou can use the `bzip2recover' program to attempt to recover\n"
    "data from undamaged sections of corrupted files.\n\n";

/* What a codec said about the input `name` (output `oname`). Returns 1 when
 * the output is to be kept (success or a warning), 0 when it failed. */
static int codec_result(zf *z, int rc, int err, const char *name,
                        const char *oname) {
  const char *p = z->prog;
  int t = z->o->test;
  if (rc == ZC_OK)
    return 1;
  if (rc == ZC_WRITE || rc == ZC_READ) {
    if (err == ECANCELED || err == EPIPE) {
      set_status(z, err == EPIPE ? 141 : 1);
      return 0;
    }
    event(z, EV_WRITE, rc == ZC_WRITE ? oname : name, err);
    return 0;
  }
  if (rc == ZC_NOMEM) {
    event(z, EV_NOMEM, name, ENOMEM);
    return 0;
  }
  if (z->kind == ZC_GZIP) {
    const char *what = rc == ZC_BADMAGIC  ? "not in gzip format"
                       : rc == ZC_TRUNC   ? "unexpected end of file"
                       : rc == ZC_CORRUPT ? "invalid compressed data--format "
                                            "violated"
                                          : "decompression OK, trailing "
                                            "garbage ignored";
    if (rc == ZC_TRAILING) {
      if (!z->o->quiet)
        say(z, "\n%s: %s: %s\n", p, name, what);
      set_status(z, 2);
      return 1;
    }
    say(z, "\n%s: %s: %s\n", p, name, what);
    set_status(z, 1);
    return 0;
  }
  if (z->kind == ZC_BZIP2) {
    switch (rc) {
    case ZC_TRAILING:
      if (!z->o->quiet)
        say(z, "%s: %s: trailing garbage after EOF ignored\n", p, name);
      return 1;
    case ZC_BADMAGIC:
      if (t)
        say(z, "%s: %s: bad magic number (file not created by bzip2)\n%s", p,
            name, bz_recover);
      else
        say(z, "%s: %s is not a bzip2 file.\n", p, name);
      break;
    case ZC_TRUNC:
      if (t)
        say(z, "%s: %s: file ends unexpectedly\n%s", p, name, bz_recover);
      else
        say(z,
            "\n%s: Compressed file ends unexpectedly;\n\tperhaps it is "
            "corrupted?  *Possible* reason follows.\n%s: Success\n\tInput "
            "file = %s, output file = %s\n\nIt is possible that the "
            "compressed file(s) have become corrupted.\nYou can use the -tvv "
            "option to test integrity of such files.\n%s",
            p, p, name, oname, bz_recover);
      break;
    default:
      if (t)
        say(z, "%s: %s: data integrity (CRC) error in data\n%s", p, name,
            bz_recover);
      else
        say(z,
            "\n%s: Data integrity error when decompressing.\n\tInput file = "
            "%s, output file = %s\n\nIt is possible that the compressed "
            "file(s) have become corrupted.\nYou can use the -tvv option to "
            "test integrity of such files.\n%s",
            p, name, oname, bz_recover);
    }
    set_status(z, 2);
    return 0;
  }
  const char *what = rc == ZC_BADMAGIC ? "File format not recognized"
                     : rc == ZC_TRUNC  ? "Unexpected end of input"
                                       : "Compressed data is corrupt";
  say(z, "%s: %s: %s\n", p, name, what);
  set_status(z, 1);
  return 0;
}

/* gzip's ratio: sign, then "%2ld.%1ld%%". */
static void ratio(char *out, size_t cap, int64_t num, int64_t den) {
  int64_t r;
  if (den == 0)
    r = 0;
  else if (den < 2147483)
    r = 1000 * num / den;
  else
    r = num / (den / 1000);
  char sign = ' ';
  if (r < 0) {
    sign = '-';
    r = -r;
  }
  snprintf(out, cap, "%c%2ld.%1ld%%", sign, (long)(r / 10), (long)(r % 10));
}

/* xz's sizes: bytes up to 10 KiB, then KiB and MiB with one decimal. */
static void nice_size(char *out, size_t cap, uint64_t v) {
  if (v < 10240)
    snprintf(out, cap, "%llu B", (unsigned long long)v);
  else if (v < 10485760)
    snprintf(out, cap, "%.1f KiB", (double)v / 1024);
  else
    snprintf(out, cap, "%.1f MiB", (double)v / 1048576);
}

/* ---- names --------------------------------------------------------------- */

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return b && a > b && strcmp(s + a - b, suf) == 0;
}

/* The decompressed name of `name`, or NULL when its suffix is unknown. */
static const char *plain_name(zf *z, const char *name) {
  bi_ctx *c = z->c;
  static const char *const gz[] = {".gz", "-gz", ".z", "-z", "_z", ".Z", NULL};
  static const char *const bz[] = {".bz2", ".bz", NULL};
  static const char *const xz[] = {".xz", ".lzma", NULL};
  const char *const *list = z->kind == ZC_GZIP    ? gz
                            : z->kind == ZC_BZIP2 ? bz
                                                  : xz;
  size_t n = strlen(name);
  const char *base = name + fu_base_span(name, &(size_t){0});
  if (ends_with(name, z->o->suffix) && strlen(base) > strlen(z->o->suffix))
    return arena_strndup(c->scratch, name, n - strlen(z->o->suffix));
  for (int i = 0; list[i]; i++)
    if (ends_with(name, list[i]) && strlen(base) > strlen(list[i]))
      return arena_strndup(c->scratch, name, n - strlen(list[i]));
  const char *tar = z->kind == ZC_GZIP    ? ".tgz"
                    : z->kind == ZC_BZIP2 ? ".tbz2"
                                          : ".txz";
  if (ends_with(name, tar) && strlen(base) > 4) {
    size_t k = n - strlen(tar);
    char *r = arena_alloc(c->scratch, k + 5);
    if (!r)
      return NULL;
    memcpy(r, name, k);
    memcpy(r + k, ".tar", 5);
    return r;
  }
  if (z->kind == ZC_BZIP2 && ends_with(name, ".tbz") && strlen(base) > 4) {
    size_t k = n - 4;
    char *r = arena_alloc(c->scratch, k + 5);
    if (!r)
      return NULL;
    memcpy(r, name, k);
    memcpy(r + k, ".tar", 5);
    return r;
  }
  return NULL;
}

static const char *cat2(bi_ctx *c, const char *a, const char *b) {
  size_t x = strlen(a), y = strlen(b);
  char *r = arena_alloc(c->scratch, x + y + 1);
  if (!r)
    return NULL;
  memcpy(r, a, x);
  memcpy(r + x, b, y + 1);
  return r;
}

/* ---- one input ----------------------------------------------------------- */

static stream *open_out(zf *z, const char *oname, int *err) {
  bi_ctx *c = z->c;
  vfs_file *f;
  int rc =
      vfs_open(c->vfs, c->cwd, oname, O_WRONLY | O_CREAT | O_EXCL, 0600, &f);
  if (rc < 0) {
    *err = -rc;
    return NULL;
  }
  stream *s = vfs_stream_new(c->m, c->bud, f, O_WRONLY);
  if (!s) {
    vfs_close(f);
    *err = ENOMEM;
  }
  return s;
}

/* The codec over src into out; gz header info for gzip. */
static int code(zf *z, zc_src *src, stream *out, zc_gzinfo *gi, zc_stats *st,
                int *err) {
  if (z->o->decompress || z->o->test || z->o->list)
    return zc_decompress(z->c, z->kind, src, out, gi, st, err);
  int level = z->o->level;
  if (level < 0)
    level = z->kind == ZC_GZIP ? 6 : z->kind == ZC_BZIP2 ? 9 : 6;
  return zc_compress(z->c, z->kind, level, src, out, gi, st, err);
}

static void list_header(zf *z) {
  if (z->nlisted++ == 0)
    stream_printf(z->c->out,
                  "%s         compressed        uncompressed  ratio "
                  "uncompressed_name\n",
                  z->o->verbose ? "method  crc     date  time  " : "");
}

/* gzip -l's row; with -v, method, CRC and the header's time first. */
static void list_row(zf *z, uint64_t comp, uint64_t plain, uint64_t overhead,
                     const zc_gzinfo *gi, const char *name) {
  char r[32];
  ratio(r, sizeof r, (int64_t)plain - (int64_t)(comp - overhead),
        (int64_t)plain);
  list_header(z);
  if (z->o->verbose) {
    tz_tm tm;
    tz_localtime(bi_tz_open(z->c), gi->mtime, 0, &tm);
    buf tb;
    buf_init(&tb, z->c->m);
    tz_format(&tb, "%b %e %H:%M", &tm, 0);
    stream_printf(z->c->out, "defla %08x %s ", (unsigned)gi->crc,
                  buf_cstr(&tb));
    buf_free(&tb);
  }
  stream_printf(z->c->out, "%19llu %19llu %s %s\n", (unsigned long long)comp,
                (unsigned long long)plain, r, name);
}

/* stdin to stdout. */
static void do_stdin(zf *z) {
  bi_ctx *c = z->c;
  zc_src src;
  zc_src_init(&src, c->in);
  const char *iname = z->kind == ZC_GZIP ? "stdin" : "(stdin)";
  const char *oname = z->kind == ZC_GZIP ? "stdout" : "(stdout)";
  if (z->o->list) {
    if (z->kind == ZC_GZIP) {
      say(z, "%s: %s: option --list not supported for standard input\n",
          z->prog, iname);
      set_status(z, 1);
    }
    return;
  }
  zc_gzinfo gi;
  memset(&gi, 0, sizeof gi);
  gi.xfl = 0;
  zc_stats st;
  int err = 0;
  stream *out = z->o->test ? NULL : c->out;
  int rc = code(z, &src, out, &gi, &st, &err);
  codec_result(z, rc, err, iname, oname);
}

static int one(zf *z, const char *name, int depth);

static void do_dir(zf *z, const char *name, int depth) {
  bi_ctx *c = z->c;
  if (depth > 64 || fu_poll(c))
    return;
  char **names = NULL;
  size_t n = 0;
  int rc = vfs_readdir(c->vfs, c->cwd, name, &names, &n);
  if (rc < 0) {
    event(z, EV_OPEN, name, -rc);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    const char *p = fu_join(c, name, names[i]);
    if (!p || one(z, p, depth + 1) < 0)
      break;
  }
  vfs_free_names(c->vfs, names, n);
}

/* The original name (NUL-ended, "" when none) and time in the header of
 * the gzip file path: 0, or -1 when it cannot be read. */
static int gz_peek(bi_ctx *c, const char *path, char name[256],
                   int64_t *mtime) {
  vfs_file *f;
  name[0] = 0;
  if (vfs_open(c->vfs, c->cwd, path, O_RDONLY, 0, &f) < 0)
    return -1;
  size_t cap = 10 + 2 + 65535 + 256;
  unsigned char *h = arena_alloc(c->scratch, cap);
  long n = h ? vfs_pread(f, h, cap, 0) : -1;
  vfs_close(f);
  if (n < 10 || h[0] != 0x1f || h[1] != 0x8b)
    return -1;
  *mtime = (int64_t)((uint32_t)h[4] | (uint32_t)h[5] << 8 |
                     (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24);
  size_t p = 10;
  if (h[3] & 4) {
    if ((size_t)n < p + 2)
      return -1;
    p += 2 + ((size_t)h[10] | (size_t)h[11] << 8);
  }
  if (h[3] & 8) {
    size_t k = 0;
    while (p < (size_t)n && h[p] && k + 1 < 256)
      name[k++] = (char)h[p++];
    name[k] = 0;
    if (p >= (size_t)n || h[p]) /* no end in sight: not used */
      name[0] = 0;
  }
  return 0; /* the caller keeps only the name's last component */
}

/* Returns -1 when the command must stop (a limit or a closed stdout). */
static int one(zf *z, const char *name, int depth) {
  bi_ctx *c = z->c;
  zf_opts *o = z->o;
  if (fu_poll(c))
    return -1;
  if (strcmp(name, "-") == 0) {
    do_stdin(z);
    return 0;
  }
  fu_stat st;
  int rc = vfs_lstat(c->vfs, c->cwd, name, &st);
  if (rc == 0 && st.type == VFS_LNK && !o->force) {
    /* As the tools do: gzip opens with O_NOFOLLOW, bzip2 wants a normal
     * file, xz follows only when the link itself is left alone. */
    if (z->kind == ZC_GZIP) {
      event(z, EV_OPEN, name, ELOOP);
      return 0;
    }
    if (z->kind == ZC_BZIP2) {
      event(z, EV_NOT_REG, name, 0);
      return 0;
    }
    if (!o->keep && !o->to_stdout && !o->test && !o->list) {
      say(z, "%s: %s: Is a symbolic link, skipping\n", z->prog, name);
      set_status(z, 2);
      return 0;
    }
  }
  if (rc == 0 && st.type == VFS_LNK)
    rc = vfs_stat(c->vfs, c->cwd, name, &st);
  if (rc == -ENOENT && z->kind == ZC_GZIP && (o->decompress || o->list) &&
      !plain_name(z, name)) {
    const char *alt = cat2(c, name, o->suffix);
    if (alt && vfs_stat(c->vfs, c->cwd, alt, &st) == 0)
      name = alt, rc = 0;
    else if (alt)
      name = alt;
  }
  if (rc < 0) {
    event(z, EV_OPEN, name, -rc);
    return 0;
  }
  if (st.type == VFS_DIR) {
    if (o->recursive && z->kind == ZC_GZIP)
      do_dir(z, name, depth);
    else
      event(z, EV_DIR, name, 0);
    return 0;
  }
  if (st.type != VFS_REG && st.type != VFS_CHR) {
    event(z, EV_NOT_REG, name, 0);
    return 0;
  }
  int dec = o->decompress || o->test || o->list;
  const char *oname = NULL;
  if (!dec) {
    if (ends_with(name, o->suffix) ||
        (z->kind == ZC_GZIP && ends_with(name, ".tgz"))) {
      event(z, EV_HAS_SUF, name, 0);
      return 0;
    }
    oname = cat2(c, name, o->suffix);
  } else {
    oname = plain_name(z, name);
  }
  int err = 0;
  stream *in = bi_open_read(c, name, &err);
  if (!in) {
    event(z, EV_OPEN, name, err);
    return 0;
  }
  zc_src src;
  zc_src_init(&src, in);
  if (dec && !oname && !o->to_stdout && !o->test && !o->list) {
    if (z->kind == ZC_XZ) {
      size_t k = zc_src_peek(&src, 6);
      if (!zc_magic(ZC_XZ, src.pre, k))
        codec_result(z, ZC_BADMAGIC, 0, name, "");
      else
        event(z, EV_UNKNOWN, name, 0);
      stream_unref(in);
      return 0;
    }
    event(z, EV_UNKNOWN, name, 0);
    if (z->kind != ZC_BZIP2) {
      stream_unref(in);
      return 0;
    }
    oname = cat2(c, name, ".out");
  }
  if (!oname)
    oname = name;
  int64_t hdr_mtime = 0;
  if (dec && z->kind == ZC_GZIP && o->name == 1 && !o->to_stdout && !o->test) {
    /* -N: the name and time the header keeps */
    char hn[256];
    if (gz_peek(c, name, hn, &hdr_mtime) == 0 && hn[0]) {
      size_t dl = fu_dir_len(oname);
      const char *base = fu_basename(c, hn);
      oname =
          dl ? fu_join(c, arena_strndup(c->scratch, oname, dl), base) : base;
      if (!oname)
        oname = name;
    }
  }
  zc_gzinfo gi;
  memset(&gi, 0, sizeof gi);
  if (!dec && z->kind == ZC_GZIP && o->name != 0) {
    const char *b = fu_basename(c, name);
    gi.mtime = st.mtime_ns / 1000000000;
    snprintf(gi.name, sizeof gi.name, "%s", b ? b : "");
  }
  zc_stats stt;
  stream *out = NULL;
  int to_file = !o->to_stdout && !o->test && !o->list;
  if (to_file) {
    if (dec) {
      /* Nothing is created for an input that is not in the format. */
      size_t k = zc_src_peek(&src, 6);
      if (src.err) {
        event(z, EV_OPEN, name, src.err);
        stream_unref(in);
        return 0;
      }
      if (!zc_magic(z->kind, src.pre, k)) {
        codec_result(z, z->kind == ZC_GZIP && k < 2 ? ZC_TRUNC : ZC_BADMAGIC, 0,
                     name, oname);
        stream_unref(in);
        return 0;
      }
    }
    fu_stat ost;
    if (vfs_lstat(c->vfs, c->cwd, oname, &ost) == 0) {
      if (!o->force) {
        event(z, EV_EXISTS, oname, 0);
        stream_unref(in);
        return 0;
      }
      vfs_unlink(c->vfs, c->cwd, oname);
    }
    out = open_out(z, oname, &err);
    if (!out) {
      event(z, EV_WRITE, oname, err);
      stream_unref(in);
      return 0;
    }
  } else if (!o->test && !o->list) {
    out = stream_ref(c->out);
  }
  rc = code(z, &src, out, &gi, &stt, &err);
  stream_unref(in);
  if (out)
    stream_unref(out);
  const char *shown_out = to_file ? oname : "(stdout)";
  int ok = codec_result(z, rc, err, name, shown_out);
  if (!ok) {
    if (to_file)
      vfs_unlink(c->vfs, c->cwd, oname);
    return err == ECANCELED || err == EPIPE ? -1 : 0;
  }
  if (o->list) {
    z->tot_in += stt.in;
    z->tot_out += stt.out;
    list_row(z, stt.in, stt.out, stt.overhead, &gi, oname);
    return 0;
  }
  if (to_file) {
    vfs_chmod(c->vfs, c->cwd, oname, st.mode & 07777);
    vfs_utimes(c->vfs, c->cwd, oname, st.atime_ns,
               hdr_mtime ? hdr_mtime * 1000000000 : st.mtime_ns, 0);
    if (!o->keep)
      vfs_unlink(c->vfs, c->cwd, name);
  }
  if (o->verbose && !o->quiet) {
    char r[32];
    if (dec)
      ratio(r, sizeof r, (int64_t)stt.out - (int64_t)(stt.in - stt.overhead),
            (int64_t)stt.out);
    else
      ratio(r, sizeof r, (int64_t)stt.in - (int64_t)(stt.out - stt.overhead),
            (int64_t)stt.in);
    if (z->kind == ZC_GZIP) {
      if (o->test)
        say(z, "%s:\t OK\n", name);
      else
        say(z, "%s:\t%s -- %s %s\n", name, r,
            to_file && o->keep ? "created" : "replaced with",
            to_file ? oname : "stdout");
    } else if (z->kind == ZC_BZIP2) {
      /* names padded to the longest operand, at least "(stdin)" */
      int pad = z->longest - (int)strlen(name);
      if (dec || o->test)
        say(z, "  %s: %*s%s\n", name, pad > 0 ? pad : 0, "",
            o->test ? "ok" : "done");
      else if (stt.in && stt.out)
        say(z,
            "  %s: %*s%6.3f:1, %6.3f bits/byte, %5.2f%% saved, %llu in, "
            "%llu out.\n",
            name, pad > 0 ? pad : 0, "", (double)stt.in / (double)stt.out,
            8.0 * (double)stt.out / (double)stt.in,
            100.0 * (1.0 - (double)stt.out / (double)stt.in),
            (unsigned long long)stt.in, (unsigned long long)stt.out);
      else
        say(z, "  %s: %*sno data compressed.\n", name, pad > 0 ? pad : 0, "");
    } else {
      uint64_t comp = dec ? stt.in : stt.out, plain = dec ? stt.out : stt.in;
      char a1[32], a2[32], rr[32];
      nice_size(a1, sizeof a1, comp);
      nice_size(a2, sizeof a2, plain);
      double q = plain ? (double)comp / (double)plain : 0;
      if (!plain)
        snprintf(rr, sizeof rr, "= ---");
      else if (q > 9.999)
        snprintf(rr, sizeof rr, "> 9.999");
      else
        snprintf(rr, sizeof rr, "= %.3f", q);
      say(z, "%s: %s / %s %s\n", name, a1, a2, rr);
    }
  }
  return 0;
}

int zf_run(bi_ctx *c, int kind, const char *prog, zf_opts *o, char **ops,
           int n) {
  zf z = {c, kind, prog, o, 0, 0, 0, 0, 7};
  for (int i = 0; i < n; i++)
    if ((int)strlen(ops[i]) > z.longest)
      z.longest = (int)strlen(ops[i]);
  if (n == 0) {
    do_stdin(&z);
  } else {
    for (int i = 0; i < n; i++)
      if (one(&z, ops[i], 0) < 0)
        break;
  }
  if (o->list && z.nlisted > 1) {
    char r[32];
    ratio(r, sizeof r, (int64_t)z.tot_out - (int64_t)z.tot_in,
          (int64_t)z.tot_out);
    stream_printf(c->out, "%19llu %19llu %s (totals)\n",
                  (unsigned long long)z.tot_in, (unsigned long long)z.tot_out,
                  r);
  }
  return z.status;
}

/* ---- options ------------------------------------------------------------- */

int zf_getopt(bi_getopt *g, const char *try_fmt, const char *prog) {
  bi_ctx *c = g->c;
  buf b;
  buf_init(&b, c->m);
  stream *cap = stream_capture(c->m, c->bud, &b, NULL, NULL, 2, 0);
  if (!cap)
    return bi_getopt_next(g);
  stream *keep = c->err;
  c->err = cap;
  int o = bi_getopt_next(g);
  c->err = keep;
  stream_capture_finish(cap);
  if (b.len) {
    /* Everything but the "Try" line, then the tool's own. */
    const char *s = buf_cstr(&b);
    const char *t = strstr(s, "Try '");
    size_t k = t ? (size_t)(t - s) : b.len;
    stream_write(c->err, s, k);
    if (try_fmt) {
      buf_clear(&b);
      buf_printf(&b, try_fmt, prog, prog);
      stream_write(c->err, b.data, b.len);
    }
  }
  buf_free(&b);
  return o;
}
