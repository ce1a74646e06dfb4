/* Sub-commands of the `cpaimon` program; see main.c for the dispatch table. */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "cpaimon/catalog.h"

struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the command name; returns the exit status */
};

int cli_version(int argc, char **argv);
int cli_parquet(int argc, char **argv); /* cli/parquet.c */
int cli_avro(int argc, char **argv);    /* cli/avro.c */
int cli_table(int argc, char **argv);   /* cli/table.c */
int cli_cat(int argc, char **argv);     /* cli/table.c */
int cli_sql(int argc, char **argv);     /* cli/sql.c */
int cli_check(int argc, char **argv);   /* cli/check.c */

/* Parses `text`, the value of `flag` of `cmd`, as a decimal integer in [min, max]: an optional
 * minus and digits, nothing else. Otherwise prints "cpaimon CMD: FLAG needs a whole number ...,
 * not 'TEXT'" to stderr and returns -1 (the caller exits with status 2). cli/args.c. */
int cli_parse_int(const char *cmd, const char *flag, const char *text, int64_t min, int64_t max,
                  int64_t *out);

/* cli/catalog_opts.c: takes `--catalog KEY=VALUE` and `--catalog-file FILE` out of argv (anywhere
 * on the line); 0, or the exit status of a usage error. */
int cli_take_catalog_options(int *argc, char **argv);
/* Opens the catalog at `warehouse` (may be NULL when a --catalog warehouse=... was given) with the
 * options taken from the command line. */
int cli_catalog_open(paimon_catalog **out, const char *warehouse, paimon_error *err);
/* The value of a --catalog option (the last one given), or NULL. */
const char *cli_catalog_option(const char *key);

#endif
