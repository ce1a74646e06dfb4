/* cpaimon._cpaimon: module definition, error mapping and the Arrow PyCapsule interface
 * (https://arrow.apache.org/docs/format/CDataInterface/PyCapsuleInterface.html). */
#include "module.h"

#include <string.h>

#include "cpaimon/blob.h"
#include "cpaimon/version.h"

static PyObject *commit_conflict_error;

/* pypaimon's exception for a catalog message such as "Table db.t does not exist." (one of
 * cpaimon.catalog.catalog_exception.BY_MESSAGE), or NULL (no error set) when none fits. */
static PyObject *catalog_exception(int code, const char *msg) {
  if (code != PAIMON_ENOTFOUND && code != PAIMON_EEXIST) return NULL;
  PyObject *mod = PyImport_ImportModule("cpaimon.catalog.catalog_exception");
  PyObject *table = mod ? PyObject_GetAttrString(mod, "BY_MESSAGE") : NULL;
  Py_XDECREF(mod);
  PyObject *fast = table ? PySequence_Fast(table, "BY_MESSAGE") : NULL;
  Py_XDECREF(table);
  PyObject *exc = NULL;
  size_t len = strlen(msg);
  if (len && msg[len - 1] == '.') len--;
  for (Py_ssize_t i = 0; fast && !exc && i < PySequence_Fast_GET_SIZE(fast); i++) {
    const char *pre, *suf;
    PyObject *cls;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ssO", &pre, &suf, &cls)) break;
    size_t np = strlen(pre), ns = strlen(suf);
    if (len <= np + ns || strncmp(msg, pre, np) != 0 || strncmp(msg + len - ns, suf, ns) != 0)
      continue;
    PyObject *name = PyUnicode_FromStringAndSize(msg + np, (Py_ssize_t)(len - np - ns));
    exc = name ? PyObject_CallFunction(cls, "Os", name, msg) : NULL;
    Py_XDECREF(name);
    if (!exc) break;
  }
  Py_XDECREF(fast);
  PyErr_Clear(); /* a failure here falls back to the built-in error */
  return exc;
}

/* A str -> str dict as key and value arrays borrowing its strings (PyMem_Free both); what
 * names the pairs in the TypeError. */
bool cp_py_dict_pairs(PyObject *dict, const char *what, const char ***keys, const char ***values,
                      size_t *n) {
  Py_ssize_t size = PyDict_Size(dict), pos = 0;
  *n = 0;
  *keys = PyMem_Calloc(size ? (size_t)size : 1, sizeof **keys);
  *values = PyMem_Calloc(size ? (size_t)size : 1, sizeof **values);
  if (!*keys || !*values) {
    PyErr_NoMemory();
    return false;
  }
  PyObject *k, *v;
  while (PyDict_Next(dict, &pos, &k, &v)) {
    if (!PyUnicode_Check(k) || !PyUnicode_Check(v)) {
      PyErr_Format(PyExc_TypeError, "%s must be str: str", what);
      return false;
    }
    (*keys)[*n] = PyUnicode_AsUTF8(k);
    (*values)[*n] = PyUnicode_AsUTF8(v);
    if (!(*keys)[*n] || !(*values)[*n]) return false;
    (*n)++;
  }
  return true;
}

PyObject *cp_py_raise(int code, const paimon_error *err) {
  const char *msg = err && err->message[0] ? err->message : paimon_status_name(code);
  PyObject *exc = catalog_exception(code, msg);
  if (exc) {
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return NULL;
  }
  PyObject *type;
  switch (code) {
  case PAIMON_EINVAL: type = PyExc_ValueError; break;
  case PAIMON_ENOTFOUND: type = PyExc_FileNotFoundError; break;
  case PAIMON_EEXIST: type = PyExc_FileExistsError; break;
  case PAIMON_ENOMEM: type = PyExc_MemoryError; break;
  case PAIMON_EUNSUPPORTED: type = PyExc_NotImplementedError; break;
  case PAIMON_ECONFLICT: type = commit_conflict_error; break;
  default: type = PyExc_RuntimeError;
  }
  PyErr_SetString(type, msg);
  return NULL;
}

int cp_py_import_stream(PyObject *obj, struct ArrowArrayStream *out) {
  PyObject *capsule;
  if (PyCapsule_CheckExact(obj)) {
    capsule = obj;
    Py_INCREF(capsule);
  } else {
    capsule = PyObject_CallMethod(obj, "__arrow_c_stream__", NULL);
    if (!capsule) {
      if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "expected an Arrow stream (an object with __arrow_c_stream__, such as a "
                     "pyarrow Table or RecordBatchReader), got %s",
                     Py_TYPE(obj)->tp_name);
      }
      return -1;
    }
  }
  struct ArrowArrayStream *src = PyCapsule_GetPointer(capsule, "arrow_array_stream");
  if (!src) {
    Py_DECREF(capsule);
    return -1;
  }
  *out = *src;
  src->release = NULL; /* moved: the capsule's destructor now has nothing to release */
  Py_DECREF(capsule);
  return 0;
}

static void stream_capsule_destructor(PyObject *capsule) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  struct ArrowArrayStream *s = PyCapsule_GetPointer(capsule, "arrow_array_stream");
  if (s) {
    /* A stream's release may wait for I/O in flight: not with the GIL held. */
    if (s->release) {
      Py_BEGIN_ALLOW_THREADS s->release(s);
      Py_END_ALLOW_THREADS
    }
    PyMem_Free(s);
  }
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

/* A one-shot holder of a stream implementing __arrow_c_stream__. */
typedef struct {
  PyObject_HEAD struct ArrowArrayStream stream;
} stream_holder;

static void holder_dealloc(stream_holder *self) {
  if (self->stream.release) self->stream.release(&self->stream);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *holder_arrow_c_stream(stream_holder *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"requested_schema", NULL};
  PyObject *requested = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kwlist, &requested)) return NULL;
  if (!self->stream.release) {
    PyErr_SetString(PyExc_RuntimeError, "this Arrow stream has already been consumed");
    return NULL;
  }
  struct ArrowArrayStream *s = PyMem_Malloc(sizeof *s);
  if (!s) return PyErr_NoMemory();
  *s = self->stream;
  self->stream.release = NULL;
  PyObject *capsule = PyCapsule_New(s, "arrow_array_stream", stream_capsule_destructor);
  if (!capsule) {
    s->release(s);
    PyMem_Free(s);
  }
  return capsule;
}

static PyMethodDef holder_methods[] = {
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))holder_arrow_c_stream,
     METH_VARARGS | METH_KEYWORDS, "Export the stream through the Arrow PyCapsule interface."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject stream_holder_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpaimon._cpaimon.ArrowStream",
    .tp_basicsize = sizeof(stream_holder),
    .tp_dealloc = (destructor)holder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An Arrow stream produced by cpaimon (consume with pyarrow.table(obj) or "
              "pyarrow.RecordBatchReader.from_stream(obj)).",
    .tp_methods = holder_methods,
};

PyObject *cp_py_export_stream(struct ArrowArrayStream *stream) {
  stream_holder *h = PyObject_New(stream_holder, &stream_holder_type);
  if (!h) {
    if (stream->release) stream->release(stream);
    return NULL;
  }
  h->stream = *stream;
  stream->release = NULL;
  return (PyObject *)h;
}

static PyObject *py_version(PyObject *self, PyObject *args) {
  (void)self;
  (void)args;
  return PyUnicode_FromString(CPAIMON_VERSION);
}

static PyObject *py_blob_descriptor_serialize(PyObject *self, PyObject *args) {
  (void)self;
  const char *uri = NULL;
  Py_ssize_t n = 0;
  long long offset = 0, length = 0;
  if (!PyArg_ParseTuple(args, "s#LL", &uri, &n, &offset, &length)) return NULL;
  PyObject *out =
      PyBytes_FromStringAndSize(NULL, (Py_ssize_t)paimon_blob_descriptor_size((size_t)n));
  if (!out) return NULL;
  paimon_error err;
  int rc = paimon_blob_descriptor_write((uint8_t *)PyBytes_AS_STRING(out), uri, (size_t)n, offset,
                                        length, &err);
  if (rc) {
    Py_DECREF(out);
    return cp_py_raise(rc, &err);
  }
  return out;
}

static PyObject *py_blob_descriptor_parse(PyObject *self, PyObject *args) {
  (void)self;
  Py_buffer b;
  if (!PyArg_ParseTuple(args, "y*", &b)) return NULL;
  paimon_error err;
  int version = 0;
  const char *uri = NULL;
  size_t uri_len = 0;
  int64_t offset = 0, length = 0;
  int rc = paimon_blob_descriptor_parse(b.buf, (size_t)b.len, &version, &uri, &uri_len, &offset,
                                        &length, &err);
  PyObject *out = rc ? NULL
                     : Py_BuildValue("(s#LLi)", uri, (Py_ssize_t)uri_len, (long long)offset,
                                     (long long)length, version);
  PyBuffer_Release(&b);
  return rc ? cp_py_raise(rc, &err) : out;
}

static PyObject *py_blob_is_descriptor(PyObject *self, PyObject *args) {
  (void)self;
  Py_buffer b;
  if (!PyArg_ParseTuple(args, "y*", &b)) return NULL;
  bool yes = paimon_blob_is_descriptor(b.buf, (size_t)b.len);
  PyBuffer_Release(&b);
  return PyBool_FromLong(yes);
}

static PyMethodDef core_methods[] = {
    {"version", py_version, METH_NOARGS, "The cpaimon library version."},
    {"blob_descriptor_serialize", py_blob_descriptor_serialize, METH_VARARGS,
     "(uri, offset, length) -> the serialized BlobDescriptor (cpaimon/blob.h)."},
    {"blob_descriptor_parse", py_blob_descriptor_parse, METH_VARARGS,
     "bytes -> (uri, offset, length, version)."},
    {"blob_is_descriptor", py_blob_is_descriptor, METH_VARARGS,
     "Whether bytes are a serialized BlobDescriptor, as Java decides it for a BLOB value."},
    {NULL, NULL, 0, NULL}};

static int add_methods(PyObject *module, PyMethodDef *defs) {
  for (PyMethodDef *d = defs; d->ml_name; d++) {
    PyObject *fn = PyCFunction_NewEx(d, NULL, PyModule_GetNameObject(module));
    if (!fn || PyModule_AddObject(module, d->ml_name, fn) < 0) {
      Py_XDECREF(fn);
      return -1;
    }
  }
  return 0;
}

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "_cpaimon",
                                        "Native core of the cpaimon package.",
                                        -1,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

PyMODINIT_FUNC PyInit__cpaimon(void) {
  if (PyType_Ready(&stream_holder_type) < 0) return NULL;
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  commit_conflict_error =
      PyErr_NewException("cpaimon.CommitConflictError", PyExc_RuntimeError, NULL);
  if (!commit_conflict_error ||
      PyModule_AddObject(m, "CommitConflictError", commit_conflict_error) < 0 ||
      add_methods(m, core_methods) < 0 || add_methods(m, cp_py_parquet_write_methods) < 0 ||
      add_methods(m, cp_py_parquet_read_methods) < 0 || add_methods(m, cp_py_table_methods) < 0 ||
      add_methods(m, cp_py_predicate_methods) < 0 || add_methods(m, cp_py_delete_methods) < 0 ||
      add_methods(m, cp_py_update_methods) < 0 || add_methods(m, cp_py_system_table_methods) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  Py_INCREF(commit_conflict_error);
  return m;
}
