"""JSON Patch (RFC 6902), all-or-nothing, with the rules of the ``run()`` contract.

:func:`apply_patch` applies a list of operations to a document and returns the
new document, or raises a :class:`~cfgpatch.errors.CfgPatchError` whose
``op_index`` names the first operation that failed.  The input document is never
modified: the patch works on a copy-on-write view that copies only the containers
on the paths it changes, so a failure leaves nothing behind and a success shares
every untouched subtree with the input (see ``share_unchanged``).

Checks per operation, in order: shape (``invalid operation``), ``path`` then
``from`` syntax (``invalid pointer``), then the document (``invalid index``,
``path not found``, ``cannot remove root``, ``invalid move``, ``test failed``).
Numbers compare by kind (``1`` is not ``1.0``, ``true`` is not ``1``), which is
stricter than RFC 6902 section 4.6 on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .errors import (
    CANNOT_REMOVE_ROOT,
    INVALID_MOVE,
    INVALID_OPERATION,
    INVALID_PATCH,
    PATH_NOT_FOUND,
    TEST_FAILED,
    CfgPatchError,
    InvalidInput,
    LimitExceeded,
    PatchFailed,
    TestFailed,
)
from .jsonvalue import (
    JSON,
    MAX_DEPTH,
    canonical_unchecked,
    deep_copy,
    equal,
    parse_with_text,
    type_name,
    validate,
)
from .pointer import (
    array_index,
    format_pointer,
    is_proper_prefix,
    missing_key,
    parse_pointer,
    resolve,
    step,
)

OPERATIONS = ("add", "remove", "replace", "move", "copy", "test")
_NEEDS_VALUE = ("add", "replace", "test")
_NEEDS_FROM = ("move", "copy")

#: Most containers and scalars that ``copy`` operations of one patch may create.
MAX_COPIED_NODES = 5_000_000


class Operation(NamedTuple):
    """One checked operation: name, decoded pointers and value (a tuple: made for a third
    of a frozen dataclass's cost, three times a request)."""

    op: str
    path: list[str]
    from_: list[str] | None
    value: Any
    raw: dict[str, Any]


def check_operation(raw: Any) -> Operation:
    """Check the shape and pointers of one operation object (rules 2 and 3)."""
    if type(raw) is not dict:
        raise InvalidInput(
            f"an operation must be an object, not {type_name(raw)}", code=INVALID_OPERATION
        )
    name = raw.get("op")
    if type(name) is not str or name not in OPERATIONS:
        raise InvalidInput(
            f'"op" must be one of {", ".join(OPERATIONS)} (got {_show(name)})',
            code=INVALID_OPERATION,
        )
    if type(raw.get("path")) is not str:
        raise InvalidInput(f'{name} needs a string "path"', code=INVALID_OPERATION)
    if name in _NEEDS_VALUE and "value" not in raw:
        raise InvalidInput(f'{name} needs a "value" member', code=INVALID_OPERATION)
    if name in _NEEDS_FROM and type(raw.get("from")) is not str:
        raise InvalidInput(f'{name} needs a string "from"', code=INVALID_OPERATION)
    path = parse_pointer(raw["path"])
    from_ = parse_pointer(raw["from"]) if name in _NEEDS_FROM else None
    return Operation(name, path, from_, raw.get("value"), raw)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_patch(text: str | bytes) -> list[Any]:
    """Parse patch text: ``invalid json`` if it is not JSON, ``invalid patch`` if not a list."""
    return parse_patch_text(text)[0]


def parse_patch_text(text: str | bytes) -> tuple[list[Any], str]:
    """:func:`parse_patch`, and the patch's canonical text (the parse computes it anyway)."""
    patch, canon = parse_with_text(text)
    if type(patch) is not list:
        raise InvalidInput(
            f"a JSON Patch must be an array of operations, not {type_name(patch)}",
            code=INVALID_PATCH,
        )
    return patch, canon


def apply_patch(
    doc: JSON, patch: list[Any], *, share_unchanged: bool = False, trusted: bool = False,
    after_test: Callable[[list[str], JSON, JSON], None] | None = None,
    copy_budget: int | None = None,
) -> JSON:
    """Apply a JSON Patch to ``doc`` and return the new document (all-or-nothing).

    ``doc`` is never modified.  With ``share_unchanged=False`` (the default) the
    result shares nothing with ``doc`` or ``patch``; with ``True`` it shares the
    subtrees the patch did not touch, which is fast and safe as long as nobody
    mutates either value afterwards (the service's stored versions are immutable).
    ``trusted=True`` skips validating ``doc`` (it came from our own parser).
    ``after_test(path_tokens, value, document)`` is called after each ``test``
    that passed, with the document as it is at that point (read it then: later
    operations may change it in place); an error it raises fails that operation.

    ``copy`` is measured before it writes anything: the values it would create
    (at most :data:`MAX_COPIED_NODES` in one patch) and, with ``copy_budget``, the
    bytes of canonical JSON they would add (at most ``copy_budget`` in one patch;
    the service passes its largest document).  Sizes of subtrees are remembered,
    so a patch of doubling copies is refused after a few operations.  With
    ``share_unchanged`` a copy shares the copied subtree (no deep copy), so such
    a patch holds no more memory than its text.

    >>> apply_patch({"a": [1]}, [{"op": "add", "path": "/a/0", "value": 0}])
    {'a': [0, 1]}
    """
    if type(patch) is not list:
        raise InvalidInput(
            f"a JSON Patch must be an array of operations, not {type_name(patch)}",
            code=INVALID_PATCH,
        )
    if not trusted:
        validate(doc)
        validate(patch)
    work = _Workspace(doc, share=share_unchanged, copy_budget=copy_budget)
    for index, raw in enumerate(patch):
        try:
            op = check_operation(raw)
            work.apply(op)
            if after_test is not None and op.op == "test":
                after_test(op.path, op.value, work.root)
        except CfgPatchError as error:
            raise error.at_op(index, raw) from None
    return work.root if share_unchanged else deep_copy(work.root)


class _Workspace:
    """A copy-on-write view of a document during one patch."""

    def __init__(self, doc: JSON, *, share: bool = False, copy_budget: int | None = None
                 ) -> None:
        self.root = doc
        self._owned: dict[int, Any] = {}
        self._copied_nodes = 0
        self._copied_bytes = 0
        self._share = share
        self._copy_budget = copy_budget
        #: id -> (container, values, canonical bytes at least, depth) of containers
        #: this patch never changes in place (not owned), so the sizes stay true.
        self._sizes: dict[int, tuple[Any, int, int, int]] = {}

    # -- copy-on-write helpers -------------------------------------------------
    def _own(self, node: Any) -> Any:
        if id(node) in self._owned:
            return node
        fresh = node.copy()
        self._owned[id(fresh)] = fresh
        return fresh

    def _writable(self, tokens: list[str], count: int) -> Any:
        """The container at ``tokens[:count]``, copied along the way so it can change."""
        if type(self.root) in (dict, list):
            self.root = self._own(self.root)
        node = self.root
        for depth in range(count):
            token = tokens[depth]
            if type(node) is dict:
                if token not in node:
                    raise missing_key(node, tokens, depth)
                key: Any = token
            elif type(node) is list:
                key = array_index(tokens, depth, node, allow_end=False)
            else:
                step(node, tokens, depth)  # a scalar: raises path not found
                raise AssertionError("unreachable")
            child = node[key]
            if type(child) in (dict, list) and id(child) not in self._owned:
                child = self._own(child)
                node[key] = child
            node = child
        return node

    def _parent(self, tokens: list[str]) -> Any:
        parent = self._writable(tokens, len(tokens) - 1)
        if type(parent) not in (dict, list):
            raise PatchFailed(
                f"{format_pointer(tokens[:-1]) or 'the document root'} is a "
                f"{type_name(parent)}, which has no member {tokens[-1]!r}",
                code=PATH_NOT_FOUND,
                pointer=format_pointer(tokens),
                token=tokens[-1],
            )
        return parent

    def _check_depth(self, tokens: list[str], value: Any) -> None:
        depth = len(tokens) + _depth(value)
        if depth > MAX_DEPTH:
            raise LimitExceeded(
                f"the result would nest {depth} levels deep (at most {MAX_DEPTH})",
                pointer=format_pointer(tokens),
            )

    # -- the six operations ----------------------------------------------------
    def apply(self, op: Operation) -> None:
        getattr(self, "_op_" + op.op)(op)

    def _op_add(self, op: Operation) -> None:
        self._check_depth(op.path, op.value)
        self.add(op.path, deep_copy(op.value))

    def _op_remove(self, op: Operation) -> None:
        self.remove(op.path)

    def _op_replace(self, op: Operation) -> None:
        self._check_depth(op.path, op.value)
        value = deep_copy(op.value)
        if not op.path:
            self.root = value
            return
        parent = self._parent(op.path)
        parent[self._existing_key(parent, op.path)] = value

    def _op_move(self, op: Operation) -> None:
        assert op.from_ is not None
        value = resolve(self.root, op.from_)
        if is_proper_prefix(op.from_, op.path):
            raise PatchFailed(
                f"cannot move {format_pointer(op.from_) or 'the root'} into its own child "
                f"{format_pointer(op.path)}",
                code=INVALID_MOVE,
                pointer=format_pointer(op.path),
            )
        if op.from_ == op.path:
            return
        if len(op.path) > len(op.from_):
            self._check_depth(op.path, value)
        self.add(op.path, self.remove(op.from_))

    def _op_copy(self, op: Operation) -> None:
        assert op.from_ is not None
        value = resolve(self.root, op.from_)
        nodes, size, depth = self._measure(value)
        self._count_copy(nodes, size, op.path)
        if len(op.path) + depth > MAX_DEPTH:
            self._check_depth(op.path, value)
        if self._share:
            self._disown(value)  # now in two places: later writes copy it first
            self.add(op.path, value)
        else:
            self.add(op.path, deep_copy(value))

    def _op_test(self, op: Operation) -> None:
        actual = resolve(self.root, op.path)
        if not equal(actual, op.value):
            raise TestFailed(
                f"{format_pointer(op.path) or 'the document'} is {_show_json(actual)}, "
                f"not {_show_json(op.value)}",
                code=TEST_FAILED,
                pointer=format_pointer(op.path),
            )

    # -- shared steps ----------------------------------------------------------
    def add(self, tokens: list[str], value: Any) -> None:
        if not tokens:
            self.root = value
            return
        parent = self._parent(tokens)
        if type(parent) is dict:
            parent[tokens[-1]] = value
        else:
            parent.insert(array_index(tokens, len(tokens) - 1, parent, allow_end=True), value)

    def remove(self, tokens: list[str]) -> Any:
        if not tokens:
            raise PatchFailed("the document root cannot be removed", code=CANNOT_REMOVE_ROOT)
        parent = self._parent(tokens)
        return parent.pop(self._existing_key(parent, tokens))

    def _existing_key(self, parent: Any, tokens: list[str]) -> Any:
        depth = len(tokens) - 1
        if type(parent) is dict:
            if tokens[-1] not in parent:
                raise missing_key(parent, tokens, depth)
            return tokens[-1]
        return array_index(tokens, depth, parent, allow_end=False)

    def _count_copy(self, nodes: int, size: int, path: list[str]) -> None:
        self._copied_nodes += nodes
        if self._copied_nodes > MAX_COPIED_NODES:
            raise LimitExceeded(
                f"copy operations of this patch would create more than {MAX_COPIED_NODES} values"
            )
        self._copied_bytes += size
        budget = self._copy_budget
        if budget is not None and self._copied_bytes > budget:
            raise LimitExceeded(
                f"copy operations of this patch would write {self._copied_bytes} bytes of JSON "
                f"or more; at most {budget} are accepted (the largest document stored)",
                pointer=format_pointer(path))

    def _measure(self, value: Any) -> tuple[int, int, int]:
        """Values, canonical bytes (at least) and depth of ``value``, remembering the
        sizes of containers not owned (never changed in place by this patch)."""
        if type(value) is not dict and type(value) is not list:
            return 1, _scalar_size(value), 0
        sizes, owned = self._sizes, self._owned
        local: dict[int, tuple[Any, int, int, int]] = {}
        stack: list[tuple[Any, bool]] = [(value, False)]
        while stack:
            node, done = stack.pop()
            children = node.values() if type(node) is dict else node
            if not done:
                if id(node) in local or (id(node) in sizes and id(node) not in owned):
                    continue  # pushed twice (one subtree in several places): measured
                stack.append((node, True))
                stack.extend((child, False) for child in children
                             if (type(child) is dict or type(child) is list)
                             and id(child) not in local
                             and (id(child) in owned or id(child) not in sizes))
                continue
            nodes, size, depth = 1, 1 + max(len(node), 1), 0
            if type(node) is dict:
                size += sum(len(key) + 3 for key in node)
            for child in children:
                if type(child) is dict or type(child) is list:
                    _, n, b, d = local.get(id(child)) or sizes[id(child)]
                    nodes, size, depth = nodes + n, size + b, max(depth, d)
                else:
                    nodes, size = nodes + 1, size + _scalar_size(child)
            (local if id(node) in owned else sizes)[id(node)] = (node, nodes, size, depth + 1)
        _, nodes, size, depth = local.get(id(value)) or sizes[id(value)]
        return nodes, size, depth

    def _disown(self, value: Any) -> None:
        """Forget ownership of the containers of ``value`` this patch made (owned
        containers are only ever reached through owned ones)."""
        stack = [value]
        while stack:
            node = stack.pop()
            if (type(node) is dict or type(node) is list) \
                    and self._owned.pop(id(node), None) is not None:
                stack.extend(node.values() if type(node) is dict else node)


def _depth(value: Any) -> int:
    """Nesting depth of arrays/objects in ``value`` (a scalar is 0), iteratively."""
    best = 0
    stack = [(value, 1)]
    while stack:
        node, level = stack.pop()
        children = node.values() if type(node) is dict else node if type(node) is list else None
        if children is None:
            continue
        best = max(best, level)
        stack.extend((child, level + 1) for child in children if type(child) in (dict, list))
    return best


def _scalar_size(value: Any) -> int:
    """Bytes of a scalar's canonical text, at least (escapes not counted)."""
    kind = type(value)
    if kind is str:
        return len(value) + 2
    if kind is bool:
        return 4 if value else 5
    if value is None:
        return 4
    return len(repr(value)) if kind is float else len(str(value))


def _show_json(value: Any) -> str:
    text = canonical_unchecked(value)
    return text if len(text) <= 60 else text[:57] + "..."
