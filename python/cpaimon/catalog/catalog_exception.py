"""pypaimon's catalog exceptions (pypaimon.catalog.catalog_exception), raised by cpaimon where
pypaimon raises them. Each is also the built-in error cpaimon raised before (FileNotFoundError
for what does not exist, FileExistsError for what already exists), so both spellings catch it.
The message is the C library's, Java's wording; the name is kept as pypaimon keeps it."""


class CatalogException(Exception):
    """Base class of the catalog's exceptions."""


class _Named(CatalogException):
    _text = ""
    _attr = "name"

    def __init__(self, name, message=None):
        full = name.get_full_name() if hasattr(name, "get_full_name") else str(name)
        setattr(self, self._attr, name)
        super().__init__(message or self._text.format(full))


class DatabaseNotExistException(_Named, FileNotFoundError):
    _text, _attr = "Database {} does not exist", "database"


class DatabaseAlreadyExistException(_Named, FileExistsError):
    _text, _attr = "Database {} already exists", "database"


class DatabaseNoPermissionException(_Named, PermissionError):
    _text, _attr = "No permission to access database {}", "database"


class TableNotExistException(_Named, FileNotFoundError):
    _text, _attr = "Table {} does not exist", "identifier"


class TableAlreadyExistException(_Named, FileExistsError):
    _text, _attr = "Table {} already exists", "identifier"


class TableNoPermissionException(_Named, PermissionError):
    _text, _attr = "No permission to access table {}", "identifier"


class ColumnNotExistException(_Named, FileNotFoundError):
    _text, _attr = "Column {} does not exist", "column"


class ColumnAlreadyExistException(_Named, FileExistsError):
    _text, _attr = "Column {} already exists", "column"


# What the C library's messages name, for the binding (python/src/module.c): the message's
# start and end around the name, and the class. Java's wording, with or without the period.
BY_MESSAGE = [
    ("Table ", " does not exist", TableNotExistException),
    ("Table ", " already exists", TableAlreadyExistException),
    ("Database ", " does not exist", DatabaseNotExistException),
    ("Database ", " already exists", DatabaseAlreadyExistException),
]
