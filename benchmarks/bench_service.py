"""What the config service costs over the database it writes to.

For SQLite and PostgreSQL, with 1 and 16 concurrent clients, this measures
commits per second and p50/p99 latency at four layers, side by side in one run:

* ``bare``: a plain INSERT of the same row (same body text) in its own
  transaction, with the same durability settings: the floor;
* ``store``: ``Store.append`` (head check + insert in one transaction);
* ``service``: ``Service.apply`` in process (parse, patch, canonical text, append);
* ``http``: ``PATCH /v1/documents/{name}`` through a real ``cfgpatch serve``
  (uvicorn) process, from keep-alive ``httpx`` clients.

Each client patches its own document, so the numbers measure the write path,
not conflicts (the concurrency tests cover those).  ``cost`` is the layer's
time per commit over the bare insert's, at the same concurrency.  The last
lines print, for each backend, the ratio the service is held to: HTTP commits
per second over bare inserts per second with 16 clients (target on PostgreSQL:
0.5 or more), with the server running ``--workers N`` processes.

    .venv/bin/python benchmarks/bench_service.py [--quick] [--no-pg] [--workers N]
                                                 [--clients 1,16]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from cfgpatch.jsonvalue import canonical  # noqa: E402
from cfgpatch.service import Service  # noqa: E402
from cfgpatch.store.postgres import PostgresStore  # noqa: E402
from cfgpatch.store.sqlite import SQLiteStore  # noqa: E402
from server_support import ServerProcess  # noqa: E402

PG_URL = os.environ.get("CFGPATCH_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def document(counter: int = 0) -> dict:
    """A mid-size config (about 4 KB of canonical text)."""
    routes = [{"name": f"route-{i}", "upstream": f"http://svc-{i % 7}:8080", "timeout": 30,
               "retries": i % 3, "headers": {"x-team": "platform"}} for i in range(30)]
    return {"service": "bench", "routes": routes, "counter": counter}


def patch_text(k: int) -> str:
    return json.dumps([{"op": "test", "path": "/counter", "value": k},
                       {"op": "replace", "path": "/counter", "value": k + 1},
                       {"op": "replace", "path": "/routes/3/timeout", "value": 30 + k % 5}])


def measure(make_op: Callable[[int], Callable[[int], None]], clients: int, per_client: int,
            offset: int = 0) -> tuple[list[float], float]:
    """Run ops ``offset .. offset + per_client`` on each of ``clients`` threads.

    Returns every op's latency (seconds) and the wall time of the whole run.
    """
    latencies: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)
    errors: list[BaseException] = []

    def client(op: Callable[[int], None]) -> None:
        mine = []
        barrier.wait()
        try:
            for k in range(offset, offset + per_client):
                start = time.perf_counter()
                op(k)
                mine.append(time.perf_counter() - start)
        except BaseException as exc:  # reported after the run
            errors.append(exc)
        with lock:
            latencies.extend(mine)

    ops = [make_op(i) for i in range(clients)]
    threads = [threading.Thread(target=client, args=(op,)) for op in ops]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise errors[0]
    return latencies, wall


def summarize(latencies: list[float], wall: float) -> dict:
    cuts = statistics.quantiles(latencies, n=100)
    return {"rate": len(latencies) / wall, "p50": cuts[49] * 1000, "p99": cuts[98] * 1000}


# -- the four layers ------------------------------------------------------------

def bare_sqlite(path: Path, texts: list[str]) -> Callable:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS bare (name TEXT, version INTEGER, body TEXT, "
                 "PRIMARY KEY (name, version)) WITHOUT ROWID")
    conn.close()
    run = uuid.uuid4().hex[:6]
    writer = threading.Lock()  # the same in-process queue SQLiteStore uses

    def make(i: int) -> Callable[[int], None]:
        conn = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=FULL")

        def op(k: int) -> None:
            with writer:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO bare VALUES (?, ?, ?)", (f"{run}-{i}", k, texts[k]))
                conn.execute("COMMIT")

        return op

    return make


def bare_postgres(prefix: str, texts: list[str]) -> Callable:
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE IF NOT EXISTS {prefix}bare (name TEXT, version INTEGER, body TEXT, "
                     "PRIMARY KEY (name, version))")
    run = uuid.uuid4().hex[:6]

    def make(i: int) -> Callable[[int], None]:
        conn = psycopg.connect(PG_URL, autocommit=True)

        def op(k: int) -> None:
            conn.execute(f"INSERT INTO {prefix}bare VALUES (%s, %s, %s)",
                         (f"{run}-{i}", k, texts[k]))

        return op

    return make


def store_layer(store, texts: list[str]) -> Callable:
    run = uuid.uuid4().hex[:6]

    def make(i: int) -> Callable[[int], None]:
        name = f"store-{run}-{i}"

        def op(k: int) -> None:
            store.append(name, texts[k], expected_head=k or None)

        return op

    return make


def service_layer(service: Service) -> Callable:
    run = uuid.uuid4().hex[:6]

    def make(i: int) -> Callable[[int], None]:
        name = f"svc-{run}-{i}"
        service.put_value(name, document())

        def op(k: int) -> None:
            service.apply(name, patch_text(k))

        return op

    return make


def http_layer(url: str) -> Callable:
    run = uuid.uuid4().hex[:6]

    def make(i: int) -> Callable[[int], None]:
        client = httpx.Client(base_url=url, timeout=60)
        name = f"http-{run}-{i}"
        client.put(f"/v1/documents/{name}", content=json.dumps(document()),
                   headers={"content-type": "application/json"}).raise_for_status()

        def op(k: int) -> None:
            answer = client.patch(f"/v1/documents/{name}", content=patch_text(k),
                                  headers={"content-type": "application/json-patch+json"})
            if answer.status_code != 200:
                raise RuntimeError(answer.text)

        return op

    return make


# -- driver ---------------------------------------------------------------------

#: Each measurement is split in this many rounds, the layers taking turns.
ROUNDS = 5


def _once_per_client(make: Callable) -> Callable:
    """``make`` memoized per client index, so rounds continue the same documents."""
    made: dict[int, Callable] = {}

    def get(i: int) -> Callable:
        if i not in made:
            made[i] = make(i)
        return made[i]

    return get

def bench_backend(label: str, open_store: Callable, store_url: str, bare: Callable,
                  per_client: dict[int, int], rows: list, workers: int = 1) -> None:
    texts = [canonical(document(k)) for k in range(max(per_client.values()) + 1)]
    store = open_store()
    server = ServerProcess(store_url, "--workers", str(workers))
    try:
        for clients, count in per_client.items():
            layers = {
                "bare": bare(texts),
                "store": store_layer(store, texts),
                "service": service_layer(Service(store)),
                "http": http_layer(server.url),
            }
            makers = {layer: _once_per_client(make) for layer, make in layers.items()}
            runs: dict[str, tuple[list[float], float]] = {layer: ([], 0.0) for layer in layers}
            step = max(1, count // ROUNDS)
            for offset in range(0, count, step):  # interleaved rounds: disk noise hits all
                for layer, make in makers.items():
                    latencies, wall = measure(make, clients, min(step, count - offset), offset)
                    runs[layer][0].extend(latencies)
                    runs[layer] = (runs[layer][0], runs[layer][1] + wall)
            results = {layer: summarize(*run) for layer, run in runs.items()}
            for layer, result in results.items():
                cost = results["bare"]["rate"] / result["rate"]
                rows.append((label, clients, layer, result, cost))
                print(f"{label:8} {clients:3} {layer:8} {result['rate']:9.0f}/s "
                      f"p50 {result['p50']:7.2f} ms  p99 {result['p99']:7.2f} ms  "
                      f"cost x{cost:5.2f}", flush=True)
    finally:
        server.stop()
        store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer commits (a smoke run)")
    parser.add_argument("--no-pg", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="cfgpatch serve --workers (default: one per core)")
    parser.add_argument("--clients", default="1,16",
                        help="comma-separated client counts (default 1,16)")
    args = parser.parse_args(argv)
    counts = [int(c) for c in args.clients.split(",")]
    per_client = {c: (60 if c == 1 else 8) if args.quick else (400 if c == 1 else 50)
                  for c in counts}
    rows: list = []
    print(f"{'backend':8} {'n':>3} {'layer':8} {'commits':>11}  latency (client side)")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        bench_backend("sqlite", lambda: SQLiteStore(db), f"sqlite:///{db}",
                      lambda texts: bare_sqlite(Path(tmp) / "bare.db", texts), per_client, rows,
                      args.workers)
    if not args.no_pg:
        import psycopg

        prefix = f"bench{uuid.uuid4().hex[:8]}_"
        url = f"{PG_URL}{'&' if '?' in PG_URL else '?'}prefix={prefix}&pool_max=20"
        try:
            bench_backend("postgres", lambda: PostgresStore.from_url(url), url,
                          lambda texts: bare_postgres(prefix, texts), per_client, rows,
                          args.workers)
        finally:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                for table in ("versions", "bare", "cfgpatch_migrations"):
                    conn.execute(f"DROP TABLE IF EXISTS {prefix}{table}")
                conn.execute(f"DROP FUNCTION IF EXISTS {prefix}versions_append_only()")
    print_ratios(rows, args.workers)
    return 0


def print_ratios(rows: list, workers: int) -> None:
    """HTTP commits/s over bare inserts/s per backend and client count, side by side."""
    rates = {(label, clients, layer): result["rate"]
             for label, clients, layer, result, _ in rows}
    print(f"\nratio: HTTP PATCH commits/s over bare INSERTs/s through the same driver "
          f"(server --workers {workers}; target >= 0.5 on PostgreSQL with 16 clients)")
    for (label, clients, layer), rate in rates.items():
        if layer == "http":
            bare = rates[(label, clients, "bare")]
            print(f"  {label:8} {clients:3} clients: {rate:7.0f}/s over {bare:7.0f}/s "
                  f"= {rate / bare:.2f}x", flush=True)


if __name__ == "__main__":
    sys.exit(main())
