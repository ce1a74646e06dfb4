"""Seed 001's Python walkthrough, exactly as documented except for two things: the import is
`cpaimon` instead of `pypaimon`, and the catalog is a warehouse given on the command line instead
of DLF: argv[1] is a directory, or a JSON object of catalog options (an s3:// warehouse on the
local S3 server of `make demo`)."""
import json
import sys

import pyarrow as pa
from cpaimon import CatalogFactory, Schema
from cpaimon.schema.data_types import AtomicType, DataField

# Connect to a filesystem catalog on a directory or an object store (the seed connects to DLF)
options = json.loads(sys.argv[1]) if sys.argv[1].startswith('{') else {'warehouse': sys.argv[1]}
catalog = CatalogFactory.create(options)
catalog.create_database('my_db', True)

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
print(df)

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
print(reader.new_read().to_pandas(reader.new_scan().plan().splits()))

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
print(reader.new_read().to_pandas(reader.new_scan().plan().splits()))

from cpaimon.schema.schema_change import SchemaChange
from cpaimon.schema.data_types import ArrayType, AtomicType

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
print(reader.new_read().to_pandas(reader.new_scan().plan().splits()))
