/*
 * The cpaimon._cpaimon extension module: shared declarations. Each area of the binding lives in
 * its own python/src/<area>.c and exports a PyMethodDef table that module.c registers, so areas
 * are added without editing each other's files. The binding holds no table logic: it converts
 * Python arguments, calls the C library with the GIL released, and maps errors to exceptions.
 */
#ifndef CP_PY_MODULE_H
#define CP_PY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

/* Method tables of the areas (NULL-terminated). */
extern PyMethodDef cp_py_parquet_write_methods[]; /* parquet_write.c */
extern PyMethodDef cp_py_parquet_read_methods[];  /* parquet_read.c */
extern PyMethodDef cp_py_table_methods[];         /* table.c */
extern PyMethodDef cp_py_predicate_methods[];     /* predicate.c */
extern PyMethodDef cp_py_delete_methods[];        /* delete.c */
extern PyMethodDef cp_py_update_methods[];        /* update.c */
extern PyMethodDef cp_py_system_table_methods[];  /* system_table.c */

/* Raises the Python exception for a failed call: ValueError for EINVAL, FileNotFoundError for
 * ENOTFOUND, FileExistsError for EEXIST, MemoryError, NotImplementedError for EUNSUPPORTED,
 * cpaimon.CommitConflictError for ECONFLICT, RuntimeError otherwise. Returns NULL. */
PyObject *cp_py_raise(int code, const paimon_error *err);

/* A str -> str dict as key and value arrays borrowing its strings (the caller PyMem_Frees both,
 * also on failure); `what` names the pairs in the TypeError. false with a Python exception set. */
bool cp_py_dict_pairs(PyObject *dict, const char *what, const char ***keys, const char ***values,
                      size_t *n);

/* Moves the ArrowArrayStream exported by any object with __arrow_c_stream__ (pyarrow Table,
 * RecordBatchReader, polars, DuckDB relations...) or a capsule into *out. Returns 0, or -1 with a
 * Python exception set. */
int cp_py_import_stream(PyObject *obj, struct ArrowArrayStream *out);

/* Wraps a stream (moved; released if never consumed) as an object implementing
 * __arrow_c_stream__, which pyarrow/polars/duckdb import zero-copy. */
PyObject *cp_py_export_stream(struct ArrowArrayStream *stream);

#endif
