/*
 * nproc.c - GNU nproc. The sandbox runs a script on one processor: nproc
 * and nproc --all say 1, unless OMP_NUM_THREADS asks for more (and
 * OMP_THREAD_LIMIT caps it), as GNU honors them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_nproc[] = "Usage: nproc [OPTION]...";
const char bi_help_nproc[] =
    "Print how many processing units this process may use (the sandbox has\n"
    "one, unless OMP_NUM_THREADS and OMP_THREAD_LIMIT say otherwise).\n"
    "\n"
    "      --all       the number of installed processors\n"
    "      --ignore=N  leave N units out, if more than N are available\n"
    "      --help      print this summary and quit\n"
    "      --version   print the version line and quit\n";

/* The leading positive number of an OMP variable, or 0. */
static unsigned long omp_value(bi_ctx *c, const char *name) {
  const char *v = c->getenv ? c->getenv(c, name) : NULL;
  if (!v)
    return 0;
  while (*v == ' ' || *v == '\t')
    v++;
  if (!(*v >= '0' && *v <= '9'))
    return 0;
  char *e;
  errno = 0;
  unsigned long n = strtoul(v, &e, 10);
  if (errno)
    return 0;
  while (*e == ' ' || *e == '\t')
    e++;
  if (*e && *e != ',')
    return 0;
  return n;
}

int bi_nproc(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"all", 'a', BI_ARG_NONE}, {"ignore", 'i', BI_ARG_REQUIRED}, BI_OPTS_END};
  int all = 0, ch;
  unsigned long ignore = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    if (ch == 'a') {
      all = 1;
    } else if (ch == 'i') {
      char *e;
      errno = 0;
      unsigned long long v = strtoull(g.arg, &e, 10);
      if (!*g.arg || *e || errno || *g.arg == '-') {
        bi_error(c, "invalid number: %s", tu_quote(c, g.arg));
        return 1;
      }
      ignore = (unsigned long)v;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands)
    return tu_extra_operand(c, g.operands[0]);
  unsigned long n = 1;
  if (!all) {
    unsigned long want = omp_value(c, "OMP_NUM_THREADS");
    unsigned long limit = omp_value(c, "OMP_THREAD_LIMIT");
    if (want)
      n = want;
    if (limit && n > limit)
      n = limit;
  }
  n = n > ignore ? n - ignore : 1;
  if (stream_printf(c->out, "%lu\n", n))
    return bi_stream_status(c->out->err);
  return 0;
}
