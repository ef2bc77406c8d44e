/*
 * getconf.c - getconf as glibc 2.36 has it, for the sandbox's fixed
 * system: the common limits and settings (the values of Debian 12 on
 * x86-64, with one processor and the sandbox's 1024 open files). The names
 * glibc ties to a file system (PATH_MAX, NAME_MAX, PIPE_BUF, ...) need a
 * PATHNAME, as there. -a lists every name known here.
 */
#include <string.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_getconf[] =
    "Usage: getconf [-v specification] variable_name [pathname]\n"
    "       getconf -a [pathname]";
const char bi_help_getconf[] =
    "Print the value of a system setting: a limit such as ARG_MAX or\n"
    "PAGESIZE, or, with a PATHNAME, a limit of the file system holding it\n"
    "(PATH_MAX, NAME_MAX, ...). -a prints every setting known, one NAME and\n"
    "value a line.\n";

typedef struct gc_var {
  const char *name;
  const char *value;
  int path; /* needs a pathname */
} gc_var;

static const gc_var gc_vars[] = {
    {"LINK_MAX", "65000", 1},
    {"_POSIX_LINK_MAX", "65000", 1},
    {"MAX_CANON", "255", 1},
    {"_POSIX_MAX_CANON", "255", 1},
    {"MAX_INPUT", "255", 1},
    {"_POSIX_MAX_INPUT", "255", 1},
    {"NAME_MAX", "255", 1},
    {"_POSIX_NAME_MAX", "255", 1},
    {"PATH_MAX", "4096", 1},
    {"_POSIX_PATH_MAX", "4096", 1},
    {"PIPE_BUF", "4096", 1},
    {"_POSIX_PIPE_BUF", "4096", 1},
    {"SYMLINK_MAX", "", 1},
    {"FILESIZEBITS", "64", 1},
    {"ARG_MAX", "2097152", 0},
    {"CHILD_MAX", "1000", 0},
    {"CLK_TCK", "100", 0},
    {"NGROUPS_MAX", "65536", 0},
    {"OPEN_MAX", "1024", 0},
    {"_POSIX_VERSION", "200809", 0},
    {"POSIX2_VERSION", "200809", 0},
    {"_XOPEN_VERSION", "700", 0},
    {"LINE_MAX", "2048", 0},
    {"HOST_NAME_MAX", "64", 0},
    {"LOGIN_NAME_MAX", "256", 0},
    {"PAGESIZE", "4096", 0},
    {"PAGE_SIZE", "4096", 0},
    {"_NPROCESSORS_CONF", "1", 0},
    {"_NPROCESSORS_ONLN", "1", 0},
    {"CHAR_BIT", "8", 0},
    {"CHAR_MAX", "127", 0},
    {"CHAR_MIN", "-128", 0},
    {"INT_MAX", "2147483647", 0},
    {"INT_MIN", "-2147483648", 0},
    {"LONG_BIT", "64", 0},
    {"WORD_BIT", "32", 0},
    {"SCHAR_MAX", "127", 0},
    {"SCHAR_MIN", "-128", 0},
    {"SHRT_MAX", "32767", 0},
    {"SHRT_MIN", "-32768", 0},
    {"SSIZE_MAX", "32767", 0},
    {"UCHAR_MAX", "255", 0},
    {"UINT_MAX", "4294967295", 0},
    {"ULONG_MAX", "18446744073709551615", 0},
    {"USHRT_MAX", "65535", 0},
    {"PATH", "/bin:/usr/bin", 0},
    {"GNU_LIBC_VERSION", "glibc 2.36", 0},
    {"GNU_LIBPTHREAD_VERSION", "NPTL 2.36", 0},
};
enum { GC_NVARS = sizeof gc_vars / sizeof gc_vars[0] };

static int gc_usage(bi_ctx *c) {
  stream_printf(c->err, "%s\n", bi_usage_getconf);
  return 2;
}

int bi_getconf(bi_ctx *c) {
  int i = 1;
  if (c->argc == 2 && !strcmp(c->argv[1], "--help"))
    return bi_print_help(c);
  if (c->argc == 2 && !strcmp(c->argv[1], "--version"))
    return bi_print_version(c);
  if (i < c->argc && !strcmp(c->argv[i], "-v")) {
    if (i + 1 >= c->argc)
      return gc_usage(c);
    i += 2;
  }
  if (i < c->argc && !strcmp(c->argv[i], "-a")) {
    if (c->argc - i > 2)
      return gc_usage(c);
    writer w;
    wr_init(&w, c->out);
    for (int k = 0; k < GC_NVARS; k++)
      wr_printf(&w, "%-35s%s\n", gc_vars[k].name, gc_vars[k].value);
    return wr_flush(&w) ? bi_stream_status(w.err) : 0;
  }
  int nops = c->argc - i;
  if (nops < 1 || nops > 2)
    return gc_usage(c);
  const char *name = c->argv[i];
  const gc_var *v = NULL;
  for (int k = 0; k < GC_NVARS; k++)
    if (!strcmp(gc_vars[k].name, name))
      v = &gc_vars[k];
  if (!v) {
    bi_error(c, "Unrecognized variable `%s'", name);
    return 2;
  }
  if (v->path != (nops == 2))
    return gc_usage(c);
  if (nops == 2) {
    vfs_stat_t st;
    int e = vfs_stat(c->vfs, c->cwd, c->argv[i + 1], &st);
    if (e < 0) {
      bi_error(c, "pathconf: %s: %s", c->argv[i + 1], bi_strerror(-e));
      return 3;
    }
    if (!*v->value) {
      if (stream_puts(c->out, "undefined\n"))
        return bi_stream_status(c->out->err);
      return 0;
    }
  }
  if (stream_printf(c->out, "%s\n", v->value))
    return bi_stream_status(c->out->err);
  return 0;
}
