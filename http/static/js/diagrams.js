// Small diagrams on text pages (the glossary): every element with a
// data-board attribute ("rows/rows/...", '.' empty, 'X' black, 'O' white)
// becomes a board drawn by the game page's board module.

import { Board } from "./board.js";

for (const el of document.querySelectorAll("[data-board]")) {
  const rows = el.dataset.board.split("/");
  const board = new Board(el, { width: rows[0].length, height: rows.length, coordinates: false, label: el.closest("dd")?.previousElementSibling?.textContent || "" });
  board.update({ stones: rows });
}
