/*
 * update-by-row-id: Java Paimon 1.4.2's data-evolution partial write, driven from JSON rows that
 * carry _ROW_ID plus the new values of some columns (spec/data-evolution.md §2.1-2.2, §3.2).
 *
 * Paimon 1.4.2 has no single public "update by row id" call in its core API; Spark's
 * DataEvolutionTableDataWrite (paimon-spark-common, 1.4.2) builds it from public core classes, and
 * this does the same with the same classes:
 *   - a table write with a write type of only the updated columns (write_cols = those names,
 *     table order) whose per-partition RecordWriter is created directly for (partition, bucket 0),
 *     so the partition need not be among the written columns;
 *   - one file per touched row-id range group, covering the whole range (untouched rows copy their
 *     current merged values, read through Paimon's own data-evolution reader), whose DataFileMeta
 *     gets the group's first_row_id via assignFirstRowId;
 *   - a CommitMessageImpl per file, committed in one snapshot with rowIdCheckConflict(base
 *     snapshot) as Spark's MERGE INTO does (--base-snapshot N plans on an older snapshot, so the
 *     conflict checks run against the commits made since).
 * The sequence numbers are left to the committer (data-evolution writers start at 0, so the
 * commit stamps the new snapshot id, §1.2 case 1).
 */
package org.cpaimon.javatool;

import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.operation.AbstractFileStoreWrite;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchWriteBuilderImpl;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RecordWriter;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

final class RowIdUpdate {
    private final TableCommands cmd;

    RowIdUpdate(TableCommands cmd) {
        this.cmd = cmd;
    }

    /** A row-id range group: the range of its normal files and the partition they live in. */
    private static final class Group {
        final BinaryRow partition;
        final long firstRowId;
        final long rowCount;

        Group(BinaryRow partition, long firstRowId, long rowCount) {
            this.partition = partition;
            this.firstRowId = firstRowId;
            this.rowCount = rowCount;
        }
    }

    void run(PaimonTool.Args args, StringBuilder out) throws Exception {
        String jsonFile = args.require("json");
        List<Object> objects = TableCommands.readJsonLines(jsonFile);
        try (Catalog catalog = cmd.catalog()) {
            FileStoreTable table = cmd.table(catalog);
            if (!table.coreOptions().dataEvolutionEnabled()) {
                throw new IllegalArgumentException(
                        "update-by-row-id requires 'data-evolution.enabled' = 'true' on "
                                + cmd.ident);
            }
            RowType writeType = writeType(table, args.get("columns"), objects);
            Map<Long, Map<Integer, Object>> updates = parseUpdates(objects, writeType, jsonFile);
            // --base-snapshot stages the update on an older snapshot, as a writer that planned
            // before other commits landed: the commit then runs Java's conflict checks against
            // everything committed since.
            String baseArg = args.get("base-snapshot");
            Snapshot base =
                    baseArg == null
                            ? table.snapshotManager().latestSnapshot()
                            : table.snapshotManager().snapshot(Long.parseLong(baseArg));
            if (base == null) {
                throw new IllegalArgumentException(cmd.ident + " has no snapshot to update");
            }
            TreeMap<Long, Group> groups = groups(table, base);
            TreeMap<Long, Group> touched = new TreeMap<>();
            for (long rowId : updates.keySet()) {
                Group g = groupOf(groups, rowId);
                touched.put(g.firstRowId, g);
            }
            // Written through the current table, not a time-travel copy pinned at `base`: that
            // would also pin base's schema, and a column added since (ALTER TABLE creates no
            // snapshot) could not be written. Commits after `base` are caught by
            // rowIdCheckConflict.
            FileStoreTable readFrom =
                    baseArg == null ? table : TableCommands.atSnapshot(table, baseArg);
            Map<Long, GenericRow> current = readCurrent(readFrom, writeType, touched);
            BatchWriteBuilderImpl wb = (BatchWriteBuilderImpl) table.newBatchWriteBuilder();
            wb.rowIdCheckConflict(base.id());
            List<CommitMessage> messages = new ArrayList<>();
            for (Group g : touched.values()) {
                messages.add(writeGroup(wb, writeType, g, updates, current));
            }
            try (BatchTableCommit commit = wb.newCommit()) {
                commit.commit(messages);
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("rows", (long) updates.size());
            result.put("files", (long) messages.size());
            result.put("write_cols", new ArrayList<Object>(writeType.getFieldNames()));
            out.append(Json.write(result)).append('\n');
        }
    }

    /** The updated columns, in table order: --columns, else every key of the rows but _ROW_ID. */
    @SuppressWarnings("unchecked")
    private RowType writeType(FileStoreTable table, String columns, List<Object> objects) {
        List<String> wanted = new ArrayList<>();
        if (columns != null) {
            for (String c : columns.split(",")) {
                wanted.add(c.trim());
            }
        } else {
            for (Object o : objects) {
                for (String k : ((Map<String, Object>) o).keySet()) {
                    if (!k.equals(SpecialFields.ROW_ID.name()) && !wanted.contains(k)) {
                        wanted.add(k);
                    }
                }
            }
        }
        if (wanted.isEmpty()) {
            throw new IllegalArgumentException("no columns to update besides _ROW_ID");
        }
        RowType rowType = table.rowType();
        List<String> inTableOrder = new ArrayList<>();
        for (String name : wanted) {
            if (rowType.getFieldIndex(name) < 0) {
                throw new IllegalArgumentException(
                        "column " + name + " is not in " + cmd.ident + " " + rowType.getFieldNames());
            }
            if (table.partitionKeys().contains(name)) {
                throw new IllegalArgumentException(
                        "Update to partition columns is not supported for data evolution tables ("
                                + name + ")");
            }
        }
        for (DataField f : rowType.getFields()) {
            if (wanted.contains(f.name())) {
                inTableOrder.add(f.name());
            }
        }
        return rowType.project(inTableOrder);
    }

    /**
     * Per row id, the new values by column position. A column a row leaves out keeps its
     * current value (rows of one input may update different columns).
     */
    @SuppressWarnings("unchecked")
    private static Map<Long, Map<Integer, Object>> parseUpdates(
            List<Object> objects, RowType writeType, String jsonFile) {
        Map<Long, Map<Integer, Object>> updates = new HashMap<>();
        for (int i = 0; i < objects.size(); i++) {
            Map<String, Object> obj = new LinkedHashMap<>((Map<String, Object>) objects.get(i));
            Object id = obj.remove(SpecialFields.ROW_ID.name());
            String where = jsonFile + " row " + (i + 1);
            if (!(id instanceof BigDecimal)) {
                throw new IllegalArgumentException(where + ": _ROW_ID must be an integer");
            }
            long rowId = ((BigDecimal) id).longValueExact();
            Map<Integer, Object> values = new HashMap<>();
            try {
                for (Map.Entry<String, Object> e : obj.entrySet()) {
                    int pos = writeType.getFieldIndex(e.getKey());
                    if (pos < 0) {
                        throw new IllegalArgumentException(
                                "column " + e.getKey() + " is not among the updated columns "
                                        + writeType.getFieldNames());
                    }
                    values.put(pos, Values.toInternal(e.getValue(), writeType.getTypeAt(pos),
                            e.getKey()));
                }
            } catch (IllegalArgumentException | ClassCastException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
            if (updates.put(rowId, values) != null) {
                throw new IllegalArgumentException(
                        where + ": Input data contains duplicate _ROW_ID values (" + rowId + ")");
            }
        }
        return updates;
    }

    /** Row-id range groups of the snapshot's live normal files, keyed by first_row_id. */
    private TreeMap<Long, Group> groups(FileStoreTable table, Snapshot base) {
        TreeMap<Long, Group> groups = new TreeMap<>();
        for (ManifestEntry e : table.store().newScan().withSnapshot(base).plan().files()) {
            DataFileMeta f = e.file();
            if (f.firstRowId() == null || f.fileName().endsWith(".blob")) {
                continue;
            }
            Group g = groups.get(f.firstRowId());
            if (g != null && g.rowCount != f.rowCount()) {
                throw new IllegalStateException(
                        "files with first_row_id " + f.firstRowId() + " differ in row count ("
                                + g.rowCount + " vs " + f.rowCount() + ", " + f.fileName() + ")");
            }
            groups.put(f.firstRowId(), new Group(e.partition(), f.firstRowId(), f.rowCount()));
        }
        return groups;
    }

    private Group groupOf(TreeMap<Long, Group> groups, long rowId) {
        Map.Entry<Long, Group> e = groups.floorEntry(rowId);
        if (e == null || rowId >= e.getKey() + e.getValue().rowCount) {
            List<String> ranges = new ArrayList<>();
            for (Group g : groups.values()) {
                ranges.add("[" + g.firstRowId + ", " + (g.firstRowId + g.rowCount - 1) + "]");
            }
            throw new IllegalArgumentException(
                    "Row ID " + rowId + " does not belong to any valid range " + ranges);
        }
        return e.getValue();
    }

    /** Current merged values of the updated columns for every row of the touched groups. */
    private static Map<Long, GenericRow> readCurrent(
            FileStoreTable table, RowType writeType, TreeMap<Long, Group> touched)
            throws Exception {
        // All columns are read, not just the updated ones: Paimon 1.4.2's data-evolution scan
        // drops every file holding none of the read columns, so a group whose files all lack
        // them (a column added after the group was written) would return no rows at all.
        RowType readType = SpecialFields.rowTypeWithRowId(table.rowType());
        int rowIdPos = table.rowType().getFieldCount();
        int width = writeType.getFieldCount();
        InternalRowSerializer copier = new InternalRowSerializer(readType);
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            int pos = readType.getFieldIndex(writeType.getFieldNames().get(i));
            if (pos < 0) {
                throw new IllegalArgumentException(
                        "column " + writeType.getFieldNames().get(i)
                                + " is not in the schema of the base snapshot");
            }
            getters.add(InternalRow.createFieldGetter(writeType.getTypeAt(i), pos));
        }
        Map<Long, GenericRow> current = new HashMap<>();
        ReadBuilder rb = table.newReadBuilder().withReadType(readType);
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(
                    row -> {
                        long rowId = row.getLong(rowIdPos);
                        Map.Entry<Long, Group> g = touched.floorEntry(rowId);
                        if (g != null && rowId < g.getKey() + g.getValue().rowCount) {
                            // Copied: the reader reuses its buffers between rows.
                            InternalRow copy = copier.copy(row);
                            GenericRow values = new GenericRow(width);
                            for (int i = 0; i < width; i++) {
                                values.setField(i, getters.get(i).getFieldOrNull(copy));
                            }
                            current.put(rowId, values);
                        }
                    });
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    private static CommitMessage writeGroup(
            BatchWriteBuilderImpl wb,
            RowType writeType,
            Group g,
            Map<Long, Map<Integer, Object>> updates,
            Map<Long, GenericRow> current)
            throws Exception {
        TableWriteImpl<InternalRow> tableWrite =
                (TableWriteImpl<InternalRow>) wb.newWrite().withWriteType(writeType);
        AbstractFileStoreWrite<InternalRow> storeWrite =
                (AbstractFileStoreWrite<InternalRow>) tableWrite.getWrite();
        RecordWriter<InternalRow> writer = storeWrite.createWriter(g.partition, 0);
        try {
            for (long pos = 0; pos < g.rowCount; pos++) {
                long rowId = g.firstRowId + pos;
                GenericRow row = current.get(rowId);
                if (row == null) {
                    throw new IllegalStateException(
                            "row id " + rowId + " of group [" + g.firstRowId + ", "
                                    + (g.firstRowId + g.rowCount - 1) + "] was not returned by"
                                    + " the read (deleted?)");
                }
                Map<Integer, Object> update = updates.get(rowId);
                if (update != null) {
                    for (Map.Entry<Integer, Object> e : update.entrySet()) {
                        row.setField(e.getKey(), e.getValue());
                    }
                }
                writer.write(row);
            }
            List<DataFileMeta> files = writer.prepareCommit(false).newFilesIncrement().newFiles();
            if (files.size() != 1) {
                throw new IllegalStateException(
                        "expected one file for group " + g.firstRowId + ", got " + files.size());
            }
            DataFileMeta file = files.get(0).assignFirstRowId(g.firstRowId);
            return new CommitMessageImpl(
                    g.partition,
                    0,
                    null,
                    new DataIncrement(
                            Collections.singletonList(file),
                            Collections.emptyList(),
                            Collections.emptyList()),
                    CompactIncrement.emptyIncrement());
        } finally {
            writer.close();
            tableWrite.close();
        }
    }
}
