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

// A clock time: "4:59", "1:02:03", "0:09.4" under ten seconds.
export function clockText(ms) {
  const tenths = ms < 10000;
  const total = Math.max(0, tenths ? Math.floor(ms / 100) : Math.ceil(ms / 1000));
  if (tenths) return `0:0${Math.floor(total / 10)}.${total % 10}`;
  const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, sec = total % 60;
  const mm = h ? `${h}:${String(m).padStart(2, "0")}` : String(m);
  return `${mm}:${String(sec).padStart(2, "0")}`;
}
