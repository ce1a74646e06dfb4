/*
 * cpaimon._cpaimon.write_parquet: writes any Arrow stream (pyarrow Table, RecordBatchReader, ...)
 * to one Parquet file with the C writer (include/cpaimon/parquet.h), for tests, tools and
 * benchmarks. The Paimon row type comes as a `ROW<...>` SQL string, with field ids 0, 1, ... in
 * the order the fields appear, or ids given as a list. The statistics the writer computes come
 * back as Python values.
 *
 *   write_parquet(path, data, row_type, field_ids=None, *, codec="zstd", level=None,
 *                 page_size=None, page_row_limit=None, row_group_size=None,
 *                 row_group_rows=None, dictionary=True, dictionary_page_limit=None,
 *                 created_by=None, options=None)
 *     -> {"num_rows": int, "file_size": int, "num_row_groups": int,
 *         "columns": [{"name", "null_count", "min", "max"}, ...]}
 *
 * `field_ids` lists either one id per top-level field or one per field of the whole tree in the
 * order the fields appear (a field before those nested in it). min/max are None where the writer
 * keeps none; DECIMAL gives decimal.Decimal, DATE datetime.date, TIME datetime.time, TIMESTAMP a
 * naive datetime.datetime and TIMESTAMP_LTZ one in UTC (microseconds; the exact value is in
 * "min_raw"/"max_raw" as (epoch millis, nanos of milli)), strings str, binaries bytes.
 *
 * The GIL is released while the stream is read and the file written.
 */
#include <stdio.h>
#include <string.h>

#include "cpaimon/parquet.h"
#include "module.h"

/* ---- arguments ---- */

/* The ids as a PyMem array (*out freed by the caller). */
static int field_ids(PyObject *list, int32_t **out, size_t *n_out) {
  PyObject *seq = PySequence_Fast(list, "field_ids must be a sequence of ints");
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int32_t *ids = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *ids);
  if (!ids) {
    Py_DECREF(seq);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    if (v == -1 && PyErr_Occurred()) {
      PyMem_Free(ids);
      Py_DECREF(seq);
      return -1;
    }
    ids[i] = (int32_t)v;
  }
  Py_DECREF(seq);
  *out = ids;
  *n_out = (size_t)n;
  return 0;
}

/* Optional keyword values: None keeps the default. */
static int opt_i64(PyObject *o, int64_t *out) {
  if (!o || o == Py_None) return 0;
  long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (v <= 0) {
    PyErr_SetString(PyExc_ValueError, "sizes and limits must be positive");
    return -1;
  }
  *out = v;
  return 0;
}

static int parse_options(paimon_parquet_write_options *o, PyObject *codec, PyObject *level,
                         PyObject *page_size, PyObject *page_rows, PyObject *rg_size,
                         PyObject *rg_rows, int dictionary, PyObject *dict_limit) {
  paimon_parquet_write_options_init(o);
  o->dictionary = dictionary != 0;
  if (codec && codec != Py_None) {
    o->codec = PyUnicode_AsUTF8(codec); /* lives as long as the argument */
    if (!o->codec) return -1;
  }
  if (level && level != Py_None) {
    long v = PyLong_AsLong(level);
    if (v == -1 && PyErr_Occurred()) return -1;
    o->compression_level = (int)v;
  }
  int64_t v;
  if (page_size && page_size != Py_None) {
    if (opt_i64(page_size, &v)) return -1;
    o->page_size = (size_t)v;
  }
  if (opt_i64(page_rows, &o->page_row_limit)) return -1;
  if (rg_size && rg_size != Py_None) {
    if (opt_i64(rg_size, &v)) return -1;
    o->row_group_size = (uint64_t)v;
  }
  if (opt_i64(rg_rows, &o->row_group_rows)) return -1;
  if (dict_limit && dict_limit != Py_None) {
    if (opt_i64(dict_limit, &v)) return -1;
    o->dictionary_page_limit = (size_t)v;
  }
  return 0;
}

/* ---- statistics to Python ---- */

static PyObject *call_attr(const char *module, const char *attr, PyObject *args, PyObject *kwargs) {
  PyObject *mod = PyImport_ImportModule(module);
  if (!mod) return NULL;
  PyObject *fn = PyObject_GetAttrString(mod, attr);
  Py_DECREF(mod);
  if (!fn) return NULL;
  PyObject *r = args ? PyObject_Call(fn, args, kwargs) : NULL;
  Py_DECREF(fn);
  return r;
}

static PyObject *decimal_value(const paimon_value *d) {
  __int128 v = (__int128)(((unsigned __int128)(uint64_t)d->decimal_high << 64) | d->decimal_low);
  int32_t scale = d->decimal_scale;
  char digits[64], text[80];
  unsigned __int128 u = v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
  int n = 0;
  do {
    digits[n++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  int k = 0;
  if (v < 0) text[k++] = '-';
  while (n) text[k++] = digits[--n];
  snprintf(text + k, sizeof text - (size_t)k, "E-%d", (int)scale);
  PyObject *args = Py_BuildValue("(s)", text);
  PyObject *r = call_attr("decimal", "Decimal", args, NULL);
  Py_XDECREF(args);
  return r;
}

/* Epoch-based microseconds as a datetime (UTC-aware when `utc`); the raw value if out of range. */
static PyObject *timestamp_value(const paimon_value *d, bool utc) {
  long long micros = (long long)d->millis * 1000 + d->nanos_of_milli / 1000;
  PyObject *tz = NULL, *args, *epoch, *delta, *r;
  if (utc) {
    PyObject *dt = PyImport_ImportModule("datetime");
    tz = dt ? PyObject_GetAttrString(dt, "timezone") : NULL;
    PyObject *u = tz ? PyObject_GetAttrString(tz, "utc") : NULL;
    Py_XDECREF(dt);
    Py_XDECREF(tz);
    tz = u;
    if (!tz) return NULL;
    args = Py_BuildValue("(iiiiiiiO)", 1970, 1, 1, 0, 0, 0, 0, tz);
  } else {
    args = Py_BuildValue("(iii)", 1970, 1, 1);
  }
  epoch = args ? call_attr("datetime", "datetime", args, NULL) : NULL;
  Py_XDECREF(args);
  Py_XDECREF(tz);
  args = Py_BuildValue("(iiL)", 0, 0, micros);
  delta = args && epoch ? call_attr("datetime", "timedelta", args, NULL) : NULL;
  Py_XDECREF(args);
  r = delta ? PyNumber_Add(epoch, delta) : NULL;
  Py_XDECREF(epoch);
  Py_XDECREF(delta);
  if (!r && PyErr_ExceptionMatches(PyExc_OverflowError)) {
    PyErr_Clear();
    return PyLong_FromLongLong(micros);
  }
  return r;
}

static PyObject *datum_value(const paimon_value *d) {
  switch (d->kind) {
  case PAIMON_VALUE_NULL: Py_RETURN_NONE;
  case PAIMON_VALUE_BOOLEAN: return PyBool_FromLong(d->boolean);
  case PAIMON_VALUE_INT: return PyLong_FromLongLong(d->i64);
  case PAIMON_VALUE_FLOAT:
  case PAIMON_VALUE_DOUBLE: return PyFloat_FromDouble(d->f64);
  case PAIMON_VALUE_DECIMAL: return decimal_value(d);
  case PAIMON_VALUE_STRING: {
    PyObject *s = PyUnicode_DecodeUTF8((const char *)d->bytes, (Py_ssize_t)d->len, NULL);
    if (s || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return s;
    PyErr_Clear(); /* not UTF-8: give the bytes */
    return PyBytes_FromStringAndSize((const char *)d->bytes, (Py_ssize_t)d->len);
  }
  case PAIMON_VALUE_BINARY:
    return PyBytes_FromStringAndSize((const char *)d->bytes, (Py_ssize_t)d->len);
  case PAIMON_VALUE_DATE: {
    /* 719163 is the proleptic Gregorian ordinal of 1970-01-01. */
    PyObject *dt = PyImport_ImportModule("datetime");
    PyObject *date = dt ? PyObject_GetAttrString(dt, "date") : NULL;
    PyObject *r =
        date ? PyObject_CallMethod(date, "fromordinal", "L", (long long)d->i64 + 719163) : NULL;
    Py_XDECREF(dt);
    Py_XDECREF(date);
    if (!r &&
        (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_OverflowError))) {
      PyErr_Clear();
      return PyLong_FromLongLong(d->i64);
    }
    return r;
  }
  case PAIMON_VALUE_TIME: {
    long long ms = d->i64;
    PyObject *args = Py_BuildValue("(iiii)", (int)(ms / 3600000), (int)(ms / 60000 % 60),
                                   (int)(ms / 1000 % 60), (int)(ms % 1000 * 1000));
    PyObject *r = args ? call_attr("datetime", "time", args, NULL) : NULL;
    Py_XDECREF(args);
    return r;
  }
  case PAIMON_VALUE_TIMESTAMP:
  case PAIMON_VALUE_TIMESTAMP_LTZ: return timestamp_value(d, d->kind == PAIMON_VALUE_TIMESTAMP_LTZ);
  }
  Py_RETURN_NONE;
}

static PyObject *raw_value(const paimon_value *d) {
  if (d->kind != PAIMON_VALUE_TIMESTAMP && d->kind != PAIMON_VALUE_TIMESTAMP_LTZ) Py_RETURN_NONE;
  return Py_BuildValue("(Li)", (long long)d->millis, (int)d->nanos_of_milli);
}

static int set_item(PyObject *dict, const char *key, PyObject *value) {
  if (!value) return -1;
  int rc = PyDict_SetItemString(dict, key, value);
  Py_DECREF(value);
  return rc;
}

static PyObject *stats_to_python(const paimon_parquet_file_stats *s) {
  PyObject *out = PyDict_New(), *cols = PyList_New((Py_ssize_t)s->num_columns);
  if (!out || !cols || set_item(out, "num_rows", PyLong_FromLongLong(s->num_rows)) ||
      set_item(out, "file_size", PyLong_FromUnsignedLongLong(s->file_size)) ||
      set_item(out, "num_row_groups", PyLong_FromUnsignedLong(s->num_row_groups)))
    goto fail;
  for (size_t i = 0; i < s->num_columns; i++) {
    const paimon_parquet_column_stats *c = &s->columns[i];
    PyObject *d = PyDict_New();
    if (!d) goto fail;
    PyList_SET_ITEM(cols, (Py_ssize_t)i, d);
    if (set_item(d, "name", PyUnicode_FromString(c->name)) ||
        set_item(d, "null_count", PyLong_FromLongLong(c->null_count)) ||
        set_item(d, "min", datum_value(&c->min)) || set_item(d, "max", datum_value(&c->max)) ||
        set_item(d, "min_raw", raw_value(&c->min)) || set_item(d, "max_raw", raw_value(&c->max)))
      goto fail;
  }
  if (PyDict_SetItemString(out, "columns", cols) != 0) goto fail;
  Py_DECREF(cols);
  return out;
fail:
  Py_XDECREF(out);
  Py_XDECREF(cols);
  return NULL;
}

/* ---- the function ---- */

static PyObject *py_write_parquet(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"path",           "data",           "row_type",
                           "field_ids",      "codec",          "level",
                           "page_size",      "page_row_limit", "row_group_size",
                           "row_group_rows", "dictionary",     "dictionary_page_limit",
                           "created_by",     "options",        NULL};
  PyObject *path_obj = NULL, *data, *ids = Py_None, *codec = NULL, *level = NULL, *page_size = NULL,
           *page_rows = NULL, *rg_size = NULL, *rg_rows = NULL, *dict_limit = NULL,
           *fs_options = NULL;
  const char *type_sql, *created_by = NULL;
  int dictionary = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&Os|O$OOOOOOpOzO!", kwlist,
                                   PyUnicode_FSConverter, &path_obj, &data, &type_sql, &ids, &codec,
                                   &level, &page_size, &page_rows, &rg_size, &rg_rows, &dictionary,
                                   &dict_limit, &created_by, &PyDict_Type, &fs_options))
    return NULL;
  PyObject *result = NULL;
  int32_t *id_list = NULL;
  const char **fs_keys = NULL, **fs_values = NULL;
  size_t n_fs = 0;
  struct ArrowArrayStream stream;
  stream.release = NULL;
  paimon_parquet_write_options opts;
  paimon_parquet_file_stats *stats = NULL;
  paimon_error err;
  if (parse_options(&opts, codec, level, page_size, page_rows, rg_size, rg_rows, dictionary,
                    dict_limit) != 0 ||
      (ids != Py_None && field_ids(ids, &id_list, &opts.num_field_ids) != 0) ||
      (fs_options && !cp_py_dict_pairs(fs_options, "options", &fs_keys, &fs_values, &n_fs)) ||
      cp_py_import_stream(data, &stream) != 0)
    goto done;
  opts.fs_keys = fs_keys;
  opts.fs_values = fs_values;
  opts.num_fs_options = n_fs;
  opts.field_ids = id_list;
  opts.created_by = created_by;
  const char *path = PyBytes_AS_STRING(path_obj);
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_parquet_write(path, type_sql, &stream, &opts, &stats, &err);
  Py_END_ALLOW_THREADS if (rc != 0) cp_py_raise(rc, &err);
  else result = stats_to_python(stats);
done:
  if (stream.release) stream.release(&stream);
  paimon_parquet_file_stats_free(stats);
  PyMem_Free(id_list);
  PyMem_Free(fs_keys);
  PyMem_Free(fs_values);
  Py_XDECREF(path_obj);
  return result;
}

PyMethodDef cp_py_parquet_write_methods[] = {
    {"write_parquet", (PyCFunction)(void (*)(void))py_write_parquet, METH_VARARGS | METH_KEYWORDS,
     "write_parquet(path, data, row_type, field_ids=None, *, codec='zstd', level=None, "
     "page_size=None, page_row_limit=None, row_group_size=None, row_group_rows=None, "
     "dictionary=True, dictionary_page_limit=None, created_by=None, options=None) -> dict\n\n"
     "Writes an Arrow stream (e.g. a pyarrow Table) to a Parquet file with cpaimon's writer; "
     "row_type is a Paimon ROW<...> type string; options: file-system options (fs.s3.endpoint, "
     "...) for s3:// and oss:// paths. Returns the row count, file size and per-column "
     "null counts and min/max."},
    {NULL, NULL, 0, NULL}};
