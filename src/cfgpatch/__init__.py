"""cfgpatch: safe, explainable changes to JSON and Kubernetes configuration.

The core (this package, minus ``server``, ``store.sqlite``/``store.postgres`` and
``cli``) uses only the Python standard library, so it also runs in the browser.

``cfgpatch.diff`` and ``cfgpatch.rebase`` are functions, whatever has been
imported before; their modules are reached with ``from cfgpatch.diff import ...``
and ``from cfgpatch.rebase import ...``.

>>> from cfgpatch import run
>>> run([["put", "cfg", '{"a":1}'], ["apply", "cfg", '[{"op":"replace","path":"/a","value":2}]'],
...      ["get", "cfg"]])
[1, 2, '{"a":2}']
"""

from __future__ import annotations

from typing import Any

# The submodules ``diff`` and ``rebase`` share their names with public functions
# below.  Importing a submodule for the first time sets the package attribute of
# that name to the module, so both are imported here, before the functions are
# defined: later imports find them in ``sys.modules`` and leave the functions alone.
from . import diff as _diff_module
from . import rebase as _rebase_module
from .errors import (
    CfgPatchError,
    InvalidInput,
    KubeError,
    LimitExceeded,
    LookupFailed,
    MergeConflict,
    PatchFailed,
    StoreError,
    TestFailed,
)
from .jsonpatch import apply_patch
from .jsonvalue import canonical, equal, parse
from .mergepatch import apply_merge_patch, create_merge_patch
from .pointer import escape_token, format_pointer, parse_pointer

__version__ = "0.1.0"

#: Public names imported when first used (the service and its contract pull in the whole
#: store and diff machinery; a command line that only patches a file does not need it).
_LAZY = {"run": "contract", "Service": "service"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "CfgPatchError",
    "InvalidInput",
    "KubeError",
    "LimitExceeded",
    "LookupFailed",
    "MergeConflict",
    "PatchFailed",
    "Service",
    "StoreError",
    "TestFailed",
    "apply_merge_patch",
    "apply_patch",
    "canonical",
    "create_merge_patch",
    "diff",
    "equal",
    "escape_token",
    "format_pointer",
    "merge",
    "parse",
    "parse_pointer",
    "rebase",
    "run",
]


def diff(a: Any, b: Any) -> list:
    """The JSON Patch (a list of operations) turning ``a`` into ``b``; see ``cfgpatch.diff``."""
    return _diff_module.diff(a, b)


def rebase(base: Any, head: Any, patch: list) -> list:
    """Rebase ``patch`` (written against ``base``) onto ``head`` (see :mod:`cfgpatch.rebase`)."""
    return _rebase_module.rebase(base, head, patch)


def merge(base: Any, mine: Any, head: Any) -> Any:
    """Three-way merge of JSON values; raises :class:`MergeConflict`; see ``cfgpatch.rebase``."""
    return _rebase_module.merge(base, mine, head)
