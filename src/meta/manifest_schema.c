/*
 * Java Paimon's Avro schemas of the manifest records, as AvroSchemaConverter derives them from
 * ManifestEntry.SCHEMA / DataFileMeta.SCHEMA / SimpleStats.SCHEMA, ManifestFileMeta.SCHEMA and
 * IndexManifestEntry.SCHEMA plus the _VERSION format identifier (spec/format.md §4.1–4.5, §7.1).
 * Nullable fields are ["null", T] with "default": null; nested records are named
 * "<parent>_<FIELD>" in the org.apache.paimon.avro.generated namespace.
 */
#include "meta/manifest.h"

#define NULL_COUNTS                                                                                \
  "{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\","         \
  "\"long\"]}],\"default\":null}"

#define STATS(name)                                                                                \
  "{\"type\":\"record\",\"name\":\"" name "\",\"fields\":["                                        \
  "{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},"                                                 \
  "{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"}," NULL_COUNTS "]}"

#define OPT(name, type) "{\"name\":\"" name "\",\"type\":[\"null\"," type "],\"default\":null}"
#define REQ(name, type) "{\"name\":\"" name "\",\"type\":" type "}"

/* clang-format off */
const char cp_manifest_entry_schema_json[] =
    "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
    "\"fields\":["
      REQ("_VERSION", "\"int\"") ","
      REQ("_KIND", "\"int\"") ","
      REQ("_PARTITION", "\"bytes\"") ","
      REQ("_BUCKET", "\"int\"") ","
      REQ("_TOTAL_BUCKETS", "\"int\"") ","
      "{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE\",\"fields\":["
        REQ("_FILE_NAME", "\"string\"") ","
        REQ("_FILE_SIZE", "\"long\"") ","
        REQ("_ROW_COUNT", "\"long\"") ","
        REQ("_MIN_KEY", "\"bytes\"") ","
        REQ("_MAX_KEY", "\"bytes\"") ","
        REQ("_KEY_STATS", STATS("record__FILE__KEY_STATS")) ","
        REQ("_VALUE_STATS", STATS("record__FILE__VALUE_STATS")) ","
        REQ("_MIN_SEQUENCE_NUMBER", "\"long\"") ","
        REQ("_MAX_SEQUENCE_NUMBER", "\"long\"") ","
        REQ("_SCHEMA_ID", "\"long\"") ","
        REQ("_LEVEL", "\"int\"") ","
        REQ("_EXTRA_FILES", "{\"type\":\"array\",\"items\":\"string\"}") ","
        OPT("_CREATION_TIME", "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}") ","
        OPT("_DELETE_ROW_COUNT", "\"long\"") ","
        OPT("_EMBEDDED_FILE_INDEX", "\"bytes\"") ","
        OPT("_FILE_SOURCE", "\"int\"") ","
        OPT("_VALUE_STATS_COLS", "{\"type\":\"array\",\"items\":\"string\"}") ","
        OPT("_EXTERNAL_PATH", "\"string\"") ","
        OPT("_FIRST_ROW_ID", "\"long\"") ","
        OPT("_WRITE_COLS", "{\"type\":\"array\",\"items\":\"string\"}") ","
        OPT("_WRITE_COLS_SEQUENCES", "{\"type\":\"array\",\"items\":\"long\"}")
      "]}}"
    "]}";

const char cp_manifest_file_meta_schema_json[] =
    "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
    "\"fields\":["
      REQ("_VERSION", "\"int\"") ","
      REQ("_FILE_NAME", "\"string\"") ","
      REQ("_FILE_SIZE", "\"long\"") ","
      REQ("_NUM_ADDED_FILES", "\"long\"") ","
      REQ("_NUM_DELETED_FILES", "\"long\"") ","
      REQ("_PARTITION_STATS", STATS("record__PARTITION_STATS")) ","
      REQ("_SCHEMA_ID", "\"long\"") ","
      OPT("_MIN_BUCKET", "\"int\"") ","
      OPT("_MAX_BUCKET", "\"int\"") ","
      OPT("_MIN_LEVEL", "\"int\"") ","
      OPT("_MAX_LEVEL", "\"int\"") ","
      OPT("_MIN_ROW_ID", "\"long\"") ","
      OPT("_MAX_ROW_ID", "\"long\"")
    "]}";

const char cp_index_manifest_entry_schema_json[] =
    "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\","
    "\"fields\":["
      REQ("_VERSION", "\"int\"") ","
      REQ("_KIND", "\"int\"") ","
      REQ("_PARTITION", "\"bytes\"") ","
      REQ("_BUCKET", "\"int\"") ","
      REQ("_INDEX_TYPE", "\"string\"") ","
      REQ("_FILE_NAME", "\"string\"") ","
      REQ("_FILE_SIZE", "\"long\"") ","
      REQ("_ROW_COUNT", "\"long\"") ","
      OPT("_DELETIONS_VECTORS_RANGES",
          "{\"type\":\"array\",\"items\":[\"null\",{\"type\":\"record\","
          "\"name\":\"record__DELETIONS_VECTORS_RANGES\",\"fields\":["
            REQ("f0", "\"string\"") ","
            REQ("f1", "\"int\"") ","
            REQ("f2", "\"int\"") ","
            OPT("_CARDINALITY", "\"long\"")
          "]}]}") ","
      OPT("_EXTERNAL_PATH", "\"string\"") ","
      OPT("_GLOBAL_INDEX",
          "{\"type\":\"record\",\"name\":\"record__GLOBAL_INDEX\",\"fields\":["
            REQ("_ROW_RANGE_START", "\"long\"") ","
            REQ("_ROW_RANGE_END", "\"long\"") ","
            REQ("_INDEX_FIELD_ID", "\"int\"") ","
            OPT("_EXTRA_FIELD_IDS", "{\"type\":\"array\",\"items\":\"int\"}") ","
            OPT("_INDEX_META", "\"bytes\"") ","
            OPT("_SOURCE_META", "\"bytes\"")
          "]}")
    "]}";
/* clang-format on */
