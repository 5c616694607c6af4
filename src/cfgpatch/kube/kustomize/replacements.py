"""kustomize's ``replacements``: copy one field of one resource into fields of others.

Measured with ``kubectl kustomize`` (trees ``replacements-*``).  A kustomization's
replacements run last among its transformers (after ``images``), one after the other,
each written inline (``source`` and ``targets``) or as ``- path: file`` (the first YAML
document of the file: one replacement or a list of them; files are read before any
transformer runs, a missing one is kustomize's configuration error).

* **source**: ``group``/``version``/``kind``/``name``/``namespace`` compared exactly (not
  as patterns; name and namespace against the resource's current or earlier ids, no
  namespace counting as ``default``); it must select exactly one resource; a null value
  is missing.  ``fieldPath`` (:mod:`.fieldpath`) defaults to
  ``metadata.name``; ``options.delimiter`` splits the value's text and ``options.index``
  picks a part (out of range: an error).
* **targets**: ``select`` (the same fields, plus ``labelSelector`` and
  ``annotationSelector``; ``{}`` selects everything) minus every non-empty ``reject``;
  each of ``fieldPaths`` must exist unless ``options.create``.  A scalar target keeps
  its own type and style and takes the source's text (its node's text as written:
  ``0x10`` stays ``0x10`` until a patch writes the field, see :func:`_spelled`; a map
  or list source gives ``""``); its type refuses text of another type with go-yaml's
  ``cannot decode`` error.  A map or list target is replaced by the source value; a
  created field is the source value, a scalar written plain (so ``"8080"`` becomes the
  number 8080, ``""`` a null).  With ``options.delimiter`` the target's text is split
  and part ``index`` replaced (an index past the end appends, a negative one prepends).
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from ...records import dataclass
from ..io.kyaml import BOOL, FLOAT, INT, NULL, STR, KyamlError
from ..io.kyaml_read import read_documents
from ..io.kyaml_scalars import resolve
from ..io.kyaml_write import write_value
from ..problems import Kustomize, ProblemError, YamlValue, cause
from . import fieldpath, gotypes
from .kustomization import Kustomization, v2_value
from .nodes import text
from .positions import node_positions
from .resmap import ResMap, id_key
from .resources import Gvk, Resource
from .selectors import labels_match
from .styles import Quoted, SourceText
from .trace import TRANSFORMER, Step, Touch, Trace, snapshot

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _deep_copy(value: Any) -> Any:
    import copy  # (not at import: a build without replacements never copies)

    return copy.deepcopy(value)

_HINT = "build this tree with kubectl kustomize"


@dataclass
class Replacement:
    """One replacement as written, with where it is written."""

    value: dict
    file: str
    line: int
    index: int


def load(kust: Kustomization) -> list[Replacement]:
    """The replacements of ``kust``, in order (``path`` entries read)."""
    found: list[Replacement] = []
    entries = kust.get("replacements", [])
    for index, entry in enumerate(entries):
        where = kust.line(f"/replacements/{index}")
        if isinstance(entry, dict) and entry.get("path"):
            if any(v is not None for k, v in entry.items() if k != "path"):
                raise _config_error(entries, Kustomize("path-and-inline-replacement"))
            found.extend(_from_file(kust, entries, str(entry["path"]), index))
        else:
            found.append(Replacement(entry if isinstance(entry, dict) else {}, kust.file,
                                     where, index))
    return found


def _from_file(kust: Kustomization, entries: list, path: str,
               index: int) -> list[Replacement]:
    try:
        text_, real = kust.loader.read(path)
    except KubeError as err:
        raise _config_error(entries, cause(err)) from None
    try:
        documents = read_documents(text_, real)
    except KyamlError as err:
        raise _unmodelled(kust.where(f"/replacements/{index}"),
                          f"the replacement file '{path}' that cannot be parsed "
                          f"({err.message})") from None
    if not documents or documents[0] is None:  # kustomize reads the first document only
        raise _unmodelled(kust.where(f"/replacements/{index}"),
                          f"the replacement file '{path}' (no YAML document)")
    value = v2_value(documents[0])
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(item, dict) for item in items):
        raise _unmodelled(kust.where(f"/replacements/{index}"),
                          f"the replacement file '{path}' (not a replacement)")
    try:  # Go's plain json.Unmarshal: wrong types fail, unknown fields are ignored
        items = [gotypes.decode(item, gotypes.REPLACEMENT, strict=False) for item in items]
    except gotypes.GoDecodeError as err:
        raise _config_error(entries, Kustomize("unmarshaling-json", cause=err.problem)) from None
    positions = node_positions(documents[0])
    return [Replacement(item, real, positions.get(f"/{i}" if isinstance(value, list) else "",
                                                  (0, 0))[0], index)
            for i, item in enumerate(items)]


def _config_error(entries: list, problem: Any) -> KubeError:
    """kustomize's error configuring the replacements: their config as YAML, then why."""
    config = write_value({"Replacements": [omit_empty(e) for e in entries]})
    return ProblemError(Kustomize("configuring-builtin", name="ReplacementTransformer",
                                  detail=config, cause=problem), code=KUSTOMIZE_ERROR)


def omit_empty(value: Any) -> Any:
    """Go's JSON ``omitempty``: no empty strings, zeros, false or empty lists (an empty
    object stays: kustomize's objects are pointers); how kustomize prints a transformer's
    configuration in its errors (with :func:`~cfgpatch.kube.io.kyaml_write.write_value`,
    which sorts the keys)."""
    if isinstance(value, dict):
        kept = {k: omit_empty(v) for k, v in value.items()}
        return {k: v for k, v in kept.items()
                if not (v is None or v is False or v == "" or v == []
                        or (type(v) is int and v == 0))}
    if isinstance(value, list):
        return [omit_empty(v) for v in value]
    return value


def _unmodelled(where: str, what: str) -> KubeError:
    return KubeError(f"{where}: 'replacements': {what} is not modelled by cfgpatch kube "
                     f"build", code=KUSTOMIZE_UNMODELLED, hint=_HINT)


# ------------------------------------------------------------------ running


def run(resmap: ResMap, trace: Trace | None, kust: Kustomization,
        loaded: list[Replacement] | None = None) -> None:
    """Apply every replacement of ``kust`` (``loaded``: as :func:`load` read them)."""
    loaded = load(kust) if loaded is None else loaded
    if not loaded:
        return
    for replacement in loaded:
        step = None
        if trace is not None:
            begun = trace.begin(Step(TRANSFORMER, "replacements", replacement.index,
                                     replacement.file, replacement.line))
            begun.patch = replacement.value
            step = trace.values_of(begun)
        apply(resmap, replacement, step)
    ids = [id_key(r.cur_id()) for r in resmap.resources]
    if len(set(ids)) != len(ids):  # kustomize panics (measured); its text is not an error
        raise _unmodelled(kust.where("/replacements"), "replacements that give two "
                          "resources one id (kustomize panics)")


def apply(resmap: ResMap, replacement: Replacement, step: Step | None = None) -> None:
    """Apply one replacement; ``step`` records the touched resources."""
    raw = replacement.value
    source, targets = raw.get("source"), raw.get("targets")
    if not isinstance(source, dict) or not targets or not isinstance(targets, list):
        raise ProblemError(Kustomize("replacement-without-source-or-target"),
                           code=KUSTOMIZE_ERROR)
    where = f"{replacement.file}:{replacement.line}" if replacement.line else replacement.file
    found, value = _source(resmap.resources, source, where)
    if step is not None:
        step.selector = {"source": source, "resource": found.describe(),
                         "fieldPath": str(source.get("fieldPath") or "metadata.name"),
                         "value": _deep_copy(value)}
    for target in targets:
        target = target if isinstance(target, dict) else {}
        for resource in _targets(resmap.resources, target):
            before = snapshot(resource.value) if step is not None else None
            label = resource.describe()
            _apply_target(resource, target, value, where)
            if step is not None and before != resource.value:
                step.targets.append(label)
                step.touches.append(Touch(resource, before, snapshot(resource.value), label))


def source_value(resources: list[Resource], source: dict, where: str) -> Any:
    """The value a replacement copies (after ``options.delimiter``/``index``)."""
    return _source(resources, source, where)[1]


def _source(resources: list[Resource], source: dict, where: str) -> tuple[Resource, Any]:
    path = source.get("fieldPath")
    resid = _resid_text(source)
    found = [r for r in resources if _id_matches(r, source)]
    if len(found) != 1:
        raise ProblemError(Kustomize("replacement-source-not-unique", id=resid,
                                     field=str(path) if path else None, detail=len(found)),
                           code=KUSTOMIZE_ERROR)
    path = str(path or "metadata.name")
    place: list = []
    try:
        value = fieldpath.MISSING if fieldpath.is_missing_path(path) else \
            fieldpath.lookup(found[0].value,
                             fieldpath.parse(fieldpath.source_path(path), where), place)
    except fieldpath.PathError as err:
        raise ProblemError(Kustomize("replacement-source-lookup", cause=cause(err)),
                           code=KUSTOMIZE_ERROR) from None
    if value is fieldpath.MISSING or value is None:  # a null is missing too (measured)
        raise ProblemError(Kustomize("replacement-source-missing", id=resid, field=path),
                           code=KUSTOMIZE_ERROR)
    value = _spelled(found[0], tuple(place), value)
    options = source.get("options")
    if not isinstance(options, dict):
        options = {}
    delimiter = options.get("delimiter") or ""
    if not delimiter:
        return found[0], _deep_copy(value)
    if isinstance(value, (dict, list)):
        raise ProblemError(Kustomize("delimiter-not-scalar"), code=KUSTOMIZE_ERROR)
    parts = text_of(value).split(delimiter)
    index = _index(options)
    if index < 0 or index >= len(parts):
        raise ProblemError(Kustomize("index-out-of-bounds", detail=index, name=text_of(value)),
                           code=KUSTOMIZE_ERROR)
    return found[0], parts[index]


def _spelled(resource: Resource, place: tuple, value: Any) -> Any:
    """``value`` (at ``place`` in ``resource``) as :class:`SourceText` when its node is
    written otherwise than its value prints (``0x10``, ``1.50``, ``True``): kustomize
    copies the node's text (tree ``replacements-source-texts``)."""
    entry = resource.texts.get(place)
    if entry is None or isinstance(value, (dict, list)):
        return value
    text, decoded = entry
    if type(decoded) is not type(value) or decoded != value:
        return value  # something wrote this field since (it holds another node)
    return SourceText(text, value)


def _index(options: dict) -> int:
    index = options.get("index") or 0
    if type(index) is not int:
        raise KubeError(f"options.index {index!r} is not modelled by cfgpatch kube build",
                        code=KUSTOMIZE_UNMODELLED)
    return index


def text_of(value: Any) -> str:
    """A scalar's text as kustomize copies it (``""`` for a null, a map or a list)."""
    return "" if value is None else text(value)


def _resid_text(raw: dict) -> str:
    gvk = Gvk(*(str(raw.get(k) or "") for k in ("group", "version", "kind")))
    return f"{gvk}/{raw.get('name') or '[noName]'}.{raw.get('namespace') or '[noNs]'}"


def _id_matches(resource: Resource, raw: dict) -> bool:
    """kustomize's exact id selection (no patterns), on any of the resource's ids."""
    want = Gvk(*(str(raw.get(k) or "") for k in ("group", "version", "kind")))
    if not resource.gvk.selected_by(want):
        return False
    name, namespace = str(raw.get("name") or ""), str(raw.get("namespace") or "")
    return any((not name or rid.name == name)
               and (not namespace or (rid.namespace or "default") == namespace)
               for rid in resource.any_ids())  # no namespace is "default" (measured)


def _selects(resource: Resource, raw: dict) -> bool:
    if not _id_matches(resource, raw):
        return False
    for key, values in (("labelSelector", resource.labels()),
                        ("annotationSelector", resource.annotations())):
        if raw.get(key) and not labels_match(str(raw[key]), values):
            return False
    return True


def _targets(resources: list[Resource], target: dict) -> list[Resource]:
    select = target.get("select")
    if not isinstance(select, dict):
        raise ProblemError(Kustomize("target-selects-nothing"), code=KUSTOMIZE_ERROR)
    rejects = target.get("reject") or []
    rejects = [r for r in rejects if isinstance(r, dict) and any(r.values())]  # {}: none
    return [r for r in resources if _selects(r, select)
            and not any(_selects(r, reject) for reject in rejects)]


# ------------------------------------------------------------------ writing a target


def _apply_target(resource: Resource, target: dict, value: Any, where: str) -> None:
    options = target.get("options")
    if not isinstance(options, dict):
        options = {}
    create = options.get("create") is True
    paths = target.get("fieldPaths") or ["metadata.name"]
    for path in paths:
        path = str(path)
        segments = fieldpath.parse(path, where)
        try:
            places = fieldpath.slots(resource.value, segments, create)
        except fieldpath.PathError as err:
            raise ProblemError(Kustomize("replacement-target-field", field=path, detail=create,
                                         cause=None if err.absent else cause(err)),
                               code=KUSTOMIZE_ERROR) from None
        annotation = [seg.text for seg in segments[:2]] == ["metadata", "annotations"]
        for container, key, created in places:
            container[key] = _new_value(container[key], value, options, created)
            if created and annotation and isinstance(value, SourceText) \
                    and not isinstance(container[key], (dict, list)):
                # annotations print their nodes' text, and this node is the source's
                container[key] = SourceText(value, container[key])
            if created and not isinstance(container[key], (str, dict, list)):
                resource.retyped.append(path)


def refuse_retyped(resource: Resource, where: str) -> None:
    """Refuse a strategic merge on a resource holding a field a replacement created plain.

    kustomize holds such a field untyped: it prints as a number (or boolean), and so do
    the later transformers and JSON patches, but a later strategic merge makes it a string
    in maps and not in some lists (measured, not modelled).
    """
    if resource.retyped:
        raise _unmodelled(where, f"a strategic merge patch on {resource.describe()} after "
                                 f"a replacement created '{resource.retyped[0]}' as a "
                                 f"plain non-string scalar")


def _new_value(current: Any, value: Any, options: dict, created: bool) -> Any:
    delimiter = options.get("delimiter") or ""
    if delimiter:
        if isinstance(current, (dict, list)) or isinstance(value, (dict, list)):
            raise ProblemError(Kustomize("delimiter-not-scalar"), code=KUSTOMIZE_ERROR)
        value = _joined(text_of(current), text_of(value), delimiter, _index(options))
    if created:
        return _plain(value)
    if isinstance(current, (dict, list)):  # the source's node takes its place
        return value.decoded if isinstance(value, SourceText) else _deep_copy(value)
    return _typed(current, text_of(value))


def _joined(current: str, value: str, delimiter: str, index: int) -> str:
    parts = current.split(delimiter)
    if index < 0:
        return value + delimiter + current
    if index >= len(parts):
        return current + delimiter + value
    parts[index] = value
    return delimiter.join(parts)


def _plain(value: Any) -> Any:
    """A created field: the source value, a scalar written plain (read back by type)."""
    if isinstance(value, (dict, list)):
        return _deep_copy(value)
    scalar = text_of(value)
    tag, resolved = resolve(scalar) if scalar else (NULL, None)  # "" is a null (measured)
    return resolved if tag in (INT, FLOAT, BOOL, NULL) else scalar


def _tag(value: Any) -> str:
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    return STR


def _typed(current: Any, scalar: str) -> Any:
    """``scalar`` written where ``current`` is: it keeps ``current``'s tag and style."""
    want = _tag(current)
    if want == STR:
        return Quoted(scalar) if isinstance(current, Quoted) else scalar
    tag, resolved = resolve(scalar) if scalar else (NULL, None)
    if tag == want or (want == FLOAT and tag == INT):
        return resolved
    raise ProblemError(YamlValue("cannot-decode", (tag[2:], scalar, want),
                                 value="map[string]interface {}(nil)"), code=KUSTOMIZE_ERROR)
