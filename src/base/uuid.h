/*
 * Random bytes and version-4 UUIDs (RFC 9562 §5.4), for the names Paimon gives the files it
 * writes (data-<uuid>-<n>.parquet, manifest-<uuid>-<n>; spec/format.md §1.2), commit users, and
 * Avro sync markers. The randomness comes from the kernel (getrandom), never from a seeded PRNG,
 * so concurrent writers on different machines do not collide. Thread-safe.
 */
#ifndef CP_BASE_UUID_H
#define CP_BASE_UUID_H

#include <stddef.h>
#include <stdint.h>

#include "cpaimon/error.h"

/* Length of a UUID's text form, without the NUL. */
#define CP_UUID_STR_LEN 36

/* Fills dst[0..n) with random bytes from the kernel; EIO if it cannot provide them. */
int cp_random_bytes(void *dst, size_t n, paimon_error *err);

/* Writes a fresh random version-4 UUID as 36 lower-case characters and a NUL, e.g.
 * "0f8fad5b-d9cb-469f-a165-70867728950e". */
int cp_uuid_v4(char out[CP_UUID_STR_LEN + 1], paimon_error *err);

/* Formats 16 bytes as UUID text (8-4-4-4-12 lower-case hex digits and a NUL), unchanged: the
 * caller sets version and variant bits if it wants them. */
void cp_uuid_format(const uint8_t bytes[16], char out[CP_UUID_STR_LEN + 1]);

#endif
