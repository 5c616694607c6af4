"""cfgpatch: safe, explainable changes to JSON and Kubernetes configuration.

The core (this package, minus ``server``, ``store.sqlite``/``store.postgres`` and
``cli``) uses only the Python standard library, so it also runs in the browser.

``cfgpatch.diff`` and ``cfgpatch.rebase`` are functions, whatever has been
imported before or after; their modules are reached with ``from cfgpatch.diff
import ...`` and ``from cfgpatch.rebase import ...`` (or ``sys.modules``).

>>> from cfgpatch import run
>>> run([["put", "cfg", '{"a":1}'], ["apply", "cfg", '[{"op":"replace","path":"/a","value":2}]'],
...      ["get", "cfg"]])
[1, 2, '{"a":2}']
"""

from __future__ import annotations

import sys
import types

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
from .jsonvalue import canonical, equal, parse
from .pointer import escape_token, format_pointer, parse_pointer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

#: Public names imported when first used, with the module that defines them (the
#: diff, rebase and service machinery are not needed by a command line that only
#: patches a Kubernetes object: ``cfgpatch kube patch`` starts without them).
_LAZY = {"run": "contract", "Service": "service", "apply_patch": "jsonpatch",
         "apply_merge_patch": "mergepatch", "create_merge_patch": "mergepatch"}
#: Submodules that share their name with a public function of the package.
_SHADOWING = ("diff", "rebase")


class _Package(types.ModuleType):
    """The package's module type: importing the submodules ``diff`` and ``rebase``
    leaves the functions of those names in place.

    Importing a submodule sets the package attribute of its name to the module;
    these two are imported when first needed (by the functions below or by
    ``from cfgpatch.diff import ...``), so that assignment is refused here.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWING and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


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
    from .diff import diff as make_diff

    return make_diff(a, b)


def rebase(base: Any, head: Any, patch: list) -> list:
    """Rebase ``patch`` (written against ``base``) onto ``head`` (see :mod:`cfgpatch.rebase`)."""
    from .rebase import rebase as rebase_patch

    return rebase_patch(base, head, patch)


def merge(base: Any, mine: Any, head: Any) -> Any:
    """Three-way merge of JSON values; raises :class:`MergeConflict`; see ``cfgpatch.rebase``."""
    from .rebase import merge as merge_values

    return merge_values(base, mine, head)
