// The capture entry's choices as buttons, on every page where moves are played (the play
// page and the analysis board): when the clicked squares name several moves (entry.js
// `choices`), each is written in notation beside a sample of the line that draws it on the
// board; pointing at one (mouse or keyboard focus) draws it alone, a click plays it.
//
// The page's markup (templates/entry_choices.html): <div id="entry-choices" hidden> with a
// label and <ul id="entry-choice-list">. Each button carries data-move (the move's notation).

import { choices } from "/static/entry.js";
import { isolated } from "/static/text.js";

const SVG = "http://www.w3.org/2000/svg";

function sample(n) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 24");     // the board's units: a square is 100
  svg.setAttribute("class", "choice-sample");
  svg.setAttribute("aria-hidden", "true");
  for (const cls of ["choice-path-under", `choice-path choice-${n % 4}`]) {
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("x1", "10"); line.setAttribute("y1", "12");
    line.setAttribute("x2", "90"); line.setAttribute("y2", "12");
    line.setAttribute("class", cls);
    svg.appendChild(line);
  }
  return svg;
}

/**
 * Show the choices of the selection `sel` (null or none: the box is hidden).
 * @param {object | null} sel  the capture entry's selection (entry.js)
 * @param {{ pick: (index: number) => void, point: (index: number | null) => void }} on
 *   `pick`: a choice was clicked; `point`: the pointer or the focus is on a choice (null: left)
 */
export function showChoices(sel, on) {
  const box = document.getElementById("entry-choices");
  const list = document.getElementById("entry-choice-list");
  if (!box || !list) return;
  const items = choices(sel);
  const key = items.map((c) => c.move).join(" ");
  if (list.dataset.key !== key) {          // rebuilt only when the choices change (a focused
    list.dataset.key = key;                // button keeps its focus across redraws)
    list.replaceChildren(...items.map((c, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "entry-choice";
      b.dataset.move = c.move;
      b.append(sample(i), isolated(c.move));
      b.addEventListener("click", () => on.pick(i));
      b.addEventListener("pointerenter", () => on.point(i));
      b.addEventListener("pointerleave", () => on.point(null));
      b.addEventListener("focus", () => on.point(i));
      b.addEventListener("blur", () => on.point(null));
      li.appendChild(b);
      return li;
    }));
  }
  const focus = sel && sel.focus !== null && sel.focus !== undefined ? sel.focus : -1;
  list.querySelectorAll("button").forEach((b, i) => {
    b.classList.toggle("pointed", i === focus);
  });
  const appearing = box.hidden && items.length > 0;
  box.hidden = items.length === 0;
  // the board fills the screen's height, so the choices under it start off-screen: brought
  // into view (no further than needed) when they appear, not on every redraw
  if (appearing) box.scrollIntoView({ block: "nearest" });
}
