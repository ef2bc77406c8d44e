/* echo.c - bash's echo builtin: -n, -e, -E; anything else is text. */
#include <string.h>

#include "builtins/textutil.h"

const char bi_usage_echo[] = "echo: echo [-neE] [arg ...]";
const char bi_help_echo[] =
    "    Print the ARGs on standard output, with one space between each pair\n"
    "    and a newline after the last.\n"
    "\n"
    "    Options:\n"
    "      -n\tleave out the final newline\n"
    "      -e\texpand the backslash sequences listed below\n"
    "      -E\tprint backslashes as they are (the default)\n"
    "\n"
    "    Sequences that `echo -e' expands:\n"
    "      \\a\tBEL, the terminal bell\n"
    "      \\b\tbackspace\n"
    "      \\c\tstop: print nothing more\n"
    "      \\e\tESC\n"
    "      \\E\tESC\n"
    "      \\f\tform feed\n"
    "      \\n\tnewline\n"
    "      \\r\tcarriage return\n"
    "      \\t\tTAB\n"
    "      \\v\tvertical TAB\n"
    "      \\\\\tone backslash\n"
    "      \\0nnn\tthe byte with octal code nnn (zero to three digits after\n"
    "    \t\tthe 0)\n"
    "      \\xHH\tthe byte with hexadecimal code HH (one or two digits)\n"
    "      \\uHHHH\tthe Unicode code point HHHH, written in UTF-8 (one to\n"
    "    \t\tfour hexadecimal digits)\n"
    "      \\UHHHHHHHH the Unicode code point HHHHHHHH, written in UTF-8 (one\n"
    "    \t\tto eight hexadecimal digits)\n"
    "\n"
    "    Exit Status:\n"
    "    0, or non-zero when the output cannot be written.\n";

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
  if (b.oom) {
    bi_error(c, "memory exhausted");
    rc = 1;
  } else if (b.len && stream_write(c->out, b.data, b.len))
    rc = bi_stream_status(c->out->err);
  buf_free(&b);
  return rc;
}
