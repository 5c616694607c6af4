// The Kubernetes patch tester page. The Python engine (cfgpatch.kube, through
// cfgpatch.web.bridge) runs in this tab under Pyodide, in a Web Worker (worker.js);
// after the page has loaded, editing and recomputing make no network request.
//
// This module wires the parts together: the declared state (state.js), the editors,
// the scheduler that decides when to compute, the URL fragment, the panels (one module
// each under panels/, all drawing what the bridge computed), and window.cfgpatch.
// A panel is {mount(ctx)?, render(data, ctx)?}; docs/web.md says how a mode (a new set
// of inputs and panels, such as lint or apply) plugs in.

import { $, rich, show } from "./dom.js";
import { Engine } from "./engine.js";
import { EXAMPLES } from "./examples.js";
import { editorText, makeEditor, setEditorText } from "./editors.js";
import { Fragment } from "./fragment.js";
import { installHook } from "./hook.js";
import { Scheduler } from "./scheduler.js";
import { FORMATS, MODES, RESULT_VIEWS, TYPES, bridgeOptions, state } from "./state.js";
import { applyMode } from "./modes/apply.js";
import { changesPanel } from "./panels/changes.js";
import { commandPanel } from "./panels/command.js";
import { comparePanel } from "./panels/compare.js";
import { inputsPanel } from "./panels/inputs.js";
import { kustomizePanel } from "./panels/kustomize.js";
import { resultPanel } from "./panels/result.js";
import { statusPanel } from "./panels/status.js";
import { toolbarPanel } from "./panels/toolbar.js";
import { installLintHook, lintMode } from "./modes/lint.js"; // the lint mode
import { wantMode } from "./modes/want.js"; // the write-the-patch mode

// Drawn in this order on every result; each reads state.data and the declared state.
const PANELS = [toolbarPanel, inputsPanel, resultPanel, changesPanel, comparePanel,
  commandPanel, kustomizePanel];

const ctx = { editors: {}, actions: {}, afterDraw: [] };

function draw() {
  const data = state.data;
  if (!data) return;
  ctx.afterDraw = [];
  const phases = {};
  for (const panel of PANELS) {
    if (!panel.render) continue;
    const started = performance.now();
    panel.render(data, ctx);
    phases[PANELS.indexOf(panel)] = performance.now() - started;
  }
  for (const task of ctx.afterDraw) task(); // layout is read once, after every write
  state.phases = Object.values(phases);
  fragment.schedule();
}

const scheduler = new Scheduler({
  read: () => ({ object: editorText(ctx.editors.object), patch: editorText(ctx.editors.patch) }),
  // the CRD field (optional): a custom resource's list keys, as kube patch --crd
  options: () => ({ ...bridgeOptions(), crd: ctx.editors.crd ? editorText(ctx.editors.crd) : "" }),
  draw,
  failed: (error) => statusPanel.failed(`The engine failed: ${error.message}`),
});

const fragment = new Fragment({
  current: () => (state.mode === "apply" ? applyMode.linkState()
    : state.mode === "lint" ? lintMode.linkState()
    : state.mode === "want" ? wantMode.linkState()
      : { type: state.type, format: state.format, ...scheduler.read(), ...crdLink() }),
  apply: (link) => {
    if (link.mode === "apply") return applyMode.fromLink(link); // ---- the apply mode's link
    if (link.mode === "want") return wantMode.fromLink(link); // ---- the write-the-patch mode's
    if (link.mode === "lint") { // ---- the lint mode's link: its files, then the mode shown
      const linted = lintMode.fromLink(link);
      actions.setMode("lint");
      return linted;
    }
    if (state.mode !== "patch") actions.setMode("patch");
    toolbarPanel.showExample(null);
    if (FORMATS.includes(link.format)) state.format = link.format;
    setCrd(typeof link.extra?.crd === "string" ? link.extra.crd : "");
    return actions.setInputs(link.object, link.patch, TYPES.includes(link.type) ? link.type : "strategic");
  },
});

const actions = {
  setType(type) {
    if (!TYPES.includes(type)) return;
    state.type = type;
    toolbarPanel.showType();
    if (state.data) draw();
    else resultPanel.waiting();
  },
  setFormat(format) {
    if (!FORMATS.includes(format) || format === state.format) return;
    state.format = format;
    scheduler.compute();
  },
  setResultView(view) {
    if (!RESULT_VIEWS.includes(view)) return;
    state.resultView = view;
    if (view === "before-after" && state.data && !state.data.views[state.type].before_after
        && state.data.results[state.type].ok) scheduler.compute();
    else draw();
  },
  toggleWholeObjects() {
    state.wholeObjects = !state.wholeObjects;
    draw();
  },
  // Replace both inputs (and the type); a promise of the data once computed.
  setInputs(objectText, patchText, type) {
    setEditorText(ctx.editors.object, objectText);
    setEditorText(ctx.editors.patch, patchText);
    toolbarPanel.showExample(null);
    if (type) actions.setType(type);
    return scheduler.compute();
  },
  loadExample(id) {
    const example = EXAMPLES.find((e) => e.id === id);
    if (!example) return Promise.resolve(state.data);
    setCrd(example.crd ?? "");
    const done = actions.setInputs(example.object, example.patch, example.type);
    toolbarPanel.showExample(example);
    return done;
  },
  link: () => fragment.link(),
  recompute: () => scheduler.compute(),
  setCrd(text) {
    setCrd(text);
    return scheduler.compute();
  },
  // ---- modes: show one mode's inputs and panels, hide the others'
  setMode(mode) {
    if (!MODES.includes(mode)) return Promise.resolve(null);
    state.mode = mode;
    for (const radio of document.querySelectorAll('input[name="mode"]')) radio.checked = radio.value === mode;
    for (const block of document.querySelectorAll("main > [data-mode]")) block.hidden = block.dataset.mode !== mode;
    for (const lede of document.querySelectorAll("[data-lede]")) lede.hidden = lede.dataset.lede !== mode;
    fragment.schedule(); // the link holds the mode shown
    if (mode === "apply") return applyMode.shown();
    if (mode === "lint") return lintMode.shown();
    if (mode === "want") return wantMode.shown();
    return scheduler.settled();
  },
  // Put the cursor at a place in an editor (1-based line and column).
  showInEditor(which, place) {
    const view = ctx.editors[which];
    const line = view.state.doc.line(Math.min(place.line, view.state.doc.lines));
    const at = Math.min(line.from + place.column - 1, line.to);
    view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    view.focus();
  },
};
ctx.actions = actions;

// The patch mode's CRD field: its text (opened when it holds one), and in a link.
function setCrd(text) {
  if (!ctx.editors.crd) return;
  setEditorText(ctx.editors.crd, text);
  if (text) $("crd-box").open = true;
}

function crdLink() {
  const crd = ctx.editors.crd ? editorText(ctx.editors.crd) : "";
  return crd ? { extra: { crd } } : {};
}

function edited() {
  toolbarPanel.showExample(null); // the example's note no longer describes the inputs
  Fragment.clearProblem();
  scheduler.schedule();
}

function wireKeys() {
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      if (state.mode === "apply") applyMode.scheduler.compute();
      else if (state.mode === "want") wantMode.scheduler.compute();
      else scheduler.compute();
    } else if (state.mode === "patch" && event.altKey && ["1", "2", "3"].includes(event.key)) {
      event.preventDefault();
      actions.setType(TYPES[Number(event.key) - 1]);
    }
  });
}

async function start() {
  const engine = new Engine((progress) => statusPanel.progress(progress)); // fetching first
  const editorOptions = { onEdit: edited, onRun: () => scheduler.compute() };
  // How each type treats the list field on a line of the object (cfgpatch.web.listrules).
  const listAt = (line) => (state.data?.lists ?? []).find((entry) => entry.line === line);
  ctx.editors.object = makeEditor($("object-editor"), "Object, YAML or JSON", { ...editorOptions,
    lineText: (line) => (listAt(line)?.text ?? "").replace(/`/g, ""),
    onCursor: (line, focused) => {
      const entry = focused ? listAt(line) : null;
      const note = $("object-list-note");
      note.replaceChildren(...(entry ? rich(entry.text) : []));
      show(note, Boolean(entry));
    } });
  ctx.editors.patch = makeEditor($("patch-editor"), "Patch, YAML or JSON", editorOptions);
  ctx.editors.crd = makeEditor($("crd-editor"), "CustomResourceDefinition, YAML or JSON (optional)", editorOptions);
  for (const panel of PANELS) panel.mount?.(ctx);
  // ---- the apply mode (modes/apply.js) and the mode switch
  applyMode.mount(ctx, (error) => statusPanel.failed(`The engine failed: ${error.message}`),
    () => fragment.schedule());
  for (const radio of document.querySelectorAll('input[name="mode"]')) {
    radio.addEventListener("change", () => radio.checked && actions.setMode(radio.value));
  }
  // ---- the lint mode (modes/lint.js)
  lintMode.mount({ onDrawn: () => fragment.schedule(), link: () => fragment.link() });
  // ---- the write-the-patch mode (modes/want.js)
  wantMode.mount(ctx, (error) => statusPanel.failed(`The engine failed: ${error.message}`),
    () => fragment.schedule());
  wireKeys();
  // The inputs show at once (from a shared link, or the first example); they are
  // computed when the engine is ready.
  const link = Fragment.holdsLink() ? await fragment.read("The first example is shown instead.") : null;
  if (link !== "applied" || state.mode !== "patch") actions.loadExample(EXAMPLES[0].id);
  resultPanel.waiting();
  try {
    const stages = await engine.ready;
    state.stages = { pyodide: stages.pyodideAt - performance.timeOrigin,
      imported: stages.importedAt - performance.timeOrigin, all: stages };
  } catch (error) {
    state.engineFailed = error.message;
    statusPanel.failed(`The Python engine could not be loaded: ${error.message}`);
    throw error;
  }
  scheduler.engine = engine;
  await scheduler.compute(); // whatever the editors hold now, edits made while loading included
  await applyMode.ready(engine); // computes only when the apply mode is shown
  lintMode.start(engine); // the lint mode computes once shown (or asked through the hook)
  await wantMode.ready(engine); // computes only when the write-the-patch mode is shown
  state.firstResultAt = performance.now(); // since navigation start
  statusPanel.ready();
  document.body.dataset.ready = "true";
}

const ready = start();
installHook({ ready, actions, scheduler, fragment, editors: ctx.editors });
installLintHook(); // window.cfgpatch.lint
window.cfgpatch.want = wantMode.hook(); // window.cfgpatch.want
