/*
 * Digests for signing requests (AWS Signature V4 for object stores, the REST catalog's DLF
 * signature): SHA-256, HMAC-SHA256, MD5 and base64, over OpenSSL's libcrypto.
 */
#ifndef CP_BASE_DIGEST_H
#define CP_BASE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

void cp_sha256(const void *data, size_t n, uint8_t out[32]);
/* Lower-case hex of SHA-256, NUL-terminated. */
void cp_sha256_hex(const void *data, size_t n, char out[65]);
void cp_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                    uint8_t out[32]);
void cp_md5(const void *data, size_t n, uint8_t out[16]);
/* Lower-case hex of `n` bytes into `out` (2n + 1 bytes). */
void cp_hex(const uint8_t *bytes, size_t n, char *out);
/* Standard base64 with padding of `n` bytes into `out` (4 * ceil(n / 3) + 1 bytes). */
void cp_base64(const uint8_t *bytes, size_t n, char *out);

#endif
