// A <pre> of result lines. Each line is [text, mark, differs] as cfgpatch.web.render
// made it. Unmarked runs of lines are one text node (a 600-line object costs the
// browser one node, not 600 boxes); a marked line is a span whose symbol is drawn by
// CSS (::before, from data-mark), so the box's text is exactly kubectl's: selecting
// and copying it never takes the marks along.
//
// mark(line) -> {cls, symbol, title} or null decides the marks; with fold, runs of
// unmarked lines farther than FOLD_CONTEXT from a marked line become one row.

import { el } from "./dom.js";

const FOLD_CONTEXT = 3;
const FOLD_MIN = 4;

export const RESULT_MARKS = {
  "~": { cls: "changed", symbol: "~", title: "changed by the patch" },
  "!": { cls: "flagged", symbol: "!", title: "a warning concerns this line" },
};
export const DIFFERS_MARK = { cls: "differs", symbol: "\u2260", title: "another type gives something else here" };
export const SIGN_MARKS = {
  "-": { cls: "removed", symbol: "\u2212", title: "removed: in the object, not in the result" },
  "+": { cls: "added", symbol: "+", title: "added: in the result, not in the object" },
};

// The nodes of a box and a key that says whether they changed since the last draw.
function build(lines, textOf, markOf, fold) {
  const marks = lines.map(markOf);
  let show = null;
  if (fold) {
    show = new Array(lines.length).fill(false);
    marks.forEach((mark, i) => {
      if (!mark) return;
      const last = Math.min(lines.length - 1, i + FOLD_CONTEXT);
      for (let j = Math.max(0, i - FOLD_CONTEXT); j <= last; j++) show[j] = true;
    });
  }
  const nodes = [];
  const rows = []; // line index of each row drawn (-1 for a fold)
  let plain = [];
  const flush = () => {
    if (plain.length) nodes.push(document.createTextNode(plain.join("")));
    plain = [];
  };
  for (let i = 0; i < lines.length;) {
    if (show && !show[i]) {
      let j = i;
      while (j < lines.length && !show[j]) j++;
      if (j - i >= FOLD_MIN) {
        flush();
        nodes.push(el("span", { class: "line fold" }, `\u22ee ${j - i} unchanged lines not shown`), "\n");
        rows.push(-1);
        i = j;
        continue;
      }
    }
    const mark = marks[i];
    rows.push(i);
    if (mark) {
      flush();
      nodes.push(el("span", { class: `line ${mark.cls}`, "data-mark": mark.symbol, title: mark.title },
        textOf(lines[i])), "\n");
    } else {
      plain.push(textOf(lines[i]) + "\n");
    }
    i++;
  }
  flush();
  return { nodes, rows };
}

function sameLines(pre, lines, textOf, markOf, fold) {
  const drawn = pre.drawnLines;
  if (!drawn || pre.drawnFold !== fold || drawn.length !== lines.length) return false;
  for (let i = 0; i < lines.length; i++) {
    if (drawn[i][0] !== textOf(lines[i]) || drawn[i][1] !== (markOf(lines[i])?.symbol ?? "")) return false;
  }
  return true;
}

// Draw into `pre` (kept from one draw to the next); returns true when it changed.
export function drawLines(pre, lines, { textOf = (l) => l[0], markOf = () => null, fold = false } = {}) {
  if (sameLines(pre, lines, textOf, markOf, fold)) return false;
  const { nodes, rows } = build(lines, textOf, markOf, fold);
  pre.replaceChildren(...nodes);
  pre.drawnLines = lines.map((line) => [textOf(line), markOf(line)?.symbol ?? ""]);
  pre.drawnFold = fold;
  pre.rows = rows;
  return true;
}

// After a draw: scroll to the first marked line, but only when it is another line than
// last time (scrolling makes the browser lay the box out at once).
export function keepFirstMarkInView(pre, lines, markOf, afterDraw) {
  const first = firstMarked(lines, markOf);
  if (first === pre.firstMarked) return;
  pre.firstMarked = first;
  if (first >= 0) afterDraw.push(() => revealLine(pre, first, false));
}

export function codeBox(label) {
  return el("pre", { class: "code", tabindex: "0", "aria-label": label });
}

// Scroll the box so that line `index` of its lines shows a few rows from the top, and
// outline it for a moment.
export function revealLine(pre, index, flash = true) {
  const row = pre.rows ? pre.rows.indexOf(index) : index;
  if (row < 0) return;
  const style = getComputedStyle(pre);
  const height = parseFloat(style.lineHeight) || 16;
  pre.scrollTop = Math.max(0, (row - 3) * height);
  if (!flash) return;
  const box = el("div", { class: "flash", "aria-hidden": "true" });
  box.style.top = `${(parseFloat(style.paddingTop) || 0) + row * height}px`;
  box.style.height = `${height}px`;
  pre.append(box);
  setTimeout(() => box.remove(), 1200);
}

export function firstMarked(lines, markOf) {
  return lines.findIndex((line) => markOf(line));
}
