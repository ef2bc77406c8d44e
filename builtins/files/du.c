/*
 * du.c - GNU du (coreutils 9.1) over the sandbox's files.
 *
 * Disk usage is counted as ext4 would allocate it (fu_blocks_1k): whole
 * 4 KiB blocks for a regular file's bytes and for each directory (whose
 * size is 4096), nothing for an empty file or a symlink. Sizes print in
 * 1 KiB units by default (-k), MiB with -m, bytes of apparent size with
 * -b, or human units with -h; a file with several hard links counts once
 * (first met), unless -l. Directories are walked in name order (byte
 * order, the sandbox's C collation) with an explicit stack, so depth costs
 * no C stack.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/files/usage.h"
#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_du[] = "Usage: du [OPTION]... [FILE]...";
const char bi_help_du[] =
    "Show how much space each FILE takes, and for a directory each\n"
    "directory below it (the current directory when no FILE is given).\n"
    "\n"
    "  -0, --null             end each line with a NUL byte\n"
    "  -a, --all              show files too, not only directories\n"
    "      --apparent-size    count the bytes files hold, not their blocks\n"
    "  -B, --block-size=SIZE  sizes in units of SIZE (K, M, G, ..., KB, MB,\n"
    "                         ..., or a number with one): -BM prints 3M\n"
    "  -b, --bytes            apparent sizes in bytes\n"
    "  -c, --total            add a line with the total of everything\n"
    "  -d, --max-depth=N      show only what is N or fewer levels below a\n"
    "                         FILE (all of it is counted still)\n"
    "  -h, --human-readable   sizes with a unit: 4.0K, 12M, 1.1G\n"
    "  -k                     sizes in KiB (the default)\n"
    "  -L, --dereference      follow every symlink\n"
    "  -D, -H, --dereference-args  follow symlinks named as FILEs\n"
    "  -P, --no-dereference   follow no symlink (the default)\n"
    "  -l, --count-links      count a hard-linked file at each of its names\n"
    "  -m                     sizes in MiB\n"
    "  -S, --separate-dirs    leave subdirectories out of a directory's size\n"
    "  -s, --summarize        only one line for each FILE\n"
    "  -x, --one-file-system  stay on one file system (the sandbox has one)\n"
    "      --help             print this summary and quit\n"
    "      --version          print the version line and quit\n"
    "\n"
    "Space is counted as whole 4 KiB blocks (an empty file or a symlink\n"
    "takes none, a directory one), as on ext4.\n";

typedef struct du {
  bi_ctx *c;
  writer w;
  int all, apparent, maxdepth, separate, links, deref, deref_args;
  uint64_t bs;    /* bytes per unit printed; 0: human-readable */
  char suffix[8]; /* printed after each size (-B M) */
  char eol;
  int status;
  uint64_t *seen; /* open hash set of inode numbers + 1 */
  size_t seen_cap, seen_n;
} du;

/* 1 if ino was seen before; else records it. -1 out of memory. */
static int seen_before(du *d, uint64_t ino) {
  if (d->seen_n * 2 >= d->seen_cap) {
    size_t ncap = d->seen_cap ? d->seen_cap * 2 : 256;
    uint64_t *ns = mem_calloc(d->c->m, ncap, sizeof *ns);
    if (!ns)
      return -1;
    for (size_t i = 0; i < d->seen_cap; i++)
      if (d->seen[i]) {
        size_t j = (d->seen[i] * 0x9e3779b97f4a7c15ull) & (ncap - 1);
        while (ns[j])
          j = (j + 1) & (ncap - 1);
        ns[j] = d->seen[i];
      }
    mem_free(d->c->m, d->seen);
    d->seen = ns;
    d->seen_cap = ncap;
  }
  uint64_t key = ino + 1;
  size_t j = (key * 0x9e3779b97f4a7c15ull) & (d->seen_cap - 1);
  for (; d->seen[j]; j = (j + 1) & (d->seen_cap - 1))
    if (d->seen[j] == key)
      return 1;
  d->seen[j] = key;
  d->seen_n++;
  return 0;
}

/* What a node counts: bytes (apparent) or 1 KiB blocks. */
static uint64_t node_size(du *d, const fu_stat *st) {
  if (d->apparent)
    return st->type == VFS_REG || st->type == VFS_DIR || st->type == VFS_LNK
               ? st->size
               : 0;
  return fu_blocks_1k(st);
}

static void put_line(du *d, uint64_t size, const char *path) {
  char num[48];
  uint64_t bytes = d->apparent ? size : size * 1024;
  if (!d->bs)
    fu_human_ceil(bytes, num, sizeof num);
  else
    snprintf(num, sizeof num, "%llu%s",
             (unsigned long long)(bytes / d->bs + (bytes % d->bs != 0)),
             d->suffix);
  wr_printf(&d->w, "%s\t%s%c", num, path, d->eol);
}

typedef struct du_frame {
  char *path; /* mem */
  char **names;
  size_t n, i;
  uint64_t total;
  int depth;
} du_frame;

static int du_stat(du *d, const char *path, int top, fu_stat *st) {
  int follow = d->deref || (top && d->deref_args);
  return follow ? vfs_stat(d->c->vfs, d->c->cwd, path, st)
                : vfs_lstat(d->c->vfs, d->c->cwd, path, st);
}

/* The size of one counted node, 0 for a hard link met before. */
static uint64_t count_node(du *d, const fu_stat *st, int *skip) {
  *skip = 0;
  if (!d->links && st->type != VFS_DIR && st->nlink > 1) {
    int r = seen_before(d, st->ino);
    if (r) {
      *skip = 1;
      return 0;
    }
  }
  return node_size(d, st);
}

static void free_frame(du *d, du_frame *f) {
  if (f->names)
    vfs_free_names(d->c->vfs, f->names, f->n);
  mem_free(d->c->m, f->path);
}

/* Walk one operand; its total size, or UINT64_MAX when it was skipped. */
static uint64_t du_walk(du *d, const char *top) {
  bi_ctx *c = d->c;
  fu_stat st;
  int e = du_stat(d, top, 1, &st);
  if (e < 0) {
    wr_flush(&d->w);
    bi_error(c, "cannot access %s: %s", fu_quote(c, top), bi_strerror(-e));
    d->status = 1;
    return UINT64_MAX;
  }
  if (st.type != VFS_DIR) {
    int skip;
    uint64_t s = count_node(d, &st, &skip);
    if (!skip)
      put_line(d, s, top);
    return s;
  }
  if (seen_before(d, st.ino) == 1)
    return UINT64_MAX; /* a directory already counted */
  size_t cap = 16, n = 0;
  du_frame *stk = mem_alloc(c->m, cap * sizeof *stk);
  char *p0 = mem_strdup(c->m, top);
  if (!stk || !p0) {
    mem_free(c->m, stk);
    mem_free(c->m, p0);
    bi_error(c, "%s", bi_strerror(ENOMEM));
    d->status = 1;
    return UINT64_MAX;
  }
  memset(&stk[0], 0, sizeof stk[0]);
  stk[0].path = p0;
  stk[0].total = node_size(d, &st);
  n = 1;
  int opened = 0;
  uint64_t result = 0;
  while (n) {
    du_frame *f = &stk[n - 1];
    if (budget_poll(c->bud)) {
      d->status = 1;
      break;
    }
    if (!opened) {
      e = vfs_readdir(c->vfs, c->cwd, f->path, &f->names, &f->n);
      if (e < 0) {
        wr_flush(&d->w);
        bi_error(c, "cannot read directory %s: %s", fu_quote(c, f->path),
                 bi_strerror(-e));
        d->status = 1;
        f->names = NULL;
        f->n = 0;
      }
      opened = 1;
    }
    if (f->i < f->n) {
      const char *name = f->names[f->i++];
      const char *cp = fu_join(c, f->path, name);
      if (!cp) {
        bi_error(c, "%s", bi_strerror(ENOMEM));
        d->status = 1;
        break;
      }
      e = du_stat(d, cp, 0, &st);
      if (e < 0) {
        wr_flush(&d->w);
        bi_error(c, "cannot access %s: %s", fu_quote(c, cp), bi_strerror(-e));
        d->status = 1;
        continue;
      }
      if (st.type == VFS_DIR) {
        if (seen_before(d, st.ino) == 1)
          continue;
        if (n == cap) {
          du_frame *ns = mem_realloc(c->m, stk, cap * 2 * sizeof *stk);
          if (!ns) {
            bi_error(c, "%s", bi_strerror(ENOMEM));
            d->status = 1;
            break;
          }
          stk = ns;
          cap *= 2;
          f = &stk[n - 1];
        }
        char *pc = mem_strdup(c->m, cp);
        if (!pc) {
          bi_error(c, "%s", bi_strerror(ENOMEM));
          d->status = 1;
          break;
        }
        du_frame *nf = &stk[n++];
        memset(nf, 0, sizeof *nf);
        nf->path = pc;
        nf->depth = f->depth + 1;
        nf->total = node_size(d, &st);
        opened = 0;
        continue;
      }
      int skip;
      uint64_t s = count_node(d, &st, &skip);
      f->total += s;
      if (!skip && d->all && f->depth + 1 <= d->maxdepth)
        put_line(d, s, cp);
      continue;
    }
    /* the directory is done */
    if (f->depth <= d->maxdepth)
      put_line(d, f->total, f->path);
    uint64_t t = f->total;
    free_frame(d, f);
    n--;
    if (n) {
      if (!d->separate)
        stk[n - 1].total += t;
      opened = 1;
    } else {
      result = t;
    }
    if (d->w.err)
      break;
  }
  while (n)
    free_frame(d, &stk[--n]);
  mem_free(c->m, stk);
  return result;
}

int bi_du(bi_ctx *c) {
  enum { O_APPARENT = 0x100 };
  static const bi_opt opts[] = {{"null", '0', BI_ARG_NONE},
                                {"all", 'a', BI_ARG_NONE},
                                {"apparent-size", O_APPARENT, BI_ARG_NONE},
                                {"block-size", 'B', BI_ARG_REQUIRED},
                                {"bytes", 'b', BI_ARG_NONE},
                                {"total", 'c', BI_ARG_NONE},
                                {"max-depth", 'd', BI_ARG_REQUIRED},
                                {"human-readable", 'h', BI_ARG_NONE},
                                {"dereference", 'L', BI_ARG_NONE},
                                {"dereference-args", 'D', BI_ARG_NONE},
                                {"no-dereference", 'P', BI_ARG_NONE},
                                {"count-links", 'l', BI_ARG_NONE},
                                {"separate-dirs", 'S', BI_ARG_NONE},
                                {"summarize", 's', BI_ARG_NONE},
                                {"one-file-system", 'x', BI_ARG_NONE},
                                BI_OPTS_END};
  du d;
  memset(&d, 0, sizeof d);
  d.c = c;
  d.eol = '\n';
  d.maxdepth = -1;
  d.bs = 1024;
  int total = 0, summarize = 0, ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "0aB:bcd:hHkLDlmPSsx", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case '0':
      d.eol = '\0';
      break;
    case 'a':
      d.all = 1;
      break;
    case O_APPARENT:
      d.apparent = 1;
      break;
    case 'b':
      d.apparent = 1;
      d.bs = 1;
      d.suffix[0] = 0;
      break;
    case 'c':
      total = 1;
      break;
    case 'd': {
      char *e;
      errno = 0;
      long long v = strtoll(g.arg, &e, 10);
      if (!*g.arg || *e || errno || v < 0) {
        bi_error(c, "invalid maximum depth %s", tu_quote(c, g.arg));
        bi_try_help(c);
        return 1;
      }
      d.maxdepth = v > 1000000 ? 1000000 : (int)v;
      break;
    }
    case 'h':
      d.bs = 0;
      break;
    case 'k':
      d.bs = 1024;
      d.suffix[0] = 0;
      break;
    case 'm':
      d.bs = 1048576;
      d.suffix[0] = 0;
      break;
    case 'B':
      if (fu_block_size(g.arg, &d.bs, d.suffix, sizeof d.suffix)) {
        bi_error(c, "invalid -B argument %s", tu_quote(c, g.arg));
        return 1;
      }
      break;
    case 'L':
      d.deref = 1;
      break;
    case 'D':
    case 'H':
      d.deref_args = 1;
      break;
    case 'P':
      d.deref = d.deref_args = 0;
      break;
    case 'l':
      d.links = 1;
      break;
    case 'S':
      d.separate = 1;
      break;
    case 's':
      summarize = 1;
      break;
    case 'x':
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  if (summarize) {
    if (d.all) {
      bi_error(c, "cannot both summarize and show all entries");
      bi_try_help(c);
      return 1;
    }
    if (d.maxdepth > 0) {
      bi_error(c, "warning: summarizing conflicts with --max-depth=%d",
               d.maxdepth);
      bi_try_help(c);
      return 1;
    }
    d.maxdepth = 0;
  }
  if (d.maxdepth < 0)
    d.maxdepth = 1000000;
  wr_init(&d.w, c->out);
  static char *dot[] = {".", NULL};
  char **ops = g.noperands ? g.operands : dot;
  int nops = g.noperands ? g.noperands : 1;
  uint64_t sum = 0;
  for (int i = 0; i < nops && !d.w.err; i++) {
    uint64_t s = du_walk(&d, ops[i]);
    if (s != UINT64_MAX)
      sum += s;
    if (budget_poll(c->bud))
      break;
  }
  if (total && !d.w.err)
    put_line(&d, sum, "total");
  mem_free(c->m, d.seen);
  if (wr_flush(&d.w))
    return bi_stream_status(d.w.err);
  return d.status;
}
