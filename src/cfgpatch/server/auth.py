"""Bearer tokens: who may read and write which documents.

A token file is JSON::

    {"tokens": [
      {"name": "deployer", "sha256": "<hex of the token>", "read": [""], "write": ["team-a-"]},
      {"name": "ci", "token": "plain-secret", "read": ["team-a-"], "write": []}
    ]}

Each entry has a ``name`` (recorded as the author of the versions it writes),
the secret either in clear (``token``) or as the SHA-256 hex digest of it
(``sha256``, so the file need not hold the secret), and the document-name
prefixes it may ``read`` and ``write`` (``""`` means every document).  Write
access implies read access to the same prefixes.

Prefixes stop at a separator (``-``, ``.`` or ``_``), so that ``team`` cannot
reach another team's ``teammate``: a prefix grants a name that equals it, or
that continues it after a separator, either the prefix's own last character
or the name's next one.

======================  =====================================================
prefix                  grants
======================  =====================================================
``""``                  every name
``team``                ``team``, ``team-a``, ``team.cfg``, ``team_x``; not ``teammate``
``team-``               ``team-``, ``team-a``, ``team-b.cfg``; not ``team``, ``teammate``
``team-a``              ``team-a``, ``team-a-gw``, ``team-a.v2``; not ``team-ab``
======================  =====================================================

A prefix that no valid document name can start with (``team-a/``, ``-x``, a
space) grants nothing; :func:`parse_tokens` lists it in ``TokenTable.warnings``
and ``cfgpatch serve`` prints the warnings when it starts.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import CfgPatchError

#: Author recorded when the server runs without a token file (loopback only).
ANONYMOUS = "anonymous"


class AuthError(CfgPatchError):
    """A missing or unknown token (401) or a token without the needed access (403)."""

    default_code = "unauthorized"


#: Characters after which a prefix may stop inside a name.
SEPARATORS = "-._"
#: What a prefix of a valid document name looks like (see ``inputs.NAME_PATTERN``).
_NAME_PREFIX = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]{0,199})?")


def prefix_grants(prefix: str, name: str) -> bool:
    """Whether ``prefix`` grants the document ``name`` (separator-aware, see above)."""
    if not name.startswith(prefix):
        return False
    rest = name[len(prefix):]
    return not prefix or not rest or prefix[-1] in SEPARATORS or rest[0] in SEPARATORS


@dataclass(frozen=True)
class Principal:
    """The holder of one token: a name and the prefixes it may read and write."""

    name: str
    read: tuple[str, ...]
    write: tuple[str, ...]

    def may_read(self, document: str) -> bool:
        return any(prefix_grants(p, document) for p in self.read + self.write)

    def may_write(self, document: str) -> bool:
        return any(prefix_grants(p, document) for p in self.write)


#: Everyone, when no token file is given.
EVERYONE = Principal(ANONYMOUS, ("",), ("",))


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TokenTable:
    """Principals by the SHA-256 digest of their token."""

    by_digest: dict[str, Principal]
    #: Prefixes that can never grant a valid document name, described.
    warnings: tuple[str, ...] = ()

    def lookup(self, secret: str) -> Principal | None:
        """The principal holding ``secret`` (compared in constant time per entry)."""
        wanted = _digest(secret)
        found = None
        for digest, principal in self.by_digest.items():
            if hmac.compare_digest(digest, wanted):
                found = principal
        return found

    def authenticate(self, authorization: str | None) -> Principal:
        """The principal of an ``Authorization: Bearer <token>`` header, or :class:`AuthError`."""
        if not authorization:
            raise AuthError("this server needs 'Authorization: Bearer <token>'")
        scheme, _, secret = authorization.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise AuthError("use 'Authorization: Bearer <token>'")
        principal = self.lookup(secret.strip())
        if principal is None:
            raise AuthError("unknown token")
        return principal


def _prefixes(entry: dict, key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if type(value) is not list or not all(type(p) is str for p in value):
        raise ValueError(f"{where}: {key!r} must be a list of name prefixes (strings)")
    return tuple(value)


def parse_tokens(text: str, where: str = "token file") -> TokenTable:
    """Read a token file's text; raise ``ValueError`` naming the bad entry."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{where} is not JSON: {exc}") from None
    entries = data.get("tokens") if type(data) is dict else None
    if type(entries) is not list or not entries:
        raise ValueError(f'{where} must be {{"tokens": [ ... ]}} with at least one entry')
    table: dict[str, Principal] = {}
    names: set[str] = set()
    warnings: list[str] = []
    for i, entry in enumerate(entries):
        spot = f"{where}: tokens[{i}]"
        if type(entry) is not dict or type(entry.get("name")) is not str or not entry["name"]:
            raise ValueError(f"{spot} needs a non-empty string 'name'")
        if not entry["name"].isprintable() or len(entry["name"]) > 100:
            raise ValueError(f"{spot}: 'name' must be printable, at most 100 characters")
        digest = _entry_digest(entry, spot)
        if digest in table or entry["name"] in names:
            raise ValueError(f"{spot} repeats a token or a name")
        names.add(entry["name"])
        table[digest] = Principal(
            entry["name"], _prefixes(entry, "read", spot), _prefixes(entry, "write", spot)
        )
        warnings.extend(_unreachable(entry, spot))
    return TokenTable(table, tuple(warnings))


def _unreachable(entry: dict, spot: str) -> list[str]:
    """Warnings for the prefixes of ``entry`` that no valid document name starts with."""
    out = []
    for key in ("read", "write"):
        for prefix in entry.get(key, []):
            if not _NAME_PREFIX.fullmatch(prefix):
                out.append(f"{spot} ({entry['name']!r}): {key} prefix {prefix!r} can never "
                           "match a document name (names are 1-200 letters, digits, '.', "
                           "'_' or '-', starting with a letter or digit); it grants nothing")
    return out


def _entry_digest(entry: dict, spot: str) -> str:
    if ("token" in entry) == ("sha256" in entry):
        raise ValueError(f"{spot} needs exactly one of 'token' and 'sha256'")
    if "token" in entry:
        secret = entry["token"]
        if type(secret) is not str or len(secret) < 16:
            raise ValueError(f"{spot}: 'token' must be a string of at least 16 characters")
        return _digest(secret)
    digest = entry["sha256"]
    if type(digest) is not str or len(digest) != 64 or set(digest) - set("0123456789abcdef"):
        raise ValueError(f"{spot}: 'sha256' must be 64 lower-case hex digits")
    return digest


def load_tokens(path: str | Path) -> TokenTable:
    """Read and check the token file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read token file {path}: {exc}") from None
    return parse_tokens(text, str(path))
