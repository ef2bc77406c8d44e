// layers: all
/* Fuzz target: the sqlite3 command's own parts (dot commands, output
 * modes, statement splitting, .import) over SQLite. PROGRAM NUL INPUT as in
 * tool_target.h: a first line starting with '-' holds the options (an
 * output mode such as "-box -header", "-csv", "-json", "-line -nullvalue
 * N"); the rest, SQL and dot commands, is fed on standard input to
 *   sqlite3 OPTION... :memory:
 * and INPUT is the file /tmp/in (for .import and .read). Seeds:
 * fuzz/corpus/sqlite3/. */
#include "tool_target.h"

#define FZ_PAIRS                                                               \
  {                                                                            \
    {"(", ")"}, {"'", "'"}, {"\"", "\""}, {"SELECT ", ";\n"},                  \
        {"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c ",      \
         ") SELECT x FROM c;\n"},                                              \
        {"CREATE TABLE t(", ");\n"}, {"INSERT INTO t VALUES(", ");\n"},        \
        {"/*", "*/"}, {"BEGIN;\n", "COMMIT;\n"}, {"CASE WHEN ", " END"},       \
        {".mode ", "\n"}, {".headers on\n", ""}, {"printf('%", "')"},          \
        {"CREATE TRIGGER g AFTER INSERT ON t BEGIN ", "; END;\n"},             \
  }
#include "text_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_run_tool("printf '%s\\n' \"$P\" > /tmp/s.sql\n"
                     "sqlite3 \"$@\" :memory: < /tmp/s.sql",
                     data, size);
}
