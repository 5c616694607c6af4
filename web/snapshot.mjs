// Make a memory snapshot of Pyodide with the page's Python already started.
//
//   node snapshot.mjs PY_DIR   (build.mjs calls snapshot(PY_DIR) after precompile(PY_DIR))
//
// Starting Pyodide in the tab means compiling its WebAssembly and then booting
// Python (initialising the interpreter, importing Pyodide's own modules, then
// cfgpatch and PyYAML): well over a second of CPU. Here, at build time, Pyodide runs
// in Node.js once: the packed archives in PY_DIR are unpacked where the page's worker
// unpacks them, every module of cfgpatch and PyYAML is imported, each example of the
// menu is computed once (so what the engine loads lazily, such as the merge-key
// tables, is loaded too), the free memory is zeroed (it compresses to nearly nothing),
// and the state of the WebAssembly memory is written to PY_DIR/snapshot.bin. The worker hands it to loadPyodide, which then skips booting
// Python; the worker still unpacks the archives, and falls back to an ordinary start
// if the snapshot cannot be used. Nothing that depends on the visitor is in it.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const SITE = "/home/pyodide/cfgpatch-site"; // also in src/worker.js

const WARM = `
import importlib, json, pkgutil, sys
if SITE not in sys.path:
    sys.path.insert(0, SITE)
import yaml, cfgpatch
def _import_all(package):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not info.name.endswith(".__main__"):  # the command line is not packed
            importlib.import_module(info.name)
_import_all(cfgpatch)
_import_all(yaml)
from cfgpatch.web import bridge, inputs
ALL = json.dumps({"format": "json", "diff": True, "kustomize": True})
for example in json.loads(EXAMPLES):
    bridge.compute_json(example["object"], example["patch"])
    bridge.compute_json(example["object"], example["patch"], ALL)
    bridge.compute_json(json.dumps(bridge.compute(example["object"], "{}")
                                   ["results"]["merge"]["object"]), example["patch"])
# the apply mode (modes/apply.js): each of its examples, both formats
for example in json.loads(APPLY_EXAMPLES):
    for fmt in ("yaml", "json"):
        bridge.apply_json(example["live"], example["manifest"], "", json.dumps({"format": fmt}))
bridge.READER = inputs.InputReader()  # nothing of the warm-up inputs is kept
bridge._BEFORE[:] = [None, None, None]
del _import_all, example, fmt
import gc
gc.collect()
`;

// Zero the heap's free memory (what the warm-up used and freed): the snapshot is the
// whole WebAssembly memory, and zeros are what compresses best. Blocks are taken with
// malloc, zeroed and freed again, never so many that the memory would have to grow.
function zeroFreeMemory(module) {
  const size = module.HEAP8.length;
  const taken = [];
  let zeroed = 0;
  for (let block = 1 << 22; block >= 64; block >>= 1) {
    while (module._sbrk(0) + block + 65536 < size) {
      const at = module._malloc(block);
      if (!at) break;
      module.HEAP8.fill(0, at, at + block);
      zeroed += block;
      taken.push(at);
    }
  }
  for (const at of taken) module._free(at);
  if (module.HEAP8.length !== size) throw new Error("zeroing the free memory grew the memory");
  return zeroed;
}

export async function snapshot(dir) {
  const { loadPyodide } = await import(join(here, "node_modules", "pyodide", "pyodide.mjs"));
  const pyodide = await loadPyodide({
    indexURL: join(here, "node_modules", "pyodide") + "/",
    _makeSnapshot: true,
  });
  for (const name of ["cfgpatch.zip", "yaml.zip"]) {
    const data = new Uint8Array(readFileSync(join(dir, name)));
    pyodide.unpackArchive(data, "zip", { extractDir: SITE });
  }
  const globals = pyodide.toPy({
    SITE, EXAMPLES: readFileSync(join(here, "src", "examples.json"), "utf8"),
    APPLY_EXAMPLES: readFileSync(join(here, "src", "apply-examples.json"), "utf8"),
  });
  pyodide.runPython(WARM, { globals });
  globals.destroy();
  const zeroed = zeroFreeMemory(pyodide._module);
  const bytes = pyodide.makeMemorySnapshot();
  writeFileSync(join(dir, "snapshot.bin"), bytes);
  console.log(`wrote a Pyodide memory snapshot (${(bytes.length / 1e6).toFixed(1)} MB, ` +
    `${(zeroed / 1e6).toFixed(1)} MB of free memory zeroed)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  if (!process.argv[2]) throw new Error("usage: node snapshot.mjs PY_DIR");
  await snapshot(process.argv[2]);
}
