/* Internal helpers for propagating status codes (see include/cpaimon/error.h). */
#ifndef CP_BASE_STATUS_H
#define CP_BASE_STATUS_H

#include "cpaimon/error.h"

/* Evaluates `expr` (an int status) and returns it from the enclosing function when non-zero. */
#define CP_RETURN_IF_ERROR(expr)                                                                   \
  do {                                                                                             \
    int cp_status_ = (expr);                                                                       \
    if (cp_status_ != 0) return cp_status_;                                                        \
  } while (0)

/* For functions with a single cleanup label: evaluates `expr` into `rc` and jumps on failure. */
#define CP_GOTO_IF_ERROR(rc, expr, label)                                                          \
  do {                                                                                             \
    (rc) = (expr);                                                                                 \
    if ((rc) != 0) goto label;                                                                     \
  } while (0)

#define CP_ENOMEM(err, what) paimon_error_set((err), PAIMON_ENOMEM, "out of memory: %s", (what))

#endif
