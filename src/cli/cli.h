/* Sub-commands of the `cpaimon` program; see main.c for the dispatch table. */
#ifndef CP_CLI_H
#define CP_CLI_H

struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the command name; returns the exit status */
};

int cli_version(int argc, char **argv);

#endif
