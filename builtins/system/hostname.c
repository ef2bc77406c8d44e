/*
 * hostname.c - net-tools hostname, reduced to what a sandbox has: the name
 * is always "localhost" (no DNS, no NIS). Setting it is refused the way the
 * real tool refuses a non-root user, since scripts run as uid 1000.
 */
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_hostname[] =
    "Usage: hostname [-b] {hostname|-F file}         set the name (from file)";
const char bi_help_hostname[] =
    "       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       print one form of the "
    "name\n"
    "       hostname                                 print the host name\n"
    "\n"
    "       hostname -V|--version|-h|--help          print the version or "
    "this\n"
    "                                                summary, then quit\n"
    "\n"
    "Options:\n"
    "    -a, --alias            the host's alias names\n"
    "    -A, --all-fqdns        every fully qualified name of the host\n"
    "    -b, --boot             set a name only when none is set yet\n"
    "    -d, --domain           the DNS domain part of the name\n"
    "    -f, --fqdn, --long     the fully qualified name (FQDN)\n"
    "    -F, --file             take the host name (or NIS domain) from a "
    "file\n"
    "    -i, --ip-address       the addresses the host name resolves to\n"
    "    -I, --all-ip-addresses every address the host has\n"
    "    -s, --short            the name up to its first dot\n"
    "    -y, --yp, --nis        the NIS/YP domain name\n"
    "\n"
    "In this sandbox the host name is always localhost, and changing it is\n"
    "refused.\n";

int bi_hostname(bi_ctx *c) {
  static const bi_opt opts[] = {{"alias", 'a', BI_ARG_NONE},
                                {"all-fqdns", 'A', BI_ARG_NONE},
                                {"boot", 'b', BI_ARG_NONE},
                                {"domain", 'd', BI_ARG_NONE},
                                {"fqdn", 'f', BI_ARG_NONE},
                                {"long", 'f', BI_ARG_NONE},
                                {"file", 'F', BI_ARG_REQUIRED},
                                {"ip-address", 'i', BI_ARG_NONE},
                                {"all-ip-addresses", 'I', BI_ARG_NONE},
                                {"short", 's', BI_ARG_NONE},
                                {"yp", 'y', BI_ARG_NONE},
                                {"nis", 'y', BI_ARG_NONE},
                                {"help", 'h', BI_ARG_NONE},
                                {"version", 'V', BI_ARG_NONE},
                                {NULL, 0, 0}};
  int ch, what = 0, set = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "aAbdfF:iIsyhV", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'h':
      return bi_print_help(c);
    case 'V':
      stream_puts(c->out, "hostname 3.23 (vsh)\n");
      return 0;
    case 'F':
    case 'b':
      set = 1;
      break;
    case '?':
      /* net-tools prints its usage on a bad option and exits 255... but
       * after GNU getopt's message; keep the short form. */
      return 255;
    default:
      what = ch;
    }
  }
  if (set || g.noperands) {
    bi_error(c, "you must be root to change the host name");
    return 1;
  }
  const char *s = "localhost";
  switch (what) {
  case 'a':
  case 'd':
  case 'y':
    s = what == 'y' ? "(none)" : "";
    break;
  case 'A':
  case 'f':
  case 's':
    s = "localhost";
    break;
  case 'i':
  case 'I':
    s = "127.0.0.1";
    break;
  }
  if (stream_printf(c->out, "%s\n", s))
    return bi_stream_status(c->out->err);
  return 0;
}
