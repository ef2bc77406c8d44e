/*
 * sb_read.c - read (-r -a -d -n -N -p -s -t -u) and mapfile/readarray.
 *
 * read takes its input one byte at a time: the stream is shared with the
 * commands that follow (`while read l; do ...; done < f`), and bytes read
 * past the delimiter could not be given back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/sh.h"

static stream *fd_stream(sh_exec *ex, const char *arg, const char *me) {
  int64_t k;
  if (sh_parse_int(arg, &k) || k < 0 || k >= SH_NFD || !ex->fd[k]) {
    sh_builtin_err(ex, me, "%s: invalid file descriptor specification", arg);
    return NULL;
  }
  return ex->fd[k];
}

typedef struct rbuf {
  char *s;
  unsigned char *esc; /* 1: came after a backslash (not a separator) */
  size_t n, cap;
} rbuf;

static int rb_add(sh_exec *ex, rbuf *b, char c, int esc) {
  if (b->n + 1 >= b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 128;
    char *ns = mem_realloc(ex->m, b->s, nc);
    if (!ns)
      return -1;
    b->s = ns;
    unsigned char *ne = mem_realloc(ex->m, b->esc, nc);
    if (!ne)
      return -1;
    b->esc = ne;
    b->cap = nc;
  }
  b->s[b->n] = c;
  b->esc[b->n] = (unsigned char)esc;
  b->n++;
  b->s[b->n] = 0;
  return 0;
}

/* read -n/-N in a UTF-8 locale counts characters: after a byte lead that
 * may start a multi-byte sequence, the bytes that complete it are read too.
 * As bash does it (through glibc's decoder, which goes by the lead byte's
 * length and checks only that continuation bytes follow), the byte that
 * shows the sequence to be invalid is kept in the same character, even a
 * newline; a byte that cannot start a sequence is a character alone.
 * 0, or -1 out of memory. */
static int rb_rest(sh_exec *ex, stream *in, rbuf *b, unsigned char lead,
                   int esc) {
  size_t len = lead >= 0xC2 && lead <= 0xDF   ? 2
               : lead >= 0xE0 && lead <= 0xEF ? 3
               : lead >= 0xF0 && lead <= 0xF7 ? 4
               : lead >= 0xF8 && lead <= 0xFB ? 5
               : lead >= 0xFC && lead <= 0xFD ? 6
                                              : 1;
  for (size_t have = 1; have < len; have++) {
    char d;
    if (stream_read(in, &d, 1) <= 0)
      return 0;
    if (rb_add(ex, b, d, esc))
      return -1;
    if (((unsigned char)d & 0xC0) != 0x80)
      return 0;
  }
  return 0;
}

int sb_read(sh_exec *ex, int argc, char **argv) {
  int raw = 0, nchars = -1, exact = 0, silent = 0, tzero = 0;
  const char *arr = NULL, *prompt = NULL;
  int delim = '\n';
  stream *in = ex->fd[0];
  sh_getopt g;
  sh_getopt_init(&g, ex, "read", argc, argv, "rseEa:d:n:N:p:t:u:i:");
  g.usage = "[-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] "
            "[-p prompt] [-t timeout] [-u fd] [name ...]";
  int o;
  /* -e, -E and -i (readline's editing and initial text) change nothing
   * here: the input is never a terminal. */
  while ((o = sh_getopt_next(&g)) > 0) {
    const char *val = g.arg;
    int64_t k;
    switch (o) {
    case 'r':
      raw = 1;
      break;
    case 's':
      silent = 1;
      break;
    case 'a':
      arr = val;
      break;
    case 'd':
      delim = (unsigned char)val[0];
      break;
    case 'n':
    case 'N':
      if (sh_parse_int(val, &k) || k < 0) {
        sh_builtin_err(ex, "read", "%s: invalid number", val);
        return 1;
      }
      nchars = (int)k;
      exact = o == 'N';
      break;
    case 'p':
      prompt = val;
      break;
    case 't':
      /* -t 0 only polls: input in memory is always ready (or at
       * EOF, which bash also reports as ready). */
      if (strtod(val, NULL) == 0)
        tzero = 1;
      break;
    case 'u':
      in = fd_stream(ex, val, "read");
      if (!in)
        return 1;
      break;
    }
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  (void)silent;
  for (int k = i; k < argc; k++) {
    if (!sh_valid_name(argv[k], strlen(argv[k]))) {
      sh_builtin_err(ex, "read", "`%s': not a valid identifier", argv[k]);
      return 1;
    }
  }
  if (tzero)
    return 0;
  if (prompt && ex->fd[2])
    stream_puts(ex->fd[2], prompt);
  if (!in) {
    sh_builtin_err(ex, "read", "0: Bad file descriptor");
    return 1;
  }
  rbuf b = {0};
  int got_delim = 0, err = 0;
  int count = 0;
  /* -n and -N count characters (bytes in the C locale) */
  int utf8 = nchars > 0 && sh_utf8(ex);
  for (;;) {
    if (nchars >= 0 && count >= nchars)
      break;
    char c;
    long k = stream_read(in, &c, 1);
    if (k < 0) {
      if (in->err == 9 /* EBADF */)
        sh_builtin_err(ex, "read", "read error: 0: Bad file descriptor");
      else if (in->err == 21 /* EISDIR: `< dir` */)
        sh_builtin_err(ex, "read", "read error: 0: Is a directory");
      err = 1;
      break;
    }
    if (k == 0)
      break;
    if (!exact && (unsigned char)c == (unsigned)delim) {
      got_delim = 1;
      break;
    }
    if (c == '\\' && !raw) {
      char d;
      long k2 = stream_read(in, &d, 1);
      if (k2 <= 0)
        break;
      if (d == '\n')
        continue; /* line continuation */
      if (rb_add(ex, &b, d, 1))
        goto oom;
      if (utf8 && (unsigned char)d >= 0x80 &&
          rb_rest(ex, in, &b, (unsigned char)d, 1))
        goto oom;
      count++;
      continue;
    }
    if (c == 0)
      continue; /* bash drops NUL bytes */
    if (rb_add(ex, &b, c, 0))
      goto oom;
    if (utf8 && (unsigned char)c >= 0x80 &&
        rb_rest(ex, in, &b, (unsigned char)c, 0))
      goto oom;
    count++;
  }
  if (nchars >= 0 && count >= nchars)
    got_delim = 1;
  if (sh_stopped(ex)) {
    ex->jump = J_ABORT;
    mem_free(ex->m, b.s);
    mem_free(ex->m, b.esc);
    return 1;
  }
  if (!b.s && rb_add(ex, &b, 0, 0) == 0)
    b.n = 0;
  if (b.s)
    b.s[b.n] = 0;
  /* IFS classes */
  const char *ifs = sh_getvar(ex, "IFS");
  if (!ifs)
    ifs = " \t\n";
  unsigned char cls[256] = {0};
  for (const char *p = ifs; *p; p++) {
    unsigned char c = (unsigned char)*p;
    cls[c] = (c == ' ' || c == '\t' || c == '\n') ? 1 : 2;
  }
#define ISWS(k) (!b.esc[k] && cls[(unsigned char)b.s[k]] == 1)
#define ISSEP(k) (!b.esc[k] && cls[(unsigned char)b.s[k]])
  int st = (got_delim && !err) ? 0 : 1;
  if (arr || i >= argc) {
    if (!arr) {
      /* REPLY: the line as read (backslashes removed) */
      sh_setvar(ex, "REPLY", b.s ? b.s : "", b.n, 0);
      goto done;
    }
  }
  if (exact && !arr) {
    /* -N: the first name takes everything, the others are emptied. */
    for (int k = i; k < argc; k++)
      sh_setvar(ex, argv[k], k == i && b.s ? b.s : "", k == i ? b.n : 0, 0);
    goto done;
  }
  {
    size_t pos = 0, n = b.n;
    /* skip leading IFS whitespace */
    while (pos < n && ISWS(pos))
      pos++;
    if (arr) {
      sh_unsetvar(ex, arr);
      sh_var *v = sh_var_lookup_for_write(ex, arr, 0);
      if (!v) {
        st = 1;
        goto done;
      }
      sh_var_make_array(ex, v);
      if (!v->arr && !(v->arr = sh_arr_new(ex->m)))
        goto oom;
      v->flags |= V_ARRAY | V_SET;
      int64_t idx = 0;
      while (pos < n) {
        size_t s = pos;
        while (pos < n && !ISSEP(pos))
          pos++;
        if (sh_arr_iset(ex->m, v->arr, idx++, b.s + s, pos - s))
          goto oom;
        /* consume the separator: ws* [nonws] ws* */
        while (pos < n && ISWS(pos))
          pos++;
        if (pos < n && ISSEP(pos) && !ISWS(pos)) {
          pos++;
          while (pos < n && ISWS(pos))
            pos++;
        }
      }
      goto done;
    }
    for (int k = i; k < argc; k++) {
      if (k == argc - 1) {
        /* the rest, minus trailing IFS whitespace */
        size_t e = n;
        while (e > pos && ISWS(e - 1))
          e--;
        /* a single trailing non-whitespace separator is dropped */
        if (e > pos && ISSEP(e - 1) && !ISWS(e - 1)) {
          size_t e2 = e - 1;
          int other = 0;
          for (size_t q = pos; q < e2; q++)
            if (ISSEP(q) && !ISWS(q))
              other = 1;
          if (!other)
            e = e2;
          while (e > pos && ISWS(e - 1))
            e--;
        }
        buf val;
        buf_init(&val, ex->m);
        buf_append(&val, b.s ? b.s + pos : "", e - pos);
        sh_setvar(ex, argv[k], buf_cstr(&val), val.len, 0);
        buf_free(&val);
        break;
      }
      size_t s = pos;
      while (pos < n && !ISSEP(pos))
        pos++;
      sh_setvar(ex, argv[k], b.s ? b.s + s : "", pos - s, 0);
      while (pos < n && ISWS(pos))
        pos++;
      if (pos < n && ISSEP(pos) && !ISWS(pos)) {
        pos++;
        while (pos < n && ISWS(pos))
          pos++;
      }
    }
  }
done:
  mem_free(ex->m, b.s);
  mem_free(ex->m, b.esc);
  return st;
oom:
  mem_free(ex->m, b.s);
  mem_free(ex->m, b.esc);
  return sh_oom(ex) ? 1 : 1;
#undef ISWS
#undef ISSEP
}

int sb_mapfile(sh_exec *ex, int argc, char **argv) {
  int strip = 0, delim = '\n';
  int64_t count = 0, origin = 0, skip = 0;
  int have_origin = 0;
  stream *in = ex->fd[0];
  const char *me = argv[0];
  sh_getopt g;
  sh_getopt_init(&g, ex, me, argc, argv, "td:n:O:s:u:C:c:");
  int o;
  /* -C and -c (a callback every so many lines) are taken and ignored. */
  while ((o = sh_getopt_next(&g)) > 0) {
    const char *val = g.arg;
    switch (o) {
    case 't':
      strip = 1;
      break;
    case 'd':
      delim = (unsigned char)val[0];
      break;
    case 'n':
      if (sh_parse_int(val, &count) || count < 0) {
        sh_builtin_err(ex, me, "%s: invalid line count", val);
        return 1;
      }
      break;
    case 'O':
      if (sh_parse_int(val, &origin) || origin < 0) {
        sh_builtin_err(ex, me, "%s: invalid array origin", val);
        return 1;
      }
      have_origin = 1;
      break;
    case 's':
      sh_parse_int(val, &skip);
      break;
    case 'u':
      in = fd_stream(ex, val, me);
      if (!in)
        return 1;
      break;
    }
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  const char *name = i < argc ? argv[i] : "MAPFILE";
  if (!sh_valid_name(name, strlen(name))) {
    sh_builtin_err(ex, me, "`%s': not a valid identifier", name);
    return 1;
  }
  sh_var *v = sh_var_lookup_for_write(ex, name, 0);
  if (!v)
    return 1;
  if (!have_origin) {
    sh_arr_free(ex->m, v->arr, v->flags & V_ASSOC);
    v->arr = NULL;
    mem_free(ex->m, v->val);
    v->val = NULL;
    v->flags &= ~V_ASSOC;
  }
  sh_var_make_array(ex, v);
  if (!v->arr && !(v->arr = sh_arr_new(ex->m)))
    return sh_oom(ex);
  v->flags |= V_ARRAY | V_SET;
  if (!in)
    return 1;
  int64_t idx = origin, nread = 0;
  buf line;
  buf_init(&line, ex->m);
  for (;;) {
    if (count && nread >= count)
      break;
    char c;
    long k = stream_read(in, &c, 1);
    if (k < 0)
      break;
    int end = k == 0;
    if (!end) {
      if (buf_putc(&line, c))
        break;
      if ((unsigned char)c != (unsigned)delim)
        continue;
    }
    if (end && line.len == 0)
      break;
    size_t l = line.len;
    if (strip && l && (unsigned char)line.data[l - 1] == (unsigned)delim)
      l--;
    if (skip > 0) {
      skip--;
    } else {
      if (sh_arr_iset(ex->m, v->arr, idx++, line.data ? line.data : "", l)) {
        line.oom = 1;
        break;
      }
      nread++;
    }
    buf_clear(&line);
    if (end)
      break;
  }
  int oom = line.oom;
  buf_free(&line);
  if (oom)
    return sh_oom(ex);
  if (sh_stopped(ex))
    ex->jump = J_ABORT;
  return 0;
}
