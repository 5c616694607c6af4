"""``metadata.managedFields``: decoding, encoding, ordering, manager identifiers.

A manager is identified by its name, operation, API version (``Update`` only) and
subresource, written as the JSON the API server uses as its key:
``{"manager":"kubectl","operation":"Apply"}``,
``{"manager":"hpa","operation":"Update","apiVersion":"apps/v1"}``.

Entries are written back sorted as the server sorts them: ``Apply`` before ``Update``, then
by time (to the second; no time counts as the epoch), manager name, API version and
subresource.  Each entry's fields are ``FieldsV1`` (:mod:`.fieldpath`).  At most 10
``Update`` entries are kept: :func:`cap_update_managers` merges the oldest into
``ancient-changes``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ...records import dataclass, field
from ..go.json import encode_string, go_quote
from . import fieldpath as fp
from .updater import Managers, VersionedSet

APPLY = "Apply"
UPDATE = "Update"


class DecodeError(ValueError):
    """``managedFields`` the server cannot read (its words)."""


@dataclass
class ManagedFieldsEntry:
    """One entry of ``metadata.managedFields``, typed."""

    manager: str
    operation: str
    api_version: str
    fields: fp.FieldSet = field(default_factory=fp.FieldSet)
    time: str | None = None
    subresource: str = ""

    @property
    def applied(self) -> bool:
        """True for an ``Apply`` entry."""
        return self.operation == APPLY

    def identifier(self) -> str:
        """The server's key for this manager."""
        return identifier(self.manager, self.operation, self.api_version, self.subresource)

    def label(self) -> str:
        """How the server names the manager in a conflict (``"hpa" using apps/v1``)."""
        return describe(self.identifier())

    def to_dict(self) -> dict:
        """The entry as the object holds it (field order of the API)."""
        out: dict = {}
        if self.manager:
            out["manager"] = self.manager
        if self.operation:
            out["operation"] = self.operation
        if self.api_version:
            out["apiVersion"] = self.api_version
        if self.time:
            out["time"] = self.time
        out["fieldsType"] = "FieldsV1"
        out["fieldsV1"] = self.fields.to_fields_v1()
        if self.subresource:
            out["subresource"] = self.subresource
        return out


def identifier(manager: str, operation: str, api_version: str, subresource: str = "") -> str:
    """The server's key of a manager (JSON, as Go marshals the entry without its fields)."""
    parts = []
    if manager:
        parts.append('"manager":' + encode_string(manager))
    if operation:
        parts.append('"operation":' + encode_string(operation))
    if api_version and operation != APPLY:
        parts.append('"apiVersion":' + encode_string(api_version))
    if subresource:
        parts.append('"subresource":' + encode_string(subresource))
    return "{" + ",".join(parts) + "}"


def parse_identifier(ident: str) -> dict:
    """The fields of an identifier (``manager``, ``operation``, ``apiVersion``, ...)."""
    try:
        data = json.loads(ident)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def describe(ident: str) -> str:
    """The server's ``printManager``: ``"kubectl"``, ``"hpa" using apps/v1``."""
    data = parse_identifier(ident)
    if not data:
        return go_quote(ident)
    text = go_quote(str(data.get("manager", "")))
    if data.get("subresource"):
        text += f" with subresource {go_quote(str(data['subresource']))}"
    if data.get("operation") == UPDATE:
        return f"{text} using {data.get('apiVersion', '')}"
    return text


def read_entries(obj: Any) -> list[dict] | None:
    """The raw entries of an object (``None`` when absent or unreadable, as Go reads them)."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict) or "managedFields" not in meta:
        return None
    items = meta["managedFields"]
    if not isinstance(items, list):
        return None
    for item in items:
        if not isinstance(item, dict):
            return None
        for k in ("manager", "operation", "apiVersion", "fieldsType", "subresource", "time"):
            if k in item and item[k] is not None and not isinstance(item[k], str):
                return None
        if item.get("time") and seconds(item["time"]) is None:
            return None
    return items


def decode(items: list[dict] | None) -> tuple[Managers, dict[str, str | None]]:
    """The managers and their times (raises :class:`DecodeError`)."""
    managers: Managers = {}
    times: dict[str, str | None] = {}
    for i, item in enumerate(items or ()):
        op = item.get("operation") or ""
        if op not in (APPLY, UPDATE):
            raise DecodeError("operation must be `Apply` or `Update`")
        version = item.get("apiVersion") or ""
        if not version:
            raise DecodeError("apiVersion must not be empty")
        ftype = item.get("fieldsType") or ""
        if ftype == "":
            raise DecodeError(f"missing fieldsType in managed fields entry {i}")
        if ftype != "FieldsV1":
            raise DecodeError(f"invalid fieldsType {go_quote(ftype)} in managed fields entry {i}")
        ident = identifier(item.get("manager") or "", op, version, item.get("subresource") or "")
        raw = item.get("fieldsV1")
        try:
            s = fp.FieldSet.from_fields_v1(raw if raw is not None else {})
        except fp.FieldsV1Error as exc:
            raise DecodeError(f"error decoding versioned set: error decoding set: {exc}") from None
        managers[ident] = VersionedSet(s, version, op == APPLY)
        times[ident] = item.get("time") or None
    return managers, times


def encode(managers: Managers, times: dict[str, str | None]) -> list[ManagedFieldsEntry]:
    """The entries, sorted as the server sorts them."""
    entries = []
    for ident, vs in managers.items():
        data = parse_identifier(ident)
        op = APPLY if vs.applied else str(data.get("operation", ""))
        entries.append(ManagedFieldsEntry(
            manager=str(data.get("manager", "")), operation=op, api_version=vs.api_version,
            fields=vs.set, time=times.get(ident), subresource=str(data.get("subresource", ""))))
    entries.sort(key=lambda e: (e.operation, seconds(e.time) or 0, e.manager, e.api_version,
                                e.subresource))
    return entries


def entries_of(obj: Any) -> list[ManagedFieldsEntry]:
    """The typed entries of an object (empty when it has none or they cannot be read)."""
    try:
        managers, times = decode(read_entries(obj))
    except DecodeError:
        return []
    return encode(managers, times)


def seconds(text: str | None) -> int | None:
    """An RFC 3339 time as Unix seconds (``None`` when absent or invalid)."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return int(moment.timestamp() // 1)


def rfc3339(moment: datetime) -> str:
    """A moment as the server writes ``time`` (UTC, to the second)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


ANCIENT_CHANGES = "ancient-changes"
MAX_UPDATE_MANAGERS = 10


def cap_update_managers(managers: Managers, times: dict) -> Managers:
    """At most ``MAX_UPDATE_MANAGERS`` Update entries: the oldest are merged, per API
    version, into ``ancient-changes`` (``times`` is updated in place)."""
    updaters = [m for m, vs in managers.items() if not vs.applied]
    if len(updaters) <= MAX_UPDATE_MANAGERS:
        return managers
    managers = dict(managers)
    updaters.sort(key=lambda m: (seconds(times.get(m)) or 0, m))
    first_of: dict[str, str] = {}
    length = len(updaters)
    for m in updaters:
        if length <= MAX_UPDATE_MANAGERS:
            break
        vs = managers[m]
        version = vs.api_version
        bucket = identifier(ANCIENT_CHANGES, UPDATE, version)
        if version in first_of:
            if bucket not in managers:
                managers[bucket] = managers.pop(first_of[version])
            managers[bucket] = VersionedSet(vs.set.union(managers[bucket].set), version,
                                            vs.applied)
            del managers[m]
            length -= 1
            times[bucket] = times.get(m)
        else:
            first_of[version] = m
    return managers
