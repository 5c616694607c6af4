"""Benchmark of the patch tester page in headless Chromium (Debian's /usr/bin/chromium).

Measures, in one run and side by side:

* first load: bytes transferred (the encoded sizes of everything the page and its
  worker fetched, from Resource Timing's ``encodedBodySize``; target at most 12 MB) and
  time from navigation start to the first computed result on a cold cache (a fresh
  browser context for every load), median of ``--loads`` loads; target under 4 s.  The
  page is served two ways side by side, loads interleaved: by ``cfgpatch serve``'s
  static files (``server/static.py``: brotli or gzip copies, cache headers) and by
  Python's ``http.server`` (the files as they are); with ``--mbit N`` once more each
  over a network emulated at N Mbit/s (Chrome DevTools Protocol);
* recompute: after an edit of a 300-line Deployment, the time to recompute and
  redraw all three types (``window.cfgpatch.setInputs``), median of ``--edits``
  edits; target under 50 ms.  Three batches: typing in a value right after the first
  result (the browser is still optimising the WebAssembly in the background), the
  same in a second batch, and an edit that adds a line (the object read from scratch).  The same computation in CPython (``bridge.compute``)
  is timed on the same inputs, to show what running in WebAssembly costs.

Prints each measurement with its ratio to the target (below 1.0 meets it).  Wall
times grow with the load other processes put on the machine (the load average is
printed); the CPU times (from Chromium's performance metrics: the renderer process,
which runs the page and its Python worker, and its main thread) are much less so.
Needs the built page (``make web``), Playwright and Chromium.

Usage: .venv/bin/python benchmarks/bench_page.py [--loads 5] [--edits 30] [--mbit 20]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import statistics
import sys
import threading
import time

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
FIRST_RESULT_TARGET_MS = 4000.0
FIRST_LOAD_TARGET_MB = 12.0
RECOMPUTE_TARGET_MS = 50.0


def deployment_yaml(lines: int = 300) -> str:
    """A Deployment of about ``lines`` lines: containers with ports, env and mounts."""
    head = [
        "apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: big",
        "  namespace: bench", "  labels: {app: big}", "spec:", "  replicas: 3",
        "  selector:", "    matchLabels: {app: big}", "  template:", "    metadata:",
        "      labels: {app: big}", "    spec:",
        "      tolerations:", "      - {key: a, operator: Exists}",
        "      containers:",
    ]
    body: list[str] = []
    n = 0
    while len(head) + len(body) < lines:
        body += [
            f"      - name: c{n}", f"        image: registry.example/c{n}:1.{n}",
            "        ports:", f"        - {{containerPort: {8000 + n}, name: p{n}}}",
            "        env:",
        ]
        body += [f"        - {{name: VAR_{k}, value: \"{n}-{k}\"}}" for k in range(8)]
        body += ["        volumeMounts:", f"        - {{name: v{n}, mountPath: /data/{n}}}"]
        n += 1
    return "\n".join(head + body[: lines - len(head)]) + "\n"


PATCH = """spec:
  template:
    spec:
      containers:
      - name: c1
        image: registry.example/c1:2.0
        env:
        - {name: VAR_0, value: changed}
"""


def serve_compressed(directory: str) -> tuple[object, str]:
    """``cfgpatch serve``'s static file app (StaticSite) on uvicorn, in a thread."""
    import socket

    import uvicorn

    from cfgpatch.server.static import StaticSite

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(StaticSite(directory), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/"


def serve(directory: str) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=directory)
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def _metrics(cdp) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


STAGES = ("workerStart", "pyodideModule", "fetched snapshot.bin", "pyodideReady", "imported",
          "firstResult")


def first_result_ms(browser, url: str, mbit: float | None = None
                    ) -> tuple[float, float, float, dict]:
    """Wall ms from navigation to first result; renderer process and main-thread CPU
    ms spent by then (the process includes WebAssembly compilation on other threads);
    the page's start-up stages (``timings().stages``, ms since navigation), with
    ``bytes`` and ``decoded``: the encoded and decoded sizes of everything fetched."""
    context = browser.new_context()  # a new context starts with an empty cache
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        if mbit:
            cdp.send("Network.enable")
            rate = mbit * 1e6 / 8
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": 20, "downloadThroughput": rate,
                "uploadThroughput": rate})
        page.goto(url)
        page.evaluate("window.cfgpatch.ready")
        metrics = _metrics(cdp)
        wall = page.evaluate("window.cfgpatch.timings().firstResultAt")
        stages = page.evaluate("window.cfgpatch.timings().stages") or {}
        # everything the page and the worker fetched, main document included
        entries = stages.get("page", []) + stages.get("resources", [])
        document = page.evaluate("""() => { const n = performance.getEntriesByType('navigation')[0];
            return [n.encodedBodySize, n.decodedBodySize]; }""")
        for name in [k for k in stages if k.startswith("fetched snapshot")]:
            stages["fetched snapshot.bin"] = stages.pop(name)  # the name holds a hash
        stages["bytes"] = document[0] + sum(e.get("bytes") or 0 for e in entries)
        stages["decoded"] = document[1] + sum(e.get("decoded") or 0 for e in entries)
        return wall, metrics["ProcessTime"] * 1000, metrics["ThreadTime"] * 1000, stages
    finally:
        context.close()


EDITS = """async ([obj, patch, edits]) => {
    const nextFrame = () => new Promise((done) =>
      requestAnimationFrame(() => setTimeout(done, 0)));
    const total = [], python = [], frame = [];
    await window.cfgpatch.setInputs(obj, patch);  // warm up
    await nextFrame();
    for (let i = 0; i < edits; i++) {
      const edited = obj.replace(`OLD`, `NEW`);
      const start = performance.now();
      await window.cfgpatch.setInputs(edited, patch);
      total.push(performance.now() - start);
      python.push(window.cfgpatch.timings().lastPythonMs);
      await nextFrame();
      frame.push(performance.now() - start);
    }
    const r = window.cfgpatch.results();
    if (!r.strategic.ok || !r.merge.ok) throw new Error('the patch did not apply');
    return {total, python, frame};
}"""


def recompute_ms(browser, url: str, obj: str, edits: int) -> dict:
    context = browser.new_context()
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(url)
        page.evaluate("window.cfgpatch.ready")
        page.evaluate("([obj, patch]) => window.cfgpatch.setInputs(obj, patch)", [obj, PATCH])
        times = {}
        # Typing in a value (the replica count): first right after the first result,
        # while the browser still compiles the hot WebAssembly functions to optimised
        # code in the background (Python started from a snapshot has not run them yet),
        # then the same once more, and last an edit that adds a line (read from scratch).
        batches = (("first", "replicas: 3", "replicas: ${4 + i}"),
                   ("steady", "replicas: 3", "replicas: ${100 + i}"),
                   ("line", "spec:\n", "spec:\n  # edit ${i}\n"))
        for name, old, new in batches:
            before = _metrics(cdp)["ProcessTime"]
            times[name] = page.evaluate(EDITS.replace("OLD", old).replace("NEW", new),
                                        [obj, PATCH, edits])
            # renderer CPU time (Python in the worker, drawing, layout, compiling):
            # unlike wall time, not inflated by other processes competing for the CPUs
            times[name]["cpu"] = (_metrics(cdp)["ProcessTime"] - before) * 1000 / edits
        times.update(times["first"])
        times["cpu_per_edit"] = times["first"]["cpu"]
        # the same for edits of the patch only (the object read last time is reused)
        before = _metrics(cdp)["ProcessTime"]
        times["patch_edit"] = page.evaluate(
            """async ([obj, patch, edits]) => {
                const out = [];
                for (let i = 0; i < edits; i++) {
                  const start = performance.now();
                  await window.cfgpatch.setInputs(obj, patch.replace('changed', `changed${i}`));
                  out.push(performance.now() - start);
                  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
                }
                return out;
            }""",
            [obj, PATCH, edits],
        )
        times["cpu_per_patch_edit"] = (_metrics(cdp)["ProcessTime"] - before) * 1000 / edits
        # drawing alone: switching the type redraws everything without computing
        before = _metrics(cdp)["ThreadTime"]
        page.evaluate("""async (n) => {
            for (let i = 0; i < n; i++) {
              window.cfgpatch.setType(i % 2 ? 'strategic' : 'merge');
              await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
            }}""", edits)
        times["cpu_per_redraw"] = (_metrics(cdp)["ThreadTime"] - before) * 1000 / edits
        return times
    finally:
        context.close()


def cpython_ms(obj: str, edits: int) -> tuple[list[float], float]:
    """Wall ms of each edit's computation, and the CPU ms per edit, in CPython."""
    from cfgpatch.web.bridge import compute

    compute(obj, PATCH)
    times = []
    cpu = time.process_time()
    for i in range(edits):
        edited = obj.replace("replicas: 3", f"replicas: {4 + i}")
        start = time.perf_counter()
        compute(edited, PATCH)
        times.append((time.perf_counter() - start) * 1000)
    return times, (time.process_time() - cpu) * 1000 / edits


def line(label: str, value: float, target: float | None = None) -> str:
    text = f"{label:<48} {value:9.1f} ms"
    if target:
        text += f"   target {target:.0f} ms   ratio {value / target:.2f}"
    return text


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--baseline", default=None, metavar="DIR",
                        help="an earlier build of the page, loaded interleaved (http.server)")
    parser.add_argument("--mbit", type=float, default=None,
                        help="also load once each over a network emulated at this speed")
    args = parser.parse_args(argv)

    from cfgpatch.web import static_dir

    site = static_dir()
    if site is None:
        print("the page is not built: run `make web` first", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    obj = deployment_yaml()
    load_at_start = os.getloadavg()[0]
    server, url = serve(str(site))
    compressed_server, compressed_url = serve_compressed(str(site))
    baseline_server, baseline_url = serve(args.baseline) if args.baseline else (None, None)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            loads, plain_loads, baseline_loads = [], [], []
            for _ in range(args.loads):  # interleaved: the same machine state for all
                loads.append(first_result_ms(browser, compressed_url))
                plain_loads.append(first_result_ms(browser, url))
                if baseline_url:
                    baseline_loads.append(first_result_ms(browser, baseline_url))
            slow = ([first_result_ms(browser, compressed_url, args.mbit),
                     first_result_ms(browser, url, args.mbit)] if args.mbit else [])
            browser_times = recompute_ms(browser, compressed_url, obj, args.edits)
            version = browser.version
            browser.close()
    finally:
        server.shutdown()
        compressed_server.should_exit = True
        if baseline_server:
            baseline_server.shutdown()
    native, native_cpu = cpython_ms(obj, args.edits)

    print(f"Chromium {version}; object: Deployment of {obj.count(chr(10))} lines")
    kinds = [("cfgpatch serve (compressed)", loads), ("http.server (as is)", plain_loads)]
    if baseline_loads:
        kinds.append(("baseline build, http.server", baseline_loads))
    for label, runs in kinds:
        sent = statistics.median(s["bytes"] for _, _, _, s in runs) / 1e6
        unpacked = statistics.median(s["decoded"] for _, _, _, s in runs) / 1e6
        text = f"first load transferred, {label}"
        print(f"{text:<48} {sent:9.2f} MB   target {FIRST_LOAD_TARGET_MB:.0f} MB   ratio "
              f"{sent / FIRST_LOAD_TARGET_MB:.2f}   ({unpacked:.1f} MB decoded)")
    walls = [wall for wall, _, _, _ in loads]
    print(line(f"first result, cold cache, compressed (median of {len(loads)})",
               statistics.median(walls), FIRST_RESULT_TARGET_MS))
    print(f"{'  each load':<48} " + ", ".join(f"{t:.0f}" for t in walls) + " ms")
    plain_walls = [wall for wall, _, _, _ in plain_loads]
    print(line("first result, cold cache, as is (median)", statistics.median(plain_walls),
               FIRST_RESULT_TARGET_MS))
    print(f"{'  each load':<48} " + ", ".join(f"{t:.0f}" for t in plain_walls) + " ms")
    print(f"{'  compressed / as is':<48} "
          f"{statistics.median(walls) / statistics.median(plain_walls):9.2f}x")
    if baseline_loads:
        base = [wall for wall, _, _, _ in baseline_loads]
        print(line("first result, cold cache, baseline build (median)", statistics.median(base),
                   FIRST_RESULT_TARGET_MS))
        print(f"{'  each load':<48} " + ", ".join(f"{t:.0f}" for t in base) + " ms")
        print(f"{'  compressed / baseline':<48} "
              f"{statistics.median(walls) / statistics.median(base):9.2f}x")
    for label, (wall, _, _, stages) in zip(("compressed", "as is"), slow):
        print(line(f"first result at {args.mbit:g} Mbit/s, {label}", wall, FIRST_RESULT_TARGET_MS)
              + f"   ({stages['bytes'] / 1e6:.1f} MB)")
    print(line("  renderer process CPU time by then (median)",
               statistics.median(cpu for _, cpu, _, _ in loads), FIRST_RESULT_TARGET_MS))
    print(line("  renderer main-thread CPU time by then (median)",
               statistics.median(cpu for _, _, cpu, _ in loads), FIRST_RESULT_TARGET_MS))
    print("  where the time goes (ms since navigation, median; timings().stages):")
    for stage in STAGES:
        at = [s[stage] for _, _, _, s in loads if isinstance(s.get(stage), (int, float))]
        if at:
            print(f"    {stage:<44} {statistics.median(at):9.0f} ms")
    used = sorted({str(s.get("snapshot")) for _, _, _, s in loads})
    print(f"    Python started from the build-time snapshot: {', '.join(used)}")
    page_median = statistics.median(browser_times["total"])
    python_median = statistics.median(browser_times["python"])
    print(line(f"recompute 3 types (worker) + redraw (median of {len(browser_times['total'])})",
               page_median, RECOMPUTE_TARGET_MS))
    print(line("  slowest edit", max(browser_times["total"]), RECOMPUTE_TARGET_MS))
    print(line("  until the next frame is drawn (median)",
               statistics.median(browser_times["frame"]), RECOMPUTE_TARGET_MS))
    print(line("  of which Python in Pyodide (median)", python_median))
    print(line("  renderer CPU time per edit (mean)", browser_times["cpu_per_edit"],
               RECOMPUTE_TARGET_MS))
    for name, label in (("steady", "the same, next edits (median)"),
                        ("line", "an edit that adds a line (median)")):
        batch = browser_times[name]
        print(line(label, statistics.median(batch["total"]), RECOMPUTE_TARGET_MS))
        print(line("  of which Python in Pyodide (median)", statistics.median(batch["python"])))
        print(line("  renderer CPU time per edit (mean)", batch["cpu"], RECOMPUTE_TARGET_MS))
    print(line("recompute after an edit of the patch only (median)",
               statistics.median(browser_times["patch_edit"]), RECOMPUTE_TARGET_MS))
    print(line("  renderer CPU time per edit (mean)", browser_times["cpu_per_patch_edit"],
               RECOMPUTE_TARGET_MS))
    print(line("redraw only (type switch), main-thread CPU (mean)",
               browser_times["cpu_per_redraw"]))
    native_median = statistics.median(native)
    print(line("same Python computation in CPython (median)", native_median))
    print(line("  CPU time per edit in CPython (mean)", native_cpu))
    print(f"{'  Pyodide / CPython':<48} {python_median / native_median:9.2f}x")
    print(f"machine load average (1 min): {load_at_start:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
