// Start the Python engine's worker before anything else on the page. index.html loads
// this tiny classic script first in <head>: it runs while the document is still being
// parsed, so the worker, and through it the fetching of Pyodide's files and the start of
// Python, begins before app.js (CodeMirror and the page) is even fetched and evaluated.
// Messages that arrive before the page takes the worker over are kept for it (engine.js).

(() => {
  const here = document.currentScript?.src ?? location.href;
  const worker = new Worker(new URL(__WORKER_URL__, here), { type: "module" });
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
})();
