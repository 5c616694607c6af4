// The lint mode: `cfgpatch lint` on a kustomization and its files, in this tab.
//
// The reader lists files (a path and a text each: typed, pasted, chosen with a file or
// folder picker, or dropped), one file at a time is in the editor; every edit lints
// all of them again (cfgpatch.web.lintmode.lint_json in the engine worker: lint's own
// resolution on the texts in memory, nothing uploaded). The findings are drawn grouped
// by file with their line, rule, level, message, the quoted line and the help text; a
// finding's place (or a related place) opens that file in the editor at that line.
// Every word about the findings comes from Python; this module only draws them.

import { $, announce, el, setText, show, rich } from "../dom.js";
import { editorText, makeEditor, markedProblems, markProblems, setEditorText } from "../editors.js";
import { state } from "../state.js";
import EXAMPLE from "../lint-example.json";
import { droppedEntries, readFileList } from "./lintfiles.js";
import { copyText } from "../clipboard.js";

const DELAY_MS = 250;
const EDITOR_SEVERITY = { error: "error", warning: "warning", note: "info" };

let engine = null;
let editor = null;
const run = { timer: null, serial: 0, done: 0, running: null, reading: null, openFinding: false };
const items = []; // the file list's rows: {row, path, edit, problem}
let drawn = () => {}; // told after each draw (main.js writes the URL fragment then)

// ---------------------------------------------------------------- computing

function schedule() {
  clearTimeout(run.timer);
  run.timer = setTimeout(compute, DELAY_MS);
}

function compute() {
  clearTimeout(run.timer);
  run.timer = null;
  run.serial += 1;
  if (!engine) return Promise.resolve(null);
  if (!run.running) run.running = catchUp().finally(() => (run.running = null));
  return run.running;
}

// Resolves once what is drawn is the lint of the current files (files still being read
// from a folder or a drop included).
async function settled() {
  while (run.reading) await run.reading;
  if (run.timer) return compute();
  return run.running ?? state.lintData;
}

// Files being read from disk: settled() waits for them.
function reading(promise) {
  const done = promise.finally(() => {
    if (run.reading === done) run.reading = null;
  });
  run.reading = done;
  return done;
}

async function catchUp() {
  while (run.done !== run.serial) {
    const serial = run.serial;
    const files = JSON.stringify(state.lintFiles.map(({ path, text }) => ({ path, text })));
    const options = JSON.stringify({ skipped: state.lintSkipped });
    let reply;
    try {
      reply = await engine.call("lint_json", { files, options });
    } catch (error) {
      run.done = serial;
      setVerdict("failed", `The engine failed: ${error.message}`);
      continue;
    }
    run.done = serial;
    if (run.serial !== serial) continue; // edited meanwhile: lint again
    state.lintMs = reply.pythonMs;
    state.lintData = JSON.parse(reply.json);
    draw();
  }
  return state.lintData;
}

// ---------------------------------------------------------------- the files

function setFiles(files, skipped = []) {
  state.lintFiles = files.map(({ path, text }) => ({ path: String(path ?? ""), text: String(text ?? "") }));
  state.lintSkipped = skipped;
  state.lintCurrent = state.lintFiles.length ? 0 : -1;
  const kustomization = state.lintFiles.findIndex((f) => /(^|\/)(kustomization\.ya?ml|Kustomization)$/.test(f.path));
  if (kustomization >= 0) state.lintCurrent = kustomization;
  run.openFinding = true; // once linted, open the file of the first finding
  drawList();
  openFile(state.lintCurrent);
  return compute();
}

function addFile() {
  state.lintFiles.push({ path: "", text: "" });
  drawList();
  openFile(state.lintFiles.length - 1);
  items.at(-1).path.focus();
  schedule();
}

function removeFile(index) {
  state.lintFiles.splice(index, 1);
  if (state.lintCurrent >= state.lintFiles.length) state.lintCurrent = state.lintFiles.length - 1;
  drawList();
  openFile(state.lintCurrent);
  schedule();
}

// Merge files read from disk into the list: a folder replaces the list, files chosen
// one by one are added (replacing those with the same path).
function merged(read, replace) {
  if (replace) return setFiles(read.files, read.skipped);
  const files = [...state.lintFiles];
  for (const file of read.files) {
    const at = files.findIndex((f) => f.path === file.path);
    if (at >= 0) files[at] = file;
    else files.push(file);
  }
  return setFiles(files, [...state.lintSkipped, ...read.skipped]);
}

function openFile(index) {
  state.lintCurrent = index;
  const file = state.lintFiles[index];
  show($("lint-editor-box"), Boolean(file));
  show($("lint-no-file"), !file);
  for (const [i, item] of items.entries()) {
    item.edit.setAttribute("aria-pressed", String(i === index));
    item.row.classList.toggle("current", i === index);
  }
  if (!file) return;
  setText($("lint-current-path"), file.path || `file ${index + 1}`);
  setEditorText(editor, file.text);
  markFindings();
}

function drawList() {
  const list = $("lint-file-list");
  items.length = 0;
  list.replaceChildren(...state.lintFiles.map((file, index) => {
    const path = el("input", { type: "text", class: "lint-path", value: file.path, spellcheck: "false",
      "aria-label": `Path of file ${index + 1}`, placeholder: "path/in/the/folder.yaml",
      oninput: () => {
        state.lintFiles[index].path = path.value;
        if (index === state.lintCurrent) setText($("lint-current-path"), path.value || `file ${index + 1}`);
        schedule();
      } });
    const edit = el("button", { type: "button", class: "button small", "aria-pressed": "false",
      "aria-label": `Edit file ${index + 1}`, onclick: () => openFile(index) }, "Edit");
    const remove = el("button", { type: "button", class: "button small",
      "aria-label": `Remove file ${index + 1}`, onclick: () => removeFile(index) }, "Remove");
    const problem = el("span", { class: "file-problem", "aria-live": "polite" });
    const count = el("span", { class: "file-count" });
    const row = el("li", { class: "file-item", "data-index": index }, path, edit, remove, count, problem);
    items.push({ row, path, edit, problem, count });
    return row;
  }));
  setText($("lint-file-count"), String(state.lintFiles.length));
}

// ---------------------------------------------------------------- drawing

function setVerdict(tone, text) {
  const verdict = $("lint-verdict");
  verdict.className = `verdict ${tone}`;
  setText(verdict, text);
}

// The path of file `index` as lint knows it: "./a//b.yaml" is "a/b.yaml" (the same
// rule as cfgpatch.lint.config.normal_path, which lintmode applies).
function lintPath(index) {
  const path = state.lintFiles[index]?.path ?? "";
  return path.replace(/\\/g, "/").split("/").filter((p) => p && p !== ".").join("/");
}

const indexOfPath = (path) => state.lintFiles.findIndex((_, i) => lintPath(i) === path);

function findingsOf(path) {
  const data = state.lintData;
  return data?.files?.find((group) => group.path === path)?.findings ?? [];
}

function markFindings() {
  const file = state.lintFiles[state.lintCurrent];
  if (!file || !editor) return;
  const path = lintPath(state.lintCurrent);
  const marks = findingsOf(path).map((f) => ({ line: f.place.line, column: f.place.column,
    end_line: f.place.end_line, end_column: f.place.end_column,
    severity: EDITOR_SEVERITY[f.level] ?? "warning", message: `${f.rule}: ${f.message}` }));
  const error = state.lintData?.error;
  if (error?.file === path && error.line) {
    marks.push({ line: error.line, column: error.column ?? 1, severity: "error", message: error.plain });
  }
  markProblems(editor, marks);
}

function placeButton(place, text) {
  return el("button", { type: "button", class: "link place", onclick: () => jump(place),
    title: `Open ${place.file} at line ${place.line}` }, text ?? place.label);
}

function findingItem(finding) {
  const quote = finding.quote === null || finding.quote === undefined ? null
    : el("pre", { class: "quote", tabindex: "0", "aria-label": `Line ${finding.place.line} of ${finding.file ?? "the file"}` }, el("span", { class: "quote-line" }, `${finding.place.line} |`), " ",
      finding.quote);
  return el("li", { class: `finding lint-finding sev-${EDITOR_SEVERITY[finding.level] ?? "warning"}`,
    "data-rule": finding.rule, "data-line": finding.place.line },
  el("div", { class: "finding-head" },
    placeButton(finding.place, `${finding.place.line}:${finding.place.column}`), " ",
    el("span", { class: "severity" }, finding.level), " ",
    el("span", { class: "badge" }, finding.rule)),
  el("div", { class: "message" }, finding.message),
  quote,
  finding.explain ? el("p", { class: "explain" }, rich(finding.explain)) : null,
  el("p", { class: "help" }, rich(finding.help)),
  finding.related.length ? el("ul", { class: "related" }, finding.related.map((place) =>
    el("li", {}, "also ", placeButton(place), place.message ? `: ${place.message}` : ""))) : null);
}

function draw() {
  const data = state.lintData;
  if (!data) return;
  if (data.internal) {
    setVerdict("failed", data.internal);
    return;
  }
  setVerdict(data.tone, data.verdict);
  setText($("lint-summary"), data.summary);
  setText($("lint-skipped"), data.skipped ?? "");
  const error = $("lint-error");
  show(error, Boolean(data.error));
  error.replaceChildren(...(data.error ? [el("p", { class: "plain" }, data.error.plain),
    data.error.file && data.error.line ? el("p", {}, placeButton({ file: data.error.file,
      line: data.error.line, column: data.error.column ?? 1,
      label: `${data.error.file}:${data.error.line}` })) : null] : []));
  for (const [index, item] of items.entries()) {
    const entry = data.inputs[index];
    setText(item.problem, entry?.problem ?? "");
    item.path.toggleAttribute("aria-invalid", Boolean(entry?.problem));
    const group = data.files.find((g) => g.path === entry?.path);
    setText(item.count, group ? group.counts : "");
  }
  $("lint-groups").replaceChildren(...data.files.map((group) =>
    el("section", { class: "lint-file", "data-file": group.path },
      el("h3", {}, placeButton({ file: group.path, line: group.findings[0].place.line,
        column: group.findings[0].place.column, label: group.path }), " ",
      el("span", { class: "muted" }, group.counts)),
      el("ol", { class: "findings" }, group.findings.map(findingItem)))));
  if (run.openFinding && data.files.length) {
    const index = indexOfPath(data.files[0].path);
    if (index >= 0 && index !== state.lintCurrent) openFile(index);
  }
  run.openFinding = false;
  markFindings();
  if (data.verdict !== draw.said) announce(data.verdict);
  draw.said = data.verdict;
  drawn();
}

// Open a file at a place (1-based line and column) and put the cursor there.
function jump(place) {
  const index = indexOfPath(place.file);
  if (index < 0) return false;
  openFile(index);
  const doc = editor.state.doc;
  const line = doc.line(Math.min(Math.max(place.line, 1), doc.lines));
  const at = Math.min(line.from + (place.column ?? 1) - 1, line.to);
  editor.dispatch({ selection: { anchor: at }, scrollIntoView: true });
  $("lint-editor-box").scrollIntoView({ block: "nearest" });
  editor.focus();
  return true;
}

// ---------------------------------------------------------------- mounting

function wireInputs() {
  $("lint-add").addEventListener("click", addFile);
  $("lint-example").addEventListener("click", () => setFiles(EXAMPLE.files));
  $("lint-clear").addEventListener("click", () => setFiles([]));
  const folder = $("lint-folder");
  folder.addEventListener("change", () => reading((async () => {
    await merged(await readFileList(folder.files), true);
    folder.value = "";
  })()));
  const picked = $("lint-pick");
  picked.addEventListener("change", () => reading((async () => {
    await merged(await readFileList(picked.files), false);
    picked.value = "";
  })()));
  // The whole mode takes drops (a file dropped next to the zone must not make the
  // browser open it instead of the page); the zone shows where.
  const zone = $("lint-drop");
  const area = $("mode-lint");
  for (const name of ["dragenter", "dragover"]) {
    area.addEventListener(name, (event) => {
      event.preventDefault();
      zone.classList.add("over");
    });
  }
  area.addEventListener("dragleave", (event) => {
    if (!area.contains(event.relatedTarget)) zone.classList.remove("over");
  });
  area.addEventListener("drop", (event) => {
    if (event.target.closest?.("#lint-editor")) return; // the editor inserts the text itself
    event.preventDefault();
    zone.classList.remove("over");
    const read = droppedEntries(event.dataTransfer); // taken before the first await
    reading(read().then((files) => merged(files, files.folder)));
  });
}

export const lintMode = {
  id: "lint",
  // `onDrawn` is called after each draw; `link()` gives the shareable URL of the inputs.
  mount({ onDrawn = () => {}, link = null } = {}) {
    drawn = onDrawn;
    const share = $("lint-share");
    share.addEventListener("click", async () => copyText(await link(), share));
    editor = makeEditor($("lint-editor"), "The file's text", {
      onEdit: () => {
        const file = state.lintFiles[state.lintCurrent];
        if (file) file.text = editorText(editor);
        schedule();
      },
      onRun: () => compute(),
    });
    wireInputs();
    setText($("lint-example-note"), EXAMPLE.note);
    setFiles(EXAMPLE.files);
    run.serial = 0; // the example is linted when the mode is first shown
  },
  // Called once the engine is ready: lint what the list holds if the mode is shown
  // (edits made before are linted then).
  start(readyEngine) {
    engine = readyEngine;
    return state.mode === "lint" || run.serial > run.done ? compute() : Promise.resolve(null);
  },
  // What a shared link of this mode holds (share.js): the files, paths and texts.
  linkState() {
    return { mode: "lint", type: state.type, format: state.format,
      files: state.lintFiles.map(({ path, text }) => ({ path, text })) };
  },
  // A shared link of this mode: its files replace the list (linted once the engine is
  // ready); the caller shows the mode.
  fromLink(link) {
    return setFiles(link.files);
  },
  // Called by the mode switch (main.js actions.setMode); resolves like settled().
  shown() {
    if (state.lintData && run.serial === run.done) {
      draw();
      return Promise.resolve(state.lintData);
    }
    return compute();
  },
};

// window.cfgpatch.lint (docs/web.md); window.cfgpatch.setMode("lint") shows the mode.
export function installLintHook() {
  window.cfgpatch.lint = {
    // Replace the list of files ([{path, text}]) and lint them; resolves to results().
    async setFiles(files) {
      await setFiles(files);
      await settled();
      return window.cfgpatch.lint.results();
    },
    settled: () => settled().then(() => true),
    // The --format json document of the last lint (null before the first).
    results: () => (state.lintData?.report ? structuredClone(state.lintData.report) : null),
    // What is drawn: lintmode.lint_view's reply.
    view: () => (state.lintData ? structuredClone(state.lintData) : null),
    files: () => state.lintFiles.map((f) => ({ ...f })),
    // The file in the editor and its marks ({line, column, end, severity, message}).
    current: () => ({ path: state.lintFiles[state.lintCurrent]?.path ?? null,
      cursor: editor ? cursorOf(editor) : null, problems: editor ? markedProblems(editor) : [] }),
    jump,
    lastPythonMs: () => state.lintMs,
  };
}

function cursorOf(view) {
  const head = view.state.selection.main.head;
  const line = view.state.doc.lineAt(head);
  return { line: line.number, column: head - line.from + 1 };
}
