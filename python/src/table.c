/*
 * cpaimon._cpaimon: catalog, table, write, commit and read handles for the Python package. Handles
 * are PyCapsules; a capsule whose C object borrows another (a table borrows its catalog, a write
 * its table) keeps that capsule alive through its context, so Python's garbage collection can free
 * them in any order. C work runs with the GIL released.
 */
#include <stdlib.h>
#include <string.h>

#include "cpaimon/catalog.h"
#include "cpaimon/commit.h"
#include "cpaimon/compact.h"
#include "cpaimon/history.h"
#include "cpaimon/predicate.h"
#include "cpaimon/read.h"
#include "cpaimon/types.h"
#include "cpaimon/write.h"
#include "module.h"

/* ------------------------------------ handles ------------------------------------ */

typedef void (*free_fn)(void *);

typedef struct handle_kind {
  const char *name;
  free_fn free;
} handle_kind;

static void free_catalog(void *p) { paimon_catalog_free(p); }
static void free_table(void *p) { paimon_table_free(p); }
static void free_write(void *p) { paimon_write_free(p); }
static void free_msgs(void *p) { paimon_commit_messages_free(p); }
static void free_commit(void *p) { paimon_commit_free(p); }
static void free_rb(void *p) { paimon_read_builder_free(p); }
static void free_plan(void *p) { paimon_plan_free(p); }

static const handle_kind K_CATALOG = {"cpaimon.catalog", free_catalog};
static const handle_kind K_TABLE = {"cpaimon.table", free_table};
static const handle_kind K_WRITE = {"cpaimon.write", free_write};
static const handle_kind K_MSGS = {"cpaimon.commit_messages", free_msgs};
static const handle_kind K_COMMIT = {"cpaimon.commit", free_commit};
static const handle_kind K_RB = {"cpaimon.read_builder", free_rb};
static const handle_kind K_PLAN = {"cpaimon.plan", free_plan};

typedef struct handle_ctx {
  free_fn free;
  PyObject *parent; /* kept alive while this handle lives */
} handle_ctx;

static void capsule_destructor(PyObject *cap) {
  /* May run while an exception is propagating: keep it intact. */
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  const char *name = PyCapsule_GetName(cap);
  void *p = PyCapsule_GetPointer(cap, name);
  handle_ctx *ctx = PyCapsule_GetContext(cap);
  if (ctx) {
    /* Freeing may do I/O (a writer deletes files it never handed out; a reader waits for its
     * requests in flight), which must not hold the GIL: another Python thread may be the one
     * serving that I/O. */
    if (p) {
      Py_BEGIN_ALLOW_THREADS ctx->free(p);
      Py_END_ALLOW_THREADS
    }
    Py_XDECREF(ctx->parent);
    PyMem_Free(ctx);
  }
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

static PyObject *wrap(void *p, const handle_kind *k, PyObject *parent) {
  handle_ctx *ctx = PyMem_Malloc(sizeof *ctx);
  if (!ctx) {
    k->free(p);
    return PyErr_NoMemory();
  }
  ctx->free = k->free;
  ctx->parent = parent;
  Py_XINCREF(parent);
  PyObject *cap = PyCapsule_New(p, k->name, capsule_destructor);
  if (!cap || PyCapsule_SetContext(cap, ctx) != 0) {
    Py_XDECREF(cap);
    k->free(p);
    Py_XDECREF(parent);
    PyMem_Free(ctx);
    return NULL;
  }
  return cap;
}

static void *unwrap(PyObject *cap, const handle_kind *k) {
  if (!PyCapsule_IsValid(cap, k->name)) {
    PyErr_Format(PyExc_TypeError, "expected a %s handle", k->name);
    return NULL;
  }
  return PyCapsule_GetPointer(cap, k->name);
}

#define CALL(expr)                                                                                 \
  do {                                                                                             \
    int rc_;                                                                                       \
    Py_BEGIN_ALLOW_THREADS rc_ = (expr);                                                           \
    Py_END_ALLOW_THREADS if (rc_ != 0) return cp_py_raise(rc_, &err);                              \
  } while (0)

/* A list/tuple of str into a malloc'd array of borrowed UTF-8 pointers (valid while `seq` lives).
 */
static int string_array(PyObject *seq, const char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (seq == Py_None) return 0;
  PyObject *fast = PySequence_Fast(seq, "expected a sequence of strings");
  if (!fast) return -1;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  const char **arr = PyMem_Malloc((size_t)(len ? len : 1) * sizeof *arr);
  if (!arr) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    arr[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i));
    if (!arr[i]) {
      PyMem_Free(arr);
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast); /* items are owned by `seq` */
  *out = arr;
  *n = (size_t)len;
  return 0;
}

static PyObject *string_list_to_py(paimon_string_list *l) {
  PyObject *out = PyList_New((Py_ssize_t)l->count);
  for (size_t i = 0; out && i < l->count; i++) {
    PyObject *s = PyUnicode_FromString(l->items[i]);
    if (!s) {
      Py_CLEAR(out);
      break;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)i, s);
  }
  paimon_string_list_free(l);
  return out;
}

/* ------------------------------------ catalog ------------------------------------ */

/* catalog_open({key: value, ...}): every value as str. */
/* None after a successful call, else the error raised (NULL). */
static PyObject *none_or_raise(int rc, const paimon_error *err) {
  return rc ? cp_py_raise(rc, err) : Py_NewRef(Py_None);
}

static PyObject *py_catalog_open(PyObject *self, PyObject *args) {
  PyObject *options;
  if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &options)) return NULL;
  const char **keys = NULL, **values = NULL;
  size_t n = 0;
  PyObject *result = NULL;
  if (cp_py_dict_pairs(options, "catalog options", &keys, &values, &n)) {
    paimon_error err;
    paimon_catalog *c = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = paimon_catalog_open_options(&c, keys, values, n, &err);
    Py_END_ALLOW_THREADS if (rc == 0) result = wrap(c, &K_CATALOG, NULL);
    else cp_py_raise(rc, &err);
  }
  PyMem_Free(keys);
  PyMem_Free(values);
  return result;
}

static PyObject *py_catalog_warehouse(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  return PyUnicode_FromString(paimon_catalog_warehouse(c));
}

static PyObject *py_create_database(PyObject *self, PyObject *args) {
  PyObject *cap, *props;
  const char *name;
  int ignore;
  if (!PyArg_ParseTuple(args, "OspO!", &cap, &name, &ignore, &PyDict_Type, &props)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  const char **keys = NULL, **values = NULL;
  size_t n = 0;
  PyObject *result = NULL;
  if (cp_py_dict_pairs(props, "database properties", &keys, &values, &n)) {
    paimon_error err;
    int rc;
    /* without the GIL: a store may be served by a thread of this process (the tests' proxy) */
    Py_BEGIN_ALLOW_THREADS rc =
        paimon_catalog_create_database_options(c, name, ignore, keys, values, n, &err);
    Py_END_ALLOW_THREADS result = none_or_raise(rc, &err);
  }
  PyMem_Free(keys);
  PyMem_Free(values);
  return result;
}

/* (name, comment or None, {options}) */
static PyObject *py_get_database(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *name;
  if (!PyArg_ParseTuple(args, "Os", &cap, &name)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  paimon_database db;
  CALL(paimon_catalog_get_database(c, name, &db, &err));
  PyObject *opts = PyDict_New();
  for (size_t i = 0; opts && i < db.n_options; i++) {
    PyObject *v = PyUnicode_FromString(db.option_values[i]);
    if (!v || PyDict_SetItemString(opts, db.option_keys[i], v) < 0) Py_CLEAR(opts);
    Py_XDECREF(v);
  }
  PyObject *out = opts ? Py_BuildValue("(szN)", db.name, db.comment, opts) : NULL;
  paimon_database_free(&db);
  return out;
}

/* changes: [(key, value or None)] */
static PyObject *py_alter_database(PyObject *self, PyObject *args) {
  PyObject *cap, *changes;
  const char *name;
  int ignore;
  if (!PyArg_ParseTuple(args, "OsOp", &cap, &name, &changes, &ignore)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  PyObject *fast = PySequence_Fast(changes, "changes must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  paimon_property_change *ch = PyMem_Calloc(n ? (size_t)n : 1, sizeof *ch);
  bool ok = ch != NULL;
  if (!ok) PyErr_NoMemory();
  for (Py_ssize_t i = 0; ok && i < n; i++)
    ok = PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "sz", &ch[i].key, &ch[i].value);
  PyObject *result = NULL;
  if (ok) {
    paimon_error err;
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = paimon_catalog_alter_database(c, name, ch, (size_t)n, ignore, &err);
    Py_END_ALLOW_THREADS result = none_or_raise(rc, &err);
  }
  PyMem_Free(ch);
  Py_DECREF(fast);
  return result;
}

static PyObject *py_drop_database(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *name;
  int ignore, cascade;
  if (!PyArg_ParseTuple(args, "Ospp", &cap, &name, &ignore, &cascade)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  CALL(paimon_catalog_drop_database(c, name, ignore, cascade, &err));
  Py_RETURN_NONE;
}

static PyObject *py_list_databases(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  paimon_string_list l;
  CALL(paimon_catalog_list_databases(c, &l, &err));
  return string_list_to_py(&l);
}

static PyObject *py_list_tables(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *db;
  if (!PyArg_ParseTuple(args, "Os", &cap, &db)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  paimon_string_list l;
  CALL(paimon_catalog_list_tables(c, db, &l, &err));
  return string_list_to_py(&l);
}

/* [(spec dict, record_count, file_size_in_bytes, file_count, last_file_creation_time or None,
 *   done)] */
static PyObject *py_list_partitions(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *ident;
  if (!PyArg_ParseTuple(args, "Os", &cap, &ident)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  paimon_partition_list l;
  CALL(paimon_catalog_list_partitions(c, ident, &l, &err));
  PyObject *out = PyList_New(0);
  for (size_t i = 0; out && i < l.count; i++) {
    const paimon_partition *p = &l.items[i];
    PyObject *spec = PyDict_New();
    for (size_t k = 0; spec && k < p->n_spec; k++) {
      PyObject *v = PyUnicode_FromString(p->spec_values[k]);
      if (!v || PyDict_SetItemString(spec, p->spec_keys[k], v) < 0) Py_CLEAR(spec);
      Py_XDECREF(v);
    }
    PyObject *when = p->last_file_creation_time < 0
                         ? Py_NewRef(Py_None)
                         : PyLong_FromLongLong(p->last_file_creation_time);
    PyObject *item = spec && when
                         ? Py_BuildValue("(OLLLNO)", spec, (long long)p->record_count,
                                         (long long)p->file_size_in_bytes, (long long)p->file_count,
                                         when, p->done ? Py_True : Py_False)
                         : NULL;
    if (!spec) Py_XDECREF(when); /* Py_BuildValue owns `when` ("N") once called */
    Py_XDECREF(spec);
    if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
    Py_XDECREF(item);
  }
  paimon_partition_list_free(&l);
  return out;
}

/* fields: list of (id or None, name, type_sql, description or None). */
static int fill_schema(paimon_schema *s, PyObject *fields, PyObject *partition_keys,
                       PyObject *primary_keys, PyObject *options, PyObject *comment,
                       paimon_error *err) {
  PyObject *fast = PySequence_Fast(fields, "fields must be a sequence");
  if (!fast) return -2;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
    PyObject *id, *desc;
    const char *name, *type;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "OssO", &id, &name, &type, &desc)) {
      Py_DECREF(fast);
      return -2;
    }
    const char *d = desc == Py_None ? NULL : PyUnicode_AsUTF8(desc);
    int rc = id == Py_None
                 ? paimon_schema_add_column(s, name, type, d, err)
                 : paimon_schema_add_field(s, (int32_t)PyLong_AsLong(id), name, type, d, err);
    if (rc) {
      Py_DECREF(fast);
      return rc;
    }
  }
  Py_DECREF(fast);
  const char **keys;
  size_t n;
  if (string_array(partition_keys, &keys, &n) < 0) return -2;
  int rc = paimon_schema_set_partition_keys(s, keys, n, err);
  PyMem_Free(keys);
  if (rc) return rc;
  if (string_array(primary_keys, &keys, &n) < 0) return -2;
  rc = paimon_schema_set_primary_keys(s, keys, n, err);
  PyMem_Free(keys);
  if (rc) return rc;
  if (options != Py_None) {
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(options, &pos, &k, &v)) {
      PyObject *ks = PyObject_Str(k), *vs = PyObject_Str(v);
      if (!ks || !vs) {
        Py_XDECREF(ks);
        Py_XDECREF(vs);
        return -2;
      }
      rc = paimon_schema_set_option(s, PyUnicode_AsUTF8(ks), PyUnicode_AsUTF8(vs), err);
      Py_DECREF(ks);
      Py_DECREF(vs);
      if (rc) return rc;
    }
  }
  if (comment != Py_None) return paimon_schema_set_comment(s, PyUnicode_AsUTF8(comment), err);
  return 0;
}

static PyObject *py_create_table(PyObject *self, PyObject *args) {
  PyObject *cap, *fields, *pkeys, *prkeys, *options, *comment;
  const char *ident;
  int ignore;
  if (!PyArg_ParseTuple(args, "OsOOOOOp", &cap, &ident, &fields, &pkeys, &prkeys, &options,
                        &comment, &ignore))
    return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  paimon_schema *s = NULL;
  CALL(paimon_schema_new(&s, &err));
  int rc = fill_schema(s, fields, pkeys, prkeys, options, comment, &err);
  if (rc == 0) {
    Py_BEGIN_ALLOW_THREADS rc = paimon_catalog_create_table(c, ident, s, ignore, &err);
    Py_END_ALLOW_THREADS
  }
  paimon_schema_free(s);
  if (rc == -2) return NULL;
  if (rc) return cp_py_raise(rc, &err);
  Py_RETURN_NONE;
}

static PyObject *py_get_table(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *ident;
  if (!PyArg_ParseTuple(args, "Os", &cap, &ident)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  paimon_table *t = NULL;
  CALL(paimon_catalog_get_table(c, ident, &t, &err));
  return wrap(t, &K_TABLE, cap);
}

static PyObject *py_drop_table(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *ident;
  int ignore;
  if (!PyArg_ParseTuple(args, "Osp", &cap, &ident, &ignore)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  CALL(paimon_catalog_drop_table(c, ident, ignore, &err));
  Py_RETURN_NONE;
}

static PyObject *py_rename_table(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *from, *to;
  int ignore;
  if (!PyArg_ParseTuple(args, "Ossp", &cap, &from, &to, &ignore)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  paimon_error err;
  CALL(paimon_catalog_rename_table(c, from, to, ignore, &err));
  Py_RETURN_NONE;
}

static const struct {
  const char *name;
  paimon_schema_change_kind kind;
} change_kinds[] = {{"set_option", PAIMON_SET_OPTION},
                    {"remove_option", PAIMON_REMOVE_OPTION},
                    {"add_column", PAIMON_ADD_COLUMN},
                    {"rename_column", PAIMON_RENAME_COLUMN},
                    {"drop_column", PAIMON_DROP_COLUMN},
                    {"update_comment", PAIMON_UPDATE_COMMENT},
                    {"update_column_comment", PAIMON_UPDATE_COLUMN_COMMENT},
                    {"update_column_type", PAIMON_UPDATE_COLUMN_TYPE},
                    {"update_column_nullability", PAIMON_UPDATE_COLUMN_NULLABILITY},
                    {"update_column_position", PAIMON_UPDATE_COLUMN_POSITION}};

static const char *opt_str(PyObject *o) { return o == Py_None ? NULL : PyUnicode_AsUTF8(o); }

/* The path of a nested column (a sequence of str, or None) as an array of borrowed strings in
 * `paths` (PyMem_Malloc'ed; the caller frees it), kept alive by the change tuples. */
static int change_path(PyObject *path, const char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (path == Py_None) return 0;
  PyObject *fast = PySequence_Fast(path, "a column path must be a sequence of str");
  if (!fast) return -1;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
  const char **names = PyMem_Calloc((size_t)(k ? k : 1), sizeof *names);
  int rc = names ? 0 : (PyErr_NoMemory(), -1);
  for (Py_ssize_t i = 0; rc == 0 && i < k; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
    names[i] = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
    if (!names[i]) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "column path names must be str");
      rc = -1;
    }
  }
  Py_DECREF(fast); /* the items stay alive in `path` (a tuple the change holds) */
  if (rc) {
    PyMem_Free(names);
    return -1;
  }
  *out = names;
  *n = (size_t)k;
  return 0;
}

/* changes: list of (kind, name, value, type, comment[, reference[, path]]). */
static PyObject *py_alter_table(PyObject *self, PyObject *args) {
  PyObject *cap, *changes;
  const char *ident;
  int ignore;
  if (!PyArg_ParseTuple(args, "OsOp", &cap, &ident, &changes, &ignore)) return NULL;
  paimon_catalog *c = unwrap(cap, &K_CATALOG);
  if (!c) return NULL;
  PyObject *fast = PySequence_Fast(changes, "changes must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  paimon_schema_change *arr = PyMem_Calloc((size_t)(n ? n : 1), sizeof *arr);
  const char ***paths = PyMem_Calloc((size_t)(n ? n : 1), sizeof *paths);
  PyObject *result = NULL;
  if (!arr || !paths) {
    PyErr_NoMemory();
    goto fail;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    const char *kind;
    PyObject *name, *value, *type, *comment, *reference = Py_None, *path = Py_None;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "sOOOO|OO", &kind, &name, &value,
                          &type, &comment, &reference, &path))
      goto fail;
    size_t k = 0;
    while (k < sizeof change_kinds / sizeof change_kinds[0] && strcmp(change_kinds[k].name, kind))
      k++;
    if (k == sizeof change_kinds / sizeof change_kinds[0]) {
      PyErr_Format(PyExc_ValueError, "unknown schema change '%s'", kind);
      goto fail;
    }
    size_t n_path = 0;
    if (change_path(path, &paths[i], &n_path) != 0) goto fail;
    arr[i] = (paimon_schema_change){
        change_kinds[k].kind, opt_str(name),      opt_str(value), opt_str(type),
        opt_str(comment),     opt_str(reference), paths[i],       n_path};
    if (PyErr_Occurred()) goto fail;
  }
  paimon_error err;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_catalog_alter_table(c, ident, arr, (size_t)n, ignore, &err);
  Py_END_ALLOW_THREADS if (rc) cp_py_raise(rc, &err);
  else result = Py_NewRef(Py_None);
fail:
  for (Py_ssize_t i = 0; paths && i < n; i++) PyMem_Free(paths[i]);
  PyMem_Free(paths);
  PyMem_Free(arr);
  Py_DECREF(fast);
  return result;
}

/* ------------------------------------ table ------------------------------------ */

static void schema_capsule_destructor(PyObject *cap) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  struct ArrowSchema *s = PyCapsule_GetPointer(cap, "arrow_schema");
  if (s) {
    if (s->release) s->release(s);
    PyMem_Free(s);
  }
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

/* Wraps an ArrowSchema (moved) as an "arrow_schema" PyCapsule (pa.Schema._import_from_c_capsule).
 */
static PyObject *schema_capsule(struct ArrowSchema *schema) {
  struct ArrowSchema *s = PyMem_Malloc(sizeof *s);
  if (!s) {
    schema->release(schema);
    return PyErr_NoMemory();
  }
  *s = *schema;
  schema->release = NULL;
  PyObject *cap = PyCapsule_New(s, "arrow_schema", schema_capsule_destructor);
  if (!cap) {
    s->release(s);
    PyMem_Free(s);
  }
  return cap;
}

static PyObject *py_table_info(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  char *json = NULL;
  CALL(paimon_table_schema_json(t, &json, &err));
  PyObject *keys = PyList_New(0);
  for (size_t i = 0; keys && i < paimon_table_partition_key_count(t); i++) {
    PyObject *k = PyUnicode_FromString(paimon_table_partition_key(t, i));
    if (!k || PyList_Append(keys, k) < 0) Py_CLEAR(keys);
    Py_XDECREF(k);
  }
  PyObject *out =
      keys ? Py_BuildValue("{s:s,s:s,s:L,s:s,s:O}", "name", paimon_table_name(t), "path",
                           paimon_table_path(t), "schema_id", (long long)paimon_table_schema_id(t),
                           "schema_json", json, "partition_keys", keys)
           : NULL;
  Py_XDECREF(keys);
  free(json);
  return out;
}

static PyObject *py_table_arrow_schema(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  struct ArrowSchema s;
  CALL(paimon_table_arrow_schema(t, &s, &err));
  return schema_capsule(&s);
}

static PyObject *py_table_latest_snapshot(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  int64_t id = 0;
  CALL(paimon_table_latest_snapshot_id(t, &id, &err));
  return PyLong_FromLongLong(id);
}

/* ------------------------------------ tags and rollback ------------------------------------ */

/* table_create_tag(t, name, snapshot_id (<= 0: latest), retained_ms (< 0: none), ignore) */
static PyObject *py_create_tag(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *name;
  long long id, retained;
  int ignore;
  if (!PyArg_ParseTuple(args, "OsLLp", &cap, &name, &id, &retained, &ignore)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  CALL(paimon_table_create_tag(t, name, id, retained, ignore, &err));
  Py_RETURN_NONE;
}

static PyObject *py_replace_tag(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *name;
  long long id, retained;
  if (!PyArg_ParseTuple(args, "OsLL", &cap, &name, &id, &retained)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  CALL(paimon_table_replace_tag(t, name, id, retained, &err));
  Py_RETURN_NONE;
}

static PyObject *py_delete_tag(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *name;
  if (!PyArg_ParseTuple(args, "Os", &cap, &name)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  bool existed = false;
  CALL(paimon_table_delete_tag(t, name, &existed, &err));
  return PyBool_FromLong(existed);
}

static PyObject *py_rename_tag(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *from, *to;
  if (!PyArg_ParseTuple(args, "Oss", &cap, &from, &to)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  CALL(paimon_table_rename_tag(t, from, to, &err));
  Py_RETURN_NONE;
}

/* table_list_tags(t) -> [(name, snapshot_id, schema_id, commit_ms, records, created_ms | None,
 * retained_ms | None)] ordered by snapshot id, then name. */
static PyObject *py_list_tags(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  paimon_tag_list tags;
  CALL(paimon_table_list_tags(t, &tags, &err));
  PyObject *out = PyList_New(0);
  for (size_t i = 0; out && i < tags.count; i++) {
    const paimon_tag *g = &tags.items[i];
    PyObject *created =
        g->has_create_time ? PyLong_FromLongLong(g->create_time_millis) : Py_NewRef(Py_None);
    PyObject *retained =
        g->has_time_retained ? PyLong_FromLongLong(g->time_retained_millis) : Py_NewRef(Py_None);
    PyObject *row = created && retained
                        ? Py_BuildValue("(sLLLLOO)", g->name, (long long)g->snapshot_id,
                                        (long long)g->schema_id, (long long)g->commit_time_millis,
                                        (long long)g->record_count, created, retained)
                        : NULL;
    Py_XDECREF(created);
    Py_XDECREF(retained);
    if (!row || PyList_Append(out, row) < 0) Py_CLEAR(out);
    Py_XDECREF(row);
  }
  paimon_tag_list_free(&tags);
  return out;
}

/* table_rollback(t, snapshot id | tag name) */
static PyObject *py_rollback(PyObject *self, PyObject *args) {
  PyObject *cap, *target;
  if (!PyArg_ParseTuple(args, "OO", &cap, &target)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  if (PyUnicode_Check(target)) {
    const char *name = PyUnicode_AsUTF8(target);
    if (!name) return NULL;
    CALL(paimon_table_rollback_to_tag(t, name, &err));
  } else {
    long long id = PyLong_AsLongLong(target);
    if (id == -1 && PyErr_Occurred()) return NULL;
    CALL(paimon_table_rollback_to(t, id, &err));
  }
  Py_RETURN_NONE;
}

/* table_rollback_to_as_latest(t, snapshot id | tag name) */
static PyObject *py_rollback_as_latest(PyObject *self, PyObject *args) {
  PyObject *cap, *target;
  if (!PyArg_ParseTuple(args, "OO", &cap, &target)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  const char *tag = NULL;
  long long id = 0;
  if (PyUnicode_Check(target)) {
    if (!(tag = PyUnicode_AsUTF8(target))) return NULL;
  } else if ((id = PyLong_AsLongLong(target)) == -1 && PyErr_Occurred()) {
    return NULL;
  }
  CALL(paimon_table_rollback_to_as_latest(t, id, tag, &err));
  Py_RETURN_NONE;
}

static PyObject *py_rollback_to_timestamp(PyObject *self, PyObject *args) {
  PyObject *cap;
  long long ms;
  if (!PyArg_ParseTuple(args, "OL", &cap, &ms)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  CALL(paimon_table_rollback_to_timestamp(t, ms, &err));
  Py_RETURN_NONE;
}

/* table_expire_snapshots(t, retain_max, retain_min, older_than_ms, max_deletes) (0: the table's
 * option) -> (snapshots, data files, metadata files) deleted */
static PyObject *py_expire_snapshots(PyObject *self, PyObject *args) {
  PyObject *cap;
  int retain_max, retain_min, max_deletes;
  long long older_than;
  if (!PyArg_ParseTuple(args, "OiiLi", &cap, &retain_max, &retain_min, &older_than, &max_deletes))
    return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  paimon_expire_options o = {retain_max, retain_min, older_than, max_deletes};
  paimon_expire_result r;
  CALL(paimon_table_expire_snapshots(t, &o, &r, &err));
  return Py_BuildValue("(LLL)", (long long)r.snapshots, (long long)r.data_files,
                       (long long)r.metadata_files);
}

/* table_remove_orphan_files(t, older_than_ms (<= 0: a day ago), dry_run) -> (files, bytes,
 * [paths]) */
static PyObject *py_remove_orphan_files(PyObject *self, PyObject *args) {
  PyObject *cap;
  long long older_than;
  int dry_run;
  if (!PyArg_ParseTuple(args, "OLp", &cap, &older_than, &dry_run)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  paimon_orphan_result r;
  paimon_string_list paths;
  CALL(paimon_table_remove_orphan_files(t, older_than, dry_run, &r, &paths, &err));
  PyObject *list = PyList_New(0);
  for (size_t i = 0; list && i < paths.count; i++) {
    PyObject *p = PyUnicode_FromString(paths.items[i]);
    if (!p || PyList_Append(list, p) < 0) Py_CLEAR(list);
    Py_XDECREF(p);
  }
  paimon_string_list_free(&paths);
  if (!list) return NULL;
  PyObject *out = Py_BuildValue("(LLO)", (long long)r.files, (long long)r.bytes, list);
  Py_DECREF(list);
  return out;
}

/* table_compact(t, partition_predicate|None, option_keys|None, option_values|None, commit)
 * -> (snapshot id, tasks, files before, files after, rows, messages|None); with commit false
 * nothing is committed and the messages come back for a later commit. */
static PyObject *py_compact(PyObject *self, PyObject *args) {
  PyObject *cap, *pcap, *keys_obj, *values_obj;
  int commit;
  if (!PyArg_ParseTuple(args, "OOOOp", &cap, &pcap, &keys_obj, &values_obj, &commit)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  const paimon_predicate *pred = NULL;
  if (pcap != Py_None && !(pred = PyCapsule_GetPointer(pcap, "cpaimon.predicate"))) return NULL;
  const char **keys = NULL, **values = NULL;
  size_t nk = 0, nv = 0;
  if (string_array(keys_obj, &keys, &nk) < 0) return NULL;
  if (string_array(values_obj, &values, &nv) < 0) {
    PyMem_Free(keys);
    return NULL;
  }
  paimon_compact_options o = {pred, keys, values, nk < nv ? nk : nv};
  paimon_compact_result r;
  paimon_commit_messages *msgs = NULL;
  paimon_error err;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc =
      commit ? paimon_table_compact(t, &o, &r, &err) : paimon_commit_messages_new(&msgs, &err);
  if (!rc && !commit) rc = paimon_table_compact_prepare(t, &o, msgs, &r, &err);
  Py_END_ALLOW_THREADS PyMem_Free(keys);
  PyMem_Free(values);
  if (rc) {
    paimon_commit_messages_free(msgs);
    return cp_py_raise(rc, &err);
  }
  PyObject *m = Py_None;
  if (msgs && !(m = wrap(msgs, &K_MSGS, NULL))) return NULL;
  if (!msgs) Py_INCREF(Py_None);
  PyObject *out =
      Py_BuildValue("(LLLLLO)", (long long)r.snapshot_id, (long long)r.tasks,
                    (long long)r.files_before, (long long)r.files_after, (long long)r.rows, m);
  Py_DECREF(m);
  return out;
}

static PyObject *py_parse_duration(PyObject *self, PyObject *args) {
  const char *text;
  if (!PyArg_ParseTuple(args, "s", &text)) return NULL;
  paimon_error err;
  int64_t ms = 0;
  CALL(paimon_parse_duration(text, &ms, &err));
  return PyLong_FromLongLong(ms);
}

/* ------------------------------------ write / commit ------------------------------------ */

static PyObject *py_write_new(PyObject *self, PyObject *args) {
  PyObject *cap, *cols;
  if (!PyArg_ParseTuple(args, "OO", &cap, &cols)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  const char **names;
  size_t n;
  if (string_array(cols, &names, &n) < 0) return NULL;
  paimon_error err;
  paimon_write *w = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_write_new(&w, t, cols == Py_None ? NULL : names, n, &err);
  Py_END_ALLOW_THREADS PyMem_Free(names);
  if (rc) return cp_py_raise(rc, &err);
  return wrap(w, &K_WRITE, cap);
}

static PyObject *py_write_arrow(PyObject *self, PyObject *args) {
  PyObject *cap, *data;
  if (!PyArg_ParseTuple(args, "OO", &cap, &data)) return NULL;
  paimon_write *w = unwrap(cap, &K_WRITE);
  if (!w) return NULL;
  struct ArrowArrayStream stream;
  if (cp_py_import_stream(data, &stream) < 0) return NULL;
  paimon_error err;
  CALL(paimon_write_stream(w, &stream, &err));
  Py_RETURN_NONE;
}

static PyObject *py_write_prepare_commit(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_write *w = unwrap(cap, &K_WRITE);
  if (!w) return NULL;
  paimon_error err;
  paimon_commit_messages *m = NULL;
  CALL(paimon_write_prepare_commit(w, &m, &err));
  return wrap(m, &K_MSGS, NULL);
}

static PyObject *py_write_abort(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_write *w = unwrap(cap, &K_WRITE);
  if (!w) return NULL;
  paimon_error err;
  CALL(paimon_write_abort(w, &err));
  Py_RETURN_NONE;
}

static PyObject *py_messages_info(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_commit_messages *m = unwrap(cap, &K_MSGS);
  if (!m) return NULL;
  return Py_BuildValue("(nn)", (Py_ssize_t)paimon_commit_messages_count(m),
                       (Py_ssize_t)paimon_commit_messages_new_file_count(m));
}

/* messages_files(handle) -> [(message, bucket, file_name, file_size, row_count, schema_id,
 *   min_seq, max_seq, first_row_id or None, write_cols or None)] */
static PyObject *py_messages_files(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_commit_messages *m = unwrap(cap, &K_MSGS);
  if (!m) return NULL;
  size_t n = paimon_commit_messages_new_file_count(m);
  PyObject *out = PyList_New(0);
  for (size_t i = 0; out && i < n; i++) {
    paimon_error err;
    paimon_data_file_info f;
    int rc = paimon_commit_messages_new_file(m, i, &f, &err);
    if (rc) {
      Py_DECREF(out);
      return cp_py_raise(rc, &err);
    }
    PyObject *cols = Py_NewRef(Py_None);
    if (f.write_cols) {
      Py_DECREF(cols);
      cols = PyList_New(0);
      for (size_t k = 0; cols && k < f.n_write_cols; k++) {
        PyObject *s = PyUnicode_FromString(f.write_cols[k]);
        if (!s || PyList_Append(cols, s) < 0) Py_CLEAR(cols);
        Py_XDECREF(s);
      }
    }
    PyObject *first = f.first_row_id < 0 ? Py_NewRef(Py_None) : PyLong_FromLongLong(f.first_row_id);
    PyObject *item =
        cols && first ? Py_BuildValue("(nisLLLLLNN)", (Py_ssize_t)f.message, (int)f.bucket,
                                      f.file_name, (long long)f.file_size, (long long)f.row_count,
                                      (long long)f.schema_id, (long long)f.min_sequence_number,
                                      (long long)f.max_sequence_number, first, cols)
                      : NULL;
    if (!cols || !first) {
      Py_XDECREF(cols);
      Py_XDECREF(first);
    }
    if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
    Py_XDECREF(item);
  }
  return out;
}

static PyObject *py_messages_serialize(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_commit_messages *m = unwrap(cap, &K_MSGS);
  if (!m) return NULL;
  paimon_error err;
  uint8_t *bytes = NULL;
  size_t len = 0;
  CALL(paimon_commit_messages_serialize(m, &bytes, &len, &err));
  PyObject *out = PyBytes_FromStringAndSize((const char *)bytes, (Py_ssize_t)len);
  free(bytes);
  return out;
}

static PyObject *py_messages_deserialize(PyObject *self, PyObject *args) {
  Py_buffer buf;
  if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
  paimon_error err;
  paimon_commit_messages *m = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc =
      paimon_commit_messages_deserialize(&m, buf.buf, (size_t)buf.len, &err);
  Py_END_ALLOW_THREADS PyBuffer_Release(&buf);
  if (rc) return cp_py_raise(rc, &err);
  return wrap(m, &K_MSGS, NULL);
}

/* Merges a sequence of message handles into one (copies). */
static PyObject *py_messages_merge(PyObject *self, PyObject *args) {
  PyObject *seq;
  if (!PyArg_ParseTuple(args, "O", &seq)) return NULL;
  PyObject *fast = PySequence_Fast(seq, "expected a sequence of commit messages");
  if (!fast) return NULL;
  paimon_error err;
  paimon_commit_messages *all = NULL;
  int rc = paimon_commit_messages_new(&all, &err);
  for (Py_ssize_t i = 0; !rc && i < PySequence_Fast_GET_SIZE(fast); i++) {
    paimon_commit_messages *m = unwrap(PySequence_Fast_GET_ITEM(fast, i), &K_MSGS);
    if (!m) {
      Py_DECREF(fast);
      paimon_commit_messages_free(all);
      return NULL;
    }
    rc = paimon_commit_messages_append(all, m, &err);
  }
  Py_DECREF(fast);
  if (rc) {
    paimon_commit_messages_free(all);
    return cp_py_raise(rc, &err);
  }
  return wrap(all, &K_MSGS, NULL);
}

static PyObject *py_commit_new(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  paimon_commit *c = NULL;
  CALL(paimon_commit_new(&c, t, &err));
  return wrap(c, &K_COMMIT, cap);
}

static PyObject *py_commit_commit(PyObject *self, PyObject *args) {
  PyObject *cap, *mcap;
  int abort_on_error = 0;
  if (!PyArg_ParseTuple(args, "OO|p", &cap, &mcap, &abort_on_error)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  paimon_commit_messages *m = c ? unwrap(mcap, &K_MSGS) : NULL;
  if (!m) return NULL;
  paimon_error err;
  CALL(paimon_commit_commit(c, m, &err));
  return PyLong_FromLongLong(paimon_commit_last_snapshot_id(c));
}

/* (committed, last snapshot id) */
static PyObject *py_commit_identified(PyObject *self, PyObject *args) {
  PyObject *cap, *mcap;
  long long identifier;
  if (!PyArg_ParseTuple(args, "OOL", &cap, &mcap, &identifier)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  paimon_commit_messages *m = c ? unwrap(mcap, &K_MSGS) : NULL;
  if (!m) return NULL;
  paimon_error err;
  bool committed = false;
  CALL(paimon_commit_commit_identified(c, m, identifier, &committed, &err));
  return Py_BuildValue("(OL)", committed ? Py_True : Py_False,
                       (long long)paimon_commit_last_snapshot_id(c));
}

/* user or None: get (and set when given) the commit user */
static PyObject *py_commit_user(PyObject *self, PyObject *args) {
  PyObject *cap;
  const char *user = NULL;
  if (!PyArg_ParseTuple(args, "O|z", &cap, &user)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  if (!c) return NULL;
  paimon_error err;
  if (user) CALL(paimon_commit_set_user(c, user, &err));
  return PyUnicode_FromString(paimon_commit_user(c));
}

/* commit_properties(commit, keys, values): the snapshot properties of the next commits */
static PyObject *py_commit_properties(PyObject *self, PyObject *args) {
  PyObject *cap, *keys, *values;
  if (!PyArg_ParseTuple(args, "OOO", &cap, &keys, &values)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  if (!c) return NULL;
  const char **k = NULL, **v = NULL;
  size_t nk = 0, nv = 0;
  if (string_array(keys, &k, &nk) != 0) return NULL;
  if (string_array(values, &v, &nv) != 0 || nk != nv) {
    PyMem_Free(k);
    PyMem_Free(v);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "keys and values differ in length");
    return NULL;
  }
  paimon_error err;
  int rc = paimon_commit_set_properties(c, k, v, nk, &err);
  PyMem_Free(k);
  PyMem_Free(v);
  if (rc) return cp_py_raise(rc, &err);
  Py_RETURN_NONE;
}

/* the newest identifier of the commit user, or None */
static PyObject *py_commit_latest_identifier(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  if (!c) return NULL;
  paimon_error err;
  int64_t id = 0;
  bool found = false;
  CALL(paimon_commit_latest_identifier(c, &id, &found, &err));
  if (!found) Py_RETURN_NONE;
  return PyLong_FromLongLong((long long)id);
}

static PyObject *py_commit_set_overwrite(PyObject *self, PyObject *args) {
  PyObject *cap, *spec;
  int mode = 0;
  if (!PyArg_ParseTuple(args, "OO|i", &cap, &spec, &mode)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  if (!c) return NULL;
  if (!PyDict_Check(spec)) {
    PyErr_SetString(PyExc_TypeError, "overwrite partition spec must be a dict");
    return NULL;
  }
  Py_ssize_t n = PyDict_Size(spec), i = 0, pos = 0;
  const char **keys = PyMem_Calloc((size_t)n + 1, sizeof *keys);
  const char **values = PyMem_Calloc((size_t)n + 1, sizeof *values);
  PyObject *strs = PyList_New(0); /* keeps the str() of non-str values alive */
  PyObject *k, *v;
  int ok = keys && values && strs;
  while (ok && PyDict_Next(spec, &pos, &k, &v)) {
    if (!PyUnicode_Check(k)) {
      PyErr_SetString(PyExc_TypeError, "overwrite partition keys must be str");
      ok = 0;
      break;
    }
    keys[i] = PyUnicode_AsUTF8(k);
    if (v != Py_None) {
      PyObject *sv = PyObject_Str(v);
      ok = sv && PyList_Append(strs, sv) == 0;
      Py_XDECREF(sv);
      if (ok) values[i] = PyUnicode_AsUTF8(sv);
    }
    ok = ok && keys[i] && (v == Py_None || values[i]);
    i++;
  }
  PyObject *ret = NULL;
  if (ok) {
    paimon_error err;
    int rc =
        paimon_commit_set_overwrite(c, (paimon_overwrite_mode)mode, keys, values, (size_t)i, &err);
    if (rc != 0)
      cp_py_raise(rc, &err);
    else
      ret = Py_NewRef(Py_None);
  } else if (!PyErr_Occurred()) {
    PyErr_NoMemory();
  }
  PyMem_Free(keys);
  PyMem_Free(values);
  Py_XDECREF(strs);
  return ret;
}

/* commit_truncate(handle, None) truncates the table; commit_truncate(handle, [{key: value}, ...])
 * drops those partitions (values: str, None, or anything str() renders). Returns the snapshot id.
 */
static PyObject *py_commit_truncate(PyObject *self, PyObject *args) {
  PyObject *cap, *specs;
  if (!PyArg_ParseTuple(args, "OO", &cap, &specs)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  if (!c) return NULL;
  paimon_error err;
  if (specs == Py_None) {
    CALL(paimon_commit_truncate_table(c, &err));
    return PyLong_FromLongLong(paimon_commit_last_snapshot_id(c));
  }
  PyObject *fast = PySequence_Fast(specs, "partitions must be a list of dicts");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast), total = 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *d = PySequence_Fast_GET_ITEM(fast, i);
    if (!PyDict_Check(d)) {
      Py_DECREF(fast);
      return PyErr_Format(PyExc_TypeError, "partition %zd is not a dict", i);
    }
    total += PyDict_Size(d);
  }
  paimon_partition_spec *sp = PyMem_Calloc(n ? (size_t)n : 1, sizeof *sp);
  const char **keys = PyMem_Calloc(total ? (size_t)total : 1, sizeof *keys);
  const char **values = PyMem_Calloc(total ? (size_t)total : 1, sizeof *values);
  PyObject *strs = PyList_New(0); /* keeps the str() of values alive */
  bool ok = sp && keys && values && strs;
  Py_ssize_t at = 0;
  for (Py_ssize_t i = 0; ok && i < n; i++) {
    PyObject *d = PySequence_Fast_GET_ITEM(fast, i), *k, *v;
    Py_ssize_t pos = 0;
    sp[i].keys = keys + at;
    sp[i].values = values + at;
    while (ok && PyDict_Next(d, &pos, &k, &v)) {
      PyObject *sk = PyObject_Str(k), *sv = v == Py_None ? NULL : PyObject_Str(v);
      ok = sk && (v == Py_None || sv) && PyList_Append(strs, sk) == 0 &&
           (!sv || PyList_Append(strs, sv) == 0);
      if (ok) {
        keys[at] = PyUnicode_AsUTF8(sk);
        values[at] = sv ? PyUnicode_AsUTF8(sv) : NULL;
        ok = keys[at] && (!sv || values[at]);
        at++;
        sp[i].n++;
      }
      Py_XDECREF(sk);
      Py_XDECREF(sv);
    }
  }
  PyObject *ret = NULL;
  if (ok) {
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = paimon_commit_truncate_partitions(c, sp, (size_t)n, &err);
    Py_END_ALLOW_THREADS if (rc) cp_py_raise(rc, &err);
    else ret = PyLong_FromLongLong(paimon_commit_last_snapshot_id(c));
  } else if (!PyErr_Occurred()) {
    PyErr_NoMemory();
  }
  PyMem_Free(sp);
  PyMem_Free(keys);
  PyMem_Free(values);
  Py_XDECREF(strs);
  Py_DECREF(fast);
  return ret;
}

static PyObject *py_commit_abort(PyObject *self, PyObject *args) {
  PyObject *cap, *mcap;
  if (!PyArg_ParseTuple(args, "OO", &cap, &mcap)) return NULL;
  paimon_commit *c = unwrap(cap, &K_COMMIT);
  paimon_commit_messages *m = c ? unwrap(mcap, &K_MSGS) : NULL;
  if (!m) return NULL;
  paimon_error err;
  CALL(paimon_commit_abort(c, m, &err));
  Py_RETURN_NONE;
}

/* ------------------------------------ read ------------------------------------ */

static PyObject *py_rb_new(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_table *t = unwrap(cap, &K_TABLE);
  if (!t) return NULL;
  paimon_error err;
  paimon_read_builder *rb = NULL;
  CALL(paimon_read_builder_new(&rb, t, &err));
  return wrap(rb, &K_RB, cap);
}

/* An optional (int, int) keyword argument: 1 when given, 0 when None, -1 on a bad value. */
static int int_pair(PyObject *obj, const char *what, long long *a, long long *b) {
  if (obj == Py_None) return 0;
  if (!PyArg_ParseTuple(obj, "LL", a, b)) {
    PyErr_Format(PyExc_TypeError, "%s must be a pair of integers", what);
    return -1;
  }
  return 1;
}

static PyObject *py_rb_configure(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {
      "rb",    "projection", "row_tracking", "snapshot_id", "batch_size",         "limit",
      "shard", "slice",      "tag",          "timestamp",   "blob_as_descriptor", NULL};
  PyObject *cap, *projection = Py_None, *limit = Py_None, *shard = Py_None, *slice = Py_None,
                 *timestamp = Py_None;
  const char *tag = NULL;
  int row_tracking = 0, blob_as_descriptor = -1;
  long long snapshot = -1, batch = 0, a = 0, b = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OpLLOOOzOi", kwlist, &cap, &projection,
                                   &row_tracking, &snapshot, &batch, &limit, &shard, &slice, &tag,
                                   &timestamp, &blob_as_descriptor))
    return NULL;
  paimon_read_builder *rb = unwrap(cap, &K_RB);
  if (!rb) return NULL;
  paimon_error err;
  /* The snapshot first: the projection names columns of the snapshot's schema (time travel). */
  if (snapshot >= 0) CALL(paimon_read_builder_set_snapshot(rb, snapshot, &err));
  if (tag) CALL(paimon_read_builder_set_tag(rb, tag, &err));
  if (timestamp != Py_None) {
    long long ms = PyLong_AsLongLong(timestamp);
    if (ms == -1 && PyErr_Occurred()) return NULL;
    CALL(paimon_read_builder_set_timestamp(rb, ms, &err));
  }
  if (projection != Py_None) {
    const char **names;
    size_t n;
    if (string_array(projection, &names, &n) < 0) return NULL;
    int rc = paimon_read_builder_set_projection(rb, names, n, &err);
    PyMem_Free(names);
    if (rc) return cp_py_raise(rc, &err);
  }
  if (row_tracking) CALL(paimon_read_builder_with_row_tracking(rb, &err));
  if (blob_as_descriptor >= 0)
    CALL(paimon_read_builder_set_blob_as_descriptor(rb, blob_as_descriptor != 0, &err));
  if (batch > 0) paimon_read_builder_set_batch_size(rb, batch);
  if (limit != Py_None) {
    long long n = PyLong_AsLongLong(limit);
    if (n == -1 && PyErr_Occurred()) return NULL;
    CALL(paimon_read_builder_set_limit(rb, n, &err));
  }
  int given = int_pair(shard, "shard", &a, &b);
  if (given < 0) return NULL;
  if (given) CALL(paimon_read_builder_set_shard(rb, a, b, &err));
  if ((given = int_pair(slice, "slice", &a, &b)) < 0) return NULL;
  if (given) CALL(paimon_read_builder_set_slice(rb, a, b, &err));
  Py_RETURN_NONE;
}

/* read_builder_set_partition_filter(rb, predicate or None) — the builder copies the predicate. */
static PyObject *py_rb_set_partition_filter(PyObject *self, PyObject *args) {
  PyObject *cap, *pcap;
  if (!PyArg_ParseTuple(args, "OO", &cap, &pcap)) return NULL;
  paimon_read_builder *rb = unwrap(cap, &K_RB);
  if (!rb) return NULL;
  paimon_predicate *p = NULL;
  if (pcap != Py_None) {
    if (!PyCapsule_IsValid(pcap, "cpaimon.predicate")) {
      PyErr_SetString(PyExc_TypeError, "expected a cpaimon.predicate handle or None");
      return NULL;
    }
    p = PyCapsule_GetPointer(pcap, "cpaimon.predicate");
  }
  paimon_error err;
  CALL(paimon_read_builder_set_partition_filter(rb, p, &err));
  Py_RETURN_NONE;
}

static PyObject *py_rb_schema(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_read_builder *rb = unwrap(cap, &K_RB);
  if (!rb) return NULL;
  paimon_error err;
  struct ArrowSchema s;
  CALL(paimon_read_builder_schema(rb, &s, &err));
  return schema_capsule(&s);
}

/* read_builder_read_schema(rb) -> (schema_id, schema_json): the schema reads use (the time-travel
 * snapshot's); raises as paimon_read_builder_read_schema fails (FileNotFoundError: no such
 * snapshot). */
static PyObject *py_rb_read_schema(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_read_builder *rb = unwrap(cap, &K_RB);
  if (!rb) return NULL;
  paimon_error err;
  int64_t id = 0;
  char *json = NULL;
  CALL(paimon_read_builder_read_schema(rb, &id, &json, &err));
  PyObject *out = Py_BuildValue("(Ls)", (long long)id, json);
  free(json);
  return out;
}

static PyObject *py_rb_plan(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_read_builder *rb = unwrap(cap, &K_RB);
  if (!rb) return NULL;
  paimon_error err;
  paimon_plan *p = NULL;
  CALL(paimon_read_builder_plan(rb, &p, &err));
  return wrap(p, &K_PLAN, cap);
}

static PyObject *py_plan_info(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_plan *p = unwrap(cap, &K_PLAN);
  if (!p) return NULL;
  PyObject *rows = PyList_New((Py_ssize_t)paimon_plan_split_count(p));
  for (size_t i = 0; rows && i < paimon_plan_split_count(p); i++)
    PyList_SET_ITEM(rows, (Py_ssize_t)i, PyLong_FromLongLong(paimon_plan_split_row_count(p, i)));
  if (!rows) return NULL;
  PyObject *out = Py_BuildValue("(LO)", (long long)paimon_plan_snapshot_id(p), rows);
  Py_DECREF(rows);
  return out;
}

/* A sequence of split indices (None: every split, *idx NULL) as a PyMem array; -1 with an
 * exception set on failure. */
static int parse_indices(PyObject *indices, size_t **idx, size_t *n) {
  *idx = NULL;
  *n = 0;
  if (indices == Py_None) return 0;
  PyObject *fast = PySequence_Fast(indices, "indices must be a sequence of ints");
  if (!fast) return -1;
  *n = (size_t)PySequence_Fast_GET_SIZE(fast);
  *idx = PyMem_Malloc((*n ? *n : 1) * sizeof **idx);
  for (size_t i = 0; *idx && i < *n; i++)
    (*idx)[i] = PyLong_AsSize_t(PySequence_Fast_GET_ITEM(fast, (Py_ssize_t)i));
  Py_DECREF(fast);
  if (!*idx) {
    PyErr_NoMemory();
    return -1;
  }
  if (PyErr_Occurred()) {
    PyMem_Free(*idx);
    *idx = NULL;
    return -1;
  }
  return 0;
}

/* plan_serialize(plan, indices or None) -> bytes (include/cpaimon/read.h) */
static PyObject *py_plan_serialize(PyObject *self, PyObject *args) {
  PyObject *pcap, *indices;
  if (!PyArg_ParseTuple(args, "OO", &pcap, &indices)) return NULL;
  paimon_plan *p = unwrap(pcap, &K_PLAN);
  size_t *idx = NULL, n = 0;
  if (!p || parse_indices(indices, &idx, &n) != 0) return NULL;
  paimon_error err;
  uint8_t *bytes = NULL;
  size_t len = 0;
  int rc = paimon_plan_serialize(p, idx, n, &bytes, &len, &err);
  PyMem_Free(idx);
  if (rc) return cp_py_raise(rc, &err);
  PyObject *out = PyBytes_FromStringAndSize((const char *)bytes, (Py_ssize_t)len);
  free(bytes);
  return out;
}

/* plan_deserialize(bytes) -> plan */
static PyObject *py_plan_deserialize(PyObject *self, PyObject *args) {
  Py_buffer buf;
  if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
  paimon_error err;
  paimon_plan *p = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = paimon_plan_deserialize(&p, buf.buf, (size_t)buf.len, &err);
  Py_END_ALLOW_THREADS PyBuffer_Release(&buf);
  if (rc) return cp_py_raise(rc, &err);
  return wrap(p, &K_PLAN, NULL);
}

/* plan_read(rb, plan, indices or None[, limit[, whole[, threads]]]) -> ArrowStream; `whole`:
 * the caller keeps every batch (to_arrow), so read threads may run ahead without bound. `limit`
 * (an int, or None for none) replaces the builder's row limit for this and later reads through
 * `rb`. `threads`: paimon_read_builder_set_read_threads (-1: the library's choice). */
static PyObject *py_plan_read(PyObject *self, PyObject *args) {
  PyObject *rbcap, *pcap, *indices, *limit = NULL;
  int whole = 0, threads = -1;
  if (!PyArg_ParseTuple(args, "OOO|Opi", &rbcap, &pcap, &indices, &limit, &whole, &threads))
    return NULL;
  paimon_read_builder *rb = unwrap(rbcap, &K_RB);
  paimon_plan *p = rb ? unwrap(pcap, &K_PLAN) : NULL;
  if (!p) return NULL;
  if (limit == Py_None) {
    paimon_read_builder_clear_limit(rb);
  } else if (limit) {
    long long n = PyLong_AsLongLong(limit);
    if (n == -1 && PyErr_Occurred()) return NULL;
    paimon_error lerr;
    int lrc = paimon_read_builder_set_limit(rb, n, &lerr);
    if (lrc) return cp_py_raise(lrc, &lerr);
  }
  size_t *idx = NULL, n = 0;
  if (parse_indices(indices, &idx, &n) != 0) return NULL;
  paimon_error err;
  struct ArrowArrayStream stream;
  /* A consumer that keeps every batch lets the read threads run ahead without bound. */
  int rc = paimon_read_builder_set_read_ahead(rb, whole ? -1 : 2, &err);
  if (!rc) rc = paimon_read_builder_set_read_threads(rb, threads, &err);
  if (rc) {
    PyMem_Free(idx);
    return cp_py_raise(rc, &err);
  }
  Py_BEGIN_ALLOW_THREADS rc =
      paimon_plan_read(rb, p, indices == Py_None ? NULL : idx, n, &stream, &err);
  Py_END_ALLOW_THREADS PyMem_Free(idx);
  if (rc) return cp_py_raise(rc, &err);
  return cp_py_export_stream(&stream);
}

/* ---- types as text (include/cpaimon/types.h) ---- */

/* fn(text) -> str, for the text-to-text conversions */
static PyObject *type_text(PyObject *args, int (*fn)(const char *, char **, paimon_error *)) {
  const char *in;
  if (!PyArg_ParseTuple(args, "s", &in)) return NULL;
  paimon_error err;
  char *out = NULL;
  CALL(fn(in, &out, &err));
  PyObject *s = PyUnicode_FromString(out);
  free(out);
  return s;
}

static PyObject *py_type_normalize(PyObject *self, PyObject *args) {
  return type_text(args, paimon_type_normalize);
}

static PyObject *py_type_sql_to_json(PyObject *self, PyObject *args) {
  return type_text(args, paimon_type_sql_to_json);
}

static PyObject *py_type_json_to_sql(PyObject *self, PyObject *args) {
  return type_text(args, paimon_type_json_to_sql);
}

/* type_to_arrow(sql, name) -> "arrow_schema" capsule of one field */
static PyObject *py_type_to_arrow(PyObject *self, PyObject *args) {
  const char *sql, *name;
  if (!PyArg_ParseTuple(args, "ss", &sql, &name)) return NULL;
  paimon_error err;
  struct ArrowSchema s;
  CALL(paimon_type_to_arrow(sql, name, &s, &err));
  return schema_capsule(&s);
}

/* fn(the Arrow schema of obj, a pa.Field or pa.Schema) -> JSON text */
static PyObject *arrow_to_json(PyObject *args,
                               int (*fn)(const struct ArrowSchema *, char **, paimon_error *)) {
  PyObject *obj;
  if (!PyArg_ParseTuple(args, "O", &obj)) return NULL;
  PyObject *capsule = PyObject_CallMethod(obj, "__arrow_c_schema__", NULL);
  if (!capsule) return NULL;
  struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
  PyObject *out = NULL;
  if (s) {
    paimon_error err;
    char *json = NULL;
    int rc = fn(s, &json, &err);
    out = rc ? cp_py_raise(rc, &err) : PyUnicode_FromString(json);
    free(json);
  }
  Py_DECREF(capsule);
  return out;
}

static PyObject *py_type_from_arrow(PyObject *self, PyObject *args) {
  return arrow_to_json(args, paimon_type_from_arrow);
}

static PyObject *py_arrow_schema_to_fields_json(PyObject *self, PyObject *args) {
  return arrow_to_json(args, paimon_arrow_schema_to_fields_json);
}

PyMethodDef cp_py_table_methods[] = {
    {"type_normalize", py_type_normalize, METH_VARARGS, NULL},
    {"type_sql_to_json", py_type_sql_to_json, METH_VARARGS, NULL},
    {"type_json_to_sql", py_type_json_to_sql, METH_VARARGS, NULL},
    {"type_to_arrow", py_type_to_arrow, METH_VARARGS, NULL},
    {"type_from_arrow", py_type_from_arrow, METH_VARARGS, NULL},
    {"arrow_schema_to_fields_json", py_arrow_schema_to_fields_json, METH_VARARGS, NULL},
    {"catalog_open", py_catalog_open, METH_VARARGS, "Open a filesystem catalog from its options."},
    {"catalog_warehouse", py_catalog_warehouse, METH_VARARGS, "The catalog's warehouse."},
    {"catalog_create_database", py_create_database, METH_VARARGS, NULL},
    {"catalog_get_database", py_get_database, METH_VARARGS, NULL},
    {"catalog_alter_database", py_alter_database, METH_VARARGS, NULL},
    {"catalog_drop_database", py_drop_database, METH_VARARGS, NULL},
    {"catalog_list_databases", py_list_databases, METH_VARARGS, NULL},
    {"catalog_list_tables", py_list_tables, METH_VARARGS, NULL},
    {"catalog_create_table", py_create_table, METH_VARARGS, NULL},
    {"catalog_get_table", py_get_table, METH_VARARGS, NULL},
    {"catalog_drop_table", py_drop_table, METH_VARARGS, NULL},
    {"catalog_rename_table", py_rename_table, METH_VARARGS, NULL},
    {"catalog_list_partitions", py_list_partitions, METH_VARARGS, NULL},
    {"catalog_alter_table", py_alter_table, METH_VARARGS, NULL},
    {"table_info", py_table_info, METH_VARARGS, NULL},
    {"table_arrow_schema", py_table_arrow_schema, METH_VARARGS, NULL},
    {"table_latest_snapshot_id", py_table_latest_snapshot, METH_VARARGS, NULL},
    {"table_create_tag", py_create_tag, METH_VARARGS, NULL},
    {"table_replace_tag", py_replace_tag, METH_VARARGS, NULL},
    {"table_delete_tag", py_delete_tag, METH_VARARGS, NULL},
    {"table_rename_tag", py_rename_tag, METH_VARARGS, NULL},
    {"table_list_tags", py_list_tags, METH_VARARGS, NULL},
    {"table_rollback", py_rollback, METH_VARARGS, NULL},
    {"table_rollback_to_timestamp", py_rollback_to_timestamp, METH_VARARGS, NULL},
    {"table_rollback_to_as_latest", py_rollback_as_latest, METH_VARARGS, NULL},
    {"parse_duration", py_parse_duration, METH_VARARGS, NULL},
    {"table_expire_snapshots", py_expire_snapshots, METH_VARARGS, NULL},
    {"table_compact", py_compact, METH_VARARGS, NULL},
    {"table_remove_orphan_files", py_remove_orphan_files, METH_VARARGS, NULL},
    {"write_new", py_write_new, METH_VARARGS, NULL},
    {"write_arrow", py_write_arrow, METH_VARARGS, NULL},
    {"write_prepare_commit", py_write_prepare_commit, METH_VARARGS, NULL},
    {"write_abort", py_write_abort, METH_VARARGS, NULL},
    {"messages_info", py_messages_info, METH_VARARGS, NULL},
    {"messages_files", py_messages_files, METH_VARARGS, NULL},
    {"messages_serialize", py_messages_serialize, METH_VARARGS, NULL},
    {"messages_deserialize", py_messages_deserialize, METH_VARARGS, NULL},
    {"messages_merge", py_messages_merge, METH_VARARGS, NULL},
    {"commit_new", py_commit_new, METH_VARARGS, NULL},
    {"commit_commit", py_commit_commit, METH_VARARGS, NULL},
    {"commit_abort", py_commit_abort, METH_VARARGS, NULL},
    {"commit_truncate", py_commit_truncate, METH_VARARGS, NULL},
    {"commit_identified", py_commit_identified, METH_VARARGS, NULL},
    {"commit_user", py_commit_user, METH_VARARGS, NULL},
    {"commit_properties", py_commit_properties, METH_VARARGS, NULL},
    {"commit_latest_identifier", py_commit_latest_identifier, METH_VARARGS, NULL},
    {"commit_set_overwrite", py_commit_set_overwrite, METH_VARARGS, NULL},
    {"read_builder_new", py_rb_new, METH_VARARGS, NULL},
    {"read_builder_configure", (PyCFunction)(void (*)(void))py_rb_configure,
     METH_VARARGS | METH_KEYWORDS, NULL},
    {"read_builder_schema", py_rb_schema, METH_VARARGS, NULL},
    {"read_builder_plan", py_rb_plan, METH_VARARGS, NULL},
    {"read_builder_read_schema", py_rb_read_schema, METH_VARARGS, NULL},
    {"read_builder_set_partition_filter", py_rb_set_partition_filter, METH_VARARGS, NULL},
    {"plan_info", py_plan_info, METH_VARARGS, NULL},
    {"plan_read", py_plan_read, METH_VARARGS, NULL},
    {"plan_serialize", py_plan_serialize, METH_VARARGS, NULL},
    {"plan_deserialize", py_plan_deserialize, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};
