"""A context variable holding a value for the length of a ``with`` block.

``with ContextScope(var, value) as held:`` sets ``var`` to ``value`` on entry and puts
back what it held before on exit; ``held`` is the value the block sees.  With
``keep_outer=True`` a block inside another one (``var`` already set to something other
than None) keeps the outer value and puts nothing back.

The read cache of :mod:`cfgpatch.kube.io.kyaml_read` and the partial build of
:mod:`cfgpatch.kube.kustomize.partial` are such scopes.  A class instead of
``contextlib.contextmanager``: importing :mod:`contextlib` costs a short command (one
small ``cfgpatch lint``) about 3M instructions, 1.7 % of its process.  Standard library
only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from contextvars import ContextVar, Token
    from typing import Any

__all__ = ["NO_SCOPE", "ContextScope"]


class ContextScope:
    """``var`` set to ``value`` inside the block (see the module's text)."""

    __slots__ = ("_var", "_value", "_keep_outer", "_token")

    def __init__(self, var: ContextVar[Any], value: Any, keep_outer: bool = False) -> None:
        self._var = var
        self._value = value
        self._keep_outer = keep_outer
        self._token: Token[Any] | None = None

    def __enter__(self) -> Any:
        outer = self._var.get(None)
        if self._keep_outer and outer is not None:
            return outer
        self._token = self._var.set(self._value)
        return self._value

    def __exit__(self, *_exc: object) -> None:
        token, self._token = self._token, None
        if token is not None:
            self._var.reset(token)


class _NoScope:
    """A block with nothing set (``contextlib.nullcontext()``)."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(self, *_exc: object) -> None:
        return None


#: A scope that sets nothing.
NO_SCOPE = _NoScope()
