// The same with kubectl: the command line, the server dry run, and the JSON patch
// equivalent, each with a Copy button.

import { $, setText, show } from "../dom.js";
import { copyText } from "../clipboard.js";
import { state } from "../state.js";

export const commandPanel = {
  mount() {
    for (const [button, source] of [["copy-command", "kubectl-command"],
      ["copy-dry-run", "kubectl-dry-run"], ["copy-json", "kubectl-json"]]) {
      const node = $(button);
      node.addEventListener("click", () => copyText($(source).textContent, node));
    }
  },

  render(data) {
    const view = data.views[state.type];
    setText($("kubectl-command"), view.command ?? "(fix the inputs first)");
    setText($("kubectl-dry-run"), view.dry_run ?? "");
    show($("json-equivalent"), Boolean(view.json_command));
    setText($("kubectl-json"), view.json_command ?? "");
  },
};
