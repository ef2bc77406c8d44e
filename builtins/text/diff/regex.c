/*
 * regex.c - the regular expressions of diff -I (changes whose lines all
 * match are ignored) and -F (the line that names a hunk's function), in
 * GNU grep's basic syntax as GNU diff reads them, run by core/regex.
 */
#include <string.h>

#include "builtins/search/grep/grep.h"
#include "builtins/text/diff/diff.h"
#include "builtins/textutil.h"

struct df_re {
  rx_env env;
  rx r;
  int compiled;
};

df_re *df_re_compile(bi_ctx *c, const char *const *pats, size_t n, int icase) {
  buf pt;
  buf_init(&pt, c->m);
  int utf = tu_utf8_locale(c);
  for (size_t i = 0; i < n; i++) {
    int ng = 0, br = 0;
    buf_puts(&pt, i ? "|(?:" : "(?:");
    /* GNU diff names the pattern in its complaint: "diff: RE: Unmatched (" */
    buf msg;
    buf_init(&msg, c->m);
    stream *cap = stream_capture(c->m, c->bud, &msg, NULL, NULL, 2, 0);
    stream *err = c->err;
    if (cap)
      c->err = cap;
    int bad = gr_translate(c, &pt, pats[i], strlen(pats[i]), 0, '\n', utf,
                           icase, 0, &ng, &br);
    c->err = err;
    if (cap)
      stream_unref(cap);
    size_t skip = strlen(c->argv[0]) + 2;
    if (msg.len > skip) {
      if (bad)
        stream_printf(c->err, "%s: %s: ", c->argv[0], pats[i]);
      else
        stream_printf(c->err, "%s: ", c->argv[0]); /* a warning */
      stream_write(c->err, msg.data + skip, msg.len - skip);
    }
    buf_free(&msg);
    if (bad) {
      buf_free(&pt);
      return NULL;
    }
    buf_putc(&pt, ')');
  }
  df_re *re = mem_calloc(c->m, 1, sizeof *re);
  if (!re || pt.oom || rx_env_init(&re->env, c->m, 0) < 0) {
    mem_free(c->m, re);
    buf_free(&pt);
    bi_error(c, "memory exhausted");
    return NULL;
  }
  re->env.bud = c->bud; /* long automaton searches poll it */
  uint32_t opts = PCRE2_MULTILINE;
  if (icase)
    opts |= PCRE2_CASELESS;
  if (utf)
    opts |= PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_UCP;
  int ec = 0;
  size_t eo;
  int rc = rx_compile(&re->env, &re->r, pt.data ? pt.data : "", pt.len, opts,
                      RX_POSIX | RX_NOJIT, NULL, &ec, &eo);
  buf_free(&pt);
  if (rc < 0) {
    PCRE2_UCHAR msg[256] = "memory exhausted";
    if (ec && ec != PCRE2_ERROR_NOMEMORY)
      pcre2_get_error_message(ec, msg, sizeof msg);
    rx_env_free(&re->env);
    mem_free(c->m, re);
    bi_error(c, "%s", (const char *)msg);
    return NULL;
  }
  re->compiled = 1;
  return re;
}

int df_re_match(df_re *re, const char *s, size_t n) {
  size_t ms, me;
  int rc = rx_search(&re->r, s, n, 0, 0, RX_ANY, &ms, &me);
  return rc == 1;
}

void df_re_free(bi_ctx *c, df_re *re) {
  if (!re)
    return;
  if (re->compiled) {
    rx_free(&re->r);
    rx_env_free(&re->env);
  }
  mem_free(c->m, re);
}
