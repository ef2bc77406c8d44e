/* stat.c - GNU stat: file status in GNU's default, terse (-t) or custom
 * (-c/--format, --printf) formats. Times print in UTC (+0000). The VFS has
 * no device numbers and no birth time: devices show as 0,0, birth as "-". */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtins/fileutil.h"

const char bi_usage_stat[] = "Usage: stat [OPTION]... FILE...";
const char bi_help_stat[] =
    "Show the status of each FILE.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -L, --dereference     report on what a symbolic link points to, not on\n"
    "                        the link\n"
    "  -c  --format=FORMAT   print FORMAT instead of the usual report, plus a\n"
    "                        newline, for each FILE\n"
    "      --printf=FORMAT   as --format, but backslash escapes are expanded "
    "and\n"
    "                        no newline is added\n"
    "  -t, --terse           print everything on one short line\n"
    "      --help            print this summary and quit\n"
    "      --version         print the version line and quit\n"
    "\n"
    "Sequences in FORMAT:\n"
    "  %a   permission bits as an octal number (the # flag adds a leading 0)\n"
    "  %A   permissions written out, as in 'ls -l' (-rwxr-xr-x)\n"
    "  %b   how many blocks the file occupies (of %B bytes each)\n"
    "  %B   the block size that %b counts in, in bytes\n"
    "  %d   device number, decimal (%Hd major part, %Ld minor part)\n"
    "  %D   device number, hexadecimal\n"
    "  %f   the whole mode word, hexadecimal\n"
    "  %F   the kind of file (regular file, directory, ...)\n"
    "  %g   numeric group ID of the owner\n"
    "  %G   group name of the owner\n"
    "  %h   link count\n"
    "  %i   inode number\n"
    "  %m   where the file system holding the file is mounted\n"
    "  %n   the name of the file\n"
    "  %N   the name, quoted, plus \" -> TARGET\" for a symbolic link\n"
    "  %o   preferred I/O block size\n"
    "  %s   size in bytes\n"
    "  %t   major device number, hexadecimal (device files)\n"
    "  %T   minor device number, hexadecimal (device files)\n"
    "  %u   numeric user ID of the owner\n"
    "  %U   user name of the owner\n"
    "  %w   creation time as a date; - when not known\n"
    "  %W   creation time in seconds since the Epoch; 0 when not known\n"
    "  %x   last access, as a date\n"
    "  %X   last access, in seconds since the Epoch\n"
    "  %y   last change of the contents, as a date\n"
    "  %Y   last change of the contents, in seconds since the Epoch\n"
    "  %z   last change of the status, as a date\n"
    "  %Z   last change of the status, in seconds since the Epoch\n"
    "\n"
    "Times are shown in UTC.\n";

enum { OPT_PRINTF = 0x100 };

static const char default_fmt[] =
    "  File: %N\n"
    "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
    "Device: %Hd,%Ld\tInode: %-11i Links: %h\n"
    "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
    "Access: %x\n"
    "Modify: %y\n"
    "Change: %z\n"
    " Birth: %w\n";
static const char default_dev_fmt[] =
    "  File: %N\n"
    "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
    "Device: %Hd,%Ld\tInode: %-11i Links: %-5h Device type: %Hr,%Lr\n"
    "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
    "Access: %x\n"
    "Modify: %y\n"
    "Change: %z\n"
    " Birth: %w\n";
static const char terse_fmt[] =
    "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n";

typedef struct stx {
  bi_ctx *c;
  writer w;
  int plain_names;     /* default format: quote names only when needed */
  const tz_zone *zone; /* the script's TZ, for %x %y %z */
} stx;

/* Emit a string under a printf-style spec (flags, width, precision). */
static void put_str(stx *x, const char *spec, const char *s) {
  /* Only '-', width and precision mean something for a string (the other
   * printf flags are undefined with %s). */
  char f[64];
  size_t k = 0;
  f[k++] = '%';
  for (const char *q = spec; *q && k < sizeof f - 2; q++)
    if (*q == '-' || *q == '.' || (*q >= '1' && *q <= '9') ||
        (*q == '0' && k > 1 &&
         (f[k - 1] == '.' || (f[k - 1] >= '0' && f[k - 1] <= '9'))))
      f[k++] = *q;
  f[k++] = 's';
  f[k] = 0;
  buf b;
  buf_init(&b, x->c->m);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  buf_printf(&b, f, s);
#pragma GCC diagnostic pop
  wr_write(&x->w, buf_cstr(&b), b.len);
  buf_free(&b);
}

/* A number under a spec; conv is 'u', 'd', 'o' or 'x'. */
static void put_num(stx *x, const char *spec, char conv, long long v) {
  char f[80];
  snprintf(f, sizeof f, "%%%.60sll%c", spec, conv);
  buf b;
  buf_init(&b, x->c->m);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  buf_printf(&b, f, v);
#pragma GCC diagnostic pop
  wr_write(&x->w, buf_cstr(&b), b.len);
  buf_free(&b);
}

/* Seconds since the epoch, with a precision giving fraction digits. */
static void put_epoch(stx *x, const char *flags, int width, int prec,
                      int64_t ns) {
  int64_t sec = ns / 1000000000;
  long frac = (long)(ns % 1000000000);
  if (frac < 0) {
    frac += 1000000000;
    sec--;
  }
  char t[96];
  int n = snprintf(t, sizeof t, "%lld", (long long)sec);
  if (prec >= 0) {
    char digits[10];
    snprintf(digits, sizeof digits, "%09ld", frac);
    t[n++] = '.';
    for (int i = 0; i < prec && n < (int)sizeof t - 1; i++)
      t[n++] = i < 9 ? digits[i] : '0';
    t[n] = 0;
  }
  char spec[32];
  int zero = strchr(flags, '0') && !strchr(flags, '-');
  if (zero && width > n) {
    /* Zero padding goes after a sign. */
    char padded[128];
    int neg = t[0] == '-';
    int k = 0;
    if (neg)
      padded[k++] = '-';
    for (int i = 0; i < width - n; i++)
      padded[k++] = '0';
    strcpy(padded + k, t + neg);
    wr_puts(&x->w, padded);
    return;
  }
  snprintf(spec, sizeof spec, "%s%d", strchr(flags, '-') ? "-" : "",
           width > 0 ? width : 0);
  put_str(x, spec, t);
}

static const char *quoted_name(stx *x, const char *name, const char *path,
                               const fu_stat *st, int always) {
  bi_ctx *c = x->c;
  const char *q = always ? fu_quote(c, name) : fu_quotef(c, name);
  if (st->type != VFS_LNK)
    return q;
  char *t = NULL;
  size_t tl = 0;
  if (vfs_readlink(c->vfs, c->cwd, path, &t, &tl) < 0)
    return q;
  char *tt = arena_strndup(c->scratch, t, tl);
  vfs_release(c->vfs, t);
  if (!tt)
    return q;
  const char *qt = always ? fu_quote(c, tt) : fu_quotef(c, tt);
  size_t n = strlen(q) + strlen(qt) + 5;
  char *r = arena_alloc(c->scratch, n);
  if (!r)
    return q;
  snprintf(r, n, "%s -> %s", q, qt);
  return r;
}

/* Backslash escapes of --printf. */
static size_t put_escape(stx *x, const char *p) {
  static const char simple[] = "a\ab\bf\fn\nr\rt\tv\v\\\\\"\"";
  const char *e = *p ? strchr(simple, *p) : NULL;
  if (e && (e - simple) % 2 == 0) {
    wr_putc(&x->w, e[1]);
    return 1;
  }
  if (*p >= '0' && *p <= '7') {
    int v = 0, k = 0;
    while (k < 3 && p[k] >= '0' && p[k] <= '7')
      v = v * 8 + (p[k++] - '0');
    wr_putc(&x->w, v & 0xff);
    return (size_t)k;
  }
  if (*p == 'x' && strchr("0123456789abcdefABCDEF", p[1]) && p[1]) {
    int v = 0, k = 1;
    while (k < 3 && p[k] && strchr("0123456789abcdefABCDEF", p[k])) {
      char ch = p[k++];
      v = v * 16 + (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
    }
    wr_putc(&x->w, v);
    return (size_t)k;
  }
  /* Unknown escape: GNU warns and prints it as is. */
  wr_putc(&x->w, '\\');
  if (!*p)
    return 0;
  wr_putc(&x->w, *p);
  return 1;
}

static void show(stx *x, const char *fmt, int escapes, const char *name,
                 const fu_stat *st) {
  bi_ctx *c = x->c;
  for (const char *p = fmt; *p; p++) {
    if (*p == '\\' && escapes) {
      p += put_escape(x, p + 1);
      continue;
    }
    if (*p != '%') {
      wr_putc(&x->w, *p);
      continue;
    }
    const char *start = p + 1;
    const char *q = start;
    while (*q && strchr("-+ #0'", *q))
      q++;
    char flags[16];
    size_t fl = (size_t)(q - start) < sizeof flags - 1 ? (size_t)(q - start)
                                                       : sizeof flags - 1;
    memcpy(flags, start, fl);
    flags[fl] = 0;
    int width = 0, prec = -1;
    while (*q >= '0' && *q <= '9')
      width = width * 10 + (*q++ - '0');
    if (*q == '.') {
      q++;
      /* "%.Y" alone means all nine digits of the fraction. */
      prec = *q >= '0' && *q <= '9' ? 0 : 9;
      while (*q >= '0' && *q <= '9')
        prec = prec * 10 + (*q++ - '0');
    }
    char spec[64];
    snprintf(spec, sizeof spec, "%.*s", (int)(q - start), start);
    if (!*q) {
      /* A lone '%' at the end prints as is. */
      wr_write(&x->w, p, strlen(p));
      return;
    }
    char conv = *q;
    int hl = 0; /* %H / %L prefixes: major / minor */
    if ((conv == 'H' || conv == 'L') && (q[1] == 'd' || q[1] == 'r')) {
      hl = conv;
      conv = *++q;
    }
    p = q;
    unsigned maj, min;
    fu_dev_numbers(st, &maj, &min);
    switch (conv) {
    case '%':
      wr_putc(&x->w, '%');
      break;
    case 'a':
      put_num(x, spec, 'o', st->mode & 07777);
      break;
    case 'A': {
      char ms[11];
      fu_mode_string(st->type, st->mode, ms);
      put_str(x, spec, ms);
      break;
    }
    case 'b':
      put_num(x, spec, 'u', (long long)(fu_blocks_1k(st) * 2));
      break;
    case 'B':
      put_num(x, spec, 'u', 512);
      break;
    case 'd':
      put_num(x, spec, 'u', 0);
      break;
    case 'r':
      put_num(x, spec, 'u',
              hl == 'H'   ? maj
              : hl == 'L' ? min
                          : maj * 256 + min);
      break;
    case 'D':
      put_num(x, spec, 'x', 0);
      break;
    case 'f':
      put_num(x, spec, 'x', fu_type_bits(st->type) | (st->mode & 07777));
      break;
    case 'F':
      put_str(x, spec, fu_type_name(st));
      break;
    case 'g':
      put_num(x, spec, 'u', st->gid);
      break;
    case 'G':
      put_str(x, spec, fu_group_name(c, st->gid));
      break;
    case 'h':
      put_num(x, spec, 'u', st->nlink);
      break;
    case 'i':
      put_num(x, spec, 'u', (long long)st->ino);
      break;
    case 'm':
      put_str(x, spec, "/");
      break;
    case 'n':
      put_str(x, spec, name);
      break;
    case 'N':
      put_str(x, spec, quoted_name(x, name, name, st, !x->plain_names));
      break;
    case 'o':
      put_num(x, spec, 'u', 4096);
      break;
    case 's':
      put_num(x, spec, 'u', (long long)st->size);
      break;
    case 't':
      put_num(x, spec, 'x', maj);
      break;
    case 'T':
      put_num(x, spec, 'x', min);
      break;
    case 'u':
      put_num(x, spec, 'u', st->uid);
      break;
    case 'U':
      put_str(x, spec, fu_user_name(c, st->uid));
      break;
    case 'w':
      put_str(x, spec, "-");
      break;
    case 'W':
      put_epoch(x, flags, width, prec, 0);
      break;
    case 'x':
      put_str(x, spec, fu_time_full(c, x->zone, st->atime_ns));
      break;
    case 'X':
      put_epoch(x, flags, width, prec, st->atime_ns);
      break;
    case 'y':
      put_str(x, spec, fu_time_full(c, x->zone, st->mtime_ns));
      break;
    case 'Y':
      put_epoch(x, flags, width, prec, st->mtime_ns);
      break;
    case 'z':
      put_str(x, spec, fu_time_full(c, x->zone, st->ctime_ns));
      break;
    case 'Z':
      put_epoch(x, flags, width, prec, st->ctime_ns);
      break;
    case 'C':
      put_str(x, spec, "?");
      break;
    default:
      /* Unknown directive: GNU prints '?' in its place. */
      wr_putc(&x->w, '?');
      break;
    }
  }
}

int bi_stat(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"dereference", 'L', BI_ARG_NONE},       {"format", 'c', BI_ARG_REQUIRED},
      {"printf", OPT_PRINTF, BI_ARG_REQUIRED}, {"terse", 't', BI_ARG_NONE},
      {"cached", 0x101, BI_ARG_REQUIRED},      BI_OPTS_END};
  bi_getopt g;
  bi_getopt_init(&g, c, "Lc:t", opts);
  int o, deref = 0, terse = 0, escapes = 0;
  const char *fmt = NULL;
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'L':
      deref = 1;
      break;
    case 'c': {
      size_t n = strlen(g.arg);
      char *f = arena_alloc(c->scratch, n + 2);
      if (!f)
        return 1;
      memcpy(f, g.arg, n);
      f[n] = '\n';
      f[n + 1] = 0;
      fmt = f;
      escapes = 0;
      break;
    }
    case OPT_PRINTF:
      fmt = g.arg;
      escapes = 1;
      break;
    case 't':
      terse = 1;
      break;
    case 0x101:
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (g.noperands == 0)
    return bi_missing_operand(c);
  stx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  wr_init(&x.w, c->out);
  x.zone = bi_tz_open(c);
  int status = 0;
  for (int i = 0; i < g.noperands; i++) {
    const char *p = g.operands[i];
    fu_stat st;
    int rc = deref ? vfs_stat(c->vfs, c->cwd, p, &st)
                   : vfs_lstat(c->vfs, c->cwd, p, &st);
    if (rc < 0) {
      wr_flush(&x.w);
      bi_error(c, "cannot statx %s: %s", fu_quote(c, p), bi_strerror(-rc));
      status = 1;
      continue;
    }
    const char *f = fmt;
    x.plain_names = 0;
    if (!f) {
      if (terse) {
        f = terse_fmt;
      } else {
        f = st.type == VFS_CHR ? default_dev_fmt : default_fmt;
        x.plain_names = 1;
      }
    }
    show(&x, f, escapes, p, &st);
    if (x.w.err)
      break;
  }
  tz_close(x.zone);
  if (x.w.err)
    return fu_out_status(&x.w);
  return fu_out_end(&x.w, status);
}
