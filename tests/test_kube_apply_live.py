"""Live tests of patch creation against real kubectl 1.32 (required in CI).

* recorded cases re-run: ``kubectl apply`` / ``kubectl edit`` against the fake API
  server of ``scripts/fake_kube_api.py`` must still send the recorded bytes, and ours;
* random pairs of objects of common kinds: the two-way patch we create is applied by
  ``kubectl patch --local`` and must give the new object; ``kubectl edit`` from the old
  to the new object must send exactly our patch;
* random three-way cases: ``kubectl apply`` must send exactly our patch.

Locally these skip (with the reason printed) when kubectl is absent; with ``CI=true``
they fail instead.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from cfgpatch.kube.engine.clientapply import kubectl_apply
from cfgpatch.kube.engine.create import create_two_way
from cfgpatch.kube.go.json import encode
from cfgpatch.kube.schema.node import builtin_schema
from conftest import require
from kube_gen_support import ObjectGen
from kube_support import kubectl_patch_local
from test_kube_engine_clientapply import CASES, ours

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from fake_kube_api import kubectl_apply as real_apply  # noqa: E402
from fake_kube_api import kubectl_edit as real_edit  # noqa: E402
from kube_apply_cases import annotate  # noqa: E402

KUBECTL = shutil.which("kubectl")
SCHEMA = builtin_schema()
KINDS = [("apps/v1", "Deployment"), ("v1", "Service"), ("v1", "Pod"), ("v1", "ConfigMap"),
         ("apps/v1", "StatefulSet"), ("batch/v1", "CronJob"), ("v1", "ServiceAccount"),
         ("networking.k8s.io/v1", "Ingress")]
LIVE_CASES = [c for c in CASES if c["id"] in {
    "container-removed", "scale-kept-replicas-never-applied", "strategy-to-recreate",
    "finalizers-unsorted-unchanged", "cr-json-merge-three-way", "overwrite-false-conflict",
    "edit-volume-switch", "edit-cr-merge"}]


def _need_kubectl() -> None:
    require(KUBECTL is not None, "kubectl not on PATH")


@pytest.mark.parametrize("case", LIVE_CASES, ids=[c["id"] for c in LIVE_CASES])
def test_recorded_cases_still_hold(case):
    _need_kubectl()
    if case["how"] == "apply":
        sent = real_apply(KUBECTL, case["live"], case["manifest"], tuple(case.get("flags", ())))
    else:
        sent = real_edit(KUBECTL, case["old"], case["new"])
    assert (sent.code, sent.patch) == (case["code"], case["patch"])
    assert ours(case)[0] == sent.patch


def _pair(seed: int):
    api_version, kind = KINDS[seed % len(KINDS)]
    node = SCHEMA.for_kind(api_version, kind)
    gen = ObjectGen(seed)
    old = gen.object(api_version, kind, node)
    old["metadata"]["namespace"] = "default"
    return node, gen, old, gen.edit(old, node)


@pytest.mark.parametrize("seed", range(16))
def test_random_two_way_patches_with_kubectl(seed):
    _need_kubectl()
    node, _, old, new = _pair(seed)
    patch = encode(create_two_way(old, new, node))
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "doc.json").write_text(json.dumps(old), encoding="utf-8")
        done = kubectl_patch_local(KUBECTL, folder, "strategic", patch)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == new
    if old != new:  # kubectl edit sends nothing when the text did not change
        sent = real_edit(KUBECTL, old, new)
        assert sent.patch == patch, sent.stderr


@pytest.mark.parametrize("seed", range(12))
def test_random_three_way_patches_with_kubectl_apply(seed):
    _need_kubectl()
    node, gen, last, new = _pair(1000 + seed)
    live = annotate(gen.edit(last, node, live_only=True), last)
    sent = real_apply(KUBECTL, live, new)
    mine = kubectl_apply(new, live, node)
    assert sent.code == 0, sent.stderr
    assert sent.patch == (None if mine.unchanged else mine.patch_text)
