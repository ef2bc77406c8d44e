/*
 * find_expr.c - find's expression: parser (options, tests, operators,
 * actions) and evaluation of the tests. The walk and the output actions
 * live in find.c.
 *
 * Grammar, loosest first, as GNU find: `expr , expr`, `expr -o expr`,
 * `expr [-a] expr`, `! expr`, `( expr )`, primaries. And/or/comma chains
 * become one n-ary node, so a long `-name a -o -name b -o ...` list does
 * not nest the evaluator's recursion; only parentheses and `!` do, and
 * those are bounded (FX_MAX_NEST) so a hostile command line cannot exhaust
 * a fiber's stack.
 *
 * Messages: GNU findutils 4.9 wording. What findutils quotes with quote()
 * (file names, dates, modes, user and group names, ...) is quoted for the
 * sandbox's locale (tu_quote: ‘...’ under UTF-8); the words 4.9 writes
 * between ` and ' get plain apostrophes, as newer releases print them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtins/search/find/find.h"
#include "builtins/textutil.h"
#include "core/pattern.h"
#include "core/regex.h"

#define FX_MAX_NEST 200

enum {
  N_AND,
  N_OR,
  N_COMMA,
  N_NOT,
  N_TRUE,
  N_FALSE,
  N_NAME,  /* -name -iname */
  N_PATH,  /* -path -ipath -wholename -iwholename */
  N_LNAME, /* -lname -ilname */
  N_REGEX, /* -regex -iregex */
  N_TYPE,
  N_XTYPE,
  N_SIZE,
  N_EMPTY,
  N_NEWER, /* -newer -anewer -cnewer -newerXY */
  N_TIME,  /* -mtime -mmin ... */
  N_PERM,
  N_UID, /* -user -uid */
  N_GID, /* -group -gid */
  N_NOUSER,
  N_NOGROUP,
  N_LINKS,
  N_INUM,
  N_ACCESS,
  N_SAMEFILE,
  N_PRINT,
  N_PRINT0,
  N_PRINTF,
  N_LS,
  N_DELETE,
  N_PRUNE,
  N_QUIT,
  N_EXEC
};

struct fnode {
  int kind;
  fnode **kid;
  int nkid, capkid;
  const char *s; /* pattern, format */
  size_t slen;
  int nocase;
  int cmp;    /* -1 "-N", 0 "N", 1 "+N" */
  double num; /* -mtime and friends */
  uint64_t n; /* sizes, counts, ids */
  uint64_t unit;
  int64_t t; /* reference time (ns) */
  int field; /* 'a', 'c' or 'm': which time of the file */
  unsigned types;
  unsigned mode;
  int permkind; /* 0 exact, '-' all bits, '/' any bit */
  int amode;
  rx_env *rxe; /* -regex: its PCRE2 contexts (NULL until compiled) */
  rx rx;       /* POSIX: matched as a whole, never limited silently */
  /* -exec family */
  char **cmd;
  int ncmd;
  int plus, ok;
  const char *pname; /* "-exec", "-ok", ... for messages */
  char **batch;
  size_t nbatch, capbatch, bytes;
  fnode *next_owned;
};

typedef struct parser {
  fx *x;
  char **av;
  int ac, i;
  int nest;
  int has_action;
  int err;
} parser;

/* ---- helpers ------------------------------------------------------------ */

static fnode *new_node(parser *p, int kind) {
  fnode *n = arena_calloc(p->x->c->scratch, sizeof *n);
  if (!n) {
    fx_error(p->x, "memory exhausted");
    p->err = 1;
    return NULL;
  }
  n->kind = kind;
  return n;
}

static int add_kid(parser *p, fnode *n, fnode *k) {
  if (n->nkid == n->capkid) {
    int cap = n->capkid ? n->capkid * 2 : 4;
    fnode **nk = arena_alloc(p->x->c->scratch, (size_t)cap * sizeof *nk);
    if (!nk) {
      fx_error(p->x, "memory exhausted");
      p->err = 1;
      return -1;
    }
    if (n->nkid)
      memcpy(nk, n->kid, (size_t)n->nkid * sizeof *nk);
    n->kid = nk;
    n->capkid = cap;
  }
  n->kid[n->nkid++] = k;
  return 0;
}

static void own(fx *x, fnode *n) {
  n->next_owned = x->owned;
  x->owned = n;
}

static int perr(parser *p, const char *fmt, const char *a, const char *b) {
  fx_error(p->x, fmt, a, b);
  p->err = 1;
  return -1;
}

/* The "+" (more than) or "-" (less than) before a numeric argument: *cmp
 * gets 1, -1 or 0 (exactly), and the rest of s is returned. */
static const char *parse_sign(const char *s, int *cmp) {
  *cmp = 0;
  if (*s == '+')
    *cmp = 1, s++;
  else if (*s == '-')
    *cmp = -1, s++;
  return s;
}

/* The decimal digits at s: what follows them, or NULL when there are none
 * or the value overflows. */
static const char *parse_digits(const char *s, uint64_t *v) {
  if (*s < '0' || *s > '9')
    return NULL;
  uint64_t r = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    if (r > (UINT64_MAX - 9) / 10)
      return NULL;
    r = r * 10 + (uint64_t)(*s - '0');
  }
  *v = r;
  return s;
}

/* "+N", "-N" or "N" with N a decimal integer. */
static int parse_num(const char *s, int *cmp, uint64_t *v) {
  s = parse_digits(parse_sign(s, cmp), v);
  return s && !*s ? 0 : -1;
}

static int cmp_num(int cmp, uint64_t have, uint64_t want) {
  return cmp > 0 ? have > want : cmp < 0 ? have < want : have == want;
}

static int id_of(const char *s, int group, uint64_t *out) {
  if (strcmp(s, "root") == 0) {
    *out = 0;
    return 0;
  }
  if (strcmp(s, "user") == 0) {
    *out = group ? VFS_DEFAULT_GID : VFS_DEFAULT_UID;
    return 0;
  }
  int cmp;
  if (parse_num(s, &cmp, out) == 0 && cmp == 0 && *out <= UINT32_MAX)
    return 0;
  return -1;
}

/* The shell's matcher: UTF-8 aware like GNU's fnmatch in a UTF-8 locale. */
static int glob_test(fx *x, const char *pat, size_t pl, const char *s,
                     size_t sl, int nocase) {
  (void)x;
  return pat_match(pat, pl, s, sl, nocase ? PAT_NOCASE : 0);
}

/* ---- regular expressions ----------------------------------------------- */

/* A bracket expression starting at re[i] == '[': POSIX rules (backslash is
 * literal inside) written for PCRE2. Returns the index after ']', or 0 when
 * unterminated (then '[' is taken literally). */
static size_t copy_bracket(const char *re, size_t n, size_t i, buf *b) {
  size_t j = i + 1;
  size_t start = b->len;
  buf_putc(b, '[');
  if (j < n && re[j] == '^')
    buf_putc(b, '^'), j++;
  if (j < n && re[j] == ']')
    buf_puts(b, "\\]"), j++;
  while (j < n) {
    char d = re[j];
    if (d == '[' && j + 1 < n &&
        (re[j + 1] == ':' || re[j + 1] == '.' || re[j + 1] == '=')) {
      char kind = re[j + 1];
      size_t k;
      for (k = j + 2; k + 1 < n; k++)
        if (re[k] == kind && re[k + 1] == ']')
          break;
      if (k + 1 < n) {
        if (kind == ':')
          buf_append(b, re + j, k + 2 - j);
        else
          buf_append(b, re + j + 2, k - (j + 2));
        j = k + 2;
        continue;
      }
    }
    if (d == ']') {
      buf_putc(b, ']');
      return j + 1;
    }
    if (d == '\\' || d == '[')
      buf_putc(b, '\\');
    buf_putc(b, d);
    j++;
  }
  b->len = start;
  return 0;
}

/* Translate a pattern of the given dialect into PCRE2 syntax. Emacs (the
 * findutils default): \( \) \| group and alternate, ( ) | { } are literal,
 * no intervals. BRE: \( \) \{ \} \| \+ \?, the rest literal. ERE: PCRE's
 * own syntax apart from bracket expressions and \< \>. */
static void translate(const char *re, size_t n, int type, buf *b) {
  for (size_t i = 0; i < n; i++) {
    char ch = re[i];
    if (ch == '[') {
      size_t e = copy_bracket(re, n, i, b);
      if (e) {
        i = e - 1;
        continue;
      }
      buf_puts(b, "\\[");
      continue;
    }
    if (ch == '\\' && i + 1 < n) {
      char d = re[++i];
      if (d == '<' || d == '>') {
        buf_puts(b, "\\b");
      } else if (type != FRE_ERE && (d == '(' || d == ')' || d == '|')) {
        buf_putc(b, d);
      } else if (type == FRE_BRE &&
                 (d == '{' || d == '}' || d == '+' || d == '?')) {
        buf_putc(b, d);
      } else if (type == FRE_EMACS && d == '`') {
        buf_puts(b, "\\A");
      } else if (type == FRE_EMACS && d == '\'') {
        buf_puts(b, "\\z");
      } else if ((d >= '1' && d <= '9') || d == 'w' || d == 'W' || d == 'b' ||
                 d == 'B' || (type != FRE_EMACS && (d == 's' || d == 'S'))) {
        buf_putc(b, '\\');
        buf_putc(b, d);
      } else if ((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') ||
                 (d >= '0' && d <= '9') || (unsigned char)d >= 0x80) {
        buf_putc(b, d); /* an unknown escape means the letter itself */
      } else {
        buf_putc(b, '\\');
        buf_putc(b, d);
      }
      continue;
    }
    if (type != FRE_ERE &&
        (ch == '(' || ch == ')' || ch == '|' || ch == '{' || ch == '}')) {
      buf_putc(b, '\\');
      buf_putc(b, ch);
      continue;
    }
    if (type == FRE_BRE && (ch == '+' || ch == '?')) {
      buf_putc(b, '\\');
      buf_putc(b, ch);
      continue;
    }
    /* A leading '*' is literal in BRE and emacs syntax. */
    if (type != FRE_ERE && ch == '*' && (i == 0 || (i == 1 && re[0] == '^'))) {
      buf_puts(b, "\\*");
      continue;
    }
    buf_putc(b, ch);
  }
}

static int compile_regex(parser *p, fnode *n, const char *pname) {
  fx *x = p->x;
  buf b;
  buf_init(&b, x->c->m);
  /* find matches the whole path: the match is anchored at both ends (see
   * fx_eval), and the group keeps a top-level alternation inside. */
  buf_puts(&b, "(?:");
  translate(n->s, n->slen, x->regtype, &b);
  buf_puts(&b, ")");
  int ec = 0;
  size_t eo;
  uint32_t opts = PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY | PCRE2_UTF |
                  PCRE2_MATCH_INVALID_UTF | PCRE2_UCP;
  if (n->nocase)
    opts |= PCRE2_CASELESS;
  n->rxe = mem_alloc(x->c->m, sizeof *n->rxe);
  if (n->rxe && rx_env_init(n->rxe, x->c->m, 0) < 0) {
    mem_free(x->c->m, n->rxe);
    n->rxe = NULL;
  }
  if (n->rxe)
    n->rxe->bud = x->c->bud; /* long automaton searches poll it */
  int rc = n->rxe ? rx_compile(n->rxe, &n->rx, b.data ? b.data : "", b.len,
                               opts, RX_POSIX, NULL, &ec, &eo)
                  : -1;
  buf_free(&b);
  own(x, n);
  if (rc < 0) {
    PCRE2_UCHAR msg[256] = "out of memory";
    if (ec && ec != PCRE2_ERROR_NOMEMORY)
      pcre2_get_error_message(ec, msg, sizeof msg);
    (void)pname;
    return perr(p, "failed to compile regular expression '%s': %s", n->s,
                (const char *)msg);
  }
  return 0;
}

static int set_regextype(parser *p, const char *t) {
  static const struct {
    const char *name;
    int type;
  } types[] = {{"findutils-default", FRE_EMACS},
               {"ed", FRE_BRE},
               {"emacs", FRE_EMACS},
               {"gnu-awk", FRE_ERE},
               {"grep", FRE_BRE},
               {"posix-awk", FRE_ERE},
               {"awk", FRE_ERE},
               {"posix-basic", FRE_BRE},
               {"posix-egrep", FRE_ERE},
               {"egrep", FRE_ERE},
               {"posix-extended", FRE_ERE},
               {"posix-minimal-basic", FRE_BRE},
               {"sed", FRE_BRE}};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
    if (strcmp(t, types[k].name) == 0) {
      p->x->regtype = types[k].type;
      return 0;
    }
  static const char *const names[] = {"findutils-default",
                                      "ed",
                                      "emacs",
                                      "gnu-awk",
                                      "grep",
                                      "posix-awk",
                                      "awk",
                                      "posix-basic",
                                      "posix-egrep",
                                      "egrep",
                                      "posix-extended",
                                      "posix-minimal-basic",
                                      "sed"};
  bi_ctx *c = p->x->c;
  buf b;
  buf_init(&b, c->m);
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    buf_printf(&b, "%s%s", k ? ", " : "", tu_quote(c, names[k]));
  perr(p, "Unknown regular expression type %s; valid types are %s.",
       tu_quote(c, t), b.oom ? "..." : buf_cstr(&b));
  buf_free(&b);
  return -1;
}

/* ---- stat helpers ---------------------------------------------------------
 */

const vfs_stat_t *fx_lstat(fx *x, fent *e) {
  if (!e->lst_done) {
    e->lst_done = 1;
    int rc = vfs_lstat(x->c->vfs, x->c->cwd, e->path, &e->lst);
    e->lst_err = rc < 0 ? -rc : 0;
  }
  return e->lst_err ? NULL : &e->lst;
}

/* The view the tests use: through symlinks when following. */
const vfs_stat_t *fx_stat(fx *x, fent *e) {
  if (!e->follow)
    return fx_lstat(x, e);
  if (!e->st_done) {
    e->st_done = 1;
    int rc = vfs_stat(x->c->vfs, x->c->cwd, e->path, &e->st);
    e->st_err = rc < 0 ? -rc : 0;
  }
  if (!e->st_err)
    return &e->st;
  return fx_lstat(x, e); /* dangling link: its own data, like GNU */
}

static unsigned type_bit(int t) {
  return 1u << t;
}

/* The entry's type as the tests see it (cheap: the dirent type when not
 * following). 0 when it cannot be stated. */
static int entry_type(fx *x, fent *e) {
  if (!e->follow && e->dtype)
    return e->dtype;
  const vfs_stat_t *st = fx_stat(x, e);
  return st ? st->type : 0;
}

/* -xtype: the other view. */
static int entry_xtype(fx *x, fent *e) {
  if (e->follow) {
    const vfs_stat_t *st = fx_lstat(x, e);
    return st ? st->type : 0;
  }
  int t = e->dtype;
  if (!t) {
    const vfs_stat_t *st = fx_lstat(x, e);
    t = st ? st->type : 0;
  }
  if (t != VFS_LNK)
    return t;
  vfs_stat_t st;
  if (vfs_stat(x->c->vfs, x->c->cwd, e->path, &st) < 0)
    return VFS_LNK;
  return st.type;
}

static int is_empty_dir(fx *x, fent *e) {
  vfs_dir *d;
  if (vfs_opendir(x->c->vfs, x->c->cwd, e->path, &d) < 0)
    return 0;
  vfs_dirent de;
  int r = vfs_dir_next(d, &de);
  vfs_closedir(d);
  return r == 0;
}

/* ---- -exec ----------------------------------------------------------------
 */

/* Replace every "{}" in arg by path (arena memory). */
static char *subst(arena *a, const char *arg, const char *path) {
  size_t pl = strlen(path), n = 0;
  for (const char *q = arg; (q = strstr(q, "{}")) != NULL; q += 2)
    n++;
  if (!n)
    return (char *)arg;
  size_t al = strlen(arg);
  char *r = arena_alloc(a, al + n * pl + 1), *o = r;
  if (!r)
    return NULL;
  for (const char *q = arg;;) {
    const char *h = strstr(q, "{}");
    if (!h) {
      strcpy(o, q);
      break;
    }
    memcpy(o, q, (size_t)(h - q));
    o += h - q;
    memcpy(o, path, pl);
    o += pl;
    q = h + 2;
  }
  return r;
}

static int run_cmd(fx *x, char **argv, int ok) {
  bi_ctx *c = x->c;
  if (wr_flush(&x->w) < 0) {
    x->stop = 1;
    x->stop_rc = fu_out_status(&x->w);
    return -1;
  }
  stream *in = NULL;
  if (ok)
    in = stream_null(c->m, c->bud);
  int st = c->run_argv(c, argv, in, NULL, NULL);
  if (in)
    stream_unref(in);
  if (st == BI_NOT_FOUND) { /* as the child GNU find forks says it */
    bi_error(c, "%s: No such file or directory", tu_quote(c, argv[0]));
    st = 127;
  }
  if (fu_poll(c)) {
    x->stop = 1;
    x->stop_rc = 1;
  }
  return st;
}

static int ask_ok(fx *x, fnode *n, const char *path) {
  bi_ctx *c = x->c;
  if (wr_flush(&x->w) < 0) {
    x->stop = 1;
    x->stop_rc = fu_out_status(&x->w);
    return 0;
  }
  buf b;
  buf_init(&b, c->m);
  buf_printf(&b, "< %s ... %s > ? ", n->cmd[0], path);
  int yes = fu_ask(c, &x->ask, buf_cstr(&b));
  buf_free(&b);
  return yes;
}

static int exec_one(fx *x, fnode *n, fent *e) {
  bi_ctx *c = x->c;
  /* -execdir cannot change the directory the command runs in (run_argv
   * has no cwd), so it gets the path as -exec does: the same file, where
   * GNU's "./NAME" would name a different one here. */
  if (n->ok && !ask_ok(x, n, e->path))
    return 0;
  arena_mark mk = arena_save(c->scratch);
  char **argv = arena_alloc(c->scratch, (size_t)(n->ncmd + 1) * sizeof *argv);
  int st = 1;
  if (argv) {
    int i;
    for (i = 0; i < n->ncmd; i++)
      if (!(argv[i] = subst(c->scratch, n->cmd[i], e->path)))
        break;
    if (i == n->ncmd) {
      argv[i] = NULL;
      st = run_cmd(x, argv, n->ok);
    }
  }
  arena_release(c->scratch, mk);
  return st == 0;
}

static void run_batch(fx *x, fnode *n) {
  if (!n->nbatch)
    return;
  bi_ctx *c = x->c;
  char **argv = mem_alloc(c->m, (size_t)(n->ncmd + n->nbatch) * sizeof *argv);
  if (argv) {
    int k = 0;
    for (int i = 0; i < n->ncmd - 1; i++)
      argv[k++] = n->cmd[i];
    for (size_t i = 0; i < n->nbatch; i++)
      argv[k++] = n->batch[i];
    argv[k] = NULL;
    if (run_cmd(x, argv, 0) != 0)
      x->status = 1;
    mem_free(c->m, argv);
  } else {
    x->status = 1;
  }
  for (size_t i = 0; i < n->nbatch; i++)
    mem_free(c->m, n->batch[i]);
  n->nbatch = 0;
  n->bytes = 0;
}

/* Batches stay below what a Linux command line comfortably holds. */
#define FX_BATCH_BYTES (128 * 1024)

static int exec_plus(fx *x, fnode *n, fent *e) {
  bi_ctx *c = x->c;
  if (n->bytes + e->plen + 1 > FX_BATCH_BYTES)
    run_batch(x, n);
  if (n->nbatch == n->capbatch) {
    size_t cap = n->capbatch ? n->capbatch * 2 : 64;
    char **nb = mem_realloc(c->m, n->batch, cap * sizeof *nb);
    if (!nb) {
      x->status = 1;
      return 1;
    }
    n->batch = nb;
    n->capbatch = cap;
  }
  char *s = mem_strndup(c->m, e->path, e->plen);
  if (!s) {
    x->status = 1;
    return 1;
  }
  n->batch[n->nbatch++] = s;
  n->bytes += e->plen + 1;
  return 1;
}

void fx_flush_execs(fx *x) {
  for (fnode *n = x->owned; n && !x->stop; n = n->next_owned)
    if (n->kind == N_EXEC && n->plus)
      run_batch(x, n);
}

void fx_free(fx *x) {
  tz_close(x->zone);
  x->zone = NULL;
  for (fnode *n = x->owned; n; n = n->next_owned) {
    if (n->rxe) {
      rx_free(&n->rx);
      rx_env_free(n->rxe);
      mem_free(x->c->m, n->rxe);
      n->rxe = NULL;
    }
    for (size_t i = 0; i < n->nbatch; i++)
      mem_free(x->c->m, n->batch[i]);
    mem_free(x->c->m, n->batch);
    n->batch = NULL;
    n->nbatch = 0;
  }
  fu_asker_free(x->c, &x->ask);
}

/* ---- evaluation ------------------------------------------------------------
 */

/* The tests of the file's metadata: false when it cannot be stated. */
static int eval_stat(fx *x, fnode *n, fent *e) {
  const vfs_stat_t *st = fx_stat(x, e);
  if (!st)
    return 0;
  switch (n->kind) {
  case N_SIZE: {
    /* Sizes round up to whole units: -size -1M is true only for empty
     * files, as in GNU. */
    uint64_t units = (st->size + n->unit - 1) / n->unit;
    return cmp_num(n->cmp, units, n->n);
  }
  case N_EMPTY:
    if (st->type == VFS_REG)
      return st->size == 0;
    if (st->type == VFS_DIR)
      return is_empty_dir(x, e);
    return 0;
  case N_NEWER:
    return fx_file_time(st, n->field) > n->t;
  case N_TIME: {
    /* Age in whole units, rounded down ("-mtime +1": at least two days). */
    double age = (double)(x->now_ns - fx_file_time(st, n->field)) / 1e9;
    double units = floor(age / (double)n->unit);
    return n->cmp > 0   ? units > n->num
           : n->cmp < 0 ? units < n->num
                        : units == n->num;
  }
  case N_PERM: {
    unsigned m = st->mode & 07777;
    if (n->permkind == '-')
      return (m & n->mode) == n->mode;
    if (n->permkind == '/')
      return n->mode == 0 || (m & n->mode) != 0;
    return m == n->mode;
  }
  case N_UID:
  case N_GID:
    return cmp_num(n->cmp, n->kind == N_UID ? st->uid : st->gid, n->n);
  case N_NOUSER:
    return st->uid != 0 && st->uid != VFS_DEFAULT_UID;
  case N_NOGROUP:
    return st->gid != 0 && st->gid != VFS_DEFAULT_GID;
  case N_LINKS:
    return cmp_num(n->cmp, st->nlink, n->n);
  case N_INUM:
    return cmp_num(n->cmp, st->ino, n->n);
  case N_SAMEFILE:
    return st->ino == n->n;
  }
  return 0;
}

int fx_eval(fx *x, fnode *n, fent *e) {
  switch (n->kind) {
  case N_AND:
    for (int i = 0; i < n->nkid; i++)
      if (!fx_eval(x, n->kid[i], e) || x->stop || x->quit)
        return 0; /* -quit stops at once, like GNU (no implicit -print) */
    return 1;
  case N_OR:
    for (int i = 0; i < n->nkid; i++) {
      if (fx_eval(x, n->kid[i], e))
        return 1;
      if (x->stop || x->quit)
        return 0;
    }
    return 0;
  case N_COMMA: {
    int r = 0;
    for (int i = 0; i < n->nkid && !x->stop && !x->quit; i++)
      r = fx_eval(x, n->kid[i], e);
    return r;
  }
  case N_NOT:
    return !fx_eval(x, n->kid[0], e);
  case N_TRUE:
    return 1;
  case N_FALSE:
    return 0;
  case N_NAME:
    return glob_test(x, n->s, n->slen, e->name, e->nlen, n->nocase);
  case N_PATH:
    return glob_test(x, n->s, n->slen, e->path, e->plen, n->nocase);
  case N_LNAME: {
    const vfs_stat_t *st = fx_lstat(x, e);
    if (!st || st->type != VFS_LNK)
      return 0;
    char *t;
    size_t tl;
    if (vfs_readlink(x->c->vfs, x->c->cwd, e->path, &t, &tl) < 0)
      return 0;
    int r = glob_test(x, n->s, n->slen, t, tl, n->nocase);
    vfs_release(x->c->vfs, t);
    return r;
  }
  case N_REGEX: {
    size_t ms, me;
    int rc = rx_search(&n->rx, e->path, e->plen, 0,
                       PCRE2_ANCHORED | PCRE2_ENDANCHORED, RX_ANY, &ms, &me);
    if (rc < 0) { /* a limit (back-references): stop, loudly */
      char msg[128];
      if (rc != RX_STOPPED) /* else the budget stopped it and says why */
        fx_error(x, "%s: %s", n->pname ? n->pname : "-regex",
                 rx_strerror(rc, msg, sizeof msg));
      x->stop = 1;
      x->stop_rc = 1;
      return 0;
    }
    return rc;
  }
  case N_TYPE:
    return (type_bit(entry_type(x, e)) & n->types) != 0;
  case N_XTYPE:
    return (type_bit(entry_xtype(x, e)) & n->types) != 0;
  case N_SIZE:
  case N_EMPTY:
  case N_NEWER:
  case N_TIME:
  case N_PERM:
  case N_UID:
  case N_GID:
  case N_NOUSER:
  case N_NOGROUP:
  case N_LINKS:
  case N_INUM:
  case N_SAMEFILE:
    return eval_stat(x, n, e);
  case N_ACCESS:
    return vfs_access(x->c->vfs, x->c->cwd, e->path, n->amode) == 0;
  case N_PRINT:
    fx_print(x, e, '\n');
    return 1;
  case N_PRINT0:
    fx_print(x, e, 0);
    return 1;
  case N_PRINTF:
    fx_printf(x, e, n->s, n->slen);
    return 1;
  case N_LS:
    fx_ls(x, e);
    return 1;
  case N_DELETE:
    return fx_delete(x, e);
  case N_PRUNE:
    x->prune = 1;
    return 1;
  case N_QUIT:
    x->quit = 1;
    return 1;
  case N_EXEC:
    return n->plus ? exec_plus(x, n, e) : exec_one(x, n, e);
  }
  return 0;
}

/* ---- parser -----------------------------------------------------------------
 */

static const char *peek(parser *p) {
  return p->i < p->ac ? p->av[p->i] : NULL;
}

static const char *need_arg(parser *p, const char *pname) {
  if (p->i >= p->ac) {
    perr(p, "missing argument to '%s'%s", pname, "");
    return NULL;
  }
  return p->av[p->i++];
}

static int parse_types(parser *p, fnode *n, const char *pname,
                       const char *arg) {
  unsigned seen = 0;
  const char *s = arg;
  if (!*s)
    return perr(p, "Arguments to %s should contain at least one letter%s",
                pname, "");
  for (;;) {
    unsigned bit;
    switch (*s) {
    case 'f':
      bit = type_bit(VFS_REG);
      break;
    case 'd':
      bit = type_bit(VFS_DIR);
      break;
    case 'l':
      bit = type_bit(VFS_LNK);
      break;
    case 'c':
      bit = type_bit(VFS_CHR);
      break;
    case 'p':
      bit = type_bit(VFS_FIFO);
      break;
    /* No sockets, block devices or doors in the VFS: valid, never true. */
    case 's':
      bit = 1u << 12;
      break;
    case 'b':
      bit = 1u << 13;
      break;
    case 'D':
      bit = 1u << 14;
      break;
    default: {
      char one[2] = {*s, 0};
      return perr(p, "Unknown argument to %s: %s", pname, one);
    }
    }
    if (seen & bit) {
      char one[2] = {*s, 0};
      return perr(p, "Duplicate file type '%s' in the argument list to %s.",
                  one, pname);
    }
    seen |= bit;
    s++;
    if (!*s)
      break;
    if (*s != ',')
      return perr(p, "Must separate multiple arguments to %s using: '%s'",
                  pname, ",");
    s++;
    if (!*s)
      return perr(p,
                  "Last file type in list argument to %s is missing, i.e., "
                  "list is ending on: '%s'",
                  pname, ",");
  }
  n->types = seen;
  return 0;
}

static int parse_size(parser *p, fnode *n, const char *arg) {
  uint64_t v;
  const char *s = parse_digits(parse_sign(arg, &n->cmp), &v);
  if (!s)
    return perr(p, "invalid argument '%s' to '%s'", arg, "-size");
  n->unit = 512;
  if (*s) {
    switch (*s) {
    case 'c':
      n->unit = 1;
      break;
    case 'w':
      n->unit = 2;
      break;
    case 'b':
      n->unit = 512;
      break;
    case 'k':
      n->unit = 1024;
      break;
    case 'M':
      n->unit = 1024 * 1024;
      break;
    case 'G':
      n->unit = 1024 * 1024 * 1024;
      break;
    default: {
      return perr(p, "invalid -size type '%s'%s", s, "");
    }
    }
    if (s[1])
      return perr(p, "invalid -size type '%s'%s", s, "");
  }
  n->n = v;
  return 0;
}

static int parse_time(parser *p, fnode *n, const char *pname, const char *arg,
                      int field, uint64_t unit) {
  const char *s = parse_sign(arg, &n->cmp);
  char *end;
  errno = 0;
  double v = (*s >= '0' && *s <= '9') || *s == '.' ? strtod(s, &end) : -1;
  if (v < 0 || *end || errno || !isfinite(v))
    return perr(p, "invalid argument '%s' to '%s'", arg, pname);
  n->num = v;
  n->field = field;
  n->unit = unit;
  return 0;
}

/* "YYYY-MM-DD[ HH:MM[:SS]]", "YYYY-MM-DDTHH:MM[:SS]" (local times of the
 * script's TZ) or "@SECONDS", the forms scripts use with -newermt. */
static int parse_date(const tz_zone *zone, const char *s, int64_t *ns) {
  if (*s == '@') {
    char *end;
    errno = 0;
    long long v = strtoll(s + 1, &end, 10);
    if (end == s + 1 || *end || errno)
      return -1;
    *ns = (int64_t)v * 1000000000;
    return 0;
  }
  int Y, M, D, h = 0, m = 0, sec = 0, k = 0;
  if (sscanf(s, "%4d-%2d-%2d%n", &Y, &M, &D, &k) != 3)
    return -1;
  s += k;
  if (*s == ' ' || *s == 'T') {
    k = 0;
    if (sscanf(s + 1, "%2d:%2d%n", &h, &m, &k) != 2)
      return -1;
    s += 1 + k;
    if (*s == ':') {
      k = 0;
      if (sscanf(s + 1, "%2d%n", &sec, &k) != 1)
        return -1;
      s += 1 + k;
    }
  }
  if (*s || M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60)
    return -1;
  int64_t t;
  if (tz_mktime(zone, Y, M, D, h, m, sec, -1, &t))
    return -1; /* skipped by a daylight saving change */
  *ns = t * INT64_C(1000000000);
  return 0;
}

static int ref_stat(parser *p, const char *path, vfs_stat_t *st) {
  fx *x = p->x;
  int rc = x->follow == 'P' ? vfs_lstat(x->c->vfs, x->c->cwd, path, st)
                            : vfs_stat(x->c->vfs, x->c->cwd, path, st);
  if (rc < 0) {
    fx_error(x, "%s: %s", tu_quote(x->c, path), bi_strerror(-rc));
    p->err = 1;
    return -1;
  }
  return 0;
}

static int parse_exec(parser *p, fnode *n, const char *pname) {
  int start = p->i;
  int end = -1;
  for (int k = start; k < p->ac; k++) {
    const char *a = p->av[k];
    if (strcmp(a, ";") == 0) {
      end = k;
      break;
    }
    if (strcmp(a, "+") == 0 && k > start) {
      const char *prev = p->av[k - 1];
      if (strcmp(prev, "{}") == 0) {
        end = k;
        n->plus = 1;
        break;
      }
      if (strstr(prev, "{}"))
        return perr(p,
                    "In '%s ... {} +' the '{}' must appear by itself, but "
                    "you specified '%s'",
                    pname, prev);
    }
  }
  if (end < 0 || end == start)
    return perr(p, "missing argument to '%s'%s", pname, "");
  n->pname = pname;
  n->ok = pname[1] == 'o';
  if (n->plus && n->ok)
    return perr(p, "missing argument to '%s'%s", pname, "");
  n->cmd = p->av + start;
  n->ncmd = end - start;
  if (n->plus)
    for (int k = 0; k < n->ncmd - 1; k++)
      if (strstr(n->cmd[k], "{}"))
        return perr(p, "Only one instance of {} is supported with %s ... +%s",
                    pname, "");
  p->i = end + 1;
  own(p->x, n);
  return 0;
}

static int parse_depth_opt(parser *p, const char *pname, int *out) {
  const char *a = need_arg(p, pname);
  if (!a)
    return -1;
  int cmp;
  uint64_t v;
  if (parse_num(a, &cmp, &v) < 0 || cmp != 0 || v > INT32_MAX)
    return perr(p,
                "Expected a positive decimal integer argument to %s, but "
                "got %s",
                pname, tu_quote(p->x->c, a));
  *out = (int)v;
  return 0;
}

static fnode *parse_or_chain(parser *p);

static int is_binop(const char *a) {
  return strcmp(a, "-o") == 0 || strcmp(a, "-or") == 0 ||
         strcmp(a, "-a") == 0 || strcmp(a, "-and") == 0 || strcmp(a, ",") == 0;
}

static int is_not(const char *a) {
  return strcmp(a, "!") == 0 || strcmp(a, "-not") == 0;
}

/* The tests taking a pattern (their -i forms ignore case): their node
 * kind, or -1 for any other name. */
static int pattern_test(const char *nm) {
  static const struct {
    const char *name;
    int kind;
  } tests[] = {{"name", N_NAME},      {"iname", N_NAME},
               {"path", N_PATH},      {"ipath", N_PATH},
               {"wholename", N_PATH}, {"iwholename", N_PATH},
               {"lname", N_LNAME},    {"ilname", N_LNAME},
               {"regex", N_REGEX},    {"iregex", N_REGEX}};
  for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
    if (strcmp(nm, tests[k].name) == 0)
      return tests[k].kind;
  return -1;
}

static fnode *parse_primary(parser *p) {
  fx *x = p->x;
  const char *a = peek(p);
  if (strcmp(a, "(") == 0) {
    p->i++;
    if (++p->nest > FX_MAX_NEST) {
      perr(p, "expression nested too deeply%s%s", "", "");
      return NULL;
    }
    const char *b = peek(p);
    if (b && strcmp(b, ")") == 0) {
      perr(p, "invalid expression; empty parentheses are not allowed.%s%s", "",
           "");
      return NULL;
    }
    fnode *r = parse_or_chain(p);
    p->nest--;
    if (!r)
      return NULL;
    b = peek(p);
    if (!b || strcmp(b, ")") != 0) {
      perr(p,
           "invalid expression; I was expecting to find a ')' somewhere "
           "but did not see one.%s%s",
           "", "");
      return NULL;
    }
    p->i++;
    return r;
  }
  if (is_binop(a)) {
    perr(p,
         "invalid expression; you have used a binary operator '%s' with "
         "nothing before it.%s",
         a, "");
    return NULL;
  }
  if (strcmp(a, ")") == 0) {
    perr(p, "invalid expression; you have too many ')'%s%s", "", "");
    return NULL;
  }
  if (a[0] != '-' || a[1] == 0) {
    perr(p, "paths must precede expression: '%s'%s", a, "");
    return NULL;
  }
  p->i++;
  const char *pname = a;
  const char *nm = a + 1;
  fnode *n = new_node(p, N_TRUE);
  if (!n)
    return NULL;
  const char *arg;
  int kind;

#define IS(s) (strcmp(nm, s) == 0)
#define ARG()                                                                  \
  do {                                                                         \
    if (!(arg = need_arg(p, pname)))                                           \
      return NULL;                                                             \
  } while (0)

  /* options: always true, they set how the walk runs */
  if (IS("depth") || IS("d")) {
    x->depth_first = 1;
    x->explicit_depth = 1;
  } else if (IS("maxdepth")) {
    if (parse_depth_opt(p, pname, &x->maxdepth) < 0)
      return NULL;
  } else if (IS("mindepth")) {
    if (parse_depth_opt(p, pname, &x->mindepth) < 0)
      return NULL;
  } else if (IS("mount") || IS("xdev") || IS("noleaf") ||
             IS("ignore_readdir_race") || IS("noignore_readdir_race") ||
             IS("warn") || IS("nowarn")) {
    /* one file system, no races: nothing to do */
  } else if (IS("daystart")) {
    if (!x->daystart) {
      x->daystart = 1;
      /* Origin: the end of today in local time, like GNU's start of
       * tomorrow. */
      int64_t sec = x->now_ns / 1000000000 - (x->now_ns % 1000000000 < 0);
      tz_tm lt;
      tz_localtime(x->zone, sec, 0, &lt);
      int64_t t;
      if (tz_mktime(x->zone, lt.year, lt.mon, lt.mday + 1, 0, 0, 0, -1, &t))
        t = sec - (lt.hour * 3600 + lt.min * 60 + lt.sec) + 86400;
      x->now_ns = t * 1000000000;
    }
  } else if (IS("follow")) {
    x->follow = 'L';
  } else if (IS("regextype")) {
    ARG();
    if (set_regextype(p, arg) < 0)
      return NULL;
  }
  /* tests */
  else if (IS("true")) {
    n->kind = N_TRUE;
  } else if (IS("false")) {
    n->kind = N_FALSE;
  } else if ((kind = pattern_test(nm)) >= 0) {
    ARG();
    n->kind = kind;
    n->nocase = nm[0] == 'i';
    n->s = arg;
    n->slen = strlen(arg);
    if (kind == N_REGEX && compile_regex(p, n, pname) < 0)
      return NULL;
  } else if (IS("type") || IS("xtype")) {
    ARG();
    n->kind = nm[0] == 'x' ? N_XTYPE : N_TYPE;
    if (parse_types(p, n, pname, arg) < 0)
      return NULL;
  } else if (IS("size")) {
    ARG();
    n->kind = N_SIZE;
    if (parse_size(p, n, arg) < 0)
      return NULL;
  } else if (IS("empty")) {
    n->kind = N_EMPTY;
  } else if (IS("mtime") || IS("atime") || IS("ctime") || IS("mmin") ||
             IS("amin") || IS("cmin")) {
    ARG();
    n->kind = N_TIME;
    /* -Xtime counts days, -Xmin minutes */
    if (parse_time(p, n, pname, arg, nm[0], nm[1] == 't' ? 86400 : 60) < 0)
      return NULL;
  } else if (IS("newer") || IS("anewer") || IS("cnewer")) {
    ARG();
    vfs_stat_t st;
    if (ref_stat(p, arg, &st) < 0)
      return NULL;
    n->kind = N_NEWER;
    n->field = IS("newer") ? 'm' : nm[0];
    n->t = st.mtime_ns;
  } else if (strncmp(nm, "newer", 5) == 0 && strlen(nm) == 7 &&
             strchr("acmB", nm[5]) && strchr("acmBt", nm[6])) {
    ARG();
    if (nm[5] == 'B' || nm[6] == 'B') {
      perr(p,
           "This system does not provide a way to find the birth time "
           "of a file.%s%s",
           "", "");
      return NULL;
    }
    n->kind = N_NEWER;
    n->field = nm[5];
    if (nm[6] == 't') {
      if (parse_date(p->x->zone, arg, &n->t) < 0) {
        perr(p,
             "I cannot figure out how to interpret %s as a date or "
             "time%s",
             tu_quote(x->c, arg), "");
        return NULL;
      }
    } else {
      vfs_stat_t st;
      if (ref_stat(p, arg, &st) < 0)
        return NULL;
      n->t = fx_file_time(&st, nm[6]);
    }
  } else if (IS("perm")) {
    ARG();
    n->kind = N_PERM;
    const char *m = arg;
    if (*m == '-' || *m == '/')
      n->permkind = *m++;
    fu_mode *fm = *m ? fu_mode_parse(x->c, m) : NULL;
    if (!fm) {
      perr(p, "invalid mode %s%s", tu_quote(x->c, arg), "");
      return NULL;
    }
    n->mode = fu_mode_apply(fm, 0, 0, 0) & 07777;
  } else if (IS("user") || IS("group")) {
    ARG();
    int grp = nm[0] == 'g';
    n->kind = grp ? N_GID : N_UID;
    if (id_of(arg, grp, &n->n) < 0) {
      if (grp)
        perr(p, "%s is not the name of an existing group%s",
             tu_quote(x->c, arg), "");
      else
        perr(p, "%s is not the name of a known user%s", tu_quote(x->c, arg),
             "");
      return NULL;
    }
  } else if (IS("uid") || IS("gid") || IS("links") || IS("inum")) {
    ARG();
    n->kind = IS("uid")     ? N_UID
              : IS("gid")   ? N_GID
              : IS("links") ? N_LINKS
                            : N_INUM;
    if (parse_num(arg, &n->cmp, &n->n) < 0) {
      perr(p, "invalid argument '%s' to '%s'", arg, pname);
      return NULL;
    }
  } else if (IS("nouser")) {
    n->kind = N_NOUSER;
  } else if (IS("nogroup")) {
    n->kind = N_NOGROUP;
  } else if (IS("readable") || IS("writable") || IS("executable")) {
    n->kind = N_ACCESS;
    n->amode = nm[0] == 'r' ? R_OK : nm[0] == 'w' ? W_OK : X_OK;
  } else if (IS("samefile")) {
    ARG();
    vfs_stat_t st;
    if (ref_stat(p, arg, &st) < 0)
      return NULL;
    n->kind = N_SAMEFILE;
    n->n = st.ino;
  }
  /* actions */
  else if (IS("print")) {
    n->kind = N_PRINT;
    p->has_action = 1;
  } else if (IS("print0")) {
    n->kind = N_PRINT0;
    p->has_action = 1;
  } else if (IS("printf")) {
    ARG();
    n->kind = N_PRINTF;
    n->s = arg;
    n->slen = strlen(arg);
    fx_check_format(x, arg, n->slen);
    p->has_action = 1;
  } else if (IS("ls")) {
    n->kind = N_LS;
    p->has_action = 1;
  } else if (IS("delete")) {
    n->kind = N_DELETE;
    x->depth_first = 1;
    x->has_delete = 1;
    p->has_action = 1;
  } else if (IS("prune")) {
    n->kind = N_PRUNE;
    x->has_prune = 1;
  } else if (IS("quit")) {
    n->kind = N_QUIT;
  } else if (IS("exec") || IS("execdir") || IS("ok") || IS("okdir")) {
    n->kind = N_EXEC;
    p->has_action = 1;
    if (parse_exec(p, n, pname) < 0)
      return NULL;
  } else if (IS("fprint") || IS("fprint0") || IS("fprintf") || IS("fls")) {
    perr(p,
         "%s is not supported in this sandbox (use -print and a "
         "redirection)%s",
         pname, "");
    return NULL;
  } else {
    perr(p, "unknown predicate '%s'%s", pname, "");
    return NULL;
  }
#undef IS
#undef ARG
  return n;
}

/* After the operator a, an expression must follow: not the end, a ')' or
 * another binary operator. */
static int operand_follows(parser *p, const char *a) {
  const char *b = peek(p);
  if (!b)
    return perr(p, "expected an expression after '%s'%s", a, "");
  if (strcmp(b, ")") == 0 || is_binop(b))
    return perr(p, "invalid expression; '%s' followed by '%s' is not allowed.",
                a, b);
  return 0;
}

static fnode *parse_not(parser *p) {
  const char *a = peek(p);
  int neg = 0;
  /* A run of '!' is a loop, not recursion. */
  while (a && is_not(a)) {
    neg = !neg;
    p->i++;
    if (operand_follows(p, a) < 0)
      return NULL;
    a = peek(p);
  }
  fnode *r = parse_primary(p);
  if (!r || !neg)
    return r;
  fnode *n = new_node(p, N_NOT);
  if (!n || add_kid(p, n, r) < 0)
    return NULL;
  return n;
}

/* sub [op sub]...: one node of the kind holding all the operands (or the
 * only one). ops has two spellings of the operator (the second may be
 * NULL). With `implied`, as for -a, two expressions side by side are
 * joined too, until the end, ')' or an operator binding less. */
static fnode *parse_binary(parser *p, int kind, const char *const *ops,
                           int implied, fnode *(*sub)(parser *)) {
  fnode *first = sub(p);
  if (!first)
    return NULL;
  fnode *n = NULL;
  for (;;) {
    const char *a = peek(p);
    if (!a)
      break;
    if (strcmp(a, ops[0]) == 0 || (ops[1] && strcmp(a, ops[1]) == 0)) {
      p->i++;
      if (operand_follows(p, a) < 0)
        return NULL;
    } else if (!implied || strcmp(a, ")") == 0 || is_binop(a)) {
      break;
    }
    fnode *k = sub(p);
    if (!k)
      return NULL;
    if (!n) {
      if (!(n = new_node(p, kind)) || add_kid(p, n, first) < 0)
        return NULL;
    }
    if (add_kid(p, n, k) < 0)
      return NULL;
  }
  return n ? n : first;
}

static fnode *parse_and(parser *p) {
  static const char *const ops[] = {"-a", "-and"};
  return parse_binary(p, N_AND, ops, 1, parse_not);
}

static fnode *parse_or(parser *p) {
  static const char *const ops[] = {"-o", "-or"};
  return parse_binary(p, N_OR, ops, 0, parse_and);
}

static fnode *parse_or_chain(parser *p) {
  static const char *const ops[] = {",", NULL};
  return parse_binary(p, N_COMMA, ops, 0, parse_or);
}

int fx_parse(fx *x, char **argv, int argc) {
  parser p = {.x = x, .av = argv, .ac = argc};
  fnode *root = NULL;
  if (argc > 0) {
    root = parse_or_chain(&p);
    if (root && p.i < p.ac) {
      /* only a stray ')' stops the top level early */
      perr(&p, "invalid expression; you have too many ')'%s%s", "", "");
      root = NULL;
    }
    if (!root)
      return -1;
  }
  if (x->has_delete && x->has_prune && !x->explicit_depth) {
    fx_error(x, "The -delete action automatically turns on -depth, but "
                "-prune does nothing when -depth is in effect.  If you want "
                "to carry on anyway, just explicitly use the -depth option.");
    return -1;
  }
  if (!p.has_action) {
    fnode *pr = new_node(&p, N_PRINT);
    if (!pr)
      return -1;
    if (root) {
      fnode *a = new_node(&p, N_AND);
      if (!a || add_kid(&p, a, root) < 0 || add_kid(&p, a, pr) < 0)
        return -1;
      root = a;
    } else {
      root = pr;
    }
  }
  x->root = root;
  return 0;
}
