/* tee.c - GNU tee: copy stdin to stdout and to every FILE. */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_tee[] = "Usage: tee [OPTION]... [FILE]...";
const char bi_help_tee[] =
    "Copy standard input to each FILE, and also to standard output.\n"
    "\n"
    "  -a, --append              append to the given FILEs, do not "
    "overwrite\n"
    "  -i, --ignore-interrupts   ignore interrupt signals\n"
    "  -p                        operate in a more appropriate MODE with "
    "pipes.\n"
    "      --output-error[=MODE]   set behavior on write error.  See MODE "
    "below\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n"
    "\n"
    "MODE determines behavior with write errors on the outputs:\n"
    "  warn           diagnose errors writing to any output\n"
    "  warn-nopipe    diagnose errors writing to any output not a pipe\n"
    "  exit           exit on error writing to any output\n"
    "  exit-nopipe    exit on error writing to any output not a pipe\n"
    "The default MODE for the -p option is 'warn-nopipe'.\n"
    "With \"nopipe\" MODEs, exit immediately if all outputs become broken "
    "pipes.\n"
    "The default operation when --output-error is not specified, is to\n"
    "exit immediately on error writing to a pipe, and diagnose errors\n"
    "writing to non pipe outputs.\n";

enum { M_DEFAULT, M_WARN, M_WARN_NOPIPE, M_EXIT, M_EXIT_NOPIPE };

int bi_tee(bi_ctx *c) {
  static const bi_opt opts[] = {{"append", 'a', BI_ARG_NONE},
                                {"ignore-interrupts", 'i', BI_ARG_NONE},
                                {"output-error", 'E', BI_ARG_OPTIONAL},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int append = 0, mode = M_DEFAULT, ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "aip", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
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
        bi_error(c, "%s argument '%s' for '--output-error'",
                 nhit ? "ambiguous" : "invalid", g.arg);
        stream_puts(c->err, "Valid arguments are:\n  - 'warn'\n  - "
                            "'warn-nopipe'\n  - 'exit'\n  - "
                            "'exit-nopipe'\n");
        stream_printf(c->err, "Try '%s --help' for more information.\n",
                      c->argv[0]);
        return 1;
      }
      mode = M_WARN + hit;
      break;
    }
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 1;
    }
  }
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
