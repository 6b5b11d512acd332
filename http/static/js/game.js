// The game page: connects the game's WebSocket (docs/API.md, "WebSocket"),
// draws what the server sends and sends the player's commands. The server
// is the only authority: nothing is drawn before the server confirmed it,
// and anything unexpected makes the page start again from a snapshot.
import { Board, BLACK, WHITE, EMPTY, pointName, boardPrefs } from "/static/js/board.js";
import { texts, format, resultText, colorName, formatNumber } from "/static/js/texts.js";
import { clockFace, pastClockFace } from "/static/js/clock.js";
import { setupConditional, vacationText, playMoveSound } from "/static/js/room.js";
import { Analysis } from "/static/js/analysis.js";
import { reconnectDelay, sessionEnded } from "/static/js/socket.js";

const root = document.getElementById("game");
if (root) {
  start(root);
}

function start(root) {
  const T = texts();
  const gameId = Number(root.dataset.gameId);
  const size = Number(root.dataset.size);
  const $ = (id) => document.getElementById(id);
  const ui = {
    status: $("status"), error: $("game-error"), connection: $("connection"),
    play: $("play-controls"), pass: $("pass"), resign: $("resign"),
    scoring: $("scoring"), scoreRows: $("score-rows"), proposal: $("proposal-status"),
    scoringControls: $("scoring-controls"), accept: $("accept"), resume: $("resume"),
    result: $("result"), replay: $("replay"), slider: $("nav-slider"), navPos: $("nav-pos"),
    coords: $("opt-coords"), numbers: $("opt-numbers"),
    repetition: $("repetition"), repetitionStatus: $("repetition-status"), repetitionControls: $("repetition-controls"),
    takeback: $("takeback"), takebackStatus: $("takeback-status"), takebackControls: $("takeback-controls"), undo: $("undo"),
    handicap: $("handicap-placing"), handicapStatus: $("handicap-status"), handicapControls: $("handicap-controls"),
  };

  const baseTitle = document.title;
  /** announcement words the last move seen live, "" after a snapshot or a phase change. */
  let announcement = "";
  /** tapHint asks for the second tap on a touch screen ("" when none is awaited). */
  let tapHint = "";
  /**
   * proposalNote says what the opponent changed in the dead stones during
   * counting ("" when they did not, or after a phase change).
   */
  let proposalNote = "";
  /** toggling is set while the player's own change of the dead stones is under way. */
  let toggling = false;
  /** @type {any} the last snapshot, kept current by events */
  let state = null;
  /** view is the move number shown in a replay, null for the live position. */
  let view = null;
  /** pending maps command ids to their kinds while the server has not answered. */
  const pending = new Map();
  /** chosen holds the points Black picked for the free handicap stones, not yet sent. */
  let chosen = [];
  let nextId = 1;
  let ws = null;
  let attempt = 0;
  let reconnectTimer = 0;
  let pingTimer = 0;
  // offset estimates server time minus local time in ms; rtt is the round
  // trip of the ping it came from (the shortest seen wins).
  let offset = 0;
  let bestRtt = Infinity;
  const pingsSent = new Map();

  // Display preferences survive reloads; storage may be switched off.
  const pref = (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const setPref = (key, value) => {
    try {
      localStorage.setItem(key, value);
    } catch {
      // Not remembered then.
    }
  };
  // A logged-in user's board options come from the settings page; the
  // checkboxes below change them for this page only. Visitors' choices
  // are remembered in the browser.
  const prefs = boardPrefs();
  const board = new Board($("board"), {
    width: size, height: size, label: T.boardLabel, colorNames: { black: T.black, white: T.white },
    coordinates: prefs.stored ? prefs.coordinates : pref("tengen.coords") !== "0",
    moveNumbers: prefs.stored ? prefs.moveNumbers : pref("tengen.numbers") === "1",
    onClick: clickPoint,
    onInvalid: showError,
    onCandidate: (p) => {
      tapHint = p ? format(T.tapAgain, pointName(p.x, p.y, size)) : "";
      if (state) {
        render();
      }
    },
    entry: { label: T.entryLabel, button: T.entryButton, invalid: T.entryInvalid },
  });
  // Conditional moves (room.js): planned on the board while the opponent is to move.
  const plan = setupConditional({ board, T, gameId, state: () => state, replay: (moves) => replay(size, state.handicap, moves), showError, render });
  ui.coords.checked = board.coordinates;
  ui.numbers.checked = board.moveNumbers;
  ui.coords.addEventListener("change", () => {
    board.setCoordinates(ui.coords.checked);
    setPref("tengen.coords", ui.coords.checked ? "1" : "0");
  });
  ui.numbers.addEventListener("change", () => {
    board.setMoveNumbers(ui.numbers.checked);
    setPref("tengen.numbers", ui.numbers.checked ? "1" : "0");
  });

  ui.pass.addEventListener("click", () => {
    if (state) {
      send({ type: "pass", seq: state.game.moveCount + 1 });
    }
  });
  // Resigning asks first, on the page (no window.confirm: it blocks the
  // page, and with it the clocks and the WebSocket).
  const confirmBox = $("resign-confirm");
  const askResign = (open) => {
    confirmBox.hidden = !open;
    ui.resign.setAttribute("aria-expanded", String(open));
    if (open) {
      $("resign-no").focus();
    }
  };
  ui.resign.addEventListener("click", () => askResign(confirmBox.hidden));
  $("resign-no").addEventListener("click", () => askResign(false));
  $("resign-yes").addEventListener("click", () => {
    askResign(false);
    send({ type: "resign" });
  });
  ui.accept.addEventListener("click", () => {
    if (state && state.proposal) {
      send({ type: "accept", seq: state.proposal.seq });
    }
  });
  ui.resume.addEventListener("click", () => send({ type: "resume" }));
  // Takeback: the mover asks, the opponent answers.
  ui.undo.addEventListener("click", () => send({ type: "undo" }));
  $("takeback-accept").addEventListener("click", () => send({ type: "undo-accept" }));
  $("takeback-decline").addEventListener("click", () => send({ type: "undo-decline" }));
  // The repetition offer (1989 Japanese rules, Art. 12).
  $("void-agree").addEventListener("click", () => {
    if (state && state.repetition) {
      send({ type: "agree-void", seq: state.repetition.seq });
    }
  });
  $("void-decline").addEventListener("click", () => {
    if (state && state.repetition) {
      send({ type: "decline-void", seq: state.repetition.seq });
    }
  });
  // Free handicap stones are chosen on the board and placed at once.
  $("handicap-place").addEventListener("click", () => {
    if (state && chosen.length === handicapLeft()) {
      send({ type: "place-handicap", seq: state.game.moveCount + 1, points: chosen.map((p) => [p.x, p.y]) });
    }
  });
  $("handicap-clear").addEventListener("click", () => {
    chosen = [];
    render();
  });

  // Replay navigation.
  const go = (n) => {
    if (!state) {
      return;
    }
    const last = state.moves.length;
    n = Math.max(0, Math.min(last, n));
    view = n === last ? null : n;
    render();
  };
  const shown = () => (view === null ? (state ? state.moves.length : 0) : view);
  /** analysis is the engine's analysis panel, made when the game may be analysed (analysis.js). */
  let analysis = null;
  $("nav-first").addEventListener("click", () => go(0));
  $("nav-prev").addEventListener("click", () => go(shown() - 1));
  $("nav-next").addEventListener("click", () => go(shown() + 1));
  $("nav-last").addEventListener("click", () => go(Infinity));
  ui.slider.addEventListener("input", () => go(Number(ui.slider.value)));
  document.addEventListener("keydown", (ev) => {
    // Browsing works during play too; keys typed into a field are the field's.
    if (!state || ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.target instanceof HTMLTextAreaElement) {
      return;
    }
    const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (ev.key in keys) {
      ev.preventDefault();
      const d = keys[ev.key];
      go(Math.abs(d) === Infinity ? d : shown() + d);
    }
  });

  setInterval(renderClocks, 250);
  connect();
  // Back from a sleeping laptop or a dead spot: try at once instead of
  // waiting for the backoff.
  const retryNow = () => {
    if (!document.hidden && reconnectTimer && (!ws || ws.readyState === WebSocket.CLOSED)) {
      attempt = 0;
      connect();
    }
  };
  document.addEventListener("visibilitychange", retryNow);
  window.addEventListener("online", retryNow);

  function connect() {
    clearTimeout(reconnectTimer);
    reconnectTimer = 0;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/api/v1/games/${gameId}/ws`);
    const sock = ws;
    setConnection(T.connecting);
    sock.addEventListener("open", () => {
      attempt = 0;
      bestRtt = Infinity;
      ping();
      clearInterval(pingTimer);
      pingTimer = setInterval(ping, 15000);
    });
    sock.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      handle(msg);
      // Other modules of the page (chat.js) take what they need from here.
      document.dispatchEvent(new CustomEvent("tengen:socket", { detail: msg }));
    });
    sock.addEventListener("close", (ev) => {
      if (sock !== ws) {
        return;
      }
      clearInterval(pingTimer);
      pending.clear();
      if (state && state.game.status === "finished") {
        setConnection("");
        return;
      }
      // The session ended (logged out, everywhere or here, or the account
      // was disabled): reconnecting would only watch as a stranger.
      if (sessionEnded(ev)) {
        setConnection(T.sessionEnded);
        return;
      }
      const delay = reconnectDelay(attempt);
      attempt++;
      setConnection(format(T.reconnecting, Math.round(delay / 100) / 10));
      reconnectTimer = setTimeout(connect, delay);
    });
  }

  /**
   * showPresence tells whether each player has this game open, or only
   * another page of the site, and how many others watch.
   */
  function showPresence(msg) {
    for (const color of ["black", "white"]) {
      const el = $(`presence-${color}`);
      const p = msg[color] || {};
      const name = document.querySelector(`.game-title .player-name.${color}`)?.textContent || colorName(T, color);
      el.textContent = format(p.here ? T.presenceHere : p.online ? T.presenceOnline : T.presenceAway, name);
      el.dataset.state = p.here ? "here" : p.online ? "online" : "away";
      el.hidden = false;
    }
    const spec = $("spectators");
    spec.textContent = format(T.presenceSpectators, msg.spectators || 0);
    spec.dataset.count = String(msg.spectators || 0);
    spec.hidden = false;
  }

  function setConnection(text) {
    ui.connection.textContent = text;
    ui.connection.hidden = !text;
    root.dataset.connected = text ? "false" : "true";
  }

  function send(cmd) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      if (cmd.type !== "sync") {
        showError(T.offline);
      }
      return false;
    }
    const id = `c${nextId++}`;
    pending.set(id, cmd.type);
    ws.send(JSON.stringify({ ...cmd, id }));
    return true;
  }

  function ping() {
    if (ws && ws.readyState === WebSocket.OPEN) {
      const id = `p${nextId++}`;
      pingsSent.set(id, performance.now());
      ws.send(JSON.stringify({ type: "ping", id }));
    }
  }

  /** serverNow estimates the server's clock in ms since the epoch. */
  function serverNow() {
    return Date.now() + offset;
  }

  /** refreshConditional reads the player's conditional moves again after a move. */
  async function refreshConditional() {
    try {
      const res = await fetch(`/api/v1/games/${gameId}/conditional`);
      if (res.ok && state) {
        const data = await res.json();
        state.conditional = data.moves && data.moves.length ? data.moves : null;
        render();
      }
    } catch {
      // The next snapshot brings it.
    }
  }

  function resync() {
    if (!send({ type: "sync" }) && ws) {
      ws.close();
    }
  }

  function handle(msg) {
    switch (msg.type) {
      case "presence":
        showPresence(msg);
        break;
      case "game":
        state = msg.state;
        state.repetition = state.repetition || null;
        state.takeback = state.takeback || null;
        state.moves = state.moves || [];
        state.proposal = normaliseProposal(state.proposal);
        announcement = "";
        proposalNote = "";
        if (bestRtt === Infinity && state.serverTime) {
          // Until the first pong, assume the snapshot took no time.
          offset = Date.parse(state.serverTime) - Date.now();
        }
        setConnection("");
        render();
        break;
      case "move":
        if (!state || msg.move.seq !== state.game.moveCount + 1) {
          resync();
          return;
        }
        state.moves.push(msg.move);
        state.game = msg.game;
        state.board = msg.board;
        state.captures = msg.captures;
        state.lastMove = msg.move;
        // A new move brings a player who browses back to the present.
        view = null;
        if (prefs.sound && state.you && msg.move.color !== state.you) {
          playMoveSound();
        }
        if (state.conditional) {
          refreshConditional();
        }
        state.repetition = msg.repetition || null;
        state.takeback = null; // a move ends a takeback request
        if (handicapLeft() === 0) {
          chosen = [];
        }
        if ("clock" in msg) {
          state.clock = msg.clock;
        }
        announce(msg.move);
        // An old refusal is about a board that has changed now.
        showError("");
        render();
        break;
      case "clock":
        if (state) {
          state.clock = msg.clock;
          state.vacation = msg.vacation || null;
          render();
          renderClocks();
        }
        break;
      case "phase":
        if (!state) {
          return;
        }
        state.game = msg.game;
        state.clock = msg.clock;
        state.repetition = null;
        state.takeback = null;
        state.proposal = normaliseProposal(msg.proposal);
        proposalNote = "";
        if (msg.game.status !== "finished") {
          announcement = "";
        }
        state.score = msg.score;
        render();
        break;
      case "proposal": {
        if (!state) {
          return;
        }
        const next = normaliseProposal(msg.proposal);
        proposalNote = toggling || !state.you ? "" : deadChange(state.proposal, next);
        toggling = false;
        state.proposal = next;
        state.score = msg.score;
        render();
        break;
      }
      case "accepted":
        if (!state || !state.proposal || state.proposal.seq !== msg.seq) {
          resync();
          return;
        }
        if (!state.proposal.acceptedBy.includes(msg.color)) {
          state.proposal.acceptedBy.push(msg.color);
        }
        render();
        break;
      case "takeback":
        if (!state || msg.game.moveCount !== state.game.moveCount) {
          // An accepted takeback: the snapshot brings the shorter move list.
          resync();
          return;
        }
        state.takeback = msg.takeback || null;
        state.game = msg.game;
        render();
        break;
      case "repetition":
        if (!state || !state.repetition || state.repetition.seq !== msg.seq) {
          resync();
          return;
        }
        state.repetition = msg.repetition;
        render();
        break;
      case "ok":
        pending.delete(msg.id);
        break;
      case "error":
        pending.delete(msg.id);
        showError(msg.message);
        // A refusal for the game's state (stale number, not your turn)
        // may mean that this page missed something: start again from a
        // snapshot. A rule violation changes nothing.
        if (msg.code === "conflict" || msg.code === "forbidden") {
          resync();
        }
        break;
      case "pong": {
        const sent = pingsSent.get(msg.id);
        pingsSent.delete(msg.id);
        if (sent === undefined || !msg.serverTime) {
          return;
        }
        const rtt = performance.now() - sent;
        if (rtt <= bestRtt) {
          // The server read its clock about half way through the round trip.
          bestRtt = rtt;
          offset = Date.parse(msg.serverTime) + rtt / 2 - Date.now();
        }
        break;
      }
    }
  }

  function showError(text) {
    ui.error.textContent = text || "";
    ui.error.hidden = !text;
  }

  function clickPoint(p) {
    if (!state || view !== null) {
      return;
    }
    if (plan.active()) {
      plan.click(p);
      return;
    }
    const g = state.game;
    showError("");
    if (g.status === "playing") {
      if (!state.you) {
        return;
      }
      if (handicapLeft() > 0 && state.you === "black") {
        chooseHandicapPoint(p);
        return;
      }
      if (g.toMove !== state.you) {
        showError(T.notYourTurn);
        return;
      }
      // One move at a time: a second click before the server answered the
      // first would only be refused as stale.
      for (const kind of pending.values()) {
        if (kind === "move" || kind === "pass") {
          return;
        }
      }
      send({ type: "move", seq: g.moveCount + 1, x: p.x, y: p.y });
    } else if (g.status === "scoring" && state.you) {
      if (board.at(p.x, p.y) !== EMPTY) {
        toggling = true;
        send({ type: "toggle", x: p.x, y: p.y });
      }
    }
  }

  /**
   * handicapLeft returns how many free handicap stones Black has still to
   * place: Black's first moves are the placements (docs/API.md).
   */
  function handicapLeft() {
    const h = state && state.handicap;
    if (!h || !h.free || h.stones < 2 || state.game.status !== "playing") {
      return 0;
    }
    return Math.max(0, h.stones - state.moves.length);
  }

  /** chooseHandicapPoint picks an empty point for a handicap stone, or drops it again. */
  function chooseHandicapPoint(p) {
    const i = chosen.findIndex((q) => q.x === p.x && q.y === p.y);
    if (i >= 0) {
      chosen.splice(i, 1);
    } else if (board.at(p.x, p.y) === EMPTY && chosen.length < handicapLeft()) {
      chosen.push(p);
    }
    render();
  }

  /**
   * deadChange words what the opponent changed from one proposal to the
   * next: the stones they marked dead, or alive again ("" for no change).
   */
  function deadChange(before, after) {
    const key = ([x, y]) => `${x},${y}`;
    const was = new Set(((before && before.dead) || []).map(key));
    const now = new Set(after.dead.map(key));
    const dead = after.dead.filter((p) => !was.has(key(p)));
    const alive = ((before && before.dead) || []).filter((p) => !now.has(key(p)));
    const name = ([x, y]) => pointName(x, y, size);
    if (dead.length) {
      return format(T.opponentMarkedDead, name(dead[0]), after.seq);
    }
    if (alive.length) {
      return format(T.opponentMarkedAlive, name(alive[0]), after.seq);
    }
    return "";
  }

  /** announce words the last move for the status line (read out by screen readers). */
  function announce(move) {
    const who = colorName(T, move.color);
    if (move.kind === "play") {
      announcement = format(T.played, who, pointName(move.x, move.y, size));
    } else if (move.kind === "pass") {
      announcement = format(T.passed, who);
    } else {
      announcement = format(T.resigned, who);
    }
  }

  /** render draws everything from state. */
  function render() {
    const g = state.game;
    if (typeof state.komi === "number") {
      $("komi").textContent = formatNumber(state.komi);
    }
    root.dataset.status = g.status;
    root.dataset.moveCount = String(g.moveCount);
    root.dataset.toMove = g.toMove || "";
    const you = state.you || "";
    const mine = you !== "";
    const counted = !!(state.proposal && state.score);

    // Board.
    const numbers = [];
    const moves = view === null ? state.moves : state.moves.slice(0, view);
    for (const m of moves) {
      if (m.kind === "play") {
        numbers[m.y * size + m.x] = m.seq;
      }
    }
    if (view === null) {
      const last = state.lastMove && state.lastMove.kind === "play" ? state.lastMove : null;
      // The chosen handicap points are drawn as Black's stones until sent.
      const stones = chosen.length === 0 ? state.board : state.board.map((row, y) =>
        Array.from(row, (c, x) => (chosen.some((p) => p.x === x && p.y === y) ? "B" : c)).join(""));
      board.update({
        stones, numbers,
        lastMove: last ? { x: last.x, y: last.y } : null,
        hoverColor: g.status === "playing" && mine && g.toMove === you ? (you === "black" ? BLACK : WHITE) : 0,
        dead: counted ? state.proposal.dead.map(([x, y]) => ({ x, y })) : [],
        seki: counted ? (state.score.seki || []).map(([x, y]) => ({ x, y })) : [],
        territory: counted ? territoryOf(state.score.owner, state.board) : null,
      });
      setCaptures(state.captures);
    } else {
      const pos = replay(size, state.handicap, moves);
      const last = moves.length && moves[moves.length - 1].kind === "play" ? moves[moves.length - 1] : null;
      board.update({
        stones: pos.stones, numbers, lastMove: last ? { x: last.x, y: last.y } : null,
        hoverColor: 0, dead: [], seki: [], territory: null,
      });
      setCaptures(pos.captures);
    }

    // Whose turn.
    for (const el of document.querySelectorAll(".player")) {
      el.classList.toggle("to-move", g.status === "playing" && el.dataset.color === g.toMove);
    }
    const status = [];
    // After the end the result line says how it ended; the last move's
    // words above it would read as if the game went on.
    if (view === null && announcement && g.status !== "finished") {
      status.push(announcement);
    }
    if (view !== null && g.status !== "finished") {
      status.push(format(T.roomBrowsing, view, state.moves.length));
    }
    if (g.status === "playing") {
      status.push(mine && g.toMove === you ? T.yourMove : format(T.toMove, colorName(T, g.toMove)));
      if (tapHint && mine && g.toMove === you && view === null) {
        status.push(tapHint);
      }
      if (!mine) {
        status.push(T.spectating);
      }
    } else if (g.status === "scoring") {
      status.push(T.scoringPhase);
    }
    ui.status.textContent = status.join(" ");
    // A tab in the background shows in its title that the game waits.
    const waiting = mine && ((g.status === "playing" && g.toMove === you) ||
      (g.status === "scoring" && counted && !state.proposal.acceptedBy.includes(you)));
    document.title = waiting ? format(T.turnTitle, baseTitle) : baseTitle;
    ui.play.hidden = !(mine && (g.status === "playing" || g.status === "scoring"));
    // The coordinate field is for players while there are moves to enter;
    // in the counting one clicks groups, not points to play.
    if (board.entry) {
      board.entry.hidden = ui.play.hidden || view !== null || g.status !== "playing";
    }
    if (ui.play.hidden) {
      $("resign-confirm").hidden = true;
    }
    ui.pass.hidden = g.status !== "playing" || handicapLeft() > 0;
    ui.pass.disabled = g.toMove !== you;

    // Free handicap placement.
    const left = view === null ? handicapLeft() : 0;
    ui.handicap.hidden = left === 0;
    ui.handicapControls.hidden = !(left > 0 && you === "black");
    if (left > 0) {
      ui.handicapStatus.textContent = you === "black" ? format(T.handicapChoose, left, chosen.length) : format(T.handicapWait, left);
      $("handicap-place").disabled = chosen.length !== left;
      $("handicap-clear").disabled = chosen.length === 0;
    }

    // Takeback.
    const tb = view === null && g.status === "playing" ? state.takeback : null;
    const lastMove = state.lastMove;
    ui.undo.hidden = !(mine && view === null && g.status === "playing" && !tb && lastMove && lastMove.seq === g.moveCount && lastMove.color === you &&
      !g.settings.noTakeback);
    ui.takeback.hidden = !tb;
    if (tb) {
      ui.takebackControls.hidden = !mine || tb.color === you;
      ui.takebackStatus.textContent = tb.color === you ? T.takebackWaiting : format(T.takebackAsked, colorName(T, tb.color));
    }

    // The repetition offer.
    const rep = view === null && g.status === "playing" ? state.repetition : null;
    ui.repetition.hidden = !rep;
    if (rep) {
      const names = (cs) => cs.map((c) => colorName(T, c)).join(", ");
      const answered = rep.agreedBy.includes(you) || rep.declinedBy.includes(you);
      ui.repetitionControls.hidden = !mine || answered || rep.declinedBy.length > 0;
      ui.repetitionStatus.textContent = rep.declinedBy.length ? format(T.repetitionDeclined, names(rep.declinedBy))
        : rep.agreedBy.length ? format(T.repetitionAgreed, names(rep.agreedBy)) : T.repetitionAsked;
    }

    // Scoring.
    ui.scoring.hidden = !counted;
    ui.scoringControls.hidden = !(mine && g.status === "scoring");
    $("scoring-help").hidden = g.status !== "scoring";
    if (g.status === "finished") {
      $("scoring-title").textContent = T.finalCount;
    }
    if (counted) {
      renderScore(state.score);
      const p = state.proposal;
      ui.accept.textContent = format(T.accept, p.seq);
      ui.accept.dataset.seq = String(p.seq);
      ui.accept.disabled = p.acceptedBy.includes(you);
      if (g.status === "scoring") {
        if (p.acceptedBy.includes(you)) {
          ui.proposal.textContent = format(T.youAccepted, p.seq);
        } else if (p.acceptedBy.length) {
          ui.proposal.textContent = format(T.acceptedBy, p.seq, p.acceptedBy.map((c) => colorName(T, c)).join(", "));
        } else {
          ui.proposal.textContent = format(T.acceptedNone, p.seq);
        }
        if (proposalNote) {
          ui.proposal.textContent = `${proposalNote} ${ui.proposal.textContent}`;
        }
      } else {
        ui.proposal.textContent = "";
      }
    }

    // Result and replay.
    const finished = g.status === "finished";
    ui.result.hidden = !finished;
    if (finished) {
      ui.result.textContent = format(T.result, g.result, resultText(T, g.result));
      ui.result.dataset.result = g.result;
    }
    ui.replay.hidden = state.moves.length === 0;
    const review = $("review-game-form"); // "Review this game", for logged-in users
    if (review) review.hidden = !finished;
    if (!ui.replay.hidden) {
      const n = state.moves.length;
      ui.slider.max = String(n);
      ui.slider.value = String(shown());
      ui.navPos.textContent = format(T.moveOf, shown(), n);
    }
    const vac = g.status === "playing" ? vacationText(T, state.vacation) : "";
    $("vacation-note").hidden = !vac;
    $("vacation-note").textContent = vac;
    plan.render(view === null);
    renderClocks();

    // The engine's analysis: for finished games and for spectators (the
    // server refuses the players of a running rated game).
    if (!analysis && root.dataset.analysis === "1" && (finished || !mine)) {
      analysis = new Analysis($("analysis"), board, { texts: T, source: { gameId }, onJump: go });
    }
    if (analysis) {
      analysis.show(shown());
    }
  }

  function setCaptures(c) {
    $("captures-black").textContent = String((c && c.black) || 0);
    $("captures-white").textContent = String((c && c.white) || 0);
  }

  function renderScore(score) {
    const rows = score.scoring === "area"
      ? ["stones", "territory", "komi", "handicapBonus", "total"]
      : score.scoring === "losses" || score.scoring === "loss"
        ? ["territory", "lost", "ownDead", "komi", "total"]
        : ["territory", "captures", "dead", "komi", "total"];
    ui.scoreRows.replaceChildren();
    for (const key of rows) {
      const tr = document.createElement("tr");
      tr.dataset.row = key;
      if (key === "total") {
        tr.className = "total";
      }
      for (const text of [T[`score.${key}`], num(score.black[key]), num(score.white[key])]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      ui.scoreRows.appendChild(tr);
    }
  }

  /** renderClocks shows both players' time, counting down the running clock. */
  function renderClocks() {
    for (const color of ["black", "white"]) {
      const el = $(`clock-${color}`);
      const detail = $(`clock-${color}-detail`);
      if (!state || !state.clock) {
        el.textContent = "–";
        detail.textContent = "";
        continue;
      }
      const tc = state.game.settings.timeControl;
      const r = view === null
        ? clockFace(T, state.clock, color, tc, serverNow())
        : pastClockFace(T, state.clock.kind, tc, state.moves.slice(0, view), color);
      el.textContent = r.text;
      el.classList.toggle("low", r.low);
      detail.textContent = r.detail;
    }
  }
}

/** normaliseProposal gives a proposal's lists their empty value where JSON has null. */
function normaliseProposal(p) {
  if (!p) {
    return p;
  }
  return { ...p, dead: p.dead || [], acceptedBy: p.acceptedBy || [] };
}

function num(v) {
  return typeof v === "number" ? formatNumber(v) : "";
}

/** territoryOf turns the score's owner rows into the board's territory marks (empty points and dead stones). */
function territoryOf(owner, boardRows) {
  const t = { black: [], white: [] };
  if (!owner) {
    return t;
  }
  owner.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      const o = row[x];
      const stone = boardRows[y][x];
      if (o === "B" && stone !== "B") {
        t.black.push({ x, y });
      } else if (o === "W" && stone !== "W") {
        t.white.push({ x, y });
      }
    }
  });
  return t;
}

/**
 * replay computes the position after the given moves for the move
 * navigation: stones are placed, opponents' chains without liberties are
 * taken off, then the mover's own chain if it has none (suicide, where the
 * rules allow it). The moves are the server's, so they are legal.
 */
export function replay(size, handicap, moves) {
  const stones = new Array(size * size).fill(EMPTY);
  const captures = { black: 0, white: 0 };
  if (handicap && !handicap.free) {
    for (const [x, y] of handicap.points || []) {
      stones[y * size + x] = BLACK;
    }
  }
  const neighbours = (i) => {
    const x = i % size, y = (i - x) / size, out = [];
    if (x > 0) out.push(i - 1);
    if (x < size - 1) out.push(i + 1);
    if (y > 0) out.push(i - size);
    if (y < size - 1) out.push(i + size);
    return out;
  };
  const chain = (i) => {
    const color = stones[i], seen = new Set([i]), stack = [i];
    let libs = 0;
    const libSeen = new Set();
    while (stack.length) {
      const j = stack.pop();
      for (const n of neighbours(j)) {
        if (stones[n] === EMPTY && !libSeen.has(n)) {
          libSeen.add(n);
          libs++;
        } else if (stones[n] === color && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return { stones: seen, libs };
  };
  for (const m of moves) {
    if (m.kind !== "play") {
      continue;
    }
    const i = m.y * size + m.x;
    const c = m.color === "black" ? BLACK : WHITE;
    const opp = c === BLACK ? WHITE : BLACK;
    stones[i] = c;
    for (const n of neighbours(i)) {
      if (stones[n] === opp) {
        const ch = chain(n);
        if (ch.libs === 0) {
          for (const j of ch.stones) stones[j] = EMPTY;
          captures[m.color] += ch.stones.size;
        }
      }
    }
    const own = chain(i);
    if (own.libs === 0) {
      for (const j of own.stones) stones[j] = EMPTY;
      captures[m.color === "black" ? "white" : "black"] += own.stones.size;
    }
  }
  return { stones, captures };
}
