// The review board: a game record with its whole variation tree. The
// controller of the review (its owner, or whom the owner gave control)
// plays moves to branch, comments, marks points and edits the game
// information; every change is saved to the server as the whole record,
// which the server checks and keeps in canonical form. Everybody else
// follows the controller live over the review's WebSocket, with a chat.
//
// The page reports the current node's position: the "review:node" event on
// document carries it in detail, and currentPosition() returns it (see
// position()). The engine's analysis panel (analysis.js) analyses the line
// shown, from the root to the end of the current variation.
import { Board, BLACK, WHITE, EMPTY, pointName } from "/static/js/board.js";
import { texts, format } from "/static/js/texts.js";
import { Analysis } from "/static/js/analysis.js";
import { reconnectDelay, sessionEnded } from "/static/js/socket.js";
import { parseSGF, formatSGF, get, set, text, escapeText, unescapeText, pointOf, pointRaw, points } from "/static/js/sgf.js";

const SAVE_DELAY = 400; // ms of quiet before an edit is saved
const TREE_CELL = 24; // px per node in the tree view

const MARKS = ["TR", "SQ", "CR", "MA"];

let current = null; // the running board, for currentPosition

/**
 * currentPosition returns the position at the board's current node, as the
 * "review:node" event carries it, or null before the record is loaded.
 */
export function currentPosition() {
  return current ? current.position() : null;
}

const root = document.getElementById("review");
if (root) {
  current = start(root);
}

function start(rootEl) {
  const T = texts();
  const data = JSON.parse(document.getElementById("review-data").textContent);
  const $ = (id) => document.getElementById(id);
  const st = {
    root: null, // the game tree
    node: null, // the current node
    width: 19,
    height: 19,
    tool: "play",
    controllerId: data.controllerId,
    controller: data.controller,
    dirty: false,
    saving: null, // the running save, a promise
    saveTimer: 0,
    pendingPath: null, // a controller's node not yet in our tree
    lastPath: null, // the controller's last node
    socket: null,
  };
  let board = null;
  let analysis = null; // the engine's panel, made when first needed
  let analysisLine = ""; // the line it analyses, as JSON

  const driving = () => data.userId !== 0 && data.userId === st.controllerId;

  // --- loading --------------------------------------------------------

  async function load() {
    const res = await fetch(`/api/v1/reviews/${data.id}/sgf`, { headers: { Accept: "application/x-go-sgf" } });
    if (!res.ok) {
      throw new Error(await errorText(res));
    }
    const roots = parseSGF(await res.text());
    if (!roots.length) {
      throw new Error(T.reviewEmpty);
    }
    const old = st.node ? encodePath(st.node) : null;
    st.root = roots[0];
    const sz = get(st.root, "SZ")[0] || "19";
    const [w, h] = sz.split(":").map((v) => parseInt(v, 10));
    st.width = w || 19;
    st.height = h || st.width;
    if (!board || board.width !== st.width || board.height !== st.height) {
      $("board").replaceChildren();
      analysis = null; // its layers were on the old board
      board = new Board($("board"), {
        width: st.width, height: st.height, label: T.boardLabel,
        colorNames: { black: T.black, white: T.white }, onClick: click,
      });
    }
    st.node = (old && decodePath(old)) || st.root;
    fillInfo();
  }

  async function errorText(res) {
    try {
      const body = await res.json();
      return body.error.message;
    } catch {
      return res.statusText;
    }
  }

  // --- the position -----------------------------------------------------

  function pathTo(node) {
    const out = [];
    for (let n = node; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  function neighbours(i) {
    const w = st.width, h = st.height, x = i % w, y = (i - x) / w, out = [];
    if (x > 0) out.push(i - 1);
    if (x < w - 1) out.push(i + 1);
    if (y > 0) out.push(i - w);
    if (y < h - 1) out.push(i + w);
    return out;
  }

  function chain(stones, i) {
    const color = stones[i], seen = new Set([i]), stack = [i];
    let libs = 0;
    while (stack.length) {
      for (const n of neighbours(stack.pop())) {
        if (stones[n] === EMPTY) libs++;
        else if (stones[n] === color && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return { stones: seen, libs };
  }

  /** play puts a stone and takes captures; returns the captured count. */
  function play(stones, p, color) {
    const i = p.y * st.width + p.x;
    const opp = color === BLACK ? WHITE : BLACK;
    stones[i] = color;
    let taken = 0;
    for (const n of neighbours(i)) {
      if (stones[n] === opp) {
        const ch = chain(stones, n);
        if (ch.libs === 0) {
          for (const j of ch.stones) stones[j] = EMPTY;
          taken += ch.stones.size;
        }
      }
    }
    const own = chain(stones, i);
    if (own.libs === 0) {
      for (const j of own.stones) stones[j] = EMPTY;
      taken -= own.stones.size;
    }
    return taken;
  }

  /** moveOf returns the node's move, {color, point|null}, or null. */
  function moveOf(node) {
    for (const [id, color] of [["B", BLACK], ["W", WHITE]]) {
      const v = get(node, id);
      if (v.length) {
        return { color, point: pointOf(v[0], st.width, st.height) };
      }
    }
    return null;
  }

  /** boardAt replays the record from the root to node. */
  function boardAt(node) {
    const stones = new Array(st.width * st.height).fill(EMPTY);
    const caps = { black: 0, white: 0 };
    let last = null, moveNo = 0, before = null;
    for (const n of pathTo(node)) {
      for (const [id, c] of [["AB", BLACK], ["AW", WHITE], ["AE", EMPTY]]) {
        for (const p of points(get(n, id), st.width, st.height)) stones[p.y * st.width + p.x] = c;
      }
      const m = moveOf(n);
      if (m) {
        moveNo++;
        before = stones.slice();
        if (m.point) {
          const t = play(stones, m.point, m.color);
          if (t > 0) caps[m.color === BLACK ? "black" : "white"] += t;
        }
        last = m;
      }
    }
    return { stones, caps, last, moveNo, before };
  }

  /** toPlay is the colour to move at node: PL, else after the last move. */
  function toPlay(node, pos) {
    const pl = get(node, "PL")[0];
    if (pl === "B") return BLACK;
    if (pl === "W") return WHITE;
    if (pos.last) return pos.last.color === BLACK ? WHITE : BLACK;
    const ha = parseInt(get(st.root, "HA")[0] || "0", 10);
    return ha >= 2 ? WHITE : BLACK;
  }

  /**
   * position is what an analysis panel needs of the current node: the
   * board size, komi, ruleset (RU as written, "" if unknown), handicap,
   * the setup stones and moves from the root to the node in order, the
   * stones on the board now and whose turn it is. Points are {x, y} from
   * the top left; a pass has no point.
   */
  function position() {
    if (!st.node) return null;
    const setup = [], moves = [];
    for (const n of pathTo(st.node)) {
      for (const [id, color] of [["AB", "black"], ["AW", "white"], ["AE", "empty"]]) {
        for (const p of points(get(n, id), st.width, st.height)) setup.push({ color, x: p.x, y: p.y, move: moves.length });
      }
      const m = moveOf(n);
      if (m) {
        const color = m.color === BLACK ? "black" : "white";
        moves.push(m.point ? { color, x: m.point.x, y: m.point.y } : { color, pass: true });
      }
    }
    const pos = boardAt(st.node);
    const km = parseFloat(get(st.root, "KM")[0]);
    return {
      reviewId: data.id,
      width: st.width,
      height: st.height,
      komi: Number.isFinite(km) ? km : null,
      ruleset: text(st.root, "RU"),
      handicap: parseInt(get(st.root, "HA")[0] || "0", 10) || 0,
      setup,
      moves,
      stones: pos.stones.map((c) => (c === BLACK ? "black" : c === WHITE ? "white" : "")),
      toPlay: toPlay(st.node, pos) === BLACK ? "black" : "white",
      path: encodePath(st.node),
    };
  }

  // --- paths: a node named so that another browser finds it -------------

  // A path is {n: depth, v: [[depth, k], ...]}: the node n moves below
  // the root, taking child k at the listed depths and the first child
  // elsewhere. A path that does not fit the tree (a record not loaded
  // yet) names no node.
  function encodePath(node) {
    const nodes = pathTo(node);
    const v = [];
    for (let d = 1; d < nodes.length; d++) {
      const k = nodes[d - 1].children.indexOf(nodes[d]);
      if (k > 0) v.push([d - 1, k]);
    }
    return { n: nodes.length - 1, v };
  }

  function decodePath(path) {
    if (!path || typeof path.n !== "number" || !Array.isArray(path.v)) return null;
    const turn = new Map(path.v.filter((e) => Array.isArray(e)).map(([d, k]) => [d, k]));
    let node = st.root;
    for (let d = 0; d < path.n; d++) {
      const k = turn.get(d) || 0;
      if (!(k >= 0 && k < node.children.length)) return null;
      node = node.children[k];
    }
    return node;
  }

  // --- drawing ------------------------------------------------------------

  function render() {
    const pos = boardAt(st.node);
    const mover = toPlay(st.node, pos);
    board.update({
      stones: pos.stones,
      lastMove: pos.last && pos.last.point ? pos.last.point : null,
      hoverColor: driving() && st.tool === "play" ? mover : 0,
    });
    drawMarkup();
    const m = moveOf(st.node);
    let status = format(T.reviewMoveNo, pos.moveNo);
    if (m) {
      const who = m.color === BLACK ? T.black : T.white;
      status += ` · ${who} ${m.point ? pointName(m.point.x, m.point.y, st.height) : T.reviewPass}`;
    }
    const sibs = st.node.parent ? st.node.parent.children : [st.node];
    if (sibs.length > 1) {
      status += ` · ${format(T.reviewVariation, sibs.indexOf(st.node) + 1, sibs.length)}`;
    }
    status += ` · ${format(T.reviewCaptures, pos.caps.black, pos.caps.white)}`;
    $("node-status").textContent = status;
    const c = $("comment");
    if (document.activeElement !== c) c.value = text(st.node, "C");
    c.readOnly = !driving();
    $("tools").hidden = !driving();
    $("info-form").querySelectorAll("input, button").forEach((e) => (e.disabled = !driving()));
    renderShare();
    drawTree();
    updateAnalysis(pos.moveNo);
    document.dispatchEvent(new CustomEvent("review:node", { detail: position() }));
  }

  /** lineEnd is the last node of the line through the current node. */
  function lineEnd() {
    let n = st.node;
    while (n.children.length) n = n.lastChild && n.children.includes(n.lastChild) ? n.lastChild : n.children[0];
    return n;
  }

  /**
   * analysisRequest describes the line shown for POST /api/v1/analysis:
   * the root's setup and the moves to the end of the current variation;
   * null when the engine cannot take it (a rectangular board, setup stones
   * after the root, more than 1000 moves).
   */
  function analysisRequest() {
    if (st.width !== st.height || st.width < 5 || st.width > 25) return null;
    const setup = [], moves = [];
    for (const n of pathTo(lineEnd())) {
      const stones = [["AB", "black"], ["AW", "white"]].flatMap(([id, color]) =>
        points(get(n, id), st.width, st.height).map((p) => ({ color, x: p.x, y: p.y })));
      if (n !== st.root && (stones.length || get(n, "AE").length)) return null;
      setup.push(...stones);
      const m = moveOf(n);
      if (m) {
        const color = m.color === BLACK ? "black" : "white";
        moves.push(m.point ? { color, x: m.point.x, y: m.point.y } : { color, kind: "pass" });
      }
    }
    if (moves.length > 1000) return null;
    const ru = text(st.root, "RU").trim().toLowerCase();
    const km = parseFloat(get(st.root, "KM")[0]);
    const komi = Number.isFinite(km) && Math.abs(km) <= 150 ? Math.round(km * 2) / 2 : 6.5;
    const req = { boardSize: st.width, ruleset: (data.rulesets || []).includes(ru) ? ru : "japanese", komi, setup, moves };
    const pl = get(st.root, "PL")[0];
    if (pl === "B" || pl === "W") req.toMove = pl === "B" ? "black" : "white";
    return req;
  }

  /** updateAnalysis gives the panel the line shown and the move shown. */
  function updateAnalysis(moveNo) {
    if (!data.analysis) return;
    const req = analysisRequest();
    if (!req) {
      $("analysis").hidden = true;
      return;
    }
    const key = JSON.stringify(req);
    if (!analysis) {
      analysis = new Analysis($("analysis"), board, { texts: T, source: { position: req }, onJump: jumpToMove });
    } else if (key !== analysisLine) {
      analysis.setPosition(req);
    }
    analysisLine = key;
    $("analysis").hidden = false;
    analysis.show(moveNo);
  }

  /** jumpToMove goes to the node after n moves on the line shown. */
  function jumpToMove(n) {
    let count = 0;
    for (const node of pathTo(lineEnd())) {
      if (moveOf(node)) count++;
      if (count >= n && (n > 0 || node === st.root)) {
        go(node);
        return;
      }
    }
  }

  function drawMarkup() {
    const g = board.gMarks;
    const NS = "http://www.w3.org/2000/svg";
    const pos = boardAt(st.node);
    const mk = (name, attrs) => {
      const e = document.createElementNS(NS, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      g.appendChild(e);
      return e;
    };
    const ink = (p) => (pos.stones[p.y * st.width + p.x] === BLACK ? "#fff" : "#000");
    const k = 2.6;
    for (const id of MARKS) {
      for (const p of points(get(st.node, id), st.width, st.height)) {
        const x = board.px(p.x), y = board.py(p.y), stroke = ink(p);
        const common = { fill: "none", stroke, "stroke-width": 0.7, "class": `mark mark-${id}`, "data-point": pointRaw(p) };
        if (id === "TR") mk("path", { ...common, d: `M${x} ${y - k * 1.1}L${x + k} ${y + k * 0.7}L${x - k} ${y + k * 0.7}Z` });
        if (id === "SQ") mk("rect", { ...common, x: x - k * 0.8, y: y - k * 0.8, width: k * 1.6, height: k * 1.6 });
        if (id === "CR") mk("circle", { ...common, cx: x, cy: y, r: k });
        if (id === "MA") mk("path", { ...common, d: `M${x - k * 0.8} ${y - k * 0.8}L${x + k * 0.8} ${y + k * 0.8}M${x + k * 0.8} ${y - k * 0.8}L${x - k * 0.8} ${y + k * 0.8}` });
      }
    }
    for (const raw of get(st.node, "LB")) {
      const [pt, ...rest] = raw.split(":");
      const p = pointOf(pt, st.width, st.height);
      if (!p) continue;
      const x = board.px(p.x), y = board.py(p.y);
      if (pos.stones[p.y * st.width + p.x] === EMPTY) {
        mk("circle", { cx: x, cy: y, r: 3.6, fill: "#dcb35c", "class": "label-bg" });
      }
      const t = mk("text", {
        x, y, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 5.5,
        "font-family": "system-ui, sans-serif", fill: ink(p), "class": "mark mark-LB", "data-point": pt,
      });
      t.textContent = unescapeText(rest.join(":"));
    }
  }

  /** drawTree draws the variation tree as Sabaki does: one column per
   * move number, the main line in the top row, each variation in the
   * first row below that is free from its fork on. */
  function drawTree() {
    const NS = "http://www.w3.org/2000/svg";
    const rowEnd = []; // per row, the last column used
    const placed = []; // {node, col, row}
    const where = new Map();
    const todo = [{ node: st.root, col: 0, first: true, parentRow: 0 }];
    while (todo.length) {
      const it = todo.pop();
      let row = it.parentRow;
      if (!it.first) {
        row = it.parentRow + 1;
        while ((rowEnd[row] ?? -1) >= it.col - 1) row++;
      }
      rowEnd[row] = Math.max(rowEnd[row] ?? -1, it.col);
      where.set(it.node, { col: it.col, row });
      placed.push(it.node);
      const ch = it.node.children;
      for (let k = ch.length - 1; k >= 0; k--) {
        todo.push({ node: ch[k], col: it.col + 1, first: k === 0, parentRow: row });
      }
    }
    const cols = Math.max(...placed.map((n) => where.get(n).col)) + 1;
    const rows = rowEnd.length;
    const svg = document.createElementNS(NS, "svg");
    const W = cols * TREE_CELL, H = rows * TREE_CELL;
    svg.setAttribute("width", W);
    svg.setAttribute("height", H);
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const cx = (c) => c * TREE_CELL + TREE_CELL / 2;
    const lines = document.createElementNS(NS, "path");
    let d = "";
    for (const n of placed) {
      const a = where.get(n);
      for (const ch of n.children) {
        const b = where.get(ch);
        if (b.row === a.row) d += `M${cx(a.col)} ${cx(a.row)}H${cx(b.col)}`;
        else d += `M${cx(a.col)} ${cx(a.row)}V${cx(b.row - 1)}L${cx(b.col)} ${cx(b.row)}`;
      }
    }
    lines.setAttribute("d", d);
    lines.setAttribute("stroke", "#888");
    lines.setAttribute("fill", "none");
    svg.appendChild(lines);
    const onLine = new Set(pathTo(st.node));
    for (const n of placed) {
      const a = where.get(n);
      const m = moveOf(n);
      const e = document.createElementNS(NS, m ? "circle" : "rect");
      const x = cx(a.col), y = cx(a.row);
      if (m) {
        e.setAttribute("cx", x);
        e.setAttribute("cy", y);
        e.setAttribute("r", 7);
        e.setAttribute("fill", m.color === BLACK ? "#111" : "#f4f4f4");
        e.setAttribute("stroke", onLine.has(n) ? "#c1121f" : "#555");
      } else {
        e.setAttribute("x", x - 6);
        e.setAttribute("y", y - 6);
        e.setAttribute("width", 12);
        e.setAttribute("height", 12);
        e.setAttribute("fill", "#bbb");
        e.setAttribute("stroke", onLine.has(n) ? "#c1121f" : "#555");
      }
      e.setAttribute("stroke-width", onLine.has(n) ? 2 : 1);
      e.setAttribute("class", "tree-node" + (n === st.node ? " current" : "") + (get(n, "C").length ? " commented" : ""));
      e.addEventListener("click", () => go(n));
      svg.appendChild(e);
      if (get(n, "C").length) {
        const dot = document.createElementNS(NS, "circle");
        dot.setAttribute("cx", x + 7);
        dot.setAttribute("cy", y - 7);
        dot.setAttribute("r", 3);
        dot.setAttribute("fill", "#2a6fdb");
        dot.setAttribute("pointer-events", "none");
        svg.appendChild(dot);
      }
      if (n === st.node) {
        const ring = document.createElementNS(NS, "circle");
        ring.setAttribute("cx", x);
        ring.setAttribute("cy", y);
        ring.setAttribute("r", 10);
        ring.setAttribute("fill", "none");
        ring.setAttribute("stroke", "#c1121f");
        ring.setAttribute("stroke-width", 2);
        ring.setAttribute("pointer-events", "none");
        svg.appendChild(ring);
      }
    }
    const box = $("tree");
    box.replaceChildren(svg);
    const a = where.get(st.node);
    const left = cx(a.col) - box.clientWidth / 2, top = cx(a.row) - box.clientHeight / 2;
    box.scrollTo({ left: Math.max(0, left), top: Math.max(0, top) });
  }

  // --- navigation -----------------------------------------------------------

  function go(node, fromServer) {
    if (!node) return;
    if (node.parent) node.parent.lastChild = node;
    st.node = node;
    render();
    if (!fromServer && driving()) sendNav();
  }

  const nav = {
    prev: () => go(st.node.parent),
    next: () => go(st.node.lastChild && st.node.children.includes(st.node.lastChild) ? st.node.lastChild : st.node.children[0]),
    first: () => go(st.root),
    last: () => {
      let n = st.node;
      while (n.children.length) n = n.lastChild && n.children.includes(n.lastChild) ? n.lastChild : n.children[0];
      go(n);
    },
    sibling: (delta) => {
      const p = st.node.parent;
      if (!p) return;
      const i = p.children.indexOf(st.node) + delta;
      if (i >= 0 && i < p.children.length) go(p.children[i]);
    },
  };
  $("nav-first").addEventListener("click", nav.first);
  $("nav-prev").addEventListener("click", nav.prev);
  $("nav-next").addEventListener("click", nav.next);
  $("nav-last").addEventListener("click", nav.last);
  $("nav-up").addEventListener("click", () => nav.sibling(-1));
  $("nav-down").addEventListener("click", () => nav.sibling(1));
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (!st.node || ev.altKey || ev.ctrlKey || ev.metaKey || (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) {
      return;
    }
    const f = { ArrowLeft: nav.prev, ArrowRight: nav.next, Home: nav.first, End: nav.last,
      ArrowUp: () => nav.sibling(-1), ArrowDown: () => nav.sibling(1) }[ev.key];
    if (f) {
      ev.preventDefault();
      f();
    }
  });

  // --- editing ----------------------------------------------------------------

  function showStatus(msg, error) {
    const e = $("review-status");
    e.textContent = msg;
    e.classList.toggle("error", !!error);
  }

  function changed() {
    st.dirty = true;
    showStatus(T.reviewUnsaved);
    clearTimeout(st.saveTimer);
    st.saveTimer = setTimeout(save, SAVE_DELAY);
    render();
  }

  /** save sends the record; saves run one after the other. */
  async function save() {
    clearTimeout(st.saveTimer);
    if (st.saving) {
      await st.saving;
    }
    if (!st.dirty) return;
    st.dirty = false;
    showStatus(T.reviewSaving);
    st.saving = (async () => {
      const res = await fetch(`/api/v1/reviews/${data.id}/sgf`, {
        method: "PUT", headers: { "Content-Type": "application/x-go-sgf" }, body: formatSGF(st.root),
      });
      if (!res.ok) {
        st.dirty = true;
        showStatus(await errorText(res), true);
        return;
      }
      showStatus(T.reviewSaved);
      if (driving()) sendNav();
    })();
    try {
      await st.saving;
    } finally {
      st.saving = null;
    }
  }

  function click(p) {
    if (!driving()) return;
    if (st.tool === "play") {
      playAt(p);
    } else {
      mark(p, st.tool);
    }
  }

  function playAt(p) {
    const pos = boardAt(st.node);
    const color = toPlay(st.node, pos);
    const id = color === BLACK ? "B" : "W";
    const raw = p ? pointRaw(p) : "";
    const existing = st.node.children.find((c) => (get(c, id)[0] ?? null) === raw);
    if (existing) {
      go(existing);
      return;
    }
    if (p) {
      if (pos.stones[p.y * st.width + p.x] !== EMPTY) {
        showStatus(T.reviewOccupied, true);
        return;
      }
      const after = pos.stones.slice();
      play(after, p, color);
      if (after[p.y * st.width + p.x] === EMPTY) {
        showStatus(T.reviewSuicide, true);
        return;
      }
      if (pos.before && after.every((c, i) => c === pos.before[i])) {
        showStatus(T.reviewKo, true);
        return;
      }
    }
    const node = { props: [[id, [raw]]], children: [], parent: st.node };
    st.node.children.push(node);
    st.node.lastChild = node;
    st.node = node;
    if (driving()) sendNav();
    changed();
  }

  function mark(p, tool) {
    const raw = pointRaw(p);
    const n = st.node;
    const has = (id) => points(get(n, id), st.width, st.height).some((q) => q.x === p.x && q.y === p.y);
    const without = (id) => points(get(n, id), st.width, st.height).filter((q) => q.x !== p.x || q.y !== p.y).map(pointRaw);
    const labels = get(n, "LB");
    const hadLabel = labels.some((v) => v.startsWith(raw + ":"));
    const had = tool === "LB" ? hadLabel : has(tool);
    // One mark per point: a new mark replaces the old one; the same mark
    // again takes it away.
    for (const id of MARKS) set(n, id, without(id));
    set(n, "LB", labels.filter((v) => !v.startsWith(raw + ":")));
    if (!had) {
      if (tool === "LB") {
        const used = new Set(get(n, "LB").map((v) => v.slice(3)));
        let letter = "A";
        for (let c = 65; c <= 90; c++) {
          if (!used.has(String.fromCharCode(c))) {
            letter = String.fromCharCode(c);
            break;
          }
        }
        set(n, "LB", [...get(n, "LB"), `${raw}:${letter}`]);
      } else {
        set(n, tool, [...get(n, tool), raw]);
      }
    }
    changed();
  }

  document.querySelectorAll('input[name="tool"]').forEach((e) =>
    e.addEventListener("change", () => {
      st.tool = e.value;
      render();
    }));
  $("pass").addEventListener("click", () => driving() && playAt(null));
  $("delete-node").addEventListener("click", () => {
    const n = st.node;
    if (!driving() || !n.parent) return;
    const count = (() => {
      let c = 0;
      const todo = [n];
      while (todo.length) {
        c++;
        todo.push(...todo.pop().children);
      }
      return c;
    })();
    if (count > 1 && !window.confirm(format(T.reviewDeleteConfirm, count - 1))) return;
    const p = n.parent;
    p.children.splice(p.children.indexOf(n), 1);
    p.lastChild = null;
    st.node = p;
    if (driving()) sendNav();
    changed();
  });
  $("comment").addEventListener("input", () => {
    if (!driving()) return;
    const v = $("comment").value;
    set(st.node, "C", v.trim() ? [escapeText(v)] : []);
    st.dirty = true;
    showStatus(T.reviewUnsaved);
    clearTimeout(st.saveTimer);
    st.saveTimer = setTimeout(() => {
      save();
      drawTree();
    }, SAVE_DELAY * 2);
  });

  // Game information: root properties, written as SimpleText.
  function fillInfo() {
    const form = $("info-form");
    for (const input of form.querySelectorAll("input[name]")) {
      input.value = text(st.root, input.name);
    }
    const r = st.root;
    const side = (name, rank) => (text(r, name) || "?") + (text(r, rank) ? ` (${text(r, rank)})` : "");
    let line = `${T.black}: ${side("PB", "BR")} · ${T.white}: ${side("PW", "WR")}`;
    if (get(r, "KM").length) line += ` · ${format(T.reviewKomi, text(r, "KM"))}`;
    if (get(r, "RE").length) line += ` · ${text(r, "RE")}`;
    if (get(r, "DT").length) line += ` · ${text(r, "DT")}`;
    $("review-players").textContent = line;
  }
  $("info-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!driving()) return;
    for (const input of $("info-form").querySelectorAll("input[name]")) {
      const v = input.value.trim();
      set(st.root, input.name, v ? [escapeText(v)] : []);
    }
    fillInfo();
    changed();
  });

  // The download is the saved record: unsaved edits go first.
  $("download").addEventListener("click", async (ev) => {
    if (!st.dirty && !st.saving) return;
    ev.preventDefault();
    await save();
    window.location.href = $("download").href;
  });
  window.addEventListener("beforeunload", (ev) => {
    if (st.dirty) ev.preventDefault();
  });

  // --- the shared review --------------------------------------------------

  function renderShare() {
    $("controller-line").textContent = format(T.reviewControlledBy, st.controller);
    $("control-form").hidden = !(data.isOwner && driving());
    $("take-back").hidden = !(data.isOwner && !driving());
    $("settings-form").hidden = !data.isOwner;
    $("follow").parentElement.hidden = driving();
  }

  function sendNav() {
    const s = st.socket;
    if (s && s.readyState === WebSocket.OPEN) {
      s.send(JSON.stringify({ type: "nav", path: encodePath(st.node) }));
    }
  }

  // reconnects counts the failed connections since the last open socket.
  let reconnects = 0;

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const s = new WebSocket(`${proto}//${location.host}/api/v1/reviews/${data.id}/ws`);
    st.socket = s;
    // Messages are handled one after the other: a node named after a
    // save waits until the saved record is loaded.
    let queue = Promise.resolve();
    s.addEventListener("message", (ev) => {
      const msg = JSON.parse(ev.data);
      queue = queue.then(() => handle(msg)).catch((err) => showStatus(String(err.message || err), true));
    });
    s.addEventListener("open", () => {
      rootEl.dataset.live = "1";
      reconnects = 0;
      if (driving()) sendNav();
    });
    s.addEventListener("close", (ev) => {
      delete rootEl.dataset.live;
      if (st.socket !== s || sessionEnded(ev)) return;
      setTimeout(connect, reconnectDelay(reconnects++));
    });
  }

  async function handle(msg) {
    switch (msg.type) {
      case "hello":
        st.controller = msg.controller;
        st.controllerId = msg.controllerId;
        $("review-chat-log").replaceChildren();
        for (const m of msg.chat || []) addChat(m);
        if (msg.path && !driving()) follow(msg.path);
        render();
        break;
      case "nav":
        if (!driving()) follow(msg.path);
        break;
      case "tree":
        if (!driving()) {
          await load();
          if (st.pendingPath) follow(st.pendingPath);
          else render();
        }
        break;
      case "control":
        st.controller = msg.controller;
        st.controllerId = msg.controllerId;
        if (driving()) {
          showStatus(T.reviewYouControl);
          await load();
        }
        render();
        if (driving()) sendNav();
        break;
      case "chat":
        addChat(msg.line);
        break;
      case "chat-deleted": {
        const li = document.querySelector(`#review-chat-log li[data-id="${msg.chatId}"]`);
        if (li) li.remove();
        break;
      }
      case "viewers":
        $("viewers").textContent = format(T.reviewViewers, msg.viewers);
        break;
      case "deleted":
        showStatus(T.reviewDeleted, true);
        break;
      case "error":
        showStatus(msg.message, true);
        break;
    }
  }

  function follow(path) {
    st.lastPath = path;
    if (!$("follow").checked) return;
    const node = decodePath(path);
    if (!node) {
      st.pendingPath = path; // the record with that node is on its way
      return;
    }
    st.pendingPath = null;
    go(node, true);
  }

  function addChat(m) {
    const li = document.createElement("li");
    li.dataset.id = String(m.id);
    const who = document.createElement("strong");
    who.textContent = m.user + ": ";
    li.append(who, document.createTextNode(m.text));
    // The owner (and admins) moderate the board's chat.
    if (data.canModerate) {
      const del = document.createElement("button");
      del.type = "button";
      del.className = "link chat-delete";
      del.textContent = T.reviewChatDelete;
      del.addEventListener("click", async () => {
        const res = await fetch(`/api/v1/reviews/${data.id}/chat/${m.id}`, { method: "DELETE" });
        if (!res.ok) {
          const body = await res.json().catch(() => ({}));
          showStatus(body.message || res.statusText, true);
        }
      });
      li.append(" ", del);
    }
    $("review-chat-log").appendChild(li);
    li.scrollIntoView({ block: "nearest" });
  }

  const chatForm = $("review-chat-form");
  if (chatForm) {
    chatForm.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = $("review-chat-text");
      const v = input.value.trim();
      if (!v || !st.socket || st.socket.readyState !== WebSocket.OPEN) return;
      st.socket.send(JSON.stringify({ type: "chat", text: v }));
      input.value = "";
    });
  }

  async function patch(body) {
    const res = await fetch(`/api/v1/reviews/${data.id}`, {
      method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (!res.ok) {
      showStatus(await errorText(res), true);
      return null;
    }
    return res.json();
  }
  $("control-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $("control-user").value.trim();
    if (!name) return;
    await save();
    const r = await patch({ controller: name });
    if (r) {
      st.controller = r.controller;
      st.controllerId = r.controllerId;
      showStatus(format(T.reviewControlGiven, r.controller));
      render();
    }
  });
  $("take-back").addEventListener("click", async () => {
    const r = await patch({ controller: data.owner });
    if (r) {
      st.controller = r.controller;
      st.controllerId = r.controllerId;
      await load();
      render();
      sendNav();
    }
  });
  $("delete-review").addEventListener("click", async () => {
    if (!window.confirm(T.reviewDeleteReviewConfirm)) return;
    clearTimeout(st.saveTimer);
    st.dirty = false;
    const res = await fetch(`/api/v1/reviews/${data.id}`, { method: "DELETE" });
    if (!res.ok) {
      showStatus(await errorText(res), true);
      return;
    }
    window.location.href = "/reviews";
  });
  $("follow").addEventListener("change", () => {
    if ($("follow").checked && st.lastPath) follow(st.lastPath);
  });
  $("settings-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await patch({ title: $("settings-title").value, visibility: $("settings-visibility").value });
    if (r) {
      $("review-title").textContent = r.title;
      $("review-visibility").textContent = ({ private: T.reviewVisPrivate, unlisted: T.reviewVisUnlisted, public: T.reviewVisPublic })[r.visibility] || r.visibility;
      showStatus(T.reviewSettingsSaved);
    }
  });

  load().then(() => {
    render();
    rootEl.dataset.ready = "1";
    connect();
  }).catch((err) => showStatus(String(err.message || err), true));

  return { position };
}
