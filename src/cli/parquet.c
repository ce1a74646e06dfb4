/*
 * `cpaimon parquet`: inspect Parquet files (spec/parquet.md §2.1 layout, §2.6 metadata fields,
 * §2.9 statistics) and print their rows.
 *
 *   cpaimon parquet schema FILE    the schema tree (parquet-java MessageType style: repetition,
 *                                  physical type, annotation, "= field_id")
 *   cpaimon parquet meta FILE      footer: row groups, column chunks, codecs, encodings, sizes,
 *                                  offsets and statistics decoded to readable values
 *   cpaimon parquet cat FILE [--columns a,b] [--format table|json] [--limit N] [--truncate N]
 *                                  rows as a Spark show() table or JSON lines
 *
 * Exit status: 0 ok, 1 error (message on stderr), 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/print.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/fs.h"
#include "base/status.h"
#include "cli/cli.h"
#include "format/parquet/reader.h"

static const char k_usage[] =
    "usage: cpaimon parquet <command> [<args>]\n"
    "\n"
    "Commands:\n"
    "  schema FILE   print the Parquet schema (types, repetition, annotations, field ids)\n"
    "  meta FILE     print row groups, column chunks, codecs, encodings, sizes, statistics\n"
    "  cat FILE      print rows (see 'cpaimon parquet cat --help')\n";

static const char k_cat_usage[] =
    "usage: cpaimon parquet cat FILE [--columns a,b] [--format table|json] [--limit N]\n"
    "                               [--truncate N]\n"
    "\n"
    "Prints the rows of FILE: as a Spark show()-style table (default) or as one JSON object per\n"
    "row. --columns reads only the named top-level columns, in that order; --limit prints at most\n"
    "N rows; --truncate sets the table's maximum cell width (default 20, 0 = never truncate).\n";

static int fail(const paimon_error *err) {
  fprintf(stderr, "cpaimon parquet: %s\n", err->message);
  return 1;
}

static int write_buf(cp_buf *b) {
  if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len) {
    fprintf(stderr, "cpaimon parquet: writing to stdout failed: %s\n", strerror(errno));
    return 1;
  }
  b->len = 0;
  return 0;
}

/* Opens FILE for metadata only (no projection work beyond the footer). */
static int open_reader(const char *path, const cp_pq_reader_options *o, cp_fs **fs,
                       cp_pq_reader **r, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_local_new(fs, err));
  int rc = cp_pq_reader_open(r, *fs, path, o, err);
  if (rc) {
    cp_fs_free(*fs);
    *fs = NULL;
  }
  return rc;
}

/* ---- schema ------------------------------------------------------------------------------------
 */

static const char *const k_rep_names[] = {"required", "optional", "repeated"};

static int schema_node(cp_buf *out, const cp_pq_schema_node *n, int indent, paimon_error *err) {
  const cp_pq_schema_element *e = n->element;
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%*s", indent, ""));
  if (n->depth == 0) {
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "message %s", e->name));
  } else {
    int rep = n->repetition >= 0 && n->repetition <= 2 ? n->repetition : 0;
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s ", k_rep_names[rep]));
    if (!e->type.is_set) {
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "group"));
    } else if (e->type.value == CP_PQ_FIXED_LEN_BYTE_ARRAY) {
      CP_RETURN_IF_ERROR(
          cp_buf_appendf(out, err, "fixed_len_byte_array(%d)", e->type_length.value));
    } else {
      static const char *const names[] = {"boolean", "int32",  "int64", "int96",
                                          "float",   "double", "binary"};
      int t = e->type.value;
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "%s", t >= 0 && t <= 6 ? names[t] : "?"));
    }
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %s", e->name));
    cp_buf ann = CP_BUF_INIT;
    int rc = cp_pq_describe_annotation(e, &ann, err);
    if (rc == 0 && ann.len)
      rc = cp_buf_appendf(out, err, " (%.*s)", (int)ann.len, (const char *)ann.data);
    cp_buf_free(&ann);
    CP_RETURN_IF_ERROR(rc);
    if (e->field_id.is_set)
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " = %d", e->field_id.value));
  }
  if (e->type.is_set) return cp_buf_appendf(out, err, ";\n");
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " {\n"));
  for (uint32_t i = 0; i < n->num_children; i++)
    CP_RETURN_IF_ERROR(schema_node(out, n->children[i], indent + 2, err));
  return cp_buf_appendf(out, err, "%*s}\n", indent, "");
}

static int cmd_schema(const char *path) {
  paimon_error err = {0};
  cp_fs *fs;
  cp_pq_reader *r;
  if (open_reader(path, NULL, &fs, &r, &err)) return fail(&err);
  cp_buf out = CP_BUF_INIT;
  int rc = schema_node(&out, &cp_pq_reader_footer(r)->schema.nodes[0], 0, &err);
  int status = rc ? fail(&err) : write_buf(&out);
  cp_buf_free(&out);
  cp_pq_reader_free(r);
  cp_fs_free(fs);
  return status;
}

/* ---- meta --------------------------------------------------------------------------------------
 */

static bool printable(const uint8_t *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (p[i] < 0x20 || p[i] == 0x7f) return false;
  return true;
}

static int meta_file(cp_buf *out, const char *path, const cp_pq_footer *ft, paimon_error *err) {
  const cp_pq_file_meta *m = &ft->meta;
  CP_RETURN_IF_ERROR(cp_buf_appendf(
      out, err,
      "file: %s\nfile_size: %llu\nfooter: %u bytes at offset %llu\ncreated_by: %s\nversion: %d\n"
      "num_rows: %lld\nnum_row_groups: %u\nnum_columns: %u\n",
      path, (unsigned long long)ft->file_size, ft->metadata_len,
      (unsigned long long)ft->metadata_offset, m->created_by ? m->created_by : "(none)",
      (int)m->version, (long long)m->num_rows, m->num_row_groups, ft->schema.num_leaves));
  if (m->num_key_value_metadata)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "key_value_metadata:\n"));
  for (uint32_t i = 0; i < m->num_key_value_metadata; i++) {
    const cp_pq_key_value *kv = &m->key_value_metadata[i];
    const cp_pq_opt_bytes *v = &kv->value;
    if (!v->is_set)
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "  %s: (no value)\n", kv->key));
    else if (v->len <= 200 && printable(v->data, v->len))
      CP_RETURN_IF_ERROR(
          cp_buf_appendf(out, err, "  %s: %.*s\n", kv->key, (int)v->len, (const char *)v->data));
    else
      CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "  %s: (%u bytes)\n", kv->key, v->len));
  }
  return PAIMON_OK;
}

static int meta_stats(cp_buf *out, const cp_pq_footer *ft, uint32_t c, const cp_pq_statistics *st,
                      paimon_error *err) {
  const cp_pq_schema_node *leaf = ft->schema.leaves[c];
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "    statistics:"));
  if (st->null_count.is_set)
    CP_RETURN_IF_ERROR(
        cp_buf_appendf(out, err, " null_count=%lld", (long long)st->null_count.value));
  if (st->distinct_count.is_set)
    CP_RETURN_IF_ERROR(
        cp_buf_appendf(out, err, " distinct_count=%lld", (long long)st->distinct_count.value));
  if (st->nan_count.is_set)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " nan_count=%lld", (long long)st->nan_count.value));
  const struct {
    const char *name;
    const cp_pq_opt_bytes *b;
  } vals[] = {{"min", &st->min_value},
              {"max", &st->max_value},
              {"min(deprecated)", &st->min},
              {"max(deprecated)", &st->max}};
  for (size_t i = 0; i < 4; i++) {
    if (!vals[i].b->is_set || (i >= 2 && st->min_value.is_set)) continue;
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " %s=", vals[i].name));
    CP_RETURN_IF_ERROR(cp_pq_stat_value_to_text(leaf, vals[i].b->data, vals[i].b->len, out, err));
  }
  if (st->is_min_value_exact.is_set && !st->is_min_value_exact.value)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " (min inexact)"));
  if (st->is_max_value_exact.is_set && !st->is_max_value_exact.value)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " (max inexact)"));
  return cp_buf_appendf(out, err, "\n");
}

static int meta_chunk(cp_buf *out, const cp_pq_footer *ft, const cp_pq_column_chunk *ch, uint32_t c,
                      paimon_error *err) {
  const cp_pq_column_meta *cm = &ch->meta_data;
  const cp_pq_schema_node *leaf = ft->schema.leaves[c];
  cp_buf t = CP_BUF_INIT;
  int rc = cp_pq_describe_type(leaf->element, &t, err);
  if (rc == 0)
    rc = cp_buf_appendf(out, err, "  column %u: %s %.*s\n    codec=%s num_values=%lld encodings=[",
                        c, leaf->path_str, (int)t.len, (const char *)t.data,
                        cp_pq_codec_name(cm->codec), (long long)cm->num_values);
  cp_buf_free(&t);
  CP_RETURN_IF_ERROR(rc);
  for (uint32_t i = 0; i < cm->num_encodings; i++)
    CP_RETURN_IF_ERROR(
        cp_buf_appendf(out, err, "%s%s", i ? "," : "", cp_pq_encoding_name(cm->encodings[i])));
  CP_RETURN_IF_ERROR(
      cp_buf_appendf(out, err, "]\n    compressed=%lld uncompressed=%lld data_page_offset=%lld",
                     (long long)cm->total_compressed_size, (long long)cm->total_uncompressed_size,
                     (long long)cm->data_page_offset));
  if (cm->dictionary_page_offset.is_set)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " dictionary_page_offset=%lld",
                                      (long long)cm->dictionary_page_offset.value));
  if (ch->offset_index_offset.is_set)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " offset_index_offset=%lld",
                                      (long long)ch->offset_index_offset.value));
  if (ch->column_index_offset.is_set)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " column_index_offset=%lld",
                                      (long long)ch->column_index_offset.value));
  if (cm->bloom_filter_offset.is_set)
    CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, " bloom_filter_offset=%lld",
                                      (long long)cm->bloom_filter_offset.value));
  CP_RETURN_IF_ERROR(cp_buf_appendf(out, err, "\n"));
  if (!cm->has_statistics) return cp_buf_appendf(out, err, "    statistics: (none)\n");
  return meta_stats(out, ft, c, &cm->statistics, err);
}

static int cmd_meta(const char *path) {
  paimon_error err = {0};
  cp_fs *fs;
  cp_pq_reader *r;
  if (open_reader(path, NULL, &fs, &r, &err)) return fail(&err);
  const cp_pq_footer *ft = cp_pq_reader_footer(r);
  cp_buf out = CP_BUF_INIT;
  int rc = meta_file(&out, path, ft, &err);
  for (uint32_t g = 0; rc == 0 && g < ft->meta.num_row_groups; g++) {
    const cp_pq_row_group *rg = &ft->meta.row_groups[g];
    rc = cp_buf_appendf(&out, &err, "row group %u: num_rows=%lld total_byte_size=%lld", g,
                        (long long)rg->num_rows, (long long)rg->total_byte_size);
    if (rc == 0 && rg->total_compressed_size.is_set)
      rc = cp_buf_appendf(&out, &err, " total_compressed_size=%lld",
                          (long long)rg->total_compressed_size.value);
    if (rc == 0) rc = cp_buf_appendf(&out, &err, "\n");
    for (uint32_t c = 0; rc == 0 && c < rg->num_columns; c++)
      rc = meta_chunk(&out, ft, &rg->columns[c], c, &err);
  }
  int status = rc ? fail(&err) : write_buf(&out);
  cp_buf_free(&out);
  cp_pq_reader_free(r);
  cp_fs_free(fs);
  return status;
}

/* ---- cat ---------------------------------------------------------------------------------------
 */

typedef struct cat_args {
  const char *path;
  char *columns; /* comma-separated, modified in place */
  bool json;
  int64_t limit; /* -1: all */
  int32_t truncate;
} cat_args;

/* 0 ok, 2 usage error, 3 --help. */
static int parse_cat(int argc, char **argv, cat_args *a) {
  memset(a, 0, sizeof *a);
  a->limit = -1;
  a->truncate = 20;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    int64_t v;
    if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) return 3;
    if (i + 1 < argc && strcmp(s, "--columns") == 0) {
      a->columns = argv[++i];
    } else if (i + 1 < argc && strcmp(s, "--format") == 0) {
      const char *f = argv[++i];
      if (strcmp(f, "json") != 0 && strcmp(f, "table") != 0) return 2;
      a->json = strcmp(f, "json") == 0;
    } else if (i + 1 < argc && strcmp(s, "--limit") == 0) {
      if (cli_parse_int("parquet cat", "--limit", argv[++i], 0, INT64_MAX, &a->limit)) return 2;
    } else if (i + 1 < argc && strcmp(s, "--truncate") == 0) {
      if (cli_parse_int("parquet cat", "--truncate", argv[++i], 0, INT32_MAX, &v)) return 2;
      a->truncate = (int32_t)v;
    } else if (s[0] == '-' || a->path) {
      return 2;
    } else {
      a->path = s;
    }
  }
  return a->path ? 0 : 2;
}

/* Splits "a,b" into requests (names point into `columns`). */
static int column_requests(char *columns, cp_pq_column_request **out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (!columns) return 0;
  size_t cap = 1;
  for (const char *p = columns; *p; p++) cap += *p == ',';
  cp_pq_column_request *rq = calloc(cap, sizeof *rq);
  if (!rq) return -1;
  for (char *tok = strtok(columns, ","); tok; tok = strtok(NULL, ",")) rq[(*n)++].name = tok;
  *out = rq;
  return 0;
}

static int print_json(struct ArrowArrayStream *s, paimon_error *err) {
  struct ArrowSchema schema;
  CP_RETURN_IF_ERROR(cp_stream_get_schema(s, &schema, err));
  cp_buf out = CP_BUF_INIT;
  int rc;
  for (;;) {
    struct ArrowArray batch;
    rc = cp_stream_next(s, &batch, err);
    if (rc || !batch.release) break;
    rc = cp_print_jsonl(&out, &schema, &batch, err);
    cp_array_release(&batch);
    if (rc == 0 && write_buf(&out)) rc = paimon_error_set(err, PAIMON_EIO, "stdout");
    if (rc) break;
  }
  cp_buf_free(&out);
  cp_schema_release(&schema);
  return rc;
}

static int cmd_cat(int argc, char **argv) {
  cat_args a;
  int p = parse_cat(argc, argv, &a);
  if (p == 3) return fputs(k_cat_usage, stdout) == EOF;
  if (p) {
    fputs(k_cat_usage, stderr);
    return 2;
  }
  paimon_error err = {0};
  cp_pq_column_request *rq = NULL;
  size_t nrq = 0;
  if (column_requests(a.columns, &rq, &nrq)) return fail(&err);
  cp_pq_row_range range = {0, 0};
  cp_pq_reader_options o = {0};
  o.columns = rq;
  o.num_columns = nrq;
  if (a.limit >= 0) { /* one extra row lets the table say "only showing top N rows" */
    range.end = a.json ? a.limit : a.limit + 1;
    o.row_ranges = &range;
    o.num_row_ranges = 1;
  }
  cp_fs *fs;
  cp_pq_reader *r;
  int rc = open_reader(a.path, &o, &fs, &r, &err);
  free(rq);
  if (rc) return fail(&err);
  struct ArrowArrayStream s;
  rc = cp_pq_reader_to_stream(r, &s, &err);
  if (rc == 0 && a.json) {
    rc = print_json(&s, &err);
  } else if (rc == 0) {
    cp_print_options po = {a.limit, a.truncate};
    cp_buf out = CP_BUF_INIT;
    rc = cp_print_table_stream(&out, &s, &po, &err);
    if (rc == 0 && write_buf(&out)) rc = PAIMON_EIO;
    cp_buf_free(&out);
  }
  cp_stream_release(&s);
  cp_fs_free(fs);
  return rc ? (err.message[0] ? fail(&err) : 1) : 0;
}

/* ---- dispatch ----------------------------------------------------------------------------------
 */

static int one_file_command(int argc, char **argv, int (*run)(const char *), const char *help) {
  if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("usage: cpaimon parquet %s FILE\n\n%s\n", argv[0], help);
    return 0;
  }
  if (argc != 2 || argv[1][0] == '-') {
    fprintf(stderr, "usage: cpaimon parquet %s FILE\n", argv[0]);
    return 2;
  }
  return run(argv[1]);
}

int cli_parquet(int argc, char **argv) {
  if (argc < 2) {
    fputs(k_usage, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(k_usage, stdout);
    return 0;
  }
  if (strcmp(cmd, "schema") == 0)
    return one_file_command(argc - 1, argv + 1, cmd_schema,
                            "Prints the Parquet schema tree: repetition, physical type, name, "
                            "annotation (logical or converted type) and \"= field_id\".");
  if (strcmp(cmd, "meta") == 0)
    return one_file_command(argc - 1, argv + 1, cmd_meta,
                            "Prints the footer: file properties, key/value metadata, and per row "
                            "group each column chunk's codec, encodings, value count, sizes, "
                            "offsets and statistics (decoded to readable values).");
  if (strcmp(cmd, "cat") == 0) return cmd_cat(argc - 1, argv + 1);
  fprintf(stderr, "cpaimon parquet: unknown command '%s'\n\n%s", cmd, k_usage);
  return 2;
}
