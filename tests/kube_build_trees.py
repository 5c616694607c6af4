"""Random kustomization trees for live comparison with ``kubectl kustomize`` (and benchmarks).

:func:`random_tree` writes a base (realistic resources that refer to each other:
Deployments, StatefulSets, CronJobs using ConfigMaps, Secrets, ServiceAccounts and
claims; Services, Ingresses, HPAs, RoleBindings, a custom resource) and one or two
overlays on top, each with a random choice of ``namespace``, ``namePrefix``/``nameSuffix``,
``labels``/``commonLabels``, ``commonAnnotations``, ``images``, ``replicas``,
generators and patches (JSON 6902 and strategic, with random selectors: kinds, regular
expressions, label selectors).  Strategic patches change maps and scalars, and (with
``lists=True``, :func:`_list_patch`) merge lists the way real overlays do: containers
by name (image, env, ports, resources, a new sidecar, ``$patch: delete``), init
containers, volumes (added, changed, deleted), Service ports, ``$patch: replace`` on a
list, ``$setElementOrder`` and ``$deleteFromPrimitiveList`` (apimachinery's
directives, which kustomize's merge treats its own way), and lists without a merge key.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

APPS = ("web", "api", "worker", "cache", "auth", "search", "billing", "mail")
MODES = ("fast", "safe", '"010"', "yes", "on")
IMAGES = ("nginx:1.27", "ghcr.io/acme/api:2.1.0", "redis:7.4", "busybox",
          "localhost:5000/acme/worker:3", "postgres@sha256:" + "ab" * 32)


def _deployment(name: str, rng: random.Random, kind: str = "Deployment") -> str:
    image = rng.choice(IMAGES)
    extra = f"  replicas: {rng.randint(1, 5)}\n" if rng.random() < 0.7 else ""
    if kind == "StatefulSet":
        extra += f"  serviceName: {name}\n"
    return (f"apiVersion: apps/v1\nkind: {kind}\nmetadata:\n  name: {name}\n"
            f"  labels: {{app: {name}, tier: {rng.choice(['front', 'back'])}}}\n"
            f"spec:\n{extra}  selector:\n    matchLabels: {{app: {name}}}\n"
            f"  template:\n    metadata:\n      labels: {{app: {name}}}\n    spec:\n"
            f"      serviceAccountName: {name}\n"
            f"      containers:\n      - name: main\n        image: {image}\n"
            f"        envFrom:\n        - configMapRef: {{name: {name}-config}}\n"
            f"        env:\n        - name: PASSWORD\n          valueFrom:\n"
            f"            secretKeyRef: {{name: {name}-secret, key: password}}\n"
            f"      initContainers:\n      - name: init\n        image: busybox:1.36\n"
            f"      volumes:\n      - name: data\n        persistentVolumeClaim:\n"
            f"          claimName: {name}-data\n")


def _app(name: str, rng: random.Random) -> str:
    kind = rng.choice(["Deployment", "Deployment", "StatefulSet"])
    docs = [_deployment(name, rng, kind),
            f"apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n"
            f"  selector: {{app: {name}}}\n  ports:\n  - port: 80\n    targetPort: 8080\n",
            f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}-config\n"
            f"data:\n  MODE: {rng.choice(MODES)}\n",
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}-secret\n"
            f"type: Opaque\nstringData:\n  password: p{rng.randint(0, 99)}\n",
            f"apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {name}\n",
            f"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {name}-data\n"
            f"spec:\n  accessModes: [ReadWriteOnce]\n  resources:\n"
            f"    requests: {{storage: 1Gi}}\n"]
    if rng.random() < 0.5:
        docs.append(f"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n"
                    f"  name: {name}\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n"
                    f"    kind: {kind}\n    name: {name}\n  minReplicas: 1\n"
                    f"  maxReplicas: 4\n")
    if rng.random() < 0.4:
        docs.append(f"apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
                    f"metadata:\n  name: {name}-view\nroleRef:\n"
                    f"  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n"
                    f"  name: view\nsubjects:\n- kind: ServiceAccount\n  name: {name}\n")
    if rng.random() < 0.4:
        docs.append(f"apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n"
                    f"  name: {name}\nspec:\n  rules:\n  - host: {name}.acme.example\n"
                    f"    http:\n      paths:\n      - path: /\n        pathType: Prefix\n"
                    f"        backend:\n          service:\n            name: {name}\n"
                    f"            port: {{number: 80}}\n")
    if rng.random() < 0.3:
        docs.append(f"apiVersion: acme.example/v1\nkind: Worker\nmetadata:\n  name: {name}\n"
                    f"spec:\n  replicas: 2\n  pods:\n    containers:\n    - name: w\n"
                    f"      image: {rng.choice(IMAGES)}\n")
    if rng.random() < 0.3:
        docs.append(f"apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: {name}-job\n"
                    f"spec:\n  schedule: '@daily'\n  jobTemplate:\n    spec:\n"
                    f"      template:\n        spec:\n          restartPolicy: Never\n"
                    f"          containers:\n          - name: job\n"
                    f"            image: {rng.choice(IMAGES)}\n")
    return "---\n".join(docs)


def _selector(rng: random.Random, names: list[str]) -> str:
    choice = rng.randrange(5)
    if choice == 0:
        return f"      kind: Deployment\n      name: {rng.choice(names)}\n"
    if choice == 1:
        return "      kind: Deployment|StatefulSet\n"
    if choice == 2:
        return f"      name: {rng.choice(names)[:2]}.*\n      kind: Service\n"
    if choice == 3:
        return "      labelSelector: tier=front\n      group: apps\n"
    return f"      kind: ConfigMap\n      name: {rng.choice(names)}-config\n"


def _patches(rng: random.Random, names: list[str], lists: bool = False) -> str:
    out = ["patches:\n"]
    for _ in range(rng.randint(1, 4)):
        target = _selector(rng, names)
        if lists and rng.random() < 0.6:
            out.append(_list_patch(rng, names))
        elif rng.random() < 0.5:
            out.append(f"  - target:\n{target}    patch: |-\n"
                       f"      - op: add\n        path: /metadata/annotations\n"
                       f"        value: {{patched: \"{rng.randint(0, 9)}\"}}\n")
        else:
            out.append(f"  - target:\n{target}    patch: |-\n"
                       f"      apiVersion: v1\n      kind: Any\n      metadata:\n"
                       f"        name: any\n        labels: {{patched: \"yes\"}}\n")
    return "".join(out)


_WORKLOAD_LISTS = (
    {"containers": [{"name": "main", "image": "nginx:1.29"}]},
    {"containers": [{"name": "main", "env": [{"name": "NEW", "value": "v"},
                                             {"name": "PASSWORD", "value": "plain"}]}]},
    {"containers": [{"name": "main", "ports": [{"containerPort": 8080, "protocol": "TCP"},
                                               {"containerPort": 9090, "name": "metrics"}]}]},
    {"containers": [{"name": "sidecar", "image": "envoyproxy/envoy:v1.31",
                     "args": ["--log", "info"]}]},
    {"containers": [{"name": "main", "$patch": "delete"}]},
    {"containers": [{"$patch": "replace"}, {"name": "only", "image": "busybox"}]},
    {"containers": [{"name": "main", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}},
                     "envFrom": [{"secretRef": {"name": "extra"}}]}]},
    {"initContainers": [{"name": "init", "$patch": "delete"}]},
    {"initContainers": [{"name": "migrate", "image": "flyway/flyway:10"}]},
    {"volumes": [{"name": "data", "$patch": "delete"}]},
    {"volumes": [{"name": "cache", "emptyDir": {}}]},
    {"volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "other"}}]},
    {"volumes": [{"$patch": "replace"}, {"name": "tmp", "emptyDir": {"medium": "Memory"}}]},
    {"$setElementOrder/containers": [{"name": "sidecar"}, {"name": "main"}],
     "containers": [{"name": "sidecar", "image": "envoy"}]},
    {"containers": [{"name": "main", "$deleteFromPrimitiveList/args": ["a"],
                     "args": ["b", "c"]}]},
    {"tolerations": [{"key": "dedicated", "operator": "Exists"}]},
    {"$patch": "replace", "containers": [{"name": "solo", "image": "redis:7.4"}]},
)
_SERVICE_LISTS = (
    {"ports": [{"port": 80, "targetPort": 9090}]},
    {"ports": [{"port": 443, "name": "https", "targetPort": 8443}]},
    {"ports": [{"port": 80, "$patch": "delete"}]},
    {"ports": [{"port": 80, "protocol": "UDP"}]},
)
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9./:_-]*\Z")


def _block(value: object, indent: str) -> str:
    """``value`` as block YAML (plain scalars where they read back the same)."""
    if isinstance(value, dict):
        if not value:
            return " {}\n"
        return "\n" + "".join(f"{indent}{k}:{_block(v, indent + '  ')}" for k, v in value.items())
    if isinstance(value, list):
        out = "\n"
        for item in value:
            text = _block(item, indent + "  ")
            out += f"{indent}- " + (text[len(indent) + 3:] if text.startswith("\n") else
                                    text.lstrip())
        return out
    if isinstance(value, str) and _PLAIN.match(value) and value not in ("yes", "on", "no"):
        return f" {value}\n"
    return f" {json.dumps(value)}\n"


def _list_patch(rng: random.Random, names: list[str]) -> str:
    """A strategic patch that merges lists of a workload or a Service."""
    if rng.random() < 0.25:
        body = rng.choice(_SERVICE_LISTS)
        target = f"      kind: Service\n      name: {rng.choice(names)}\n"
        doc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "any"},
               "spec": body}
    else:
        spec: dict = {}
        for fragment in rng.sample(_WORKLOAD_LISTS, rng.randint(1, 3)):
            for key, item in fragment.items():
                if key in spec and isinstance(spec[key], list):
                    spec[key] = [*spec[key], *item]
                else:
                    spec[key] = item
        target = rng.choice(["      kind: Deployment|StatefulSet\n",
                             f"      kind: Deployment\n      name: {rng.choice(names)}\n",
                             "      group: apps\n      kind: StatefulSet\n"])
        doc = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "any"},
               "spec": {"template": {"spec": spec}}}
    return f"  - target:\n{target}    patch: |-{_block(doc, '      ')}"


def _overlay(rng: random.Random, names: list[str], base: str, lists: bool = False) -> str:
    parts = [f"resources:\n  - {base}\n"]
    if rng.random() < 0.6:
        parts.append(f"namespace: ns-{rng.randint(0, 3)}\n")
    if rng.random() < 0.6:
        parts.append(f"namePrefix: p{rng.randint(0, 9)}-\n")
    if rng.random() < 0.4:
        parts.append(f"nameSuffix: -s{rng.randint(0, 9)}\n")
    if rng.random() < 0.5:
        flag = rng.choice(["", "    includeSelectors: true\n", "    includeTemplates: true\n"])
        parts.append(f"labels:\n  - pairs: {{team: t{rng.randint(0, 5)}}}\n{flag}")
    if rng.random() < 0.3:
        parts.append(f"commonLabels:\n  env: e{rng.randint(0, 3)}\n")
    if rng.random() < 0.5:
        parts.append("commonAnnotations:\n  owner: platform\n")
    if rng.random() < 0.6:
        parts.append("images:\n  - name: nginx\n    newTag: 1.28.0\n"
                     "  - name: busybox\n    newName: docker.io/library/busybox\n")
    if rng.random() < 0.5:
        parts.append(f"replicas:\n  - name: {names[0]}\n    count: {rng.randint(0, 9)}\n")
    if rng.random() < 0.5:
        parts.append(f"configMapGenerator:\n  - name: {rng.choice(names)}-{base[3:5]}flags\n"
                     f"    literals: [A=1, B=\"two\"]\n")
    if lists or rng.random() < 0.7:
        parts.append(_patches(rng, names, lists))
    return "".join(parts)


def random_tree(rng: random.Random, root: Path, apps: int = 0, lists: bool = False) -> Path:
    """Write a random tree under ``root``; return the directory to build (``lists``:
    strategic patches that merge lists, see :func:`_list_patch`)."""
    count = apps or rng.randint(1, 4)
    names = [f"{rng.choice(APPS)}{i}" for i in range(count)]
    base = root / "base"
    base.mkdir(parents=True, exist_ok=True)
    files = []
    for name in names:
        (base / f"{name}.yaml").write_text(_app(name, rng), encoding="utf-8")
        files.append(f"{name}.yaml")
    base_kustomization = "resources:\n" + "".join(f"  - {f}\n" for f in files)
    if rng.random() < 0.5:
        base_kustomization += ("configMapGenerator:\n  - name: shared\n"
                               "    literals: [LEVEL=info]\n")
    (base / "kustomization.yaml").write_text(base_kustomization, encoding="utf-8")
    top = root / "overlay"
    top.mkdir(exist_ok=True)
    (top / "kustomization.yaml").write_text(_overlay(rng, names, "../base", lists), encoding="utf-8")
    if rng.random() < 0.4:
        second = root / "prod"
        second.mkdir(exist_ok=True)
        (second / "kustomization.yaml").write_text(_overlay(rng, names, "../overlay", lists),
                                                   encoding="utf-8")
        return second
    return top


#: What :func:`damaged_tree` inserts: bytes that are not UTF-8, control and special
#: characters, byte order marks, tabs, carriage returns, the escape ``\/``.
DAMAGE = (b"\xe9", b"\xff", b"\x80", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80", b"\x00",
          b"\x01", "\x85".encode(), "\uffff".encode(), "\ufeff".encode(), b"\xff\xfe", b"#",
          b"\t", b"\t", b" \t", b"\\/", b"\r")
_DAMAGED_FILES = {
    "cm.yaml": b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: x\n"
               b"  b: 'y'\n  c: \"z\"\n  d: |\n    l1\n    l2\n",
    "p.yaml": b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  e: f\n",
    "kustomization.yaml": b"resources:\n- cm.yaml\nnamePrefix: p-\npatches:\n- path: p.yaml\n",
}


def _damaged(rng: random.Random, data: bytes) -> bytes:
    """``data`` with up to three insertions of :data:`DAMAGE`, maybe marked as UTF-8 or
    written as UTF-16 (then maybe with a last odd byte)."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(data))
        data = data[:at] + rng.choice(DAMAGE) + data[at:]
    draw = rng.random()
    if draw < 0.15:
        text = data.decode("utf-8", "replace")
        data = b"\xff\xfe" + text.encode("utf-16-le") + (b"A" if rng.random() < 0.3 else b"")
    elif draw < 0.25:
        data = b"\xef\xbb\xbf" + data
    return data


def damaged_tree(rng: random.Random, root: Path) -> Path:
    """A resource, a patch and a kustomization, each damaged or not (see :data:`DAMAGE`)."""
    for name, data in _DAMAGED_FILES.items():
        (root / name).write_bytes(_damaged(rng, data) if rng.random() < 0.6 else data)
    return root
