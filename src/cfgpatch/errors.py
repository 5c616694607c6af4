"""The one error hierarchy of cfgpatch.

Every failure the library reports is a :class:`CfgPatchError`.  It carries a
stable, machine-readable ``code`` (the spellings of the ``run()`` contract, such
as ``"path not found"``), the position of the failing patch operation where
there is one, the pointer and token involved, and a human message.

    CfgPatchError
    +-- InvalidInput        invalid arguments, unknown operation, invalid json,
    |                       invalid patch, invalid operation, invalid pointer,
    |                       invalid index, invalid arguments
    +-- LookupFailed        unknown document, unknown version
    +-- PatchFailed         path not found, cannot remove root, invalid move
    +-- TestFailed          test failed
    +-- MergeConflict       conflict (three-way merge / rebase)
    +-- KubeError           what kubectl would refuse (strategic merge and friends)
    |   +-- OwnershipConflict   server-side apply: fields another field manager owns
    |   +-- BuildError          kubectl kustomize refuses (cfgpatch.kube.BuildError)
    +-- LimitExceeded       a document or patch beyond a configured limit
    +-- StoreError          storage failures (concurrent update)
    +-- PreconditionFailed  a false If-Match / If-None-Match (precondition failed)

``str(error)`` is the wire form used by ``run()`` without the ``error: `` prefix:
``"path not found at op 2"``, ``"conflict at /b/x"`` or just ``"invalid json"``.
:meth:`CfgPatchError.describe` is the longer human form used by the CLI.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is left out of the start-up (annotations are not evaluated)
    from typing import Any

INVALID_ARGUMENTS = "invalid arguments"
UNKNOWN_OPERATION = "unknown operation"
UNKNOWN_DOCUMENT = "unknown document"
UNKNOWN_VERSION = "unknown version"
INVALID_JSON = "invalid json"
INVALID_PATCH = "invalid patch"
INVALID_OPERATION = "invalid operation"
INVALID_POINTER = "invalid pointer"
INVALID_INDEX = "invalid index"
PATH_NOT_FOUND = "path not found"
CANNOT_REMOVE_ROOT = "cannot remove root"
INVALID_MOVE = "invalid move"
TEST_FAILED = "test failed"
CONFLICT = "conflict"
LIMIT_EXCEEDED = "limit exceeded"

# Codes outside the run() contract (the command line, the Kubernetes engine, the stores).
INVALID_INPUT = "invalid input"  # a file the command line cannot read, two inputs on stdin
STORE_ERROR = "store error"
KUBECTL_ERROR = "kubectl error"  # kubectl refuses; the message is kubectl's own text
KUBECTL_CRASH = "kubectl crash"  # kubectl panics on this input (exit code 2)
KUBECTL_UNPREFIXED = "kubectl unprefixed"  # kubectl prints this error without "error: "
NESTING_TOO_DEEP = "nesting too deep"  # deeper than kubectl's decoder goes
MULTIPLE_DOCUMENTS = "multiple documents"  # the patch tester takes one object per file
KUSTOMIZE_DELETES = "kustomize deletes"  # a kustomize patch that removes the whole resource
KUSTOMIZE_ERROR = "kustomize error"  # kubectl kustomize refuses; the message is kustomize's text
KUSTOMIZE_UNMODELLED = "kustomize unmodelled"  # a kustomization field cfgpatch does not build
APPLY_CONFLICT = "apply conflict"  # a three-way patch with overwrite=false meets a live change
OWNERSHIP_CONFLICT = "ownership conflict"  # server-side apply: another field manager owns a field
SERVER_REFUSES = "server refuses"  # the API server's field manager refuses; the message is its text

# Codes of the HTTP layer (``server.problems`` maps every code to a status).
UNAUTHORIZED = "unauthorized"
FORBIDDEN = "forbidden"
UNSUPPORTED_MEDIA_TYPE = "unsupported media type"
PRECONDITION_FAILED = "precondition failed"
INVALID_NAME = "invalid name"
NOT_FOUND = "not found"
METHOD_NOT_ALLOWED = "method not allowed"
CONCURRENT_UPDATE = "concurrent update"
BODY_TOO_LARGE = "body too large"
INTERNAL_ERROR = "internal error"
MISDIRECTED_REQUEST = "misdirected request"  # a Host name the server does not answer (421)
REQUEST_TIMEOUT = "request timeout"  # the body did not arrive in time (408)
OVERLOADED = "overloaded"  # more requests in progress than --limit-concurrency (503)

#: The codes of the run() contract, as ``"error: <code>"`` spells them.
ALL_CODES = (
    INVALID_ARGUMENTS,
    UNKNOWN_OPERATION,
    UNKNOWN_DOCUMENT,
    UNKNOWN_VERSION,
    INVALID_JSON,
    INVALID_PATCH,
    INVALID_OPERATION,
    INVALID_POINTER,
    INVALID_INDEX,
    PATH_NOT_FOUND,
    CANNOT_REMOVE_ROOT,
    INVALID_MOVE,
    TEST_FAILED,
    CONFLICT,
    LIMIT_EXCEEDED,
)

#: Every other code cfgpatch raises.
OTHER_CODES = (
    UNAUTHORIZED,
    FORBIDDEN,
    UNSUPPORTED_MEDIA_TYPE,
    PRECONDITION_FAILED,
    INVALID_NAME,
    NOT_FOUND,
    METHOD_NOT_ALLOWED,
    CONCURRENT_UPDATE,
    BODY_TOO_LARGE,
    INTERNAL_ERROR,
    MISDIRECTED_REQUEST,
    REQUEST_TIMEOUT,
    OVERLOADED,
    INVALID_INPUT,
    STORE_ERROR,
    KUBECTL_ERROR,
    KUBECTL_CRASH,
    KUBECTL_UNPREFIXED,
    NESTING_TOO_DEEP,
    MULTIPLE_DOCUMENTS,
    KUSTOMIZE_DELETES,
    KUSTOMIZE_ERROR,
    KUSTOMIZE_UNMODELLED,
    APPLY_CONFLICT,
    OWNERSHIP_CONFLICT,
    SERVER_REFUSES,
)


class CfgPatchError(Exception):
    """Base of every error cfgpatch raises on purpose.

    Attributes:
        code: stable machine-readable code (one of ``ALL_CODES`` or a family's own).
        message: human explanation of what is wrong and where.
        op_index: 0-based index of the failing patch operation, or ``None``.
        op: the failing operation object (as given), or ``None``.
        pointer: the pointer involved (as text), or ``None``.
        token: the reference token at which walking the pointer failed, or ``None``.
        hint: an optional suggestion (for example a corrected pointer).
    """

    default_code = "error"

    def __init__(
        self,
        message: str = "",
        *,
        code: str | None = None,
        op_index: int | None = None,
        op: object = None,
        pointer: str | None = None,
        token: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.code = code or self.default_code
        self.message = message or self.code
        self.op_index = op_index
        self.op = op
        self.pointer = pointer
        self.token = token
        self.hint = hint
        super().__init__(self.wire())

    def wire(self) -> str:
        """The short form used by ``run()``: ``<code>`` or ``<code> at op <i>``."""
        if self.op_index is None:
            return self.code
        return f"{self.code} at op {self.op_index}"

    def __str__(self) -> str:
        return self.wire()

    def at_op(self, index: int, op: object) -> CfgPatchError:
        """Record which patch operation failed and return ``self``."""
        self.op_index = index
        self.op = op
        self.args = (self.wire(),)
        return self

    def describe(self) -> str:
        """A one-line human description, naming the operation, pointer and reason."""
        text = f"{self.code}: {self.message}" if self.message != self.code else self.code
        if self.op_index is not None:
            text = f"{_describe_op(self.op_index, self.op)}: {text}"
        if self.hint:
            text = f"{text}; {self.hint}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (used by the HTTP API and the web page)."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        for key in ("op_index", "pointer", "token", "hint"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def _describe_op(index: int, op: object) -> str:
    if isinstance(op, dict) and isinstance(op.get("op"), str):
        name = op["op"]
        path = op.get("path")
        src = op.get("from")
        if name in ("move", "copy") and isinstance(src, str) and isinstance(path, str):
            return f"op {index} ({name} {src} -> {path})"
        if isinstance(path, str):
            return f"op {index} ({name} {path})"
        return f"op {index} ({name})"
    return f"op {index}"


class InvalidInput(CfgPatchError):
    """Input that is malformed: bad arguments, bad JSON, a malformed patch or pointer."""

    default_code = INVALID_JSON


class LookupFailed(CfgPatchError):
    """A document or a version that does not exist."""

    default_code = UNKNOWN_DOCUMENT


class PatchFailed(CfgPatchError):
    """A well-formed patch operation that cannot be applied to this document."""

    default_code = PATH_NOT_FOUND


class TestFailed(CfgPatchError):
    """A ``test`` operation whose value differs from the document's."""

    __test__ = False  # not a pytest test class
    default_code = TEST_FAILED


class MergeConflict(CfgPatchError):
    """A three-way merge found two different changes at one place."""

    default_code = CONFLICT

    def wire(self) -> str:
        return f"{self.code} at {self.pointer if self.pointer else '(root)'}"


class LimitExceeded(CfgPatchError):
    """Input beyond a limit: too deep, too large, too many operations."""

    default_code = LIMIT_EXCEEDED


class KubeError(CfgPatchError):
    """What kubectl would refuse; ``message`` is kubectl's own error text.

    ``findings``: the explanations of the failure (``cfgpatch.kube`` findings), filled
    in by the engine that knows them.
    """

    default_code = KUBECTL_ERROR

    def __init__(self, message: str = "", *, findings: list[Any] | tuple[Any, ...] = (),
                 **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.findings = list(findings)


class OwnershipConflict(KubeError):
    """Server-side apply met fields other field managers own; ``message`` is the server's
    text (``Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas``).

    ``conflicts``: the :class:`cfgpatch.kube.ssa.Conflict` values, in the server's order.
    """

    default_code = OWNERSHIP_CONFLICT

    def __init__(self, message: str = "", *, conflicts: list[Any] | tuple[Any, ...] = (),
                 **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.conflicts = list(conflicts)


class StoreError(CfgPatchError):
    """A storage failure: a concurrent writer, a limit, a broken backend."""

    default_code = STORE_ERROR


class PreconditionFailed(CfgPatchError):
    """A conditional request (``If-Match`` / ``If-None-Match``) whose condition is false."""

    default_code = PRECONDITION_FAILED
