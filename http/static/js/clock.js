// Clock faces: what a player's clock shows at a given moment, computed from
// the server's ClockView (docs/API.md, "Clock"). The stored values exclude
// the running turn; the running player's time is the stored value minus the
// time since runningSince, measured on the server's clock.
import { format } from "/static/js/texts.js";

/**
 * clockFace returns what color's clock shows: the time that runs down
 * (text), what comes after it (detail: byo-yomi periods, Canadian stones;
 * "" for the other kinds) and whether it is low.
 *
 * @param {Record<string,string>} T the page's texts
 * @param {any} clock the server's ClockView
 * @param {"black"|"white"} color
 * @param {any} tc the game's time control (periodTime in seconds)
 * @param {number} now the server's time in ms since the epoch (estimated)
 * @returns {{text: string, detail: string, low: boolean}}
 */
export function clockFace(T, clock, color, tc, now) {
  const side = clock[color];
  if (side.timedOut) {
    return { text: T.timedOut, detail: "", low: true };
  }
  let elapsed = 0;
  if (clock.running === color && clock.runningSince) {
    elapsed = Math.max(0, now - Date.parse(clock.runningSince));
  }
  const main = side.mainMs;
  const fullPeriod = (tc.periodTime || 0) * 1000;
  switch (clock.kind) {
    case "byoyomi": {
      if (!side.overtime && main - elapsed > 0) {
        return { text: hms(main - elapsed), detail: format(T.clockPeriods, side.periods, hms(fullPeriod)), low: false };
      }
      // In overtime: the current period runs down; a period used up
      // starts the next one, full, as long as one is left.
      let periods = side.periods;
      let period = (side.overtime ? side.periodMs : fullPeriod) - (side.overtime ? elapsed : elapsed - main);
      while (period <= 0 && periods > 1) {
        periods--;
        period += fullPeriod;
      }
      period = Math.max(0, period);
      return { text: hms(period), detail: format(T.clockOvertime, periods), low: periods <= 1 && period < 10000 };
    }
    case "canadian": {
      if (!side.overtime && main - elapsed > 0) {
        return { text: hms(main - elapsed), detail: "", low: false };
      }
      const left = Math.max(0, (side.overtime ? side.periodMs : fullPeriod) - (side.overtime ? elapsed : elapsed - main));
      const stones = side.overtime ? side.stones : tc.stones;
      return { text: hms(left), detail: format(T.clockStones, stones), low: left < 10000 };
    }
    case "correspondence": {
      const left = Math.max(0, main - elapsed);
      return { text: daysFace(T, left), detail: "", low: left < 3600000 };
    }
    default: {
      // Absolute and Fischer: one bank.
      const left = Math.max(0, main - elapsed);
      return { text: hms(left), detail: "", low: left < 10000 };
    }
  }
}

/**
 * pastClockFace returns what color's clock showed after the given moves, for
 * the replay: the time stored with color's last move among them (docs/API.md,
 * GameMove.clock, in seconds), or the starting time before color's first
 * move.
 *
 * @param {Record<string,string>} T the page's texts
 * @param {string} kind the time control kind
 * @param {any} tc the game's time control (seconds)
 * @param {any[]} moves the moves played so far
 * @param {"black"|"white"} color
 * @returns {{text: string, detail: string, low: boolean}}
 */
export function pastClockFace(T, kind, tc, moves, color) {
  let c = null;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].color === color && moves[i].clock) {
      c = moves[i].clock;
      break;
    }
  }
  if (!c) {
    c = { mainTime: kind === "correspondence" ? (tc.daysPerMove || 0) * 86400 : tc.mainTime || 0,
      overtime: false, periods: tc.periods || 0, periodLeft: tc.periodTime || 0, stones: tc.stones || 0 };
  }
  if (c.timedOut) {
    return { text: T.timedOut, detail: "", low: true };
  }
  const ms = (c.overtime ? c.periodLeft : c.mainTime) * 1000;
  switch (kind) {
    case "byoyomi":
      return { text: hms(ms), detail: c.overtime ? format(T.clockOvertime, c.periods) : format(T.clockPeriods, c.periods, hms((tc.periodTime || 0) * 1000)), low: false };
    case "canadian":
      return { text: hms(ms), detail: c.overtime ? format(T.clockStones, c.stones) : "", low: false };
    case "correspondence":
      return { text: daysFace(T, ms), detail: "", low: false };
  }
  return { text: hms(ms), detail: "", low: false };
}

/**
 * daysFace formats a correspondence clock as days and h:mm:ss, always with
 * the hours ("0 d 0:30:00", not "0 d 30:00", which reads as thirty hours),
 * rounding up to the second before splitting off the days (so never
 * "0 d 24:00:00").
 */
function daysFace(T, ms) {
  const s = Math.ceil(ms / 1000);
  const days = Math.floor(s / 86400), rest = s - days * 86400;
  const two = (n) => String(n).padStart(2, "0");
  return format(T.clockDays, days, `${Math.floor(rest / 3600)}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`);
}

/** hms formats milliseconds as m:ss or h:mm:ss, rounding up while counting down. */
export function hms(ms) {
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}
