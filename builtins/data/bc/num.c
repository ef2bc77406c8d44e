/*
 * num.c - the decimal numbers of bc and dc (see num.h).
 *
 * Schoolbook arithmetic on one digit a byte: exact products and powers,
 * truncating division, integer square roots by Newton's method. Every
 * outer loop polls the budget, so a long computation ends at the sandbox's
 * deadline; a result longer than env->max_digits is refused before it is
 * allocated.
 */
#include "builtins/data/bc/num.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int env_poll(bn_env *e) {
  if (e->err)
    return -1;
  if (budget_poll(e->bud)) {
    e->err = BN_ESTOP;
    return -1;
  }
  return 0;
}

bn *bn_new(bn_env *e, size_t len, size_t scale) {
  if (len == 0)
    len = 1;
  if (len > e->max_digits || scale > e->max_digits ||
      len + scale > e->max_digits) {
    if (!e->err)
      e->err = BN_ELIMIT;
    return NULL;
  }
  bn *a = mem_alloc(e->m, sizeof *a + len + scale);
  if (!a) {
    if (!e->err)
      e->err = BN_EOOM;
    return NULL;
  }
  a->neg = 0;
  a->len = len;
  a->scale = scale;
  a->d = (unsigned char *)(a + 1);
  memset(a->d, 0, len + scale);
  return a;
}

void bn_free(bn_env *e, bn *a) {
  if (a)
    mem_free(e->m, a);
}

bn *bn_copy(bn_env *e, const bn *a) {
  bn *r = bn_new(e, a->len, a->scale);
  if (r) {
    memcpy(r->d, a->d, a->len + a->scale);
    r->neg = a->neg;
  }
  return r;
}

int bn_is_zero(const bn *a) {
  for (size_t i = 0; i < a->len + a->scale; i++)
    if (a->d[i])
      return 0;
  return 1;
}

void bn_trim(bn *a) {
  size_t z = 0;
  while (z + 1 < a->len && a->d[z] == 0)
    z++;
  if (z) {
    memmove(a->d, a->d + z, a->len - z + a->scale);
    a->len -= z;
  }
  if (a->neg && bn_is_zero(a))
    a->neg = 0;
}

bn *bn_from_long(bn_env *e, long v) {
  char tmp[32];
  unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
  int n = 0;
  do {
    tmp[n++] = (char)(u % 10);
    u /= 10;
  } while (u);
  bn *a = bn_new(e, (size_t)n, 0);
  if (!a)
    return NULL;
  for (int i = 0; i < n; i++)
    a->d[i] = (unsigned char)tmp[n - 1 - i];
  a->neg = v < 0;
  return a;
}

/* The digit of weight 10^k. */
static unsigned dig(const bn *a, long k) {
  if (k >= (long)a->len || k < -(long)a->scale)
    return 0;
  return a->d[(long)a->len - 1 - k];
}

static int cmp_abs(const bn *a, const bn *b) {
  long hi = (long)(a->len > b->len ? a->len : b->len) - 1;
  long lo = -(long)(a->scale > b->scale ? a->scale : b->scale);
  for (long k = hi; k >= lo; k--) {
    unsigned x = dig(a, k), y = dig(b, k);
    if (x != y)
      return x < y ? -1 : 1;
  }
  return 0;
}

int bn_cmp(const bn *a, const bn *b) {
  int za = bn_is_zero(a), zb = bn_is_zero(b);
  int na = a->neg && !za, nb = b->neg && !zb;
  if (na != nb)
    return na ? -1 : 1;
  int c = cmp_abs(a, b);
  return na ? -c : c;
}

long bn_to_long(const bn *a, int *ok) {
  unsigned long v = 0;
  *ok = 1;
  for (size_t i = 0; i < a->len; i++) {
    if (v > (unsigned long)(LONG_MAX - 9) / 10) {
      *ok = 0;
      return 0;
    }
    v = v * 10 + a->d[i];
  }
  return a->neg ? -(long)v : (long)v;
}

bn *bn_rescale(bn_env *e, bn *a, size_t scale) {
  if (scale <= a->scale) {
    a->scale = scale;
    bn_trim(a);
    return a;
  }
  bn *r = bn_new(e, a->len, scale);
  if (r) {
    memcpy(r->d, a->d, a->len + a->scale);
    r->neg = a->neg;
  }
  bn_free(e, a);
  return r;
}

/* |a| + |b| or |a| - |b| (|a| >= |b|), sign left to the caller. */
static bn *add_abs(bn_env *e, const bn *a, const bn *b, int sub) {
  size_t len = (a->len > b->len ? a->len : b->len) + 1;
  size_t scale = a->scale > b->scale ? a->scale : b->scale;
  bn *r = bn_new(e, len, scale);
  if (!r)
    return NULL;
  int carry = 0;
  for (long k = -(long)scale; k < (long)len; k++) {
    int v = sub ? (int)dig(a, k) - (int)dig(b, k) - carry
                : (int)dig(a, k) + (int)dig(b, k) + carry;
    carry = 0;
    if (v < 0) {
      v += 10;
      carry = 1;
    } else if (v > 9) {
      v -= 10;
      carry = 1;
    }
    r->d[(long)len - 1 - k] = (unsigned char)v;
  }
  bn_trim(r);
  return r;
}

static bn *add_signed(bn_env *e, const bn *a, const bn *b, int bneg) {
  if (env_poll(e))
    return NULL;
  bn *r;
  if (a->neg == bneg) {
    r = add_abs(e, a, b, 0);
    if (r)
      r->neg = a->neg;
  } else if (cmp_abs(a, b) >= 0) {
    r = add_abs(e, a, b, 1);
    if (r)
      r->neg = a->neg;
  } else {
    r = add_abs(e, b, a, 1);
    if (r)
      r->neg = bneg;
  }
  if (r)
    bn_trim(r);
  return r;
}

bn *bn_add(bn_env *e, const bn *a, const bn *b) {
  return add_signed(e, a, b, b->neg);
}

bn *bn_sub(bn_env *e, const bn *a, const bn *b) {
  return add_signed(e, a, b, !b->neg);
}

/* The exact product, scale a->scale + b->scale. */
static bn *mul_exact(bn_env *e, const bn *a, const bn *b) {
  size_t na = a->len + a->scale, nb = b->len + b->scale;
  size_t n = na + nb;
  size_t scale = a->scale + b->scale;
  if (n > e->max_digits) {
    e->err = BN_ELIMIT;
    return NULL;
  }
  uint64_t *acc = mem_calloc(e->m, n, sizeof *acc);
  if (!acc) {
    e->err = BN_EOOM;
    return NULL;
  }
  for (size_t i = 0; i < na; i++) {
    if ((i & 63) == 0 && env_poll(e)) {
      mem_free(e->m, acc);
      return NULL;
    }
    unsigned x = a->d[i];
    if (!x)
      continue;
    for (size_t j = 0; j < nb; j++)
      acc[i + j + 1] += (uint64_t)x * b->d[j];
  }
  bn *r = bn_new(e, n - scale, scale);
  if (r) {
    uint64_t carry = 0;
    for (size_t i = n; i-- > 0;) {
      uint64_t v = acc[i] + carry;
      r->d[i] = (unsigned char)(v % 10);
      carry = v / 10;
    }
    r->neg = a->neg != b->neg;
    bn_trim(r);
  }
  mem_free(e->m, acc);
  return r;
}

bn *bn_mul(bn_env *e, const bn *a, const bn *b, size_t scale) {
  bn *r = mul_exact(e, a, b);
  if (!r)
    return NULL;
  size_t full = a->scale + b->scale, mx = scale;
  if (a->scale > mx)
    mx = a->scale;
  if (b->scale > mx)
    mx = b->scale;
  return bn_rescale(e, r, full < mx ? full : mx);
}

/* Digits of x as an integer with extra zeros appended, leading zeros off. */
static unsigned char *int_digits(bn_env *e, const bn *x, size_t zeros,
                                 size_t *n) {
  size_t nx = x->len + x->scale, s = 0;
  while (s + 1 < nx && x->d[s] == 0)
    s++;
  size_t m = nx - s + zeros;
  if (m > e->max_digits * 2 + 2) {
    e->err = BN_ELIMIT;
    return NULL;
  }
  unsigned char *p = mem_alloc(e->m, m ? m : 1);
  if (!p) {
    e->err = BN_EOOM;
    return NULL;
  }
  memcpy(p, x->d + s, nx - s);
  memset(p + nx - s, 0, zeros);
  *n = m;
  return p;
}

bn *bn_div(bn_env *e, const bn *a, const bn *b, size_t scale) {
  if (bn_is_zero(b)) {
    e->err = BN_EDIV0;
    return NULL;
  }
  /* Q = floor(A * 10^(sb + scale - sa) / B) with A, B the digit strings. */
  long ex = (long)b->scale + (long)scale - (long)a->scale;
  size_t nn, nd;
  unsigned char *num = int_digits(e, a, ex > 0 ? (size_t)ex : 0, &nn);
  unsigned char *den =
      num ? int_digits(e, b, ex < 0 ? (size_t)-ex : 0, &nd) : NULL;
  bn *q = NULL;
  unsigned char *rem = NULL;
  if (!den)
    goto out;
  q = bn_new(e, nn > scale ? nn - scale : 1, scale);
  rem = mem_calloc(e->m, nd + 1, 1);
  if (!q || !rem) {
    if (!e->err)
      e->err = BN_EOOM;
    bn_free(e, q);
    q = NULL;
    goto out;
  }
  /* rem holds nd + 1 digits; each step shifts in one digit of num. */
  size_t qn = q->len + q->scale;
  for (size_t i = 0; i < nn; i++) {
    if ((i & 63) == 0 && env_poll(e)) {
      bn_free(e, q);
      q = NULL;
      goto out;
    }
    memmove(rem, rem + 1, nd);
    rem[nd] = num[i];
    unsigned qd = 0;
    for (;;) {
      /* rem >= den ? (den padded with a leading zero) */
      int ge = 1;
      if (rem[0]) {
        ge = 1;
      } else {
        for (size_t k = 0; k < nd; k++)
          if (rem[k + 1] != den[k]) {
            ge = rem[k + 1] > den[k];
            break;
          }
      }
      if (!ge)
        break;
      int borrow = 0;
      for (size_t k = nd + 1; k-- > 0;) {
        int v = rem[k] - (k ? den[k - 1] : 0) - borrow;
        borrow = v < 0;
        rem[k] = (unsigned char)(v < 0 ? v + 10 : v);
      }
      qd++;
    }
    /* quotient digit i lands at position i of the nn-digit quotient */
    size_t pos = i + qn - nn;
    if (i + qn >= nn)
      q->d[pos] = (unsigned char)qd;
  }
  q->neg = a->neg != b->neg;
  bn_trim(q);
out:
  mem_free(e->m, num);
  mem_free(e->m, den);
  mem_free(e->m, rem);
  return q;
}

bn *bn_mod(bn_env *e, const bn *a, const bn *b, size_t scale) {
  size_t rscale = b->scale + scale;
  if (a->scale > rscale)
    rscale = a->scale;
  bn *q = bn_div(e, a, b, scale);
  if (!q)
    return NULL;
  bn *t = bn_mul(e, q, b, rscale);
  bn_free(e, q);
  if (!t)
    return NULL;
  bn *r = bn_sub(e, a, t);
  bn_free(e, t);
  return r ? bn_rescale(e, r, rscale) : NULL;
}

static int is_one(const bn *a) {
  if (a->len != 1 || a->d[0] != 1)
    return 0;
  for (size_t i = 0; i < a->scale; i++)
    if (a->d[1 + i])
      return 0;
  return 1;
}

bn *bn_pow(bn_env *e, const bn *a, const bn *b, size_t scale) {
  int ok;
  long ex = bn_to_long(b, &ok);
  if (!ok) {
    e->err = BN_EEXP;
    return NULL;
  }
  if (ex == 0)
    return bn_from_long(e, 1);
  int neg = ex < 0;
  unsigned long u = neg ? 0UL - (unsigned long)ex : (unsigned long)ex;
  size_t rscale;
  if (neg) {
    rscale = scale;
  } else {
    size_t mx = scale > a->scale ? scale : a->scale;
    rscale = a->scale && u > mx / a->scale ? mx : a->scale * u;
    if (rscale > mx)
      rscale = mx;
  }
  bn *r;
  if (bn_is_zero(a) || is_one(a)) {
    r = bn_copy(e, a);
    if (r && a->neg && !(u & 1))
      r->neg = 0;
  } else {
    size_t sig = a->len + a->scale;
    if (u > e->max_digits || (sig - 1) * u > e->max_digits) {
      e->err = BN_ELIMIT;
      return NULL;
    }
    bn *base = bn_copy(e, a);
    r = bn_from_long(e, 1);
    while (base && r && u) {
      if (env_poll(e))
        break;
      if (u & 1) {
        bn *t = mul_exact(e, r, base);
        bn_free(e, r);
        r = t;
      }
      u >>= 1;
      if (u && r) {
        bn *t = mul_exact(e, base, base);
        bn_free(e, base);
        base = t;
      }
    }
    bn_free(e, base);
    if (e->err) {
      bn_free(e, r);
      return NULL;
    }
  }
  if (!r)
    return NULL;
  if (neg) {
    bn *one = bn_from_long(e, 1);
    bn *q = one ? bn_div(e, one, r, rscale) : NULL;
    bn_free(e, one);
    bn_free(e, r);
    return q;
  }
  return bn_rescale(e, r, rscale);
}

bn *bn_sqrt(bn_env *e, const bn *a, size_t scale) {
  if (a->neg && !bn_is_zero(a)) {
    e->err = BN_ENEG;
    return NULL;
  }
  size_t rscale = scale > a->scale ? scale : a->scale;
  if (bn_is_zero(a))
    return bn_from_long(e, 0);
  if (is_one(a))
    return bn_from_long(e, 1);
  /* n = a * 10^(2 rscale) as an integer; r = floor(sqrt(n)). */
  size_t nn;
  unsigned char *nd = int_digits(e, a, 2 * rscale - a->scale, &nn);
  if (!nd)
    return NULL;
  bn *n = bn_new(e, nn, 0);
  if (!n) {
    mem_free(e->m, nd);
    return NULL;
  }
  memcpy(n->d, nd, nn);
  mem_free(e->m, nd);
  bn *x = bn_new(e, (nn + 1) / 2 + 1, 0); /* 10^ceil(nn/2) >= sqrt(n) */
  bn *two = bn_from_long(e, 2);
  if (x)
    x->d[0] = 1;
  while (x && two && !env_poll(e)) {
    bn *q = bn_div(e, n, x, 0);
    bn *s = q ? bn_add(e, x, q) : NULL;
    bn *y = s ? bn_div(e, s, two, 0) : NULL;
    bn_free(e, q);
    bn_free(e, s);
    if (!y)
      break;
    if (bn_cmp(y, x) >= 0) {
      bn_free(e, y);
      break;
    }
    bn_free(e, x);
    x = y;
  }
  bn_free(e, two);
  bn_free(e, n);
  if (e->err || !x) {
    bn_free(e, x);
    return NULL;
  }
  /* x is the root times 10^rscale: shift the point */
  bn *r = bn_new(e, x->len > rscale ? x->len - rscale : 1, rscale);
  if (r) {
    size_t nr = r->len + r->scale;
    for (size_t i = 0; i < x->len && i < nr; i++)
      r->d[nr - 1 - i] = x->d[x->len - 1 - i];
    bn_trim(r);
  }
  bn_free(e, x);
  return r;
}

size_t bn_length(const bn *a) {
  size_t n = a->len + a->scale, s = 0;
  if (a->len == 1 && a->d[0] == 0)
    return a->scale ? a->scale : 1;
  while (s + 1 < n && a->d[s] == 0)
    s++;
  return n - s;
}

static unsigned digit_value(char ch) {
  if (ch >= '0' && ch <= '9')
    return (unsigned)(ch - '0');
  return (unsigned)(ch - 'A' + 10);
}

bn *bn_parse(bn_env *e, const char *s, size_t n, int ibase, int clamp) {
  size_t dot = n;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '.') {
      dot = i;
      break;
    }
  size_t il = dot, fl = dot < n ? n - dot - 1 : 0;
  if (n == 1 && dot == n) /* a lone digit keeps its value */
    return bn_from_long(e, (long)digit_value(s[0]));
  unsigned top = clamp ? (unsigned)ibase - 1 : 35;
  if (ibase == 10 && clamp) {
    bn *r = bn_new(e, il, fl);
    if (!r)
      return NULL;
    for (size_t i = 0; i < il; i++) {
      unsigned v = digit_value(s[i]);
      r->d[r->len - il + i] = (unsigned char)(v > top ? top : v);
    }
    for (size_t i = 0; i < fl; i++) {
      unsigned v = digit_value(s[dot + 1 + i]);
      r->d[r->len + i] = (unsigned char)(v > top ? top : v);
    }
    bn_trim(r);
    return r;
  }
  bn *base = bn_from_long(e, ibase);
  bn *r = bn_from_long(e, 0);
  for (size_t i = 0; r && base && i < il; i++) {
    unsigned v = digit_value(s[i]);
    bn *dv = bn_from_long(e, v > top ? top : v);
    bn *t = dv ? bn_mul(e, r, base, 0) : NULL;
    bn *u = t ? bn_add(e, t, dv) : NULL;
    bn_free(e, dv);
    bn_free(e, t);
    bn_free(e, r);
    r = u;
  }
  if (r && base && fl) {
    bn *f = bn_from_long(e, 0), *mult = bn_from_long(e, 1);
    for (size_t i = 0; f && mult && i < fl; i++) {
      unsigned v = digit_value(s[dot + 1 + i]);
      bn *dv = bn_from_long(e, v > top ? top : v);
      bn *t = dv ? bn_mul(e, f, base, 0) : NULL;
      bn *u = t ? bn_add(e, t, dv) : NULL;
      bn *m2 = bn_mul(e, mult, base, 0);
      bn_free(e, dv);
      bn_free(e, t);
      bn_free(e, f);
      bn_free(e, mult);
      f = u;
      mult = m2;
    }
    bn *q = f && mult ? bn_div(e, f, mult, fl) : NULL;
    bn *sum = q ? bn_add(e, r, q) : NULL;
    bn_free(e, q);
    bn_free(e, f);
    bn_free(e, mult);
    bn_free(e, r);
    r = sum;
  }
  bn_free(e, base);
  if (e->err) {
    bn_free(e, r);
    return NULL;
  }
  return r;
}

/* ---- output ------------------------------------------------------------ */

void bn_out_char(bn_out *o, int ch) {
  if (ch == '\n') {
    o->col = 0;
  } else if (o->line_len > 0 && ++o->col == o->line_len - 1) {
    wr_write(o->w, "\\\n", 2);
    o->col = 1;
  }
  wr_putc(o->w, ch);
}

void bn_out_str(bn_out *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    bn_out_char(o, (unsigned char)s[i]);
}

static void out_group(bn_out *o, unsigned long v, int width, int space) {
  char tmp[48];
  if (space)
    bn_out_char(o, ' ');
  int n = snprintf(tmp, sizeof tmp, "%0*lu", width, v);
  bn_out_str(o, tmp, (size_t)n);
}

int bn_print(bn_env *e, bn_out *o, const bn *a, int obase) {
  if (a->neg && !bn_is_zero(a))
    bn_out_char(o, '-');
  if (bn_is_zero(a)) {
    bn_out_char(o, '0');
    return 0;
  }
  int intzero = a->len == 1 && a->d[0] == 0;
  if (obase == 10) {
    if (!intzero)
      for (size_t i = 0; i < a->len; i++)
        bn_out_char(o, '0' + a->d[i]);
    if (a->scale) {
      bn_out_char(o, '.');
      for (size_t i = 0; i < a->scale; i++)
        bn_out_char(o, '0' + a->d[a->len + i]);
    }
    return 0;
  }
  static const char hex[] = "0123456789ABCDEF";
  int width = 0;
  for (unsigned long t = (unsigned long)obase - 1; t; t /= 10)
    width++;
  /* integer part: repeated short division, digits collected low first */
  if (!intzero) {
    size_t n = a->len;
    unsigned char *q = mem_memdup(e->m, a->d, n);
    /* a decimal digit makes at most log2(10) < 4 digits of base 2 */
    unsigned long *outd = mem_alloc(e->m, (4 * n + 2) * sizeof *outd);
    size_t nd = 0, first = 0;
    if (!q || !outd) {
      mem_free(e->m, q);
      mem_free(e->m, outd);
      e->err = BN_EOOM;
      return -1;
    }
    while (first < n) {
      if ((nd & 63) == 0 && env_poll(e)) {
        mem_free(e->m, q);
        mem_free(e->m, outd);
        return -1;
      }
      uint64_t rem = 0;
      for (size_t i = first; i < n; i++) {
        uint64_t v = rem * 10 + q[i];
        q[i] = (unsigned char)(v / (unsigned long)obase);
        rem = v % (unsigned long)obase;
      }
      outd[nd++] = (unsigned long)rem;
      while (first < n && q[first] == 0)
        first++;
    }
    while (nd-- > 0) {
      if (obase <= 16)
        bn_out_char(o, hex[outd[nd]]);
      else
        out_group(o, outd[nd], width, 1);
    }
    mem_free(e->m, q);
    mem_free(e->m, outd);
  }
  if (a->scale) {
    bn_out_char(o, '.');
    size_t s = a->scale;
    unsigned char *f = mem_memdup(e->m, a->d + a->len, s);
    bn *t = bn_from_long(e, 1), *b = bn_from_long(e, obase);
    int first = 1;
    while (f && t && b && t->len <= s) {
      if (env_poll(e))
        break;
      uint64_t carry = 0;
      for (size_t i = s; i-- > 0;) {
        uint64_t v = (uint64_t)f[i] * (unsigned long)obase + carry;
        f[i] = (unsigned char)(v % 10);
        carry = v / 10;
      }
      if (obase <= 16)
        bn_out_char(o, hex[carry]);
      else
        out_group(o, (unsigned long)carry, width, !first);
      first = 0;
      bn *t2 = bn_mul(e, t, b, 0);
      bn_free(e, t);
      t = t2;
    }
    if (!f && !e->err)
      e->err = BN_EOOM;
    mem_free(e->m, f);
    bn_free(e, t);
    bn_free(e, b);
    if (e->err)
      return -1;
  }
  return 0;
}
