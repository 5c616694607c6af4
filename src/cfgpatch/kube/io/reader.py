"""Reading objects and patches, and printing results, exactly as ``kubectl patch`` does.

The only module of ``cfgpatch.kube`` that uses PyYAML (its pure-Python composer and
emitter); go-yaml's rules live in ``go.yaml``, Go's JSON in ``go.json`` and kubectl's
object decoding in ``unstructured``.

Interface (used by ``kube/patcher.py`` and the CLI):

``load_object(text, source="-") -> (obj, notes)``
    The ``-f`` file.  Text whose first non-space character is ``{`` is read as JSON
    (Go ``encoding/json`` rules: duplicate keys, last one wins); anything else as YAML
    1.1 the way kubectl's YAML library resolves plain scalars (``on``/``yes``/``y`` are
    ``true``, ``010`` is 8, ``0x1F`` is 31, ``1e3`` is 1000, ``1_000`` is 1000, dates stay
    strings; map keys are resolved too and turned back into strings: ``yes:`` becomes
    the key ``"true"``).  Numbers then take kubectl's form: an integer within int64 is
    an ``int``, anything else a ``float``.  More than one object raises ``KubeError``
    (code ``multiple documents``; :func:`load_objects` reads a file of several).
    ``obj`` keeps ``metadata.managedFields``: kubectl drops it only when printing.

``load_patch(text, patch_type) -> (patch, notes)``
    The ``-p`` / ``--patch-file`` text.  Unless its first non-space character is ``{``
    it is YAML, converted to JSON first (so ``[...]`` JSON patches go through YAML too,
    and ``1.0`` becomes ``1``).  JSON text that kubectl would refuse raises
    ``KubeError`` with the message kubectl prints for that ``patch_type``.

``load_objects(text, source="-")``
    The objects of a file of several, one at a time, as kubectl's stream reads them:
    ``(obj, notes)`` or the error of one document, and the error that ends the
    reading raised where it comes.

``load_inputs(object_text, source, patch_text, patch_type, check=None)``
    Both of the above, failing in kubectl's order (a YAML patch error before an object
    error before a JSON patch error); returns ``(obj, notes, patch, patch_notes)``.

``dump(obj, fmt) -> str``
    ``fmt`` is ``"json"`` (kubectl's ``-o json``: 4-space indent, sorted keys, Go's
    escaping of ``<``, ``>``, ``&``, U+2028/9, Go float formatting, final newline) or
    ``"yaml"`` (``-o yaml``: go-yaml v2 style, natural key order such as ``k9`` before
    ``k10``, quoting of strings that would read as something else, 80-column folding).
    ``metadata.managedFields`` is left out, as kubectl does.

``decode_result(obj) -> obj``
    What kubectl does with the patched document before printing it: a result that is
    not an object, or has no string ``kind``, raises kubectl's ``KubeError``; numbers are
    brought back to kubectl's int64/float64 form.

``notes`` is a list of :class:`TypeNote`: one per unquoted YAML scalar (value or key)
that kubectl reads as something other than the string that was written.  ``pointer``
is the RFC 6901 pointer of the value (for a key: of the member it names, after
conversion), ``written`` the text as written, ``value`` what kubectl made of it
(for a key, the key string it became) and ``where`` is ``"value"`` or ``"key"``.
"""

from __future__ import annotations

import math

from ...errors import KubeError
from ..go import json as gojson
from ..go import jsondecode
from ..go import yaml as goyaml
from ..problems import Command, JsonSyntax, Parsing, ProblemError, YamlValue, words
from . import blockyaml, docsplit, flowjson, patch_text, unstructured
from .notes import TypeNote
from .unstructured import decode_result
from .yamlnodes import PLAIN_TAG, ConvertError, NodeReader, pyyaml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

__all__ = ["PLAIN_TAG", "TypeNote", "compose_documents", "decode_result", "load_inputs",
           "load_object", "load_objects", "load_patch", "load_patch_or_error",
           "object_from_nodes"]

def _loader_class() -> type:
    """PyYAML's pure-Python composer; untagged plain scalars get the tag ``PLAIN_TAG`` so
    that go-yaml's resolution can be applied to exactly those."""
    pyyaml()  # PyYAML, or the error that asks for it
    import yaml

    class Loader(yaml.BaseLoader):
        def resolve(self, kind: type, value: Any, implicit: Any) -> str:
            if kind is yaml.ScalarNode and implicit and implicit[0]:
                return PLAIN_TAG
            return super().resolve(kind, value, implicit)

    return Loader


def _patch_loader_class() -> type:
    """:func:`_loader_class` reading as go-yaml v2 does where PyYAML differs (the ``-p``
    text and the pieces of the ``-f`` file)."""
    return type("PatchLoader", (patch_text.GoYamlMixin, _loader_class()), {})


def _compose_pieces(text: str) -> list:
    """The root node of each piece of a YAML ``-f`` text as kubectl cuts it (empty pieces
    left out): go-yaml reads each piece's first document only."""
    loader = _patch_loader_class()
    nodes = []
    for piece in docsplit.split(text):
        try:
            decoded, unread = patch_text.decode_bytes(patch_text.as_bytes(piece))
            node = patch_text.compose_first(decoded, loader, unread)
        except patch_text.PatchTextError as err:
            raise ConvertError(err.problem) from None
        if node is not None:
            nodes.append(node)
    return nodes


def _to_json_value(node: Any, reader: NodeReader) -> Any:
    anchor = patch_text.self_containing_anchor(node)
    if anchor is not None:
        raise ConvertError(YamlValue("anchor-contains-itself", anchor))
    value = reader.value(node, "")
    _check_finite(value)
    return value


def _check_finite(value: Any) -> None:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise ConvertError(YamlValue("unsupported-value", gojson.go_float_g(value)))
    if isinstance(value, list):
        for item in value:
            _check_finite(item)
    elif isinstance(value, dict):
        for item in value.values():
            _check_finite(item)


def _is_empty(node: Any) -> bool:
    yaml = pyyaml()
    return node is None or (isinstance(node, yaml.ScalarNode) and node.tag == PLAIN_TAG
                            and goyaml.resolve_plain(node.value) is None)


@unstructured.too_deep
def load_object(text: str, source: str = "-") -> tuple[dict, list[TypeNote]]:
    """Read the ``-f`` file as kubectl does; see the module docstring."""
    if jsondecode.first_non_space(text) == "{":
        return _load_json_object(text, source), []
    if not text.endswith("\n"):  # kubectl's line reader ends the last line too
        text = docsplit.as_read(text)
    fast = blockyaml.read_documents(text)  # the usual block YAML, read line by line
    if fast is not None:
        values, notes, normal = fast  # no anchors: fresh trees
        return _object_and_notes(values, notes, source, owned=True, normal=normal)
    return object_from_nodes(compose_documents(text, source), source)


def compose_documents(text: str, source: str = "-") -> list:
    """The YAML documents of ``text`` as PyYAML nodes, untagged plain scalars tagged
    :data:`PLAIN_TAG`; a syntax error is a ``KubeError`` in kubectl's words.  The text is
    cut into pieces at ``---`` lines as kubectl cuts it (:mod:`.docsplit`), and each
    piece read as go-yaml reads it (:mod:`.patch_text`: its first document only; tabs,
    escapes, directives and anchors by go-yaml's rules)."""
    try:
        return _compose_pieces(text)
    except ConvertError as err:
        raise _conversion_error(source, err) from None
    except docsplit.SeparatorError as err:
        raise _separator_error(source, err) from None


@unstructured.too_deep
def object_from_nodes(nodes: list, source: str = "-") -> tuple[dict, list[TypeNote]]:
    """kubectl's object and the type notes from composed YAML documents (empty ones skipped)."""
    reader = NodeReader()
    try:
        values = [_to_json_value(doc, reader) for doc in nodes if not _is_empty(doc)]
    except ConvertError as err:
        raise _conversion_error(source, err) from None
    return _object_and_notes(values, reader.notes, source)


def load_objects(text: str, source: str = "-") -> Iterator[tuple[dict, list[TypeNote]] | KubeError]:
    """The objects of a ``-f`` file of several, one at a time, as kubectl reads them.

    Each item is ``(obj, notes)`` or the ``KubeError`` of one document (a document that
    is no object, has no kind, a bad list): kubectl reports it with the others at the
    end and reads on.  An error that ends kubectl's reading (YAML that does not parse,
    a bad ``---`` line, JSON that does not parse) is raised when the reading comes to
    it, after the objects before it.
    """
    try:
        if jsondecode.first_non_space(text) == "{":
            yield from _json_objects(text, source)
            return
        for piece in docsplit.pieces(text):
            read = _piece_value(piece, source)
            if read is not None:
                value, notes = read
                yield from _document_objects(value, notes, source, None)
    except docsplit.SeparatorError as err:
        raise _separator_error(source, err) from None
    except RecursionError:
        raise unstructured.too_deep_error() from None


@unstructured.too_deep
def _piece_value(piece: str, source: str) -> tuple[Any, list[TypeNote]] | None:
    """The value and notes of one piece of a YAML file; ``None`` for an empty piece."""
    reader = NodeReader()
    try:
        nodes = [node for node in _compose_pieces(piece) if not _is_empty(node)]
        if not nodes:
            return None
        return _to_json_value(nodes[0], reader), reader.notes
    except ConvertError as err:
        raise _conversion_error(source, err) from None


def _json_objects(text: str, source: str) -> Iterator[tuple[dict, list[TypeNote]] | KubeError]:
    """The values of a JSON stream (``{...} {...}``), each read as a file of one is."""
    raw = patch_text.as_bytes(text)  # bytes kept after a UTF-8 mark (.filebytes) come back
    start = 0
    while raw[start:].strip(b" \t\r\n"):
        rest = raw[start:]
        err = jsondecode.syntax_error(rest)
        end = len(rest)
        if err is not None and err.problem.code == "after-top-level":
            end = err.offset - 1  # the next value starts at the offending character
        elif err is not None:
            raise _json_syntax_error(source, err.problem._replace(offset=start + err.offset))
        piece = rest[:end]
        written = patch_text.as_text(piece).strip(" \t\r\n")
        yield from _document_objects(jsondecode.decode(piece), [], source, written)
        start += end


def _document_objects(value: Any, notes: list[TypeNote], source: str, raw: str | None
                      ) -> Iterator[tuple[dict, list[TypeNote]] | KubeError]:
    """The objects of one decoded document with their notes, or their errors."""
    listed = isinstance(value, dict) and "items" in value
    for index, obj in enumerate(unstructured.objects_of_document(value, source, raw)):
        if isinstance(obj, KubeError):
            yield obj
        else:
            yield obj, _item_notes(notes, index) if listed else notes


def _item_notes(notes: list[TypeNote], index: int) -> list[TypeNote]:
    """The notes of item ``index`` of a list, pointing into the item."""
    prefix = f"/items/{index}"
    return [n._replace(pointer=n.pointer[len(prefix):]) for n in notes
            if n.pointer == prefix or n.pointer.startswith(prefix + "/")]


def load_values(text: str, source: str = "-") -> list:
    """Every non-empty YAML document of ``text`` as kubectl's JSON value, unchecked
    (many objects, ``List`` documents kept whole), for ``kube upgrade``."""
    reader = NodeReader()
    try:
        return [_to_json_value(doc, reader) for doc in compose_documents(text, source)
                if not _is_empty(doc)]
    except ConvertError as err:
        raise _conversion_error(source, err) from None


def _object_and_notes(values: list, notes: list[TypeNote], source: str, owned: bool = False,
                      normal: bool = False) -> tuple[dict, list[TypeNote]]:
    obj = unstructured.object_from_documents(values, source, owned=owned, normal=normal)
    if len(values) == 1 and isinstance(values[0], dict) and "items" in values[0]:
        # the object is the list's only item: point into it
        notes = [n._replace(pointer=n.pointer[len("/items/0"):]) for n in notes
                 if n.pointer == "/items/0" or n.pointer.startswith("/items/0/")]
    return obj, notes


def _conversion_error(source: str, err: ConvertError) -> KubeError:
    return ProblemError(Parsing(source, "yaml", err.problem),
                        hint="the file is not YAML kubectl can read")


def _separator_error(source: str, err: docsplit.SeparatorError) -> KubeError:
    return ProblemError(Parsing(source, "separator", err.problem),
                        hint="a line starting with --- must hold nothing else but a comment")


def _json_syntax_error(source: str, problem: JsonSyntax) -> KubeError:
    """kubectl's error for a JSON file that does not parse (its stream decoder says a
    value cut short is an unexpected EOF, and gives the offset of any other error)."""
    hint = ("the file is not valid JSON: it ends inside a value" if problem.code == "end"
            else "the file is not valid JSON")
    return ProblemError(Parsing(source, "json", problem), hint=hint)


def _load_json_object(text: str, source: str) -> dict:
    raw = patch_text.as_bytes(text)  # bytes kept after a UTF-8 mark (.filebytes) come back
    err = jsondecode.syntax_error(raw)
    if err is not None and err.problem.code == "after-top-level":
        raise unstructured.multi_document(source)
    if err is not None:
        raise _json_syntax_error(source, err.problem)
    written = text.strip(" \t\r\n")  # kubectl quotes the document as written
    return unstructured.object_from_documents([jsondecode.decode(raw)], source, written,
                                              owned=True)


def load_inputs(object_text: str, source: str, patch: str | bytes, patch_type: str,
                check: Callable[[dict], None] | None = None, shown: str | bytes | None = None
                ) -> tuple[dict, list[TypeNote], Any, list[TypeNote]]:
    """Both inputs, failing in kubectl's order: ``(obj, notes, patch, patch_notes)``.

    kubectl converts a YAML patch before it reads the file, but parses a ``{...}`` JSON
    patch only when it applies it.  So: an empty patch or a YAML patch that does not
    parse fails first, then a bad object file, then a JSON patch that does not parse.
    ``check(obj)`` runs just before that last error is raised, for what kubectl looks at
    earlier (a strategic patch on a kind it does not know fails with "not supported"
    whatever the patch text).
    """
    patch, patch_notes, pending = load_patch_or_error(patch, patch_type, shown)
    obj, notes = load_object(object_text, source)
    if pending is not None:
        if check is not None:
            check(obj)
        raise pending
    return obj, notes, patch, patch_notes


def load_patch_or_error(patch: str | bytes, patch_type: str, shown: str | bytes | None = None
                        ) -> tuple[Any, list[TypeNote], KubeError | None]:
    """:func:`load_patch`, or the error of a JSON patch that does not parse, which kubectl
    meets only when it applies the patch to an object (returned third, not raised); a
    YAML patch that does not parse is raised at once, as kubectl fails before reading
    the object."""
    try:
        patch_value, notes = load_patch(patch, patch_type, shown)
    except KubeError as err:
        if not patch_text.has_json_prefix(patch):
            raise
        return None, [], err
    return patch_value, notes, None


@unstructured.too_deep
def load_patch(text: str | bytes, patch_type: str = "strategic", shown: str | bytes | None = None
               ) -> tuple[Any, list[TypeNote]]:
    """Read the ``-p`` text as kubectl does; see the module docstring.  ``text`` may be
    the bytes kubectl gets; ``shown`` is what its ``unable to parse`` error quotes (the
    ``-p`` text; ``""`` for a ``--patch-file``)."""
    data = patch_text.as_bytes(text) if isinstance(text, str) else text
    if data == b"" and shown != "":
        raise ProblemError(Command("empty-patch"), hint="the patch is empty")
    if patch_text.has_json_prefix(data):
        return _load_json_patch(data, patch_type), []
    plain = flowjson.read(data.decode("ascii")) if data.isascii() else None
    if plain is not None:  # plain JSON such as [{"op": ...}], read as YAML reads it
        return _sorted_keys(unstructured.normalize(plain)), []
    reader = NodeReader()
    try:
        text, unread = patch_text.decode_bytes(data)
        node = patch_text.compose_first(text, _patch_loader_class(), unread)
        value = None if node is None else unstructured.normalize(_to_json_value(node, reader))
    except (ConvertError, patch_text.PatchTextError) as err:
        quoted = patch_text.go_quote_bytes(data if shown is None else shown)
        raise ProblemError(Parsing(quoted, "patch", err.problem),
                           hint="the patch is neither JSON nor YAML kubectl can read") from None
    return _sorted_keys(value), reader.notes


def _sorted_keys(value: Any) -> Any:
    """Maps with their keys in Go's ``json.Marshal`` order (sorted by bytes).

    kubectl turns a YAML patch into JSON text through a Go map, so the JSON it then
    decodes has sorted keys; the order of keys is what decides which of ``f`` and
    ``$deleteFromPrimitiveList/f`` strategic merge most often handles first.
    """
    if isinstance(value, dict):
        return {key: _sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(item) for item in value]
    return value


def _load_json_patch(raw: bytes, patch_type: str) -> Any:
    err = jsondecode.syntax_error(raw)
    if err is None:
        value = jsondecode.decode(raw)
        big = jsondecode.has_out_of_range(value)
        if big is None or patch_type != "strategic":
            return value  # merge keeps the text; kubectl fails when it decodes the result
        problem, offset = big.problem(), 0
    else:
        problem, offset = err.problem, err.offset
    hint = f"the patch is not valid JSON: {words(problem)} (at byte {offset})"
    refused = {"strategic": "invalid-json-document", "merge": "invalid-json-patch"}.get(
        patch_type)
    raise ProblemError(Command(refused) if refused else problem, hint=hint)
