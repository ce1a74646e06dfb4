/*
 * The table checker behind `cpaimon check`: verifies the invariants a Paimon table written by
 * anyone (cpaimon, pypaimon, Java) must satisfy (spec/format.md §3, §4, §6, §7;
 * data-evolution.md §1.3, §2.2, §2.6):
 *
 *   - snapshots: contiguous ids from the earliest to the latest, each parses, its id matches its
 *     file name, its schema exists, nextRowId never decreases; LATEST / EARLIEST hints that are
 *     unreadable or name a missing snapshot are warnings, not violations (hints are advisory);
 *   - every manifest list, manifest and index manifest of every snapshot is readable, and the
 *     entries fold (no ADD of a file already added, no dangling DELETE in a snapshot's state);
 *   - every live data file of the latest snapshot exists with its recorded size and a valid
 *     schema id, is a Parquet file whose footer parses, holds the row count its DataFileMeta
 *     records, and has every column of its schema (those of write_cols for a partial file; BLOB
 *     columns live in .blob files) with a type that schema's type reads from; with `deep`, every
 *     page of every column also decodes (a file garbled in place, size unchanged, fails here).
 *     Files in formats cpaimon does not read yet (ORC, Avro, .blob) are checked for size only;
 *   - row ids: normal files' ranges are disjoint across row-range groups and identical within one
 *     (data-evolution tables; elsewhere every range is its own), blob/vector ranges lie inside a
 *     normal range, nextRowId is above every assigned id, and the _ROW_IDs a reader sees are
 *     unique (this reads the _ROW_ID column of the latest snapshot);
 *   - deletion vectors: every index file exists with its recorded size; every DV names a live
 *     data file of its partition and bucket (on data-evolution tables, the anchor of its group),
 *     is readable, has the recorded cardinality, deletes only positions inside that file, and no
 *     data file has DVs in two live index files.
 *
 * Files no snapshot references (leftovers of failed or lost commits) are not violations: they are
 * orphans, invisible to readers; the report counts them.
 *
 * Ownership: the report's strings are malloc'd; cp_check_report_free releases them.
 */
#ifndef CP_TABLE_CHECK_H
#define CP_TABLE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/catalog.h"
#include "cpaimon/error.h"

typedef struct cp_check_options {
  bool deep; /* decode every page of every live data file (reads all the data) */
} cp_check_options;

typedef struct cp_check_report {
  char **violations; /* one line each, naming the snapshot / file / row id involved */
  size_t n_violations, cap;
  /* Findings readers cope with: a LATEST / EARLIEST hint that is unreadable or names a missing
   * snapshot (Paimon's hints are advisory; readers then list the directory). */
  char **warnings;
  size_t n_warnings, warnings_cap;
  int64_t snapshots;  /* snapshots checked */
  int64_t data_files; /* live data files checked */
  int64_t dvs;        /* deletion vectors checked */
  int64_t rows;       /* rows read for the row-id check */
  int64_t opened;     /* live data files opened (footer, row count, columns) */
  int64_t decoded;    /* of those, decoded page by page (deep) */
} cp_check_report;

/* Checks table `database`.`name` of `catalog` (`opts` NULL: not deep). Returns 0 when the check
 * ran (violations, if any, are in `rep`), or an error when it could not run at all (e.g. the
 * table does not exist). */
int cp_table_check(paimon_catalog *catalog, const char *database, const char *name,
                   const cp_check_options *opts, cp_check_report *rep, paimon_error *err);

void cp_check_report_free(cp_check_report *rep);

#endif
