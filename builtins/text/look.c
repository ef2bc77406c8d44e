/*
 * look.c - look (util-linux 2.38): print the lines of a sorted file that
 * begin with a string, found by binary search.
 *
 * Without a FILE operand the dictionary is searched ($WORDLIST when it
 * names a readable file, else /usr/share/dict/words; -a: web2) and -d and
 * -f are implied. -d compares only letters, digits and blanks, -f ignores
 * case, -t C cuts the string after the first C. The file must be sorted
 * the way the comparison sees it, as for util-linux. Exit status 0 when a
 * line matched, 1 when none did or on trouble.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_look[] = "Usage: look [options] <string> [<file>...]";
const char bi_help_look[] =
    "Print the lines of a sorted FILE that begin with STRING. Without FILE\n"
    "the dictionary (/usr/share/dict/words, or $WORDLIST) is searched with\n"
    "-d and -f.\n"
    "\n"
    "  -a, --alternative        search the other dictionary "
    "(/usr/share/dict/web2)\n"
    "  -d, --alphanum           compare only letters, digits and blanks\n"
    "  -f, --ignore-case        let upper and lower case match\n"
    "  -t, --terminate <char>   compare STRING only up to the first <char>\n"
    "                           (included)\n"
    "  -h, --help               print this summary and quit\n"
    "  -V, --version            print the version line and quit\n";

enum { LK_EQUAL = 0, LK_GREATER = 1, LK_LESS = -1 };

typedef struct lk {
  int dflag, fflag;
  const char *str;
  size_t len;
} lk;

static int lk_keep(const lk *k, unsigned char ch) {
  return !k->dflag || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
         (ch >= 'A' && ch <= 'Z') || ch == ' ' || ch == '\t';
}

static int lk_lower(int ch) {
  return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch;
}

/* How the string compares with the line at p: EQUAL when the line begins
 * with it (as -d and -f see them), GREATER when the line sorts before. */
static int lk_compare(const lk *k, const char *p, const char *end) {
  size_t i = 0;
  for (; p < end && *p != '\n' && i < k->len; p++) {
    unsigned char a = (unsigned char)*p;
    if (!lk_keep(k, a))
      continue;
    int b = (unsigned char)k->str[i];
    int x = a, y = b;
    if (k->fflag) {
      x = lk_lower(x);
      y = lk_lower(y);
    }
    if (x != y || a == 0)
      return x - y > 0 ? LK_LESS : LK_GREATER;
    i++;
  }
  return i < k->len ? LK_GREATER : LK_EQUAL; /* the line ran out first */
}

static const char *lk_next_line(const char *p, const char *end) {
  while (p < end && *p++ != '\n')
    ;
  return p;
}

static int lk_open_error(bi_ctx *c, const char *file, int err) {
  bi_error(c, "%s: %s", file, bi_strerror(err));
  return 1;
}

int bi_look(bi_ctx *c) {
  static const bi_opt opts[] = {{"alternative", 'a', BI_ARG_NONE},
                                {"alphanum", 'd', BI_ARG_NONE},
                                {"ignore-case", 'f', BI_ARG_NONE},
                                {"terminate", 't', BI_ARG_REQUIRED},
                                {"version", 'V', BI_ARG_NONE},
                                {"help", 'h', BI_ARG_NONE},
                                {NULL, 0, 0}};
  lk k = {0, 0, NULL, 0};
  int term = 0, o;
  const char *file = "/usr/share/dict/words";
  const char *wl = c->getenv ? c->getenv(c, "WORDLIST") : NULL;
  if (wl && *wl && c->vfs && vfs_access(c->vfs, c->cwd, wl, R_OK) == 0)
    file = wl;
  bi_getopt g;
  bi_getopt_init(&g, c, "adft:Vh", opts);
  while ((o = bi_getopt_next(&g)) != -1) {
    switch (o) {
    case 'a':
      file = "/usr/share/dict/web2";
      break;
    case 'd':
      k.dflag = 1;
      break;
    case 'f':
      k.fflag = 1;
      break;
    case 't':
      term = (unsigned char)g.arg[0];
      break;
    case 'V':
      if (stream_printf(c->out, "look (util-linux compatible; vsh) 2.38.1\n") <
          0)
        return bi_stream_status(c->out->err);
      return 0;
    case 'h':
      return bi_print_help(c);
    default:
      return 1;
    }
  }
  if (g.noperands == 2) {
    file = g.operands[1];
  } else if (g.noperands == 1) {
    k.dflag = k.fflag = 1;
  } else {
    bi_error(c, "bad usage");
    bi_try_help(c);
    return 1;
  }
  /* the string, cut after the terminator and filtered as -d compares */
  const char *s = g.operands[0];
  size_t n = strlen(s);
  if (term) {
    const char *t = strchr(s, term);
    if (t)
      n = (size_t)(t - s) + 1;
  }
  char *str = arena_alloc(c->scratch, n + 1);
  if (!str) {
    bi_error(c, "cannot allocate memory");
    return 1;
  }
  k.len = 0;
  for (size_t i = 0; i < n; i++)
    if (lk_keep(&k, (unsigned char)s[i]))
      str[k.len++] = s[i];
  str[k.len] = 0;
  k.str = str;

  int err = 0;
  stream *in = bi_open_read(c, file, &err);
  if (!in) /* util-linux opens a directory, then cannot map it */
    return lk_open_error(c, file, err == EISDIR ? ENODEV : err);
  const char *data;
  size_t len;
  buf copy;
  buf_init(&copy, c->m);
  if (tu_slurp(c, in, &data, &len, &copy, &err)) {
    stream_unref(in);
    buf_free(&copy);
    if (err == ECANCELED)
      return 1;
    return lk_open_error(c, file, err);
  }
  if (len == 0) { /* util-linux maps the file: an empty one fails */
    stream_unref(in);
    buf_free(&copy);
    return lk_open_error(c, file, EINVAL);
  }
  const char *front = data, *back = data + len;
  /* binary search for a line at or before the first match */
  const char *p = lk_next_line(front + (back - front) / 2, back);
  while (p < back && back > front) {
    if (lk_compare(&k, p, back) == LK_GREATER)
      front = p;
    else
      back = p;
    p = lk_next_line(front + (back - front) / 2, back);
  }
  back = data + len;
  int status = 1;
  writer w;
  wr_init(&w, c->out);
  unsigned long lines = 0;
  /* then forwards to the first match, and out with every match */
  for (; front < back; front = lk_next_line(front, back)) {
    if ((++lines & 4095) == 0 && budget_poll(c->bud))
      goto out;
    int r = lk_compare(&k, front, back);
    if (r == LK_LESS)
      goto out;
    if (r == LK_EQUAL)
      break;
  }
  while (front < back && lk_compare(&k, front, back) == LK_EQUAL && !w.err) {
    if ((++lines & 4095) == 0 && budget_poll(c->bud))
      goto out;
    const char *e = lk_next_line(front, back);
    wr_write(&w, front, (size_t)(e - front));
    front = e;
    status = 0;
  }
out:
  stream_unref(in);
  buf_free(&copy);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  if (budget_poll(c->bud))
    return 1;
  return status;
}
