"""The comment poster: one comment per part, updated in place, stale parts deleted."""

from __future__ import annotations

from cfgpatch.preview.github import post
from cfgpatch.preview.markdown import MARKER


class FakeGitHub:
    def __init__(self, comments):
        self.comments = {c["id"]: c for c in comments}
        self.calls = []
        self.next_id = 100

    def __call__(self, method, url, body):
        self.calls.append((method, url.split("/repos/o/r/issues")[1]))
        if method == "GET":
            return list(self.comments.values()) if url.endswith("page=1") else []
        if method == "POST":
            self.next_id += 1
            self.comments[self.next_id] = {"id": self.next_id, "body": body["body"]}
            return {"id": self.next_id}
        comment_id = int(url.rsplit("/", 1)[1])
        if method == "PATCH":
            self.comments[comment_id]["body"] = body["body"]
        elif method == "DELETE":
            del self.comments[comment_id]
        return None


def _parts(count):
    if count == 1:
        return [f"{MARKER}\nonly\n"]
    return [f"{MARKER}\n**kube preview, part {n} of {count}**\n\nbody {n}\n"
            for n in range(1, count + 1)]


def test_first_run_creates_then_updates_in_place_and_drops_stale_parts():
    github = FakeGitHub([{"id": 1, "body": "a human's comment"}])
    post(_parts(2), "https://api", "o/r", 7, github)
    assert sorted(b["body"][-7:] for b in github.comments.values()) == \
        ["body 1\n", "body 2\n", "comment"]
    github.calls.clear()
    post(_parts(1), "https://api", "o/r", 7, github)
    methods = [m for m, _ in github.calls]
    assert methods.count("PATCH") == 1 and methods.count("DELETE") == 1
    assert "POST" not in methods
    assert len(github.comments) == 2  # the human's comment and one preview
