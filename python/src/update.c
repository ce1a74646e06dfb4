/*
 * cpaimon._cpaimon: data-evolution updates (include/cpaimon/update.h) for python/cpaimon/update.py
 * — updaters, update by row id / predicate, upsert, merge into, shard updaters. Arrow data
 * crosses as the Arrow PyCapsule interface (record batches and arrays through __arrow_c_array__,
 * streams out through cp_py_export_stream); no table logic here. Handles are PyCapsules; a
 * capsule whose C object borrows another keeps that capsule alive through its context.
 */
#include <stdlib.h>
#include <string.h>

#include "cpaimon/commit.h"
#include "cpaimon/update.h"
#include "module.h"

#define TABLE_CAPSULE "cpaimon.table"
#define MSGS_CAPSULE "cpaimon.commit_messages"
#define UPDATE_CAPSULE "cpaimon.update"
#define SHARD_CAPSULE "cpaimon.shard_updater"
#define PRED_CAPSULE "cpaimon.predicate"

typedef struct owner {
  void (*free)(void *);
  PyObject *parent;
} owner;

/* A temporary handle is often destroyed while the call that used it is returning an exception:
 * keep that exception (PyCapsule_Get* may set one of their own, which is dropped). */
static void handle_destructor(PyObject *cap) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  void *p = PyCapsule_GetPointer(cap, PyCapsule_GetName(cap));
  owner *o = PyCapsule_GetContext(cap);
  if (o) {
    if (p) o->free(p);
    Py_XDECREF(o->parent);
    PyMem_Free(o);
  }
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

static void free_update(void *p) { paimon_update_free(p); }
static void free_shard(void *p) { paimon_shard_updater_free(p); }
static void free_msgs(void *p) { paimon_commit_messages_free(p); }

/* The same shape table.c gives its handles, so both files' capsules are interchangeable. */
static PyObject *wrap(void *p, const char *name, void (*free_fn)(void *), PyObject *parent) {
  owner *o = PyMem_Malloc(sizeof *o);
  if (!o) {
    free_fn(p);
    return PyErr_NoMemory();
  }
  o->free = free_fn;
  o->parent = parent;
  Py_XINCREF(parent);
  PyObject *cap = PyCapsule_New(p, name, handle_destructor);
  if (!cap || PyCapsule_SetContext(cap, o) != 0) {
    Py_XDECREF(cap);
    free_fn(p);
    Py_XDECREF(parent);
    PyMem_Free(o);
    return NULL;
  }
  return cap;
}

static void *unwrap(PyObject *cap, const char *name) {
  if (!PyCapsule_IsValid(cap, name)) {
    PyErr_Format(PyExc_TypeError, "expected a %s handle", name);
    return NULL;
  }
  return PyCapsule_GetPointer(cap, name);
}

static PyObject *wrap_msgs(paimon_commit_messages *m) {
  return wrap(m, MSGS_CAPSULE, free_msgs, NULL);
}

#define CALL(expr)                                                                                 \
  do {                                                                                             \
    int rc_;                                                                                       \
    Py_BEGIN_ALLOW_THREADS rc_ = (expr);                                                           \
    Py_END_ALLOW_THREADS if (rc_ != 0) return cp_py_raise(rc_, &err);                              \
  } while (0)

/* An imported record batch or array (moved out of __arrow_c_array__'s capsules). */
typedef struct arrow_in {
  struct ArrowSchema schema;
  struct ArrowArray array;
} arrow_in;

static void arrow_in_release(arrow_in *a) {
  if (a->schema.release) a->schema.release(&a->schema);
  if (a->array.release) a->array.release(&a->array);
}

static int import_array(PyObject *obj, arrow_in *out) {
  memset(out, 0, sizeof *out);
  PyObject *pair = PyObject_CallMethod(obj, "__arrow_c_array__", NULL);
  if (!pair) return -1;
  PyObject *sc = NULL, *ac = NULL;
  if (!PyArg_ParseTuple(pair, "OO", &sc, &ac)) {
    Py_DECREF(pair);
    return -1;
  }
  struct ArrowSchema *s = PyCapsule_GetPointer(sc, "arrow_schema");
  struct ArrowArray *a = s ? PyCapsule_GetPointer(ac, "arrow_array") : NULL;
  if (a) {
    out->schema = *s;
    s->release = NULL;
    out->array = *a;
    a->release = NULL;
  }
  Py_DECREF(pair);
  return a ? 0 : -1;
}

/* A sequence of str as a malloc'd array of borrowed pointers (valid while `seq` lives). */
static int names(PyObject *seq, const char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (seq == Py_None) return 0;
  PyObject *fast = PySequence_Fast(seq, "expected a sequence of strings");
  if (!fast) return -1;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  const char **arr = PyMem_Malloc((size_t)(len + 1) * sizeof *arr);
  for (Py_ssize_t i = 0; arr && i < len; i++) {
    arr[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i));
    if (!arr[i]) {
      PyMem_Free(arr);
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast);
  if (!arr) {
    PyErr_NoMemory();
    return -1;
  }
  *out = arr;
  *n = (size_t)len;
  return 0;
}

static const paimon_predicate *predicate_or_null(PyObject *cap, int *failed) {
  *failed = 0;
  if (cap == Py_None) return NULL;
  const paimon_predicate *p = unwrap(cap, PRED_CAPSULE);
  if (!p) *failed = 1;
  return p;
}

/* update_new(table, update_cols|None, projection|None, snapshot_id) */
static PyObject *py_update_new(PyObject *self, PyObject *args) {
  PyObject *tcap, *cols, *proj;
  long long snapshot;
  if (!PyArg_ParseTuple(args, "OOOL", &tcap, &cols, &proj, &snapshot)) return NULL;
  paimon_table *t = unwrap(tcap, TABLE_CAPSULE);
  if (!t) return NULL;
  const char **c = NULL, **p = NULL;
  size_t nc = 0, np = 0;
  if (names(cols, &c, &nc) < 0 || names(proj, &p, &np) < 0) {
    PyMem_Free(c);
    return NULL;
  }
  paimon_error err;
  paimon_update *u = NULL;
  int rc = paimon_update_new(&u, t, &err);
  if (!rc && c) rc = paimon_update_set_update_cols(u, c, nc, &err);
  if (!rc && p) rc = paimon_update_set_read_projection(u, p, np, &err);
  if (!rc && snapshot > 0) rc = paimon_update_set_snapshot(u, snapshot, &err);
  PyMem_Free(c);
  PyMem_Free(p);
  if (rc) {
    paimon_update_free(u);
    return cp_py_raise(rc, &err);
  }
  return wrap(u, UPDATE_CAPSULE, free_update, tcap);
}

static PyObject *py_update_snapshot_id(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  return u ? PyLong_FromLongLong(paimon_update_snapshot_id(u)) : NULL;
}

/* update_by_row_id(u, record_batch) -> messages */
static PyObject *py_update_by_row_id(PyObject *self, PyObject *args) {
  PyObject *cap, *obj;
  if (!PyArg_ParseTuple(args, "OO", &cap, &obj)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  arrow_in in;
  if (!u || import_array(obj, &in) < 0) return NULL;
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_update_by_row_id(u, &in.schema, &in.array, &m, &err);
  Py_END_ALLOW_THREADS arrow_in_release(&in);
  if (rc) return cp_py_raise(rc, &err);
  return wrap_msgs(m);
}

/* update_by_predicate(u, predicate|None, [(column, array, literal)]) -> messages */
static PyObject *py_update_by_predicate(PyObject *self, PyObject *args) {
  PyObject *cap, *pcap, *seq;
  if (!PyArg_ParseTuple(args, "OOO", &cap, &pcap, &seq)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  int failed;
  const paimon_predicate *pred = u ? predicate_or_null(pcap, &failed) : NULL;
  if (!u || failed) return NULL;
  PyObject *fast = PySequence_Fast(seq, "assignments must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  paimon_assignment *a = PyMem_Calloc((size_t)n + 1, sizeof *a);
  arrow_in *ins = PyMem_Calloc((size_t)n + 1, sizeof *ins);
  int ok = a && ins;
  Py_ssize_t done = 0;
  for (; ok && done < n; done++) {
    PyObject *col, *arr;
    int literal;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, done), "OOp", &col, &arr, &literal) ||
        !(a[done].column = PyUnicode_AsUTF8(col)) || import_array(arr, &ins[done]) < 0) {
      ok = 0;
      break;
    }
    a[done].schema = &ins[done].schema;
    a[done].value = &ins[done].array;
    a[done].literal = literal;
  }
  PyObject *out = NULL;
  if (ok) {
    paimon_error err;
    paimon_commit_messages *m = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = paimon_update_by_predicate(u, pred, a, (size_t)n, &m, &err);
    Py_END_ALLOW_THREADS out = rc ? cp_py_raise(rc, &err) : wrap_msgs(m);
  } else if (!PyErr_Occurred()) {
    PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; ins && i < n; i++) arrow_in_release(&ins[i]);
  PyMem_Free(a);
  PyMem_Free(ins);
  Py_DECREF(fast);
  return out;
}

/* update_scan_matches(u, predicate|None, read_cols) -> stream */
static PyObject *py_update_scan_matches(PyObject *self, PyObject *args) {
  PyObject *cap, *pcap, *cols;
  if (!PyArg_ParseTuple(args, "OOO", &cap, &pcap, &cols)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  int failed;
  const paimon_predicate *pred = u ? predicate_or_null(pcap, &failed) : NULL;
  if (!u || failed) return NULL;
  const char **c = NULL;
  size_t nc = 0;
  if (names(cols, &c, &nc) < 0) return NULL;
  paimon_error err;
  struct ArrowArrayStream s;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_update_scan_matches(u, pred, c, nc, &s, &err);
  Py_END_ALLOW_THREADS PyMem_Free(c);
  if (rc) return cp_py_raise(rc, &err);
  return cp_py_export_stream(&s);
}

/* upsert(u, record_batch, keys) -> messages */
static PyObject *py_upsert(PyObject *self, PyObject *args) {
  PyObject *cap, *obj, *keys;
  if (!PyArg_ParseTuple(args, "OOO", &cap, &obj, &keys)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  const char **k = NULL;
  size_t nk = 0;
  if (!u || names(keys, &k, &nk) < 0) return NULL;
  arrow_in in;
  if (import_array(obj, &in) < 0) {
    PyMem_Free(k);
    return NULL;
  }
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc =
      paimon_update_upsert_by_key(u, &in.schema, &in.array, k, nk, &m, &err);
  Py_END_ALLOW_THREADS arrow_in_release(&in);
  PyMem_Free(k);
  if (rc) return cp_py_raise(rc, &err);
  return wrap_msgs(m);
}

/* ------------------------------------ merge into ------------------------------------ */

typedef struct merge_args {
  paimon_merge_clause *clauses;
  size_t n;
  paimon_merge_set **sets;
  arrow_in **lits;
  size_t *n_sets;
} merge_args;

static void merge_args_free(merge_args *a) {
  for (size_t i = 0; i < a->n; i++) {
    for (size_t k = 0; a->lits && a->lits[i] && k < a->n_sets[i]; k++)
      arrow_in_release(&a->lits[i][k]);
    if (a->sets) PyMem_Free(a->sets[i]);
    if (a->lits) PyMem_Free(a->lits[i]);
  }
  PyMem_Free(a->clauses);
  PyMem_Free(a->sets);
  PyMem_Free(a->lits);
  PyMem_Free(a->n_sets);
}

static int parse_set(PyObject *item, paimon_merge_set *s, arrow_in *lit) {
  PyObject *col, *kind, *ref, *value;
  if (!PyArg_ParseTuple(item, "OOOO", &col, &kind, &ref, &value)) return -1;
  const char *k = PyUnicode_AsUTF8(kind);
  if (!(s->column = PyUnicode_AsUTF8(col)) || !k) return -1;
  s->kind = strcmp(k, "source") == 0   ? PAIMON_MERGE_SOURCE_COL
            : strcmp(k, "target") == 0 ? PAIMON_MERGE_TARGET_COL
                                       : PAIMON_MERGE_LITERAL;
  if (ref != Py_None && !(s->ref = PyUnicode_AsUTF8(ref))) return -1;
  if (s->kind == PAIMON_MERGE_LITERAL) {
    if (import_array(value, lit) < 0) return -1;
    s->literal_schema = &lit->schema;
    s->literal = &lit->array;
  }
  return 0;
}

/* [(action, condition|None, all, [(column, kind, ref|None, literal_array|None)])] */
static int parse_clauses(PyObject *seq, merge_args *a) {
  memset(a, 0, sizeof *a);
  PyObject *fast = PySequence_Fast(seq, "clauses must be a sequence");
  if (!fast) return -1;
  a->n = (size_t)PySequence_Fast_GET_SIZE(fast);
  a->clauses = PyMem_Calloc(a->n + 1, sizeof *a->clauses);
  a->sets = PyMem_Calloc(a->n + 1, sizeof *a->sets);
  a->lits = PyMem_Calloc(a->n + 1, sizeof *a->lits);
  a->n_sets = PyMem_Calloc(a->n + 1, sizeof *a->n_sets);
  int rc = a->clauses && a->sets && a->lits && a->n_sets ? 0 : -1;
  if (rc) PyErr_NoMemory();
  for (size_t i = 0; !rc && i < a->n; i++) {
    PyObject *action, *cond, *sets;
    int all;
    paimon_merge_clause *c = &a->clauses[i];
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, (Py_ssize_t)i), "OOpO", &action, &cond,
                          &all, &sets)) {
      rc = -1;
      break;
    }
    const char *act = PyUnicode_AsUTF8(action);
    if (!act || (cond != Py_None && !(c->condition = PyUnicode_AsUTF8(cond)))) {
      rc = -1;
      break;
    }
    c->action = strcmp(act, "update") == 0   ? PAIMON_MERGE_UPDATE
                : strcmp(act, "delete") == 0 ? PAIMON_MERGE_DELETE
                                             : PAIMON_MERGE_INSERT;
    c->all = all;
    PyObject *sf = PySequence_Fast(sets, "SET spec must be a sequence");
    if (!sf) {
      rc = -1;
      break;
    }
    size_t ns = (size_t)PySequence_Fast_GET_SIZE(sf);
    a->sets[i] = PyMem_Calloc(ns + 1, sizeof **a->sets);
    a->lits[i] = PyMem_Calloc(ns + 1, sizeof **a->lits);
    a->n_sets[i] = ns;
    if (!a->sets[i] || !a->lits[i]) rc = -1;
    for (size_t k = 0; !rc && k < ns; k++)
      rc = parse_set(PySequence_Fast_GET_ITEM(sf, (Py_ssize_t)k), &a->sets[i][k], &a->lits[i][k]);
    Py_DECREF(sf);
    c->set = a->sets[i];
    c->n_set = ns;
  }
  Py_DECREF(fast);
  return rc;
}

/* merge_into(u, source_batch|None, target_on, source_on, matched, not_matched) -> messages */
static PyObject *py_merge_into(PyObject *self, PyObject *args) {
  PyObject *cap, *src, *ton, *son, *mseq, *nseq;
  if (!PyArg_ParseTuple(args, "OOOOOO", &cap, &src, &ton, &son, &mseq, &nseq)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  if (!u) return NULL;
  const char **t = NULL, **s = NULL;
  size_t nt = 0, ns = 0;
  merge_args m, n;
  memset(&m, 0, sizeof m);
  memset(&n, 0, sizeof n);
  arrow_in in;
  memset(&in, 0, sizeof in);
  PyObject *out = NULL;
  if (names(ton, &t, &nt) == 0 && names(son, &s, &ns) == 0 && parse_clauses(mseq, &m) == 0 &&
      parse_clauses(nseq, &n) == 0 && (src == Py_None || import_array(src, &in) == 0)) {
    if (nt != ns) {
      PyErr_SetString(PyExc_ValueError, "target and source 'on' columns differ in number");
    } else {
      paimon_error err;
      paimon_commit_messages *msgs = NULL;
      int rc;
      Py_BEGIN_ALLOW_THREADS rc = paimon_update_merge_into(
          u, src == Py_None ? NULL : &in.schema, src == Py_None ? NULL : &in.array, t, s, nt,
          m.clauses, m.n, n.clauses, n.n, &msgs, &err);
      Py_END_ALLOW_THREADS out = rc ? cp_py_raise(rc, &err) : wrap_msgs(msgs);
    }
  }
  arrow_in_release(&in);
  merge_args_free(&m);
  merge_args_free(&n);
  PyMem_Free(t);
  PyMem_Free(s);
  return out;
}

/* ------------------------------------ shard updater ------------------------------------ */

static PyObject *py_shard_new(PyObject *self, PyObject *args) {
  PyObject *cap;
  int shard, total;
  if (!PyArg_ParseTuple(args, "Oii", &cap, &shard, &total)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  if (!u) return NULL;
  paimon_error err;
  paimon_shard_updater *s = NULL;
  CALL(paimon_shard_updater_new(&s, u, shard, total, &err));
  return wrap(s, SHARD_CAPSULE, free_shard, cap);
}

static PyObject *py_shard_read(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_shard_updater *s = unwrap(cap, SHARD_CAPSULE);
  if (!s) return NULL;
  paimon_error err;
  struct ArrowArrayStream st;
  CALL(paimon_shard_updater_read(s, &st, &err));
  return cp_py_export_stream(&st);
}

static PyObject *py_shard_write(PyObject *self, PyObject *args) {
  PyObject *cap, *obj;
  if (!PyArg_ParseTuple(args, "OO", &cap, &obj)) return NULL;
  paimon_shard_updater *s = unwrap(cap, SHARD_CAPSULE);
  arrow_in in;
  if (!s || import_array(obj, &in) < 0) return NULL;
  paimon_error err;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_shard_updater_write(s, &in.schema, &in.array, &err);
  Py_END_ALLOW_THREADS arrow_in_release(&in);
  if (rc) return cp_py_raise(rc, &err);
  Py_RETURN_NONE;
}

static PyObject *py_shard_prepare_commit(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_shard_updater *s = unwrap(cap, SHARD_CAPSULE);
  if (!s) return NULL;
  paimon_error err;
  paimon_commit_messages *m = NULL;
  CALL(paimon_shard_updater_prepare_commit(s, &m, &err));
  return wrap_msgs(m);
}

static PyObject *py_shard_row_count(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_shard_updater *s = unwrap(cap, SHARD_CAPSULE);
  return s ? PyLong_FromLongLong(paimon_shard_updater_row_count(s)) : NULL;
}

/* update_check_assignments(u, [column]) — update_by_predicate's checks, for callers that compute
 * the values themselves. */
static PyObject *py_update_check_assignments(PyObject *self, PyObject *args) {
  PyObject *cap, *cols;
  if (!PyArg_ParseTuple(args, "OO", &cap, &cols)) return NULL;
  paimon_update *u = unwrap(cap, UPDATE_CAPSULE);
  const char **c = NULL;
  size_t n = 0;
  if (!u || names(cols, &c, &n) < 0) return NULL;
  paimon_assignment *a = PyMem_Calloc(n + 1, sizeof *a);
  if (!a) {
    PyMem_Free(c);
    return PyErr_NoMemory();
  }
  for (size_t i = 0; i < n; i++) a[i].column = c[i];
  paimon_error err;
  int rc = paimon_update_check_assignments(u, a, n, &err);
  PyMem_Free(a);
  PyMem_Free(c);
  if (rc) return cp_py_raise(rc, &err);
  Py_RETURN_NONE;
}

PyMethodDef cp_py_update_methods[] = {
    {"update_check_assignments", py_update_check_assignments, METH_VARARGS, NULL},
    {"update_new", py_update_new, METH_VARARGS, "A data-evolution updater of a table."},
    {"update_snapshot_id", py_update_snapshot_id, METH_VARARGS, NULL},
    {"update_by_row_id", py_update_by_row_id, METH_VARARGS, NULL},
    {"update_by_predicate", py_update_by_predicate, METH_VARARGS, NULL},
    {"update_scan_matches", py_update_scan_matches, METH_VARARGS, NULL},
    {"update_upsert", py_upsert, METH_VARARGS, NULL},
    {"update_merge_into", py_merge_into, METH_VARARGS, NULL},
    {"shard_new", py_shard_new, METH_VARARGS, NULL},
    {"shard_read", py_shard_read, METH_VARARGS, NULL},
    {"shard_write", py_shard_write, METH_VARARGS, NULL},
    {"shard_prepare_commit", py_shard_prepare_commit, METH_VARARGS, NULL},
    {"shard_row_count", py_shard_row_count, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};
