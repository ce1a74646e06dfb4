/* `cpaimon cat WAREHOUSE 'db.t$files'`: printing a system table (include/cpaimon/system_table.h);
 * cli/table.c's cat hands identifiers with a '$' to it. */
#ifndef CP_CLI_SYSTEM_H
#define CP_CLI_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

/* Prints system table `ident` of `warehouse`: `columns` (comma-separated, NULL: all), at most
 * `limit` rows (-1: all), `format` "table", "csv" or "json". `snapshot` and
 * `row_tracking` are refused (system tables show the latest state and have no hidden columns).
 * Returns the exit status, after printing any error to stderr. */
/* Prints the first `limit` rows of `stream` (-1: all) to `out` as a Spark show() table (with
 * "only showing top N rows" when there are more), CSV with a header, or JSON lines. */
int cli_print_stream(struct ArrowArrayStream *stream, int64_t limit, const char *format,
                     cp_buf *out, paimon_error *err);

int cli_cat_system(const char *warehouse, const char *ident, const char *columns, bool row_tracking,
                   int64_t snapshot, int64_t limit, const char *format);

#endif
