"""kustomize's field transformers: namespace, name prefix/suffix, labels, annotations, replicas.

Each follows kustomize v5.5's builtin plugin of the same name, on the field specs of
:mod:`.fieldspecs`:

* ``namespace``: ``metadata/namespace`` of every resource whose kind kustomize knows as
  namespaced (set, or replaced), the name of ``v1`` Namespaces, the namespace of
  RoleBinding/ClusterRoleBinding subjects named ``default``, and the other specs;
* ``namePrefix``/``nameSuffix``: ``metadata/name`` of every resource but CRDs,
  APIServices and Namespaces; the id before is kept (patch targets, name references)
  and the prefix or suffix remembered (name references prefer resources renamed alike);
* ``labels``/``commonLabels``/``commonAnnotations``: map entries on the specs (labels:
  ``metadata/labels`` only, templates with ``includeTemplates``, selectors too with
  ``includeSelectors``; ``commonLabels`` is ``includeSelectors``), keys in sorted order;
* ``replicas``: ``spec/replicas`` of the Deployment, StatefulSet, ReplicaSet or
  ReplicationController whose current or earlier name is the one given.
"""

from __future__ import annotations

from collections import Counter

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..go import json as gojson
from ..problems import Kustomize, ProblemError, cause
from . import aliases
from . import fieldspecs as fs
from .kustomization import Kustomization
from .plainkeys import plain_key
from .resmap import ResMap, id_key, same_id
from .resources import Resource
from .styles import kustomize_set
from .transformer_config import RANKS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .trace import Trace  # the trace module: imported by the caller that explains


def run(resmap: ResMap, trace: Trace | None, kust: Kustomization, name: str, index: int,
        pointer: str, change: Callable[[Resource], None],
        resources: list[Resource] | None = None) -> None:
    """Apply ``change`` to every resource, recording a step when tracing."""
    run_at(resmap, trace, (kust.file, kust.line(pointer)), name, index, change, resources)


def run_at(resmap: ResMap, trace: Trace | None, where: tuple[str, int], name: str, index: int,
           change: Callable[[Resource], None], resources: list[Resource] | None = None) -> None:
    """:func:`run` for a step written at ``where`` (file, line)."""
    step = None
    if trace is not None:  # the trace module is loaded: the caller made a Trace
        from .trace import TRANSFORMER, Step, Touch, snapshot

        step = trace.values_of(trace.begin(Step(TRANSFORMER, name, index, where[0], where[1])))
    for resource in (resmap.resources if resources is None else resources):
        before = snapshot(resource.value) if step is not None else None
        label = resource.describe()
        change(resource)
        if step is not None and before != resource.value:
            step.targets.append(label)
            step.touches.append(Touch(resource, before, snapshot(resource.value), label))


# ----------------------------------------------------------------- namespace


def namespace(resmap: ResMap, trace: Trace | None, kust: Kustomization) -> None:
    set_namespace(resmap, trace, kust, kust.get("namespace", ""), resmap.config.namespace)


def set_namespace(resmap: ResMap, trace: Trace | None, kust: Kustomization, target: str,
                  specs: tuple, unset_only: bool = False, subjects: str = "defaultOnly"
                  ) -> None:
    """kustomize's namespace transformer: ``target`` on every namespaced resource's
    ``metadata/namespace`` and at ``specs``; ``unset_only`` leaves a namespace already
    set; ``subjects`` says which RoleBinding/ClusterRoleBinding subjects get it
    (``defaultOnly``: those named ``default``; ``allServiceAccounts``; ``none``)."""
    if not target:
        return

    taken = Counter(id_key(r.cur_id()) for r in resmap.resources)
    setter = _scalar_setter(target, unset_only)

    def change(resource: Resource) -> None:
        gvk = resource.gvk
        taken[id_key(resource.cur_id())] -= 1
        resource.store_previous_id()  # kustomize: later patches may name the old id
        binding = gvk.kind in ("RoleBinding", "ClusterRoleBinding")
        if not resource.cur_id().cluster_scoped:
            meta = resource.metadata()
            if not unset_only or not meta.get("namespace"):
                meta["namespace"] = target
        if binding:
            _binding_subjects(resource.value, subjects, setter)
        for spec in specs:
            # kustomize: metadata/namespace is set above, metadata/name only in v1
            if spec.path == "metadata/namespace" or (
                    spec.path == "metadata/name" and resource.value.get("apiVersion") != "v1"):
                continue
            if binding and spec.path == "subjects/namespace":
                continue
            if spec.applies_to(gvk):
                fs.walk(resource.value, spec, setter, str)
        key = id_key(resource.cur_id())
        taken[key] += 1
        if taken[key] > 1:
            _conflict(resmap, resource)

    run(resmap, trace, kust, "namespace", 0, "/namespace", change)


def _conflict(resmap: ResMap, resource: Resource) -> None:
    """kustomize refuses a namespace that gives two resources one id (checked after each
    resource, against the current ids of all, so the second of the two is the one); the
    error shows them with their previous-id annotations."""
    mine = resource.cur_id()
    shown = " ".join(gojson.encode(_with_previous_ids(r)) for r in resmap.resources
                     if same_id(r.cur_id(), mine))
    raise ProblemError(Kustomize("namespace-id-conflict", detail=shown), code=KUSTOMIZE_ERROR)


def _with_previous_ids(resource: Resource) -> dict:
    import copy

    value = copy.deepcopy(resource.value)
    internal = resource.internal_annotations()
    if not internal:
        return value  # a resource the namespace did not change: as it is, no annotations added
    meta = value.setdefault("metadata", {})
    notes = meta.get("annotations")
    if not isinstance(notes, dict):
        notes = {}
    meta["annotations"] = {**notes, **internal}
    return value


def _binding_subjects(value: dict, mode: str, setter: Callable[[dict, str], None]) -> None:
    subjects = value.get("subjects")
    if mode == "none" or not isinstance(subjects, list):
        return
    for subject in subjects:
        if not isinstance(subject, dict):
            continue
        if mode == "allServiceAccounts":
            chosen = subject.get("kind") == "ServiceAccount"
        else:
            chosen = subject.get("name") == "default"
        if chosen:
            setter(subject, "namespace")


def _scalar_setter(text: str, unset_only: bool = False) -> Callable[[dict, str], None]:
    def visit(parent: dict, key: str) -> None:
        current = parent.get(key)
        if isinstance(current, (dict, list)):
            raise KubeError(f"{key}: expected a scalar, found a {type(current).__name__}",
                            code=KUSTOMIZE_ERROR)
        if unset_only and current not in (None, ""):
            return
        parent[key] = text
    return visit


# ----------------------------------------------------------------- prefix / suffix


def name_prefix_suffix(resmap: ResMap, trace: Trace | None, kust: Kustomization) -> None:
    prefix, suffix = kust.get("namePrefix", ""), kust.get("nameSuffix", "")
    if prefix:
        run(resmap, trace, kust, "namePrefix", 0, "/namePrefix",
            lambda r: _rename(r, prefix, "", resmap.config.prefix))
    if suffix:
        run(resmap, trace, kust, "nameSuffix", 0, "/nameSuffix",
            lambda r: _rename(r, "", suffix, resmap.config.suffix))


def _rename(resource: Resource, prefix: str, suffix: str, specs: tuple) -> None:
    """kustomize's prefix (suffix) transformer: every spec selecting the resource's
    original type; ``metadata/name`` renames it (the default spec, for every kind),
    any other path gets the affix on its text (``crds:``'s x-kubernetes-identity
    fields, a configuration's specs).  CRDs, APIServices and Namespaces are skipped."""
    org = resource.org_id().gvk
    if any(org.selected_by(skipped) for skipped in fs.PREFIX_SKIPPED):
        return
    for spec in specs:
        if not org.selected_by(spec.gvk):
            continue
        if spec.path != "metadata/name":
            fs.walk(resource.value, spec, _affixer(prefix, suffix))
            continue
        if prefix:
            resource.prefixes.append(prefix)
        if suffix:
            resource.suffixes.append(suffix)
        resource.store_previous_id()
        resource.set_name(prefix + resource.name + suffix)


def _affixer(prefix: str, suffix: str) -> Callable[[dict, str], None]:
    def visit(parent: dict, key: str) -> None:
        if isinstance(parent.get(key), str):
            parent[key] = prefix + parent[key] + suffix
        elif key not in parent:  # a spec with create: the affix alone (measured)
            parent[key] = prefix + suffix
    return visit


# ----------------------------------------------------------------- labels, annotations


def labels(resmap: ResMap, trace: Trace | None, kust: Kustomization) -> None:
    for index, entry in enumerate(kust.get("labels", [])):
        if not isinstance(entry, dict):
            continue
        pairs = _string_map(entry.get("pairs"))
        specs = _label_specs(resmap, entry)
        _set_entries(resmap, trace, kust, "labels", index, f"/labels/{index}", pairs, specs)
    common = _string_map(kust.get("commonLabels"))
    if common:
        _set_entries(resmap, trace, kust, "commonLabels", 0, "/commonLabels", common,
                     resmap.config.common_labels)


def _label_specs(resmap: ResMap, entry: dict) -> tuple:
    """The field specs of one ``labels`` entry, merged as kustomize merges field specs:
    its ``fields``, the configuration's ``labels``, then its ``commonLabels`` with
    ``includeSelectors``, else its ``templateLabels`` with ``includeTemplates`` and
    ``metadata/labels`` (the order decides which merge fails: measured)."""
    config = resmap.config
    step = "labels"
    try:
        specs = fs.merge_specs(_custom_specs(entry.get("fields")), config.labels)
        if entry.get("includeSelectors"):
            return fs.merge_specs(specs, config.common_labels)
        if entry.get("includeTemplates"):
            step = "template fieldSpec"
            specs = fs.merge_specs(specs, config.template_labels)
            step = "labels"
        return fs.merge_specs(specs, fs.RESOURCE_LABELS)
    except KubeError as err:
        raise ProblemError(Kustomize("merging-label-specs", name=step, cause=cause(err)),
                           code=err.code) from None


def common_annotations(resmap: ResMap, trace: Trace | None, kust: Kustomization) -> None:
    common = _string_map(kust.get("commonAnnotations"))
    if common:
        _set_entries(resmap, trace, kust, "commonAnnotations", 0, "/commonAnnotations",
                     common, resmap.config.annotations)


def _set_entries(resmap: ResMap, trace: Trace | None, kust: Kustomization, name: str,
                 index: int, pointer: str, pairs: dict, specs: tuple) -> None:
    keys = sorted(pairs)

    def change(resource: Resource) -> None:
        gvk = resource.gvk
        for key in keys:
            added: list[tuple] = []
            for spec in specs:
                if spec.applies_to(gvk):
                    for parent, field, trail in fs.walk_paths(resource.value, spec):
                        _set_entry(resource, parent, field, trail, key, pairs[key], spec,
                                   added)
            aliases.share(resource, added)

    run(resmap, trace, kust, name, index, pointer, change)


def _set_entry(resource: Resource, parent: dict, field: str, trail: tuple, key: str,
               value: str, spec: fs.FieldSpec, added: list[tuple]) -> None:
    current = parent.get(field)
    if current is None:
        current = parent[field] = {}
    if not isinstance(current, dict):
        raise ProblemError(Kustomize("obj-at-path", field=spec.path,
                                     cause=Kustomize("not-a-mapping-node")),
                           code=KUSTOMIZE_ERROR)
    path = (*trail, key)
    value = kustomize_set(value)
    if key in current:
        current[key] = value
        aliases.written(resource, path, value)
    elif path not in added:
        written = plain_key(key)
        current[written] = value
        resource.typed_keys = resource.typed_keys or written is not key
        added.append(path)


def _string_map(value: Any) -> dict:
    if not isinstance(value, dict):
        return {}
    return {str(k): "" if v is None else str(v) for k, v in value.items()}


def _custom_specs(raw: Any) -> tuple[fs.FieldSpec, ...]:
    if not isinstance(raw, list):
        return ()
    out = []
    for item in raw:
        if isinstance(item, dict) and isinstance(item.get("path"), str):
            out.append(fs.FieldSpec(item["path"], str(item.get("kind") or ""),
                                    str(item.get("group") or ""),
                                    str(item.get("version") or ""), bool(item.get("create"))))
    return tuple(out)


# ----------------------------------------------------------------- replicas


def replicas(resmap: ResMap, trace: Trace | None, kust: Kustomization) -> None:
    specs = resmap.config.replicas
    for index, entry in enumerate(kust.get("replicas", [])):
        entry = entry if isinstance(entry, dict) else {}
        name = entry.get("name")
        if not isinstance(name, str):
            name = ""
        count = entry.get("count", 0)
        matched: list[Resource] = []
        for spec in specs:
            for resource in resmap.resources:
                if _named(resource, name, spec) and resource not in matched:
                    matched.append(resource)
        if not matched:
            ordered = sorted(specs, key=lambda s: fs.config_order(s, RANKS))
            gvks = " ".join(str(s.gvk) for s in ordered)
            raise ProblemError(Kustomize("replicas-unmatched", name=name, detail=gvks),
                               code=KUSTOMIZE_ERROR)

        def change(resource: Resource, count: Any = count, name: str = name) -> None:
            for spec in specs:  # every spec that selects it, at its own path
                if _named(resource, name, spec):
                    fs.walk(resource.value, spec, _count_setter(count), str)

        run(resmap, trace, kust, "replicas", index, f"/replicas/{index}", change, matched)


def _named(resource: Resource, name: str, spec: fs.FieldSpec) -> bool:
    """Whether the resource had ``name`` (now or before) with a type ``spec`` selects."""
    ids = [*resource.prev_ids(), resource.cur_id()]
    return any(i.name == name and i.gvk.selected_by(spec.gvk) for i in ids)


def _count_setter(count: Any) -> Callable[[dict, str], None]:
    def visit(parent: dict, key: str) -> None:
        parent[key] = count
    return visit
