// The lessons at /learn. The list page shows each lesson's progress; the
// lesson page shows one step at a time on a small board and sends every
// answer to the server, whose rules core judges it
// (POST /api/v1/lessons/{id}/steps/{n}). Visitors' progress is kept in
// localStorage; a logged-in user's is also saved by the server.

import { Board, BLACK, WHITE, EMPTY, parsePoint, pointName } from "./board.js";
import { format } from "./texts.js";

const STORE = "tengen.learn";

/** stored returns the browser's progress: lesson id → steps done. */
function stored() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}

/** remember records that n steps of a lesson are done; progress never goes back. */
function remember(id, n) {
  const p = stored();
  if (!(p[id] >= n)) {
    p[id] = n;
    try {
      localStorage.setItem(STORE, JSON.stringify(p));
    } catch {
      // Private windows may refuse storage; the lesson works without it.
    }
  }
}

function listPage() {
  const fmt = JSON.parse(document.getElementById("learn-texts").textContent);
  const p = stored();
  for (const li of document.querySelectorAll("#lessons li[data-lesson]")) {
    const steps = Number(li.dataset.steps);
    const done = Math.min(steps, Math.max(Number(li.dataset.done) || 0, p[li.dataset.lesson] || 0));
    li.querySelector(".lesson-progress").textContent = format(fmt, done, steps);
    li.classList.toggle("done", done >= steps);
  }
}

function lessonPage() {
  const L = JSON.parse(document.getElementById("lesson-data").textContent);
  const ui = L.ui;
  const $ = (id) => document.getElementById(id);
  const boardEl = $("lesson-board"), task = $("task"), verdict = $("verdict");
  const checkBtn = $("check"), nextBtn = $("next"), againBtn = $("again");
  const countEntry = $("count-entry"), countInput = $("count-input");
  let index = 0;
  let board = null;
  let marks = new Set();
  let solved = false;
  let busy = false;

  const done = Math.max(L.done || 0, stored()[L.id] || 0);
  if (done > 0 && done < L.steps.length) {
    index = done;
  }

  async function send(body) {
    busy = true;
    try {
      const resp = await fetch(`/api/v1/lessons/${encodeURIComponent(L.id)}/steps/${index + 1}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      const v = await resp.json();
      if (!resp.ok) {
        throw new Error(v.error ? v.error.message : resp.statusText);
      }
      return v;
    } finally {
      busy = false;
    }
  }

  function show(v) {
    const step = L.steps[index];
    verdict.textContent = (v.right ? ui.right : ui.wrong) + " " + v.message;
    verdict.className = "verdict " + (v.right ? "right" : "wrong");
    if (v.right) {
      solved = true;
      remember(L.id, index + 1);
      if (v.after) {
        board.update({ stones: v.after, hoverColor: 0 });
      } else {
        board.update({ hoverColor: 0 });
      }
      checkBtn.hidden = true;
      nextBtn.hidden = false;
      nextBtn.focus();
      if (step.kind === "count") {
        countInput.disabled = true;
      }
    }
  }

  function fail(err) {
    verdict.textContent = String(err.message || err);
    verdict.className = "verdict wrong";
  }

  function drawMarks() {
    const step = L.steps[index];
    const dead = [], black = [];
    for (const name of marks) {
      const p = parsePoint(name, board.width, board.height, "gtp");
      if (board.at(p.x, p.y) === EMPTY) {
        black.push(p);
      } else {
        dead.push(p);
      }
    }
    board.update({ dead, territory: { black, white: [] } });
    checkBtn.disabled = step.kind === "mark" && marks.size === 0;
  }

  function click(p) {
    const step = L.steps[index];
    if (solved || busy) {
      return;
    }
    const name = pointName(p.x, p.y, board.height, "gtp"); // the server's lessons speak GTP
    if (step.kind === "play") {
      send({ point: name }).then(show, fail);
    } else if (step.kind === "mark") {
      if (marks.has(name)) {
        marks.delete(name);
      } else {
        marks.add(name);
      }
      verdict.textContent = format(ui.marked, marks.size);
      verdict.className = "verdict";
      drawMarks();
    }
  }

  function render() {
    const step = L.steps[index];
    solved = false;
    marks = new Set();
    const height = step.board.length, width = step.board[0].length;
    boardEl.replaceChildren();
    board = new Board(boardEl, { width, height, onClick: click, label: step.task });
    const target = step.target ? parsePoint(step.target, width, height, "gtp") : null;
    board.update({
      stones: step.board,
      lastMove: target,
      hoverColor: step.kind === "play" ? (step.toPlay === "black" ? BLACK : WHITE) : 0,
    });
    // The colour matters for a move and for the points where a move is illegal.
    const colour = step.kind === "play" || step.goal === "illegal" ? " · " + ui["toPlay." + step.toPlay] : "";
    $("step-count").textContent = format(ui.step, index + 1, L.steps.length) + colour;
    task.textContent = step.task;
    verdict.textContent = step.kind === "mark" ? ui.mark : "";
    verdict.className = "verdict";
    checkBtn.hidden = step.kind === "play";
    checkBtn.disabled = step.kind === "mark";
    nextBtn.hidden = true;
    countEntry.hidden = step.kind !== "count";
    countInput.disabled = false;
    countInput.value = "";
    $("lesson").hidden = false;
    $("lesson-end").hidden = true;
  }

  checkBtn.addEventListener("click", () => {
    const step = L.steps[index];
    if (solved || busy) {
      return;
    }
    if (step.kind === "mark") {
      send({ points: [...marks] }).then(show, fail);
    } else if (step.kind === "count") {
      const n = Number(countInput.value.trim().replace(",", "."));
      if (countInput.value.trim() === "" || Number.isNaN(n)) {
        countInput.focus();
        return;
      }
      send({ count: n }).then(show, fail);
    }
  });
  countInput.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      checkBtn.click();
    }
  });
  againBtn.addEventListener("click", render);
  nextBtn.addEventListener("click", () => {
    if (index + 1 < L.steps.length) {
      index++;
      render();
      return;
    }
    $("lesson").hidden = true;
    $("lesson-end").hidden = false;
    const next = $("next-lesson");
    if (next) {
      next.focus();
    }
  });
  render();
}

if (document.getElementById("lesson-data")) {
  lessonPage();
} else if (document.getElementById("lessons")) {
  listPage();
}
