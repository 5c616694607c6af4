"""What deltas save and cost: bytes stored per version and the time to read a version.

One SQLite file, one document of ROUTES routes, VERSIONS one-field changes through
the service.  Printed side by side in one run:

* bytes of the rows as kept (whole every 32 versions, deltas between) against the
  bytes the same history takes as whole copies (what every version cost before);
* reading each version with a cold service (no cache: the block's whole row and up
  to 31 patches replayed) against reading the whole rows only (versions 1, 33, ...),
  and a warm read of the version after a cached one (one patch).

Usage: ``python benchmarks/bench_store.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from cfgpatch.service import Service
from cfgpatch.store.deltas import SNAPSHOT_EVERY
from cfgpatch.store.sqlite import SQLiteStore


def _fill(path: Path, routes: int, versions: int) -> Service:
    service = Service(SQLiteStore(path))
    doc = {"service": "gateway", "routes": [
        {"name": f"r{i}", "path": f"/api/v{i % 7}/{i}", "upstream": {"host": f"h{i % 13}",
                                                                     "port": 8000 + i % 50}}
        for i in range(routes)]}
    service.put("gw", json.dumps(doc))
    for n in range(versions):
        service.apply("gw", json.dumps([{"op": "replace",
                                         "path": f"/routes/{n % routes}/upstream/port",
                                         "value": n}]))
    return service


def _read_times(path: Path, versions: list[int]) -> list[float]:
    times = []
    for version in versions:
        cold = Service(SQLiteStore(path))
        started = time.perf_counter()
        cold.get("gw", version)
        times.append(time.perf_counter() - started)
        cold.store.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller history")
    args = parser.parse_args()
    routes, versions = (200, 300) if args.quick else (1000, 2000)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        service = _fill(path, routes, versions)
        with sqlite3.connect(path) as conn:
            kept, count = conn.execute("SELECT sum(length(body)), count(*) FROM versions"
                                       ).fetchone()
        whole = sum(len(service.get("gw", v)) for v in range(1, count + 1))
        print(f"{count} versions of a {len(service.get('gw', 1)):,}-byte document, one field "
              "changed per version")
        print(f"  stored as kept:          {kept:>14,} bytes ({kept / count:,.0f} a version)")
        print(f"  as whole copies:         {whole:>14,} bytes ({whole / count:,.0f} a version)")
        print(f"  ratio whole/kept:        {whole / kept:>14.1f}x")
        starts = list(range(1, count + 1, SNAPSHOT_EVERY))
        deepest = [s + SNAPSHOT_EVERY - 1 for s in starts if s + SNAPSHOT_EVERY - 1 <= count]
        sample = (starts[:10], deepest[:10])
        cold_whole = statistics.median(_read_times(path, sample[0]))
        cold_deep = statistics.median(_read_times(path, sample[1]))
        warm = []
        for version in sample[1]:
            service.get_value("gw", version - 1)
            started = time.perf_counter()
            service.get("gw", version)
            warm.append(time.perf_counter() - started)
        print("  read, cold service (median of 10):")
        print(f"    a whole version:       {cold_whole * 1000:>10.2f} ms")
        print(f"    31 patches replayed:   {cold_deep * 1000:>10.2f} ms "
              f"({cold_deep / cold_whole:.1f}x)")
        print(f"  read after the cached version before: {statistics.median(warm) * 1000:.2f} ms")
        service.store.close()


if __name__ == "__main__":
    main()
