/*
 * truncate.c - GNU truncate (coreutils 9.1): set each FILE's size to -s
 * SIZE (or +, -, <, >, / and % relative to its size, or to the size of the
 * -r reference file), creating it unless -c. -o counts SIZE in I/O blocks
 * (4096 bytes in the sandbox). Growing a file fills it with zero bytes,
 * charged to the sandbox's quota like any other data.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_truncate[] = "Usage: truncate OPTION... FILE...";
const char bi_help_truncate[] =
    "Make each FILE the given size: a longer file loses its end, a shorter\n"
    "one is filled up with zero bytes. A FILE that does not exist is created\n"
    "empty first.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -c, --no-create        leave missing files missing\n"
    "  -o, --io-blocks        count SIZE in I/O blocks of the file, not bytes\n"
    "  -r, --reference=RFILE  start from the size of RFILE\n"
    "  -s, --size=SIZE        the size to set, or to change it by\n"
    "      --help             print this summary and quit\n"
    "      --version          print the version line and quit\n"
    "\n"
    "SIZE is a whole number with an optional unit: K 1024, KB 1000, M\n"
    "1024*1024, MB 1000*1000, and so on with G, T, P, E, Z, Y (KiB, MiB, ...\n"
    "name the binary ones too). A leading character makes it relative:\n"
    "  +  grow by SIZE            -  shrink by SIZE\n"
    "  <  shrink to at most SIZE  >  grow to at least SIZE\n"
    "  /  round down to a multiple of SIZE\n"
    "  %  round up to a multiple of SIZE\n";

enum { TR_SET, TR_ADD, TR_SUB, TR_MAX, TR_MIN, TR_DOWN, TR_UP };
enum { TR_BLOCK = 4096 };

/* SIZE without its operator: 0, -1 invalid, -2 too large. */
static int parse_size(const char *s, int64_t *out) {
  if (!(*s >= '0' && *s <= '9'))
    return -1;
  uint64_t v = 0;
  int over = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    if (v > (UINT64_MAX - 9) / 10)
      over = 1;
    v = v * 10 + (uint64_t)(*s - '0');
  }
  if (*s) {
    static const char units[] = "KMGTPEZY";
    const char *u = strchr(
        units, *s == 'k' || *s == 'm' || *s == 'g' ? *s - 'a' + 'A' : *s);
    if (!u || !*s)
      return -1;
    int power = (int)(u - units) + 1;
    unsigned base = 1024;
    if (!strcmp(s + 1, "B"))
      base = 1000;
    else if (s[1] && strcmp(s + 1, "iB"))
      return -1;
    for (int i = 0; i < power; i++) {
      if (v > UINT64_MAX / base)
        over = 1;
      v *= base;
    }
  }
  if (over || v > (uint64_t)INT64_MAX)
    return -2;
  *out = (int64_t)v;
  return 0;
}

int bi_truncate(bi_ctx *c) {
  static const bi_opt opts[] = {{"no-create", 'c', BI_ARG_NONE},
                                {"io-blocks", 'o', BI_ARG_NONE},
                                {"reference", 'r', BI_ARG_REQUIRED},
                                {"size", 's', BI_ARG_REQUIRED},
                                BI_OPTS_END};
  int nocreate = 0, blocks = 0, mode = TR_SET, have_size = 0, ch;
  int64_t size = 0;
  const char *ref = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "cor:s:", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'c':
      nocreate = 1;
      break;
    case 'o':
      blocks = 1;
      break;
    case 'r':
      ref = g.arg;
      break;
    case 's': {
      const char *s = g.arg;
      while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
      static const char ops[] = "+-<>/%";
      const char *op = *s ? strchr(ops, *s) : NULL;
      mode = op ? TR_ADD + (int)(op - ops) : TR_SET;
      if (op)
        s++;
      while (op && (*s == ' ' || (*s >= '\t' && *s <= '\r')))
        s++;
      int r = parse_size(s, &size);
      if (r == -1) {
        bi_error(c, "Invalid number: %s", tu_quote(c, g.arg));
        return 1;
      }
      if (r == -2) {
        bi_error(c, "Invalid number: %s: %s", tu_quote(c, g.arg),
                 bi_strerror(EOVERFLOW));
        return 1;
      }
      have_size = 1;
      break;
    }
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (ref && have_size && mode == TR_SET) {
    bi_error(c, "you must specify a relative %s with %s", tu_quote(c, "--size"),
             tu_quote(c, "--reference"));
    bi_try_help(c);
    return 1;
  }
  if (!ref && !have_size) {
    bi_error(c, "you must specify either %s or %s", tu_quote(c, "--size"),
             tu_quote(c, "--reference"));
    bi_try_help(c);
    return 1;
  }
  if (blocks && !have_size) {
    bi_error(c, "%s was specified but %s was not", tu_quote(c, "--io-blocks"),
             tu_quote(c, "--size"));
    bi_try_help(c);
    return 1;
  }
  if (g.noperands == 0) {
    bi_error(c, "missing file operand");
    bi_try_help(c);
    return 1;
  }
  if (blocks) {
    if (size > INT64_MAX / TR_BLOCK) {
      bi_error(c, "overflow in %lld * %d byte blocks for file %s",
               (long long)size, TR_BLOCK, fu_quote(c, g.operands[0]));
      return 1;
    }
    size *= TR_BLOCK;
  }
  if ((mode == TR_DOWN || mode == TR_UP) && size == 0) {
    bi_error(c, "division by zero");
    return 1;
  }
  int64_t refsize = -1;
  if (ref) {
    fu_stat st;
    int e = vfs_stat(c->vfs, c->cwd, ref, &st);
    if (e < 0) {
      bi_error(c, "cannot stat %s: %s", fu_quote(c, ref), bi_strerror(-e));
      return 1;
    }
    refsize = (int64_t)st.size;
  }
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    if (budget_poll(c->bud))
      return 1;
    const char *name = g.operands[i];
    vfs_file *f = NULL;
    int e = vfs_open(c->vfs, c->cwd, name, O_WRONLY | (nocreate ? 0 : O_CREAT),
                     0666, &f);
    if (e < 0) {
      if (!(nocreate && e == -ENOENT)) {
        bi_error(c, "cannot open %s for writing: %s", fu_quote(c, name),
                 bi_strerror(-e));
        status = 1;
      }
      continue;
    }
    int64_t base = refsize;
    if (base < 0 && mode != TR_SET) {
      fu_stat st;
      e = vfs_fstat(f, &st);
      if (e < 0) {
        bi_error(c, "cannot fstat %s: %s", fu_quote(c, name), bi_strerror(-e));
        vfs_close(f);
        status = 1;
        continue;
      }
      base = (int64_t)st.size;
    }
    int64_t want = size;
    switch (mode) {
    case TR_SET:
      want = base >= 0 ? base : size;
      break;
    case TR_ADD:
      want = base > INT64_MAX - size ? -1 : base + size;
      break;
    case TR_SUB:
      want = base > size ? base - size : 0;
      break;
    case TR_MAX:
      want = base < size ? base : size;
      break;
    case TR_MIN:
      want = base > size ? base : size;
      break;
    case TR_DOWN:
      want = base / size * size;
      break;
    case TR_UP:
      want = base % size ? (base / size + 1 > INT64_MAX / size
                                ? -1
                                : (base / size + 1) * size)
                         : base;
      break;
    }
    if (want < 0) {
      bi_error(c, "overflow extending size of file %s", fu_quote(c, name));
      vfs_close(f);
      status = 1;
      continue;
    }
    e = vfs_ftruncate(f, (uint64_t)want);
    if (e < 0) {
      bi_error(c, "failed to truncate %s at %lld bytes: %s", fu_quote(c, name),
               (long long)want, bi_strerror(-e));
      status = 1;
    }
    vfs_close(f);
  }
  return status;
}
