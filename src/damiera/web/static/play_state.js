// The play page's state and what every part of it reads: the game as the server sent it,
// the page's strings, who may move, the pieces to draw, messages. No rule lives here: the
// pieces, notation and result sentences all come from the server (GET /api/games/{id}).

import { piecesAlong } from "/static/entry.js";
import { fmt, setText } from "/static/text.js";

/** @typedef {Record<string, string>} Pieces  square label -> "white-man" | "black-king" ... */
/**
 * @typedef {object} MoveJson  a move as the API sends it
 * @property {string} move  its notation
 * @property {string} from
 * @property {string} to
 * @property {string[]} path  landing squares, start first
 * @property {string[]} captures  squares of the pieces it takes
 * @property {number | null} crowned_at  index in path from which the man is a king
 * @property {{path: string[], captures: string[], crowned_at: number | null}[]} [paths]
 */

const data = JSON.parse(document.getElementById("page-data").textContent);
/** The page's sentences in its language (`js_strings` on the server). */
export const S = data.strings;
/** The variants by id (GET /api/variants). */
export const variants = Object.fromEntries(data.variants.map((v) => [v.id, v]));

/** @param {string} id */
export const $ = (id) => document.getElementById(id);
/** @param {number} ms */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const state = {
  game: data.game,                 // the API's game object, or null (preview before a game)
  preview: null,                   // variant id shown when there is no game
  flipped: false,
  sel: null,                       // { start, clicks: [labels], ways: [{move, path, captures,
                                   //   crowned_at}], choosing: bool } (see entry.js)
  viewPly: null,                   // index into the game's positions when looking back
  busy: false,                     // waiting for the server / animating
  shown: null,                     // { pieces, highlights } while animating or pending
  focus: null,
};

// The page draws through one function, registered by play.js (so that the parts of the page
// need not import it, nor each other).
let drawer = () => {};
/** @param {() => void} fn */
export function setRedraw(fn) { drawer = fn; }
export function redraw() { drawer(); }

export function variantOf() {
  return variants[state.game ? state.game.variant : state.preview];
}
// The server says which seats this browser holds (`seats`); a visitor with none watches a
// read-only board.
export function holds(g, side) { return !!g && (g.seats || []).includes(side); }
export function isPlayer(g) { return !!g && (g.seats || []).length > 0; }
export function humanToMove() {
  const g = state.game;
  if (!g || g.result || state.viewPly !== null) return false;
  if (g.online && !g.online.ready) return false;   // online: both players seated first
  return (g.opponent !== "computer" || g.turn === g.side) && holds(g, g.turn);
}
/** The one side this browser holds in a game online (null: a watcher, or not online). */
export function mySide(g) {
  return g && g.opponent === "online" && (g.seats || []).length === 1 ? g.seats[0] : null;
}
export function computerToMove(g) {
  return !!g && !g.result && g.opponent === "computer" && g.turn === g.computer_side;
}

/**
 * The pieces after `ply` moves of game `g` (0: its start): the server's start position with
 * each move's own path, captures and crowning applied (entry.js draws moves the same way).
 * @returns {Pieces}
 */
export function piecesAt(g, ply) {
  if (ply >= g.history.length && g.pieces) return g.pieces;
  let pieces = g.start_pieces;
  for (const m of (g.history_moves || []).slice(0, ply)) pieces = piecesAlong(pieces, m, m.path.length - 1);
  return pieces;
}
/** The pieces on the board now: the game's, the replayed position, or the preview's start. */
export function currentPieces() {
  if (!state.game) return variantOf().start_pieces;
  return state.viewPly !== null ? piecesAt(state.game, state.viewPly) : state.game.pieces;
}

export function sideWord(color) { return color === "white" ? S.white : S.black; }
export function pieceName(piece) { return S[piece] || piece; }

export function message(text, kind = "error") {
  const box = $("message");
  setText(box, text);
  box.className = `message ${text ? kind : ""}`;
}
// Moves and results read out by screen readers (a polite live region).
export function announce(text) {
  setText($("announce"), text);
}
export function announceMove(move, side) {
  announce(fmt(S.announce_move, { side: sideWord(side), move: move.move }));
}
/** The game's result as the server words it in the page's language, read out. */
export function announceResult(g) {
  if (g && g.result) announce(g.result_sentence);
}
