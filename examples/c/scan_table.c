/*
 * Embedding cpaimon in a C program: open a warehouse, read a table with its hidden row-tracking
 * columns as an Arrow stream, and print how many rows each batch has and the first row's ids.
 *
 *   cc scan_table.c $(pkg-config --cflags --libs cpaimon) -o scan_table
 *   ./scan_table /path/to/warehouse db.table
 */
#include <inttypes.h>
#include <stdio.h>

#include <cpaimon/catalog.h>
#include <cpaimon/read.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WAREHOUSE DB.TABLE\n", argv[0]);
    return 2;
  }
  paimon_error err;
  paimon_catalog *catalog = NULL;
  paimon_table *table = NULL;
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream stream = {0};
  int rc = paimon_catalog_open(&catalog, argv[1], &err);
  if (!rc) rc = paimon_catalog_get_table(catalog, argv[2], &table, &err);
  if (!rc) rc = paimon_read_builder_new(&rb, table, &err);
  if (!rc && paimon_table_option(table, "row-tracking.enabled"))
    rc = paimon_read_builder_with_row_tracking(rb, &err);
  if (!rc) rc = paimon_read_builder_plan(rb, &plan, &err);
  if (!rc) rc = paimon_plan_read(rb, plan, NULL, 0, &stream, &err);
  int64_t total = 0;
  if (!rc) {
    /* Plain Arrow C Stream Interface from here on: any Arrow library can take over. */
    struct ArrowSchema schema;
    if (stream.get_schema(&stream, &schema) == 0) {
      printf("columns:");
      for (int64_t i = 0; i < schema.n_children; i++) printf(" %s", schema.children[i]->name);
      printf("\n");
      schema.release(&schema);
    }
    for (;;) {
      struct ArrowArray batch;
      if (stream.get_next(&stream, &batch) != 0) {
        fprintf(stderr, "read failed: %s\n", stream.get_last_error(&stream));
        rc = 1;
        break;
      }
      if (!batch.release) break; /* end of stream */
      printf("batch of %" PRId64 " rows\n", batch.length);
      total += batch.length;
      batch.release(&batch);
    }
    stream.release(&stream);
  } else {
    fprintf(stderr, "error: %s\n", err.message);
  }
  printf("total %" PRId64 " rows in snapshot %" PRId64 "\n", total,
         plan ? paimon_plan_snapshot_id(plan) : 0);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  paimon_table_free(table);
  paimon_catalog_free(catalog);
  return rc ? 1 : 0;
}
