/*
 * hexdump.c - hexdump and hd as util-linux 2.38 has them: the files one
 * after the other as a single input, 16 bytes a line, shown in each of the
 * formats asked for (-b -c -C -d -o -x; 16-bit hex words when none is),
 * a line equal to the one before it replaced by '*' unless -v, and the
 * offset of the end on a line of its own. hd is hexdump -C.
 *
 * Only the built-in formats are offered: -e and -f (format strings) are
 * refused with a message.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_hexdump[] = "Usage: hexdump [OPTION]... [FILE]...";
const char bi_help_hexdump[] =
    "Show the bytes of the FILEs (one input, one after the other; standard\n"
    "input when there are none) 16 to a line, with the offset of each line.\n"
    "Without a format option, as 16-bit hexadecimal words.\n"
    "\n"
    "  -b, --one-byte-octal      bytes in octal\n"
    "  -c, --one-byte-char       bytes as characters (escapes or octal for\n"
    "                            the others)\n"
    "  -C, --canonical           hex bytes and the text beside them\n"
    "  -d, --two-bytes-decimal   16-bit words in unsigned decimal\n"
    "  -o, --two-bytes-octal     16-bit words in octal\n"
    "  -x, --two-bytes-hex       16-bit words in hexadecimal\n"
    "  -n, --length=LEN          show no more than LEN bytes\n"
    "  -s, --skip=OFFSET         leave out the first OFFSET bytes\n"
    "  -v, --no-squeezing        show every line, also repeated ones\n"
    "  -h, --help                print this summary and quit\n"
    "  -V, --version             print the version line and quit\n"
    "\n"
    "Several format options show each line once in every format. LEN and\n"
    "OFFSET may be hexadecimal (0x) or octal (0) and carry a unit: b 512,\n"
    "KiB/K 1024, KB 1000, MiB/M, MB, and so on.\n";
const char bi_usage_hd[] = "Usage: hd [OPTION]... [FILE]...";
const char bi_help_hd[] =
    "The same as hexdump -C: hex bytes and their text, 16 to a line.\n"
    "See hexdump --help for the options.\n";

enum { HX_DEFAULT, HX_B, HX_C, HX_CANON, HX_D, HX_O, HX_X };
enum { HX_MAXFMT = 8 };

typedef struct hx {
  bi_ctx *c;
  writer *w;
  int fmts[HX_MAXFMT];
  int nfmt;
  int squeeze;
  unsigned char prev[16];
  int have_prev, starred;
} hx;

/* The text of one unit: a byte (-b -c) or a 16-bit little-endian word. */
static void unit(int fmt, const unsigned char *p, size_t n, char *out) {
  unsigned v = n > 1 ? (unsigned)p[0] | (unsigned)p[1] << 8 : p[0];
  switch (fmt) {
  case HX_B:
    sprintf(out, "%03o ", p[0]);
    break;
  case HX_C: {
    unsigned char ch = p[0];
    const char *esc = tu_char_escape(ch);
    if (esc)
      sprintf(out, " %s ", esc);
    else if (ch >= 0x20 && ch < 0x7f)
      sprintf(out, "  %c ", ch);
    else
      sprintf(out, "%03o ", ch);
    break;
  }
  case HX_D:
    sprintf(out, "  %05u ", v);
    break;
  case HX_O:
    sprintf(out, " %06o ", v);
    break;
  case HX_X:
    sprintf(out, "   %04x ", v);
    break;
  default:
    sprintf(out, "%04x ", v);
    break;
  }
}

/* One line of up to 16 bytes at offset addr, in format fmt. */
static void line(hx *h, int fmt, uint64_t addr, const unsigned char *p,
                 size_t n) {
  writer *w = h->w;
  char tmp[64];
  if (fmt == HX_CANON) {
    char l[96];
    memset(l, ' ', sizeof l);
    int a = snprintf(l, sizeof l, "%08llx", (unsigned long long)addr);
    l[a] = ' ';
    for (size_t i = 0; i < n; i++) {
      size_t col = 10 + i * 3 + (i >= 8);
      sprintf(tmp, "%02x", p[i]);
      memcpy(l + col, tmp, 2);
    }
    size_t len = 60;
    l[len++] = '|';
    for (size_t i = 0; i < n; i++)
      l[len++] = (p[i] >= 0x20 && p[i] < 0x7f) ? (char)p[i] : '.';
    l[len++] = '|';
    l[len++] = '\n';
    wr_write(w, l, len);
    return;
  }
  int bytes = (fmt == HX_B || fmt == HX_C) ? 1 : 2;
  int units = 16 / bytes;
  wr_printf(w, "%07llx ", (unsigned long long)addr);
  size_t wid = 0;
  for (int u = 0; u < units; u++) {
    size_t at = (size_t)u * (size_t)bytes;
    if (at < n) {
      unit(fmt, p + at, n - at, tmp);
      wid = strlen(tmp);
    } else {
      memset(tmp, ' ', wid);
      tmp[wid] = 0;
    }
    if (u == units - 1)
      tmp[strlen(tmp) - 1] = 0; /* no space after the last unit */
    wr_puts(w, tmp);
  }
  wr_putc(w, '\n');
}

static void block(hx *h, uint64_t addr, const unsigned char *p, size_t n) {
  if (h->squeeze && n == 16 && h->have_prev && !memcmp(p, h->prev, 16)) {
    if (!h->starred)
      wr_puts(h->w, "*\n");
    h->starred = 1;
    return;
  }
  h->starred = 0;
  if (n == 16) {
    memcpy(h->prev, p, 16);
    h->have_prev = 1;
  }
  for (int i = 0; i < h->nfmt; i++)
    line(h, h->fmts[i], addr, p, n);
}

/* A LEN or OFFSET: strtoull base 0 with an optional unit. */
static int parse_num(const char *s, uint64_t *v) {
  char *e;
  errno = 0;
  if (*s == '-')
    return -1;
  unsigned long long n = strtoull(s, &e, 0);
  if (e == s || errno)
    return -1;
  if (*e) {
    uint64_t mul;
    char tmp[48];
    snprintf(tmp, sizeof tmp, "1%s", e);
    if (tu_parse_count(tmp, &mul))
      return -1;
    if (mul && n > UINT64_MAX / mul)
      return -1;
    n *= mul;
  }
  *v = n;
  return 0;
}

static int run(bi_ctx *c, int canon_only) {
  static const bi_opt opts[] = {{"one-byte-octal", 'b', BI_ARG_NONE},
                                {"one-byte-char", 'c', BI_ARG_NONE},
                                {"canonical", 'C', BI_ARG_NONE},
                                {"two-bytes-decimal", 'd', BI_ARG_NONE},
                                {"two-bytes-octal", 'o', BI_ARG_NONE},
                                {"two-bytes-hex", 'x', BI_ARG_NONE},
                                {"format", 'e', BI_ARG_REQUIRED},
                                {"format-file", 'f', BI_ARG_REQUIRED},
                                {"length", 'n', BI_ARG_REQUIRED},
                                {"skip", 's', BI_ARG_REQUIRED},
                                {"no-squeezing", 'v', BI_ARG_NONE},
                                {"help", 'h', BI_ARG_NONE},
                                {"version", 'V', BI_ARG_NONE},
                                {NULL, 0, 0}};
  hx h;
  memset(&h, 0, sizeof h);
  h.c = c;
  h.squeeze = 1;
  if (canon_only) /* hd: -C first, then what the options add */
    h.fmts[h.nfmt++] = HX_CANON;
  uint64_t length = UINT64_MAX, skip = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "bcCde:f:n:os:vxhV", opts);
  int ch;
  while ((ch = bi_getopt_next(&g)) != -1) {
    int f = -1;
    switch (ch) {
    case 'h':
      return bi_print_help(c);
    case 'V':
      return bi_print_version(c) ? 1 : 0;
    case 'b':
      f = HX_B;
      break;
    case 'c':
      f = HX_C;
      break;
    case 'C':
      f = HX_CANON;
      break;
    case 'd':
      f = HX_D;
      break;
    case 'o':
      f = HX_O;
      break;
    case 'x':
      f = HX_X;
      break;
    case 'e':
    case 'f':
      bi_error(c, "format strings (-%c) are not supported", ch);
      return 1;
    case 'n':
      if (parse_num(g.arg, &length)) {
        bi_error(c, "failed to parse length: '%s'", g.arg);
        return 1;
      }
      break;
    case 's':
      if (parse_num(g.arg, &skip)) {
        bi_error(c, "failed to parse offset: '%s'", g.arg);
        return 1;
      }
      break;
    case 'v':
      h.squeeze = 0;
      break;
    default:
      return 1;
    }
    if (f >= 0 && h.nfmt < HX_MAXFMT)
      h.fmts[h.nfmt++] = f;
  }
  if (h.nfmt == 0)
    h.fmts[h.nfmt++] = HX_DEFAULT;
  writer w;
  wr_init(&w, c->out);
  h.w = &w;
  static char *dash[] = {"-", NULL};
  char **files = g.noperands ? g.operands : dash;
  int nfiles = g.noperands ? g.noperands : 1, failed = 0, status = 0;
  unsigned char line_buf[16];
  size_t have = 0;
  uint64_t addr = 0, shown = 0;
  for (int i = 0; i < nfiles && !w.err && shown < length; i++) {
    int err = 0;
    stream *in = bi_open_read(c, files[i], &err);
    if (!in) {
      wr_flush(&w);
      tu_file_error_raw(c, files[i], err);
      failed++;
      status = 1;
      continue;
    }
    reader r;
    rd_init(&r, c->m, in);
    rd_flush_to(&r, &w);
    unsigned char tmp[16384];
    long k = 0;
    while (shown < length && !w.err && (k = rd_read(&r, tmp, sizeof tmp)) > 0) {
      if (budget_poll(c->bud)) {
        k = -1;
        r.err = ECANCELED;
        break;
      }
      size_t n = (size_t)k, pos = 0;
      if (skip) {
        size_t s = skip < n ? (size_t)skip : n;
        skip -= s;
        pos = s;
        addr += s;
      }
      while (pos < n && shown < length) {
        size_t take = 16 - have;
        if (take > n - pos)
          take = n - pos;
        if (take > length - shown)
          take = (size_t)(length - shown);
        memcpy(line_buf + have, tmp + pos, take);
        have += take;
        pos += take;
        shown += take;
        if (have == 16) {
          block(&h, addr, line_buf, 16);
          addr += 16;
          have = 0;
        }
      }
    }
    if (k < 0) {
      if (r.err != ECANCELED) {
        wr_flush(&w);
        tu_file_error_raw(c, files[i], r.err);
      }
      status = 1;
    }
    rd_free(&r);
    stream_unref(in);
    if (k < 0 && r.err == ECANCELED)
      break;
  }
  if (have) {
    block(&h, addr, line_buf, have);
    addr += have;
  }
  if (addr)
    wr_printf(&w, h.fmts[h.nfmt - 1] == HX_CANON ? "%08llx\n" : "%07llx\n",
              (unsigned long long)addr);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  if (failed && failed == nfiles) {
    bi_error(c, "all input file arguments failed");
    return 1;
  }
  return status;
}

int bi_hexdump(bi_ctx *c) {
  return run(c, 0);
}

int bi_hd(bi_ctx *c) {
  return run(c, 1);
}
