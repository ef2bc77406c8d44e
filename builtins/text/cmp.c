/*
 * cmp.c - GNU cmp (diffutils 3.8): compare two files byte by byte.
 *
 * Prints the first difference ("A B differ: byte N, line L"), or with -l
 * every differing byte (offset and both values in octal), or nothing with
 * -s. A file that ends first is reported on stderr ("cmp: EOF on A after
 * byte N, in line L"). Exit status 0 same, 1 different, 2 trouble.
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_cmp[] = "Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 "
                            "[SKIP2]]]";
const char bi_help_cmp[] =
    "Compare two files byte by byte. FILE2 is standard input when left out\n"
    "(or -); SKIP1 and SKIP2 are byte counts to skip at the start of each.\n"
    "\n"
    "  -b, --print-bytes          show the differing bytes too\n"
    "  -i, --ignore-initial=SKIP  skip SKIP bytes of both inputs\n"
    "  -i, --ignore-initial=SKIP1:SKIP2  skip SKIP1 and SKIP2 bytes\n"
    "  -l, --verbose              list every differing byte\n"
    "  -n, --bytes=LIMIT          compare at most LIMIT bytes\n"
    "  -s, --quiet, --silent      print nothing; only the exit status says\n"
    "      --help                 print this summary and quit\n"
    "  -v, --version              print the version line and quit\n"
    "\n"
    "Exit status: 0 when the inputs are the same, 1 when they differ, 2 on\n"
    "trouble.\n";

/* A byte as cmp -b shows it: itself, ^X for controls, M- for high bytes. */
static void show_byte(char *out, unsigned char ch) {
  char *p = out;
  if (ch >= 128) {
    *p++ = 'M';
    *p++ = '-';
    ch -= 128;
  }
  if (ch < 32) {
    *p++ = '^';
    *p++ = (char)(ch + 64);
  } else if (ch == 127) {
    *p++ = '^';
    *p++ = '?';
  } else {
    *p++ = (char)ch;
  }
  *p = 0;
}

/* POSIX has cmp say "char" in the C locale; GNU says "byte" in others. */
static const char *byte_word(bi_ctx *c) {
  static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = c->getenv ? c->getenv(c, vars[i]) : NULL;
    if (v && *v)
      return strcmp(v, "C") && strcmp(v, "POSIX") ? "byte" : "char";
  }
  return "char";
}

static int bad_skip(bi_ctx *c, const char *s) {
  stream_printf(c->err, "%s: invalid --ignore-initial value '%s'\n", c->argv[0],
                s);
  stream_printf(c->err, "%s: ", c->argv[0]);
  bi_try_help(c);
  return 2;
}

int bi_cmp(bi_ctx *c) {
  static const bi_opt opts[] = {{"print-bytes", 'b', BI_ARG_NONE},
                                {"print-chars", 'b', BI_ARG_NONE},
                                {"ignore-initial", 'i', BI_ARG_REQUIRED},
                                {"verbose", 'l', BI_ARG_NONE},
                                {"bytes", 'n', BI_ARG_REQUIRED},
                                {"quiet", 's', BI_ARG_NONE},
                                {"silent", 's', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", 'v', BI_ARG_NONE},
                                {NULL, 0, 0}};
  int bytes = 0, verbose = 0, silent = 0, ch;
  uint64_t skip[2] = {0, 0}, limit = UINT64_MAX;
  bi_getopt g;
  bi_getopt_init(&g, c, "bci:ln:sv", opts);
  g.try_prefix = 1;
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'b':
    case 'c':
      bytes = 1;
      break;
    case 'i': {
      const char *colon = strchr(g.arg, ':');
      if (colon) {
        char *a = arena_strndup(c->scratch, g.arg, (size_t)(colon - g.arg));
        if (!a || tu_parse_count(a, &skip[0]) ||
            tu_parse_count(colon + 1, &skip[1]))
          return bad_skip(c, g.arg);
      } else {
        if (tu_parse_count(g.arg, &skip[0]))
          return bad_skip(c, g.arg);
        skip[1] = skip[0];
      }
      break;
    }
    case 'l':
      verbose = 1;
      break;
    case 'n':
      if (tu_parse_count(g.arg, &limit)) {
        stream_printf(c->err, "%s: invalid --bytes value '%s'\n", c->argv[0],
                      g.arg);
        stream_printf(c->err, "%s: ", c->argv[0]);
        bi_try_help(c);
        return 2;
      }
      break;
    case 's':
      silent = 1;
      break;
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
  }
  if (verbose && silent) {
    bi_error(c, "options -l and -s are incompatible");
    stream_printf(c->err, "%s: ", c->argv[0]);
    bi_try_help(c);
    return 2;
  }
  if (g.noperands == 0) {
    bi_error(c, "missing operand after '%s'", c->argv[c->argc - 1]);
    stream_printf(c->err, "%s: ", c->argv[0]);
    bi_try_help(c);
    return 2;
  }
  /* GNU checks the skips before counting operands */
  for (int i = 2; i < g.noperands && i < 4; i++)
    if (tu_parse_count(g.operands[i], &skip[i - 2]))
      return bad_skip(c, g.operands[i]);
  if (g.noperands > 4) {
    bi_error(c, "extra operand '%s'", g.operands[4]);
    stream_printf(c->err, "%s: ", c->argv[0]);
    bi_try_help(c);
    return 2;
  }
  const char *name[2] = {g.operands[0], g.noperands > 1 ? g.operands[1] : "-"};
  stream *in[2] = {NULL, NULL};
  buf copy[2];
  const char *d[2];
  size_t n[2];
  int status = 2;
  buf_init(&copy[0], c->m);
  buf_init(&copy[1], c->m);
  for (int i = 0; i < 2; i++) {
    int err = 0;
    in[i] = bi_open_read(c, name[i], &err);
    if (!in[i] || tu_slurp(c, in[i], &d[i], &n[i], &copy[i], &err)) {
      if (err != ECANCELED && !silent) /* -s: the status alone, as GNU */
        tu_file_error_raw(c, name[i], err);
      goto out;
    }
  }
  /* the compared parts */
  for (int i = 0; i < 2; i++) {
    uint64_t s = skip[i] < n[i] ? skip[i] : n[i];
    d[i] += s;
    n[i] -= (size_t)s;
  }
  size_t m0 = n[0] < n[1] ? n[0] : n[1];
  size_t m = m0;
  if (limit < m)
    m = (size_t)limit;
  writer w;
  wr_init(&w, c->out);
  int width = 1;
  for (uint64_t t = (limit < m0 ? limit : m0); t >= 10; t /= 10)
    width++;
  uint64_t line = 1;
  int differ = 0;
  size_t i = 0;
  for (; i < m && !w.err; i++) {
    if ((i & 65535) == 0 && budget_poll(c->bud))
      goto out_w;
    unsigned char a = (unsigned char)d[0][i], b = (unsigned char)d[1][i];
    if (a == b) {
      line += a == '\n';
      continue;
    }
    differ = 1;
    if (silent)
      break;
    if (!verbose) {
      wr_printf(&w, "%s %s differ: %s %zu, line %llu", name[0], name[1],
                bytes ? "byte" : byte_word(c), i + 1, (unsigned long long)line);
      if (bytes) {
        char sa[5], sb[5];
        show_byte(sa, a);
        show_byte(sb, b);
        wr_printf(&w, " is %3o %s %3o %s", a, sa, b, sb);
      }
      wr_putc(&w, '\n');
      break;
    }
    if (bytes) {
      char sa[5], sb[5];
      show_byte(sa, a);
      show_byte(sb, b);
      wr_printf(&w, "%*zu %3o %-4s %3o %s\n", width, i + 1, a, sa, b, sb);
    } else {
      wr_printf(&w, "%*zu %3o %3o\n", width, i + 1, a, b);
    }
  }
  status = differ;
  if ((!differ || verbose) && i == m && n[0] != n[1] && m == m0) {
    /* one input ended first */
    int shorter = n[0] < n[1] ? 0 : 1;
    wr_flush(&w);
    if (!silent) {
      if (m0 == 0)
        stream_printf(c->err, "%s: EOF on %s which is empty\n", c->argv[0],
                      name[shorter]);
      else if (verbose)
        stream_printf(c->err, "%s: EOF on %s after byte %zu\n", c->argv[0],
                      name[shorter], m0);
      else if (d[shorter][m0 - 1] == '\n') /* it ended at a line's end */
        stream_printf(c->err, "%s: EOF on %s after byte %zu, line %llu\n",
                      c->argv[0], name[shorter], m0,
                      (unsigned long long)line - 1);
      else
        stream_printf(c->err, "%s: EOF on %s after byte %zu, in line %llu\n",
                      c->argv[0], name[shorter], m0, (unsigned long long)line);
    }
    status = 1;
  }
out_w:
  if (wr_flush(&w))
    status = w.err == EPIPE ? 141 : 2;
out:
  for (int k = 0; k < 2; k++) {
    if (in[k])
      stream_unref(in[k]);
    buf_free(&copy[k]);
  }
  if (budget_poll(c->bud))
    return 2;
  return status;
}
