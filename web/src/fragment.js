// The URL fragment: the inputs of a shared link are read at start and whenever the
// fragment changes (a new link pasted in an open tab), and written back, once computing
// pauses, with replaceState (which neither adds history entries nor fires hashchange).

import { $, setText, show } from "./dom.js";
import { decodeState, encodeState, isShareFragment } from "./share.js";

const WRITE_DELAY_MS = 400;

export class Fragment {
  // current() -> {type, format, object, patch}; apply(state) sets the inputs of a link.
  constructor({ current, apply }) {
    this.current = current;
    this.apply = apply;
    this.timer = null;
    this.writing = Promise.resolve();
    this.written = location.hash;
    addEventListener("hashchange", () => {
      if (location.hash !== this.written) this.read();
    });
  }

  // Apply the fragment's inputs: "applied", "damaged" (said so on the page, with
  // `instead`: what the editors show then) or null when the fragment is no link.
  async read(instead = "The editors keep what they held.") {
    const hash = location.hash;
    this.written = hash;
    const found = await decodeState(hash);
    const problem = $("link-problem");
    if (found === null) return null;
    if (found.error) {
      setText(problem, `${found.error} ${instead}`);
      show(problem, true);
      return "damaged";
    }
    show(problem, false);
    await this.apply(found.state);
    return "applied";
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.write(), WRITE_DELAY_MS);
  }

  get pending() {
    return this.timer !== null;
  }

  write() {
    clearTimeout(this.timer);
    this.timer = null;
    const inputs = this.current();
    this.writing = this.writing.then(async () => {
      const hash = "#" + await encodeState(inputs);
      this.written = hash;
      if (location.hash !== hash) history.replaceState(null, "", hash);
    });
    return this.writing;
  }

  async link() {
    await this.write();
    return location.href;
  }

  static holdsLink() {
    return isShareFragment(location.hash);
  }

  static clearProblem() {
    show($("link-problem"), false);
  }
}
