// Entry module for every page. It imports by plain URL; the import map in
// the page head redirects each import to the content-hashed file.
import { initTimeControlForm } from "/static/js/tc-form.js";
import { initLobby } from "/static/js/lobby.js";
import { mergeProgress } from "/static/js/progress.js";

for (const id of ["challenge-form", "bot-form"]) {
  const form = document.getElementById(id);
  if (form) {
    initTimeControlForm(form);
  }
}
initLobby();
mergeProgress();
