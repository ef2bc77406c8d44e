/*
 * tr.c - GNU tr: bytes in, bytes out (GNU tr is not multibyte aware).
 *
 * Each operand is expanded into a list of bytes, remembering where the
 * [:upper:]/[:lower:] classes sit (they must line up for case mapping) and
 * where a [c*] fill goes in string2. Then a 256-entry table does the work:
 * translate, delete, squeeze, over 64 KiB chunks.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_tr[] = "Usage: tr [OPTION]... STRING1 [STRING2]";
const char bi_help_tr[] =
    "Read standard input, change, squeeze or remove characters in it, and "
    "write\n"
    "the result to standard output. STRING1 and STRING2 describe two "
    "character\n"
    "lists, ARRAY1 and ARRAY2, which drive the change.\n"
    "\n"
    "  -c, -C, --complement    work on every character NOT in ARRAY1\n"
    "  -d, --delete            remove the characters of ARRAY1 (no "
    "translation)\n"
    "  -s, --squeeze-repeats   shrink each run of one repeated character from\n"
    "                            the last ARRAY given down to a single copy "
    "of\n"
    "                            that character\n"
    "  -t, --truncate-set1     cut ARRAY1 down to the length of ARRAY2 before\n"
    "                            translating\n"
    "      --help              print this summary and quit\n"
    "      --version           print the version line and quit\n"
    "\n"
    "An ARRAY is written as a string; most characters stand for themselves.\n"
    "These forms have a special meaning:\n"
    "\n"
    "  \\NNN            the character whose octal code is NNN (1 to 3 digits)\n"
    "  \\\\              a backslash\n"
    "  \\a              the BEL (alert) character\n"
    "  \\b              backspace\n"
    "  \\f              form feed\n"
    "  \\n              newline\n"
    "  \\r              carriage return\n"
    "  \\t              TAB\n"
    "  \\v              vertical TAB\n"
    "  CHAR1-CHAR2     the range from CHAR1 up to CHAR2\n"
    "  [CHAR*]         (ARRAY2 only) CHAR repeated until ARRAY2 is as long as\n"
    "                    ARRAY1\n"
    "  [CHAR*REPEAT]   CHAR written REPEAT times; a REPEAT with a leading 0 "
    "is\n"
    "                    octal\n"
    "  [:alnum:]       any letter or digit\n"
    "  [:alpha:]       any letter\n"
    "  [:blank:]       a space or a TAB\n"
    "  [:cntrl:]       any control character\n"
    "  [:digit:]       0 to 9\n"
    "  [:graph:]       visible characters (space not included)\n"
    "  [:lower:]       any lowercase letter\n"
    "  [:print:]       visible characters and the space\n"
    "  [:punct:]       any punctuation mark\n"
    "  [:space:]       whitespace of any kind, including newline\n"
    "  [:upper:]       any uppercase letter\n"
    "  [:xdigit:]      0 to 9, A to F and a to f\n"
    "  [=CHAR=]        CHAR and whatever the locale counts as the same\n"
    "                    character\n"
    "\n"
    "tr translates when both STRING1 and STRING2 are given and -d is not; -t\n"
    "only makes sense then. A short ARRAY2 is padded with copies of its last\n"
    "character, and any extra characters at its end go unused. The order in\n"
    "which a class expands is not defined, except that [:lower:] and "
    "[:upper:]\n"
    "can face each other to convert case. Squeezing is done last, after any\n"
    "translation or removal.\n";

/* An expanded operand. */
typedef struct tset {
  unsigned char *b; /* bytes */
  size_t n, cap;
  /* positions of [:upper:]/[:lower:] (start offset, 'u' or 'l') */
  struct {
    size_t at;
    char kind;
  } cls[16];
  int ncls;
  int other_class; /* a class other than upper/lower appeared */
  long fill_at;    /* offset of a [c*] fill, -1 if none */
  unsigned char fill_ch;
  int repeat_seen; /* any [c*n] */
} tset;

static int push(bi_ctx *c, tset *s, unsigned char ch) {
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 64;
    unsigned char *nb = mem_realloc(c->m, s->b, nc);
    if (!nb)
      return -1;
    s->b = nb;
    s->cap = nc;
  }
  s->b[s->n++] = ch;
  return 0;
}

/* GNU's complaint about the N of a [c*N] that is not a number. */
static void bad_repeat(bi_ctx *c, const char *num, size_t n) {
  const char *q = arena_strndup(c->scratch, num, n);
  bi_error(c, "invalid repeat count %s in [c*n] construct",
           tu_quote(c, q ? q : ""));
}

/* One possibly escaped character at str[*i]. */
static unsigned char one_char(bi_ctx *c, const char *str, size_t len,
                              size_t *i) {
  unsigned char ch = (unsigned char)str[*i];
  if (ch != '\\') {
    (*i)++;
    return ch;
  }
  if (*i + 1 >= len) {
    bi_error(c, "warning: an unescaped backslash at end of string is not "
                "portable");
    (*i)++;
    return '\\';
  }
  unsigned char e = (unsigned char)str[*i + 1];
  *i += 2;
  int lit = tu_escape_char(e);
  if (lit >= 0)
    return (unsigned char)lit;
  if (e >= '0' && e <= '7') {
    unsigned v = (unsigned)(e - '0');
    for (int k = 0; k < 2 && *i < len && str[*i] >= '0' && str[*i] <= '7';
         k++) {
      unsigned nv = v * 8 + (unsigned)(str[*i] - '0');
      if (nv > 0377) {
        bi_error(c,
                 "warning: the ambiguous octal escape \\%o%c is being\n"
                 "\tinterpreted as the 2-byte sequence \\0%o, %c",
                 v, str[*i], v, str[*i]);
        break;
      }
      v = nv;
      (*i)++;
    }
    return (unsigned char)v;
  }
  return e;
}

/* Only space and tab, whatever the locale says. */
static int is_blank(int ch) {
  return ch == ' ' || ch == '\t';
}

/* Whether ch is in the class name[0..n): 1 or 0, -1 for an unknown class. */
static int class_match(const char *name, size_t n, int ch) {
  static const struct {
    const char *name;
    int (*in)(int);
  } classes[] = {{"alnum", isalnum}, {"alpha", isalpha}, {"blank", is_blank},
                 {"cntrl", iscntrl}, {"digit", isdigit}, {"graph", isgraph},
                 {"lower", islower}, {"print", isprint}, {"punct", ispunct},
                 {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit}};
  for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++)
    if (strlen(classes[k].name) == n && memcmp(name, classes[k].name, n) == 0)
      return classes[k].in(ch);
  return -1;
}

/* Expand an operand. 0, or -1 with the message printed. */
static int expand(bi_ctx *c, const char *str, tset *s, int is2) {
  size_t len = strlen(str), i = 0;
  s->fill_at = -1;
  while (i < len) {
    if (str[i] == '[' && i + 1 < len) {
      /* [:class:] or [=c=] */
      if (str[i + 1] == ':' || str[i + 1] == '=') {
        char d = str[i + 1];
        const char *close = NULL;
        for (size_t j = i + 2; j + 1 < len; j++)
          if (str[j] == d && str[j + 1] == ']') {
            close = str + j;
            break;
          }
        if (close) {
          const char *name = str + i + 2;
          size_t nl = (size_t)(close - name);
          if (d == ':') {
            if (class_match(name, nl, 'a') < 0) {
              const char *q = arena_strndup(c->scratch, name, nl);
              bi_error(c, "invalid character class %s",
                       tu_quote(c, q ? q : ""));
              return -1;
            }
            int ul = (nl == 5 && (memcmp(name, "upper", 5) == 0 ||
                                  memcmp(name, "lower", 5) == 0));
            if (ul && s->ncls < 16) {
              s->cls[s->ncls].at = s->n;
              s->cls[s->ncls++].kind = name[0] == 'u' ? 'u' : 'l';
            } else if (!ul) {
              s->other_class = 1;
            }
            for (int ch = 0; ch < 256; ch++)
              if (class_match(name, nl, ch) > 0 &&
                  push(c, s, (unsigned char)ch))
                return -1;
            i = (size_t)(close - str) + 2;
            continue;
          }
          if (nl >= 1) { /* [=c=]: c itself (no locale equivalences) */
            size_t k = 0;
            unsigned char ch = one_char(c, name, nl, &k);
            if (k == nl) {
              if (push(c, s, ch))
                return -1;
              i = (size_t)(close - str) + 2;
              continue;
            }
          }
        }
      }
      /* [c*n] or [c*] */
      size_t k = i + 1;
      if (k < len) {
        unsigned char ch = one_char(c, str, len, &k);
        if (k < len && str[k] == '*') {
          size_t e = k + 1;
          while (e < len && str[e] != ']')
            e++;
          if (e < len) {
            for (size_t q = k + 1; q < e; q++)
              if (!isdigit((unsigned char)str[q])) {
                bad_repeat(c, str + k + 1, e - (k + 1));
                return -1;
              }
            if (!is2) {
              bi_error(c, "the [c*] repeat construct may not appear in "
                          "string1");
              return -1;
            }
            const char *num = str + k + 1;
            size_t nd = e - (k + 1);
            unsigned long long cnt = 0;
            int base = (nd && num[0] == '0') ? 8 : 10;
            for (size_t q = 0; q < nd; q++) {
              int dv = num[q] - '0';
              if (dv < base)
                cnt = cnt * (unsigned)base + (unsigned)dv;
              if (dv >= base || cnt > 100000000) {
                bad_repeat(c, num, nd);
                return -1;
              }
            }
            if (cnt == 0) {
              if (s->fill_at >= 0) {
                bi_error(c, "only one [c*] repeat construct may appear in "
                            "string2");
                return -1;
              }
              s->fill_at = (long)s->n;
              s->fill_ch = ch;
            } else {
              s->repeat_seen = 1;
              for (unsigned long long q = 0; q < cnt; q++)
                if (push(c, s, ch))
                  return -1;
            }
            i = e + 1;
            continue;
          }
        }
      }
    }
    size_t st = i;
    unsigned char lo = one_char(c, str, len, &i);
    if (i + 1 < len && str[i] == '-') {
      size_t k = i + 1;
      unsigned char hi = one_char(c, str, len, &k);
      if (hi < lo) {
        bi_error(c,
                 "range-endpoints of '%.*s' are in reverse collating "
                 "sequence order",
                 (int)(k - st), str + st);
        return -1;
      }
      for (int ch = lo; ch <= hi; ch++)
        if (push(c, s, (unsigned char)ch))
          return -1;
      i = k;
      continue;
    }
    if (push(c, s, lo))
      return -1;
  }
  return 0;
}

int bi_tr(bi_ctx *c) {
  static const bi_opt opts[] = {{"complement", 'c', BI_ARG_NONE},
                                {"delete", 'd', BI_ARG_NONE},
                                {"squeeze-repeats", 's', BI_ARG_NONE},
                                {"truncate-set1", 't', BI_ARG_NONE},
                                BI_OPTS_END};
  int comp = 0, del = 0, sq = 0, trunc = 0, ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "cCdst", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'c':
    case 'C':
      comp = 1;
      break;
    case 'd':
      del = 1;
      break;
    case 's':
      sq = 1;
      break;
    case 't':
      trunc = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  int n = g.noperands;
  int translating = !del && n >= 2;
  int min = (del && sq) || (!del && !sq) ? 2 : 1;
  int max = (del && !sq) ? 1 : 2;
  if (n < min) {
    if (n == 0) {
      bi_error(c, "missing operand");
    } else {
      bi_error(c, "missing operand after %s", tu_quote(c, g.operands[0]));
      stream_puts(c->err, del ? "Two strings must be given when both "
                                "deleting and squeezing repeats.\n"
                              : "Two strings must be given when "
                                "translating.\n");
    }
    bi_try_help(c);
    return 1;
  }
  if (n > max) {
    bi_error(c, "extra operand %s", tu_quote(c, g.operands[max]));
    if (del && !sq)
      stream_puts(c->err, "Only one string may be given when deleting "
                          "without squeezing repeats.\n");
    bi_try_help(c);
    return 1;
  }
  tset s1, s2;
  memset(&s1, 0, sizeof s1);
  memset(&s2, 0, sizeof s2);
  int rc = 1;
  if (expand(c, g.operands[0], &s1, 0))
    goto out;
  if (n == 2 && expand(c, g.operands[1], &s2, 1))
    goto out;
  if (comp) { /* the complement, in ascending byte order */
    unsigned char in1[256] = {0};
    for (size_t i = 0; i < s1.n; i++)
      in1[s1.b[i]] = 1;
    s1.n = 0;
    s1.ncls = 0;
    for (int b = 0; b < 256; b++)
      if (!in1[b] && push(c, &s1, (unsigned char)b))
        goto out;
  }
  unsigned char map[256];
  for (int b = 0; b < 256; b++)
    map[b] = (unsigned char)b;
  if (translating) {
    if (s2.other_class) {
      bi_error(c, "when translating, the only character classes that may "
                  "appear in\nstring2 are 'upper' and 'lower'");
      goto out;
    }
    if (trunc && s1.n > s2.n)
      s1.n = s2.n;
    if (s2.fill_at >= 0) { /* [c*]: fill string2 up to string1's length */
      size_t need = s1.n > s2.n ? s1.n - s2.n : 0;
      size_t at = (size_t)s2.fill_at;
      for (size_t k = 0; k < need; k++)
        if (push(c, &s2, 0))
          goto out;
      memmove(s2.b + at + need, s2.b + at, s2.n - need - at);
      memset(s2.b + at, s2.fill_ch, need);
      for (int k = 0; k < s2.ncls; k++)
        if (s2.cls[k].at >= at)
          s2.cls[k].at += need;
    }
    /* Case classes of string2 must face a case class of string1. */
    for (int k = 0; k < s2.ncls; k++) {
      int ok = 0;
      for (int j = 0; j < s1.ncls; j++)
        if (s1.cls[j].at == s2.cls[k].at)
          ok = 1;
      if (!ok) {
        bi_error(c, "misaligned [:upper:] and/or [:lower:] construct");
        goto out;
      }
    }
    if (s2.n == 0 && s1.n > 0) {
      bi_error(c, "when not truncating set1, string2 must be non-empty");
      goto out;
    }
    for (size_t i = 0; i < s1.n; i++)
      map[s1.b[i]] = s2.b[i < s2.n ? i : s2.n - 1];
  }
  unsigned char delset[256] = {0}, sqset[256] = {0};
  if (del)
    for (size_t i = 0; i < s1.n; i++)
      delset[s1.b[i]] = 1;
  if (sq) {
    const tset *last = n == 2 ? &s2 : &s1;
    for (size_t i = 0; i < last->n; i++)
      sqset[last->b[i]] = 1;
  }
  /* The filter itself. */
  {
    writer w;
    wr_init(&w, c->out);
    char *in = mem_alloc(c->m, 65536);
    char *outb = mem_alloc(c->m, 65536);
    if (!in || !outb) {
      mem_free(c->m, in);
      mem_free(c->m, outb);
      goto out;
    }
    int last = -1;
    rc = 0;
    for (;;) {
      long k = wr_flush_read(&w, c->in, in, 65536);
      if (k < 0) {
        if (c->in->err != ECANCELED)
          bi_error(c, "read error: %s", bi_strerror(c->in->err));
        rc = 1;
        break;
      }
      if (k == 0)
        break;
      size_t o = 0;
      for (long i = 0; i < k; i++) {
        unsigned char b = (unsigned char)in[i];
        if (delset[b])
          continue;
        b = map[b];
        if (sqset[b] && last == b)
          continue;
        last = b;
        outb[o++] = (char)b;
      }
      if (wr_write(&w, outb, o))
        break;
    }
    if (wr_flush(&w))
      rc = bi_stream_status(w.err);
    mem_free(c->m, in);
    mem_free(c->m, outb);
  }
out:
  mem_free(c->m, s1.b);
  mem_free(c->m, s2.b);
  return rc;
}
