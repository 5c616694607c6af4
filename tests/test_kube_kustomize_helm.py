"""Helm charts in kube build (kustomize/helm.py) against kubectl kustomize's recordings.

scripts/record_kustomize_helm.py built every directory of tests/data/kustomize/helm-trees
with ``kubectl.1.32 kustomize --enable-helm --helm-command HELM`` through a shim that
logged each helm call.  The replay gives ``kube build`` a helm that answers from the
recording and fails on any call kustomize did not make: the arguments must be
kustomize's, in its order, and the values files must hold the same values.  The live
test runs the real helm (../shared/bin/helm; with CI=true it must be there).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from cfgpatch.errors import KUSTOMIZE_ERROR
from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.filesys import MemoryFileSystem
from conftest import SHARED, require

DATA = Path(__file__).resolve().parent / "data" / "kustomize"
TREES, RECORDED = DATA / "helm-trees", DATA / "recorded-helm"
HELM = SHARED / "bin" / "helm"
TEMP = re.compile(r"/[^\s'\"\]]*?/kustomize-helm-\d+")


def _cases():
    for path in sorted(RECORDED.glob("*.json")):
        recording = json.loads(path.read_text(encoding="utf-8"))
        for rel, answer in sorted(recording["builds"].items()):
            yield pytest.param(recording["tree"], rel, answer, id=f"{recording['tree']}/{rel}")


CASES = list(_cases())


class ReplayHelm:
    """A helm that answers kustomize's recorded calls, in order, and nothing else."""

    def __init__(self, calls: list[dict], tree: str) -> None:
        self.calls, self.tree, self.files = list(calls), tree, {}

    def make_temp_dir(self) -> str:
        return "$TMP"

    def write_file(self, path: str, data: bytes) -> None:
        self.files[path] = data

    def remove_tree(self, path: str) -> None:
        assert path == "$TMP"

    def run(self, command, args, env):
        assert command == "$HELM"
        assert self.calls, f"a helm call kustomize did not make: {args}"
        call = self.calls.pop(0)
        assert env == call["env"]
        assert [a.replace(self.tree, "$TREE") for a in args] == call["args"]
        for path, text in call["values"].items():
            ours = self.files.get(path) or Path(path.replace("$TREE", self.tree)).read_bytes()
            assert yaml.safe_load(ours) == yaml.safe_load(text), path
        return call["exit_code"], call["stdout"].encode(), \
            call["stderr"].replace("$TREE", self.tree).encode()


def _options(answer: dict) -> dict:
    flags = answer["flags"]
    restrictor = flags[flags.index("--load-restrictor") + 1] if flags else "LoadRestrictionsRootOnly"
    return {"load_restrictor": restrictor, "enable_helm": True}


def _answer(directory: Path, **options) -> tuple[int, str, str]:
    try:
        result = build(str(directory), **options)
    except BuildError as err:
        return 1, "", "".join(w + "\n" for w in err.warnings) + f"error: {err.message}\n"
    return 0, result.yaml(), "".join(w + "\n" for w in result.warnings)


def _expected(answer: dict, tree: str) -> tuple[int, str, str]:
    return (answer["exit_code"], answer["stdout"].replace("$TREE", tree),
            answer["stderr"].replace("$TREE", tree))


@pytest.mark.parametrize("tree, rel, answer", CASES)
def test_a_helm_build_calls_helm_as_kustomize_and_prints_the_same(tree, rel, answer):
    root = str((TREES / tree).resolve())
    helm = ReplayHelm(answer["helm_calls"], root)
    got = _answer(TREES / tree / rel, helm_command="$HELM", helm_runner=helm, **_options(answer))
    assert got == _expected(answer, root)
    assert not helm.calls, "kustomize made more helm calls"


def test_the_recordings_cover_every_build_directory():
    built = {(tree, rel) for tree, rel, _ in (c.values for c in CASES)}
    assert len(built) >= 10 and ("charts-basic", "plugin") in built


@pytest.mark.parametrize("tree, rel, answer", CASES)
def test_live_helm_builds_as_recorded(tree, rel, answer):
    from cfgpatch.cli.helm_runner import SubprocessHelm

    require(HELM.exists(), f"{HELM} is missing")
    root = str((TREES / tree).resolve())
    got = _answer(TREES / tree / rel, helm_command=str(HELM), helm_runner=SubprocessHelm(),
                  **_options(answer))
    normal = tuple(TEMP.sub("$TMP", part.replace(str(HELM), "$HELM")) if isinstance(part, str)
                   else part for part in got)
    assert normal == _expected(answer, root)


def test_without_enable_helm_it_is_kustomizes_configuration_error():
    # measured: kubectl 1.32 kustomize without --enable-helm
    fs = MemoryFileSystem({"/t/kustomization.yaml": "helmCharts:\n- name: web\n  releaseName: "
                                                    "shop\n  valuesInline: {replicas: 3}\n"})
    with pytest.raises(BuildError) as caught:
        build("/t", fs=fs)
    assert caught.value.code == KUSTOMIZE_ERROR
    assert caught.value.message == (
        "trouble configuring builtin HelmChartInflationGenerator with config: `\nname: web\n"
        "releaseName: shop\nvaluesInline:\n  replicas: 3\n`: must specify --enable-helm")


def test_without_a_runner_helm_is_a_missing_executable():
    from cfgpatch.kube.kustomize import helm_options as helm
    saved = list(helm._installed)
    helm._installed.clear()
    try:
        fs = MemoryFileSystem({"/t/kustomization.yaml": "helmCharts:\n- name: web\n"})
        with pytest.raises(BuildError) as caught:
            build("/t", fs=fs, enable_helm=True, helm_command="nohelm")
    finally:
        helm._installed[:] = saved
    assert caught.value.message.startswith("unable to run: 'nohelm version -c --short' with env=")
    assert caught.value.message.endswith(
        "(is 'nohelm' installed?): exec: \"nohelm\": executable file not found in $PATH")
