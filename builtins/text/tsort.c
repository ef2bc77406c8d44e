/*
 * tsort.c - GNU tsort (coreutils 9.1): a total order of the items whose
 * pairs (A B: A comes before B) the input lists. Knuth's algorithm T as
 * coreutils runs it, so that the order is the same: the items without a
 * predecessor are taken in name order, each one printed frees its
 * successors (the last recorded first), which join the end of the queue.
 * A cycle is reported ("input contains a loop:" and its items on stderr),
 * broken by dropping one pair, and the status becomes 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/fileutil.h"
#include "builtins/textutil.h"

const char bi_usage_tsort[] = "Usage: tsort [OPTION] [FILE]";
const char bi_help_tsort[] =
    "Read pairs of items from FILE (or standard input), each pair saying\n"
    "that its first item comes before its second, and print all the items\n"
    "in an order that keeps every pair. A pair of the same item twice only\n"
    "names it. Items are separated by blanks and newlines.\n"
    "\n"
    "      --help     print this summary and quit\n"
    "      --version  print the version line and quit\n";

typedef struct ts_item ts_item;
typedef struct ts_succ {
  ts_item *suc;
  struct ts_succ *next;
} ts_succ;

struct ts_item {
  const char *str;
  size_t count; /* predecessors not yet printed */
  ts_succ *top; /* successors, the last recorded first */
  ts_item *qlink;
  int printed;
};

typedef struct ts {
  bi_ctx *c;
  ts_item **tab; /* hash table of items (mem) */
  size_t cap, n;
  ts_item *head, *zeros, *loop;
  int nomem;
} ts;

static uint64_t ts_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static ts_item *ts_find(ts *t, const char *s, size_t n) {
  if (t->n * 2 >= t->cap) {
    size_t ncap = t->cap ? t->cap * 2 : 64;
    ts_item **nt = mem_calloc(t->c->m, ncap, sizeof *nt);
    if (!nt)
      return NULL;
    for (size_t i = 0; i < t->cap; i++)
      if (t->tab[i]) {
        size_t j = ts_hash(t->tab[i]->str, strlen(t->tab[i]->str)) & (ncap - 1);
        while (nt[j])
          j = (j + 1) & (ncap - 1);
        nt[j] = t->tab[i];
      }
    mem_free(t->c->m, t->tab);
    t->tab = nt;
    t->cap = ncap;
  }
  size_t j = ts_hash(s, n) & (t->cap - 1);
  for (; t->tab[j]; j = (j + 1) & (t->cap - 1))
    if (!strncmp(t->tab[j]->str, s, n) && !t->tab[j]->str[n])
      return t->tab[j];
  ts_item *k = arena_calloc(t->c->scratch, sizeof *k);
  char *str = arena_strndup(t->c->scratch, s, n);
  if (!k || !str)
    return NULL;
  k->str = str;
  t->tab[j] = k;
  t->n++;
  return k;
}

static int by_name(const void *a, const void *b) {
  return strcmp((*(ts_item *const *)a)->str, (*(ts_item *const *)b)->str);
}

/* coreutils' detect_loop, applied to the items in name order until it
 * returns 1. */
static int detect_loop(ts *t, ts_item *k) {
  if (k->count == 0)
    return 0;
  if (!t->loop) {
    t->loop = k;
    return 0;
  }
  for (ts_succ **p = &k->top; *p; p = &(*p)->next) {
    if ((*p)->suc != t->loop)
      continue;
    if (k->qlink) {
      while (t->loop) {
        ts_item *tmp = t->loop->qlink;
        bi_error(t->c, "%s", t->loop->str);
        if (t->loop == k) {
          (*p)->suc->count--;
          *p = (*p)->next;
          break;
        }
        t->loop->qlink = NULL;
        t->loop = tmp;
      }
      while (t->loop) {
        ts_item *tmp = t->loop->qlink;
        t->loop->qlink = NULL;
        t->loop = tmp;
      }
      return 1;
    }
    k->qlink = t->loop;
    t->loop = k;
    break;
  }
  return 0;
}

int bi_tsort(bi_ctx *c) {
  bi_getopt g;
  if (tu_getopt_bare(c, &g))
    return g.status;
  if (g.noperands > 1)
    return tu_extra_operand(c, g.operands[1]);
  const char *file = g.noperands ? g.operands[0] : "-";
  int err = 0;
  stream *in = bi_open_read(c, file, &err);
  if (!in) {
    tu_file_error(c, file, err);
    return 1;
  }
  ts t;
  memset(&t, 0, sizeof t);
  t.c = c;
  int status = 0;
  writer w;
  wr_init(&w, c->out);
  reader r;
  rd_init(&r, c->m, in);
  rd_flush_to(&r, &w);
  ts_item *j = NULL;
  ts_item **all = NULL;
  const char *line;
  size_t len;
  int rc;
  while ((rc = rd_record(&r, '\n', &line, &len)) > 0) {
    if (budget_poll(c->bud)) {
      status = 1;
      goto out;
    }
    for (size_t i = 0; i < len;) {
      while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n'))
        i++;
      size_t s = i;
      while (i < len && !(line[i] == ' ' || line[i] == '\t' || line[i] == '\n'))
        i++;
      if (i == s)
        continue;
      ts_item *k = ts_find(&t, line + s, i - s);
      if (!k) {
        bi_error(c, "%s", bi_strerror(ENOMEM));
        status = 1;
        goto out;
      }
      if (j) {
        if (strcmp(j->str, k->str)) {
          ts_succ *p = arena_alloc(c->scratch, sizeof *p);
          if (!p) {
            bi_error(c, "%s", bi_strerror(ENOMEM));
            status = 1;
            goto out;
          }
          k->count++;
          p->suc = k;
          p->next = j->top;
          j->top = p;
        }
        k = NULL;
      }
      j = k;
    }
  }
  if (rc < 0) {
    if (r.err != ECANCELED)
      tu_file_error(c, file, r.err);
    status = 1;
    goto out;
  }
  if (j) {
    bi_error(c, "%s: input contains an odd number of tokens",
             fu_quotef(c, file));
    status = 1;
    goto out;
  }
  all = mem_alloc(c->m, (t.n ? t.n : 1) * sizeof *all);
  if (!all) {
    bi_error(c, "%s", bi_strerror(ENOMEM));
    status = 1;
    goto out;
  }
  size_t n = 0;
  for (size_t i = 0; i < t.cap; i++)
    if (t.tab[i])
      all[n++] = t.tab[i];
  qsort(all, n, sizeof *all, by_name);
  size_t left = n;
  while (left > 0 && !w.err) {
    if (budget_poll(c->bud)) {
      status = 1;
      break;
    }
    for (size_t i = 0; i < n; i++) {
      ts_item *k = all[i];
      if (k->count == 0 && !k->printed) {
        if (!t.head)
          t.head = k;
        else
          t.zeros->qlink = k;
        t.zeros = k;
      }
    }
    while (t.head) {
      wr_puts(&w, t.head->str);
      wr_putc(&w, '\n');
      t.head->printed = 1;
      left--;
      for (ts_succ *p = t.head->top; p; p = p->next)
        if (--p->suc->count == 0) {
          t.zeros->qlink = p->suc;
          t.zeros = p->suc;
        }
      t.head = t.head->qlink;
    }
    if (left > 0) {
      wr_flush(&w);
      bi_error(c, "%s: input contains a loop:", fu_quotef(c, file));
      status = 1;
      int found;
      do {
        found = 0;
        for (size_t i = 0; i < n && !found; i++)
          found = detect_loop(&t, all[i]);
        if (budget_poll(c->bud)) {
          left = 0;
          break;
        }
      } while (t.loop);
    }
  }
out:
  mem_free(c->m, all);
  mem_free(c->m, t.tab);
  rd_free(&r);
  stream_unref(in);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
