// The loading line: what the engine is doing (download, start, import, first result),
// how many bytes have arrived, then a ready or failed message.

import { $, setText } from "../dom.js";

const STAGES = ["download", "start", "import", "first"];
const LABEL = {
  download: "Downloading the Python engine",
  start: "Starting Python from its saved memory image",
  boot: "Starting Python (no saved memory image: this takes a few seconds more)",
  import: "Loading cfgpatch",
  first: "Computing the first result",
};

const mb = (bytes) => (bytes / 1e6).toFixed(1);

export const statusPanel = {
  progress({ stage, loaded, total }) {
    const bar = $("load-bar");
    const done = Math.min(loaded, total || loaded);
    bar.max = total || 1;
    bar.value = done;
    const bytes = total ? `${mb(done)} of ${mb(total)} MB` : `${mb(loaded)} MB`;
    const label = LABEL[stage] ?? LABEL.download;
    setText($("status"), stage === "download" || done < total
      ? `${label}\u2026 ${bytes} (${total ? Math.round((100 * done) / total) : 0} %)`
      : `${label}\u2026 (${bytes} downloaded)`);
    const at = STAGES.indexOf(stage === "boot" ? "start" : stage);
    for (const item of $("load-stages").children) {
      const index = STAGES.indexOf(item.dataset.stage);
      item.className = index < at ? "done" : index === at ? "current" : "";
      if (index === at) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
  },

  ready() {
    const load = $("load");
    load.className = "status ready";
    $("load-bar").hidden = true;
    $("load-stages").hidden = true;
    setText($("status"), "Engine ready: Python runs in this tab, and nothing you type leaves the page.");
  },

  failed(text) {
    $("load").className = "status failed";
    $("load-bar").hidden = true;
    setText($("status"), text);
  },
};
