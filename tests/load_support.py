"""Concurrent writers against real servers, and the checks on what they leave.

Each of ``clients`` threads increments its own counter ``/c<i>`` many times:

* even clients guard with ``test`` operations (on the shared ``/total`` and on
  their own counter) and bump ``/total`` too, so most of their attempts race;
* odd clients send ``Cfgpatch-Rebase-From`` with the version they read (the
  explicit stale-base rebase) and, every few attempts, also set the shared
  ``/last``, which conflicts (409) whenever another client changed it since.

Every answer is recorded: 200 answers are acknowledged commits (version and
patch), 409 answers are refusals, and requests whose answer never came (the
server was killed) are "in doubt".  :func:`verify_history` then replays the
history: versions must be contiguous from 1, each acknowledged version must be
the result of its own patch on the version before it (so each commit is there
exactly once and nothing was lost), and the head must equal the replay.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

import httpx

from cfgpatch.jsonpatch import apply_patch
from cfgpatch.jsonvalue import canonical, parse
from cfgpatch.store.base import Store

PATCH_HEADERS = {"content-type": "application/json-patch+json"}


@dataclass
class Outcome:
    """What the clients saw."""

    acks: dict[int, tuple[int, list]] = field(default_factory=dict)  # version -> (client, patch)
    duplicates: list[int] = field(default_factory=list)
    refused: int = 0
    in_doubt: list[tuple[int, list]] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, version: int, client: int, patch: list) -> None:
        with self.lock:
            if version in self.acks:
                self.duplicates.append(version)
            self.acks[version] = (client, patch)


def initial_document(clients: int) -> dict:
    return {"total": 0, "last": None, **{f"c{i}": 0 for i in range(clients)}}


def _next_patch(client: int, attempt: int, doc: dict) -> tuple[list, bool]:
    """The patch a client sends next, and whether it rebases (Cfgpatch-Rebase-From)."""
    mine = f"/c{client}"
    k = doc[f"c{client}"]
    if client % 2 == 0:
        return [
            {"op": "test", "path": "/total", "value": doc["total"]},
            {"op": "test", "path": mine, "value": k},
            {"op": "replace", "path": "/total", "value": doc["total"] + 1},
            {"op": "replace", "path": mine, "value": k + 1},
        ], False
    ops = [{"op": "replace", "path": mine, "value": k + 1}]
    if attempt % 4 == 0:
        ops.append({"op": "replace", "path": "/last", "value": f"{client}-{k + 1}"})
    return ops, True


def worker(url: str, name: str, client: int, attempts: int, outcome: Outcome,
           stop: threading.Event, token: str | None = None) -> None:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=url, timeout=60, headers=headers) as http:
        for attempt in range(attempts):
            if stop.is_set():
                return
            try:
                got = http.get(f"/v1/documents/{name}")
            except httpx.HTTPError:
                return  # server gone; nothing was sent
            if got.status_code != 200:
                outcome.unexpected.append(f"GET {got.status_code} {got.text[:200]}")
                return
            patch, rebase = _next_patch(client, attempt, got.json())
            extra = {"cfgpatch-rebase-from": got.headers["etag"].strip('"')} if rebase else {}
            try:
                answer = http.patch(f"/v1/documents/{name}", content=json.dumps(patch),
                                    headers={**PATCH_HEADERS, **extra})
            except httpx.HTTPError:
                with outcome.lock:
                    outcome.in_doubt.append((client, patch))
                return
            if answer.status_code == 200:
                outcome.ack(answer.json()["version"], client, patch)
            elif answer.status_code == 409 and answer.json()["code"] in ("test failed",
                                                                         "conflict"):
                with outcome.lock:
                    outcome.refused += 1
            else:
                outcome.unexpected.append(f"PATCH {answer.status_code} {answer.text[:200]}")
                return


def run_load(urls: list[str], name: str, *, clients: int, attempts: int,
             stop: threading.Event | None = None, token: str | None = None,
             started: threading.Event | None = None, outcome: Outcome | None = None) -> Outcome:
    """Create ``name`` and run ``clients`` writers spread over ``urls`` until done or stopped.

    Pass ``outcome`` to watch the acknowledgements while the load runs.
    """
    outcome = outcome if outcome is not None else Outcome()
    stop = stop or threading.Event()
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    created = httpx.put(f"{urls[0]}/v1/documents/{name}",
                        content=json.dumps(initial_document(clients)), headers=headers)
    assert created.status_code == 201, created.text
    threads = [
        threading.Thread(target=worker,
                         args=(urls[i % len(urls)], name, i, attempts, outcome, stop, token))
        for i in range(clients)
    ]
    for t in threads:
        t.start()
    if started:
        started.set()
    for t in threads:
        t.join()
    return outcome


def verify_history(store: Store, name: str, outcome: Outcome, clients: int,
                   *, allow_in_doubt: bool = False) -> dict:
    """Check the stored history against what the clients were told; return a summary."""
    assert not outcome.unexpected, outcome.unexpected[:5]
    assert not outcome.duplicates, f"versions acknowledged twice: {outcome.duplicates[:5]}"
    infos = store.versions(name)
    head = len(infos)
    assert [i.version for i in infos] == list(range(1, head + 1)), "versions not contiguous"
    missing = [v for v in outcome.acks if v > head]
    assert not missing, f"acknowledged versions lost: {missing[:10]}"
    doc = initial_document(clients)
    assert store.get(name, 1).text == canonical(doc)
    pending = list(outcome.in_doubt) if allow_in_doubt else []
    unacknowledged = 0
    for version in range(2, head + 1):
        text = store.get(name, version).text
        parse(text)  # every stored version is whole, valid JSON
        if version in outcome.acks:
            doc = apply_patch(doc, outcome.acks[version][1])
        else:
            doc = _match_in_doubt(doc, text, pending, version)
            unacknowledged += 1
        assert canonical(doc) == text, f"version {version} is not its commit's result"
    _check_counters(doc, outcome, clients, unacknowledged)
    return {"head": head, "acks": len(outcome.acks), "refused": outcome.refused,
            "in_doubt": len(outcome.in_doubt), "committed_unacknowledged": unacknowledged}


def _match_in_doubt(doc: dict, text: str, pending: list, version: int) -> dict:
    for index, (_, patch) in enumerate(pending):
        try:
            candidate = apply_patch(doc, patch)
        except Exception:  # a patch for another head
            continue
        if canonical(candidate) == text:
            pending.pop(index)
            return candidate
    raise AssertionError(f"version {version} matches no acknowledged or in-flight commit")


def _check_counters(doc: dict, outcome: Outcome, clients: int, unacknowledged: int) -> None:
    per_client = [0] * clients
    for client, _ in outcome.acks.values():
        per_client[client] += 1
    if unacknowledged == 0:
        assert [doc[f"c{i}"] for i in range(clients)] == per_client
        assert doc["total"] == sum(per_client[0::2])
    else:
        assert all(doc[f"c{i}"] >= per_client[i] for i in range(clients))


@dataclass
class Increments:
    """What the read-modify-write clients were told."""

    acks: list[int] = field(default_factory=list)  # version acknowledged per increment
    retries: int = 0
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _increment(http: httpx.Client, name: str, client: int, outcome: Increments) -> bool:
    """One acknowledged increment (retrying on 412); False if something unexpected came."""
    path = f"/v1/documents/{name}"
    while True:
        got = http.get(path)
        if got.status_code != 200:
            outcome.unexpected.append(f"GET {got.status_code} {got.text[:200]}")
            return False
        n, tag = got.json()["n"], got.headers["etag"]
        if client % 2:
            answer = http.put(path, content=json.dumps({"n": n + 1}),
                              headers={"content-type": "application/json", "if-match": tag})
        else:
            answer = http.patch(path, content=json.dumps([{"op": "replace", "path": "/n",
                                                           "value": n + 1}]),
                                headers={**PATCH_HEADERS, "if-match": tag})
        if answer.status_code in (200, 201):
            with outcome.lock:
                outcome.acks.append(answer.json()["version"])
            return True
        if answer.status_code != 412:
            outcome.unexpected.append(f"write {answer.status_code} {answer.text[:200]}")
            return False
        with outcome.lock:
            outcome.retries += 1


def run_increments(urls: list[str], name: str, *, clients: int, each: int) -> Increments:
    """``clients`` threads (spread over ``urls``) each make ``each`` increments of ``/n``."""
    outcome = Increments()
    created = httpx.put(f"{urls[0]}/v1/documents/{name}", content='{"n":0}',
                        headers={"content-type": "application/json"})
    assert created.status_code == 201, created.text

    def work(client: int) -> None:
        with httpx.Client(base_url=urls[client % len(urls)], timeout=60) as http:
            for _ in range(each):
                if not _increment(http, name, client, outcome):
                    return

    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcome


def verify_increments(store: Store, name: str, outcome: Increments) -> dict:
    """No acknowledged increment is lost: counter == acks, each version one increment."""
    assert not outcome.unexpected, outcome.unexpected[:5]
    infos = store.versions(name)
    head = len(infos)
    assert sorted(outcome.acks) == list(range(2, head + 1)), "acks and versions differ"
    for version in range(1, head + 1):
        assert parse(store.get(name, version).text) == {"n": version - 1}, version
    lost = len(outcome.acks) - parse(store.get(name, head).text)["n"]
    assert lost == 0, f"{lost} acknowledged increments lost"
    return {"increments": len(outcome.acks), "retries_on_412": outcome.retries, "head": head}
