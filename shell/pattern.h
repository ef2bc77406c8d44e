/* pattern.h - shell pattern matching lives in core/ (builtins such as find
 * and grep --include use it too); this name is kept for the shell layer. */
#include "core/pattern.h"
