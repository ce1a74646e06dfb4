/*
 * Paimon `.blob` files (spec/maintenance-and-blob.md §5.3; Java BlobFormatWriter / BlobFileMeta,
 * pypaimon format_blob_reader.py): one BLOB field per file, one record per non-null row,
 *
 *   record   = magic u32 (0x584E11CF) | payload | rec_len i64 (= 4 + n + 8 + 4) | crc32 u32
 *   trailer  = index (delta + zigzag + LEB128 varints of each row's rec_len, -1 NULL, -2
 *              placeholder) | index_len i32 | version u8 (= 1)
 *
 * all little-endian. The reader reads the trailer once (the last bytes of the file, one ranged
 * read for the index) and then each payload with one ranged read of its own bytes; records are
 * located by the running sum of the lengths. As Java and pypaimon, neither the magic nor the CRC
 * is checked when a payload is read (their CRCs differ: §5.3); the index is validated in full.
 */
#ifndef CP_FORMAT_BLOB_FILE_H
#define CP_FORMAT_BLOB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/fs.h"
#include "cpaimon/error.h"

#define CP_BLOB_MAGIC 0x584E11CFu
#define CP_BLOB_VERSION 1

/* What a row of a `.blob` file holds. */
typedef enum { CP_BLOB_VALUE = 0, CP_BLOB_NULL = 1, CP_BLOB_PLACEHOLDER = 2 } cp_blob_kind;

/* The index of a `.blob` file: per row its kind and payload range. */
typedef struct cp_blob_index {
  int64_t n_rows;
  uint8_t *kinds;   /* cp_blob_kind per row */
  int64_t *offsets; /* payload start per row (values only) */
  int64_t *lengths; /* payload length per row (values only) */
} cp_blob_index;

/* Parses the trailer of a file of `file_size` bytes: `tail` holds its last `tail_len` bytes
 * (at least the 5-byte footer; more saves a read). When the index is not all inside `tail`,
 * *need is set to the number of last bytes required and nothing else is done (call again with
 * that many). Errors (ECORRUPT) name `name`: "Unsupported version", index length out of range,
 * bad varints, a record length below 16 or past the data, lengths not summing to the data size. */
int cp_blob_index_parse(const uint8_t *tail, size_t tail_len, uint64_t file_size, const char *name,
                        cp_blob_index *out, size_t *need, paimon_error *err);
void cp_blob_index_free(cp_blob_index *ix);

typedef struct cp_blob_file cp_blob_file;

/* Opens `path` and reads its index (one read of the last 64 KiB, a second one only for a larger
 * index). */
int cp_blob_file_open(cp_fs *fs, const char *path, cp_blob_file **out, paimon_error *err);
const cp_blob_index *cp_blob_file_index(const cp_blob_file *f);
const char *cp_blob_file_path(const cp_blob_file *f);
/* Reads bytes [offset, offset + len) of the file (a payload, or a span of several). */
int cp_blob_file_read(cp_blob_file *f, int64_t offset, void *dst, size_t len, paimon_error *err);
void cp_blob_file_free(cp_blob_file *f);

/* ---- writing (Java's BlobFormatWriter; CRC32 over magic, payload and rec_len, Java's form) ----
 */

typedef struct cp_blob_writer cp_blob_writer;

/* A writer appending records to `file` (borrowed: the caller syncs, closes or aborts it). */
int cp_blob_writer_new(cp_blob_writer **out, cp_wfile *file, paimon_error *err);
int cp_blob_writer_add(cp_blob_writer *w, const void *data, size_t len, paimon_error *err);
/* A record whose payload arrives in pieces (a copied object): begin with its length, append
 * exactly that many bytes, end. Nothing else may be added in between. */
int cp_blob_writer_begin(cp_blob_writer *w, uint64_t len, paimon_error *err);
int cp_blob_writer_append(cp_blob_writer *w, const void *data, size_t n, paimon_error *err);
int cp_blob_writer_end(cp_blob_writer *w, paimon_error *err);
int cp_blob_writer_add_null(cp_blob_writer *w, paimon_error *err);
int cp_blob_writer_add_placeholder(cp_blob_writer *w, paimon_error *err);
int64_t cp_blob_writer_rows(const cp_blob_writer *w);
/* Bytes written so far (records only, before the trailer): what rolling compares. */
uint64_t cp_blob_writer_position(const cp_blob_writer *w);
/* Writes the index and footer; *size receives the file's length. */
int cp_blob_writer_finish(cp_blob_writer *w, uint64_t *size, paimon_error *err);
void cp_blob_writer_free(cp_blob_writer *w);

/* ---- ARRAY<BLOB> payloads (spec §5.3; Java ArrayBlobElementSerializer) ----
 *
 *   magic u32 (1094861634, bytes 42 43 42 41) | version u8 (1) | element_count i32 |
 *   element bytes back to back | index (delta-varint element lengths, -1 NULL) | index_len i32
 *
 * Parses one payload: *lens (malloc'd, *count entries; the caller frees it) the element lengths,
 * -1 for a NULL element; element bytes start at offset CP_BLOB_ARRAY_HEADER. ECORRUPT "Invalid
 * ARRAY<BLOB> payload: ..." for a wrong magic or version, index lengths out of range, bad
 * varints, a count that does not match, lengths that do not add up to the element bytes. */
#define CP_BLOB_ARRAY_MAGIC 1094861634u
#define CP_BLOB_ARRAY_HEADER 9
int cp_blob_array_payload_parse(const uint8_t *p, size_t len, int64_t **lens, int64_t *count,
                                paimon_error *err);

/* ---- BlobDescriptor (spec/maintenance-and-blob.md §5.4; Java BlobDescriptor) ----
 *
 *   v2 = version u8 (2) | magic u64 (0x424C4F4244455343, "BLOBDESC") | uri_len i32 | uri |
 *        offset i64 | length i64          (v1: the same without the magic)
 *
 * all little-endian; length -1 means "to the end of the object". */

#define CP_BLOB_DESCRIPTOR_MAGIC 0x424C4F4244455343ull
#define CP_BLOB_DESCRIPTOR_VERSION 2

typedef struct cp_blob_descriptor {
  int version;
  const char *uri; /* uri_len bytes inside the parsed value, not NUL-terminated */
  size_t uri_len;
  int64_t offset, length;
} cp_blob_descriptor;

/* Whether a BLOB value is a serialized BlobDescriptor as Java's Blob.fromBytes decides it: at
 * least 9 bytes, a version of at most 2, then the magic. */
bool cp_blob_is_descriptor(const uint8_t *v, size_t len);
/* Parses a serialized descriptor (bytes after it are ignored, as Java and pypaimon do). EINVAL
 * naming the defect: too short, a version above 2, a missing magic, a negative or overlong URI
 * length, a negative offset, a length below -1. */
int cp_blob_descriptor_parse(const uint8_t *v, size_t len, cp_blob_descriptor *out,
                             paimon_error *err);
/* The size of a v2 descriptor of a `uri_len`-byte URI, and its bytes (dst holds that many). */
static inline size_t cp_blob_descriptor_size(size_t uri_len) { return 29 + uri_len; }
void cp_blob_descriptor_write(uint8_t *dst, const char *uri, size_t uri_len, int64_t offset,
                              int64_t length);

#endif
