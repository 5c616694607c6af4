"""The event loop's group commit (cfgpatch.store.group_commit.LoopGroupCommit, PerLoop)
and the durable stores' ``append_async``: batching, one item per key, outcomes and
failures handed to the right tasks, a writer that stops waiting; racing tasks on
SQLite and PostgreSQL (each row judged on its own head, every answered append kept)."""

from __future__ import annotations

import asyncio
import threading

import pytest

import pg_support
from cfgpatch.errors import InvalidInput
from cfgpatch.store import ConcurrentUpdate
from cfgpatch.store.group_commit import LoopGroupCommit, PerLoop


class Recorder:
    """A ``flush`` (run on a thread) recording its batches, answering each item doubled
    (an item whose key is ``fail`` gets its own error; ``fail="batch"`` fails it all)."""

    def __init__(self, fail: str | None = None) -> None:
        self.batches: list[list[tuple[str, int]]] = []
        self.threads: set[int] = set()
        self.fail = fail

    def __call__(self, items: list[tuple[str, int]]) -> list[int | BaseException]:
        self.batches.append(list(items))
        self.threads.add(threading.get_ident())
        if self.fail == "batch":
            raise RuntimeError("the database went away")
        return [ValueError(key) if key == self.fail else number * 2 for key, number in items]


def submit_all(commits: LoopGroupCommit, items: list[tuple[str, int]]) -> list:
    async def main() -> list:
        return await asyncio.gather(*(commits.submit(item) for item in items),
                                    return_exceptions=True)

    return asyncio.run(asyncio.wait_for(main(), 10))  # a writer never answered: fail


def test_items_queued_together_go_in_one_batch_one_per_key():
    recorder = Recorder()
    commits = LoopGroupCommit(recorder, key=lambda item: item[0])
    items = [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("d", 5)]
    assert submit_all(commits, items) == [2, 4, 6, 8, 10]
    assert recorder.batches == [[("a", 1), ("b", 2), ("c", 4), ("d", 5)], [("a", 3)]]
    assert threading.get_ident() not in recorder.threads  # written on a thread
    assert (commits.batches, commits.items) == (2, 5)


def test_a_batch_holds_at_most_max_batch_items():
    recorder = Recorder()
    commits = LoopGroupCommit(recorder, key=lambda item: item[0], max_batch=2)
    assert submit_all(commits, [(str(k), k) for k in range(5)]) == [0, 2, 4, 6, 8]
    assert [len(batch) for batch in recorder.batches] == [2, 2, 1]


def test_each_item_gets_its_own_outcome():
    recorder = Recorder(fail="b")
    commits = LoopGroupCommit(recorder, key=lambda item: item[0])
    outcomes = submit_all(commits, [("a", 1), ("b", 2), ("c", 3)])
    assert outcomes[0] == 2 and outcomes[2] == 6
    assert isinstance(outcomes[1], ValueError) and str(outcomes[1]) == "b"


def test_a_failing_flush_fails_its_batch_and_the_items_queued_behind_it():
    recorder = Recorder(fail="batch")
    commits = LoopGroupCommit(recorder, key=lambda item: item[0])
    outcomes = submit_all(commits, [("a", 1), ("a", 2), ("b", 3)])
    assert all(isinstance(outcome, RuntimeError) for outcome in outcomes)
    assert len(recorder.batches) == 1  # the second "a" failed with it, never written


def test_several_flights_write_at_once_and_land():
    entered = threading.Barrier(2, timeout=5)

    def flush(items: list[tuple[str, int]]) -> list[int | BaseException]:
        entered.wait()  # both flights inside flush together, or a BrokenBarrierError
        return [number for _, number in items]

    commits = LoopGroupCommit(flush, key=lambda item: item[0], max_batch=1, flights=2)

    async def main() -> list:
        first = await asyncio.gather(commits.submit(("a", 1)), commits.submit(("b", 2)))
        entered.reset()
        later = await asyncio.gather(commits.submit(("c", 3)), commits.submit(("d", 4)))
        return [*first, *later]  # the landed flights made room for two new ones

    assert asyncio.run(main()) == [1, 2, 3, 4]


def test_a_writer_that_stops_waiting_leaves_the_others_answered():
    release = threading.Event()

    def flush(items: list[tuple[str, int]]) -> list[int | BaseException]:
        release.wait(5)
        return [number for _, number in items]

    commits = LoopGroupCommit(flush, key=lambda item: item[0])

    async def main() -> tuple:
        quitter = asyncio.ensure_future(commits.submit(("a", 1)))
        stayer = asyncio.ensure_future(commits.submit(("b", 2)))
        await asyncio.sleep(0.05)
        quitter.cancel()
        release.set()
        return await asyncio.gather(quitter, stayer, return_exceptions=True)

    quitter, stayer = asyncio.run(main())
    assert isinstance(quitter, asyncio.CancelledError) and stayer == 2
    assert commits.items == 2  # the quitter's item was written all the same


def test_a_writer_stops_waiting_after_its_timeout_and_its_row_is_still_written():
    release = threading.Event()

    def flush(items: list[tuple[str, int]]) -> list[int | BaseException]:
        release.wait(5)
        return [number for _, number in items]

    commits = LoopGroupCommit(flush, key=lambda item: item[0])
    per_loop = PerLoop(lambda: commits)

    async def main() -> tuple:
        loop = asyncio.get_running_loop()
        started = loop.time()
        quick = asyncio.ensure_future(per_loop.submit(("a", 1), 0.05))
        patient = asyncio.ensure_future(commits.submit(("b", 2), 30))
        done = await asyncio.gather(quick, return_exceptions=True)
        waited = loop.time() - started
        release.set()
        return done[0], waited, await patient

    quick, waited, patient = asyncio.run(main())
    assert isinstance(quick, TimeoutError) and 0.04 < waited < 2
    assert patient == 2 and commits.items == 2  # the quick one's row was written too


def test_per_loop_keeps_one_group_commit_per_loop():
    made: list[LoopGroupCommit] = []

    def make() -> LoopGroupCommit:
        made.append(LoopGroupCommit(Recorder(), key=lambda item: item[0]))
        return made[-1]

    per_loop = PerLoop(make)

    async def twice() -> list:
        return [await per_loop.submit(("a", 1)), await per_loop.submit(("a", 2))]

    assert asyncio.run(twice()) == [2, 4]
    assert asyncio.run(twice()) == [2, 4]  # a new loop: a new group commit
    assert len(made) == 2 and len(per_loop._commits) == 1  # the closed loop's is gone


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        LoopGroupCommit(lambda items: items, key=id, max_batch=0)
    with pytest.raises(ValueError):
        LoopGroupCommit(lambda items: items, key=id, flights=0)


# -- the durable stores' append_async ----------------------------------------------------

@pytest.fixture(params=["sqlite", "postgres"])
def durable_store(request, tmp_path):
    with pg_support.durable_store(request.param, tmp_path, pool_max="4") as store:
        yield store


def test_racing_tasks_lose_nothing_answered(durable_store):
    """Twelve tasks, six documents (two writers each, racing on the head they read):
    every append answered is in the history with its own text, without gaps."""
    store = durable_store
    answered: list[tuple[str, int, str]] = []

    async def writer(doc: str, tag: str) -> None:
        for k in range(15):
            head = store.head_version(doc)
            text = f'"{tag}-{k}"'
            try:
                version = await store.append_async(doc, text, expected_head=head)
            except ConcurrentUpdate:
                continue
            answered.append((doc, version, text))

    async def main() -> None:
        await asyncio.gather(*(writer(f"doc{d}", f"{d}{w}") for d in range(6)
                               for w in "xy"))

    asyncio.run(main())
    for doc in {doc for doc, _, _ in answered}:
        mine = sorted((v, t) for d, v, t in answered if d == doc)
        assert [v for v, _ in mine] == list(range(1, len(mine) + 1))  # no gaps
        assert store.head_version(doc) == len(mine)
        for version, text in mine:
            assert store.get(doc, version).text == text


def test_a_stale_head_is_a_concurrent_update(durable_store):
    store = durable_store
    store.append("cfg", "1", expected_head=None)

    async def main() -> int:
        return await store.append_async("cfg", "2", expected_head=None)

    with pytest.raises(ConcurrentUpdate):
        asyncio.run(main())
    assert store.head_version("cfg") == 1


def test_a_lone_surrogate_is_refused_alone(durable_store):
    store = durable_store

    async def main() -> list:
        return await asyncio.gather(store.append_async("good", '"ok"', expected_head=None),
                                    store.append_async("bad", '"\ud800"', expected_head=None),
                                    return_exceptions=True)

    good, bad = asyncio.run(main())
    assert good == 1 and isinstance(bad, InvalidInput)
    assert store.head_version("bad") is None


def test_an_append_holds_utf8_only_s_rule_without_its_context_manager(durable_store,
                                                                     monkeypatch):
    from cfgpatch.store import group_appends

    monkeypatch.setattr(group_appends, "utf8_only", None, raising=False)  # not needed
    store = durable_store
    assert store.append("cfg", '"ok"', expected_head=None) == 1
    with pytest.raises(InvalidInput) as caught:
        store.append("cfg", '"x"', expected_head=1, author="a\ud800")
    assert "the author holds a lone surrogate" in caught.value.describe()

    async def main() -> int:
        return await store.append_async("cfg", '"y"', expected_head=1, message="m\ud800")

    with pytest.raises(InvalidInput) as caught:
        asyncio.run(main())
    assert "the message holds a lone surrogate" in caught.value.describe()
    assert store.head_version("cfg") == 1


def test_per_loop_hands_over_the_loop_s_own_submit():
    """``PerLoop.submit`` returns its loop's ``submit`` to await (no coroutine of its own
    between an append and its group commit)."""
    import inspect

    commits = LoopGroupCommit(lambda items: [item[1] for item in items], key=lambda i: i[0])
    per_loop = PerLoop(lambda: commits)
    assert not inspect.iscoroutinefunction(PerLoop.submit)

    async def main() -> list:
        return await asyncio.gather(per_loop.submit(("a", 1)), per_loop.submit(("b", 2), 5))

    assert asyncio.run(main()) == [1, 2]


# -- flush_here: batches written on the loop itself; closing a loop's group commit -------

class ThreadFlush(Exception):
    """``flush`` ran on a thread although ``flush_here`` was given."""


def on_a_thread(items: list) -> list:
    raise ThreadFlush()


def submit_here(commits: LoopGroupCommit, items: list[tuple[str, int]]) -> list:
    """:func:`submit_all`, failing after 5 s instead of hanging (writers never answered)."""
    async def main() -> list:
        return await asyncio.wait_for(asyncio.gather(
            *(commits.submit(item) for item in items), return_exceptions=True), 5)

    return asyncio.run(main())


def test_flush_here_writes_the_batches_on_the_loop():
    threads: set[int] = set()
    batches: list[list[tuple[str, int]]] = []

    async def flush_here(items: list[tuple[str, int]]) -> list[int | BaseException]:
        threads.add(threading.get_ident())
        batches.append(list(items))
        await asyncio.sleep(0.01)  # the loop runs the other writers meanwhile
        return [KeyError(key) if key == "bad" else number * 2 for key, number in items]

    commits = LoopGroupCommit(on_a_thread, key=lambda item: item[0], flush_here=flush_here)
    outcomes = submit_here(commits, [("a", 1), ("b", 2), ("a", 3), ("bad", 4)])
    assert outcomes[:3] == [2, 4, 6] and isinstance(outcomes[3], KeyError)
    assert batches == [[("a", 1), ("b", 2), ("bad", 4)], [("a", 3)]]
    assert threads == {threading.get_ident()}  # asyncio.run's loop: this thread


def test_flush_here_answering_a_wrong_count_fails_its_writers():
    async def flush_here(items: list[tuple[str, int]]) -> list[int | BaseException]:
        return [number for _, number in items][1:]

    commits = LoopGroupCommit(on_a_thread, key=lambda item: item[0], flush_here=flush_here)
    outcomes = submit_here(commits, [("a", 1), ("b", 2)])
    assert [type(outcome) for outcome in outcomes] == [AssertionError] * 2
    assert "answered 1 outcomes for 2 items" in str(outcomes[0])


def test_a_failing_flush_here_fails_its_batch_and_the_items_queued_behind_it():
    calls: list[list[tuple[str, int]]] = []

    async def flush_here(items: list[tuple[str, int]]) -> list[int | BaseException]:
        calls.append(list(items))
        raise RuntimeError("the connection went away")

    commits = LoopGroupCommit(on_a_thread, key=lambda item: item[0], flush_here=flush_here)
    outcomes = submit_here(commits, [("a", 1), ("a", 2), ("b", 3)])
    assert [type(outcome) for outcome in outcomes] == [RuntimeError] * 3
    assert calls == [[("a", 1), ("b", 3)]]  # the second "a" failed with it, never written
    later = submit_here(commits, [("c", 5)])  # the failed flight landed: a new one starts
    assert isinstance(later[0], RuntimeError) and len(calls) == 2


def test_flush_here_flights_write_at_once():
    inside: list[int] = []

    async def flush_here(items: list[tuple[str, int]]) -> list[int | BaseException]:
        inside.append(len(inside))
        while len(inside) < 2:  # both flights inside flush_here together, or a timeout
            await asyncio.sleep(0.005)
        return [number for _, number in items]

    commits = LoopGroupCommit(on_a_thread, key=lambda item: item[0], max_batch=1,
                              flights=2, flush_here=flush_here)

    async def main() -> list:
        return await asyncio.wait_for(asyncio.gather(commits.submit(("a", 1)),
                                                     commits.submit(("b", 2))), 5)

    assert asyncio.run(main()) == [1, 2]


def test_per_loop_closes_the_group_commit_of_a_loop_that_ended():
    closed: list[int] = []

    def make() -> LoopGroupCommit:
        number = len(made)
        made.append(LoopGroupCommit(Recorder(), key=lambda item: item[0],
                                    close=lambda: closed.append(number)))
        return made[-1]

    made: list[LoopGroupCommit] = []
    per_loop = PerLoop(make)

    async def once() -> int:
        return await per_loop.submit(("a", 1))

    kept = asyncio.new_event_loop()  # ended its work, not closed: its commit stays open
    assert kept.run_until_complete(once()) == 2
    assert asyncio.run(once()) == 2 and closed == []
    kept.close()
    assert asyncio.run(once()) == 2  # its first submit closes both ended loops' commits
    assert sorted(closed) == [0, 1] and len(made) == 3
    per_loop.close()
    assert sorted(closed) == [0, 1, 2]
    per_loop.close()  # nothing left to close twice
    assert len(closed) == 3
    LoopGroupCommit(Recorder(), key=id).close()  # no close= given: nothing to do


def test_an_item_queued_in_the_turn_after_a_batch_joins_the_next_one():
    """The loop takes one turn between two batches: a request whose write arrives in the
    turn the previous batch ends (here a task scheduled just after the batch's wake-up)
    goes in the next batch with the items queued meanwhile, not in a batch of its own."""
    batches: list[list[tuple[str, int]]] = []

    async def main() -> list:
        gate = asyncio.get_running_loop().create_future()

        async def flush_here(items: list[tuple[str, int]]) -> list[int]:
            batches.append(list(items))
            if len(batches) == 1:
                await gate
            return [number for _, number in items]

        commits = LoopGroupCommit(on_a_thread, key=lambda item: item[0], flush_here=flush_here)
        first = asyncio.ensure_future(commits.submit(("a", 1)))
        await asyncio.sleep(0)  # the first batch, ("a", 1), is being written
        second = asyncio.ensure_future(commits.submit(("b", 2)))
        await asyncio.sleep(0)  # ("b", 2) queued behind it
        gate.set_result(None)  # the batch ends: its flight wakes up first ...
        third = asyncio.ensure_future(commits.submit(("c", 3)))  # ... then this task
        return list(await asyncio.gather(first, second, third))

    assert asyncio.run(asyncio.wait_for(main(), 5)) == [1, 2, 3]
    assert batches == [[("a", 1)], [("b", 2), ("c", 3)]]
