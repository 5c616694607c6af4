// The Python engine in a Web Worker: Pyodide, the packed cfgpatch and PyYAML, and
// cfgpatch.web.bridge. Computing here keeps the editors responsive while a large
// object is being read. Messages in: {id, object, patch}; out: {type: "ready"},
// {type: "failed", error} or {type: "result", id, json, pythonMs} / {..., error}.

let bridge = null;

// Absolute times (ms since the epoch), so the page can place them on its own clock.
const now = () => performance.timeOrigin + performance.now();

async function boot() {
  const base = new URL("./", self.location.href);
  const archives = Promise.all(["py/cfgpatch.zip", "py/yaml.zip"].map(async (name) => {
    const response = await fetch(new URL(name, base));
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    return response.arrayBuffer();
  }));
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  const pyodideAt = now();
  const site = "/home/pyodide/cfgpatch-site";
  for (const buffer of await archives) pyodide.unpackArchive(buffer, "zip", { extractDir: site });
  pyodide.runPython(`import sys\nif ${JSON.stringify(site)} not in sys.path: sys.path.insert(0, ${JSON.stringify(site)})`);
  bridge = pyodide.pyimport("cfgpatch.web.bridge");
  return { pyodideAt, importedAt: now() };
}

const booted = boot();
booted.then(
  (stages) => self.postMessage({ type: "ready", stages }),
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
};
