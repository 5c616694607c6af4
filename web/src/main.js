// The Kubernetes patch tester page. The Python engine (cfgpatch.kube, through
// cfgpatch.web.bridge) runs in this tab under Pyodide, in a Web Worker (worker.js);
// after the page has loaded, editing and recomputing make no network request.

import { EditorView, basicSetup } from "codemirror";
import { yaml } from "@codemirror/lang-yaml";
import { Engine } from "./engine.js";
import { EXAMPLES } from "./examples.js";
import { decodeState, encodeState } from "./share.js";

const TYPES = ["strategic", "merge", "json"];
const TYPE_LABEL = { strategic: "strategic", merge: "merge", json: "json" };
const LANDING_SYMBOL = { kept: "=", merged: "~", changed: "~", inserted: "+", removed: "\u2212" };
const RECOMPUTE_DELAY_MS = 120;

const $ = (id) => document.getElementById(id);
const page = {
  type: "strategic", data: null, engine: null, timer: null, editors: {}, stages: {},
  want: null, serial: 0, doneSerial: 0, running: null,
};

// ---------- small DOM helpers ----------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function short(value, limit = 60) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length <= limit ? text : text.slice(0, limit - 3) + "...";
}

function elementName(item) {
  if (item && typeof item === "object" && !Array.isArray(item) && typeof item.name === "string") {
    return item.name;
  }
  return short(item);
}

function under(pointer, prefix) {
  return pointer === prefix || pointer.startsWith(prefix + "/") || prefix === "";
}

function findingPointer(finding) {
  return finding.pointer ?? finding.path ?? null;
}

// ---------- editors ----------

function makeEditor(parent, label, onChange) {
  return new EditorView({
    parent,
    doc: "",
    extensions: [
      basicSetup,
      yaml(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && !page.settingInputs) onChange();
      }),
    ],
  });
}

// Replace an editor's text by changing only the part that differs, as typing would: a
// small edit stays a small change for CodeMirror (and the cursor stays where it was).
function setEditorText(view, text) {
  const old = view.state.doc.toString();
  if (old === text) return;
  let start = 0;
  const shorter = Math.min(old.length, text.length);
  while (start < shorter && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start
    && old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
  view.dispatch({
    changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) },
  });
}

function editorText(view) {
  return view.state.doc.toString();
}

// ---------- computing ----------

// Ask for the current inputs to be computed. Only the newest inputs matter: while the
// worker is busy, later edits replace each other and are sent when it is free, and a
// result is drawn only if the inputs have not changed since. Resolves to the data
// drawn once the worker has caught up.
function compute() {
  clearTimeout(page.timer);
  page.timer = null;
  page.want = {
    object: editorText(page.editors.object),
    patch: editorText(page.editors.patch),
    serial: ++page.serial,
  };
  if (!page.engine) return Promise.resolve(null);
  if (!page.running) page.running = catchUp().finally(() => (page.running = null));
  return page.running;
}

async function catchUp() {
  while (page.want.serial !== page.doneSerial) {
    const want = page.want;
    const started = performance.now();
    let reply;
    try {
      reply = await page.engine.compute(want.object, want.patch);
    } catch (error) {
      showStatus(`The engine failed: ${error.message}`, "failed");
      page.doneSerial = want.serial;
      continue;
    }
    page.doneSerial = want.serial;
    if (page.want.serial !== want.serial) continue; // edited meanwhile: compute again
    page.lastPythonMs = reply.pythonMs;
    page.data = JSON.parse(reply.json);
    render();
    page.lastComputeMs = performance.now() - started;
    scheduleFragment();
  }
  return page.data;
}

// Resolves once nothing is waiting to be computed (a pending pause after typing is cut short).
function settled() {
  if (page.timer) return compute();
  return page.running ?? Promise.resolve(page.data);
}

function showStatus(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`;
}

function scheduleCompute() {
  $("example").value = ""; // edited: no longer the example (choosing it again reloads it)
  clearTimeout(page.timer);
  // wait longer after typing when computing is slow (a big YAML object), so that the
  // recompute does not keep interrupting someone who is still typing
  const delay = Math.max(RECOMPUTE_DELAY_MS, 2 * (page.lastComputeMs || 0));
  page.timer = setTimeout(compute, delay);
}

// ---------- rendering ----------

const HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]);

// One <pre> holding a result. Unmarked lines are plain text (two columns of gutter, then
// the line), so that a 600-line object costs the browser a text node rather than 600
// boxes to lay out; a marked line is a span of its own. The pre remembers the pointer
// of every line (`pre.pointers`, null for a fold) for jumping to a place.
// With `fold`, runs of unmarked lines farther than FOLD_CONTEXT from a marked line
// are folded into one "... n lines" row.
const FOLD_CONTEXT = 3;
const FOLD_MIN = 4;

function renderLines(lines, marks, fold = false) {
  return linesPre(linesHtml(lines, marks, fold));
}

function linesPre({ html, pointers }) {
  const pre = el("pre", { class: "code", tabindex: "0" });
  pre.innerHTML = html;
  pre.pointers = pointers;
  return pre;
}

// The HTML of renderLines' <pre> and the pointer of each of its lines.
function linesHtml(lines, marks, fold = false) {
  // marks(pointer) -> {cls, symbol, title} or null
  const found = lines.map(([, pointer]) => marks(pointer));
  let show = null;
  if (fold) {
    show = new Array(lines.length).fill(false);
    found.forEach((mark, i) => {
      if (!mark) return;
      for (let j = Math.max(0, i - FOLD_CONTEXT); j <= Math.min(lines.length - 1, i + FOLD_CONTEXT); j++) show[j] = true;
    });
  }
  const parts = [];
  const pointers = [];
  let plain = [];
  const flush = () => {
    if (plain.length) parts.push(escapeHtml(plain.join("")));
    plain = [];
  };
  let i = 0;
  while (i < lines.length) {
    if (show && !show[i]) {
      let j = i;
      while (j < lines.length && !show[j]) j++;
      if (j - i >= FOLD_MIN) {
        flush();
        parts.push(`<span class="line fold">\u22ee \u2026 ${j - i} line${j - i === 1 ? "" : "s"} not shown</span>\n`);
        pointers.push(null);
        i = j;
        continue;
      }
    }
    const [text, pointer] = lines[i];
    const mark = found[i];
    pointers.push(pointer);
    if (mark) {
      flush();
      parts.push(`<span class="line ${mark.cls}" title="${escapeHtml(mark.title)}">` +
        `<b class="sym">${mark.symbol}</b> ${escapeHtml(text)}</span>\n`);
    } else {
      plain.push(`  ${text}\n`);
    }
    i++;
  }
  flush();
  return { html: parts.join(""), pointers };
}

// Scroll a code box so that line `index` shows a few lines from the top.
function scrollToLine(pre, index) {
  const style = getComputedStyle(pre);
  const height = parseFloat(style.lineHeight) || 16;
  pre.scrollTop = Math.max(0, (index - 3) * height);
  return { height, top: parseFloat(style.paddingTop) || 0 };
}

function firstMarked(pre, test) {
  return pre.pointers.findIndex((pointer) => pointer !== null && test(pointer));
}

// Which result lines a change marks: a whole value that was added or replaced, but only
// the brackets of a list whose elements moved (its elements carry their own changes).
function changedPlaces(changes) {
  const subtrees = [];
  const exact = new Set();
  for (const change of changes) {
    if (change.action === "add" || change.action === "replace") subtrees.push(change.path);
    if (change.action !== "list") continue;
    exact.add(change.path);
    for (const landing of change.landings ?? []) {
      const at = `${change.path}/${landing.to}`;
      if (landing.action === "inserted") subtrees.push(at);
      else if (landing.to !== undefined && landing.from !== landing.to) exact.add(at);
    }
  }
  return (pointer) => exact.has(pointer) || subtrees.some((p) => under(pointer, p));
}

function renderInputs(inputs) {
  for (const which of ["object", "patch"]) {
    const box = $(`${which}-error`);
    const error = inputs[which];
    box.textContent = error ? error.message : "";
    box.hidden = !error;
  }
}

function renderFinding(finding, canReveal) {
  const pointer = findingPointer(finding);
  const severity = finding.severity ?? "note";
  const item = el(
    "li",
    { class: "finding sev-" + severity },
    el("span", { class: "severity" }, severity),
    " ",
    el("span", { class: "badge", title: "stable finding code" }, finding.code ?? "note"),
  );
  if (pointer !== null && pointer !== undefined) {
    const label = pointer || "(root)";
    item.append(" ", canReveal
      ? el("button", { class: "link path", type: "button", title: "show this place in the result",
        onclick: () => revealPointer(pointer) }, label)
      : el("code", { class: "path" }, label));
  }
  item.append(el("div", { class: "message" }, finding.message ?? ""));
  return item;
}

function revealPointer(pointer) {
  const pre = $("result-object").querySelector("pre");
  if (!pre) return;
  let index = pre.pointers.indexOf(pointer);
  if (index < 0) {
    // the deepest line holding the place (a path into the patch may not exist here)
    pre.pointers.forEach((p, i) => {
      if (p !== null && under(pointer, p) && (index < 0 || p.length > pre.pointers[index].length)) index = i;
    });
  }
  if (index < 0) return;
  pre.scrollIntoView({ block: "nearest" });
  const { height, top } = scrollToLine(pre, index);
  const flash = el("div", { class: "flash", "aria-hidden": "true" });
  flash.style.top = `${top + index * height}px`;
  flash.style.height = `${height}px`;
  pre.append(flash);
  setTimeout(() => flash.remove(), 1200);
}

function renderResult() {
  const type = page.type;
  const result = page.data.results[type];
  const view = page.data.views[type];
  $("result-type").textContent = TYPE_LABEL[type];
  const verdict = $("verdict");
  const box = $("result-object");
  if (result.ok) {
    verdict.className = "verdict ok";
    const n = result.changes.length;
    verdict.textContent = n === 0
      ? "Accepted: the object is unchanged."
      : `Accepted: ${n} change${n === 1 ? "" : "s"} (kubectl would exit 0).`;
    const isChanged = changedPlaces(result.changes);
    const flagged = result.findings.map(findingPointer).filter((p) => p !== null && p !== undefined);
    const lines = linesHtml(view.lines, (pointer) => {
      if (flagged.includes(pointer)) return { cls: "flagged", symbol: "!", title: "a warning concerns this place" };
      if (isChanged(pointer)) return { cls: "changed", symbol: "~", title: "changed by the patch" };
      return null;
    });
    // The same <pre> is kept from one result to the next: only its text is replaced, and
    // it is scrolled only when the first marked line moved (scrolling forces a layout).
    let pre = box.children.length === 1 && box.firstElementChild.tagName === "PRE" ? box.firstElementChild : null;
    if (!pre) {
      pre = linesPre(lines);
      box.replaceChildren(pre);
    } else if (pre.drawn !== lines.html) {
      pre.innerHTML = lines.html;
      pre.pointers = lines.pointers;
    }
    pre.drawn = lines.html;
    const first = firstMarked(pre, (p) => flagged.includes(p) || isChanged(p));
    if (first >= 0 && first !== pre.firstShown) page.afterRender.push(() => scrollToLine(pre, first));
    pre.firstShown = first;
  } else {
    box.replaceChildren();
    verdict.className = "verdict failed";
    verdict.textContent = "Rejected: " + result.error;
    box.append(el("p", { class: "muted", text: "Nothing is applied: kubectl would exit 1 and leave the object as it was." }));
  }
  const list = $("findings");
  list.replaceChildren(...result.findings.map((f) => renderFinding(f, result.ok)));
  $("findings-empty").hidden = result.findings.length > 0;
}

function renderLanding(landing) {
  const key = landing.key === undefined ? "" : ` ${Array.isArray(landing.key) ? landing.key.map(short).join("/") : short(landing.key)}`;
  let text;
  if (landing.action === "inserted") text = `inserted${key} at ${landing.to}`;
  else if (landing.action === "removed") text = `removed${key} from ${landing.from}`;
  else if (landing.action === "merged") text = `merged by key${key}: ${landing.from} \u2192 ${landing.to}`;
  else text = `${landing.action}${key}: ${landing.from} \u2192 ${landing.to}`;
  return el("li", { class: "landing " + landing.action },
    el("span", { class: "sym", "aria-hidden": "true" }, LANDING_SYMBOL[landing.action] ?? "\u2022"), " ", text);
}

function renderChange(change) {
  const head = el("code", { class: "path" }, change.path || "(root)");
  if (change.action === "list") {
    const replaced = change.how === "replaced";
    const item = el("li", { class: "change list" + (replaced ? " replaced" : "") },
      head, " ", el("strong", {}, replaced ? "list replaced wholesale" : `list ${change.how}`));
    if (change.landings?.length) {
      item.append(el("ul", { class: "landings" }, change.landings.map(renderLanding)));
    }
    if (replaced && change.lost?.length) {
      item.append(el("p", { class: "lost" },
        el("span", { class: "sym", "aria-hidden": "true" }, "\u2212"), " lost: ",
        change.lost.map((x, i) => [i ? ", " : "", el("strong", {}, elementName(x))])));
    }
    return item;
  }
  const symbol = { add: "+", remove: "\u2212", replace: "~" }[change.action] ?? "~";
  let text;
  if (change.action === "add") text = ` added ${short(change.after)}`;
  else if (change.action === "remove") text = ` removed (was ${short(change.before)})`;
  else text = ` ${short(change.before)} \u2192 ${short(change.after)}`;
  return el("li", { class: "change " + change.action },
    el("span", { class: "sym", "aria-hidden": "true" }, symbol), " ", head, text);
}

function renderChanges() {
  const result = page.data.results[page.type];
  const list = $("change-list");
  list.replaceChildren();
  const note = $("changes-note");
  if (!result.ok) {
    note.textContent = "No changes: the patch was rejected.";
  } else if (result.changes.length === 0) {
    note.textContent = "No path changed.";
  } else {
    note.textContent = "";
    list.append(...result.changes.map(renderChange));
  }
}

// A column whose content is the same as last time (typing a value mostly changes one
// type's result at one place) keeps its DOM: no HTML to parse, nothing to lay out again.
function renderCompare() {
  const grid = $("compare-grid");
  page.compareCols ??= {};
  TYPES.forEach((type, index) => {
    const result = page.data.results[type];
    const view = page.data.views[type];
    const fold = !page.wholeObjects && (view.differs?.length ?? 0) > 0;
    const lines = result.ok ? linesHtml(view.lines, (pointer) =>
      view.differs.some((p) => under(pointer, p))
        ? { cls: "differs", symbol: "\u2260", title: "another type gives something else here" }
        : null, fold) : null;
    const key = JSON.stringify([type === page.type, fold, result.ok, result.error ?? null,
      view.same_as ?? null, view.differs ?? null, lines?.html ?? null,
      result.findings.map((f) => f.code ?? null)]);
    const kept = page.compareCols[type];
    const col = kept && kept.key === key ? kept.col : compareColumn(type, result, view, lines, fold);
    page.compareCols[type] = { key, col };
    const now = grid.children[index];
    if (now !== col) {
      if (now) grid.replaceChild(col, now);
      else grid.append(col);
    }
  });
  while (grid.children.length > TYPES.length) grid.lastElementChild.remove();
}

function compareColumn(type, result, view, lines, fold) {
  const col = el("section", { class: "column" + (type === page.type ? " selected" : ""), "aria-label": `--type=${type}` });
  const title = el("h3", {}, el("code", {}, `--type=${type}`));
  col.append(title);
  if (result.ok) {
    const summary = view.same_as?.length
      ? `same result as ${view.same_as.map((t) => "--type=" + t).join(" and ")}`
      : view.differs.length ? `differs at ${view.differs.length} place${view.differs.length === 1 ? "" : "s"}` : "";
    col.append(el("p", { class: "summary ok" }, el("span", { class: "sym", "aria-hidden": "true" }, "\u2713"), " accepted", summary ? "; " + summary : ""));
    const pre = linesPre(lines);
    col.append(pre);
    const first = fold ? -1 : firstMarked(pre, (p) => view.differs.some((d) => under(p, d)));
    if (first >= 0) page.afterRender.push(() => scrollToLine(pre, first));
  } else {
    col.append(el("p", { class: "summary failed" }, el("span", { class: "sym", "aria-hidden": "true" }, "\u2717"), " rejected: ", result.error));
  }
  if (result.findings.length) {
    col.append(el("ul", { class: "mini-findings" }, result.findings.map((f) => el("li", {}, el("span", { class: "badge" }, f.code ?? "note")))));
  }
  return col;
}

function renderCommand() {
  const view = page.data.views[page.type];
  $("kubectl-command").textContent = view.command ?? "(fix the inputs first)";
  $("kubectl-dry-run").textContent = view.dry_run ?? "";
  $("json-equivalent").hidden = !view.json_command;
  $("kubectl-json").textContent = view.json_command ?? "";
}

function toggleWholeObjects() {
  page.wholeObjects = !page.wholeObjects;
  $("whole-objects").setAttribute("aria-pressed", String(page.wholeObjects));
  render();
}

function render() {
  if (!page.data) return;
  page.afterRender = [];
  const t = [performance.now()];
  renderInputs(page.data.inputs);
  renderResult();
  t.push(performance.now());
  renderChanges();
  t.push(performance.now());
  renderCompare();
  t.push(performance.now());
  renderCommand();
  t.push(performance.now());
  for (const task of page.afterRender) task(); // layout is read once, after every write
  t.push(performance.now());
  page.phases = t.slice(1).map((x, i) => x - t[i]);
}

// ---------- type picker, examples, sharing, keyboard ----------

function setType(type) {
  if (!TYPES.includes(type)) return;
  page.type = type;
  for (const radio of document.querySelectorAll('input[name="type"]')) radio.checked = radio.value === type;
  render();
  updateFragment();
}

function loadExample(id) {
  const example = EXAMPLES.find((e) => e.id === id);
  if (!example) return Promise.resolve(page.data);
  $("example-note").textContent = example.note;
  return setInputs(example.object, example.patch, example.type);
}

function setInputs(objectText, patchText, type) {
  page.settingInputs = true;
  try {
    setEditorText(page.editors.object, objectText);
    setEditorText(page.editors.patch, patchText);
  } finally {
    page.settingInputs = false;
  }
  if (type) {
    page.type = type;
    for (const radio of document.querySelectorAll('input[name="type"]')) radio.checked = radio.value === type;
  }
  return compute();
}

// The URL fragment follows the inputs once computing pauses (compressing both texts and
// replacing the history entry after every keystroke's result would cost each edit a few
// ms); link() and settled() write it at once.
const FRAGMENT_DELAY_MS = 400;
let fragmentTimer = null;
function scheduleFragment() {
  clearTimeout(fragmentTimer);
  fragmentTimer = setTimeout(updateFragment, FRAGMENT_DELAY_MS);
}

let fragmentWrite = Promise.resolve();
function updateFragment() {
  clearTimeout(fragmentTimer);
  fragmentTimer = null;
  const state = { type: page.type, object: editorText(page.editors.object), patch: editorText(page.editors.patch) };
  fragmentWrite = fragmentWrite.then(async () => {
    const hash = await encodeState(state);
    history.replaceState(null, "", "#" + hash);
  });
  return fragmentWrite;
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.dataset.done = "copied";
  } catch {
    button.dataset.done = "select and copy by hand";
  }
  setTimeout(() => delete button.dataset.done, 1500);
}

function wireControls() {
  const select = $("example");
  for (const example of EXAMPLES) select.append(el("option", { value: example.id }, example.title));
  select.addEventListener("change", () => loadExample(select.value));
  for (const radio of document.querySelectorAll('input[name="type"]')) {
    radio.addEventListener("change", () => radio.checked && setType(radio.value));
  }
  $("share").addEventListener("click", async (event) => {
    await updateFragment();
    copyText(location.href, event.currentTarget);
  });
  $("whole-objects").addEventListener("click", toggleWholeObjects);
  $("copy-command").addEventListener("click", (event) => copyText($("kubectl-command").textContent, event.currentTarget));
  $("copy-json").addEventListener("click", (event) => copyText($("kubectl-json").textContent, event.currentTarget));
  $("copy-dry-run").addEventListener("click", (event) => copyText($("kubectl-dry-run").textContent, event.currentTarget));
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      compute();
    } else if (event.altKey && ["1", "2", "3"].includes(event.key)) {
      event.preventDefault();
      setType(TYPES[Number(event.key) - 1]);
    }
  });
}

// ---------- starting ----------

async function start() {
  const engine = new Engine(); // start fetching and booting Python first
  page.editors.object = makeEditor($("object-editor"), "Object, YAML or JSON", scheduleCompute);
  page.editors.patch = makeEditor($("patch-editor"), "Patch, YAML or JSON", scheduleCompute);
  wireControls();
  // The inputs show at once; they are computed when the engine is ready.
  const shared = await decodeState(location.hash);
  if (shared) {
    $("example").value = "";
    setInputs(shared.object, shared.patch, TYPES.includes(shared.type) ? shared.type : "strategic");
  } else {
    $("example").value = EXAMPLES[0].id;
    loadExample(EXAMPLES[0].id);
  }
  try {
    const stages = await engine.ready;
    page.stages.pyodide = stages.pyodideAt - performance.timeOrigin;
    page.stages.imported = stages.importedAt - performance.timeOrigin;
    page.stages.all = stages;
  } catch (error) {
    showStatus(`The Python engine could not be loaded: ${error.message}`, "failed");
    throw error;
  }
  page.engine = engine;
  await compute(); // whatever the editors hold now, edits made while loading included
  page.firstResultAt = performance.now(); // since navigation start
  showStatus("Engine ready: Python runs in this tab, and nothing you type leaves the page.", "ready");
  document.body.dataset.ready = "true";
}

// The worker's marks and fetches on the page's clock (ms since navigation start).
function startStages() {
  const all = page.stages.all;
  if (!all) return null;
  const at = (t) => Math.round(t - performance.timeOrigin);
  const out = {};
  for (const [name, t] of Object.entries(all)) if (typeof t === "number") out[name] = at(t);
  out.resources = (all.resources || []).map((r) => ({ ...r, start: at(r.start), end: at(r.end) }));
  out.page = performance.getEntriesByType("resource").map((e) => ({
    name: e.name.split("/").pop(), start: Math.round(e.startTime), end: Math.round(e.responseEnd),
  }));
  out.firstResult = Math.round(page.firstResultAt ?? NaN);
  out.snapshot = all.snapshot; // "used", "none" or why it failed
  return out;
}

const ready = start();

window.cfgpatch = {
  ready: ready.then(() => true),
  // Replace both inputs and recompute; resolves to results() once computed.
  async setInputs(objectText, patchText) {
    await setInputs(objectText, patchText);
    return window.cfgpatch.results();
  },
  // Resolves once the results shown are those of the current inputs.
  async settled() {
    await settled();
    if (fragmentTimer !== null) await updateFragment();
    return true;
  },
  results() {
    return page.data ? structuredClone(page.data.results) : null;
  },
  setType,
  phases: () => page.phases,
  // The shareable URL of the current inputs (waits for the fragment to be written).
  async link() {
    await updateFragment();
    return location.href;
  },
  get type() {
    return page.type;
  },
  examples: EXAMPLES.map((e) => ({ ...e })),
  loadExample,
  timings() {
    return {
      firstResultAt: page.firstResultAt,
      // ms since navigation: Pyodide started, our Python imported
      pyodideReadyAt: page.stages.pyodide,
      importedAt: page.stages.imported,
      lastComputeMs: page.lastComputeMs, // asking the worker until drawn
      lastPythonMs: page.lastPythonMs, // the bridge call alone, in the worker
      stages: startStages(), // every start-up step, ms since navigation (where the time goes)
    };
  },
  pyodideVersion: __PYODIDE_VERSION__,
};
