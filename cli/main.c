/*
 * main.c - the `vsh` command: run a script (from -c, a host file or stdin)
 * or an interactive prompt inside a sandbox. Uses only the public API.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The cancel token an interrupt sets. A signal handler may only touch it:
 * the token is the one object the API lets another context poke while an
 * exec runs. */
static vsh_cancel *g_cancel;

static void on_sigint(int sig) {
  (void)sig;
  if (g_cancel)
    vsh_cancel_set(g_cancel);
}

void cli_on_output(void *ud, int fd, const void *data, size_t len) {
  (void)ud;
  FILE *f = fd == 2 ? stderr : stdout;
  fwrite(data, 1, len, f);
  fflush(f); /* streaming: the host sees each chunk as it is produced */
}

/* Whole content of a host stream; NULL on a read error. */
static char *slurp(FILE *f, size_t *len) {
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap + 1);
  if (!buf)
    return NULL;
  for (;;) {
    if (n == cap) {
      char *nb = realloc(buf, cap * 2 + 1);
      if (!nb) {
        free(buf);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) {
      if (ferror(f)) {
        free(buf);
        return NULL;
      }
      break;
    }
  }
  buf[n] = 0;
  *len = n;
  return buf;
}

long cli_read_stdin(void *ud, void *buf, size_t len) {
  (void)ud;
  /* Wait a little at a time, so that a deadline or an interrupt is seen
   * while nothing comes. */
  struct pollfd p = {0, POLLIN, 0};
  int r = poll(&p, 1, 50);
  if (r == 0 || (r < 0 && errno == EINTR))
    return VSH_INPUT_AGAIN;
  ssize_t n = read(0, buf, len);
  if (n < 0)
    return errno == EINTR || errno == EAGAIN ? VSH_INPUT_AGAIN : -1;
  return (long)n;
}

/* The script as run: the commands bash's options stand for go in front
 * of the user's text, on its first line, so that line numbers in messages
 * stay right. */
static char *build_script(const cli_opts *o, const char *text, size_t tlen,
                          size_t *out_len) {
  size_t plen = o->setup_len;
  char *buf = malloc(plen + tlen + 1);
  if (!buf)
    return NULL;
  if (plen)
    memcpy(buf, o->setup, plen);
  memcpy(buf + plen, text, tlen);
  buf[plen + tlen] = 0;
  *out_len = plen + tlen;
  return buf;
}

static int run_script(vsh_sandbox *sb, const cli_opts *o, const char *text,
                      size_t tlen, const char *const *args, size_t nargs,
                      const char *argv0, vsh_cancel *cancel) {
  size_t slen;
  char *script = build_script(o, text, tlen, &slen);
  if (!script) {
    fputs("vsh: out of memory\n", stderr);
    return 1;
  }
  vsh_exec_opts eo = {0};
  eo.env = o->nenv ? o->env : NULL;
  eo.args = args;
  eo.nargs = nargs;
  eo.argv0 = argv0;
  if (argv0 && o->file && argv0 == o->file)
    eo.flags |= VSH_EXEC_SCRIPT_FILE;
  eo.stdin_fn = cli_read_stdin;
  eo.cancel = cancel;
  if (!o->json) {
    eo.on_output = cli_on_output;
    eo.flags |= VSH_EXEC_NO_CAPTURE;
  }
  vsh_result res;
  memset(&res, 0, sizeof res);
  vsh_status st = vsh_exec_n(sb, script, slen, &eo, &res);
  free(script);
  int status = res.status;
  if (st == VSH_ABORT) {
    status = 130;
  } else if (st != VSH_OK) {
    fprintf(stderr, "vsh: %s\n", vsh_errmsg(sb));
    vsh_result_free(&res);
    return 1;
  }
  if (!o->json) {
    /* Streaming collected nothing; anything in the result did not go
     * through the callback. */
    if (res.out_len)
      cli_on_output(NULL, 1, res.out, res.out_len);
    if (res.err_len)
      cli_on_output(NULL, 2, res.err, res.err_len);
  } else {
    fputs("{\"stdout\":", stdout);
    cli_json_string(stdout, res.out ? res.out : "", res.out_len);
    fputs(",\"stderr\":", stdout);
    cli_json_string(stdout, res.err ? res.err : "", res.err_len);
    fprintf(stdout, ",\"exitCode\":%d}\n", status);
    fflush(stdout);
  }
  vsh_result_free(&res);
  return status;
}

/* A script on stdin is read and run command by command by the sandbox's
 * own bash, as bash does, so that `read` or `cat` in it take the lines
 * after the current command. bash's options go to it as given. */
static int run_stdin(vsh_sandbox *sb, const cli_opts *o, vsh_cancel *cancel) {
  size_t n = o->nbashargs + 2 + o->nargs;
  const char **args = calloc(n + 1, sizeof *args);
  if (!args) {
    fputs("vsh: out of memory\n", stderr);
    return 1;
  }
  size_t k = 0;
  for (size_t i = 0; i < o->nbashargs; i++)
    args[k++] = o->bashargs[i];
  args[k++] = "-s";
  if (o->nargs)
    args[k++] = "--";
  for (size_t i = 0; i < o->nargs; i++)
    args[k++] = o->args[i];
  cli_opts plain = *o;
  plain.setup = NULL;
  plain.setup_len = 0;
  static const char nested[] = "bash \"$@\"";
  int st =
      run_script(sb, &plain, nested, sizeof nested - 1, args, k, NULL, cancel);
  free(args);
  return st;
}

/* Whole content of a host file; NULL with errno set on failure. */
static char *read_host(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    errno = EISDIR;
    return NULL;
  }
  char *t = slurp(f, len);
  int e = errno;
  fclose(f);
  errno = e;
  return t;
}

/* Open the sandbox. A --cwd that does not exist is an error unless
 * --mkdir-cwd asks for it: the sandbox would make it silently. */
static int open_sandbox(const cli_opts *o, vsh_config *cfg, vsh_sandbox **out) {
  *out = NULL;
  const char *cwd = cfg->cwd;
  if (cwd && !o->mkdir_cwd && !o->root) {
    cfg->cwd = NULL;
    vsh_sandbox *probe = NULL;
    vsh_status st = vsh_open(cfg, &probe);
    cfg->cwd = cwd;
    if (st != VSH_OK)
      return -1;
    vsh_stat vs;
    const char *why = NULL;
    if (vsh_stat_path(probe, cwd, &vs) != VSH_OK)
      why = strerror(vsh_errcode(probe));
    else if (vs.type != VSH_TYPE_DIR)
      why = strerror(ENOTDIR);
    vsh_close(probe);
    if (why) {
      fprintf(stderr, "vsh: --cwd: %s: %s\n", cwd, why);
      return 2;
    }
  }
  vsh_status st = vsh_open(cfg, out);
  return st == VSH_OK && *out ? 0 : -(int)st - 1;
}

static void on_change(void *ud, vsh_change_kind kind, const char *path,
                      unsigned what) {
  (void)ud;
  (void)what;
  const char *k = kind == VSH_ADDED ? "A" : kind == VSH_REMOVED ? "D" : "M";
  fprintf(stderr, "%s %s\n", k, path);
}

static int write_host(void *ud, const void *data, size_t len) {
  return fwrite(data, 1, len, ud) == len ? 0 : -1;
}

/* --persist: the workspace (the cwd tree) as a tar in a host file. */
static int persist(vsh_sandbox *sb, const char *dir, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "vsh: --persist: %s: %s\n", path, strerror(errno));
    return 1;
  }
  vsh_status st = vsh_persist(sb, dir, NULL, write_host, f);
  int bad = fclose(f) != 0;
  if (st != VSH_OK || bad) {
    fprintf(stderr, "vsh: --persist: %s: %s\n", path,
            st != VSH_OK ? vsh_errmsg(sb) : strerror(errno));
    return 1;
  }
  return 0;
}

typedef struct host_stream {
  FILE *f;
  int err; /* errno of a failed read */
} host_stream;

static long read_stream(void *ud, void *buf, size_t len) {
  host_stream *h = ud;
  size_t k = fread(buf, 1, len, h->f);
  if (k == 0 && ferror(h->f)) {
    h->err = errno ? errno : EIO;
    return -1;
  }
  return (long)k;
}

/* --hydrate: a host tar unpacked into the workspace before the script,
 * read as a stream (the archive is never held whole). */
static int hydrate(vsh_sandbox *sb, const char *dir, const char *path) {
  host_stream h = {fopen(path, "rb"), 0};
  struct stat st;
  if (h.f && fstat(fileno(h.f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(h.f);
    h.f = NULL;
    errno = EISDIR;
  }
  if (!h.f) {
    fprintf(stderr, "vsh: --hydrate: %s: %s\n", path, strerror(errno));
    return 2;
  }
  errno = 0;
  vsh_status st2 = vsh_import_tar(sb, dir, read_stream, &h);
  fclose(h.f);
  if (st2 != VSH_OK) {
    fprintf(stderr, "vsh: --hydrate: %s: %s\n", path,
            h.err ? strerror(h.err) : vsh_errmsg(sb));
    return 2;
  }
  return 0;
}

/* --ast: the tree instead of a run; the script from -c, FILE or stdin. */
static int print_ast(const cli_opts *o, char *text, size_t tlen) {
  char *own = NULL;
  if (!text) {
    if (!(own = slurp(stdin, &tlen))) {
      fprintf(stderr, "vsh: cannot read the script from stdin: %s\n",
              strerror(errno));
      return 1;
    }
    text = own;
  }
  char *json = NULL;
  size_t n = 0;
  vsh_status st = vsh_script_ast(text, tlen, &json, &n);
  free(own);
  if (st == VSH_OK) {
    fwrite(json, 1, n, stdout);
  } else if (st == VSH_ERROR) {
    fprintf(stderr, "vsh: %s: %s\n",
            o->file    ? o->file
            : o->has_c ? "-c"
                       : "-",
            json);
  } else {
    fprintf(stderr, "vsh: %s\n", vsh_status_str(st));
  }
  vsh_free(NULL, json);
  return st == VSH_OK ? 0 : st == VSH_ERROR ? 2 : 1;
}

/* -O names that the shell does not know stop vsh before anything runs. */
static int check_shopts(vsh_sandbox *sb, const cli_opts *o) {
  for (size_t i = 0; i < o->nshopts; i++) {
    const char *args[] = {o->shopts[i], NULL};
    vsh_exec_opts eo = {0};
    eo.args = args;
    eo.nargs = 1;
    vsh_result r;
    if (vsh_exec(sb, "shopt -p -- \"$1\"", &eo, &r) != VSH_OK)
      return 1;
    int bad = r.err_len > 0;
    vsh_result_free(&r);
    if (bad) {
      fprintf(stderr, "vsh: %s: invalid shell option name\n", o->shopts[i]);
      return 2;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  cli_opts o;
  int rc = cli_parse(argc, argv, &o);
  if (rc) {
    cli_opts_free(&o);
    return rc;
  }
  if (o.help) {
    cli_usage(stdout);
    cli_opts_free(&o);
    return 0;
  }
  if (o.version) {
    printf("vsh %s (libvsh %s)\n", VSH_VERSION_STRING, vsh_version_string());
    cli_opts_free(&o);
    return 0;
  }
  /* Check host directories here, to name the option that is wrong. */
  for (size_t i = 0; i < o.nmounts; i++) {
    struct stat st;
    const char *h = o.mounts[i].host_dir;
    const char *opt = h == o.root ? "--root" : "--mount";
    const char *why = NULL;
    if (stat(h, &st) != 0)
      why = strerror(errno);
    else if (!S_ISDIR(st.st_mode))
      why = "Not a directory";
    if (why) {
      fprintf(stderr, "vsh: %s: %s: %s\n", opt, h, why);
      cli_opts_free(&o);
      return 2;
    }
  }

  /* The script text, unless it is read from stdin or typed. */
  char *text = NULL;
  size_t tlen = 0;
  int interactive = 0, from_stdin = 0;
  if (o.has_c) {
    text = strdup(o.script);
    tlen = strlen(o.script);
  } else if (o.file) {
    if (!(text = read_host(o.file, &tlen))) {
      int e = errno;
      fprintf(stderr, "vsh: %s: %s\n", o.file, strerror(e));
      cli_opts_free(&o);
      return e == EISDIR ? 126 : 127;
    }
  } else if (o.interactive || (!o.read_stdin && isatty(0))) {
    interactive = 1;
  } else {
    from_stdin = 1;
  }
  if ((o.has_c || o.file) && !text) {
    fputs("vsh: out of memory\n", stderr);
    cli_opts_free(&o);
    return 1;
  }
  if (o.ast) {
    rc = print_ast(&o, text, tlen);
    free(text);
    cli_opts_free(&o);
    return rc;
  }

  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.cwd = o.cwd;
  cfg.limits = o.limits;
  cfg.mounts = o.mounts;
  cfg.nmounts = o.nmounts;
  vsh_net_policy net;
  memset(&net, 0, sizeof net);
  if (o.want_net) {
    /* Passed through as given; a library built without the network layer
     * refuses it in vsh_open with a message of its own. */
    net.rules = o.rules;
    net.nrules = o.nrules;
    net.methods = o.methods;
    net.nmethods = o.nmethods;
    net.deny_private = o.deny_private;
    cfg.net = &net;
  }
  vsh_sandbox *sb = NULL;
  rc = open_sandbox(&o, &cfg, &sb);
  if (rc) {
    if (rc < 0) {
      /* vsh_open has no handle to keep a message on when it fails. */
      vsh_status st = (vsh_status)(-rc - 1);
      fprintf(stderr, "vsh: cannot create the sandbox: %s%s\n",
              vsh_status_str(st),
              o.want_net && st == VSH_UNSUPPORTED
                  ? " (this libvsh was built without the network layer)"
                  : "");
    }
    free(text);
    cli_opts_free(&o);
    return rc < 0 ? 1 : rc;
  }
  const char *workspace = o.cwd ? o.cwd : "/home/user";
  vsh_snapshot *start = NULL;
  if ((rc = check_shopts(sb, &o)) ||
      (o.hydrate && (rc = hydrate(sb, workspace, o.hydrate))) ||
      (o.changes && vsh_snapshot_take(sb, &start) != VSH_OK && (rc = 1))) {
    vsh_close(sb);
    free(text);
    cli_opts_free(&o);
    return rc;
  }

  vsh_cancel *cancel = vsh_cancel_new();
  g_cancel = cancel;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  /* No SA_RESTART: at the prompt, Ctrl-C must interrupt the line read. */
  sigaction(SIGINT, &sa, NULL);

  int status;
  if (interactive)
    status = cli_repl(sb, &o, cancel);
  else if (from_stdin)
    status = run_stdin(sb, &o, cancel);
  else
    status = run_script(sb, &o, text, tlen, (const char *const *)o.args,
                        o.nargs, o.has_c ? o.name0 : o.file, cancel);

  g_cancel = NULL;
  vsh_cancel_free(cancel);
  if (start) {
    vsh_diff(sb, start, NULL, on_change, NULL);
    vsh_snapshot_free(start);
  }
  if (o.persist && persist(sb, workspace, o.persist) && status == 0)
    status = 1;
  vsh_close(sb);
  free(text);
  cli_opts_free(&o);
  return status;
}
