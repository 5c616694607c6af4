"""What the config service costs over the database it writes to.

For SQLite and PostgreSQL, with 1 and 16 concurrent clients, this measures
commits per second and p50/p99 latency at four layers, side by side in one run:

* ``bare``: a plain INSERT of the same row (same body text) in its own
  transaction, with the same durability settings: the floor;
* ``store``: ``Store.append`` (head check + insert in one transaction);
* ``service``: ``Service.apply`` in process (parse, patch, canonical text, append);
* ``http``: ``PATCH /v1/documents/{name}`` through a real ``cfgpatch serve``
  (uvicorn) process, with its default settings (log level ``info``, so the access
  log is on, written to /dev/null), from keep-alive clients.  The load comes from
  this process, as the bare inserts' does, so its CPU is taken from the same two
  cores: by default each client is a bare socket writing whole requests and
  reading answers up to their ``Content-Length`` (``--client raw``, about 0.05 ms
  of CPU per request); ``--client stdlib`` (``http.client``, which parses every
  answer's headers with the email package) and ``--client httpx`` cost the
  shared cores about 0.1 and 0.3 ms more per request.

Besides commits per second, each row prints the CPU milliseconds spent per
commit by this process (the load generator and the in-process layers), by the
server's processes and by PostgreSQL's (every process of the ``postgres`` user:
run it on a server nobody else uses), read from /proc.  On a machine that
other work keeps busy, throughput follows the share of the cores each side
gets, and the CPU per commit is what the service itself decides.

Each client patches its own document, so the numbers measure the write path,
not conflicts (the concurrency tests cover those).  ``cost`` is the layer's
time per commit over the bare insert's, at the same concurrency.  The last
lines print, for each backend, the ratio the service is held to: HTTP commits
per second over bare inserts per second with 16 clients (target on PostgreSQL:
0.5 or more), with the server running ``--workers N`` processes and the
``--http`` parser, both backends side by side.  ``--ratio`` measures only the
bare and HTTP layers (what the ratio needs); ``--repeat R`` runs the whole
measurement R times and prints every ratio and their spread (the machine may
be shared: compare only ratios measured in the same run).

    .venv/bin/python benchmarks/bench_service.py [--quick] [--no-pg] [--no-sqlite] [--workers N]
        [--http auto|httptools|h11] [--clients 1,16] [--ratio] [--repeat R]
        [--client raw|stdlib|httpx] [--per-client N]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

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


def http_layer(url: str, client_kind: str = "raw") -> Callable:
    run = uuid.uuid4().hex[:6]
    host, port = url.removeprefix("http://").split(":")

    def make(i: int) -> Callable[[int], None]:
        name = f"http-{run}-{i}"
        path = f"/v1/documents/{name}"
        if client_kind == "httpx":
            import httpx  # only this client kind needs it

            client = httpx.Client(base_url=url, timeout=60)
            client.put(path, content=json.dumps(document()),
                       headers={"content-type": "application/json"}).raise_for_status()

            def op(k: int) -> None:
                answer = client.patch(path, content=patch_text(k),
                                      headers={"content-type": "application/json-patch+json"})
                if answer.status_code != 200:
                    raise RuntimeError(answer.text)

            return op
        if client_kind == "raw":
            return raw_client(host, int(port), path)
        conn = http.client.HTTPConnection(host, int(port), timeout=60)

        def send(method: str, body: str, kind: str) -> int:
            conn.request(method, path, body.encode("utf-8"), {"content-type": kind})
            answer = conn.getresponse()
            text = answer.read()
            if answer.status not in (200, 201):
                raise RuntimeError(text.decode("utf-8", "replace"))
            return answer.status

        send("PUT", json.dumps(document()), "application/json")

        def op(k: int) -> None:
            send("PATCH", patch_text(k), "application/json-patch+json")

        return op

    return make


def raw_client(host: str, port: int, path: str) -> Callable[[int], None]:
    """One keep-alive connection speaking HTTP/1.1 over a bare socket: the request
    bytes written at once, the answer read up to its ``Content-Length`` and its
    status checked (about a tenth of ``http.client``'s CPU per request, which
    parses every answer's headers with the email package: on a machine of two
    cores the load generator's CPU is taken from the server)."""
    sock = socket.create_connection((host, port), timeout=60)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    buffer = bytearray()

    def send(method: str, body: str, kind: str) -> None:
        data = body.encode("utf-8")
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     f"Content-Type: {kind}\r\nContent-Length: {len(data)}\r\n\r\n"
                     .encode("ascii") + data)
        while (end := buffer.find(b"\r\n\r\n")) < 0:
            buffer.extend(_received(sock))
        head = bytes(buffer[:end]).lower()
        start = head.find(b"\r\ncontent-length:")
        if start < 0:
            raise RuntimeError(f"no Content-Length in {head[:200]!r}")
        stop = head.find(b"\r\n", start + 2)
        size = int(head[start + 17:stop if stop > 0 else len(head)])
        while len(buffer) < end + 4 + size:
            buffer.extend(_received(sock))
        status = head[9:12]
        text = bytes(buffer[end + 4:end + 4 + size])
        del buffer[:end + 4 + size]
        if status not in (b"200", b"201"):
            raise RuntimeError(f"{method} answered {status.decode()}: {text[:300]!r}")

    send("PUT", json.dumps(document()), "application/json")

    def op(k: int) -> None:
        send("PATCH", patch_text(k), "application/json-patch+json")

    return op


def _received(sock: socket.socket) -> bytes:
    chunk = sock.recv(65536)
    if not chunk:
        raise RuntimeError("the server closed the connection")
    return chunk


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
                  per_client: dict[int, int], rows: list, options: argparse.Namespace) -> None:
    texts = [canonical(document(k)) for k in range(max(per_client.values()) + 1)]
    store = open_store()
    server = ServerProcess(store_url, "--workers", str(options.workers), "--http", options.http,
                           "--log-level", "info", access_log=True)  # the defaults
    meters = {"client": own_cpu, "server": lambda: tree_cpu(server.proc.pid)}
    if label == "postgres":
        meters["postgres"] = postgres_cpu
    try:
        for clients, count in per_client.items():
            layers = {"bare": bare(texts)}
            if not options.ratio:
                layers["store"] = store_layer(store, texts)
                layers["service"] = service_layer(Service(store))
            layers["http"] = http_layer(server.url, options.client)
            makers = {layer: _once_per_client(make) for layer, make in layers.items()}
            runs: dict[str, tuple[list[float], float]] = {layer: ([], 0.0) for layer in layers}
            cpu = {layer: dict.fromkeys(meters, 0.0) for layer in layers}
            step = max(1, count // ROUNDS)
            for offset in range(0, count, step):  # interleaved rounds: disk noise hits all
                for layer, make in makers.items():
                    before = {name: meter() for name, meter in meters.items()}
                    latencies, wall = measure(make, clients, min(step, count - offset), offset)
                    for name, meter in meters.items():
                        cpu[layer][name] += meter() - before[name]
                    runs[layer][0].extend(latencies)
                    runs[layer] = (runs[layer][0], runs[layer][1] + wall)
            results = {layer: summarize(*run) for layer, run in runs.items()}
            for layer, result in results.items():
                commits = len(runs[layer][0])
                result["cpu"] = {name: seconds / commits * 1000
                                 for name, seconds in cpu[layer].items()}
                cost = results["bare"]["rate"] / result["rate"]
                rows.append((label, clients, layer, result, cost))
                spent = "  ".join(f"{name} {ms:.3f}" for name, ms in result["cpu"].items()
                                  if ms or name != "server")
                print(f"{label:8} {clients:3} {layer:8} {result['rate']:9.0f}/s "
                      f"p50 {result['p50']:7.2f} ms  p99 {result['p99']:7.2f} ms  "
                      f"cost x{cost:5.2f}  CPU ms/commit: {spent}", flush=True)
    finally:
        server.stop()
        store.close()


# -- CPU, from /proc (Linux; elsewhere the CPU columns read 0) -------------------

def own_cpu() -> float:
    """CPU seconds of this process (the load generator and in-process layers)."""
    times = os.times()
    return times.user + times.system


def _stat(pid: int | str) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _ticks(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its descendants (the server and its workers)."""
    processes: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(entry.name)) is not None:
            processes[int(entry.name)] = fields
    family, total, grew = {root}, 0.0, True
    while grew:
        grew = False
        for pid, fields in processes.items():
            if pid not in family and int(fields[1]) in family:
                family.add(pid)
                grew = True
    for pid in family:
        if pid in processes:
            total += _ticks(processes[pid])
    return total


def postgres_cpu() -> float:
    """CPU seconds of every process of the ``postgres`` user (its backends, WAL writer
    and checkpointer; other users of the same server count too: run on a quiet one)."""
    import pwd

    try:
        uid = pwd.getpwnam("postgres").pw_uid
    except KeyError:
        return 0.0
    total = 0.0
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or entry.stat().st_uid != uid:
                continue
        except OSError:
            continue
        if (fields := _stat(entry.name)) is not None:
            total += _ticks(fields)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer commits (a smoke run)")
    parser.add_argument("--no-pg", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--no-sqlite", action="store_true", help="skip SQLite")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="cfgpatch serve --workers (default: one per core)")
    parser.add_argument("--http", default="auto", choices=("auto", "httptools", "h11"),
                        help="cfgpatch serve --http (default auto)")
    parser.add_argument("--client", default="raw", choices=("raw", "stdlib", "httpx"),
                        help="the HTTP client of the load (default raw: a bare socket)")
    parser.add_argument("--clients", default="1,16",
                        help="comma-separated client counts (default 1,16)")
    parser.add_argument("--ratio", action="store_true",
                        help="only the bare and HTTP layers (the ratio)")
    parser.add_argument("--repeat", type=int, default=1, help="measure R times (default 1)")
    parser.add_argument("--per-client", type=int, metavar="N",
                        help="commits per client and layer (default 400 with 1 client, 50 "
                             "with more; the CPU columns need a few seconds per layer)")
    args = parser.parse_args(argv)
    counts = [int(c) for c in args.clients.split(",")]
    per_client = {c: args.per_client or ((60 if c == 1 else 8) if args.quick
                                         else (400 if c == 1 else 50)) for c in counts}
    ratios: list[dict] = []
    for repeat in range(args.repeat):
        if args.repeat > 1:
            print(f"\n-- run {repeat + 1} of {args.repeat}, load average "
                  f"{os.getloadavg()[0]:.1f}")
        rows: list = []
        measure_once(args, per_client, rows)
        ratios.append(print_ratios(rows, args))
    if args.repeat > 1:
        print_spread(ratios)
    return 0


def measure_once(args: argparse.Namespace, per_client: dict[int, int], rows: list) -> None:
    print(f"{'backend':8} {'n':>3} {'layer':8} {'commits':>11}  latency (client side)")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        if not args.no_sqlite:
            bench_backend("sqlite", lambda: SQLiteStore(db), f"sqlite:///{db}",
                          lambda texts: bare_sqlite(Path(tmp) / "bare.db", texts), per_client,
                          rows, args)
    if not args.no_pg:
        import psycopg

        prefix = f"bench{uuid.uuid4().hex[:8]}_"
        url = f"{PG_URL}{'&' if '?' in PG_URL else '?'}prefix={prefix}&pool_max=20"
        try:
            bench_backend("postgres", lambda: PostgresStore.from_url(url), url,
                          lambda texts: bare_postgres(prefix, texts), per_client, rows, args)
        finally:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                for table in ("versions", "bare", "retention", "cfgpatch_migrations"):
                    conn.execute(f"DROP TABLE IF EXISTS {prefix}{table}")
                conn.execute(f"DROP FUNCTION IF EXISTS {prefix}versions_append_only()")


def print_ratios(rows: list, args: argparse.Namespace) -> dict:
    """HTTP commits/s over bare inserts/s, per client count, the backends side by side;
    answers the ratios by (backend, clients)."""
    rates = {(label, clients, layer): result["rate"]
             for label, clients, layer, result, _ in rows}
    print(f"\nratio: HTTP PATCH commits/s over bare INSERTs/s through the same driver "
          f"(server --workers {args.workers} --http {args.http}, client {args.client}; "
          f"target >= 0.5 on PostgreSQL with 16 clients)")
    ratios = {}
    for clients in sorted({c for _, c, _ in rates}):
        cells = []
        for label in ("sqlite", "postgres"):
            if (label, clients, "http") not in rates:
                continue
            rate, bare = rates[(label, clients, "http")], rates[(label, clients, "bare")]
            ratios[(label, clients)] = rate / bare
            cells.append(f"{label} {rate:6.0f}/s over {bare:6.0f}/s = {rate / bare:.2f}x")
        print(f"  {clients:3} clients:  " + "   |   ".join(cells), flush=True)
    cpu = {(label, clients, layer): result["cpu"] for label, clients, layer, result, _ in rows}
    print("CPU per commit (ms; the load generator, the server's processes, PostgreSQL's; "
          "throughput on a busy machine follows the CPU share a side gets):")
    for clients in sorted({c for _, c, _ in rates}):
        for label in ("sqlite", "postgres"):
            if (label, clients, "http") not in cpu:
                continue
            bare, http = sum(cpu[(label, clients, "bare")].values()), \
                sum(cpu[(label, clients, "http")].values())
            parts = " + ".join(f"{name} {ms:.3f}" for name, ms in
                               cpu[(label, clients, "http")].items())
            print(f"  {clients:3} clients {label:8}: bare {bare:.3f}, HTTP {http:.3f} "
                  f"({parts}): bare/HTTP = {bare / http if http else 0:.2f}x", flush=True)
    return ratios


def print_spread(runs: list[dict]) -> None:
    print(f"\nspread over {len(runs)} runs (min / median / max):")
    for key in runs[0]:
        values = sorted(run[key] for run in runs)
        print(f"  {key[0]:8} {key[1]:3} clients: {values[0]:.2f} / "
              f"{statistics.median(values):.2f} / {values[-1]:.2f}x   "
              f"({', '.join(f'{v:.2f}' for v in (run[key] for run in runs))})")


if __name__ == "__main__":
    sys.exit(main())
