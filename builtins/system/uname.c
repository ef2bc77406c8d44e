/*
 * uname.c - GNU uname for the sandbox's fixed identity: Linux on host
 * "localhost", release "6.1.0-vsh". The machine is the architecture vsh was
 * built for, so scripts choosing a download for the host still pick the
 * right one. -p and -i print "unknown" and -a leaves them out, as GNU does
 * on Linux where they are unknown.
 */
#include "builtins/textutil.h"

const char bi_usage_uname[] = "Usage: uname [OPTION]...";
const char bi_help_uname[] =
    "Describe the system this runs on. Without an OPTION, only the kernel "
    "name\n"
    "is printed (as with -s).\n"
    "\n"
    "  -a, --all                every item below, in this order, with -p and\n"
    "                             -i left out when they are unknown\n"
    "  -s, --kernel-name        name of the kernel\n"
    "  -n, --nodename           the host name on the network\n"
    "  -r, --kernel-release     release of the kernel\n"
    "  -v, --kernel-version     build version of the kernel\n"
    "  -m, --machine            hardware architecture, such as x86_64\n"
    "  -p, --processor          processor type; not portable\n"
    "  -i, --hardware-platform  hardware platform; not portable\n"
    "  -o, --operating-system   name of the operating system\n"
    "      --help               print this summary and quit\n"
    "      --version            print the version line and quit\n";

#if defined(__x86_64__)
#define VSH_MACHINE "x86_64"
#elif defined(__aarch64__)
#define VSH_MACHINE "aarch64"
#elif defined(__i386__)
#define VSH_MACHINE "i686"
#elif defined(__riscv) && __riscv_xlen == 64
#define VSH_MACHINE "riscv64"
#elif defined(__arm__)
#define VSH_MACHINE "armv7l"
#else
#define VSH_MACHINE "x86_64"
#endif

enum {
  U_S = 1,
  U_N = 2,
  U_R = 4,
  U_V = 8,
  U_M = 16,
  U_P = 32,
  U_I = 64,
  U_O = 128
};

int bi_uname(bi_ctx *c) {
  static const bi_opt opts[] = {{"all", 'a', BI_ARG_NONE},
                                {"kernel-name", 's', BI_ARG_NONE},
                                {"sysname", 's', BI_ARG_NONE},
                                {"nodename", 'n', BI_ARG_NONE},
                                {"kernel-release", 'r', BI_ARG_NONE},
                                {"release", 'r', BI_ARG_NONE},
                                {"kernel-version", 'v', BI_ARG_NONE},
                                {"machine", 'm', BI_ARG_NONE},
                                {"processor", 'p', BI_ARG_NONE},
                                {"hardware-platform", 'i', BI_ARG_NONE},
                                {"operating-system", 'o', BI_ARG_NONE},
                                BI_OPTS_END};
  unsigned f = 0;
  int ch, all = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "asnrvmpio", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'a':
      all = 1;
      break;
    case 's':
      f |= U_S;
      break;
    case 'n':
      f |= U_N;
      break;
    case 'r':
      f |= U_R;
      break;
    case 'v':
      f |= U_V;
      break;
    case 'm':
      f |= U_M;
      break;
    case 'p':
      f |= U_P;
      break;
    case 'i':
      f |= U_I;
      break;
    case 'o':
      f |= U_O;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands)
    return tu_extra_operand(c, g.operands[0]);
  if (all)
    f |= U_S | U_N | U_R | U_V | U_M | U_O;
  if (!f)
    f = U_S;
  static const struct {
    unsigned bit;
    const char *s;
  } parts[] = {{U_S, "Linux"},     {U_N, "localhost"},
               {U_R, "6.1.0-vsh"}, {U_V, "#1 SMP PREEMPT_DYNAMIC vsh"},
               {U_M, VSH_MACHINE}, {U_P, "unknown"},
               {U_I, "unknown"},   {U_O, "GNU/Linux"}};
  writer w;
  wr_init(&w, c->out);
  int first = 1;
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    if (!(f & parts[i].bit))
      continue;
    /* -a omits the unknown -p and -i unless asked for explicitly. */
    if (!first)
      wr_putc(&w, ' ');
    wr_puts(&w, parts[i].s);
    first = 0;
  }
  wr_putc(&w, '\n');
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return 0;
}
