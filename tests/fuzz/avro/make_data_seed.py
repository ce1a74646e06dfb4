"""Writes a seed for fuzz_avro_data: a small Avro data file with the harness's row type, in the
layout Java Paimon's AvroSchemaConverter gives it, through fastavro (the project's venv)."""
import sys

import fastavro

NS = "org.apache.paimon.avro.generated.record"


def opt(t):
    return ["null", t]


schema = {"type": "record", "name": NS, "fields": [
    {"name": "id", "type": opt("long"), "default": None},
    {"name": "b", "type": opt("boolean"), "default": None},
    {"name": "f", "type": opt("double"), "default": None},
    {"name": "s", "type": opt("string"), "default": None},
    {"name": "bin", "type": opt("bytes"), "default": None},
    {"name": "dec", "type": opt({"type": "bytes", "logicalType": "decimal", "precision": 20,
                                 "scale": 2}), "default": None},
    {"name": "dt", "type": opt({"type": "int", "logicalType": "date"}), "default": None},
    {"name": "t", "type": opt({"type": "int", "logicalType": "time-millis"}), "default": None},
    {"name": "ts", "type": opt({"type": "long", "logicalType": "timestamp-micros"}),
     "default": None},
    {"name": "ts3", "type": opt({"type": "long", "logicalType": "timestamp-millis"}),
     "default": None},
    {"name": "a", "type": opt({"type": "array", "items": opt("int")}), "default": None},
    {"name": "ms", "type": opt({"type": "map", "values": opt("long")}), "default": None},
    {"name": "mi", "type": opt({"type": "array", "logicalType": "map", "items": {
        "type": "record", "name": NS + "_mi", "fields": [
            {"name": "key", "type": "int"},
            {"name": "value", "type": opt("string"), "default": None}]}}), "default": None},
    {"name": "r", "type": opt({"type": "record", "name": NS + "_r", "fields": [
        {"name": "x", "type": opt("int"), "default": None},
        {"name": "y", "type": opt({"type": "array", "items": opt("string")}), "default": None}]}),
     "default": None},
]}
rows = [{"id": i, "b": i % 2 == 0, "f": i / 3, "s": f"s{i}", "bin": bytes([i]),
         "dec": None, "dt": i, "t": i * 1000, "ts": i * 1000001, "ts3": i * 1001,
         "a": [i, None], "ms": {"k": i}, "mi": [{"key": i, "value": "v"}],
         "r": {"x": i, "y": ["y"]}} for i in range(12)]
rows.append({k["name"]: None for k in schema["fields"]})
with open(sys.argv[1], "wb") as f:
    fastavro.writer(f, schema, rows, codec=sys.argv[2] if len(sys.argv) > 2 else "null",
                    sync_interval=200)
