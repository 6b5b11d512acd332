// The upload page: a file or pasted text goes to POST /api/v1/reviews as
// it is, bytes and all (the server reads the charset from the record), and
// the page lists the games it became, with the warnings at their line and
// column. A single game without warnings opens at once.
import { texts, format } from "/static/js/texts.js";

const form = document.getElementById("upload-form");
if (form) {
  start(form);
}

function start(form) {
  const T = texts();
  const $ = (id) => document.getElementById(id);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("upload-error");
    err.hidden = true;
    const file = $("upload-file").files[0];
    let body;
    if (file) {
      body = await file.arrayBuffer();
    } else if ($("upload-text").value.trim()) {
      body = new TextEncoder().encode($("upload-text").value);
    } else {
      err.textContent = T.reviewNothing;
      err.hidden = false;
      return;
    }
    const q = new URLSearchParams({ visibility: $("upload-visibility").value });
    const title = $("upload-title").value.trim();
    if (title) q.set("title", title);
    $("upload-submit").disabled = true;
    try {
      const res = await fetch(`/api/v1/reviews?${q}`, {
        method: "POST", headers: { "Content-Type": "application/x-go-sgf" }, body,
      });
      const out = await res.json();
      if (!res.ok) {
        err.textContent = out.error ? out.error.message : res.statusText;
        err.hidden = false;
        return;
      }
      if (out.reviews.length === 1 && out.warnings.length === 0) {
        window.location.href = `/reviews/${out.id}`;
        return;
      }
      const list = $("upload-games");
      list.replaceChildren();
      for (const r of out.reviews) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = `/reviews/${r.id}`;
        a.textContent = r.title;
        li.appendChild(a);
        list.appendChild(li);
      }
      const warns = $("upload-warnings");
      warns.replaceChildren();
      for (const w of out.warnings) {
        const li = document.createElement("li");
        li.textContent = w.line ? format(T.reviewWarningAt, w.line, w.col, w.message) : w.message;
        warns.appendChild(li);
      }
      $("upload-warnings-title").hidden = out.warnings.length === 0;
      $("upload-result").hidden = false;
      form.hidden = true;
    } catch (e) {
      err.textContent = String(e.message || e);
      err.hidden = false;
    } finally {
      $("upload-submit").disabled = false;
    }
  });
}
