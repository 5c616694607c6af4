"""cfgpatch.gc_pause: the collector is off inside a pause and restored after it."""

from __future__ import annotations

import gc
import threading

import pytest

from cfgpatch.gc_pause import paused, pausing


@pytest.fixture(autouse=True)
def collector_on():
    gc.enable()
    yield
    gc.enable()


def test_the_collector_is_off_inside_and_on_after():
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_pauses_nest():
    with paused():
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause does not end the outer one
    assert gc.isenabled()


def test_a_collector_turned_off_elsewhere_stays_off():
    gc.disable()
    with paused():
        pass
    assert not gc.isenabled()


def test_an_exception_still_restores_the_collector():
    with pytest.raises(ValueError), paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_pausing_keeps_the_function_and_its_result():
    @pausing
    def work(x: int, *, y: int = 1) -> tuple[int, bool]:
        """Doc."""
        return x + y, gc.isenabled()

    assert work(2, y=3) == (5, False)
    assert work.__doc__ == "Doc." and work.__name__ == "work"
    assert gc.isenabled()


def test_overlapping_pauses_in_threads_end_with_the_collector_on():
    inside, release = threading.Barrier(3), threading.Event()

    def worker() -> None:
        with paused():
            inside.wait()
            release.wait()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    inside.wait()
    assert not gc.isenabled()
    release.set()
    for thread in threads:
        thread.join()
    assert gc.isenabled()


def test_the_diff_and_the_reader_run_paused(monkeypatch):
    """The bulk steps of a put and of diff_stats run with the collector off."""
    import sys

    from cfgpatch import document_reader
    from cfgpatch.diffing import diff_stats
    from cfgpatch.text_cache import TextCache

    seen = []
    original = document_reader._Reader.document

    def spy(self):
        seen.append(gc.isenabled())
        return original(self)

    monkeypatch.setattr(document_reader._Reader, "document", spy)
    document_reader.read_document('{"a": [1, 2]}', TextCache())
    assert seen == [False] and gc.isenabled()
    diff_module = sys.modules["cfgpatch.diffing"]
    original_text = diff_module.plan_text

    def text_spy(*args):
        seen.append(gc.isenabled())
        return original_text(*args)

    monkeypatch.setattr(diff_module, "plan_text", text_spy)
    assert diff_stats({"a": 1}, {"a": 2})["roundtrip"] is True
    assert seen == [False, False] and gc.isenabled()
