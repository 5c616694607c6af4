// The two CodeMirror editors: text in and out, Ctrl+Enter, and errors marked where they
// are (a gutter mark and an underline at the line and column the engine names).

import { EditorView, basicSetup } from "codemirror";
import { yaml } from "@codemirror/lang-yaml";
import { Prec } from "@codemirror/state";
import { hoverTooltip, keymap } from "@codemirror/view";
import { forEachDiagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";

let applying = false; // a programmatic change, not an edit

// A tooltip with lineText(line) for the line under the pointer (nothing when it is "").
function lineTooltip(lineText) {
  return hoverTooltip((view, pos) => {
    const text = lineText(view.state.doc.lineAt(pos).number);
    if (!text) return null;
    return { pos, above: true, create: () => ({ dom: Object.assign(document.createElement("div"),
      { className: "line-tip", textContent: text }) }) };
  });
}

// onEdit() after each edit by hand; onRun() for Ctrl+Enter (which inserts nothing);
// optional: onCursor(line, focused) when the cursor moves or the editor gains or loses the
// focus, lineText(line) for a tooltip over a line.
export function makeEditor(parent, label, { onEdit, onRun, onCursor = null, lineText = null }) {
  const extra = [];
  if (lineText) extra.push(lineTooltip(lineText));
  if (onCursor) {
    extra.push(EditorView.updateListener.of((update) => {
      if (update.selectionSet || update.focusChanged) {
        onCursor(update.state.doc.lineAt(update.state.selection.main.head).number, update.view.hasFocus);
      }
    }));
  }
  return new EditorView({
    parent,
    doc: "",
    extensions: [
      Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (onRun(), true), preventDefault: true }])),
      basicSetup,
      yaml(),
      lintGutter(),
      EditorView.lineWrapping,
      // tabindex: the editable text is the focusable part of its scrolling box (it is in
      // the tab order already; axe-core counts only an explicit tabindex)
      EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && !applying) onEdit();
      }),
      ...extra,
    ],
  });
}

export const editorText = (view) => view.state.doc.toString();

// Replace the text by changing only the part that differs, as typing would: a small
// edit stays a small change for CodeMirror (and the cursor stays where it was).
export function setEditorText(view, text) {
  const old = view.state.doc.toString();
  if (old === text) return;
  let start = 0;
  const shorter = Math.min(old.length, text.length);
  while (start < shorter && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start
    && old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
  applying = true;
  try {
    view.dispatch({ changes: { from: start, to: old.length - end, insert: text.slice(start, text.length - end) } });
  } finally {
    applying = false;
  }
}

// Line (1-based) and column (1-based, in characters as Python counts them) to an
// offset in CodeMirror's document (UTF-16 code units).
function offsetAt(doc, line, column) {
  const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
  let units = 0;
  for (let chars = 1; chars < column && units < at.text.length; chars++) {
    units += at.text.codePointAt(units) > 0xffff ? 2 : 1;
  }
  return at.from + units;
}

function positionOf(doc, offset) {
  const at = doc.lineAt(offset);
  return { line: at.number, column: [...at.text.slice(0, offset - at.from)].length + 1 };
}

// marks: [{line, column, end_line?, end_column?, severity: "error"|"warning", message}]
export function markProblems(view, marks) {
  const doc = view.state.doc;
  const diagnostics = marks.map((mark) => {
    const from = offsetAt(doc, mark.line, mark.column);
    let to = mark.end_line ? offsetAt(doc, mark.end_line, mark.end_column) : from;
    if (to <= from) to = Math.min(doc.lineAt(from).to, from + 1); // one character, if any
    return { from, to, severity: mark.severity, message: mark.message };
  });
  const key = JSON.stringify(diagnostics);
  if (view.shownProblems === key) return;
  view.shownProblems = key;
  view.dispatch(setDiagnostics(view.state, diagnostics));
}

// What is marked, as line and column (window.cfgpatch.problems()).
export function markedProblems(view) {
  const out = [];
  forEachDiagnostic(view.state, (d, from, to) => {
    out.push({ ...positionOf(view.state.doc, from), end: positionOf(view.state.doc, to),
      severity: d.severity, message: d.message });
  });
  return out;
}
