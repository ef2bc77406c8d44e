/*
 * uniq.c - GNU uniq: one pass, keeping only the first line of the current
 * group (and, for -D/--group, printing lines as they come).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_uniq[] = "Usage: uniq [OPTION]... [INPUT [OUTPUT]]";
const char bi_help_uniq[] =
    "Read INPUT (standard input when absent), drop repeats of a line that "
    "come\n"
    "straight after it, and write the rest to OUTPUT (standard output when\n"
    "absent).\n"
    "\n"
    "By default each group of equal neighbouring lines is reduced to its "
    "first\n"
    "line.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -c, --count           start each output line with its repeat count\n"
    "  -d, --repeated        print only lines that repeat, once per group\n"
    "  -D                    print every copy of each repeated line\n"
    "      --all-repeated[=METHOD]  as -D, optionally with a blank line\n"
    "                                 between groups;\n"
    "                                 METHOD={none(default),prepend,separate}\n"
    "  -f, --skip-fields=N   leave the first N fields out of the comparison\n"
    "      --group[=METHOD]  print every line, with a blank line between "
    "groups;\n"
    "                          METHOD={separate(default),prepend,append,both}\n"
    "  -i, --ignore-case     treat uppercase and lowercase as equal\n"
    "  -s, --skip-chars=N    leave the first N characters out of the "
    "comparison\n"
    "  -u, --unique          print only lines that do not repeat\n"
    "  -z, --zero-terminated records end with a NUL byte instead of a newline\n"
    "  -w, --check-chars=N   stop comparing after N characters\n"
    "      --help            print this summary and quit\n"
    "      --version         print the version line and quit\n"
    "\n"
    "A field is a stretch of blanks (spaces or TABs) followed by a stretch of\n"
    "other characters. Skipped fields are removed before skipped characters.\n"
    "\n"
    "Only lines that sit next to each other count as repeats: sort the input\n"
    "first (or just use 'sort -u') to catch repeats anywhere in it.\n";

typedef struct uopt {
  size_t skip_fields, skip_chars, check_chars; /* check 0: all */
  int icase, delim;
} uopt;

static void key_of(const uopt *o, const char *p, size_t n, const char **k,
                   size_t *kl) {
  const char *e = p + n;
  for (size_t f = 0; f < o->skip_fields && p < e; f++) {
    while (p < e && (*p == ' ' || *p == '\t'))
      p++;
    while (p < e && *p != ' ' && *p != '\t')
      p++;
  }
  size_t s = o->skip_chars < (size_t)(e - p) ? o->skip_chars : (size_t)(e - p);
  p += s;
  size_t l = (size_t)(e - p);
  if (o->check_chars && o->check_chars < l)
    l = o->check_chars;
  *k = p;
  *kl = l;
}

static int same(const uopt *o, const char *a, size_t al, const char *b,
                size_t bl) {
  if (al != bl)
    return 0;
  if (!o->icase)
    return memcmp(a, b, al) == 0;
  for (size_t i = 0; i < al; i++)
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
      return 0;
  return 1;
}

static int parse_n(bi_ctx *c, const char *a, size_t *v, const char *what) {
  uint64_t n;
  int r = tu_parse_count(a, &n);
  if (r == -1 || strpbrk(a, "bKMGTPEZYkiB")) {
    bi_error(c, "%s: %s", a, what);
    return -1;
  }
  *v = r == -2 || n > SIZE_MAX ? SIZE_MAX : (size_t)n;
  return 0;
}

int bi_uniq(bi_ctx *c) {
  enum { O_ALLREP = 0x100, O_GROUP };
  static const bi_opt opts[] = {{"count", 'c', BI_ARG_NONE},
                                {"repeated", 'd', BI_ARG_NONE},
                                {"all-repeated", O_ALLREP, BI_ARG_OPTIONAL},
                                {"skip-fields", 'f', BI_ARG_REQUIRED},
                                {"group", O_GROUP, BI_ARG_OPTIONAL},
                                {"ignore-case", 'i', BI_ARG_NONE},
                                {"skip-chars", 's', BI_ARG_REQUIRED},
                                {"unique", 'u', BI_ARG_NONE},
                                {"zero-terminated", 'z', BI_ARG_NONE},
                                {"check-chars", 'w', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  uopt o;
  memset(&o, 0, sizeof o);
  o.delim = '\n';
  int count = 0, rep = 0, uniq_only = 0, all = 0, ch;
  int allmode = 0; /* 0 none, 1 prepend, 2 separate */
  int zero_w = 0;
  int group = -1; /* -1 off, 0 separate, 1 prepend, 2 append, 3 both */
  bi_getopt g;
  bi_getopt_init(&g, c, "cdDf:is:uw:z", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'c':
      count = 1;
      break;
    case 'd':
      rep = 1;
      break;
    case 'D':
      all = 1;
      break;
    case O_ALLREP:
    case O_GROUP: {
      static const char *const am[] = {"none", "prepend", "separate", NULL};
      static const char *const gm[] = {"separate", "prepend", "append", "both",
                                       NULL};
      /* the order of GNU's list of valid arguments */
      static const char *const gshow[] = {"prepend", "append", "separate",
                                          "both", NULL};
      const char *const *m = ch == O_ALLREP ? am : gm;
      int hit = 0;
      if (g.arg) {
        hit = -1;
        for (int i = 0; m[i]; i++)
          if (strncmp(m[i], g.arg, strlen(g.arg)) == 0 && g.arg[0]) {
            if (hit >= 0 && strcmp(m[i], g.arg) != 0) {
              hit = -2;
              break;
            }
            hit = i;
          }
        if (hit < 0) {
          tu_bad_choice(c, hit == -2 ? "ambiguous" : "invalid",
                        ch == O_ALLREP ? "--all-repeated" : "--group", g.arg,
                        ch == O_ALLREP ? am : gshow);
          return 1;
        }
      }
      if (ch == O_ALLREP) {
        all = 1;
        allmode = hit;
      } else {
        group = hit;
      }
      break;
    }
    case 'f':
      if (parse_n(c, g.arg, &o.skip_fields, "invalid number of fields to skip"))
        return 1;
      break;
    case 's':
      if (parse_n(c, g.arg, &o.skip_chars, "invalid number of bytes to skip"))
        return 1;
      break;
    case 'w':
      if (parse_n(c, g.arg, &o.check_chars,
                  "invalid number of bytes to compare"))
        return 1;
      zero_w = o.check_chars == 0; /* nothing compared: all lines match */
      break;
    case 'i':
      o.icase = 1;
      break;
    case 'u':
      uniq_only = 1;
      break;
    case 'z':
      o.delim = 0;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands > 2)
    return tu_extra_operand(c, g.operands[2]);
  if (group >= 0 && (rep || all || uniq_only || count)) {
    bi_error(c, "--group is mutually exclusive with -c/-d/-D/-u");
    bi_try_help(c);
    return 1;
  }
  if (count && all) {
    bi_error(c, "printing all duplicated lines and repeat counts is "
                "meaningless");
    bi_try_help(c);
    return 1;
  }
  const char *inname = g.noperands >= 1 ? g.operands[0] : "-";
  int err = 0;
  stream *in = bi_open_read(c, inname, &err);
  if (!in) {
    tu_file_error(c, inname, err);
    return 1;
  }
  stream *out = c->out;
  if (g.noperands == 2 && strcmp(g.operands[1], "-") != 0) {
    out = tu_open_write(c, g.operands[1], 0, &err);
    if (!out) {
      tu_file_error(c, g.operands[1], err);
      stream_unref(in);
      return 1;
    }
  }
  writer w;
  wr_init(&w, out);
  reader r;
  rd_init(&r, c->m, in);
  rd_flush_to(&r, &w);
  buf prev;
  buf_init(&prev, c->m);
  /* GNU's model: a line is printed when it is known to be unique (count
   * 0), the last of a repeated group ("first repeated"), or a non-last
   * member of one ("later repeated"), each kind switched by the options. */
  int out_unique = !rep && !all, out_first = !uniq_only, out_later = all;
  /* Without options every group prints its first line: it can go out as
   * soon as it is read (as GNU does), not when the next line arrives. */
  int eager = out_unique && out_first && !out_later && !count && group < 0;
  int have = 0, rc = 0, k, first_delim = 1;
  unsigned long long n = 0; /* matches so far in the current group */
  const char *line;
  size_t len;
  char dl = (char)o.delim;
#define WRITELINE(match, cnt)                                                  \
  do {                                                                         \
    if ((cnt) == 0 ? out_unique : !(match) ? out_first : out_later) {          \
      if (count)                                                               \
        wr_printf(&w, "%7llu ", (cnt) + 1);                                    \
      wr_write(&w, prev.data, prev.len);                                       \
      wr_putc(&w, dl);                                                         \
    }                                                                          \
  } while (0)
  for (;;) {
    k = rd_record(&r, o.delim, &line, &len);
    if (k < 0) {
      if (r.err != ECANCELED)
        tu_file_error(c, inname, r.err);
      rc = 1;
      break;
    }
    if (k == 0)
      break;
    if (len && line[len - 1] == dl)
      len--;
    int match = 0;
    if (have) {
      const char *ka, *kb;
      size_t kal, kbl;
      key_of(&o, prev.data, prev.len, &ka, &kal);
      key_of(&o, line, len, &kb, &kbl);
      match = zero_w || same(&o, ka, kal, kb, kbl);
    }
    if (eager) {
      if (match)
        goto next; /* keep the group's first line */
      wr_write(&w, line, len);
      wr_putc(&w, dl);
    } else if (group >= 0) { /* every line, groups set apart */
      if (!match && ((have) || group == 1 || group == 3))
        wr_putc(&w, dl);
      wr_write(&w, line, len);
      wr_putc(&w, dl);
    } else if (have) {
      n += (unsigned long long)match;
      if (all && allmode) {
        if (!match) {
          if (n)
            first_delim = 0;
        } else if (n == 1 && (allmode == 1 || !first_delim)) {
          wr_putc(&w, dl);
        }
      }
      if (!match || out_later)
        WRITELINE(match, n);
      if (match && !out_later)
        goto next; /* keep the group's first line */
      if (!match)
        n = 0;
    }
    buf_clear(&prev);
    if (buf_append(&prev, line, len)) {
      rc = 1;
      break;
    }
    have = 1;
  next:
    if (w.err)
      break;
  }
  if (rc == 0 && have) {
    if (group >= 0) {
      if (group == 2 || group == 3)
        wr_putc(&w, dl);
    } else if (!eager) {
      WRITELINE(0, n);
    }
  }
#undef WRITELINE
  if (wr_flush(&w) && rc == 0)
    rc = bi_stream_status(w.err);
  rd_free(&r);
  buf_free(&prev);
  stream_unref(in);
  if (out != c->out)
    stream_unref(out);
  return rc;
}
