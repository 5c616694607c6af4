"""A kustomization's patches applied to its resources, in kustomize's order.

The adapter between lint's rules and a build: :class:`Builder` runs a kustomization
(``patchesStrategicMerge``, then ``patches``, then the namespace and name
prefix/suffix, then ``patchesJson6902``, after the components' own pipelines, as
``kubectl kustomize`` orders them) and, for the unit being linted, records every
patch application in an :class:`~cfgpatch.lint.model.Outcome`.  Bases are built once
per run (memoised) and copied where they are used.

The resources come from lint's own resolution (``lint.resolve``); each patch is
applied by ``lint.patching`` (:func:`~cfgpatch.lint.patching.apply_site`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import KubeError
from ..kube.kustomize.kustomization import sort_options_error
from ..kube.kustomize.openapi import SchemaState
from ..kube.kustomize.plainkeys import check_annotation_keys, typed_key
from .finding import Location
from .model import Outcome, PatchSite
from .patching import apply_site, selected
from .resolve import (
    Kustomization,
    ResolveError,
    Resolver,
    Resource,
    find_kustomization,
    join,
    read_kustomization,
    set_schema,
    transform_names,
)
from .selectors import describe
from .sites import DeclaredSite, kustomization_sites

_BEFORE_NAMES = ("patchesStrategicMerge", "patches")


class Builder:
    """Builds kustomizations over ``files`` (repository-relative POSIX paths)."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files = files
        self.resolver = Resolver(files, self.base)
        #: by (directory, schema state on entry): resources, incomplete, state after
        self._built: dict[tuple, tuple[list[Resource], list[str], SchemaState]] = {}
        self._incomplete: dict[str, list[str]] = {}
        self._read: dict[str, Kustomization] = {}

    @property
    def state(self) -> SchemaState | None:
        """The schema of the build in progress (None between builds)."""
        return self.resolver.state

    @state.setter
    def state(self, value: SchemaState | None) -> None:
        self.resolver.state = value

    # --- bases ------------------------------------------------------------------------

    def base(self, directory: str, stack: tuple[str, ...] = ()) -> list[Resource]:
        """The resources of the kustomization in ``directory``, fully built (copies).
        A build of its own when no build is in progress (``stack`` empty)."""
        path = find_kustomization(self.files, directory)
        if path is None:
            raise ResolveError(f"unable to find one of 'kustomization.yaml', "
                               f"'kustomization.yml' or 'Kustomization' in directory "
                               f"'{directory}'", Location(directory or "."))
        if path not in self._read:
            self._read[path] = read_kustomization(self.files, path)
        kustomization = self._read[path]
        if self.state is None or not stack:
            return [r.copy() for r in self._top(kustomization, (*stack, directory))]
        set_schema(self.state, kustomization, self.files, reset=False)
        key = (directory, self.state.key())
        if key not in self._built:
            incomplete: list[str] = []
            built = self.run(kustomization, (*stack, directory), None, incomplete)
            self._built[key] = (built, incomplete, self.state.copy())
        built, incomplete, after = self._built[key]
        self._incomplete[directory] = incomplete
        self.state = after.copy()
        return [resource.copy() for resource in built]

    def _top(self, kustomization: Kustomization, stack: tuple[str, ...],
             outcome: Outcome | None = None, incomplete: list[str] | None = None,
             extra: tuple[list[PatchSite], Outcome] | None = None) -> list[Resource]:
        """A whole build of ``kustomization``, with its own schema (kyaml's: the top
        kustomization's ``openapi:`` first)."""
        outer = self.state
        self.state = SchemaState()
        try:
            set_schema(self.state, kustomization, self.files, reset=True)
            built = self.run(kustomization, stack, outcome,
                             [] if incomplete is None else incomplete, extra)
        finally:
            self.state = outer
        refuse_duplicate_keys(built)
        _check_annotation_keys(built, kustomization)
        refused = sort_options_error(kustomization.value.get("sortOptions"))
        if refused is not None:  # kube build's check of the output order
            raise ResolveError(refused, kustomization.location(["sortOptions"]))
        return built

    def build_top(self, kustomization: Kustomization, stack: tuple[str, ...],
                  outcome: Outcome | None, incomplete: list[str],
                  extra: tuple[list[PatchSite], Outcome] | None = None) -> list[Resource]:
        """:meth:`run` as a build of its own (the unit being linted)."""
        return self._top(kustomization, stack, outcome, incomplete, extra)

    def incomplete_of(self, directory: str) -> list[str]:
        return self._incomplete.get(directory, [])

    # --- a kustomization --------------------------------------------------------------

    def run(self, kustomization: Kustomization, stack: tuple[str, ...],
            outcome: Outcome | None, incomplete: list[str],
            extra: tuple[list[PatchSite], Outcome] | None = None) -> list[Resource]:
        """The resources of ``kustomization`` after its pipeline; applications of its
        patches (and its components') go to ``outcome`` when one is given.  ``extra``:
        patches appended to its ``patches`` (a Flux Kustomization's ``spec.patches``) and
        the outcome their applications go to."""
        layer = self.resolver.layer(kustomization, stack)
        incomplete += layer.incomplete
        for key in ("resources", "bases"):
            for entry in kustomization.value.get(key) or []:
                if isinstance(entry, str):
                    incomplete += self.incomplete_of(join(kustomization.directory, entry))
        resources = layer.resources
        for index, entry in enumerate(kustomization.value.get("components") or []):
            self._component(kustomization, index, entry, resources, stack, outcome,
                            incomplete)
        self.pipeline(kustomization, resources, outcome, extra)
        return resources

    def _component(self, parent: Kustomization, index: int, entry: Any,
                   resources: list[Resource], stack: tuple[str, ...],
                   outcome: Outcome | None, incomplete: list[str]) -> None:
        where = parent.location(["components", index])
        if not isinstance(entry, str):
            raise ResolveError(f"components[{index}] is not a string", where)
        directory = join(parent.directory, entry)
        path = find_kustomization(self.files, directory)
        if path is None:
            raise ResolveError(f"accumulating components: accumulation err='accumulating "
                               f"components from '{entry}': unable to find one of "
                               f"'kustomization.yaml', 'kustomization.yml' or "
                               f"'Kustomization' in directory '{directory}'", where)
        component = read_kustomization(self.files, path)
        if self.state is not None:
            set_schema(self.state, component, self.files, reset=False)
        if not component.is_component:
            raise ResolveError(f"accumulating components: expected kind 'Component' for path "
                               f"'{directory}' but got "
                               f"'{component.value.get('kind', 'Kustomization')}'", where)
        layer = self.resolver.layer(component, (*stack, directory))
        incomplete += layer.incomplete
        resources += layer.resources
        self.pipeline(component, resources, outcome)

    def pipeline(self, kustomization: Kustomization, resources: list[Resource],
                 outcome: Outcome | None,
                 extra: tuple[list[PatchSite], Outcome] | None = None) -> None:
        """The kustomization's patches and name transformers over ``resources``."""
        declared = kustomization_sites(kustomization.path,
                                       self.files[kustomization.path], self.files)
        if outcome is not None:
            outcome.sites += [d.site for d in declared]
        for field in _BEFORE_NAMES:
            self._apply_all([d for d in declared if d.field == field], resources, outcome)
        if extra is not None:
            for site in extra[0]:
                apply_site(site, resources, extra[1], self.state)
        transform_names(kustomization, resources)
        self._apply_all([d for d in declared if d.field == "patchesJson6902"], resources,
                        outcome)
        check_replicas(kustomization, resources)
        check_written_keys(kustomization, resources)

    def _apply_all(self, declared: list[DeclaredSite], resources: list[Resource],
                   outcome: Outcome | None) -> None:
        for item in declared:
            apply_site(item.site, resources, outcome, self.state)


def refuse_duplicate_keys(resources: list[Resource]) -> None:
    """kustomize's error at the end of a build for a resource whose file wrote a key
    twice (the first such resource in the file order; kustomize's is its output order)."""
    for resource in resources:
        if resource.duplicates:
            raise ResolveError(resource.duplicates, Location(resource.origin))


def check_replicas(kustomization: Kustomization, resources: list[Resource]) -> None:
    """kustomize refuses a ``replicas`` entry whose name is only on kinds without replicas."""
    for index, entry in enumerate(kustomization.value.get("replicas") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        named = [r for r in resources if entry["name"] in (
            r.obj.get("metadata", {}).get("name"), *r.previous)]
        if named and not any(r.obj.get("kind") in _SCALABLE for r in named):
            raise ResolveError(
                f"resource with name {entry['name']} does not match a config with the "
                f"following GVK [Deployment.v1.apps ReplicationController.v1.[noGrp] "
                f"ReplicaSet.v1.apps StatefulSet.v1.apps]",
                kustomization.location(["replicas", index]))


_SCALABLE = frozenset({"Deployment", "ReplicationController", "ReplicaSet", "StatefulSet"})


def lint_kustomization(builder: Builder, path: str) -> Outcome:
    """The outcome of the kustomization file at ``path``: its patches' applications, or
    the build failure."""
    outcome = Outcome("kustomization", path)
    incomplete: list[str] = []
    try:
        kustomization = read_kustomization(builder.files, path)
        builder.build_top(kustomization, (kustomization.directory,), outcome, incomplete)
    except ResolveError as exc:
        outcome.error = exc.message
        outcome.error_location = exc.location
    outcome.incomplete = incomplete
    return outcome


__all__ = ["Builder", "apply_site", "describe", "lint_kustomization", "selected"]


def _check_annotation_keys(resources: list[Resource], kustomization: Kustomization) -> None:
    """kube build's check of the annotation keys at the end of a build."""
    for resource in resources:
        try:
            check_annotation_keys(resource.obj)
        except KubeError as exc:
            raise ResolveError(exc.message, kustomization.location([])) from None


def check_written_keys(kustomization: Kustomization, resources: list[Resource]) -> None:
    """Keys kustomize writes plain (kube build's ``plainkeys``: ``commonAnnotations``,
    ``commonLabels`` and ``labels`` keys once a resource carries them, the keys of
    generated literals and generator labels and annotations) that read as no string fail
    kube build at output.  Lint sets none of them: it checks the keys (not those of
    generator ``files``/``envs``, which it does not read)."""
    for field, keys in _written_keys(kustomization, bool(resources)):
        bad = [key for key in keys if type(typed_key(key)) is not str
               and not (field in _LABELS and _carried(key, resources))]
        if bad:
            raise ResolveError(f"{field}: the key {bad[0]!r} reads as no string: "
                               "json: unsupported type: map[interface {}]interface {}",
                               kustomization.location([field]))


_LABELS = ("commonLabels", "labels")


def _carried(key: str, resources: list[Resource]) -> bool:
    """Does every resource carry label ``key`` already (kustomize keeps that key's own
    style)?  Lint looks at ``metadata.labels`` only (not selectors or templates)."""
    for resource in resources:
        meta = resource.obj.get("metadata")
        labels = meta.get("labels") if isinstance(meta, dict) else None
        if not isinstance(labels, dict) or key not in labels:
            return False
    return True


def _written_keys(kustomization: Kustomization, any_resource: bool
                  ) -> list[tuple[str, list[str]]]:
    value = kustomization.value
    out: list[tuple[str, list[str]]] = []
    if any_resource:
        out += [(field, _keys(value.get(field))) for field in ("commonAnnotations",
                                                                "commonLabels")]
        out += [("labels", _keys(entry.get("pairs"))) for entry in value.get("labels") or []
                if isinstance(entry, dict)]
    generators = [entry for field in ("configMapGenerator", "secretGenerator")
                  for entry in value.get(field) or [] if isinstance(entry, dict)]
    for entry in generators:
        literals = [item.split("=", 1)[0] for item in entry.get("literals") or []
                    if isinstance(item, str) and "=" in item]
        options = entry.get("options")
        if not isinstance(options, dict):
            options = {}
        out += [(_generator_field(entry, value), literals + _option_keys(options))]
    if generators:
        common = value.get("generatorOptions")
        out.append(("generatorOptions", _option_keys(common if isinstance(common, dict)
                                                     else {})))
    return out


def _generator_field(entry: dict, value: dict) -> str:
    return "configMapGenerator" if entry in (value.get("configMapGenerator") or []) \
        else "secretGenerator"


def _option_keys(options: dict) -> list[str]:
    return _keys(options.get("labels")) + _keys(options.get("annotations"))


def _keys(mapping: Any) -> list[str]:
    return [str(key) for key in mapping] if isinstance(mapping, dict) else []
