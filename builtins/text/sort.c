/*
 * sort.c - GNU sort, byte collation (LC_ALL=C semantics).
 *
 * All input is read into one buffer (a private copy: -o may name an input
 * file), cut into records, and merge sorted (stable, so -s and -u keep the
 * first of equal lines). Comparison follows GNU: the keys in order, each
 * with its own options or the global ones when it has none; then, unless
 * -s or -u, the whole records bytewise as a last resort (reversed by a
 * global -r). Fields, key limits, number and version comparisons follow
 * GNU's definitions (see the functions below).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/text/sort_radix.h"
#include "builtins/textutil.h"

const char bi_usage_sort[] = "Usage: sort [OPTION]... [FILE]...\n"
                             "  or:  sort [OPTION]... --files0-from=F";
const char bi_help_sort[] =
    "Sort the lines of all the FILEs together and print them to standard\n"
    "output.\n"
    "\n"
    "Standard input is read when no FILE is named, and wherever FILE is -.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "How lines compare:\n"
    "\n"
    "  -b, --ignore-leading-blanks  skip blanks at the start of each key\n"
    "  -d, --dictionary-order      skip all but blanks, letters and digits\n"
    "  -f, --ignore-case           compare lowercase letters as uppercase\n"
    "  -g, --general-numeric-sort  compare as floating-point numbers\n"
    "  -i, --ignore-nonprinting    skip non-printing characters when "
    "comparing\n"
    "  -M, --month-sort            compare as month names: anything else, "
    "then\n"
    "                                'JAN' through 'DEC'\n"
    "  -h, --human-numeric-sort    compare sizes with units, such as 2K or 1G\n"
    "  -n, --numeric-sort          compare the leading number of each key\n"
    "  -R, --random-sort           put lines in random order, keeping equal\n"
    "                                keys next to each other\n"
    "      --random-source=FILE    accepted for compatibility (the sandbox "
    "random\n"
    "                                source is used)\n"
    "  -r, --reverse               turn the order around\n"
    "      --sort=WORD             pick the comparison by name:\n"
    "                                general-numeric -g, human-numeric -h, "
    "month -M,\n"
    "                                numeric -n, random -R, version -V\n"
    "  -V, --version-sort          compare digit runs inside text as numbers,\n"
    "                                as in release names\n"
    "\n"
    "Everything else:\n"
    "\n"
    "      --batch-size=NMERGE   accepted for compatibility (no effect)\n"
    "  -c, --check, --check=diagnose-first  only test whether the input is\n"
    "                              sorted; report the first line out of order\n"
    "  -C, --check=quiet, --check=silent  as -c, but report nothing (exit "
    "status\n"
    "                              only)\n"
    "      --compress-program=PROG  accepted for compatibility (no effect)\n"
    "      --debug               accepted for compatibility (no annotation)\n"
    "      --files0-from=F       take the FILE names from file F, each ended "
    "by\n"
    "                              a NUL byte; an F of - means standard input\n"
    "  -k, --key=KEYDEF          compare by the key KEYDEF (where it lies in "
    "the\n"
    "                              line and how to compare it)\n"
    "  -m, --merge               combine inputs that are already sorted, "
    "without\n"
    "                              sorting them again\n"
    "  -o, --output=FILE         send the sorted lines to FILE\n"
    "  -s, --stable              keep lines with equal keys in input order "
    "(no\n"
    "                              whole-line tie-break)\n"
    "  -S, --buffer-size=SIZE    accepted for compatibility (no effect)\n"
    "  -t, --field-separator=SEP  fields are separated by SEP rather than by\n"
    "                              the space before each run of non-blanks\n"
    "  -T, --temporary-directory=DIR  accepted for compatibility (no effect)\n"
    "      --parallel=N          accepted for compatibility (no effect)\n"
    "  -u, --unique              with -c, also fail on equal neighbours; "
    "otherwise\n"
    "                              print one line from each set of equal "
    "lines\n"
    "  -z, --zero-terminated     records end with a NUL byte instead of a "
    "newline\n"
    "      --help                print this summary and quit\n"
    "      --version             print the version line and quit\n"
    "\n"
    "A KEYDEF is F[.C][OPTS][,F[.C][OPTS]]: where the key starts and, after "
    "the\n"
    "comma, where it stops. F counts fields and C characters within the "
    "field,\n"
    "both from 1; with no stop, the key runs to the end of the line. Unless "
    "-t\n"
    "or -b is given, a field includes the blanks in front of it, and C counts\n"
    "from the first of them. OPTS are letters from [bdfgiMhnRrV]; on a key "
    "they\n"
    "replace the ordering options given for the whole command. With no -k, "
    "the\n"
    "whole line is the key.\n"
    "\n"
    "SIZE may end in % (share of memory), b (bytes) or K (KiB, the unit when\n"
    "there is none), and likewise M, G, T, P, E, Z, Y, R, Q.\n"
    "\n"
    "Lines compare byte by byte, as under LC_ALL=C, whatever the locale\n"
    "settings say.\n";

enum { IGN_NONE = 0, IGN_DICT, IGN_PRINT };

typedef struct skey {
  size_t sword, schar, eword, echar; /* eword SIZE_MAX: to line end */
  int skipsb, skipeb, ignore, fold, numeric, gnum, human, month, random,
      version, reverse;
} skey;

typedef sr_line line;

typedef struct sorter {
  bi_ctx *c;
  skey *keys;
  int nkeys;
  int tab; /* -1: blank transitions */
  int stable, unique, reverse;
  uint64_t salt[2];
} sorter;

#define BLANK(ch) ((ch) == ' ' || (ch) == '\t' || (ch) == '\n')

/* ---- key limits -------------------------------------------------------- */

/* Past w fields from p: with -t, each field and the separator after it
 * (but for the last one's when eat_last is 0); without, each run of blanks
 * and the non-blanks after it. */
static const char *skip_fields(const sorter *s, const char *p, const char *lim,
                               size_t w, int eat_last) {
  if (s->tab >= 0) {
    while (p < lim && w--) {
      while (p < lim && (unsigned char)*p != s->tab)
        p++;
      if (p < lim && (w || eat_last))
        p++;
    }
  } else {
    while (p < lim && w--) {
      while (p < lim && BLANK(*p))
        p++;
      while (p < lim && !BLANK(*p))
        p++;
    }
  }
  return p;
}

/* Past n characters from p (leading blanks first when asked), at most to
 * lim. */
static const char *skip_chars(const char *p, const char *lim, int blanks,
                              size_t n) {
  if (blanks)
    while (p < lim && BLANK(*p))
      p++;
  return (size_t)(lim - p) < n ? lim : p + n;
}

static const char *key_start(const sorter *s, const skey *k, const char *p,
                             const char *lim) {
  p = skip_fields(s, p, lim, k->sword, 1);
  return skip_chars(p, lim, k->skipsb, k->schar);
}

static const char *key_end(const sorter *s, const skey *k, const char *p,
                           const char *lim) {
  if (k->eword == SIZE_MAX)
    return lim;
  size_t w = k->eword, ech = k->echar;
  if (ech == 0)
    w++; /* through the whole end field */
  p = skip_fields(s, p, lim, w, ech != 0);
  if (ech)
    p = skip_chars(p, lim, k->skipeb, ech);
  return p;
}

/* ---- comparisons ------------------------------------------------------- */

/* -n: decimal strings compared without conversion (any length). */
static int num_cmp(const char *a, const char *ae, const char *b,
                   const char *be) {
  while (a < ae && BLANK(*a))
    a++;
  while (b < be && BLANK(*b))
    b++;
  int na = a < ae && *a == '-', nb = b < be && *b == '-';
  a += na;
  b += nb;
  const char *ai = a, *bi = b;
  while (ai < ae && *ai == '0')
    ai++;
  while (bi < be && *bi == '0')
    bi++;
  const char *aie = ai, *bie = bi;
  while (aie < ae && isdigit((unsigned char)*aie))
    aie++;
  while (bie < be && isdigit((unsigned char)*bie))
    bie++;
  const char *af = aie, *afe = aie, *bf = bie, *bfe = bie;
  if (af < ae && *af == '.') {
    af++;
    afe = af;
    while (afe < ae && isdigit((unsigned char)*afe))
      afe++;
  }
  if (bf < be && *bf == '.') {
    bf++;
    bfe = bf;
    while (bfe < be && isdigit((unsigned char)*bfe))
      bfe++;
  }
  /* Trailing zeros of the fraction do not count. */
  while (afe > af && afe[-1] == '0')
    afe--;
  while (bfe > bf && bfe[-1] == '0')
    bfe--;
  int za = aie == ai && afe <= af, zb = bie == bi && bfe <= bf;
  if (za)
    na = 0;
  if (zb)
    nb = 0;
  if (na != nb)
    return na ? -1 : 1;
  int r;
  size_t la = (size_t)(aie - ai), lb = (size_t)(bie - bi);
  if (la != lb) {
    r = la < lb ? -1 : 1;
  } else {
    r = memcmp(ai, bi, la);
    if (!r) {
      const char *x = af, *y = bf;
      while (!r && (x < afe || y < bfe)) {
        int cx = x < afe ? *x++ : '0', cy = y < bfe ? *y++ : '0';
        r = cx - cy;
      }
    }
    r = r < 0 ? -1 : r > 0;
  }
  return na ? -r : r;
}

/* -h: sign, then SI unit, then the number. The unit is the byte right
 * after digits[.digits]; a number whose digits are all zero has none. */
static int unit_order(const char *p, const char *e) {
  while (p < e && BLANK(*p))
    p++;
  int neg = p < e && *p == '-';
  p += neg;
  int nonzero = 0;
  while (p < e && isdigit((unsigned char)*p))
    nonzero |= *p++ - '0';
  if (p < e && *p == '.')
    for (p++; p < e && isdigit((unsigned char)*p); p++)
      nonzero |= *p - '0';
  if (!nonzero || p >= e)
    return 0;
  static const char units[] = "KMGTPEZYRQ";
  int o = 0;
  if (*p == 'k')
    o = 1;
  else if (*p && strchr(units, *p))
    o = (int)(strchr(units, *p) - units) + 1;
  return neg ? -o : o;
}

static long double to_ld(const char *p, const char *e, int *ok) {
  char tmp[128];
  size_t n =
      (size_t)(e - p) < sizeof tmp - 1 ? (size_t)(e - p) : sizeof tmp - 1;
  memcpy(tmp, p, n);
  tmp[n] = 0;
  char *end;
  long double v = strtold(tmp, &end);
  *ok = end != tmp;
  return v;
}

static int gnum_cmp(const char *a, const char *ae, const char *b,
                    const char *be) {
  int oka, okb;
  long double x = to_ld(a, ae, &oka), y = to_ld(b, be, &okb);
  if (!oka)
    return okb ? -1 : 0;
  if (!okb)
    return 1;
  if (x < y)
    return -1;
  if (x > y)
    return 1;
  if (x == y)
    return 0;
  if (y == y) /* x is a NaN: NaNs before numbers */
    return -1;
  if (x == x)
    return 1;
  return 0;
}

static int month_of(const char *p, const char *e) {
  static const char names[] = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";
  while (p < e && BLANK(*p))
    p++;
  if (e - p < 3)
    return 0;
  char m[3];
  for (int i = 0; i < 3; i++)
    m[i] = (char)toupper((unsigned char)p[i]);
  for (int i = 0; i < 12; i++)
    if (memcmp(names + 3 * i, m, 3) == 0)
      return i + 1;
  return 0;
}

/* -V: GNU's filevercmp ordering. */
static int ver_order(const char *s, size_t pos, size_t len) {
  if (pos == len)
    return 0;
  unsigned char ch = (unsigned char)s[pos];
  if (isdigit(ch))
    return 0;
  if (isalpha(ch))
    return ch;
  if (ch == '~')
    return -1;
  return ch + 256;
}

static int ver_rev_cmp(const char *a, size_t al, const char *b, size_t bl) {
  size_t i = 0, j = 0;
  while (i < al || j < bl) {
    int first = 0;
    while ((i < al && !isdigit((unsigned char)a[i])) ||
           (j < bl && !isdigit((unsigned char)b[j]))) {
      int x = ver_order(a, i, al), y = ver_order(b, j, bl);
      if (x != y)
        return x - y;
      i++;
      j++;
    }
    while (i < al && a[i] == '0')
      i++;
    while (j < bl && b[j] == '0')
      j++;
    while (i < al && j < bl && isdigit((unsigned char)a[i]) &&
           isdigit((unsigned char)b[j])) {
      if (!first)
        first = a[i] - b[j];
      i++;
      j++;
    }
    if (i < al && isdigit((unsigned char)a[i]))
      return 1;
    if (j < bl && isdigit((unsigned char)b[j]))
      return -1;
    if (first)
      return first;
  }
  return 0;
}

/* Length of s without its file suffixes: trailing runs of a dot, a letter
 * or '~', then letters, digits and '~' (".tar.gz"). A suffix may start at
 * the very beginning (".bashrc" is all suffix), as GNU 9.1 sorts it. */
static size_t ver_prefix(const char *s, size_t n) {
  size_t pre = 0, i = 0;
  for (;;) {
    while (i + 1 < n && s[i] == '.' &&
           (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '~'))
      for (i += 2; i < n && (isalnum((unsigned char)s[i]) || s[i] == '~'); i++)
        ;
    if (i >= n)
      return pre;
    pre = ++i;
  }
}

static int ver_cmp(const char *a, size_t al, const char *b, size_t bl) {
  if (!al)
    return bl ? -1 : 0;
  if (!bl)
    return 1;
  if (a[0] == '.') {
    if (b[0] != '.')
      return -1;
    int ad = al == 1, bd = bl == 1;
    if (ad)
      return bd ? 0 : -1;
    if (bd)
      return 1;
    int add = a[1] == '.' && al == 2, bdd = b[1] == '.' && bl == 2;
    if (add)
      return bdd ? 0 : -1;
    if (bdd)
      return 1;
  } else if (b[0] == '.') {
    return 1;
  }
  size_t ap = ver_prefix(a, al), bp = ver_prefix(b, bl);
  int r = ver_rev_cmp(a, ap, b, bp);
  if (r || (ap == al && bp == bl))
    return r;
  return ver_rev_cmp(a, al, b, bl);
}

static uint64_t key_hash(const sorter *s, const char *p, size_t n) {
  /* FNV-1a mixed with the per-run salt, then a final avalanche. */
  uint64_t h = 1469598103934665603ull ^ s->salt[0];
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)p[i];
    h *= 1099511628211ull;
  }
  h ^= s->salt[1];
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

static int ignored(const skey *k, unsigned char ch) {
  if (k->ignore == IGN_DICT)
    return !isalnum(ch) && !BLANK(ch);
  if (k->ignore == IGN_PRINT)
    return !isprint(ch);
  return 0;
}

static int cmp_text(const skey *k, const char *a, const char *ae, const char *b,
                    const char *be) {
  if (!k->ignore && !k->fold) {
    size_t la = (size_t)(ae - a), lb = (size_t)(be - b);
    int d = memcmp(a, b, la < lb ? la : lb);
    if (d)
      return d;
    return la < lb ? -1 : la != lb;
  }
  for (;;) {
    while (a < ae && ignored(k, (unsigned char)*a))
      a++;
    while (b < be && ignored(k, (unsigned char)*b))
      b++;
    if (a >= ae || b >= be)
      break;
    int x = (unsigned char)*a, y = (unsigned char)*b;
    if (k->fold) {
      x = toupper(x);
      y = toupper(y);
    }
    if (x != y)
      return x - y;
    a++;
    b++;
  }
  return (a < ae) - (b < be);
}

static int key_cmp(const sorter *s, const line *x, const line *y) {
  for (int i = 0; i < s->nkeys; i++) {
    const skey *k = &s->keys[i];
    const char *xl = x->p + x->len, *yl = y->p + y->len;
    const char *a = key_start(s, k, x->p, xl), *b = key_start(s, k, y->p, yl);
    const char *ae = key_end(s, k, x->p, xl), *be = key_end(s, k, y->p, yl);
    if (ae < a)
      ae = a;
    if (be < b)
      be = b;
    int d;
    if (k->random) {
      uint64_t ha = key_hash(s, a, (size_t)(ae - a)),
               hb = key_hash(s, b, (size_t)(be - b));
      d = ha < hb ? -1 : ha > hb;
      if (!d)
        d = cmp_text(k, a, ae, b, be);
    } else if (k->numeric) {
      d = num_cmp(a, ae, b, be);
    } else if (k->human) {
      int ua = unit_order(a, ae), ub = unit_order(b, be);
      d = ua != ub ? (ua < ub ? -1 : 1) : num_cmp(a, ae, b, be);
    } else if (k->gnum) {
      d = gnum_cmp(a, ae, b, be);
    } else if (k->month) {
      d = month_of(a, ae) - month_of(b, be);
    } else if (k->version) {
      d = ver_cmp(a, (size_t)(ae - a), b, (size_t)(be - b));
    } else {
      d = cmp_text(k, a, ae, b, be);
    }
    if (d)
      return k->reverse ? (d < 0 ? 1 : -1) : d;
  }
  return 0;
}

static int line_cmp(const sorter *s, const line *x, const line *y) {
  int d;
  if (s->nkeys) {
    d = key_cmp(s, x, y);
    if (d || s->unique || s->stable)
      return d;
  }
  d = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
  if (!d)
    d = x->len < y->len ? -1 : x->len != y->len;
  return s->reverse ? -d : d;
}

/* Polls the budget once per 1024 lines of sorting work; a pass over
 * millions of lines takes tens of milliseconds, too long between checks of
 * the deadline and the cancel flag. */
static int sort_poll(const sorter *s, size_t done) {
  return (done & 1023) == 0 && s->c->bud && budget_poll(s->c->bud);
}

/* 1 when lines order as plain bytes over the whole line, -1 when in the
 * reverse of that order, 0 otherwise: no key, or one key over the whole
 * line (-k1, as -r makes) with no ordering option but -r. Then lines that
 * compare equal are equal bytes, and the radix sort may do the work. */
static int bytewise_order(const sorter *s) {
  if (!s->nkeys)
    return s->reverse ? -1 : 1;
  const skey *k = &s->keys[0];
  if (s->nkeys != 1 || k->sword || k->schar || k->eword != SIZE_MAX ||
      k->skipsb || k->skipeb || k->ignore || k->fold || k->gnum || k->human ||
      k->month || k->numeric || k->random || k->version)
    return 0;
  return k->reverse ? -1 : 1;
}

static int radix_poll(void *ud) {
  bi_ctx *c = ud;
  return c->bud && budget_poll(c->bud);
}

/* Stable merge sort of v[0..n) using tmp. Stops early (leaving v in some
 * order) when the budget says so; the caller checks the budget after. */
static void merge_sort(const sorter *s, line *v, line *tmp, size_t n) {
  /* Bottom-up: runs of 1 first sorted by insertion in blocks of 16. */
  const size_t blk = 16;
  for (size_t lo = 0; lo < n; lo += blk) {
    if (sort_poll(s, lo))
      return;
    size_t hi = lo + blk < n ? lo + blk : n;
    for (size_t i = lo + 1; i < hi; i++) {
      line t = v[i];
      size_t j = i;
      while (j > lo && line_cmp(s, &v[j - 1], &t) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = t;
    }
  }
  line *src = v, *dst = tmp;
  for (size_t w = blk; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      if (w < 1024 ? sort_poll(s, lo) : s->c->bud && budget_poll(s->c->bud))
        return;
      size_t mid = lo + w < n ? lo + w : n;
      size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      if (mid < hi && line_cmp(s, &src[mid - 1], &src[mid]) <= 0) {
        memcpy(dst + lo, src + lo, (hi - lo) * sizeof *src);
        continue;
      }
      while (i < mid && j < hi)
        dst[k++] = line_cmp(s, &src[j], &src[i]) < 0 ? src[j++] : src[i++];
      while (i < mid)
        dst[k++] = src[i++];
      while (j < hi)
        dst[k++] = src[j++];
    }
    line *t = src;
    src = dst;
    dst = t;
  }
  if (src != v)
    memcpy(v, src, n * sizeof *v);
}

/* ---- options ----------------------------------------------------------- */

/* Ordering letters; returns the first unknown char position. */
static const char *set_ordering(const char *p, skey *k, int where) {
  for (;; p++) {
    switch (*p) {
    case 'b':
      if (where != 2)
        k->skipsb = 1;
      if (where != 1)
        k->skipeb = 1;
      break;
    case 'd':
      k->ignore = IGN_DICT;
      break;
    case 'f':
      k->fold = 1;
      break;
    case 'g':
      k->gnum = 1;
      break;
    case 'h':
      k->human = 1;
      break;
    case 'i':
      if (!k->ignore)
        k->ignore = IGN_PRINT;
      break;
    case 'M':
      k->month = 1;
      break;
    case 'n':
      k->numeric = 1;
      break;
    case 'R':
      k->random = 1;
      break;
    case 'r':
      k->reverse = 1;
      break;
    case 'V':
      k->version = 1;
      break;
    default:
      return p;
    }
  }
}

static int has_ordering(const skey *k) {
  return k->skipsb || k->skipeb || k->ignore || k->fold || k->gnum ||
         k->human || k->month || k->numeric || k->random || k->reverse ||
         k->version;
}

static const char *count(const char *p, size_t *v, int *ok) {
  if (!isdigit((unsigned char)*p)) {
    *ok = 0;
    return p;
  }
  size_t n = 0;
  for (; isdigit((unsigned char)*p); p++)
    n = n > SIZE_MAX / 10 - 10 ? SIZE_MAX : n * 10 + (size_t)(*p - '0');
  *ok = 1;
  *v = n;
  return p;
}

static int bad_key(bi_ctx *c, const char *msg, const char *spec) {
  bi_error(c, "%s: invalid field specification %s", msg, tu_quote(c, spec));
  return -1;
}

/* A count of a key spec at p, or NULL after GNU's complaint (where: "at
 * field start", "after '.'" ...). */
static const char *key_count(bi_ctx *c, const char *p, size_t *v,
                             const char *where) {
  int ok;
  const char *q = count(p, v, &ok);
  if (!ok) {
    bi_error(c, "invalid number %s: invalid count at start of %s", where,
             tu_quote(c, p));
    return NULL;
  }
  return q;
}

static int parse_key(bi_ctx *c, const char *spec, skey *k) {
  memset(k, 0, sizeof *k);
  const char *p = key_count(c, spec, &k->sword, "at field start");
  if (!p)
    return -1;
  if (k->sword-- == 0)
    return bad_key(c, "field number is zero", spec);
  if (*p == '.') {
    if (!(p = key_count(c, p + 1, &k->schar, "after '.'")))
      return -1;
    if (k->schar-- == 0)
      return bad_key(c, "character offset is zero", spec);
  }
  if (!k->sword && !k->schar)
    k->sword = 0;
  p = set_ordering(p, k, 1);
  if (*p != ',') {
    k->eword = SIZE_MAX;
    k->echar = 0;
  } else {
    if (!(p = key_count(c, p + 1, &k->eword, "after ','")))
      return -1;
    if (k->eword-- == 0)
      return bad_key(c, "field number is zero", spec);
    if (*p == '.' && !(p = key_count(c, p + 1, &k->echar, "after '.'")))
      return -1;
    p = set_ordering(p, k, 2);
  }
  if (*p)
    return bad_key(c, "stray character in field spec", spec);
  return 0;
}

static int check_compat(bi_ctx *c, const skey *k) {
  int n = k->numeric + k->gnum + k->human + k->month +
          (k->version || k->random || k->ignore);
  if (n <= 1)
    return 0;
  char o[16];
  int i = 0;
  if (k->ignore == IGN_DICT)
    o[i++] = 'd';
  if (k->fold)
    o[i++] = 'f';
  if (k->gnum)
    o[i++] = 'g';
  if (k->human)
    o[i++] = 'h';
  if (k->ignore == IGN_PRINT)
    o[i++] = 'i';
  if (k->month)
    o[i++] = 'M';
  if (k->numeric)
    o[i++] = 'n';
  if (k->random)
    o[i++] = 'R';
  if (k->version)
    o[i++] = 'V';
  o[i] = 0;
  bi_error(c, "options '-%s' are incompatible", o);
  return -1;
}

/* ---- main -------------------------------------------------------------- */

static int read_input(bi_ctx *c, const char *name, buf *all, int delim,
                      int check) {
  int err = 0;
  stream *in = bi_open_read(c, name, &err);
  if (!in) {
    if (err == EISDIR)
      bi_error(c, "read failed: %s: %s", name, bi_strerror(err));
    else
      bi_error(c, "%s: %s: %s", check ? "open failed" : "cannot read",
               fu_quotef(c, name), bi_strerror(err));
    return -1;
  }
  const char *p;
  size_t n;
  buf copy;
  buf_init(&copy, c->m);
  int rc = 0;
  if (tu_slurp(c, in, &p, &n, &copy, &err) == 0) {
    if (buf_append(all, p, n) ||
        (n && p[n - 1] != delim && buf_putc(all, delim))) {
      bi_error(c, "%s", bi_strerror(ENOMEM));
      rc = -1;
    }
  } else {
    if (err != ECANCELED)
      bi_error(c, "read failed: %s: %s", name, bi_strerror(err));
    rc = -1;
  }
  buf_free(&copy);
  stream_unref(in);
  return rc;
}

int bi_sort(bi_ctx *c) {
  enum {
    O_SORT = 0x100,
    O_RANDSRC,
    O_BATCH,
    O_COMPRESS,
    O_DEBUG,
    O_FILES0,
    O_PARALLEL,
    O_CHECK
  };
  static const bi_opt opts[] = {
      {"ignore-leading-blanks", 'b', BI_ARG_NONE},
      {"dictionary-order", 'd', BI_ARG_NONE},
      {"ignore-case", 'f', BI_ARG_NONE},
      {"general-numeric-sort", 'g', BI_ARG_NONE},
      {"ignore-nonprinting", 'i', BI_ARG_NONE},
      {"month-sort", 'M', BI_ARG_NONE},
      {"human-numeric-sort", 'h', BI_ARG_NONE},
      {"numeric-sort", 'n', BI_ARG_NONE},
      {"random-sort", 'R', BI_ARG_NONE},
      {"random-source", O_RANDSRC, BI_ARG_REQUIRED},
      {"reverse", 'r', BI_ARG_NONE},
      {"sort", O_SORT, BI_ARG_REQUIRED},
      {"version-sort", 'V', BI_ARG_NONE},
      {"batch-size", O_BATCH, BI_ARG_REQUIRED},
      {"check", O_CHECK, BI_ARG_OPTIONAL},
      {"compress-program", O_COMPRESS, BI_ARG_REQUIRED},
      {"debug", O_DEBUG, BI_ARG_NONE},
      {"files0-from", O_FILES0, BI_ARG_REQUIRED},
      {"key", 'k', BI_ARG_REQUIRED},
      {"merge", 'm', BI_ARG_NONE},
      {"output", 'o', BI_ARG_REQUIRED},
      {"stable", 's', BI_ARG_NONE},
      {"buffer-size", 'S', BI_ARG_REQUIRED},
      {"field-separator", 't', BI_ARG_REQUIRED},
      {"temporary-directory", 'T', BI_ARG_REQUIRED},
      {"parallel", O_PARALLEL, BI_ARG_REQUIRED},
      {"unique", 'u', BI_ARG_NONE},
      {"zero-terminated", 'z', BI_ARG_NONE},
      BI_OPTS_END};
  sorter s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.tab = -1;
  skey global;
  memset(&global, 0, sizeof global);
  global.eword = SIZE_MAX;
  int check = 0, delim = '\n', ch;
  const char *outfile = NULL, *files0 = NULL;
  s.keys = arena_alloc(c->scratch, sizeof(skey) * (size_t)(c->argc + 1));
  if (!s.keys)
    return 2;
  bi_getopt g;
  bi_getopt_init(&g, c, "bcCdfghik:mMno:rRsS:t:T:uVyz", opts);
  while ((ch = bi_getopt_each(&g, 2)) > 0) {
    switch (ch) {
    case 'b':
    case 'd':
    case 'f':
    case 'g':
    case 'h':
    case 'i':
    case 'M':
    case 'n':
    case 'R':
    case 'r':
    case 'V': {
      char one[2] = {(char)ch, 0};
      set_ordering(one, &global, 0);
      break;
    }
    case O_SORT: {
      static const char *const w[] = {"general-numeric", "human-numeric",
                                      "month",           "numeric",
                                      "random",          "version"};
      static const char letters[] = "ghMnRV";
      int hit = -1;
      for (int i = 0; i < 6; i++)
        if (strcmp(g.arg, w[i]) == 0)
          hit = i;
      if (hit < 0) {
        tu_bad_arg(c, "invalid", "--sort", g.arg,
                   "  - 'general-numeric'\n  - 'human-numeric'\n"
                   "  - 'month'\n  - 'numeric'\n  - 'random'\n"
                   "  - 'version'\n");
        return 1; /* argmatch fails with 1, unlike the rest of sort */
      }
      char one[2] = {letters[hit], 0};
      set_ordering(one, &global, 0);
      break;
    }
    case 'c':
      check = 1;
      break;
    case 'C':
      check = 2;
      break;
    case O_CHECK:
      if (!g.arg || strcmp(g.arg, "diagnose-first") == 0) {
        check = 1;
      } else if (strcmp(g.arg, "quiet") == 0 || strcmp(g.arg, "silent") == 0) {
        check = 2;
      } else {
        tu_bad_arg(c, "invalid", "--check", g.arg,
                   "  - 'quiet', 'silent'\n  - 'diagnose-first'\n");
        return 1;
      }
      break;
    case 'k':
      if (parse_key(c, g.arg, &s.keys[s.nkeys]))
        return 2;
      s.nkeys++;
      break;
    case 'm':
      break; /* sorting sorted input merges it */
    case 'o':
      if (outfile && strcmp(outfile, g.arg) != 0) {
        bi_error(c, "multiple output files specified");
        return 2;
      }
      outfile = g.arg;
      break;
    case 's':
      s.stable = 1;
      break;
    case 't':
      if (!g.arg[0]) {
        bi_error(c, "empty tab");
        return 2;
      }
      if (g.arg[1]) {
        if (strcmp(g.arg, "\\0") == 0) {
          s.tab = 0;
          break;
        }
        bi_error(c, "multi-character tab %s", tu_quote(c, g.arg));
        return 2;
      }
      if (s.tab >= 0 && s.tab != (unsigned char)g.arg[0]) {
        bi_error(c, "incompatible tabs");
        return 2;
      }
      s.tab = (unsigned char)g.arg[0];
      break;
    case 'u':
      s.unique = 1;
      break;
    case 'z':
      delim = 0;
      break;
    case O_FILES0:
      files0 = g.arg;
      break;
    case 'S':
    case 'T':
    case 'y':
    case O_RANDSRC:
    case O_BATCH:
    case O_COMPRESS:
    case O_DEBUG:
    case O_PARALLEL:
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  /* Keys without options inherit the global ones. */
  for (int i = 0; i < s.nkeys; i++) {
    skey *k = &s.keys[i];
    if (!has_ordering(k)) {
      size_t sw = k->sword, sc = k->schar, ew = k->eword, ec = k->echar;
      *k = global;
      k->sword = sw;
      k->schar = sc;
      k->eword = ew;
      k->echar = ec;
    }
    if (check_compat(c, k))
      return 2;
  }
  if (!s.nkeys && has_ordering(&global)) {
    if (check_compat(c, &global))
      return 2;
    s.keys[s.nkeys++] = global;
  }
  s.reverse = global.reverse;
  if (c->random)
    c->random(c, s.salt, sizeof s.salt);

  /* Operands. */
  char **files = g.operands;
  int nfiles = g.noperands;
  if (files0) {
    if (nfiles) {
      tu_files0_conflict(c, files[0]);
      return 2;
    }
    int err = 0;
    stream *fs = bi_open_read(c, files0, &err);
    const char *p;
    size_t n;
    buf copy;
    buf_init(&copy, c->m);
    if (!fs || tu_slurp(c, fs, &p, &n, &copy, &err)) {
      if (!fs)
        bi_error(c, "open failed: %s: %s", fu_quotef(c, files0),
                 bi_strerror(err));
      else
        bi_error(c, "cannot read file names from %s", fu_quote(c, files0));
      stream_unref(fs);
      buf_free(&copy);
      return 2;
    }
    files = tu_split_names(c, p, n, &nfiles);
    stream_unref(fs);
    buf_free(&copy);
  }
  static char *dash[] = {"-", NULL};
  if (!nfiles) {
    files = dash;
    nfiles = 1;
  }
  if (check && nfiles > 1) {
    bi_error(c, "extra operand %s not allowed with -%c", fu_quote(c, files[1]),
             check == 1 ? 'c' : 'C');
    return 2;
  }
  buf all;
  buf_init(&all, c->m);
  for (int i = 0; i < nfiles; i++) {
    if (read_input(c, files[i], &all, delim, check)) {
      buf_free(&all);
      return 2;
    }
  }
  /* Records. */
  /* (plain loops over the bytes: with short lines, a call of memchr
   * per line costs more) */
  size_t nl = 0;
  for (size_t i = 0; i < all.len; i++)
    nl += all.data[i] == (char)delim;
  line *v = mem_alloc(c->m, (nl + 1) * sizeof *v);
  line *tmp = check ? NULL : mem_alloc(c->m, (nl + 1) * sizeof *v);
  if (!v || (!check && !tmp)) {
    mem_free(c->m, v);
    mem_free(c->m, tmp);
    buf_free(&all);
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 2;
  }
  size_t n = 0;
  for (size_t i = 0, start = 0; i < all.len; i++)
    if (all.data[i] == (char)delim) {
      v[n].p = all.data + start;
      v[n].len = i - start;
      n++;
      start = i + 1;
    }
  int rc = 0;
  if (check) {
    for (size_t i = 1; i < n; i++) {
      int d = line_cmp(&s, &v[i - 1], &v[i]);
      if (d > 0 || (s.unique && d == 0)) {
        if (check == 1) {
          stream_printf(c->err, "%s: %s:%zu: disorder: ", c->argv[0], files[0],
                        i + 1);
          stream_write(c->err, v[i].p, v[i].len);
          stream_puts(c->err, "\n");
        }
        rc = 1;
        break;
      }
    }
    mem_free(c->m, v);
    buf_free(&all);
    return rc;
  }
  int bytewise = bytewise_order(&s);
  if (!bytewise || sr_sort(c->m, v, tmp, n, bytewise < 0, radix_poll, c) < 0)
    merge_sort(&s, v, tmp, n);
  mem_free(c->m, tmp);
  if (c->bud && c->bud->stop) {
    mem_free(c->m, v);
    buf_free(&all);
    return 2;
  }
  stream *out = c->out;
  if (outfile) {
    int err = 0;
    out = tu_open_write(c, outfile, 0, &err);
    if (!out) {
      bi_error(c, "open failed: %s: %s", outfile, bi_strerror(err));
      mem_free(c->m, v);
      buf_free(&all);
      return 2;
    }
  }
  writer w;
  wr_init(&w, out);
  for (size_t i = 0; i < n; i++) {
    if (s.unique && i > 0 && line_cmp(&s, &v[i - 1], &v[i]) == 0)
      continue;
    wr_write(&w, v[i].p, v[i].len);
    wr_putc(&w, delim);
    if (w.err)
      break;
  }
  if (wr_flush(&w)) {
    if (outfile && w.err != ECANCELED) {
      bi_error(c, "write failed: %s: %s", outfile, bi_strerror(w.err));
      rc = 2;
    } else {
      rc = bi_stream_status(w.err);
    }
  }
  if (outfile)
    stream_unref(out);
  mem_free(c->m, v);
  buf_free(&all);
  return rc;
}
