"""A resource whose file wrote a key twice: the error kustomize gives for it, with its lines.

kustomize reads such a resource (the first key wins, see
:mod:`~cfgpatch.kube.io.kyaml_duplicates`) and refuses it when it decodes the resource
strictly: at the end of the build, or when a JSON 6902 patch is applied to it.  The
lines go-yaml reports are those of kustomize's re-encoding of the resource *at that
moment*, so fields the build added in a block mapping that ends above a repeated key
push it down: ``namespace:`` in ``metadata`` one line, ``commonLabels: {a: b}`` two,
and before a JSON 6902 patch the three ``previous*`` annotations kustomize adds four
(measured with kubectl kustomize 1.32, tree ``duplicate-keys``).  New fields go at the end
of their mapping, in block style (a mapping written in flow style stays on its line).
"""

from __future__ import annotations

from ...jsonvalue import deep_copy
from ...records import dataclass
from ..io.kyaml import FLOW, FOLDED, LITERAL, MAPPING, SCALAR, SEQUENCE, Node
from ..io.kyaml_duplicates import duplicate_pairs, encoded_lines
from .positions import escape

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


@dataclass
class RepeatedKeys:
    """The repeated keys of one resource as read, and what is needed to count lines."""

    #: (line of the later key, its text, line of the earlier one), as read
    pairs: list[tuple[int, str, int]]
    #: the resource's value as read (the first of each repeated key)
    original: Any
    #: pointer of every block mapping -> the last line of its content, as read
    ends: dict[str, int]

    @classmethod
    def of(cls, text: str, node: Node) -> RepeatedKeys | None:
        """The repeated keys of document ``node`` of ``text`` (before they are dropped)."""
        found = duplicate_pairs(node)
        if not found:
            return None
        line = encoded_lines(text, node)
        pairs = [(line(later.line), later.value, line(earlier.line))
                 for earlier, later in found]
        ends: dict[str, int] = {}
        _ends(node, "", line, ends)
        return cls(pairs, None, ends)

    def remember(self, value: Any) -> None:
        """The value as read (after the repeated keys were dropped)."""
        self.original = deep_copy(value)

    def keys(self, value: Any) -> tuple[tuple[int, str, int], ...]:
        """The repeated keys as go-yaml reports them when the resource is ``value``:
        (line, key, line of the first)."""
        added: list[tuple[int, int]] = []
        _added(self.original, value, "", self.ends, added)

        def moved(number: int) -> int:
            return number + sum(count for after, count in added if after < number)

        return tuple((moved(later), key, moved(earlier)) for later, key, earlier in self.pairs)


def _ends(node: Node, pointer: str, line: Callable[[int], int], ends: dict[str, int]) -> int:
    """The last line of ``node`` (as kustomize counts); block mappings go to ``ends``."""
    last = line(node.line)
    if node.kind == SCALAR and node.style in (LITERAL, FOLDED):
        last = line(node.line) + node.value.rstrip("\n").count("\n") + 1
    if node.style == FLOW:
        return last
    if node.kind == MAPPING:
        for key, value in node.pairs():
            last = max(last, _ends(value, f"{pointer}/{escape(key.value)}", line, ends))
        ends[pointer] = last
    elif node.kind == SEQUENCE:
        for index, item in enumerate(node.content):
            last = max(last, _ends(item, f"{pointer}/{index}", line, ends))
    return last


def _added(before: Any, after: Any, pointer: str, ends: dict[str, int],
           out: list[tuple[int, int]]) -> None:
    """(last line of the mapping, lines) for the fields ``after`` has and ``before`` has
    not, in every block mapping of ``before``."""
    if isinstance(before, dict) and isinstance(after, dict):
        new = [key for key in after if key not in before]
        if new and pointer in ends:
            out.append((ends[pointer], sum(_member_lines(after[key]) for key in new)))
        for key, value in before.items():
            if key in after:
                _added(value, after[key], f"{pointer}/{escape(_text(key))}", ends, out)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, now) in enumerate(zip(before, after)):
            _added(old, now, f"{pointer}/{index}", ends, out)


def _text(key: Any) -> str:
    """A map key as written (a key that is not a string keeps its decoded value)."""
    return key if isinstance(key, str) else str(getattr(key, "value", key))


def _member_lines(value: Any) -> int:
    """The lines of ``key: value`` written in block style."""
    if isinstance(value, dict) and value:
        return 1 + sum(_member_lines(item) for item in value.values())
    if isinstance(value, list) and value:
        return 1 + sum(_item_lines(item) for item in value)
    if isinstance(value, str) and "\n" in value:
        return 1 + value.rstrip("\n").count("\n") + 1
    return 1


def _item_lines(value: Any) -> int:
    if isinstance(value, dict) and value:
        return sum(_member_lines(item) for item in value.values())
    return _member_lines(value)
