// Build the patch tester page into src/cfgpatch/web/static/ (or the directory in $OUT).
//
//   node build.mjs            (run by `npm run build` and by `make web`)
//
// 1. copies the Pyodide runtime from node_modules/pyodide into pyodide-<hash>/;
// 2. packs the core cfgpatch package and PyYAML's pure-Python part into py/
//    (web/pack_python.py, run with $PYTHON, default ../.venv/bin/python), adds their
//    bytecode compiled by Pyodide itself (precompile.mjs), and a memory snapshot of
//    Pyodide with that Python already started (snapshot.mjs);
// 3. bundles the engine's Web Worker (src/worker.js, told the names and sizes of the
//    files it fetches), the page (src/main.js with CodeMirror 6) and src/boot.js (a
//    classic script that starts that worker before anything else) with esbuild;
// 4. writes index.html (pointing at the files below), style.css and build.json;
// 5. writes a gzip (.gz) and a brotli (.br) copy of every file that compresses.
//
// Every file except index.html and build.json has its content's hash in its name (or
// in its folder's): a server may let browsers keep them forever (`cfgpatch serve`
// does, see src/cfgpatch/server/static.py). Everything the page loads comes from this
// directory: no CDN is involved.
//
// $BROTLI_QUALITY (0-11, default 11) trades build time for size: 11 takes about a
// minute for the snapshot; the Pyodide files' compressed copies are kept in
// node_modules/.cache/ between builds.

import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import * as esbuild from "esbuild";
import { precompile } from "./precompile.mjs";
import { snapshot } from "./snapshot.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const out = resolve(process.env.OUT || join(root, "src", "cfgpatch", "web", "static"));
const python = process.env.PYTHON || join(root, ".venv", "bin", "python");
const QUALITY = Number(process.env.BROTLI_QUALITY ?? 11);
const CACHE = join(here, "node_modules", ".cache", "cfgpatch-compressed");

// The Pyodide files the page needs at run time (the npm package also ships
// TypeScript declarations, source maps and a console page, which we leave out).
const PYODIDE_FILES = [
  "pyodide.mjs",
  "pyodide.asm.mjs",
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
];
// What the worker fetches (and counts) when it starts from the snapshot.
const FETCHED = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

const hashOf = (...buffers) => {
  const hash = createHash("sha256");
  for (const buffer of buffers) hash.update(buffer);
  return hash.digest("hex").slice(0, 12);
};

// name.ext -> name.<hash>.ext, renaming the file in place; returns the new name.
function hashName(dir, name) {
  const hash = hashOf(readFileSync(join(dir, name)));
  const dot = name.indexOf(".");
  const named = `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
  renameSync(join(dir, name), join(dir, named));
  return named;
}

function copyPyodide() {
  const source = join(here, "node_modules", "pyodide");
  const version = JSON.parse(readFileSync(join(source, "package.json"))).version;
  const hash = hashOf(...PYODIDE_FILES.map((name) => readFileSync(join(source, name))));
  const folder = `pyodide-${hash}`;
  mkdirSync(join(out, folder), { recursive: true });
  for (const name of PYODIDE_FILES) copyFileSync(join(source, name), join(out, folder, name));
  return { version, folder };
}

async function buildPython() {
  const dir = join(out, "py");
  mkdirSync(dir, { recursive: true });
  execFileSync(python, [join(here, "pack_python.py"), dir], { stdio: "inherit" });
  await precompile(dir);
  await snapshot(dir);
  return {
    snapshot: `py/${hashName(dir, "snapshot.bin")}`,
    archives: ["cfgpatch.zip", "yaml.zip"].map((name) => `py/${hashName(dir, name)}`),
    info: JSON.parse(readFileSync(join(dir, "python.json"))),
  };
}

// Bundle one entry and write it under a name holding its hash; returns that name.
function bundle(entry, name, format, define) {
  const result = esbuild.buildSync({
    entryPoints: [join(here, "src", entry)],
    bundle: true,
    format, // boot.js is a classic script, the others modules
    minify: true,
    target: ["es2022"],
    write: false,
    outfile: join(out, name),
    define,
    legalComments: "eof",
    logLevel: "warning",
  });
  const code = result.outputFiles[0].contents;
  const dot = name.lastIndexOf(".");
  const named = `${name.slice(0, dot)}.${hashOf(code)}${name.slice(dot)}`;
  writeFileSync(join(out, named), code);
  return named;
}

function allFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => entry.isDirectory()
    ? allFiles(join(dir, entry.name)) : [join(dir, entry.name)]);
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

// Write file.gz and file.br when they are at least 5 % smaller than the file.
async function compress(file, cacheKey) {
  const data = readFileSync(file);
  const cached = cacheKey && join(CACHE, `${cacheKey}-q${QUALITY}`);
  const make = async () => [
    await gzip(data, { level: 9 }),
    await brotli(data, { params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    } }),
  ];
  let packed;
  if (cached && existsSync(`${cached}.gz`) && existsSync(`${cached}.br`)) {
    packed = [readFileSync(`${cached}.gz`), readFileSync(`${cached}.br`)];
  } else {
    packed = await make();
    if (cached) {
      mkdirSync(CACHE, { recursive: true });
      writeFileSync(`${cached}.gz`, packed[0]);
      writeFileSync(`${cached}.br`, packed[1]);
    }
  }
  const [gz, br] = packed;
  if (gz.length < data.length * 0.95) writeFileSync(`${file}.gz`, gz);
  if (br.length < data.length * 0.95) writeFileSync(`${file}.br`, br);
}

// Pyodide's files are the same from build to build: their compressed copies are cached.
function cacheKeyOf(file) {
  const rel = relative(out, file);
  return rel.startsWith("pyodide-") ? rel.replace(/\//g, "_") : null;
}

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const pyodide = copyPyodide();
  const py = await buildPython();

  const sizes = Object.fromEntries(FETCHED.map((name) =>
    [name, statSync(join(out, pyodide.folder, name)).size]));
  sizes.snapshot = statSync(join(out, py.snapshot)).size;
  // The files the worker fetches are compressed first, so that it knows what crosses the
  // network when a server sends the brotli copies (its progress counts those bytes).
  const fetched = [...FETCHED.map((name) => join(out, pyodide.folder, name)), join(out, py.snapshot)];
  await Promise.all(fetched.map((file) => compress(file, cacheKeyOf(file))));
  const sent = (file) => statSync(existsSync(`${file}.br`) ? `${file}.br` : file).size;
  const encoded = Object.fromEntries(FETCHED.map((name) => [name, sent(join(out, pyodide.folder, name))]));
  encoded.snapshot = sent(join(out, py.snapshot));
  const site = {
    pyodide: `${pyodide.folder}/`,
    snapshot: py.snapshot,
    archives: py.archives,
    sizes,
    total: Object.values(sizes).reduce((a, b) => a + b, 0),
    encoded, // the brotli copies' sizes (what cfgpatch serve sends)
  };
  const version = JSON.stringify(pyodide.version);
  const worker = bundle("worker.js", "worker.js", "esm", { __SITE__: JSON.stringify(site) });
  const workerUrl = JSON.stringify(`./${worker}`);
  const app = bundle("main.js", "app.js", "esm",
    { __WORKER_URL__: workerUrl, __PYODIDE_VERSION__: version });
  const boot = bundle("boot.js", "boot.js", "iife", { __WORKER_URL__: workerUrl });
  const style = readFileSync(join(here, "src", "style.css"));
  const css = `style.${hashOf(style)}.css`;
  writeFileSync(join(out, css), style);
  const html = readFileSync(join(here, "src", "index.html"), "utf8")
    .replace("__BOOT_JS__", boot).replace("__STYLE_CSS__", css).replace("__APP_JS__", app);
  if (html.includes("__")) throw new Error("index.html: a placeholder was not replaced");
  writeFileSync(join(out, "index.html"), html);

  // py/python.json also records a digest of the packed sources (see pack_python.py).
  const info = { pyodide: pyodide.version, pyyaml: py.info.pyyaml,
    files: { app, boot, worker, style: css, ...site } };
  writeFileSync(join(out, "build.json"), JSON.stringify(info, null, 2) + "\n");

  const started = Date.now();
  const done = new Set(fetched);
  await Promise.all(allFiles(out)
    .filter((file) => !done.has(file) && !file.endsWith(".br") && !file.endsWith(".gz"))
    .map((file) => compress(file, cacheKeyOf(file))));
  console.log(`compressed the page's files (gzip, brotli quality ${QUALITY}) in ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`built the page into ${out} (Pyodide ${pyodide.version})`);
}

await main();
