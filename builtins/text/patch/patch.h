/*
 * patch.h - internals of the patch builtin:
 *
 *   parse.c  the patch text: unified, context and normal diffs, with their
 *            headers (---/+++, ***, Index:, git's diff --git lines), into
 *            one pt_file per file and one pt_hunk per hunk
 *   patch.c  options, choosing the file, finding each hunk (offset and
 *            fuzz as GNU patch looks for them), writing results, .rej
 */
#ifndef VSH_BUILTINS_TEXT_PATCH_PATCH_H
#define VSH_BUILTINS_TEXT_PATCH_PATCH_H

#include <stddef.h>

#include "builtins/builtin.h"

enum { PT_UNIFIED = 1, PT_CONTEXT, PT_NORMAL, PT_GIT_ONLY };

typedef struct pt_line {
  char t;   /* ' ' context, '-' old only, '+' new only */
  int nonl; /* no newline at its end */
  const char *p;
  size_t n; /* without the newline */
} pt_line;

typedef struct pt_hunk {
  long old_first, old_n, new_first, new_n; /* as the header says */
  pt_line *l;
  size_t nl;
  const char *text; /* the hunk as it appears in the patch (for .rej) */
  size_t text_len;
  long line_no; /* line of the patch where it starts */
} pt_hunk;

typedef struct pt_file {
  int kind;
  const char *name[3]; /* old (--- or ***), new (+++ or ---), Index: */
  int is_null[2];      /* /dev/null (or the epoch timestamp) */
  int git, git_new, git_deleted;
  const char *rename_from, *rename_to;
  const char *hdr; /* header text from the start of this file's part */
  size_t hdr_len;
  const char *rej_hdr; /* the two file header lines, for .rej */
  size_t rej_hdr_len;
  long first_hunk_line; /* line number of the first hunk, for messages */
  pt_hunk *h;
  size_t nh;
} pt_file;

/* Parse the patch text. *files gets an array of *n entries allocated in
 * the scratch arena (pointing into text). Normal diffs name no file: they
 * count only when normal_ok (a file operand was given), as in GNU patch.
 * 0, -1 out of memory, -2 when the budget stopped it, -3 "malformed
 * patch" at *bad_line. */
int pt_parse(bi_ctx *c, const char *text, size_t len, int normal_ok,
             pt_file **files, size_t *n, long *bad_line);

#endif
