"""Keys written twice in one mapping, as kustomize meets them (measured with kubectl
kustomize 1.32, corpus tree ``error-duplicate-keys``).

kustomize reads such a document without complaint and looks up the *first* of the two
keys (so a strategic merge patch with ``z: 1`` and ``z: 2`` sets ``1``).  A resource is
refused only when it is finally turned into a Go map, with go-yaml v3's check: in every
mapping, every later key that has the same text as an earlier one (``a`` and ``"a"``
too) is reported, and a mapping with a repeated key is not looked into further.  The
lines are those of kustomize's own re-encoding of the document (:func:`encoded_lines`).
:func:`duplicate_keys` gives them as values (the ``detail`` of a
``YamlValue("duplicate-keys")`` problem, which ``compat.goyaml`` words).

>>> from cfgpatch.kube.io.kyaml_read import read_document
>>> doc = read_document("a: 1\\nb: {x: 1, x: 2}\\n'a': 3\\n")
>>> duplicate_keys(doc)
((3, 'a', 1),)
>>> from cfgpatch.kube.io.kyaml_scalars import node_value
>>> node_value(drop_duplicates(doc))
{'a': 1, 'b': {'x': 1}}
"""

from __future__ import annotations

from .kyaml import FLOW, FOLDED, LITERAL, MAPPING, SCALAR, Node

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


def scan_keys(node: Node) -> tuple[bool, bool]:
    """Whether the document has a key ``<<`` (merge key or not), and a key written twice
    in one mapping: one quick pass, so that the usual document costs little."""
    merge = repeated = False
    stack, seen = [node], set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current.kind == MAPPING:
            keys = [key.value for key in current.content[0::2]]
            merge = merge or "<<" in keys
            repeated = repeated or (len(keys) > 1 and len(set(keys)) != len(keys))
            if merge and repeated:
                break
        if current.kind != SCALAR:
            stack.extend(current.content)
    return merge, repeated


def duplicate_pairs(node: Node) -> list[tuple[Node, Node]]:
    """(earlier key, later key) of every repeated key go-yaml reports, in its order."""
    found: list[tuple[Node, Node]] = []
    for current in _tree(node, skip=lambda n: bool(n.kind == MAPPING and _repeated(n))):
        if current.kind == MAPPING:
            found += _repeated(current)
    return found


def _tree(node: Node, skip: Callable[[Node], bool] = lambda n: False) -> Iterator[Node]:
    """The nodes under ``node`` in document order, an alias as often as it is used (but
    not inside itself); the children of a node ``skip`` accepts are left out."""
    active: set[int] = set()
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        current, leaving = stack.pop()
        if leaving:
            active.discard(id(current))
            continue
        if id(current) in active:
            continue
        yield current
        if skip(current):
            continue
        active.add(id(current))
        stack.append((current, True))
        stack.extend((child, False) for child in reversed(current.content))


def duplicate_keys(node: Node, line: Callable[[int], int] = lambda n: n
                   ) -> tuple[tuple[int, str, int], ...]:
    """The repeated keys as go-yaml reports them: (the line of the later key, the key,
    the line of the earlier one), with ``line`` mapping the line read to the line
    kustomize counts."""
    return tuple((line(later.line), later.value, line(earlier.line))
                 for earlier, later in duplicate_pairs(node))


def drop_duplicates(node: Node) -> Node:
    """``node`` with every repeated key and its value removed (the first one stays)."""
    for current in _tree(node):
        if current.kind == MAPPING and _repeated(current):
            seen: set[tuple[str, str]] = set()
            content: list[Node] = []
            for key, value in current.pairs():
                if (key.kind, key.value) not in seen:
                    seen.add((key.kind, key.value))
                    content += [key, value]
            current.content = content
    return node


def _repeated(mapping: Node) -> list[tuple[Node, Node]]:
    keys = mapping.content[0::2]
    if len({(key.kind, key.value) for key in keys}) == len(keys):
        return []
    return [(earlier, later) for index, earlier in enumerate(keys)
            for later in keys[index + 1:]
            if earlier.kind == later.kind and earlier.value == later.value]


def encoded_lines(text: str, node: Node) -> Callable[[int], int]:
    """Line numbers as kustomize counts them in a document of ``text`` (``node``): it
    re-encodes the document on its own, so lines count from the line after its ``---``;
    blank lines are gone (one after a comment stays), comments stay, and a scalar or a
    flow collection written over several lines takes one (a ``|`` or ``>`` block keeps
    its lines)."""
    lines = text.split("\n")
    start = _document_start(lines, node.line)
    kept = _kept_lines(lines, node, start)
    numbers: dict[int, int] = {}
    count = 1 if start - 1 in kept else 0
    for number in range(start, len(lines) + 1):
        if number in kept:
            count += 1
        numbers[number] = max(count, 1)
    return lambda n: numbers.get(n, n)


def _document_start(lines: list[str], first: int) -> int:
    """The first line of the document whose first node is on line ``first``."""
    for number in range(first - 1, 0, -1):
        if lines[number - 1].startswith("---"):
            return number + 1
    return 1


def _kept_lines(lines: list[str], node: Node, start: int) -> set[int]:
    flows = [n for n in _tree(node) if n.style == FLOW]
    inside = {id(child) for flow in flows for child in _tree(flow) if child is not flow}
    starts = sorted({n.line for n in _tree(node) if n.line and id(n) not in inside})
    kept = set(starts)
    if start == 2 and lines[0][3:].strip():
        kept.add(1)  # "--- # note" on the first line of the file: a comment of the document
    blocks = [n for n in _tree(node) if n.kind == SCALAR and n.style in (LITERAL, FOLDED)]
    for block in blocks:
        following = [s for s in starts if s > block.line]
        end = following[0] if following else len(lines) + 1
        body = [n for n in range(block.line + 1, end) if lines[n - 1].strip()]
        kept.update(range(block.line + 1, body[-1] + 1) if body else ())
    after_comment = False
    for number in range(start, len(lines) + 1):
        stripped = lines[number - 1].strip()
        if stripped.startswith("#") and number not in kept:
            kept.add(number)
            after_comment = True
        elif not stripped and after_comment:
            kept.add(number)
            after_comment = False
        elif stripped:
            after_comment = False
    return kept
