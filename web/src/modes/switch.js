// The mode switch: the buttons in <nav id="modes"> ([data-mode-button="id"]) show the
// <main data-mode="id"> of that mode and hide the others. A mode registers
// {id, shown?()} to hear when it is shown; the patch mode is the default.

import { $ } from "../dom.js";
import { state } from "../state.js";

const modes = new Map();

export function registerMode(mode) {
  modes.set(mode.id, mode);
}

export function setMode(id) {
  const sections = document.querySelectorAll("main[data-mode]");
  if (![...sections].some((main) => main.dataset.mode === id)) return false;
  state.mode = id;
  for (const main of sections) main.hidden = main.dataset.mode !== id;
  for (const button of document.querySelectorAll("[data-mode-button]")) {
    button.setAttribute("aria-pressed", String(button.dataset.modeButton === id));
  }
  modes.get(id)?.shown?.();
  return true;
}

export function mountModeSwitch() {
  const nav = $("modes");
  if (!nav) return;
  for (const button of nav.querySelectorAll("[data-mode-button]")) {
    button.addEventListener("click", () => setMode(button.dataset.modeButton));
  }
}
