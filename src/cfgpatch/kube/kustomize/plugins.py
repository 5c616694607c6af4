"""kustomize's built-in plugins given as configuration (``generators:``,
``transformers:``, ``validators:`` entries).

An entry is either the configuration itself, written inline (YAML), or a path: a file
of configurations or a kustomization directory whose build yields them (the build is
:class:`~.build._Target`'s, with its errors).  kustomize takes the inline ones first,
then the paths, in the order written.  A configuration whose ``apiVersion`` is
``builtin`` names one of kustomize's built-in plugins by its ``kind``; any other is an
external plugin, which ``kubectl kustomize`` refuses (``external plugins disabled``).

Each built-in plugin is configured from the configuration (sigs.k8s.io/yaml's decoding:
unknown fields are ignored) and run on the field specs the configuration gives (no
defaults: a plugin without ``fieldSpecs`` touches nothing, and the prefix and suffix
transformers refuse one).  :func:`prepare` configures (errors are kustomize's ``plugin
<id> fails configuration: ...``), the returned callable runs.  The implementations are
the kustomization's own transformers and generators (a kustomization field is the same
plugin, configured by kustomize from the field).
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from ...records import replace
from ..go import json as gojson
from ..io.kyaml_write import write_value
from ..problems import Kustomize, ProblemError, cause
from . import generators, transformers
from .kustomization import ORIGIN, Kustomization
from .resmap import ResMap
from .resources import Resource, annotate_origin, read_resources, record_transformation
from .styles import plain

# patches, replacements, images and partial are imported where a plugin needs them: a
# folder whose transformers: are labels or annotations starts without the patch code
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .openapi import SchemaState
    from .trace import Trace

    #: A configured plugin: runs on the resources accumulated so far.
    Plugin = Callable[[ResMap], None]

#: Built-in kinds kustomize knows (v5.5.0) that ``kube build`` does not run.
_UNMODELLED: set[str] = set()
_GENERATORS = {"ConfigMapGenerator", "SecretGenerator", "IAMPolicyGenerator",
               "HelmChartInflationGenerator"}
_TRANSFORMERS = {"AnnotationsTransformer", "HashTransformer", "ImageTagTransformer",
                 "LabelTransformer", "NamespaceTransformer", "PatchJson6902Transformer",
                 "PatchStrategicMergeTransformer", "PatchTransformer",
                 "PrefixSuffixTransformer", "PrefixTransformer", "SuffixTransformer",
                 "ReplacementTransformer", "ReplicaCountTransformer", "ValueAddTransformer"}


def configured(kust: Kustomization, field_name: str,
               accumulate: Callable[[Kustomization, ResMap], ResMap], origin: str | None,
               trace: Trace | None, state: SchemaState, helm_options: Any) -> list[Plugin]:
    """The plugins ``kust``'s ``field_name`` entries configure: inline configurations,
    then those the paths yield through ``accumulate`` (the build's resource
    accumulation); ``origin``: the kustomization file as origins name it, with a
    ``buildMetadata`` option at the top."""
    entries = kust.get(field_name) or []
    if not entries:
        return []
    generator = field_name == "generators"
    inline, paths = split_entries(entries, kust.file)
    if origin is not None:
        for config in inline:
            annotate_origin(config, {"path": origin})
    configs = ResMap()
    try:
        configs.append_all(inline)
        configs = accumulate(Kustomization(kust.loader, kust.file, {"resources": paths}, {}),
                             configs)
    except KubeError as err:
        raise _prefixed("loading-generator-plugins" if generator else "", err) from None
    out: list[Plugin] = []
    for config in configs.resources:
        try:
            out.append(prepare(config, kust, trace, state, generator, origin is not None,
                               helm_options))
        except KubeError as err:
            from . import partial

            if partial.skip_error(kust.where(f"/{field_name}"), plugin_id(config), err):
                continue  # a partial build: a plugin that cannot run here is reported
            raise _prefixed("failed-to-load-generator" if generator else "", err) from None
    return out


def _prefixed(step: str, err: KubeError) -> KubeError:
    """``err`` within kustomize's ``step`` (a code of :class:`Kustomize`; none: as it is)."""
    if err.code == KUSTOMIZE_UNMODELLED or not step:
        return err
    return ProblemError(Kustomize(step, cause=cause(err)), code=err.code, hint=err.hint)


def split_entries(entries: list, file: str) -> tuple[list[Resource], list[str]]:
    """The inline configurations of a plugin field and its paths, as kustomize splits
    them (an entry that reads as resources is inline)."""
    inline: list[Resource] = []
    paths: list[str] = []
    for entry in entries:
        text = "" if entry is None else str(entry)
        if not text:
            continue  # empty entries run nothing (measured)
        found = _inline(text, file)
        if found is None:
            paths.append(text)
        else:
            inline.extend(found)
    return inline, paths


def _inline(text: str, file: str) -> list[Resource] | None:
    if "\n" not in text and ":" not in text:
        return None
    try:
        found = read_resources(text, file)
    except KubeError:
        return None
    return found or None


def plugin_id(config: Resource) -> str:
    """kustomize's spelling of a configuration's original id in its messages."""
    return str(config.org_id())


def prepare(config: Resource, kust: Kustomization, trace: Trace | None, state: SchemaState,
            generator: bool, tracked: bool = False, helm_options: Any = None) -> Plugin:
    """The plugin ``config`` configures (kustomize's errors when it cannot be).

    ``tracked``: with a ``buildMetadata`` option at the top, generated resources name
    the configuration as their origin and transformers are recorded on every resource
    (as from the file the configuration came from)."""
    gvk = config.gvk
    if gvk.group or gvk.version != "builtin":
        raise ProblemError(Kustomize("external-plugin", name=gvk.kind), code=KUSTOMIZE_ERROR)
    kind = gvk.kind
    if kind not in _GENERATORS and kind not in _TRANSFORMERS:
        raise ProblemError(Kustomize("unknown-builtin", id=str(gvk)), code=KUSTOMIZE_ERROR)
    if generator and kind not in _GENERATORS:
        raise ProblemError(Kustomize("not-a-generator", id=plugin_id(config)),
                           code=KUSTOMIZE_ERROR)
    if not generator and kind not in _TRANSFORMERS:
        raise ProblemError(Kustomize("not-a-transformer", id=plugin_id(config)),
                           code=KUSTOMIZE_ERROR)
    if kind == "HelmChartInflationGenerator":
        return _chart(config, kust, helm_options)
    if kind in _UNMODELLED:
        where = kust.where("/generators" if generator else "/transformers")
        raise KubeError(f"{where}: the builtin plugin {kind} ({plugin_id(config)}) is "
                        f"not modelled by cfgpatch kube build", code=KUSTOMIZE_UNMODELLED,
                        hint="build this tree with kubectl kustomize")
    value = config.value
    try:
        plugin = _CONFIGURE[kind](value, kust, trace, state)
    except KubeError as err:
        if err.code == KUSTOMIZE_UNMODELLED:
            raise
        problem = cause(err)
        if getattr(problem, "code", None) == "configuring-builtin":  # a patch field's wrapper
            problem = problem.cause
            if getattr(problem, "code", None) in ("no-patch-or-path", "patch-and-path"):
                # the entry as the plugin's configuration writes it
                problem = problem._replace(detail=write_value(config.value).rstrip("\n"))
        raise ProblemError(Kustomize("plugin-configuration", id=plugin_id(config),
                                     cause=problem), code=err.code) from None
    origin = _configured_in(config) if tracked else None
    if origin is None:
        return plugin
    if generator:
        return _CONFIGURE[kind](value, kust, trace, state, (origin, _configured_by(config)))

    def recorded(resmap: ResMap) -> None:
        plugin(resmap)
        for resource in resmap.resources:
            record_transformation(resource, origin, kind, config.name, config.namespace)
    return recorded


def _configured_in(config: Resource) -> str | None:
    text = config.annotations().get(ORIGIN)
    for line in str(text or "").splitlines():
        if line.startswith("path: "):
            return line[len("path: "):]
    return None


def _configured_by(config: Resource) -> dict:
    by = {"apiVersion": "builtin", "kind": config.gvk.kind, "name": config.name}
    if config.namespace:
        by["namespace"] = config.namespace
    return by


def validate(plugin: Plugin, resmap: ResMap) -> None:
    """Run a validator: kustomize's error when it changed a resource (kustomize goes on
    with the Go values of both, which are not reproduced)."""
    import copy

    before = [copy.deepcopy(r.value) for r in resmap.resources]
    plugin(resmap)
    for old, new in zip(before, [r.value for r in resmap.resources], strict=False):
        if old != new:
            raise ProblemError(Kustomize("validator-changed", detail=(
                gojson.encode(plain(old)), gojson.encode(plain(new)))), code=KUSTOMIZE_ERROR)


def _chart(config: Resource, kust: Kustomization, options: Any) -> Plugin:
    from . import helm
    args = {k: v for k, v in config.value.items() if k not in ("apiVersion", "kind", "metadata")}
    try:
        chart = helm.configure(kust, args, options or helm.HelmOptions())
    except KubeError as err:
        raise ProblemError(Kustomize("plugin-configuration", id=plugin_id(config),
                                     cause=cause(err)), code=err.code) from None

    def run(resmap: ResMap) -> None:
        generators.absorb_all(resmap, chart.generate())
    return run


def _synthetic(kust: Kustomization, value: dict) -> Kustomization:
    """A kustomization holding ``value`` only, read by ``kust``'s loader."""
    return Kustomization(kust.loader, kust.file, value, {})


def _specs(value: dict) -> tuple:
    return transformers._custom_specs(value.get("fieldSpecs"))


def _with_config(resmap: ResMap, run: Callable[[], None], **specs: tuple) -> None:
    """``run`` with the configuration's field specs in place of the kustomization's."""
    saved = resmap.config
    resmap.config = replace(saved, **specs)  # type: ignore[arg-type]
    try:
        run()
    finally:
        resmap.config = saved


def _strings(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


# ----------------------------------------------------------------- transformers


def _affixes(value: dict, kust: Kustomization, trace: Trace | None, state: SchemaState,
             prefix: bool = True, suffix: bool = True) -> Plugin:
    if value.get("fieldSpecs") is None:
        raise ProblemError(Kustomize("nil-field-specs"), code=KUSTOMIZE_ERROR)
    specs = _specs(value)
    fields = {}
    if prefix and value.get("prefix"):
        fields["namePrefix"] = str(value["prefix"])
    if suffix and value.get("suffix"):
        fields["nameSuffix"] = str(value["suffix"])
    synthetic = _synthetic(kust, fields)
    return lambda resmap: _with_config(
        resmap, lambda: transformers.name_prefix_suffix(resmap, trace, synthetic),
        prefix=specs, suffix=specs)


def _labels(value: dict, kust: Kustomization, trace: Trace | None, state: SchemaState,
            field: str = "labels") -> Plugin:
    pairs = transformers._string_map(value.get(field))
    specs = _specs(value)

    def run(resmap: ResMap) -> None:
        if pairs:
            transformers._set_entries(resmap, trace, kust, field, 0, "", pairs, specs)
    return run


def _annotations(value: dict, kust: Kustomization, trace: Trace | None,
                 state: SchemaState) -> Plugin:
    return _labels(value, kust, trace, state, "annotations")


def _namespace(value: dict, kust: Kustomization, trace: Trace | None,
               state: SchemaState) -> Plugin:
    meta = _strings(value.get("metadata"))
    target = str(meta.get("namespace") or "")
    mode = value.get("setRoleBindingSubjects") or ""
    if mode == "":
        mode = "defaultOnly"
    if mode not in ("defaultOnly", "none", "allServiceAccounts"):
        raise ProblemError(Kustomize("role-binding-subjects", name=str(mode)),
                           code=KUSTOMIZE_ERROR)
    specs, unset_only = _specs(value), bool(value.get("unsetOnly"))
    return lambda resmap: transformers.set_namespace(resmap, trace, kust, target, specs,
                                                     unset_only, str(mode))


def _image(value: dict, kust: Kustomization, trace: Trace | None,
           state: SchemaState) -> Plugin:
    from . import images

    synthetic = _synthetic(kust, {"images": [_strings(value.get("imageTag"))]})
    specs = _specs(value)
    return lambda resmap: _with_config(
        resmap, lambda: images.images(resmap, trace, synthetic), images=specs)


def _replicas(value: dict, kust: Kustomization, trace: Trace | None,
              state: SchemaState) -> Plugin:
    synthetic = _synthetic(kust, {"replicas": [_strings(value.get("replica"))]})
    specs = _specs(value)
    return lambda resmap: _with_config(
        resmap, lambda: transformers.replicas(resmap, trace, synthetic), replicas=specs)


def _patch(value: dict, kust: Kustomization, trace: Trace | None,
           state: SchemaState) -> Plugin:
    from . import patches

    entry = {k: value[k] for k in ("path", "patch", "target", "options") if k in value}
    loaded = patches.load_patches(_synthetic(kust, {"patches": [entry]}))
    return _applying(loaded, trace, state)


def _strategic(value: dict, kust: Kustomization, trace: Trace | None,
               state: SchemaState) -> Plugin:
    from . import patches

    entries = [str(p) for p in value.get("paths") or []]
    if value.get("patches"):
        entries.append(str(value["patches"]))
    loaded = patches.load_legacy_strategic(_synthetic(kust, {"patchesStrategicMerge": entries}))
    return _applying(loaded, trace, state)


def _json6902(value: dict, kust: Kustomization, trace: Trace | None,
              state: SchemaState) -> Plugin:
    from . import patches

    entry: dict[str, Any] = {k: value[k] for k in ("path", "target") if k in value}
    if value.get("jsonOp"):
        entry["patch"] = value["jsonOp"]
    loaded = patches.load_legacy_json(_synthetic(kust, {"patchesJson6902": [entry]}))
    return _applying(loaded, trace, state)


def _applying(loaded: list, trace: Trace | None, state: SchemaState) -> Plugin:
    from . import patches

    def run(resmap: ResMap) -> None:
        for patch in loaded:
            patches.apply_patch(resmap, patch, trace, state)
    return run


def _replacement(value: dict, kust: Kustomization, trace: Trace | None,
                 state: SchemaState) -> Plugin:
    from . import replacements

    synthetic = _synthetic(kust, {"replacements": list(value.get("replacements") or [])})
    loaded = replacements.load(synthetic)
    return lambda resmap: replacements.run(resmap, trace, synthetic, loaded)


# ----------------------------------------------------------------- generators


def _generator(kind: str) -> Callable[..., Plugin]:
    field = "configMapGenerator" if kind == "ConfigMap" else "secretGenerator"

    def configure(value: dict, kust: Kustomization, trace: Trace | None,
                  state: SchemaState, origin: tuple[str, dict] | None = None) -> Plugin:
        meta = _strings(value.get("metadata"))
        args = {k: v for k, v in value.items() if k not in ("apiVersion", "kind", "metadata")}
        # the generator's own name and namespace, else the configuration's (measured)
        args["name"] = args.get("name") or meta.get("name") or ""
        if not args.get("namespace") and meta.get("namespace"):
            args["namespace"] = meta["namespace"]
        synthetic = _synthetic(kust, {field: [args]})
        where, by = origin if origin is not None else (None, None)
        return lambda resmap: generators.run_generators(resmap, trace, synthetic, where, by)
    return configure


_CONFIGURE: dict[str, Callable[..., Plugin]] = {
    "PrefixSuffixTransformer": _affixes,
    "PrefixTransformer": lambda v, k, t, s: _affixes(v, k, t, s, suffix=False),
    "SuffixTransformer": lambda v, k, t, s: _affixes(v, k, t, s, prefix=False),
    "LabelTransformer": _labels,
    "AnnotationsTransformer": _annotations,
    "NamespaceTransformer": _namespace,
    "ImageTagTransformer": _image,
    "ReplicaCountTransformer": _replicas,
    "PatchTransformer": _patch,
    "PatchStrategicMergeTransformer": _strategic,
    "PatchJson6902Transformer": _json6902,
    "ReplacementTransformer": _replacement,
    "ConfigMapGenerator": _generator("ConfigMap"),
    "SecretGenerator": _generator("Secret"),
    "IAMPolicyGenerator": lambda *a: _fieldless().iam_policy(*a),
    "HashTransformer": lambda *a: _fieldless().hash_transformer(*a),
    "ValueAddTransformer": lambda *a: _fieldless().value_add(*a),
}


def _fieldless() -> Any:
    from . import plugins_fieldless  # only a build that configures one reads it

    return plugins_fieldless
