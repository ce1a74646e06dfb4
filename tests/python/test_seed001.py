"""The Python walkthrough of seed 001 (shared/seeds/001_2f875f249ee6cb2a.txt: "Data evolution and
row tracking"), run with only the import and the catalog options changed (a filesystem warehouse
instead of DLF). Each printed frame of the seed is compared with what cpaimon reads, and pypaimon
reads the same table identically (rows, _ROW_ID, _SEQUENCE_NUMBER) after every step."""
import pyarrow as pa

from conftest_update import Env


def test_seed_001_walkthrough(tmp_path):
    import pandas  # noqa: F401  (the walkthrough prints pandas frames)
    from cpaimon import CatalogFactory, Schema
    from cpaimon.schema.data_types import AtomicType, DataField

    warehouse = tmp_path / "warehouse"
    # Connect to a catalog (the seed's DLF options replaced by a local warehouse)
    catalog = CatalogFactory.create({"warehouse": str(warehouse)})
    catalog.create_database("my_db", True)

    # Create a table
    schema = Schema(
        fields=[
            DataField(0, 'id', AtomicType('INT NOT NULL')),
            DataField(1, 'name', AtomicType('STRING')),
            DataField(2, 'age', AtomicType('INT')),
        ],
        options={
            'row-tracking.enabled': 'true',
            'data-evolution.enabled': 'true',
        },
    )
    catalog.create_table('my_db.target_table', schema, True)
    table = catalog.get_table('my_db.target_table')

    # Write initial data
    write_builder = table.new_batch_write_builder()
    write = write_builder.new_write()
    commit = write_builder.new_commit()

    init_data = pa.RecordBatch.from_pydict({
        'id': [1, 2],
        'name': ['Alice', 'Bob'],
        'age': [30, 25],
    }, schema=pa.schema([
        ('id', pa.int32()),
        ('name', pa.string()),
        ('age', pa.int32()),
    ]))

    write.write_arrow_batch(init_data)
    cmts = write.prepare_commit()
    commit.commit(cmts)
    commit.close()

    # Verify the write operation
    read_builder = table.new_read_builder()
    scanner = read_builder.new_scan()
    reader = read_builder.new_read()
    df = reader.to_arrow(scanner.plan().splits()).to_pandas()
    #    id   name  age
    # 0   1  Alice   30
    # 1   2    Bob   25
    assert df.to_dict("list") == {"id": [1, 2], "name": ["Alice", "Bob"], "age": [30, 25]}
    env = Env(warehouse)
    env.same_rows("my_db.target_table")

    # Update columns by RowId
    write_builder = table.new_batch_write_builder()
    table_update = write_builder.new_update().with_update_type(['age'])
    table_commit = write_builder.new_commit()

    update_data = pa.Table.from_pydict({
        '_ROW_ID': [0, 1],
        'age': [31, 26],
    }, schema=pa.schema([
        ('_ROW_ID', pa.int64()),
        ('age', pa.int32()),
    ]))

    cmts = table_update.update_by_arrow_with_row_id(update_data)
    table_commit.commit(cmts)
    table_commit.close()

    # Verify the update
    reader = table.new_read_builder()
    df = reader.new_read().to_pandas(reader.new_scan().plan().splits())
    #    id   name  age
    # 0   1  Alice   31
    # 1   2    Bob   26
    assert df.to_dict("list") == {"id": [1, 2], "name": ["Alice", "Bob"], "age": [31, 26]}
    assert env.same_rows("my_db.target_table")["_SEQUENCE_NUMBER"].to_pylist() == [2, 2]

    # Upsert by business key
    write_builder = table.new_batch_write_builder()
    table_update = write_builder.new_update()
    table_commit = write_builder.new_commit()

    upsert_data = pa.Table.from_pydict({
        'id': [1, 3],
        'name': ['Alice', 'Charlie'],
        'age': [35, 28],
    }, schema=pa.schema([
        ('id', pa.int32()),
        ('name', pa.string()),
        ('age', pa.int32()),
    ]))

    # Match by the id column: update if id=1, insert if id=3
    cmts = table_update.upsert_by_arrow_with_key(upsert_data, upsert_keys=['id'])
    table_commit.commit(cmts)
    table_commit.close()

    # Verify the upsert operation
    reader = table.new_read_builder()
    df = reader.new_read().to_pandas(reader.new_scan().plan().splits())
    #    id    name  age
    # 0   1   Alice   35
    # 1   2     Bob   26
    # 2   3  Charlie   28
    assert df.to_dict("list") == {"id": [1, 2, 3], "name": ["Alice", "Bob", "Charlie"],
                                  "age": [35, 26, 28]}
    assert env.same_rows("my_db.target_table")["_ROW_ID"].to_pylist() == [0, 1, 2]

    # Shard update
    from cpaimon.schema.schema_change import SchemaChange
    from cpaimon.schema.data_types import ArrayType, AtomicType  # noqa: F811

    # Add the embedding column
    catalog.alter_table('my_db.target_table', [
        SchemaChange.add_column('embedding', ArrayType(True, AtomicType('FLOAT')))
    ])
    table = catalog.get_table('my_db.target_table')  # Get the table again (schema has been updated)

    write_builder = table.new_batch_write_builder()
    update = write_builder.new_update()
    update.with_read_projection(['name'])  # Columns to read
    update.with_update_type(['embedding'])  # Columns to write

    # Single-shard mode (multi-shard parallelism can be configured)
    upd = update.new_shard_updator(shard_num=0, total_shard_count=1)
    reader = upd.arrow_reader()

    for batch in reader:
        names = batch.column('name').to_pylist()
        # Generate embeddings using a model (example only)
        embeddings = [[float(i) * 0.1] * 4 for i in range(len(names))]
        upd.update_by_arrow_batch(
            pa.RecordBatch.from_pydict(
                {'embedding': embeddings},
                schema=pa.schema([('embedding', pa.list_(pa.float32()))])
            )
        )

    commit_messages = upd.prepare_commit()
    commit = write_builder.new_commit()
    commit.commit(commit_messages)
    commit.close()

    # Verify the shard update
    reader = table.new_read_builder()
    df = reader.new_read().to_pandas(reader.new_scan().plan().splits())
    assert df[["id", "name", "age"]].to_dict("list") == {
        "id": [1, 2, 3], "name": ["Alice", "Bob", "Charlie"], "age": [35, 26, 28]}
    # The shard reads the two row-id groups ([0, 1] and [2]) as two batches, so i restarts;
    # pypaimon 2.1.0 running the same walkthrough gives the same three embeddings.
    got = [list(v) for v in df["embedding"]]
    f32 = [float(pa.scalar(x * 0.1, pa.float32()).as_py()) for x in range(2)]
    assert got == [[f32[0]] * 4, [f32[1]] * 4, [f32[0]] * 4]
    env.same_rows("my_db.target_table")
