// Entry module for every page. It imports by plain URL; the import map in
// the page head redirects each import to the content-hashed file.
import { initTimeControlForm } from "/static/js/tc-form.js";
import { initLobby } from "/static/js/lobby.js";

const form = document.getElementById("challenge-form");
if (form) {
  initTimeControlForm(form);
}
initLobby();
