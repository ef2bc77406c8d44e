/*
 * grep.c - grep, egrep, fgrep: options, patterns, operands, recursion over
 * the VFS and the exit status, as GNU grep 3.8.
 *
 * Exit status: 0 when a line was selected, 1 when none, 2 on an error
 * (usage, bad pattern, unreadable file) unless -q found a match first.
 * Messages: "grep: FILE: No such file or directory", "grep: d: Is a
 * directory" for a directory operand without -r, and GNU 3.8's
 * "grep: FILE: binary file matches" on stderr for a matching file holding
 * NUL bytes (or, in a UTF-8 locale, a line to print with invalid UTF-8).
 *
 * Recursion (-r, -R) visits directories in byte order of names (GNU follows
 * readdir order, which on a real disk is arbitrary). -r follows symlinks
 * only on the command line, -R everywhere (with a loop check). --include,
 * --exclude and --exclude-dir apply to base names during recursion and to
 * the whole operand (or any of its '/' suffixes) on the command line; the
 * last matching option decides, and a name no option matches is skipped
 * when the first option was an --include.
 */
#include <errno.h>
#include <string.h>

#include "builtins/search/grep/grep.h"
#include "builtins/textutil.h"
#include "core/pattern.h"
#include "vfs/vfs.h"

const char bi_usage_grep[] = "Usage: grep [OPTION]... PATTERNS [FILE]...";
const char bi_help_grep[] =
    "Print the lines of each FILE that match any of the PATTERNS (one pattern\n"
    "per line of the PATTERNS argument).\n"
    "For instance: grep -n 'TODO' notes.txt src/main.c\n"
    "\n"
    "Kinds of pattern and how they match:\n"
    "  -E, --extended-regexp     patterns use POSIX extended syntax (ERE)\n"
    "  -F, --fixed-strings       each pattern is literal text\n"
    "  -G, --basic-regexp        patterns use POSIX basic syntax (BRE; the\n"
    "                              default)\n"
    "  -P, --perl-regexp         each pattern is a Perl-style (PCRE2) "
    "expression\n"
    "  -e, --regexp=PATTERNS     take PATTERNS from this argument "
    "(repeatable)\n"
    "  -f, --file=FILE           read more patterns from FILE, one a line\n"
    "  -i, -y, --ignore-case     let uppercase and lowercase letters match "
    "each\n"
    "                              other\n"
    "      --no-ignore-case      letter case must agree (the default)\n"
    "  -w, --word-regexp         a match must form a complete word\n"
    "  -x, --line-regexp         a match must cover the complete line\n"
    "  -z, --null-data           input records end with a NUL byte instead of\n"
    "                              a newline\n"
    "\n"
    "General:\n"
    "  -s, --no-messages         stay quiet about missing or unreadable files\n"
    "  -v, --invert-match        pick the lines that do NOT match\n"
    "  -V, --version             print the version line and quit\n"
    "      --help                print this summary and quit\n"
    "\n"
    "What gets printed:\n"
    "  -m, --max-count=NUM       stop reading a file after NUM picked lines\n"
    "  -b, --byte-offset         start each line with its byte position\n"
    "  -n, --line-number         start each line with its line number\n"
    "      --line-buffered       write each output line out immediately\n"
    "  -H, --with-filename       start each line with the file's name\n"
    "  -h, --no-filename         leave the file name out\n"
    "      --label=LABEL         call standard input LABEL in the output\n"
    "  -o, --only-matching       print just the matched text, one per line\n"
    "  -q, --quiet, --silent     print nothing; exit 0 as soon as a line "
    "matches\n"
    "      --binary-files=TYPE   one of 'binary', 'text', 'without-match'\n"
    "  -a, --text                shorthand for --binary-files=text\n"
    "  -I                        shorthand for --binary-files=without-match\n"
    "  -d, --directories=ACTION  one of 'read', 'recurse', 'skip'\n"
    "  -D, --devices=ACTION      one of 'read', 'skip'\n"
    "  -r, --recursive           descend into directories\n"
    "  -R, --dereference-recursive  as -r, and follow every symbolic link\n"
    "      --include=GLOB        search a file only if its name fits GLOB\n"
    "      --exclude=GLOB        leave out files whose name fits GLOB\n"
    "      --exclude-from=FILE   leave out files fitting any GLOB listed in "
    "FILE\n"
    "      --exclude-dir=GLOB    do not descend into directories fitting GLOB\n"
    "  -L, --files-without-match  list the files in which no line is picked\n"
    "  -l, --files-with-matches  list the files in which some line is picked\n"
    "  -c, --count               instead of lines, print how many were picked\n"
    "                              in each file\n"
    "  -T, --initial-tab         put a TAB between the prefixes and the line\n"
    "  -Z, --null                follow each file name with a NUL byte\n"
    "\n"
    "Lines around each match:\n"
    "  -B, --before-context=NUM  also print NUM lines before each match\n"
    "  -A, --after-context=NUM   also print NUM lines after each match\n"
    "  -C, --context=NUM         also print NUM lines on each side of a match\n"
    "  -NUM                      shorthand for --context=NUM\n"
    "      --group-separator=SEP  put SEP between groups of context lines\n"
    "      --no-group-separator  put nothing between groups of context lines\n"
    "      --color[=WHEN], --colour[=WHEN]  mark matches in color; WHEN is\n"
    "                            one of 'always', 'never', 'auto'\n"
    "  -U, --binary              accepted (no CR handling is done)\n"
    "\n"
    "Without a FILE, grep searches '.' when recursive and standard input "
    "('-')\n"
    "otherwise. File names are shown when more than one FILE is searched.\n"
    "The exit status is 0 when some line was picked, 1 when none was, and 2\n"
    "after an error (unless -q already found a match).\n";
const char bi_usage_egrep[] = "Usage: egrep [OPTION]... PATTERNS [FILE]...";
const char bi_help_egrep[] = "Same as 'grep -E'; see 'grep --help'.\n";
const char bi_usage_fgrep[] = "Usage: fgrep [OPTION]... PATTERNS [FILE]...";
const char bi_help_fgrep[] = "Same as 'grep -F'; see 'grep --help'.\n";

enum {
  O_BINFILES = 0x100,
  O_COLOR,
  O_EXCLUDE,
  O_EXCLUDE_FROM,
  O_EXCLUDE_DIR,
  O_INCLUDE,
  O_GROUP_SEP,
  O_NO_GROUP_SEP,
  O_LABEL,
  O_LINE_BUF,
  O_NO_ICASE
};

static const bi_opt grep_opts[] = {
    {"after-context", 'A', BI_ARG_REQUIRED},
    {"before-context", 'B', BI_ARG_REQUIRED},
    {"binary-files", O_BINFILES, BI_ARG_REQUIRED},
    {"basic-regexp", 'G', BI_ARG_NONE},
    {"extended-regexp", 'E', BI_ARG_NONE},
    {"fixed-regexp", 'F', BI_ARG_NONE},
    {"fixed-strings", 'F', BI_ARG_NONE},
    {"perl-regexp", 'P', BI_ARG_NONE},
    {"color", O_COLOR, BI_ARG_OPTIONAL},
    {"colour", O_COLOR, BI_ARG_OPTIONAL},
    {"context", 'C', BI_ARG_REQUIRED},
    {"count", 'c', BI_ARG_NONE},
    {"devices", 'D', BI_ARG_REQUIRED},
    {"directories", 'd', BI_ARG_REQUIRED},
    {"dereference-recursive", 'R', BI_ARG_NONE},
    {"exclude", O_EXCLUDE, BI_ARG_REQUIRED},
    {"exclude-from", O_EXCLUDE_FROM, BI_ARG_REQUIRED},
    {"exclude-dir", O_EXCLUDE_DIR, BI_ARG_REQUIRED},
    {"file", 'f', BI_ARG_REQUIRED},
    {"files-with-matches", 'l', BI_ARG_NONE},
    {"files-without-match", 'L', BI_ARG_NONE},
    {"group-separator", O_GROUP_SEP, BI_ARG_REQUIRED},
    {"help", BI_OPT_HELP, BI_ARG_NONE},
    {"include", O_INCLUDE, BI_ARG_REQUIRED},
    {"ignore-case", 'i', BI_ARG_NONE},
    {"no-ignore-case", O_NO_ICASE, BI_ARG_NONE},
    {"initial-tab", 'T', BI_ARG_NONE},
    {"label", O_LABEL, BI_ARG_REQUIRED},
    {"line-buffered", O_LINE_BUF, BI_ARG_NONE},
    {"line-number", 'n', BI_ARG_NONE},
    {"line-regexp", 'x', BI_ARG_NONE},
    {"max-count", 'm', BI_ARG_REQUIRED},
    {"no-filename", 'h', BI_ARG_NONE},
    {"no-group-separator", O_NO_GROUP_SEP, BI_ARG_NONE},
    {"no-messages", 's', BI_ARG_NONE},
    {"null", 'Z', BI_ARG_NONE},
    {"null-data", 'z', BI_ARG_NONE},
    {"only-matching", 'o', BI_ARG_NONE},
    {"quiet", 'q', BI_ARG_NONE},
    {"recursive", 'r', BI_ARG_NONE},
    {"regexp", 'e', BI_ARG_REQUIRED},
    {"invert-match", 'v', BI_ARG_NONE},
    {"silent", 'q', BI_ARG_NONE},
    {"text", 'a', BI_ARG_NONE},
    {"binary", 'U', BI_ARG_NONE},
    {"unix-byte-offsets", 'u', BI_ARG_NONE},
    {"version", 'V', BI_ARG_NONE},
    {"with-filename", 'H', BI_ARG_NONE},
    {"word-regexp", 'w', BI_ARG_NONE},
    {NULL, 0, 0}};

enum { DIR_READ, DIR_RECURSE, DIR_SKIP };

typedef struct excl {
  const char *pat;
  int include;
} excl;

typedef struct run {
  gr g;
  int dirs, devskip, deref;
  excl *ex;
  size_t nex, cex;
  const char **exdir;
  size_t nexdir, cexdir;
  const char *label;
  uint64_t inos[256]; /* directories being walked (-R loop check) */
  int depth;
} run;

/* ---- helpers ------------------------------------------------------------ */

static int glob_match(const char *pat, const char *name) {
  return pat_match(pat, strlen(pat), name, strlen(name), 0);
}

/* On the command line a pattern may match the whole name or any part
 * after a '/'; during recursion it is matched against the base name. */
static int name_match(const char *pat, const char *name, int cmdline) {
  if (glob_match(pat, name))
    return 1;
  if (cmdline)
    for (const char *p = name; *p; p++)
      if (*p == '/' && p[1] && p[1] != '/' && glob_match(pat, p + 1))
        return 1;
  return 0;
}

static int file_excluded(run *r, const char *name, int cmdline) {
  if (!r->nex)
    return 0;
  for (size_t i = r->nex; i-- > 0;)
    if (name_match(r->ex[i].pat, name, cmdline))
      return !r->ex[i].include;
  return r->ex[0].include;
}

static int dir_excluded(run *r, const char *name, int cmdline) {
  for (size_t i = 0; i < r->nexdir; i++)
    if (name_match(r->exdir[i], name, cmdline))
      return 1;
  return 0;
}

static void file_error(run *r, const char *name, int err) {
  r->g.error = 1;
  if (r->g.nomsg || err == ECANCELED)
    return;
  gr_flush(&r->g);
  bi_error(r->g.c, "%s: %s", name, bi_strerror(err));
}

/* ---- reading a file ----------------------------------------------------- */

static int has_nul(const gr *g, const char *s, size_t n) {
  return g->binmode != GR_BIN_TEXT && g->eol == '\n' && n &&
         memchr(s, 0, n) != NULL;
}

static void file_init(gr_file *f, const char *name) {
  memset(f, 0, sizeof *f);
  f->name = name;
  f->last_out = UINT64_MAX;
  f->numw = 19; /* size unknown (a pipe): room for any number */
}

/* A stream without a zero-copy view (a pipe): read it in chunks, keeping a
 * window of complete lines plus what -B may still need. */
static void grep_chunks(run *r, gr_file *f, stream *s) {
  gr *g = &r->g;
  bi_ctx *c = g->c;
  buf b;
  buf_init(&b, c->m);
  size_t pos = 0;
  int eof = 0;
  while (!eof && !f->done && !g->stop) {
    if (buf_reserve(&b, 65536)) {
      file_error(r, f->name, ENOMEM);
      break;
    }
    size_t old = b.len;
    long k = wr_flush_read(&g->w, s, b.data + b.len, b.cap - b.len - 1);
    if (k < 0) {
      if (s->err == ECANCELED) {
        g->stop = 1;
        g->status = 2;
      } else {
        file_error(r, f->name, s->err);
      }
      break;
    }
    if (k == 0)
      eof = 1;
    b.len += (size_t)k;
    if (has_nul(g, b.data + old, b.len - old)) {
      if (g->binmode == GR_BIN_NOMATCH) {
        f->nsel = 0;
        f->done = 1;
        break;
      }
      f->binary = 1;
    }
    size_t lim = b.len;
    if (!eof) {
      const char *d = memrchr(b.data + old, g->eol, b.len - old);
      if (!d) {
        if (old > pos) { /* the delimiter may be earlier: keep reading */
          const char *d2 = memrchr(b.data + pos, g->eol, old - pos);
          if (!d2)
            continue;
          d = d2;
        } else {
          continue;
        }
      }
      lim = (size_t)(d - b.data) + 1;
    }
    if (gr_scan(g, f, b.data, lim, &pos) < 0 || f->done || eof)
      break;
    /* Drop what is no longer needed: everything before pos except the -B
     * lines that may still lead the next selected line. */
    size_t keep = pos;
    for (int64_t i = 0; i < g->before && keep > f->gap; i++) {
      const char *d = keep - 1 > f->gap
                          ? memrchr(b.data + f->gap, g->eol, keep - 1 - f->gap)
                          : NULL;
      keep = d ? (size_t)(d - b.data) + 1 : f->gap;
    }
    if (keep < 65536 && keep < b.len / 2)
      continue;
    if (g->lineno && f->ln_pos < keep) {
      size_t p = f->ln_pos;
      while (p < keep) {
        const char *d = memchr(b.data + p, g->eol, keep - p);
        if (!d)
          break;
        f->ln_no++;
        p = (size_t)(d - b.data) + 1;
      }
      f->ln_pos = keep;
    }
    memmove(b.data, b.data + keep, b.len - keep);
    b.len -= keep;
    pos -= keep;
    f->gap = f->gap > keep ? f->gap - keep : 0;
    f->ln_pos = f->ln_pos > keep ? f->ln_pos - keep : 0;
    f->base += keep;
  }
  buf_free(&b);
}

static void grep_stream(run *r, stream *s, const char *name) {
  gr *g = &r->g;
  gr_file f;
  file_init(&f, name);
  const char *data;
  size_t len;
  if (stream_take_all(s, &data, &len) == 0) {
    int skip = 0;
    /* GNU sizes -T's number columns after the file size. */
    f.numw = 1;
    for (size_t v = len; v >= 10; v /= 10)
      f.numw++;
    if (has_nul(g, data, len)) {
      if (g->binmode == GR_BIN_NOMATCH)
        skip = 1;
      else
        f.binary = 1;
    }
    size_t pos = 0;
    if (!skip)
      gr_scan(g, &f, data, len, &pos);
  } else if (s->err == ECANCELED) {
    g->stop = 1;
    g->status = 2;
    return;
  } else {
    grep_chunks(r, &f, s);
  }
  if (!g->stop || g->quiet)
    gr_finish_file(g, &f);
}

static void grep_file(run *r, const char *path) {
  int err = 0;
  stream *s = bi_open_read(r->g.c, path, &err);
  if (!s) {
    file_error(r, path, err);
    return;
  }
  grep_stream(r, s, path);
  stream_unref(s);
}

/* ---- recursion ---------------------------------------------------------- */

static char *join(mem *m, const char *dir, const char *name) {
  size_t dl = strlen(dir), nl = strlen(name);
  while (dl > 1 && dir[dl - 1] == '/')
    dl--;
  char *p = mem_alloc(m, dl + nl + 2);
  if (!p)
    return NULL;
  memcpy(p, dir, dl);
  size_t k = dl;
  if (!(dl == 1 && dir[0] == '/'))
    p[k++] = '/';
  memcpy(p + k, name, nl + 1);
  return p;
}

static void walk(run *r, const char *path, int omit_prefix, uint64_t ino) {
  gr *g = &r->g;
  bi_ctx *c = g->c;
  for (int i = 0; i < r->depth; i++)
    if (r->inos[i] == ino) {
      if (!g->nomsg) {
        gr_flush(g);
        bi_error(c, "%s: warning: recursive directory loop", path);
      }
      return;
    }
  if (r->depth >= (int)(sizeof r->inos / sizeof r->inos[0]))
    return;
  vfs_dir *d;
  int rc = vfs_opendir(c->vfs, c->cwd, path, &d);
  if (rc < 0) {
    file_error(r, path, -rc);
    return;
  }
  r->inos[r->depth++] = ino;
  vfs_dirent e;
  while (!g->stop && vfs_dir_next(d, &e) == 1) {
    char *child =
        omit_prefix ? mem_strdup(c->m, e.name) : join(c->m, path, e.name);
    if (!child) {
      file_error(r, path, ENOMEM);
      break;
    }
    char *base = mem_strdup(c->m, e.name);
    int type = e.type;
    vfs_stat_t st;
    memset(&st, 0, sizeof st);
    st.ino = e.ino;
    if (type == VFS_LNK) {
      if (!r->deref) {
        type = 0; /* -r: symlinks met while walking are not followed */
      } else {
        int src = vfs_stat(c->vfs, c->cwd, child, &st);
        if (src < 0) {
          file_error(r, child, -src);
          type = 0;
        } else {
          type = st.type;
        }
      }
    }
    if (base && type == VFS_DIR) {
      if (!dir_excluded(r, base, 0))
        walk(r, child, 0, st.ino);
    } else if (base && type == VFS_REG) {
      if (!file_excluded(r, base, 0))
        grep_file(r, child);
    }
    /* devices, FIFOs and sockets are skipped while recursing */
    mem_free(c->m, base);
    mem_free(c->m, child);
  }
  vfs_closedir(d);
  r->depth--;
}

static void grep_operand(run *r, const char *op, int implicit) {
  gr *g = &r->g;
  bi_ctx *c = g->c;
  if (strcmp(op, "-") == 0 && !implicit) {
    grep_stream(r, c->in, r->label ? r->label : "(standard input)");
    return;
  }
  vfs_stat_t st;
  int rc = c->vfs ? vfs_stat(c->vfs, c->cwd, op, &st) : -ENOENT;
  if (rc < 0) {
    file_error(r, op, -rc);
    return;
  }
  if (st.type == VFS_DIR) {
    if (r->dirs == DIR_SKIP)
      return;
    if (r->dirs == DIR_READ) {
      file_error(r, op, EISDIR);
      return;
    }
    if (!implicit && dir_excluded(r, op, 1))
      return;
    if (g->with_fname < 0)
      g->with_fname = 1;
    walk(r, op, implicit, st.ino);
    return;
  }
  if (st.type != VFS_REG && r->devskip)
    return;
  if (file_excluded(r, op, 1))
    return;
  grep_file(r, op);
}

/* ---- options ------------------------------------------------------------ */

typedef struct pats {
  gr_pat *v;
  size_t n, cap;
  buf *bufs; /* contents of -f files, kept until the end */
  size_t nbufs, cbufs;
} pats;

static int add_pat(bi_ctx *c, pats *p, const char *s, size_t n) {
  if (p->n == p->cap) {
    size_t nc = p->cap ? p->cap * 2 : 8;
    gr_pat *nv = mem_realloc(c->m, p->v, nc * sizeof *nv);
    if (!nv)
      return -1;
    p->v = nv;
    p->cap = nc;
  }
  p->v[p->n].s = s;
  p->v[p->n].n = n;
  p->n++;
  return 0;
}

/* A pattern operand or -e argument: one pattern per line. */
static int add_list(bi_ctx *c, pats *p, const char *s, size_t n) {
  for (;;) {
    const char *nl = memchr(s, '\n', n);
    size_t k = nl ? (size_t)(nl - s) : n;
    if (add_pat(c, p, s, k))
      return -1;
    if (!nl)
      return 0;
    s += k + 1;
    n -= k + 1;
  }
}

/* Whole content of a -f / --exclude-from file, kept in p->bufs. */
static int slurp(bi_ctx *c, pats *p, const char *path, const char **data,
                 size_t *len) {
  int err = 0;
  stream *s = bi_open_read(c, path, &err);
  if (!s) {
    bi_error(c, "%s: %s", path, bi_strerror(err));
    return -1;
  }
  if (p->nbufs == p->cbufs) {
    size_t nc = p->cbufs ? p->cbufs * 2 : 4;
    buf *nb = mem_realloc(c->m, p->bufs, nc * sizeof *nb);
    if (!nb) {
      stream_unref(s);
      return bi_error(c, "memory exhausted");
    }
    p->bufs = nb;
    p->cbufs = nc;
  }
  buf *b = &p->bufs[p->nbufs++];
  buf_init(b, c->m);
  const char *d;
  size_t n;
  int rc = tu_slurp(c, s, &d, &n, b, &err);
  if (rc == 0 && d != b->data) { /* a zero-copy view: copy it, the stream
                                    goes away */
    buf_append(b, d, n);
    d = b->data ? b->data : "";
  }
  stream_unref(s);
  if (rc < 0) {
    if (err != ECANCELED)
      bi_error(c, "%s: %s", path, bi_strerror(err));
    return -1;
  }
  *data = d;
  *len = n;
  return 0;
}

static int add_file_lines(bi_ctx *c, pats *p, const char *path) {
  const char *d;
  size_t n;
  if (slurp(c, p, path, &d, &n))
    return -1;
  if (n && d[n - 1] == '\n')
    n--; /* the last line's newline ends it; it does not start another */
  else if (n == 0)
    return 0;
  return add_list(c, p, d, n);
}

static int add_excl(run *r, const char *pat, int include) {
  if (r->nex == r->cex) {
    size_t nc = r->cex ? r->cex * 2 : 8;
    excl *nv = mem_realloc(r->g.c->m, r->ex, nc * sizeof *nv);
    if (!nv)
      return -1;
    r->ex = nv;
    r->cex = nc;
  }
  r->ex[r->nex].pat = pat;
  r->ex[r->nex].include = include;
  r->nex++;
  return 0;
}

static int add_exdir(run *r, char *pat) {
  size_t n = strlen(pat);
  while (n > 1 && pat[n - 1] == '/')
    pat[--n] = 0;
  if (r->nexdir == r->cexdir) {
    size_t nc = r->cexdir ? r->cexdir * 2 : 8;
    const char **nv = mem_realloc(r->g.c->m, r->exdir, nc * sizeof *nv);
    if (!nv)
      return -1;
    r->exdir = nv;
    r->cexdir = nc;
  }
  r->exdir[r->nexdir++] = pat;
  return 0;
}

/* A context length: a non-negative decimal number (huge values clamp). */
static int ctx_arg(bi_ctx *c, const char *s, int64_t *v) {
  const char *p = s;
  int64_t n = 0;
  if (!*p)
    goto bad;
  for (; *p; p++) {
    if (*p < '0' || *p > '9')
      goto bad;
    n = n > (INT64_MAX - 9) / 10 ? INT64_MAX : n * 10 + (*p - '0');
  }
  *v = n;
  return 0;
bad:
  bi_error(c, "%s: invalid context length argument", s);
  return -1;
}

static void usage_try(bi_ctx *c) {
  stream_printf(c->err, "%s\n", bi_usage_grep);
  bi_try_help(c);
}

static int bad_choice(bi_ctx *c, int utf8, const char *arg, const char *opt,
                      const char *const *valid) {
  const char *lq = utf8 ? "\xe2\x80\x98" : "'",
             *rq = utf8 ? "\xe2\x80\x99" : "'";
  bi_error(c, "invalid argument %s%s%s for %s--%s%s", lq, arg, rq, lq, opt, rq);
  stream_puts(c->err, "Valid arguments are:\n");
  for (int i = 0; valid[i]; i++)
    stream_printf(c->err, "  - %s%s%s\n", lq, valid[i], rq);
  usage_try(c);
  return 2;
}

static int version(bi_ctx *c) {
  stream_puts(c->out, "grep (GNU grep compatible; vsh) 3.8\n");
  return 0;
}

/* Error text of bi_getopt is captured, to put GNU's usage line before its
 * "Try ... --help" line. */
static void relay_opt_error(bi_ctx *c, stream *err, buf *cap) {
  const char *t = buf_cstr(cap);
  const char *try = strstr(t, "Try '");
  if (try) {
    stream_write(err, t, (size_t)(try - t));
    stream_printf(err, "%s\n", bi_usage_grep);
    stream_puts(err, try);
  } else {
    stream_puts(err, t);
  }
  (void)c;
}

static int grep_main(bi_ctx *c, int kind) {
  run *r = mem_calloc(c->m, 1, sizeof *r);
  if (!r) {
    bi_error(c, "memory exhausted");
    return 2;
  }
  gr *g = &r->g;
  g->c = c;
  g->after = g->before = -1;
  g->max_count = -1;
  g->with_fname = -1;
  g->eol = '\n';
  g->group_sep = "--";
  g->utf8 = tu_utf8_locale(c);
  int64_t ctx = -1;
  int matcher = -1, icase = 0, word = 0, line = 0, fname_opt = -1;
  int color = 0, status = 2, help = 0, have_e = 0;
  pats p;
  memset(&p, 0, sizeof p);

  buf errcap;
  buf_init(&errcap, c->m);
  stream *real_err = c->err;
  stream *cap = stream_capture(c->m, c->bud, &errcap, NULL, NULL, 2, 0);
  if (cap)
    c->err = cap;
  bi_getopt go;
  bi_getopt_init(&go, c,
                 "0123456789A:B:C:D:EFGHIPTUVX:abcd:e:f:hiLlm:noqRrsuvwxyZz",
                 grep_opts);
  int o, bad = 0, in_digits = 0;
  while (!bad && (o = bi_getopt_next(&go)) != -1) {
    switch (o) {
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      /* -NUM: the digits of one cluster form one number */
      ctx = in_digits && ctx <= (INT64_MAX - 9) / 10 ? ctx * 10 + (o - '0')
            : in_digits                              ? INT64_MAX
                                                     : o - '0';
      in_digits = go.next != NULL;
      continue;
    case 'A':
      if (ctx_arg(c, go.arg, &g->after))
        bad = 1;
      break;
    case 'B':
      if (ctx_arg(c, go.arg, &g->before))
        bad = 1;
      break;
    case 'C':
      if (ctx_arg(c, go.arg, &ctx))
        bad = 1;
      break;
    case 'D':
      if (strcmp(go.arg, "read") == 0)
        r->devskip = 0;
      else if (strcmp(go.arg, "skip") == 0)
        r->devskip = 1;
      else {
        static const char *const v[] = {"read", "skip", NULL};
        c->err = real_err;
        status = 1; /* GNU's argmatch failure status */
        bad_choice(c, g->utf8, go.arg, "devices", v);
        goto out;
      }
      break;
    case 'd':
      if (strcmp(go.arg, "read") == 0)
        r->dirs = DIR_READ;
      else if (strcmp(go.arg, "recurse") == 0)
        r->dirs = DIR_RECURSE;
      else if (strcmp(go.arg, "skip") == 0)
        r->dirs = DIR_SKIP;
      else {
        static const char *const v[] = {"read", "recurse", "skip", NULL};
        c->err = real_err;
        status = 1;
        bad_choice(c, g->utf8, go.arg, "directories", v);
        goto out;
      }
      break;
    case 'E':
    case 'F':
    case 'G':
    case 'P': {
      int k = o == 'E'   ? GR_ERE
              : o == 'F' ? GR_FIXED
              : o == 'G' ? GR_BRE
                         : GR_PCRE;
      if (matcher >= 0 && matcher != k) {
        bi_error(c, "conflicting matchers specified");
        bad = 2;
      }
      matcher = k;
      break;
    }
    case 'X': {
      static const char *const names[] = {"grep", "egrep", "fgrep", "perl"};
      static const int kinds[] = {GR_BRE, GR_ERE, GR_FIXED, GR_PCRE};
      int k = -1;
      for (int i = 0; i < 4; i++)
        if (strcmp(go.arg, names[i]) == 0)
          k = kinds[i];
      if (k < 0) {
        bi_error(c, "invalid matcher %s", go.arg);
        bad = 2;
      } else if (matcher >= 0 && matcher != k) {
        bi_error(c, "conflicting matchers specified");
        bad = 2;
      }
      matcher = k;
      break;
    }
    case 'H':
      fname_opt = 1;
      break;
    case 'h':
      fname_opt = 0;
      break;
    case 'I':
      g->binmode = GR_BIN_NOMATCH;
      break;
    case 'a':
      g->binmode = GR_BIN_TEXT;
      break;
    case O_BINFILES:
      if (strcmp(go.arg, "binary") == 0)
        g->binmode = GR_BIN_BINARY;
      else if (strcmp(go.arg, "text") == 0)
        g->binmode = GR_BIN_TEXT;
      else if (strcmp(go.arg, "without-match") == 0)
        g->binmode = GR_BIN_NOMATCH;
      else {
        bi_error(c, "unknown binary-files type");
        bad = 2;
      }
      break;
    case 'T':
      g->tabs = 1;
      break;
    case 'U':
    case O_LINE_BUF:
      if (o == O_LINE_BUF)
        g->line_buffered = 1;
      break;
    case 'u':
      bi_error(c, "warning: --unix-byte-offsets (-u) is obsolete");
      break;
    case 'V':
      help = 2;
      break;
    case BI_OPT_HELP:
      help = 1;
      break;
    case 'b':
      g->byteoff = 1;
      break;
    case 'c':
      g->count = 1;
      break;
    case 'e':
      have_e = 1;
      if (add_list(c, &p, go.arg, strlen(go.arg)))
        bad = 2;
      break;
    case 'f':
      have_e = 1;
      if (add_file_lines(c, &p, go.arg))
        bad = 2;
      break;
    case 'i':
    case 'y':
      icase = 1;
      break;
    case O_NO_ICASE:
      icase = 0;
      break;
    case 'L':
      g->list = 2;
      break;
    case 'l':
      g->list = 1;
      break;
    case 'm': {
      char *end;
      errno = 0;
      long long v = strtoll(go.arg, &end, 10);
      if (end == go.arg || *end) {
        bi_error(c, "invalid max count");
        bad = 2;
      } else {
        g->max_count = v < 0 ? -1 : (errno == ERANGE ? INT64_MAX : v);
      }
      break;
    }
    case 'n':
      g->lineno = 1;
      break;
    case 'o':
      g->only = 1;
      break;
    case 'q':
      g->quiet = 1;
      break;
    case 'R':
      r->deref = 1;
      r->dirs = DIR_RECURSE;
      break;
    case 'r':
      r->dirs = DIR_RECURSE;
      break;
    case 's':
      g->nomsg = 1;
      break;
    case 'v':
      g->invert = 1;
      break;
    case 'w':
      word = 1;
      break;
    case 'x':
      line = 1;
      break;
    case 'Z':
      g->nullname = 1;
      break;
    case 'z':
      g->eol = 0;
      break;
    case O_COLOR:
      if (!go.arg || !strcmp(go.arg, "auto") || !strcmp(go.arg, "tty") ||
          !strcmp(go.arg, "if-tty")) {
        const char *term = c->getenv ? c->getenv(c, "TERM") : NULL;
        color = (c->out->flags & STREAM_TTY) && term && strcmp(term, "dumb");
      } else if (!strcmp(go.arg, "always") || !strcmp(go.arg, "yes") ||
                 !strcmp(go.arg, "force")) {
        color = 1;
      } else if (!strcmp(go.arg, "never") || !strcmp(go.arg, "no") ||
                 !strcmp(go.arg, "none")) {
        color = 0;
      } else {
        help = 1; /* GNU shows the help (and exits 0) for a bad WHEN */
      }
      break;
    case O_EXCLUDE:
    case O_INCLUDE:
      if (add_excl(r, go.arg, o == O_INCLUDE))
        bad = 2;
      break;
    case O_EXCLUDE_FROM: {
      const char *d;
      size_t n;
      if (slurp(c, &p, go.arg, &d, &n)) {
        bad = 2;
        break;
      }
      /* the buffer is ours: cut it into NUL-terminated lines */
      char *w = (char *)d;
      for (size_t i = 0; i < n;) {
        char *nl = memchr(w + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - w) : n;
        if (nl)
          *nl = 0;
        if (e > i && add_excl(r, w + i, 0)) {
          bad = 2;
          break;
        }
        i = e + 1;
      }
      break;
    }
    case O_EXCLUDE_DIR:
      if (add_exdir(r, (char *)go.arg))
        bad = 2;
      break;
    case O_GROUP_SEP:
      g->group_sep = go.arg;
      break;
    case O_NO_GROUP_SEP:
      g->group_sep = NULL;
      break;
    case O_LABEL:
      r->label = go.arg;
      break;
    default:
      bad = 1;
      break;
    }
    in_digits = 0;
  }
  c->err = real_err;
  if (cap) {
    if (bad == 1 && errcap.len)
      relay_opt_error(c, real_err, &errcap);
    else if (errcap.len)
      stream_write(real_err, errcap.data, errcap.len);
    stream_unref(cap);
    cap = NULL;
  }
  if (bad)
    goto out;
  if (help == 1) {
    status = bi_print_help(c);
    goto out;
  }
  if (help == 2) {
    status = version(c);
    goto out;
  }
  int nop = go.noperands, first = 0;
  if (!have_e) {
    if (nop == 0) {
      usage_try(c);
      goto out;
    }
    if (add_list(c, &p, go.operands[0], strlen(go.operands[0])))
      goto out;
    first = 1;
  }
  if (g->after < 0)
    g->after = ctx;
  if (g->before < 0)
    g->before = ctx;
  if (matcher < 0)
    matcher = kind;
  g->color = color;
  if (g->max_count == 0) { /* GNU reads nothing */
    status = 1;
    goto out;
  }
  gr_cfg cfg = {matcher, icase, word, line, g->utf8, g->eol};
  if (gr_compile(c, &g->mt, p.v, p.n, &cfg) < 0)
    goto out;
  wr_init(&g->w, c->out);
  int nfiles = nop - first;
  g->with_fname = fname_opt >= 0 ? fname_opt : nfiles > 1 ? 1 : -1;
  if (nfiles == 0) {
    if (r->dirs == DIR_RECURSE)
      grep_operand(r, ".", 1);
    else
      grep_operand(r, "-", 0);
  }
  for (int i = first; i < nop && !g->stop; i++)
    grep_operand(r, go.operands[i], 0);
  if (!g->stop || g->quiet)
    gr_flush(g);
  if (g->stop && g->status)
    status = g->status;
  else if (g->quiet && g->matched)
    status = 0;
  else
    status = g->error ? 2 : g->matched ? 0 : 1;
  gr_matcher_free(&g->mt);
out:
  c->err = real_err;
  if (cap)
    stream_unref(cap);
  buf_free(&errcap);
  for (size_t i = 0; i < p.nbufs; i++)
    buf_free(&p.bufs[i]);
  mem_free(c->m, p.bufs);
  mem_free(c->m, p.v);
  mem_free(c->m, r->ex);
  mem_free(c->m, r->exdir);
  mem_free(c->m, r);
  return status;
}

/* egrep and fgrep are GNU's thin wrappers: messages say "grep". */
static int as_grep(bi_ctx *c, int kind) {
  char *a0 = c->argv[0];
  c->argv[0] = (char *)"grep";
  int st = grep_main(c, kind);
  c->argv[0] = a0;
  return st;
}

int bi_grep(bi_ctx *c) {
  return grep_main(c, GR_BRE);
}
int bi_egrep(bi_ctx *c) {
  return as_grep(c, GR_ERE);
}
int bi_fgrep(bi_ctx *c) {
  return as_grep(c, GR_FIXED);
}
