// The apply mode's server-side answer: kubectl's line (or the server's conflict text and
// kubectl's advice), each conflict with who owns the field and the three ways out, the
// live object's managers (metadata.managedFields) with the fields each owns as a tree,
// what the apply removes, the owners before and after, and the stored object with its
// managedFields. Every word comes from the bridge (cfgpatch.web.ssamode).

import { $, el, kids, rich, setText, show } from "../dom.js";
import { RESULT_MARKS, SIGN_MARKS, codeBox, drawLines } from "../codebox.js";
import { state } from "../state.js";

const resultMark = (line) => RESULT_MARKS[line[1]] ?? null;

function managerBlock(entry) {
  const what = [entry.operation, entry.api_version, entry.subresource ? `/${entry.subresource}` : "",
    entry.time].filter(Boolean).join(" \u00b7 ");
  const count = `${entry.count} field${entry.count === 1 ? "" : "s"}`;
  return el("details", { class: "ssa-manager", open: true, "data-manager": entry.manager },
    el("summary", {}, el("strong", {}, entry.manager), ` (${what}): ${count}`),
    el("pre", { class: "code", tabindex: "0", "aria-label": `Fields owned by ${entry.manager}` },
      entry.fields.join("\n")));
}

function managers(box, entries, none) {
  box.replaceChildren(...(entries.length ? entries.map(managerBlock) : [el("p", { class: "muted" }, none)]));
}

function conflictItem(conflict) {
  return el("li", { class: "ssa-conflict", "data-field": conflict.field },
    el("p", {}, rich(conflict.text)),
    el("ol", { class: "ssa-ways" }, conflict.ways.map((way) => el("li", {}, way.replace(/^\d\. /, "")))),
    el("ul", { class: "ssa-tools" }, conflict.tools.map((tool) => el("li", {}, tool))));
}

export const ssaOutputPanel = {
  mount() {
    this.pre = codeBox("The result of kubectl apply --server-side");
    this.both = codeBox("The live object against the server-side result: removed and added lines");
  },

  waiting() {
    const verdict = $("ssa-verdict");
    verdict.className = "verdict pending";
    setText(verdict, "Waiting for the engine\u2026");
  },

  render(data) {
    for (const button of document.querySelectorAll("[data-apply-format]")) {
      button.setAttribute("aria-pressed", String(button.dataset.applyFormat === state.applyFormat));
    }
    const verdict = $("ssa-verdict");
    const conflicts = data.conflicts ?? [];
    verdict.className = `verdict ${data.ok ? "ok" : "failed"}`;
    setText(verdict, data.ok ? data.line
      : conflicts.length ? `kubectl apply --server-side would fail: ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}.`
        : "kubectl apply --server-side would fail.");
    const warning = $("ssa-warning");
    setText(warning, data.warning ?? "");
    show(warning, Boolean(data.warning));
    const reject = $("ssa-rejection");
    show(reject, !data.ok);
    if (!data.ok) {
      const error = data.error ?? { plain: "", kubectl: "" };
      reject.replaceChildren(...kids(el("p", { class: "plain" }, rich(error.plain)),
        error.kubectl ? el("pre", { class: "kubectl", tabindex: "0", "aria-label": "What kubectl prints" }, error.kubectl) : null));
    }
    $("ssa-conflict-list").replaceChildren(...conflicts.map(conflictItem));
    show($("ssa-conflicts"), conflicts.length > 0);
    managers($("ssa-managers-before"), data.managers_before ?? [],
      "None: no live object, or it has no managedFields.");
    const explain = data.explain ?? [];
    setText($("ssa-explain"), explain.join("\n"));
    show($("ssa-explain-box"), explain.length > 0);
    show($("ssa-answer"), Boolean(data.ok));
    if (!data.ok) return;
    const removals = [...(data.forced ?? []).map((line) => `forced ${line}`), ...data.removals];
    $("ssa-removals").replaceChildren(...(removals.length ? removals.map((line) => el("li", {}, line))
      : [el("li", { class: "muted" }, "Nothing: the applier stopped sending no field it owned.")]));
    $("ssa-owners").replaceChildren(...data.owners.map((o) => el("li", { class: o.changed ? "changed" : "same" },
      el("code", {}, o.path), `: ${o.before} \u2192 ${o.after}`)));
    managers($("ssa-managers-after"), data.managers_after ?? [], "None.");
    const box = $("ssa-object");
    if (box.firstChild !== this.pre) box.replaceChildren(this.pre);
    drawLines(this.pre, data.lines, { markOf: resultMark });
    const both = $("ssa-before-after");
    if (both.firstChild !== this.both) both.replaceChildren(this.both);
    drawLines(this.both, data.before_after ?? [], { textOf: (line) => line[1], markOf: (line) => SIGN_MARKS[line[0]] ?? null });
    this.pre.setAttribute("aria-label", `The server-side result, as kubectl get -o ${state.applyFormat} --show-managed-fields prints it`);
  },
};
