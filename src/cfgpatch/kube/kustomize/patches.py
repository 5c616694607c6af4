"""kustomize's patch transformers: ``patches``, ``patchesStrategicMerge``, ``patchesJson6902``.

A patch is loaded from a file (``path``) or written inline (``patch``) and detected as
kustomize detects it: text that reads as resources (maps with ``kind`` and
``metadata.name``) is a strategic merge patch, text that reads as a list of operations
(YAML or JSON) is a JSON 6902 patch.

* a strategic patch with a ``target`` is merged into every selected resource; its own
  ``apiVersion`` is replaced by the resource's, and afterwards the resource gets back
  its kind and name (unless ``options.allowKindChange`` / ``allowNameChange``) and
  always its namespace; without a target it goes to the one resource whose current
  or earlier id is the patch's own (kustomize's "no matches for Id ..." otherwise);
  a result that is empty (``$patch: delete``) removes the resource;
* a JSON patch needs a target and is applied to every selected resource with the
  JSON Patch library kubectl also uses (its error texts).

Every application is recorded on the build's :class:`.trace.Trace` when one is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field  # "field" is a field name below

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..engine import jsonpatch
from ..go import jsondecode
from ..go.json import go_quote
from ..io import reader
from ..io.kyaml import FOLDED, LITERAL, MAPPING, KyamlError
from ..io.kyaml_duplicates import drop_duplicates
from ..io.kyaml_read import read_documents
from ..io.kyaml_write import write_value
from . import aliases, replacements, strategic
from .kustomization import Kustomization
from .openapi import SchemaState
from .patchtexts import source_texts, spelled, with_sources, without_sources
from .positions import node_at, node_positions, shifted
from .resmap import ResMap
from .resources import Gvk, ResId, Resource, read_node, read_resources
from .selectors import Selector
from .styles import json_annotations, metadata_texts, reencoded, styled_with_typed_keys
from .trace import PATCH, Step, Touch, Trace, snapshot

STRATEGIC, JSON = "strategic", "json"


@dataclass
class Document:
    """One strategic merge patch document and where each of its fields is written."""

    value: dict
    positions: dict[str, tuple[int, int]] = dataclass_field(default_factory=dict)
    #: the patch with its labels and annotations as strings (kustomize sets them so on
    #: the copy it merges when the patch has a ``target``)
    targeted: dict | None = None
    #: where a scalar's source text is not its value's (:mod:`.patchtexts`)
    texts: dict = dataclass_field(default_factory=dict)
    #: a plain key reads as no string (:mod:`.plainkeys`)
    typed_keys: bool = False

    def org_id(self) -> ResId:
        meta = self.value.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        name, namespace = meta.get("name"), meta.get("namespace")
        return ResId(Gvk.of(self.value), name if isinstance(name, str) else "",
                     namespace if isinstance(namespace, str) else "")


@dataclass
class Patch:
    """One entry of a patch field, loaded and detected."""

    kustomization: Kustomization
    field: str
    index: int
    type: str
    file: str
    line: int  # of the entry in the kustomization
    offset: int = 0  # lines before the patch text in ``file``
    documents: list[Document] = dataclass_field(default_factory=list)
    ops: list = dataclass_field(default_factory=list)
    op_positions: dict[str, tuple[int, int]] = dataclass_field(default_factory=dict)
    target: Selector | None = None
    target_raw: dict | None = None
    options: dict = dataclass_field(default_factory=dict)

    def kinds(self) -> tuple[str, ...]:
        named = [d.value.get("kind") for d in self.documents]
        if self.target is not None and self.target.kind:
            named.append(self.target.kind)
        return tuple(k for k in dict.fromkeys(named) if isinstance(k, str) and k)


def load_patches(kust: Kustomization) -> list[Patch]:
    """The patches of ``patches:`` in order."""
    out = []
    for index, entry in enumerate(kust.get("patches", [])):
        out.append(_load_entry(kust, "patches", index, entry if isinstance(entry, dict) else {}))
    return out


def load_legacy_strategic(kust: Kustomization) -> list[Patch]:
    """``patchesStrategicMerge``: each entry is patch text, or else a file name."""
    out = []
    entries = kust.get("patchesStrategicMerge", [])
    for index, entry in enumerate(entries):
        text = entry if isinstance(entry, str) else ""
        if entry == "":  # an empty entry (null in the file) loads nothing: measured
            continue
        pointer = f"/patchesStrategicMerge/{index}"
        documents = _strategic_documents(text, kust.file, _inline_offset(kust, pointer))
        if documents is not None:
            out.append(Patch(kust, "patchesStrategicMerge", index, STRATEGIC, kust.file,
                             kust.line(pointer), _inline_offset(kust, pointer), documents))
            continue
        try:
            body, path = kust.loader.read(text)
        except KubeError as err:
            raise _strategic_config_error(kust, err.message) from None
        documents = _strategic_documents(body, path, 0)
        if documents is None:
            raise _unreadable_strategic(kust, text, body, path)
        out.append(Patch(kust, "patchesStrategicMerge", index, STRATEGIC, path,
                         kust.line(pointer), 0, documents))
    if entries and not out:  # Go's %v of the list: its entries between brackets
        files = " ".join(entry if isinstance(entry, str) else "" for entry in entries)
        raise _strategic_config_error(kust, f"patch appears to be empty; files=[{files}], "
                                            "Patch=")
    return out


def _unreadable_strategic(kust: Kustomization, entry: str, body: str, path: str) -> KubeError:
    """kustomize's error for a ``patchesStrategicMerge`` file it cannot read as resources:
    the transformer's configuration (every entry), then why, in the words of reading a
    resource file (``MalformedYAMLError: ... in File:``, ``missing kind in object ...``)."""
    try:
        read_resources(body, path)
    except KubeError as err:
        where = f" in File: {entry}" if getattr(err, "in_file", False) else ""
        return _strategic_config_error(kust, f"{err.message}{where}")
    return KubeError(f"{path}: not a strategic merge patch (patchesStrategicMerge)",
                     code=KUSTOMIZE_ERROR)


def _strategic_config_error(kust: Kustomization, message: str) -> KubeError:
    """kustomize's error configuring ``patchesStrategicMerge``: every entry, then why."""
    config = write_value({"paths": list(kust.get("patchesStrategicMerge", []))})
    return KubeError(f"trouble configuring builtin PatchStrategicMergeTransformer with "
                     f"config: `\n{config}`: {message}", code=KUSTOMIZE_ERROR)


def load_legacy_json(kust: Kustomization) -> list[Patch]:
    """``patchesJson6902``: always JSON 6902, always with a target."""
    out = []
    for index, entry in enumerate(kust.get("patchesJson6902", [])):
        entry = entry if isinstance(entry, dict) else {}
        text, path, offset = _entry_text(kust, "patchesJson6902", index, entry)
        patch = Patch(kust, "patchesJson6902", index, JSON, path,
                      kust.line(f"/patchesJson6902/{index}"), offset)
        ops, patch.op_positions = _json_ops(text, offset)
        if ops is None:
            raise KubeError(f"{path}: not a JSON 6902 patch (patchesJson6902)",
                            code=KUSTOMIZE_ERROR)
        patch.ops = ops
        _set_target(patch, entry)
        if patch.target is None:
            raise KubeError(f"must specify a target for patch {text}", code=KUSTOMIZE_ERROR)
        out.append(patch)
    return out


def _load_entry(kust: Kustomization, name: str, index: int, entry: dict) -> Patch:
    text, path, offset = _entry_text(kust, name, index, entry)
    documents = _strategic_documents(text, path, offset)
    ops, op_positions = _json_ops(text, offset)
    line = kust.line(f"/{name}/{index}")
    if documents is not None and ops is not None:
        raise KubeError(f"illegally qualifies as both an SM and JSON patch: {text}",
                        code=KUSTOMIZE_ERROR)
    if documents is None and ops is None:
        raise _configuring(name, entry, f"unable to parse SM or JSON patch from "
                                        f"{_source_of(entry)}")
    if documents is not None:
        patch = Patch(kust, name, index, STRATEGIC, path, line, offset, documents)
    else:
        assert ops is not None  # one of the two parsed (refused above otherwise)
        patch = Patch(kust, name, index, JSON, path, line, offset, ops=ops,
                      op_positions=op_positions)
    _set_target(patch, entry)
    options = entry.get("options")
    patch.options = options if isinstance(options, dict) else {}
    if patch.type == JSON and patch.target is None:
        raise KubeError(f"must specify a target for JSON patch {_source_of(entry)}",
                        code=KUSTOMIZE_ERROR)
    return patch


#: The builtin transformer kustomize configures from each patch field.
_TRANSFORMERS = {"patches": "PatchTransformer", "patchesJson6902": "PatchJson6902Transformer"}


def _config_text(name: str, entry: dict) -> str:
    """A patch entry as kustomize prints its transformer's configuration (YAML, keys
    sorted, empty fields left out; the JSON 6902 transformer calls the text ``jsonOp``)."""
    value = dict(entry)
    if name == "patchesJson6902" and "patch" in value:
        value["jsonOp"] = value.pop("patch")
    return write_value(replacements.omit_empty(value))


def _configuring(name: str, entry: dict, message: str) -> KubeError:
    """kustomize's error configuring the transformer of one patch entry."""
    return KubeError(f"trouble configuring builtin {_TRANSFORMERS[name]} with config: "
                     f"`\n{_config_text(name, entry)}`: {message}", code=KUSTOMIZE_ERROR)


def _source_of(entry: dict) -> str:
    """How kustomize names a patch's text in its errors: ``[path: "file"]`` or
    ``[patch: "<the text, Go-quoted>"]``."""
    source = "path" if entry.get("path") else "patch"
    return f"[{source}: {go_quote(str(entry.get(source) or ''))}]"


def _entry_text(kust: Kustomization, name: str, index: int, entry: dict) -> tuple[str, str, int]:
    inline = entry.get("patch")
    inline = inline.strip() if isinstance(inline, str) else ""
    path = entry.get("path") if isinstance(entry.get("path"), str) else ""
    legacy = name == "patchesJson6902"
    config = _config_text(name, entry).rstrip("\n")
    if not inline and not path:
        raise _configuring(name, entry, "empty file path and empty jsonOp" if legacy
                           else f"must specify one of patch and path in\n{config}")
    if inline and path:
        raise _configuring(name, entry, "must specify a file path or jsonOp, not both"
                           if legacy else f"patch and path can't be set at the same time\n"
                                          f"{config}")
    if path:
        try:
            text, real = kust.loader.read(path)
        except KubeError as err:
            raise _configuring(name, entry, err.message if legacy else
                               f"failed to get the patch file from path({path}): "
                               f"{err.message}") from None
        return text, real, 0
    return inline, kust.file, _inline_offset(kust, f"/{name}/{index}/patch")


def _inline_offset(kust: Kustomization, pointer: str) -> int:
    """How many lines of the kustomization come before the inline text's first line."""
    node = node_at(kust.node, pointer)
    if node is None:
        return 0
    return node.line if node.style in (LITERAL, FOLDED) else node.line - 1


def _set_target(patch: Patch, entry: dict) -> None:
    target = entry.get("target")
    if isinstance(target, dict):
        patch.target_raw = target
        patch.target = Selector.from_dict(target)


def _strategic_documents(text: str, file: str, offset: int) -> list[Document] | None:
    """The documents of ``text`` when it reads as resources, else ``None``."""
    try:
        nodes = [drop_duplicates(read_node(node)) for node in read_documents(text, file)]
    except KyamlError:
        return None
    out = []
    for node in nodes:
        if node.kind != MAPPING:  # a JSON 6902 patch (its own keys are read as kustomize
            return None           # reads them: `1:` is "1")
        value, typed = styled_with_typed_keys(node)
        if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
            return None
        texts = source_texts(node, value)
        targeted = snapshot(value)
        metadata_texts(node, targeted, labels=True)
        metadata_texts(node, value, nulls=False)
        meta = value.get("metadata")
        if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) \
                or not meta["name"]:
            return None
        out.append(Document(value, shifted(node_positions(node), offset), targeted, texts,
                            typed))
    return out or None


def read_json_ops(text: str) -> list | None:
    """The operations of ``text`` when it reads as a JSON 6902 patch, else ``None`` (a
    text starting with ``[`` must be JSON: kustomize does not read it as YAML then, but
    after a comment it does: tree ``error-json6902-operations/flow-yaml-after-comment``;
    YAML is read as kustomize reads it: ``on:`` is ``"true"``, ``1:`` is ``"1"``)."""
    if jsondecode.first_non_space(text) == "[" \
            and jsondecode.syntax_error(text.encode("utf-8")) is not None:
        return None
    try:
        value, _notes = reader.load_patch(text, "json")
    except KubeError:
        return None
    if not isinstance(value, list) or any(v is not None and not isinstance(v, dict)
                                          for v in value):
        return None
    return value


def _json_ops(text: str, offset: int) -> tuple[list | None, dict]:
    """:func:`read_json_ops`, with where each operation is written."""
    value = read_json_ops(text)
    if value is None:
        return None, {}
    try:
        nodes = read_documents(text, "")
        positions = shifted(node_positions(nodes[0]), offset) if nodes else {}
    except KyamlError:
        positions = {}
    return value, positions


# ----------------------------------------------------------------- applying


def apply_patch(resmap: ResMap, patch: Patch, trace: Trace | None,
                state: SchemaState | None = None) -> None:
    """Apply one loaded patch to the build's resources (see the module docstring)."""
    state = state or SchemaState()
    if patch.target is not None:
        target = patch.target_raw or {}
        group, version = str(target.get("group") or ""), str(target.get("version") or "")
        state.uses_type(f"{group}/{version}" if group else version,
                        str(target.get("kind") or ""))
    if patch.type == JSON:
        _apply_json(resmap, patch, trace)
        return
    for document in patch.documents:
        state.uses_type(document.value.get("apiVersion"), document.value.get("kind"))
    for document in patch.documents:
        step = _step(patch, trace, document)
        if patch.target is None:
            try:
                selected = [resmap.get_by_id(document.org_id())]
            except KubeError as err:
                if patch.field == "patches":
                    raise KubeError('no resource matches strategic merge patch '
                                    f'{go_quote(str(document.org_id()))}: {err.message}',
                                    code=KUSTOMIZE_ERROR) from None
                raise
            _merge_into(resmap, selected, document, patch, step, True, state)
        else:
            selected = resmap.select(patch.target)
            _merge_into(resmap, selected, document, patch, step, False, state)


def _step(patch: Patch, trace: Trace | None, document: Document | None) -> Step | None:
    if trace is None:
        return None
    return trace.begin(Step(
        PATCH, patch.field, patch.index, patch.kustomization.file, patch.line,
        patch_type=patch.type, patch=document.value if document else patch.ops,
        patch_file=patch.file, patch_line=patch.offset + 1,
        patch_positions=document.positions if document else patch.op_positions,
        selector=patch.target_raw, patch_kinds=patch.kinds()))


def _merge_into(resmap: ResMap, selected: list[Resource], document: Document, patch: Patch,
                step: Step | None, keep_version: bool, state: SchemaState) -> None:
    allow_name = bool(patch.options.get("allowNameChange"))
    allow_kind = bool(patch.options.get("allowKindChange"))
    for resource in selected:
        replacements.refuse_retyped(resource, patch.kustomization.where(
            f"/{patch.field}/{patch.index}"))
        body = snapshot(document.value if keep_version or document.targeted is None
                        else document.targeted)
        if not keep_version:
            body["apiVersion"] = resource.value.get("apiVersion")
        if document.texts:
            body = with_sources(body, document.texts)
        before = snapshot(resource.value) if step is not None else None
        label = resource.describe()
        name, namespace, kind = resource.name, resource.namespace, resource.value.get("kind")
        if allow_name or allow_kind:
            resource.store_previous_id()
        merged_value = strategic.apply(resource.value, body, state.schema())
        if document.texts and merged_value:
            merged_value = without_sources(merged_value)
            # the fields the patch set now hold its nodes, with its texts (a list merge
            # moves items, so only paths through maps are known)
            resource.texts.update(spelled(document.value, document.texts, in_lists=False))
        if merged_value is None or not merged_value:
            resmap.remove(resource)
            after = None
        else:
            previous, resource.value = resource.value, merged_value
            resource.typed_keys = resource.typed_keys or document.typed_keys
            aliases.merged(resource, previous)
            # the merge keeps the target's kind and name, as kustomize's does; the options
            # let the patch's own take their place
            patch_kind = document.value.get("kind")
            resource.value["kind"] = patch_kind if allow_kind and patch_kind else kind
            if not allow_name:
                resource.set_name(name)
            elif document.org_id().name:  # the merge takes the patch's name
                resource.set_name(document.org_id().name)
            resource.set_namespace(namespace)
            after = snapshot(resource.value) if step is not None else None
        if step is not None:
            step.targets.append(label)
            step.touches.append(Touch(resource, before, after, label))


def _apply_json(resmap: ResMap, patch: Patch, trace: Trace | None) -> None:
    step = _step(patch, trace, None)
    assert patch.target is not None
    for resource in resmap.select(patch.target):
        before = snapshot(resource.value) if step is not None else None
        if patch.field != "patchesJson6902":  # kustomize: the legacy transformer does not
            resource.store_previous_id()
        internal = resource.internal_annotations()
        source = _annotated(resource.value, internal)
        errors = resource.duplicate_errors(source)
        if errors:  # kustomize decodes the resource, its annotations added, strictly here
            raise KubeError("yaml: unmarshal errors:\n  " + "\n  ".join(errors),
                            code=KUSTOMIZE_ERROR)
        json_annotations(source, decoded=True)
        try:
            result = jsonpatch.apply_document(source, patch.ops)
        except KubeError as err:
            raise KubeError(err.message, code=KUSTOMIZE_ERROR) from None  # kustomize: no hint
        if not isinstance(result, dict):
            raise KubeError(f"json: cannot unmarshal {type(result).__name__} into Go value of "
                            f"type map[string]interface {{}}", code=KUSTOMIZE_ERROR)
        _strip_internal(result, internal)
        json_annotations(result, decoded=False)
        resource.value = reencoded(result)
        resource.texts = {}  # every scalar was written again from its value
        aliases.forget(resource)
        if step is not None:
            step.targets.append(resource.describe())
            step.touches.append(Touch(resource, before, snapshot(result), resource.describe()))


def _annotated(value: dict, internal: dict[str, str]) -> dict:
    """``value`` with ``internal`` added to its annotations (a shallow copy where changed)."""
    meta = value.get("metadata")
    if not isinstance(meta, dict):
        return value
    found = meta.get("annotations")
    if found is not None and not isinstance(found, dict):
        return value
    if found is None and not internal:  # measured: a JSON patch then sees a null
        return {**value, "metadata": {**meta, "annotations": None}}
    return {**value, "metadata": {**meta, "annotations": {**(found or {}), **internal}}}


def _strip_internal(result: dict, internal: dict[str, str]) -> None:
    """Take the internal annotations off a patch's result again (kustomize restores and
    later strips them, whatever the patch did to them); an empty map goes too."""
    meta = result.get("metadata")
    if not isinstance(meta, dict):
        return
    found = meta.get("annotations")
    if found is None and "annotations" in meta:
        del meta["annotations"]  # the null a resource without annotations showed
        return
    if not isinstance(found, dict):
        return
    for key in internal:
        found.pop(key, None)
    if not found:
        del meta["annotations"]
