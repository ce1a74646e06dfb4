/*
 * BlobDescriptor values (docs/blob.md): the serialized reference to a range of an object that a
 * BLOB column takes on write (its bytes are copied into the table's `.blob` file, or kept as they
 * are in a 'blob-descriptor-field' column) and that blob-as-descriptor reads return:
 *
 *   version u8 (2) | magic u64 ("BLOBDESC") | uri_len i32 | uri | offset i64 | length i64
 *
 * little-endian; a length of -1 means "to the end of the object". Version 1 (no magic) parses
 * too. These are the bytes Java's BlobDescriptor and pypaimon's BlobDescriptor.serialize() make.
 */
#ifndef CPAIMON_BLOB_H
#define CPAIMON_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The serialized size of a descriptor of a `uri_len`-byte URI. */
size_t paimon_blob_descriptor_size(size_t uri_len);

/* Writes the version-2 descriptor of (uri, offset, length) into `dst`
 * (paimon_blob_descriptor_size(uri_len) bytes). EINVAL for a negative offset, a length below -1
 * or an empty URI. */
int paimon_blob_descriptor_write(uint8_t *dst, const char *uri, size_t uri_len, int64_t offset,
                                 int64_t length, paimon_error *err);

/* Whether `data` is a serialized descriptor as Java decides it for a BLOB value (at least 9
 * bytes, version at most 2, the magic): such a value is a reference, any other is content. */
bool paimon_blob_is_descriptor(const uint8_t *data, size_t len);

/* Parses a serialized descriptor: *uri points into `data` (*uri_len bytes, not NUL-terminated).
 * EINVAL naming the defect (pypaimon's and Java's messages: "Invalid BlobDescriptor data: too
 * short", "Expecting BlobDescriptor version to be less than or equal to 2, but found 3.", ...). */
int paimon_blob_descriptor_parse(const uint8_t *data, size_t len, int *version, const char **uri,
                                 size_t *uri_len, int64_t *offset, int64_t *length,
                                 paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif
