"""Regular expressions compiled at their first use.

Compiling a pattern costs from 0.05 to over 1 ms (a character class with ranges beyond
U+00FF is the costly kind); a module compiles its patterns at import, so a command that
never uses most of them pays for all.  :func:`lazily` gives an object that compiles its
pattern the first time one of its attributes is read and from then on hands out the
compiled pattern's bound methods directly (one slot read, no extra call).  Standard
library only.
"""

from __future__ import annotations

import re

__all__ = ["lazily"]

_DELEGATED = ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer",
              "scanner", "pattern", "flags", "groups", "groupindex")


class _LazyPattern:
    __slots__ = ("_source", *_DELEGATED)

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> object:
        if name not in _DELEGATED:
            raise AttributeError(name)
        compiled = re.compile(*self._source)
        for attribute in _DELEGATED:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(self, name)

    def __repr__(self) -> str:
        return f"lazily({self._source[0]!r})"


def lazily(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done when the pattern is first used."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]
