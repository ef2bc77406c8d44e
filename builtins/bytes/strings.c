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
    "  -e, --encoding=E      s: 7-bit characters (the default); S: 8-bit\n"
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

/* Scan one stream. 0, or an errno value. */
static int scan(bi_ctx *c, const st_opts *o, stream *in, const char *name,
                writer *w) {
  st_run r;
  memset(&r, 0, sizeof r);
  buf_init(&r.held, c->m);
  reader rd;
  rd_init(&rd, c->m, in);
  rd_flush_to(&rd, w);
  unsigned char tmp[16384];
  uint64_t off = 0;
  long k;
  int err = 0;
  while ((k = rd_read(&rd, tmp, sizeof tmp)) > 0 && !w->err) {
    if (budget_poll(c->bud)) {
      err = ECANCELED;
      break;
    }
    size_t i = 0, n = (size_t)k;
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
  /* The obsolete -NUM form becomes -n NUM. */
  bi_ctx sub;
  if (tu_obsolete_num(c, &sub, 'n')) {
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
      if (g.arg[0] == 's' && !g.arg[1])
        o.eight = 0;
      else if (g.arg[0] == 'S' && !g.arg[1])
        o.eight = 1;
      else if (strchr("bBlL", g.arg[0]) && g.arg[0] && !g.arg[1]) {
        bi_error(c, "16-bit and 32-bit encodings (-e %s) are not supported",
                 g.arg);
        return 1;
      } else {
        bi_print_help(c);
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
        bi_error(c, "%s: No such file", tu_quote(c, name));
        status = 1;
        continue;
      }
      if (e == 0 && st.type == VFS_DIR) {
        wr_flush(&w);
        bi_error(c, "Warning: %s is a directory", tu_quote(c, name));
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
