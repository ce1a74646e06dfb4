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


class Database:
    """A database and its options (pypaimon's catalog.database.Database)."""

    def __init__(self, name: str, comment: Optional[str], options: Dict[str, str]):
        self.name = name
        self.options = options
        self.comment = comment

    def __eq__(self, other):
        return (isinstance(other, Database) and self.name == other.name
                and self.options == other.options and self.comment == other.comment)

    def __repr__(self):
        return f"Database(name={self.name!r}, options={self.options!r})"


class PropertyChange:
    """pypaimon's PropertyChange: ``set_property(key, value)`` or ``remove_property(key)``."""
    __slots__ = ("property", "value")

    def __init__(self, property: str, value: Optional[str]):
        self.property = property
        self.value = value

    @staticmethod
    def set_property(property: str, value: str) -> "PropertyChange":
        return PropertyChange(property, value)

    @staticmethod
    def remove_property(property: str) -> "PropertyChange":
        return PropertyChange(property, None)


class Partition:
    """A partition and its statistics (pypaimon's api_response.Partition fields)."""
    __slots__ = ("spec", "record_count", "file_size_in_bytes", "file_count",
                 "last_file_creation_time", "done")

    def __init__(self, spec, record_count, file_size_in_bytes, file_count,
                 last_file_creation_time, done):
        self.spec = spec
        self.record_count = record_count
        self.file_size_in_bytes = file_size_in_bytes
        self.file_count = file_count
        self.last_file_creation_time = last_file_creation_time
        self.done = done

    def __repr__(self):
        return (f"Partition(spec={self.spec!r}, record_count={self.record_count}, "
                f"file_size_in_bytes={self.file_size_in_bytes}, file_count={self.file_count})")


class PagedList:
    """pypaimon's PagedList: ``elements`` and ``next_page_token``."""
    __slots__ = ("elements", "next_page_token")

    def __init__(self, elements, next_page_token=None):
        self.elements = elements
        self.next_page_token = next_page_token


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
        """A file system keeps no properties (as Java, which refuses only `location`)."""
        _cpaimon.catalog_create_database(self._handle, name, ignore_if_exists,
                                         {str(k): str(v) for k, v in (properties or {}).items()})

    def get_database(self, name: str) -> "Database":
        return Database(*_cpaimon.catalog_get_database(self._handle, name))

    def alter_database(self, name: str, changes: List["PropertyChange"],
                       ignore_if_not_exists: bool = False):
        """Sets and removes database properties: pypaimon's PropertyChange.set_property(k, v) /
        remove_property(k) objects, or cpaimon's. A file system refuses, as Java does."""
        _cpaimon.catalog_alter_database(
            self._handle, name, [(c.property, getattr(c, "value", None)) for c in changes],
            ignore_if_not_exists)

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

    def list_partitions(self, identifier) -> List["Partition"]:
        """Every partition of the table with its statistics (REST: as the server tracks them for
        `metastore.partitioned-table` tables; otherwise summed from the table's files)."""
        return [Partition(spec, rc, size, n, when, done) for spec, rc, size, n, when, done in
                _cpaimon.catalog_list_partitions(self._handle, _identifier(identifier))]

    def list_partitions_paged(self, identifier, max_results: Optional[int] = None,
                              page_token: Optional[str] = None,
                              partition_name_pattern: Optional[str] = None) -> "PagedList":
        """pypaimon's call. cpaimon answers with every partition in one page (it follows the
        server's pages itself); a name pattern is not supported."""
        if partition_name_pattern is not None:
            raise NotImplementedError("list_partitions_paged: partition_name_pattern is not "
                                      "supported by cpaimon")
        if page_token is not None:
            return PagedList([], None)  # the first page held them all
        return PagedList(self.list_partitions(identifier), None)

    def drop_partitions(self, identifier, partitions: List[Dict[str, str]]) -> None:
        """Drops the partitions (pypaimon's, Java's dropPartitions): one OVERWRITE snapshot."""
        if not partitions:
            raise ValueError("Partitions list cannot be empty.")
        self.get_table(identifier).new_batch_write_builder().new_commit().truncate_partitions(
            partitions)

    def create_partitions(self, identifier, partitions: List[Dict[str, str]],
                          ignore_if_exists: bool = True) -> None:
        """pypaimon's call: registering partitions is a REST catalog operation (catalog-managed
        partitions); a file system catalog refuses it, as pypaimon's does. (cpaimon's REST
        catalog refuses it too for now: Java 1.4.2's reference server has no such endpoint to
        test it against.)"""
        raise NotImplementedError("create_partitions is not supported by this catalog. "
                                  "Use REST catalog for partition creation.")

    def rename_table(self, source_identifier, target_identifier,
                     ignore_if_not_exists: bool = False):
        """Renames a table (pypaimon's signature; Java's ignoreIfNotExists as an extra)."""
        _cpaimon.catalog_rename_table(self._handle, _identifier(source_identifier),
                                      _identifier(target_identifier), ignore_if_not_exists)

    def alter_table(self, identifier, changes: Union[SchemaChange, List[SchemaChange]],
                    ignore_if_not_exists: bool = False):
        if isinstance(changes, SchemaChange):
            changes = [changes]
        ident = _identifier(identifier)
        try:
            _cpaimon.catalog_alter_table(
                self._handle, ident, [n for c in changes for n in c._natives()],
                ignore_if_not_exists)
        except (FileExistsError, FileNotFoundError) as e:
            # pypaimon raises a RuntimeError for a change naming a column that is (not) there
            if str(e).startswith("Column "):
                raise RuntimeError(f"Failed to alter table {ident}: {e}") from e
            raise


class RESTCatalog(FileSystemCatalog):
    """A REST catalog (`metastore: rest`; pypaimon's RESTCatalog): the server at `uri` owns the
    databases, tables and snapshots; `warehouse` names the catalog; `token.provider` is `bear`
    (option `token`) or `dlf` (`dlf.access-key-id`, `dlf.access-key-secret`, ...)."""
