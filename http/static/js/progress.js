// A visitor's progress (lesson steps, solved problems) is kept in the
// browser. Once the visitor has an account — after login or sign-up, on the
// first page that shows them logged in — this module sends that record to
// POST /api/v1/me/progress and forgets it when the server has it. Until then
// it stays, so a failed request loses nothing; a record sent twice counts
// once (the server's merge is idempotent).

const LESSONS = "tengen.learn";
const PROBLEMS = "tengen.problems.solved";
const REFUSED = "tengen.progress.refused";

function read(key, fallback, session = false) {
  try {
    const store = session ? sessionStorage : localStorage;
    return JSON.parse(store.getItem(key)) || fallback;
  } catch {
    return fallback;
  }
}

/** mergeProgress sends the browser's record if the page's user is logged in. */
export async function mergeProgress() {
  if (!document.body.dataset.user || read(REFUSED, false, true)) {
    return;
  }
  const lessons = read(LESSONS, {});
  const problems = read(PROBLEMS, []);
  if (Object.keys(lessons).length === 0 && problems.length === 0) {
    return;
  }
  try {
    const res = await fetch("/api/v1/me/progress", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lessons, problems }),
    });
    if (res.ok) {
      localStorage.removeItem(LESSONS);
      localStorage.removeItem(PROBLEMS);
    } else if (res.status === 400) {
      // The server refuses the record as a whole (say, a lesson id that no
      // longer exists). Keep it, so nothing is lost, but do not ask again
      // on every page of this visit.
      sessionStorage.setItem(REFUSED, "true");
    }
  } catch {
    // Offline or storage off: try again on the next page.
  }
}
