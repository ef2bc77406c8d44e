/*
 * fileutil.h - helpers shared by the file builtins (ls, stat, cp, mv, rm,
 * mkdir, rmdir, ln, chmod, touch, readlink, realpath): GNU's quoting of file
 * names in messages, mode strings and symbolic modes, time formatting, path
 * pieces, canonicalisation over the VFS, y/n prompts, the output and
 * messages of a running command (fu_job), and the SOURCE... DEST operands
 * and replace rules of cp, mv and ln (fu_targets, fu_replace; those live in
 * files/transfer.c).
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
#include "builtins/tzutil.h"
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

/* Times are shown in the script's zone: bi_tz_open, then tz_localtime
 * and tz_format (core/tz.h). */
/* "2024-01-02 03:04:05.123456789 -0500" (stat %y) in zone z. */
const char *fu_time_full(bi_ctx *c, const tz_zone *z, int64_t ns);
/* Now in ns: the shell's clock hook, else the vfs clock. */
int64_t fu_now(bi_ctx *c);

/* Owner/group names: 0 is "root", 1000 "user", others their number. */
const char *fu_user_name(bi_ctx *c, uint32_t uid);
const char *fu_group_name(bi_ctx *c, uint32_t gid);

/* Disk usage in 1 KiB blocks, as ext4 would count it (4 KiB blocks; empty
 * files and symlinks use none). */
uint64_t fu_blocks_1k(const fu_stat *st);
/* Linux's major/minor numbers for the sandbox's character devices (0/0
 * for anything else), as ls -l, stat and file show them. */
void fu_dev_numbers(const fu_stat *st, unsigned *maj, unsigned *min);

/* Where the last component of p lies, trailing slashes ignored: it starts
 * at the returned offset and is *len bytes long ("/" and "//" give the one
 * "/"). basename, dirname and the commands below all cut names this way. */
size_t fu_base_span(const char *p, size_t *len);
/* Length of p's directory part (what fu_dirname keeps); 0 when there is
 * none, which names ".". */
size_t fu_dir_len(const char *p);
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

/*
 * The state of a command that reports as it goes (cp, mv, ln, rm, chmod):
 * buffered stdout, the reader of prompt answers and whether stdout failed
 * (which ends the command). Messages and prompts go to stderr only after
 * what stdout holds, so the two streams keep their order.
 */
typedef struct fu_job {
  bi_ctx *c;
  writer w;
  fu_asker ask;
  int out_failed;
} fu_job;
void fu_job_init(fu_job *j, bi_ctx *c);
/* "NAME: message" on stderr after flushing stdout. Returns -1. */
int fu_job_error(fu_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Output (-v lines): 0, or -1 with out_failed set. */
int fu_job_say(fu_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "NAME: question" (fu_ask) after flushing stdout: 1 for yes. */
int fu_job_ask(fu_job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The exit status at the end: status, unless stdout failed. */
int fu_job_end(fu_job *j, int status);
/* --preserve-root's refusal (rm -r, chmod -R) of path, which is "/" by
 * some spelling. Returns -1. */
int fu_job_refuse_root(fu_job *j, const char *path);

/*
 * The operands of cp, mv and ln: SOURCE DEST, SOURCE... DIRECTORY, or
 * SOURCE... with -t DIRECTORY; -T makes DEST a plain name.
 */
enum {
  FU_TARGET_ALONE = 1,      /* one operand alone goes into "." (ln) */
  FU_TARGET_LONG_NAMES = 2, /* -t with -T named by long names only (ln) */
  FU_TARGET_NO_DEREF = 4,   /* a symlink to a directory as DEST is a name */
  FU_TARGET_STRIP = 8       /* drop trailing slashes of every operand (mv) */
};
typedef struct fu_targets {
  const char *dir;  /* -t DIRECTORY; once resolved, also a DEST that is one */
  int no_dir;       /* -T */
  char **ops;       /* the operands; once resolved, the n sources */
  int n;            /* (one when DEST is not a directory) */
  const char *dest; /* once resolved: DEST when it is not a directory */
} fu_targets;
/* Checks the operands and decides what DEST is: 0, or the exit status
 * after GNU's message. */
int fu_targets_resolve(bi_ctx *c, fu_targets *t, unsigned flags);
/* Where source i goes: DIRECTORY/its base name, or DEST. */
const char *fu_target_of(bi_ctx *c, const fu_targets *t, int i);

/* -n, -u and -i of cp and mv: may an existing DEST be replaced? */
typedef struct fu_replace {
  int noclobber, update, interactive;
} fu_replace;
/* 1 to go on, 0 to leave DEST alone (quietly, as GNU does). */
int fu_may_replace(fu_job *j, const fu_replace *r, const fu_stat *src,
                   const fu_stat *dst, const char *dst_name);
/* A directory replaces only a directory, a non-directory only a
 * non-directory: 0, or -1 after the message. */
int fu_replace_kind(fu_job *j, const char *src, const fu_stat *sst,
                    const char *dst, const fu_stat *dst_st);

/* Poll the exec budget (limits, cancellation) in loops that may not touch
 * a stream for a long time (rm -r, cp -r, chmod -R, ls -R). Non-zero: stop
 * now; the shell reports the limit. */
int fu_poll(bi_ctx *c);

/* Status for a failed output stream, after which the builtin returns. */
int fu_out_status(writer *w);
/* The last flush of a command's output: status, or fu_out_status when the
 * output failed. */
int fu_out_end(writer *w, int status);

/* GNU's complaint about an argument outside an option's fixed set:
 * "invalid argument 'ARG' for 'OPTION'", "Valid arguments are:" and the
 * list (lines "  - 'word'\n"), then the --help hint, quoted for the
 * locale (tu_bad_arg). The caller returns its usage status. */
void fu_bad_arg(bi_ctx *c, const char *option, const char *arg,
                const char *valid);

#endif
