// The page's state, declared in one place. The object is sealed: a module that assigns
// a field not declared here fails loudly instead of growing the state behind our back.

export const TYPES = ["strategic", "merge", "json"];
export const FORMATS = ["yaml", "json"];
export const RESULT_VIEWS = ["result", "before-after"];
export const MODES = ["patch", "apply", "lint", "want"]; // the question the page answers (docs/web.md)
export const SIDES = ["client", "server"]; // the apply mode's two applies

export const state = Object.seal({
  // what the reader chose
  type: "strategic", // the --type shown in the result, changes and command panels
  format: "yaml", // the result printed as kubectl -o yaml or -o json
  resultView: "result", // the result alone, or before/after with removed lines
  wholeObjects: false, // side-by-side columns unfolded
  kustomizeOpen: false, // the kustomize panel is open (its result is then computed)
  exampleId: "", // the example in the editors, "" once they were edited

  // what the engine answered
  data: null, // the bridge's last reply (cfgpatch.web.bridge.compute), null before the first
  computing: false, // a computation is running in the worker
  engineFailed: null, // why the engine could not start, or null

  // measurements (window.cfgpatch.timings())
  stages: null, // the worker's start-up marks and fetches
  firstResultAt: null, // ms since navigation
  lastComputeMs: 0, // asking the worker until drawn
  lastPythonMs: 0, // the bridge call in the worker
  phases: null, // ms per panel of the last redraw

  // ---- the mode, and the apply mode's own state (modes/apply.js)
  mode: "patch", // one of MODES
  apply: null, // the bridge's last apply_json reply, null before the first
  applyFormat: "yaml", // the apply result printed as -o yaml or -o json
  applyOverwrite: true, // false: kubectl apply --overwrite=false
  applyExampleId: "", // the apply example in its editors, "" once edited
  applySide: "client", // "client": kubectl apply; "server": kubectl apply --server-side
  applyManager: "kubectl", // --field-manager (server-side)
  applyForce: false, // --force-conflicts (server-side)

  // ---- the lint mode (modes/lint.js)
  lintFiles: [], // [{path, text}] in the order listed
  lintCurrent: -1, // the index of the file in the editor, -1 for none
  lintSkipped: [], // files a folder held that were not read: [{path, reason}]
  lintData: null, // cfgpatch.web.lintmode.lint_view's last reply
  lintMs: 0, // the last lint call in the worker

  // ---- the write-the-patch mode (modes/want.js)
  want: null, // cfgpatch.web.wantmode.compute_want's last reply
});

// What the bridge is asked for besides the results (see bridge.compute's options).
export function bridgeOptions() {
  return {
    format: state.format,
    diff: state.resultView === "before-after",
    kustomize: state.kustomizeOpen,
  };
}
