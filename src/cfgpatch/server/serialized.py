"""A store wrapper for stores that are not safe to call from several threads.

The server runs store calls in a thread pool.  :class:`~cfgpatch.store.MemoryStore`
(the ``memory://`` store) checks the head and appends in two Python steps, so two
threads could both pass the check; :class:`SerializedStore` runs every call under
one lock.  The durable stores do not need it: their databases decide races.

Every method of the wrapped store is passed through (whatever the store protocol
holds now or later); attributes that are not callable are read as they are.
"""

from __future__ import annotations

import threading
from functools import wraps
from typing import Any

from ..store.base import Store


class SerializedStore:
    """Every call of the wrapped store under one lock."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.inner, name)
        if not callable(attribute):
            return attribute
        lock = self._lock

        @wraps(attribute)
        def locked(*args: Any, **kwargs: Any) -> Any:
            with lock:
                return attribute(*args, **kwargs)

        return locked
