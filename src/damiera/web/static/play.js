// The play page: draws the game, takes moves by click, tap, drag or keyboard, talks to the API.
//
// No rule lives here. The server sends every legal move with its full path and captured
// squares; a click is matched against those paths. Anything else is sent to the server,
// whose refusal (in the rule's own terms) is shown as it is.

import { drawBoard, parseFen, squareAtPoint, ghostPiece } from "/static/board.js";
import { openMenu } from "/static/menu.js";

const data = JSON.parse(document.getElementById("page-data").textContent);
const S = data.strings;
const variants = Object.fromEntries(data.variants.map((v) => [v.id, v]));

const svg = document.getElementById("board");
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (text, params = {}) => String(text).replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));

const state = {
  game: data.game,                 // the API's game object, or null (preview before a game)
  preview: null,                   // variant id shown when there is no game
  flipped: false,
  sel: null,                       // { entered: [labels], candidates: [moves] }
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

// The position after a move, for drawing it before the server answers.
function piecesAfter(pieces, move) {
  const out = { ...pieces };
  const piece = out[move.from];
  delete out[move.from];
  for (const c of move.captures) delete out[c];
  out[move.to] = move.promotes ? piece.replace("-man", "-king") : piece;
  return out;
}

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
      const { entered, candidates } = state.sel;
      const start = entered[0], at = entered[entered.length - 1];
      const jumps = entered.length - 1;
      if (jumps > 0) {            // the piece stands where it has landed so far
        const piece = pieces[start];
        pieces = { ...pieces };
        delete pieces[start];
        pieces[at] = piece;
      }
      const done = new Set(candidates[0].captures.slice(0, jumps));
      const later = new Set();
      for (const m of candidates) m.captures.slice(jumps).forEach((c) => later.add(c));
      highlights = {
        start,
        selected: at,
        targets: [...new Set(candidates.filter((m) => m.path.length > entered.length)
          .map((m) => m.path[entered.length]))],
        captured: [...done],
        capturable: [...later].filter((c) => !done.has(c)),
      };
    } else if (g && state.viewPly === null) {
      if (g.last_move) highlights.last = g.last_move.path;
      if (humanToMove()) highlights.movable = [...new Set(g.legal_moves.map((m) => m.from))];
    } else if (g && state.viewPly > 0) {
      highlights.last = lastMoveAt(state.viewPly - 1);
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
  });
  if (focusLabel && squares[focusLabel]) squares[focusLabel].focus({ preventScroll: true });
  svg.classList.toggle("busy", state.busy);
  renderPanel();
}

function lastMoveAt(ply) {
  // The path of move `ply` is not stored per ply; show its text's squares.
  const text = state.game.history[ply] || "";
  return text.split(/[-x:×]/);
}

function playerLabel(color) {
  const g = state.game;
  if (!g) return sideWord(color);
  if (g.opponent === "computer") {
    return `${sideWord(color)} · ${color === g.side ? S.you : fmt(S.level, { n: g.level })}`;
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
  }
  const status = $("status");
  const result = $("result");
  const counter = $("counter");
  if (!g) {
    status.textContent = "";
    result.hidden = true;
    counter.hidden = true;
    setControls(false);
    renderMoves();
    return;
  }
  if (g.result) {
    result.hidden = false;
    result.textContent = resultText(g.result);
    status.textContent = S.game_over;
  } else {
    result.hidden = true;
    if (state.viewPly !== null) {
      status.textContent = state.viewPly === 0 ? S.start_position : fmt(S.viewing, { n: state.viewPly });
    } else if (g.opponent === "computer" && g.turn !== g.side) {
      status.textContent = S.thinking;
    } else if (g.opponent === "computer") {
      status.textContent = `${S.your_move} (${sideWord(g.side)})`;
    } else {
      status.textContent = g.turn === "white" ? S.white_to_move : S.black_to_move;
    }
  }
  if (g.moves_without_progress > 30 && !g.result) {
    counter.hidden = false;
    counter.textContent = fmt(S.counter, { n: g.moves_without_progress, max: g.draw_moves_without_progress });
  } else {
    counter.hidden = true;
  }
  setControls(true);
  renderMoves();
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
  $("btn-undo").hidden = $("btn-resign").hidden = !haveGame || !isPlayer(g);
  $("btn-flip").hidden = !haveGame;
  $("intro").hidden = haveGame;
  // the server says whether an undo would take something back (not after a resignation or
  // an agreed draw, nor when only the computer has moved)
  $("btn-undo").disabled = !haveGame || state.busy || !g.history.length || g.can_undo === false;
  $("btn-resign").disabled = over || state.busy;
  $("btn-draw").hidden = !g || g.opponent !== "friend" || !isPlayer(g);
  $("btn-draw").disabled = over || state.busy;
  $("btn-pdn").hidden = !haveGame;
  if ($("btn-analyse")) { $("btn-analyse").hidden = !haveGame; if (g) $("btn-analyse").href = `/analysis?game=${g.id}`; }
  $("type-move").hidden = !haveGame || over || !isPlayer(g);
  $("move-input").disabled = over || state.busy;
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
    b.textContent = text;
    b.dataset.ply = String(ply);
    const viewing = state.viewPly === null ? g.history.length : state.viewPly;
    if (ply + 1 === viewing) b.classList.add("current");
    b.addEventListener("click", () => showPly(ply));
    row.append(b);
  });
  if (state.viewPly === null) list.scrollTop = list.scrollHeight;   // the list only, not the page
}

function showPly(ply) {
  if (state.busy) return;
  state.sel = null;
  const g = state.game;
  state.viewPly = ply + 1 >= g.history.length ? null : ply + 1;
  message("");
  render();
}

function message(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${text ? kind : ""}`;
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
  if (!res.ok) {
    const err = new Error(body.error || res.statusText);
    err.status = res.status;
    err.code = body.code;
    throw err;
  }
  return body;
}

async function animateMove(move, fromFen) {
  let pieces = parseFen(fromFen).pieces;
  const piece = pieces[move.from];
  const path = move.path;
  for (let i = 1; i < path.length; i++) {
    pieces = { ...pieces };
    delete pieces[path[i - 1]];
    pieces[path[i]] = piece;
    state.shown = {
      pieces,
      highlights: { start: move.from, last: path.slice(0, i + 1), captured: move.captures.slice(0, i) },
    };
    render();
    await sleep(i === path.length - 1 ? 260 : 340);
  }
  state.shown = null;
}

// Every move goes this way, clicked, dragged, typed or an attempt the page cannot match:
// back to the live position, the move sent with the version it was chosen on, the thinking
// indicator against the computer. `move` is the legal move the page matched (drawn at once),
// or null when only the server can read `text` (short notation, an illegal attempt).
// `attempt`: a click the legal moves do not contain (no thinking indicator: it is refused).
async function submitMove(move, text = move ? move.move : "", attempt = false) {
  const g = state.game;
  if (move) state.sel = null;
  state.viewPly = null;
  state.busy = true;
  const before = g.history.length;
  if (move) {
    state.shown = {
      pieces: piecesAfter(currentPieces(), move),
      highlights: { last: move.path, captured: [] },
    };
    // Show the move at once (list, turn) while the server checks it and the computer replies.
    state.game = {
      ...g, history: [...g.history, move.move], legal_moves: [], last_move: move,
      turn: g.turn === "white" ? "black" : "white",
    };
  }
  const vsComputer = g.opponent === "computer";
  message("");
  $("thinking").hidden = !vsComputer || attempt;
  render();
  try {
    const next = await api(`/api/games/${g.id}/moves`,
      { method: "POST", body: { move: text, version: g.version } });
    $("thinking").hidden = true;
    state.sel = null;
    if (next.history.length > before + 1 && next.last_move) {
      // your move first, then the computer's reply jump by jump
      state.game = { ...next, history: next.history.slice(0, before + 1) };
      state.shown = null;
      await animateMove(next.last_move, next.positions[next.positions.length - 2]);
    }
    state.game = next;
    message("");
  } catch (err) {
    $("thinking").hidden = true;
    state.game = g;
    message(err.message);
    if (err.status === 409 || err.status >= 500) await refresh();
  } finally {
    state.shown = null;
    state.busy = false;
    render();
  }
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
      await animateMove(g.last_move, g.positions[g.positions.length - 2]);
    }
    state.game = g;
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
// input: the same entry point for click, tap, drag and keyboard
function movesFrom(label) {
  return state.game.legal_moves.filter((m) => m.from === label);
}

function choose(label) {
  const g = state.game;
  if (!g || state.busy) return;
  if (state.viewPly !== null) { showPly(g.history.length - 1); return; }
  if (g.result) return;
  if (!humanToMove()) return;
  const pieces = parseFen(g.fen).pieces;
  const piece = pieces[label];
  if (!state.sel) {
    const moves = movesFrom(label);
    if (moves.length) {
      state.sel = { entered: [label], candidates: moves };
      message(fmt(S.selected, { piece: pieceName(piece), square: label }), "info");
      render();
    } else if (piece) {
      explain(label);   // the server says why this piece cannot move now
    }
    return;
  }
  const { entered, candidates } = state.sel;
  const next = candidates.filter((m) => m.path.length > entered.length && m.path[entered.length] === label);
  if (next.length) {
    const now = [...entered, label];
    if (next.length === 1) {   // complete, or the only path left: it completes itself
      submitMove(next[0]);
      return;
    }
    state.sel = { entered: now, candidates: next };
    message(S.capture_goes_on, "info");
    render();
    return;
  }
  const ending = candidates.filter((m) => m.to === label);
  if (ending.length === 1 && label !== entered[0]) {   // straight to the end square (drag)
    submitMove(ending[0]);
    return;
  }
  if (entered.length === 1 && label === entered[0]) {   // put the piece back
    state.sel = null;
    message("");
    render();
    return;
  }
  if (entered.length === 1 && movesFrom(label).length) {  // another piece
    state.sel = null;
    choose(label);
    return;
  }
  if (entered.length === 1 && piece && piece.startsWith(g.turn)) {
    state.sel = null;
    render();
    explain(label);
    return;
  }
  if (label === entered[entered.length - 1]) return;   // the square the piece stands on
  // Anything else is an attempt the legal moves do not contain: ask the server why. In the
  // middle of a capture the squares entered so far are kept.
  const capture = candidates.some((m) => m.captures.length);
  const text = [...entered, label].join(sepFor(capture));
  state.sel = entered.length > 1 ? state.sel : null;
  render();
  tryText(text, true);
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
  return !!sel && sel.entered.length > 1 && sel.entered[sel.entered.length - 1] === label;
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
    const start = midCaptureAt(drag.from) ? state.sel.entered[0] : drag.from;
    if (!midCaptureAt(drag.from)) {
      state.sel = null;          // whatever was selected, the dragged piece is now
      choose(drag.from);
    }
    const piece = parseFen(state.game.fen).pieces[start];
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

// Keyboard: Enter/Space choose the focused square; arrows move between squares.
svg.addEventListener("keydown", (e) => {
  const sq = e.target.closest && e.target.closest("[data-square]");
  if (!sq) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    choose(sq.dataset.square);
    return;
  }
  if (e.key === "Escape" && state.sel) {   // put the piece back
    e.stopPropagation();
    state.sel = null;
    message("");
    render();
    return;
  }
  const steps = { ArrowLeft: [-2, 0], ArrowRight: [2, 0], ArrowUp: [-1, -1], ArrowDown: [-1, 1] };
  if (!(e.key in steps)) return;
  e.preventDefault();
  const [dx, dy] = steps[e.key];
  const x = Number(sq.dataset.x), y = Number(sq.dataset.y);
  const all = [...svg.querySelectorAll("[data-square]")];
  const at = (ax, ay) => all.find((s) => Number(s.dataset.x) === ax && Number(s.dataset.y) === ay);
  let target = dy === 0 ? at(x + dx, y) : (at(x - 1, y + dy) || at(x + 1, y + dy));
  if (target) target.focus();
});

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
