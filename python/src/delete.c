/*
 * cpaimon._cpaimon: deletes on data-evolution tables (include/cpaimon/delete.h) for the Python
 * TableUpdate.delete_by_row_id / delete_by_predicate (pypaimon's names; spec/data-evolution.md
 * §3.7), and row changes on row-tracking tables (include/cpaimon/rowops.h: UPDATE / DELETE /
 * MERGE as Spark runs them, copy-on-write or deletion vectors). All return a commit-messages
 * handle like write_prepare_commit does, to be committed with commit_commit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpaimon/commit.h"
#include "cpaimon/delete.h"
#include "cpaimon/predicate.h"
#include "cpaimon/rowops.h"
#include "module.h"

#define TABLE_CAPSULE "cpaimon.table"
#define MSGS_CAPSULE "cpaimon.commit_messages"
#define PRED_CAPSULE "cpaimon.predicate"

static void msgs_destructor(PyObject *cap) {
  paimon_commit_messages *m = PyCapsule_GetPointer(cap, MSGS_CAPSULE);
  if (m) paimon_commit_messages_free(m);
  PyErr_Clear();
}

static PyObject *wrap_msgs(paimon_commit_messages *m) {
  PyObject *cap = PyCapsule_New(m, MSGS_CAPSULE, msgs_destructor);
  if (!cap) paimon_commit_messages_free(m);
  return cap;
}

static paimon_table *unwrap_table(PyObject *cap) {
  if (!PyCapsule_IsValid(cap, TABLE_CAPSULE)) {
    PyErr_Format(PyExc_TypeError, "expected a %s handle", TABLE_CAPSULE);
    return NULL;
  }
  return PyCapsule_GetPointer(cap, TABLE_CAPSULE);
}

/* Python ints (a list, tuple, range, numpy array, pyarrow array...) into a malloc'd int64 array;
 * None is pypaimon's "_ROW_ID value must not be null." */
static int64_t *ids_from_python(PyObject *obj, size_t *n) {
  PyObject *fast = PySequence_Fast(obj, "row ids must be a sequence of integers");
  if (!fast) return NULL;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  int64_t *ids = malloc((size_t)(len ? len : 1) * sizeof *ids);
  if (!ids) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return NULL;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
    if (item == Py_None) {
      PyErr_SetString(PyExc_ValueError, "_ROW_ID value must not be null.");
      goto fail;
    }
    /* pyarrow scalars convert through as_py(); plain ints and numpy integers through __index__. */
    PyObject *value = PyObject_HasAttrString(item, "as_py")
                          ? PyObject_CallMethod(item, "as_py", NULL)
                          : (Py_INCREF(item), item);
    if (!value) goto fail;
    if (value == Py_None) {
      Py_DECREF(value);
      PyErr_SetString(PyExc_ValueError, "_ROW_ID value must not be null.");
      goto fail;
    }
    PyObject *index = PyNumber_Index(value);
    Py_DECREF(value);
    if (!index) goto fail;
    ids[i] = PyLong_AsLongLong(index);
    Py_DECREF(index);
    if (ids[i] == -1 && PyErr_Occurred()) goto fail;
  }
  Py_DECREF(fast);
  *n = (size_t)len;
  return ids;
fail:
  free(ids);
  Py_DECREF(fast);
  return NULL;
}

/* table_delete_by_row_ids(table, ids) -> commit messages */
static PyObject *py_delete_by_row_ids(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap, *obj;
  if (!PyArg_ParseTuple(args, "OO", &cap, &obj)) return NULL;
  paimon_table *t = unwrap_table(cap);
  if (!t) return NULL;
  size_t n = 0;
  int64_t *ids = ids_from_python(obj, &n);
  if (!ids) return NULL;
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_delete_by_row_ids(t, ids, n, &m, &err);
  Py_END_ALLOW_THREADS free(ids);
  if (rc) return cp_py_raise(rc, &err);
  return wrap_msgs(m);
}

/* table_delete_by_predicate(table, predicate_or_None) -> commit messages */
static PyObject *py_delete_by_predicate(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap, *pcap;
  if (!PyArg_ParseTuple(args, "OO", &cap, &pcap)) return NULL;
  paimon_table *t = unwrap_table(cap);
  if (!t) return NULL;
  const paimon_predicate *p = NULL;
  if (pcap != Py_None) {
    if (!PyCapsule_IsValid(pcap, PRED_CAPSULE)) {
      PyErr_Format(PyExc_TypeError, "expected a %s handle or None", PRED_CAPSULE);
      return NULL;
    }
    p = PyCapsule_GetPointer(pcap, PRED_CAPSULE);
  }
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_delete_by_predicate(t, p, &m, &err);
  Py_END_ALLOW_THREADS if (rc) return cp_py_raise(rc, &err);
  return wrap_msgs(m);
}

/* ------------------------------------ row changes ------------------------------------ */

typedef int (*batch_fn)(paimon_row_changes *, const struct ArrowSchema *, const struct ArrowArray *,
                        paimon_error *);

/* Feeds every batch of `stream` (released) to `fn`. */
static int feed_c(paimon_row_changes *rc, struct ArrowArrayStream *stream, batch_fn fn,
                  paimon_error *err) {
  struct ArrowSchema schema;
  int r = PAIMON_OK;
  if (stream->get_schema(stream, &schema)) {
    r = paimon_error_set(err, PAIMON_EINVAL, "cannot read the Arrow stream's schema");
  } else {
    while (!r) {
      struct ArrowArray batch;
      if (stream->get_next(stream, &batch)) {
        r = paimon_error_set(err, PAIMON_EINVAL, "cannot read the Arrow stream");
        break;
      }
      if (!batch.release) break;
      r = fn(rc, &schema, &batch, err);
      batch.release(&batch);
    }
    schema.release(&schema);
  }
  stream->release(stream);
  return r;
}

/* Feeds every batch of an Arrow stream-capable object to `fn` (GIL released while C runs). */
static int feed_stream(paimon_row_changes *rc, PyObject *obj, batch_fn fn, paimon_error *err,
                       int *rc_out) {
  struct ArrowArrayStream stream;
  if (cp_py_import_stream(obj, &stream) < 0) return -1;
  Py_BEGIN_ALLOW_THREADS *rc_out = feed_c(rc, &stream, fn, err);
  Py_END_ALLOW_THREADS return 0;
}

static const paimon_predicate *predicate_arg(PyObject *p) {
  if (p == Py_None) return NULL;
  if (!PyCapsule_IsValid(p, PRED_CAPSULE)) {
    PyErr_Format(PyExc_TypeError, "expected a %s handle or None", PRED_CAPSULE);
    return NULL;
  }
  return PyCapsule_GetPointer(p, PRED_CAPSULE);
}

/* The values of update_where: the first batch (one row) of `stream`, which is released. */
static int update_where_c(paimon_row_changes *rc, const paimon_predicate *p,
                          struct ArrowArrayStream *stream, paimon_error *err) {
  struct ArrowSchema schema;
  struct ArrowArray batch;
  memset(&schema, 0, sizeof schema);
  memset(&batch, 0, sizeof batch);
  int r;
  if (stream->get_schema(stream, &schema)) {
    schema.release = NULL;
    r = paimon_error_set(err, PAIMON_EINVAL, "update values: cannot read the Arrow schema");
  } else if (stream->get_next(stream, &batch) || !batch.release) {
    batch.release = NULL;
    r = paimon_error_set(err, PAIMON_EINVAL, "update values: expected one batch of one row");
  } else {
    r = paimon_row_changes_update_where(rc, p, &schema, &batch, NULL, err);
  }
  if (batch.release) batch.release(&batch);
  if (schema.release) schema.release(&schema);
  stream->release(stream);
  return r;
}

static int update_where_stream(paimon_row_changes *rc, PyObject *pred, PyObject *obj,
                               paimon_error *err, int *r) {
  const paimon_predicate *p = predicate_arg(pred);
  if (!p && PyErr_Occurred()) return -1;
  struct ArrowArrayStream stream;
  if (cp_py_import_stream(obj, &stream) < 0) return -1;
  Py_BEGIN_ALLOW_THREADS *r = update_where_c(rc, p, &stream, err);
  Py_END_ALLOW_THREADS return 0;
}

/* One operation: ("update", arrow) | ("insert", arrow) | ("delete", ids) |
 * ("update_where", predicate_or_None, one_row_arrow) | ("delete_where", predicate_or_None). */
static int apply_op(paimon_row_changes *rc, PyObject *op, paimon_error *err, int *r) {
  const char *kind;
  PyObject *a = NULL, *b = NULL;
  if (!PyArg_ParseTuple(op, "s|OO", &kind, &a, &b)) return -1;
  if (strcmp(kind, "update") == 0 && a)
    return feed_stream(rc, a, paimon_row_changes_update, err, r);
  if (strcmp(kind, "insert") == 0 && a)
    return feed_stream(rc, a, paimon_row_changes_insert, err, r);
  if (strcmp(kind, "update_where") == 0 && a && b) return update_where_stream(rc, a, b, err, r);
  if (strcmp(kind, "delete") == 0 && a) {
    size_t n = 0;
    int64_t *ids = ids_from_python(a, &n);
    if (!ids) return -1;
    Py_BEGIN_ALLOW_THREADS *r = paimon_row_changes_delete(rc, ids, n, err);
    Py_END_ALLOW_THREADS free(ids);
    return 0;
  }
  if (strcmp(kind, "delete_where") == 0 && a) {
    const paimon_predicate *p = predicate_arg(a);
    if (!p && PyErr_Occurred()) return -1;
    Py_BEGIN_ALLOW_THREADS *r = paimon_row_changes_delete_where(rc, p, NULL, err);
    Py_END_ALLOW_THREADS return 0;
  }
  PyErr_Format(PyExc_ValueError, "unknown row change operation '%s' (or missing arguments)", kind);
  return -1;
}

/* table_row_changes(table, base_snapshot, ops) -> commit messages: one statement's changes. */
static PyObject *py_row_changes(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap, *ops;
  long long base = 0;
  if (!PyArg_ParseTuple(args, "OLO", &cap, &base, &ops)) return NULL;
  paimon_table *t = unwrap_table(cap);
  if (!t) return NULL;
  PyObject *fast = PySequence_Fast(ops, "ops must be a sequence of tuples");
  if (!fast) return NULL;
  paimon_error err;
  paimon_row_changes *rc = NULL;
  paimon_commit_messages *m = NULL;
  int r;
  Py_BEGIN_ALLOW_THREADS r = paimon_row_changes_new(&rc, t, (int64_t)base, &err);
  Py_END_ALLOW_THREADS;
  for (Py_ssize_t i = 0; !r && i < PySequence_Fast_GET_SIZE(fast); i++) {
    if (apply_op(rc, PySequence_Fast_GET_ITEM(fast, i), &err, &r) < 0) {
      Py_DECREF(fast);
      paimon_row_changes_free(rc);
      return NULL;
    }
  }
  Py_DECREF(fast);
  if (!r) {
    Py_BEGIN_ALLOW_THREADS r = paimon_row_changes_prepare_commit(rc, &m, &err);
    Py_END_ALLOW_THREADS;
  }
  paimon_row_changes_free(rc);
  if (r) return cp_py_raise(r, &err);
  return wrap_msgs(m);
}

PyMethodDef cp_py_delete_methods[] = {
    {"table_row_changes", py_row_changes, METH_VARARGS,
     "One UPDATE/DELETE/MERGE statement's row changes; returns commit messages."},
    {"table_delete_by_row_ids", py_delete_by_row_ids, METH_VARARGS,
     "Delete rows by _ROW_ID with deletion vectors; returns commit messages."},
    {"table_delete_by_predicate", py_delete_by_predicate, METH_VARARGS,
     "Delete rows matching a predicate (or drop partitions); returns commit messages."},
    {NULL, NULL, 0, NULL}};
