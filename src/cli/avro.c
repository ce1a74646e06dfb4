/* `cpaimon avro`: placeholder until the avro layer lands; it says so rather than pretending. */
#include <stdio.h>

#include "cli/cli.h"

int cli_avro(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "cpaimon avro: not available yet in this build\n");
  return 1;
}
