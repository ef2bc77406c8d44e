/*
 * tar_read.c - hydrate: read a whole tar (plain or gzip, from a buffer or
 * a read callback) and validate it against the workspace rules, then
 * extract it (tar_extract.c). Nothing is written before every member and
 * the destination passed; extraction runs on top of an O(1) snapshot and
 * rolls back to it if anything fails half way.
 *
 * What persist writes comes back exactly: modes with their setuid, setgid
 * and sticky bits, mtimes to the second (or what a pax mtime holds), symlink
 * targets as written, hard links, empty directories. Parents missing from
 * the archive are created (0777 & ~umask), as GNU tar does. Symlink targets
 * are data: absolute ones and ones that climb out of the destination are
 * kept, since every lookup in the sandbox resolves inside its own namespace
 * and extraction never writes through a symlink (members under a symlink
 * member, or through an existing symlink, are refused). A hard link must
 * name a regular-file member that comes earlier in the same archive.
 * Backslashes and "C:" prefixes are ordinary name bytes. Absolute names,
 * `..` components, devices, FIFOs and other special members are refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "vfs/tar.h"

int tar_reject(hctx *h, const char *name, const char *fmt, ...) {
  if (h->msgcap) {
    char rule[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rule, sizeof rule, fmt, ap);
    va_end(ap);
    /* a very long name is shortened in the middle so the rule still shows */
    const char *nm = name ? name : "?";
    size_t nl = strlen(nm);
    if (nl > 120)
      snprintf(h->msg, h->msgcap, "member '%.60s...%s': %s", nm, nm + nl - 40,
               rule);
    else
      snprintf(h->msg, h->msgcap, "member '%s': %s", nm, rule);
  }
  return -EBADMSG;
}

#define reject tar_reject

/* ---- header parsing ---- */

static int parse_octal(const char *f, size_t w, uint64_t *x) {
  *x = 0;
  size_t i = 0;
  while (i < w && (f[i] == ' ' || f[i] == 0))
    i++;
  if (i < w && (unsigned char)f[0] & 0x80)
    return -1; /* base-256: not produced for anything we accept */
  for (; i < w && f[i] >= '0' && f[i] <= '7'; i++) {
    if (*x >> 60)
      return -1;
    *x = *x << 3 | (uint64_t)(f[i] - '0');
  }
  for (; i < w; i++)
    if (f[i] != ' ' && f[i] != 0)
      return -1;
  return 0;
}

static bool checksum_ok(const unsigned char *hd) {
  uint64_t want;
  if (parse_octal((const char *)hd + 148, 8, &want))
    return false;
  /* the block's byte sum eight bytes at a time (16-bit lanes), and how
   * many bytes have their high bit set (for the signed sum) */
  const uint64_t lo8 = 0x00ff00ff00ff00ffULL, one = 0x0101010101010101ULL;
  uint64_t lanes = 0, highs = 0;
  for (int i = 0; i < 512; i += 8) {
    uint64_t w;
    memcpy(&w, hd + i, 8);
    lanes += (w & lo8) + ((w >> 8) & lo8);
    highs += (w >> 7) & one;
  }
  uint64_t us = (lanes & 0xffff) + ((lanes >> 16) & 0xffff) +
                ((lanes >> 32) & 0xffff) + (lanes >> 48);
  highs = (highs & lo8) + ((highs >> 8) & lo8);
  uint64_t nhigh = (highs * 0x0001000100010001ULL) >> 48;
  /* the checksum field counts as eight spaces */
  for (int i = 148; i < 156; i++) {
    us -= hd[i];
    nhigh -= hd[i] >> 7;
  }
  us += 8 * ' ';
  long ss = (long)us - 256 * (long)nhigh;
  return want == us || (long)want == ss;
}

/* Parse pax records into path/linkpath/size overrides. */
/* A pax time: [-]seconds[.fraction], as ns; -1 when malformed. */
static int pax_time(const char *p, size_t n, int64_t *ns) {
  size_t i = 0;
  bool neg = n && p[0] == '-';
  if (neg)
    i++;
  int64_t sec = 0, frac = 0, scale = 1000000000;
  if (i == n)
    return -1;
  for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
    if (sec > INT64_MAX / 10 / 1000000000)
      return -1;
    sec = sec * 10 + (p[i] - '0');
  }
  if (i < n && p[i] == '.')
    for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++)
      if (scale > 1) {
        scale /= 10;
        frac += (p[i] - '0') * scale;
      }
  if (i != n)
    return -1;
  *ns = neg ? -(sec * 1000000000 + frac) : sec * 1000000000 + frac;
  return 0;
}

static int parse_pax(hctx *h, const char *p, size_t n, buf *path, buf *link,
                     uint64_t *size, bool *has_size, int64_t *mtime,
                     bool *has_mtime) {
  size_t i = 0;
  while (i < n) {
    size_t len = 0, j = i;
    while (j < n && p[j] >= '0' && p[j] <= '9' && len < 1u << 30)
      len = len * 10 + (size_t)(p[j++] - '0');
    if (j >= n || p[j] != ' ' || len == 0 || i + len > n ||
        p[i + len - 1] != '\n')
      return reject(h, "(pax header)", "malformed pax record");
    const char *kv = p + j + 1, *end = p + i + len - 1;
    const char *eq = memchr(kv, '=', (size_t)(end - kv));
    if (!eq)
      return reject(h, "(pax header)", "malformed pax record");
    size_t kl = (size_t)(eq - kv), vl = (size_t)(end - eq - 1);
    buf *dst = NULL;
    if (kl == 4 && !memcmp(kv, "path", 4))
      dst = path;
    else if (kl == 8 && !memcmp(kv, "linkpath", 8))
      dst = link;
    else if (kl == 4 && !memcmp(kv, "size", 4)) {
      uint64_t x = 0;
      for (size_t k = 0; k < vl; k++) {
        if (eq[1 + k] < '0' || eq[1 + k] > '9' || x > UINT64_MAX / 10)
          return reject(h, "(pax header)", "bad pax size");
        x = x * 10 + (uint64_t)(eq[1 + k] - '0');
      }
      *size = x;
      *has_size = true;
    } else if (kl == 5 && !memcmp(kv, "mtime", 5)) {
      if (pax_time(eq + 1, vl, mtime))
        return reject(h, "(pax header)", "bad pax mtime");
      *has_mtime = true;
    }
    if (dst) {
      buf_clear(dst);
      if (buf_append(dst, eq + 1, vl))
        return -ENOMEM;
      if (memchr(eq + 1, 0, vl))
        return reject(h, "(pax header)", "NUL byte in a name");
    }
    i += len;
  }
  return 0;
}

/* Normalise a member name; 0 or a rejection. */
static int norm_name(hctx *h, const char *raw, size_t rl, buf *out) {
  buf_clear(out);
  if (buf_append(out, "", 0))
    return -ENOMEM;
  /* A backslash or a "C:" prefix is an ordinary byte of a name here (as
   * for GNU tar on Linux): the sandbox never reads them as separators or
   * drives, and persist writes such names, so refusing them would lose
   * files on a round trip. */
  if (rl && raw[0] == '/')
    return reject(h, raw, "absolute path");
  size_t i = 0;
  while (i < rl) {
    while (i < rl && raw[i] == '/')
      i++;
    size_t s = i;
    while (i < rl && raw[i] != '/')
      i++;
    size_t len = i - s;
    if (!len || (len == 1 && raw[s] == '.'))
      continue;
    if (len == 2 && raw[s] == '.' && raw[s + 1] == '.')
      return reject(h, raw, "'..' component");
    if (len > VFS_NAME_MAX)
      return reject(h, raw, "name component longer than 255 bytes");
    if ((out->len && buf_putc(out, '/')) || buf_append(out, raw + s, len))
      return -ENOMEM;
  }
  if (out->len > VFS_PATH_MAX)
    return reject(h, raw, "path longer than 4095 bytes");
  return 0;
}

static int add_member(hctx *h, member *m) {
  if (h->n == h->cap) {
    size_t nc = h->cap ? h->cap * 2 : 64;
    member *p = mem_realloc(h->v->m, h->ms, nc * sizeof *p);
    if (!p)
      return -ENOMEM;
    h->ms = p;
    h->cap = nc;
  }
  h->ms[h->n++] = *m;
  return 0;
}

/* n bytes of the stream read and dropped; short: 1. */
static int skip(tsrc *s, uint64_t n) {
  char sink[4096];
  while (n) {
    size_t want = n < sizeof sink ? (size_t)n : sizeof sink, got = 0;
    int rc = tar_src_read(s, sink, want, &got);
    if (rc)
      return rc;
    if (got < want)
      return 1;
    n -= got;
  }
  return 0;
}

static bool is_file(char type) {
  return type == '0' || type == '\0' || type == '7';
}

/* A member's data (size bytes, then padding to a block) from an input that
 * is not in place: an extended header's into ext, a regular file's into a
 * blob of its own (*b) when it may fit the quota (otherwise the quota
 * check refuses the archive later and the bytes are not kept), anything
 * else's dropped. 0, 1 when the stream ends inside, or -errno. */
static int read_data(hctx *h, tsrc *s, char type, uint64_t size, buf *ext,
                     blob **b) {
  vfs *v = h->v;
  *b = NULL;
  uint64_t pad = (512 - size % 512) % 512;
  int rc = 0;
  size_t got = 0;
  if (type == 'x' || type == 'L' || type == 'K') {
    buf_clear(ext);
    char chunk[4096];
    for (uint64_t left = size; left && !rc;) {
      size_t want = left < sizeof chunk ? (size_t)left : sizeof chunk;
      if (!(rc = tar_src_read(s, chunk, want, &got)) && got < want)
        rc = 1;
      if (!rc && buf_append(ext, chunk, got))
        rc = -ENOMEM;
      left -= got;
    }
  } else if (is_file(type) && size) {
    uint64_t used = v->bytes + h->total, room = 0;
    if (used < v->max_bytes)
      room = v->max_bytes - used;
    if (TAR_MAX_EXTRACT - h->total < room)
      room = TAR_MAX_EXTRACT - h->total;
    if (size > room || size > SIZE_MAX / 2)
      return skip(s, size + pad);
    if (!(*b = blob_new(v->m, NULL, 0, (size_t)size)))
      return -ENOMEM;
    if (!(rc = tar_src_read(s, (*b)->data, (size_t)size, &got)) && got < size)
      rc = 1;
    (*b)->len = got;
    (*b)->data[got] = 0;
  } else {
    rc = skip(s, size);
  }
  if (!rc)
    rc = skip(s, pad);
  if (rc) {
    blob_unref(*b);
    *b = NULL;
  }
  return rc;
}

static int parse(hctx *h, tsrc *s) {
  buf pax_path, pax_link, name, lname, ext;
  buf_init(&pax_path, h->v->m);
  buf_init(&pax_link, h->v->m);
  buf_init(&name, h->v->m);
  buf_init(&lname, h->v->m);
  buf_init(&ext, h->v->m);
  bool have_path = false, have_link = false, have_size = false;
  bool have_mtime = false;
  bool in_place = tar_src_in_place(s);
  uint64_t pax_size = 0;
  int64_t pax_mtime = 0;
  size_t index = 0;
  int rc = 0;
  unsigned char block[512];
  blob *pend = NULL; /* a file's content read, until its member is kept */
  while (!rc) {
    const unsigned char *hd = block;
    size_t got = 0;
    if (in_place)
      hd = (const unsigned char *)tar_src_take(s, 512, &got);
    else if ((rc = tar_src_read(s, block, 512, &got)))
      break;
    if (got < 512) {
      /* the end-of-archive blocks may be missing (GNU tar accepts that);
       * a header cut short may not */
      rc = got == 0 ? 0
                    : reject(h, "(archive)",
                             "unexpected EOF in archive (header cut short)");
      break;
    }
    bool zero = true;
    for (int i = 0; i < 512 && zero; i++)
      zero = hd[i] == 0;
    if (zero)
      break; /* end of archive */
    char raw[257];
    size_t rl = strnlen((const char *)hd, 100);
    if (!checksum_ok(hd)) {
      memcpy(raw, hd, rl);
      raw[rl] = 0;
      rc = reject(h, raw, "bad header checksum");
      break;
    }
    /* ustar prefix */
    size_t pl = 0;
    if (!memcmp(hd + 257, "ustar", 5))
      pl = strnlen((const char *)hd + 345, 155);
    if (pl) {
      memcpy(raw, hd + 345, pl);
      raw[pl] = '/';
      memcpy(raw + pl + 1, hd, rl);
      rl += pl + 1;
    } else {
      memcpy(raw, hd, rl);
    }
    raw[rl] = 0;
    uint64_t size;
    if (parse_octal((const char *)hd + 124, 12, &size)) {
      rc = reject(h, raw, "bad size field");
      break;
    }
    if (have_size)
      size = pax_size;
    char type = (char)hd[156];
    const char *data = NULL;
    if (size > UINT64_MAX - 511) {
      rc = 1;
    } else if (in_place) {
      uint64_t padded = (size + 511) / 512 * 512;
      if (padded > s->mlen - s->mpos)
        rc = 1;
      else
        data = tar_src_take(s, (size_t)padded, &got);
    } else {
      rc = read_data(h, s, type, size, &ext, &pend);
      data = buf_cstr(&ext);
    }
    if (rc == 1) /* data or its padding cut off: GNU tar's unexpected EOF */
      rc = reject(h, raw, "unexpected EOF in archive (data cut short)");
    if (rc)
      break;
    index++;
    if (type == 'x' || type == 'g' || type == 'L' || type == 'K') {
      if (type == 'x') {
        rc = parse_pax(h, data, (size_t)size, &pax_path, &pax_link, &pax_size,
                       &have_size, &pax_mtime, &have_mtime);
        have_path |= pax_path.len > 0;
        have_link |= pax_link.len > 0;
      } else if (type == 'L' || type == 'K') {
        buf *dst = type == 'L' ? &pax_path : &pax_link;
        buf_clear(dst);
        if (buf_append(dst, data, strnlen(data, (size_t)size)))
          rc = -ENOMEM;
        if (type == 'L')
          have_path = true;
        else
          have_link = true;
      }
      continue;
    }
    const char *nm = have_path ? buf_cstr(&pax_path) : raw;
    size_t nml = have_path ? pax_path.len : rl;
    member m = {.index = index, .size = size, .b = pend};
    if (in_place)
      m.data = data;
    uint64_t mode;
    int64_t mtime = 0;
    uint64_t mt;
    if (parse_octal((const char *)hd + 100, 8, &mode))
      mode = 0644;
    if (have_mtime)
      mtime = pax_mtime;
    else if (!parse_octal((const char *)hd + 136, 12, &mt) &&
             mt <= INT64_MAX / 1000000000)
      mtime = (int64_t)mt * 1000000000;
    m.mode = (unsigned)mode & 07777;
    m.mtime = mtime;
    switch (type) {
    case '0':
    case '\0':
    case '7':
      m.type = M_FILE;
      break;
    case '5':
      m.type = M_DIR;
      m.size = 0;
      break;
    case '2':
      m.type = M_LINK;
      m.size = 0;
      break;
    case '1':
      m.type = M_HARD;
      m.size = 0;
      break;
    case '3':
    case '4':
    case '6':
      rc = reject(h, nm, "device or FIFO member");
      break;
    default:
      rc = reject(h, nm, "special member type '%c'",
                  type >= 32 && type < 127 ? type : '?');
      break;
    }
    if (rc)
      break;
    if (++h->n > TAR_MAX_MEMBERS) {
      rc = reject(h, nm, "more than 100,000 members");
      break;
    }
    h->n--;
    if ((rc = norm_name(h, nm, nml, &name)))
      break;
    if (m.type == M_FILE) {
      h->total += size;
      if (h->total > TAR_MAX_EXTRACT) {
        rc = reject(h, nm, "extracted size over the 4 GiB limit");
        break;
      }
    }
    if (m.type == M_LINK || m.type == M_HARD) {
      const char *ln = have_link
                           ? buf_cstr(&pax_link)
                           : (buf_clear(&lname),
                              buf_append(&lname, (const char *)hd + 157,
                                         strnlen((const char *)hd + 157, 100)),
                              buf_cstr(&lname));
      if (m.type == M_HARD) {
        /* the target is a member name: the same rules, then normalised */
        char *full = mem_strdup(h->v->m, nm);
        buf tn;
        buf_init(&tn, h->v->m);
        if (!full)
          rc = -ENOMEM;
        else if (!(rc = norm_name(h, ln, strlen(ln), &tn)) && !tn.len)
          rc = reject(h, full, "hard link to the root");
        if (!rc && !(m.link = mem_strndup(h->v->m, buf_cstr(&tn), tn.len)))
          rc = -ENOMEM;
        if (rc == -EBADMSG && h->msgcap) /* name the member, not the target */
          snprintf(h->msg, h->msgcap,
                   "member '%s': hard link target '%s' "
                   "is not allowed",
                   full, ln);
        mem_free(h->v->m, full);
        buf_free(&tn);
        if (rc)
          break;
      } else if (!(m.link = mem_strdup(h->v->m, ln))) {
        rc = -ENOMEM;
        break;
      }
    }
    if (!(m.path = mem_strndup(h->v->m, buf_cstr(&name), name.len)) ||
        (rc = add_member(h, &m))) {
      mem_free(h->v->m, m.path);
      mem_free(h->v->m, m.link);
      rc = rc ? rc : -ENOMEM;
      break;
    }
    pend = NULL; /* the member's now */
    have_path = have_link = have_size = have_mtime = false;
    buf_clear(&pax_path);
    buf_clear(&pax_link);
  }
  buf_free(&pax_path);
  buf_free(&pax_link);
  buf_free(&name);
  buf_free(&lname);
  buf_free(&ext);
  blob_unref(pend);
  return rc;
}

/* ---- archive-level rules ---- */

static int cmp_member(const void *a, const void *b) {
  const member *x = a, *y = b;
  int c = strcmp(x->path, y->path);
  if (c)
    return c;
  return x->index < y->index ? -1 : x->index > y->index;
}

static const member *find(const hctx *h, const char *path, size_t len) {
  size_t lo = 0, hi = h->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const char *p = h->ms[mid].path;
    int c = strncmp(p, path, len);
    if (!c && p[len])
      c = 1;
    if (!c) {
      /* the last of equal names (duplicates are dirs by now) */
      while (mid + 1 < h->n && !strcmp(h->ms[mid + 1].path, h->ms[mid].path))
        mid++;
      return &h->ms[mid];
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

static int validate(hctx *h) {
  /* archives written in path order (persist's, tar --sort=name) are
   * taken as they are */
  bool sorted = true;
  for (size_t i = 1; i < h->n && sorted; i++)
    sorted = cmp_member(&h->ms[i - 1], &h->ms[i]) < 0;
  if (!sorted)
    qsort(h->ms, h->n, sizeof *h->ms, cmp_member);
  const char *prev = NULL; /* a member with the parent path of the last */
  size_t prev_dl = 0;
  int prev_type = M_DIR; /* its nearest listed ancestor's type */
  for (size_t i = 0; i < h->n; i++) {
    member *m = &h->ms[i];
    if (!*m->path && m->type != M_DIR)
      return reject(h, ".", "the root must be a directory");
    if (i + 1 < h->n && !strcmp(m->path, h->ms[i + 1].path) &&
        !(m->type == M_DIR && h->ms[i + 1].type == M_DIR))
      return reject(h, m->path, "duplicate path");
    /* the nearest ancestor the archive lists decides: a directory member
     * had its own ancestors checked (so deep trees cost no more per
     * member), a symlink or file member refuses; what that is depends on
     * the parent's path alone, so siblings share the answer */
    const char *slash = strrchr(m->path, '/');
    size_t dl = slash ? (size_t)(slash - m->path) : 0;
    if (!slash || !prev || dl != prev_dl || memcmp(prev, m->path, dl)) {
      prev_type = M_DIR;
      for (const char *p = slash; p;
           p = memrchr(m->path, '/', (size_t)(p - m->path))) {
        const member *par = find(h, m->path, (size_t)(p - m->path));
        if (par) {
          prev_type = par->type;
          break;
        }
      }
      prev = slash ? m->path : NULL;
      prev_dl = dl;
    }
    if (prev_type == M_LINK)
      return reject(h, m->path, "under a symlink member");
    if (prev_type != M_DIR)
      return reject(h, m->path, "under a non-directory member");
    if (m->type == M_LINK && !*m->link)
      return reject(h, m->path, "empty symlink target");
    if (m->type == M_HARD) {
      /* only to a file this archive wrote before: never to something of
       * the destination's, never to a directory or a symlink */
      const member *x = find(h, m->link, strlen(m->link));
      if (!x || x->type != M_FILE || x->index > m->index)
        return reject(h, m->path,
                      "hard link target '%s' is not an earlier regular "
                      "file member",
                      m->link);
    }
  }
  return 0;
}

static int hydrate(vfs *v, const char *cwd, const char *dir, const void *tar,
                   size_t len, vsh_read_fn fn, void *ud, char *msg,
                   size_t msgcap) {
  hctx h = {.v = v, .msg = msg, .msgcap = msgcap};
  if (msgcap)
    msg[0] = 0;
  tsrc s;
  int rc = tar_src_open(&s, &h, tar, len, fn, ud);
  if (!rc)
    rc = parse(&h, &s);
  if (!rc)
    rc = tar_src_finish(&s);
  tar_src_close(&s);
  if (!rc)
    rc = validate(&h);
  /* from here on every change is undone on failure (O(1) snapshot) */
  vfs_snap *before = NULL;
  if (!rc && !(before = vfs_snapshot(v)))
    rc = -ENOMEM;
  if (!rc)
    rc = tar_extract(&h, cwd, dir);
  if (rc && before)
    vfs_restore(v, before);
  vfs_snap_free(before);
  for (size_t i = 0; i < h.n; i++) {
    mem_free(v->m, h.ms[i].path);
    mem_free(v->m, h.ms[i].link);
    blob_unref(h.ms[i].b);
  }
  mem_free(v->m, h.ms);
  return rc;
}

int vfs_hydrate(vfs *v, const char *cwd, const char *dir, const void *tar,
                size_t len, char *msg, size_t msgcap) {
  return hydrate(v, cwd, dir, tar, len, NULL, NULL, msg, msgcap);
}

int vfs_hydrate_stream(vfs *v, const char *cwd, const char *dir, vsh_read_fn fn,
                       void *ud, char *msg, size_t msgcap) {
  return hydrate(v, cwd, dir, NULL, 0, fn, ud, msg, msgcap);
}
