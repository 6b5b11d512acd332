// "My games": keeps the list of running games current. When the site
// socket (site.js) pushes a lobby whose games differ from the last one (a
// move, a new game, an end), it fetches the page again and swaps in the
// server-rendered list, so that a game where the opponent just moved moves
// to the top; the tab title counts the games waiting for the user. No
// polling.
import { texts, format } from "/static/js/texts.js";
import { onSiteMessage } from "/static/js/site.js";

const table = document.getElementById("mygames");
if (table) {
  const T = texts();
  const empty = document.getElementById("mygames-empty");
  const baseTitle = document.title;

  const updateTitle = () => {
    const waiting = table.querySelectorAll("tr.your-turn").length;
    document.title = waiting ? format(T.waitingTitle, waiting, baseTitle) : baseTitle;
  };

  const refresh = async () => {
    try {
      const resp = await fetch(location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" });
      if (!resp.ok) {
        return;
      }
      const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
      const fresh = doc.getElementById("mygames");
      const freshEmpty = doc.getElementById("mygames-empty");
      if (!fresh) {
        return;
      }
      table.tBodies[0].replaceWith(document.importNode(fresh.tBodies[0], true));
      table.hidden = fresh.hasAttribute("hidden");
      if (empty && freshEmpty) {
        empty.hidden = freshEmpty.hasAttribute("hidden");
      }
      updateTitle();
    } catch {
      // Offline for a moment: the next round tries again.
    }
  };

  updateTitle();
  // The games as the last push had them: id, moves, turn, status. The
  // first push may come after a change the rendered page missed.
  let last = null;
  onSiteMessage((msg) => {
    if (msg.type !== "lobby" || !msg.games) {
      return;
    }
    const key = msg.games.map((g) => `${g.id}:${g.moveCount}:${g.toMove}:${g.status}`).join(",");
    if (key !== last) {
      refresh();
    }
    last = key;
  });
}
