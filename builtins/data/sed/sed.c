/*
 * sed.c - the sed command: GNU sed 4.9 options and operands.
 *
 * The script pieces (-e, -f, or the first operand) are parsed once into a
 * program (parse.c) that exec.c runs over the input files. Exit statuses as
 * GNU: 1 for a bad script or usage, 2 when an input file cannot be read,
 * 4 for an I/O error, and whatever q/Q ask for.
 */
#include <errno.h>
#include <string.h>

#include "builtins/data/sed/sed.h"
#include "builtins/textutil.h"

const char bi_usage_sed[] =
    "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...";

const char bi_help_sed[] =
    "\n"
    "  -n, --quiet, --silent\n"
    "                 do not print the pattern space at the end of each cycle\n"
    "                 (only explicit p, P and similar commands print)\n"
    "      --debug\n"
    "                 not supported here: refused with an error\n"
    "  -e script, --expression=script\n"
    "                 append script to the program\n"
    "  -f script-file, --file=script-file\n"
    "                 append the text of script-file to the program\n"
    "  --follow-symlinks\n"
    "                 accepted for compatibility (no effect)\n"
    "  -i[SUFFIX], --in-place[=SUFFIX]\n"
    "                 rewrite each input file with the result instead of\n"
    "                 printing it; with SUFFIX, keep the old file under its "
    "name\n"
    "                 plus SUFFIX\n"
    "  -l N, --line-length=N\n"
    "                 wrap the output of the `l' command at N characters\n"
    "  --posix\n"
    "                 use POSIX behaviour where it differs from GNU's (here: "
    "N\n"
    "                 on the last line)\n"
    "  -E, -r, --regexp-extended\n"
    "                 read the script's regular expressions as extended (ERE)\n"
    "                 rather than basic; -E is the portable spelling\n"
    "  -s, --separate\n"
    "                 handle each input file on its own (line numbers and $\n"
    "                 restart) instead of as one continuous stream\n"
    "      --sandbox\n"
    "                 accepted for compatibility (no effect)\n"
    "  -u, --unbuffered\n"
    "                 read as little input as possible and flush output after\n"
    "                 every line\n"
    "  -z, --null-data\n"
    "                 input and output lines end with a NUL byte, not a "
    "newline\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n"
    "\n"
    "The program comes from the -e and -f options; when there are none, the\n"
    "first operand is the program. The operands left over name the input "
    "files,\n"
    "and standard input is read when there are none.\n";

enum { O_POSIX = 0x20000, O_DEBUG, O_SANDBOX, O_FOLLOW };

static const bi_opt sed_opts[] = {{"quiet", 'n', BI_ARG_NONE},
                                  {"silent", 'n', BI_ARG_NONE},
                                  {"expression", 'e', BI_ARG_REQUIRED},
                                  {"file", 'f', BI_ARG_REQUIRED},
                                  {"in-place", 'i', BI_ARG_OPTIONAL},
                                  {"line-length", 'l', BI_ARG_REQUIRED},
                                  {"regexp-extended", 'E', BI_ARG_NONE},
                                  {"separate", 's', BI_ARG_NONE},
                                  {"unbuffered", 'u', BI_ARG_NONE},
                                  {"null-data", 'z', BI_ARG_NONE},
                                  {"zero-terminated", 'z', BI_ARG_NONE},
                                  {"posix", O_POSIX, BI_ARG_NONE},
                                  {"debug", O_DEBUG, BI_ARG_NONE},
                                  {"sandbox", O_SANDBOX, BI_ARG_NONE},
                                  {"follow-symlinks", O_FOLLOW, BI_ARG_NONE},
                                  BI_OPTS_END};

/* GNU sed answers a usage error with the whole usage text on stderr. */
static int usage_error(bi_ctx *c) {
  stream_puts(c->err, bi_usage_sed);
  stream_puts(c->err, "\n");
  stream_puts(c->err, bi_help_sed);
  return 1;
}

int bi_sed(bi_ctx *c) {
  sd_src *src = mem_calloc(c->m, (size_t)c->argc + 1, sizeof *src);
  buf *files = mem_calloc(c->m, (size_t)c->argc + 1, sizeof *files);
  size_t nsrc = 0, nfiles = 0;
  int rc = 0, inplace = 0, ere = 0, quiet = 0, separate = 0, zero = 0;
  int unbuffered = 0, posix = 0;
  int64_t lwidth = 70;
  const char *suffix = NULL;
  sd_prog prog;
  int have_prog = 0;
  if (!src || !files) {
    rc = 4;
    bi_error(c, "memory exhausted");
    goto out;
  }

  /* bi_getopt's messages end with "Try 'sed --help'"; GNU sed prints its
   * usage instead: keep only the first line. */
  buf gerr;
  buf_init(&gerr, c->m);
  bi_ctx gc = *c;
  gc.err = stream_capture(c->m, NULL, &gerr, NULL, NULL, 2, 0);
  if (!gc.err)
    gc.err = c->err;
  bi_getopt g;
  bi_getopt_init(&g, &gc, "nre:f:i::l:Esuz", sed_opts);
  int o, bad = 0;
  while (!bad && (o = bi_getopt_next(&g)) != -1) {
    switch (o) {
    case 'n':
      quiet = 1;
      break;
    case 'e':
      src[nsrc].text = g.arg;
      src[nsrc].len = strlen(g.arg);
      nsrc++;
      break;
    case 'f': {
      int err = 0;
      stream *s = bi_open_read(c, g.arg, &err);
      if (!s) {
        bi_error(c, "couldn't open file %s: %s", g.arg, bi_strerror(err));
        bad = 5;
        break;
      }
      const char *data;
      size_t len;
      buf *copy = &files[nfiles++];
      buf_init(copy, c->m);
      if (tu_slurp(c, s, &data, &len, copy, &err) < 0) {
        stream_unref(s);
        bi_error(c, "couldn't read %s: %s", g.arg, bi_strerror(err));
        bad = 2;
        break;
      }
      /* the view of a VFS file dies with its stream: keep a copy */
      if (data != copy->data) {
        buf_clear(copy);
        buf_append(copy, data, len);
      }
      stream_unref(s);
      len = copy->len;
      if (len && copy->data[len - 1] == '\n')
        len--; /* the file's last newline ends its last command */
      src[nsrc].text = copy->data ? copy->data : "";
      src[nsrc].len = len;
      src[nsrc].file = g.arg;
      nsrc++;
      break;
    }
    case 'i':
      inplace = 1;
      suffix = g.arg;
      break;
    case 'l': {
      uint64_t v;
      if (tu_parse_count(g.arg, &v) < 0 || v > 0x7fffffff) {
        bi_error(c, "invalid line length: %s", g.arg);
        bad = 2;
        break;
      }
      lwidth = (int64_t)v;
      break;
    }
    case 'E':
    case 'r':
      ere = 1;
      break;
    case 's':
      separate = 1;
      break;
    case 'u':
      unbuffered = 1;
      break;
    case 'z':
      zero = 1;
      break;
    case O_POSIX:
      posix = 1;
      break;
    case O_SANDBOX:
    case O_FOLLOW:
      break;
    case O_DEBUG:
      bi_error(c, "--debug is not supported by vsh's sed");
      bad = 2;
      break;
    case BI_OPT_HELP:
      bad = 3;
      break;
    case BI_OPT_VERSION:
      bad = 4;
      break;
    default: { /* '?' */
      const char *m = buf_cstr(&gerr);
      const char *nl = strchr(m, '\n');
      stream_write(c->err, m, nl ? (size_t)(nl - m) + 1 : strlen(m));
      bad = 1;
      break;
    }
    }
  }
  if (gc.err != c->err)
    stream_unref(gc.err);
  buf_free(&gerr);
  if (bad == 1) {
    rc = usage_error(c);
    goto out;
  }
  if (bad == 2 || bad == 5) {
    rc = bad == 5 ? 4 : 1;
    goto out;
  }
  if (bad == 3) {
    rc = bi_print_help(c);
    goto out;
  }
  if (bad == 4) {
    stream_puts(c->out, "sed (GNU sed compatible; vsh) 4.9\n");
    rc = 0;
    goto out;
  }
  int first = 0;
  if (nsrc == 0) {
    if (g.noperands == 0) {
      rc = usage_error(c);
      goto out;
    }
    src[0].text = g.operands[0];
    src[0].len = strlen(g.operands[0]);
    nsrc = 1;
    first = 1;
  }
  if (sd_prog_init(&prog, c) < 0) {
    bi_error(c, "memory exhausted");
    rc = 4;
    goto out;
  }
  have_prog = 1;
  prog.ere = ere;
  prog.quiet = quiet;
  prog.separate = separate;
  prog.zero = zero;
  prog.unbuffered = unbuffered;
  prog.posix = posix;
  prog.lwidth = lwidth;
  prog.utf8 = tu_utf8_locale(c);
  int prc = sd_parse(&prog, src, nsrc);
  if (prc < 0) {
    rc = prc == -2 ? 4 : 1;
    goto out;
  }
  if (prog.quiet_from_script)
    prog.quiet = 1;
  if (inplace && g.noperands - first == 0) {
    bi_error(c, "no input files");
    rc = 1; /* GNU: 4 for -i without files is a usage error, status 1 */
    goto out;
  }
  rc = sd_run(&prog, g.operands + first, g.noperands - first, inplace, suffix);
out:
  if (have_prog)
    sd_free(&prog);
  for (size_t k = 0; files && k < nfiles; k++)
    buf_free(&files[k]);
  mem_free(c->m, files);
  mem_free(c->m, src);
  return rc;
}
