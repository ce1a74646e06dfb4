/*
 * The table sub-commands of paimon-tool (read, write, files, schema, snapshot) over Java Paimon's
 * public table API: FileSystemCatalog, ReadBuilder with a read type that may include the row
 * tracking system fields (or a system table's row type, for "db.t$files" and the like),
 * BatchWriteBuilder, and the file store scan for file metadata. See PaimonTool for the command
 * line and Values for the JSON value form.
 */
package org.cpaimon.javatool;

import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.operation.FileStoreScan;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.JsonSerdeUtil;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class TableCommands {
    final String warehouse;
    final String ident;
    /** --catalog KEY=VALUE options; empty: a FileSystemCatalog on the warehouse path. */
    final List<String> catalogOptions;

    TableCommands(String warehouse, String ident, List<String> catalogOptions) {
        this.warehouse = warehouse;
        this.ident = ident;
        this.catalogOptions = catalogOptions;
    }

    /**
     * The catalog, without caching (cpaimon commits in between): a FileSystemCatalog on the
     * warehouse, or whatever --catalog describes (metastore=rest: Java's RESTCatalog, with
     * WAREHOUSE as the catalog name sent to the server).
     */
    Catalog catalog() {
        Options options = new Options();
        for (String kv : catalogOptions) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--catalog takes KEY=VALUE, got '" + kv + "'");
            }
            options.set(kv.substring(0, eq), kv.substring(eq + 1));
        }
        options.set("warehouse", warehouse);
        options.set("cache-enabled", "false");
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    FileStoreTable table(Catalog catalog) throws Catalog.TableNotExistException {
        Table t = catalog.getTable(Identifier.fromString(ident));
        if (!(t instanceof FileStoreTable)) {
            throw new IllegalArgumentException(ident + " is not a file store table");
        }
        return (FileStoreTable) t;
    }

    static FileStoreTable atSnapshot(FileStoreTable table, String snapshot) {
        if (snapshot == null) {
            return table;
        }
        return table.copy(Collections.singletonMap("scan.snapshot-id", snapshot));
    }

    /** The repeatable --option KEY=VALUE arguments, for table.copy. */
    static Map<String, String> dynamicOptions(PaimonTool.Args args) {
        Map<String, String> dynamic = new LinkedHashMap<>();
        for (String kv : args.all("option")) {
            int eq = kv.indexOf('=');
            dynamic.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return dynamic;
    }

    void read(PaimonTool.Args args, StringBuilder out) throws Exception {
        if (Identifier.fromString(ident).isSystemTable()) {
            readSystemTable(args, out);
            return;
        }
        try (Catalog catalog = catalog()) {
            FileStoreTable table = atSnapshot(table(catalog), args.get("snapshot"));
            Map<String, String> dynamic = dynamicOptions(args);
            if (!dynamic.isEmpty()) {
                table = table.copy(dynamic);
            }
            RowType type = table.rowType();
            String columns = args.get("columns");
            if (columns != null) {
                type = type.project(Arrays.asList(columns.split(",")));
            }
            if (args.flag("with-row-tracking")) {
                if (!table.coreOptions().rowTrackingEnabled()) {
                    throw new IllegalArgumentException(
                            ident + " does not have 'row-tracking.enabled' = 'true'");
                }
                type = SpecialFields.rowTypeWithRowTracking(type);
            }
            ReadBuilder rb = table.newReadBuilder().withReadType(type);
            String filter = args.get("filter");
            if (filter != null) {
                rb = rb.withFilter(filterOf(table.rowType(), filter));
            }
            RowType rowType = type;
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan())) {
                reader.forEachRemaining(
                        row -> {
                            Values.renderRow(out, row, rowType);
                            out.append('\n');
                        });
            }
        }
    }

    /**
     * --filter COLUMN,OP,JSON (OP one of eq ne lt le gt ge; JSON a value in Values' form): the
     * predicate Java's scan prunes files and row groups with. The read is not an exact filter, so a
     * test compares which rows survive pruning, not a filtered result.
     */
    private static Predicate filterOf(RowType type, String spec) {
        String[] parts = spec.split(",", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("--filter wants COLUMN,OP,JSON, not " + spec);
        }
        int index = type.getFieldIndex(parts[0]);
        if (index < 0) {
            throw new IllegalArgumentException("--filter: no column " + parts[0]);
        }
        Object literal =
                Values.toInternal(Json.parse(parts[2]), type.getTypeAt(index), parts[0]);
        PredicateBuilder b = new PredicateBuilder(type);
        switch (parts[1]) {
            case "eq":
                return b.equal(index, literal);
            case "ne":
                return b.notEqual(index, literal);
            case "lt":
                return b.lessThan(index, literal);
            case "le":
                return b.lessOrEqual(index, literal);
            case "gt":
                return b.greaterThan(index, literal);
            case "ge":
                return b.greaterOrEqual(index, literal);
            default:
                throw new IllegalArgumentException("--filter: unknown operator " + parts[1]);
        }
    }

    /**
     * A system table ("db.t$snapshots", "db.t$files", ...) read through the same ReadBuilder API
     * as a data table, with --columns projecting its row type (no snapshot or row tracking).
     */
    private void readSystemTable(PaimonTool.Args args, StringBuilder out) throws Exception {
        if (args.get("snapshot") != null || args.flag("with-row-tracking")) {
            throw new IllegalArgumentException(
                    "--snapshot and --with-row-tracking do not apply to system table " + ident);
        }
        try (Catalog catalog = catalog()) {
            Table t = catalog.getTable(Identifier.fromString(ident));
            RowType type = t.rowType();
            String columns = args.get("columns");
            if (columns != null) {
                type = type.project(Arrays.asList(columns.split(",")));
            }
            ReadBuilder rb = t.newReadBuilder().withReadType(type);
            RowType rowType = type;
            try (RecordReader<InternalRow> reader =
                    rb.newRead().createReader(rb.newScan().plan())) {
                reader.forEachRemaining(
                        row -> {
                            Values.renderRow(out, row, rowType);
                            out.append('\n');
                        });
            }
        }
    }

    void write(PaimonTool.Args args, StringBuilder out) throws Exception {
        String jsonFile = args.require("json");
        List<Object> objects = readJsonLines(jsonFile);
        try (Catalog catalog = catalog()) {
            Identifier id = Identifier.fromString(ident);
            String schemaArg = args.get("schema");
            List<String> optionArgs = args.all("option");
            try {
                catalog.getTable(id);
            } catch (Catalog.TableNotExistException e) {
                if (schemaArg == null) {
                    throw new IllegalArgumentException(
                            "table " + ident + " does not exist and no --schema was given", e);
                }
                catalog.createDatabase(id.getDatabaseName(), true);
                catalog.createTable(id, parseSchema(schemaArg, optionArgs), false);
            }
            FileStoreTable table = table(catalog);
            RowType type = table.rowType();
            BatchWriteBuilder wb = table.newBatchWriteBuilder();
            try (BatchTableWrite w = wb.newWrite();
                    BatchTableCommit c = wb.newCommit()) {
                for (int i = 0; i < objects.size(); i++) {
                    try {
                        w.write(Values.toRow(objects.get(i), type, ""));
                    } catch (IllegalArgumentException | ClassCastException e) {
                        throw new IllegalArgumentException(
                                jsonFile + " row " + (i + 1) + ": " + e.getMessage(), e);
                    }
                }
                c.commit(w.prepareCommit());
            }
            Snapshot latest = table.snapshotManager().latestSnapshot();
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("rows", (long) objects.size());
            result.put("snapshot", latest == null ? null : latest.id());
            out.append(Json.write(result)).append('\n');
        }
    }

    /**
     * The --schema document (Paimon's schema-file form; version, id and highestFieldId may be
     * left out) parsed by Paimon's own schema deserializer, with --option k=v added.
     */
    @SuppressWarnings("unchecked")
    static Schema parseSchema(String arg, List<String> optionArgs) throws IOException {
        String text =
                arg.startsWith("@")
                        ? new String(Files.readAllBytes(Paths.get(arg.substring(1))),
                                StandardCharsets.UTF_8)
                        : arg;
        Object parsed = Json.parse(text);
        if (!(parsed instanceof Map) || !(((Map<String, Object>) parsed).get("fields")
                instanceof List)) {
            throw new IllegalArgumentException("--schema must be a JSON object with \"fields\"");
        }
        Map<String, Object> doc = new LinkedHashMap<>((Map<String, Object>) parsed);
        long highest = -1;
        for (Object f : (List<Object>) doc.get("fields")) {
            Object fid = f instanceof Map ? ((Map<String, Object>) f).get("id") : null;
            if (fid instanceof Number) {
                highest = Math.max(highest, ((Number) fid).longValue());
            }
        }
        doc.putIfAbsent("version", 3L);
        doc.putIfAbsent("id", 0L);
        doc.putIfAbsent("highestFieldId", highest);
        doc.putIfAbsent("partitionKeys", new ArrayList<>());
        doc.putIfAbsent("primaryKeys", new ArrayList<>());
        doc.putIfAbsent("options", new LinkedHashMap<>());
        TableSchema ts = JsonSerdeUtil.fromJson(Json.write(doc), TableSchema.class);
        Map<String, String> options = new LinkedHashMap<>(ts.options());
        for (String kv : optionArgs) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--option takes KEY=VALUE, got '" + kv + "'");
            }
            options.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return new Schema(ts.fields(), ts.partitionKeys(), ts.primaryKeys(), options, ts.comment());
    }

    /** Rows of a JSON-lines file: one JSON object a line, blank lines skipped. */
    static List<Object> readJsonLines(String path) throws IOException {
        List<Object> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            Object o;
            try {
                o = Json.parse(lines.get(i));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(path + " line " + (i + 1) + ": "
                        + e.getMessage(), e);
            }
            if (!(o instanceof Map)) {
                throw new IllegalArgumentException(
                        path + " line " + (i + 1) + ": a row must be a JSON object");
            }
            rows.add(o);
        }
        return rows;
    }

    void files(PaimonTool.Args args, StringBuilder out) throws Exception {
        try (Catalog catalog = catalog()) {
            FileStoreTable table = table(catalog);
            FileStoreScan scan = table.store().newScan();
            String snapshot = args.get("snapshot");
            if (snapshot != null) {
                scan.withSnapshot(Long.parseLong(snapshot));
            }
            RowType partitionType = table.schema().logicalPartitionType();
            for (ManifestEntry e : scan.plan().files()) {
                renderFile(out, e, partitionType);
                out.append('\n');
            }
        }
    }

    private static void renderFile(StringBuilder out, ManifestEntry e, RowType partitionType) {
        DataFileMeta f = e.file();
        out.append("{\"partition\":");
        Values.renderRow(out, e.partition(), partitionType);
        out.append(",\"bucket\":").append(e.bucket());
        out.append(",\"file_name\":");
        Json.writeString(out, f.fileName());
        out.append(",\"first_row_id\":").append(f.firstRowId());
        out.append(",\"row_count\":").append(f.rowCount());
        out.append(",\"write_cols\":");
        Json.write(out, f.writeCols() == null ? null : new ArrayList<Object>(f.writeCols()));
        out.append(",\"min_sequence_number\":").append(f.minSequenceNumber());
        out.append(",\"max_sequence_number\":").append(f.maxSequenceNumber());
        out.append(",\"schema_id\":").append(f.schemaId());
        out.append(",\"level\":").append(f.level());
        out.append(",\"file_source\":");
        Json.write(out, f.fileSource().map(Enum::name).orElse(null));
        out.append('}');
    }

    void schema(StringBuilder out) throws Exception {
        try (Catalog catalog = catalog()) {
            out.append(JsonSerdeUtil.toFlatJson(table(catalog).schema())).append('\n');
        }
    }

    void snapshot(StringBuilder out) throws Exception {
        try (Catalog catalog = catalog()) {
            Snapshot s = table(catalog).snapshotManager().latestSnapshot();
            out.append(s == null ? "null" : JsonSerdeUtil.toFlatJson(s)).append('\n');
        }
    }
}
