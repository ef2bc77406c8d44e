/*
 * exec_cond.c - [[ ... ]]: file tests over the VFS, string and pattern
 * comparison, arithmetic comparison, -v, -o, and =~ with BASH_REMATCH.
 * POSIX EREs are translated to PCRE2 syntax (backslashes inside bracket
 * expressions are literal in POSIX) and matched by core/regex.h with
 * POSIX's leftmost-longest rule, as bash's regexec does; a PCRE2 limit is
 * an error (status 2 with a message), never "no match".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "core/regex.h"
#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"

/* POSIX ERE -> PCRE2. */
/* Length of the interval {m}, {m,}, {m,n} or {,n} at re[i] (glibc's ERE
 * forms), 0 when there is none. */
static size_t ere_interval(const char *re, size_t i, size_t n) {
  size_t j = i + 1, d1 = 0, d2 = 0;
  while (j < n && re[j] >= '0' && re[j] <= '9')
    j++, d1++;
  if (j < n && re[j] == ',') {
    j++;
    while (j < n && re[j] >= '0' && re[j] <= '9')
      j++, d2++;
  }
  if (j >= n || re[j] != '}' || (!d1 && !d2))
    return 0;
  return j + 1 - i;
}

static char *ere_to_pcre(sh_exec *ex, const char *re, size_t n, size_t *out) {
  buf b;
  buf_init(&b, ex->m);
  int atom = 0; /* something an interval may repeat comes before */
  for (size_t i = 0; i < n; i++) {
    char c = re[i];
    if (c == '{') {
      /* glibc refuses a { that starts no interval, or one with nothing
       * before it to repeat ([[ { =~ { ]] is status 2) */
      size_t k = ere_interval(re, i, n);
      if (!k || !atom) {
        buf_free(&b);
        return NULL;
      }
      if (re[i + 1] == ',')
        buf_puts(&b, "{0"); /* PCRE2 reads {,n} as text */
      else
        buf_putc(&b, '{');
      buf_append(&b, re + i + 1, k - 1);
      i += k - 1;
      continue;
    }
    atom = !(c == '(' || c == '|' || c == '^');
    if (c == '\\' && i + 1 < n) {
      char d = re[i + 1];
      if (d == '<' || d == '>') {
        buf_puts(&b, "\\b");
      } else {
        buf_putc(&b, '\\');
        buf_putc(&b, d);
      }
      i++;
      continue;
    }
    if (c == '[') {
      /* copy a bracket expression, escaping backslashes */
      size_t j = i + 1;
      buf_putc(&b, '[');
      if (j < n && re[j] == '^') {
        buf_putc(&b, '^');
        j++;
      }
      if (j < n && re[j] == ']') {
        buf_puts(&b, "\\]");
        j++;
      }
      int closed = 0;
      while (j < n) {
        char d = re[j];
        if (d == '[' && j + 1 < n &&
            (re[j + 1] == ':' || re[j + 1] == '.' || re[j + 1] == '=')) {
          char kind = re[j + 1];
          const char *e = NULL;
          for (size_t k = j + 2; k + 1 < n; k++)
            if (re[k] == kind && re[k + 1] == ']') {
              e = re + k;
              break;
            }
          if (e) {
            size_t len = (size_t)(e - (re + j)) + 2;
            if (kind == ':')
              buf_append(&b, re + j, len);
            else
              buf_append(&b, re + j + 2, len - 4);
            j += len;
            continue;
          }
        }
        if (d == ']') {
          closed = 1;
          break;
        }
        if (d == '\\')
          buf_puts(&b, "\\\\");
        else if (d == '[')
          buf_puts(&b, "\\[");
        else
          buf_putc(&b, d);
        j++;
      }
      if (closed) {
        buf_putc(&b, ']');
        i = j;
      } else {
        /* unterminated: a literal '[' */
        b.len -= 0;
        i = j - 1;
      }
      continue;
    }
    buf_putc(&b, c);
  }
  char *r = arena_strndup(ex->ar, buf_cstr(&b), b.len);
  *out = b.len;
  buf_free(&b);
  return r;
}

int sh_regex_match(sh_exec *ex, const char *s, size_t slen, const char *re,
                   size_t relen, int nocase, int *err) {
  *err = 0;
  size_t pl;
  char *pat = ere_to_pcre(ex, re, relen, &pl);
  rx_env env;
  if (!pat || rx_env_init(&env, ex->m, 0) < 0) {
    *err = 1;
    return 0;
  }
  env.bud = &ex->run->bud; /* long automaton searches poll it */
  rx r;
  int ec;
  size_t eo;
  uint32_t opts = nocase ? PCRE2_CASELESS : 0;
  int matched = 0;
  if (rx_compile(&env, &r, pat, pl, opts, RX_POSIX | RX_CAPS | RX_NOJIT, NULL,
                 &ec, &eo) < 0) {
    *err = 1;
  } else {
    size_t ms, me;
    int rc = rx_search(&r, s, slen, 0, 0, RX_GROUPS, &ms, &me);
    if (rc < 0) {
      char msg[128];
      if (rc != RX_STOPPED) /* else the budget stopped it and says why */
        sh_err(ex, "=~: %s", rx_strerror(rc, msg, sizeof msg));
      *err = 1;
    }
    matched = rc > 0;
    /* BASH_REMATCH starts again as an empty array, filled on a match. */
    sh_unsetvar(ex, "BASH_REMATCH");
    sh_var *v = sh_var_lookup_for_write(ex, "BASH_REMATCH", SV_GLOBAL);
    if (v && !sh_var_make_array(ex, v)) {
      if (!v->arr)
        v->arr = sh_arr_new(ex->m);
      v->flags |= V_ARRAY | V_SET;
      if (!v->arr)
        sh_oom(ex);
      if (matched) {
        uint32_t ng;
        PCRE2_SIZE *ov = rx_ovector(&r, &ng);
        for (uint32_t i = 0; i < ng && v->arr; i++) {
          int bad = ov[2 * i] == PCRE2_UNSET
                        ? sh_arr_iset(ex->m, v->arr, i, "", 0)
                        : sh_arr_iset(ex->m, v->arr, i, s + ov[2 * i],
                                      ov[2 * i + 1] - ov[2 * i]);
          if (bad) {
            sh_oom(ex);
            break;
          }
        }
      }
    }
    rx_free(&r);
  }
  rx_env_free(&env);
  return matched;
}

static int file_test(sh_exec *ex, char op, const char *path) {
  vfs *v = ex->run->v;
  vfs_stat_t st;
  if (!*path)
    return 1;
  if (op == 'h' || op == 'L')
    return vfs_lstat(v, ex->cwd, path, &st) == 0 && st.type == VFS_LNK ? 0 : 1;
  if (vfs_stat(v, ex->cwd, path, &st))
    return 1;
  switch (op) {
  case 'a':
  case 'e':
    return 0;
  case 'f':
    return st.type == VFS_REG ? 0 : 1;
  case 'd':
    return st.type == VFS_DIR ? 0 : 1;
  case 'c':
    return st.type == VFS_CHR ? 0 : 1;
  case 'b':
    return 1;
  case 'p':
    return st.type == VFS_FIFO ? 0 : 1;
  case 'S':
    return 1;
  case 's':
    return st.size > 0 && st.type != VFS_DIR ? 0 : (st.type == VFS_DIR ? 0 : 1);
  case 'r':
    return vfs_access(v, ex->cwd, path, R_OK) ? 1 : 0;
  case 'w':
    return vfs_access(v, ex->cwd, path, W_OK) ? 1 : 0;
  case 'x':
    return vfs_access(v, ex->cwd, path, X_OK) ? 1 : 0;
  case 'u':
    return st.mode & 04000 ? 0 : 1;
  case 'g':
    return st.mode & 02000 ? 0 : 1;
  case 'k':
    return st.mode & 01000 ? 0 : 1;
  case 'O':
    return st.uid == VFS_DEFAULT_UID ? 0 : 1;
  case 'G':
    return st.gid == VFS_DEFAULT_GID ? 0 : 1;
  case 'N':
    return st.mtime_ns > st.atime_ns ? 0 : 1;
  }
  return 1;
}

static int var_is_set(sh_exec *ex, const char *name) {
  const char *br = strchr(name, '[');
  size_t nl = strlen(name);
  if (br && nl > 1 && name[nl - 1] == ']')
    return sh_ref_value(ex, name) != NULL;
  if (sh_is_special_var(name))
    return 1;
  sh_var *v = sh_var_find(ex, name);
  if (!v || !(v->flags & V_SET))
    return 0;
  if (v->flags & V_ARRAY)
    return sh_arr_iget(v->arr, 0) != NULL;
  if (v->flags & V_ASSOC)
    return sh_arr_aget(v->arr, "0") != NULL;
  return 1;
}

static int arith_operand(sh_exec *ex, const char *s, int64_t *out) {
  int err = 0;
  *out = sh_arith(ex, s, strlen(s), &err);
  if (err) /* bash reports it and the test is just false */
    return -1;
  return 0;
}

/* Under set -x, one test of [[ ]] as bash shows it: "[[ a op b ]]", or
 * "[[ op b ]]" when a is NULL. A word is quoted when it needs to be,
 * except b when b_as_is (a pattern or regex keeps the text it was given). */
static void trace_test(sh_exec *ex, const char *a, size_t la, const char *op,
                       const char *b, size_t lb, int b_as_is) {
  if (!(ex->opts & O_XTRACE))
    return;
  buf t;
  buf_init(&t, ex->m);
  sh_xtrace_prefix(ex, &t);
  buf_puts(&t, "[[ ");
  if (a) {
    if (sh_needs_quote(a, la))
      sh_quote(&t, a, la);
    else
      buf_append(&t, a, la);
    buf_putc(&t, ' ');
  }
  buf_printf(&t, "%s ", op);
  if (!b_as_is && sh_needs_quote(b, lb))
    sh_quote(&t, b, lb);
  else
    buf_append(&t, b, lb);
  buf_puts(&t, " ]]\n");
  if (ex->fd[2])
    stream_write(ex->fd[2], t.data, t.len);
  buf_free(&t);
}

int sh_exec_cond(sh_exec *ex, sh_cond *c) {
  if (!c)
    return 1;
  if (ex->jump)
    return 1;
  switch (c->kind) {
  case C_AND: {
    int l = sh_exec_cond(ex, c->l);
    if (l != 0)
      return l;
    return sh_exec_cond(ex, c->r);
  }
  case C_OR: {
    int l = sh_exec_cond(ex, c->l);
    if (l == 0 || l == 2)
      return l;
    return sh_exec_cond(ex, c->r);
  }
  case C_NOT: {
    int r = sh_exec_cond(ex, c->l);
    return r == 2 ? 2 : !r;
  }
  case C_WORD: {
    size_t l;
    char *s = sh_expand_str(ex, c->a, &l);
    if (!s)
      return 2;
    return l ? 0 : 1;
  }
  case C_UNARY: {
    size_t l;
    char *s = sh_expand_str(ex, c->a, &l);
    if (!s)
      return 2;
    const char *op = c->op;
    trace_test(ex, NULL, 0, op, s, l, 0);
    switch (op[1]) {
    case 'z':
      return l == 0 ? 0 : 1;
    case 'n':
      return l ? 0 : 1;
    case 'v':
      return var_is_set(ex, s) ? 0 : 1;
    case 'R': {
      sh_var *v = sh_var_find_raw(ex, s, NULL);
      return v && (v->flags & V_NAMEREF) ? 0 : 1;
    }
    case 'o': {
      unsigned bit;
      if (sh_option_by_name(s, &bit))
        return 1;
      return (ex->opts & bit) ? 0 : 1;
    }
    case 't':
      return 1;
    default:
      return file_test(ex, op[1], s);
    }
  }
  case C_BINARY: {
    const char *op = c->op;
    size_t la, lb;
    char *a = sh_expand_str(ex, c->a, &la);
    if (!a)
      return 2;
    int is_pat =
        strcmp(op, "==") == 0 || strcmp(op, "=") == 0 || strcmp(op, "!=") == 0;
    int is_re = strcmp(op, "=~") == 0;
    char *b;
    if (is_pat)
      b = sh_expand_pattern(ex, c->b, &lb);
    else if (is_re)
      b = sh_expand_regex(ex, c->b, &lb);
    else
      b = sh_expand_str(ex, c->b, &lb);
    if (!b)
      return 2;
    trace_test(ex, a, la, op, b, lb, is_pat || is_re);
    if (is_pat) {
      unsigned fl = sh_pat_flags(ex) | PAT_EXTGLOB;
      if (ex->shopts & SO_NOCASEMATCH)
        fl |= PAT_NOCASE;
      int m = pat_match(b, lb, a, la, pat_charset(b, lb, a, la, fl));
      return op[0] == '!' ? (m ? 1 : 0) : (m ? 0 : 1);
    }
    if (is_re) {
      int err;
      int m = sh_regex_match(ex, a, la, b, lb,
                             (ex->shopts & SO_NOCASEMATCH) != 0, &err);
      if (err)
        return 2;
      return m ? 0 : 1;
    }
    if (strcmp(op, "<") == 0)
      return strcmp(a, b) < 0 ? 0 : 1;
    if (strcmp(op, ">") == 0)
      return strcmp(a, b) > 0 ? 0 : 1;
    if (op[0] == '-') {
      if (strcmp(op, "-nt") == 0 || strcmp(op, "-ot") == 0 ||
          strcmp(op, "-ef") == 0) {
        vfs_stat_t sa, sb;
        int ea = vfs_stat(ex->run->v, ex->cwd, a, &sa);
        int eb = vfs_stat(ex->run->v, ex->cwd, b, &sb);
        if (strcmp(op, "-ef") == 0)
          return !ea && !eb && sa.ino == sb.ino ? 0 : 1;
        if (strcmp(op, "-nt") == 0) {
          if (ea)
            return 1;
          if (eb)
            return 0;
          return sa.mtime_ns > sb.mtime_ns ? 0 : 1;
        }
        if (eb)
          return 1;
        if (ea)
          return 0;
        return sa.mtime_ns < sb.mtime_ns ? 0 : 1;
      }
      int64_t x, y;
      if (arith_operand(ex, a, &x) || arith_operand(ex, b, &y))
        return 1;
      if (strcmp(op, "-eq") == 0)
        return x == y ? 0 : 1;
      if (strcmp(op, "-ne") == 0)
        return x != y ? 0 : 1;
      if (strcmp(op, "-lt") == 0)
        return x < y ? 0 : 1;
      if (strcmp(op, "-le") == 0)
        return x <= y ? 0 : 1;
      if (strcmp(op, "-gt") == 0)
        return x > y ? 0 : 1;
      if (strcmp(op, "-ge") == 0)
        return x >= y ? 0 : 1;
    }
    sh_err(ex, "conditional binary operator expected");
    return 2;
  }
  }
  return 1;
}
