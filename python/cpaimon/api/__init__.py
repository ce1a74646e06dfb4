"""pypaimon's pypaimon.api package path."""
