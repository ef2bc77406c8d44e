/* echo.c - bash's echo builtin: -n, -e, -E; anything else is text. */
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_echo[] = "echo: echo [-neE] [arg ...]";
const char bi_help_echo[] =
    "    Write arguments to the standard output.\n"
    "\n"
    "    Display the ARGs, separated by a single space character and followed\n"
    "    by a newline, on the standard output.\n"
    "\n"
    "    Options:\n"
    "      -n\tdo not append a newline\n"
    "      -e\tenable interpretation of the following backslash escapes\n"
    "      -E\texplicitly suppress interpretation of backslash escapes\n"
    "\n"
    "    `echo' interprets the following backslash-escaped characters:\n"
    "      \\a\talert (bell)\n"
    "      \\b\tbackspace\n"
    "      \\c\tsuppress further output\n"
    "      \\e\tescape character\n"
    "      \\E\tescape character\n"
    "      \\f\tform feed\n"
    "      \\n\tnew line\n"
    "      \\r\tcarriage return\n"
    "      \\t\thorizontal tab\n"
    "      \\v\tvertical tab\n"
    "      \\\\\tbackslash\n"
    "      \\0nnn\tthe character whose ASCII code is NNN (octal).  NNN can be\n"
    "    \t\t0 to 3 octal digits\n"
    "      \\xHH\tthe eight-bit character whose value is HH (hexadecimal).  "
    "HH\n"
    "    \t\tcan be one or two hex digits\n"
    "      \\uHHHH\tthe Unicode character whose value is the hexadecimal "
    "value HHHH.\n"
    "    \t\tHHHH can be one to four hex digits.\n"
    "      \\UHHHHHHHH the Unicode character whose value is the hexadecimal "
    "value\n"
    "    \t\tHHHHHHHH. HHHHHHHH can be one to eight hex digits.\n"
    "\n"
    "    Exit Status:\n"
    "    Returns success unless a write error occurs.\n";

/* An argument is an option only when every letter after the dash is one of
 * n, e, E (bash): "-nx" or "--" is printed as text. */
static int is_opt(const char *a) {
  if (a[0] != '-' || a[1] == 0)
    return 0;
  for (const char *p = a + 1; *p; p++)
    if (*p != 'n' && *p != 'e' && *p != 'E')
      return 0;
  return 1;
}

int bi_echo(bi_ctx *c) {
  int i = 1, nl = 1, esc = 0;
  for (; i < c->argc && is_opt(c->argv[i]); i++) {
    for (const char *p = c->argv[i] + 1; *p; p++) {
      if (*p == 'n')
        nl = 0;
      else if (*p == 'e')
        esc = 1;
      else
        esc = 0;
    }
  }
  buf b;
  buf_init(&b, c->m);
  int stop = 0;
  for (int first = i; i < c->argc && !stop; i++) {
    if (i > first)
      buf_putc(&b, ' ');
    const char *a = c->argv[i];
    size_t n = strlen(a);
    if (!esc) {
      buf_append(&b, a, n);
      continue;
    }
    for (size_t k = 0; k < n && !stop;) {
      const char *bs = memchr(a + k, '\\', n - k);
      size_t run = bs ? (size_t)(bs - (a + k)) : n - k;
      buf_append(&b, a + k, run);
      k += run;
      if (!bs)
        break;
      k++;
      k += tu_escape(c, a + k, n - k, TU_ESC_ECHO, &b, &stop);
    }
  }
  if (nl && !stop)
    buf_putc(&b, '\n');
  int rc = 0;
  if (b.len && stream_write(c->out, b.data, b.len))
    rc = bi_stream_status(c->out->err);
  buf_free(&b);
  return rc;
}
