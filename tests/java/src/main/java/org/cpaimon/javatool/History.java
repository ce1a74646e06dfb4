/*
 * paimon-tool's `history` command: Java Paimon's tags and rollback on one table, the reference
 * for cpaimon's (tests/python/test_tags_rollback.py).
 *
 *   history WAREHOUSE DB.TABLE --op create-tag --tag NAME [--snapshot N] [--retain-ms M]
 *   history WAREHOUSE DB.TABLE --op replace-tag --tag NAME [--snapshot N] [--retain-ms M]
 *   history WAREHOUSE DB.TABLE --op delete-tag --tag NAME
 *   history WAREHOUSE DB.TABLE --op rename-tag --tag NAME --to NEW
 *   history WAREHOUSE DB.TABLE --op rollback (--snapshot N | --tag NAME)
 *   history WAREHOUSE DB.TABLE --op list-tags      one JSON object per tag: name, snapshot id
 *   history WAREHOUSE DB.TABLE --op expire --retain-max N --retain-min N --older-than-ms MS
 *           [--max-deletes N]                     ExpireSnapshots; prints the number expired
 *   history WAREHOUSE DB.TABLE --op remove-orphans --older-than-ms MS [--dry-run true]
 *           LocalOrphanFilesClean; prints {"count": N, "bytes": B}
 *   history WAREHOUSE DB.TABLE --op compact [--option k=v ...]
 *           what Spark's sys.compact runs, committed as one COMPACT snapshot; prints the number
 *           of tasks: DataEvolutionCompactCoordinator + DataEvolutionCompactTask on a
 *           data-evolution table, else AppendCompactCoordinator (batch) + AppendCompactTask with
 *           the write type carrying _ROW_ID and _SEQUENCE_NUMBER on row-tracking tables
 */
package org.cpaimon.javatool;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import java.util.ArrayList;

import org.apache.paimon.Snapshot;
import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.append.dataevolution.DataEvolutionCompactCoordinator;
import org.apache.paimon.append.dataevolution.DataEvolutionCompactTask;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.operation.CleanOrphanFilesResult;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.source.EndOfScanException;

final class History {
    private final TableCommands cmd;

    History(TableCommands cmd) {
        this.cmd = cmd;
    }

    void run(PaimonTool.Args args, StringBuilder out) throws Exception {
        String op = args.get("op");
        String tag = args.get("tag");
        String snapshot = args.get("snapshot");
        String retain = args.get("retain-ms");
        Duration retained = retain == null ? null : Duration.ofMillis(Long.parseLong(retain));
        try (Catalog catalog = cmd.catalog()) {
            FileStoreTable table = cmd.table(catalog);
            switch (op == null ? "" : op) {
                case "create-tag":
                    if (snapshot == null) {
                        if (retained == null) {
                            table.createTag(tag);
                        } else {
                            table.createTag(tag, retained);
                        }
                    } else if (retained == null) {
                        table.createTag(tag, Long.parseLong(snapshot));
                    } else {
                        table.createTag(tag, Long.parseLong(snapshot), retained);
                    }
                    break;
                case "replace-tag":
                    table.replaceTag(
                            tag, snapshot == null ? null : Long.parseLong(snapshot), retained);
                    break;
                case "delete-tag":
                    table.deleteTag(tag);
                    break;
                case "rename-tag":
                    table.renameTag(tag, args.get("to"));
                    break;
                case "rollback":
                    if (tag != null) {
                        table.rollbackTo(tag);
                    } else {
                        table.rollbackTo(Long.parseLong(snapshot));
                    }
                    break;
                case "expire":
                    {
                        long olderThan = Long.parseLong(args.get("older-than-ms"));
                        ExpireConfig.Builder config =
                                ExpireConfig.builder()
                                        .snapshotRetainMax(Integer.parseInt(args.get("retain-max")))
                                        .snapshotRetainMin(Integer.parseInt(args.get("retain-min")))
                                        .snapshotTimeRetain(
                                                Duration.ofMillis(
                                                        System.currentTimeMillis() - olderThan));
                        String maxDeletes = args.get("max-deletes");
                        config.snapshotMaxDeletes(
                                maxDeletes == null ? Integer.MAX_VALUE : Integer.parseInt(maxDeletes));
                        out.append(table.newExpireSnapshots().config(config.build()).expire())
                                .append('\n');
                        break;
                    }
                case "remove-orphans":
                    {
                        CleanOrphanFilesResult r =
                                new LocalOrphanFilesClean(
                                                table,
                                                Long.parseLong(args.get("older-than-ms")),
                                                "true".equals(args.get("dry-run")))
                                        .clean();
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("count", r.getDeletedFileCount());
                        row.put("bytes", r.getDeletedFileTotalLenInBytes());
                        out.append(Json.write(row)).append('\n');
                        break;
                    }
                case "compact":
                    {
                        Map<String, String> dynamic = TableCommands.dynamicOptions(args);
                        if (!dynamic.isEmpty()) {
                            table = table.copy(dynamic);
                        }
                        List<CommitMessage> messages = new ArrayList<>();
                        String user = java.util.UUID.randomUUID().toString();
                        int tasks = 0;
                        if (table.coreOptions().dataEvolutionEnabled()) {
                            for (DataEvolutionCompactTask task :
                                    new DataEvolutionCompactCoordinator(table, false, false)
                                            .plan()) {
                                messages.add(task.doCompact(table, user));
                                tasks++;
                            }
                        } else {
                            List<AppendCompactTask> planned;
                            try {
                                planned = new AppendCompactCoordinator(table, false).run();
                            } catch (EndOfScanException e) {
                                planned = new ArrayList<>();
                            }
                            BaseAppendFileStoreWrite write =
                                    (BaseAppendFileStoreWrite) table.store().newWrite(user);
                            if (table.coreOptions().rowTrackingEnabled()) {
                                write.withWriteType(
                                        SpecialFields.rowTypeWithRowTracking(table.rowType()));
                            }
                            try {
                                for (AppendCompactTask task : planned) {
                                    messages.add(task.doCompact(table, write));
                                    tasks++;
                                }
                            } finally {
                                write.close();
                            }
                        }
                        if (!messages.isEmpty()) {
                            try (BatchTableCommit commit =
                                    table.newBatchWriteBuilder().newCommit()) {
                                commit.commit(messages);
                            }
                        }
                        out.append(tasks).append('\n');
                        break;
                    }
                case "list-tags":
                    for (Map.Entry<Snapshot, List<String>> e : table.tagManager().tags().entrySet()) {
                        for (String name : e.getValue()) {
                            Map<String, Object> row = new LinkedHashMap<>();
                            row.put("name", name);
                            row.put("snapshot", e.getKey().id());
                            out.append(Json.write(row)).append('\n');
                        }
                    }
                    break;
                default:
                    throw new IllegalArgumentException(
                            "--op create-tag|replace-tag|delete-tag|rename-tag|rollback|list-tags"
                                    + "|expire|remove-orphans|compact");
            }
        }
    }
}
