"""pypaimon's Database at its module path (pypaimon.catalog.database)."""
from cpaimon.catalog import Database

__all__ = ["Database"]
