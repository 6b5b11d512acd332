// Shared rules for the page sockets (site.js, game.js, review.js), so that
// every socket backs off the same way after a server restart.

/**
 * reconnectDelay returns how long to wait, in milliseconds, before the
 * attempt-th reconnection (counted from 0): 0.5 s doubling up to 30 s, with
 * some jitter so that many tabs do not come back at the same moment.
 *
 * @param {number} attempt
 * @returns {number}
 */
export function reconnectDelay(attempt) {
  return Math.min(30000, 500 * 2 ** attempt) * (0.8 + 0.4 * Math.random());
}

/**
 * sessionEnded tells whether the server closed the socket because the
 * session ended (logged out, or the account was disabled): reconnecting
 * would only come back as a stranger.
 *
 * @param {CloseEvent} ev
 * @returns {boolean}
 */
export function sessionEnded(ev) {
  return ev.code === 1008 && ev.reason.startsWith("session ended");
}
