"""Which test files can see a difference between the two YAML paths.

libyaml is used in one place only: ``kyaml_read._fast_compose`` (the pure-Python composer
reads every text it declines, and always when ``CFGPATCH_NO_LIBYAML=1``).  A test that
never reaches it runs the same code on both paths, so ``make test-pure-yaml`` runs again,
with libyaml switched off, only the test files the main run saw reaching it:

* in the test process: a composition libyaml answered;
* in a child process, which this process cannot watch: any cfgpatch command started.

``CFGPATCH_LIBYAML_USERS=FILE`` turns the watch on (conftest.py); at the end of its session
each process of the run (one per pytest-xdist worker) writes the files it saw to
``FILE.<worker>``, one path a line.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

_seen: set[str] = set()


def _current_test_file() -> str | None:
    current = os.environ.get("PYTEST_CURRENT_TEST", "")
    return current.split("::")[0] or None


def _note() -> None:
    name = _current_test_file()
    if name:
        _seen.add(name)


def _starts_cfgpatch(args: Any) -> bool:
    """A child process that runs cfgpatch, except ``cfgpatch serve``: the service reads
    JSON and never imports ``kube`` (so its YAML path cannot differ)."""
    words = [str(a) for a in args] if isinstance(args, (list, tuple)) else [str(args)]
    if "serve" in words:
        return False
    return any("cfgpatch" in word for word in words)  # more than needed does no harm


class _WatchedPopen(subprocess.Popen):  # type: ignore[type-arg]
    def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
        if _starts_cfgpatch(args):
            _note()
        super().__init__(args, *rest, **options)


def install() -> None:
    """Watch this process: libyaml's compositions and the child processes it starts."""
    from cfgpatch.kube.io import kyaml_read

    compose = kyaml_read._fast_compose

    def watched(*args: Any, **kwargs: Any) -> Any:
        nodes = compose(*args, **kwargs)
        if nodes is not None:
            _note()
        return nodes

    kyaml_read._fast_compose = watched  # type: ignore[assignment]
    subprocess.Popen = _WatchedPopen  # type: ignore[misc]


def write(record: str) -> None:
    """Write the test files seen to ``record.<worker>`` (``main`` without xdist)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    text = "".join(f"{name}\n" for name in sorted(_seen))
    Path(f"{record}.{worker}").write_text(text, encoding="utf-8")
