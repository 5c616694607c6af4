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
    "go-value": "{detail}: {cause}",
    # warnings (printed on standard error; the build goes on)
    "unused-vars": "well-defined vars that were never replaced: {detail}",
    "bad-replacement-type": "MakePrimitiveReplacer: bad replacement type={name} val={detail}",
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
    "sort-order": "the field 'sortOptions.order' must be one of [fifo, legacy]",
    "legacy-sort-with-fifo": "the field 'sortOptions.legacySortOptions' is set but the "
                             "selected sort order is 'fifo', not 'legacy'",
    # resources
    "malformed-yaml": "MalformedYAMLError: {cause}",
    "missing-metadata": "missing Resource metadata",
    "missing-kind": "missing kind in object {detail}",
    "missing-name": "missing metadata.name in object {detail}",
    "already-registered": "may not add resource with an already registered id: {id}",
    # patches
    # patches
    "configuring-builtin": "trouble configuring builtin {name} with config: `\n{detail}`: "
                           "{cause}",
    "in-file": "{cause} in File: {path}",
    "patch-appears-empty": "patch appears to be empty; files=[{detail}], Patch=",
    "no-target-for-patch": "must specify a target for patch {detail}",
    "sm-and-json-patch": "illegally qualifies as both an SM and JSON patch: {detail}",
    "no-json-op": "empty file path and empty jsonOp",
    "no-patch-or-path": "must specify one of patch and path in\n{detail}",
    "path-and-json-op": "must specify a file path or jsonOp, not both",
    "patch-and-path": "patch and path can't be set at the same time\n{detail}",
    "patch-file": "failed to get the patch file from path({path}): {cause}",
    # generators
    "kv-env-files": "loading KV pairs: env source files: [{detail}]: {cause}",
    "kv-literal": "loading KV pairs: literal sources [{detail}]: invalid literal source "
                  "{name}, expected key=value",
    "kv-file-sources": "loading KV pairs: file sources: [{detail}]: {cause}",
    "generated-id-missing": "merging from generator: id {id} does not exist; "
                            "cannot merge or replace",
    "generated-id-many": "found multiple objects that could accept merge of {id}",
    "generated-id-exists": "merging from generator: id {id} exists; behavior must be merge "
                           "or replace",
    # replacements
    "path-and-inline-replacement": "cannot specify both path and inline replacement",
    "replacement-without-source-or-target": "replacements must specify a source and at "
                                            "least one target",
    "replacement-source-lookup": "error looking up replacement source: {cause}",
    "replacement-source-missing": "fieldPath `{field}` is missing for replacement source {id}",
    "delimiter-not-scalar": "delimiter option can only be used with scalar nodes",
    "index-out-of-bounds": "options.index {detail} is out of bounds for value {name}",
    "target-selects-nothing": "target must specify resources to select",
    # plugins given as configuration
    "loading-generator-plugins": "loading generator plugins: {cause}",
    "failed-to-load-generator": "loading generator plugins: failed to load generator: {cause}",
    "external-plugin": "external plugins disabled; unable to load external plugin '{name}'",
    "unknown-builtin": "unable to load builtin {id}",
    "not-a-generator": "plugin {id} not a generator",
    "not-a-transformer": "plugin {id} not a transformer",
    "plugin-configuration": "plugin {id} fails configuration: {cause}",
    "nil-field-specs": "fieldSpecs is not expected to be nil",
    "role-binding-subjects": 'invalid value "{name}" for setRoleBindingSubjects: must be one '
                             'of "defaultOnly", "none" or "allServiceAccounts"',
    # field paths (kyaml)
    "list-element-needs-match": "list path element must contain fieldName=fieldValue for "
                                "element to match",
    "wildcard-in-getter": "wildcard is not supported in PathGetter",
    "negative-index": "array index {detail} cannot be negative",
    # built-in plugins without a kustomization field
    "unsupported-cloud": "cloud provider {name} not supported yet",
    "no-targets": "must specify at least one target",
    "empty-field-path": "fieldPath cannot be empty",
    "negative-file-path-position": "value of FilePathPosition ({detail}) cannot be negative",
    # helm charts
    "helm-not-enabled": "must specify --enable-helm",
    "no-helm-command": "must specify --helm-command",
    "no-chart-name": "chart name cannot be empty",
    "additional-values-file": "could not load additionalValuesFile: {cause}",
    "values-merge": "valuesMerge must be one of [{detail}]",
    "no-chart-repo": "no repo specified for pull, no chart found at ''",
    "no-helm-version": "cannot find version string in {detail}",
    "helm-not-v3": "this plugin requires helm V3 but got v{detail}",
    # field specs, name references, vars
    "conflicting-field-specs": "conflicting fieldspecs",
    "obj-at-path": "obj at path '{field}': {cause}",
    "not-sequence-or-mapping": "expected sequence or mapping node",
    "updating-name-reference": "updating name reference in '{field}' field of '{id}': {cause}",
    "no-name-field": "path config error; no 'name' field in node",
    "many-referrals": "found multiple possible referrals: {detail}",
    "merging-vars": "merging vars {detail}: {cause}",
    "var-ambiguous": "found {detail} resId matches for var {name} (unable to disambiguate)",
    "var-repeated": "var '{name}' already encountered",
    "var-unmapped": "var '{name}' cannot be mapped to a field in the set of known resources",
    "var-field-missing": "field specified in var '{name}' not found in corresponding resource",
    "not-a-string": "invalid value type expect a string",
    # kustomize's own strategic merge
    "no-patch-strategy": "no implemented strategic merge patch strategy for '{name}' "
                         "('{detail}')",
    "unknown-patch-strategy": "unknown patch strategy '{name}'",
    # transformers
    "namespace-id-conflict": "namespace transformation produces ID conflict: [{detail}]",
    "merging-label-specs": "failed to merge {name}: {cause}",
    "not-a-mapping-node": "wrong node kind: expected MappingNode",
    "replicas-unmatched": "resource with name {name} does not match a config with the "
                          "following GVK [{detail}]",
    # selectors (Go's regexp and the labels parser)
    "regexp-perl-syntax": "error parsing regexp: invalid or unsupported Perl syntax: `{detail}`",
    "regexp-escape": "error parsing regexp: invalid escape sequence: `{detail}`",
    "regexp": "error parsing regexp: {name}: `{detail}`",
    "selector-requirement": "unable to parse requirement: {cause}",
    "selector-character": "unexpected character at {detail}",
    # CRDs and OpenAPI schemas
    "loading-crds": "loading CRDs [{detail}]: {cause}",
    "crd-definitions": "unable to parse open API definition from '{path}': {cause}",
    "builtin-and-custom-schema": "builtin version and custom schema provided, cannot use both",
    "unknown-openapi-version": "the specified OpenAPI version is not built in",
    "invalid-schema-file": "openapi: invalid schema file '{path}': {cause}",
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
    return (f"# Warning: '{problem.name}' is deprecated. Please use {_DEPRECATED[problem.name]}"
            " Run 'kustomize edit fix' to update your Kustomization automatically.")


_FUNCTIONS: dict[str, Callable[[Kustomize, Word], str]] = {
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
