/*
 * iconv.c - glibc 2.36's iconv: convert text from one character set to
 * another (the codecs are in codec.c, //TRANSLIT in translit.c).
 *
 * Each input is read whole and converted as glibc's iconv program does:
 * a byte sequence that is not a character of the source set, or a
 * character the target set lacks, stops everything with "illegal input
 * sequence at position N" (N counted from the start of that input) after
 * what came before it was written; -c drops them instead, //IGNORE drops
 * them and reports the end of the input at the end, //TRANSLIT writes a
 * replacement (or '?'). A character cut short at the end of an input
 * gives "incomplete character or shift sequence at end of buffer". A file
 * that cannot be opened is reported and skipped. Exit status 1 on any of
 * these, 64 on a usage error.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "builtins/text/iconv/iconv.h"
#include "builtins/textutil.h"

const char bi_usage_iconv[] = "Usage: iconv [OPTION...] [FILE...]";
const char bi_help_iconv[] =
    "Convert the text of each FILE (standard input without one, or with -)\n"
    "from one character set to another.\n"
    "\n"
    " Character sets:\n"
    "  -f, --from-code=NAME       the set the input is in\n"
    "  -t, --to-code=NAME         the set to write; NAME//TRANSLIT replaces\n"
    "                             a character the set lacks by a look-alike\n"
    "                             (or '?'), NAME//IGNORE drops it\n"
    "  -l, --list                 list the sets known here and quit\n"
    "\n"
    " Output:\n"
    "  -c                         drop what cannot be converted, quietly\n"
    "  -o, --output=FILE          write to FILE instead of standard output\n"
    "  -s, --silent               accepted; messages are printed anyway, as\n"
    "                             glibc's iconv does\n"
    "      --verbose              name each FILE on standard error first\n"
    "\n"
    "      --help                 print this summary and quit\n"
    "      --usage                print the short usage and quit\n"
    "  -V, --version              print the version line and quit\n"
    "\n"
    "Without -f or -t the set of the locale is used (UTF-8 in a UTF-8 "
    "locale,\nANSI_X3.4-1968 otherwise). Known sets: UTF-8, UTF-16, "
    "UTF-16LE/BE, UTF-32,\nUTF-32LE/BE, UCS-2, UCS-4, ISO-8859-1 (LATIN1), "
    "ISO-8859-15, WINDOWS-1252\nand ASCII, under glibc's names and "
    "aliases in any case. The conversions are\nbuilt in: no converter "
    "module is loaded from the host.\n";

static const char usage_text[] =
    "Usage: iconv [-lcs?V] [-f NAME] [-t NAME] [-o FILE] [--from-code=NAME]\n"
    "            [--to-code=NAME] [--list] [--output=FILE] [--silent] "
    "[--verbose]\n"
    "            [--help] [--usage] [--version] [FILE...]\n";

enum { OPT_VERBOSE = 0x100, OPT_USAGE };

typedef struct ic_job {
  bi_ctx *c;
  iconv_cs from, to;
  int translit, ignore, omit, utf8;
  const char *outname;
  stream *out; /* opened at the first write with -o */
  writer w;
  int opened, out_err;
  uint64_t written; /* bytes of output so far */
} ic_job;

/* A name with its //suffixes: the set, and the suffixes seen. */
static int parse_code(const char *name, int *translit, int *ignore) {
  const char *slash = strchr(name, '/');
  size_t len = slash ? (size_t)(slash - name) : strlen(name);
  /* "ISO-10646/UTF-8/" names a set with a slash inside */
  if (slash && slash[1] && slash[1] != '/') {
    const char *end = strchr(slash + 1, '/');
    size_t l2 = end ? (size_t)(end - name) : strlen(name);
    int cs = iconv_cs_lookup(name, l2);
    if (cs >= 0) {
      len = l2;
      slash = end;
    }
  }
  int cs = iconv_cs_lookup(name, len);
  for (const char *p = slash; p && *p;) {
    while (*p == '/' || *p == ',')
      p++;
    size_t n = strcspn(p, "/,");
    if (translit && n == 8 && strncasecmp(p, "TRANSLIT", 8) == 0)
      *translit = 1;
    if (ignore && n == 6 && strncasecmp(p, "IGNORE", 6) == 0)
      *ignore = 1;
    p += n;
  }
  return cs;
}

/* Output, through -o's file once it is open. 0, or -1 when it failed. */
static int put(ic_job *j, const void *p, size_t n) {
  if (!j->opened) {
    j->opened = 1;
    if (j->outname) {
      int err = 0;
      j->out = tu_open_write(j->c, j->outname, 0, &err);
      if (!j->out) {
        bi_error(j->c, "cannot open output file: %s", bi_strerror(err));
        j->out_err = 1;
        return -1;
      }
    } else {
      j->out = stream_ref(j->c->out);
    }
    wr_init(&j->w, j->out);
  }
  if (j->out_err)
    return -1;
  j->written += n;
  wr_write(&j->w, p, n);
  return j->w.err ? -1 : 0;
}

enum { R_OK = 0, R_SOFT = 1, R_STOP = -1 };

/* Convert one input. R_OK, R_SOFT (status 1, go on) or R_STOP. */
static int convert(ic_job *j, const unsigned char *p, size_t n) {
  bi_ctx *c = j->c;
  iconv_dec d = {j->from, 0, 0};
  int bom_done = 0, ignored = 0;
  int enc_ignored = 0;
  int ucs_in = j->from == ICS_UCS2BE || j->from == ICS_UCS4 ||
               j->from == ICS_UCS4LE || j->from == ICS_UCS4BE ||
               j->from == ICS_WCHAR;
  uint64_t before = j->written;
  unsigned char o[8];
  char tmp[64];
  size_t i = 0;
  unsigned count = 0;
  while (i < n) {
    if ((++count & 4095) == 0 && budget_poll(c->bud))
      return R_STOP;
    uint32_t cp;
    size_t len;
    int r = iconv_decode(&d, p + i, n - i, &cp, &len);
    if (r == ICONV_INCOMPLETE) {
      /* characters the target lacks, dropped by //IGNORE, are told
       * first; bytes the source could not read are not */
      if (enc_ignored && j->ignore && !j->omit)
        bi_error(c, "illegal input sequence at position %zu", i);
      else
        bi_error(c, "incomplete character or shift sequence at end of "
                    "buffer");
      return R_STOP;
    }
    if (r == ICONV_ILLEGAL) {
      if (j->omit || j->ignore) {
        /* glibc's UCS-2BE and UCS-4 readers skip without keeping count */
        if (!ucs_in)
          ignored = 1;
        i += len;
        continue;
      }
      bi_error(c, "illegal input sequence at position %zu", i);
      return R_STOP;
    }
    if (cp == UINT32_MAX) { /* the BOM of UTF-16 or UTF-32 */
      i += len;
      continue;
    }
    if (!bom_done) {
      bom_done = 1;
      size_t b = iconv_bom(j->to, o);
      if (b && put(j, o, b))
        return R_STOP;
    }
    size_t k = iconv_encode(j->to, cp, o);
    if (k) {
      if (put(j, o, k))
        return R_STOP;
    } else if (j->translit) {
      const char *s = iconv_translit(cp, j->utf8, j->to, tmp);
      if (!s)
        s = "?";
      for (; *s; s++) {
        uint32_t u = (unsigned char)*s;
        if (u == 0x80) { /* a code point of the target set */
          u = (uint32_t)(unsigned char)s[1] << 16 |
              (uint32_t)(unsigned char)s[2] << 8 | (unsigned char)s[3];
          s += 3;
        }
        k = iconv_encode(j->to, u, o);
        if (put(j, o, k))
          return R_STOP;
      }
    } else if (j->omit || j->ignore) {
      ignored = enc_ignored = 1;
    } else {
      bi_error(c, "illegal input sequence at position %zu", i);
      return R_STOP;
    }
    i += len;
  }
  if (ignored && !j->omit) {
    bi_error(c, "illegal input sequence at position %zu", n);
    return R_STOP;
  }
  /* glibc's -c fails, without a word, an input of which nothing was
   * written */
  return ignored && j->written == before ? R_SOFT : R_OK;
}

/* One input by name ("-" is stdin). */
static int convert_file(ic_job *j, const char *name) {
  bi_ctx *c = j->c;
  int err = 0;
  stream *s = bi_open_read(c, name, &err);
  if (!s) {
    if (err == EISDIR) {
      bi_error(c, "error while reading the input: %s", bi_strerror(err));
      return R_STOP;
    }
    bi_error(c, "cannot open input file `%s': %s", name, bi_strerror(err));
    return R_SOFT;
  }
  const char *data;
  size_t len;
  buf copy;
  buf_init(&copy, c->m);
  int r;
  if (tu_slurp(c, s, &data, &len, &copy, &err)) {
    if (err != ECANCELED)
      bi_error(c, "error while reading the input: %s", bi_strerror(err));
    r = R_STOP;
  } else {
    r = convert(j, (const unsigned char *)data, len);
  }
  buf_free(&copy);
  stream_unref(s);
  return r;
}

static int list_sets(bi_ctx *c) {
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; iconv_cs_names[i]; i++) {
    wr_puts(&w, iconv_cs_names[i]);
    wr_putc(&w, '\n');
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return 0;
}

/* glibc's argp words its hint after a usage error its own way. */
static void argp_hint(bi_ctx *c) {
  stream_printf(c->err,
                "Try `%s --help' or `%s --usage' for more information.\n",
                c->argv[0], c->argv[0]);
}

int bi_iconv(bi_ctx *c) {
  static const bi_opt opts[] = {{"from-code", 'f', BI_ARG_REQUIRED},
                                {"to-code", 't', BI_ARG_REQUIRED},
                                {"list", 'l', BI_ARG_NONE},
                                {"output", 'o', BI_ARG_REQUIRED},
                                {"silent", 's', BI_ARG_NONE},
                                {"verbose", OPT_VERBOSE, BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"usage", OPT_USAGE, BI_ARG_NONE},
                                {"version", 'V', BI_ARG_NONE},
                                {NULL, 0, 0}};
  const char *from = NULL, *to = NULL;
  int list = 0, verbose = 0, ch;
  ic_job j;
  memset(&j, 0, sizeof j);
  j.c = c;
  bi_getopt g;
  bi_getopt_init(&g, c, "f:t:lco:sV", opts);
  g.hint = argp_hint;
  while ((ch = bi_getopt_next(&g)) != -1 && ch != '?') {
    switch (ch) {
    case 'f':
      from = g.arg;
      break;
    case 't':
      to = g.arg;
      break;
    case 'l':
      list = 1;
      break;
    case 'c':
      j.omit = 1;
      break;
    case 'o':
      j.outname = g.arg;
      break;
    case 's':
      break;
    case OPT_VERBOSE:
      verbose = 1;
      break;
    default: /* --help, --usage and --version end the parse */
      goto parsed;
    }
  }
parsed:
  if (ch == '?')
    return 64; /* argp's status for a usage error */
  if (ch == BI_OPT_HELP)
    return bi_print_help(c);
  if (ch == OPT_USAGE) {
    if (stream_puts(c->out, usage_text) < 0)
      return bi_stream_status(c->out->err);
    return 0;
  }
  if (ch == 'V') {
    if (stream_printf(c->out, "%s (GNU libc compatible; vsh) 2.36\n",
                      c->argv[0]) < 0)
      return bi_stream_status(c->out->err);
    return 0;
  }
  if (list)
    return list_sets(c);

  j.utf8 = tu_utf8_locale(c);
  const char *deflt = j.utf8 ? "UTF-8" : "ANSI_X3.4-1968";
  int fcs = parse_code(from && *from ? from : deflt, NULL, NULL);
  int tcs = parse_code(to && *to ? to : deflt, &j.translit, &j.ignore);
  if (fcs < 0 || tcs < 0) {
    /* glibc 2.36 says no more than this (its errno is lost) */
    bi_error(c, "failed to start conversion processing");
    return 1;
  }
  j.from = (iconv_cs)fcs;
  j.to = (iconv_cs)tcs;

  int status = 0;
  if (g.noperands == 0) {
    if (convert_file(&j, "-") != R_OK)
      status = 1;
  }
  for (int i = 0; i < g.noperands; i++) {
    if (verbose)
      stream_printf(c->err, "%s:\n", g.operands[i]);
    int r = convert_file(&j, g.operands[i]);
    if (r != R_OK)
      status = 1;
    if (r == R_STOP)
      break;
  }
  if (j.opened && !j.out_err) {
    if (wr_flush(&j.w)) {
      int e = j.w.err;
      stream_unref(j.out);
      if (e == ECANCELED)
        return 1;
      if (e == EPIPE)
        return 141;
      bi_error(c, "unable to write output: %s", bi_strerror(e));
      return 1;
    }
  }
  if (j.out)
    stream_unref(j.out);
  if (j.out_err)
    return 1;
  return status;
}
