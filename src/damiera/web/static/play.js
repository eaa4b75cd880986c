// The play page: draws the game, takes moves by click, tap, drag or keyboard, talks to the API.
//
// No rule lives here. The server sends every legal move with its full path and captured
// squares; a click is matched against those paths. Anything else is sent to the server,
// whose refusal (in the rule's own terms) is shown as it is.

import { drawBoard, parseFen, squareAtPoint, ghostPiece } from "/static/board.js";
import { enter, piecesAlong, selectionView, waysFrom } from "/static/entry.js";
import { openMenu } from "/static/menu.js";
import { muteButton, sound } from "/static/sound.js";
import { clockText, fmt, setText } from "/static/text.js";

const data = JSON.parse(document.getElementById("page-data").textContent);
const S = data.strings;
const variants = Object.fromEntries(data.variants.map((v) => [v.id, v]));

const svg = document.getElementById("board");
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const state = {
  game: data.game,                 // the API's game object, or null (preview before a game)
  preview: null,                   // variant id shown when there is no game
  flipped: false,
  sel: null,                       // { start, clicks: [labels], ways: [{move, path, captures,
                                   //   crowned_at}], choosing: bool } (see "input" below)
  viewPly: null,                   // index into game.positions when looking back
  busy: false,                     // waiting for the server / animating
  shown: null,                     // { pieces, highlights } while animating or pending
  focus: null,
};

// ---------------------------------------------------------------------------------------------
// helpers over the game object (display only)
function variantOf() {
  return variants[state.game ? state.game.variant : state.preview];
}
function humanToMove() {
  const g = state.game;
  if (!g || g.result || state.viewPly !== null) return false;
  return (g.opponent === "friend" || g.turn === g.side) && holds(g, g.turn);
}
// The server says which seats this browser holds (`seats`); a visitor with none watches a
// read-only board.
function holds(g, side) { return !!g && (g.seats || []).includes(side); }
function isPlayer(g) { return !!g && (g.seats || []).length > 0; }
function sepFor(isCapture) {
  const v = variantOf();
  return isCapture ? (v.capture_separator || "x") : "-";
}
function currentPieces() {
  if (!state.game) return parseFen(variantOf().start_fen).pieces;
  const fen = state.viewPly !== null ? state.game.positions[state.viewPly] : state.game.fen;
  return parseFen(fen).pieces;
}
function pieceName(piece) { return S[piece] || piece; }
function describe(label, piece, flags = {}) {
  let text = piece ? fmt(S.square_piece, { square: label, piece: pieceName(piece) })
    : fmt(S.square_empty, { square: label });
  if (flags.start) text += `, ${S.aria_start}`;
  if (flags.target) text += `, ${S.aria_target}`;
  if (flags.captured) text += `, ${S.aria_captured}`;
  if (flags.movable) text += `, ${S.aria_movable}`;
  return text;
}
function sideWord(color) { return color === "white" ? S.white : S.black; }

// ---------------------------------------------------------------------------------------------
// drawing
function render() {
  const v = variantOf();
  let pieces, highlights = {};
  if (state.shown) {
    ({ pieces, highlights } = state.shown);
  } else {
    pieces = currentPieces();
    const g = state.game;
    if (state.sel) {
      ({ pieces, highlights } = selectionView(state.sel, pieces));
    } else if (g && state.viewPly === null) {
      if (g.last_move) Object.assign(highlights, lastMoveHighlights(g.last_move));
      if (humanToMove()) highlights.movable = [...new Set(g.legal_moves.map((m) => m.from))];
    } else if (g && state.viewPly > 0) {
      Object.assign(highlights, lastMoveHighlights(moveAt(state.viewPly - 1)));
    }
  }
  const active = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("[data-square]") : null;
  const focusLabel = active ? active.dataset.square : null;
  const squares = drawBoard(svg, {
    board: v.board,
    pieces,
    notation: v.notation,
    flipped: state.flipped,
    highlights,
    describe,
    interactive: true,
    tabStop: tabStop(highlights),
  });
  if (focusLabel && squares[focusLabel]) squares[focusLabel].focus({ preventScroll: true });
  svg.classList.toggle("busy", state.busy);
  renderPanel();
  tickClocks();
}

// The board is one tab stop (arrow keys move inside it): the focused square, else the
// selected one, else the first piece that can move, else the first square.
function tabStop(highlights) {
  const labels = variantOf().board.squares.map((s) => s.label);
  if (state.focus && labels.includes(state.focus)) return state.focus;
  if (highlights.selected) return highlights.selected;
  if (highlights.movable && highlights.movable.length) return highlights.movable[0];
  return labels[0];
}

// The last move as the server sent it: its squares, its path drawn, the pieces it took.
function lastMoveHighlights(move) {
  if (!move) return {};
  return { last: move.path, lastPath: move.path, lastCaptured: move.captures };
}

function moveAt(ply) {
  const moves = state.game.history_moves || [];
  return moves[ply] || null;
}

function playerLabel(color) {
  const g = state.game;
  if (!g) return sideWord(color);
  if (g.opponent === "computer") {
    const them = g.engine ? g.engine : fmt(S.level, { n: g.level });
    return `${sideWord(color)} · ${color === g.side ? S.you : them}`;
  }
  return sideWord(color);
}

function renderPanel() {
  const g = state.game;
  const bottom = state.flipped ? "black" : "white";
  const top = bottom === "white" ? "black" : "white";
  for (const [id, color] of [["bar-top", top], ["bar-bottom", bottom]]) {
    const bar = $(id);
    bar.innerHTML = "";
    const dot = document.createElement("span");
    dot.className = `swatch ${color}`;
    const name = document.createElement("span");
    name.textContent = playerLabel(color);
    bar.append(dot, name);
    bar.classList.toggle("to-move", !!g && !g.result && g.turn === color);
    if (g && g.clock) {
      const time = document.createElement("span");
      time.className = "clock";
      time.dataset.side = color;
      time.setAttribute("role", "timer");
      time.setAttribute("aria-label", fmt(S.clock_of, { side: sideWord(color) }));
      bar.append(time);
    }
  }
  const status = $("status");
  const result = $("result");
  const counter = $("counter");
  if (!g) {
    status.textContent = "";
    result.hidden = true;
    counter.hidden = true;
    $("replay").hidden = true;
    setControls(false);
    renderMoves();
    return;
  }
  $("replay").hidden = !g.history.length;
  if (state.viewPly !== null) {
    setText(status, state.viewPly === 0 ? S.start_position
      : fmt(S.showing_move, { n: moveNumber(state.viewPly - 1), move: g.history[state.viewPly - 1] }));
  } else if (g.result) {
    status.textContent = S.game_over;
  } else if (g.opponent === "computer" && g.turn !== g.side) {
    status.textContent = S.thinking;
  } else if (g.opponent === "computer") {
    status.textContent = `${S.your_move} (${sideWord(g.side)})`;
  } else {
    status.textContent = g.turn === "white" ? S.white_to_move : S.black_to_move;
  }
  if (g.result) {
    result.hidden = false;
    setText($("result-text"), resultText(g.result));
  } else {
    result.hidden = true;
  }
  if (g.moves_without_progress > 30 && !g.result) {
    counter.hidden = false;
    setText(counter, fmt(S.counter, { n: g.moves_without_progress, max: g.draw_moves_without_progress }));
  } else {
    counter.hidden = true;
  }
  setControls(true);
  renderMoves();
}

// "12." for White's move of that number, "12…" for Black's (the move list's numbering).
function moveNumber(ply) {
  const g = state.game;
  const offset = parseFen(g.start_fen).turn === variantOf().first_to_move ? 0 : 1;
  const slot = ply + offset;
  return `${Math.floor(slot / 2) + 1}${slot % 2 ? "…" : "."}`;
}

function resultText(r) {
  const winner = r.winner ? sideWord(r.winner) : "";
  const loser = r.winner ? sideWord(r.winner === "white" ? "black" : "white") : "";
  const key = `result-${r.reason}`;
  return S[key] ? fmt(S[key], { winner, loser, n: state.game.draw_moves_without_progress }) : r.text;
}

function setControls(haveGame) {
  const g = state.game;
  const over = !g || !!g.result;
  const looking = state.viewPly !== null;   // looking back: nothing may change the game
  $("btn-undo").hidden = $("btn-resign").hidden = !haveGame || !isPlayer(g);
  $("btn-flip").hidden = !haveGame;
  $("intro").hidden = haveGame;
  // the server says whether an undo would take something back (not after a resignation or
  // an agreed draw, nor when only the computer has moved)
  $("btn-undo").disabled = !haveGame || state.busy || looking || !g.history.length || g.can_undo === false;
  $("btn-resign").disabled = over || state.busy || looking;
  $("btn-draw").hidden = !g || g.opponent !== "friend" || !isPlayer(g);
  $("btn-draw").disabled = over || state.busy || looking;
  $("btn-pdn").hidden = !haveGame;
  if ($("btn-analyse")) { $("btn-analyse").hidden = !haveGame; if (g) $("btn-analyse").href = `/analysis?game=${g.id}`; }
  $("type-move").hidden = !haveGame || over || !isPlayer(g);
  $("move-input").disabled = over || state.busy || looking;
  $("btn-live").hidden = !haveGame || !looking;
  if (haveGame) {
    const n = g.history.length, at = looking ? state.viewPly : n;
    $("btn-first").disabled = $("btn-prev").disabled = state.busy || at === 0;
    $("btn-next").disabled = $("btn-last").disabled = state.busy || at === n;
  }
  if (g && g.legal_moves.length) $("move-input").placeholder = fmt(S.example, { move: g.legal_moves[0].move });
}

function renderMoves() {
  const list = $("move-list");
  list.innerHTML = "";
  const g = state.game;
  if (!g) return;
  const v = variantOf();
  const startTurn = parseFen(g.start_fen).turn;
  const offset = startTurn === v.first_to_move ? 0 : 1;
  let row = null;
  g.history.forEach((text, ply) => {
    const slot = ply + offset;
    if (!row || slot % 2 === 0) {
      row = document.createElement("li");
      row.className = "move-row";
      const num = document.createElement("span");
      num.className = "move-number";
      num.dir = "ltr";          // "1." reads as such in a right-to-left page too
      num.textContent = `${Math.floor(slot / 2) + 1}.`;
      row.append(num);
      if (slot % 2 === 1) {
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

// Show the position after move `ply` (-1: the start); the last one is the game itself.
function showPly(ply) {
  if (state.busy || !state.game) return;
  state.sel = null;
  const n = state.game.history.length;
  const at = Math.max(0, Math.min(n, ply + 1));
  state.viewPly = at >= n ? null : at;
  message("");
  render();
}
function viewedPly() {
  return state.viewPly === null ? state.game.history.length : state.viewPly;
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

function message(text, kind = "error") {
  const box = $("message");
  setText(box, text);
  box.className = `message ${text ? kind : ""}`;
}

// Moves and results read out by screen readers (a polite live region).
function announce(text) {
  setText($("announce"), text);
}
function announceMove(move, side) {
  announce(fmt(S.announce_move, { side: sideWord(side), move: move.move }));
}

// ---------------------------------------------------------------------------------------------
// server calls
// Every request carries the page's language, so that refusals come back in it.
const pageLang = document.documentElement.lang || "en";
function withLang(path) {
  const url = new URL(path, window.location.origin);
  url.searchParams.set("lang", pageLang);
  return url.pathname + url.search;
}

async function api(path, options = {}) {
  let res;
  try {
    res = await fetch(withLang(path), {
      method: options.method || "GET",
      headers: options.body ? { "Content-Type": "application/json" } : {},
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
  } catch (_) {
    throw new Error(S.network);
  }
  const body = await res.json().catch(() => ({}));
  if (body && body.clock) body.clock.received = performance.now();   // the clocks run from here
  if (!res.ok) {
    const err = new Error(body.error || res.statusText);
    err.status = res.status;
    err.code = body.code;
    throw err;
  }
  return body;
}

// A move drawn jump by jump from the position `fromFen` (`way`: the path the player entered,
// else the move's own): the piece crowned where the server says, taken pieces marked until
// the end of the move.
async function animateMove(move, fromFen, way = move, pace = 1) {
  const pieces = parseFen(fromFen).pieces;
  const path = way.path;
  for (let i = 1; i < path.length; i++) {
    const end = i === path.length - 1;
    state.shown = {
      pieces: piecesAlong(pieces, way, i),
      highlights: { start: path[0], last: path.slice(0, i + 1), lastPath: path.slice(0, i + 1),
        captured: end ? [] : way.captures.slice(0, i), lastCaptured: end ? way.captures : [] },
    };
    render();
    await sleep((end ? 260 : 340) * pace);
  }
  state.shown = null;
}

// Every move goes this way, clicked, dragged, typed or an attempt the page cannot match:
// back to the live position, the move sent with the version it was chosen on, the thinking
// indicator against the computer. `move` is the legal move the page matched (animated at
// once, along `way`, the path the player entered), or null when only the server can read
// `text` (short notation, an illegal attempt). `attempt`: a click the legal moves do not
// contain (no thinking indicator: it is refused).
async function submitMove(move, text = move ? move.move : "", attempt = false, way = move) {
  const g = state.game;
  if (move) state.sel = null;
  state.viewPly = null;
  state.busy = true;
  const before = g.history.length;
  const vsComputer = g.opponent === "computer";
  message("");
  $("thinking").hidden = !vsComputer || attempt;
  // Sent at once; the page draws your move meanwhile (the answer is awaited below).
  const answer = api(`/api/games/${g.id}/moves`, { method: "POST", body: { move: text, version: g.version } })
    .then((next) => ({ next }), (err) => ({ err }));
  if (move) {
    // Show the move at once (list, turn) while the server checks it and the computer replies.
    state.game = {
      ...g, history: [...g.history, move.move], history_moves: [...(g.history_moves || []), move],
      legal_moves: [], last_move: move, turn: g.turn === "white" ? "black" : "white",
      clock: stoppedClock(g),
    };
    sound(move);
    announceMove(move, g.turn);
    await animateMove(move, g.fen, way, 0.5);
    state.shown = { pieces: piecesAlong(parseFen(g.fen).pieces, way, way.path.length - 1),
      highlights: lastMoveHighlights(way) };
  }
  render();
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
        history_moves: (next.history_moves || []).slice(0, before + 1) };
      state.shown = null;
      sound(next.last_move);
      announceMove(next.last_move, next.computer_side);
      await animateMove(next.last_move, next.positions[next.positions.length - 2]);
    } else if (!move && next.last_move && next.history.length > before) {
      // a move only the server could read (short notation): drawn once it is known
      sound(next.last_move);
      announceMove(next.last_move, g.turn);
      state.game = { ...next, legal_moves: [] };
      await animateMove(next.last_move, g.fen, next.last_move, 0.5);
    }
    state.game = next;
    if (next.result) announce(resultText(next.result));
    message("");
  }
  state.shown = null;
  state.busy = false;
  render();
  // your move was kept but the computer's reply failed: ask for it once more
  if (computerToMove(state.game) && state.game.history.length > g.history.length) {
    await awaitComputer();
  }
}

function tryText(text, attempt = false) {
  // A move in text (typed, or an attempt the legal moves do not contain): the same path.
  const match = state.game.legal_moves.find((m) => m.move === text);
  return submitMove(match || null, text, attempt && !match);
}

// The game as the server has it now (after a 409: changed in another window).
async function refresh() {
  try {
    state.game = await api(`/api/games/${state.game.id}`);
    state.viewPly = null;
  } catch (_) { /* keep what we have */ }
}

// After a reload while the computer was thinking (or after an interrupted reply): wait for
// its move, or ask for it, then show it.
function computerToMove(g) {
  return g && !g.result && g.opponent === "computer" && g.turn === g.computer_side;
}

async function awaitComputer() {
  state.busy = true;
  $("thinking").hidden = false;
  render();
  try {
    let g = state.game;
    for (let i = 0; i < 600 && computerToMove(g) && g.thinking; i++) {
      await sleep(500);
      g = await api(`/api/games/${g.id}`);
    }
    if (computerToMove(g) && !g.thinking && holds(g, g.side)) g = await api(`/api/games/${g.id}/reply`, { method: "POST" });
    $("thinking").hidden = true;
    if (g.history.length > state.game.history.length && g.last_move) {
      sound(g.last_move);
      announceMove(g.last_move, g.computer_side);
      await animateMove(g.last_move, g.positions[g.positions.length - 2]);
    }
    state.game = g;
    if (g.result) announce(resultText(g.result));
  } catch (err) {
    message(err.message);
  } finally {
    $("thinking").hidden = true;
    state.shown = null;
    state.busy = false;
    render();
  }
}

async function explain(label) {
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
function tickClocks() {
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
      refresh().then(() => { if (state.game.result) announce(resultText(state.game.result)); render(); });
    }
  }
}
setInterval(tickClocks, 200);

// ---------------------------------------------------------------------------------------------
// input: the same entry point for click, tap, drag and keyboard (matching: entry.js)
function movesFrom(label) {
  return state.game.legal_moves.filter((m) => m.from === label);
}
function putBack() {
  state.sel = null;
  message("");
  render();
}

function choose(label) {
  const g = state.game;
  if (!g || state.busy) return;
  if (state.viewPly !== null) { showPly(Infinity); return; }
  if (g.result) return;
  if (!humanToMove()) return;
  const piece = parseFen(g.fen).pieces[label];
  if (!state.sel) {
    const ways = waysFrom(g.legal_moves, label);
    if (ways.length) {
      state.sel = { start: label, clicks: [], ways, choosing: false };
      message(fmt(S.selected, { piece: pieceName(piece), square: label }), "info");
      render();
    } else if (piece) {
      explain(label);   // the server says why this piece cannot move now
    }
    return;
  }
  const step = enter(state.sel, label);
  if (step && step.play) {
    submitMove(step.play.move, step.play.move.move, false, step.play);
  } else if (step && step.putBack) {
    putBack();
  } else if (step) {
    state.sel = step.sel;
    message(fmt(S[step.info], { square: step.square }), "info");
    render();
  } else if (!state.sel.clicks.length && movesFrom(label).length) {   // another piece
    state.sel = null;
    choose(label);
  } else if (!state.sel.clicks.length && piece && piece.startsWith(g.turn)) {
    state.sel = null;
    render();
    explain(label);
  } else {
    // An attempt the legal moves do not contain: the server says why. In the middle of a
    // capture the squares entered so far are kept.
    const { start, clicks, ways } = state.sel;
    const text = [start, ...clicks, label].join(sepFor(ways.some((w) => w.captures.length)));
    if (!clicks.length) state.sel = null;
    render();
    tryText(text, true);
  }
}

svg.addEventListener("click", (e) => {
  if (drag.moved) return;
  const sq = e.target.closest("[data-square]");
  if (sq) choose(sq.dataset.square);
});

// Drag and drop with pointer events (mouse, pen, touch).
const drag = { active: false, moved: false, ghost: null, from: null, x: 0, y: 0 };
// A drag works whether or not a piece is already selected: it picks up the piece it starts
// on (or, in the middle of a capture, goes on from where the piece has landed).
function midCaptureAt(label) {
  const sel = state.sel;
  return !!sel && sel.clicks.length > 0 && sel.clicks[sel.clicks.length - 1] === label;
}
svg.addEventListener("pointerdown", (e) => {
  drag.moved = false;
  const sq = e.target.closest("[data-square]");
  if (!sq || state.busy || !state.game || !humanToMove()) return;
  if (!movesFrom(sq.dataset.square).length && !midCaptureAt(sq.dataset.square)) return;
  drag.active = true;
  drag.from = sq.dataset.square;
  drag.x = e.clientX; drag.y = e.clientY;
});
svg.addEventListener("pointermove", (e) => {
  if (!drag.active) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
  if (!drag.moved) {
    drag.moved = true;
    const start = midCaptureAt(drag.from) ? state.sel.start : drag.from;
    if (!midCaptureAt(drag.from)) {
      state.sel = null;          // whatever was selected, the dragged piece is now
      choose(drag.from);
    }
    // the piece as it stands now (a man crowned on the way is a king)
    const piece = state.sel ? selectionView(state.sel, currentPieces()).pieces[drag.from]
      || parseFen(state.game.fen).pieces[start] : parseFen(state.game.fen).pieces[start];
    const pieceEl = svg.querySelector(`[data-square="${CSS.escape(drag.from)}"] .piece`);
    if (pieceEl) pieceEl.classList.add("lifted");
    drag.ghost = ghostPiece(svg, piece);
    svg.setPointerCapture(e.pointerId);
  }
  drag.ghost.moveTo(e.clientX, e.clientY);
});
function endDrag(e) {
  if (!drag.active) return;
  drag.active = false;
  if (drag.ghost) { drag.ghost.remove(); drag.ghost = null; }
  if (!drag.moved) return;
  const sq = squareAtPoint(e.clientX, e.clientY);
  if (sq && sq.dataset.square !== drag.from) choose(sq.dataset.square);
  else if (!sq) {               // dropped off the board: the piece goes back, unselected
    state.sel = null;
    message("");
    render();
  } else render();
  setTimeout(() => { drag.moved = false; }, 0);
}
svg.addEventListener("pointerup", endDrag);
svg.addEventListener("pointercancel", endDrag);

// Keyboard: the board is one tab stop; arrows move between its squares, Enter/Space choose
// the focused one, Escape puts a chosen piece back.
svg.addEventListener("focusin", (e) => {
  const sq = e.target.closest && e.target.closest("[data-square]");
  if (!sq) return;
  state.focus = sq.dataset.square;
  for (const other of svg.querySelectorAll("[data-square]")) other.tabIndex = other === sq ? 0 : -1;
});
svg.addEventListener("keydown", (e) => {
  const sq = e.target.closest && e.target.closest("[data-square]");
  if (!sq) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
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
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || !state.sel || !$("confirm").hidden || !$("menu").hidden) return;
  e.stopPropagation();
  putBack();
});

muteButton($("btn-sound"), S);

// ---------------------------------------------------------------------------------------------
// buttons
function confirmBox(text) {
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
async function action(path, body = {}) {
  if (state.busy) return;
  state.busy = true;
  state.sel = null;
  try {
    state.game = await api(path, { method: "POST", body: { ...body, version: state.game.version } });
    state.viewPly = null;
    message("");
    if (state.game.result) announce(resultText(state.game.result));
  } catch (err) {
    message(err.message);
    if (err.status === 409 || err.status >= 500) await refresh();
  } finally {
    state.busy = false;
    render();
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
$("btn-flip").addEventListener("click", () => { state.flipped = !state.flipped; render(); });
// Rematch: a new game with the same options and start position; against the computer you
// take the other side.
$("btn-rematch").addEventListener("click", async () => {
  const g = state.game;
  if (!g || state.busy) return;
  state.busy = true;
  try {
    const side = g.opponent === "computer" ? (g.side === "white" ? "black" : "white") : g.side;
    const body = { variant: g.variant, opponent: g.opponent, level: g.level || 1, engine: g.engine || null, side,
      optional_capture: g.optional_capture, fen: g.start_fen, clock: g.clock ? g.clock.label : null };
    const next = await api("/api/games", { method: "POST", body });
    try { if (next.history.length) sessionStorage.setItem("damiera.animate", next.id); } catch (_) { /* off */ }
    window.location.assign(`/game/${next.id}`);
  } catch (err) {
    message(err.message);
    state.busy = false;
    render();
  }
});
$("btn-new").addEventListener("click", (e) => { e.stopPropagation(); openMenu(true); });
$("type-move").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text || !state.game || state.busy) return;
  input.value = "";
  state.sel = null;
  tryText(text);
});
document.addEventListener("damiera:variant-preview", (e) => {
  if (state.game) return;
  state.preview = e.detail;
  render();
});

// ---------------------------------------------------------------------------------------------
// start
async function start() {
  if (state.game && state.game.clock) state.game.clock.received = performance.now();
  if (state.game) {
    state.flipped = state.game.side === "black";
    const pick = $("ng-variant");   // a new game from here starts in the same variant
    pick.value = state.game.variant;
    pick.dispatchEvent(new Event("change"));
    let animate = false;
    try {
      animate = sessionStorage.getItem("damiera.animate") === state.game.id;
      sessionStorage.removeItem("damiera.animate");
    } catch (_) { /* storage may be off */ }
    if (animate && state.game.last_move && state.game.positions.length > 1) {
      state.busy = true;
      await sleep(150);
      await animateMove(state.game.last_move, state.game.positions[state.game.positions.length - 2]);
      state.busy = false;
    }
    if (computerToMove(state.game)) {
      document.body.dataset.ready = "true";
      await awaitComputer();
    }
  } else {
    state.preview = document.getElementById("ng-variant").value;
    openMenu(false);
  }
  render();
  document.body.dataset.ready = "true";
}
start();
