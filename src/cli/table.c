/*
 * `cpaimon table ...` and `cpaimon cat`: operator views of a table in a warehouse (spec/format.md:
 * schema files §2, snapshots §3, live files §4.8), and printing its rows as Spark show() tables.
 *
 *   cpaimon table create WAREHOUSE DB.TABLE --column NAME:TYPE ... [--partition K,..]
 *                 [--option K=V ...]
 *   cpaimon table info WAREHOUSE DB.TABLE
 *   cpaimon table schema WAREHOUSE DB.TABLE
 *   cpaimon table snapshots WAREHOUSE DB.TABLE
 *   cpaimon table files WAREHOUSE DB.TABLE [--snapshot N]
 *   cpaimon table compact WAREHOUSE DB.TABLE [--partitions K=V,..;..] [--option K=V ...]
 *   cpaimon cat WAREHOUSE DB.TABLE [--columns a,b] [--with-row-tracking]
 *               [--snapshot N | --tag NAME | --timestamp MS]
 *               [--format table|csv|json] [--limit N]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/print.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "base/time.h"
#include "cli/cli.h"
#include "cli/cli_system.h"
#include "cpaimon/catalog.h"
#include "cpaimon/compact.h"
#include "cpaimon/predicate.h"
#include "cpaimon/read.h"
#include "cpaimon/system_table.h"
#include "table/file_store.h"
#include "table/store.h"
#include "table/table.h"

static const char table_usage[] =
    "usage: cpaimon table <command> WAREHOUSE DB.TABLE [options]\n"
    "\n"
    "  create     create a table: --column NAME:TYPE (repeat) [--partition K1,K2]\n"
    "             [--option KEY=VALUE (repeat)]\n"
    "  info       name, path, schema id, options, partition keys, latest snapshot, totals\n"
    "  schema     the latest schema file (JSON, as Java writes it)\n"
    "  snapshots  one line per snapshot: id, kind, time, records, nextRowId\n"
    "  files      live data files of the latest snapshot (or --snapshot N)\n"
    "  compact    compact a data-evolution table as Java's sys.compact (docs/maintenance.md):\n"
    "             [--partitions K=V[,K=V][;...]] [--option KEY=VALUE (repeat): target-file-size,\n"
    "             source.split.open-file-cost, compaction.min.file-num]\n";

static const char cat_usage[] =
    "usage: cpaimon cat WAREHOUSE DB.TABLE [--columns a,b] [--with-row-tracking]\n"
    "                   [--snapshot N | --tag NAME | --timestamp MS] [--format table|csv|json]\n"
    "                   [--limit N]\n"
    "\n"
    "Prints the table's rows (a Spark show() table by default, all rows). --with-row-tracking\n"
    "adds _ROW_ID and _SEQUENCE_NUMBER; --snapshot reads an older snapshot (time travel) with\n"
    "the columns it was written with, --tag a tagged one, --timestamp the latest committed at\n"
    "or before MS (epoch milliseconds). DB.TABLE$snapshots (files, schemas, options, manifests,\n"
    "partitions, buckets, table_indexes, ...) prints a system table.\n";

static int fail(const paimon_error *err) {
  fprintf(stderr, "cpaimon: %s\n", err->message);
  return 1;
}

static int open_table(const char *warehouse, const char *ident, paimon_catalog **cat,
                      paimon_table **t, paimon_error *err) {
  int rc = cli_catalog_open(cat, warehouse, err);
  if (!rc) rc = paimon_catalog_get_table(*cat, ident, t, err);
  return rc;
}

static int cmd_create(const char *warehouse, const char *ident, int argc, char **argv) {
  paimon_error err;
  paimon_schema *s = NULL;
  paimon_catalog *cat = NULL;
  int rc = paimon_schema_new(&s, &err);
  for (int i = 0; !rc && i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) {
      fprintf(stderr, "cpaimon table create: %s needs a value\n", a);
      paimon_schema_free(s);
      return 2;
    }
    i++;
    if (strcmp(a, "--column") == 0) {
      const char *colon = strchr(v, ':');
      if (!colon) {
        fprintf(stderr, "cpaimon table create: --column wants NAME:TYPE, got '%s'\n", v);
        paimon_schema_free(s);
        return 2;
      }
      char *name = strndup(v, (size_t)(colon - v));
      rc = name ? paimon_schema_add_column(s, name, colon + 1, NULL, &err) : PAIMON_ENOMEM;
      free(name);
    } else if (strcmp(a, "--partition") == 0) {
      char *copy = strdup(v), *keys[64], *save = NULL;
      size_t n = 0;
      for (char *k = strtok_r(copy, ",", &save); k && n < 64; k = strtok_r(NULL, ",", &save))
        keys[n++] = k;
      rc = paimon_schema_set_partition_keys(s, (const char *const *)keys, n, &err);
      free(copy);
    } else if (strcmp(a, "--option") == 0) {
      const char *eq = strchr(v, '=');
      char *key = eq ? strndup(v, (size_t)(eq - v)) : NULL;
      rc = key ? paimon_schema_set_option(s, key, eq + 1, &err)
               : paimon_error_set(&err, PAIMON_EINVAL, "--option wants KEY=VALUE, got '%s'", v);
      free(key);
    } else {
      fprintf(stderr, "cpaimon table create: unknown option %s\n%s", a, table_usage);
      paimon_schema_free(s);
      return 2;
    }
  }
  if (!rc) rc = cli_catalog_open(&cat, warehouse, &err);
  if (!rc) {
    char db[256];
    const char *dot = strchr(ident, '.');
    snprintf(db, sizeof db, "%.*s", dot ? (int)(dot - ident) : 0, ident);
    rc = paimon_catalog_create_database(cat, db, true, &err);
  }
  if (!rc) rc = paimon_catalog_create_table(cat, ident, s, false, &err);
  paimon_schema_free(s);
  paimon_catalog_free(cat);
  if (rc) return fail(&err);
  printf("created table %s\n", ident);
  return 0;
}

static int cmd_schema(paimon_table *t) {
  paimon_error err;
  char *json = NULL;
  if (paimon_table_schema_json(t, &json, &err)) return fail(&err);
  printf("%s\n", json);
  free(json);
  return 0;
}

static int cmd_info(paimon_table *t) {
  paimon_error err;
  int64_t latest = 0;
  if (paimon_table_latest_snapshot_id(t, &latest, &err)) return fail(&err);
  printf("table:          %s\npath:           %s\nschema id:      %" PRId64 "\n", t->full_name,
         t->path, t->schema->id);
  printf("partition keys:");
  for (size_t i = 0; i < t->schema->n_partition_keys; i++)
    printf(" %s", t->schema->partition_keys[i]);
  printf("\noptions:\n");
  for (size_t i = 0; i < t->schema->options.n; i++)
    printf("  %s = %s\n", t->schema->options.keys[i], t->schema->options.values[i]);
  if (!latest) {
    printf("snapshots:      none\n");
    return 0;
  }
  cp_snapshot *s = NULL;
  if (cp_snapshot_load(t->fs, t->path, latest, &s, &err)) return fail(&err);
  printf("latest snapshot: %" PRId64 " (%s)\ntotal records:  %" PRId64 "\nnext row id:    %" PRId64
         "\n",
         s->id, cp_commit_kind_name(s->commit_kind), s->total_record_count, s->next_row_id);
  cp_snapshot_free(s);
  return 0;
}

static int cmd_snapshots(paimon_table *t) {
  paimon_error err;
  char *dir = cp_path_join(t->path, "snapshot");
  int64_t *ids = NULL;
  size_t n = 0;
  int rc = dir ? cp_list_versioned(t->fs, dir, "snapshot-", &ids, &n, &err) : PAIMON_ENOMEM;
  free(dir);
  if (rc) return fail(&err);
  printf("%-8s %-10s %-23s %-12s %-12s %-10s %s\n", "id", "kind", "time (UTC)", "total", "delta",
         "nextRowId", "schema");
  for (size_t i = 0; i < n && !rc; i++) {
    cp_snapshot *s = NULL;
    rc = cp_snapshot_load(t->fs, t->path, ids[i], &s, &err);
    if (rc) break;
    char when[CP_TIMESTAMP_STR_MAX];
    cp_format_timestamp(s->time_millis, CP_UNIT_MILLI, CP_FRAC_FULL, when);
    printf("%-8" PRId64 " %-10s %-23s %-12" PRId64 " %-12" PRId64 " %-10" PRId64 " %" PRId64 "\n",
           s->id, cp_commit_kind_name(s->commit_kind), when, s->total_record_count,
           s->delta_record_count, s->next_row_id, s->schema_id);
    cp_snapshot_free(s);
  }
  free(ids);
  return rc ? fail(&err) : 0;
}

static int cmd_files(paimon_table *t, int64_t snapshot) {
  paimon_error err;
  int64_t id = snapshot;
  if (!id && paimon_table_latest_snapshot_id(t, &id, &err)) return fail(&err);
  if (!id) return 0;
  cp_snapshot *s = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  int rc = cp_snapshot_load(t->fs, t->path, id, &s, &err);
  if (!rc) rc = cp_snapshot_entries(t->fs, t->path, s, NULL, false, &arena, &files, &err);
  printf("%-24s %-52s %10s %12s %13s %s\n", "partition", "file", "rows", "first_row_id", "seq",
         "write_cols");
  for (size_t i = 0; i < files.n && !rc; i++) {
    const cp_manifest_entry *e = &files.items[i];
    cp_buf part = CP_BUF_INIT;
    rc = cp_table_partition_path(t, e->partition, &part, &err);
    if (!rc) rc = cp_buf_nul_terminate(&part, &err);
    if (rc) break;
    char first[24] = "-", seq[48];
    if (e->file.has_first_row_id) snprintf(first, sizeof first, "%" PRId64, e->file.first_row_id);
    snprintf(seq, sizeof seq, "%" PRId64 "-%" PRId64, e->file.min_sequence_number,
             e->file.max_sequence_number);
    printf("%-24s %-52s %10" PRId64 " %12s %13s", part.len ? (char *)part.data : "/",
           e->file.file_name, e->file.row_count, first, seq);
    if (e->file.has_write_cols)
      for (size_t k = 0; k < e->file.write_cols.n; k++)
        printf("%s%s", k ? "," : " ", e->file.write_cols.items[k]);
    else
      printf(" (all)");
    printf("\n");
    cp_buf_free(&part);
  }
  cp_entry_vec_free(&files);
  cp_arena_free(&arena);
  cp_snapshot_free(s);
  return rc ? fail(&err) : 0;
}

static int cmd_compact(const char *warehouse, const char *ident, int argc, char **argv) {
  const char **keys = calloc((size_t)argc + 1, sizeof *keys);
  const char **values = calloc((size_t)argc + 1, sizeof *values);
  char **owned = calloc((size_t)argc + 1, sizeof *owned);
  const char *partitions = NULL;
  size_t n = 0;
  int rc = keys && values && owned ? 0 : 1;
  for (int i = 0; !rc && i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--partitions") == 0 && v) {
      partitions = v;
      i++;
    } else if (strcmp(a, "--option") == 0 && v && strchr(v, '=') && v[0] != '=') {
      if (!(owned[n] = strdup(v))) {
        rc = 1;
        break;
      }
      char *eq = strchr(owned[n], '=');
      *eq = '\0';
      keys[n] = owned[n];
      values[n] = eq + 1;
      n++;
      i++;
    } else {
      fprintf(stderr, "cpaimon table compact: bad argument %s\n%s", a, table_usage);
      rc = 2;
    }
  }
  paimon_error err;
  paimon_catalog *cat = NULL;
  paimon_table *t = NULL;
  paimon_predicate *pred = NULL;
  paimon_compact_result r;
  if (!rc && partitions && paimon_predicate_partitions(partitions, &pred, &err)) rc = fail(&err);
  if (!rc && open_table(warehouse, ident, &cat, &t, &err)) rc = fail(&err);
  paimon_compact_options o = {pred, keys, values, n};
  if (!rc && paimon_table_compact(t, &o, &r, &err)) rc = fail(&err);
  if (!rc && r.snapshot_id)
    printf("compacted %" PRId64 " bins: %" PRId64 " files into %" PRId64 " (%" PRId64
           " rows), snapshot %" PRId64 "\n",
           r.tasks, r.files_before, r.files_after, r.rows, r.snapshot_id);
  else if (!rc)
    printf("nothing to compact\n");
  for (size_t i = 0; owned && i < n; i++) free(owned[i]);
  free(owned);
  free(keys);
  free(values);
  paimon_predicate_free(pred);
  paimon_table_free(t);
  paimon_catalog_free(cat);
  return rc;
}

int cli_table(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(table_usage, stdout);
    return 0;
  }
  if (argc < 4) {
    fputs(table_usage, stderr);
    return 2;
  }
  const char *cmd = argv[1], *warehouse = argv[2], *ident = argv[3];
  if (strcmp(cmd, "create") == 0) return cmd_create(warehouse, ident, argc - 4, argv + 4);
  if (strcmp(cmd, "compact") == 0) return cmd_compact(warehouse, ident, argc - 4, argv + 4);
  int64_t snapshot = 0;
  for (int i = 4; i < argc; i++) {
    if (strcmp(argv[i], "--snapshot") == 0 && i + 1 < argc) {
      if (cli_parse_int("table", "--snapshot", argv[++i], 1, INT64_MAX, &snapshot)) return 2;
    } else {
      fprintf(stderr, "cpaimon table %s: unknown argument %s\n", cmd, argv[i]);
      return 2;
    }
  }
  paimon_error err;
  paimon_catalog *cat = NULL;
  paimon_table *t = NULL;
  int rc;
  if (open_table(warehouse, ident, &cat, &t, &err))
    rc = fail(&err);
  else if (strcmp(cmd, "info") == 0)
    rc = cmd_info(t);
  else if (strcmp(cmd, "schema") == 0)
    rc = cmd_schema(t);
  else if (strcmp(cmd, "snapshots") == 0)
    rc = cmd_snapshots(t);
  else if (strcmp(cmd, "files") == 0)
    rc = cmd_files(t, snapshot);
  else {
    fprintf(stderr, "cpaimon table: unknown command '%s'\n%s", cmd, table_usage);
    rc = 2;
  }
  paimon_table_free(t);
  paimon_catalog_free(cat);
  return rc;
}

typedef struct cat_args {
  char *columns;
  bool row_tracking;
  int64_t snapshot, limit;
  const char *format;
  const char *tag;    /* --tag NAME */
  bool has_timestamp; /* --timestamp MS */
  int64_t timestamp;
} cat_args;

static int parse_cat_args(int argc, char **argv, cat_args *a) {
  for (int i = 0; i < argc; i++) {
    const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(opt, "--with-row-tracking") == 0) {
      a->row_tracking = true;
      continue;
    }
    if (!v) {
      fprintf(stderr, "cpaimon cat: %s needs a value\n", opt);
      return 2;
    }
    i++;
    if (strcmp(opt, "--columns") == 0)
      a->columns = (char *)v;
    else if (strcmp(opt, "--snapshot") == 0) {
      if (cli_parse_int("cat", "--snapshot", v, 1, INT64_MAX, &a->snapshot)) return 2;
    } else if (strcmp(opt, "--tag") == 0) {
      a->tag = v;
    } else if (strcmp(opt, "--timestamp") == 0) {
      if (cli_parse_int("cat", "--timestamp", v, 0, INT64_MAX, &a->timestamp)) return 2;
      a->has_timestamp = true;
    } else if (strcmp(opt, "--limit") == 0) {
      if (cli_parse_int("cat", "--limit", v, 0, INT64_MAX, &a->limit)) return 2;
    } else if (strcmp(opt, "--format") == 0)
      a->format = v;
    else {
      fprintf(stderr, "cpaimon cat: unknown option %s\n%s", opt, cat_usage);
      return 2;
    }
  }
  if ((a->snapshot != 0) + (a->tag != NULL) + a->has_timestamp > 1) {
    fprintf(stderr, "cpaimon cat: --snapshot, --tag and --timestamp exclude each other\n");
    return 2;
  }
  if (strcmp(a->format, "table") && strcmp(a->format, "csv") && strcmp(a->format, "json")) {
    fprintf(stderr, "cpaimon cat: --format must be table, csv or json\n");
    return 2;
  }
  return 0;
}

static int configure(paimon_read_builder *rb, const cat_args *a, paimon_error *err) {
  /* The snapshot first: --columns names columns of the snapshot's schema (time travel). */
  if (a->snapshot) CP_RETURN_IF_ERROR(paimon_read_builder_set_snapshot(rb, a->snapshot, err));
  if (a->tag) CP_RETURN_IF_ERROR(paimon_read_builder_set_tag(rb, a->tag, err));
  if (a->has_timestamp)
    CP_RETURN_IF_ERROR(paimon_read_builder_set_timestamp(rb, a->timestamp, err));
  if (a->columns) {
    char *copy = strdup(a->columns), *cols[256], *save = NULL;
    size_t n = 0;
    for (char *c = strtok_r(copy, ",", &save); c && n < 256; c = strtok_r(NULL, ",", &save))
      cols[n++] = c;
    int rc = paimon_read_builder_set_projection(rb, (const char *const *)cols, n, err);
    free(copy);
    CP_RETURN_IF_ERROR(rc);
  }
  if (a->row_tracking) CP_RETURN_IF_ERROR(paimon_read_builder_with_row_tracking(rb, err));
  return PAIMON_OK;
}

int cli_cat(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(cat_usage, stdout);
    return 0;
  }
  if (argc < 3) {
    fputs(cat_usage, stderr);
    return 2;
  }
  cat_args a = {NULL, false, 0, -1, "table", NULL, false, 0};
  int urc = parse_cat_args(argc - 3, argv + 3, &a);
  if (urc) return urc;
  if (paimon_identifier_is_system_table(argv[2]) && (a.tag || a.has_timestamp)) {
    fprintf(stderr, "cpaimon cat: --tag and --timestamp do not apply to system table %s\n",
            argv[2]);
    return 2;
  }
  if (paimon_identifier_is_system_table(argv[2]))
    return cli_cat_system(argv[1], argv[2], a.columns, a.row_tracking, a.snapshot, a.limit,
                          a.format);
  paimon_error err;
  paimon_catalog *cat = NULL;
  paimon_table *t = NULL;
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  cp_buf out = CP_BUF_INIT;
  int rc = open_table(argv[1], argv[2], &cat, &t, &err);
  if (!rc) rc = paimon_read_builder_new(&rb, t, &err);
  if (!rc) rc = configure(rb, &a, &err);
  if (!rc) rc = paimon_read_builder_plan(rb, &plan, &err);
  if (!rc) rc = paimon_plan_read(rb, plan, NULL, 0, &stream, &err);
  if (!rc) rc = cli_print_stream(&stream, a.limit, a.format, &out, &err);
  if (!rc && out.len) fwrite(out.data, 1, out.len, stdout);
  cp_buf_free(&out);
  cp_stream_release(&stream);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
  paimon_catalog_free(cat);
  return rc ? fail(&err) : 0;
}
