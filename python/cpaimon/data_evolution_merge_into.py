"""MERGE INTO for data-evolution tables with pypaimon's names
(``pypaimon.table.data_evolution_merge_into``): ``merge_into``, ``WhenMatched``,
``WhenNotMatched``, ``source_col``, ``target_col``, ``lit``. The implementation is in C
(``paimon_update_merge_into``); see ``cpaimon.update``."""
from cpaimon.update import (  # noqa: F401
    WhenMatched,
    WhenNotMatched,
    lit,
    merge_into,
    source_col,
    target_col,
)

__all__ = ["merge_into", "WhenMatched", "WhenNotMatched", "source_col", "target_col", "lit"]
