/*
 * cpaimon._cpaimon: system tables ("db.t$snapshots", include/cpaimon/system_table.h) for
 * python/cpaimon/system_table.py. A system table handle is a PyCapsule that keeps the catalog's
 * capsule alive (it owns its data table, which borrows the catalog). Rows come from the C library
 * as an Arrow stream; nothing here knows what the views contain.
 */
#include <stdlib.h>
#include <string.h>

#include "cpaimon/system_table.h"
#include "module.h"

#define SYSTEM_CAPSULE "cpaimon.system_table"
#define CATALOG_CAPSULE "cpaimon.catalog"
#define PREDICATE_CAPSULE "cpaimon.predicate"

static void system_destructor(PyObject *cap) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  paimon_system_table *st = PyCapsule_GetPointer(cap, SYSTEM_CAPSULE);
  paimon_system_table_free(st);
  PyObject *catalog = PyCapsule_GetContext(cap);
  Py_XDECREF(catalog);
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

static paimon_system_table *unwrap(PyObject *cap) {
  if (!PyCapsule_IsValid(cap, SYSTEM_CAPSULE)) {
    PyErr_SetString(PyExc_TypeError, "expected a " SYSTEM_CAPSULE " handle");
    return NULL;
  }
  return PyCapsule_GetPointer(cap, SYSTEM_CAPSULE);
}

/* system_table_open(catalog, "db.t$kind") -> handle */
static PyObject *py_system_table_open(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *catalog;
  const char *ident;
  if (!PyArg_ParseTuple(args, "Os", &catalog, &ident)) return NULL;
  if (!PyCapsule_IsValid(catalog, CATALOG_CAPSULE)) {
    PyErr_SetString(PyExc_TypeError, "expected a " CATALOG_CAPSULE " handle");
    return NULL;
  }
  paimon_catalog *c = PyCapsule_GetPointer(catalog, CATALOG_CAPSULE);
  paimon_system_table *st = NULL;
  paimon_error err;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_catalog_get_system_table(c, ident, &st, &err);
  Py_END_ALLOW_THREADS if (rc) return cp_py_raise(rc, &err);
  PyObject *cap = PyCapsule_New(st, SYSTEM_CAPSULE, system_destructor);
  if (!cap) {
    paimon_system_table_free(st);
    return NULL;
  }
  Py_INCREF(catalog);
  if (PyCapsule_SetContext(cap, catalog) != 0) {
    Py_DECREF(catalog);
    Py_DECREF(cap); /* frees st; the context is not set, so nothing more */
    return NULL;
  }
  return cap;
}

/* system_table_info(handle) -> {"name", "kind", "primary_keys", "fields_json"} */
static PyObject *py_system_table_info(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_system_table *st = unwrap(cap);
  if (!st) return NULL;
  char *json = NULL;
  paimon_error err;
  int rc = paimon_system_table_fields_json(st, &json, &err);
  if (rc) return cp_py_raise(rc, &err);
  size_t n = paimon_system_table_primary_key_count(st);
  PyObject *keys = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; keys && i < n; i++) {
    PyObject *k = PyUnicode_FromString(paimon_system_table_primary_key(st, i));
    if (!k)
      Py_CLEAR(keys);
    else
      PyList_SET_ITEM(keys, (Py_ssize_t)i, k);
  }
  PyObject *out =
      keys ? Py_BuildValue("{s:s,s:s,s:N,s:s}", "name", paimon_system_table_name(st), "kind",
                           paimon_system_table_kind(st), "primary_keys", keys, "fields_json", json)
           : NULL;
  free(json);
  return out;
}

static void schema_capsule_destructor(PyObject *cap) {
  struct ArrowSchema *s = PyCapsule_GetPointer(cap, "arrow_schema");
  if (s) {
    if (s->release) s->release(s);
    PyMem_Free(s);
  }
}

/* system_table_schema(handle) -> "arrow_schema" capsule (pa.Schema._import_from_c_capsule) */
static PyObject *py_system_table_schema(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_system_table *st = unwrap(cap);
  if (!st) return NULL;
  struct ArrowSchema *s = PyMem_Malloc(sizeof *s);
  if (!s) return PyErr_NoMemory();
  paimon_error err;
  int rc = paimon_system_table_arrow_schema(st, s, &err);
  if (rc) {
    PyMem_Free(s);
    return cp_py_raise(rc, &err);
  }
  PyObject *out = PyCapsule_New(s, "arrow_schema", schema_capsule_destructor);
  if (!out) {
    s->release(s);
    PyMem_Free(s);
  }
  return out;
}

/* A list of str (or None) as a malloc'd array of borrowed UTF-8 pointers. */
static int column_names(PyObject *seq, const char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (seq == Py_None) return 0;
  PyObject *fast = PySequence_Fast(seq, "projection must be a sequence of column names");
  if (!fast) return -1;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  const char **names = PyMem_Malloc((size_t)(len ? len : 1) * sizeof *names);
  if (!names) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    names[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i));
    if (!names[i]) {
      PyMem_Free(names);
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast); /* the strings stay owned by `seq` */
  *out = names;
  *n = (size_t)len;
  return 0;
}

/* system_table_read(handle, projection or None, predicate or None) -> Arrow stream object */
static PyObject *py_system_table_read(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap, *projection, *pcap;
  if (!PyArg_ParseTuple(args, "OOO", &cap, &projection, &pcap)) return NULL;
  paimon_system_table *st = unwrap(cap);
  if (!st) return NULL;
  const paimon_predicate *filter = NULL;
  if (pcap != Py_None) {
    if (!PyCapsule_IsValid(pcap, PREDICATE_CAPSULE)) {
      PyErr_SetString(PyExc_TypeError, "expected a " PREDICATE_CAPSULE " handle or None");
      return NULL;
    }
    filter = PyCapsule_GetPointer(pcap, PREDICATE_CAPSULE);
  }
  const char **names = NULL;
  size_t n = 0;
  if (column_names(projection, &names, &n) != 0) return NULL;
  struct ArrowArrayStream stream;
  paimon_error err;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc =
      paimon_system_table_read(st, projection == Py_None ? NULL : names, n, filter, &stream, &err);
  Py_END_ALLOW_THREADS PyMem_Free(names);
  if (rc) return cp_py_raise(rc, &err);
  return cp_py_export_stream(&stream);
}

PyMethodDef cp_py_system_table_methods[] = {
    {"system_table_open", py_system_table_open, METH_VARARGS,
     "Open system table 'db.t$kind' of a catalog."},
    {"system_table_info", py_system_table_info, METH_VARARGS,
     "Name, kind, primary keys and fields JSON of a system table."},
    {"system_table_schema", py_system_table_schema, METH_VARARGS,
     "The Arrow schema of a system table (arrow_schema capsule)."},
    {"system_table_read", py_system_table_read, METH_VARARGS,
     "Read a system table's rows (projection, predicate) as an Arrow stream."},
    {NULL, NULL, 0, NULL}};
