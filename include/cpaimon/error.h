/*
 * Status codes and the error struct every fallible cpaimon call fills.
 *
 * Convention (STYLE.md, after nanoarrow): a fallible function returns an int, 0 on success or a
 * negative PAIMON_E* code, and takes a `paimon_error *err` as its last argument. On failure the
 * message names the object involved (table, file, column, row id, offset). `err` may be NULL when
 * the caller does not want the message. The struct is caller-owned, lives on the stack, needs no
 * cleanup, and may be reused: each failing call overwrites it.
 */
#ifndef CPAIMON_ERROR_H
#define CPAIMON_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum paimon_status {
  PAIMON_OK = 0,
  PAIMON_EINVAL = -1,       /* invalid argument or invalid input data */
  PAIMON_ENOMEM = -2,       /* allocation failed */
  PAIMON_EIO = -3,          /* the operating system reported an I/O failure */
  PAIMON_ENOTFOUND = -4,    /* file, database, table, column or snapshot does not exist */
  PAIMON_EEXIST = -5,       /* the object to create already exists */
  PAIMON_ECORRUPT = -6,     /* bytes read from storage are malformed */
  PAIMON_EUNSUPPORTED = -7, /* valid input that cpaimon does not implement */
  PAIMON_ECONFLICT = -8,    /* a commit lost against a concurrent commit */
  PAIMON_ESTATE = -9        /* call not allowed in the object's current state */
};

#define PAIMON_ERROR_MESSAGE_SIZE 1024

typedef struct paimon_error {
  int code;                                /* the PAIMON_E* code of the last failure, or 0 */
  char message[PAIMON_ERROR_MESSAGE_SIZE]; /* NUL-terminated, possibly truncated */
} paimon_error;

#if defined(__GNUC__)
#define PAIMON_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PAIMON_PRINTF(f, a)
#endif

/* A static string naming a status code, e.g. "EINVAL"; "unknown" for other values. */
const char *paimon_status_name(int code);

/* Records `code` and a printf-style message in `err` (if not NULL); returns `code` so a caller can
 * write `return paimon_error_set(err, PAIMON_EINVAL, "column %s: ...", name);`. */
int paimon_error_set(paimon_error *err, int code, const char *fmt, ...) PAIMON_PRINTF(3, 4);

/* Prepends "<context>: " to the message already in `err`, keeping its code; returns that code.
 * Used by outer layers to add the file or table a lower layer did not know about. */
int paimon_error_prefix(paimon_error *err, const char *fmt, ...) PAIMON_PRINTF(2, 3);

/* Resets `err` to code 0 and an empty message. */
void paimon_error_clear(paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
