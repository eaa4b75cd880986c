// Damiera board: draws a draughts position in an <svg>, for the play page and static diagrams.
//
// The board knows no rule: the server says which squares exist (label, file, rank), where the
// pieces stand, and what to highlight. Squares are drawn with White's side at the bottom
// (the official orientation) unless `flipped`.
//
//   import { drawBoard } from "/static/board.js";
//   drawBoard(svg, {
//     board: { size: 8, squares: [{ label: "1", file: 1, rank: 7 }, ...] },  // GET /api/variants
//     pieces: { "22": "white-man", "9": "black-king" },   // the API's "pieces"
//     notation: "numeric" | "algebraic",   // numbers in the squares, or a-h / 1-8 on the edges
//     flipped: false,
//     highlights: {                         // all optional, lists of square labels
//       start: "22", targets: ["17", "18"], captured: ["18"], capturable: ["14"],
//       crowned: ["4"], last: ["23", "19"], movable: ["21", "22"],
//       via: ["15"], ends: ["6"],           // later landings of a capture, and where it ends
//       paths: [["22", "15", "6"]],         // capture paths drawn as lines
//       choices: [{ path: ["22", "13"], n: 0, focused: false }],   // moves to choose from,
//                                          // each a line of its own style (choice-n), apart
//       lastPath: ["23", "19"], lastCaptured: ["14"],   // the last move's path and takings
//     },
//     describe: (label, piece, flags) => "square 22, white man",   // aria-label of a square;
//                                    // flags: { start, target, captured, movable } booleans
//     interactive: true,    // squares are buttons; one tab stop (tabindex 0 on `tabStop`,
//     tabStop: "22",        // -1 on the others: the page moves focus with the arrow keys)
//   });
//
// Each playing square is <g data-square="LABEL" aria-label="..."> and each piece inside it
// <g data-piece="white-man|white-king|black-man|black-king">.

import { fmt } from "/static/text.js";

const SVG = "http://www.w3.org/2000/svg";
const UNIT = 100;
export const PIECES = ["white-man", "white-king", "black-man", "black-king"];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

// The `describe` option of a page whose strings `S` hold square_piece ("{square}, {piece}"),
// square_empty and each piece's name (S["white-man"], ...): a square's label and piece, read.
export function describer(S) {
  return (label, piece) => (piece ? fmt(S.square_piece, { square: label, piece: S[piece] })
    : fmt(S.square_empty, { square: label }));
}

// Position of a square on screen, in squares from the top-left corner.
export function screenXY(size, file, rank, flipped) {
  return flipped ? [size - 1 - file, rank] : [file, size - 1 - rank];
}

function drawPiece(parent, piece, cx, cy, extraClass = "") {
  const [color, kind] = piece.split("-");
  const g = el("g", { class: `piece ${color} ${kind} ${extraClass}`.trim(), "data-piece": piece }, parent);
  const r = UNIT * 0.38;
  el("circle", { cx, cy: cy + 4, r, class: "piece-shadow" }, g);
  el("circle", { cx, cy, r, class: "piece-body" }, g);
  el("circle", { cx, cy, r: r * 0.72, class: "piece-ring" }, g);
  if (kind === "king") {
    const w = r * 0.95, h = r * 0.62, x = cx - w / 2, y = cy - h / 2 + 2;
    const pts = [
      [x, y + h], [x, y + h * 0.25], [x + w * 0.25, y + h * 0.6], [x + w * 0.5, y],
      [x + w * 0.75, y + h * 0.6], [x + w, y + h * 0.25], [x + w, y + h],
    ].map((p) => p.join(",")).join(" ");
    el("polygon", { points: pts, class: "crown" }, g);
  }
  return g;
}

// Draw (or redraw) the board into `svg`. Returns a map label -> square <g>.
export function drawBoard(svg, options) {
  const { board, pieces = {}, notation = "numeric", flipped = false, highlights = {},
    describe = null, interactive = false, tabStop = null } = options;
  const size = board.size;
  const margin = notation === "algebraic" ? UNIT * 0.42 : 0;
  const total = size * UNIT;
  svg.setAttribute("viewBox", `${-margin} 0 ${total + margin} ${total + margin}`);
  svg.classList.add("damiera-board");
  svg.setAttribute("direction", "ltr");   // square labels read left to right on RTL pages too
  svg.classList.toggle("flipped", !!flipped);
  while (svg.firstChild) svg.removeChild(svg.firstChild);

  const set = (name) => new Set(highlights[name] || []);
  const targets = set("targets"), captured = set("captured"), capturable = set("capturable");
  const crowned = set("crowned"), last = set("last"), movable = set("movable");
  const via = set("via"), ends = set("ends"), lastCaptured = set("lastCaptured");
  const firstLabel = board.squares.length ? board.squares[0].label : null;
  // Where every square plays (Turkish), the squares of the other colour than the first one
  // get a second shade, so the board still reads as a chequerboard (colour only, no rule).
  const parity = board.squares.length ? (board.squares[0].file + board.squares[0].rank) % 2 : 0;
  const stop = tabStop || firstLabel;

  // Light squares (one background rect) and the frame.
  el("rect", { x: 0, y: 0, width: total, height: total, class: "light" }, svg);
  const squares = {};
  for (const sq of board.squares) {
    const [x, y] = screenXY(size, sq.file, sq.rank, flipped);
    const piece = pieces[sq.label] || null;
    const cls = ["sq"];
    if ((sq.file + sq.rank) % 2 !== parity) cls.push("alt");
    if (highlights.start === sq.label) cls.push("start");
    if (targets.has(sq.label)) cls.push("target");
    if (last.has(sq.label)) cls.push("last");
    if (movable.has(sq.label)) cls.push("movable");
    if (via.has(sq.label)) cls.push("via");
    if (ends.has(sq.label)) cls.push("end");
    const g = el("g", {
      class: cls.join(" "),
      "data-square": sq.label,
      "data-x": x,
      "data-y": y,
      tabindex: interactive ? (sq.label === stop ? 0 : -1) : null,
      role: interactive ? "button" : null,
      "aria-label": describe ? describe(sq.label, piece, {
        start: highlights.start === sq.label, target: targets.has(sq.label),
        captured: captured.has(sq.label), movable: movable.has(sq.label),
      }) : null,
    }, svg);
    el("rect", { x: x * UNIT, y: y * UNIT, width: UNIT, height: UNIT, class: "dark" }, g);
    if (last.has(sq.label)) {   // the last move: a light frame inside the square (3:1 and more)
      el("rect", { x: x * UNIT + 5, y: y * UNIT + 5, width: UNIT - 10, height: UNIT - 10, class: "last-frame" }, g);
    }
    const cx = x * UNIT + UNIT / 2, cy = y * UNIT + UNIT / 2;
    if (lastCaptured.has(sq.label) && !piece) {   // a piece the last move took
      const d = UNIT * 0.2;
      el("circle", { cx, cy, r: UNIT * 0.3, class: "taken-ring" }, g);
      el("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}L${cx - d},${cy + d}`, class: "taken-cross" }, g);
    }
    if (piece) {
      const extra = [captured.has(sq.label) ? "captured" : "", capturable.has(sq.label) ? "capturable" : "",
        crowned.has(sq.label) ? "crowned" : ""].join(" ");
      drawPiece(g, piece, cx, cy, extra);
      if (captured.has(sq.label)) {
        const d = UNIT * 0.22;
        el("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}L${cx - d},${cy + d}`, class: "cross" }, g);
      }
    }
    if (ends.has(sq.label) && !piece) {          // where a move ends: a solid disc
      el("circle", { cx, cy, r: UNIT * 0.2, class: "end-dot" }, g);
    } else if ((targets.has(sq.label) || via.has(sq.label)) && !piece) {   // on the way: a ring
      el("circle", { cx, cy, r: UNIT * 0.15, class: "via-dot" }, g);
    } else if (targets.has(sq.label) || ends.has(sq.label)) {
      el("circle", { cx, cy, r: UNIT * 0.45, class: "target-dot occupied" }, g);
    }
    if (notation === "numeric") {   // on top of the piece, in the corner
      el("text", { x: x * UNIT + 5, y: y * UNIT + 19, class: "sq-label" }, g).textContent = sq.label;
    }
    squares[sq.label] = g;
  }
  // Lines on top of the squares (never in the way of a click): the last move, capture paths.
  const centre = {};
  for (const sq of board.squares) {
    const [x, y] = screenXY(size, sq.file, sq.rank, flipped);
    centre[sq.label] = [x * UNIT + UNIT / 2, y * UNIT + UNIT / 2];
  }
  const line = (labels, cls) => {
    const pts = labels.filter((l) => centre[l]).map((l) => centre[l].join(",")).join(" ");
    if (labels.length > 1) el("polyline", { points: pts, class: cls, "pointer-events": "none" }, svg);
  };
  if (highlights.lastPath) line(highlights.lastPath, "last-path");
  for (const path of highlights.paths || []) line(path, "capture-path-under");
  for (const path of highlights.paths || []) line(path, "capture-path");
  // Moves to choose from: each in its own colour and dash (entry_choices.js shows the same
  // beside its notation), set a little apart sideways so that shared stretches show both.
  const choices = highlights.choices || [];
  const count = new Set(choices.map((c) => c.n)).size;
  for (const under of [true, false]) {
    for (const c of choices) {
      const dx = count > 1 ? (c.n % 4 - (Math.min(count, 4) - 1) / 2) * 10 : 0;
      const pts = c.path.filter((l) => centre[l]).map((l) => `${centre[l][0] + dx},${centre[l][1]}`);
      if (pts.length < 2) continue;
      const cls = under ? "choice-path-under" : `choice-path choice-${c.n % 4}${c.focused ? " focused" : ""}`;
      el("polyline", { points: pts.join(" "), class: cls, "data-choice": under ? null : c.n,
        "pointer-events": "none" }, svg);
    }
  }
  if (notation === "algebraic") {
    for (let i = 0; i < size; i++) {
      const file = flipped ? size - 1 - i : i;
      const rank = flipped ? i + 1 : size - i;
      el("text", { x: i * UNIT + UNIT / 2, y: total + margin * 0.75, class: "coord" }, svg)
        .textContent = String.fromCharCode(97 + file);
      el("text", { x: -margin / 2, y: i * UNIT + UNIT / 2 + 10, class: "coord" }, svg)
        .textContent = String(rank);
    }
  }
  return squares;
}

// The playing square (its <g data-square>) under a screen point, or null.
export function squareAtPoint(x, y) {
  const hit = document.elementFromPoint(x, y);
  return hit ? hit.closest("[data-square]") : null;
}

// A free-floating piece drawn on top of the board (used while dragging).
export function ghostPiece(svg, piece) {
  const g = el("g", { class: "ghost", "pointer-events": "none" }, svg);
  drawPiece(g, piece, 0, 0);
  return {
    moveTo(clientX, clientY) {
      const pt = svg.createSVGPoint();
      pt.x = clientX; pt.y = clientY;
      const p = pt.matrixTransform(svg.getScreenCTM().inverse());
      g.setAttribute("transform", `translate(${p.x},${p.y})`);
    },
    remove() { g.remove(); },
  };
}
