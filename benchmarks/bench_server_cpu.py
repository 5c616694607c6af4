"""CPU the server spends per answer, for several server settings side by side.

On a shared machine, commits per second say more about the neighbours than
about the server; the CPU time the server's processes spend per answer (user +
system, read from /proc before and after) moves much less.  For each setting
this starts ``cfgpatch serve`` on PostgreSQL (or SQLite), sends PATCHes of the
4 KB document of ``bench_service.py`` from a few keep-alive ``http.client``
clients, and prints the server's CPU milliseconds per answer and, side by side,
each setting's cost over the first one.  The settings take turns, ``--repeat``
times, and the median is printed with the spread.

``--before DIR`` adds, first, a server run from another source tree with its
default options (a ``git archive`` of an older commit, its ``src`` folder on
``PYTHONPATH``).

    .venv/bin/python benchmarks/bench_server_cpu.py [--sqlite] [--repeat 3]
        [--requests 400] [--clients 4] [--before /tmp/old] ["--http h11" ...]

Linux only (/proc).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_service import PG_URL, document  # noqa: E402

from server_support import ServerProcess  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its descendants (workers), in seconds."""
    total = 0
    for process in [pid, *descendants(pid)]:
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        if parent == str(pid):
            children += [int(entry.name), *descendants(int(entry.name))]
    return children


def client(port: int, name: str, start: int, count: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    path = f"/v1/documents/{name}"
    if start == 0:
        conn.request("PUT", path, json.dumps(document()), {"content-type": "application/json"})
        conn.getresponse().read()
    for k in range(start, start + count):
        body = json.dumps([{"op": "replace", "path": "/counter", "value": k}])
        conn.request("PATCH", path, body, {"content-type": "application/json-patch+json"})
        answer = conn.getresponse()
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"PATCH answered {answer.status}")
    conn.close()


def measure(store_url: str, setting: list[str], env: dict[str, str], requests: int,
            clients: int) -> float:
    """The server's CPU milliseconds per PATCH answer under ``setting``."""
    server = ServerProcess(store_url, *setting, env=env, access_log=True)
    try:
        names = [f"cpu-{uuid.uuid4().hex[:8]}" for _ in range(clients)]
        each = max(1, requests // clients)

        def run(start: int, count: int) -> None:
            threads = [threading.Thread(target=client, args=(server.port, n, start, count))
                       for n in names]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        run(0, 20)  # warm up: documents made, caches and prepared statements filled
        before = cpu_seconds(server.proc.pid)
        run(20, each)
        used = cpu_seconds(server.proc.pid) - before
        return used / (each * clients) * 1000
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("settings", nargs="*", default=["--http h11", "--http httptools"],
                        help="server options, one string per setting")
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of PostgreSQL")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--before", type=Path, help="a source tree to run as 'before'")
    args = parser.parse_args(argv)
    runs: list[tuple[str, list[str], dict[str, str]]] = []
    if args.before:
        env = {"PYTHONPATH": str(args.before / "src")}
        runs.append((f"before ({args.before.name})", [], env))  # its own defaults
    runs += [(setting, setting.split(), {}) for setting in args.settings]
    results: dict[str, list[float]] = {label: [] for label, _, _ in runs}
    with tempfile.TemporaryDirectory() as tmp:
        prefix = f"cpu{uuid.uuid4().hex[:8]}_"
        store_url = (f"sqlite:///{tmp}/cpu.db" if args.sqlite else
                     f"{PG_URL}{'&' if '?' in PG_URL else '?'}prefix={prefix}")
        try:
            for repeat in range(args.repeat):
                for label, setting, env in runs:
                    ms = measure(store_url, setting, env, args.requests, args.clients)
                    results[label].append(ms)
                    print(f"run {repeat + 1}: {label:40} {ms:6.2f} ms CPU per answer "
                          f"(load {os.getloadavg()[0]:.1f})", flush=True)
        finally:
            if not args.sqlite:
                drop(prefix)
    first = statistics.median(next(iter(results.values())))
    print(f"\nserver CPU per PATCH answer ({'SQLite' if args.sqlite else 'PostgreSQL'}, "
          f"{args.clients} clients, median of {args.repeat}; spread in brackets):")
    for label, values in results.items():
        median = statistics.median(values)
        print(f"  {label:40} {median:6.2f} ms  [{min(values):.2f} .. {max(values):.2f}]  "
              f"x{median / first:.2f}")
    return 0


def drop(prefix: str) -> None:
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as conn:
        for table in ("versions", "retention", "cfgpatch_migrations"):
            conn.execute(f"DROP TABLE IF EXISTS {prefix}{table}")
        conn.execute(f"DROP FUNCTION IF EXISTS {prefix}versions_append_only()")


if __name__ == "__main__":
    sys.exit(main())
