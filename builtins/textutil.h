/*
 * textutil.h - helpers shared by the text builtins (echo, printf, cat, sort,
 * ...): backslash escapes in their three bash dialects, UTF-8 encoding,
 * --version output and the "for each file operand" loop every coreutils
 * filter repeats.
 */
#ifndef VSH_BUILTINS_TEXTUTIL_H
#define VSH_BUILTINS_TEXTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "builtins/builtin.h"

/* Which escape dialect: bash is not consistent between its commands. */
enum {
  TU_ESC_ECHO = 0, /* echo -e: \0NNN octal only, \' \" \? stay as typed */
  TU_ESC_FMT = 1,  /* printf format: \NNN, \" -> ", \c literal */
  TU_ESC_B = 2     /* printf %b: \0NNN and \NNN, \c stops everything */
};

/* The byte a one-letter C escape names: \a \b \f \n \r \t \v and \\;
 * -1 for any other letter. */
int tu_escape_char(int ch);

/* The value of a hexadecimal digit, or -1. */
int tu_hexval(int ch);

/* Decode the escape whose backslash precedes s (n bytes follow). Appends the
 * result to out, returns how many bytes after the backslash were consumed,
 * sets *stop for a \c that ends all output (ECHO and B dialects). Warnings
 * bash prints ("missing hex digit for \x") go to c->err. */
size_t tu_escape(bi_ctx *c, const char *s, size_t n, int mode, buf *out,
                 int *stop);

/* UTF-8 encoding of a code point (up to 6 bytes for values past U+10FFFF,
 * as glibc's wctomb would refuse: we emit the historic form). Returns the
 * length. */
size_t tu_utf8_put(uint32_t cp, char *out);
/* Decode one UTF-8 character at s: returns its length (1 for an invalid
 * byte, with *cp the byte) and the code point. */
size_t tu_utf8_get(const char *s, size_t n, uint32_t *cp);

/* Whether the locale variables (LC_ALL, then LC_CTYPE, then LANG: the
 * first one naming a locale, see u8_locale_name) select a UTF-8 locale;
 * the C locale when none does. */
int tu_utf8_locale(bi_ctx *c);

/* bi_error for functions taking their own format and arguments: "NAME:
 * PREFIX<formatted message>\n" on stderr. */
void tu_verror(bi_ctx *c, const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* "NAME: FILE: strerror" for a file operand, the name quoted only when it
 * needs it (GNU coreutils' quotef). */
void tu_file_error(bi_ctx *c, const char *name, int err);
/* The same with the name as given, never quoted: the tools outside
 * coreutils that print it so (hexdump, xxd, cmp, diff). */
void tu_file_error_raw(bi_ctx *c, const char *name, int err);

/*
 * The records of a filter's file operands, one file after the other:
 *
 *   tu_records t;
 *   tu_records_init(&t, c, g.operands, g.noperands, '\n', &w);
 *   while (tu_records_next(&t, &rec, &len) && !w.err) ...;
 *   int status = tu_records_end(&t);
 *
 * Files come from bi_inputs ("-" without operands). A file that cannot be
 * opened or read is reported ("NAME: FILE: reason") and the status becomes
 * 1; a read failing with ECANCELED ends the loop at once (the shell reports
 * the limit). No file is opened any more once the writer w (NULL: none)
 * has failed; w is flushed whenever the input must wait (rd_flush_to).
 */
typedef struct tu_records {
  bi_inputs in;
  reader r;
  stream *s; /* the file being read, NULL between files */
  int delim;
  writer *w;
  int status;
} tu_records;
void tu_records_init(tu_records *t, bi_ctx *c, char **names, int n, int delim,
                     writer *w);
/* The next record, delimiter included when present: 1, or 0 at the end. */
int tu_records_next(tu_records *t, const char **rec, size_t *len);
/* Releases the file being read (after an early stop); returns the status. */
int tu_records_end(tu_records *t);

/* Read the whole stream into memory: a zero-copy view when the stream
 * offers one (*view), else a copy in *copy (mem_free it). Returns 0, or -1
 * with *err. */
int tu_slurp(bi_ctx *c, stream *s, const char **data, size_t *len, buf *copy,
             int *err);

/* The complaint about file operands given with --files0-from (the extra
 * operand op, why it is refused and the --help hint). */
void tu_files0_conflict(bi_ctx *c, const char *op);

/* The file names of --files0-from: data[0..n) split at NUL bytes (a last
 * name without its NUL counts too), in scratch memory, NULL-terminated;
 * *count gets how many. NULL when out of memory (*count 0). */
char **tu_split_names(bi_ctx *c, const char *data, size_t n, int *count);

/* A count with GNU's optional multiplier suffix (b 512, K/KiB 1024, KB
 * 1000, M/MiB, MB, G, T, P, E): leading blanks and '+' allowed. Returns 0,
 * -1 when invalid, -2 on overflow (*v then UINT64_MAX). */
int tu_parse_count(const char *s, uint64_t *v);

/* A duration: NUMBER (fractions allowed) with an optional unit s, m, h or
 * d, as sleep and timeout take it. Seconds, or -1 when invalid. */
double tu_parse_duration(const char *s);

/* "NAME: extra operand 'OP'" and the --help hint; returns 1. */
int tu_extra_operand(bi_ctx *c, const char *op);

/* The obsolete "-NUM" options (fold -40, expand -4,8): sub starts as a
 * copy of c; each argument before "--" made of '-' and a digit is given to
 * sub as "-<opt>NUM..." instead, unless it is the value of -<opt> or of
 * --<longname> (or an abbreviation) just before it (fold -w -5). Returns
 * 0, or -1 out of memory. */
int tu_obsolete_num(bi_ctx *c, bi_ctx *sub, int opt, const char *longname);

/* Option parsing for a command whose only options are --help and
 * --version (whoami, yes, sleep): sets up g and runs it. Returns 1 when
 * the command is over (--help, --version or a bad option, already
 * answered; g->status is its exit status), 0 with the operands in g. */
int tu_getopt_bare(bi_ctx *c, bi_getopt *g);

/* A name or value quoted for a message as GNU's quote() does in the
 * sandbox's locale: ‘NAME’ under UTF-8, 'NAME' (\\' inside) elsewhere
 * (scratch memory). */
const char *tu_quote(bi_ctx *c, const char *name);

/* The C escape od -c and hexdump -c print for ch ("\\0", "\\a", "\\b",
 * "\\f", "\\n", "\\r", "\\t", "\\v"), or NULL when it has none. */
const char *tu_char_escape(unsigned ch);

/* GNU argmatch's complaint about an option argument outside a fixed set:
 * "KIND argument ARG for OPTION" (KIND "invalid" or "ambiguous"), "Valid
 * arguments are:" and the list, then the --help hint. valid holds the
 * list as the C locale prints it, lines "  - 'word', 'synonym'\n"; in a
 * UTF-8 locale the quotes of those lines become ‘ and ’ (other lines are
 * kept as they are). */
void tu_bad_arg(bi_ctx *c, const char *kind, const char *option,
                const char *arg, const char *valid);
/* The same with the valid arguments as a NULL-terminated list, one a
 * line. */
void tu_bad_choice(bi_ctx *c, const char *kind, const char *option,
                   const char *arg, const char *const *valid);

/* Open a file for writing (truncating, or appending), created 0666 &
 * ~umask; /dev/stdout and /dev/stderr are the command's own streams.
 * NULL with *err (an errno value). Defined in open.c. */
stream *tu_open_write(bi_ctx *c, const char *path, int append, int *err);

#endif
