/* `cpaimon parquet`: placeholder until the parquet layer lands; it says so rather than pretending. */
#include <stdio.h>

#include "cli/cli.h"

int cli_parquet(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "cpaimon parquet: not available yet in this build\n");
  return 1;
}
