"""Conditional requests on versioned documents (RFC 9110, section 13).

A document's entity tag is its version: version ``n`` has the strong tag ``"n"``
(the HTTP layer sends it as ``ETag: "n"``).  A request may say which versions it
expects to find (``If-Match``) or not to find (``If-None-Match``), each either
``*`` (any version at all) or a list of tags.  :class:`Preconditions` holds both,
already parsed, and :meth:`Preconditions.evaluate` decides them against the
current version in the order of RFC 9110 section 13.2.2:

1. ``If-Match`` present: false when ``*`` and the document does not exist, or
   when no listed tag matches the current version by *strong* comparison (a
   weak tag ``W/"n"`` never matches).  False: :class:`PreconditionFailed`.
2. (``If-Unmodified-Since``: documents carry no modification date for HTTP, so
   RFC 9110 section 13.1.4 has it ignored.)
3. ``If-None-Match`` present: false when ``*`` and the document exists, or when
   a listed tag matches the current version by *weak* comparison (``W/"n"``
   and ``"n"`` both match version n).  False: a read is "not modified" (the
   caller answers 304), a write is :class:`PreconditionFailed`.
4. and 5. (``If-Modified-Since``, ``If-Range``: not applicable, ignored.)

The service evaluates the preconditions of a write against the head it is
about to replace, in the same step as the append that checks the head is still
that version, so a precondition can never be judged on a head that a
concurrent writer has already replaced.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import PreconditionFailed


@dataclass(frozen=True)
class TagList:
    """The value of one ``If-Match`` or ``If-None-Match`` field.

    ``any``: the field was ``*``.  Otherwise ``strong`` and ``weak`` are the
    versions named by the strong (``"n"``) and weak (``W/"n"``) tags of the
    list; tags that name no version (``"abc"``, ``"0"``) are in neither and match
    nothing.  An empty list is a field that matches nothing.
    """

    any: bool = False
    strong: frozenset[int] = frozenset()
    weak: frozenset[int] = frozenset()

    def matches_strongly(self, version: int | None) -> bool:
        if version is None:
            return False
        return self.any or version in self.strong

    def matches_weakly(self, version: int | None) -> bool:
        if version is None:
            return False
        return self.any or version in self.strong or version in self.weak

    def describe(self) -> str:
        if self.any:
            return "*"
        tags = [f'"{v}"' for v in sorted(self.strong)] + [f'W/"{v}"' for v in sorted(self.weak)]
        return ", ".join(tags) if tags else "(no version)"


@dataclass(frozen=True)
class Preconditions:
    """What a request expects of the current version of one document."""

    if_match: TagList | None = None
    if_none_match: TagList | None = None

    def __bool__(self) -> bool:
        return self.if_match is not None or self.if_none_match is not None

    def evaluate(self, name: str, current: int | None, *, read: bool = False) -> bool:
        """Whether the request goes ahead on ``current`` (``None``: no document).

        Returns ``False`` only for a read whose ``If-None-Match`` matches (the
        caller answers "not modified"); raises :class:`PreconditionFailed` for
        every other false condition.
        """
        if self.if_match is not None and not self.if_match.matches_strongly(current):
            raise PreconditionFailed(_not_matched(name, current, self.if_match))
        if self.if_none_match is not None and (
            self.if_none_match.matches_weakly(current)
        ):
            if read:
                return False
            raise PreconditionFailed(
                f"If-None-Match: {self.if_none_match.describe()} matches {name!r}, which is at "
                f"version {current}"
            )
        return True


def _not_matched(name: str, current: int | None, tags: TagList) -> str:
    if current is None:
        return f"If-Match: {tags.describe()} names a version, but there is no document {name!r}"
    weak_only = not tags.any and current in tags.weak
    why = " (a weak tag never matches for If-Match)" if weak_only else ""
    return f"{name!r} is at version {current}, not If-Match: {tags.describe()}{why}"


#: No preconditions.
NONE = Preconditions()
