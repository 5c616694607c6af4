// Problems with the inputs, where they are: below each editor in words (ours first,
// kubectl's second), and in the editor itself (a gutter mark and an underline at the
// line and column). Screen readers hear a new problem once, not on every keystroke.

import { $, announce, el, kids, rich, show } from "../dom.js";
import { markProblems } from "../editors.js";
import { state } from "../state.js";

const said = { object: "", patch: "", crd: "" }; // the last problem announced, per editor

function describe(box, error) {
  box.replaceChildren(...kids(
    el("p", { class: "plain" }, rich(error.plain)),
    error.kubectl ? el("p", { class: "kubectl" }, "kubectl: ", el("code", {}, error.kubectl)) : null,
    error.note ? el("p", { class: "note" }, error.note) : null,
  ));
}

function problems(data, which) {
  const marks = [];
  const error = data.inputs[which];
  if (error?.line) marks.push({ ...error, severity: "error", message: error.plain });
  const view = data.views[state.type];
  if (which === "crd") return marks;
  const place = view.error?.place;
  if (which === "patch" && place) marks.push({ ...place, severity: "error", message: view.error.plain });
  for (const finding of view.findings ?? []) {
    if (finding.editor === which && finding.place) {
      marks.push({ ...finding.place, severity: "warning", message: finding.message });
    }
  }
  return marks;
}

export const inputsPanel = {
  render(data, ctx) {
    for (const which of ["object", "patch", "crd"]) {
      const box = $(`${which}-error`);
      const error = data.inputs[which];
      if (error) describe(box, error);
      show(box, Boolean(error));
      if (error && which === "crd") $("crd-box").open = true;
      markProblems(ctx.editors[which], problems(data, which));
      const text = error ? error.plain : "";
      if (text && text !== said[which]) {
        announce(`The ${which === "crd" ? "CRD" : which} cannot be read. ${text}`, { urgent: !said[which] });
      }
      said[which] = text;
    }
  },
};
