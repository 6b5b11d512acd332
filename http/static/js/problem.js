// The problem page: the user plays on the board, the opponent's answers
// come from the problem's solution tree (the server checked every tree with
// its solver). A move that is not in the tree is not legal here: the tree
// holds every legal move at every turn of the user. When a line ends, a
// logged-in user's moves go to the server, which decides again from the
// same tree whether they solved the problem.
import { Board, BLACK, WHITE, EMPTY } from "/static/js/board.js";
import { texts } from "/static/js/texts.js";

const root = document.getElementById("problem");
if (root) {
  start(root);
}

const ANSWER_DELAY = 350; // ms before the opponent's answer appears

function start(root) {
  const T = texts();
  const data = JSON.parse(document.getElementById("problem-data").textContent);
  const size = data.size;
  const user = data.toPlay === "black" ? BLACK : WHITE;
  const ui = {
    status: document.getElementById("problem-status"),
    comment: document.getElementById("problem-comment"),
    pass: document.getElementById("problem-pass"),
    retry: document.getElementById("problem-retry"),
  };
  let stones, nodes, moves, busy, over;

  // show updates the board, then marks the target stone of a capture or
  // save problem (the statement speaks of "the marked stones") with a
  // square, as SGF's MA marks it in the file.
  function show(st) {
    board.update(st);
    const t = data.target;
    const c = stones[t.y * size + t.x];
    if ((data.goal === "capture" || data.goal === "save") && c !== EMPTY) {
      const k = 2.2, x = board.px(t.x), y = board.py(t.y);
      const sq = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      for (const [a, v] of Object.entries({ x: x - k, y: y - k, width: 2 * k, height: 2 * k, fill: "none",
        stroke: c === BLACK ? "#fff" : "#111", "stroke-width": 0.6, "class": "target-mark" })) {
        sq.setAttribute(a, String(v));
      }
      board.gMarks.appendChild(sq);
    }
  }

  const board = new Board(document.getElementById("board"), {
    width: size,
    label: T.problemBoard,
    onClick: (p) => userMove(p.x, p.y, false),
  });

  function reset() {
    stones = new Array(size * size).fill(EMPTY);
    for (const p of data.black) stones[p.y * size + p.x] = BLACK;
    for (const p of data.white) stones[p.y * size + p.x] = WHITE;
    nodes = data.tree;
    moves = [];
    busy = false;
    over = false;
    ui.comment.textContent = "";
    ui.retry.hidden = true;
    ui.pass.disabled = false;
    ui.status.textContent = T.problemYourMove;
    root.dataset.state = "playing";
    show({ stones, lastMove: null, hoverColor: user });
  }

  function userMove(x, y, pass) {
    if (busy || over) {
      return;
    }
    const n = nodes.find((c) => (pass ? c.pass : !c.pass && c.x === x && c.y === y));
    if (!n) {
      ui.status.textContent = T.problemIllegal;
      return;
    }
    moves.push(pass ? { pass: true } : { x, y });
    apply(n, user);
    if (n.bad) {
      finish(false, n.kids[0]);
      return;
    }
    if (!n.kids || n.kids.length === 0) {
      finish(true, null, n.text);
      return;
    }
    ui.comment.textContent = n.text || "";
    busy = true;
    show({ hoverColor: 0 });
    setTimeout(() => {
      const a = n.kids[0];
      apply(a, user === BLACK ? WHITE : BLACK);
      ui.comment.textContent = a.text || n.text || "";
      nodes = a.kids || [];
      busy = false;
      ui.status.textContent = T.problemYourMove;
      show({ hoverColor: user });
    }, ANSWER_DELAY);
  }

  function finish(solved, answer, text) {
    over = true;
    ui.pass.disabled = true;
    show({ hoverColor: 0 });
    const done = () => {
      root.dataset.state = solved ? "solved" : "failed";
      ui.status.textContent = solved ? T.problemSolved : T.problemFailed;
      ui.retry.hidden = false;
      report(solved);
    };
    if (answer) {
      busy = true;
      setTimeout(() => {
        apply(answer, user === BLACK ? WHITE : BLACK);
        ui.comment.textContent = answer.text || "";
        busy = false;
        done();
      }, ANSWER_DELAY);
      return;
    }
    ui.comment.textContent = text || "";
    done();
  }

  // report stores the attempt: on the server for a logged-in user, in the
  // browser for visitors.
  async function report(solved) {
    if (!data.loggedIn) {
      if (solved) {
        try {
          const key = "tengen.problems.solved";
          const set = new Set(JSON.parse(localStorage.getItem(key) || "[]"));
          set.add(data.id);
          localStorage.setItem(key, JSON.stringify([...set]));
        } catch {
          // Storage may be off; the attempt is simply not kept.
        }
      }
      return;
    }
    try {
      const res = await fetch(`/api/v1/problems/${encodeURIComponent(data.id)}/attempts`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ moves }),
      });
      if (res.ok) {
        const r = await res.json();
        root.dataset.rating = String(Math.round(r.rating));
      }
    } catch {
      // The attempt is lost; the page stays usable.
    }
  }

  // apply plays a tree node's move on the page's copy of the position,
  // with captures ("capture goes first"); the tree holds legal moves only.
  function apply(n, color) {
    if (!n.pass) {
      stones[n.y * size + n.x] = color;
      const opp = color === BLACK ? WHITE : BLACK;
      for (const [nx, ny] of neighbours(n.x, n.y)) {
        if (stones[ny * size + nx] === opp) {
          const chain = chainAt(nx, ny);
          if (chain.libs === 0) {
            for (const i of chain.points) stones[i] = EMPTY;
          }
        }
      }
    }
    show({ stones, lastMove: n.pass ? null : { x: n.x, y: n.y } });
  }

  function neighbours(x, y) {
    return [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]].filter(([a, b]) => a >= 0 && b >= 0 && a < size && b < size);
  }

  function chainAt(x, y) {
    const color = stones[y * size + x];
    const seen = new Set([y * size + x]);
    const libs = new Set();
    const stack = [[x, y]];
    while (stack.length) {
      const [cx, cy] = stack.pop();
      for (const [nx, ny] of neighbours(cx, cy)) {
        const i = ny * size + nx;
        if (stones[i] === EMPTY) {
          libs.add(i);
        } else if (stones[i] === color && !seen.has(i)) {
          seen.add(i);
          stack.push([nx, ny]);
        }
      }
    }
    return { points: [...seen], libs: libs.size };
  }

  ui.pass.addEventListener("click", () => userMove(0, 0, true));
  ui.retry.addEventListener("click", reset);
  reset();
}
