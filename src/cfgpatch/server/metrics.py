"""Prometheus metrics of the service, and the text ``GET /metrics`` answers.

The metrics (prometheus_client, registered once per process):

* ``cfgpatch_http_requests_total{route, method, status}``: answers sent; ``route``
  is the route's template (``/v1/documents/{name}``), never a document name, so the
  number of series stays small;
* ``cfgpatch_http_request_duration_seconds{route, method}``: a histogram of the
  time from the request head to the end of the answer (long polls under their own
  route, ``/v1/documents/{name}?wait``);
* ``cfgpatch_http_requests_in_progress`` and ``cfgpatch_long_polls_waiting``;
* ``cfgpatch_commits_total``: versions written by PUT and PATCH;
* ``cfgpatch_conflicts_total{code}``: writes refused because of other writers or
  stale preconditions (``conflict``, ``test failed``, ``precondition failed``,
  ``concurrent update``);
* ``cfgpatch_store_errors_total``: store failures and store timeouts;
* ``cfgpatch_cache_bytes``: bytes held by the service's caches (when the service
  counts them: ``Service.cache_bytes()``).

With several worker processes (``cfgpatch serve --workers N``) every worker writes
its values to files under ``PROMETHEUS_MULTIPROC_DIR`` (prometheus_client's
multiprocess mode, set up by ``serve`` before the workers start), and whichever
worker answers ``/metrics`` sums them all.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from ..errors import CONCURRENT_UPDATE, CONFLICT, PRECONDITION_FAILED, STORE_ERROR, TEST_FAILED

#: The environment variable of prometheus_client's multiprocess mode.
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST
#: Error codes counted as conflicts.
CONFLICT_CODES = frozenset({CONFLICT, TEST_FAILED, PRECONDITION_FAILED, CONCURRENT_UPDATE})
#: Latency buckets, seconds: a commit takes milliseconds; a long poll up to a minute.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
           30.0, 60.0)

REQUESTS = Counter("cfgpatch_http_requests", "HTTP answers sent",
                   ["route", "method", "status"])
LATENCY = Histogram("cfgpatch_http_request_duration_seconds",
                    "Time from the request head to the end of the answer",
                    ["route", "method"], buckets=BUCKETS)
IN_PROGRESS = Gauge("cfgpatch_http_requests_in_progress", "Requests being answered",
                    multiprocess_mode="livesum")
LONG_POLLS = Gauge("cfgpatch_long_polls_waiting", "Long polls waiting for a new version",
                   multiprocess_mode="livesum")
COMMITS = Counter("cfgpatch_commits",
                  "Versions committed (PUT, PATCH, DELETE, restore; a no-op write is not one)")
CONFLICTS = Counter("cfgpatch_conflicts", "Writes refused because of other writers or stale "
                    "preconditions", ["code"])
STORE_ERRORS = Counter("cfgpatch_store_errors", "Store failures and store timeouts")
CACHE_BYTES = Gauge("cfgpatch_cache_bytes", "Bytes held by the service's caches",
                    multiprocess_mode="livesum")


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    """Count one answer and its time."""
    series = _series.get((route, method, status))
    if series is None:  # a route, method and status seen for the first time
        series = _series[(route, method, status)] = (
            REQUESTS.labels(route, method, str(status)), LATENCY.labels(route, method))
    series[0].inc()
    series[1].observe(seconds)


#: The request series by (route, method, status): route templates, methods and
#: statuses are few, and ``labels()`` costs a lock and a check per call.
_series: dict[tuple[str, str, int], tuple] = {}


def observe_error(code: str) -> None:
    """Count a refusal whose error code is a conflict or a store error."""
    if code in CONFLICT_CODES:
        CONFLICTS.labels(code).inc()
    elif code == STORE_ERROR:
        STORE_ERRORS.inc()


#: Seconds between two updates of the cache gauge after writes (the count walks the
#: caches' older generation; ``/metrics`` itself always updates it).
CACHE_GAUGE_EVERY = 1.0
_cache_observed = [-CACHE_GAUGE_EVERY]


def observe_cache(cache_bytes: Callable[[], int] | None, *, now: float | None = None) -> None:
    """Set the cache gauge from the service's own count, when it has one (with ``now``,
    a write's clock: at most once every :data:`CACHE_GAUGE_EVERY` seconds)."""
    if cache_bytes is None:
        return
    if now is not None:
        if now - _cache_observed[0] < CACHE_GAUGE_EVERY:
            return
        _cache_observed[0] = now
    CACHE_BYTES.set(cache_bytes())


def render() -> bytes:
    """The exposition text: this process's metrics, or every worker's summed."""
    folder = os.environ.get(MULTIPROCESS_DIR)
    if not folder:
        return generate_latest(REGISTRY)
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)
    return generate_latest(registry)
