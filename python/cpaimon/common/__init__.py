"""pypaimon's pypaimon.common package path."""
