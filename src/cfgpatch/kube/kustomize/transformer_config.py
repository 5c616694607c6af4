"""The transformer configuration: which fields each built-in transformer touches.

kustomize keeps one configuration per kustomization (its ``TransformerConfig``): the
defaults of :mod:`.fieldspecs`, the field specs of the ``crds:`` files (:mod:`.crds`)
and those of the ``configurations:`` files, merged upward from bases and components,
so an overlay's transformers use what a base configured.  A ``configurations:`` file
is YAML with any of these fields, each a list of field specs (``path``, ``kind``,
``group``, ``version``, ``create``), except ``nameReference``, a list of referred
types (``kind``, ``group``, ``version``) each with its ``fieldSpecs``::

    namePrefix nameSuffix namespace commonLabels templateLabels labels
    commonAnnotations nameReference varReference images replicas

Measured with kubectl kustomize 1.32 (tree ``configurations``):

* the custom specs are merged into the defaults (:func:`~.fieldspecs.merge_specs`),
  the lists sorted by type, and the result merged into the kustomization's
  configuration: a custom spec for one kind at a default path *narrows* the default to
  that kind (``commonLabels: [{path: metadata/labels, kind: App, create: true}]`` leaves
  every other kind without common labels), and a spec that disagrees on ``create`` with
  one it meets fails the build;
* ``labels`` specs are used by every ``labels:`` entry (not by ``commonLabels``),
  ``templateLabels`` by the entries with ``includeTemplates``;
* the file is decoded strictly (an unknown field fails), after go-yaml v2's reading;
* ``varReference`` adds fields where ``vars`` are replaced (:mod:`.variables`).

Not byte for byte: the error of a conflicting spec (kustomize prints its whole
configuration in Go's ``%v``; ours names the field alone).
"""

from __future__ import annotations

import math

from ...errors import KUSTOMIZE_ERROR, KubeError
from ...records import dataclass, field, fields, replace
from ..io.kyaml import KyamlError
from ..io.kyaml_read import read_first_document
from ..problems import Kustomize, ProblemError, cause
from . import fieldspecs as fs
from . import gotypes
from .fieldspecs import FieldSpec
from .gotypes import go_string
from .kustomization import Kustomization, v2_value
from .resources import ORDER_FIRST, ORDER_LAST, Gvk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_FS_SLICE = gotypes.Slice(gotypes.FIELD_SPEC, "types.FsSlice")
_NAME_BACK_REFERENCES = gotypes.Struct("NameBackReferences", {
    "group": gotypes.STRING, "version": gotypes.STRING, "kind": gotypes.STRING,
    "fieldSpecs": _FS_SLICE})
#: kustomize's ``builtinconfig.TransformerConfig``, as a configurations file is decoded.
TRANSFORMER_CONFIG = gotypes.Struct("TransformerConfig", {
    "namePrefix": _FS_SLICE, "nameSuffix": _FS_SLICE, "namespace": _FS_SLICE,
    "commonLabels": _FS_SLICE, "templateLabels": _FS_SLICE, "labels": _FS_SLICE,
    "commonAnnotations": _FS_SLICE,
    "nameReference": gotypes.Slice(_NAME_BACK_REFERENCES, "builtinconfig.nbrSlice"),
    "varReference": _FS_SLICE, "images": _FS_SLICE, "replicas": _FS_SLICE})

#: Field name in a configurations file -> attribute, and the name kustomize's merge
#: error gives it (``nameReference`` apart).
FIELDS = (("namePrefix", "prefix", "NamePrefix"), ("nameSuffix", "suffix", "NameSuffix"),
           ("namespace", "namespace", "NameSpace"),
           ("commonLabels", "common_labels", "CommonLabels"),
           ("templateLabels", "template_labels", "TemplateLabels"),
           ("labels", "labels", "Labels"),
           ("commonAnnotations", "annotations", "CommonAnnotations"),
           ("varReference", "var_references", "VarReference"),
           ("images", "images", "Images"), ("replicas", "replicas", "Replicas"))

RANKS = {kind: index - len(ORDER_FIRST) for index, kind in enumerate(ORDER_FIRST)}
RANKS.update({kind: index + 1 for index, kind in enumerate(ORDER_LAST)})

#: The default ``images`` specs (the transformer also visits every ``containers`` and
#: ``initContainers`` list anywhere, which covers them: see :mod:`.images`).
DEFAULT_IMAGES = (FieldSpec("spec/containers[]/image", create=True),
                  FieldSpec("spec/initContainers[]/image", create=True),
                  FieldSpec("spec/template/spec/containers[]/image", create=True),
                  FieldSpec("spec/template/spec/initContainers[]/image", create=True))


@dataclass
class TransformerConfig:
    """Field specs per transformer; ``references`` holds the name references added to
    the default table of :mod:`.nameref` (referred type, referring field)."""

    prefix: tuple[FieldSpec, ...] = ()
    suffix: tuple[FieldSpec, ...] = ()
    namespace: tuple[FieldSpec, ...] = ()
    common_labels: tuple[FieldSpec, ...] = ()
    template_labels: tuple[FieldSpec, ...] = ()
    labels: tuple[FieldSpec, ...] = ()
    annotations: tuple[FieldSpec, ...] = ()
    var_references: tuple[FieldSpec, ...] = ()
    images: tuple[FieldSpec, ...] = ()
    replicas: tuple[FieldSpec, ...] = ()
    references: list[tuple[Gvk, FieldSpec]] = field(default_factory=list)

    @classmethod
    def default(cls) -> TransformerConfig:
        """kustomize's built-in configuration (kubectl 1.32)."""
        name = (FieldSpec("metadata/name"),)
        return cls(prefix=name, suffix=name, namespace=fs.NAMESPACE,
                   common_labels=fs.COMMON_LABELS, template_labels=fs.METADATA_LABELS,
                   annotations=fs.ANNOTATIONS, var_references=fs.VAR_REFERENCES,
                   images=DEFAULT_IMAGES, replicas=fs.REPLICAS)

    def merge(self, other: TransformerConfig) -> TransformerConfig:
        """kustomize's ``Merge``: ``other``'s specs merged into these (see
        :func:`~.fieldspecs.merge_specs`), then each list sorted by type
        (:func:`~.fieldspecs.config_order`; kustomize's sort is not stable, ours is).

        The sort is what makes a custom spec narrow a default: ``App`` sorts before
        the kind-less default, so when the sorted list is merged again (into the
        kustomization's configuration) the default meets the ``App`` spec already
        there and is dropped."""
        merged = replace(self, references=[*self.references])
        for _key, attr, label in FIELDS:
            try:
                specs = fs.merge_specs(getattr(self, attr), getattr(other, attr))
            except KubeError as err:
                raise ProblemError(Kustomize("merging-field-specs", name=label, cause=cause(err)),
                                   code=KUSTOMIZE_ERROR) from None
            setattr(merged, attr, tuple(sorted(specs, key=_order)))
        merged.references.extend(r for r in other.references if r not in merged.references)
        return merged

    def __bool__(self) -> bool:
        """Whether it holds any spec (an empty configuration file configures nothing)."""
        return any(getattr(self, f.name) for f in fields(self))


#: Each field spec's place in a sorted configuration (a build merges the defaults into
#: every kustomization's configuration: the same specs sorted again and again).
_ORDERS: dict[FieldSpec, tuple] = {}


def _order(spec: FieldSpec) -> tuple:
    found = _ORDERS.get(spec)
    if found is None:
        if len(_ORDERS) > 20_000:
            _ORDERS.clear()
        found = _ORDERS[spec] = fs.config_order(spec, RANKS)
    return found


def load_configurations(kust: Kustomization) -> TransformerConfig | None:
    """The configuration of ``kust``'s ``configurations:`` files merged with the
    defaults (None without the field): kustomize's ``MakeTransformerConfig``."""
    paths = kust.get("configurations") or []
    if not paths:
        return None
    custom = TransformerConfig()
    for path in paths:
        text, real = kust.loader.read(str(path))  # its errors are kustomize's, unwrapped
        custom = custom.merge(parse(text, real))
    return TransformerConfig.default().merge(custom)


def merged_into(config: TransformerConfig, other: TransformerConfig) -> TransformerConfig:
    """``other`` (a kustomization's configuration) merged into the configuration
    accumulated so far; kustomize's error prints ``other`` whole (Go's ``%v``), which
    is not reproduced."""
    try:
        return config.merge(other)
    except KubeError as err:
        raise ProblemError(Kustomize("merging-config", cause=cause(err)),
                           code=KUSTOMIZE_ERROR) from None


def parse(text: str, file: str) -> TransformerConfig:
    """One configurations file, read as sigs.k8s.io/yaml reads it (go-yaml v2, then a
    strict decode into ``TransformerConfig``)."""
    try:
        node = read_first_document(text, file)
    except KyamlError as err:
        raise ProblemError(Kustomize("converting-yaml", cause=cause(err)),
                           code=KUSTOMIZE_ERROR) from None
    value = v2_value(node) if node is not None else None
    if value is None:
        return TransformerConfig()
    _paths_as_text(value)
    try:
        value = gotypes.decode(value, TRANSFORMER_CONFIG)
    except gotypes.GoDecodeError as err:
        raise ProblemError(Kustomize("unmarshaling-json", cause=err.problem),
                           code=KUSTOMIZE_ERROR) from None
    config = TransformerConfig()
    for key, attr, _label in FIELDS:  # sorted as read (kustomize's sortFields)
        specs = (field_spec(item) for item in value.get(key) or [])
        setattr(config, attr, tuple(sorted(specs, key=_order)))
    for entry in value.get("nameReference") or []:
        referral = Gvk(go_string(entry.get("group")), go_string(entry.get("version")),
                       go_string(entry.get("kind")))
        config.references.extend((referral, field_spec(item))
                                 for item in entry.get("fieldSpecs") or [])
    return config


def narrowed_defaults(custom: TransformerConfig) -> list[tuple[str, FieldSpec, FieldSpec]]:
    """The default specs a configuration drops, each as (field name, the default, the
    custom spec that takes its place): a spec with the default's path and a type the
    default selects sorts before it, so it is kept and the default is not (see
    :meth:`TransformerConfig.merge`).  Empty when the configuration does not merge."""
    if not custom:
        return []  # the defaults merged with nothing: none dropped
    defaults = TransformerConfig.default()
    try:
        before = merged_into(TransformerConfig(), defaults.merge(TransformerConfig()))
        after = merged_into(TransformerConfig(), defaults.merge(custom))
    except KubeError:
        return []
    out = []
    for key, attr, _label in FIELDS:
        kept = getattr(after, attr)
        for spec in getattr(before, attr):
            if spec in kept:
                continue
            culprit = next((c for c in getattr(custom, attr) if c.path == spec.path
                            and c.gvk.selected_by(spec.gvk) and c in kept), None)
            if culprit is not None:
                out.append((key, spec, culprit))
    return out


def _paths_as_text(value: Any) -> None:
    """sigs.k8s.io/yaml writes a number or a boolean as text where the Go field is a
    string, but it finds only the struct's own fields: a field spec's ``path`` (its
    ``kind``, ``group`` and ``version`` come from an embedded struct and stay numbers,
    which the decoding refuses; measured)."""
    if not isinstance(value, dict):
        return
    for key, items in value.items():
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            specs = item.get("fieldSpecs") if key == "nameReference" else [item]
            for spec in specs if isinstance(specs, list) else []:
                if isinstance(spec, dict) and "path" in spec:
                    spec["path"] = _scalar_text(spec["path"])


def _scalar_text(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float32_text(value)
    return value


def go_float32_text(value: float) -> str:
    """Go's ``strconv.FormatFloat(value, 'g', -1, 32)``: the shortest digits that read
    back as the same float32, with an exponent below 1e-4 and from 1e6.

    >>> [go_float32_text(x) for x in (1.5, 0.1, 123456789.0, 1e6, 123456.0, 1e-7, -2.0)]
    ['1.5', '0.1', '1.2345679e+08', '1e+06', '123456', '1e-07', '-2']
    """
    if math.isnan(value):
        return "NaN"
    import struct

    try:
        single = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        single = math.inf if value > 0 else -math.inf
    if math.isinf(single):
        return "+Inf" if single > 0 else "-Inf"
    if single == 0:
        return "-0" if math.copysign(1, single) < 0 else "0"
    for precision in range(9):
        text = f"{abs(single):.{precision}e}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == abs(single):
            break
    mantissa, exponent_text = text.split("e")
    digits = mantissa.replace(".", "").rstrip("0") or "0"
    exponent = int(exponent_text)
    sign = "-" if single < 0 else ""
    if exponent < -4 or exponent >= 6:
        tail = "." + digits[1:] if len(digits) > 1 else ""
        return f"{sign}{digits[0]}{tail}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    if exponent < 0:
        return f"{sign}0.{'0' * (-exponent - 1)}{digits}"
    whole, fraction = digits[:exponent + 1].ljust(exponent + 1, "0"), digits[exponent + 1:]
    return f"{sign}{whole}.{fraction}" if fraction else f"{sign}{whole}"


def field_spec(item: Any) -> FieldSpec:
    item = item if isinstance(item, dict) else {}
    return FieldSpec(go_string(item.get("path")), go_string(item.get("kind")),
                     go_string(item.get("group")), go_string(item.get("version")),
                     bool(item.get("create")))




__all__ = ["DEFAULT_IMAGES", "FIELDS", "RANKS", "TRANSFORMER_CONFIG", "TransformerConfig",
           "field_spec", "go_float32_text", "load_configurations", "merged_into",
           "narrowed_defaults", "parse"]
