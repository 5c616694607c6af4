"""Merge keys (``<<``) as kustomize expands them when it reads a resource or a strategic
merge patch (measured with kubectl kustomize 1.32, corpus tree ``yaml-merge-keys``).

kustomize first gives every alias its own copy of the anchored node *as written*, then
visits the document's mappings from the top down; in each mapping:

* a ``<<`` key (plain, or tagged ``!!merge``) brings in the members of a map (written
  there or an alias), or of every map of a list, that the mapping does not have: the
  mapping's own keys win wherever they stand, and in a list the first map with a key
  wins; the members are placed where the ``<<`` key was;
* a ``<<`` key that is quoted or tagged ``!!str`` is dropped with its value, unless the
  mapping's merge key comes before it (then it stays, an ordinary key);
* two merge keys are ``duplicate merge key``; a scalar, a null or a scalar in a list is
  ``map merge requires map or sequence of maps as the value``; an alias to something
  that is not a map ``invalid map merge: received alias for a non-map value``; a list in
  the list ``invalid map merge: received a nested sequence``.

The members brought in are not visited as keys again (a quoted ``<<`` that a merge
brings in stays), but their values are visited like any other.

>>> from cfgpatch.kube.io.kyaml_read import read_document
>>> from cfgpatch.kube.io.kyaml_scalars import node_value
>>> doc = read_document("a: &a {x: 1, y: 1}\\nb: {y: 2, <<: *a}\\n")
>>> node_value(expand_merge_keys(doc))
{'a': {'x': 1, 'y': 1}, 'b': {'y': 2, 'x': 1}}
"""

from __future__ import annotations

from ..problems import YamlValue
from .kyaml import MAPPING, SCALAR, SEQUENCE, KyamlError, Node

MERGE_TAG = "!!merge"
#: kyaml's merge refusals (YamlValue codes; kube/compat/goyaml words them).
_NOT_A_MAP = "merge-value-not-map"
_ALIAS = "merge-alias-not-map"
_NESTED = "merge-nested-sequence"


class MergeKeyError(KyamlError):
    """A merge key kustomize refuses (not a YAML syntax error: kustomize then tries the
    path as a directory, as for any other unreadable resource file)."""

    malformed = False


def _refused(code: str, node: Node) -> YamlValue:
    return YamlValue(code, None, node.line, node.column)


def expand_merge_keys(node: Node) -> Node:
    """``node`` (a document) with its aliases copied and its merge keys expanded."""
    occurrences = alias_occurrences(node)
    aliases: set[int] = set()
    copied = _copy(node, occurrences, aliases, False, set())
    _visit(copied, aliases)
    return copied


def is_merge_key(key: Node) -> bool:
    return key.kind == SCALAR and key.tag == MERGE_TAG


def alias_occurrences(node: Node) -> set[tuple[int, int]]:
    """(id of the parent, index in its content) of every alias of the document (a node
    met again in document order: an anchor comes before its aliases)."""
    seen: set[int] = set()
    found: set[tuple[int, int]] = set()
    stack: list[Node] = [node]
    seen.add(id(node))
    while stack:
        current = stack.pop()
        children = []
        for index, child in enumerate(current.content):
            if id(child) in seen:
                found.add((id(current), index))
            else:
                seen.add(id(child))
                children.append(child)
        stack.extend(reversed(children))
    return found


def _copy(node: Node, occurrences: set[tuple[int, int]], aliases: set[int],
          is_alias: bool, active: set[int]) -> Node:
    """A copy where every alias is a node of its own; an alias inside the node it names
    is copied empty (a map merging itself merges nothing)."""
    out = Node(node.kind, node.tag, node.value, [], node.style, node.line, node.column,
               node.file)
    if is_alias:
        aliases.add(id(out))
    if id(node) in active:
        return out
    active.add(id(node))
    out.content = [_copy(child, occurrences, aliases, (id(node), index) in occurrences,
                         active) for index, child in enumerate(node.content)]
    active.discard(id(node))
    return out


def _visit(node: Node, aliases: set[int]) -> None:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.kind == MAPPING:
            _merge(current, aliases, drop_quoted=True)
            while any(is_merge_key(key) for key, _ in current.pairs()):
                _merge(current, aliases, drop_quoted=False)  # a merge key a merge brought
        stack.extend(reversed(current.content))


def _merge(mapping: Node, aliases: set[int], drop_quoted: bool) -> None:
    pairs = list(mapping.pairs())
    merges = [index for index, (key, _) in enumerate(pairs) if is_merge_key(key)]
    if len(merges) > 1:
        raise MergeKeyError(YamlValue("duplicate-merge-key", None, mapping.line,
                                      mapping.column), file=mapping.file, line=mapping.line)
    first = merges[0] if merges else len(pairs)
    dropped = [index == first or (drop_quoted and index < first and key.kind == SCALAR
                                  and key.value == "<<")
               for index, (key, _) in enumerate(pairs)]
    if not any(dropped):
        return
    own = {key.value for (key, _), drop in zip(pairs, dropped) if not drop}
    content: list[Node] = []
    for index, (key, value) in enumerate(pairs):
        if index in merges:
            for source in _sources(value, aliases):
                for member, item in source.pairs():
                    if member.value not in own:
                        own.add(member.value)
                        content += [member, item]
        elif not dropped[index]:
            content += [key, value]
    mapping.content = content


def _sources(value: Node, aliases: set[int]) -> list[Node]:
    """The maps a merge key's value brings in, in order (kustomize's errors else)."""
    if value.kind == MAPPING:
        return [value]
    if id(value) in aliases:
        raise MergeKeyError(_refused(_ALIAS, value), file=value.file, line=value.line)
    if value.kind != SEQUENCE:
        raise MergeKeyError(_refused(_NOT_A_MAP, value), file=value.file, line=value.line)
    for item in value.content:
        if item.kind == MAPPING:
            continue
        if id(item) in aliases:
            raise MergeKeyError(_refused(_ALIAS, item), file=item.file, line=item.line)
        raise MergeKeyError(_refused(_NESTED if item.kind == SEQUENCE else _NOT_A_MAP, item),
                            file=item.file, line=item.line)
    return list(value.content)
