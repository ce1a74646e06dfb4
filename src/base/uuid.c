/*
 * Random bytes and version-4 UUIDs (uuid.h; RFC 9562 §5.4 for the layout: 122 random bits, the
 * version nibble 4 in byte 6, the variant bits 10 in byte 8).
 */
#include "base/uuid.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* For kernels older than getrandom(2) (Linux 3.17): read the same pool through /dev/urandom. */
static int cp_urandom(uint8_t *p, size_t n, paimon_error *err) {
  int fd;
  do fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return paimon_error_set(err, PAIMON_EIO, "random bytes: open of /dev/urandom: %s",
                            strerror(errno));
  size_t done = 0;
  while (done < n) {
    ssize_t r = read(fd, p + done, n - done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      int e = r < 0 ? errno : EIO;
      close(fd);
      return paimon_error_set(err, PAIMON_EIO, "random bytes: read of /dev/urandom: %s",
                              strerror(e));
    }
    done += (size_t)r;
  }
  close(fd);
  return PAIMON_OK;
}

int cp_random_bytes(void *dst, size_t n, paimon_error *err) {
  uint8_t *p = dst;
  size_t done = 0;
  /* getrandom may return fewer bytes than asked (large requests, signals); loop until done. */
  while (done < n) {
    ssize_t r = getrandom(p + done, n - done, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && errno == ENOSYS) return cp_urandom(p + done, n - done, err);
    if (r < 0)
      return paimon_error_set(err, PAIMON_EIO, "random bytes: getrandom: %s", strerror(errno));
    done += (size_t)r;
  }
  return PAIMON_OK;
}

void cp_uuid_format(const uint8_t bytes[16], char out[CP_UUID_STR_LEN + 1]) {
  static const char hex[] = "0123456789abcdef";
  size_t o = 0;
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
    out[o++] = hex[bytes[i] >> 4];
    out[o++] = hex[bytes[i] & 15];
  }
  out[o] = '\0';
}

int cp_uuid_v4(char out[CP_UUID_STR_LEN + 1], paimon_error *err) {
  uint8_t b[16];
  int rc = cp_random_bytes(b, sizeof b, err);
  if (rc != 0) {
    out[0] = '\0';
    return rc;
  }
  b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
  b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
  cp_uuid_format(b, out);
  return PAIMON_OK;
}
