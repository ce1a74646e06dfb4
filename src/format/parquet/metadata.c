/*
 * Parquet metadata structs <-> Thrift compact bytes, and the schema tree (metadata.h;
 * spec/parquet.md §2.6 field listings, §2.9, §2.10, §3.1, §4 P5/P7/P15/P18; parquet.thrift).
 *
 * Decoding and encoding are driven by one table per Thrift struct (id, kind, offset in the C
 * struct), so the two directions cannot disagree on a field id or type, required-field checks are
 * uniform, and encoding walks fields in ascending id order by construction. Unions (LogicalType,
 * TimeUnit, ColumnOrder) have small hand-written codecs.
 */
#include "format/parquet/metadata.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/status.h"
#include "format/parquet/thrift.h"

/* ------------------------------------------------------------------------------------------------
 * Struct descriptions
 */

typedef enum kind {
  K_I8,   /* int8_t, always written */
  K_I32,  /* int32_t, always written */
  K_I64,  /* int64_t, always written */
  K_BOOL, /* bool, always written (required, or optional with a default set by `init`) */
  K_OPT_I16,
  K_OPT_I32,
  K_OPT_I64,
  K_OPT_BOOL,
  K_OPT_BYTES,
  K_STRING,      /* char *, written when not NULL */
  K_STRUCT,      /* nested struct at off; bool "present" flag at aux (or NO_AUX: always) */
  K_LIST_I32,    /* int32_t * at off, uint32_t count at aux */
  K_LIST_STRING, /* char ** at off, uint32_t count at aux */
  K_LIST_STRUCT, /* element array at off, uint32_t count at aux */
  K_FLAG,        /* value skipped on read, presence noted in the bool at off; never written */
  K_CUSTOM       /* hand-written codec */
} kind;

#define NO_AUX ((size_t)-1)

typedef struct dctx {
  cp_arena *arena; /* NULL: binaries borrow the input, strings and lists are not allowed */
} dctx;

struct sdesc;
typedef struct fdesc {
  int16_t id;
  uint8_t kind;
  bool required;
  const char *name;
  size_t off;
  size_t aux; /* K_CUSTOM: the thrift type the field must have */
  const struct sdesc *sub;
  /* K_CUSTOM: `obj` is the containing struct; encode writes the field header itself. */
  int (*decode)(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *obj,
                paimon_error *err);
  int (*encode)(cp_thrift_writer *w, const struct fdesc *fd, const void *obj, paimon_error *err);
} fdesc;

typedef struct sdesc {
  const char *name;
  size_t size;        /* C size of one element (for lists) */
  size_t min_encoded; /* fewest bytes one encoded element can take (bounds list allocation) */
  const fdesc *fields;
  size_t num_fields;
  void (*init)(void *obj); /* sets defaults before decoding, or NULL */
} sdesc;

#define F(id, k, req, type, member)                                                                \
  { id, k, req, #member, offsetof(type, member), NO_AUX, NULL, NULL, NULL }
#define FS(id, req, type, member, flag, sd)                                                        \
  { id, K_STRUCT, req, #member, offsetof(type, member), flag, sd, NULL, NULL }
#define FL(id, k, req, type, member, count, sd)                                                    \
  { id, k, req, #member, offsetof(type, member), offsetof(type, count), sd, NULL, NULL }
#define FC(id, ttype, type, member, dec, enc)                                                      \
  { id, K_CUSTOM, false, #member, offsetof(type, member), ttype, NULL, dec, enc }
#define SD(name, type, min, fields, init)                                                          \
  { name, sizeof(type), min, fields, sizeof fields / sizeof fields[0], init }

static int decode_logical(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *obj,
                          paimon_error *err);
static int encode_logical(cp_thrift_writer *w, const fdesc *fd, const void *obj, paimon_error *err);
static int decode_orders(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *obj,
                         paimon_error *err);
static int encode_orders(cp_thrift_writer *w, const fdesc *fd, const void *obj, paimon_error *err);

static const fdesc kv_fields[] = {
    F(1, K_STRING, true, cp_pq_key_value, key),
    F(2, K_OPT_BYTES, false, cp_pq_key_value, value),
};
static const sdesc kv_desc = SD("KeyValue", cp_pq_key_value, 3, kv_fields, NULL);

static const fdesc schema_fields[] = {
    F(1, K_OPT_I32, false, cp_pq_schema_element, type),
    F(2, K_OPT_I32, false, cp_pq_schema_element, type_length),
    F(3, K_OPT_I32, false, cp_pq_schema_element, repetition_type),
    F(4, K_STRING, true, cp_pq_schema_element, name),
    F(5, K_OPT_I32, false, cp_pq_schema_element, num_children),
    F(6, K_OPT_I32, false, cp_pq_schema_element, converted_type),
    F(7, K_OPT_I32, false, cp_pq_schema_element, scale),
    F(8, K_OPT_I32, false, cp_pq_schema_element, precision),
    F(9, K_OPT_I32, false, cp_pq_schema_element, field_id),
    FC(10, CP_THRIFT_STRUCT, cp_pq_schema_element, logical_type, decode_logical, encode_logical),
};
static const sdesc schema_desc = SD("SchemaElement", cp_pq_schema_element, 3, schema_fields, NULL);

static const fdesc stats_fields[] = {
    F(1, K_OPT_BYTES, false, cp_pq_statistics, max),
    F(2, K_OPT_BYTES, false, cp_pq_statistics, min),
    F(3, K_OPT_I64, false, cp_pq_statistics, null_count),
    F(4, K_OPT_I64, false, cp_pq_statistics, distinct_count),
    F(5, K_OPT_BYTES, false, cp_pq_statistics, max_value),
    F(6, K_OPT_BYTES, false, cp_pq_statistics, min_value),
    F(7, K_OPT_BOOL, false, cp_pq_statistics, is_max_value_exact),
    F(8, K_OPT_BOOL, false, cp_pq_statistics, is_min_value_exact),
    F(9, K_OPT_I64, false, cp_pq_statistics, nan_count),
};
static const sdesc stats_desc = SD("Statistics", cp_pq_statistics, 1, stats_fields, NULL);

static const fdesc pes_fields[] = {
    F(1, K_I32, true, cp_pq_page_encoding_stats, page_type),
    F(2, K_I32, true, cp_pq_page_encoding_stats, encoding),
    F(3, K_I32, true, cp_pq_page_encoding_stats, count),
};
static const sdesc pes_desc =
    SD("PageEncodingStats", cp_pq_page_encoding_stats, 7, pes_fields, NULL);

static const fdesc cmd_fields[] = {
    F(1, K_I32, true, cp_pq_column_meta, type),
    FL(2, K_LIST_I32, true, cp_pq_column_meta, encodings, num_encodings, NULL),
    FL(3, K_LIST_STRING, true, cp_pq_column_meta, path_in_schema, path_len, NULL),
    F(4, K_I32, true, cp_pq_column_meta, codec),
    F(5, K_I64, true, cp_pq_column_meta, num_values),
    F(6, K_I64, true, cp_pq_column_meta, total_uncompressed_size),
    F(7, K_I64, true, cp_pq_column_meta, total_compressed_size),
    FL(8, K_LIST_STRUCT, false, cp_pq_column_meta, key_value_metadata, num_key_value_metadata,
       &kv_desc),
    F(9, K_I64, true, cp_pq_column_meta, data_page_offset),
    F(10, K_OPT_I64, false, cp_pq_column_meta, index_page_offset),
    F(11, K_OPT_I64, false, cp_pq_column_meta, dictionary_page_offset),
    FS(12, false, cp_pq_column_meta, statistics, offsetof(cp_pq_column_meta, has_statistics),
       &stats_desc),
    FL(13, K_LIST_STRUCT, false, cp_pq_column_meta, encoding_stats, num_encoding_stats, &pes_desc),
    F(14, K_OPT_I64, false, cp_pq_column_meta, bloom_filter_offset),
    F(15, K_OPT_I32, false, cp_pq_column_meta, bloom_filter_length),
};
static const sdesc cmd_desc = SD("ColumnMetaData", cp_pq_column_meta, 1, cmd_fields, NULL);

static const fdesc chunk_fields[] = {
    F(1, K_STRING, false, cp_pq_column_chunk, file_path),
    F(2, K_I64, true, cp_pq_column_chunk, file_offset),
    FS(3, false, cp_pq_column_chunk, meta_data, offsetof(cp_pq_column_chunk, has_meta_data),
       &cmd_desc),
    F(4, K_OPT_I64, false, cp_pq_column_chunk, offset_index_offset),
    F(5, K_OPT_I32, false, cp_pq_column_chunk, offset_index_length),
    F(6, K_OPT_I64, false, cp_pq_column_chunk, column_index_offset),
    F(7, K_OPT_I32, false, cp_pq_column_chunk, column_index_length),
    F(8, K_FLAG, false, cp_pq_column_chunk, encrypted),
    F(9, K_FLAG, false, cp_pq_column_chunk, encrypted),
};
static const sdesc chunk_desc = SD("ColumnChunk", cp_pq_column_chunk, 3, chunk_fields, NULL);

static const fdesc rg_fields[] = {
    FL(1, K_LIST_STRUCT, true, cp_pq_row_group, columns, num_columns, &chunk_desc),
    F(2, K_I64, true, cp_pq_row_group, total_byte_size),
    F(3, K_I64, true, cp_pq_row_group, num_rows),
    F(5, K_OPT_I64, false, cp_pq_row_group, file_offset),
    F(6, K_OPT_I64, false, cp_pq_row_group, total_compressed_size),
    F(7, K_OPT_I16, false, cp_pq_row_group, ordinal),
};
static const sdesc rg_desc = SD("RowGroup", cp_pq_row_group, 7, rg_fields, NULL);

static const fdesc fmd_fields[] = {
    F(1, K_I32, true, cp_pq_file_meta, version),
    FL(2, K_LIST_STRUCT, true, cp_pq_file_meta, schema, num_schema, &schema_desc),
    F(3, K_I64, true, cp_pq_file_meta, num_rows),
    FL(4, K_LIST_STRUCT, true, cp_pq_file_meta, row_groups, num_row_groups, &rg_desc),
    FL(5, K_LIST_STRUCT, false, cp_pq_file_meta, key_value_metadata, num_key_value_metadata,
       &kv_desc),
    F(6, K_STRING, false, cp_pq_file_meta, created_by),
    FC(7, CP_THRIFT_LIST, cp_pq_file_meta, column_orders, decode_orders, encode_orders),
    F(8, K_FLAG, false, cp_pq_file_meta, encrypted),
};
static const sdesc fmd_desc = SD("FileMetaData", cp_pq_file_meta, 1, fmd_fields, NULL);

static const fdesc dph_fields[] = {
    F(1, K_I32, true, cp_pq_data_page_header, num_values),
    F(2, K_I32, true, cp_pq_data_page_header, encoding),
    F(3, K_I32, true, cp_pq_data_page_header, definition_level_encoding),
    F(4, K_I32, true, cp_pq_data_page_header, repetition_level_encoding),
    FS(5, false, cp_pq_data_page_header, statistics,
       offsetof(cp_pq_data_page_header, has_statistics), &stats_desc),
};
static const sdesc dph_desc = SD("DataPageHeader", cp_pq_data_page_header, 1, dph_fields, NULL);

static const fdesc dict_fields[] = {
    F(1, K_I32, true, cp_pq_dictionary_page_header, num_values),
    F(2, K_I32, true, cp_pq_dictionary_page_header, encoding),
    F(3, K_OPT_BOOL, false, cp_pq_dictionary_page_header, is_sorted),
};
static const sdesc dict_desc =
    SD("DictionaryPageHeader", cp_pq_dictionary_page_header, 1, dict_fields, NULL);

static void dph2_init(void *obj) { ((cp_pq_data_page_header_v2 *)obj)->is_compressed = true; }

static const fdesc dph2_fields[] = {
    F(1, K_I32, true, cp_pq_data_page_header_v2, num_values),
    F(2, K_I32, true, cp_pq_data_page_header_v2, num_nulls),
    F(3, K_I32, true, cp_pq_data_page_header_v2, num_rows),
    F(4, K_I32, true, cp_pq_data_page_header_v2, encoding),
    F(5, K_I32, true, cp_pq_data_page_header_v2, definition_levels_byte_length),
    F(6, K_I32, true, cp_pq_data_page_header_v2, repetition_levels_byte_length),
    F(7, K_BOOL, false, cp_pq_data_page_header_v2, is_compressed),
    FS(8, false, cp_pq_data_page_header_v2, statistics,
       offsetof(cp_pq_data_page_header_v2, has_statistics), &stats_desc),
};
static const sdesc dph2_desc =
    SD("DataPageHeaderV2", cp_pq_data_page_header_v2, 1, dph2_fields, dph2_init);

/* IndexPageHeader has no fields; its presence is the flag itself. */
static const fdesc no_fields[1] = {{0, K_FLAG, false, "", 0, NO_AUX, NULL, NULL, NULL}};
static const sdesc empty_desc = {"IndexPageHeader", 0, 1, no_fields, 0, NULL};

static const fdesc ph_fields[] = {
    F(1, K_I32, true, cp_pq_page_header, type),
    F(2, K_I32, true, cp_pq_page_header, uncompressed_page_size),
    F(3, K_I32, true, cp_pq_page_header, compressed_page_size),
    F(4, K_OPT_I32, false, cp_pq_page_header, crc),
    FS(5, false, cp_pq_page_header, data_page_header,
       offsetof(cp_pq_page_header, has_data_page_header), &dph_desc),
    FS(6, false, cp_pq_page_header, has_index_page_header,
       offsetof(cp_pq_page_header, has_index_page_header), &empty_desc),
    FS(7, false, cp_pq_page_header, dictionary_page_header,
       offsetof(cp_pq_page_header, has_dictionary_page_header), &dict_desc),
    FS(8, false, cp_pq_page_header, data_page_header_v2,
       offsetof(cp_pq_page_header, has_data_page_header_v2), &dph2_desc),
};
static const sdesc ph_desc = SD("PageHeader", cp_pq_page_header, 1, ph_fields, NULL);

/* ------------------------------------------------------------------------------------------------
 * Decoding
 */

#define AT(base, off) ((void *)((char *)(base) + (off)))
#define CAT(base, off) ((const void *)((const char *)(base) + (off)))

static int decode_struct(cp_thrift_reader *r, const dctx *c, const sdesc *sd, void *obj,
                         paimon_error *err);

static int nomem(const char *what, paimon_error *err) { return CP_ENOMEM(err, what); }

/* Copies a binary into the arena (NUL-terminated, so text values are usable as C strings), or
 * borrows it from the input when decoding without an arena. */
static int read_bytes_value(cp_thrift_reader *r, const dctx *c, const uint8_t **out, uint32_t *len,
                            paimon_error *err) {
  const uint8_t *p = NULL;
  CP_RETURN_IF_ERROR(cp_thrift_read_binary(r, &p, len, err));
  if (!c->arena) {
    *out = p;
    return PAIMON_OK;
  }
  char *copy = cp_arena_strndup(c->arena, (const char *)p, *len);
  if (!copy) return nomem("copying a metadata binary", err);
  *out = (const uint8_t *)copy;
  return PAIMON_OK;
}

static int read_string(cp_thrift_reader *r, const dctx *c, char **out, paimon_error *err) {
  if (!c->arena)
    return paimon_error_set(err, PAIMON_EINVAL, "parquet metadata: string without an arena");
  const uint8_t *p = NULL;
  uint32_t len;
  CP_RETURN_IF_ERROR(read_bytes_value(r, c, &p, &len, err));
  *out = (char *)p;
  return PAIMON_OK;
}

static void *alloc_list(const dctx *c, uint32_t n, size_t elem_size) {
  if (!c->arena) return NULL;
  return cp_arena_calloc(c->arena, (n ? n : 1) * elem_size);
}

/* Lists bounded twice: by the thrift reader (one byte per element) and by the element struct's
 * smallest encoding, so a lying count cannot make the arena allocate far beyond the input. */
static int list_header(cp_thrift_reader *r, int want_type, size_t min_encoded, uint32_t *n,
                       paimon_error *err) {
  uint64_t at = cp_thrift_offset(r);
  uint8_t et;
  CP_RETURN_IF_ERROR(cp_thrift_list_begin(r, &et, n, err));
  if (et != want_type)
    return paimon_error_set(err, PAIMON_ECORRUPT, "list at byte %llu has %s elements, expected %s",
                            (unsigned long long)at, cp_thrift_type_name(et),
                            cp_thrift_type_name(want_type));
  if (min_encoded > 1 && *n > (r->len - r->pos) / min_encoded) {
    r->truncated = true;
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "list at byte %llu of %u structs cannot fit in the %zu bytes left",
                            (unsigned long long)at, *n, r->len - r->pos);
  }
  return PAIMON_OK;
}

/* Prefixes its own errors with "<Struct>.<field>" or "<Struct>.<field>[<index>]". */
static int decode_list(cp_thrift_reader *r, const dctx *c, const sdesc *sd, const fdesc *fd,
                       void *obj, paimon_error *err) {
  int want = fd->kind == K_LIST_I32      ? CP_THRIFT_I32
             : fd->kind == K_LIST_STRING ? CP_THRIFT_BINARY
                                         : CP_THRIFT_STRUCT;
  size_t elem = fd->kind == K_LIST_I32      ? sizeof(int32_t)
                : fd->kind == K_LIST_STRING ? sizeof(char *)
                                            : fd->sub->size;
  uint32_t n = 0;
  int rc = list_header(r, want, fd->sub ? fd->sub->min_encoded : 1, &n, err);
  if (rc) {
    paimon_error_prefix(err, "%s.%s", sd->name, fd->name);
    return rc;
  }
  if (!c->arena)
    return paimon_error_set(err, PAIMON_EINVAL, "parquet metadata: list without an arena");
  char *items = alloc_list(c, n, elem);
  if (!items) return nomem(fd->name, err);
  for (uint32_t i = 0; i < n; i++) {
    void *it = items + (size_t)i * elem;
    if (fd->kind == K_LIST_I32)
      rc = cp_thrift_read_i32(r, it, err);
    else if (fd->kind == K_LIST_STRING)
      rc = read_string(r, c, it, err);
    else {
      if (fd->sub->init) fd->sub->init(it);
      rc = decode_struct(r, c, fd->sub, it, err);
    }
    if (rc) {
      paimon_error_prefix(err, "%s.%s[%u]", sd->name, fd->name, i);
      return rc;
    }
  }
  memcpy(AT(obj, fd->off), &items, sizeof items);
  *(uint32_t *)AT(obj, fd->aux) = n;
  return PAIMON_OK;
}

static int expected_type(int k) {
  switch (k) {
  case K_I8: return CP_THRIFT_I8;
  case K_OPT_I16: return CP_THRIFT_I16;
  case K_I32:
  case K_OPT_I32: return CP_THRIFT_I32;
  case K_I64:
  case K_OPT_I64: return CP_THRIFT_I64;
  case K_BOOL:
  case K_OPT_BOOL: return CP_THRIFT_BOOL;
  case K_OPT_BYTES:
  case K_STRING: return CP_THRIFT_BINARY;
  case K_STRUCT: return CP_THRIFT_STRUCT;
  default: return CP_THRIFT_LIST;
  }
}

static int want_type(const fdesc *fd) {
  return fd->kind == K_CUSTOM ? (int)fd->aux : expected_type(fd->kind);
}

static bool type_matches(const fdesc *fd, int type) {
  if (fd->kind == K_FLAG) return true;
  int want = want_type(fd);
  if (want == CP_THRIFT_BOOL) return type == CP_THRIFT_BOOL_TRUE || type == CP_THRIFT_BOOL_FALSE;
  return type == want;
}

static int decode_field(cp_thrift_reader *r, const dctx *c, const sdesc *sd, const fdesc *fd,
                        const cp_thrift_field *f, void *obj, paimon_error *err) {
  void *p = AT(obj, fd->off);
  if (fd->kind == K_CUSTOM) return fd->decode(r, c, f, obj, err);
  if (fd->kind == K_FLAG) {
    *(bool *)p = true;
    return cp_thrift_skip(r, f->type, err);
  }
  switch (fd->kind) {
  case K_I8: return cp_thrift_read_i8(r, p, err);
  case K_I32: return cp_thrift_read_i32(r, p, err);
  case K_I64: return cp_thrift_read_i64(r, p, err);
  case K_BOOL: return cp_thrift_read_bool(r, p, err);
  case K_OPT_I16:
    ((cp_pq_opt_i16 *)p)->is_set = true;
    return cp_thrift_read_i16(r, &((cp_pq_opt_i16 *)p)->value, err);
  case K_OPT_I32:
    ((cp_pq_opt_i32 *)p)->is_set = true;
    return cp_thrift_read_i32(r, &((cp_pq_opt_i32 *)p)->value, err);
  case K_OPT_I64:
    ((cp_pq_opt_i64 *)p)->is_set = true;
    return cp_thrift_read_i64(r, &((cp_pq_opt_i64 *)p)->value, err);
  case K_OPT_BOOL:
    ((cp_pq_opt_bool *)p)->is_set = true;
    return cp_thrift_read_bool(r, &((cp_pq_opt_bool *)p)->value, err);
  case K_OPT_BYTES: {
    cp_pq_opt_bytes *b = p;
    b->is_set = true;
    return read_bytes_value(r, c, &b->data, &b->len, err);
  }
  case K_STRING: return read_string(r, c, p, err);
  case K_STRUCT:
    if (fd->aux != NO_AUX) *(bool *)AT(obj, fd->aux) = true;
    if (fd->sub->size) {
      memset(p, 0, fd->sub->size);
      if (fd->sub->init) fd->sub->init(p);
    }
    return decode_struct(r, c, fd->sub, p, err);
  default: return decode_list(r, c, sd, fd, obj, err);
  }
}

static int decode_struct(cp_thrift_reader *r, const dctx *c, const sdesc *sd, void *obj,
                         paimon_error *err) {
  uint32_t seen = 0;
  CP_RETURN_IF_ERROR(cp_thrift_struct_begin(r, err));
  for (;;) {
    cp_thrift_field f;
    CP_RETURN_IF_ERROR(cp_thrift_field_next(r, &f, err));
    if (f.type == CP_THRIFT_STOP) break;
    size_t i = 0;
    while (i < sd->num_fields && sd->fields[i].id != f.id) i++;
    const fdesc *fd = i < sd->num_fields ? &sd->fields[i] : NULL;
    int rc;
    if (fd && type_matches(fd, f.type)) {
      rc = decode_field(r, c, sd, fd, &f, obj, err);
      seen |= 1u << i;
      if (rc && fd->kind >= K_LIST_I32 && fd->kind <= K_LIST_STRUCT) return rc;
    } else if (fd && fd->required) {
      rc = cp_thrift_field_expect(r, &f, want_type(fd), fd->name, err);
    } else {
      /* Unknown ids are skipped; so is a known optional id with another type, as libthrift's
       * generated code does (a fork of parquet-mr reused ColumnMetaData id 15 for a list). */
      rc = cp_thrift_skip(r, f.type, err);
    }
    if (rc) {
      if (fd)
        paimon_error_prefix(err, "%s.%s", sd->name, fd->name);
      else
        paimon_error_prefix(err, "%s field %d", sd->name, (int)f.id);
      return rc;
    }
  }
  for (size_t i = 0; i < sd->num_fields; i++) {
    if (sd->fields[i].required && !(seen & (1u << i)))
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "%s: required field %d (%s) is missing (struct ends at byte %llu)",
                              sd->name, (int)sd->fields[i].id, sd->fields[i].name,
                              (unsigned long long)cp_thrift_offset(r));
  }
  return cp_thrift_struct_end(r, err);
}

/* Decodes a union struct: calls `member` for each field (normally exactly one). */
typedef int (*member_fn)(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *p,
                         paimon_error *err);

static int decode_union(cp_thrift_reader *r, const dctx *c, const char *name, member_fn member,
                        void *p, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_struct_begin(r, err));
  for (;;) {
    cp_thrift_field f;
    CP_RETURN_IF_ERROR(cp_thrift_field_next(r, &f, err));
    if (f.type == CP_THRIFT_STOP) break;
    int rc = member(r, c, &f, p, err);
    if (rc) {
      paimon_error_prefix(err, "%s member %d", name, f.id);
      return rc;
    }
  }
  return cp_thrift_struct_end(r, err);
}

static int time_unit_member(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *p,
                            paimon_error *err) {
  int *unit = p;
  *unit = f->id >= CP_PQ_MILLIS && f->id <= CP_PQ_NANOS ? f->id : 0;
  return cp_thrift_skip(r, f->type, err);
}

static int decode_time_unit(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *obj,
                            paimon_error *err) {
  cp_pq_logical_type *lt = obj;
  return decode_union(r, c, "TimeUnit", time_unit_member, &lt->time.unit, err);
}

static const fdesc decimal_fields[] = {
    {1, K_I32, true, "scale", offsetof(cp_pq_logical_type, decimal.scale), NO_AUX, NULL, NULL,
     NULL},
    {2, K_I32, true, "precision", offsetof(cp_pq_logical_type, decimal.precision), NO_AUX, NULL,
     NULL, NULL},
};
static const sdesc decimal_desc = {"DecimalType", 0, 1, decimal_fields, 2, NULL};

static const fdesc time_fields[] = {
    {1, K_BOOL, true, "isAdjustedToUTC", offsetof(cp_pq_logical_type, time.is_adjusted_to_utc),
     NO_AUX, NULL, NULL, NULL},
    {2, K_CUSTOM, true, "unit", offsetof(cp_pq_logical_type, time.unit), CP_THRIFT_STRUCT, NULL,
     decode_time_unit, NULL},
};
static const sdesc time_desc = {"TimeType", 0, 1, time_fields, 2, NULL};

static const fdesc int_fields[] = {
    {1, K_I8, true, "bitWidth", offsetof(cp_pq_logical_type, integer.bit_width), NO_AUX, NULL, NULL,
     NULL},
    {2, K_BOOL, true, "isSigned", offsetof(cp_pq_logical_type, integer.is_signed), NO_AUX, NULL,
     NULL, NULL},
};
static const sdesc int_desc = {"IntType", 0, 1, int_fields, 2, NULL};

static int logical_member(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *p,
                          paimon_error *err) {
  cp_pq_logical_type *lt = p;
  if (f->type != CP_THRIFT_STRUCT) return cp_thrift_skip(r, f->type, err);
  memset(lt, 0, sizeof *lt);
  switch (f->id) {
  case CP_PQ_LT_DECIMAL: lt->kind = f->id; return decode_struct(r, c, &decimal_desc, lt, err);
  case CP_PQ_LT_TIME:
  case CP_PQ_LT_TIMESTAMP: lt->kind = f->id; return decode_struct(r, c, &time_desc, lt, err);
  case CP_PQ_LT_INTEGER: lt->kind = f->id; return decode_struct(r, c, &int_desc, lt, err);
  case CP_PQ_LT_STRING:
  case CP_PQ_LT_MAP:
  case CP_PQ_LT_LIST:
  case CP_PQ_LT_ENUM:
  case CP_PQ_LT_DATE:
  case CP_PQ_LT_UNKNOWN:
  case CP_PQ_LT_JSON:
  case CP_PQ_LT_BSON:
  case CP_PQ_LT_UUID:
  case CP_PQ_LT_FLOAT16: lt->kind = f->id; break;
  default: lt->kind = CP_PQ_LT_OTHER; lt->other_id = f->id;
  }
  return cp_thrift_skip(r, f->type, err);
}

static int decode_logical(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *obj,
                          paimon_error *err) {
  cp_pq_schema_element *el = obj;
  memset(&el->logical_type, 0, sizeof el->logical_type);
  return decode_union(r, c, "LogicalType", logical_member, &el->logical_type, err);
}

static int order_member(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *p,
                        paimon_error *err) {
  *(int32_t *)p = f->id;
  return cp_thrift_skip(r, f->type, err);
}

static int decode_orders(cp_thrift_reader *r, const dctx *c, const cp_thrift_field *f, void *obj,
                         paimon_error *err) {
  cp_pq_file_meta *m = obj;
  uint32_t n = 0;
  CP_RETURN_IF_ERROR(list_header(r, CP_THRIFT_STRUCT, 1, &n, err));
  int32_t *orders = alloc_list(c, n, sizeof *orders);
  if (!orders) return nomem("column_orders", err);
  for (uint32_t i = 0; i < n; i++) {
    int rc = decode_union(r, c, "ColumnOrder", order_member, &orders[i], err);
    if (rc) {
      paimon_error_prefix(err, "column_orders[%u]", i);
      return rc;
    }
  }
  m->column_orders = orders;
  m->num_column_orders = n;
  return PAIMON_OK;
}

void cp_pq_file_meta_init(cp_pq_file_meta *m) { memset(m, 0, sizeof *m); }

void cp_pq_file_meta_free(cp_pq_file_meta *m) {
  cp_arena_free(&m->arena);
  memset(m, 0, sizeof *m);
}

int cp_pq_file_meta_decode(cp_pq_file_meta *out, const uint8_t *data, size_t len, uint64_t base,
                           paimon_error *err) {
  cp_pq_file_meta_init(out);
  cp_thrift_reader r;
  cp_thrift_reader_init(&r, data, len, base);
  dctx c = {&out->arena};
  int rc = decode_struct(&r, &c, &fmd_desc, out, err);
  if (rc) cp_pq_file_meta_free(out);
  return rc;
}

int cp_pq_page_header_decode(cp_pq_page_header *out, const uint8_t *data, size_t len, uint64_t base,
                             size_t *header_len, bool *truncated, paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_thrift_reader r;
  cp_thrift_reader_init(&r, data, len, base);
  dctx c = {NULL};
  int rc = decode_struct(&r, &c, &ph_desc, out, err);
  if (truncated) *truncated = rc != 0 && r.truncated;
  *header_len = rc ? 0 : r.pos;
  return rc;
}

/* ------------------------------------------------------------------------------------------------
 * Encoding
 */

static int encode_struct(cp_thrift_writer *w, const sdesc *sd, const void *obj, paimon_error *err);

static int encode_list(cp_thrift_writer *w, const fdesc *fd, const void *obj, paimon_error *err) {
  uint32_t n = *(const uint32_t *)CAT(obj, fd->aux);
  const char *items;
  memcpy(&items, CAT(obj, fd->off), sizeof items);
  if (n == 0 && !fd->required) return PAIMON_OK;
  if (n && !items)
    return paimon_error_set(err, PAIMON_EINVAL, "%u elements but no array", (unsigned)n);
  int type = fd->kind == K_LIST_I32      ? CP_THRIFT_I32
             : fd->kind == K_LIST_STRING ? CP_THRIFT_BINARY
                                         : CP_THRIFT_STRUCT;
  size_t elem = fd->kind == K_LIST_I32      ? sizeof(int32_t)
                : fd->kind == K_LIST_STRING ? sizeof(char *)
                                            : fd->sub->size;
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_LIST, fd->id, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_list_begin(w, type, n, err));
  for (uint32_t i = 0; i < n; i++) {
    const void *it = items + (size_t)i * elem;
    int rc;
    if (fd->kind == K_LIST_I32) {
      rc = cp_thrift_write_i32(w, *(const int32_t *)it, err);
    } else if (fd->kind == K_LIST_STRING) {
      const char *s = *(char *const *)it;
      rc = s ? cp_thrift_write_binary(w, s, strlen(s), err)
             : paimon_error_set(err, PAIMON_EINVAL, "NULL string");
    } else {
      rc = encode_struct(w, fd->sub, it, err);
    }
    if (rc) {
      paimon_error_prefix(err, "[%u]", i);
      return rc;
    }
  }
  return PAIMON_OK;
}

static int encode_field(cp_thrift_writer *w, const fdesc *fd, const void *obj, paimon_error *err) {
  const void *p = CAT(obj, fd->off);
  switch (fd->kind) {
  case K_I8: return cp_thrift_write_field_i8(w, fd->id, *(const int8_t *)p, err);
  case K_I32: return cp_thrift_write_field_i32(w, fd->id, *(const int32_t *)p, err);
  case K_I64: return cp_thrift_write_field_i64(w, fd->id, *(const int64_t *)p, err);
  case K_BOOL: return cp_thrift_write_field_bool(w, fd->id, *(const bool *)p, err);
  case K_OPT_I16: {
    const cp_pq_opt_i16 *o = p;
    return o->is_set ? cp_thrift_write_field_i16(w, fd->id, o->value, err) : PAIMON_OK;
  }
  case K_OPT_I32: {
    const cp_pq_opt_i32 *o = p;
    return o->is_set ? cp_thrift_write_field_i32(w, fd->id, o->value, err) : PAIMON_OK;
  }
  case K_OPT_I64: {
    const cp_pq_opt_i64 *o = p;
    return o->is_set ? cp_thrift_write_field_i64(w, fd->id, o->value, err) : PAIMON_OK;
  }
  case K_OPT_BOOL: {
    const cp_pq_opt_bool *o = p;
    return o->is_set ? cp_thrift_write_field_bool(w, fd->id, o->value, err) : PAIMON_OK;
  }
  case K_OPT_BYTES: {
    const cp_pq_opt_bytes *o = p;
    if (!o->is_set) return PAIMON_OK;
    if (o->len && !o->data)
      return paimon_error_set(err, PAIMON_EINVAL, "%u bytes but no data", o->len);
    return cp_thrift_write_field_binary(w, fd->id, o->data, o->len, err);
  }
  case K_STRING: {
    const char *s = *(char *const *)p;
    if (!s)
      return fd->required ? paimon_error_set(err, PAIMON_EINVAL, "required string is NULL")
                          : PAIMON_OK;
    return cp_thrift_write_field_string(w, fd->id, s, err);
  }
  case K_STRUCT:
    if (fd->aux != NO_AUX && !*(const bool *)CAT(obj, fd->aux)) return PAIMON_OK;
    CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_STRUCT, fd->id, err));
    return encode_struct(w, fd->sub, p, err);
  case K_FLAG: return PAIMON_OK;
  case K_CUSTOM: return fd->encode(w, fd, obj, err);
  default: return encode_list(w, fd, obj, err);
  }
}

static int encode_struct(cp_thrift_writer *w, const sdesc *sd, const void *obj, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
  for (size_t i = 0; i < sd->num_fields; i++) {
    int rc = encode_field(w, &sd->fields[i], obj, err);
    if (rc) {
      paimon_error_prefix(err, "encoding %s.%s", sd->name, sd->fields[i].name);
      return rc;
    }
  }
  return cp_thrift_write_struct_end(w, err);
}

static int encode_time(cp_thrift_writer *w, const cp_pq_logical_type *lt, paimon_error *err) {
  if (lt->time.unit < CP_PQ_MILLIS || lt->time.unit > CP_PQ_NANOS)
    return paimon_error_set(err, PAIMON_EINVAL, "time unit %d is not MILLIS, MICROS or NANOS",
                            lt->time.unit);
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_STRUCT, (int16_t)lt->kind, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_field_bool(w, 1, lt->time.is_adjusted_to_utc, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_STRUCT, 2, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_field_empty_struct(w, (int16_t)lt->time.unit, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_struct_end(w, err));
  return cp_thrift_write_struct_end(w, err);
}

static int encode_logical_member(cp_thrift_writer *w, const cp_pq_logical_type *lt,
                                 paimon_error *err) {
  switch (lt->kind) {
  case CP_PQ_LT_DECIMAL:
    CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_STRUCT, CP_PQ_LT_DECIMAL, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_field_i32(w, 1, lt->decimal.scale, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_field_i32(w, 2, lt->decimal.precision, err));
    return cp_thrift_write_struct_end(w, err);
  case CP_PQ_LT_TIME:
  case CP_PQ_LT_TIMESTAMP: return encode_time(w, lt, err);
  case CP_PQ_LT_INTEGER:
    CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_STRUCT, CP_PQ_LT_INTEGER, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_field_i8(w, 1, lt->integer.bit_width, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_field_bool(w, 2, lt->integer.is_signed, err));
    return cp_thrift_write_struct_end(w, err);
  case CP_PQ_LT_STRING:
  case CP_PQ_LT_MAP:
  case CP_PQ_LT_LIST:
  case CP_PQ_LT_ENUM:
  case CP_PQ_LT_DATE:
  case CP_PQ_LT_UNKNOWN:
  case CP_PQ_LT_JSON:
  case CP_PQ_LT_BSON:
  case CP_PQ_LT_UUID:
  case CP_PQ_LT_FLOAT16: return cp_thrift_write_field_empty_struct(w, (int16_t)lt->kind, err);
  case CP_PQ_LT_OTHER:
    /* Every member this code does not model has only optional fields, so {} stays valid. */
    if (lt->other_id > 0 && lt->other_id <= INT16_MAX)
      return cp_thrift_write_field_empty_struct(w, (int16_t)lt->other_id, err);
    return paimon_error_set(err, PAIMON_EINVAL, "bad LogicalType member id %d", lt->other_id);
  default: return paimon_error_set(err, PAIMON_EINVAL, "bad LogicalType kind %d", lt->kind);
  }
}

static int encode_logical(cp_thrift_writer *w, const fdesc *fd, const void *obj,
                          paimon_error *err) {
  const cp_pq_logical_type *lt = &((const cp_pq_schema_element *)obj)->logical_type;
  if (lt->kind == CP_PQ_LT_NONE) return PAIMON_OK;
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_STRUCT, fd->id, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
  CP_RETURN_IF_ERROR(encode_logical_member(w, lt, err));
  return cp_thrift_write_struct_end(w, err);
}

static int encode_orders(cp_thrift_writer *w, const fdesc *fd, const void *obj, paimon_error *err) {
  const cp_pq_file_meta *m = obj;
  if (m->num_column_orders == 0) return PAIMON_OK;
  if (!m->column_orders) return paimon_error_set(err, PAIMON_EINVAL, "column_orders is NULL");
  CP_RETURN_IF_ERROR(cp_thrift_write_field(w, CP_THRIFT_LIST, fd->id, err));
  CP_RETURN_IF_ERROR(cp_thrift_write_list_begin(w, CP_THRIFT_STRUCT, m->num_column_orders, err));
  for (uint32_t i = 0; i < m->num_column_orders; i++) {
    int32_t o = m->column_orders[i];
    if (o <= 0 || o > INT16_MAX)
      return paimon_error_set(err, PAIMON_EINVAL, "column_orders[%u] is %d, not a member id", i,
                              (int)o);
    CP_RETURN_IF_ERROR(cp_thrift_write_struct_begin(w, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_field_empty_struct(w, (int16_t)o, err));
    CP_RETURN_IF_ERROR(cp_thrift_write_struct_end(w, err));
  }
  return PAIMON_OK;
}

static int encode_top(const sdesc *sd, const void *obj, cp_buf *out, paimon_error *err) {
  cp_thrift_writer w;
  cp_thrift_writer_init(&w, out);
  size_t start = out->len;
  int rc = encode_struct(&w, sd, obj, err);
  if (rc) out->len = start;
  return rc;
}

int cp_pq_file_meta_encode(const cp_pq_file_meta *m, cp_buf *out, paimon_error *err) {
  return encode_top(&fmd_desc, m, out, err);
}

int cp_pq_page_header_encode(const cp_pq_page_header *h, cp_buf *out, paimon_error *err) {
  return encode_top(&ph_desc, h, out, err);
}

const char *cp_pq_type_name(int type) {
  static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                      "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return type >= 0 && type < 8 ? names[type] : "?";
}

const char *cp_pq_codec_name(int codec) {
  static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                      "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  return codec >= 0 && codec < 8 ? names[codec] : "?";
}

const char *cp_pq_encoding_name(int encoding) {
  static const char *const names[] = {
      "PLAIN",          "GROUP_VAR_INT",       "PLAIN_DICTIONARY",        "RLE",
      "BIT_PACKED",     "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
      "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  return encoding >= 0 && encoding < 10 ? names[encoding] : "?";
}

/* ------------------------------------------------------------------------------------------------
 * Schema tree
 */

typedef struct build_ctx {
  cp_pq_schema *s;
  const cp_pq_schema_element *el;
  uint32_t n;
  uint32_t next; /* next flat element to attach */
} build_ctx;

static bool is_group(const cp_pq_schema_element *e) {
  return e->num_children.is_set && (e->num_children.value > 0 || !e->type.is_set);
}

static int set_path(build_ctx *c, cp_pq_schema_node *node, paimon_error *err) {
  cp_pq_schema_node *parent = node->parent;
  node->path_len = node->depth;
  node->path = cp_arena_alloc(&c->s->arena, (node->depth ? node->depth : 1) * sizeof(char *));
  if (!node->path) return CP_ENOMEM(err, "schema path");
  if (node->depth) {
    memcpy(node->path, parent->path, parent->path_len * sizeof(char *));
    node->path[node->depth - 1] = node->element->name;
  }
  size_t plen = parent && parent->depth ? strlen(parent->path_str) + 1 : 0;
  size_t nlen = node->depth ? strlen(node->element->name) : 0;
  char *str = cp_arena_alloc(&c->s->arena, plen + nlen + 1);
  if (!str) return CP_ENOMEM(err, "schema path");
  if (plen) {
    memcpy(str, parent->path_str, plen - 1);
    str[plen - 1] = '.';
  }
  memcpy(str + plen, node->depth ? node->element->name : "", nlen);
  str[plen + nlen] = '\0';
  node->path_str = str;
  return PAIMON_OK;
}

/* Checks one element in isolation and fills its node's own fields. */
static int check_element(build_ctx *c, cp_pq_schema_node *node, paimon_error *err) {
  const cp_pq_schema_element *e = node->element;
  uint32_t i = node->element_index;
  if (!e->name) return paimon_error_set(err, PAIMON_ECORRUPT, "schema element %u has no name", i);
  if (node->depth > CP_PQ_MAX_SCHEMA_DEPTH)
    return paimon_error_set(err, PAIMON_ECORRUPT, "schema element %u (%s) is nested deeper than %d",
                            i, e->name, CP_PQ_MAX_SCHEMA_DEPTH);
  node->repetition = CP_PQ_REQUIRED;
  if (node->depth > 0 && e->repetition_type.is_set) {
    node->repetition = e->repetition_type.value;
    if (node->repetition < CP_PQ_REQUIRED || node->repetition > CP_PQ_REPEATED)
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "schema element %u (%s) has unsupported repetition type %d", i,
                              e->name, (int)e->repetition_type.value);
  }
  if (is_group(e)) {
    if (e->num_children.value < 0)
      return paimon_error_set(err, PAIMON_ECORRUPT, "schema element %u (%s) has %d children", i,
                              e->name, (int)e->num_children.value);
    return PAIMON_OK;
  }
  if (node->depth == 0)
    return paimon_error_set(err, PAIMON_ECORRUPT, "schema root (%s) is not a group", e->name);
  if (!e->type.is_set)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "schema element %u (%s) has neither a physical type nor children", i,
                            e->name);
  /* A negative code is damage; one past the known types could be a newer format. */
  if (e->type.value < CP_PQ_BOOLEAN || e->type.value > CP_PQ_FIXED_LEN_BYTE_ARRAY)
    return paimon_error_set(err, e->type.value < 0 ? PAIMON_ECORRUPT : PAIMON_EUNSUPPORTED,
                            "schema element %u (%s) has unknown physical type %d", i, e->name,
                            (int)e->type.value);
  if (e->type.value == CP_PQ_FIXED_LEN_BYTE_ARRAY &&
      (!e->type_length.is_set || e->type_length.value < 0))
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "schema element %u (%s) is FIXED_LEN_BYTE_ARRAY without a valid "
                            "type_length",
                            i, e->name);
  return PAIMON_OK;
}

/* Attaches the node for element c->next (a child of `parent`, or the root) and its subtree. */
static int build_node(build_ctx *c, cp_pq_schema_node *parent, paimon_error *err) {
  uint32_t i = c->next++;
  cp_pq_schema_node *node = &c->s->nodes[i];
  node->element = &c->el[i];
  node->element_index = i;
  node->parent = parent;
  node->depth = parent ? parent->depth + 1 : 0;
  node->leaf_index = -1;
  CP_RETURN_IF_ERROR(check_element(c, node, err));
  node->max_def = (int16_t)((parent ? parent->max_def : 0) + (node->repetition != CP_PQ_REQUIRED));
  node->max_rep = (int16_t)((parent ? parent->max_rep : 0) + (node->repetition == CP_PQ_REPEATED));
  CP_RETURN_IF_ERROR(set_path(c, node, err));
  if (!is_group(node->element)) {
    node->leaf_index = (int32_t)c->s->num_leaves;
    c->s->leaves[c->s->num_leaves++] = node;
    return PAIMON_OK;
  }
  uint32_t k = (uint32_t)node->element->num_children.value;
  if (k > c->n - c->next)
    return paimon_error_set(err, PAIMON_ECORRUPT,
                            "schema element %u (%s) declares %u children but only %u elements "
                            "follow",
                            i, node->path_str[0] ? node->path_str : node->element->name, k,
                            c->n - c->next);
  node->children = cp_arena_alloc(&c->s->arena, (k ? k : 1) * sizeof(cp_pq_schema_node *));
  if (!node->children) return CP_ENOMEM(err, "schema children");
  for (uint32_t j = 0; j < k; j++) {
    if (c->next >= c->n)
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "schema list ends inside element %u (%s): %u of %u children found", i,
                              node->element->name, j, k);
    node->children[node->num_children++] = &c->s->nodes[c->next];
    CP_RETURN_IF_ERROR(build_node(c, node, err));
  }
  return PAIMON_OK;
}

int cp_pq_schema_build(cp_pq_schema *out, const cp_pq_schema_element *elements, uint32_t n,
                       paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (n == 0 || !elements)
    return paimon_error_set(err, PAIMON_ECORRUPT, "parquet schema has no elements");
  out->nodes = cp_arena_calloc(&out->arena, (size_t)n * sizeof *out->nodes);
  out->leaves = cp_arena_alloc(&out->arena, (size_t)n * sizeof *out->leaves);
  if (!out->nodes || !out->leaves) {
    cp_pq_schema_free(out);
    return CP_ENOMEM(err, "schema tree");
  }
  out->num_nodes = n;
  build_ctx c = {out, elements, n, 0};
  int rc = build_node(&c, NULL, err);
  if (rc == 0 && c.next != n)
    rc = paimon_error_set(err, PAIMON_ECORRUPT,
                          "parquet schema has %u elements after the root's last child (element %u)",
                          n - c.next, c.next);
  if (rc) cp_pq_schema_free(out);
  return rc;
}

void cp_pq_schema_free(cp_pq_schema *s) {
  cp_arena_free(&s->arena);
  memset(s, 0, sizeof *s);
}
