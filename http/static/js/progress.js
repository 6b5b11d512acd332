// A visitor's progress (lesson steps, solved problems) is kept in the
// browser. Once the visitor has an account — after login or sign-up, on the
// first page that shows them logged in — this module sends that record to
// POST /api/v1/me/progress and forgets it when the server has it. Until then
// it stays, so a failed request loses nothing; a record sent twice counts
// once (the server's merge is idempotent).

const LESSONS = "tengen.learn";
const PROBLEMS = "tengen.problems.solved";

function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) || fallback;
  } catch {
    return fallback;
  }
}

/** mergeProgress sends the browser's record if the page's user is logged in. */
export async function mergeProgress() {
  if (!document.body.dataset.user) {
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
    if (res.ok || res.status === 400) {
      // 400: the record is not one the server accepts (an old lesson or
      // problem id); keeping it would only repeat the refusal on every page.
      localStorage.removeItem(LESSONS);
      localStorage.removeItem(PROBLEMS);
    }
  } catch {
    // Offline or storage off: try again on the next page.
  }
}
