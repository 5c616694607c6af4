"""kustomize's words in ``cfgpatch.kube.compat.kustomize``; the builder (``kube/kustomize``)
raises :class:`~cfgpatch.kube.problems.Kustomize` records and holds none of them.

The words are held to ``kubectl kustomize``'s by the recorded corpus (tests/data/kustomize,
test_kube_kustomize_build, test_kube_kustomize_krusty); here: the records carry the
values, every code has words, and no kustomize phrase is left in the builder.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cfgpatch.kube import compat, problems
from cfgpatch.kube.compat import kustomize as words
from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.filesys import MemoryFileSystem
from cfgpatch.kube.problems import Kustomize, ProblemError, Unmarshal, YamlValue
from phrase_support import string_literals

KUBE = Path(__file__).resolve().parent.parent / "src" / "cfgpatch" / "kube"

#: Phrases of kustomize's error texts (and go-yaml's and Go's, as kustomize wraps them):
#: they belong in kube/compat.
KUSTOMIZE_WORDING = (
    "accumulating resources", "accumulating components", "accumulation err",
    "couldn't make target", "recursed accumulation", "recursed merging",
    "invalid Kustomization", "MalformedYAMLError", "must build at directory",
    "evalsymlink failure", "is not in or below", "must resolve to a file", "cycle detected",
    "unable to find one of", "Found multiple kustomization", "kustomization.yaml is empty",
    "missing Resource metadata", "missing kind in object", "missing metadata.name",
    "already registered id", "failed to find unique target", "no resource matches",
    "error unmarshaling JSON", "trouble configuring builtin", "must specify a target",
    "loading KV pairs", "illegally repeats", "merging from generator", "could accept merge",
    "fails configuration", "wrong node kind", "updating name reference", "considering field",
    "already encountered", "error parsing regexp", "unable to parse requirement",
    "unable to run:", "must specify --", "Failed to read kustomization",
    "unknown patch strategy", "already defined at line", "unmarshal errors",
    "json: unsupported", "json: unknown field", "merging vars", "replacement source",
    "nothing selected by", "sortOptions.order", "ID conflict", "fails configuration",
    "external plugins disabled", "loading CRDs", "invalid schema file",
    "open API definition", "cannot be negative", "conflicting fieldspecs",
    "expected sequence or mapping node", "for setRoleBindingSubjects", "helm V3",
    "cannot find version string", "chart name cannot be empty", "could not load additional",
    "patch appears to be empty", "illegally qualifies", "unable to parse SM or JSON",
    "empty jsonOp", "must specify one of patch and path", "at the same time",
    "failed to get the patch file", "cannot specify both path", "at least one target",
    "delimiter option", "is out of bounds", "target must specify", "fieldPath `",
    "cannot be mapped to a field", "not found in corresponding resource",
    "invalid value type expect", "path config error", "multiple possible referrals",
    "Invalid Input", "does not match a config", "failed to merge", "merging config",
    "loading generator plugins", "not a generator", "not a transformer",
    "unable to load builtin", "validator shouldn't", "fieldSpecs is not expected",
    "cloud provider", "fieldPath cannot be empty", "FilePathPosition",
    "list path element must", "wildcard is not supported", "specified but only",
    "builtin version and custom schema", "OpenAPI version is not built in",
    "no implemented strategic merge", "invalid literal source", "missing key name",
    "invalid utf8 bytes", "visited root", "new root cannot be empty", "illegal flag value",
    "file is not directory", "expected kind", "obj at path", "in File:",
    "no repo specified", "valuesMerge must be", "legacySortOptions' is set",
    "Helm stack trace", "executable file not found", "is deprecated. Please use",
    "kustomize edit fix", "never replaced", "MakePrimitiveReplacer",
)


@pytest.mark.parametrize("path", sorted(KUBE.glob("kustomize/*.py")), ids=lambda p: p.name)
def test_the_builder_holds_no_kustomize_wording(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in string_literals(tree):
        for phrase in KUSTOMIZE_WORDING:
            assert phrase not in node.value, (
                f"{path.relative_to(KUBE)}:{node.lineno} holds {phrase!r}: raise a "
                "cfgpatch.kube.problems.Kustomize record and word it in compat.kustomize")


def test_the_check_would_find_a_phrase():
    tree = ast.parse('"""accumulating resources: in a docstring"""\n'
                     'x = f"invalid Kustomization: {k}"\n')
    found = [n.value for n in string_literals(tree)]
    assert any("invalid Kustomization" in text for text in found)


def test_compat_words_every_kustomize_phrase():
    text = "".join(path.read_text(encoding="utf-8") for path in KUBE.glob("compat/**/*.py"))
    for phrase in KUSTOMIZE_WORDING:
        assert phrase in text, phrase


def test_every_code_has_words_and_no_code_has_two():
    templates, functions = set(words.TEMPLATES), set(words.FUNCTIONS)
    assert not templates & functions
    assert all(code == code.lower() and " " not in code for code in templates | functions)


def test_every_code_with_words_is_one_the_builder_uses():
    text = "".join(path.read_text(encoding="utf-8") for path in KUBE.glob("kustomize/*.py"))
    unused = [code for code in {*words.TEMPLATES, *words.FUNCTIONS} if f'"{code}"' not in text]
    assert not unused


def test_a_step_wraps_the_problem_within_in_its_own_words():
    inner = Kustomize("file-outside-root", path="/t/../x.yaml", detail="/t")
    outer = Kustomize("accumulating-resources", cause=Kustomize(
        "resources-from", path="../x.yaml", cause=inner))
    assert compat.word(outer) == ("accumulating resources: accumulating resources from "
                                  "'../x.yaml': security; file '/t/../x.yaml' is not in or "
                                  "below '/t'")


def test_records_of_other_families_and_words_already_made_nest():
    assert compat.word(Kustomize("invalid-kustomization", cause=Unmarshal(
        "array", "types.Kustomization"))) == (
        "invalid Kustomization: json: cannot unmarshal array into Go value of type "
        "types.Kustomization")
    assert compat.word(Kustomize("converting-yaml", cause="yaml: line 2: x")) == \
        "error converting YAML to JSON: yaml: line 2: x"


def test_repeated_keys_in_go_yaml_s_words():
    problem = YamlValue("duplicate-keys", ((3, "a", 1), (5, "b c", 4)),
                        value="map[string]interface {}(nil)")
    assert compat.word(problem) == (
        'map[string]interface {}(nil): yaml: unmarshal errors:\n'
        '  line 3: mapping key "a" already defined at line 1\n'
        '  line 5: mapping key "b c" already defined at line 4')


def test_no_unique_target_and_replacement_sources_count_the_matches():
    for found, start in ((0, "no matches"), (2, "multiple matches")):
        assert compat.word(Kustomize("no-unique-target", id="X",
                                     detail=(found, "X", "", ""))).startswith(
            f"{start} for Id X;")
    assert compat.word(Kustomize("replacement-source-not-unique", id="X", field="a.b",
                                 detail=0)) == "nothing selected by X:a.b"
    assert compat.word(Kustomize("replacement-source-not-unique", id="X",
                                 detail=3)) == "multiple matches for selector X"


def test_helm_s_failure_in_kustomize_s_words():
    def failed(stderr, code, debug=False):
        return compat.word(Kustomize("helm-failed", path="helm", name="version -c --short",
                                     detail=(stderr, "out", "A=1", code, debug)))
    assert failed("boom\n", 1) == ("boom\n: unable to run: 'helm version -c --short' with "
                                   "env=[A=1] (is 'helm' installed?): exit status 1")
    assert failed(None, -1).endswith(': exec: "helm": executable file not found in $PATH')
    assert failed("fork failed\n", -1).endswith("installed?): fork failed")
    assert failed("e", 2, debug=True).startswith(" Helm stack trace:\ne\nHelm template:\nout\n: ")


def test_warnings_are_kustomize_s_words_too():
    assert compat.word(Kustomize("deprecated-field", name="vars")) == (
        "# Warning: 'vars' is deprecated. Please use 'replacements' instead. [EXPERIMENTAL] "
        "Run 'kustomize edit fix' to update your Kustomization automatically.")
    assert compat.word(Kustomize("unused-vars", detail="A,B")) == \
        "well-defined vars that were never replaced: A,B"


def _tree(files: dict[str, str]) -> MemoryFileSystem:
    return MemoryFileSystem({f"/t/{name}": text.encode() for name, text in files.items()})


def _refusal(files: dict[str, str]) -> BuildError:
    with pytest.raises(BuildError) as info:
        build("/t", fs=_tree(files))
    return info.value


def test_a_build_error_carries_the_record_of_every_step():
    error = _refusal({"kustomization.yaml": "resources:\n- ../outside.yaml\n",
                      "../outside.yaml": ""})
    problem = error.problem
    assert problem.kind == "kustomize" and problem.code == "accumulating-resources"
    assert compat.word(problem) == error.message
    inner = problem.cause
    assert inner.code == "accumulation"


def test_a_missing_resource_file_is_a_record_with_its_path():
    error = _refusal({"kustomization.yaml": "resources:\n- gone.yaml\n"})
    problem = error.problem
    assert problem.code == "accumulating-resources"
    paths = []
    while isinstance(problem, tuple):
        paths.append((problem.kind, getattr(problem, "code", None), getattr(problem, "path",
                                                                             None)))
        problem = getattr(problem, "detail", None) if getattr(problem, "code", "") == \
            "accumulation" else getattr(problem, "cause", None)
    assert ("kustomize", "no-such-path", "/t/gone.yaml") in paths, paths


def test_an_invalid_kustomization_names_the_go_problem():
    error = _refusal({"kustomization.yaml": "resources: 3\n"})
    assert error.problem.code == "invalid-kustomization"
    assert isinstance(error.problem.cause, Unmarshal)
    assert error.problem.cause.field == "Kustomization.resources"
    assert error.message.startswith("invalid Kustomization: json: cannot unmarshal number")


def test_without_compat_the_record_is_described_neutrally():
    problem = Kustomize("empty-kustomization")
    try:
        problems.use_wording(problems.describe)
        assert ProblemError(problem).message == (
            "kustomize(code='empty-kustomization', path=None, id=None, name=None, "
            "field=None, detail=None, cause=None)")
    finally:
        problems.use_wording(compat.word)
    assert ProblemError(problem).message == "kustomization.yaml is empty"
