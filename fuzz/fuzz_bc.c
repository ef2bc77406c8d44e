// layers: all
/* Fuzz target: a bc program (or a dc one) and its input, PROGRAM NUL INPUT
 * as in tool_target.h. A first line starting with '-' holds bc's options
 * ("-l", "-q -s", ...); a first line "dc" or "dc OPTION..." runs dc
 * instead. The program is written to /tmp/p and run as
 *   bc OPTION... /tmp/p      or     dc OPTION... -f /tmp/p
 * with INPUT on standard input (bc reads it after the file; dc's '?' and
 * bc's read() take lines from it). Seeds: fuzz/corpus/bc/. */
#include "tool_target.h"

#define FZ_PAIRS                                                               \
  {                                                                            \
    {"(", ")"}, {"{", "}"}, {"a[", "]"}, {"\"", "\""}, {"sqrt(", ")"},         \
        {"define f(x){return(", ")}"}, {"while(i++<3){", "}"},                 \
        {"for(i=0;i<3;i++){", "}"}, {"if(1){", "}"}, {"scale=50;", ""},        \
        {"obase=16;", ""}, {"ibase=16;", ""}, {"[", "]"}, {"[", "]x"},         \
        {"l(", ")"}, {"e(", ")"}, {"s(", ")"}, {"a(", ")"}, {"j(2,", ")"},     \
        {"2^", ""}, {"length(", ")"}, {"scale(", ")"},                         \
  }
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* "dc" on the first line: prefix a '-' so that tool_target.h takes the
   * line as words, the first of which ("-dc") selects dc */
  if (size >= 2 && data[0] == 'd' && data[1] == 'c' &&
      (size == 2 || data[2] == ' ' || data[2] == '\n' || data[2] == 0)) {
    uint8_t *d = malloc(size + 1);
    if (!d)
      return 0;
    d[0] = '-';
    memcpy(d + 1, data, size);
    fz_run_tool("printf %s \"$P\" > /tmp/p\n"
                "shift\n"
                "dc \"$@\" -f /tmp/p",
                d, size + 1);
    free(d);
    return 0;
  }
  return fz_run_tool("printf %s \"$P\" > /tmp/p\nbc \"$@\" /tmp/p", data, size);
}
