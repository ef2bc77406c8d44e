/* tee.c - GNU tee: copy stdin to stdout and to every FILE. */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_tee[] = "Usage: tee [OPTION]... [FILE]...";
const char bi_help_tee[] =
    "Read standard input and write a copy of it to standard output and to "
    "every\n"
    "FILE.\n"
    "\n"
    "  -a, --append              add to the end of each FILE instead of\n"
    "                              replacing its contents\n"
    "  -i, --ignore-interrupts   keep running when an interrupt signal "
    "arrives\n"
    "  -p                        shorthand for --output-error=warn-nopipe, a\n"
    "                              setting suited to pipelines\n"
    "      --output-error[=MODE]   choose what a failed write does (MODE is\n"
    "                              described below)\n"
    "      --help                print this summary and quit\n"
    "      --version             print the version line and quit\n"
    "\n"
    "MODE values for failed writes:\n"
    "  warn           report the failure on any output and keep going\n"
    "  warn-nopipe    report the failure unless the output is a pipe\n"
    "  exit           stop at the first failure on any output\n"
    "  exit-nopipe    stop at the first failure, except on pipe outputs\n"
    "-p, and --output-error given without a MODE, mean 'warn-nopipe'.\n"
    "In the two \"nopipe\" modes, tee stops as soon as every output is a "
    "broken\n"
    "pipe. Without --output-error, a write to a broken pipe ends tee at once,\n"
    "and a failed write to anything else is reported.\n";

enum { M_DEFAULT, M_WARN, M_WARN_NOPIPE, M_EXIT, M_EXIT_NOPIPE };

int bi_tee(bi_ctx *c) {
  static const bi_opt opts[] = {{"append", 'a', BI_ARG_NONE},
                                {"ignore-interrupts", 'i', BI_ARG_NONE},
                                {"output-error", 'E', BI_ARG_OPTIONAL},
                                BI_OPTS_END};
  int append = 0, mode = M_DEFAULT, ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "aip", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'a':
      append = 1;
      break;
    case 'i':
      break;
    case 'p':
      mode = M_WARN_NOPIPE;
      break;
    case 'E': {
      static const char *const names[] = {"warn", "warn-nopipe", "exit",
                                          "exit-nopipe"};
      if (!g.arg) {
        mode = M_WARN_NOPIPE;
        break;
      }
      int hit = -1, nhit = 0;
      size_t al = strlen(g.arg);
      for (int i = 0; i < 4; i++) {
        if (strcmp(names[i], g.arg) == 0) {
          hit = i;
          nhit = 1;
          break;
        }
        if (strncmp(names[i], g.arg, al) == 0) {
          hit = i;
          nhit++;
        }
      }
      if (nhit != 1) {
        tu_bad_arg(c, nhit ? "ambiguous" : "invalid", "--output-error", g.arg,
                   "  - 'warn'\n  - 'warn-nopipe'\n  - 'exit'\n"
                   "  - 'exit-nopipe'\n");
        return 1;
      }
      mode = M_WARN + hit;
      break;
    }
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  int nout = g.noperands + 1;
  stream **outs = arena_calloc(c->scratch, sizeof(stream *) * (size_t)nout);
  const char **names = arena_calloc(c->scratch, sizeof(char *) * (size_t)nout);
  if (!outs || !names)
    return 1;
  int status = 0, live = 0;
  outs[0] = stream_ref(c->out);
  names[0] = "standard output";
  live++;
  for (int i = 0; i < g.noperands; i++) {
    int err = 0;
    outs[i + 1] = tu_open_write(c, g.operands[i], append, &err);
    names[i + 1] = g.operands[i];
    if (!outs[i + 1]) {
      tu_file_error(c, g.operands[i], err);
      status = 1;
    } else {
      live++;
    }
  }
  char *b = mem_alloc(c->m, 65536);
  int rc = -1; /* set when we must stop with that status */
  while (b && live > 0 && rc < 0) {
    long k = stream_read(c->in, b, 65536);
    if (k < 0) {
      if (c->in->err == ECANCELED) {
        rc = 1;
        break;
      }
      bi_error(c, "read error: %s", bi_strerror(c->in->err));
      status = 1;
      break;
    }
    if (k == 0)
      break;
    for (int i = 0; i < nout && rc < 0; i++) {
      if (!outs[i] || stream_write(outs[i], b, (size_t)k) == 0)
        continue;
      int err = outs[i]->err;
      if (err == ECANCELED) {
        rc = 1;
        break;
      }
      int pipe = err == EPIPE;
      if (pipe && mode == M_DEFAULT) {
        rc = 141;
        break;
      }
      if (!pipe || mode == M_WARN || mode == M_EXIT) {
        tu_file_error(c, names[i], err);
        status = 1;
        if (mode == M_EXIT || mode == M_EXIT_NOPIPE)
          rc = 1;
      }
      stream_unref(outs[i]);
      outs[i] = NULL;
      live--;
    }
  }
  mem_free(c->m, b);
  for (int i = 0; i < nout; i++)
    stream_unref(outs[i]);
  return rc >= 0 ? rc : status;
}
