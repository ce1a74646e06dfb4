"""Row-level values at pypaimon's module path (``pypaimon.table.row``)."""
