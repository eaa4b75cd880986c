// The play page's move list and replay: the moves as the server wrote and numbered them
// (`history`, `move_numbers`), a click or the arrow keys show an earlier position.

import { $, message, redraw, state } from "/static/play_state.js";

/**
 * Show the position after move `ply` (-1: the start); the last one is the game itself.
 * @param {number} ply
 */
export function showPly(ply) {
  if (state.busy || !state.game) return;
  state.sel = null;
  const n = state.game.history.length;
  const at = Math.max(0, Math.min(n, ply + 1));
  state.viewPly = at >= n ? null : at;
  message("");
  redraw();
}
export function viewedPly() {
  return state.viewPly === null ? state.game.history.length : state.viewPly;
}

/** "12." for the move that opens number 12, "12…" for the reply (the server's numbering). */
export function moveNumber(ply) {
  return state.game.move_numbers[ply];
}

export function renderMoves() {
  const list = $("move-list");
  list.innerHTML = "";
  const g = state.game;
  if (!g) return;
  let row = null;
  g.history.forEach((text, ply) => {
    const number = g.move_numbers[ply];
    const reply = number.endsWith("…");
    if (!row || !reply) {
      row = document.createElement("li");
      row.className = "move-row";
      const num = document.createElement("span");
      num.className = "move-number";
      num.dir = "ltr";          // "1." reads as such in a right-to-left page too
      num.textContent = `${number.slice(0, -1)}.`;
      row.append(num);
      if (reply) {
        const gap = document.createElement("span");
        gap.className = "move gap";
        gap.textContent = "…";
        row.append(gap);
      }
      list.append(row);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dir = "ltr";              // "21-17" is not "17-21" on a right-to-left page
    b.textContent = text;
    b.dataset.ply = String(ply);
    const viewing = state.viewPly === null ? g.history.length : state.viewPly;
    if (ply + 1 === viewing) {
      b.classList.add("current");
      b.setAttribute("aria-current", "step");
    }
    b.addEventListener("click", () => showPly(ply));
    row.append(b);
  });
  const current = list.querySelector(".current");
  if (state.viewPly === null) list.scrollTop = list.scrollHeight;   // the list only, not the page
  else if (current) current.scrollIntoView({ block: "nearest" });
}

$("btn-first").addEventListener("click", () => showPly(-1));
$("btn-prev").addEventListener("click", () => showPly(viewedPly() - 2));
$("btn-next").addEventListener("click", () => showPly(viewedPly()));
$("btn-last").addEventListener("click", () => showPly(Infinity));
$("btn-live").addEventListener("click", () => showPly(Infinity));
// Arrow keys replay the game (outside the board, where they move between squares, and
// outside text fields); on a right-to-left page "back" is the right arrow.
document.addEventListener("keydown", (e) => {
  if (!state.game || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (t && t.closest && (t.closest("input, select, textarea, #board, .menu, .confirm"))) return;
  const rtl = document.documentElement.dir === "rtl";
  const back = rtl ? "ArrowRight" : "ArrowLeft", forward = rtl ? "ArrowLeft" : "ArrowRight";
  const step = { [back]: -2, [forward]: 0, Home: -Infinity, End: Infinity }[e.key];
  if (step === undefined) return;
  e.preventDefault();
  if (step === -Infinity) showPly(-1);
  else if (step === Infinity) showPly(Infinity);
  else showPly(viewedPly() + step);
});
