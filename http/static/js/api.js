// The one way the page scripts call the JSON API: send a JSON body, read a
// JSON answer, and turn a refusal into an Error carrying the server's
// message (already in the page's language).

/**
 * requestJSON sends method to path with body (as JSON, when given) and
 * returns the decoded answer, or {} when the answer has no JSON body.
 *
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {string} [fallback] the message when the server gave none
 * @returns {Promise<any>}
 */
export async function requestJSON(method, path, body, fallback) {
  const res = await fetch(path, {
    method,
    headers: body !== undefined ? { "Content-Type": "application/json" } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw new Error((data && data.error && data.error.message) || fallback || res.statusText);
  }
  return data || {};
}
