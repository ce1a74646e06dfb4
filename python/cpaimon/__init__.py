"""cpaimon: Apache Paimon append tables with row tracking and data evolution, native core in C.

The API mirrors pypaimon's (``CatalogFactory``, ``Schema``, write/commit/read builders), so code
written for pypaimon runs with only the import changed. All table logic is in the C library; this
package is a thin binding over it.
"""
import importlib
import importlib.util
import os
import pathlib
import sys


def _load_native():
    """Loads the extension module: from $CPAIMON_BUILD/python when that is set (a developer's build
    tree), else the one installed in the package (pip install), else <repo>/build/python (the
    repository's own `make build`)."""
    override = os.environ.get("CPAIMON_BUILD")
    if override is None and importlib.util.find_spec("cpaimon._cpaimon") is not None:
        return importlib.import_module("cpaimon._cpaimon")
    build = pathlib.Path(override or pathlib.Path(__file__).resolve().parents[2] / "build")
    for candidate in sorted((build / "python").glob("_cpaimon*.so")):
        spec = importlib.util.spec_from_file_location("cpaimon._cpaimon", candidate)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["cpaimon._cpaimon"] = module
        return module
    raise ImportError(f"cpaimon's native module is not built in {build / 'python'}; "
                      "run `make build` (or install the package: pip install .)")


_cpaimon = _load_native()
__version__ = _cpaimon.version()
CommitConflictError = _cpaimon.CommitConflictError

from cpaimon.catalog import CatalogFactory  # noqa: E402
from cpaimon.schema.schema import Schema  # noqa: E402

__all__ = ["CatalogFactory", "Schema", "CommitConflictError", "__version__"]
