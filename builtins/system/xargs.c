/*
 * xargs.c - GNU xargs (findutils 4.9): build command lines from input
 * items and run them through the shell's command runner.
 *
 * Input: blank-separated items with GNU's quoting (single and double
 * quotes group, a backslash outside single quotes takes the next byte,
 * quotes do not span lines), or -0 / -d DELIM items taken verbatim.
 * Commands run one after another (-P is accepted, nothing runs in
 * parallel in a sandbox exec); their stdin is an empty stream, as GNU's is
 * /dev/null, except with -a where they share ours.
 *
 * Exit status as GNU: 123 when a command failed with 1-125, 124 when one
 * exited 255 (xargs stops), 125 when one died of a signal (here: a command
 * ending with 141 after a closed pipe, the sandbox's SIGPIPE), 126 and 127
 * when it could not run, 1 for xargs' own errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_xargs[] =
    "Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...";
const char bi_help_xargs[] =
    "Build command lines from COMMAND, the INITIAL-ARGS and items read from "
    "the\n"
    "input, and run them.\n"
    "\n"
    "  -0, --null                   items end with a NUL byte, not a blank;\n"
    "                               quotes, backslashes and the end-of-file\n"
    "                               string lose their meaning\n"
    "  -a, --arg-file=FILE          read the items from FILE instead of "
    "standard\n"
    "                               input\n"
    "  -d, --delimiter=CHARACTER    items end with CHARACTER, not a blank; "
    "quotes,\n"
    "                               backslashes and the end-of-file string "
    "lose\n"
    "                               their meaning\n"
    "  -E END                       END is the end-of-file string: an input "
    "line\n"
    "                               equal to it ends the input\n"
    "  -e, --eof[=END]              as -E END when END is given; a bare --eof\n"
    "                               turns the end-of-file string off\n"
    "  -I R                         shorthand for --replace=R\n"
    "  -i, --replace[=R]            one command per input line, with every R "
    "in\n"
    "                               INITIAL-ARGS replaced by that line; R\n"
    "                               defaults to {}\n"
    "  -L, --max-lines=MAX-LINES    take no more than MAX-LINES non-blank "
    "lines\n"
    "                               of input for each command\n"
    "  -l[MAX-LINES]                as -L, with MAX-LINES defaulting to 1\n"
    "  -n, --max-args=MAX-ARGS      put at most MAX-ARGS items on each "
    "command\n"
    "                               line\n"
    "  -P, --max-procs=MAX-PROCS    accepted; commands run one at a time\n"
    "  -r, --no-run-if-empty        do not run COMMAND at all when the input "
    "has\n"
    "                               no items (by default it runs once anyway)\n"
    "  -s, --max-chars=MAX-CHARS    keep each command line within MAX-CHARS\n"
    "                               characters\n"
    "  -t, --verbose                show each command line on standard error\n"
    "                               before running it\n"
    "  -x, --exit                   stop when a command line would be longer\n"
    "                               than the -s limit\n"
    "      --help                   print this summary and quit\n"
    "      --version                print the version line and quit\n";

#define XA_DEFAULT_SIZE 131072
#define XA_MAX_SIZE (2 * 1024 * 1024)

typedef struct xa {
  bi_ctx *c;
  char **base; /* command and initial args */
  int nbase;
  size_t base_bytes;
  /* pending arguments (mem allocated) */
  char **args;
  size_t nargs, cap, bytes;
  size_t lines; /* complete input lines in the pending args (-L) */
  long max_args, max_lines;
  size_t max_size;
  int exit_on_size, verbose, no_empty, share_stdin;
  const char *replace;
  int ran;    /* a command ran */
  int status; /* worst so far: 0 or 123 */
  int stop;   /* stop with stop_rc */
  int stop_rc;
} xa;

static void clear_args(xa *x) {
  for (size_t i = 0; i < x->nargs; i++)
    mem_free(x->c->m, x->args[i]);
  x->nargs = 0;
  x->bytes = 0;
  x->lines = 0;
}

static void set_stop(xa *x, int rc) {
  if (!x->stop) {
    x->stop = 1;
    x->stop_rc = rc;
  }
}

/* Run argv and fold its status into x. */
static void run(xa *x, char **argv) {
  bi_ctx *c = x->c;
  x->ran = 1;
  if (x->verbose) {
    buf b;
    buf_init(&b, c->m);
    for (int i = 0; argv[i]; i++) {
      if (i)
        buf_putc(&b, ' ');
      buf_puts(&b, argv[i]);
    }
    buf_putc(&b, '\n');
    stream_write(c->err, b.data, b.len);
    buf_free(&b);
  }
  stream *in = x->share_stdin ? NULL : stream_null(c->m, c->bud);
  int st = c->run_argv(c, argv, in, NULL, NULL);
  if (in)
    stream_unref(in);
  if (st == BI_NOT_FOUND) {
    bi_error(c, "%s: No such file or directory", argv[0]);
    st = 127;
  }
  if (fu_poll(c)) {
    set_stop(x, 1);
    return;
  }
  if (st == 0)
    return;
  if (st == 255) {
    bi_error(c, "%s: exited with status 255; aborting", argv[0]);
    set_stop(x, 124);
  } else if (st == 141) {
    bi_error(c, "%s: terminated by signal 13", argv[0]);
    set_stop(x, 125);
  } else if (st == 126 || st == 127) {
    set_stop(x, st);
  } else {
    x->status = 123;
  }
}

static void run_pending(xa *x) {
  bi_ctx *c = x->c;
  char **argv =
      mem_alloc(c->m, ((size_t)x->nbase + x->nargs + 1) * sizeof *argv);
  if (!argv) {
    bi_error(c, "memory exhausted");
    set_stop(x, 1);
    return;
  }
  int k = 0;
  for (int i = 0; i < x->nbase; i++)
    argv[k++] = x->base[i];
  for (size_t i = 0; i < x->nargs; i++)
    argv[k++] = x->args[i];
  argv[k] = NULL;
  run(x, argv);
  mem_free(c->m, argv);
  clear_args(x);
}

/* -I: one command per item, with R replaced in every initial argument. */
static void run_replace(xa *x, const char *item, size_t len) {
  bi_ctx *c = x->c;
  arena_mark mk = arena_save(c->scratch);
  char **argv = arena_alloc(c->scratch, ((size_t)x->nbase + 1) * sizeof *argv);
  size_t rl = strlen(x->replace);
  size_t total = 0;
  for (int i = 0; argv && i < x->nbase; i++) {
    const char *a = x->base[i];
    if (!rl || !strstr(a, x->replace)) {
      argv[i] = (char *)a;
      total += strlen(a) + 1;
      continue;
    }
    buf b;
    buf_init(&b, c->m);
    for (const char *q = a;;) {
      const char *h = strstr(q, x->replace);
      if (!h) {
        buf_puts(&b, q);
        break;
      }
      buf_append(&b, q, (size_t)(h - q));
      buf_append(&b, item, len);
      q = h + rl;
    }
    argv[i] = arena_strndup(c->scratch, b.data ? b.data : "", b.len);
    total += b.len + 1;
    buf_free(&b);
    if (!argv[i])
      argv = NULL;
  }
  if (!argv) {
    bi_error(c, "memory exhausted");
    set_stop(x, 1);
  } else if (total > x->max_size) {
    bi_error(c, "argument line too long");
    set_stop(x, 1);
  } else {
    argv[x->nbase] = NULL;
    run(x, argv);
  }
  arena_release(c->scratch, mk);
}

/* Add one item; runs the pending command first when it would not fit. */
static void add_arg(xa *x, const char *s, size_t len) {
  bi_ctx *c = x->c;
  if (x->replace) {
    run_replace(x, s, len);
    return;
  }
  if (x->base_bytes + len + 1 > x->max_size) {
    if (x->nargs)
      run_pending(x);
    bi_error(c, "argument line too long");
    set_stop(x, 1);
    return;
  }
  if (x->base_bytes + x->bytes + len + 1 > x->max_size) {
    if (x->exit_on_size) {
      bi_error(c, "argument line too long");
      set_stop(x, 1);
      return;
    }
    run_pending(x);
    if (x->stop)
      return;
  }
  if (x->nargs == x->cap) {
    size_t cap = x->cap ? x->cap * 2 : 64;
    char **na = mem_realloc(c->m, x->args, cap * sizeof *na);
    if (!na) {
      bi_error(c, "memory exhausted");
      set_stop(x, 1);
      return;
    }
    x->args = na;
    x->cap = cap;
  }
  char *d = mem_strndup(c->m, s, len);
  if (!d) {
    bi_error(c, "memory exhausted");
    set_stop(x, 1);
    return;
  }
  x->args[x->nargs++] = d;
  x->bytes += len + 1;
  if (x->max_args > 0 && x->nargs >= (size_t)x->max_args)
    run_pending(x);
}

static void end_line(xa *x) {
  if (x->replace || x->max_lines <= 0)
    return;
  x->lines++;
  if (x->lines >= (size_t)x->max_lines && x->nargs)
    run_pending(x);
}

static int is_blank(int ch) {
  return ch == ' ' || ch == '\t' || ch == '\n';
}

/* -d argument: one byte, or an escape (\n, \t, \0, \x41, \101, ...). */
static int parse_delim(bi_ctx *c, const char *s, int *out) {
  if (s[0] && !s[1]) {
    *out = (unsigned char)s[0];
    return 0;
  }
  if (s[0] == '\\' && s[1]) {
    int lit = tu_escape_char((unsigned char)s[1]);
    if (lit >= 0) {
      if (s[2])
        goto bad;
      *out = lit;
      return 0;
    }
    char *e;
    if (s[1] == 'x') {
      long v = strtol(s + 2, &e, 16);
      if (e == s + 2 || *e || v > 255)
        goto bad;
      *out = (int)v;
      return 0;
    }
    if (s[1] >= '0' && s[1] <= '7') {
      long v = strtol(s + 1, &e, 8);
      if (*e || v > 255)
        goto bad;
      *out = (int)v;
      return 0;
    }
  }
bad:
  bi_error(c,
           "Invalid input delimiter specification %s: the delimiter must be "
           "either a single character or an escape sequence starting with \\.",
           s);
  return -1;
}

static int unmatched(bi_ctx *c, int quote) {
  bi_error(c,
           "unmatched %s quote; by default quotes are special to xargs "
           "unless you use the -0 option",
           quote == '\'' ? "single" : "double");
  return -1;
}

/* Whether the item in cur is the -E end-of-file string. */
static int is_eof(const buf *cur, const char *eof) {
  return eof && strcmp(buf_cstr(cur), eof) == 0;
}

/* Blank-separated input with quotes. Returns 0, or -1 after an unmatched
 * quote (already reported). */
static int read_blank(xa *x, reader *r, const char *eof) {
  bi_ctx *c = x->c;
  buf cur;
  buf_init(&cur, c->m);
  int have = 0, quote = 0, esc = 0, rc = 0;
  int line_args = 0, last_blank = 0;
  const char *line;
  size_t len;
  int got;
  while (!x->stop && (got = rd_record(r, '\n', &line, &len)) == 1) {
    int leading = 1; /* -I: blanks at the start of a line are dropped */
    for (size_t i = 0; i < len && !x->stop; i++) {
      unsigned char ch = (unsigned char)line[i];
      if (quote) {
        if (ch == quote) {
          quote = 0;
        } else if (ch == '\n') {
          rc = unmatched(c, quote);
          goto out;
        } else {
          buf_putc(&cur, ch);
        }
        continue;
      }
      if (esc) {
        buf_putc(&cur, ch);
        esc = 0;
        continue;
      }
      if (ch == '\\') {
        esc = have = 1;
        leading = 0;
        last_blank = 0;
        continue;
      }
      if (ch == '\'' || ch == '"') {
        quote = ch;
        have = 1;
        leading = 0;
        last_blank = 0;
        continue;
      }
      if (x->replace) {
        /* -I: the whole line is one item; blanks inside stay. */
        if (ch == '\n') {
          if (have) {
            if (is_eof(&cur, eof))
              goto out;
            add_arg(x, buf_cstr(&cur), cur.len);
          }
          buf_clear(&cur);
          have = 0;
          continue;
        }
        if (leading && is_blank(ch))
          continue;
        leading = 0;
        buf_putc(&cur, ch);
        have = 1;
        continue;
      }
      if (is_blank(ch)) {
        if (have) {
          if (is_eof(&cur, eof))
            goto out;
          add_arg(x, buf_cstr(&cur), cur.len);
          line_args++;
          buf_clear(&cur);
          have = 0;
        }
        if (ch == '\n') {
          /* A trailing blank continues the logical line (-L). */
          if (line_args && !last_blank) {
            end_line(x);
            line_args = 0;
          }
        }
        last_blank = ch != '\n';
        continue;
      }
      last_blank = 0;
      buf_putc(&cur, ch);
      have = 1;
    }
  }
  if (!x->stop && got < 0) {
    if (r->err == ECANCELED || fu_poll(c)) {
      set_stop(x, 1);
      goto out;
    }
    bi_error(c, "read error: %s", bi_strerror(r->err));
    rc = -1;
    goto out;
  }
  if (x->stop)
    goto out;
  if (quote) {
    rc = unmatched(c, quote);
    goto out;
  }
  if (have && !is_eof(&cur, eof)) {
    add_arg(x, buf_cstr(&cur), cur.len);
    line_args++;
  }
  if (line_args)
    end_line(x);
out:
  buf_free(&cur);
  return rc;
}

/* -0 / -d: items verbatim. */
static void read_delim(xa *x, reader *r, int delim) {
  const char *rec;
  size_t len;
  int got;
  while (!x->stop && (got = rd_record(r, delim, &rec, &len)) == 1) {
    if (len && (unsigned char)rec[len - 1] == delim)
      len--;
    add_arg(x, rec, len);
    end_line(x);
  }
  if (!x->stop && got < 0) {
    if (r->err != ECANCELED && !fu_poll(x->c))
      bi_error(x->c, "read error: %s", bi_strerror(r->err));
    set_stop(x, 1);
  }
}

static int parse_count(bi_ctx *c, const char *s, const char *opt, long min,
                       long *out) {
  char *e;
  errno = 0;
  long v = strtol(s, &e, 10);
  if (e == s || *e || errno) {
    bi_error(c, "invalid number \"%s\" for -%s option", s, opt);
    bi_try_help(c);
    return -1;
  }
  if (v < min) {
    bi_error(c, "value %s for -%s option should be >= %ld", s, opt, min);
    bi_try_help(c);
    return -1;
  }
  *out = v;
  return 0;
}

enum { OPT_PSV = 0x100, OPT_SHOW_LIMITS };

int bi_xargs(bi_ctx *c) {
  static const bi_opt opts[] = {{"null", '0', BI_ARG_NONE},
                                {"arg-file", 'a', BI_ARG_REQUIRED},
                                {"delimiter", 'd', BI_ARG_REQUIRED},
                                {"eof", 'e', BI_ARG_OPTIONAL},
                                {"replace", 'i', BI_ARG_OPTIONAL},
                                {"max-lines", 'l', BI_ARG_OPTIONAL},
                                {"max-args", 'n', BI_ARG_REQUIRED},
                                {"max-procs", 'P', BI_ARG_REQUIRED},
                                {"interactive", 'p', BI_ARG_NONE},
                                {"open-tty", 'o', BI_ARG_NONE},
                                {"no-run-if-empty", 'r', BI_ARG_NONE},
                                {"max-chars", 's', BI_ARG_REQUIRED},
                                {"verbose", 't', BI_ARG_NONE},
                                {"exit", 'x', BI_ARG_NONE},
                                {"process-slot-var", OPT_PSV, BI_ARG_REQUIRED},
                                {"show-limits", OPT_SHOW_LIMITS, BI_ARG_NONE},
                                BI_OPTS_END};
  xa x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.max_size = XA_DEFAULT_SIZE;
  int delim = -1; /* -1: blank-separated with quotes */
  const char *eof = NULL, *argfile = NULL;
  long v;
  bi_getopt g;
  bi_getopt_init(&g, c, "+0a:d:E:e::I:i::L:l::n:P:prs:txo", opts);
  int o;
  while ((o = bi_getopt_next(&g)) != -1) {
    switch (o) {
    case '0':
      delim = 0;
      break;
    case 'a':
      argfile = g.arg;
      break;
    case 'd':
      if (parse_delim(c, g.arg, &delim) < 0)
        return 1;
      break;
    case 'E':
      eof = g.arg;
      break;
    case 'e':
      eof = g.arg && *g.arg ? g.arg : NULL;
      break;
    case 'I':
      x.replace = g.arg;
      x.max_lines = 1;
      x.max_args = 0;
      x.exit_on_size = 1;
      break;
    case 'i':
      x.replace = g.arg && *g.arg ? g.arg : "{}";
      x.max_lines = 1;
      x.max_args = 0;
      x.exit_on_size = 1;
      break;
    case 'L':
      if (parse_count(c, g.arg, "L", 1, &x.max_lines) < 0)
        return 1;
      x.max_args = 0;
      x.replace = NULL;
      break;
    case 'l':
      if (g.arg && *g.arg) {
        if (parse_count(c, g.arg, "l", 1, &x.max_lines) < 0)
          return 1;
      } else {
        x.max_lines = 1;
      }
      x.max_args = 0;
      x.replace = NULL;
      break;
    case 'n':
      if (parse_count(c, g.arg, "n", 1, &x.max_args) < 0)
        return 1;
      /* GNU: -n after -L (or -I) switches to counting arguments, except
       * that -I keeps its one-line items. */
      if (!x.replace)
        x.max_lines = 0;
      break;
    case 'P':
      if (parse_count(c, g.arg, "P", 0, &v) < 0)
        return 1;
      break;
    case 'p':
      bi_error(c, "failed to open /dev/tty for reading: %s",
               bi_strerror(ENXIO));
      return 1;
    case 'o':
    case OPT_PSV:
      break;
    case 'r':
      x.no_empty = 1;
      break;
    case 's':
      if (parse_count(c, g.arg, "s", 1, &v) < 0)
        return 1;
      x.max_size = v > XA_MAX_SIZE ? XA_MAX_SIZE : (size_t)v;
      break;
    case 't':
      x.verbose = 1;
      break;
    case 'x':
      x.exit_on_size = 1;
      break;
    case OPT_SHOW_LIMITS:
      stream_printf(c->err,
                    "Maximum length of command we could actually use: %d\n"
                    "Size of command buffer we are actually using: %zu\n"
                    "Maximum parallelism (--max-procs must be no greater): "
                    "1\n",
                    XA_MAX_SIZE, x.max_size);
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      stream_printf(c->out, "xargs (GNU findutils compatible; vsh) 4.9.0\n");
      return 0;
    default:
      return 1;
    }
  }
  static char *const echo_argv[] = {"echo", NULL};
  if (g.noperands) {
    x.base = g.operands;
    x.nbase = g.noperands;
  } else {
    x.base = (char **)echo_argv;
    x.nbase = 1;
  }
  for (int i = 0; i < x.nbase; i++)
    x.base_bytes += strlen(x.base[i]) + 1;
  if (x.replace && !*x.replace)
    x.replace = NULL;
  if (delim >= 0)
    eof = NULL; /* -0 and -d turn off the logical EOF string */

  stream *in = c->in;
  int err = 0;
  if (argfile) {
    in = bi_open_read(c, argfile, &err);
    if (!in) {
      bi_error(c, "Cannot open input file %s: %s", tu_quote(c, argfile),
               bi_strerror(err));
      return 1;
    }
    x.share_stdin = 1;
  }
  reader r;
  rd_init(&r, c->m, in);
  int rc = 0;
  if (delim >= 0)
    read_delim(&x, &r, delim);
  else if (read_blank(&x, &r, eof) < 0)
    rc = 1;
  rd_free(&r);
  if (argfile)
    stream_unref(in);

  /* What is left, and the one run GNU makes without any input unless -r. */
  if (!x.stop && (x.nargs || (rc == 0 && !x.ran && !x.no_empty && !x.replace)))
    run_pending(&x);
  clear_args(&x);
  mem_free(c->m, x.args);
  if (x.stop)
    return x.stop_rc;
  return rc ? rc : x.status;
}
