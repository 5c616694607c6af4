"""The ``cfgpatch`` command as a process (the installed script and ``python -m cfgpatch``).

:func:`run` calls :func:`cfgpatch.cli.main` and ends the process with its exit code.
Two things a short command (``kube build`` of a small folder, ``kube patch``) would
otherwise spend a tenth of its time on are left out:

* **Tearing the interpreter down.**  Once the output is flushed, the process ends with
  ``os._exit`` instead of freeing every module and object one by one, but only when
  nothing asked for work at exit: no exit handler is registered (``atexit``: temporary
  folders, logging, coverage measurement register one), no other non-daemon thread
  is alive and no profiler or tracer watches (``python -m cProfile`` prints its table
  after the command returns).  Otherwise, and when flushing fails for any reason but a
  closed pipe, the ordinary ``SystemExit`` path runs.
* **Collecting garbage while modules load.**  Importing creates tens of thousands of
  objects, none of them garbage; the youngest generation is collected every
  :data:`YOUNG_OBJECTS` allocations instead of CPython's 700.  ``serve`` keeps the
  interpreter's defaults (a long-running process).

Measured on the small folder of ``benchmarks/bench_kube_startup.py`` (callgrind, whole
process): 184M instructions without either, 167M with the quick exit, 160M with both.
:func:`main` itself is unchanged for callers in the same process.
"""

from __future__ import annotations

import gc
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

#: Allocations between two collections of the youngest generation (CPython: 700).
YOUNG_OBJECTS = 20_000


def run() -> NoReturn:
    """Run the command line in ``sys.argv`` and end the process with its exit code."""
    if sys.argv[1:2] != ["serve"]:
        _young, *rest = gc.get_threshold()
        gc.set_threshold(YOUNG_OBJECTS, *rest)
    from . import main

    code = main()
    watched = sys.getprofile() is not None or sys.gettrace() is not None
    if _exit_handlers() == 0 and not watched and not _other_threads():
        _leave(code)
    raise SystemExit(code)


def _exit_handlers() -> int | None:
    """How many ``atexit`` handlers are registered (``None``: this Python cannot say)."""
    import atexit

    count = getattr(atexit, "_ncallbacks", None)
    return count() if callable(count) else None


def _other_threads() -> bool:
    """Whether a non-daemon thread besides this one is alive (the interpreter would
    wait for it)."""
    threading = sys.modules.get("threading")
    if threading is None:
        return False
    current = threading.current_thread()
    return any(t is not current and not t.daemon and t.is_alive()
               for t in threading.enumerate())


def _leave(code: int) -> None:
    """Flush both streams and end the process now (a closed pipe ends it with 0, as
    :func:`main` answers ``BrokenPipeError``); returns when flushing fails otherwise."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BrokenPipeError:
        os._exit(0)
    except (OSError, ValueError):
        return  # the ordinary exit reports it
    os._exit(code)
