/*
 * od.c - GNU od: dump bytes in octal, hex, decimal or as characters.
 *
 * The input (all files in turn, as one stream) is cut in blocks of -w
 * bytes (16 by default). Each block is printed once per output type, the
 * first line after the address, the others after blanks of the same
 * width. As in GNU every type's fields are padded so that the blocks of all
 * types line up, a block equal to the previous one is shown as a single
 * "*" unless -v, and the last line is followed by the end address. Integers
 * are read in the host's (little-endian) order; a short last element is
 * zero-filled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_od[] = "Usage: od [OPTION]... [FILE]...";
const char bi_help_od[] =
    "Dump FILE to standard output in a form that shows every byte plainly (as\n"
    "octal numbers unless told otherwise). Several FILEs are read back to "
    "back\n"
    "as a single input.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -A, --address-radix=RADIX   base of the offsets at the start of each\n"
    "                                line: d (decimal), o (octal), x (hex) or\n"
    "                                n (no offsets)\n"
    "  -j, --skip-bytes=BYTES      start BYTES bytes into the input\n"
    "  -N, --read-bytes=BYTES      stop after BYTES bytes of input\n"
    "  -t, --format=TYPE           choose how the data is shown (may repeat)\n"
    "  -v, --output-duplicates     print repeated lines in full instead of\n"
    "                                one '*' line\n"
    "  -w[BYTES], --width[=BYTES]  show BYTES input bytes on each line; BYTES\n"
    "                                left out means 32\n"
    "      --help                  print this summary and quit\n"
    "      --version               print the version line and quit\n"
    "\n"
    "Older single-letter formats may be mixed in and add up with -t:\n"
    "  -a   means -t a:  named characters, high bit dropped\n"
    "  -b   means -t o1: octal, one byte at a time\n"
    "  -c   means -t c:  characters, or backslash escapes for unprintable "
    "ones\n"
    "  -d   means -t u2: unsigned decimal, two bytes at a time\n"
    "  -i   means -t dI: signed decimal int\n"
    "  -l   means -t dL: signed decimal long\n"
    "  -o   means -t o2: octal, two bytes at a time\n"
    "  -s   means -t d2: signed decimal, two bytes at a time\n"
    "  -x   means -t x2: hexadecimal, two bytes at a time\n"
    "\n"
    "A TYPE is a list of one or more of:\n"
    "  a          character names, high bit dropped\n"
    "  c          characters, or backslash escapes for unprintable ones\n"
    "  d[SIZE]    SIZE-byte integers, signed, in decimal\n"
    "  o[SIZE]    SIZE-byte integers in octal\n"
    "  u[SIZE]    SIZE-byte integers, unsigned, in decimal\n"
    "  x[SIZE]    SIZE-byte integers in hexadecimal\n";

typedef struct odtype {
  char kind; /* a c d o u x */
  int size;  /* bytes per element */
  int width; /* field width including the leading blank(s) */
} odtype;

#define OD_MAXT 16

/* Digits of the largest value of a size in a base, plus the blank. */
static int field_width(char kind, int size) {
  static const int o[] = {0, 3, 6, 0, 11, 0, 0, 0, 22};
  static const int u[] = {0, 3, 5, 0, 10, 0, 0, 0, 20};
  static const int d[] = {0, 4, 6, 0, 11, 0, 0, 0, 20};
  switch (kind) {
  case 'a':
  case 'c':
    return 4;
  case 'x':
    return 2 * size + 1;
  case 'o':
    return o[size] + 1;
  case 'u':
    return u[size] + 1;
  default:
    return d[size] + 1;
  }
}

/* Parse one -t argument into t[*n...]. 0, or -1 after the message. */
static int parse_type(bi_ctx *c, const char *s, odtype *t, int *n) {
  const char *p = s;
  while (*p) {
    char k = *p++;
    int size = 1;
    if (k == 'd' || k == 'o' || k == 'u' || k == 'x') {
      size = 4;
      if (*p >= '0' && *p <= '9') {
        char *e;
        long v = strtol(p, &e, 10);
        if (v != 1 && v != 2 && v != 4 && v != 8) {
          bi_error(c,
                   "invalid type string %s;\nthis system doesn't provide a "
                   "%ld-byte integral type",
                   tu_quote(c, s), v);
          return -1;
        }
        size = (int)v;
        p = e;
      } else if (*p == 'C') {
        size = 1, p++;
      } else if (*p == 'S') {
        size = 2, p++;
      } else if (*p == 'I') {
        size = 4, p++;
      } else if (*p == 'L') {
        size = 8, p++;
      }
    } else if (k != 'a' && k != 'c') {
      bi_error(c, "invalid character '%c' in type string %s", k,
               tu_quote(c, s));
      return -1;
    }
    if (*n == OD_MAXT)
      return 0;
    t[*n].kind = k;
    t[*n].size = size;
    t[*n].width = field_width(k, size);
    (*n)++;
  }
  return 0;
}

static const char *const ascii_names[] = {
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs",  "ht",  "nl",
    "vt",  "ff",  "cr",  "so",  "si",  "dle", "dc1", "dc2", "dc3", "dc4", "nak",
    "syn", "etb", "can", "em",  "sub", "esc", "fs",  "gs",  "rs",  "us",  "sp"};

/* The text of one element (without padding). */
static void elem_text(const odtype *t, const unsigned char *p, char *out) {
  if (t->kind == 'a') {
    int ch = p[0] & 0x7f;
    if (ch <= 32)
      strcpy(out, ascii_names[ch]);
    else if (ch == 127)
      strcpy(out, "del");
    else
      out[0] = (char)ch, out[1] = 0;
    return;
  }
  if (t->kind == 'c') {
    unsigned ch = p[0];
    const char *esc = tu_char_escape(ch);
    if (esc)
      strcpy(out, esc);
    else if (ch >= 32 && ch < 127)
      out[0] = (char)ch, out[1] = 0;
    else
      snprintf(out, 8, "%03o", ch);
    return;
  }
  uint64_t v = 0;
  for (int i = t->size - 1; i >= 0; i--)
    v = v << 8 | p[i];
  switch (t->kind) {
  case 'x':
    snprintf(out, 32, "%0*llx", 2 * t->size, (unsigned long long)v);
    break;
  case 'o':
    snprintf(out, 32, "%0*llo", t->width - 1, (unsigned long long)v);
    break;
  case 'u':
    snprintf(out, 32, "%llu", (unsigned long long)v);
    break;
  default: {
    int64_t sv;
    if (t->size < 8 && (v >> (8 * t->size - 1)) & 1)
      sv = (int64_t)(v | ~((UINT64_C(1) << (8 * t->size)) - 1));
    else
      sv = (int64_t)v;
    snprintf(out, 32, "%lld", (long long)sv);
  }
  }
}

typedef struct odst {
  odtype t[OD_MAXT];
  int nt;
  int width;      /* bytes per line */
  int line_chars; /* widest type's line, in characters */
  char radix;     /* d o x n */
  int verbose;
  uint64_t addr;
  int dup_shown; /* "*" already printed for the current run */
  int have_prev;
  unsigned char *prev;
} odst;

static void put_addr(writer *w, const odst *o, uint64_t a) {
  switch (o->radix) {
  case 'd':
    wr_printf(w, "%07llu", (unsigned long long)a);
    break;
  case 'x':
    wr_printf(w, "%06llx", (unsigned long long)a);
    break;
  case 'o':
    wr_printf(w, "%07llo", (unsigned long long)a);
    break;
  }
}

static int addr_width(const odst *o) {
  return o->radix == 'n' ? 0 : o->radix == 'x' ? 6 : 7;
}

static void dump_block(writer *w, odst *o, const unsigned char *b, size_t n) {
  if (!o->verbose && o->have_prev && n == (size_t)o->width &&
      !memcmp(b, o->prev, n)) {
    if (!o->dup_shown)
      wr_puts(w, "*\n");
    o->dup_shown = 1;
    o->addr += n;
    return;
  }
  o->dup_shown = 0;
  for (int k = 0; k < o->nt; k++) {
    const odtype *t = &o->t[k];
    if (k == 0)
      put_addr(w, o, o->addr);
    else
      for (int i = 0; i < addr_width(o); i++)
        wr_putc(w, ' ');
    int fields = o->width / t->size;
    /* Pad each field so this type's line is as wide as the widest one's. */
    int extra = o->line_chars - fields * t->width;
    int per = fields ? extra / fields : 0, rem = fields ? extra % fields : 0;
    unsigned char tmp[8];
    for (size_t i = 0, f = 0; i < n; i += (size_t)t->size, f++) {
      const unsigned char *p = b + i;
      if (i + (size_t)t->size > n) { /* short last element: zero-fill */
        memset(tmp, 0, sizeof tmp);
        memcpy(tmp, b + i, n - i);
        p = tmp;
      }
      char txt[32];
      elem_text(t, p, txt);
      int fw = t->width + per + ((int)f < rem ? 1 : 0);
      wr_printf(w, "%*s", fw, txt);
    }
    wr_putc(w, '\n');
  }
  memcpy(o->prev, b, n);
  o->have_prev = 1;
  o->addr += n;
}

/* GNU's complaint about a size option's argument (gnulib's xstrtol_fatal):
 * named as it was given ("-j" or "--skip-bytes"), the value as it is
 * between apostrophes in every locale. */
static void bad_size(bi_ctx *c, bi_getopt *g, const char *name) {
  char **av = c->argv;
  int i = g->idx - 1;
  if (i >= 2 && g->arg == av[i]) /* the value was the next argument */
    i--;
  if (i >= 1 && av[i][0] == '-' && av[i][1] == '-')
    bi_error(c, "invalid --%s argument '%s'", name, g->arg);
  else
    bi_error(c, "invalid -%c argument '%s'",
             name[0] == 'w'   ? 'w'
             : name[0] == 's' ? 'j'
                              : 'N',
             g->arg);
}

int bi_od(bi_ctx *c) {
  static const bi_opt opts[] = {{"address-radix", 'A', BI_ARG_REQUIRED},
                                {"skip-bytes", 'j', BI_ARG_REQUIRED},
                                {"read-bytes", 'N', BI_ARG_REQUIRED},
                                {"format", 't', BI_ARG_REQUIRED},
                                {"output-duplicates", 'v', BI_ARG_NONE},
                                {"width", 'w', BI_ARG_OPTIONAL},
                                BI_OPTS_END};
  odst o;
  memset(&o, 0, sizeof o);
  o.radix = 'o';
  o.width = 16;
  uint64_t skip = 0, limit = UINT64_MAX;
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "A:j:N:t:vw::abcdilosx", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    const char *trad = NULL;
    switch (ch) {
    case 'A':
      if (!g.arg[0] || !strchr("doxn", g.arg[0])) {
        bi_error(c,
                 "invalid output address radix '%c'; it must be one "
                 "character from [doxn]",
                 g.arg[0] ? g.arg[0] : ' ');
        return 1;
      }
      o.radix = g.arg[0];
      break;
    case 'j':
    case 'N': {
      uint64_t v;
      if (tu_parse_count(g.arg, &v)) {
        bad_size(c, &g, ch == 'j' ? "skip-bytes" : "read-bytes");
        return 1;
      }
      if (ch == 'j')
        skip = v;
      else
        limit = v;
      break;
    }
    case 't':
      if (parse_type(c, g.arg, o.t, &o.nt))
        return 1;
      break;
    case 'v':
      o.verbose = 1;
      break;
    case 'w': {
      uint64_t v = 32;
      if (g.arg && (tu_parse_count(g.arg, &v) || v > 4096)) {
        bad_size(c, &g, "width");
        return 1;
      }
      o.width = (int)v;
      break;
    }
    case 'a':
      trad = "a";
      break;
    case 'b':
      trad = "o1";
      break;
    case 'c':
      trad = "c";
      break;
    case 'd':
      trad = "u2";
      break;
    case 'i':
      trad = "d4";
      break;
    case 'l':
      trad = "d8";
      break;
    case 'o':
      trad = "o2";
      break;
    case 's':
      trad = "d2";
      break;
    case 'x':
      trad = "x2";
      break;
    }
    if (trad)
      parse_type(c, trad, o.t, &o.nt);
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (!o.nt)
    parse_type(c, "o2", o.t, &o.nt);
  int lcm = 1;
  for (int k = 0; k < o.nt; k++) { /* sizes are 1, 2, 4, 8, 10, 12 or 16 */
    int a = lcm, b = o.t[k].size;
    while (b) {
      int r = a % b;
      a = b;
      b = r;
    }
    lcm = lcm / a * o.t[k].size;
  }
  if (o.width == 0 || o.width % lcm) {
    bi_error(c, "warning: invalid width %d; using %d instead", o.width, lcm);
    o.width = lcm;
  }
  for (int k = 0; k < o.nt; k++) {
    /* GNU sizes every field by the widest per-byte field of any type. */
    int lc = o.width / o.t[k].size * o.t[k].width;
    if (lc > o.line_chars)
      o.line_chars = lc;
  }
  int status = 0;
  unsigned char *block = mem_alloc(c->m, (size_t)o.width * 2);
  if (!block)
    return bi_error(c, "%s", bi_strerror(ENOMEM)), 1;
  o.prev = block + o.width;
  writer w;
  wr_init(&w, c->out);
  size_t have = 0;
  o.addr = skip;
  uint64_t skipped = 0, taken = 0;
  int cancel = 0;
  bi_inputs ins;
  bi_inputs_init(&ins, c, g.operands, g.noperands);
  for (stream *in; !w.err && taken < limit && (in = bi_inputs_next(&ins));) {
    reader r;
    rd_init(&r, c->m, in);
    rd_flush_to(&r, &w);
    unsigned char tmp[4096];
    for (;;) {
      long k = rd_read(&r, tmp, sizeof tmp);
      if (k < 0) {
        if (r.err == ECANCELED)
          cancel = 1;
        else
          tu_file_error(c, ins.name, r.err);
        status = 1;
        break;
      }
      if (k == 0)
        break;
      size_t pos = 0;
      if (skipped < skip) {
        uint64_t s = skip - skipped;
        pos = s < (uint64_t)k ? (size_t)s : (size_t)k;
        skipped += pos;
      }
      while (pos < (size_t)k && taken < limit && !w.err) {
        size_t want = (size_t)o.width - have;
        if (want > (size_t)k - pos)
          want = (size_t)k - pos;
        if (want > limit - taken)
          want = (size_t)(limit - taken);
        memcpy(block + have, tmp + pos, want);
        have += want;
        pos += want;
        taken += want;
        if (have == (size_t)o.width) {
          dump_block(&w, &o, block, have);
          have = 0;
        }
      }
      if (taken >= limit || w.err)
        break;
    }
    rd_free(&r);
    stream_unref(in);
    if (cancel)
      break;
  }
  status |= ins.status;
  if (!cancel && skipped < skip && !status) {
    bi_error(c, "cannot skip past end of combined input");
    status = 1;
  } else if (!cancel) {
    if (have)
      dump_block(&w, &o, block, have);
    if (o.radix != 'n') {
      put_addr(&w, &o, o.addr);
      wr_putc(&w, '\n');
    }
  }
  mem_free(c->m, block);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
