"""``Protocol`` and ``runtime_checkable`` for modules on a short start-up path.

:mod:`typing` costs a small ``cfgpatch kube build`` process a few milliseconds to import.
Type checkers read the real names (``TYPE_CHECKING``); at run time a protocol is a plain
base class, and :func:`runtime_checkable` gives it ``isinstance`` as
:func:`typing.runtime_checkable` does: an object is an instance when it has every
method the protocol defines (none of them ``None``).  Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol, runtime_checkable

__all__ = ["Protocol", "runtime_checkable"]


class _Protocol:
    """The run-time stand-in for :class:`typing.Protocol` (a plain base class)."""

    __slots__ = ()


class _CheckedMeta(type):
    def __instancecheck__(cls, instance: object) -> bool:
        if type.__instancecheck__(cls, instance):
            return True
        return all(getattr(instance, name, None) is not None
                   for name in cls.__dict__.get("_protocol_methods", ()))


def _runtime_checkable(cls: type) -> type:
    methods = tuple(name for klass in cls.__mro__ if klass not in (_Protocol, object)
                    for name, value in vars(klass).items()
                    if callable(value) and not name.startswith("__"))
    namespace = {key: value for key, value in vars(cls).items()
                 if key not in ("__dict__", "__weakref__")}
    namespace["_protocol_methods"] = methods
    return _CheckedMeta(cls.__name__, cls.__bases__, namespace)


if not TYPE_CHECKING:
    Protocol, runtime_checkable = _Protocol, _runtime_checkable
