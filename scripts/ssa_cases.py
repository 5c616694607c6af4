"""Generators of server-side apply cases (for ``record_ssa.py`` and the live test).

Every case is what ``ssa-oracle -batch`` reads: ``{"id", "schema", "live", "ops"}``.
:func:`generate` is deterministic for a seed: families of hand-shaped scenarios (create,
re-apply, removal of fields and list items, shared ownership, conflicts with controllers,
force, the client-side-apply upgrade, duplicate keys, missing keys, unknown fields,
preserve-unknown-fields, capped update managers) over built-in kinds and the CRDs of
``tests/data/kube/ssa/crds``, then random sequences of applies and updates by several
managers over random variations of objects.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

MANAGERS = ["helm", "flux", "argocd", "kubectl", "kube-controller-manager", "hpa-controller",
            "kubectl-edit", "kubectl-client-side-apply", "operator", "team-b"]
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
TIMES = ["2024-03-01T10:00:00Z", "2024-03-01T10:00:00Z", "2023-12-24T08:30:00Z",
         "2025-06-30T23:59:59Z", "2022-01-01T00:00:00Z"]

Obj = dict


def meta(rng: random.Random, name: str, ns: bool = True) -> dict:
    m: dict = {"name": name}
    if ns:
        m["namespace"] = rng.choice(["default", "prod", "team-a"])
    if rng.random() < 0.7:
        m["labels"] = {k: rng.choice(["web", "api", "v1", "v2", "blue"])
                       for k in rng.sample(["app", "tier", "version", "team", "env"],
                                           rng.randint(1, 3))}
    if rng.random() < 0.3:
        m["annotations"] = {k: rng.choice(["a", "b", "true", "x/y"])
                            for k in rng.sample(["owner", "note", "example.com/flag"],
                                                rng.randint(1, 2))}
    return m


def container(rng: random.Random, name: str) -> dict:
    c: dict = {"name": name, "image": f"{name}:{rng.randint(1, 4)}"}
    if rng.random() < 0.6:
        ports = []
        for p in rng.sample([80, 443, 8080, 9090, 53], rng.randint(1, 2)):
            port: dict = {"containerPort": p}
            r = rng.random()
            if r < 0.4:
                port["protocol"] = "TCP"
            elif r < 0.5:
                port["protocol"] = "UDP"
            if rng.random() < 0.4:
                port["name"] = f"p{p}"
            ports.append(port)
        c["ports"] = ports
    if rng.random() < 0.5:
        c["env"] = [{"name": n, "value": rng.choice(["1", "on", "debug", ""])}
                    for n in rng.sample(["A", "B", "LOG", "MODE", "URL"], rng.randint(1, 3))]
    if rng.random() < 0.4:
        c["resources"] = {"limits": {"cpu": rng.choice(["100m", "1", "250m"]),
                                     "memory": rng.choice(["64Mi", "1Gi"])}}
        if rng.random() < 0.5:
            c["resources"]["requests"] = {"cpu": "50m"}
    if rng.random() < 0.3:
        c["args"] = rng.sample(["--a", "--b=1", "-v", "run"], rng.randint(1, 3))
    if rng.random() < 0.3:
        c["volumeMounts"] = [{"name": "data", "mountPath": m}
                             for m in rng.sample(["/data", "/cache", "/tmp"], rng.randint(1, 2))]
    if rng.random() < 0.3:
        c["imagePullPolicy"] = rng.choice(["Always", "IfNotPresent"])
    return c


def pod_spec(rng: random.Random) -> dict:
    names = rng.sample(["app", "sidecar", "log", "proxy"], rng.randint(1, 3))
    spec: dict = {"containers": [container(rng, n) for n in names]}
    if rng.random() < 0.3:
        spec["volumes"] = [{"name": "data", "emptyDir": {}}]
    if rng.random() < 0.2:
        spec["tolerations"] = [{"key": "k", "operator": "Exists"}]
    if rng.random() < 0.2:
        spec["nodeSelector"] = {"disk": rng.choice(["ssd", "hdd"])}
    if rng.random() < 0.2:
        spec["initContainers"] = [container(rng, "init")]
    return spec


def deployment(rng: random.Random) -> Obj:
    labels = {"app": "web"}
    spec: dict = {"selector": {"matchLabels": labels},
                  "template": {"metadata": {"labels": dict(labels)}, "spec": pod_spec(rng)}}
    if rng.random() < 0.8:
        spec["replicas"] = rng.randint(1, 5)
    if rng.random() < 0.3:
        spec["strategy"] = {"type": "RollingUpdate",
                            "rollingUpdate": {"maxSurge": rng.choice([1, "25%"]),
                                              "maxUnavailable": 0}}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(rng, "web"),
            "spec": spec}


def statefulset(rng: random.Random) -> Obj:
    d = deployment(rng)
    d["kind"] = "StatefulSet"
    d["spec"].pop("strategy", None)
    d["spec"]["serviceName"] = "web"
    if rng.random() < 0.5:
        d["spec"]["volumeClaimTemplates"] = [{"metadata": {"name": "data"}, "spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]
    return d


def daemonset(rng: random.Random) -> Obj:
    d = deployment(rng)
    d["kind"] = "DaemonSet"
    d["spec"].pop("replicas", None)
    d["spec"].pop("strategy", None)
    return d


def service(rng: random.Random) -> Obj:
    ports = []
    for p in rng.sample([80, 443, 53, 8080], rng.randint(1, 3)):
        port: dict = {"port": p}
        r = rng.random()
        if r < 0.4:
            port["protocol"] = "TCP"
        elif r < 0.6:
            port["protocol"] = "UDP"
        if rng.random() < 0.6:
            port["targetPort"] = rng.choice([p, "http", 9000])
        if rng.random() < 0.5:
            port["name"] = f"p{p}-{port.get('protocol', 'tcp').lower()}"
        ports.append(port)
    spec: dict = {"ports": ports, "selector": {"app": rng.choice(["web", "api"])}}
    if rng.random() < 0.4:
        spec["type"] = rng.choice(["ClusterIP", "NodePort"])
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(rng, "web"), "spec": spec}


def pod(rng: random.Random) -> Obj:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(rng, "p"), "spec": pod_spec(rng)}


def configmap(rng: random.Random) -> Obj:
    data = {k: rng.choice(["1", "yes", "a=b", ""]) for k in
            rng.sample(["a", "b", "c", "config.yaml", "LOG_LEVEL"], rng.randint(1, 4))}
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(rng, "cfg"), "data": data}


def ingress(rng: random.Random) -> Obj:
    rules = [{"host": h, "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {
        "service": {"name": "web", "port": {"number": 80}}}}]}}
        for h in rng.sample(["a.example.com", "b.example.com", "c.example.com"], rng.randint(1, 2))]
    spec: dict = {"rules": rules}
    if rng.random() < 0.4:
        spec["ingressClassName"] = "nginx"
    if rng.random() < 0.3:
        spec["tls"] = [{"hosts": [rules[0]["host"]], "secretName": "tls"}]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(rng, "web"),
            "spec": spec}


def role(rng: random.Random) -> Obj:
    rules = [{"apiGroups": [""], "resources": rng.sample(["pods", "services", "configmaps"],
                                                         rng.randint(1, 2)),
              "verbs": rng.sample(["get", "list", "watch"], rng.randint(1, 3))}]
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
            "metadata": meta(rng, "reader"), "rules": rules}


def clusterrolebinding(rng: random.Random) -> Obj:
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": meta(rng, "bind", ns=False),
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                        "name": "view"},
            "subjects": [{"kind": "ServiceAccount", "name": n, "namespace": "default"}
                         for n in rng.sample(["a", "b", "c"], rng.randint(1, 2))]}


def hpa(rng: random.Random) -> Obj:
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": meta(rng, "web"),
            "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment",
                                        "name": "web"},
                     "minReplicas": 1, "maxReplicas": rng.randint(3, 10),
                     "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {
                         "type": "Utilization", "averageUtilization": rng.choice([50, 80])}}}]}}


def widget(rng: random.Random) -> Obj:
    spec: dict = {}
    pick = rng.sample(["replicas", "size", "enabled", "mode", "port", "when", "atomicList",
                       "explicitAtomic", "tags", "numbers", "listOfLists", "listOfMaps", "ports",
                       "pairs", "mapOfLists", "mapOfMaps", "atomicMap", "granularMap",
                       "atomicStruct", "struct", "free", "template"], rng.randint(2, 7))
    for k in pick:
        spec[k] = widget_value(rng, k)
    return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta(rng, "w"),
            "spec": spec}


def widget_value(rng: random.Random, k: str) -> Any:
    s = rng.sample
    if k == "replicas":
        return rng.randint(0, 9)
    if k == "size":
        return rng.choice([1.5, 2, 0.25])
    if k == "enabled":
        return rng.random() < 0.5
    if k == "mode":
        return rng.choice(["fast", "safe"])
    if k == "port":
        return rng.choice([80, "http"])
    if k == "when":
        return "2024-01-01T00:00:00Z"
    if k == "atomicList":
        return s(["a", "b", "c", "d"], rng.randint(1, 3))
    if k == "explicitAtomic":
        return [{"name": n, "value": "v"} for n in s(["x", "y"], rng.randint(1, 2))]
    if k == "tags":
        return s(["red", "green", "blue", "x"], rng.randint(1, 3))
    if k == "numbers":
        return s([1, 2, 3, 5, 8], rng.randint(1, 3))
    if k == "listOfLists":
        return [{"name": n, "value": s(["c", "d", "e"], rng.randint(0, 2))}
                for n in s(["a", "b", "c"], rng.randint(1, 2))]
    if k == "listOfMaps":
        return [{"name": n, "value": {x: "1" for x in s(["p", "q", "r"], rng.randint(1, 2))}}
                for n in s(["a", "b"], rng.randint(1, 2))]
    if k == "ports":
        out = []
        for p in s([80, 443, 53], rng.randint(1, 2)):
            item: dict = {"port": p}
            if rng.random() < 0.5:
                item["protocol"] = rng.choice(["TCP", "UDP"])
            if rng.random() < 0.5:
                item["name"] = f"n{p}"
            out.append(item)
        return out
    if k == "pairs":
        return [{"a": a, "b": b, "c": "v"} for a, b in s([("1", "x"), ("1", "y"), ("2", "x")],
                                                          rng.randint(1, 2))]
    if k == "mapOfLists":
        return {m: s(["a", "b", "c"], rng.randint(1, 2)) for m in s(["m", "n"], rng.randint(1, 2))}
    if k == "mapOfMaps":
        return {m: {x: "v" for x in s(["a", "b"], rng.randint(1, 2))}
                for m in s(["m", "n"], rng.randint(1, 2))}
    if k in ("atomicMap", "granularMap"):
        return {x: rng.choice(["1", "2"]) for x in s(["a", "b", "c"], rng.randint(1, 3))}
    if k == "atomicStruct":
        return {x: "v" for x in s(["first", "second"], rng.randint(1, 2))}
    if k == "struct":
        out2: dict = {"name": "n", "value": rng.randint(1, 3)}
        if rng.random() < 0.5:
            out2["inner"] = {"a": "1", "b": rng.choice(["2", "3"])}
        return out2
    if k == "free":
        return {"any": {"deep": [1, {"x": rng.choice(["y", "z"])}]}, "flag": rng.random() < 0.5}
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "inner"},
            "data": {"k": rng.choice(["1", "2"])}}


def gadget(rng: random.Random) -> Obj:
    routes = []
    for h in rng.sample(["a.io", "b.io", "c.io"], rng.randint(1, 2)):
        r: dict = {"host": h, "paths": [{"path": p, "backend": rng.choice(["x", "y"])}
                                        for p in rng.sample(["/", "/api", "/v2"],
                                                            rng.randint(1, 2))]}
        if rng.random() < 0.4:
            r["headers"] = {"X-A": rng.choice(["1", "2"])}
        routes.append(r)
    spec: dict = {"routes": routes}
    if rng.random() < 0.5:
        spec["selector"] = {"matchLabels": {"app": rng.choice(["a", "b"])}}
    if rng.random() < 0.5:
        spec["config"] = {"level": rng.randint(1, 3), "extra": {"k": [1, 2]}}
    if rng.random() < 0.3:
        spec["anything"] = rng.choice([1, "s", {"m": {"n": 1}}, [1, 2]])
    return {"apiVersion": "tools.example.org/v1", "kind": "Gadget", "metadata": meta(rng, "g"),
            "spec": spec}


def deduced_obj(rng: random.Random) -> Obj:
    o = widget(rng)
    o["apiVersion"] = "free.example.com/v1"
    o["kind"] = "Thing"
    return o


def gizmo(rng: random.Random) -> Obj:
    spec: dict = {}
    for k in rng.sample(["replicas", "port", "memory", "raw", "selector", "parts", "ports",
                         "args", "tags", "retained", "env", "extra"], rng.randint(2, 6)):
        spec[k] = {
            "replicas": lambda: rng.randint(1, 5), "port": lambda: rng.choice([80, "http"]),
            "memory": lambda: rng.choice(["1Gi", 512]),
            "raw": lambda: rng.choice([{"a": [1]}, {"b": {"c": "d"}}]),
            "selector": lambda: {"matchLabels": {"app": rng.choice(["a", "b"])}},
            "parts": lambda: [{"name": n, "size": rng.choice([1, 2.5]), "opts": {"o": "1"}}
                              for n in rng.sample(["x", "y", "z"], rng.randint(1, 2))],
            "ports": lambda: [{"port": p} for p in rng.sample([80, 443], rng.randint(1, 2))],
            "args": lambda: rng.sample(["-a", "-b", "-c"], 2),
            "tags": lambda: rng.sample(["t1", "t2", "t3"], 2),
            "retained": lambda: [{"name": "r", "size": rng.randint(1, 3)}],
            "env": lambda: {"A": rng.choice(["1", "2"])},
            "extra": lambda: {"q": {"r": rng.randint(1, 3)}, "l": [1, 2]},
        }[k]()
    return {"apiVersion": "gizmos.example.io/v1", "kind": "Gizmo", "metadata": meta(rng, "g"),
            "spec": spec}


KINDS: dict[str, tuple[Callable[[random.Random], Obj], str]] = {
    "deployment": (deployment, "builtin"), "statefulset": (statefulset, "builtin"),
    "daemonset": (daemonset, "builtin"), "service": (service, "builtin"),
    "pod": (pod, "builtin"), "configmap": (configmap, "builtin"), "ingress": (ingress, "builtin"),
    "role": (role, "builtin"), "crb": (clusterrolebinding, "builtin"), "hpa": (hpa, "builtin"),
    "widget": (widget, "crd:widgets.yaml"), "gadget": (gadget, "crd:gadgets.yaml"),
    "thing": (deduced_obj, "deduced"), "gizmo": (gizmo, "openapi:openapi-gizmos.json"),
}


# ----------------------------------------------------------------- mutations


def _paths(v: Any, prefix: tuple = ()) -> list[tuple]:
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            out.append(prefix + (k,))
            out.extend(_paths(x, prefix + (k,)))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out.append(prefix + (i,))
            out.extend(_paths(x, prefix + (i,)))
    return out


_FIXED = {("apiVersion",), ("kind",), ("metadata",), ("metadata", "name"),
          ("metadata", "namespace")}


def _get(v: Any, path: tuple) -> Any:
    for p in path:
        v = v[p]
    return v


def _new_scalar(rng: random.Random, old: Any) -> Any:
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return old + rng.randint(1, 3)
    if isinstance(old, float):
        return old * 2
    if isinstance(old, str):
        return old + rng.choice(["-x", "2", "b"]) if old else "z"
    return "v"


def mutate(obj: Obj, rng: random.Random) -> Obj:
    """A random variation: a changed, removed, added or reordered field."""
    o = copy.deepcopy(obj)
    paths = [p for p in _paths(o) if p not in _FIXED]
    if not paths:
        return o
    p = rng.choice(paths)
    parent = _get(o, p[:-1])
    cur = parent[p[-1]]
    r = rng.random()
    if r < 0.35 and not isinstance(cur, (dict, list)):
        parent[p[-1]] = _new_scalar(rng, cur)
    elif r < 0.65:
        if isinstance(parent, dict) or len(parent) > 1 or rng.random() < 0.3:
            del parent[p[-1]]
    elif r < 0.8:
        if isinstance(cur, list) and len(cur) > 1:
            cur.reverse()
        elif isinstance(cur, dict):
            cur[rng.choice(["extra", "zz", "new"])] = rng.choice(["1", "v"])
        elif isinstance(parent, list) and isinstance(cur, dict):
            parent.append(copy.deepcopy(cur))
    else:
        labels = o.setdefault("metadata", {}).setdefault("labels", {})
        labels[rng.choice(["added", "extra", "team"])] = rng.choice(["x", "y"])
    return o


def merge_patch_for(obj: Obj, rng: random.Random) -> dict:
    """A JSON merge patch a controller might send: a change near the object's fields."""
    paths = [p for p in _paths(obj) if p not in _FIXED and all(isinstance(x, str) for x in p)]
    r = rng.random()
    if not paths or r < 0.15:
        return {"metadata": {"annotations": {rng.choice(["ctl", "seen", "owner"]): "c"}}}
    p = rng.choice(paths)
    cur = _get(obj, p)
    if r < 0.3:
        value: Any = None
    elif isinstance(cur, list):
        value = list(reversed(cur)) if rng.random() < 0.5 else cur[:1]
    elif isinstance(cur, dict):
        value = {rng.choice(["ctl", "zz"]): "c"}
    else:
        value = _new_scalar(rng, cur)
    patch: Any = value
    for k in reversed(p):
        patch = {k: patch}
    return patch


def subset(obj: Obj, rng: random.Random) -> Obj:
    """The object with some of its fields dropped (another applier's share)."""
    o = copy.deepcopy(obj)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(o) if p not in _FIXED and len(p) >= 2]
        if not paths:
            break
        p = rng.choice(paths)
        parent = _get(o, p[:-1])
        if isinstance(parent, dict) or len(parent) > 1:
            del parent[p[-1]]
    return o


def apply(manager: str, obj: Obj, force: bool = False) -> dict:
    op: dict = {"op": "apply", "manager": manager, "object": obj}
    if force:
        op["force"] = True
    return op


def update(manager: str, obj: Obj | None = None, patch: dict | None = None) -> dict:
    if obj is not None:
        return {"op": "update", "manager": manager, "object": obj}
    return {"op": "update", "manager": manager, "patchLive": patch}


def existing(obj: Obj, rng: random.Random) -> Obj:
    """The object as a server holds it when nothing tracked its fields (a uid, no managers)."""
    o = copy.deepcopy(obj)
    o["metadata"]["uid"] = f"0000-{rng.randint(0, 9999):04d}"
    o["metadata"]["resourceVersion"] = str(rng.randint(1, 999))
    o["metadata"]["creationTimestamp"] = "2024-01-01T00:00:00Z"
    return o


def with_last_applied(obj: Obj) -> Obj:
    o = copy.deepcopy(obj)
    text = json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n"
    o["metadata"].setdefault("annotations", {})[LAST_APPLIED] = text
    return o


# ----------------------------------------------------------------- scenario families


def _kind(rng: random.Random, kinds: list[str] | None = None) -> tuple[str, Obj, str]:
    name = rng.choice(kinds or list(KINDS))
    make, schema = KINDS[name]
    return name, make(rng), schema


def fam_create(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng)
    return schema, None, [apply(rng.choice(MANAGERS), o)]


def fam_reapply(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng)
    m = rng.choice(MANAGERS)
    return schema, None, [apply(m, o), apply(m, copy.deepcopy(o))]


def fam_evolve(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng)
    m = rng.choice(MANAGERS)
    ops = [apply(m, o)]
    for _ in range(rng.randint(1, 3)):
        o = mutate(o, rng)
        ops.append(apply(m, o))
    return schema, None, ops


def fam_shared(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng)
    a, b = rng.sample(MANAGERS, 2)
    other = subset(o, rng)
    if rng.random() < 0.5:
        other = mutate(other, rng)
    ops = [apply(a, o), apply(b, other, force=rng.random() < 0.3)]
    r = rng.random()
    if r < 0.4:
        ops.append(apply(a, subset(o, rng)))
    elif r < 0.7:
        ops.append(apply(b, subset(other, rng)))
    else:
        ops.append(apply(a, mutate(o, rng), force=rng.random() < 0.5))
    return schema, None, ops


def fam_controller(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng)
    a = rng.choice(["helm", "flux", "kubectl", "argocd"])
    c = rng.choice(["kube-controller-manager", "hpa-controller", "kubectl-edit", "operator"])
    ops = [apply(a, o), update(c, patch=merge_patch_for(o, rng))]
    r = rng.random()
    if r < 0.35:
        ops.append(apply(a, copy.deepcopy(o)))
        ops.append(apply(a, copy.deepcopy(o), force=True))
    elif r < 0.6:
        ops.append(apply(a, subset(o, rng)))
    elif r < 0.8:
        ops.append(apply(a, mutate(o, rng), force=rng.random() < 0.4))
    else:
        ops.append(update(c, patch=merge_patch_for(o, rng)))
        ops.append(apply(rng.choice(MANAGERS), mutate(o, rng)))
    return schema, None, ops


def fam_hpa(rng: random.Random) -> tuple[str, Any, list]:
    o = deployment(rng)
    o["spec"]["replicas"] = 2
    helm = rng.choice(["helm", "flux", "kubectl"])
    scale = {"spec": {"replicas": rng.randint(3, 9)}}
    ops = [apply(helm, o), update("hpa-controller", patch=scale)]
    o2 = copy.deepcopy(o)
    r = rng.random()
    if r < 0.3:
        o2["spec"]["replicas"] = 3
        ops += [apply(helm, o2), apply(helm, o2, force=True)]
    elif r < 0.6:
        del o2["spec"]["replicas"]
        ops += [apply(helm, o2), update("hpa-controller", patch={"spec": {"replicas": 1}})]
    else:
        o2["spec"]["template"]["spec"]["containers"][0]["image"] = "new:9"
        ops += [apply(helm, o2), apply("hpa-controller", {"apiVersion": "apps/v1",
                                                          "kind": "Deployment",
                                                          "metadata": o["metadata"],
                                                          "spec": {"replicas": 7}})]
    return "builtin", None, ops


def fam_csa_upgrade(rng: random.Random) -> tuple[str, Any, list]:
    name, o, schema = _kind(rng, ["deployment", "service", "configmap", "widget", "role"])
    ops = [update("kubectl-client-side-apply", with_last_applied(o))]
    if rng.random() < 0.5:
        ops.append(update(rng.choice(["kube-controller-manager", "operator"]),
                          patch=merge_patch_for(o, rng)))
    new = mutate(o, rng) if rng.random() < 0.8 else copy.deepcopy(o)
    applier = "kubectl" if rng.random() < 0.75 else rng.choice(["helm", "flux"])
    if rng.random() < 0.3:
        new = with_last_applied(new)
    ops.append(apply(applier, new))
    if rng.random() < 0.5:
        ops.append(apply(applier, subset(new, rng)))
    return schema, None, ops


def fam_existing(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng)
    live = existing(o, rng)
    if rng.random() < 0.3:
        live = with_last_applied(live)
    r = rng.random()
    m = rng.choice(MANAGERS)
    if r < 0.5:
        ops = [apply(m, mutate(o, rng))]
    elif r < 0.75:
        ops = [update(m, patch=merge_patch_for(o, rng)), apply(m, o)]
    else:
        ops = [apply(m, o), update(rng.choice(MANAGERS), patch=merge_patch_for(o, rng)),
               apply(m, subset(o, rng))]
    return schema, live, ops


def fam_times(rng: random.Random) -> tuple[str, Any, list]:
    o = configmap(rng)
    keys = list(o["data"])
    entries = []
    for i, m in enumerate(rng.sample(MANAGERS, rng.randint(2, 4))):
        k = keys[i % len(keys)]
        e: dict = {"manager": m, "operation": rng.choice(["Apply", "Update"]),
                   "apiVersion": "v1", "fieldsType": "FieldsV1",
                   "fieldsV1": {"f:data": {f"f:{k}": {}}}}
        if rng.random() < 0.8:
            e["time"] = rng.choice(TIMES)
        entries.append(e)
    live = copy.deepcopy(o)
    live["metadata"]["managedFields"] = entries
    new = mutate(o, rng)
    ops = [apply(rng.choice(MANAGERS), new, force=rng.random() < 0.5)]
    if rng.random() < 0.5:
        ops.append(update(rng.choice(MANAGERS), patch={"data": {"z": "1"}}))
    return "builtin", live, ops


def fam_cap(rng: random.Random) -> tuple[str, Any, list]:
    o = configmap(rng)
    ops = [apply("helm", o)]
    for i in range(rng.randint(10, 13)):
        ops.append(update(f"ctl-{i:02d}", patch={"metadata": {"labels": {f"l{i}": "x"}}}))
    return "builtin", None, ops


def fam_duplicates(rng: random.Random) -> tuple[str, Any, list]:
    o = deployment(rng)
    c = o["spec"]["template"]["spec"]["containers"]
    c[0]["env"] = [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]
    r = rng.random()
    m = rng.choice(MANAGERS)
    if r < 0.3:
        return "builtin", None, [apply(m, o)]
    if r < 0.6:
        fixed = copy.deepcopy(o)
        fixed["spec"]["template"]["spec"]["containers"][0]["env"] = [{"name": "A", "value": "3"}]
        return "builtin", None, [update("kubectl-client-side-apply", o), apply(m, fixed)]
    live = existing(o, rng)
    other = copy.deepcopy(o)
    other["spec"]["template"]["spec"]["containers"][0].pop("env")
    return "builtin", live, [apply(m, other), update("ctl", patch={"spec": {"replicas": 9}})]


def fam_invalid(rng: random.Random) -> tuple[str, Any, list]:
    choice = rng.randint(0, 9)
    m = rng.choice(MANAGERS)
    if choice == 0:
        o = deployment(rng)
        o["spec"]["replicas"] = rng.choice(["3", True, [1]])
        return "builtin", None, [apply(m, o)]
    if choice == 1:
        o = widget(rng)
        o["spec"]["unknownField"] = 1
        return "crd:widgets.yaml", None, [apply(m, o)]
    if choice == 2:
        o = widget(rng)
        o["spec"]["pairs"] = [{"a": "1", "c": "v"}]
        return "crd:widgets.yaml", None, [apply(m, o)]
    if choice == 3:
        o = configmap(rng)
        o["metadata"]["managedFields"] = []
        return "builtin", None, [apply(m, o)]
    if choice == 4:
        o = configmap(rng)
        s = service(rng)
        return "builtin", None, [apply(m, o), apply(m, s)]
    if choice == 5:
        o = widget(rng)
        o["spec"]["tags"] = ["a", {"x": 1}]
        return "crd:widgets.yaml", None, [apply(m, o)]
    if choice == 6:
        o = configmap(rng)
        live = copy.deepcopy(o)
        bad = rng.choice([{"manager": "x", "operation": "Patch", "apiVersion": "v1",
                           "fieldsType": "FieldsV1", "fieldsV1": {}},
                          {"manager": "x", "operation": "Update", "fieldsType": "FieldsV1"},
                          {"manager": "x", "operation": "Apply", "apiVersion": "v1"},
                          {"manager": "x", "operation": "Apply", "apiVersion": "v1",
                           "fieldsType": "FieldsV2"}])
        live["metadata"]["managedFields"] = [bad]
        return "builtin", live, [apply(m, mutate(o, rng)), update(m, patch={"data": {"q": "1"}})]
    if choice == 7:
        o = service(rng)
        o["spec"]["ports"].append(copy.deepcopy(o["spec"]["ports"][0]))
        return "builtin", None, [apply(m, o)]
    if choice == 8:
        o = pod(rng)
        o["spec"]["containers"][0]["ports"] = [{"containerPort": 80}, {"containerPort": 80,
                                                                       "protocol": "TCP"}]
        return "builtin", None, [apply(m, o)]
    o = gadget(rng)
    o["spec"]["routes"].append({"paths": []})
    return "crd:gadgets.yaml", None, [apply(m, o)]


def fam_empties(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng, ["deployment", "configmap", "widget", "service", "thing"])
    m = rng.choice(MANAGERS)
    o2 = copy.deepcopy(o)
    target = rng.choice(["labels", "annotations"])
    o2["metadata"][target] = rng.choice([{}, None])
    if "spec" in o2 and rng.random() < 0.5:
        k = rng.choice(list(o2["spec"]))
        o2["spec"][k] = rng.choice([None, {}, []])
    return schema, None, [apply(m, o), apply(m, o2), update("ctl", patch={"metadata": {
        "labels": {"c": "1"}}}), apply(m, o)]


def fam_lists(rng: random.Random) -> tuple[str, Any, list]:
    o = widget(rng)
    o["spec"]["tags"] = ["a", "b", "c"]
    o["spec"]["listOfLists"] = [{"name": "a"}, {"name": "b", "value": ["c"]}]
    o["spec"]["ports"] = [{"port": 80}, {"port": 53, "protocol": "UDP"}]
    a, b = rng.sample(MANAGERS, 2)
    o2 = copy.deepcopy(o)
    o2["spec"]["tags"] = rng.choice([["c", "a"], ["d", "a"], ["b"]])
    o2["spec"]["listOfLists"] = rng.choice([[{"name": "b", "value": ["d"]}],
                                            [{"name": "c"}, {"name": "a"}]])
    o2["spec"]["ports"] = rng.choice([[{"port": 80, "protocol": "TCP", "name": "h"}],
                                      [{"port": 53, "protocol": "UDP"}, {"port": 80}]])
    o3 = copy.deepcopy(o)
    o3["spec"]["listOfLists"] = [{"name": "a"}]
    o3["spec"]["tags"] = ["a"]
    ops = [apply(a, o), apply(b, o2, force=rng.random() < 0.5),
           update("ctl", patch={"spec": {"tags": ["c", "b", "a", "e"]}}), apply(a, o3)]
    return "crd:widgets.yaml", None, ops


def fam_random(rng: random.Random) -> tuple[str, Any, list]:
    _, o, schema = _kind(rng)
    configs: dict[str, Obj] = {}
    ops = []
    for _ in range(rng.randint(2, 6)):
        m = rng.choice(MANAGERS[:6])
        if rng.random() < 0.65:
            base = configs.get(m, o)
            cfg = mutate(base, rng) if rng.random() < 0.6 else subset(base, rng)
            configs[m] = cfg
            ops.append(apply(m, cfg, force=rng.random() < 0.25))
        else:
            ops.append(update(m, patch=merge_patch_for(o, rng)))
    if ops[0]["op"] == "update":  # the object must exist (and fix the field manager's kind)
        first = apply(rng.choice(MANAGERS), o) if rng.random() < 0.6 else update(
            rng.choice(MANAGERS), copy.deepcopy(o))
        ops.insert(0, first)
    return schema, None, ops


FAMILIES: list[tuple[str, Callable[[random.Random], tuple[str, Any, list]], int]] = [
    ("create", fam_create, 90), ("reapply", fam_reapply, 60), ("evolve", fam_evolve, 200),
    ("shared", fam_shared, 160), ("controller", fam_controller, 200), ("hpa", fam_hpa, 60),
    ("csa", fam_csa_upgrade, 120), ("existing", fam_existing, 100), ("times", fam_times, 50),
    ("cap", fam_cap, 12), ("dups", fam_duplicates, 40), ("invalid", fam_invalid, 80),
    ("empties", fam_empties, 60), ("lists", fam_lists, 60), ("random", fam_random, 400),
]


def generate(seed: int, scale: float = 1.0, prefix: str = "") -> list[dict]:
    """The cases of every family (``scale`` times the recorded counts), deterministic."""
    cases = []
    for fam, make, count in FAMILIES:
        rng = random.Random(f"{seed}:{fam}")
        for i in range(max(1, int(count * scale))):
            schema, live, ops = make(rng)
            cases.append({"id": f"{prefix}{fam}-{i:03d}", "schema": schema, "live": live,
                          "ops": ops})
    return cases


# ----------------------------------------------------------------- edge families

ODD_KEYS = ["a<b", "x&y", "q\"uote", "back\\slash", "é", "日本", "dot.ted/key", "sp ace",
            "tab\tx", "gt>"]


def fam_escapes(rng: random.Random) -> tuple[str, Any, list]:
    """Keys and values whose JSON escapes show in FieldsV1 (HTML-safe, unicode, quotes)."""
    m = rng.choice(MANAGERS)
    if rng.random() < 0.5:
        o = configmap(rng)
        o["metadata"]["labels"] = {k: "v" for k in rng.sample(ODD_KEYS, 3)}
        o["data"] = {k: rng.choice(ODD_KEYS) for k in rng.sample(ODD_KEYS, 2)}
        o2 = copy.deepcopy(o)
        o2["data"].pop(next(iter(o2["data"])))
        return "builtin", None, [apply(m, o), apply(m, o2)]
    o = widget(rng)
    o["spec"]["tags"] = rng.sample(ODD_KEYS, 3)
    o["spec"]["listOfLists"] = [{"name": k} for k in rng.sample(ODD_KEYS, 2)]
    o["spec"]["pairs"] = [{"a": rng.choice(ODD_KEYS), "b": "<>"}]
    o2 = copy.deepcopy(o)
    o2["spec"]["tags"] = o2["spec"]["tags"][1:]
    return "crd:widgets.yaml", None, [apply(m, o), update("ctl", patch={"spec": {
        "granularMap": {rng.choice(ODD_KEYS): "1"}}}), apply(m, o2)]


def fam_numbers(rng: random.Random) -> tuple[str, Any, list]:
    """Numbers as keys and set values: floats, integral floats, big and negative ints."""
    o = widget(rng)
    nums = rng.sample([1, 2.5, 3.0, -7, 2**53 + 1, 10**18, 0, 1e-7, 1e21, 123456789.5], 4)
    o["spec"]["numbers"] = [n for i, n in enumerate(nums) if n not in nums[:i]]
    o["spec"]["ports"] = [{"port": rng.choice([80, 80.0, 443]), "protocol": "TCP"}]
    o["spec"]["size"] = rng.choice([1e21, 1.5e-7, 100000000.0, -0.5])
    o2 = copy.deepcopy(o)
    o2["spec"]["numbers"] = o2["spec"]["numbers"][:2] + [rng.choice([4.0, 4, 99])]
    return "crd:widgets.yaml", None, [apply("a", o), apply("b", o2, force=rng.random() < 0.5),
                                      apply("a", o2)]


def fam_deduced_types(rng: random.Random) -> tuple[str, Any, list]:
    """Untyped fields that change kind (map, list, scalar) between writers."""
    kinds = [1, "s", True, None, [1, 2], {"a": 1}, {"a": {"b": [1]}}, [], {}]
    o = deduced_obj(rng)
    o["spec"] = {"x": rng.choice(kinds), "y": {"z": rng.choice(kinds)}}
    o2 = copy.deepcopy(o)
    o2["spec"]["x"] = rng.choice(kinds)
    o2["spec"]["y"]["z"] = rng.choice(kinds)
    schema = "deduced"
    if rng.random() < 0.4:
        o["apiVersion"], o["kind"] = "example.com/v1", "Widget"
        o2["apiVersion"], o2["kind"] = "example.com/v1", "Widget"
        o["spec"] = {"free": o["spec"], "port": rng.choice(kinds[:3])}
        o2["spec"] = {"free": o2["spec"], "port": rng.choice(kinds[:3])}
        schema = "crd:widgets.yaml"
    a, b = rng.sample(MANAGERS, 2)
    ops = [apply(a, o), rng.choice([apply(b, o2), update(b, o2), apply(a, o2)])]
    ops.append(apply(a, o, force=rng.random() < 0.5))
    return schema, None, ops


def fam_smd(rng: random.Random) -> tuple[str, Any, list]:
    """Shapes of structured-merge-diff's own scenarios, written afresh on our test CRD."""
    w = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}

    def obj(spec: dict) -> Obj:
        return dict(copy.deepcopy(w), spec=spec)
    which = rng.randint(0, 11)
    if which == 0:  # a list item removed while another manager owns a value inside it
        ops = [apply("one", obj({"listOfLists": [{"name": "a"}, {"name": "b", "value": ["c"]}]})),
               apply("two", obj({"listOfLists": [{"name": "b", "value": ["d"]}]})),
               update("ctl", patch={"spec": {"listOfLists": [
                   {"name": "a"}, {"name": "b", "value": ["c", "d", "e"]}]}}),
               apply("one", obj({"listOfLists": [{"name": "a"}]}))]
    elif which == 1:  # unset a scalar owned alone, shared with an applier, with an updater
        ops = [apply("one", obj({"replicas": 1, "mode": "x"})),
               rng.choice([apply("two", obj({"replicas": 1})),
                           update("ctl", patch={"spec": {"mode": "x", "enabled": True}})]),
               apply("one", obj({"mode": "x"})), apply("one", obj({}))]
    elif which == 2:  # a struct emptied, dangling fields, a null from an updater
        ops = [apply("one", obj({"struct": {"name": "a", "value": 1, "inner": {"a": "1"}}})),
               update("ctl", patch={"spec": {"struct": {"inner": {"b": "2"}}}}),
               apply("one", obj({"struct": rng.choice([{}, {"name": "a"}, None])})),
               update("ctl", patch={"spec": {"struct": None}})]
    elif which == 3:  # duplicated set values in the live object
        ops = [update("ctl", obj({"tags": ["a", "a", "b"], "numbers": [1, 1]})),
               apply("one", obj({"tags": rng.choice([["a"], ["b", "c"], ["a", "b"]])})),
               apply("one", obj({"tags": ["c"]}))]
    elif which == 4:  # duplicated list items in the live object
        ops = [update("ctl", obj({"listOfMaps": [{"name": "a", "value": {"p": "1"}},
                                                 {"name": "a", "value": {"p": "2"}},
                                                 {"name": "b"}]})),
               apply("one", obj({"listOfMaps": rng.choice([
                   [{"name": "a", "value": {"q": "3"}}], [{"name": "b", "value": {"p": "1"}}],
                   [{"name": "c"}]])})),
               update("ctl2", patch={"spec": {"replicas": 2}}),
               apply("one", obj({}))]
    elif which == 5:  # defaulted key omitted and given
        ops = [apply("one", obj({"ports": [{"port": 80}]})),
               apply("two", obj({"ports": [{"port": 80, "protocol": "TCP", "name": "h"}]})),
               apply("one", obj({"ports": [{"port": 80, "name": rng.choice(["h", "i"])}]})),
               apply("two", obj({"ports": [{"port": 53, "protocol": "UDP"}]}))]
    elif which == 6:  # reordered sets and map lists
        ops = [apply("one", obj({"tags": ["a", "b", "c"], "listOfLists": [
                   {"name": "a"}, {"name": "b"}, {"name": "c"}]})),
               update("ctl", patch={"spec": {"tags": ["c", "b", "a"]}}),
               apply("two", obj({"tags": ["d", "b"], "listOfLists": [{"name": "c"},
                                                                     {"name": "z"}]})),
               apply("one", obj({"tags": ["b", "a"], "listOfLists": [{"name": "b"},
                                                                     {"name": "a"}]}))]
    elif which == 7:  # maps of lists and maps of maps change keys and values
        ops = [apply("one", obj({"mapOfLists": {"a": ["x"], "b": ["y"]},
                                 "mapOfMaps": {"a": {"k": "v"}, "b": {"k": "w"}}})),
               apply("one", obj({"mapOfLists": {"a": ["x", "z"]}, "mapOfMaps": {"c": {"k": "v"}}})),
               update("ctl", patch={"spec": {"mapOfMaps": {"c": {"l": "1"}}}}),
               apply("one", obj({}))]
    elif which == 8:  # atomic maps and structs taken whole
        ops = [apply("one", obj({"atomicMap": {"a": "1", "b": "2"}, "atomicStruct": {"first": "1"},
                                 "granularMap": {"a": "1", "b": "2"}})),
               apply("two", obj({"atomicMap": {"a": "1"}, "granularMap": {"a": "1"}}),
                     force=rng.random() < 0.5),
               apply("two", obj({"atomicMap": {"a": "1", "b": "2"},
                                 "atomicStruct": {"first": "1"}}))]
    elif which == 9:  # preserve-unknown and embedded objects
        ops = [apply("one", obj({"free": {"a": {"b": 1}, "l": [1, 2]},
                                 "template": {"apiVersion": "v1", "kind": "Secret",
                                              "metadata": {"name": "s", "labels": {"x": "1"}},
                                              "stringData": {"k": "v"}}})),
               update("ctl", patch={"spec": {"free": {"a": {"c": 2}}, "template": {
                   "metadata": {"labels": {"y": "2"}}}}}),
               apply("one", obj({"free": {"l": [2]}, "template": {"apiVersion": "v1",
                                                                   "kind": "Secret"}}))]
    elif which == 10:  # two appliers, each removes what the other keeps
        ops = [apply("one", obj({"granularMap": {"a": "1", "b": "2"}, "replicas": 2})),
               apply("two", obj({"granularMap": {"b": "2", "c": "3"}, "replicas": 2})),
               apply("one", obj({"granularMap": {"a": "1"}})),
               apply("two", obj({"granularMap": {"c": "3"}})),
               apply("one", obj({}))]
    else:  # the updater claims a field, then the applier takes it back by force
        ops = [apply("one", obj({"mode": "a", "struct": {"name": "n"}})),
               update("ctl", patch={"spec": {"mode": "b", "struct": {"name": "m"}}}),
               apply("one", obj({"mode": "a", "struct": {"name": "n"}})),
               apply("one", obj({"mode": "a", "struct": {"name": "n"}}), force=True),
               update("ctl", patch={"spec": {"mode": "c"}})]
    return "crd:widgets.yaml", None, ops


def fam_managed_input(rng: random.Random) -> tuple[str, Any, list]:
    """Live objects that carry managed fields of their own (other versions, stale shapes)."""
    o = deployment(rng)
    live = existing(o, rng)
    entries = [
        {"manager": "old-tool", "operation": "Update", "apiVersion": rng.choice(
            ["apps/v1", "apps/v1beta1", "extensions/v1beta1"]), "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:selector": {"f:matchLabels": {"f:app": {}}},
                                 "f:replicas": {}}}, "time": rng.choice(TIMES)},
        {"manager": "kubectl", "operation": "Apply", "apiVersion": "apps/v1",
         "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {}},
                                                "f:spec": {"f:template": {"f:spec": {
                                                    "f:containers": {"k:{\"name\":\"app\"}": {
                                                        ".": {}, "f:args": {"i:0": {}}}}}}}}},
    ]
    live["metadata"]["managedFields"] = rng.sample(entries, rng.randint(1, 2))
    new = mutate(o, rng)
    r = rng.random()
    if r < 0.3:
        ops = [apply("kubectl", new)]
    elif r < 0.5:
        ops = [apply("helm", new, force=True)]
    elif r < 0.7:
        withmf = copy.deepcopy(new)
        withmf["metadata"]["managedFields"] = rng.choice([[], [{}], live["metadata"][
            "managedFields"][:1], None])
        ops = [update("ctl", withmf)]
    else:
        ops = [update("ctl", patch={"spec": {"replicas": 7}}), apply("old-tool", new)]
    return "builtin", live, ops


def fam_names(rng: random.Random) -> tuple[str, Any, list]:
    """Manager names: empty, odd characters, an applier that also writes."""
    o = configmap(rng)
    name = rng.choice(["", "weird name", "a<b>", "kubectl", "Helm"])
    ops = [apply(name, o), update(name, patch={"data": {"n": "1"}}),
           apply(rng.choice(["x", name]), mutate(o, rng)), update("", patch={"data": {"m": "2"}})]
    return "builtin", None, ops


def fam_more_kinds(rng: random.Random) -> tuple[str, Any, list]:
    """Other built-in kinds with their own list keys and atomic fields."""
    which = rng.randint(0, 5)
    md = meta(rng, "x")
    if which == 0:
        o = {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": md, "spec": {
            "schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": {"spec": dict(
                pod_spec(rng), restartPolicy="OnFailure")}}}}}
    elif which == 1:
        o = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": md,
             "spec": {"podSelector": {"matchLabels": {"app": "web"}},
                      "policyTypes": ["Ingress"], "ingress": [{"from": [
                          {"podSelector": {"matchLabels": {"role": "fe"}}}], "ports": [
                          {"port": 80, "protocol": "TCP"}]}]}}
    elif which == 2:
        o = {"apiVersion": "v1", "kind": "Secret", "metadata": md, "type": "Opaque",
             "stringData": {"a": "1", "b": "2"}}
    elif which == 3:
        o = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": md,
             "spec": {"minAvailable": rng.choice([1, "50%"]),
                      "selector": {"matchLabels": {"app": "web"}}}}
    elif which == 4:
        o = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": md,
             "imagePullSecrets": [{"name": n} for n in rng.sample(["a", "b", "c"], 2)]}
    else:
        o = {"apiVersion": "v1", "kind": "Namespace", "metadata": meta(rng, "ns", ns=False),
             "spec": {"finalizers": ["kubernetes"]}}
    a, b = rng.sample(MANAGERS, 2)
    return "builtin", None, [apply(a, o), update(b, patch=merge_patch_for(o, rng)),
                             apply(a, mutate(o, rng), force=rng.random() < 0.3)]


FAMILIES += [
    ("escapes", fam_escapes, 60), ("numbers", fam_numbers, 50), ("untyped", fam_deduced_types, 80),
    ("smd", fam_smd, 150), ("mfin", fam_managed_input, 60), ("names", fam_names, 25),
    ("kinds", fam_more_kinds, 90),
]


# ----------------------------------------------------------------- kubectl's migration

CSA = "kubectl-client-side-apply"


def csa_flow_cases(seed: int, count: int, prefix: str = "") -> list[dict]:
    """Client-side-applied objects that ``kubectl apply --server-side`` then applies: the
    first ops; :func:`csa_flow_extend` adds kubectl's further requests step by step."""
    rng = random.Random(f"{seed}:csaflow")
    cases = []
    for i in range(count):
        _, o, schema = _kind(rng, ["deployment", "service", "configmap", "widget"])
        ops = [update(CSA, with_last_applied(o))]
        if rng.random() < 0.5:
            ops.append(update("kube-controller-manager", patch=merge_patch_for(o, rng)))
        new = subset(o, rng) if rng.random() < 0.6 else mutate(o, rng)
        ops.append(apply("kubectl", new, force=rng.random() < 0.2))
        cases.append({"id": f"{prefix}csaflow-{i:03d}", "schema": schema, "live": None,
                      "ops": ops})
    return cases


def csa_flow_extend(cases: list[dict], run: Callable[[list[dict]], dict]) -> list[dict]:
    """Add kubectl's requests after its server-side apply, as kubectl 1.32 decides them
    from the server's answers (``run`` answers a batch): the apply of the last-applied
    annotation by ``kubectl-last-applied``, the JSON patch moving the client-side
    managers' fields to ``kubectl`` (an Update carrying the new ``managedFields``), and the
    second apply."""
    from cfgpatch.kube.ssa.csaupgrade import LAST_APPLIED_PATH, find_fields_owners, upgraded_entries

    todo = [c for c in cases if c["id"].split("-")[-2].endswith("csaflow")]
    for step in range(2):
        answers = run(todo)
        for case in todo:
            res = answers[case["id"]][-1]
            if not res.get("ok"):
                continue
            live = res["object"]
            meta = live.get("metadata", {})
            entries = meta.get("managedFields") or []
            apply_op = next(op for op in case["ops"] if op["manager"] == "kubectl")
            if step == 0:
                ann = (meta.get("annotations") or {}).get(LAST_APPLIED)
                if ann is None or find_fields_owners(entries, "Apply", LAST_APPLIED_PATH):
                    continue
                just = {"apiVersion": live["apiVersion"], "kind": live["kind"], "metadata": {
                    k: meta[k] for k in ("name", "namespace") if k in meta}}
                just["metadata"]["annotations"] = {LAST_APPLIED: ann}
                case["ops"].append(apply("kubectl-last-applied", just))
            else:
                owners = find_fields_owners(entries, "Update", LAST_APPLIED_PATH)
                names = sorted({e.get("manager", "") for e in owners})
                after = upgraded_entries(entries, names, "kubectl")
                if not names or after == entries:
                    continue
                sent = copy.deepcopy(live)
                sent["metadata"]["managedFields"] = after or []
                case["ops"].append(update("kubectl", sent))
                case["ops"].append(copy.deepcopy(apply_op))
    return cases


def fam_last_applied(rng: random.Random) -> tuple[str, Any, list]:
    """kubectl's conflicts forgiven by the last-applied annotation, and when they are not."""
    o = deployment(rng)
    o["spec"]["replicas"] = 2
    live = existing(o, rng)
    la = copy.deepcopy(o)
    which = rng.randint(0, 5)
    if which == 1:
        la["apiVersion"] = "apps/v1beta1"
    elif which == 2:
        la["spec"]["replicas"] = 9  # the live object no longer holds what was applied
    text = json.dumps(la, sort_keys=True, separators=(",", ":")) + "\n"
    if which == 3:
        text = "{not json"
    elif which == 4:
        text = json.dumps({"apiVersion": "apps/v1", "metadata": {"name": "web"}})
    live["metadata"].setdefault("annotations", {})[LAST_APPLIED] = text
    live["metadata"]["managedFields"] = [{
        "manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "apps/v1",
        "fieldsType": "FieldsV1", "time": rng.choice(TIMES),
        "fieldsV1": {"f:metadata": {"f:annotations": {".": {}, f"f:{LAST_APPLIED}": {}}},
                     "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
                         "k:{\"name\":\"app\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
        {"manager": "hpa-controller", "operation": "Update", "apiVersion": "apps/v1",
         "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:replicas": {}}}}][:rng.randint(1, 2)]
    new = copy.deepcopy(o)
    new["spec"]["replicas"] = rng.choice([2, 3])
    new["spec"]["template"]["spec"]["containers"][0]["image"] = rng.choice(["app:1", "new:2"])
    return "builtin", live, [apply(rng.choice(["kubectl", "kubectl", "helm"]), new)]


FAMILIES.append(("lastapplied", fam_last_applied, 60))


WEIRD = [None, 1, "s", [], {}, [1, None], {"a": None}, True, 1.5, [{"x": 1}], {"k": [1]},
         -3, "", [[1]], {"a": {"b": 2}}]


def _weird(o: Obj, rng: random.Random) -> Obj:
    o = copy.deepcopy(o)
    for _ in range(rng.randint(1, 2)):
        paths = [p for p in _paths(o) if p not in _FIXED and p[0] != "metadata" or
                 (len(p) > 1 and p[1] in ("labels", "annotations"))]
        if not paths:
            break
        p = rng.choice(paths)
        _get(o, p[:-1])[p[-1]] = copy.deepcopy(rng.choice(WEIRD))
    return o


def fam_weird(rng: random.Random) -> tuple[str, Any, list]:
    """Values of the wrong kind anywhere: the server's type errors, in its words."""
    _, o, schema = _kind(rng, [k for k in KINDS if not KINDS[k][1].startswith("openapi")])
    m = rng.choice(MANAGERS)
    r = rng.random()
    if r < 0.4:
        return schema, None, [apply(m, _weird(o, rng))]
    if r < 0.7:
        return schema, None, [apply(m, o), update("ctl", _weird(o, rng))]
    return schema, None, [apply(m, o), apply(m, _weird(o, rng), force=True)]


FAMILIES.append(("weird", fam_weird, 120))
