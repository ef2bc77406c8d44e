/* true.c - bash's true and false builtins: they ignore every argument. */
#include "builtins/builtin.h"

const char bi_usage_true[] = "true: true";
const char bi_help_true[] = "    Do nothing, and succeed.\n"
                            "\n"
                            "    Exit Status:\n"
                            "    Always 0.\n";
const char bi_usage_false[] = "false: false";
const char bi_help_false[] = "    Do nothing, and fail.\n"
                             "\n"
                             "    Exit Status:\n"
                             "    Always 1.\n";

int bi_true(bi_ctx *c) {
  return 0;
}
int bi_false(bi_ctx *c) {
  return 1;
}
