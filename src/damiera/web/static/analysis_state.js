// The analysis board's state and what all its parts read: the page's data and strings, the
// variation tree's main line and move numbers, scores as text, the query of a position. The
// board's own moves (goTo, play, renderTree) are set by analysis.js at start and called through
// `board`, so that no part imports the page script (no import circle).
import { fmt, setText } from "/static/text.js";

export const DATA = JSON.parse(document.getElementById("page-data").textContent);
export const S = DATA.strings;
export const VARIANTS = Object.fromEntries(DATA.variants.map((v) => [v.id, v]));
export const $ = (id) => document.getElementById(id);

export const state = {
  variant: null, optional: false, goals: [], mode: "edit", tool: "white-man", flipped: false,
  edit: { pieces: {}, turn: "white" },
  root: null, node: null, selection: null,
  engineOn: false, source: null, multipv: 1,
  gameId: null, result: null, review: null, reviewTimer: null,
};

// -- small helpers ---------------------------------------------------------------------------
// Moves and squares in a message read left to right on right-to-left pages too (text.js).
export function message(text) { setText($("message"), text || ""); }


// The rule set's id with the game's goal options ("international+losing"), sent back as read.
export function rulesId() {
  return [state.variant.id, ...state.goals].join("+");
}

export function query(extra) {
  const p = new URLSearchParams({ variant: rulesId(), ...extra });
  if (state.optional) p.set("optional_capture", "true");
  return p.toString();
}

// Most moves of a line sent with a position (the server's MAX_LINE): a rule that lives in the
// game's moves (Frisian's king-move limit) needs only the last few.
const MAX_LINE = 200;

// The query of `node`'s position as the end of its line: the FEN of the line's start (the
// root, or the node MAX_LINE moves up) and the moves from there, so that the server applies
// the rules of the game's history as in a game.
export function lineQuery(node, extra = {}) {
  const moves = [];
  let start = node;
  while (start.parent && moves.length < MAX_LINE) { moves.unshift(start.move.move); start = start.parent; }
  return query({ fen: start.fen, ...(moves.length ? { moves: moves.join(" ") } : {}), ...extra });
}

export function menText(score) { return score === 0 ? "0.00" : (score > 0 ? "+" : "−") + (Math.abs(score) / 100).toFixed(2); }

export function scoreText(line) {
  if (line.win_in !== null && line.win_in !== undefined) return fmt(S.win_in, { side: S.white, n: line.win_in });
  if (line.loss_in !== null && line.loss_in !== undefined) return fmt(S.win_in, { side: S.black, n: line.loss_in });
  return menText(line.score);
}

export function mainLine() {
  const out = [];
  for (let n = state.root; n && n.children.length; n = n.children[0]) out.push(n.children[0]);
  return out;
}

export function moveNumber(node) {
  // Moves are numbered from the root: the side that moves first in the variant starts a number.
  const first = state.variant.first_to_move;
  const offset = state.root.info.turn === first ? 0 : 1;
  const k = node.ply - 1 + offset;
  return { n: Math.floor(k / 2) + 1, firstSide: k % 2 === 0 };
}

export function pvText(node, pv) {
  const out = [];
  let ply = node.ply;
  pv.forEach((mv, i) => {
    const { n, firstSide } = moveNumber({ ply: ply + 1 });
    if (firstSide) out.push(`${n}.`);
    else if (i === 0) out.push(`${n}…`);
    out.push(mv);
    ply += 1;
  });
  return out.join(" ");
}

// What the parts do on the board, set by analysis.js (setBoard) before anything runs.
export const board = {
  goTo: async (_node) => {},
  play: async (_move) => {},
  renderTree: () => {},
};

export function setBoard(fns) { Object.assign(board, fns); }
