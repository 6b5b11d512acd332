// "My games": keeps the list of running games current. Every few seconds
// (while the tab is visible) it fetches the page again and swaps in the
// server-rendered list, so that a game where the opponent just moved moves
// to the top; the tab title counts the games waiting for the user.
import { texts, format } from "/static/js/texts.js";

const table = document.getElementById("mygames");
if (table) {
  const T = texts();
  const empty = document.getElementById("mygames-empty");
  const baseTitle = document.title;
  const interval = 3000;

  const updateTitle = () => {
    const waiting = table.querySelectorAll("tr.your-turn").length;
    document.title = waiting ? format(T.waitingTitle, waiting, baseTitle) : baseTitle;
  };

  const refresh = async () => {
    if (document.hidden) {
      return;
    }
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
  setInterval(refresh, interval);
  document.addEventListener("visibilitychange", refresh);
}
