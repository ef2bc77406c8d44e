/*
 * glob.c - gitignore-style globs, as ripgrep reads .gitignore, .ignore,
 * .rgignore and its -g/--iglob overrides.
 *
 * A line is turned into a glob the way ripgrep's ignore rules say: '#'
 * starts a comment, trailing blanks go (unless escaped), '!' makes a
 * whitelist entry, a leading '/' anchors the glob to the ignore file's
 * directory, a trailing '/' restricts it to directories, and a glob
 * without any '/' matches at any depth (it gets a "**"+"/" prefix). The
 * glob is then translated to an anchored PCRE2 regex: '*' and '?' never
 * cross a '/', "**" spans directories, [...] classes, {a,b} alternatives
 * and backslash escapes.
 */
#include <string.h>

#include "builtins/search/rg/rg.h"
#include "core/buf.h"

static void lit(buf *b, unsigned char ch) {
  if (strchr("\\^$.|?*+()[]{}-/#&~ ", ch) && ch) {
    buf_putc(b, '\\');
    buf_putc(b, (char)ch);
  } else if (ch < 0x20) {
    char t[8];
    static const char hx[] = "0123456789abcdef";
    t[0] = '\\';
    t[1] = 'x';
    t[2] = hx[ch >> 4];
    t[3] = hx[ch & 15];
    buf_append(b, t, 4);
  } else {
    buf_putc(b, (char)ch);
  }
}

/* The regex of glob g[0..n) (without anchors) appended to b. */
static void translate(buf *b, const char *g, size_t n) {
  int depth = 0; /* inside {...} */
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)g[i];
    if (ch == '*') {
      if (i + 1 < n && g[i + 1] == '*') {
        int at_start = i == 0 || g[i - 1] == '/';
        int at_end = i + 2 == n || g[i + 2] == '/';
        if (at_start && at_end) {
          if (i == 0 && i + 2 < n) { // a leading double star and slash
            buf_puts(b, "(?:|.*/)");
            i += 2;
          } else if (i + 2 >=
                     n) { // a final slash and double star, or one alone
            buf_puts(b, ".*");
            i += 1;
          } else { // slash, double star, slash in the middle
            buf_puts(b, "(?:|.*/)");
            i += 2;
          }
          continue;
        }
        buf_puts(b, "[^/]*");
        i++;
        continue;
      }
      buf_puts(b, "[^/]*");
    } else if (ch == '?') {
      buf_puts(b, "[^/]");
    } else if (ch == '\\' && i + 1 < n) {
      lit(b, (unsigned char)g[++i]);
    } else if (ch == '[') {
      size_t j = i + 1;
      int neg = 0;
      if (j < n && (g[j] == '!' || g[j] == '^')) {
        neg = 1;
        j++;
      }
      size_t k = j;
      if (k < n && g[k] == ']')
        k++;
      while (k < n && g[k] != ']')
        k++;
      if (k >= n) { /* no closing bracket: a literal '[' */
        lit(b, ch);
        continue;
      }
      buf_puts(b, neg ? "[^" : "[");
      for (size_t t = j; t < k; t++) {
        unsigned char d = (unsigned char)g[t];
        if (d == '-' && t > j && t + 1 < k)
          buf_putc(b, '-');
        else if (d == '\\' || d == ']' || d == '[' || d == '^' || d == '-')
          buf_putc(b, '\\'), buf_putc(b, (char)d);
        else
          buf_putc(b, (char)d);
      }
      buf_putc(b, ']');
      i = k;
    } else if (ch == '{') {
      depth++;
      buf_puts(b, "(?:");
    } else if (ch == '}' && depth > 0) {
      depth--;
      buf_putc(b, ')');
    } else if (ch == ',' && depth > 0) {
      buf_putc(b, '|');
    } else {
      lit(b, ch);
    }
  }
  while (depth-- > 0)
    buf_putc(b, ')');
}

int rg_glob_compile(rx_env *env, rx *r, const char *glob, size_t n, int icase) {
  buf b;
  buf_init(&b, env->m);
  buf_puts(&b, "\\A(?:");
  translate(&b, glob, n);
  buf_puts(&b, ")\\z");
  if (b.oom) {
    buf_free(&b);
    return -1;
  }
  uint32_t opts = PCRE2_DOTALL | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  if (icase)
    opts |= PCRE2_CASELESS;
  int ec;
  size_t eo;
  int rc = rx_compile(env, r, b.data, b.len, opts, RX_NOJIT, NULL, &ec, &eo);
  buf_free(&b);
  return rc;
}

/* Does glob text hold a character with a meaning (or, no_slash, a '/')? */
static int special(const char *t, size_t n, int no_slash) {
  for (size_t i = 0; i < n; i++)
    if (strchr("*?[]{}\\", t[i]) || (no_slash && t[i] == '/'))
      return 1;
  return 0;
}

int rg_gi_add(rx_env *env, rg_gi *g, const char *line, size_t n, int icase,
              const char **msg) {
  *msg = NULL;
  g->bud = env->bud;
  if (n && line[n - 1] == '\r')
    n--;
  if (n && line[0] == '#')
    return 1;
  if (!(n >= 2 && line[n - 1] == ' ' && line[n - 2] == '\\'))
    while (n &&
           (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r' ||
            line[n - 1] == '\v' || line[n - 1] == '\f'))
      n--;
  if (!n)
    return 1;
  int neg = 0, abs = 0, dironly = 0;
  if (n >= 2 && line[0] == '\\' && (line[1] == '!' || line[1] == '#')) {
    line++;
    n--;
  } else {
    if (line[0] == '!') {
      neg = 1;
      line++;
      n--;
    }
    if (n && line[0] == '/') {
      abs = 1;
      line++;
      n--;
    }
  }
  if (n && line[n - 1] == '/') {
    dironly = 1;
    n--;
  }
  buf b;
  buf_init(&b, env->m);
  if (!abs && !memchr(line, '/', n) && !(n >= 3 && memcmp(line, "**/", 3) == 0))
    buf_puts(&b, "**/");
  buf_append(&b, line, n);
  if (b.len >= 3 && memcmp(b.data + b.len - 3, "/**", 3) == 0)
    buf_puts(&b, "/*");
  if (b.oom) {
    buf_free(&b);
    *msg = "memory exhausted";
    return -1;
  }
  if (g->n == g->cap) {
    size_t nc = g->cap ? g->cap * 2 : 8;
    rg_glob *nv = mem_realloc(env->m, g->v, nc * sizeof *nv);
    if (!nv) {
      buf_free(&b);
      *msg = "memory exhausted";
      return -1;
    }
    g->v = nv;
    g->cap = nc;
  }
  rg_glob *e = &g->v[g->n];
  memset(e, 0, sizeof *e);
  const char *t = b.data ? b.data : "";
  size_t tl = b.len, skip = 0;
  if (!icase) {
    if (tl > 4 && memcmp(t, "**/*", 4) == 0 && !special(t + 4, tl - 4, 1)) {
      e->kind = RG_G_SUFFIX;
      skip = 4;
    } else if (tl > 3 && memcmp(t, "**/", 3) == 0 &&
               !special(t + 3, tl - 3, 1)) {
      e->kind = RG_G_NAME;
      skip = 3;
    } else if (tl && !special(t, tl, 0)) {
      e->kind = RG_G_PATH;
    }
  }
  if (e->kind != RG_G_REGEX) {
    e->lit = mem_alloc(env->m, tl - skip + 1);
    if (!e->lit) {
      buf_free(&b);
      *msg = "memory exhausted";
      return -1;
    }
    memcpy(e->lit, t + skip, tl - skip);
    e->lit[tl - skip] = 0;
    e->litn = tl - skip;
  } else if (rg_glob_compile(env, &e->re, t, tl, icase) < 0) {
    buf_free(&b);
    *msg = "invalid glob";
    return -1;
  }
  buf_free(&b);
  e->neg = neg;
  e->dironly = dironly;
  g->n++;
  if (neg)
    g->nwhite++;
  return 0;
}

int rg_gi_parse(rx_env *env, rg_gi *g, const char *data, size_t n) {
  size_t i = 0;
  while (i < n) {
    const char *nl = memchr(data + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - data) : n;
    const char *msg;
    if (rg_gi_add(env, g, data + i, e - i, 0, &msg) < 0 && msg &&
        strcmp(msg, "memory exhausted") == 0)
      return -1;
    i = e + 1;
    if (env->bud && budget_poll(env->bud))
      return -1;
  }
  return 0;
}

int rg_gi_match(rg_gi *g, const char *path, size_t n, int is_dir) {
  for (size_t i = g->n; i-- > 0;) {
    rg_glob *e = &g->v[i];
    /* a huge ignore file must not carry the walk past a deadline */
    if ((i & 255) == 255 && g->bud && budget_poll(g->bud))
      return RG_M_IGNORE;
    if (e->dironly && !is_dir)
      continue;
    int hit;
    if (e->kind == RG_G_PATH) {
      hit = n == e->litn && memcmp(path, e->lit, n) == 0;
    } else if (e->kind == RG_G_NAME || e->kind == RG_G_SUFFIX) {
      hit = n >= e->litn && memcmp(path + n - e->litn, e->lit, e->litn) == 0;
      if (hit && e->kind == RG_G_NAME) /* a whole name */
        hit = n == e->litn || path[n - e->litn - 1] == '/';
      if (hit && e->kind == RG_G_SUFFIX) /* within the last name */
        hit = !memchr(path + n - e->litn, '/', e->litn);
    } else {
      size_t ms, me;
      hit =
          rx_search(&e->re, path, n, 0, PCRE2_ANCHORED, RX_ANY, &ms, &me) == 1;
    }
    if (hit)
      return e->neg ? RG_M_WHITE : RG_M_IGNORE;
  }
  return RG_M_NONE;
}

void rg_gi_free(mem *m, rg_gi *g) {
  for (size_t i = 0; i < g->n; i++) {
    if (g->v[i].kind == RG_G_REGEX)
      rx_free(&g->v[i].re);
    mem_free(m, g->v[i].lit);
  }
  mem_free(m, g->v);
  memset(g, 0, sizeof *g);
}
