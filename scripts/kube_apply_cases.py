"""The inputs of the recorded patch-creation cases (``record_kube_apply.py``).

Written by hand from apimachinery's documented behaviour and the classic surprises of
``kubectl apply``; each is a dict with ``id``, ``how`` (``apply`` or ``edit``), and
``live`` + ``manifest`` (apply) or ``old`` + ``new`` (edit).  ``applied(obj)`` gives an
object the last-applied annotation holding ``last`` as kubectl writes it.
"""

from __future__ import annotations

import copy
import json

LAST = "kubectl.kubernetes.io/last-applied-configuration"


def annotate(obj: dict, last: dict) -> dict:
    """``obj`` with ``last`` in its last-applied annotation (kubectl's encoding)."""
    out = copy.deepcopy(obj)
    saved = copy.deepcopy(last)
    saved.setdefault("metadata", {}).setdefault("annotations", {})
    text = json.dumps(saved, sort_keys=True, separators=(",", ":")) + "\n"
    out.setdefault("metadata", {}).setdefault("annotations", {})[LAST] = text
    return out


def deploy(replicas=None, containers=None, **spec_extra) -> dict:
    template_spec = {"containers": containers if containers is not None
                     else [{"name": "app", "image": "app:1"}]}
    spec: dict = {"selector": {"matchLabels": {"app": "web"}},
                  "template": {"metadata": {"labels": {"app": "web"}}, "spec": template_spec}}
    if replicas is not None:
        spec["replicas"] = replicas
    spec.update(spec_extra)
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default"}, "spec": spec}


def with_pod(obj: dict, **fields) -> dict:
    out = copy.deepcopy(obj)
    out["spec"]["template"]["spec"].update(fields)
    return out


def apply_case(case_id: str, last: dict | None, live: dict, manifest: dict, **extra) -> dict:
    live = annotate(live, last) if last is not None else live
    return {"id": case_id, "how": "apply", "live": live, "manifest": manifest, **extra}


def edit_case(case_id: str, old: dict, new: dict) -> dict:
    return {"id": case_id, "how": "edit", "old": old, "new": new}


APP = {"name": "app", "image": "app:1"}
LOG = {"name": "log", "image": "log:1"}
SIDE = {"name": "side", "image": "side:1"}


def _cases() -> list[dict]:
    cases = []
    add = cases.append
    # --- kubectl scale, kept or reverted
    add(apply_case("scale-kept-replicas-never-applied", deploy(), deploy(replicas=5), deploy()))
    add(apply_case("scale-reverted-replicas-in-manifest", deploy(3), deploy(replicas=5),
                   deploy(3)))
    add(apply_case("replicas-removed-from-manifest", deploy(3), deploy(3), deploy()))
    add(apply_case("replicas-removed-after-scale", deploy(3), deploy(5), deploy()))
    add(apply_case("replicas-changed", deploy(3), deploy(5), deploy(4)))
    # --- containers
    two = [APP, LOG]
    add(apply_case("container-removed", deploy(containers=two), deploy(containers=two),
                   deploy(containers=[APP])))
    add(apply_case("container-added", deploy(), deploy(), deploy(containers=[APP, SIDE])))
    add(apply_case("container-added-live-kept", deploy(), deploy(containers=[APP, SIDE]),
                   deploy(containers=[APP, LOG])))
    add(apply_case("containers-reordered", deploy(containers=two), deploy(containers=two),
                   deploy(containers=[LOG, APP])))
    add(apply_case("container-image-changed", deploy(), deploy(),
                   deploy(containers=[{"name": "app", "image": "app:2"}])))
    env_old = [{**APP, "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}]
    env_new = [{**APP, "env": [{"name": "C", "value": "3"}, {"name": "A", "value": "1"}]}]
    add(apply_case("env-var-removed-and-added", deploy(containers=env_old),
                   deploy(containers=env_old), deploy(containers=env_new)))
    live_env = [{**APP, "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"},
                                {"name": "LIVE", "value": "x"}]}]
    add(apply_case("env-var-live-only-kept", deploy(containers=env_old),
                   deploy(containers=live_env), deploy(containers=env_new)))
    add(apply_case("containers-emptied", deploy(containers=two), deploy(containers=two),
                   deploy(containers=[])))
    # --- retainKeys
    rolling = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}
    add(apply_case("strategy-to-recreate", deploy(strategy=rolling), deploy(strategy=rolling),
                   deploy(strategy={"type": "Recreate"})))
    add(apply_case("strategy-defaulted-live", deploy(), deploy(strategy=rolling),
                   deploy(strategy={"type": "Recreate"})))
    vol_old = with_pod(deploy(), volumes=[{"name": "data", "emptyDir": {}}])
    vol_new = with_pod(deploy(), volumes=[{"name": "data", "configMap": {"name": "cm"}}])
    add(apply_case("volume-source-switched", vol_old, vol_old, vol_new))
    # --- atomic lists
    args_old = deploy(containers=[{**APP, "args": ["--a", "--b"]}])
    args_new = deploy(containers=[{**APP, "args": ["--b"]}])
    add(apply_case("args-atomic-list", args_old, args_old, args_new))
    tol = [{"key": "k", "operator": "Exists"}]
    live_tol = tol + [{"key": "live", "operator": "Exists"}]
    add(apply_case("tolerations-live-added-lost", with_pod(deploy(), tolerations=tol),
                   with_pod(deploy(), tolerations=live_tol),
                   with_pod(deploy(), tolerations=tol + [{"key": "new", "operator": "Exists"}])))
    # --- metadata
    labelled = copy.deepcopy(deploy())
    labelled["metadata"]["labels"] = {"team": "a", "tier": "web"}
    relabelled = copy.deepcopy(deploy())
    relabelled["metadata"]["labels"] = {"team": "b"}
    live_labels = copy.deepcopy(labelled)
    live_labels["metadata"]["labels"]["manual"] = "yes"
    add(apply_case("labels-removed-manual-kept", labelled, live_labels, relabelled))
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}}
    ns_fin = copy.deepcopy(ns)
    ns_fin["metadata"]["finalizers"] = ["b.example/two", "a.example/one"]
    ns_fin2 = copy.deepcopy(ns)
    ns_fin2["metadata"]["finalizers"] = ["c.example/three", "a.example/one"]
    add(apply_case("finalizers-unsorted-unchanged", ns_fin, ns_fin, ns_fin))
    add(apply_case("finalizers-changed", ns_fin, ns_fin, ns_fin2))
    ns_labels = copy.deepcopy(ns)
    ns_labels["metadata"]["labels"] = {"env": "prod"}
    add(apply_case("namespace-cluster-scoped-no-annotation", None, ns, ns_labels))
    # --- no annotation at all (first apply over a created object)
    add(apply_case("no-last-applied", None, deploy(5), deploy(3)))
    # created with `kubectl create -f` (no annotation), then a label left the manifest
    labelled = copy.deepcopy(deploy(3))
    labelled["metadata"]["labels"] = {"team": "a", "tier": "web"}
    unlabelled = copy.deepcopy(labelled)
    del unlabelled["metadata"]["labels"]["tier"]
    add(apply_case("label-removed-never-applied", None, labelled, unlabelled))
    # Endpoints: a kind whose resource name is not the plural guess ("endpointses")
    endpoints = {"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "ext"},
                 "subsets": [{"addresses": [{"ip": "10.0.0.1"}], "ports": [{"port": 80}]}]}
    endpoints2 = copy.deepcopy(endpoints)
    endpoints2["subsets"][0]["ports"][0]["port"] = 8080
    add(apply_case("endpoints-no-annotation", None, endpoints, endpoints2))
    # --- services, config maps, numbers
    svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},
           "spec": {"ports": [{"port": 80, "targetPort": 8080, "name": "http"},
                              {"port": 443, "name": "https"}],
                    "selector": {"app": "web"}}}
    svc2 = copy.deepcopy(svc)
    svc2["spec"]["ports"] = [{"port": 443, "name": "https"}, {"port": 8443, "name": "alt"}]
    svc_live = copy.deepcopy(svc)
    svc_live["metadata"]["namespace"] = "default"
    svc_live["spec"]["clusterIP"] = "10.0.0.7"
    add(apply_case("service-ports-changed-clusterip-kept", svc, svc_live, svc2))
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
          "data": {"html": "<b>&</b>", "keep": "1"}}
    cm2 = copy.deepcopy(cm)
    cm2["data"] = {"html": "<i>", "new": "2"}
    cm_live = copy.deepcopy(cm)
    cm_live["metadata"]["namespace"] = "default"
    add(apply_case("configmap-html-escapes", cm, cm_live, cm2))
    num = deploy(3, minReadySeconds=10)
    num2 = deploy(3.0, minReadySeconds=12, progressDeadlineSeconds=600)
    add(apply_case("numbers-float-integral", num, num, num2))
    # --- conflicts with --overwrite=false
    add(apply_case("overwrite-false-conflict", deploy(3), deploy(5), deploy(4),
                   flags=["--overwrite=false"]))
    add(apply_case("overwrite-false-no-conflict", deploy(3), deploy(5), deploy(3),
                   flags=["--overwrite=false"]))
    # --- unknown field in a built-in kind
    bogus = deploy(3)
    bogus["spec"]["bogusField"] = {"a": 1}
    bogus2 = deploy(3)
    bogus2["spec"]["bogusField"] = {"a": 2}
    add(apply_case("unknown-field-changed", bogus, bogus, bogus2))
    # --- many env vars with repeated names (Go's sort on equal keys)
    many = [{"name": f"V{i % 9}", "value": str(i)} for i in range(20)]
    many2 = [{"name": f"V{i % 7}", "value": str(i * 2)} for i in range(16)]
    add(apply_case("env-repeated-names-long", deploy(containers=[{**APP, "env": many}]),
                   deploy(containers=[{**APP, "env": many}]),
                   deploy(containers=[{**APP, "env": many2}])))
    # --- custom resources: JSON merge patch
    cr = {"apiVersion": "example.com/v1", "kind": "Widget",
          "metadata": {"name": "w", "namespace": "default"},
          "spec": {"size": 1, "tags": ["a"], "nested": {"x": 1, "y": 2}}}
    cr_live = copy.deepcopy(cr)
    cr_live["spec"]["tags"] = ["a", "live"]
    cr_live["spec"]["owner"] = "ops"
    cr_new = copy.deepcopy(cr)
    del cr_new["spec"]["size"]
    cr_new["spec"]["tags"] = ["a", "b"]
    cr_new["spec"]["nested"] = {"x": 1}
    add(apply_case("cr-json-merge-three-way", cr, cr_live, cr_new))
    cr_same = copy.deepcopy(cr_live)
    add(apply_case("cr-live-only-field-kept", cr, cr_same, cr))
    # --- two-way (kubectl edit)
    add(edit_case("edit-image-and-container-removed", deploy(containers=two),
                  deploy(containers=[{"name": "app", "image": "app:2"}])))
    add(edit_case("edit-reorder", deploy(containers=two), deploy(containers=[LOG, APP])))
    add(edit_case("edit-replicas-removed", deploy(3), deploy()))
    add(edit_case("edit-strategy-recreate", deploy(strategy=rolling),
                  deploy(strategy={"type": "Recreate"})))
    add(edit_case("edit-finalizers", ns_fin, ns_fin2))
    add(edit_case("edit-volume-switch", vol_old, vol_new))
    # kubectl edit fills in the namespace of the edited copy: give both one
    add(edit_case("edit-service-ports", svc_live, {**svc2, "metadata": svc_live["metadata"]}))
    add(edit_case("edit-cr-merge", cr, cr_new))
    add(edit_case("edit-env-repeated-names-long", deploy(containers=[{**APP, "env": many}]),
                  deploy(containers=[{**APP, "env": many2}])))
    return cases


CASES = _cases()
