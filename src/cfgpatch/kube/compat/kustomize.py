"""kustomize v5.5.0's words (as ``kubectl kustomize`` 1.32 prints them) for what the
builder (``kube/kustomize``) refuses: :class:`~cfgpatch.kube.problems.Kustomize`
records, worded by their ``code``.

A template names the record's values in braces (``{path}``, ``{id}``, ``{name}``,
``{field}``, ``{detail}``; ``{cause}`` is the problem within, in its own words); a code
whose words need more than that has a function.

>>> from cfgpatch.kube.compat import word
>>> from cfgpatch.kube.problems import Kustomize
>>> word(Kustomize("accumulating-resources", cause=Kustomize(
...     "file-outside-root", path="/t/../x.yaml", detail="/t")))
"accumulating resources: security; file '/t/../x.yaml' is not in or below '/t'"
"""

from __future__ import annotations

from ..go.json import go_quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..problems import Kustomize

    Word = Callable[[Any], str]

__all__ = ["words"]


def words(problem: Kustomize, word: Word) -> str:
    """kustomize's words for ``problem`` (``word`` words the problem within)."""
    made = _TEMPLATES.get(problem.code) or _FUNCTIONS[problem.code]
    if not isinstance(made, str):
        return made(problem, word)
    cause = "" if problem.cause is None else word(problem.cause)
    return made.format(path=problem.path, id=problem.id, name=problem.name,
                       field=problem.field, detail=problem.detail, cause=cause)


#: code -> kustomize's words (see the module docstring).
_TEMPLATES: dict[str, str] = {
    # the build (kustomize's KustTarget), around the problem within
    "accumulating-resources": "accumulating resources: {cause}",
    "accumulating-components": "accumulating components: {cause}",
    "resources-from": "accumulating resources from '{path}': {cause}",
    "resources-from-file": "accumulating resources from '{path}': {cause} in File: {path}",
    "merging-resources-from": "merging resources from '{path}': {cause}",
    "make-target": "couldn't make target for path '{path}': {cause}",
    "recursed-accumulation": "recursed accumulation of path '{path}': {cause}",
    "recursed-merging": "recursed merging from path '{path}': {cause}",
    "expected-component": "expected kind 'Component' for path '{path}' but got '{name}'",
    "unexpected-component": "expected kind != 'Component' for path '{path}'",
    # the loader (kustomize's fileLoader)
    "illegal-load-restrictor": "illegal flag value --load-restrictor {name}; "
                               "legal values: [{detail}]",
    "not-a-valid-directory": "must build at directory: not a valid directory: {cause}",
    "not-a-directory": "must build at directory: '{path}': file is not directory",
    "no-such-path": "evalsymlink failure on '{path}' : lstat {detail}: "
                    "no such file or directory",
    "must-resolve-to-file": "'{path}' must resolve to a file",
    "file-outside-root": "security; file '{path}' is not in or below '{detail}'",
    "unreadable-file": "{name} {path}: {detail}",
    "empty-root": "new root cannot be empty",
    "cycle": "cycle detected: candidate root '{path}' contains visited root '{detail}'",
    "no-kustomization": "unable to find one of 'kustomization.yaml', 'kustomization.yml' or "
                        "'Kustomization' in directory '{path}'",
    "many-kustomizations": "Found multiple kustomization files under: {path}\n",
    # the kustomization file
    "invalid-kustomization": "invalid Kustomization: {cause}",
    "empty-kustomization": "kustomization.yaml is empty",
    # resources
    "malformed-yaml": "MalformedYAMLError: {cause}",
    "missing-metadata": "missing Resource metadata",
    "missing-kind": "missing kind in object {detail}",
    "missing-name": "missing metadata.name in object {detail}",
    "already-registered": "may not add resource with an already registered id: {id}",
    # patches
    # transformer configurations
    "converting-yaml": "error converting YAML to JSON: {cause}",
    "unmarshaling-json": "error unmarshaling JSON: while decoding JSON: {cause}",
    "merging-field-specs": "failed to merge {name} fieldSpec: {cause}",
    "merging-config": "merging config (the configuration, which kustomize prints in full): "
                      "{cause}",
}


def _accumulation(problem: Kustomize, word: Word) -> str:
    """A path that is neither a resource file (``detail``: what reading it as one met)
    nor a kustomization directory (``cause``)."""
    return f"accumulation err='{word(problem.detail)}': {word(problem.cause)}"


def _quoted(prefix: str) -> Callable[[Kustomize, Word], str]:
    def quoted(problem: Kustomize, word: Word) -> str:
        return prefix + go_quote(word(problem.cause))

    return quoted


def _no_match_for_patch(problem: Kustomize, word: Word) -> str:
    """A strategic merge patch without a target whose own ``id`` matches no resource."""
    return (f"no resource matches strategic merge patch {go_quote(problem.id or '')}: "
            f"{word(problem.cause)}")


def _no_unique_target(problem: Kustomize, word: Word) -> str:
    """``detail`` resources (none, or more than one) have the id a patch names."""
    many = "multiple matches" if problem.detail else "no matches"
    return f"{many} for Id {problem.id}; failed to find unique target for patch {problem.id}"


_FUNCTIONS: dict[str, Callable[[Kustomize, Word], str]] = {
    "no-unique-target": _no_unique_target,
    "no-match-for-patch": _no_match_for_patch,
    "accumulation": _accumulation,
    "loader-new": _quoted("loader.New "),
    "accumulate-directory": _quoted("accumulateDirectory: "),
}
