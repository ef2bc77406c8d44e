/*
 * hist.c - the history list of a shell process (see hist.h) and its file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "shell/sh.h"
#include "shell/state/hist.h"
#include "vfs/vfs.h"

sh_hist *sh_hist_get(sh_exec *ex) {
  if (!ex->hist) {
    sh_hist *h = mem_calloc(ex->m, 1, sizeof *h);
    if (!h) {
      sh_oom(ex);
      return NULL;
    }
    h->base = 1;
    ex->hist = h;
  }
  return ex->hist;
}

size_t sh_hist_count(sh_exec *ex) {
  const sh_hist *h = ex->hist;
  return h ? h->n : 0;
}

long sh_hist_next_number(sh_exec *ex) {
  const sh_hist *h = ex->hist;
  return h ? h->base + (long)h->n : 1;
}

/* HISTSIZE (or HISTFILESIZE) as a limit, or -1 for none. */
static long hist_limit(sh_exec *ex, const char *name) {
  const char *s = sh_getvar(ex, name);
  int64_t n;
  if (!s || !*s || sh_parse_int(s, &n) || n < 0)
    return -1;
  return n > 0x7fffffffL ? 0x7fffffffL : (long)n;
}

static void drop_oldest(sh_exec *ex, sh_hist *h, size_t k) {
  if (k > h->n)
    k = h->n;
  for (size_t i = 0; i < k; i++)
    mem_free(ex->m, h->v[i]);
  memmove(h->v, h->v + k, (h->n - k) * sizeof *h->v);
  h->n -= k;
  h->base += (long)k;
}

void sh_hist_stifle(sh_exec *ex) {
  sh_hist *h = ex->hist;
  long max = hist_limit(ex, "HISTSIZE");
  if (!h || max < 0 || h->n <= (size_t)max)
    return;
  size_t k = h->n - (size_t)max;
  drop_oldest(ex, h, k);
  /* readline's stifle sets the base to the number dropped (not adding
   * it): bash numbers the kept entries from there */
  h->base = (long)k;
}

int sh_hist_add(sh_exec *ex, const char *s, size_t len) {
  sh_hist *h = sh_hist_get(ex);
  if (!h)
    return -1;
  while (len && s[len - 1] == '\n')
    len--;
  long max = hist_limit(ex, "HISTSIZE");
  if (max == 0)
    return 0;
  if (h->n == h->cap) {
    size_t nc = h->cap ? h->cap * 2 : 16;
    char **nv = mem_realloc(ex->m, h->v, nc * sizeof *nv);
    if (!nv)
      return sh_oom(ex), -1;
    h->v = nv;
    h->cap = nc;
  }
  char *d = mem_strndup(ex->m, s, len);
  if (!d)
    return sh_oom(ex), -1;
  h->v[h->n++] = d;
  h->session++;
  if (max > 0 && h->n > (size_t)max)
    drop_oldest(ex, h, h->n - (size_t)max);
  return 0;
}

/* HISTCONTROL's ignorespace / ignoredups / ignoreboth. */
static int ignored(sh_exec *ex, const char *s, size_t len) {
  const char *hc = sh_getvar(ex, "HISTCONTROL");
  if (!hc || !*hc)
    return 0;
  int sp = strstr(hc, "ignorespace") || strstr(hc, "ignoreboth");
  int dup = strstr(hc, "ignoredups") || strstr(hc, "ignoreboth");
  if (sp && (s[0] == ' ' || s[0] == '\t'))
    return 1;
  const sh_hist *h = ex->hist;
  if (dup && h && h->n && strlen(h->v[h->n - 1]) == len &&
      memcmp(h->v[h->n - 1], s, len) == 0)
    return 1;
  return 0;
}

int sh_hist_record(sh_exec *ex, const char *s, size_t len) {
  while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t'))
    len--;
  size_t i = 0;
  while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
    i++;
  sh_hist *h = sh_hist_get(ex);
  if (!h)
    return -1;
  h->last_added = 0;
  h->pushed = 0;
  if (i == len || ignored(ex, s, len))
    return 0;
  /* Leading blank lines are not part of the command. */
  while (i > 0 && s[i - 1] != '\n')
    i--;
  if (sh_hist_add(ex, s + i, len - i))
    return -1;
  h->last_added = 1;
  return 0;
}

void sh_hist_remove(sh_exec *ex, size_t i) {
  sh_hist *h = ex->hist;
  if (!h || i >= h->n)
    return;
  mem_free(ex->m, h->v[i]);
  memmove(h->v + i, h->v + i + 1, (h->n - i - 1) * sizeof *h->v);
  h->n--;
  if (h->session > 0)
    h->session--;
}

void sh_hist_clear(sh_exec *ex) {
  sh_hist *h = ex->hist;
  if (!h)
    return;
  for (size_t i = 0; i < h->n; i++)
    mem_free(ex->m, h->v[i]);
  h->n = 0;
  h->session = 0;
  h->last_added = 0;
}

int sh_hist_replace(sh_exec *ex, size_t i, const char *s, size_t len) {
  sh_hist *h = ex->hist;
  if (!h || i >= h->n)
    return 0;
  while (len && s[len - 1] == '\n')
    len--;
  char *d = mem_strndup(ex->m, s, len);
  if (!d)
    return sh_oom(ex), -1;
  mem_free(ex->m, h->v[i]);
  h->v[i] = d;
  return 0;
}

const char *sh_hist_file(sh_exec *ex) {
  sh_var *v = sh_var_find(ex, "HISTFILE");
  if (v)
    return sh_getvar(ex, "HISTFILE");
  const char *home = sh_getvar(ex, "HOME");
  size_t hl = home ? strlen(home) : 0;
  char *p = arena_alloc(ex->ar, hl + sizeof "/.history");
  if (!p)
    return NULL;
  memcpy(p, home ? home : "", hl);
  memcpy(p + hl, "/.history", sizeof "/.history");
  return p;
}

int sh_hist_read_file(sh_exec *ex, const char *path, long from, long *nread) {
  char *data;
  size_t len;
  *nread = 0;
  int e = vfs_read_file(ex->run->v, ex->cwd, path, &data, &len);
  if (e)
    return e;
  long line = 0;
  int rc = 0;
  size_t i = 0;
  while (i < len) {
    if (budget_poll(&ex->run->bud)) {
      rc = -EINTR;
      break;
    }
    const char *nl = memchr(data + i, '\n', len - i);
    size_t end = nl ? (size_t)(nl - data) : len;
    const char *s = data + i;
    size_t n = end - i;
    i = nl ? end + 1 : len;
    /* "#<digits>" lines are time stamps of the entry after them */
    if (n > 1 && s[0] == '#' && s[1] >= '0' && s[1] <= '9')
      continue;
    if (line++ < from)
      continue;
    if (sh_hist_add(ex, s, n)) {
      rc = -ENOMEM;
      break;
    }
    /* lines read from the file are not this session's */
    ((sh_hist *)ex->hist)->session--;
  }
  vfs_release(ex->run->v, data);
  *nread = line;
  return rc;
}

int sh_hist_write_file(sh_exec *ex, const char *path, long count, int append) {
  sh_hist *h = ex->hist;
  size_t n = h ? h->n : 0;
  size_t first = count < 0 || (size_t)count >= n ? 0 : n - (size_t)count;
  buf b;
  buf_init(&b, ex->m);
  for (size_t i = first; i < n; i++) {
    buf_puts(&b, h->v[i]);
    buf_putc(&b, '\n');
  }
  if (b.oom) {
    buf_free(&b);
    return sh_oom(ex), -ENOMEM;
  }
  int e = append ? vfs_append_file(ex->run->v, ex->cwd, path,
                                   b.data ? b.data : "", b.len)
                 : vfs_write_file(ex->run->v, ex->cwd, path,
                                  b.data ? b.data : "", b.len, 0600);
  buf_free(&b);
  return e;
}

void sh_hist_truncate_file(sh_exec *ex, const char *path, long max) {
  if (max < 0 || !path || !*path)
    return;
  char *data;
  size_t len;
  if (vfs_read_file(ex->run->v, ex->cwd, path, &data, &len))
    return;
  /* Count lines back from the end. */
  size_t end = len;
  if (end && data[end - 1] == '\n')
    end--;
  long lines = 0;
  size_t start = 0;
  for (size_t i = end; i > 0; i--) {
    if (data[i - 1] == '\n' && ++lines == max) {
      start = i;
      break;
    }
  }
  if (max == 0)
    start = len;
  if (start > 0)
    vfs_write_file(ex->run->v, ex->cwd, path, data + start, len - start, 0600);
  vfs_release(ex->run->v, data);
}

void sh_hist_var_changed(sh_exec *ex, const char *name) {
  if (strcmp(name, "HISTSIZE") == 0) {
    sh_hist_stifle(ex);
  } else if (strcmp(name, "HISTFILESIZE") == 0) {
    const char *f = sh_getvar(ex, "HISTFILE");
    sh_hist_truncate_file(ex, f, hist_limit(ex, "HISTFILESIZE"));
  }
}

void sh_hist_free(sh_exec *ex) {
  sh_hist *h = ex->hist;
  if (!h)
    return;
  for (size_t i = 0; i < h->n; i++)
    mem_free(ex->m, h->v[i]);
  mem_free(ex->m, h->v);
  mem_free(ex->m, h);
  ex->hist = NULL;
}

int sh_hist_copy(sh_exec *dst, const sh_exec *src) {
  const sh_hist *h = src->hist;
  if (!h)
    return 0;
  sh_hist *d = sh_hist_get(dst);
  if (!d)
    return -1;
  d->v = h->n ? mem_alloc(dst->m, h->n * sizeof *d->v) : NULL;
  if (h->n && !d->v)
    return -1;
  d->cap = h->n;
  for (size_t i = 0; i < h->n; i++) {
    d->v[i] = mem_strdup(dst->m, h->v[i]);
    if (!d->v[i])
      return -1;
    d->n = i + 1;
  }
  d->base = h->base;
  d->lines_in_file = h->lines_in_file;
  d->session = h->session;
  d->last_added = h->last_added;
  d->pushed = h->pushed;
  d->ncmd = h->ncmd;
  return 0;
}

void sh_hist_enable(sh_exec *ex) {
  static const char *const names[] = {"HISTSIZE", "HISTFILESIZE"};
  for (int i = 0; i < 2; i++)
    if (!sh_var_find_raw(ex, names[i], NULL))
      sh_setvar(ex, names[i], "500", 3, 0);
}
