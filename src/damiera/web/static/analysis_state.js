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
  variant: null, optional: false, mode: "edit", tool: "white-man", flipped: false,
  edit: { pieces: {}, turn: "white" },
  root: null, node: null, selection: null,
  engineOn: false, source: null, multipv: 1,
  gameId: null, result: null, review: null, reviewTimer: null,
};

// -- small helpers ---------------------------------------------------------------------------
// Moves and squares in a message read left to right on right-to-left pages too (text.js).
export function message(text) { setText($("message"), text || ""); }


export function query(extra) {
  const p = new URLSearchParams({ variant: state.variant.id, ...extra });
  if (state.optional) p.set("optional_capture", "true");
  return p.toString();
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
