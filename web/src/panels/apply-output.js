// The apply mode's answer: kubectl's own line (and warning), the patch kubectl sends,
// what the patch does field by field, and the result as kubectl prints it, lines that
// differ from the live object marked ~. Every word comes from the bridge
// (cfgpatch.web.applymode); this module only draws it.

import { $, el, kids, rich, setText, show } from "../dom.js";
import { RESULT_MARKS, SIGN_MARKS, codeBox, drawLines } from "../codebox.js";
import { copyText } from "../clipboard.js";
import { state } from "../state.js";

const resultMark = (line) => RESULT_MARKS[line[1]] ?? null;

// One note: its code as a badge, its path, then the rest of the sentence, so that the
// item's text is exactly the line `cfgpatch kube apply` prints.
function note(item) {
  const head = `${item.code} ${item.path}`;
  const rest = item.text.startsWith(head) ? item.text.slice(head.length) : ` ${item.text}`;
  return el("li", { class: `apply-note note-${item.code}`, "data-code": item.code },
    el("span", { class: "badge" }, item.code), " ", el("code", { class: "path" }, item.path), rest);
}

export const applyOutputPanel = {
  mount(ctx) {
    this.pre = codeBox("The result of kubectl apply");
    this.both = codeBox("The live object against the result: removed and added lines");
    for (const button of document.querySelectorAll("[data-apply-format]")) {
      button.addEventListener("click", () => ctx.actions.setApplyFormat(button.dataset.applyFormat));
    }
    const copy = $("apply-copy-patch");
    copy.addEventListener("click", () => {
      const text = state.apply?.patch?.text;
      if (text) copyText(text, copy);
    });
  },

  waiting() {
    const verdict = $("apply-verdict");
    verdict.className = "verdict pending";
    setText(verdict, "Waiting for the engine\u2026");
  },

  render(data) {
    for (const button of document.querySelectorAll("[data-apply-format]")) {
      button.setAttribute("aria-pressed", String(button.dataset.applyFormat === state.applyFormat));
    }
    const verdict = $("apply-verdict");
    verdict.className = `verdict ${data.ok ? "ok" : "failed"}`;
    setText(verdict, data.ok ? data.line : "kubectl apply would fail.");
    const warning = $("apply-warning");
    setText(warning, data.ok ? data.warning : "");
    show(warning, Boolean(data.ok && data.warning));
    const reject = $("apply-rejection");
    show(reject, !data.ok);
    if (!data.ok) {
      const error = data.error ?? { plain: "", kubectl: "" };
      reject.replaceChildren(...kids(el("p", { class: "plain" }, error.plain),
        error.kubectl ? el("pre", { class: "kubectl" }, error.kubectl) : null));
    }
    show($("apply-answer"), data.ok);
    if (!data.ok) return;
    setText($("apply-patch-note"), data.patch.note);
    const patch = $("apply-patch");
    setText(patch, data.patch.text ?? "");
    show(patch, data.patch.text !== null);
    $("apply-copy-patch").disabled = data.patch.text === null;
    // What the server does with what is sent (the HPA trap), and the patch readably.
    const consequences = data.consequences ?? [];
    $("apply-consequences").replaceChildren(...consequences.map((item) =>
      el("li", { class: `apply-consequence note-${item.code}`, "data-code": item.code },
        el("span", { class: "badge" }, item.code), " ", rich(item.text))));
    show($("apply-consequences"), consequences.length > 0);
    if (consequences.some((item) => item.code === "replicas-defaulted")) verdict.className = "verdict warning";
    show($("apply-readable"), Boolean(data.readable));
    setText($("apply-readable-patch"), data.readable?.text ?? "");
    setText($("apply-readable-annotation"), data.readable?.annotation ?? "(none)");
    const notes = $("apply-notes");
    notes.replaceChildren(...data.notes.map(note));
    show($("apply-notes-empty"), data.notes.length === 0);
    const box = $("apply-object");
    if (box.firstChild !== this.pre) box.replaceChildren(this.pre);
    drawLines(this.pre, data.lines, { markOf: resultMark });
    const both = $("apply-before-after");
    if (both.firstChild !== this.both) both.replaceChildren(this.both);
    drawLines(this.both, data.before_after ?? [], { textOf: (line) => line[1], markOf: (line) => SIGN_MARKS[line[0]] ?? null });
    this.pre.setAttribute("aria-label", `The result, as kubectl get -o ${state.applyFormat} prints it`);
  },
};
