/*
 * tar.h - what the parts of hydrate share: the input (tar_src.c), the
 * members read and checked (tar_read.c) and their extraction through the
 * batch importer (tar_extract.c).
 */
#ifndef VSH_VFS_TAR_H
#define VSH_VFS_TAR_H

#include <zlib.h>

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
  const char *data; /* in the caller's buffer (plain input in memory) */
  blob *b;          /* or read into its own blob (other inputs), owned */
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

/* A rejection: "member 'NAME': RULE" into h->msg; returns -EBADMSG. */
int tar_reject(hctx *h, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The input: a buffer or a read callback, plain or gzip (told by its first
 * two bytes). Limits: 1 GiB read, 4 GiB (and some) decompressed. */
typedef struct tsrc {
  hctx *h;
  const unsigned char *mem; /* buffer input, or NULL */
  size_t mlen, mpos;
  vsh_read_fn fn; /* callback input */
  void *ud;
  unsigned char *ib; /* its buffer */
  size_t ilen, ipos;
  uint64_t in_total;
  bool ieof, gz, zinit, zend;
  uint64_t out_total;
  z_stream z;
} tsrc;

int tar_src_open(tsrc *s, hctx *h, const void *buf, size_t len, vsh_read_fn fn,
                 void *ud);
void tar_src_close(tsrc *s);
/* Plain input in memory: its bytes can be used in place. */
bool tar_src_in_place(const tsrc *s);
/* Up to n bytes of the tar into dst (fewer only at its end): 0 or
 * -errno / a rejection. */
int tar_src_read(tsrc *s, void *dst, size_t n, size_t *got);
/* For input in place: a pointer to the next n bytes (fewer at the end),
 * consumed. */
const char *tar_src_take(tsrc *s, size_t n, size_t *got);
/* After the archive's end: the rest of a gzip stream checked (so damage
 * after the last member is still found), 0 or a rejection. */
int tar_src_finish(tsrc *s);

/* tar_extract.c: the destination checked, then the members written (h->ms
 * sorted and validated); -EBADMSG for a refused destination. */
int tar_extract(hctx *h, const char *cwd, const char *dir);

#endif
