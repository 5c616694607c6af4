"""kustomize v5.5.0's words (as ``kubectl kustomize`` 1.32 prints them) for what the
builder (``kube/kustomize``) refuses: :class:`~cfgpatch.kube.problems.Kustomize`
records, worded by their ``code``.

A template of :mod:`.templates` names the record's values in braces (``{path}``,
``{id}``, ``{name}``, ``{field}``, ``{detail}``; ``{cause}`` is the problem within, in
its own words); a code whose words need more than that has a function of
:mod:`.composed`.

>>> from cfgpatch.kube.compat import word
>>> from cfgpatch.kube.problems import Kustomize
>>> word(Kustomize("accumulating-resources", cause=Kustomize(
...     "file-outside-root", path="/t/../x.yaml", detail="/t")))
"accumulating resources: security; file '/t/../x.yaml' is not in or below '/t'"
"""

from __future__ import annotations

from .composed import FUNCTIONS
from .templates import TEMPLATES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...problems import Kustomize

    Word = Callable[[Any], str]

__all__ = ["FUNCTIONS", "TEMPLATES", "words"]


def words(problem: Kustomize, word: Word) -> str:
    """kustomize's words for ``problem`` (``word`` words the problem within)."""
    made = TEMPLATES.get(problem.code) or FUNCTIONS[problem.code]
    if not isinstance(made, str):
        return made(problem, word)
    cause = "" if problem.cause is None else word(problem.cause)
    return made.format(path=problem.path, id=problem.id, name=problem.name,
                       field=problem.field, detail=problem.detail, cause=cause)
