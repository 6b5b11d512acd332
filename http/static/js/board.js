// A Go board drawn as SVG. The board knows nothing about rules or the
// server: the page tells it what to show (stones, last move, marks) and it
// reports clicks and typed coordinates back through callbacks.
//
// Points are {x, y} with x the column from the left and y the row from the
// top, both 0-based, as in the API and SGF. People see names in the notation
// chosen on the settings page: GTP (a letter A–Z without I for the column
// and the row counted from the bottom), Korschelt's a–z without j, or
// Japanese numbering (column 1–19 from the left, row in kanji from the top).
//
// Everything is styled with SVG presentation attributes, never style
// attributes, because the pages' Content-Security-Policy forbids inline
// styles.

const SVG = "http://www.w3.org/2000/svg";

/** Column letters as GTP writes them: I is left out. */
export const COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/** Point contents. */
export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;

// One grid cell is 10 user units; every length below is in cells.
const CELL = 10;
const WOOD = "#dcb35c";
const LINE = "#3b2a12";

/**
 * starPoints returns the points marked on a width×height board, the same
 * as goban.StarPoints: on boards of 7 lines and more the fixed handicap
 * points (4-4 points from 13 lines, 3-3 points below; nine on odd boards of
 * 13 lines or more, corners and centre on smaller odd boards, four corners
 * on boards with an even side); on smaller odd boards the centre only.
 *
 * @param {number} width
 * @param {number} height
 * @returns {{x: number, y: number}[]}
 */
export function starPoints(width, height) {
  const odd = width % 2 === 1 && height % 2 === 1;
  if (width < 7 || height < 7) {
    return odd && width >= 5 && height >= 5 ? [{ x: (width - 1) / 2, y: (height - 1) / 2 }] : [];
  }
  let n = 4;
  if (odd) {
    n = width < 13 && height < 13 ? 5 : 9;
  }
  // Side and centre points need odd boards of 9 lines or more; goban
  // refuses 5 handicap stones on 7×7 and so marks no points there.
  if (n > 4 && !(odd && width >= 9 && height >= 9)) {
    return [];
  }
  const edge = (size) => (size >= 13 ? 3 : 2);
  const left = edge(width), right = width - 1 - edge(width);
  const top = edge(height), bottom = height - 1 - edge(height);
  const midX = Math.floor(width / 2), midY = Math.floor(height / 2);
  const pts = [];
  for (const [x, y] of [[left, top], [right, top], [left, bottom], [right, bottom]]) {
    pts.push({ x, y });
  }
  if (n === 5 || n === 9) {
    pts.push({ x: midX, y: midY });
  }
  if (n === 9) {
    pts.push({ x: midX, y: top }, { x: left, y: midY }, { x: right, y: midY }, { x: midX, y: bottom });
  }
  return pts;
}

/** KORSCHELT_LETTERS are the column letters of Korschelt's notation (1908): lower case, without j. */
export const KORSCHELT_LETTERS = "abcdefghiklmnopqrstuvwxyz";

const KANJI = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

/** kanjiNumber writes 1–99 in kanji numerals: 4 → 四, 16 → 十六, 21 → 二十一. */
export function kanjiNumber(n) {
  const tens = Math.floor(n / 10), ones = n % 10;
  return (tens > 1 ? KANJI[tens] : "") + (tens > 0 ? "十" : "") + KANJI[ones];
}

/**
 * boardPrefs returns the logged-in user's board options, which the server
 * puts on the page's body (data-board; see the settings page), or the
 * defaults for visitors: coordinates, no move numbers, no sound, a second
 * tap to confirm a move on touch screens, GTP notation.
 *
 * @returns {{coordinates: boolean, moveNumbers: boolean, sound: boolean, confirmMove: boolean, notation: string, stored: boolean}}
 */
export function boardPrefs() {
  const prefs = { coordinates: true, moveNumbers: false, sound: false, confirmMove: true, notation: "gtp", stored: false };
  const data = typeof document !== "undefined" && document.body ? document.body.dataset.board : "";
  if (data) {
    try {
      Object.assign(prefs, JSON.parse(data), { stored: true });
    } catch {
      // The defaults then.
    }
  }
  return prefs;
}

/** columnLabel and rowLabel name a column and a row in a notation. */
export function columnLabel(x, notation) {
  switch (notation) {
    case "korschelt":
      return KORSCHELT_LETTERS[x];
    case "japanese":
      return String(x + 1);
  }
  return COLUMN_LETTERS[x];
}

export function rowLabel(y, height, notation) {
  return notation === "japanese" ? kanjiNumber(y + 1) : String(height - y);
}

/**
 * pointName returns the name of a point in the user's notation: GTP "D4"
 * (rows counted from the bottom), Korschelt "d4", or Japanese "16-四"
 * (column from the left, then the row from the top in kanji).
 *
 * @param {number} x column from the left, 0-based
 * @param {number} y row from the top, 0-based
 * @param {number} height rows of the board
 * @param {string} [notation] "gtp", "korschelt" or "japanese"; default the user's
 */
export function pointName(x, y, height, notation = boardPrefs().notation) {
  if (notation === "japanese") {
    return `${x + 1}-${kanjiNumber(y + 1)}`;
  }
  return columnLabel(x, notation) + rowLabel(y, height, notation);
}

/**
 * parsePoint reads a coordinate in a notation — GTP "D4" or "q16" (no I),
 * Korschelt "d4" (no j), Japanese "16-4" or "16-四" — with spaces allowed,
 * and returns the point, or null when it is not a point of the board.
 *
 * @param {string} text
 * @param {number} width
 * @param {number} height
 * @param {string} [notation] default the user's
 * @returns {{x: number, y: number} | null}
 */
export function parsePoint(text, width, height, notation = boardPrefs().notation) {
  if (notation === "japanese") {
    const j = /^\s*([0-9]{1,2})\s*[-\s]\s*([0-9]{1,2}|[一二三四五六七八九十]{1,3})\s*$/.exec(text);
    if (!j) {
      return null;
    }
    const x = Number(j[1]) - 1;
    let row = Number(j[2]);
    if (Number.isNaN(row)) {
      row = 0;
      for (let n = 1; n <= height; n++) {
        if (kanjiNumber(n) === j[2]) {
          row = n;
        }
      }
    }
    return x >= 0 && x < width && row >= 1 && row <= height ? { x, y: row - 1 } : null;
  }
  const m = /^\s*([A-Za-z])\s*([0-9]{1,2})\s*$/.exec(text);
  if (!m) {
    return null;
  }
  const letters = notation === "korschelt" ? KORSCHELT_LETTERS.toUpperCase() : COLUMN_LETTERS;
  const x = letters.indexOf(m[1].toUpperCase());
  const row = Number(m[2]);
  if (x < 0 || x >= width || row < 1 || row > height) {
    return null;
  }
  return { x, y: height - row };
}

/** el makes an SVG element with the given attributes, appended to parent if given. */
export function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) {
    e.setAttribute(k, String(v));
  }
  if (parent) {
    parent.appendChild(e);
  }
  return e;
}

let boardCount = 0;

/**
 * Board draws one board into a container element.
 *
 * Options:
 *  - width, height: lines, 2–25 each (games are played on 5–25).
 *  - coordinates: show the coordinates around the board (default true).
 *  - moveNumbers: show move numbers on stones that have one (default false).
 *  - label: accessible name of the board.
 *  - colorNames: {black, white} names of the colours; the board's accessible
 *    name lists the stones under them, e.g. "Go board. Black: D4. White: Q16".
 *  - onClick(point): called when the user clicks a point or enters one.
 *  - entry: {label, button, invalid} texts for the keyboard entry form; with
 *    it the board adds a text field for coordinates such as "D4".
 *  - onInvalid(message): called with entry.invalid when the typed text is not
 *    a point of the board.
 */
export class Board {
  /**
   * @param {HTMLElement} container
   * @param {object} opts
   */
  constructor(container, opts) {
    this.width = opts.width;
    this.height = opts.height || opts.width;
    if (!(this.width >= 2 && this.width <= 25 && this.height >= 2 && this.height <= 25)) {
      throw new Error(`board size ${this.width}×${this.height} out of range`);
    }
    const prefs = boardPrefs();
    this.coordinates = "coordinates" in opts ? opts.coordinates !== false : prefs.coordinates;
    this.moveNumbers = "moveNumbers" in opts ? !!opts.moveNumbers : prefs.moveNumbers;
    /** notation names the points in labels, the accessible name and the entry field. */
    this.notation = opts.notation || prefs.notation;
    /** confirmMove asks for a second tap on a touch screen before a move. */
    this.confirmMove = "confirmMove" in opts ? !!opts.confirmMove : prefs.confirmMove;
    this.onClick = opts.onClick || null;
    this.onInvalid = opts.onInvalid || null;
    /** onCandidate hears of the first tap's point (null once it is played or gone), to say "tap again". */
    this.onCandidate = opts.onCandidate || null;
    this.label = opts.label || "Go board";
    this.colorNames = opts.colorNames || { black: "Black", white: "White" };
    this.id = `board${++boardCount}`;
    /** @type {number[]} point contents, index y*width+x */
    this.stones = new Array(this.width * this.height).fill(EMPTY);
    /** @type {(number|undefined)[]} move number of the stone on a point */
    this.numbers = [];
    this.lastMove = null;
    this.hoverColor = 0;
    this.hoverPoint = null;
    /** candidate is the point tapped once on a touch screen, waiting for the second tap. */
    this.candidate = null;
    this.lastPointer = "";
    this.dead = new Set();
    /** seki holds the indexes of living stones in seki (scoring phase). */
    this.seki = new Set();
    this.territory = new Map();

    this.container = container;
    container.classList.add("board");
    this.svg = el("svg", {
      xmlns: SVG,
      role: "img",
      "aria-label": this.label,
      preserveAspectRatio: "xMidYMid meet",
      "data-width": this.width,
      "data-height": this.height,
    });
    this.defs = el("defs", {}, this.svg);
    this.defineGradients();
    this.gBoard = el("g", {}, this.svg);
    this.gTerritory = el("g", { "class": "territory" }, this.svg);
    this.gStones = el("g", { "class": "stones" }, this.svg);
    this.gMarks = el("g", { "class": "marks" }, this.svg);
    this.gHover = el("g", { "class": "hover", "pointer-events": "none" }, this.svg);
    container.appendChild(this.svg);

    // On touch screens a finger hides the point it taps and slips easily:
    // while a hover stone is offered (the player's move), the first tap
    // shows the stone and a second tap on the same point plays it.
    this.svg.addEventListener("pointerdown", (ev) => {
      this.lastPointer = ev.pointerType;
    });
    this.svg.addEventListener("click", (ev) => {
      const p = this.pointAt(ev);
      if (!p || !this.onClick) {
        return;
      }
      if (this.confirmMove && this.lastPointer === "touch" && this.hoverColor && this.at(p.x, p.y) === EMPTY) {
        const c = this.candidate;
        if (!c || c.x !== p.x || c.y !== p.y) {
          this.candidate = p;
          this.hoverPoint = p;
          this.drawHover();
          if (this.onCandidate) {
            this.onCandidate(p);
          }
          return;
        }
      }
      if (this.candidate && this.onCandidate) {
        this.onCandidate(null);
      }
      this.candidate = null;
      this.onClick(p);
    });
    this.svg.addEventListener("pointermove", (ev) => {
      if (ev.pointerType !== "touch") {
        this.hoverPoint = this.pointAt(ev);
        this.drawHover();
      }
    });
    this.svg.addEventListener("pointerleave", (ev) => {
      if (ev.pointerType !== "touch") {
        this.hoverPoint = null;
        this.drawHover();
      }
    });

    if (opts.entry) {
      this.addEntry(opts.entry);
    }
    this.drawGrid();
    this.drawStones();
  }

  defineGradients() {
    const grad = (id, stops) => {
      const g = el("radialGradient", { id: `${this.id}-${id}`, cx: "35%", cy: "35%", r: "65%" }, this.defs);
      for (const [offset, color] of stops) {
        el("stop", { offset, "stop-color": color }, g);
      }
    };
    grad("black", [["0%", "#5a5a5a"], ["100%", "#0b0b0b"]]);
    grad("white", [["0%", "#ffffff"], ["80%", "#e4e1da"], ["100%", "#c9c5bc"]]);
    const wood = el("linearGradient", { id: `${this.id}-wood`, x1: "0", y1: "0", x2: "1", y2: "1" }, this.defs);
    el("stop", { offset: "0%", "stop-color": "#e5c173" }, wood);
    el("stop", { offset: "100%", "stop-color": WOOD }, wood);
  }

  /** margin is the space between the board's edge and the outer lines, in cells. */
  margin() {
    return this.coordinates ? 1.3 : 0.65;
  }

  /** px and py give the user-space position of a column or row line. */
  px(x) {
    return (this.margin() + x) * CELL;
  }

  py(y) {
    return (this.margin() + y) * CELL;
  }

  /** pointAt returns the board point under a mouse event, or null. */
  pointAt(ev) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) {
      return null;
    }
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse());
    const x = Math.round(pt.x / CELL - this.margin());
    const y = Math.round(pt.y / CELL - this.margin());
    if (x < 0 || x >= this.width || y < 0 || y >= this.height) {
      return null;
    }
    return { x, y };
  }

  drawGrid() {
    const g = this.gBoard;
    g.replaceChildren();
    const m = this.margin();
    const vw = (this.width - 1 + 2 * m) * CELL;
    const vh = (this.height - 1 + 2 * m) * CELL;
    this.svg.setAttribute("viewBox", `0 0 ${vw} ${vh}`);
    // The geometry, for tools and tests that need a point's position:
    // point (x, y) is at ((margin + x) * cell, (margin + y) * cell).
    this.svg.setAttribute("data-margin", String(m));
    this.svg.setAttribute("data-cell", String(CELL));
    el("rect", { x: 0, y: 0, width: vw, height: vh, rx: CELL * 0.2, fill: `url(#${this.id}-wood)`, "class": "wood" }, g);
    const x0 = this.px(0), x1 = this.px(this.width - 1);
    const y0 = this.py(0), y1 = this.py(this.height - 1);
    let d = "";
    for (let x = 0; x < this.width; x++) {
      d += `M${this.px(x)} ${y0}V${y1}`;
    }
    for (let y = 0; y < this.height; y++) {
      d += `M${x0} ${this.py(y)}H${x1}`;
    }
    el("path", { d, stroke: LINE, "stroke-width": CELL * 0.05, fill: "none", "stroke-linecap": "square", "class": "lines" }, g);
    el("rect", {
      x: x0, y: y0, width: x1 - x0, height: y1 - y0, fill: "none", stroke: LINE, "stroke-width": CELL * 0.1,
    }, g);
    for (const p of starPoints(this.width, this.height)) {
      el("circle", { cx: this.px(p.x), cy: this.py(p.y), r: CELL * 0.13, fill: LINE, "class": "star" }, g);
    }
    if (this.coordinates) {
      const attrs = {
        "font-size": CELL * 0.42, "font-family": "system-ui, sans-serif", fill: LINE,
        "text-anchor": "middle", "dominant-baseline": "central", "class": "coord",
        // Screen readers get the points from the board's name; the frame's
        // labels alone would be read as a list of letters and numbers.
        "aria-hidden": "true",
      };
      const off = CELL * 0.75;
      for (let x = 0; x < this.width; x++) {
        const letter = columnLabel(x, this.notation);
        el("text", { ...attrs, x: this.px(x), y: y0 - off }, g).textContent = letter;
        el("text", { ...attrs, x: this.px(x), y: y1 + off }, g).textContent = letter;
      }
      for (let y = 0; y < this.height; y++) {
        const row = rowLabel(y, this.height, this.notation);
        el("text", { ...attrs, x: x0 - off, y: this.py(y) }, g).textContent = row;
        el("text", { ...attrs, x: x1 + off, y: this.py(y) }, g).textContent = row;
      }
    }
  }

  /** setCoordinates shows or hides the coordinates. */
  setCoordinates(on) {
    this.coordinates = !!on;
    this.drawGrid();
    this.drawStones();
  }

  /** setNotation changes the notation of the labels. */
  setNotation(notation) {
    this.notation = notation;
    this.drawGrid();
    this.drawStones();
  }

  /** setMoveNumbers shows or hides move numbers on the stones. */
  setMoveNumbers(on) {
    this.moveNumbers = !!on;
    this.drawStones();
  }

  /**
   * update changes what the board shows. Every field is optional; given
   * fields replace the old value.
   *
   * @param {object} s
   * @param {number[]|string[]} [s.stones] contents per point (EMPTY, BLACK,
   *   WHITE, index y*width+x), or one string per row from the top with
   *   "." empty, "X"/"B" black and "O"/"W" white
   * @param {{x:number,y:number}|null} [s.lastMove]
   * @param {(number|undefined)[]} [s.numbers] move number per point index
   * @param {number} [s.hoverColor] the colour of the hover stone, 0 for none
   * @param {{x:number,y:number}[]} [s.dead] stones marked dead
   * @param {{x:number,y:number}[]} [s.seki] living stones in seki
   * @param {{black: {x:number,y:number}[], white: {x:number,y:number}[]}|null} [s.territory]
   */
  update(s) {
    if (s.stones) {
      this.stones = normaliseStones(s.stones, this.width, this.height);
      if (this.candidate && this.at(this.candidate.x, this.candidate.y) !== EMPTY) {
        this.candidate = null;
        this.hoverPoint = null;
        if (this.onCandidate) {
          this.onCandidate(null);
        }
      }
    }
    if ("lastMove" in s) {
      this.lastMove = s.lastMove || null;
    }
    if (s.numbers) {
      this.numbers = s.numbers;
    }
    if ("hoverColor" in s) {
      this.hoverColor = s.hoverColor || 0;
    }
    if ("dead" in s) {
      this.dead = new Set((s.dead || []).map((p) => p.y * this.width + p.x));
    }
    if ("seki" in s) {
      this.seki = new Set((s.seki || []).map((p) => p.y * this.width + p.x));
    }
    if ("territory" in s) {
      this.territory = new Map();
      for (const [key, color] of [["black", BLACK], ["white", WHITE]]) {
        for (const p of (s.territory && s.territory[key]) || []) {
          this.territory.set(p.y * this.width + p.x, color);
        }
      }
    }
    this.drawStones();
  }

  /** at returns the contents of a point. */
  at(x, y) {
    return this.stones[y * this.width + x];
  }

  /** describe names the board for screen readers with the points of its stones. */
  describe() {
    const points = { [BLACK]: [], [WHITE]: [] };
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const color = this.stones[y * this.width + x];
        if (color !== EMPTY) {
          points[color].push(pointName(x, y, this.height, this.notation));
        }
      }
    }
    let name = this.label;
    for (const [color, word] of [[BLACK, this.colorNames.black], [WHITE, this.colorNames.white]]) {
      if (points[color].length > 0) {
        name += `. ${word}: ${points[color].join(", ")}`;
      }
    }
    this.svg.setAttribute("aria-label", name);
  }

  drawStones() {
    this.gStones.replaceChildren();
    this.gMarks.replaceChildren();
    this.gTerritory.replaceChildren();
    this.describe();
    const r = CELL * 0.48;
    for (const [i, color] of this.territory) {
      const x = i % this.width, y = Math.floor(i / this.width);
      const side = CELL * 0.26;
      el("rect", {
        x: this.px(x) - side / 2, y: this.py(y) - side / 2, width: side, height: side,
        fill: color === BLACK ? "#111" : "#fafafa", stroke: color === BLACK ? "none" : "#444",
        "stroke-width": CELL * 0.03, "class": color === BLACK ? "terr-black" : "terr-white",
        // data-point is for scripts and tests: always the GTP name.
        "data-point": pointName(x, y, this.height, "gtp"),
      }, this.gTerritory);
    }
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const i = y * this.width + x;
        const color = this.stones[i];
        if (color === EMPTY) {
          continue;
        }
        const dead = this.dead.has(i);
        const name = pointName(x, y, this.height, "gtp");
        const c = el("circle", {
          cx: this.px(x), cy: this.py(y), r: color === WHITE ? r - CELL * 0.02 : r,
          fill: `url(#${this.id}-${color === BLACK ? "black" : "white"})`,
          stroke: color === WHITE ? "#6b675e" : "#000", "stroke-width": CELL * 0.04,
          "class": `stone ${color === BLACK ? "black" : "white"}${dead ? " dead" : ""}`,
          "data-point": name,
        }, this.gStones);
        if (dead) {
          c.setAttribute("opacity", "0.55");
        }
        const ink = color === BLACK ? "#fff" : "#111";
        const num = this.numbers[i];
        const isLast = this.lastMove && this.lastMove.x === x && this.lastMove.y === y;
        if (dead) {
          const k = CELL * 0.26;
          el("path", {
            d: `M${this.px(x) - k} ${this.py(y) - k}L${this.px(x) + k} ${this.py(y) + k}` +
              `M${this.px(x) + k} ${this.py(y) - k}L${this.px(x) - k} ${this.py(y) + k}`,
            stroke: "#c1121f", "stroke-width": CELL * 0.09, "stroke-linecap": "round", "class": "dead-mark",
            "data-point": name,
          }, this.gMarks);
        } else if (this.seki.has(i)) {
          // Seki: alive without territory, marked with a small triangle.
          const k = CELL * 0.2;
          el("path", {
            d: `M${this.px(x)} ${this.py(y) - k}L${this.px(x) + k} ${this.py(y) + k * 0.75}L${this.px(x) - k} ${this.py(y) + k * 0.75}Z`,
            fill: "none", stroke: ink, "stroke-width": CELL * 0.05, "class": "seki-mark", "data-point": name,
          }, this.gMarks);
        } else if (this.moveNumbers && num !== undefined) {
          const t = el("text", {
            x: this.px(x), y: this.py(y), fill: isLast ? "#c1121f" : ink,
            "font-size": CELL * (num >= 100 ? 0.36 : 0.46), "font-family": "system-ui, sans-serif",
            "font-weight": isLast ? "700" : "400",
            "text-anchor": "middle", "dominant-baseline": "central", "class": "number",
          }, this.gMarks);
          t.textContent = String(num);
        } else if (isLast) {
          el("circle", {
            cx: this.px(x), cy: this.py(y), r: CELL * 0.2, fill: "none", stroke: ink,
            "stroke-width": CELL * 0.06, "class": "last-move", "data-point": name,
          }, this.gMarks);
        }
      }
    }
    this.drawHover();
  }

  drawHover() {
    this.gHover.replaceChildren();
    const p = this.hoverPoint;
    if (!p || !this.hoverColor || this.at(p.x, p.y) !== EMPTY) {
      return;
    }
    el("circle", {
      cx: this.px(p.x), cy: this.py(p.y), r: CELL * 0.46,
      fill: this.hoverColor === BLACK ? "#111" : "#fff", "fill-opacity": 0.45,
      stroke: this.hoverColor === BLACK ? "none" : "#333", "stroke-opacity": 0.5, "stroke-width": CELL * 0.03,
      "class": "hover-stone",
    }, this.gHover);
  }

  /**
   * addEntry adds a small form below the board where a coordinate can be
   * typed; a valid one is reported through onClick like a click.
   */
  addEntry(texts) {
    const form = document.createElement("form");
    form.className = "board-entry";
    const label = document.createElement("label");
    label.textContent = texts.label;
    const input = document.createElement("input");
    input.name = "point";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.size = 4;
    input.maxLength = 6;
    input.placeholder = pointName(Math.min(3, this.width - 1), this.height - Math.min(4, this.height), this.height, this.notation);
    label.appendChild(input);
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = texts.button;
    form.append(label, button);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const p = parsePoint(input.value, this.width, this.height, this.notation);
      if (!p) {
        if (this.onInvalid) {
          this.onInvalid(texts.invalid);
        }
        input.select();
        return;
      }
      input.value = "";
      if (this.onClick) {
        this.onClick(p);
      }
    });
    this.entry = form;
    this.entryInput = input;
    this.container.after(form);
  }
}

/** normaliseStones turns either stone format of update into numbers. */
function normaliseStones(stones, width, height) {
  if (stones.length === height && typeof stones[0] === "string") {
    const out = new Array(width * height).fill(EMPTY);
    stones.forEach((row, y) => {
      for (let x = 0; x < width && x < row.length; x++) {
        const ch = row[x];
        out[y * width + x] = ch === "X" || ch === "B" || ch === "x" || ch === "b" ? BLACK
          : ch === "O" || ch === "W" || ch === "o" || ch === "w" ? WHITE : EMPTY;
      }
    });
    return out;
  }
  return Array.from(stones, (v) => (v === BLACK || v === WHITE ? v : EMPTY));
}
