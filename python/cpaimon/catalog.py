"""Catalogs, as in pypaimon: ``CatalogFactory.create({'warehouse': path, ...})``.

The filesystem catalog: a warehouse directory on local disk or on an object store
(``s3://bucket/path``, ``oss://bucket/path``) configured by pypaimon's option names
(``fs.s3.endpoint``, ``fs.s3.accessKeyId``, ...; docs/options.md). Everything is done by the C
library; this module converts arguments and wraps handles.
"""
from typing import Dict, List, Optional, Union

from cpaimon import _cpaimon
from cpaimon.schema.schema import Schema
from cpaimon.schema.schema_change import SchemaChange


def _identifier(identifier) -> str:
    if isinstance(identifier, str):
        return identifier
    # pypaimon's Identifier objects expose get_full_name()
    return identifier.get_full_name()


class CatalogFactory:
    @staticmethod
    def create(options: Dict[str, str]) -> "FileSystemCatalog":
        options = {str(k): str(v) for k, v in (options or {}).items()}
        metastore = options.get("metastore", "filesystem")
        if metastore not in ("filesystem", "rest"):
            raise NotImplementedError(f"metastore '{metastore}' is not supported "
                                      "(filesystem or rest)")
        warehouse = options.get("warehouse")
        if not warehouse:
            raise ValueError("catalog option 'warehouse' is required")
        if metastore == "rest":
            return RESTCatalog(warehouse, options)
        return FileSystemCatalog(warehouse, options)


class FileSystemCatalog:
    def __init__(self, warehouse: str, options: Optional[Dict[str, str]] = None):
        options = {str(k): str(v) for k, v in (options or {}).items()}
        options["warehouse"] = warehouse
        self._handle = _cpaimon.catalog_open(options)
        self.warehouse = _cpaimon.catalog_warehouse(self._handle)
        self.options = options

    def create_database(self, name: str, ignore_if_exists: bool = False,
                        properties: Optional[Dict[str, str]] = None):
        _cpaimon.catalog_create_database(self._handle, name, ignore_if_exists)

    def drop_database(self, name: str, ignore_if_not_exists: bool = False,
                      cascade: bool = False):
        _cpaimon.catalog_drop_database(self._handle, name, ignore_if_not_exists, cascade)

    def list_databases(self) -> List[str]:
        return _cpaimon.catalog_list_databases(self._handle)

    def list_tables(self, database_name: str) -> List[str]:
        return _cpaimon.catalog_list_tables(self._handle, database_name)

    def create_table(self, identifier, schema: Schema, ignore_if_exists: bool = False):
        _cpaimon.catalog_create_table(self._handle, _identifier(identifier),
                                      schema._native_fields(), schema.partition_keys,
                                      schema.primary_keys,
                                      {str(k): str(v) for k, v in schema.options.items()},
                                      schema.comment, ignore_if_exists)

    def get_table(self, identifier):
        ident = _identifier(identifier)
        if "$" in ident.partition(".")[2]:  # "db.t$snapshots": a system table
            from cpaimon.system_table import SystemTable
            return SystemTable(self, _cpaimon.system_table_open(self._handle, ident))
        from cpaimon.table import FileStoreTable
        return FileStoreTable(self, _cpaimon.catalog_get_table(self._handle, ident))

    def drop_table(self, identifier, ignore_if_not_exists: bool = False):
        _cpaimon.catalog_drop_table(self._handle, _identifier(identifier), ignore_if_not_exists)

    def rename_table(self, source_identifier, target_identifier,
                     ignore_if_not_exists: bool = False):
        """Renames a table (pypaimon's signature; Java's ignoreIfNotExists as an extra)."""
        _cpaimon.catalog_rename_table(self._handle, _identifier(source_identifier),
                                      _identifier(target_identifier), ignore_if_not_exists)

    def alter_table(self, identifier, changes: Union[SchemaChange, List[SchemaChange]],
                    ignore_if_not_exists: bool = False):
        if isinstance(changes, SchemaChange):
            changes = [changes]
        _cpaimon.catalog_alter_table(self._handle, _identifier(identifier),
                                     [c._native() for c in changes], ignore_if_not_exists)


class RESTCatalog(FileSystemCatalog):
    """A REST catalog (`metastore: rest`; pypaimon's RESTCatalog): the server at `uri` owns the
    databases, tables and snapshots; `warehouse` names the catalog; `token.provider` is `bear`
    (option `token`) or `dlf` (`dlf.access-key-id`, `dlf.access-key-secret`, ...)."""
