/*
 * cat.c - GNU cat.
 *
 * Without formatting options the bytes are copied as they come: a file's
 * whole content in one write from its zero-copy view, a pipe in 64 KiB
 * chunks. With -n/-b/-s/-v/-E/-T lines are formatted one by one; as in GNU
 * the line counter, the "at line start" state and blank-line squeezing carry
 * over from one file to the next.
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_cat[] = "Usage: cat [OPTION]... [FILE]...";
const char bi_help_cat[] =
    "Write the FILEs, one after another, to standard output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "  -A, --show-all           shorthand for -vET\n"
    "  -b, --number-nonblank    put a line number before each non-blank line\n"
    "                             (takes precedence over -n)\n"
    "  -e                       shorthand for -vE\n"
    "  -E, --show-ends          mark the end of every line with a $\n"
    "  -n, --number             put a line number before every line\n"
    "  -s, --squeeze-blank      collapse each run of blank lines into one\n"
    "  -t                       shorthand for -vT\n"
    "  -T, --show-tabs          show each TAB as ^I\n"
    "  -u                       accepted and ignored\n"
    "  -v, --show-nonprinting   make control and high-bit bytes visible with "
    "^\n"
    "                             and M- notation (newline and TAB excepted)\n"
    "      --help               print this summary and quit\n"
    "      --version            print the version line and quit\n"
    "\n"
    "Examples:\n"
    "  cat f - g  Print f, then whatever arrives on standard input, then g.\n"
    "  cat        Pass standard input through to standard output unchanged.\n";

typedef struct catopt {
  int number, nonblank, squeeze, ends, tabs, nonprint;
  /* state carried across files */
  unsigned long long line;
  int at_start; /* next byte begins a line */
  int blanks;   /* consecutive empty lines seen */
} catopt;

static int plain_copy(bi_ctx *c, stream *in, int *rerr) {
  const char *p;
  size_t n;
  if (stream_take_all(in, &p, &n) == 0) {
    if (n && stream_write(c->out, p, n))
      return -1;
    return 0;
  }
  if (in->err == ECANCELED) {
    *rerr = ECANCELED;
    return 1;
  }
  char *b = mem_alloc(c->m, 65536);
  if (!b) {
    *rerr = ENOMEM;
    return 1;
  }
  int rc = 0;
  for (;;) {
    long k = stream_read(in, b, 65536);
    if (k < 0) {
      *rerr = in->err;
      rc = 1;
      break;
    }
    if (k == 0)
      break;
    if (stream_write(c->out, b, (size_t)k)) {
      rc = -1;
      break;
    }
  }
  mem_free(c->m, b);
  return rc;
}

/* Write one byte in ^/M- notation (-v). */
static void put_visible(writer *w, unsigned char ch, const catopt *o) {
  if (ch == '\t') {
    if (o->tabs)
      wr_write(w, "^I", 2);
    else
      wr_putc(w, '\t');
    return;
  }
  if (!o->nonprint) {
    wr_putc(w, ch);
    return;
  }
  if (ch >= 128) {
    wr_write(w, "M-", 2);
    ch -= 128;
  }
  if (ch < 32) {
    wr_putc(w, '^');
    wr_putc(w, ch + 64);
  } else if (ch == 127) {
    wr_write(w, "^?", 2);
  } else {
    wr_putc(w, ch);
  }
}

/* Formatted copy: 0, 1 read error (*rerr), -1 write error. */
static int format_copy(bi_ctx *c, stream *in, catopt *o, writer *w, int *rerr) {
  reader r;
  rd_init(&r, c->m, in);
  rd_flush_to(&r, w);
  const char *line;
  size_t len;
  int rc = 0, k;
  while ((k = rd_record(&r, '\n', &line, &len)) > 0) {
    int has_nl = line[len - 1] == '\n';
    size_t body = len - (size_t)has_nl;
    if (o->at_start && body == 0 && has_nl) { /* an empty line */
      if (o->squeeze && o->blanks >= 1)
        continue;
      o->blanks++;
      if (o->number && !o->nonblank)
        wr_printf(w, "%6llu\t", ++o->line);
      if (o->ends)
        wr_putc(w, '$');
      wr_putc(w, '\n');
      if (w->err)
        break;
      continue;
    }
    if (o->at_start) {
      o->blanks = 0;
      if (o->number)
        wr_printf(w, "%6llu\t", ++o->line);
    }
    if (!o->nonprint && !o->tabs) {
      wr_write(w, line, body);
    } else {
      for (size_t i = 0; i < body; i++)
        put_visible(w, (unsigned char)line[i], o);
    }
    if (has_nl) {
      if (o->ends)
        wr_putc(w, '$');
      wr_putc(w, '\n');
    }
    o->at_start = has_nl;
    if (w->err)
      break;
  }
  if (k < 0) {
    *rerr = r.err;
    rc = 1;
  }
  if (w->err)
    rc = -1;
  rd_free(&r);
  return rc;
}

int bi_cat(bi_ctx *c) {
  static const bi_opt opts[] = {{"show-all", 'A', BI_ARG_NONE},
                                {"number-nonblank", 'b', BI_ARG_NONE},
                                {"show-ends", 'E', BI_ARG_NONE},
                                {"number", 'n', BI_ARG_NONE},
                                {"squeeze-blank", 's', BI_ARG_NONE},
                                {"show-tabs", 'T', BI_ARG_NONE},
                                {"show-nonprinting", 'v', BI_ARG_NONE},
                                BI_OPTS_END};
  catopt o;
  memset(&o, 0, sizeof o);
  o.at_start = 1;
  bi_getopt g;
  bi_getopt_init(&g, c, "AbeEnstTuv", opts);
  int ch;
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'A':
      o.nonprint = o.ends = o.tabs = 1;
      break;
    case 'b':
      o.number = o.nonblank = 1;
      break;
    case 'e':
      o.nonprint = o.ends = 1;
      break;
    case 'E':
      o.ends = 1;
      break;
    case 'n':
      o.number = 1;
      break;
    case 's':
      o.squeeze = 1;
      break;
    case 't':
      o.nonprint = o.tabs = 1;
      break;
    case 'T':
      o.tabs = 1;
      break;
    case 'u':
      break;
    case 'v':
      o.nonprint = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  int fmt = o.number || o.squeeze || o.ends || o.tabs || o.nonprint;
  writer w;
  wr_init(&w, c->out);
  int status = 0;
  bi_inputs ins;
  bi_inputs_init(&ins, c, g.operands, g.noperands);
  for (stream *in; (in = bi_inputs_next(&ins));) {
    int rerr = 0;
    int r = fmt ? format_copy(c, in, &o, &w, &rerr) : plain_copy(c, in, &rerr);
    stream_unref(in);
    if (r < 0) /* output failed: nothing more can be written */
      return bi_stream_status(fmt ? w.err : c->out->err);
    if (r > 0) {
      if (rerr == ECANCELED)
        return 1;
      tu_file_error(c, ins.name, rerr);
      status = 1;
    }
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status | ins.status;
}
