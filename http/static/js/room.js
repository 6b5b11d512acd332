// The game room's parts of the game page (issue 17) that are not the game
// itself: conditional moves planned on a scratch board, the players'
// vacations, and the sound of the opponent's move. game.js calls in here
// through a few hooks and keeps the game's state; the server stays the
// only authority (a plan is checked and stored by the server).
import { BLACK, WHITE, pointName } from "/static/js/board.js";
import { format, colorName } from "/static/js/texts.js";
import { requestJSON } from "/static/js/api.js";

/**
 * setupConditional wires the conditional-moves panel of the game page.
 *
 * @param {object} o
 * @param {any} o.board the page's Board
 * @param {() => any} o.state returns the game's current snapshot
 * @param {(moves: any[]) => {stones: number[]}} o.replay the position after moves
 * @param {(text: string) => void} o.showError
 * @param {() => void} o.render redraws the page
 * @param {object} o.T the page's texts
 * @param {number} o.gameId
 */
export function setupConditional(o) {
  const { board, T } = o;
  const $ = (id) => document.getElementById(id);
  const ui = {
    panel: $("conditional"), status: $("conditional-status"), help: $("conditional-help"),
    plan: $("conditional-plan"), save: $("conditional-save"), cancel: $("conditional-cancel"), clear: $("conditional-clear"),
  };
  /** scratch holds the points of the plan being entered, null when not planning. */
  let scratch = null;

  const api = (method, body) => requestJSON(method, `/api/v1/games/${o.gameId}/conditional`, body);
  const stored = (data) => {
    const st = o.state();
    if (st && data.state) {
      st.conditional = data.state.conditional || null;
    }
  };

  ui.plan.addEventListener("click", () => {
    scratch = [];
    o.showError("");
    o.render();
  });
  ui.cancel.addEventListener("click", () => {
    scratch = null;
    o.render();
  });
  ui.save.addEventListener("click", async () => {
    try {
      stored(await api("PUT", { moves: scratch.map((p) => [p.x, p.y]) }));
      scratch = null;
      o.showError("");
    } catch (e) {
      o.showError(e.message);
    }
    o.render();
  });
  ui.clear.addEventListener("click", async () => {
    try {
      stored(await api("DELETE"));
    } catch (e) {
      o.showError(e.message);
    }
    o.render();
  });

  /** you and opponent of the current state. */
  const colors = () => {
    const you = o.state().you;
    return { you, opp: you === "black" ? "white" : "black" };
  };
  /** planMoves turns points into moves after the game's moves. */
  const planMoves = (points) => {
    const st = o.state(), { you, opp } = colors();
    return points.map((p, i) => ({ kind: "play", x: p.x, y: p.y, color: i % 2 === 0 ? opp : you, seq: st.game.moveCount + i + 1 }));
  };
  /** describe writes a plan as "If White D4: C3. If White …". */
  const describe = (points) => {
    const st = o.state(), { opp } = colors(), parts = [];
    const h = st.game.settings.boardSize;
    for (let i = 0; i + 1 < points.length; i += 2) {
      parts.push(format(T.roomIfThen, colorName(T, opp), pointName(points[i].x, points[i].y, h), pointName(points[i + 1].x, points[i + 1].y, h)));
    }
    if (points.length % 2 === 1) {
      parts.push(format(T.roomIfOpen, colorName(T, opp), pointName(points[points.length - 1].x, points[points.length - 1].y, h)));
    }
    return parts.join(" ");
  };

  return {
    /** active reports whether the player is entering a plan: clicks belong to it. */
    active: () => scratch !== null,
    /** click adds a point to the plan when it is empty on the scratch board. */
    click(p) {
      const st = o.state();
      const pos = o.replay([...st.moves, ...planMoves(scratch)]);
      if (pos.stones[p.y * st.game.settings.boardSize + p.x] !== 0 || scratch.length >= 40) {
        return;
      }
      scratch.push(p);
      o.render();
    },
    /**
     * render shows the panel when a plan may be left (a correspondence
     * game being played, the opponent to move, the live position shown)
     * and, while planning, the scratch board.
     */
    render(live) {
      const st = o.state();
      const g = st.game;
      const { you } = colors();
      const may = !!you && live && g.status === "playing" && g.toMove !== you &&
        g.settings.timeControl.kind === "correspondence";
      if (!may) {
        scratch = null;
      }
      ui.panel.hidden = !may;
      if (!may) {
        return;
      }
      const planning = scratch !== null;
      ui.plan.hidden = planning;
      ui.save.hidden = ui.cancel.hidden = ui.help.hidden = !planning;
      ui.clear.hidden = planning || !st.conditional;
      if (planning) {
        ui.save.disabled = scratch.length === 0 || scratch.length % 2 === 1;
        ui.status.textContent = scratch.length ? describe(scratch) : T.roomPlanEmpty;
        const moves = [...st.moves, ...planMoves(scratch)];
        const numbers = [];
        planMoves(scratch).forEach((m, i) => {
          numbers[m.y * g.settings.boardSize + m.x] = i + 1;
        });
        const next = scratch.length % 2 === 0 ? colors().opp : you;
        board.update({
          stones: o.replay(moves).stones, numbers, lastMove: null, dead: [], seki: [], territory: null,
          hoverColor: next === "black" ? BLACK : WHITE,
        });
      } else {
        ui.status.textContent = st.conditional ? format(T.roomPlanStored, describe(st.conditional.map(([x, y]) => ({ x, y }))))
          : T.roomPlanNone;
      }
    },
  };
}

/**
 * vacationText says which players are on vacation and until when, "" when
 * nobody is.
 */
export function vacationText(T, vacation) {
  if (!vacation) {
    return "";
  }
  const parts = [];
  for (const color of ["black", "white"]) {
    if (vacation[color]) {
      const until = new Date(vacation[color]);
      parts.push(format(T.roomOnVacation, colorName(T, color), until.toLocaleString(document.documentElement.lang || undefined,
        { dateStyle: "medium", timeStyle: "short" })));
    }
  }
  return parts.join(" ");
}

let audio = null;

/** playMoveSound plays a short click for the opponent's move. */
export function playMoveSound() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  } catch {
    // No sound then (no audio device, or the browser refuses before a gesture).
  }
}
