"""Plain record classes for the engine's small types.

Written out rather than made with :func:`dataclasses.dataclass`: creating a dataclass
costs about 0.6 ms at import, and the command line imports all of them on every run.
A record lists its ``FIELDS``; its ``repr`` is a dataclass's, and a :class:`Record` is
equal to another of its class with equal fields (an :class:`Identity` only to itself).
"""

from __future__ import annotations

from typing import Any


class Identity:
    """A record compared by identity (a dataclass with ``eq=False``)."""

    FIELDS: tuple[str, ...] = ()

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__qualname__}({inner})"


class Record(Identity):
    """A record equal to another of its class with equal fields (unhashable)."""

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.FIELDS)

    __hash__ = None  # type: ignore[assignment]


def fields_of(record: Any) -> dict[str, Any]:
    """A record's fields by name (as :func:`dataclasses.asdict` gives them, not deep)."""
    return {name: getattr(record, name) for name in record.FIELDS}
