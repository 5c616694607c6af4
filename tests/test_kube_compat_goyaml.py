"""go-yaml's words for YAML syntax errors given as values (kube/compat/goyaml.py); the
recorded kubectl and kustomize corpora check them end to end (test_kube_io_patch_text,
test_kube_io_reader_patch_text, test_kube_kustomize_*)."""

from __future__ import annotations

import pytest

yaml = pytest.importorskip("yaml")

from cfgpatch.kube.compat.goyaml import YamlProblem, message  # noqa: E402
from cfgpatch.kube.io.patch_text import yaml_problem  # noqa: E402


def _problem(text: str) -> YamlProblem:
    with pytest.raises(yaml.YAMLError) as caught:
        yaml.compose(text, Loader=yaml.BaseLoader)
    return yaml_problem(caught.value)


def test_a_pyyaml_error_becomes_a_value_with_its_place():
    found = _problem("a: [1, 2\n")
    assert (found.stage, found.line, found.context_line) == ("parser", 1, 0)
    assert "expected ',' or ']'" in found.problem


#: (text, kubectl patch -p's words (go-yaml v2), kubectl kustomize's (v3)), as kubectl
#: 1.32.4 and kustomize v5.5.0 print them.
@pytest.mark.parametrize("text,v2,v3", [
    ("a: [1, 2\n", "yaml: line 1: did not find expected ',' or ']'",
     "yaml: line 1: did not find expected ',' or ']'"),
    ("a: b\nc: d: e\n", "yaml: line 2: mapping values are not allowed in this context",
     "yaml: line 2: mapping values are not allowed in this context"),
    ("a: *nowhere\n", "yaml: unknown anchor 'nowhere' referenced",
     "yaml: unknown anchor 'nowhere' referenced"),
    ("x:\n  - a\n  b: c\n", "yaml: line 2: did not find expected '-' indicator",
     "yaml: line 1: did not find expected '-' indicator"),
])
def test_the_words_of_go_yaml_v2_and_v3(text, v2, v3):
    found = _problem(text)
    assert message(found) == v2
    assert message(found, v3=True) == v3


def test_a_problem_without_a_place_has_no_line():
    assert message(YamlProblem("parser", "expected the node content", None, None, None,
                               False, None)) == "yaml: did not find expected node content"
