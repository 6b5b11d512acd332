// The engine's analysis of a game (docs/API.md, "Analysis"; docs/WEBUI.md):
// a panel with the Analyse button, the progress, a graph of the win rate
// and the score lead over the whole game and the best moves of the position
// shown, and an overlay on a Board (board.js) with the best moves, their
// principal variations and the ownership of each point.
//
// The module knows nothing of the page around it: the page gives it a Board,
// a container for the panel, and where the positions come from (a stored
// game, or a position description as the review board has it), and tells
// it which position the board shows. Like board.js it uses SVG presentation
// attributes only: the Content-Security-Policy forbids inline styles.

import { BLACK, WHITE, EMPTY, el, pointName } from "/static/js/board.js";
import { format, colorName, formatNumber } from "/static/js/texts.js";

const SVG = "http://www.w3.org/2000/svg"; // for the graph's xmlns
const CELL = 10; // board.js's cell, in user units

/** The playouts per move offered; the first is the default. */
export const PLAYOUT_CHOICES = [200, 50, 800, 3200];

/** The candidates drawn on the board and listed at most. */
const MAX_MARKS = 6;

/**
 * candidates returns the moves worth showing: the engine's choice and those
 * with at least a tenth of its visits (the others were barely looked at,
 * their win rates say little).
 */
function candidates(d) {
  const top = d.best.length ? d.best[0].visits : 0;
  return d.best.slice(0, MAX_MARKS).filter((c, i) => i === 0 || c.visits >= top / 10);
}

function html(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "hidden") {
      e.hidden = !!v;
    } else {
      e.setAttribute(k, String(v));
    }
  }
  if (text !== undefined) {
    e.textContent = text;
  }
  if (parent) {
    parent.appendChild(e);
  }
  return e;
}

/**
 * readEvents reads a text/event-stream response and calls onEvent(name,
 * data) for each event with its JSON data parsed.
 */
async function readEvents(resp, onEvent) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      return;
    }
    buf += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) {
          name = line.slice(7);
        } else if (line.startsWith("data: ")) {
          data += line.slice(6);
        }
      }
      onEvent(name, data ? JSON.parse(data) : null);
    }
  }
}

/** percent formats a share as a whole percentage. */
function percent(v) {
  return formatNumber(v * 100);
}

/**
 * Analysis is the analysis panel of one board.
 *
 * Options:
 *  - texts: the page's script texts (texts.js).
 *  - source: {gameId} to analyse a stored game, or {position} with a
 *    position description as POST /api/v1/analysis takes it (boardSize,
 *    ruleset, komi, setup, moves).
 *  - onJump(move): called when the user picks a move on the graph; the
 *    page then shows that move and calls show(move).
 *  - playouts: the first choice of playouts per move.
 */
export class Analysis {
  /**
   * @param {HTMLElement} container where the panel is built
   * @param {import("/static/js/board.js").Board} board the board to draw on
   * @param {object} opts
   */
  constructor(container, board, opts) {
    this.board = board;
    this.T = opts.texts || {};
    this.source = opts.source;
    this.onJump = opts.onJump || (() => {});
    /** results maps a move number to its summary (win rate, score lead). */
    this.results = new Map();
    /** details maps a move number to its full analysis, or a pending promise. */
    this.details = new Map();
    this.move = 0;
    this.first = 0;
    this.total = 0;
    this.running = null; // the AbortController of the stream
    this.pinned = null; // the candidate whose variation stays shown
    this.hovered = null;
    this.buildPanel(container, opts.playouts);
    this.buildLayers();
  }

  /** buildPanel makes the panel's controls, graph and lists. */
  buildPanel(container, playouts) {
    const T = this.T;
    this.container = container;
    container.classList.add("analysis");
    container.replaceChildren();
    container.hidden = false;
    const h = html("h2", { id: "analysis-title" }, container, T.analysisTitle);
    container.setAttribute("aria-labelledby", h.id);
    const controls = html("div", { "class": "controls" }, container);
    this.startButton = html("button", { type: "button", "class": "analysis-start" }, controls, T.analysisStart);
    this.stopButton = html("button", { type: "button", "class": "analysis-stop", hidden: true }, controls, T.analysisStop);
    const label = html("label", { "class": "analysis-playouts" }, controls, T.analysisPlayouts + " ");
    this.playoutSelect = html("select", {}, label);
    const choices = playouts && !PLAYOUT_CHOICES.includes(playouts) ? [playouts, ...PLAYOUT_CHOICES] : PLAYOUT_CHOICES;
    for (const n of [...choices].sort((a, b) => a - b)) {
      html("option", { value: n }, this.playoutSelect, formatNumber(n));
    }
    this.playoutSelect.value = String(playouts || PLAYOUT_CHOICES[0]);
    this.startButton.addEventListener("click", () => this.start());
    this.stopButton.addEventListener("click", () => this.stop(T.analysisStopped));

    const prog = html("div", { "class": "analysis-progress", hidden: true }, container);
    this.progress = html("progress", { max: 1, value: 0, "aria-label": T.analysisTitle }, prog);
    this.progressText = html("span", { role: "status" }, prog);
    this.errorLine = html("p", { "class": "error", role: "alert", hidden: true }, container);

    this.graphBox = html("div", { "class": "analysis-graph", hidden: true }, container);
    this.graph = el("svg", {
      xmlns: SVG, viewBox: "0 0 600 160", preserveAspectRatio: "none", role: "img",
      "aria-label": T.analysisGraph, "class": "analysis-graph-svg",
    }, this.graphBox);
    // The graph acts on the press, not on a click: a click is lost when the
    // graph is redrawn between press and release (a position's details
    // arriving redraw it), and a press held down scrubs along the game.
    this.graph.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) {
        return;
      }
      this.graph.setPointerCapture(ev.pointerId);
      this.graphJump(ev);
    });
    this.graph.addEventListener("pointermove", (ev) => {
      if (this.graph.hasPointerCapture(ev.pointerId)) {
        this.graphJump(ev);
      }
    });
    const legend = html("p", { "class": "analysis-legend" }, this.graphBox);
    html("span", { "class": "legend-winrate" }, legend, T.analysisLegendWinrate);
    html("span", { "class": "legend-score" }, legend, T.analysisLegendScore);

    this.summary = html("p", { "class": "analysis-summary", "aria-live": "polite" }, container);
    const options = html("div", { "class": "options" }, container);
    const check = (text, on) => {
      const l = html("label", { "class": "check" }, options);
      const input = html("input", { type: "checkbox" }, l);
      input.checked = on;
      l.append(" " + text);
      input.addEventListener("change", () => this.draw());
      return input;
    };
    this.bestToggle = check(T.analysisBest, true);
    this.ownerToggle = check(T.analysisOwnership, false);
    this.bestToggle.classList.add("analysis-best-toggle");
    this.ownerToggle.classList.add("analysis-owner-toggle");
    this.bestList = html("ol", { "class": "analysis-best-list" }, container);
    this.pvLine = html("p", { "class": "analysis-pv-line" }, container);
  }

  /** buildLayers adds the overlay's layers to the board, under the hover stone. */
  buildLayers() {
    const b = this.board;
    this.gOwner = el("g", { "class": "analysis-owner-layer", "pointer-events": "none" });
    this.gBest = el("g", { "class": "analysis-best-layer", "pointer-events": "none" });
    this.gPV = el("g", { "class": "analysis-pv-layer", "pointer-events": "none" });
    // Ownership goes over the stones: a stone the other colour owns is dead.
    b.svg.insertBefore(this.gOwner, b.gMarks);
    b.svg.insertBefore(this.gBest, b.gHover);
    b.svg.insertBefore(this.gPV, b.gHover);
    // The board's geometry changes with the coordinates: draw again then.
    this.observer = new MutationObserver(() => this.drawBoard());
    this.observer.observe(b.svg, { attributes: true, attributeFilter: ["viewBox"] });
    this.onMove = (ev) => {
      if (ev.pointerType === "touch") {
        return;
      }
      const c = this.candidateAt(b.pointAt(ev));
      if (c !== this.hovered) {
        this.hovered = c;
        this.drawPV();
      }
    };
    this.onLeave = () => {
      this.hovered = null;
      this.drawPV();
    };
    this.onClick = (ev) => {
      const c = this.candidateAt(b.pointAt(ev));
      this.pinned = c && c !== this.pinned ? c : null;
      this.drawPV();
    };
    b.svg.addEventListener("pointermove", this.onMove);
    b.svg.addEventListener("pointerleave", this.onLeave);
    b.svg.addEventListener("click", this.onClick);
  }

  /** playouts is the chosen number of playouts per move. */
  playouts() {
    return Number(this.playoutSelect.value);
  }

  /**
   * setPosition replaces the position description (the review board, when
   * the line shown changes); the results of the old one are dropped.
   */
  setPosition(position) {
    this.stop();
    this.source = { position };
    this.reset();
  }

  reset() {
    this.results.clear();
    this.details.clear();
    this.total = 0;
    this.pinned = this.hovered = null;
    this.draw();
  }

  /** request returns the URL and fetch options for the stream or one position. */
  request(move, stream) {
    // A position's details come with the playouts its summary had, which
    // the server has cached.
    const n = stream || !this.playoutsDone ? this.playouts() : this.playoutsDone;
    const headers = { Accept: stream ? "text/event-stream" : "application/json" };
    if (this.source.gameId !== undefined) {
      const base = `/api/v1/games/${this.source.gameId}/analysis`;
      return [stream ? `${base}?playouts=${n}` : `${base}/${move}?playouts=${n}`, { headers }];
    }
    const body = { ...this.source.position, playouts: n };
    if (!stream) {
      body.move = move;
    }
    headers["Content-Type"] = "application/json";
    return ["/api/v1/analysis", { method: "POST", headers, body: JSON.stringify(body) }];
  }

  /** start analyses every position; results come in as the server has them. */
  async start() {
    this.stop();
    const playouts = this.playouts();
    if (this.playoutsDone !== playouts) {
      this.reset();
      this.playoutsDone = playouts;
    }
    const ctl = new AbortController();
    this.running = ctl;
    this.showError("");
    this.startButton.hidden = true;
    this.stopButton.hidden = false;
    this.playoutSelect.disabled = true;
    this.progress.parentElement.hidden = false;
    this.progressText.textContent = this.T.analysisWaiting;
    this.container.dataset.state = "running";
    const [url, init] = this.request(0, true);
    try {
      const resp = await fetch(url, { ...init, signal: ctl.signal });
      if (!resp.ok) {
        throw new Error(await errorText(resp));
      }
      await readEvents(resp, (name, data) => this.event(name, data));
      if (this.running === ctl && this.container.dataset.state === "running") {
        // The stream ended without "done": the server went away.
        this.finish(this.T.analysisStopped);
      }
    } catch (err) {
      if (this.running === ctl && !ctl.signal.aborted) {
        this.finish("");
        this.showError(format(this.T.analysisFailed, err.message));
      }
    }
  }

  /** stop ends a running analysis; what came in stays. */
  stop(message) {
    if (this.running) {
      this.running.abort();
      this.finish(message || "");
    }
  }

  finish(message) {
    this.running = null;
    this.startButton.hidden = false;
    this.stopButton.hidden = true;
    this.playoutSelect.disabled = false;
    this.container.dataset.state = message ? "stopped" : "done";
    if (message) {
      this.progressText.textContent = message;
    }
  }

  /** event handles one server-sent event. */
  event(name, data) {
    switch (name) {
      case "start":
        this.first = data.firstMove;
        this.total = data.total;
        this.progress.max = data.total;
        this.progress.value = 0;
        break;
      case "position": {
        const p = data.position;
        this.results.set(p.move, p);
        this.progress.value = data.done;
        this.progressText.textContent = format(this.T.analysisProgress, data.done, data.total);
        this.drawGraph();
        if (p.move === this.shownMove()) {
          this.loadDetail();
        }
        break;
      }
      case "done":
        this.progressText.textContent = format(this.T.analysisDone, data.total);
        this.finish("");
        this.container.dataset.state = "done";
        break;
      case "error":
        this.finish("");
        this.showError(format(this.T.analysisFailed, data.message));
        break;
    }
  }

  showError(text) {
    this.errorLine.textContent = text;
    this.errorLine.hidden = !text;
  }

  /**
   * show tells the panel which position the board shows: the one after
   * move moves. The board must already show it (its stones decide where
   * the best moves can be drawn).
   */
  show(move) {
    this.move = move;
    this.pinned = this.hovered = null;
    this.loadDetail();
    this.draw();
  }

  /** shownMove is the analysed position nearest before the one shown (a resignation is no position). */
  shownMove() {
    const last = this.first + this.total - 1;
    return this.total > 0 && this.move > last ? last : this.move;
  }

  /** loadDetail fetches the full analysis of the shown position once its summary is there. */
  async loadDetail() {
    const move = this.shownMove();
    if (!this.results.has(move) || this.details.has(move)) {
      return;
    }
    const [url, init] = this.request(move, false);
    const pending = fetch(url, init).then(async (resp) => {
      if (!resp.ok) {
        throw new Error(await errorText(resp));
      }
      return (await resp.json()).analysis;
    });
    this.details.set(move, pending);
    try {
      const a = await pending;
      this.details.set(move, a);
      if (move === this.shownMove()) {
        this.draw();
      }
    } catch (err) {
      this.details.delete(move);
      this.showError(format(this.T.analysisFailed, err.message));
    }
  }

  /** detail is the full analysis of the shown position, or null. */
  detail() {
    const d = this.details.get(this.shownMove());
    return d && !(d instanceof Promise) ? d : null;
  }

  /** draw redraws everything that depends on the position shown. */
  draw() {
    this.drawGraph();
    this.drawSummary();
    this.drawBoard();
  }

  drawBoard() {
    this.drawOwnership();
    this.drawBest();
    this.drawPV();
  }

  /** leadText says who leads by how much. */
  leadText(lead) {
    if (Math.abs(lead) < 0.05) {
      return this.T.analysisEven;
    }
    return format(this.T.analysisLead, colorName(this.T, lead > 0 ? "black" : "white"), formatNumber(Math.abs(lead)));
  }

  drawSummary() {
    const T = this.T;
    const move = this.shownMove();
    const p = this.results.get(move);
    this.graphBox.hidden = this.results.size === 0;
    if (!p) {
      this.summary.textContent = this.results.size ? format(T.analysisPending, move) : "";
      this.bestList.replaceChildren();
      this.pvLine.textContent = "";
      return;
    }
    this.summary.textContent = format(T.analysisSummary, move, percent(p.winrate), this.leadText(p.scoreLead));
    this.summary.dataset.winrate = String(p.winrate);
    this.summary.dataset.scoreLead = String(p.scoreLead);
    const d = this.detail();
    this.bestList.replaceChildren();
    if (!d) {
      return;
    }
    const mover = d.toMove;
    for (const c of candidates(d)) {
      const li = html("li", {}, this.bestList);
      const wr = mover === "black" ? c.winrate : 1 - c.winrate;
      li.textContent = format(T.analysisCandidate, this.moveName(c), percent(wr), colorName(T, mover), this.leadText(c.scoreLead), c.visits);
      li.tabIndex = 0;
      const pick = () => {
        this.pinned = this.pinned === c ? null : c;
        this.drawPV();
      };
      li.addEventListener("click", pick);
      li.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          pick();
        }
      });
      li.addEventListener("pointerenter", () => {
        this.hovered = c;
        this.drawPV();
      });
      li.addEventListener("pointerleave", () => {
        this.hovered = null;
        this.drawPV();
      });
    }
  }

  moveName(c) {
    return c.pass ? this.T.analysisPass : pointName(c.x, c.y, this.board.height);
  }

  /** candidateAt returns the drawn candidate on point p, or null. */
  candidateAt(p) {
    const d = this.detail();
    if (!p || !d || !this.bestToggle.checked) {
      return null;
    }
    return candidates(d).find((c) => !c.pass && c.x === p.x && c.y === p.y) || null;
  }

  drawOwnership() {
    const b = this.board;
    this.gOwner.replaceChildren();
    const d = this.detail();
    if (!d || !this.ownerToggle.checked || !d.ownership) {
      return;
    }
    for (let i = 0; i < d.ownership.length; i++) {
      const v = d.ownership[i];
      if (Math.abs(v) < 0.15) {
        continue;
      }
      const x = i % b.width, y = Math.floor(i / b.width);
      const stone = b.at(x, y);
      if (stone !== EMPTY && (stone === BLACK) === (v > 0)) {
        continue; // the stone's own colour owns it: nothing to show
      }
      const side = CELL * (0.3 + 0.45 * Math.abs(v));
      el("rect", {
        x: b.px(x) - side / 2, y: b.py(y) - side / 2, width: side, height: side,
        fill: v > 0 ? "#111" : "#fafafa", "fill-opacity": 0.25 + 0.45 * Math.abs(v),
        stroke: v > 0 ? "none" : "#555", "stroke-width": CELL * 0.02,
        "class": v > 0 ? "owner-black" : "owner-white", "data-point": pointName(x, y, b.height),
      }, this.gOwner);
    }
  }

  drawBest() {
    const b = this.board;
    this.gBest.replaceChildren();
    const d = this.detail();
    if (!d || !this.bestToggle.checked) {
      return;
    }
    const top = d.best.length ? d.best[0].visits : 0;
    candidates(d).forEach((c, i) => {
      if (c.pass || b.at(c.x, c.y) !== EMPTY) {
        return;
      }
      const wr = d.toMove === "black" ? c.winrate : 1 - c.winrate;
      const g = el("g", { "class": `analysis-best${i === 0 ? " first" : ""}`, "data-point": pointName(c.x, c.y, b.height) }, this.gBest);
      el("circle", {
        cx: b.px(c.x), cy: b.py(c.y), r: CELL * 0.44,
        fill: i === 0 ? "#1b7f79" : "#3d6fb6", "fill-opacity": i === 0 ? 1 : 0.75 + 0.25 * (c.visits / top),
        stroke: "#fff", "stroke-width": CELL * 0.04,
      }, g);
      el("text", {
        x: b.px(c.x), y: b.py(c.y), fill: "#fff", "font-size": CELL * 0.36, "font-family": "system-ui, sans-serif",
        "font-weight": "700", "text-anchor": "middle", "dominant-baseline": "central",
      }, g).textContent = String(Math.round(wr * 100));
    });
  }

  /** drawPV draws the variation of the candidate under the pointer or pinned. */
  drawPV() {
    const b = this.board;
    this.gPV.replaceChildren();
    const c = this.hovered || this.pinned;
    const d = this.detail();
    if (!c || !d) {
      this.pvLine.textContent = "";
      this.gBest.setAttribute("opacity", "1");
      return;
    }
    this.gBest.setAttribute("opacity", "0.25");
    let color = d.toMove === "black" ? BLACK : WHITE;
    const names = [];
    c.pv.forEach(([x, y], i) => {
      const pass = x < 0;
      names.push(pass ? this.T.analysisPass : pointName(x, y, b.height));
      if (!pass) {
        const black = color === BLACK;
        el("circle", {
          cx: b.px(x), cy: b.py(y), r: CELL * 0.46, fill: black ? "#111" : "#fafafa", "fill-opacity": 0.8,
          stroke: black ? "#000" : "#555", "stroke-width": CELL * 0.03, "class": "analysis-pv",
          "data-point": pointName(x, y, b.height),
        }, this.gPV);
        el("text", {
          x: b.px(x), y: b.py(y), fill: black ? "#fff" : "#111", "font-size": CELL * 0.42,
          "font-family": "system-ui, sans-serif", "text-anchor": "middle", "dominant-baseline": "central",
        }, this.gPV).textContent = String(i + 1);
      }
      color = color === BLACK ? WHITE : BLACK;
    });
    this.pvLine.textContent = format(this.T.analysisPV, names.join(" "));
  }

  /** drawGraph draws Black's win rate and the score lead over the game. */
  drawGraph() {
    const g = this.graph;
    g.replaceChildren();
    const W = 600, H = 160;
    const n = Math.max(this.total, 2);
    const X = (move) => ((move - this.first) / (n - 1)) * W;
    el("rect", { x: 0, y: 0, width: W, height: H, fill: "#f3ead7", "class": "graph-bg" }, g);
    el("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: "#998", "stroke-dasharray": "4 4", "vector-effect": "non-scaling-stroke" }, g);
    const moves = [...this.results.keys()].sort((a, b) => a - b);
    if (moves.length === 0) {
      return;
    }
    const maxLead = Math.max(10, ...moves.map((m) => Math.abs(this.results.get(m).scoreLead)));
    // The win rate as an area: black below the line is Black's share.
    let area = "", line = "", lead = "";
    moves.forEach((m, i) => {
      const p = this.results.get(m);
      const x = X(m).toFixed(1), y = (H * (1 - p.winrate)).toFixed(1);
      const ly = (H / 2 - (p.scoreLead / maxLead) * (H / 2) * 0.95).toFixed(1);
      area += `${i ? "L" : "M"}${x} ${y}`;
      line += `${i ? "L" : "M"}${x} ${y}`;
      lead += `${i ? "L" : "M"}${x} ${ly}`;
    });
    area += `L${X(moves[moves.length - 1]).toFixed(1)} ${H}L${X(moves[0]).toFixed(1)} ${H}Z`;
    el("path", { d: area, fill: "#222", "fill-opacity": 0.18, stroke: "none", "class": "graph-area" }, g);
    el("path", { d: line, fill: "none", stroke: "#111", "stroke-width": 2, "vector-effect": "non-scaling-stroke", "class": "graph-winrate" }, g);
    el("path", {
      d: lead, fill: "none", stroke: "#c0561b", "stroke-width": 1.5, "stroke-dasharray": "5 3",
      "vector-effect": "non-scaling-stroke", "class": "graph-score",
    }, g);
    const cur = this.shownMove();
    if (this.total > 0) {
      el("line", {
        x1: X(cur), x2: X(cur), y1: 0, y2: H, stroke: "#8a4b08", "stroke-width": 2,
        "vector-effect": "non-scaling-stroke", "class": "graph-current",
      }, g);
    }
    g.dataset.points = String(moves.length);
  }

  /** graphJump goes to the move under the pointer on the graph, unless the board shows it already. */
  graphJump(ev) {
    if (this.total < 1) {
      return;
    }
    const r = this.graph.getBoundingClientRect();
    const share = Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width));
    const move = this.first + Math.round(share * (Math.max(this.total, 2) - 1));
    if (move !== this.move) {
      this.onJump(move);
    }
  }

  /** destroy stops the analysis and removes the overlay from the board. */
  destroy() {
    this.stop();
    this.observer.disconnect();
    const svg = this.board.svg;
    svg.removeEventListener("pointermove", this.onMove);
    svg.removeEventListener("pointerleave", this.onLeave);
    svg.removeEventListener("click", this.onClick);
    this.gOwner.remove();
    this.gBest.remove();
    this.gPV.remove();
    this.container.replaceChildren();
    this.container.hidden = true;
  }
}

/** errorText reads the message of an API error answer. */
async function errorText(resp) {
  try {
    const body = await resp.json();
    return body.error.message;
  } catch {
    return String(resp.status);
  }
}
