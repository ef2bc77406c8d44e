/*
 * fileutil.h - helpers shared by the file builtins (ls, stat, cp, mv, rm,
 * mkdir, rmdir, ln, chmod, touch, readlink, realpath): GNU's quoting of file
 * names in messages, mode strings and symbolic modes, time formatting, path
 * pieces, canonicalisation over the VFS and y/n prompts.
 *
 * Strings returned as `const char *` live in c->scratch (released when the
 * command returns) unless said otherwise.
 */
#ifndef VSH_BUILTINS_FILEUTIL_H
#define VSH_BUILTINS_FILEUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "builtins/builtin.h"
#include "vfs/vfs.h"

/* The vfs stat record (a short local name for vfs_stat_t). */
typedef vfs_stat_t fu_stat;

/* Quoting of a name the way GNU's quote() does in messages
 * (shell-escape-always style): 'x', "a'b", 'a'$'\t''b'. Valid UTF-8 is kept
 * as is (a UTF-8 locale); other bytes become octal escapes. */
const char *fu_quote(bi_ctx *c, const char *s);
/* GNU's quotef(): like fu_quote but only when the name needs it (readlink,
 * realpath and a few other messages print plain names). */
const char *fu_quotef(bi_ctx *c, const char *s);

/* "-rwxr-xr-x" (10 chars + NUL) for a node type and mode. */
void fu_mode_string(int type, unsigned mode, char out[11]);
/* The type's word as stat %F prints it ("regular empty file" when size 0). */
const char *fu_type_name(const fu_stat *st);
/* The S_IFMT bits of the type (for stat %f). */
unsigned fu_type_bits(int type);

/* A compiled chmod-style mode: octal or a list of symbolic clauses. */
typedef struct fu_mode fu_mode;
/* NULL when the text is not a valid mode. */
fu_mode *fu_mode_parse(bi_ctx *c, const char *text);
/* The new permission bits for a node with old bits `old`. umask applies to
 * clauses without a who part. Like GNU, a directory keeps its set-user-ID
 * and set-group-ID bits unless the mode names them (octal: 5 digits). */
unsigned fu_mode_apply(const fu_mode *m, unsigned old, int is_dir,
                       unsigned umask);

/* Broken-down time of t seconds. TZ other than unset/UTC is not supported:
 * every time is shown in UTC ("+0000"). */
void fu_gmtime(int64_t sec, struct tm *tm);
/* "2024-01-02 03:04:05.123456789 +0000" (stat %y). */
const char *fu_time_full(bi_ctx *c, int64_t ns);
/* Now in ns: the shell's clock hook, else the vfs clock. */
int64_t fu_now(bi_ctx *c);

/* Owner/group names: 0 is "root", 1000 "user", others their number. */
const char *fu_user_name(bi_ctx *c, uint32_t uid);
const char *fu_group_name(bi_ctx *c, uint32_t gid);

/* Disk usage in 1 KiB blocks, as ext4 would count it (4 KiB blocks; empty
 * files and symlinks use none). */
uint64_t fu_blocks_1k(const fu_stat *st);

/* Last component, ignoring trailing slashes ("a/b/" -> "b", "/" -> "/"). */
const char *fu_basename(bi_ctx *c, const char *p);
/* Everything before the last component ("a/b" -> "a", "b" -> "."). */
const char *fu_dirname(bi_ctx *c, const char *p);
/* dir + "/" + name, without doubling a slash. */
const char *fu_join(bi_ctx *c, const char *dir, const char *name);
/* p without trailing slashes ("/" stays "/"). */
const char *fu_strip_slashes(bi_ctx *c, const char *p);
/* "." or ".." as the last component (GNU's refusal in rm -r). */
int fu_is_dot_or_dotdot(const char *p);

/* Canonicalisation modes, as readlink -f/-e/-m. */
enum {
  FU_CANON_EXISTING = 0, /* every component must exist (-e) */
  FU_CANON_LAST = 1,     /* all but the last must exist (-f) */
  FU_CANON_MISSING = 2,  /* nothing needs to exist (-m) */
  FU_CANON_NOLINKS = 4,  /* flag: do not resolve symlinks (realpath -s) */
  FU_CANON_LOGICAL = 8   /* flag: resolve '..' before symlinks (-L) */
};
/* Canonical absolute path of p against c->cwd, or NULL with *err (a
 * positive errno). */
const char *fu_canon(bi_ctx *c, const char *p, int mode, int *err);
/* Path of `to` relative to directory `from` (both canonical absolute). */
const char *fu_relpath(bi_ctx *c, const char *from, const char *to);

/* Ask a y/n question: prompt (already formatted) on stderr, then one line
 * from stdin; yes when it starts with 'y' or 'Y'. End of input is no. */
typedef struct fu_asker {
  reader r;
  int init;
} fu_asker;
int fu_ask(bi_ctx *c, fu_asker *a, const char *prompt);
void fu_asker_free(bi_ctx *c, fu_asker *a);

/* "--version" output (shared with the text builtins' wording). */
int fu_version(bi_ctx *c);
/* "Try 'NAME --help' for more information." on stderr. */
void fu_try_help(bi_ctx *c);

/* Poll the exec budget (limits, cancellation) in loops that may not touch
 * a stream for a long time (rm -r, cp -r, chmod -R, ls -R). Non-zero: stop
 * now; the shell reports the limit. */
int fu_poll(bi_ctx *c);

/* Status for a failed output stream, after which the builtin returns. */
int fu_out_status(writer *w);

#endif
