// When to compute. Only the newest inputs matter: while the worker is busy, later
// edits replace each other and are sent when it is free, and a reply is drawn only if
// the inputs (and the options asked of the bridge) have not changed since.

import { bridgeOptions, state } from "./state.js";

const RECOMPUTE_DELAY_MS = 120;

export class Scheduler {
  // read() -> {object, patch}; draw(data) draws a reply; failed(error) reports one.
  // Another mode passes its own ask(engine, want) -> reply (the bridge function it
  // calls), options() -> what it asks for, and keep(data) -> where the reply is kept.
  constructor({ read, draw, failed, ask, options, keep }) {
    this.read = read;
    this.draw = draw;
    this.failed = failed;
    this.ask = ask ?? ((engine, want) => engine.compute(want.object, want.patch, want.options));
    this.options = options ?? bridgeOptions;
    this.keep = keep ?? ((data) => (state.data = data));
    this.data = null; // the last reply drawn
    this.engine = null; // set once the engine is ready
    this.timer = null;
    this.want = null; // {object, patch, options, serial}
    this.serial = 0;
    this.doneSerial = 0;
    this.running = null;
  }

  // Compute the current inputs now; resolves to the data drawn once caught up.
  compute() {
    clearTimeout(this.timer);
    this.timer = null;
    this.want = { ...this.read(), options: this.options(), serial: ++this.serial };
    if (!this.engine) return Promise.resolve(null);
    if (!this.running) this.running = this.#catchUp().finally(() => (this.running = null));
    return this.running;
  }

  // After an edit: compute when typing pauses (longer when computing is slow, so that
  // a big object does not keep interrupting someone who is still typing).
  schedule() {
    clearTimeout(this.timer);
    const delay = Math.max(RECOMPUTE_DELAY_MS, 2 * (state.lastComputeMs || 0));
    this.timer = setTimeout(() => this.compute(), delay);
  }

  // Resolves once the results drawn are those of the current inputs (a pending pause
  // after typing is cut short).
  settled() {
    if (this.timer) return this.compute();
    return this.running ?? Promise.resolve(this.data);
  }

  async #catchUp() {
    while (this.want.serial !== this.doneSerial) {
      const want = this.want;
      const started = performance.now();
      state.computing = true;
      let reply;
      try {
        reply = await this.ask(this.engine, want);
      } catch (error) {
        this.doneSerial = want.serial;
        this.failed(error);
        continue;
      } finally {
        state.computing = false;
      }
      this.doneSerial = want.serial;
      if (this.want.serial !== want.serial) continue; // edited meanwhile: compute again
      state.lastPythonMs = reply.pythonMs;
      this.data = JSON.parse(reply.json);
      this.keep(this.data);
      this.draw(this.data);
      state.lastComputeMs = performance.now() - started;
    }
    return this.data;
  }
}
