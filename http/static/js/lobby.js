// The lobby keeps itself current while it is open: every few seconds it
// fetches the page again and swaps in the server-rendered sections (your
// games, challenges, games being played), never the challenge form, which
// the user may be filling in. When a game of yours appears that was not
// there before, for example because someone accepted your challenge, a
// notice links to it.

const interval = 3000;
const sections = ["lobby-games", "lobby-challenges", "lobby-live"];

/** initLobby starts the updates if the page is the lobby of a logged-in user. */
export function initLobby() {
  if (!document.getElementById("lobby-games")) {
    return;
  }
  const known = new Set(gameIds(document));
  // last holds the sections' markup as the server sent it, so that
  // unchanged sections are left alone (a click on them is never lost).
  const last = {};
  for (const id of sections) {
    const el = document.getElementById(id);
    last[id] = el ? el.innerHTML : "";
  }
  let busy = false;
  const refresh = async () => {
    if (document.hidden || busy) {
      return;
    }
    busy = true;
    try {
      const resp = await fetch("/", { headers: { Accept: "text/html" }, cache: "no-store" });
      if (resp.ok) {
        swap(new DOMParser().parseFromString(await resp.text(), "text/html"), known, last);
      }
    } catch {
      // Offline for a moment: the next round tries again.
    } finally {
      busy = false;
    }
  };
  setInterval(refresh, interval);
  document.addEventListener("visibilitychange", refresh);
}

/** swap replaces the lobby's changed sections with those of doc and flags new games. */
function swap(doc, known, last) {
  const oldNotice = document.getElementById("new-game");
  let href = oldNotice && !oldNotice.hidden ? oldNotice.querySelector("a").getAttribute("href") : "";
  const fresh = gameIds(doc).filter((id) => !known.has(id));
  for (const id of fresh) {
    known.add(id);
  }
  if (fresh.length) {
    href = `/games/${fresh[0]}`;
  }
  for (const id of sections) {
    const now = document.getElementById(id);
    const next = doc.getElementById(id);
    if (now && next && next.innerHTML !== last[id]) {
      last[id] = next.innerHTML;
      now.replaceWith(document.importNode(next, true));
    }
  }
  const notice = document.getElementById("new-game");
  if (href && notice) {
    notice.querySelector("a").setAttribute("href", href);
    notice.hidden = false;
  }
}

/** gameIds lists the game ids in a lobby's table of your games. */
function gameIds(doc) {
  return [...doc.querySelectorAll("#lobby-games tr[data-game-id]")].map((tr) => tr.dataset.gameId);
}
