/*
 * cpaimon._cpaimon.read_parquet: the Parquet reader (include/cpaimon/parquet.h) for tests and
 * tools. Arguments are converted with the GIL held; opening the file (footer, plan) runs with the
 * GIL released, and so does decoding, which happens as the consumer pulls batches from the
 * returned stream (pyarrow imports C streams without holding the GIL while reading).
 */
#include <stdlib.h>
#include <string.h>

#include "cpaimon/parquet.h"
#include "module.h"

typedef struct read_args {
  PyObject *column_seq; /* keeps the column names alive until the reader is open */
  PyObject *type_refs;  /* a list keeping the target type strings alive */
  paimon_parquet_column *columns;
  size_t num_columns;
  int32_t *row_groups;
  size_t num_row_groups;
  paimon_parquet_row_range *ranges;
  size_t num_ranges;
} read_args;

static void args_free(read_args *a) {
  Py_XDECREF(a->column_seq);
  Py_XDECREF(a->type_refs);
  free(a->columns);
  free(a->row_groups);
  free(a->ranges);
}

/* target_types: a dict keyed by column (name or id), or a sequence aligned with `columns`.
 * Returns a new reference (None when the column keeps its natural type), NULL on error. */
static PyObject *target_for(PyObject *targets, PyObject *column, Py_ssize_t i) {
  PyObject *t;
  if (targets == Py_None) {
    t = Py_None;
  } else if (PyDict_Check(targets)) {
    t = PyDict_GetItemWithError(targets, column);
    if (!t && PyErr_Occurred()) return NULL;
    if (!t) t = Py_None;
  } else {
    return PySequence_GetItem(targets, i);
  }
  Py_INCREF(t);
  return t;
}

/* The SQL text of a target type (NULL for None), kept alive by a->type_refs. */
static int target_text(read_args *a, PyObject *t, const char **out) {
  *out = NULL;
  if (t == Py_None) return 0;
  if (PyList_Append(a->type_refs, t) != 0) return -1;
  *out = PyUnicode_AsUTF8(t);
  return *out ? 0 : -1;
}

static int convert_columns(PyObject *columns, PyObject *targets, read_args *a) {
  if (columns == Py_None) {
    if (targets != Py_None) {
      PyErr_SetString(PyExc_ValueError, "target_types needs columns");
      return -1;
    }
    return 0;
  }
  PyObject *seq = PySequence_Fast(columns, "columns must be a sequence of names or field ids");
  if (!seq) return -1;
  a->column_seq = seq; /* owns the items whose UTF-8 the requests point at */
  a->type_refs = PyList_New(0);
  if (!a->type_refs) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  a->columns = calloc((size_t)n + 1, sizeof *a->columns);
  a->num_columns = (size_t)n;
  int rc = a->columns ? 0 : (PyErr_NoMemory(), -1);
  for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
    PyObject *c = PySequence_Fast_GET_ITEM(seq, i);
    if (PyUnicode_Check(c)) {
      a->columns[i].name = PyUnicode_AsUTF8(c); /* lives as long as column_seq */
      rc = a->columns[i].name ? 0 : -1;
    } else {
      long id = PyLong_AsLong(c);
      if (id == -1 && PyErr_Occurred()) {
        rc = -1;
      } else if (id < INT32_MIN || id > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "field id %ld is out of range", id);
        rc = -1;
      }
      a->columns[i].field_id = (int32_t)id;
    }
    PyObject *t = rc == 0 ? target_for(targets, c, i) : NULL;
    if (rc == 0 && !t) rc = -1;
    if (rc == 0) rc = target_text(a, t, &a->columns[i].type);
    Py_XDECREF(t);
  }
  return rc;
}

static int convert_ints(PyObject *obj, read_args *a) {
  if (obj == Py_None) return 0;
  PyObject *seq = PySequence_Fast(obj, "row_groups must be a sequence of ints");
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  a->row_groups = calloc((size_t)n + 1, sizeof *a->row_groups);
  a->num_row_groups = (size_t)n;
  int rc = a->row_groups ? 0 : (PyErr_NoMemory(), -1);
  for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    if (v == -1 && PyErr_Occurred()) rc = -1;
    a->row_groups[i] = (int32_t)v;
  }
  Py_DECREF(seq);
  return rc;
}

static int convert_ranges(PyObject *obj, read_args *a) {
  if (obj == Py_None) return 0;
  PyObject *seq = PySequence_Fast(obj, "row_ranges must be a sequence of (start, end) pairs");
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  a->ranges = calloc((size_t)n + 1, sizeof *a->ranges);
  a->num_ranges = (size_t)n;
  int rc = a->ranges ? 0 : (PyErr_NoMemory(), -1);
  for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
    long long s, e;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "LL", &s, &e)) rc = -1;
    a->ranges[i].start = s;
    a->ranges[i].end = e;
  }
  Py_DECREF(seq);
  return rc;
}

static PyObject *py_read_parquet(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"path",         "columns",    "batch_size", "row_groups",
                           "target_types", "row_ranges", "options",    NULL};
  PyObject *path_obj, *columns = Py_None, *row_groups = Py_None, *targets = Py_None,
                      *ranges = Py_None, *fs_options = NULL;
  long long batch_size = 65536;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|OLOOOO!", kwlist, PyUnicode_FSConverter,
                                   &path_obj, &columns, &batch_size, &row_groups, &targets, &ranges,
                                   &PyDict_Type, &fs_options))
    return NULL;
  read_args a = {0};
  PyObject *result = NULL;
  const char **fs_keys = NULL, **fs_values = NULL;
  size_t n_fs = 0;
  if (batch_size <= 0) {
    PyErr_SetString(PyExc_ValueError, "batch_size must be positive");
    goto done;
  }
  if (convert_columns(columns, targets, &a) || convert_ints(row_groups, &a) ||
      convert_ranges(ranges, &a) ||
      (fs_options && !cp_py_dict_pairs(fs_options, "options", &fs_keys, &fs_values, &n_fs)))
    goto done;
  paimon_parquet_read_options o = {0};
  o.columns = a.columns;
  o.num_columns = a.num_columns;
  o.row_groups = a.row_groups;
  o.num_row_groups = a.num_row_groups;
  o.row_ranges = a.ranges;
  o.num_row_ranges = a.num_ranges;
  o.batch_size = batch_size;
  o.fs_keys = fs_keys;
  o.fs_values = fs_values;
  o.num_fs_options = n_fs;
  const char *path = PyBytes_AS_STRING(path_obj);
  paimon_error err = {0};
  struct ArrowArrayStream stream;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_parquet_read(path, &o, &stream, &err);
  Py_END_ALLOW_THREADS if (rc) {
    cp_py_raise(rc, &err);
    goto done;
  }
  result = cp_py_export_stream(&stream);
done:
  PyMem_Free(fs_keys);
  PyMem_Free(fs_values);
  args_free(&a);
  Py_DECREF(path_obj);
  return result;
}

PyMethodDef cp_py_parquet_read_methods[] = {
    {"read_parquet", (PyCFunction)(void (*)(void))py_read_parquet, METH_VARARGS | METH_KEYWORDS,
     "read_parquet(path, columns=None, batch_size=65536, row_groups=None, target_types=None, "
     "row_ranges=None, options=None) -> ArrowStream\n\n"
     "Reads a Parquet file with cpaimon's reader. columns: top-level names (str) or Parquet field "
     "ids (int); target_types: Paimon SQL types per column (a dict keyed like columns, or a list "
     "aligned with them; None entries keep the file's type); row_groups: indices to read; "
     "row_ranges: sorted [(start, end), ...] file row positions; options: file-system options "
     "(fs.s3.endpoint, ...) for s3:// and oss:// paths. The result implements "
     "__arrow_c_stream__ (pyarrow.table(result))."},
    {NULL, NULL, 0, NULL}};
