/*
 * curl.c - the curl command over the network layer: every URL, method and
 * redirect goes through the sandbox's allow-list (net/), output goes to the
 * command's stdout or into the VFS, exit statuses are curl's.
 *
 * Options follow curl 7.88: short options cluster ("-sSL") and take their
 * argument attached or as the next word ("-XPOST", "-X POST"); long options
 * take the next word ("--max-time 5"; curl has no "--opt=value"). URL
 * globbing ({a,b}, [1-3]) is not done: URLs are taken literally, as with -g.
 */
#ifdef VSH_HAVE_NET

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "builtins/builtin.h"
#include "net/net.h"
#include "vfs/vfs.h"

const char bi_usage_curl[] = "Usage: curl [options...] <url>";
const char bi_help_curl[] =
    " -A, --user-agent <name>   Identify as <name> in the User-Agent header\n"
    " -b, --cookie <data>       Add the cookies in <data> (name=value; ...)\n"
    "     --compressed          Ask for a compressed body and unpack it\n"
    "     --connect-timeout <seconds> Give up connecting after <seconds>\n"
    " -d, --data <data>         Send <data> as a POST body (@file reads a "
    "file)\n"
    "     --data-binary <data>  As --data, with the bytes left untouched\n"
    "     --data-raw <data>     As --data, with no special meaning for '@'\n"
    "     --data-urlencode <data> As --data, with <data> percent-encoded\n"
    " -e, --referer <URL>       Set the Referer header to <URL>\n"
    " -f, --fail                On an HTTP status of 400 or more, write no "
    "body\n"
    "                           and exit with status 22\n"
    "     --fail-with-body      As --fail, but still write the body\n"
    " -F, --form <name=content> Add a multipart/form-data part\n"
    "     --form-string <name=string> Add a form part, taking the value as is\n"
    " -G, --get                 Move the --data values into the URL query and\n"
    "                           send a GET\n"
    " -H, --header <header/@file> Add a request header (or the headers in "
    "file)\n"
    " -h, --help                Print this summary\n"
    " -I, --head                Send a HEAD request and print the headers "
    "only\n"
    " -i, --include             Print the response headers before the body\n"
    " -k, --insecure            Refused: TLS is always verified here\n"
    " -L, --location            Follow redirections\n"
    "     --max-redirs <num>    Follow at most <num> redirections\n"
    " -m, --max-time <seconds>  Give up the whole transfer after <seconds>\n"
    " -o, --output <file>       Save the body in <file> rather than printing "
    "it\n"
    " -O, --remote-name         Save the body under the last part of the URL "
    "path\n"
    " -X, --request <method>    Use <method> as the request method\n"
    "     --retry <num>         Try again up to <num> times after a passing\n"
    "                           failure\n"
    " -S, --show-error          With -s, still print error messages\n"
    " -s, --silent              Print no progress or error messages\n"
    "     --url <url>           Fetch <url> (as if given as an operand)\n"
    " -u, --user <user:password> Log in with these credentials\n"
    " -v, --verbose             Trace the request and response on stderr\n"
    " -w, --write-out <format>  Print <format> after the transfer is done\n"
    "\n"
    "Only URLs the sandbox's network policy allows can be fetched; a refused\n"
    "URL, method or redirect ends with status 7 and names the rule.\n";

enum {
  O_SILENT = 1,
  O_SHOWERR,
  O_FAIL,
  O_FAILBODY,
  O_LOCATION,
  O_OUTPUT,
  O_REMOTE,
  O_INCLUDE,
  O_HEAD,
  O_REQUEST,
  O_HEADER,
  O_DATA,
  O_DATA_RAW,
  O_DATA_BIN,
  O_DATA_URLENC,
  O_FORM,
  O_FORM_STRING,
  O_GET,
  O_USER,
  O_UA,
  O_REFERER,
  O_COOKIE,
  O_WRITEOUT,
  O_MAXTIME,
  O_CONNTO,
  O_MAXREDIRS,
  O_COMPRESSED,
  O_VERBOSE,
  O_RETRY,
  O_INSECURE,
  O_HELP,
  O_URL,
  O_NOOP,
  O_VERSION
};

typedef struct copt {
  const char *lng;
  char shrt;
  int arg;
  int id;
} copt;

static const copt opts[] = {{"silent", 's', 0, O_SILENT},
                            {"show-error", 'S', 0, O_SHOWERR},
                            {"fail", 'f', 0, O_FAIL},
                            {"fail-with-body", 0, 0, O_FAILBODY},
                            {"location", 'L', 0, O_LOCATION},
                            {"output", 'o', 1, O_OUTPUT},
                            {"remote-name", 'O', 0, O_REMOTE},
                            {"include", 'i', 0, O_INCLUDE},
                            {"head", 'I', 0, O_HEAD},
                            {"request", 'X', 1, O_REQUEST},
                            {"header", 'H', 1, O_HEADER},
                            {"data", 'd', 1, O_DATA},
                            {"data-ascii", 0, 1, O_DATA},
                            {"data-raw", 0, 1, O_DATA_RAW},
                            {"data-binary", 0, 1, O_DATA_BIN},
                            {"data-urlencode", 0, 1, O_DATA_URLENC},
                            {"form", 'F', 1, O_FORM},
                            {"form-string", 0, 1, O_FORM_STRING},
                            {"get", 'G', 0, O_GET},
                            {"user", 'u', 1, O_USER},
                            {"user-agent", 'A', 1, O_UA},
                            {"referer", 'e', 1, O_REFERER},
                            {"cookie", 'b', 1, O_COOKIE},
                            {"write-out", 'w', 1, O_WRITEOUT},
                            {"max-time", 'm', 1, O_MAXTIME},
                            {"connect-timeout", 0, 1, O_CONNTO},
                            {"max-redirs", 0, 1, O_MAXREDIRS},
                            {"compressed", 0, 0, O_COMPRESSED},
                            {"verbose", 'v', 0, O_VERBOSE},
                            {"retry", 0, 1, O_RETRY},
                            {"insecure", 'k', 0, O_INSECURE},
                            {"help", 'h', 0, O_HELP},
                            {"url", 0, 1, O_URL},
                            {"no-progress-meter", 0, 0, O_NOOP},
                            {"progress-bar", '#', 0, O_NOOP},
                            {"globoff", 'g', 0, O_NOOP},
                            {"version", 'V', 0, O_VERSION},
                            {NULL, 0, 0, 0}};

/* Where the body (and with -i the headers) of one transfer goes. */
typedef struct dest {
  int kind; /* 0 stdout, 1 file */
  const char *path;
  vfs_file *f;
  int err; /* errno of a failed write */
} dest;

typedef struct cu {
  bi_ctx *c;
  int silent, show_error, fail, fail_body, location, include, head, get;
  int verbose, compressed, retry;
  const char *method, *user, *ua, *referer, *cookie, *writeout;
  int64_t max_time_ms, connect_ms;
  int max_redirs;
  net_header *hdr;
  size_t nhdr, caphdr;
  buf data; /* -d and friends, joined with '&' */
  int has_data, data_seen;
  buf form; /* multipart body */
  int has_form;
  char boundary[48];
  const char **urls;
  size_t nurls;
  const char **outs; /* NULL entry: -O */
  size_t nouts;
  int nomem;
  /* Per transfer. */
  dest *d;
  int holding; /* --retry: headers kept in held until the last attempt */
  buf held;
} cu;

static const char *curl_ua(void) {
  static const char ua[] = "curl/" LIBCURL_VERSION;
  return ua;
}

static int say(cu *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int say(cu *k, const char *fmt, ...) {
  buf b;
  buf_init(&b, k->c->m);
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  stream_write(k->c->err, b.data ? b.data : "", b.len);
  buf_free(&b);
  return 0;
}

static int usage_error(cu *k, const char *fmt, const char *what) {
  say(k, "curl: ");
  say(k, fmt, what);
  say(k, "\ncurl: try 'curl --help' or 'curl --manual' for more "
         "information\n");
  return 2;
}

/* "curl: (N) message" unless silenced (-s without -S). */
static int fail_with(cu *k, int code, const char *message) {
  if (!k->silent || k->show_error)
    say(k, "curl: (%d) %s\n", code, message);
  return code;
}

static int add_header(cu *k, const char *name, size_t nlen, const char *value) {
  if (k->nhdr == k->caphdr) {
    size_t nc = k->caphdr ? k->caphdr * 2 : 8;
    net_header *n = arena_alloc(k->c->scratch, nc * sizeof *n);
    if (!n)
      return -1;
    if (k->nhdr)
      memcpy(n, k->hdr, k->nhdr * sizeof *n);
    k->hdr = n;
    k->caphdr = nc;
  }
  char *nm = arena_strndup(k->c->scratch, name, nlen);
  if (!nm)
    return -1;
  k->hdr[k->nhdr++] = (net_header){nm, value, 0};
  return 0;
}

/* -H "Name: value", "Name:" (remove), "Name;" (empty value). */
static int header_arg(cu *k, const char *h) {
  const char *colon = strchr(h, ':'), *semi = strchr(h, ';');
  if (semi && (!colon || semi < colon) && semi[1] == 0)
    return add_header(k, h, (size_t)(semi - h), "");
  if (!colon)
    return 0; /* curl ignores a header without a colon */
  const char *v = colon + 1;
  while (*v == ' ' || *v == '\t')
    v++;
  if (!*v)
    return add_header(k, h, (size_t)(colon - h), NULL);
  char *val = arena_strdup(k->c->scratch, v);
  return val ? add_header(k, h, (size_t)(colon - h), val) : -1;
}

/* Whole content of a VFS file, or of stdin for "-", into b. */
static int slurp(cu *k, const char *path, buf *b) {
  bi_ctx *c = k->c;
  if (!strcmp(path, "-")) {
    char tmp[8192];
    long n;
    while ((n = stream_read(c->in, tmp, sizeof tmp)) > 0)
      if (buf_append(b, tmp, (size_t)n))
        return -ENOMEM;
    return n < 0 ? -(c->in->err ? c->in->err : EIO) : 0;
  }
  char *d;
  size_t n;
  int rc = vfs_read_file(c->vfs, c->cwd, path, &d, &n);
  if (rc < 0)
    return rc;
  rc = buf_append(b, d, n) ? -ENOMEM : 0;
  vfs_release(c->vfs, d);
  return rc;
}

static void urlencode(buf *out, const char *s, size_t n) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch >= '0' && ch <= '9') || strchr("-._~", ch)) {
      buf_putc(out, ch);
    } else {
      buf_putc(out, '%');
      buf_putc(out, hex[ch >> 4]);
      buf_putc(out, hex[ch & 15]);
    }
  }
}

static int data_arg(cu *k, int id, const char *a) {
  buf piece;
  buf_init(&piece, k->c->m);
  int rc = 0;
  if (id == O_DATA_URLENC) {
    /* content, =content, name=content, @file, name@file */
    const char *eq = strchr(a, '='), *at = strchr(a, '@');
    if (eq && (!at || eq < at)) {
      if (eq > a) {
        buf_append(&piece, a, (size_t)(eq - a));
        buf_putc(&piece, '=');
      }
      urlencode(&piece, eq + 1, strlen(eq + 1));
    } else if (at) {
      buf raw;
      buf_init(&raw, k->c->m);
      if (slurp(k, at + 1, &raw) < 0)
        say(k,
            "Warning: Couldn't read data from file \"%s\", this makes "
            "an empty POST.\n",
            at + 1);
      if (at > a) {
        buf_append(&piece, a, (size_t)(at - a));
        buf_putc(&piece, '=');
      }
      urlencode(&piece, raw.data ? raw.data : "", raw.len);
      buf_free(&raw);
    } else {
      urlencode(&piece, a, strlen(a));
    }
  } else if (a[0] == '@' && id != O_DATA_RAW) {
    if (slurp(k, a + 1, &piece) < 0) {
      say(k,
          "Warning: Couldn't read data from file \"%s\", this makes an "
          "empty POST.\n",
          a + 1);
      buf_clear(&piece);
    }
    if (id == O_DATA) {
      /* -d @file drops carriage returns and newlines, as curl does. */
      size_t o = 0;
      for (size_t i = 0; i < piece.len; i++)
        if (piece.data[i] != '\r' && piece.data[i] != '\n')
          piece.data[o++] = piece.data[i];
      piece.len = o;
    }
  } else {
    buf_puts(&piece, a);
  }
  if (k->data_seen)
    buf_putc(&k->data, '&');
  if (buf_append(&k->data, piece.data ? piece.data : "", piece.len))
    rc = -1;
  k->data_seen = k->has_data = 1;
  buf_free(&piece);
  return rc;
}

/* -F name=value | name=@file[;type=..][;filename=..] | name=<file */
static int form_arg(cu *k, const char *a, int literal) {
  bi_ctx *c = k->c;
  const char *eq = strchr(a, '=');
  if (!eq) {
    say(k, "Warning: Illegally formatted input field!\n");
    return 2;
  }
  if (!k->has_form) {
    unsigned char r[12];
    c->random(c, r, sizeof r);
    static const char al[] = "0123456789abcdef";
    char *b = k->boundary;
    memcpy(b, "------------------------", 24);
    for (int i = 0; i < 12; i++)
      b[24 + i] = al[r[i] % 16];
    b[36] = 0;
    k->has_form = 1;
  }
  const char *v = eq + 1;
  char *val = arena_strdup(c->scratch, v);
  if (!val)
    return 27;
  const char *type = NULL, *fname = NULL;
  int file = !literal && v[0] == '@', content = !literal && v[0] == '<';
  if (!literal) {
    /* ";type=" and ";filename=" attributes after the value. */
    char *s = strchr(val, ';');
    while (s) {
      *s++ = 0;
      if (!strncmp(s, "type=", 5))
        type = s + 5;
      else if (!strncmp(s, "filename=", 9))
        fname = s + 9;
      s = strchr(s, ';');
    }
  }
  buf *f = &k->form;
  buf_printf(f, "--%s\r\nContent-Disposition: form-data; name=\"%.*s\"",
             k->boundary, (int)(eq - a), a);
  buf body;
  buf_init(&body, c->m);
  if (file || content) {
    int rc = slurp(k, val + 1, &body);
    if (rc < 0) {
      buf_free(&body);
      char m[600];
      snprintf(m, sizeof m,
               "Failed to open/read local data from file/application");
      return fail_with(k, 26, m);
    }
  } else {
    buf_puts(&body, val);
  }
  if (file) {
    const char *base = strrchr(val + 1, '/');
    base = base ? base + 1 : val + 1;
    buf_printf(f, "; filename=\"%s\"\r\nContent-Type: %s\r\n\r\n",
               fname ? fname : base, type ? type : "application/octet-stream");
  } else if (type) {
    buf_printf(f, "\r\nContent-Type: %s\r\n\r\n", type);
  } else {
    buf_puts(f, "\r\n\r\n");
  }
  buf_append(f, body.data ? body.data : "", body.len);
  buf_puts(f, "\r\n");
  buf_free(&body);
  return 0;
}

static const copt *find_long(const char *name) {
  for (const copt *o = opts; o->lng; o++)
    if (!strcmp(o->lng, name))
      return o;
  return NULL;
}

static const copt *find_short(char ch) {
  for (const copt *o = opts; o->lng; o++)
    if (o->shrt == ch)
      return o;
  return NULL;
}

static int parse_secs(const char *s, int64_t *ms) {
  char *end;
  double d = strtod(s, &end);
  if (end == s || *end || d < 0 || d > 1e9)
    return -1;
  *ms = (int64_t)(d * 1000.0);
  if (*ms == 0 && d > 0)
    *ms = 1;
  return 0;
}

static int push(cu *k, const char ***arr, size_t *n, const char *v) {
  const char **na = arena_alloc(k->c->scratch, (*n + 1) * sizeof *na);
  if (!na)
    return -1;
  if (*n)
    memcpy(na, *arr, *n * sizeof *na);
  na[(*n)++] = v;
  *arr = na;
  return 0;
}

/* Returns -1 to go on, else an exit status. */
static int apply(cu *k, const copt *o, const char *arg) {
  char tmp[64];
  switch (o->id) {
  case O_SILENT:
    k->silent = 1;
    break;
  case O_SHOWERR:
    k->show_error = 1;
    break;
  case O_FAIL:
    k->fail = 1;
    break;
  case O_FAILBODY:
    k->fail_body = 1;
    break;
  case O_LOCATION:
    k->location = 1;
    break;
  case O_OUTPUT:
    if (push(k, &k->outs, &k->nouts, arg))
      return 27;
    break;
  case O_REMOTE:
    if (push(k, &k->outs, &k->nouts, NULL))
      return 27;
    break;
  case O_INCLUDE:
    k->include = 1;
    break;
  case O_HEAD:
    k->head = 1;
    break;
  case O_REQUEST:
    k->method = arg;
    break;
  case O_HEADER:
    if (arg[0] == '@') {
      buf b;
      buf_init(&b, k->c->m);
      if (slurp(k, arg + 1, &b) < 0) {
        buf_free(&b);
        say(k, "Warning: Failed to open %s\n", arg + 1);
        break;
      }
      char *all = arena_strndup(k->c->scratch, b.data ? b.data : "", b.len);
      buf_free(&b);
      if (!all)
        return 27;
      /* strtok_r: strtok's hidden position is shared by every thread, and
       * sandboxes on other threads may be running curl too */
      char *save = NULL;
      for (char *line = strtok_r(all, "\r\n", &save); line;
           line = strtok_r(NULL, "\r\n", &save))
        if (header_arg(k, line))
          return 27;
    } else if (header_arg(k, arg)) {
      return 27;
    }
    break;
  case O_DATA:
  case O_DATA_RAW:
  case O_DATA_BIN:
  case O_DATA_URLENC:
    if (data_arg(k, o->id, arg))
      return 27;
    break;
  case O_FORM:
  case O_FORM_STRING: {
    int rc = form_arg(k, arg, o->id == O_FORM_STRING);
    if (rc)
      return rc;
    break;
  }
  case O_GET:
    k->get = 1;
    break;
  case O_USER:
    k->user = arg;
    break;
  case O_UA:
    k->ua = arg;
    break;
  case O_REFERER:
    k->referer = arg;
    break;
  case O_COOKIE:
    k->cookie = arg;
    break;
  case O_WRITEOUT:
    k->writeout = arg;
    break;
  case O_MAXTIME:
    if (parse_secs(arg, &k->max_time_ms))
      return usage_error(k,
                         "option --max-time: expected a proper numerical "
                         "parameter%s",
                         "");
    break;
  case O_CONNTO:
    if (parse_secs(arg, &k->connect_ms))
      return usage_error(k,
                         "option --connect-timeout: expected a proper "
                         "numerical parameter%s",
                         "");
    break;
  case O_MAXREDIRS:
  case O_RETRY: {
    char *end;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end || v < -1 || v > 100000) {
      snprintf(tmp, sizeof tmp, "--%s", o->lng);
      return usage_error(k, "option %s: expected a proper numerical parameter",
                         tmp);
    }
    if (o->id == O_MAXREDIRS)
      k->max_redirs = (int)v;
    else
      k->retry = v < 0 ? 0 : (int)v;
    break;
  }
  case O_COMPRESSED:
    k->compressed = 1;
    break;
  case O_VERBOSE:
    k->verbose = 1;
    break;
  case O_INSECURE:
    say(k,
        "curl: option %s: TLS certificate verification cannot be turned "
        "off in this sandbox\n",
        arg ? arg : "--insecure");
    return 2;
  case O_HELP:
    stream_puts(k->c->out, bi_usage_curl);
    stream_puts(k->c->out, "\n");
    stream_puts(k->c->out, bi_help_curl);
    return 0;
  case O_VERSION:
    stream_printf(k->c->out,
                  "curl %s (vsh) libcurl/%s\nProtocols: http https\n",
                  LIBCURL_VERSION, curl_version_info(CURLVERSION_NOW)->version);
    return 0;
  case O_URL:
    if (push(k, &k->urls, &k->nurls, arg))
      return 27;
    break;
  default:
    break;
  }
  return -1;
}

static int parse_args(cu *k) {
  bi_ctx *c = k->c;
  int only_urls = 0;
  for (int i = 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (only_urls || a[0] != '-' || !a[1]) {
      if (push(k, &k->urls, &k->nurls, a))
        return 27;
      continue;
    }
    if (!strcmp(a, "--")) {
      only_urls = 1;
      continue;
    }
    if (a[1] == '-') {
      const copt *o = find_long(a + 2);
      if (!o)
        return usage_error(k, "option %s: is unknown", a);
      const char *arg = NULL;
      if (o->arg) {
        if (i + 1 >= c->argc)
          return usage_error(k, "option %s: requires parameter", a);
        arg = c->argv[++i];
      }
      int rc = apply(k, o, o->id == O_INSECURE ? a : arg);
      if (rc >= 0)
        return rc;
      continue;
    }
    for (const char *p = a + 1; *p; p++) {
      const copt *o = find_short(*p);
      char name[3] = {'-', *p, 0};
      if (!o)
        return usage_error(k, "option %s: is unknown", name);
      const char *arg = NULL;
      if (o->arg) {
        if (p[1]) {
          arg = p + 1;
        } else {
          if (i + 1 >= c->argc)
            return usage_error(k, "option %s: requires parameter", name);
          arg = c->argv[++i];
        }
      }
      int rc = apply(k, o, o->id == O_INSECURE ? name : arg);
      if (rc >= 0)
        return rc;
      if (o->arg)
        break;
    }
  }
  return -1;
}

/* ---- output ----------------------------------------------------------- */

static int dest_write(cu *k, dest *d, const void *p, size_t n) {
  bi_ctx *c = k->c;
  if (d->err)
    return -1;
  if (d->kind == 0) {
    if (stream_write(c->out, p, n)) {
      d->err = c->out->err ? c->out->err : EIO;
      return -1;
    }
    return 0;
  }
  if (!d->f) {
    int rc = vfs_open(c->vfs, c->cwd, d->path, O_WRONLY | O_CREAT | O_TRUNC,
                      0666, &d->f);
    if (rc < 0) {
      d->err = -rc;
      return -1;
    }
  }
  if (n && vfs_write(d->f, p, n) < 0) {
    d->err = ENOSPC;
    return -1;
  }
  return 0;
}

static int on_body(void *ud, const void *p, size_t n) {
  cu *k = ud;
  return dest_write(k, k->d, p, n);
}

static void on_header(void *ud, const char *line, size_t n) {
  cu *k = ud;
  if (k->verbose) {
    say(k, "< ");
    stream_write(k->c->err, line, n);
  }
  if (!(k->include || k->head))
    return;
  if (k->holding)
    buf_append(&k->held, line, n);
  else
    dest_write(k, k->d, line, n);
}

static void on_request(void *ud, const net_hop *h) {
  cu *k = ud;
  if (!k->verbose)
    return;
  const net_url *u = h->url;
  if (h->index > 0)
    say(k, "* Issue another request to this URL: '%s'\n", u->url);
  say(k, "* Connecting to %s port %d\n", u->host, u->port);
  const char *q = strchr(u->url + strlen(u->scheme) + 3, '?');
  say(k, "> %s %s%s HTTP/1.1\r\n", h->method, u->path, q ? q : "");
  int dport = !strcmp(u->scheme, "https") ? 443 : 80;
  if (u->port == dport)
    say(k, "> Host: %s\r\n", u->host);
  else
    say(k, "> Host: %s:%d\r\n", u->host, u->port);
  for (size_t i = 0; i < h->nheaders; i++) {
    const net_header *x = &h->headers[i];
    if (!x->value)
      continue;
    /* Secrets the host injects are never shown to the script. */
    say(k, "> %s: %s\r\n", x->name, x->injected ? "[hidden]" : x->value);
  }
  say(k, ">\r\n");
}

/* ---- -w ---------------------------------------------------------------- */

static void write_out(cu *k, const char *url, const net_response *r, int code) {
  bi_ctx *c = k->c;
  const char *f = k->writeout;
  buf fb, o;
  buf_init(&fb, c->m);
  buf_init(&o, c->m);
  if (f[0] == '@') {
    if (slurp(k, f + 1, &fb) < 0) {
      buf_free(&fb);
      return;
    }
    f = buf_cstr(&fb);
  }
  for (; *f; f++) {
    if (*f == '\\' && f[1]) {
      f++;
      if (*f == 'n')
        buf_putc(&o, '\n');
      else if (*f == 't')
        buf_putc(&o, '\t');
      else if (*f == 'r')
        buf_putc(&o, '\r');
      else if (*f == '\\')
        buf_putc(&o, '\\');
      else {
        buf_putc(&o, '\\'); /* unknown escape: kept as written */
        buf_putc(&o, *f);
      }
      continue;
    }
    if (*f != '%') {
      buf_putc(&o, *f);
      continue;
    }
    if (f[1] == '%') {
      buf_putc(&o, '%');
      f++;
      continue;
    }
    if (f[1] != '{') {
      buf_putc(&o, '%');
      continue;
    }
    const char *end = strchr(f + 2, '}');
    if (!end) {
      buf_putc(&o, '%');
      continue;
    }
    size_t n = (size_t)(end - (f + 2));
    const char *v = f + 2;
#define IS(name) (n == sizeof(name) - 1 && !memcmp(v, name, n))
    if (IS("http_code") || IS("response_code"))
      buf_printf(&o, "%03d", r->status);
    else if (IS("size_download"))
      buf_printf(&o, "%llu", (unsigned long long)r->size_download);
    else if (IS("content_type"))
      buf_puts(&o, r->content_type ? r->content_type : "");
    else if (IS("url_effective"))
      buf_puts(&o, r->effective_url ? r->effective_url : url);
    else if (IS("redirect_url"))
      buf_puts(&o, r->redirect_url ? r->redirect_url : "");
    else if (IS("num_redirects"))
      buf_printf(&o, "%d", r->num_redirects);
    else if (IS("exitcode"))
      buf_printf(&o, "%d", code);
    else if (IS("errormsg"))
      buf_puts(&o, code ? r->message : "");
    else if (IS("url"))
      buf_puts(&o, url);
    else if (IS("method"))
      buf_puts(&o, k->method ? k->method : "GET");
    else
      say(k, "curl: unknown --write-out variable: '%.*s'\n", (int)n, v);
#undef IS
    f = end;
  }
  stream_write(c->out, o.data ? o.data : "", o.len);
  buf_free(&o);
  buf_free(&fb);
}

/* ---- one URL ----------------------------------------------------------- */

static int retriable(int code, int status) {
  if (code == 28)
    return 1;
  return code == 0 && (status == 408 || status == 429 || status == 500 ||
                       status == 502 || status == 503 || status == 504);
}

static int64_t remaining_ms(bi_ctx *c) {
  if (!c->bud || !c->bud->deadline_ns)
    return -1;
  int64_t left = (c->bud->deadline_ns - budget_now_ns(c->bud)) / 1000000;
  return left < 0 ? 0 : left;
}

/* Sleep ms in small steps, watching the budget; -1 when it stopped. */
static int nap(bi_ctx *c, int64_t ms) {
  while (ms > 0) {
    int64_t step = ms < 50 ? ms : 50;
    sched_nap(sched_running(), (long)step * 1000000L);
    ms -= step;
    if (c->bud && budget_poll(c->bud))
      return -1;
  }
  return 0;
}

static int transfer(cu *k, const char *url, const char *out_spec, int has_out) {
  bi_ctx *c = k->c;
  const net_policy *p = c->net;
  dest d = {0};
  k->d = &d;
  if (has_out && out_spec && strcmp(out_spec, "-") != 0) {
    d.kind = 1;
    d.path = out_spec;
  } else if (has_out && !out_spec) {
    /* -O: the last path segment of the URL. */
    net_url u;
    char err[256];
    if (net_url_parse(c->m, url, NET_URL_GUESS_SCHEME, &u, err, sizeof err))
      return fail_with(k, 3, err);
    const char *base = strrchr(u.path, '/');
    base = base ? base + 1 : u.path;
    char *name = arena_strdup(c->scratch, base);
    net_url_free(c->m, &u);
    if (!name)
      return 27;
    if (!*name) {
      say(k, "curl: Remote file name has no length!\n");
      return 23;
    }
    d.kind = 1;
    d.path = name;
  }

  /* Method and body. */
  const char *method = k->method;
  const void *body = NULL;
  size_t body_len = 0;
  int has_body = 0;
  const char *ctype = NULL;
  char *full_url = (char *)url;
  if (k->has_form) {
    has_body = 1;
    body = k->form.data;
    body_len = k->form.len;
    size_t n = sizeof "multipart/form-data; boundary=" + strlen(k->boundary);
    char *t = arena_alloc(c->scratch, n);
    if (!t)
      return 27;
    snprintf(t, n, "multipart/form-data; boundary=%s", k->boundary);
    ctype = t;
  } else if (k->has_data && k->get) {
    size_t n = strlen(url) + k->data.len + 2;
    full_url = arena_alloc(c->scratch, n);
    if (!full_url)
      return 27;
    snprintf(full_url, n, "%s%c%s", url, strchr(url, '?') ? '&' : '?',
             buf_cstr(&k->data));
  } else if (k->has_data) {
    has_body = 1;
    body = k->data.data ? k->data.data : "";
    body_len = k->data.len;
    ctype = "application/x-www-form-urlencoded";
  }
  if (!method)
    method = k->head ? "HEAD" : has_body ? "POST" : "GET";

  net_request rq = {
      .method = method,
      .url = full_url,
      .url_flags = NET_URL_GUESS_SCHEME,
      .headers = k->hdr,
      .nheaders = k->nhdr,
      .content_type = ctype,
      .body = body,
      .body_len = body_len,
      .has_body = has_body,
      .follow = k->location,
      .max_redirects = k->max_redirs,
      .timeout_ms = k->max_time_ms,
      .connect_timeout_ms = k->connect_ms,
      .compressed = k->compressed,
      .fail_on_error = k->fail && !k->fail_body,
  };
  /* With --retry the response is held back until it is known to be the
   * last one, so a retried 503 leaves no trace in the output. */
  net_callbacks cb = {k, on_request, on_header, k->retry ? NULL : on_body};
  k->holding = k->retry > 0;
  net_response r;
  int code;
  int tries = 0;
  int64_t delay = 1000;
  volatile const int *abort_flag =
      c->bud ? (volatile const int *)c->bud->cancel : NULL;
  for (;;) {
    buf_clear(&k->held);
    code = net_fetch(p, &rq, remaining_ms(c), abort_flag, &cb, &r);
    if (!k->retry || tries >= k->retry || !retriable(code, r.status))
      break;
    tries++;
    if (!k->silent)
      say(k,
          "Warning: Problem : %s. Will retry in %lld seconds. %d retries "
          "left.\n",
          code == 28 ? "timeout" : "HTTP error", (long long)(delay / 1000),
          k->retry - tries + 1);
    net_response_free(&r);
    int64_t left = remaining_ms(c);
    if ((left >= 0 && left < delay) || nap(c, delay)) {
      code = net_fetch(p, &rq, 0, abort_flag, NULL, &r); /* times out */
      break;
    }
    if (delay < 600000)
      delay *= 2;
  }
  if (k->retry && k->held.len)
    dest_write(k, &d, k->held.data, k->held.len);
  if (k->retry && code == 0 && r.body.len)
    dest_write(k, &d, r.body.data, r.body.len);
  if (code == 0 && (k->fail || k->fail_body) && r.status >= 400) {
    code = 22;
    snprintf(r.message, sizeof r.message,
             "The requested URL returned error: %d", r.status);
  }
  if (code == 0 && d.kind == 1 && !d.f && !d.err)
    dest_write(k, &d, "", 0); /* an empty body still makes the file */
  if (d.f)
    vfs_close(d.f);
  if (code == 0 && d.err) {
    code = 23;
    snprintf(r.message, sizeof r.message,
             d.kind ? "Failed writing body"
                    : "Failure writing output to "
                      "destination");
    if (d.kind == 0 && d.err == EPIPE) {
      net_response_free(&r);
      return 141;
    }
  } else if (code == 23 && d.err == EPIPE) {
    net_response_free(&r);
    return 141;
  }
  if (code == 23 && d.kind == 1 && d.err) {
    snprintf(r.message, sizeof r.message, "Failed to open the file %.300s: %s",
             d.path, strerror(d.err));
  }
  if (k->writeout)
    write_out(k, url, &r, code);
  if (code)
    fail_with(k, code, r.message);
  net_response_free(&r);
  return code;
}

/* Request headers the curl tool adds itself, placed in the list so the
 * policy's injected ones can override them and -v shows them. */
static int tool_headers(cu *k) {
  bi_ctx *c = k->c;
  /* -H wins over -A, which wins over the default, as in curl. */
  int ua = 0;
  for (size_t i = 0; i < k->nhdr; i++)
    ua |= !strcasecmp(k->hdr[i].name, "User-Agent");
  if (!ua && add_header(k, "User-Agent", 10, k->ua ? k->ua : curl_ua()))
    return -1;
  int accept = 0;
  for (size_t i = 0; i < k->nhdr; i++)
    accept |= !strcasecmp(k->hdr[i].name, "Accept");
  if (!accept && add_header(k, "Accept", 6, "*/*"))
    return -1;
  if (k->referer && add_header(k, "Referer", 7, k->referer))
    return -1;
  if (k->cookie && strchr(k->cookie, '=') &&
      add_header(k, "Cookie", 6, k->cookie))
    return -1;
  if (k->user) {
    const char *up = k->user;
    char *with_colon = NULL;
    if (!strchr(up, ':')) {
      size_t n = strlen(up) + 2;
      with_colon = arena_alloc(c->scratch, n);
      if (!with_colon)
        return -1;
      snprintf(with_colon, n, "%s:", up);
      up = with_colon;
    }
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = strlen(up);
    char *v = arena_alloc(c->scratch, 6 + (n + 2) / 3 * 4 + 1);
    if (!v)
      return -1;
    char *o = v + sprintf(v, "Basic ");
    const unsigned char *s = (const unsigned char *)up;
    for (size_t i = 0; i < n; i += 3) {
      unsigned x = (unsigned)s[i] << 16;
      if (i + 1 < n)
        x |= (unsigned)s[i + 1] << 8;
      if (i + 2 < n)
        x |= s[i + 2];
      *o++ = b64[(x >> 18) & 63];
      *o++ = b64[(x >> 12) & 63];
      *o++ = i + 1 < n ? b64[(x >> 6) & 63] : '=';
      *o++ = i + 2 < n ? b64[x & 63] : '=';
    }
    *o = 0;
    int present = 0;
    for (size_t i = 0; i < k->nhdr; i++)
      present |= !strcasecmp(k->hdr[i].name, "Authorization");
    if (!present && add_header(k, "Authorization", 13, v))
      return -1;
  }
  return 0;
}

int bi_curl(bi_ctx *c) {
  cu k;
  memset(&k, 0, sizeof k);
  k.c = c;
  k.max_redirs = -1;
  buf_init(&k.data, c->m);
  buf_init(&k.form, c->m);
  buf_init(&k.held, c->m);
  int st = parse_args(&k);
  if (st >= 0)
    goto out;
  if (!c->net) {
    /* The shell hides curl without a policy; reached directly, refuse. */
    st = fail_with(&k, 7, "no network access is configured for this sandbox");
    goto out;
  }
  if (!k.nurls) {
    st = usage_error(&k, "no URL specified!%s", "");
    goto out;
  }
  if (k.has_form) {
    buf_printf(&k.form, "--%s--\r\n", k.boundary);
    if (k.has_data) {
      say(&k, "Warning: You can only select one HTTP request method! You "
              "asked for both POST\nWarning: (-d, --data) and multipart "
              "formpost (-F, --form).\n");
      st = 2;
      goto out;
    }
  }
  if (tool_headers(&k)) {
    st = fail_with(&k, 27, "Out of memory");
    goto out;
  }
  st = 0;
  for (size_t i = 0; i < k.nurls; i++) {
    int has_out = i < k.nouts;
    int rc = transfer(&k, k.urls[i], has_out ? k.outs[i] : NULL, has_out);
    if (rc)
      st = rc;
    if (rc == 141 || (c->bud && budget_poll(c->bud)))
      break;
  }
out:
  buf_free(&k.data);
  buf_free(&k.form);
  buf_free(&k.held);
  return st;
}

#else
/* Built without the network layer: no curl (ISO C wants a declaration). */
typedef int vsh_no_curl;
#endif /* VSH_HAVE_NET */
