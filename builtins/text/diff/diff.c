/*
 * diff.c - GNU diff: compare files line by line, or directories.
 *
 * Options, operands and the walk over directories live here; the
 * comparison is in analyze.c and the printing in output.c. Exit status:
 * 0 no differences, 1 differences, 2 trouble.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/text/diff/diff.h"
#include "builtins/textutil.h"
#include "core/pattern.h"
#include "vfs/vfs.h"

const char bi_usage_diff[] = "Usage: diff [OPTION]... FILES";
const char bi_help_diff[] =
    "Compare FILES line by line.\n"
    "\n"
    "FILES are 'FILE1 FILE2', 'DIR1 DIR2', 'DIR FILE' or 'FILE DIR'; a FILE\n"
    "may be - for standard input. Exit status: 0 when the inputs are the "
    "same,\n"
    "1 when they differ, 2 on trouble.\n"
    "\n"
    "Output:\n"
    "      --normal                  the plain format (the default)\n"
    "  -q, --brief                   only say whether files differ\n"
    "  -s, --report-identical-files  also say when two files are the same\n"
    "  -c, -C NUM, --context[=NUM]   context format, NUM lines (3) around\n"
    "  -u, -U NUM, --unified[=NUM]   unified format, NUM lines (3) around\n"
    "  -y, --side-by-side            two columns\n"
    "  -e, --ed                      an ed script that makes FILE2 of FILE1\n"
    "  -W, --width=NUM               at most NUM columns (130) with -y\n"
    "      --left-column             with -y, common lines only on the left\n"
    "      --suppress-common-lines   with -y, leave out common lines\n"
    "  -p, --show-c-function         name the function each hunk is in\n"
    "  -F, --show-function-line=RE   the same, with the last line above\n"
    "                                  that matches RE\n"
    "      --label LABEL             LABEL instead of the file name and time\n"
    "                                  (once per file)\n"
    "  -t, --expand-tabs             write tabs as spaces\n"
    "      --color[=WHEN]            only 'never' is offered here\n"
    "\n"
    "Comparison:\n"
    "  -i, --ignore-case             upper and lower case are the same\n"
    "  -E, --ignore-tab-expansion    tabs are the same as the spaces they "
    "make\n"
    "  -Z, --ignore-trailing-space   white space at line end does not count\n"
    "  -b, --ignore-space-change     any run of white space equals any other\n"
    "  -w, --ignore-all-space        white space does not count at all\n"
    "  -B, --ignore-blank-lines      changes made only of blank lines do not\n"
    "                                  count\n"
    "  -I, --ignore-matching-lines=RE  changes whose lines all match RE do\n"
    "                                  not count\n"
    "  -a, --text                    compare every file as text\n"
    "  -d, --minimal                 search harder for the smallest change "
    "set\n"
    "      --horizon-lines=NUM       keep NUM identical lines at each end\n"
    "      --speed-large-files       accepted; large inputs are always fast\n"
    "      --strip-trailing-cr       read CR LF line ends as LF\n"
    "\n"
    "Directories:\n"
    "  -r, --recursive               compare subdirectories too\n"
    "  -N, --new-file                a file missing on one side is empty\n"
    "      --unidirectional-new-file  a file missing in the first directory "
    "is\n"
    "                                  empty\n"
    "  -x, --exclude=PAT             skip names that match PAT\n"
    "  -X, --exclude-from=FILE       skip names that match a pattern in FILE\n"
    "      --no-dereference          compare symbolic links as links\n"
    "\n"
    "      --help                    print this summary and quit\n"
    "  -v, --version                 print the version line and quit\n";

enum {
  O_NORMAL = 0x100,
  O_LABEL,
  O_LEFT,
  O_SUPPRESS,
  O_UNINEW,
  O_COLOR,
  O_NODEREF,
  O_HORIZON,
  O_SPEED,
  O_TABSIZE,
  O_STRIPCR
};

typedef struct dctx {
  bi_ctx *c;
  df_opts o;
  writer w;
  int recursive, new_file, uni_new, report_same, noderef, strip_cr;
  const char **excl;
  size_t nexcl;
  const char *switches; /* the options as typed, for "diff -r a/x b/x" */
  int nlabels;
  uint64_t (*anc)[258]; /* [2]: inodes of the directories being compared */
  int nanc;
} dctx;

/* diffutils puts the command's name before the --help hint too. */
static void df_try_help(bi_ctx *c) {
  stream_printf(c->err, "%s: ", c->argv[0]);
  bi_try_help(c);
}

/* An option word as the shell would need it quoted (GNU quotes the
 * switches it repeats in "diff -r -x 'o*' a/f b/f"). */
static void put_shell_word(buf *b, const char *s) {
  int plain = *s != 0;
  for (const char *p = s; *p; p++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789_@%+=:,./-",
                *p))
      plain = 0;
  if (plain) {
    buf_puts(b, s);
    return;
  }
  buf_putc(b, '\'');
  for (const char *p = s; *p; p++) {
    if (*p == '\'')
      buf_puts(b, "'\\''");
    else
      buf_putc(b, *p);
  }
  buf_putc(b, '\'');
}

/* ---- one pair of files -------------------------------------------------- */

typedef struct input {
  df_file f;
  stream *s;
  buf copy;
  int missing; /* treated as empty (-N) */
} input;

static int open_input(dctx *x, input *in, const char *path, int missing) {
  bi_ctx *c = x->c;
  memset(in, 0, sizeof *in);
  buf_init(&in->copy, c->m);
  in->f.name = path;
  in->missing = missing;
  if (missing) {
    in->f.data = "";
    in->f.have_time = 1;
    in->f.mtime_ns = 0;
    return 0;
  }
  int err = 0;
  in->s = bi_open_read(c, path, &err);
  if (!in->s) {
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    tu_file_error_raw(c, path, err);
    return -1;
  }
  if (tu_slurp(c, in->s, &in->f.data, &in->f.len, &in->copy, &err)) {
    if (err != ECANCELED)
      wr_flush(&x->w); /* stdout first, as GNU flushes it */
    tu_file_error_raw(c, path, err);
    return -1;
  }
  if (x->strip_cr && memchr(in->f.data, '\r', in->f.len)) {
    /* --strip-trailing-cr: CR LF line ends read as LF */
    buf nb;
    buf_init(&nb, c->m);
    const char *p = in->f.data, *e = p + in->f.len;
    for (; p < e; p++)
      if (!(*p == '\r' && p + 1 < e && p[1] == '\n'))
        buf_putc(&nb, *p);
    if (nb.oom) {
      buf_free(&nb);
      wr_flush(&x->w); /* stdout first, as GNU flushes it */
      bi_error(c, "memory exhausted");
      return -1;
    }
    buf_free(&in->copy);
    in->copy = nb;
    in->f.data = nb.data ? nb.data : "";
    in->f.len = nb.len;
  }
  fu_stat st;
  in->f.have_time = 1;
  if (strcmp(path, "-") && strncmp(path, "/dev/fd/", 8) && c->vfs &&
      vfs_stat(c->vfs, c->cwd, path, &st) == 0)
    in->f.mtime_ns = st.mtime_ns;
  else
    in->f.mtime_ns = fu_now(c);
  return 0;
}

static void close_input(dctx *x, input *in) {
  if (in->s)
    stream_unref(in->s);
  buf_free(&in->copy);
  mem_free(x->c->m, in->f.ls);
  in->f.ls = NULL;
}

static int is_binary(const df_file *f) {
  size_t n = f->len < 4096 ? f->len : 4096;
  return n && memchr(f->data, 0, n) != NULL;
}

static void header_line(dctx *x, const char *mark, int i, const df_file *f) {
  wr_puts(&x->w, mark);
  wr_putc(&x->w, ' ');
  if (x->o.label[i]) {
    wr_puts(&x->w, x->o.label[i]);
  } else {
    const tz_zone *z = bi_tz_open(x->c);
    wr_puts(&x->w, f->name);
    wr_putc(&x->w, '\t');
    wr_puts(&x->w, fu_time_full(x->c, z, f->mtime_ns));
    tz_close(z);
  }
  wr_putc(&x->w, '\n');
}

/* Compare two files (either may be missing under -N). Returns 0, 1 or 2. */
static int compare_files(dctx *x, const char *p0, const char *p1, int miss0,
                         int miss1, int in_dir) {
  bi_ctx *c = x->c;
  input in[2];
  int st = 2;
  if (open_input(x, &in[0], p0, miss0)) {
    buf_free(&in[0].copy);
    if (in[0].s)
      stream_unref(in[0].s);
    return 2;
  }
  if (open_input(x, &in[1], p1, miss1)) {
    close_input(x, &in[0]);
    buf_free(&in[1].copy);
    if (in[1].s)
      stream_unref(in[1].s);
    return 2;
  }
  df_file *a = &in[0].f, *b = &in[1].f;
  int same = a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
  if (same && x->o.style != DF_SIDE) {
    st = 0;
    goto done;
  }
  if (!x->o.text && (is_binary(a) || is_binary(b))) {
    if (x->o.style == DF_BRIEF)
      wr_printf(&x->w, "Files %s and %s differ\n", p0, p1);
    else
      wr_printf(&x->w, "Binary files %s and %s differ\n", p0, p1);
    st = 1;
    goto done;
  }
  if (df_lines(c, a) || df_lines(c, b)) {
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    bi_error(c, "memory exhausted");
    goto done;
  }
  df_script s;
  int rc = df_compare(c, &x->o, a, b, &s);
  if (rc == -1) {
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    bi_error(c, "memory exhausted");
    goto done;
  }
  if (rc == -2)
    goto done;
  if (x->o.ign_blank || x->o.ignore_re) {
    /* only changes that do not count: the files count as the same */
    df_opts o = x->o;
    int any = 0;
    for (size_t k = 0; k < s.n && !any; k++) {
      const df_change *ch = &s.v[k];
      int blank = 1;
      for (long i = 0; i < ch->deleted && blank; i++)
        blank = df_trivial_line(&o, a, ch->line0 + i);
      for (long i = 0; i < ch->inserted && blank; i++)
        blank = df_trivial_line(&o, b, ch->line1 + i);
      any = !blank;
    }
    if (!any)
      s.n = 0;
  }
  if (s.n == 0) {
    /* side by side shows the common lines of equal files too */
    if (x->o.style == DF_SIDE)
      df_print(c, &x->o, &x->w, a, b, &s);
    mem_free(c->m, s.v);
    st = 0;
    goto done;
  }
  st = 1;
  if (x->o.style == DF_BRIEF) {
    wr_printf(&x->w, "Files %s and %s differ\n", p0, p1);
  } else {
    if (in_dir)
      wr_printf(&x->w, "diff%s %s %s\n", x->switches, p0, p1);
    if (x->o.style == DF_UNIFIED) {
      header_line(x, "---", 0, a);
      header_line(x, "+++", 1, b);
    } else if (x->o.style == DF_CONTEXT) {
      header_line(x, "***", 0, a);
      header_line(x, "---", 1, b);
    }
    df_print(c, &x->o, &x->w, a, b, &s);
    if (x->o.style == DF_ED) {
      /* an ed script cannot say that a last line lacks its newline */
      for (int k = 0; k < 2; k++)
        if (in[k].f.nonl) {
          wr_flush(&x->w);
          wr_flush(&x->w); /* stdout first, as GNU flushes it */
          bi_error(c, "%s: No newline at end of file\n", k ? p1 : p0);
          st = 2;
        }
    }
  }
  mem_free(c->m, s.v);
done:
  if (st == 0 && x->report_same)
    wr_printf(&x->w, "Files %s and %s are identical\n", p0, p1);
  close_input(x, &in[0]);
  close_input(x, &in[1]);
  if (budget_poll(c->bud))
    return 2;
  return st;
}

/* ---- directories -------------------------------------------------------- */

static int excluded(dctx *x, const char *name) {
  for (size_t i = 0; i < x->nexcl; i++)
    if (pat_match(x->excl[i], strlen(x->excl[i]), name, strlen(name), 0))
      return 1;
  return 0;
}

static int stat_path(dctx *x, const char *p, fu_stat *st) {
  if (x->noderef)
    return vfs_lstat(x->c->vfs, x->c->cwd, p, st);
  return vfs_stat(x->c->vfs, x->c->cwd, p, st);
}

static const char *type_word(int type, uint64_t size) {
  switch (type) {
  case VFS_DIR:
    return "directory";
  case VFS_LNK:
    return "symbolic link";
  case VFS_CHR:
    return "character special file";
  case VFS_FIFO:
    return "fifo";
  default:
    return size ? "regular file" : "regular empty file";
  }
}

static int compare_paths(dctx *x, const char *p0, const char *p1, int depth);

/* Compare two directories; a missing one (-N) is empty. */
static int compare_dirs(dctx *x, const char *d0, const char *d1, int depth,
                        int miss0, int miss1) {
  bi_ctx *c = x->c;
  char **n0 = NULL, **n1 = NULL;
  size_t c0 = 0, c1 = 0;
  int r = miss0 ? 0 : vfs_readdir(c->vfs, c->cwd, d0, &n0, &c0);
  if (r < 0) {
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    tu_file_error_raw(c, d0, -r);
    return 2;
  }
  r = miss1 ? 0 : vfs_readdir(c->vfs, c->cwd, d1, &n1, &c1);
  if (r < 0) {
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    tu_file_error_raw(c, d1, -r);
    vfs_free_names(c->vfs, n0, c0);
    return 2;
  }
  int st = 0;
  size_t i = 0, j = 0;
  while ((i < c0 || j < c1) && !x->w.err) {
    if (budget_poll(c->bud)) {
      st = 2;
      break;
    }
    int cmp = i == c0 ? 1 : j == c1 ? -1 : strcmp(n0[i], n1[j]);
    const char *name = cmp <= 0 ? n0[i] : n1[j];
    if (excluded(x, name)) {
      i += cmp <= 0;
      j += cmp >= 0;
      continue;
    }
    const char *p0 = fu_join(c, d0, name), *p1 = fu_join(c, d1, name);
    int k;
    if (cmp == 0) {
      k = compare_paths(x, p0, p1, depth + 1);
    } else if ((cmp < 0 && x->new_file) ||
               (cmp > 0 && (x->new_file || x->uni_new))) {
      /* the missing side is an empty file (a directory: its files) */
      fu_stat s;
      const char *have = cmp < 0 ? p0 : p1;
      if (stat_path(x, have, &s) == 0 && s.type == VFS_DIR) {
        if (x->recursive)
          k = depth + 1 > 256
                  ? 2
                  : compare_dirs(x, p0, p1, depth + 1, cmp > 0, cmp < 0);
        else {
          wr_printf(&x->w, "Only in %s: %s\n", cmp < 0 ? d0 : d1, name);
          k = 1;
        }
      } else
        k = compare_files(x, p0, p1, cmp > 0, cmp < 0, 1);
    } else {
      wr_printf(&x->w, "Only in %s: %s\n", cmp < 0 ? d0 : d1, name);
      k = 1;
    }
    if (k > st)
      st = k;
    i += cmp <= 0;
    j += cmp >= 0;
  }
  if (n0)
    vfs_free_names(c->vfs, n0, c0);
  if (n1)
    vfs_free_names(c->vfs, n1, c1);
  return st;
}

static int compare_paths(dctx *x, const char *p0, const char *p1, int depth) {
  bi_ctx *c = x->c;
  fu_stat s0, s1;
  int e0 = 0, e1 = 0;
  if (depth > 256) {
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    bi_error(c, "%s: directory nesting too deep", p0);
    return 2;
  }
  int std0 = !strcmp(p0, "-") || !strncmp(p0, "/dev/fd/", 8);
  int std1 = !strcmp(p1, "-") || !strncmp(p1, "/dev/fd/", 8);
  if (!std0 && (!c->vfs || stat_path(x, p0, &s0) < 0))
    e0 = ENOENT;
  if (!std1 && (!c->vfs || stat_path(x, p1, &s1) < 0))
    e1 = ENOENT;
  if (std0)
    s0.type = VFS_REG;
  if (std1)
    s1.type = VFS_REG;
  if (e0 && e1) {
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    tu_file_error_raw(c, p0, e0);
    wr_flush(&x->w); /* stdout first, as GNU flushes it */
    tu_file_error_raw(c, p1, e1);
    return 2;
  }
  if (e0 || e1) {
    int allow = e0 ? (x->new_file || x->uni_new) : x->new_file;
    if (!allow || (depth == 0 && !x->new_file && !(e0 && x->uni_new))) {
      wr_flush(&x->w); /* stdout first, as GNU flushes it */
      tu_file_error_raw(c, e0 ? p0 : p1, e0 ? e0 : e1);
      return 2;
    }
    if ((e0 ? s1.type : s0.type) == VFS_DIR) {
      wr_flush(&x->w); /* stdout first, as GNU flushes it */
      tu_file_error_raw(c, e0 ? p0 : p1, e0 ? e0 : e1);
      return 2;
    }
    return compare_files(x, p0, p1, e0 != 0, e1 != 0, depth > 0);
  }
  int dir0 = s0.type == VFS_DIR, dir1 = s1.type == VFS_DIR;
  if (dir0 && dir1) {
    if (depth > 0 && !x->recursive) {
      wr_printf(&x->w, "Common subdirectories: %s and %s\n", p0, p1);
      return 0;
    }
    for (int k = 0; k < x->nanc; k++)
      if (x->anc[0][k] == s0.ino || x->anc[1][k] == s1.ino) {
        wr_flush(&x->w); /* stdout first, as GNU flushes it */
        bi_error(c, "%s: recursive directory loop",
                 x->anc[0][k] == s0.ino ? p0 : p1);
        return 2;
      }
    if (x->nanc >= 257) {
      wr_flush(&x->w); /* stdout first, as GNU flushes it */
      bi_error(c, "%s: directory nesting too deep", p0);
      return 2;
    }
    x->anc[0][x->nanc] = s0.ino;
    x->anc[1][x->nanc] = s1.ino;
    x->nanc++;
    int st = compare_dirs(x, p0, p1, depth, 0, 0);
    x->nanc--;
    return st;
  }
  if (depth == 0 && (dir0 || dir1)) {
    /* FILE DIR: the file of the same name in DIR */
    const char *file = dir0 ? p1 : p0;
    if (std0 || std1) {
      wr_flush(&x->w); /* stdout first, as GNU flushes it */
      bi_error(c, "cannot compare '-' to a directory");
      return 2;
    }
    const char *in = fu_join(c, dir0 ? p0 : p1, fu_basename(c, file));
    return compare_paths(x, dir0 ? in : p0, dir0 ? p1 : in, 0);
  }
  if (dir0 != dir1 ||
      (x->noderef && (s0.type == VFS_LNK) != (s1.type == VFS_LNK))) {
    wr_printf(&x->w, "File %s is a %s while file %s is a %s\n", p0,
              type_word(s0.type, s0.size), p1, type_word(s1.type, s1.size));
    return 1;
  }
  if (x->noderef && s0.type == VFS_LNK) {
    char *t0 = NULL, *t1 = NULL;
    int st = 0;
    if (vfs_readlink(c->vfs, c->cwd, p0, &t0, NULL) < 0 ||
        vfs_readlink(c->vfs, c->cwd, p1, &t1, NULL) < 0)
      st = 2;
    else if (strcmp(t0, t1)) {
      wr_printf(&x->w, "Symbolic links %s and %s differ\n", p0, p1);
      st = 1;
    }
    if (t0)
      vfs_release(c->vfs, t0);
    if (t1)
      vfs_release(c->vfs, t1);
    return st;
  }
  return compare_files(x, p0, p1, 0, 0, depth > 0);
}

/* ---- options ------------------------------------------------------------ */

static int parse_num(dctx *x, const char *s, long *v, const char *what) {
  char *e;
  errno = 0;
  long n = strtol(s, &e, 10);
  if (!*s || *e || n < 0 || errno) {
    bi_error(x->c, "invalid %s '%s'", what, s);
    df_try_help(x->c);
    return -1;
  }
  /* past any file's line count: the same output, and no overflow */
  *v = n > 1000000000L ? 1000000000L : n;
  return 0;
}

static int read_excludes(dctx *x, const char *path, size_t *cap) {
  bi_ctx *c = x->c;
  char *data = NULL;
  size_t n = 0;
  int r = c->vfs ? vfs_read_file(c->vfs, c->cwd, path, &data, &n) : -ENOENT;
  if (r < 0) {
    tu_file_error_raw(c, path, -r);
    return -1;
  }
  const char *p = data, *e = data + n;
  while (p < e) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(e - p);
    if (x->nexcl == *cap) {
      size_t nc = *cap ? *cap * 2 : 16;
      const char **nv = arena_alloc(c->scratch, nc * sizeof *nv);
      if (!nv)
        break;
      if (x->nexcl)
        memcpy(nv, x->excl, x->nexcl * sizeof *nv);
      x->excl = nv;
      *cap = nc;
    }
    x->excl[x->nexcl++] = arena_strndup(c->scratch, p, len);
    p += len + 1;
  }
  vfs_release(c->vfs, data);
  return 0;
}

int bi_diff(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"normal", O_NORMAL, BI_ARG_NONE},
      {"brief", 'q', BI_ARG_NONE},
      {"report-identical-files", 's', BI_ARG_NONE},
      {"context", 'C', BI_ARG_OPTIONAL},
      {"unified", 'U', BI_ARG_OPTIONAL},
      {"side-by-side", 'y', BI_ARG_NONE},
      {"ed", 'e', BI_ARG_NONE},
      {"width", 'W', BI_ARG_REQUIRED},
      {"left-column", O_LEFT, BI_ARG_NONE},
      {"suppress-common-lines", O_SUPPRESS, BI_ARG_NONE},
      {"show-c-function", 'p', BI_ARG_NONE},
      {"label", O_LABEL, BI_ARG_REQUIRED},
      {"expand-tabs", 't', BI_ARG_NONE},
      {"initial-tab", 'T', BI_ARG_NONE},
      {"color", O_COLOR, BI_ARG_OPTIONAL},
      {"ignore-case", 'i', BI_ARG_NONE},
      {"ignore-tab-expansion", 'E', BI_ARG_NONE},
      {"ignore-trailing-space", 'Z', BI_ARG_NONE},
      {"ignore-space-change", 'b', BI_ARG_NONE},
      {"ignore-all-space", 'w', BI_ARG_NONE},
      {"ignore-blank-lines", 'B', BI_ARG_NONE},
      {"ignore-matching-lines", 'I', BI_ARG_REQUIRED},
      {"show-function-line", 'F', BI_ARG_REQUIRED},
      {"text", 'a', BI_ARG_NONE},
      {"minimal", 'd', BI_ARG_NONE},
      {"horizon-lines", O_HORIZON, BI_ARG_REQUIRED},
      {"speed-large-files", O_SPEED, BI_ARG_NONE},
      {"strip-trailing-cr", O_STRIPCR, BI_ARG_NONE},
      {"recursive", 'r', BI_ARG_NONE},
      {"new-file", 'N', BI_ARG_NONE},
      {"unidirectional-new-file", O_UNINEW, BI_ARG_NONE},
      {"exclude", 'x', BI_ARG_REQUIRED},
      {"exclude-from", 'X', BI_ARG_REQUIRED},
      {"no-dereference", O_NODEREF, BI_ARG_NONE},
      {"help", BI_OPT_HELP, BI_ARG_NONE},
      {"version", 'v', BI_ARG_NONE},
      {NULL, 0, 0}};
  dctx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.anc = arena_calloc(c->scratch, 2 * sizeof *x.anc);
  if (!x.anc) {
    bi_error(c, "memory exhausted");
    return 2;
  }
  x.o.style = DF_NORMAL;
  x.o.context = -1;
  x.o.width = 130;
  size_t excap = 0;
  long ctx_given = -1;
  int style_set = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "0123456789abBcC:deEF:iI:NpqrsStTuU:vwW:x:X:yZ", opts);
  g.try_prefix = 1;
  int ch;
  long num_ctx = -1;
  const char **ipats = NULL, **fpats = NULL;
  size_t nipats = 0, nfpats = 0;
  while ((ch = bi_getopt_next(&g)) != -1) {
    long v;
    switch (ch) {
    case '0' ... '9':
      /* obsolete -NUM: context lines */
      num_ctx = num_ctx < 0 ? 0 : num_ctx;
      /* large counts saturate: more context than lines is all lines */
      num_ctx = num_ctx > 100000000L ? 1000000000L : num_ctx * 10 + (ch - '0');
      ctx_given = num_ctx;
      break;
    case 'a':
      x.o.text = 1;
      break;
    case 'b':
      x.o.ign_ws_change = 1;
      break;
    case 'B':
      x.o.ign_blank = 1;
      break;
    case 'I':
    case 'F': {
      /* several -I (or -F) join into one alternation */
      const char ***v = ch == 'I' ? &ipats : &fpats;
      size_t *nv = ch == 'I' ? &nipats : &nfpats;
      const char **nw = arena_alloc(c->scratch, (*nv + 1) * sizeof *nw);
      if (!nw)
        return 2;
      if (*nv)
        memcpy(nw, *v, *nv * sizeof *nw);
      nw[(*nv)++] = g.arg;
      *v = nw;
      break;
    }
    case 'c':
    case 'u':
    case 'C':
    case 'U': {
      int sty = (ch == 'c' || ch == 'C') ? DF_CONTEXT : DF_UNIFIED;
      if (style_set && x.o.style != sty && x.o.style != DF_BRIEF) {
        bi_error(c, "conflicting output style options");
        df_try_help(c);
        return 2;
      }
      if (x.o.style != DF_BRIEF)
        x.o.style = sty;
      style_set = 1;
      if ((ch == 'C' || ch == 'U') && g.arg) {
        if (parse_num(&x, g.arg, &v, "context length"))
          return 2;
        if (ctx_given < 0 || v > ctx_given)
          ctx_given = v;
      }
      break;
    }
    case 'd':
      x.o.minimal = 1;
      break;
    case 'E':
      x.o.ign_tab = 1;
      break;
    case 'i':
      x.o.icase = 1;
      break;
    case 'N':
      x.new_file = 1;
      break;
    case 'p':
      x.o.show_c_func = 1;
      break;
    case 'q':
      x.o.style = DF_BRIEF;
      style_set = 1;
      break;
    case 'r':
      x.recursive = 1;
      break;
    case 's':
      x.report_same = 1;
      break;
    case 't':
      x.o.expand_tabs = 1;
      break;
    case 'T':
      x.o.initial_tab = 1;
      break;
    case 'w':
      x.o.ign_all_ws = 1;
      break;
    case 'W':
      if (parse_num(&x, g.arg, &v, "width") || v == 0) {
        if (v == 0) {
          bi_error(c, "invalid width '%s'", g.arg);
          df_try_help(c);
        }
        return 2;
      }
      x.o.width = (int)(v > 100000 ? 100000 : v);
      break;
    case 'x':
      if (x.nexcl == excap) {
        size_t nc = excap ? excap * 2 : 16;
        const char **nv = arena_alloc(c->scratch, nc * sizeof *nv);
        if (!nv)
          return 2;
        if (x.nexcl)
          memcpy(nv, x.excl, x.nexcl * sizeof *nv);
        x.excl = nv;
        excap = nc;
      }
      x.excl[x.nexcl++] = g.arg;
      break;
    case 'X':
      if (read_excludes(&x, g.arg, &excap))
        return 2;
      break;
    case 'e':
      if (style_set && x.o.style != DF_ED && x.o.style != DF_BRIEF) {
        bi_error(c, "conflicting output style options");
        df_try_help(c);
        return 2;
      }
      if (x.o.style != DF_BRIEF)
        x.o.style = DF_ED;
      style_set = 1;
      break;
    case 'y':
      if (style_set && x.o.style != DF_SIDE && x.o.style != DF_BRIEF) {
        bi_error(c, "conflicting output style options");
        df_try_help(c);
        return 2;
      }
      if (x.o.style != DF_BRIEF)
        x.o.style = DF_SIDE;
      style_set = 1;
      break;
    case 'Z':
      x.o.ign_trail_ws = 1;
      break;
    case O_NORMAL:
      if (style_set && x.o.style != DF_NORMAL && x.o.style != DF_BRIEF) {
        bi_error(c, "conflicting output style options");
        df_try_help(c);
        return 2;
      }
      style_set = 1;
      break;
    case O_LABEL:
      if (x.nlabels == 2) {
        bi_error(c, "too many file label options");
        return 2;
      }
      x.o.label[x.nlabels++] = g.arg;
      break;
    case O_LEFT:
      x.o.left_column = 1;
      break;
    case O_SUPPRESS:
      x.o.suppress_common = 1;
      break;
    case O_UNINEW:
      x.uni_new = 1;
      break;
    case O_COLOR:
      if (g.arg && strcmp(g.arg, "never") && strcmp(g.arg, "auto")) {
        if (!strcmp(g.arg, "always")) {
          bi_error(c, "--color=always is not supported here");
          return 2;
        }
        bi_error(c, "invalid color '%s'", g.arg);
        df_try_help(c);
        return 2;
      }
      break;
    case O_NODEREF:
      x.noderef = 1;
      break;
    case O_HORIZON:
      if (parse_num(&x, g.arg, &v, "horizon length"))
        return 2;
      x.o.horizon = v;
      break;
    case O_SPEED:
      break;
    case O_STRIPCR:
      x.strip_cr = 1;
      break;
    case 'S':
      bi_error(c, "option -S is not supported");
      return 2;
    case 'v':
      /* "GNU" stays in the line: scripts look for it to pick GNU syntax */
      if (stream_printf(c->out, "%s (GNU diffutils compatible; vsh) 3.8\n",
                        c->argv[0]) < 0)
        return bi_stream_status(c->out->err);
      return 0;
    case BI_OPT_HELP:
      return bi_print_help(c);
    default:
      return 2;
    }
    if (ch < '0' || ch > '9')
      num_ctx = -1;
  }
  if (x.o.show_c_func && !style_set)
    x.o.style = DF_CONTEXT; /* -p alone means -c -p */
  if (x.o.style == DF_CONTEXT || x.o.style == DF_UNIFIED)
    x.o.context = ctx_given >= 0 ? ctx_given : 3;
  else
    x.o.context = 0;
  if (g.noperands < 2) {
    if (g.noperands == 0)
      bi_error(c, "missing operand after '%s'", c->argv[c->argc - 1]);
    else
      bi_error(c, "missing operand after '%s'", g.operands[0]);
    df_try_help(c);
    return 2;
  }
  if (g.noperands > 2) {
    bi_error(c, "extra operand '%s'", g.operands[2]);
    df_try_help(c);
    return 2;
  }
  /* the options as typed, for the "diff ..." line of directory output */
  buf sw;
  buf_init(&sw, c->m);
  for (int i = 1; i < c->argc; i++) {
    int op = 0;
    for (int k = 0; k < g.noperands; k++)
      if (c->argv[i] == g.operands[k])
        op = 1;
    if (op || !strcmp(c->argv[i], "--"))
      continue;
    buf_putc(&sw, ' ');
    put_shell_word(&sw, c->argv[i]);
  }
  x.switches = arena_strdup(c->scratch, buf_cstr(&sw));
  buf_free(&sw);
  if (nipats && !(x.o.ignore_re = df_re_compile(c, ipats, nipats, x.o.icase)))
    return 2;
  if (nfpats) {
    /* -F shows function lines only in context and unified output */
    int shown = x.o.style == DF_CONTEXT || x.o.style == DF_UNIFIED;
    if (x.o.show_c_func) { /* -p too: GNU adds its pattern to the list */
      const char **nw = arena_alloc(c->scratch, (nfpats + 1) * sizeof *nw);
      if (!nw) {
        df_re_free(c, x.o.ignore_re);
        bi_error(c, "memory exhausted");
        return 2;
      }
      memcpy(nw, fpats, nfpats * sizeof *nw);
      nw[nfpats++] = "^[[:alpha:]$_]";
      fpats = nw;
    }
    x.o.func_re = df_re_compile(c, fpats, nfpats, 0);
    if (!x.o.func_re) {
      df_re_free(c, x.o.ignore_re);
      return 2;
    }
    x.o.show_c_func = shown;
  }

  if (!x.switches)
    x.switches = "";
  wr_init(&x.w, c->out);
  int st;
  if (!strcmp(g.operands[0], "-") && !strcmp(g.operands[1], "-")) {
    /* standard input against itself: the same file */
    if (x.report_same)
      wr_printf(&x.w, "Files - and - are identical\n");
    st = 0;
  } else {
    st = compare_paths(&x, g.operands[0], g.operands[1], 0);
  }
  df_re_free(c, x.o.ignore_re);
  df_re_free(c, x.o.func_re);
  if (wr_flush(&x.w))
    return x.w.err == EPIPE ? 141 : 2;
  if (budget_poll(c->bud))
    return 2;
  return st;
}
