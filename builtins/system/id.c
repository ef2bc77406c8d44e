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
    "Show the user and group IDs of each USER named, or of the current "
    "process\n"
    "when there is none.\n"
    "\n"
    "  -a             accepted and ignored\n"
    "  -Z, --context  show only the security context (needs SELinux, so it\n"
    "                   fails here)\n"
    "  -g, --group    the effective group ID alone\n"
    "  -G, --groups   the IDs of all the groups\n"
    "  -n, --name     with -u, -g or -G, show names rather than numbers\n"
    "  -r, --real     with -u, -g or -G, show the real ID, not the effective "
    "one\n"
    "  -u, --user     the effective user ID alone\n"
    "  -z, --zero     separate the results with NUL bytes, not blanks; only\n"
    "                   with -u, -g or -G\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n"
    "\n"
    "With no option, id prints the user, the group and the group list.\n";

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
  static const bi_opt opts[] = {
      {"context", 'Z', BI_ARG_NONE}, {"group", 'g', BI_ARG_NONE},
      {"groups", 'G', BI_ARG_NONE},  {"name", 'n', BI_ARG_NONE},
      {"real", 'r', BI_ARG_NONE},    {"user", 'u', BI_ARG_NONE},
      {"zero", 'z', BI_ARG_NONE},    BI_OPTS_END};
  int ch, u = 0, gr = 0, G = 0, name = 0, real = 0, zero = 0, ctx = 0;
  bi_getopt g;
  bi_getopt_init(&g, c, "aZgGnruz", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
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
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
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
