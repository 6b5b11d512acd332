// The lobby keeps itself current over the site socket (site.js): the
// server pushes the lobby's sections (your games, challenges, games being
// played, who is online), rendered for this user and language, whenever
// something changes; the page swaps in the sections that differ and never
// touches the forms, which the user may be filling in. No polling.
//
// Quick match ("Find me a game") runs over the same socket: seek, then
// either a match (the game opens), an offer of a computer level after a
// minute without a human, or the user stops searching.

import { onSiteMessage, sendSite } from "/static/js/site.js";
import { format } from "/static/js/texts.js";

const sections = ["lobby-games", "lobby-challenges", "lobby-live", "lobby-online"];

/** initLobby follows the lobby's pushes if the page is the lobby. */
export function initLobby() {
  if (!document.getElementById("lobby-challenges")) {
    return;
  }
  // A refused challenge comes back as the lobby with the error at the
  // form: show the form, not the top of the page.
  const refused = document.getElementById("challenge-error");
  if (refused) {
    refused.scrollIntoView({ block: "center" });
  }
  const known = new Set(gameIds(document));
  let opened = false;
  onSiteMessage((msg) => {
    // Lines of the lobby chat sent while the socket was away: load them
    // when it is back.
    if (msg.type === "open") {
      if (opened) {
        document.dispatchEvent(new CustomEvent("tengen:socket", { detail: { type: "chat-resync" } }));
      }
      opened = true;
    }
    if (msg.type === "lobby" && msg.html) {
      swap(msg.html, known);
    }
    if (msg.type === "notify" && msg.kind === "game-started" && msg.gameId) {
      showNewGame(msg.gameId);
    }
    // The lobby chat (chat.js) listens for socket messages as page events,
    // as it does on the game page.
    if (msg.type === "chat" || msg.type === "chat-deleted" || msg.type === "chat-resync") {
      document.dispatchEvent(new CustomEvent("tengen:socket", { detail: msg }));
    }
  });
  initQuick();
}

/** swap replaces the sections whose markup changed and flags new games. */
function swap(html, known) {
  for (const id of sections) {
    const now = document.getElementById(id);
    if (!now || html[id] === undefined) {
      continue;
    }
    const tpl = document.createElement("template");
    tpl.innerHTML = html[id].trim();
    const next = tpl.content.firstElementChild;
    if (next && next.innerHTML !== now.innerHTML) {
      now.replaceWith(next);
    }
  }
  for (const id of gameIds(document)) {
    if (!known.has(id)) {
      known.add(id);
      showNewGame(id);
    }
  }
}

/** showNewGame points the notice above "Your games" at game id. */
function showNewGame(id) {
  const notice = document.getElementById("new-game");
  if (notice) {
    notice.querySelector("a").setAttribute("href", `/games/${id}`);
    notice.hidden = false;
  }
}

/** gameIds lists the game ids in a lobby's table of your games. */
function gameIds(doc) {
  return [...doc.querySelectorAll("#lobby-games tr[data-game-id]")].map((tr) => tr.dataset.gameId);
}

/** initQuick wires the quick-match form. */
function initQuick() {
  const form = document.getElementById("quick-form");
  if (!form) {
    return;
  }
  const Q = document.getElementById("quick").dataset;
  const status = document.getElementById("quick-status");
  const find = document.getElementById("quick-find");
  const cancel = document.getElementById("quick-cancel");
  const offer = document.getElementById("quick-offer");
  const bot = document.getElementById("quick-bot");
  let seeking = null;
  const setSeeking = (on) => {
    find.hidden = on;
    cancel.hidden = !on;
    if (!on) {
      offer.hidden = true;
    }
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    seeking = { type: "seek", boardSize: Number(form.boardSize.value), speed: form.speed.value };
    if (!sendSite(seeking)) {
      status.textContent = Q.offline;
    }
    setSeeking(true);
  });
  cancel.addEventListener("click", () => {
    sendSite({ type: "unseek" });
    seeking = null;
    setSeeking(false);
    status.textContent = Q.ended;
  });
  bot.addEventListener("click", () => {
    sendSite({ type: "seek-bot" });
  });
  onSiteMessage((msg) => {
    switch (msg.type) {
      case "open":
        // A seek lives as long as its socket: after a reconnect, seek again.
        if (seeking) {
          sendSite(seeking);
        }
        break;
      case "seek-status":
        status.textContent = format(Q.searching, msg.window);
        break;
      case "seek-offer":
        bot.textContent = format(Q.offer, msg.bot, msg.botRank);
        offer.hidden = false;
        break;
      case "seek-matched":
        seeking = null;
        status.textContent = Q.matched;
        location.href = `/games/${msg.gameId}`;
        break;
      case "seek-ended":
        seeking = null;
        setSeeking(false);
        status.textContent = Q.ended;
        break;
      case "error":
        if (seeking || !offer.hidden) {
          status.textContent = msg.message;
        }
        break;
    }
  });
}
