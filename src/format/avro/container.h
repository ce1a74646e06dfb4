/*
 * Avro object container files: the files Paimon's manifests, manifest lists and index manifests
 * are (spec/format.md §4.1, §4.6, §4.7; Avro 1.11 specification, "Object Container Files").
 *
 * Layout: magic "Obj\x01", a metadata map<bytes> (avro.schema, avro.codec, anything else), a
 * 16-byte sync marker, then blocks of (long count, long size, `size` bytes of `count` datums
 * compressed with the codec, the sync marker again).
 *
 * Codecs: "null", "deflate" (raw RFC 1951), "snappy" (a snappy block followed by the big-endian
 * CRC-32 of the uncompressed bytes, verified on read) and "zstandard" (Paimon's default for
 * manifests). Others (bzip2, xz) are PAIMON_EUNSUPPORTED naming the codec.
 *
 * Reading untrusted files: the whole file is in memory (manifests are small; the file variant
 * refuses files above max_file_bytes). A block's size is checked against the bytes left in the
 * file, its decompressed size is capped at max_block_bytes (decompression bombs stop there), and
 * its record count against what the decompressed bytes can hold, all before allocating for it.
 * Every datum must decode completely and a block must hold exactly `count` datums. Errors name the
 * file, the block (0-based) and the file offset where the block starts:
 * "manifest-abc-0: block 3 at offset 4711: sync marker mismatch".
 */
#ifndef CP_FORMAT_AVRO_CONTAINER_H
#define CP_FORMAT_AVRO_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/codec.h"
#include "base/fs.h"
#include "cpaimon/error.h"
#include "format/avro/resolve.h"
#include "format/avro/schema.h"
#include "format/avro/value.h"

#define CP_AVRO_SYNC_SIZE 16
/* pypaimon writes manifests with fastavro's sync interval of 16000 bytes (spec/format.md §4.6). */
#define CP_AVRO_DEFAULT_SYNC_INTERVAL 16000
#define CP_AVRO_DEFAULT_MAX_BLOCK_BYTES ((size_t)64 << 20)
#define CP_AVRO_DEFAULT_MAX_FILE_BYTES ((size_t)1 << 30)

/* ---- reading ---- */

typedef struct cp_avro_reader_options {
  /* Optional reader schema (borrowed; must outlive the reader): records are then resolved by
   * name into this shape (resolve.h). NULL = decode with the file's own schema. */
  const cp_avro_node *reader_schema;
  size_t max_block_bytes; /* cap on a block's decompressed size; 0 = default (64 MiB) */
  size_t max_file_bytes;  /* cp_avro_reader_open_file only; 0 = default (1 GiB) */
  cp_avro_limits limits;  /* decoding limits (zeros = defaults) */
  /* false (default): records returned for a block stay valid until the reader moves to the next
   * block; true: every record stays valid until cp_avro_reader_free(). */
  bool retain_records;
} cp_avro_reader_options;

typedef struct cp_avro_reader cp_avro_reader;

/* One decompressed block. `records` has `count` decoded records (or is NULL when the caller asked
 * for raw blocks); `data`/`len` are the decompressed datum bytes. Valid as described for
 * retain_records (the raw bytes only until the next block). */
typedef struct cp_avro_block {
  size_t index;         /* 0-based block number */
  uint64_t file_offset; /* where the block's count starts */
  size_t count;
  const cp_avro_value *records;
  const uint8_t *data;
  size_t len;
} cp_avro_block;

/* Opens a container held in memory. `data` is borrowed and must outlive the reader; `name` (copied)
 * names the file in messages. Reads and checks the header (magic, metadata, schema, codec, sync);
 * a reader schema that cannot be resolved against the file's fails here (EINVAL). */
int cp_avro_reader_open_mem(cp_avro_reader **out, const char *name, const void *data, size_t len,
                            const cp_avro_reader_options *opts, paimon_error *err);

/* Reads the whole file through `fs` (cp_fs_read_file, bounded by max_file_bytes) and opens it;
 * the reader owns the bytes. `opts` may be NULL. */
int cp_avro_reader_open_file(cp_avro_reader **out, cp_fs *fs, const char *path,
                             const cp_avro_reader_options *opts, paimon_error *err);

void cp_avro_reader_free(cp_avro_reader *r);

/* The writer schema from the header (owned by the reader). */
const cp_avro_schema *cp_avro_reader_writer_schema(const cp_avro_reader *r);
/* The schema records are returned in: the reader schema if one was given, else the writer's. */
const cp_avro_node *cp_avro_reader_record_schema(const cp_avro_reader *r);
/* The avro.codec value ("null" when absent). */
const char *cp_avro_reader_codec(const cp_avro_reader *r);
const uint8_t *cp_avro_reader_sync(const cp_avro_reader *r);

/* Header metadata, in file order. Keys are NUL-terminated; values are bytes (borrowed). */
size_t cp_avro_reader_meta_count(const cp_avro_reader *r);
void cp_avro_reader_meta_at(const cp_avro_reader *r, size_t i, const char **key,
                            const uint8_t **value, size_t *len);
/* Looks a key up; false when absent. */
bool cp_avro_reader_meta_get(const cp_avro_reader *r, const char *key, const uint8_t **value,
                             size_t *len);

/* The next record, or *out = NULL at the end of the file. */
int cp_avro_reader_next(cp_avro_reader *r, const cp_avro_value **out, paimon_error *err);

/* The remaining records of the current block, or of the next block when the current one is done;
 * *has_block = false at the end of the file. Do not mix with cp_avro_reader_next() mid-block
 * unless you want exactly the records next() has not returned yet (which is what you get). */
int cp_avro_reader_next_block(cp_avro_reader *r, cp_avro_block *out, bool *has_block,
                              paimon_error *err);

/* The next block's decompressed bytes without decoding them (for copying blocks between files
 * with the same binary layout, spec/format.md §4.1). */
int cp_avro_reader_next_raw_block(cp_avro_reader *r, cp_avro_block *out, bool *has_block,
                                  paimon_error *err);

/* Records in the blocks not read yet, from the block headers alone (nothing is decompressed).
 * ECORRUPT when the framing is broken. */
int cp_avro_reader_count_records(const cp_avro_reader *r, uint64_t *count, paimon_error *err);

/* The record count of the next block (*has_block false at the end), without moving. */
int cp_avro_reader_peek_block(const cp_avro_reader *r, size_t *count, bool *has_block,
                              paimon_error *err);

/* Steps over the next block without decompressing it; *count receives its record count and
 * *has_block false at the end of the file. */
int cp_avro_reader_skip_block(cp_avro_reader *r, size_t *count, bool *has_block, paimon_error *err);

/* ---- writing ---- */

typedef struct cp_avro_meta_entry {
  const char *key;
  const void *value;
  size_t len;
} cp_avro_meta_entry;

typedef struct cp_avro_writer_options {
  const char *codec; /* "null" (also when NULL), "deflate", "snappy", "zstandard" */
  int level;         /* codec level; 0 = the codec's default */
  size_t
      sync_interval; /* flush a block once this many uncompressed bytes are buffered; 0 = 16000 */
  const uint8_t *sync_marker; /* 16 bytes; NULL = random (getrandom) */
  /* Extra header metadata (keys must not start with "avro."); copied at creation. */
  const cp_avro_meta_entry *meta;
  size_t n_meta;
  /* Schema text written as avro.schema instead of printing `schema` (the caller vouches that it
   * describes the same schema), e.g. to keep a Java writer's exact spelling. NULL = print. */
  const char *schema_json;
} cp_avro_writer_options;

typedef struct cp_avro_writer cp_avro_writer;

/* A writer producing the file in memory (for the commit path); take the bytes with
 * cp_avro_writer_finish(). Records are datums of the schema's root. `schema` is borrowed and must
 * outlive the writer. `name` (copied, may be NULL) names the file in messages. `opts` may be NULL
 * (null codec, default sync interval, random sync marker). */
int cp_avro_writer_new_mem(cp_avro_writer **out, const char *name, const cp_avro_schema *schema,
                           const cp_avro_writer_options *opts, paimon_error *err);

/* A writer streaming to `file` (borrowed: the caller closes or aborts it after finish). The header
 * is written immediately. */
int cp_avro_writer_new_file(cp_avro_writer **out, cp_wfile *file, const char *name,
                            const cp_avro_schema *schema, const cp_avro_writer_options *opts,
                            paimon_error *err);

/* Encodes one record (must conform to the schema, see cp_avro_encode). */
int cp_avro_writer_append(cp_avro_writer *w, const cp_avro_value *record, paimon_error *err);

/* Appends `count` datums already encoded with the writer's schema (concatenated in `data`). */
int cp_avro_writer_append_encoded(cp_avro_writer *w, const void *data, size_t len, size_t count,
                                  paimon_error *err);

/* Ends the current block (if it has records) now. */
int cp_avro_writer_flush(cp_avro_writer *w, paimon_error *err);

/* Bytes of the file produced so far (header and flushed blocks), and records appended. */
uint64_t cp_avro_writer_bytes(const cp_avro_writer *w);
uint64_t cp_avro_writer_count(const cp_avro_writer *w);

/* Flushes the last block. For a memory writer, moves the file's bytes into `out` (which must be
 * empty or is appended to); for a file writer `out` is ignored (may be NULL). The writer accepts
 * no more records afterwards but must still be freed. */
int cp_avro_writer_finish(cp_avro_writer *w, cp_buf *out, paimon_error *err);

void cp_avro_writer_free(cp_avro_writer *w);

/* Maps an avro.codec name to the base codec (snappy's CRC is the container's job); "zstd" is
 * accepted as an alias of "zstandard". Unknown or unimplemented codecs are EUNSUPPORTED. */
int cp_avro_codec_from_name(const char *name, cp_codec *out, paimon_error *err);

#endif
