// layers: all
/* Fuzz target: the commands that take any bytes as data. The input is the
 * file /tmp/in of a fresh sandbox under tight limits, and the script runs
 *   file, file -b -i, iconv -f X -t Y (plus -c and //TRANSLIT), column -t,
 *   fmt, numfmt --from=auto, join of the file with itself, split -n
 * over it; X and Y are picked from a list of encodings by the first two
 * bytes. Any crash, sanitizer report or leak is a bug, and so is a sandbox
 * left unusable. Seeds: fuzz/corpus/bytes/. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "usable.h"
#include "vsh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* All but the last two are encodings iconv knows (some by an alias, in
 * another case): a pair it does not know only reaches its usage error. */
static const char *const fz_enc[] = {
    "UTF-8",    "UTF-16",  "UTF-16LE",   "UTF-16BE", "UTF-32", "UTF-32LE",
    "UTF-32BE", "UCS-2",   "UCS-2LE",    "UCS-2BE",  "UCS-4",  "UCS-4LE",
    "UCS-4BE",  "WCHAR_T", "ISO-8859-1", "LATIN9",   "CP1252", "ASCII",
    "utf8",     "l1",      "UnicodeBig", "ms-ansi",  "KOI8-R", "",
};
#define FZ_NENC (sizeof fz_enc / sizeof fz_enc[0])

/* Most outputs go to /dev/null, so that the output cap (64 KiB) does not
 * end the script before its last commands. */
static const char fz_script[] =
    "file /tmp/in; file -b -i /tmp/in; file -N -F ';' /tmp/in\n"
    "iconv -f \"$1\" -t \"$2\" /tmp/in | wc -c\n"
    "iconv -c -f \"$1\" -t \"$2//TRANSLIT\" < /tmp/in > /dev/null\n"
    "iconv -f \"$2\" -t \"$1//IGNORE\" /tmp/in > /dev/null\n"
    "exec > /dev/null\n"
    "column -t /tmp/in; column -t -s ,: -o '|' -R 2 -H 3 /tmp/in\n"
    "column -c 30 -x /tmp/in; column -t -J -N a,b,c -l 2 /tmp/in\n"
    "fmt /tmp/in; fmt -w 7 -u -s /tmp/in; fmt -p '#' -w 30 -t -c /tmp/in\n"
    "numfmt --from=auto < /tmp/in\n"
    "numfmt --to=iec --field=- --invalid=ignore --format=%.3f /tmp/in\n"
    "join /tmp/in /tmp/in; join -t , -a 1 -e X -o auto -i /tmp/in /tmp/in\n"
    "mkdir -p /tmp/s; cd /tmp/s; split -n 3 /tmp/in a; split -n l/4 /tmp/in b\n"
    "split -n r/3 /tmp/in c; split -n r/2/5 /tmp/in; split -b 100 -d /tmp/in "
    "e\n"
    "split -l 3 /tmp/in f\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *args[2] = {fz_enc[(size > 0 ? data[0] : 0) % FZ_NENC],
                         fz_enc[(size > 1 ? data[1] : 0) % FZ_NENC]};
  vsh_file_init file = {"/tmp/in", data, size, 0644};
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.files = &file;
  cfg.nfiles = 1;
  cfg.limits.max_commands = 200;
  cfg.limits.max_loop_iterations = 20000;
  cfg.limits.max_call_depth = 50;
  cfg.limits.max_output_bytes = 1 << 16;
  cfg.limits.max_memory = 64 << 20;
  cfg.limits.max_string_bytes = 1 << 17;
  cfg.limits.max_fs_bytes = 1 << 20;
  cfg.limits.max_fs_inodes = 1000;
  cfg.limits.timeout_ms = 200;
  vsh_sandbox *sb;
  if (vsh_open(&cfg, &sb) != VSH_OK)
    return 0;
  vsh_exec_opts o;
  memset(&o, 0, sizeof o);
  o.args = args;
  o.nargs = 2;
  vsh_result r;
  if (vsh_exec(sb, fz_script, &o, &r) == VSH_OK)
    vsh_result_free(&r);
  fuzz_check_usable(sb);
  vsh_close(sb);
  return 0;
}
