// The "write the patch" mode: the object as it is and the object as wanted; the page
// gives the patch of each type that turns one into the other (cfgpatch.web.wantmode,
// bridge.want_json in the worker): the strategic two-way patch as kubectl edit computes
// it, the merge patch, and a JSON patch with test guards on list positions, each with
// its kubectl patch command line and whether applying it back gives the wanted object.

import { $, announce, el, kids, rich, setText, show } from "../dom.js";
import { editorText, makeEditor, markProblems, setEditorText } from "../editors.js";
import { Scheduler } from "../scheduler.js";
import { state } from "../state.js";
import { copyText } from "../clipboard.js";
import EXAMPLE from "../want-example.json";

const TYPES = ["strategic", "merge", "json"];
const WHICH = ["object", "wanted"];
const LABELS = { object: "The object as it is, YAML or JSON", wanted: "The object as you want it, YAML or JSON" };

function pretty(text) {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function patchBlock(type, made) {
  if (!made.ok) {
    return el("section", { class: "want-patch", "data-type": type },
      el("h3", {}, el("code", {}, `--type=${type}`)),
      el("p", { class: "want-none" }, rich(made.plain)));
  }
  const copy = el("button", { type: "button", class: "button small" }, "Copy the command");
  copy.addEventListener("click", () => copyText(made.command, copy));
  return el("section", { class: "want-patch", "data-type": type },
    el("h3", {}, el("code", {}, `--type=${type}`)),
    el("p", { class: "muted" }, rich(made.note)),
    el("pre", { class: "code want-text", tabindex: "0", "aria-label": `The ${type} patch` }, pretty(made.text)),
    el("p", { class: `want-check ${made.verified ? "ok" : "failed"}` },
      made.verified ? "\u2713 " : "\u2717 ", made.check),
    el("div", { class: "command-row" },
      el("pre", { class: "command", tabindex: "0", "aria-label": `kubectl patch --type=${type}` }, made.command), copy));
}

function draw(data, editors) {
  for (const which of WHICH) {
    const error = data.inputs?.[which];
    const box = $(`want-${which}-error`);
    if (error) {
      box.replaceChildren(...kids(el("p", { class: "plain" }, rich(error.plain)),
        error.kubectl ? el("p", { class: "kubectl" }, "kubectl: ", el("code", {}, error.kubectl)) : null));
    }
    show(box, Boolean(error));
    markProblems(editors[`want-${which}`], error?.line ? [{ ...error, severity: "error", message: error.plain }] : []);
  }
  const verdict = $("want-verdict");
  const unreadable = WHICH.filter((w) => data.inputs?.[w]);
  const said = data.internal ?? (unreadable.length
    ? `The ${unreadable[0] === "object" ? "object" : "wanted object"} cannot be read: see below its editor.`
    : data.verdict ?? "");
  verdict.className = `verdict ${data.ok ? "ok" : "failed"}`;
  verdict.replaceChildren(...rich(said));
  const list = $("want-patches");
  list.replaceChildren(...(data.ok ? TYPES.map((type) => patchBlock(type, data.patches[type])) : []));
  if (!data.ok && said) announce(said);
}

export const wantMode = {
  id: "want",
  scheduler: null,
  mount(ctx, failed, drawn = () => {}) {
    this.ctx = ctx;
    const onEdit = () => {
      setText($("want-example-note"), "");
      if (state.mode === "want") this.scheduler.schedule();
    };
    const onRun = () => this.scheduler.compute();
    for (const which of WHICH) {
      ctx.editors[`want-${which}`] = makeEditor($(`want-${which}-editor`), LABELS[which], { onEdit, onRun });
    }
    this.scheduler = new Scheduler({
      read: () => ({ object: editorText(ctx.editors["want-object"]), wanted: editorText(ctx.editors["want-wanted"]) }),
      options: () => ({}),
      ask: (engine, want) => engine.call("want_json", { object: want.object, wanted: want.wanted }),
      keep: (data) => (state.want = data),
      draw: (data) => {
        draw(data, ctx.editors);
        drawn();
      },
      failed,
    });
    $("want-example").addEventListener("click", () => this.loadExample());
    const share = $("want-share");
    share.addEventListener("click", async () => copyText(await ctx.actions.link(), share));
    this.loadExample({ compute: false });
    Object.assign(ctx.actions, {
      setWantInputs: (object, wanted) => {
        setEditorText(ctx.editors["want-object"], object);
        setEditorText(ctx.editors["want-wanted"], wanted);
        setText($("want-example-note"), "");
        return this.scheduler.compute();
      },
    });
  },
  loadExample({ compute = true } = {}) {
    setEditorText(this.ctx.editors["want-object"], EXAMPLE.object);
    setEditorText(this.ctx.editors["want-wanted"], EXAMPLE.wanted);
    setText($("want-example-note"), EXAMPLE.note);
    return compute ? this.scheduler.compute() : Promise.resolve(null);
  },
  ready(engine) {
    this.scheduler.engine = engine;
    return state.mode === "want" ? this.scheduler.compute() : Promise.resolve(null);
  },
  shown() {
    if (!this.scheduler.engine) return Promise.resolve(null);
    return state.want ? this.scheduler.settled() : this.scheduler.compute();
  },
  linkState() {
    return { mode: "want", type: state.type, format: state.format,
      object: editorText(this.ctx.editors["want-object"]), patch: editorText(this.ctx.editors["want-wanted"]), last: "" };
  },
  fromLink(link) {
    this.ctx.actions.setMode("want");
    return this.ctx.actions.setWantInputs(link.object, link.patch);
  },
  // window.cfgpatch.want
  hook() {
    return {
      setInputs: async (object, wanted) => {
        await this.ctx.actions.setWantInputs(object, wanted);
        return state.want ? structuredClone(state.want) : null;
      },
      result: () => (state.want ? structuredClone(state.want) : null),
      // The two editors' texts, as they are now.
      texts: () => ({ object: editorText(this.ctx.editors["want-object"]), wanted: editorText(this.ctx.editors["want-wanted"]) }),
      settled: async () => {
        await this.scheduler.settled();
        return true;
      },
      loadExample: () => this.loadExample(),
    };
  },
};
