/*
 * Catalog options for every command that opens a warehouse: `--catalog KEY=VALUE` (repeatable)
 * and `--catalog-file FILE` (KEY=VALUE lines, '#' comments), given anywhere on the command line
 * and taken out of argv before the command sees it. They carry what pypaimon's
 * CatalogFactory.create takes (fs.s3.endpoint, fs.s3.accessKeyId, ...; docs/options.md); values
 * are never printed, so secrets stay out of the output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { MAX_CATALOG_OPTIONS = 256 };

static char *g_keys[MAX_CATALOG_OPTIONS];
static char *g_values[MAX_CATALOG_OPTIONS];
static size_t g_n;

static int add_option(const char *kv, const char *where) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) {
    fprintf(stderr, "cpaimon: %s wants KEY=VALUE, got '%s'\n", where, kv);
    return 2;
  }
  if (g_n == MAX_CATALOG_OPTIONS) {
    fprintf(stderr, "cpaimon: more than %d catalog options\n", MAX_CATALOG_OPTIONS);
    return 2;
  }
  g_keys[g_n] = strndup(kv, (size_t)(eq - kv));
  g_values[g_n] = strdup(eq + 1);
  if (!g_keys[g_n] || !g_values[g_n]) {
    fprintf(stderr, "cpaimon: out of memory\n");
    return 1;
  }
  g_n++;
  return 0;
}

static int read_options_file(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cpaimon: --catalog-file %s: cannot open it\n", path);
    return 2;
  }
  char line[8192];
  int rc = 0, lineno = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    lineno++;
    size_t n = strcspn(line, "\r\n");
    line[n] = '\0';
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '#') continue;
    char where[64];
    snprintf(where, sizeof where, "--catalog-file line %d", lineno);
    rc = add_option(p, where);
  }
  fclose(f);
  return rc;
}

int cli_take_catalog_options(int *argc, char **argv) {
  int out = 0;
  for (int i = 0; i < *argc; i++) {
    bool opt = strcmp(argv[i], "--catalog") == 0, file = strcmp(argv[i], "--catalog-file") == 0;
    if (!opt && !file) {
      argv[out++] = argv[i];
      continue;
    }
    if (i + 1 >= *argc) {
      fprintf(stderr, "cpaimon: %s needs a value\n", argv[i]);
      return 2;
    }
    int rc = opt ? add_option(argv[i + 1], "--catalog") : read_options_file(argv[i + 1]);
    if (rc) return rc;
    i++;
  }
  *argc = out;
  argv[out] = NULL;
  return 0;
}

int cli_catalog_open(paimon_catalog **out, const char *warehouse, paimon_error *err) {
  const char *keys[MAX_CATALOG_OPTIONS + 1], *values[MAX_CATALOG_OPTIONS + 1];
  size_t n = 0;
  for (size_t i = 0; i < g_n; i++) {
    if (warehouse && strcmp(g_keys[i], "warehouse") == 0) continue; /* the argument wins */
    keys[n] = g_keys[i];
    values[n++] = g_values[i];
  }
  if (warehouse) {
    keys[n] = "warehouse";
    values[n++] = warehouse;
  }
  return paimon_catalog_open_options(out, keys, values, n, err);
}

const char *cli_catalog_option(const char *key) {
  const char *v = NULL;
  for (size_t i = 0; i < g_n; i++)
    if (strcmp(g_keys[i], key) == 0) v = g_values[i];
  return v;
}
