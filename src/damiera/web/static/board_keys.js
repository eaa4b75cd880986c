// Keyboard on a board drawn by board.js (the play page, the trainer, the puzzles): the
// board is one tab stop, the arrow keys move between its squares (left and right along a
// row, up and down diagonally), Enter or Space choose the focused one. `focus` is the
// square to give tabindex 0 when the board is drawn again (drawBoard's `tabStop`; `onFocus`
// hears of each change), and `refocus()` puts the keyboard's focus back on it after a
// redraw that removed it (the trainer's and the puzzles' after every choice).

/**
 * @param {SVGElement} svg the board
 * @param {(label: string) => void} choose called with the square chosen
 * @param {(label: string) => void} [onFocus] called with each square the focus comes to
 */
export function boardKeys(svg, choose, onFocus = () => {}) {
  const keys = { focus: null, active: false };
  svg.addEventListener("focusin", (e) => {
    const sq = e.target.closest && e.target.closest("[data-square]");
    if (!sq) return;
    keys.focus = sq.dataset.square;
    onFocus(keys.focus);
    for (const other of svg.querySelectorAll("[data-square]")) other.tabIndex = other === sq ? 0 : -1;
  });
  // a redraw removes the focused square (the browser may blur it then): the keyboard stays
  // in use until the pointer is
  svg.addEventListener("pointerdown", () => { keys.active = false; });
  svg.addEventListener("keydown", (e) => {
    const sq = e.target.closest && e.target.closest("[data-square]");
    if (!sq) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      keys.active = true;
      choose(sq.dataset.square);
      return;
    }
    const steps = { ArrowLeft: [-2, 0], ArrowRight: [2, 0], ArrowUp: [-1, -1], ArrowDown: [-1, 1] };
    if (!(e.key in steps)) return;
    e.preventDefault();
    const [dx, dy] = steps[e.key];
    const x = Number(sq.dataset.x), y = Number(sq.dataset.y);
    const all = [...svg.querySelectorAll("[data-square]")];
    const at = (ax, ay) => all.find((s) => Number(s.dataset.x) === ax && Number(s.dataset.y) === ay);
    const target = dy === 0 ? at(x + dx, y) : (at(x - 1, y + dy) || at(x + 1, y + dy));
    if (target) target.focus();
  });
  keys.refocus = () => {
    if (!keys.active || !keys.focus) return;
    const now = document.activeElement;
    if (now && now !== document.body && !svg.contains(now)) return;   // focus moved on
    const sq = svg.querySelector(`[data-square="${keys.focus}"]`);
    if (sq) sq.focus();
  };
  return keys;
}
