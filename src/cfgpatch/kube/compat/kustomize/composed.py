"""kustomize's words that take more than a template: code -> a function of the record
and of the wording of the problem within (see :mod:`cfgpatch.kube.compat.kustomize`)."""

from __future__ import annotations

from ...go.json import go_quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...problems import Kustomize

    Word = Callable[[Any], str]


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
    """``detail``: how many resources (none, or more than one) have the id a patch
    names, then the id's kind, name and namespace ("" when it has none)."""
    many = "multiple matches" if problem.detail[0] else "no matches"
    return f"{many} for Id {problem.id}; failed to find unique target for patch {problem.id}"


def _patch_source(prefix: str) -> Callable[[Kustomize, Word], str]:
    """``prefix`` and a patch's text as kustomize names it: ``[path: "file"]`` or
    ``[patch: "<the text, Go-quoted>"]`` (``name``, ``detail``)."""
    def named(problem: Kustomize, word: Word) -> str:
        return f"{prefix}[{problem.name}: {go_quote(problem.detail)}]"

    return named


def _kv_missing_key(problem: Kustomize, word: Word) -> str:
    """A file source ``=path`` (``name``) with no key before the ``=``."""
    return (f"missing key name for file path {go_quote(problem.path or '')} in source "
            f"{go_quote(problem.name or '')}")


def _repeated_key(problem: Kustomize, word: Word) -> str:
    """A generated ConfigMap or Secret (``detail``: the kind) ``name`` with the key
    ``field`` twice."""
    noun = "configmap" if problem.detail == "ConfigMap" else "secret"
    return f"{noun} {problem.name} illegally repeats the key `{problem.field}`"


def _invalid_utf8_line(problem: Kustomize, word: Word) -> str:
    """A line of an env file (``detail``: its bytes) that is not UTF-8: Go's ``%d`` of
    the bytes, then ``%v`` of them as a string (printed as they are)."""
    raw: bytes = problem.detail
    return (f"line [{' '.join(map(str, raw))}] has invalid utf8 bytes : "
            f"{raw.decode('utf-8', 'surrogateescape')}")


def _replacement_source(problem: Kustomize, word: Word) -> str:
    """A replacement's source selects ``detail`` resources (none, or more than one)."""
    suffix = f":{problem.field}" if problem.field else ""
    if not problem.detail:
        return f"nothing selected by {problem.id}{suffix}"
    return f"multiple matches for selector {problem.id}{suffix}"


def _replacement_target(problem: Kustomize, word: Word) -> str:
    """A replacement target's ``field`` not found (``detail``: or created), for
    ``cause`` (None: it is absent)."""
    verb = "find or create" if problem.detail else "find"
    why = "" if problem.cause is None else f": {word(problem.cause)}"
    return f'unable to {verb} field "{problem.field}" in replacement target{why}'


def _validator_changed(problem: Kustomize, word: Word) -> str:
    """A validator changed a resource (``detail``: its JSON before and after)."""
    old, new = problem.detail
    return f"validator shouldn't modify the resource map: nodes unequal: \n -- {old},\n -- {new}\n"


def _wrong_node_kind(problem: Kustomize, word: Word) -> str:
    """kyaml met a node of another kind than ``name`` (``detail``: its kind and its
    text)."""
    found, contents = problem.detail
    return f"wrong node kind: expected {problem.name} but got {found}: node contents:\n{contents}"


def _index_past_end(problem: Kustomize, word: Word) -> str:
    """A list index (``detail``: it and the list's length) past the end."""
    index, length = problem.detail
    return f"index {index} specified but only {length} elements found"


def _helm_failed(problem: Kustomize, word: Word) -> str:
    """helm (``path``) with the arguments ``name`` failed; ``detail``: its standard error
    (None: the command is not there), its standard output, the environment added, its
    exit code (negative: it did not start, its standard error is Go's ``exec`` error),
    and whether it ran with ``--debug`` (kustomize then shows both outputs)."""
    stderr, stdout, env, code, debug = problem.detail
    command = problem.path
    output = stderr if code >= 0 and stderr is not None else ""
    if debug:
        output = f" Helm stack trace:\n{output}\nHelm template:\n{stdout}\n"
    if code >= 0:
        reason = f"exit status {code}"
    elif stderr is None:
        reason = f'exec: "{command}": executable file not found in $PATH'
    else:
        reason = stderr.strip()
    prefix = f"{output}: " if output else ""
    return (f"{prefix}unable to run: '{command} {problem.name}' with env=[{env}] "
            f"(is '{command}' installed?): {reason}")


def _considering_field(problem: Kustomize, word: Word) -> str:
    """A field spec's walk (``field``) over the resource ``id`` met ``cause``, after
    entering the lists of ``detail`` (the path left to walk from each)."""
    steps = "".join(f"visit traversal on path: [{' '.join(rest)}]: " for rest in problem.detail)
    return (f"considering field '{problem.field}' of object {problem.id}: {steps}"
            f"{word(problem.cause)}")


def _blank_namespace(problem: Kustomize, word: Word) -> str:
    """A ServiceAccount subject whose namespace is not a string (Go's ``%q`` of the id;
    its final line break kubectl does not print twice)."""
    import json  # (only for this error's text)

    return f"Invalid Input: namespace is blank for resource {json.dumps(problem.id)}"


#: What the labels parser expected where it found the token ``name``
#: (``selector-found``'s ``detail``).
_EXPECTED = {
    "start": ", expected: !, identifier, or 'end of string'",
    "separator": ", expected: ',' or 'end of string'",
    "after-comma": ", expected: identifier after ','",
    "identifier": ", expected: identifier",
    "operator": ", expected: '=', '!=', '==', 'in', notin'",
    "open": " expected: '('",
    "set-first": ", expected: ',', ')' or identifier",
    "set-value": ", expected: ',', or identifier",
    "set-next": ", expected: ',' or ')'",
}


def _selector_found(problem: Kustomize, word: Word) -> str:
    return f"found '{problem.name}'{_EXPECTED[problem.detail]}"


def _kind_or_api_version(problem: Kustomize, word: Word) -> str:
    """The kustomization under ``path`` has a ``kind`` (``name``) that is neither, or
    an apiVersion other than the one its kind needs (``detail``: whether the kind is
    wrong, the apiVersion needed or None)."""
    bad_kind, required = problem.detail
    lines = [f"Failed to read kustomization file under {problem.path}:"]
    if bad_kind:
        lines.append("kind should be Kustomization or Component")
    if required is not None:
        lines.append(f"apiVersion for {problem.name} should be {required}")
    return "\n".join(lines)


#: A deprecated field (``deprecated-field``'s ``name``) -> what kustomize says to use.
_DEPRECATED = {
    "bases": "'resources' instead.",
    "commonLabels": "'labels' instead.",
    "imageTags": "'images' instead.",
    "patchesJson6902": "'patches' instead.",
    "patchesStrategicMerge": "'patches' instead.",
    "vars": "'replacements' instead. [EXPERIMENTAL]",
}


def _deprecated_field(problem: Kustomize, word: Word) -> str:
    """kustomize's warning for a deprecated field ``name`` of a kustomization."""
    use = _DEPRECATED[problem.name or ""]
    return (f"# Warning: '{problem.name}' is deprecated. Please use {use} "
            "Run 'kustomize edit fix' to update your Kustomization automatically.")


FUNCTIONS: dict[str, Callable[[Kustomize, Word], str]] = {
    "deprecated-field": _deprecated_field,
    "kind-or-api-version": _kind_or_api_version,
    "selector-found": _selector_found,
    "considering-field": _considering_field,
    "blank-namespace": _blank_namespace,
    "helm-failed": _helm_failed,
    "wrong-node-kind": _wrong_node_kind,
    "index-past-end": _index_past_end,
    "validator-changed": _validator_changed,
    "replacement-source-not-unique": _replacement_source,
    "replacement-target-field": _replacement_target,
    "kv-missing-key": _kv_missing_key,
    "repeated-key": _repeated_key,
    "invalid-utf8-line": _invalid_utf8_line,
    "unparsable-patch": _patch_source("unable to parse SM or JSON patch from "),
    "no-target-for-json-patch": _patch_source("must specify a target for JSON patch "),
    "no-unique-target": _no_unique_target,
    "no-match-for-patch": _no_match_for_patch,
    "accumulation": _accumulation,
    "loader-new": _quoted("loader.New "),
    "accumulate-directory": _quoted("accumulateDirectory: "),
}
