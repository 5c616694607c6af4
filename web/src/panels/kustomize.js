// What kustomize would do: computed only while this panel is open (the bridge's
// kustomize option), through the engine's kustomize view (kube.patch(as_="kustomize")).

import { $, el, plural, rich, setText, show } from "../dom.js";
import { DIFFERS_MARK, codeBox, drawLines } from "../codebox.js";
import { state } from "../state.js";

export const kustomizePanel = {
  mount(ctx) {
    const details = $("kustomize");
    this.pre = codeBox("kustomize's result");
    details.addEventListener("toggle", () => {
      state.kustomizeOpen = details.open;
      if (details.open) ctx.actions.recompute();
    });
  },

  render(data) {
    const verdict = $("kustomize-verdict");
    const view = data.kustomize;
    const box = $("kustomize-object");
    const openapi = $("kustomize-openapi");
    openapi.replaceChildren(...rich(view?.openapi_note ?? ""));
    show(openapi, Boolean(state.kustomizeOpen && view?.openapi_note));
    if (!state.kustomizeOpen || !view) {
      verdict.className = "verdict pending";
      setText(verdict, state.kustomizeOpen ? "Computing\u2026" : "Open to compute it.");
      return;
    }
    if (!view.ok) {
      verdict.className = "verdict failed";
      setText(verdict, `kustomize fails on this patch: ${view.error.plain}`);
      box.replaceChildren();
    } else {
      verdict.className = "verdict ok";
      setText(verdict, view.same_as_kubectl
        ? "kustomize gives the same object as kubectl patch --type=strategic."
        : view.differs.length
          ? `kustomize's object differs from kubectl's strategic result at ${plural(view.differs.length, "place")}.`
          : "kustomize accepts the patch where kubectl patch --type=strategic does not.");
      if (box.firstChild !== this.pre) box.replaceChildren(this.pre);
      drawLines(this.pre, view.lines, { markOf: (line) => (line[2] ? DIFFERS_MARK : null) });
    }
    $("kustomize-findings").replaceChildren(...view.findings.map((f) =>
      el("li", { class: `finding sev-${f.severity}` }, el("span", { class: "badge" }, f.code), " ",
        el("div", { class: "message" }, f.message))));
  },
};
