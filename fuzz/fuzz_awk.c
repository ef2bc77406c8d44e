// layers: all
/* Fuzz target: an awk program and its input (PROGRAM NUL INPUT, options on
 * a first line starting with '-'; see tool_target.h) run by the sandbox's
 * awk under tight limits. Seeds: fuzz/corpus/awk/. */
#include "tool_target.h"

#define FZ_PAIRS                                                               \
  {                                                                            \
    {"(", ")"}, {"{", "}"}, {"BEGIN{", "}"}, {"a[", "]"}, {"\"", "\""},        \
        {"/", "/"}, {"f(", ")"}, {"$(", ")"}, {"!(", ")"}, {"-(", ")"},        \
        {"if(1){", "}"}, {"while(i++<3){", "}"},                               \
        {"function f(x){return ", "}"}, {"split(", ",a)"},                     \
        {"sub(/", "/,\"\")"}, {"gensub(/", "/,\"\\\\1\",\"g\")"},              \
        {"asort(a,", ")"}, {"PROCINFO[\"sorted_in\"]=\"", "\""},               \
        {"strftime(\"", "\")"}, {"BEGINFILE{", "}"},                           \
        {"switch(x){case 1:", "}"},                                            \
  }
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_run_tool("awk \"$@\" -- \"$P\"", data, size);
}
