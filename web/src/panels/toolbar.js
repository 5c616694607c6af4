// The toolbar: the examples menu (and the note of the example shown), the type picker,
// and the share button.

import { $, el, setText } from "../dom.js";
import { EXAMPLES } from "../examples.js";
import { state } from "../state.js";
import { copyText } from "../clipboard.js";

export const toolbarPanel = {
  mount(ctx) {
    const select = $("example");
    for (const example of EXAMPLES) select.append(el("option", { value: example.id }, example.title));
    select.addEventListener("change", () => ctx.actions.loadExample(select.value));
    for (const radio of document.querySelectorAll('input[name="type"]')) {
      radio.addEventListener("change", () => radio.checked && ctx.actions.setType(radio.value));
    }
    const share = $("share");
    share.addEventListener("click", async () => {
      const url = await ctx.actions.link(); // the button is kept before awaiting
      await copyText(url, share);
    });
  },

  // The example shown, or none once the inputs were edited or replaced.
  showExample(example) {
    state.exampleId = example?.id ?? "";
    $("example").value = state.exampleId;
    setText($("example-note"), example?.note ?? "");
  },

  showType() {
    for (const radio of document.querySelectorAll('input[name="type"]')) {
      radio.checked = radio.value === state.type;
    }
  },
};

