/*
 * cpaimon._cpaimon: predicates (include/cpaimon/predicate.h) for the Python PredicateBuilder.
 * Literal values arrive as Arrow arrays (pyarrow infers their type; binding to the read schema
 * coerces them to the column's type in C).
 */
#include <string.h>

#include "cpaimon/predicate.h"
#include "cpaimon/read.h"
#include "module.h"

#define PRED_CAPSULE "cpaimon.predicate"

static void pred_destructor(PyObject *cap) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  paimon_predicate *p = PyCapsule_GetPointer(cap, PRED_CAPSULE);
  if (p) paimon_predicate_free(p);
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

static PyObject *wrap_pred(paimon_predicate *p) {
  PyObject *cap = PyCapsule_New(p, PRED_CAPSULE, pred_destructor);
  if (!cap) paimon_predicate_free(p);
  return cap;
}

/* A copy of the predicate inside `cap` (combining consumes its children; Python keeps its own). */
static paimon_predicate *copy_pred(PyObject *cap, paimon_error *err) {
  paimon_predicate *p = PyCapsule_GetPointer(cap, PRED_CAPSULE), *out = NULL;
  if (!p || paimon_predicate_copy(p, &out, err) != 0) return NULL;
  return out;
}

typedef int (*values_ctor)(paimon_predicate **, const char *, const struct ArrowSchema *,
                           const struct ArrowArray *, paimon_error *);

static const struct {
  const char *name;
  values_ctor fn;
} ctors[] = {{"equal", paimon_predicate_equal},
             {"not_equal", paimon_predicate_not_equal},
             {"less_than", paimon_predicate_less_than},
             {"less_or_equal", paimon_predicate_less_or_equal},
             {"greater_than", paimon_predicate_greater_than},
             {"greater_or_equal", paimon_predicate_greater_or_equal},
             {"is_in", paimon_predicate_is_in},
             {"is_not_in", paimon_predicate_is_not_in},
             {"between", paimon_predicate_between},
             {"startswith", paimon_predicate_startswith},
             {"endswith", paimon_predicate_endswith},
             {"contains", paimon_predicate_contains},
             {"like", paimon_predicate_like}};

/* predicate_leaf(method, column, values_array_or_None) */
static PyObject *py_predicate_leaf(PyObject *self, PyObject *args) {
  const char *method, *column;
  PyObject *values;
  if (!PyArg_ParseTuple(args, "ssO", &method, &column, &values)) return NULL;
  paimon_error err;
  paimon_predicate *p = NULL;
  int rc;
  if (strcmp(method, "is_null") == 0 || strcmp(method, "is_not_null") == 0) {
    rc = strcmp(method, "is_null") == 0 ? paimon_predicate_is_null(&p, column, &err)
                                        : paimon_predicate_is_not_null(&p, column, &err);
    return rc ? cp_py_raise(rc, &err) : wrap_pred(p);
  }
  size_t k = 0;
  while (k < sizeof ctors / sizeof ctors[0] && strcmp(ctors[k].name, method) != 0) k++;
  if (k == sizeof ctors / sizeof ctors[0])
    return PyErr_Format(PyExc_ValueError, "unknown predicate '%s'", method);
  PyObject *pair = PyObject_CallMethod(values, "__arrow_c_array__", NULL);
  if (!pair) return NULL;
  struct ArrowSchema *schema = PyCapsule_GetPointer(PyTuple_GetItem(pair, 0), "arrow_schema");
  struct ArrowArray *array =
      schema ? PyCapsule_GetPointer(PyTuple_GetItem(pair, 1), "arrow_array") : NULL;
  if (!array) {
    Py_DECREF(pair);
    return NULL;
  }
  rc = ctors[k].fn(&p, column, schema, array, &err);
  Py_DECREF(pair);
  return rc ? cp_py_raise(rc, &err) : wrap_pred(p);
}

/* Combines the top `k` predicates of the stack (consumed) into one with `how`. */
static int combine(const char *how, paimon_predicate **stack, size_t *n, size_t k,
                   paimon_error *err) {
  if (k == 0 || k > *n)
    return paimon_error_set(err, PAIMON_EINVAL, "predicate program is malformed");
  paimon_predicate **kids = stack + *n - k, *p = NULL;
  int rc;
  *n -= k;
  if (strcmp(how, "not") == 0 && k == 1)
    rc = paimon_predicate_not(&p, kids[0], err);
  else if (strcmp(how, "and") == 0)
    rc = paimon_predicate_and(&p, kids, k, err);
  else if (strcmp(how, "or") == 0)
    rc = paimon_predicate_or(&p, kids, k, err);
  else {
    for (size_t i = 0; i < k; i++) paimon_predicate_free(kids[i]);
    return paimon_error_set(err, PAIMON_EINVAL, "cannot combine predicates with '%s'", how);
  }
  if (rc == 0) stack[(*n)++] = p;
  return rc;
}

/* predicate_build(program): a predicate tree in postfix order, each item a predicate capsule
 * (copied: Python keeps its own) or a (how, k) pair combining the k predicates before it with
 * "and" / "or" / "not". The Python PredicateBuilder combines lazily and builds a whole tree here
 * at once, so a chain of n predicates joined two at a time costs O(n), not a copy per join. */
static PyObject *py_predicate_build(PyObject *self, PyObject *args) {
  PyObject *seq;
  if (!PyArg_ParseTuple(args, "O", &seq)) return NULL;
  PyObject *fast = PySequence_Fast(seq, "expected a list");
  if (!fast) return NULL;
  Py_ssize_t n_items = PySequence_Fast_GET_SIZE(fast);
  paimon_predicate **stack = PyMem_Calloc((size_t)(n_items ? n_items : 1), sizeof *stack);
  if (!stack) {
    Py_DECREF(fast);
    return PyErr_NoMemory();
  }
  size_t n = 0;
  paimon_error err;
  int rc = 0;
  for (Py_ssize_t i = 0; rc == 0 && i < n_items; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
    const char *how;
    Py_ssize_t k;
    if (PyCapsule_IsValid(item, PRED_CAPSULE)) {
      stack[n] = copy_pred(item, &err);
      rc = stack[n] ? 0 : PAIMON_ENOMEM;
      n += stack[n] != NULL;
    } else if (PyTuple_Check(item) && PyArg_ParseTuple(item, "sn", &how, &k) && k > 0) {
      rc = combine(how, stack, &n, (size_t)k, &err);
    } else {
      PyErr_Clear();
      rc = paimon_error_set(&err, PAIMON_EINVAL, "predicate program item %zd is malformed", i);
    }
  }
  Py_DECREF(fast);
  if (rc == 0 && n != 1)
    rc = paimon_error_set(&err, PAIMON_EINVAL, "predicate program is malformed");
  paimon_predicate *p = rc == 0 ? stack[0] : NULL;
  if (rc != 0)
    for (size_t i = 0; i < n; i++) paimon_predicate_free(stack[i]);
  PyMem_Free(stack);
  return rc ? cp_py_raise(rc, &err) : wrap_pred(p);
}

static PyObject *py_predicate_text(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  paimon_predicate *p = PyCapsule_GetPointer(cap, PRED_CAPSULE);
  if (!p) return NULL;
  char buf[1024];
  paimon_predicate_format(p, buf, sizeof buf);
  return PyUnicode_FromString(buf);
}

/* read_builder_set_filter(rb_capsule, predicate_capsule) — the builder copies the predicate. */
static PyObject *py_rb_set_filter(PyObject *self, PyObject *args) {
  PyObject *rbcap, *pcap;
  if (!PyArg_ParseTuple(args, "OO", &rbcap, &pcap)) return NULL;
  paimon_read_builder *rb = PyCapsule_GetPointer(rbcap, "cpaimon.read_builder");
  paimon_predicate *p = rb ? PyCapsule_GetPointer(pcap, PRED_CAPSULE) : NULL;
  if (!p) return NULL;
  paimon_error err;
  int rc = paimon_read_builder_set_filter(rb, p, &err);
  if (rc) return cp_py_raise(rc, &err);
  Py_RETURN_NONE;
}

PyMethodDef cp_py_predicate_methods[] = {
    {"predicate_leaf", py_predicate_leaf, METH_VARARGS, NULL},
    {"predicate_build", py_predicate_build, METH_VARARGS, NULL},
    {"predicate_text", py_predicate_text, METH_VARARGS, NULL},
    {"read_builder_set_filter", py_rb_set_filter, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};
