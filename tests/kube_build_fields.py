"""Random trees for the kustomization fields modelled last: ``configurations:``, ``vars``
and ``buildMetadata`` (live comparison with ``kubectl kustomize``).

Each function writes a small tree under ``root`` and returns the directory to build:

* :func:`configurations_tree`: custom field specs of every transformer (kinds, paths,
  ``create``, a ``nameReference``) against a kustomization using those transformers, so
  narrowing, conflicts and created fields all occur;
* :func:`vars_tree`: a base and a top, each maybe with ``vars`` whose objrefs (with or
  without a version or namespace) and field paths (found or not, maps, numbers) meet
  ``$(NAME)`` references written with escapes and unterminated forms;
* :func:`build_metadata_tree`: a base and a top with random transformers and
  ``buildMetadata`` options, whose JSON patches copy the annotations kustomize keeps
  while it builds.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

_KINDS = ("", "App", "ConfigMap", "Deployment", "Secret")
_SPEC_PATHS = {
    "namePrefix": ("metadata/name", "spec/alias", "data/a"),
    "nameSuffix": ("metadata/name", "spec/alias"),
    "namespace": ("spec/ns", "spec/absent", "metadata/name"),
    "commonLabels": ("metadata/labels", "spec/selector/matchLabels", "spec/notes",
                     "spec/template/metadata/labels"),
    "templateLabels": ("spec/selector/matchLabels", "metadata/labels",
                       "spec/template/metadata/labels"),
    "labels": ("spec/notes", "metadata/labels", "spec/extra"),
    "commonAnnotations": ("spec/notes", "metadata/annotations",
                          "spec/template/metadata/annotations"),
    "images": ("spec/image", "spec/template/spec/containers[]/image", "spec/other"),
    "replicas": ("spec/size", "spec/replicas"),
}
_CONFIGURED = [
    {"apiVersion": "example.com/v1", "kind": "App", "metadata": {"name": "app"},
     "spec": {"configMapName": "settings", "image": "nginx:1.0", "size": 1,
              "selector": {"matchLabels": {}}, "ns": "here", "notes": {}, "alias": "keep"}},
    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "plain"},
     "data": {"a": "b"}},
    {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
     "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
              "template": {"metadata": {"labels": {"app": "web"}},
                           "spec": {"containers": [{"name": "web", "image": "nginx:1.0"}]}}}},
]


def _field_spec(rng: random.Random, field: str) -> dict:
    spec: dict = {"path": rng.choice(_SPEC_PATHS[field])}
    kind = rng.choice(_KINDS)
    if kind:
        spec["kind"] = kind
    if rng.random() < 0.3:
        spec["create"] = rng.random() < 0.5
    if rng.random() < 0.1:
        spec["version"] = "v1"
    return spec


def _write(directory: Path, name: str, value: object) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(json.dumps(value) + "\n", encoding="utf-8")


def configurations_tree(rng: random.Random, root: Path) -> Path:
    """A kustomization whose ``configurations:`` file changes its transformers."""
    (root / "res.yaml").write_text("\n---\n".join(json.dumps(r) for r in _CONFIGURED) + "\n")
    conf = {field: [_field_spec(rng, field) for _ in range(rng.randint(1, 2))]
            for field in rng.sample(sorted(_SPEC_PATHS), rng.randint(1, 4))}
    if rng.random() < 0.4:
        conf["nameReference"] = [{"kind": "ConfigMap", "version": "v1", "fieldSpecs": [
            {"path": rng.choice(["spec/configMapName", "spec/alias"]),
             "kind": rng.choice(["App", ""])}]}]
    _write(root, "conf.yaml", conf)
    kust: dict = {"resources": ["res.yaml"], "configurations": ["conf.yaml"]}
    options = {
        "namePrefix": "p-", "nameSuffix": "-s", "namespace": "nn",
        "commonLabels": {"team": "blue"}, "commonAnnotations": {"note": "text"},
        "images": [{"name": "nginx", "newTag": "2.0"}],
        "replicas": [{"name": rng.choice(["app", "web", "plain"]), "count": 4}],
        "configMapGenerator": [{"name": "settings", "literals": ["x=y"]}],
        "labels": [{"pairs": {"t": "v"},
                    **({"includeSelectors": True} if rng.random() < 0.3 else {}),
                    **({"includeTemplates": True} if rng.random() < 0.4 else {})}],
    }
    for field, value in options.items():
        if rng.random() < 0.5:
            kust[field] = value
    _write(root, "kustomization.yaml", kust)
    return root


_VAR_NAMES = ("A", "B", "C", "D")
_VAR_PATHS = ("metadata.name", "metadata.namespace", "spec.ports[0].port",
              "spec.ports[1].name", "data.k", "spec.replicas", "metadata.labels.app",
              "spec.template.spec.containers[0].image", "spec.nope", "spec")
_OBJECTS = (("v1", "Service", "svc"), ("v1", "ConfigMap", "cm"),
            ("apps/v1", "Deployment", "web"), ("v1", "ConfigMap", "gen"))


def _reference(rng: random.Random) -> str:
    parts = [rng.choice(["", "x", "$$", "$", "$(", "-"]) for _ in range(rng.randint(0, 2))]
    parts.insert(rng.randint(0, len(parts)), "$(" + rng.choice(_VAR_NAMES + ("Z",)) + ")")
    return "".join(parts)


def _var_resources(rng: random.Random, namespace: str) -> list[dict]:
    meta = {"name": "svc", **({"namespace": namespace} if namespace else {}),
            "annotations": {"a": _reference(rng)}, "labels": {"app": _reference(rng)}}
    return [
        {"apiVersion": "v1", "kind": "Service", "metadata": meta,
         "spec": {"ports": [{"port": 80, "name": "http", "targetPort": _reference(rng)},
                            {"port": 81, "name": "x"}]}},
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "cm", "labels": {"app": "web"}}, "data": {"k": _reference(rng)}},
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
         "spec": {"replicas": rng.choice([1, 2]), "template": {
             "metadata": {"annotations": {"n": _reference(rng)}},
             "spec": {"containers": [{
                 "name": "c", "image": "nginx:" + rng.choice(["1", "2"]),
                 "args": [_reference(rng) for _ in range(rng.randint(0, 3))],
                 "env": [{"name": "E", "value": _reference(rng)}]}]}}}},
    ]


def _vars(rng: random.Random, names: list[str]) -> list[dict]:
    out = []
    for name in names:
        api_version, kind, target = rng.choice(_OBJECTS)
        var: dict = {"name": name, "objref": {"kind": kind, "name": target}}
        draw = rng.random()
        if draw < 0.7:
            var["objref"]["apiVersion"] = api_version
        elif draw < 0.8:
            var["objref"]["version"] = api_version.split("/")[-1]
        if rng.random() < 0.2:
            var["objref"]["namespace"] = rng.choice(["ns1", "default"])
        if rng.random() < 0.6:
            var["fieldref"] = {"fieldpath": rng.choice(_VAR_PATHS)}
        out.append(var)
    return out


def vars_tree(rng: random.Random, root: Path) -> Path:
    """A base and a top kustomization with ``vars``."""
    resources = _var_resources(rng, rng.choice(["", "ns1"]))
    (root / "base").mkdir(parents=True)
    (root / "base" / "r.yaml").write_text("\n---\n".join(json.dumps(r) for r in resources))
    base: dict = {"resources": ["r.yaml"],
                  "configMapGenerator": [{"name": "gen", "literals": ["k=v"]}]}
    if rng.random() < 0.5:
        base["vars"] = _vars(rng, rng.sample(_VAR_NAMES, rng.randint(1, 2)))
    if rng.random() < 0.3:
        base["namePrefix"] = "b-"
    _write(root / "base", "kustomization.yaml", base)
    top: dict = {"resources": ["base"]}
    taken = {v["name"] for v in base.get("vars", [])}
    if rng.random() < 0.7:
        free = [n for n in _VAR_NAMES if n not in taken] if rng.random() < 0.9 \
            else list(_VAR_NAMES)
        top["vars"] = _vars(rng, rng.sample(free, min(len(free), rng.randint(1, 2))))
    if rng.random() < 0.5:
        top["namePrefix"] = "p-"
    if rng.random() < 0.3:
        top["namespace"] = "top"
    _write(root, "kustomization.yaml", top)
    return root


_TRACKED = [
    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"x": "1"}},
    {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
     "spec": {"replicas": 1, "template": {"spec": {"containers": [
         {"name": "c", "image": "nginx"}]}}}},
    {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "nsx"}},
]
_COPY = json.dumps([{"op": "copy", "from": "/metadata/annotations", "path": "/data"}])
_OPTIONS = ("originAnnotations", "transformerAnnotations", "managedByLabel", "other")


def _tracked_layer(rng: random.Random, directory: Path, name: str, resources: list[str],
                   top: bool) -> None:
    kust: dict = {"resources": resources}
    draws = {
        "namePrefix": name[0] + "-", "nameSuffix": "-" + name[0],
        "namespace": "ns-" + name, "commonLabels": {"l": name},
        "labels": [{"pairs": {"m": name}}] * rng.randint(1, 2),
        "commonAnnotations": {"note": name},
        "images": [{"name": "nginx", "newTag": "2"}] * rng.randint(1, 2),
        "configMapGenerator": [{"name": "g" + name, "literals": ["k=v"]}],
        "replicas": [{"name": "web", "count": 3}],
        "patchesJson6902": [{"target": {"version": "v1", "kind": "ConfigMap", "name": ".*"},
                             "patch": _COPY}],
    }
    for field, value in draws.items():
        if rng.random() < 0.3:
            kust[field] = value
    patches = [{"target": {"kind": "ConfigMap"}, "patch": _COPY if rng.random() < 0.5 else
                json.dumps([{"op": "add", "path": "/metadata/labels", "value": {"p": "q"}}])}
               for _ in range(rng.randint(0, 2))]
    if patches:
        kust["patches"] = patches
    if top and rng.random() < 0.85:
        kust["buildMetadata"] = rng.sample(_OPTIONS, rng.randint(0, 3))
    elif rng.random() < 0.2:
        kust["buildMetadata"] = ["transformerAnnotations"]
    _write(directory, "kustomization.yaml", kust)


def build_metadata_tree(rng: random.Random, root: Path) -> Path:
    """A base and a top, maybe with ``buildMetadata`` options, patches reading annotations."""
    (root / "base").mkdir(parents=True)
    (root / "base" / "r.yaml").write_text("\n---\n".join(json.dumps(r) for r in _TRACKED))
    _tracked_layer(rng, root / "base", "base", ["r.yaml"], top=False)
    _tracked_layer(rng, root / "top", "top", ["../base"], top=True)
    return root / "top"


_UNUSED = re.compile(r"(?m)^(well-defined vars that were never replaced: )(.*)$")


def sorted_unused_vars(stderr: str) -> str:
    """kustomize names unused vars in a Go map's order (it changes from run to run):
    sorted, for comparing."""
    return _UNUSED.sub(lambda m: m.group(1) + ",".join(sorted(m.group(2).split(","))), stderr)


_DUMP = re.compile(r"merging config &\{.*?\}: (failed to merge)", re.S)


def comparable(stderr: str) -> str:
    """kubectl's standard error as ``kube build`` can match it: unused vars sorted, and
    the whole configuration kustomize prints in a conflicting-field-spec error (not
    reproduced: docs/kustomize.md) replaced by ``kube build``'s words."""
    return _DUMP.sub(r"merging config (the configuration, which kustomize prints in "
                     r"full): \1", sorted_unused_vars(stderr))
