"""cfgpatch: safe, explainable changes to JSON and Kubernetes configuration.

The core (this package, minus ``server``, ``store.sqlite``/``store.postgres`` and
``cli``) uses only the Python standard library, so it also runs in the browser.

``cfgpatch.diff`` and ``cfgpatch.rebase`` are functions; the modules behind them
are :mod:`cfgpatch.diffing` and :mod:`cfgpatch.rebasing` (no submodule shares its
name with a public function).

>>> from cfgpatch import run
>>> run([["put", "cfg", '{"a":1}'], ["apply", "cfg", '[{"op":"replace","path":"/a","value":2}]'],
...      ["get", "cfg"]])
[1, 2, '{"a":2}']
"""

from __future__ import annotations

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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .jsonvalue import canonical, equal, parse
    from .pointer import escape_token, format_pointer, parse_pointer

__version__ = "0.1.0"

#: Public names imported when first used, with the module that defines them (the
#: diff, rebase and service machinery are not needed by a command line that only
#: patches a Kubernetes object: ``cfgpatch kube patch`` starts without them).
_LAZY = {"canonical": "jsonvalue", "equal": "jsonvalue", "parse": "jsonvalue",
         "escape_token": "pointer", "format_pointer": "pointer", "parse_pointer": "pointer",
         "run": "contract", "Service": "service", "apply_patch": "jsonpatch",
         "apply_merge_patch": "mergepatch", "create_merge_patch": "mergepatch"}


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
    """The JSON Patch (a list of operations) turning ``a`` into ``b`` (:mod:`cfgpatch.diffing`)."""
    from .diffing import diff as make_diff

    return make_diff(a, b)


def rebase(base: Any, head: Any, patch: list) -> list:
    """Rebase ``patch`` (written against ``base``) onto ``head`` (see :mod:`cfgpatch.rebasing`)."""
    from .rebasing import rebase as rebase_patch

    return rebase_patch(base, head, patch)


def merge(base: Any, mine: Any, head: Any) -> Any:
    """Three-way merge of JSON values; raises :class:`MergeConflict` (:mod:`cfgpatch.rebasing`)."""
    from .rebasing import merge as merge_values

    return merge_values(base, mine, head)
