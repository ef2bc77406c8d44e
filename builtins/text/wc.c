/*
 * wc.c - GNU wc (coreutils 9.1 rules, UTF-8 or C locale).
 *
 * Lines and bytes alone are counted with memchr (or the file size); words,
 * characters and line width need a pass over the characters: ASCII through
 * a class table, the rest decoded by utf8proc. As in GNU 9.1, invalid bytes
 * are no characters and neither start nor end a word, non-printable
 * characters do not either, and Unicode spaces (no-break ones included)
 * separate words. Column width follows GNU: the digits of the summed sizes
 * of the regular files, at least 7 when a pipe or a special file is
 * counted, no padding for a single count of a single operand. In the C
 * locale a character is a byte, and bytes past ASCII are not printable.
 */
#include <errno.h>
#include <string.h>

#include <utf8proc.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"
#include "core/utf8.h"
#include "vfs/vfs.h"

const char bi_usage_wc[] = "Usage: wc [OPTION]... [FILE]...\n"
                           "  or:  wc [OPTION]... --files0-from=F";
const char bi_help_wc[] =
    "Count lines, words and bytes in each FILE and print the numbers, "
    "followed\n"
    "by a \"total\" line when more than one FILE is given. A word is a run of\n"
    "printable characters bounded by whitespace or by the ends of the input.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Pick counts with the options below; whatever the option order, they come\n"
    "out as: lines, words, characters, bytes, longest line.\n"
    "  -c, --bytes            the number of bytes\n"
    "  -m, --chars            the number of characters\n"
    "  -l, --lines            the number of newline characters\n"
    "      --files0-from=F    take the FILE names from file F, each ended by "
    "a\n"
    "                           NUL byte; an F of - means standard input\n"
    "  -L, --max-line-length  the display width of the widest line\n"
    "  -w, --words            the number of words\n"
    "      --help             print this summary and quit\n"
    "      --version          print the version line and quit\n";

typedef struct counts {
  uint64_t lines, words, chars, bytes, maxlen;
} counts;

typedef struct wcstate {
  counts n;
  uint64_t linepos;
  int in_word;
  int bytes; /* the C locale: every byte is a character */
} wcstate;

enum { C_PRINT = 0, C_NL, C_SEP, C_CR, C_TAB, C_SPACE, C_CTRL };

/* Class of each ASCII byte (C_PRINT is 0: the printable default). */
static const unsigned char ascii_class[128] = {
    [0 ... 8] = C_CTRL,   ['\t'] = C_TAB,  ['\n'] = C_NL,
    ['\v'] = C_SEP,       ['\f'] = C_CR,   ['\r'] = C_CR,
    [14 ... 31] = C_CTRL, [' '] = C_SPACE, [127] = C_CTRL};

static int uni_space(utf8proc_int32_t cp) {
  if (cp == 0x2060 || cp == 0x85)
    return 1;
  utf8proc_category_t cat = utf8proc_category(cp);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
         cat == UTF8PROC_CATEGORY_ZP;
}

static int uni_print(utf8proc_int32_t cp) {
  utf8proc_category_t cat = utf8proc_category(cp);
  return cat != UTF8PROC_CATEGORY_CC && cat != UTF8PROC_CATEGORY_CS &&
         cat != UTF8PROC_CATEGORY_CN;
}

/* Length a lead byte announces (0: not a lead byte). */
static size_t seq_len(unsigned char b) {
  if (b >= 0xC2 && b <= 0xDF)
    return 2;
  if (b >= 0xE0 && b <= 0xEF)
    return 3;
  if (b >= 0xF0 && b <= 0xF4)
    return 4;
  return 0;
}

/* Count the characters of p[0..n). Returns how many trailing bytes form
 * an incomplete character to carry into the next chunk (only when more
 * may come). */
static size_t count_chars(wcstate *s, const unsigned char *p, size_t n,
                          int more) {
  size_t i = 0;
  while (i < n) {
    unsigned char b = p[i];
    if (b < 0x80) {
      i++;
      s->n.chars++;
      switch (ascii_class[b]) {
      case C_PRINT:
        s->linepos++;
        s->in_word = 1;
        continue;
      case C_NL:
        s->n.lines++;
        if (s->linepos > s->n.maxlen)
          s->n.maxlen = s->linepos;
        s->linepos = 0;
        break;
      case C_CR:
        if (s->linepos > s->n.maxlen)
          s->n.maxlen = s->linepos;
        s->linepos = 0;
        break;
      case C_TAB:
        s->linepos += 8 - s->linepos % 8;
        break;
      case C_SPACE:
        s->linepos++;
        break;
      case C_SEP:
        break;
      default: /* other controls: no effect on words */
        continue;
      }
      s->n.words += (uint64_t)s->in_word;
      s->in_word = 0;
      continue;
    }
    if (s->bytes) {
      /* a byte of the C locale past ASCII: a character that is neither
       * printable nor a space, like the ASCII controls */
      i++;
      s->n.chars++;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate(p + i, (utf8proc_ssize_t)(n - i), &cp);
    if (k < 0) {
      size_t need = seq_len(b);
      if (more && need && n - i < need) {
        size_t j = i + 1;
        while (j < n && (p[j] & 0xC0) == 0x80)
          j++;
        if (j == n)
          return n - i; /* maybe completed by the next chunk */
      }
      i++; /* an invalid byte: skipped */
      continue;
    }
    i += (size_t)k;
    s->n.chars++;
    if (!uni_print(cp))
      continue;
    int w = u8_width(cp);
    if (w > 0)
      s->linepos += (uint64_t)w;
    if (uni_space(cp)) {
      s->n.words += (uint64_t)s->in_word;
      s->in_word = 0;
    } else {
      s->in_word = 1;
    }
  }
  return 0;
}

static uint64_t count_nl(const char *p, size_t n) {
  uint64_t k = 0;
  const char *e = p + n;
  while ((p = memchr(p, '\n', (size_t)(e - p)))) {
    k++;
    p++;
  }
  return k;
}

/* Count one stream. 0 or -1 with *err. The counts of earlier files held
 * in w go out while in waits. */
static int count_stream(bi_ctx *c, stream *in, int full, counts *out, writer *w,
                        int *err) {
  wcstate s;
  memset(&s, 0, sizeof s);
  s.bytes = full && !tu_utf8_locale(c);
  const char *p;
  size_t n;
  if (stream_take_all(in, &p, &n) == 0) {
    s.n.bytes = n;
    if (full)
      count_chars(&s, (const unsigned char *)p, n, 0);
    else
      s.n.lines = count_nl(p, n);
  } else {
    if (in->err == ECANCELED) {
      *err = ECANCELED;
      return -1;
    }
    char *b = mem_alloc(c->m, 65536 + 8);
    if (!b) {
      *err = ENOMEM;
      return -1;
    }
    size_t carry = 0;
    for (;;) {
      long k = wr_flush_read(w, in, b + carry, 65536);
      if (k < 0) {
        *err = in->err;
        mem_free(c->m, b);
        return -1;
      }
      s.n.bytes += (uint64_t)k;
      size_t len = carry + (size_t)k;
      if (!full) {
        s.n.lines += count_nl(b, len);
      } else {
        carry = count_chars(&s, (const unsigned char *)b, len, k > 0);
        memmove(b, b + len - carry, carry);
      }
      if (k == 0)
        break;
    }
    mem_free(c->m, b);
  }
  if (full) {
    s.n.words += (uint64_t)s.in_word;
    if (s.linepos > s.n.maxlen)
      s.n.maxlen = s.linepos;
  }
  *out = s.n;
  return 0;
}

typedef struct wcopt {
  int lines, words, chars, bytes, maxlen;
  int width;
} wcopt;

static void print_counts(writer *w, const wcopt *o, const counts *n,
                         const char *name) {
  uint64_t v[5];
  int k = 0;
  if (o->lines)
    v[k++] = n->lines;
  if (o->words)
    v[k++] = n->words;
  if (o->chars)
    v[k++] = n->chars;
  if (o->bytes)
    v[k++] = n->bytes;
  if (o->maxlen)
    v[k++] = n->maxlen;
  for (int i = 0; i < k; i++)
    wr_printf(w, i ? " %*llu" : "%*llu", o->width, (unsigned long long)v[i]);
  if (name) {
    wr_putc(w, ' ');
    wr_puts(w, name);
  }
  wr_putc(w, '\n');
}

/* Names from --files0-from: NUL-separated, in scratch memory. */
static char **read_names(bi_ctx *c, const char *from, int *count) {
  int err = 0;
  stream *s = bi_open_read(c, from, &err);
  if (!s) {
    bi_error(c, "cannot open %s for reading: %s", fu_quote(c, from),
             bi_strerror(err));
    return NULL;
  }
  buf copy;
  buf_init(&copy, c->m);
  const char *d;
  size_t n;
  char **names = NULL;
  if (tu_slurp(c, s, &d, &n, &copy, &err) == 0) {
    names = tu_split_names(c, d, n, count);
  } else {
    bi_error(c, "%s: %s", from, bi_strerror(err));
  }
  buf_free(&copy);
  stream_unref(s);
  return names;
}

int bi_wc(bi_ctx *c) {
  static const bi_opt opts[] = {{"bytes", 'c', BI_ARG_NONE},
                                {"chars", 'm', BI_ARG_NONE},
                                {"lines", 'l', BI_ARG_NONE},
                                {"files0-from", 'F', BI_ARG_REQUIRED},
                                {"max-line-length", 'L', BI_ARG_NONE},
                                {"words", 'w', BI_ARG_NONE},
                                BI_OPTS_END};
  wcopt o;
  memset(&o, 0, sizeof o);
  const char *from = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "cmlLw", opts);
  int ch;
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'c':
      o.bytes = 1;
      break;
    case 'm':
      o.chars = 1;
      break;
    case 'l':
      o.lines = 1;
      break;
    case 'L':
      o.maxlen = 1;
      break;
    case 'w':
      o.words = 1;
      break;
    case 'F':
      from = g.arg;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (!o.lines && !o.words && !o.chars && !o.bytes && !o.maxlen)
    o.lines = o.words = o.bytes = 1;
  char **files = g.operands;
  int nfiles = g.noperands;
  if (from) {
    if (nfiles) {
      tu_files0_conflict(c, files[0]);
      return 1;
    }
    files = read_names(c, from, &nfiles);
    if (!files)
      return 1;
  }
  int implicit = nfiles == 0 && !from;
  static char *dash[] = {"-", NULL};
  if (implicit) {
    files = dash;
    nfiles = 1;
  }
  int full = o.words || o.chars || o.maxlen;
  int ncounts = o.lines + o.words + o.chars + o.bytes + o.maxlen;
  /* Column width, from what stat says before reading (GNU). */
  o.width = 1;
  if (!(nfiles == 1 && ncounts == 1)) {
    uint64_t total = 0;
    int minw = 1;
    for (int i = 0; i < nfiles; i++) {
      vfs_stat_t st;
      if (strcmp(files[i], "-") == 0) {
        minw = 7;
        continue;
      }
      if (!c->vfs || vfs_stat(c->vfs, c->cwd, files[i], &st) != 0)
        continue;
      if (st.type == VFS_REG)
        total += st.size;
      else
        minw = 7;
    }
    for (; total >= 10; total /= 10)
      o.width++;
    if (o.width < minw)
      o.width = minw;
  }
  writer w;
  wr_init(&w, c->out);
  counts tot;
  memset(&tot, 0, sizeof tot);
  int status = 0;
  for (int i = 0; i < nfiles; i++) {
    const char *name = files[i];
    counts n;
    memset(&n, 0, sizeof n);
    int err = 0;
    if (from && !name[0]) {
      bi_error(c, "invalid zero-length file name");
      status = 1;
      continue;
    }
    stream *in = bi_open_read(c, name, &err);
    if (!in && err != EISDIR) {
      tu_file_error(c, name, err);
      status = 1;
      continue;
    }
    if (!in) { /* GNU reads a directory, fails, and still prints zeros */
      tu_file_error(c, name, err);
      status = 1;
    } else {
      int r = count_stream(c, in, full, &n, &w, &err);
      stream_unref(in);
      if (r) {
        if (err == ECANCELED)
          return 1;
        tu_file_error(c, name, err);
        status = 1;
      }
    }
    print_counts(&w, &o, &n, implicit ? NULL : name);
    if (w.err)
      return bi_stream_status(w.err);
    tot.lines += n.lines;
    tot.words += n.words;
    tot.chars += n.chars;
    tot.bytes += n.bytes;
    if (n.maxlen > tot.maxlen)
      tot.maxlen = n.maxlen;
  }
  if (nfiles > 1)
    print_counts(&w, &o, &tot, "total");
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
