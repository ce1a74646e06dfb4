/* Tests for src/arrow/schema.h: owned schema trees, metadata encoding, copy, equality,
 * validation. */
#include "arrow_test.h"

/* The spec's metadata encoding, written out by hand for {"PARQUET:field_id": "7", "k": ""}. */
static const char expected_md[] = {
    2,   0,   0,   0, /* n */
    16,  0,   0,   0,   'P', 'A', 'R', 'Q', 'U', 'E', 'T', ':', 'f',
    'i', 'e', 'l', 'd', '_', 'i', 'd', 1,   0,   0,   0,   '7', /* pair */
    1,   0,   0,   0,   'k', 0,   0,   0,   0};

static void test_init_and_release(void) {
  paimon_error err;
  struct ArrowSchema s;
  CHECK_OK(cp_schema_init(&s, "+s", "root", 0, 2, &err), &err);
  CHECK_STR(s.format, "+s");
  CHECK_STR(s.name, "root");
  CHECK_INT(s.n_children, 2);
  CHECK(s.children[0]->release == NULL);
  CHECK_OK(cp_schema_init(s.children[0], "i", "a", ARROW_FLAG_NULLABLE, 0, &err), &err);
  /* child 1 left uninitialised: release must cope */
  CHECK_OK(cp_schema_set_name(&s, "renamed", &err), &err);
  CHECK_STR(s.name, "renamed");
  CHECK_OK(cp_schema_set_name(&s, NULL, &err), &err);
  CHECK(s.name == NULL);
  CHECK_OK(cp_schema_set_format(&s, "+s", &err), &err);
  CHECK_ERR(cp_schema_set_format(&s, NULL, &err), PAIMON_EINVAL);
  cp_schema_release(&s);
  CHECK(s.release == NULL);
  CHECK_ERR(cp_schema_init(&s, NULL, "x", 0, 0, &err), PAIMON_EINVAL);
  CHECK(s.release == NULL);
  CHECK_ERR(cp_schema_init(&s, "i", "x", 0, -1, &err), PAIMON_EINVAL);
  /* Setters refuse schemas we do not own. */
  struct ArrowSchema foreign = {0};
  foreign.format = "i";
  CHECK_ERR(cp_schema_set_name(&foreign, "x", &err), PAIMON_ESTATE);
}

static void test_metadata(void) {
  paimon_error err;
  struct ArrowSchema s;
  CHECK_OK(cp_schema_init(&s, "i", "id", 0, 0, &err), &err);
  CHECK_OK(cp_schema_metadata_put(&s, "PARQUET:field_id", "3", &err), &err);
  CHECK_OK(cp_schema_metadata_put(&s, "k", "", &err), &err);
  CHECK_OK(cp_schema_metadata_put(&s, "PARQUET:field_id", "7", &err), &err); /* replaces */
  CHECK_INT(cp_metadata_size(s.metadata, &err), (int64_t)sizeof expected_md);
  CHECK(memcmp(s.metadata, expected_md, sizeof expected_md) == 0);
  const char *v;
  int32_t vl;
  CHECK_OK(cp_metadata_get(s.metadata, "PARQUET:field_id", &v, &vl, &err), &err);
  CHECK(v && vl == 1 && v[0] == '7');
  CHECK_OK(cp_metadata_get(s.metadata, "k", &v, &vl, &err), &err);
  CHECK(v != NULL && vl == 0);
  CHECK_OK(cp_metadata_get(s.metadata, "missing", &v, &vl, &err), &err);
  CHECK(v == NULL);
  CHECK_OK(cp_metadata_get(NULL, "k", &v, &vl, &err), &err);
  CHECK(v == NULL);
  cp_metadata_reader r;
  const char *k;
  int32_t kl;
  CHECK_OK(cp_metadata_reader_init(&r, s.metadata, &err), &err);
  CHECK_INT(cp_metadata_reader_next(&r, &k, &kl, &v, &vl, &err), 1);
  CHECK(kl == 16 && memcmp(k, "PARQUET:field_id", 16) == 0);
  CHECK_INT(cp_metadata_reader_next(&r, &k, &kl, &v, &vl, &err), 1);
  CHECK_INT(cp_metadata_reader_next(&r, &k, &kl, &v, &vl, &err), 0);
  CHECK_OK(cp_schema_set_metadata(&s, NULL, &err), &err);
  CHECK(s.metadata == NULL);
  CHECK_OK(cp_schema_set_metadata(&s, expected_md, &err), &err);
  CHECK(s.metadata != expected_md && memcmp(s.metadata, expected_md, sizeof expected_md) == 0);

  /* Malformed metadata: negative counts and lengths are rejected, not followed. */
  char bad[12];
  int32_t neg = -1;
  memcpy(bad, &neg, 4);
  CHECK_ERR(cp_schema_set_metadata(&s, bad, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "negative pair count");
  int32_t one = 1;
  memcpy(bad, &one, 4);
  memcpy(bad + 4, &neg, 4);
  CHECK_ERR(cp_metadata_get(bad, "x", &v, &vl, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "negative key length");
  CHECK_INT(cp_metadata_size(bad, NULL), PAIMON_EINVAL);
  cp_schema_release(&s);

  cp_metadata_builder b = CP_METADATA_BUILDER_INIT;
  CHECK_OK(cp_metadata_builder_add(&b, "PARQUET:field_id", 16, "7", 1, &err), &err);
  CHECK_OK(cp_metadata_builder_add(&b, "k", 1, "", 0, &err), &err);
  CHECK_INT(b.buf.len, sizeof expected_md);
  CHECK(memcmp(b.buf.data, expected_md, sizeof expected_md) == 0);
  CHECK_ERR(cp_metadata_builder_add(&b, "k", -1, "", 0, &err), PAIMON_EINVAL);
  cp_metadata_builder_free(&b);
}

static void test_composites_copy_equal(void) {
  paimon_error err;
  struct ArrowSchema kids[3], item, key, value, root, copy;
  CHECK_OK(cp_schema_init(&kids[0], "l", "id", 0, 0, &err), &err);
  CHECK_OK(cp_schema_init(&item, "u", "element", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_schema_make_list(&kids[1], "tags", ARROW_FLAG_NULLABLE, false, &item, &err), &err);
  CHECK(item.release == NULL);
  CHECK_OK(cp_schema_init(&key, "u", "key", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_schema_init(&value, "d:10,2", "value", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_schema_make_map(&kids[2], "attrs", ARROW_FLAG_NULLABLE, &key, &value, &err), &err);
  CHECK_OK(cp_schema_metadata_put(&kids[0], "PARQUET:field_id", "0", &err), &err);
  CHECK_OK(cp_schema_make_struct(&root, NULL, 0, kids, 3, &err), &err);
  CHECK_OK(cp_schema_validate(&root, &err), &err);
  const struct ArrowSchema *m = root.children[2];
  CHECK_STR(m->format, "+m");
  CHECK_STR(m->children[0]->format, "+s");
  CHECK_STR(m->children[0]->name, "entries");
  CHECK_INT(m->children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  CHECK_INT(m->children[0]->children[0]->flags & ARROW_FLAG_NULLABLE, 0); /* keys non-null */

  cp_buf text = CP_BUF_INIT;
  CHECK_OK(cp_schema_to_string(&root, &text, &err), &err);
  cp_buf_nul_terminate(&text, &err);
  CHECK_STR((char *)text.data, "struct<id: int64 not null, tags: list<element: utf8>, attrs: "
                               "map<utf8, decimal128(10, 2)>>");
  cp_buf_free(&text);

  CHECK_OK(cp_schema_copy(&copy, &root, &err), &err);
  CHECK(cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_ALL));
  CHECK(copy.children[0]->metadata != root.children[0]->metadata);
  CHECK_OK(cp_schema_set_name(copy.children[1], "labels", &err), &err);
  CHECK(!cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_ALL));
  CHECK(cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_TYPES | CP_SCHEMA_CMP_METADATA));
  CHECK_OK(cp_schema_metadata_put(copy.children[0], "PARQUET:field_id", "9", &err), &err);
  CHECK(!cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_METADATA));
  CHECK(cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_TYPES));
  copy.children[0]->flags = ARROW_FLAG_NULLABLE;
  CHECK(!cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_FLAGS));
  CHECK_OK(cp_schema_set_format(copy.children[2]->children[0]->children[1], "d:10,2,128", &err),
           &err);
  CHECK(cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_TYPES)); /* same decimal128 */
  CHECK_OK(cp_schema_set_format(copy.children[2]->children[0]->children[1], "d:10,3", &err), &err);
  CHECK(!cp_schema_equal(&root, &copy, CP_SCHEMA_CMP_TYPES));

  /* set_child replaces and releases the old child */
  struct ArrowSchema repl;
  CHECK_OK(cp_schema_init(&repl, "i", "id", 0, 0, &err), &err);
  CHECK_OK(cp_schema_set_child(&copy, 0, &repl, &err), &err);
  CHECK_STR(copy.children[0]->format, "i");
  CHECK_OK(cp_schema_init(&repl, "i", "x", 0, 0, &err), &err);
  CHECK_ERR(cp_schema_set_child(&copy, 5, &repl, &err), PAIMON_EINVAL);
  CHECK(repl.release == NULL); /* released on failure */
  cp_schema_release(&copy);
  cp_schema_release(&root);
}

static void test_validate_errors(void) {
  paimon_error err;
  struct ArrowSchema s;
  ts_schema(&s, "=+s{a=+l{item=i;extra=i}}");
  CHECK_ERR(cp_schema_validate(&s, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "column 'a': list schema has 2 children, expected 1");
  cp_schema_release(&s);
  ts_schema(&s, "=+s{a=+s{b=q}}");
  CHECK_ERR(cp_schema_validate(&s, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'a.b': invalid Arrow format string 'q'");
  cp_schema_release(&s);
  ts_schema(&s, "=+s{m=+m{entries=+s{key=u}}}");
  CHECK_ERR(cp_schema_validate(&s, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'm': map entries must be a struct of key and value");
  cp_schema_release(&s);
  ts_schema(&s, "x=i{y=i}");
  CHECK_ERR(cp_schema_validate(&s, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "int32 schema has 1 children, expected 0");
  cp_schema_release(&s);
  ts_schema(&s, "x=+w:2{y=i}");
  CHECK_OK(cp_schema_validate(&s, &err), &err);
  /* dictionaries are refused, also by copy */
  struct ArrowSchema dict;
  CHECK_OK(cp_schema_init(&dict, "u", NULL, 0, 0, &err), &err);
  struct ArrowSchema idx;
  CHECK_OK(cp_schema_init(&idx, "i", "d", 0, 0, &err), &err);
  idx.dictionary = &dict;
  CHECK_ERR(cp_schema_validate(&idx, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "dictionary");
  struct ArrowSchema c;
  CHECK_ERR(cp_schema_copy(&c, &idx, &err), PAIMON_EUNSUPPORTED);
  idx.dictionary = NULL;
  cp_schema_release(&idx);
  cp_schema_release(&dict);
  cp_schema_release(&s);
  CHECK_ERR(cp_schema_validate(NULL, &err), PAIMON_EINVAL);

  /* A hostile producer's very deep tree is refused before anything recurses through it. */
  struct ArrowSchema deep, item;
  CHECK_OK(cp_schema_init(&deep, "i", "item", 0, 0, &err), &err);
  for (int k = 0; k < 70; k++) {
    cp_schema_move(&deep, &item);
    CHECK_OK(cp_schema_make_list(&deep, "l", 0, false, &item, &err), &err);
  }
  CHECK_ERR(cp_schema_validate(&deep, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "nested deeper than 64 levels");
  cp_schema_release(&deep);
}

int main(void) {
  RUN(test_init_and_release);
  RUN(test_metadata);
  RUN(test_composites_copy_equal);
  RUN(test_validate_errors);
  TEST_MAIN_END();
}
