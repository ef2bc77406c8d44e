/*
 * df.c - GNU df (coreutils 9.1) for the sandbox: one file system, "vsh"
 * (type "vsh") mounted on /, whose size is the sandbox's quota of content
 * bytes (or inodes with -i) and whose use is what the quota has counted.
 * Columns are laid out as GNU does: each as wide as its header or its
 * widest value, numbers to the right.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins/files/usage.h"
#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_df[] = "Usage: df [OPTION]... [FILE]...";
const char bi_help_df[] =
    "Show the size and use of the file system holding each FILE, or of\n"
    "every file system. The sandbox has one: its quota, mounted on /.\n"
    "\n"
    "  -a, --all             the same here (there is nothing more to show)\n"
    "  -B, --block-size=SIZE  sizes in units of SIZE (K, M, G, ..., KB, MB,\n"
    "                        ..., or a number with one): -BM prints 1024M\n"
    "  -h, --human-readable  sizes with a unit in powers of 1024 (1.0G)\n"
    "  -i, --inodes          inodes instead of space\n"
    "  -k                    sizes in KiB (the default)\n"
    "  -l, --local           the same here (the file system is local)\n"
    "  -T, --print-type      add the file system's type\n"
    "      --total           add a line with the sum\n"
    "      --help            print this summary and quit\n"
    "      --version         print the version line and quit\n"
    "\n"
    "Size is the quota of file bytes; Used what files hold now (counted\n"
    "once per inode, as the quota counts it).\n";

enum { DF_COLS = 7 };

typedef struct df_row {
  const char *cell[DF_COLS]; /* source, type, size, used, avail, pcent,
                                target */
} df_row;

static const char *num(bi_ctx *c, uint64_t v, int human, const char *suffix) {
  char tmp[48];
  if (human)
    fu_human_ceil(v, tmp, sizeof tmp); /* GNU scales inode counts too */
  else
    snprintf(tmp, sizeof tmp, "%llu%s", (unsigned long long)v, suffix);
  const char *r = arena_strdup(c->scratch, tmp);
  return r ? r : "?";
}

/* The size column's header for units of bs bytes: "1K-blocks",
 * "1M-blocks", "1kB-blocks", "3B-blocks"; "1" and the suffix when sizes
 * carry one. */
static const char *blocks_header(bi_ctx *c, uint64_t bs, const char *suffix) {
  static const char units[] = "KMGTPEZY";
  char tmp[48];
  if (*suffix) {
    snprintf(tmp, sizeof tmp, "1%s-blocks", suffix);
  } else {
    int k = 0;
    uint64_t v = bs;
    while (k < 8 && v % 1024 == 0) {
      v /= 1024;
      k++;
    }
    if (k) {
      snprintf(tmp, sizeof tmp, "%llu%c-blocks", (unsigned long long)v,
               units[k - 1]);
    } else {
      v = bs;
      while (k < 8 && v % 1000 == 0) {
        v /= 1000;
        k++;
      }
      if (k)
        snprintf(tmp, sizeof tmp, "%llu%cB-blocks", (unsigned long long)v,
                 k == 1 ? 'k' : units[k - 1]);
      else
        snprintf(tmp, sizeof tmp, "%lluB-blocks", (unsigned long long)bs);
    }
  }
  const char *r = arena_strdup(c->scratch, tmp);
  return r ? r : "?";
}

static const char *pcent(bi_ctx *c, uint64_t used, uint64_t avail) {
  if (used + avail == 0)
    return "-";
  uint64_t p = (used * 100 + used + avail - 1) / (used + avail);
  char tmp[8];
  snprintf(tmp, sizeof tmp, "%llu%%", (unsigned long long)p);
  const char *r = arena_strdup(c->scratch, tmp);
  return r ? r : "?";
}

int bi_df(bi_ctx *c) {
  enum { O_TOTAL = 0x100 };
  static const bi_opt opts[] = {{"all", 'a', BI_ARG_NONE},
                                {"block-size", 'B', BI_ARG_REQUIRED},
                                {"human-readable", 'h', BI_ARG_NONE},
                                {"inodes", 'i', BI_ARG_NONE},
                                {"local", 'l', BI_ARG_NONE},
                                {"print-type", 'T', BI_ARG_NONE},
                                {"total", O_TOTAL, BI_ARG_NONE},
                                BI_OPTS_END};
  int human = 0, inodes = 0, type = 0, total = 0, ch;
  uint64_t bs = 1024;
  char suffix[8] = "";
  bi_getopt g;
  bi_getopt_init(&g, c, "aB:hiklTv", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'h':
      human = 1;
      break;
    case 'k':
      human = 0;
      bs = 1024;
      suffix[0] = 0;
      break;
    case 'B':
      if (fu_block_size(g.arg, &bs, suffix, sizeof suffix)) {
        bi_error(c, "invalid -B argument %s", tu_quote(c, g.arg));
        return 1;
      }
      human = 0;
      break;
    case 'i':
      inodes = 1;
      break;
    case 'T':
      type = 1;
      break;
    case O_TOTAL:
      total = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  int status = 0, nfs = 0;
  for (int i = 0; i < g.noperands; i++) {
    fu_stat st;
    int e = vfs_stat(c->vfs, c->cwd, g.operands[i], &st);
    if (e < 0) {
      bi_error(c, "%s: %s", g.operands[i], bi_strerror(-e));
      status = 1;
    } else {
      nfs++;
    }
  }
  if (!g.noperands)
    nfs = 1;
  if (!nfs)
    return status;
  uint64_t max_bytes = 0, max_inodes = 0, bytes = 0, nodes = 0;
  vfs_get_quota(c->vfs, &max_bytes, &max_inodes);
  vfs_usage(c->vfs, &bytes, &nodes);
  /* Each figure is rounded up to the unit on its own, as GNU does; the
   * percentage comes from the exact counts. */
  uint64_t size = inodes ? max_inodes : max_bytes;
  uint64_t used = inodes ? nodes : bytes;
  uint64_t avail = size > used ? size - used : 0;
  const char *pc = pcent(c, used, avail);
  if (!inodes && !human) {
    size = size / bs + (size % bs != 0);
    used = used / bs + (used % bs != 0);
    avail = avail / bs + (avail % bs != 0);
  }
  int nrows = 1 + nfs + total;
  df_row *rows = arena_calloc(c->scratch, sizeof *rows * (size_t)nrows);
  if (!rows) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  rows[0] = (df_row){{"Filesystem", "Type",
                      inodes  ? "Inodes"
                      : human ? "Size"
                              : blocks_header(c, bs, suffix),
                      inodes ? "IUsed" : "Used",
                      inodes  ? "IFree"
                      : human ? "Avail"
                              : "Available",
                      inodes ? "IUse%" : "Use%", "Mounted on"}};
  const char *sfx = inodes ? "" : suffix;
  df_row fs = {{"vsh", "vsh", num(c, size, human, sfx),
                num(c, used, human, sfx), num(c, avail, human, sfx), pc, "/"}};
  for (int i = 1; i <= nfs; i++)
    rows[i] = fs;
  if (total) {
    rows[nrows - 1] = fs;
    rows[nrows - 1].cell[0] = "total";
    rows[nrows - 1].cell[6] = "-";
  }
  static const size_t minw[DF_COLS] = {14, 4, 5, 5, 5, 4, 0};
  static const int right[DF_COLS] = {0, 0, 1, 1, 1, 1, 0};
  size_t w[DF_COLS];
  for (int k = 0; k < DF_COLS; k++) {
    w[k] = minw[k];
    for (int r = 0; r < nrows; r++)
      if (strlen(rows[r].cell[k]) > w[k])
        w[k] = strlen(rows[r].cell[k]);
  }
  writer out;
  wr_init(&out, c->out);
  for (int r = 0; r < nrows; r++) {
    int first = 1;
    for (int k = 0; k < DF_COLS; k++) {
      if (k == 1 && !type)
        continue;
      if (!first)
        wr_putc(&out, ' ');
      first = 0;
      const char *s = rows[r].cell[k];
      if (k == DF_COLS - 1)
        wr_puts(&out, s);
      else
        wr_printf(&out, right[k] ? "%*s" : "%-*s", (int)w[k], s);
    }
    wr_putc(&out, '\n');
  }
  if (wr_flush(&out))
    return bi_stream_status(out.err);
  return status;
}
