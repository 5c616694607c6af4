// The apply mode's inputs: the examples menu, --overwrite=false, and the problems of
// the three editors (live object, new manifest, last applied configuration), below
// each in words (ours, then kubectl's) and in the editor at the line and column.

import { $, announce, el, setText, show, kids } from "../dom.js";
import { markProblems } from "../editors.js";
import { copyText } from "../clipboard.js";
import { state } from "../state.js";

export const APPLY_EDITORS = ["live", "manifest", "last", "crd"];
const said = { live: "", manifest: "", last: "", crd: "" };

export const applyInputsPanel = {
  mount(ctx, examples) {
    const select = $("apply-example");
    for (const example of examples) select.append(el("option", { value: example.id }, example.title));
    select.addEventListener("change", () => ctx.actions.loadApplyExample(select.value));
    const overwrite = $("apply-overwrite-false");
    overwrite.addEventListener("change", () => ctx.actions.setApplyOverwrite(!overwrite.checked));
    for (const button of document.querySelectorAll("[data-apply-side]")) {
      button.addEventListener("click", () => ctx.actions.setApplySide(button.dataset.applySide));
    }
    const manager = $("apply-manager");
    manager.addEventListener("input", () => {
      this.showExample(null);
      ctx.actions.setApplyManager(manager.value);
    });
    const force = $("apply-force");
    force.addEventListener("change", () => ctx.actions.setApplyForce(force.checked));
    const share = $("apply-share");
    share.addEventListener("click", async () => copyText(await ctx.actions.link(), share));
  },

  showExample(example) {
    state.applyExampleId = example?.id ?? "";
    $("apply-example").value = state.applyExampleId;
    setText($("apply-example-note"), example?.note ?? "");
  },

  // The client-side / server-side switch and the server-side settings.
  showSide() {
    $("mode-apply").dataset.side = state.applySide;
    for (const button of document.querySelectorAll("[data-apply-side]")) {
      button.setAttribute("aria-pressed", String(button.dataset.applySide === state.applySide));
    }
    if ($("apply-manager").value !== state.applyManager) $("apply-manager").value = state.applyManager;
    $("apply-force").checked = state.applyForce;
  },

  showOverwrite() {
    $("apply-overwrite-false").checked = !state.applyOverwrite;
  },

  render(data, ctx) {
    for (const which of APPLY_EDITORS) {
      const box = $(`apply-${which}-error`);
      const error = data.inputs[which];
      if (error) {
        box.replaceChildren(...kids(
          el("p", { class: "plain" }, error.plain),
          error.kubectl ? el("p", { class: "kubectl" }, "kubectl: ", el("code", {}, error.kubectl)) : null,
          error.note ? el("p", { class: "note" }, error.note) : null,
        ));
      }
      show(box, Boolean(error));
      if (error && which === "crd") $("apply-crd-box").open = true;
      markProblems(ctx.editors[`apply-${which}`],
        error?.line ? [{ ...error, severity: "error", message: error.plain }] : []);
      const text = error ? error.plain : "";
      if (text && text !== said[which]) announce(`This input cannot be read. ${text}`, { urgent: !said[which] });
      said[which] = text;
    }
  },
};
