/*
 * main.c - the `vsh` command: run a script (from -c, a host file or stdin)
 * or an interactive prompt inside a sandbox. Uses only the public API.
 */
#include <errno.h>
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

/* The script as run: with -e, `set -e;` goes in front of the user's text,
 * on its first line so that line numbers in messages stay right. */
static char *build_script(const cli_opts *o, const char *text, size_t tlen,
                          size_t *out_len) {
  const char *pre = o->errexit ? "set -e;" : "";
  size_t plen = strlen(pre);
  char *buf = malloc(plen + tlen + 1);
  if (!buf)
    return NULL;
  memcpy(buf, pre, plen);
  memcpy(buf + plen, text, tlen);
  buf[plen + tlen] = 0;
  *out_len = plen + tlen;
  return buf;
}

static int run_script(vsh_sandbox *sb, const cli_opts *o, const char *text,
                      size_t tlen, const char *stdin_data, size_t stdin_len,
                      vsh_cancel *cancel) {
  size_t slen;
  char *script = build_script(o, text, tlen, &slen);
  if (!script) {
    fputs("vsh: out of memory\n", stderr);
    return 1;
  }
  vsh_exec_opts eo = {0};
  eo.env = o->nenv ? o->env : NULL;
  eo.args = (const char *const *)o->args;
  eo.nargs = o->nargs;
  eo.argv0 = o->has_c ? o->name0 : o->file;
  eo.stdin_data = stdin_data;
  eo.stdin_len = stdin_len;
  eo.cancel = cancel;
  if (!o->json) {
    eo.on_output = cli_on_output;
    eo.flags = VSH_EXEC_NO_CAPTURE;
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

  /* The script text, unless this is an interactive session. */
  char *text = NULL, *input = NULL;
  size_t tlen = 0, ilen = 0;
  int interactive = 0;
  if (o.has_c) {
    text = strdup(o.script);
    tlen = strlen(o.script);
  } else if (o.file && strcmp(o.file, "-") != 0) {
    FILE *f = fopen(o.file, "rb");
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
      fclose(f);
      fprintf(stderr, "vsh: %s: Is a directory\n", o.file);
      cli_opts_free(&o);
      return 126;
    }
    if (!f || !(text = slurp(f, &tlen))) {
      fprintf(stderr, "vsh: %s: %s\n", o.file, strerror(errno));
      if (f)
        fclose(f);
      cli_opts_free(&o);
      return 127;
    }
    fclose(f);
  } else if (o.file || !isatty(0)) {
    if (!(text = slurp(stdin, &tlen))) {
      fprintf(stderr, "vsh: cannot read the script from stdin: %s\n",
              strerror(errno));
      cli_opts_free(&o);
      return 1;
    }
  } else {
    interactive = 1;
  }
  if (!interactive && !text) {
    fputs("vsh: out of memory\n", stderr);
    cli_opts_free(&o);
    return 1;
  }
  /* A script given by -c or FILE reads the host's stdin, when there is one
   * that is not a terminal. The API takes stdin as one buffer, so it is read
   * whole before the script starts. */
  if (!interactive && (o.has_c || (o.file && strcmp(o.file, "-") != 0)) &&
      !isatty(0)) {
    input = slurp(stdin, &ilen);
    if (!input)
      ilen = 0;
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
  vsh_status st = vsh_open(&cfg, &sb);
  if (st != VSH_OK || !sb) {
    /* vsh_open has no handle to keep a message on when it fails. */
    fprintf(stderr, "vsh: cannot create the sandbox: %s%s\n",
            vsh_status_str(st),
            o.want_net && st == VSH_UNSUPPORTED
                ? " (this libvsh was built without the network layer)"
                : "");
    free(text);
    free(input);
    cli_opts_free(&o);
    return 1;
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
  else
    status = run_script(sb, &o, text, tlen, input, ilen, cancel);

  g_cancel = NULL;
  vsh_cancel_free(cancel);
  vsh_close(sb);
  free(text);
  free(input);
  cli_opts_free(&o);
  return status;
}
