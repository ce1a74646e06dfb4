/*
 * Parquet footer reading, validation and writing (footer.h; spec/parquet.md §2.1, §4 P2–P5, P18).
 *
 * The reader fetches the last 64 KiB in one ranged read: nearly every footer fits, so a file's
 * metadata costs one read (plus one for the leading magic on larger files) instead of a read for
 * the length and another for the bytes — which matters once the seam is an object store.
 */
#include "format/parquet/footer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

enum { CP_PQ_TAIL_READ = 64 * 1024, CP_PQ_MIN_FILE = 12 };

static uint32_t load_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Checks the trailing length + magic and returns the FileMetaData length. */
static int check_tail(const uint8_t tail8[8], uint64_t size, const char *path, uint32_t *len,
                      paimon_error *err) {
  unsigned long long at = (unsigned long long)(size - 4);
  if (memcmp(tail8 + 4, "PARE", 4) == 0)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "%s: encrypted Parquet footer (magic PARE at offset %llu) is not "
                            "supported",
                            path, at);
  if (memcmp(tail8 + 4, CP_PQ_MAGIC, CP_PQ_MAGIC_LEN) != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: not a Parquet file: bytes at offset %llu are not the PAR1 magic",
                            path, at);
  *len = load_le32(tail8);
  if (*len > size - CP_PQ_MIN_FILE)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: footer length %u (at offset %llu) exceeds the %llu bytes between "
                            "the magics",
                            path, *len, (unsigned long long)(size - 8),
                            (unsigned long long)(size - CP_PQ_MIN_FILE));
  return PAIMON_OK;
}

static int check_head(const uint8_t head[4], const char *path, paimon_error *err) {
  if (memcmp(head, CP_PQ_MAGIC, CP_PQ_MAGIC_LEN) == 0) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "%s: not a Parquet file: bytes at offset 0 are not the PAR1 magic", path);
}

static int check_size(uint64_t size, const char *path, paimon_error *err) {
  if (size >= CP_PQ_MIN_FILE) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "%s: %llu bytes is too small for a Parquet file (at least 12 needed)",
                          path, (unsigned long long)size);
}

/* Decodes, builds the schema and validates; `out` is freed on failure. */
static int finish(cp_pq_footer *out, const uint8_t *meta, uint32_t len, uint64_t size,
                  const char *path, paimon_error *err) {
  out->file_size = size;
  out->metadata_len = len;
  out->metadata_offset = size - 8 - len;
  int rc = cp_pq_file_meta_decode(&out->meta, meta, len, out->metadata_offset, err);
  if (rc) {
    paimon_error_prefix(err, "%s: parquet footer", path);
    return rc;
  }
  rc = cp_pq_schema_build(&out->schema, out->meta.schema, out->meta.num_schema, err);
  if (rc) {
    paimon_error_prefix(err, "%s: parquet schema", path);
  } else {
    rc = cp_pq_file_meta_validate(&out->meta, &out->schema, out->metadata_offset, path, err);
  }
  if (rc) cp_pq_footer_free(out);
  return rc;
}

int cp_pq_footer_parse(const uint8_t *file, size_t len, const char *path, cp_pq_footer *out,
                       paimon_error *err) {
  memset(out, 0, sizeof *out);
  uint32_t meta_len = 0;
  CP_RETURN_IF_ERROR(check_size(len, path, err));
  CP_RETURN_IF_ERROR(check_tail(file + len - 8, len, path, &meta_len, err));
  CP_RETURN_IF_ERROR(check_head(file, path, err));
  return finish(out, file + len - 8 - meta_len, meta_len, len, path, err);
}

int cp_pq_footer_read(cp_rfile *f, cp_pq_footer *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  const char *path = cp_rfile_path(f);
  uint64_t size = cp_rfile_size(f);
  CP_RETURN_IF_ERROR(check_size(size, path, err));
  size_t tail_len = size < CP_PQ_TAIL_READ ? (size_t)size : CP_PQ_TAIL_READ;
  uint8_t *tail = malloc(tail_len), *whole = NULL;
  if (!tail) return CP_ENOMEM(err, "parquet footer");
  uint32_t meta_len = 0;
  uint8_t head[4];
  int rc;
  CP_GOTO_IF_ERROR(rc, cp_rfile_read_at(f, size - tail_len, tail, tail_len, err), done);
  CP_GOTO_IF_ERROR(rc, check_tail(tail + tail_len - 8, size, path, &meta_len, err), done);
  /* The leading magic costs one more request on an object store, where it is skipped as pyarrow
   * skips it everywhere: the trailing magic and a footer that parses are the real evidence. */
  if (tail_len == size) {
    memcpy(head, tail, sizeof head);
    CP_GOTO_IF_ERROR(rc, check_head(head, path, err), done);
  } else if (cp_rfile_cheap_head(f)) {
    CP_GOTO_IF_ERROR(rc, cp_rfile_read_at(f, 0, head, sizeof head, err), done);
    CP_GOTO_IF_ERROR(rc, check_head(head, path, err), done);
  }
  const uint8_t *meta = tail + tail_len - 8 - meta_len;
  if ((uint64_t)meta_len + 8 > tail_len) {
    whole = malloc(meta_len ? meta_len : 1);
    if (!whole) {
      rc = CP_ENOMEM(err, "parquet footer");
      goto done;
    }
    CP_GOTO_IF_ERROR(rc, cp_rfile_read_at(f, size - 8 - meta_len, whole, meta_len, err), done);
    meta = whole;
  }
  rc = finish(out, meta, meta_len, size, path, err);
done:
  free(tail);
  free(whole);
  return rc;
}

void cp_pq_footer_free(cp_pq_footer *f) {
  cp_pq_file_meta_free(&f->meta);
  cp_pq_schema_free(&f->schema);
  memset(f, 0, sizeof *f);
}

int64_t cp_pq_column_chunk_start(const cp_pq_column_meta *cm) {
  if (cm->dictionary_page_offset.is_set && cm->dictionary_page_offset.value > 0 &&
      cm->dictionary_page_offset.value < cm->data_page_offset)
    return cm->dictionary_page_offset.value;
  return cm->data_page_offset;
}

/* parquet-mr before 1.2.9 (PARQUET-816). created_by is "<app> version <x.y.z> (build <sha>)"; an
 * app of parquet-mr whose version does not parse counts as old, as in Arrow's ApplicationVersion.
 */
static bool has_parquet_816(const char *created_by) {
  static const char app[] = "parquet-mr";
  if (!created_by || strncmp(created_by, app, sizeof app - 1) != 0) return false;
  const char *rest = created_by + sizeof app - 1;
  if (*rest != '\0' && *rest != ' ') return false;
  int major = 0, minor = 0, patch = 0;
  if (sscanf(rest, " version %d.%d.%d", &major, &minor, &patch) < 1) return true;
  if (major != 1) return major < 1;
  return minor < 2 || (minor == 2 && patch < 9);
}

int64_t cp_pq_column_chunk_read_len(const char *created_by, const cp_pq_column_meta *cm,
                                    uint64_t data_end) {
  int64_t len = cm->total_compressed_size, start = cp_pq_column_chunk_start(cm);
  if (!has_parquet_816(created_by) || start < 0 || (uint64_t)start > data_end) return len;
  uint64_t room = data_end - (uint64_t)start;
  if ((uint64_t)len >= room) return len;
  return (uint64_t)len + 100 < room ? len + 100 : (int64_t)room;
}

static bool same_path(const cp_pq_column_meta *cm, const cp_pq_schema_node *leaf) {
  if (cm->path_len != leaf->path_len) return false;
  for (uint32_t i = 0; i < cm->path_len; i++)
    if (!cm->path_in_schema[i] || strcmp(cm->path_in_schema[i], leaf->path[i]) != 0) return false;
  return true;
}

static int validate_chunk(const cp_pq_column_chunk *ch, const cp_pq_schema_node *leaf, uint32_t rg,
                          bool empty_rg, uint64_t data_end, const char *path, paimon_error *err) {
  const char *col = leaf->path_str;
  if (ch->encrypted)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "%s: column %s in row group %u is encrypted (not supported)", path, col,
                            rg);
  if (ch->file_path)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "%s: column %s in row group %u is stored in another file (%s)", path,
                            col, rg, ch->file_path);
  if (!ch->has_meta_data)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: column %s in row group %u has no ColumnMetaData", path, col, rg);
  const cp_pq_column_meta *cm = &ch->meta_data;
  if (cm->type != leaf->element->type.value)
    return paimon_error_set(
        err, PAIMON_ECORRUPT, "%s: column %s in row group %u has type %s but the schema says %s",
        path, col, rg, cp_pq_type_name(cm->type), cp_pq_type_name(leaf->element->type.value));
  if (!same_path(cm, leaf))
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: chunk %d of row group %u has a path_in_schema that does not match "
                            "schema column %s",
                            path, (int)leaf->leaf_index, rg, col);
  if (cm->num_values < 0 || cm->total_compressed_size < 0 || cm->total_uncompressed_size < 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: column %s in row group %u has a negative value count or size",
                            path, col, rg);
  /* Nothing is ever read from an empty row group, and Arrow writes offsets 0 in them (see
   * parquet-testing column_chunk_key_value_metadata.parquet), so their ranges go unchecked. */
  if (empty_rg) return PAIMON_OK;
  int64_t start = cp_pq_column_chunk_start(cm);
  if (start < CP_PQ_MAGIC_LEN || (uint64_t)start > data_end ||
      (uint64_t)cm->total_compressed_size > data_end - (uint64_t)start)
    return paimon_error_set(
        err, PAIMON_ECORRUPT,
        "%s: column %s in row group %u spans bytes [%lld, %lld + %lld), outside "
        "the data region [4, %llu)",
        path, col, rg, (long long)start, (long long)start, (long long)cm->total_compressed_size,
        (unsigned long long)data_end);
  return PAIMON_OK;
}

int cp_pq_file_meta_validate(const cp_pq_file_meta *m, const cp_pq_schema *s, uint64_t data_end,
                             const char *path, paimon_error *err) {
  if (m->encrypted)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "%s: encrypted Parquet file (not supported)",
                            path);
  if (m->num_rows < 0)
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: footer num_rows is negative (%lld)", path,
                            (long long)m->num_rows);
  if (m->num_column_orders && m->num_column_orders != s->num_leaves)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: footer has %u column orders for %u leaf columns", path,
                            m->num_column_orders, s->num_leaves);
  int64_t total = 0;
  for (uint32_t g = 0; g < m->num_row_groups; g++) {
    const cp_pq_row_group *rg = &m->row_groups[g];
    if (rg->num_rows < 0 || __builtin_add_overflow(total, rg->num_rows, &total))
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "%s: row group %u has an invalid num_rows (%lld)", path, g,
                              (long long)rg->num_rows);
    if (rg->num_columns != s->num_leaves)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "%s: row group %u has %u column chunks but the schema has %u leaf "
                              "columns",
                              path, g, rg->num_columns, s->num_leaves);
    for (uint32_t c = 0; c < rg->num_columns; c++)
      CP_RETURN_IF_ERROR(
          validate_chunk(&rg->columns[c], s->leaves[c], g, rg->num_rows == 0, data_end, path, err));
  }
  /* Early writers (parquet-rs 0.3, parquet-testing repeated_no_annotation.parquet) left the
   * file's num_rows at 0; pyarrow and parquet-java count rows from the row groups, so do we. */
  if (total != m->num_rows && m->num_rows != 0)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "%s: row groups hold %lld rows but the footer says %lld", path,
                            (long long)total, (long long)m->num_rows);
  return PAIMON_OK;
}

int cp_pq_footer_write(const cp_pq_file_meta *m, cp_buf *out, paimon_error *err) {
  size_t start = out->len;
  CP_RETURN_IF_ERROR(cp_pq_file_meta_encode(m, out, err));
  size_t n = out->len - start;
  if (n > UINT32_MAX) {
    out->len = start;
    return paimon_error_set(err, PAIMON_EINVAL, "parquet footer of %zu bytes exceeds 4 GiB", n);
  }
  uint8_t tail[8] = {
      (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24), 'P', 'A', 'R', '1'};
  int rc = cp_buf_append(out, tail, sizeof tail, err);
  if (rc) out->len = start;
  return rc;
}
