"""pypaimon's PropertyChange at its module path (pypaimon.catalog.rest.property_change)."""
from cpaimon.catalog import PropertyChange

__all__ = ["PropertyChange"]
