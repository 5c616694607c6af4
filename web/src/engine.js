// The page's side of the engine worker (worker.js): start it (or take over the one
// boot.js started), follow its start-up, and ask it to compute.

export class Engine {
  // onProgress({stage, loaded, total}) is called while the worker starts.
  constructor(onProgress = () => {}) {
    const boot = globalThis.cfgpatchBoot;
    this.worker = boot
      ? boot.worker
      : new Worker(new URL(__WORKER_URL__, import.meta.url), { type: "module" });
    this.waiting = new Map();
    this.nextId = 1;
    this.ready = new Promise((resolve, reject) => {
      const onMessage = ({ data }) => {
        if (data.type === "ready") resolve(data.stages);
        else if (data.type === "failed") reject(new Error(data.error));
        else if (data.type === "progress") onProgress(data);
        else this.#answer(data);
      };
      const onError = (event) => reject(new Error(event.message || "the engine worker failed"));
      for (const event of boot ? boot.take() : []) {
        if (event.type === "message") onMessage(event);
        else onError(event);
      }
      this.worker.onmessage = onMessage;
      this.worker.onerror = onError;
    });
  }

  #answer(data) {
    const done = this.waiting.get(data.id);
    this.waiting.delete(data.id);
    if (done) done(data);
  }

  // Resolves to {json, pythonMs} or rejects with the worker's error.
  compute(object, patch, options) {
    return this.#ask({ object, patch, options: JSON.stringify(options) });
  }

  #ask(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (data) => (data.error ? reject(new Error(data.error)) : resolve(data)));
      this.worker.postMessage({ id, ...message });
    });
  }

  // Another mode's bridge function by name (worker.js's CALLS: apply_json, lint_json),
  // with its arguments as one object; resolves like compute().
  call(fn, args) {
    return this.#ask({ fn, args });
  }
}
