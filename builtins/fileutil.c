/* fileutil.c - helpers shared by the file builtins (see fileutil.h). */
#include "builtins/fileutil.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins/textutil.h"

/* ---- quoting ------------------------------------------------------------ */

/* Length of a valid multibyte UTF-8 sequence at s (n bytes left), else 0.
 * Plain ASCII is handled by the callers. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  unsigned min;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2;
    min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3;
    min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (len > n)
    return 0;
  unsigned cp = c & (0x7f >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return len;
}

/* Characters that keep their meaning both inside double quotes and for the
 * shell: GNU switches to "..." for a name with a single quote made only of
 * these. */
static int dq_compatible(unsigned char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9') || strchr(" %+,-./:@]_'", ch) != NULL;
}

/* Characters a shell never treats specially anywhere in a word (quotef
 * leaves names made of these bare). ':' is not among them: quotef is
 * GNU's colon variant, so that "NAME: message" stays unambiguous. */
static int shell_safe(unsigned char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9') || strchr("%+,-./@]_", ch) != NULL;
}

/* The length of the character at s when it prints as itself: a valid UTF-8
 * sequence of a printable character (not a C1 control) under a UTF-8
 * locale; under C every byte above 0x7f is unprintable, as GNU's quoting
 * sees it (0: escape it). */
static size_t mb_printable(int utf8, const unsigned char *s, size_t n) {
  if (!utf8)
    return 0;
  size_t l = utf8_len(s, n);
  if (l == 2 && s[0] == 0xc2 && s[1] < 0xa0)
    return 0;
  return l;
}

const char *fu_quote(bi_ctx *c, const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  size_t n = strlen(s);
  int utf8 = tu_utf8_locale(c);
  int has_sq = 0, all_compat = 1;
  for (size_t i = 0; i < n; i++) {
    if (u[i] >= 0x80) {
      size_t l = mb_printable(utf8, u + i, n - i);
      if (!l) {
        all_compat = 0;
        break;
      }
      i += l - 1;
      continue;
    }
    if (u[i] == '\'')
      has_sq = 1;
    if (!dq_compatible(u[i]))
      all_compat = 0;
  }
  buf b;
  buf_init(&b, c->m);
  if (has_sq && all_compat) {
    buf_putc(&b, '"');
    buf_append(&b, s, n);
    buf_putc(&b, '"');
  } else {
    int in_esc = 0; /* inside a $'...' run */
    buf_putc(&b, '\'');
    for (size_t i = 0; i < n; i++) {
      size_t l = u[i] >= 0x80 ? mb_printable(utf8, u + i, n - i) : 0;
      int printable = (u[i] >= 0x20 && u[i] < 0x7f) || l > 0;
      if (printable) {
        if (in_esc) {
          buf_puts(&b, "''");
          in_esc = 0;
        }
        if (u[i] == '\'')
          buf_puts(&b, "'\\''");
        else if (l)
          buf_append(&b, s + i, l);
        else
          buf_putc(&b, u[i]);
        if (l)
          i += l - 1;
        continue;
      }
      if (!in_esc) {
        buf_puts(&b, "'$'");
        in_esc = 1;
      }
      static const char esc[] = "\aa\bb\ff\nn\rr\tt\vv";
      const char *e = u[i] ? memchr(esc, u[i], sizeof esc - 1) : NULL;
      if (e && (e - esc) % 2 == 0)
        buf_printf(&b, "\\%c", e[1]);
      else
        buf_printf(&b, "\\%03o", u[i]);
    }
    buf_putc(&b, '\'');
  }
  char *r = arena_strndup(c->scratch, buf_cstr(&b), b.len);
  buf_free(&b);
  return r ? r : s;
}

const char *fu_quotef(bi_ctx *c, const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  size_t n = strlen(s);
  if (n == 0 || u[0] == '~' || u[0] == '#')
    return fu_quote(c, s);
  /* a lone brace would be a group's word; "{}" or "a}" are plain */
  if (n == 1 && (u[0] == '{' || u[0] == '}'))
    return fu_quote(c, s);
  int utf8 = tu_utf8_locale(c);
  for (size_t i = 0; i < n; i++) {
    if (u[i] >= 0x80) {
      size_t l = mb_printable(utf8, u + i, n - i);
      if (!l)
        return fu_quote(c, s);
      i += l - 1;
    } else if (!shell_safe(u[i]) && !strchr("{}~#", u[i])) {
      return fu_quote(c, s);
    }
  }
  return s;
}

/* ---- modes -------------------------------------------------------------- */

void fu_mode_string(int type, unsigned mode, char out[11]) {
  static const char types[] = "?-dlcp";
  out[0] = type >= 1 && type <= 5 ? types[type] : '?';
  static const char rwx[] = "rwx";
  for (int i = 0; i < 9; i++)
    out[1 + i] = (mode & (0400u >> i)) ? rwx[i % 3] : '-';
  /* setuid/setgid/sticky replace the x slot: lower case when x is set. */
  if (mode & 04000)
    out[3] = (mode & 0100) ? 's' : 'S';
  if (mode & 02000)
    out[6] = (mode & 0010) ? 's' : 'S';
  if (mode & 01000)
    out[9] = (mode & 0001) ? 't' : 'T';
  out[10] = 0;
}

const char *fu_type_name(const fu_stat *st) {
  switch (st->type) {
  case VFS_REG:
    return st->size ? "regular file" : "regular empty file";
  case VFS_DIR:
    return "directory";
  case VFS_LNK:
    return "symbolic link";
  case VFS_CHR:
    return "character special file";
  case VFS_FIFO:
    return "fifo";
  default:
    return "weird file";
  }
}

unsigned fu_type_bits(int type) {
  switch (type) {
  case VFS_REG:
    return 0100000;
  case VFS_DIR:
    return 0040000;
  case VFS_LNK:
    return 0120000;
  case VFS_CHR:
    return 0020000;
  case VFS_FIFO:
    return 0010000;
  default:
    return 0;
  }
}

typedef struct fu_clause {
  unsigned who;       /* affected bits; 0: none given (umask applies) */
  char op;            /* '+', '-', '=' */
  unsigned perm;      /* bits from r, w, x, s, t (all classes) */
  unsigned mentioned; /* set-id bits the clause names explicitly */
  char copy;          /* 'u', 'g', 'o': copy that class's current bits */
  int cond_x;         /* X: x when a directory or already executable */
} fu_clause;

struct fu_mode {
  size_t n;
  fu_clause cl[];
};

fu_mode *fu_mode_parse(bi_ctx *c, const char *text) {
  size_t len = strlen(text);
  if (len == 0)
    return NULL;
  /* Upper bound on clauses: each action needs at least one character. */
  fu_mode *m =
      arena_calloc(c->scratch, sizeof *m + (len + 1) * sizeof(fu_clause));
  if (!m)
    return NULL;
  if (strspn(text, "01234567") == len) {
    unsigned v = 0;
    for (const char *p = text; *p; p++) {
      v = v * 8 + (unsigned)(*p - '0');
      if (v > 07777)
        return NULL;
    }
    fu_clause *cl = &m->cl[m->n++];
    cl->who = 07777;
    cl->op = '=';
    cl->perm = v;
    /* Fewer than 5 digits leave a directory's set-id bits alone unless the
     * value sets them (GNU's rule, so `chmod 755 dir` keeps setgid). */
    cl->mentioned = len >= 5 ? 06000 : (v & 06000);
    return m;
  }
  const char *p = text;
  for (;;) {
    unsigned who = 0;
    for (;; p++) {
      if (*p == 'u')
        who |= 04700;
      else if (*p == 'g')
        who |= 02070;
      else if (*p == 'o')
        who |= 01007;
      else if (*p == 'a')
        who |= 07777;
      else
        break;
    }
    if (*p != '+' && *p != '-' && *p != '=')
      return NULL;
    while (*p == '+' || *p == '-' || *p == '=') {
      fu_clause *cl = &m->cl[m->n++];
      cl->who = who;
      cl->op = *p++;
      if (*p == 'u' || *p == 'g' || *p == 'o') {
        cl->copy = *p++;
      } else {
        for (;; p++) {
          if (*p == 'r')
            cl->perm |= 0444;
          else if (*p == 'w')
            cl->perm |= 0222;
          else if (*p == 'x')
            cl->perm |= 0111;
          else if (*p == 'X')
            cl->cond_x = 1;
          else if (*p == 's') {
            cl->perm |= 06000;
            cl->mentioned |= 06000 & (who ? who : 07777);
          } else if (*p == 't')
            cl->perm |= 01000;
          else
            break;
        }
      }
    }
    if (*p == 0)
      return m;
    if (*p != ',')
      return NULL;
    p++;
  }
}

unsigned fu_mode_apply(const fu_mode *m, unsigned old, int is_dir,
                       unsigned umask) {
  unsigned nm = old & 07777;
  for (size_t i = 0; i < m->n; i++) {
    const fu_clause *cl = &m->cl[i];
    unsigned value = cl->perm;
    if (cl->copy) {
      unsigned b = cl->copy == 'u'   ? (nm >> 6) & 7
                   : cl->copy == 'g' ? (nm >> 3) & 7
                                     : nm & 7;
      value = b * 0111;
    }
    if (cl->cond_x && (is_dir || (nm & 0111)))
      value |= 0111;
    unsigned omit = is_dir ? 06000 & ~cl->mentioned : 0;
    value &= (cl->who ? cl->who : ~umask) & ~omit;
    switch (cl->op) {
    case '=': {
      unsigned keep = (cl->who ? ~cl->who : 0) | omit;
      nm = (nm & keep) | value;
      break;
    }
    case '+':
      nm |= value;
      break;
    default:
      nm &= ~value;
      break;
    }
  }
  return nm & 07777;
}

/* ---- time --------------------------------------------------------------- */

static void split_ns(int64_t ns, int64_t *sec, long *frac) {
  *sec = ns / 1000000000;
  int64_t r = ns % 1000000000;
  if (r < 0) {
    r += 1000000000;
    (*sec)--;
  }
  *frac = (long)r;
}

const char *fu_time_full(bi_ctx *c, const tz_zone *z, int64_t ns) {
  int64_t sec;
  long frac;
  split_ns(ns, &sec, &frac);
  tz_tm tm;
  tz_localtime(z, sec, frac, &tm);
  buf b;
  buf_init(&b, c->m);
  tz_format(&b, "%Y-%m-%d %H:%M:%S.%N %z", &tm, TZ_FMT_GNU);
  char *r = b.oom ? NULL : arena_strndup(c->scratch, buf_cstr(&b), b.len);
  buf_free(&b);
  return r ? r : "?";
}

int64_t fu_now(bi_ctx *c) {
  if (c->now_ns)
    return c->now_ns(c);
  return vfs_now(c->vfs);
}

/* ---- owners ------------------------------------------------------------- */

static const char *id_name(bi_ctx *c, uint32_t id) {
  if (id == 0)
    return "root";
  if (id == VFS_DEFAULT_UID)
    return "user";
  char *r = arena_alloc(c->scratch, 16);
  if (!r)
    return "?";
  snprintf(r, 16, "%u", (unsigned)id);
  return r;
}

const char *fu_user_name(bi_ctx *c, uint32_t uid) {
  return id_name(c, uid);
}
const char *fu_group_name(bi_ctx *c, uint32_t gid) {
  return id_name(c, gid);
}

uint64_t fu_blocks_1k(const fu_stat *st) {
  if (st->type == VFS_REG || st->type == VFS_DIR)
    return (st->size + 4095) / 4096 * 4;
  return 0;
}

/* ---- paths -------------------------------------------------------------- */

const char *fu_strip_slashes(bi_ctx *c, const char *p) {
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/')
    n--;
  if (p[n] == 0)
    return p;
  char *r = arena_strndup(c->scratch, p, n);
  return r ? r : p;
}

size_t fu_base_span(const char *p, size_t *len) {
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/')
    n--;
  if (n == 1 && p[0] == '/') { /* "/" or only slashes */
    *len = 1;
    return 0;
  }
  size_t s = n;
  while (s > 0 && p[s - 1] != '/')
    s--;
  *len = n - s;
  return s;
}

size_t fu_dir_len(const char *p) {
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') /* trailing slashes */
    n--;
  while (n > 0 && p[n - 1] != '/') /* the last component */
    n--;
  while (n > 1 && p[n - 1] == '/') /* the slashes before it */
    n--;
  return n;
}

const char *fu_basename(bi_ctx *c, const char *p) {
  size_t len, s = fu_base_span(p, &len);
  char *r = arena_strndup(c->scratch, p + s, len);
  return r ? r : p;
}

const char *fu_dirname(bi_ctx *c, const char *p) {
  size_t n = fu_dir_len(p);
  if (n == 0)
    return ".";
  char *r = arena_strndup(c->scratch, p, n);
  return r ? r : ".";
}

const char *fu_join(bi_ctx *c, const char *dir, const char *name) {
  size_t dl = strlen(dir), nl = strlen(name);
  char *r = arena_alloc(c->scratch, dl + nl + 2);
  if (!r)
    return name;
  memcpy(r, dir, dl);
  size_t k = dl;
  if (k > 0 && r[k - 1] != '/')
    r[k++] = '/';
  memcpy(r + k, name, nl + 1);
  return r;
}

int fu_is_dot_or_dotdot(const char *p) {
  size_t l, s = fu_base_span(p, &l);
  return (l == 1 && p[s] == '.') || (l == 2 && p[s] == '.' && p[s + 1] == '.');
}

/* Drop the last component of an absolute path held in b ("/" stays). */
static void pop_component(buf *b) {
  while (b->len > 1 && b->data[b->len - 1] != '/')
    b->len--;
  if (b->len > 1)
    b->len--;
  b->data[b->len] = 0;
}

static void push_component(buf *b, const char *s, size_t n) {
  if (b->len == 0 || b->data[b->len - 1] != '/')
    buf_putc(b, '/');
  buf_append(b, s, n);
}

/* Lexical resolution of "." and ".." (and doubled slashes) of an absolute
 * path. */
static void lexical(const char *abs, buf *out) {
  buf_clear(out);
  buf_putc(out, '/');
  const char *p = abs;
  while (*p) {
    while (*p == '/')
      p++;
    const char *e = p;
    while (*e && *e != '/')
      e++;
    size_t n = (size_t)(e - p);
    if (n == 0 || (n == 1 && p[0] == '.')) {
      /* nothing */
    } else if (n == 2 && p[0] == '.' && p[1] == '.') {
      pop_component(out);
    } else {
      push_component(out, p, n);
    }
    p = e;
  }
}

const char *fu_canon(bi_ctx *c, const char *p, int mode, int *err) {
  int need = mode & 3;
  *err = 0;
  if (!*p) {
    *err = ENOENT;
    return NULL;
  }
  buf res, rest, tmp;
  buf_init(&res, c->m);
  buf_init(&rest, c->m);
  buf_init(&tmp, c->m);
  const char *out = NULL;
  if (p[0] != '/') {
    buf_puts(&rest, c->cwd && *c->cwd ? c->cwd : "/");
    buf_putc(&rest, '/');
  }
  buf_puts(&rest, p);
  if (mode & (FU_CANON_LOGICAL | FU_CANON_NOLINKS)) {
    lexical(buf_cstr(&rest), &tmp);
    buf_clear(&rest);
    buf_append(&rest, tmp.data, tmp.len);
  }
  if (mode & FU_CANON_NOLINKS) {
    /* Lexical only; existence is still checked when asked for. */
    fu_stat st;
    int rc = 0;
    const char *r = buf_cstr(&rest);
    if (need == FU_CANON_EXISTING)
      rc = vfs_stat(c->vfs, "/", r, &st);
    else if (need == FU_CANON_LAST)
      rc = vfs_stat(c->vfs, "/", fu_dirname(c, r), &st);
    if (rc < 0)
      *err = -rc;
    else
      out = arena_strdup(c->scratch, r);
    goto done;
  }
  buf_putc(&res, '/');
  size_t pos = 0; /* next unread byte of rest */
  int hops = 0, missing = 0;
  for (;;) {
    const char *r = buf_cstr(&rest);
    while (r[pos] == '/')
      pos++;
    if (!r[pos])
      break;
    size_t s = pos;
    while (r[pos] && r[pos] != '/')
      pos++;
    size_t n = pos - s;
    if (n == 1 && r[s] == '.')
      continue;
    if (n == 2 && r[s] == '.' && r[s + 1] == '.') {
      pop_component(&res);
      continue;
    }
    size_t keep = res.len;
    push_component(&res, r + s, n);
    /* Is anything but slashes left after this component? */
    size_t q = pos;
    while (r[q] == '/')
      q++;
    int last = r[q] == 0;
    int trailing_slash = r[pos] == '/';
    if (missing)
      continue; /* -m: below a missing name everything is lexical */
    fu_stat st;
    int rc = vfs_lstat(c->vfs, "/", buf_cstr(&res), &st);
    if (rc < 0) {
      if (need == FU_CANON_MISSING ||
          (need == FU_CANON_LAST && last && rc == -ENOENT)) {
        missing = 1;
        continue;
      }
      *err = -rc;
      goto done;
    }
    if (st.type == VFS_LNK) {
      if (++hops > VFS_SYMLOOP_MAX) {
        *err = ELOOP;
        goto done;
      }
      char *target = NULL;
      size_t tlen = 0;
      rc = vfs_readlink(c->vfs, "/", buf_cstr(&res), &target, &tlen);
      if (rc < 0) {
        *err = -rc;
        goto done;
      }
      /* rest becomes target + what followed this component. */
      buf_clear(&tmp);
      buf_append(&tmp, target, tlen);
      buf_puts(&tmp, r + pos);
      vfs_release(c->vfs, target);
      buf_clear(&rest);
      buf_append(&rest, tmp.data, tmp.len);
      pos = 0;
      res.len = keep;
      if (res.len == 0)
        buf_putc(&res, '/');
      res.data[res.len] = 0;
      if (tmp.len && tmp.data[0] == '/') {
        buf_clear(&res);
        buf_putc(&res, '/');
      }
      continue;
    }
    if (st.type != VFS_DIR && (!last || trailing_slash)) {
      if (need == FU_CANON_MISSING) {
        missing = 1;
        continue;
      }
      *err = ENOTDIR;
      goto done;
    }
  }
  out = arena_strdup(c->scratch, buf_cstr(&res));
done:
  if (!out && !*err)
    *err = ENOMEM;
  buf_free(&res);
  buf_free(&rest);
  buf_free(&tmp);
  return out;
}

const char *fu_relpath(bi_ctx *c, const char *from, const char *to) {
  /* Common leading components. */
  size_t i = 0, common = 0;
  for (;;) {
    char a = from[i], b = to[i];
    if ((a == '/' || a == 0) && (b == '/' || b == 0))
      common = i;
    if (a == 0 || b == 0 || a != b)
      break;
    i++;
  }
  if (from[1] == 0) /* from is "/" */
    common = 0;
  buf b;
  buf_init(&b, c->m);
  /* One ".." per component of from after the common part. */
  for (const char *p = from + common; *p; p++)
    if (*p == '/' && p[1] && p[1] != '/')
      buf_puts(&b, b.len ? "/.." : "..");
  const char *tail = to + common;
  while (*tail == '/')
    tail++;
  if (*tail) {
    if (b.len)
      buf_putc(&b, '/');
    buf_puts(&b, tail);
  }
  const char *r = b.len ? arena_strdup(c->scratch, buf_cstr(&b)) : ".";
  buf_free(&b);
  return r ? r : ".";
}

/* ---- prompts, messages -------------------------------------------------- */

int fu_ask(bi_ctx *c, fu_asker *a, const char *prompt) {
  stream_puts(c->err, prompt);
  if (!a->init) {
    rd_init(&a->r, c->m, c->in);
    a->init = 1;
  }
  const char *line;
  size_t len;
  if (rd_record(&a->r, '\n', &line, &len) != 1)
    return 0;
  return len > 0 && (line[0] == 'y' || line[0] == 'Y');
}

void fu_asker_free(bi_ctx *c, fu_asker *a) {
  if (a->init)
    rd_free(&a->r);
  a->init = 0;
}

int fu_poll(bi_ctx *c) {
  return c->bud && budget_poll(c->bud);
}

int fu_out_status(writer *w) {
  return bi_stream_status(w->err);
}

int fu_out_end(writer *w, int status) {
  if (wr_flush(w) < 0)
    return fu_out_status(w);
  return status;
}

void fu_bad_arg(bi_ctx *c, const char *option, const char *arg,
                const char *valid) {
  tu_bad_arg(c, "invalid", option, arg, valid);
}

/* ---- a command's job ---------------------------------------------------- */

void fu_job_init(fu_job *j, bi_ctx *c) {
  memset(j, 0, sizeof *j);
  j->c = c;
  wr_init(&j->w, c->out);
}

/* b = fmt with its arguments, after "NAME: " if asked; the caller frees b. */
static void job_format(fu_job *j, buf *b, int named, const char *fmt,
                       va_list ap) {
  buf_init(b, j->c->m);
  if (named)
    buf_printf(b, "%s: ", j->c->argv[0]);
  buf_vprintf(b, fmt, ap);
}

int fu_job_error(fu_job *j, const char *fmt, ...) {
  wr_flush(&j->w);
  buf b;
  va_list ap;
  va_start(ap, fmt);
  job_format(j, &b, 0, fmt, ap);
  va_end(ap);
  bi_error(j->c, "%s", buf_cstr(&b));
  buf_free(&b);
  return -1;
}

int fu_job_say(fu_job *j, const char *fmt, ...) {
  buf b;
  va_list ap;
  va_start(ap, fmt);
  job_format(j, &b, 0, fmt, ap);
  va_end(ap);
  int rc = wr_write(&j->w, b.data ? b.data : "", b.len);
  buf_free(&b);
  if (rc < 0)
    j->out_failed = 1;
  return rc;
}

int fu_job_ask(fu_job *j, const char *fmt, ...) {
  wr_flush(&j->w);
  buf b;
  va_list ap;
  va_start(ap, fmt);
  job_format(j, &b, 1, fmt, ap);
  va_end(ap);
  int yes = fu_ask(j->c, &j->ask, buf_cstr(&b));
  buf_free(&b);
  return yes;
}

int fu_job_end(fu_job *j, int status) {
  fu_asker_free(j->c, &j->ask);
  if (j->out_failed)
    return fu_out_status(&j->w);
  return fu_out_end(&j->w, status);
}

int fu_job_refuse_root(fu_job *j, const char *path) {
  if (!strcmp(path, "/"))
    fu_job_error(j, "it is dangerous to operate recursively on '/'");
  else
    fu_job_error(j,
                 "it is dangerous to operate recursively on %s (same as '/')",
                 fu_quote(j->c, path));
  bi_error(j->c, "use --no-preserve-root to override this failsafe");
  return -1;
}

void fu_dev_numbers(const fu_stat *st, unsigned *maj, unsigned *min) {
  *maj = *min = 0;
  if (st->type != VFS_CHR)
    return;
  *maj = 1;
  *min = 3;
  if (st->dev == VFS_DEV_ZERO)
    *min = 5;
  else if (st->dev == VFS_DEV_URANDOM)
    *min = 9;
  else if (st->dev >= VFS_DEV_STDIN && st->dev <= VFS_DEV_STDERR)
    *maj = 136, *min = 0;
}
