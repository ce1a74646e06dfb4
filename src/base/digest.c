/* SHA-256, HMAC-SHA256, MD5, hex and base64 (digest.h) over OpenSSL's one-shot functions. */
#include "base/digest.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

void cp_sha256(const void *data, size_t n, uint8_t out[32]) {
  unsigned int len = 32;
  EVP_Digest(data, n, out, &len, EVP_sha256(), NULL);
}

void cp_hex(const uint8_t *bytes, size_t n, char *out) {
  static const char hex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = hex[bytes[i] >> 4];
    out[2 * i + 1] = hex[bytes[i] & 15];
  }
  out[2 * n] = '\0';
}

void cp_sha256_hex(const void *data, size_t n, char out[65]) {
  uint8_t d[32];
  cp_sha256(data, n, d);
  cp_hex(d, sizeof d, out);
}

void cp_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                    uint8_t out[32]) {
  unsigned int len = 32;
  HMAC(EVP_sha256(), key, (int)key_len, msg, msg_len, out, &len);
}

void cp_md5(const void *data, size_t n, uint8_t out[16]) {
  unsigned int len = 16;
  EVP_Digest(data, n, out, &len, EVP_md5(), NULL);
}

void cp_base64(const uint8_t *bytes, size_t n, char *out) {
  EVP_EncodeBlock((unsigned char *)out, bytes, (int)n);
}
