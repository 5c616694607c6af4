// The Python engine in a Web Worker: Pyodide, the packed cfgpatch and PyYAML, and
// cfgpatch.web.bridge. Computing here keeps the editors responsive while a large
// object is being read. Messages in: {id, object, patch, options} (the patch mode) or
// {id, module, call, args} (another mode's Python entry point); out:
// {type: "progress", stage, loaded, total}, {type: "ready", stages},
// {type: "failed", error} or {type: "result", id, json, pythonMs} / {..., error}.
//
// __SITE__ (written by build.mjs): the content-hashed names of the files to fetch
// and the size of each, so that the page can show how much is loaded.

const SITE = "/home/pyodide/cfgpatch-site"; // also in snapshot.mjs
const FILES = __SITE__;
let bridge = null;
let unpackLater = null;

// Absolute times (ms since the epoch), so the page can place them on its own clock.
const now = () => performance.timeOrigin + performance.now();
const marks = { workerStart: now() };
const status = { snapshot: "none" };

// ---- progress: the bytes every fetch of this worker has received (Pyodide's own
// fetches of its wasm and standard library included), reported every 100 ms
const progress = { stage: "download", loaded: 0, total: FILES.total };
let reported = 0;
function report(force = false) {
  const t = performance.now();
  if (!force && t - reported < 100) return;
  reported = t;
  self.postMessage({ type: "progress", ...progress });
}
function stage(name) {
  progress.stage = name;
  report(true);
}
const plainFetch = self.fetch.bind(self);
self.fetch = async (...args) => {
  const response = await plainFetch(...args);
  if (response.ok && response.body) count(response.clone().body, response);
  return response;
};
// The size FILES gives for a response (what it unpacks to), by its file name.
function unpackedSize(url) {
  const name = new URL(url).pathname.split("/").pop();
  if (name === FILES.snapshot.split("/").pop()) return FILES.sizes.snapshot;
  return FILES.sizes[name];
}
// What crosses the network: a body the server sent compressed (Content-Encoding) is
// counted in its Content-Length, not in the bytes it unpacks to. The total expects the
// unpacked sizes until the first compressed response; from then on the files still to
// come are expected as their brotli copies (FILES.encoded, measured at build time).
const expected = { ...FILES.sizes };
const arrived = new Set();
function nameOf(url) {
  const name = new URL(url).pathname.split("/").pop();
  return name === FILES.snapshot.split("/").pop() ? "snapshot" : name;
}
function expect(name, size, compressed) {
  arrived.add(name);
  expected[name] = size;
  if (compressed && FILES.encoded) {
    for (const other of Object.keys(expected)) {
      if (!arrived.has(other) && FILES.encoded[other]) expected[other] = FILES.encoded[other];
    }
  }
  progress.total = Object.values(expected).reduce((a, b) => a + b, 0);
}
async function count(body, response) {
  const unpacked = unpackedSize(response.url);
  const sent = Number(response.headers.get("content-length")) || 0;
  const encoding = response.headers.get("content-encoding");
  const compressed = Boolean(encoding && encoding !== "identity" && sent > 0);
  let ratio = 1;
  if (unpacked) {
    if (compressed) ratio = sent / unpacked;
    expect(nameOf(response.url), compressed ? sent : unpacked, compressed);
  }
  let counted = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true }));
    if (done) break;
    counted += value.byteLength;
    progress.loaded += value.byteLength * ratio;
    report();
  }
  if (ratio !== 1) progress.loaded += sent - counted * ratio; // exact once it is all here
  progress.loaded = Math.round(progress.loaded);
  report(true);
}

async function fetchArchive(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const buffer = await response.arrayBuffer();
  marks[`fetched ${url.pathname.split("/").pop()}`] = now();
  return buffer;
}

// Pyodide started from the memory snapshot made at build time (snapshot.mjs: Python
// booted, cfgpatch imported); an ordinary start when there is none or it fails. The
// snapshot is handed over as a promise: loadPyodide starts fetching and compiling its
// WebAssembly at once and waits for the snapshot only when it needs the memory.
// Pyodide copies the snapshot into the module's memory without growing it, and its
// WebAssembly starts with 30 MiB whatever INITIAL_MEMORY says: a snapshot of a larger
// memory (the warm-up grew it) would not fit. The module is grown to the snapshot's
// size between its creation and the restore.
async function startPyodide(loadPyodide, indexURL, snapshot) {
  try {
    const create = (await import(indexURL + "pyodide.asm.mjs")).default;
    const createPyodideModule = async (settings) => {
      const module = await create(settings);
      const size = settings.INITIAL_MEMORY;
      if (size && module.HEAP8.length < size) module.growMemory(size);
      return module;
    };
    const pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot, createPyodideModule });
    status.snapshot = "used";
    return pyodide;
  } catch (error) {
    status.snapshot = `failed: ${error?.message ?? error}`;
  }
  stage("boot");
  return loadPyodide({ indexURL });
}

async function boot() {
  const base = new URL("./", self.location.href);
  const indexURL = new URL(FILES.pyodide, base).href;
  const snapshot = fetchArchive(new URL(FILES.snapshot, base));
  snapshot.then(() => stage("start"), () => {});
  // the archives are fetched now only when there is no snapshot to start from
  const archives = () => Promise.all(FILES.archives.map((name) => fetchArchive(new URL(name, base))));
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  marks.pyodideModule = now();
  let pyodide = await startPyodide(loadPyodide, indexURL, snapshot);
  marks.pyodideReady = now();
  const unpack = async () => {
    for (const buffer of await archives()) pyodide.unpackArchive(buffer, "zip", { extractDir: SITE });
    marks.unpacked = now();
  };
  if (status.snapshot === "used") {
    // Everything the engine imports or reads is in the snapshot already; the
    // archives are fetched and unpacked only if a module turns out to be missing.
    unpackLater = unpack;
  } else {
    await unpack();
  }
  stage("import");
  pyodide.runPython(`import sys\nif ${JSON.stringify(SITE)} not in sys.path: sys.path.insert(0, ${JSON.stringify(SITE)})`);
  bridge = pyodide.pyimport("cfgpatch.web.bridge");
  marks.imported = now();
  stage("first");
  return marks;
}

// What the worker fetched and when (absolute ms), for timings().stages on the page.
function resources() {
  return performance.getEntriesByType("resource").map((e) => ({
    name: e.name.split("/").pop(), start: performance.timeOrigin + e.startTime,
    end: performance.timeOrigin + e.responseEnd, bytes: e.encodedBodySize,
    decoded: e.decodedBodySize,
  }));
}

const booted = boot();
booted.then(
  () => self.postMessage({ type: "ready", stages: { ...marks, pyodideAt: marks.pyodideReady,
    importedAt: marks.imported, resources: resources(), ...status } }),
  (error) => self.postMessage({ type: "failed", error: String(error?.message ?? error) }),
);

const MISSING = /ModuleNotFoundError|FileNotFoundError|ImportError/;

// ---- the other modes' bridge functions, by the name a message gives ({id, fn, args})
const CALLS = {
  apply_json: (a) => bridge.apply_json(a.live, a.manifest, a.last ?? "", a.options ?? "{}"),
  server_side_json: (a) => bridge.server_side_json(a.live, a.manifest, a.crd ?? "", a.options ?? "{}"),
  lint_json: (a) => bridge.lint_json(a.files, a.options ?? "{}"),
  want_json: (a) => bridge.want_json(a.object, a.wanted, "{}"),
};

function compute(data) {
  if (data.fn) {
    if (!Object.hasOwn(CALLS, data.fn)) throw new Error(`no bridge function ${data.fn}`);
    return CALLS[data.fn](data.args);
  }
  return bridge.compute_json(data.object, data.patch, data.options ?? "{}");
}

self.onmessage = async ({ data }) => {
  try {
    await booted;
    const started = performance.now();
    let json = compute(data);
    // The bridge reports an unexpected exception as an "internal error" entry; a module
    // or file the snapshot lacks: fetch and unpack the archives once, and compute again.
    if (unpackLater && json.includes("internal error") && MISSING.test(json)) {
      const unpack = unpackLater;
      unpackLater = null;
      await unpack();
      json = compute(data);
    }
    self.postMessage({ type: "result", id: data.id, json, pythonMs: performance.now() - started });
  } catch (error) {
    self.postMessage({ type: "result", id: data.id, error: String(error?.message ?? error) });
  }
};
