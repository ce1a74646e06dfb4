/*
 * Parquet file metadata as C structs, their Thrift compact decoding and encoding, and the schema
 * tree built from the flat SchemaElement list (spec/parquet.md §2.1, §2.6, §2.9, §2.10, §3.1, §4;
 * field ids and enum values from apache/parquet-format parquet.thrift).
 *
 * Conventions:
 * - Enums carry parquet-format's numeric values, so a decoded int can be compared with them
 *   directly. Fields hold ints (not the enum types) because files may contain values newer than
 *   this code; consumers check ranges where it matters.
 * - An optional field is a cp_pq_opt_* with `is_set`; required fields are plain values and the
 *   decoder fails (ECORRUPT) when one is missing or has the wrong Thrift type, as parquet-java's
 *   and Arrow's generated code do. A known optional field with the wrong type is skipped like an
 *   unknown one (libthrift behaviour; a parquet-mr fork reused ColumnMetaData id 15).
 * - Strings are NUL-terminated (a string with an embedded NUL reads as its prefix); NULL means
 *   "not set". Binary values (statistics, key/value values) carry a length.
 * - Lists are (pointer, count); an empty list is written as absent for optional lists.
 * - Fields this code does not model (sorting_columns, size_statistics, geospatial statistics,
 *   crypto metadata, unknown ids and unknown union members) are skipped when decoding and not
 *   written when encoding.
 *
 * Ownership: cp_pq_file_meta_decode allocates everything it returns in the cp_pq_file_meta's own
 * arena (`arena`), copying strings and binaries out of the input; all pointers stay valid until
 * cp_pq_file_meta_free, and the input may be freed right after decoding. A writer building a
 * cp_pq_file_meta may allocate its pieces in the same arena (or anywhere: encoding only reads).
 * cp_pq_page_header_decode does not allocate: its statistics point into the input bytes and live
 * as long as they do. A cp_pq_schema references the SchemaElements it was built from (they must
 * outlive it) and owns its nodes, paths and leaf array in its own arena.
 */
#ifndef CP_FORMAT_PARQUET_METADATA_H
#define CP_FORMAT_PARQUET_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

/* ---- enums (parquet.thrift values) ---- */

typedef enum cp_pq_type {
  CP_PQ_BOOLEAN = 0,
  CP_PQ_INT32 = 1,
  CP_PQ_INT64 = 2,
  CP_PQ_INT96 = 3,
  CP_PQ_FLOAT = 4,
  CP_PQ_DOUBLE = 5,
  CP_PQ_BYTE_ARRAY = 6,
  CP_PQ_FIXED_LEN_BYTE_ARRAY = 7
} cp_pq_type;

typedef enum cp_pq_converted_type {
  CP_PQ_CT_UTF8 = 0,
  CP_PQ_CT_MAP = 1,
  CP_PQ_CT_MAP_KEY_VALUE = 2,
  CP_PQ_CT_LIST = 3,
  CP_PQ_CT_ENUM = 4,
  CP_PQ_CT_DECIMAL = 5,
  CP_PQ_CT_DATE = 6,
  CP_PQ_CT_TIME_MILLIS = 7,
  CP_PQ_CT_TIME_MICROS = 8,
  CP_PQ_CT_TIMESTAMP_MILLIS = 9,
  CP_PQ_CT_TIMESTAMP_MICROS = 10,
  CP_PQ_CT_UINT_8 = 11,
  CP_PQ_CT_UINT_16 = 12,
  CP_PQ_CT_UINT_32 = 13,
  CP_PQ_CT_UINT_64 = 14,
  CP_PQ_CT_INT_8 = 15,
  CP_PQ_CT_INT_16 = 16,
  CP_PQ_CT_INT_32 = 17,
  CP_PQ_CT_INT_64 = 18,
  CP_PQ_CT_JSON = 19,
  CP_PQ_CT_BSON = 20,
  CP_PQ_CT_INTERVAL = 21
} cp_pq_converted_type;

typedef enum cp_pq_repetition {
  CP_PQ_REQUIRED = 0,
  CP_PQ_OPTIONAL = 1,
  CP_PQ_REPEATED = 2
} cp_pq_repetition;

typedef enum cp_pq_encoding {
  CP_PQ_ENC_PLAIN = 0,
  CP_PQ_ENC_PLAIN_DICTIONARY = 2,
  CP_PQ_ENC_RLE = 3,
  CP_PQ_ENC_BIT_PACKED = 4,
  CP_PQ_ENC_DELTA_BINARY_PACKED = 5,
  CP_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
  CP_PQ_ENC_DELTA_BYTE_ARRAY = 7,
  CP_PQ_ENC_RLE_DICTIONARY = 8,
  CP_PQ_ENC_BYTE_STREAM_SPLIT = 9
} cp_pq_encoding;

typedef enum cp_pq_codec {
  CP_PQ_CODEC_UNCOMPRESSED = 0,
  CP_PQ_CODEC_SNAPPY = 1,
  CP_PQ_CODEC_GZIP = 2,
  CP_PQ_CODEC_LZO = 3,
  CP_PQ_CODEC_BROTLI = 4,
  CP_PQ_CODEC_LZ4 = 5,
  CP_PQ_CODEC_ZSTD = 6,
  CP_PQ_CODEC_LZ4_RAW = 7
} cp_pq_codec;

typedef enum cp_pq_page_type {
  CP_PQ_PAGE_DATA = 0,
  CP_PQ_PAGE_INDEX = 1,
  CP_PQ_PAGE_DICTIONARY = 2,
  CP_PQ_PAGE_DATA_V2 = 3
} cp_pq_page_type;

/* LogicalType union members; the value is the member's field id. CP_PQ_LT_NONE = not set. */
typedef enum cp_pq_logical_kind {
  CP_PQ_LT_NONE = 0,
  CP_PQ_LT_STRING = 1,
  CP_PQ_LT_MAP = 2,
  CP_PQ_LT_LIST = 3,
  CP_PQ_LT_ENUM = 4,
  CP_PQ_LT_DECIMAL = 5,
  CP_PQ_LT_DATE = 6,
  CP_PQ_LT_TIME = 7,
  CP_PQ_LT_TIMESTAMP = 8,
  CP_PQ_LT_INTEGER = 10,
  CP_PQ_LT_UNKNOWN = 11, /* parquet's NullType: an always-null column */
  CP_PQ_LT_JSON = 12,
  CP_PQ_LT_BSON = 13,
  CP_PQ_LT_UUID = 14,
  CP_PQ_LT_FLOAT16 = 15,
  /* A member this code does not model (VARIANT, GEOMETRY, ... or newer); see other_id. */
  CP_PQ_LT_OTHER = 1000
} cp_pq_logical_kind;

/* TimeUnit union members (field ids). */
typedef enum cp_pq_time_unit {
  CP_PQ_MILLIS = 1,
  CP_PQ_MICROS = 2,
  CP_PQ_NANOS = 3
} cp_pq_time_unit;

/* ColumnOrder union members (field ids). Any other value: an order this code does not know, so
 * min_value/max_value of that column must be ignored. */
typedef enum cp_pq_column_order {
  CP_PQ_ORDER_NONE = 0,
  CP_PQ_ORDER_TYPE_DEFINED = 1,
  CP_PQ_ORDER_IEEE_754_TOTAL = 2,
  CP_PQ_ORDER_INT96_TIMESTAMP = 3
} cp_pq_column_order;

/* ---- optional values ---- */

typedef struct cp_pq_opt_i16 {
  bool is_set;
  int16_t value;
} cp_pq_opt_i16;

typedef struct cp_pq_opt_i32 {
  bool is_set;
  int32_t value;
} cp_pq_opt_i32;

typedef struct cp_pq_opt_i64 {
  bool is_set;
  int64_t value;
} cp_pq_opt_i64;

typedef struct cp_pq_opt_bool {
  bool is_set;
  bool value;
} cp_pq_opt_bool;

typedef struct cp_pq_opt_bytes {
  bool is_set;
  uint32_t len;
  const uint8_t *data; /* may be NULL when len is 0 */
} cp_pq_opt_bytes;

/* ---- structs ---- */

typedef struct cp_pq_key_value {
  char *key;
  cp_pq_opt_bytes value;
} cp_pq_key_value;

typedef struct cp_pq_logical_type {
  int kind;     /* cp_pq_logical_kind */
  int other_id; /* the union member id when kind is CP_PQ_LT_OTHER */
  struct {
    int32_t scale, precision;
  } decimal;
  struct {
    bool is_adjusted_to_utc;
    int unit; /* cp_pq_time_unit; 0 if the TimeUnit member was unknown */
  } time;     /* TIME and TIMESTAMP */
  struct {
    int8_t bit_width;
    bool is_signed;
  } integer;
} cp_pq_logical_type;

typedef struct cp_pq_schema_element {
  cp_pq_opt_i32 type; /* cp_pq_type; unset for groups */
  cp_pq_opt_i32 type_length;
  cp_pq_opt_i32 repetition_type; /* cp_pq_repetition; unset for the root */
  char *name;                    /* required */
  cp_pq_opt_i32 num_children;    /* set for groups */
  cp_pq_opt_i32 converted_type;  /* cp_pq_converted_type */
  cp_pq_opt_i32 scale;
  cp_pq_opt_i32 precision;
  cp_pq_opt_i32 field_id;
  cp_pq_logical_type logical_type; /* kind CP_PQ_LT_NONE when absent */
} cp_pq_schema_element;

/* Statistics field ids are "backwards" (spec/parquet.md §4 P7): max 1, min 2, max_value 5,
 * min_value 6. Values are PLAIN bytes without a length prefix. */
typedef struct cp_pq_statistics {
  cp_pq_opt_bytes max;
  cp_pq_opt_bytes min;
  cp_pq_opt_i64 null_count;
  cp_pq_opt_i64 distinct_count;
  cp_pq_opt_bytes max_value;
  cp_pq_opt_bytes min_value;
  cp_pq_opt_bool is_max_value_exact;
  cp_pq_opt_bool is_min_value_exact;
  cp_pq_opt_i64 nan_count;
} cp_pq_statistics;

typedef struct cp_pq_page_encoding_stats {
  int32_t page_type; /* cp_pq_page_type */
  int32_t encoding;  /* cp_pq_encoding */
  int32_t count;
} cp_pq_page_encoding_stats;

typedef struct cp_pq_column_meta {
  int32_t type;       /* cp_pq_type */
  int32_t *encodings; /* cp_pq_encoding values */
  uint32_t num_encodings;
  char **path_in_schema;
  uint32_t path_len;
  int32_t codec; /* cp_pq_codec */
  int64_t num_values;
  int64_t total_uncompressed_size;
  int64_t total_compressed_size;
  cp_pq_key_value *key_value_metadata;
  uint32_t num_key_value_metadata;
  int64_t data_page_offset;
  cp_pq_opt_i64 index_page_offset;
  cp_pq_opt_i64 dictionary_page_offset;
  bool has_statistics;
  cp_pq_statistics statistics;
  cp_pq_page_encoding_stats *encoding_stats;
  uint32_t num_encoding_stats;
  cp_pq_opt_i64 bloom_filter_offset;
  cp_pq_opt_i32 bloom_filter_length;
} cp_pq_column_meta;

typedef struct cp_pq_column_chunk {
  char *file_path;     /* NULL: the chunk is in this file (the only case cpaimon reads) */
  int64_t file_offset; /* deprecated, unreliable (spec §4 P5); write 0 */
  bool has_meta_data;
  cp_pq_column_meta meta_data;
  cp_pq_opt_i64 offset_index_offset;
  cp_pq_opt_i32 offset_index_length;
  cp_pq_opt_i64 column_index_offset;
  cp_pq_opt_i32 column_index_length;
  bool encrypted; /* crypto_metadata or encrypted_column_metadata present (not decoded) */
} cp_pq_column_chunk;

typedef struct cp_pq_row_group {
  cp_pq_column_chunk *columns;
  uint32_t num_columns;
  int64_t total_byte_size;
  int64_t num_rows;
  cp_pq_opt_i64 file_offset;
  cp_pq_opt_i64 total_compressed_size;
  cp_pq_opt_i16 ordinal;
} cp_pq_row_group;

typedef struct cp_pq_file_meta {
  int32_t version;
  cp_pq_schema_element *schema; /* depth-first, schema[0] is the root */
  uint32_t num_schema;
  int64_t num_rows;
  cp_pq_row_group *row_groups;
  uint32_t num_row_groups;
  cp_pq_key_value *key_value_metadata;
  uint32_t num_key_value_metadata;
  char *created_by;
  int32_t *column_orders; /* cp_pq_column_order per leaf; NULL/0 when absent */
  uint32_t num_column_orders;
  bool encrypted; /* encryption_algorithm set (plaintext-footer encrypted file) */
  cp_arena arena; /* owns everything above after decoding */
} cp_pq_file_meta;

typedef struct cp_pq_data_page_header {
  int32_t num_values; /* level entries, nulls included (spec §4 P1) */
  int32_t encoding;
  int32_t definition_level_encoding;
  int32_t repetition_level_encoding;
  bool has_statistics;
  cp_pq_statistics statistics;
} cp_pq_data_page_header;

typedef struct cp_pq_dictionary_page_header {
  int32_t num_values;
  int32_t encoding;
  cp_pq_opt_bool is_sorted;
} cp_pq_dictionary_page_header;

typedef struct cp_pq_data_page_header_v2 {
  int32_t num_values;
  int32_t num_nulls;
  int32_t num_rows;
  int32_t encoding;
  int32_t definition_levels_byte_length;
  int32_t repetition_levels_byte_length;
  bool is_compressed; /* defaults to true when absent */
  bool has_statistics;
  cp_pq_statistics statistics;
} cp_pq_data_page_header_v2;

typedef struct cp_pq_page_header {
  int32_t type; /* cp_pq_page_type */
  int32_t uncompressed_page_size;
  int32_t compressed_page_size;
  cp_pq_opt_i32 crc;
  bool has_data_page_header;
  cp_pq_data_page_header data_page_header;
  bool has_index_page_header; /* IndexPageHeader has no fields */
  bool has_dictionary_page_header;
  cp_pq_dictionary_page_header dictionary_page_header;
  bool has_data_page_header_v2;
  cp_pq_data_page_header_v2 data_page_header_v2;
} cp_pq_page_header;

/* ---- decoding and encoding ---- */

/* Zeroes `m` (empty arena): the starting point for a writer building metadata by hand. */
void cp_pq_file_meta_init(cp_pq_file_meta *m);
/* Frees the arena and zeroes `m`; safe on a zeroed or already freed struct. */
void cp_pq_file_meta_free(cp_pq_file_meta *m);

/* Decodes FileMetaData from `data[0..len)`. `base` is the file offset of data[0] (for messages).
 * Trailing bytes after the struct are allowed (as in Arrow). On failure `out` is left zeroed.
 * Errors: ECORRUPT (malformed thrift, missing required field), ENOMEM. */
int cp_pq_file_meta_decode(cp_pq_file_meta *out, const uint8_t *data, size_t len, uint64_t base,
                           paimon_error *err);

/* Appends the Thrift compact encoding of `m` to `out` (fields in ascending id order). */
int cp_pq_file_meta_encode(const cp_pq_file_meta *m, cp_buf *out, paimon_error *err);

/* Decodes one PageHeader at the start of `data[0..len)`; `*header_len` receives the bytes it took.
 * Statistics point into `data`. When the bytes end before the header does, the error is ECORRUPT
 * and `*truncated` (if not NULL) is set, so a caller that read a prefix can retry with more. */
int cp_pq_page_header_decode(cp_pq_page_header *out, const uint8_t *data, size_t len, uint64_t base,
                             size_t *header_len, bool *truncated, paimon_error *err);

/* Appends the encoding of `h` to `out`. */
int cp_pq_page_header_encode(const cp_pq_page_header *h, cp_buf *out, paimon_error *err);

/* Static names for enum values ("INT32", "ZSTD", ...; "?" for unknown values). */
const char *cp_pq_type_name(int type);
const char *cp_pq_codec_name(int codec);
const char *cp_pq_encoding_name(int encoding);

/* ---- schema tree (spec §3.1, §4 P18) ---- */

#define CP_PQ_MAX_SCHEMA_DEPTH 100

typedef struct cp_pq_schema_node {
  const cp_pq_schema_element *element;
  uint32_t element_index; /* index in the flat list */
  struct cp_pq_schema_node *parent;
  struct cp_pq_schema_node **children;
  uint32_t num_children;
  int repetition;       /* cp_pq_repetition; the root counts as REQUIRED */
  int16_t max_def;      /* definition level of a present value at this node */
  int16_t max_rep;      /* repetition level of this node */
  uint32_t depth;       /* root 0, its children 1, ... */
  int32_t leaf_index;   /* column index for leaves, -1 for groups */
  const char **path;    /* names from the root's child down to this node (root: empty) */
  uint32_t path_len;    /* == depth */
  const char *path_str; /* path joined with '.', for messages ("" for the root) */
} cp_pq_schema_node;

typedef struct cp_pq_schema {
  cp_pq_schema_node *nodes; /* one per element, nodes[0] is the root */
  uint32_t num_nodes;
  cp_pq_schema_node **leaves; /* in column order */
  uint32_t num_leaves;
  cp_arena arena;
} cp_pq_schema;

/* Builds and validates the tree: the root is a group; every group's num_children is consistent
 * with the list (no child count running past the end, no elements left over); leaves have a known
 * physical type (FIXED_LEN_BYTE_ARRAY with a type_length ≥ 0); repetition types are known; depth
 * ≤ CP_PQ_MAX_SCHEMA_DEPTH. Errors (ECORRUPT/EUNSUPPORTED) name the element index and path. */
int cp_pq_schema_build(cp_pq_schema *out, const cp_pq_schema_element *elements, uint32_t n,
                       paimon_error *err);
void cp_pq_schema_free(cp_pq_schema *s);

#endif
