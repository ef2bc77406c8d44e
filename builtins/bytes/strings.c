/*
 * strings.c - GNU strings (binutils 2.40): the runs of at least -n (4)
 * printable characters in each file, scanning the whole file (-a, the
 * default; there is no object-file reader, so -d scans everything too).
 * A printable character is a graphic ASCII byte, a space or a tab; -w adds
 * every whitespace byte and -e S every byte above 127.
 *
 * A run is held only until it is long enough to print; after that its
 * bytes go straight to the output, so a long run costs no memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_strings[] = "Usage: strings [OPTION]... [FILE]...";
const char bi_help_strings[] =
    "Print the sequences of printable characters found in each FILE (or in\n"
    "standard input), one to a line.\n"
    "\n"
    "  -a, --all             scan the whole file (the default)\n"
    "  -d, --data            the same here: every file is scanned whole\n"
    "  -e, --encoding=E      s: 7-bit characters (the default); S: 8-bit;\n"
    "                        b, l: 16-bit big/little-endian; B, L: 32-bit\n"
    "  -f, --print-file-name  put the file name before each string\n"
    "  -n, --bytes=MIN       print runs of at least MIN characters (4)\n"
    "  -MIN                  the same as -n MIN\n"
    "  -o                    the same as -t o\n"
    "  -s, --output-separator=SEP  end each string with SEP, not a newline\n"
    "  -t, --radix=R         put each string's offset before it, in octal\n"
    "                        (o), decimal (d) or hexadecimal (x)\n"
    "  -w, --include-all-whitespace  count every whitespace character as\n"
    "                        part of a string\n"
    "  -h, --help            print this summary and quit\n"
    "  -v, -V, --version     print the version line and quit\n";

typedef struct st_opts {
  size_t min;
  int radix; /* 0, 'o', 'd', 'x' */
  int eight, allspace, names;
  int unit;   /* bytes per character: 1, 2 or 4 (-e b l B L) */
  int bigend; /* -e b and B */
  const char *sep;
} st_opts;

static int printable(const st_opts *o, unsigned char ch) {
  if (ch == '\t' || (ch >= 0x20 && ch < 0x7f))
    return 1;
  if (o->eight && ch > 127)
    return 1;
  return o->allspace && (ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r');
}

typedef struct st_run {
  buf held;       /* the run so far, while shorter than min */
  int printing;   /* the run is being printed */
  uint64_t start; /* offset of the run */
} st_run;

static void run_start_print(const st_opts *o, st_run *r, writer *w,
                            const char *name) {
  if (o->names)
    wr_printf(w, "%s: ", name);
  if (o->radix == 'o')
    wr_printf(w, "%7llo ", (unsigned long long)r->start);
  else if (o->radix == 'd')
    wr_printf(w, "%7llu ", (unsigned long long)r->start);
  else if (o->radix == 'x')
    wr_printf(w, "%7llx ", (unsigned long long)r->start);
  wr_write(w, r->held.data, r->held.len);
  r->held.len = 0;
  r->printing = 1;
}

static void run_end(const st_opts *o, st_run *r, writer *w) {
  if (r->printing)
    wr_puts(w, o->sep ? o->sep : "\n");
  r->printing = 0;
  r->held.len = 0;
}

/* The characters of -e b/l/B/L: units of 2 or 4 bytes; a unit is a
 * character when its value is a printable byte. As binutils does, after a
 * unit that is not one the next unit starts one byte further, not a unit
 * further. ubuf holds the bytes of the unit being read (it may straddle
 * chunks); *upos is the offset of its first byte, *off that of p[0].
 * 0 or ENOMEM. */
static int scan_wide(const st_opts *o, st_run *r, writer *w, const char *name,
                     const unsigned char *p, size_t n, uint64_t *off,
                     unsigned char *ubuf, size_t *ulen, uint64_t *upos) {
  size_t u = (size_t)o->unit;
  for (size_t i = 0; i < n; i++) {
    if (*ulen == 0)
      *upos = *off + i;
    ubuf[(*ulen)++] = p[i];
    if (*ulen < u)
      continue;
    uint32_t v = 0;
    for (size_t b = 0; b < u; b++)
      v = v << 8 | ubuf[o->bigend ? b : u - 1 - b];
    if (v > 255 || !printable(o, (unsigned char)v)) {
      run_end(o, r, w);
      memmove(ubuf, ubuf + 1, u - 1);
      *ulen = u - 1;
      (*upos)++;
      continue;
    }
    uint64_t at = *upos;
    *ulen = 0;
    char ch = (char)v;
    if (r->printing) {
      wr_putc(w, ch);
      continue;
    }
    if (r->held.len == 0)
      r->start = at;
    if (buf_append(&r->held, &ch, 1))
      return ENOMEM;
    if (r->held.len >= o->min)
      run_start_print(o, r, w, name);
  }
  *off += n;
  return 0;
}

/* Scan one stream. 0, or an errno value. */
static int scan(bi_ctx *c, const st_opts *o, stream *in, const char *name,
                writer *w) {
  st_run r;
  memset(&r, 0, sizeof r);
  buf_init(&r.held, c->m);
  reader rd;
  rd_init(&rd, c->m, in);
  rd_flush_to(&rd, w);
  unsigned char tmp[16384], ubuf[4];
  size_t ulen = 0;
  uint64_t off = 0, upos = 0;
  long k;
  int err = 0;
  while ((k = rd_read(&rd, tmp, sizeof tmp)) > 0 && !w->err) {
    if (budget_poll(c->bud)) {
      err = ECANCELED;
      break;
    }
    size_t i = 0, n = (size_t)k;
    if (o->unit > 1) {
      err = scan_wide(o, &r, w, name, tmp, n, &off, ubuf, &ulen, &upos);
      if (err)
        break;
      continue;
    }
    while (i < n) {
      if (!printable(o, tmp[i])) {
        run_end(o, &r, w);
        i++;
        continue;
      }
      size_t j = i;
      while (j < n && printable(o, tmp[j]))
        j++;
      if (!r.printing && r.held.len == 0)
        r.start = off + i;
      if (r.printing) {
        wr_write(w, tmp + i, j - i);
      } else {
        size_t need = o->min - r.held.len;
        size_t take = j - i < need ? j - i : need;
        if (buf_append(&r.held, (const char *)tmp + i, take)) {
          err = ENOMEM;
          break;
        }
        if (r.held.len >= o->min) {
          run_start_print(o, &r, w, name);
          wr_write(w, tmp + i + take, j - i - take);
        }
      }
      i = j;
    }
    if (err)
      break;
    off += n;
  }
  if (k < 0)
    err = rd.err;
  if (!err)
    run_end(o, &r, w);
  rd_free(&rd);
  buf_free(&r.held);
  return err;
}

int bi_strings(bi_ctx *c) {
  static const bi_opt opts[] = {{"all", 'a', BI_ARG_NONE},
                                {"data", 'd', BI_ARG_NONE},
                                {"encoding", 'e', BI_ARG_REQUIRED},
                                {"print-file-name", 'f', BI_ARG_NONE},
                                {"bytes", 'n', BI_ARG_REQUIRED},
                                {"output-separator", 's', BI_ARG_REQUIRED},
                                {"radix", 't', BI_ARG_REQUIRED},
                                {"include-all-whitespace", 'w', BI_ARG_NONE},
                                {"help", 'h', BI_ARG_NONE},
                                {"version", 'v', BI_ARG_NONE},
                                {NULL, 0, 0}};
  st_opts o;
  memset(&o, 0, sizeof o);
  o.min = 4;
  o.unit = 1;
  /* The obsolete -NUM form becomes -n NUM. */
  bi_ctx sub;
  if (tu_obsolete_num(c, &sub, 'n', "bytes")) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  bi_getopt g;
  bi_getopt_init(&g, &sub, "ade:fn:os:t:wvVh", opts);
  int ch;
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'h':
      return bi_print_help(c);
    case 'v':
    case 'V':
      return bi_print_version(c) ? 1 : 0;
    case 'a':
    case 'd':
      break;
    case 'e':
      o.eight = 0;
      o.unit = 1;
      if (g.arg[0] && !g.arg[1] && strchr("sSbBlL", g.arg[0])) {
        o.eight = g.arg[0] == 'S';
        o.unit = strchr("bl", g.arg[0]) ? 2 : strchr("BL", g.arg[0]) ? 4 : 1;
        o.bigend = g.arg[0] == 'b' || g.arg[0] == 'B';
      } else {
        stream_printf(c->err, "%s\n", bi_usage_strings);
        bi_try_help(c);
        return 1;
      }
      break;
    case 'f':
      o.names = 1;
      break;
    case 'n': {
      char *e;
      errno = 0;
      long long v = strtoll(g.arg, &e, 0);
      if (e == g.arg || *e || errno) {
        bi_error(c, "invalid integer argument %s", g.arg);
        return 1;
      }
      if (v < 1) {
        bi_error(c, "invalid minimum string length %lld", v);
        return 1;
      }
      o.min = (size_t)v;
      break;
    }
    case 'o':
      o.radix = 'o';
      break;
    case 's':
      o.sep = g.arg;
      break;
    case 't':
      if (g.arg[1] || !strchr("odx", g.arg[0]) || !g.arg[0]) {
        stream_printf(c->err, "%s\n", bi_usage_strings);
        bi_try_help(c);
        return 1;
      }
      o.radix = g.arg[0];
      break;
    case 'w':
      o.allspace = 1;
      break;
    default:
      return 1;
    }
  }
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1;
  for (int i = 0; i < nfiles && !w.err; i++) {
    const char *name = files[i];
    int stdin_ = !g.noperands || !strcmp(name, "-");
    if (!stdin_) {
      fu_stat st;
      int e = vfs_stat(c->vfs, c->cwd, name, &st);
      if (e == -ENOENT) {
        wr_flush(&w);
        bi_error(c, "'%s': No such file", name); /* binutils quotes so */
        status = 1;
        continue;
      }
      if (e == 0 && st.type == VFS_DIR) {
        wr_flush(&w);
        bi_error(c, "Warning: '%s' is a directory", name);
        status = 1;
        continue;
      }
    }
    int err = 0;
    stream *in = bi_open_read(c, name, &err);
    if (!in) {
      wr_flush(&w);
      bi_error(c, "%s: %s", name, bi_strerror(err));
      status = 1;
      continue;
    }
    err = scan(c, &o, in, stdin_ ? "{standard input}" : name, &w);
    stream_unref(in);
    if (err == ECANCELED)
      return 1;
    if (err) {
      wr_flush(&w);
      bi_error(c, "%s: %s", name, bi_strerror(err));
      status = 1;
    }
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
