// "What changed": the entries cfgpatch.web.wording wrote, drawn as they are.

import { $, el, setText } from "../dom.js";
import { state } from "../state.js";

function entry(item) {
  const node = el("li", { class: `change ${item.kind.replace(" ", "-")}` },
    el("span", { class: "sym", "aria-hidden": "true" }, item.symbol), " ",
    el("code", { class: "path" }, item.path), " ", el("span", { class: "text" }, item.text));
  if (item.items?.length) {
    node.append(el("ul", { class: "landings" }, item.items.map((sub) =>
      el("li", { class: `landing ${sub.kind}` },
        el("span", { class: "sym", "aria-hidden": "true" }, sub.symbol), " ", sub.text))));
  }
  return node;
}

export const changesPanel = {
  render(data) {
    const result = data.results[state.type];
    const view = data.views[state.type];
    const list = $("change-list");
    const note = $("changes-note");
    if (!result.ok) {
      setText(note, "No changes: the patch was rejected.");
      list.replaceChildren();
      list.drawnKey = null; // what was drawn is gone: the next list is drawn again
    } else if (!view.changes?.length) {
      setText(note, "No path changed.");
      list.replaceChildren();
      list.drawnKey = null;
    } else {
      setText(note, "");
      const key = JSON.stringify(view.changes);
      if (list.drawnKey !== key) list.replaceChildren(...view.changes.map(entry));
      list.drawnKey = key;
    }
  },
};
