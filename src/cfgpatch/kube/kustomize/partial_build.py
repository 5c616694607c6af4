"""``kube build``'s partial build: what cannot be followed offline skipped and reported.

See :mod:`.partial` for what is skipped; :func:`build_partial` runs :func:`~.build.build`
inside :func:`~.partial.skipping` and returns the build with the skipped entries.
"""

from __future__ import annotations

from ...records import dataclass
from .build import BuildError, BuildResult, build
from .partial import Skipped, skipping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass
class PartialResult:
    """The build of what is at hand (:class:`~.build.BuildResult`) and what was skipped."""

    result: BuildResult
    skipped: list[Skipped]


def build_partial(directory: str, trace: Any = None, fs: Any = None,
                  **options: Any) -> PartialResult:
    """:func:`~.build.build` of ``directory`` (same parameters), skipping what cannot be
    followed offline.  Raises :class:`~.build.BuildError` for the rest, with
    ``skipped`` set on it."""
    with skipping() as skipped:
        try:
            result = build(directory, trace, fs, **options)
        except BuildError as err:
            err.skipped = skipped  # type: ignore[attr-defined]
            raise
    return PartialResult(result, skipped)


__all__ = ["PartialResult", "build_partial"]
