/*
 * Avro schemas of Paimon's manifest files, shared by the avro unit tests.
 *
 * The pypaimon_* literals came from pypaimon 2.1.0: a table created with pypaimon in a temp
 * directory, one row written and committed, and the `avro.schema` header of the manifest and
 * manifest-list files read back with fastavro (the index-manifest schema is pypaimon 2.1.0's
 * INDEX_MANIFEST_ENTRY_SCHEMA, serialized with json.dumps, since that table had no index files).
 *
 * java_style_manifest_entry is written by hand from spec/format.md §4.1/§4.3/§4.4/§4.5 to have
 * the shape Java Paimon writes (namespace org.apache.paimon.avro.generated, nested record names
 * record__FILE..., 21 DataFileMeta fields in Java's order); it was not produced by Java.
 */
#ifndef CP_TEST_AVRO_PAIMON_SCHEMAS_H
#define CP_TEST_AVRO_PAIMON_SCHEMAS_H

static const char pypaimon_manifest_entry[] =
    "{\"type\": \"record\", \"name\": \"ManifestEntry\", \"fields\": [{\"name\": \"_VERSION\""
    ", \"type\": \"int\"}, {\"name\": \"_KIND\", \"type\": \"int\"}, {\"name\": \"_PARTITION"
    "\", \"type\": \"bytes\"}, {\"name\": \"_BUCKET\", \"type\": \"int\"}, {\"name\": \"_TOTA"
    "L_BUCKETS\", \"type\": \"int\"}, {\"name\": \"_FILE\", \"type\": {\"type\": \"record\", "
    "\"name\": \"DataFileMeta\", \"fields\": [{\"name\": \"_FILE_NAME\", \"type\": \"string\""
    "}, {\"name\": \"_FILE_SIZE\", \"type\": \"long\"}, {\"name\": \"_ROW_COUNT\", \"type\": "
    "\"long\"}, {\"name\": \"_MIN_KEY\", \"type\": \"bytes\"}, {\"name\": \"_MAX_KEY\", \"typ"
    "e\": \"bytes\"}, {\"name\": \"_KEY_STATS\", \"type\": {\"type\": \"record\", \"name\": "
    "\"record_KEY_STATS\", \"fields\": [{\"name\": \"_MIN_VALUES\", \"type\": \"bytes\"}, {\""
    "name\": \"_MAX_VALUES\", \"type\": \"bytes\"}, {\"name\": \"_NULL_COUNTS\", \"type\": ["
    "\"null\", {\"type\": \"array\", \"items\": [\"null\", \"long\"]}], \"default\": null}]}}"
    ", {\"name\": \"_VALUE_STATS\", \"type\": {\"type\": \"record\", \"name\": \"record_VALUE"
    "_STATS\", \"fields\": [{\"name\": \"_MIN_VALUES\", \"type\": \"bytes\"}, {\"name\": \"_M"
    "AX_VALUES\", \"type\": \"bytes\"}, {\"name\": \"_NULL_COUNTS\", \"type\": [\"null\", {\""
    "type\": \"array\", \"items\": [\"null\", \"long\"]}], \"default\": null}]}}, {\"name\": "
    "\"_MIN_SEQUENCE_NUMBER\", \"type\": \"long\"}, {\"name\": \"_MAX_SEQUENCE_NUMBER\", \"ty"
    "pe\": \"long\"}, {\"name\": \"_SCHEMA_ID\", \"type\": \"long\"}, {\"name\": \"_LEVEL\", "
    "\"type\": \"int\"}, {\"name\": \"_EXTRA_FILES\", \"type\": {\"type\": \"array\", \"items"
    "\": \"string\"}}, {\"name\": \"_CREATION_TIME\", \"type\": [\"null\", {\"type\": \"long"
    "\", \"logicalType\": \"timestamp-millis\"}], \"default\": null}, {\"name\": \"_DELETE_RO"
    "W_COUNT\", \"type\": [\"null\", \"long\"], \"default\": null}, {\"name\": \"_EMBEDDED_FI"
    "LE_INDEX\", \"type\": [\"null\", \"bytes\"], \"default\": null}, {\"name\": \"_FILE_SOUR"
    "CE\", \"type\": [\"null\", \"int\"], \"default\": null}, {\"name\": \"_VALUE_STATS_COLS"
    "\", \"type\": [\"null\", {\"type\": \"array\", \"items\": \"string\"}], \"default\": nul"
    "l}, {\"name\": \"_EXTERNAL_PATH\", \"type\": [\"null\", \"string\"], \"default\": null},"
    " {\"name\": \"_FIRST_ROW_ID\", \"type\": [\"null\", \"long\"], \"default\": null}, {\"na"
    "me\": \"_WRITE_COLS\", \"type\": [\"null\", {\"type\": \"array\", \"items\": \"string\"}"
    "], \"default\": null}, {\"name\": \"_WRITE_COLS_SEQUENCES\", \"type\": [\"null\", {\"typ"
    "e\": \"array\", \"items\": \"long\"}], \"default\": null}]}}]}";

static const char pypaimon_manifest_file_meta[] =
    "{\"type\": \"record\", \"name\": \"ManifestFileMeta\", \"fields\": [{\"name\": \"_VERSIO"
    "N\", \"type\": \"int\"}, {\"name\": \"_FILE_NAME\", \"type\": \"string\"}, {\"name\": \""
    "_FILE_SIZE\", \"type\": \"long\"}, {\"name\": \"_NUM_ADDED_FILES\", \"type\": \"long\"},"
    " {\"name\": \"_NUM_DELETED_FILES\", \"type\": \"long\"}, {\"name\": \"_PARTITION_STATS\""
    ", \"type\": {\"type\": \"record\", \"name\": \"record_PARTITION_STATS\", \"fields\": [{"
    "\"name\": \"_MIN_VALUES\", \"type\": \"bytes\"}, {\"name\": \"_MAX_VALUES\", \"type\": "
    "\"bytes\"}, {\"name\": \"_NULL_COUNTS\", \"type\": [\"null\", {\"type\": \"array\", \"it"
    "ems\": [\"null\", \"long\"]}], \"default\": null}]}}, {\"name\": \"_SCHEMA_ID\", \"type"
    "\": \"long\"}, {\"name\": \"_MIN_BUCKET\", \"type\": [\"null\", \"int\"], \"default\": n"
    "ull}, {\"name\": \"_MAX_BUCKET\", \"type\": [\"null\", \"int\"], \"default\": null}, {\""
    "name\": \"_MIN_LEVEL\", \"type\": [\"null\", \"int\"], \"default\": null}, {\"name\": \""
    "_MAX_LEVEL\", \"type\": [\"null\", \"int\"], \"default\": null}, {\"name\": \"_MIN_ROW_I"
    "D\", \"type\": [\"null\", \"long\"], \"default\": null}, {\"name\": \"_MAX_ROW_ID\", \"t"
    "ype\": [\"null\", \"long\"], \"default\": null}, {\"name\": \"_TOTAL_BUCKETS\", \"type\""
    ": [\"null\", \"int\"], \"default\": null}, {\"name\": \"_EXTRA_FILES\", \"type\": [\"nul"
    "l\", {\"type\": \"array\", \"items\": \"string\"}], \"default\": null}]}";

static const char pypaimon_index_manifest_entry[] =
    "{\"type\": \"record\", \"name\": \"IndexManifestEntry\", \"fields\": [{\"name\": \"_VERS"
    "ION\", \"type\": \"int\"}, {\"name\": \"_KIND\", \"type\": \"int\"}, {\"name\": \"_PARTI"
    "TION\", \"type\": \"bytes\"}, {\"name\": \"_BUCKET\", \"type\": \"int\"}, {\"name\": \"_"
    "INDEX_TYPE\", \"type\": \"string\"}, {\"name\": \"_FILE_NAME\", \"type\": \"string\"}, {"
    "\"name\": \"_FILE_SIZE\", \"type\": \"long\"}, {\"name\": \"_ROW_COUNT\", \"type\": \"lo"
    "ng\"}, {\"name\": \"_DELETIONS_VECTORS_RANGES\", \"type\": [\"null\", {\"type\": \"array"
    "\", \"items\": {\"type\": \"record\", \"name\": \"DeletionVectorMeta\", \"fields\": [{\""
    "name\": \"f0\", \"type\": \"string\"}, {\"name\": \"f1\", \"type\": \"int\"}, {\"name\":"
    " \"f2\", \"type\": \"int\"}, {\"name\": \"_CARDINALITY\", \"type\": [\"null\", \"long\"]"
    ", \"default\": null}]}}], \"default\": null}, {\"name\": \"_EXTERNAL_PATH\", \"type\": ["
    "\"null\", \"string\"], \"default\": null}, {\"name\": \"_GLOBAL_INDEX\", \"type\": [\"nu"
    "ll\", {\"type\": \"record\", \"name\": \"GlobalIndexMeta\", \"fields\": [{\"name\": \"_R"
    "OW_RANGE_START\", \"type\": \"long\"}, {\"name\": \"_ROW_RANGE_END\", \"type\": \"long\""
    "}, {\"name\": \"_INDEX_FIELD_ID\", \"type\": \"int\"}, {\"name\": \"_EXTRA_FIELD_IDS\", "
    "\"type\": [\"null\", {\"type\": \"array\", \"items\": \"int\"}], \"default\": null}, {\""
    "name\": \"_INDEX_META\", \"type\": [\"null\", \"bytes\"], \"default\": null}, {\"name\":"
    " \"_SOURCE_META\", \"type\": [\"null\", \"bytes\"], \"default\": null}]}], \"default\": "
    "null}]}";

static const char java_style_manifest_entry[] =
    "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
    "\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_KIND\",\"type\":\"int\"},"
    "{\"name\":\"_PARTITION\",\"type\":\"bytes\"},{\"name\":\"_BUCKET\",\"type\":\"int\"},"
    "{\"name\":\"_TOTAL_BUCKETS\",\"type\":\"int\"},"
    "{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE\",\"fields\":["
    "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},"
    "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},{\"name\":\"_MIN_KEY\",\"type\":\"bytes\"},"
    "{\"name\":\"_MAX_KEY\",\"type\":\"bytes\"},"
    "{\"name\":\"_KEY_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE__KEY_STATS\","
    "\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},"
    "{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\","
    "{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
    "{\"name\":\"_VALUE_STATS\",\"type\":{\"type\":\"record\","
    "\"name\":\"record__FILE__VALUE_STATS\",\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":"
    "\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":"
    "[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},"
    "{\"name\":\"_MIN_SEQUENCE_NUMBER\",\"type\":\"long\"},"
    "{\"name\":\"_MAX_SEQUENCE_NUMBER\",\"type\":\"long\"},{\"name\":\"_SCHEMA_ID\",\"type\":"
    "\"long\"},"
    "{\"name\":\"_LEVEL\",\"type\":\"int\"},"
    "{\"name\":\"_EXTRA_FILES\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
    "{\"name\":\"_CREATION_TIME\",\"type\":[\"null\",{\"type\":\"long\","
    "\"logicalType\":\"timestamp-millis\"}],\"default\":null},"
    "{\"name\":\"_DELETE_ROW_COUNT\",\"type\":[\"null\",\"long\"],\"default\":null},"
    "{\"name\":\"_EMBEDDED_FILE_INDEX\",\"type\":[\"null\",\"bytes\"],\"default\":null},"
    "{\"name\":\"_FILE_SOURCE\",\"type\":[\"null\",\"int\"],\"default\":null},"
    "{\"name\":\"_VALUE_STATS_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],"
    "\"default\":null},"
    "{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null},"
    "{\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},"
    "{\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],"
    "\"default\":null},"
    "{\"name\":\"_WRITE_COLS_SEQUENCES\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"long\"}"
    "],"
    "\"default\":null}]}}]}";

#endif
