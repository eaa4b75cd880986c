// Text helpers of the play page: sentences with placeholders, moves isolated in them, clock
// times. No rule lives here.

// "{square} ..." with params filled in (unknown placeholders left as they are).
export const fmt = (text, params = {}) =>
  String(text).replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));

// Moves, squares and FEN inside a sentence, each isolated left to right (<bdi dir="ltr">):
// on a right-to-left page "21-17" would otherwise read as "17-21", another move.
export const LTR_TOKEN = /([WB]:[WBK0-9a-z,:.-]*|[a-z]?\d+(?:\s*[-x×:]\s*[a-z]?\d+)+|\b[a-l]\d{1,2}\b|\d+)/;
export function setText(el, text) {
  el.replaceChildren();
  appendText(el, text);
}
// `text` added at the end of `el`, its moves, squares and numbers isolated as setText does.
export function appendText(el, text) {
  String(text || "").split(LTR_TOKEN).forEach((part, i) => {
    if (!part) return;
    if (i % 2) {
      const b = document.createElement("bdi");
      b.dir = "ltr";
      b.textContent = part;
      el.append(b);
    } else {
      el.append(part);
    }
  });
}

// An isolated run (<bdi>) holding `text`: `dir` "ltr" for notation, numbers and results;
// "auto" for a name or a message whose language is not known (its first letter decides, so
// an English sentence on an Arabic page stays in one piece, left to right), its moves and
// numbers isolated as setText does.
export function isolated(text, dir = "ltr") {
  const b = document.createElement("bdi");
  b.dir = dir;
  if (dir === "ltr") b.textContent = text;
  else appendText(b, text);
  return b;
}

// `el` filled with the sentence `template` ("Line {line}, column {column}: {message}"), each
// {field} replaced by `parts[field]`: a node (e.g. `isolated(...)`) as it is, a text as
// setText writes it; the sentence's own words in between as setText writes them.
export function setParts(el, template, parts) {
  el.replaceChildren();
  String(template).split(/\{(\w+)\}/).forEach((piece, i) => {
    if (!(i % 2)) { appendText(el, piece); return; }
    const part = piece in parts ? parts[piece] : `{${piece}}`;
    if (part instanceof Node) el.append(part);
    else appendText(el, part);
  });
}

// A clock time: "4:59", "1:02:03", "0:09.4" under ten seconds.
export function clockText(ms) {
  const tenths = ms < 10000;
  const total = Math.max(0, tenths ? Math.floor(ms / 100) : Math.ceil(ms / 1000));
  if (tenths) return `0:0${Math.floor(total / 10)}.${total % 10}`;
  const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, sec = total % 60;
  const mm = h ? `${h}:${String(m).padStart(2, "0")}` : String(m);
  return `${mm}:${String(sec).padStart(2, "0")}`;
}
