"""Behaviour every durable store shares, checked against the in-memory model.

Imported by ``test_store_sqlite.py`` and ``test_store_postgres.py``; each passes
a factory that opens a fresh, empty store.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch.errors import InvalidInput
from cfgpatch.store import ConcurrentUpdate, MemoryStore, Store


def check_round_trip(store: Store) -> None:
    assert store.head_version("cfg") is None
    assert store.get("cfg", 1) is None
    assert store.versions("cfg") == []
    assert store.append("cfg", '{"a":1}', expected_head=None, author="ci", message="first") == 1
    assert store.append("cfg", '{"a":"é\u2603"}', expected_head=1) == 2
    assert store.head_version("cfg") == 2
    assert store.get("cfg", 1).text == '{"a":1}'
    assert store.get("cfg", 2).text == '{"a":"é\u2603"}'
    assert store.get("cfg", 3) is None
    assert store.get("cfg", 0) is None
    infos = store.versions("cfg")
    assert [(i.name, i.version, i.author, i.message) for i in infos] == [
        ("cfg", 1, "ci", "first"),
        ("cfg", 2, None, None),
    ]
    assert all(i.created_at and i.created_at.endswith("Z") for i in infos)
    assert infos[0].created_at <= infos[1].created_at
    store.append("b", "[]", expected_head=None)
    assert store.names() == ["b", "cfg"]


def check_stale_heads_refused(store: Store) -> None:
    store.append("cfg", "1", expected_head=None)
    for wrong in (None, 0, 2, 5):
        with pytest.raises(ConcurrentUpdate):
            store.append("cfg", "2", expected_head=wrong)
    assert store.head_version("cfg") == 1
    assert [i.version for i in store.versions("cfg")] == [1]


def check_lone_surrogates_refused(store: Store) -> None:
    """Text UTF-8 cannot hold gets a clear error naming the field; nothing is written."""
    store.append("cfg", "1", expected_head=None)
    for field, kwargs, where in [
        ("name", {"name": "c\ud800"}, "U+D800 at character 2"),
        ("text", {"text": '"\udfff"'}, "U+DFFF at character 2"),
        ("author", {"author": "\udc80"}, "U+DC80 at character 1"),
        ("message", {"message": "ok \ud83d"}, "U+D83D at character 4"),
    ]:
        call = {"name": "cfg", "text": "2", "expected_head": 1, **kwargs}
        with pytest.raises(InvalidInput) as caught:
            store.append(call.pop("name"), call.pop("text"), **call)
        assert f"the {field} holds a lone surrogate ({where}" in caught.value.describe()
    with pytest.raises(InvalidInput) as caught:
        store.get("\ud800", 1)
    assert "the name holds a lone surrogate" in caught.value.describe()
    assert [i.version for i in store.versions("cfg")] == [1]
    assert store.names() == ["cfg"]


def check_racing_writers(store: Store, threads: int = 8, rounds: int = 5) -> None:
    """Writers that all saw the same head: exactly one wins each round."""
    store.append("race", "0", expected_head=None)
    for round_no in range(rounds):
        head = store.head_version("race")
        barrier = threading.Barrier(threads)
        wins: list[int] = []
        losses: list[int] = []

        def write(
            i: int, head: int = head, barrier=barrier, wins=wins, losses=losses
        ) -> None:
            barrier.wait()
            try:
                store.append("race", str(i), expected_head=head)
                wins.append(i)
            except ConcurrentUpdate:
                losses.append(i)

        workers = [threading.Thread(target=write, args=(i,)) for i in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert len(wins) == 1, (round_no, wins)
        assert len(losses) == threads - 1
        assert store.get("race", head + 1).text == str(wins[0])
    assert [i.version for i in store.versions("race")] == list(range(1, rounds + 2))


_actions = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c/d"]),
        st.integers(-1, 4),
        # canonical JSON text never holds a raw NUL (it is written \u0000) nor a lone
        # surrogate (jsonvalue refuses one before any store sees the text)
        st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)),
                max_size=5),
    ),
    max_size=25,
)


def check_matches_memory_model(open_store: Callable[[], Store]) -> None:
    """Any sequence of appends (right or wrong expected heads) matches MemoryStore."""

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_actions)
    def run(actions: list[tuple[str, int, str]]) -> None:
        store, model = open_store(), MemoryStore()
        try:
            for name, offset, text in actions:
                head = model.head_version(name)
                expected = None if offset < 0 else (head or 0) + offset - 1 or None
                outcomes = []
                for target in (store, model):
                    try:
                        outcomes.append(target.append(name, text, expected_head=expected))
                    except ConcurrentUpdate:
                        outcomes.append("stale")
                assert outcomes[0] == outcomes[1]
            for name in model.names():
                assert store.head_version(name) == model.head_version(name)
                for info in model.versions(name):
                    assert store.get(name, info.version).text == model.get(name, info.version).text
            assert store.names() == model.names()
        finally:
            store.close()

    run()


def _documents(count: int) -> list[tuple[str, str | None]]:
    """A document's texts and the deltas that make each from the one before."""
    from cfgpatch.jsonvalue import canonical

    texts, deltas, doc = [], [], {"items": list(range(40)), "n": 0}
    for n in range(count):
        new = {"items": doc["items"], "n": n}
        texts.append(canonical(new))
        deltas.append(None if n == 0 else canonical([{"op": "replace", "path": "/n", "value": n}]))
        doc = new
    return list(zip(texts, deltas, strict=True))


def check_deltas_read_back_whole(store: Store) -> None:
    """Versions kept as deltas read back byte for byte; a block's first one is whole."""
    from cfgpatch.store.deltas import DELTA, FULL, SNAPSHOT_EVERY

    history = _documents(2 * SNAPSHOT_EVERY + 3)
    for number, (text, delta) in enumerate(history, 1):
        assert store.append("d", text, expected_head=number - 1 or None, delta=delta) == number
    for number, (text, _) in enumerate(history, 1):
        assert store.get("d", number).text == text
        chain = store.chain("d", number)
        assert chain[0].kind == FULL and chain[-1].version == number
        assert all(row.kind == DELTA for row in chain[1:])
        assert len(chain) == (number - 1) % SNAPSHOT_EVERY + 1
    # A delta longer than the text is not kept (the text is).
    store.append("d", "[]", expected_head=len(history), delta='[{"op":"replace","path":"","value":[]}]')
    assert store.chain("d", len(history) + 1)[0].text == "[]"
    assert store.chain("d", 999) == [] and store.get("d", 999) is None


def check_tombstones_and_paging(store: Store) -> None:
    for number in range(1, 6):
        store.append("t", str(number), expected_head=number - 1 or None)
    assert store.head_state("t") == (5, False)
    assert store.append("t", "null", expected_head=5, deleted=True, author="ops") == 6
    assert store.head_state("t") == (6, True)
    assert store.head_state("none") is None
    infos = store.versions("t")
    assert [i.deleted for i in infos] == [False] * 5 + [True]
    assert infos[-1].to_dict()["deleted"] is True and "deleted" not in infos[0].to_dict()
    assert store.get("t", 3).text == "3"
    assert [i.version for i in store.versions("t", after=2, limit=2)] == [3, 4]
    assert [i.version for i in store.versions("t", after=4)] == [5, 6]
    assert store.versions("t", after=6, limit=3) == []
    assert "t" not in store.names()
    assert store.names(include_deleted=True) == ["t"]  # what retention sweeps
    assert store.append("t", '{"again":1}', expected_head=6) == 7  # the name is free again
    assert store.head_state("t") == (7, False) and "t" in store.names()
    assert store.names(include_deleted=True) == ["t"]


def check_prune_and_retention(store: Store) -> None:
    from cfgpatch.store.base import RetentionPolicy
    from cfgpatch.store.deltas import SNAPSHOT_EVERY

    count = 2 * SNAPSHOT_EVERY + 5
    for number, (text, delta) in enumerate(_documents(count), 1):
        store.append("p", text, expected_head=number - 1 or None, delta=delta)
    with pytest.raises(ValueError):
        store.prune("p", 2)
    assert store.prune("p", 3 * SNAPSHOT_EVERY + 1) == 0  # above the head's block: never
    assert store.prune("p", SNAPSHOT_EVERY + 1) == SNAPSHOT_EVERY
    assert store.versions("p")[0].version == SNAPSHOT_EVERY + 1
    assert store.get("p", 1) is None and store.get("p", SNAPSHOT_EVERY) is None
    assert store.get("p", count).text == _documents(count)[-1][0]
    assert store.head_version("p") == count
    assert store.retention() == []
    store.set_retention(RetentionPolicy("team-", keep_last=10))
    store.set_retention(RetentionPolicy("", keep_seconds=3600))
    store.set_retention(RetentionPolicy("team-", keep_last=20))
    assert store.retention() == [RetentionPolicy("", None, 3600), RetentionPolicy("team-", 20)]
    store.set_retention(RetentionPolicy(""))
    assert store.retention() == [RetentionPolicy("team-", 20)]
