// Add bytecode to the packed Python archives, compiled by the Pyodide the page runs.
//
//   node precompile.mjs DIR      (build.mjs calls precompile(DIR) after pack_python.py)
//
// The page's Python (Pyodide's CPython, a newer version than the build machine's)
// would otherwise compile every module of cfgpatch and PyYAML on each first visit.
// Here Pyodide runs in Node.js once at build time, compiles the modules in DIR's
// zips into __pycache__/*.pyc ("unchecked hash" pycs, used without comparing the
// source's time stamp), and the zips are rewritten with the .pyc next to the .py.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const ARCHIVES = ["cfgpatch.zip", "yaml.zip"];

const COMPILE = `
import py_compile, zipfile, pathlib
FIXED = (2020, 1, 1, 0, 0, 0)
def rebuild(src, dst, root):
    root = pathlib.Path(root)
    with zipfile.ZipFile(src) as archive:
        archive.extractall(root)
    for path in sorted(root.rglob("*.py")):
        py_compile.compile(str(path), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(root).as_posix(), FIXED)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, path.read_bytes())
`;

export async function precompile(dir) {
  const { loadPyodide } = await import(join(here, "node_modules", "pyodide", "pyodide.mjs"));
  const pyodide = await loadPyodide({ indexURL: join(here, "node_modules", "pyodide") + "/" });
  pyodide.runPython(COMPILE);
  const rebuild = pyodide.globals.get("rebuild");
  for (const name of ARCHIVES) {
    pyodide.FS.writeFile(`/tmp/in-${name}`, readFileSync(join(dir, name)));
    rebuild(`/tmp/in-${name}`, `/tmp/out-${name}`, `/tmp/tree-${name}`);
    writeFileSync(join(dir, name), pyodide.FS.readFile(`/tmp/out-${name}`));
  }
  rebuild.destroy();
  const version = pyodide.runPython("import sys; sys.version.split()[0]");
  console.log(`precompiled the Python archives for Python ${version} (Pyodide ${pyodide.version})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  if (!process.argv[2]) throw new Error("usage: node precompile.mjs DIR");
  await precompile(process.argv[2]);
}
