// The site socket (docs/API.md, "Site socket"): every page of a logged-in
// user, and the lobby of anyone, holds one WebSocket to /api/v1/ws. It
// brings the lobby when it changes (lobby.js), and notifications: "your
// move", "a game has started", "you were challenged", "takeback asked".
// A notification shows in the page's notification bar, counts in the
// title ("(2) Lobby · Tengen") until the tab is looked at, can play a short
// sound, and, when the tab is hidden and the user has allowed it, becomes
// a browser notification.

import { format } from "/static/js/texts.js";
import { boardPrefs } from "/static/js/board.js";
import { reconnectDelay, sessionEnded } from "/static/js/socket.js";

const handlers = new Set();
let ws = null;
let attempt = 0;
let unseen = 0;
// plainTitle is the title before the badge, badged the title with it
// ("" while there is none).
let plainTitle = document.title;
let badged = "";

/** onSiteMessage calls handler with every message of the site socket. */
export function onSiteMessage(handler) {
  handlers.add(handler);
}

/** sendSite sends msg over the site socket; false when it is not open. */
export function sendSite(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    return false;
  }
  ws.send(JSON.stringify(msg));
  return true;
}

/**
 * initSite opens the site socket when the page has a use for it: the
 * notification bar of a logged-in user, or the lobby.
 */
export function initSite() {
  const bar = document.getElementById("notify");
  const lobby = !!document.getElementById("lobby-challenges");
  // "My games" follows the lobby's pushes (without their HTML) to know
  // when to fetch its list again.
  const mine = !!document.getElementById("mygames");
  if (!bar && !lobby) {
    return;
  }
  if (bar) {
    initBar(bar);
  }
  const query = lobby ? "?lobby=1&html=1" : mine ? "?lobby=1" : "";
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const sock = new WebSocket(`${proto}//${location.host}/api/v1/ws${query}`);
    ws = sock;
    sock.addEventListener("open", () => {
      attempt = 0;
      for (const h of handlers) {
        h({ type: "open" });
      }
    });
    sock.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "notify" && bar) {
        notify(bar, msg);
      }
      for (const h of handlers) {
        h(msg);
      }
    });
    sock.addEventListener("close", (ev) => {
      if (sock !== ws) {
        return;
      }
      for (const h of handlers) {
        h({ type: "close" });
      }
      if (sessionEnded(ev)) {
        return;
      }
      const delay = reconnectDelay(attempt);
      attempt++;
      setTimeout(connect, delay);
    });
  };
  connect();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) {
      unseen = 0;
      showBadge();
    }
  });
}

/**
 * soundOn tells whether notifications chime: as switched on this device,
 * else as the settings page's sound option says.
 */
function soundOn() {
  const here = localStorage.getItem("tengen.notifySound");
  return here === null ? boardPrefs().sound : here === "on";
}

/** initBar wires the opt-in button and the sound switch. */
function initBar(bar) {
  const enable = document.getElementById("notify-enable");
  if ("Notification" in window && Notification.permission === "default") {
    enable.hidden = false;
    enable.addEventListener("click", async () => {
      try {
        await Notification.requestPermission();
      } finally {
        enable.hidden = Notification.permission !== "default";
      }
    });
  }
  const sound = document.getElementById("notify-sound");
  sound.checked = soundOn();
  sound.addEventListener("change", () => {
    localStorage.setItem("tengen.notifySound", sound.checked ? "on" : "off");
  });
}

/** texts of the notification kinds, from the bar's data attributes. */
const kindKeys = {
  "your-move": "yourMove",
  "game-started": "gameStarted",
  challenged: "challenged",
  takeback: "takeback",
  "challenge-withdrawn": "challengeWithdrawn",
  "challenge-expired": "challengeExpired",
};

/** notify shows one notification in every way the page may. */
function notify(bar, msg) {
  const key = kindKeys[msg.kind];
  if (!key) {
    return;
  }
  const href = msg.gameId ? `/games/${msg.gameId}` : "/";
  // The game page of the game in question shows the news itself, unless
  // the tab is hidden.
  const here = location.pathname === href;
  if (here && !document.hidden) {
    return;
  }
  const text = format(bar.dataset[key], msg.from || "");
  const list = document.getElementById("notify-list");
  // One line per game and kind: a newer one replaces the older.
  const tag = `${msg.kind}-${msg.gameId || msg.challengeId || ""}`;
  const old = list.querySelector(`li[data-tag="${tag}"]`);
  if (old) {
    old.remove();
  }
  const li = document.createElement("li");
  li.dataset.tag = tag;
  li.dataset.kind = msg.kind;
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "link";
  close.textContent = bar.dataset.dismiss;
  close.addEventListener("click", () => li.remove());
  li.append(a, " ", close);
  list.prepend(li);
  while (list.children.length > 5) {
    list.lastElementChild.remove();
  }
  if (msg.pending) {
    // Known news, told again to a page that has just opened.
    return;
  }
  if (document.hidden) {
    unseen++;
    showBadge();
  }
  if (soundOn()) {
    beep();
  }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      const n = new Notification("Tengen", { body: text, tag });
      n.onclick = () => {
        window.focus();
        location.href = href;
      };
    } catch {
      // Some browsers allow notifications only from a service worker.
    }
  }
}

/**
 * showBadge puts the count of unseen notifications in the title, and
 * takes it away again, unless the page has set a title of its own
 * meanwhile ("my games" counts the games waiting for the user).
 */
function showBadge() {
  if (unseen > 0) {
    if (!badged) {
      plainTitle = document.title;
    }
    badged = `(${unseen}) ${plainTitle}`;
    document.title = badged;
  } else if (badged) {
    if (document.title === badged) {
      document.title = plainTitle;
    }
    badged = "";
  }
}

/** beep plays a short two-tone chime with the Web Audio API. */
function beep() {
  try {
    const ctx = new AudioContext();
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    [660, 880].forEach((f, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = f;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.12);
      osc.stop(ctx.currentTime + i * 0.12 + 0.1);
    });
    setTimeout(() => ctx.close(), 500);
  } catch {
    // No audio: the title and the bar still tell.
  }
}
