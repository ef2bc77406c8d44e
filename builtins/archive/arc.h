/*
 * arc.h - what tar, zip and unzip share over libarchive: archives read
 * from and written to the builtins' streams (never the host's files), the
 * tv listing line, member names made safe for extraction, and the
 * extraction of one member into the vfs.
 *
 * libarchive allocates with the C library's malloc (it has no allocator
 * hook); what it keeps is bounded by one header and one block at a time.
 * Every callback polls the budget, so a limit or a cancel ends the
 * command at its next block.
 */
#ifndef VSH_BUILTINS_ARCHIVE_ARC_H
#define VSH_BUILTINS_ARCHIVE_ARC_H

#include <archive.h>
#include <archive_entry.h>

#include "builtins/builtin.h"
#include "vfs/vfs.h"

typedef struct arc_io {
  bi_ctx *c;
  stream *s;
  unsigned char *buf; /* reading: one block */
  int err;            /* errno of a failed stream call */
} arc_io;

/* A reader over s for the given kinds of archive (ARC_TAR: the tar formats
 * with the gzip, bzip2, xz, lzma and zstd filters; ARC_ZIP: zip, from its
 * central directory when s is a file). Only filters built into libarchive
 * are enabled: none runs a program. */
enum { ARC_TAR = 1, ARC_ZIP = 2 };
struct archive *arc_reader(arc_io *io, bi_ctx *c, stream *s, int kinds);
/* A writer to s; format and filter set by the caller before arc_open_w. */
struct archive *arc_writer(bi_ctx *c);
int arc_open_w(struct archive *a, arc_io *io, bi_ctx *c, stream *s);
void arc_io_free(arc_io *io);

/* The vfs type of an entry (VFS_REG, VFS_DIR, VFS_LNK; 0 for others). */
int arc_type(struct archive_entry *e);

/* Member name checks as GNU tar does on extraction: the leading part to
 * drop ("/" or a prefix ending in "../") is returned in *drop (length),
 * and the result says whether ".." remains inside (refused). */
int arc_name_check(const char *name, size_t *drop);

/* name without its first n components ("" when it has no more). */
const char *arc_strip(const char *name, int n);

/* The extraction of members into the vfs, relative to dir. */
typedef struct arc_x {
  bi_ctx *c;
  const char *dir; /* absolute */
  int keep_old;    /* -k: never replace */
  int keep_perms;  /* -p: no umask */
  int no_mtime;    /* -m */
  int strip;       /* --strip-components, for hard link targets */
  /* deferred work: directories' modes and times, symlinks */
  struct arc_defer *defer;
  size_t ndefer, cap;
} arc_x;

/* One member (its data read from a): 0, or an errno with *what set to the
 * failing step ("Cannot open", "Cannot mkdir", ...). */
int arc_extract(arc_x *x, struct archive *a, struct archive_entry *e,
                const char *name, const char **what);
/* The deferred symlinks and directory modes; frees the list. Reports
 * failures through report(ud, name, what, err). */
void arc_finish(arc_x *x,
                void (*report)(void *ud, const char *name, const char *what,
                               int err),
                void *ud);

#endif
