"""pypaimon's pypaimon.catalog.rest package path (the REST catalog itself is
cpaimon.catalog.RESTCatalog)."""
