/*
 * The `cpaimon` command: sub-command dispatch. Each sub-command lives in its own cli/<name>.c and
 * registers in the table below; it receives argv starting at its own name and returns the process
 * exit status (0 ok, 1 failure, 2 usage error).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cpaimon/version.h"

static const struct cli_command commands[] = {
    {"version", "print the cpaimon version", cli_version},
    {"parquet", "inspect Parquet files: schema, meta, cat", cli_parquet},
    {"avro", "inspect Avro container files (manifests): schema, cat, rewrite", cli_avro},
    {"table", "tables in a warehouse: create, info, schema, snapshots, files", cli_table},
    {"cat", "print a table's rows (optionally with _ROW_ID, _SEQUENCE_NUMBER)", cli_cat},
    {"sql", "run SQL statements on a warehouse (interactive shell, -e, -f)", cli_sql},
    {"check", "verify a table's invariants (snapshots, files, row ids, DVs)", cli_check},
};

static void usage(FILE *out) {
  fprintf(out, "usage: cpaimon [--version] [--help] <command> [<args>]\n"
               "\n"
               "cpaimon reads and writes Apache Paimon append tables with row tracking and data\n"
               "evolution. A WAREHOUSE is a directory or an object-store URI (s3://bucket/path,\n"
               "oss://bucket/path); every command that opens one also takes --catalog KEY=VALUE\n"
               "(repeatable) and --catalog-file FILE with catalog options such as\n"
               "fs.s3.endpoint (docs/options.md). Commands:\n\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "\nRun 'cpaimon <command> --help' for a command's options.\n");
}

int cli_version(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("cpaimon %s\n", CPAIMON_VERSION);
  return 0;
}

int main(int argc, char **argv) {
  int urc = cli_take_catalog_options(&argc, argv);
  if (urc) return urc;
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) return cli_version(argc - 1, argv + 1);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(cmd, commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "cpaimon: unknown command '%s'\n\n", cmd);
  usage(stderr);
  return 2;
}
