/*
 * sb_history.c - the history and fc builtins over the shell's history list
 * (state/hist.c).
 *
 * A script keeps a list as bash's does: empty unless `set -o history` is
 * on or history -r / -s fill it. fc's listing form follows bash's rules for
 * which entry "the last command" is: the fc command itself is in the list
 * when the shell recorded it, and is then skipped. fc's editing form runs
 * the editor named by -e, $FCEDIT or $EDITOR on a file in /tmp, then runs
 * what the file holds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/builtin.h"
#include "shell/builtins/builtins.h"
#include "shell/sh.h"
#include "shell/state/hist.h"
#include "vfs/vfs.h"

/* The word is a number, maybe negative (fc's -N is not an option). */
static int is_number(const char *s, int64_t *out) {
  int64_t n;
  if (!s || !*s || sh_parse_int(s, &n))
    return 0;
  if (out)
    *out = n;
  return 1;
}

/* "too many arguments" ends the command line; in a `bash -c` string, the
 * whole string, as bash's jump back to its top level does there. */
static int too_many(sh_exec *ex, const char *who) {
  sh_builtin_err(ex, who, "too many arguments");
  if (!ex->script_name && !(ex->opts & O_INTERACTIVE) && !ex->in_subshell)
    sh_fatal(ex, 1);
  else
    sh_discard(ex);
  return 1;
}

/* ---- history -------------------------------------------------------- */

static int list_history(sh_exec *ex, int argc, char **argv, int i) {
  sh_hist *h = ex->hist;
  size_t n = h ? h->n : 0, first = 0;
  if (i < argc && strcmp(argv[i], "--") == 0)
    i++;
  if (i < argc) {
    int64_t k;
    if (!is_number(argv[i], &k)) {
      sh_builtin_err(ex, "history", "%s: numeric argument required", argv[i]);
      return 1;
    }
    if (i + 1 < argc)
      return too_many(ex, "history");
    if (k < 0)
      k = -k;
    if ((uint64_t)k < n)
      first = n - (size_t)k;
  }
  buf b;
  buf_init(&b, ex->m);
  for (size_t k = first; k < n; k++) {
    if (sh_stopped(ex))
      break;
    buf_printf(&b, "%5ld  %s\n", h->base + (long)k, h->v[k]);
    if (b.len >= 8192) {
      if (sh_out(ex, b.data, b.len)) {
        buf_free(&b);
        return 1;
      }
      b.len = 0;
    }
  }
  int r = b.oom ? sh_oom(ex) : b.len ? sh_out(ex, b.data, b.len) : 0;
  buf_free(&b);
  return r ? 1 : 0;
}

static int out_of_range(sh_exec *ex, const char *arg) {
  sh_builtin_err(ex, "history", "%s: history position out of range", arg);
  return 1;
}

/* history -d OFFSET or START-END; negative numbers count from the end. */
static int delete_entries(sh_exec *ex, const char *arg) {
  sh_hist *h = sh_hist_get(ex);
  if (!h)
    return 1;
  long len = (long)h->n, base = h->base;
  const char *dash = strchr(arg[0] == '-' ? arg + 1 : arg, '-');
  if (dash) {
    char tmp[64];
    size_t sl = (size_t)(dash - arg);
    int64_t s, e;
    if (sl >= sizeof tmp)
      return out_of_range(ex, arg);
    memcpy(tmp, arg, sl);
    tmp[sl] = 0;
    if (!is_number(tmp, &s) || !is_number(dash + 1, &e))
      return out_of_range(ex, arg);
    if (tmp[0] == '-' && s < 0)
      s += len;
    if (dash[1] == '-' && e < 0)
      e += len;
    if (s < base || e < base)
      return out_of_range(ex, arg);
    s -= base;
    e -= base;
    if (s >= len || e >= len || s > e)
      return 1;
    for (int64_t k = e; k >= s; k--)
      sh_hist_remove(ex, (size_t)k);
    return 0;
  }
  int64_t off;
  if (!is_number(arg, &off))
    return out_of_range(ex, arg);
  long idx;
  if (arg[0] == '-' && off < 0) {
    idx = len + (long)off;
    if (idx < base)
      return out_of_range(ex, arg);
  } else if (off < base || off >= base + len) {
    return out_of_range(ex, arg);
  } else {
    idx = (long)off - base;
  }
  if (idx >= len)
    return 1;
  sh_hist_remove(ex, (size_t)idx);
  return 0;
}

/* history -s: the words become one entry, in place of the history -s
 * command itself when the shell recorded it. */
static int push_entry(sh_exec *ex, int argc, char **argv, int i) {
  sh_hist *h = sh_hist_get(ex);
  if (!h)
    return 1;
  if ((ex->opts & O_HISTORY) && h->last_added && !h->pushed && h->n)
    sh_hist_remove(ex, h->n - 1);
  buf b;
  buf_init(&b, ex->m);
  for (int k = i; k < argc; k++) {
    if (k > i)
      buf_putc(&b, ' ');
    buf_puts(&b, argv[k]);
  }
  int r = b.oom ? sh_oom(ex) : sh_hist_add(ex, b.data ? b.data : "", b.len);
  buf_free(&b);
  h->last_added = 1;
  h->pushed = 1;
  return r ? 1 : 0;
}

/* history -p: each word with its history expansions, one a line. */
static int print_expanded(sh_exec *ex, int argc, char **argv, int i) {
  int st = 0;
  for (; i < argc; i++) {
    buf b;
    buf_init(&b, ex->m);
    int print_only;
    int r = sh_hist_expand(ex, argv[i], strlen(argv[i]), &b, &print_only, 1);
    if (r < 0) {
      if (sh_stopped(ex)) {
        buf_free(&b);
        return 1;
      }
      sh_builtin_err(ex, "history", "%s: history expansion failed", argv[i]);
      st = 1;
    } else {
      buf_putc(&b, '\n');
      if (b.oom || sh_out(ex, b.data, b.len))
        st = 1;
    }
    buf_free(&b);
  }
  return st;
}

/* history -a: the entries added since the file was last written. A file
 * named by HISTFILE or the operand is created when missing; the fallback
 * ~/.history (HISTFILE unset) must exist, as with bash. */
static int append_new(sh_exec *ex, const char *file, int create) {
  sh_hist *h = sh_hist_get(ex);
  if (!h)
    return 1;
  if (h->session <= 0) {
    h->session = 0;
    return 0;
  }
  if (!file)
    return 1;
  vfs_stat_t st;
  int e0 = vfs_stat(ex->run->v, ex->cwd, file, &st);
  if (e0 == -ENOENT && !create)
    return 1;
  if (e0 == -ENOENT) {
    int e = vfs_write_file(ex->run->v, ex->cwd, file, "", 0, 0600);
    if (e) {
      sh_builtin_err(ex, "history", "%s: cannot create: %s", file,
                     bi_strerror(-e));
      return 1;
    }
  }
  long cnt = h->session;
  if (h->n && (size_t)cnt > h->n)
    cnt = (long)h->n;
  int e = sh_hist_write_file(ex, file, cnt, 1);
  h->lines_in_file += cnt;
  h->session = 0;
  return e ? 1 : 0;
}

int sb_history(sh_exec *ex, int argc, char **argv) {
  sh_getopt g;
  sh_getopt_init(&g, ex, "history", argc, argv, "acd:nprsw");
  g.usage = "[-c] [-d offset] [n] or history -anrw [filename] or history "
            "-ps arg [arg...]";
  int o, c = 0, s = 0, p = 0, files = 0;
  char fop = 0;
  const char *del = NULL;
  while ((o = sh_getopt_next(&g)) > 0) {
    switch (o) {
    case 'c':
      c = 1;
      break;
    case 'd':
      del = g.arg;
      break;
    case 's':
      s = 1;
      break;
    case 'p':
      p = 1;
      break;
    default: /* a n r w */
      if (fop != o)
        files++;
      fop = (char)o;
      break;
    }
  }
  if (o < 0)
    return 2;
  int i = g.ind;
  if (files > 1) {
    sh_builtin_err(ex, "history", "cannot use more than one of -anrw");
    return 1;
  }
  if (c) {
    sh_hist_clear(ex);
    if (i >= argc)
      return 0;
  }
  if (s) {
    if (i < argc)
      return push_entry(ex, argc, argv, i);
    return 0;
  }
  if (p) {
    /* the history -p line itself is not an event to expand */
    sh_hist *h = ex->hist;
    if (h && (ex->opts & O_HISTORY) && h->last_added && !h->pushed && h->n) {
      sh_hist_remove(ex, h->n - 1);
      h->last_added = 0;
    }
    return print_expanded(ex, argc, argv, i);
  }
  if (del)
    return delete_entries(ex, del);
  if (!fop && !c)
    return list_history(ex, argc, argv, i);
  const char *file = i < argc ? argv[i] : sh_hist_file(ex);
  if (file && !*file)
    file = NULL;
  sh_hist *h = sh_hist_get(ex);
  if (!h)
    return 1;
  switch (fop) {
  case 'a':
    return append_new(ex, file, i < argc || sh_var_find(ex, "HISTFILE"));
  case 'w':
    if (!file)
      return 1;
    /* bash leaves the count of new entries as it was: a later -a
     * appends them again */
    return sh_hist_write_file(ex, file, -1, 0) ? 1 : 0;
  case 'r': {
    long nread;
    if (!file || sh_hist_read_file(ex, file, 0, &nread))
      return 1;
    h->lines_in_file = nread;
    return 0;
  }
  case 'n': {
    long nread;
    if (!file || sh_hist_read_file(ex, file, h->lines_in_file, &nread))
      return 1;
    h->lines_in_file = nread;
    return 0;
  }
  }
  return 0;
}

/* ---- fc --------------------------------------------------------------- */

/* The index of the entry "the last command" means for fc (the fc command
 * itself excluded when it was recorded), or -1 when there is none. */
static long fc_last(sh_exec *ex) {
  sh_hist *h = ex->hist;
  long n = h ? (long)h->n : 0;
  long last = n - ((ex->opts & O_HISTORY) && h && h->last_added ? 1 : 0) - 1;
  return last;
}

enum { FC_INVALID = -2 };

/* An fc history specification: a number (negative: back from the last
 * command) or the prefix of a command. */
static long fc_number(sh_exec *ex, const char *spec, int listing, int first) {
  sh_hist *h = ex->hist;
  long last = fc_last(ex);
  long real_last = h ? (long)h->n - 1 : -1;
  if (last < 0)
    return -1;
  if (!spec)
    return last;
  int64_t k;
  if (is_number(spec, &k)) {
    if (k < 0) {
      long r = (long)k + last + 1;
      return r < 0 ? 0 : r;
    }
    if (k == 0)
      return spec[0] == '-' ? (listing ? real_last : FC_INVALID) : last;
    k -= h->base;
    if (k < 0 || k > last)
      return first && k < 0 ? 0 : last;
    return (long)k;
  }
  size_t sl = strlen(spec);
  for (long j = last; j >= 0; j--)
    if (strncmp(h->v[j], spec, sl) == 0)
      return j;
  return FC_INVALID;
}

/* s with every old=new pair applied (all occurrences). */
static char *fc_subst(sh_exec *ex, const char *cmd, char **pairs, int np) {
  char *cur = mem_strdup(ex->m, cmd);
  for (int i = 0; cur && i < np; i++) {
    const char *eq = strchr(pairs[i], '=');
    size_t ol = (size_t)(eq - pairs[i]);
    const char *rep = eq + 1;
    if (!ol)
      continue;
    buf b;
    buf_init(&b, ex->m);
    const char *p = cur;
    for (;;) {
      const char *hit = memmem(p, strlen(p), pairs[i], ol);
      if (!hit) {
        buf_puts(&b, p);
        break;
      }
      buf_append(&b, p, (size_t)(hit - p));
      buf_puts(&b, rep);
      p = hit + ol;
    }
    mem_free(ex->m, cur);
    cur = b.oom ? NULL : mem_strndup(ex->m, b.data ? b.data : "", b.len);
    buf_free(&b);
  }
  if (!cur)
    sh_oom(ex);
  return cur;
}

/* Run text as eval does: one level deeper, so a command that runs fc on
 * itself ends at the call-depth limit. */
static int fc_eval(sh_exec *ex, const char *text, size_t len) {
  if (!sh_depth_ok(ex))
    return 126;
  ex->source_depth++;
  int st = sh_reenter(ex)->eval_string(ex, text, len, "fc");
  ex->source_depth--;
  return st;
}

/* Put cmd in place of the fc command in the list, then run it. */
static int fc_run(sh_exec *ex, const char *cmd) {
  sh_hist *h = sh_hist_get(ex);
  if (!h)
    return 1;
  if (*cmd) {
    if (h->n)
      sh_hist_remove(ex, h->n - 1);
    sh_hist_add(ex, cmd, strlen(cmd));
  }
  char *copy = mem_strdup(ex->m, cmd);
  if (!copy)
    return sh_oom(ex), 1;
  int st = fc_eval(ex, copy, strlen(copy));
  mem_free(ex->m, copy);
  return st;
}

static int fc_usage(sh_exec *ex) {
  sh_usage(ex, "fc: usage: fc [-e ename] [-lnr] [first] [last] or fc -s "
               "[pat=rep] [command]");
  return 2;
}

/* fc's editing form: the entries go to a file, the editor runs on it,
 * and the file's commands run, echoed to standard error. */
static int fc_edit(sh_exec *ex, const char *ename, long beg, long end,
                   int reverse) {
  sh_hist *h = ex->hist;
  buf b;
  buf_init(&b, ex->m);
  for (long i = reverse ? end : beg; reverse ? i >= beg : i <= end;
       reverse ? i-- : i++) {
    buf_puts(&b, h->v[i]);
    buf_putc(&b, '\n');
  }
  char path[64];
  snprintf(path, sizeof path, "/tmp/bash-fc.%d", ++ex->run->next_pid);
  int e = b.oom ? -ENOMEM
                : vfs_write_file(ex->run->v, ex->cwd, path,
                                 b.data ? b.data : "", b.len, 0600);
  buf_free(&b);
  if (e) {
    sh_builtin_err(ex, "fc", "%s: %s", path, bi_strerror(-e));
    return 1;
  }
  if (!ename)
    ename = sh_getvar(ex, "FCEDIT");
  if (!ename || !*ename)
    ename = sh_getvar(ex, "EDITOR");
  if (!ename || !*ename)
    ename = "vi";
  buf cmd;
  buf_init(&cmd, ex->m);
  buf_printf(&cmd, "%s %s", ename, path);
  int st = cmd.oom ? sh_oom(ex) : fc_eval(ex, cmd.data, cmd.len);
  buf_free(&cmd);
  char *data = NULL;
  size_t len = 0;
  if (st == 0 && !ex->jump)
    e = vfs_read_file(ex->run->v, ex->cwd, path, &data, &len);
  vfs_unlink(ex->run->v, ex->cwd, path);
  if (st != 0 || ex->jump)
    return 1;
  if (e)
    return 1;
  char *text = mem_memdup(ex->m, data, len);
  vfs_release(ex->run->v, data);
  if (!text)
    return sh_oom(ex), 1;
  /* echoed as read, like set -v */
  stream *err = ex->fd[2];
  if (err)
    stream_write(err, text, len);
  /* the commands take the fc command's place in the list */
  if (h->n)
    sh_hist_remove(ex, h->n - 1);
  if (len)
    sh_hist_add(ex, text, len);
  st = fc_eval(ex, text, len);
  mem_free(ex->m, text);
  return st;
}

int sb_fc(sh_exec *ex, int argc, char **argv) {
  int listing = 0, numbering = 1, reverse = 0, execute = 0;
  const char *ename = NULL;
  int i = 1;
  while (i < argc) {
    const char *a = argv[i];
    if (a[0] != '-' || !a[1] || is_number(a, NULL))
      break;
    i++;
    if (strcmp(a, "--") == 0)
      break;
    for (const char *p = a + 1; *p; p++) {
      switch (*p) {
      case 'n':
        numbering = 0;
        break;
      case 'l':
        listing = 1;
        break;
      case 'r':
        reverse = 1;
        break;
      case 's':
        execute = 1;
        break;
      case 'e':
        if (p[1]) {
          ename = p + 1;
        } else if (i < argc) {
          ename = argv[i++];
        } else {
          sh_builtin_err(ex, "fc", "-e: option requires an argument");
          return fc_usage(ex);
        }
        p = " "; /* the rest of the word was the argument */
        break;
      default:
        sh_builtin_err(ex, "fc", "-%c: invalid option", *p);
        return fc_usage(ex);
      }
      if (*p == ' ')
        break;
    }
  }
  if (ename && strcmp(ename, "-") == 0)
    execute = 1;
  sh_hist *h = ex->hist;
  if (execute) {
    int np = 0;
    char **pairs = argv + i;
    while (i < argc && strchr(argv[i], '=')) {
      np++;
      i++;
    }
    long k = h && h->n ? fc_number(ex, i < argc ? argv[i] : NULL, 0, 0) : -1;
    if (k < 0) {
      sh_builtin_err(ex, "fc", "no command found");
      return 1;
    }
    char *cmd = fc_subst(ex, h->v[k], pairs, np);
    if (!cmd)
      return 1;
    stream *err = ex->fd[2];
    if (err) {
      stream_write(err, cmd, strlen(cmd));
      stream_write(err, "\n", 1);
    }
    int st = fc_run(ex, cmd);
    mem_free(ex->m, cmd);
    return st;
  }
  if (!h || !h->n)
    return 0;
  long last = fc_last(ex);
  long real_last = (long)h->n - 1;
  if (last < 0)
    last = 0;
  long beg, end;
  if (i < argc) {
    beg = fc_number(ex, argv[i++], listing, 1);
    if (i < argc)
      end = fc_number(ex, argv[i++], listing, 0);
    else if (beg == real_last)
      end = listing ? real_last : beg;
    else
      end = listing ? last : beg;
  } else if (listing) {
    end = last;
    beg = end - 15;
    if (beg < 0)
      beg = 0;
  } else {
    beg = end = last;
  }
  if (beg == FC_INVALID || end == FC_INVALID) {
    sh_builtin_err(ex, "fc", "history specification out of range");
    return 1;
  }
  if (beg < 0)
    beg = 0;
  if (end < 0)
    end = 0;
  if (!listing && (ex->opts & O_HISTORY) && h->last_added) {
    /* the fc command itself is not kept */
    sh_hist_remove(ex, h->n - 1);
    h->last_added = 0;
    last = (long)h->n - 1;
    if (last < 0) {
      sh_builtin_err(ex, "fc", "history specification out of range");
      return 1;
    }
    if (end > last)
      end = last;
    if (beg > last)
      beg = last;
  }
  if (end < beg) {
    long t = end;
    end = beg;
    beg = t;
    reverse = 1;
  }
  if (!listing)
    return fc_edit(ex, ename, beg, end, reverse);
  buf b;
  buf_init(&b, ex->m);
  for (long k = reverse ? end : beg; reverse ? k >= beg : k <= end;
       reverse ? k-- : k++) {
    if (numbering)
      buf_printf(&b, "%ld", h->base + k);
    buf_printf(&b, "\t %s\n", h->v[k]);
  }
  int r = b.oom ? sh_oom(ex) : b.len ? sh_out(ex, b.data, b.len) : 0;
  buf_free(&b);
  return r ? 1 : 0;
}
