// Shows only the time-control fields that belong to the chosen kind. Without
// script every field stays visible and the server ignores the unused ones.

/**
 * @param {HTMLFormElement} form the challenge form
 */
export function initTimeControlForm(form) {
  const kind = form.elements.namedItem("tcKind");
  if (!(kind instanceof HTMLSelectElement)) {
    return;
  }
  const update = () => {
    for (const label of form.querySelectorAll("[data-tc]")) {
      const kinds = label.getAttribute("data-tc").split(" ");
      const show = kinds.includes(kind.value);
      label.hidden = !show;
      for (const input of label.querySelectorAll("input")) {
        input.disabled = !show;
      }
    }
  };
  kind.addEventListener("change", update);
  update();
}
