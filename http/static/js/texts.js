// Texts for scripts. The page embeds the catalogue's "js." entries as JSON
// in <script type="application/json" id="texts">, so that every string the
// scripts show comes from the same catalogue as the server's pages.

let cache = null;

/** texts returns the page's script texts by key (without the "js." prefix). */
export function texts() {
  if (!cache) {
    const el = document.getElementById("texts");
    try {
      cache = el ? JSON.parse(el.textContent) : {};
    } catch {
      cache = {};
    }
  }
  return cache;
}

/**
 * format fills %s and %d in a text with the arguments in order, as the Go
 * side's fmt verbs in the same catalogue.
 */
export function format(text, ...args) {
  let i = 0;
  return String(text).replace(/%[sd%]/g, (verb) => (verb === "%%" ? "%" : String(args[i++])));
}

/** colorName returns "Black" or "White" in the page's language. */
export function colorName(T, color) {
  return color === "black" ? T.black : color === "white" ? T.white : "";
}

/**
 * resultText explains a result in SGF form ("B+3.5", "W+R", "B+T", "0",
 * "Void") in words.
 */
export function resultText(T, result) {
  if (!result) {
    return "";
  }
  if (result === "0" || result === "Draw" || result === "Jigo") {
    return T.resultJigo;
  }
  if (result === "Void" || result === "?") {
    return T.resultVoid;
  }
  const m = /^([BW])\+(.*)$/.exec(result);
  if (!m) {
    return result;
  }
  const who = m[1] === "B" ? T.black : T.white;
  const how = m[2];
  if (how === "R" || how === "Resign") {
    return format(T.resultResign, who);
  }
  if (how === "T" || how === "Time") {
    return format(T.resultTime, who);
  }
  if (how === "F" || how === "Forfeit") {
    return format(T.resultForfeit, who);
  }
  if (how === "") {
    return format(T.resultWin, who);
  }
  const margin = Number(how);
  return format(T.resultPoints, who, Number.isNaN(margin) ? how : formatNumber(margin));
}

/** formatNumber writes a number the page language's way (3.5, 3,5). */
export function formatNumber(n) {
  return new Intl.NumberFormat(document.documentElement.lang || "en", { maximumFractionDigits: 1 }).format(n);
}
