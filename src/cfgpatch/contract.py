"""``run(operations)``: the service's contract, executed against a fresh :class:`Service`.

:func:`run` executes a list of ``[name, *args]`` operations against a fresh
in-memory service and returns one result per operation; failures come back as
``"error: <code>"`` strings, never as exceptions.  Argument checks come first
(:func:`check_operation_args`), then lookups (unknown document, unknown
version, invalid json), then the patch.  ``run()`` uses no limits beyond the
core's own and none of the HTTP layer's rules (preconditions, tests judged
against the head on rebase): its results are the contract's, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import (
    INVALID_ARGUMENTS,
    UNKNOWN_OPERATION,
    CfgPatchError,
    InvalidInput,
    LimitExceeded,
)
from .fixtures import GEN_KEYS, MUTATE_KEYS, check_params, generate, mutate
from .service import Service

NAME, TEXT, VERSION = "name", "text", "version"
GEN_PARAMS, MUTATE_PARAMS = "gen params", "mutate params"


@dataclass(frozen=True)
class OperationSpec:
    """One ``run()`` operation: its accepted argument kinds and its handler."""

    signatures: tuple[tuple[str, ...], ...]
    handler: Callable[..., Any]


def _arg_ok(kind: str, value: Any) -> bool:
    if kind == NAME:
        return type(value) is str and value != ""
    if kind == TEXT:
        return type(value) is str
    if kind == VERSION:
        return type(value) is int
    if kind in (GEN_PARAMS, MUTATE_PARAMS):  # every member present, nothing else
        try:
            check_params(value, GEN_KEYS if kind == GEN_PARAMS else MUTATE_KEYS)
        except InvalidInput:
            return False
        return True
    raise AssertionError(kind)


def _gen(service: Service, name: str, params: dict) -> int:
    return service.put_value(name, generate(params))


def _mutate(service: Service, source: str, target: str, params: dict) -> int:
    return service.put_value(target, mutate(service.get_value(source), params))


OPERATION_SPECS: dict[str, OperationSpec] = {
    "put": OperationSpec(((NAME, TEXT),), lambda s, name, text: s.put(name, text)),
    "get": OperationSpec(((NAME,), (NAME, VERSION)), lambda s, *args: s.get(*args)),
    "apply": OperationSpec(((NAME, TEXT), (NAME, TEXT, VERSION)), lambda s, *args: s.apply(*args)),
    "rebase": OperationSpec(((NAME, TEXT, VERSION),), lambda s, *args: s.rebase(*args)[1]),
    "diff": OperationSpec(((NAME, NAME),), lambda s, a, b: s.diff(a, b)),
    "diff_stats": OperationSpec(((NAME, NAME),), lambda s, a, b: s.diff_stats(a, b)),
    "gen": OperationSpec(((NAME, GEN_PARAMS),), _gen),
    "mutate": OperationSpec(((NAME, NAME, MUTATE_PARAMS),), _mutate),
}


def check_operation_args(operation: Any) -> tuple[OperationSpec, list]:
    """The spec and arguments of one ``run()`` operation, or the contract's errors."""
    if type(operation) is not list or not operation or type(operation[0]) is not str:
        raise InvalidInput(
            "an operation is a non-empty list whose first item is its name",
            code=INVALID_ARGUMENTS,
        )
    spec = OPERATION_SPECS.get(operation[0])
    if spec is None:
        raise InvalidInput(f"no operation named {operation[0]!r}", code=UNKNOWN_OPERATION)
    args = operation[1:]
    for signature in spec.signatures:
        if len(signature) == len(args) and all(map(_arg_ok, signature, args)):
            return spec, args
    raise InvalidInput(
        f"{operation[0]} takes " + " or ".join(f"({', '.join(s)})" for s in spec.signatures),
        code=INVALID_ARGUMENTS,
    )


def execute(service: Service, operation: Any) -> Any:
    """Run one operation; return its result or ``"error: <code>"``."""
    try:
        spec, args = check_operation_args(operation)
        return spec.handler(service, *args)
    except CfgPatchError as error:
        return f"error: {error.wire()}"
    except RecursionError:
        return f"error: {LimitExceeded().wire()}"


def run(operations: list) -> list:
    """Execute ``operations`` in order against a fresh, empty service.

    >>> run([["put", "cfg", '{"a":1}'], ["apply", "cfg", "[]"], ["get", "cfg", 1]])
    [1, 2, '{"a":1}']
    """
    service = Service(cache_bytes=None)  # a fresh in-memory service: no byte bound
    return [execute(service, operation) for operation in operations]
