/*
 * mktemp.c - GNU mktemp: create a file (0600) or directory (0700) with a
 * unique name in the VFS. The trailing X's of the template are filled from
 * the sandbox random hook (c->random), so runs are reproducible when the
 * host seeds it. Creation is exclusive (O_EXCL, mkdir) and retried on a
 * clash.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_mktemp[] = "Usage: mktemp [OPTION]... [TEMPLATE]";
const char bi_help_mktemp[] =
    "Make a new, uniquely named temporary file or directory without racing "
    "any\n"
    "other process, and print its name.\n"
    "The last component of TEMPLATE needs a run of at least 3 'X's; they are\n"
    "replaced with random characters. Without TEMPLATE, tmp.XXXXXXXXXX is "
    "used\n"
    "and --tmpdir is assumed. A new file gets mode 0600 and a new directory\n"
    "0700, both reduced by the umask.\n"
    "\n"
    "  -d, --directory     make a directory instead of a file\n"
    "  -u, --dry-run       only print a name that was free; create nothing (a\n"
    "                        race-prone use)\n"
    "  -q, --quiet         say nothing when the file or directory cannot be\n"
    "                        created\n"
    "      --suffix=SUFF   add SUFF after the X's of TEMPLATE; SUFF may not\n"
    "                        contain '/'. A TEMPLATE whose end is not an X "
    "gets\n"
    "                        its suffix this way without the option\n"
    "  -p DIR, --tmpdir[=DIR]  put TEMPLATE under DIR; with no DIR given, "
    "under\n"
    "                        $TMPDIR when set, otherwise /tmp. TEMPLATE must\n"
    "                        then be a relative name; it may contain slashes\n"
    "                        (unlike with -t), but only its last component is\n"
    "                        created\n"
    "  -t                  TEMPLATE is one name component, placed in $TMPDIR\n"
    "                        when set, else in the -p directory, else in /tmp\n"
    "                        (an older form)\n"
    "      --help          print this summary and quit\n"
    "      --version       print the version line and quit\n";

int bi_mktemp(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"directory", 'd', BI_ARG_NONE},  {"dry-run", 'u', BI_ARG_NONE},
      {"quiet", 'q', BI_ARG_NONE},      {"suffix", 0x100, BI_ARG_REQUIRED},
      {"tmpdir", 'p', BI_ARG_OPTIONAL}, BI_OPTS_END};
  int dir = 0, dry = 0, quiet = 0, use_tmpdir = 0, t_opt = 0, ch;
  const char *pdir = NULL, *suffix = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "dp:qtu", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'd':
      dir = 1;
      break;
    case 'u':
      dry = 1;
      break;
    case 'q':
      quiet = 1;
      break;
    case 't':
      t_opt = 1;
      use_tmpdir = 1;
      break;
    case 'p':
      use_tmpdir = 1;
      pdir = g.arg;
      break;
    case 0x100:
      suffix = g.arg;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (g.noperands > 1) {
    bi_error(c, "too many templates");
    bi_try_help(c);
    return 1;
  }
  const char *tmpl = g.noperands ? g.operands[0] : "tmp.XXXXXXXXXX";
  if (!g.noperands)
    use_tmpdir = 1;
  if (suffix && strchr(suffix, '/')) {
    bi_error(c, "invalid suffix %s, contains directory separator",
             tu_quote(c, suffix));
    return 1;
  }
  /* A template not ending in X: what follows the last X run is the
   * suffix. */
  size_t tl = strlen(tmpl);
  size_t xe = tl;
  if (!suffix) {
    const char *lastx = strrchr(tmpl, 'X');
    if (lastx) {
      xe = (size_t)(lastx - tmpl) + 1;
      suffix = tmpl + xe;
      if (strchr(suffix, '/')) {
        bi_error(c, "invalid suffix %s, contains directory separator",
                 tu_quote(c, suffix));
        return 1;
      }
    } else {
      suffix = "";
      xe = tl;
    }
  } else if (tl && tmpl[tl - 1] != 'X') {
    bi_error(c, "with --suffix, template %s must end in X", tu_quote(c, tmpl));
    return 1;
  }
  size_t nx = 0;
  while (nx < xe && tmpl[xe - 1 - nx] == 'X')
    nx++;
  if (nx < 3) {
    bi_error(c, "too few X's in template %s", tu_quote(c, tmpl));
    return 1;
  }
  const char *base = "";
  if (use_tmpdir) {
    const char *env = c->getenv ? c->getenv(c, "TMPDIR") : NULL;
    if (t_opt && env && *env)
      base = env;
    else if (pdir && *pdir)
      base = pdir;
    else if (env && *env)
      base = env;
    else
      base = "/tmp";
    if (t_opt && strchr(tmpl, '/')) {
      bi_error(c, "invalid template, %s, contains directory separator",
               tu_quote(c, tmpl));
      return 1;
    }
    if (!t_opt && tmpl[0] == '/') {
      bi_error(c,
               "invalid template, %s; with --tmpdir, it may not be "
               "absolute",
               tu_quote(c, tmpl));
      return 1;
    }
  }
  buf path;
  buf_init(&path, c->m);
  static const char letters[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  int status = 1, err = EEXIST;
  for (int attempt = 0; attempt < 100 && err == EEXIST; attempt++) {
    buf_clear(&path);
    if (*base) {
      buf_puts(&path, base);
      if (base[strlen(base) - 1] != '/')
        buf_putc(&path, '/');
    }
    size_t start = path.len;
    buf_append(&path, tmpl, xe);
    buf_puts(&path, suffix);
    if (path.oom) {
      err = ENOMEM;
      break;
    }
    unsigned char rnd[64];
    for (size_t i = 0; i < nx; i++) {
      if (i % sizeof rnd == 0)
        c->random(c, rnd, sizeof rnd);
      path.data[start + xe - nx + i] = letters[rnd[i % sizeof rnd] % 62];
    }
    const char *p = buf_cstr(&path);
    if (dry) {
      err = c->vfs && vfs_exists(c->vfs, c->cwd, p) ? EEXIST : 0;
      if (!err)
        status = 0;
      continue;
    }
    int rc;
    if (dir) {
      rc = vfs_mkdir(c->vfs, c->cwd, p, 0700);
    } else {
      vfs_file *f;
      rc = vfs_open(c->vfs, c->cwd, p, O_WRONLY | O_CREAT | O_EXCL, 0600, &f);
      if (!rc)
        vfs_close(f);
    }
    err = -rc;
    if (!rc)
      status = 0;
  }
  if (status) {
    if (!quiet) {
      /* GNU names the template, with the X's still in it. */
      buf t;
      buf_init(&t, c->m);
      if (*base) {
        buf_puts(&t, base);
        if (base[strlen(base) - 1] != '/')
          buf_putc(&t, '/');
      }
      buf_puts(&t, tmpl);
      if (tl == xe)
        buf_puts(&t, suffix);
      bi_error(c, "failed to create %s via template %s: %s",
               dir ? "directory" : "file", tu_quote(c, buf_cstr(&t)),
               bi_strerror(err));
      buf_free(&t);
    }
  } else if (stream_printf(c->out, "%s\n", buf_cstr(&path))) {
    status = bi_stream_status(c->out->err);
  }
  buf_free(&path);
  return status;
}
