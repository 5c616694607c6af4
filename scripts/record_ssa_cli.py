"""Record what the API server's field manager answers to the scenarios of
``cfgpatch kube apply --server-side`` and ``cfgpatch kube update``.

Each scenario is a chain of operations (apply, update) of several managers on one
object; ``../shared/bin/ssa-oracle -batch`` (Kubernetes 1.32's field manager) answers
each.  ``tests/test_cli_kube_apply_server_side.py`` replays every operation through the
command line, the live object being the oracle's answer to the operation before.

    .venv/bin/python scripts/record_ssa_cli.py   # writes tests/data/kube/ssa/cli_cases.json
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_ssa import DATA, run_oracle  # noqa: E402

OUT = DATA / "cli_cases.json"


def deployment(replicas: int | None = 3, image: str = "nginx:1.27", ports=(80,),
               env: dict | None = None, labels: dict | None = None) -> dict:
    container: dict = {"name": "app", "image": image}
    if ports:
        container["ports"] = [{"containerPort": p, "protocol": "TCP"} for p in ports]
    if env:
        container["env"] = [{"name": k, "value": v} for k, v in env.items()]
    spec: dict = {"selector": {"matchLabels": {"app": "web"}},
                  "template": {"metadata": {"labels": {"app": "web"}},
                               "spec": {"containers": [container]}}}
    if replicas is not None:
        spec["replicas"] = replicas
    meta: dict = {"name": "web", "namespace": "default"}
    if labels:
        meta["labels"] = labels
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": spec}


def apply(manager: str, obj: dict, force: bool = False) -> dict:
    return {"op": "apply", "manager": manager, "force": force, "object": obj}


def update(manager: str, obj: dict) -> dict:
    return {"op": "update", "manager": manager, "object": obj}


def widget(spec: dict) -> dict:
    return {"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "default"}, "spec": spec}


def scenarios() -> list[dict]:
    hpa = deployment(replicas=7)
    cases = [
        ("create", "builtin", [apply("kubectl", deployment())]),
        ("hpa-conflict", "builtin",
         [apply("helm", deployment()), update("kube-controller-manager", hpa),
          apply("helm", deployment(image="nginx:1.28"))]),
        ("hpa-force", "builtin",
         [apply("helm", deployment()), update("kube-controller-manager", hpa),
          apply("helm", deployment(image="nginx:1.28"), force=True)]),
        ("hpa-drop-replicas", "builtin",
         [apply("helm", deployment()), update("kube-controller-manager", hpa),
          apply("helm", deployment(replicas=None, image="nginx:1.28"))]),
        ("removes-port", "builtin",
         [apply("kubectl", deployment(ports=(80, 443))), apply("kubectl", deployment())]),
        ("shared-value-stays", "builtin",
         [apply("a", deployment(labels={"team": "x"})),
          apply("b", deployment(labels={"team": "x"})),
          apply("a", deployment())]),
        ("two-conflicts", "builtin",
         [apply("a", deployment(labels={"team": "x"}, env={"LOG": "info"})),
          apply("b", deployment(labels={"team": "y"}, env={"LOG": "debug"}))]),
        ("duplicate-key", "builtin",
         [apply("kubectl", _dup_env(deployment(env={"A": "1"})))]),
        ("update-then-apply", "builtin",
         [update("kubectl-client-side-apply", deployment(env={"OLD": "1"})),
          apply("kubectl", deployment())]),
        ("widget-map-list", "crd:widgets.yaml",
         [apply("flux", widget({"tags": ["a", "b"], "replicas": 1})),
          apply("other", widget({"tags": ["c"]})),
          apply("flux", widget({"tags": ["a"], "replicas": 2}))]),
        ("widget-conflict", "crd:widgets.yaml",
         [apply("flux", widget({"mode": "fast"})), update("ops", widget({"mode": "slow"})),
          apply("flux", widget({"mode": "fast"}))]),
        ("service-ports", "builtin",
         [apply("helm", service([(80, "TCP"), (53, "UDP")])),
          apply("ops", service([(53, "UDP"), (53, "TCP")])),
          apply("helm", service([(80, "TCP")]))]),
        ("service-port-conflict", "builtin",
         [apply("helm", service([(80, "TCP")])),
          apply("ops", service([(80, "TCP")], target=8081))]),
        ("configmap-data", "builtin",
         [apply("kubectl", configmap({"a": "1", "b": "2"})),
          update("kubectl-edit", configmap({"a": "1", "b": "3", "c": "4"})),
          apply("kubectl", configmap({"a": "1"})),
          apply("kubectl", configmap({"a": "1", "b": "9"}), force=True)]),
        ("statefulset-scale", "builtin",
         [apply("flux", statefulset(2)), update("kube-controller-manager", statefulset(5)),
          apply("kustomize-controller", statefulset(2), force=True)]),
        ("widget-ports-two-keys", "crd:widgets.yaml",
         [apply("a", widget({"ports": [{"port": 80, "protocol": "TCP", "name": "http"},
                                       {"port": 80, "protocol": "UDP"}]})),
          apply("b", widget({"ports": [{"port": 80, "protocol": "UDP", "name": "dns"}]})),
          apply("a", widget({"ports": [{"port": 80, "protocol": "TCP", "name": "http"}]}))]),
        ("widget-pairs-and-maps", "crd:widgets.yaml",
         [apply("a", widget({"pairs": [{"a": "1", "b": "2", "c": "x"}],
                             "atomicMap": {"k": "v"}, "granularMap": {"k": "v"}})),
          apply("b", widget({"atomicMap": {"k": "v", "j": "w"}, "granularMap": {"j": "w"}}),
                force=True),
          apply("a", widget({"pairs": [{"a": "1", "b": "2", "c": "y"}]}))]),
        ("widget-struct", "crd:widgets.yaml",
         [apply("a", widget({"struct": {"name": "n", "inner": {"a": "1"}},
                             "atomicStruct": {"first": "f"}})),
          apply("b", widget({"struct": {"inner": {"b": "2"}}, "atomicStruct": {"first": "f"}})),
          apply("a", widget({"atomicStruct": {"first": "g"}}))]),
        ("missing-key-defaulted", "builtin",
         [apply("kubectl", _env_without_name(deployment(env={"A": "1"})))]),
    ]
    return [{"id": name, "schema": schema, "live": None, "ops": ops}
            for name, schema, ops in cases]


def service(ports: list[tuple[int, str]], target: int | None = None) -> dict:
    items = []
    for port, protocol in ports:
        item: dict = {"port": port, "protocol": protocol, "name": f"{protocol.lower()}{port}"}
        if target is not None:
            item["targetPort"] = target
        items.append(item)
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "web", "namespace": "default"},
            "spec": {"selector": {"app": "web"}, "ports": items}}


def configmap(data: dict) -> dict:
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "settings", "namespace": "default"}, "data": data}


def statefulset(replicas: int) -> dict:
    return {"apiVersion": "apps/v1", "kind": "StatefulSet",
            "metadata": {"name": "db", "namespace": "default"},
            "spec": {"replicas": replicas, "serviceName": "db",
                     "selector": {"matchLabels": {"app": "db"}},
                     "template": {"metadata": {"labels": {"app": "db"}},
                                  "spec": {"containers": [{"name": "db", "image": "pg:16"}]}}}}


def _env_without_name(obj: dict) -> dict:
    out = copy.deepcopy(obj)
    out["spec"]["template"]["spec"]["containers"][0]["env"].append({"value": "2"})
    return out


def _dup_env(obj: dict) -> dict:
    out = copy.deepcopy(obj)
    env = out["spec"]["template"]["spec"]["containers"][0]["env"]
    env.append(dict(env[0], value="2"))
    return out


def main() -> None:
    cases = scenarios()
    results = run_oracle(cases)
    records = [dict(c, results=results[c["id"]]) for c in cases]
    OUT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} scenarios, {sum(len(c['ops']) for c in cases)} operations -> {OUT}")


if __name__ == "__main__":
    main()
