"""Reading a kustomization file as kustomize v5.5 reads it.

:func:`load` finds the kustomization file of a directory, decodes it into kustomize's Go types
(:mod:`.gotypes`: unknown fields are kustomize's ``invalid Kustomization: json: unknown
field "..."``, values of the wrong type Go's ``json: cannot unmarshal ...``, at any
depth), collects kustomize's deprecation
warnings (printed on standard error, in kustomize's order), checks ``kind`` and
``apiVersion``, and moves the deprecated fields where kustomize moves them
(``bases`` after ``resources``, ``imageTags`` after ``images``).

Fields that ``kube build`` does not model are refused with ``KUSTOMIZE_UNMODELLED``,
naming the field and the file: a build without them would silently differ.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from ...records import dataclass, field
from ..go import json as gojson
from ..go import yaml as goyaml
from ..io.kyaml import (
    BOOL,
    FLOAT,
    INT,
    MAPPING,
    NULL,
    PLAIN,
    SEQUENCE,
    STR,
    TIMESTAMP,
    KyamlError,
    Node,
)
from ..io.kyaml_merge import alias_occurrences, is_merge_key
from ..io.kyaml_read import read_first_document
from ..io.kyaml_scalars import go_syntax, node_value, typed_map
from ..problems import Kustomize, ProblemError, Unmarshal, YamlValue, cause, words
from . import gotypes
from .loader import Loader
from .positions import node_positions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KUSTOMIZATION = "Kustomization"
COMPONENT = "Component"
VERSIONS = {KUSTOMIZATION: "kustomize.config.k8s.io/v1beta1",
            COMPONENT: "kustomize.config.k8s.io/v1alpha1"}

#: Every field of kustomize's Kustomization type (:mod:`.gotypes` has their Go types).
FIELDS: tuple[str, ...] = tuple(gotypes.KUSTOMIZATION.fields or ())

#: Fields ``kube build`` refuses, with what they are.
UNMODELLED: dict[str, str] = {}
#: The ``buildMetadata`` options ``kube build`` models at the top kustomization (below
#: it, measured, no option has any effect).
MANAGED_BY_LABEL = "managedByLabel"
ORIGIN_ANNOTATIONS = "originAnnotations"
TRANSFORMER_ANNOTATIONS = "transformerAnnotations"
#: The annotation ``originAnnotations`` adds: where each resource came from.
ORIGIN = "config.kubernetes.io/origin"
#: The label it adds, with the version kubectl's kustomize reports (measured).
MANAGED_BY = ("app.kubernetes.io/managed-by", "kustomize-(devel)")

#: The deprecated fields kustomize warns about, in its order (its words:
#: ``compat.kustomize``, code ``deprecated-field``).
_DEPRECATED = ("bases", "commonLabels", "imageTags", "patchesJson6902",
               "patchesStrategicMerge", "vars")


@dataclass
class Kustomization:
    """One kustomization (or component) file, decoded."""

    loader: Loader
    file: str
    value: dict
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    node: Any = None
    warnings: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.value.get("kind") or KUSTOMIZATION

    @property
    def is_component(self) -> bool:
        return self.kind == COMPONENT

    def get(self, name: str, default: Any = None) -> Any:
        found = self.value.get(name)
        return default if found is None else found

    def line(self, pointer: str) -> int:
        """The line of ``pointer`` in the file (0 when unknown)."""
        return self.positions.get(pointer, (0, 0))[0]

    def where(self, pointer: str) -> str:
        """``file:line`` of ``pointer``, for messages."""
        line = self.line(pointer)
        return f"{self.file}:{line}" if line else self.file


def load(loader: Loader) -> Kustomization:
    """The kustomization of ``loader``'s directory (see the module docstring)."""
    path = loader.kustomization_file()
    text, path = loader.read(path)
    try:  # kustomize reads the first document only (go-yaml v2's Unmarshal)
        node = read_first_document(text, path)
    except KyamlError as err:
        raise _invalid(cause(err)) from None
    value = v2_value(node) if node is not None else {}
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise _invalid(Unmarshal(gotypes.json_kind(value), "types.Kustomization"))
    value = check_fields(value)
    found = Kustomization(loader, path, value, node_positions(node) if node else {}, node)
    found.warnings = [words(Kustomize("deprecated-field", name=name)) for name in _DEPRECATED
                      if name in value and value[name] is not None]
    _enforce(found, loader)
    if is_empty(value):
        raise ProblemError(Kustomize("empty-kustomization"), code=KUSTOMIZE_ERROR)
    _refuse_unmodelled(found)
    _fix(found)
    return found


def _invalid(problem: Any) -> ProblemError:
    """kustomize's ``invalid Kustomization`` around ``problem``."""
    return ProblemError(Kustomize("invalid-kustomization", cause=problem), code=KUSTOMIZE_ERROR)


def is_empty(value: dict) -> bool:
    """Is a decoded kustomization empty as kustomize sees it (every field but
    ``apiVersion`` and ``kind`` at Go's zero value)?"""
    return all(_zero(item) for key, item in value.items() if key not in ("apiVersion", "kind"))


def _zero(value: Any) -> bool:
    """Go's zero value of a kustomization field (measured: a field that is null, "" or
    absent leaves the kustomization empty; an empty list or map does not)."""
    return value is None or value == "" or value is False or (type(value) is int and value == 0)


def v2_value(node: Node) -> Any:
    """The value of a kustomization node as kustomize decodes it: through
    sigs.k8s.io/yaml, so with go-yaml v2's scalars (``n``, ``on``, ``yes`` are booleans).

    >>> from cfgpatch.kube.io.kyaml_read import read_document
    >>> v2_value(read_document("{namespace: n, namePrefix: 'on'}"))
    {'namespace': False, 'namePrefix': 'on'}
    """
    return _v2(node, alias_occurrences(node))


def _v2(node: Node, aliases: set[tuple[int, int]]) -> Any:
    if node.kind == MAPPING:
        out: dict = {}
        for index, (key, value) in enumerate(node.pairs()):
            if is_merge_key(key):
                alias = (id(node), 2 * index + 1) in aliases
                for source in reversed(_v2_sources(value, alias)):  # the first map wins
                    out.update(_v2(source, aliases))
            else:
                out[_json_key(_v2(key, aliases), value)] = _v2(value, aliases)
        return out
    if node.kind == SEQUENCE:
        return [_v2(item, aliases) for item in node.content]
    if node.style == PLAIN and node.tag in _IMPLICIT:
        resolved = goyaml.resolve_plain(node.value)
        return node.value if resolved is goyaml.STR else resolved
    return node_value(node)


_IMPLICIT = (STR, INT, FLOAT, BOOL, NULL, TIMESTAMP)


def _v2_sources(value: Node, alias: bool) -> list[Node]:
    """The maps a merge key brings in, as go-yaml v2 takes them: a later member (merged
    or written) overwrites an earlier one; an alias must name a map (measured with
    kubectl kustomize 1.32)."""
    items = value.content if value.kind == SEQUENCE and not alias else [value]
    if any(item.kind != MAPPING for item in items):
        raise _invalid(YamlValue("merge-not-map", None))
    return items


def _v2_maps(value: Any) -> Any:
    """``value`` with go-yaml v2's map type (``map[interface {}]interface {}``)."""
    if isinstance(value, dict):
        return typed_map([(key, _v2_maps(item)) for key, item in value.items()])
    if isinstance(value, list):
        return [_v2_maps(item) for item in value]
    return value


def _json_key(key: Any, value: Node) -> str:
    """A go-yaml v2 map key as sigs.k8s.io/yaml writes it in JSON (``on`` is ``"true"``,
    ``1e3`` is ``"1000"``, ``1e6`` is ``"1e+06"``; a null key is its error)."""
    if key is None:
        raise _invalid(YamlValue("map-key-nil", go_syntax(_v2_maps(v2_value(value)))))
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, float):
        return gojson.go_float_g(key)
    return str(key)


def check_fields(value: dict) -> dict:
    """``value`` decoded into kustomize's Go types (:func:`.gotypes.decode`; its field
    names as kustomize spells them), or kustomize's ``invalid Kustomization`` error."""
    try:
        return gotypes.decode(value)
    except gotypes.GoDecodeError as err:
        raise _invalid(err.problem) from None


def _enforce(found: Kustomization, loader: Loader) -> None:
    kind = found.value.get("kind") or ""
    api = found.value.get("apiVersion") or ""
    bad_kind = bool(kind) and kind not in (KUSTOMIZATION, COMPONENT)
    required = VERSIONS[COMPONENT] if kind == COMPONENT else VERSIONS[KUSTOMIZATION]
    bad_api = bool(api) and api != required
    if bad_kind or bad_api:
        # detail: (whether the kind is wrong, the apiVersion it needs when that is wrong)
        raise ProblemError(Kustomize("kind-or-api-version", path=loader.root, name=kind,
                                     detail=(bad_kind, required if bad_api else None)),
                           code=KUSTOMIZE_ERROR)


def _refuse_unmodelled(found: Kustomization) -> None:
    for name, what in UNMODELLED.items():
        value = found.value.get(name)
        if isinstance(value, list) and all(item == "" for item in value):
            continue  # empty plugin entries (null in the file) run nothing: measured
        if value:
            raise KubeError(f"{found.where('/' + name)}: '{name}' ({what}) is not modelled "
                            f"by cfgpatch kube build", code=KUSTOMIZE_UNMODELLED,
                            hint="build this tree with kubectl kustomize")


def _fix(found: Kustomization) -> None:
    value = found.value
    value["resources"] = [*(value.get("resources") or []), *(value.get("bases") or [])]
    value["images"] = [*(value.get("images") or []), *(value.get("imageTags") or [])]
    _fix_helm_args(value)


#: kustomize's HelmChart fields for the deprecated HelmChartArgs ones it carries over
#: (the others, ``releaseNamespace``, ``extraArgs``, ``helmBin``, ``chartRepoName``, are
#: dropped as kustomize drops them)
_HELM_ARGS = {"chartName": "name", "chartVersion": "version", "chartRepoUrl": "repo",
              "values": "valuesFile", "valuesLocal": "valuesInline",
              "valuesMerge": "valuesMerge", "releaseName": "releaseName"}


def _fix_helm_args(value: dict) -> None:
    """The deprecated ``helmChartInflationGenerator`` entries become ``helmCharts`` after
    the given ones, and their last ``helmHome``/``chartHome`` the ``helmGlobals`` when
    none are given (kustomize's ``FixKustomization``)."""
    old = value.get("helmChartInflationGenerator")
    if not isinstance(old, list) or not old:
        return
    charts, globals_ = [], {}
    for args in old:
        args = args if isinstance(args, dict) else {}
        charts.append({new: args[key] for key, new in _HELM_ARGS.items()
                       if args.get(key) not in (None, "", {})})
        if args.get("helmHome"):
            globals_["configHome"] = args["helmHome"]
        if args.get("chartHome"):
            globals_["chartHome"] = args["chartHome"]
    if value.get("helmGlobals") is None and globals_:
        value["helmGlobals"] = globals_
    value["helmCharts"] = [*(value.get("helmCharts") or []), *charts]


def sort_options_error(options: Any) -> Kustomize | None:
    """What kustomize refuses in the top kustomization's ``sortOptions`` (None: valid or
    absent).  ``order`` must be ``fifo`` or ``legacy`` as written, and ``fifo`` takes no
    ``legacySortOptions``, even ``{}`` (measured, tree ``sort-options``)."""
    if not isinstance(options, dict):
        return None
    order = options.get("order")
    if order not in ("fifo", "legacy"):
        return Kustomize("sort-order")
    if order == "fifo" and options.get("legacySortOptions") is not None:
        return Kustomize("legacy-sort-with-fifo")
    return None
