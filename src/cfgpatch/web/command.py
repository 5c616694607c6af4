"""The ``kubectl patch`` command line equivalent to what the page shows.

The patch is written as compact JSON (kubectl accepts JSON and YAML for ``-p``;
JSON on one line is the form that survives copying) and every word is quoted
for a POSIX shell (sh, bash, zsh): a word made only of safe characters is left
as it is, anything else goes in single quotes, where the only character that
needs care is the single quote itself (written ``'\\''``).
"""

from __future__ import annotations

import json
import re

from ..jsonvalue import JSON

_SAFE_WORD = re.compile(r"[A-Za-z0-9@%+=:,./_-]+\Z")

#: API groups whose kinds kubectl knows by their plain lower-case name.
BUILTIN_GROUPS = frozenset(
    {
        "", "apps", "batch", "autoscaling", "policy", "networking.k8s.io",
        "rbac.authorization.k8s.io", "storage.k8s.io", "scheduling.k8s.io",
        "coordination.k8s.io", "discovery.k8s.io", "node.k8s.io", "events.k8s.io",
        "certificates.k8s.io", "admissionregistration.k8s.io", "apiextensions.k8s.io",
        "apiregistration.k8s.io", "flowcontrol.apiserver.k8s.io", "resource.k8s.io",
        "extensions",
    }
)


def shell_quote(word: str) -> str:
    """Quote one word for a POSIX shell.

    >>> shell_quote("web"), shell_quote(""), shell_quote("it's")
    ('web', "''", "'it'\\\\''s'")
    """
    if _SAFE_WORD.match(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def resource_word(obj: JSON) -> str:
    """``deployment`` for built-in kinds, ``prometheus.monitoring.coreos.com`` otherwise."""
    if not isinstance(obj, dict):
        return "KIND"
    kind = obj.get("kind")
    if not isinstance(kind, str) or not kind:
        return "KIND"
    api_version = obj.get("apiVersion")
    group = ""
    if isinstance(api_version, str) and "/" in api_version:
        group = api_version.split("/", 1)[0]
    word = kind.lower()
    return word if group in BUILTIN_GROUPS else f"{word}.{group}"


def _metadata(obj: JSON, field: str) -> str | None:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    value = meta.get(field) if isinstance(meta, dict) else None
    return value if isinstance(value, str) and value else None


def kubectl_patch(obj: JSON, patch: JSON, patch_type: str, *, dry_run: bool = False) -> str:
    """The shell command that sends ``patch`` to the object's live copy.

    >>> print(kubectl_patch({"kind": "Service", "metadata": {"name": "dns"}}, {"a": 1}, "merge"))
    kubectl patch service dns --type=merge -p '{"a":1}'
    """
    words = ["kubectl", "patch", resource_word(obj), _metadata(obj, "name") or "NAME"]
    namespace = _metadata(obj, "namespace")
    if namespace:
        words += ["-n", namespace]
    words.append(f"--type={patch_type}")
    if dry_run:
        words += ["--dry-run=server", "-o", "yaml"]
    words += ["-p", json.dumps(patch, ensure_ascii=False, separators=(",", ":"))]
    return " ".join(shell_quote(word) for word in words)
