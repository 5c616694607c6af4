// Start the Python engine's worker before anything else on the page, then the page.
// index.html loads only this tiny module (and preloads app.js): the worker starts at
// once, and app.js (CodeMirror and the page, which take a moment to evaluate) runs in
// a later task, so that the browser begins fetching the worker and Pyodide's files
// before the main thread gets busy. Messages that arrive before the page takes the
// worker over are kept for it (engine.js).

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const early = [];
const keep = (event) => early.push(event);
worker.addEventListener("message", keep);
worker.addEventListener("error", keep);

globalThis.cfgpatchBoot = {
  worker,
  // Hand the worker over: the events so far, in order; none are kept after this.
  take() {
    worker.removeEventListener("message", keep);
    worker.removeEventListener("error", keep);
    delete globalThis.cfgpatchBoot;
    return early.splice(0);
  },
};

// A new task, so that starting the worker is not queued behind the page's evaluation.
setTimeout(() => import("./app.js"), 0);
