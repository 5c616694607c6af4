// The three types side by side. A column is a button-like region: choosing it shows
// that type in the panels above. A column whose content did not change keeps its DOM.

import { $, el, plural } from "../dom.js";
import { DIFFERS_MARK, codeBox, drawLines, keepFirstMarkInView } from "../codebox.js";
import { TYPES, state } from "../state.js";

const differsMark = (line) => (line[2] ? DIFFERS_MARK : null);

function column(type, ctx) {
  const pick = el("button", { type: "button", class: "column-pick", "aria-pressed": "false",
    title: `show --type=${type} in the panels above`,
    onclick: () => ctx.actions.setType(type) }, el("code", {}, `--type=${type}`));
  const col = el("section", { class: "column", "aria-label": `--type=${type}`,
    onclick: (event) => { // the whole column chooses, unless text is being selected
      if (!event.target.closest("button") && getSelection().isCollapsed) ctx.actions.setType(type);
    } }, el("h3", {}, pick), el("p", { class: "summary" }), codeBox(`The result of --type=${type}`),
  el("ul", { class: "mini-findings" }));
  col.pick = pick;
  return col;
}

function summary(node, result, view) {
  const sym = (text) => el("span", { class: "sym", "aria-hidden": "true" }, text);
  if (!result.ok) {
    node.className = "summary failed";
    node.replaceChildren(sym("\u2717"), " rejected: ", view.error?.plain ?? result.error);
    return;
  }
  node.className = "summary ok";
  const same = view.same_as?.length
    ? `same result as ${view.same_as.map((t) => "--type=" + t).join(" and ")}`
    : view.differs?.length ? `differs at ${plural(view.differs.length, "place")}` : "";
  node.replaceChildren(sym("\u2713"), " accepted", same ? "; " + same : "");
}

export const comparePanel = {
  mount(ctx) {
    this.columns = Object.fromEntries(TYPES.map((type) => [type, column(type, ctx)]));
    $("compare-grid").replaceChildren(...TYPES.map((type) => this.columns[type]));
    $("whole-objects").addEventListener("click", () => ctx.actions.toggleWholeObjects());
  },

  render(data, ctx) {
    $("whole-objects").setAttribute("aria-pressed", String(state.wholeObjects));
    for (const type of TYPES) {
      const col = this.columns[type];
      const result = data.results[type];
      const view = data.views[type];
      const selected = type === state.type;
      col.classList.toggle("selected", selected);
      col.pick.setAttribute("aria-pressed", String(selected));
      summary(col.querySelector(".summary"), result, view);
      const pre = col.querySelector("pre");
      pre.hidden = !result.ok;
      if (result.ok) {
        const fold = !state.wholeObjects && (view.differs?.length ?? 0) > 0;
        if (drawLines(pre, view.lines, { markOf: differsMark, fold }) && !fold) {
          keepFirstMarkInView(pre, view.lines, differsMark, ctx.afterDraw);
        }
      }
      col.querySelector(".mini-findings").replaceChildren(...result.findings.map((f) =>
        el("li", {}, el("span", { class: "badge" }, f.code))));
    }
  },
};
