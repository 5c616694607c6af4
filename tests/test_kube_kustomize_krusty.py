"""kustomize's own build tests (api/krusty at v5.5.0) through ``kube build``.

scripts/krusty_replay.py ran every test function of api/krusty (tables of cases,
helpers, built-in plugins and helm included), wrote each build it asks for as a tree
under tests/data/kustomize/krusty/trees/ and recorded kubectl 1.32's answer and our
verdict in recorded.json.  Here every tree is built again and must give the recorded
verdict: ``pass`` (identical output, or the same first line of error) for all but the
few differences the table names, and those must still differ, so the table stays
true.  Builds with ``--enable-helm`` run the real helm (../shared/bin/helm).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cfgpatch.kube.kustomize.build import BuildError, build
from conftest import SHARED, require

DATA = Path(__file__).resolve().parent / "data" / "kustomize" / "krusty"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
HELM = SHARED / "bin" / "helm"
#: a Go pointer kustomize prints in one message (changes on every run of kubectl)
ADDRESS = re.compile(r" &\{0xc[0-9a-f]+ <nil>\}")
CASES = [pytest.param(name, case, id=name) for name, case in sorted(RECORDED["cases"].items())
         if "tree" in case]


def _ours(case: dict) -> tuple[int, str, str]:
    root = DATA / "trees" / case["tree"]
    options: dict = {}
    flags = case["flags"]
    if "--enable-helm" in flags:
        from cfgpatch.cli.helm_runner import SubprocessHelm

        require(HELM.exists(), f"helm binary {HELM}")
        options.update(enable_helm=True, helm_command=str(HELM), helm_runner=SubprocessHelm())
    if "--load-restrictor" in flags:
        options["load_restrictor"] = flags[flags.index("--load-restrictor") + 1]
    try:
        result = build(str(root / case["directory"]), **options)
    except BuildError as err:
        code = 3 if err.code == "kustomize unmodelled" else 1
        first = f"error: {err.message}".splitlines()[0]
        return code, "", ADDRESS.sub("", _portable(first, root))
    return 0, _portable(result.yaml(), root), ""


def _portable(text: str, root: Path) -> str:
    """Paths as recorded: the tree's folder ``$TREE``, the folder of all trees ``$TREES``
    (a base reached through ``../``), so the records hold in any checkout."""
    return text.replace(str(root), "$TREE").replace(str(root.parent), "$TREES")


def _verdict(case: dict, mine: tuple[int, str, str]) -> str:
    if case["exit_code"] == 0:
        if mine[0] == 0:
            return "pass" if mine[1] == case["stdout"] else "differs"
        return "not modelled" if mine[0] == 3 else "refused"
    if mine[0] == 0:
        return "builds what kubectl refuses"
    if mine[0] == 3:
        return "not modelled"
    return "pass" if mine[2] in case["errors"] else "other error text"


@pytest.mark.parametrize(("name", "case"), CASES)
def test_krusty_case(name: str, case: dict) -> None:
    assert _verdict(case, _ours(case)) == case["ours"], name


def test_table() -> None:
    """The table covers kustomize's tests and names why a test is not replayed."""
    cases = RECORDED["cases"]
    replayed = [c for c in cases.values() if "tree" in c]
    assert len(cases) > 300 and len(replayed) > 280
    for name, case in cases.items():
        assert "tree" in case or case.get("skipped"), name
    not_passing = {n: c["ours"] for n, c in cases.items() if c.get("ours", "pass") != "pass"}
    assert len(not_passing) <= 6, not_passing
