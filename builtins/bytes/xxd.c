/*
 * xxd.c - xxd as vim-common 9.0 ships it (xxd 2022-01-14): a hex dump
 * (-b bits, -e little-endian, -p plain, -i C include) and its reverse (-r,
 * plain or line-addressed, patching an output file in place).
 *
 * Options are parsed the way xxd does it: single dash, a word may be
 * spelled out ("-cols 8", "-ps", "-include"), and a value may be glued on
 * ("-c8"). A seek (-s) into a file is free; on a pipe the bytes are read
 * and dropped, and seeking from the end needs a file.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_xxd[] = "Usage: xxd [OPTION]... [INFILE [OUTFILE]]\n"
                            "   or: xxd -r [-s [-]OFFSET] [-c COLS] [-p] "
                            "[INFILE [OUTFILE]]";
const char bi_help_xxd[] =
    "Show INFILE (or standard input) as a hex dump, or with -r turn a hex\n"
    "dump back into bytes. The result goes to OUTFILE or standard output.\n"
    "\n"
    "  -a        replace runs of all-zero lines by a single '*'\n"
    "  -b        show bits instead of hex digits (6 bytes a line)\n"
    "  -C        capitalize the variable names of -i\n"
    "  -c COLS   bytes per line (16; -i 12, -p 30; -p -c 0: one line)\n"
    "  -d        show offsets in decimal\n"
    "  -e        little-endian groups (4 bytes each by default)\n"
    "  -g BYTES  bytes per group (2; -e 4; 0 puts the whole line in one)\n"
    "  -i        write a C array holding the bytes\n"
    "  -l LEN    stop after LEN bytes\n"
    "  -n NAME   the variable name used by -i\n"
    "  -o OFF    add OFF to the offsets shown\n"
    "  -p        plain hex digits, without offsets or text\n"
    "  -r        read a dump (line-addressed, or plain with -p) and write\n"
    "            the bytes; an existing OUTFILE is patched, not truncated\n"
    "  -s [+][-]SEEK  start at byte SEEK (-: counted from the end); with -r,\n"
    "            add SEEK to the offsets found in the dump\n"
    "  -u        upper-case hex digits\n"
    "  -v        print the version line\n"
    "\n"
    "Options may be spelled out (-cols, -len, -seek, -ps, -include, ...).\n";

enum { XX_NORMAL, XX_PS, XX_INCLUDE, XX_BITS, XX_LE };
enum { XX_MAXCOLS = 256 };

typedef struct xx {
  bi_ctx *c;
  writer *w;
  int type, cols, grp, autoskip, capitalize, decimal, upper;
  long long length, seek, dispoff;
  int relseek, negseek;
  const char *varname;
  /* input: a view of the whole file, or a reader */
  const unsigned char *view;
  size_t vlen, vpos;
  reader r;
  int use_reader;
  /* autoskip state */
  char *held;
  int zero_seen;
} xx;

static int xx_usage(bi_ctx *c) {
  stream_printf(c->err, "%s\n", bi_usage_xxd);
  bi_try_help(c);
  return 1;
}

/* Next input byte or -1 at the end (-2 on a read error). */
static int xx_getc(xx *x) {
  if (!x->use_reader) {
    if (x->vpos >= x->vlen)
      return -1;
    if ((x->vpos & 0xffff) == 0 && budget_poll(x->c->bud))
      return -2;
    return x->view[x->vpos++];
  }
  unsigned char ch;
  long k = rd_read(&x->r, &ch, 1);
  if (k < 0)
    return -2;
  return k ? ch : -1;
}

static int xx_read_err(xx *x, const char *name) {
  if (x->use_reader && x->r.err && x->r.err != ECANCELED)
    tu_file_error_raw(x->c, name, x->r.err);
  return 2;
}

/* One finished dump line, through the autoskip filter (nz: the line
 * holds a non-zero byte; -1: flush at the end). */
static void xx_line(xx *x, const char *l, size_t n, int nz) {
  if (!x->autoskip) {
    wr_write(x->w, l, n);
    return;
  }
  if (!nz && x->zero_seen == 1)
    memcpy(x->held, l, n + 1);
  if (nz || !x->zero_seen++) {
    if (nz) {
      if (nz < 0)
        x->zero_seen--;
      if (x->zero_seen == 2)
        wr_puts(x->w, x->held);
      if (x->zero_seen > 2)
        wr_puts(x->w, "*\n");
    }
    if (nz >= 0 || x->zero_seen > 0)
      wr_write(x->w, l, n);
    if (nz)
      x->zero_seen = 0;
  }
}

static int xx_dump(xx *x, const char *name) {
  const char *hex = x->upper ? "0123456789ABCDEF" : "0123456789abcdef";
  bi_ctx *c = x->c;
  if (x->type == XX_PS) {
    long long n = 0, p = x->cols;
    int e;
    while ((x->length < 0 || n < x->length) && (e = xx_getc(x)) >= 0) {
      wr_putc(x->w, hex[e >> 4]);
      wr_putc(x->w, hex[e & 15]);
      n++;
      if (!--p) {
        wr_putc(x->w, '\n');
        p = x->cols;
      }
      if (x->w->err)
        return 1;
    }
    if (e == -2)
      return xx_read_err(x, name);
    if (p < x->cols)
      wr_putc(x->w, '\n');
    return 0;
  }
  if (x->type == XX_INCLUDE) {
    const char *var = x->varname ? x->varname : name;
    if (var) {
      wr_printf(x->w, "unsigned char %s",
                isdigit((unsigned char)var[0]) ? "__" : "");
      for (const char *s = var; *s; s++)
        wr_putc(x->w, isalnum((unsigned char)*s)
                          ? (x->capitalize ? toupper((unsigned char)*s) : *s)
                          : '_');
      wr_puts(x->w, "[] = {\n");
    }
    long long p = 0;
    int e;
    while ((x->length < 0 || p < x->length) && (e = xx_getc(x)) >= 0) {
      wr_printf(x->w, x->upper ? "%s0X%02X" : "%s0x%02x",
                (p % x->cols) ? ", " : (!p ? "  " : ",\n  "), e);
      p++;
      if (x->w->err)
        return 1;
    }
    if (e == -2)
      return xx_read_err(x, name);
    if (p)
      wr_putc(x->w, '\n');
    if (var) {
      wr_puts(x->w, "};\n");
      wr_printf(x->w, "unsigned int %s",
                isdigit((unsigned char)var[0]) ? "__" : "");
      for (const char *s = var; *s; s++)
        wr_putc(x->w, isalnum((unsigned char)*s)
                          ? (x->capitalize ? toupper((unsigned char)*s) : *s)
                          : '_');
      wr_printf(x->w, x->capitalize ? "_LEN = %lld;\n" : "_len = %lld;\n", p);
    }
    return 0;
  }
  int grplen = x->type == XX_BITS ? 8 * x->grp + 1 : 2 * x->grp + 1;
  size_t llen = 64 + (size_t)x->cols * 12;
  char *l = arena_alloc(c->scratch, llen);
  x->held = arena_alloc(c->scratch, llen);
  if (!l || !x->held) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  x->held[0] = 0;
  long long n = 0;
  int p = 0, nz = 0, e = 0, addrlen = 0, col = 0;
  while ((x->length < 0 || n < x->length) && (e = xx_getc(x)) >= 0) {
    if (p == 0) {
      unsigned long long a = (unsigned long long)(n + x->seek + x->dispoff);
      addrlen = snprintf(l, llen, x->decimal ? "%08llu:" : "%08llx:", a);
      memset(l + addrlen, ' ', llen - (size_t)addrlen);
    }
    int xi = x->type == XX_LE ? p ^ (x->grp - 1) : p;
    col = addrlen + 1 + (grplen * xi) / x->grp;
    if (x->type == XX_BITS) {
      for (int i = 7; i >= 0; i--)
        l[col++] = (e & (1 << i)) ? '1' : '0';
    } else {
      l[col] = hex[e >> 4];
      l[col + 1] = hex[e & 15];
    }
    if (e)
      nz++;
    col = addrlen + 3 + (grplen * x->cols - 1) / x->grp + p;
    l[col++] = (e > 31 && e < 127) ? (char)e : '.';
    n++;
    if (++p == x->cols) {
      l[col] = '\n';
      l[col + 1] = 0;
      xx_line(x, l, (size_t)col + 1, x->autoskip ? nz : 1);
      nz = 0;
      p = 0;
      if (x->w->err)
        return 1;
    }
  }
  if (e == -2)
    return xx_read_err(x, name);
  if (p) {
    l[col] = '\n';
    l[col + 1] = 0;
    xx_line(x, l, (size_t)col + 1, 1);
  } else if (x->autoskip) {
    xx_line(x, l, 0, -1);
  }
  return 0;
}

/* The output of -r: a stream written in order, or a file patched. */
typedef struct xx_out {
  writer *w;
  vfs_file *f;
  long long have; /* offset of the next byte written */
} xx_out;

static int xx_put(xx_out *o, int byte, long long at) {
  if (o->f) {
    unsigned char b = (unsigned char)byte;
    long k = vfs_pwrite(o->f, &b, 1, (uint64_t)at);
    o->have = at + 1;
    return k == 1 ? 0 : -1;
  }
  for (; o->have < at; o->have++)
    if (wr_putc(o->w, 0))
      return -1;
  o->have++;
  return wr_putc(o->w, byte);
}

static int hexval(int ch) {
  return ch < 0 ? -1 : tu_hexval(ch);
}

/* xxd -r: the dump read byte by byte as xxd's own parser reads it. */
static int xx_revert(xx *x, xx_out *o, long long base, const char *name) {
  int ch, ign = 1, n1 = -1, n2 = 0, n3, p = x->cols;
  long long want = 0;
  int ps = x->type == XX_PS;
  while ((ch = xx_getc(x)) >= 0) {
    if (ch == '\r')
      continue;
    if (ps && (ch == ' ' || ch == '\n' || ch == '\t'))
      continue;
    n3 = n2;
    n2 = n1;
    n1 = hexval(ch);
    if (n1 == -1 && ign)
      continue;
    ign = 0;
    if (!ps && p >= x->cols) {
      if (n1 < 0) {
        p = 0;
        continue;
      }
      want = (want << 4) | n1;
      continue;
    }
    if (!o->f && base + want < o->have) {
      bi_error(x->c, "Sorry, cannot seek backwards.");
      return 5;
    }
    int skip = 0;
    if (n2 >= 0 && n1 >= 0) {
      if (base + want < 0 || xx_put(o, (n2 << 4) | n1, base + want)) {
        if (o->f)
          bi_error(x->c, "%s", bi_strerror(EIO));
        return 3;
      }
      want++;
      n1 = -1;
      if (!ps && ++p >= x->cols)
        skip = 1;
    } else if (n1 < 0 && n2 < 0 && n3 < 0) {
      skip = 1;
    }
    if (skip)
      while (ch != '\n' && ch >= 0)
        ch = xx_getc(x);
    if (ch == -2)
      break;
    if (ch == '\n') {
      if (!ps)
        want = 0;
      p = x->cols;
      ign = 1;
    }
  }
  if (ch == -2)
    return xx_read_err(x, name);
  return 0;
}

/* A number as strtol(s, NULL, 0) reads it. */
static long long xx_num(const char *s) {
  return strtoll(s, NULL, 0);
}

/* The value of a word option: glued on ("-c8") unless the rest spells the
 * long form ("-cols"), else the next argument. NULL when missing. */
static const char *xx_value(bi_ctx *c, int *i, const char *pp,
                            const char *rest) {
  if (pp[2] && strncmp(rest, pp + 2, strlen(rest)))
    return pp + 2;
  if (*i + 1 >= c->argc)
    return NULL;
  return c->argv[++*i];
}

int bi_xxd(bi_ctx *c) {
  xx x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.type = XX_NORMAL;
  x.grp = -1;
  x.cols = -1;
  x.length = -1;
  int revert = 0, i;
  for (i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (!strcmp(a, "--help"))
      return bi_print_help(c);
    if (!strcmp(a, "--version")) {
      stream_puts(c->out, "xxd 2022-01-14 (vsh)\n");
      return 0;
    }
    const char *pp = a + (!strncmp(a, "--", 2) && a[2]);
    const char *v;
    if (!strncmp(pp, "-a", 2))
      x.autoskip = !x.autoskip;
    else if (!strncmp(pp, "-b", 2))
      x.type = XX_BITS;
    else if (!strncmp(pp, "-e", 2))
      x.type = XX_LE;
    else if (!strncmp(pp, "-u", 2))
      x.upper = 1;
    else if (!strncmp(pp, "-p", 2))
      x.type = XX_PS;
    else if (!strncmp(pp, "-i", 2))
      x.type = XX_INCLUDE;
    else if (!strncmp(pp, "-C", 2))
      x.capitalize = 1;
    else if (!strncmp(pp, "-d", 2))
      x.decimal = 1;
    else if (!strncmp(pp, "-r", 2))
      revert++;
    else if (!strncmp(pp, "-E", 2)) {
      bi_error(c, "EBCDIC display (-E) is not supported");
      return 1;
    } else if (!strncmp(pp, "-v", 2)) {
      stream_puts(c->err, "xxd 2022-01-14 (vsh)\n");
      return 0;
    } else if (!strncmp(pp, "-c", 2)) {
      if (pp[2] && !strncmp("apitalize", pp + 2, 9)) {
        x.capitalize = 1;
        continue;
      }
      if (!(v = xx_value(c, &i, pp, "ols")))
        return xx_usage(c);
      x.cols = (int)xx_num(v);
    } else if (!strncmp(pp, "-g", 2)) {
      if (!(v = xx_value(c, &i, pp, "roup")))
        return xx_usage(c);
      x.grp = (int)xx_num(v);
    } else if (!strncmp(pp, "-o", 2)) {
      if (!(v = xx_value(c, &i, pp, "ffset")))
        return xx_usage(c);
      x.dispoff = xx_num(v);
    } else if (!strncmp(pp, "-s", 2)) {
      x.relseek = x.negseek = 0;
      if (pp[2] && strncmp("kip", pp + 2, 3) && strncmp("eek", pp + 2, 3))
        v = pp + 2;
      else if (i + 1 < c->argc)
        v = c->argv[++i];
      else
        return xx_usage(c);
      if (v[0] == '+')
        x.relseek = 1;
      if (v[x.relseek] == '-')
        x.negseek = 1;
      x.seek = xx_num(v + x.relseek + x.negseek);
    } else if (!strncmp(pp, "-l", 2)) {
      if (!(v = xx_value(c, &i, pp, "en")))
        return xx_usage(c);
      x.length = xx_num(v);
    } else if (!strncmp(pp, "-n", 2)) {
      if (!(v = xx_value(c, &i, pp, "ame")))
        return xx_usage(c);
      x.varname = v;
    } else if (!strcmp(pp, "--")) {
      i++;
      break;
    } else if (pp[0] == '-' && pp[1]) {
      return xx_usage(c);
    } else {
      break;
    }
  }
  if (x.cols < 0 || (!x.cols && x.type != XX_PS))
    x.cols = x.type == XX_PS        ? 30
             : x.type == XX_INCLUDE ? 12
             : x.type == XX_BITS    ? 6
                                    : 16;
  if (x.grp < 0)
    x.grp = x.type == XX_BITS     ? 1
            : x.type == XX_NORMAL ? 2
            : x.type == XX_LE     ? 4
                                  : 0;
  if ((x.type == XX_PS && x.cols < 0) || (x.type != XX_PS && x.cols < 1) ||
      ((x.type == XX_NORMAL || x.type == XX_BITS || x.type == XX_LE) &&
       x.cols > XX_MAXCOLS)) {
    bi_error(c, "invalid number of columns (max. %d).", XX_MAXCOLS);
    return 1;
  }
  if (x.grp < 1 || x.grp > x.cols)
    x.grp = x.cols;
  else if (x.type == XX_LE && (x.grp & (x.grp - 1))) {
    bi_error(c, "number of octets per group must be a power of 2 with -e.");
    return 1;
  }
  int nops = c->argc - i;
  if (nops > 2)
    return xx_usage(c);
  const char *inname = nops >= 1 && strcmp(c->argv[i], "-") ? c->argv[i] : 0;
  const char *outname =
      nops >= 2 && strcmp(c->argv[i + 1], "-") ? c->argv[i + 1] : 0;

  int err = 0;
  stream *in = bi_open_read(c, inname ? inname : "-", &err);
  if (!in) {
    tu_file_error_raw(c, inname ? inname : "-", err);
    return 2;
  }
  writer w;
  stream *out = c->out;
  xx_out o = {&w, NULL, 0};
  int status = 0;
  if (outname && !revert) {
    out = tu_open_write(c, outname, 0, &err);
    if (!out) {
      tu_file_error_raw(c, outname, err);
      stream_unref(in);
      return 3;
    }
  } else if (outname) {
    int e = vfs_open(c->vfs, c->cwd, outname, O_WRONLY | O_CREAT, 0666, &o.f);
    if (e < 0) {
      tu_file_error_raw(c, outname, -e);
      stream_unref(in);
      return 3;
    }
  }
  wr_init(&w, out);
  x.w = &w;
  const char *vp;
  size_t vn;
  if (stream_take_all(in, &vp, &vn) == 0) {
    x.view = (const unsigned char *)vp;
    x.vlen = vn;
  } else if (in->err == ECANCELED) {
    status = 1;
    goto done;
  } else {
    x.use_reader = 1;
    rd_init(&x.r, c->m, in);
    rd_flush_to(&x.r, &w);
  }

  if (revert) {
    if (x.type != XX_NORMAL && x.type != XX_PS) {
      bi_error(c, "Sorry, cannot revert this type of hexdump");
      status = 255;
    } else {
      status = xx_revert(&x, &o, x.negseek ? -x.seek : x.seek,
                         inname ? inname : "-");
    }
    goto done;
  }
  if (x.seek || x.negseek || !x.relseek) {
    if (!x.use_reader) {
      long long to = x.negseek ? (long long)x.vlen - x.seek : x.seek;
      if (to < 0) {
        bi_error(c, "Sorry, cannot seek.");
        status = 4;
        goto done;
      }
      x.seek = to;
      x.vpos = (size_t)to < x.vlen ? (size_t)to : x.vlen;
    } else {
      int e = 0;
      if (x.negseek)
        e = -1;
      for (long long s = x.seek; e >= 0 && s > 0; s--)
        e = xx_getc(&x);
      if (e == -2) {
        status = xx_read_err(&x, inname ? inname : "-");
        goto done;
      }
      if (e < 0) {
        bi_error(c, "Sorry, cannot seek.");
        status = 4;
        goto done;
      }
    }
  }
  status = xx_dump(&x, inname);
done:
  if (x.use_reader)
    rd_free(&x.r);
  stream_unref(in);
  if (wr_flush(&w) && !status)
    status = bi_stream_status(w.err);
  if (out != c->out)
    stream_unref(out);
  if (o.f)
    vfs_close(o.f);
  return status;
}
