/*
 * Values given for a BLOB column on write (spec/maintenance-and-blob.md §5.4, Java
 * Blob.fromBytes, pypaimon BlobFileWriter._to_blob): NULL, the content itself, or a serialized
 * BlobDescriptor naming a range of another object, whose bytes are copied into the `.blob` file
 * (streamed in 1 MiB pieces, never held whole).
 *
 * A descriptor's URI is read through the table's file system when it is of the table's kind (a
 * local path or file:// on a local table, an object-store URI on an object-store table), else
 * through a file system opened for it with the catalog's and table's options, `blob-descriptor.*`
 * options (prefix removed) winning, as Java's descriptor FileIO options.
 *
 * Writers check a batch's descriptors (cp_blob_sources_check: each parses and names an existing
 * range) before they write anything of it, so that a bad descriptor is refused with the batch
 * left unwritten.
 */
#ifndef CP_TABLE_BLOB_INPUT_H
#define CP_TABLE_BLOB_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "arrow/array.h"
#include "base/fs.h"
#include "format/blob/blob_file.h"

struct paimon_table;
struct cp_field;

/* How a table stores BLOB field `f` (spec/maintenance-and-blob.md §5.2). */
typedef enum {
  CP_BLOB_STORE_NONE = 0,   /* not a BLOB */
  CP_BLOB_STORE_FILES,      /* in `.blob` files */
  CP_BLOB_STORE_DESCRIPTOR, /* inline in the data file as BlobDescriptor bytes
                               (blob-descriptor-field, fallback blob.stored-descriptor-fields) */
  CP_BLOB_STORE_VIEW        /* inline as BlobViewStruct bytes (blob-view-field) */
} cp_blob_store;

cp_blob_store cp_blob_storage(const struct paimon_table *t, const struct cp_field *f);
static inline bool cp_blob_in_files(const struct paimon_table *t, const struct cp_field *f) {
  return cp_blob_storage(t, f) == CP_BLOB_STORE_FILES;
}

typedef struct cp_blob_sources {
  struct paimon_table *t;
  cp_fs *local, *other; /* opened on demand for URIs not of the table's kind */
  uint8_t *buf;         /* the copy buffer */
} cp_blob_sources;

void cp_blob_sources_init(cp_blob_sources *s, struct paimon_table *t);
void cp_blob_sources_free(cp_blob_sources *s);

/* For each row r of `col` (a large_binary view of BLOB column `column`): lens[r] = -1 for NULL
 * or content, else the byte count of the range its BlobDescriptor names, which must exist.
 * Errors are prefixed "column C, row R": EINVAL for a malformed descriptor or a range past the
 * object's end, the file system's code (ENOTFOUND, EIO, ...) for an object that cannot be read,
 * EUNSUPPORTED for a URI scheme cpaimon has no file system for. */
int cp_blob_sources_check(cp_blob_sources *s, const cp_array_view *col, const char *column,
                          int64_t *lens, paimon_error *err);

/* Appends row r of `col` to `w`: NULL, the content, or (len >= 0, from the check) the
 * descriptor's bytes copied. */
int cp_blob_sources_put(cp_blob_sources *s, cp_blob_writer *w, const cp_array_view *col, int64_t r,
                        int64_t len, const char *column, paimon_error *err);

/* A descriptor column read back (blob-as-descriptor off): each value's content, fetched from the
 * object its descriptor names, as a new large_binary array; a value that is not a descriptor is
 * returned as it is. ECORRUPT / the file system's code naming the column, the row and the URI. */
int cp_blob_sources_resolve(cp_blob_sources *s, const cp_array_view *col, const char *column,
                            struct ArrowArray *out, paimon_error *err);

#endif
