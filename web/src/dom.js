// Small DOM helpers: every panel builds its nodes with el() and changes text with
// setText(), so a redraw that changes nothing touches nothing.

export const $ = (id) => document.getElementById(id);

// el("li", {class: "x", onclick: f}, "text", child, [more, children])
export function el(tag, attrs = {}, ...children) {
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

// A sentence the Python side wrote, `code` in backticks drawn as <code> (never shown raw).
export function rich(text) {
  const parts = String(text ?? "").split("`");
  if (parts.length % 2 === 0) return [String(text ?? "")]; // an odd backtick: plain text
  return parts.map((part, i) => (i % 2 ? el("code", {}, part) : part)).filter((p) => p !== "");
}

// Children for replaceChildren(): null, undefined and false left out (replaceChildren
// itself would write them as the words "null" and "undefined").
export function kids(...children) {
  return children.flat(Infinity).filter((child) => child !== null && child !== undefined && child !== false);
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function show(node, visible) {
  if (node.hidden === visible) node.hidden = !visible;
}

// Screen readers: polite messages for what changed, an alert only for what went wrong.
export function announce(text, { urgent = false } = {}) {
  const region = $(urgent ? "announce-alert" : "announce-polite");
  if (!region) return;
  region.textContent = "";
  region.textContent = text;
}

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
