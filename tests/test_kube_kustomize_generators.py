"""kustomize/generators.py on its own: configMapGenerator / secretGenerator sources
(literals, env files, files), options, behaviors, hash suffixes, styles and errors.

Every tree here was also built with ``kubectl kustomize`` 1.32 when the test was
written, and answered what the assertions say (the corpus tree ``generators`` replays
a bigger one byte for byte)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.generators import content_hash
from cfgpatch.kube.kustomize.styles import Quoted


def tree(tmp_path: Path, files: dict[str, str | bytes]) -> str:
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
    return str(tmp_path)


def built(tmp_path: Path, kustomization: str, **files: str | bytes) -> list[dict]:
    result = build(tree(tmp_path, {"kustomization.yaml": kustomization, **files}))
    return [r.value for r in result.resources]


def test_literals_env_files_and_files_in_that_order_with_a_hash(tmp_path):
    [cm] = built(tmp_path, "configMapGenerator:\n- name: app\n  envs: [app.env]\n"
                           "  literals: [B=2, 'C=\"quoted\"']\n  files: [conf.ini, key=other.txt]\n",
                 **{"app.env": "# comment\n\nA=1\n", "conf.ini": "[x]\n",
                    "other.txt": "text"})
    assert list(cm["data"]) == ["A", "B", "C", "conf.ini", "key"]
    assert cm["data"]["C"] == "quoted"
    assert cm["metadata"]["name"] == f"app-{content_hash(cm)}"


def test_options_labels_annotations_immutable_and_no_hash(tmp_path):
    [cm] = built(tmp_path, "generatorOptions:\n  disableNameSuffixHash: true\n"
                           "  labels: {team: a}\n  immutable: true\n"
                           "configMapGenerator:\n- name: app\n  literals: [A=1]\n"
                           "  options:\n    annotations: {note: x}\n")
    assert cm["metadata"] == {"name": "app", "labels": {"team": "a"},
                              "annotations": {"note": "x"}}
    assert cm["immutable"] is True


def test_secret_data_is_base64_and_typed(tmp_path):
    [secret] = built(tmp_path, "secretGenerator:\n- name: s\n  literals: [password=change-me]\n"
                               "  type: kubernetes.io/basic-auth\n")
    assert secret["type"] == "kubernetes.io/basic-auth"
    assert base64.b64decode(secret["data"]["password"]) == b"change-me"


def test_binary_file_goes_to_binary_data(tmp_path):
    [cm] = built(tmp_path, "configMapGenerator:\n- name: b\n  files: [blob.bin]\n",
                 **{"blob.bin": b"\xff\x00\x01"})
    assert cm["binaryData"] == {"blob.bin": base64.b64encode(b"\xff\x00\x01").decode()}
    assert "data" not in cm
    assert cm["metadata"]["name"] == "b-hfc5ch2cdt"  # kustomize hashes the missing data as ""


def test_values_yaml_11_reads_otherwise_are_held_quoted(tmp_path):
    [cm] = built(tmp_path, "configMapGenerator:\n- name: app\n  literals: [N=1, F=true, W=abc]\n")
    data = cm["data"]
    assert isinstance(data["N"], Quoted) and isinstance(data["F"], Quoted)
    assert not isinstance(data["W"], Quoted)


def test_behavior_merge_and_replace_over_a_base(tmp_path):
    files = {"base/kustomization.yaml": "configMapGenerator:\n- name: app\n"
                                        "  literals: [A=1, B=2]\n"}
    tree(tmp_path, files)
    [merged] = built(tmp_path / "m", "resources: [../base]\nconfigMapGenerator:\n"
                                     "- name: app\n  behavior: merge\n  literals: [B=3, C=4]\n")
    assert merged["data"] == {"A": "1", "B": "3", "C": "4"}
    [replaced] = built(tmp_path / "r", "resources: [../base]\nconfigMapGenerator:\n"
                                       "- name: app\n  behavior: replace\n  literals: [C=4]\n")
    assert replaced["data"] == {"C": "4"}


def test_create_over_an_existing_one_is_an_error(tmp_path):
    tree(tmp_path, {"base/kustomization.yaml": "configMapGenerator:\n- name: app\n"
                                               "  literals: [A=1]\n"})
    with pytest.raises(BuildError) as caught:
        built(tmp_path / "o", "resources: [../base]\nconfigMapGenerator:\n- name: app\n"
                              "  literals: [B=1]\n")
    assert "behavior must be merge or replace" in caught.value.message


@pytest.mark.parametrize("entry, message", [
    ("literals: [A=1, NOEQUALS]", "loading KV pairs: literal sources [A=1 NOEQUALS]: "
                                  "invalid literal source NOEQUALS, expected key=value"),
    ("literals: [=1]", "loading KV pairs: literal sources [=1]: invalid literal source =1, "
                       "expected key=value"),
    ("literals: [A=1, A=2]", "configmap app illegally repeats the key `A`"),
    ("files: [=x.txt]", 'loading KV pairs: file sources: [=x.txt]: missing key name for '
                        'file path "x.txt" in source "=x.txt"'),
    ("envs: [missing.env]", "loading KV pairs: env source files: [missing.env]: "
                            "evalsymlink failure on"),
])
def test_errors(tmp_path, entry, message):
    with pytest.raises(BuildError) as caught:
        built(tmp_path, f"configMapGenerator:\n- name: app\n  {entry}\n",
              **{"x.txt": "x"})
    assert message in caught.value.message


def test_keys_are_not_validated_and_env_lines_without_a_value_are_empty(tmp_path):
    # measured (kustomize v5.5): no key validation at build; the environment is not read
    [cm] = built(tmp_path, "configMapGenerator:\n- name: app\n  envs: [a.env]\n"
                           "  literals: ['a b=1', 'a/b=2']\n",
                 **{"a.env": "9X=2\nFROM_ENV\n"})
    assert cm["data"] == {"9X": "2", "FROM_ENV": "", "a b": "1", "a/b": "2"}


def test_empty_generators(tmp_path):
    cm, secret = built(tmp_path, "configMapGenerator:\n- name: e\nsecretGenerator:\n- name: s\n")
    assert "data" not in cm and cm["metadata"]["name"] == "e-6ct58987ht"
    assert secret["data"] == {} and secret["metadata"]["name"] == "s-46f8b28mk5"


def test_content_hash_is_kustomizes():
    # the same value kustomize prints for this Secret (see the generators corpus tree)
    assert content_hash({"kind": "Secret", "type": "Opaque",
                         "data": {"password": "Y2hhbmdlLW1l"}}) == "cbdk8c6c2d"
    assert content_hash({"kind": "ConfigMap", "data": {"a": "b"}}) != \
        content_hash({"kind": "ConfigMap", "data": {"a": "c"}})


def test_keys_yaml_reads_as_no_string_fail_at_output(tmp_path):
    # measured (kubectl 1.32, tree written-key-types): the keys a generator writes are
    # plain, so `1` and `true` are typed keys and Go's JSON refuses the map
    kustomization = "configMapGenerator:\n- name: app\n  envs: [a.env]\n  literals: ['1=x']\n"
    with pytest.raises(BuildError) as caught:
        built(tmp_path, kustomization, **{"a.env": "true=y\n"})
    assert '"data":map[interface {}]interface {}{1:"x", true:"y"}' in caught.value.message
    assert caught.value.message.endswith("json: unsupported type: map[interface {}]interface {}")
