/*
 * id.c - GNU id over the sandbox's single account: user "user", uid and gid
 * 1000 (c->uid/c->gid; any other id is shown by number only, with the name
 * "user" only for 1000 and "root" for 0, as /etc/passwd would map them).
 */
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_id[] = "Usage: id [OPTION]... [USER]...";
const char bi_help_id[] =
    "Print user and group information for each specified USER,\n"
    "or (when USER omitted) for the current process.\n"
    "\n"
    "  -a             ignore, for compatibility with other versions\n"
    "  -Z, --context  print only the security context of the process\n"
    "  -g, --group    print only the effective group ID\n"
    "  -G, --groups   print all group IDs\n"
    "  -n, --name     print a name instead of a number, for -ugG\n"
    "  -r, --real     print the real ID instead of the effective ID, with "
    "-ugG\n"
    "  -u, --user     print only the effective user ID\n"
    "  -z, --zero     delimit entries with NUL characters, not whitespace;\n"
    "                   not permitted in default format\n"
    "      --help        display this help and exit\n"
    "      --version     output version information and exit\n"
    "\n"
    "Without any OPTION, print some useful set of identified information.\n";

static const char *id_name(uint32_t id) {
  return id == 1000 ? "user" : id == 0 ? "root" : NULL;
}

/* A name when known, else the number (GNU: "cannot find name for ..." is
 * only a warning; we just print the number). */
static void put_id(writer *w, uint32_t id, int name) {
  const char *n = id_name(id);
  if (name && n)
    wr_puts(w, n);
  else
    wr_printf(w, "%u", (unsigned)id);
}

int bi_id(bi_ctx *c) {
  static const bi_opt opts[] = {{"context", 'Z', BI_ARG_NONE},
                                {"group", 'g', BI_ARG_NONE},
                                {"groups", 'G', BI_ARG_NONE},
                                {"name", 'n', BI_ARG_NONE},
                                {"real", 'r', BI_ARG_NONE},
                                {"user", 'u', BI_ARG_NONE},
                                {"zero", 'z', BI_ARG_NONE},
                                {"help", BI_OPT_HELP, BI_ARG_NONE},
                                {"version", BI_OPT_VERSION, BI_ARG_NONE},
                                {NULL, 0, 0}};
  int ch, u = 0, gr = 0, G = 0, name = 0, real = 0, zero = 0, ctx = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "aZgGnruz", opts);
  while ((ch = bi_getopt_next(&g)) != -1) {
    switch (ch) {
    case 'a':
      break;
    case 'Z':
      ctx = 1;
      break;
    case 'g':
      gr = 1;
      break;
    case 'G':
      G = 1;
      break;
    case 'n':
      name = 1;
      break;
    case 'r':
      real = 1;
      break;
    case 'u':
      u = 1;
      break;
    case 'z':
      zero = 1;
      break;
    case BI_OPT_HELP:
      return bi_print_help(c);
    case BI_OPT_VERSION:
      return tu_version(c);
    default:
      return 1;
    }
  }
  (void)real; /* real and effective ids are the same in the sandbox */
  if (u + gr + G + ctx > 1) {
    bi_error(c, "cannot print \"only\" of more than one choice");
    return 1;
  }
  if (ctx) {
    bi_error(c, "--context (-Z) works only on an SELinux-enabled kernel");
    return 1;
  }
  if (u + gr + G == 0 && (name || real)) {
    bi_error(c, "cannot print only names or real IDs in default format");
    return 1;
  }
  if (u + gr + G == 0 && zero) {
    bi_error(c, "option --zero not permitted in default format");
    return 1;
  }
  uint32_t uid = c->uid, gid = c->gid;
  static char *self[] = {NULL, NULL};
  char **users = g.noperands ? g.operands : self;
  int nusers = g.noperands ? g.noperands : 1, status = 0;
  writer w;
  wr_init(&w, c->out);
  for (int i = 0; i < nusers; i++) {
    if (users[i]) {
      /* Known accounts: "user"/1000 and "root"/0. */
      const char *s = users[i];
      char *end;
      unsigned long v = strtoul(s, &end, 10);
      if (!strcmp(s, "user") || (*s && !*end && v == 1000))
        uid = gid = 1000;
      else if (!strcmp(s, "root") || (*s && !*end && v == 0))
        uid = gid = 0;
      else {
        bi_error(c, "%s: no such user", tu_quote(c, s));
        status = 1;
        continue;
      }
    }
    if (u || gr || G) {
      put_id(&w, u ? uid : gid, name);
      wr_putc(&w, zero ? 0 : '\n');
      continue;
    }
    wr_puts(&w, "uid=");
    put_id(&w, uid, 0);
    if (id_name(uid))
      wr_printf(&w, "(%s)", id_name(uid));
    wr_puts(&w, " gid=");
    put_id(&w, gid, 0);
    if (id_name(gid))
      wr_printf(&w, "(%s)", id_name(gid));
    wr_puts(&w, " groups=");
    put_id(&w, gid, 0);
    if (id_name(gid))
      wr_printf(&w, "(%s)", id_name(gid));
    wr_putc(&w, '\n');
  }
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
