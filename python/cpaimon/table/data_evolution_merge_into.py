"""MERGE INTO for data-evolution tables under pypaimon's module path
(``pypaimon.table.data_evolution_merge_into``), so pypaimon code runs with only the import
changed: the names of ``cpaimon.data_evolution_merge_into``, whose work is done in C."""
from cpaimon.data_evolution_merge_into import *  # noqa: F401,F403
from cpaimon.data_evolution_merge_into import __all__  # noqa: F401
