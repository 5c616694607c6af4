// Build the patch tester page into src/cfgpatch/web/static/ (or the directory in $OUT).
//
//   node build.mjs            (run by `npm run build` and by `make web`)
//
// 1. bundles src/main.js with CodeMirror 6 into app.js, the engine's Web Worker
//    src/worker.js into worker.js, and src/boot.js (a classic script that starts that
//    worker before anything else) (esbuild);
// 2. copies the Pyodide runtime from node_modules/pyodide into pyodide/;
// 3. packs the core cfgpatch package and PyYAML's pure-Python part into py/
//    (web/pack_python.py, run with $PYTHON, default ../.venv/bin/python), and adds
//    their bytecode compiled by Pyodide itself (precompile.mjs), and a memory
//    snapshot of Pyodide with that Python already started (snapshot.mjs);
// 4. copies index.html and style.css, and writes build.json.
// Everything the page loads comes from this directory: no CDN is involved.

import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { precompile } from "./precompile.mjs";
import { snapshot } from "./snapshot.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const out = resolve(process.env.OUT || join(root, "src", "cfgpatch", "web", "static"));
const python = process.env.PYTHON || join(root, ".venv", "bin", "python");

// The Pyodide files the page needs at run time (the npm package also ships
// TypeScript declarations, source maps and a console page, which we leave out).
const PYODIDE_FILES = [
  "pyodide.mjs",
  "pyodide.asm.mjs",
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
];

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "pyodide"), { recursive: true });
  mkdirSync(join(out, "py"), { recursive: true });

  const pyodideDir = join(here, "node_modules", "pyodide");
  const pyodideVersion = JSON.parse(readFileSync(join(pyodideDir, "package.json"))).version;
  for (const name of PYODIDE_FILES) {
    copyFileSync(join(pyodideDir, name), join(out, "pyodide", name));
  }

  const entries = [["boot.js", "boot.js"], ["main.js", "app.js"], ["worker.js", "worker.js"]];
  for (const [entry, output] of entries) {
    esbuild.buildSync({
      entryPoints: [join(here, "src", entry)],
      bundle: true,
      format: entry === "boot.js" ? "iife" : "esm", // boot.js is a classic script
      minify: true,
      target: ["es2022"],
      outfile: join(out, output),
      external: ["./pyodide/pyodide.mjs"],
      define: { __PYODIDE_VERSION__: JSON.stringify(pyodideVersion) },
      legalComments: "linked",
      logLevel: "warning",
    });
  }

  for (const name of ["index.html", "style.css"]) {
    copyFileSync(join(here, "src", name), join(out, name));
  }

  execFileSync(python, [join(here, "pack_python.py"), join(out, "py")], { stdio: "inherit" });
  await precompile(join(out, "py"));
  await snapshot(join(out, "py"));
  const pythonInfo = JSON.parse(readFileSync(join(out, "py", "python.json")));

  // py/python.json also records a digest of the packed sources (see pack_python.py).
  const info = { pyodide: pyodideVersion, pyyaml: pythonInfo.pyyaml };
  writeFileSync(join(out, "build.json"), JSON.stringify(info, null, 2) + "\n");
  if (!existsSync(join(out, "app.js"))) throw new Error("bundle missing");
  console.log(`built the page into ${out} (Pyodide ${pyodideVersion})`);
}

await main();
