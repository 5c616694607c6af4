"""Which ``Host`` names the server answers: the guard against DNS rebinding.

A server without tokens trusts whoever can reach its loopback port.  A web page
from anywhere can make a browser send requests there through DNS rebinding: its
own name (``rebind.example``) is made to resolve to 127.0.0.1, and the browser
then treats the server as same-origin with the page.  The request still says
``Host: rebind.example``, so the server refuses every request whose ``Host`` is
not one of its own names with **421 Misdirected Request** (code
``misdirected request``): the request reached a server that is not the one it
names.

* Without tokens (the default) the server's names are the loopback names:
  ``localhost``, ``127.0.0.1`` (and every other 127.x.y.z) and ``[::1]``, with
  any port.
* ``--allowed-host NAME`` (repeatable) adds names, and turns the check on with
  tokens too; ``--allowed-host '*'`` turns it off (do that only with tokens, or
  behind a proxy that checks ``Host`` itself).
* With tokens and no ``--allowed-host``, every ``Host`` is accepted: a page can
  make the browser send requests, but not the bearer token.

A request without ``Host`` (HTTP/1.0) is refused whenever the check is on.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from ..errors import MISDIRECTED_REQUEST
from .problems import HttpProblem, problem_response

LOOPBACK_NAMES = frozenset({"localhost"})
#: Host values whose judgement a policy remembers (then it starts over).
JUDGED_HOSTS = 256


def host_name(header: str) -> str:
    """The name part of a ``Host`` value, lower case (``[::1]:80`` -> ``[::1]``)."""
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end > 0 else value
    name, colon, port = value.rpartition(":")
    return name if colon and port.isdigit() else value


def is_loopback_name(name: str) -> bool:
    """``localhost`` or a loopback IP literal (``127.0.0.1``, ``[::1]``)."""
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name.removeprefix("[").removesuffix("]")).is_loopback
    except ValueError:
        return False


class HostPolicy:
    """The names a server answers (``None`` from :func:`host_policy`: any name)."""

    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.extra = frozenset(host_name(name) for name in extra)
        self._judged: dict[str, bool] = {}  # by Host value: clients send the same one

    def allows(self, header: str | None) -> bool:
        if header is None:
            return False
        judged = self._judged.get(header)
        if judged is None:
            name = host_name(header)
            judged = is_loopback_name(name) or name in self.extra
            if len(self._judged) >= JUDGED_HOSTS:
                self._judged.clear()
            self._judged[header] = judged
        return judged


def host_policy(allowed_hosts: Iterable[str] | None, *, tokens: bool) -> HostPolicy | None:
    """The policy of a server with or without ``tokens`` and these ``--allowed-host`` names."""
    names = list(allowed_hosts or ())
    if "*" in names or (tokens and not names):
        return None
    return HostPolicy(names)


class HostGuard:
    """ASGI middleware answering 421 to a request whose ``Host`` the policy refuses."""

    def __init__(self, app: Any, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            header = host_header(scope)
            if not self.policy.allows(header):
                await problem_response(self.refusal(header), 421)(scope, receive, send)
                return
        await self.app(scope, receive, send)


    def refusal(self, header: str | None) -> HttpProblem:
        shown = "a request without Host" if header is None else f"Host {header[:80]!r}"
        names = ", ".join(["loopback names", *sorted(self.policy.extra)])
        return HttpProblem(f"{shown} does not name this server (it answers {names}; "
                           "see --allowed-host)", code=MISDIRECTED_REQUEST)


def host_header(scope: dict) -> str | None:
    """The request's ``Host`` value (``None`` without one)."""
    return _header(scope, b"host")


def _header(scope: dict, key: bytes) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == key:
            return value.decode("latin-1")
    return None
