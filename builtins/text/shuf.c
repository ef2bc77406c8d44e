/*
 * shuf.c - GNU shuf (coreutils 9.1): print the lines of the input, the
 * operands (-e) or the numbers LO..HI (-i) in random order.
 *
 * Every random byte comes from the sandbox's random hook (c->random), or
 * from the file --random-source names: a sandbox with a fixed hook shuffles
 * the same way every time. The order differs from GNU's for the same
 * source (GNU's exact draws are not reproduced), its distribution is the
 * same: each of the n! orders is equally likely (Fisher-Yates with
 * rejection sampling, so no modulo bias). -n COUNT prints at most COUNT
 * lines; -r picks with replacement, forever without -n (a limit of the
 * sandbox or a closed pipe ends it). A range's numbers are never all
 * held: the shuffle keeps only the positions it moved.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_shuf[] = "Usage: shuf [OPTION]... [FILE]\n"
                             "  or:  shuf -e [OPTION]... [ARG]...\n"
                             "  or:  shuf -i LO-HI [OPTION]...";
const char bi_help_shuf[] =
    "Print the lines of FILE (standard input when it is left out or -), the\n"
    "ARGs (-e) or the numbers LO to HI (-i) in a random order.\n"
    "\n"
    "  -e, --echo                take each ARG as a line\n"
    "  -i, --input-range=LO-HI   take the numbers LO to HI as the lines\n"
    "  -n, --head-count=COUNT    print COUNT lines at most\n"
    "  -o, --output=FILE         write to FILE (after all input is read)\n"
    "      --random-source=FILE  take the random bytes from FILE\n"
    "  -r, --repeat              lines may come again (without -n: "
    "forever)\n"
    "  -z, --zero-terminated     lines end with a NUL byte, not a newline\n"
    "      --help                print this summary and quit\n"
    "      --version             print the version line and quit\n";

enum { SH_RANDOM_SOURCE = 0x100 };

typedef struct sh_rand {
  bi_ctx *c;
  stream *src; /* --random-source, or NULL: the hook */
  const char *name;
  int eof; /* the source ran out (reported) */
  unsigned char pool[256];
  size_t pos, len;
} sh_rand;

static int rand_bytes(sh_rand *r, unsigned char *p, size_t n) {
  while (n) {
    if (r->pos == r->len) {
      if (!r->src) {
        r->c->random(r->c, r->pool, sizeof r->pool);
        r->len = sizeof r->pool;
      } else {
        long got = stream_read(r->src, r->pool, sizeof r->pool);
        if (got <= 0) {
          if (got < 0 && r->src->err == ECANCELED)
            return -1;
          if (got < 0)
            bi_error(r->c, "%s: %s", r->name, bi_strerror(r->src->err));
          else
            bi_error(r->c, "%s: end of file", tu_quote(r->c, r->name));
          r->eof = 1;
          return -1;
        }
        r->len = (size_t)got;
      }
      r->pos = 0;
    }
    *p++ = r->pool[r->pos++];
    n--;
  }
  return 0;
}

/* A uniform integer in [0, n), n > 0: as few bytes as n needs, and draws
 * past the last whole multiple of n thrown away. */
static int rand_below(sh_rand *r, uint64_t n, uint64_t *out) {
  if (n == 1) {
    *out = 0;
    return 0;
  }
  int bytes = 0;
  for (uint64_t t = n - 1; t; t >>= 8)
    bytes++;
  uint64_t span = bytes == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * bytes)) - 1;
  /* values 0..span; accept below the largest multiple of n that fits */
  uint64_t lim = span - (span % n + 1) % n;
  for (;;) {
    unsigned char b[8];
    if (rand_bytes(r, b, (size_t)bytes))
      return -1;
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
      v = v << 8 | b[i];
    if (v <= lim) {
      *out = v % n;
      return 0;
    }
    if (budget_poll(r->c->bud))
      return -1;
  }
}

/* The positions a partial Fisher-Yates shuffle of 0..n-1 has moved: an
 * open-addressing map from position to value (absent: the identity). */
typedef struct sh_map {
  mem *m;
  uint64_t *key, *val;
  size_t cap, used;
} sh_map;

static size_t map_slot(const sh_map *mp, uint64_t k) {
  size_t i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 17) & (mp->cap - 1);
  while (mp->key[i] != UINT64_MAX && mp->key[i] != k)
    i = (i + 1) & (mp->cap - 1);
  return i;
}

static uint64_t map_get(const sh_map *mp, uint64_t k) {
  if (!mp->cap)
    return k;
  size_t i = map_slot(mp, k);
  return mp->key[i] == k ? mp->val[i] : k;
}

static int map_put(sh_map *mp, uint64_t k, uint64_t v) {
  if ((mp->used + 1) * 2 > mp->cap) {
    size_t ncap = mp->cap ? mp->cap * 2 : 64;
    uint64_t *nk = mem_alloc(mp->m, ncap * sizeof *nk);
    uint64_t *nv = mem_alloc(mp->m, ncap * sizeof *nv);
    if (!nk || !nv) {
      mem_free(mp->m, nk);
      mem_free(mp->m, nv);
      return -1;
    }
    memset(nk, 0xff, ncap * sizeof *nk);
    sh_map big = {mp->m, nk, nv, ncap, mp->used};
    for (size_t i = 0; i < mp->cap; i++)
      if (mp->key[i] != UINT64_MAX) {
        size_t j = map_slot(&big, mp->key[i]);
        nk[j] = mp->key[i];
        nv[j] = mp->val[i];
      }
    mem_free(mp->m, mp->key);
    mem_free(mp->m, mp->val);
    *mp = big;
  }
  size_t i = map_slot(mp, k);
  if (mp->key[i] != k) {
    mp->key[i] = k;
    mp->used++;
  }
  mp->val[i] = v;
  return 0;
}

static void map_free(sh_map *mp) {
  mem_free(mp->m, mp->key);
  mem_free(mp->m, mp->val);
}

/* xdectoumax's answer for a decimal operand: 0 and *v, or -1 invalid, or
 * an errno value (EOVERFLOW past 64 bits, ERANGE above max). */
static int parse_dec(const char *s, uint64_t max, uint64_t *v) {
  while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
    s++;
  if (*s < '0' || *s > '9')
    return -1;
  uint64_t x = 0;
  int over = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
      over = 1;
    else
      x = x * 10 + (uint64_t)(*s - '0');
  }
  if (*s)
    return -1;
  if (over)
    return EOVERFLOW;
  if (x > max)
    return ERANGE;
  *v = x;
  return 0;
}

static int bad_range(bi_ctx *c, const char *arg, int why) {
  if (why > 0)
    bi_error(c, "invalid input range: %s: %s", tu_quote(c, arg),
             bi_strerror(why));
  else
    bi_error(c, "invalid input range: %s", tu_quote(c, arg));
  return 1;
}

/* One output line: item i of the lines, or the number lo + i. */
typedef struct sh_out {
  writer *w;
  char **line;
  size_t *len;
  uint64_t lo;
  int eol;
} sh_out;

static void put_item(sh_out *o, uint64_t i) {
  if (o->line) {
    wr_write(o->w, o->line[i], o->len[i]);
  } else {
    char num[24];
    int n = snprintf(num, sizeof num, "%llu", (unsigned long long)(o->lo + i));
    wr_write(o->w, num, (size_t)n);
  }
  wr_putc(o->w, o->eol);
}

int bi_shuf(bi_ctx *c) {
  static const bi_opt opts[] = {
      {"echo", 'e', BI_ARG_NONE},
      {"input-range", 'i', BI_ARG_REQUIRED},
      {"head-count", 'n', BI_ARG_REQUIRED},
      {"output", 'o', BI_ARG_REQUIRED},
      {"random-source", SH_RANDOM_SOURCE, BI_ARG_REQUIRED},
      {"repeat", 'r', BI_ARG_NONE},
      {"zero-terminated", 'z', BI_ARG_NONE},
      BI_OPTS_END};
  int echo = 0, range = 0, repeat = 0, eol = '\n', o;
  uint64_t head = UINT64_MAX, lo = 0, hi = 0, count = 0;
  const char *outfile = NULL, *source = NULL;
  bi_getopt g;
  bi_getopt_init(&g, c, "ei:n:o:rz", opts);
  while ((o = bi_getopt_each(&g, 1)) > 0) {
    switch (o) {
    case 'e':
      echo = 1;
      break;
    case 'i': {
      if (range) {
        bi_error(c, "multiple -i options specified");
        return 1;
      }
      range = 1;
      const char *dash = strchr(g.arg, '-');
      const char *his = g.arg;
      int r;
      if (dash) {
        char *los = arena_strndup(c->scratch, g.arg, (size_t)(dash - g.arg));
        if (!los) {
          bi_error(c, "memory exhausted");
          return 1;
        }
        if ((r = parse_dec(los, UINT64_MAX, &lo)))
          return bad_range(c, los, r);
        his = dash + 1;
      }
      if ((r = parse_dec(his, UINT64_MAX, &hi)))
        return bad_range(c, his, r);
      count = hi - lo + 1;
      if (!dash || (lo <= hi) == (count == 0))
        return bad_range(c, g.arg, 0);
      break;
    }
    case 'n': {
      uint64_t v;
      int r = parse_dec(g.arg, UINT64_MAX, &v);
      if (r == 0) {
        if (v < head)
          head = v;
      } else if (r != EOVERFLOW) {
        bi_error(c, "invalid line count: %s", tu_quote(c, g.arg));
        return 1;
      }
      break;
    }
    case 'o':
      if (outfile && strcmp(outfile, g.arg) != 0) {
        bi_error(c, "multiple output files specified");
        return 1;
      }
      outfile = g.arg;
      break;
    case SH_RANDOM_SOURCE:
      if (source && strcmp(source, g.arg) != 0) {
        bi_error(c, "multiple random sources specified");
        return 1;
      }
      source = g.arg;
      break;
    case 'r':
      repeat = 1;
      break;
    case 'z':
      eol = 0;
      break;
    }
  }
  if (o == BI_OPT_STOP)
    return g.status;
  if (echo && range) {
    bi_error(c, "cannot combine -e and -i options");
    bi_try_help(c);
    return 1;
  }
  if (range && g.noperands > 0) {
    tu_extra_operand(c, g.operands[0]);
    return 1;
  }
  if (!echo && !range && g.noperands > 1) {
    tu_extra_operand(c, g.operands[1]);
    return 1;
  }

  int status = 1;
  stream *in = NULL, *src = NULL, *out = NULL;
  buf copy;
  buf_init(&copy, c->m);
  char **line = NULL;
  size_t *len = NULL;
  sh_map map = {c->m, NULL, NULL, 0, 0};
  writer w;
  int wr_ready = 0;

  if (echo) {
    count = (uint64_t)g.noperands;
    line = arena_alloc(c->scratch, (count + 1) * sizeof *line);
    len = arena_alloc(c->scratch, (count + 1) * sizeof *len);
    if (!line || !len)
      goto oom;
    for (uint64_t i = 0; i < count; i++) {
      line[i] = g.operands[i];
      len[i] = strlen(g.operands[i]);
    }
  } else if (!range && head > 0) {
    const char *name = g.noperands ? g.operands[0] : "-";
    int err = 0;
    const char *d;
    size_t n;
    in = bi_open_read(c, name, &err);
    if (!in && err != EISDIR) {
      tu_file_error(c, name, err);
      goto out;
    }
    if (!in || tu_slurp(c, in, &d, &n, &copy, &err)) {
      if (err != ECANCELED) /* GNU opens a directory, then fails to read */
        bi_error(c, "read error: %s", bi_strerror(err));
      goto out;
    }
    for (size_t i = 0; i < n; i++) {
      if (d[i] == (char)eol)
        count++;
      if ((i & 0xfffff) == 0 && budget_poll(c->bud))
        goto out;
    }
    if (n && d[n - 1] != (char)eol)
      count++;
    line = mem_alloc(c->m, (size_t)(count + 1) * sizeof *line);
    len = mem_alloc(c->m, (size_t)(count + 1) * sizeof *len);
    if (!line || !len)
      goto oom;
    size_t k = 0, start = 0;
    for (size_t i = 0; i < n; i++)
      if (d[i] == (char)eol) {
        if ((k & 0xffff) == 0 && budget_poll(c->bud))
          goto out;
        line[k] = (char *)d + start;
        len[k++] = i - start;
        start = i + 1;
      }
    if (start < n) {
      line[k] = (char *)d + start;
      len[k++] = n - start;
    }
  }
  if (repeat && count == 0 && head > 0) {
    bi_error(c, "no lines to repeat");
    goto out;
  }

  sh_rand r = {c, NULL, source, 0, {0}, 0, 0};
  /* as GNU, the source is opened unless nothing is to be drawn at all */
  if (source && (repeat || (head > 0 && count > 0))) {
    int err = 0;
    src = bi_open_read(c, source, &err);
    if (!src) {
      bi_error(c, "%s: %s", source, bi_strerror(err));
      goto out;
    }
    r.src = src;
  }
  if (outfile) {
    int err = 0;
    out = tu_open_write(c, outfile, 0, &err);
    if (!out) {
      bi_error(c, "%s: %s", outfile, bi_strerror(err));
      goto out;
    }
  }
  wr_init(&w, out ? out : c->out);
  wr_ready = 1;
  sh_out so = {&w, line, len, lo, eol};
  if (repeat) {
    for (uint64_t i = 0; i < head && !w.err; i++) {
      uint64_t j;
      if (budget_poll(c->bud) || rand_below(&r, count, &j))
        goto out;
      put_item(&so, j);
    }
  } else {
    uint64_t n = head < count ? head : count;
    for (uint64_t i = 0; i < n && !w.err; i++) {
      uint64_t j;
      if (((i & 1023) == 0 && budget_poll(c->bud)) ||
          rand_below(&r, count - i, &j))
        goto out;
      j += i;
      uint64_t vi = map_get(&map, i), vj = map_get(&map, j);
      if (map_put(&map, j, vi))
        goto oom;
      put_item(&so, vj);
    }
  }
  status = 0;
  goto out;
oom:
  bi_error(c, "memory exhausted");
  status = 1;
out:
  if (wr_ready && wr_flush(&w) && status == 0) {
    if (out)
      bi_error(c, "write error: %s", bi_strerror(w.err));
    status = out ? 1 : bi_stream_status(w.err);
  }
  map_free(&map);
  if (!echo) {
    mem_free(c->m, line);
    mem_free(c->m, len);
  }
  if (in)
    stream_unref(in);
  if (src)
    stream_unref(src);
  if (out)
    stream_unref(out);
  buf_free(&copy);
  if (budget_poll(c->bud))
    return 1;
  return status;
}
