// layers: all
/* Fuzz target: a sed script and its input (PROGRAM NUL INPUT, options on a
 * first line starting with '-'; see tool_target.h) run by the sandbox's sed
 * under tight limits. Seeds: fuzz/corpus/sed/. */
#include "tool_target.h"

#define FZ_PAIRS                                                               \
  {                                                                            \
    {"{", "}"}, {"\\(", "\\)"}, {"(", ")"}, {"[", "]"}, {"/", "/p"},           \
        {"s/", "/x/g;"}, {":a;", ";ta"}, {"1,3{", "}"}, {"/a/{", "}"},         \
        {"\\{", "\\}"}, {"x*", ""}, {"(a|", ")"},                              \
  }
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_run_tool("sed \"$@\" -e \"$P\"", data, size);
}
