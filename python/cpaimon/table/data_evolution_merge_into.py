"""MERGE INTO for data-evolution tables under pypaimon's module path
(``pypaimon.table.data_evolution_merge_into``), so pypaimon code runs with only the import
changed. The names are those of ``cpaimon.data_evolution_merge_into``; the work is done in C
(``paimon_update_merge_into``)."""
from cpaimon.data_evolution_merge_into import (  # noqa: F401
    WhenMatched,
    WhenNotMatched,
    lit,
    merge_into,
    source_col,
    target_col,
)

__all__ = ["merge_into", "WhenMatched", "WhenNotMatched", "source_col", "target_col", "lit"]
