"""Posting the Markdown parts as pull-request comments: one comment per part, found
again by its marker and updated in place on the next run (parts no longer needed are
deleted), through GitHub's REST API with the job's token (standard library only).

    python -m cfgpatch.preview.github preview.md [preview.md.2 ...]

reads ``GITHUB_TOKEN``, ``GITHUB_REPOSITORY``, ``GITHUB_API_URL`` and the pull
request's number (``PR_NUMBER``, else the event file's ``pull_request.number``).
"""

from __future__ import annotations

import json
import os
import re
import sys
import urllib.request
from collections.abc import Callable

from .markdown import MARKER

Request = Callable[[str, str, dict | None], object]
_PART = re.compile(r"\*\*kube preview, part (\d+) of \d+\*\*")


def http(token: str) -> Request:
    def call(method: str, url: str, body: dict | None) -> object:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers={
            "Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
            "Content-Type": "application/json", "User-Agent": "cfgpatch-kube-preview"})
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            text = answer.read()
        return json.loads(text) if text else None
    return call


def post(parts: list[str], api: str, repository: str, number: int, call: Request) -> list[int]:
    """Create or update one comment per part; returns the comment ids, in part order."""
    base = f"{api}/repos/{repository}/issues"
    existing: dict[int, int] = {}
    page = 1
    while True:
        found = call("GET", f"{base}/{number}/comments?per_page=100&page={page}", None)
        if not isinstance(found, list) or not found:
            break
        for comment in found:
            body = comment.get("body") or ""
            if body.startswith(MARKER):
                match = _PART.search(body)
                existing.setdefault(int(match[1]) if match else 1, comment["id"])
        page += 1
    ids = []
    for index, part in enumerate(parts, 1):
        if index in existing:
            call("PATCH", f"{base}/comments/{existing.pop(index)}", {"body": part})
            ids.append(0)
        else:
            made = call("POST", f"{base}/{number}/comments", {"body": part})
            ids.append(int(made["id"]) if isinstance(made, dict) else 0)
    for stale in existing.values():
        call("DELETE", f"{base}/comments/{stale}", None)
    return ids


def main(argv: list[str]) -> int:
    parts = []
    for path in argv:
        with open(path, encoding="utf-8") as handle:
            parts.append(handle.read())
    number = os.environ.get("PR_NUMBER")
    if not number and os.environ.get("GITHUB_EVENT_PATH"):
        with open(os.environ["GITHUB_EVENT_PATH"], encoding="utf-8") as handle:
            number = str((json.load(handle).get("pull_request") or {}).get("number") or "")
    if not number:
        sys.stderr.write("kube preview: not a pull request, no comment posted\n")
        return 0
    post(parts, os.environ.get("GITHUB_API_URL", "https://api.github.com"),
         os.environ["GITHUB_REPOSITORY"], int(number), http(os.environ["GITHUB_TOKEN"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
