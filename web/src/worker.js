// The Python engine in a Web Worker: Pyodide, the packed cfgpatch and PyYAML, and
// cfgpatch.web.bridge. Computing here keeps the editors responsive while a large
// object is being read. Messages in: {id, object, patch}; out: {type: "ready", stages},
// {type: "failed", error} or {type: "result", id, json, pythonMs} / {..., error}.

const SITE = "/home/pyodide/cfgpatch-site"; // also in snapshot.mjs
let bridge = null;
let unpackLater = null;

// Absolute times (ms since the epoch), so the page can place them on its own clock.
const now = () => performance.timeOrigin + performance.now();
const marks = { workerStart: now() };
const status = { snapshot: "none" };

async function fetchArchive(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const buffer = await response.arrayBuffer();
  marks[`fetched ${url.pathname.split("/").pop()}`] = now();
  return buffer;
}

// Pyodide started from the memory snapshot made at build time (snapshot.mjs: Python
// booted, cfgpatch imported); an ordinary start when there is none or it fails.
async function startPyodide(loadPyodide, base, snapshot) {
  const indexURL = new URL("pyodide/", base).href;
  if (await snapshot) {
    try {
      const pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
      status.snapshot = "used";
      return pyodide;
    } catch (error) {
      status.snapshot = `failed: ${error?.message ?? error}`;
    }
  }
  return loadPyodide({ indexURL });
}

async function boot() {
  const base = new URL("./", self.location.href);
  const snapshot = fetchArchive(new URL("py/snapshot.bin", base)).catch(() => null);
  const archives = Promise.all(["py/cfgpatch.zip", "py/yaml.zip"].map((name) =>
    fetchArchive(new URL(name, base))));
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  marks.pyodideModule = now();
  const pyodide = await startPyodide(loadPyodide, base, snapshot);
  marks.pyodideReady = now();
  const unpack = async () => {
    for (const buffer of await archives) pyodide.unpackArchive(buffer, "zip", { extractDir: SITE });
    marks.unpacked = now();
  };
  if (status.snapshot === "used") {
    // Everything the engine imports or reads is in the snapshot already; the files
    // are unpacked after the first result, for anything not foreseen.
    unpackLater = unpack;
  } else {
    await unpack();
  }
  pyodide.runPython(`import sys\nif ${JSON.stringify(SITE)} not in sys.path: sys.path.insert(0, ${JSON.stringify(SITE)})`);
  bridge = pyodide.pyimport("cfgpatch.web.bridge");
  marks.imported = now();
  return marks;
}

// What the worker fetched and when (absolute ms), for timings().stages on the page.
function resources() {
  return performance.getEntriesByType("resource").map((e) => ({
    name: e.name.split("/").pop(), start: performance.timeOrigin + e.startTime,
    end: performance.timeOrigin + e.responseEnd, bytes: e.encodedBodySize,
  }));
}

const booted = boot();
booted.then(
  () => self.postMessage({ type: "ready", stages: { ...marks, pyodideAt: marks.pyodideReady,
    importedAt: marks.imported, resources: resources(), ...status } }),
  (error) => self.postMessage({ type: "failed", error: String(error?.message ?? error) }),
);

self.onmessage = async ({ data }) => {
  try {
    await booted;
    const started = performance.now();
    const json = bridge.compute_json(data.object, data.patch);
    self.postMessage({ type: "result", id: data.id, json, pythonMs: performance.now() - started });
  } catch (error) {
    self.postMessage({ type: "result", id: data.id, error: String(error?.message ?? error) });
  }
  if (unpackLater) {
    const unpack = unpackLater;
    unpackLater = null;
    await unpack().catch(() => {}); // a failure here shows only if a module is missing
  }
};
