"""pypaimon's Partition and PagedList at their module path (pypaimon.api.api_response)."""
from cpaimon.catalog import PagedList, Partition

__all__ = ["PagedList", "Partition"]
