// The chat panel of the game page and the lobby (templates/chat.html).
// It loads the messages the viewer may read over the API and takes live
// messages from the page's socket: the socket's owner (game.js, the
// lobby's socket) dispatches each message it receives as a "tengen:socket"
// event on document. User text only ever goes into textContent.

import { format } from "/static/js/texts.js";
import { requestJSON } from "/static/js/api.js";

const panel = document.getElementById("chat");
if (panel) {
  mount(panel);
}

function mount(panel) {
  const url = panel.dataset.url;
  const gameId = panel.dataset.gameId ? Number(panel.dataset.gameId) : 0;
  const me = panel.dataset.me || "";
  const admin = panel.dataset.admin === "true";
  const L = {};
  for (const [k, v] of Object.entries(panel.dataset)) {
    if (k.startsWith("t") && k.length > 1 && k[1] === k[1].toUpperCase()) {
      L[k[1].toLowerCase() + k.slice(2)] = v;
    }
  }
  const log = panel.querySelector("#chat-log");
  const form = panel.querySelector("#chat-form");
  const input = panel.querySelector("#chat-text");
  const errorEl = panel.querySelector("#chat-error");
  const roomNote = panel.querySelector("#chat-room-note");
  const mutedEl = panel.querySelector("#chat-muted");
  const tabs = [...panel.querySelectorAll("[role=tab]")];

  /** messages by id; rooms the viewer may read; the room shown. */
  let messages = new Map();
  let rooms = [];
  let shown = gameId ? "" : "lobby";
  let muted = new Set();
  let ownRoom = "";

  function showError(text) {
    errorEl.textContent = text || "";
    errorEl.hidden = !text;
  }

  const api = (method, path, body) => requestJSON(method, path, body, L.failed);

  async function load() {
    try {
      const data = await api("GET", url);
      messages = new Map(data.messages.map((m) => [m.id, m]));
      rooms = data.rooms || [];
      ownRoom = data.room || "";
      muted = new Set(data.muted || []);
      if (!rooms.includes(shown)) {
        shown = rooms.includes(ownRoom) ? ownRoom : rooms[0] || "";
      }
      showError("");
      render();
    } catch (err) {
      showError(err.message);
    }
  }

  function render() {
    for (const tab of tabs) {
      const room = tab.dataset.room;
      tab.hidden = !rooms.includes(room);
      tab.setAttribute("aria-selected", room === shown ? "true" : "false");
      tab.classList.toggle("unread", tab.classList.contains("unread") && room !== shown);
    }
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    log.replaceChildren();
    const list = [...messages.values()].filter((m) => m.room === shown && !muted.has(m.author)).sort((a, b) => a.id - b.id);
    if (list.length === 0) {
      const li = document.createElement("li");
      li.className = "chat-empty";
      li.textContent = L.empty;
      log.append(li);
    }
    for (const m of list) {
      log.append(row(m));
    }
    if (atBottom || list.length < 8) {
      log.scrollTop = log.scrollHeight;
    }
    if (roomNote) {
      // Both rooms open to a player only when the game is over.
      const over = rooms.length > 1;
      roomNote.textContent = over ? L.over : ownRoom === "players" ? L.players : ownRoom === "spectators" ? L.spectators : "";
      roomNote.hidden = !roomNote.textContent;
      form.hidden = !ownRoom;
    }
    mutedEl.replaceChildren();
    mutedEl.hidden = muted.size === 0;
    if (muted.size > 0) {
      mutedEl.append(L.muted + " ");
      for (const name of [...muted].sort()) {
        const b = button(format(L.unmute, name), () => setMuted(name, false));
        b.dataset.unmute = name;
        mutedEl.append(b, " ");
      }
    }
  }

  function button(text, onClick, label) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = text;
    if (label) {
      b.setAttribute("aria-label", label);
    }
    b.addEventListener("click", onClick);
    return b;
  }

  function row(m) {
    const li = document.createElement("li");
    li.dataset.id = m.id;
    const when = document.createElement("span");
    when.className = "chat-when";
    const time = new Date(m.createdAt);
    const clock = time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    when.textContent = gameId ? `${format(L.move, m.moveNumber)} · ${clock}` : clock;
    when.title = time.toLocaleString();
    const author = document.createElement("a");
    author.className = "chat-author";
    author.href = `/users/${encodeURIComponent(m.author)}`;
    author.textContent = m.author;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = m.text;
    // The line above the text: who, when, and what one can do about it.
    const meta = document.createElement("div");
    meta.className = "chat-meta";
    meta.append(author, " ", when);
    if (me && m.author !== me) {
      const b = button(L.mute, () => setMuted(m.author, true), format(L.muteName, m.author));
      b.classList.add("chat-mute");
      meta.append(" ", b);
    }
    if (admin) {
      const b = button(L.delete, () => remove(m), L.delete);
      b.classList.add("chat-delete");
      meta.append(" ", b);
    }
    li.append(meta, text);
    return li;
  }

  async function setMuted(name, on) {
    try {
      const data = await api(on ? "POST" : "DELETE", `/api/v1/users/${encodeURIComponent(name)}/mute`);
      muted = new Set(data.muted || []);
      showError("");
      if (on) {
        render();
      } else {
        // The server left out the muted user's messages: fetch them now.
        load();
      }
    } catch (err) {
      showError(err.message);
    }
  }

  async function remove(m) {
    if (!confirm(L.deleteConfirm)) {
      return;
    }
    try {
      await api("DELETE", `/api/v1/chat/${m.id}`);
      messages.delete(m.id);
      showError("");
      render();
    } catch (err) {
      showError(err.message);
    }
  }

  function add(m) {
    messages.set(m.id, m);
    if (m.room !== shown) {
      const tab = tabs.find((t) => t.dataset.room === m.room);
      if (tab) {
        tab.classList.add("unread");
      }
    }
    render();
  }

  for (const tab of tabs) {
    tab.addEventListener("click", () => {
      shown = tab.dataset.room;
      tab.classList.remove("unread");
      render();
    });
  }

  if (form) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) {
        return;
      }
      try {
        const data = await api("POST", url, { text });
        input.value = "";
        showError("");
        shown = data.message.room;
        add(data.message);
      } catch (err) {
        showError(err.message);
      }
    });
  }

  document.addEventListener("tengen:socket", (ev) => {
    const msg = ev.detail || {};
    switch (msg.type) {
      case "chat": {
        const m = msg.chat;
        if (m && (gameId ? m.gameId === gameId : m.room === "lobby") && !muted.has(m.author)) {
          add(m);
        }
        break;
      }
      case "chat-deleted":
        if (messages.delete(msg.chatId)) {
          render();
        }
        break;
      case "game":
        // A snapshot after (re)connecting: messages may have come in the
        // gap.
        load();
        break;
      case "chat-resync":
        // The server may have missed lines (its instances lost touch), or
        // the lobby's socket reconnected.
        load();
        break;
      case "phase":
        // At the end of the game both rooms open to everybody.
        if (msg.game && msg.game.status === "finished") {
          load();
        }
        break;
    }
  });

  load();
}
