// A small SGF reader and writer for the review board. The server sends
// records in the canonical form of package sgf (FF[4], UTF-8, already
// repaired), and checks and canonicalises whatever the board sends back,
// so this reader needs no leniency: it keeps each value raw, as written.
// Neither function recurses, so variations may nest to any depth.

/**
 * A node of a game tree.
 * @typedef {{props: [string, string[]][], children: SGFNode[], parent: SGFNode|null}} SGFNode
 */

/** parseSGF returns the root nodes of the game trees in text. */
export function parseSGF(text) {
  const roots = [];
  const stack = [];
  let cur = null;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "(") {
      stack.push(cur);
      i++;
    } else if (c === ")") {
      cur = stack.length ? stack.pop() : null;
      i++;
    } else if (c === ";") {
      const node = { props: [], children: [], parent: cur };
      if (cur) {
        cur.children.push(node);
      } else {
        roots.push(node);
      }
      cur = node;
      i++;
    } else if (c >= "A" && c <= "Z" && cur) {
      let j = i;
      while (j < n && text[j] >= "A" && text[j] <= "Z") j++;
      const id = text.slice(i, j);
      const values = [];
      i = j;
      for (;;) {
        while (i < n && /\s/.test(text[i])) i++;
        if (text[i] !== "[") break;
        let k = i + 1;
        while (k < n && text[k] !== "]") {
          k += text[k] === "\\" ? 2 : 1;
        }
        values.push(text.slice(i + 1, k));
        i = k + 1;
      }
      if (values.length) {
        cur.props.push([id, values]);
      }
    } else {
      i++;
    }
  }
  return roots;
}

/** formatSGF writes one game tree; the server canonicalises it. */
export function formatSGF(root) {
  let out = "(";
  // Each item is a node to write, or the string "(" or ")" of a variation.
  const todo = [root];
  while (todo.length) {
    const item = todo.pop();
    if (item === "(" || item === ")") {
      out += item;
      continue;
    }
    out += ";";
    for (const [id, vals] of item.props) {
      out += id + vals.map((v) => "[" + v + "]").join("");
    }
    const ch = item.children;
    if (ch.length === 1) {
      todo.push(ch[0]);
    } else {
      for (let k = ch.length - 1; k >= 0; k--) {
        todo.push(")", ch[k], "(");
      }
    }
  }
  return out + ")\n";
}

/** get returns the raw values of property id, or []. */
export function get(node, id) {
  for (const [k, v] of node.props) {
    if (k === id) return v;
  }
  return [];
}

/** set replaces property id's values; no values deletes it. */
export function set(node, id, values) {
  const i = node.props.findIndex(([k]) => k === id);
  if (!values || values.length === 0) {
    if (i >= 0) node.props.splice(i, 1);
  } else if (i >= 0) {
    node.props[i][1] = values;
  } else {
    node.props.push([id, values]);
  }
}

/** unescapeText reads a Text value: escapes and soft line breaks go. */
export function unescapeText(raw) {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "\\") {
      i++;
      if (raw[i] === "\n") continue;
      if (i < raw.length) out += raw[i];
    } else {
      out += raw[i];
    }
  }
  return out;
}

/** escapeText writes a Text or SimpleText value. */
export function escapeText(s) {
  return s.replace(/[\\\]]/g, (c) => "\\" + c);
}

/** text returns the unescaped text of property id ("" if absent). */
export function text(node, id) {
  return get(node, id).map(unescapeText).join("\n");
}

/** pointOf reads "pd" as {x: 15, y: 3}; null for a pass or junk. */
export function pointOf(raw, width, height) {
  if (raw.length !== 2) return null;
  const v = (c) => (c >= "a" && c <= "z" ? c.charCodeAt(0) - 97 : c >= "A" && c <= "Z" ? c.charCodeAt(0) - 65 + 26 : -1);
  const x = v(raw[0]), y = v(raw[1]);
  if (x < 0 || y < 0 || x >= width || y >= height) return null;
  return { x, y };
}

/** pointRaw writes {x, y} as SGF's two letters. */
export function pointRaw(p) {
  const c = (v) => String.fromCharCode(v < 26 ? 97 + v : 65 + v - 26);
  return c(p.x) + c(p.y);
}

/** points expands a point list with "aa:cc" rectangles. */
export function points(values, width, height) {
  const out = [];
  for (const raw of values) {
    const [a, b] = raw.split(":");
    const p = pointOf(a, width, height);
    if (!p) continue;
    const q = b === undefined ? p : pointOf(b, width, height);
    if (!q) continue;
    for (let y = Math.min(p.y, q.y); y <= Math.max(p.y, q.y); y++) {
      for (let x = Math.min(p.x, q.x); x <= Math.max(p.x, q.x); x++) {
        out.push({ x, y });
      }
    }
  }
  return out;
}
