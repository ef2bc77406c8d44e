// layers: all
/* Fuzz target: a jq program and its input (PROGRAM NUL INPUT, options on a
 * first line starting with '-', e.g. "-n -c --arg x 1" or "-s -r"; see
 * tool_target.h) run by the sandbox's jq under tight limits, as
 *   jq OPTION... -f /tmp/p.jq
 * with INPUT on standard input (and in /tmp/in, for --slurpfile, --rawfile
 * or a file argument). The program goes through a file so that one starting
 * with '-' stays a program. Seeds: fuzz/corpus/jq/. */
#include "tool_target.h"

#define FZ_PAIRS                                                               \
  {                                                                            \
    {"[", "]"}, {"{a: ", "}"}, {"(", ")"}, {"[.[] | ", "]"},                   \
        {"reduce .[] as $x (0; ", ")"}, {"def f: ", "; f"},                    \
        {"try ", " catch ."}, {"if . then ", " else . end"}, {"\"\\(", ")\""}, \
        {"label $out | ", ""}, {"path(", ")"}, {"[limit(3; ", ")]"},           \
        {"foreach .[] as $x (0; ", "; .)"}, {"recurse(", ")"},                 \
        {". as [$a] | ", ""}, {"(", ")?"},                                     \
  }
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_run_tool("printf '%s' \"$P\" > /tmp/p.jq && jq \"$@\" -f /tmp/p.jq",
                     data, size);
}
