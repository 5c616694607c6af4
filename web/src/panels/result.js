// The result panel: the verdict, the result as kubectl prints it (-o yaml or -o json)
// with its change and warning marks, or before and after with the removed lines, a Copy
// button (the text without marks), and the warnings next to it.

import { $, el, kids, plural, rich, setText, show } from "../dom.js";
import {
  RESULT_MARKS, SIGN_MARKS, codeBox, drawLines, keepFirstMarkInView, revealLine,
} from "../codebox.js";
import { copyText } from "../clipboard.js";
import { state } from "../state.js";

const resultMark = (line) => RESULT_MARKS[line[1]] ?? null;
const signMark = (line) => SIGN_MARKS[line[0]] ?? null;

function resultText(view) {
  return (view.lines ?? []).map((line) => line[0] + "\n").join("");
}

function finding(item, canReveal, reveal) {
  const severity = item.severity ?? "info";
  const node = el("li", { class: `finding sev-${severity}` },
    el("span", { class: "severity" }, severity), " ",
    el("span", { class: "badge", title: "stable finding code" }, item.code));
  if (item.path !== undefined) {
    const label = item.path || "(root)";
    node.append(" ", canReveal && item.line !== null && item.line !== undefined
      ? el("button", { class: "link path", type: "button", title: "show this place in the result",
        onclick: () => reveal(item.line) }, label)
      : el("code", { class: "path" }, label));
  }
  node.append(el("div", { class: "message" }, item.message ?? ""));
  return node;
}

function rejection(box, view, ctx) {
  const error = view.error ?? { plain: view.verdict, kubectl: "" };
  box.replaceChildren(...kids(
    el("p", { class: "plain" }, rich(error.plain)),
    error.kubectl ? el("p", { class: "kubectl" }, "kubectl: ", el("code", {}, error.kubectl)) : null,
    error.place ? el("button", { type: "button", class: "button small",
      onclick: () => ctx.actions.showInEditor("patch", error.place) }, "Show the operation in the patch") : null,
  ));
}

export const resultPanel = {
  mount(ctx) {
    for (const button of document.querySelectorAll("[data-format]")) {
      button.addEventListener("click", () => ctx.actions.setFormat(button.dataset.format));
    }
    for (const button of document.querySelectorAll("[data-view]")) {
      button.addEventListener("click", () => ctx.actions.setResultView(button.dataset.view));
    }
    const copy = $("copy-result");
    copy.addEventListener("click", () => {
      const view = state.data?.views[state.type];
      if (view?.lines) copyText(resultText(view), copy);
    });
    this.pre = codeBox("The result");
  },

  // Before the first result: the type the inputs will be computed with, nothing else.
  waiting() {
    setText($("result-type"), state.type);
  },

  render(data, ctx) {
    const view = data.views[state.type];
    const result = data.results[state.type];
    setText($("result-type"), state.type);
    for (const button of document.querySelectorAll("[data-format]")) {
      button.setAttribute("aria-pressed", String(button.dataset.format === state.format));
    }
    for (const button of document.querySelectorAll("[data-view]")) {
      button.setAttribute("aria-pressed", String(button.dataset.view === state.resultView));
    }
    const verdict = $("verdict");
    // A result that loses something (an element, a section, a field) is a warning.
    const lost = result.ok && view.losses?.length;
    verdict.className = `verdict ${result.ok ? (lost ? "warning" : "ok") : "failed"}`;
    const said = result.ok && view.print_error ? `${view.verdict} ${view.print_error.plain}` : (view.verdict ?? "");
    if (verdict.said !== said) verdict.replaceChildren(...rich(said));
    verdict.said = said;
    // Which kubectl the answer is, and what other recorded versions would say.
    const versions = view.versions?.differences ?? [];
    setText($("versions-line"), versions.length
      ? `The answer is kubectl ${view.versions.answers_as}'s; recorded answers of other versions differ:`
      : "The answer is kubectl 1.32's (no recorded difference of kubectl 1.27\u20131.33 for this input).");
    $("versions-list").replaceChildren(...versions.map((item) =>
      el("li", {}, `kubectl ${item.versions}, for `, rich(item.about), ": ", el("code", {}, item.said))));
    show($("versions-list"), versions.length > 0);
    const box = $("result-object");
    const reject = $("rejection");
    show(reject, !result.ok);
    $("copy-result").disabled = !result.ok;
    const before = state.resultView === "before-after" && view.before_after;
    show($("result-legend"), result.ok && !before);
    show($("before-after-legend"), Boolean(result.ok && before));
    if (!result.ok) {
      rejection(reject, view, ctx);
      box.replaceChildren();
    } else {
      if (box.firstChild !== this.pre) box.replaceChildren(this.pre);
      const lines = before ? view.before_after : view.lines;
      const options = before
        ? { textOf: (line) => line[1], markOf: signMark }
        : { markOf: resultMark };
      if (drawLines(this.pre, lines, options)) {
        keepFirstMarkInView(this.pre, lines, options.markOf, ctx.afterDraw);
      }
      this.pre.setAttribute("aria-label", `The result, as kubectl patch -o ${state.format} prints it`);
    }
    const findings = view.findings ?? [];
    const reveal = (line) => {
      if (state.resultView !== "result") ctx.actions.setResultView("result");
      this.pre.scrollIntoView({ block: "nearest" });
      revealLine(this.pre, line);
    };
    $("findings").replaceChildren(...findings.map((item) => finding(item, result.ok, reveal)));
    show($("findings-empty"), findings.length === 0);
    setText($("warnings-title"), findings.length ? `Warnings (${findings.length})` : "Warnings");
    return plural(findings.length, "warning");
  },
};
