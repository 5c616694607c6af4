// Copying text: the Clipboard API where there is one, else the browser's copy command
// on a selected text field, else the text left selected for Ctrl+C. The note saying
// which happened sits next to the button in the page's flow, so it is never cut off.

import { el } from "./dom.js";

function copyByCommand(text) {
  const field = el("textarea", { class: "copy-source", readonly: true, "aria-hidden": "true" });
  field.value = text;
  document.body.append(field);
  field.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  field.remove();
  return done;
}

function note(button, text, fallback) {
  let box = button.nextElementSibling;
  if (!box || !box.classList.contains("copy-note")) {
    box = el("span", { class: "copy-note", role: "status" });
    button.after(box);
  }
  box.replaceChildren(text);
  if (fallback !== undefined) {
    const field = el("textarea", { class: "copy-fallback", readonly: true, rows: 3,
      "aria-label": "The text to copy" });
    field.value = fallback;
    box.append(field);
    field.focus();
    field.select();
  } else {
    clearTimeout(box.timer);
    box.timer = setTimeout(() => box.replaceChildren(), 2500);
  }
}

// Resolves to "clipboard", "command" or "manual" (the text is shown selected).
export async function copyText(text, button) {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      note(button, "Copied.");
      return "clipboard";
    } catch {
      // denied or unavailable: the copy command next
    }
  }
  if (copyByCommand(text)) {
    note(button, "Copied.");
    return "command";
  }
  note(button, "This browser does not let the page copy: the text below is selected, press Ctrl+C (or \u2318+C).", text);
  return "manual";
}
