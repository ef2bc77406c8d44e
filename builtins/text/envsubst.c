/*
 * envsubst.c - envsubst (GNU gettext-runtime 0.21): copy standard input to
 * standard output with $NAME and ${NAME} replaced by the values of the
 * exported variables (unset: empty). NAME is a letter or _ followed by
 * letters, digits and _; anything else after a $ is copied as it is. With
 * a SHELL-FORMAT operand only the variables it names are replaced, the
 * others stay as written; -v lists the names SHELL-FORMAT references, one
 * a line, in order (repeats included).
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_envsubst[] = "Usage: envsubst [OPTION] [SHELL-FORMAT]";
const char bi_help_envsubst[] =
    "Copy standard input to standard output, replacing each reference to an\n"
    "environment variable, $NAME or ${NAME}, by its value (nothing when it\n"
    "is not set). With SHELL-FORMAT, only the variables it references are\n"
    "replaced and every other reference is copied as it is.\n"
    "\n"
    "  -v, --variables   print the names of the variables SHELL-FORMAT\n"
    "                    references, one a line, instead (standard input is\n"
    "                    not read)\n"
    "  -h, --help        print this summary and quit\n"
    "  -V, --version     print the version line and quit\n";

static int name_start(int ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_';
}
static int name_char(int ch) {
  return name_start(ch) || (ch >= '0' && ch <= '9');
}

/* The reference at s[i] ('$'): its name's start and length, and how many
 * bytes the whole reference spans; 0 when it is not one. */
static size_t scan_ref(const char *s, size_t n, size_t i, size_t *name,
                       size_t *len) {
  size_t j = i + 1;
  int brace = j < n && s[j] == '{';
  if (brace)
    j++;
  if (j >= n || !name_start((unsigned char)s[j]))
    return 0;
  size_t k = j;
  while (k < n && name_char((unsigned char)s[k]))
    k++;
  if (brace) {
    if (k >= n || s[k] != '}')
      return 0;
    *name = j;
    *len = k - j;
    return k + 1 - i;
  }
  *name = j;
  *len = k - j;
  return k - i;
}

/* The value of an exported variable, or NULL. */
/* env: the exported variables, fetched once per run (c->environ builds
 * the list in scratch memory each time it is called). */
static const char *env_value(char **env, const char *name, size_t len) {
  for (; env && *env; env++)
    if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
      return *env + len + 1;
  return NULL;
}

typedef struct es {
  bi_ctx *c;
  const char *fmt; /* SHELL-FORMAT, or NULL: every variable */
} es;

/* Whether SHELL-FORMAT references the name. */
static int allowed(es *e, const char *name, size_t len) {
  if (!e->fmt)
    return 1;
  const char *f = e->fmt;
  size_t n = strlen(f);
  for (size_t i = 0; i < n; i++) {
    size_t at, l, span;
    if (f[i] == '$' && (span = scan_ref(f, n, i, &at, &l))) {
      if (l == len && memcmp(f + at, name, len) == 0)
        return 1;
      i += span - 1;
    }
  }
  return 0;
}

static int print_vars(bi_ctx *c, const char *f) {
  writer w;
  wr_init(&w, c->out);
  size_t n = strlen(f);
  for (size_t i = 0; i < n && !w.err; i++) {
    size_t at, l, span;
    if (f[i] == '$' && (span = scan_ref(f, n, i, &at, &l))) {
      wr_write(&w, f + at, l);
      wr_putc(&w, '\n');
      i += span - 1;
    }
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return 0;
}

int bi_envsubst(bi_ctx *c) {
  static const bi_opt opts[] = {{"variables", 'v', BI_ARG_NONE},
                                {"help", 'h', BI_ARG_NONE},
                                {"version", 'V', BI_ARG_NONE},
                                {NULL, 0, 0}};
  int vars = 0, o;
  bi_getopt g;
  bi_getopt_init(&g, c, "hvV", opts);
  while ((o = bi_getopt_next(&g)) != -1) {
    switch (o) {
    case 'v':
      vars = 1;
      break;
    case 'h':
      return bi_print_help(c);
    case 'V':
      if (stream_printf(c->out, "envsubst (GNU gettext-runtime compatible; "
                                "vsh) 0.21\n") < 0)
        return bi_stream_status(c->out->err);
      return 0;
    default:
      return 1;
    }
  }
  if (g.noperands > 1 || (vars && g.noperands == 0)) {
    bi_error(c, g.noperands > 1 ? "too many arguments" : "missing arguments");
    return 1;
  }
  es e = {c, g.noperands ? g.operands[0] : NULL};
  if (vars)
    return print_vars(c, e.fmt);

  /* A reference may straddle two reads: the bytes from a '$' on are held
   * back (in `held`) until the reference is complete. */
  char **env = c->environ ? c->environ(c) : NULL;
  writer w;
  wr_init(&w, c->out);
  reader r;
  rd_init(&r, c->m, c->in);
  rd_flush_to(&r, &w);
  buf held;
  buf_init(&held, c->m);
  int status = 0, eof = 0;
  size_t resume = 0; /* how far the held reference was scanned */
  char chunk[4096];
  while (!eof && !w.err) {
    if (budget_poll(c->bud)) {
      status = 1;
      break;
    }
    long got = rd_read(&r, chunk, sizeof chunk);
    if (got < 0) {
      if (r.err != ECANCELED)
        bi_error(c, "read error: %s", bi_strerror(r.err));
      status = 1;
      break;
    }
    if (got == 0)
      eof = 1;
    else if (buf_append(&held, chunk, (size_t)got)) {
      bi_error(c, "memory exhausted");
      status = 1;
      break;
    }
    const char *s = held.data ? held.data : "";
    size_t n = held.len, i = 0, done = 0;
    while (i < n) {
      const char *d = memchr(s + i, '$', n - i);
      if (!d) {
        i = n;
        break;
      }
      i = (size_t)(d - s);
      /* can the reference at i still grow with more input? */
      size_t j = i + 1;
      if (i == 0 && resume > 1) {
        j = resume; /* the bytes before it were scanned last time */
      } else if (j < n && s[j] == '{') {
        j++;
      }
      while (j < n && name_char((unsigned char)s[j]))
        j++;
      if (j >= n && !eof) {
        resume = j - i;
        break;
      }
      resume = 0;
      size_t at, l, span = scan_ref(s, n, i, &at, &l);
      if (!span || !allowed(&e, s + at, l)) {
        i++;
        continue;
      }
      wr_write(&w, s + done, i - done);
      const char *v = env_value(env, s + at, l);
      if (v)
        wr_puts(&w, v);
      i += span;
      done = i;
    }
    wr_write(&w, s + done, i - done);
    if (i) {
      memmove(held.data, held.data + i, held.len - i);
      held.len -= i;
    }
  }
  buf_free(&held);
  rd_free(&r);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
