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
 *           DataEvolutionCompactCoordinator + DataEvolutionCompactTask (what Spark's sys.compact
 *           runs on a data-evolution table) committed as one COMPACT snapshot; prints the number
 *           of tasks
 */
package org.cpaimon.javatool;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import java.util.ArrayList;

import org.apache.paimon.Snapshot;
import org.apache.paimon.append.dataevolution.DataEvolutionCompactCoordinator;
import org.apache.paimon.append.dataevolution.DataEvolutionCompactTask;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.operation.CleanOrphanFilesResult;
import org.apache.paimon.operation.LocalOrphanFilesClean;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.FileStoreTable;

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
                        List<DataEvolutionCompactTask> tasks =
                                new DataEvolutionCompactCoordinator(table, false, false).plan();
                        List<CommitMessage> messages = new ArrayList<>();
                        String user = java.util.UUID.randomUUID().toString();
                        for (DataEvolutionCompactTask task : tasks) {
                            messages.add(task.doCompact(table, user));
                        }
                        if (!messages.isEmpty()) {
                            try (BatchTableCommit commit =
                                    table.newBatchWriteBuilder().newCommit()) {
                                commit.commit(messages);
                            }
                        }
                        out.append(tasks.size()).append('\n');
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
