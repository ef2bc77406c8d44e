/*
 * rg.c - rg, a ripgrep 13 compatible recursive search: options, operands
 * and the exit status.
 *
 * Exit status: 0 when something matched (or, with --files and
 * --files-without-match, was listed), 1 when nothing did, 2 after any error
 * (a missing operand, a bad pattern or option, no file searched at all)
 * unless -q already found a match. Messages follow rg: "PATH: No such
 * file or directory (os error 2)" without a command prefix, "regex parse
 * error:" blocks, and clap's usage errors.
 *
 * Without a path, rg searches standard input when it is a pipe or a file
 * with data, and the working directory otherwise (shown without "./").
 * Standard output is never a terminal inside the sandbox, so ripgrep's
 * non-terminal defaults hold: no heading, no line numbers unless asked
 * (-n, --column, --vimgrep, --json), file names when a directory or more
 * than one path is searched.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins/search/rg/rg.h"
#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_rg[] = "Usage: rg [OPTIONS] PATTERN [PATH ...]\n"
                           "   or: rg [OPTIONS] -e PATTERN ... [PATH ...]\n"
                           "   or: rg [OPTIONS] --files [PATH ...]\n"
                           "   or: rg --type-list";
const char bi_help_rg[] =
    "Search files for lines matching a regular expression, descending into\n"
    "directories (the working directory when no PATH is named). Hidden\n"
    "files, binary files and whatever .gitignore (inside a git work tree),\n"
    ".ignore and .rgignore exclude are skipped. Results come sorted by "
    "path.\n"
    "Compatible with ripgrep 13 on the options below.\n"
    "\n"
    "Patterns:\n"
    "  -e, --regexp PATTERN      a pattern (repeatable); PATTERN is then not\n"
    "                              taken from the first operand\n"
    "  -f, --file FILE           patterns from FILE, one a line ('-': stdin)\n"
    "  -F, --fixed-strings       patterns are plain text\n"
    "  -P, --pcre2               patterns are PCRE2 expressions (look-around,\n"
    "                              back-references)\n"
    "  -i, --ignore-case         letters match either case\n"
    "  -S, --smart-case          ignore case unless the pattern has capitals\n"
    "  -s, --case-sensitive      letters must agree in case (the default)\n"
    "  -w, --word-regexp         matches must be whole words\n"
    "  -x, --line-regexp         matches must be whole lines\n"
    "  -v, --invert-match        select the lines that do not match\n"
    "  -U, --multiline           let matches span lines (\\n matches a line "
    "end)\n"
    "      --multiline-dotall    with -U, '.' matches line ends too\n"
    "\n"
    "What is printed:\n"
    "  -n, --line-number         line numbers (-N, --no-line-number: none)\n"
    "  -H, --with-filename       always show the path (-I, --no-filename:\n"
    "                              never)\n"
    "      --heading             group lines under their path "
    "(--no-heading)\n"
    "      --column              the column of the first match (implies -n)\n"
    "  -o, --only-matching       each match alone on its line\n"
    "  -r, --replace TEXT        print TEXT in place of each match ($1,\n"
    "                              ${name} name groups)\n"
    "      --vimgrep             one line per match: path:line:column:text\n"
    "      --json                JSON lines (begin, match, context, end,\n"
    "                              summary)\n"
    "  -c, --count               number of matching lines per file\n"
    "      --count-matches       number of matches per file\n"
    "  -l, --files-with-matches  only the paths of files that match\n"
    "      --files-without-match  only the paths of files that do not\n"
    "  -0, --null                end each path with a NUL byte\n"
    "  -A, --after-context NUM   NUM lines after each match\n"
    "  -B, --before-context NUM  NUM lines before each match\n"
    "  -C, --context NUM         NUM lines around each match\n"
    "  -m, --max-count NUM       stop after NUM matching lines per file\n"
    "  -q, --quiet               print nothing; exit 0 at the first match\n"
    "  -M, --max-columns NUM     leave out lines longer than NUM bytes\n"
    "      --max-columns-preview  show their first NUM characters instead\n"
    "      --trim                drop the leading blanks of printed lines\n"
    "  -p, --pretty              --color always --heading --line-number\n"
    "      --no-messages         no messages about unreadable files\n"
    "      --color WHEN          'always' (or 'ansi') colors paths, line\n"
    "                              numbers and matches; 'never', 'auto' "
    "do not\n"
    "      --sort path           sort by path (always done; 'none' too)\n"
    "\n"
    "Which files:\n"
    "      --files               list the files that would be searched\n"
    "  -g, --glob GLOB           include files matching GLOB; '!GLOB'\n"
    "                              excludes (gitignore syntax; repeatable)\n"
    "      --iglob GLOB          as --glob, ignoring case\n"
    "      --glob-case-insensitive  every --glob ignores case\n"
    "  -t, --type TYPE           only files of TYPE (see --type-list)\n"
    "  -T, --type-not TYPE       no files of TYPE\n"
    "      --type-list           the known types and their globs\n"
    "      --hidden              search hidden files and directories too\n"
    "      --no-ignore           do not read ignore files\n"
    "      --no-ignore-vcs       do not read .gitignore files\n"
    "      --no-ignore-parent    do not read ignore files of parent "
    "directories\n"
    "      --no-ignore-dot       do not read .ignore and .rgignore files\n"
    "      --no-ignore-exclude   do not read .git/info/exclude\n"
    "  -u, --unrestricted        -u: --no-ignore, -uu: and --hidden, -uuu: "
    "and\n"
    "                              --binary\n"
    "      --binary              search binary files found while walking\n"
    "  -a, --text                search binary files as text\n"
    "  -L, --follow              follow symbolic links\n"
    "      --max-depth NUM       descend at most NUM directories\n"
    "\n"
    "  -h, --help                this help     -V, --version  the version\n"
    "\n"
    "Exit status: 0 if a line was selected, 1 if none, 2 on an error.\n";

enum {
  O_COUNT_MATCHES = 0x100,
  O_FILES_WITHOUT,
  O_NO_LINE,
  O_HEADING,
  O_NO_HEADING,
  O_COLUMN,
  O_NO_COLUMN,
  O_VIMGREP,
  O_JSON,
  O_NO_JSON,
  O_SORT,
  O_SORTR,
  O_COLOR,
  O_NO_MESSAGES,
  O_MESSAGES,
  O_MAX_DEPTH,
  O_HIDDEN,
  O_NO_HIDDEN,
  O_NO_IGNORE,
  O_IGNORE,
  O_NO_IGNORE_VCS,
  O_NO_IGNORE_PARENT,
  O_NO_IGNORE_DOT,
  O_FILES,
  O_TYPE_LIST,
  O_IGLOB,
  O_BINARY,
  O_NO_BINARY,
  O_NO_TEXT,
  O_NO_FOLLOW,
  O_NO_PCRE2,
  O_NO_CONFIG,
  O_MMAP,
  O_THREADS,
  O_NO_UNICODE,
  O_MAX_PREVIEW,
  O_NO_MULTILINE,
  O_DOTALL,
  O_NO_DOTALL,
  O_TRIM,
  O_NO_TRIM,
  O_BUFFERED,
  O_GLOB_ICASE,
  O_NO_IGNORE_EXCLUDE,
  O_NO_IGNORE_GLOBAL,
  O_UNSUPPORTED
};

static const bi_opt rg_opts[] = {
    {"after-context", 'A', BI_ARG_REQUIRED},
    {"before-context", 'B', BI_ARG_REQUIRED},
    {"context", 'C', BI_ARG_REQUIRED},
    {"count", 'c', BI_ARG_NONE},
    {"count-matches", O_COUNT_MATCHES, BI_ARG_NONE},
    {"regexp", 'e', BI_ARG_REQUIRED},
    {"file", 'f', BI_ARG_REQUIRED},
    {"fixed-strings", 'F', BI_ARG_NONE},
    {"glob", 'g', BI_ARG_REQUIRED},
    {"iglob", O_IGLOB, BI_ARG_REQUIRED},
    {"with-filename", 'H', BI_ARG_NONE},
    {"no-filename", 'I', BI_ARG_NONE},
    {"ignore-case", 'i', BI_ARG_NONE},
    {"case-sensitive", 's', BI_ARG_NONE},
    {"smart-case", 'S', BI_ARG_NONE},
    {"files-with-matches", 'l', BI_ARG_NONE},
    {"files-without-match", O_FILES_WITHOUT, BI_ARG_NONE},
    {"follow", 'L', BI_ARG_NONE},
    {"no-follow", O_NO_FOLLOW, BI_ARG_NONE},
    {"max-count", 'm', BI_ARG_REQUIRED},
    {"line-number", 'n', BI_ARG_NONE},
    {"no-line-number", 'N', BI_ARG_NONE},
    {"only-matching", 'o', BI_ARG_NONE},
    {"pcre2", 'P', BI_ARG_NONE},
    {"no-pcre2", O_NO_PCRE2, BI_ARG_NONE},
    {"quiet", 'q', BI_ARG_NONE},
    {"replace", 'r', BI_ARG_REQUIRED},
    {"type", 't', BI_ARG_REQUIRED},
    {"type-not", 'T', BI_ARG_REQUIRED},
    {"type-list", O_TYPE_LIST, BI_ARG_NONE},
    {"unrestricted", 'u', BI_ARG_NONE},
    {"invert-match", 'v', BI_ARG_NONE},
    {"word-regexp", 'w', BI_ARG_NONE},
    {"line-regexp", 'x', BI_ARG_NONE},
    {"null", '0', BI_ARG_NONE},
    {"text", 'a', BI_ARG_NONE},
    {"no-text", O_NO_TEXT, BI_ARG_NONE},
    {"binary", O_BINARY, BI_ARG_NONE},
    {"no-binary", O_NO_BINARY, BI_ARG_NONE},
    {"heading", O_HEADING, BI_ARG_NONE},
    {"no-heading", O_NO_HEADING, BI_ARG_NONE},
    {"column", O_COLUMN, BI_ARG_NONE},
    {"no-column", O_NO_COLUMN, BI_ARG_NONE},
    {"vimgrep", O_VIMGREP, BI_ARG_NONE},
    {"json", O_JSON, BI_ARG_NONE},
    {"no-json", O_NO_JSON, BI_ARG_NONE},
    {"sort", O_SORT, BI_ARG_REQUIRED},
    {"sortr", O_SORTR, BI_ARG_REQUIRED},
    {"color", O_COLOR, BI_ARG_REQUIRED},
    {"colour", O_COLOR, BI_ARG_REQUIRED},
    {"no-messages", O_NO_MESSAGES, BI_ARG_NONE},
    {"messages", O_MESSAGES, BI_ARG_NONE},
    {"max-depth", O_MAX_DEPTH, BI_ARG_REQUIRED},
    {"maxdepth", O_MAX_DEPTH, BI_ARG_REQUIRED},
    {"hidden", O_HIDDEN, BI_ARG_NONE},
    {"no-hidden", O_NO_HIDDEN, BI_ARG_NONE},
    {"no-ignore", O_NO_IGNORE, BI_ARG_NONE},
    {"ignore", O_IGNORE, BI_ARG_NONE},
    {"no-ignore-vcs", O_NO_IGNORE_VCS, BI_ARG_NONE},
    {"no-ignore-parent", O_NO_IGNORE_PARENT, BI_ARG_NONE},
    {"no-ignore-dot", O_NO_IGNORE_DOT, BI_ARG_NONE},
    {"files", O_FILES, BI_ARG_NONE},
    {"no-config", O_NO_CONFIG, BI_ARG_NONE},
    {"mmap", O_MMAP, BI_ARG_NONE},
    {"no-mmap", O_MMAP, BI_ARG_NONE},
    {"threads", 'j', BI_ARG_REQUIRED},
    {"no-unicode", O_NO_UNICODE, BI_ARG_NONE},
    {"multiline", 'U', BI_ARG_NONE},
    {"no-multiline", O_NO_MULTILINE, BI_ARG_NONE},
    {"multiline-dotall", O_DOTALL, BI_ARG_NONE},
    {"no-multiline-dotall", O_NO_DOTALL, BI_ARG_NONE},
    {"pretty", 'p', BI_ARG_NONE},
    {"max-columns-preview", O_MAX_PREVIEW, BI_ARG_NONE},
    {"trim", O_TRIM, BI_ARG_NONE},
    {"no-trim", O_NO_TRIM, BI_ARG_NONE},
    {"line-buffered", O_BUFFERED, BI_ARG_NONE},
    {"block-buffered", O_BUFFERED, BI_ARG_NONE},
    {"glob-case-insensitive", O_GLOB_ICASE, BI_ARG_NONE},
    {"no-ignore-exclude", O_NO_IGNORE_EXCLUDE, BI_ARG_NONE},
    {"no-ignore-global", O_NO_IGNORE_GLOBAL, BI_ARG_NONE},
    {"max-columns", 'M', BI_ARG_REQUIRED},
    {"search-zip", 'z', BI_ARG_NONE},
    {"encoding", 'E', BI_ARG_REQUIRED},
    {"help", 'h', BI_ARG_NONE},
    {"version", 'V', BI_ARG_NONE},
    {NULL, 0, 0}};

static const char usage_text[] =
    "USAGE:\n"
    "    \n"
    "    rg [OPTIONS] PATTERN [PATH ...]\n"
    "    rg [OPTIONS] -e PATTERN ... [PATH ...]\n"
    "    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]\n"
    "    rg [OPTIONS] --files [PATH ...]\n"
    "    rg [OPTIONS] --type-list\n"
    "    command | rg [OPTIONS] PATTERN\n"
    "    rg [OPTIONS] --help\n"
    "    rg [OPTIONS] --version\n"
    "\n"
    "For more information try --help\n";

/* How clap names the options that take a value. */
static const struct {
  const char *name, *shown;
} arg_names[] = {{"after-context", "--after-context <NUM>"},
                 {"before-context", "--before-context <NUM>"},
                 {"context", "--context <NUM>"},
                 {"regexp", "--regexp <PATTERN>..."},
                 {"file", "--file <PATTERNFILE>..."},
                 {"glob", "--glob <GLOB>..."},
                 {"iglob", "--iglob <GLOB>..."},
                 {"max-count", "--max-count <NUM>"},
                 {"replace", "--replace <REPLACEMENT_TEXT>"},
                 {"type", "--type <TYPE>..."},
                 {"type-not", "--type-not <TYPE>..."},
                 {"threads", "--threads <NUM>"},
                 {"max-depth", "--max-depth <NUM>"},
                 {"maxdepth", "--max-depth <NUM>"},
                 {"sort", "--sort <SORTBY>"},
                 {"sortr", "--sortr <SORTBY>"},
                 {"color", "--color <WHEN>"},
                 {"colour", "--color <WHEN>"},
                 {"max-columns", "--max-columns <NUM>"},
                 {"encoding", "--encoding <ENCODING>"},
                 {NULL, NULL}};

/* The clap name of an option given as "x" (short) or "--name". */
static const char *arg_shown(const char *opt, size_t n) {
  const char *name = NULL;
  size_t nl = 0;
  if (n == 1) {
    for (const bi_opt *o = rg_opts; o->name; o++)
      if (o->id == (unsigned char)opt[0]) {
        name = o->name;
        nl = strlen(name);
        break;
      }
  } else if (n > 2 && opt[0] == '-' && opt[1] == '-') {
    name = opt + 2;
    nl = n - 2;
  }
  for (int i = 0; name && arg_names[i].name; i++)
    if (strlen(arg_names[i].name) == nl &&
        strncmp(arg_names[i].name, name, nl) == 0)
      return arg_names[i].shown;
  return NULL;
}

/* clap's complaint about an argument, then its usage block. */
static int clap_error(bi_ctx *c, const char *what) {
  stream_printf(c->err, "error: %s\n\n%s\n", what, usage_text);
  return 2;
}

typedef struct pats {
  rg_pat *v;
  size_t n, cap;
  buf *bufs;
  size_t nbufs, cbufs;
} pats;

static int add_pat(bi_ctx *c, pats *p, const char *s, size_t n) {
  if (p->n == p->cap) {
    size_t nc = p->cap ? p->cap * 2 : 8;
    rg_pat *nv = mem_realloc(c->m, p->v, nc * sizeof *nv);
    if (!nv)
      return -1;
    p->v = nv;
    p->cap = nc;
  }
  p->v[p->n].s = s;
  p->v[p->n].n = n;
  p->n++;
  return 0;
}

/* -f FILE: one pattern a line (a last line without newline counts). */
static int add_file(rg *r, pats *p, const char *path) {
  bi_ctx *c = r->c;
  int err = 0;
  stream *s = bi_open_read(c, path, &err);
  if (!s) {
    stream_printf(c->err, "%s: %s (os error %d)\n", path, bi_strerror(err),
                  err);
    return -1;
  }
  if (p->nbufs == p->cbufs) {
    size_t nc = p->cbufs ? p->cbufs * 2 : 4;
    buf *nb = mem_realloc(c->m, p->bufs, nc * sizeof *nb);
    if (!nb) {
      stream_unref(s);
      return bi_error(c, "memory exhausted");
    }
    p->bufs = nb;
    p->cbufs = nc;
  }
  buf *b = &p->bufs[p->nbufs++];
  buf_init(b, c->m);
  const char *d;
  size_t n;
  int rc = tu_slurp(c, s, &d, &n, b, &err);
  if (rc == 0 && d != b->data) {
    buf_append(b, d, n);
    d = b->data ? b->data : "";
    if (b->oom)
      rc = -1, err = ENOMEM;
  }
  stream_unref(s);
  if (rc < 0) {
    if (err != ECANCELED)
      stream_printf(c->err, "%s: %s (os error %d)\n", path, bi_strerror(err),
                    err);
    return -1;
  }
  for (size_t i = 0; i < n;) {
    const char *nl = memchr(d + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - d) : n;
    size_t k = e;
    if (k > i && d[k - 1] == '\r')
      k--;
    if (add_pat(c, p, d + i, k - i))
      return bi_error(c, "memory exhausted");
    i = e + 1;
  }
  return 0;
}

static int num_arg(bi_ctx *c, const char *opt, const char *arg, int64_t *v) {
  int64_t n = 0;
  const char *s = arg;
  if (!*s)
    goto bad;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      goto bad;
    n = n > (INT64_MAX - 9) / 10 ? INT64_MAX : n * 10 + (*s - '0');
  }
  *v = n;
  return 0;
bad:
  stream_printf(c->err,
                "error: Invalid value for '%s': invalid digit found "
                "in string\n\n",
                opt);
  return -1;
}

static int add_type(rg *r, const char *name, int select) {
  bi_ctx *c = r->c;
  const rg_type *t = rg_type_find(name);
  if (!t) {
    stream_printf(c->err, "unrecognized file type: %s\n", name);
    return -1;
  }
  for (const char *g = t->globs; *g;) {
    const char *e = strchr(g, ',');
    size_t n = e ? (size_t)(e - g) : strlen(g);
    rg_gi *gi = &r->type_sel;
    if (gi->n == gi->cap) {
      size_t nc = gi->cap ? gi->cap * 2 : 8;
      rg_glob *nv = mem_realloc(c->m, gi->v, nc * sizeof *nv);
      if (!nv)
        return bi_error(c, "memory exhausted");
      gi->v = nv;
      gi->cap = nc;
    }
    rg_glob *gl = &gi->v[gi->n];
    memset(gl, 0, sizeof *gl);
    if (rg_glob_compile(&r->env, &gl->re, g, n, 0) < 0)
      return bi_error(c, "memory exhausted");
    gl->neg = select; /* a '!' entry answers "whitelist" */
    gi->n++;
    g += n;
    if (*g == ',')
      g++;
  }
  if (select)
    r->ntypes_sel++;
  return 0;
}

static void type_list(rg *r) {
  size_t n;
  const rg_type *t = rg_types(&n);
  for (size_t i = 0; i < n; i++) {
    wr_puts(&r->w, t[i].name);
    wr_puts(&r->w, ": ");
    for (const char *g = t[i].globs; *g; g++) {
      if (*g == ',')
        wr_puts(&r->w, ", ");
      else
        wr_putc(&r->w, *g);
    }
    wr_putc(&r->w, '\n');
  }
}

/* Is standard input something to search (a pipe, or data)? The sandbox's
 * empty input and a terminal are not: rg then searches "./". */
static int stdin_readable(bi_ctx *c, const char **data, size_t *len) {
  *data = NULL;
  *len = 0;
  if (!c->in || (c->in->flags & STREAM_TTY) || stream_is_null(c->in))
    return 0;
  if (stream_take_all(c->in, data, len) == 0)
    return *len > 0;
  return 1;
}

static void search_stdin(rg *r, const char *data, size_t len) {
  bi_ctx *c = r->c;
  if (data) {
    rg_search(r, "<stdin>", data, len, 1);
    return;
  }
  buf b;
  buf_init(&b, c->m);
  const char *d;
  size_t n;
  int err = 0;
  if (tu_slurp(c, c->in, &d, &n, &b, &err) == 0)
    rg_search(r, "<stdin>", d, n, 1);
  else if (err == ECANCELED)
    r->stop = 1;
  else
    rg_file_error(r, "<stdin>", err);
  buf_free(&b);
}

int bi_rg(bi_ctx *c) {
  rg *r = mem_calloc(c->m, 1, sizeof *r);
  if (!r) {
    bi_error(c, "memory exhausted");
    return 2;
  }
  r->c = c;
  r->max_count = -1;
  r->before = r->after = -1;
  r->max_depth = -1;
  r->t0 = c->now_ns ? c->now_ns(c) : 0;
  int status = 2, have_e = 0, lineno = -1, fname = -1, heading = -1;
  int help = 0, type_list_mode = 0, unres = 0, glob_icase = 0;
  /* --glob-case-insensitive applies to every -g, also the earlier ones */
  for (int i = 1; i < c->argc && strcmp(c->argv[i], "--"); i++)
    if (!strcmp(c->argv[i], "--glob-case-insensitive"))
      glob_icase = 1;
  int64_t ctx = -1;
  rg_mcfg mc = {0};
  pats p;
  memset(&p, 0, sizeof p);
  wr_init(&r->w, c->out);
  if (rx_env_init(&r->env, c->m, 4 * 1024 * 1024) < 0) {
    mem_free(c->m, r);
    bi_error(c, "memory exhausted");
    return 2;
  }
  r->env.bud = c->bud;

  buf errcap;
  buf_init(&errcap, c->m);
  stream *real_err = c->err;
  stream *cap = stream_capture(c->m, c->bud, &errcap, NULL, NULL, 2, 0);
  if (cap)
    c->err = cap;
  bi_getopt go;
  bi_getopt_init(&go, c, "0A:B:C:E:FHILM:NPSST:UVace:f:g:hij:lm:nopqr:st:uvwxz",
                 rg_opts);
  int o, bad = 0;
  const char *msg = NULL;
  while (!bad && (o = bi_getopt_next(&go)) != -1) {
    switch (o) {
    case 'A':
      bad = num_arg(c, "--after-context <NUM>", go.arg, &r->after) ? 3 : 0;
      break;
    case 'B':
      bad = num_arg(c, "--before-context <NUM>", go.arg, &r->before) ? 3 : 0;
      break;
    case 'C':
      bad = num_arg(c, "--context <NUM>", go.arg, &ctx) ? 3 : 0;
      break;
    case 'm':
      bad = num_arg(c, "--max-count <NUM>", go.arg, &r->max_count) ? 3 : 0;
      break;
    case O_MAX_DEPTH: {
      int64_t v = 0;
      bad = num_arg(c, "--max-depth <NUM>", go.arg, &v) ? 3 : 0;
      r->max_depth = v > 1000000 ? 1000000 : (int)v;
      break;
    }
    case 'j': {
      int64_t v = 0;
      bad = num_arg(c, "--threads <NUM>", go.arg, &v) ? 3 : 0;
      break; /* one thread always: the count changes nothing visible */
    }
    case 'c':
      r->count = 1;
      break;
    case O_COUNT_MATCHES:
      r->count = 2;
      break;
    case 'e':
      have_e = 1;
      if (add_pat(c, &p, go.arg, strlen(go.arg)))
        bad = 2;
      break;
    case 'f':
      have_e = 1;
      if (add_file(r, &p, go.arg))
        bad = 3;
      break;
    case 'F':
      mc.fixed = 1;
      break;
    case 'g':
    case O_IGLOB:
      if (rg_gi_add(&r->env, &r->over, go.arg, strlen(go.arg),
                    o == O_IGLOB || glob_icase, &msg) < 0) {
        stream_printf(c->err, "error parsing glob '%s': %s\n", go.arg,
                      msg ? msg : "invalid glob");
        bad = 3;
      }
      break;
    case 'H':
      fname = 1;
      break;
    case 'I':
      fname = 0;
      break;
    case 'i':
      mc.icase = 1;
      mc.smart = 0;
      break;
    case 's':
      mc.icase = 0;
      mc.smart = 0;
      break;
    case 'S':
      mc.smart = 1;
      mc.icase = 0;
      break;
    case 'l':
      r->list = 1;
      break;
    case O_FILES_WITHOUT:
      r->list = 2;
      break;
    case 'L':
      r->follow = 1;
      break;
    case O_NO_FOLLOW:
      r->follow = 0;
      break;
    case 'n':
      lineno = 1;
      break;
    case 'N':
      lineno = 0;
      break;
    case 'o':
      r->only = 1;
      break;
    case 'P':
      mc.pcre = 1;
      break;
    case O_NO_PCRE2:
      mc.pcre = 0;
      break;
    case 'q':
      r->quiet = 1;
      break;
    case 'r':
      r->replace = go.arg;
      break;
    case 't':
    case 'T':
      if (add_type(r, go.arg, o == 't'))
        bad = 3;
      break;
    case O_TYPE_LIST:
      type_list_mode = 1;
      break;
    case 'u':
      unres++;
      break;
    case 'v':
      r->invert = 1;
      break;
    case 'w':
      mc.word = 1;
      break;
    case 'x':
      mc.line = 1;
      break;
    case '0':
      r->nul = 1;
      break;
    case 'a':
      r->text = 1;
      break;
    case O_NO_TEXT:
      r->text = 0;
      break;
    case O_BINARY:
      r->binary_all = 1;
      break;
    case O_NO_BINARY:
      r->binary_all = 0;
      break;
    case O_HEADING:
      heading = 1;
      break;
    case O_NO_HEADING:
      heading = 0;
      break;
    case O_COLUMN:
      r->column = 1;
      break;
    case O_NO_COLUMN:
      r->column = 0;
      break;
    case O_VIMGREP:
      r->vimgrep = 1;
      break;
    case O_JSON:
      r->json = 1;
      break;
    case O_NO_JSON:
      r->json = 0;
      break;
    case O_SORT:
    case O_SORTR:
      r->sorted = 1;
      if (o == O_SORTR || (strcmp(go.arg, "path") && strcmp(go.arg, "none"))) {
        if (o == O_SORT && strcmp(go.arg, "modified") &&
            strcmp(go.arg, "accessed") && strcmp(go.arg, "created")) {
          stream_printf(c->err,
                        "error: '%s' isn't a valid value for '--%s "
                        "<SORTBY>'\n\t[possible values: accessed, created, "
                        "modified, none, path]\n\n\n%s\n",
                        go.arg, o == O_SORT ? "sort" : "sortr", usage_text);
        } else {
          stream_printf(c->err, "rg: --%s %s is not supported\n",
                        o == O_SORT ? "sort" : "sortr", go.arg);
        }
        bad = 3;
      }
      break;
    case O_COLOR:
      if (!strcmp(go.arg, "always") || !strcmp(go.arg, "ansi")) {
        r->color = 1;
      } else if (!strcmp(go.arg, "never") || !strcmp(go.arg, "auto")) {
        r->color = 0; /* auto: stdout is never a terminal here */
      } else {
        stream_printf(c->err,
                      "error: '%s' isn't a valid value for '--color "
                      "<WHEN>'\n\t[possible values: always, ansi, auto, "
                      "never]\n\n\n%s\n",
                      go.arg, usage_text);
        bad = 3;
      }
      break;
    case O_NO_MESSAGES:
      r->nomsg = 1;
      break;
    case O_MESSAGES:
      r->nomsg = 0;
      break;
    case O_HIDDEN:
      r->hidden = 1;
      break;
    case O_NO_HIDDEN:
      r->hidden = 0;
      break;
    case O_NO_IGNORE:
      r->no_ignore = 1;
      break;
    case O_IGNORE:
      r->no_ignore = 0;
      break;
    case O_NO_IGNORE_VCS:
      r->no_ignore_vcs = 1;
      break;
    case O_NO_IGNORE_PARENT:
      r->no_ignore_parent = 1;
      break;
    case O_NO_IGNORE_DOT:
      r->no_ignore_dot = 1;
      break;
    case O_FILES:
      r->files_mode = 1;
      break;
    case O_NO_CONFIG:
    case O_MMAP:
      break; /* no configuration file is ever read; no memory maps */
    case 'h':
      help = 1;
      break;
    case 'V':
      help = 2;
      break;
    case 'p': /* --pretty: colors, headings, line numbers */
      r->color = 1;
      heading = 1;
      lineno = 1;
      break;
    case 'M': {
      int64_t v = 0;
      bad = num_arg(c, "--max-columns <NUM>", go.arg, &v) ? 3 : 0;
      r->max_columns = v;
      break;
    }
    case 'U':
      r->multiline = 1;
      break;
    case O_NO_MULTILINE:
      r->multiline = 0;
      break;
    case O_DOTALL:
      mc.dotall = 1;
      break;
    case O_NO_DOTALL:
      mc.dotall = 0;
      break;
    case O_MAX_PREVIEW:
      r->max_preview = 1;
      break;
    case O_TRIM:
      r->trim = 1;
      break;
    case O_NO_TRIM:
      r->trim = 0;
      break;
    case O_BUFFERED:
      break; /* output is flushed when the command ends either way */
    case O_GLOB_ICASE:
      glob_icase = 1;
      break;
    case O_NO_IGNORE_EXCLUDE:
      r->no_ignore_exclude = 1;
      break;
    case O_NO_IGNORE_GLOBAL:
      break; /* no global gitignore exists inside the sandbox */
    case 'z':
    case 'E':
    case O_NO_UNICODE:
      stream_printf(c->err, "rg: %s is not supported\n",
                    go.idx > 0 ? c->argv[go.idx - 1] : "option");
      bad = 3;
      break;
    default:
      bad = 1;
      break;
    }
  }
  c->err = real_err;
  if (cap) {
    if (bad == 1) {
      /* bi_getopt's words become clap's */
      const char *t = buf_cstr(&errcap);
      char what[256];
      const char *q = strchr(t, '\'');
      const char *q2 = q ? strchr(q + 1, '\'') : NULL;
      const char *sh = q && q2 ? arg_shown(q + 1, (size_t)(q2 - q - 1)) : 0;
      if (strstr(t, "requires an argument") && sh) {
        snprintf(what, sizeof what,
                 "The argument '%s' requires a value but none was supplied",
                 sh);
      } else if (strstr(t, "requires an argument") && q && q2) {
        snprintf(what, sizeof what,
                 "The argument '%s%.*s' requires a value but none was "
                 "supplied",
                 strstr(t, "option '--") ? "" : "-", (int)(q2 - q - 1), q + 1);
      } else if (q && q2) {
        snprintf(what, sizeof what,
                 "Found argument '%s%.*s' which wasn't expected, or isn't "
                 "valid in this context",
                 strstr(t, "unrecognized option") ? "" : "-", (int)(q2 - q - 1),
                 q + 1);
      } else {
        snprintf(what, sizeof what, "invalid arguments");
      }
      clap_error(c, what);
    } else if (errcap.len) {
      stream_write(real_err, errcap.data, errcap.len);
    }
    stream_unref(cap);
    cap = NULL;
  }
  if (bad)
    goto out;
  if (help == 1) {
    status = bi_print_help(c);
    goto out;
  }
  if (help == 2) {
    stream_puts(c->out, "rg (vsh; ripgrep 13 compatible) 13.0.0\n");
    status = 0;
    goto out;
  }
  if (type_list_mode) {
    type_list(r);
    status = wr_flush(&r->w) < 0 ? bi_stream_status(c->out->err) : 0;
    goto out;
  }
  if (unres >= 1)
    r->no_ignore = 1;
  if (unres >= 2)
    r->hidden = 1;
  if (unres >= 3)
    r->binary_all = 1;
  int first = 0;
  if (!have_e && !r->files_mode) {
    if (go.noperands == 0) {
      stream_printf(c->err,
                    "error: The following required arguments were not "
                    "provided:\n    <PATTERN>\n\n%s\n",
                    usage_text);
      goto out;
    }
    if (add_pat(c, &p, go.operands[0], strlen(go.operands[0])))
      goto out;
    first = 1;
  }
  if (r->after < 0)
    r->after = ctx;
  if (r->before < 0)
    r->before = ctx;
  if (r->vimgrep || r->count || r->list || r->quiet || r->files_mode)
    r->before = r->after = 0;
  if (!r->files_mode) {
    if (p.n == 0) {
      r->never = 1;
    } else if ((mc.multiline = r->multiline, mc.dotall &= r->multiline,
                rg_compile(c, &r->env, &r->re, p.v, p.n, &mc) < 0)) {
      goto out;
    } else {
      r->compiled = 1;
    }
  }
  int nop = go.noperands - first;
  char **ops = go.operands + first;
  const char *in_data = NULL;
  size_t in_len = 0;
  int use_stdin = nop == 0 && !r->files_mode && !type_list_mode &&
                  stdin_readable(c, &in_data, &in_len);
  int dir_op = nop == 0 && !use_stdin;
  int all_files = nop > 0;
  for (int i = 0; i < nop; i++) {
    vfs_stat_t st;
    if (strcmp(ops[i], "-") == 0) {
      all_files = 0;
      continue;
    }
    if (vfs_stat(c->vfs, c->cwd, ops[i], &st) < 0 || st.type != VFS_REG)
      all_files = 0;
    if (nop == 1 && vfs_stat(c->vfs, c->cwd, ops[i], &st) == 0 &&
        st.type == VFS_DIR)
      dir_op = 1;
  }
  r->mmap_like = all_files && nop <= 10;
  r->with_fname = fname >= 0 ? fname : (r->vimgrep || nop > 1 || dir_op);
  r->lineno = lineno >= 0 ? lineno : (r->column || r->vimgrep || r->json);
  if (r->vimgrep)
    r->column = 1;
  r->heading = heading > 0 && !r->vimgrep && !r->json;
  if (r->json)
    r->lineno = 1;

  if (nop == 0) {
    if (use_stdin)
      search_stdin(r, in_data, in_len);
    else
      rg_walk(r, ".", NULL);
  }
  for (int i = 0; i < nop && !r->stop; i++) {
    const char *op = ops[i];
    if (strcmp(op, "-") == 0) {
      search_stdin(r, NULL, 0);
      continue;
    }
    vfs_stat_t st;
    int rc = vfs_stat(c->vfs, c->cwd, op, &st);
    if (rc < 0) {
      rg_file_error(r, op, -rc);
      continue;
    }
    if (st.type == VFS_DIR)
      rg_walk(r, op, op);
    else
      rg_search_path(r, op, op, 1);
  }
  if (r->json && !r->stop)
    rg_json_summary(r);
  if (!r->stop || r->quiet)
    if (wr_flush(&r->w) < 0 && !r->status)
      r->status = bi_stream_status(c->out->err);
  if (nop == 0 && !use_stdin && !r->searched && !r->stop) {
    r->errored = 1;
    if (!r->nomsg)
      stream_puts(c->err,
                  "No files were searched, which means ripgrep probably "
                  "applied a filter you didn't expect.\nRunning with --debug "
                  "will show why files are being skipped.\n");
  }
  if (r->status)
    status = r->status;
  else if (r->matched && (r->quiet || !r->errored))
    status = 0;
  else if (r->errored)
    status = 2;
  else
    status = r->matched ? 0 : 1;
  if (r->files_mode && !r->errored && !r->status)
    status = r->searched ? 0 : 1;
  if (r->list == 2 && !r->status && !r->errored)
    status = r->any_printed ? 0 : 1;
out:
  c->err = real_err;
  if (cap)
    stream_unref(cap);
  buf_free(&errcap);
  if (r->compiled)
    rx_free(&r->re);
  rg_gi_free(c->m, &r->over);
  rg_gi_free(c->m, &r->type_sel);
  rx_env_free(&r->env);
  for (size_t i = 0; i < p.nbufs; i++)
    buf_free(&p.bufs[i]);
  mem_free(c->m, p.bufs);
  mem_free(c->m, p.v);
  mem_free(c->m, r);
  return status;
}
