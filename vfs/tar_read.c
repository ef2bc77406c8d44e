/*
 * tar_read.c - hydrate: validate a whole tar (plain or gzip) against the
 * workspace rules, then extract it. Nothing is written before every member
 * and the destination passed; extraction runs on top of an O(1) snapshot and
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
#include <zlib.h>

#include "core/buf.h"
#include "vfs/internal.h"

#define TAR_MAX_INPUT ((uint64_t)1 << 30)
#define TAR_MAX_EXTRACT ((uint64_t)4 << 30)
#define TAR_MAX_MEMBERS 100000

enum { M_FILE, M_DIR, M_LINK, M_HARD };

typedef struct member {
  char *path; /* normalised: "a/b", "" for the root */
  int type;
  unsigned mode;
  int64_t mtime;
  const char *data;
  uint64_t size;
  char *link;   /* symlink target, or the normalised hard-link target */
  size_t index; /* position in the archive, for messages */
} member;

typedef struct hctx {
  vfs *v;
  member *ms;
  size_t n, cap;
  char *msg;
  size_t msgcap;
  uint64_t total;
} hctx;

static int reject(hctx *h, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int reject(hctx *h, const char *name, const char *fmt, ...) {
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

/* ---- decompression ---- */

static int gunzip(vfs *v, const unsigned char *in, size_t len, char **out,
                  size_t *olen, hctx *h) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 15 + 16) != Z_OK)
    return -ENOMEM;
  size_t cap = len * 4 + 4096, n = 0;
  char *b = mem_alloc(v->m, cap);
  int rc = b ? 0 : -ENOMEM;
  z.next_in = (unsigned char *)in;
  z.avail_in = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
  while (!rc) {
    if (n == cap) {
      if (cap >= TAR_MAX_EXTRACT + (64u << 20)) {
        rc = reject(h, "(archive)", "decompressed size over the 4 GiB limit");
        break;
      }
      size_t nc = cap * 2;
      char *g = mem_realloc(v->m, b, nc);
      if (!g) {
        rc = -ENOMEM;
        break;
      }
      b = g;
      cap = nc;
    }
    z.next_out = (unsigned char *)b + n;
    size_t room = cap - n;
    uInt give = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
    z.avail_out = give;
    int zr = inflate(&z, Z_NO_FLUSH);
    n += give - z.avail_out;
    if (zr == Z_STREAM_END)
      break;
    if (zr != Z_OK && !(zr == Z_BUF_ERROR && n == cap)) {
      rc = reject(h, "(archive)", "corrupt gzip data");
      break;
    }
  }
  inflateEnd(&z);
  if (rc) {
    mem_free(v->m, b);
    return rc;
  }
  *out = b;
  *olen = n;
  return 0;
}

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
  unsigned long us = 0;
  long ss = 0;
  for (int i = 0; i < 512; i++) {
    unsigned char c = (i >= 148 && i < 156) ? ' ' : hd[i];
    us += c;
    ss += (signed char)c;
  }
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

static int parse(hctx *h, const char *t, size_t len) {
  buf pax_path, pax_link, name, lname;
  buf_init(&pax_path, h->v->m);
  buf_init(&pax_link, h->v->m);
  buf_init(&name, h->v->m);
  buf_init(&lname, h->v->m);
  bool have_path = false, have_link = false, have_size = false;
  bool have_mtime = false;
  uint64_t pax_size = 0;
  int64_t pax_mtime = 0;
  size_t pos = 0, index = 0;
  int rc = 0;
  while (!rc) {
    if (pos + 512 > len) {
      /* the end-of-archive blocks may be missing (GNU tar accepts that);
       * a header cut short may not */
      rc = pos == len ? 0
                      : reject(h, "(archive)",
                               "unexpected EOF in archive (header cut short)");
      break;
    }
    const unsigned char *hd = (const unsigned char *)t + pos;
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
    uint64_t padded = (size + 511) / 512 * 512;
    if (size > UINT64_MAX - 511 || padded > len - pos - 512) {
      /* data or its padding cut off: what GNU tar calls an unexpected EOF */
      rc = reject(h, raw, "unexpected EOF in archive (data cut short)");
      break;
    }
    const char *data = t + pos + 512;
    pos += 512 + (size_t)padded;
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
    member m = {.index = index, .size = size, .data = data};
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
    have_path = have_link = have_size = have_mtime = false;
    buf_clear(&pax_path);
    buf_clear(&pax_link);
  }
  buf_free(&pax_path);
  buf_free(&pax_link);
  buf_free(&name);
  buf_free(&lname);
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
  qsort(h->ms, h->n, sizeof *h->ms, cmp_member);
  for (size_t i = 0; i < h->n; i++) {
    member *m = &h->ms[i];
    if (!*m->path && m->type != M_DIR)
      return reject(h, ".", "the root must be a directory");
    if (i + 1 < h->n && !strcmp(m->path, h->ms[i + 1].path) &&
        !(m->type == M_DIR && h->ms[i + 1].type == M_DIR))
      return reject(h, m->path, "duplicate path");
    /* the nearest ancestor the archive lists decides: a directory member
     * had its own ancestors checked (so deep trees cost no more per
     * member), a symlink or file member refuses */
    for (const char *p = strrchr(m->path, '/'); p;
         p = memrchr(m->path, '/', (size_t)(p - m->path))) {
      const member *par = find(h, m->path, (size_t)(p - m->path));
      if (!par)
        continue;
      if (par->type == M_LINK)
        return reject(h, m->path, "under a symlink member");
      if (par->type != M_DIR)
        return reject(h, m->path, "under a non-directory member");
      break;
    }
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

/* The destination: no member may pass through an existing symlink or
 * non-directory, or swap a directory for a non-directory. */
static int check_dest(hctx *h, const char *base) {
  vfs *v = h->v;
  buf p;
  buf_init(&p, v->m);
  int rc = 0;
  for (size_t i = 0; i < h->n && !rc; i++) {
    const member *m = &h->ms[i];
    if (!*m->path)
      continue;
    for (const char *s = m->path;; s++) {
      const char *e = strchr(s, '/');
      size_t plen = e ? (size_t)(e - m->path) : strlen(m->path);
      buf_clear(&p);
      if (buf_append(&p, m->path, plen)) {
        rc = -ENOMEM;
        break;
      }
      vfs_stat_t st;
      int r = vfs_lstat(v, base, buf_cstr(&p), &st);
      if (r == -ENOENT)
        break; /* nothing below exists either */
      if (r) {
        rc =
            reject(h, m->path, "destination not accessible (%s)", strerror(-r));
        break;
      }
      if (e) {
        if (st.type == VFS_LNK)
          rc = reject(h, m->path, "would follow an existing symlink");
        else if (st.type != VFS_DIR)
          rc = reject(h, m->path, "under an existing non-directory");
        if (rc)
          break;
        s = e;
        continue;
      }
      if (st.type == VFS_DIR && m->type != M_DIR)
        rc = reject(h, m->path, "would replace an existing directory");
      else if (st.type != VFS_DIR && m->type == M_DIR)
        rc = reject(h, m->path, "directory over an existing non-directory");
      break;
    }
  }
  buf_free(&p);
  return rc;
}

/* Parents the archive does not list are made as GNU tar makes them. */
static int make_parents(vfs *v, const char *base, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return 0;
  char *dir = mem_strndup(v->m, path, (size_t)(slash - path));
  if (!dir)
    return -ENOMEM;
  int rc = vfs_mkdir_p(v, base, dir, 0777);
  mem_free(v->m, dir);
  return rc;
}

static int extract(hctx *h, const char *base) {
  vfs *v = h->v;
  int rc = 0;
  /* directories and files in path order (parents first), then hard links
   * (their targets exist by then), symlinks last */
  for (int pass = 0; pass < 3 && !rc; pass++) {
    for (size_t i = 0; i < h->n && !rc; i++) {
      const member *m = &h->ms[i];
      const char *p = *m->path ? m->path : ".";
      int want = m->type == M_HARD ? 1 : m->type == M_LINK ? 2 : 0;
      if (want != pass)
        continue;
      if ((rc = make_parents(v, base, m->path)))
        break;
      vfs_stat_t st;
      bool exists = vfs_lstat(v, base, p, &st) == 0;
      if (m->type == M_DIR) {
        if (!exists)
          rc = vfs_mkdir(v, base, p, 0700);
        continue; /* mode and time once everything below is written */
      }
      if (exists && st.type != VFS_DIR)
        rc = vfs_unlink(v, base, p); /* never write through a symlink */
      if (rc)
        break;
      if (m->type == M_FILE) {
        rc = vfs_write_file(v, base, p, m->data, (size_t)m->size, 0600);
        if (!rc)
          rc = vfs_chmod(v, base, p, m->mode);
      } else if (m->type == M_HARD) {
        rc = vfs_link(v, base, m->link, p);
        continue; /* the inode's mode and time are its first member's */
      } else {
        rc = vfs_symlink(v, base, m->link, p);
      }
      if (!rc)
        rc = vfs_utimes(v, base, p, m->mtime, m->mtime, VFS_NOFOLLOW);
    }
  }
  /* directory modes and times last: creating entries touched them */
  for (size_t i = 0; i < h->n && !rc; i++) {
    const member *m = &h->ms[i];
    if (m->type != M_DIR)
      continue;
    const char *p = *m->path ? m->path : ".";
    rc = vfs_chmod(v, base, p, m->mode);
    if (!rc)
      rc = vfs_utimes(v, base, p, m->mtime, m->mtime, 0);
  }
  return rc;
}

int vfs_hydrate(vfs *v, const char *cwd, const char *dir, const void *tar,
                size_t len, char *msg, size_t msgcap) {
  hctx h = {.v = v, .msg = msg, .msgcap = msgcap};
  if (msgcap)
    msg[0] = 0;
  if (len > TAR_MAX_INPUT)
    return reject(&h, "(archive)", "input larger than 1 GiB");
  const unsigned char *in = tar;
  char *plain = NULL;
  const char *t = tar;
  size_t tl = len;
  int rc = 0;
  if (len >= 2 && in[0] == 0x1f && in[1] == 0x8b) {
    if ((rc = gunzip(v, in, len, &plain, &tl, &h)))
      return rc;
    t = plain;
  }
  char *base = NULL;
  vfs_snap *before = NULL;
  if (!(rc = parse(&h, t, tl)))
    rc = validate(&h);
  /* from here on every change is undone on failure (O(1) snapshot) */
  if (!rc && !(before = vfs_snapshot(v)))
    rc = -ENOMEM;
  v->priv++;
  if (!rc)
    rc = vfs_mkdir_p(v, cwd, dir, 0755);
  if (!rc)
    rc = vfs_realpath(v, cwd, dir, &base);
  if (!rc)
    rc = check_dest(&h, base);
  /* quota before writing: a too-big archive fails without partial files */
  if (!rc &&
      (v->bytes + h.total > v->max_bytes || v->inodes + h.n > v->max_inodes))
    rc = -ENOSPC;
  if (!rc)
    rc = extract(&h, base);
  v->priv--;
  if (rc && before)
    vfs_restore(v, before);
  vfs_snap_free(before);
  for (size_t i = 0; i < h.n; i++) {
    mem_free(v->m, h.ms[i].path);
    mem_free(v->m, h.ms[i].link);
  }
  mem_free(v->m, h.ms);
  mem_free(v->m, base);
  mem_free(v->m, plain);
  return rc;
}
