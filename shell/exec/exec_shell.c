/*
 * exec_shell.c - `bash` and `sh` run as commands inside the sandbox: the
 * command line (long options first, then option letters, then -c STRING,
 * a script file or standard input), the startup files, and the loop of an
 * interactive shell.
 *
 * Standard input is never a terminal here, so a shell is interactive only
 * when -i says so. It then reads its startup files from the sandbox's
 * files (/etc/bash.bashrc and ~/.bashrc, or --rcfile), keeps a history
 * list that it loads from and saves to $HISTFILE, runs PROMPT_COMMAND and
 * writes its prompts to standard error, and reads its input one line at a
 * time, so that a command in it that reads standard input gets the lines
 * after its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/builtins/builtins.h"
#include "shell/exec/exec.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/state/hist.h"
#include "shell/syntax/parse.h"

/* What `bash --version` says: vsh's shell, with the bash version it
 * follows (scripts read the number; the name is not GNU's to claim). */
#define VERSION_LINE                                                           \
  "vsh bash-compatible shell, version 5.2.15(1)-release "                      \
  "(x86_64-pc-linux-gnu)\n"

typedef struct sh_cmdline {
  int interactive, login, norc, noprofile, from_stdin, has_c;
  const char *rcfile;
} sh_cmdline;

static const char *const long_opts[] = {"debug",
                                        "debugger",
                                        "dump-po-strings",
                                        "dump-strings",
                                        "help",
                                        "init-file",
                                        "login",
                                        "noediting",
                                        "noprofile",
                                        "norc",
                                        "posix",
                                        "pretty-print",
                                        "protected",
                                        "rcfile",
                                        "restricted",
                                        "verbose",
                                        "version",
                                        "wordexp",
                                        NULL};

static void usage(sh_exec *ex, int to_err) {
  static const char text[] =
      "Usage:\tbash [long option] [option] ...\n"
      "\tbash [long option] [option] script-file ...\n"
      "Long options (only before the letters):\n"
      "\t--help --version --login --noprofile --norc --rcfile FILE\n"
      "\t--init-file FILE --posix --verbose --noediting --restricted\n"
      "Option letters:\n"
      "\t-i interactive  -l login  -s read commands from standard input\n"
      "\t-c STRING run STRING  -o NAME / -O NAME set an option, and the\n"
      "\tletters of `set' (-e -u -x -v ...); `bash -c \"help set\"' lists "
      "them.\n";
  if (to_err) {
    stream *e = ex->fd[2];
    if (e)
      stream_puts(e, text);
  } else {
    sh_outs(ex, VERSION_LINE);
    sh_outs(ex, text);
  }
}

static int bad_option(sh_exec *ex, const char *what) {
  sh_err_noline(ex, "%s: invalid option", what);
  usage(ex, 1);
  return 2;
}

/* ---- startup files -------------------------------------------------- */

/* Source path when it exists (bash ignores missing startup files). 1 when
 * the shell must stop (exit in the file, or a limit). */
static int startup_file(sh_exec *c, const char *path) {
  vfs_stat_t st;
  if (!path || !*path || vfs_stat(c->run->v, c->cwd, path, &st))
    return 0;
  sh_source_file(c, path, 0, NULL);
  return c->jump == J_EXIT || c->jump == J_ABORT || sh_stopped(c);
}

static const char *home_file(sh_exec *c, const char *name) {
  const char *home = sh_getvar(c, "HOME");
  if (!home)
    return NULL;
  size_t hl = strlen(home), nl = strlen(name);
  char *p = arena_alloc(c->ar, hl + nl + 2);
  if (!p)
    return NULL;
  memcpy(p, home, hl);
  p[hl] = '/';
  memcpy(p + hl + 1, name, nl + 1);
  return p;
}

static int run_startup(sh_exec *c, const sh_cmdline *cl) {
  if (cl->login && !cl->noprofile) {
    if (startup_file(c, "/etc/profile"))
      return 1;
    static const char *const per_user[] = {".bash_profile", ".bash_login",
                                           ".profile"};
    for (int i = 0; i < 3; i++) {
      const char *p = home_file(c, per_user[i]);
      vfs_stat_t st;
      if (p && vfs_stat(c->run->v, c->cwd, p, &st) == 0)
        return startup_file(c, p);
    }
  }
  if (cl->interactive && !cl->login && !cl->norc) {
    if (startup_file(c, "/etc/bash.bashrc"))
      return 1;
    return startup_file(c, cl->rcfile ? cl->rcfile : home_file(c, ".bashrc"));
  }
  if (!cl->interactive) {
    const char *env = sh_getvar(c, "BASH_ENV");
    if (env && *env)
      return startup_file(c, env);
  }
  return 0;
}

/* ---- the interactive loop ------------------------------------------- */

static void put_err(sh_exec *c, const char *s, size_t n) {
  stream *e = c->fd[2];
  if (e && n)
    stream_write(e, s, n);
}

static void prompt(sh_exec *c, const char *var) {
  const char *ps = sh_getvar(c, var);
  sh_hist *h = sh_hist_get(c);
  if (!ps || !*ps || !h)
    return;
  arena_mark mk = arena_save(c->ar);
  size_t n;
  h->prompting = 1;
  char *s = sh_prompt_expand(c, ps, strlen(ps), &n);
  h->prompting = 0;
  if (s)
    put_err(c, s, n);
  arena_release(c->ar, mk);
}

/* PROMPT_COMMAND (each element of an array) before each primary prompt;
 * $? is what the last command left. */
static void prompt_command(sh_exec *c) {
  sh_var *v = sh_var_find(c, "PROMPT_COMMAND");
  if (!v || !(v->flags & V_SET))
    return;
  int st = c->status;
  if (v->arr && (v->flags & V_ARRAY)) {
    int64_t max = sh_arr_max_index(v->arr);
    for (int64_t i = 0; i <= max && !c->jump; i++) {
      sh_aent *e = sh_arr_iget(v->arr, i);
      if (e && e->val) {
        char *t = mem_strdup(c->m, e->val);
        if (t)
          sh_eval_string(c, t, strlen(t), "PROMPT_COMMAND");
        mem_free(c->m, t);
        c->status = st;
      }
    }
  } else if (v->val && *v->val) {
    char *t = mem_strdup(c->m, v->val);
    if (t)
      sh_eval_string(c, t, strlen(t), "PROMPT_COMMAND");
    mem_free(c->m, t);
  }
  if (c->jump != J_EXIT && c->jump != J_ABORT)
    c->jump = J_NONE;
  c->status = st;
}

/* One line from standard input into b (with its newline). 0 at the end
 * of input with nothing read. Byte by byte, so what follows stays for the
 * commands to read. */
static int read_line(sh_exec *c, buf *b) {
  stream *s = c->fd[0];
  size_t start = b->len;
  for (;;) {
    char ch;
    long k = s ? stream_read(s, &ch, 1) : 0;
    if (k <= 0)
      break;
    buf_putc(b, ch);
    if (ch == '\n')
      break;
  }
  return b->len > start;
}

static const char *alias_of(void *ud, const char *name) {
  sh_exec *c = ud;
  return (c->shopts & SO_EXPAND_ALIASES) ? sh_alias_get(c, name) : NULL;
}

static int extglob_on(void *ud) {
  sh_exec *c = ud;
  return (c->shopts & SO_EXTGLOB) != 0;
}

/* Whether text is complete: 0 when it ends inside a construct and needs
 * another line. A syntax error counts as complete (it is reported when the
 * text runs). */
static int complete(sh_exec *c, const char *text, size_t len) {
  arena a;
  arena_init(&a, c->m);
  sh_parse_opts po = {0};
  po.alias = alias_of;
  po.alias_ud = c;
  po.extglob = extglob_on;
  po.interactive = 1;
  sh_parser *p = sh_parser_new(&a, text, len, &po);
  int done = 1;
  if (p) {
    sh_node *n;
    int r;
    while ((r = sh_parse_next(p, &n)) > 0)
      ;
    if (r < 0 && sh_parse_incomplete(p))
      done = 0;
  }
  arena_destroy(&a);
  return done;
}

/* The history entry for a command read as several lines: bash joins them
 * with "; " or, after a word that wants more (do, then, |, &&, ...), a
 * space; lines inside quotes or a $( ) keep their newline. */
static void join_lines(buf *out, const char *text, size_t len) {
  size_t i = 0;
  int first = 1, quote = 0;
  while (i < len) {
    const char *nl = memchr(text + i, '\n', len - i);
    size_t e = nl ? (size_t)(nl - text) : len;
    size_t s = i;
    i = nl ? e + 1 : len;
    if (!first) {
      size_t k = out->len;
      while (k && (out->data[k - 1] == ' ' || out->data[k - 1] == '\t'))
        k--;
      const char *d = out->data;
      int soft = quote || k == 0 || d[k - 1] == '|' || d[k - 1] == '&' ||
                 d[k - 1] == ';' || d[k - 1] == '(' || d[k - 1] == '{' ||
                 (k >= 2 && memcmp(d + k - 2, "do", 2) == 0) ||
                 (k >= 4 && (memcmp(d + k - 4, "then", 4) == 0 ||
                             memcmp(d + k - 4, "else", 4) == 0));
      if (quote)
        buf_putc(out, '\n');
      else
        buf_puts(out, soft ? " " : "; ");
    }
    if (s == e && !first && !quote)
      continue;
    buf_append(out, text + s, e - s);
    for (size_t k = s; k < e; k++) {
      char ch = text[k];
      if (ch == '\\' && quote != '\'' && k + 1 < e)
        k++;
      else if ((ch == '\'' || ch == '"') && (!quote || quote == ch))
        quote = quote ? 0 : ch;
      else if (!quote && ch == '$' && k + 1 < e && text[k + 1] == '(')
        quote = ')';
      else if (quote == ')' && ch == ')')
        quote = 0;
    }
    first = 0;
  }
}

static void record(sh_exec *c, const char *text, size_t len) {
  if (!(c->opts & O_HISTORY))
    return;
  buf b;
  buf_init(&b, c->m);
  join_lines(&b, text, len);
  if (b.oom)
    sh_oom(c);
  else if (b.len)
    sh_hist_record(c, b.data, b.len);
  buf_free(&b);
}

/* History expansion of a line an interactive shell read: the expanded
 * line is shown on standard error and replaces text. 1 changed, 0 not,
 * -1 failed (reported; the line is dropped), 2 for :p (shown and
 * recorded, not run). */
static int bang(sh_exec *c, buf *text) {
  if (!memchr(text->data, '!', text->len) && text->data[0] != '^')
    return 0;
  buf out;
  buf_init(&out, c->m);
  int print_only = 0;
  int r = sh_hist_expand(c, text->data, text->len, &out, &print_only, 0);
  if (r > 0) {
    put_err(c, out.data, out.len);
    if (out.len && out.data[out.len - 1] != '\n')
      put_err(c, "\n", 1);
    buf_free(text);
    *text = out;
    if (print_only) {
      record(c, text->data, text->len);
      return 2;
    }
    return 1;
  }
  buf_free(&out);
  return r;
}

/* What an interactive bash does with its history file when it ends: the
 * entries of this session are appended, or the whole list written when
 * more were added than it holds (and histappend is off); then the file is
 * cut to HISTFILESIZE. */
static void save_history(sh_exec *c, int histappend) {
  sh_hist *h = c->hist;
  if (!h || h->session <= 0 || !(c->opts & O_HISTORY))
    return;
  const char *f = sh_getvar(c, "HISTFILE");
  if (!f || !*f)
    return;
  vfs_stat_t st;
  if (vfs_stat(c->run->v, c->cwd, f, &st) == -ENOENT)
    vfs_write_file(c->run->v, c->cwd, f, "", 0, 0600);
  if ((size_t)h->session <= h->n || histappend)
    sh_hist_write_file(c, f, h->session, 1);
  else
    sh_hist_write_file(c, f, -1, 0);
  h->session = 0;
  const char *fs = sh_getvar(c, "HISTFILESIZE");
  int64_t max;
  if (fs && *fs && !sh_parse_int(fs, &max) && max >= 0)
    sh_hist_truncate_file(c, f, (long)max);
}

static void set_default(sh_exec *c, const char *name, const char *val) {
  if (!sh_var_find_raw(c, name, NULL))
    sh_setvar(c, name, val, strlen(val), 0);
}

/* Read and run commands from standard input until it ends or the shell
 * exits, one complete command at a time, as bash reads a pipe: a command
 * that reads standard input gets the lines after its own. Interactive:
 * prompts, PROMPT_COMMAND and history, and errors do not end the shell.
 * A construct longer than 64 lines is checked for its end at doubling
 * counts of lines, so that a long one costs no more than linear time. */
static int read_loop(sh_exec *c, int interactive) {
  buf text;
  buf_init(&text, c->m);
  int line = 1;
  for (;;) {
    if (sh_stopped(c)) {
      c->jump = J_ABORT;
      break;
    }
    if (interactive) {
      if (c->hist)
        ((sh_hist *)c->hist)->last_added = 0; /* \! is the next number */
      prompt_command(c);
      if (c->jump)
        break;
      prompt(c, "PS1");
    }
    text.len = 0;
    int got = 0, nlines = 0, next_check = 64;
    for (;;) {
      size_t before = text.len;
      if (!read_line(c, &text))
        break;
      got = 1;
      nlines++;
      if (interactive)
        put_err(c, text.data + before, text.len - before);
      if (text.data[text.len - 1] != '\n')
        break;
      if (nlines <= 64 || nlines == next_check) {
        if (nlines == next_check)
          next_check *= 2;
        if (complete(c, text.data, text.len))
          break;
      }
      if (interactive)
        prompt(c, "PS2");
    }
    if (text.oom) {
      sh_oom(c);
      break;
    }
    if (!got) {
      if (interactive)
        put_err(c, "exit\n", 5);
      break;
    }
    if (interactive && (c->opts & O_HISTEXPAND)) {
      int r = bang(c, &text);
      if (r < 0 && sh_stopped(c))
        break;
      if (r < 0 || r == 2) {
        line += nlines;
        continue; /* failed, or :p printed it: nothing runs */
      }
    }
    if (interactive)
      record(c, text.data, text.len);
    char *copy = mem_memdup(c->m, text.data, text.len);
    if (!copy) {
      sh_oom(c);
      break;
    }
    if (interactive) {
      sh_hist *h = sh_hist_get(c);
      if (h)
        h->ncmd++;
      c->lineno = line;
      sh_eval_string(c, copy, text.len, "bash");
    } else {
      sh_run_script(c, copy, text.len, line);
    }
    mem_free(c->m, copy);
    line += nlines;
    if (c->jump == J_EXIT || c->jump == J_ABORT)
      break;
    c->jump = J_NONE;
  }
  buf_free(&text);
  return c->status;
}

/* ---- the command line ----------------------------------------------- */

static void set_args(sh_exec *c, int argc, char **argv) {
  sh_args_unref(c->m, c->args);
  c->args = sh_args_new(c->m, argc, argv);
}

/* Long options: only at the start, before any option letter. */
static int long_options(sh_exec *ex, int argc, char **argv, int *ip,
                        sh_cmdline *cl) {
  int i = *ip;
  for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-' && argv[i][2];
       i++) {
    const char *name = argv[i] + 2;
    int k = 0;
    while (long_opts[k] && strcmp(long_opts[k], name) != 0)
      k++;
    if (!long_opts[k])
      return bad_option(ex, argv[i]);
    if (strcmp(name, "help") == 0) {
      usage(ex, 0);
      return -1;
    }
    if (strcmp(name, "version") == 0) {
      sh_outs(ex, VERSION_LINE);
      return -1;
    }
    if (strcmp(name, "rcfile") == 0 || strcmp(name, "init-file") == 0) {
      if (i + 1 >= argc) {
        sh_err_noline(ex, "%s: option requires an argument", argv[i]);
        usage(ex, 1);
        return 2;
      }
      cl->rcfile = argv[++i];
    } else if (strcmp(name, "norc") == 0) {
      cl->norc = 1;
    } else if (strcmp(name, "noprofile") == 0) {
      cl->noprofile = 1;
    } else if (strcmp(name, "login") == 0) {
      cl->login = 1;
    }
  }
  *ip = i;
  return 0;
}

/* The option letters of the command line, applied to the child c. */
static int letters(sh_exec *ex, sh_exec *c, int argc, char **argv, int *ip,
                   sh_cmdline *cl) {
  int i = *ip;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' && a[0] != '+')
      break;
    if (a[0] == '-' && (!a[1] || (a[1] == '-' && !a[2]))) {
      i++; /* "-" and "--" end the options */
      break;
    }
    int on = a[0] == '-';
    for (const char *p = a + 1; *p; p++) {
      if (*p == 'c') {
        cl->has_c = 1;
      } else if (*p == 's') {
        cl->from_stdin = 1;
      } else if (*p == 'i') {
        cl->interactive = on;
      } else if (*p == 'l') {
        cl->login = on;
      } else if (*p == 'r' || *p == 'D') {
        /* restricted shell, translatable strings: nothing to do */
      } else if (*p == 'o' || *p == 'O') {
        if (i + 1 < argc) {
          if (*p == 'o') {
            sh_set_option_name(c, argv[++i], on);
          } else {
            char *sa[] = {"shopt", on ? "-s" : "-u", argv[++i], NULL};
            sh_dispatch(c, 3, sa, 1);
          }
        }
      } else if (sh_option_letter(c, *p, on)) {
        char what[3] = {a[0], *p, 0};
        return bad_option(ex, what);
      }
    }
  }
  *ip = i;
  return 0;
}

/* An interactive shell's state: $- has i, history on, aliases expand,
 * the prompts and history variables have their defaults. */
static void make_interactive(sh_exec *c, int full) {
  c->opts |= O_INTERACTIVE | O_HISTORY | O_HISTEXPAND | O_EMACS;
  c->shopts |= SO_EXPAND_ALIASES;
  set_default(c, "PS1", "\\s-\\v\\$ ");
  set_default(c, "PS2", "> ");
  const char *hf = home_file(c, ".bash_history");
  if (hf)
    set_default(c, "HISTFILE", hf);
  if (full) {
    set_default(c, "HISTSIZE", "500");
    set_default(c, "HISTFILESIZE", "500");
  }
}

/* bash [long options] [-abefhikmnprstuvxBCEHPT] [-o opt] [-O shopt]
 * (-c STRING [NAME [ARG...]] | FILE [ARG...] | [-s] [ARG...]) */
int sh_run_child_shell(sh_exec *ex, int argc, char **argv) {
  sh_cmdline cl = {0};
  int i = 1;
  int r = long_options(ex, argc, argv, &i, &cl);
  if (r)
    return r < 0 ? 0 : r;
  sh_exec *c = sh_child_shell_new(ex);
  if (!c)
    return ex->jump == J_ABORT ? 126 : sh_oom(ex);
  r = letters(ex, c, argc, argv, &i, &cl);
  if (r) {
    sh_free(c);
    return r;
  }
  sh_sync_optvars(c);
  /* bash gives SHELL the user's login shell when the environment has none */
  set_default(c, "SHELL", "/bin/bash");
  int st = 0;
  const char *text = NULL;
  if (cl.has_c) {
    if (i >= argc) {
      sh_err_noline(ex, "-c: option requires an argument");
      sh_free(c);
      return 2;
    }
    text = argv[i++];
    /* $0 is the NAME after the script, else the shell's own argv[0]
     * (`sh -c 'echo $0'` says sh) */
    mem_free(c->m, c->arg0);
    c->arg0 = mem_strdup(c->m, i < argc ? argv[i++] : argv[0]);
    set_args(c, argc - i, argv + i);
  } else if (i < argc && !cl.from_stdin) {
    c->opts |= O_SRC_FILE;
  } else {
    c->opts |= O_SRC_STDIN;
  }
  if (cl.interactive) {
    make_interactive(c, !cl.has_c && !(c->opts & O_SRC_FILE));
    sh_sync_optvars(c);
    if (!cl.has_c) {
      stream *e = c->fd[2];
      if (e)
        stream_printf(e,
                      "%s: cannot set terminal process group (%d): "
                      "Inappropriate ioctl for device\n"
                      "%s: no job control in this shell\n",
                      "bash", c->pid, "bash");
    }
  }
  if (run_startup(c, &cl))
    return sh_child_shell_finish(ex, c, c->status);
  if (text) {
    size_t tl = strlen(text);
    char *copy = mem_memdup(c->m, text, tl);
    st = copy ? sh_run_script(c, copy, tl, 1) : 1;
    mem_free(c->m, copy);
    return sh_child_shell_finish(ex, c, st);
  }
  if (c->opts & O_SRC_FILE) {
    const char *path = argv[i];
    char *data;
    size_t len;
    int e = sh_read_text(ex, path, &data, &len);
    if (e) {
      if (!ex->run->bud.stop)
        sh_err_noline(ex, "%s: %s", path, bi_strerror(-e));
      /* bash -e ends with 1 here instead of 127 */
      int st = (c->opts & O_ERREXIT) ? 1 : 127;
      sh_free(c);
      return st;
    }
    if (sh_binary_text(data, len)) {
      mem_free(ex->m, data);
      sh_err_noline(ex, "%s: %s: cannot execute binary file", path, path);
      sh_free(c);
      return 126;
    }
    sh_child_script_names(c, path, argc - i - 1, argv + i + 1);
    st = sh_run_script(c, data, len, 1);
    mem_free(ex->m, data);
    return sh_child_shell_finish(ex, c, st);
  }
  set_args(c, argc - i, argv + i);
  if (cl.interactive) {
    const char *hf = sh_getvar(c, "HISTFILE");
    sh_hist *h = sh_hist_get(c);
    if (h && hf && *hf && h->session == 0) {
      long nread;
      if (sh_hist_read_file(c, hf, 0, &nread) == 0)
        h->lines_in_file = nread;
    }
    st = read_loop(c, 1);
    if (c->jump == J_EXIT)
      st = c->exit_status;
    if (c->jump != J_ABORT) {
      c->status = st;
      c->jump = J_NONE;
      sh_run_exit_trap(c);
      if (c->jump == J_EXIT)
        st = c->exit_status;
      c->jump = J_NONE;
      if (!sh_stopped(c))
        save_history(c, (c->opts & O_HISTAPPEND) != 0);
    }
    return sh_child_shell_finish(ex, c, st);
  }
  /* Script from standard input. */
  st = read_loop(c, 0);
  return sh_child_shell_finish(ex, c, st);
}
