/*
 * file.c - file 5.44: name the type of each FILE.
 *
 * The real command reads libmagic's compiled database from host files; a
 * sandbox in the caller's process cannot, so the everyday types are
 * recognised by hand (magic.c, elf.c, text.c) and anything else is "data".
 * Problems with a file are part of the output ("cannot open `x' (...)"),
 * and the exit status stays 0, as file does.
 */
#include <errno.h>
#include <string.h>

#include "builtins/files/file/file.h"
#include "builtins/fileutil.h"
#include "builtins/textutil.h"
#include "core/utf8.h"

const char bi_usage_file[] = "Usage: file [OPTION...] [FILE...]";
const char bi_help_file[] =
    "Say what kind of data each FILE holds: empty, directory, symbolic link,\n"
    "a text (its encoding, line terminators, and whether it is a script,\n"
    "JSON, CSV, XML, HTML or C source), an image (PNG, GIF, JPEG, with its\n"
    "size), a PDF, compressed data (gzip, bzip2, xz), an archive (zip, tar),\n"
    "an ELF object; anything else is \"data\". The types are recognised by\n"
    "code built in here: no magic database is read from the host.\n"
    "\n"
    "  -b, --brief                leave the file names out\n"
    "  -f, --files-from=FILE      read the names to test from FILE, one a "
    "line\n"
    "  -F, --separator=STRING     put STRING after each name instead of ':'\n"
    "  -h, --no-dereference       describe symbolic links themselves (the\n"
    "                             default)\n"
    "  -i, --mime                 print MIME type and charset instead\n"
    "      --mime-type            print only the MIME type\n"
    "      --mime-encoding        print only the charset\n"
    "  -L, --dereference          follow symbolic links\n"
    "  -N, --no-pad               do not line the descriptions up\n"
    "  -v, --version              print the version line and quit\n"
    "      --help                 print this summary and quit\n";

static const char usage_text[] =
    "Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] "
    "[--mime-encoding]\n"
    "            [--mime-type] [-e <testname>] [-F <separator>]  [-f "
    "<namefile>]\n"
    "            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"
    "            <file> ...\n"
    "       file -C [-m <magicfiles>]\n"
    "       file [--help]\n";

enum { M_DESC, M_MIME, M_TYPE, M_ENC };
enum { OPT_MIME_TYPE = 0x100, OPT_MIME_ENC };

typedef struct fl_opts {
  int brief, mime, follow, nopad;
  int utf8; /* the locale's characters may be printed as they are */
  const char *sep;
} fl_opts;

/* The kind of the file named name; its description in d, *mime and
 * *charset set (charset NULL: none printed). 0, or an errno value that
 * ends the command (ECANCELED, ENOMEM). */
static int classify(bi_ctx *c, const fl_opts *o, const char *name, buf *d,
                    const char **mime, const char **charset) {
  *charset = "binary";
  int is_stdin = strcmp(name, "-") == 0;
  fu_stat st;
  memset(&st, 0, sizeof st);
  if (!is_stdin) {
    int rc = o->follow ? vfs_stat(c->vfs, c->cwd, name, &st)
                       : vfs_lstat(c->vfs, c->cwd, name, &st);
    if (rc < 0) {
      buf_printf(d, "cannot open `%s' (%s)", name, bi_strerror(-rc));
      *mime = NULL;
      return 0;
    }
    if (st.type == VFS_DIR) {
      buf_puts(d, "directory");
      *mime = "inode/directory";
      return 0;
    }
    if (st.type == VFS_LNK) {
      char *t = NULL;
      size_t tl = 0;
      fu_stat tst;
      int broken = vfs_stat(c->vfs, c->cwd, name, &tst) < 0;
      if (vfs_readlink(c->vfs, c->cwd, name, &t, &tl) < 0)
        return ENOMEM;
      buf_puts(d, broken ? "broken symbolic link to " : "symbolic link to ");
      buf_append(d, t, tl);
      vfs_release(c->vfs, t);
      *mime = "inode/symlink";
      if (broken)
        *charset = NULL;
      return 0;
    }
    if (st.type == VFS_CHR) {
      unsigned maj, min;
      fu_dev_numbers(&st, &maj, &min);
      buf_printf(d, "character special (%u/%u)", maj, min);
      *mime = "inode/chardevice";
      return 0;
    }
  }
  int err = 0;
  stream *s = bi_open_read(c, name, &err);
  if (!s) {
    buf_printf(d, "cannot open `%s' (%s)", name, bi_strerror(err));
    *mime = NULL;
    return 0;
  }
  const char *data;
  size_t len;
  buf copy;
  buf_init(&copy, c->m);
  if (tu_slurp(c, s, &data, &len, &copy, &err)) {
    stream_unref(s);
    buf_free(&copy);
    if (err == ECANCELED || err == ENOMEM)
      return err;
    buf_printf(d, "cannot read `%s' (%s)", name, bi_strerror(err));
    *mime = NULL;
    return 0;
  }
  fl_kind k = {d, "application/octet-stream", "binary"};
  const unsigned char *p = (const unsigned char *)data;
  size_t n = len;
  if (n > 7u << 20) /* file looks at the first 7 MiB */
    n = 7u << 20;
  if (len == 0) {
    buf_puts(d, "empty");
    k.mime = "inode/x-empty";
  } else if (len == 1) {
    buf_puts(d, "very short file (no magic)");
  } else if (!fl_magic(c, p, n, &k) && !fl_text(c, p, n, &k) &&
             !fl_script_binary(p, n, &k)) {
    buf_puts(d, "data");
    k.mime = "application/octet-stream";
    k.charset = "binary";
  }
  *mime = k.mime;
  *charset = k.charset;
  stream_unref(s);
  buf_free(&copy);
  return budget_poll(c->bud) ? ECANCELED : 0;
}

/* A name as file prints it: bytes that are not printable characters of
 * the locale (in the C locale, anything but printable ASCII) in octal. */
static void put_name(buf *b, const char *s, int utf8) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= 0x20 && ch < 0x7F) {
      buf_putc(b, ch);
      i++;
      continue;
    }
    int32_t cp = -1;
    size_t l = utf8 && ch >= 0x80 ? u8_next(s + i, n - i, &cp) : 1;
    if (cp >= 0 && u8_width(cp) >= 0) {
      buf_append(b, s + i, l);
    } else {
      for (size_t k = 0; k < l; k++)
        buf_printf(b, "\\%03o", (unsigned char)s[i + k]);
    }
    i += l;
  }
}

/* Its width: characters, as file lines the names up. */
static size_t name_width(bi_ctx *c, const char *s, int utf8) {
  buf b;
  buf_init(&b, c->m);
  put_name(&b, s, utf8);
  size_t n = utf8 ? u8_count(b.data ? b.data : "", b.len) : b.len;
  buf_free(&b);
  return n;
}

static int show(bi_ctx *c, const fl_opts *o, writer *w, const char *name,
                size_t width) {
  buf d;
  buf_init(&d, c->m);
  const char *mime = NULL, *charset = NULL;
  const char *shown = strcmp(name, "-") == 0 ? "/dev/stdin" : name;
  int err = classify(c, o, name, &d, &mime, &charset);
  if (!err && d.oom)
    err = ENOMEM;
  if (err) {
    buf_free(&d);
    return err;
  }
  if (!o->brief) {
    buf nb;
    buf_init(&nb, c->m);
    put_name(&nb, shown, o->utf8);
    wr_write(w, nb.data, nb.len);
    wr_puts(w, o->sep);
    size_t shown_w =
        o->utf8 ? u8_count(nb.data ? nb.data : "", nb.len) : nb.len;
    if (!o->nopad)
      for (size_t i = shown_w; i < width; i++)
        wr_putc(w, ' ');
    wr_putc(w, ' ');
    int oom = nb.oom;
    buf_free(&nb);
    if (oom) {
      buf_free(&d);
      return ENOMEM;
    }
  }
  if (o->mime == M_DESC || !mime) {
    /* what is not printable ASCII in a description is shown in octal */
    for (size_t i = 0; i < d.len; i++) {
      unsigned char ch = (unsigned char)d.data[i];
      if (ch < 0x20 || ch >= 0x7F)
        wr_printf(w, "\\%03o", ch);
      else
        wr_putc(w, ch);
    }
  } else if (o->mime == M_TYPE) {
    wr_puts(w, mime);
  } else if (o->mime == M_ENC) {
    wr_puts(w, charset ? charset : "binary");
  } else {
    wr_puts(w, mime);
    if (charset)
      wr_printf(w, "; charset=%s", charset);
  }
  wr_putc(w, '\n');
  buf_free(&d);
  return 0;
}

/* The names of -f FILE, one a line, in scratch memory. */
static int read_names(bi_ctx *c, const char *from, char ***names, int *count) {
  int err = 0;
  stream *s = bi_open_read(c, from, &err);
  if (!s) {
    bi_error(c, "Cannot open `%s' (%s)", from, bi_strerror(err));
    return 1;
  }
  const char *data;
  size_t len;
  buf copy;
  buf_init(&copy, c->m);
  if (tu_slurp(c, s, &data, &len, &copy, &err)) {
    stream_unref(s);
    buf_free(&copy);
    return 1;
  }
  int n = 0;
  for (size_t i = 0; i < len; i++)
    n += data[i] == '\n';
  char **v = arena_alloc(c->scratch, sizeof(char *) * ((size_t)n + 2));
  int k = 0;
  for (size_t i = 0; v && i < len;) {
    size_t e = i;
    while (e < len && data[e] != '\n')
      e++;
    if (e > i && !(v[k++] = arena_strndup(c->scratch, data + i, e - i))) {
      v = NULL;
      break;
    }
    i = e + 1;
  }
  stream_unref(s);
  buf_free(&copy);
  if (!v) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  *names = v;
  *count = k;
  return 0;
}

static void usage_hint(bi_ctx *c) {
  stream_puts(c->err, usage_text);
}

int bi_file(bi_ctx *c) {
  static const bi_opt opts[] = {{"brief", 'b', BI_ARG_NONE},
                                {"files-from", 'f', BI_ARG_REQUIRED},
                                {"separator", 'F', BI_ARG_REQUIRED},
                                {"no-dereference", 'h', BI_ARG_NONE},
                                {"mime", 'i', BI_ARG_NONE},
                                {"mime-type", OPT_MIME_TYPE, BI_ARG_NONE},
                                {"mime-encoding", OPT_MIME_ENC, BI_ARG_NONE},
                                {"dereference", 'L', BI_ARG_NONE},
                                {"no-pad", 'N', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", 'v', BI_ARG_NONE},
                                {NULL, 0, 0}};
  fl_opts o = {0, M_DESC, 0, 0, 0, ":"};
  const char *from = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "bf:F:hiLNv", opts);
  /* file follows its invalid-option line with the usage, not a hint */
  g.hint = usage_hint;
  int ch;
  while ((ch = bi_getopt_next(&g)) != -1 && ch != '?' && ch != BI_OPT_HELP &&
         ch != 'v') {
    switch (ch) {
    case 'b':
      o.brief = 1;
      break;
    case 'f':
      from = g.arg;
      break;
    case 'F':
      o.sep = g.arg;
      break;
    case 'h':
      o.follow = 0;
      break;
    case 'L':
      o.follow = 1;
      break;
    case 'i':
      o.mime = M_MIME;
      break;
    case OPT_MIME_TYPE:
      o.mime = M_TYPE;
      break;
    case OPT_MIME_ENC:
      o.mime = M_ENC;
      break;
    case 'N':
      o.nopad = 1;
      break;
    }
  }
  if (ch == '?')
    return 1;
  if (ch == BI_OPT_HELP)
    return bi_print_help(c);
  if (ch == 'v') {
    if (stream_puts(c->out, "file-5.44 (vsh: built-in types, no magic "
                            "file)\n") < 0)
      return bi_stream_status(c->out->err);
    return 0;
  }
  char **names = g.operands;
  int count = g.noperands;
  if (from) {
    if (read_names(c, from, &names, &count))
      return 1;
  } else if (count == 0) {
    stream_puts(c->err, usage_text);
    return 1;
  }
  o.utf8 = tu_utf8_locale(c);
  size_t width = 0;
  for (int i = 0; i < count; i++) {
    size_t l =
        strcmp(names[i], "-") == 0 ? 10 : name_width(c, names[i], o.utf8);
    if (l > width)
      width = l;
  }
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  for (int i = 0; i < count && !w.err; i++) {
    int e = show(c, &o, &w, names[i], width);
    if (e == ECANCELED) {
      status = 1;
      break;
    }
    if (e) {
      wr_flush(&w);
      bi_error(c, "%s", bi_strerror(e));
      status = 1;
      break;
    }
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
