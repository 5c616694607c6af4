// window.cfgpatch: the page's public hook for scripts, tests and benchmarks
// (docs/web.md lists its members). It only reads the declared state and calls the
// page's actions.

import { EXAMPLES } from "./examples.js";
import { markedProblems } from "./editors.js";
import { state } from "./state.js";
import { applyMode } from "./modes/apply.js";

export function installHook({ ready, actions, scheduler, fragment, editors }) {
  window.cfgpatch = {
    ready: ready.then(() => true),
    // Replace both inputs and recompute; resolves to results() once computed.
    async setInputs(objectText, patchText) {
      await actions.setInputs(objectText, patchText);
      return window.cfgpatch.results();
    },
    // Resolves once the results shown are those of the current inputs.
    async settled() {
      await scheduler.settled();
      if (fragment.pending) await fragment.write();
      return true;
    },
    results() {
      return state.data ? structuredClone(state.data.results) : null;
    },
    // The view drawn for a type (lines, verdict, changes, findings...: bridge views).
    view(type = state.type) {
      return state.data ? structuredClone(state.data.views[type]) : null;
    },
    // The patch mode's CRD field (as kube patch --crd); resolves once computed.
    async setCrd(text) {
      await actions.setCrd(text);
      return true;
    },
    setType: actions.setType,
    setFormat: actions.setFormat,
    setResultView: actions.setResultView,
    get type() {
      return state.type;
    },
    get format() {
      return state.format;
    },
    // The marks in the editors: [{line, column, end, severity, message}] per editor.
    problems() {
      return { object: markedProblems(editors.object), patch: markedProblems(editors.patch) };
    },
    phases: () => state.phases,
    // The shareable URL of the current inputs (waits for the fragment to be written).
    link: () => fragment.link(),
    examples: EXAMPLES.map((e) => ({ ...e })),
    loadExample: actions.loadExample,
    timings() {
      const stages = state.stages;
      return {
        firstResultAt: state.firstResultAt,
        pyodideReadyAt: stages?.pyodide,
        importedAt: stages?.imported,
        lastComputeMs: state.lastComputeMs,
        lastPythonMs: state.lastPythonMs,
        stages: startStages(stages),
      };
    },
    pyodideVersion: __PYODIDE_VERSION__,

    // ---- modes, and the apply mode (docs/web.md)
    setMode: actions.setMode,
    get mode() {
      return state.mode;
    },
    // Replace the apply mode's three inputs and recompute; resolves to applyResult().
    async setApplyInputs(live, manifest, last = "") {
      await actions.setApplyInputs(live, manifest, last);
      return window.cfgpatch.applyResult();
    },
    applyResult() {
      return state.apply ? structuredClone(state.apply) : null;
    },
    // Resolves once the apply answer drawn is that of the current apply inputs.
    async applySettled() {
      await applyMode.scheduler.settled();
      return true;
    },
    setApplyOverwrite: (overwrite) => actions.setApplyOverwrite(overwrite),
    setApplyFormat: (format) => actions.setApplyFormat(format),
    // Server-side apply: the switch, --field-manager, --force-conflicts and the CRD text.
    setApplySide: (side) => actions.setApplySide(side),
    setApplyManager: (manager) => actions.setApplyManager(manager),
    setApplyForce: (force) => actions.setApplyForce(force),
    setApplyCrd: (text) => actions.setApplyCrd(text),
    applyExamples: applyMode.examples.map((e) => ({ ...e })),
    loadApplyExample: (id) => actions.loadApplyExample(id),
  };
}

// The worker's marks and fetches on the page's clock (ms since navigation start).
function startStages(stages) {
  const all = stages?.all;
  if (!all) return null;
  const at = (t) => Math.round(t - performance.timeOrigin);
  const out = {};
  for (const [name, t] of Object.entries(all)) if (typeof t === "number") out[name] = at(t);
  out.resources = (all.resources || []).map((r) => ({ ...r, start: at(r.start), end: at(r.end) }));
  out.page = performance.getEntriesByType("resource").map((e) => ({
    name: e.name.split("/").pop(), start: Math.round(e.startTime), end: Math.round(e.responseEnd),
    bytes: e.encodedBodySize, decoded: e.decodedBodySize,
  }));
  out.firstResult = Math.round(state.firstResultAt ?? NaN);
  out.snapshot = all.snapshot; // "used", "none" or why it failed
  return out;
}
