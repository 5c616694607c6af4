"""Reading YAML into :class:`~cfgpatch.kube.io.kyaml.Node` trees as kyaml does.

PyYAML's composer does the parsing (it keeps styles and positions): its C composer
(libyaml) when PyYAML has it and the text is printable ASCII without tabs or carriage
returns (where the two composers give the same nodes; about 4x faster), else, and for
every error message, the pure-Python one; the
tags are go-yaml v3's: an explicit tag is kept (``!!str``, ``!foo``), a quoted or block
scalar is ``!!str``, a plain one is resolved by :func:`..kyaml_scalars.resolve`
(``yes`` stays a string, ``010`` is an int, ``2002-12-14`` a timestamp).  Aliases are
shared nodes (the same :class:`Node` object at both places).
"""

from __future__ import annotations

import os
from contextvars import ContextVar
from itertools import islice

from ...context_scope import ContextScope
from ...lazy_pattern import lazily
from ..problems import BadBytes, Separator, line_column
from . import kyaml_block
from .kyaml import FLOW, MAP, MAPPING, SCALAR, SEQ, SEQUENCE, KyamlError, Node
from .kyaml_scalars import resolve
from .yamlnodes import PLAIN_TAG

# PyYAML and the modules around it (.reader, .patch_text) are imported where a text is
# read through them: the block reader (.kyaml_block) takes most files without them.

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_LONG = "tag:yaml.org,2002:"


#: The read cache of :func:`cached_reads` (None outside one): (text, file) -> documents.
_CACHE: ContextVar[dict | None] = ContextVar("kyaml_read_cache", default=None)


def cached_reads() -> ContextScope:
    """Within the block, :func:`read_documents` parses each (text, file) once and hands
    out copies of its nodes (aliases stay shared within a copy): a caller building many
    kustomizations over the same bases (``cfgpatch lint``) does not compose each base's
    files again per overlay.  Nested blocks share the outer cache."""
    return ContextScope(_CACHE, {}, keep_outer=True)


def copy_node(node: Node) -> Node:
    """An independent copy of the document ``node`` (its aliases shared within it)."""
    return _copy(node, {})


def _copy(node: Node, memo: dict[int, Node]) -> Node:
    known = memo.get(id(node))
    if known is not None:
        return known
    out = Node(node.kind, node.tag, node.value, [], node.style, node.line, node.column,
               node.file)
    memo[id(node)] = out
    out.content = [_copy(child, memo) for child in node.content]
    return out


def read_documents(text: str, file: str = "") -> list[Node]:
    """Every document of ``text`` (documents that are empty or ``null`` are dropped, as
    kustomize drops them).  Raises :class:`KyamlError` with go-yaml's message."""
    return _cached("documents", text, file)


def _cached(kind: str, text: str, file: str, shared: bool = False) -> list[Node]:
    """The ``kind`` of reading of ``text`` (``"documents"``: every document;
    ``"resources"``: as a resource file; ``"first"``: its first document), through the
    cache of :func:`cached_reads` when in one (``shared``: the cached nodes themselves,
    not copies)."""
    read = {"documents": _read_documents, "resources": _resource_documents,
            "first": _first_document}[kind]
    cache = _CACHE.get()
    if cache is None:
        return read(text, file)
    key = (kind, text, file)
    if key not in cache:
        cache[key] = read(text, file)
    if shared:
        return list(cache[key])
    memo: dict[int, Node] = {}
    return [_copy(node, memo) for node in cache[key]]


def read_first_document(text: str, file: str = "") -> Node | None:
    """The first document of ``text`` (``None`` when it is empty or ``null``), as
    go-yaml v2's ``Unmarshal`` reads it: what follows is never read, errors included."""
    found = _cached("first", text, file)
    return found[0] if found else None


def _first_document(text: str, file: str) -> list[Node]:
    return _read_documents(text, file, first=True)


def read_resource_documents(text: str, file: str = "") -> list[Node]:
    """The documents of a resource file as kyaml's ``ByteReader`` reads them (see
    :func:`_resource_documents`)."""
    return _cached("resources", text, file)


def shared_resource_documents(text: str, file: str = "") -> list[Node]:
    """:func:`read_resource_documents`, but within :func:`cached_reads` the cached nodes
    themselves: the caller must not change them (copy one first, :func:`copy_node`)."""
    return _cached("resources", text, file, shared=True)


def _resource_documents(text: str, file: str) -> list[Node]:
    """The documents of a resource file as kyaml's ``ByteReader`` reads them.

    The text (``\\r\\n`` made ``\\n``) is cut at every line that starts with ``---``
    after a line break (a separator followed by anything but blanks or a comment is
    kustomize's ``invalid document separator`` error, raised with ``malformed`` false),
    and only the first document of each piece is read: an error's line counts from the
    piece's start, and what follows a ``...`` in a piece is never read (tree
    ``error-resource-yaml``).  The nodes' lines are the file's.
    """
    text = text.replace("\r\n", "\n")
    pieces, start, before = [], 0, 0
    for match in _SEPARATOR.finditer(text):
        separator = match.group()
        rest = separator[4:].strip()
        if rest and not rest.startswith("#"):
            failed = KyamlError(Separator(separator.strip(), rest, "kyaml"), file=file)
            failed.malformed = False  # type: ignore[attr-defined]
            raise failed
        pieces.append((text[start : match.start()] + "\n", before))
        before += text.count("\n", start, match.end())
        start = match.end()
    pieces.append((text[start:], before))
    return [node for piece, before in pieces
            for node in _read_documents(piece, file, first=True, lines_before=before,
                                        v3=True)]


_SEPARATOR = lazily(r"\n---.*\n")


def _reader_error(yaml: Any, text: str, file: str, v3: bool, position: int) -> KyamlError:
    """go-yaml's error for a ``text`` its reader refuses somewhere: a control character,
    or bytes of the file that do not decode (kept in ``text`` as ``surrogateescape``
    characters). The reader decodes a chunk at a time, so a syntax error the scanner
    meets before the refused chunk is reported instead (as for patches,
    :func:`cfgpatch.kube.io.patch_text.compose_first`)."""
    from .patch_text import as_bytes, decode_bytes, scanned_before, yaml_problem
    from .reader import _patch_loader_class

    decoded, unread = decode_bytes(as_bytes(text))
    if unread is None:
        at = len(text[:position].encode("utf-8", "surrogateescape"))
        return KyamlError(BadBytes("control-character", at, *line_column(text, position)),
                          file=file)
    try:
        list(yaml.compose_all(decoded, Loader=_patch_loader_class()))
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        if mark is not None and scanned_before(mark.index, unread):
            return KyamlError(yaml_problem(err, 3 if v3 else 2), file=file, line=mark.line + 1)
    except yaml.YAMLError:
        pass
    return KyamlError(unread.problem, file=file)


def _read_documents(text: str, file: str, first: bool = False, lines_before: int = 0,
                    v3: bool = False) -> list[Node]:
    """The documents of ``text`` (with ``first``, only its first one is read); node
    lines count ``lines_before`` more (the text is a piece of a file), error lines not;
    ``v3``: error lines as go-yaml v3 counts them (kyaml's reading of resources)."""
    simple = kyaml_block.read(text, file, first, lines_before)
    if simple is not None:  # the block YAML most files are written in, without PyYAML
        return simple
    from .patch_text import yaml_problem
    from .reader import _patch_loader_class, pyyaml

    yaml = pyyaml()
    try:
        composed = _fast_compose(yaml, text, first)
        if composed is None:
            documents = yaml.compose_all(text, Loader=_patch_loader_class())
            composed = list(islice(documents, 1) if first else documents)
    except yaml.reader.ReaderError as err:
        raise _reader_error(yaml, text, file, v3, err.position) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        raise KyamlError(yaml_problem(err, 3 if v3 else 2), file=file,
                         line=mark.line + 1 if mark else 0) from None
    except yaml.YAMLError as err:
        raise KyamlError(f"yaml: {err}", file=file) from None
    out = []
    for node in composed:
        converted = _Converter(file, lines_before).node(node)
        if not converted.is_null():
            out.append(converted)
    return out


_SIMPLE = frozenset(range(0x20, 0x7F)) | {0x0A}
#: A text that is not ASCII is simple when every other character is one both composers
#: (and go-yaml) take as a plain printable character: no C1 control, line or paragraph
#: separator, byte order mark, surrogate (a byte that was not UTF-8) or non-character.
_NOT_SIMPLE = lazily("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe"
                         "\uff00-\ufffd\U00010000-\U0010ffff]")
#: A line holding a character beyond ASCII longer than this goes to the pure-Python
#: composer: a simple key's 1024 limit may count bytes in one and characters in the other.
_LONG_WIDE_LINE = lazily("[^\n]{256}")


def _simple(text: str) -> bool:
    """Whether libyaml composes ``text`` as the pure-Python composer does."""
    if text.isascii():
        return _SIMPLE.issuperset(text.encode("ascii"))
    if _NOT_SIMPLE.search(text):
        return False
    for line in text.splitlines():
        if not line.isascii() and _LONG_WIDE_LINE.match(line):
            return False
    return True


_c_loader: Any = None
#: Whether libyaml may compose the simple texts (the pure-Python composer reads the rest;
#: both give the same nodes).  ``CFGPATCH_NO_LIBYAML=1`` forces the pure-Python path
#: everywhere: ``make test-pure-yaml`` runs the YAML tests so.
LIBYAML = os.environ.get("CFGPATCH_NO_LIBYAML", "") in ("", "0")


def _fast_compose(yaml: Any, text: str, first: bool = False) -> list | None:
    """The documents composed by libyaml, or None (not available, text not simple, or an
    error: the pure-Python composer then gives the message)."""
    global _c_loader
    if not LIBYAML or not getattr(yaml, "__with_libyaml__", False) or not _simple(text) \
            or "\\/" in text:
        return None  # (libyaml takes the escape \/, go-yaml refuses it)
    if _c_loader is None:
        class CLoader(yaml.CBaseLoader):
            def resolve(self, kind: type, value: Any, implicit: Any) -> str:
                if kind is yaml.ScalarNode and implicit and implicit[0]:
                    return PLAIN_TAG
                return super().resolve(kind, value, implicit)
        _c_loader = CLoader
    try:
        documents = yaml.compose_all(text, Loader=_c_loader)
        return list(islice(documents, 1) if first else documents)
    except yaml.YAMLError:
        return None


def read_document(text: str, file: str = "") -> Node | None:
    """The one document of ``text`` (``None`` if it has none); more is an error."""
    documents = read_documents(text, file)
    if len(documents) > 1:
        raise KyamlError(f"expected one YAML document in {file or 'the input'}, "
                         f"found {len(documents)}", file=file)
    return documents[0] if documents else None


class _Converter:
    def __init__(self, file: str, lines_before: int = 0) -> None:
        self.file = file
        self.lines_before = lines_before  # the piece read starts after so many lines
        self.seen: dict[int, Node] = {}

    def node(self, source: Any) -> Node:
        known = self.seen.get(id(source))
        if known is not None:
            return known
        from .reader import pyyaml

        yaml = pyyaml()
        mark = source.start_mark
        out = Node(SCALAR, line=mark.line + 1 + self.lines_before, column=mark.column + 1,
                   file=self.file)
        self.seen[id(source)] = out
        if isinstance(source, yaml.ScalarNode):
            out.value = source.value
            out.style = source.style or ""
            out.tag = _scalar_tag(source.tag, source.value, out.style)
            return out
        out.kind = MAPPING if isinstance(source, yaml.MappingNode) else SEQUENCE
        out.style = FLOW if source.flow_style else ""
        out.tag = _short(source.tag) or (MAP if out.kind == MAPPING else SEQ)
        if out.kind == MAPPING:
            for key, value in source.value:
                out.content += [self.node(key), self.node(value)]
        else:
            out.content = [self.node(item) for item in source.value]
        return out


def _short(tag: str) -> str:
    if tag.startswith(_LONG):
        return "!!" + tag[len(_LONG):]
    return tag


def _scalar_tag(tag: str, value: str, style: str) -> str:
    if tag == PLAIN_TAG:
        return "!!merge" if value == "<<" else resolve(value)[0]
    return _short(tag)
