"""lint/config.py: ``.cfgpatch.yaml`` (its ``lint:`` section) and its globs."""

from __future__ import annotations

import pytest

from cfgpatch.errors import InvalidInput
from cfgpatch.lint.config import Config, glob_match, parse_config

FULL = """\
lint:
  include: ["deploy/**"]
  exclude: [vendor]
  disable: [null-deletes]
  severity: {field-set-twice: error, unknown-field: info}
  schemas: crds/
  patches:
    - patch: ./patches//replicas.yaml
      target: base/deployment.yaml
      type: merge
      select: {kind: Deployment, name: web}
"""


def test_a_full_config():
    config = parse_config(FULL)
    assert config.include == ("deploy/**",) and config.schemas == ("crds/",)
    assert config.level("null-deletes", "note") is None
    assert config.level("field-set-twice", "warning") == "error"
    assert config.level("unknown-field", "warning") == "note"
    assert config.level("build-failed", "error") == "error"
    (patch,) = config.patches
    assert (patch.patch, patch.target, patch.type) == ("patches/replicas.yaml",
                                                      "base/deployment.yaml", "merge")
    assert patch.select == {"kind": "Deployment", "name": "web"}
    assert config.considers("deploy/apps/kustomization.yaml")
    assert not config.considers("deploy/vendor/x/kustomization.yaml")
    assert not config.considers("other/kustomization.yaml")


def test_empty_and_other_sections():
    assert parse_config("") == Config(source=".cfgpatch.yaml")
    assert parse_config("other: 1\n").patches == ()


@pytest.mark.parametrize("text, place, message", [
    ("lint:\n  colour: red\n", "2:3", "unknown key lint.colour"),
    ("lint:\n  disable: [null-deletes, nope]\n", "2:27", "unknown rule 'nope'"),
    ("lint:\n  severity: {null-deletes: loud}\n", "2:14", "lint.severity.null-deletes"),
    ("lint:\n  severity:\n    nope: error\n", "3:5", "lint.severity: unknown rule 'nope'"),
    ("lint:\n  include: 3\n", "2:3", "lint.include must be a list of strings"),
    ("lint:\n  patches: [{patch: a.yaml}]\n", "2:13", "lint.patches[0].target must be a file"),
    ("lint:\n  patches:\n    - patch: a\n      target: b\n      type: xml\n", "5:7",
     "lint.patches[0].type"),
    ("lint:\n  patches:\n    - {patch: a, target: b, select: {color: x}}\n", "3:38",
     ".select takes"),
    ("lint:\n  patches:\n    - patch: a\n      target: b\n      extra: 1\n", "5:7",
     "lint.patches[0]: unknown key extra"),
    ("lint: [1]\n", "1:1", "`lint` must be a mapping"),
    ("a: 1\n---\nb: 2\n", "3:1", "must be one YAML mapping"),
])
def test_mistakes_name_the_key_and_its_line_and_column(text, place, message):
    with pytest.raises(InvalidInput) as caught:
        parse_config(text)
    assert caught.value.message.startswith(f".cfgpatch.yaml:{place}: "), caught.value.message
    assert message in caught.value.message


def test_a_text_that_is_not_yaml_names_the_line_and_the_given_file_name():
    with pytest.raises(InvalidInput) as caught:
        parse_config("lint:\n  include: [a\n", "conf/lint.yaml")
    assert caught.value.message.startswith("conf/lint.yaml:3: not YAML: ")


@pytest.mark.parametrize("pattern, path, expected", [
    ("vendor", "a/vendor/b.yaml", True),
    ("*.json", "a/b/c.json", True),
    ("deploy/*", "deploy/a.yaml", True),
    ("deploy/*", "deploy/a/b.yaml", True),  # deploy/a matches: a folder covers its files
    ("deploy/*.yaml", "deploy/a/b.yaml", False),
    ("deploy", "deployments/a.yaml", False),
    ("deploy/**", "deploy/a/b.yaml", True),
    ("**/prod/**", "x/prod/k.yaml", True),
    ("**/prod/**", "prod/k.yaml", True),
    ("apps/?/k.yaml", "apps/a/k.yaml", True),
    ("apps/?/k.yaml", "apps/ab/k.yaml", False),
    ("./deploy/**", "deploy/x", True),
])
def test_globs(pattern, path, expected):
    assert glob_match(pattern, path) is expected
