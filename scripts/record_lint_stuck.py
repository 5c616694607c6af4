#!/usr/bin/env python3
"""Record what the API server does in the histories ``cfgpatch lint``'s ``ssa-stuck-field``
rule assumes (``tests/data/lint/ssa-stuck-oracle.json``; tests/test_lint_ssa_stuck.py
replays it against the engine).

A Deployment ``shop/web`` is created by client-side ``kubectl apply`` of the base build (an
Update by ``kubectl-client-side-apply`` of the object with its last-applied annotation,
as kubectl sends it); the new build drops ``minReadySeconds`` and the ``log`` sidecar
(and, in the ``change`` variant, also changes the image).  Then each tool's requests, each
decided from the server's previous answer as the tool decides it:

* ``server-side``: kubectl 1.32's ``apply --server-side`` (apply; the annotation applied
  by ``kubectl-last-applied``; the managedFields patch moving ``kubectl-client-side-apply``
  to ``kubectl``; apply again);
* ``flux``: kustomize-controller's cleanup (an Update carrying the managedFields with the
  ``kubectl*`` entries handed over and the annotation removed), then a forced apply;
  ``flux-merge``: the same objects marked ``kustomize.toolkit.fluxcd.io/ssa: Merge``, so
  the forced apply alone;
* ``helm4``: Helm 4's apply as ``helm`` (no force; in ``change`` it fails on the image,
  and ``helm4-forced`` is the same with ``--force-conflicts``).

A build that carries the last-applied annotation (``annotation/``: exported from a
cluster) applied by ``kubectl apply --server-side``, without and with
``--force-conflicts``.

A release Helm 3 installed (``helm3/helm4``: created by an Update of ``helm``, no
annotation) upgraded by Helm 4: ``helm``'s Update entry merged into its Apply entry, then
its apply.

Every other history the rule's ``history:`` setting names (``history/H/T``: the object
written from the base build by H, then tool T's requests for the new build; ``-change``:
the changed image, the first apply without force): ``server-side`` (an apply by
``kubectl``), ``flux`` (a forced apply by ``kustomize-controller``), ``helm3`` (an Update
by ``helm``), ``helm4`` (an apply by ``helm``), and for the histories whose field stays
the two ways out (``history/H/T/way-out-...``): H applies the new build first (Helm 3's
upgrade patch leaves the new build: an Update by ``helm`` of it), or a ``kubectl patch``
removing ``minReadySeconds``; then T's requests.

And the ways out of the stuck fields Helm 4 leaves (from its result): kubectl's
``apply --server-side --field-manager=helm`` (apply, managedFields patch, apply again),
a ``kubectl patch`` removing ``minReadySeconds`` (a merge patch) followed by Helm's
apply, a client-side ``kubectl apply`` of the new build followed by Helm's apply, and a
Helm apply that sends ``minReadySeconds: null``.

Usage: scripts/record_lint_stuck.py [--check]
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_ssa import ORACLE, SMD_SCHEMA, _NoDates  # noqa: E402

from cfgpatch.kube.engine.clientapply import kubectl_apply, modified_configuration  # noqa: E402
from cfgpatch.kube.schema.node import builtin_schema  # noqa: E402
from cfgpatch.kube.ssa.csaupgrade import (  # noqa: E402
    LAST_APPLIED,
    LAST_APPLIED_PATH,
    find_fields_owners,
    upgraded_entries,
)
from cfgpatch.kube.ssa.flux import replaced_entries  # noqa: E402

OUT = ROOT / "tests" / "data" / "lint" / "ssa-stuck-oracle.json"
MERGE = {"kustomize.toolkit.fluxcd.io/ssa": "Merge"}


def deployment(image: str = "nginx:1.27", dropped: bool = False,
               annotations: dict | None = None) -> dict:
    containers = [{"name": "web", "image": image}]
    spec: dict = {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                  "template": {"metadata": {"labels": {"app": "web"}},
                               "spec": {"containers": containers}}}
    if not dropped:
        spec["minReadySeconds"] = 10
        containers.append({"name": "log", "image": "busybox:1.36"})
    meta: dict = {"name": "web", "namespace": "shop"}
    if annotations:
        meta["annotations"] = dict(annotations)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": spec}


def oracle(live: dict | None, ops: list[dict]) -> list[dict]:
    case = {"ops": ops} if live is None else {"live": live, "ops": ops}
    done = subprocess.run([str(ORACLE), "-smd-schema", str(SMD_SCHEMA)],
                          input=json.dumps(case), capture_output=True, text=True, check=True)
    return yaml.load(done.stdout, Loader=_NoDates)


def apply(manager: str, obj: dict, force: bool = False) -> dict:
    return {"op": "apply", "manager": manager, "force": force, "object": obj}


def update(manager: str, obj: dict) -> dict:
    return {"op": "update", "manager": manager, "object": obj}


def last(live: dict | None, ops: list[dict]) -> dict:
    return oracle(live, ops)[-1]


def created(base: dict) -> dict:
    sent, _ = modified_configuration(base, "shop")
    return last(None, [update("kubectl-client-side-apply", sent)])["object"]


def kubectl_flow(live: dict, obj: dict, manager: str = "kubectl",
                 force: bool = False) -> list[dict]:
    """kubectl 1.32's requests of ``apply --server-side --field-manager=MANAGER``."""
    ops = [apply(manager, obj, force)]
    answer = last(live, ops)
    if not answer["ok"]:  # a conflict: kubectl stops there
        return ops
    current = answer["object"]
    meta = current["metadata"]
    annotation = (meta.get("annotations") or {}).get(LAST_APPLIED)
    if manager == "kubectl" and annotation is not None and not find_fields_owners(
            meta.get("managedFields") or [], "Apply", LAST_APPLIED_PATH):
        just = {k: meta[k] for k in ("name", "namespace") if k in meta}
        just["annotations"] = {LAST_APPLIED: annotation}
        ops.append(apply("kubectl-last-applied", {"apiVersion": current["apiVersion"],
                                                  "kind": current["kind"], "metadata": just}))
        current = last(live, ops)["object"]
    entries = current["metadata"].get("managedFields") or []
    names = sorted({e.get("manager", "") for e in find_fields_owners(
        entries, "Update", LAST_APPLIED_PATH)})
    after = upgraded_entries(entries, names, manager)
    if names and after != entries:
        sent = copy.deepcopy(current)
        sent["metadata"]["managedFields"] = after or []
        ops += [update(manager, sent), apply(manager, obj, force)]
    return ops


def flux_ops(live: dict | None, obj: dict) -> list[dict]:
    """kustomize-controller's cleanup (when there is something to clean) and forced apply."""
    meta = (live or {}).get("metadata") or {}
    if live is None or (replaced_entries(meta.get("managedFields") or []) is None
                        and LAST_APPLIED not in (meta.get("annotations") or {})):
        return [apply("kustomize-controller", obj, True)]
    cleaned = copy.deepcopy(live)
    meta = cleaned["metadata"]
    replaced = replaced_entries(meta.get("managedFields") or [])
    if replaced is not None:
        meta["managedFields"] = replaced
    annotations = {k: v for k, v in (meta.get("annotations") or {}).items()
                   if k != LAST_APPLIED}
    meta["annotations"] = annotations
    if not annotations:
        del meta["annotations"]
    return [update("kustomize-controller", cleaned), apply("kustomize-controller", obj, True)]


def helm4_upgrade(live: dict, obj: dict) -> list[dict]:
    """Helm 4 upgrading a release Helm 3 installed: ``helm``'s Update entries merged into
    its Apply entry (a managedFields patch sent as helm), then its apply."""
    entries = live["metadata"].get("managedFields") or []
    after = upgraded_entries(entries, ["helm"], "helm")
    sent = copy.deepcopy(live)
    sent["metadata"]["managedFields"] = after or []
    return [update("helm", sent), apply("helm", obj)]


def helm4_ops(live: dict | None, obj: dict, force: bool = False) -> list[dict]:
    """Helm 4's requests: the merge of helm's Update entries when it has some, its apply."""
    entries = ((live or {}).get("metadata") or {}).get("managedFields") or []
    if any(e.get("manager") == "helm" and e.get("operation") == "Update" for e in entries):
        return [*helm4_upgrade(live or {}, obj)[:-1], apply("helm", obj, force)]
    return [apply("helm", obj, force)]


def helm3_upgrade(live: dict, obj: dict) -> list[dict]:
    """Helm 3's upgrade to ``obj`` of an object its last release wrote unchanged: the
    three-way merge patch leaves ``obj``, sent as an Update by ``helm``."""
    sent = copy.deepcopy(obj)
    sent["metadata"]["managedFields"] = live["metadata"].get("managedFields") or []
    return [update("helm", sent)]


#: Each history's requests writing the object from nothing (``client-side``: created()).
WRITE = {"server-side": lambda live, obj: kubectl_flow(live, obj),
         "flux": flux_ops, "helm4": helm4_ops, "helm3": lambda live, obj: [update("helm", obj)]}
#: Each tool's requests over a live object.
TOOLS = {"server-side": lambda live, obj: kubectl_flow(live, obj), "flux": flux_ops,
         "helm4": helm4_ops}


def history_cases() -> dict:
    """``history/H/T`` for every history H the rule knows and tool T, and the ways out
    where the field stays."""
    cases: dict = {}
    base, head = deployment(), deployment(dropped=True)
    changed = deployment("nginx:1.28", dropped=True)
    for past in ("client-side", "server-side", "flux", "helm3", "helm4"):
        live = created(base) if past == "client-side" else last(None, WRITE[past](None, base))[
            "object"]
        cases[f"history/{past}/written"] = {"base": base, "answer": live}
        for tool, ops in TOOLS.items():
            case = _case(base, head, ops(live, head), live)
            cases[f"history/{past}/{tool}"] = case
            if tool != "flux":  # (Flux always forces)
                first = ops(live, changed)
                cases[f"history/{past}/{tool}-change"] = _case(base, changed, first, live)
            final = case["answers"][-1]["object"]
            if past == "client-side" or "minReadySeconds" not in final["spec"]:
                continue
            before = helm3_upgrade(live, head) if past == "helm3" else WRITE[past](live, head)
            after = last(live, before)["object"]
            cases[f"history/{past}/{tool}/way-out-{past}-first"] = _case(
                base, head, before + ops(after, head), live)
            patch = {"op": "update", "manager": "kubectl-patch",
                     "patchLive": {"spec": {"minReadySeconds": None}}}
            patched = last(live, [patch])["object"]
            cases[f"history/{past}/{tool}/way-out-kubectl-patch"] = _case(
                base, head, [patch, *ops(patched, head)], live)
    return cases


def client_side(live: dict, obj: dict) -> dict:
    """The object a client-side ``kubectl apply`` of ``obj`` leaves (its patch applied)."""
    node = builtin_schema().for_kind("apps/v1", "Deployment")
    return kubectl_apply(obj, live, node, namespace="shop").result


def _case(base: dict, head: dict, ops: list[dict], live: dict) -> dict:
    return {"live": live, "ops": ops, "answers": oracle(live, ops), "base": base,
            "head": head}


def record() -> dict:
    cases: dict = {}
    for variant, head in (("drop", deployment(dropped=True)),
                          ("change", deployment("nginx:1.28", dropped=True))):
        base = deployment()
        live = created(base)
        cases[f"{variant}/history"] = {"base": base, "answer": live}
        cases[f"{variant}/server-side"] = _case(base, head, kubectl_flow(live, head), live)
        cases[f"{variant}/flux"] = _case(base, head, flux_ops(live, head), live)
        cases[f"{variant}/helm4"] = _case(base, head, [apply("helm", head)], live)
        cases[f"{variant}/helm4-forced"] = _case(base, head, [apply("helm", head, True)], live)
        merged_base, merged_head = deployment(annotations=MERGE), copy.deepcopy(head)
        merged_head["metadata"]["annotations"] = dict(MERGE)
        merged_live = created(merged_base)
        cases[f"{variant}/flux-merge"] = _case(
            merged_base, merged_head, [apply("kustomize-controller", merged_head, True)],
            merged_live)
    base, head = deployment(), deployment(dropped=True)
    annotated = copy.deepcopy(head)  # a build that carries an exported annotation
    annotated["metadata"]["annotations"] = {LAST_APPLIED: json.dumps(base)}
    csa = created(base)
    cases["annotation/server-side"] = _case(base, annotated, [apply("kubectl", annotated)],
                                            csa)
    cases["annotation/server-side-forced"] = _case(
        base, annotated, kubectl_flow(csa, annotated, force=True), csa)
    helm3 = last(None, [update("helm", base)])["object"]  # Helm 3 creates as helm, Update
    cases["helm3/helm4"] = _case(base, head, helm4_upgrade(helm3, head), helm3)
    stuck = last(created(base), [apply("helm", head)])["object"]
    ways = {
        "kubectl-server-side-as-helm": kubectl_flow(stuck, head, "helm"),
        "kubectl-patch": [{"op": "update", "manager": "kubectl-patch",
                           "patchLive": {"spec": {"minReadySeconds": None}}},
                          apply("helm", head)],
        "client-side-first": [update("kubectl-client-side-apply", client_side(stuck, head)),
                              apply("helm", head)],
        "null-in-chart": [apply("helm", dict(head, spec=dict(head["spec"],
                                                             minReadySeconds=None)))],
    }
    for name, ops in ways.items():
        cases[f"way-out/{name}"] = _case(base, head, ops, stuck)
    merged_base, merged_head = deployment(annotations=MERGE), deployment(dropped=True,
                                                                         annotations=MERGE)
    merged = last(created(merged_base), [apply("kustomize-controller", merged_head, True)])
    cases["way-out/flux-merge-kubectl-server-side"] = _case(
        merged_base, merged_head,
        kubectl_flow(merged["object"], merged_head, "kustomize-controller"), merged["object"])
    cases.update(history_cases())
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    args = parser.parse_args()
    if not ORACLE.exists():
        print("../shared/bin/ssa-oracle is needed", file=sys.stderr)
        return 2
    text = json.dumps(record(), indent=1, sort_keys=True) + "\n"
    if OUT.exists() and OUT.read_text(encoding="utf-8") == text:
        return 0
    print(f"changed: {OUT.relative_to(ROOT)}")
    if args.check:
        return 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
