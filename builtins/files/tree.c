/*
 * tree.c - tree 2.1 over the sandbox's files: each FILE (or .) drawn as an
 * indented tree, entries sorted by name (byte order: the sandbox collates
 * as C), and the report "N directories, M files" (the roots count as
 * directories, a symlink to a directory counts as one and is not entered).
 *
 * Lines are drawn with box characters in a UTF-8 locale and ASCII in the C
 * locale, names escaped as tree does in each. -J writes tree's JSON. The
 * walk keeps an explicit stack, so depth costs no C stack; -L bounds it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_tree[] = "Usage: tree [OPTION]... [DIRECTORY]...";
const char bi_help_tree[] =
    "Draw the files below each DIRECTORY (the current one when none is\n"
    "given) as an indented tree, and count them.\n"
    "\n"
    "  -a            show hidden files (names starting with a dot) too\n"
    "  -d            show directories only\n"
    "  -L LEVEL      go no deeper than LEVEL directories\n"
    "  -I PATTERN    leave out what matches PATTERN\n"
    "  -P PATTERN    show only the files that match PATTERN (directories\n"
    "                are all shown)\n"
    "  -f            show each name with its path\n"
    "  -F            add / to directories, * to executables\n"
    "  -J            write the tree as JSON\n"
    "  -x            stay on one file system (the sandbox has one)\n"
    "      --dirsfirst  list directories before files\n"
    "      --noreport   leave out the count at the end\n"
    "      --help       print this summary and quit\n"
    "      --version    print the version line and quit\n"
    "\n"
    "PATTERN is a wildcard (* ? [...]) matched against names; PAT1|PAT2\n"
    "matches either. -I and -P may be given more than once.\n";

typedef struct tr_ent {
  const char *name;
  const char *path;   /* as printed with -f, and for the walk */
  const char *target; /* symlink target, or NULL */
  int isdir;          /* a directory, or a symlink to one */
  int realdir;        /* a directory to enter */
  int exec;
  int target_dir, target_exec;
} tr_ent;

typedef struct tr_frame {
  tr_ent *ents;
  size_t n, i;
  size_t plen; /* length of the line prefix before this level's */
} tr_frame;

typedef struct tree {
  bi_ctx *c;
  writer w;
  int all, dirsonly, full, classify, json, dirsfirst, noreport, utf8;
  long level;
  const char **ignore, **pattern;
  int nignore, npattern;
  uint64_t ndirs, nfiles;
  int status;
} tree;

/* Wildcard match of p against s: * ? and [...] (! or ^ negates). */
static int wild(const char *p, const char *pe, const char *s) {
  const char *star = NULL, *ss = NULL;
  while (*s) {
    if (p < pe && *p == '*') {
      star = ++p;
      ss = s;
      continue;
    }
    if (p < pe && *p == '[') {
      const char *q = p + 1;
      int neg = q < pe && (*q == '!' || *q == '^');
      q += neg;
      int hit = 0, first = 1;
      while (q < pe && (*q != ']' || first)) {
        first = 0;
        if (q + 2 < pe && q[1] == '-' && q[2] != ']') {
          if ((unsigned char)*s >= (unsigned char)q[0] &&
              (unsigned char)*s <= (unsigned char)q[2])
            hit = 1;
          q += 3;
        } else {
          if (*q == *s)
            hit = 1;
          q++;
        }
      }
      if (q < pe && hit != neg) {
        p = q + 1;
        s++;
        continue;
      }
    } else if (p < pe && (*p == '?' || *p == *s)) {
      p++;
      s++;
      continue;
    }
    if (!star)
      return 0;
    p = star;
    s = ++ss;
  }
  while (p < pe && *p == '*')
    p++;
  return p == pe;
}

/* Does name match one of the |-separated wildcards of one of pats? */
static int match_any(const char **pats, int n, const char *name) {
  for (int i = 0; i < n; i++) {
    const char *p = pats[i];
    for (;;) {
      const char *bar = strchr(p, '|');
      const char *pe = bar ? bar : p + strlen(p);
      if (wild(p, pe, name))
        return 1;
      if (!bar)
        break;
      p = bar + 1;
    }
  }
  return 0;
}

static void put_name(tree *t, const char *s) {
  writer *w = &t->w;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    unsigned char ch = *p;
    if (t->json) {
      if (ch == '"' || ch == '\\')
        wr_printf(w, "\\%c", ch);
      else if (ch == '\t')
        wr_puts(w, "\\t");
      else if (ch == '\n')
        wr_puts(w, "\\n");
      else if (ch < 0x20)
        wr_printf(w, "\\u%04x", ch);
      else
        wr_putc(w, ch);
    } else if (t->utf8) {
      if (ch < 0x20 || ch == 0x7f)
        wr_printf(w, "\\%03o", ch);
      else
        wr_putc(w, ch);
    } else {
      static const char esc[] = "\a\b\f\n\r\t\v";
      static const char letter[] = "abfnrtv";
      const char *e = ch ? strchr(esc, ch) : NULL;
      if (e)
        wr_printf(w, "\\%c", letter[e - esc]);
      else if (ch == ' ' || ch == '\\')
        wr_printf(w, "\\%c", ch);
      else if (ch < 0x20 || ch >= 0x7f)
        wr_printf(w, "\\%03o", ch);
      else
        wr_putc(w, ch);
    }
  }
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const tr_ent *)a)->name, ((const tr_ent *)b)->name);
}
static int dirs_first(const void *a, const void *b) {
  const tr_ent *x = a, *y = b;
  if (x->isdir != y->isdir)
    return x->isdir ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* The shown entries of directory path, sorted; -1 when it cannot be read. */
static int read_dir(tree *t, const char *path, tr_frame *f) {
  bi_ctx *c = t->c;
  char **names;
  size_t n;
  int e = vfs_readdir(c->vfs, c->cwd, path, &names, &n);
  if (e < 0)
    return -1;
  f->ents = arena_calloc(c->scratch, (n ? n : 1) * sizeof *f->ents);
  f->n = f->i = 0;
  if (!f->ents) {
    vfs_free_names(c->vfs, names, n);
    return -2;
  }
  for (size_t i = 0; i < n; i++) {
    const char *name = names[i];
    if (!t->all && name[0] == '.')
      continue;
    const char *p = fu_join(c, path, name);
    char *nm = arena_strdup(c->scratch, name);
    if (!p || !nm) {
      vfs_free_names(c->vfs, names, n);
      return -2;
    }
    fu_stat st;
    if (vfs_lstat(c->vfs, c->cwd, p, &st) < 0)
      continue;
    tr_ent en = {nm,
                 p,
                 NULL,
                 st.type == VFS_DIR,
                 st.type == VFS_DIR,
                 st.type == VFS_REG && (st.mode & 0111),
                 0,
                 0};
    if (st.type == VFS_LNK) {
      char *tg = NULL;
      if (vfs_readlink(c->vfs, c->cwd, p, &tg, NULL) == 0 && tg) {
        en.target = arena_strdup(c->scratch, tg);
        vfs_release(c->vfs, tg);
      }
      fu_stat ts;
      if (vfs_stat(c->vfs, c->cwd, p, &ts) == 0) {
        en.isdir = en.target_dir = ts.type == VFS_DIR;
        en.target_exec = ts.type == VFS_REG && (ts.mode & 0111);
      }
    }
    if (t->nignore && match_any(t->ignore, t->nignore, name))
      continue;
    if (!en.isdir && t->npattern && !match_any(t->pattern, t->npattern, name))
      continue;
    if (t->dirsonly && !en.isdir)
      continue;
    f->ents[f->n++] = en;
  }
  vfs_free_names(c->vfs, names, n);
  qsort(f->ents, f->n, sizeof *f->ents, t->dirsfirst ? dirs_first : by_name);
  return 0;
}

static void put_indent(tree *t, int depth) {
  for (int i = 0; i < depth; i++)
    wr_puts(&t->w, "  ");
}

/* One entry's line (text form) or object head (JSON). */
static void put_entry(tree *t, const tr_ent *e, const char *prefix, size_t plen,
                      int last, int depth) {
  writer *w = &t->w;
  const char *shown = t->full ? e->path : e->name;
  if (t->json) {
    put_indent(t, depth + 1);
    wr_printf(w, "{\"type\":\"%s\",\"name\":\"",
              e->target    ? "link"
              : e->realdir ? "directory"
                           : "file");
    put_name(t, shown);
    wr_putc(w, '"');
    if (e->target) {
      wr_puts(w, ",\"target\":\"");
      put_name(t, e->target);
      wr_putc(w, '"');
    }
    return;
  }
  wr_write(w, prefix, plen);
  if (t->utf8)
    wr_puts(w, last ? "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 "
                    : "\xe2\x94\x9c\xe2\x94\x80\xe2\x94\x80 ");
  else
    wr_puts(w, last ? "`-- " : "|-- ");
  put_name(t, shown);
  if (e->target) {
    wr_puts(w, " -> ");
    put_name(t, e->target);
    if (t->classify && e->target_dir)
      wr_putc(w, '/');
    else if (t->classify && e->target_exec)
      wr_putc(w, '*');
  } else if (t->classify && e->realdir) {
    wr_putc(w, '/');
  } else if (t->classify && e->exec) {
    wr_putc(w, '*');
  }
  wr_putc(w, '\n');
}

/* Draw the tree below root (already printed). */
static void walk(tree *t, const char *root) {
  bi_ctx *c = t->c;
  size_t cap = 16, n = 0;
  tr_frame *stk = mem_alloc(c->m, cap * sizeof *stk);
  buf prefix;
  buf_init(&prefix, c->m);
  if (!stk) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    t->status = 2;
    return;
  }
  int r = read_dir(t, root, &stk[0]);
  if (r < 0) {
    mem_free(c->m, stk);
    if (r == -2) {
      bi_error(c, "%s", bi_strerror(ENOMEM));
      t->status = 2;
    }
    return;
  }
  stk[0].plen = 0;
  n = 1;
  if (t->json && stk[0].n)
    wr_puts(&t->w, ",\"contents\":[\n");
  while (n && !t->w.err) {
    if (budget_poll(c->bud)) {
      t->status = 2;
      break;
    }
    tr_frame *f = &stk[n - 1];
    if (f->i == f->n) {
      n--;
      if (t->json && f->n) {
        wr_putc(&t->w, '\n');
        put_indent(t, (int)n + 1);
        wr_puts(&t->w, "]}");
      } else if (t->json) {
        wr_putc(&t->w, '}');
      }
      prefix.len = f->plen;
      continue;
    }
    tr_ent *e = &f->ents[f->i++];
    int last = f->i == f->n;
    if (t->json && f->i > 1)
      wr_puts(&t->w, ",\n");
    put_entry(t, e, prefix.data ? prefix.data : "", prefix.len, last, (int)n);
    if (e->isdir)
      t->ndirs++;
    else
      t->nfiles++;
    int enter = e->realdir && !e->target && (long)n < t->level;
    if (!enter) {
      if (t->json)
        wr_putc(&t->w, '}');
      continue;
    }
    if (n == cap) {
      tr_frame *ns = mem_realloc(c->m, stk, cap * 2 * sizeof *stk);
      if (!ns) {
        bi_error(c, "%s", bi_strerror(ENOMEM));
        t->status = 2;
        break;
      }
      stk = ns;
      cap *= 2;
    }
    r = read_dir(t, e->path, &stk[n]);
    if (r < 0) {
      if (r == -2) {
        bi_error(c, "%s", bi_strerror(ENOMEM));
        t->status = 2;
        break;
      }
      if (t->json)
        wr_putc(&t->w, '}');
      continue;
    }
    if (t->json && stk[n].n)
      wr_puts(&t->w, ",\"contents\":[\n");
    stk[n].plen = prefix.len;
    const char *bar = t->utf8
                          ? (last ? "    " : "\xe2\x94\x82\xc2\xa0\xc2\xa0 ")
                          : (last ? "    " : "|   ");
    if (buf_puts(&prefix, bar)) {
      bi_error(c, "%s", bi_strerror(ENOMEM));
      t->status = 2;
      break;
    }
    n++;
  }
  buf_free(&prefix);
  mem_free(c->m, stk);
}

int bi_tree(bi_ctx *c) {
  enum { O_NOREPORT = 0x100, O_DIRSFIRST };
  static const bi_opt opts[] = {{"noreport", O_NOREPORT, BI_ARG_NONE},
                                {"dirsfirst", O_DIRSFIRST, BI_ARG_NONE},
                                BI_OPTS_END};
  tree t;
  memset(&t, 0, sizeof t);
  t.c = c;
  t.level = 1000000;
  t.ignore = arena_alloc(c->scratch, sizeof(char *) * (size_t)c->argc);
  t.pattern = arena_alloc(c->scratch, sizeof(char *) * (size_t)c->argc);
  if (!t.ignore || !t.pattern) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 2;
  }
  int ch;
  bi_getopt g;
  bi_getopt_init(&g, c, "adfFI:JL:P:x", opts);
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'a':
      t.all = 1;
      break;
    case 'd':
      t.dirsonly = 1;
      break;
    case 'f':
      t.full = 1;
      break;
    case 'F':
      t.classify = 1;
      break;
    case 'I':
      t.ignore[t.nignore++] = g.arg;
      break;
    case 'P':
      t.pattern[t.npattern++] = g.arg;
      break;
    case 'J':
      t.json = 1;
      break;
    case 'L': {
      char *e;
      long v = strtol(g.arg, &e, 10);
      if (*e || v < 1) {
        bi_error(c, "Invalid level, must be greater than 0.");
        return 1;
      }
      t.level = v;
      break;
    }
    case 'x':
      break;
    case O_NOREPORT:
      t.noreport = 1;
      break;
    case O_DIRSFIRST:
      t.dirsfirst = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  t.utf8 = tu_utf8_locale(c);
  wr_init(&t.w, c->out);
  static char *dot[] = {".", NULL};
  char **roots = g.noperands ? g.operands : dot;
  int nroots = g.noperands ? g.noperands : 1;
  if (t.json)
    wr_puts(&t.w, "[\n");
  for (int i = 0; i < nroots && !t.w.err; i++) {
    const char *root = roots[i];
    fu_stat st;
    int e = vfs_stat(c->vfs, c->cwd, root, &st);
    if (t.json && i)
      wr_puts(&t.w, ",\n");
    if (e < 0 || st.type != VFS_DIR) {
      if (t.json) {
        wr_puts(&t.w, "  {\"type\":\"directory\",\"name\":\"");
        put_name(&t, root);
        wr_puts(&t.w, "\",\"error\":\"error opening dir\"}");
      } else {
        put_name(&t, root);
        wr_puts(&t.w, "  [error opening dir]\n");
      }
      t.status = 2;
      continue;
    }
    t.ndirs++;
    if (t.json) {
      wr_puts(&t.w, "  {\"type\":\"directory\",\"name\":\"");
      put_name(&t, root);
      wr_putc(&t.w, '"');
    } else {
      put_name(&t, root);
      if (t.classify && root[strlen(root) - 1] != '/')
        wr_putc(&t.w, '/');
      wr_putc(&t.w, '\n');
    }
    walk(&t, root);
  }
  if (t.json) {
    wr_puts(&t.w, "\n");
    if (!t.noreport) {
      wr_printf(&t.w, ",\n  {\"type\":\"report\",\"directories\":%llu",
                (unsigned long long)t.ndirs);
      if (!t.dirsonly)
        wr_printf(&t.w, ",\"files\":%llu", (unsigned long long)t.nfiles);
      wr_puts(&t.w, "}\n");
    }
    wr_puts(&t.w, "]\n");
  } else if (!t.noreport) {
    wr_printf(&t.w, "\n%llu director%s", (unsigned long long)t.ndirs,
              t.ndirs == 1 ? "y" : "ies");
    if (!t.dirsonly)
      wr_printf(&t.w, ", %llu file%s", (unsigned long long)t.nfiles,
                t.nfiles == 1 ? "" : "s");
    wr_putc(&t.w, '\n');
  }
  if (wr_flush(&t.w))
    return bi_stream_status(t.w.err);
  return t.status;
}
