/*
 * prompt.c - prompt strings (PS1, PS2, PS4 and ${x@P}).
 *
 * Two passes, as in bash: first the backslash escapes are decoded (\u \h
 * \w \t \nnn ...), then, with shopt promptvars, the result is expanded like
 * the inside of double quotes ($var, $(...), $((...)), and \$ \\ \" \`). So a
 * variable holding a backslash escape is not decoded (x='\' y=h: $x$y stays
 * \h), and \\$ ends as $.
 *
 * The identity is the sandbox's: user "user" on host "localhost"; times come
 * from the sandbox clock, in the zone of the exported TZ (UTC without one).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/tz.h"
#include "shell/expand/expand.h"
#include "shell/sh.h"
#include "shell/state/hist.h"
#include "shell/syntax/parse.h"

#define PROMPT_USER "user"
#define PROMPT_HOST "localhost"

/* Local time of the exported TZ (as bash's strftime sees it), UTC when
 * there is none. */
static void put_time(sh_exec *ex, buf *b, const char *fmt) {
  int64_t ns = sh_now_ns(ex);
  int64_t t = ns / 1000000000 - (ns % 1000000000 < 0);
  sh_var *v = sh_var_find(ex, "TZ");
  int exported = v && (v->flags & V_EXPORT) && (v->flags & V_SET) &&
                 !(v->flags & (V_ARRAY | V_ASSOC));
  const tz_zone *z = tz_open(exported ? (v->val ? v->val : "") : NULL);
  tz_tm tm;
  tz_localtime(z, t, 0, &tm);
  tz_close(z);
  tz_format(b, fmt, &tm, 0);
}

/* \w and \W: $HOME at the start becomes ~. */
static void put_cwd(sh_exec *ex, buf *b, int base_only) {
  const char *pwd = sh_getvar(ex, "PWD");
  if (!pwd || !*pwd)
    pwd = ex->cwd;
  const char *home = sh_getvar(ex, "HOME");
  size_t hl = home ? strlen(home) : 0;
  int at_home = hl && strcmp(pwd, home) == 0;
  if (base_only) {
    if (at_home) {
      buf_putc(b, '~');
      return;
    }
    const char *sl = strrchr(pwd, '/');
    buf_puts(b, sl && sl[1] ? sl + 1 : pwd);
    return;
  }
  if (hl > 1 && strncmp(pwd, home, hl) == 0 &&
      (pwd[hl] == '/' || pwd[hl] == 0)) {
    buf_putc(b, '~');
    buf_puts(b, pwd + hl);
    return;
  }
  buf_puts(b, pwd);
}

static int njobs(sh_exec *ex) {
  int n = 0;
  for (sh_job *j = ex->run->jobs; j; j = j->next)
    if (!j->done)
      n++;
  return n;
}

/* Pass one: decode the escapes into b. */
static void decode(sh_exec *ex, buf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c != '\\' || i + 1 >= n) {
      buf_putc(b, c);
      continue;
    }
    char e = s[++i];
    if (e >= '0' && e <= '7') {
      /* Up to three octal digits; the value wraps to a byte. */
      unsigned v = 0;
      size_t k = 0;
      while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
        v = v * 8 + (unsigned)(s[i] - '0');
        i++;
        k++;
      }
      i--;
      buf_putc(b, (int)(v & 0xff));
      continue;
    }
    switch (e) {
    case 'a':
      buf_putc(b, '\a');
      break;
    case 'e':
      buf_putc(b, 033);
      break;
    case 'n':
      buf_putc(b, '\n');
      break;
    case 'r':
      buf_putc(b, '\r');
      break;
    case 'd':
      put_time(ex, b, "%a %b %d");
      break;
    case 't':
      put_time(ex, b, "%H:%M:%S");
      break;
    case 'T':
      put_time(ex, b, "%I:%M:%S");
      break;
    case '@':
      put_time(ex, b, "%I:%M %p");
      break;
    case 'A':
      put_time(ex, b, "%H:%M");
      break;
    case 'D': {
      if (i + 1 < n && s[i + 1] == '{') {
        const char *close = memchr(s + i + 2, '}', n - (i + 2));
        if (close) {
          size_t fl = (size_t)(close - (s + i + 2));
          char fmt[128];
          if (fl == 0)
            strcpy(fmt, "%X");
          else
            snprintf(fmt, sizeof fmt, "%.*s", (int)fl, s + i + 2);
          put_time(ex, b, fmt);
          i = (size_t)(close - s);
          break;
        }
      }
      buf_putc(b, '\\');
      buf_putc(b, e);
      break;
    }
    case 'u':
      buf_puts(b, PROMPT_USER);
      break;
    case 'h':
    case 'H':
      buf_puts(b, PROMPT_HOST);
      break;
    case 's': {
      const char *a0 = ex->arg0 ? ex->arg0 : "bash";
      const char *sl = strrchr(a0, '/');
      buf_puts(b, sl ? sl + 1 : a0);
      break;
    }
    case 'v':
      buf_puts(b, "5.2");
      break;
    case 'V':
      buf_puts(b, "5.2.15");
      break;
    case 'w':
      put_cwd(ex, b, 0);
      break;
    case 'W':
      put_cwd(ex, b, 1);
      break;
    case 'j':
      buf_printf(b, "%d", njobs(ex));
      break;
    case 'l':
      buf_puts(b, "tty"); /* no terminal: bash's word for that */
      break;
    case '!': {
      /* The history number of this command: the entry being run when the
       * shell recorded it, else the number the next one will get; 1 with
       * history off. */
      long hn = 1;
      if (ex->opts & O_HISTORY) {
        const sh_hist *h = ex->hist;
        hn = sh_hist_next_number(ex) - (h && h->last_added ? 1 : 0);
      }
      buf_printf(b, "%ld", hn);
      break;
    }
    case '#': {
      /* the number of this command among those the shell read (0 for a
       * -c string); a prompt shows the next one's */
      const sh_hist *h = ex->hist;
      buf_printf(b, "%ld", h ? h->ncmd + h->prompting : 0);
      break;
    }
    case '$': {
      const char *eu = sh_getvar(ex, "EUID");
      /* Escaped so that pass two leaves it alone. */
      if (eu && strcmp(eu, "0") == 0)
        buf_putc(b, '#');
      else
        buf_puts(b, "\\$");
      break;
    }
    case '[':
    case ']':
      /* Markers for a line editor around invisible text: nothing here. */
      break;
    case '\\':
      buf_putc(b, '\\');
      break;
    default:
      buf_putc(b, '\\');
      buf_putc(b, e);
    }
  }
}

char *sh_prompt_expand(sh_exec *ex, const char *s, size_t n, size_t *outlen) {
  buf b;
  buf_init(&b, ex->m);
  decode(ex, &b, s, n);
  if (b.oom) {
    buf_free(&b);
    sh_oom(ex);
    return NULL;
  }
  char *r = NULL;
  if (!(ex->shopts & SO_PROMPTVARS)) {
    r = arena_strndup(ex->ar, b.data ? b.data : "", b.len);
    *outlen = b.len;
    buf_free(&b);
    return r;
  }
  /* The double-quote lexer wants its closing quote: a plain " in the text
   * becomes \" (which it reads back as "), except inside $(...), ${...} and
   * `...`, whose own quoting it handles, and a final " closes it. */
  buf q;
  buf_init(&q, ex->m);
  int depth = 0, bq = 0;
  for (size_t i = 0; i < b.len; i++) {
    char c = b.data[i];
    if (c == '\\' && i + 1 < b.len) {
      buf_putc(&q, c);
      buf_putc(&q, b.data[++i]);
      continue;
    }
    if (c == '$' && i + 1 < b.len &&
        (b.data[i + 1] == '(' || b.data[i + 1] == '{')) {
      depth++;
      buf_putc(&q, c);
      buf_putc(&q, b.data[++i]);
      continue;
    }
    if (depth && (c == '(' || c == '{'))
      depth++;
    else if (depth && (c == ')' || c == '}'))
      depth--;
    else if (c == '`')
      bq = !bq;
    else if (c == '"' && !depth && !bq)
      buf_putc(&q, '\\');
    buf_putc(&q, c);
  }
  buf_putc(&q, '"');
  buf_free(&b);
  if (q.oom) {
    buf_free(&q);
    sh_oom(ex);
    return NULL;
  }
  /* The parsed word points into its text: keep both in the scratch arena
   * for the caller's lifetime. */
  size_t tl = q.len;
  char *text = arena_strndup(ex->ar, q.data, tl);
  buf_free(&q);
  if (!text)
    return NULL;
  sh_word *w = sh_parse_dq_word(ex->ar, text, tl);
  if (!w) {
    *outlen = tl - 1;
    text[tl - 1] = 0;
    return text;
  }
  r = sh_expand_str(ex, w, outlen);
  return r;
}
