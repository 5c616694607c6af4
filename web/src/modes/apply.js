// The apply mode: paste the live object and the new manifest (optionally the last
// applied configuration) and see what client-side `kubectl apply` would send and do,
// computed by cfgpatch.web.applymode in the worker (bridge.apply_json) like the patch
// mode, so nothing is uploaded. It has its own editors, scheduler and panels; main.js
// switches between the modes.

import { $ } from "../dom.js";
import { editorText, makeEditor, setEditorText } from "../editors.js";
import { Scheduler } from "../scheduler.js";
import { FORMATS, SIDES, state } from "../state.js";
import { APPLY_EDITORS, applyInputsPanel } from "../panels/apply-inputs.js";
import { applyOutputPanel } from "../panels/apply-output.js";
import { ssaOutputPanel } from "../panels/ssa-output.js";
import CLIENT_EXAMPLES from "../apply-examples.json";
import SERVER_EXAMPLES from "../ssa-examples.json";

// Client-side examples, then server-side ones (side: "server" switches the apply).
const APPLY_EXAMPLES = [...CLIENT_EXAMPLES, ...SERVER_EXAMPLES];
const LABELS = {
  crd: "CustomResourceDefinition, YAML or JSON (optional)",
  live: "Live object, YAML or JSON (empty: not created yet)",
  manifest: "New manifest, YAML or JSON",
  last: "Last applied configuration, YAML or JSON (empty: from the live object's annotation)",
};

export const applyMode = {
  id: "apply",
  title: "kubectl apply",
  examples: APPLY_EXAMPLES,
  panels: [applyInputsPanel, applyOutputPanel, ssaOutputPanel],
  scheduler: null,

  // The editors, panels and scheduler; ctx is main.js's (editors, actions, afterDraw);
  // drawn() is called after each answer is drawn (the URL fragment is written then).
  mount(ctx, failed, drawn = () => {}) {
    this.ctx = ctx;
    const onEdit = () => {
      applyInputsPanel.showExample(null);
      if (state.mode === "apply") this.scheduler.schedule();
    };
    const onRun = () => this.scheduler.compute();
    for (const which of APPLY_EDITORS) {
      ctx.editors[`apply-${which}`] = makeEditor($(`apply-${which}-editor`), LABELS[which], { onEdit, onRun });
    }
    this.scheduler = new Scheduler({
      read: () => Object.fromEntries(APPLY_EDITORS.map((w) => [w, editorText(ctx.editors[`apply-${w}`])])),
      options: () => (state.applySide === "server"
        ? { side: "server", format: state.applyFormat, manager: state.applyManager, force: state.applyForce }
        : { format: state.applyFormat, overwrite: state.applyOverwrite }),
      ask: (engine, want) => (want.options.side === "server"
        ? engine.call("server_side_json", { live: want.live, manifest: want.manifest, crd: want.crd,
          options: JSON.stringify(want.options) })
        : engine.call("apply_json", { live: want.live, manifest: want.manifest,
          last: want.last, options: JSON.stringify(want.options) })),
      keep: (data) => (state.apply = data),
      draw: (data) => {
        applyInputsPanel.render(data, ctx);
        if (data.side === "server") ssaOutputPanel.render(data, ctx);
        else applyOutputPanel.render(data, ctx);
        drawn();
      },
      failed,
    });
    applyInputsPanel.mount(ctx, APPLY_EXAMPLES);
    applyOutputPanel.mount(ctx);
    ssaOutputPanel.mount(ctx);
    Object.assign(ctx.actions, this.actions(ctx));
    ctx.actions.loadApplyExample(APPLY_EXAMPLES[0].id, { compute: false });
    applyInputsPanel.showSide();
    applyOutputPanel.waiting();
    ssaOutputPanel.waiting();
  },

  // The engine is ready: compute now if this mode is shown.
  ready(engine) {
    this.scheduler.engine = engine;
    return state.mode === "apply" ? this.scheduler.compute() : Promise.resolve(null);
  },

  // Shown: compute what the editors hold unless it is drawn already.
  shown() {
    if (!this.scheduler.engine) return Promise.resolve(null);
    return state.apply ? this.scheduler.settled() : this.scheduler.compute();
  },

  // What a shared link holds in this mode (share.js: live in object, manifest in patch).
  // Server-side adds x: {side, manager, force, crd}.
  linkState() {
    const text = (which) => editorText(this.ctx.editors[`apply-${which}`]);
    const link = { mode: "apply", type: state.type, format: state.applyFormat, object: text("live"),
      patch: text("manifest"), last: text("last") };
    if (state.applySide === "server") {
      link.extra = { side: "server", manager: state.applyManager, force: state.applyForce, crd: text("crd") };
    }
    return link;
  },

  // A shared link of this mode: show the mode and its texts (computed once ready).
  fromLink(link) {
    if (FORMATS.includes(link.format)) state.applyFormat = link.format;
    const extra = link.extra ?? {};
    state.applySide = extra.side === "server" ? "server" : "client";
    if (typeof extra.manager === "string") state.applyManager = extra.manager;
    state.applyForce = extra.force === true;
    setEditorText(this.ctx.editors["apply-crd"], typeof extra.crd === "string" ? extra.crd : "");
    $("apply-crd-box").open = Boolean(extra.crd);
    applyInputsPanel.showSide();
    this.ctx.actions.setMode("apply");
    return this.ctx.actions.setApplyInputs(link.object, link.patch, link.last);
  },

  actions(ctx) {
    const scheduler = this.scheduler;
    const compute = () => (state.mode === "apply" || state.apply ? scheduler.compute() : Promise.resolve(null));
    return {
      setApplyInputs(live, manifest, last = "") {
        setEditorText(ctx.editors["apply-live"], live);
        setEditorText(ctx.editors["apply-manifest"], manifest);
        setEditorText(ctx.editors["apply-last"], last);
        applyInputsPanel.showExample(null);
        return scheduler.compute();
      },
      loadApplyExample(id, { compute: now = true } = {}) {
        const example = APPLY_EXAMPLES.find((e) => e.id === id);
        if (!example) return Promise.resolve(state.apply);
        setEditorText(ctx.editors["apply-live"], example.live);
        setEditorText(ctx.editors["apply-manifest"], example.manifest);
        setEditorText(ctx.editors["apply-last"], example.last ?? "");
        setEditorText(ctx.editors["apply-crd"], example.crd ?? "");
        $("apply-crd-box").open = Boolean(example.crd);
        state.applyOverwrite = example.overwrite !== false;
        state.applySide = example.side === "server" ? "server" : "client";
        state.applyManager = example.manager ?? "kubectl";
        state.applyForce = example.force === true;
        applyInputsPanel.showOverwrite();
        applyInputsPanel.showSide();
        applyInputsPanel.showExample(example);
        return now ? scheduler.compute() : Promise.resolve(null);
      },
      setApplyOverwrite(overwrite) {
        state.applyOverwrite = Boolean(overwrite);
        applyInputsPanel.showOverwrite();
        return compute();
      },
      setApplySide(side) {
        if (!SIDES.includes(side)) return Promise.resolve(state.apply);
        state.applySide = side;
        applyInputsPanel.showSide();
        return compute();
      },
      setApplyManager(manager) {
        state.applyManager = String(manager);
        applyInputsPanel.showSide();
        return compute();
      },
      setApplyForce(force) {
        state.applyForce = Boolean(force);
        applyInputsPanel.showSide();
        return compute();
      },
      setApplyCrd(text) {
        setEditorText(ctx.editors["apply-crd"], text);
        if (text) $("apply-crd-box").open = true;
        return compute();
      },
      setApplyFormat(format) {
        if (!FORMATS.includes(format)) return Promise.resolve(state.apply);
        state.applyFormat = format;
        return compute();
      },
      recomputeApply: () => scheduler.compute(),
    };
  },
};
