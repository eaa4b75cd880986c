// The play page's dealings with the server: moves sent and animated, the computer's reply
// awaited, undo, resign, draw, rematch, and the clocks the server keeps (the page counts the
// running one down between answers).

import { api } from "/static/api.js";
import { moveNamed, piecesAlong } from "/static/entry.js";
import { openMenu } from "/static/menu.js";
import {
  $, S, announceMove, announceResult, computerToMove, holds, message, piecesAt, redraw, sleep,
  sideWord, state,
} from "/static/play_state.js";
import { sound } from "/static/sound.js";
import { clockText, fmt } from "/static/text.js";

/**
 * A game from the API, its clocks stamped with the time it arrived (they run from there).
 * @param {string} path
 * @param {import("/static/api.js").ApiOptions} [options]
 */
export async function gameCall(path, options) {
  const g = await api(path, options);
  if (g && g.clock) g.clock.received = performance.now();
  return g;
}

// The last move as the server sent it: its squares, its path drawn, the pieces it took.
export function lastMoveHighlights(move) {
  if (!move) return {};
  return { last: move.path, lastPath: move.path, lastCaptured: move.captures };
}

/**
 * A move drawn jump by jump from the pieces `from` (`way`: the path the player entered,
 * else the move's own): the piece crowned where the server says, taken pieces marked until
 * the end of the move.
 */
export async function animateMove(move, from, way = move, pace = 1) {
  const path = way.path;
  for (let i = 1; i < path.length; i++) {
    const end = i === path.length - 1;
    state.shown = {
      pieces: piecesAlong(from, way, i),
      highlights: { start: path[0], last: path.slice(0, i + 1), lastPath: path.slice(0, i + 1),
        captured: end ? [] : way.captures.slice(0, i), lastCaptured: end ? way.captures : [] },
    };
    redraw();
    await sleep((end ? 260 : 340) * pace);
  }
  state.shown = null;
}
/** The position before the last move of `g` (for drawing that move). */
export function beforeLast(g) {
  return piecesAt(g, g.history.length - 1);
}

/**
 * Every move goes this way, clicked, dragged, typed or an attempt the page cannot match:
 * back to the live position, the move sent with the version it was chosen on, the thinking
 * indicator against the computer. `move` is the legal move the page matched (animated at
 * once, along `way`, the path the player entered), or null when only the server can read
 * `sent` (short notation, an illegal attempt). `sent`: the request body's move, `{move}` in
 * notation or `{path}`, the squares entered. `attempt`: clicks the legal moves do not contain
 * (no thinking indicator: it is refused).
 */
export async function submitMove(move, sent = { move: move.move }, attempt = false, way = move) {
  const g = state.game;
  if (move) state.sel = null;
  state.viewPly = null;
  state.busy = true;
  const before = g.history.length;
  const vsComputer = g.opponent === "computer";
  message("");
  $("thinking").hidden = !vsComputer || attempt;
  // Sent at once; the page draws your move meanwhile (the answer is awaited below).
  const answer = gameCall(`/api/games/${g.id}/moves`, { method: "POST", body: { ...sent, version: g.version } })
    .then((next) => ({ next }), (err) => ({ err }));
  if (move) {
    // Show the move at once (list, turn) while the server checks it and the computer replies.
    state.game = {
      ...g, history: [...g.history, move.move], history_moves: [...(g.history_moves || []), move],
      move_numbers: [...g.move_numbers, g.next_move_number], legal_moves: [], last_move: move,
      turn: g.turn === "white" ? "black" : "white", clock: stoppedClock(g),
      pieces: piecesAlong(g.pieces, way, way.path.length - 1),
    };
    sound(move);
    announceMove(move, g.turn);
    await animateMove(move, g.pieces, way, 0.5);
    state.shown = { pieces: state.game.pieces, highlights: lastMoveHighlights(way) };
  }
  redraw();
  const { next, err } = await answer;
  $("thinking").hidden = true;
  if (err) {
    state.game = g;
    message(err.message);
    if (err.status === 409 || err.status >= 500) await refresh();
  } else {
    state.sel = null;
    if (next.history.length > before + 1 && next.last_move) {
      // your move first, then the computer's reply jump by jump
      state.game = { ...next, history: next.history.slice(0, before + 1),
        history_moves: (next.history_moves || []).slice(0, before + 1),
        pieces: piecesAt(next, before + 1) };
      state.shown = null;
      sound(next.last_move);
      announceMove(next.last_move, next.computer_side);
      await animateMove(next.last_move, beforeLast(next));
    } else if (!move && next.last_move && next.history.length > before) {
      // a move only the server could read (short notation): drawn once it is known
      sound(next.last_move);
      announceMove(next.last_move, g.turn);
      state.game = { ...next, legal_moves: [], pieces: g.pieces };
      await animateMove(next.last_move, g.pieces, next.last_move, 0.5);
    }
    state.game = next;
    announceResult(next);
    message("");
  }
  state.shown = null;
  state.busy = false;
  redraw();
  // your move was kept but the computer's reply failed: ask for it once more
  if (computerToMove(state.game) && state.game.history.length > g.history.length) {
    await awaitComputer();
  }
}

/** A move in text (typed): the legal move it names is drawn at once, else the server reads it. */
export function tryText(text) {
  return submitMove(moveNamed(state.game.legal_moves, text), { move: text });
}

/** Squares the legal moves do not contain: the server writes them as a move and says why not. */
export function tryPath(path) {
  return submitMove(null, { path }, true);
}

// The game as the server has it now (after a 409: changed in another window).
export async function refresh() {
  try {
    state.game = await gameCall(`/api/games/${state.game.id}`);
    state.viewPly = null;
  } catch (_) { /* keep what we have */ }
}

// After a reload while the computer was thinking (or after an interrupted reply): wait for
// its move, or ask for it, then show it.
export async function awaitComputer() {
  state.busy = true;
  $("thinking").hidden = false;
  redraw();
  try {
    let g = state.game;
    for (let i = 0; i < 600 && computerToMove(g) && g.thinking; i++) {
      await sleep(500);
      g = await gameCall(`/api/games/${g.id}`);
    }
    if (computerToMove(g) && !g.thinking && holds(g, g.side)) g = await gameCall(`/api/games/${g.id}/reply`, { method: "POST", body: { version: g.version } });
    $("thinking").hidden = true;
    if (g.history.length > state.game.history.length && g.last_move) {
      sound(g.last_move);
      announceMove(g.last_move, g.computer_side);
      await animateMove(g.last_move, beforeLast(g));
    }
    state.game = g;
    announceResult(g);
  } catch (err) {
    message(err.message);
  } finally {
    $("thinking").hidden = true;
    state.shown = null;
    state.busy = false;
    redraw();
  }
}

/** Why the piece on `label` cannot move now, in the rules' own terms (from the server). */
export async function explain(label) {
  try {
    const r = await api(`/api/games/${state.game.id}/explain?square=${encodeURIComponent(label)}`);
    if (r.reason) message(r.reason);
  } catch (err) {
    message(err.message);
  }
}

// ---------------------------------------------------------------------------------------------
// clocks: the server keeps them; the page counts the running one down from the server's last
// answer and, when it reaches zero, asks the server (which records the loss on time).
let flagAsked = null;
// The clocks as they stand now, none running (shown while the server checks a move; its
// answer brings the clocks it keeps).
function stoppedClock(g) {
  if (!g.clock) return null;
  const c = { ...g.clock, running: null };
  if (g.clock.running && g.clock.received) {
    c[`${g.clock.running}_ms`] -= performance.now() - g.clock.received;
  }
  return c;
}
export function tickClocks() {
  const g = state.game;
  if (!g || !g.clock) return;
  const c = g.clock;
  for (const el of document.querySelectorAll(".player-bar .clock")) {
    const side = el.dataset.side;
    let ms = c[`${side}_ms`];
    const running = c.running === side && !g.result && state.viewPly === null;
    if (c.running === side && c.received) ms -= performance.now() - c.received;
    el.textContent = clockText(ms);
    el.classList.toggle("running", running);
    el.classList.toggle("low", ms < 20000);
    if (c.running === side && ms <= 0 && !state.busy && flagAsked !== g.version) {
      flagAsked = g.version;      // once per position: the server decides
      refresh().then(() => { announceResult(state.game); redraw(); });
    }
  }
}
setInterval(tickClocks, 200);

// ---------------------------------------------------------------------------------------------
// buttons
export function confirmBox(text) {
  return new Promise((resolve) => {
    const box = $("confirm");
    $("confirm-text").textContent = text;
    box.hidden = false;
    $("confirm-yes").focus();
    const done = (answer) => {
      box.hidden = true;
      $("confirm-yes").onclick = $("confirm-no").onclick = null;
      resolve(answer);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    box.onkeydown = (e) => { if (e.key === "Escape") { e.stopPropagation(); done(false); } };
  });
}

// Undo, resign, draw: sent with the version the page shows, so that a stale page cannot
// take back (or end) a game it has not seen; a 409 reloads the game.
export async function action(path, body = {}) {
  if (state.busy) return;
  state.busy = true;
  state.sel = null;
  try {
    state.game = await gameCall(path, { method: "POST", body: { ...body, version: state.game.version } });
    state.viewPly = null;
    message("");
    announceResult(state.game);
  } catch (err) {
    message(err.message);
    if (err.status === 409 || err.status >= 500) await refresh();
  } finally {
    state.busy = false;
    redraw();
  }
}

$("btn-undo").addEventListener("click", () => state.game && action(`/api/games/${state.game.id}/undo`));
$("btn-resign").addEventListener("click", async () => {
  if (!state.game || !(await confirmBox(S.resign_confirm))) return;
  action(`/api/games/${state.game.id}/resign`);
});
$("btn-draw").addEventListener("click", async () => {
  const g = state.game;
  if (!g) return;
  const side = g.turn, other = side === "white" ? "black" : "white";
  if (await confirmBox(fmt(S.draw_offer, { side: sideWord(side), other: sideWord(other) }))) {
    action(`/api/games/${g.id}/draw`);
  }
});
// Rematch: a new game with the same options and start position; against the computer you
// take the other side.
$("btn-rematch").addEventListener("click", async () => {
  const g = state.game;
  if (!g || state.busy) return;
  if (g.opponent === "online") {   // offered to the opponent, colours swapped (live.js follows)
    action(`/api/games/${g.id}/rematch/offer`);
    return;
  }
  state.busy = true;
  try {
    const side = g.opponent === "computer" ? (g.side === "white" ? "black" : "white") : g.side;
    const body = { variant: g.full_id || g.variant, opponent: g.opponent, level: g.level || 1, engine: g.engine || null, side,
      optional_capture: g.optional_capture, fen: g.start_fen, clock: g.clock ? g.clock.label : null };
    const next = await api("/api/games", { method: "POST", body });
    try { if (next.history.length) sessionStorage.setItem("damiera.animate", next.id); } catch (_) { /* off */ }
    window.location.assign(`/game/${next.id}`);
  } catch (err) {
    message(err.message);
    state.busy = false;
    redraw();
  }
});
$("btn-new").addEventListener("click", (e) => { e.stopPropagation(); openMenu(true); });
