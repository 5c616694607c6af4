"""kustomize's loading of patch entries: ``patches``, ``patchesStrategicMerge`` and
``patchesJson6902`` read from a file (``path``) or inline (``patch``) and detected as
kustomize detects them: text that reads as resources (maps with ``kind`` and
``metadata.name``) is a strategic merge patch, text that reads as a list of operations
(YAML or JSON) is a JSON 6902 patch; what it cannot load is a
:class:`~cfgpatch.kube.problems.Kustomize` record (worded by ``compat.kustomize``)."""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..go import jsondecode
from ..io.kyaml import FOLDED, LITERAL, MAPPING, KyamlError
from ..io.kyaml_duplicates import drop_duplicates
from ..io.kyaml_read import read_documents
from ..io.kyaml_write import write_value
from ..problems import Kustomize, ProblemError, cause
from . import json_ops_block, replacements
from .kustomization import Kustomization
from .patch_model import JSON, STRATEGIC, Document, Patch
from .patchtexts import source_texts
from .positions import node_at, node_positions, shifted
from .resources import read_node, read_resources
from .selectors import Selector
from .styles import metadata_texts, styled_with_typed_keys
from .trace import snapshot

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


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
            raise _strategic_config_error(kust, cause(err)) from None
        documents = _strategic_documents(body, path, 0)
        if documents is None:
            raise _unreadable_strategic(kust, text, body, path)
        out.append(Patch(kust, "patchesStrategicMerge", index, STRATEGIC, path,
                         kust.line(pointer), 0, documents))
    if entries and not out:  # Go's %v of the list: its entries between brackets
        files = " ".join(entry if isinstance(entry, str) else "" for entry in entries)
        raise _strategic_config_error(kust, Kustomize("patch-appears-empty", detail=files))
    return out


def _unreadable_strategic(kust: Kustomization, entry: str, body: str, path: str) -> KubeError:
    """kustomize's error for a ``patchesStrategicMerge`` file it cannot read as resources:
    the transformer's configuration (every entry), then why, in the words of reading a
    resource file (``MalformedYAMLError: ... in File:``, ``missing kind in object ...``)."""
    try:
        read_resources(body, path)
    except KubeError as err:
        found = cause(err)
        if getattr(err, "in_file", False):
            found = Kustomize("in-file", path=entry, cause=found)
        return _strategic_config_error(kust, found)
    return KubeError(f"{path}: not a strategic merge patch (patchesStrategicMerge)",
                     code=KUSTOMIZE_ERROR)


def _strategic_config_error(kust: Kustomization, problem: Any) -> KubeError:
    """kustomize's error configuring ``patchesStrategicMerge``: every entry, then why."""
    config = write_value({"paths": list(kust.get("patchesStrategicMerge", []))})
    return ProblemError(Kustomize("configuring-builtin", name="PatchStrategicMergeTransformer",
                                  detail=config, cause=problem), code=KUSTOMIZE_ERROR)


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
            raise ProblemError(Kustomize("no-target-for-patch", detail=text),
                               code=KUSTOMIZE_ERROR)
        out.append(patch)
    return out


def _load_entry(kust: Kustomization, name: str, index: int, entry: dict) -> Patch:
    text, path, offset = _entry_text(kust, name, index, entry)
    documents = _strategic_documents(text, path, offset)
    ops, op_positions = _json_ops(text, offset)
    line = kust.line(f"/{name}/{index}")
    if documents is not None and ops is not None:
        raise ProblemError(Kustomize("sm-and-json-patch", detail=text), code=KUSTOMIZE_ERROR)
    if documents is None and ops is None:
        raise _configuring(name, entry, _source_of("unparsable-patch", entry))
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
        raise ProblemError(_source_of("no-target-for-json-patch", entry), code=KUSTOMIZE_ERROR)
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


def _configuring(name: str, entry: dict, problem: Any) -> KubeError:
    """kustomize's error configuring the transformer of one patch entry."""
    return ProblemError(Kustomize("configuring-builtin", name=_TRANSFORMERS[name],
                                  detail=_config_text(name, entry), cause=problem),
                        code=KUSTOMIZE_ERROR)


def _source_of(code: str, entry: dict) -> Kustomize:
    """A problem ``code`` of a patch's text, named as kustomize names it in its errors:
    ``name`` ``path`` or ``patch``, ``detail`` the file name or the text."""
    source = "path" if entry.get("path") else "patch"
    return Kustomize(code, name=source, detail=str(entry.get(source) or ""))


def _entry_text(kust: Kustomization, name: str, index: int, entry: dict) -> tuple[str, str, int]:
    inline = entry.get("patch")
    inline = inline.strip() if isinstance(inline, str) else ""
    path = entry.get("path") if isinstance(entry.get("path"), str) else ""
    legacy = name == "patchesJson6902"
    config = _config_text(name, entry).rstrip("\n")
    if not inline and not path:
        raise _configuring(name, entry, Kustomize("no-json-op") if legacy
                           else Kustomize("no-patch-or-path", detail=config))
    if inline and path:
        raise _configuring(name, entry, Kustomize("path-and-json-op") if legacy
                           else Kustomize("patch-and-path", detail=config))
    if path:
        try:
            text, real = kust.loader.read(path)
        except KubeError as err:
            raise _configuring(name, entry, cause(err) if legacy else
                               Kustomize("patch-file", path=path, cause=cause(err))) from None
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
    value = json_ops_block.read(text)  # the usual block YAML, without PyYAML
    if value is json_ops_block.NOT_A_LIST:
        return None
    if value is None:
        from ..io import reader  # kubectl's patch reader (and PyYAML): when needed only

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
